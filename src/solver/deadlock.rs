//! Dead states: states from which no win can be reached, recognised by a
//! static analysis of the level so the search can drop them unexpanded (the
//! "dead square" test of Sokoban solvers, stated for this game's rules).
//!
//! **Where it applies.** Only where the rules can never change and the only
//! way to win is GOAL (`rules.md` §7.6):
//! - every word is fixed (§9.6), so every parse gives the reset rules;
//! - no transform at reset, no automata, pairs or channel holders, so nouns
//!   never change, nothing moves but by the player and nothing is removed;
//! - the properties in play are among YOU, PUSH, STOP and GOAL, so there is
//!   no WIN, and a GOAL win needs every GOAL cell shared with a PUSH thing or
//!   a word;
//! - no thing is both YOU and PUSH, no GOAL thing can move or stops movers,
//!   and no mover starts in a cell that stops movers.
//!
//! **The argument.** Call a cell *blocked* when a thing that never moves
//! and is STOP, or a fixed word, stands in it: no mover can enter it (§5.1),
//! and none starts there. A PUSH thing moves from `p` to `p + d` only when a
//! mover stood in `p - d` and `p + d` took it, so neither is blocked and
//! both are on the board. Call `p` *live* when some sequence of such steps,
//! on a board holding only the blocked cells, brings a PUSH thing from `p`
//! to a GOAL cell that needs covering (one no fixed word covers); found by
//! pulling back from those cells. Every real push is such a step, so a PUSH
//! thing in a cell that is not live stays in cells that are not live, and
//! never covers a GOAL cell. A winning state has every such GOAL cell
//! shared with a PUSH thing, one per cell, each on a live cell; so a state
//! with fewer PUSH things on live cells than GOAL cells to cover can never
//! reach a win, nor can any state after it.
//!
//! **Why the search result is unchanged.** A dead state's successors are
//! dead, so no live state is ever reached only through a dead one: dropping
//! dead states keeps every live state, its layer, its place in the layer
//! and its parent. The first-in-order shortest route runs through live
//! states only, so the verdict and the route are the plain search's; only
//! the counts are smaller (property-tested in `solver::level`).

use crate::engine::{EntId, Game, Rules, State};

/// The analysis of one level: which PUSH things to count, where they are
/// live, and how many GOAL cells must be covered.
#[derive(Debug, Clone)]
pub struct DeadCells {
    /// The PUSH things (entity indices), which are all the things that can
    /// cover a GOAL cell.
    pushers: Vec<EntId>,
    /// Per cell (row-major), whether a PUSH thing there can still be pushed
    /// to a GOAL cell that needs covering.
    live: Vec<bool>,
    width: usize,
    /// GOAL cells no fixed word covers.
    needed: usize,
    /// Per cell, whether a thing that never moves and is STOP, or a fixed
    /// word, stands there: no mover ever enters it.
    blocked: Vec<bool>,
    /// The GOAL cells no fixed word covers, sorted.
    goals: Vec<usize>,
    /// Per cell, the fewest pushes that could bring a PUSH thing there to
    /// such a GOAL cell on a board of blocked cells alone (`u32::MAX`: none).
    pushes: Vec<u32>,
}

