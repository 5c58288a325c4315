//! The conformance catalogue of `rules.md` §13, one test per case.

use super::testkit::{
    self, A1, F2, GO1, GO2, GT1, GT2, GT3, Harness, a1, automaton, f1, frail, level, pair, terrain,
};
use super::*;
use crate::model;

fn rejected(r: &TurnResult) -> (Rejection, Vec<Blocked>) {
    match r {
        TurnResult::Rejected { reason, blocked } => (*reason, blocked.clone()),
        TurnResult::Accepted { .. } => panic!("expected a rejection"),
    }
}

fn gate_causes(h: &Harness, rep: &TurnReport) -> Vec<(String, &'static str)> {
    rep.gates
        .iter()
        .map(|g| (h.game.id(g.id).to_string(), g.cause.as_str()))
        .collect()
}

fn destroyed(h: &Harness, rep: &[Destroyed]) -> Vec<(String, Cause, (u8, u8))> {
    rep.iter()
        .map(|d| (h.game.name(d.what).to_string(), d.cause, d.at))
        .collect()
}

fn rules(h: &Harness) -> Vec<String> {
    h.rule_texts()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------- 13.1

#[test]
fn p1_crossing() {
    let h = Harness::board(". FLAG . / MIAU IS YOU / . WIN .");
    assert_eq!(h.rules(), strs(&["FLAG IS WIN (v)", "MIAU IS YOU (h)"]));
    let r = h.game.rules(&h.state);
    assert_eq!(r.sentences.len(), 2);
    let is = h.id("is-word-1");
    assert!(r.sentences.iter().all(|s| s.words.contains(&is)));
}

#[test]
fn p2_one_noun_two_sentences() {
    let h = Harness::board("MIAU IS ROCK IS WIN");
    assert_eq!(rules(&h), strs(&["MIAU IS ROCK", "ROCK IS WIN"]));
    let mut spans: Vec<_> = h
        .game
        .rules(&h.state)
        .sentences
        .iter()
        .map(|s| (s.at.0, s.words.len()))
        .collect();
    spans.sort();
    assert_eq!(spans, vec![(0, 3), (2, 3)]);
}

#[test]
fn p3_stacked_connectives() {
    assert_eq!(
        rules(&Harness::board("ROCK AND+IS FLAG")),
        strs(&["ROCK IS FLAG"])
    );
    assert_eq!(
        rules(&Harness::board("ROCK AND+IS WIN")),
        strs(&["ROCK IS WIN"])
    );
    let h = Harness::board("MIAU AND+ROCK IS YOU");
    assert_eq!(rules(&h), strs(&["ROCK IS YOU"]));
    let r = h.game.rules(&h.state);
    assert_eq!(r.sentences.len(), 1);
    assert_eq!((r.sentences[0].at.0, r.sentences[0].words.len()), (1, 3));
}

#[test]
fn p4_stacked_predicate() {
    let h = Harness::board("FLAG IS WIN+DEFEAT");
    let r = h.game.rules(&h.state);
    assert_eq!(r.sentences.len(), 2);
    assert!(
        r.sentences
            .iter()
            .all(|s| s.at == (0, 0) && s.words.len() == 3)
    );
    // Ordered by the ids of the stacked words: `defeat-word-1` < `win-word-1`.
    assert_eq!(rules(&h), strs(&["FLAG IS DEFEAT", "FLAG IS WIN"]));
    assert!(h.id("defeat-word-1") < h.id("win-word-1"));
}

#[test]
fn p5_words_around_a_sentence() {
    assert_eq!(
        rules(&Harness::board("YOU MIAU IS WIN")),
        strs(&["MIAU IS WIN"])
    );
    assert_eq!(
        rules(&Harness::board("MIAU IS YOU ROCK")),
        strs(&["MIAU IS YOU"])
    );
}

#[test]
fn p6_and_on_the_subject_side() {
    let h = Harness::board("ROCK AND MIAU IS YOU");
    assert_eq!(rules(&h), strs(&["ROCK IS YOU", "MIAU IS YOU"]));
    assert_eq!(h.game.rules(&h.state).sentences.len(), 1);
    assert_eq!(
        rules(&Harness::board("ROCK MIAU IS YOU")),
        strs(&["MIAU IS YOU"])
    );
}

#[test]
fn p7_ill_formed_lines() {
    assert!(rules(&Harness::board("ROCK AND IS WIN AND")).is_empty());
    assert!(rules(&Harness::board("ROCK IS AND WIN")).is_empty());
    let h = Harness::board("ROCK IS WIN AND+FLAG PUSH");
    assert_eq!(rules(&h), strs(&["ROCK IS WIN", "ROCK IS PUSH"]));
    let r = h.game.rules(&h.state);
    assert_eq!(r.sentences.len(), 1);
    assert_eq!((r.sentences[0].at.0, r.sentences[0].words.len()), (0, 5));
}

// ---------------------------------------------------------------- 13.2

#[test]
fn t1_x_is_x_protects() {
    let mut h = Harness::board("MIAU IS YOU / ROCK IS FLAG / ROCK IS ROCK / m . r");
    assert!(h.reset.transformed.is_empty());
    assert_eq!(h.things_at(2, 3), strs(&["ROCK"]));
    let rep = h.ok('R');
    assert!(rep.transformed.is_empty());
    assert_eq!(h.noun("rock-1").as_deref(), Some("ROCK"));
}

#[test]
fn t2_conflicts_follow_reading_order() {
    let h = Harness::board("MIAU IS YOU / ROCK IS FLAG / ROCK IS WALL / m . r");
    assert_eq!(h.noun("rock-1").as_deref(), Some("FLAG"));
    let h = Harness::board("MIAU IS YOU / ROCK IS WALL / ROCK IS FLAG / m . r");
    assert_eq!(h.noun("rock-1").as_deref(), Some("WALL"));
    let h = Harness::board("ROCK . . / IS . . / WALL . . / ROCK IS FLAG / MIAU IS YOU / m . r");
    assert_eq!(h.noun("rock-1").as_deref(), Some("WALL"));
}

#[test]
fn t3_one_link_per_turn() {
    let mut h = Harness::board("MIAU IS YOU / ROCK IS FLAG / FLAG IS WALL / m . r");
    assert_eq!(h.noun("rock-1").as_deref(), Some("FLAG"));
    let rep = h.ok('R');
    assert_eq!(h.noun("rock-1").as_deref(), Some("WALL"));
    assert_eq!(rep.transformed.len(), 1);
    assert_eq!(rep.transformed[0].when, When::AfterMove);
    let rep = h.ok('R');
    assert!(rep.transformed.is_empty());

    let mut h = Harness::board("MIAU IS YOU / ROCK IS SHELL / SHELL IS JELLY / m . r");
    assert_eq!(h.noun("rock-1").as_deref(), Some("SHELL"));
    h.ok('W');
    assert_eq!(h.noun("rock-1").as_deref(), Some("JELLY"));
}

#[test]
fn t4_a_transformation_removes_you() {
    let mut h = Harness::board("MIAU IS YOU AND ROCK / m . . . .");
    assert_eq!(h.noun("miau-1").as_deref(), Some("ROCK"));
    assert_eq!(rejected(&h.input('R')).0, Rejection::NoYou);
    assert_eq!(rejected(&h.input('W')).0, Rejection::NoYou);
}

const T5: &str = "
MIAU  IS YOU     .
JELLY IS DEFEAT  .
SHELL IS WIN     .
JELLY IS .       .
.     .  j+SHELL .
.     .  m       .";

#[test]
fn t5_transformation_before_contact() {
    let mut h = Harness::board(T5);
    let rep = h.ok('U');
    assert_eq!(h.words_at(2, 3), strs(&["SHELL"]));
    assert!(rules(&h).contains(&"JELLY IS SHELL".to_string()));
    assert_eq!(h.noun("jelly-1").as_deref(), Some("SHELL"));
    assert_eq!(rep.transformed[0].when, When::AfterMove);
    assert_eq!(h.pos("miau-1"), Some((2, 4)));
    assert!(rep.won);

    let mut h = Harness::board(&T5.replace("j+SHELL", "j      "));
    let rep = h.ok('U');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![("MIAU".into(), Cause::Defeat, (2, 4))]
    );
    assert!(rep.lost_control && !rep.won);
}

