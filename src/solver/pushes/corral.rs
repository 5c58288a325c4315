//! PI-corrals: regions of a node the player can't reach whose fence
//! crates can only be pushed into them. A satisficing pass expands only
//! the pushes of one such corral's fence; one whose fence has no push at
//! all is a dead node.
//!
//! **Terms.** In node `S`, call `R` the cells the player's walk reaches. A
//! *corral* is a connected set `E` (by the four neighbours on the board)
//! of empty cells, none blocked and none in `R`, that no empty cell of `R`
//! touches; its *fence* is the PUSH things next to a cell of `E`. Every
//! neighbour of a cell of `E` is then blocked, off the board, in `E` or a
//! fence thing. For a fence thing `b` and a direction `d`, call `p` the
//! cell behind `b` (`b - d`) and follow `b + d, b + 2d, …` over fence
//! things to the first cell `s` that is not one. The corral is a
//! *PI-corral* when for every `b` and `d` one of these holds:
//!
//! - `p` is off the board, blocked, in `E` or a fence thing (no push
//!   moves `b` along `d` as the first fence thing of its line: the cell
//!   behind it in the line would be the player's or a PUSH thing's);
//! - `s` is off the board or blocked (the line ends at a refusal);
//! - `s` is in `E` and `p` is in `R` (an *inward push*, one the player
//!   can make now: walk to `p`, push the line from `b` into `E`).
//!
//! A corral *needs a change* when `E` holds a GOAL cell (every GOAL cell
//! must be covered, and `E` is empty), or when every PUSH thing must end
//! on a GOAL cell and a fence thing stands off one.
//!
//! **Why the other pushes can wait.** Take a route from `S` and its first
//! push `k` that moves a fence thing or moves a PUSH thing into `E`; one
//! exists, as the corral needs a change. Before `k` nothing of the corral
//! moves: `E` stays empty and fenced, so neither the player nor a PUSH
//! thing enters it (a thing entering `E` comes from a neighbour of it,
//! which is a fence thing). The line `k` pushes holds a fence thing (a
//! thing entering `E` is the line's last, a neighbour of `E`); let `b` be
//! the first. By the conditions above, the line runs from `b` over fence
//! things into `E`, and `p` is in `R` now. Then the push of the line from
//! `b` (player at `p`) is possible in `S`, and doing it first, then the
//! pushes before `k`, reaches the state before `k` with that line already
//! pushed: those pushes used neither `b`'s cell nor the fence's nor `E`,
//! and the cells the first push fills are fence cells and a cell of `E`.
//! The player walks back from `b`'s cell to `p` in `R`, which that push
//! left untouched. If `k` pushed only the line from `b` (the player at
//! `p`), the states after `k` are the same, the player's region aside;
//! if PUSH things stood before `b` in `k`'s line, one more push moves them
//! into the cell `b` left, and the states are the same again. So a route
//! from `S` exists that starts with an inward push: keeping only those
//! keeps a solvable node solvable, and with none the node has no route.
//!
//! With chain pushes the route kept can be as long as the first one (the
//! extra push of the things before `b`), so this is an argument for
//! satisficing passes, which replay their route on the engine anyway,
//! and is kept out of the exact search, whose shortest routes it could
//! lose.

use super::{DIRS, PushSpace, Work};

/// What a node's corrals leave of its pushes ([`PushSpace::corral`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Corral {
    /// No PI-corral needs a change: every push stays.
    Open,
    /// A PI-corral needs a change and its fence has no inward push: no
    /// route from the node.
    Dead,
    /// Only the inward pushes of the PI-corral with the fewest, listed in
    /// [`Work::corral_pushes`] as (the cell pushed from, the direction).
    Fence,
}

