//! Frozen PUSH things: sets that no push can ever move again, whose
//! members off GOAL cells make a node dead.

use super::{PushSpace, Work};

impl PushSpace<'_> {
    /// Whether the push moving the line from `first` to `past` (step
    /// `dir`) out of node `key` leaves more PUSH things off GOAL cells for
    /// good than a win can spare: a *frozen* set of them that no push can
    /// ever move again.
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
        self.stuck(things, work) + self.needed > key.len() - 1
    }

    /// Whether node `key` has more PUSH things frozen off GOAL cells than a
    /// win can spare ([`PushSpace::freezes`]), looking at every one: for
    /// the start, which no push led to.
    pub(super) fn frozen_dead(&self, key: &[u32], work: &mut Work) -> bool {
        let stuck = self.stuck(key[1..].iter().copied(), work);
        stuck + self.needed > key.len() - 1
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
}
