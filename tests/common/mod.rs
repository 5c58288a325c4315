//! Helpers shared by the integration tests: levels compiled from `.miau`
//! sources through the real front end and played on the rules engine, and
//! pack models stripped of source positions.
//!
//! Not every test file uses every helper, hence the `dead_code` allowance.
#![allow(dead_code)]

use miau::compile::{SourceKind, analyse, compile};
use miau::diag::Severity;
use miau::engine::{
    Blocked, Cause, Destroyed, EntId, Game, Input, Rejection, ResetReport, State, TurnReport,
    TurnResult,
};
use miau::model::{Level, Pack};
use miau::span::Span;

/// Compiles a `.miau` source through stages 1 and 2 and returns the level with
/// this id. Panics, listing the diagnostics, when the source has an error: a
/// fixture the front end rejects proves nothing about the engine.
pub fn level(source: &str, id: &str) -> Level {
    let compiled = compile(source, SourceKind::Miau);
    let errors: Vec<String> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.code(), d.message))
        .collect();
    assert!(errors.is_empty(), "front-end errors: {errors:#?}");
    let pack = compiled.pack.expect("a pack model");
    pack.levels
        .into_iter()
        .find(|l| l.id.text == id)
        .unwrap_or_else(|| panic!("no level {id} in the fixture"))
}

/// Codes of the stage-3 diagnostics (with their messages) of one level, for
/// the load warnings a case names.
pub fn level_diagnostics(source: &str, id: &str) -> Vec<(String, String)> {
    analyse(source, SourceKind::Miau)
        .diagnostics
        .iter()
        .filter(|d| d.level.as_deref() == Some(id))
        .map(|d| (d.code().to_string(), d.message.clone()))
        .collect()
}

/// A crumble as (id, cell after the turn, leftover noun or `None` for removal).
pub type Crumble = (String, Option<(u8, u8)>, Option<String>);

/// One play of a compiled level: the game, its current state and what reset
/// reported. Inputs go through [`Game::step`], as every shell does.
pub struct Case {
    /// The compiled level.
    pub game: Game,
    /// The current state.
    pub state: State,
    /// What reset reported.
    pub reset: ResetReport,
}

impl Case {
    /// Compiles level `id` of a fixture source and resets it.
    pub fn new(source: &str, id: &str) -> Case {
        Case::of(&level(source, id))
    }

    /// Builds and resets an already compiled level.
    pub fn of(level: &Level) -> Case {
        let game = Game::new(level);
        let (state, reset) = game.reset();
        Case { game, state, reset }
    }

    /// Plays one input letter; an accepted turn becomes the current state.
    pub fn input(&mut self, c: char) -> TurnResult {
        let input = Input::from_char(c).expect("an input letter");
        let r = self.game.step(&self.state, input);
        if let TurnResult::Accepted { state, .. } = &r {
            self.state = state.clone();
        }
        r
    }

    /// Plays one input that must be accepted and returns its report.
    pub fn ok(&mut self, c: char) -> TurnReport {
        match self.input(c) {
            TurnResult::Accepted { report, .. } => *report,
            r => panic!("input {c} rejected: {r:?}"),
        }
    }

    /// Plays one input that must be rejected: the reason and the refused YOUs.
    /// Also checks that a rejection changes nothing.
    pub fn rejected(&mut self, c: char) -> (Rejection, Vec<Blocked>) {
        let before = self.state.clone();
        match self.input(c) {
            TurnResult::Rejected { reason, blocked } => {
                assert_eq!(self.state, before, "a rejected input changed the state");
                (reason, blocked)
            }
            TurnResult::Accepted { .. } => panic!("input {c} was accepted"),
        }
    }

    /// The rule list as `SUBJECT IS PREDICATE (axis)`, in reading order.
    pub fn rules(&self) -> Vec<String> {
        miau::engine::testkit::rule_list(&self.game, &self.state)
    }

    /// The rule list as `SUBJECT IS PREDICATE`, in reading order.
    pub fn rule_texts(&self) -> Vec<String> {
        miau::engine::testkit::without_axes(self.rules())
    }

    /// Whether `rule` (`SUBJECT IS PREDICATE`) is in the rule list.
    pub fn holds(&self, rule: &str) -> bool {
        self.rule_texts().iter().any(|r| r == rule)
    }

