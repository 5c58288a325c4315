//! A BFS layer of packed states, delta-encoded in one byte buffer.
//!
//! States of a layer are appended in the order they were found, and the
//! states found one after another are close: siblings differ from each
//! other in the YOU thing's word and perhaps a pushed one, cousins in a few
//! more. So each state is stored as the words where it differs from the
//! state before it in the layer: per changed word, the gap in positions
//! since the previous change and the difference of new and old word, as
//! LEB128 varints (a moved thing's word changes by one step of its x or y
//! field, one or two bytes). A difference equal to the change before it
//! (in the chunk) is not written again: the gap's low bit says so. Things
//! that move together (several YOU things, a line pushed) change by the
//! same step, and a sibling differs from the state before it by the same
//! step in every such word, so each of them costs the one byte of its
//! gap. A state costs a few bytes however many things the board holds
//! (walls, docks and words that never move cost nothing), where the whole
//! state costs four bytes per thing.
//!
//! A layer is cut into chunks of a fixed number of states (set by the
//! state's length, so the same level always gets the same chunks). The
//! first state of a chunk is stored against the layer's *base*, the
//! search's start state (shared by every layer, never copied into one),
//! instead of the state before it, and the chunk's byte offset and first
//! fingerprint are kept, so each chunk can be read on its own, on any
//! thread: that is how the parallel search splits a layer. Reading a
//! chunk yields each state with its fingerprint, kept up to date word by
//! word as the deltas are applied (see [`super::fingerprint`]).
//!
//! The search holds a whole BFS layer as a [`Frontier`]: one such
//! [`Layer`] (a *segment*) per unit of the layer before, holding the new
//! states found from that unit. Segments are encoded apart, on whichever
//! thread is free, once the merge has said which states are new; the
//! frontier then cuts them into units of about one chunk's states for
//! the next expansion.
//!
//! What a layer costs ([`Layer::bytes`]) is what grows with its states:
//! the delta bytes and the chunk index. The one-state working copies (the
//! base, shared; the last state pushed, which the next delta is taken
//! against; a reader's current state) are the same few hundred bytes
//! whatever the search stores, and are not counted.
//!
//! **Compressed segments.** Where many things move apart (several YOU
//! things, automata), consecutive states differ in many words with
//! different steps, and the deltas cost 15 to 30 bytes a state. Those
//! bytes still repeat a lot (the same few words, the same steps), so a
//! finished layer whose deltas average [`PACK_FROM`] bytes a state or more
//! is compressed chunk by chunk as LZ4 blocks (each prefixed by its
//! length before compression), when that saves at least an eighth.
//! Measured on Keke map 45 (42-word states): 31.2 bytes a state raw, 12.4
//! compressed, at about 90 ns a state to compress and 20 to expand, small
//! beside the several microseconds such a state's turns take. A reader
//! expands its chunk into a buffer it keeps, so chunks are still read on
//! their own, on any thread. Layers of plain walks (a few bytes a state)
//! stay as they are: there compression would cost more than it saves.
//!
//! Nothing is lossy: a state read back is word for word the state pushed.

use super::fingerprint;
use std::sync::Arc;
use std::sync::RwLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One layer: the states in the order pushed.
#[derive(Debug, Default, Clone)]
pub struct Layer {
    bytes: Vec<u8>,
    /// The last state pushed (the base of the next delta).
    last: Vec<u32>,
    /// The base of each chunk's first delta: the search's start state.
    base: Arc<[u32]>,
    /// The fingerprint of the layer's first state (chunk 0 starts at byte 0).
    first: u128,
    /// Per chunk after the first: the byte offset of its first state (two
    /// words, low first) and that state's kept fingerprint (three words,
    /// see [`super::visited::KEPT`]): 20 bytes per chunk.
    chunks: Vec<[u32; 5]>,
    /// The difference of the last change written (see the module
    /// comment); 0 at each chunk's start.
    diff: u32,
    /// States per chunk, set by the first push.
    chunk: usize,
    len: usize,
    /// Whether `bytes` holds one block per chunk ([`super::blocks`], see
    /// the module comment) and `chunks` their offsets, rather than the
    /// deltas.
    packed: bool,
    /// The longest chunk's deltas before compression: what a block may
    /// claim to expand to (a guard against a wrong offset, which would
    /// otherwise read a length from the middle of a block).
    widest: usize,
}

