//! The move and push searches of levels against a plain breadth-first
//! search over whole engine states.

use super::solve::{probed_search, search_space};
use super::*;
use crate::engine::{TurnResult, testkit};
use crate::solver::{Limits, Verdict};
use proptest::prelude::*;
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::AtomicBool;

/// What the reference BFS found: the route (`None`: unsolved) and the
/// states it expanded and stored.
#[derive(Debug)]
struct Plain {
    route: Option<String>,
    expanded: u64,
    stored: u64,
}

/// The reference: a deliberately plain BFS over whole engine states
/// (`Game::step`, full `State` equality in a std `HashSet`, paths kept
/// as strings), pruning what the plain solve prunes (a turn that loses
/// control without winning) and, given `dead`, every state it calls
/// dead. `Err` when the space is larger than `cap` states.
fn naive(game: &Game, cap: usize, dead: Option<&DeadCells>) -> Result<Plain, ()> {
    let (start, _) = game.reset();
    let mut inputs = Input::MOVES.to_vec();
    if !game.automata.is_empty() {
        inputs.push(Input::Wait);
    }
    let mut seen = HashSet::new();
    seen.insert(start.clone());
    let mut queue = VecDeque::from([(start, String::new())]);
    let mut expanded = 0;
    while let Some((s, path)) = queue.pop_front() {
        expanded += 1;
        for &i in &inputs {
            let TurnResult::Accepted { state, report } = game.step(&s, i) else {
                continue;
            };
            let mut p = path.clone();
            p.push(i.letter());
            if report.won {
                return Ok(Plain {
                    route: Some(p),
                    expanded,
                    stored: seen.len() as u64,
                });
            }
            if report.lost_control || dead.is_some_and(|d| d.is_dead(state.words())) {
                continue;
            }
            if seen.insert(state.clone()) {
                queue.push_back((state, p));
            }
        }
        if seen.len() > cap {
            return Err(());
        }
    }
    Ok(Plain {
        route: None,
        expanded,
        stored: seen.len() as u64,
    })
}

/// Whether every state reachable from `game`'s start (past no win and no
/// loss of control, as every search here prunes) is among the first
/// `cap`: where it is, a search left to run to the end (the satisficing
/// passes, best-first without a budget) stops within `cap` expansions.
/// [`naive`] can't tell: it stops at the first win, which in a large
/// space a best-first search may reach only after millions of states.
fn whole_space_within(game: &Game, cap: usize) -> bool {
    let (start, _) = game.reset();
    let mut inputs = Input::MOVES.to_vec();
    if !game.automata.is_empty() {
        inputs.push(Input::Wait);
    }
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        for &i in &inputs {
            let TurnResult::Accepted { state, report } = game.step(&s, i) else {
                continue;
            };
            if !report.won && !report.lost_control && seen.insert(state.clone()) {
                if seen.len() > cap {
                    return false;
                }
                queue.push_back(state);
            }
        }
    }
    true
}

