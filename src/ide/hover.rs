//! Hover: what the name under the cursor means in play.

use super::{Analysis, Occurrence, Role, key_meaning, objects_at, word_class};
use crate::analysis::board::{LevelCtx, WordClass, extent};
use crate::analysis::pins::Pins;
use crate::analysis::reset::Axis;
use crate::analysis::words::NounSet;
use crate::model::{EventClaimKind, Kind};
use crate::span::Span;
use crate::syntax::ast::LevelStmtKind;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A hover answer: Markdown text and the span it describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverInfo {
    /// The text, in Markdown.
    pub markdown: String,
    /// The name it is about.
    pub span: Span,
}

/// What the core properties do (`rules.md` §4), for hovers over property words.
pub(crate) fn core_meaning(word: &str) -> Option<&'static str> {
    Some(match word {
        "YOU" => "You move it: every input moves each YOU thing one cell.",
        "PUSH" => "It is pushed along when something moves into it.",
        "STOP" => "Nothing can move into its cell.",
        "WIN" => "A YOU thing that shares its cell wins the level.",
        "SINK" => "Whatever shares its cell sinks with it: everything there is removed.",
        "DEFEAT" => "A YOU thing in its cell is removed.",
        "GOAL" => "Every GOAL thing must be covered by a PUSH thing to win.",
        "FRAIL" => "It crumbles into its frail leftover when something leaves it.",
        "FLOAT" => "It floats: it only touches things that float too.",
        "IS" => "Joins a subject to a predicate: NOUN IS PROPERTY or NOUN IS NOUN.",
        "AND" => "Joins subjects or predicates: A AND B IS C.",
        _ => return None,
    })
}

/// The hover at `offset`, without check results.
pub fn hover(a: &Analysis, offset: usize) -> Option<HoverInfo> {
    hover_with_checks(a, offset, &BTreeMap::new())
}

/// The hover at `offset`; `checks` holds the last check result of each level
/// (by id), shown on level headers.
pub fn hover_with_checks(
    a: &Analysis,
    offset: usize,
    checks: &BTreeMap<String, String>,
) -> Option<HoverInfo> {
    let Some(occ) = a.occurrence_at(offset) else {
        return statement_hover(a, offset);
    };
    let markdown = match occ.role {
        Role::BoardWord { fixed } => board_word(a, occ, fixed),
        Role::BoardKey => board_key(a, occ),
        Role::LegendKey => legend_key(a, occ),
        Role::LevelId => level_header(a, occ, checks),
        Role::Channel => format!(
            "**channel {}**\n\nPlates and gates of one channel are linked: a gate is open while a plate of its channel is pressed.\n\n{}",
            occ.text,
            rules_link("gates-and-plates")
        ),
        Role::PackId => format!("**pack {}**", occ.text),
        Role::AutomatonId => format!("**automaton {}**", occ.text),
        _ => word(a, occ),
    };
    Some(HoverInfo {
        markdown,
        span: occ.span,
    })
}

/// A word anywhere outside a board: a property's meaning or a noun's glyph.
fn word(a: &Analysis, occ: &Occurrence) -> String {
    let mut out = String::new();
    match word_class(a, occ.level, &occ.text) {
        WordClass::Property => property_text(a, occ.level, &occ.text, &mut out),
        WordClass::Is | WordClass::And => {
            let _ = write!(out, "**{}**", occ.text);
            if let Some(m) = core_meaning(&occ.text) {
                let _ = write!(out, "\n\n{m}");
            }
            if let Some(anchor) = crate::reference::word_anchor(&occ.text) {
                let _ = write!(out, "\n\n{}", rules_link(anchor));
            }
        }
        WordClass::Noun => {
            if a.pack()
                .is_some_and(|p| p.glossary.iter().any(|g| g.word.text == occ.text))
            {
                property_text(a, occ.level, &occ.text, &mut out);
            } else {
                noun_text(a, &occ.text, &mut out);
            }
        }
    }
    out
}

