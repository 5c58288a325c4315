//! The move search's visited set, split by fingerprint into shards, so
//! that the threads of one search insert successors side by side.
//!
//! **Why.** Inserting into the visited set is most of the serial part of
//! a search (a cache miss or two per successor): with one set, one thread
//! inserts while the others expand, and two cores gave 1.3 to 1.6 times
//! one. Here each thread that expanded a chunk of a layer also inserts its
//! successors, shard after shard.
//!
//! **Same result on any number of threads.** A state's shard is a few
//! bits of its fingerprint ([`shard_of`]), and each shard takes the
//! inserts of a layer's chunks strictly in chunk order (its *turn*, see
//! [`Shards::take_turn`]), and within a chunk in the order the successors
//! were found. So the sequence of inserts into every shard is the one a
//! single thread makes: the same states are new, they get the same index
//! in their shard, and the first parent in layer order is the one kept.
//! Inserts of chunks beyond where the search ends (a win, a limit) change
//! nothing before them; the search counts states as it merges the chunks
//! in order, never from the shards' sizes.
//!
//! **Ids.** A state is named by its shard and its index there:
//! `index << SHARD_BITS | shard` ([`id`]), in the 29 bits a parent link
//! holds (see [`visited`]). A shard's states of one layer have consecutive
//! indices in layer order, which is what lets a layer's reader give every
//! state its id without storing it (see [`super::frontier`]).
//!
//! [`visited`]: super::visited

use super::visited::{Insert, Visited};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Bits of an id that name the shard.
pub const SHARD_BITS: u32 = 4;

/// Number of shards: enough that threads inserting the successors of
/// consecutive chunks rarely wait for one another's shard.
pub const SHARDS: usize = 1 << SHARD_BITS;

/// The most states one shard may number (an id must fit a 29-bit link).
pub const MAX_SHARD_STATES: usize = (1 << (29 - SHARD_BITS)) - 1;

/// The shard of kept fingerprint `fp`: bits 80 to 83, independent of the
/// bits a shard's table uses for its slot (the low ones), its tag (the
/// top five) and its recent-states cache (from bit 64).
#[inline]
pub fn shard_of(fp: u128) -> usize {
    ((fp >> 80) as usize) & (SHARDS - 1)
}

/// The id of the state stored under `index` in `shard`.
#[inline]
pub fn id(shard: usize, index: u32) -> u32 {
    index << SHARD_BITS | shard as u32
}

/// The shard and index of `id`.
#[inline]
pub fn split(id: u32) -> (usize, u32) {
    ((id as usize) & (SHARDS - 1), id >> SHARD_BITS)
}

/// The visited set of one move search, in [`SHARDS`] shards.
#[derive(Debug)]
pub struct Shards {
    sets: Vec<Mutex<Visited>>,
    /// Per shard, the chunk of the current layer whose inserts it takes
    /// next.
    turns: Vec<AtomicUsize>,
}

impl Default for Shards {
    fn default() -> Self {
        Shards {
            sets: (0..SHARDS)
                .map(|_| Mutex::new(Visited::share(SHARDS)))
                .collect(),
            turns: (0..SHARDS).map(|_| AtomicUsize::new(0)).collect(),
        }
    }
}

impl Shards {
    /// Stores the start state (no parent); its id.
    pub fn insert_root(&self, fp: u128) -> u32 {
        let s = shard_of(fp);
        match self.set(s).insert(fp, u32::MAX, 0) {
            Insert::New(i) | Insert::Seen(i) => id(s, i),
        }
    }

    fn set(&self, s: usize) -> MutexGuard<'_, Visited> {
        // A thread that panicked while inserting ends the search anyway;
        // the set itself is never left half-updated by a panic elsewhere.
        self.sets[s].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a layer: every shard awaits chunk 0. Called between layers,
    /// when no thread inserts.
    pub fn new_layer(&self) {
        for t in &self.turns {
            t.store(0, Ordering::Release);
        }
    }

    /// Waits until shard `s` has taken the inserts of every chunk before
    /// `chunk` in this layer, then holds it; `None` when `stop` is raised
    /// meanwhile (the search has ended). Give the turn back with
    /// [`Shards::end_turn`].
    pub fn take_turn(
        &self,
        s: usize,
        chunk: usize,
        stop: &AtomicBool,
    ) -> Option<MutexGuard<'_, Visited>> {
        let mut spins = 0u32;
        while self.turns[s].load(Ordering::Acquire) != chunk {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        Some(self.set(s))
    }

    /// Hands shard `s` on to the chunk after `chunk`.
    pub fn end_turn(&self, s: usize, chunk: usize) {
        self.turns[s].store(chunk + 1, Ordering::Release);
    }

    /// The actions from the root to state `id`.
    pub fn route(&self, mut id: u32) -> Vec<u8> {
        let mut route = Vec::new();
        loop {
            let (s, index) = split(id);
            let Some((parent, action)) = self.set(s).link(index) else {
                break;
            };
            route.push(action);
            id = parent;
        }
        route.reverse();
        route
    }
}

/// The bytes a sharded set holding `lens[s]` states in shard `s` reports:
/// a function of the sizes alone (see [`Visited::bytes_at`]).
pub fn bytes_at(lens: &[u32; SHARDS]) -> usize {
    lens.iter()
        .map(|&n| Visited::bytes_at(n as usize, SHARDS))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::fingerprint;
    use crate::solver::visited::KEPT;

    #[test]
    fn the_byte_model_is_what_a_set_reports() {
        for share in [1, SHARDS] {
            let mut v = Visited::share(share);
            assert_eq!(Visited::bytes_at(0, share), v.bytes());
            for k in 0..300_000u32 {
                let _ = v.insert(fingerprint::of_words(&[k]) & KEPT, 0, 0);
                assert_eq!(
                    Visited::bytes_at(v.len(), share),
                    v.bytes(),
                    "at {}",
                    v.len()
                );
            }
        }
    }

    #[test]
    fn ids_name_shard_and_index() {
        for (s, i) in [(0, 0), (3, 17), (SHARDS - 1, MAX_SHARD_STATES as u32 - 1)] {
            assert_eq!(split(id(s, i)), (s, i));
        }
        assert!(id(SHARDS - 1, MAX_SHARD_STATES as u32 - 1) < (1 << 29) - 1);
    }

    #[test]
    fn routes_cross_shards() {
        let shards = Shards::default();
        let fps: Vec<u128> = (0..40u32)
            .map(|k| fingerprint::of_words(&[k]) & KEPT)
            .collect();
        let mut parent = shards.insert_root(fps[0]);
        let stop = AtomicBool::new(false);
        for (k, &fp) in fps.iter().enumerate().skip(1) {
            let s = shard_of(fp);
            let mut set = shards.take_turn(s, 0, &stop).expect("turn");
            let Insert::New(i) = set.insert(fp, parent, (k % 5) as u8) else {
                panic!("distinct fingerprints");
            };
            drop(set);
            parent = id(s, i);
        }
        let want: Vec<u8> = (1..40).map(|k| (k % 5) as u8).collect();
        assert_eq!(shards.route(parent), want);
        assert!(
            fps.iter()
                .map(|&f| shard_of(f))
                .collect::<std::collections::BTreeSet<_>>()
                .len()
                > 4
        );
    }
}
