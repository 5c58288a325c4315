//! The boundary to the engine's reset (`diagnostics.md` 4.8 note A) and the
//! checks that read it: M306–M315 and M323, plus the stack hint M316.
//!
//! Stage 3 never re-implements the rules: it asks the engine for one reset per
//! level and reads a [`ResetView`], plain data with ids and texts, so the checks
//! can be tested with hand-built views and don't depend on the engine's compact
//! state types.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::board::{LevelCtx, WordClass, cell_name, count, extent};
pub use super::view::{Axis, DestroyedView, ResetView, RuleView, TransformedView};
use crate::diag::Diagnostic;
use crate::model::{Kind, Level};

/// The engine's reset of `level`, or `None` when the level is outside what the
/// engine accepts (stage 2 reports those, and such levels are skipped anyway).
///
/// Two engine resets are run: the level itself, and the level with its things
/// left out. Parsing reads only words (`rules.md` §3.1) and a board without
/// things has no contacts, so the second reset's rule list is exactly the first
/// parse of the real reset (step 2), the rules that drove its transform phase
/// and contact pass. Both are linear in the board.
pub fn engine_reset(level: &Level) -> Option<ResetView> {
    let side = 1..=crate::validate::limits::MAX_BOARD_SIDE;
    let fits = side.contains(&level.width)
        && side.contains(&level.height)
        && level.objects.len() <= 4096
        && level
            .objects
            .iter()
            .all(|o| o.x < level.width && o.y < level.height);
    if !fits {
        return None;
    }
    // A backstop: an engine panic on an unforeseen model must not take the
    // editor's analysis down with it.
    std::panic::catch_unwind(|| engine_reset_unchecked(level)).ok()
}

fn engine_reset_unchecked(level: &Level) -> ResetView {
    use crate::engine::{Cause, Game};
    let game = Game::new(level);
    let (state, report) = game.reset();
    let rules = rule_views(&game, &game.rules(&state));
    let mut words_only = level.clone();
    words_only.objects.retain(|o| o.kind == Kind::Word);
    let wgame = Game::new(&words_only);
    let (wstate, _) = wgame.reset();
    let initial_rules = rule_views(&wgame, &wgame.rules(&wstate));
    ResetView {
        initial_rules,
        rules,
        transformed: report
            .transformed
            .iter()
            .map(|t| TransformedView {
                id: game.id(t.id).to_string(),
                from: game.name(t.from).to_string(),
                to: game.name(t.to).to_string(),
            })
            .collect(),
        destroyed: report
            .destroyed
            .iter()
            .map(|d| DestroyedView {
                id: game.id(d.id).to_string(),
                cause: match d.cause {
                    Cause::Sink => "sink".to_string(),
                    Cause::Defeat => "defeat".to_string(),
                    Cause::Pair(i) => level
                        .pairs
                        .get(i as usize)
                        .and_then(|p| p.words.first())
                        .map_or("pair".to_string(), |w| w.text.to_lowercase()),
                },
            })
            .collect(),
        won_at_start: report.won_at_start,
    }
}

fn rule_views(game: &crate::engine::Game, rules: &crate::engine::Rules) -> Vec<RuleView> {
    use crate::engine::Axis as E;
    rules
        .records
        .iter()
        .map(|r| RuleView {
            subject: game.name(r.subject).to_string(),
            predicate: game.name(r.predicate).to_string(),
            axis: match r.axis {
                E::H => Axis::H,
                E::V => Axis::V,
                E::Terrain => Axis::Terrain,
            },
            words: rules
                .words(r)
                .iter()
                .map(|&w| game.id(w).to_string())
                .collect(),
            subject_id: rules.subject_word(r).map(|w| game.id(w).to_string()),
            predicate_id: rules.predicate_word(r).map(|w| game.id(w).to_string()),
        })
        .collect()
}

/// The reset-based checks of one level.
pub fn level_checks(ctx: &LevelCtx, view: &ResetView, out: &mut Vec<Diagnostic>) {
    let frail_cells = frail_on_sink(ctx, view, out);
    destroyed(ctx, view, &frail_cells, out);
    no_you(ctx, view, out);
    won_at_start(ctx, view, out);
    transformed(ctx, view, out);
    transforms_at_load(ctx, out);
    stacked_spans(ctx, out);
    moving_guard(ctx, out);
}