fn property_text(a: &Analysis, level: Option<usize>, w: &str, out: &mut String) {
    let _ = write!(out, "**{w}** (property)");
    if let Some(g) = a
        .pack()
        .and_then(|p| p.glossary.iter().find(|g| g.word.text == w))
    {
        let _ = write!(out, "\n\n{} (accent {})", g.describe, g.accent);
    } else if let Some(m) = core_meaning(w) {
        let _ = write!(out, "\n\n{m}");
    }
    let mut anchor = crate::reference::word_anchor(w);
    if let Some(l) = level.and_then(|i| a.level(i)) {
        if let Some(au) = l.automata.iter().find(|x| x.property.text == w) {
            let pattern: String = au.pattern.iter().map(|s| s.letter()).collect();
            let _ = write!(
                out,
                "\n\nDriven by automaton `{}`: pattern `{pattern}`.",
                au.id.text
            );
            anchor = anchor.or(Some("automata"));
        }
        if let Some(p) = l.pairs.iter().find(|p| p.words.iter().any(|x| x.text == w)) {
            let words: Vec<&str> = p.words.iter().map(|x| x.text.as_str()).collect();
            let _ = write!(
                out,
                "\n\nA pair word: `pair {}` ({}).",
                words.join(" "),
                p.effect
            );
            anchor = anchor.or(Some("pairs"));
        }
    }
    if let Some(anchor) = anchor {
        let _ = write!(out, "\n\n{}", rules_link(anchor));
    }
}

fn noun_text(a: &Analysis, noun: &str, out: &mut String) {
    let _ = write!(out, "**{noun}** (noun)");
    match a
        .pack()
        .and_then(|p| p.palette.iter().find(|e| e.noun.text == noun))
    {
        Some(e) => {
            let _ = write!(out, "\n\nGlyph {}", e.glyph);
            if let Some(f) = &e.faces {
                let _ = write!(out, ", faces {f}");
            }
            if let Some(f) = &e.fallback {
                let _ = write!(out, ", fallback {f}");
            }
            if e.terrain {
                out.push_str(", drawn as terrain");
            }
            out.push('.');
        }
        None => match crate::model::builtin_glyph(noun) {
            Some(g) => {
                let _ = write!(out, "\n\nBuilt-in glyph {g}: no palette entry needed.");
            }
            None => out.push_str(
                "\n\nNo glyph: no palette entry and no built-in emoji, so it shows as a text label.",
            ),
        },
    }
    let _ = write!(out, "\n\n{}", rules_link("nouns-and-glyphs"));
}

/// The glyph a noun is drawn with and a space, or nothing when it has none
/// (its palette entry, else its built-in glyph, as the renderer draws it).
fn glyph_prefix(a: &Analysis, noun: &str) -> String {
    let glyph = match a.pack() {
        Some(p) => crate::render::glyph::look(p, noun).glyph,
        None => crate::model::builtin_glyph(noun)
            .unwrap_or_default()
            .to_string(),
    };
    if glyph.is_empty() {
        glyph
    } else {
        format!("{glyph} ")
    }
}

/// The closing line of a hover that names the section of the rules reference.
fn rules_link(anchor: &str) -> String {
    format!("Rules: `docs/rules.md#{anchor}` (`miauc explain {anchor}`).")
}

