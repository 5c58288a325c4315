//! A push-search node as one number: its player's cell and its set of PUSH
//! things' cells, out of the cells a mover may ever stand on, numbered
//! densely (the combinatorial number system), then written in as few
//! bytes as the largest number needs.
//!
//! **Why.** Most nodes of an open room wait in the buckets and are never
//! expanded, so a pending node's bytes weigh as much as the visited set's.
//! Written cell by cell as differences from the node before it, a node of
//! twelve crates took about 13 bytes (Microban 146): nodes filed one after
//! another in a bucket share about half their crates. As a number it takes
//! the logarithm of how many nodes there could be: 12 crates on 40 cells,
//! the player on one of those 40, is 38 bits, 5 bytes.
//!
//! **The numbering.** With the universe's cells numbered `0..u` in cell
//! order, a set `d_0 < d_1 < … < d_(k-1)` is `Σ C(d_i, i + 1)`, every set
//! of `k` getting one number below `C(u, k)`; a node is that number times
//! `u`, plus its player's. Read back from the largest member down: `d_i`
//! is the largest `d` with `C(d, i + 1)` at most what is left.

/// The numbering of nodes for one search: `k` PUSH things on a universe
/// of cells.
#[derive(Debug)]
pub struct Subsets {
    /// Per board cell, its number in the universe, or `u32::MAX` outside.
    dense: Vec<u32>,
    /// Per number, its board cell.
    cells: Vec<u32>,
    /// `C(n, j)` at `n * (k + 1) + j`, for `n` up to `u` and `j` up to `k`.
    choose: Vec<u128>,
    k: usize,
    /// Bytes a node takes: enough for `C(u, k) * u - 1`.
    width: usize,
}

impl Subsets {
    /// The numbering of nodes with `k` PUSH things on the cells `in_universe`
    /// says, or `None` when the nodes' count does not fit in 128 bits (then
    /// a number would save little anyway) or the universe is empty.
    pub fn new(in_universe: &[bool], k: usize) -> Option<Subsets> {
        let mut dense = vec![u32::MAX; in_universe.len()];
        let mut cells = Vec::new();
        for (cell, _) in in_universe.iter().enumerate().filter(|(_, in_it)| **in_it) {
            dense[cell] = cells.len() as u32;
            cells.push(cell as u32);
        }
        let u = cells.len();
        if u == 0 || k > u {
            return None;
        }
        let mut choose = vec![0u128; (u + 1) * (k + 1)];
        for n in 0..=u {
            choose[n * (k + 1)] = 1;
            for j in 1..=k.min(n) {
                // C(n, j) = C(n - 1, j - 1) + C(n - 1, j); the table's
                // entries with j > n are zero.
                let row = (n - 1) * (k + 1);
                choose[n * (k + 1) + j] = choose[row + j - 1].checked_add(choose[row + j])?;
            }
        }
        let count = choose[u * (k + 1) + k].checked_mul(u as u128)?;
        let bits = 128 - (count - 1).leading_zeros() as usize;
        Some(Subsets {
            dense,
            cells,
            choose,
            k,
            width: bits.div_ceil(8).max(1),
        })
    }

    /// Bytes one node takes.
    pub fn width(&self) -> usize {
        self.width
    }

    fn choose(&self, n: usize, j: usize) -> u128 {
        self.choose[n * (self.k + 1) + j]
    }

    /// The number of node `key` (the player's cell, then `k` cells in
    /// increasing order, all in the universe): below `C(u, k) * u`.
    pub fn number(&self, key: &[u32]) -> u128 {
        debug_assert_eq!(key.len(), self.k + 1, "a key of k PUSH things");
        let u = self.cells.len() as u128;
        // A cell off the universe never comes (the caller's argument);
        // should one, it counts as the first cell rather than panic.
        let dense = |c: u32| {
            let d = self.dense.get(c as usize).copied().unwrap_or(u32::MAX);
            debug_assert!(d != u32::MAX, "a cell off the universe");
            if d == u32::MAX { 0 } else { d as usize }
        };
        let mut number = 0u128;
        for (i, &c) in key[1..].iter().enumerate().take(self.k) {
            number += self.choose(dense(c), i + 1);
        }
        number * u + dense(key[0]) as u128
    }

    /// Appends node `key` as [`Subsets::width`] bytes, its
    /// [`Subsets::number`] little-endian.
    pub fn write(&self, key: &[u32], out: &mut Vec<u8>) {
        out.extend_from_slice(&self.number(key).to_le_bytes()[..self.width]);
    }

    /// The number a node [`Subsets::write`] wrote at the start of `data`;
    /// `None` when `data` is short.
    pub fn read_number(&self, data: &[u8]) -> Option<u128> {
        let mut bytes = [0u8; 16];
        bytes[..self.width].copy_from_slice(data.get(..self.width)?);
        Some(u128::from_le_bytes(bytes))
    }