/// Nouns of things before the contact pass: the model's nouns with the reset's
/// transformations applied (destroyed things keep their last noun).
fn nouns_before_contacts(ctx: &LevelCtx) -> Vec<String> {
    ctx.text.clone()
}

/// Properties of every noun under one rule list (`rules.md` §4.1), built in
/// one pass so lookups inside per-thing loops stay cheap on large boards.
struct PropTable<'r> {
    map: HashMap<&'r str, BTreeSet<&'r str>>,
    terrain: BTreeSet<&'r str>,
}

impl<'r> PropTable<'r> {
    fn new(ctx: &'r LevelCtx, rules: &'r [RuleView]) -> Self {
        let mut map: HashMap<&str, BTreeSet<&str>> = HashMap::new();
        for r in rules {
            if ctx.class(&r.predicate) == WordClass::Property {
                map.entry(r.subject.as_str())
                    .or_default()
                    .insert(r.predicate.as_str());
            }
        }
        let terrain = ctx.level.terrain.iter().map(|t| t.text.as_str()).collect();
        PropTable { map, terrain }
    }

    /// Whether things of `noun` have `prop`.
    fn has(&self, noun: &str, prop: &str) -> bool {
        (prop == "STOP" && self.terrain.contains(noun))
            || self.map.get(noun).is_some_and(|p| p.contains(prop))
    }
}

fn rule_for<'r>(rules: &'r [RuleView], subject: &str, predicate: &str) -> Option<&'r RuleView> {
    rules
        .iter()
        .find(|r| r.subject == subject && r.predicate == predicate)
}

fn rule_text(ctx: &LevelCtx, rules: &[RuleView], subject: &str, predicate: &str) -> String {
    match rule_for(rules, subject, predicate) {
        Some(r) if r.axis == Axis::Terrain => format!("{subject} IS {predicate} (terrain)"),
        Some(r) => ctx.sentence_text(r),
        None => format!("{subject} IS {predicate}"),
    }
}

/// How an entity is named in messages: `BOAT`, or `the word IS`.
fn entity_name(ctx: &LevelCtx, i: usize) -> String {
    let o = ctx.obj(i);
    match o.kind {
        Kind::Thing => ctx.text[i].clone(),
        Kind::Word => format!("the word {}", o.text),
    }
}

/// M310: FRAIL things (or frail-leftover keys) starting on a SINK cell.
/// Returns the cells reported, which M309 leaves out.
fn frail_on_sink(
    ctx: &LevelCtx,
    view: &ResetView,
    out: &mut Vec<Diagnostic>,
) -> BTreeSet<(u32, u32)> {
    let nouns = nouns_before_contacts(ctx);
    let rules = &view.initial_rules;
    let pt = PropTable::new(ctx, rules);
    let leaves_keys: BTreeSet<&str> = ctx
        .level
        .frail
        .iter()
        .flat_map(|f| f.leaves.iter().map(|(k, _)| k.text.as_str()))
        .collect();
    // SINK things by cell, built once: the loop below would otherwise be quadratic.
    let mut sinks: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (j, s) in ctx.level.objects.iter().enumerate() {
        if s.kind == Kind::Thing && pt.has(&nouns[j], "SINK") {
            sinks.entry((s.x, s.y)).or_default().push(j);
        }
    }
    let mut reported = BTreeSet::new();
    for (i, o) in ctx.level.objects.iter().enumerate() {
        if o.kind != Kind::Thing || ctx.alive[i] {
            continue;
        }
        let noun = &nouns[i];
        let frail = pt.has(noun, "FRAIL") || leaves_keys.contains(noun.as_str());
        if !frail || reported.contains(&(o.x, o.y)) {
            continue;
        }
        let sink = sinks
            .get(&(o.x, o.y))
            .and_then(|v| v.iter().copied().find(|&j| j != i));
        let Some(j) = sink else { continue };
        let s = ctx.obj(j);
        let sink_noun = &nouns[j];
        reported.insert((o.x, o.y));
        out.push(
            Diagnostic::new(
                "M310",
                o.span,
                format!(
                    "Level {}, {}: {noun} sits on {sink_noun}, and {} destroys both at reset. \
                     To leave {} when the plank crumbles, use {noun} -> {sink_noun} in the frail statement.",
                    ctx.id(),
                    cell_name(o.x, o.y),
                    rule_text(ctx, rules, sink_noun, "SINK"),
                    sink_noun.to_lowercase(),
                ),
            )
            .with_level(ctx.id())
            .with_cell(o.x, o.y)
            .with_related(s.span, format!("the {sink_noun} that sinks it")),
        );
    }
    reported
}

