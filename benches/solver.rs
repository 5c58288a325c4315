//! Solver throughput and memory: `cargo bench --bench solver`.
//!
//! Sets of levels, each level searched by a plain solve
//! (`search_level_on_clock`) with the default budget (a state count derived
//! from a 2 GiB memory cap) and a two-minute wall clock per level, the
//! satisficing passes after a stopped search included:
//! - `packs`: every level of `packs/` (five runs, medians);
//! - `crowded`: generated boards of a few hundred things (walls, rocks,
//!   words) that must be searched exhaustively;
//! - `microban`, `microban2`: David W. Skinner's Microban sets, read from
//!   the shared corpora when present and converted with the XSB importer
//!   (`import::xsb`); solved lengths are checked against the best known
//!   Sokoban move counts (an upper bound here, since chain pushes and a
//!   player on a dock only shorten routes);
//! - `keke`: the core-only Keke competition maps (`import::keke`).
//!
//! Per level: verdict, states expanded and stored, depth, seconds, states
//! per second, bytes per stored state frontier included (peak bytes of the
//! visited set and both layers over stored states), the process's peak
//! resident memory during that search, and the raw insert rate of the
//! visited set for keys of the level's size measured in the same run (a
//! conventional streaming 128-bit hash of the whole key + insert, no
//! engine), so the solver's distance from the machine's limit is a ratio.
//! Per set: counts of verdicts, total states and rate, the worst bytes per
//! state and peak memory, and the set's ratio to the raw insert time.
//!
//! - a user's collection, `MIAU_BENCH_XSB=file.xsb`: any XSB file,
//!   converted as the Microban sets are (`import::xsb::to_levels`) and run
//!   as a set of its own named after the file's stem, with the same lines;
//!   the best known move counts apply when the corpus' table lists the
//!   file's name. A file that is missing, unreadable or holds no level
//!   stops the benchmark with a message before any search.
//!
//! `MIAU_BENCH_SET=packs,crowded,…` picks sets (default: all present, or
//! none but the XSB file's when `MIAU_BENCH_XSB` is given);
//! `MIAU_BENCH_LEVEL=a,b*` runs the levels named `a` or starting with `b`;
//! `MIAU_CORPORA=dir` points at the corpora (default: a `shared/corpora`
//! directory beside or above the crate); `MIAU_BENCH_PROOF=1` adds an
//! exhaustive proof over an open room (about 14 M states);
//! `MIAU_BENCH_BIG=1` adds the 100 M-state exhaustive proof;
//! `MIAU_BENCH_RUNS=n` runs every level `n` times (one core and all cores
//! in turn; medians, and the spread of the paired speed-ups).
#![allow(clippy::print_stdout, reason = "a benchmark prints its figures")]
#![allow(unsafe_code, reason = "malloc_trim before each peak-memory reading")]

use miau::cli::clock::search_level_on_clock;
use miau::compile::{SourceKind, compile};
use miau::engine::{Game, testkit};
use miau::import::{keke, xsb};
use miau::model::Level;
use miau::solver::level::{Constraints, LevelSpace, search_level};
use miau::solver::visited::Visited;
use miau::solver::{Limits, Outcome, Shortest, Space, Verdict, fingerprint};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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

/// Resets the kernel's peak resident memory mark of this process, so the
/// next reading is the peak of what runs in between. Memory the allocator
/// kept from earlier levels' searches is given back first, or the mark would
/// start from it (a level after a large one read up to 100 MiB high).
fn reset_peak_rss() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap memory to the kernel.
    unsafe {
        libc::malloc_trim(0);
    }
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn peak_rss_mib() -> f64 {
    let read = || -> Option<f64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / 1024.0)
    };
    read().unwrap_or(f64::NAN)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs.get(xs.len() / 2).copied().unwrap_or(0.0)
}

