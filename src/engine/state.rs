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

/// One entity, unpacked for the turn's working copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Ent {
    pub x: u8,
    pub y: u8,
    /// Noun (things) or word text (words).
    pub noun: u16,
    pub open: bool,
    pub alive: bool,
}

impl Ent {
    #[inline]
    pub(crate) fn pack(self) -> u32 {
        let w = u32::from(self.x)
            | u32::from(self.y) << 8
            | (u32::from(self.noun) & NOUN_MASK) << 16
            | (u32::from(self.open) * OPEN)
            | ALIVE;
        // Branch-free: a removed entity's mask is zero, so it packs to 0.
        w & 0u32.wrapping_sub(u32::from(self.alive))
    }

    fn unpack(w: u32) -> Ent {
        Ent {
            x: w as u8,
            y: (w >> 8) as u8,
            noun: ((w >> 16) & NOUN_MASK) as u16,
            open: w & OPEN != 0,
            alive: w & ALIVE != 0,
        }
    }
}

impl State {
    pub(crate) fn pack(ents: &[Ent], phases: &[u8], won: bool) -> State {
        let n = ents.len();
        let mut data = vec![0u32; n + phases.len().div_ceil(4) + 1].into_boxed_slice();
        for (d, e) in data.iter_mut().zip(ents) {
            *d = e.pack();
        }
        for (d, chunk) in data[n..].iter_mut().zip(phases.chunks(4)) {
            for (i, &p) in chunk.iter().enumerate() {
                *d |= u32::from(p) << (8 * i);
            }
        }
        if let Some(last) = data.last_mut() {
            *last = u32::from(won);
        }
        State { data }
    }

    pub(crate) fn ent(&self, i: usize) -> Ent {
        Ent::unpack(self.data[i])
    }

    pub(crate) fn unpack_into(
        &self,
        n: usize,
        na: usize,
        ents: &mut Vec<Ent>,
        phases: &mut Vec<u8>,
    ) {
        ents.clear();
        ents.extend(self.data[..n].iter().map(|&w| Ent::unpack(w)));
        phases.clear();
        for i in 0..na {
            phases.push(self.phase_at(n, i));
        }
    }

    pub(crate) fn phase_at(&self, n: usize, i: usize) -> u8 {
        (self.data[n + i / 4] >> (8 * (i % 4))) as u8
    }

    /// Whether the play is won (terminal until undo or reset, §6.2).
    pub fn won(&self) -> bool {
        self.data.last().is_some_and(|&w| w & 1 != 0)
    }

    /// Size of the state's payload in bytes (without the box header).
    pub fn payload_bytes(&self) -> usize {
        self.data.len() * 4
    }
}