// ---------------------------------------------------------------- 13.3

#[test]
fn m1_push_beats_stop() {
    let mut h = Harness::board("MIAU IS YOU . . / ROCK IS STOP AND PUSH / m r . . .");
    h.ok('R');
    h.ok('R');
    h.ok('R');
    assert_eq!(h.pos("rock-1"), Some((4, 2)));
    let (why, b) = rejected(&h.input('R'));
    assert_eq!(why, Rejection::Blocked);
    assert_eq!((b[0].id, b[0].reason), (h.id("miau-1"), BlockReason::Edge));

    let mut h = Harness::board("MIAU IS YOU . . / ROCK IS STOP . . / m r . . .");
    let (why, b) = rejected(&h.input('R'));
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        (b[0].reason, b[0].blocker),
        (BlockReason::Stop, Some(h.id("rock-1")))
    );
}

#[test]
fn m2_stacks_travel_whole() {
    let mut h = Harness::board("MIAU IS YOU . . / . . . . . / m ROCK+FLAG WIN . .");
    h.ok('R');
    h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((2, 2)));
    assert_eq!(h.words_at(3, 2), strs(&["FLAG", "ROCK"]));
    assert_eq!(h.words_at(4, 2), strs(&["WIN"]));
    assert_eq!(rejected(&h.input('R')).1[0].reason, BlockReason::Edge);

    let mut h = Harness::board("MIAU IS YOU . . / WALL IS STOP . . / m ROCK+FLAG # . .");
    let (why, b) = rejected(&h.input('R'));
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        (b[0].reason, b[0].blocker),
        (BlockReason::Stop, Some(h.id("wall-1")))
    );
    assert_eq!(h.words_at(1, 2).len(), 2);
}

#[test]
fn m3_front_first() {
    let mut h = Harness::board("MIAU IS YOU AND STOP / . . . . . / m m . . .");
    h.ok('R');
    assert_eq!(h.things_at(1, 2), strs(&["MIAU"]));
    assert_eq!(h.things_at(2, 2), strs(&["MIAU"]));
}