/// The memory cap of every search here, and the state budget derived from
/// it (as `check`'s default is): 2 GiB at 32 bytes per state.
const MEMORY: usize = 2 << 30;
const BUDGET: u64 = (MEMORY / 32) as u64;
/// The set key of `MIAU_BENCH_XSB`'s file (printed under the file's stem).
const XSB_SET: &str = "\0xsb";
/// The wall clock per level.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The threads of the all-cores runs: `MIAU_BENCH_JOBS`, else every core.
fn jobs() -> usize {
    std::env::var("MIAU_BENCH_JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// One search on `jobs` threads within [`TIMEOUT`], the shortest-route
/// search on its share of the clock and the satisficing passes on the rest
/// (as `miauc solve --timeout` runs it); (outcome, seconds).
fn timed_search(game: &Game, limits: Limits, jobs: usize) -> (Outcome, f64) {
    let cancel = AtomicBool::new(false);
    let t = Instant::now();
    let timed = search_level_on_clock(
        game,
        Constraints::default(),
        limits,
        TIMEOUT,
        jobs,
        &cancel,
        &mut |_| {},
    );
    (timed.outcome, t.elapsed().as_secs_f64().max(1e-9))
}

/// A set's running totals.
#[derive(Default)]
struct Totals {
    levels: usize,
    /// SOLVED, the shortest proven.
    solved: usize,
    /// SOLVED by a route found after the exact search stopped (LIMIT or
    /// TIMEOUT): the shortest bounded, not proven.
    bounded: usize,
    unsolved: usize,
    limit: usize,
    timeout: usize,
    longer: usize,
    expanded: u64,
    secs: f64,
    raw_secs: f64,
    worst_bytes: f64,
    worst_rss: f64,
    /// One-core and all-cores seconds of the levels also run on all cores.
    par_base: f64,
    par_secs: f64,
    mismatch: usize,
}

/// Searches one level `runs` times (or `MIAU_BENCH_RUNS`), prints its line
/// and adds it to `totals`. Each one-core run is followed by an all-cores
/// run, so that a host whose speed drifts slows both alike; the speed-up is
/// the ratio of the two medians. `best` is a known upper bound on the
/// route's length, when there is one.
fn run(name: &str, game: &Game, runs: usize, best: Option<usize>, totals: &mut Totals) {
    let limits = Limits {
        states: BUDGET,
        memory: MEMORY,
    };
    let runs = std::env::var("MIAU_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(runs)
        .max(1);
    reset_peak_rss();
    let (out, first) = timed_search(game, limits, 1);
    // The peak of the first search alone: every run stores the same.
    let rss = peak_rss_mib();
    // The same search on every core, when it is worth it (a search of a
    // few milliseconds never splits a layer) and did not stop on the clock.
    let jobs = jobs();
    let on_all_cores = jobs > 1 && first > 0.05 && out.verdict != Verdict::Cancelled;
    let mut times = vec![first];
    let mut all_times = Vec::new();
    let mut same = true;
    for k in 0..runs {
        if k > 0 {
            times.push(timed_search(game, limits, 1).1);
        }
        if on_all_cores {
            let (o, s) = timed_search(game, limits, jobs);
            all_times.push(s);
            same &= o.verdict == Verdict::Cancelled
                || (o.verdict == out.verdict
                    && o.expanded == out.expanded
                    && o.stored == out.stored);
        }
    }
    let pairs: Vec<f64> = times.iter().zip(&all_times).map(|(a, b)| a / b).collect();
    let secs = median(times);
    let parallel = on_all_cores.then(|| (median(all_times), same));
    let space = LevelSpace::new(game, Constraints::default());
    let mut packed = Vec::new();
    space.start(&mut packed);
    let rate = out.expanded as f64 / secs;
    let keys = (out.stored as usize).clamp(100_000, 2_000_000);
    let raw = median(
        (0..3)
            .map(|_| raw_insert_rate(packed.len(), keys))
            .collect(),
    );
    let per_state = out.peak_bytes as f64 / out.stored.max(1) as f64;
    totals.levels += 1;
    let verdict = match &out.verdict {
        Verdict::Solved { route, shortest } => {
            let k = route.len();
            let known = match best {
                Some(b) if k > b => {
                    totals.longer += 1;
                    format!(" (LONGER than the best known {b})")
                }
                Some(b) => format!(" (best known {b})"),
                None => String::new(),
            };
            let replayed = LevelSpace::new(game, Constraints::default()).wins(&route[..]);
            let wins = if replayed {
                ""
            } else {
                ", the route does NOT WIN"
            };
            match shortest {
                Shortest::Proven => {
                    totals.solved += 1;
                    format!("solved in {k}{known}{wins}")
                }
                Shortest::Bounded { fewest } => {
                    totals.bounded += 1;
                    let stop = if out.limit.is_some() {
                        "LIMIT"
                    } else {
                        "TIMEOUT"
                    };
                    format!("solved in {k}, shortest {fewest}..{k} ({stop}){known}{wins}")
                }
            }
        }
        Verdict::Unsolved => {
            totals.unsolved += 1;
            "unsolved".into()
        }
        Verdict::Limit => {
            totals.limit += 1;
            "LIMIT".into()
        }
        Verdict::Cancelled => {
            totals.timeout += 1;
            "TIMEOUT".into()
        }
    };
    let all_cores = match parallel {
        Some((p, same)) => {
            totals.par_secs += p;
            totals.par_base += secs;
            totals.mismatch += usize::from(!same);
            let spread = match (
                pairs.iter().copied().reduce(f64::min),
                pairs.iter().copied().reduce(f64::max),
            ) {
                (Some(lo), Some(hi)) if pairs.len() > 1 => format!(" ({lo:.2}-{hi:.2})"),
                _ => String::new(),
            };
            format!(
                " | {jobs} cores {:>9.0}/s {:.2}x{spread}{}",
                out.expanded as f64 / p,
                secs / p,
                if same { "" } else { " MISMATCH" }
            )
        }
        None => String::new(),
    };
    println!(
        "{name:<26} {:>10} exp {:>10} stored d{:<4} {:>8.3} s {:>9.0}/s | key {:>5} B {:>5.1} B/state rss {:>6.0} MiB | raw {:>9.0}/s {:>5.1}%{all_cores} | {verdict}",
        out.expanded,
        out.stored,
        out.depth,
        secs,
        rate,
        packed.len() * 4,
        per_state,
        rss,
        raw,
        100.0 * rate / raw
    );
    totals.expanded += out.expanded;
    totals.secs += secs;
    totals.raw_secs += out.expanded as f64 / raw;
    totals.worst_bytes = totals.worst_bytes.max(per_state);
    totals.worst_rss = totals.worst_rss.max(rss);
}

fn summary(set: &str, t: &Totals) {
    println!(
        "== {set}: {} levels: {} solved ({} shortest proven, {} bounded), {} unsolved, {} LIMIT, {} TIMEOUT{}; {} states in {:.1} s, {:.0}/s; ratio to raw inserts {:.1}%; worst {:.1} B/state, worst peak rss {:.0} MiB; all cores {:.2}x{}\n",
        t.levels,
        t.solved + t.bounded,
        t.solved,
        t.bounded,
        t.unsolved,
        t.limit,
        t.timeout,
        if t.longer > 0 {
            format!(", {} LONGER than the best known", t.longer)
        } else {
            String::new()
        },
        t.expanded,
        t.secs,
        t.expanded as f64 / t.secs.max(1e-9),
        100.0 * t.raw_secs / t.secs.max(1e-9),
        t.worst_bytes,
        t.worst_rss,
        t.par_base / t.par_secs.max(1e-9),
        if t.mismatch > 0 {
            format!(", {} MISMATCH between one core and all", t.mismatch)
        } else {
            String::new()
        },
    );
}

/// The shared corpora directory, when present.
fn corpora() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("MIAU_CORPORA") {
        return Some(PathBuf::from(d));
    }
    let mut dir = Some(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    while let Some(d) = dir {
        let c = d.join("shared/corpora");
        if c.is_dir() {
            return Some(c);
        }
        dir = d.parent();
    }
    None
}

/// The levels of an XSB file in the model (`import::xsb::to_levels`, the
/// importer's own conversion), with the best known move counts from the
/// corpus' table (keyed by the file name and level number). A file that
/// can't be read or holds no level is an error, worded for the user.
fn xsb_levels(
    path: &std::path::Path,
    moves: &str,
) -> Result<Vec<(String, Level, Option<usize>)>, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("can't read {shown}: {e}"))?;
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = path
        .file_stem()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let levels = xsb::to_levels(&stem, &text).map_err(|e| format!("{shown}:{e}"))?;
    let mut best = std::collections::HashMap::new();
    for line in moves.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        if let (Some(f), Some(n), Some(m)) = (cols.first(), cols.get(1), cols.get(5))
            && *f == file
            && let (Ok(n), Ok(m)) = (n.parse::<u32>(), m.parse::<usize>())
        {
            best.insert(n, m);
        }
    }
    Ok(levels
        .into_iter()
        .map(|l| {
            let known = best.get(&l.number).copied();
            (l.name, l.level, known)
        })
        .collect())
}