/// The delta bytes per state from which a finished layer is compressed
/// (module comment): plain walks cost 2 to 5, states where several things
/// move apart 15 and more.
#[cfg(not(test))]
pub const PACK_FROM: usize = 8;
/// [`PACK_FROM`] in the library's own tests.
// The library's own searches are small: most of their segments are
// compressed, so the property tests against the plain searches read
// compressed chunks too.
#[cfg(test)]
pub const PACK_FROM: usize = 2;

/// The states of a chunk for a state of `len` words: about 64 K words of
/// successors per chunk, so the buffers a chunk's expansion fills stay a
/// few hundred kilobytes on any board, and at most 1024 states, so that
/// layers of a few thousand states are already split.
pub fn chunk_states(len: usize) -> usize {
    (65_536 / len.max(1)).clamp(MIN_CHUNK, MAX_CHUNK)
}

#[cfg(not(test))]
const MIN_CHUNK: usize = 16;
#[cfg(not(test))]
const MAX_CHUNK: usize = 1024;
// The library's own tests cut layers into chunks of a few states, so that
// every search they run splits its layers and the parallel path is the one
// tested against the plain searches.
#[cfg(test)]
const MIN_CHUNK: usize = 3;
#[cfg(test)]
const MAX_CHUNK: usize = 7;

/// Header of a state stored whole (the first of a layer, or one whose
/// length differs from the state before it): `0`, then its length and words.
const WHOLE: u32 = 0;

/// Appends `v` as a varint (at most 5 bytes; the buffer grows by an
/// eighth, at least 8 bytes, see [`super::make_room`]).
#[inline]
fn put(bytes: &mut Vec<u8>, mut v: u32) {
    super::make_room(bytes, 5, 8);
    while v >= 0x80 {
        bytes.push((v as u8) | 0x80);
        v >>= 7;
    }
    bytes.push(v as u8);
}

/// A word's difference as a small number whichever its sign (a step left
/// or up is a small negative one): 0, -1, 1, -2, … become 0, 1, 2, 3, ….
#[inline]
fn zigzag(d: u32) -> u32 {
    (d << 1) ^ ((d as i32 >> 31) as u32)
}

#[inline]
fn unzigzag(z: u32) -> u32 {
    (z >> 1) ^ (z & 1).wrapping_neg()
}

#[inline]
fn get(bytes: &[u8], at: &mut usize) -> u32 {
    let mut v = 0u32;
    let mut shift = 0;
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        v |= u32::from(b & 0x7F) << shift;
        if b < 0x80 || shift >= 28 {
            break;
        }
        shift += 7;
    }
    v
}

impl Layer {
    /// Number of states pushed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no state was pushed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// An empty layer whose chunks are delta-encoded against `base` (the
    /// search's start state).
    pub fn new(base: Arc<[u32]>) -> Layer {
        Layer {
            base,
            ..Layer::default()
        }
    }

    /// Bytes held for the layer's states (capacities, what the allocator
    /// gave): the delta bytes and the chunk index, not the one-state
    /// working copies (module comment).
    pub fn bytes(&self) -> usize {
        self.bytes.capacity() + self.chunks.capacity() * std::mem::size_of::<[u32; 5]>()
    }

    /// Number of chunks (see the module comment).
    pub fn chunks(&self) -> usize {
        if self.len == 0 {
            0
        } else {
            self.chunks.len() + 1
        }
    }

    /// States per chunk (0 before the first push).
    pub fn chunk_len(&self) -> usize {
        self.chunk
    }

    /// Ends the pushes: the buffers shrink to what the states need and the
    /// working copy is dropped, so a finished layer costs its bytes alone
    /// (and the same bytes however it was built).
    pub fn finish(&mut self) {
        self.last = Vec::new();
        if !self.packed && self.len > 0 && self.bytes.len() >= PACK_FROM * self.len {
            self.pack();
        }
        self.bytes.shrink_to_fit();
        self.chunks.shrink_to_fit();
    }

