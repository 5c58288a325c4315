//! The satisficing search: a winning route, not necessarily a shortest one.
//!
//! Stage 4's verdicts are about the shortest route, and a search that runs
//! out of budget before finding it ends in LIMIT, which says nothing about
//! whether the level can be won. On the levels where that happens (crowded
//! boards, long solutions) a route is often easy to find when no one asks
//! for it to be shortest. This search finds one: it proves the level can be
//! won, bounds the shortest route from above, and lets the shortest-route
//! search of the push fragment stop at that bound.
//!
//! **The order.** Best-first width search: states are taken first by
//! *novelty* (a state is novel when it makes true an atom, a thing in a
//! cell or a rule active, that no state of its partition made true before:
//! by default the states of its estimate), then by a [`Guide`]'s estimate
//! of the moves left, then in the order they were found. Novelty keeps the
//! search spreading over the board where the estimate is flat (a rule
//! still to be formed), and the estimate pulls it towards the win where it
//! is not. Ties go by order found, so a route is the same on every machine
//! and for every `jobs`.
//!
//! **Storage.** States are kept as their differences from the start (most
//! of a crowded board never moves), with their parent and action; the
//! visited set holds full 128-bit fingerprints. A search stops at its node
//! budget or its byte cap, whichever comes first, without an answer; in a
//! `check` run the byte cap is the run's, shared with every other search
//! ([`super::pool`]), and the bytes counted are those the tables hold by
//! the next look, growth included.

mod reach;

use super::{Space, fingerprint, hash_set_bytes, pass_may_hold, vec_bytes};
use crate::engine::{Class, Game, Scratch, State, Tok};
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};

/// What a satisficing search knows of a state beyond its words.
pub trait Guide {
    /// The novelty partition of packed state `s` and an estimate of the
    /// moves from it to a win (any number: smaller is nearer; it need not be
    /// a lower bound), with the state's atoms appended to `atoms` (small
    /// numbers naming facts of the state). A state is novel when it makes
    /// an atom true that no state of its partition made true before.
    fn judge(&self, s: &[u32], atoms: &mut Vec<u32>) -> Judged;
}

/// What a [`Guide`] tells of a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Judged {
    /// The states whose atoms this state's are compared with for novelty.
    pub partition: u32,
    /// The estimate of the moves left: the order among states alike in novelty.
    pub estimate: u32,
}

/// The stored states: each as its differences from the start.
struct Store {
    start: Vec<u32>,
    /// (word index, word) pairs, state after state.
    diffs: Vec<(u32, u32)>,
    /// Per state, the end of its pairs in `diffs`.
    ends: Vec<u32>,
    /// Per state, its parent and the action from it (the start: `u32::MAX`).
    parents: Vec<(u32, u8)>,
}

impl Store {
    fn push(&mut self, s: &[u32], parent: u32, action: u8) -> u32 {
        for (i, (&a, &b)) in s.iter().zip(&self.start).enumerate() {
            if a != b {
                self.diffs.push((i as u32, a));
            }
        }
        self.ends.push(self.diffs.len() as u32);
        self.parents.push((parent, action));
        (self.ends.len() - 1) as u32
    }

    fn load(&self, i: u32, out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(&self.start);
        let i = i as usize;
        let from = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        for &(k, w) in &self.diffs[from..self.ends[i] as usize] {
            out[k as usize] = w;
        }
    }

    fn route(&self, mut i: u32) -> Vec<u8> {
        let mut route = Vec::new();
        while let Some(&(parent, action)) = self.parents.get(i as usize) {
            if parent == u32::MAX {
                break;
            }
            route.push(action);
            i = parent;
        }
        route.reverse();
        route
    }

    /// The bytes held once `states` more states of at most `words`
    /// changed words each are stored.
    fn bytes(&self, states: usize, words: usize) -> usize {
        let (d, e, p) = (&self.diffs, &self.ends, &self.parents);
        vec_bytes::<(u32, u32)>(d.len(), d.capacity(), states * words)
            + vec_bytes::<u32>(e.len(), e.capacity(), states)
            + vec_bytes::<(u32, u8)>(p.len(), p.capacity(), states)
    }
}

/// Atoms met so far, each with the partition of the state that met it.
#[derive(Default)]
struct Novelty {
    met: HashSet<(u32, u32)>,
}

impl Novelty {
    /// Whether a state of `partition` with `atoms` is novel (and records them).
    fn novel(&mut self, partition: u32, atoms: &[u32]) -> bool {
        let mut new = false;
        for &a in atoms {
            new |= self.met.insert((partition, a));
        }
        new
    }

    /// The bytes held once `more` atoms more are met.
    fn bytes(&self, more: usize) -> usize {
        hash_set_bytes::<(u32, u32)>(self.met.len(), self.met.capacity(), more)
    }
}

/// Expansions between two looks at the cancel flag and the memory held.
const CHECKPOINT: u64 = 1024;