#[test]
fn m4_every_refused_you_is_reported() {
    let mut h = Harness::board("MIAU IS YOU AND PUSH / WALL IS STOP . . / . m m # .");
    let (why, b) = rejected(&h.input('R'));
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(b.len(), 2);
    assert_eq!(b[0].id, h.id("miau-2"));
    assert_eq!(b[1].id, h.id("miau-1"));
    let wall = Some(h.id("wall-1"));
    assert!(
        b.iter()
            .all(|x| x.reason == BlockReason::Stop && x.blocker == wall)
    );
}

#[test]
fn m5_lockstep_yous_fill_water_in_order() {
    let mut h = Harness::board(
        "CRAB IS YOU . . . . / WATER IS SINK . . . . / SHELL IS WIN . . . . / c c c w w . s",
    );
    let reps: Vec<TurnReport> = "RRRRRR".chars().map(|c| h.ok(c)).collect();
    let d1 = destroyed(&h, &reps[0].destroyed);
    assert_eq!(
        d1,
        vec![
            ("CRAB".into(), Cause::Sink, (3, 3)),
            ("WATER".into(), Cause::Sink, (3, 3))
        ]
    );
    assert!(reps[1].destroyed.is_empty());
    let d3 = destroyed(&h, &reps[2].destroyed);
    assert_eq!(
        d3,
        vec![
            ("CRAB".into(), Cause::Sink, (4, 3)),
            ("WATER".into(), Cause::Sink, (4, 3))
        ]
    );
    assert!(reps[5].won);
    assert!(reps[..5].iter().all(|r| !r.won));
    assert!(reps.iter().all(|r| !r.lost_control));
}

#[test]
fn m6_stop_never_ejects() {
    let mut h = Harness::board("m+f FLAG IS . / . . . WIN+STOP / MIAU IS YOU c / CRAB IS YOU .");
    let rep = h.ok('U');
    assert!(
        rep.blocked
            .iter()
            .any(|b| b.id == h.id("miau-1") && b.reason == BlockReason::Edge)
    );
    assert_eq!(h.words_at(3, 0), strs(&["STOP", "WIN"]));
    let r = rules(&h);
    assert!(r.contains(&"FLAG IS WIN".into()) && r.contains(&"FLAG IS STOP".into()));
    assert!(rep.won);
}

#[test]
fn m7_enter_and_complete_in_one_move() {
    let mut h = Harness::board("MIAU IS YOU / FLAG IS . / . . f+WIN+STOP / . . m");
    let rep = h.ok('U');
    assert_eq!(h.words_at(2, 1), strs(&["STOP", "WIN"]));
    assert_eq!(h.things_at(2, 2), strs(&["FLAG", "MIAU"]));
    assert!(rep.won);
}

// ---------------------------------------------------------------- 13.4

#[test]
fn c1_sink_destroys_words() {
    let mut h = Harness::board("MIAU IS YOU / ROCK IS SINK / m STOP r");
    let rep = h.ok('R');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![
            ("ROCK".into(), Cause::Sink, (2, 2)),
            ("STOP".into(), Cause::Sink, (2, 2))
        ]
    );
    assert_eq!(h.pos("miau-1"), Some((1, 2)));
}

#[test]
fn c2_sink_beats_win() {
    let mut h = Harness::board("MIAU IS YOU . . / SHELL IS WIN AND SINK / m s . . .");
    let rep = h.ok('R');
    assert_eq!(rep.destroyed.len(), 2);
    assert!(rep.destroyed.iter().all(|d| d.cause == Cause::Sink));
    assert!(!rep.won && rep.lost_control);
}

#[test]
fn c3_defeat_beats_win() {
    let mut h = Harness::board("MIAU IS YOU / JELLY IS WIN / JELLY IS DEFEAT / m j .");
    let rep = h.ok('R');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![("MIAU".into(), Cause::Defeat, (1, 3))]
    );
    assert!(!rep.won);
}

#[test]
fn c4_self_defeat() {
    let h = Harness::board("MIAU IS YOU / ROCK IS YOU+DEFEAT / m . r");
    assert_eq!(
        destroyed(&h, &h.reset.destroyed),
        vec![("ROCK".into(), Cause::Defeat, (2, 2))]
    );
    assert!(h.pos("miau-1").is_some());

    let mut h = Harness::board("MIAU IS YOU AND WIN+DEFEAT / m . . . .");
    assert_eq!(
        destroyed(&h, &h.reset.destroyed),
        vec![("MIAU".into(), Cause::Defeat, (0, 1))]
    );
    assert!(!h.reset.won_at_start);
    for c in "UDLRW".chars() {
        assert_eq!(rejected(&h.input(c)).0, Rejection::NoYou);
    }
}

#[test]
fn c5_self_win_at_start() {
    let mut h = Harness::board("MIAU IS YOU AND WIN / m . . . .");
    assert!(h.reset.won_at_start);
    assert!(!h.state.won());
    assert!(h.ok('W').won);
    assert_eq!(rejected(&h.input('W')).0, Rejection::Won);
}

#[test]
fn c6_defeat_spares_words() {
    let mut h = Harness::board("MIAU IS YOU . . / ROCK IS DEFEAT . . / m PUSH r r .");
    let rep = h.ok('R');
    assert!(rep.destroyed.is_empty());
    assert_eq!(h.words_at(2, 2), strs(&["PUSH"]));
    let rep = h.ok('R');
    assert_eq!(h.words_at(3, 2), strs(&["PUSH"]));
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![("MIAU".into(), Cause::Defeat, (2, 2))]
    );
}

