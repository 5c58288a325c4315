//! Which search a level gets: the push search where it applies, else the
//! move search, each with its satisficing passes around the exact one.

use super::{Constraints, LevelSpace};
use crate::engine::Game;
use crate::solver::{self, Limits, Outcome, Progress, Verdict};
use std::sync::atomic::AtomicBool;

/// The push nodes of a first, small run of the plain solve over pushes: a
/// level it decides gets no satisficing pass at all.
pub const SATISFICE_PROBE: u64 = 20_000;

/// The states of a first run of the plain solve over moves, the same for
/// the move search: a level it decides gets no satisficing pass, and one
/// that goes on pays for the run again (a fraction of a second at this
/// size, small beside the searches that need the pass).
pub const SATISFICE_PROBE_MOVES: u64 = 1_000_000;

/// The nodes of the satisficing pass run before a plain solve over pushes
/// ([`solver::pushes::satisfice`]): enough for the routes it finds on most
/// sealed rooms, under a second where it finds none; the push search then
/// looks only for shorter routes.
pub const SATISFICE_FIRST: u64 = 50_000;

/// The nodes of the backward satisficing pass over pulls
/// ([`solver::pushes::satisfice_pulls`]), run before a plain solve over
/// pushes when the forward pass ([`SATISFICE_FIRST`]) found no route: goal
/// rooms that must be filled in one order, which the backward pass
/// unpacks in a valid order by construction. Microban II 124 (twelve
/// crates) takes 954 000 of them, about 5 s on a busy host; where the pass
/// finds nothing it costs 6 to 35 s (Microban 153, 144).
pub const SATISFICE_PULLS: u64 = 1_000_000;

/// The backward pass's nodes times PUSH things at most: a node's pulls,
/// settling and assignment grow with the things, so rooms of more than
/// sixteen get proportionally fewer nodes than [`SATISFICE_PULLS`]
/// (Microban II 131's forty-four crates took 104 s for a million nodes on
/// a busy host, without a route).
pub const SATISFICE_PULLS_WORK: u64 = 16_000_000;

/// The states of the satisficing passes run before a plain solve over
/// moves ([`solver::satisfice::satisfice_level`]): the plain guide's, then,
/// when it found no route among states of more than one rule set, the
/// changes, rule-set, becoming and reach guides', the second figure each. A
/// route found bounds the move search (its last layer is tested, not
/// stored) and is what a search stopped by its caller's clock still has.
/// The plain guide's pass stays small: it costs every
/// level past the probe, such as a bundled pack's million-state proof
/// whose rules never change (0.7 s at 100 000 states, for no route). The
/// rule-set guide's finds the route of a level won through several rules
/// formed in turn (Keke 162) in 125 000 to 150 000 states, a second or two,
/// the changes guide that of Keke 161 and 176 in under 100 000, and the
/// becoming guide that of Keke 196 in under 200 000, and the reach guide
/// that of Keke 136 in 200 000 to 250 000; where they find none they cost
/// a level past the probe that much each.
pub const SATISFICE_FIRST_MOVES: (u64, u64) = (5_000, 250_000);

/// The nodes of the satisficing pass run after a plain solve that ended in
/// LIMIT without a route: the state budget's place, now the shortest route
/// is out of reach (its byte cap is the memory cap's). Over moves, this is
/// the plain guide's pass; the changes, rule-set, becoming and reach
/// guides' follow with [`SATISFICE_AFTER_RULE_SETS`] each.
pub const SATISFICE_AFTER: u64 = 8_000_000;

/// The search from both ends' nodes times PUSH things at most, after a
/// stopped exact search ([`find_route`]): [`SATISFICE_AFTER`] nodes for up
/// to ten crates (Microban 153's route takes about 8 M), fewer for more,
/// whose nodes cost more, so that a search without a clock (`check`) isn't
/// held for minutes by a large room where it finds nothing.
pub const SATISFICE_MEET_WORK: u64 = 80_000_000;

