//! The visited set: fingerprints with parent pointers, in one open-addressing table.
//!
//! Per stored state: the low 80 bits of its fingerprint (10 bytes) and a
//! 4-byte link (the parent's index in 29 bits, the action that reached the
//! state in the top 3) in two parallel vectors (14 bytes), plus a 4-byte
//! slot in a table kept at most 7/8 full (4.6 to 9.1 bytes per state).
//! The vectors grow by an eighth at a time rather than doubling, so their
//! slack stays under 12.5%: at most about 25 bytes per state in the worst
//! case, about 20 typically. A table still in the L2 cache grows by half
//! rather than doubling, so there slots cost at most 6.9 bytes a state.
//! (Grown by half beyond that too, the table is fuller on average, and its
//! longer runs made the crowded searches 12% slower; kept at most 3/4 full
//! and grown by half, 5%.) A set of fewer than 16 states has no table yet and
//! is searched entry by entry, so a tiny search pays for its states alone.
//! Routes are rebuilt by walking parents instead of storing path strings.
//! A rebuild of the table holds about the new table's bytes, not the old
//! and the new together (see [`Visited::grow`]), so the memory a search
//! counts is what it holds at its peak too.
//!
//! Why 80 bits are enough: two distinct states share a stored fingerprint
//! with probability 2^-80 (the Zobrist terms behave as random bits, and
//! truncating an XOR of terms is the XOR of the truncated terms), so among
//! n states the chance that any pair collides is at most n²/2^81: about
//! 4·10^-9 for 100 million states, the most one search may store, and
//! 4·10^-13 for the million of a typical level. A collision would make the
//! search treat a new state as seen (a route could be missed, never a
//! wrong route: routes are replayed on the engine). 96 bits would make
//! those odds smaller still at 2 more bytes a state, a tenth of the set.
//!
//! A breadth-first search meets most repeated states soon after storing
//! them, so a small direct-mapped cache of the latest stored fingerprints
//! answers many lookups from the CPU cache before the table (two likely
//! cache misses: slot, then fingerprint) is probed. A cache hit is a stored
//! state, so answers are those of the table alone. The cache is kept only
//! once the table outgrows the L2 cache; below that it would save nothing.
#![allow(unsafe_code, reason = "madvise and prefetch, with SAFETY notes")]

/// Whether an insert found a new state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Insert {
    /// Stored under this index.
    New(u32),
    /// Already there, under this index.
    Seen(u32),
}

/// An empty slot. Slots are stored inverted ([`slot_of`]), so that a new
/// table is zeroed memory: the allocator hands over pages the kernel fills
/// only when first written, and a rebuild that writes the table front to
/// back holds the new table's pages only as it reaches them (see
/// [`Visited::grow`]).
const EMPTY: u32 = 0;

/// No index, in the recent-states cache.
const NO_INDEX: u32 = u32::MAX;

/// Parent bits of a link; the top 3 bits hold the action.
const PARENT: u32 = (1 << 29) - 1;

/// Bits of a slot that hold the state's index.
const INDEX_BITS: u32 = 27;
const INDEX: u32 = (1 << INDEX_BITS) - 1;

/// How many low bits of a fingerprint the set keeps.
const KEPT_BITS: u32 = 80;

/// The bits of a fingerprint the set keeps (see the module comment).
pub const KEPT: u128 = (1 << KEPT_BITS) - 1;

/// The tag of a fingerprint: the top 5 of its kept bits (independent of the
/// low 64 bits that pick the slot).
#[inline]
fn tag(fp: u128) -> u32 {
    ((fp >> (KEPT_BITS - (32 - INDEX_BITS))) as u32) & ((1 << (32 - INDEX_BITS)) - 1)
}

/// A kept fingerprint as stored: five half-words, so a state costs 10
/// bytes (and entries need no alignment beyond 2).
type Stored = [u16; 5];

#[inline]
fn pack(fp: u128) -> Stored {
    [
        fp as u16,
        (fp >> 16) as u16,
        (fp >> 32) as u16,
        (fp >> 48) as u16,
        (fp >> 64) as u16,
    ]
}

#[inline]
fn unpack(f: Stored) -> u128 {
    f.iter()
        .rev()
        .fold(0u128, |acc, &h| acc << 16 | u128::from(h))
}

