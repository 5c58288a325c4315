//! The engine as a search space: a level's turn function with the pruning of
//! each stage 4 search (`diagnostics.md` §5.1 note A, `rules.md` §10.4–10.5).

#[cfg(test)]
mod event_tests;
mod events;
mod solve;
#[cfg(test)]
mod tests;

pub use events::{DestroyCause, EventFilter};

pub use solve::{
    SATISFICE_AFTER, SATISFICE_AFTER_RULE_SETS, SATISFICE_FIRST, SATISFICE_FIRST_MOVES,
    SATISFICE_MEET_WORK, SATISFICE_PROBE, SATISFICE_PROBE_MOVES, find_route, needs_route,
    search_exact, search_level, search_moves,
};

use super::deadlock::DeadCells;
use super::pushes::PushSpace;
use super::{Space, Turn};
use crate::engine::{Game, Input, Scratch, State, Tok, TurnReport};
use events::Forbidden;
use std::cell::{Cell, RefCell};

/// Which turns a search discards. The default prunes nothing (the plain solve).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constraints {
    /// Words frozen (BYPASS): no word may move on any turn, by any cause.
    pub words_frozen: bool,
    /// Hands-off (HANDS-OFF): the player's own move may not move a word.
    pub hands_off: bool,
    /// No rule change (SKIPPABLE): at every parse point the active rules are
    /// exactly those at reset (none formed, none broken).
    pub no_rule_change: bool,
    /// Forbid searches: none of these rules may be active at any parse point.
    pub forbid: Vec<(Tok, Tok)>,
    /// Keep searches (one per `must-break` entry): each of these rules stays
    /// active at every parse point. Each must be active at reset; the start
    /// is excluded otherwise.
    pub keep: Vec<(Tok, Tok)>,
    /// Only wins after every one of these rules has formed at least once count.
    pub require: Vec<(Tok, Tok)>,
    /// No word may be destroyed.
    pub no_word_loss: bool,
    /// Events no turn may make happen ([`EventFilter`]): the claims over
    /// what happens (`must-lose`, `must-crumble`, …) and the lesson
    /// checks search with their event forbidden.
    pub forbid_events: Vec<EventFilter>,
}

/// A search node is the engine state's packed words, followed, when the
/// search requires rules, by one word with bit `i` set once `require[i]` has
/// formed: part of the key, since the same board with and without the rule
/// formed are different situations.
/// A level's turn function under [`Constraints`].
#[derive(Debug, Clone)]
pub struct LevelSpace<'g> {
    game: &'g Game,
    start: State,
    inputs: Vec<Input>,
    constraints: Constraints,
    reset_rules: Vec<(Tok, Tok)>,
    words: Vec<u16>,
    scratch: RefCell<(Scratch, TurnReport)>,
    /// Whether the state of the last `enter` can move at all.
    entered: Cell<bool>,
    /// Dead states to drop, where the level allows the analysis.
    dead: Option<DeadCells>,
    /// Whether the start itself is dead: then a plain walk's successor is
    /// dead too and must be tested like any other.
    start_dead: bool,
    /// The forbidden events, resolved against the level.
    forbidden: Forbidden,
    /// Whether turns are stepped with their event lists.
    detail: bool,
}

impl<'g> LevelSpace<'g> {
    /// The space of `game` from its reset state. Waits are actions only on
    /// levels with automata (`rules.md` §10.4).
    pub fn new(game: &'g Game, constraints: Constraints) -> Self {
        let (start, _) = game.reset();
        let mut inputs = Input::MOVES.to_vec();
        if !game.automata.is_empty() {
            inputs.push(Input::Wait);
        }
        let rules = game.rules(&start);
        let dead = DeadCells::new(game, &start, &rules);
        let reset_rules = rules.pairs;
        let start_dead = dead.as_ref().is_some_and(|d| d.is_dead(start.words()));
        let words = (0..game.ents.len())
            .filter(|&i| game.ents[i].word)
            .map(|i| i as u16)
            .collect();
        let forbidden = Forbidden::new(game, &constraints.forbid_events);
        let detail = forbidden.needs_detail();
        LevelSpace {
            game,
            start,
            inputs,
            constraints,
            reset_rules,
            words,
            scratch: RefCell::new((Scratch::default(), TurnReport::default())),
            entered: Cell::new(false),
            dead,
            start_dead,
            forbidden,
            detail,
        }
    }

    /// The inputs in expansion order (`U D L R`, then `W` with automata).
    pub fn inputs(&self) -> &[Input] {
        &self.inputs
    }

    /// The rules active at reset.
    pub fn reset_rules(&self) -> &[(Tok, Tok)] {
        &self.reset_rules
    }

    fn live_words(&self, s: &[u32]) -> usize {
        self.words.iter().filter(|&&w| Game::alive_in(s, w)).count()
    }

    fn required_mask(&self) -> u32 {
        if self.constraints.require.len() >= 32 {
            u32::MAX
        } else {
            (1u32 << self.constraints.require.len()) - 1
        }
    }

    fn formed_bits(&self, rules: &[(Tok, Tok)]) -> u32 {
        let mut bits = 0;
        for (i, r) in self.constraints.require.iter().enumerate().take(32) {
            if rules.binary_search(r).is_ok() {
                bits |= 1 << i;
            }
        }
        bits
    }