#[test]
fn c7_no_ghost_rule_after_sink() {
    let mut h = Harness::board(
        "MIAU IS   YOU WATER IS SINK
         m    ROCK IS  STOP  w  .
         .    r    .   .     .  .",
    );
    let rep = h.ok('R');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![
            ("STOP".into(), Cause::Sink, (4, 1)),
            ("WATER".into(), Cause::Sink, (4, 1))
        ]
    );
    assert_eq!(rules(&h), strs(&["MIAU IS YOU", "WATER IS SINK"]));
    h.ok('D');
    assert_eq!(h.pos("miau-1"), h.pos("rock-1"));
}

#[test]
fn c8_nothing_starts_on_water() {
    let h = Harness::board("WATER IS SINK / MIAU IS YOU / m w+b .");
    assert_eq!(
        destroyed(&h, &h.reset.destroyed),
        vec![
            ("BOAT".into(), Cause::Sink, (1, 2)),
            ("WATER".into(), Cause::Sink, (1, 2))
        ]
    );
    let mut h =
        Harness::board("WATER IS SINK . . / MIAU IS YOU . . / BOAT IS FLOAT . . / m w+b . . .");
    assert!(h.reset.destroyed.is_empty());
    let rep = h.ok('R');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![
            ("MIAU".into(), Cause::Sink, (1, 3)),
            ("WATER".into(), Cause::Sink, (1, 3))
        ]
    );
    assert_eq!(h.pos("boat-1"), Some((1, 3)));
}

// ---------------------------------------------------------------- 13.5

#[test]
fn a1_clockwork_proof_level() {
    let mut h = Harness::new(&a1());
    let win = h.id("win-word-1");
    let mut reps = Vec::new();
    for c in "DRRRRRRRRRR".chars() {
        reps.push(h.ok(c));
        let t = reps.len();
        if t == 4 {
            assert_eq!(h.game.pos(&h.state, win), Some((4, 3)));
        }
        if t == 5 {
            assert_eq!(h.game.pos(&h.state, win), Some((3, 3)));
            assert!(rules(&h).contains(&"BELL IS WIN".into()));
        }
        if t == 10 {
            assert_eq!(h.pos("mouse-1"), Some((9, 3)));
        }
        if t < 11 {
            assert!(!reps[t - 1].won, "won early on turn {t}");
        }
    }
    assert_eq!(h.pos("mouse-1"), Some((8, 3)));
    assert_eq!(h.pos("miau-1"), Some((10, 6)));
    assert!(reps[10].won);
}

#[test]
fn a2_undeclared_tick_is_a_noun() {
    let h = Harness::board(A1);
    assert_eq!(h.noun("mouse-1").as_deref(), Some("TICK"));
}

#[test]
fn a3_swap_through() {
    let mut l = level("MIAU IS YOU . / COG IS DEFEAT . / COG IS TICK . / m g . .");
    automaton(&mut l, "patrol", "TICK", Some("COG"), 0, "L");
    let mut h = Harness::new(&l);
    let rep = h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((1, 3)));
    assert_eq!(h.pos("cog-1"), Some((0, 3)));
    assert!(rep.destroyed.is_empty());
}

#[test]
fn a4_double_move() {
    let mut l = level("MIAU IS YOU / MIAU IS TICK / COG IS DEFEAT / m . . / g g g / . . .");
    automaton(&mut l, "drop", "TICK", None, 0, "D");
    let mut h = Harness::new(&l);
    let rep = h.ok('D');
    assert_eq!(h.pos("miau-1"), Some((0, 5)));
    assert!(rep.destroyed.is_empty());

    let mut l = level("MIAU IS YOU / . . . / COG IS DEFEAT / m . . / g g g / . . .");
    automaton(&mut l, "drop", "TICK", None, 0, "D");
    let mut h = Harness::new(&l);
    let rep = h.ok('D');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![("MIAU".into(), Cause::Defeat, (0, 4))]
    );
}

#[test]
fn a5_an_automatons_push_transforms_before_contact() {
    let mut l = level(
        "MIAU IS YOU . . / COG IS DEFEAT . . / BELL IS WIN . . / MOUSE IS TICK . . / COG IS . BELL u / m g . . .",
    );
    automaton(&mut l, "push-bell", "TICK", Some("MOUSE"), 0, "L");
    let mut h = Harness::new(&l);
    let rep = h.ok('R');
    assert_eq!(h.words_at(2, 4), strs(&["BELL"]));
    assert_eq!(h.noun("cog-1").as_deref(), Some("BELL"));
    assert!(
        rep.transformed
            .iter()
            .any(|t| t.when == When::AfterAutomata)
    );
    assert!(rep.destroyed.is_empty());
    assert!(rep.won);
}

#[test]
fn a6_the_word_carries_pattern_and_phase() {
    let mut l = level(
        "MIAU IS YOU . . . / . . m . . . / MOUSE IS TICK . . . / BELL IS . . . . / . . . . u . / . . . . e .",
    );
    automaton(&mut l, "pacer", "TICK", None, 0, "LR");
    let mut h = Harness::new(&l);
    h.ok('W');
    assert_eq!(h.pos("mouse-1"), Some((3, 4)));
    assert_eq!(h.game.phase(&h.state, 0), 1);
    h.ok('D');
    assert_eq!(h.words_at(2, 3), strs(&["TICK"]));
    assert!(rules(&h).contains(&"BELL IS TICK".into()));
    assert_eq!(h.pos("bell-1"), Some((5, 5)));
    assert_eq!(h.pos("mouse-1"), Some((3, 4)));
    assert_eq!(h.game.phase(&h.state, 0), 0);
}

