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
        let pair_bits = self.pair_prop_bits();
        if !sc.reference && rules.any_props & (SINK | DEFEAT | FLOAT | pair_bits) == 0 {
            let (win, goals) = self.win_and_goals_only(sc, rules, things);
            return (win, goals, false, false);
        }
        let n = sc.ents.len();
        let any = self.tabulate_props(sc, rules);
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
        self.collect_contact_cells(sc, any, pair_bits);
        let cells = std::mem::take(&mut sc.cells);

        let mut removals = Removals {
            kill: std::mem::take(&mut sc.kill),
            out,
            removed: false,
            word_removed: false,
        };
        self.remove_pairs(sc, &cells, layers, any, &mut removals);
        self.mark_sunk(sc, &cells, layers, any, &mut removals.kill);
        removals.destroy(self, sc, Cause::Sink);
        self.mark_defeated(sc, &cells, layers, any, &mut removals.kill);
        removals.destroy(self, sc, Cause::Defeat);
        sc.kill = removals.kill;

        // WIN and GOAL on the survivors.
        let props = std::mem::take(&mut sc.props);
        let (win, goals) = self.win_and_goals(sc, 0..n, |i| props[i]);
        sc.props = props;
        for &c in &cells {
            sc.seen[c as usize] = false;
        }
        sc.cells = cells;
        (win, goals, removals.removed, removals.word_removed)
    }

    /// Every property bit that takes part in some pair record: a pair can
    /// remove things only when one of these is in play.
    #[inline]
    fn pair_prop_bits(&self) -> u64 {
        self.pairs.iter().fold(0, |acc, p| {
            acc | self.vocab.prop_bit(p.a) | self.vocab.prop_bit(p.b)
        })
    }

    /// The contact pass when no noun can remove anything or float (words
    /// are only PUSH): only WIN and GOAL remain, on one layer, with each
    /// property set looked up when needed instead of tabulated for everyone.
    #[inline]
    fn win_and_goals_only(
        &self,
        sc: &Scratch,
        rules: &Rules,
        things: Option<&[u16]>,
    ) -> (bool, (u32, u32)) {
        if rules.any_props & (WIN | GOAL) == 0 {
            return (false, (0, 0));
        }
        let props = |i: usize| self.ent_props(rules, i, &sc.ents[i]);
        match things {
            Some(things) => self.win_and_goals(sc, things.iter().map(|&i| usize::from(i)), props),
            None => self.win_and_goals(sc, 0..sc.ents.len(), props),
        }
    }

    /// Fills `sc.props` with every live entity's property set under `rules`
    /// (dead ones get none) and returns their union, so later passes test
    /// one bit instead of recomputing properties per cell.
    #[inline]
    fn tabulate_props(&self, sc: &mut Scratch, rules: &Rules) -> u64 {
        sc.props.clear();
        sc.props.resize(sc.ents.len(), 0);
        let mut any = 0u64;
        for (i, (e, p)) in sc.ents.iter().zip(sc.props.iter_mut()).enumerate() {
            if e.alive() {
                *p = self.ent_props(rules, i, e);
                any |= *p;
            }
        }
        any
    }

    /// Lists the occupied cells in `sc.cells`, each once, marking them in
    /// `sc.seen` (the caller unmarks them). Only the pair, SINK and DEFEAT
    /// passes scan cells (WIN and GOAL are decided per entity), so the list
    /// stays empty when none of them can act.
    #[inline]
    fn collect_contact_cells(&self, sc: &mut Scratch, any: u64, pair_bits: u64) {
        let cells_n = self.width as usize * self.height as usize;
        sc.cells.clear();
        if sc.reference || any & (SINK | DEFEAT | pair_bits) != 0 {
            if sc.seen.len() != cells_n {
                sc.seen.clear();
                sc.seen.resize(cells_n, false);
            }
            for i in 0..sc.ents.len() {
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
    }

    /// The pair pass (§9.2): for each pair in declaration order, on each
    /// cell and layer, matches each live `a` entity with a distinct live `b`
    /// entity not matched yet and destroys both; each pair's victims are
    /// removed before the next pair looks.
    #[inline]
    fn remove_pairs(
        &self,
        sc: &mut Scratch,
        cells: &[u32],
        layers: &[bool],
        any: u64,
        removals: &mut Removals<'_>,
    ) {
        for (pi, p) in self.pairs.iter().enumerate() {
            let (a, b) = (self.vocab.prop_bit(p.a), self.vocab.prop_bit(p.b));
            if any & a == 0 || any & b == 0 {
                continue;
            }
            for &c in cells {
                for &lay in layers {
                    let mut members: Vec<u16> = Vec::new();
                    let mut o = sc.head[c as usize];
                    while o != NONE {
                        let oi = o as usize;
                        if sc.ents[oi].alive() && floats(&sc.props, oi) == lay {
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
                    removals.kill.extend_from_slice(&gone);
                }
            }
            removals.destroy(self, sc, Cause::Pair(pi as u8));
        }
    }

    /// The SINK pass (§7): on each cell and layer where two or more live
    /// entities meet and one is a SINK thing, marks in `kill` every one of
    /// them that is not a fixed word.
    #[inline]
    fn mark_sunk(
        &self,
        sc: &Scratch,
        cells: &[u32],
        layers: &[bool],
        any: u64,
        kill: &mut Vec<u16>,
    ) {
        for &c in cells.iter().filter(|_| any & SINK != 0) {
            for &lay in layers {
                let (mut count, mut sink) = (0, false);
                let mut o = sc.head[c as usize];
                while o != NONE {
                    let oi = o as usize;
                    if sc.ents[oi].alive() && floats(&sc.props, oi) == lay {
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
                            && floats(&sc.props, oi) == lay
                            && self.flags[oi] & F_FIXED == 0
                        {
                            kill.push(o);
                        }
                        o = sc.next[oi];
                    }
                }
            }
        }
    }

    /// The DEFEAT pass (§7): on each cell and layer holding a live DEFEAT
    /// entity, marks in `kill` every live YOU entity there.
    #[inline]
    fn mark_defeated(
        &self,
        sc: &Scratch,
        cells: &[u32],
        layers: &[bool],
        any: u64,
        kill: &mut Vec<u16>,
    ) {
        for &c in cells.iter().filter(|_| any & DEFEAT != 0) {
            for &lay in layers {
                let mut defeat = false;
                let mut o = sc.head[c as usize];
                while o != NONE {
                    let oi = o as usize;
                    if sc.ents[oi].alive()
                        && floats(&sc.props, oi) == lay
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
                            && floats(&sc.props, oi) == lay
                            && sc.props[oi] & YOU != 0
                        {
                            kill.push(o);
                        }
                        o = sc.next[oi];
                    }
                }
            }
        }
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

/// Entities marked for removal by one contact pass, and what the removals
/// so far add up to. Owns the scratch kill list while the passes run.
struct Removals<'o> {
    /// Marked entities, not yet removed.
    kill: Vec<u16>,
    /// The report's destroyed list, in removal order.
    out: &'o mut Vec<Destroyed>,
    /// Whether anything was removed.
    removed: bool,
    /// Whether a word tile was removed (the parse must be redone).
    word_removed: bool,
}

impl Removals<'_> {
    /// Removes the marked entities in id order, reporting each with
    /// `cause`, and empties the mark list for the next pass.
    #[inline]
    fn destroy(&mut self, game: &Game, sc: &mut Scratch, cause: Cause) {
        self.kill.sort_unstable();
        for &k in self.kill.iter() {
            let e = &mut sc.ents[k as usize];
            e.remove();
            self.out.push(Destroyed {
                id: k,
                cause,
                at: (e.x(), e.y()),
                what: e.noun(),
            });
            self.removed = true;
            self.word_removed |= game.flags[k as usize] & F_WORD != 0;
        }
        self.kill.clear();
    }
}

/// Whether entity `i` is on the FLOAT layer, by its tabulated properties.
#[inline]
fn floats(props: &[u64], i: usize) -> bool {
    props[i] & FLOAT != 0
}
