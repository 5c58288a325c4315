//! The compact play state (`rules.md` §10.1) and its unpacked working form.
//!
//! A [`State`] is one boxed slice of `u32`: one word per entity, then the
//! automaton phases four to a word, then a flags word. A solver storing
//! millions of states pays one allocation and `4·(n + ⌈a/4⌉ + 1)` bytes each.

/// Entity word layout: x in bits 0–7, y in 8–15, noun in 16–29, open in 30,
/// alive in 31. A removed entity is the zero word, so states that differ only
/// in where a removed entity used to be compare equal.
const ALIVE: u32 = 1 << 31;
const OPEN: u32 = 1 << 30;
const NOUN_MASK: u32 = 0x3FFF;

/// A play state: entities (in id order), automaton phases and the `won` flag.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub(crate) data: Box<[u32]>,
}

/// One entity of the turn's working copy: its packed word, read and
/// written through accessors. Keeping the working copy in the packed layout
/// makes unpacking a state a copy and packing one a masked copy.
///
/// A removed entity keeps its cell and noun here (reports name where it
/// was) with the alive bit clear; [`Ent::pack`] turns it into the zero word.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
#[repr(transparent)]
pub(crate) struct Ent(u32);

impl std::fmt::Debug for Ent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ent")
            .field("x", &self.x())
            .field("y", &self.y())
            .field("noun", &self.noun())
            .field("open", &self.open())
            .field("alive", &self.alive())
            .finish()
    }
}

impl Ent {
    /// A live entity at `(x, y)` with noun (or word text) `noun`.
    pub(crate) fn new(x: u8, y: u8, noun: u16) -> Ent {
        Ent(u32::from(x) | u32::from(y) << 8 | (u32::from(noun) & NOUN_MASK) << 16 | ALIVE)
    }

    /// Column.
    #[inline]
    pub(crate) fn x(self) -> u8 {
        self.0 as u8
    }

    /// Row.
    #[inline]
    pub(crate) fn y(self) -> u8 {
        (self.0 >> 8) as u8
    }

    /// Noun (things) or word text (words).
    #[inline]
    pub(crate) fn noun(self) -> u16 {
        ((self.0 >> 16) & NOUN_MASK) as u16
    }

    /// The `open` flag of a channel holder.
    #[inline]
    pub(crate) fn open(self) -> bool {
        self.0 & OPEN != 0
    }

    /// Whether the entity is still on the board.
    #[inline]
    pub(crate) fn alive(self) -> bool {
        self.0 & ALIVE != 0
    }

    /// Changes the noun (a transform, a crumble's leftover).
    #[inline]
    pub(crate) fn set_noun(&mut self, noun: u16) {
        self.0 = (self.0 & !(NOUN_MASK << 16)) | (u32::from(noun) & NOUN_MASK) << 16;
    }

    /// Sets the `open` flag.
    #[inline]
    pub(crate) fn set_open(&mut self, open: bool) {
        self.0 = (self.0 & !OPEN) | (u32::from(open) * OPEN);
    }

    /// Removes the entity from the board, keeping where it was.
    #[inline]
    pub(crate) fn remove(&mut self) {
        self.0 &= !ALIVE;
    }

    /// Moves the entity to cell `(x, y)`.
    #[inline]
    pub(crate) fn set_cell(&mut self, x: u8, y: u8) {
        self.0 = (self.0 & !0xFFFF) | u32::from(x) | u32::from(y) << 8;
    }

    /// The state word: the working word, or zero for a removed entity.
    #[inline]
    pub(crate) fn pack(self) -> u32 {
        // Branch-free: a removed entity's mask is zero.
        self.0 & 0u32.wrapping_sub(self.0 >> 31)
    }

    /// The entity of a state word.
    #[inline]
    pub(crate) fn from_word(w: u32) -> Ent {
        Ent(w)
    }
}

impl State {
    pub(crate) fn pack(ents: &[Ent], phases: &[u8], won: bool) -> State {
        let mut data = Vec::with_capacity(words_len(ents.len(), phases.len()));
        pack_into(ents, phases, won, &mut data);
        State {
            data: data.into_boxed_slice(),
        }
    }

    pub(crate) fn ent(&self, i: usize) -> Ent {
        Ent::from_word(self.data[i])
    }

    pub(crate) fn unpack_into(
        &self,
        n: usize,
        na: usize,
        ents: &mut Vec<Ent>,
        phases: &mut Vec<u8>,
    ) {
        unpack_into(&self.data, n, na, ents, phases);
    }

    pub(crate) fn phase_at(&self, n: usize, i: usize) -> u8 {
        phase_at(&self.data, n, i)
    }

    /// Whether the play is won (terminal until undo or reset, §6.2).
    pub fn won(&self) -> bool {
        won(&self.data)
    }

    /// Size of the state's payload in bytes (without the box header).
    pub fn payload_bytes(&self) -> usize {
        self.data.len() * 4
    }
}

/// The number of words of a packed state with `n` entities and `na` automata.
pub(crate) fn words_len(n: usize, na: usize) -> usize {
    n + na.div_ceil(4) + 1
}

/// Appends the packed words of a working state to `out`: the solver packs
/// successors straight into its frontier buffer, without a `State` each.
pub(crate) fn pack_into(ents: &[Ent], phases: &[u8], won: bool, out: &mut Vec<u32>) {
    out.reserve(words_len(ents.len(), phases.len()));
    out.extend(ents.iter().map(|e| e.pack()));
    for chunk in phases.chunks(4) {
        let mut w = 0;
        for (i, &p) in chunk.iter().enumerate() {
            w |= u32::from(p) << (8 * i);
        }
        out.push(w);
    }
    out.push(u32::from(won));
}

/// Unpacks the first `n` entity words and `na` phases of packed `words`.
pub(crate) fn unpack_into(
    words: &[u32],
    n: usize,
    na: usize,
    ents: &mut Vec<Ent>,
    phases: &mut Vec<u8>,
) {
    ents.clear();
    ents.extend(words[..n].iter().map(|&w| Ent::from_word(w)));
    phases.clear();
    phases.extend((0..na).map(|i| phase_at(words, n, i)));
}

/// Phase `i` of packed `words` with `n` entities.
pub(crate) fn phase_at(words: &[u32], n: usize, i: usize) -> u8 {
    (words[n + i / 4] >> (8 * (i % 4))) as u8
}

/// Whether packed `words` are a won state.
pub(crate) fn won(words: &[u32]) -> bool {
    words.last().is_some_and(|&w| w & 1 != 0)
}

/// Whether entity word `w` is a live entity.
pub(crate) fn alive(w: u32) -> bool {
    w & ALIVE != 0
}

/// Whether every entity of `ents` is live with the noun it has in `init`
/// (all live there): one pass of bit operations the compiler vectorises.
pub(crate) fn same_nouns(ents: &[Ent], init: &[Ent]) -> bool {
    ents.len() == init.len()
        && ents.iter().zip(init).fold(0, |acc, (a, b)| {
            acc | ((a.0 ^ b.0) & (NOUN_MASK << 16 | ALIVE))
        }) == 0
}

/// Whether entity words `a` and `b` are the same live entity, possibly in
/// another cell or with another `open` flag: both live, same noun.
pub(crate) fn same_live_noun(a: u32, b: u32) -> bool {
    a & b & ALIVE != 0 && (a ^ b) & (NOUN_MASK << 16) == 0
}