    /// Where chunk `c` starts in `bytes` (its end when `c` is the count).
    fn chunk_at(&self, c: usize) -> usize {
        match c.checked_sub(1) {
            _ if c >= self.chunks() => self.bytes.len(),
            None => 0,
            Some(k) => {
                let e = self.chunks[k];
                (u64::from(e[0]) | u64::from(e[1]) << 32) as usize
            }
        }
    }

    /// Compresses each chunk's deltas into a block ([`super::blocks`]),
    /// unless that saves less than an eighth.
    fn pack(&mut self) {
        let n = self.chunks();
        let mut out = Vec::with_capacity(self.bytes.len() / 2);
        let mut starts = Vec::with_capacity(n);
        let mut widest = 0;
        for c in 0..n {
            let raw = &self.bytes[self.chunk_at(c)..self.chunk_at(c + 1)];
            widest = widest.max(raw.len());
            starts.push(out.len() as u64);
            super::blocks::pack(raw, &mut out);
        }
        if out.len() * 8 > self.bytes.len() * 7 {
            return;
        }
        for (e, &at) in self.chunks.iter_mut().zip(&starts[1..]) {
            e[0] = at as u32;
            e[1] = (at >> 32) as u32;
        }
        self.bytes = out;
        self.packed = true;
        self.widest = widest;
    }

    /// Appends a state whose fingerprint is `fp`.
    pub fn push(&mut self, words: &[u32], fp: u128) {
        debug_assert!(!self.packed, "a finished layer takes no more states");
        if self.len == 0 {
            self.chunk = chunk_states(words.len());
            self.first = fp & super::visited::KEPT;
        }
        if self.len.is_multiple_of(self.chunk) {
            // A chunk's first state is stored against the base.
            if self.len > 0 {
                let at = self.bytes.len() as u64;
                let fp = fp & super::visited::KEPT;
                self.chunks.push([
                    at as u32,
                    (at >> 32) as u32,
                    fp as u32,
                    (fp >> 32) as u32,
                    (fp >> 64) as u32,
                ]);
            }
            self.last.clear();
            self.last.extend_from_slice(&self.base);
            self.diff = 0;
        }
        self.len += 1;
        if words.len() != self.last.len() {
            put(&mut self.bytes, WHOLE);
            put(&mut self.bytes, words.len() as u32);
            for &w in words {
                put(&mut self.bytes, w);
            }
            self.last.clear();
            self.last.extend_from_slice(words);
            return;
        }
        // The count comes first; reserve its byte and patch it after, or
        // rewrite when it needs more than one byte (rare: many changes).
        let head = self.bytes.len();
        put(&mut self.bytes, 0);
        let mut changed = 0u32;
        let mut prev = 0usize;
        const BLOCK: usize = 8;
        for (b, (old, new)) in self
            .last
            .chunks_mut(BLOCK)
            .zip(words.chunks(BLOCK))
            .enumerate()
        {
            // Compared as one OR of XORs rather than with `==`, which calls
            // `memcmp` for every block (measured: 8% of a crowded search).
            if old.iter().zip(new).fold(0, |acc, (&o, &n)| acc | (o ^ n)) == 0 {
                continue;
            }
            for (k, (o, &n)) in old.iter_mut().zip(new).enumerate() {
                if *o != n {
                    let i = b * BLOCK + k;
                    let gap = ((i - prev) as u32) << 1;
                    let diff = n.wrapping_sub(*o);
                    if diff == self.diff {
                        put(&mut self.bytes, gap | 1);
                    } else {
                        put(&mut self.bytes, gap);
                        put(&mut self.bytes, zigzag(diff));
                        self.diff = diff;
                    }
                    *o = n;
                    prev = i + 1;
                    changed += 1;
                }
            }
        }
        // Header: changes + 1 (0 is WHOLE).
        let header = changed + 1;
        if header < 0x80 {
            self.bytes[head] = header as u8;
        } else {
            let mut h = Vec::with_capacity(5);
            put(&mut h, header);
            self.bytes.splice(head..head + 1, h);
        }
    }

    /// Reads the states of chunk `c` back in order (none when `c` is past
    /// the last chunk).
    pub fn reader(&self, c: usize) -> Reader {
        self.reader_with(c, Buffers::default())
    }

