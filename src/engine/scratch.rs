//! Reusable per-turn buffers and the cell occupancy index.

use super::game::Game;
use super::parse::{ParseScratch, Rules};
use super::state::Ent;
use std::sync::Arc;

/// End of an occupancy list.
pub(crate) const NONE: u16 = u16::MAX;

/// Reusable buffers for turns, so that a solver expanding millions of states
/// allocates almost nothing per step.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    pub(crate) ents: Vec<Ent>,
    pub(crate) phases: Vec<u8>,
    pub(crate) start: Vec<Ent>,
    pub(crate) frail_start: Vec<bool>,
    /// Whether any entry of `frail_start` is set (step 6 has work).
    pub(crate) any_frail: bool,
    pub(crate) head: Vec<u16>,
    pub(crate) next: Vec<u16>,
    pub(crate) planned: Vec<bool>,
    pub(crate) in_t: Vec<bool>,
    pub(crate) t: Vec<u16>,
    pub(crate) pset: Vec<u16>,
    pub(crate) movers: Vec<u16>,
    pub(crate) moved: Vec<bool>,
    pub(crate) props: Vec<u64>,
    pub(crate) cells: Vec<u32>,
    pub(crate) seen: Vec<bool>,
    pub(crate) kill: Vec<u16>,
    pub(crate) ps: ParseScratch,
    /// Parses keyed by the words' packed entries, direct-mapped (see
    /// `Game::parse_cached`).
    pub(crate) cache: Vec<(Vec<u32>, Option<Arc<Rules>>)>,
    pub(crate) sig: Vec<u32>,
    /// The game the cache belongs to.
    pub(crate) stamp: u64,
    /// The start of the last turn, so the next turn from the same state (a
    /// solver tries every input on a state in a row) skips unpacking,
    /// indexing and the first parse.
    pub(crate) t0: TurnStart,
    /// The entity the last `step_prepared` moved as a plain walk (its
    /// successor differs from the prepared state in that entity's word
    /// alone), or `None` after any other turn.
    pub(crate) walked: Option<u16>,
    /// Reference mode: no parse cache, no skipped parse, no skipped contact
    /// scan. Differential tests compare it with the optimised path.
    pub(crate) reference: bool,
}

impl Scratch {
    /// After [`Game::step_prepared`] accepted a turn: the one entity whose
    /// word the successor changed, when the turn was a plain walk (so a
    /// search can update a fingerprint without comparing the states).
    pub fn walked(&self) -> Option<usize> {
        self.walked.map(usize::from)
    }

    /// A scratch in reference mode, for differential tests.
    #[cfg(test)]
    pub(crate) fn reference() -> Scratch {
        Scratch {
            reference: true,
            ..Scratch::default()
        }
    }
}

/// What step 1 derives from a state, kept between turns: valid when `words`
/// equals the next turn's state and `stamp` its game. `Scratch::start` and
/// `Scratch::frail_start` hold the matching entities and FRAIL flags.
#[derive(Debug, Default, Clone)]
pub(crate) struct TurnStart {
    /// The state's packed words; empty when nothing is cached.
    pub(crate) words: Vec<u32>,
    /// The game's stamp.
    pub(crate) stamp: u64,
    /// The cell index of the state (`Scratch::head`).
    pub(crate) head: Vec<u16>,
    /// The cell index's links (`Scratch::next`).
    pub(crate) next: Vec<u16>,
    /// The YOU things, in id order.
    pub(crate) movers: Vec<u16>,
    /// The state's parse; lent to the turn while it runs, so `None` then.
    pub(crate) rules: Option<Arc<Rules>>,
    /// The plain walk of this state, when it has one (see [`Walk`]).
    pub(crate) walk: Option<Walk>,
    /// Whether the working copy still is the one step 1 built (no turn has
    /// run since), so the first turn need not restore it.
    pub(crate) fresh: bool,
    /// The rejection every input from the state gets, if any.
    pub(crate) rejected: Option<super::report::Rejection>,
    /// Channels pressed at the start of the turn.
    pub(crate) pressed: Channels,
    /// The live things that are YOU or GOAL under the state's parse, in id
    /// order: the only entities WIN and GOAL look at, as long as a turn
    /// changes no noun, removes nothing and keeps the parse.
    pub(crate) contact_things: Vec<u16>,
}

/// A state whose turns, for an input that moves its single YOU thing into
/// an empty cell, reduce to that one move: the level has no automata and no
/// pairs, no noun is FLOAT, no rule transforms, and the YOU thing is alone
/// in its cell. Such a turn moves nothing else, brings nothing together and
/// parts nothing, forms the state's own rules, and leaves WIN and GOAL as
/// they stand at the start (neither the cell left nor the cell entered
/// holds anything else), so the solver's commonest turn costs a copy of the
/// state's words.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Walk {
    /// The YOU thing.
    pub(crate) mover: u16,
    /// WIN as it stands at the start of the turn.
    pub(crate) win: bool,
    /// GOAL as it stands at the start of the turn.
    pub(crate) goals: (u32, u32),
}

/// Bitset of pressed channels (channel indices are below 256).
pub(crate) type Channels = [u64; 4];

impl Game {
    pub(crate) fn cell(&self, e: &Ent) -> usize {
        e.y() as usize * self.width as usize + e.x() as usize
    }

    /// Rebuilds the occupancy lists; each cell's list is in id order.
    pub(crate) fn grid(&self, sc: &mut Scratch) {
        let n = self.width as usize * self.height as usize;
        sc.head.clear();
        sc.head.resize(n, NONE);
        sc.next.clear();
        sc.next.resize(sc.ents.len(), NONE);
        for i in (0..sc.ents.len()).rev() {
            let e = sc.ents[i];
            if e.alive() {
                let c = self.cell(&e);
                sc.next[i] = sc.head[c];
                sc.head[c] = i as u16;
            }
        }
    }

    /// Moves live entity `i`, which was indexed at cell `from`, to the list of
    /// its current cell, keeping both lists in id order: the same lists as a
    /// rebuild by [`Game::grid`] at the cost of two short list walks.
    pub(crate) fn relink(&self, sc: &mut Scratch, i: usize, from: usize) {
        let to = self.cell(&sc.ents[i]);
        relink_lists(&mut sc.head, &mut sc.next, i, from, to);
    }

    /// Whether another live entity shares entity `i`'s cell (any layer).
    pub(crate) fn shares(&self, sc: &Scratch, i: usize) -> bool {
        let mut o = sc.head[self.cell(&sc.ents[i])];
        while o != NONE {
            if o as usize != i && sc.ents[o as usize].alive() {
                return true;
            }
            o = sc.next[o as usize];
        }
        false
    }
}

/// Moves entity `i` from the occupancy list of cell `from` to that of cell
/// `to`, keeping both lists in id order (see [`Game::relink`]).
pub(crate) fn relink_lists(head: &mut [u16], next: &mut [u16], i: usize, from: usize, to: usize) {
    let id = i as u16;
    if head[from] == id {
        head[from] = next[i];
    } else {
        let mut o = head[from] as usize;
        while next[o] != id {
            o = next[o] as usize;
        }
        next[o] = next[i];
    }
    // NONE is u16::MAX, so an empty list also takes the new head.
    if head[to] > id {
        next[i] = head[to];
        head[to] = id;
    } else {
        let mut o = head[to] as usize;
        while next[o] < id {
            o = next[o] as usize;
        }
        next[i] = next[o];
        next[o] = id;
    }
}