#[test]
fn a7_a_paused_clock_keeps_its_phase() {
    let mut l = level(
        ". . m . . . / MOUSE IS TICK . . . / . . . . . . / . . . . . . / . . . MIAU IS YOU / u . . . . .",
    );
    automaton(&mut l, "pacer", "TICK", Some("MOUSE"), 0, "RRLL");
    let mut h = Harness::new(&l);
    h.ok('W');
    assert_eq!(
        (h.pos("mouse-1"), h.game.phase(&h.state, 0)),
        (Some((1, 5)), 1)
    );
    h.ok('D');
    assert_eq!(h.words_at(2, 2), strs(&["TICK"]));
    for c in "RDDL".chars() {
        h.ok(c);
        assert_eq!(
            (h.pos("mouse-1"), h.game.phase(&h.state, 0)),
            (Some((1, 5)), 1)
        );
    }
    h.ok('U');
    assert!(rules(&h).contains(&"MOUSE IS TICK".into()));
    assert_eq!(
        (h.pos("mouse-1"), h.game.phase(&h.state, 0)),
        (Some((2, 5)), 2)
    );
}

#[test]
fn a8_a_refused_move_is_no_beat() {
    let mut l = level("MIAU IS YOU . . / MOUSE IS TICK . . / . . . . . / m . . u .");
    automaton(&mut l, "pacer", "TICK", Some("MOUSE"), 0, "LRR");
    let mut h = Harness::new(&l);
    for c in ['L', 'D'] {
        let (why, b) = rejected(&h.input(c));
        assert_eq!((why, b[0].reason), (Rejection::Blocked, BlockReason::Edge));
        assert_eq!(
            (h.pos("mouse-1"), h.game.phase(&h.state, 0)),
            (Some((3, 3)), 0)
        );
    }
    h.ok('W');
    assert_eq!(
        (h.pos("mouse-1"), h.game.phase(&h.state, 0)),
        (Some((2, 3)), 1)
    );
}

// ---------------------------------------------------------------- 13.6

const PR1: &str = "MIAU IS YOU . . / KEY IS PUSH AND OPEN / DOOR IS STOP AND SHUT / m k = . .";

#[test]
fn pr1_key_into_door() {
    let mut l = level(PR1);
    pair(&mut l, "OPEN", "SHUT", true);
    let mut h = Harness::new(&l);
    let rep = h.ok('R');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![
            ("DOOR".into(), Cause::Pair(0), (2, 3)),
            ("KEY".into(), Cause::Pair(0), (2, 3))
        ]
    );
    assert_eq!(h.game.pairs[0].cause, "open");
    h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((2, 3)));
}

#[test]
fn pr2_without_enter() {
    let mut l = level(PR1);
    pair(&mut l, "OPEN", "SHUT", false);
    let mut h = Harness::new(&l);
    let (why, b) = rejected(&h.input('R'));
    assert_eq!(why, Rejection::Blocked);
    assert_eq!(
        (b[0].reason, b[0].blocker),
        (BlockReason::Stop, Some(h.id("door-1")))
    );
}

#[test]
fn pr3_one_for_one() {
    let mut l = level(&PR1.replace("m k =", "m k+k ="));
    pair(&mut l, "OPEN", "SHUT", true);
    let mut h = Harness::new(&l);
    let rep = h.ok('R');
    let ids: Vec<&str> = rep.destroyed.iter().map(|d| h.game.id(d.id)).collect();
    assert_eq!(ids, vec!["door-1", "key-1"]);
    assert_eq!(h.pos("key-2"), Some((2, 3)));
}

#[test]
fn pr4_on_its_beat() {
    let mut l = level(
        "MIAU IS YOU . . / MOUSE IS OPEN . . / MOUSE IS TICK . . / DOOR IS SHUT AND STOP / m . = u .",
    );
    pair(&mut l, "OPEN", "SHUT", true);
    automaton(&mut l, "knock", "TICK", Some("MOUSE"), 0, "L");
    let mut h = Harness::new(&l);
    let rep = h.ok('W');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![
            ("DOOR".into(), Cause::Pair(0), (2, 4)),
            ("MOUSE".into(), Cause::Pair(0), (2, 4))
        ]
    );
    h.ok('R');
    h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((2, 4)));
}

#[test]
fn pr5_never_with_itself() {
    let mut l = level("MIAU IS YOU . . / DOOR IS OPEN AND SHUT / m = . =+= .");
    pair(&mut l, "OPEN", "SHUT", true);
    let h = Harness::new(&l);
    assert_eq!(
        destroyed(&h, &h.reset.destroyed),
        vec![
            ("DOOR".into(), Cause::Pair(0), (3, 2)),
            ("DOOR".into(), Cause::Pair(0), (3, 2))
        ]
    );
    assert_eq!(h.things_at(1, 2), strs(&["DOOR"]));
}

