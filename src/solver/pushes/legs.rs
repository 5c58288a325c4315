//! The moves out of a node: the walk from the player, and every push
//! at its end (chains included), computed natively from the walk grid.

use super::{DIRS, Key, Leg, NONE, PushSpace, Work};

impl PushSpace<'_> {
    /// The walk from node `key`'s player: distances and directions in
    /// `work`, the cells in order of distance in `work.order`.
    pub(super) fn flood(&self, key: &[u32], work: &mut Work) {
        work.dist.clear();
        work.dist.resize(self.cells, u32::MAX);
        work.came.clear();
        work.came.resize(self.cells, 0);
        work.occupant.clear();
        work.occupant.resize(self.cells, 0);
        for (i, &c) in key[1..].iter().enumerate() {
            work.occupant[c as usize] = i as u16 + 1;
        }
        work.order.clear();
        work.dist[key[0] as usize] = 0;
        work.order.push(key[0]);
        let mut i = 0;
        while let Some(&c) = work.order.get(i) {
            i += 1;
            for d in 0..4 {
                let to = self.walk[c as usize * 4 + d];
                if to != NONE
                    && work.occupant[to as usize] == 0
                    && work.dist[to as usize] == u32::MAX
                {
                    work.dist[to as usize] = work.dist[c as usize] + 1;
                    work.came[to as usize] = d as u8;
                    work.order.push(to);
                }
            }
        }
    }

    /// Every push from node `key`, in walk order then direction order
    /// (dead successors left out): `leg` sees each, with the successor's
    /// key in `work.next`.
    ///
    /// A push moves the line of PUSH things in front of the player one
    /// cell on, when the cell past the line is on the board and not
    /// blocked; the player takes the line's first cell. Only that cell and
    /// the one past the line change hands, so the GOAL cells covered and
    /// the PUSH things on live cells are updated from those two.
    pub(super) fn legs(&self, key: &[u32], work: &mut Work, leg: impl FnMut(Leg, &Key)) {
        self.flood(key, work);
        self.legs_flooded(key, work, leg);
    }

    /// [`PushSpace::legs`] after [`PushSpace::flood`] on `key`.
    pub(super) fn legs_flooded(
        &self,
        key: &[u32],
        work: &mut Work,
        mut leg: impl FnMut(Leg, &Key),
    ) {
        let covered = key[1..].iter().filter(|&&c| self.goal[c as usize]).count();
        let alive = key[1..].iter().filter(|&&c| self.live[c as usize]).count();
        for k in 0..work.order.len() {
            let c = work.order[k];
            for (d, &(_, dx, dy)) in DIRS.iter().enumerate() {
                let Some(first) = self.neighbour(c, dx, dy) else {
                    continue;
                };
                if work.occupant[first as usize] == 0 {
                    continue;
                }
                let mut past = first;
                let open = loop {
                    match self.neighbour(past, dx, dy) {
                        None => break false,
                        Some(n) if work.occupant[n as usize] != 0 => past = n,
                        Some(n) => {
                            past = n;
                            break !self.blocked[n as usize];
                        }
                    }
                };
                if !open {
                    continue;
                }
                let covered = covered + usize::from(self.goal[past as usize])
                    - usize::from(self.goal[first as usize]);
                let won = covered == self.needed;
                let alive = alive + usize::from(self.live[past as usize])
                    - usize::from(self.live[first as usize]);
                if !won && alive < self.needed {
                    continue;
                }
                if !won && self.freezes(key, first, past, (dx, dy), work) {
                    continue;
                }
                // The line's cells stay held but `first`, which the
                // player takes, and `past` is held now: the successor's
                // cells are the node's with `first` swapped for `past`,
                // kept in increasing order.
                work.next.clear();
                work.next.push(first);
                let mut placed = false;
                for &c in &key[1..] {
                    if c == first {
                        continue;
                    }
                    if !placed && past < c {
                        work.next.push(past);
                        placed = true;
                    }
                    work.next.push(c);
                }
                if !placed {
                    work.next.push(past);
                }
                let next = std::mem::take(&mut work.next);
                leg(
                    Leg {
                        from: c,
                        walk: work.dist[c as usize],
                        dir: d as u8,
                        won,
                        past,
                    },
                    &next,
                );
                work.next = next;
            }
        }
    }

    /// Appends to `route` the walk and push from node `key` to the
    /// successor `wanted` accepts (the shortest walk where several pushes
    /// are accepted) and returns that successor, or `None` when no push
    /// from `key` gives one: how a satisficing pass turns its chain of
    /// nodes into moves.
    pub(super) fn push_to(
        &self,
        key: &[u32],
        work: &mut Work,
        route: &mut Vec<u8>,
        wanted: impl Fn(&Key) -> bool,
    ) -> Option<Key> {
        let mut best: Option<(Leg, Key)> = None;
        self.legs(key, work, |leg, next| {
            if wanted(next) && best.as_ref().is_none_or(|(b, _)| leg.walk < b.walk) {
                best = Some((leg, next.clone()));
            }
        });
        let (leg, next) = best?;
        // `legs` left the flood of `key` in `work`.
        self.walk_to(leg.from, work, route);
        route.push(leg.dir);
        Some(next)
    }

    /// The moves of the walk from node `key`'s player to `to` (after
    /// [`PushSpace::flood`] on `key`).
    pub(super) fn walk_to(&self, to: u32, work: &Work, route: &mut Vec<u8>) {
        let start = route.len();
        let mut c = to;
        while work.dist[c as usize] > 0 {
            let d = work.came[c as usize];
            route.push(d);
            let (_, dx, dy) = DIRS[usize::from(d)];
            match self.neighbour(c, -dx, -dy) {
                Some(n) => c = n,
                None => break,
            }
        }
        route[start..].reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rooms::{room, space_of, walled};
    use super::*;
    use crate::engine::{Scratch, TurnReport};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The native pushes against the engine, on every node a search of
        /// a random room reaches: from each cell the walk reaches, each
        /// move into a PUSH thing gives, on the engine, the successor (and
        /// win) the native push gives, or is refused or dead where the
        /// native push lists nothing (or has a GOAL cell sealed off,
        /// `sealed_key`); and each walk the flood takes is a move the
        /// engine makes without moving anything else.
        #[test]
        fn native_pushes_are_the_engines(b in room()) {
            let game = walled(&b);
            let Some(space) = space_of(&game) else {
                return Ok(());
            };
            let (mut work, mut sc, mut report) = (Work::default(), Scratch::default(), TurnReport::default());
            let mut seen = std::collections::HashSet::new();
            let start = space.start_key().expect("a start");
            // The search starts from live nodes only (a dead start is
            // UNSOLVED at once), and the pushes out of them are compared.
            if space.dead_key(&start) {
                return Ok(());
            }
            let mut queue = vec![start];
            let (mut words, mut out) = (Vec::new(), Vec::new());
            while let Some(key) = queue.pop() {
                if !seen.insert(key.clone()) || seen.len() > 300 {
                    continue;
                }
                let mut native = Vec::new();
                space.legs(&key, &mut work, |leg, next| native.push((leg, next.clone())));
                space.words_of(&key, &mut words);
                let mut engine = Vec::new();
                for &c in &work.order.clone() {
                    for (d, &(input, dx, dy)) in DIRS.iter().enumerate() {
                        let mut from = words.clone();
                        space.place(&mut from, space.player, c);
                        out.clear();
                        game.prepare(&from, &mut sc).expect("a YOU thing");
                        let grid = space.walk[c as usize * 4 + d];
                        let walks = grid != NONE && work.occupant[grid as usize] == 0;
                        let accepted = game
                            .step_prepared(input, &mut sc, false, &mut report, &mut out)
                            .is_ok();
                        let next = if accepted {
                            space.key_of(&out).expect("nothing removed")
                        } else {
                            key.clone()
                        };
                        let pushed = next[1..] != key[1..];
                        if !pushed {
                            // A walk exactly where the flood's grid goes.
                            let walked = accepted && next[0] != c;
                            prop_assert_eq!(walked, walks, "from {} going {:?} on\n{}", c, input, b);
                            if walked {
                                prop_assert_eq!(next[0], grid);
                                prop_assert_eq!(Some(grid), space.neighbour(c, dx, dy));
                            }
                            continue;
                        }
                        if report.won || !space.dead_key(&next) {
                            engine.push((c, d as u8, report.won, next));
                        }
                    }
                }
                let listed: Vec<_> = native.iter().map(|(l, n)| (l.from, l.dir, l.won, n.clone())).collect();
                // What the native pushes leave out beyond the dead ones
                // above is a successor with a GOAL cell sealed off.
                engine.retain(|e| listed.contains(e) || !space.sealed_key(&e.3));
                prop_assert_eq!(&listed, &engine, "from {:?} on\n{}", key, b);
                queue.extend(native.into_iter().filter(|(l, _)| !l.won).map(|(_, n)| n));
            }
        }
    }
}