impl DeadCells {
    /// The analysis of `game` from its reset state `start`, or `None` when
    /// the level is outside the fragment where it is sound (module comment).
    /// `rules` are the start's, as [`Game::rules`] parses them.
    pub fn new(game: &Game, start: &State, rules: &Rules) -> Option<DeadCells> {
        if !game.automata.is_empty() || !game.pairs.is_empty() {
            return None;
        }
        if game
            .ents
            .iter()
            .any(|e| (e.word && !e.fixed) || e.channel.is_some())
        {
            return None;
        }
        let bit = |name: &str| game.tok(name).map_or(0, |t| game.vocab.prop_bit(t));
        let (you, push, stop, goal) = (bit("YOU"), bit("PUSH"), bit("STOP"), bit("GOAL"));
        if !rules.transforms.is_empty() || rules.any_props & !(you | push | stop | goal) != 0 {
            return None;
        }
        let (w, h) = (usize::from(game.width), usize::from(game.height));
        let props = game.props_under(rules, start);
        let words = start.words();
        let mut blocked = vec![false; w * h];
        let mut goal_cells = Vec::new();
        let mut covered = vec![false; w * h];
        let mut movers = Vec::new();
        let mut pushers = Vec::new();
        for (i, info) in game.ents.iter().enumerate() {
            let Some((x, y)) = Game::cell_in(words, i as EntId) else {
                continue;
            };
            let cell = usize::from(y) * w + usize::from(x);
            let p = props[i];
            if info.word {
                // A fixed word: never moves, refuses every push, covers.
                blocked[cell] = true;
                covered[cell] = true;
            } else if p & you != 0 && p & push != 0 {
                return None;
            } else if p & (you | push) != 0 {
                movers.push(cell);
                if p & push != 0 {
                    pushers.push(i as EntId);
                }
            } else if p & goal != 0 {
                if p & stop != 0 {
                    return None;
                }
                goal_cells.push(cell);
            } else if p & stop != 0 {
                blocked[cell] = true;
            }
        }
        if movers.iter().any(|&c| blocked[c]) {
            return None;
        }
        goal_cells.sort_unstable();
        goal_cells.dedup();
        goal_cells.retain(|&c| !covered[c]);
        if goal_cells.is_empty() || goal_cells.iter().any(|&c| blocked[c]) {
            return None;
        }
        let pushes = pull_back(&goal_cells, &blocked, w, h);
        let live = pushes.iter().map(|&d| d != u32::MAX).collect();
        Some(DeadCells {
            pushers,
            live,
            width: w,
            needed: goal_cells.len(),
            blocked,
            goals: goal_cells,
            pushes,
        })
    }

    /// Whether no win can be reached from the state of packed `words` (the
    /// engine's entity words first, as [`State::words`]).
    pub fn is_dead(&self, words: &[u32]) -> bool {
        let live = self
            .pushers
            .iter()
            .filter(|&&e| {
                Game::cell_in(words, e)
                    .is_some_and(|(x, y)| self.live[usize::from(y) * self.width + usize::from(x)])
            })
            .count();
        live < self.needed
    }

    /// Whether a PUSH thing in cell `(x, y)` can still reach a GOAL cell.
    pub fn is_live_cell(&self, x: u8, y: u8) -> bool {
        self.live
            .get(usize::from(y) * self.width + usize::from(x))
            .copied()
            .unwrap_or(false)
    }

    /// How many GOAL cells need a PUSH thing.
    pub fn needed(&self) -> usize {
        self.needed
    }

    /// Per cell (row-major), whether no mover can ever enter it.
    pub fn blocked(&self) -> &[bool] {
        &self.blocked
    }

    /// The GOAL cells (row-major indices) a win needs a PUSH thing on.
    pub fn goal_cells(&self) -> &[usize] {
        &self.goals
    }

    /// Per cell (row-major), whether a PUSH thing there can still reach a
    /// GOAL cell.
    pub fn live_cells(&self) -> &[bool] {
        &self.live
    }

    /// Per cell (row-major), the fewest pushes that could bring a PUSH
    /// thing there to a GOAL cell, other things aside (`u32::MAX`: none).
    /// A real push moves a thing one cell, so it lowers this by one at most.
    pub fn push_distances(&self) -> &[u32] {
        &self.pushes
    }
}

