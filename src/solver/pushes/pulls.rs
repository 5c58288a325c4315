//! The satisficing search backwards, over pulls: from the win to the
//! start, then turned into pushes.
//!
//! **Why backwards.** A goal room (GOAL cells down a dead-end corridor,
//! or packed in a corner) must be filled in one order, deepest first, and
//! a forward search meets the wrong orders long before the right one: the
//! bounds rate a crate pushed one cell into the corridor as well as the
//! crate that belongs at its end. Run backwards, the room is *emptied*:
//! from every PUSH thing on a GOAL cell, the player pulls the things out,
//! and only the thing at the corridor's mouth can move first. Every order
//! the backward search meets is a valid filling order read the other way.
//!
//! **A node** is the forward search's key ([`super::Key`]) with the
//! player's cell standing for its whole region: the least cell the player
//! walks to from there (so two nodes that differ only by where in a
//! region the player stands are one). A *pull* takes a player in the
//! region next to a PUSH thing, steps it one cell away from the thing
//! into a free cell, and drags the thing (and as much of the line of
//! things behind it as it likes) one cell after it. Read forwards, it is
//! a push of that line from where the player ends: the walk grid must
//! allow both steps (the player's step away, and the push's step back),
//! and the thing's new cell must be unblocked and live. The search starts from every PUSH thing on a GOAL cell with the
//! player in each region of the free cells, and stops at the start's
//! PUSH things with the player in the start's region.
//!
//! **The order.** Nodes are taken by novelty first, then by the cheapest
//! assignment of the start's cells to the PUSH things at single-push
//! distances from the start's cells ([`Segments::pushes_from`]), then in
//! the order found, as the forward pass ([`super::satisfice`]) does. An
//! assignment with no way back for some thing drops the node.
//!
//! **The route.** The chain of nodes, read from the start, is a chain of
//! pushes: each step is found among the forward pushes of the node before
//! ([`PushSpace::legs`], shortest walk first) by the PUSH things' cells it
//! leaves, and the walks and pushes are the route. The caller replays it
//! on the engine before it counts. The search proves nothing: none found
//! is no verdict. It applies to rooms with as many PUSH things as GOAL
//! cells to cover (otherwise which things end where is not one set).

use super::nodes::Nodes;
use super::{DIRS, Key, NONE, PushSpace, Work};
use crate::solver::matching::{Assignment, Segments, UNREACHABLE};
use crate::solver::{fingerprint, pass_may_hold, pool};
use std::sync::atomic::{AtomicBool, Ordering};

/// A winning route found by a best-first search backwards over pulls from
/// the won rooms to the start (module comment), not necessarily a
/// shortest one, or `None` when the room is outside the search's reach
/// (more PUSH things than GOAL cells to cover, or a board too large for
/// the assignment's table), or `max_nodes` nodes were expanded, or the
/// memory held would pass `max_bytes` ([`crate::solver::pass_may_hold`]),
/// or the search was cancelled, or no pull chain reaches the start.
/// Deterministic: ties go by order found.
pub fn satisfice_pulls(
    space: &PushSpace,
    max_nodes: u64,
    max_bytes: usize,
    cancel: &AtomicBool,
) -> Option<Vec<u8>> {
    pool::search_starts();
    let start = space.start_key()?;
    let width = start.len();
    let things = width - 1;
    let mut work = Work::default();
    let Backwards {
        goals,
        back,
        target,
    } = space.backwards(&start, &mut work)?;
    let mut assignment = Assignment::default();
    let mut nodes = Nodes::new(width, space.cells);
    for root in space.won_rooms(&goals, &mut work) {
        let bound = back.bound(&root[1..], &mut assignment);
        if bound >= UNREACHABLE || !nodes.first_seen(space.node_fingerprint(&root)) {
            continue;
        }
        nodes.add(&root, None, bound);
    }
    let mut expanded = 0u64;
    let mut key: Key = Vec::with_capacity(width);
    let mut found: Vec<Key> = Vec::new();
    while let Some(index) = nodes.take(&mut key) {
        if expanded >= max_nodes {
            return None;
        }
        // What the search holds by the next look: a node has at most four
        // pulls per PUSH thing.
        if expanded.is_multiple_of(1024)
            && (cancel.load(Ordering::Relaxed)
                || !pass_may_hold(nodes.bytes(1024 * 4 * things.max(1)), max_bytes))
        {
            return None;
        }
        expanded += 1;
        found.clear();
        space.pulls(&key, &mut work, |next| found.push(next.to_vec()));
        for next in &mut found {
            space.settle(next, &mut work);
            if *next == target {
                // Read forwards, from the start: the node this pull came
                // from first, the won room last.
                let mut chain = nodes.chain(index);
                chain.reverse();
                return space.pushes_along(&start, &nodes, &chain, &mut work);
            }
            if !nodes.first_seen(space.node_fingerprint(next)) {
                continue;
            }
            let bound = back.bound(&next[1..], &mut assignment);
            if bound >= UNREACHABLE {
                continue;
            }
            nodes.add(next, Some(index), bound);
        }
    }
    None
}

