//! Parsing (`rules.md` §3): readings, sentences, spans and rule records.

use super::game::{EntId, F_WORD, Game};
use super::state::Ent;
use super::vocab::{Class, Tok};
use std::cmp::Ordering;

/// The axis a record was read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    /// An implicit terrain record (§9.7); sorts first.
    Terrain,
    /// A row, read left to right.
    H,
    /// A column, read top to bottom.
    V,
}

impl Axis {
    /// `h`, `v` or `terrain`.
    pub fn as_str(self) -> &'static str {
        match self {
            Axis::Terrain => "terrain",
            Axis::H => "h",
            Axis::V => "v",
        }
    }
}

/// One rule record (§3.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleRecord {
    /// Subject noun.
    pub subject: Tok,
    /// Predicate (noun or property word).
    pub predicate: Tok,
    /// Axis.
    pub axis: Axis,
    /// Cell of the sentence's first word (`(0, 0)` for terrain records).
    pub at: (u8, u8),
    /// Index of the subject word in the record's [`Rules::words`]; terrain: 0.
    pub subject_index: u8,
    /// Index of the predicate word in the record's [`Rules::words`]; terrain: 0.
    pub predicate_index: u8,
    /// Order among terrain records (0 for board records).
    terrain_rank: u16,
    words: (u32, u32),
}

/// One sentence (§3.4): the cells and words of a surviving reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence {
    /// Axis (`H` or `V`).
    pub axis: Axis,
    /// First cell.
    pub at: (u8, u8),
    /// The words, one per cell, in path order.
    pub words: Vec<EntId>,
}

/// The result of one parse: the rule list in reading order and what is
/// derived from it.
#[derive(Debug, Clone, Default)]
pub struct Rules {
    /// Records in reading order.
    pub records: Vec<RuleRecord>,
    arena: Vec<EntId>,
    /// Sentences, in discovery order (only filled by a detailed parse).
    pub sentences: Vec<Sentence>,
    /// Property set per noun token (§4.1), without the word/gate special cases.
    pub(crate) props: Vec<u64>,
    /// Union of [`Rules::props`] over every noun: a superset of the
    /// properties any thing can have under this parse, so a turn can skip a
    /// phase (crumbling, contacts) whose property no noun holds.
    pub(crate) any_props: u64,
    /// The effective rule set: distinct (subject, predicate), sorted.
    pub pairs: Vec<(Tok, Tok)>,
    /// The transform map of §4.2 (subject noun → noun), first record per
    /// subject in reading order: derived here, once per parse, rather than
    /// on every transform phase.
    pub(crate) transforms: Vec<(Tok, Tok)>,
}

impl Rules {
    /// The word ids on a record's sentence path, in path order (empty for terrain).
    pub fn words(&self, r: &RuleRecord) -> &[EntId] {
        &self.arena[r.words.0 as usize..r.words.1 as usize]
    }

    /// The subject word of a record.
    pub fn subject_word(&self, r: &RuleRecord) -> Option<EntId> {
        self.words(r).get(r.subject_index as usize).copied()
    }

    /// The predicate word of a record.
    pub fn predicate_word(&self, r: &RuleRecord) -> Option<EntId> {
        self.words(r).get(r.predicate_index as usize).copied()
    }

    /// Whether `subject IS predicate` holds.
    pub fn holds(&self, subject: Tok, predicate: Tok) -> bool {
        self.pairs.binary_search(&(subject, predicate)).is_ok()
    }

    /// The property bits rules give a noun.
    pub fn noun_props(&self, noun: Tok) -> u64 {
        self.props.get(noun as usize).copied().unwrap_or(0)
    }
}

/// Cap on search nodes per parse, so that a pathological board of deep word
/// stacks (exponentially many readings) cannot hang the engine. Real boards
/// use a few hundred at most; beyond the cap further readings are ignored.
const NODE_BUDGET: usize = 1 << 14;

