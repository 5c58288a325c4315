//! The bucket codec: how the push search files its pending nodes, each
//! a key written as one number ([`Subsets`]) in blocks of sorted gaps, or
//! as the cells that changed from the key before in LZ4 blocks.

use super::{DIRS, PushSpace};
use crate::solver::subsets::Subsets;
use std::collections::BTreeMap;

impl PushSpace<'_> {
    /// How pending nodes are written, for a search from node `start`.
    /// Every cell a node holds is an open cell (one no mover is blocked
    /// from) joined to a cell of `start` through open cells: things start
    /// on open cells ([`DeadCells`] gives up otherwise), and a walk or a
    /// push moves each thing to a neighbouring open cell; a mirror image
    /// maps the player's region onto itself. So the numbers run over those
    /// cells, not the empty ones outside a room's walls.
    pub(super) fn codec(&self, start: &[u32]) -> Codec {
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
pub(super) struct Bucket {
    /// Full blocks: numbers as sorted gaps ([`crate::solver::gaps`]) for
    /// [`Codec::Ranked`], entries LZ4-compressed ([`crate::solver::blocks`]) for
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
pub(super) enum Codec {
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
/// saves about `log2 n - 2` bits a number ([`crate::solver::gaps`]), while the
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
    pub(super) fn bytes(&self) -> usize {
        self.packed
            + self.blocks.capacity() * std::mem::size_of::<Box<[u8]>>()
            + self.tail.capacity()
            + self.last.capacity()
    }

    /// Appends a node; what the bucket's bytes grew (or shrank) by is
    /// read from [`Bucket::bytes`] around the call.
    pub(super) fn push(&mut self, key: &[u32], codec: &Codec) {
        self.filed += 1;
        let need = match codec {
            Codec::Ranked(subsets) => subsets.width(),
            Codec::Cells { wide } => key.len().div_ceil(8) + key.len() * (1 + usize::from(*wide)),
        };
        crate::solver::make_room(&mut self.tail, need, need);
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
                crate::solver::gaps::pack(&mut numbers, width, &mut block);
            }
            Codec::Cells { .. } => {
                if self.tail.len() < BLOCK {
                    return;
                }
                crate::solver::blocks::pack(&self.tail, &mut block);
                // Each block starts from a key of zeros, so blocks read
                // alone (and the first gaps of the next are whole cells).
                self.last.fill(0);
            }
        }
        let block = block.into_boxed_slice();
        self.packed += block.len();
        crate::solver::make_room(&mut self.blocks, 1, 4);
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
    pub(super) fn reader(&self) -> BucketReader<'_> {
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
pub(super) struct BucketReader<'a> {
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
                        let ok = crate::solver::gaps::unpack(block, width, &mut self.numbers);
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
                    let ok = crate::solver::blocks::unpack(block, usize::MAX, &mut self.expanded);
                    debug_assert!(ok, "a bucket's block did not expand");
                }
            }
        }
    }

    /// The next node, its key decoded into `key` (of the key's length, as
    /// written); `None` after the last.
    pub(super) fn next(&mut self, key: &mut [u32], codec: &Codec) -> Option<()> {
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
pub(super) fn file(
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
}