/// What a search backwards from the won rooms starts from.
pub(super) struct Backwards {
    /// The GOAL cells, one per PUSH thing.
    pub(super) goals: Vec<u32>,
    /// Single-push distances from the start's PUSH things: a node's bound
    /// is the cheapest assignment of its things back to them.
    pub(super) back: Segments,
    /// The start, settled: the node the search ends at.
    pub(super) target: Key,
}

impl PushSpace<'_> {
    /// Where a search backwards from `start`'s won rooms starts, or `None`
    /// outside its reach: not one GOAL cell per PUSH thing, more than 64
    /// things, or a board too large for the assignment's table.
    pub(super) fn backwards(&self, start: &[u32], work: &mut Work) -> Option<Backwards> {
        let things = start.len() - 1;
        let goals: Vec<u32> = (0..self.cells as u32)
            .filter(|&c| self.goal[c as usize])
            .collect();
        if goals.len() != things || self.needed != things || things > 64 {
            return None;
        }
        if things.saturating_mul(self.cells) > 1 << 22 {
            return None;
        }
        let sources: Vec<usize> = start[1..].iter().map(|&c| c as usize).collect();
        let back = Segments::pushes_from(&sources, &self.blocked, self.width);
        let mut target = start.to_vec();
        self.settle(&mut target, work);
        Some(Backwards {
            goals,
            back,
            target,
        })
    }

    /// Moves node `key`'s player to the least cell of its region (module
    /// comment).
    pub(super) fn settle(&self, key: &mut [u32], work: &mut Work) {
        self.flood(key, work);
        if let Some(&least) = work.order.iter().min() {
            key[0] = least;
        }
    }

    /// The fingerprint of node `key` as it is, no symmetry applied: the
    /// chain must replay from the start as found.
    pub(super) fn node_fingerprint(&self, key: &[u32]) -> u128 {
        let set = key[1..].iter().fold(0, |s, &c| s ^ self.terms[c as usize]);
        fingerprint::of_node(key[0], set, key.len())
    }

    /// The won rooms: a PUSH thing on each of `goals` (in increasing
    /// order), the player in each region of the cells left free that the
    /// player can walk on at all, settled.
    pub(super) fn won_rooms(&self, goals: &[u32], work: &mut Work) -> Vec<Key> {
        let start_player = self.start_key().map_or(NONE, |k| k[0]);
        let walkable =
            |c: u32| c == start_player || (0..4).any(|d| self.walk[c as usize * 4 + d] != NONE);
        let mut placed = vec![false; self.cells];
        let mut rooms = Vec::new();
        let mut key: Key = std::iter::once(0).chain(goals.iter().copied()).collect();
        for c in 0..self.cells as u32 {
            if placed[c as usize] || !walkable(c) || goals.binary_search(&c).is_ok() {
                continue;
            }
            key[0] = c;
            self.flood(&key, work);
            for &r in &work.order {
                placed[r as usize] = true;
            }
            // `c` is the least cell of its region: every lesser one was
            // placed or is not walkable.
            rooms.push(key.clone());
        }
        rooms
    }

    /// Every pull from node `key` (module comment): `pull` sees each
    /// successor, its player where the pull left it (not settled).
    pub(super) fn pulls(&self, key: &[u32], work: &mut Work, mut pull: impl FnMut(&[u32])) {
        self.flood(key, work);
        let mut next: Key = Vec::with_capacity(key.len());
        for k in 0..work.order.len() {
            let p = work.order[k];
            for (d, &(_, dx, dy)) in DIRS.iter().enumerate() {
                let Some(thing) = self.neighbour(p, dx, dy) else {
                    continue;
                };
                if work.occupant[thing as usize] == 0 {
                    continue;
                }
                // The player steps back (the opposite of `d` is `d ^ 1`),
                // and the push that undoes the pull steps it forward again.
                let step = self.walk[p as usize * 4 + (d ^ 1)];
                if step == NONE
                    || work.occupant[step as usize] != 0
                    || self.walk[step as usize * 4 + d] != p
                    || self.blocked[p as usize]
                    || !self.live[p as usize]
                {
                    continue;
                }
                // The line of things from `thing` on comes back one cell,
                // as long or as short as it likes: read forwards, a push
                // of the line from `p` moves as many as stand in it, and
                // the cell past a shorter line is the one the pull left.
                let mut last = thing;
                loop {
                    next.clear();
                    next.push(step);
                    let mut placed = false;
                    for &c in &key[1..] {
                        if c == last {
                            continue;
                        }
                        if !placed && p < c {
                            next.push(p);
                            placed = true;
                        }
                        next.push(c);
                    }
                    if !placed {
                        next.push(p);
                    }
                    pull(&next);
                    match self.neighbour(last, dx, dy) {
                        Some(n) if work.occupant[n as usize] != 0 => last = n,
                        _ => break,
                    }
                }
            }
        }
    }

    /// The route from node `start` along a chain of pulled nodes (`chain`,
    /// indices into `nodes`, from the one a pull from the start's region
    /// leads to up to a won room): per node, the forward push that leaves
    /// its PUSH things, with the shortest walk to it. `None` if a step has
    /// no push (which the pulls' checks rule out).
    pub(super) fn pushes_along(
        &self,
        start: &[u32],
        nodes: &Nodes,
        chain: &[u32],
        work: &mut Work,
    ) -> Option<Vec<u8>> {
        let mut route = Vec::new();
        let mut key: Key = start.to_vec();
        for &i in chain {
            let want = &nodes.key(i)[1..];
            key = self.push_to(&key, work, &mut route, |next| &next[1..] == want)?;
        }
        Some(route)
    }
}

