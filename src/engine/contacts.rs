//! The contact pass (§7) and plate pressing (§9.5).

use super::game::{F_FIXED, F_WORD, Game};
use super::parse::Rules;
use super::report::{Cause, Destroyed};
use super::scratch::{Channels, NONE, Scratch};
use super::vocab::{DEFEAT, FLOAT, GOAL, PUSH, SINK, WIN, YOU};

impl Game {
    pub(crate) fn pressed(&self, sc: &Scratch) -> Channels {
        let mut out = [0u64; 4];
        for (i, e) in sc.ents.iter().enumerate() {
            if e.alive() && self.is_plate(i, e) && self.shares(sc, i) {
                let ch = self.ents[i].channel.unwrap_or(0) as usize;
                out[ch / 64] |= 1 << (ch % 64);
            }
        }
        out
    }

    /// The contact pass (§7) with removals; returns (win, goals, removed
    /// anything, removed a word). `things`, when given, lists every live
    /// entity that is YOU or GOAL under `rules` (the turn start's list, still
    /// valid when the turn changed no noun, removed nothing and kept the
    /// parse), so the common case looks at those alone.
    pub(crate) fn contacts(
        &self,
        sc: &mut Scratch,
        rules: &Rules,
        things: Option<&[u16]>,
        out: &mut Vec<Destroyed>,
    ) -> (bool, (u32, u32), bool, bool) {
        let pair_bits = self.pairs.iter().fold(0, |acc, p| {
            acc | self.vocab.prop_bit(p.a) | self.vocab.prop_bit(p.b)
        });
        if !sc.reference && rules.any_props & (SINK | DEFEAT | FLOAT | pair_bits) == 0 {
            // No noun can remove anything or float (words are only PUSH):
            // only WIN and GOAL remain, on one layer, with each property
            // set looked up when needed instead of tabulated for everyone.
            if rules.any_props & (WIN | GOAL) == 0 {
                return (false, (0, 0), false, false);
            }
            let props = |i: usize| self.ent_props(rules, i, &sc.ents[i]);
            let (win, goals) = match things {
                Some(things) => {
                    self.win_and_goals(sc, things.iter().map(|&i| usize::from(i)), props)
                }
                None => self.win_and_goals(sc, 0..sc.ents.len(), props),
            };
            return (win, goals, false, false);
        }
        let n = sc.ents.len();
        sc.props.clear();
        sc.props.resize(n, 0);
        let mut any = 0u64;
        for (i, (e, p)) in sc.ents.iter().zip(sc.props.iter_mut()).enumerate() {
            if e.alive() {
                *p = self.ent_props(rules, i, e);
                any |= *p;
            }
        }
        // Nothing can happen without a contact property: the common case of
        // a solver step that only walks, answered without scanning cells.
        if !sc.reference && any & (SINK | DEFEAT | WIN | GOAL | pair_bits) == 0 {
            return (false, (0, 0), false, false);
        }
        let layers: &[bool] = if sc.reference || any & FLOAT != 0 {
            &[false, true]
        } else {
            &[false]
        };
        // Occupied cells, each once: only the pair, SINK and DEFEAT passes
        // scan cells; WIN and GOAL are decided per entity below.
        let cells_n = self.width as usize * self.height as usize;
        sc.cells.clear();
        if sc.reference || any & (SINK | DEFEAT | pair_bits) != 0 {
            if sc.seen.len() != cells_n {
                sc.seen.clear();
                sc.seen.resize(cells_n, false);
            }
            for i in 0..n {
                let e = sc.ents[i];
                if e.alive() {
                    let c = self.cell(&e);
                    if !sc.seen[c] {
                        sc.seen[c] = true;
                        sc.cells.push(c as u32);
                    }
                }
            }
        }
        let layer = |props: &[u64], i: usize| props[i] & FLOAT != 0;
        let mut removed = false;
        let mut word_removed = false;
        let cells = std::mem::take(&mut sc.cells);

        let mut kill = std::mem::take(&mut sc.kill);
        let mut destroy =
            |sc: &mut Scratch, kill: &mut Vec<u16>, cause: Cause, out: &mut Vec<Destroyed>| {
                kill.sort_unstable();
                for &k in kill.iter() {
                    let e = &mut sc.ents[k as usize];
                    e.remove();
                    out.push(Destroyed {
                        id: k,
                        cause,
                        at: (e.x(), e.y()),
                        what: e.noun(),
                    });
                    removed = true;
                    word_removed |= self.flags[k as usize] & F_WORD != 0;
                }
                kill.clear();
            };

        // Pairs.
        for (pi, p) in self.pairs.iter().enumerate() {
            let (a, b) = (self.vocab.prop_bit(p.a), self.vocab.prop_bit(p.b));
            if any & a == 0 || any & b == 0 {
                continue;
            }
            for &c in &cells {
                for &lay in layers {
                    let mut members: Vec<u16> = Vec::new();
                    let mut o = sc.head[c as usize];
                    while o != NONE {
                        let oi = o as usize;
                        if sc.ents[oi].alive() && layer(&sc.props, oi) == lay {
                            members.push(o);
                        }
                        o = sc.next[oi];
                    }
                    if members.len() < 2 {
                        continue;
                    }
                    let mut gone: Vec<u16> = Vec::new();
                    for &x in &members {
                        if sc.props[x as usize] & a == 0 || gone.contains(&x) {
                            continue;
                        }
                        if let Some(&y) = members.iter().find(|&&y| {
                            y != x && sc.props[y as usize] & b != 0 && !gone.contains(&y)
                        }) {
                            gone.push(x);
                            gone.push(y);
                        }
                    }
                    kill.extend_from_slice(&gone);
                }
            }
            destroy(sc, &mut kill, Cause::Pair(pi as u8), out);
        }

        // SINK.
        for &c in cells.iter().filter(|_| any & SINK != 0) {
            for &lay in layers {
                let (mut count, mut sink) = (0, false);
                let mut o = sc.head[c as usize];
                while o != NONE {
                    let oi = o as usize;
                    if sc.ents[oi].alive() && layer(&sc.props, oi) == lay {
                        count += 1;
                        sink |= self.flags[oi] & F_WORD == 0 && sc.props[oi] & SINK != 0;
                    }
                    o = sc.next[oi];
                }
                if count >= 2 && sink {
                    let mut o = sc.head[c as usize];
                    while o != NONE {
                        let oi = o as usize;
                        if sc.ents[oi].alive()
                            && layer(&sc.props, oi) == lay
                            && self.flags[oi] & F_FIXED == 0
                        {
                            kill.push(o);
                        }
                        o = sc.next[oi];
                    }
                }
            }
        }
        destroy(sc, &mut kill, Cause::Sink, out);

        // DEFEAT.
        for &c in cells.iter().filter(|_| any & DEFEAT != 0) {
            for &lay in layers {
                let mut defeat = false;
                let mut o = sc.head[c as usize];
                while o != NONE {
                    let oi = o as usize;
                    if sc.ents[oi].alive()
                        && layer(&sc.props, oi) == lay
                        && sc.props[oi] & DEFEAT != 0
                    {
                        defeat = true;
                    }
                    o = sc.next[oi];
                }
                if defeat {
                    let mut o = sc.head[c as usize];
                    while o != NONE {
                        let oi = o as usize;
                        if sc.ents[oi].alive()
                            && layer(&sc.props, oi) == lay
                            && sc.props[oi] & YOU != 0
                        {
                            kill.push(o);
                        }
                        o = sc.next[oi];
                    }
                }
            }
        }
        destroy(sc, &mut kill, Cause::Defeat, out);
        sc.kill = kill;

        // WIN and GOAL on the survivors.
        let props = std::mem::take(&mut sc.props);
        let (win, goals) = self.win_and_goals(sc, 0..n, |i| props[i]);
        sc.props = props;
        for &c in &cells {
            sc.seen[c as usize] = false;
        }
        sc.cells = cells;
        (win, goals, removed, word_removed)
    }

