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
    /// Parse caches keyed by the packed words: slot 0 for turn starts (a
    /// solver expands one state with every input in a row), slot 1 for parses
    /// inside a turn.
    pub(crate) cache: [(Vec<u32>, Option<Arc<Rules>>); 2],
    pub(crate) sig: Vec<u32>,
    /// The game the cache belongs to.
    pub(crate) stamp: u64,
    /// Reference mode: no parse cache, no skipped parse, no skipped contact
    /// scan. Differential tests compare it with the optimised path.
    pub(crate) reference: bool,
}

impl Scratch {
    /// A scratch in reference mode, for differential tests.
    #[cfg(test)]
    pub(crate) fn reference() -> Scratch {
        Scratch {
            reference: true,
            ..Scratch::default()
        }
    }
}

/// Bitset of pressed channels (channel indices are below 256).
pub(crate) type Channels = [u64; 4];

impl Game {
    pub(crate) fn cell(&self, e: &Ent) -> usize {
        e.y as usize * self.width as usize + e.x as usize
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
            if e.alive {
                let c = self.cell(&e);
                sc.next[i] = sc.head[c];
                sc.head[c] = i as u16;
            }
        }
    }

    /// Whether another live entity shares entity `i`'s cell (any layer).
    pub(crate) fn shares(&self, sc: &Scratch, i: usize) -> bool {
        let mut o = sc.head[self.cell(&sc.ents[i])];
        while o != NONE {
            if o as usize != i && sc.ents[o as usize].alive {
                return true;
            }
            o = sc.next[o as usize];
        }
        false
    }
}
