//! The breadth-first search's visited set, its table in two halves, so
//! that two threads insert one chunk's successors side by side.
//!
//! The entries are those of [`super::visited`]: per state its kept
//! fingerprint and a link (parent and action), in two vectors indexed by
//! the state's number, which is its place in the search's order. A
//! state's slot lives in one of two open-addressing tables, picked by the
//! lowest bit of its fingerprint (the slot within a table comes from the
//! high bits of the low 64, the tag and the recent-states cache from bits
//! 64 and up, so each half is filled evenly).
//!
//! One chunk of successors is inserted in three steps, on one thread or
//! two, always the same steps, so every table size, and with it every
//! memory check and figure, is the same on any number of threads:
//!
//! 1. [`SplitSet::partition`] files each successor under its half, in
//!    chunk order (the way back to the grandparent, known to be stored, is
//!    left out). Then [`SplitSet::probe`] runs once per half, the two on
//!    different threads when two are free: each first writes the indices
//!    the last chunk's step 2 gave into the slots it marked, grows its
//!    table when the chunk could fill it, then looks up its successors in
//!    order. A successor not found is marked *pending* in the empty slot
//!    that ends its run: the mark names its place in the half's pending
//!    list, so a repeat later in the chunk finds it there and is a repeat,
//!    as it would be had it been inserted at once. Neither half writes the
//!    entries; both read them.
//! 2. [`SplitSet::append`], on one thread, walks the chunk in order and
//!    appends the pending successors' entries, which gives each the index
//!    one table inserting them in that order would have given: the
//!    search's limits are checked here, between parents, as before.
//! 3. The indices reach the marked slots at the start of the half's next
//!    probe (step 1 of the next chunk), while its table is still in the
//!    cache of the thread that probes it.
//!
//! Step 2 alone writes the entries and steps 1 and 3 alone write the
//! tables, so the locks below are never contended within a step: each is
//! taken once per chunk, not per state.

use super::visited::{
    EMPTY, GROW_BY_HALF_BELOW, INDEX, NO_INDEX, PARENT, RECENT, RECENT_FROM, SCAN, Stored, home,
    index_of, next_slot, pack, place, prefetch_entry, prefetch_slot, rebuild, recent_slot, slot_of,
    tag_matches, unpack,
};
use std::sync::{Mutex, MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Room in a slot's index field for the marks of one chunk's pending
/// successors: a chunk holds at most 1024 states of at most 8 actions
/// each (an action is kept in 3 bits of a link).
const PENDING_ROOM: u32 = 1 << 14;

/// The first index of a pending mark; state indices stay below it.
const PENDING: u32 = INDEX - PENDING_ROOM;

/// The most states one set can hold: the index field's range less the
/// pending marks' room, about 134 million, far beyond what the memory
/// limit allows.
pub const MAX_STATES: usize = PENDING as usize;

/// A pending successor's slot before its half has a table.
const NO_SLOT: u32 = u32::MAX;

/// Which half a kept fingerprint belongs to (module comment).
#[inline]
fn half_of(fp: u128) -> usize {
    (fp & 1) as usize
}

/// The entries of every stored state, by index.
#[derive(Debug, Default)]
struct Entries {
    fingerprints: Vec<Stored>,
    links: Vec<u32>,
}

impl Entries {
    fn len(&self) -> usize {
        self.fingerprints.len()
    }

    fn bytes(&self) -> usize {
        self.fingerprints.capacity() * std::mem::size_of::<Stored>() + self.links.capacity() * 4
    }

    fn parent(&self, index: u32) -> Option<u32> {
        let parent = self.links.get(index as usize)? & PARENT;
        (parent != PARENT).then_some(parent)
    }

    fn fingerprint(&self, index: u32) -> u128 {
        unpack(self.fingerprints[index as usize])
    }

    /// Appends a state's entry; its index. The vectors grow by an eighth,
    /// so their slack stays under 12.5%.
    fn push(&mut self, fp: u128, parent: u32, action: u8) -> u32 {
        let index = self.fingerprints.len() as u32;
        super::make_room(&mut self.fingerprints, 1, 1);
        super::make_room(&mut self.links, 1, 1);
        self.fingerprints.push(pack(fp));
        self.links
            .push((parent & PARENT) | u32::from(action & 7) << 29);
        index
    }
}

/// A successor one half found new in the current chunk.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// Its place among the chunk's successors.
    place: u32,
    /// The slot marked for it ([`NO_SLOT`] before the half has a table).
    slot: u32,
    fp: u128,
    /// The index step 2 gave it ([`NO_INDEX`] until then).
    index: u32,
}

