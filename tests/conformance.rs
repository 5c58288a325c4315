//! The conformance catalogue of `rules.md` §13, one test per case, on `.miau`
//! fixtures (`tests/conformance/`) compiled by the real front end and played
//! on the rules engine. Ids are the front end's: things `<noun>-<n>`, words
//! `<text>.<n>`, numbered in reading order (row, column, stack order).

mod common;

use common::{Case, level_diagnostics, strs};
use miau::engine::{BlockReason, Rejection, TurnReport};

const PARSING: &str = include_str!("conformance/parsing.miau");
const TRANSFORM: &str = include_str!("conformance/transform.miau");
const MOVEMENT: &str = include_str!("conformance/movement.miau");
const CONTACTS: &str = include_str!("conformance/contacts.miau");
const AUTOMATA: &str = include_str!("conformance/automata.miau");
const PAIRS: &str = include_str!("conformance/pairs.miau");
const GOAL: &str = include_str!("conformance/goal.miau");
const GATES: &str = include_str!("conformance/gates.miau");
const FRAIL: &str = include_str!("conformance/frail.miau");
const FLOAT_FIXED_TERRAIN: &str = include_str!("conformance/float-fixed-terrain.miau");

/// (id, cause, cell) triples for `destroyed` comparisons.
fn d(id: &str, cause: &str, at: (u8, u8)) -> (String, String, (u8, u8)) {
    (id.to_string(), cause.to_string(), at)
}

/// Plays a route whose every input must be accepted, returning the reports.
fn play(c: &mut Case, route: &str) -> Vec<TurnReport> {
    route.chars().map(|ch| c.ok(ch)).collect()
}

/// Whether the stage-3 diagnostics of a level include `code`.
fn has_code(source: &str, level: &str, code: &str) -> Option<String> {
    level_diagnostics(source, level)
        .into_iter()
        .find(|(c, _)| c == code)
        .map(|(_, m)| m)
}

// ---------------------------------------------------------------- 13.1 Parsing

#[test]
fn p1_crossing() {
    let c = Case::new(PARSING, "p1-crossing");
    assert_eq!(c.rules(), strs(&["FLAG IS WIN (v)", "MIAU IS YOU (h)"]));
    let spans = c.spans();
    assert_eq!(spans.len(), 2);
    assert!(spans.iter().all(|s| s.2.contains(&"is.1".to_string())));
}

#[test]
fn p2_one_noun_two_sentences() {
    let c = Case::new(PARSING, "p2-one-noun-two-sentences");
    assert_eq!(c.rule_texts(), strs(&["MIAU IS ROCK", "ROCK IS WIN"]));
    let mut spans: Vec<_> = c.spans().iter().map(|s| (s.1.0, s.2.len())).collect();
    spans.sort();
    assert_eq!(spans, vec![(0, 3), (2, 3)]);
}

#[test]
fn p3_stacked_connectives() {
    let c = Case::new(PARSING, "p3-and-is-flag");
    assert_eq!(c.rule_texts(), strs(&["ROCK IS FLAG"]));
    let c = Case::new(PARSING, "p3-and-is-win");
    assert_eq!(c.rule_texts(), strs(&["ROCK IS WIN"]));
    let c = Case::new(PARSING, "p3-stacked-subject");
    assert_eq!(c.rule_texts(), strs(&["ROCK IS YOU"]));
    let spans = c.spans();
    assert_eq!(spans.len(), 1);
    assert_eq!((spans[0].1, spans[0].2.len()), ((1, 0), 3));
}

#[test]
fn p4_stacked_predicate() {
    let c = Case::new(PARSING, "p4-stacked-predicate");
    let spans = c.spans();
    assert_eq!(spans.len(), 2);
    assert!(
        spans
            .iter()
            .all(|s| s.0 == "h" && s.1 == (0, 0) && s.2.len() == 3)
    );
    // §3.6 component 4: the path ids decide. The front end names the stacked
    // words `win.1` and `defeat.1`, and `defeat.1` sorts first byte-wise.
    assert!("defeat.1" < "win.1");
    assert_eq!(c.rule_texts(), strs(&["FLAG IS DEFEAT", "FLAG IS WIN"]));
    let rules = c.game.rules(&c.state);
    let preds: Vec<&str> = rules
        .records
        .iter()
        .map(|r| c.game.id(rules.predicate_word(r).unwrap()))
        .collect();
    assert_eq!(preds, vec!["defeat.1", "win.1"]);
}

#[test]
fn p5_words_around_a_sentence() {
    let c = Case::new(PARSING, "p5-word-before");
    assert_eq!(c.rule_texts(), strs(&["MIAU IS WIN"]));
    let c = Case::new(PARSING, "p5-word-after");
    assert_eq!(c.rule_texts(), strs(&["MIAU IS YOU"]));
}

#[test]
fn p6_and_on_the_subject_side() {
    let c = Case::new(PARSING, "p6-and-subjects");
    assert_eq!(c.rule_texts(), strs(&["ROCK IS YOU", "MIAU IS YOU"]));
    assert_eq!(c.spans().len(), 1);
    let c = Case::new(PARSING, "p6-two-nouns");
    assert_eq!(c.rule_texts(), strs(&["MIAU IS YOU"]));
}