/// Reusable buffers for parsing.
#[derive(Debug, Default, Clone)]
pub(crate) struct ParseScratch {
    head: Vec<u16>,
    next: Vec<u16>,
    /// (axis, line, start, len, arena start) of complete readings.
    readings: Vec<(Axis, u8, u8, u8, u32)>,
    arena: Vec<EntId>,
    path: Vec<EntId>,
}

const NONE: u16 = u16::MAX;

#[derive(Clone, Copy, PartialEq, Eq)]
enum S {
    S0,
    S1,
    S2,
    S3,
    S4,
}

fn trans(s: S, c: Class) -> Option<S> {
    Some(match (s, c) {
        (S::S0, Class::Is) => S::S2,
        (S::S0, Class::And) => S::S1,
        (S::S1, Class::Noun) => S::S0,
        (S::S2, Class::Noun | Class::Prop(_)) => S::S3,
        (S::S3, Class::And) => S::S4,
        (S::S4, Class::Noun | Class::Prop(_)) => S::S3,
        _ => return None,
    })
}

impl Game {
    /// Parses the words of `ents` (§3). `detail` also keeps the sentences.
    pub(crate) fn parse(&self, ents: &[Ent], sc: &mut ParseScratch, detail: bool) -> Rules {
        let w = self.width as usize;
        let h = self.height as usize;
        sc.head.clear();
        sc.head.resize(w * h, NONE);
        sc.next.clear();
        sc.next.resize(ents.len(), NONE);
        for i in (0..ents.len()).rev() {
            let e = ents[i];
            if e.alive() && self.flags[i] & F_WORD != 0 {
                let c = e.y() as usize * w + e.x() as usize;
                sc.next[i] = sc.head[c];
                sc.head[c] = i as u16;
            }
        }
        sc.readings.clear();
        sc.arena.clear();
        let mut budget = NODE_BUDGET;
        for i in 0..ents.len() {
            let e = ents[i];
            if !e.alive()
                || self.flags[i] & F_WORD == 0
                || self.vocab.class(e.noun()) != Class::Noun
            {
                continue;
            }
            for axis in [Axis::H, Axis::V] {
                sc.path.clear();
                sc.path.push(i as EntId);
                let (line, start) = match axis {
                    Axis::H => (e.y(), e.x()),
                    _ => (e.x(), e.y()),
                };
                self.dfs(ents, sc, axis, line, start, start, S::S0, &mut budget);
            }
        }
        self.build_rules(sc, detail)
    }

    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &self,
        ents: &[Ent],
        sc: &mut ParseScratch,
        axis: Axis,
        line: u8,
        start: u8,
        at: u8,
        state: S,
        budget: &mut usize,
    ) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        if state == S::S3 {
            let a = sc.arena.len() as u32;
            sc.arena.extend_from_slice(&sc.path);
            sc.readings.push((axis, line, start, (at - start + 1), a));
        }
        let next = at as usize + 1;
        let (x, y) = match axis {
            Axis::H => (next, line as usize),
            _ => (line as usize, next),
        };
        if x >= self.width as usize || y >= self.height as usize {
            return;
        }
        let mut u = sc.head[y * self.width as usize + x];
        while u != NONE {
            if let Some(ns) = trans(state, self.vocab.class(ents[u as usize].noun())) {
                sc.path.push(u);
                self.dfs(ents, sc, axis, line, start, next as u8, ns, budget);
                sc.path.pop();
            }
            u = sc.next[u as usize];
        }
    }

    fn build_rules(&self, sc: &mut ParseScratch, detail: bool) -> Rules {
        let mut rules = Rules {
            props: vec![0; self.vocab.len()],
            ..Rules::default()
        };
        for (rank, &t) in self.terrain.iter().enumerate() {
            if let Some(stop) = self.vocab.get("STOP") {
                rules.records.push(RuleRecord {
                    subject: t,
                    predicate: stop,
                    axis: Axis::Terrain,
                    at: (0, 0),
                    subject_index: 0,
                    predicate_index: 0,
                    terrain_rank: rank as u16,
                    words: (0, 0),
                });
            }
        }
        // Group readings by line so containment is checked within a line only.
        sc.readings.sort_by_key(|r| (r.0, r.1, r.2, r.3));
        let mut g = 0;
        while g < sc.readings.len() {
            let mut end = g;
            while end < sc.readings.len()
                && sc.readings[end].0 == sc.readings[g].0
                && sc.readings[end].1 == sc.readings[g].1
            {
                end += 1;
            }
            for r in g..end {
                let (axis, line, start, len, a) = sc.readings[r];
                let path = &sc.arena[a as usize..a as usize + len as usize];
                let contained = (g..end).any(|q| {
                    let (_, _, s2, l2, a2) = sc.readings[q];
                    l2 > len
                        && s2 <= start
                        && s2 as usize + l2 as usize >= start as usize + len as usize
                        && {
                            let off = (start - s2) as usize;
                            &sc.arena[a2 as usize + off..a2 as usize + off + len as usize] == path
                        }
                });
                if contained {
                    continue;
                }
                let at = match axis {
                    Axis::H => (start, line),
                    _ => (line, start),
                };
                let base = rules.arena.len() as u32;
                rules.arena.extend_from_slice(path);
                let top = rules.arena.len() as u32;
                if detail {
                    rules.sentences.push(Sentence {
                        axis,
                        at,
                        words: path.to_vec(),
                    });
                }
                let is_at = path
                    .iter()
                    .position(|&wd| self.vocab.class(self.word_tok(wd, sc)) == Class::Is)
                    .unwrap_or(0);
                for (pi, &pw) in path.iter().enumerate().skip(is_at + 1) {
                    let pt = self.word_tok(pw, sc);
                    if self.vocab.class(pt) == Class::And {
                        continue;
                    }
                    for (si, &sw) in path.iter().enumerate().take(is_at) {
                        let st = self.word_tok(sw, sc);
                        if self.vocab.class(st) != Class::Noun {
                            continue;
                        }
                        rules.records.push(RuleRecord {
                            subject: st,
                            predicate: pt,
                            axis,
                            at,
                            subject_index: si as u8,
                            predicate_index: pi as u8,
                            terrain_rank: 0,
                            words: (base, top),
                        });
                    }
                }
            }
            g = end;
        }
        let arena = std::mem::take(&mut rules.arena);
        rules.records.sort_by(|x, y| cmp_records(x, y, &arena));
        rules.arena = arena;
        for r in &rules.records {
            let bit = self.vocab.prop_bit(r.predicate);
            if let Some(p) = rules.props.get_mut(r.subject as usize) {
                *p |= bit;
            }
            rules.any_props |= bit;
            rules.pairs.push((r.subject, r.predicate));
        }
        rules.pairs.sort_unstable();
        rules.pairs.dedup();
        let mut transforms: Vec<(Tok, Tok)> = Vec::new();
        for r in &rules.records {
            let (x, y) = (r.subject, r.predicate);
            if y == x
                || self.vocab.class(y) != Class::Noun
                || rules.holds(x, x)
                || transforms.iter().any(|m| m.0 == x)
            {
                continue;
            }
            transforms.push((x, y));
        }
        rules.transforms = transforms;
        rules
    }

    /// A word's text: words never change, so the initial token is the text.
    fn word_tok(&self, w: EntId, _sc: &ParseScratch) -> Tok {
        self.init_ents[w as usize].noun()
    }
}

fn cmp_records(x: &RuleRecord, y: &RuleRecord, arena: &[EntId]) -> Ordering {
    let tx = x.axis == Axis::Terrain;
    let ty = y.axis == Axis::Terrain;
    match (tx, ty) {
        (true, true) => return x.terrain_rank.cmp(&y.terrain_rank),
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    (x.at.1, x.at.0, x.axis)
        .cmp(&(y.at.1, y.at.0, y.axis))
        .then_with(|| {
            arena[x.words.0 as usize..x.words.1 as usize]
                .cmp(&arena[y.words.0 as usize..y.words.1 as usize])
        })
        .then(x.predicate_index.cmp(&y.predicate_index))
        .then(x.subject_index.cmp(&y.subject_index))
}