/// The nodes times PUSH things at most of the forward pass ranked by the
/// packing order ([`solver::pushes::satisfice_packed`]), the first pass
/// after a stopped exact search over pushes ([`find_route`]): a million
/// nodes for up to sixteen crates, a few seconds on one core, where
/// Microban 144's route comes after about 316 000.
pub const SATISFICE_PACKED_WORK: u64 = 16_000_000;

/// The states of each later guide's pass (changes, rule set, becoming,
/// reach) after the plain guide's [`SATISFICE_AFTER`] over moves found no
/// route: eight times what the first passes give them, and a quarter of
/// the plain guide's each, since a level where none finds a route pays
/// for all five (about 80 000 states a second).
pub const SATISFICE_AFTER_RULE_SETS: u64 = 2_000_000;

/// Searches `game` under `constraints`: the push search ([`solver::pushes`])
/// where it applies, else [`solver::search`] on a [`LevelSpace`], with a
/// start state excluded by a forbid search counting as exhausted. `jobs`
/// threads expand each layer of the move search; the result is the one of
/// one thread.
///
/// The plain solve (no constraints) also looks for any winning route
/// ([`solver::satisfice`]) on levels it doesn't decide within
/// [`SATISFICE_PROBE`] push nodes or [`SATISFICE_PROBE_MOVES`] states:
/// first with [`SATISFICE_FIRST`] nodes (pushes) or
/// [`SATISFICE_FIRST_MOVES`] states (moves, five guides in turn), and over
/// pushes, if that finds none, backwards with [`SATISFICE_PULLS`] nodes,
/// before the search runs again
/// in full, so that the push search can stop at the route's length and a
/// search stopped by the caller still has it; then, if the shortest-route
/// search ran out of budget without one, with [`SATISFICE_AFTER`] (and
/// [`SATISFICE_AFTER_RULE_SETS`] over moves). A
/// route it finds (replayed on the engine, then shortened) decides the
/// level when the shortest-route search stopped without one: the verdict
/// is then [`Verdict::Solved`] with [`solver::Shortest::Bounded`] by the
/// fewest steps that search had not ruled out. Each pass stays within the
/// state budget and the memory cap of `limits`.
pub fn search_level(
    game: &Game,
    constraints: Constraints,
    limits: Limits,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    let plain = constraints == Constraints::default();
    let out = search_exact(game, constraints, limits, jobs, cancel, progress);
    if needs_route(&out, plain, false) {
        if let Some(route) = find_route(game, limits, cancel) {
            return out.with_route(route);
        }
    }
    out
}

/// The first part of [`search_level`]: the shortest-route search with the
/// satisficing passes before it, settled; [`find_route`] is the second,
/// when [`needs_route`] says so. A caller on a clock runs the two parts on
/// its shares of it.
pub fn search_exact(
    game: &Game,
    constraints: Constraints,
    limits: Limits,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    let probes = (SATISFICE_PROBE, SATISFICE_PROBE_MOVES);
    probed_search(game, constraints, limits, probes, jobs, cancel, progress)
}

/// Whether the satisficing passes after the exact search ([`find_route`])
/// should look for a route: a `plain` solve (constraints change what a
/// route must avoid) that ran out of budget, or out of time when a clock
/// stopped it (`clock_stopped`), without one, or with one it could not
/// prove shortest (not when its caller stopped it). The passes after the exact search are larger than the
/// ones before it and may find a shorter route than the first to win
/// (Keke 176: 65 steps from the plain guide's pass after it, 143 from the
/// changes guide's before it), which [`Outcome::with_route`] keeps.
pub fn needs_route(out: &Outcome, plain: bool, clock_stopped: bool) -> bool {
    let stopped = match out.verdict {
        Verdict::Limit => true,
        Verdict::Cancelled => clock_stopped,
        Verdict::Solved {
            shortest: solver::Shortest::Bounded { .. },
            ..
        } => out.limit.is_some() || clock_stopped,
        _ => false,
    };
    stopped && plain
}