/// The set name of a user's XSB file: its file stem.
fn xsb_set_name(path: &std::path::Path) -> String {
    path.file_stem()
        .map_or_else(|| "xsb".into(), |s| s.to_string_lossy().into_owned())
}

/// The core-only Keke competition maps.
fn keke_levels(path: &std::path::Path) -> Vec<(String, Level)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for l in json["levels"].as_array().into_iter().flatten() {
        if l["core_only"] != serde_json::Value::Bool(true) {
            continue;
        }
        let key = l["key"].as_str().unwrap_or("?").replace("_LEVELS", "");
        if let Some(ascii) = l["ascii"].as_str()
            && let Ok(level) = keke::level(&key, ascii)
        {
            out.push((format!("keke/{key}"), level));
        }
    }
    out
}

/// Deterministic crowded boards: a walled room of `w` × `h` with interior
/// walls, loose rocks and loose words, the rules on the top row, and no
/// WIN, so the whole space must be searched (UNSOLVED).
fn crowded(seed: u32, w: usize, h: usize, rocks: usize) -> Level {
    let mut rng = seed.wrapping_mul(0x9E37_79B9) | 1;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        rng
    };
    let mut grid = vec![vec!["."; w]; h];
    for (y, row) in grid.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if y == 1 || y == h - 1 || x == 0 || x == w - 1 {
                *c = "#";
            }
        }
    }
    // Pillars every other cell, as in a warehouse: many walls, open aisles.
    for y in (3..h - 2).step_by(2) {
        for x in (2..w - 2).step_by(2) {
            if next() % 3 != 0 {
                grid[y][x] = "#";
            }
        }
    }
    let free = |grid: &Vec<Vec<&str>>, x: usize, y: usize| grid[y][x] == ".";
    let mut placed = 0;
    while placed < rocks {
        let (x, y) = (1 + next() as usize % (w - 2), 2 + next() as usize % (h - 3));
        if free(&grid, x, y) {
            grid[y][x] = "r";
            placed += 1;
        }
    }
    loop {
        let (x, y) = (1 + next() as usize % (w - 2), 2 + next() as usize % (h - 3));
        if free(&grid, x, y) {
            grid[y][x] = "m";
            break;
        }
    }
    let rules = [
        "MIAU", "IS", "YOU", ".", "ROCK", "IS", "PUSH", ".", "WALL", "IS", "STOP",
    ];
    for (x, r) in rules.iter().enumerate().take(w) {
        grid[0][x] = r;
    }
    let board: Vec<String> = grid.iter().map(|r| r.join(" ")).collect();
    testkit::level(&board.join("\n"))
}