#[test]
fn pr6_undeclared_pair_words() {
    let mut h = Harness::board("MIAU IS YOU . . / DOOR IS STOP AND SHUT / m = . . .");
    assert_eq!(h.noun("door-1").as_deref(), Some("SHUT"));
    h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((1, 2)));
}

// ---------------------------------------------------------------- 13.7

#[test]
fn go1_pallet_row() {
    let mut h = Harness::board(GO1);
    let route = "LUURRDULLDDRRRRUULLLRDDLLUU";
    for (i, c) in route.chars().enumerate() {
        let rep = h.ok(c);
        assert!(!rep.word_moved);
        assert_eq!(rep.won, i + 1 == 27, "turn {}", i + 1);
    }
}

#[test]
fn go2_short_one_crate() {
    let mut h = Harness::board(GO2);
    let route = "RRRRRURDLLLUULDULLDLDRRRRRRDDRRUURUL";
    let mut last = TurnReport::default();
    for (i, c) in route.chars().enumerate() {
        last = h.ok(c);
        assert_eq!(last.won, i + 1 == 36, "turn {}", i + 1);
    }
    assert_eq!(last.goals, (3, 3));
}

#[test]
fn go3_goal_rules() {
    let mut h = Harness::board("MIAU IS YOU . . / DOCK IS GOAL . . / m WIN o . .");
    let rep = h.ok('R');
    assert!(rep.won);
    assert_eq!(rep.goals, (1, 1));

    let mut h = Harness::board("MIAU IS YOU . . / DOCK IS GOAL AND PUSH / m o . . .");
    let rep = h.ok('R');
    assert_eq!((rep.won, rep.goals), (false, (0, 1)));

    let mut h =
        Harness::board("MIAU IS YOU . . / DOCK IS GOAL . . / CRATE IS PUSH . . / m $ o . o");
    let rep = h.ok('R');
    assert_eq!((rep.won, rep.goals), (false, (1, 2)));

    let mut h = Harness::board("MIAU IS YOU . . / DOCK IS GOAL AND SINK / m WIN o . .");
    let rep = h.ok('R');
    assert_eq!(rep.destroyed.len(), 2);
    assert_eq!((rep.won, rep.goals), (false, (0, 0)));
}

// ---------------------------------------------------------------- 13.8

#[test]
fn gt1_door_stop() {
    let mut h = Harness::board(GT1);
    for (i, c) in "LURRURDDURRRRRR".chars().enumerate() {
        let t = i + 1;
        let rep = h.ok(c);
        if t == 8 {
            assert_eq!(gate_causes(&h, &rep), vec![("gate-1".into(), "pressed")]);
        }
        if t == 12 {
            assert_eq!(
                destroyed(&h, &rep.destroyed),
                vec![
                    ("CRATE".into(), Cause::Sink, (8, 5)),
                    ("GAP".into(), Cause::Sink, (8, 5))
                ]
            );
        }
        assert_eq!(rep.won, t == 15, "turn {t}");
    }
}

#[test]
fn gt2_hand_off() {
    let mut h = Harness::board(GT2);
    for (i, c) in "LUDLURRRRRURRRR".chars().enumerate() {
        let t = i + 1;
        let rep = h.ok(c);
        if t == 5 {
            assert!(rules(&h).contains(&"CRATE IS YOU".into()));
        }
        if t == 11 {
            assert!(
                rep.blocked
                    .iter()
                    .any(|b| b.id == h.id("crate-1") && b.reason == BlockReason::Stop)
            );
            assert!(rep.moved.iter().any(|m| m.id == h.id("miau-1")));
        }
        if t == 12 {
            assert_eq!(gate_causes(&h, &rep), vec![("gate-1".into(), "pressed")]);
        }
        if t == 13 {
            assert_eq!(h.pos("miau-1"), h.pos("gate-1"));
        }
        assert_eq!(rep.won, t == 15, "turn {t}");
    }
}

#[test]
fn gt3_jam() {
    let mut h = Harness::board(GT3);
    for (i, c) in "RRRRRRR".chars().enumerate() {
        let t = i + 1;
        let rep = h.ok(c);
        let want: Vec<(String, &str)> = match t {
            4 => vec![("gate-1".into(), "pressed")],
            5 => vec![("gate-1".into(), "jammed")],
            6 => vec![("gate-1".into(), "released")],
            _ => vec![],
        };
        assert_eq!(gate_causes(&h, &rep), want, "turn {t}");
        assert_eq!(rep.won, t == 7, "turn {t}");
    }
}

#[test]
fn gt4_gates_ignore_rules() {
    let mut h = Harness::board("MIAU IS YOU . / GATE IS PUSH . / m | . _");
    let (why, b) = rejected(&h.input('R'));
    assert_eq!((why, b[0].reason), (Rejection::Blocked, BlockReason::Gate));

    let mut h = Harness::board("MIAU IS YOU . . / GATE IS STOP . . / m | . _+r .");
    assert!(h.game.open(&h.state, h.id("gate-1")));
    h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((1, 2)));
    h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((2, 2)));
}

#[test]
fn gt5_the_role_follows_the_noun() {
    let mut h = Harness::board("MIAU IS YOU . / GATE IS ROCK . / m | . _");
    assert_eq!(h.noun("gate-1").as_deref(), Some("ROCK"));
    assert_eq!(h.game.ents[h.id("gate-1") as usize].channel, Some(0));
    h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((1, 2)));
}