impl PushSpace<'_> {
    /// The node `key`'s PI-corrals (module comment) after
    /// [`PushSpace::flood`] on it: [`Corral::Fence`] with the pushes to
    /// keep in `work.corral_pushes`, [`Corral::Dead`], or
    /// [`Corral::Open`].
    pub(super) fn corral(&self, key: &[u32], work: &mut Work) -> Corral {
        let every_thing_needed = key.len() - 1 == self.needed;
        work.corral.clear();
        work.corral.resize(self.cells, 0);
        work.fence.clear();
        work.fence.resize(self.cells, 0);
        work.corral_pushes.clear();
        let mut best: Option<usize> = None;
        let mut id = 0;
        for c in 0..self.cells {
            if self.blocked[c]
                || work.occupant[c] != 0
                || work.dist[c] != u32::MAX
                || work.corral[c] != 0
            {
                continue;
            }
            id += 1;
            let Some(change) = self.fence_of(c, id, work) else {
                continue;
            };
            let change = change
                || every_thing_needed && work.fence_cells.iter().any(|&b| !self.goal[b as usize]);
            if !change || !self.inward_pushes(id, work) {
                continue;
            }
            if work.inward.is_empty() {
                return Corral::Dead;
            }
            if best.is_none_or(|n| work.inward.len() < n) {
                best = Some(work.inward.len());
                std::mem::swap(&mut work.corral_pushes, &mut work.inward);
            }
        }
        if best.is_some() {
            Corral::Fence
        } else {
            Corral::Open
        }
    }

    /// Marks the empty, unreached cells connected to `from` as corral `id`
    /// in `work.corral` and its fence things in `work.fence` (listed in
    /// `work.fence_cells`); whether the corral holds a GOAL cell, or `None`
    /// when a cell the player reaches touches it (no corral).
    fn fence_of(&self, from: usize, id: u32, work: &mut Work) -> Option<bool> {
        work.area.clear();
        work.area.push(from as u32);
        work.corral[from] = id;
        work.fence_cells.clear();
        let (mut goal, mut open) = (false, false);
        let mut i = 0;
        while let Some(&c) = work.area.get(i) {
            i += 1;
            goal |= self.goal[c as usize];
            for &(_, dx, dy) in &DIRS {
                let Some(n) = self.neighbour(c, dx, dy) else {
                    continue;
                };
                let n = n as usize;
                if self.blocked[n] {
                    continue;
                }
                if work.occupant[n] != 0 {
                    if work.fence[n] != id {
                        work.fence[n] = id;
                        work.fence_cells.push(n as u32);
                    }
                } else if work.dist[n] != u32::MAX {
                    open = true;
                } else if work.corral[n] == 0 {
                    work.corral[n] = id;
                    work.area.push(n as u32);
                }
            }
        }
        (!open).then_some(goal)
    }

    /// Whether corral `id` (marked by [`PushSpace::fence_of`]) is a
    /// PI-corral, its inward pushes listed in `work.inward`.
    fn inward_pushes(&self, id: u32, work: &mut Work) -> bool {
        work.inward.clear();
        for &b in &work.fence_cells {
            for (d, &(_, dx, dy)) in DIRS.iter().enumerate() {
                let Some(p) = self.neighbour(b, -dx, -dy) else {
                    continue;
                };
                let pu = p as usize;
                if self.blocked[pu] || work.corral[pu] == id || work.fence[pu] == id {
                    continue;
                }
                let mut s = b;
                let inward = loop {
                    match self.neighbour(s, dx, dy) {
                        None => break false,
                        Some(n) if self.blocked[n as usize] => break false,
                        Some(n) if work.fence[n as usize] == id => s = n,
                        Some(n) if work.corral[n as usize] == id => break true,
                        Some(_) => return false,
                    }
                };
                if !inward {
                    continue;
                }
                if work.dist[pu] == u32::MAX {
                    return false;
                }
                work.inward.push((p, d as u8));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rooms::{room, sealed, space_of, walled};
    use super::super::{DIRS, Key, Leg};
    use super::*;
    use proptest::prelude::*;
    use std::collections::{HashSet, VecDeque};

    /// Pushes as (the PUSH thing's cell, the direction).
    type Pushes = Vec<(u32, u8)>;

    /// The corral verdict of the start of `room` (rows of cells inside a
    /// ring of walls), and the pushes the satisficing pass keeps there as
    /// (the PUSH thing's cell, the direction), next to every push.
    fn start_corral(room: &str) -> (Corral, Pushes, Pushes) {
        let game = sealed(room);
        let space = space_of(&game).expect("a push space");
        let start = space.start_key().expect("a start");
        let mut work = Work::default();
        space.flood(&start, &mut work);
        let corral = space.corral(&start, &mut work);
        let pushed = |leg: &Leg| {
            let (_, dx, dy) = DIRS[usize::from(leg.dir)];
            (
                space
                    .neighbour(leg.from, dx, dy)
                    .expect("a PUSH thing's cell"),
                leg.dir,
            )
        };
        let mut kept = Vec::new();
        space.fence_legs(&start, &mut work, |leg, _| kept.push(pushed(&leg)));
        let mut all = Vec::new();
        space.legs(&start, &mut work, |leg, _| all.push(pushed(&leg)));
        (corral, kept, all)
    }

    /// The crate plugging a room's goal pocket can only be pushed into it:
    /// a PI-corral, and the other crate's pushes wait.
    #[test]
    fn a_pi_corral_keeps_only_its_fence_pushes() {
        let (corral, kept, all) = start_corral("o . . # o\n. . . $ .\n. $ @ # .\n. . . # #");
        assert_eq!(corral, Corral::Fence);
        assert_eq!(kept.len(), 1, "{kept:?}");
        // Right, into the pocket.
        assert_eq!(kept[0].1, 3);
        assert!(all.len() > kept.len(), "{all:?}");
    }

    /// A fence crate the player can push along the fence: not a
    /// PI-corral, every push kept.
    #[test]
    fn a_corral_whose_fence_moves_along_is_not_pi() {
        let (corral, kept, all) = start_corral(". . . . # o\n. @ . $ . .\n. . . . # .");
        assert_eq!(corral, Corral::Open);
        assert_eq!(kept, all);
        // A fence crate pushed in from a cell the player can't reach
        // (behind a second crate): not a PI-corral either.
        let (corral, kept, all) = start_corral(". . # # #\n. $ $ o #\n. @ # # #");
        assert_eq!(corral, Corral::Open);
        assert_eq!(kept, all);
    }

    /// A crate in a pocket of empty cells with a dock, the wall behind
    /// it: every push of it needs the player inside the pocket, so the
    /// dock is never covered, though the crate isn't frozen.
    #[test]
    fn a_pi_corral_without_inward_pushes_is_dead() {
        let room = ". . . # . o\n. $ o # @ $\n# # # # . .";
        let (corral, kept, _) = start_corral(room);
        assert_eq!(corral, Corral::Dead);
        assert!(kept.is_empty());
        let game = sealed(room);
        let space = space_of(&game).expect("a push space");
        let start = space.start_key().expect("a start");
        assert!(!space.dead_key(&start), "dead for the corral alone");
    }

    /// Whether node `key` of `space` reaches a win over every push, or
    /// `None` past `limit` nodes.
    fn solvable(space: &PushSpace, key: &Key, limit: usize) -> Option<bool> {
        let mut work = Work::default();
        let mut seen = HashSet::from([key.clone()]);
        let mut queue = VecDeque::from([key.clone()]);
        while let Some(k) = queue.pop_front() {
            let mut won = false;
            let mut next = Vec::new();
            space.legs(&k, &mut work, |leg, n| {
                won |= leg.won;
                next.push(n.clone());
            });
            if won {
                return Some(true);
            }
            for n in next {
                if seen.insert(n.clone()) {
                    if seen.len() > limit {
                        return None;
                    }
                    queue.push_back(n);
                }
            }
        }
        Some(false)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// On every node a search of a random room reaches: a node the
        /// corrals call dead has no route, and a node that can win keeps
        /// a push (after the corrals' narrowing) that wins or leads to a
        /// node that can.
        #[test]
        fn corral_pruning_keeps_a_route(b in room()) {
            let game = walled(&b);
            let Some(space) = space_of(&game) else {
                return Ok(());
            };
            let start = space.start_key().expect("a start");
            let mut work = Work::default();
            let mut seen = HashSet::new();
            let mut queue = vec![start];
            while let Some(key) = queue.pop() {
                if !seen.insert(key.clone()) || seen.len() > 200 {
                    continue;
                }
                let Some(can) = solvable(&space, &key, 5_000) else {
                    continue;
                };
                space.flood(&key, &mut work);
                let corral = space.corral(&key, &mut work);
                let mut kept = Vec::new();
                space.fence_legs(&key, &mut work, |leg, n| kept.push((leg.won, n.clone())));
                if corral == Corral::Dead {
                    prop_assert!(!can, "{:?} called dead on\n{}", key, b);
                }
                if can {
                    let mut keeps = false;
                    for (won, n) in &kept {
                        keeps |= *won || solvable(&space, n, 5_000) != Some(false);
                    }
                    prop_assert!(keeps, "{:?}: no kept push wins ({:?}) on\n{}", key, corral, b);
                }
                space.legs(&key, &mut work, |leg, n| {
                    if !leg.won {
                        queue.push(n.clone());
                    }
                });
            }
        }
    }
}
