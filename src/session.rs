//! A play of one level for people (no I/O): the engine's turns with undo and
//! restart, the route played so far, which way each actor faces, and what
//! each turn did in words.
//!
//! The terminal player (`miauc play`), the editor's preview (`miau/step`) and
//! the animated export (`miauc render -o route.gif`) all drive a [`Session`],
//! so they agree on every board, event line and facing. The event lines are
//! worded by [`crate::engine::events`], which `miauc replay` uses too.

use crate::engine::events::{rejection, reset_events, rule_lines, turn_events};
use crate::engine::{Class, Game, Input, Rejection, Scratch, State, TurnResult};
use crate::model::Level;

/// What a player can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Move (or wait).
    Input(Input),
    /// Take back the last accepted turn.
    Undo,
    /// Back to the reset state, history cleared.
    Restart,
}

/// One point of the play: a settled state and how the play got there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The settled state.
    pub state: State,
    /// Per entity (id order): whether it looks left. Actors turn toward their
    /// own horizontal moves; being pushed does not turn them.
    pub facing_left: Vec<bool>,
    /// Accepted turns since reset.
    pub turn: usize,
    /// The input of the turn that led here (`None` at reset).
    pub input: Option<Input>,
    /// What that turn (or the reset) did, one line per event, in report order.
    pub events: Vec<String>,
}

/// What [`Session::apply`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The input was accepted; the current snapshot is the new turn.
    Accepted,
    /// The input was refused: the line says why. Nothing changed.
    Rejected(String),
    /// The last turn was taken back.
    Undone,
    /// There was no turn to take back.
    NothingToUndo,
    /// Back at reset.
    Restarted,
}

impl Outcome {
    /// One line for a status bar.
    pub fn message(&self) -> String {
        match self {
            Outcome::Accepted => String::new(),
            Outcome::Rejected(why) => why.clone(),
            Outcome::Undone => "undone".to_string(),
            Outcome::NothingToUndo => "nothing to undo".to_string(),
            Outcome::Restarted => "restarted".to_string(),
        }
    }
}

/// A play of one level with its full history (or, from
/// [`Session::last_only`], only its reset and its latest snapshot).
#[derive(Debug, Clone)]
pub struct Session {
    game: Game,
    history: Vec<Snapshot>,
    scratch: Scratch,
    /// Whether every snapshot is kept (for undo, the route and a GIF), or
    /// only the reset and the latest: memory stays one board whatever the
    /// route's length.
    keep_history: bool,
}

impl Session {
    /// A play of `level` from its reset state.
    pub fn new(level: &Level) -> Session {
        let game = Game::new(level);
        let (state, report) = game.reset();
        let events = texts(reset_events(&game, &state, &report));
        let facing_left = vec![false; game.len()];
        Session {
            history: vec![Snapshot {
                state,
                facing_left,
                turn: 0,
                input: None,
                events,
            }],
            game,
            scratch: Scratch::default(),
            keep_history: true,
        }
    }

    /// A play that keeps only the reset and the latest snapshot, for callers
    /// that need where a route ends (a picture, a preview), not the way
    /// there: a 100,000-move route costs one board, not 100,000. Undo has
    /// nothing to go back to, and [`Session::route`] holds the last input only.
    pub fn last_only(level: &Level) -> Session {
        Session {
            keep_history: false,
            ..Session::new(level)
        }
    }

    /// The compiled level.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current snapshot.
    pub fn current(&self) -> &Snapshot {
        self.history
            .last()
            .expect("the reset snapshot is never popped")
    }

    /// Every snapshot from reset to now.
    pub fn history(&self) -> &[Snapshot] {
        &self.history
    }

    /// Accepted turns since reset.
    pub fn turns(&self) -> usize {
        self.current().turn
    }

    /// The inputs of the accepted turns, as letters `U D L R W`.
    pub fn route(&self) -> String {
        self.history
            .iter()
            .filter_map(|s| s.input.map(Input::letter))
            .collect()
    }

    /// Whether the play is won.
    pub fn won(&self) -> bool {
        self.current().state.won()
    }

    /// The rules of the current board, each `SUBJECT IS PREDICATE` once, in
    /// reading order, with whether it is a terrain's implicit rule.
    pub fn rules(&self) -> Vec<(String, bool)> {
        rule_lines(&self.game, &self.game.rules(&self.current().state))
    }

    /// Does one thing.
    pub fn apply(&mut self, action: Action) -> Outcome {
        match action {
            Action::Undo => {
                if self.keep_history && self.history.len() > 1 {
                    self.history.pop();
                    Outcome::Undone
                } else {
                    Outcome::NothingToUndo
                }
            }
            Action::Restart => {
                self.history.truncate(1);
                Outcome::Restarted
            }
            Action::Input(input) => self.input(input),
        }
    }

    fn input(&mut self, input: Input) -> Outcome {
        let before = self.current().clone();
        match self
            .game
            .step_with(&before.state, input, &mut self.scratch, true)
        {
            TurnResult::Rejected { reason, blocked } => {
                let why = rejection(&self.game, &before.state, reason, &blocked);
                Outcome::Rejected(match reason {
                    Rejection::Blocked => why,
                    Rejection::Won | Rejection::NoYou => format!("{why}: undo or restart"),
                })
            }
            TurnResult::Accepted { state, report } => {
                let mut facing_left = before.facing_left.clone();
                for m in &report.moved {
                    if !m.pushed && m.from.0 != m.to.0 {
                        if let Some(f) = facing_left.get_mut(usize::from(m.id)) {
                            *f = m.to.0 < m.from.0;
                        }
                    }
                }
                let events = texts(turn_events(&self.game, &before.state, &state, &report));
                if !self.keep_history {
                    self.history.truncate(1);
                }
                self.history.push(Snapshot {
                    state,
                    facing_left,
                    turn: before.turn + 1,
                    input: Some(input),
                    events,
                });
                Outcome::Accepted
            }
        }
    }