    /// Like [`Layer::reader`], reusing `buffers` (a previous reader's)
    /// rather than allocating new ones.
    fn reader_with(&self, c: usize, mut buffers: Buffers) -> Reader {
        let fp = match c.checked_sub(1) {
            _ if c >= self.chunks() => 0,
            None => self.first,
            Some(k) => {
                let e = self.chunks[k];
                u128::from(e[2]) | u128::from(e[3]) << 32 | u128::from(e[4]) << 64
            }
        };
        let mut left = self.len.saturating_sub(c * self.chunk).min(self.chunk);
        buffers.current.clear();
        buffers.current.extend_from_slice(&self.base);
        buffers.expanded.clear();
        if self.packed {
            let block = &self.bytes[self.chunk_at(c)..self.chunk_at(c + 1)];
            // The block was written by `pack`; should it not expand, the
            // chunk reads as empty rather than as wrong states.
            if c < self.chunks()
                && !super::blocks::unpack(block, self.widest, &mut buffers.expanded)
            {
                debug_assert!(false, "a packed chunk did not expand");
                left = 0;
            }
        } else if c < self.chunks() {
            // A copy of a few kilobytes, small beside expanding the
            // chunk's states: the reader then holds nothing of the
            // layer, which a frontier may release meanwhile.
            let raw = &self.bytes[self.chunk_at(c)..self.chunk_at(c + 1)];
            buffers.expanded.extend_from_slice(raw);
        }
        Reader {
            diff: 0,
            buffers,
            at: 0,
            fp,
            first: true,
            left,
        }
    }
}

/// A reader's working buffers, handed from one reader to the next.
#[derive(Debug, Default)]
struct Buffers {
    /// The state last read.
    current: Vec<u32>,
    /// The chunk's deltas: a copy, or a compressed chunk's expanded.
    expanded: Vec<u8>,
}

/// Reads one chunk of a [`Layer`] in order, from its own copy of the
/// chunk's deltas.
#[derive(Debug)]
pub struct Reader {
    at: usize,
    buffers: Buffers,
    /// The fingerprint of `current`.
    fp: u128,
    /// The difference of the last change read.
    diff: u32,
    /// Whether the next state is the chunk's first (its fingerprint is stored).
    first: bool,
    /// States left in the chunk.
    left: usize,
}

impl Reader {
    /// Whether the chunk has no state left to read.
    fn done(&self) -> bool {
        self.left == 0 || self.at >= self.buffers.expanded.len()
    }

    /// The next state of the chunk and its fingerprint, or `None` at the
    /// end of the chunk.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<(&[u32], u128)> {
        if self.done() {
            return None;
        }
        self.left -= 1;
        let Buffers { current, expanded } = &mut self.buffers;
        let bytes: &[u8] = expanded;
        let header = get(bytes, &mut self.at);
        if header == WHOLE {
            let len = get(bytes, &mut self.at) as usize;
            current.clear();
            for _ in 0..len {
                let w = get(bytes, &mut self.at);
                current.push(w);
            }
            if !self.first {
                self.fp = fingerprint::of_words(current);
            }
        } else {
            let mut i = 0usize;
            let mut fp = self.fp;
            for _ in 1..header {
                let gap = get(bytes, &mut self.at);
                i += (gap >> 1) as usize;
                if gap & 1 == 0 {
                    self.diff = unzigzag(get(bytes, &mut self.at));
                }
                if let Some(w) = current.get_mut(i) {
                    let new = w.wrapping_add(self.diff);
                    fp = fingerprint::update_word(fp, i, *w, new);
                    *w = new;
                }
                i += 1;
            }
            if !self.first {
                self.fp = fp;
            }
        }
        self.first = false;
        Some((&self.buffers.current, self.fp))
    }
}

/// What a finished segment costs in a [`Frontier`] beyond the layer's
/// first (whose record stands for the one-layer working copy, which the
/// module comment leaves uncounted): its bytes and its own record.
pub fn segment_bytes(segment: &Layer) -> usize {
    segment.bytes() + std::mem::size_of::<Layer>()
}

