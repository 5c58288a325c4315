//! Solver throughput: `cargo bench --bench solver`.
//!
//! For each level of the bundled packs (the crate-works drafts and the
//! clockwork proof level): states expanded, states per second, bytes per
//! stored state, and, measured in the same run, the raw insert rate of the
//! visited set for keys of the same size (a conventional streaming hash of
//! the whole key + insert, no engine), so the solver's distance from the
//! machine's limit is a ratio.
//! `MIAU_BENCH_PROOF=1` adds an exhaustive proof over a generated open room
//! (about 14 million states) and prints the process's peak memory.

use miau::compile::{SourceKind, compile};
use miau::engine::{Game, testkit};
use miau::solver::level::{Constraints, LevelSpace, search_level};
use miau::solver::visited::Visited;
use miau::solver::{Limits, Space, Verdict, fingerprint};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Inserts `n` distinct keys of `words` words into a fresh visited set; keys/s.
fn raw_insert_rate(words: usize, n: usize) -> f64 {
    let mut key = vec![0x9E37_79B9u32; words.max(1)];
    let mut v = Visited::with_capacity(1 << 12);
    let t = Instant::now();
    for i in 0..n as u32 {
        // Vary a few words, as successive states differ in a few entities.
        let m = key.len();
        key[i as usize % m] ^= i.wrapping_mul(0x85EB_CA6B);
        key[0] = i;
        let _ = v.insert(fingerprint::streamed(&key), i.saturating_sub(1), 0);
    }
    std::hint::black_box(v.len());
    n as f64 / t.elapsed().as_secs_f64().max(1e-9)
}

fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Runs of each measurement; the figures are medians.
const RUNS: usize = 5;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

/// Solves `game` [`RUNS`] times and prints the median figures; returns
/// (states expanded, median seconds, seconds the raw inserts of as many
/// keys of this level's size take) for the set's total.
fn run(name: &str, game: &Game, budget: u64, runs: usize) -> (u64, f64, f64) {
    let cancel = AtomicBool::new(false);
    let limits = Limits {
        states: budget,
        memory: 4 << 30,
    };
    let mut times = Vec::new();
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let o = search_level(game, Constraints::default(), limits, &cancel, &mut |_| {});
        times.push(t.elapsed().as_secs_f64().max(1e-9));
        out = Some(o);
    }
    let Some(out) = out else {
        return (0, 0.0, 0.0);
    };
    let secs = median(times);
    let space = LevelSpace::new(game, Constraints::default());
    let mut packed = Vec::new();
    space.start(&mut packed);
    let rate = out.expanded as f64 / secs;
    let keys = (out.stored as usize).clamp(100_000, 5_000_000);
    let raw = median(
        (0..3)
            .map(|_| raw_insert_rate(packed.len(), keys))
            .collect(),
    );
    let verdict = match &out.verdict {
        Verdict::Solved(r) => format!("solved in {}", r.len()),
        Verdict::Unsolved => "unsolved".into(),
        Verdict::Limit => "limit".into(),
        Verdict::Cancelled => "cancelled".into(),
    };
    println!(
        "{name:<28} {:>9} expanded {:>9} stored {:>7.3} s {:>10.0} states/s | key {:>3} B, {:>5.1} B/state | raw insert {:>11.0}/s, ratio {:>5.2}% | {verdict}",
        out.expanded,
        out.stored,
        secs,
        rate,
        packed.len() * 4,
        out.visited_bytes as f64 / out.stored.max(1) as f64,
        raw,
        100.0 * rate / raw
    );
    (out.expanded, secs, out.expanded as f64 / raw)
}

fn main() {
    println!("solver benchmark (plain solve, one core, medians of {RUNS} runs)");
    let mut total = (0u64, 0f64, 0f64);
    // `MIAU_BENCH_LEVEL=id` runs one level (for profiling).
    let only = std::env::var("MIAU_BENCH_LEVEL").ok();
    let mut paths: Vec<_> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/packs"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.sort();
    for path in paths {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(pack) = compile(&text, SourceKind::Miau).pack else {
            continue;
        };
        for level in &pack.levels {
            if only.as_deref().is_some_and(|o| o != level.id.text) {
                continue;
            }
            let game = Game::new(level);
            let name = format!("{}/{}", pack.id, level.id.text);
            let (n, secs, raw_secs) = run(&name, &game, 5_000_000, RUNS);
            total.0 += n;
            total.1 += secs;
            total.2 += raw_secs;
        }
    }
    // The set's ratio: its time against the time raw inserts of as many
    // keys, each level's key size, take.
    println!(
        "{:<28} {:>9} expanded {:>19} {:>7.3} s {:>10.0} states/s | raw insert time {:.3} s, ratio {:>5.2}%",
        "the set",
        total.0,
        "",
        total.1,
        total.0 as f64 / total.1.max(1e-9),
        total.2,
        100.0 * total.2 / total.1.max(1e-9)
    );
    if std::env::var_os("MIAU_BENCH_PROOF").is_some() {
        // An open room with loose rocks and no WIN: every state is reachable
        // and none wins, so the search must exhaust them all (a proof).
        let board = "MIAU IS YOU . ROCK IS PUSH .\n\
                     # # # # # # # # # # #\n\
                     # . . . . . . . . . #\n\
                     # . r . . . . r . . #\n\
                     # . . . . . . . . . #\n\
                     # . . . m . . . . . #\n\
                     # . . . . . . . . . #\n\
                     # . r . . . . . . . #\n\
                     # . . . . . . . . . #\n\
                     # # # # # # # # # # #\n\
                     WALL IS STOP";
        let game = Game::new(&testkit::level(board));
        let _ = run("proof/open-room", &game, 50_000_000, 1);
        if let Some(mib) = peak_rss_mib() {
            println!("peak resident memory of the whole run: {mib:.0} MiB");
        }
    }
}