    /// The engine state's words of a packed node (without the `formed` word).
    fn state_words<'a>(&self, node: &'a [u32]) -> &'a [u32] {
        if self.constraints.require.is_empty() {
            node
        } else {
            node.split_last().map_or(node, |(_, state)| state)
        }
    }

    /// The push search's view of this level, where it applies
    /// ([`super::pushes`]): the level is in the dead-state fragment and the
    /// constraints exclude nothing there. A forbidden push or GOAL filled
    /// can happen there and the push search has no turn reports to see
    /// them, so such a search runs over moves.
    pub fn push_space(&self) -> Option<PushSpace<'g>> {
        let dead = self.dead.as_ref()?;
        if !vacuous(&self.constraints, &self.reset_rules)
            || !self.forbidden.vacuous_in_push_fragment()
        {
            return None;
        }
        let rules = self.game.rules(&self.start);
        PushSpace::new(self.game, &self.start, &rules, dead)
    }

    /// Whether `route` (action indices) wins on its last turn and not
    /// before, through no turn this space prunes: a satisficing route is
    /// checked so, turn by turn on the engine, before anything reports it.
    pub fn wins(&self, route: &[u8]) -> bool {
        super::shorten::states_along(self, route).is_some()
    }

    /// Whether the start state itself is excluded: a forbidden rule is
    /// active at reset, or a kept one isn't.
    pub fn start_excluded(&self) -> bool {
        let c = &self.constraints;
        c.forbid
            .iter()
            .any(|r| self.reset_rules.binary_search(r).is_ok())
            || c.keep
                .iter()
                .any(|r| self.reset_rules.binary_search(r).is_err())
    }
}

impl Space for LevelSpace<'_> {
    fn action_count(&self) -> usize {
        self.inputs.len()
    }

    fn start(&self, out: &mut Vec<u32>) {
        out.extend_from_slice(self.start.words());
        if !self.constraints.require.is_empty() {
            out.push(self.formed_bits(&self.reset_rules));
        }
    }

    fn enter(&self, from: &[u32]) {
        let state = self.state_words(from);
        let mut buffers = self.scratch.borrow_mut();
        let ok = self.game.prepare(state, &mut buffers.0).is_ok();
        self.entered.set(ok);
        if ok && !self.forbidden.is_empty() {
            self.forbidden.enter(self.game, state);
        }
    }

    fn step(&self, from: &[u32], action: usize, out: &mut Vec<u32>) -> Option<Turn> {
        let input = *self.inputs.get(action)?;
        if !self.entered.get() {
            return None;
        }
        let c = &self.constraints;
        let state = self.state_words(from);
        let formed = if c.require.is_empty() {
            0
        } else {
            from.last().copied().unwrap_or(0)
        };
        let mut buffers = self.scratch.borrow_mut();
        let (sc, report) = &mut *buffers;
        let at = out.len();
        self.game
            .step_prepared(input, sc, self.detail, report, out)
            .ok()?;
        let mut pruned = report.lost_control && !report.won;
        pruned |= c.words_frozen && report.word_moved;
        pruned |= c.hands_off && report.word_moved_by_you;
        // Every state this search reaches has the reset rules (its start
        // does, and each kept turn ends on an unchanged parse), so a turn
        // whose parses all match its start's keeps the reset rules throughout.
        pruned |= c.no_rule_change && report.rules_changed;
        pruned |= c
            .forbid
            .iter()
            .any(|r| report.formed.binary_search(r).is_ok());
        // Kept rules are active at every reached turn start (the start has
        // them and a kept turn ends with them), so a parse that lacks one
        // broke it.
        pruned |= c
            .keep
            .iter()
            .any(|r| report.broken.binary_search(r).is_ok());
        if c.no_word_loss && !pruned {
            pruned = self.live_words(&out[at..]) < self.live_words(state);
        }
        if !pruned && !self.forbidden.is_empty() {
            pruned = self
                .forbidden
                .happened(self.game, report, state, &out[at..]);
        }
        // A dead state is dropped (`deadlock`: no win follows it). A plain
        // walk moves no PUSH thing, so its successor is as dead as the state
        // it came from, which was the start or a state kept as not dead.
        if let Some(dead) = &self.dead
            && !pruned
            && !report.won
            && (sc.walked().is_none() || self.start_dead)
        {
            pruned = dead.is_dead(&out[at..]);
        }
        let formed = formed | self.formed_bits(&report.formed);
        let won = report.won && formed == self.required_mask();
        // A win that misses a required rule is terminal without counting.
        pruned |= report.won && !won;
        if !c.require.is_empty() {
            out.push(formed);
        }
        // A plain walk changes one entity's word; with `require` the formed
        // word follows, so no hint then.
        let changed = sc.walked().filter(|_| c.require.is_empty());
        Some(Turn {
            won,
            pruned,
            changed,
        })
    }
}

/// Whether `constraints` exclude nothing on a level of the fragment, where
/// words never move nor vanish and the rules are the reset ones on every
/// turn: then each of stage 4's searches is the plain one. A required rule
/// must be active at reset (it can never form later); forbidden and kept
/// rules are decided at the start ([`LevelSpace::start_excluded`]).
fn vacuous(constraints: &Constraints, reset_rules: &[(Tok, Tok)]) -> bool {
    constraints
        .require
        .iter()
        .all(|r| reset_rules.binary_search(r).is_ok())
}

/// The letters of a route of action indices, for a space with `inputs`.
pub fn route_text(inputs: &[Input], route: &[u8]) -> String {
    route
        .iter()
        .filter_map(|&a| inputs.get(a as usize))
        .map(|i| i.letter())
        .collect()
}
