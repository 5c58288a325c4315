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
    let props = game.props(s);
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