/// [`search_level`] with first runs of `probes` (push nodes, move states),
/// without the passes after a LIMIT: the exact search and the satisficing
/// passes before it, settled.
pub(super) fn probed_search(
    game: &Game,
    constraints: Constraints,
    limits: Limits,
    probes: (u64, u64),
    jobs: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    let plain = constraints == Constraints::default();
    let space = LevelSpace::new(game, constraints);
    // A level the search decides within a probe's states gets no
    // satisficing pass: the search runs once more, in full, only when
    // that first run ran out (the same search, so a level it decides gets
    // the same result either way, and a small one pays nothing).
    let probe = |states: u64| Limits {
        states: limits.states.min(states),
        ..limits
    };
    let settled = |out: &Outcome, probe: Limits| {
        out.verdict != Verdict::Limit || probe.states == limits.states
    };
    if !space.start_excluded()
        && let Some(pushes) = space.push_space()
    {
        let pass = |nodes: u64| {
            let found =
                solver::pushes::satisfice(&pushes, nodes.min(limits.states), limits.memory, cancel);
            replayed(&space, found)
        };
        let pulls = || {
            let things = pushes.things().max(1) as u64;
            let nodes = SATISFICE_PULLS
                .min(SATISFICE_PULLS_WORK / things)
                .min(limits.states);
            let found = solver::pushes::satisfice_pulls(&pushes, nodes, limits.memory, cancel);
            replayed(&space, found)
        };
        if !plain {
            return solver::pushes::search(&pushes, limits, None, cancel, progress);
        }
        let first = probe(probes.0);
        let mut out = solver::pushes::search(&pushes, first, None, cancel, progress);
        if !settled(&out, first) {
            let known = pass(SATISFICE_FIRST).or_else(pulls);
            out = solver::pushes::search(&pushes, limits, known, cancel, progress);
        }
        return out.settle();
    }
    if !plain || space.start_excluded() {
        return search_space(&space, limits, None, jobs, cancel, progress);
    }
    let pass = |(plain, by_rule_set): (u64, u64)| {
        let states = (plain.min(limits.states), by_rule_set.min(limits.states));
        let wins = |route: &[u8]| space.wins(route);
        solver::satisfice::satisfice_level(&space, game, states, limits.memory, cancel, wins)
            .map(|route| solver::shorten::shorten(&space, &route))
    };
    let first = probe(probes.1);
    let mut out = search_space(&space, first, None, jobs, cancel, progress);
    if !settled(&out, first) {
        // A route found bounds the search: its last layer is the one
        // whose successors are as long, and isn't stored.
        let known = pass(SATISFICE_FIRST_MOVES);
        let longest = known.as_ref().map(|route| route.len() as u32);
        out = search_space(&space, limits, longest, jobs, cancel, progress);
        if matches!(out.verdict, Verdict::Limit | Verdict::Cancelled) {
            out.found = known;
        }
    }
    out.settle()
}

/// The satisficing pass [`search_level`] runs after a plain solve that
/// ends in LIMIT ([`SATISFICE_AFTER`] nodes, over pushes forwards ranked
/// by the packing order ([`SATISFICE_PACKED_WORK`]), then from both ends
/// ([`solver::pushes::satisfice_meet`], where it applies) and then
/// forwards, the shortest route kept, or over moves that many states and then
/// [`SATISFICE_AFTER_RULE_SETS`], within `limits`),
/// on its own: the second part of [`search_level`], which a caller on a
/// clock runs on the clock's last share, after the exact search stopped
/// without a route (`miauc solve --timeout`, the solver benchmark). The
/// route wins on the engine and is shortened; fold it into the stopped
/// search's outcome with [`Outcome::with_route`].
pub fn find_route(game: &Game, limits: Limits, cancel: &AtomicBool) -> Option<Vec<u8>> {
    let space = LevelSpace::new(game, Constraints::default());
    if space.start_excluded() {
        return None;
    }
    let nodes = SATISFICE_AFTER.min(limits.states);
    match space.push_space() {
        Some(pushes) => {
            // A short forward pass ranked by the packing order first: it
            // finds the routes into a cluster of GOAL cells in an open
            // room (Microban 144), which the passes after it miss. Then
            // from both ends: where it applies, it finds the routes of
            // rooms whose start pockets and goal corridor each need one
            // order (Microban 153), which the forward pass alone misses.
            // The forward pass runs all the same and the shortest route
            // is kept: where both find one, the forward one is often
            // shorter (Microban II 126: 604 moves, 724 from both ends).
            let things = pushes.things().max(1) as u64;
            let packed = nodes.min(SATISFICE_PACKED_WORK / things);
            let packed = solver::pushes::satisfice_packed(&pushes, packed, limits.memory, cancel);
            let packed = replayed(&space, packed);
            let meet = nodes.min(SATISFICE_MEET_WORK / things);
            let both = solver::pushes::satisfice_meet(&pushes, meet, limits.memory, cancel);
            let both = replayed(&space, both);
            let found = solver::pushes::satisfice(&pushes, nodes, limits.memory, cancel);
            // The shortest; on a tie the forward pass's, then the both-ends one's.
            [replayed(&space, found), both, packed]
                .into_iter()
                .flatten()
                .min_by_key(Vec::len)
        }
        None => {
            let states = (nodes, SATISFICE_AFTER_RULE_SETS.min(limits.states));
            let wins = |route: &[u8]| space.wins(route);
            solver::satisfice::satisfice_level(&space, game, states, limits.memory, cancel, wins)
                .map(|route| solver::shorten::shorten(&space, &route))
        }
    }
}