#[test]
fn p7_ill_formed_lines() {
    assert!(Case::new(PARSING, "p7-dangling-and").rules().is_empty());
    assert!(Case::new(PARSING, "p7-and-after-is").rules().is_empty());
    let c = Case::new(PARSING, "p7-stacked-and");
    assert_eq!(c.rule_texts(), strs(&["ROCK IS WIN", "ROCK IS PUSH"]));
    let spans = c.spans();
    assert_eq!(spans.len(), 1);
    assert_eq!((spans[0].1, spans[0].2.len()), ((0, 0), 5));
}

// ---------------------------------------------------------------- 13.2 Properties and transformation

#[test]
fn t1_x_is_x_protects() {
    let mut c = Case::new(TRANSFORM, "t1-x-is-x-protects");
    assert!(c.reset.transformed.is_empty());
    assert_eq!(c.noun("rock-1").as_deref(), Some("ROCK"));
    let rep = c.ok('R');
    assert!(rep.transformed.is_empty());
    assert_eq!(c.noun("rock-1").as_deref(), Some("ROCK"));
}

#[test]
fn t2_conflicts_follow_reading_order() {
    let c = Case::new(TRANSFORM, "t2-conflicts");
    assert_eq!(c.noun("rock-1").as_deref(), Some("FLAG"));
    let c = Case::new(TRANSFORM, "t2-conflicts-rows-swapped");
    assert_eq!(c.noun("rock-1").as_deref(), Some("WALL"));
    let c = Case::new(TRANSFORM, "t2-conflicts-vertical-first");
    assert_eq!(c.noun("rock-1").as_deref(), Some("WALL"));
}

#[test]
fn t3_one_link_per_turn() {
    let mut c = Case::new(TRANSFORM, "t3-one-link-per-turn");
    assert_eq!(
        c.transformed(&c.reset.transformed),
        vec![("rock-1".into(), "ROCK".into(), "FLAG".into(), "reset")]
    );
    let rep = c.ok('R');
    assert_eq!(
        c.transformed(&rep.transformed),
        vec![("rock-1".into(), "FLAG".into(), "WALL".into(), "after-move")]
    );
    let rep = c.ok('R');
    assert!(rep.transformed.is_empty());
    assert_eq!(c.noun("rock-1").as_deref(), Some("WALL"));

    let mut c = Case::new(TRANSFORM, "t3-one-link-per-wait");
    assert_eq!(c.noun("rock-1").as_deref(), Some("SHELL"));
    c.ok('W');
    assert_eq!(c.noun("rock-1").as_deref(), Some("JELLY"));
}

#[test]
fn t4_a_transformation_removes_you() {
    let mut c = Case::new(TRANSFORM, "t4-a-transformation-removes-you");
    assert_eq!(c.noun("miau-1").as_deref(), Some("ROCK"));
    assert_eq!(c.rejected('R').0, Rejection::NoYou);
    assert_eq!(c.rejected('W').0, Rejection::NoYou);
    assert!(has_code(TRANSFORM, "t4-a-transformation-removes-you", "M306").is_some());
}

#[test]
fn t5_transformation_before_contact() {
    let mut c = Case::new(TRANSFORM, "t5-transformation-before-contact");
    let rep = c.ok('U');
    assert_eq!(c.pos("shell.2"), Some((2, 3)));
    assert!(c.holds("JELLY IS SHELL"));
    assert_eq!(
        c.transformed(&rep.transformed),
        vec![(
            "jelly-1".into(),
            "JELLY".into(),
            "SHELL".into(),
            "after-move"
        )]
    );
    assert_eq!(c.pos("miau-1"), Some((2, 4)));
    assert!(rep.destroyed.is_empty());
    assert!(rep.won);

    let mut c = Case::new(TRANSFORM, "t5-without-shell-word");
    let rep = c.ok('U');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("miau-1", "defeat", (2, 4))]
    );
    assert!(rep.lost_control && !rep.won);
}

// ---------------------------------------------------------------- 13.3 Movement

#[test]
fn m1_push_beats_stop() {
    let mut c = Case::new(MOVEMENT, "m1-push-beats-stop");
    play(&mut c, "RRR");
    assert_eq!(c.pos("rock-1"), Some((4, 2)));
    let (why, b) = c.rejected('R');
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(c.blocked(&b)[0].0, "miau-1");
    assert_eq!(c.blocked(&b)[0].1, "edge");

    let mut c = Case::new(MOVEMENT, "m1-stop-only");
    let (why, b) = c.rejected('R');
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        c.blocked(&b),
        vec![("miau-1".into(), "stop", Some("rock-1".into()))]
    );
}