/// The pushes each cell is from a target: from each target, every cell a
/// push chain on a board of `blocked` cells alone can bring a thing from
/// (the thing's cell and the pusher's behind it both unblocked and on the
/// board), with the fewest pushes that takes; `u32::MAX` for the others.
fn pull_back(targets: &[usize], blocked: &[bool], w: usize, h: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; w * h];
    let mut queue = std::collections::VecDeque::new();
    for &t in targets {
        dist[t] = 0;
        queue.push_back(t);
    }
    let free = |x: isize, y: isize| {
        x >= 0
            && y >= 0
            && (x as usize) < w
            && (y as usize) < h
            && !blocked[y as usize * w + x as usize]
    };
    while let Some(c) = queue.pop_front() {
        let (x, y) = ((c % w) as isize, (c / w) as isize);
        for (dx, dy) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
            // The thing came from (x - dx, y - dy), pushed from one further back.
            let (fx, fy) = (x - dx, y - dy);
            if free(fx, fy) && free(fx - dx, fy - dy) {
                let from = fy as usize * w + fx as usize;
                if dist[from] == u32::MAX {
                    dist[from] = dist[c] + 1;
                    queue.push_back(from);
                }
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testkit;

    fn game(board: &str, terrain: bool) -> Game {
        let mut level = testkit::level(board);
        if terrain {
            testkit::terrain(&mut level, &["WALL"]);
        }
        Game::new(&level)
    }

    fn cells(board: &str, terrain: bool) -> Option<DeadCells> {
        let game = game(board, terrain);
        let (start, _) = game.reset();
        DeadCells::new(&game, &start, &game.rules(&start))
    }

    const ROOM: &str = "MIAU! IS! YOU! . . . .\n\
                        CRATE! IS! PUSH! . . . .\n\
                        DOCK! IS! GOAL! . . . .\n\
                        # # # # # # #\n\
                        # . o $ o . #\n\
                        # . $ o $ . #\n\
                        # . . @ . . #\n\
                        # # # # # # #";

    /// Against walls and in corners no push reaches a dock: only the cells
    /// a crate can be pushed out of toward a dock are live.
    #[test]
    fn cells_along_walls_are_dead_in_a_sealed_sokoban_room() {
        let d = cells(ROOM, true).expect("a sealed Sokoban level is in the fragment");
        assert_eq!(d.needed(), 3);
        let live: Vec<String> = (3..8)
            .map(|y| {
                (0..7)
                    .map(|x| if d.is_live_cell(x, y) { 'L' } else { '.' })
                    .collect()
            })
            .collect();
        assert_eq!(
            live,
            [".......", "..LLL..", "..LLL..", ".......", "......."],
            "{live:#?}"
        );
    }

    /// Each feature outside the fragment turns the analysis off.
    #[test]
    fn levels_outside_the_fragment_get_no_analysis() {
        // A word that can move may change the rules.
        assert!(cells(&ROOM.replace("PUSH!", "PUSH"), true).is_none());
        // Without terrain the walls are not STOP, which is fine; with a WIN
        // rule a win no longer needs the docks.
        assert!(cells(ROOM, false).is_some());
        let win = ROOM.replace("DOCK! IS! GOAL! . . . .", "DOCK! IS! GOAL! WALL! IS! WIN!");
        assert!(cells(&win, true).is_none());
        // A moving dock.
        let moving = ROOM.replace("CRATE! IS! PUSH!", "DOCK! IS! PUSH!");
        assert!(cells(&moving, true).is_none());
        // No GOAL at all: nothing to reason from.
        let none = ROOM.replace("DOCK! IS! GOAL!", "DOCK! IS! DOCK!");
        assert!(cells(&none, true).is_none());
    }

    /// Fewer crates on live cells than docks to cover is dead; the room's
    /// own start is not.
    #[test]
    fn a_crate_against_a_wall_kills_the_state() {
        let room = game(ROOM, true);
        let (start, _) = room.reset();
        let d = DeadCells::new(&room, &start, &room.rules(&start)).unwrap();
        assert!(!d.is_dead(start.words()));
        // The same things, the first crate moved against the west wall.
        let moved = game(&ROOM.replace("# . o $ o . #", "# $ o . o . #"), true);
        let (start, _) = moved.reset();
        assert!(d.is_dead(start.words()));
    }
}

#[cfg(test)]
mod imported {
    use super::*;
    use crate::compile::{SourceKind, compile};

    /// An imported Sokoban level (Microban 7: six crates on a 5 × 6 floor)
    /// is in the fragment, and only its inner 3 × 4 cells are live.
    #[test]
    fn an_imported_sokoban_level_gets_the_analysis() {
        let xsb = "#######\n#     #\n# .$. #\n# $.$ #\n# .$. #\n# $.$ #\n#  @  #\n#######\n";
        let levels = crate::import::xsb::parse(xsb).expect("a valid XSB level");
        let packs = crate::import::xsb::to_packs("t", &levels, &[]);
        let pack = compile(&packs[0].text, SourceKind::Miau)
            .pack
            .expect("it compiles");
        let game = Game::new(&pack.levels[0]);
        let (start, _) = game.reset();
        let d = DeadCells::new(&game, &start, &game.rules(&start)).expect("in the fragment");
        assert_eq!(d.needed(), 6);
        let live = (0..game.height)
            .flat_map(|y| (0..game.width).map(move |x| (x, y)))
            .filter(|&(x, y)| d.is_live_cell(x, y))
            .count();
        let grid: Vec<String> = (0..game.height)
            .map(|y| {
                (0..game.width)
                    .map(|x| if d.is_live_cell(x, y) { 'L' } else { '.' })
                    .collect()
            })
            .collect();
        assert_eq!(live, 12, "{grid:#?}");
    }
}
