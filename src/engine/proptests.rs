//! Property tests: undo restores states exactly; random levels and inputs never panic.

use super::testkit::{self, automaton, frail, pair, terrain};
use super::*;
use crate::model;
use proptest::prelude::*;

const CELLS: &[&str] = &[
    ".",
    ".",
    ".",
    ".",
    "m",
    "r",
    "f",
    "w",
    "k",
    "=",
    "d",
    "#",
    "$",
    "o",
    "_",
    "|",
    "u",
    "g",
    "MIAU",
    "ROCK",
    "IS",
    "IS",
    "YOU",
    "AND",
    "WIN",
    "PUSH",
    "STOP",
    "SINK",
    "DEFEAT",
    "FLAG",
    "TICK",
    "OPEN",
    "SHUT",
    "FRAIL",
    "FLOAT",
    "GOAL",
    "DOCK",
    "WALL",
    "m+r",
    "WIN!",
    "IS+AND",
    "m",
    "m",
    "w+r",
    "k+=",
    "ROCK+FLAG",
    "a",
    "h",
    "_+$",
    "|+m",
];

/// Boards whose first row starts `MIAU IS YOU`, so most plays have a YOU and
/// the random cells get pushed, parsed, sunk and transformed.
fn board() -> impl Strategy<Value = String> {
    testkit::random_grid(CELLS, 3..8, 2..7).prop_map(|mut rows| {
        rows[0][..3].copy_from_slice(&["MIAU", "IS", "YOU"]);
        rows[1][1] = "m";
        testkit::board_text(&rows)
    })
}

fn level_of(b: &str, mech: u8) -> model::Level {
    let mut l = testkit::level(b);
    if mech & 1 != 0 {
        automaton(&mut l, "tick", "TICK", None, 0, "LRUDW");
    }
    if mech & 2 != 0 {
        pair(&mut l, "OPEN", "SHUT", mech & 4 != 0);
    }
    if mech & 8 != 0 {
        frail(&mut l, &[("ROCK", "FLAG"), ("SAND", "SHOAL")]);
    }
    if mech & 16 != 0 {
        terrain(&mut l, &["WALL"]);
    }
    l
}