#[test]
fn m2_stacks_travel_whole() {
    let mut c = Case::new(MOVEMENT, "m2-stacks-travel-whole");
    for t in 1..=2u8 {
        c.ok('R');
        assert_eq!(c.pos("miau-1"), Some((t, 2)));
        assert_eq!(c.pos("rock.1"), Some((1 + t, 2)));
        assert_eq!(c.pos("flag.1"), Some((1 + t, 2)));
        assert_eq!(c.pos("win.1"), Some((2 + t, 2)));
    }
    let (why, b) = c.rejected('R');
    assert_eq!((why, b[0].reason), (Rejection::Blocked, BlockReason::Edge));

    let mut c = Case::new(MOVEMENT, "m2-stack-against-wall");
    let (why, b) = c.rejected('R');
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        c.blocked(&b),
        vec![("miau-1".into(), "stop", Some("wall-1".into()))]
    );
    assert_eq!(c.words_at(1, 2), strs(&["FLAG", "ROCK"]));
}

#[test]
fn m3_front_first() {
    let mut c = Case::new(MOVEMENT, "m3-front-first");
    c.ok('R');
    assert_eq!(c.pos("miau-1"), Some((1, 2)));
    assert_eq!(c.pos("miau-2"), Some((2, 2)));
}

#[test]
fn m4_every_refused_you_is_reported() {
    let mut c = Case::new(MOVEMENT, "m4-every-refused-you-is-reported");
    assert_eq!(c.pos("miau-2"), Some((2, 2)));
    let (why, b) = c.rejected('R');
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        c.blocked(&b),
        vec![
            ("miau-2".into(), "stop", Some("wall-1".into())),
            ("miau-1".into(), "stop", Some("wall-1".into())),
        ]
    );
}

#[test]
fn m5_lockstep_yous_fill_water_in_order() {
    let mut c = Case::new(MOVEMENT, "m5-lockstep-yous-fill-water");
    let reps = play(&mut c, "RRRRRR");
    assert_eq!(
        c.destroyed(&reps[0].destroyed),
        vec![d("crab-3", "sink", (3, 3)), d("water-1", "sink", (3, 3))]
    );
    assert!(reps[1].destroyed.is_empty());
    assert_eq!(
        c.destroyed(&reps[2].destroyed),
        vec![d("crab-2", "sink", (4, 3)), d("water-2", "sink", (4, 3))]
    );
    assert!(reps[3..].iter().all(|r| r.destroyed.is_empty()));
    assert!(reps[5].won);
    assert!(reps[..5].iter().all(|r| !r.won));
    assert!(reps.iter().all(|r| !r.lost_control));
    assert_eq!(c.pos("crab-1"), Some((6, 3)));
}

#[test]
fn m6_stop_never_ejects() {
    let mut c = Case::new(MOVEMENT, "m6-stop-never-ejects");
    let rep = c.ok('U');
    assert!(
        c.blocked(&rep.blocked)
            .iter()
            .any(|b| b.0 == "miau-1" && b.1 == "edge")
    );
    assert_eq!(c.words_at(3, 0), strs(&["STOP", "WIN"]));
    assert!(c.holds("FLAG IS WIN") && c.holds("FLAG IS STOP"));
    assert_eq!(c.pos("miau-1"), c.pos("flag-1"));
    assert!(rep.won);
}

#[test]
fn m7_enter_and_complete_in_one_move() {
    let mut c = Case::new(MOVEMENT, "m7-enter-and-complete");
    let rep = c.ok('U');
    assert_eq!(c.words_at(2, 1), strs(&["STOP", "WIN"]));
    assert_eq!(c.pos("miau-1"), Some((2, 2)));
    assert_eq!(c.things_at(2, 2), strs(&["FLAG", "MIAU"]));
    assert!(rep.won);
}

// ---------------------------------------------------------------- 13.4 Contacts and reset

#[test]
fn c1_sink_destroys_words() {
    let mut c = Case::new(CONTACTS, "c1-sink-destroys-words");
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("rock-1", "sink", (2, 2)), d("stop.1", "sink", (2, 2))]
    );
    assert_eq!(c.pos("miau-1"), Some((1, 2)));
}

#[test]
fn c2_sink_beats_win() {
    let mut c = Case::new(CONTACTS, "c2-sink-beats-win");
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("miau-1", "sink", (1, 2)), d("shell-1", "sink", (1, 2))]
    );
    assert!(!rep.won && rep.lost_control);
}

#[test]
fn c3_defeat_beats_win() {
    let mut c = Case::new(CONTACTS, "c3-defeat-beats-win");
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("miau-1", "defeat", (1, 3))]
    );
    assert!(!rep.won);
}

#[test]
fn c4_self_defeat() {
    let c = Case::new(CONTACTS, "c4-self-defeat-rock");
    assert_eq!(
        c.destroyed(&c.reset.destroyed),
        vec![d("rock-1", "defeat", (2, 2))]
    );
    assert_eq!(c.pos("miau-1"), Some((0, 2)));

    let mut c = Case::new(CONTACTS, "c4-self-defeat-cat");
    assert_eq!(
        c.destroyed(&c.reset.destroyed),
        vec![d("miau-1", "defeat", (0, 1))]
    );
    assert!(!c.reset.won_at_start);
    for ch in "UDLRW".chars() {
        assert_eq!(c.rejected(ch).0, Rejection::NoYou);
    }
}

