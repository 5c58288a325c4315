//! Why a level can't be won (M401's second sentence): facts that hold in
//! every state a walk of the whole reachable space sees, so each is a
//! proof, not a guess. Only small spaces are walked again.

use crate::engine::{EntId, Game, Input, State, Tok, TurnResult};
use std::collections::{BTreeSet, HashSet, VecDeque};

/// Spaces of more states than this get no cause: the walk below keeps
/// whole states, and a large space's reason is rarely one fact anyway.
pub const CAUSE_STATES: usize = 20_000;

/// What holds over every state the walk saw.
#[derive(Default)]
struct Seen {
    /// Cells some YOU thing stood on.
    you_cells: BTreeSet<(u8, u8)>,
    /// Cells some WIN thing stood on, and the nouns of the WIN things.
    win_cells: BTreeSet<(u8, u8)>,
    win_nouns: BTreeSet<Tok>,
    /// Some thing was GOAL: the level may be won by covering goals.
    goal: bool,
    /// The rules `X IS WIN` that were in force in some state.
    win_rules: BTreeSet<(Tok, Tok)>,
    /// Per entity: a word that left its reset cell (or was destroyed).
    moved: Vec<bool>,
}

/// The cause an author needs when the level `game` can't be won, found by
/// walking every state reachable from reset (each accepted turn, whatever
/// it does to control; a superset of what the solve search keeps, so what
/// never happens here never happens there). `None` when the space is over
/// [`CAUSE_STATES`] states or no single fact explains it.
pub fn why_unwinnable(game: &Game) -> Option<String> {
    let (start, _) = game.reset();
    let bit = |word: &str| game.tok(word).map_or(0, |t| game.vocab.prop_bit(t));
    let (you, win, goal) = (bit("YOU"), bit("WIN"), bit("GOAL"));
    let at_reset = game.props(&start);
    if at_reset.iter().all(|p| p & you == 0) {
        return Some(
            "No thing is YOU at reset, so no move can be made: form a rule like `MIAU IS YOU` on the board."
                .into(),
        );
    }
    let mut inputs = Input::MOVES.to_vec();
    if !game.automata.is_empty() {
        inputs.push(Input::Wait);
    }
    let mut seen = Seen {
        moved: vec![false; game.len()],
        ..Seen::default()
    };
    let mut visited: HashSet<State> = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start.clone()]);
    while let Some(s) = queue.pop_front() {
        note(game, &start, &s, (you, win, goal), &mut seen);
        for &input in &inputs {
            let TurnResult::Accepted { state, report } = game.step(&s, input) else {
                continue;
            };
            if report.won {
                return None;
            }
            if visited.insert(state.clone()) {
                if visited.len() > CAUSE_STATES {
                    return None;
                }
                queue.push_back(state);
            }
        }
    }
    if seen.goal {
        return None;
    }
    if seen.win_cells.is_empty() {
        return Some(no_win_thing(game, &start, &seen));
    }
    if seen.you_cells.is_disjoint(&seen.win_cells) {
        let nouns: Vec<String> = seen
            .win_nouns
            .iter()
            .map(|&n| game.name(n).to_string())
            .collect();
        let cells = seen.you_cells.len();
        return Some(format!(
            "No YOU thing ever reaches a WIN thing ({}): the YOU things reach {cells} cell{}, and none of them ever holds one.",
            nouns.join(", "),
            if cells == 1 { "" } else { "s" }
        ));
    }
    None
}

/// Adds what state `s` shows to `seen`.
fn note(game: &Game, start: &State, s: &State, (you, win, goal): (u64, u64, u64), seen: &mut Seen) {
    let rules = game.rules(s);
    let win_tok = game.tok("WIN");
    seen.win_rules
        .extend(rules.pairs.iter().filter(|r| Some(r.1) == win_tok).copied());
    let props = game.props_under(&rules, s);
    for (i, &p) in props.iter().enumerate() {
        let id = i as EntId;
        let Some(cell) = game.pos(s, id) else {
            seen.moved[i] |= game.ents[i].word && game.pos(start, id).is_some();
            continue;
        };
        if p & you != 0 {
            seen.you_cells.insert(cell);
        }
        if p & win != 0 {
            seen.win_cells.insert(cell);
            if let Some(n) = game.noun(s, id) {
                seen.win_nouns.insert(n);
            }
        }
        seen.goal |= p & goal != 0;
        if game.ents[i].word && game.pos(start, id) != Some(cell) {
            seen.moved[i] = true;
        }
    }
}

