//! Movement (§5), the turn (§6), contacts (§7), reset (§8) and the
//! mechanics of §9, all working on an unpacked copy of a [`State`].

use super::game::{EntId, Game};
use super::parse::{ParseScratch, Rules};
use super::report::*;
use super::state::{Ent, State};
use super::vocab::{DEFEAT, FLOAT, FRAIL, GOAL, PUSH, SINK, STOP, Tok, WIN, YOU};
use crate::model::Step;
use std::sync::Arc;

const NONE: u16 = u16::MAX;

/// Reusable buffers for turns, so that a solver expanding millions of states
/// allocates almost nothing per step.
#[derive(Debug, Default, Clone)]
pub struct Scratch {
    ents: Vec<Ent>,
    phases: Vec<u8>,
    start: Vec<Ent>,
    frail_start: Vec<bool>,
    head: Vec<u16>,
    next: Vec<u16>,
    planned: Vec<bool>,
    in_t: Vec<bool>,
    t: Vec<u16>,
    pset: Vec<u16>,
    movers: Vec<u16>,
    moved: Vec<bool>,
    props: Vec<u64>,
    cells: Vec<u32>,
    seen: Vec<bool>,
    kill: Vec<u16>,
    ps: ParseScratch,
    /// Parse caches keyed by the packed words: slot 0 for turn starts (a
    /// solver expands one state with every input in a row), slot 1 for parses
    /// inside a turn.
    cache: [(Vec<u32>, Option<Arc<Rules>>); 2],
    sig: Vec<u32>,
    /// The game the cache belongs to.
    stamp: u64,
    /// Reference mode: no parse cache, no skipped parse, no skipped contact
    /// scan. Differential tests compare it with the optimised path.
    pub(crate) reference: bool,
}

impl Scratch {
    /// A scratch in reference mode, for differential tests.
    #[cfg(test)]
    pub(crate) fn reference() -> Scratch {
        Scratch {
            reference: true,
            ..Scratch::default()
        }
    }
}

type Fail = (BlockReason, Option<EntId>);

/// Bitset of pressed channels (channel indices are below 256).
type Channels = [u64; 4];

fn union(into: &mut Vec<(Tok, Tok)>, from: &[(Tok, Tok)]) {
    into.extend_from_slice(from);
    into.sort_unstable();
    into.dedup();
}

impl Game {
    fn cell(&self, e: &Ent) -> usize {
        e.y as usize * self.width as usize + e.x as usize
    }

    /// Rebuilds the occupancy lists; each cell's list is in id order.
    fn grid(&self, sc: &mut Scratch) {
        let n = self.width as usize * self.height as usize;
        sc.head.clear();
        sc.head.resize(n, NONE);
        sc.next.clear();
        sc.next.resize(sc.ents.len(), NONE);
        for i in (0..sc.ents.len()).rev() {
            let e = sc.ents[i];
            if e.alive {
                let c = self.cell(&e);
                sc.next[i] = sc.head[c];
                sc.head[c] = i as u16;
            }
        }
    }

    pub(crate) fn is_gate(&self, i: usize, e: &Ent) -> bool {
        !self.ents[i].word && self.ents[i].channel.is_some() && e.noun == self.gate
    }

    fn is_plate(&self, i: usize, e: &Ent) -> bool {
        !self.ents[i].word && self.ents[i].channel.is_some() && e.noun == self.plate
    }

    /// The property set of §4.1.
    pub(crate) fn ent_props(&self, rules: &Rules, i: usize, e: &Ent) -> u64 {
        if self.ents[i].word {
            PUSH
        } else if self.is_gate(i, e) {
            0
        } else {
            rules.noun_props(e.noun)
        }
    }

    fn you_things(&self, rules: &Rules, ents: &[Ent], out: &mut Vec<u16>) {
        out.clear();
        for (i, e) in ents.iter().enumerate() {
            if e.alive && self.ent_props(rules, i, e) & YOU != 0 {
                out.push(i as u16);
            }
        }
    }

