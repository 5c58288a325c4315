//! Building levels from the conformance notation of `rules.md` §13, for tests
//! and benchmarks, independently of the `.miau` front end.
//!
//! Ids follow the front end's scheme in spirit: things are numbered per noun
//! in reading order (`key-1`, `key-2`), words per text (`win-word-1`).

use super::game::{EntId, Game};
use super::parse::Axis;
use super::report::{Input, ResetReport, TurnReport, TurnResult};
use super::state::State;
use crate::model::{Automaton, Frail, Kind, Level, Named, Object, Pair, Step};
use std::collections::BTreeMap;

/// The legend of §13: key, noun, channel.
pub const LEGEND: &[(char, &str, Option<&str>)] = &[
    ('m', "MIAU", None),
    ('r', "ROCK", None),
    ('f', "FLAG", None),
    ('w', "WATER", None),
    ('j', "JELLY", None),
    ('s', "SHELL", None),
    ('c', "CRAB", None),
    ('b', "BOAT", None),
    ('g', "COG", None),
    ('u', "MOUSE", None),
    ('e', "BELL", None),
    ('k', "KEY", None),
    ('=', "DOOR", None),
    ('d', "DRIFT", None),
    ('a', "SAND", None),
    ('h', "SHOAL", None),
    ('#', "WALL", None),
    ('$', "CRATE", None),
    ('~', "GAP", None),
    ('&', "TRUCK", None),
    ('@', "MIAU", None),
    ('o', "DOCK", None),
    ('_', "PLATE", Some("amber")),
    ('|', "GATE", Some("amber")),
];

/// Random boards for the property tests of the engine and of the solver's
/// forbidden events: `widths` × `heights` cells, each drawn from `cells`
/// (a cell listed twice is drawn twice as often), as rows. Each caller sets
/// its own fixed cells (a `MIAU IS YOU` row, a player) and writes the board
/// with [`board_text`]. Only in the crate's own tests, where the
/// dev-dependency proptest is.
#[cfg(test)]
pub fn random_grid(
    cells: &'static [&'static str],
    widths: std::ops::Range<usize>,
    heights: std::ops::Range<usize>,
) -> impl proptest::strategy::Strategy<Value = Vec<Vec<&'static str>>> {
    use proptest::prelude::*;
    (widths, heights).prop_flat_map(move |(w, h)| {
        prop::collection::vec(prop::sample::select(cells), w * h)
            .prop_map(move |cells| cells.chunks(w).map(<[_]>::to_vec).collect())
    })
}

