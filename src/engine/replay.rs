//! The replay core behind `miauc replay` (no I/O).

use super::game::Game;
use super::parse::Rules;
use super::play::Play;
use super::render::KeyOf;
use super::report::{Input, Rejection, TurnResult};
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

/// The effective rules as `SUBJECT IS PREDICATE`, each once, in reading order.
fn rule_texts(game: &Game, rules: &Rules) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in &rules.records {
        let t = format!("{} IS {}", game.name(r.subject), game.name(r.predicate));
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

fn diff(out: &mut String, old: &[String], new: &[String]) -> bool {
    let mut any = false;
    for r in new.iter().filter(|r| !old.contains(r)) {
        let _ = writeln!(out, "  + {r}");
        any = true;
    }
    for r in old.iter().filter(|r| !new.contains(r)) {
        let _ = writeln!(out, "  - {r}");
        any = true;
    }
    any
}

/// Replays `moves` (letters `U D L R W`; whitespace ignored) from reset.
///
/// Without `explain` it prints the reset board and rules, then for every turn
/// its input, the board and the rules added (`+`) and removed (`-`). With
/// `explain` it prints only the rule changes along the route. A rejected or
/// unreadable input is reported and ends the replay. The last line is exactly
/// `result: won in N turns`, `result: lost control after N turns` or
/// `result: not won after N turns`.
pub fn replay(level: &model::Level, moves: &str, explain: bool, key_of: KeyOf<'_>) -> ReplayOutput {
    let game = Game::new(level);
    let mut play = Play::new(&game);
    let mut text = String::new();
    let mut rules = rule_texts(&game, &game.rules(play.state()));
    let _ = writeln!(text, "reset");
    if !explain {
        text.push_str(&game.render_board(play.state(), key_of));
    }
    diff(&mut text, &[], &rules);
    let mut result = None;
    let mut turn = 0;
    for (pos, ch) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let Some(input) = Input::from_char(ch) else {
            let _ = writeln!(text, "input {} '{ch}' is not one of U D L R W", pos + 1);
            result = Some(ReplayResult::NotWon {
                turns: turn,
                stopped: Some((pos + 1, ch, None)),
            });
            break;
        };
        match play.input(input) {
            TurnResult::Rejected { reason, blocked } => {
                let _ = write!(
                    text,
                    "input {} {} rejected: {}",
                    pos + 1,
                    input.letter(),
                    reason.as_str()
                );
                for b in &blocked {
                    let _ = write!(text, "; {} {}", game.id(b.id), b.reason.as_str());
                    if let Some(k) = b.blocker {
                        let _ = write!(text, " by {}", game.id(k));
                    }
                }
                text.push('\n');
                result = Some(ReplayResult::NotWon {
                    turns: turn,
                    stopped: Some((pos + 1, input.letter(), Some(reason))),
                });
                break;
            }
            TurnResult::Accepted { state, report } => {
                turn += 1;
                let new = rule_texts(&game, &game.rules(&state));
                if explain {
                    let mut d = String::new();
                    if diff(&mut d, &rules, &new) {
                        let _ = writeln!(text, "turn {turn} {}", input.letter());
                        text.push_str(&d);
                    }
                } else {
                    let _ = writeln!(text, "turn {turn} {}", input.letter());
                    text.push_str(&game.render_board(&state, key_of));
                    diff(&mut text, &rules, &new);
                }
                rules = new;
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
    let result = result.unwrap_or(ReplayResult::NotWon {
        turns: turn,
        stopped: None,
    });
    let turns_word = |n: usize| {
        if n == 1 {
            "1 turn".to_string()
        } else {
            format!("{n} turns")
        }
    };
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
