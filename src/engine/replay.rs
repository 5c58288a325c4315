//! The replay core behind `miauc replay` (no I/O).

use super::events::{self, Event, EventKind};
use super::game::Game;
use super::play::Play;
use super::render::{KeyOf, layout_row};
use super::report::{Input, Rejection, TurnResult};
use super::state::State;
use crate::model;
use std::fmt::Write;

/// How a replay ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayResult {
    /// Won on turn `turns`.
    Won {
        /// Accepted turns, the winning one included.
        turns: usize,
    },
    /// The last YOU was lost on turn `turns`.
    LostControl {
        /// Accepted turns.
        turns: usize,
    },
    /// The inputs ran out, or one was rejected or unreadable, without a win.
    NotWon {
        /// Accepted turns.
        turns: usize,
        /// The input that stopped the replay: its 1-based position, letter and
        /// rejection (`None` for a character that is not an input).
        stopped: Option<(usize, char, Option<Rejection>)>,
    },
}

/// What `miauc replay` prints, and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayOutput {
    /// The printed text, ending with the `result:` line and a newline.
    pub text: String,
    /// The outcome.
    pub result: ReplayResult,
}

/// One point of the replay: its heading, its board and what led to it.
struct Frame {
    heading: String,
    state: State,
    events: Vec<Event>,
}

/// Whether `--explain` tells an event: what changes the board's meaning or
/// ends the play, not the blocks, the automata's steps or the goal counts.
fn explains(e: &Event) -> bool {
    !matches!(
        e.kind,
        EventKind::Blocked | EventKind::Moved | EventKind::Goals
    )
}

/// Replays `moves` (letters `U D L R W`, either case; whitespace ignored)
/// from reset.
///
/// The first line says how cells are counted ([`events::COORDINATES`]).
/// Without `explain` it prints the reset board, its rules (`+ RULE`) and
/// what reset did, then for every turn its input, the board, and the turn's
/// events ([`events::turn_events`]: blocks, destructions, gates, rules
/// formed `+` and broken `-`, …). Every board has a ruler (column numbers
/// above, row numbers at the left) and the same column widths, the widest
/// each column gets along the whole replay, so nothing shifts from turn to
/// turn. With `explain` it prints no boards and only the turns whose rules,
/// things or gates changed, with those events. A rejected or unreadable
/// input is reported and ends the replay. The last line is exactly
/// `result: won in N turns`, `result: lost control after N turns` or
/// `result: not won after N turns`.
pub fn replay(level: &model::Level, moves: &str, explain: bool, key_of: KeyOf<'_>) -> ReplayOutput {
    let game = Game::new(level);
    let mut play = Play::new(&game);
    let mut reset_events = events::rule_lines(&game, &game.rules(play.state()))
        .into_iter()
        .map(|(t, _)| Event {
            kind: EventKind::RuleFormed,
            text: format!("+ {t}"),
        })
        .collect::<Vec<_>>();
    reset_events.extend(events::reset_events(
        &game,
        play.state(),
        play.reset_report(),
    ));
    let mut frames = vec![Frame {
        heading: "reset".to_string(),
        state: play.state().clone(),
        events: reset_events,
    }];
    let mut stop_line = None;
    let mut result = None;
    let mut turn = 0;
    for (pos, ch) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let Some(input) = Input::from_char(ch) else {
            stop_line = Some(format!("input {} '{ch}' is not one of U D L R W", pos + 1));
            result = Some(ReplayResult::NotWon {
                turns: turn,
                stopped: Some((pos + 1, ch, None)),
            });
            break;
        };
        let before = play.state().clone();
        match play.input(input) {
            TurnResult::Rejected { reason, blocked } => {
                stop_line = Some(format!(
                    "input {} {} rejected ({}): {}",
                    pos + 1,
                    input.letter(),
                    reason.as_str(),
                    events::rejection(&game, &before, reason, &blocked)
                ));
                result = Some(ReplayResult::NotWon {
                    turns: turn,
                    stopped: Some((pos + 1, input.letter(), Some(reason))),
                });
                break;
            }
            TurnResult::Accepted { state, report } => {
                turn += 1;
                frames.push(Frame {
                    heading: format!("turn {turn} {}", input.letter()),
                    events: events::turn_events(&game, &before, &state, &report),
                    state,
                });
                if report.won {
                    result = Some(ReplayResult::Won { turns: turn });
                    break;
                }
                if report.lost_control {
                    result = Some(ReplayResult::LostControl { turns: turn });
                    break;
                }
            }
        }
    }
    let mut text = String::new();
    let _ = writeln!(text, "coordinates: {}", events::COORDINATES);
    if explain {
        for (i, f) in frames.iter().enumerate() {
            let told: Vec<&Event> = f.events.iter().filter(|e| explains(e)).collect();
            if i == 0 || !told.is_empty() {
                let _ = writeln!(text, "{}", f.heading);
            }
            for e in told {
                let _ = writeln!(text, "  {}", e.text);
            }
        }
    } else {
        let boards: Vec<Vec<String>> = frames
            .iter()
            .map(|f| game.cell_texts(&f.state, key_of))
            .collect();
        let widths = ruled_widths(&game, &boards);
        for (f, cells) in frames.iter().zip(&boards) {
            let _ = writeln!(text, "{}", f.heading);
            ruled_board(&mut text, &game, cells, &widths);
            for e in &f.events {
                let _ = writeln!(text, "  {}", e.text);
            }
        }
    }
    if let Some(line) = stop_line {
        let _ = writeln!(text, "{line}");
    }
    let result = result.unwrap_or(ReplayResult::NotWon {
        turns: turn,
        stopped: None,
    });
    let turns_word = |n: usize| crate::diag::wording::count(n, "turn");
    let _ = match &result {
        ReplayResult::Won { turns } => writeln!(text, "result: won in {}", turns_word(*turns)),
        ReplayResult::LostControl { turns } => {
            writeln!(text, "result: lost control after {}", turns_word(*turns))
        }
        ReplayResult::NotWon { turns, .. } => {
            writeln!(text, "result: not won after {}", turns_word(*turns))
        }
    };
    ReplayOutput { text, result }
}

/// Each column's width over every board of the replay, and at least its
/// number's, so the ruler fits and no column moves from turn to turn.
fn ruled_widths(game: &Game, boards: &[Vec<String>]) -> Vec<usize> {
    let mut widths: Vec<usize> = (0..usize::from(game.width).max(1))
        .map(|x| x.to_string().len())
        .collect();
    for b in boards {
        for (w, c) in widths.iter_mut().zip(game.column_widths(b)) {
            *w = (*w).max(c);
        }
    }
    widths
}

/// A board under a row of column numbers, each row after its number.
fn ruled_board(out: &mut String, game: &Game, cells: &[String], widths: &[usize]) {
    let w = usize::from(game.width).max(1);
    let gutter = usize::from(game.height).saturating_sub(1).to_string().len();
    let numbers: Vec<String> = (0..w).map(|x| x.to_string()).collect();
    let _ = writeln!(
        out,
        "{:gutter$}  {}",
        "",
        layout_row(&numbers, widths),
        gutter = gutter
    );
    for (y, row) in cells.chunks(w).enumerate() {
        let _ = writeln!(out, "{y:>gutter$}  {}", layout_row(row, widths));
    }
}
