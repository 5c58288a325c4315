//! Helpers shared by the integration tests: the rules engine as a search
//! space, and pack models stripped of source positions.
//!
//! Not every test file uses every helper, hence the `dead_code` allowance.
#![allow(dead_code)]

use miau::engine::{Game, Input, TurnReport};
use miau::model::Pack;
use miau::span::Span;

/// The engine as a search space for [`miau::solver::search`], per §10.4:
/// actions `U D L R`, plus `W` on levels with automata; rejected inputs have
/// no successor and turns that leave no YOU are dead ends.
#[derive(Clone)]
pub struct EngineSpace<'g> {
    game: &'g Game,
    actions: Vec<Input>,
    scratch: std::cell::RefCell<miau::engine::Scratch>,
    report: std::cell::RefCell<TurnReport>,
}

impl<'g> EngineSpace<'g> {
    /// The search space of a compiled game.
    pub fn new(game: &'g Game) -> Self {
        let mut actions = Input::MOVES.to_vec();
        if !game.automata.is_empty() {
            actions.push(Input::Wait);
        }
        EngineSpace {
            game,
            actions,
            scratch: Default::default(),
            report: Default::default(),
        }
    }

    /// The shortest winning route first in `U < D < L < R < W` order, or
    /// `None` when the search ends without one.
    pub fn solve(&self, states: u64) -> Option<String> {
        use miau::solver::{Limits, Verdict, search};
        let limits = Limits {
            states,
            ..Limits::default()
        };
        let cancel = std::sync::atomic::AtomicBool::new(false);
        match search(self, limits, 1, &cancel, &mut |_| {}).verdict {
            Verdict::Solved { route, .. } => Some(
                route
                    .iter()
                    .map(|&a| self.actions[a as usize].letter())
                    .collect(),
            ),
            _ => None,
        }
    }
}

impl miau::solver::Space for EngineSpace<'_> {
    fn action_count(&self) -> usize {
        self.actions.len()
    }

    fn start(&self, out: &mut Vec<u32>) {
        out.extend_from_slice(self.game.reset().0.words());
    }

    // No `enter`: every step goes through `step_words` on the whole state.
    fn step(&self, state: &[u32], action: usize, out: &mut Vec<u32>) -> Option<miau::solver::Turn> {
        let mut report = self.report.borrow_mut();
        self.game
            .step_words(
                state,
                self.actions[action],
                &mut self.scratch.borrow_mut(),
                false,
                &mut report,
                out,
            )
            .ok()?;
        Some(miau::solver::Turn {
            won: report.won,
            // A win stands even when the last YOU went with it (§6.4).
            pruned: report.lost_control && !report.won,
            changed: None,
        })
    }
}

/// The model without source positions, which formatting is allowed to move.
pub fn strip(mut p: Pack) -> Pack {
    let z = Span::default();
    p.span = z;
    p.allow_at = z;
    if let Some(w) = &mut p.world {
        w.span = z;
    }
    for e in &mut p.palette {
        e.span = z;
        e.noun.span = z;
    }
    for e in &mut p.glossary {
        e.span = z;
        e.word.span = z;
    }
    for v in &mut p.vocabulary {
        v.span = z;
    }
    for a in &mut p.allow {
        a.span = z;
        a.code.span = z;
    }
    for l in &mut p.levels {
        l.span = z;
        l.board_span = z;
        l.id.span = z;
        if let Some(c) = &mut l.category {
            c.span = z;
        }
        for w in l.introduces.words.iter_mut().chain(&mut l.reuses.words) {
            w.span = z;
        }
        for t in &mut l.terrain {
            t.span = z;
        }
        for a in &mut l.automata {
            a.span = z;
            a.id.span = z;
            a.property.span = z;
            if let Some(s) = &mut a.subject {
                s.span = z;
            }
        }
        for pr in &mut l.pairs {
            pr.span = z;
            for w in &mut pr.words {
                w.span = z;
            }
        }
        if let Some(f) = &mut l.frail {
            f.span = z;
            for (a, b) in &mut f.leaves {
                a.span = z;
                b.span = z;
            }
        }
        let c = &mut l.check;
        for a in c
            .allow
            .iter_mut()
            .chain(c.allow_bypass.as_mut())
            .chain(c.allow_hands_off.as_mut())
        {
            a.span = z;
            a.code.span = z;
        }
        for m in c.must_form.iter_mut().chain(c.must_break.iter_mut()) {
            m.span = z;
        }
        for claim in &mut c.must_happen {
            claim.span = z;
            for a in &mut claim.args {
                a.span = z;
            }
        }
        c.steps_span = z;
        if let Some(s) = &mut c.solution {
            s.span = z;
        }
        for o in &mut l.objects {
            o.span = z;
            o.part = z;
            o.legend = z;
        }
        l.terrain_span = z;
    }
    p
}