#[test]
fn c5_self_win_at_start() {
    let mut c = Case::new(CONTACTS, "c5-self-win-at-start");
    assert!(c.reset.won_at_start);
    assert!(!c.state.won(), "won at start is not terminal");
    assert!(c.ok('W').won);
    assert_eq!(c.rejected('W').0, Rejection::Won);
}

#[test]
fn c6_defeat_spares_words() {
    let mut c = Case::new(CONTACTS, "c6-defeat-spares-words");
    let rep = c.ok('R');
    assert!(rep.destroyed.is_empty());
    assert_eq!(c.pos("push.1"), Some((2, 2)));
    assert_eq!(c.things_at(2, 2), strs(&["ROCK"]));
    let rep = c.ok('R');
    assert_eq!(c.pos("push.1"), Some((3, 2)));
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("miau-1", "defeat", (2, 2))]
    );
}

#[test]
fn c7_no_ghost_rule_after_sink() {
    let mut c = Case::new(CONTACTS, "c7-no-ghost-rule-after-sink");
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("stop.1", "sink", (4, 1)), d("water-1", "sink", (4, 1))]
    );
    assert_eq!(c.rule_texts(), strs(&["MIAU IS YOU", "WATER IS SINK"]));
    c.ok('D');
    assert_eq!(c.pos("miau-1"), c.pos("rock-1"));
}

#[test]
fn c8_nothing_starts_on_water() {
    let c = Case::new(CONTACTS, "c8-nothing-starts-on-water");
    assert_eq!(
        c.destroyed(&c.reset.destroyed),
        vec![d("boat-1", "sink", (1, 2)), d("water-1", "sink", (1, 2))]
    );
    let warning = has_code(CONTACTS, "c8-nothing-starts-on-water", "M309")
        .expect("a destroyed-at-reset warning");
    assert!(
        warning.contains("BOAT") && warning.contains("WATER"),
        "{warning}"
    );
    assert!(warning.contains("column 1, row 2"), "{warning}");

    let mut c = Case::new(CONTACTS, "c8-float-boat");
    assert!(c.reset.destroyed.is_empty());
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("miau-1", "sink", (1, 3)), d("water-1", "sink", (1, 3))]
    );
    assert_eq!(c.pos("boat-1"), Some((1, 3)));
}

// ---------------------------------------------------------------- 13.5 Automata

#[test]
fn a1_clockwork_proof_level() {
    let mut c = Case::new(AUTOMATA, "a1-clockwork-proof");
    for (i, ch) in "DRRRRRRRRRR".chars().enumerate() {
        let t = i + 1;
        let rep = c.ok(ch);
        match t {
            4 => {
                assert_eq!(c.pos("win.1"), Some((4, 3)));
                assert!(!c.holds("BELL IS WIN"));
            }
            5 => {
                assert_eq!(c.pos("win.1"), Some((3, 3)));
                assert!(c.holds("BELL IS WIN"), "BELL IS WIN forms on turn 5");
            }
            10 => assert_eq!(c.pos("mouse-1"), Some((9, 3))),
            _ => {}
        }
        assert_eq!(rep.won, t == 11, "turn {t}");
    }
    assert_eq!(c.pos("mouse-1"), Some((8, 3)));
    assert_eq!(c.pos("miau-1"), Some((10, 6)));
    assert_eq!(c.pos("miau-1"), c.pos("bell-1"));
}

#[test]
fn a2_undeclared_tick_is_a_noun() {
    let c = Case::new(AUTOMATA, "a2-undeclared-tick-is-a-noun");
    assert_eq!(c.noun("mouse-1").as_deref(), Some("TICK"));
    let warning =
        has_code(AUTOMATA, "a2-undeclared-tick-is-a-noun", "M301").expect("a noun-trap warning");
    assert!(warning.contains("TICK"), "{warning}");
}

#[test]
fn a3_swap_through() {
    let mut c = Case::new(AUTOMATA, "a3-swap-through");
    let rep = c.ok('R');
    assert_eq!(c.pos("miau-1"), Some((1, 3)));
    assert_eq!(c.pos("cog-1"), Some((0, 3)));
    assert!(rep.destroyed.is_empty());
}

#[test]
fn a4_double_move() {
    let mut c = Case::new(AUTOMATA, "a4-double-move");
    let rep = c.ok('D');
    let path: Vec<_> = rep
        .moved
        .iter()
        .filter(|m| c.game.id(m.id) == "miau-1")
        .map(|m| (m.from, m.to))
        .collect();
    assert_eq!(path, vec![((0, 3), (0, 4)), ((0, 4), (0, 5))]);
    assert_eq!(c.pos("miau-1"), Some((0, 5)));
    assert!(rep.destroyed.is_empty());

    let mut c = Case::new(AUTOMATA, "a4-single-move");
    let rep = c.ok('D');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("miau-1", "defeat", (0, 4))]
    );
}

