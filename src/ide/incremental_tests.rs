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
    "category optional\n",
    "\"",
    "solution \"R\"\n",
    "// c\n",
    "MIAU",
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
        edits in proptest::collection::vec((0.0f64..1.0, 0usize..12, 0..PIECES.len()), 1..6),
    ) {
        let cache = Cache::new();
        let mut text = PACKS[pack].to_string();
        let _ = Analysis::with_cache(&text, usize::MAX, &cache);
        for (k, (at, len, piece)) in edits.into_iter().enumerate() {
            let start = (text.len() as f64 * at) as usize;
            text = apply(&text, start, len, PIECES[piece]);
            let cached = Analysis::with_cache(&text, usize::MAX, &cache);
            let full = Analysis::new(&text, usize::MAX);
            prop_assert_eq!(cached.diagnostics(), full.diagnostics(), "edit {}", k);
        }
    }
}

/// An edit inside one level of a many-level pack runs that level's checks
/// again and no other's.
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
        b.diagnostics(),
        Analysis::new(&edited, usize::MAX).diagnostics()
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