/// The slot probed after `i` in a table of `len` slots (the first after
/// the last).
#[inline]
fn next_slot(i: usize, len: usize) -> usize {
    if i + 1 == len { 0 } else { i + 1 }
}

/// The first slot a fingerprint probes in a table of `len` slots: its low
/// 64 bits scaled to the table (a multiply, so any size will do, and the
/// slots of a table are in order of the fingerprints' low bits, which a
/// rebuild uses).
#[inline]
fn home(fp: u128, len: usize) -> usize {
    ((u128::from(fp as u64) * len as u128) >> 64) as usize
}

/// A slot holds, inverted (so that no slot of a state is [`EMPTY`]), the
/// state's index in its low 27 bits and the 5-bit tag of its fingerprint in
/// the top bits, so all but one in 32 probes past other
/// states are rejected without reading their fingerprints, each such read
/// being a likely cache miss. (Runs of a linear-probing table near 7/8 full
/// are long; 3 tag bits were measured to cost a fingerprint read on most
/// lookups.)
#[inline]
fn slot_of(index: u32, fp: u128) -> u32 {
    !(index | tag(fp) << INDEX_BITS)
}

/// The index a slot of a state holds.
#[inline]
fn index_of(slot: u32) -> u32 {
    !slot & INDEX
}

/// Whether a slot of a state holds `fp`'s tag (an [`EMPTY`] slot is
/// checked for first).
#[inline]
fn tag_matches(slot: u32, fp: u128) -> bool {
    !slot >> INDEX_BITS == tag(fp)
}

/// The most states one set can hold (the index field's range less one, so
/// that no slot of a state is [`EMPTY`]): about 134 million, far beyond
/// what the memory limit allows.
pub const MAX_STATES: usize = INDEX as usize;

/// The set of visited states.
#[derive(Debug)]
pub struct Visited {
    fingerprints: Vec<Stored>,
    links: Vec<u32>,
    slots: Vec<u32>,
    /// The most recently stored states, direct-mapped by fingerprint: small
    /// enough to stay in cache, so a repeat of a recent state is found
    /// without touching the table or the fingerprints.
    recent: Vec<(Stored, u32)>,
    /// Whether the table grows by half at every size, not only while it
    /// fits in the L2 cache ([`Visited::compact`]).
    compact: bool,
}

/// Most entries of the recent-states cache (64 KiB, so it stays in the L2
/// cache; measured: larger caches were slower, missing there themselves).
/// A small table gets a cache an eighth of its size, so a search of a few
/// dozen states does not pay for clearing 128 KiB.
const RECENT: usize = 1 << 12;

/// The table size from which the recent-states cache is kept: below it
/// the table and the fingerprints fit in the L2 cache themselves, so the
/// cache would cost memory (up to 4.5 bytes per state) and save nothing.
const RECENT_FROM: usize = 1 << 17;

/// The table size below which the table grows by half rather than
/// doubling. Grown by half, slots cost at most 6.9 bytes a state instead
/// of 9.1, but the table is fuller on average and its runs longer: out of
/// cache that made the crowded searches 12% slower (module comment);
/// within the L2 cache the longer runs cost next to nothing, and searches
/// of up to a hundred thousand states keep within 32 bytes a state.
const GROW_BY_HALF_BELOW: usize = 1 << 17;

/// How many slots ahead a rebuild prefetches the fingerprints it reads.
const GROW_AHEAD: usize = 16;

/// The table size, in bytes, from which a rebuild gives the old table's
/// pages back as it goes ([`Visited::grow`]): below it the old table is a
/// small share of memory. (The library's tests give back from the first
/// few pages, so that every growth they make goes through it.)
#[cfg(not(test))]
const RELEASE_FROM: usize = 1 << 24;
#[cfg(test)]
const RELEASE_FROM: usize = 1 << 13;

/// How many old slots a rebuild reads between two gives-back (1 MiB).
#[cfg(not(test))]
const RELEASE_STEP: usize = 1 << 18;
#[cfg(test)]
const RELEASE_STEP: usize = 1 << 10;

