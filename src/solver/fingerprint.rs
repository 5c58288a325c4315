//! 128-bit fingerprints of packed states.
//!
//! The visited set stores fingerprints instead of whole keys so a state costs
//! a fixed 16 bytes whatever the level's size. The fingerprint of a key is
//! the XOR, over its words, of a 128-bit hash of (position, word), seeded by
//! the key's length (Zobrist hashing). A turn changes a few words of its
//! state, so a successor's fingerprint is its parent's with those words'
//! terms swapped: [`update`] compares the two keys and hashes only the words
//! that differ, instead of hashing the whole key again.
//!
//! Two distinct keys of equal length collide only when the XOR of the terms
//! of the words where they differ is zero; with terms that behave as random
//! 128-bit values that happens with probability 2^-128 per pair, so among
//! ten million states the chance of any collision is about 10^-25: far below
//! the chance of a hardware fault during the search. The hash is fixed and
//! seedless, so results are the same on every machine.

const S1: u64 = 0x243F_6A88_85A3_08D3;
const S2: u64 = 0x1319_8A2E_0370_7344;
const S3: u64 = 0xA409_3822_299F_31D0;

/// The splitmix64 finaliser: a bijection of `u64` with full avalanche.
#[inline]
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The term of word `w` at position `i`: two independent 64-bit halves,
/// each a bijection of the 64-bit (position, word) pair.
#[inline]
fn term(i: usize, w: u32) -> u128 {
    let x = (i as u64) << 32 | u64::from(w);
    (u128::from(splitmix(x ^ S1)) << 64) | u128::from(splitmix(x ^ S2))
}

/// The seed of a key of `len` words, so keys of different lengths differ.
#[inline]
fn seed(len: usize) -> u128 {
    let x = len as u64 ^ S3;
    (u128::from(splitmix(x)) << 64) | u128::from(splitmix(x.rotate_left(32)))
}

/// The fingerprint of a packed key.
pub fn of_words(words: &[u32]) -> u128 {
    words
        .iter()
        .enumerate()
        .fold(seed(words.len()), |fp, (i, &w)| fp ^ term(i, w))
}

/// The term of `cell` as a member of a set of cells ([`of_node`]): XOR
/// the terms of a set's members to hash the set whatever their order.
pub fn member(cell: u32) -> u128 {
    term(1, cell)
}

/// The fingerprint of a node made of one cell (`lead`) and a set of
/// `len - 1` cells whose [`member`] terms XOR to `set`, whatever the
/// set's order: [`of_words`]'s Zobrist hashing with every cell after the
/// first at one position, so the same collision bound between nodes.
pub fn of_node(lead: u32, set: u128, len: usize) -> u128 {
    seed(len) ^ term(0, lead) ^ set
}

/// The fingerprint of `new`, given `fp`, the fingerprint of `old`: equal to
/// `of_words(new)`, at the cost of comparing the keys and hashing only the
/// words that differ.
#[inline]
pub fn update(mut fp: u128, old: &[u32], new: &[u32]) -> u128 {
    if old.len() != new.len() {
        return of_words(new);
    }
    // Compare eight words at a time (fixed-size arrays: one inline vector
    // comparison, no call) and look inside only the blocks that differ:
    // most of a successor equals its parent.
    const BLOCK: usize = 8;
    let mut blocks_old = old.chunks_exact(BLOCK);
    let mut blocks_new = new.chunks_exact(BLOCK);
    let mut base = 0;
    for (a, b) in (&mut blocks_old).zip(&mut blocks_new) {
        let (a8, b8): (&[u32; BLOCK], &[u32; BLOCK]) = match (a.try_into(), b.try_into()) {
            (Ok(a8), Ok(b8)) => (a8, b8),
            _ => unreachable!("chunks_exact yields whole blocks"),
        };
        if a8 != b8 {
            fp = swap_terms(fp, base, a, b);
        }
        base += BLOCK;
    }
    swap_terms(fp, base, blocks_old.remainder(), blocks_new.remainder())
}

