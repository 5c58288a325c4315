//! The editor's incremental analysis against a full one: whatever the edits,
//! an analysis through a [`Cache`] that saw every earlier version of the text
//! says exactly what [`Analysis::new`] says of the final text. And what one
//! analysis costs when a document holds far more levels than a pack may.

use super::*;
use proptest::prelude::*;

/// The bundled packs the edits start from.
const PACKS: &[&str] = &[
    include_str!("../../packs/crate-works.miau"),
    include_str!("../../packs/clockwork.miau"),
    include_str!("../../packs/machine-room.miau"),
];

/// Pieces an edit pastes: the source's own tokens as well as noise, so the
/// edits rename words, break and mend levels, add levels and legends.
const PIECES: &[&str] = &[
    "",
    "IS",
    "IZ",
    "WIN",
    "WIN!",
    "YOU",
    " ",
    "\n",
    "}",
    "{",
    "level extra {\n  title \"X\"\n  board {\n    MIAU IS YOU\n    @ . .\n  }\n}\n",
    "legend {\n  ! ROCK\n}\n",
    "hint \"h\"\n",
    "#",
    ".",
    "@",
    "PUSH",
    "ROCK",
    "allow word-trap \"why\"\n",
    "must-lose MIAU ROCK\n",
    "must-crumble\n",
    "category optional\n",
    "\"",
    "solution \"R\"\n",
    "// c\n",
    "MIAU",
    "level",
    "level extra {\n",
    "\nlevel x {\n  title \"X\"\n}\n",
    "  % ROCK\n",
    "  $ WALL\n",
    "pack other {\n}\n",
    "palette {\n  ROCK \"🪨\"\n}\n",
    "\t",
    "titel \"T\"\n",
    "\\q",
];

/// One edit: replace the bytes from `start` for `len` bytes with a piece
/// (both moved back to character boundaries).
fn apply(text: &str, start: usize, len: usize, piece: &str) -> String {
    let mut start = start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + len).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = text.to_string();
    out.replace_range(start..end, piece);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn cached_analysis_equals_a_full_one_after_every_edit(
        pack in 0..PACKS.len(),
        edits in proptest::collection::vec(
            (0.0f64..1.0, prop_oneof![0usize..12, 100usize..700], 0..PIECES.len()),
            1..8,
        ),
    ) {
        edits_agree(pack, &edits, false)?;
    }

    /// Edits inside the levels only (the common case while writing a
    /// level): the front end reuses most blocks, and still says what a
    /// full analysis says.
    #[test]
    fn edits_inside_levels_equal_a_full_analysis(
        pack in 0..PACKS.len(),
        edits in proptest::collection::vec((0.0f64..1.0, 0usize..4, 0..PIECES.len()), 1..8),
    ) {
        edits_agree(pack, &edits, true)?;
    }
}

/// Apply `edits` (where, as a fraction of the text or, `inside_levels`, of
/// the text from the first level on; how many bytes; which piece) to a
/// bundled pack one by one, and compare the analysis through one cache with
/// a full analysis after each: diagnostics, tree, model and names.
fn edits_agree(
    pack: usize,
    edits: &[(f64, usize, usize)],
    inside_levels: bool,
) -> Result<(), TestCaseError> {
    let cache = Cache::new();
    let mut text = PACKS[pack].to_string();
    let _ = Analysis::with_cache(&text, usize::MAX, &cache);
    for (k, &(at, len, piece)) in edits.iter().enumerate() {
        let from = if inside_levels {
            text.find("\nlevel ").map_or(0, |i| i + 1)
        } else {
            0
        };
        let start = from + ((text.len() - from) as f64 * at) as usize;
        text = apply(&text, start, len, PIECES[piece]);
        let cached = Analysis::with_cache(&text, usize::MAX, &cache);
        let full = Analysis::new(&text, usize::MAX);
        prop_assert_eq!(cached.diagnostics(), full.diagnostics(), "edit {}", k);
        prop_assert_eq!(cached.file(), full.file(), "edit {}", k);
        prop_assert_eq!(cached.pack(), full.pack(), "edit {}", k);
        prop_assert_eq!(cached.occurrences(), full.occurrences(), "edit {}", k);
    }
    Ok(())
}

/// A level block moved down a line whose diagnostic names its lines (a
/// statement set twice) is read again, so the message names the new lines;
/// one whose diagnostics name no line is reused where it moved.
#[test]
fn a_moved_block_that_names_its_lines_is_read_again() {
    let text = PACKS[0];
    let cache = Cache::new();
    let first_level = text.find("\nlevel ").expect("levels") + 1;
    let title = first_level + text[first_level..].find("  title ").expect("a title");
    let twice = apply(text, title, 0, "  category optional\n  category optional\n");
    let before = Analysis::with_cache(&twice, usize::MAX, &cache);
    assert!(
        before.diagnostics().iter().any(|d| d.code() == "M107"),
        "the level sets category twice"
    );
    let moved = apply(&twice, first_level - 1, 0, "\n");
    let after = Analysis::with_cache(&moved, usize::MAX, &cache);
    assert_eq!(
        after.diagnostics(),
        Analysis::new(&moved, usize::MAX).diagnostics()
    );
    assert_eq!(
        cache.front_end_runs().parsed,
        1,
        "only the block naming lines"
    );
}

