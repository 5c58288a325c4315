//! Presentation and copy: M326–M334 (notes E and F).

use std::collections::{BTreeMap, BTreeSet};

use super::board::{LevelCtx, is_core_word};
use super::reset::Axis;
use super::words::NounSet;
use crate::diag::Diagnostic;
use crate::model::{Kind, Pack, PaletteEntry};
use crate::span::Span;

/// Boards larger than this don't read on a phone (quality bar 5).
pub const MAX_READABLE: (u32, u32) = (14, 10);

/// Nouns whose built-in glyph turns toward the moves (F-TW4).
pub const FACING_NOUNS: &[&str] = &["MIAU", "CAT"];

/// Code points introduced after Emoji 13.0, the safe floor (note F), as
/// inclusive ranges with their Emoji version. Sequences of older parts (Emoji
/// 13.1, most of 15.1) need no entry: a glyph's version is its newest part.
const NEWER_EMOJI: &[(u32, u32, &str)] = &[
    (0x1F6DD, 0x1F6DF, "14.0"),
    (0x1F7F0, 0x1F7F0, "14.0"),
    (0x1F979, 0x1F979, "14.0"),
    (0x1F9CC, 0x1F9CC, "14.0"),
    (0x1FA7B, 0x1FA7C, "14.0"),
    (0x1FAA9, 0x1FAAC, "14.0"),
    (0x1FAB7, 0x1FABA, "14.0"),
    (0x1FAC3, 0x1FAC5, "14.0"),
    (0x1FAD7, 0x1FAD9, "14.0"),
    (0x1FAE0, 0x1FAE7, "14.0"),
    (0x1FAF0, 0x1FAF6, "14.0"),
    (0x1F6DC, 0x1F6DC, "15.0"),
    (0x1FA75, 0x1FA77, "15.0"),
    (0x1FA87, 0x1FA88, "15.0"),
    (0x1FAAD, 0x1FAAF, "15.0"),
    (0x1FABB, 0x1FABD, "15.0"),
    (0x1FABF, 0x1FABF, "15.0"),
    (0x1FACE, 0x1FACF, "15.0"),
    (0x1FADA, 0x1FADB, "15.0"),
    (0x1FAE8, 0x1FAE8, "15.0"),
    (0x1FAF7, 0x1FAF8, "15.0"),
    (0x1FA89, 0x1FA89, "16.0"),
    (0x1FA8F, 0x1FA8F, "16.0"),
    (0x1FABE, 0x1FABE, "16.0"),
    (0x1FAC6, 0x1FAC6, "16.0"),
    (0x1FADC, 0x1FADC, "16.0"),
    (0x1FADF, 0x1FADF, "16.0"),
    (0x1FAE9, 0x1FAE9, "16.0"),
];

/// The Emoji version of a glyph when it is newer than the floor, else `None`.
pub fn newer_than_floor(glyph: &str) -> Option<&'static str> {
    glyph
        .chars()
        .filter_map(|c| {
            let cp = c as u32;
            NEWER_EMOJI
                .iter()
                .find(|&&(lo, hi, _)| (lo..=hi).contains(&cp))
                .map(|&(_, _, v)| v)
        })
        .max()
}

/// Pack-wide presentation checks: M329 (pack copy), M331–M334. M329 comes
/// first, then M331 for every drawn noun, then M332–M334 entry by entry of
/// the palette.
pub fn pack_checks(pack: &Pack, nouns: &NounSet, out: &mut Vec<Diagnostic>) {
    check_pack_copy(pack, out);
    let usage = GlyphUsage::collect(pack, nouns);
    check_missing_glyphs(pack, &usage, out);
    for p in &pack.palette {
        check_unused_palette_entry(p, &usage, out);
        check_emoji_floor(p, out);
        check_facing_glyph(p, out);
    }
}

/// M329 on the pack copy: the pack name, the world tagline and the glossary
/// describes.
fn check_pack_copy(pack: &Pack, out: &mut Vec<Diagnostic>) {
    if mentions_garden(&pack.name) {
        out.push(Diagnostic::new(
            "M329",
            pack.span,
            "The pack name mentions \"garden\", which the copy deck keeps out.",
        ));
    }
    if let Some(w) = &pack.world
        && let Some(t) = &w.tagline
        && mentions_garden(t)
    {
        out.push(Diagnostic::new(
            "M329",
            w.span,
            "The tagline mentions \"garden\", which the copy deck keeps out.",
        ));
    }
    for g in &pack.glossary {
        let w = &g.word.text;
        if g.describe.contains('·') {
            out.push(Diagnostic::new(
                "M329",
                g.span,
                format!("The glossary describe of {w} uses ·, which the copy deck doesn't allow."),
            ));
        }
        if mentions_garden(&g.describe) {
            out.push(Diagnostic::new(
                "M329",
                g.span,
                format!("The glossary describe of {w} mentions \"garden\", which the copy deck keeps out."),
            ));
        }
    }
}