/// A satisficing pass's `found` route, shortened, when it wins on the
/// engine: the check every pass's route passes before it counts
/// ([`solver::satisfice::satisfice_level`] makes it between its passes).
fn replayed(space: &LevelSpace, found: Option<Vec<u8>>) -> Option<Vec<u8>> {
    found
        .filter(|route| space.wins(route))
        .map(|route| solver::shorten::shorten(space, &route))
}

/// [`search_level`] over moves whatever the level: the plain search the
/// push search is tested against.
pub fn search_moves(
    game: &Game,
    constraints: Constraints,
    limits: Limits,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    search_space(
        &LevelSpace::new(game, constraints),
        limits,
        None,
        jobs,
        cancel,
        progress,
    )
}

/// The move search of `space` for routes of at most `longest` steps
/// ([`solver::search_within`]), a start excluded by its constraints
/// counting as exhausted.
pub(super) fn search_space(
    space: &LevelSpace,
    limits: Limits,
    longest: Option<u32>,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    if space.start_excluded() {
        return Outcome {
            verdict: Verdict::Unsolved,
            expanded: 0,
            stored: 0,
            depth: 0,
            peak_bytes: 0,
            visited_bytes: 0,
            limit: None,
            found: None,
            fewest: 0,
        };
    }
    solver::search_within(space, limits, longest, jobs, cancel, progress)
}

#[cfg(test)]
mod limits {
    use super::*;
    use crate::engine::testkit;

    const ROOM: &str = "MIAU IS YOU . ROCK IS PUSH\n\
                        # # # # # # # # # #\n\
                        # . . . . . . . . #\n\
                        # . r . . . . r . #\n\
                        # . . . m . . . . #\n\
                        # . r . . . . . . #\n\
                        # # # # # # # # # #\n\
                        WALL IS STOP";