    /// WIN and GOAL (§7) on the live entities, `props(i)` giving entity
    /// `i`'s property set: (win, (covered goals, goals)). `candidates` must
    /// include every live YOU or GOAL thing; others are skipped anyway.
    pub(crate) fn win_and_goals(
        &self,
        sc: &Scratch,
        candidates: impl Iterator<Item = usize>,
        props: impl Fn(usize) -> u64,
    ) -> (bool, (u32, u32)) {
        let mut win = false;
        let mut any_you = false;
        let (mut covered, mut total) = (0u32, 0u32);
        for i in candidates {
            if !sc.ents[i].alive() {
                continue;
            }
            let p = props(i);
            if p & (YOU | GOAL) == 0 {
                continue;
            }
            let lay = p & FLOAT != 0;
            let c = self.cell(&sc.ents[i]);
            let others = |want: u64| {
                let mut o = sc.head[c];
                while o != NONE {
                    let oi = o as usize;
                    if oi != i && sc.ents[oi].alive() {
                        let po = props(oi);
                        if (po & FLOAT != 0) == lay && po & want != 0 {
                            return true;
                        }
                    }
                    o = sc.next[oi];
                }
                false
            };
            if p & YOU != 0 {
                any_you = true;
                if p & WIN != 0 || others(WIN) {
                    win = true;
                }
            }
            if p & GOAL != 0 {
                total += 1;
                if others(PUSH) {
                    covered += 1;
                }
            }
        }
        if any_you && total > 0 && covered == total {
            win = true;
        }
        (win, (covered, total))
    }
}