#[test]
fn gt6_jam_at_reset() {
    let mut h = Harness::board("MIAU IS YOU . / . . . . / m |+r . _");
    assert!(h.game.open(&h.state, h.id("gate-1")));
    for _ in 0..2 {
        let rep = h.ok('R');
        assert!(rep.gates.is_empty());
        assert!(h.game.open(&h.state, h.id("gate-1")));
    }
}

// ---------------------------------------------------------------- 13.9

#[test]
fn f1_one_plank_each() {
    let mut h = Harness::new(&f1());
    for (i, c) in "RRRRRRR".chars().enumerate() {
        let t = i + 1;
        let rep = h.ok(c);
        let got: Vec<_> = rep
            .crumbled
            .iter()
            .map(|k| {
                (
                    h.game.pos(&h.state, k.id),
                    k.to.map(|n| h.game.name(n).to_string()),
                )
            })
            .collect();
        let want = match t {
            5 => vec![(Some((5, 2)), Some("WATER".to_string()))],
            6 => vec![(Some((6, 2)), Some("WATER".to_string()))],
            7 => vec![(Some((7, 2)), Some("WATER".to_string()))],
            _ => vec![],
        };
        assert_eq!(got, want, "turn {t}");
    }
    assert_eq!(h.pos("miau-1"), Some((8, 2)));
    assert_eq!(h.words_at(9, 2), strs(&["WIN"]));
    assert_eq!(h.things_at(9, 2), strs(&["SHELL"]));
}

#[test]
fn f2_two_tides() {
    let mut l = level(F2);
    frail(&mut l, &[("SAND", "SHOAL"), ("SHOAL", "WATER")]);
    let mut h = Harness::new(&l);
    let route = "RRRRRRRURRDLLLLLLL";
    for (i, c) in route.chars().enumerate() {
        let t = i + 1;
        let rep = h.ok(c);
        let got: Vec<_> = rep
            .crumbled
            .iter()
            .map(|k| {
                (
                    h.game.pos(&h.state, k.id).unwrap(),
                    h.game.name(k.to.unwrap()).to_string(),
                )
            })
            .collect();
        let want: Vec<((u8, u8), String)> = match t {
            5 => vec![((5, 2), "SHOAL".into())],
            6 => vec![((6, 2), "SHOAL".into())],
            7 => vec![((7, 2), "SHOAL".into())],
            15 => vec![((7, 2), "WATER".into())],
            16 => vec![((6, 2), "WATER".into())],
            17 => vec![((5, 2), "WATER".into())],
            _ => vec![],
        };
        assert_eq!(got, want, "turn {t}");
    }
    assert_eq!(h.pos("is-word-2"), Some((2, 2)));
}

#[test]
fn f3_only_departures_count() {
    let mut h = Harness::board("MIAU IS YOU AND FRAIL / DRIFT IS FRAIL . . / m d . . .");
    assert!(h.ok('R').crumbled.is_empty());
    let rep = h.ok('R');
    assert_eq!(rep.crumbled.len(), 1);
    assert_eq!(h.game.id(rep.crumbled[0].id), "drift-1");
    assert_eq!(rep.crumbled[0].to, None);
    assert_eq!(h.pos("drift-1"), None);

    let mut l = level("MIAU IS YOU . . / DRIFT IS FRAIL . . / DRIFT IS . ROCK m+d");
    frail(&mut l, &[("DRIFT", "WATER")]);
    let mut h = Harness::new(&l);
    let rep = h.ok('L');
    assert!(rules(&h).contains(&"DRIFT IS ROCK".into()));
    assert_eq!(h.noun("drift-1").as_deref(), Some("ROCK"));
    assert!(rep.crumbled.is_empty());

    let mut l = level("MIAU IS YOU . . / DRIFT IS FRAIL . . / DRIFT . . ROCK m+d");
    frail(&mut l, &[("DRIFT", "WATER")]);
    let mut h = Harness::new(&l);
    let rep = h.ok('L');
    assert_eq!(rep.crumbled.len(), 1);
    assert_eq!(h.noun("drift-1").as_deref(), Some("WATER"));
}

#[test]
fn f4_automaton_crossing() {
    let mut l = level(
        "MOUSE IS TICK . . . / DRIFT IS FRAIL . . . / MIAU IS YOU . . . / u WIN+d d . . . / m . . . . .",
    );
    automaton(&mut l, "walker", "TICK", Some("MOUSE"), 0, "R");
    let mut h = Harness::new(&l);
    let rep = h.ok('W');
    assert_eq!(h.pos("mouse-1"), Some((1, 3)));
    assert_eq!(h.words_at(2, 3), strs(&["WIN"]));
    assert!(rep.crumbled.is_empty());
    let rep = h.ok('W');
    assert_eq!(rep.crumbled.len(), 1);
    assert_eq!(h.game.id(rep.crumbled[0].id), "drift-1");
    assert_eq!(h.pos("drift-1"), None);
    let rep = h.ok('W');
    assert_eq!(rep.crumbled.len(), 1);
    assert_eq!(h.game.id(rep.crumbled[0].id), "drift-2");
}