/// What the levels of a pack draw, for the palette checks M331 and M332.
struct GlyphUsage<'a> {
    /// Property words of some level (declared by an automaton or a pair).
    properties: BTreeSet<&'a str>,
    /// Each noun drawn from the palette, with where it first appears
    /// (borrowed: the editor collects this on every edit, over every object).
    drawn: BTreeMap<&'a str, Span>,
    /// Terrain nouns, drawn as slabs.
    slab: BTreeSet<&'a str>,
    /// Nouns of things with a channel (plates and gates, the only things
    /// stage 2 lets carry one): drawn by the renderer, not from the palette.
    channelled: BTreeSet<&'a str>,
}

impl<'a> GlyphUsage<'a> {
    /// Walk every level of `pack`: its declared properties, terrain, objects
    /// and FRAIL leaves.
    fn collect(pack: &'a Pack, nouns: &NounSet) -> Self {
        let mut usage = GlyphUsage {
            properties: BTreeSet::new(),
            drawn: BTreeMap::new(),
            slab: BTreeSet::new(),
            channelled: BTreeSet::new(),
        };
        for l in &pack.levels {
            let declared = l.declared_properties();
            usage.properties.extend(declared.iter().copied());
            usage.slab.extend(l.terrain.iter().map(|t| t.text.as_str()));
            for o in &l.objects {
                let noun_word = o.kind == Kind::Word
                    && !is_core_word(&o.text)
                    && !declared.contains(o.text.as_str())
                    && nouns.contains(&o.text);
                // Plates and gates with a channel are drawn by the renderer itself.
                let channel_holder = o.kind == Kind::Thing && o.channel.is_some();
                if channel_holder {
                    usage.channelled.insert(o.text.as_str());
                }
                if (o.kind == Kind::Thing && !channel_holder) || noun_word {
                    usage.drawn.entry(o.text.as_str()).or_insert(o.span);
                }
            }
            if let Some(f) = &l.frail {
                for (k, v) in &f.leaves {
                    usage.drawn.entry(k.text.as_str()).or_insert(k.span);
                    usage.drawn.entry(v.text.as_str()).or_insert(v.span);
                }
            }
        }
        usage
    }
}

/// M331: a drawn noun with no glyph (no palette entry, no built-in emoji, not
/// a terrain slab), in noun order.
fn check_missing_glyphs(pack: &Pack, usage: &GlyphUsage, out: &mut Vec<Diagnostic>) {
    let palette: BTreeSet<&str> = pack.palette.iter().map(|p| p.noun.text.as_str()).collect();
    for (&n, span) in &usage.drawn {
        if palette.contains(n) || crate::model::builtin_glyph(n).is_some() || usage.slab.contains(n)
        {
            continue;
        }
        out.push(
            Diagnostic::new(
                "M331",
                *span,
                format!("{n} has no glyph: no palette entry and no built-in emoji, so it shows as a text label."),
            ),
        );
    }
}

/// M332: a palette entry never drawn (a property word, a noun only of
/// channelled things, or a noun no level has), with a fix removing it.
fn check_unused_palette_entry(p: &PaletteEntry, usage: &GlyphUsage, out: &mut Vec<Diagnostic>) {
    let n = p.noun.text.as_str();
    let never = if usage.properties.contains(n) || is_core_word(n) {
        Some(format!(
            "The palette gives {n} {}, but {n} is a property word, drawn as a property tile.",
            p.glyph
        ))
    } else if !usage.drawn.contains_key(n) && usage.channelled.contains(n) {
        Some(format!(
            "The palette gives {n} {}, but every {n} thing in the pack has a channel, and the renderer draws plates and gates with a channel itself, in the channel's colour: this glyph is never used.",
            p.glyph
        ))
    } else if !usage.drawn.contains_key(n) {
        Some(format!(
            "The palette gives {n} {}, but no level has {} thing or word.",
            p.glyph,
            crate::diag::wording::with_article(n)
        ))
    } else {
        None
    };
    if let Some(msg) = never {
        out.push(Diagnostic::new("M332", p.span, msg).with_fix("Remove the entry", p.span, ""));
    }
}