#[test]
fn a5_an_automatons_push_transforms_before_contact() {
    let mut c = Case::new(AUTOMATA, "a5-push-transforms-before-contact");
    let rep = c.ok('R');
    assert_eq!(c.pos("miau-1"), c.pos("cog-1"));
    assert_eq!(c.pos("bell.2"), Some((2, 4)));
    assert!(c.holds("COG IS BELL"));
    assert_eq!(
        c.transformed(&rep.transformed),
        vec![(
            "cog-1".into(),
            "COG".into(),
            "BELL".into(),
            "after-automata"
        )]
    );
    assert!(rep.destroyed.is_empty());
    assert!(rep.won);
}

#[test]
fn a6_the_word_carries_pattern_and_phase() {
    let mut c = Case::new(AUTOMATA, "a6-the-word-carries-the-pattern");
    c.ok('W');
    assert_eq!((c.pos("mouse-1"), c.phase(0)), (Some((3, 4)), 1));
    c.ok('D');
    assert_eq!(c.pos("tick.1"), Some((2, 3)));
    assert!(c.holds("BELL IS TICK") && !c.holds("MOUSE IS TICK"));
    assert_eq!(c.pos("bell-1"), Some((5, 5)));
    assert_eq!(c.pos("mouse-1"), Some((3, 4)));
    assert_eq!(c.phase(0), 0);
}

#[test]
fn a7_a_paused_clock_keeps_its_phase() {
    let mut c = Case::new(AUTOMATA, "a7-a-paused-clock-keeps-its-phase");
    c.ok('W');
    assert_eq!((c.pos("mouse-1"), c.phase(0)), (Some((1, 5)), 1));
    c.ok('D');
    assert_eq!(c.pos("tick.1"), Some((2, 2)));
    for ch in "RDDL".chars() {
        c.ok(ch);
        assert_eq!((c.pos("mouse-1"), c.phase(0)), (Some((1, 5)), 1));
    }
    c.ok('U');
    assert!(c.holds("MOUSE IS TICK"));
    assert_eq!((c.pos("mouse-1"), c.phase(0)), (Some((2, 5)), 2));
}

#[test]
fn a8_a_refused_move_is_no_beat() {
    let mut c = Case::new(AUTOMATA, "a8-a-refused-move-is-no-beat");
    for ch in ['L', 'D'] {
        let (why, b) = c.rejected(ch);
        assert_eq!((why, b[0].reason), (Rejection::Blocked, BlockReason::Edge));
        assert_eq!((c.pos("mouse-1"), c.phase(0)), (Some((3, 3)), 0));
    }
    c.ok('W');
    assert_eq!((c.pos("mouse-1"), c.phase(0)), (Some((2, 3)), 1));
}

// ---------------------------------------------------------------- 13.6 Pairs

#[test]
fn pr1_key_into_door() {
    let mut c = Case::new(PAIRS, "pr1-key-into-door");
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("door-1", "open", (2, 3)), d("key-1", "open", (2, 3))]
    );
    c.ok('R');
    assert_eq!(c.pos("miau-1"), Some((2, 3)));
}

#[test]
fn pr2_without_enter() {
    let mut c = Case::new(PAIRS, "pr2-without-enter");
    let (why, b) = c.rejected('R');
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(c.blocked(&b)[0].1, "stop");
    assert_eq!(c.blocked(&b)[0].2.as_deref(), Some("door-1"));
}

#[test]
fn pr3_one_for_one() {
    let mut c = Case::new(PAIRS, "pr3-one-for-one");
    assert_eq!(
        (c.pos("key-1"), c.pos("key-2")),
        (Some((1, 3)), Some((1, 3)))
    );
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("door-1", "open", (2, 3)), d("key-1", "open", (2, 3))]
    );
    assert_eq!(c.pos("key-2"), Some((2, 3)));
}

#[test]
fn pr4_on_its_beat() {
    let mut c = Case::new(PAIRS, "pr4-on-its-beat");
    let rep = c.ok('W');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("door-1", "open", (2, 4)), d("mouse-1", "open", (2, 4))]
    );
    play(&mut c, "RR");
    assert_eq!(c.pos("miau-1"), Some((2, 4)));
}

#[test]
fn pr5_never_with_itself() {
    let c = Case::new(PAIRS, "pr5-never-with-itself");
    assert_eq!(
        c.destroyed(&c.reset.destroyed),
        vec![d("door-2", "open", (3, 2)), d("door-3", "open", (3, 2))]
    );
    assert_eq!(c.pos("door-1"), Some((1, 2)));
}

#[test]
fn pr6_undeclared_pair_words() {
    let mut c = Case::new(PAIRS, "pr6-undeclared-pair-words");
    assert_eq!(c.noun("door-1").as_deref(), Some("SHUT"));
    c.ok('R');
    assert_eq!(c.pos("miau-1"), Some((1, 2)));
    let warning =
        has_code(PAIRS, "pr6-undeclared-pair-words", "M301").expect("a noun-trap warning");
    assert!(warning.contains("SHUT"), "{warning}");
}

