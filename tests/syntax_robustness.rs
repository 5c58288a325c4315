//! The front end never panics, never hangs and stays linear on any input.

use std::time::{Duration, Instant};

use miau::lower::lower;
use miau::syntax::parse;
use proptest::prelude::*;

mod common;

const VALID: &str = include_str!("fixtures/syntax/valid-crate-works.miau");

/// Runs the whole stage 1 pipeline and the formatter; returns the diagnostic count.
fn run_all(text: &str) -> usize {
    let (file, diags) = parse(text);
    let (_, more) = lower(&file);
    if let Ok(out) = miau::fmt::format(text) {
        // Whatever the formatter accepts, it accepts again unchanged, and the
        // model it describes is the same.
        assert_eq!(miau::fmt::format(&out).as_deref(), Ok(out.as_str()));
        let before = common::strip(lower(&file).0);
        let after = common::strip(lower(&parse(&out).0).0);
        assert_eq!(before, after, "{text:?}\n{out}");
    }
    for d in diags.iter().chain(&more) {
        assert!(d.span.end as usize <= text.len(), "{d:?}");
        assert!(d.span.start <= d.span.end);
    }
    diags.len() + more.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        run_all(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_language_soup_never_panics(
        text in "[{}\"'\\\\/ \n\tA-Za-z0-9+!.#@$*&|_~,>-]{0,400}"
    ) {
        run_all(&text);
    }

    #[test]
    fn mutated_valid_sources_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>()), 1..8)
    ) {
        let mut bytes = VALID.as_bytes().to_vec();
        for (at, op, b) in edits {
            let i = at.index(bytes.len().max(1)).min(bytes.len());
            let table = b"{}\"'\\/ \n\t+!.#AZaz09";
            let b = table[b as usize % table.len()];
            match op {
                0 => bytes.insert(i, b),
                1 if i < bytes.len() => { bytes.remove(i); }
                _ if i < bytes.len() => bytes[i] = b,
                _ => {}
            }
        }
        run_all(&String::from_utf8_lossy(&bytes));
    }
}

fn timed(text: &str, limit: Duration) -> usize {
    let t = Instant::now();
    let n = run_all(text);
    assert!(t.elapsed() < limit, "took {:?}", t.elapsed());
    n
}

#[test]
fn deeply_nested_braces_are_one_diagnostic() {
    let text = "{".repeat(10_000);
    let n = timed(&text, Duration::from_secs(5));
    assert_eq!(n, 1);
    let text = format!("{}{}", "{\n".repeat(10_000), "}\n".repeat(10_000));
    assert_eq!(timed(&text, Duration::from_secs(5)), 1);
    let text = "level a {\n".repeat(10_000);
    assert!(timed(&text, Duration::from_secs(10)) >= 1);
}

#[test]
fn ten_megabytes_are_read_in_linear_time() {
    // A valid pack with many levels.
    let mut text = String::from("pack big {\n  name \"Big\"\n}\n");
    let mut i = 0;
    while text.len() < 10_000_000 {
        text.push_str(&format!(
            "level l{i} {{\n  title \"Level {i}\"  // level {i}\n  board {{\n    MIAU IS YOU . # # # # # # # # # # # #\n    @    .  .   . . . . . . . . . . . . .\n  }}\n}}\n"
        ));
        i += 1;
    }
    let t = Instant::now();
    let (file, diags) = parse(&text);
    assert!(diags.is_empty());
    let (pack, more) = lower(&file);
    assert!(more.is_empty());
    assert_eq!(pack.levels.len(), i);
    assert!(
        t.elapsed() < Duration::from_secs(60),
        "took {:?}",
        t.elapsed()
    );
    let t = Instant::now();
    let out = miau::fmt::format(&text).expect("valid");
    assert_eq!(out.matches("//").count(), i);
    assert!(
        t.elapsed() < Duration::from_secs(60),
        "took {:?}",
        t.elapsed()
    );

    // Ten megabytes of one unterminated line and of junk.
    let line = format!("level x {{\n  title \"{}\n}}\n", "a".repeat(10_000_000));
    let (_, diags) = parse(&line);
    assert_eq!(diags.len(), 1);
    let junk = "%$ {{ ' \" \\q }\n".repeat(700_000);
    let t = Instant::now();
    let _ = parse(&junk);
    assert!(
        t.elapsed() < Duration::from_secs(60),
        "took {:?}",
        t.elapsed()
    );
}