/// M333: a palette glyph above the Emoji floor without a fallback at or
/// below it.
fn check_emoji_floor(p: &PaletteEntry, out: &mut Vec<Diagnostic>) {
    let n = p.noun.text.as_str();
    let Some(v) = newer_than_floor(&p.glyph) else {
        return;
    };
    let bad_fallback = p.fallback.as_deref().and_then(newer_than_floor);
    if p.fallback.is_some() && bad_fallback.is_none() {
        return;
    }
    let tail = match bad_fallback {
        Some(fv) => {
            format!(" Its fallback is from Emoji {fv}; use one from Emoji 13.0 or earlier.")
        }
        None => " Add a fallback from Emoji 13.0 or earlier.".to_string(),
    };
    out.push(Diagnostic::new(
        "M333",
        p.span,
        format!(
            "{n}'s glyph {} is from Emoji {v} and shows as an empty box on older phones.{tail}",
            p.glyph
        ),
    ));
}

/// M334: a facing noun (F-TW4) drawn with another glyph and no `faces`.
fn check_facing_glyph(p: &PaletteEntry, out: &mut Vec<Diagnostic>) {
    let n = p.noun.text.as_str();
    if FACING_NOUNS.contains(&n) && p.glyph != "🐈" && p.faces.is_none() {
        out.push(Diagnostic::new(
            "M334",
            p.span,
            format!(
                "{n} is drawn with {} and declares no facing, so it won't turn toward its moves. \
                 Add faces left if the glyph looks left.",
                p.glyph
            ),
        ));
    }
}

/// Whether `text` contains "garden" as a whole word (plural and possessive included).
pub fn mentions_garden(text: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .map(|w| w.to_lowercase())
        .any(|w| {
            let w = w.trim_end_matches(['\'', '’']);
            let w = w
                .strip_suffix("'s")
                .or_else(|| w.strip_suffix("’s"))
                .unwrap_or(w);
            w == "garden" || w == "gardens"
        })
}

/// Per-level presentation checks: M326–M330.
pub fn level_checks(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let id = ctx.id();
    let l = ctx.level;
    if l.width > MAX_READABLE.0 || l.height > MAX_READABLE.1 {
        out.push(
            Diagnostic::new(
                "M326",
                l.board_span,
                format!(
                    "Level {id} is {}×{}; boards are at most 14×10 so they read on a phone.",
                    l.width, l.height
                ),
            )
            .with_level(id),
        );
    }
    sentence_spacing(ctx, out);
    if let Some(title) = &l.title {
        if let Some(better) = sentence_case(ctx, title) {
            out.push(
                Diagnostic::new(
                    "M328",
                    l.span,
                    format!(
                        "Level {id}: the title \"{title}\" isn't sentence case. Try \"{better}\"."
                    ),
                )
                .with_level(id),
            );
        }
    }
    for (what, text) in [("title", &l.title), ("hint", &l.hint)] {
        let Some(text) = text else { continue };
        if text.contains('·') {
            out.push(
                Diagnostic::new(
                    "M329",
                    l.span,
                    format!("Level {id}: the {what} uses ·, which the copy deck doesn't allow."),
                )
                .with_level(id),
            );
        }
        if mentions_garden(text) {
            out.push(
                Diagnostic::new(
                    "M329",
                    l.span,
                    format!(
                        "Level {id}: the {what} mentions \"garden\", which the copy deck keeps out."
                    ),
                )
                .with_level(id),
            );
        }
    }
    if let Some(hint) = &l.hint {
        hint_gives_answer(ctx, hint, out);
    }
}

/// M327: sentences active at reset in neighbouring lines that overlap and
/// share no tile, unless none of their words can ever move (fixed words, or
/// words no push can reach, as the pin analysis finds): such a stack reads
/// down only as it is drawn, and no move can make it read otherwise.
fn sentence_spacing(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    // (axis, line, from, to, word ids, span, cells) per distinct sentence path.
    type Placed<'w> = (
        Axis,
        u32,
        u32,
        u32,
        BTreeSet<&'w str>,
        Span,
        Vec<(u32, u32)>,
    );
    let mut sentences: Vec<Placed> = Vec::new();
    // The pin analysis, only once two sentences touch.
    let pins = std::cell::OnceCell::new();
    let can_move = |cells: &[(u32, u32)]| {
        let p = pins.get_or_init(|| super::pins::Pins::compute(ctx));
        cells
            .iter()
            .any(|&(x, y)| !p.is_pinned(i64::from(x), i64::from(y)))
    };
    for r in &ctx.rules {
        let cells = ctx.cells_of(&r.words);
        if cells.is_empty() || r.axis == Axis::Terrain {
            continue;
        }
        let (line, along): (u32, Vec<u32>) = match r.axis {
            Axis::H => (cells[0].1, cells.iter().map(|c| c.0).collect()),
            _ => (cells[0].0, cells.iter().map(|c| c.1).collect()),
        };
        let lo = along.iter().copied().min().unwrap_or(0);
        let hi = along.iter().copied().max().unwrap_or(0);
        let ids: BTreeSet<&str> = r.words.iter().map(String::as_str).collect();
        if !sentences.iter().any(|s| s.4 == ids) {
            let span = r
                .subject_id
                .as_deref()
                .and_then(|i| ctx.find(i))
                .map_or(ctx.level.board_span, |i| ctx.obj(i).span);
            sentences.push((r.axis, line, lo, hi, ids, span, cells));
        }
    }
    let mut reported = BTreeSet::new();
    for a in &sentences {
        for b in &sentences {
            if a.0 != b.0 || b.1 != a.1 + 1 || a.3 < b.2 || b.3 < a.2 || !a.4.is_disjoint(&b.4) {
                continue;
            }
            if !can_move(&a.6) && !can_move(&b.6) {
                continue;
            }
            if !reported.insert((a.0, a.1)) {
                continue;
            }
            let msg = match a.0 {
                Axis::H => format!(
                    "Level {}: the sentences in rows {} and {} touch. Leave a blank row between stacked sentences \
                     where you can; touching rows can also read down.",
                    ctx.id(),
                    a.1,
                    b.1
                ),
                _ => format!(
                    "Level {}: the sentences in columns {} and {} touch. Leave a blank column between side-by-side \
                     sentences where you can; touching columns can also read across.",
                    ctx.id(),
                    a.1,
                    b.1
                ),
            };
            out.push(
                Diagnostic::new("M327", b.5, msg)
                    .with_level(ctx.id())
                    .with_related(a.5, "the other sentence"),
            );
        }
    }
}

