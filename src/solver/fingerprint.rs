//! 128-bit fingerprints of state keys.
//!
//! The visited set stores fingerprints instead of whole keys so a state costs
//! a fixed 16 bytes whatever the level's size. With 128 bits, the chance that
//! two of ten million distinct states collide is about 10^-25: far below the
//! chance of a hardware fault during the search. The hash is fixed and
//! seedless, so results are the same on every machine.

const P1: u64 = 0x9E37_79B9_7F4A_7C15;
const P2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P3: u64 = 0x1656_67B1_9E37_79F9;

#[inline]
fn mix(a: u64, b: u64) -> u64 {
    let r = (a as u128).wrapping_mul(b as u128);
    (r as u64) ^ ((r >> 64) as u64)
}

/// The fingerprint of `bytes`.
#[inline]
pub fn of(bytes: &[u8]) -> u128 {
    let mut h1 = P1 ^ bytes.len() as u64;
    let mut h2 = P2.rotate_left(17) ^ (bytes.len() as u64).wrapping_mul(P3);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h1 = mix(h1 ^ w, P2);
        h2 = mix(h2 ^ w.rotate_left(29), P3) ^ h1.rotate_left(7);
    }
    let rest = chunks.remainder();
    let mut tail = [0u8; 8];
    tail[..rest.len()].copy_from_slice(rest);
    let w = u64::from_le_bytes(tail) ^ ((rest.len() as u64) << 56);
    h1 = mix(h1 ^ w, P3);
    h2 = mix(h2 ^ w, P1) ^ h1;
    h1 = mix(h1, h2 ^ P2);
    ((h1 as u128) << 64) | mix(h2, P1 ^ h1) as u128
}

/// The fingerprint of a packed state: the same as [`of`] over the words'
/// little-endian bytes, without copying them.
#[inline]
pub fn of_words(words: &[u32]) -> u128 {
    let n = words.len() as u64 * 4;
    let mut h1 = P1 ^ n;
    let mut h2 = P2.rotate_left(17) ^ n.wrapping_mul(P3);
    let mut chunks = words.chunks_exact(2);
    for c in &mut chunks {
        let w = u64::from(c[0]) | u64::from(c[1]) << 32;
        h1 = mix(h1 ^ w, P2);
        h2 = mix(h2 ^ w.rotate_left(29), P3) ^ h1.rotate_left(7);
    }
    let (w, rest) = match chunks.remainder() {
        [x] => (u64::from(*x), 4u64),
        _ => (0, 0),
    };
    let w = w ^ (rest << 56);
    h1 = mix(h1 ^ w, P3);
    h2 = mix(h2 ^ w, P1) ^ h1;
    h1 = mix(h1, h2 ^ P2);
    ((h1 as u128) << 64) | mix(h2, P1 ^ h1) as u128
}

#[cfg(test)]
mod tests {
    #[test]
    fn distinct_short_keys_get_distinct_fingerprints() {
        let mut seen = std::collections::HashSet::new();
        for a in 0u16..=255 {
            for b in 0u16..=255 {
                assert!(seen.insert(super::of(&[a as u8, b as u8])));
            }
            assert!(seen.insert(super::of(&[a as u8])));
        }
        assert_ne!(super::of(&[0; 8]), super::of(&[0; 9]));
        assert_ne!(super::of(&[]), super::of(&[0]));
    }

    #[test]
    fn words_hash_as_their_bytes() {
        for words in [
            &[][..],
            &[1][..],
            &[1, 2][..],
            &[7, 0, 9][..],
            &[u32::MAX; 8][..],
        ] {
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(super::of_words(words), super::of(&bytes));
        }
    }
}