/// Why entity `i` was removed at reset, as "sinks at reset: WATER IS SINK".
fn destroy_reason(ctx: &LevelCtx, view: &ResetView, i: usize, cause: &str) -> String {
    let nouns = nouns_before_contacts(ctx);
    let rules = &view.initial_rules;
    let pt = PropTable::new(ctx, rules);
    let o = ctx.obj(i);
    let here: Vec<usize> = (0..ctx.level.objects.len())
        .filter(|&j| {
            let p = ctx.obj(j);
            p.kind == Kind::Thing && (p.x, p.y) == (o.x, o.y)
        })
        .collect();
    let with = |prop: &str| {
        here.iter()
            .map(|&j| nouns[j].clone())
            .find(|n| pt.has(n, prop))
    };
    match cause {
        "sink" => match with("SINK") {
            Some(n) => format!("sinks at reset: {}", rule_text(ctx, rules, &n, "SINK")),
            None => "sinks at reset".into(),
        },
        "defeat" => {
            let own = &nouns[i];
            if pt.has(own, "DEFEAT") {
                let you = rule_text(ctx, rules, own, "YOU");
                let defeat = rule_text(ctx, rules, own, "DEFEAT");
                let why = if you == defeat {
                    you
                } else {
                    format!("{you}, {defeat}")
                };
                format!("destroys itself at reset: {why}")
            } else {
                match with("DEFEAT") {
                    Some(n) => {
                        format!("is stung at reset: {}", rule_text(ctx, rules, &n, "DEFEAT"))
                    }
                    None => "is stung at reset".into(),
                }
            }
        }
        pair => {
            let def = ctx.level.pairs.iter().find(|p| {
                p.words
                    .first()
                    .is_some_and(|w| w.text.eq_ignore_ascii_case(pair))
            });
            let mut rules_txt = Vec::new();
            if let Some(def) = def {
                for w in &def.words {
                    if let Some(n) = with(&w.text) {
                        rules_txt.push(rule_text(ctx, rules, &n, &w.text));
                    }
                }
            }
            if rules_txt.is_empty() {
                format!("{pair}s at reset")
            } else {
                format!("{pair}s at reset: {}", rules_txt.join(", "))
            }
        }
    }
}

/// M309: entities removed at reset, one diagnostic per level.
fn destroyed(
    ctx: &LevelCtx,
    view: &ResetView,
    skip: &BTreeSet<(u32, u32)>,
    out: &mut Vec<Diagnostic>,
) {
    let gone: Vec<(usize, &str)> = view
        .destroyed
        .iter()
        .filter_map(|d| ctx.find(&d.id).map(|i| (i, d.cause.as_str())))
        .filter(|&(i, _)| !skip.contains(&(ctx.obj(i).x, ctx.obj(i).y)))
        .collect();
    let Some(&(first, _)) = gone
        .iter()
        .min_by_key(|(i, _)| (ctx.obj(*i).y, ctx.obj(*i).x))
    else {
        return;
    };
    let mut msg = format!(
        "Level {}: {} destroyed at reset.",
        ctx.id(),
        count(gone.len(), "thing")
    );
    for &(i, cause) in gone.iter().take(5) {
        let o = ctx.obj(i);
        msg.push_str(&format!(
            " {} at {} {}.",
            entity_name(ctx, i),
            cell_name(o.x, o.y),
            destroy_reason(ctx, view, i, cause)
        ));
    }
    if gone.len() > 5 {
        msg.push_str(&format!(" And {} more.", gone.len() - 5));
    }
    let mut d = Diagnostic::new("M309", ctx.obj(first).span, msg).with_level(ctx.id());
    let mut cells = BTreeSet::new();
    for &(i, cause) in &gone {
        let o = ctx.obj(i);
        if cells.insert((o.y, o.x)) {
            d = d.with_related(o.span, format!("{} here ({cause})", entity_name(ctx, i)));
        }
    }
    for (y, x) in cells {
        d = d.with_cell(x, y);
    }
    if let Some(fix) = removal_fix(ctx, view, &gone) {
        d.fixes.push(fix);
    }
    out.push(d);
}