/// One half: its table and what it holds of the chunk being inserted.
#[derive(Debug, Default)]
struct Half {
    slots: Vec<u32>,
    /// The half's latest stored states, direct-mapped by fingerprint (see
    /// [`super::visited`]): half the one-table cache, so both together
    /// cost what it did.
    recent: Vec<(Stored, u32)>,
    /// States of this half whose slots are written.
    count: usize,
    /// The chunk's successors of this half, in order: (place, fingerprint).
    items: Vec<(u32, u128)>,
    /// Whether the chunk is small enough to be compared one by one while
    /// the half has no table (decided for both halves in step 1).
    scan: bool,
    /// The successors found new, in chunk order.
    pending: Vec<Pending>,
}

/// The table sizes a half's table takes as it grows: by half while both
/// halves together fit in the L2 cache, doubling beyond, as one table
/// would (see [`super::visited`]).
fn grown(size: usize) -> usize {
    if size < GROW_BY_HALF_BELOW / 2 {
        size + size / 2
    } else {
        size * 2
    }
    .max(SCAN)
}

impl Half {
    fn table_bytes(&self) -> usize {
        self.slots.len() * 4 + self.recent.len() * std::mem::size_of::<(Stored, u32)>()
    }

    /// Step 3 of the last chunk: its appended successors' indices into
    /// their slots.
    fn write_back(&mut self) {
        for p in self.pending.drain(..) {
            // A successor without an index is one step 2 never reached:
            // the search ended there, and nothing probes this half again.
            if p.index == NO_INDEX {
                continue;
            }
            if p.slot != NO_SLOT {
                self.slots[p.slot as usize] = slot_of(p.index, p.fp);
                if !self.recent.is_empty() {
                    let r = recent_slot(p.fp, self.recent.len());
                    self.recent[r] = (pack(p.fp), p.index);
                }
            }
            self.count += 1;
        }
    }

    /// Makes the table large enough for the chunk's successors, all new at
    /// worst, within 7/8 of its slots; builds it once the search has
    /// outgrown comparing states one by one.
    fn make_room(&mut self, me: usize, entries: &Entries) {
        let need = self.count + self.items.len();
        if self.slots.is_empty() && self.scan {
            return;
        }
        let mut size = self.slots.len();
        while need * 8 > size * 7 || size == 0 {
            size = grown(size);
        }
        if size == self.slots.len() {
            return;
        }
        let old = std::mem::take(&mut self.slots);
        self.slots = if old.is_empty() {
            let mut slots = vec![EMPTY; size];
            for (index, &f) in entries.fingerprints.iter().enumerate() {
                let fp = unpack(f);
                if half_of(fp) == me {
                    place(&mut slots, slot_of(index as u32, fp), fp);
                }
            }
            slots
        } else {
            rebuild(old, size, &entries.fingerprints)
        };
        if self.recent.is_empty() && size >= RECENT_FROM / 2 {
            self.recent = vec![([0; 5], NO_INDEX); RECENT / 2];
        }
    }

    /// Step 1 for this half's successors (module comment).
    fn probe(&mut self, entries: &Entries) {
        let Half {
            slots,
            recent,
            items,
            pending,
            ..
        } = self;
        if slots.is_empty() {
            // A handful of states: compare them one by one.
            for &(place, fp) in items.iter() {
                let f = pack(fp);
                let seen = entries.fingerprints.contains(&f) || pending.iter().any(|p| p.fp == fp);
                if !seen {
                    pending.push(Pending {
                        place,
                        slot: NO_SLOT,
                        fp,
                        index: NO_INDEX,
                    });
                }
            }
            return;
        }
        let len = slots.len();
        for &(_, fp) in items.iter().take(16) {
            prefetch_slot(slots, home(fp, len));
        }
        for n in 0..items.len() {
            // The slot of the successor 16 ahead, the fingerprint its slot
            // names of the one 8 ahead, so the misses overlap.
            if let Some(&(_, fp)) = items.get(n + 16) {
                prefetch_slot(slots, home(fp, len));
            }
            if let Some(&(_, fp)) = items.get(n + 8) {
                let slot = slots[home(fp, len)];
                if slot != EMPTY && tag_matches(slot, fp) && index_of(slot) < PENDING {
                    prefetch_entry(&entries.fingerprints, index_of(slot));
                }
            }
            let (place, fp) = items[n];
            let f = pack(fp);
            if !recent.is_empty() {
                let r = recent_slot(fp, recent.len());
                if recent[r].0 == f && recent[r].1 != NO_INDEX {
                    continue;
                }
            }
            let mut i = home(fp, len);
            loop {
                let slot = slots[i];
                if slot == EMPTY {
                    slots[i] = slot_of(PENDING + pending.len() as u32, fp);
                    pending.push(Pending {
                        place,
                        slot: i as u32,
                        fp,
                        index: NO_INDEX,
                    });
                    break;
                }
                if tag_matches(slot, fp) {
                    let index = index_of(slot);
                    let same = if index >= PENDING {
                        pending[(index - PENDING) as usize].fp == fp
                    } else {
                        entries.fingerprints[index as usize] == f
                    };
                    if same {
                        break;
                    }
                }
                i = next_slot(i, len);
            }
        }
    }
}

