//! A play with undo history (§10.2), for the editor and replays.

use super::game::Game;
use super::report::{Input, ResetReport, TurnResult};
use super::scratch::Scratch;
use super::state::State;

/// One play of a level: the current state and the snapshots before every
/// accepted turn.
#[derive(Debug, Clone)]
pub struct Play<'g> {
    game: &'g Game,
    state: State,
    history: Vec<State>,
    scratch: Scratch,
    reset_report: ResetReport,
}

impl<'g> Play<'g> {
    /// A play from the reset state.
    pub fn new(game: &'g Game) -> Self {
        let (state, reset_report) = game.reset();
        Play {
            game,
            state,
            history: Vec::new(),
            scratch: Scratch::default(),
            reset_report,
        }
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The game.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// What the last reset reported.
    pub fn reset_report(&self) -> &ResetReport {
        &self.reset_report
    }

    /// Number of accepted turns since reset (minus undone ones).
    pub fn turns(&self) -> usize {
        self.history.len()
    }

    /// Plays one input; an accepted turn pushes the previous state.
    pub fn input(&mut self, input: Input) -> TurnResult {
        let r = self
            .game
            .step_with(&self.state, input, &mut self.scratch, true);
        if let TurnResult::Accepted { state, .. } = &r {
            let prev = std::mem::replace(&mut self.state, state.clone());
            self.history.push(prev);
        }
        r
    }

    /// Restores the state before the last accepted turn; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(s) => {
                self.state = s;
                true
            }
            None => false,
        }
    }

    /// Rebuilds the reset state and clears the history.
    pub fn reset(&mut self) {
        let (s, r) = self.game.reset();
        self.state = s;
        self.reset_report = r;
        self.history.clear();
    }
}
