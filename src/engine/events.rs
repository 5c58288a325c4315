//! What a reset or a turn did, in words: one line per event of its report.
//!
//! This is the only place that words the engine's reports for people, so
//! `miauc replay`, `miauc play`, the editor's preview and the animated export
//! all say the same thing about the same turn. Cells are named as the
//! diagnostics name them, `column C, row R`, both counted from 0 at the
//! top-left ([`COORDINATES`]).

use super::game::{EntId, Game};
use super::parse::Rules;
use super::report::{
    BlockReason, Blocked, By, Cause, GateCause, Rejection, ResetReport, Transformed, TurnReport,
};
use super::state::State;
use super::vocab::{DEFEAT, Tok};
use crate::model;

/// How the event lines and the replay's ruler count cells, said once at the
/// top of a replay: the same convention as the diagnostics' messages, which
/// differs from the 1-based `file:line:col` of a diagnostic's location.
pub const COORDINATES: &str = "columns and rows count from 0 at the top-left, as in the \
     diagnostics' `column C, row R`; a `file:line:col` location counts from 1";

/// What kind of thing an [`Event`] tells, so a reader can pick the ones it
/// needs (`miauc replay --explain` leaves out blocks, automata's steps and
/// goal counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// A YOU thing couldn't move.
    Blocked,
    /// An automaton moved its thing.
    Moved,
    /// A thing became another noun.
    Transformed,
    /// A FRAIL thing crumbled.
    Crumbled,
    /// Things were destroyed (SINK, DEFEAT, a pair).
    Destroyed,
    /// A gate opened, closed or stayed jammed open.
    Gate,
    /// A rule formed.
    RuleFormed,
    /// A rule broke.
    RuleBroken,
    /// How many GOAL things are covered.
    Goals,
    /// The level is won, or a win holds at reset.
    Won,
    /// No YOU thing is left.
    LostControl,
}

/// One event of a reset or a turn, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// What it tells.
    pub kind: EventKind,
    /// The line.
    pub text: String,
}

impl Event {
    fn new(kind: EventKind, text: String) -> Event {
        Event { kind, text }
    }
}

/// A cell as the diagnostics name it.
pub fn cell(at: (u8, u8)) -> String {
    format!("column {}, row {}", at.0, at.1)
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

/// The name of a noun or word text, `the word X` for a word tile.
fn named(game: &Game, id: EntId, t: Tok) -> String {
    if game.ents[usize::from(id)].word {
        format!("the word {}", game.name(t))
    } else {
        game.name(t).to_string()
    }
}

/// The name of what entity `id` is in `s` (its noun, or its word's text).
fn what(game: &Game, s: &State, id: EntId) -> String {
    match game.noun(s, id) {
        Some(t) => named(game, id, t),
        None => game.id(id).to_string(),
    }
}

/// Where entity `id` stands (or stood, once removed) in `s`.
/// One line per transformation, each at its thing's cell in `s` (the state
/// after it), for resets and turns alike.
fn transformed_lines<'a>(
    game: &'a Game,
    s: &'a State,
    list: &'a [Transformed],
) -> impl Iterator<Item = Event> + 'a {
    list.iter().map(move |t| {
        Event::new(
            EventKind::Transformed,
            format!(
                "{} became {} at {}",
                game.name(t.from),
                game.name(t.to),
                cell(at(s, t.id))
            ),
        )
    })
}

fn at(s: &State, id: EntId) -> (u8, u8) {
    let e = s.ent(usize::from(id));
    (e.x(), e.y())
}

/// `MIAU at column 2, row 1 was blocked by WALL`: the mover's cell before the
/// turn, and what refused it.
fn blocked_line(game: &Game, s: &State, b: &Blocked) -> String {
    let who = what(game, s, b.id);
    let by = match (b.reason, b.blocker) {
        (BlockReason::Edge, _) => "the edge".to_string(),
        (BlockReason::Gate, Some(k)) => format!("a closed {}", what(game, s, k)),
        (BlockReason::Fixed, Some(k)) => format!("the fixed {}", what(game, s, k)),
        (_, Some(k)) => what(game, s, k),
        (_, None) => b.reason.as_str().to_string(),
    };
    format!("{who} at {} was blocked by {by}", cell(at(s, b.id)))
}