/// A winning route of `space` (action indices), found best-first as the
/// module describes, or `None` when none wins, or `max_states` states were
/// expanded, or the memory held would pass `max_bytes` (in a `check` run,
/// what the run's pool grants: [`super::pass_may_hold`]), or `cancel` was
/// set.
/// Pruned turns have no successor, as in the shortest-route search.
pub fn satisfice<S: Space, G: Guide>(
    space: &S,
    guide: &G,
    max_states: u64,
    max_bytes: usize,
    cancel: &AtomicBool,
) -> Option<Vec<u8>> {
    super::pool::search_starts();
    let mut start = Vec::new();
    space.start(&mut start);
    let mut store = Store {
        start: start.clone(),
        diffs: Vec::new(),
        ends: Vec::new(),
        parents: Vec::new(),
    };
    store.push(&start, u32::MAX, 0);
    let mut seen: HashSet<u128> = HashSet::new();
    seen.insert(fingerprint::of_words(&start));
    let mut novelty = Novelty::default();
    let mut atoms = Vec::new();
    let judged = guide.judge(&start, &mut atoms);
    novelty.novel(judged.partition, &atoms);
    // (not novel, estimate, order found): the least first.
    let mut open = BinaryHeap::new();
    open.push(Reverse((false, judged.estimate, 0u32)));
    let (mut state, mut next) = (Vec::new(), Vec::new());
    let mut expanded = 0u64;
    while let Some(Reverse((_, _, i))) = open.pop() {
        if expanded >= max_states {
            return None;
        }
        if expanded.is_multiple_of(CHECKPOINT) {
            // What the pass holds by the next checkpoint: each expansion
            // adds at most one state per action, each with its atoms.
            let states = CHECKPOINT as usize * space.action_count();
            let bytes = store.bytes(states, start.len())
                + hash_set_bytes::<u128>(seen.len(), seen.capacity(), states)
                + vec_bytes::<Reverse<(bool, u32, u32)>>(open.len(), open.capacity(), states)
                + novelty.bytes(states * atoms.len().max(1));
            if cancel.load(Ordering::Relaxed) || !pass_may_hold(bytes, max_bytes) {
                return None;
            }
        }
        expanded += 1;
        store.load(i, &mut state);
        space.enter(&state);
        for action in 0..space.action_count() {
            next.clear();
            let Some(turn) = space.step(&state, action, &mut next) else {
                continue;
            };
            if turn.won {
                let mut route = store.route(i);
                route.push(action as u8);
                return Some(route);
            }
            if turn.pruned || !seen.insert(fingerprint::of_words(&next)) {
                continue;
            }
            atoms.clear();
            let judged = guide.judge(&next, &mut atoms);
            let new = novelty.novel(judged.partition, &atoms);
            let j = store.push(&next, i, action as u8);
            open.push(Reverse((!new, judged.estimate, j)));
        }
    }
    None
}

/// A winning route of `space`, a level of `game` searched over moves, by
/// the five [`LevelGuide`]s in turn: [`LevelGuide::new`]'s pass of
/// `states.0` states, then, when it found none and its states held more
/// than one rule set ([`LevelGuide::saw_rules_change`]: else the later
/// passes would add no atom nor partition, and no kind could become YOU),
/// [`LevelGuide::by_changes`]'s, [`LevelGuide::by_rule_set`]'s,
/// [`LevelGuide::by_becoming`]'s and [`LevelGuide::by_reach`]'s, of
/// `states.1` each.
/// A pass's route counts only when `wins` holds for it (replayed on the
/// engine), so one that doesn't leaves the next pass its turn; the rest is
/// [`satisfice`]'s, with the same `max_bytes` and `cancel` for each pass.
pub fn satisfice_level<S: Space>(
    space: &S,
    game: &Game,
    states: (u64, u64),
    max_bytes: usize,
    cancel: &AtomicBool,
    wins: impl Fn(&[u8]) -> bool,
) -> Option<Vec<u8>> {
    let pass = |guide: &LevelGuide, states: u64| {
        satisfice(space, guide, states, max_bytes, cancel).filter(|route| wins(route))
    };
    let plain = LevelGuide::new(game);
    pass(&plain, states.0).or_else(|| {
        if !plain.saw_rules_change() {
            return None;
        }
        pass(&LevelGuide::by_changes(game), states.1)
            .or_else(|| pass(&LevelGuide::by_rule_set(game), states.1))
            .or_else(|| pass(&LevelGuide::by_becoming(game), states.1))
            .or_else(|| pass(&LevelGuide::by_reach(game), states.1))
    })
}

