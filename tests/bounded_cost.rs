//! Bounded cost (docs/limits.md): every hostile input of issue 14, grown
//! fourfold, must cost about four times as much, not sixteen. Each case
//! measures the pipeline an author's `build`, `fmt` and editor run (stages
//! 1 to 3, the formatter, both diagnostic renderers) at size n and 4n, best
//! of three runs each, and bounds the ratio at 8: linear work gives about 4,
//! quadratic 16. The sizes keep the larger run well under a second. Every
//! test here holds one lock, so no other test of this file runs beside a
//! measurement; the two sizes are timed alternately, best of five each, and
//! a ratio over the bound is measured again (three rounds in all) before it
//! fails: a busy machine can slow one round, but a quadratic pass is over
//! the bound every time. Output sizes and diagnostic counts are bounded
//! exactly (memory follows them).

mod long_row;
use long_row::long_row;

use miau::compile::{SourceKind, analyse};
use miau::diag::render::{self, SourceFile};
use std::time::{Duration, Instant};

const HEADER: &str =
    "pack tiny {\n  name \"Tiny\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n";

/// What one author-facing pass produces: the diagnostic count and the bytes
/// of human and JSON output.
fn pass(text: &str) -> (usize, usize) {
    let compiled = analyse(text, SourceKind::Miau);
    let file = SourceFile::new("x.miau", text);
    let human = render::human(&file, &compiled.diagnostics, render::Style::default());
    let json: usize = compiled
        .diagnostics
        .iter()
        .map(|d| render::json_line(&file, d).len())
        .sum();
    let _ = miau::fmt::format(text);
    (compiled.diagnostics.len(), human.len() + json)
}

/// How many times longer `large` takes than `small`: both timed
/// alternately, best of five each, the base padded to 2 ms (below that,
/// timer noise dominates). A ratio of `bound` or more is measured again, up
/// to three rounds; the last round's figures are returned.
fn time_ratio(bound: f64, small: impl Fn(), large: impl Fn()) -> (f64, Duration, Duration) {
    let once = |f: &dyn Fn()| {
        let t = Instant::now();
        f();
        t.elapsed()
    };
    let mut last = (f64::INFINITY, Duration::ZERO, Duration::ZERO);
    for _ in 0..3 {
        let (mut base, mut big) = (Duration::MAX, Duration::MAX);
        for _ in 0..5 {
            base = base.min(once(&small));
            big = big.min(once(&large));
        }
        let base = base.max(Duration::from_millis(2));
        last = (big.as_secs_f64() / base.as_secs_f64(), big, base);
        if last.0 < bound {
            break;
        }
    }
    last
}

/// Every test of this file runs alone: on two cores, a test running beside
/// a measurement would time it too.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Holds the file's lock for the rest of a test.
fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Checks that `make(4n)` costs at most 8 times `make(n)` in time and at
/// most 6 times in output, and returns the two passes' (diagnostics,
/// output bytes).
fn grows_linearly(name: &str, n: usize, make: impl Fn(usize) -> String) -> [(usize, usize); 2] {
    let (small, large) = (make(n), make(4 * n));
    let outs = [pass(&small), pass(&large)];
    // Below a couple of milliseconds, timer noise dominates: pad the base.
    let (ratio, big, base) = time_ratio(
        8.0,
        || {
            std::hint::black_box(pass(&small));
        },
        || {
            std::hint::black_box(pass(&large));
        },
    );
    assert!(
        ratio < 8.0,
        "{name}: {} bytes took {big:?}, {} bytes {base:?}: ratio {ratio:.1} (linear is about 4)",
        large.len(),
        small.len()
    );
    // Output (and the memory holding it) grows with the input, not faster.
    assert!(
        outs[1].1 <= 6 * outs[0].1 + 64 * 1024,
        "{name}: output grew from {} to {} bytes for 4 times the input",
        outs[0].1,
        outs[1].1
    );
    outs
}

fn level(body: &str) -> String {
    format!(
        "{HEADER}level first {{\n  title \"First\"\n{body}\n  board {{\n    MIAU IS YOU . FLAG IS WIN\n    @    .  f   . .    .  .\n  }}\n}}\n"
    )
}

#[test]
fn a_long_frail_chain() {
    let _alone = alone();
    grows_linearly("frail chain", 300, |n| {
        let leaves: Vec<String> = (0..n).map(|i| format!("N{i} -> N{}", i + 1)).collect();
        level(&format!("  frail {}", leaves.join(", ")))
    });
}

#[test]
fn many_mistakes_on_one_line() {
    let _alone = alone();
    grows_linearly("a line of }", 2_000, |n| "}".repeat(n));
    grows_linearly("NUL bytes", 2_000, |n| "\0".repeat(n));
}

#[test]
fn a_long_introduces_list() {
    let _alone = alone();
    grows_linearly("introduces", 2_000, |n| {
        let words: Vec<String> = (0..n).map(|i| format!("W{i}")).collect();
        level(&format!("  introduces {}", words.join(" ")))
    });
}

#[test]
fn a_million_lines_of_mistakes_keep_a_capped_list() {
    let _alone = alone();
    let [small, large] = grows_linearly("lines of }", 5_000, |n| "}\n".repeat(n));
    // The list is capped (and says so): memory doesn't follow the input.
    assert!(small.0 <= 2 * miau::diag::MAX_PER_SCOPE, "{small:?}");
    assert_eq!(small.0, large.0);
    let compiled = analyse(&"}\n".repeat(1_000), SourceKind::Miau);
    assert!(
        compiled.diagnostics.iter().any(|d| d
            .message
            .contains("more problems in this file were left out")),
        "the cap isn't said"
    );
}