/// Sentences through a word tile, the rules they yield at reset, and its pin.
fn board_word(a: &Analysis, occ: &Occurrence, fixed: bool) -> String {
    let mut out = String::new();
    let class = word_class(a, occ.level, &occ.text);
    let class_name = match class {
        WordClass::Is => "IS",
        WordClass::And => "AND",
        WordClass::Property => "property word",
        WordClass::Noun => "noun word",
    };
    let _ = write!(
        out,
        "**{}{}** ({}{class_name})",
        occ.text,
        if fixed { "!" } else { "" },
        if fixed { "fixed " } else { "" }
    );
    let (Some(i), Some((x, y))) = (occ.level, occ.cell) else {
        return out;
    };
    let (Some(level), Some(pack)) = (a.level(i), a.pack()) else {
        return out;
    };
    let _ = write!(out, " at column {x}, row {y}");
    let obj = objects_at(level, (x, y), Kind::Word)
        .into_iter()
        .find(|o| o.text == occ.text);
    let facts = a.facts(i);
    let view = facts.and_then(|f| f.view.as_ref());
    let nouns = NounSet::of(pack);
    let ctx = LevelCtx::new(pack, level, &nouns, view);
    if let (Some(obj), Some(view)) = (obj, view) {
        // Group the records by sentence (axis and word path).
        let mut sentences: Vec<(Axis, Vec<String>, Vec<String>)> = Vec::new();
        for r in view.rules.iter().filter(|r| r.axis != Axis::Terrain) {
            if !r.words.contains(&obj.id) {
                continue;
            }
            let rule = format!("{} IS {}", r.subject, r.predicate);
            match sentences
                .iter_mut()
                .find(|(ax, w, _)| *ax == r.axis && *w == r.words)
            {
                Some(s) => {
                    if !s.2.contains(&rule) {
                        s.2.push(rule);
                    }
                }
                None => sentences.push((r.axis, r.words.clone(), vec![rule])),
            }
        }
        for axis in [Axis::H, Axis::V] {
            let name = if axis == Axis::H { "Across" } else { "Down" };
            let found: Vec<_> = sentences.iter().filter(|s| s.0 == axis).collect();
            if found.is_empty() {
                let _ = write!(out, "\n\n{name}: no sentence at reset.");
                continue;
            }
            for (_, words, rules) in found {
                let texts: Vec<&str> = words
                    .iter()
                    .filter_map(|id| level.objects.iter().find(|o| &o.id == id))
                    .map(|o| o.text.as_str())
                    .collect();
                let cells: Vec<(u32, u32)> = words
                    .iter()
                    .filter_map(|id| level.objects.iter().find(|o| &o.id == id))
                    .map(|o| (o.x, o.y))
                    .collect();
                let _ = write!(
                    out,
                    "\n\n{name}: `{}` ({}) yields {}.",
                    texts.join(" "),
                    extent(&cells),
                    rules
                        .iter()
                        .map(|r| format!("`{r}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
        }
    } else if view.is_none() {
        out.push_str("\n\nThe engine can't reset this level yet, so its sentences aren't known.");
    }
    let pins = Pins::compute(&ctx);
    if fixed {
        out.push_str("\n\nFixed: it can never be pushed or destroyed.");
    } else if pins.is_pinned(i64::from(x), i64::from(y)) {
        out.push_str("\n\nPinned: no push can ever move it.");
    } else {
        out.push_str("\n\nNot pinned: it can be pushed.");
    }
    let mut desc = String::new();
    match class {
        WordClass::Property => property_text(a, occ.level, &occ.text, &mut desc),
        WordClass::Noun => noun_text(a, &occ.text, &mut desc),
        WordClass::Is | WordClass::And => {}
    }
    if let Some((_, rest)) = desc.split_once("\n\n") {
        let _ = write!(out, "\n\n{rest}");
    }
    out
}

/// The things a board key stands for: noun, glyph and properties at reset.
fn board_key(a: &Analysis, occ: &Occurrence) -> String {
    let mut out = String::new();
    let Some(meaning) = key_meaning(a, occ.level, &occ.text) else {
        let _ = write!(out, "**{}**: not in any legend.", occ.text);
        return out;
    };
    let _ = write!(out, "**{}**", occ.text);
    if let Some((x, y)) = occ.cell {
        let _ = write!(out, " at column {x}, row {y}");
    }
    let (level, facts) = match occ.level {
        Some(i) => (a.level(i), a.facts(i)),
        None => (None, None),
    };
    let things = match (level, occ.cell) {
        (Some(l), Some(at)) => objects_at(l, at, Kind::Thing),
        _ => Vec::new(),
    };
    for (noun, channel) in &meaning.things {
        let glyph = glyph_prefix(a, noun);
        let _ = write!(out, "\n\n{glyph}**{noun}**");
        match channel {
            Some(c) => {
                let _ = write!(out, " (channel {c})");
            }
            None if glyph.is_empty() => out.push_str(" (no glyph: it shows as a text label)"),
            None => {}
        }
        let obj = things.iter().find(|o| &o.text == noun);
        if let (Some(o), Some(f), Some(_)) = (obj, facts, channel) {
            if noun == "GATE" {
                let state = if f.open.contains(&o.id) {
                    "open"
                } else {
                    "closed"
                };
                let _ = write!(out, ", {state} at reset");
            }
        }
        if let (Some(o), Some(f)) = (obj, facts) {
            let view = f.view.as_ref();
            if let Some(t) = view.and_then(|v| v.transformed.iter().find(|t| t.id == o.id)) {
                let _ = write!(out, ": becomes {} at reset", t.to);
            }
            if let Some(d) = view.and_then(|v| v.destroyed.iter().find(|d| d.id == o.id)) {
                let _ = write!(out, ": removed at reset ({})", d.cause);
            } else {
                match f.props.get(&o.id) {
                    Some(p) if !p.is_empty() => {
                        let _ = write!(out, ": {} at reset", p.join(", "));
                    }
                    Some(_) => out.push_str(": no properties at reset"),
                    None => {}
                }
            }
        }
    }
    let source = match (meaning.defined_at, meaning.level) {
        (None, _) => "the default legend",
        (Some(_), Some(_)) => "the level's legend",
        (Some(_), None) => "the pack legend",
    };
    let _ = write!(out, "\n\nFrom {source}.");
    out
}

/// A legend entry's meaning and how often boards use it.
fn legend_key(a: &Analysis, occ: &Occurrence) -> String {
    let mut out = String::new();
    let meaning = key_meaning(a, occ.level, &occ.text);
    let _ = write!(out, "**{}** (legend key)", occ.text);
    if let Some(m) = meaning {
        let parts: Vec<String> = m
            .things
            .iter()
            .map(|(n, c)| {
                let glyph = glyph_prefix(a, n);
                match c {
                    Some(c) => format!("{glyph}{n} channel {c}"),
                    None => format!("{glyph}{n}"),
                }
            })
            .collect();
        let _ = write!(out, "\n\nStands for {}.", parts.join(" + "));
    }
    let uses = super::nav::references(a, occ.span.start as usize, false).len();
    let _ = write!(
        out,
        "\n\nUsed in {}.",
        crate::diag::wording::count(uses, "board cell")
    );
    out
}

/// A level header: size, counts, rules at reset and the last check.
fn level_header(a: &Analysis, occ: &Occurrence, checks: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let _ = write!(out, "**level {}**", occ.text);
    let Some(i) = occ.level else { return out };
    let Some(level) = a.level(i) else { return out };
    if let Some(t) = &level.title {
        let _ = write!(out, " — {t}");
    }
    let words = level
        .objects
        .iter()
        .filter(|o| o.kind == Kind::Word)
        .count();
    let things = level.objects.len() - words;
    let _ = write!(
        out,
        "\n\n{}×{} board, {}, {}.",
        level.width,
        level.height,
        crate::diag::wording::count(words, "word tile"),
        crate::diag::wording::count(things, "thing")
    );
    if let Some(c) = &level.category {
        let _ = write!(out, " Category {}.", c.text);
    }
    if let Some(s) = &level.check.solution {
        let _ = write!(
            out,
            " Recorded solution: {}.",
            crate::diag::wording::count(
                s.text.chars().filter(|c| !c.is_whitespace()).count(),
                "step"
            )
        );
    }
    let rules = rules_at_reset(a, i);
    if !rules.is_empty() {
        let _ = write!(out, "\n\nRules at reset: {}.", rules.join(" · "));
    }
    match checks.get(&occ.text) {
        Some(r) => {
            let _ = write!(out, "\n\nLast check: {r}");
        }
        None => out.push_str("\n\nNot checked yet."),
    }
    out
}

/// The distinct rules of level `i` at reset, `SUBJECT IS PREDICATE`, in reading order.
pub(crate) fn rules_at_reset(a: &Analysis, i: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(view) = a.facts(i).and_then(|f| f.view.as_ref()) {
        for r in &view.rules {
            let t = format!("{} IS {}", r.subject, r.predicate);
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// What a level statement's keyword says, as `docs/language.md` lists the
/// statements.
fn statement_meaning(kind: &LevelStmtKind) -> (&'static str, &'static str) {
    match kind {
        LevelStmtKind::Title(_) => ("title", "The level's title, shown to players."),
        LevelStmtKind::Category(_) => (
            "category",
            "The level's place in the pack: `required`, `optional` or `challenge`.",
        ),
        LevelStmtKind::Introduces(_) => (
            "introduces",
            "The words (tokens) and ideas (strings) this level teaches first.",
        ),
        LevelStmtKind::Reuses(_) => ("reuses", "What this level practises again."),
        LevelStmtKind::Hint(_) => ("hint", "The hint shown to the player."),
        LevelStmtKind::Solution(_) => (
            "solution",
            "A recorded route (U D L R W); `check` replays it to prove the level still wins, and `check --fix` writes it.",
        ),
        LevelStmtKind::Steps(_, None) => (
            "steps",
            "The length of the shortest route; `check` proves it.",
        ),
        LevelStmtKind::Steps(_, Some(_)) => (
            "steps",
            "The length of the best route known, not proven shortest; `at-least` is the fewest steps a shorter route could take. `check` holds both against what it finds.",
        ),
        LevelStmtKind::MustForm(_) => (
            "must-form",
            "A rule every win must form: `check` proves the level unsolvable without it.",
        ),
        LevelStmtKind::MustBreak(_) => (
            "must-break",
            "A rule active at reset that every win must break: `check` proves the level unsolvable while it holds.",
        ),
        LevelStmtKind::MustLoseWord => (
            "must-lose-word",
            "Every win destroys at least one word: `check` proves the level unsolvable when no word may be lost.",
        ),
        LevelStmtKind::MustHappen(kind, _) => (kind.keyword(), claim_meaning(*kind)),
        LevelStmtKind::Budget(_) => (
            "budget",
            "The solver's state budget for this level (states expanded before LIMIT).",
        ),
        LevelStmtKind::Allow(_) => (
            "allow",
            "Silences one diagnostic for this level, with the reason it is by design.",
        ),
        LevelStmtKind::Terrain(_) => (
            "terrain",
            "Built-in, unbreakable `NOUN IS STOP` for these nouns: no word carries the rule, so it can't be pushed apart.",
        ),
        LevelStmtKind::Automaton(_) => (
            "automaton",
            "A property word that moves things by itself: while `SUBJECT IS PROPERTY` holds, each takes the pattern's next step every turn, after the YOU move.",
        ),
        LevelStmtKind::Pair(_) => (
            "pair",
            "Two property words that destroy each other where their things meet; with `enter`, one walks into the other even when it is STOP or PUSH.",
        ),
        LevelStmtKind::Frail(_) => (
            "frail",
            "What each FRAIL noun leaves behind when it crumbles (`frail DRIFT -> WATER`); a noun without a leftover disappears.",
        ),
    }
}

/// What a claim over events says, as `docs/language.md` lists it.
fn claim_meaning(kind: EventClaimKind) -> &'static str {
    match kind {
        EventClaimKind::Lose => {
            "Every win loses a thing of one of these nouns (sunk, defeated, destroyed by a pair, crumbled or transformed): `check` proves the level unsolvable while none may be lost."
        }
        EventClaimKind::Crumble => {
            "Every win makes a FRAIL thing crumble (of one of these nouns, when named): `check` proves the level unsolvable while nothing may crumble."
        }
        EventClaimKind::Become => {
            "Every win transforms a thing into one of these nouns: `check` proves the level unsolvable while no thing may become one."
        }
        EventClaimKind::Press => {
            "Every win presses a plate that opens its gate (on one of these channels, when named): `check` proves the level unsolvable while no such gate may open."
        }
        EventClaimKind::Pair => {
            "Every win makes a pair's two things meet and destroy each other: `check` proves the level unsolvable while no pair may meet."
        }
        EventClaimKind::PushWord => {
            "Every win has an automaton's thing push a word: `check` proves the level unsolvable while no automaton may push one."
        }
    }
}

/// What a `category` value means for the pack.
fn category_meaning(value: &str) -> Option<&'static str> {
    Some(match value {
        "required" => "On the world's main path: players solve it to go on.",
        "optional" => "Off the main path: players may skip it.",
        "challenge" => {
            "A level for players who want more: long (25 steps or more for at least one in a world), with a rule edit they don't expect."
        }
        _ => return None,
    })
}

/// Hover over a level statement's keyword, an `allow`'s code or name, or a
/// `category` value: what it means, and where to read more.
fn statement_hover(a: &Analysis, offset: usize) -> Option<HoverInfo> {
    let stmt = a
        .ast_levels()
        .into_iter()
        .flat_map(|l| l.stmts.iter())
        .find(|s| s.span.contains(offset))?;
    if let LevelStmtKind::Allow(allow) = &stmt.kind
        && allow.code.span.contains(offset)
    {
        let info = crate::diag::lookup(&allow.code.text)?;
        return Some(HoverInfo {
            markdown: format!(
                "**{} {}** ({})\n\n{}\n\n`miauc explain {}`",
                info.code,
                info.name,
                info.severity.as_str(),
                crate::diag::sarif::trigger_text(info.code),
                info.name
            ),
            span: allow.code.span,
        });
    }
    if let LevelStmtKind::Category(value) = &stmt.kind
        && value.span.contains(offset)
    {
        return Some(HoverInfo {
            markdown: format!(
                "**category {}**\n\n{}",
                value.text,
                category_meaning(&value.text)?
            ),
            span: value.span,
        });
    }
    if !stmt.keyword.contains(offset) {
        return None;
    }
    let (keyword, meaning) = statement_meaning(&stmt.kind);
    Some(HoverInfo {
        markdown: format!("**{keyword}**\n\n{meaning}"),
        span: stmt.keyword,
    })
}
