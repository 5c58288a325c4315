//! Front-end figures, printed (not asserted): building the bundled packs against
//! serde_json parsing the JSON they produce (target: at most 3×), and stages 1–3
//! on a 64-level pack against `build` alone (target: at most 5×), measured in the
//! same process. Run with `cargo bench --bench front_end`.
#![allow(clippy::print_stdout, reason = "a benchmark prints its figures")]

use miau::compile::{self, SourceKind};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Median wall time of `runs` calls of `f`, after one warm-up call.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn build(text: &str) -> String {
    let compiled = compile::compile(text, SourceKind::Miau);
    miau::json::to_json(compiled.pack.as_ref().expect("bundled packs build"))
}

/// A 64-level pack made of the bundled levels, renamed so ids stay unique.
fn big_pack() -> String {
    let source = std::fs::read_to_string("packs/crate-works.miau").expect("bundled pack");
    let start = source.find("\nlevel ").expect("a level");
    let (head, levels) = source.split_at(start);
    let chunks: Vec<&str> = levels
        .split("\nlevel ")
        .filter(|c| !c.trim().is_empty())
        .collect();
    let mut out = head.to_string();
    for i in 0..64 {
        let chunk = chunks[i % chunks.len()];
        let (id, rest) = chunk.split_once(' ').expect("level id");
        out.push_str(&format!("\nlevel {id}-{i} {rest}"));
    }
    out
}

fn main() {
    let runs = 31;
    println!("front end (median of {runs} runs, release build)");
    let mut total_build = Duration::ZERO;
    let mut total_parse = Duration::ZERO;
    for path in ["packs/crate-works.miau", "packs/clockwork.miau"] {
        let text = std::fs::read_to_string(path).expect("bundled pack");
        let json = build(&text);
        let b = median(runs, || {
            black_box(build(black_box(&text)));
        });
        let p = median(runs, || {
            black_box(serde_json::from_str::<serde_json::Value>(black_box(&json)).unwrap());
        });
        total_build += b;
        total_parse += p;
        println!(
            "  {path}: build {:>8.1} µs, serde_json parse {:>8.1} µs, ratio {:.2}×",
            b.as_secs_f64() * 1e6,
            p.as_secs_f64() * 1e6,
            b.as_secs_f64() / p.as_secs_f64()
        );
    }
    println!(
        "  bundled packs: build / serde_json parse = {:.2}× (target ≤ 3×)",
        total_build.as_secs_f64() / total_parse.as_secs_f64()
    );

    let big = big_pack();
    let levels = big.matches("\nlevel ").count();
    let b = median(11, || {
        black_box(build(black_box(&big)));
    });
    let a = median(11, || {
        black_box(compile::analyse(black_box(&big), SourceKind::Miau));
    });
    println!(
        "  {levels}-level pack: build {:.2} ms, stages 1–3 {:.2} ms, ratio {:.2}× (target ≤ 5×)",
        b.as_secs_f64() * 1e3,
        a.as_secs_f64() * 1e3,
        a.as_secs_f64() / b.as_secs_f64()
    );
}