// ---------------------------------------------------------------- 13.7 GOAL

#[test]
fn go1_pallet_row() {
    let mut c = Case::new(GOAL, "go1-pallet-row");
    let route = "LUURRDULLDDRRRRUULLLRDDLLUU";
    for (i, ch) in route.chars().enumerate() {
        let rep = c.ok(ch);
        assert!(!rep.word_moved, "a word moved on turn {}", i + 1);
        assert_eq!(rep.won, i + 1 == 27, "turn {}", i + 1);
    }
}

#[test]
fn go2_short_one_crate() {
    let mut c = Case::new(GOAL, "go2-short-one-crate");
    let route = "RRRRRURDLLLUULDULLDLDRRRRRRDDRRUURUL";
    let reps = play(&mut c, route);
    for (i, rep) in reps.iter().enumerate() {
        assert_eq!(rep.won, i + 1 == 36, "turn {}", i + 1);
    }
    assert_eq!(reps[35].goals, (3, 3));
    let docks: Vec<_> = ["dock-1", "dock-2", "dock-3"]
        .iter()
        .map(|id| c.pos(id).unwrap())
        .collect();
    let covers: Vec<_> = ["crate-1", "crate-2", "win.1"]
        .iter()
        .map(|id| c.pos(id).unwrap())
        .collect();
    for dock in docks {
        assert!(covers.contains(&dock), "dock at {dock:?} uncovered");
    }
}

#[test]
fn go3_goal_rules() {
    let mut c = Case::new(GOAL, "go3-word-covers-dock");
    let rep = c.ok('R');
    assert_eq!(c.pos("win.1"), c.pos("dock-1"));
    assert!(rep.won);
    assert_eq!(rep.goals, (1, 1));

    let mut c = Case::new(GOAL, "go3-pushable-dock");
    let rep = c.ok('R');
    assert_eq!(c.pos("dock-1"), Some((2, 2)));
    assert_eq!((rep.won, rep.goals), (false, (0, 1)));

    let mut c = Case::new(GOAL, "go3-one-of-two");
    let rep = c.ok('R');
    assert_eq!((rep.won, rep.goals), (false, (1, 2)));

    let mut c = Case::new(GOAL, "go3-sinking-dock");
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("dock-1", "sink", (2, 2)), d("win.1", "sink", (2, 2))]
    );
    assert_eq!((rep.won, rep.goals), (false, (0, 0)));
}

// ---------------------------------------------------------------- 13.8 Gates and plates

#[test]
fn gt1_door_stop() {
    let mut c = Case::new(GATES, "gt1-door-stop");
    for (i, ch) in "LURRURDDURRRRRR".chars().enumerate() {
        let t = i + 1;
        let rep = c.ok(ch);
        if t == 8 {
            assert_eq!(c.gates(&rep), vec![("gate-1".into(), "pressed")]);
            assert!(c.things_at(4, 7).contains(&"CRATE".to_string()));
        }
        if t == 12 {
            let sunk: Vec<_> = rep
                .destroyed
                .iter()
                .map(|x| (c.game.name(x.what).to_string(), x.at))
                .collect();
            assert_eq!(sunk, vec![("CRATE".into(), (8, 5)), ("GAP".into(), (8, 5))]);
            assert!(c.destroyed(&rep.destroyed).iter().all(|x| x.1 == "sink"));
        }
        assert_eq!(rep.won, t == 15, "turn {t}");
    }
}

#[test]
fn gt2_hand_off() {
    let mut c = Case::new(GATES, "gt2-hand-off");
    for (i, ch) in "LUDLURRRRRURRRR".chars().enumerate() {
        let t = i + 1;
        let formed = !c.holds("CRATE IS YOU");
        let rep = c.ok(ch);
        if t == 5 {
            assert!(formed && c.holds("CRATE IS YOU") && c.holds("MIAU IS YOU"));
        }
        if t == 11 {
            assert!(
                c.blocked(&rep.blocked)
                    .iter()
                    .any(|b| b.0 == "crate-1" && b.1 == "stop")
            );
            assert!(rep.moved.iter().any(|m| c.game.id(m.id) == "miau-1"));
        }
        if t == 12 {
            assert_eq!(c.gates(&rep), vec![("gate-1".into(), "pressed")]);
            assert_eq!(c.pos("crate-1"), c.pos("plate-1"));
        }
        if t == 13 {
            assert_eq!(c.pos("miau-1"), c.pos("gate-1"));
        }
        assert_eq!(rep.won, t == 15, "turn {t}");
    }
}

#[test]
fn gt3_jam() {
    let mut c = Case::new(GATES, "gt3-jam");
    for (i, ch) in "RRRRRRR".chars().enumerate() {
        let t = i + 1;
        let rep = c.ok(ch);
        let want: Vec<(String, &str)> = match t {
            4 => vec![("gate-1".into(), "pressed")],
            5 => vec![("gate-1".into(), "jammed")],
            6 => vec![("gate-1".into(), "released")],
            _ => vec![],
        };
        assert_eq!(c.gates(&rep), want, "turn {t}");
        if t == 5 {
            assert_eq!(c.pos("miau-1"), c.pos("gate-1"));
            assert_eq!(c.things_at(6, 3), strs(&["PLATE"]));
        }
        assert_eq!(rep.won, t == 7, "turn {t}");
    }
}

