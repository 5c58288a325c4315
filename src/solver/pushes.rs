//! The push search: a shortest route found over pushes instead of moves, on
//! the levels where walking changes nothing but where the player stands.
//!
//! **Where it applies.** Where the dead-state analysis does ([`deadlock`]:
//! the rules never change, nothing moves but by the player, the properties
//! are among YOU, PUSH, STOP and GOAL), with exactly one YOU thing, a win
//! no single move from the start can give, and a search whose constraints
//! say nothing there (see [`vacuous`]). Then a move either walks the
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
//! [`deadlock`]: super::deadlock
//! [`visited`]: super::visited

use super::deadlock::DeadCells;
use super::level::Constraints;
use super::matching::{Assignment, Segments, UNREACHABLE};
use super::subsets::Subsets;
use super::visited::{self, Insert, Visited};
use super::{LimitKind, Limits, Outcome, Progress, Verdict, fingerprint, memory_allows, pool};
use crate::engine::{EntId, Game, Input, Rules, Scratch, State, Tok, TurnReport, TurnResult};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};

/// No cell: a move off the board or into something that refuses it.
const NONE: u32 = u32::MAX;

/// The moves in the engine's input order, with their steps.
const DIRS: [(Input, i32, i32); 4] = [
    (Input::Up, 0, -1),
    (Input::Down, 0, 1),
    (Input::Left, -1, 0),
    (Input::Right, 1, 0),
];