/// The visited set of [`super::search`] (module comment).
#[derive(Debug)]
pub struct SplitSet {
    entries: RwLock<Entries>,
    halves: [Mutex<Half>; 2],
}

/// Why [`SplitSet::append`] stopped before the chunk's end, as its caller
/// said.
pub type Stop = (super::Verdict, Option<super::LimitKind>);

impl SplitSet {
    /// A set holding the start state (fingerprint `root`) at index 0.
    pub fn new(root: u128) -> SplitSet {
        let root = root & super::visited::KEPT;
        let mut entries = Entries::default();
        entries.push(root, PARENT, 0);
        let halves: [Mutex<Half>; 2] = Default::default();
        if let Ok(mut h) = halves[half_of(root)].lock() {
            h.count = 1;
        }
        SplitSet {
            entries: RwLock::new(entries),
            halves,
        }
    }

    fn entries(&self) -> RwLockReadGuard<'_, Entries> {
        self.entries.read().unwrap_or_else(|e| e.into_inner())
    }

    fn entries_mut(&self) -> RwLockWriteGuard<'_, Entries> {
        self.entries.write().unwrap_or_else(|e| e.into_inner())
    }

    fn half(&self, me: usize) -> MutexGuard<'_, Half> {
        self.halves[me].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Number of stored states.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether nothing is stored (never: the start state is).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The kept bits of the fingerprint of state `index`.
    pub fn fingerprint(&self, index: u32) -> u128 {
        self.entries().fingerprint(index)
    }

    /// The parent of state `index`, or `None` for the root.
    pub fn parent(&self, index: u32) -> Option<u32> {
        self.entries().parent(index)
    }

    /// Bytes held: the entries' capacity, both tables and their caches.
    /// (A chunk's pending lists are working buffers of a chunk's size, as
    /// the chunk's own buffers are, and not counted.)
    pub fn bytes(&self) -> usize {
        self.entries().bytes() + self.half(0).table_bytes() + self.half(1).table_bytes()
    }

    /// The actions from the root to state `index`.
    pub fn route(&self, mut index: u32) -> Vec<u8> {
        let entries = self.entries();
        let mut route = Vec::new();
        while let Some(&link) = entries.links.get(index as usize) {
            let parent = link & PARENT;
            if parent == PARENT {
                break;
            }
            route.push((link >> 29) as u8);
            index = parent;
        }
        route.reverse();
        route
    }

    /// Step 1's first part: files the successors of a chunk (per expanded
    /// state, the end of its successors in `ends`; the first expanded
    /// state has index `first`) under their halves, leaving out each
    /// state's way back to its own parent (stored, so a repeat).
    pub fn partition(&self, ends: &[u32], successors: &[(u8, u32, u128)], first: u32) {
        let entries = self.entries();
        let (mut h0, mut h1) = (self.half(0), self.half(1));
        h0.items.clear();
        h1.items.clear();
        let scan = entries.len() + successors.len() < SCAN;
        h0.scan = scan;
        h1.scan = scan;
        let mut k = 0usize;
        for (j, &end) in ends.iter().enumerate() {
            // The most common repeat is the way back (a walk undone), which
            // leads to the grandparent. Parents of a layer's states are
            // expanded in order, so these reads are sequential.
            let grand = entries
                .parent(first + j as u32)
                .map(|p| entries.fingerprint(p));
            while k < end as usize {
                let fp = successors[k].2;
                if grand != Some(fp) {
                    let h = if half_of(fp) == 0 { &mut h0 } else { &mut h1 };
                    h.items.push((k as u32, fp));
                }
                k += 1;
            }
        }
    }

    /// Step 1 for half `me` (0 or 1), after [`SplitSet::partition`]: the
    /// last chunk's indices written back, the table grown if need be, the
    /// half's successors looked up and the new ones marked pending. The
    /// two halves may run on two threads at once.
    pub fn probe(&self, me: usize) {
        let entries = self.entries();
        let mut half = self.half(me);
        half.write_back();
        half.make_room(me, &entries);
        half.probe(&entries);
    }

    /// Step 2, after both halves' [`SplitSet::probe`]: walks the chunk's
    /// expanded states in order (per state, the end of its successors in
    /// `ends`; the first has index `first`) and appends each pending
    /// successor's entry, its place pushed onto `fresh`. Before each
    /// expanded state `before` is told the states stored and the set's
    /// bytes, and may stop the walk there (what it returns is returned).
    pub fn append(
        &self,
        ends: &[u32],
        successors: &[(u8, u32, u128)],
        first: u32,
        fresh: &mut Vec<u32>,
        mut before: impl FnMut(usize, usize) -> Option<Stop>,
    ) -> Option<Stop> {
        let mut entries = self.entries_mut();
        let mut halves = [self.half(0), self.half(1)];
        let tables = halves[0].table_bytes() + halves[1].table_bytes();
        let mut next = [0usize; 2];
        for (j, &end) in ends.iter().enumerate() {
            if let Some(stop) = before(entries.len(), entries.bytes() + tables) {
                return Some(stop);
            }
            let this = first + j as u32;
            loop {
                let place = |h: usize| {
                    halves[h]
                        .pending
                        .get(next[h])
                        .map(|p| p.place)
                        .filter(|&p| p < end)
                };
                let h = match (place(0), place(1)) {
                    (Some(a), Some(b)) => usize::from(b < a),
                    (Some(_), None) => 0,
                    (None, Some(_)) => 1,
                    (None, None) => break,
                };
                let p = &mut halves[h].pending[next[h]];
                let (action, _, _) = successors[p.place as usize];
                p.index = entries.push(p.fp, this, action);
                fresh.push(p.place);
                next[h] += 1;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::fingerprint;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Inserts `keys` (fingerprints of small numbers) through the three
    /// steps, `per` successors to a chunk, each successor its own parent's
    /// only one; returns the set and, per key, the index a map from key to
    /// first index would give (or `None` for a repeat).
    fn insert_all(keys: &[u32], per: usize, two_threads: bool) -> (SplitSet, Vec<Vec<u32>>) {
        let set = SplitSet::new(fingerprint::of_words(&[u32::MAX]));
        let mut fresh_per_chunk = Vec::new();
        for chunk in keys.chunks(per) {
            let successors: Vec<(u8, u32, u128)> = chunk
                .iter()
                .map(|&k| {
                    (
                        1,
                        0,
                        fingerprint::of_words(&[k]) & super::super::visited::KEPT,
                    )
                })
                .collect();
            let ends = vec![successors.len() as u32];
            set.partition(&ends, &successors, 0);
            if two_threads {
                std::thread::scope(|s| {
                    s.spawn(|| set.probe(1));
                    set.probe(0);
                });
            } else {
                set.probe(0);
                set.probe(1);
            }
            let mut fresh = Vec::new();
            assert!(
                set.append(&ends, &successors, 0, &mut fresh, |_, _| None)
                    .is_none()
            );
            fresh_per_chunk.push(fresh);
        }
        (set, fresh_per_chunk)
    }

    proptest! {
        /// The three steps store what one map from fingerprint to first
        /// index would, in the same order, through the scan of the first
        /// states, each half's table and its growth, on one thread or two.
        #[test]
        fn chunks_are_stored_as_one_table_would(
            keys in prop::collection::vec(0u32..3000, 0..6000),
            per in 1usize..300,
            two_threads in any::<bool>(),
        ) {
            let (set, fresh) = insert_all(&keys, per, two_threads);
            let mut map: HashMap<u32, u32> = HashMap::new();
            for (c, chunk) in keys.chunks(per).enumerate() {
                let mut expected = Vec::new();
                for (place, &key) in chunk.iter().enumerate() {
                    if !map.contains_key(&key) {
                        map.insert(key, map.len() as u32 + 1);
                        expected.push(place as u32);
                    }
                }
                prop_assert_eq!(&fresh[c], &expected);
            }
            prop_assert_eq!(set.len(), map.len() + 1);
            for (key, &i) in &map {
                prop_assert_eq!(
                    set.fingerprint(i),
                    fingerprint::of_words(&[*key]) & super::super::visited::KEPT
                );
                prop_assert_eq!(set.parent(i), Some(0));
            }
        }
    }

    /// A large set, through the rebuilds that give pages back: every state
    /// is found again, and its bytes stay within those of one table.
    #[test]
    fn large_sets_find_every_state_again() {
        let keys: Vec<u32> = (0..300_000).chain(0..300_000).collect();
        let (set, fresh) = insert_all(&keys, 4096, true);
        let stored: usize = fresh.iter().map(Vec::len).sum();
        assert_eq!(stored, 300_000);
        assert_eq!(set.len(), 300_001);
        let per_state = set.bytes() as f64 / set.len() as f64;
        assert!(per_state <= 25.0, "{per_state}");
    }
}