/// The M309 quick fix: remove what the reset destroys, offered only when the
/// reset of the level without those entities gives the same state (a word that
/// sinks at reset may have caused a transformation first), and only when every
/// entity written in the edited board cells is among them, so the edit
/// (replacing the cell by `.`) removes nothing else.
fn removal_fix(
    ctx: &LevelCtx,
    view: &ResetView,
    gone: &[(usize, &str)],
) -> Option<crate::diag::Fix> {
    use crate::diag::{Fix, TextEdit};
    use crate::span::Span;
    let gone_idx: BTreeSet<usize> = gone.iter().map(|&(i, _)| i).collect();
    let mut spans: BTreeSet<Span> = BTreeSet::new();
    for &i in &gone_idx {
        let span = ctx.obj(i).span;
        if span == Span::default() {
            return None;
        }
        spans.insert(span);
    }
    let others_share = ctx
        .level
        .objects
        .iter()
        .enumerate()
        .any(|(j, o)| !gone_idx.contains(&j) && spans.contains(&o.span));
    if others_share || gone_idx.len() != view.destroyed.len() {
        return None;
    }
    let mut without = ctx.level.clone();
    without.objects = ctx
        .level
        .objects
        .iter()
        .enumerate()
        .filter(|(j, _)| !gone_idx.contains(j))
        .map(|(_, o)| o.clone())
        .collect();
    let again = engine_reset(&without)?;
    if again.rules != view.rules
        || !again.destroyed.is_empty()
        || again.transformed != view.transformed
    {
        return None;
    }
    Some(Fix {
        title: "Remove the destroyed tiles and things".into(),
        edits: spans
            .into_iter()
            .map(|span| TextEdit {
                span,
                new_text: ".".into(),
            })
            .collect(),
    })
}

/// M306: no YOU thing in the reset state.
fn no_you(ctx: &LevelCtx, view: &ResetView, out: &mut Vec<Diagnostic>) {
    let live_things: Vec<usize> = (0..ctx.level.objects.len())
        .filter(|&i| ctx.alive[i] && ctx.obj(i).kind == Kind::Thing)
        .collect();
    let pt = PropTable::new(ctx, &view.rules);
    if live_things.iter().any(|&i| pt.has(&ctx.text[i], "YOU")) {
        return;
    }
    let you_subjects = |rules: &[RuleView]| -> Vec<String> {
        let mut s: Vec<String> = rules
            .iter()
            .filter(|r| r.predicate == "YOU")
            .map(|r| r.subject.clone())
            .collect();
        s.dedup();
        s
    };
    let initial = you_subjects(&view.initial_rules);
    let cause = if initial.is_empty() && you_subjects(&view.rules).is_empty() {
        "no sentence reads … IS YOU".to_string()
    } else {
        let subjects = if initial.is_empty() {
            you_subjects(&view.rules)
        } else {
            initial
        };
        let mut causes = Vec::new();
        for n in &subjects {
            let had: Vec<usize> = (0..ctx.level.objects.len())
                .filter(|&i| ctx.obj(i).kind == Kind::Thing && ctx.obj(i).text == *n)
                .collect();
            let you_rule = rule_text(ctx, &view.initial_rules, n, "YOU");
            if had.is_empty() {
                causes.push(format!("{you_rule} holds, but there's no {n}"));
                continue;
            }
            if let Some(t) = view.transformed.iter().find(|t| t.from == *n) {
                causes.push(format!(
                    "{} turns every {n} into {} at reset",
                    rule_text(ctx, &view.initial_rules, n, &t.to),
                    crate::diag::wording::with_article(&t.to)
                ));
                continue;
            }
            if let Some(d) = view
                .destroyed
                .iter()
                .find(|d| ctx.find(&d.id).is_some_and(|i| had.contains(&i)))
            {
                let i = ctx.find(&d.id).unwrap_or(had[0]);
                let reason = destroy_reason(ctx, view, i, &d.cause);
                let which = if had.len() == 1 { "the only" } else { "every" };
                causes.push(format!(
                    "{which} {n} is destroyed at reset ({})",
                    reason.split_once(": ").map_or(reason.as_str(), |(_, r)| r)
                ));
                continue;
            }
            causes.push(format!("{you_rule} breaks at reset"));
        }
        causes.join("; ")
    };
    out.push(
        Diagnostic::new(
            "M306",
            ctx.level.span,
            format!(
                "Level {} starts with nothing that is YOU: {cause}.",
                ctx.id()
            ),
        )
        .with_level(ctx.id()),
    );
}