    /// Plays `moves` (letters `U D L R W`, whitespace ignored) from the
    /// current snapshot; stops at the first unreadable or refused input and
    /// returns its 1-based position and why.
    pub fn play_route(&mut self, moves: &str) -> Result<(), (usize, String)> {
        for (i, c) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let Some(input) = Input::from_char(c) else {
                return Err((i + 1, format!("'{c}' is not one of U D L R W")));
            };
            if let Outcome::Rejected(why) = self.apply(Action::Input(input)) {
                return Err((i + 1, why));
            }
        }
        Ok(())
    }
}

fn texts(events: Vec<crate::engine::events::Event>) -> Vec<String> {
    events.into_iter().map(|e| e.text).collect()
}

/// The class of a word's text in `game`, for colouring tiles.
pub fn word_class(game: &Game, text: &str) -> Class {
    game.tok(text).map_or(Class::Noun, |t| game.vocab.class(t))
}

/// `text` with level `level_id`'s `solution` set to `route`, formatted: the
/// statement is replaced when there is one, else added after the header.
/// Errors when the text does not parse or has no such level.
pub fn record_solution(text: &str, level_id: &str, route: &str) -> Result<String, String> {
    use crate::syntax::ast::{Item, LevelStmtKind};
    let (file, diags) = crate::syntax::parse(text);
    if diags
        .iter()
        .any(|d| d.severity == crate::diag::Severity::Error)
    {
        return Err("the file has syntax errors; fix them before saving a route".to_string());
    }
    let level = file
        .items
        .iter()
        .find_map(|i| match i {
            Item::Level(l) if l.id.text == level_id => Some(l),
            _ => None,
        })
        .ok_or_else(|| format!("the file has no level {level_id}"))?;
    let quoted = format!("\"{route}\"");
    let mut out = String::with_capacity(text.len() + route.len() + 16);
    match level.stmts.iter().find_map(|s| match &s.kind {
        LevelStmtKind::Solution(v) => Some(v.span),
        _ => None,
    }) {
        Some(span) => {
            out.push_str(&text[..span.start as usize]);
            out.push_str(&quoted);
            out.push_str(&text[span.end as usize..]);
        }
        None => {
            let at = level.block.header.end as usize;
            out.push_str(&text[..at]);
            out.push_str("\n  solution ");
            out.push_str(&quoted);
            out.push_str(&text[at..]);
        }
    }
    crate::fmt::format(&out).map_err(|_| "the edited file did not format".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(src: &str) -> Level {
        let c = crate::compile::compile(src, crate::compile::SourceKind::Miau);
        c.pack.expect("compiles").levels.remove(0)
    }

    const SRC: &str = "pack tt {\n  name \"T\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\
        level aa {\n  title \"A\"\n  board {\n    MIAU IS YOU . .\n    . . . . .\n    m . . r .\n  }\n}\n";

    #[test]
    fn undo_and_restart_walk_the_history() {
        let mut s = Session::new(&level(SRC));
        assert_eq!(s.apply(Action::Input(Input::Right)), Outcome::Accepted);
        assert_eq!(s.apply(Action::Input(Input::Right)), Outcome::Accepted);
        assert_eq!(s.route(), "RR");
        assert_eq!(s.apply(Action::Undo), Outcome::Undone);
        assert_eq!(s.route(), "R");
        assert_eq!(s.apply(Action::Restart), Outcome::Restarted);
        assert_eq!(s.turns(), 0);
        assert_eq!(s.apply(Action::Undo), Outcome::NothingToUndo);
    }

    #[test]
    fn a_last_only_play_keeps_two_snapshots_whatever_the_route() {
        let mut full = Session::new(&level(SRC));
        let mut last = Session::last_only(&level(SRC));
        let route = "RWWWWWWWWWWWWWWWWWWW";
        assert_eq!(full.play_route(route), last.play_route(route));
        assert_eq!(last.history().len(), 2);
        assert_eq!(last.turns(), full.turns());
        assert_eq!(last.current().state, full.current().state);
        assert_eq!(last.current().events, full.current().events);
        assert_eq!(last.apply(Action::Undo), Outcome::NothingToUndo);
        assert_eq!(last.apply(Action::Restart), Outcome::Restarted);
        assert_eq!(last.turns(), 0);
    }

    #[test]
    fn actors_turn_toward_their_moves_only() {
        let mut s = Session::new(&level(SRC));
        let g = s.game();
        let m = g
            .live(&s.current().state)
            .into_iter()
            .find(|&e| {
                !g.ents[usize::from(e)].word && g.noun(&s.current().state, e) == g.tok("MIAU")
            })
            .map(usize::from)
            .expect("the level has a MIAU");
        s.apply(Action::Input(Input::Right));
        assert!(!s.current().facing_left[m]);
        assert_eq!(s.apply(Action::Input(Input::Left)), Outcome::Accepted);
        assert!(s.current().facing_left[m]);
        s.apply(Action::Input(Input::Up));
        assert!(
            s.current().facing_left[m],
            "a vertical move keeps the facing"
        );
        s.apply(Action::Input(Input::Right));
        assert!(!s.current().facing_left[m]);
    }

    #[test]
    fn refused_input_says_why_and_changes_nothing() {
        let mut s = Session::new(&level(SRC));
        let out = s.apply(Action::Input(Input::Down));
        assert_eq!(
            out,
            Outcome::Rejected("MIAU at column 0, row 2 was blocked by the edge".to_string())
        );
        assert_eq!(s.turns(), 0);
    }
}
