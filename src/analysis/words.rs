//! Note B: words, nouns and properties; M301–M305 and M308.

use std::collections::{BTreeMap, BTreeSet};

use super::board::{CORE_PROPERTIES, FEATURE_PROPERTIES, LevelCtx, WordClass, cell_name};
use super::view::Axis;
pub use super::view::NounSet;
use crate::diag::Diagnostic;
use crate::model::{Kind, Named, Pack};
use crate::span::Span;

/// The did-you-mean candidates of catalogue 1.7 ([`crate::suggest`]): the
/// closest names, up to three on a tie, in alphabetical order.
pub fn did_you_mean<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Vec<&'c str> {
    let mut sorted: Vec<&'c str> = candidates.into_iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    crate::suggest::suggest(word, &sorted)
}

/// Pack-wide checks: M304 and M305.
pub fn pack_checks(pack: &Pack, out: &mut Vec<Diagnostic>) {
    // Custom properties declared anywhere, with the span of the first declaration.
    let mut declared: BTreeMap<&str, crate::span::Span> = BTreeMap::new();
    for l in &pack.levels {
        for a in &l.automata {
            declared.entry(&a.property.text).or_insert(a.property.span);
        }
        for p in &l.pairs {
            for w in &p.words {
                declared.entry(&w.text).or_insert(w.span);
            }
        }
    }
    let glossary: BTreeSet<&str> = pack.glossary.iter().map(|g| g.word.text.as_str()).collect();
    for (&w, &span) in &declared {
        if !glossary.contains(w) {
            out.push(Diagnostic::new(
                "M304",
                span,
                format!(
                    "{w} has no glossary entry, so players meet the tile with no explanation. \
                     Give it an accent and a one-sentence describe."
                ),
            ));
        }
    }
    for g in &pack.glossary {
        let w = g.word.text.as_str();
        // Core and feature properties are properties in every level, so describing them is fine.
        let core = CORE_PROPERTIES.contains(&w) || FEATURE_PROPERTIES.contains(&w);
        if !core && !declared.contains_key(w) {
            out.push(
                Diagnostic::new(
                    "M305",
                    g.span,
                    format!("The glossary describes {w}, but no level declares {w}."),
                )
                .with_fix("Remove the glossary entry", g.span, ""),
            );
        }
    }
}

/// Per-level checks: M301, M302, M303, M308.
pub fn level_checks(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    undeclared_words(ctx, out);
    noun_is_property(ctx, out);
    unused_declarations(ctx, out);
    no_win_word(ctx, out);
}

/// M301: the silent noun trap.
fn undeclared_words(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let glossary: BTreeSet<&str> = ctx
        .pack
        .glossary
        .iter()
        .map(|g| g.word.text.as_str())
        .collect();
    let properties: Vec<&str> = CORE_PROPERTIES
        .iter()
        .chain(FEATURE_PROPERTIES)
        .copied()
        .chain(ctx.declared.iter().map(String::as_str))
        .collect();
    for o in &ctx.level.objects {
        if o.kind != Kind::Word
            || ctx.class(&o.text) != WordClass::Noun
            || ctx.nouns.contains(&o.text)
        {
            continue;
        }
        let w = &o.text;
        let active = ctx
            .rules
            .iter()
            .find(|r| r.axis != Axis::Terrain && r.predicate_id.as_deref() == Some(&o.id));
        // The message names the suggestion its fix offers (STPO: "Did you
        // mean STOP?"), so the one-line form says what the fix does.
        let nearest: Vec<&str> = did_you_mean(w, properties.iter().copied());
        let mut msg = format!(
            "Level {}, {}: {w} isn't a thing in this pack. Did you mean {}?",
            ctx.id(),
            cell_name(o.x, o.y),
            if nearest.is_empty() {
                "a property".to_string()
            } else {
                crate::suggest::or_list(&nearest)
            }
        );
        match active {
            Some(r) => msg.push_str(&format!(
                " As written, {s} IS {w} turns every {s} into {a_w} thing with no glyph.",
                s = r.subject,
                a_w = crate::diag::wording::with_article(w)
            )),
            None => msg.push_str(&format!(
                " If it ends up after IS, it turns things into {w} things with no glyph."
            )),
        }
        if glossary.contains(w.as_str()) {
            msg.push_str(&format!(
                " {w} is in the glossary, but this level doesn't declare it."
            ));
        }
        // The word's own part of its cell: in a stack (`ZOT+k`) the fix
        // replaces `ZOT` and keeps the rest.
        let mut d = Diagnostic::new("M301", o.written(), msg)
            .with_level(ctx.id())
            .with_cell(o.x, o.y);
        let bang = if o.fixed { "!" } else { "" };
        for c in nearest {
            d = d.with_fix(
                format!("Replace with {c}"),
                o.written(),
                format!("{c}{bang}"),
            );
        }
        out.push(d);
    }
}

