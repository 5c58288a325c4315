//! The mechanics of §9 that run as turn steps: automata (§9.1, step 4),
//! crumbling (§9.3, step 6) and the gate step (§9.5, step 8).

use super::game::{EntId, F_WORD, Game};
use super::parse::Rules;
use super::report::{By, Crumbled, GateCause, GateEvent, Input, TurnReport};
use super::scratch::{Channels, Scratch};
use super::vocab::{FRAIL, Tok};
use crate::model::Step;

impl Game {
    /// Step 4: every automaton record in id order takes its beat with the
    /// rules of step 3. Returns (some record was running, a word moved).
    pub(crate) fn automata_beat(
        &self,
        sc: &mut Scratch,
        rules: &Rules,
        detail: bool,
        rep: &mut TurnReport,
    ) -> (bool, bool) {
        let mut running = false;
        let mut auto_word_moved = false;
        for (ai, a) in self.automata.iter().enumerate() {
            let bit = self.vocab.prop_bit(a.property);
            let mut movers = std::mem::take(&mut sc.movers);
            movers.clear();
            for (i, e) in sc.ents.iter().enumerate() {
                if e.alive()
                    && self.flags[i] & F_WORD == 0
                    && self.ent_props(rules, i, e) & bit != 0
                    && a.subject.is_none_or(|s| s == e.noun())
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
                        rules,
                        input,
                        By::Automaton(ai as u16),
                        detail,
                        rep,
                        &mut none,
                    );
                    auto_word_moved |= wm;
                }
            }
            sc.phases[ai] = ((phase + 1) % a.pattern.len()) as u8;
        }

        (running, auto_word_moved)
    }

    /// Step 6: the FRAIL checkpoint; all crumbles are decided, then applied.
    /// Returns (a thing was removed, a thing crumbled: removed or changed noun).
    pub(crate) fn crumble(
        &self,
        sc: &mut Scratch,
        rules: &Rules,
        detail: bool,
        rep: &mut TurnReport,
    ) -> (bool, bool) {
        let n = sc.ents.len();
        let mut removed = false;
        if !sc.any_frail {
            return (false, false);
        }
        let mut crumbles: Vec<(usize, Option<Tok>)> = Vec::new();
        for i in 0..n {
            let e = sc.ents[i];
            if !sc.frail_start[i]
                || !e.alive()
                || sc.moved[i]
                || self.ent_props(rules, i, &e) & FRAIL == 0
            {
                continue;
            }
            let s0 = sc.start[i];
            if (e.x(), e.y()) != (s0.x(), s0.y()) || self.shares(sc, i) {
                continue;
            }
            let departed = sc.start.iter().enumerate().any(|(j, sj)| {
                j != i && sj.alive() && (sj.x(), sj.y()) == (s0.x(), s0.y()) && {
                    let now = sc.ents[j];
                    !now.alive() || (now.x(), now.y()) != (s0.x(), s0.y())
                }
            });
            if departed {
                crumbles.push((i, self.leaves.get(e.noun() as usize).copied().flatten()));
            }
        }
        for &(i, to) in &crumbles {
            let e = &mut sc.ents[i];
            if detail {
                rep.crumbled.push(Crumbled {
                    id: i as EntId,
                    from: e.noun(),
                    to,
                });
            }
            match to {
                Some(t) => e.set_noun(t),
                None => {
                    e.remove();
                    removed = true;
                }
            }
        }
        if removed {
            self.grid(sc);
        }

        (removed, !crumbles.is_empty())
    }

    /// Step 8: the gate step, gates in id order.
    pub(crate) fn gate_step(
        &self,
        sc: &mut Scratch,
        pressed_start: &Channels,
        detail: bool,
        rep: &mut TurnReport,
    ) {
        let n = sc.ents.len();
        if self.has_channels {
            let pressed = self.pressed(sc);
            let has = |set: &Channels, ch: usize| set[ch / 64] & (1 << (ch % 64)) != 0;
            for i in 0..n {
                let e = sc.ents[i];
                if !e.alive() || !self.is_gate(i, &e) {
                    continue;
                }
                let ch = self.ents[i].channel.unwrap_or(0) as usize;
                let (from, to, cause) = if has(&pressed, ch) {
                    (e.open(), true, (!e.open()).then_some(GateCause::Pressed))
                } else if e.open() && self.shares(sc, i) {
                    (
                        true,
                        true,
                        has(pressed_start, ch).then_some(GateCause::Jammed),
                    )
                } else {
                    (e.open(), false, e.open().then_some(GateCause::Released))
                };
                sc.ents[i].set_open(to);
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
    }
}
