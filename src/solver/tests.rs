//! The solver against a naive BFS on random finite spaces.

use super::*;
use proptest::prelude::*;
use std::collections::{HashMap, VecDeque};

/// A random finite space: `next[s][a]` is the successor of `s` under `a`, or
/// `None` when rejected; `wins[s][a]` marks winning turns, `prune[s][a]` pruned ones.
#[derive(Debug, Clone)]
struct Table {
    next: Vec<Vec<Option<u16>>>,
    wins: Vec<Vec<bool>>,
    prune: Vec<Vec<bool>>,
}

impl Table {
    fn turn(&self, s: u16, a: usize) -> Option<(u16, Turn)> {
        let to = self.next[s as usize][a]?;
        Some((
            to,
            Turn {
                won: self.wins[s as usize][a],
                pruned: self.prune[s as usize][a],
                // A one-word state: the hint is always right, and odd
                // states leave it out, so both fingerprint paths run.
                changed: s.is_multiple_of(2).then_some(0),
            },
        ))
    }
}

impl Space for Table {
    fn action_count(&self) -> usize {
        self.next[0].len()
    }
    fn start(&self, out: &mut Vec<u32>) {
        out.push(0);
    }
    fn step(&self, from: &[u32], a: usize, out: &mut Vec<u32>) -> Option<Turn> {
        let (to, turn) = self.turn(from[0] as u16, a)?;
        out.push(u32::from(to));
        Some(turn)
    }
}

/// The reference: BFS over whole states with a HashMap of paths; the
/// route, if any, with the states expanded and stored.
fn naive(t: &Table) -> (Option<Vec<u8>>, u64, u64) {
    let mut seen: HashMap<u16, Vec<u8>> = HashMap::new();
    let mut queue = VecDeque::new();
    seen.insert(0, Vec::new());
    queue.push_back(0u16);
    let mut expanded = 0;
    while let Some(s) = queue.pop_front() {
        expanded += 1;
        let path = seen[&s].clone();
        for a in 0..t.action_count() {
            let Some((to, turn)) = t.turn(s, a) else {
                continue;
            };
            if turn.pruned {
                continue;
            }
            let mut p = path.clone();
            p.push(a as u8);
            if turn.won {
                return (Some(p), expanded, seen.len() as u64);
            }
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(to) {
                e.insert(p);
                queue.push_back(to);
            }
        }
    }
    (None, expanded, seen.len() as u64)
}

fn table() -> impl Strategy<Value = Table> {
    (1usize..40, 1usize..5).prop_flat_map(|(n, k)| {
        let cell = (
            proptest::option::weighted(0.8, 0..n as u16),
            prop::bool::weighted(0.03),
            prop::bool::weighted(0.1),
        );
        prop::collection::vec(prop::collection::vec(cell, k), n).prop_map(|rows| Table {
            next: rows
                .iter()
                .map(|r| r.iter().map(|c| c.0).collect())
                .collect(),
            wins: rows
                .iter()
                .map(|r| r.iter().map(|c| c.1).collect())
                .collect(),
            prune: rows
                .iter()
                .map(|r| r.iter().map(|c| c.2).collect())
                .collect(),
        })
    })
}

proptest! {
    /// One thread or several, the search finds what a plain BFS finds:
    /// the verdict, the first shortest route in action order, and as many
    /// states expanded and stored. (Unit tests cut layers into chunks of
    /// a few states, so several threads do split these layers.)
    #[test]
    fn matches_naive_bfs(t in table(), jobs in 1usize..4) {
        let out = search(&t, Limits::default(), jobs, &AtomicBool::new(false), &mut |_| {});
        let (route, expanded, stored) = naive(&t);
        match route {
            Some(route) => prop_assert_eq!(out.verdict, Verdict::proven(route)),
            None => prop_assert_eq!(out.verdict, Verdict::Unsolved),
        }
        prop_assert_eq!((out.expanded, out.stored), (expanded, stored));
    }

    /// A state budget ends every thread count at the same place.
    #[test]
    fn limits_end_alike_on_any_thread_count(t in table(), states in 1u64..30) {
        let limits = Limits { states, memory: 1 << 30 };
        let one = search(&t, limits, 1, &AtomicBool::new(false), &mut |_| {});
        let two = search(&t, limits, 2, &AtomicBool::new(false), &mut |_| {});
        prop_assert_eq!(&one.verdict, &two.verdict);
        prop_assert_eq!(
            (one.expanded, one.stored, one.depth, one.limit, one.peak_bytes),
            (two.expanded, two.stored, two.depth, two.limit, two.peak_bytes)
        );
    }
}

