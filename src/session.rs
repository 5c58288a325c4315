//! A play of one level for people (no I/O): the engine's turns with undo and
//! restart, the route played so far, which way each actor faces, and what
//! each turn did in words.
//!
//! The terminal player (`miauc play`), the editor's preview (`miau/step`) and
//! the animated export (`miauc render -o route.gif`) all drive a [`Session`],
//! so they agree on every board, event line and facing.

use crate::engine::{
    BlockReason, Blocked, By, Cause, Class, Game, GateCause, Input, Rejection, ResetReport, Rules,
    Scratch, State, TurnReport, TurnResult,
};
use crate::model::{self, Level};

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

/// A play of one level with its full history.
#[derive(Debug, Clone)]
pub struct Session {
    game: Game,
    history: Vec<Snapshot>,
    scratch: Scratch,
}

impl Session {
    /// A play of `level` from its reset state.
    pub fn new(level: &Level) -> Session {
        let game = Game::new(level);
        let (state, report) = game.reset();
        let events = reset_events(&game, &report);
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
        self.history.len() - 1
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
                if self.history.len() > 1 {
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
                Outcome::Rejected(rejection(&self.game, &before.state, reason, &blocked))
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
                let events = turn_events(&self.game, &before.state, &state, &report);
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

/// The effective rules of a parse, each once, in reading order, with whether
/// it is a terrain's implicit rule (no words on the board).
pub fn rule_lines(game: &Game, rules: &Rules) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    for r in &rules.records {
        let t = game.rule_text((r.subject, r.predicate));
        let terrain = rules.words(r).is_empty();
        if !out.iter().any(|(x, _)| *x == t) {
            out.push((t, terrain));
        }
    }
    out
}

/// The name of what entity `id` is in `s` (its noun, or its word's text).
fn what(game: &Game, s: &State, id: u16) -> String {
    let noun = game
        .noun(s, id)
        .map(|t| game.name(t).to_string())
        .unwrap_or_else(|| game.id(id).to_string());
    if game.ents[usize::from(id)].word {
        format!("the word {noun}")
    } else {
        noun
    }
}

fn blocked_line(game: &Game, s: &State, b: &Blocked) -> String {
    let who = what(game, s, b.id);
    let by = match (b.reason, b.blocker) {
        (BlockReason::Edge, _) => "the edge".to_string(),
        (BlockReason::Gate, Some(k)) => format!("a closed {}", what(game, s, k)),
        (BlockReason::Fixed, Some(k)) => format!("the fixed {}", what(game, s, k)),
        (_, Some(k)) => what(game, s, k),
        (_, None) => b.reason.as_str().to_string(),
    };
    format!("{who} was blocked by {by}")
}

fn rejection(game: &Game, s: &State, reason: Rejection, blocked: &[Blocked]) -> String {
    match reason {
        Rejection::Won => "the level is already won: undo or restart".to_string(),
        Rejection::NoYou => "nothing is YOU: undo or restart".to_string(),
        Rejection::Blocked => {
            let lines: Vec<String> = blocked.iter().map(|b| blocked_line(game, s, b)).collect();
            if lines.is_empty() {
                "nothing moved".to_string()
            } else {
                lines.join("; ")
            }
        }
    }
}

fn cause_verb(game: &Game, cause: Cause) -> String {
    match cause {
        Cause::Sink => "sank".to_string(),
        Cause::Defeat => "was defeated".to_string(),
        Cause::Pair(i) => match game.pairs.get(usize::from(i)) {
            Some(p) => format!("was destroyed by {} and {}", game.name(p.a), game.name(p.b)),
            None => "was destroyed".to_string(),
        },
    }
}

fn channel_name(game: &Game, id: u16) -> &str {
    game.ents[usize::from(id)]
        .channel
        .and_then(|c| model::CHANNELS.get(usize::from(c)).copied())
        .unwrap_or("unnamed")
}

fn reset_events(game: &Game, r: &ResetReport) -> Vec<String> {
    let mut out = Vec::new();
    for t in &r.transformed {
        out.push(format!(
            "{} became {} at reset",
            game.name(t.from),
            game.name(t.to)
        ));
    }
    for d in &r.destroyed {
        out.push(format!(
            "{} {} at reset",
            game.name(d.what),
            cause_verb(game, d.cause)
        ));
    }
    out
}

fn turn_events(game: &Game, before: &State, after: &State, r: &TurnReport) -> Vec<String> {
    let mut out = Vec::new();
    for b in &r.blocked {
        out.push(blocked_line(game, before, b));
    }
    for m in &r.moved {
        if let By::Automaton(i) = m.by
            && !m.pushed
        {
            let name = game
                .automata
                .get(usize::from(i))
                .map_or("an automaton", |a| a.id.as_str());
            out.push(format!("{} moved ({name})", what(game, before, m.id)));
        }
    }
    for t in &r.transformed {
        out.push(format!("{} became {}", game.name(t.from), game.name(t.to)));
    }
    for c in &r.crumbled {
        out.push(match c.to {
            Some(to) => format!("{} crumbled into {}", game.name(c.from), game.name(to)),
            None => format!("{} crumbled away", game.name(c.from)),
        });
    }
    for d in &r.destroyed {
        let name = if game.ents[usize::from(d.id)].word {
            format!("the word {}", game.name(d.what))
        } else {
            game.name(d.what).to_string()
        };
        out.push(format!("{name} {}", cause_verb(game, d.cause)));
    }
    for g in &r.gates {
        let ch = channel_name(game, g.id);
        out.push(match g.cause {
            GateCause::Pressed => format!("the {ch} gate opened"),
            GateCause::Released => format!("the {ch} gate closed"),
            GateCause::Jammed => format!("the {ch} gate is held open by what stands in it"),
        });
    }
    let old = rule_lines(game, &game.rules(before));
    let new = rule_lines(game, &game.rules(after));
    for (t, _) in new.iter().filter(|n| !old.iter().any(|o| o.0 == n.0)) {
        out.push(format!("+ {t}"));
    }
    for (t, _) in old.iter().filter(|o| !new.iter().any(|n| n.0 == o.0)) {
        out.push(format!("- {t}"));
    }
    if r.goals.1 > 0 {
        out.push(format!("goals {} of {}", r.goals.0, r.goals.1));
    }
    if r.won {
        out.push("won!".to_string());
    } else if r.lost_control {
        out.push("nothing is YOU any more".to_string());
    }
    out
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
            Outcome::Rejected("MIAU was blocked by the edge".to_string())
        );
        assert_eq!(s.turns(), 0);
    }
}