#[test]
fn gt4_gates_ignore_rules() {
    let mut c = Case::new(GATES, "gt4-push-rule-ignored");
    let (why, b) = c.rejected('R');
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        c.blocked(&b),
        vec![("miau-1".into(), "gate", Some("gate-1".into()))]
    );

    let mut c = Case::new(GATES, "gt4-stop-rule-ignored");
    assert!(c.open("gate-1"));
    c.ok('R');
    assert_eq!(c.pos("miau-1"), Some((1, 2)));
    c.ok('R');
    assert_eq!(c.pos("miau-1"), Some((2, 2)));
}

#[test]
fn gt5_the_role_follows_the_noun() {
    let mut c = Case::new(GATES, "gt5-the-role-follows-the-noun");
    assert_eq!(c.noun("gate-1").as_deref(), Some("ROCK"));
    let channel = c.game.ents[c.id("gate-1") as usize].channel;
    assert_eq!(
        channel.map(|i| miau::model::CHANNELS[i as usize]),
        Some("amber")
    );
    c.ok('R');
    assert_eq!(c.pos("miau-1"), Some((1, 2)));
}

#[test]
fn gt6_jam_at_reset() {
    let mut c = Case::new(GATES, "gt6-jam-at-reset");
    assert!(c.open("gate-1"));
    for _ in 0..2 {
        let rep = c.ok('R');
        assert!(rep.gates.is_empty());
        assert!(c.open("gate-1"));
    }
}

// ---------------------------------------------------------------- 13.9 FRAIL

#[test]
fn f1_one_plank_each() {
    let mut c = Case::new(FRAIL, "f1-one-plank-each");
    for (i, ch) in "RRRRRRR".chars().enumerate() {
        let t = i + 1;
        let rep = c.ok(ch);
        let got: Vec<_> = c.crumbled(&rep).into_iter().map(|k| (k.1, k.2)).collect();
        let want = match t {
            5 => vec![(Some((5, 2)), Some("WATER".to_string()))],
            6 => vec![(Some((6, 2)), Some("WATER".to_string()))],
            7 => vec![(Some((7, 2)), Some("WATER".to_string()))],
            _ => vec![],
        };
        assert_eq!(got, want, "turn {t}");
        if t == 4 {
            // The handover: WIN leaves (5,2) as the cat enters it.
            assert_eq!(c.pos("miau-1"), Some((5, 2)));
            assert_eq!(c.pos("win.1"), Some((6, 2)));
        }
    }
    assert_eq!(c.pos("miau-1"), Some((8, 2)));
    assert_eq!(c.words_at(9, 2), strs(&["WIN"]));
    assert_eq!(c.things_at(9, 2), strs(&["SHELL"]));
}

#[test]
fn f2_two_tides() {
    let mut c = Case::new(FRAIL, "f2-two-tides");
    for (i, ch) in "RRRRRRRURRDLLLLLLL".chars().enumerate() {
        let t = i + 1;
        let rep = c.ok(ch);
        let got: Vec<_> = c.crumbled(&rep).into_iter().map(|k| (k.1, k.2)).collect();
        let at = |x: u8, noun: &str| vec![(Some((x, 2)), Some(noun.to_string()))];
        let want = match t {
            5 => at(5, "SHOAL"),
            6 => at(6, "SHOAL"),
            7 => at(7, "SHOAL"),
            15 => at(7, "WATER"),
            16 => at(6, "WATER"),
            17 => at(5, "WATER"),
            _ => vec![],
        };
        assert_eq!(got, want, "turn {t}");
    }
    assert_eq!(c.pos("is.2"), Some((2, 2)));
}

#[test]
fn f3_only_departures_count() {
    let mut c = Case::new(FRAIL, "f3-the-frail-cat-moves");
    assert!(c.ok('R').crumbled.is_empty());
    let rep = c.ok('R');
    assert_eq!(c.crumbled(&rep), vec![("drift-1".to_string(), None, None)]);

    let mut c = Case::new(FRAIL, "f3-transformed-away");
    let rep = c.ok('L');
    assert!(c.holds("DRIFT IS ROCK"));
    assert_eq!(c.noun("drift-1").as_deref(), Some("ROCK"));
    assert!(rep.crumbled.is_empty());

    let mut c = Case::new(FRAIL, "f3-not-transformed");
    let rep = c.ok('L');
    assert_eq!(
        c.crumbled(&rep),
        vec![(
            "drift-1".to_string(),
            Some((4, 2)),
            Some("WATER".to_string())
        )]
    );
}