    /// A space far beyond the memory allowed ends in LIMIT, within it.
    #[test]
    fn memory_budget_ends_in_limit() {
        let game = Game::new(&testkit::level(ROOM));
        let memory = 4 << 20;
        let out = search_level(
            &game,
            Constraints::default(),
            Limits {
                states: u64::MAX,
                memory,
            },
            1,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(out.verdict, Verdict::Limit);
        assert_eq!(out.limit, Some(solver::LimitKind::Memory));
        // Checked every 1024 expansions: at most one growth step over.
        assert!(out.peak_bytes < memory * 2, "{}", out.peak_bytes);
    }

    /// In a `check` run the satisficing pass draws on the run's pool, as
    /// the exact searches do, instead of holding a cap of its own beside
    /// it: a pool too small for what it holds by its first look stops it,
    /// where without one it finds the route.
    #[test]
    fn the_satisficing_pass_draws_on_the_run_pool() {
        let game = Game::new(&testkit::level(
            "MIAU IS YOU . FLAG IS WIN\n\
             m . . . . . f",
        ));
        let space = LevelSpace::new(&game, Constraints::default());
        let guide = solver::satisfice::LevelGuide::new(&game);
        let cancel = AtomicBool::new(false);
        let pass = || solver::satisfice::satisfice(&space, &guide, u64::MAX, usize::MAX, &cancel);
        assert!(pass().is_some(), "no pool: the route is found");
        let pool = solver::pool::Pool::new(64 << 10);
        let ticket = solver::pool::enter(&pool, 0);
        let found = pass();
        drop(ticket);
        assert_eq!(found, None, "the pool's 64 KiB stop the pass");
        assert_eq!(pool.peak(), 0);
    }

    /// The state budget ends the search at exactly that many expansions,
    /// and says so; its depth is the layer it stopped in.
    #[test]
    fn state_budget_ends_in_limit_and_says_which() {
        let game = Game::new(&testkit::level(ROOM));
        let out = search_level(
            &game,
            Constraints::default(),
            Limits {
                states: 5000,
                memory: 1 << 30,
            },
            1,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(out.verdict, Verdict::Limit);
        assert_eq!(out.limit, Some(solver::LimitKind::States));
        assert_eq!(out.expanded, 5000);
        assert!(out.depth > 3, "{}", out.depth);
        // The frontier is delta-encoded: far below the 4 bytes per thing
        // per state that whole states would cost.
        let per_state = out.peak_bytes as f64 / out.stored as f64;
        assert!(per_state < 64.0, "{per_state}");
    }

    /// A level the first, small run doesn't decide is searched again in
    /// full after the satisficing pass: the result is the plain search's,
    /// verdict and counts (here an open room with no win, exhausted).
    #[test]
    fn a_search_past_the_probe_is_the_plain_search() {
        let (level, moves) = probed_and_plain(ROOM, 1000);
        assert_eq!(level.verdict, moves.verdict);
        assert_eq!(
            (level.expanded, level.stored),
            (moves.expanded, moves.stored)
        );
        assert_eq!(level.found, None);
    }

    /// The search of `level` past a first run of `probe` move states (and
    /// as many push nodes), and the plain move search, which must go past it.
    fn probed_and_plain(level: &str, probe: u64) -> (Outcome, Outcome) {
        let game = Game::new(&testkit::level(level));
        let cancel = AtomicBool::new(false);
        let limits = Limits::default();
        let none = Constraints::default;
        let probed = probed_search(
            &game,
            none(),
            limits,
            (1000, probe),
            1,
            &cancel,
            &mut |_| {},
        );
        let moves = search_moves(&game, none(), limits, 1, &cancel, &mut |_| {});
        assert!(moves.expanded > probe, "{}", moves.expanded);
        (probed, moves)
    }

    /// Past the probe, the route the satisficing pass finds bounds the move
    /// search: the same verdict, route and states expanded as the plain
    /// search, and the last layer's successors never stored.
    #[test]
    fn a_route_found_bounds_the_search_past_the_probe() {
        let level = "MIAU IS YOU . ROCK IS PUSH\n\
                     # # # # # # # # # #\n\
                     # . . . . . . . . #\n\
                     # . r . . . . r . #\n\
                     # . . . m . . . f #\n\
                     # . r . . . . . . #\n\
                     # # # # # # # # # #\n\
                     WALL IS STOP . FLAG IS WIN";
        let (bounded, moves) = probed_and_plain(level, 20);
        assert!(
            matches!(moves.verdict, Verdict::Solved { .. }),
            "{:?}",
            moves.verdict
        );
        assert_eq!(bounded.verdict, moves.verdict);
        assert_eq!(bounded.expanded, moves.expanded);
        assert!(
            bounded.stored < moves.stored,
            "{} stored, {} without the bound",
            bounded.stored,
            moves.stored
        );
    }

    /// The default budget is the memory cap's worth of states.
    #[test]
    fn the_default_budget_is_derived_from_the_memory_cap() {
        let l = Limits::default();
        assert_eq!(l.states, (l.memory / solver::BYTES_PER_STATE) as u64);
        assert_eq!(l.states, 67_108_864);
    }
}