#[cfg(test)]
mod tests {
    use super::super::search;
    use super::super::test_rooms::{GOAL_CORRIDOR, room, sealed, space_of, walled, wins};
    use super::*;
    use crate::solver::{Limits, Verdict};
    use proptest::prelude::*;

    /// The route the backward pass finds on `game`, checked to win on the
    /// engine.
    fn pulled_route(game: &crate::engine::Game) -> Option<Vec<u8>> {
        let space = space_of(game).expect("a sealed room");
        let route = satisfice_pulls(&space, 100_000, 1 << 28, &AtomicBool::new(false))?;
        assert!(wins(game, &route), "the route {route:?} does not win");
        Some(route)
    }

    /// A goal corridor filled deepest first: three crates into a dead end
    /// whose mouth is the only way in.
    #[test]
    fn a_goal_corridor_is_filled_deepest_first() {
        let game = sealed(GOAL_CORRIDOR);
        let route = pulled_route(&game).expect("a route");
        assert!(route.len() > 10, "{route:?}");
    }

    /// Two crates side by side in an open room, each a push from its dock
    /// (the exact search agrees it is solvable).
    #[test]
    fn an_open_room_is_unpacked() {
        let game = sealed(
            ". . . .\n\
             . $ o .\n\
             . $ o .\n\
             @ . . .",
        );
        let space = space_of(&game).expect("a sealed room");
        let exact = search(
            &space,
            Limits::default(),
            None,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert!(
            matches!(exact.verdict, Verdict::Solved { .. }),
            "{:?}",
            exact.verdict
        );
        assert!(pulled_route(&game).is_some());
    }

    /// More crates than docks: which crates end where is not one set, and
    /// the backward pass leaves the room to the forward one.
    #[test]
    fn spare_crates_are_left_to_the_forward_pass() {
        let game = sealed(". $ $ o @");
        let space = space_of(&game).expect("a sealed room");
        assert_eq!(
            satisfice_pulls(&space, 1000, 1 << 20, &AtomicBool::new(false)),
            None
        );
    }

    /// A cancelled pass stops at its first look, with no route.
    #[test]
    fn a_cancelled_pass_has_no_route() {
        let game = sealed("@ $ . o .");
        let space = space_of(&game).expect("a sealed room");
        assert_eq!(
            satisfice_pulls(&space, 1000, 1 << 20, &AtomicBool::new(true)),
            None
        );
        assert!(pulled_route(&game).is_some(), "uncancelled, it has one");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Against the exact push search on random rooms: a route the
        /// backward pass finds wins on the engine, and it finds none where
        /// the exact search proves the room unsolvable. Where the exact
        /// search finds a route in a room of at most three crates and as
        /// many docks, the backward pass finds one too: its whole space is
        /// within its budget there, and every push, chains included, has
        /// its pull.
        #[test]
        fn pulls_agree_with_the_push_search(b in room()) {
            let game = walled(&b);
            let Some(space) = space_of(&game) else {
                return Ok(());
            };
            let cancel = AtomicBool::new(false);
            let limits = Limits { states: 200_000, memory: 1 << 28 };
            let exact = search(&space, limits, None, &cancel, &mut |_| {});
            let pulled = satisfice_pulls(&space, 200_000, 1 << 28, &cancel);
            if let Some(route) = &pulled {
                let (mut state, _) = game.reset();
                let mut won = false;
                for &m in route {
                    let accepted = game.step(&state, DIRS[usize::from(m)].0);
                    let crate::engine::TurnResult::Accepted { state: s, report } = accepted else {
                        return Err(TestCaseError::fail(format!("refused move in {route:?} on\n{b}")));
                    };
                    won = report.won;
                    state = s;
                }
                prop_assert!(won, "{:?} does not win on\n{}", route, b);
                prop_assert!(exact.verdict != Verdict::Unsolved, "a route on an unsolvable room\n{}", b);
            }
            let things = space.things();
            let square = space.needed == things
                && (0..space.cells).filter(|&c| space.goal[c]).count() == things;
            if square && things <= 3 && matches!(exact.verdict, Verdict::Solved { .. }) {
                prop_assert!(pulled.is_some(), "no route on a solvable room\n{}", b);
            }
        }
    }
}