fn main() {
    let corpora = corpora();
    // A user's XSB collection, read (and refused) before any search starts,
    // so a wrong path costs nothing; named alone, it is the only set run.
    let xsb_file = std::env::var_os("MIAU_BENCH_XSB").map(PathBuf::from);
    let xsb_set = match &xsb_file {
        None => Vec::new(),
        Some(path) => {
            let moves = corpora
                .as_ref()
                .and_then(|d| {
                    std::fs::read_to_string(d.join("sokoban/microban_move_counts.csv")).ok()
                })
                .unwrap_or_default();
            match xsb_levels(path, &moves) {
                Ok(levels) => levels,
                Err(e) => {
                    eprintln!("MIAU_BENCH_XSB: {e}");
                    std::process::exit(2);
                }
            }
        }
    };
    let mut sets: Vec<String> = std::env::var("MIAU_BENCH_SET")
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_else(|_| {
            if xsb_file.is_some() {
                Vec::new()
            } else {
                ["packs", "crowded", "microban", "microban2", "keke"]
                    .map(str::to_string)
                    .to_vec()
            }
        });
    if xsb_file.is_some() {
        sets.push(XSB_SET.into());
    }
    let only = std::env::var("MIAU_BENCH_LEVEL").ok();
    let wanted = |name: &str| {
        only.as_deref().is_none_or(|o| {
            o.split(',').any(|o| match o.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => name == o,
            })
        })
    };
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "solver benchmark: plain solve, one core, budget {BUDGET} states / {} MiB, {} s per level; load average {}",
        MEMORY >> 20,
        TIMEOUT.as_secs(),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    for set in &sets {
        let mut totals = Totals::default();
        match set.as_str() {
            "packs" => {
                let mut paths: Vec<_> =
                    std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/packs"))
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
                        let name = format!("{}/{}", pack.id, level.id.text);
                        if wanted(&name) {
                            run(&name, &Game::new(level), 5, None, &mut totals);
                        }
                    }
                }
            }
            "crowded" => {
                for (i, (w, h, rocks)) in [(16, 12, 3), (20, 14, 3), (24, 16, 2), (20, 20, 3)]
                    .into_iter()
                    .enumerate()
                {
                    let name = format!("crowded/{w}x{h}-{rocks}rocks");
                    if wanted(&name) {
                        let level = crowded(i as u32 + 1, w, h, rocks);
                        run(&name, &Game::new(&level), 1, None, &mut totals);
                    }
                }
            }
            "microban" | "microban2" => {
                let Some(dir) = &corpora else { continue };
                let file = if set == "microban" {
                    "Microban_155.xsb"
                } else {
                    "Microban_II_135.xsb"
                };
                let moves = std::fs::read_to_string(dir.join("sokoban/microban_move_counts.csv"))
                    .unwrap_or_default();
                // The corpora are optional: a set that isn't there is skipped.
                let levels = xsb_levels(&dir.join("sokoban").join(file), &moves);
                for (name, level, best) in levels.unwrap_or_default() {
                    if wanted(&name) {
                        run(&name, &Game::new(&level), 1, best, &mut totals);
                    }
                }
            }
            XSB_SET => {
                let Some(path) = &xsb_file else { continue };
                for (name, level, best) in &xsb_set {
                    if wanted(name) {
                        run(name, &Game::new(level), 1, *best, &mut totals);
                    }
                }
                if totals.levels > 0 {
                    summary(&xsb_set_name(path), &totals);
                }
                continue;
            }
            "keke" => {
                let Some(dir) = &corpora else { continue };
                for (name, level) in keke_levels(&dir.join("keke/levels.json")) {
                    if wanted(&name) {
                        run(&name, &Game::new(&level), 1, None, &mut totals);
                    }
                }
            }
            other => println!("unknown set {other:?}"),
        }
        if totals.levels > 0 {
            summary(set, &totals);
        }
    }
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
        let mut totals = Totals::default();
        run(
            "proof/open-room",
            &Game::new(&testkit::level(board)),
            1,
            None,
            &mut totals,
        );
    }
    if std::env::var_os("MIAU_BENCH_BIG").is_some() {
        // An exhaustive proof of about 110 M states (13 × 8 free cells,
        // three rocks and the player: 104 · 103 · 102 · 101 placements, all
        // reachable but a few), under the visited set's 2^27 index range;
        // no WIN, so every state is searched.
        let board = "MIAU IS YOU . ROCK IS PUSH . . . . . . . .\n\
                     # # # # # # # # # # # # # # #\n\
                     # . . . . . . . . . . . . . #\n\
                     # . r . . . . . . . r . . . #\n\
                     # . . . . . . . . . . . . . #\n\
                     # . . . . . m . . . . . . . #\n\
                     # . . . . . . . . . . . . . #\n\
                     # . . . . . . . . . . . . . #\n\
                     # . r . . . . . . . . . . . #\n\
                     # . . . . . . . . . . . . . #\n\
                     # # # # # # # # # # # # # # #\n\
                     WALL IS STOP";
        let game = Game::new(&testkit::level(board));
        reset_peak_rss();
        let limits = Limits {
            states: 130_000_000,
            memory: 4 << 30,
        };
        let t = Instant::now();
        let out = search_level(
            &game,
            Constraints::default(),
            limits,
            jobs(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let secs = t.elapsed().as_secs_f64();
        println!(
            "proof/big-room: {:?} after {} expanded, {} stored, depth {}, {:.1} s, {:.0}/s, {:.1} B/state, peak rss {:.0} MiB",
            match out.verdict {
                Verdict::Solved { .. } => "solved",
                Verdict::Unsolved => "unsolved",
                Verdict::Limit => "LIMIT",
                Verdict::Cancelled => "cancelled",
            },
            out.expanded,
            out.stored,
            out.depth,
            secs,
            out.expanded as f64 / secs,
            out.peak_bytes as f64 / out.stored.max(1) as f64,
            peak_rss_mib()
        );
    }
}
