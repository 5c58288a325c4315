//! A run of numbers kept as a sorted list of gaps, each Golomb–Rice coded:
//! the push search's pending nodes ([`super::subsets`] numbers) in blocks.
//!
//! **Why.** `n` numbers drawn from `0..r` take `log2 r` bits each written
//! whole; sorted, the gaps between them average `r / n`, and a Rice code
//! writes a gap of that mean in about `log2(r / n) + 2` bits: `log2 n - 2`
//! bits a number saved, which for a block of 16 384 numbers is 12 bits
//! (a byte and a half of the 13 a node of forty crates takes). The order a
//! block's numbers come back in is theirs sorted, which the push search
//! is free to take (any order within one bucket keeps routes shortest).
//!
//! **Format.** The count as a little-endian `u32` (as [`super::blocks`]
//! prefixes its lengths), the least number as `width`
//! bytes little-endian, the Rice parameter `k` as one byte, then per gap
//! (each number minus the one before, in sorted order) its quotient by
//! `2^k` in unary (that many one bits, then a zero) and its low `k` bits,
//! packed from each byte's low bit up. The sum of the quotients is at most
//! the range over `2^k`, so a block never takes more than about three bits
//! a number over its gaps' low bits, whatever the numbers.

/// Appends `numbers` (sorted here, in place; fewer than 2^32) as one
/// block of `width`-byte numbers (every number below `2^(8 * width)`,
/// `width` at most 16).
pub fn pack(numbers: &mut [u128], width: usize, out: &mut Vec<u8>) {
    numbers.sort_unstable();
    debug_assert!(u32::try_from(numbers.len()).is_ok(), "a block's count");
    out.extend_from_slice(&(numbers.len() as u32).to_le_bytes());
    let Some((&first, rest)) = numbers.split_first() else {
        return;
    };
    out.extend_from_slice(&first.to_le_bytes()[..width]);
    let k = parameter(numbers);
    out.push(k as u8);
    let mut bits = BitWriter {
        out,
        acc: 0,
        held: 0,
    };
    let mut before = first;
    for &n in rest {
        let gap = n - before;
        before = n;
        let mut q = (gap >> k) as u64;
        while q >= 56 {
            bits.put((1 << 56) - 1, 56);
            q -= 56;
        }
        // q ones, then the zero that ends them.
        bits.put((1u64 << q) - 1, q as u32 + 1);
        let mut low = gap & ((1u128 << k) - 1);
        let mut left = k;
        while left > 0 {
            let take = left.min(56);
            bits.put(low as u64 & ((1 << take) - 1), take);
            low >>= take;
            left -= take;
        }
    }
    bits.flush();
}

/// The Rice parameter that codes the gaps of sorted `numbers` in the
/// fewest bits, among those near the logarithm of their mean gap.
fn parameter(numbers: &[u128]) -> u32 {
    let gaps = numbers.len().saturating_sub(1) as u128;
    let (Some(&first), Some(&last)) = (numbers.first(), numbers.last()) else {
        return 0;
    };
    if gaps == 0 {
        return 0;
    }
    let mean = (last - first) / gaps;
    let near = 127u32.saturating_sub(mean.max(1).leading_zeros());
    let cost = |k: u32| -> u128 {
        let quotients: u128 = numbers.windows(2).map(|w| (w[1] - w[0]) >> k).sum();
        gaps * u128::from(k + 1) + quotients
    };
    (near.saturating_sub(2)..=(near + 1).min(127))
        .min_by_key(|&k| cost(k))
        .unwrap_or(near)
}

/// Reads the block `pack` wrote into `into` (cleared first), sorted;
/// false when `block` is not such a block (never so for one `pack` wrote).
pub fn unpack(block: &[u8], width: usize, into: &mut Vec<u128>) -> bool {
    into.clear();
    let Some(count) = block.get(..4) else {
        return false;
    };
    let count = u64::from(u32::from_le_bytes([count[0], count[1], count[2], count[3]]));
    let mut at = 4;
    if count == 0 {
        return at == block.len();
    }
    let Some(first) = block.get(at..at + width) else {
        return false;
    };
    let mut bytes = [0u8; 16];
    bytes[..width].copy_from_slice(first);
    let mut n = u128::from_le_bytes(bytes);
    at += width;
    let Some(&k) = block.get(at) else {
        return false;
    };
    let k = u32::from(k);
    if k > 127 || count > (block.len() as u64 + 1) * 8 {
        return false;
    }
    into.reserve(count as usize);
    into.push(n);
    let mut bits = BitReader {
        data: &block[at + 1..],
        at: 0,
        acc: 0,
        held: 0,
    };
    for _ in 1..count {
        let Some(q) = bits.unary() else {
            return false;
        };
        let mut low = 0u128;
        let mut read = 0;
        while read < k {
            let take = (k - read).min(56);
            low |= u128::from(bits.get(take)) << read;
            read += take;
        }
        let Some(gap) = u128::from(q)
            .checked_shl(k)
            .filter(|g| g >> k == u128::from(q))
            .and_then(|g| g.checked_add(low))
        else {
            return false;
        };
        let Some(next) = n.checked_add(gap) else {
            return false;
        };
        n = next;
        into.push(n);
    }
    !bits.overran()
}