/// Gives the pages wholly inside `done` back to the kernel, which maps
/// zeroed pages there if they are touched again: for a part of a table
/// that will not be read again. Only memory, never results: where the
/// call is not available or fails, the pages stay.
fn release(done: &mut [u32]) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sysconf reads a constant of the system.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(0);
        if page == 0 {
            return;
        }
        let from = done.as_mut_ptr() as usize;
        let to = from + std::mem::size_of_val(done);
        let (first, last) = (from.next_multiple_of(page), to / page * page);
        if last > first {
            // SAFETY: [first, last) lies within `done`, which is borrowed
            // mutably here and holds plain integers: the kernel replacing
            // its pages by zeroed ones is as if zeros had been written,
            // and the caller reads none of it again.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_DONTNEED,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = done;
}

/// The states held before the table is built: a set this small is
/// searched by comparing fingerprints one by one (a few cache lines), so
/// a search of a handful of states pays for its states alone.
const SCAN: usize = 16;

/// The recent-states cache for a table of `slots` slots (none when small).
fn recent_cache(slots: usize) -> Vec<(Stored, u32)> {
    if slots >= RECENT_FROM {
        vec![([0; 5], NO_INDEX); RECENT]
    } else {
        Vec::new()
    }
}

#[inline]
fn recent_slot(fp: u128, len: usize) -> usize {
    ((fp >> 64) as usize) & (len - 1)
}

impl Default for Visited {
    fn default() -> Self {
        Visited::with_capacity(0)
    }
}

impl Visited {
    /// An empty set with room for about `n` states before it grows.
    pub fn with_capacity(n: usize) -> Self {
        let slots = if n < SCAN {
            0
        } else {
            (n * 8 / 7 + 1).max(2 * SCAN)
        };
        Visited {
            fingerprints: Vec::with_capacity(n),
            links: Vec::with_capacity(n),
            slots: vec![EMPTY; slots],
            recent: recent_cache(slots),
            compact: false,
        }
    }

    /// An empty set whose table grows by half at every size: slots cost
    /// 4.6 to 6.9 bytes a state instead of 4.6 to 9.1, for longer probe
    /// runs out of cache. For searches whose steps cost far more than an
    /// insert (the push search's nodes take microseconds each), where the
    /// bytes are what limits them.
    pub fn compact() -> Self {
        Visited {
            compact: true,
            ..Visited::with_capacity(0)
        }
    }

    /// Number of stored states.
    pub fn len(&self) -> usize {
        self.fingerprints.len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.fingerprints.is_empty()
    }

    /// The kept bits of the fingerprint of state `index` (an index
    /// [`Visited::insert`] returned): the fingerprint with the bits above
    /// [`KEPT`] clear. Updating it for a successor's changed words gives
    /// the successor's kept bits, since XOR works bit by bit.
    #[inline]
    pub fn fingerprint(&self, index: u32) -> u128 {
        unpack(self.fingerprints[index as usize])
    }

    /// The parent of state `index`, or `None` for the root.
    #[inline]
    pub fn parent(&self, index: u32) -> Option<u32> {
        let parent = self.links[index as usize] & PARENT;
        (parent != PARENT).then_some(parent)
    }

    /// Bytes held (capacity, not just length: what the allocator gave us).
    pub fn bytes(&self) -> usize {
        self.fingerprints.capacity() * std::mem::size_of::<Stored>()
            + self.links.capacity() * 4
            + self.slots.len() * 4
            + self.recent.len() * std::mem::size_of::<(Stored, u32)>()
    }

    /// Insert `fp`, reached from `parent` by `action` (below 8), unless it is
    /// already there. `parent` `u32::MAX` marks the root. Callers keep the
    /// set under [`MAX_STATES`] (the solver's memory limit ends far sooner).
    pub fn insert(&mut self, fp: u128, parent: u32, action: u8) -> Insert {
        let fp = fp & KEPT;
        let f = pack(fp);
        if self.slots.is_empty() {
            if let Some(i) = self.fingerprints.iter().position(|&g| g == f) {
                return Insert::Seen(i as u32);
            }
            if self.len() + 1 < SCAN {
                return Insert::New(self.push(fp, parent, action));
            }
        }
        if (self.len() + 1) * 8 > self.slots.len() * 7 {
            self.grow();
        }
        let r = if self.recent.is_empty() {
            None
        } else {
            let r = recent_slot(fp, self.recent.len());
            if self.recent[r].0 == f && self.recent[r].1 != NO_INDEX {
                return Insert::Seen(self.recent[r].1);
            }
            Some(r)
        };
        let len = self.slots.len();
        let mut i = home(fp, len);
        loop {
            let slot = self.slots[i];
            if slot == EMPTY {
                let index = self.push(fp, parent, action);
                self.slots[i] = slot_of(index, fp);
                if let Some(r) = r {
                    self.recent[r] = (f, index);
                }
                return Insert::New(index);
            }
            if tag_matches(slot, fp) && self.fingerprints[index_of(slot) as usize] == f {
                return Insert::Seen(index_of(slot));
            }
            i = next_slot(i, len);
        }
    }