/// A whole BFS layer as the search expands it: finished segments in order
/// (each the new states found from one unit of the layer before, encoded
/// on whichever thread was free), read in *units* of about one chunk's
/// states.
///
/// A segment is a [`Layer`] of its own, so it is encoded and read
/// without the others: that is what lets the threads that expand a layer
/// also encode the next one, while the merging thread only decides what
/// is new. A unit is a run of whole chunks of consecutive segments
/// holding at most a chunk's worth of states (or one chunk), so units
/// are as large as chunks were whatever the segments' sizes, and which
/// units a layer has depends on its states alone.
///
/// Once the merge is past every unit reading a segment, the segment is
/// released ([`Frontier::release_through`]): at a layer's end the layer
/// costs next to nothing, so the search holds about one layer, not two.
/// Readers copy or expand a chunk before reading it, so no reader holds
/// on to a segment; the lock of each segment is taken once per chunk.
#[derive(Debug, Default)]
pub struct Frontier {
    /// The segments, each `None` once released.
    segments: Vec<RwLock<Option<Layer>>>,
    /// Per segment: its bytes ([`segment_bytes`]) and the last unit
    /// reading it.
    ends: Vec<(usize, u32)>,
    /// Segments released so far (the first ones).
    released: AtomicUsize,
    /// Per piece (one chunk of one segment): (segment, chunk in it).
    pieces: Vec<(u32, u32)>,
    /// Per unit: the end of its pieces in `pieces` and the place of its
    /// first state in the layer.
    units: Vec<(u32, u32)>,
    len: usize,
}

impl Frontier {
    /// The layer made of `segments`, in order (empty ones are dropped).
    pub fn new(segments: Vec<Layer>) -> Frontier {
        let segments: Vec<Layer> = segments.into_iter().filter(|s| !s.is_empty()).collect();
        let per = segments.first().map_or(1, |s| s.chunk_len().max(1));
        let (mut pieces, mut units) = (Vec::new(), Vec::new());
        let (mut len, mut in_unit) = (0usize, 0usize);
        let mut ends = Vec::with_capacity(segments.len());
        for (k, segment) in segments.iter().enumerate() {
            for c in 0..segment.chunks() {
                let n = segment
                    .len()
                    .saturating_sub(c * segment.chunk_len())
                    .min(segment.chunk_len());
                if in_unit > 0 && in_unit + n > per {
                    units.push((pieces.len() as u32, (len - in_unit) as u32));
                    in_unit = 0;
                }
                pieces.push((k as u32, c as u32));
                in_unit += n;
                len += n;
            }
            ends.push((segment_bytes(segment), units.len() as u32));
        }
        if in_unit > 0 {
            units.push((pieces.len() as u32, (len - in_unit) as u32));
        }
        pieces.shrink_to_fit();
        units.shrink_to_fit();
        Frontier {
            segments: segments.into_iter().map(|s| RwLock::new(Some(s))).collect(),
            ends,
            released: AtomicUsize::new(0),
            pieces,
            units,
            len,
        }
    }

    /// A layer of one state.
    pub fn single(base: Arc<[u32]>, words: &[u32], fp: u128) -> Frontier {
        let mut segment = Layer::new(base);
        segment.push(words, fp);
        segment.finish();
        Frontier::new(vec![segment])
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the layer holds no state.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of units.
    pub fn units(&self) -> usize {
        self.units.len()
    }

    /// The place in the layer of unit `u`'s first state.
    pub fn unit_start(&self, u: usize) -> u32 {
        self.units
            .get(u)
            .map_or(self.len as u32, |&(_, first)| first)
    }

    /// Bytes held: the segments' not yet released (see [`segment_bytes`])
    /// and the index.
    /// The first segment's record and the first piece and unit stand for
    /// the layer itself, a working copy the module comment leaves
    /// uncounted, so a one-state layer costs what its state does.
    pub fn bytes(&self) -> usize {
        let entry = std::mem::size_of::<(u32, u32)>();
        let held = self.ends[self.released.load(Ordering::Relaxed)..].iter();
        (held.map(|e| e.0).sum::<usize>()
            + (self.pieces.capacity() + self.units.capacity()) * entry)
            .saturating_sub(std::mem::size_of::<Layer>() + 2 * entry)
    }

    /// Releases the segments no unit after `u` reads. Called by the
    /// thread that merges, once unit `u` is merged (so every reader of
    /// those segments is done): what [`Frontier::bytes`] counts then
    /// depends on `u` alone, whichever threads read the units.
    pub fn release_through(&self, u: usize) {
        let mut k = self.released.load(Ordering::Relaxed);
        while let Some(&(_, last)) = self.ends.get(k) {
            if last as usize > u {
                break;
            }
            if let Ok(mut segment) = self.segments[k].write() {
                *segment = None;
            }
            k += 1;
        }
        self.released.store(k, Ordering::Relaxed);
    }

    /// Reads the states of unit `u` in order (none past the last unit).
    pub fn reader(&self, u: usize) -> UnitReader<'_> {
        let start = match u.checked_sub(1) {
            None => 0,
            Some(p) => self
                .units
                .get(p)
                .map_or(self.pieces.len(), |e| e.0 as usize),
        };
        let end = self.units.get(u).map_or(start, |e| e.0 as usize);
        UnitReader {
            frontier: self,
            next: start,
            end,
            reader: None,
        }
    }
}