/// M307: the reset state already meets the win condition.
fn won_at_start(ctx: &LevelCtx, view: &ResetView, out: &mut Vec<Diagnostic>) {
    if !view.won_at_start {
        return;
    }
    let rules = &view.rules;
    let pt = PropTable::new(ctx, rules);
    let mut detail = None;
    'search: for i in 0..ctx.level.objects.len() {
        let o = ctx.obj(i);
        if !ctx.alive[i] || o.kind != Kind::Thing {
            continue;
        }
        let noun = &ctx.text[i];
        if !pt.has(noun, "YOU") {
            continue;
        }
        if pt.has(noun, "WIN") {
            let r = rule_for(rules, noun, "WIN");
            detail = Some((i, "is also WIN".to_string(), r.cloned()));
            break;
        }
        for j in 0..ctx.level.objects.len() {
            let p = ctx.obj(j);
            if j != i && ctx.alive[j] && p.kind == Kind::Thing && (p.x, p.y) == (o.x, o.y) {
                let n = &ctx.text[j];
                if pt.has(n, "WIN") {
                    detail = Some((
                        i,
                        format!("stands on {n}, which is WIN"),
                        rule_for(rules, n, "WIN").cloned(),
                    ));
                    break 'search;
                }
            }
        }
    }
    let msg = match &detail {
        Some((i, how, rule)) => {
            let o = ctx.obj(*i);
            let by = match rule {
                Some(r) if r.axis != Axis::Terrain => {
                    format!(", by {} ({})", ctx.sentence_text(r), ctx.extent(&r.words))
                }
                _ => String::new(),
            };
            format!(
                "Level {} starts already won: {} at {} {how}{by}.",
                ctx.id(),
                ctx.text[*i],
                cell_name(o.x, o.y)
            )
        }
        None => format!(
            "Level {} starts already won: every GOAL is covered at reset.",
            ctx.id()
        ),
    };
    let mut d = Diagnostic::new("M307", ctx.level.span, msg).with_level(ctx.id());
    if let Some((i, _, _)) = detail {
        d = d.with_cell(ctx.obj(i).x, ctx.obj(i).y);
    }
    out.push(d);
}

/// M311: things that change noun during the reset.
fn transformed(ctx: &LevelCtx, view: &ResetView, out: &mut Vec<Diagnostic>) {
    let mut groups: BTreeMap<(&str, &str), Vec<usize>> = BTreeMap::new();
    for t in &view.transformed {
        if let Some(i) = ctx.find(&t.id) {
            groups.entry((&t.from, &t.to)).or_default().push(i);
        }
    }
    for ((from, to), ids) in groups {
        let rule = rule_for(&view.initial_rules, from, to);
        let at = match rule {
            Some(r) if r.axis != Axis::Terrain => format!(" ({})", ctx.extent(&r.words)),
            _ => String::new(),
        };
        let text = rule.map_or(format!("{from} IS {to}"), |r| {
            format!("{} IS {}", r.subject, r.predicate)
        });
        let first = ctx.obj(ids[0]);
        let mut d = Diagnostic::new(
            "M311",
            rule.and_then(|r| r.predicate_id.as_deref())
                .and_then(|id| ctx.find(id))
                .map_or(first.span, |i| ctx.obj(i).span),
            format!(
                "Level {}: {} {from} {} as {to}, because {text} holds at reset{at}. \
                 Players never see the {from} things.",
                ctx.id(),
                ids.len(),
                if ids.len() == 1 {
                    "thing loads"
                } else {
                    "things load"
                },
            ),
        )
        .with_level(ctx.id());
        for &i in &ids {
            d = d.with_cell(ctx.obj(i).x, ctx.obj(i).y);
        }
        out.push(d);
    }
}

