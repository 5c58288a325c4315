//! The reset procedure (§8).

use super::game::Game;
use super::report::{ResetReport, When};
use super::scratch::Scratch;
use super::state::State;

impl Game {
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
        let (win, goals, removed, _) = self.contacts(sc, &rules, None, &mut rep.destroyed);
        rep.won_at_start = win;
        rep.goals = goals;
        if removed {
            self.grid(sc);
        }
        let pressed = self.pressed(sc);
        for i in 0..n {
            let e = sc.ents[i];
            if !e.alive() || self.ents[i].channel.is_none() {
                continue;
            }
            let open = self.is_gate(i, &e) && {
                let ch = self.ents[i].channel.unwrap_or(0) as usize;
                pressed[ch / 64] & (1 << (ch % 64)) != 0 || self.shares(sc, i)
            };
            sc.ents[i].set_open(open);
        }
        (State::pack(&sc.ents, &sc.phases, false), rep)
    }
}
