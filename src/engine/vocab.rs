//! Word classes and interned tokens (`rules.md` §2).
//!
//! Every noun, word text and property word of a level is interned as a [`Tok`],
//! so the hot path compares small integers instead of strings.

use std::collections::BTreeMap;

/// An interned token: a noun, a word text or a property word.
pub type Tok = u16;

/// The grammatical class of a token in one level (§2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// `IS`.
    Is,
    /// `AND`.
    And,
    /// A property word; the payload is its bit in a property set.
    Prop(u8),
    /// Any other token.
    Noun,
}

/// Property bit of `YOU`.
pub const YOU: u64 = 1 << 0;
/// Property bit of `PUSH`.
pub const PUSH: u64 = 1 << 1;
/// Property bit of `STOP`.
pub const STOP: u64 = 1 << 2;
/// Property bit of `WIN`.
pub const WIN: u64 = 1 << 3;
/// Property bit of `SINK`.
pub const SINK: u64 = 1 << 4;
/// Property bit of `DEFEAT`.
pub const DEFEAT: u64 = 1 << 5;
/// Property bit of `GOAL`.
pub const GOAL: u64 = 1 << 6;
/// Property bit of `FRAIL`.
pub const FRAIL: u64 = 1 << 7;
/// Property bit of `FLOAT`.
pub const FLOAT: u64 = 1 << 8;

/// The built-in property words, in bit order.
pub const BUILTIN_PROPS: [&str; 9] = [
    "YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "GOAL", "FRAIL", "FLOAT",
];

/// The token table of one level.
#[derive(Debug, Clone, Default)]
pub struct Vocab {
    names: Vec<String>,
    classes: Vec<Class>,
    index: BTreeMap<String, Tok>,
    next_bit: u8,
}

impl Vocab {
    /// A table holding the reserved words; declared properties are added with
    /// [`Vocab::declare_property`] before any other token is interned.
    pub fn new() -> Self {
        let mut v = Vocab {
            next_bit: BUILTIN_PROPS.len() as u8,
            ..Vocab::default()
        };
        v.push("IS", Class::Is);
        v.push("AND", Class::And);
        for (bit, p) in BUILTIN_PROPS.iter().enumerate() {
            v.push(p, Class::Prop(bit as u8));
        }
        v
    }

    fn push(&mut self, name: &str, class: Class) -> Tok {
        let t = self.names.len() as Tok;
        self.names.push(name.to_string());
        self.classes.push(class);
        self.index.insert(name.to_string(), t);
        t
    }

    /// Makes `name` a declared property word of this level (§2.2) and returns
    /// its token. Reserved words keep their class. Beyond 64 property words
    /// the last bit is shared: the loader caps declarations far below that.
    pub fn declare_property(&mut self, name: &str) -> Tok {
        if let Some(&t) = self.index.get(name) {
            return t;
        }
        let bit = self.next_bit.min(63);
        self.next_bit = self.next_bit.saturating_add(1);
        self.push(name, Class::Prop(bit))
    }

    /// The token of `name`, interning it as a noun when new.
    pub fn intern(&mut self, name: &str) -> Tok {
        match self.index.get(name) {
            Some(&t) => t,
            None => self.push(name, Class::Noun),
        }
    }

    /// The token of `name`, if interned.
    pub fn get(&self, name: &str) -> Option<Tok> {
        self.index.get(name).copied()
    }

    /// The text of a token.
    pub fn name(&self, t: Tok) -> &str {
        self.names.get(t as usize).map_or("?", String::as_str)
    }

    /// The class of a token.
    pub fn class(&self, t: Tok) -> Class {
        self.classes.get(t as usize).copied().unwrap_or(Class::Noun)
    }

    /// The property bit of a token, if it is a property word.
    pub fn prop_bit(&self, t: Tok) -> u64 {
        match self.class(t) {
            Class::Prop(b) => 1u64 << b,
            _ => 0,
        }
    }

    /// Number of tokens.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Always false: the reserved words are always present.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
