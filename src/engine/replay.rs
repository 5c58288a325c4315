//! The replay core behind `miauc replay` (no I/O).

use super::events::{self, Event, EventKind};
use super::game::Game;
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

/// Whether `--explain` tells an event: what changes the board's meaning or
/// ends the play, not the blocks, the automata's steps or the goal counts.
fn explains(e: &Event) -> bool {
    !matches!(
        e.kind,
        EventKind::Blocked | EventKind::Moved | EventKind::Goals
    )
}

/// How a walk along the inputs ended: the line naming the input that
/// stopped it, if one did, and the result.
struct WalkEnd {
    stop_line: Option<String>,
    result: ReplayResult,
}

/// Plays `moves` from reset, calling `visit` with each point's heading,
/// board and events (reset first, then every accepted turn), and keeps
/// nothing: memory stays one board whatever the route's length, so the
/// replay walks twice (widths, then text) instead of storing every board.
fn walk(game: &Game, moves: &str, visit: &mut dyn FnMut(&str, &State, &[Event])) -> WalkEnd {
    let (mut state, reset_report) = game.reset();
    let mut reset_events = events::rule_lines(game, &game.rules(&state))
        .into_iter()
        .map(|(t, _)| Event {
            kind: EventKind::RuleFormed,
            text: format!("+ {t}"),
        })
        .collect::<Vec<_>>();
    reset_events.extend(events::reset_events(game, &state, &reset_report));
    visit("reset", &state, &reset_events);
    let mut scratch = super::scratch::Scratch::default();
    let mut turn = 0;
    for (pos, ch) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let Some(input) = Input::from_char(ch) else {
            return WalkEnd {
                stop_line: Some(format!("input {} '{ch}' is not one of U D L R W", pos + 1)),
                result: ReplayResult::NotWon {
                    turns: turn,
                    stopped: Some((pos + 1, ch, None)),
                },
            };
        };
        match game.step_with(&state, input, &mut scratch, true) {
            TurnResult::Rejected { reason, blocked } => {
                return WalkEnd {
                    stop_line: Some(format!(
                        "input {} {} rejected ({}): {}",
                        pos + 1,
                        input.letter(),
                        reason.as_str(),
                        events::rejection(game, &state, reason, &blocked)
                    )),
                    result: ReplayResult::NotWon {
                        turns: turn,
                        stopped: Some((pos + 1, input.letter(), Some(reason))),
                    },
                };
            }
            TurnResult::Accepted {
                state: next,
                report,
            } => {
                turn += 1;
                let turn_events = events::turn_events(game, &state, &next, &report);
                visit(
                    &format!("turn {turn} {}", input.letter()),
                    &next,
                    &turn_events,
                );
                state = next;
                let end = if report.won {
                    Some(ReplayResult::Won { turns: turn })
                } else if report.lost_control {
                    Some(ReplayResult::LostControl { turns: turn })
                } else {
                    None
                };
                if let Some(result) = end {
                    return WalkEnd {
                        stop_line: None,
                        result,
                    };
                }
            }
        }
    }
    WalkEnd {
        stop_line: None,
        result: ReplayResult::NotWon {
            turns: turn,
            stopped: None,
        },
    }
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
    let mut text = String::new();
    let result = replay_to(level, moves, explain, key_of, &mut text);
    ReplayOutput { text, result }
}

/// [`replay`] written into `text` as it goes (the command line streams it to
/// standard output, so a long replay never holds its whole text), returning
/// how it ended. Writing stops at the first error `text` returns.
pub fn replay_to(
    level: &model::Level,
    moves: &str,
    explain: bool,
    key_of: KeyOf<'_>,
    text: &mut dyn Write,
) -> ReplayResult {
    let game = Game::new(level);
    let _ = writeln!(text, "coordinates: {}", events::COORDINATES);
    let end = if explain {
        let mut first = true;
        walk(&game, moves, &mut |heading, _, evs| {
            let told: Vec<&Event> = evs.iter().filter(|e| explains(e)).collect();
            if std::mem::take(&mut first) || !told.is_empty() {
                let _ = writeln!(text, "{heading}");
            }
            for e in told {
                let _ = writeln!(text, "  {}", e.text);
            }
        })
    } else {
        // First the widest each column gets along the replay, then the text.
        let mut widths: Vec<usize> = (0..usize::from(game.width).max(1))
            .map(|x| x.to_string().len())
            .collect();
        walk(&game, moves, &mut |_, state, _| {
            let cells = game.cell_texts(state, key_of);
            for (w, c) in widths.iter_mut().zip(game.column_widths(&cells)) {
                *w = (*w).max(c);
            }
        });
        walk(&game, moves, &mut |heading, state, evs| {
            let _ = writeln!(text, "{heading}");
            ruled_board(text, &game, &game.cell_texts(state, key_of), &widths);
            for e in evs {
                let _ = writeln!(text, "  {}", e.text);
            }
        })
    };
    if let Some(line) = end.stop_line {
        let _ = writeln!(text, "{line}");
    }
    let result = end.result;
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
    result
}

/// A board under a row of column numbers, each row after its number.
fn ruled_board(out: &mut dyn Write, game: &Game, cells: &[String], widths: &[usize]) {
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