/// The engine's [`Guide`] for a level's move search.
///
/// The estimate is the least of: the distance from a YOU thing to a WIN
/// thing (a win is a YOU thing on a WIN thing); twice the distances from
/// each GOAL thing to its nearest PUSH thing, plus the player's distance
/// to the nearest PUSH thing (a win covers every GOAL thing); and, with an
/// offset, the distances that would line up a noun word, an IS word and a
/// WIN word into a rule (a level whose win is still to be written). Atoms
/// are each thing's cell and each active rule; the guide made by
/// [`LevelGuide::by_rule_set`] adds each YOU thing's cell under the state's
/// whole rule set, and the one made by [`LevelGuide::by_changes`] adds
/// those too and partitions novelty by the state's changes from the start.
pub struct LevelGuide<'g> {
    game: &'g Game,
    /// The state judged, the engine's buffers and the property sets.
    work: RefCell<(State, Scratch, Vec<u64>)>,
    bits: (u64, u64, u64, u64),
    /// Whether YOU things' cells under the whole rule set are atoms.
    rule_sets: bool,
    /// The start's rules (sorted) and each thing's noun at the start
    /// (`None`: gone), when novelty is partitioned by the changes from
    /// them ([`LevelGuide::by_changes`]).
    start: Option<Start>,
    /// The hash of the first rule set judged, and whether another was.
    first_set: Cell<Option<u64>>,
    rules_changed: Cell<bool>,
    /// The STOP property's bit, when the estimate also sees kinds that
    /// could become YOU ([`LevelGuide::by_becoming`]).
    becoming: Option<u64>,
    /// The bits the walks of [`LevelGuide::by_reach`]'s estimate read.
    reach: Option<reach::Walls>,
}

/// A level's start as [`LevelGuide::by_changes`] counts changes from it:
/// its rules, sorted, and each thing's noun (`None`: gone).
type Start = (Vec<(Tok, Tok)>, Vec<Option<Tok>>);

impl<'g> LevelGuide<'g> {
    /// The guide of `game`'s levels.
    pub fn new(game: &'g Game) -> Self {
        Self::with_atoms(game, false)
    }

    /// The guide of `game`'s levels whose atoms also hold each YOU thing's
    /// cell under the state's whole rule set: a YOU thing walking where it
    /// has walked before is novel again once the rules it walks under are,
    /// so the search tries each rule set it forms on the rest of the board
    /// (a level won only through several rules formed in turn, each opening
    /// the way to the next). Where rules seldom change it spreads the search
    /// thinner than [`LevelGuide::new`]'s, so it runs after that one
    /// ([`satisfice_level`]).
    pub fn by_rule_set(game: &'g Game) -> Self {
        Self::with_atoms(game, true)
    }

    /// The rule-set guide ([`LevelGuide::by_rule_set`]) with novelty
    /// partitioned by how far a state has come from the start: the rules
    /// formed or broken plus the things turned into another kind or gone,
    /// then by the estimate. A state one change further on (a rule formed, a
    /// kind of thing turned into another) starts a width search of its own,
    /// in which walks over cells long familiar are new again, as planners
    /// partition novelty by the goals reached; a rule set's hash alone does
    /// not, since breaking a rule once used (a transform) returns to a
    /// familiar set while the things it changed stay changed. It finds the
    /// routes of Keke 161 and 176, whose states spread too thin under the
    /// other two guides' partitions (docs/performance.md).
    pub fn by_changes(game: &'g Game) -> Self {
        let (start, _) = game.reset();
        let rules = game.rules(&start).pairs;
        let nouns = (0..game.ents.len())
            .map(|e| game.noun(&start, e as u16))
            .collect();
        LevelGuide {
            start: Some((rules, nouns)),
            ..Self::with_atoms(game, true)
        }
    }

    /// The plain guide ([`LevelGuide::new`]) whose estimate also sees the
    /// things that could become YOU: those of a kind whose noun word, an IS
    /// word and a word that would make it YOU (YOU, or the noun of a kind
    /// that is YOU) all lie loose (see [`LevelGuide::becoming`]). A level
    /// whose present YOU things can't reach the WIN thing alive (DEFEAT
    /// all around it) is won by pushing another kind's thing there and
    /// then making it YOU, and only this estimate rewards the pushing. It
    /// finds the route of Keke 196, where the other guides find none
    /// (docs/performance.md), so it runs after them ([`satisfice_level`]).
    pub fn by_becoming(game: &'g Game) -> Self {
        let stop = game.tok("STOP").map_or(0, |t| game.vocab.prop_bit(t));
        LevelGuide {
            becoming: Some(stop),
            ..Self::new(game)
        }
    }

    /// The changes guide ([`LevelGuide::by_changes`]) whose estimate
    /// measures walks around STOP things ([`LevelGuide::reach_estimate`]):
    /// where STOP things wall the YOU things into pockets, only states in
    /// which a way has opened to the things a WIN rule would serve come
    /// first. It finds the route of Keke 136, where BABA makes LOVE, FLAG
    /// and then the GRASS walls YOU in turn, the grass sinks a way open,
    /// and a love walks to the rock once ROCK IS WIN forms; the other
    /// guides find none (docs/performance.md), so it runs last
    /// ([`satisfice_level`]).
    pub fn by_reach(game: &'g Game) -> Self {
        let bit = |name: &str| game.tok(name).map_or(0, |t| game.vocab.prop_bit(t));
        LevelGuide {
            reach: Some(reach::Walls {
                stop: bit("STOP"),
                sink: bit("SINK"),
            }),
            ..Self::by_changes(game)
        }
    }

