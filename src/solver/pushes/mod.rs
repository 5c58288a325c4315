//! The push search: a shortest route found over pushes instead of moves, on
//! the levels where walking changes nothing but where the player stands.
//!
//! **Where it applies.** Where the dead-state analysis does ([`deadlock`]:
//! the rules never change, nothing moves but by the player, the properties
//! are among YOU, PUSH, STOP and GOAL), with exactly one YOU thing, a win
//! no single move from the start can give, and a search whose constraints
//! exclude nothing there (the level's space decides, before it builds
//! this one). Then a move either walks the
//! player into a cell no PUSH thing holds, changing nothing else, or pushes
//! (the engine decides the push, chains included), or is refused.
//!
//! **The search.** A node is a state right after a push (and the start): the
//! player's cell and the set of cells holding PUSH things, in increasing
//! order. Which PUSH thing holds which cell makes no difference: a push
//! moves whatever line of them stands ahead, and a GOAL cell is covered by
//! any of them (the fragment has no other property, and the native pushes
//! below are checked against the engine), so states that differ only by a
//! permutation of the PUSH things are one node. Between two pushes the player only
//! walks, and a walk between two cells is as short as the board of that
//! node allows, so a route is a sequence of (walk to a cell next to a PUSH
//! thing, push) legs, each costing its walk's length plus one move.
//! An A* search over these legs, nodes settled in order of moves plus a
//! consistent lower bound on the moves left (buckets by that number, the
//! first settling of a node is its shortest; within a number, the nodes
//! with the least bound left first), finds a route with the fewest
//! moves: the plain search's route length,
//! and the same verdict. Nodes stand for every state the walks between
//! pushes pass through, so a level's space is a few nodes per arrangement
//! of the PUSH things instead of one state per cell the player can reach.
//!
//! **What differs from the move search.** The route is a shortest one, but
//! not necessarily the first of the shortest in `U D L R` order; the counts
//! are nodes (expanded: settled, stored: settled), not move states. The
//! search runs on one thread whatever `jobs` says, so its result is the
//! same for every `jobs`. The visited set is the move search's: a node's
//! 80-bit fingerprint, its parent and the push direction (see [`visited`]);
//! a route is rebuilt by replaying the legs and matching fingerprints.
//!
//! Walks are taken from a grid computed once with the engine: for every
//! cell the player can reach on the board without its PUSH things, and
//! every direction, the cell one move takes it to. In a node, a walk may
//! not enter a PUSH thing's cell (the move would push).
//!
//! **Where things are.** This module: the space, its walk grid and
//! nodes; `legs`, the pushes out of a node; `frozen`, the PUSH things no
//! push can move again; `corral`, the PI-corrals whose fence pushes
//! alone a satisficing pass expands; `packing`, the order a cluster of
//! GOAL cells is filled in; `bounds`, the lower bounds on the moves left;
//! `symmetry`, a room's mirror images kept as one node; `buckets`, how
//! pending nodes are written; `search`, the shortest-route search;
//! `satisfice`, a route found without proving it shortest; `pulls`, one
//! found backwards, from the won rooms to the start; `meet`, one found
//! from both ends at once.
//!
//! [`deadlock`]: super::deadlock
//! [`visited`]: super::visited

mod bounds;
mod buckets;
mod corral;
mod frozen;
mod legs;
mod meet;
mod nodes;
mod packing;
mod pulls;
mod satisfice;
mod search;
mod symmetry;
#[cfg(test)]
mod test_rooms;

pub use meet::satisfice_meet;
pub use pulls::satisfice_pulls;
pub use satisfice::{satisfice, satisfice_packed};
pub use search::search;

use super::deadlock::DeadCells;
use super::fingerprint;
use super::matching::{Assignment, Segments};
use crate::engine::{EntId, Game, Input, Rules, Scratch, State, TurnReport, TurnResult};

/// No cell: a move off the board or into something that refuses it.
const NONE: u32 = u32::MAX;

/// The moves in the engine's input order, with their steps.
const DIRS: [(Input, i32, i32); 4] = [
    (Input::Up, 0, -1),
    (Input::Down, 0, 1),
    (Input::Left, -1, 0),
    (Input::Right, 1, 0),
];