/// The solver on 1, 2 and 3 threads finds `plain`'s verdict and route
/// (which replays to a win on the engine) and `counts`' states expanded
/// and stored, on board `b`.
fn agrees_with(game: &Game, plain: &Plain, counts: &Plain, b: &str) -> Result<(), TestCaseError> {
    let space = LevelSpace::new(game, Constraints::default());
    for jobs in [1, 2, 3] {
        let out = search_moves(
            game,
            Constraints::default(),
            Limits::default(),
            jobs,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        match (&plain.route, &out.verdict) {
            (None, Verdict::Unsolved) => {}
            (Some(route), Verdict::Solved { route: r, .. }) => {
                let text = route_text(space.inputs(), r);
                prop_assert_eq!(&text, route);
                prop_assert!(matches!(
                    crate::check::replay_route(game, &text),
                    crate::check::Replay::Wins(_)
                ));
            }
            (e, v) => {
                prop_assert!(false, "naive {e:?}, solver {v:?} on {jobs} threads on\n{b}")
            }
        }
        prop_assert_eq!(
            (out.expanded, out.stored),
            (counts.expanded, counts.stored),
            "{} threads on\n{}",
            jobs,
            b
        );
    }
    Ok(())
}

/// Things that move (YOU, pushed rocks, a mouse on an automaton),
/// things that don't (walls, flags) and words that make and break the
/// rules (PUSH, STOP, WIN, DEFEAT, and nouns to swap).
const CELLS: &[&str] = &[
    ".", ".", ".", ".", ".", "m", "r", "r", "f", "#", "MIAU", "IS", "IS", "YOU", "ROCK", "FLAG",
    "WIN", "PUSH", "STOP", "WALL", "DEFEAT", "u", "MOUSE", "TICK",
];

fn board() -> impl Strategy<Value = String> {
    (3usize..6, 4usize..7).prop_flat_map(|(h, w)| {
        prop::collection::vec(prop::collection::vec(prop::sample::select(CELLS), w), h).prop_map(
            move |rows| {
                let mut out = String::from("MIAU IS YOU");
                out.push_str(&" .".repeat(w - 3));
                out.push('\n');
                for r in rows {
                    out.push_str(&r.join(" "));
                    out.push('\n');
                }
                out
            },
        )
    })
}

/// The level of board `b`, with ROCK IS PUSH above it and a mouse on
/// an automaton when asked: the board as written, and its game.
fn random_game(b: String, tick: bool, rocks_push: bool) -> (String, Game) {
    let b = if rocks_push {
        format!("ROCK IS PUSH\n{b}")
    } else {
        b
    };
    let mut level = testkit::level(&b);
    if tick {
        testkit::automaton(&mut level, "shuttle", "TICK", Some("MOUSE"), 0, "LR");
    }
    (b, Game::new(&level))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// The solver, on one thread and on several, against the plain BFS:
    /// the same verdict, the same first-in-order shortest route (which
    /// replays to a win on the engine), the same states expanded and
    /// stored. Unit tests cut layers into chunks of a few states, so the
    /// threads do split these layers.
    #[test]
    fn matches_a_naive_bfs_on_small_levels(b in board(), tick in any::<bool>(), rocks_push in any::<bool>()) {
        let (b, game) = random_game(b, tick, rocks_push);
        let Ok(plain) = naive(&game, 4_000, None) else {
            return Ok(());
        };
        agrees_with(&game, &plain, &plain, &b)?;
    }
}

/// Whether `route` wins `game` on its last step and not before.
fn wins(game: &Game, route: &[u8]) -> bool {
    let text = route_text(
        LevelSpace::new(game, Constraints::default()).inputs(),
        route,
    );
    text.len() == route.len()
        && matches!(
            crate::check::replay_route(game, &text),
            crate::check::Replay::Wins(_)
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// The satisficing search, left to run to the end, against the
    /// plain BFS: a route exactly when the level can be won, which
    /// replays to a win on the engine and is no shorter than the
    /// shortest; nothing on a level that can't be won.
    #[test]
    fn satisficing_finds_a_winning_route_exactly_when_one_exists(
        b in board(),
        tick in any::<bool>(),
        rocks_push in any::<bool>(),
    ) {
        let (b, game) = random_game(b, tick, rocks_push);
        let Ok(plain) = naive(&game, 4_000, None) else {
            return Ok(());
        };
        if !whole_space_within(&game, 20_000) {
            return Ok(());
        }
        let space = LevelSpace::new(&game, Constraints::default());
        let guide = crate::solver::satisfice::LevelGuide::new(&game);
        let cancel = AtomicBool::new(false);
        let found = crate::solver::satisfice::satisfice(&space, &guide, u64::MAX, usize::MAX, &cancel);
        // The rule-set, changes, becoming and reach guides order the same space
        // otherwise: a route exactly when the plain guide finds one, which
        // wins too.
        for other in [
            crate::solver::satisfice::LevelGuide::by_rule_set(&game),
            crate::solver::satisfice::LevelGuide::by_changes(&game),
            crate::solver::satisfice::LevelGuide::by_becoming(&game),
            crate::solver::satisfice::LevelGuide::by_reach(&game),
        ] {
            let other = crate::solver::satisfice::satisfice(&space, &other, u64::MAX, usize::MAX, &cancel);
            prop_assert_eq!(other.is_some(), found.is_some());
            if let Some(route) = &other {
                prop_assert!(wins(&game, route), "{route:?} doesn't win on\n{b}");
            }
        }
        match (&plain.route, &found) {
            (None, None) => {}
            (Some(shortest), Some(route)) => {
                prop_assert!(wins(&game, route), "{route:?} doesn't win on\n{b}");
                prop_assert!(route.len() >= shortest.len());
                // The space's own check, which every reported route passes.
                prop_assert!(space.wins(route));
                prop_assert!(!space.wins(&route[..route.len() - 1]));
                // Shortened, it still wins on the engine, and lies
                // between the shortest and what it was.
                let short = crate::solver::shorten::shorten(&space, route);
                prop_assert!(wins(&game, &short), "{short:?} doesn't win on\n{b}");
                prop_assert!(short.len() <= route.len());
                prop_assert!(short.len() >= shortest.len());
                // Bounded by the route found, or by the shortest, the
                // move search is the plain one up to its win, on one
                // thread or two; bounded below the shortest, it says
                // it found nothing rather than call the level unsolved.
                let limits = Limits { states: u64::MAX, memory: 1 << 30 };
                let whole = search_space(&space, limits, None, 1, &cancel, &mut |_| {});
                for (longest, jobs) in [(route.len(), 1), (shortest.len(), 2), (shortest.len(), 1)] {
                    let bounded = search_space(&space, limits, Some(longest as u32), jobs, &cancel, &mut |_| {});
                    prop_assert_eq!(&bounded.verdict, &whole.verdict);
                    prop_assert_eq!(bounded.expanded, whole.expanded);
                    prop_assert!(bounded.stored <= whole.stored);
                }
                if shortest.len() > 1 {
                    let short = search_space(&space, limits, Some(shortest.len() as u32 - 1), 1, &cancel, &mut |_| {});
                    prop_assert_eq!(short.verdict, Verdict::Limit);
                    prop_assert_eq!(short.limit, None);
                    prop_assert_eq!(short.fewest as usize, shortest.len());
                }
                // A search stopped early never rules out the shortest.
                for states in [1, 2, 5, 20] {
                    let limits = Limits { states, memory: 1 << 30 };
                    let out = search_moves(&game, Constraints::default(), limits, 1, &cancel, &mut |_| {});
                    if out.verdict == Verdict::Limit {
                        prop_assert!(out.fewest as usize <= shortest.len(), "{} > {} on\n{}", out.fewest, shortest.len(), b);
                    }
                }
            }
            (e, f) => prop_assert!(false, "naive {e:?}, satisficing {f:?} on\n{b}"),
        }
    }
}

/// The plain solve's verdict against the plain BFS's `shortest` route
/// (`None`: the level can't be won): a SOLVED route replays to a win;
/// a proven one is as long as the shortest; a bounded range holds the
/// shortest's length; UNSOLVED only where nothing wins. LIMIT and a
/// cancelled search claim nothing.
fn verdict_agrees(
    game: &Game,
    shortest: Option<&str>,
    verdict: &Verdict,
    b: &str,
) -> Result<(), TestCaseError> {
    match (verdict, shortest) {
        (Verdict::Solved { route, shortest: s }, Some(p)) => {
            prop_assert!(wins(game, route), "{route:?} doesn't win on\n{b}");
            match *s {
                crate::solver::Shortest::Proven => {
                    prop_assert_eq!(route.len(), p.len(), "proven on\n{}", b)
                }
                crate::solver::Shortest::Bounded { fewest } => {
                    let fewest = fewest as usize;
                    prop_assert!(fewest < route.len(), "{fewest}..{} on\n{b}", route.len());
                    prop_assert!(
                        (fewest..=route.len()).contains(&p.len()),
                        "{}..{} misses the shortest {} on\n{}",
                        fewest,
                        route.len(),
                        p.len(),
                        b
                    );
                }
            }
        }
        (Verdict::Unsolved, None) | (Verdict::Limit | Verdict::Cancelled, _) => {}
        (v, p) => prop_assert!(false, "naive {p:?}, verdict {v:?} on\n{b}"),
    }
    Ok(())
}

/// Budgets from a few states, where the exact search stops and the
/// satisficing pass may still find a route (a bounded verdict), to the
/// default, where the exact search decides.
fn budget() -> impl Strategy<Value = u64> {
    prop::sample::select(vec![2u64, 4, 8, 16, 40, 120, crate::solver::DEFAULT_BUDGET])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    /// Every verdict of the plain solve ([`search_level`]) on random
    /// levels, whatever the budget, agrees with the plain BFS.
    #[test]
    fn a_verdict_agrees_with_the_plain_bfs(
        b in board(),
        tick in any::<bool>(),
        rocks_push in any::<bool>(),
        states in budget(),
    ) {
        let (b, game) = random_game(b, tick, rocks_push);
        let Ok(plain) = naive(&game, 4_000, None) else {
            return Ok(());
        };
        let limits = Limits { states, memory: 1 << 30 };
        let cancel = AtomicBool::new(false);
        let out = search_level(&game, Constraints::default(), limits, 1, &cancel, &mut |_| {});
        verdict_agrees(&game, plain.route.as_deref(), &out.verdict, &b)?;
    }

    /// The same on sealed Sokoban rooms, where the push search and its
    /// own satisficing pass decide.
    #[test]
    fn a_room_verdict_agrees_with_the_plain_bfs(b in sokoban_room(), states in budget()) {
        let game = sokoban_game(&b);
        let Ok(plain) = naive(&game, 20_000, None) else {
            return Ok(());
        };
        let limits = Limits { states, memory: 1 << 30 };
        let cancel = AtomicBool::new(false);
        let out = search_level(&game, Constraints::default(), limits, 1, &cancel, &mut |_| {});
        verdict_agrees(&game, plain.route.as_deref(), &out.verdict, &b)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    /// Bounded verdicts forced: the move search stopped within a few
    /// states, then the satisficing pass of [`search_level`] left to run
    /// (its route replayed and shortened, as there), folded into the
    /// verdict by [`Outcome::settle`]: the range always holds the plain
    /// BFS's shortest length.
    #[test]
    fn a_bounded_range_holds_the_shortest(
        b in board(),
        tick in any::<bool>(),
        rocks_push in any::<bool>(),
        states in prop::sample::select(vec![1u64, 2, 4, 8, 16, 40]),
    ) {
        let (b, game) = random_game(b, tick, rocks_push);
        let Ok(plain) = naive(&game, 4_000, None) else {
            return Ok(());
        };
        if !whole_space_within(&game, 20_000) {
            return Ok(());
        }
        let space = LevelSpace::new(&game, Constraints::default());
        let guide = crate::solver::satisfice::LevelGuide::new(&game);
        let cancel = AtomicBool::new(false);
        let limits = Limits { states, memory: 1 << 30 };
        let mut out = search_space(&space, limits, None, 1, &cancel, &mut |_| {});
        if out.verdict == Verdict::Limit {
            out.found = crate::solver::satisfice::satisfice(&space, &guide, u64::MAX, usize::MAX, &cancel)
                .filter(|route| space.wins(route))
                .map(|route| crate::solver::shorten::shorten(&space, &route));
        }
        let out = out.settle();
        if plain.route.is_some() {
            prop_assert!(out.verdict.route().is_some(), "{:?} on\n{}", out.verdict, b);
        }
        verdict_agrees(&game, plain.route.as_deref(), &out.verdict, &b)?;
    }

    /// The same over pushes, on sealed rooms: the push search stopped
    /// within a few nodes, then its satisficing pass left to run.
    #[test]
    fn a_bounded_room_range_holds_the_shortest(
        b in sokoban_room(),
        states in prop::sample::select(vec![1u64, 2, 4, 8]),
    ) {
        let game = sokoban_game(&b);
        let space = LevelSpace::new(&game, Constraints::default());
        let Some(pushes) = space.push_space() else {
            return Ok(());
        };
        let Ok(plain) = naive(&game, 20_000, None) else {
            return Ok(());
        };
        if !whole_space_within(&game, 20_000) {
            return Ok(());
        }
        let cancel = AtomicBool::new(false);
        let limits = Limits { states, memory: 1 << 30 };
        let mut out = crate::solver::pushes::search(&pushes, limits, None, &cancel, &mut |_| {});
        if out.verdict == Verdict::Limit {
            out.found = crate::solver::pushes::satisfice(&pushes, u64::MAX, usize::MAX, &cancel)
                .filter(|route| space.wins(route))
                .map(|route| crate::solver::shorten::shorten(&space, &route));
        }
        let out = out.settle();
        if plain.route.is_some() {
            prop_assert!(out.verdict.route().is_some(), "{:?} on\n{}", out.verdict, b);
        }
        verdict_agrees(&game, plain.route.as_deref(), &out.verdict, &b)?;
    }
}

/// An open room the exact search can't finish within 20 states, while
/// the satisficing pass walks straight to the flag: SOLVED, the route
/// winning on the engine, the shortest bounded below its length.
#[test]
fn a_budget_too_small_for_the_shortest_still_solves() {
    let room = "MIAU IS YOU . . . . .\n\
                .    .  .   . . . . .\n\
                m    .  .   . . . . .\n\
                .    .  .   . . . . .\n\
                .    .  .   . . . . f\n\
                FLAG IS WIN . . . . .";
    let game = Game::new(&testkit::level(room));
    let limits = Limits {
        states: 20,
        memory: 1 << 30,
    };
    let cancel = AtomicBool::new(false);
    let out = search_level(
        &game,
        Constraints::default(),
        limits,
        1,
        &cancel,
        &mut |_| {},
    );
    let Verdict::Solved {
        route,
        shortest: crate::solver::Shortest::Bounded { fewest },
    } = &out.verdict
    else {
        panic!("{:?}", out.verdict);
    };
    assert!(wins(&game, route), "{route:?}");
    // The shortest takes 2 steps down and 7 right.
    assert!(
        *fewest as usize <= 9 && 9 <= route.len(),
        "{fewest}..{}",
        route.len()
    );
    assert_eq!(out.limit, Some(crate::solver::LimitKind::States));
    // With the default budget the same level is proven.
    let out = search_level(
        &game,
        Constraints::default(),
        Limits::default(),
        1,
        &cancel,
        &mut |_| {},
    );
    assert_eq!(out.verdict.shortest_range(), Some((9, 9)));
}

/// A proven verdict is one whose bound leaves nothing shorter; a
/// bounded one keeps its lower bound.
#[test]
fn a_bound_as_long_as_the_route_proves_it() {
    assert_eq!(
        Verdict::bounded(vec![0, 1, 2], 3),
        Verdict::proven(vec![0, 1, 2])
    );
    assert_eq!(
        Verdict::bounded(vec![0, 1, 2], 2).shortest_range(),
        Some((2, 3))
    );
    assert_eq!(Verdict::Limit.shortest_range(), None);
}

/// Sealed Sokoban rooms: fixed rule words, a walled room of crates,
/// docks and one player, where the dead-state analysis applies.
fn sokoban_room() -> impl Strategy<Value = String> {
    (2usize..5, 3usize..6).prop_flat_map(|(h, w)| {
        let cell = prop::sample::select(&[".", ".", ".", ".", "#", "$", "o", "$", "o"][..]);
        (
            prop::collection::vec(prop::collection::vec(cell, w), h),
            0..h,
            0..w,
        )
            .prop_map(move |(mut rows, py, px)| {
                rows[py][px] = "@";
                sealed_room(&rows)
            })
    })
}

/// A sealed room like [`sokoban_room`]'s, its rows mirrored about
/// the middle column, and maybe its halves about the middle row, so
/// the push search folds mirror images together.
fn symmetric_room() -> impl Strategy<Value = String> {
    (1usize..4, 2usize..4, any::<bool>(), any::<bool>()).prop_flat_map(|(h, half, odd, both)| {
        let cell = prop::sample::select(&[".", ".", ".", ".", "#", "$", "o"][..]);
        let w = 2 * half + usize::from(odd);
        let rows_h = if both { 2 * h } else { h + 1 };
        (
            prop::collection::vec(prop::collection::vec(cell, w), rows_h),
            0..rows_h,
            0..w,
        )
            .prop_map(move |(mut rows, py, px)| {
                for r in rows.iter_mut() {
                    for x in 0..w / 2 {
                        r[w - 1 - x] = r[x];
                    }
                }
                if both {
                    for y in 0..rows_h / 2 {
                        rows[rows_h - 1 - y] = rows[y].clone();
                    }
                }
                rows[py][px] = "@";
                sealed_room(&rows)
            })
    })
}

/// The Sokoban rules, then `rows` inside a ring of walls.
fn sealed_room(rows: &[Vec<&str>]) -> String {
    let mut out = String::from("MIAU! IS! YOU!\nCRATE! IS! PUSH!\nDOCK! IS! GOAL!\n");
    let wall = vec!["#"; rows[0].len() + 2].join(" ");
    out.push_str(&wall);
    out.push('\n');
    for r in rows {
        out.push_str(&format!("# {} #\n", r.join(" ")));
    }
    out.push_str(&wall);
    out
}

fn sokoban_game(board: &str) -> Game {
    let mut level = testkit::level(board);
    testkit::terrain(&mut level, &["WALL"]);
    Game::new(&level)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]
    /// Soundness of the dead-state analysis: over the whole space of a
    /// random sealed room, no state it calls dead can reach a win.
    #[test]
    fn no_dead_state_can_reach_a_win(b in sokoban_room()) {
        let game = sokoban_game(&b);
        let (start, _) = game.reset();
        let Some(dead) = DeadCells::new(&game, &start, &game.rules(&start)) else {
            // Rooms without a dock, or with a player walled in a dock's
            // cell, are outside the analysis.
            return Ok(());
        };
        // The whole space and its edges, winning turns marked.
        let mut index = std::collections::HashMap::new();
        let mut states = vec![start.clone()];
        index.insert(start, 0usize);
        let mut next: Vec<Vec<usize>> = Vec::new();
        let mut wins = Vec::new();
        let mut i = 0;
        while i < states.len() {
            prop_assume!(states.len() < 20_000);
            let s = states[i].clone();
            let mut out = Vec::new();
            let mut won = false;
            for input in Input::MOVES {
                if let TurnResult::Accepted { state, report } = game.step(&s, input) {
                    won |= report.won;
                    if report.won {
                        continue;
                    }
                    let n = states.len();
                    let j = *index.entry(state.clone()).or_insert_with(|| {
                        states.push(state);
                        n
                    });
                    out.push(j);
                }
            }
            next.push(out);
            wins.push(won);
            i += 1;
        }
        // Which states can still win: a fixed point backwards.
        let mut can = wins.clone();
        loop {
            let mut changed = false;
            for k in 0..states.len() {
                if !can[k] && next[k].iter().any(|&j| can[j]) {
                    can[k] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (k, s) in states.iter().enumerate() {
            prop_assert!(
                !(can[k] && dead.is_dead(s.words())),
                "a state called dead wins later on\n{}", b
            );
        }
    }

    /// With the analysis on, the solver on 1 to 3 threads finds the
    /// plain BFS's verdict and route, and counts what a plain BFS that
    /// drops the same dead states counts.
    #[test]
    fn dropping_dead_states_keeps_the_verdict_and_route(b in sokoban_room()) {
        let game = sokoban_game(&b);
        let Ok(plain) = naive(&game, 20_000, None) else {
            return Ok(());
        };
        let (start, _) = game.reset();
        let dead = DeadCells::new(&game, &start, &game.rules(&start));
        let dropped = naive(&game, 20_000, dead.as_ref()).expect("a subset of the plain space");
        agrees_with(&game, &plain, &dropped, &b)?;
    }

    /// The push search (`pushes`), which `search_level` runs on these
    /// rooms whenever it applies, against the plain BFS: the same
    /// verdict and a route as short (the first shortest in its own
    /// order, not necessarily in `U D L R` order) that replays to a
    /// win on the engine; the same outcome on 1, 2 and 3 threads.
    #[test]
    fn the_push_search_finds_a_shortest_route(b in sokoban_room()) {
        push_search_agrees(&b)?;
    }

    /// The satisficing search over pushes (its fence pushes alone where
    /// the PUSH things fence off a PI-corral), run to the end, ranked by
    /// the bound or by the packing order: a route exactly when the room
    /// can be won, which replays to a win and is
    /// no shorter than the shortest; and the push search bounded by it
    /// finds a route of the shortest length, as it does unbounded.
    #[test]
    fn satisficing_over_pushes_wins_and_bounds_the_push_search(b in sokoban_room()) {
        let game = sokoban_game(&b);
        let space = LevelSpace::new(&game, Constraints::default());
        let Some(pushes) = space.push_space() else {
            return Ok(());
        };
        let Ok(plain) = naive(&game, 20_000, None) else {
            return Ok(());
        };
        if !whole_space_within(&game, 20_000) {
            return Ok(());
        }
        let cancel = AtomicBool::new(false);
        let found = crate::solver::pushes::satisfice(&pushes, u64::MAX, usize::MAX, &cancel);
        // Ranked by the packing order, the same: a route exactly when
        // there is one, winning on the engine.
        let packed = crate::solver::pushes::satisfice_packed(&pushes, u64::MAX, usize::MAX, &cancel);
        prop_assert_eq!(packed.is_some(), plain.route.is_some(), "packed {:?} on\n{}", packed, b);
        if let Some(route) = &packed {
            prop_assert!(wins(&game, route), "{route:?} doesn't win on\n{b}");
        }
        let (Some(shortest), Some(route)) = (&plain.route, &found) else {
            prop_assert!(plain.route.is_none() && found.is_none(), "naive {:?}, satisficing {:?} on\n{}", plain.route, found, b);
            return Ok(());
        };
        prop_assert!(wins(&game, route), "{route:?} doesn't win on\n{b}");
        prop_assert!(route.len() >= shortest.len());
        let short = crate::solver::shorten::shorten(&space, route);
        prop_assert!(wins(&game, &short), "{short:?} doesn't win on\n{b}");
        prop_assert!((shortest.len()..=route.len()).contains(&short.len()));
        for states in [1, 2, 5, 20] {
            let limits = Limits { states, memory: 1 << 30 };
            let out = crate::solver::pushes::search(&pushes, limits, None, &cancel, &mut |_| {});
            if out.verdict == Verdict::Limit {
                prop_assert!(out.fewest as usize <= shortest.len(), "{} > {} on\n{}", out.fewest, shortest.len(), b);
            }
        }
        for known in [None, Some(route.clone()), Some(short)] {
            let out = crate::solver::pushes::search(&pushes, Limits::default(), known, &cancel, &mut |_| {});
            let Verdict::Solved { route: r, .. } = &out.verdict else {
                prop_assert!(false, "{:?} on\n{}", out.verdict, b);
                return Ok(());
            };
            prop_assert_eq!(r.len(), shortest.len());
            prop_assert!(wins(&game, r));
        }
    }

    /// The same on mirror-symmetric rooms, where the push search keeps
    /// one node for each set of mirror images.
    #[test]
    fn the_push_search_folds_mirror_images(b in symmetric_room()) {
        push_search_agrees(&b)?;
    }
}

/// The push search against the plain BFS on room `b` (see
/// `the_push_search_finds_a_shortest_route`).
fn push_search_agrees(b: &str) -> Result<(), TestCaseError> {
    let game = sokoban_game(b);
    let space = LevelSpace::new(&game, Constraints::default());
    if space.push_space().is_none() {
        return Ok(());
    }
    let Ok(plain) = naive(&game, 20_000, None) else {
        return Ok(());
    };
    let run = |jobs| {
        search_level(
            &game,
            Constraints::default(),
            Limits::default(),
            jobs,
            &AtomicBool::new(false),
            &mut |_| {},
        )
    };
    let one = run(1);
    match (&plain.route, &one.verdict) {
        (None, Verdict::Unsolved) => {}
        (Some(route), Verdict::Solved { route: r, .. }) => {
            let text = route_text(space.inputs(), r);
            prop_assert_eq!(
                text.len(),
                route.len(),
                "{} against {} on\n{}",
                text,
                route,
                b
            );
            prop_assert!(
                matches!(
                    crate::check::replay_route(&game, &text),
                    crate::check::Replay::Wins(_)
                ),
                "{} doesn't win on\n{}",
                text,
                b
            );
        }
        (e, v) => prop_assert!(false, "naive {e:?}, push search {v:?} on\n{b}"),
    }
    // Past a first run of two nodes: the satisficing pass, then the
    // push search below its route, which finds the same length.
    let cancel = AtomicBool::new(false);
    let none = Constraints::default();
    let probed = probed_search(
        &game,
        none,
        Limits::default(),
        (2, 2),
        1,
        &cancel,
        &mut |_| {},
    );
    match (&one.verdict, &probed.verdict) {
        (Verdict::Unsolved, Verdict::Unsolved) => {}
        (Verdict::Solved { route: a, .. }, Verdict::Solved { route: p, .. }) => {
            prop_assert_eq!(a.len(), p.len(), "on\n{}", b);
            prop_assert!(wins(&game, p), "{:?} doesn't win on\n{}", p, b);
        }
        (o, p) => prop_assert!(false, "{o:?} unprobed, {p:?} probed on\n{b}"),
    }
    // A constrained search (words frozen: nothing to exclude here) is
    // never cut to a first run: the same search as the plain one.
    let frozen = Constraints {
        words_frozen: true,
        ..Constraints::default()
    };
    let held = probed_search(
        &game,
        frozen,
        Limits::default(),
        (2, 2),
        1,
        &cancel,
        &mut |_| {},
    );
    prop_assert_eq!(&held.verdict, &one.verdict);
    prop_assert_eq!((held.expanded, held.stored), (one.expanded, one.stored));
    for jobs in [2, 3] {
        let other = run(jobs);
        prop_assert_eq!(&other.verdict, &one.verdict);
        prop_assert_eq!((other.expanded, other.stored), (one.expanded, one.stored));
    }
    Ok(())
}

/// The push search applies to an imported Sokoban level and to sealed
/// rooms, not where the rules can change or two things are YOU.
#[test]
fn the_push_search_applies_to_sealed_rooms_alone() {
    let room = "MIAU! IS! YOU!\nCRATE! IS! PUSH!\nDOCK! IS! GOAL!\n\
                # # # # # #\n# @ . $ o #\n# . . . . #\n# # # # # #";
    let game = sokoban_game(room);
    let space = LevelSpace::new(&game, Constraints::default());
    assert!(space.push_space().is_some());
    let out = search_level(
        &game,
        Constraints::default(),
        Limits::default(),
        1,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(out.verdict, Verdict::proven(vec![3, 3]));
    // Two players: a walk moves both, so moves aren't walks and pushes.
    let two = sokoban_game(&room.replace("# . . . . #", "# . @ . . #"));
    assert!(
        LevelSpace::new(&two, Constraints::default())
            .push_space()
            .is_none()
    );
    // Words that can move: the rules can change.
    let loose = Game::new(&testkit::level(
        "MIAU IS YOU . . .\nROCK IS PUSH . . .\nFLAG IS GOAL . . .\n@ . r f . .",
    ));
    assert!(
        LevelSpace::new(&loose, Constraints::default())
            .push_space()
            .is_none()
    );
    // A required rule that isn't active at reset can never form there.
    let require = Constraints {
        require: vec![(game.tok("MIAU").unwrap(), game.tok("PUSH").unwrap())],
        ..Constraints::default()
    };
    assert!(LevelSpace::new(&game, require).push_space().is_none());
}
