//! Growth of the editor features on one long board row (issue 14): the
//! language server's heavy requests (semantic tokens, inlay hints, folding,
//! symbols, code lenses, code actions, formatting, hover, completion,
//! references) on a row of 25,000 to 200,000 cells. Printed per size: the
//! analysis, each feature, and the ratio to the previous size (linear work
//! doubles, quadratic quadruples).
//!
//! Run with `cargo bench --bench ide_growth` (release build).
#![allow(clippy::print_stdout, reason = "a benchmark prints its figures")]

#[path = "../tests/long_row/mod.rs"]
mod long_row;

use long_row::long_row;
use miau::ide::{self, Analysis};
use std::time::{Duration, Instant};

/// Best of three runs of `f`.
fn best(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    type Feature = (&'static str, fn(&Analysis) -> usize);
    let features: &[Feature] = &[
        ("semantic tokens", |a| ide::semantic_tokens(a).len()),
        ("inlay hints", |a| ide::inlay_hints(a).len()),
        ("folding", |a| ide::folding_ranges(a).len()),
        ("symbols", |a| ide::document_symbols(a).len()),
        ("code lenses", |a| ide::code_lenses(a).len()),
        ("code actions", |a| {
            ide::code_actions(a, miau::span::Span::new(0, a.text().len())).len()
        }),
        ("formatting", |a| ide::format(a).map_or(0, |e| e.len())),
        ("hover", |a| {
            usize::from(ide::hover(a, a.text().rfind("FLAG").unwrap_or(0)).is_some())
        }),
        ("completion", |a| {
            ide::completions(a, a.text().rfind("FLAG").unwrap_or(0)).len()
        }),
        ("references", |a| {
            ide::references(a, a.text().rfind("FLAG").unwrap_or(0), true).len()
        }),
    ];
    let mut previous: Vec<Duration> = Vec::new();
    for cells in [25_000, 50_000, 100_000, 200_000] {
        let text = long_row(cells);
        let analysis = best(|| drop(std::hint::black_box(Analysis::new(&text, usize::MAX))));
        let a = Analysis::new(&text, usize::MAX);
        println!(
            "{cells} cells, {} KiB: analysis {analysis:?}",
            text.len() / 1024
        );
        let mut times = vec![analysis];
        for (name, f) in features {
            let t = best(|| {
                std::hint::black_box(f(&a));
            });
            times.push(t);
            let ratio = previous
                .get(times.len() - 1)
                .map(|p| format!(" (x{:.1})", t.as_secs_f64() / p.as_secs_f64().max(1e-9)))
                .unwrap_or_default();
            println!("  {name:16} {t:>12?}{ratio}");
        }
        previous = times;
    }
}
