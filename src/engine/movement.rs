//! Push planning (§5.1) and movement phases (§5.3).

use super::game::{EntId, F_FIXED, F_WORD, Game};
use super::parse::Rules;
use super::report::{BlockReason, Blocked, By, Input, Moved, TurnReport};
use super::scratch::{NONE, Scratch};
use super::vocab::{FLOAT, PUSH, STOP};

pub(crate) type Fail = (BlockReason, Option<EntId>);

impl Game {
    /// Whether mover `e` ignores occupant `o` under a pair with `enter` (§9.2).
    pub(crate) fn enters(&self, rules: &Rules, sc: &Scratch, e: usize, o: usize) -> bool {
        if self.pairs.iter().all(|p| !p.enter) {
            return false;
        }
        let pe = self.ent_props(rules, e, &sc.ents[e]);
        let po = self.ent_props(rules, o, &sc.ents[o]);
        if (pe & FLOAT != 0) != (po & FLOAT != 0) {
            return false;
        }
        self.pairs.iter().filter(|p| p.enter).any(|p| {
            let a = self.vocab.prop_bit(p.a);
            let b = self.vocab.prop_bit(p.b);
            (pe & a != 0 && po & b != 0) || (pe & b != 0 && po & a != 0)
        })
    }

    /// `plan` of §5.1; the tentative set is `sc.t` / `sc.in_t`.
    pub(crate) fn plan(
        &self,
        sc: &mut Scratch,
        rules: &Rules,
        e: usize,
        d: (i8, i8),
    ) -> Result<(), Fail> {
        if self.flags[e] & F_FIXED != 0 {
            return Err((BlockReason::Fixed, Some(e as EntId)));
        }
        let ent = sc.ents[e];
        let tx = i32::from(ent.x()) + i32::from(d.0);
        let ty = i32::from(ent.y()) + i32::from(d.1);
        if tx < 0 || ty < 0 || tx >= i32::from(self.width) || ty >= i32::from(self.height) {
            return Err((BlockReason::Edge, None));
        }
        sc.in_t[e] = true;
        sc.t.push(e as u16);
        let mut o = sc.head[ty as usize * self.width as usize + tx as usize];
        while o != NONE {
            let oi = o as usize;
            let nxt = sc.next[oi];
            if oi != e && !sc.planned[oi] && !sc.in_t[oi] {
                let oe = sc.ents[oi];
                if self.is_gate(oi, &oe) && !oe.open() {
                    return Err((BlockReason::Gate, Some(o)));
                }
                if !self.enters(rules, sc, e, oi) {
                    let p = self.ent_props(rules, oi, &oe);
                    if p & PUSH != 0 {
                        self.plan(sc, rules, oi, d)?;
                    } else if p & STOP != 0 {
                        return Err((BlockReason::Stop, Some(o)));
                    }
                }
            }
            o = nxt;
        }
        Ok(())
    }

    /// A movement phase (§5.3) of `sc.movers`. Returns (anything moved, a word moved).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn move_phase(
        &self,
        sc: &mut Scratch,
        rules: &Rules,
        input: Input,
        by: By,
        detail: bool,
        rep: &mut TurnReport,
        blocked: &mut Vec<Blocked>,
    ) -> (bool, bool) {
        let Some(d) = input.delta() else {
            return (false, false);
        };
        let mut movers = std::mem::take(&mut sc.movers);
        {
            let ents = &sc.ents;
            movers.sort_by_key(|&m| {
                let e = ents[m as usize];
                let proj = i32::from(e.x()) * i32::from(d.0) + i32::from(e.y()) * i32::from(d.1);
                (std::cmp::Reverse(proj), m)
            });
        }
        sc.pset.clear();
        for &m in &movers {
            let m = m as usize;
            if sc.planned[m] {
                continue;
            }
            sc.t.clear();
            let r = self.plan(sc, rules, m, d);
            let t = std::mem::take(&mut sc.t);
            for &x in &t {
                sc.in_t[x as usize] = false;
            }
            match r {
                Ok(()) => {
                    for &x in &t {
                        sc.planned[x as usize] = true;
                        sc.pset.push(x);
                    }
                }
                Err((reason, blocker)) => {
                    if by == By::Player {
                        blocked.push(Blocked {
                            id: m as EntId,
                            dir: input,
                            reason,
                            blocker,
                        });
                    }
                }
            }
            sc.t = t;
        }
        let mut pset = std::mem::take(&mut sc.pset);
        pset.sort_unstable();
        let mut word_moved = false;
        for &x in &pset {
            let xi = x as usize;
            sc.planned[xi] = false;
            let e = &mut sc.ents[xi];
            let from = (e.x(), e.y());
            e.set_cell(
                (i32::from(e.x()) + i32::from(d.0)) as u8,
                (i32::from(e.y()) + i32::from(d.1)) as u8,
            );
            let to = (e.x(), e.y());
            sc.moved[xi] = true;
            if !sc.reference {
                let cell = usize::from(from.1) * usize::from(self.width) + usize::from(from.0);
                self.relink(sc, xi, cell);
            }
            word_moved |= self.flags[xi] & F_WORD != 0;
            if detail {
                rep.moved.push(Moved {
                    id: x,
                    from,
                    to,
                    by,
                    pushed: !movers.contains(&x),
                });
            }
        }
        let any = !pset.is_empty();
        sc.pset = pset;
        sc.movers = movers;
        if any && sc.reference {
            // The reference mode rebuilds the index; the fast path relinked
            // each moved entity above.
            self.grid(sc);
        }
        (any, word_moved)
    }
}