/// Reads one unit of a [`Frontier`] in order, piece after piece.
#[derive(Debug)]
pub struct UnitReader<'a> {
    frontier: &'a Frontier,
    /// The next piece to read, and the end of the unit's pieces.
    next: usize,
    end: usize,
    reader: Option<Reader>,
}

impl UnitReader<'_> {
    /// The next state of the unit and its fingerprint, or `None` at its end.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<(&[u32], u128)> {
        while self.reader.as_ref().is_none_or(Reader::done) {
            if self.next >= self.end {
                return None;
            }
            let (s, c) = self.frontier.pieces[self.next];
            self.next += 1;
            let buffers = self.reader.take().map(|r| r.buffers).unwrap_or_default();
            let segment = self.frontier.segments[s as usize].read();
            self.reader = match segment.as_deref() {
                Ok(Some(segment)) => Some(segment.reader_with(c as usize, buffers)),
                // Released (or poisoned): never so for a unit not yet
                // merged, which is the only kind read.
                _ => {
                    debug_assert!(false, "a released segment was read");
                    None
                }
            };
        }
        self.reader.as_mut().and_then(Reader::next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::visited::KEPT;
    use proptest::prelude::*;

    proptest! {
        /// Every state reads back word for word, in order, whatever the
        /// lengths and changes.
        #[test]
        fn states_read_back_exactly(
            states in prop::collection::vec(
                prop::collection::vec(prop::sample::select(vec![0u32, 1, 2, 0x8000_0101, u32::MAX, 300]), 0..200),
                0..30,
            ),
            similar in any::<bool>(),
            finished in any::<bool>(),
        ) {
            let mut layer = Layer::default();
            let mut pushed = Vec::new();
            for (k, s) in states.iter().enumerate() {
                // Similar states: each a copy of the first with a few edits.
                let s = if similar && k > 0 {
                    let mut t = states[0].clone();
                    let n = t.len().max(1);
                    for (j, w) in s.iter().take(3).enumerate() {
                        if let Some(x) = t.get_mut((j * 37 + k) % n) {
                            *x = *w;
                        }
                    }
                    t
                } else {
                    s.clone()
                };
                layer.push(&s, fingerprint::of_words(&s));
                pushed.push(s);
            }
            if finished {
                layer.finish();
            }
            prop_assert_eq!(layer.len(), pushed.len());
            prop_assert_eq!(read_all(&layer), pushed);
        }

        /// Chunks cut the layer where the state length says, each read on
        /// its own yields its states with their fingerprints.
        #[test]
        fn chunks_read_back_on_their_own(
            n in 0usize..3000,
            len in 1usize..400,
            moves in prop::collection::vec((any::<prop::sample::Index>(), 0u32..5), 1..12),
            finished in any::<bool>(),
        ) {
            let mut layer = Layer::default();
            let mut state: Vec<u32> = (0..len as u32).map(|i| 0x8000_0000 | i << 8).collect();
            let mut pushed = Vec::new();
            for k in 0..n {
                let (at, d) = moves[k % moves.len()];
                state[at.index(len)] ^= d + (k as u32 & 7);
                layer.push(&state, fingerprint::of_words(&state));
                pushed.push(state.clone());
            }
            if finished {
                layer.finish();
            }
            let chunk = chunk_states(len);
            prop_assert_eq!(layer.chunks(), n.div_ceil(chunk));
            for c in 0..layer.chunks() {
                let mut r = layer.reader(c);
                for s in &pushed[c * chunk..((c + 1) * chunk).min(n)] {
                    let (words, fp) = r.next().unwrap();
                    prop_assert_eq!(words, s.as_slice());
                    prop_assert_eq!(fp & KEPT, fingerprint::of_words(s) & KEPT);
                }
                prop_assert!(r.next().is_none());
            }
            prop_assert!(layer.reader(layer.chunks()).next().is_none());
        }
    }

    proptest! {
        /// A frontier of segments of any sizes reads back, unit after
        /// unit, every state in order with its fingerprint; each unit
        /// starts where the one before ended and holds at most a chunk's
        /// worth of states unless it is a single piece.
        #[test]
        fn units_read_back_every_segment_in_order(
            sizes in prop::collection::vec(0usize..40, 0..12),
            len in 1usize..50,
            scattered in any::<bool>(),
            release in any::<bool>(),
        ) {
            let base: Arc<[u32]> = (0..len as u32).collect::<Vec<_>>().into();
            let mut state = base.to_vec();
            let (mut segments, mut pushed) = (Vec::new(), Vec::new());
            for (k, &n) in sizes.iter().enumerate() {
                let mut segment = Layer::new(base.clone());
                for j in 0..n {
                    state[(k * 7 + j) % len] += 1 + j as u32 % 3;
                    if scattered {
                        // Many words changed by different steps: deltas
                        // of many bytes, so the segment is compressed.
                        for i in 0..len / 2 {
                            state[(i * 3 + j) % len] += (i * j) as u32 % 5;
                        }
                    }
                    segment.push(&state, fingerprint::of_words(&state));
                    pushed.push(state.clone());
                }
                segment.finish();
                segments.push(segment);
            }
            let frontier = Frontier::new(segments);
            prop_assert_eq!(frontier.len(), pushed.len());
            let per = chunk_states(len);
            let mut read = Vec::new();
            let mut bytes = frontier.bytes();
            for u in 0..frontier.units() {
                prop_assert_eq!(frontier.unit_start(u) as usize, read.len());
                let mut r = frontier.reader(u);
                let mut n = 0;
                while let Some((words, fp)) = r.next() {
                    prop_assert_eq!(fp & KEPT, fingerprint::of_words(words) & KEPT);
                    read.push(words.to_vec());
                    n += 1;
                }
                prop_assert!(n > 0 && n <= per, "unit {} holds {} states", u, n);
                // As the merge does: each unit read, what only it and the
                // units before it read is released, and the next unit
                // still reads back whole.
                if release {
                    frontier.release_through(u);
                    prop_assert!(frontier.bytes() <= bytes);
                    bytes = frontier.bytes();
                }
            }
            prop_assert_eq!(read, pushed);
            if release {
                // Only the index is left.
                let index = (frontier.pieces.capacity() + frontier.units.capacity()) * 8;
                prop_assert!(frontier.bytes() <= index, "{} bytes left", frontier.bytes());
                let held = frontier.segments.iter().filter(|s| s.read().unwrap().is_some()).count();
                prop_assert_eq!(held, 0);
            }
            prop_assert!(frontier.reader(frontier.units()).next().is_none());
        }
    }

    /// A frontier of one state costs what its state does: the records that
    /// stand for the layer itself are not counted.
    #[test]
    fn a_one_state_frontier_costs_its_state() {
        let base: Arc<[u32]> = vec![7u32; 100].into();
        let f = Frontier::single(base.clone(), &base, fingerprint::of_words(&base));
        assert_eq!(f.len(), 1);
        assert_eq!(f.units(), 1);
        assert!(f.bytes() <= 4, "{} bytes", f.bytes());
    }

    /// Every state of a layer, chunk after chunk, checking fingerprints.
    fn read_all(layer: &Layer) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for c in 0..layer.chunks() {
            let mut r = layer.reader(c);
            while let Some((words, fp)) = r.next() {
                assert_eq!(fp & KEPT, fingerprint::of_words(words) & KEPT);
                out.push(words.to_vec());
            }
        }
        out
    }

    /// A layer's buffer holds at most an eighth more than its states need
    /// while it is pushed to (doubling would leave up to half unused), and
    /// none once finished, so a segment is counted for its states alone.
    #[test]
    fn a_layer_holds_little_slack_and_none_once_finished() {
        let mut layer = Layer::default();
        let mut s: Vec<u32> = (0..64).map(|i| 0x8000_0000 | i << 8).collect();
        for k in 0..100_000u32 {
            s[(k % 64) as usize] ^= 1 + (k & 3);
            layer.push(&s, fingerprint::of_words(&s));
            let used = layer.bytes.len();
            assert!(
                layer.bytes.capacity() <= used + used / 8 + 8,
                "{} held for {used}",
                layer.bytes.capacity()
            );
        }
        assert!(layer.bytes() > 1 << 16);
        layer.finish();
        assert_eq!(
            layer.bytes(),
            layer.bytes.len() + layer.chunks.len() * std::mem::size_of::<[u32; 5]>()
        );
        assert!(layer.last.capacity() == 0);
    }

    /// A finished layer whose states differ in many words by different
    /// steps is compressed, costs less than its deltas did, and reads
    /// back the same; a layer of one-word walks is left as it is.
    #[test]
    fn scattered_changes_are_compressed_and_walks_are_not() {
        let mut scattered = Layer::default();
        let mut walks = Layer::default();
        let mut s: Vec<u32> = (0..40).map(|i| 0x8000_0000 | i << 8).collect();
        let mut w = s.clone();
        let (mut pushed, mut walked) = (Vec::new(), Vec::new());
        for k in 0..5000u32 {
            for (i, x) in s.iter_mut().enumerate().step_by(3) {
                *x = x.wrapping_add((k + i as u32) % 7).wrapping_sub(3);
            }
            scattered.push(&s, fingerprint::of_words(&s));
            pushed.push(s.clone());
            w[(k % 40) as usize] ^= 1 << (k % 4);
            walks.push(&w, fingerprint::of_words(&w));
            walked.push(w.clone());
        }
        let deltas = scattered.bytes.len();
        // Past the threshold of the searches outside tests, 8 bytes a state.
        assert!(deltas >= 8 * 5000, "{deltas} bytes");
        scattered.finish();
        assert!(scattered.packed);
        assert!(scattered.bytes.len() * 8 <= deltas * 7);
        assert_eq!(read_all(&scattered), pushed);
        walks.finish();
        assert!(!walks.packed, "{} bytes of walks", walks.bytes.len());
        assert_eq!(read_all(&walks), walked);
    }

    #[test]
    fn a_moved_word_costs_a_few_bytes() {
        let mut layer = Layer::default();
        let mut s: Vec<u32> = (0..300).map(|i| 0x8000_0000 | i).collect();
        layer.push(&s, fingerprint::of_words(&s));
        let whole = layer.bytes.len();
        s[150] += 1;
        s[151] += 256;
        layer.push(&s, fingerprint::of_words(&s));
        // Count, then (gap, difference) per word: (150: two bytes, +1: one),
        // (0: one, +0x100: two).
        assert_eq!(layer.bytes.len() - whole, 1 + (2 + 1) + (1 + 2));
        // Words moved by one same step: the step is written once.
        let mut u = s.clone();
        for w in &mut u[10..20] {
            *w = w.wrapping_sub(256);
        }
        let before = layer.bytes.len();
        layer.push(&u, fingerprint::of_words(&u));
        // Count, (gap 10, -256: two bytes), then nine one-byte gaps.
        assert_eq!(layer.bytes.len() - before, 1 + (1 + 2) + 9);
        layer.push(&s, fingerprint::of_words(&s));
        // Far more changes than a one-byte count holds.
        let t: Vec<u32> = s.iter().map(|w| w ^ 1).collect();
        layer.push(&t, fingerprint::of_words(&t));
        let all = read_all(&layer);
        assert_eq!(all[1], s);
        assert_eq!(all[2], u);
        assert_eq!(all[3], s);
        assert_eq!(all[4], t);
    }
}
