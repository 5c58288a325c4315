//! What a settled state's contact layers hold, for searches that forbid an
//! event the turn report does not list itself: how many GOAL things are
//! covered before a turn, and whether FLOAT keeps two things apart after it.

use super::game::{EntId, Game};
use super::scratch::{NONE, Scratch};
use super::state::unpack_into;
use super::vocab::{DEFEAT, FLOAT, GOAL, PUSH, SINK, WIN, YOU};

impl Game {
    /// `(covered, total)` GOAL things of the settled state with packed
    /// `words`, counted as the contact pass counts them (§7): the figure a
    /// turn from this state reports in `goals` when nothing changes.
    /// `sc` is a scratch of its own, not one a prepared turn is using.
    pub fn goals_in(&self, words: &[u32], sc: &mut Scratch) -> (u32, u32) {
        self.load_settled(words, sc);
        let rules = self.parse_cached(sc);
        let n = sc.ents.len();
        let (_, goals) = self.win_and_goals(sc, 0..n, |i| self.ent_props(&rules, i, &sc.ents[i]));
        goals
    }

    /// Whether, in the settled state with packed `words`, FLOAT keeps one of
    /// `movers` apart from another live entity of its cell: one of the two
    /// is FLOAT and the other isn't, and on one layer the contact pass would
    /// have acted on them (§7, §9.2): either is SINK, one is DEFEAT or WIN
    /// and the other YOU, one is GOAL and the other PUSH, or they hold a
    /// pair's two properties. `sc` is a scratch of its own.
    pub fn float_apart(&self, words: &[u32], movers: &[EntId], sc: &mut Scratch) -> bool {
        self.load_settled(words, sc);
        let rules = self.parse_cached(sc);
        if rules.any_props & FLOAT == 0 {
            return false;
        }
        let props: Vec<u64> = (0..sc.ents.len())
            .map(|i| {
                let e = sc.ents[i];
                if e.alive() {
                    self.ent_props(&rules, i, &e)
                } else {
                    0
                }
            })
            .collect();
        movers.iter().map(|&m| usize::from(m)).any(|m| {
            if m >= sc.ents.len() || !sc.ents[m].alive() {
                return false;
            }
            let mut o = sc.head[self.cell(&sc.ents[m])];
            while o != NONE {
                let oi = usize::from(o);
                if oi != m
                    && sc.ents[oi].alive()
                    && (props[oi] ^ props[m]) & FLOAT != 0
                    && self.would_meet(props[m], props[oi])
                {
                    return true;
                }
                o = sc.next[oi];
            }
            false
        })
    }

    /// Whether the contact pass acts on two entities of property sets `a`
    /// and `b` when they share a cell and a layer.
    fn would_meet(&self, a: u64, b: u64) -> bool {
        let either = |x: u64, y: u64| (a & x != 0 && b & y != 0) || (b & x != 0 && a & y != 0);
        (a | b) & SINK != 0
            || either(DEFEAT, YOU)
            || either(WIN, YOU)
            || either(GOAL, PUSH)
            || self
                .pairs
                .iter()
                .any(|p| either(self.vocab.prop_bit(p.a), self.vocab.prop_bit(p.b)))
    }

    /// Unpacks settled `words` into `sc` and indexes their cells.
    fn load_settled(&self, words: &[u32], sc: &mut Scratch) {
        unpack_into(
            words,
            self.ents.len(),
            self.automata.len(),
            &mut sc.ents,
            &mut sc.phases,
        );
        self.grid(sc);
    }
}