    /// Appends a new state's entry; its index. The vectors grow by an
    /// eighth (at least one entry), so their slack stays under 12.5%; by a
    /// sixteenth in a [`Visited::compact`] set (large vectors are moved by
    /// remapping their pages, not copied, so growing more often costs
    /// little next to a push search's nodes).
    fn push(&mut self, fp: u128, parent: u32, action: u8) -> u32 {
        let index = self.fingerprints.len() as u32;
        let share = if self.compact { 16 } else { 8 };
        super::make_room_by(&mut self.fingerprints, 1, 1, share);
        super::make_room_by(&mut self.links, 1, 1, share);
        self.fingerprints.push(pack(fp));
        self.links
            .push((parent & PARENT) | u32::from(action & 7) << 29);
        index
    }

    /// Makes state `index` reached from `parent` by `action` instead (a
    /// search that finds a cheaper way to a state it has stored).
    pub fn relink(&mut self, index: u32, parent: u32, action: u8) {
        if let Some(link) = self.links.get_mut(index as usize) {
            *link = (parent & PARENT) | u32::from(action & 7) << 29;
        }
    }

    /// The index of `fp`, when stored (nothing is inserted).
    pub fn find(&self, fp: u128) -> Option<u32> {
        let fp = fp & KEPT;
        let f = pack(fp);
        if self.slots.is_empty() {
            return self
                .fingerprints
                .iter()
                .position(|&g| g == f)
                .map(|i| i as u32);
        }
        let len = self.slots.len();
        let mut i = home(fp, len);
        loop {
            let slot = self.slots[i];
            if slot == EMPTY {
                return None;
            }
            if tag_matches(slot, fp) && self.fingerprints[index_of(slot) as usize] == f {
                return Some(index_of(slot));
            }
            i = next_slot(i, len);
        }
    }

