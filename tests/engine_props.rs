//! Property tests of the engine on levels that go through the real front end:
//! random `.miau` sources (boards of words, legend keys, stacks and fixed
//! words, with optional automaton, pair, frail and terrain statements) are
//! compiled, and the engine must never panic on them, and undo must restore
//! exactly the state a shorter replay reaches.

use miau::compile::{SourceKind, compile};
use miau::diag::Severity;
use miau::engine::{Game, Input, Play, State, TurnResult, replay};
use miau::model::Level;
use proptest::prelude::*;

/// Board cells: empties weighted up, default-legend keys, words of every
/// class, stacks mixing things and words, and fixed words.
const CELLS: &[&str] = &[
    ".",
    ".",
    ".",
    ".",
    ".",
    "m",
    "m",
    "r",
    "f",
    "w",
    "j",
    "s",
    "c",
    "b",
    "g",
    "u",
    "e",
    "k",
    "=",
    "d",
    "a",
    "h",
    "#",
    "$",
    "~",
    "&",
    "@",
    "o",
    "_",
    "|",
    "MIAU",
    "ROCK",
    "FLAG",
    "WALL",
    "CRATE",
    "DOCK",
    "MOUSE",
    "KEY",
    "DOOR",
    "WATER",
    "GATE",
    "PLATE",
    "IS",
    "IS",
    "AND",
    "YOU",
    "WIN",
    "PUSH",
    "STOP",
    "SINK",
    "DEFEAT",
    "GOAL",
    "FLOAT",
    "FRAIL",
    "TICK",
    "OPEN",
    "SHUT",
    "m+r",
    "w+b",
    "k+=",
    "_+$",
    "|+m",
    "ROCK+FLAG",
    "IS+AND",
    "WIN+DEFEAT",
    "f+WIN",
    "WIN!",
    "IS!",
    "MIAU!",
    "r+PUSH!",
];

/// A random level: a board plus optional mechanics statements.
#[derive(Debug, Clone)]
struct Spec {
    width: usize,
    cells: Vec<&'static str>,
    automaton: Option<(String, Option<&'static str>, usize)>,
    pair: Option<bool>,
    frail: Option<Vec<(&'static str, &'static str)>>,
    terrain: Vec<&'static str>,
}

fn spec() -> impl Strategy<Value = Spec> {
    let board = (3usize..8, 2usize..7).prop_flat_map(|(w, h)| {
        (
            Just(w),
            prop::collection::vec(prop::sample::select(CELLS), w * h),
        )
    });
    let automaton = prop::option::of((
        "[UDLRW]{1,6}",
        prop::option::of(prop::sample::select(vec!["MIAU", "ROCK", "MOUSE", "COG"])),
        0usize..6,
    ));
    let leaves = prop::collection::vec(
        prop::sample::select(vec![
            ("DRIFT", "WATER"),
            ("ROCK", "FLAG"),
            ("SAND", "SHOAL"),
            ("SHOAL", "WATER"),
        ]),
        0..3,
    );
    let terrain = prop::sample::select(vec![vec![], vec!["WALL"], vec!["WALL", "ROCK"]]);
    (
        board,
        any::<bool>(),
        automaton,
        prop::option::of(any::<bool>()),
        prop::option::of(leaves),
        terrain,
    )
        .prop_map(
            |((width, mut cells), seeded, automaton, pair, frail, terrain)| {
                // Half the boards start `MIAU IS YOU` over a cat, so most
                // of their plays move, push, parse and transform.
                if seeded {
                    cells[..3].copy_from_slice(&["MIAU", "IS", "YOU"]);
                    cells[width] = "m";
                }
                let automaton = automaton.map(|(p, s, ph)| {
                    let ph = ph % p.len();
                    (p, s, ph)
                });
                Spec {
                    width,
                    cells,
                    automaton,
                    pair,
                    frail,
                    terrain,
                }
            },
        )
}

impl Spec {
    /// The `.miau` source of a one-level pack.
    fn source(&self) -> String {
        let mut s = String::from(
            "pack random-level {\n  name \"Random\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n",
        );
        s.push_str("level random {\n  title \"Random\"\n");
        if let Some((pattern, subject, phase)) = &self.automaton {
            s.push_str("  automaton clock property TICK");
            if let Some(subject) = subject {
                s.push_str(&format!(" subject {subject}"));
            }
            s.push_str(&format!(" phase {phase} pattern \"{pattern}\"\n"));
        }
        if let Some(enter) = self.pair {
            s.push_str("  pair OPEN SHUT effect destroy-both");
            s.push_str(if enter { " enter\n" } else { "\n" });
        }
        // A FRAIL tile needs a frail statement (M243); a bare one means
        // "every crumble removes".
        let frail = match &self.frail {
            Some(l) => Some(l.clone()),
            None if self.cells.iter().any(|c| c.contains("FRAIL")) => Some(Vec::new()),
            None => None,
        };
        if let Some(leaves) = frail {
            let mut seen = Vec::new();
            let list: Vec<String> = leaves
                .iter()
                .filter(|(from, _)| {
                    let new = !seen.contains(from);
                    seen.push(*from);
                    new
                })
                .map(|(a, b)| format!("{a} -> {b}"))
                .collect();
            s.push_str(&format!("  frail {}\n", list.join(", ")).replace("frail \n", "frail\n"));
        }
        if !self.terrain.is_empty() {
            s.push_str(&format!("  terrain {}\n", self.terrain.join(" ")));
        }
        s.push_str("  board {\n");
        for row in self.cells.chunks(self.width) {
            s.push_str(&format!("    {}\n", row.join(" ")));
        }
        s.push_str("  }\n}\n");
        s
    }
}

/// Compiles a source; the error diagnostics when the front end rejects it.
fn compiled(source: &str) -> Result<Level, Vec<String>> {
    let c = compile(source, SourceKind::Miau);
    let errors: Vec<String> = c
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.code(), d.message))
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(c.pack.expect("a pack").levels.remove(0))
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
        0..30,
    )
}