fn inputs() -> impl Strategy<Value = Vec<Input>> {
    prop::collection::vec(
        prop::sample::select(vec![
            Input::Up,
            Input::Down,
            Input::Left,
            Input::Right,
            Input::Wait,
        ]),
        0..25,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn undo_restores_the_previous_state(b in board(), mech in 0u8..32, moves in inputs()) {
        let l = level_of(&b, mech);
        let game = Game::new(&l);
        let mut play = Play::new(&game);
        let mut trail = vec![play.state().clone()];
        for m in moves {
            if play.input(m).accepted() {
                trail.push(play.state().clone());
            }
        }
        while play.undo() {
            trail.pop();
            prop_assert_eq!(play.state(), trail.last().unwrap());
        }
        prop_assert_eq!(trail.len(), 1);
    }

    #[test]
    fn random_levels_never_panic(b in board(), mech in 0u8..32, moves in inputs()) {
        let l = level_of(&b, mech);
        let game = Game::new(&l);
        let (mut s, _) = game.reset();
        let _ = game.render_board(&s, &testkit::key_of);
        // One scratch for the whole sequence, so cached parses are exercised.
        let mut sc = Scratch::default();
        let mut reference = Scratch::reference();
        let mut rep = TurnReport::default();
        for m in moves {
            let fast = game.step_into(&s, m, &mut sc, false, &mut rep);
            let slow = game.step_with(&s, m, &mut reference, true);
            let r = game.step(&s, m);
            // The optimised path must agree with the reference mode in full.
            prop_assert_eq!(&r, &slow);
            // The fast path must reach the same state as the detailed one.
            match (&r, &fast) {
                (TurnResult::Accepted { state: a, report: ra }, Ok(b)) => {
                    prop_assert_eq!(a, b);
                    prop_assert_eq!(ra.won, rep.won);
                    prop_assert_eq!(ra.lost_control, rep.lost_control);
                    prop_assert_eq!(ra.goals, rep.goals);
                    prop_assert_eq!(ra.word_moved, rep.word_moved);
                    prop_assert_eq!(ra.word_moved_by_you, rep.word_moved_by_you);
                    prop_assert_eq!(&ra.formed, &rep.formed);
                    prop_assert!(rep.moved.is_empty() && rep.destroyed.is_empty() && rep.transformed.is_empty());
                }
                (TurnResult::Rejected { reason: a, blocked }, Err(b)) => {
                    prop_assert_eq!(a, b);
                    prop_assert_eq!(blocked, &rep.blocked);
                }
                _ => prop_assert!(false, "fast and detailed steps disagree"),
            }
            if let TurnResult::Accepted { state, .. } = r {
                prop_assert_eq!(game.key(&state) == game.key(&s), state == s);
                s = state;
            }
        }
    }
}

/// Along the random walk `moves` from reset: prepares each state and steps
/// every input in a row from it (`step_prepared`, each turn restoring what
/// the previous one changed), with and without detail, and checks each turn
/// against the reference mode: the same successor words, flags, goals,
/// formed rules and refusals, the whole report with detail, and the
/// plain-walk hint a search relies on (only that word and the won flag
/// changed).
fn check_prepared_turns(game: &Game, moves: &[Input]) -> Result<(), TestCaseError> {
    let (mut s, _) = game.reset();
    let mut sc = Scratch::default();
    let mut reference = Scratch::reference();
    let mut rep = TurnReport::default();
    for &m in moves {
        let prepared = game.prepare(s.words(), &mut sc);
        for input in [
            Input::Up,
            Input::Down,
            Input::Left,
            Input::Right,
            Input::Wait,
        ] {
            let mut out = Vec::new();
            let fast = prepared
                .and_then(|()| game.step_prepared(input, &mut sc, false, &mut rep, &mut out));
            let walked = sc.walked();
            let slow = game.step_with(&s, input, &mut reference, true);
            let mut detailed = TurnReport::default();
            let mut out2 = Vec::new();
            let full = prepared
                .and_then(|()| game.step_prepared(input, &mut sc, true, &mut detailed, &mut out2));
            if let (TurnResult::Accepted { report, .. }, Ok(())) = (&slow, &full) {
                prop_assert_eq!(&**report, &detailed);
                prop_assert_eq!(&out, &out2);
            }
            match (&slow, &fast) {
                (TurnResult::Accepted { state, report }, Ok(())) => {
                    prop_assert_eq!(state.words(), &out[..]);
                    if let Some(i) = walked {
                        for (k, (a, b)) in s.words().iter().zip(&out).enumerate() {
                            prop_assert!(a == b || k == i || k + 1 == out.len());
                        }
                    }
                    prop_assert_eq!(report.won, rep.won);
                    prop_assert_eq!(report.lost_control, rep.lost_control);
                    prop_assert_eq!(report.goals, rep.goals);
                    prop_assert_eq!(report.word_moved, rep.word_moved);
                    prop_assert_eq!(report.word_moved_by_you, rep.word_moved_by_you);
                    prop_assert_eq!(&report.formed, &rep.formed);
                }
                (TurnResult::Rejected { reason, blocked }, Err(r)) => {
                    prop_assert_eq!(reason, r);
                    prop_assert_eq!(blocked, &rep.blocked);
                    prop_assert!(out.is_empty());
                }
                _ => prop_assert!(
                    false,
                    "prepared {fast:?} and reference {slow:?} disagree on {input:?}"
                ),
            }
        }
        if let TurnResult::Accepted { state, .. } = game.step(&s, m) {
            s = state;
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The solver's path: step 1 once per state (`prepare`), then every
    /// input in a row from it (`step_prepared`, each turn restoring the
    /// working copy the previous one changed), must give exactly the
    /// reference mode's turns, along a random walk of states.
    #[test]
    fn prepared_turns_match_the_reference(b in board(), mech in 0u8..32, moves in inputs()) {
        check_prepared_turns(&Game::new(&level_of(&b, mech)), &moves)?;
    }
}

/// Cells of Crate Works-like boards: one YOU thing (placed separately),
/// walls, crates, docks, flags, stacks, and loose words.
const WALK_CELLS: &[&str] = &[
    ".", ".", ".", ".", ".", ".", "#", "#", "$", "$", "o", "o", "f", "r", "o+$", "f+o", "WIN",
    "PUSH", "IS", "w", "_", "|", "_+$", "|+r", "a", "h",
];

/// Rule rows for walk-shaped levels: each on its own row, so a YOU thing
/// can push their words apart.
const WALK_RULES: &[&str] = &[
    "MIAU IS YOU",
    "WALL IS STOP",
    "CRATE IS PUSH",
    "DOCK IS GOAL",
    "FLAG IS WIN",
    "MIAU IS PUSH",
    "ROCK IS PUSH",
    "DOCK IS WIN",
    "CRATE IS STOP",
    "WALL IS PUSH",
    "FLAG IS STOP",
    "WATER IS SINK",
    "ROCK IS DEFEAT",
    "CRATE IS SINK",
    "SAND IS FRAIL",
    "SHOAL IS PUSH",
];

fn walk_board() -> impl Strategy<Value = String> {
    (
        3usize..7,
        2usize..6,
        prop::sample::subsequence(WALK_RULES.to_vec(), 2..6),
        any::<prop::sample::Index>(),
        prop::sample::select(vec!["m", "m+o", "m+f", "m+$", "m+r"]),
    )
        .prop_flat_map(|(w, h, rules, at, you)| {
            prop::collection::vec(prop::sample::select(WALK_CELLS), w * h).prop_map(
                move |mut cells| {
                    cells[at.index(w * h)] = you;
                    let mut rows: Vec<String> =
                        vec![format!("MIAU IS YOU{}", " .".repeat(w.max(3) - 3))];
                    for r in &rules {
                        let words: Vec<&str> = r.split(' ').collect();
                        let pad = w.max(3) - words.len();
                        rows.push(format!("{}{}", words.join(" "), " .".repeat(pad)));
                    }
                    let width = w.max(3);
                    for row in cells.chunks(w) {
                        let mut r: Vec<&str> = row.to_vec();
                        r.resize(width, ".");
                        rows.push(r.join(" "));
                    }
                    rows.join("\n")
                },
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The plain-walk shortcut of prepared turns on the levels it is for:
    /// one YOU thing among docks, crates, WIN things, water that sinks,
    /// DEFEAT, FRAIL sand, plates and gates, sometimes sharing their cells;
    /// every input from each state against the reference.
    #[test]
    fn prepared_walks_match_the_reference(
        b in walk_board(),
        mech in prop::sample::select(vec![0u8, 8, 16, 24]),
        moves in inputs(),
    ) {
        // FRAIL leftovers and terrain sometimes; no automata or pairs,
        // which rule plain walks out.
        check_prepared_turns(&Game::new(&level_of(&b, mech)), &moves)?;
    }
}

/// The front end's limits: a 128 × 128 board with 4096 objects, many stacked.
#[test]
fn large_boards_do_not_panic() {
    let pool = [
        "m", "r", "$", "#", "w", "o", "MIAU", "IS", "YOU", "AND", "ROCK", "PUSH", "WIN", "SINK",
    ];
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut cells = vec![Vec::<&str>::new(); 128 * 128];
    for _ in 0..4096 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let c = (rng % 2048) as usize;
        cells[c].push(pool[(rng >> 20) as usize % pool.len()]);
    }
    let board: Vec<String> = cells
        .chunks(128)
        .map(|r| {
            r.iter()
                .map(|c| {
                    if c.is_empty() {
                        ".".to_string()
                    } else {
                        c.join("+")
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let mut l = testkit::level(&board.join("\n"));
    automaton(&mut l, "tick", "TICK", None, 0, "LRUD");
    pair(&mut l, "OPEN", "SHUT", true);
    let game = Game::new(&l);
    assert_eq!(game.len(), 4096);
    let mut play = Play::new(&game);
    for m in [
        Input::Right,
        Input::Down,
        Input::Wait,
        Input::Left,
        Input::Up,
    ] {
        let _ = play.input(m);
    }
}

/// `step_prepared` without a prepared state of its own game rejects every
/// input instead of reading another game's turn start.
#[test]
fn unprepared_turns_are_rejected() {
    let a = Game::new(&testkit::level("MIAU IS YOU\n. m ."));
    let b = Game::new(&testkit::level("MIAU IS YOU . .\n. . m . .\nm . . . ."));
    let mut sc = Scratch::default();
    let mut rep = TurnReport::default();
    let mut out = Vec::new();
    assert_eq!(
        a.step_prepared(Input::Left, &mut sc, false, &mut rep, &mut out),
        Err(Rejection::NoYou)
    );
    let (s, _) = a.reset();
    assert_eq!(a.prepare(s.words(), &mut sc), Ok(()));
    assert_eq!(
        b.step_prepared(Input::Left, &mut sc, false, &mut rep, &mut out),
        Err(Rejection::NoYou)
    );
    assert!(out.is_empty());
    assert_eq!(
        a.step_prepared(Input::Left, &mut sc, false, &mut rep, &mut out),
        Ok(())
    );
}