/// An edit inside one level of a many-level pack parses, lowers and checks
/// that level again and no other.
#[test]
fn an_edit_inside_one_level_reruns_only_that_level() {
    let text = PACKS[0];
    let cache = Cache::new();
    let first = Analysis::with_cache(text, usize::MAX, &cache);
    let levels = first.ast_levels().len();
    assert!(levels > 2);
    let runs_before = cache.level_runs();
    let hint = text.find("  hint ").expect("a hint");
    let hint = hint + text[hint..].find('"').expect("a quoted hint") + 1;
    let edited = apply(text, hint, 1, "X");
    let b = Analysis::with_cache(&edited, usize::MAX, &cache);
    assert_eq!(cache.level_runs() - runs_before, 1);
    assert_eq!(
        cache.front_end_runs(),
        crate::compile::FrontEndRuns {
            parsed: 1,
            lowered: 1,
            validated: 1
        },
        "stages 1 and 2 ran for the edited level only"
    );
    assert_eq!(
        b.diagnostics(),
        Analysis::new(&edited, usize::MAX).diagnostics()
    );
}

/// The levels of `a`'s tree, as the shared trees they are.
fn level_trees(a: &Analysis) -> Vec<&Arc<ast::Level>> {
    a.file()
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Level(l) => Some(l),
            _ => None,
        })
        .collect()
}

/// A level block the edit didn't touch is the earlier parse's tree itself,
/// not a copy: where it stayed at once, and where an edit moved it from the
/// next edit on (it is moved once and kept where it now stands).
#[test]
fn untouched_levels_share_the_earlier_tree() {
    let text = PACKS[0];
    let cache = Cache::new();
    let first = Analysis::with_cache(text, usize::MAX, &cache);
    let hint = text.find("  hint ").expect("a hint");
    let hint = hint + text[hint..].find('"').expect("a quoted hint") + 1;
    let edited = apply(text, hint, 1, "X");
    let second = Analysis::with_cache(&edited, usize::MAX, &cache);
    let (a, b) = (level_trees(&first), level_trees(&second));
    assert_eq!(a.len(), b.len());
    let edited_level = second.level_at(hint).expect("the hint is in a level");
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(Arc::ptr_eq(x, y), i != edited_level, "level {i}");
    }

    // One byte more in the first level moves every later block.
    let longer = apply(&edited, hint, 0, "Y");
    let third = Analysis::with_cache(&longer, usize::MAX, &cache);
    let c = level_trees(&third);
    assert!(
        c.iter()
            .zip(&b)
            .skip(edited_level + 1)
            .all(|(x, y)| !Arc::ptr_eq(x, y))
    );
    assert_eq!(third.file(), Analysis::new(&longer, usize::MAX).file());
    let last = longer.rfind("  hint ").expect("a hint");
    let last = last + longer[last..].find('"').expect("a quoted hint") + 1;
    let fourth_text = apply(&longer, last, 1, "Z");
    let fourth = Analysis::with_cache(&fourth_text, usize::MAX, &cache);
    let d = level_trees(&fourth);
    let last_level = fourth.level_at(last).expect("in a level");
    for (i, (x, y)) in c.iter().zip(&d).enumerate() {
        assert_eq!(Arc::ptr_eq(x, y), i != last_level, "level {i}");
    }
    assert_eq!(
        fourth.file(),
        Analysis::new(&fourth_text, usize::MAX).file()
    );
}

/// A megabyte of levels, each with a mistake: the analysis reads the first
/// 64 levels into the model, reports the rest once (M211, which stops stage
/// 3 for the pack) and keeps a capped list of the parser's diagnostics.
#[test]
fn a_megabyte_of_broken_levels_gives_a_bounded_analysis() {
    let mut text = String::from(
        "pack many {\n  name \"Many\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n",
    );
    let mut n = 0;
    while text.len() < 1 << 20 {
        text.push_str(&format!("level l{n} {{ ? }}\n"));
        n += 1;
    }
    let cache = Cache::new();
    let a = Analysis::with_cache(&text, 4 << 20, &cache);
    assert_eq!(a.ast_levels().len(), n);
    let max = crate::validate::limits::MAX_LEVELS;
    assert_eq!(a.pack().map(|p| p.levels.len()), Some(max));
    assert!(cache.len() <= max);
    let m211: Vec<&Diagnostic> = a
        .diagnostics()
        .iter()
        .filter(|d| d.code() == "M211")
        .collect();
    assert_eq!(m211.len(), 1, "{:?}", m211);
    assert!(
        m211[0]
            .message
            .contains(&format!("The pack has {n} levels"))
    );
    assert_eq!(a.slice(m211[0].span), format!("level l{max}"));
    let bound = crate::diag::MAX_PER_FILE + crate::diag::FIRST_KEPT_SCOPES + 8 * max;
    assert!(
        a.diagnostics().len() <= bound,
        "{} diagnostics",
        a.diagnostics().len()
    );
    assert!(
        a.diagnostics().iter().any(|d| d
            .message
            .contains("more problems in this file were left out")),
        "the cap is said"
    );
}