    fn with_atoms(game: &'g Game, rule_sets: bool) -> Self {
        let bit = |name: &str| game.tok(name).map_or(0, |t| game.vocab.prop_bit(t));
        LevelGuide {
            game,
            work: RefCell::new((game.reset().0, Scratch::default(), Vec::new())),
            bits: (bit("YOU"), bit("WIN"), bit("GOAL"), bit("PUSH")),
            rule_sets,
            start: None,
            first_set: Cell::new(None),
            rules_changed: Cell::new(false),
            becoming: None,
            reach: None,
        }
    }

    /// Whether the states judged so far hold more than one rule set (as
    /// far as a 64-bit hash of the set tells them apart). Where they
    /// don't, the rule-set guide's atoms add nothing to this guide's.
    pub fn saw_rules_change(&self) -> bool {
        self.rules_changed.get()
    }

    fn class(&self, t: Tok) -> Class {
        self.game.vocab.class(t)
    }

    /// The novelty partition of a state of `rules` and `estimate`: the
    /// estimate, or under [`LevelGuide::by_changes`] the changes from the
    /// start's rules and things' nouns too (read from the state judged).
    fn partition(&self, state: &State, rules: &[(Tok, Tok)], estimate: u32) -> u32 {
        let Some((start_rules, start_nouns)) = &self.start else {
            return estimate;
        };
        let formed = rules
            .iter()
            .filter(|r| start_rules.binary_search(r).is_err());
        let broken = start_rules
            .iter()
            .filter(|r| rules.binary_search(r).is_err());
        let turned = start_nouns
            .iter()
            .enumerate()
            .filter(|&(e, &noun)| self.game.noun(state, e as u16) != noun);
        let changes = formed.count() + broken.count() + turned.count();
        // Estimates stay below 2^21 (`HOPELESS` is 2^20); more than 2^11
        // changes share a partition, which only makes states less novel.
        (changes.min(0x7ff) as u32) << 21 | estimate
    }
}

impl LevelGuide<'_> {
    /// Each thing and word of packed state `s` (loaded in `state`) that is
    /// on the board: its entity index, whether it is a word, its noun and
    /// its cell.
    fn placed<'a>(
        &'a self,
        s: &'a [u32],
        state: &'a State,
    ) -> impl Iterator<Item = (usize, bool, Tok, (i32, i32))> + 'a {
        self.game
            .ents
            .iter()
            .enumerate()
            .filter_map(move |(e, info)| {
                let (x, y) = Game::cell_in(s, e as u16)?;
                let t = self.game.noun(state, e as u16)?;
                Some((e, info.word, t, (i32::from(x), i32::from(y))))
            })
    }

    /// The estimate through a kind that could become YOU, for state `s`
    /// (loaded in `state`, its things' properties `props`), `None` where
    /// no kind could: the least, over things of a kind whose noun word lies
    /// loose, with a loose IS word and a loose word that would make the kind
    /// YOU, of the thing's distance to the nearest WIN cell plus the steps
    /// its noun word and that word need to line up about an IS word. A word
    /// is loose when the cells on both sides of it along a line hold neither
    /// a STOP thing nor a word, so that it could still be pushed into a
    /// sentence; words sealed behind walls (as the rules kept out of reach
    /// on many maps) then count for nothing.
    fn becoming(&self, s: &[u32], state: &State, props: &[u64], win: &[(i32, i32)]) -> Option<u32> {
        let stop_bit = self.becoming?;
        let (you_bit, ..) = self.bits;
        if win.is_empty() {
            return None;
        }
        let (w, h) = (i32::from(self.game.width), i32::from(self.game.height));
        let mut blocked = vec![false; (w * h) as usize];
        let (mut words, mut things, mut you_kinds) = (vec![], vec![], vec![]);
        for (e, word, t, at) in self.placed(s, state) {
            if word {
                blocked[(at.1 * w + at.0) as usize] = true;
                words.push((t, at));
                continue;
            }
            if props[e] & stop_bit != 0 {
                blocked[(at.1 * w + at.0) as usize] = true;
            }
            if props[e] & you_bit != 0 {
                you_kinds.push(t);
            }
            things.push((t, at));
        }
        let free = |(x, y): (i32, i32)| {
            (0..w).contains(&x) && (0..h).contains(&y) && !blocked[(y * w + x) as usize]
        };
        let loose = |(x, y): (i32, i32)| {
            (free((x - 1, y)) && free((x + 1, y))) || (free((x, y - 1)) && free((x, y + 1)))
        };
        let makes_you = |t: Tok| match self.class(t) {
            Class::Noun => you_kinds.contains(&t),
            _ => self.game.vocab.prop_bit(t) & you_bit != 0,
        };
        let is: Vec<_> = words
            .iter()
            .filter(|&&(t, at)| self.class(t) == Class::Is && loose(at))
            .map(|&(_, at)| at)
            .collect();
        let you_words: Vec<_> = words
            .iter()
            .filter(|&&(t, at)| makes_you(t) && loose(at))
            .map(|&(_, at)| at)
            .collect();
        if is.is_empty() || you_words.is_empty() {
            return None;
        }
        let mut best = None::<u32>;
        for &(noun, at) in &words {
            if self.class(noun) != Class::Noun || you_kinds.contains(&noun) || !loose(at) {
                continue;
            }
            let line_up = is
                .iter()
                .flat_map(|&i| [(1, 0), (0, 1)].map(|(dx, dy)| (i, dx, dy)))
                .map(|(i, dx, dy)| {
                    let after = (i.0 + dx, i.1 + dy);
                    let you = you_words.iter().map(|&y| taxicab(y, after)).min();
                    taxicab(at, (i.0 - dx, i.1 - dy)) + you.unwrap_or(0)
                })
                .min()
                .unwrap_or(0);
            let nearest_win = things
                .iter()
                .filter(|&&(t, _)| t == noun)
                .filter_map(|&(_, from)| win.iter().map(|&g| taxicab(from, g)).min())
                .min();
            if let Some(d) = nearest_win {
                best = Some(best.map_or(d + line_up, |b| b.min(d + line_up)));
            }
        }
        best
    }
}

