//! Property sets (§4.1), the transform phase (§4.2) and parses of a working state.

use super::game::{EntId, F_CHANNEL, F_WORD, Game};
use super::parse::Rules;
use super::report::{Transformed, When};
use super::scratch::Scratch;
use super::state::{Ent, State};
use super::vocab::{PUSH, Tok};
use std::sync::Arc;

/// Entries of the parse cache (a power of two at most 64: the slot is
/// taken from the top six bits of the hash).
const PARSE_CACHE: usize = 64;

impl Game {
    pub(crate) fn is_gate(&self, i: usize, e: &Ent) -> bool {
        self.flags[i] & (F_WORD | F_CHANNEL) == F_CHANNEL && e.noun() == self.gate
    }

    pub(crate) fn is_plate(&self, i: usize, e: &Ent) -> bool {
        self.flags[i] & (F_WORD | F_CHANNEL) == F_CHANNEL && e.noun() == self.plate
    }

    /// The property set of §4.1.
    pub(crate) fn ent_props(&self, rules: &Rules, i: usize, e: &Ent) -> u64 {
        if self.flags[i] & F_WORD != 0 {
            PUSH
        } else if self.is_gate(i, e) {
            0
        } else {
            rules.noun_props(e.noun())
        }
    }

    /// One transform phase (§4.2).
    pub(crate) fn transform(
        &self,
        sc: &mut Scratch,
        rules: &Rules,
        when: When,
        out: &mut Vec<Transformed>,
    ) {
        let map = &rules.transforms;
        if map.is_empty() {
            return;
        }
        for (i, e) in sc.ents.iter_mut().enumerate() {
            if !e.alive() || self.flags[i] & F_WORD != 0 {
                continue;
            }
            if let Some(&(_, to)) = map.iter().find(|m| m.0 == e.noun()) {
                out.push(Transformed {
                    id: i as EntId,
                    from: e.noun(),
                    to,
                    when,
                });
                e.set_noun(to);
            }
        }
    }

    /// Parses the words of `sc.ents`, reusing a cached parse when the same
    /// words stood in the same places before: rules depend on words only
    /// (§3.1). The cache is direct-mapped on a hash of the words' packed
    /// entries, so a search that revisits a few dozen word layouts in any
    /// order parses each about once.
    pub(crate) fn parse_cached(&self, sc: &mut Scratch) -> Arc<Rules> {
        if sc.stamp != self.stamp || sc.cache.len() != PARSE_CACHE {
            sc.stamp = self.stamp;
            sc.cache.clear();
            sc.cache.resize_with(PARSE_CACHE, Default::default);
        }
        if sc.reference {
            return Arc::new(self.parse(&sc.ents, &mut sc.ps, false));
        }
        sc.sig.clear();
        let mut h = 0u64;
        for &w in &self.word_ids {
            let word = sc.ents[w as usize].pack();
            sc.sig.push(word);
            h = (h ^ u64::from(word)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        let slot = (h >> 58) as usize % PARSE_CACHE;
        if let (sig, Some(r)) = &sc.cache[slot] {
            if *sig == sc.sig {
                return r.clone();
            }
        }
        let r = Arc::new(self.parse(&sc.ents, &mut sc.ps, false));
        let c = &mut sc.cache[slot];
        std::mem::swap(&mut c.0, &mut sc.sig);
        c.1 = Some(r.clone());
        r
    }

    /// The rules of a settled state (its board's parse, §3.7), with sentences.
    pub fn rules(&self, s: &State) -> Rules {
        let mut sc = Scratch::default();
        s.unpack_into(
            self.ents.len(),
            self.automata.len(),
            &mut sc.ents,
            &mut sc.phases,
        );
        self.parse(&sc.ents, &mut sc.ps, true)
    }

    /// The rules of a settled state and every entity's property set (into
    /// `props`), through `sc`'s parse cache: what a search's estimate reads
    /// of each state it judges, without a parse allocated per state.
    pub(crate) fn rules_and_props(
        &self,
        s: &State,
        sc: &mut Scratch,
        props: &mut Vec<u64>,
    ) -> Arc<Rules> {
        s.unpack_into(
            self.ents.len(),
            self.automata.len(),
            &mut sc.ents,
            &mut sc.phases,
        );
        let rules = self.parse_cached(sc);
        props.clear();
        props.extend((0..self.ents.len()).map(|i| {
            let e = s.ent(i);
            if e.alive() {
                self.ent_props(&rules, i, &e)
            } else {
                0
            }
        }));
        rules
    }

    /// The property set of every entity in a settled state, as bits of the
    /// level's property words (see [`Game::prop_names`]); removed entities: 0.
    pub fn props(&self, s: &State) -> Vec<u64> {
        self.props_under(&self.rules(s), s)
    }

    /// [`Game::props`] with the state's rules already parsed.
    pub fn props_under(&self, rules: &Rules, s: &State) -> Vec<u64> {
        (0..self.ents.len())
            .map(|i| {
                let e = s.ent(i);
                if e.alive() {
                    self.ent_props(rules, i, &e)
                } else {
                    0
                }
            })
            .collect()
    }

    /// The property words in a property set, in token order.
    pub fn prop_names(&self, bits: u64) -> Vec<&str> {
        (0..self.vocab.len() as Tok)
            .filter(|&t| self.vocab.prop_bit(t) & bits != 0)
            .map(|t| self.vocab.name(t))
            .collect()
    }
}