    /// Whether mover `e` ignores occupant `o` under a pair with `enter` (§9.2).
    fn enters(&self, rules: &Rules, sc: &Scratch, e: usize, o: usize) -> bool {
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
    fn plan(&self, sc: &mut Scratch, rules: &Rules, e: usize, d: (i8, i8)) -> Result<(), Fail> {
        if self.ents[e].fixed {
            return Err((BlockReason::Fixed, Some(e as EntId)));
        }
        let ent = sc.ents[e];
        let tx = i32::from(ent.x) + i32::from(d.0);
        let ty = i32::from(ent.y) + i32::from(d.1);
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
                if self.is_gate(oi, &oe) && !oe.open {
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
    fn move_phase(
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
                let proj = i32::from(e.x) * i32::from(d.0) + i32::from(e.y) * i32::from(d.1);
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
            let from = (e.x, e.y);
            e.x = (i32::from(e.x) + i32::from(d.0)) as u8;
            e.y = (i32::from(e.y) + i32::from(d.1)) as u8;
            sc.moved[xi] = true;
            word_moved |= self.ents[xi].word;
            if detail {
                rep.moved.push(Moved {
                    id: x,
                    from,
                    to: (e.x, e.y),
                    by,
                    pushed: !movers.contains(&x),
                });
            }
        }
        let any = !pset.is_empty();
        sc.pset = pset;
        sc.movers = movers;
        if any {
            self.grid(sc);
        }
        (any, word_moved)
    }

    /// One transform phase (§4.2).
    fn transform(&self, sc: &mut Scratch, rules: &Rules, when: When, out: &mut Vec<Transformed>) {
        let mut map: Vec<(Tok, Tok)> = Vec::new();
        for r in &rules.records {
            let (x, y) = (r.subject, r.predicate);
            if y == x
                || self.vocab.class(y) != super::vocab::Class::Noun
                || rules.holds(x, x)
                || map.iter().any(|m| m.0 == x)
            {
                continue;
            }
            map.push((x, y));
        }
        if map.is_empty() {
            return;
        }
        for (i, e) in sc.ents.iter_mut().enumerate() {
            if !e.alive || self.ents[i].word {
                continue;
            }
            if let Some(&(_, to)) = map.iter().find(|m| m.0 == e.noun) {
                out.push(Transformed {
                    id: i as EntId,
                    from: e.noun,
                    to,
                    when,
                });
                e.noun = to;
            }
        }
    }

    fn pressed(&self, sc: &Scratch) -> Channels {
        let mut out = [0u64; 4];
        for (i, e) in sc.ents.iter().enumerate() {
            if e.alive && self.is_plate(i, e) && self.shares(sc, i) {
                let ch = self.ents[i].channel.unwrap_or(0) as usize;
                out[ch / 64] |= 1 << (ch % 64);
            }
        }
        out
    }

    /// Whether another live entity shares entity `i`'s cell (any layer).
    fn shares(&self, sc: &Scratch, i: usize) -> bool {
        let mut o = sc.head[self.cell(&sc.ents[i])];
        while o != NONE {
            if o as usize != i && sc.ents[o as usize].alive {
                return true;
            }
            o = sc.next[o as usize];
        }
        false
    }

    /// The contact pass (§7) with removals; returns (win, goals, removed anything, removed a word).
    fn contacts(
        &self,
        sc: &mut Scratch,
        rules: &Rules,
        out: &mut Vec<Destroyed>,
    ) -> (bool, (u32, u32), bool, bool) {
        let n = sc.ents.len();
        sc.props.clear();
        let mut any = 0u64;
        for i in 0..n {
            let e = sc.ents[i];
            let p = if e.alive {
                self.ent_props(rules, i, &e)
            } else {
                0
            };
            any |= p;
            sc.props.push(p);
        }
        // Nothing can happen without a contact property: the common case of
        // a solver step that only walks, answered without scanning cells.
        let pair_bits = self.pairs.iter().fold(0, |acc, p| {
            acc | self.vocab.prop_bit(p.a) | self.vocab.prop_bit(p.b)
        });
        if !sc.reference && any & (SINK | DEFEAT | WIN | GOAL | pair_bits) == 0 {
            return (false, (0, 0), false, false);
        }
        let layers: &[bool] = if sc.reference || any & FLOAT != 0 {
            &[false, true]
        } else {
            &[false]
        };
        // Occupied cells, each once.
        let cells_n = self.width as usize * self.height as usize;
        if sc.seen.len() != cells_n {
            sc.seen.clear();
            sc.seen.resize(cells_n, false);
        }
        sc.cells.clear();
        for i in 0..n {
            let e = sc.ents[i];
            if e.alive {
                let c = self.cell(&e);
                if !sc.seen[c] {
                    sc.seen[c] = true;
                    sc.cells.push(c as u32);
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
                    e.alive = false;
                    out.push(Destroyed {
                        id: k,
                        cause,
                        at: (e.x, e.y),
                        what: e.noun,
                    });
                    removed = true;
                    word_removed |= self.ents[k as usize].word;
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
                        if sc.ents[oi].alive && layer(&sc.props, oi) == lay {
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
                    if sc.ents[oi].alive && layer(&sc.props, oi) == lay {
                        count += 1;
                        sink |= !self.ents[oi].word && sc.props[oi] & SINK != 0;
                    }
                    o = sc.next[oi];
                }
                if count >= 2 && sink {
                    let mut o = sc.head[c as usize];
                    while o != NONE {
                        let oi = o as usize;
                        if sc.ents[oi].alive && layer(&sc.props, oi) == lay && !self.ents[oi].fixed
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
                    if sc.ents[oi].alive
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
                        if sc.ents[oi].alive
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
        let mut win = false;
        let mut any_you = false;
        let (mut covered, mut total) = (0u32, 0u32);
        for i in 0..n {
            if !sc.ents[i].alive {
                continue;
            }
            let p = sc.props[i];
            let lay = layer(&sc.props, i);
            let c = self.cell(&sc.ents[i]);
            let others = |want: u64| {
                let mut o = sc.head[c];
                while o != NONE {
                    let oi = o as usize;
                    if oi != i
                        && sc.ents[oi].alive
                        && layer(&sc.props, oi) == lay
                        && sc.props[oi] & want != 0
                    {
                        return true;
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
        for &c in &cells {
            sc.seen[c as usize] = false;
        }
        sc.cells = cells;
        (win, (covered, total), removed, word_removed)
    }

    /// Parses the words of `sc.ents`, reusing a cached parse when the words
    /// have not moved since it was made: rules depend on words only (§3.1).
    fn parse_cached(&self, sc: &mut Scratch, slot: usize) -> Arc<Rules> {
        if sc.stamp != self.stamp {
            sc.stamp = self.stamp;
            sc.cache = Default::default();
        }
        if sc.reference {
            return Arc::new(self.parse(&sc.ents, &mut sc.ps, false));
        }
        sc.sig.clear();
        for &w in &self.word_ids {
            sc.sig.push(sc.ents[w as usize].pack());
        }
        for c in &sc.cache {
            if let (sig, Some(r)) = c {
                if *sig == sc.sig {
                    return r.clone();
                }
            }
        }
        let r = Arc::new(self.parse(&sc.ents, &mut sc.ps, false));
        let c = &mut sc.cache[slot];
        std::mem::swap(&mut c.0, &mut sc.sig);
        c.1 = Some(r.clone());
        r
    }

    /// The reset procedure of §8.
    pub fn reset(&self) -> (State, ResetReport) {
        let mut sc = Scratch::default();
        self.reset_with(&mut sc)
    }

    pub(crate) fn reset_with(&self, sc: &mut Scratch) -> (State, ResetReport) {
        let n = self.ents.len();
        sc.ents.clear();
        sc.ents.extend_from_slice(&self.init_ents);
        sc.phases.clear();
        sc.phases.extend_from_slice(&self.init_phases);
        let mut rep = ResetReport::default();
        let rules = self.parse(&sc.ents, &mut sc.ps, false);
        self.transform(sc, &rules, When::Reset, &mut rep.transformed);
        self.grid(sc);
        let (win, goals, removed, _) = self.contacts(sc, &rules, &mut rep.destroyed);
        rep.won_at_start = win;
        rep.goals = goals;
        if removed {
            self.grid(sc);
        }
        let pressed = self.pressed(sc);
        for i in 0..n {
            let e = sc.ents[i];
            if !e.alive || self.ents[i].channel.is_none() {
                continue;
            }
            let open = self.is_gate(i, &e) && {
                let ch = self.ents[i].channel.unwrap_or(0) as usize;
                pressed[ch / 64] & (1 << (ch % 64)) != 0 || self.shares(sc, i)
            };
            sc.ents[i].open = open;
        }
        (State::pack(&sc.ents, &sc.phases, false), rep)
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

    /// The property set of every entity in a settled state, as bits of the
    /// level's property words (see [`Game::prop_names`]); removed entities: 0.
    pub fn props(&self, s: &State) -> Vec<u64> {
        let rules = self.rules(s);
        (0..self.ents.len())
            .map(|i| {
                let e = s.ent(i);
                if e.alive {
                    self.ent_props(&rules, i, &e)
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

    /// One input on a state (§6): the engine's single turn function.
    pub fn step(&self, s: &State, input: Input) -> TurnResult {
        let mut sc = Scratch::default();
        self.step_with(s, input, &mut sc, true)
    }

    /// [`Game::step`] with reusable buffers. With `detail` false the event
    /// lists of the report (`moved`, `transformed`, …) are left empty; the
    /// flags, `goals`, `blocked` and `formed` are always filled. This is the
    /// solver's entry point.
    pub fn step_with(&self, s: &State, input: Input, sc: &mut Scratch, detail: bool) -> TurnResult {
        let n = self.ents.len();
        if s.won() {
            return TurnResult::Rejected {
                reason: Rejection::Won,
                blocked: Vec::new(),
            };
        }
        s.unpack_into(n, self.automata.len(), &mut sc.ents, &mut sc.phases);
        let rules0 = self.parse_cached(sc, 0);
        let mut movers = std::mem::take(&mut sc.movers);
        self.you_things(&rules0, &sc.ents, &mut movers);
        sc.movers = movers;
        if sc.movers.is_empty() {
            return TurnResult::Rejected {
                reason: Rejection::NoYou,
                blocked: Vec::new(),
            };
        }
        // Step 1: start of turn.
        sc.start.clear();
        sc.start.extend_from_slice(&sc.ents);
        sc.frail_start.clear();
        for i in 0..n {
            let e = sc.ents[i];
            sc.frail_start
                .push(e.alive && self.ent_props(&rules0, i, &e) & FRAIL != 0);
        }
        for v in [&mut sc.planned, &mut sc.in_t, &mut sc.moved] {
            v.clear();
            v.resize(n, false);
        }
        self.grid(sc);
        let pressed_start = self.pressed(sc);
        let mut rep = TurnReport::default();
        let mut blocked = Vec::new();

        // Step 2: YOU phase.
        if input != Input::Wait {
            let (any, wm) = self.move_phase(
                sc,
                &rules0,
                input,
                By::Player,
                detail,
                &mut rep,
                &mut blocked,
            );
            if !any {
                return TurnResult::Rejected {
                    reason: Rejection::Blocked,
                    blocked,
                };
            }
            rep.word_moved = wm;
            rep.word_moved_by_you = wm;
        }
        rep.blocked = blocked;

        // Step 3: parse 1 and transform. Unmoved words give the same parse.
        let mut rules = if rep.word_moved || sc.reference {
            self.parse_cached(sc, 1)
        } else {
            rules0.clone()
        };
        union(&mut rep.formed, &rules.pairs);
        let mut tr = Vec::new();
        self.transform(sc, &rules, When::AfterMove, &mut tr);

        // Step 4: automata.
        let mut running = false;
        let mut auto_word_moved = false;
        for (ai, a) in self.automata.iter().enumerate() {
            let bit = self.vocab.prop_bit(a.property);
            let mut movers = std::mem::take(&mut sc.movers);
            movers.clear();
            for (i, e) in sc.ents.iter().enumerate() {
                if e.alive
                    && !self.ents[i].word
                    && self.ent_props(&rules, i, e) & bit != 0
                    && a.subject.is_none_or(|s| s == e.noun)
                {
                    movers.push(i as u16);
                }
            }
            sc.movers = movers;
            if sc.movers.is_empty() {
                continue;
            }
            running = true;
            let phase = sc.phases[ai] as usize % a.pattern.len();
            if let Step::Move(dx, dy) = a.pattern[phase] {
                let input = match (dx, dy) {
                    (0, -1) => Some(Input::Up),
                    (0, 1) => Some(Input::Down),
                    (-1, 0) => Some(Input::Left),
                    (1, 0) => Some(Input::Right),
                    _ => None,
                };
                if let Some(input) = input {
                    let mut none = Vec::new();
                    let (_, wm) = self.move_phase(
                        sc,
                        &rules,
                        input,
                        By::Automaton(ai as u16),
                        detail,
                        &mut rep,
                        &mut none,
                    );
                    auto_word_moved |= wm;
                }
            }
            sc.phases[ai] = ((phase + 1) % a.pattern.len()) as u8;
        }

        rep.word_moved |= auto_word_moved;

        // Step 5: parse 2 (the same rules when no word moved since parse 1).
        if running {
            if auto_word_moved || sc.reference {
                rules = self.parse_cached(sc, 1);
                union(&mut rep.formed, &rules.pairs);
            }
            self.transform(sc, &rules, When::AfterAutomata, &mut tr);
        }
        if detail {
            rep.transformed = tr;
        }

        // Step 6: crumble.
        let mut removed = false;
        let mut crumbles: Vec<(usize, Option<Tok>)> = Vec::new();
        for i in 0..n {
            let e = sc.ents[i];
            if !sc.frail_start[i]
                || !e.alive
                || sc.moved[i]
                || self.ent_props(&rules, i, &e) & FRAIL == 0
            {
                continue;
            }
            let s0 = sc.start[i];
            if (e.x, e.y) != (s0.x, s0.y) || self.shares(sc, i) {
                continue;
            }
            let departed = sc.start.iter().enumerate().any(|(j, sj)| {
                j != i && sj.alive && (sj.x, sj.y) == (s0.x, s0.y) && {
                    let now = sc.ents[j];
                    !now.alive || (now.x, now.y) != (s0.x, s0.y)
                }
            });
            if departed {
                crumbles.push((i, self.leaves.get(e.noun as usize).copied().flatten()));
            }
        }
        for &(i, to) in &crumbles {
            let e = &mut sc.ents[i];
            if detail {
                rep.crumbled.push(Crumbled {
                    id: i as EntId,
                    from: e.noun,
                    to,
                });
            }
            match to {
                Some(t) => e.noun = t,
                None => {
                    e.alive = false;
                    removed = true;
                }
            }
        }
        if removed {
            self.grid(sc);
        }

        // Step 7: contacts.
        let mut destroyed = Vec::new();
        let (win, goals, cremoved, word_removed) = self.contacts(sc, &rules, &mut destroyed);
        if detail {
            rep.destroyed = destroyed;
        }
        rep.goals = goals;
        if cremoved {
            self.grid(sc);
        }

        // Step 8: gates.
        if self.has_channels {
            let pressed = self.pressed(sc);
            let has = |set: &Channels, ch: usize| set[ch / 64] & (1 << (ch % 64)) != 0;
            for i in 0..n {
                let e = sc.ents[i];
                if !e.alive || !self.is_gate(i, &e) {
                    continue;
                }
                let ch = self.ents[i].channel.unwrap_or(0) as usize;
                let (from, to, cause) = if has(&pressed, ch) {
                    (e.open, true, (!e.open).then_some(GateCause::Pressed))
                } else if e.open && self.shares(sc, i) {
                    (
                        true,
                        true,
                        has(&pressed_start, ch).then_some(GateCause::Jammed),
                    )
                } else {
                    (e.open, false, e.open.then_some(GateCause::Released))
                };
                sc.ents[i].open = to;
                if let (true, Some(cause)) = (detail, cause) {
                    rep.gates.push(GateEvent {
                        id: i as EntId,
                        from,
                        to,
                        cause,
                    });
                }
            }
        }

        // Step 9: re-parse after removals (only a removed word can change it).
        if word_removed || (sc.reference && (removed || cremoved)) {
            rules = self.parse_cached(sc, 1);
            union(&mut rep.formed, &rules.pairs);
        }

        // Step 10: settle.
        let mut movers = std::mem::take(&mut sc.movers);
        self.you_things(&rules, &sc.ents, &mut movers);
        rep.lost_control = movers.is_empty();
        sc.movers = movers;
        rep.won = win;
        TurnResult::Accepted {
            state: State::pack(&sc.ents, &sc.phases, win),
            report: Box::new(rep),
        }
    }
}