/// A level as the push search sees it.
#[derive(Debug)]
pub struct PushSpace<'g> {
    game: &'g Game,
    /// The reset state's words: every node is this with the player and the
    /// PUSH things moved.
    start: Vec<u32>,
    player: EntId,
    pushers: Vec<EntId>,
    width: usize,
    cells: usize,
    /// Per cell and direction (`cell * 4 + d`), the cell one move of the
    /// player takes it to on the board without PUSH things, or [`NONE`].
    walk: Vec<u32>,
    /// Per cell: no mover ever enters it ([`DeadCells::blocked`]).
    blocked: Vec<bool>,
    /// Per cell: a GOAL cell a win needs covered.
    goal: Vec<bool>,
    /// Per cell: a PUSH thing there can still reach a GOAL cell.
    live: Vec<bool>,
    /// How many GOAL cells a win needs covered.
    needed: usize,
    /// Per cell, the fewest pushes from it to a GOAL cell
    /// ([`DeadCells::push_distances`]).
    distance: Vec<u32>,
    /// The segment distances of the assignment bound ([`matching`]), or
    /// `None` on boards too large for its table.
    ///
    /// [`matching`]: super::matching
    segments: Option<Segments>,
    /// The board's symmetries other than the identity
    /// ([`PushSpace::find_symmetries`]): per symmetry, each cell's image
    /// ([`NONE`] off the player's region).
    symmetries: Vec<Vec<u32>>,
    /// Per cell, its term as a member of the PUSH things' set
    /// ([`fingerprint::member`]): a node's fingerprint is the XOR of its
    /// things' terms with its player's ([`fingerprint::of_node`]), so a
    /// successor's follows from its parent's with two terms swapped, and
    /// its images' too.
    terms: Vec<u128>,
}

/// A node: the player's cell, then the PUSH things' cells in increasing order.
type Key = Vec<u32>;

impl<'g> PushSpace<'g> {
    /// The push search's view of `game` from reset state `start` with its
    /// parsed `rules`, or `None` outside the fragment (module comment).
    pub fn new(game: &'g Game, start: &State, rules: &Rules, dead: &DeadCells) -> Option<Self> {
        let bit = |name: &str| game.tok(name).map_or(0, |t| game.vocab.prop_bit(t));
        let (you, push, stop, goal) = (bit("YOU"), bit("PUSH"), bit("STOP"), bit("GOAL"));
        let props = game.props_under(rules, start);
        let words = start.words();
        let mut players = Vec::new();
        let mut pushers = Vec::new();
        for (i, info) in game.ents.iter().enumerate() {
            if info.word || !Game::alive_in(words, i as EntId) {
                continue;
            }
            let p = props[i];
            if p & you != 0 {
                players.push(i as EntId);
            } else if p & push != 0 {
                pushers.push(i as EntId);
            } else {
                continue;
            }
            // Movers that are also STOP or GOAL play by rules the native
            // pushes below do not model.
            if p & (stop | goal) != 0 {
                return None;
            }
        }
        let [player] = players[..] else {
            return None;
        };
        if pushers.is_empty() {
            return None;
        }
        let width = usize::from(game.width);
        let cells = width * usize::from(game.height);
        let mut space = PushSpace {
            game,
            start: words.to_vec(),
            player,
            pushers,
            width,
            cells,
            walk: Vec::new(),
            blocked: dead.blocked().to_vec(),
            goal: vec![false; cells],
            live: dead.live_cells().to_vec(),
            needed: dead.needed(),
            distance: dead.push_distances().to_vec(),
            segments: None,
            symmetries: Vec::new(),
            terms: Vec::new(),
        };
        for &g in dead.goal_cells() {
            space.goal[g] = true;
        }
        if space.blocked.len() != cells
            || space.live.len() != cells
            || space.distance.len() != cells
        {
            return None;
        }
        // Movers in distinct cells: the native pushes assume one per cell.
        let key = space.start_key()?;
        let mut seen = vec![false; cells];
        for &c in &key {
            if std::mem::replace(&mut seen[c as usize], true) {
                return None;
            }
        }
        // A win one move away, walk or push, is the move search's to find:
        // a walk can win only from a start that already covers every GOAL.
        for (input, _, _) in DIRS {
            if let TurnResult::Accepted { report, .. } = game.step(start, input)
                && report.won
            {
                return None;
            }
        }
        space.walk = space.walk_grid()?;
        space.symmetries = space.find_symmetries(&key);
        space.terms = (0..cells as u32).map(fingerprint::member).collect();
        // The table holds a u32 per GOAL cell and cell (16 MiB at most),
        // and an assignment costs `O(goals² · things)` per node taken: a
        // Sokoban room has a few dozen of each.
        let goals = dead.goal_cells().len();
        if goals <= 64 && space.pushers.len() <= 256 && goals.saturating_mul(cells) <= 1 << 22 {
            space.segments = Some(Segments::new(dead.goal_cells(), &space.blocked, width));
        }
        Some(space)
    }

    /// How many PUSH things the room holds: what a node's work grows with.
    pub fn things(&self) -> usize {
        self.pushers.len()
    }

    fn cell_of(&self, words: &[u32], e: EntId) -> Option<u32> {
        let (x, y) = Game::cell_in(words, e)?;
        Some((usize::from(y) * self.width + usize::from(x)) as u32)
    }

    fn xy(&self, cell: u32) -> (u8, u8) {
        let c = cell as usize;
        ((c % self.width) as u8, (c / self.width) as u8)
    }

    /// The cell a step `(dx, dy)` from `cell` leads to, if on the board.
    fn neighbour(&self, cell: u32, dx: i32, dy: i32) -> Option<u32> {
        let (x, y) = self.xy(cell);
        let (nx, ny) = (i32::from(x) + dx, i32::from(y) + dy);
        let height = (self.cells / self.width) as i32;
        (nx >= 0 && ny >= 0 && nx < self.width as i32 && ny < height)
            .then(|| (ny as usize * self.width + nx as usize) as u32)
    }