    /// Asks the CPU to start loading the first slot an insert of `fp` will
    /// probe, so that the cache misses of a state's successors overlap
    /// instead of following one another. Only a hint: no effect on results.
    #[inline]
    pub fn prefetch(&self, fp: u128) {
        let i = home(fp, self.slots.len());
        #[cfg(target_arch = "x86_64")]
        if let Some(slot) = self.slots.get(i) {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch never faults nor reads into the program, and
            // SSE, which it needs, is part of the x86_64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((slot as *const u32).cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = i;
    }

    /// Starts loading the fingerprint an insert of `fp` would compare first,
    /// once the slot (from [`Visited::prefetch`]) has arrived. Only a hint.
    #[inline]
    pub fn prefetch_fingerprint(&self, fp: u128) {
        let fp = fp & KEPT;
        let i = home(fp, self.slots.len());
        let Some(&slot) = self.slots.get(i) else {
            return;
        };
        if slot != EMPTY && tag_matches(slot, fp) {
            self.prefetch_entry(index_of(slot));
        }
    }

    /// Rebuilds the table half as large again while it fits in the L2
    /// cache, twice as large beyond (see [`GROW_BY_HALF_BELOW`]); half as
    /// large again at every size for a [`Visited::compact`] set.
    ///
    /// The old table is walked in slot order, from the start of a run:
    /// since a slot is picked by scaling the fingerprint's low bits, the
    /// states come nearly in order of their new slots, so the new table is
    /// written front to back rather than at random, and the fingerprint
    /// reads, independent of one another, are prefetched ahead.
    ///
    /// Both tables are never whole in memory at once: the new one is zeroed
    /// memory whose pages the kernel provides as the walk first writes them,
    /// and the old one's pages are given back ([`release`]) as the walk
    /// leaves them behind. So a rebuild holds about the new table's bytes,
    /// which is what [`Visited::bytes`] counts from then on, instead of the
    /// old and new together (on a search of 74 M states, 311 MiB over the
    /// counted bytes at the last doubling).
    fn grow(&mut self) {
        let len = self.slots.len();
        let size = if len < GROW_BY_HALF_BELOW || self.compact {
            len + len / 2
        } else {
            len * 2
        }
        .max(2 * SCAN);
        let mut slots = vec![EMPTY; size];
        let place = |slots: &mut [u32], slot: u32, fp: u128| {
            let mut i = home(fp, size);
            while slots[i] != EMPTY {
                i = next_slot(i, size);
            }
            slots[i] = slot;
        };
        let mut old = std::mem::take(&mut self.slots);
        if old.is_empty() {
            for (index, &f) in self.fingerprints.iter().enumerate() {
                let fp = unpack(f);
                place(&mut slots, slot_of(index as u32, fp), fp);
            }
        } else {
            let start = old.iter().position(|&s| s == EMPTY).unwrap_or(0);
            let releases = len * 4 >= RELEASE_FROM;
            // The old table's slots below this one (from `start`) are given back.
            let mut kept_from = start;
            for (k, i) in (start..len).chain(0..start).enumerate() {
                if k + GROW_AHEAD < len {
                    let ahead = i + GROW_AHEAD;
                    let later = old[if ahead >= len { ahead - len } else { ahead }];
                    if later != EMPTY {
                        self.prefetch_entry(index_of(later));
                    }
                }
                let slot = old[i];
                if slot != EMPTY {
                    let fp = unpack(self.fingerprints[index_of(slot) as usize]);
                    place(&mut slots, slot, fp);
                }
                // Only the walk's first stretch (`start` to the end, nearly
                // all of it) is given back: its slots are read once, in
                // order, and the lookahead reads beyond `i` only.
                if releases && i + 1 == kept_from + RELEASE_STEP {
                    release(&mut old[kept_from..=i]);
                    kept_from = i + 1;
                }
            }
        }
        drop(old);
        self.slots = slots;
        if self.recent.is_empty() && size >= RECENT_FROM {
            self.recent = recent_cache(size);
        }
    }

    /// Starts loading the fingerprint of state `index`. Only a hint.
    #[inline]
    fn prefetch_entry(&self, index: u32) {
        #[cfg(target_arch = "x86_64")]
        if let Some(f) = self.fingerprints.get(index as usize) {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: as in `prefetch`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>((f as *const Stored).cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = index;
    }

    /// The actions from the root to state `index`.
    pub fn route(&self, mut index: u32) -> Vec<u8> {
        let mut route = Vec::new();
        while let Some(&link) = self.links.get(index as usize) {
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
}

impl Visited {
    /// Bytes per stored state in steady state: the three parallel entries plus
    /// the table slots divided over the states (vector slack not counted).
    pub fn bytes_per_state(&self) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        (std::mem::size_of::<Stored>() + 4) as f64
            + (self.slots.len() * 4) as f64 / self.len() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::fingerprint;

    /// Pages given back read as zeros afterwards (the kernel's fresh pages),
    /// so the call takes effect; what lies outside whole pages is kept.
    #[cfg(target_os = "linux")]
    #[test]
    fn given_back_pages_read_as_zeros() {
        let mut v = vec![u32::MAX; 1 << 16];
        release(&mut v[100..60_000]);
        let zeroed = v.iter().filter(|&&x| x == 0).count();
        // 239 600 bytes cover at least 57 whole 4 KiB pages.
        assert!(zeroed >= 57 * 1024, "{zeroed} slots zeroed");
        assert!(v[..100].iter().chain(&v[60_000..]).all(|&x| x == u32::MAX));
    }

    /// Every state stays found through rebuilds that give the old table
    /// back as they go (from a few pages on in the library's tests), in a
    /// set that grows by half and in one that doubles.
    #[test]
    fn rebuilds_that_give_pages_back_lose_nothing() {
        for mut v in [Visited::default(), Visited::compact()] {
            let fp = |k: u32| fingerprint::of_words(&[k, 7]) & KEPT;
            for k in 0..200_000u32 {
                assert_eq!(v.insert(fp(k), k / 2, 1), Insert::New(k));
            }
            assert!(v.slots.len() * 4 >= 2 * RELEASE_FROM);
            for k in 0..200_000u32 {
                assert_eq!(v.find(fp(k)), Some(k));
                assert_eq!(v.insert(fp(k), 0, 0), Insert::Seen(k));
            }
            assert_eq!(v.find(fp(200_000)), None);
        }
    }
}