#[test]
fn f4_automaton_crossing() {
    let mut c = Case::new(FRAIL, "f4-automaton-crossing");
    let rep = c.ok('W');
    assert_eq!(c.pos("mouse-1"), Some((1, 3)));
    assert_eq!(c.pos("win.1"), Some((2, 3)));
    assert!(rep.crumbled.is_empty());
    let rep = c.ok('W');
    assert_eq!(c.crumbled(&rep), vec![("drift-1".to_string(), None, None)]);
    let rep = c.ok('W');
    assert_eq!(c.crumbled(&rep), vec![("drift-2".to_string(), None, None)]);
}

#[test]
fn f5_no_floor_layer() {
    let c = Case::new(FRAIL, "f5-no-floor-layer");
    assert_eq!(
        c.destroyed(&c.reset.destroyed),
        vec![d("drift-1", "sink", (1, 3)), d("water-1", "sink", (1, 3))]
    );
}

// ---------------------------------------------------------------- 13.10 FLOAT, fixed words, terrain

#[test]
fn fl1_float_layers() {
    let mut c = Case::new(FLOAT_FIXED_TERRAIN, "fl1-float-layers");
    let rep = c.ok('R');
    assert_eq!(c.pos("miau-1"), c.pos("flag-1"));
    assert!(!rep.won);

    let c = Case::new(FLOAT_FIXED_TERRAIN, "fl1-self-win");
    assert!(c.reset.won_at_start);

    let mut c = Case::new(FLOAT_FIXED_TERRAIN, "fl1-both-float");
    let rep = c.ok('R');
    assert_eq!(
        c.destroyed(&rep.destroyed),
        vec![d("miau-1", "defeat", (1, 2))]
    );
}

#[test]
fn fx1_fixed_words_refuse_pushes() {
    let mut c = Case::new(FLOAT_FIXED_TERRAIN, "fx1-fixed-word-in-a-push");
    let (why, b) = c.rejected('R');
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        c.blocked(&b),
        vec![("miau-1".into(), "fixed", Some("win.1".into()))]
    );

    let mut c = Case::new(FLOAT_FIXED_TERRAIN, "fx1-fixed-sentence");
    let (why, b) = c.rejected('D');
    assert_eq!((why, b[0].reason), (Rejection::Blocked, BlockReason::Fixed));
    c.ok('L');
    assert_eq!(c.pos("miau-1"), Some((0, 0)));
}

#[test]
fn fx2_fixed_words_survive_sink() {
    let c = Case::new(FLOAT_FIXED_TERRAIN, "fx2-fixed-words-survive-sink");
    assert_eq!(
        c.destroyed(&c.reset.destroyed),
        vec![d("rock-1", "sink", (2, 2))]
    );
    assert_eq!(c.words_at(2, 2), strs(&["WIN"]));
}

#[test]
fn tr1_terrain() {
    let mut c = Case::new(FLOAT_FIXED_TERRAIN, "tr1-terrain");
    assert_eq!(c.rules()[0], "WALL IS STOP (terrain)");
    let (why, b) = c.rejected('R');
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        c.blocked(&b),
        vec![("miau-1".into(), "stop", Some("wall-1".into()))]
    );

    let mut c = Case::new(FLOAT_FIXED_TERRAIN, "tr1-terrain-push");
    c.ok('R');
    assert_eq!(c.pos("wall-1"), Some((2, 2)));

    let mut c = Case::new(FLOAT_FIXED_TERRAIN, "tr1-terrain-transformed");
    assert_eq!(c.noun("wall-1").as_deref(), Some("ROCK"));
    c.ok('R');
    assert_eq!(c.pos("miau-1"), Some((1, 2)));
}

// ---------------------------------------------------------------- §10.4 search on the published drafts

/// The breadth-first search of §10.4 on a fixture level returns exactly the
/// published route.
fn assert_search_finds(source: &str, level: &str, route: &str) {
    let compiled = common::level(source, level);
    let game = miau::engine::Game::new(&compiled);
    let got = common::EngineSpace::new(&game).solve(5_000_000);
    assert_eq!(got.as_deref(), Some(route), "{level}");
}

#[test]
fn a1_search_returns_the_published_route() {
    assert_search_finds(AUTOMATA, "a1-clockwork-proof", "DRRRRRRRRRR");
}

#[test]
fn go1_search_returns_the_published_route() {
    assert_search_finds(GOAL, "go1-pallet-row", "LUURRDULLDDRRRRUULLLRDDLLUU");
}

#[test]
fn go2_search_returns_the_published_route() {
    assert_search_finds(
        GOAL,
        "go2-short-one-crate",
        "RRRRRURDLLLUULDULLDLDRRRRRRDDRRUURUL",
    );
}

#[test]
fn gt1_search_returns_the_published_route() {
    assert_search_finds(GATES, "gt1-door-stop", "LURRURDDURRRRRR");
}

#[test]
fn gt2_search_returns_the_published_route() {
    assert_search_finds(GATES, "gt2-hand-off", "LUDLURRRRRURRRR");
}

#[test]
fn gt3_search_returns_the_published_route() {
    assert_search_finds(GATES, "gt3-jam", "RRRRRRR");
}
