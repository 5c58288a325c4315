//! The formatter on generated valid sources: idempotent, keeps every comment,
//! and never changes the lowered model.

use miau::fmt::format;
use miau::lower::lower;
use miau::syntax::parse;
use proptest::prelude::*;

mod common;
use common::strip;

/// One source line: its text, indentation and an optional trailing comment.
type Line = (String, usize, Option<u8>);

fn pack_header() -> impl Strategy<Value = Vec<Line>> {
    let stmts = vec![
        "name \"Gen \\\"pack\\\"\"".to_string(),
        "version \"1.0.0\"".to_string(),
        "engine 1".to_string(),
        "world glyph \"🐈\" tagline \"It's fine.\" accent you".to_string(),
        "vocabulary REEF KELP".to_string(),
        "allow M305 \"Kept for later.\"".to_string(),
    ];
    Just(stmts)
        .prop_shuffle()
        .prop_flat_map(|s| {
            (
                Just(s),
                proptest::collection::vec((0usize..5, any::<Option<u8>>()), 6),
            )
        })
        .prop_map(|(s, deco)| {
            let mut out = vec![("pack gen {".to_string(), 0, None)];
            for (st, (ind, c)) in s.into_iter().zip(deco) {
                out.push((st, ind, c));
            }
            out.push(("}".to_string(), 0, None));
            out
        })
}

const CELLS: &[&str] = &[
    ".", ".", ".", "MIAU", "IS", "YOU", "WIN!", "x", "y", "#", "@", "f+WIN", "_", "|", "ROCK",
    "STOP",
];

fn level(n: usize) -> impl Strategy<Value = Vec<Line>> {
    let stmts = vec![
        format!("title \"Level {n}\""),
        "category required".to_string(),
        "introduces CRATE \"pushing crates\"".to_string(),
        "hint \"Don't panic.\"".to_string(),
        "solution \"RRUDW\"".to_string(),
        "steps 5".to_string(),
        "must-form \"MIAU IS YOU\"".to_string(),
        "must-form \"ROCK IS WIN\"".to_string(),
        "must-lose MIAU CRAB".to_string(),
        "must-crumble".to_string(),
        "must-press amber".to_string(),
        "must-push-word".to_string(),
        "budget 1000".to_string(),
        "allow bypass \"Pure Sokoban.\"".to_string(),
        "terrain WALL".to_string(),
        "automaton a-1 property TICK subject MOUSE phase 1 pattern \"LRUDW\"".to_string(),
        "pair OPEN SHUT effect destroy-both enter".to_string(),
        "frail SAND -> SHOAL, SHOAL -> WATER".to_string(),
    ];
    (
        proptest::sample::subsequence(stmts, 0..=18).prop_shuffle(),
        proptest::collection::vec((0usize..5, any::<Option<u8>>()), 18),
        1usize..5,
        1usize..6,
        proptest::collection::vec((0usize..CELLS.len(), 1usize..4), 30),
        any::<bool>(),
    )
        .prop_map(move |(stmts, deco, h, w, cells, legend_first)| {
            let mut out = vec![(format!("level lv-{n} {{"), 0, None)];
            let legend = vec![
                ("legend {".to_string(), 2, None),
                ("y ROCK".to_string(), 4, Some(7)),
                ("}".to_string(), 2, None),
            ];
            if legend_first {
                out.extend(legend.clone());
            }
            for (st, (ind, c)) in stmts.into_iter().zip(deco) {
                out.push((st, ind, c));
            }
            out.push(("board {".to_string(), 2, None));
            for r in 0..h {
                let mut row = String::new();
                for c in 0..w {
                    let (cell, gap) = cells[(r * w + c) % cells.len()];
                    row.push_str(CELLS[cell]);
                    row.push_str(&" ".repeat(gap));
                }
                out.push((row, 4, if r == 1 { Some(3) } else { None }));
            }
            out.push(("}".to_string(), 2, None));
            if !legend_first {
                out.extend(legend);
            }
            out.push(("}".to_string(), 0, Some(1)));
            out
        })
}

fn source() -> impl Strategy<Value = String> {
    (
        pack_header(),
        proptest::collection::vec(level(0), 1..3),
        any::<bool>(),
        proptest::collection::vec(any::<bool>(), 64),
    )
        .prop_map(|(header, levels, pack_legend_nested, own_line)| {
            let mut lines: Vec<Line> = Vec::new();
            let legend = vec![
                ("legend {".to_string(), 0, Some(9)),
                ("x CRATE+DOCK".to_string(), 2, None),
                ("}".to_string(), 0, None),
            ];
            if pack_legend_nested {
                lines.extend(header[..header.len() - 1].iter().cloned());
                lines.extend(legend.iter().map(|(t, i, c)| (t.clone(), i + 2, *c)));
                lines.push(header[header.len() - 1].clone());
            } else {
                lines.extend(header);
                lines.extend(legend);
            }
            for (i, l) in levels.into_iter().enumerate() {
                for (t, ind, c) in l {
                    // Give each level its own id.
                    let t = t.replace("lv-0", &format!("lv-{i}"));
                    lines.push((t, ind, c));
                }
            }
            let mut out = String::new();
            for (k, (text, ind, c)) in lines.into_iter().enumerate() {
                if own_line[k % own_line.len()] && k % 3 == 0 {
                    out.push_str(&format!("{}// note {k}\n", " ".repeat(ind)));
                }
                out.push_str(&" ".repeat(ind));
                out.push_str(&text);
                if let Some(c) = c {
                    out.push_str(&format!("   // c{c}"));
                }
                out.push('\n');
            }
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn format_is_idempotent_and_keeps_the_model(src in source()) {
        let (file, diags) = parse(&src);
        prop_assert!(diags.is_empty(), "{:#?}\n{}", diags, src);
        let once = format(&src).map_err(|e| TestCaseError::fail(format!("{e:#?}\n{src}")))?;
        let twice = format(&once).map_err(|e| TestCaseError::fail(format!("{e:#?}\n{once}")))?;
        prop_assert_eq!(&once, &twice);
        prop_assert_eq!(once.matches("//").count(), src.matches("//").count());
        let before = strip(lower(&file).0);
        let after = strip(lower(&parse(&once).0).0);
        prop_assert_eq!(before, after);
    }
}