/// The transformation map of a rule list (`rules.md` §4.2), with the record of each entry.
fn transform_map<'r>(
    ctx: &LevelCtx,
    rules: &'r [RuleView],
) -> (BTreeSet<&'r str>, BTreeMap<&'r str, &'r RuleView>) {
    let protected: BTreeSet<&str> = rules
        .iter()
        .filter(|r| r.subject == r.predicate)
        .map(|r| r.subject.as_str())
        .collect();
    let mut map = BTreeMap::new();
    for r in rules {
        if ctx.class(&r.predicate) == WordClass::Noun
            && r.predicate != r.subject
            && !protected.contains(r.subject.as_str())
        {
            map.entry(r.subject.as_str()).or_insert(r);
        }
    }
    (protected, map)
}

fn line_of(ctx: &LevelCtx, r: &RuleView) -> String {
    match ctx.cells_of(&r.words).first() {
        Some(&(_, y)) if r.axis == Axis::H => format!("row {y}"),
        Some(&(x, _)) if r.axis == Axis::V => format!("column {x}"),
        _ => "terrain".into(),
    }
}

fn rule_span(ctx: &LevelCtx, r: &RuleView) -> crate::span::Span {
    r.subject_id
        .as_deref()
        .and_then(|id| ctx.find(id))
        .map_or(ctx.level.span, |i| ctx.obj(i).span)
}

/// M312 (chains and cycles), M313 (conflicts) and M314 (identity blocks).
fn transforms_at_load(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let Some(view) = ctx.view else { return };
    let rules = &view.rules;
    let (protected, map) = transform_map(ctx, rules);
    let live_nouns: BTreeSet<&str> = (0..ctx.level.objects.len())
        .filter(|&i| ctx.alive[i] && ctx.obj(i).kind == Kind::Thing)
        .map(|i| ctx.text[i].as_str())
        .collect();
    let model_nouns: BTreeSet<&str> = ctx
        .level
        .objects
        .iter()
        .filter(|o| o.kind == Kind::Thing)
        .map(|o| o.text.as_str())
        .collect();
    // Cycles first: a noun whose map chain comes back to itself.
    let mut in_cycle: BTreeSet<&str> = BTreeSet::new();
    let starts: Vec<&str> = rules
        .iter()
        .map(|r| r.subject.as_str())
        .filter(|s| map.contains_key(s))
        .collect();
    for start in starts {
        if in_cycle.contains(start) {
            continue;
        }
        let mut chain = vec![start];
        let mut cur = start;
        while let Some(r) = map.get(cur) {
            let next = r.predicate.as_str();
            if next == start {
                let involved = chain.iter().any(|n| live_nouns.contains(n));
                in_cycle.extend(chain.iter().copied());
                if involved {
                    let texts: Vec<String> = chain
                        .iter()
                        .map(|n| format!("{} IS {}", n, map[n].predicate))
                        .collect();
                    let r0 = map[start];
                    out.push(
                        Diagnostic::new(
                            "M312",
                            rule_span(ctx, r0),
                            format!(
                                "Level {}: {} make these things change every turn.",
                                ctx.id(),
                                join_and(&texts)
                            ),
                        )
                        .with_level(ctx.id()),
                    );
                }
                break;
            }
            if chain.contains(&next) || chain.len() > map.len() {
                break;
            }
            chain.push(next);
            cur = next;
        }
    }
    for (&noun, &r) in &map {
        if in_cycle.contains(noun) || !live_nouns.contains(noun) {
            continue;
        }
        let loaded_from = view
            .transformed
            .iter()
            .find(|t| t.to == noun)
            .map(|t| t.from.clone());
        let msg = match loaded_from {
            Some(from) => format!(
                "Level {}: {from} loads as {noun} ({from} IS {noun}) and becomes {} on the first turn ({noun} IS {}). \
                 Transformations move one link per turn.",
                ctx.id(),
                r.predicate,
                r.predicate
            ),
            None => format!(
                "Level {}: {noun} becomes {} on the first turn ({noun} IS {}), not at reset. \
                 Transformations move one link per turn.",
                ctx.id(),
                r.predicate,
                r.predicate
            ),
        };
        out.push(Diagnostic::new("M312", rule_span(ctx, r), msg).with_level(ctx.id()));
    }
    // M313: several noun predicates for one unprotected noun that has things.
    let mut by_subject: BTreeMap<&str, Vec<&RuleView>> = BTreeMap::new();
    for r in rules {
        if ctx.class(&r.predicate) == WordClass::Noun && r.predicate != r.subject {
            let v = by_subject.entry(r.subject.as_str()).or_default();
            if !v.iter().any(|o| o.predicate == r.predicate) {
                v.push(r);
            }
        }
    }
    for (&noun, rs) in &by_subject {
        if protected.contains(noun) {
            let id_rule = rules
                .iter()
                .find(|r| r.subject == noun && r.predicate == noun);
            for r in rs {
                let id_text = id_rule.map_or(format!("{noun} IS {noun}"), |i| {
                    format!("{} IS {}", i.subject, i.predicate)
                });
                out.push(
                    Diagnostic::new(
                        "M314",
                        rule_span(ctx, r),
                        format!(
                            "Level {}: {id_text} keeps {noun} as {noun}, so {noun} IS {} does nothing while it holds.",
                            ctx.id(),
                            r.predicate
                        ),
                    )
                    .with_level(ctx.id()),
                );
            }
            continue;
        }
        if rs.len() < 2 || !(model_nouns.contains(noun) || live_nouns.contains(noun)) {
            continue;
        }
        let listed: Vec<String> = rs
            .iter()
            .map(|r| format!("{noun} IS {} ({})", r.predicate, line_of(ctx, r)))
            .collect();
        let win = rs[0];
        let mut d = Diagnostic::new(
            "M313",
            rule_span(ctx, win),
            format!(
                "Level {}: {} {} hold. Reading order picks {noun} IS {}, so every {noun} becomes {}.",
                ctx.id(),
                join_and(&listed),
                if rs.len() == 2 { "both" } else { "all" },
                win.predicate,
                crate::diag::wording::with_article(&win.predicate)
            ),
        )
        .with_level(ctx.id());
        for r in &rs[1..] {
            d = d.with_related(rule_span(ctx, r), "overridden by reading order");
        }
        out.push(d);
    }
}

