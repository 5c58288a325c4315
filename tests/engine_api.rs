//! The engine's public API as the solver, diagnostics and CLI use it.

use miau::engine::{Game, Input, Play, ReplayResult, Scratch, TurnResult, replay, testkit};

#[test]
fn solver_loop_uses_keys_flags_and_formed_rules() {
    let game = Game::new(&testkit::a1());
    let (start, reset) = game.reset();
    assert!(!reset.won_at_start);
    let bell_is_win = game.parse_rule("BELL IS WIN").expect("known words");
    let mut sc = Scratch::default();
    let mut s = start.clone();
    let mut formed = false;
    for c in "DRRRRRRRRRR".chars() {
        let input = Input::from_char(c).expect("input letter");
        match game.step_with(&s, input, &mut sc, false) {
            TurnResult::Accepted { state, report } => {
                assert!(
                    report.moved.is_empty(),
                    "fast path leaves event lists empty"
                );
                formed |= report.formed.binary_search(&bell_is_win).is_ok();
                assert_ne!(game.key(&state), game.key(&s));
                s = state;
            }
            TurnResult::Rejected { reason, .. } => panic!("rejected: {reason:?}"),
        }
    }
    assert!(formed && s.won());
}

#[test]
fn play_undo_and_replay() {
    let game = Game::new(&testkit::level(testkit::GT3));
    let mut play = Play::new(&game);
    let start = play.state().clone();
    assert!(play.input(Input::Right).accepted());
    assert!(play.undo());
    assert_eq!(play.state(), &start);
    assert!(!play.undo());
    let out = replay(
        &testkit::level(testkit::GT3),
        "RRRRRRR",
        true,
        &testkit::key_of,
    );
    assert_eq!(out.result, ReplayResult::Won { turns: 7 });
    assert!(out.text.ends_with("result: won in 7 turns\n"));
}