#[test]
fn budget_ends_in_limit_not_unsolved() {
    // A long chain: state i → i+1, no win.
    let n = 1000;
    let t = Table {
        next: (0..n).map(|i| vec![Some(((i + 1) % n) as u16)]).collect(),
        wins: vec![vec![false]; n],
        prune: vec![vec![false]; n],
    };
    let limits = Limits {
        states: 10,
        memory: 1 << 30,
    };
    let out = search(&t, limits, 1, &AtomicBool::new(false), &mut |_| {});
    assert_eq!(out.verdict, Verdict::Limit);
    assert_eq!(out.expanded, 10);
    let out = one_thread(&t);
    assert_eq!(out.verdict, Verdict::Unsolved);
    assert_eq!(out.stored, n as u64);
}

/// The default search of `t` on one thread.
fn one_thread(t: &Table) -> Outcome {
    search(
        t,
        Limits::default(),
        1,
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// A chain of `n` states, each with one successor (the last leading back
/// to the first when `cyclic`), none winning.
fn chain(n: usize, cyclic: bool) -> Table {
    Table {
        next: (0..n)
            .map(|s| vec![(cyclic || s + 1 < n).then_some(((s + 1) % n) as u16)])
            .collect(),
        wins: vec![vec![false]; n],
        prune: vec![vec![false]; n],
    }
}

#[test]
fn cancellation_stops_the_search() {
    let t = chain(60_000, true);
    let out = search(
        &t,
        Limits::default(),
        1,
        &AtomicBool::new(true),
        &mut |_| {},
    );
    assert_eq!(out.verdict, Verdict::Cancelled);
    assert!(out.expanded <= 1024);
}

#[test]
fn visited_set_stays_under_25_bytes_per_state() {
    let mut v = visited::Visited::with_capacity(16);
    for i in 0..1_000_000u32 {
        v.insert(fingerprint::of_words(&[i]), i.saturating_sub(1), 0);
    }
    assert_eq!(v.len(), 1_000_000);
    let per_state = v.bytes() as f64 / v.len() as f64;
    // 14 bytes of entries, vectors grown by an eighth, a table at most
    // 7/8 full: at most 24.9 bytes a state, and the cache.
    assert!(per_state <= 25.0, "{per_state}");
    for n in [1_000_000u32, 1_200_000, 1_500_000, 1_800_000] {
        while v.len() < n as usize {
            let i = v.len() as u32;
            v.insert(fingerprint::of_words(&[i]), i - 1, 3);
        }
        let per_state = v.bytes() as f64 / v.len() as f64;
        assert!(per_state <= 25.0, "{n}: {per_state}");
    }
}

/// A compact set (the push search's) holds at most 14 bytes of entries
/// with a sixteenth of slack and a table at most 7/8 full grown by half:
/// about 21.8 bytes a state at every size, where the default set's table
/// reaches 9.1 bytes a state after it doubles.
#[test]
fn compact_visited_set_stays_under_22_bytes_per_state() {
    let mut v = visited::Visited::compact();
    let mut worst = 0f64;
    for i in 0..3_000_000u32 {
        v.insert(fingerprint::of_words(&[i]), i.saturating_sub(1), 0);
        if i >= 200_000 && i % 10_000 == 0 {
            worst = worst.max(v.bytes() as f64 / v.len() as f64);
        }
    }
    assert_eq!(v.len(), 3_000_000);
    assert!(worst <= 22.0, "{worst}");
}

proptest! {
    /// The visited set answers as a map from fingerprint to first index
    /// would, through the scan of its first states, the table built after
    /// them and every growth, compact or not.
    #[test]
    fn visited_set_answers_as_a_map(
        keys in prop::collection::vec(0u32..400, 0..1500),
        compact in any::<bool>(),
    ) {
        let mut v = if compact {
            visited::Visited::compact()
        } else {
            visited::Visited::default()
        };
        let mut map: HashMap<u32, u32> = HashMap::new();
        for (k, key) in keys.iter().enumerate() {
            let fp = fingerprint::of_words(&[*key]);
            let got = v.insert(fp, k as u32 / 2, (k % 5) as u8);
            let next = map.len() as u32;
            match map.get(key) {
                Some(&i) => prop_assert_eq!(got, visited::Insert::Seen(i)),
                None => {
                    prop_assert_eq!(got, visited::Insert::New(next));
                    map.insert(*key, next);
                }
            }
        }
        prop_assert_eq!(v.len(), map.len());
        for (key, &i) in &map {
            prop_assert_eq!(v.fingerprint(i), fingerprint::of_words(&[*key]) & visited::KEPT);
        }
    }
}

/// A search of a handful of states holds about 32 bytes per state or
/// fewer, frontier included: no table, cache or whole state is paid for
/// before there are states to pay for it.
#[test]
fn tiny_searches_pay_for_their_states_alone() {
    for n in [1usize, 2, 3, 5, 9, 17, 40, 200, 3000] {
        let t = chain(n, false);
        let out = one_thread(&t);
        assert_eq!(out.verdict, Verdict::Unsolved);
        assert_eq!(out.stored, n as u64);
        let per_state = out.peak_bytes as f64 / n as f64;
        assert!(per_state <= 32.0, "{n} states: {per_state} bytes each");
    }
}

/// Each thread's copy of the space (as the search keeps them) starts a
/// cache line of its own and shares none with the next one's, whatever
/// the space's size.
#[test]
fn copies_of_the_space_share_no_cache_line() {
    fn check<T: Default>() {
        let copies: Vec<crossbeam_utils::CachePadded<T>> =
            (0..3).map(|_| Default::default()).collect();
        for pair in copies.windows(2) {
            let (a, b) = (
                std::ptr::from_ref::<T>(&pair[0]) as usize,
                std::ptr::from_ref::<T>(&pair[1]) as usize,
            );
            assert_eq!(a % 64, 0);
            assert!(b - a >= 64.max(std::mem::size_of::<T>()));
        }
    }
    check::<u8>();
    check::<[u64; 20]>();
}

/// An outcome of `verdict` that stopped at `limit`, with nothing else.
fn stopped(verdict: Verdict, limit: Option<LimitKind>) -> Outcome {
    Outcome {
        verdict,
        expanded: 0,
        stored: 0,
        depth: 0,
        peak_bytes: 0,
        visited_bytes: 0,
        limit,
        found: None,
        fewest: 4,
    }
}

/// A route found after the exact search decides a stopped search, and
/// replaces a bounded solve's route only when shorter; a proven route and
/// an exhaustive proof are never touched.
#[test]
fn a_later_route_decides_or_shortens_a_bounded_solve() {
    let limit = Some(LimitKind::States);
    let out = stopped(Verdict::Limit, limit).with_route(vec![1; 9]);
    assert_eq!(out.verdict, Verdict::bounded(vec![1; 9], 4));
    let bounded = stopped(Verdict::bounded(vec![1; 9], 4), limit);
    let shorter = bounded.clone().with_route(vec![2; 6]);
    assert_eq!(shorter.verdict, Verdict::bounded(vec![2; 6], 4));
    let longer = bounded.with_route(vec![2; 12]);
    assert_eq!(longer.verdict, Verdict::bounded(vec![1; 9], 4));
    // Down to the bound: now proven.
    let reached = stopped(Verdict::bounded(vec![1; 9], 4), limit).with_route(vec![3; 4]);
    assert_eq!(reached.verdict, Verdict::proven(vec![3; 4]));
    let proven = stopped(Verdict::proven(vec![1; 5]), None).with_route(vec![2; 4]);
    assert_eq!(proven.verdict, Verdict::proven(vec![1; 5]));
    let none = stopped(Verdict::Unsolved, None).with_route(vec![2; 4]);
    assert_eq!(none.verdict, Verdict::Unsolved);
}

/// The passes after the exact search run for a plain solve that stopped
/// on its budget or its clock, with or without a route, and never for a
/// search its caller cancelled, a constrained one or a decided one.
#[test]
fn passes_after_the_search_run_where_it_stopped() {
    use level::needs_route;
    let budget = Some(LimitKind::Memory);
    let bounded = Verdict::bounded(vec![1; 9], 4);
    assert!(needs_route(&stopped(Verdict::Limit, budget), true, false));
    assert!(needs_route(&stopped(bounded.clone(), budget), true, false));
    assert!(needs_route(&stopped(bounded.clone(), None), true, true));
    assert!(needs_route(&stopped(Verdict::Cancelled, None), true, true));
    assert!(!needs_route(&stopped(bounded.clone(), None), true, false));
    assert!(!needs_route(
        &stopped(Verdict::Cancelled, None),
        true,
        false
    ));
    assert!(!needs_route(&stopped(Verdict::Limit, budget), false, false));
    assert!(!needs_route(
        &stopped(Verdict::proven(vec![1; 4]), None),
        true,
        true
    ));
    assert!(!needs_route(&stopped(Verdict::Unsolved, None), true, true));
}