#[test]
fn f5_no_floor_layer() {
    let mut l = level("WATER IS SINK / MIAU IS YOU / DRIFT IS FRAIL / m w+d .");
    frail(&mut l, &[("DRIFT", "WATER")]);
    let h = Harness::new(&l);
    assert_eq!(
        destroyed(&h, &h.reset.destroyed),
        vec![
            ("DRIFT".into(), Cause::Sink, (1, 3)),
            ("WATER".into(), Cause::Sink, (1, 3))
        ]
    );
}

// ---------------------------------------------------------------- 13.10

#[test]
fn fl1_float_layers() {
    let mut h = Harness::board("MIAU IS YOU AND FLOAT / FLAG IS WIN . . / m f . . .");
    assert!(!h.ok('R').won);
    let h = Harness::board("MIAU IS YOU AND FLOAT / MIAU IS WIN . . / m . . . .");
    assert!(h.reset.won_at_start);
    let mut h = Harness::board("MIAU IS YOU AND FLOAT / ROCK IS DEFEAT AND FLOAT / m r . . .");
    let rep = h.ok('R');
    assert_eq!(
        destroyed(&h, &rep.destroyed),
        vec![("MIAU".into(), Cause::Defeat, (1, 2))]
    );
}

#[test]
fn fx1_fixed_words_refuse_pushes() {
    let mut h = Harness::board("MIAU IS YOU . . / . . . . . / m ROCK WIN! . .");
    let (why, b) = rejected(&h.input('R'));
    assert_eq!((why, b[0].reason), (Rejection::Blocked, BlockReason::Fixed));
    let mut h = Harness::board(". m . . / MIAU! IS! YOU! .");
    assert_eq!(rejected(&h.input('D')).1[0].reason, BlockReason::Fixed);
    h.ok('L');
}

#[test]
fn fx2_fixed_words_survive_sink() {
    let h = Harness::board("MIAU IS YOU . . / ROCK IS SINK . . / m STOP r+WIN! . .");
    assert_eq!(
        destroyed(&h, &h.reset.destroyed),
        vec![("ROCK".into(), Cause::Sink, (2, 2))]
    );
    assert_eq!(h.words_at(2, 2), strs(&["WIN"]));
}

#[test]
fn tr1_terrain() {
    let mut l = level("MIAU IS YOU . / . . . . / m # . .");
    terrain(&mut l, &["WALL"]);
    let mut h = Harness::new(&l);
    assert_eq!(h.rules()[0], "WALL IS STOP (terrain)");
    let (why, b) = rejected(&h.input('R'));
    assert_eq!((why, b[0].reason), (Rejection::Blocked, BlockReason::Stop));

    let mut l = level("MIAU IS YOU . / WALL IS PUSH . / m # . .");
    terrain(&mut l, &["WALL"]);
    let mut h = Harness::new(&l);
    h.ok('R');
    assert_eq!(h.pos("wall-1"), Some((2, 2)));

    let mut l = level("MIAU IS YOU . / WALL IS ROCK . / m # . .");
    terrain(&mut l, &["WALL"]);
    let mut h = Harness::new(&l);
    assert_eq!(h.noun("wall-1").as_deref(), Some("ROCK"));
    h.ok('R');
    assert_eq!(h.pos("miau-1"), Some((1, 2)));
}

// ---------------------------------------------------------------- search (§10.4)

#[test]
fn search_reproduces_short_published_routes() {
    search_cases(vec![
        ("A1", a1(), "DRRRRRRRRRR"),
        ("GT3", level(GT3), "RRRRRRR"),
    ]);
}

// The long published routes (GO1, GO2, GT1, GT2) are searched on the `.miau`
// fixtures by `tests/conformance.rs`, with the stage-4 solver.

fn search_cases(cases: Vec<(&str, model::Level, &str)>) {
    for (name, l, route) in cases {
        let got = testkit::solve(&l, 5_000_000);
        assert_eq!(got.as_deref(), Some(route), "{name}");
    }
}

#[test]
fn replay_prints_result_lines() {
    let out = replay(&level(GT3), "RRRRRRR", false, &testkit::key_of);
    assert!(
        out.text.ends_with("result: won in 7 turns\n"),
        "{}",
        out.text
    );
    assert_eq!(out.result, ReplayResult::Won { turns: 7 });
    let out = replay(&level(GT3), "LLL", false, &testkit::key_of);
    assert!(
        out.text
            .ends_with("input 2 L rejected (blocked): MIAU at column 1, row 3 was blocked by WALL\nresult: not won after 1 turn\n"),
        "{}",
        out.text
    );
    let out = replay(
        &level("MIAU IS YOU . . / SHELL IS WIN AND SINK / m s . . ."),
        "R",
        true,
        &testkit::key_of,
    );
    assert!(
        out.text.ends_with("result: lost control after 1 turn\n"),
        "{}",
        out.text
    );
    let out = replay(&a1(), "DRRRRRRRRRR", true, &testkit::key_of);
    assert!(
        out.text.contains("turn 5 R\n  + BELL IS WIN\n"),
        "{}",
        out.text
    );
}

#[test]
fn render_uses_board_notation() {
    let h = Harness::board("MIAU IS YOU . / . . . . / m |+r WIN! _");
    let b = h.game.render_board(&h.state, &testkit::key_of);
    assert_eq!(b, "MIAU IS  YOU  .\n.    .   .    .\nm    |+r WIN! _\n");
}