/// The state after playing `moves` from reset, and the number of accepted turns.
fn replay_state(game: &Game, moves: &[Input]) -> (State, usize) {
    let mut play = Play::new(game);
    for &m in moves {
        let _ = play.input(m);
    }
    (play.state().clone(), play.turns())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The generator only writes levels the front end accepts, so the
    /// properties below cover the whole space of accepted random levels.
    #[test]
    fn random_sources_compile(spec in spec()) {
        let source = spec.source();
        let level = compiled(&source);
        prop_assert!(level.is_ok(), "{source}\n{:#?}", level.err());
    }

    /// replay(moves) then undo × n equals replay(prefix), where the prefix ends
    /// before the n last accepted inputs: entities, ids, nouns, `open` flags,
    /// phases and `won` are all in the state.
    #[test]
    fn undo_equals_replaying_a_prefix(spec in spec(), moves in inputs(), n in 0usize..32) {
        let source = spec.source();
        let level = compiled(&source).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let game = Game::new(&level);
        let mut play = Play::new(&game);
        let mut accepted_at = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            if play.input(m).accepted() {
                accepted_at.push(i);
            }
        }
        prop_assert_eq!(play.turns(), accepted_at.len());
        let n = n.min(accepted_at.len());
        for _ in 0..n {
            prop_assert!(play.undo());
        }
        let keep = accepted_at.len() - n;
        let prefix = if keep == 0 { &moves[..0] } else { &moves[..=accepted_at[keep - 1]] };
        let (want, turns) = replay_state(&game, prefix);
        prop_assert_eq!(play.turns(), turns);
        prop_assert_eq!(play.state(), &want, "{}", source);
        prop_assert_eq!(game.key(play.state()), game.key(&want));
        prop_assert_eq!(game.live(play.state()), game.live(&want));
        for e in game.live(&want) {
            prop_assert_eq!(game.pos(play.state(), e), game.pos(&want, e));
            prop_assert_eq!(game.noun(play.state(), e), game.noun(&want, e));
            prop_assert_eq!(game.open(play.state(), e), game.open(&want, e));
        }
        for i in 0..game.automata.len() {
            prop_assert_eq!(game.phase(play.state(), i), game.phase(&want, i));
        }
        // Undoing everything is the reset state again.
        while play.undo() {}
        prop_assert_eq!(play.state(), &Play::new(&game).state().clone());
    }

    /// No panic on any accepted level for any inputs, through every entry
    /// point a shell uses: reset, step, undo, rules, rendering and replay.
    #[test]
    fn accepted_levels_never_panic(spec in spec(), moves in inputs(), undo_every in 2usize..6) {
        let source = spec.source();
        let level = compiled(&source).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        let game = Game::new(&level);
        let mut play = Play::new(&game);
        let key_of = |_: &str, _: Option<&str>| None;
        for (i, &m) in moves.iter().enumerate() {
            match play.input(m) {
                TurnResult::Accepted { state, report } => {
                    prop_assert_eq!(&state, play.state());
                    prop_assert_eq!(report.won, play.state().won());
                }
                TurnResult::Rejected { .. } => {}
            }
            let _ = game.rules(play.state());
            let _ = game.props(play.state());
            let _ = game.render_board(play.state(), &key_of);
            if i % undo_every == undo_every - 1 {
                play.undo();
            }
        }
        let letters: String = moves.iter().map(|m| m.letter()).collect();
        let out = replay(&level, &letters, false, &key_of);
        prop_assert!(out.text.lines().last().is_some_and(|l| l.starts_with("result: ")));
        let _ = replay(&level, &letters, true, &key_of);
    }
}
