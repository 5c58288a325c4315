//! A BFS layer of packed states, delta-encoded in one byte buffer.
//!
//! States of a layer are appended in the order they were found, and the
//! states found one after another are close: siblings differ from each
//! other in the YOU thing's word and perhaps a pushed one, cousins in a few
//! more. So each state is stored as the words where it differs from the
//! state before it in the layer: per changed word, the gap in positions
//! since the previous change and the XOR of old and new word, both as
//! LEB128 varints (a moved thing's word differs in a few low bits, one or
//! two bytes). A state costs a few bytes however many things the board
//! holds (walls, docks and words that never move cost nothing), where the
//! whole state costs four bytes per thing.
//!
//! A layer is read back in order, each state rebuilt from the one before,
//! which is how the search expands it. Nothing is lossy: a state read back
//! is word for word the state pushed.

/// One layer: the states in the order pushed.
#[derive(Debug, Default, Clone)]
pub struct Layer {
    bytes: Vec<u8>,
    /// The last state pushed (the base of the next delta).
    last: Vec<u32>,
    len: usize,
}

/// Header of a state stored whole (the first of a layer, or one whose
/// length differs from the state before it): `0`, then its length and words.
const WHOLE: u32 = 0;

#[inline]
fn put(bytes: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        bytes.push((v as u8) | 0x80);
        v >>= 7;
    }
    bytes.push(v as u8);
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

    /// Bytes held (capacities, what the allocator gave).
    pub fn bytes(&self) -> usize {
        self.bytes.capacity() + self.last.capacity() * 4
    }

    /// Empties the layer, keeping its buffers for the next one.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.last.clear();
        self.len = 0;
    }

    /// Appends a state.
    pub fn push(&mut self, words: &[u32]) {
        self.len += 1;
        if self.len == 1 || words.len() != self.last.len() {
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
        self.bytes.push(0);
        let mut changed = 0u32;
        let mut prev = 0usize;
        const BLOCK: usize = 8;
        for (b, (old, new)) in self
            .last
            .chunks_mut(BLOCK)
            .zip(words.chunks(BLOCK))
            .enumerate()
        {
            if old == new {
                continue;
            }
            for (k, (o, &n)) in old.iter_mut().zip(new).enumerate() {
                if *o != n {
                    let i = b * BLOCK + k;
                    put(&mut self.bytes, (i - prev) as u32);
                    put(&mut self.bytes, *o ^ n);
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

    /// Reads the states back in order.
    pub fn reader(&self) -> Reader<'_> {
        Reader {
            bytes: &self.bytes,
            at: 0,
            current: Vec::with_capacity(self.last.len()),
        }
    }
}

/// Reads a [`Layer`]'s states in order.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    current: Vec<u32>,
}

impl Reader<'_> {
    /// The next state, or `None` at the end of the layer.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<&[u32]> {
        if self.at >= self.bytes.len() {
            return None;
        }
        let header = get(self.bytes, &mut self.at);
        if header == WHOLE {
            let len = get(self.bytes, &mut self.at) as usize;
            self.current.clear();
            for _ in 0..len {
                let w = get(self.bytes, &mut self.at);
                self.current.push(w);
            }
        } else {
            let mut i = 0usize;
            for _ in 1..header {
                i += get(self.bytes, &mut self.at) as usize;
                let x = get(self.bytes, &mut self.at);
                if let Some(w) = self.current.get_mut(i) {
                    *w ^= x;
                }
                i += 1;
            }
        }
        Some(&self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
                layer.push(&s);
                pushed.push(s);
            }
            prop_assert_eq!(layer.len(), pushed.len());
            let mut r = layer.reader();
            for s in &pushed {
                prop_assert_eq!(r.next(), Some(s.as_slice()));
            }
            prop_assert_eq!(r.next(), None);
        }
    }

    #[test]
    fn a_moved_word_costs_a_few_bytes() {
        let mut layer = Layer::default();
        let mut s: Vec<u32> = (0..300).map(|i| 0x8000_0000 | i).collect();
        layer.push(&s);
        let whole = layer.bytes.len();
        s[150] += 1;
        s[151] += 256;
        layer.push(&s);
        // Count, then (gap, XOR) per word: (150: two bytes, 1: one), (0: one, 0x100: two).
        assert_eq!(layer.bytes.len() - whole, 1 + (2 + 1) + (1 + 2));
        // Far more changes than a one-byte count holds.
        let t: Vec<u32> = s.iter().map(|w| w ^ 1).collect();
        layer.push(&t);
        let mut r = layer.reader();
        r.next();
        assert_eq!(r.next(), Some(s.as_slice()));
        assert_eq!(r.next(), Some(t.as_slice()));
    }
}
