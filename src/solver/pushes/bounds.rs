//! The lower bounds on the moves left that order the push search: the
//! push distances' cheap bound and the segment assignment.

use super::{PushSpace, Work};
use crate::solver::matching::Assignment;

impl PushSpace<'_> {
    /// A lower bound on the moves from node `key` to a win: the `needed`-th
    /// smallest push distance among its PUSH things. A win has `needed`
    /// distinct PUSH things on GOAL cells, each at least its distance in
    /// pushes away, and a move pushes each thing one cell at most, lowering
    /// each distance by one at most (chains included). So the bound never
    /// overestimates, and it drops by at most one per move: it is
    /// consistent, and a node's first settling in order of moves plus
    /// bound is still at its fewest moves.
    pub(super) fn estimate(&self, key: &[u32], scratch: &mut Vec<u32>) -> u32 {
        scratch.clear();
        scratch.extend(key[1..].iter().map(|&c| self.distance[c as usize]));
        if self.needed == 0 || self.needed > scratch.len() {
            return 0;
        }
        let (_, nth, _) = scratch.select_nth_unstable(self.needed - 1);
        *nth
    }

    /// A lower bound on the moves from node `key` to a win, or at least
    /// [`UNREACHABLE`] when there is none: the larger of the cheap bound
    /// ([`PushSpace::estimate`]) and the segment assignment
    /// ([`super::matching`]). Both are consistent (a walk leaves them
    /// unchanged, a push lowers them by one at most), so their maximum is.
    pub(super) fn bound(&self, key: &[u32], work: &mut Work) -> u32 {
        let cheap = self.estimate(key, &mut work.distances);
        let Some(segments) = &self.segments else {
            return cheap;
        };
        cheap.max(segments.bound(&key[1..], &mut work.assignment))
    }

    /// [`PushSpace::bound`] for node `next`, found from node `key` by a
    /// push that took the PUSH thing at `next[0]` (where the player now
    /// stands) out of its cell and held `past` instead. The assignment is repaired from
    /// `key`'s ([`Segments::moved`]: one augmenting path), `key`'s own
    /// worked out once per expanded node; in full where that does not
    /// apply.
    ///
    /// (A cache of assignments by the PUSH things' cells, 16 bytes a slot,
    /// stood here before the repair: its lookups, a cache miss each, came
    /// to cost more than the repairs they saved.)
    pub(super) fn bound_after(&self, key: &[u32], next: &[u32], past: u32, work: &mut Work) -> u32 {
        let cheap = self.estimate(next, &mut work.distances);
        let Some(segments) = &self.segments else {
            return cheap;
        };
        let column = key[1..].binary_search(&next[0]).unwrap_or(usize::MAX);
        if !work.parent_solved {
            segments.bound(&key[1..], &mut work.parent);
            work.parent_solved = true;
        }
        let repaired = segments.moved(&work.parent, column, past, &mut work.assignment);
        let full = repaired.unwrap_or_else(|| segments.bound(&next[1..], &mut work.assignment));
        debug_assert_eq!(
            full,
            segments.bound(&next[1..], &mut Assignment::default()),
            "a repaired assignment is the least"
        );
        cheap.max(full)
    }
}

#[cfg(test)]
mod tests {
    use super::super::search;
    use super::super::test_rooms::{room, space_of, walled};
    use super::*;
    use crate::solver::{Limits, Verdict};
    use proptest::prelude::*;
    use std::sync::atomic::AtomicBool;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// The bound the push search settles nodes by is consistent on
        /// every node a search of a random room reaches: no leg (a walk and
        /// a push, chains included) lowers it by more than the leg's moves,
        /// and it is 0 where a leg wins. With 0 at every win, that makes it
        /// a lower bound too, and a node called hopeless (at least
        /// `UNREACHABLE`) never leads to a win. Rooms with two or three
        /// things in a line on the way to the docks are where a sum of
        /// push distances would overestimate.
        #[test]
        fn the_bound_is_consistent(b in room()) {
            let game = walled(&b);
            let Some(space) = space_of(&game) else {
                return Ok(());
            };
            let mut work = Work::default();
            let mut bound_work = Work::default();
            let mut seen = std::collections::HashSet::new();
            let start = space.start_key().expect("a start");
            // The search starts from live nodes only (a dead start is
            // UNSOLVED at once), and the bound is checked along them.
            if space.dead_key(&start) {
                return Ok(());
            }
            let mut queue = vec![start];
            while let Some(key) = queue.pop() {
                if !seen.insert(key.clone()) || seen.len() > 2000 {
                    continue;
                }
                let here = space.bound(&key, &mut bound_work);
                let mut legs = Vec::new();
                space.legs(&key, &mut work, |leg, next| legs.push((leg, next.clone())));
                for (leg, next) in legs {
                    let there = space.bound(&next, &mut bound_work);
                    if leg.won {
                        prop_assert_eq!(there, 0, "{:?} wins on\n{}", next, b);
                    }
                    prop_assert!(
                        here <= there.saturating_add(leg.walk + 1),
                        "{} from {:?}, {} after {:?} ({} moves) on\n{}",
                        here, key, there, next, leg.walk + 1, b
                    );
                    if !leg.won {
                        queue.push(next);
                    }
                }
            }
        }
    }

    /// A line of crates pushed as one: the assignment counts one segment
    /// per crate's straight run, not one push per cell, so the bound stays
    /// at most the route's moves (a sum of push distances would say 6 for
    /// a level won in 3 moves).
    #[test]
    fn a_chain_push_is_one_segment() {
        let b = "MIAU! IS! YOU!\nCRATE! IS! PUSH!\nDOCK! IS! GOAL!\n\
                 # # # # # # # #\n# @ $ $ . o o #\n# # # # # # # #";
        let game = walled(b);
        let space = space_of(&game).expect("a sealed room");
        let start = space.start_key().expect("a start");
        let segments = space.segments.as_ref().expect("a small board");
        assert_eq!(segments.bound(&start[1..], &mut Assignment::default()), 2);
        let bound = space.bound(&start, &mut Work::default());
        assert_eq!(
            bound, 3,
            "the cheap bound: the second crate is 3 pushes away"
        );
        let out = search(
            &space,
            Limits::default(),
            None,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let Verdict::Solved { route, .. } = out.verdict else {
            panic!("{:?}", out.verdict);
        };
        assert_eq!(route.len(), 3);
    }
}