/// Rows of cells as a board in the notation [`level`] reads: cells apart
/// by spaces, one row a line.
pub fn board_text<S: AsRef<str>>(rows: &[Vec<S>]) -> String {
    rows.iter()
        .map(|r| r.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The legend key of a noun with its channel (the first one listed), for
/// rendering; a channel the legend doesn't list falls back to the noun's key.
pub fn key_of(noun: &str, channel: Option<&str>) -> Option<String> {
    LEGEND
        .iter()
        .find(|l| l.1 == noun && l.2 == channel)
        .or_else(|| LEGEND.iter().find(|l| l.1 == noun))
        .map(|l| l.0.to_string())
}

/// A level from a board in §13 notation: rows separated by newlines or ` / `,
/// cells by spaces, `.` empty, legend keys, `WORD`, `WORD!`, `a+b`. Rows may
/// differ in length; the width is the longest row.
pub fn level(board: &str) -> Level {
    let rows: Vec<Vec<&str>> = board
        .split(['\n', '/'])
        .map(|r| r.split_whitespace().collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let width = rows.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let mut objects = Vec::new();
    let mut counters: BTreeMap<String, usize> = BTreeMap::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if *cell == "." {
                continue;
            }
            for part in cell.split('+') {
                let mut chars = part.chars();
                let legend = match (chars.next(), chars.next()) {
                    (Some(c), None) => LEGEND.iter().find(|l| l.0 == c),
                    _ => None,
                };
                let (kind, text, fixed, channel) = match legend {
                    Some(l) => (Kind::Thing, l.1.to_string(), false, l.2.map(str::to_string)),
                    None => {
                        let fixed = part.ends_with('!');
                        (
                            Kind::Word,
                            part.trim_end_matches('!').to_string(),
                            fixed,
                            None,
                        )
                    }
                };
                let base = match kind {
                    Kind::Thing => text.to_ascii_lowercase(),
                    Kind::Word => format!("{}-word", text.to_ascii_lowercase()),
                };
                let n = counters.entry(base.clone()).or_insert(0);
                *n += 1;
                objects.push(Object {
                    id: format!("{base}-{n}"),
                    kind,
                    text,
                    x: x as u32,
                    y: y as u32,
                    fixed,
                    channel,
                    span: Default::default(),
                    part: Default::default(),
                    legend: Default::default(),
                });
            }
        }
    }
    Level {
        id: Named::new("test"),
        width: width as u32,
        height: rows.len().max(1) as u32,
        objects,
        ..Level::default()
    }
}

/// `automaton ID property P [subject S] [phase N] pattern "…"`.
pub fn automaton(
    l: &mut Level,
    id: &str,
    property: &str,
    subject: Option<&str>,
    phase: u64,
    pattern: &str,
) {
    l.automata.push(Automaton {
        id: Named::new(id),
        subject: subject.map(Named::new),
        property: Named::new(property),
        phase: Some(phase),
        pattern: pattern.chars().filter_map(Step::from_letter).collect(),
        span: Default::default(),
    });
}

/// `pair A B effect destroy-both [enter]`.
pub fn pair(l: &mut Level, a: &str, b: &str, enter: bool) {
    l.pairs.push(Pair {
        words: vec![Named::new(a), Named::new(b)],
        effect: "destroy-both".into(),
        enter,
        span: Default::default(),
    });
}

/// `frail A -> B, …`.
pub fn frail(l: &mut Level, leaves: &[(&str, &str)]) {
    l.frail = Some(Frail {
        leaves: leaves
            .iter()
            .map(|(a, b)| (Named::new(*a), Named::new(*b)))
            .collect(),
        span: Default::default(),
    });
}

/// `terrain N …`.
pub fn terrain(l: &mut Level, nouns: &[&str]) {
    l.terrain = nouns.iter().map(|n| Named::new(*n)).collect();
}

/// The rule list of `state` as `SUBJECT IS PREDICATE (axis)`, in reading
/// order: the form every conformance assertion compares against.
pub fn rule_list(game: &Game, state: &State) -> Vec<String> {
    game.rules(state)
        .records
        .iter()
        .map(|r| {
            let axis = match r.axis {
                Axis::H => "h",
                Axis::V => "v",
                Axis::Terrain => "terrain",
            };
            format!(
                "{} IS {} ({axis})",
                game.name(r.subject),
                game.name(r.predicate)
            )
        })
        .collect()
}

/// [`rule_list`] entries with the axis dropped: `SUBJECT IS PREDICATE`.
pub fn without_axes(rules: Vec<String>) -> Vec<String> {
    rules
        .into_iter()
        .map(|r| r.split(" (").next().unwrap_or_default().to_string())
        .collect()
}

/// A game with its current state, fed one input at a time.
pub struct Harness {
    /// The compiled level.
    pub game: Game,
    /// The current state.
    pub state: State,
    /// What reset reported.
    pub reset: ResetReport,
    /// Accepted turns so far.
    pub turns: usize,
}

impl Harness {
    /// Compiles and resets a level.
    pub fn new(level: &Level) -> Harness {
        let game = Game::new(level);
        let (state, reset) = game.reset();
        Harness {
            game,
            state,
            reset,
            turns: 0,
        }
    }

    /// A board in §13 notation, compiled and reset.
    pub fn board(board: &str) -> Harness {
        Harness::new(&level(board))
    }

    /// Plays one input letter; an accepted turn updates the state.
    pub fn input(&mut self, c: char) -> TurnResult {
        let input = Input::from_char(c).expect("an input letter");
        let r = self.game.step(&self.state, input);
        if let TurnResult::Accepted { state, .. } = &r {
            self.state = state.clone();
            self.turns += 1;
        }
        r
    }

    /// Plays an input string and returns each result.
    pub fn run(&mut self, moves: &str) -> Vec<TurnResult> {
        moves.chars().map(|c| self.input(c)).collect()
    }

    /// Plays one input that must be accepted and returns its report.
    pub fn ok(&mut self, c: char) -> TurnReport {
        match self.input(c) {
            TurnResult::Accepted { report, .. } => *report,
            r => panic!("input {c} rejected: {r:?}"),
        }
    }

    /// The rule list as `SUBJECT IS PREDICATE (axis)`, in reading order.
    pub fn rules(&self) -> Vec<String> {
        rule_list(&self.game, &self.state)
    }

    /// The rule list as `SUBJECT IS PREDICATE`, in reading order.
    pub fn rule_texts(&self) -> Vec<String> {
        without_axes(self.rules())
    }

    /// Nouns of the things at a cell, in id order.
    pub fn things_at(&self, x: u8, y: u8) -> Vec<String> {
        self.at(x, y, false)
    }

    /// Texts of the words at a cell, in id order.
    pub fn words_at(&self, x: u8, y: u8) -> Vec<String> {
        self.at(x, y, true)
    }

    fn at(&self, x: u8, y: u8, words: bool) -> Vec<String> {
        (0..self.game.len() as EntId)
            .filter(|&e| {
                self.game.ents[e as usize].word == words
                    && self.game.pos(&self.state, e) == Some((x, y))
            })
            .map(|e| {
                self.game
                    .name(self.game.noun(&self.state, e).unwrap_or(0))
                    .to_string()
            })
            .collect()
    }

    /// The entity with this id.
    pub fn id(&self, id: &str) -> EntId {
        self.game
            .find(id)
            .unwrap_or_else(|| panic!("no entity {id}"))
    }

    /// The cell of an entity by id.
    pub fn pos(&self, id: &str) -> Option<(u8, u8)> {
        self.game.pos(&self.state, self.id(id))
    }

    /// The noun of an entity by id.
    pub fn noun(&self, id: &str) -> Option<String> {
        self.game
            .noun(&self.state, self.id(id))
            .map(|t| self.game.name(t).to_string())
    }
}

/// A plain breadth-first search per §10.4 (`U D L R`, then `W` with
/// automata), for checking published routes; `None` when unsolved within
/// `budget` states.
pub fn solve(level: &Level, budget: usize) -> Option<String> {
    solve_counted(level, budget).0
}

/// [`solve`], also returning how many states were stored.
pub fn solve_counted(level: &Level, budget: usize) -> (Option<String>, usize) {
    use super::scratch::Scratch;
    use std::collections::HashSet;
    let game = Game::new(level);
    let (start, _) = game.reset();
    let mut inputs = Input::MOVES.to_vec();
    if !game.automata.is_empty() {
        inputs.push(Input::Wait);
    }
    let mut seen: HashSet<Box<[u8]>> = HashSet::new();
    seen.insert(game.key(&start));
    let mut states = vec![start];
    let mut parent: Vec<(u32, Input)> = vec![(u32::MAX, Input::Wait)];
    let mut sc = Scratch::default();
    let mut report = TurnReport::default();
    let route = |parent: &[(u32, Input)], mut i: usize, last: Input| {
        let mut out = vec![last.letter()];
        while parent[i].0 != u32::MAX {
            out.push(parent[i].1.letter());
            i = parent[i].0 as usize;
        }
        out.iter().rev().collect::<String>()
    };
    let mut head = 0;
    while head < states.len() {
        let s = states[head].clone();
        for &inp in &inputs {
            if let Ok(state) = game.step_into(&s, inp, &mut sc, false, &mut report) {
                if report.won {
                    return (Some(route(&parent, head, inp)), states.len());
                }
                if report.lost_control || !seen.insert(game.key(&state)) {
                    continue;
                }
                if states.len() >= budget {
                    return (None, states.len());
                }
                states.push(state);
                parent.push((head as u32, inp));
            }
        }
        head += 1;
    }
    (None, states.len())
}

/// Board of case A1 (`rules.md` §13).
pub const A1: &str = "
MIAU IS   YOU . WALL IS  STOP . MOUSE IS TICK
.    .    .   . .    .   .    . .     .  .
#    #    #   # #    #   #    # #     #  #
#    BELL IS  . .    WIN .    . .     u  #
#    #    #   # #    #   #    # #     #  #
m    .    .   . .    .   .    . .     .  .
.    .    .   . .    .   .    . .     .  e";

/// Board of case GO1 (`rules.md` §13).
pub const GO1: &str = "
MIAU IS YOU . WALL IS STOP . CRATE IS PUSH .
#    #  #   # #    #  #    # #     #  #    #
#    o  .   . #    .  #    # #     #  #    #
#    .  $   . .    .  .    # #     #  #    #
#    .  #   $ #    .  .    # DOCK  IS GOAL #
#    .  @   . .    .  o    # #     #  #    #
#    #  #   # #    #  #    # #     #  #    #";

/// Board of case GO2 (`rules.md` §13).
pub const GO2: &str = "
MIAU IS YOU .    WALL IS   STOP . CRATE IS PUSH .
#    #  #   #    #    #    #    # #     #  #    #
#    .  .   .    .    .    #    . .     .  .    #
#    .  $   .    $    .    #    . o     .  .    #
#    .  @   .    .    .    WIN  . o     .  .    #
#    .  .   .    .    .    #    . o     .  .    #
#    #  #   #    #    #    #    . .     .  .    #
#    #  #   #    #    #    #    # #     #  #    #
.    .  .   DOCK IS   GOAL .    . .     .  .    .";

/// Board of case GT1 (`rules.md` §13).
pub const GT1: &str = "
MIAU IS YOU  . WALL IS STOP .     CRATE IS  PUSH .
.    .  .    . .    .  .    .     .     .   .    .
GAP  IS SINK . .    .  .    .     .     .   .    .
#    #  #    # #    #  #    #     #     #   #    #
#    .  .    . .    .  #    TRUCK IS    WIN #    #
#    .  $    . $    .  |    .     ~     .   &    #
#    .  @    . .    .  #    #     #     #   #    #
#    .  .    . _    .  #    #     #     #   #    #
#    #  #    # #    #  #    #     #     #   #    #";

/// Board of case GT2 (`rules.md` §13).
pub const GT2: &str = "
WALL IS    STOP .    TRUCK IS  WIN . . . .
#    #     #    #    #     #   #   # # # #
#    .     .    .    .     .   .   . # # #
#    .     .    MIAU IS    YOU .   . | . &
#    CRATE AND  .    .     .   .   . # # #
#    .     .    @    .     .   .   . # # #
#    #     #    #    #     #   #   # # # #
#    $     .    .    .     .   .   _ # # #
#    #     #    #    #     #   #   # # # #";

/// Board of case GT3 (`rules.md` §13).
pub const GT3: &str = "
MIAU IS YOU . WALL IS STOP . TRUCK IS WIN
#    #  #   # #    #  #    # #     #  #
#    .  .   . .    .  .    # .     .  #
#    .  @   . $    .  _    | .     &  #
#    .  .   . .    .  .    # .     .  #
#    #  #   # #    #  #    # #     #  #";

/// Board of case F1 (`rules.md` §13).
pub const F1: &str = "
MIAU  IS YOU   .   . w w w .     .  .
.     .  .     .   . w w w .     .  .
.     m  .     WIN . d d d .     s  .
.     .  .     .   . w w w .     .  .
DRIFT IS FRAIL .   . w w w SHELL IS .
.     .  .     .   . w w w .     .  .
.     .  .     .   . w w w WATER IS SINK";

/// Board of case F2 (`rules.md` §13).
pub const F2: &str = "
MIAU  IS  YOU   .  .     w w w .     .  .    .
.     .   .     .  .     w w w .     .  .    .
.     m   .     .  .     a a a .     IS .    .
.     .   r     .  .     w w w .     .  .    .
SAND  AND SHOAL IS FRAIL w w w .     .  .    .
.     .   .     .  .     w w w .     .  .    .
SHELL .   WIN   .  s     w w w WATER IS SINK .";

/// Level of case A1 with its mechanics.
pub fn a1() -> Level {
    let mut l = level(A1);
    automaton(
        &mut l,
        "mouse-shuttle",
        "TICK",
        Some("MOUSE"),
        0,
        "LLLLLRRRRR",
    );
    l
}

/// Level of case F1 with its mechanics.
pub fn f1() -> Level {
    let mut l = level(F1);
    frail(&mut l, &[("DRIFT", "WATER")]);
    l
}

/// The conformance levels with published routes, for benchmarks: (name, level, route).
/// F1's route is the case's input string, not a search result.
pub fn catalogue() -> Vec<(String, Level, String)> {
    vec![
        ("A1".into(), a1(), "DRRRRRRRRRR".into()),
        ("F1".into(), f1(), "RRRRRRR".into()),
        (
            "GO1".into(),
            level(GO1),
            "LUURRDULLDDRRRRUULLLRDDLLUU".into(),
        ),
        (
            "GO2".into(),
            level(GO2),
            "RRRRRURDLLLUULDULLDLDRRRRRRDDRRUURUL".into(),
        ),
        ("GT1".into(), level(GT1), "LURRURDDURRRRRR".into()),
        ("GT2".into(), level(GT2), "LUDLURRRRRURRRR".into()),
        ("GT3".into(), level(GT3), "RRRRRRR".into()),
    ]
}