#[test]
fn thousands_of_unclosed_and_of_plain_levels() {
    let _alone = alone();
    grows_linearly("unclosed levels", 200, |n| {
        format!("{HEADER}{}", "level lv {\n".repeat(n))
    });
    grows_linearly("levels", 100, |n| {
        let levels: String = (0..n)
            .map(|i| format!("level lv{i} {{\n  title \"T\"\n  board {{\n    @ . f\n  }}\n}}\n"))
            .collect();
        format!("{HEADER}{levels}")
    });
}

#[test]
fn skipped_levels_are_reported_in_one_pass() {
    let _alone = alone();
    for n in [100, 400] {
        let text = format!(
            "{HEADER}{}",
            (0..n)
                .map(|i| format!("level lv{i} {{\n"))
                .collect::<String>()
        );
        let compiled = analyse(&text, SourceKind::Miau);
        let pack = compiled.pack.as_ref().expect("a model");
        let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.text.as_str()).collect();
        let skipped = miau::check::skipped_levels(pack, &ids, &compiled.diagnostics);
        assert_eq!(skipped.len(), ids.len());
        assert!(skipped.iter().all(|d| d.code() == "M416"));
    }
}

#[test]
fn a_board_of_look_alike_cells_is_one_diagnostic_with_one_board_wide_fix() {
    let _alone = alone();
    // `n` cells on a square board.
    let board = |n: usize| {
        let side = (n as f64).sqrt().round() as usize;
        let rows: String = (0..side)
            .map(|_| format!("    {}\n", vec!["0"; side].join(" ")))
            .collect();
        format!("{HEADER}level lv {{\n  title \"T\"\n  board {{\n{rows}  }}\n}}\n")
    };
    let [small, large] = grows_linearly("look-alike cells", 32 * 32, board);
    // Four times the cells: output about four times as large, not sixteen.
    assert!(large.1 <= 6 * small.1, "{small:?} -> {large:?}");
    let compiled = analyse(&board(64 * 64), SourceKind::Miau);
    let m109: Vec<_> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.code() == "M109")
        .collect();
    assert_eq!(m109.len(), 1, "one M109 per unknown key");
    assert_eq!(m109[0].cells.len(), 64 * 64);
    assert!(
        m109[0].message.contains("4095 more cells"),
        "{}",
        m109[0].message
    );
    let edits: usize = m109[0].fixes.iter().map(|f| f.edits.len()).sum();
    assert!(edits <= 64 * 64 + 2, "{edits} edits");
}

#[test]
fn did_you_mean_on_huge_words_is_cheap() {
    let _alone = alone();
    use miau::analysis::words::did_you_mean;
    use miau::suggest::suggest;
    let (a, b) = ("A".repeat(40_000) + "B", "A".repeat(40_000) + "C");
    // A full table would be 40,001² entries (12 GB); names that long are
    // never a typo of each other.
    assert!(suggest(&a, &[b.as_str()]).is_empty());
    assert!(did_you_mean(&a, [b.as_str()]).is_empty());
    // A long candidate against a short word is skipped on length alone.
    assert!(suggest("STOP", &[a.as_str()]).is_empty());
    assert_eq!(suggest("STPO", &["STOP", "WIN"]), ["STOP"]);
    assert_eq!(did_you_mean("STPO", ["STOP", "WIN"]), ["STOP"]);
}

/// Every editor feature the language server runs on a document, once; the
/// number of items they produced.
fn editor_features(a: &miau::ide::Analysis) -> usize {
    use miau::ide;
    let end = a.text().len();
    let last_word = a.text().rfind("FLAG").unwrap_or(0);
    ide::semantic_tokens(a).len()
        + ide::inlay_hints(a).len()
        + ide::folding_ranges(a).len()
        + ide::document_symbols(a).len()
        + ide::code_lenses(a).len()
        + ide::code_actions(a, miau::span::Span::new(0, end)).len()
        + ide::format(a).map_or(0, |e| e.len())
        + usize::from(ide::hover(a, last_word).is_some())
        + ide::completions(a, last_word).len()
        + ide::references(a, last_word, true).len()
}

/// The language server's features on a long board row (issue 14 item 3):
/// time at n and 4n cells grows at most 8 times (linear about 4), and the
/// items they produce (semantic tokens above all: one per word or thing)
/// grow at most 4 times plus a constant.
#[test]
fn editor_features_on_a_long_board_row() {
    let _alone = alone();
    let n = 5_000;
    let (small, large) = (long_row(n), long_row(4 * n));
    let (a, b) = (
        miau::ide::Analysis::new(&small, usize::MAX),
        miau::ide::Analysis::new(&large, usize::MAX),
    );
    let (items_small, items_large) = (editor_features(&a), editor_features(&b));
    assert!(
        items_small > n / 2,
        "the row's cells are tokens: {items_small}"
    );
    assert!(
        items_large <= 4 * items_small + 64,
        "items grew from {items_small} to {items_large} for 4 times the row"
    );
    let (ratio, big, base) = time_ratio(
        8.0,
        || {
            std::hint::black_box(editor_features(&a));
        },
        || {
            std::hint::black_box(editor_features(&b));
        },
    );
    assert!(
        ratio < 8.0,
        "editor features: {} cells took {big:?}, {n} cells {base:?}: ratio {ratio:.1} (linear is about 4)",
        4 * n
    );
}