    /// Node `number` ([`Subsets::number`]) into `key` (of `k + 1` cells);
    /// `None` when it is no node's number.
    pub fn node(&self, number: u128, key: &mut [u32]) -> Option<()> {
        let u = self.cells.len();
        if key.len() != self.k + 1 || number >= self.choose(u, self.k) * u as u128 {
            return None;
        }
        // Most rooms' numbers fit in 64 bits, where a division is cheap.
        let (player, mut left) = match u64::try_from(number) {
            Ok(n) => (n % u as u64, u128::from(n / u as u64)),
            Err(_) => ((number % u as u128) as u64, number / u as u128),
        };
        key[0] = self.cells[player as usize];
        // The members from the largest down; each below the one after it.
        let mut d = u;
        for i in (0..self.k).rev() {
            d -= 1;
            while self.choose(d, i + 1) > left {
                d -= 1;
            }
            left -= self.choose(d, i + 1);
            key[1 + i] = self.cells[d];
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Reads a node [`Subsets::write`] wrote at the start of `data` into
    /// `key`, as a bucket reads its tail.
    fn read(s: &Subsets, data: &[u8], key: &mut [u32]) -> Option<()> {
        s.node(s.read_number(data)?, key)
    }

    #[test]
    fn widths_are_the_fewest_bytes() {
        // 12 of 40 cells and a player: C(40, 12) * 40 = 2.2e11, 38 bits.
        let s = Subsets::new(&[true; 40], 12).expect("fits");
        assert_eq!(s.width(), 5);
        // One thing on 2 cells, a player on either: 4 nodes, 2 bits.
        assert_eq!(Subsets::new(&[true; 2], 1).map(|s| s.width()), Some(1));
        // More things than cells, or no cells: no numbering.
        assert!(Subsets::new(&[true; 3], 4).is_none());
        assert!(Subsets::new(&[], 0).is_none());
        // 100 of 400 cells: far beyond 128 bits.
        assert!(Subsets::new(&[true; 400], 100).is_none());
    }

    /// Every node of a small universe, numbered: the numbers are distinct
    /// and below the count, so none is wasted, and each reads back.
    #[test]
    fn small_universes_are_numbered_densely() {
        let universe = [true, false, true, true, false, true, true];
        let cells: Vec<u32> = (0..7).filter(|&c| universe[c as usize]).collect();
        let s = Subsets::new(&universe, 3).expect("fits");
        let mut seen = std::collections::BTreeSet::new();
        for mask in 0u32..32 {
            if mask.count_ones() != 3 {
                continue;
            }
            for &player in &cells {
                let mut key = vec![player];
                key.extend((0..5).filter(|b| mask & 1 << b != 0).map(|b| cells[b]));
                let mut out = Vec::new();
                s.write(&key, &mut out);
                assert_eq!(out.len(), s.width());
                let mut bytes = [0u8; 16];
                bytes[..out.len()].copy_from_slice(&out);
                assert!(seen.insert(u128::from_le_bytes(bytes)));
                let mut back = vec![0; 4];
                assert_eq!(read(&s, &out, &mut back), Some(()));
                assert_eq!(back, key);
            }
        }
        // C(5, 3) sets times 5 players, numbered 0 to 49.
        assert_eq!(seen.len(), 50);
        assert_eq!(seen.last(), Some(&49));
    }

    proptest! {
        /// Any node of any universe reads back as written; bytes that hold
        /// no node's number read as `None`, never a wrong key or a panic.
        #[test]
        fn nodes_read_back(
            universe in prop::collection::vec(any::<bool>(), 1..300),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 1..40),
            junk in prop::collection::vec(any::<u8>(), 0..17),
        ) {
            let cells: Vec<u32> = (0..universe.len() as u32).filter(|&c| universe[c as usize]).collect();
            prop_assume!(!cells.is_empty());
            let mut set: Vec<u32> = picks.iter().map(|i| cells[i.index(cells.len())]).collect();
            set.sort_unstable();
            set.dedup();
            let Some(s) = Subsets::new(&universe, set.len()) else {
                return Ok(());
            };
            let mut key = vec![cells[picks[0].index(cells.len())]];
            key.extend(&set);
            let mut out = Vec::new();
            s.write(&key, &mut out);
            prop_assert_eq!(out.len(), s.width());
            let mut back = vec![0; key.len()];
            prop_assert_eq!(read(&s, &out, &mut back), Some(()));
            prop_assert_eq!(&back, &key);
            // Whatever the bytes, a read gives a key of universe cells
            // in increasing order, or nothing.
            if read(&s, &junk, &mut back).is_some() {
                prop_assert!(back.iter().all(|&c| universe[c as usize]));
                prop_assert!(back[1..].windows(2).all(|w| w[0] < w[1]));
            }
        }
    }
}