/// "A and B", "A, B and C".
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// M315: sentences active at reset that run through a stack of words.
fn stacked_spans(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    // Group distinct word paths by axis and the cells they cover.
    type Paths<'r> = Vec<&'r RuleView>;
    let mut groups: BTreeMap<(Axis, Vec<(u32, u32)>), Paths> = BTreeMap::new();
    for r in &ctx.rules {
        let cells = ctx.cells_of(&r.words);
        let v = groups.entry((r.axis, cells)).or_default();
        if !v.iter().any(|o| o.words == r.words) {
            v.push(r);
        }
    }
    for ((_, cells), paths) in groups {
        if paths.len() < 2 {
            continue;
        }
        // Per cell, the distinct words the paths take there.
        let mut per_cell: Vec<Vec<String>> = vec![Vec::new(); cells.len()];
        for p in &paths {
            for (k, id) in p.words.iter().enumerate() {
                if let (Some(slot), Some(i)) = (per_cell.get_mut(k), ctx.find(id)) {
                    let t = ctx.obj(i).text.clone();
                    if !slot.contains(&t) {
                        slot.push(t);
                    }
                }
            }
        }
        let shown: Vec<String> = per_cell.iter().map(|w| w.join("+")).collect();
        let mut rules: Vec<String> = Vec::new();
        for r in ctx
            .rules
            .iter()
            .filter(|r| paths.iter().any(|p| p.words == r.words))
        {
            let t = format!("{} IS {}", r.subject, r.predicate);
            if !rules.contains(&t) {
                rules.push(t);
            }
        }
        let shared: Vec<String> = per_cell
            .iter()
            .filter(|w| w.len() > 1)
            .map(|w| format!("{} share a cell and always move together.", join_and(w)))
            .collect();
        let n = match rules.len() {
            2 => "two".to_string(),
            3 => "three".to_string(),
            n => n.to_string(),
        };
        out.push(
            Diagnostic::new(
                "M315",
                rule_span(ctx, paths[0]),
                format!(
                    "Level {}: {} ({}) is {n} rules on the same tiles, {}. {}",
                    ctx.id(),
                    shown.join(" "),
                    extent(&cells),
                    join_and(&rules),
                    shared.join(" ")
                )
                .trim_end()
                .to_string(),
            )
            .with_level(ctx.id()),
        );
    }
}

