//! Rooms for the push search's tests, and a slow, plain deadness check
//! to compare the search's own against.

use super::{DIRS, PushSpace};
use crate::engine::{Game, TurnResult, testkit};
use crate::solver::deadlock::DeadCells;
use proptest::prelude::*;

pub(super) fn room() -> impl Strategy<Value = String> {
    (2usize..6, 3usize..7).prop_flat_map(|(h, w)| {
        let cell = prop::sample::select(&[".", ".", ".", "#", "$", "$", "o", "o", "f"][..]);
        (
            prop::collection::vec(prop::collection::vec(cell, w), h),
            0..h,
            0..w,
            any::<bool>(),
        )
            .prop_map(move |(mut rows, py, px, open)| {
                rows[py][px] = "@";
                let mut out = String::from(
                    "MIAU! IS! YOU!\nCRATE! IS! PUSH!\nDOCK! IS! GOAL!\nWALL! IS! STOP!\n",
                );
                // Open rooms let pushes run into the board's edge.
                let wall = vec![if open { "." } else { "#" }; w + 2].join(" ");
                out.push_str(&wall);
                out.push('\n');
                for r in rows {
                    let side = if open { "." } else { "#" };
                    out.push_str(&format!("{side} {} {side}\n", r.join(" ")));
                }
                out.push_str(&wall);
                out
            })
    })
}

/// The game of test board `b`, its walls as terrain.
pub(super) fn walled(b: &str) -> Game {
    let mut level = testkit::level(b);
    testkit::terrain(&mut level, &["WALL"]);
    Game::new(&level)
}

/// Three crates to push into a dead-end row of three docks whose mouth is
/// the only way in: filled deepest first, the one order that works.
pub(super) const GOAL_CORRIDOR: &str = "o o o . . . . #\n\
                                        # # # . $ . . #\n\
                                        # # # . $ $ @ #\n\
                                        # # # . . . . #";

/// The level of `room` (rows of cells) inside a ring of walls.
pub(super) fn sealed(room: &str) -> Game {
    let rows: Vec<&str> = room.lines().collect();
    let wall = vec!["#"; rows[0].split(' ').count() + 2].join(" ");
    let mut out =
        format!("MIAU! IS! YOU!\nCRATE! IS! PUSH!\nDOCK! IS! GOAL!\nWALL! IS! STOP!\n{wall}\n");
    for r in rows {
        out.push_str(&format!("# {r} #\n"));
    }
    out.push_str(&wall);
    walled(&out)
}

/// Whether `route` wins on the engine, every move accepted.
pub(super) fn wins(game: &Game, route: &[u8]) -> bool {
    let (mut state, _) = game.reset();
    let mut won = false;
    for &m in route {
        let TurnResult::Accepted { state: s, report } = game.step(&state, DIRS[usize::from(m)].0)
        else {
            return false;
        };
        won = report.won;
        state = s;
    }
    won
}

/// The push space of `game`, when the push search applies.
pub(super) fn space_of(game: &Game) -> Option<PushSpace<'_>> {
    let (start, _) = game.reset();
    let rules = game.rules(&start);
    let dead = DeadCells::new(game, &start, &rules)?;
    PushSpace::new(game, &start, &rules, &dead)
}

impl PushSpace<'_> {
    /// Whether `key` is dead by the live-cell count or by a frozen
    /// set, found here from every PUSH thing at once (the search only
    /// looks when a pushed thing could be part of one).
    pub(super) fn dead_key(&self, key: &[u32]) -> bool {
        if key[1..].iter().filter(|&&c| self.live[c as usize]).count() < self.needed {
            return true;
        }
        let mut frozen: std::collections::BTreeSet<u32> = key[1..].iter().copied().collect();
        while let Some(&free) = frozen
            .iter()
            .find(|&&c| !self.walled(c, &|m| frozen.contains(&m)))
        {
            frozen.remove(&free);
        }
        let stuck = frozen.iter().filter(|&&c| !self.goal[c as usize]).count();
        stuck + self.needed > key.len() - 1
    }

    /// Whether `key` has a GOAL cell that no PUSH thing outside the
    /// largest frozen set can be pushed onto, frozen things counting as
    /// walls and other things ignored: every cell a thing could be pushed
    /// from towards the GOAL cell, found in full, then the things looked up.
    pub(super) fn sealed_key(&self, key: &[u32]) -> bool {
        use std::collections::BTreeSet;
        let mut frozen: BTreeSet<u32> = key[1..].iter().copied().collect();
        while let Some(&free) = frozen
            .iter()
            .find(|&&c| !self.walled(c, &|m| frozen.contains(&m)))
        {
            frozen.remove(&free);
        }
        let open =
            |c: Option<u32>| c.is_some_and(|c| !self.blocked[c as usize] && !frozen.contains(&c));
        let goals =
            (0..self.cells as u32).filter(|&g| self.goal[g as usize] && !frozen.contains(&g));
        goals.into_iter().any(|g| {
            let mut reach = BTreeSet::from([g]);
            let mut todo = vec![g];
            while let Some(to) = todo.pop() {
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let from = self.neighbour(to, dx, dy);
                    if open(from) && open(from.and_then(|f| self.neighbour(f, dx, dy))) {
                        let f = from.unwrap_or(to);
                        if reach.insert(f) {
                            todo.push(f);
                        }
                    }
                }
            }
            !key[1..]
                .iter()
                .any(|c| !frozen.contains(c) && reach.contains(c))
        })
    }
}