/// M302: a thing named after an automaton property of its level.
fn noun_is_property(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    for o in &ctx.level.objects {
        if o.kind != Kind::Thing {
            continue;
        }
        if let Some(a) = ctx
            .level
            .automata
            .iter()
            .find(|a| a.property.text == o.text)
        {
            out.push(
                Diagnostic::new(
                    "M302",
                    o.span,
                    format!(
                        "Level {}, {}: {w} is a property in this level (automaton {id}), so there can't be {} thing.",
                        ctx.id(),
                        cell_name(o.x, o.y),
                        crate::diag::wording::with_article(&o.text),
                        w = o.text,
                        id = a.id.text
                    ),
                )
                .with_level(ctx.id())
                .with_cell(o.x, o.y)
                .with_related(a.span, "declared here"),
            );
        }
    }
}

/// M303: declarations that can never act.
fn unused_declarations(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let has_word = |w: &str| {
        ctx.level
            .objects
            .iter()
            .any(|o| o.kind == Kind::Word && o.text == w)
    };
    let has_thing = |n: &str| {
        ctx.level
            .objects
            .iter()
            .any(|o| o.kind == Kind::Thing && o.text == n)
    };
    let id = ctx.id();
    // The diagnostic's span, what the fix removes, the message.
    let mut push = |span, remove, msg: String| {
        out.push(Diagnostic::new("M303", span, msg).with_level(id).with_fix(
            "Remove the declaration",
            remove,
            "",
        ));
    };
    let mut seen = BTreeSet::new();
    for a in &ctx.level.automata {
        let w = &a.property.text;
        if !has_word(w) && seen.insert(w.clone()) {
            push(
                a.span,
                a.span,
                format!(
                    "Level {id} declares {w} (automaton {}), but there's no {w} word on the board, so it never runs.",
                    a.id.text
                ),
            );
        }
    }
    for p in &ctx.level.pairs {
        for w in &p.words {
            if !has_word(&w.text) {
                push(
                    p.span,
                    p.span,
                    format!(
                        "Level {id} declares {} (pair {}), but there's no {} word on the board, so it never acts.",
                        w.text,
                        p.words
                            .iter()
                            .map(|w| w.text.as_str())
                            .collect::<Vec<_>>()
                            .join(" "),
                        w.text
                    ),
                );
            }
        }
    }
    if let Some(f) = &ctx.level.frail
        && !has_word("FRAIL")
    {
        push(
            f.span,
            f.span,
            format!(
                "Level {id} declares the frail mechanic, but there's no FRAIL word on the board, so nothing crumbles."
            ),
        );
    }
    for (i, t) in ctx.level.terrain.iter().enumerate() {
        if !has_thing(&t.text) {
            push(
                t.span,
                terrain_removal(&ctx.level.terrain, i, ctx.level.terrain_span),
                format!(
                    "Level {id} declares {} terrain, but there's no {} thing on the board.",
                    t.text, t.text
                ),
            );
        }
    }
}

/// What removing terrain noun `i` deletes: the whole statement when it is the
/// only noun (a bare `terrain` doesn't parse), else the noun and the space
/// that separates it from its neighbour.
fn terrain_removal(nouns: &[Named], i: usize, statement: Span) -> Span {
    let t = nouns[i].span;
    if nouns.len() == 1 && statement != Span::default() {
        return statement;
    }
    match (i.checked_sub(1).map(|p| nouns[p].span), nouns.get(i + 1)) {
        (Some(prev), _) if prev != Span::default() && t != Span::default() => {
            Span::new(prev.end as usize, t.end as usize)
        }
        (_, Some(next)) if next.span != Span::default() && t != Span::default() => {
            Span::new(t.start as usize, next.span.start as usize)
        }
        _ => t,
    }
}

/// M308: no WIN or GOAL word on the board.
fn no_win_word(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let any = ctx
        .level
        .objects
        .iter()
        .any(|o| o.kind == Kind::Word && (o.text == "WIN" || o.text == "GOAL"));
    if !any {
        out.push(
            Diagnostic::new(
                "M308",
                ctx.level.board_span,
                format!(
                    "Level {} can't be won: there's no WIN or GOAL word on the board.",
                    ctx.id()
                ),
            )
            .with_level(ctx.id()),
        );
    }
}
