//! Compiling a [`model::Level`] into the engine's immutable [`Game`].

use super::state::{Ent, State};
use super::vocab::{Class, Tok, Vocab};
use crate::model::{self, Kind, Step};

/// Index of an entity: entities are stored in id order (§1.5), so index order
/// *is* id order and every "in id order" of the spec is a plain index loop.
pub type EntId = u16;

/// Static data of one entity.
#[derive(Debug, Clone)]
pub struct EntInfo {
    /// The stable id.
    pub id: String,
    /// Word tile (true) or thing.
    pub word: bool,
    /// A fixed word (§9.6).
    pub fixed: bool,
    /// Channel index into [`model::CHANNELS`] (unknown names follow them).
    pub channel: Option<u8>,
}

/// One automaton record, compiled (§9.1).
#[derive(Debug, Clone)]
pub struct Auto {
    /// Record id.
    pub id: String,
    /// The noun it is restricted to.
    pub subject: Option<Tok>,
    /// Its property word.
    pub property: Tok,
    /// The pattern; never empty (an empty pattern compiles to one wait).
    pub pattern: Vec<Step>,
}

/// One pair record, compiled (§9.2).
#[derive(Debug, Clone)]
pub struct PairDef {
    /// First word (`OPEN`).
    pub a: Tok,
    /// Second word (`SHUT`).
    pub b: Tok,
    /// `enter: true`.
    pub enter: bool,
    /// The destruction cause: the first word lowercased.
    pub cause: String,
}

/// A level compiled for play: everything that never changes during play.
#[derive(Debug, Clone)]
pub struct Game {
    /// Board width in cells.
    pub width: u8,
    /// Board height in cells.
    pub height: u8,
    /// The level's token table.
    pub vocab: Vocab,
    /// Entities in id order.
    pub ents: Vec<EntInfo>,
    /// Automata in id order (the order they take their beat).
    pub automata: Vec<Auto>,
    /// Pairs in declaration order.
    pub pairs: Vec<PairDef>,
    /// Frail leftovers, indexed by noun token; `None` means "removed".
    pub(crate) leaves: Vec<Option<Tok>>,
    /// Terrain nouns, in level order.
    pub terrain: Vec<Tok>,
    pub(crate) gate: Tok,
    pub(crate) plate: Tok,
    /// Entity state before the reset procedure.
    pub(crate) init_ents: Vec<Ent>,
    pub(crate) init_phases: Vec<u8>,
    /// Whether any entity has a channel (so the key stores `open` bits).
    pub(crate) has_channels: bool,
    /// The word tiles, in id order.
    pub(crate) word_ids: Vec<EntId>,
    /// Per noun token, the things whose noun it is at reset, in id order.
    pub(crate) things_by_noun: Vec<Vec<EntId>>,
    /// Per entity: [`F_WORD`], [`F_FIXED`], [`F_CHANNEL`]; a compact copy of
    /// [`EntInfo`] for the hot loops.
    pub(crate) flags: Vec<u8>,
    /// Distinguishes games, so a [`super::Scratch`] moved to another game
    /// drops the parses it cached for the first.
    pub(crate) stamp: u64,
}

/// Entity flag: a word tile.
pub(crate) const F_WORD: u8 = 1;
/// Entity flag: a fixed word.
pub(crate) const F_FIXED: u8 = 2;
/// Entity flag: has a channel.
pub(crate) const F_CHANNEL: u8 = 4;

static STAMPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl Game {
    /// Compiles a level. Never fails: objects outside the board or beyond the
    /// entity limit are dropped, since the loader rejects such levels anyway
    /// and the engine must not panic on them.
    pub fn new(level: &model::Level) -> Game {
        let width = level.width.clamp(1, 255) as u8;
        let height = level.height.clamp(1, 255) as u8;
        let mut vocab = declare_properties(level);
        let gate = vocab.intern("GATE");
        let plate = vocab.intern("PLATE");
        let objs = objects_in_id_order(level, width, height);
        let (ents, init_ents) = compile_entities(&objs, &mut vocab);
        let (automata, init_phases) = compile_automata(level, &mut vocab);
        let pairs = compile_pairs(level, &mut vocab);
        let terrain = compile_terrain(level, &mut vocab);
        let leaves = compile_leaves(level, &mut vocab);
        let has_channels = ents.iter().any(|e| e.channel.is_some());
        let flags = entity_flags(&ents);
        let word_ids = (0..ents.len())
            .filter(|&i| ents[i].word)
            .map(|i| i as EntId)
            .collect();
        let things_by_noun = things_by_noun(&ents, &init_ents, vocab.len());
        Game {
            width,
            height,
            vocab,
            ents,
            automata,
            pairs,
            leaves,
            terrain,
            gate,
            plate,
            init_ents,
            init_phases,
            has_channels,
            word_ids,
            things_by_noun,
            flags,
            stamp: STAMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// Number of entities.
    pub fn len(&self) -> usize {
        self.ents.len()
    }

    /// Whether the level has no entity.
    pub fn is_empty(&self) -> bool {
        self.ents.is_empty()
    }

    /// The id of an entity.
    pub fn id(&self, e: EntId) -> &str {
        &self.ents[e as usize].id
    }

    /// The entity with this id.
    pub fn find(&self, id: &str) -> Option<EntId> {
        self.ents
            .binary_search_by(|e| e.id.as_bytes().cmp(id.as_bytes()))
            .ok()
            .map(|i| i as EntId)
    }

    /// The text of a token.
    pub fn name(&self, t: Tok) -> &str {
        self.vocab.name(t)
    }

    /// The token of a text (uppercased), if the level uses it.
    pub fn tok(&self, text: &str) -> Option<Tok> {
        self.vocab.get(&text.to_ascii_uppercase())
    }

    /// A (subject, predicate) pair as `SUBJECT IS PREDICATE`.
    pub fn rule_text(&self, rule: (Tok, Tok)) -> String {
        format!("{} IS {}", self.name(rule.0), self.name(rule.1))
    }

    /// Parses `SUBJECT IS PREDICATE` (as in `mustForm`) into a pair of
    /// tokens; `None` when a word is unknown to the level or the text is not
    /// of that shape.
    pub fn parse_rule(&self, text: &str) -> Option<(Tok, Tok)> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        match parts.as_slice() {
            [s, is, p] if is.eq_ignore_ascii_case("IS") => Some((self.tok(s)?, self.tok(p)?)),
            _ => None,
        }
    }

    /// The current cell of an entity, or `None` once it is removed.
    pub fn pos(&self, s: &State, e: EntId) -> Option<(u8, u8)> {
        let x = s.ent(e as usize);
        x.alive().then_some((x.x(), x.y()))
    }

    /// Whether entity `e` is live in a state's packed words ([`State::words`]).
    pub fn alive_in(words: &[u32], e: EntId) -> bool {
        words
            .get(usize::from(e))
            .is_some_and(|&w| super::state::alive(w))
    }

    /// The cell of entity `e` in a state's packed words ([`State::words`]),
    /// or `None` once it is removed (or past the state's entities).
    pub fn cell_in(words: &[u32], e: EntId) -> Option<(u8, u8)> {
        let x = Ent::from_word(*words.get(usize::from(e))?);
        x.alive().then_some((x.x(), x.y()))
    }

    /// The noun of thing `e` (or text of a word) in a state's packed words
    /// ([`State::words`]), or `None` once it is removed.
    pub fn noun_in(words: &[u32], e: EntId) -> Option<Tok> {
        let x = Ent::from_word(*words.get(usize::from(e))?);
        x.alive().then_some(x.noun())
    }

    /// The current noun of a thing (or text of a word), or `None` once removed.
    pub fn noun(&self, s: &State, e: EntId) -> Option<Tok> {
        let x = s.ent(e as usize);
        x.alive().then_some(x.noun())
    }

    /// The `open` flag of an entity (meaningful for channel holders).
    pub fn open(&self, s: &State, e: EntId) -> bool {
        s.ent(e as usize).open()
    }

    /// The phase of automaton record `i` (in id order).
    pub fn phase(&self, s: &State, i: usize) -> u8 {
        s.phase_at(self.ents.len(), i)
    }

    /// Live entities in id order.
    pub fn live(&self, s: &State) -> Vec<EntId> {
        (0..self.ents.len())
            .filter(|&i| s.ent(i).alive())
            .map(|i| i as EntId)
            .collect()
    }

    /// The canonical solver key of §10.3: per entity (implicitly by id order)
    /// its cell, and for things its noun and, for channel holders, `open`;
    /// then every phase and `won`. Words' texts and `fixed`/`channel` never
    /// change and are left out.
    pub fn key(&self, s: &State) -> Box<[u8]> {
        let wide = self.vocab.len() > 256;
        let mut out = Vec::with_capacity(self.ents.len() * 3 + self.automata.len() + 1);
        for (i, info) in self.ents.iter().enumerate() {
            let e = s.ent(i);
            if !e.alive() {
                out.extend_from_slice(&[0xFF, 0xFF]);
                continue;
            }
            out.push(e.x());
            out.push(e.y());
            if !info.word {
                if wide {
                    out.extend_from_slice(&e.noun().to_le_bytes());
                } else {
                    out.push(e.noun() as u8);
                }
                if info.channel.is_some() {
                    out.push(u8::from(e.open()));
                }
            }
        }
        for i in 0..self.automata.len() {
            out.push(self.phase(s, i));
        }
        out.push(u8::from(s.won()));
        out.into_boxed_slice()
    }
}

/// A token table with every automaton and pair word declared a property
/// first, so those words parse as properties wherever they appear later.
fn declare_properties(level: &model::Level) -> Vocab {
    let mut vocab = Vocab::new();
    for a in &level.automata {
        vocab.declare_property(&a.property.text.to_ascii_uppercase());
    }
    for p in &level.pairs {
        for w in &p.words {
            vocab.declare_property(&w.text.to_ascii_uppercase());
        }
    }
    vocab
}

/// The level's objects that lie on the board, each with its stable id (a
/// missing id becomes `#` and the object's index), sorted by id bytes so
/// index order is id order (§1.5), and cut to the entity limit.
fn objects_in_id_order(
    level: &model::Level,
    width: u8,
    height: u8,
) -> Vec<(String, &model::Object)> {
    let mut objs: Vec<(String, &model::Object)> = level
        .objects
        .iter()
        .enumerate()
        .filter(|(_, o)| o.x < u32::from(width) && o.y < u32::from(height))
        .map(|(i, o)| {
            let id = if o.id.is_empty() {
                format!("#{i:04}")
            } else {
                o.id.clone()
            };
            (id, o)
        })
        .collect();
    objs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    objs.truncate(u16::MAX as usize - 1);
    objs
}

/// Each object's static data and its state before the reset procedure,
/// interning its text in `vocab` in id order.
fn compile_entities(
    objs: &[(String, &model::Object)],
    vocab: &mut Vocab,
) -> (Vec<EntInfo>, Vec<Ent>) {
    let mut ents = Vec::with_capacity(objs.len());
    let mut init_ents = Vec::with_capacity(objs.len());
    let mut extra_channels: Vec<String> = Vec::new();
    for (id, o) in objs {
        let tok = vocab.intern(&o.text.to_ascii_uppercase());
        let word = o.kind == Kind::Word;
        let channel = if word {
            None
        } else {
            o.channel
                .as_ref()
                .map(|c| channel_index(c, &mut extra_channels))
        };
        ents.push(EntInfo {
            id: id.clone(),
            word,
            fixed: word && o.fixed,
            channel,
        });
        init_ents.push(Ent::new(o.x as u8, o.y as u8, tok));
    }
    (ents, init_ents)
}

/// The index of channel `name`: its place in [`model::CHANNELS`], or for an
/// unknown name a place after them in first-seen order (recorded in
/// `extra`), capped at 255.
fn channel_index(name: &str, extra: &mut Vec<String>) -> u8 {
    match model::CHANNELS.iter().position(|k| *k == name) {
        Some(i) => i as u8,
        None => {
            let i = extra.iter().position(|k| k == name).unwrap_or_else(|| {
                extra.push(name.to_string());
                extra.len() - 1
            });
            (model::CHANNELS.len() + i).min(255) as u8
        }
    }
}

/// The automata in id order (the order they take their beat) with their
/// starting phases, each phase reduced modulo its pattern's length. An
/// empty pattern becomes one wait so the modulo is always defined.
fn compile_automata(level: &model::Level, vocab: &mut Vocab) -> (Vec<Auto>, Vec<u8>) {
    let automata = level.automata.iter().map(|a| Auto {
        id: a.id.text.clone(),
        subject: a
            .subject
            .as_ref()
            .map(|s| vocab.intern(&s.text.to_ascii_uppercase())),
        property: vocab.intern(&a.property.text.to_ascii_uppercase()),
        pattern: if a.pattern.is_empty() {
            vec![Step::Wait]
        } else {
            a.pattern.clone()
        },
    });
    let mut phased: Vec<(Auto, u8)> = automata
        .zip(level.automata.iter())
        .map(|(a, m)| {
            let len = a.pattern.len() as u64;
            let p = (m.phase.unwrap_or(0) % len).min(255) as u8;
            (a, p)
        })
        .collect();
    phased.sort_by(|x, y| x.0.id.as_bytes().cmp(y.0.id.as_bytes()));
    let init_phases = phased.iter().map(|p| p.1).collect();
    let automata = phased.into_iter().map(|p| p.0).collect();
    (automata, init_phases)
}

/// The pair records with exactly two words, in declaration order; any
/// other record has no pair to play and is skipped.
fn compile_pairs(level: &model::Level, vocab: &mut Vocab) -> Vec<PairDef> {
    level
        .pairs
        .iter()
        .filter(|p| p.words.len() == 2)
        .map(|p| {
            let a = vocab.intern(&p.words[0].text.to_ascii_uppercase());
            let b = vocab.intern(&p.words[1].text.to_ascii_uppercase());
            PairDef {
                a,
                b,
                enter: p.enter,
                cause: p.words[0].text.to_ascii_lowercase(),
            }
        })
        .collect()
}

/// The terrain nouns in level order, each once; words that are not nouns
/// are skipped.
fn compile_terrain(level: &model::Level, vocab: &mut Vocab) -> Vec<Tok> {
    let mut terrain: Vec<Tok> = Vec::new();
    for t in &level.terrain {
        let t = vocab.intern(&t.text.to_ascii_uppercase());
        if vocab.class(t) == Class::Noun && !terrain.contains(&t) {
            terrain.push(t);
        }
    }
    terrain
}

/// The frail leftovers indexed by noun token, the first entry for a noun
/// winning. All leaf words are interned before the table is sized, so it
/// covers every token.
fn compile_leaves(level: &model::Level, vocab: &mut Vocab) -> Vec<Option<Tok>> {
    let mut leaf_pairs = Vec::new();
    if let Some(f) = &level.frail {
        for (k, v) in &f.leaves {
            let k = vocab.intern(&k.text.to_ascii_uppercase());
            let v = vocab.intern(&v.text.to_ascii_uppercase());
            leaf_pairs.push((k, v));
        }
    }
    let mut leaves = vec![None; vocab.len()];
    for (k, v) in leaf_pairs {
        if leaves[k as usize].is_none() {
            leaves[k as usize] = Some(v);
        }
    }
    leaves
}

/// The compact per-entity flags ([`F_WORD`], [`F_FIXED`], [`F_CHANNEL`])
/// that the hot loops read instead of [`EntInfo`].
fn entity_flags(ents: &[EntInfo]) -> Vec<u8> {
    ents.iter()
        .map(|e| {
            (if e.word { F_WORD } else { 0 })
                | (if e.fixed { F_FIXED } else { 0 })
                | (if e.channel.is_some() { F_CHANNEL } else { 0 })
        })
        .collect()
}

/// Per noun token (`tokens` of them), the things whose noun it is at
/// reset, in id order.
fn things_by_noun(ents: &[EntInfo], init_ents: &[Ent], tokens: usize) -> Vec<Vec<EntId>> {
    let mut things_by_noun = vec![Vec::new(); tokens];
    for (i, e) in init_ents.iter().enumerate() {
        if !ents[i].word {
            if let Some(list) = things_by_noun.get_mut(usize::from(e.noun())) {
                list.push(i as EntId);
            }
        }
    }
    things_by_noun
}
