//! Rooms for the push search's tests, and a slow, plain deadness check
//! to compare the search's own against.

use super::PushSpace;
use crate::engine::{Game, testkit};
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
}