/// How many times a YOU thing's step toward a WIN thing counts in the
/// estimate of [`LevelGuide::by_becoming`]: more than a pushed thing's
/// (1), so the search moves the things that could become YOU rather than
/// walking the YOU things it has into the DEFEAT cells around the WIN
/// thing. Three finds Keke 196's route in fewer states than two; one finds
/// none within a million (docs/performance.md).
const YOU_TO_WIN: u32 = 3;

/// Taxicab distance between two cells.
fn taxicab(a: (i32, i32), b: (i32, i32)) -> u32 {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1)
}

/// Offset of the rule-forming estimate: a win already possible on the board
/// comes first.
const FORMING: u32 = 20;

/// What an estimate is when no YOU thing is left: never a win.
const HOPELESS: u32 = 1 << 20;

impl Guide for LevelGuide<'_> {
    fn judge(&self, s: &[u32], atoms: &mut Vec<u32>) -> Judged {
        let (you_bit, win_bit, goal_bit, push_bit) = self.bits;
        let mut work = self.work.borrow_mut();
        let (state, scratch, props) = &mut *work;
        state.load_words(s);
        let rules = self.game.rules_and_props(state, scratch, props);
        let (mut you, mut win, mut goal, mut push) = (vec![], vec![], vec![], vec![]);
        let (mut nouns, mut is, mut wins) = (vec![], vec![], vec![]);
        for (e, info) in self.game.ents.iter().enumerate() {
            let Some((x, y)) = Game::cell_in(s, e as u16) else {
                continue;
            };
            atoms.push((e as u32) << 16 | u32::from(y) << 8 | u32::from(x));
            let at = (i32::from(x), i32::from(y));
            let p = props[e];
            for (bit, list) in [
                (you_bit, &mut you),
                (win_bit, &mut win),
                (goal_bit, &mut goal),
                (push_bit, &mut push),
            ] {
                if p & bit != 0 {
                    list.push(at);
                }
            }
            if info.word
                && let Some(t) = self.game.noun(state, e as u16)
            {
                match self.class(t) {
                    Class::Is => is.push(at),
                    Class::Prop(_) if self.game.vocab.prop_bit(t) & win_bit != 0 => wins.push(at),
                    Class::Noun => nouns.push(at),
                    _ => {}
                }
            }
        }
        // The rule set's 14-bit hash (FNV-1a over its pairs): atoms of two
        // rule sets may meet, which only makes a state less novel than it is.
        let mut set = 0xcbf2_9ce4_8422_2325u64;
        for &(subject, predicate) in &rules.pairs {
            atoms.push(1 << 31 | u32::from(subject) << 15 | u32::from(predicate));
            let pair = u64::from(subject) << 16 | u64::from(predicate);
            set = (set ^ pair).wrapping_mul(0x0100_0000_01b3);
        }
        match self.first_set.get() {
            None => self.first_set.set(Some(set)),
            Some(first) => self
                .rules_changed
                .set(self.rules_changed.get() | (first != set)),
        }
        let judged = |estimate| Judged {
            partition: self.partition(state, &rules.pairs, estimate),
            estimate,
        };
        if you.is_empty() {
            return judged(HOPELESS);
        }
        if self.rule_sets {
            let set = (set >> 50) as u32;
            for &(x, y) in &you {
                atoms.push(1 << 30 | set << 16 | (y as u32) << 8 | x as u32);
            }
        }
        if let Some(walls) = self.reach {
            return judged(self.reach_estimate(s, state, props, walls));
        }
        let nearest =
            |from: (i32, i32), to: &[(i32, i32)]| to.iter().map(|&t| taxicab(from, t)).min();
        let mut best = self.becoming(s, state, props, &win).unwrap_or(HOPELESS);
        let walk = if self.becoming.is_some() {
            YOU_TO_WIN
        } else {
            1
        };
        for &y in &you {
            best = best.min(nearest(y, &win).map_or(HOPELESS, |d| walk * d));
        }
        if !goal.is_empty() && !push.is_empty() {
            let apart: u32 = goal.iter().filter_map(|&g| nearest(g, &push)).sum();
            let reach = you
                .iter()
                .filter_map(|&y| nearest(y, &push))
                .min()
                .unwrap_or(0);
            best = best.min(2 * apart + reach);
        }
        for &i in &is {
            for (dx, dy) in [(1, 0), (0, 1)] {
                let noun = nearest((i.0 - dx, i.1 - dy), &nouns);
                let prop = nearest((i.0 + dx, i.1 + dy), &wins);
                if let (Some(a), Some(b)) = (noun, prop) {
                    let reach = you.iter().map(|&y| taxicab(y, i)).min().unwrap_or(0);
                    best = best.min(FORMING + 3 * (a + b) + reach / 2);
                }
            }
        }
        judged(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::level::{Constraints, LevelSpace, SATISFICE_FIRST_MOVES};

    /// Keke competition map 162 (`full_biy`): no WIN rule at the start,
    /// and the words that could form one lie past GOOP (SINK) and SKULL
    /// (DEFEAT). Its route walks over the same cells under one rule set
    /// after another, so those states are novel only through the atoms of
    /// YOU things under the whole rule set.
    const KEKE_162: &str = "__________\n_B12..G10_\n_sss....._\n_gg..b.1._\n_Fgsr.r5._\n\
                            _.gsr.R.._\n_.gs....._\n_.gssss.._\n_.13S141F_\n__________";

    /// Keke competition map 196 (`full_biy`, "Battering Ram"): the flag
    /// stands in a field of LOVE (KILL, this game's DEFEAT) with four free
    /// cells below it; the rules that make it so are sealed behind walls.
    const KEKE_196: &str = "____________________\n_Wwvvvvvvvfvvvvvvvv_\n_1wvvvvvvv.vvvvvvvv_\n\
                             _6wvvvvvvv.vvvvvvvv_\n_Fwvvvvvvv.vvvvvvvv_\n_1wvvvvvvv.vvvvvvvv_\n\
                             _3wvvvvvvvvvvvvvvvv_\n_Vwvvvvvvvvvvvvvvvv_\n_1wvvvvvvvvvvvvvvvv_\n\
                             _4wvvvvvvvvvvvvvvvv_\n_wwvvvvvvvvvvvvvvvv_\n_..............s..._\n\
                             _......r.r.....sS.._\n_...b..rrr.....s1.._\n_..B12..R......s4.._\n\
                             _.......1......s..._\n_.......5..O1O.s..._\n_..............w..._\n\
                             _..............w..._\n____________________";

    /// The level of `ascii`, a core-only Keke map.
    fn keke(id: &str, ascii: &str) -> Game {
        Game::new(&crate::import::keke::level(id, ascii).expect("a core-only map"))
    }

    /// 162 gets a route within the first passes' states, the plain guide's
    /// pass finding none: a later pass wins it, and the rule-set guide's on
    /// its own does too.
    #[test]
    fn keke_162_is_won_by_a_later_pass() {
        let game = keke("162", KEKE_162);
        let space = LevelSpace::new(&game, Constraints::default());
        let cancel = AtomicBool::new(false);
        let (_, by_rule_set) = SATISFICE_FIRST_MOVES;
        let plain = LevelGuide::new(&game);
        let by_cells = satisfice(&space, &plain, by_rule_set, 1 << 30, &cancel);
        assert_eq!(
            by_cells, None,
            "the plain guide finds none in as many states"
        );
        assert!(plain.saw_rules_change());
        let alone = satisfice(
            &space,
            &LevelGuide::by_rule_set(&game),
            by_rule_set,
            1 << 30,
            &cancel,
        );
        assert!(alone.is_some_and(|route| space.wins(&route)));
        let wins = |route: &[u8]| space.wins(route);
        let found = satisfice_level(&space, &game, SATISFICE_FIRST_MOVES, 1 << 30, &cancel, wins);
        let route = found.expect("a route within the first passes' states");
        assert!(space.wins(&route));
        // Rules formed in turn, far apart: no short route.
        assert!(route.len() > 40, "{}", route.len());
    }

    /// Keke competition map 161 (`full_biy`): 162 with its second row
    /// open, so BABA can push words up under the top row's rules and the
    /// rule sets multiply. The guide partitioned by changes from the start
    /// wins it within `STATES`; the plain and rule-set guides find none in
    /// as many (nor in millions). The route makes GOOP IS ROCK, then ROCK
    /// IS WIN once the rule that turned the goop is broken again.
    #[test]
    fn keke_161_is_won_by_the_changes_guide() {
        const STATES: u64 = 100_000;
        let game = keke(
            "161",
            "__________\n_B12..G10_\n_........_\n_gg..b.1._\n_Fgsr.r5._\n\
             _.gsr.R.._\n_.gs....._\n_.gssss.._\n_.13S141F_\n__________",
        );
        let space = LevelSpace::new(&game, Constraints::default());
        let cancel = AtomicBool::new(false);
        let pass = |guide: LevelGuide| satisfice(&space, &guide, STATES, 1 << 30, &cancel);
        assert_eq!(pass(LevelGuide::new(&game)), None);
        assert_eq!(pass(LevelGuide::by_rule_set(&game)), None);
        let route = pass(LevelGuide::by_changes(&game)).expect("the changes guide's route");
        assert!(space.wins(&route));
        let wins = |route: &[u8]| space.wins(route);
        let found = satisfice_level(&space, &game, SATISFICE_FIRST_MOVES, 1 << 30, &cancel, wins);
        assert_eq!(found, Some(route), "the first passes find it");
    }

    /// Keke map 196 ("Battering Ram") can be won here by a route made by
    /// hand: DEFEAT (the map's KILL) harms only YOU things, so six pushed
    /// things stack up the flag's column across the DEFEAT cells, the
    /// first one, a rock, ending beside the flag's free cells; then ROCK IS
    /// BABA (beside BABA IS YOU) makes it YOU and it walks to the flag. So
    /// no bound on where a YOU thing can go alive may call the map
    /// unsolved, whatever the guides find.
    #[test]
    fn keke_196_can_be_won() {
        let game = keke("196", KEKE_196);
        let space = LevelSpace::new(&game, Constraints::default());
        let route: Vec<u8> = concat!(
            "UURRRRDRURRDDLUURDDDLLUULURDRULLLLDRRRDRUULLLLDDDRUULURRRDRU",
            "LLLDDRRDRUUUDDDDDDRUUUUURULDLUDDDLLLDLUURULLLRRRRRDDDLLDLUURULLL",
            "UUUU",
        )
        .chars()
        .map(|c| "UDLR".find(c).expect("a move") as u8)
        .collect();
        assert_eq!(route.len(), 128);
        assert!(space.wins(&route), "the stacked rock walks to the flag");
        assert!(!space.wins(&route[..124]), "not before it gets there");
    }

    /// Keke 196 is won by the guide that sees things that could become YOU
    /// (its route stacks rocks up the flag's column, then makes them
    /// BABA), within the first passes' states, where the plain guide it
    /// extends finds none in as many.
    #[test]
    fn keke_196_is_won_by_the_becoming_guide() {
        let game = keke("196", KEKE_196);
        let space = LevelSpace::new(&game, Constraints::default());
        let cancel = AtomicBool::new(false);
        let (_, states) = SATISFICE_FIRST_MOVES;
        let pass = |guide: LevelGuide| satisfice(&space, &guide, states, 1 << 30, &cancel);
        assert_eq!(pass(LevelGuide::new(&game)), None);
        let route = pass(LevelGuide::by_becoming(&game)).expect("the becoming guide's route");
        assert!(space.wins(&route));
    }

    /// The changes guide's partition counts the rules formed or broken and
    /// the things turned into another kind or gone, from the start's: a
    /// state's partition moves with each such change and not with a walk.
    #[test]
    fn the_changes_guide_partitions_by_changes_from_the_start() {
        let game = Game::new(&crate::engine::testkit::level(
            "MIAU IS YOU . .\n. . . . .\nm ROCK . IS FLAG\n. . . r .",
        ));
        let space = LevelSpace::new(&game, Constraints::default());
        let guide = LevelGuide::by_changes(&game);
        let changes = |route: &[u8]| {
            let mut s = Vec::new();
            space.start(&mut s);
            for &a in route {
                let mut next = Vec::new();
                space.enter(&s);
                space.step(&s, a as usize, &mut next).expect("a turn");
                s = next;
            }
            guide.judge(&s, &mut Vec::new()).partition >> 21
        };
        // Input indices: up, down, left, right.
        assert_eq!(changes(&[]), 0);
        assert_eq!(changes(&[0]), 0, "a walk changes nothing");
        // Pushing ROCK right forms ROCK IS FLAG, which turns the rock.
        assert_eq!(changes(&[3]), 2);
        assert_eq!(changes(&[3, 0]), 2, "a walk after a change");
        // Pushing ROCK up from below breaks the rule again; the flag stays.
        assert_eq!(changes(&[3, 1, 3, 0]), 1);
    }

    /// Keke competition map 20 (`full_biy`), where the two guides find
    /// different routes (26 and 17 steps): the passes in turn give the
    /// plain guide's, so a level it wins keeps the route it had before the
    /// rule-set pass existed.
    #[test]
    fn the_plain_guides_pass_comes_first() {
        let game = keke(
            "20",
            "__________\n_bB1...2._\n_..fR1SF._\n_1...31s._\n_3.r..2.1_\n__________",
        );
        let space = LevelSpace::new(&game, Constraints::default());
        let cancel = AtomicBool::new(false);
        let (plain, by_rule_set) = SATISFICE_FIRST_MOVES;
        let pass = |guide: LevelGuide, states| satisfice(&space, &guide, states, 1 << 30, &cancel);
        let by_cells = pass(LevelGuide::new(&game), plain).expect("the plain guide's route");
        let other = pass(LevelGuide::by_rule_set(&game), by_rule_set).expect("a rule-set route");
        assert_ne!(by_cells, other, "the guides differ here");
        let wins = |route: &[u8]| space.wins(route);
        let found = satisfice_level(&space, &game, SATISFICE_FIRST_MOVES, 1 << 30, &cancel, wins);
        assert_eq!(found, Some(by_cells));
    }

    /// The plain guide tells whether its states held more than one rule
    /// set: not in a room whose only words can't move, but once a word
    /// pushed out of line breaks a rule.
    #[test]
    fn the_plain_guide_sees_rules_change() {
        let seen = |text: &str| {
            let game = Game::new(&crate::engine::testkit::level(text));
            let space = LevelSpace::new(&game, Constraints::default());
            let guide = LevelGuide::new(&game);
            let found = satisfice(&space, &guide, 1000, 1 << 30, &AtomicBool::new(false));
            assert_eq!(found, None, "no WIN: no route");
            guide.saw_rules_change()
        };
        assert!(!seen("MIAU IS YOU\n. m . .\n. . . ."));
        assert!(seen(
            "MIAU IS YOU\n. . . .\n. m ROCK .\n. . IS .\n. . PUSH ."
        ));
    }

    /// Keke competition map 136 (`full_biy`): BABA, LOVE, FLAG and ROCK each
    /// in a pocket walled by GRASS (STOP and SINK, rules no one can reach),
    /// and no WIN rule on the board.
    const KEKE_136: &str = "__________\n_V.2a..12_\n_B12avF.._\n_bv.a...._\n_aaaaaaaa_\n\
                            _...a...._\n_r.Ra.A.._\n_A16a1..._\n_A1032f3._\n__________";

    /// 136 is won by the guide that walks around walls, within the first
    /// passes' states, where the changes guide it extends finds none in
    /// as many: LOVE IS YOU, FLAG IS YOU and GRASS IS YOU in turn, the
    /// grass sinks a way open, and a love walks to the rock once ROCK IS
    /// WIN forms.
    #[test]
    fn keke_136_is_won_by_the_reach_guide() {
        let game = keke("136", KEKE_136);
        let space = LevelSpace::new(&game, Constraints::default());
        let cancel = AtomicBool::new(false);
        let (_, states) = SATISFICE_FIRST_MOVES;
        let pass = |guide: LevelGuide| satisfice(&space, &guide, states, 1 << 30, &cancel);
        assert_eq!(pass(LevelGuide::by_changes(&game)), None);
        let route = pass(LevelGuide::by_reach(&game)).expect("the reach guide's route");
        assert!(space.wins(&route));
    }

    /// The reach guide's estimate walks around STOP things: a WIN thing
    /// behind a wall costs as much as crossing the board twice, where the
    /// plain guide counts the cells between.
    #[test]
    fn the_reach_guide_walks_around_walls() {
        let estimate = |board: &str, reach: bool| {
            let game = Game::new(&crate::engine::testkit::level(board));
            let space = LevelSpace::new(&game, Constraints::default());
            let mut s = Vec::new();
            space.start(&mut s);
            let guide = if reach {
                LevelGuide::by_reach(&game)
            } else {
                LevelGuide::new(&game)
            };
            guide.judge(&s, &mut Vec::new()).estimate
        };
        let rules = "MIAU IS YOU . # .\nWALL IS STOP . # .\nFLAG IS WIN . # f\n";
        let walled = format!("{rules}m . . . # .");
        let open = format!("{rules}m . . . . .");
        // Six steps from the cat to the flag through the gap, each counted
        // three times.
        assert_eq!(estimate(&open, true), 18);
        assert_eq!(estimate(&open, false), 6);
        // Walled off, the plain guide still counts six cells. The reach
        // guide's walk to the flag costs 3 × 2 × (6 + 4); FLAG IS WIN
        // (formed) plus that walk, FORMING + 20, is dearer than lining up
        // MIAU IS WIN, a YOU kind (no walk) with MIAU and WIN a step each
        // from the middle IS, three per step.
        assert_eq!(estimate(&walled, false), 6);
        assert_eq!(estimate(&walled, true), FORMING + 6);
    }
}