/// Why an input was refused, in one line (`s` is the state it was refused
/// in). What to do about it is the caller's: a player can undo, a replay
/// just stops.
pub fn rejection(game: &Game, s: &State, reason: Rejection, blocked: &[Blocked]) -> String {
    match reason {
        Rejection::Won => "the level is already won".to_string(),
        Rejection::NoYou => "nothing is YOU".to_string(),
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

fn channel_name(game: &Game, id: EntId) -> &str {
    game.channel_name(id).unwrap_or("unnamed")
}

/// The destructions of one contact pass, in report order, except that
/// everything one SINK cell took is told on one line, with what it sank with.
/// `after` is the state the pass left (removed entities keep their cell); a
/// DEFEAT line names the DEFEAT things still standing in the cell.
fn destroyed_lines(game: &Game, after: &State, r: &[super::report::Destroyed]) -> Vec<Event> {
    let mut out = Vec::new();
    let mut told = vec![false; r.len()];
    let mut props: Option<Vec<u64>> = None;
    for (i, d) in r.iter().enumerate() {
        if told[i] {
            continue;
        }
        told[i] = true;
        let name = named(game, d.id, d.what);
        let where_ = cell(d.at);
        let text = match d.cause {
            Cause::Sink => {
                let mut with: Vec<String> = Vec::new();
                for (j, e) in r.iter().enumerate().skip(i + 1) {
                    if !told[j] && e.cause == Cause::Sink && e.at == d.at {
                        told[j] = true;
                        with.push(named(game, e.id, e.what));
                    }
                }
                if with.is_empty() {
                    format!("{name} sank at {where_}")
                } else {
                    format!("{name} sank with {} at {where_}", and_list(&with))
                }
            }
            Cause::Defeat => {
                let props = props.get_or_insert_with(|| game.props(after));
                let by: Vec<String> = game
                    .live(after)
                    .into_iter()
                    .filter(|&k| at(after, k) == d.at && props[usize::from(k)] & DEFEAT != 0)
                    .filter_map(|k| game.noun(after, k).map(|t| named(game, k, t)))
                    .fold(Vec::new(), |mut v, n| {
                        if !v.contains(&n) {
                            v.push(n);
                        }
                        v
                    });
                if by.is_empty() {
                    format!("{name} was defeated at {where_}")
                } else {
                    format!("{name} was defeated by {} at {where_}", and_list(&by))
                }
            }
            Cause::Pair(p) => match game.pairs.get(usize::from(p)) {
                Some(p) => format!(
                    "{name} was destroyed by {} and {} at {where_}",
                    game.name(p.a),
                    game.name(p.b)
                ),
                None => format!("{name} was destroyed at {where_}"),
            },
        };
        out.push(Event::new(EventKind::Destroyed, text));
    }
    out
}

/// `an` before a vowel, else `a`.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// `A`, `A and B`, `A, B and C`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What a reset did: transformations, removals, and a win that already holds
/// (`s` is the reset state).
pub fn reset_events(game: &Game, s: &State, r: &ResetReport) -> Vec<Event> {
    let mut out = Vec::new();
    out.extend(transformed_lines(game, s, &r.transformed));
    out.extend(destroyed_lines(game, s, &r.destroyed));
    if r.won_at_start {
        out.push(Event::new(
            EventKind::Won,
            "won at start: a win already holds before the first move (M307)".to_string(),
        ));
    }
    out
}

/// What an accepted turn did from `before` to `after`, in report order:
/// refused YOU things, automata's moves, transformations, crumbles,
/// destructions, gates, rules formed (`+`) and broken (`-`), goals, and the
/// win or the loss of control.
pub fn turn_events(game: &Game, before: &State, after: &State, r: &TurnReport) -> Vec<Event> {
    let mut out = Vec::new();
    for b in &r.blocked {
        out.push(Event::new(
            EventKind::Blocked,
            blocked_line(game, before, b),
        ));
    }
    for m in &r.moved {
        if let By::Automaton(i) = m.by
            && !m.pushed
        {
            let name = game
                .automata
                .get(usize::from(i))
                .map_or("an automaton", |a| a.id.as_str());
            out.push(Event::new(
                EventKind::Moved,
                format!(
                    "{} moved to {} ({name})",
                    what(game, before, m.id),
                    cell(m.to)
                ),
            ));
        }
    }
    out.extend(transformed_lines(game, after, &r.transformed));
    for c in &r.crumbled {
        let where_ = cell(at(after, c.id));
        let text = match c.to {
            Some(to) => format!(
                "{} crumbled into {} at {where_}",
                game.name(c.from),
                game.name(to)
            ),
            None => format!("{} crumbled away at {where_}", game.name(c.from)),
        };
        out.push(Event::new(EventKind::Crumbled, text));
    }
    out.extend(destroyed_lines(game, after, &r.destroyed));
    for g in &r.gates {
        let ch = channel_name(game, g.id);
        let where_ = cell(at(after, g.id));
        let text = match g.cause {
            GateCause::Pressed => format!(
                "the {ch} gate at {where_} opened: {} {ch} plate is pressed",
                article(ch)
            ),
            GateCause::Released => {
                format!("the {ch} gate at {where_} closed: no {ch} plate is pressed")
            }
            GateCause::Jammed => format!(
                "the {ch} gate at {where_} is jammed open: no {ch} plate is pressed, but something stands in it"
            ),
        };
        out.push(Event::new(EventKind::Gate, text));
    }
    let old = rule_lines(game, &game.rules(before));
    let new = rule_lines(game, &game.rules(after));
    for (t, _) in new.iter().filter(|n| !old.iter().any(|o| o.0 == n.0)) {
        out.push(Event::new(EventKind::RuleFormed, format!("+ {t}")));
    }
    for (t, _) in old.iter().filter(|o| !new.iter().any(|n| n.0 == o.0)) {
        out.push(Event::new(EventKind::RuleBroken, format!("- {t}")));
    }
    if r.goals.1 > 0 {
        out.push(Event::new(
            EventKind::Goals,
            format!("goals {} of {}", r.goals.0, r.goals.1),
        ));
    }
    if r.won {
        out.push(Event::new(EventKind::Won, "won!".to_string()));
    } else if r.lost_control {
        out.push(Event::new(
            EventKind::LostControl,
            "nothing is YOU any more".to_string(),
        ));
    }
    out
}

impl Game {
    /// The channel name of a plate or gate, when it is one of the palette's
    /// ([`model::CHANNELS`]).
    pub fn channel_name(&self, id: EntId) -> Option<&'static str> {
        self.ents
            .get(usize::from(id))
            .and_then(|e| e.channel)
            .and_then(|c| model::CHANNELS.get(usize::from(c)).copied())
    }
}