/// No thing is ever WIN: say whether the level has a WIN word at all and
/// whether it ever moves.
fn no_win_thing(game: &Game, start: &State, seen: &Seen) -> String {
    if !seen.win_rules.is_empty() {
        let rules: Vec<String> = seen.win_rules.iter().map(|&r| game.rule_text(r)).collect();
        let (verb, them) = if rules.len() == 1 {
            ("forms", "it names")
        } else {
            ("form", "they name")
        };
        return format!(
            "{} {verb}, but no thing {them} is on the board in any reachable state, so nothing is ever WIN.",
            rules.join(", ")
        );
    }
    let win = game.tok("WIN");
    let words: Vec<usize> = (0..game.len())
        .filter(|&i| game.ents[i].word && win.is_some() && game.noun(start, i as EntId) == win)
        .collect();
    if words.is_empty() {
        return "No thing is ever WIN: the level has no WIN word to form a rule with.".into();
    }
    let fixed: Vec<String> = words
        .iter()
        .filter(|&&i| !seen.moved[i])
        .filter_map(|&i| game.pos(start, i as EntId))
        .map(|(x, y)| format!("column {x}, row {y}"))
        .collect();
    if fixed.len() == words.len() {
        let (one, these) = if fixed.len() == 1 {
            ("the WIN word at", "never moves")
        } else {
            ("the WIN words at", "never move")
        };
        format!(
            "No rule makes a thing WIN in any reachable state, and {one} {} {these}: open a way to push a WIN word into a rule, or to complete the rule beside it.",
            fixed.join("; ")
        )
    } else {
        "No rule makes a thing WIN in any reachable state, though a WIN word moves: no YOU can bring it into a rule that names a thing on the board.".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testkit;

    fn why(board: &str) -> Option<String> {
        why_unwinnable(&Game::new(&testkit::level(board)))
    }

    #[test]
    fn no_you_at_reset_is_the_cause() {
        let w = why("MIAU IS . YOU\nFLAG IS WIN .\nm . . f").expect("a cause");
        assert!(w.starts_with("No thing is YOU at reset"), "{w}");
    }

    #[test]
    fn a_win_word_that_never_moves_is_named_with_its_cell() {
        // WIN in the top left corner: nothing can push it, and no IS can
        // stand before it.
        let w = why("WIN . MIAU IS YOU .\nFLAG IS . . . .\nm . . . f .").expect("a cause");
        assert!(
            w.starts_with("No rule makes a thing WIN in any reachable state")
                && w.contains("the WIN word at column 0, row 0 never moves"),
            "{w}"
        );
    }

    #[test]
    fn a_win_rule_naming_nothing_on_the_board() {
        let w = why("MIAU IS YOU . FLAG IS . . WIN\nm . . . . . . . .").expect("a cause");
        assert!(
            w.starts_with("FLAG IS WIN forms, but no thing it names is on the board"),
            "{w}"
        );
    }

    #[test]
    fn a_win_word_that_moves_without_forming_a_rule() {
        let w = why("MIAU IS YOU . . . .\n. . . . . . .\nm . WIN . . . .").expect("a cause");
        assert!(w.contains("though a WIN word moves"), "{w}");
    }

    #[test]
    fn a_walled_win_thing_is_out_of_every_you_s_reach() {
        let w =
            why("MIAU IS YOU . FLAG IS WIN\nWALL IS STOP . # f #\nm . . . # # #").expect("a cause");
        assert!(
            w.starts_with("No YOU thing ever reaches a WIN thing (FLAG)"),
            "{w}"
        );
    }

    #[test]
    fn a_winnable_level_or_a_large_space_gets_none() {
        assert_eq!(why("MIAU IS YOU . FLAG IS WIN\nm . . . . . f"), None);
        // An open room of rocks and no WIN: far more states than the walk
        // keeps, so no cause, however plain it looks.
        let mut rows = vec!["MIAU IS YOU . ROCK IS PUSH .".to_string()];
        rows.extend((0..3).map(|_| ". . . . . . . .".to_string()));
        rows.push(". r . r . r . .".to_string());
        rows.extend((0..2).map(|_| ". . . . . . . .".to_string()));
        rows.push("m . . . . . . .".to_string());
        assert_eq!(why(&rows.join("\n")), None);
    }
}
