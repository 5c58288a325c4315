//! Frozen PUSH things: sets that no push can ever move again, whose
//! members off GOAL cells make a node dead.

use super::{PushSpace, Work};

impl PushSpace<'_> {
    /// Whether the push moving the line from `first` to `past` (step
    /// `dir`) out of node `key` leaves more PUSH things off GOAL cells for
    /// good than a win can spare: a *frozen* set of them that no push can
    /// ever move again; or a frozen set that seals a GOAL cell off from
    /// every other PUSH thing ([`PushSpace::goal_sealed`]).
    ///
    /// **The rule, chains included.** Call a set `S` of PUSH things frozen
    /// when each thing of `S` has, on each axis, a side along which the
    /// cells next to it hold things of `S` up to a cell no mover enters
    /// (blocked, or off the board). While `S` is in place, no push moves a
    /// thing of `S`: a push moves the whole line from the player's next
    /// cell to the first cell that holds no PUSH thing. Along such a side
    /// that line meets the blocked cell, so a push that way is refused, and
    /// a push the other way needs the player standing past the end of the
    /// line on that side, which is the blocked cell. Things outside `S`
    /// may come and go beside it, but they only lengthen lines, never
    /// open a blocked end. So the first push to move a thing of `S` would
    /// have to be made with `S` in place: there is none. Being the largest
    /// set closed under the rule, the one found by narrowing every PUSH
    /// thing down is the union of all frozen sets.
    ///
    /// A frozen set new after a push holds a thing that push moved (the
    /// rule reads only `S`'s cells and blocked ones, unchanged otherwise),
    /// so the search for it starts only when a moved thing passes the
    /// rule with every PUSH thing counted. Dropping the successor keeps
    /// every route to a win (none runs through it), so the search's
    /// result is unchanged; only its counts shrink.
    pub(super) fn freezes(
        &self,
        key: &[u32],
        first: u32,
        past: u32,
        dir: (i32, i32),
        work: &mut Work,
    ) -> bool {
        let occupant = &work.occupant;
        let held = |c: u32| c == past || (c != first && occupant[c as usize] != 0);
        let mut moved = first;
        let mut suspect = false;
        while moved != past {
            let Some(n) = self.neighbour(moved, dir.0, dir.1) else {
                return false;
            };
            moved = n;
            if self.walled(moved, &held) {
                suspect = true;
                break;
            }
        }
        if !suspect {
            return false;
        }
        let things = key[1..].iter().map(|&c| if c == first { past } else { c });
        if self.stuck(things.clone(), work) + self.needed > key.len() - 1 {
            return true;
        }
        let things: Vec<u32> = things.collect();
        self.goal_sealed(&things, work)
    }

    /// Whether node `key` has more PUSH things frozen off GOAL cells than a
    /// win can spare ([`PushSpace::freezes`]), looking at every one: for
    /// the start, which no push led to.
    pub(super) fn frozen_dead(&self, key: &[u32], work: &mut Work) -> bool {
        let stuck = self.stuck(key[1..].iter().copied(), work);
        stuck + self.needed > key.len() - 1
    }

    /// Whether PUSH things at cells `things` leave a GOAL cell that none
    /// of them can ever be pushed onto: the largest frozen set
    /// ([`PushSpace::freezes`]) stays where it is for good, so its things
    /// are walls to every other push, and a GOAL cell neither held by one
    /// of them nor reachable by pushes from a thing outside the set (other
    /// things and the player's walks ignored, which only removes
    /// obstacles) is never covered. Every GOAL cell must be covered for a
    /// win. A goal room entered through a cell a frozen thing now fills is
    /// the case this catches, which the static push distances cannot see.
    pub(super) fn goal_sealed(&self, things: &[u32], work: &mut Work) -> bool {
        work.frozen.resize(self.cells, false);
        for &c in things {
            work.frozen[c as usize] = true;
        }
        loop {
            let mut narrowed = false;
            for &c in things {
                if work.frozen[c as usize] && !self.walled(c, &|m| work.frozen[m as usize]) {
                    work.frozen[c as usize] = false;
                    narrowed = true;
                }
            }
            if !narrowed {
                break;
            }
        }
        let sealed = things
            .iter()
            .any(|&c| work.frozen[c as usize] && self.goal[c as usize])
            && self.unreached_goal(things, &work.frozen, &mut work.pulled);
        for &c in things {
            work.frozen[c as usize] = false;
        }
        sealed
    }

    /// Whether some GOAL cell not `frozen` can't be reached by pushes from
    /// any thing at `things` outside `frozen`, frozen cells counting as
    /// blocked; `marks` is scratch.
    fn unreached_goal(&self, things: &[u32], frozen: &[bool], marks: &mut Vec<u32>) -> bool {
        let open =
            |c: Option<u32>| c.is_some_and(|c| !self.blocked[c as usize] && !frozen[c as usize]);
        marks.clear();
        marks.resize(self.cells, u32::MAX);
        let mut queue = Vec::new();
        for (g, _) in self
            .goal
            .iter()
            .enumerate()
            .filter(|&(g, &is)| is && !frozen[g])
        {
            // Pull back from the GOAL cell: a thing at `from` is pushed to
            // `to` with the pusher at the cell past `from`.
            let stamp = g as u32;
            queue.clear();
            queue.push(g as u32);
            marks[g] = stamp;
            let mut reached = false;
            while let Some(to) = queue.pop() {
                if things.contains(&to) && !frozen[to as usize] {
                    reached = true;
                    break;
                }
                for (dx, dy) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                    let from = self.neighbour(to, -dx, -dy);
                    let behind = from.and_then(|f| self.neighbour(f, -dx, -dy));
                    if let Some(f) = from
                        && open(from)
                        && open(behind)
                        && marks[f as usize] != stamp
                    {
                        marks[f as usize] = stamp;
                        queue.push(f);
                    }
                }
            }
            if !reached {
                return true;
            }
        }
        false
    }

    /// How many of the PUSH things at cells `things` are in the largest
    /// frozen set and off GOAL cells ([`PushSpace::freezes`]).
    pub(super) fn stuck(
        &self,
        things: impl Iterator<Item = u32> + Clone,
        work: &mut Work,
    ) -> usize {
        work.frozen.resize(self.cells, false);
        for c in things.clone() {
            work.frozen[c as usize] = true;
        }
        loop {
            let mut narrowed = false;
            for c in things.clone() {
                if work.frozen[c as usize] && !self.walled(c, &|m| work.frozen[m as usize]) {
                    work.frozen[c as usize] = false;
                    narrowed = true;
                }
            }
            if !narrowed {
                break;
            }
        }
        let mut stuck = 0;
        for c in things {
            stuck += usize::from(work.frozen[c as usize] && !self.goal[c as usize]);
            work.frozen[c as usize] = false;
        }
        stuck
    }

    /// Whether the PUSH thing at `cell` has, on each axis, a side along
    /// which the cells next to it are `in_set` up to a cell no mover
    /// enters ([`PushSpace::freezes`]).
    pub(super) fn walled(&self, cell: u32, in_set: &impl Fn(u32) -> bool) -> bool {
        let side = |dx: i32, dy: i32| {
            let mut at = cell;
            loop {
                match self.neighbour(at, dx, dy) {
                    None => return true,
                    Some(n) if self.blocked[n as usize] => return true,
                    Some(n) if in_set(n) => at = n,
                    Some(_) => return false,
                }
            }
        };
        (side(-1, 0) || side(1, 0)) && (side(0, -1) || side(0, 1))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rooms::{sealed, space_of};
    use super::*;

    /// Frozen sets as chain pushes make them: a square of crates in a
    /// corner is stuck for good, the same square against one wall is not
    /// (the player pushes its lower row along), nor in the open, nor a
    /// pair against a side wall; crates frozen off the docks end the
    /// level only when more of them are stuck than there are crates to
    /// spare.
    #[test]
    fn frozen_crates() {
        let dead = |room: &str| {
            let game = sealed(room);
            let space = space_of(&game).expect("a push space");
            let start = space.start_key().expect("a start");
            let mut work = Work::default();
            (space.frozen_dead(&start, &mut work), space.dead_key(&start))
        };
        assert_eq!(dead("$ $ . . o\n$ $ . o o\n. . @ . o"), (true, true));
        assert_eq!(dead(". $ $ . o\n. $ $ . o\n. . @ o o"), (false, false));
        assert_eq!(
            dead(". . . . .\n. $ $ . o\n. $ $ o o\n. @ . . o"),
            (false, false)
        );
        assert_eq!(dead("o . . . .\n$ $ . . o\n. . @ . ."), (false, false));
        // Two crates frozen side by side in a corner, one dock: one crate
        // to spare is not enough; a third crate makes two to spare.
        assert_eq!(dead("$ $ . o\n. . @ .\n. . . ."), (true, true));
        assert_eq!(dead("$ $ . o\n. . @ $\n. . . ."), (false, false));
    }

    /// A crate frozen on the dock at a goal column's mouth seals the docks
    /// behind it (the count of frozen crates off docks sees nothing); with
    /// the column open from the side, or nothing frozen, nothing is sealed.
    #[test]
    fn a_frozen_crate_seals_a_goal_column() {
        let sealed_goal = |room: &str| {
            let game = sealed(room);
            let space = space_of(&game).expect("a push space");
            let start = space.start_key().expect("a start");
            let mut work = Work::default();
            let out = space.goal_sealed(&start[1..], &mut work);
            assert!(work.frozen.iter().all(|&f| !f), "marks cleared");
            (space.frozen_dead(&start, &mut work), out)
        };
        assert_eq!(
            sealed_goal("o # . .\no # $ .\n$+o . . $\n# # @ ."),
            (false, true)
        );
        assert_eq!(
            sealed_goal("o . . .\no . $ .\n$+o . . $\n# # @ ."),
            (false, false)
        );
        assert_eq!(
            sealed_goal("o # . .\no # $ .\no . $ $\n# # @ ."),
            (false, false)
        );
    }
}