/// M316: a stack that combines IS or AND with a noun or a property.
pub fn stack_checks(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    for (k, cell) in ctx.cells.iter().enumerate() {
        if cell.words.len() < 2 {
            continue;
        }
        let classes: Vec<WordClass> = cell
            .words
            .iter()
            .map(|&i| ctx.class(&ctx.obj(i).text))
            .collect();
        let connective = classes
            .iter()
            .any(|c| matches!(c, WordClass::Is | WordClass::And));
        let content = classes
            .iter()
            .any(|c| matches!(c, WordClass::Noun | WordClass::Property));
        if !(connective && content) {
            continue;
        }
        let x = k as u32 % ctx.width;
        let y = k as u32 / ctx.width;
        let stack: Vec<&str> = cell
            .words
            .iter()
            .map(|&i| ctx.obj(i).text.as_str())
            .collect();
        let ids: BTreeSet<&str> = cell.words.iter().map(|&i| ctx.obj(i).id.as_str()).collect();
        let mut reads: Vec<String> = Vec::new();
        for r in &ctx.rules {
            if r.words.iter().any(|w| ids.contains(w.as_str())) {
                let t = format!("{} IS {}", r.subject, r.predicate);
                if !reads.contains(&t) {
                    reads.push(t);
                }
            }
        }
        let here = if ctx.view.is_none() {
            String::new()
        } else if reads.is_empty() {
            " Here it reads no rule at reset.".to_string()
        } else {
            format!(" Here it reads {}.", join_and(&reads))
        };
        out.push(
            Diagnostic::new(
                "M316",
                ctx.obj(cell.words[0]).span,
                format!(
                    "Level {}, {}: the stack {} gives one word per sentence, so each sentence through it leaves the others out.{here}",
                    ctx.id(),
                    cell_name(x, y),
                    stack.join("+")
                ),
            )
            .with_level(ctx.id())
            .with_cell(x, y),
        );
    }
}

/// M323: an automaton's actors at reset include a DEFEAT or STOP thing.
fn moving_guard(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let Some(view) = ctx.view else { return };
    let pt = PropTable::new(ctx, &view.rules);
    for a in &ctx.level.automata {
        let prop = &a.property.text;
        let active = view.rules.iter().any(|r| {
            &r.predicate == prop && a.subject.as_ref().is_none_or(|s| s.text == r.subject)
        });
        if !active {
            continue;
        }
        let mut seen = BTreeSet::new();
        for i in 0..ctx.level.objects.len() {
            let o = ctx.obj(i);
            let noun = &ctx.text[i];
            if !ctx.alive[i] || o.kind != Kind::Thing || seen.contains(noun) {
                continue;
            }
            if a.subject.as_ref().is_some_and(|s| &s.text != noun) {
                continue;
            }
            if !pt.has(noun, prop) {
                continue;
            }
            let guard = if pt.has(noun, "DEFEAT") {
                "DEFEAT. Contacts happen once, at the end of a turn, so the player can swap past it head-on; \
                 a moving hazard can't guard a corridor."
            } else if pt.has(noun, "STOP") {
                "STOP. It walks onto things instead of blocking them, and blocks only where it stands \
                 when the player moves; a moving wall can't seal a corridor."
            } else {
                continue;
            };
            seen.insert(noun.clone());
            out.push(
                Diagnostic::new(
                    "M323",
                    a.span,
                    format!(
                        "Level {}: {noun} walks (automaton {}) and is {guard}",
                        ctx.id(),
                        a.id.text
                    ),
                )
                .with_level(ctx.id())
                .with_cell(o.x, o.y),
            );
        }
    }
}
