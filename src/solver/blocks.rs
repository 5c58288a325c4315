//! The one general-purpose compressed format of the search's stores (the
//! push search's numbers have their own, [`super::gaps`]): an LZ4 block after
//! the length of its bytes before compression (a little-endian `u32`, the
//! layout `lz4_flex` itself uses for "size prepended" blocks).
//!
//! Frontier segments ([`super::frontier`]) and the push search's pending
//! buckets of cells ([`super::pushes`]) both write and read their blocks here, so
//! each expands into a buffer it reuses and guards against a length it
//! never wrote.

/// Appends `raw`, compressed, to `out` (its length first).
pub fn pack(raw: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&(raw.len() as u32).to_le_bytes());
    let at = out.len();
    out.resize(at + lz4_flex::block::get_maximum_output_size(raw.len()), 0);
    // The output is sized for any input, so this does not fail; should it,
    // the block is left claiming bytes it lacks, and reads as unreadable.
    let written = lz4_flex::block::compress_into(raw, &mut out[at..]).unwrap_or(0);
    out.truncate(at + written);
}

/// Expands `block` (written by [`pack`]) into `into`, replacing what it
/// held; `false`, and `into` empty, when the block claims more than
/// `most` bytes or does not expand to what it claims.
pub fn unpack(block: &[u8], most: usize, into: &mut Vec<u8>) -> bool {
    into.clear();
    let Ok((len, rest)) = lz4_flex::block::uncompressed_size(block) else {
        return false;
    };
    if len > most {
        return false;
    }
    into.resize(len, 0);
    if lz4_flex::block::decompress_into(rest, into).ok() != Some(len) {
        into.clear();
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Any bytes read back as written, within or over their length.
        #[test]
        fn blocks_read_back(raw in prop::collection::vec(0u8..4, 0..3000)) {
            let mut out = vec![9, 9];
            pack(&raw, &mut out);
            let mut back = vec![1];
            prop_assert!(unpack(&out[2..], raw.len(), &mut back));
            prop_assert_eq!(&back, &raw);
            if !raw.is_empty() {
                prop_assert!(!unpack(&out[2..], raw.len() - 1, &mut back));
                prop_assert!(back.is_empty());
            }
        }
    }

    /// A block cut short or a length that is not there reads as nothing.
    #[test]
    fn damaged_blocks_are_refused() {
        let mut out = Vec::new();
        pack(&[7; 500], &mut out);
        let mut back = Vec::new();
        assert!(!unpack(&out[..out.len() - 1], 500, &mut back));
        assert!(!unpack(&out[..3], 500, &mut back));
        assert!(back.is_empty());
    }
}