    /// The walk grid (module comment), found by moving the player with the
    /// engine over the board with every PUSH thing removed. `None` when the
    /// engine does something there a walk may not (anything but the player
    /// moving one cell), which the fragment rules out.
    fn walk_grid(&self) -> Option<Vec<u32>> {
        let mut bare = self.start.clone();
        for &p in &self.pushers {
            bare[usize::from(p)] = 0;
        }
        let from = self.cell_of(&bare, self.player)?;
        let mut walk = vec![NONE; self.cells * 4];
        let mut seen = vec![false; self.cells];
        seen[from as usize] = true;
        let mut queue = std::collections::VecDeque::from([from]);
        let (mut sc, mut report, mut out) = (Scratch::default(), TurnReport::default(), Vec::new());
        while let Some(c) = queue.pop_front() {
            let mut words = bare.clone();
            self.place(&mut words, self.player, c);
            for (d, &(input, dx, dy)) in DIRS.iter().enumerate() {
                out.clear();
                if self.game.prepare(&words, &mut sc).is_err() {
                    return None;
                }
                if self
                    .game
                    .step_prepared(input, &mut sc, false, &mut report, &mut out)
                    .is_err()
                {
                    continue;
                }
                let to = self.cell_of(&out, self.player)?;
                let moved_alone = out
                    .iter()
                    .zip(&words)
                    .enumerate()
                    .all(|(i, (a, b))| a == b || i == usize::from(self.player));
                if report.won || !moved_alone || Some(to) != self.neighbour(c, dx, dy) {
                    return None;
                }
                walk[c as usize * 4 + d] = to;
                if !seen[to as usize] {
                    seen[to as usize] = true;
                    queue.push_back(to);
                }
            }
        }
        Some(walk)
    }

    fn place(&self, words: &mut [u32], e: EntId, cell: u32) {
        let (x, y) = self.xy(cell);
        let w = &mut words[usize::from(e)];
        *w = (*w & !0xFFFF) | u32::from(x) | u32::from(y) << 8;
    }

    fn start_key(&self) -> Option<Key> {
        self.key_of(&self.start)
    }

    /// The node of engine `words`: the player's cell, then the PUSH
    /// things' cells in increasing order (module comment: which thing
    /// stands where makes no difference here).
    fn key_of(&self, words: &[u32]) -> Option<Key> {
        let mut key: Key = std::iter::once(self.player)
            .chain(self.pushers.iter().copied())
            .map(|e| self.cell_of(words, e))
            .collect::<Option<_>>()?;
        key[1..].sort_unstable();
        Some(key)
    }

    /// The engine words of node `key`.
    #[cfg(test)]
    fn words_of(&self, key: &[u32], out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(&self.start);
        for (e, &cell) in std::iter::once(self.player)
            .chain(self.pushers.iter().copied())
            .zip(key)
        {
            self.place(out, e, cell);
        }
    }
}

/// Reusable buffers of one search.
#[derive(Default)]
struct Work {
    /// Per cell: the walk's distance from the player (`u32::MAX`: not
    /// reached), and the direction that first reached it.
    dist: Vec<u32>,
    came: Vec<u8>,
    /// Per cell: one more than the index in the key's PUSH things of the
    /// one standing there, or 0.
    occupant: Vec<u16>,
    /// The cells the walk reached, in order of distance.
    order: Vec<u32>,
    next: Key,
    /// The assignment bound's buffers.
    assignment: Assignment,
    /// The assignment of the node being expanded, once a successor needed
    /// it ([`PushSpace::bound_after`]), and whether it is that node's.
    parent: Assignment,
    parent_solved: bool,
    /// The cheap bound's buffer.
    distances: Vec<u32>,
    /// Per cell: a PUSH thing of the frozen set being narrowed
    /// ([`PushSpace::freezes`]); all false between calls.
    frozen: Vec<bool>,
    /// Per cell, the GOAL cell whose pull-back last reached it
    /// ([`PushSpace::goal_sealed`]).
    pulled: Vec<u32>,
    /// Per cell, the corral ([`PushSpace::corral`]) an empty cell is in
    /// and the last corral a PUSH thing fences (numbers from 1, 0: none);
    /// the cells of the corral being marked, its fence things, its inward
    /// pushes, and those of the PI-corral kept.
    corral: Vec<u32>,
    fence: Vec<u32>,
    area: Vec<u32>,
    fence_cells: Vec<u32>,
    inward: Vec<(u32, u8)>,
    corral_pushes: Vec<(u32, u8)>,
}

/// One push found from a node; the successor's key is in [`Work::next`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Leg {
    /// The cell the player pushes from, the walk's length there, the
    /// direction.
    from: u32,
    walk: u32,
    dir: u8,
    won: bool,
    /// The cell the pushed line's far end moves into: as far as the
    /// bounds can tell, the PUSH thing next to the player moves there.
    past: u32,
}