/// Bits appended to a byte vector from each byte's low bit up.
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    /// Bits in `acc` not yet written: fewer than 8 between calls.
    held: u32,
}

impl BitWriter<'_> {
    /// Appends the low `bits` bits of `v` (`bits` at most 56).
    fn put(&mut self, v: u64, bits: u32) {
        debug_assert!(bits <= 56 && (bits == 64 || v >> bits == 0));
        self.acc |= v << self.held;
        self.held += bits;
        while self.held >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.held -= 8;
        }
    }

    /// Writes the last, partial byte.
    fn flush(&mut self) {
        if self.held > 0 {
            self.out.push(self.acc as u8);
        }
        self.acc = 0;
        self.held = 0;
    }
}

/// Reads what [`BitWriter`] wrote; past the end it reads zeros and
/// remembers it did.
struct BitReader<'a> {
    data: &'a [u8],
    at: usize,
    acc: u64,
    held: u32,
}

impl BitReader<'_> {
    fn refill(&mut self) {
        while self.held <= 56 {
            let byte = self.data.get(self.at).copied().unwrap_or(0);
            self.acc |= u64::from(byte) << self.held;
            self.held += 8;
            self.at += 1;
        }
    }

    /// The next `bits` bits (at most 56).
    fn get(&mut self, bits: u32) -> u64 {
        self.refill();
        let v = self.acc & ((1u64 << bits) - 1);
        self.acc >>= bits;
        self.held -= bits;
        v
    }

    /// The number of one bits before the next zero, which is read too;
    /// `None` when the data ends first.
    fn unary(&mut self) -> Option<u64> {
        let mut q = 0u64;
        loop {
            self.refill();
            let ones = self.acc.trailing_ones().min(self.held);
            if ones < self.held {
                // `held` is up to 64, so the shift may take every bit.
                self.acc = self.acc.checked_shr(ones + 1).unwrap_or(0);
                self.held -= ones + 1;
                return Some(q + u64::from(ones));
            }
            q += u64::from(ones);
            self.acc = 0;
            self.held = 0;
            if self.overran() {
                return None;
            }
        }
    }

    /// Whether a read went past the data's last byte (the bits held still
    /// to read include none from there).
    fn overran(&self) -> bool {
        // `at` is past every byte read into `acc`, of which `held` bits
        // are still unread.
        self.at * 8 - self.held as usize > self.data.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any numbers of any width read back as themselves, sorted, and
        /// a block is never larger than the numbers written whole by more
        /// than a few bits each.
        #[test]
        fn numbers_read_back_sorted(
            width in 1usize..=16,
            raw in prop::collection::vec((any::<u128>(), 0u32..128), 0..300),
        ) {
            let bits = 8 * width as u32;
            let top = |n: u128| if bits == 128 { n } else { n & ((1u128 << bits) - 1) };
            // Some numbers drawn near each other (shifted right), some
            // anywhere: gaps of every size.
            let mut numbers: Vec<u128> = raw.iter().map(|&(n, s)| top(n >> s)).collect();
            let mut want = numbers.clone();
            want.sort_unstable();
            let mut block = vec![0xAB];
            pack(&mut numbers, width, &mut block);
            let mut back = vec![7];
            prop_assert!(unpack(&block[1..], width, &mut back));
            prop_assert_eq!(&back, &want);
            prop_assert!(block.len() - 1 <= 4 + width + 1 + want.len() * (width + 1));
        }

        /// Bytes that are no block read as no block or as some numbers,
        /// never a panic or a runaway allocation.
        #[test]
        fn any_bytes_unpack_safely(width in 1usize..=16, bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let mut into = Vec::new();
            if unpack(&bytes, width, &mut into) {
                prop_assert!(into.windows(2).all(|w| w[0] <= w[1]));
                prop_assert!(into.len() <= bytes.len() * 8 + 1);
            }
        }
    }

    #[test]
    fn close_numbers_take_a_few_bits_each() {
        // 4 096 numbers 1 000 apart on average: about 10 + 2 bits each.
        let mut numbers: Vec<u128> = (0..4096u128)
            .map(|i| (1 << 90) + i * 1000 + (i * 7919) % 997)
            .collect();
        let mut block = Vec::new();
        pack(&mut numbers, 13, &mut block);
        assert!(block.len() * 8 < 4096 * 12, "{} bytes", block.len());
        let mut back = Vec::new();
        assert!(unpack(&block, 13, &mut back));
        assert_eq!(back, numbers);
    }
}