    /// The sentences (spans) as (axis, first cell, word ids in path order).
    pub fn spans(&self) -> Vec<(&'static str, (u8, u8), Vec<String>)> {
        self.game
            .rules(&self.state)
            .sentences
            .iter()
            .map(|s| {
                (
                    s.axis.as_str(),
                    s.at,
                    s.words
                        .iter()
                        .map(|&w| self.game.id(w).to_string())
                        .collect(),
                )
            })
            .collect()
    }

    /// Nouns of the live things at a cell, in id order.
    pub fn things_at(&self, x: u8, y: u8) -> Vec<String> {
        self.at(x, y, false)
    }

    /// Texts of the live words at a cell, in id order.
    pub fn words_at(&self, x: u8, y: u8) -> Vec<String> {
        self.at(x, y, true)
    }

    fn at(&self, x: u8, y: u8, words: bool) -> Vec<String> {
        self.game
            .live(&self.state)
            .into_iter()
            .filter(|&e| {
                self.game.ents[e as usize].word == words
                    && self.game.pos(&self.state, e) == Some((x, y))
            })
            .filter_map(|e| self.game.noun(&self.state, e))
            .map(|t| self.game.name(t).to_string())
            .collect()
    }

    /// The entity with this front-end id.
    pub fn id(&self, id: &str) -> EntId {
        self.game
            .find(id)
            .unwrap_or_else(|| panic!("no entity {id}"))
    }

    /// The cell of an entity, `None` once removed.
    pub fn pos(&self, id: &str) -> Option<(u8, u8)> {
        self.game.pos(&self.state, self.id(id))
    }

    /// The noun of an entity, `None` once removed.
    pub fn noun(&self, id: &str) -> Option<String> {
        self.game
            .noun(&self.state, self.id(id))
            .map(|t| self.game.name(t).to_string())
    }

    /// The `open` flag of a channel holder.
    pub fn open(&self, id: &str) -> bool {
        self.game.open(&self.state, self.id(id))
    }

    /// The phase of the automaton record at `index` (records in id order).
    pub fn phase(&self, index: usize) -> u8 {
        self.game.phase(&self.state, index)
    }

    /// Destroyed entries as (id, cause text, cell), in report order.
    pub fn destroyed(&self, list: &[Destroyed]) -> Vec<(String, String, (u8, u8))> {
        list.iter()
            .map(|d| {
                let cause = match d.cause {
                    Cause::Sink => "sink".to_string(),
                    Cause::Defeat => "defeat".to_string(),
                    Cause::Pair(i) => self.game.pairs[i as usize].cause.clone(),
                };
                (self.game.id(d.id).to_string(), cause, d.at)
            })
            .collect()
    }

    /// Gate events as (gate id, cause), in report order.
    pub fn gates(&self, rep: &TurnReport) -> Vec<(String, &'static str)> {
        rep.gates
            .iter()
            .map(|g| (self.game.id(g.id).to_string(), g.cause.as_str()))
            .collect()
    }

    /// Crumbles as (id, cell after, leftover noun or `None`), in report order.
    pub fn crumbled(&self, rep: &TurnReport) -> Vec<Crumble> {
        rep.crumbled
            .iter()
            .map(|k| {
                (
                    self.game.id(k.id).to_string(),
                    self.game.pos(&self.state, k.id),
                    k.to.map(|t| self.game.name(t).to_string()),
                )
            })
            .collect()
    }

    /// Transformations as (id, from, to, when), in report order.
    pub fn transformed(
        &self,
        list: &[miau::engine::Transformed],
    ) -> Vec<(String, String, String, &'static str)> {
        list.iter()
            .map(|t| {
                (
                    self.game.id(t.id).to_string(),
                    self.game.name(t.from).to_string(),
                    self.game.name(t.to).to_string(),
                    t.when.as_str(),
                )
            })
            .collect()
    }

    /// Blocked entries as (id, reason, blocker id).
    pub fn blocked(&self, list: &[Blocked]) -> Vec<(String, &'static str, Option<String>)> {
        list.iter()
            .map(|b| {
                (
                    self.game.id(b.id).to_string(),
                    b.reason.as_str(),
                    b.blocker.map(|x| self.game.id(x).to_string()),
                )
            })
            .collect()
    }
}

/// Owned strings from string slices, for comparisons.
pub fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

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