/// The fingerprint of a key that differs from one with fingerprint `fp`
/// at most in word `i`, which was `old` and is `new`.
#[inline]
pub fn update_word(fp: u128, i: usize, old: u32, new: u32) -> u128 {
    if old == new {
        fp
    } else {
        fp ^ term(i, old) ^ term(i, new)
    }
}

/// `fp` with the terms of the words of `old` that differ in `new` (both
/// starting at position `base`) swapped for the new words' terms.
#[inline]
fn swap_terms(mut fp: u128, base: usize, old: &[u32], new: &[u32]) -> u128 {
    for (k, (&x, &y)) in old.iter().zip(new).enumerate() {
        fp = update_word(fp, base + k, x, y);
    }
    fp
}

/// A conventional streaming 128-bit hash of a whole key (two lanes, one
/// 64×64→128-bit multiply per lane per 16 bytes, as fast hash functions of
/// the wyhash family do). The solver does not use it: the benchmark does, as
/// the cost of hashing a key of a given size in an ordinary hash set, the
/// baseline of the solver's insert rate.
pub fn streamed(words: &[u32]) -> u128 {
    #[inline]
    fn mum(a: u64, b: u64) -> u64 {
        let r = u128::from(a).wrapping_mul(u128::from(b));
        (r as u64) ^ ((r >> 64) as u64)
    }
    let n = words.len() as u64;
    let (mut h1, mut h2) = (S1 ^ n, S2 ^ n.rotate_left(29));
    let mut chunks = words.chunks_exact(4);
    for c in &mut chunks {
        let a = u64::from(c[0]) | u64::from(c[1]) << 32;
        let b = u64::from(c[2]) | u64::from(c[3]) << 32;
        h1 = mum(a ^ h1, b ^ S3);
        h2 = mum(b ^ h2, a ^ S1);
    }
    let mut tail = [0u32; 4];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    let a = u64::from(tail[0]) | u64::from(tail[1]) << 32;
    let b = u64::from(tail[2]) | u64::from(tail[3]) << 32;
    h1 = mum(a ^ h1, b ^ S3);
    h2 = mum(b ^ h2, a ^ S1 ^ h1);
    (u128::from(mum(h1, S2)) << 64) | u128::from(mum(h2 ^ h1, S3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn distinct_short_keys_get_distinct_fingerprints() {
        let mut seen = std::collections::HashSet::new();
        for a in 0u32..=255 {
            for b in 0u32..=255 {
                assert!(seen.insert(of_words(&[a, b])));
                assert!(seen.insert(of_words(&[a << 16, b << 24, 0])));
            }
            assert!(seen.insert(of_words(&[a])));
        }
        assert_ne!(of_words(&[0; 8]), of_words(&[0; 9]));
        assert_ne!(of_words(&[]), of_words(&[0]));
        // Swapping two words changes the fingerprint: positions count.
        assert_ne!(of_words(&[1, 2]), of_words(&[2, 1]));
    }

    #[test]
    fn the_streamed_hash_separates_short_keys() {
        let mut seen = std::collections::HashSet::new();
        for a in 0u32..=255 {
            for b in 0u32..=255 {
                assert!(seen.insert(streamed(&[a, b])));
            }
            assert!(seen.insert(streamed(&[a])));
        }
        assert_ne!(streamed(&[0; 4]), streamed(&[0; 5]));
    }

    proptest! {
        /// An updated fingerprint equals the one computed from scratch.
        #[test]
        fn update_equals_a_fresh_fingerprint(
            old in prop::collection::vec(any::<u32>(), 0..40),
            edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>()), 0..6),
            other in prop::collection::vec(any::<u32>(), 0..40),
        ) {
            let mut new = old.clone();
            for (at, w) in edits {
                if !new.is_empty() {
                    let i = at.index(new.len());
                    new[i] = w;
                }
            }
            prop_assert_eq!(update(of_words(&old), &old, &new), of_words(&new));
            prop_assert_eq!(update(of_words(&old), &old, &other), of_words(&other));
        }
    }
}