/// Whether `constraints` exclude nothing on a level of the fragment, where
/// words never move nor vanish and the rules are the reset ones on every
/// turn: then each of stage 4's searches is the plain one. A required rule
/// must be active at reset (it can never form later); forbidden and kept
/// rules are decided at the start ([`super::level::LevelSpace::start_excluded`]).
pub fn vacuous(constraints: &Constraints, reset_rules: &[(Tok, Tok)]) -> bool {
    constraints
        .require
        .iter()
        .all(|r| reset_rules.binary_search(r).is_ok())
}

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

    /// The symmetries of the search: the mirror images and rotations of
    /// the player's region (the cells the walk grid reaches) that map the
    /// region, its GOAL cells, push distances and live cells onto
    /// themselves, and each walk onto the walk from the image cell in the
    /// image direction. Each is then a symmetry of the whole search: a
    /// push from a node and the push from its image are images of each
    /// other at the same cost (a push's line and the cell past it are
    /// region cells or refuse it, checked below), wins go to wins, and
    /// both bounds, which read only GOAL cells and the board's blocked
    /// cells, are equal on images. So a node and its images have the same
    /// fewest moves to a win, and the search keeps one of them
    /// ([`PushSpace::canonical`]): on a room with two mirror axes, up to
    /// a quarter of the nodes. None when a PUSH thing stands off the
    /// region (it can never move, and its image need not be a PUSH
    /// thing's cell) or a GOAL cell is off it.
    fn find_symmetries(&self, start: &[u32]) -> Vec<Vec<u32>> {
        let mut region = vec![false; self.cells];
        let mut queue = vec![start[0]];
        region[start[0] as usize] = true;
        while let Some(c) = queue.pop() {
            for d in 0..4 {
                let to = self.walk[c as usize * 4 + d];
                if to != NONE && !std::mem::replace(&mut region[to as usize], true) {
                    queue.push(to);
                }
            }
        }
        let inside = |c: u32| region[c as usize];
        if !start[1..].iter().all(|&c| inside(c))
            || (0..self.cells).any(|c| self.goal[c] && !region[c])
        {
            return Vec::new();
        }
        // A push takes a line of PUSH things on region cells into the
        // cell past it, which must then be a region cell or refuse it.
        for c in (0..self.cells as u32).filter(|&c| inside(c)) {
            for &(_, dx, dy) in &DIRS {
                if let Some(n) = self.neighbour(c, dx, dy)
                    && !self.blocked[n as usize]
                    && !inside(n)
                {
                    return Vec::new();
                }
            }
        }
        let (mut x0, mut y0, mut x1, mut y1) = (u8::MAX, u8::MAX, 0, 0);
        for c in (0..self.cells as u32).filter(|&c| inside(c)) {
            let (x, y) = self.xy(c);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        let (w, h) = (i32::from(x1 - x0), i32::from(y1 - y0));
        // The images of (x, y), relative to the region's corner, under
        // the mirrors and rotations of its bounding box, as the matrix
        // that maps steps: ((a, b), (c, d)) takes (dx, dy) to
        // (a·dx + b·dy, c·dx + d·dy).
        let mut maps = vec![((-1, 0), (0, 1)), ((1, 0), (0, -1)), ((-1, 0), (0, -1))];
        if w == h {
            maps.extend([
                ((0, 1), (1, 0)),
                ((0, -1), (1, 0)),
                ((0, 1), (-1, 0)),
                ((0, -1), (-1, 0)),
            ]);
        }
        let mut found = Vec::new();
        'maps: for ((a, b), (cc, d)) in maps {
            // The image of the box's corner (0, 0) sits where the
            // matrix sends the box back into itself.
            let shift_x = if a < 0 || b < 0 { w } else { 0 };
            let shift_y = if cc < 0 || d < 0 { h } else { 0 };
            let image = |c: u32| -> Option<u32> {
                let (x, y) = self.xy(c);
                let (x, y) = (i32::from(x) - i32::from(x0), i32::from(y) - i32::from(y0));
                let (ix, iy) = (a * x + b * y + shift_x, cc * x + d * y + shift_y);
                if ix < 0 || iy < 0 || ix > w || iy > h {
                    return None;
                }
                let (ix, iy) = (ix + i32::from(x0), iy + i32::from(y0));
                Some((iy as usize * self.width + ix as usize) as u32)
            };
            let step = |dir: usize| -> usize {
                let (_, dx, dy) = DIRS[dir];
                let (ix, iy) = (a * dx + b * dy, cc * dx + d * dy);
                DIRS.iter()
                    .position(|&(_, x, y)| (x, y) == (ix, iy))
                    .unwrap_or(dir)
            };
            let mut map = vec![NONE; self.cells];
            for c in 0..self.cells as u32 {
                if !inside(c) {
                    continue;
                }
                let Some(i) = image(c).filter(|&i| inside(i)) else {
                    continue 'maps;
                };
                let (cu, iu) = (c as usize, i as usize);
                if self.goal[cu] != self.goal[iu]
                    || self.live[cu] != self.live[iu]
                    || self.distance[cu] != self.distance[iu]
                {
                    continue 'maps;
                }
                map[cu] = i;
            }
            for c in (0..self.cells).filter(|&c| region[c]) {
                for dir in 0..4 {
                    let to = self.walk[c * 4 + dir];
                    let want = if to == NONE { NONE } else { map[to as usize] };
                    if self.walk[map[c] as usize * 4 + step(dir)] != want {
                        continue 'maps;
                    }
                }
            }
            found.push(map);
        }
        found
    }

    /// Replaces node `key` with the least of its images under the
    /// symmetries, the one node the search keeps for all of them; `image`
    /// is scratch.
    ///
    /// Images rank by their fingerprints ([`PushSpace::fingerprint`]),
    /// which hash the PUSH things as a set, so no image is sorted to be
    /// ranked; only the least is. Every member of an orbit has the same
    /// images (the symmetries are a group: all of the board's among the
    /// mirrors and rotations), so every member keeps the same image, but
    /// for two distinct images with one fingerprint, which the visited set
    /// would take for one node anyway.
    fn canonical(&self, key: &mut [u32], image: &mut Vec<u32>) {
        let mut sets = Vec::new();
        self.image_sets(&key[1..], &mut sets);
        let (_, which) = self.least_image(key[0], &sets, key.len());
        self.apply_image(key, which, image);
    }

    /// The fingerprint of node `key` as the search stores it: its least
    /// image's ([`PushSpace::canonical`]), whichever image `key` is.
    fn fingerprint(&self, key: &[u32]) -> u128 {
        let mut sets = Vec::new();
        self.image_sets(&key[1..], &mut sets);
        self.least_image(key[0], &sets, key.len()).0
    }

    /// The fingerprint of node `key` when it is its own least image (as
    /// the search files nodes): [`PushSpace::fingerprint`] without the
    /// other images.
    fn own_fingerprint(&self, key: &[u32]) -> u128 {
        let set = key[1..].iter().fold(0, |s, &c| s ^ self.terms[c as usize]);
        let fp = fingerprint::of_node(key[0], set, key.len());
        debug_assert_eq!(fp, self.fingerprint(key), "a node filed as its least image");
        fp
    }

    /// Per image of the PUSH things on `cells` (the node itself first,
    /// then one per symmetry), the XOR of its cells' terms, into `sets`.
    fn image_sets(&self, cells: &[u32], sets: &mut Vec<u128>) {
        let terms = &self.terms;
        sets.clear();
        sets.push(cells.iter().fold(0, |s, &c| s ^ terms[c as usize]));
        for map in &self.symmetries {
            sets.push(
                cells
                    .iter()
                    .fold(0, |s, &c| s ^ terms[map[c as usize] as usize]),
            );
        }
    }

    /// The image sets ([`PushSpace::image_sets`]) of the successor whose
    /// push took a PUSH thing out of `left` and held `past` instead, from
    /// its parent's `parent`: two terms swapped per image.
    fn moved_sets(&self, parent: &[u128], left: u32, past: u32, sets: &mut Vec<u128>) {
        let terms = &self.terms;
        let (left, past) = (left as usize, past as usize);
        sets.clear();
        sets.push(parent[0] ^ terms[left] ^ terms[past]);
        for (map, &was) in self.symmetries.iter().zip(&parent[1..]) {
            sets.push(was ^ terms[map[left] as usize] ^ terms[map[past] as usize]);
        }
    }

    /// The least fingerprint among a node's images, given its player's
    /// cell, its image sets and its key's length, and which image has it
    /// (0 the node itself, `1 + s` symmetry `s`).
    fn least_image(&self, player: u32, sets: &[u128], len: usize) -> (u128, usize) {
        let mut least = (fingerprint::of_node(player, sets[0], len), 0);
        for (s, (map, &set)) in self.symmetries.iter().zip(&sets[1..]).enumerate() {
            let fp = fingerprint::of_node(map[player as usize], set, len);
            if fp < least.0 {
                least = (fp, s + 1);
            }
        }
        least
    }

    /// Replaces `key` with its image `which` ([`PushSpace::least_image`]),
    /// its PUSH things' cells sorted again.
    fn apply_image(&self, key: &mut [u32], which: usize, image: &mut Vec<u32>) {
        let Some(map) = which.checked_sub(1).map(|s| &self.symmetries[s]) else {
            return;
        };
        image.clear();
        image.extend(key.iter().map(|&c| map[c as usize]));
        image[1..].sort_unstable();
        key.copy_from_slice(image);
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

    /// How pending nodes are written, for a search from node `start`.
    /// Every cell a node holds is an open cell (one no mover is blocked
    /// from) joined to a cell of `start` through open cells: things start
    /// on open cells ([`DeadCells`] gives up otherwise), and a walk or a
    /// push moves each thing to a neighbouring open cell; a mirror image
    /// maps the player's region onto itself. So the numbers run over those
    /// cells, not the empty ones outside a room's walls.
    fn codec(&self, start: &[u32]) -> Codec {
        let mut joined = vec![false; self.cells];
        let mut queue: Vec<u32> = start.to_vec();
        for &c in start {
            joined[c as usize] = true;
        }
        while let Some(c) = queue.pop() {
            for &(_, dx, dy) in &DIRS {
                if let Some(n) = self.neighbour(c, dx, dy)
                    && !self.blocked[n as usize]
                    && !std::mem::replace(&mut joined[n as usize], true)
                {
                    queue.push(n);
                }
            }
        }
        match Subsets::new(&joined, start.len() - 1) {
            Some(subsets) => Codec::Ranked(subsets),
            None => Codec::Cells {
                wide: self.cells > 256,
            },
        }
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

impl PushSpace<'_> {
    /// The walk from node `key`'s player: distances and directions in
    /// `work`, the cells in order of distance in `work.order`.
    fn flood(&self, key: &[u32], work: &mut Work) {
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
    fn legs(&self, key: &[u32], work: &mut Work, mut leg: impl FnMut(Leg, &Key)) {
        self.flood(key, work);
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
    fn freezes(
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
    fn frozen_dead(&self, key: &[u32], work: &mut Work) -> bool {
        let stuck = self.stuck(key[1..].iter().copied(), work);
        stuck + self.needed > key.len() - 1
    }

    /// How many of the PUSH things at cells `things` are in the largest
    /// frozen set and off GOAL cells ([`PushSpace::freezes`]).
    fn stuck(&self, things: impl Iterator<Item = u32> + Clone, work: &mut Work) -> usize {
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
    fn walled(&self, cell: u32, in_set: &impl Fn(u32) -> bool) -> bool {
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

    /// A lower bound on the moves from node `key` to a win: the `needed`-th
    /// smallest push distance among its PUSH things. A win has `needed`
    /// distinct PUSH things on GOAL cells, each at least its distance in
    /// pushes away, and a move pushes each thing one cell at most, lowering
    /// each distance by one at most (chains included). So the bound never
    /// overestimates, and it drops by at most one per move: it is
    /// consistent, and a node's first settling in order of moves plus
    /// bound is still at its fewest moves.
    fn estimate(&self, key: &[u32], scratch: &mut Vec<u32>) -> u32 {
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
    fn bound(&self, key: &[u32], work: &mut Work) -> u32 {
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
    fn bound_after(&self, key: &[u32], next: &[u32], past: u32, work: &mut Work) -> u32 {
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

    /// The moves of the walk from node `key`'s player to `to` (after
    /// [`PushSpace::flood`] on `key`).
    fn walk_to(&self, to: u32, work: &Work, route: &mut Vec<u8>) {
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

/// The pending nodes of one bucket: each node's key as the search's
/// [`Codec`] writes it, appended to a tail that becomes one block when
/// full. A node's index is not kept: the visited set gives it back from
/// the key's fingerprint when the node is taken, for a lookup next to a
/// node's microseconds of pushes (it took a byte or two a pending node,
/// and most stored nodes are pending ones). A bucket is only ever read
/// whole. The tail grows by an eighth (held at its exact size while a new
/// bucket is under [`SMALL_TAIL`] bytes), so its slack stays small (the
/// frontier counts in bytes per state).
#[derive(Debug, Default)]
struct Bucket {
    /// Full blocks: numbers as sorted gaps ([`super::gaps`]) for
    /// [`Codec::Ranked`], entries LZ4-compressed ([`super::blocks`]) for
    /// [`Codec::Cells`].
    blocks: Vec<Box<[u8]>>,
    /// The bytes of `blocks`.
    packed: usize,
    /// The entries after the last block, as written.
    tail: Vec<u8>,
    /// For [`Codec::Cells`], the last key's cells as written: a byte each,
    /// two (little-endian) on wide boards (a board has fewer than 2^16
    /// cells).
    last: Vec<u8>,
    /// Nodes filed.
    filed: u64,
}

/// How a bucket writes a pending node's key.
#[derive(Debug)]
enum Codec {
    /// As one number ([`Subsets`]): a fixed number of bytes in the tail
    /// (the fewest that hold every node of the room, 5 for twelve crates
    /// on 40 cells), in blocks sorted and written as gaps, which takes
    /// the logarithm of a block's length off each (a bucket's nodes come
    /// back in the order of their numbers, block by block).
    Ranked(Subsets),
    /// As its difference from the key before it: a bit per cell of the key
    /// saying which changed, then the changed cells, one byte each on
    /// boards of at most 256 cells (not `wide`), two otherwise. Nodes filed
    /// one after another share about half their cells. For rooms whose
    /// nodes outnumber 2^128, where a number would save little.
    Cells { wide: bool },
}

/// Bytes of entries that make one compressed block of a [`Bucket`] of
/// [`Codec::Cells`]. The entries are differences already, so LZ4 takes a
/// fifth of them off at most; what it saves is the uncompressed tails, one
/// per bucket, which weigh most on searches of tens of thousands of nodes
/// (measured: 4 KiB took Microban 95 from 32.7 bytes a node to 31.9 with
/// 16 KiB blocks; a tiny search never compresses anything).
#[cfg(not(test))]
const BLOCK: usize = 4 * 1024;
// The library's push searches are small: blocks of a few entries, so the
// property tests against the move search read compressed blocks too.
#[cfg(test)]
const BLOCK: usize = 48;

/// The fewest and the most numbers a block of [`Codec::Ranked`] holds;
/// between the two, a sixteenth of the nodes the bucket has had. A block
/// saves about `log2 n - 2` bits a number ([`super::gaps`]), while the
/// tail that fills it is written whole: a bucket's tail stays within a
/// sixteenth of what it holds, and a search of a few hundred nodes, whose
/// tails are all it has, is not made larger.
#[cfg(not(test))]
const RUN: (u64, u64) = (64, 16 * 1024);
#[cfg(test)]
const RUN: (u64, u64) = (3, 40);

/// Bytes of a bucket's tail below which it is kept at its exact size.
const SMALL_TAIL: usize = 256;

/// Appends `key` as [`Codec::Cells`] writes it: a bit per cell saying
/// which changed from `last_key` (the key before, as written, updated
/// here), then the changed cells, one byte each, two when `wide`.
fn write_cells(tail: &mut Vec<u8>, last_key: &mut Vec<u8>, key: &[u32], wide: bool) {
    let width = 1 + usize::from(wide);
    last_key.resize(key.len() * width, 0);
    let at = tail.len();
    tail.resize(at + key.len().div_ceil(8), 0);
    for (k, (&c, was)) in key.iter().zip(last_key.chunks_exact_mut(width)).enumerate() {
        let c = (c as u16).to_le_bytes();
        let c = &c[..width];
        if c == was {
            continue;
        }
        was.copy_from_slice(c);
        tail[at + k / 8] |= 1 << (k % 8);
        tail.extend_from_slice(c);
    }
}

impl Bucket {
    /// Bytes held: the blocks, their list, the tail's capacity and the
    /// last key.
    fn bytes(&self) -> usize {
        self.packed
            + self.blocks.capacity() * std::mem::size_of::<Box<[u8]>>()
            + self.tail.capacity()
            + self.last.capacity()
    }

    /// Appends a node; what the bucket's bytes grew (or shrank) by is
    /// read from [`Bucket::bytes`] around the call.
    fn push(&mut self, key: &[u32], codec: &Codec) {
        self.filed += 1;
        let need = match codec {
            Codec::Ranked(subsets) => subsets.width(),
            Codec::Cells { wide } => key.len().div_ceil(8) + key.len() * (1 + usize::from(*wide)),
        };
        super::make_room(&mut self.tail, need, need);
        match codec {
            Codec::Ranked(subsets) => subsets.write(key, &mut self.tail),
            &Codec::Cells { wide } => write_cells(&mut self.tail, &mut self.last, key, wide),
        }
        if self.blocks.is_empty() && self.tail.len() < SMALL_TAIL {
            // A bucket of a few entries holds them exactly: searches of
            // a few dozen nodes have a bucket per number and bound left,
            // and a slack of one entry each would weigh on them. (Not
            // after a block: the tail keeps its capacity for the next.)
            self.tail.shrink_to_fit();
        }
        let mut block = Vec::new();
        match codec {
            Codec::Ranked(subsets) => {
                let width = subsets.width();
                let run = (self.filed / 16).clamp(RUN.0, RUN.1) as usize;
                if self.tail.len() < run * width {
                    return;
                }
                let mut numbers: Vec<u128> = self.tail_numbers(subsets).collect();
                super::gaps::pack(&mut numbers, width, &mut block);
            }
            Codec::Cells { .. } => {
                if self.tail.len() < BLOCK {
                    return;
                }
                super::blocks::pack(&self.tail, &mut block);
                // Each block starts from a key of zeros, so blocks read
                // alone (and the first gaps of the next are whole cells).
                self.last.fill(0);
            }
        }
        let block = block.into_boxed_slice();
        self.packed += block.len();
        super::make_room(&mut self.blocks, 1, 4);
        self.blocks.push(block);
        // The tail keeps its capacity: the next block fills it again.
        self.tail.clear();
    }

    /// The numbers in the tail of a bucket of [`Codec::Ranked`], in the
    /// order filed.
    fn tail_numbers<'a>(&'a self, subsets: &'a Subsets) -> impl Iterator<Item = u128> + 'a {
        self.tail
            .chunks_exact(subsets.width())
            .filter_map(|n| subsets.read_number(n))
    }

    /// Reads the nodes back: for [`Codec::Cells`] in the order filed, for
    /// [`Codec::Ranked`] block by block, each block's in the order of
    /// their numbers, then the tail's in the order filed.
    fn reader(&self) -> BucketReader<'_> {
        BucketReader {
            bucket: self,
            block: 0,
            opened: false,
            expanded: Vec::new(),
            numbers: Vec::new(),
            at: 0,
            last: Vec::new(),
        }
    }
}

/// Reads a [`Bucket`]'s nodes, a block at a time.
struct BucketReader<'a> {
    bucket: &'a Bucket,
    /// The block being read (the tail once past the last).
    block: usize,
    /// Whether that block is expanded.
    opened: bool,
    /// For [`Codec::Cells`], that block's entries, expanded.
    expanded: Vec<u8>,
    /// For [`Codec::Ranked`], that block's numbers (or the tail's).
    numbers: Vec<u128>,
    /// The next entry's place in `expanded` (its byte) or `numbers`.
    at: usize,
    /// For [`Codec::Cells`], the last key read.
    last: Vec<u32>,
}

impl BucketReader<'_> {
    /// Expands block `self.block` (the tail past the last) for reading.
    /// A block that does not expand (never so: the bucket wrote it, whole)
    /// reads as empty.
    fn open(&mut self, codec: &Codec) {
        self.opened = true;
        self.at = 0;
        self.last.fill(0);
        let block = self.bucket.blocks.get(self.block);
        match codec {
            Codec::Ranked(subsets) => {
                let width = subsets.width();
                match block {
                    Some(block) => {
                        let ok = super::gaps::unpack(block, width, &mut self.numbers);
                        debug_assert!(ok, "a bucket's block did not expand");
                    }
                    None => {
                        self.numbers.clear();
                        self.numbers.extend(self.bucket.tail_numbers(subsets));
                    }
                }
            }
            Codec::Cells { .. } => {
                self.expanded.clear();
                if let Some(block) = block {
                    let ok = super::blocks::unpack(block, usize::MAX, &mut self.expanded);
                    debug_assert!(ok, "a bucket's block did not expand");
                }
            }
        }
    }

    /// The next node, its key decoded into `key` (of the key's length, as
    /// written); `None` after the last.
    fn next(&mut self, key: &mut [u32], codec: &Codec) -> Option<()> {
        loop {
            if !self.opened {
                self.open(codec);
            }
            match codec {
                Codec::Ranked(subsets) => {
                    if let Some(&n) = self.numbers.get(self.at) {
                        self.at += 1;
                        return subsets.node(n, key);
                    }
                }
                &Codec::Cells { wide } => {
                    let data: &[u8] = if self.block < self.bucket.blocks.len() {
                        &self.expanded
                    } else {
                        &self.bucket.tail
                    };
                    // Entries never straddle blocks: a block is packed
                    // after an entry is whole.
                    if self.at < data.len() {
                        return read_cells(data, &mut self.at, &mut self.last, key, wide);
                    }
                }
            }
            if self.block >= self.bucket.blocks.len() {
                return None;
            }
            self.block += 1;
            self.opened = false;
        }
    }
}

/// Reads a key [`write_cells`] wrote at `data[*at..]` into `key`, moving
/// `at` past it; `last_key` is the key before (updated here).
fn read_cells(
    data: &[u8],
    at: &mut usize,
    last_key: &mut Vec<u32>,
    key: &mut [u32],
    wide: bool,
) -> Option<()> {
    last_key.resize(key.len(), 0);
    let mask = data.get(*at..*at + key.len().div_ceil(8))?;
    *at += mask.len();
    for (k, was) in last_key.iter_mut().enumerate() {
        if mask[k / 8] & 1 << (k % 8) == 0 {
            continue;
        }
        *was = if wide {
            let b = data.get(*at..*at + 2)?;
            u32::from(u16::from_le_bytes([b[0], b[1]]))
        } else {
            u32::from(*data.get(*at)?)
        };
        *at += 1 + usize::from(wide);
    }
    key.copy_from_slice(last_key);
    Some(())
}

/// Files node `key` in the bucket `bound`, keeping `bytes`, what the
/// buckets hold, up to date.
fn file(
    pending: &mut BTreeMap<(u32, u32), Bucket>,
    bytes: &mut usize,
    bound: (u32, u32),
    key: &[u32],
    codec: &Codec,
) {
    let bucket = pending.entry(bound).or_default();
    let before = bucket.bytes();
    bucket.push(key, codec);
    // `bytes` includes `before`, so this never goes below zero.
    *bytes = *bytes + bucket.bytes() - before;
}

/// A successor waiting for its insert.
struct Successor {
    moves: u32,
    /// Its bucket as far as the cheap bound tells: moves plus bound.
    bound: u32,
    /// The push direction.
    dir: u8,
    fp: u128,
    /// The cell the pushed PUSH thing counts as moved to
    /// ([`PushSpace::bound_after`]).
    past: u32,
    /// Which of its images the search keeps ([`PushSpace::least_image`]).
    image: u8,
}

/// Per stored node, the fewest moves found to it while it waits, or that
/// it is settled (then its moves no longer matter: it is never filed
/// again, and routes are rebuilt from the visited set's links). One byte a
/// node while every count is under 255, two while under 65 535, four
/// beyond: each width's largest value marks a settled node. Most sealed
/// rooms' routes are under 255 moves, so most searches pay a byte a node.
#[derive(Debug)]
enum MovesTo {
    Byte(Vec<u8>),
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for MovesTo {
    fn default() -> Self {
        MovesTo::Byte(Vec::new())
    }
}

impl MovesTo {
    /// Node `i`'s fewest moves so far, or `None` once it is settled.
    fn get(&self, i: u32) -> Option<u32> {
        let i = i as usize;
        match self {
            MovesTo::Byte(v) => (v[i] != u8::MAX).then(|| u32::from(v[i])),
            MovesTo::Narrow(v) => (v[i] != u16::MAX).then(|| u32::from(v[i])),
            MovesTo::Wide(v) => (v[i] != u32::MAX).then_some(v[i]),
        }
    }

    /// Marks node `i` settled.
    fn settle(&mut self, i: u32) {
        let i = i as usize;
        match self {
            MovesTo::Byte(v) => v[i] = u8::MAX,
            MovesTo::Narrow(v) => v[i] = u16::MAX,
            MovesTo::Wide(v) => v[i] = u32::MAX,
        }
    }

    /// Widens the counts until `m` fits below the width's marker (once or
    /// twice in a search at most).
    fn fit(&mut self, m: u32) {
        debug_assert!(m < u32::MAX, "a route of 2^32 moves");
        loop {
            let wider = match self {
                MovesTo::Byte(v) if m >= u32::from(u8::MAX) => MovesTo::Narrow(
                    v.iter()
                        .map(|&c| if c == u8::MAX { u16::MAX } else { u16::from(c) })
                        .collect(),
                ),
                MovesTo::Narrow(v) if m >= u32::from(u16::MAX) => MovesTo::Wide(
                    v.iter()
                        .map(|&c| {
                            if c == u16::MAX {
                                u32::MAX
                            } else {
                                u32::from(c)
                            }
                        })
                        .collect(),
                ),
                _ => return,
            };
            *self = wider;
        }
    }

    /// Sets node `i`'s fewest moves to `m` (not settled).
    fn set(&mut self, i: u32, m: u32) {
        self.fit(m);
        let i = i as usize;
        match self {
            MovesTo::Byte(v) => v[i] = m as u8,
            MovesTo::Narrow(v) => v[i] = m as u16,
            MovesTo::Wide(v) => v[i] = m,
        }
    }

    /// Appends a node found for `m` moves (not settled).
    fn push(&mut self, m: u32) {
        self.fit(m);
        match self {
            MovesTo::Byte(v) => {
                super::make_room(v, 1, 1);
                v.push(m as u8);
            }
            MovesTo::Narrow(v) => {
                super::make_room(v, 1, 1);
                v.push(m as u16);
            }
            MovesTo::Wide(v) => {
                super::make_room(v, 1, 1);
                v.push(m);
            }
        }
    }

    fn bytes(&self) -> usize {
        match self {
            MovesTo::Byte(v) => v.capacity(),
            MovesTo::Narrow(v) => v.capacity() * 2,
            MovesTo::Wide(v) => v.capacity() * 4,
        }
    }
}

/// Searches `space` (see the module comment) within `limits`.
pub fn search(
    space: &PushSpace,
    limits: Limits,
    known: Option<Vec<u8>>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    pool::search_starts();
    // A known route (a satisficing one, `satisfice`) bounds the search:
    // only routes shorter than it are looked for, and when none is found
    // it is a shortest one. A search that stops early reports it as found.
    let upper = known.as_ref().map(|r| r.len() as u32);
    let beaten = |best: &Option<(u32, u32, Leg)>, b: u32| {
        best.map(|(m, ..)| m).or(upper).is_some_and(|m| b >= m)
    };
    let with_found = |mut out: Outcome| {
        if matches!(out.verdict, Verdict::Limit | Verdict::Cancelled) {
            out.found.clone_from(&known);
        }
        out
    };
    // A node costs microseconds, an insert a fraction of one: the set's
    // bytes matter more here than its probe runs.
    let mut visited = Visited::compact();
    let mut work = Work::default();
    let Some(mut start) = space.start_key() else {
        return ended(Verdict::Unsolved, None, &visited, 0, 0, 0);
    };
    // Nodes are kept as the least of their images (`PushSpace::canonical`).
    let mut image = Vec::new();
    space.canonical(&mut start, &mut image);
    // Per stored node, the fewest moves found to it, or that it is
    // settled (`MovesTo`); pending nodes by bucket, each its key
    // (`Bucket`).
    let mut moves_to = MovesTo::default();
    let codec = space.codec(&start);
    let mut pending: BTreeMap<(u32, u32), Bucket> = BTreeMap::new();
    let mut pending_bytes = 0usize;
    let fp = space.fingerprint(&start) & visited::KEPT;
    let _ = visited.insert(fp, u32::MAX, 0);
    moves_to.push(0);
    let first = space.bound(&start, &mut work);
    if first >= UNREACHABLE || space.frozen_dead(&start, &mut work) {
        return ended(Verdict::Unsolved, None, &visited, 0, 0, 0);
    }
    file(
        &mut pending,
        &mut pending_bytes,
        (first, first),
        &start,
        &codec,
    );
    let mut key = start.clone();
    let (mut key_ahead, mut key_after) = (start.clone(), start.clone());
    // One node's successors (`Successor`) and their keys, one after another.
    let mut found: Vec<Successor> = Vec::new();
    let mut found_keys: Vec<u32> = Vec::new();
    // The best win so far: (moves, the node it leaves from, the leg).
    let mut best: Option<(u32, u32, Leg)> = None;
    let (mut expanded, mut peak, mut depth) = (0u64, 0usize, 0u32);
    let bytes = |visited: &Visited, moves_to: &MovesTo, pending: usize| {
        visited.bytes() + moves_to.bytes() + pending
    };
    // Buckets are by moves plus a lower bound on the moves left (the full
    // one, `PushSpace::bound`, an assignment, worked out when a node is
    // filed), so a bucket's nodes lead to no win shorter than its number,
    // and a node taken from a bucket has its moves and bound in hand: no
    // entry is ever filed twice for one cost. (Filed under a cheaper
    // bound and moved on once the full one was known, four entries in ten
    // were such moves on the open rooms, each holding a whole key.) The
    // cheap bound only rules successors out before their insert.
    //
    // Within one number, buckets go by the bound left, least first: the
    // nodes nearest a win are taken first, so in the last number, where
    // the win is, it is found before most of that number's nodes are
    // taken, and the search stops there. Any order within a number keeps
    // a node's first settling at its fewest moves: a shorter way to it
    // would file it under a lower number (its bound is the same), whose
    // nodes on that way all come first.
    let mut scratch = Vec::new();
    // The image sets of the node being expanded and of one successor,
    // and the image of a successor filed.
    let (mut parent_sets, mut sets) = (Vec::new(), Vec::new());
    let mut kept = Vec::new();
    while let Some(((bound, _), nodes)) = pending.pop_first() {
        if beaten(&best, bound) {
            pending_bytes -= nodes.bytes();
            break;
        }
        depth = bound;
        progress(Progress {
            expanded,
            stored: visited.len() as u64,
            depth,
        });
        let mut reader = nodes.reader();
        // Every node filed is stored, under its own fingerprint (it is its
        // least image). Nodes are read two ahead of the one expanded: the
        // visited set's slot for the second and then the fingerprint it
        // points to for the first load meanwhile (a block's nodes come in
        // the order of their numbers, so their indexes are far apart).
        let read = |reader: &mut BucketReader, key: &mut Vec<u32>, visited: &Visited| {
            reader.next(key, &codec)?;
            let fp = space.own_fingerprint(key);
            visited.prefetch(fp);
            Some(fp)
        };
        let mut next = read(&mut reader, &mut key_ahead, &visited);
        let mut after = read(&mut reader, &mut key_after, &visited);
        while let Some(fp) = next {
            std::mem::swap(&mut key, &mut key_ahead);
            std::mem::swap(&mut key_ahead, &mut key_after);
            next = after;
            if let Some(fp) = next {
                visited.prefetch_fingerprint(fp);
            }
            after = read(&mut reader, &mut key_after, &visited);
            let Some(index) = visited.find(fp) else {
                debug_assert!(false, "a pending node that is not stored");
                continue;
            };
            // A node found again for fewer moves has a newer entry, taken
            // first (its bucket is lower) and settled then.
            let Some(cost) = moves_to.get(index) else {
                continue;
            };
            // A successor's bucket is no lower than its parent's (the
            // bound is consistent), so an unsettled node's bucket is the
            // one filed for its fewest moves.
            debug_assert!(cost <= bound, "a consistent bound");
            let left = bound.saturating_sub(cost);
            moves_to.settle(index);
            if expanded >= limits.states {
                let used = bytes(&visited, &moves_to, pending_bytes);
                return with_found(ended(
                    Verdict::Limit,
                    Some(LimitKind::States),
                    &visited,
                    expanded,
                    depth,
                    peak.max(used),
                ));
            }
            expanded += 1;
            if expanded.is_multiple_of(1024) {
                let used = bytes(&visited, &moves_to, pending_bytes);
                peak = peak.max(used);
                if cancel.load(Ordering::Relaxed) {
                    return with_found(ended(
                        Verdict::Cancelled,
                        None,
                        &visited,
                        expanded,
                        depth,
                        peak,
                    ));
                }
                if let Err((verdict, limit)) = memory_allows(used, visited.len(), &limits) {
                    return with_found(ended(verdict, limit, &visited, expanded, depth, peak));
                }
                if expanded.is_multiple_of(4096) {
                    progress(Progress {
                        expanded,
                        stored: visited.len() as u64,
                        depth,
                    });
                }
            }
            // The node's successors first, then their inserts: the
            // visited set's cache misses are started together (prefetch)
            // rather than met one after another. Inserts keep the order
            // the successors were found in, so nothing else changes.
            found.clear();
            found_keys.clear();
            space.image_sets(&key[1..], &mut parent_sets);
            space.legs(&key, &mut work, |leg, next| {
                let moves = cost + leg.walk + 1;
                let bound = if leg.won {
                    moves
                } else {
                    let inherited = left.saturating_sub(leg.walk + 1);
                    moves + space.estimate(next, &mut scratch).max(inherited)
                };
                if beaten(&best, bound) {
                    return;
                }
                if leg.won {
                    best = Some((moves, index, leg));
                    return;
                }
                // Stored as the least of its images: its fingerprint now,
                // the image itself only if it is filed.
                found_keys.extend_from_slice(next);
                space.moved_sets(&parent_sets, next[0], leg.past, &mut sets);
                let (fp, which) = space.least_image(next[0], &sets, next.len());
                debug_assert_eq!(
                    fp,
                    space.fingerprint(next),
                    "a successor's image sets follow from its parent's"
                );
                let fp = fp & visited::KEPT;
                found.push(Successor {
                    moves,
                    bound,
                    dir: leg.dir,
                    fp,
                    past: leg.past,
                    image: which as u8,
                });
            });
            for s in &found {
                visited.prefetch(s.fp);
            }
            for s in &found {
                visited.prefetch_fingerprint(s.fp);
            }
            work.parent_solved = false;
            for (s, next) in found.iter().zip(found_keys.chunks_exact(key.len())) {
                let &Successor {
                    moves,
                    bound,
                    dir,
                    fp,
                    past,
                    image: which,
                } = s;
                if beaten(&best, bound) {
                    continue;
                }
                let at = match visited.insert(fp, index, dir) {
                    Insert::New(i) => {
                        moves_to.push(moves);
                        i
                    }
                    Insert::Seen(i) => {
                        // A settled node has its fewest moves already.
                        if moves_to.get(i).is_none_or(|known| known <= moves) {
                            continue;
                        }
                        visited.relink(i, index, dir);
                        moves_to.set(i, moves);
                        i
                    }
                };
                let left = space.bound_after(&key, next, past, &mut work);
                if left >= UNREACHABLE {
                    // No win from here: never expanded, never filed.
                    moves_to.settle(at);
                    continue;
                }
                if beaten(&best, moves + left) {
                    continue;
                }
                kept.clear();
                kept.extend_from_slice(next);
                space.apply_image(&mut kept, usize::from(which), &mut image);
                file(
                    &mut pending,
                    &mut pending_bytes,
                    (moves + left, left),
                    &kept,
                    &codec,
                );
            }
            // A win at this bucket's number is a shortest one: no node
            // here or in a later bucket leads to a shorter.
            if best.is_some_and(|(m, ..)| m <= bound) {
                break;
            }
        }
        peak = peak.max(bytes(&visited, &moves_to, pending_bytes));
        pending_bytes -= nodes.bytes();
    }
    peak = peak.max(bytes(&visited, &moves_to, pending_bytes));
    let Some((moves, index, leg)) = best else {
        // Nothing shorter than the known route: it is a shortest one.
        let verdict = known.map_or(Verdict::Unsolved, Verdict::proven);
        let depth = upper.unwrap_or(depth);
        return ended(verdict, None, &visited, expanded, depth, peak);
    };
    let route = route(space, &visited, index, leg, &mut work);
    debug_assert_eq!(route.len(), moves as usize);
    ended(
        Verdict::proven(route),
        None,
        &visited,
        expanded,
        moves,
        peak,
    )
}

/// A winning route found by a best-first search over pushes, not
/// necessarily a shortest one, or `None` when none wins, or `max_nodes`
/// nodes were expanded, or the nodes kept came to `max_bytes`, or the
/// search was cancelled first.
///
/// Nodes are taken by novelty first (a node holding a PUSH thing on a
/// cell, or the player in a cell, that no node of its bound has had
/// before), then by the assignment bound ([`PushSpace::bound`]), then in
/// the order they were found: best-first width search, which finds
/// routes in open rooms where taking nodes by the bound alone keeps
/// shuffling the same crates. Deterministic: ties go by order found.
pub fn satisfice(
    space: &PushSpace,
    max_nodes: u64,
    max_bytes: usize,
    cancel: &AtomicBool,
) -> Option<Vec<u8>> {
    let mut work = Work::default();
    let start = space.start_key()?;
    let width = start.len();
    // Every node found: its key (as the push left it, not its least
    // image, so each parent-to-child step is one of `legs`) and parent.
    let mut keys: Vec<u32> = start.clone();
    let mut parents: Vec<u32> = vec![u32::MAX];
    let mut seen: HashSet<u128> = HashSet::new();
    seen.insert(space.fingerprint(&start));
    let first = space.bound(&start, &mut work);
    if first >= UNREACHABLE || space.frozen_dead(&start, &mut work) {
        return None;
    }
    // Novelty: (bound, atom) pairs met so far; an atom is a PUSH thing's
    // cell, or the player's cell offset past them.
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    let cells = space.cells as u32;
    let novel = |met: &mut HashSet<(u32, u32)>, bound: u32, key: &[u32]| {
        let mut new = met.insert((bound, cells + key[0]));
        for &c in &key[1..] {
            new |= met.insert((bound, c));
        }
        new
    };
    novel(&mut met, first, &start);
    let mut open = BinaryHeap::new();
    open.push(Reverse((false, first, 0u32)));
    let mut expanded = 0u64;
    let mut key = start.clone();
    let mut found: Vec<(Key, bool)> = Vec::new();
    while let Some(Reverse((_, _, index))) = open.pop() {
        if expanded >= max_nodes {
            return None;
        }
        if expanded.is_multiple_of(1024) {
            let bytes = keys.capacity() * 4
                + parents.capacity() * 4
                + seen.capacity() * 24
                + met.capacity() * 12
                + open.capacity() * 16;
            if cancel.load(Ordering::Relaxed) || bytes >= max_bytes {
                return None;
            }
        }
        expanded += 1;
        let at = index as usize * width;
        key.clear();
        key.extend_from_slice(&keys[at..at + width]);
        found.clear();
        space.legs(&key, &mut work, |leg, next| {
            found.push((next.clone(), leg.won))
        });
        for (next, won) in &found {
            if *won {
                let mut chain = vec![index];
                while let Some(&p) = chain.last().and_then(|&i| parents.get(i as usize)) {
                    if p == u32::MAX {
                        break;
                    }
                    chain.push(p);
                }
                chain.reverse();
                return Some(replay(space, &keys, width, &chain, next, &mut work));
            }
            if !seen.insert(space.fingerprint(next)) || space.frozen_dead(next, &mut work) {
                continue;
            }
            let bound = space.bound(next, &mut work);
            if bound >= UNREACHABLE {
                continue;
            }
            let new = novel(&mut met, bound, next);
            keys.extend_from_slice(next);
            parents.push(index);
            open.push(Reverse((!new, bound, parents.len() as u32 - 1)));
        }
    }
    None
}

/// The moves of a chain of nodes found by [`satisfice`] (each a push's
/// successor of the one before, as `legs` gave it), then the push into
/// `last`: each leg's walk and push, the shortest walk where several
/// pushes give the same node.
fn replay(
    space: &PushSpace,
    keys: &[u32],
    width: usize,
    chain: &[u32],
    last: &[u32],
    work: &mut Work,
) -> Vec<u8> {
    let node = |i: u32| &keys[i as usize * width..(i as usize + 1) * width];
    let mut route = Vec::new();
    let targets = chain[1..]
        .iter()
        .map(|&i| node(i))
        .chain(std::iter::once(last));
    let mut key: Key = node(chain[0]).to_vec();
    for want in targets {
        let mut leg_found: Option<Leg> = None;
        space.legs(&key, work, |leg, k| {
            if k.as_slice() == want && leg_found.is_none_or(|f| leg.walk < f.walk) {
                leg_found = Some(leg);
            }
        });
        let Some(leg) = leg_found else {
            debug_assert!(false, "a satisficing chain that does not replay");
            return route;
        };
        space.walk_to(leg.from, work, &mut route);
        route.push(leg.dir);
        key = want.to_vec();
    }
    route
}

fn ended(
    verdict: Verdict,
    limit: Option<LimitKind>,
    visited: &Visited,
    expanded: u64,
    depth: u32,
    peak: usize,
) -> Outcome {
    Outcome {
        verdict,
        expanded,
        stored: visited.len() as u64,
        depth,
        peak_bytes: peak.max(visited.bytes()),
        visited_bytes: visited.bytes(),
        limit,
        found: None,
        fewest: depth,
    }
}

/// The moves to node `index`, then the winning `last` leg: each leg
/// replayed from the start, the node pushed to picked by its fingerprint.
fn route(space: &PushSpace, visited: &Visited, index: u32, last: Leg, work: &mut Work) -> Vec<u8> {
    let mut chain = vec![index];
    while let Some(p) = chain.last().and_then(|&i| visited.parent(i)) {
        chain.push(p);
    }
    chain.reverse();
    let mut key = space.start_key().unwrap_or_default();
    let mut route = Vec::new();
    // The chain holds nodes as the search kept them, images of the
    // states the route passes through (`PushSpace::canonical`): from
    // each state, the push to an image of the next node with the
    // shortest walk is one the search's own leg mirrors, at its cost.
    for &next in &chain[1..] {
        let want = visited.fingerprint(next);
        let mut found: Option<(Leg, Key)> = None;
        space.legs(&key, work, |leg, k| {
            if leg.won || found.as_ref().is_some_and(|(f, _)| f.walk <= leg.walk) {
                return;
            }
            if space.fingerprint(k) & visited::KEPT == want {
                found = Some((leg, k.clone()));
            }
        });
        let Some((leg, k)) = found else {
            // Unreachable for a sound set: the node was found this way.
            return route;
        };
        // `legs` flooded from `key`, so the walk is read from `work`.
        space.walk_to(leg.from, work, &mut route);
        route.push(leg.dir);
        key = k;
    }
    // The winning push, seen from the node's image: the one from this
    // state with the shortest walk costs what `last` did.
    let mut win: Option<Leg> = None;
    space.legs(&key, work, |leg, _| {
        if leg.won && win.is_none_or(|w| leg.walk < w.walk) {
            win = Some(leg);
        }
    });
    let last = win.unwrap_or(last);
    space.walk_to(last.from, work, &mut route);
    route.push(last.dir);
    route
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testkit;
    use proptest::prelude::*;

    fn room() -> impl Strategy<Value = String> {
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
    fn walled(b: &str) -> Game {
        let mut level = testkit::level(b);
        testkit::terrain(&mut level, &["WALL"]);
        Game::new(&level)
    }

    /// The level of `room` (rows of cells) inside a ring of walls.
    fn sealed(room: &str) -> Game {
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

    fn space_of(game: &Game) -> Option<PushSpace<'_>> {
        let (start, _) = game.reset();
        let rules = game.rules(&start);
        let dead = DeadCells::new(game, &start, &rules)?;
        PushSpace::new(game, &start, &rules, &dead)
    }

    proptest! {
        /// A bucket reads back every node pushed, through its blocks and
        /// its tail, and counts what it holds: keys written as numbers
        /// (read back block by block, each block's in the order of their
        /// numbers) and as cells (in order), far apart and close (cells
        /// folded onto a few values, so most repeat).
        #[test]
        fn buckets_read_back_every_node(
            nodes in prop::collection::vec(
                (any::<u32>(), prop::sample::subsequence((0u32..40).collect::<Vec<_>>(), 5)),
                0..400,
            ),
            wide in any::<bool>(),
            close in any::<bool>(),
            ranked in any::<bool>(),
        ) {
            let mut universe = vec![false; 600];
            universe[..40].fill(true);
            let subsets = Subsets::new(&universe, 5).expect("fits");
            let codec = if ranked {
                Codec::Ranked(Subsets::new(&universe, 5).expect("fits"))
            } else {
                Codec::Cells { wide }
            };
            // Cells: the player's anywhere on the board (within the
            // universe when ranked), then five in increasing order.
            let key_of = |player: u32, set: &[u32]| -> Vec<u32> {
                if ranked {
                    return std::iter::once(player % 40).chain(set.iter().copied()).collect();
                }
                let cell = |c: u32| {
                    let c = if close { c % 3 } else { c };
                    if wide { c % 600 } else { c & 0xFF }
                };
                std::iter::once(cell(player)).chain(set.iter().map(|&c| cell(c))).collect()
            };
            let keys: Vec<Vec<u32>> = nodes.iter().map(|(player, set)| key_of(*player, set)).collect();
            let mut pending = BTreeMap::new();
            let mut bytes = 0;
            for key in &keys {
                file(&mut pending, &mut bytes, (7, 2), key, &codec);
            }
            let bucket = pending.remove(&(7, 2)).unwrap_or_default();
            prop_assert_eq!(bucket.bytes(), bytes);
            prop_assert_eq!(bucket.filed, keys.len() as u64);
            // An entry takes a byte at least, a number more than four
            // bits however close.
            prop_assert!(keys.len() < BLOCK || !bucket.blocks.is_empty());
            prop_assert!(keys.len() < 2 * RUN.1 as usize || !ranked || !bucket.blocks.is_empty());
            let mut reader = bucket.reader();
            let mut key = vec![0; 6];
            let mut back = Vec::new();
            while reader.next(&mut key, &codec).is_some() {
                back.push(key.clone());
            }
            prop_assert_eq!(back.len(), keys.len());
            if ranked {
                // Block by block, the same nodes; each block's sorted.
                let mut from = 0;
                let mut want = keys.clone();
                for block in &bucket.blocks {
                    let mut numbers = Vec::new();
                    prop_assert!(crate::solver::gaps::unpack(block, subsets.width(), &mut numbers));
                    let to = from + numbers.len();
                    let got: Vec<u128> = back[from..to].iter().map(|k| subsets.number(k)).collect();
                    prop_assert_eq!(&got, &numbers);
                    prop_assert!(got.windows(2).all(|w| w[0] <= w[1]));
                    want[from..to].sort_by_key(|k| subsets.number(k));
                    from = to;
                }
                prop_assert_eq!(&back, &want);
            } else {
                prop_assert_eq!(&back, &keys);
            }
        }
    }

    proptest! {
        /// Move counts read back as set, settled or not, through the
        /// switches to two and four bytes a node when one count needs
        /// them; the width is the least that holds every count below its
        /// marker.
        #[test]
        fn move_counts_read_back(
            counts in prop::sample::select(vec![255u32, 256, 65_535, 65_536, 1 << 17])
                .prop_flat_map(|most| {
                    // The largest count is drawn often: the widths' edges.
                    let count = prop_oneof![0..most, Just(most - 1)];
                    prop::collection::vec((count, any::<bool>()), 1..300)
                })
        ) {
            let mut moves = MovesTo::default();
            let mut want = Vec::new();
            for (i, &(count, settled)) in counts.iter().enumerate() {
                let i = i as u32;
                moves.push(count);
                prop_assert_eq!(moves.get(i), Some(count));
                if settled {
                    moves.settle(i);
                }
                let m = (!settled).then_some(count);
                want.push(m);
                prop_assert_eq!(moves.get(i), m);
            }
            let most = counts.iter().map(|&(c, _)| c).max().unwrap_or(0);
            let width = match moves {
                MovesTo::Byte(_) => 1,
                MovesTo::Narrow(_) => 2,
                MovesTo::Wide(_) => 4,
            };
            let least = if most < 255 { 1 } else if most < 65_535 { 2 } else { 4 };
            prop_assert_eq!(width, least);
            for (i, &m) in want.iter().enumerate() {
                prop_assert_eq!(moves.get(i as u32), m);
            }
            // A count set again after the widening reads back too.
            for (i, &m) in want.iter().enumerate() {
                if let Some(m) = m {
                    moves.set(i as u32, m / 2);
                    prop_assert_eq!(moves.get(i as u32), Some(m / 2));
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        /// The native pushes against the engine, on every node a search of
        /// a random room reaches: from each cell the walk reaches, each
        /// move into a PUSH thing gives, on the engine, the successor (and
        /// win) the native push gives, or is refused or dead where the
        /// native push lists nothing; and each walk the flood takes is a
        /// move the engine makes without moving anything else.
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
                prop_assert_eq!(&listed, &engine, "from {:?} on\n{}", key, b);
                queue.extend(native.into_iter().filter(|(l, _)| !l.won).map(|(_, n)| n));
            }
        }
    }

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

    /// The symmetries found: both mirrors and the half turn of a room
    /// with two mirror axes, all seven of a square one, none when a GOAL
    /// cell breaks them; and each node's kept image is the same from any
    /// of its images.
    #[test]
    fn symmetries_of_rooms() {
        let count = |room: &str| space_of(&sealed(room)).map(|s| s.symmetries.len());
        assert_eq!(count("o . . . o\n. $ @ $ .\no . . . o"), Some(3));
        assert_eq!(count("o . o\n$ @ $\no . o"), Some(7));
        assert_eq!(count("o . . . .\n. $ @ $ .\no . . . o"), Some(0));
        let game = sealed("o . o\n$ @ $\no . o");
        let space = space_of(&game).expect("a push space");
        let mut image = Vec::new();
        let mut first = space.start_key().expect("a start");
        space.canonical(&mut first, &mut image);
        for map in &space.symmetries {
            let mut key: Vec<u32> = space
                .start_key()
                .expect("a start")
                .iter()
                .map(|&c| map[c as usize])
                .collect();
            key[1..].sort_unstable();
            space.canonical(&mut key, &mut image);
            assert_eq!(key, first);
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

    impl PushSpace<'_> {
        /// Whether `key` is dead by the live-cell count or by a frozen
        /// set, found here from every PUSH thing at once (the search only
        /// looks when a pushed thing could be part of one).
        fn dead_key(&self, key: &[u32]) -> bool {
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
}