/// Note E: the sentence-case version of `title`, or `None` when it already is.
fn sentence_case(ctx: &LevelCtx, title: &str) -> Option<String> {
    // Gathered once per pack (NounSet), so a pack of many levels stays linear.
    let pack_word = |w: &str| ctx.nouns.board_texts.contains(w) || ctx.nouns.all.contains(w);
    let mut out = Vec::new();
    let mut changed = false;
    for (n, word) in title.split(' ').enumerate() {
        let core: String = word.chars().filter(|c| c.is_alphanumeric()).collect();
        let keep = core.is_empty()
            || core.chars().next().is_some_and(|c| c.is_ascii_digit())
            || core == "I"
            || word.starts_with("I'")
            || word.starts_with("I’")
            || (core.chars().all(|c| !c.is_lowercase()) && pack_word(core.as_str()));
        let fixed = if n == 0 {
            let mut cs = word.chars();
            match cs.next() {
                Some(c) if c.is_lowercase() => c.to_uppercase().chain(cs).collect(),
                _ => word.to_string(),
            }
        } else if keep {
            word.to_string()
        } else {
            word.to_lowercase()
        };
        changed |= fixed != word;
        out.push(fixed);
    }
    changed.then(|| out.join(" "))
}

const DIRECTION_WORDS: &[&str] = &["up", "down", "left", "right"];

/// M330: the hint spells out a must-form rule or four or more moves.
fn hint_gives_answer(ctx: &LevelCtx, hint: &str, out: &mut Vec<Diagnostic>) {
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let h = norm(hint);
    for m in &ctx.level.check.must_form {
        let rule = norm(&m.text);
        if !rule.is_empty() && h.contains(&rule) {
            out.push(
                Diagnostic::new(
                    "M330",
                    ctx.level.span,
                    format!(
                        "Level {}: the hint spells out {}, the rule the player has to find. \
                         A hint nudges; it doesn't give the answer.",
                        ctx.id(),
                        rule.to_uppercase()
                    ),
                )
                .with_level(ctx.id())
                .with_related(m.span, "the must-form rule"),
            );
            return;
        }
    }
    let tokens: Vec<&str> = hint
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    let letters = tokens
        .iter()
        .find(|t| t.len() >= 4 && t.chars().all(|c| matches!(c, 'U' | 'D' | 'L' | 'R')));
    let mut run: Vec<String> = Vec::new();
    let mut best: Vec<String> = Vec::new();
    for t in &tokens {
        let lower = t.to_lowercase();
        if DIRECTION_WORDS.contains(&lower.as_str()) {
            run.push(lower);
            if run.len() > best.len() {
                best = run.clone();
            }
        } else if lower != "then" && lower != "and" {
            run.clear();
        }
    }
    let moves = match letters {
        Some(l) => Some(l.to_string()),
        None if best.len() >= 4 => Some(best.join(", ")),
        None => None,
    };
    if let Some(moves) = moves {
        out.push(
            Diagnostic::new(
                "M330",
                ctx.level.span,
                format!(
                    "Level {}: the hint spells out a sequence of moves ({moves}). \
                     A hint nudges; it doesn't give the answer.",
                    ctx.id()
                ),
            )
            .with_level(ctx.id()),
        );
    }
}
