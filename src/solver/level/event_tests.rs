//! Forbidden events: searches that forbid one against a plain breadth-first
//! search over the reference engine's detailed turns, with each filter
//! written again here from the report and the settled states alone.

use super::solve::search_space;
use super::*;
use crate::engine::{By, Cause, GateCause, Scratch, TurnResult, testkit};
use crate::solver::{Limits, Verdict};
use proptest::prelude::*;
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::AtomicBool;

/// The property bits the tests read, as the engine numbers them.
const YOU: u64 = 1;
const PUSH: u64 = 1 << 1;
const WIN: u64 = 1 << 3;
const SINK: u64 = 1 << 4;
const DEFEAT: u64 = 1 << 5;
const GOAL: u64 = 1 << 6;
const FLOAT: u64 = 1 << 8;

fn nouns(list: &[&str]) -> Vec<String> {
    list.iter().map(|n| n.to_string()).collect()
}

/// Every filter, on nouns the boards below use.
fn filters() -> Vec<EventFilter> {
    use EventFilter::*;
    vec![
        Lost {
            nouns: nouns(&["MIAU"]),
        },
        Lost {
            nouns: nouns(&["CRAB", "JELLY"]),
        },
        Lost { nouns: vec![] },
        Destroyed {
            nouns: vec![],
            cause: Some(DestroyCause::Sink),
        },
        Destroyed {
            nouns: vec![],
            cause: Some(DestroyCause::Defeat),
        },
        Destroyed {
            nouns: vec![],
            cause: Some(DestroyCause::Pair),
        },
        Destroyed {
            nouns: nouns(&["ROCK"]),
            cause: None,
        },
        Crumbled { nouns: vec![] },
        Crumbled {
            nouns: nouns(&["SAND"]),
        },
        Transformed { into: vec![] },
        Transformed {
            into: nouns(&["SHELL"]),
        },
        GateOpened { channel: None },
        GateOpened {
            channel: Some("amber".into()),
        },
        GateOpened {
            channel: Some("red".into()),
        },
        AutomatonMoved,
        AutomatonPushedWord,
        Pushed { nouns: vec![] },
        Pushed {
            nouns: nouns(&["CRATE"]),
        },
        FloatApart,
        GoalFilled,
    ]
}

/// The noun names of tokens `list` holds in `game`.
fn named(game: &Game, names: &[String], t: crate::engine::Tok) -> bool {
    names.is_empty() || names.iter().any(|n| game.tok(n) == Some(t))
}

/// The covered GOAL things of a settled state, from its property sets and
/// cells: a GOAL thing with a PUSH entity of its layer in its cell.
fn covered(game: &Game, s: &State) -> u32 {
    let props = game.props(s);
    let live = game.live(s);
    let mut n = 0;
    for &g in &live {
        let p = props[usize::from(g)];
        if p & GOAL == 0 {
            continue;
        }
        let lay = p & FLOAT;
        if live.iter().any(|&o| {
            o != g
                && game.pos(s, o) == game.pos(s, g)
                && props[usize::from(o)] & FLOAT == lay
                && props[usize::from(o)] & PUSH != 0
        }) {
            n += 1;
        }
    }
    n
}

/// Whether two property sets meet in the contact pass on one layer.
fn meet(game: &Game, a: u64, b: u64) -> bool {
    let either = |x: u64, y: u64| (a & x != 0 && b & y != 0) || (b & x != 0 && a & y != 0);
    let pair = game
        .pairs
        .iter()
        .any(|p| either(game.vocab.prop_bit(p.a), game.vocab.prop_bit(p.b)));
    (a | b) & SINK != 0 || either(DEFEAT, YOU) || either(WIN, YOU) || either(GOAL, PUSH) || pair
}

/// Whether a moved entity ends the turn beside one of the other layer
/// that it would meet.
fn float_apart(game: &Game, after: &State, report: &TurnReport) -> bool {
    let props = game.props(after);
    let live = game.live(after);
    report.moved.iter().any(|m| {
        live.contains(&m.id)
            && live.iter().any(|&o| {
                let (a, b) = (props[usize::from(m.id)], props[usize::from(o)]);
                o != m.id
                    && game.pos(after, o) == game.pos(after, m.id)
                    && (a ^ b) & FLOAT != 0
                    && meet(game, a, b)
            })
    })
}

/// The filter on one detailed turn of the reference engine.
fn happens(f: &EventFilter, game: &Game, before: &State, after: &State, r: &TurnReport) -> bool {
    let word = |id: crate::engine::EntId| game.ents[usize::from(id)].word;
    let cause_is = |c: Cause, want: Option<DestroyCause>| {
        matches!(
            (c, want),
            (_, None)
                | (Cause::Sink, Some(DestroyCause::Sink))
                | (Cause::Defeat, Some(DestroyCause::Defeat))
                | (Cause::Pair(_), Some(DestroyCause::Pair))
        )
    };
    match f {
        EventFilter::Lost { nouns } => {
            r.destroyed
                .iter()
                .any(|d| !word(d.id) && named(game, nouns, d.what))
                || r.crumbled.iter().any(|c| named(game, nouns, c.from))
                || r.transformed
                    .iter()
                    .any(|t| t.from != t.to && named(game, nouns, t.from))
        }
        EventFilter::Destroyed { nouns, cause } => r.destroyed.iter().any(|d| {
            cause_is(d.cause, *cause)
                && (nouns.is_empty() || (!word(d.id) && named(game, nouns, d.what)))
        }),
        EventFilter::Crumbled { nouns } => r.crumbled.iter().any(|c| named(game, nouns, c.from)),
        EventFilter::Transformed { into } => r.transformed.iter().any(|t| named(game, into, t.to)),
        EventFilter::GateOpened { channel } => r.gates.iter().any(|g| {
            g.cause == GateCause::Pressed
                && !g.from
                && channel
                    .as_deref()
                    .is_none_or(|c| game.channel_name(g.id) == Some(c))
        }),
        EventFilter::AutomatonMoved => r.moved.iter().any(|m| matches!(m.by, By::Automaton(_))),
        EventFilter::AutomatonPushedWord => r
            .moved
            .iter()
            .any(|m| matches!(m.by, By::Automaton(_)) && m.pushed && word(m.id)),
        EventFilter::Pushed { nouns } => r.moved.iter().any(|m| {
            m.pushed
                && !word(m.id)
                && [before, after]
                    .iter()
                    .any(|s| game.noun(s, m.id).is_some_and(|t| named(game, nouns, t)))
        }),
        EventFilter::FloatApart => float_apart(game, after, r),
        EventFilter::GoalFilled => covered(game, after) > covered(game, before),
    }
}

/// What the reference BFS found: the shortest winning route, first in
/// input order (`None` when nothing wins), and the states it expanded and
/// stored, which the pruning decides even where nothing wins.
#[derive(Debug, PartialEq)]
struct Found {
    route: Option<String>,
    expanded: u64,
    stored: u64,
}

/// The reference: a plain BFS over whole states, stepped by the reference
/// engine with detail, pruning a turn that loses control without winning or
/// makes `filter` happen. `Err` past `cap` states.
fn naive(game: &Game, filter: &EventFilter, cap: usize) -> Result<Found, ()> {
    let (start, _) = game.reset();
    let mut inputs = Input::MOVES.to_vec();
    if !game.automata.is_empty() {
        inputs.push(Input::Wait);
    }
    let mut sc = Scratch::reference();
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([(start, String::new())]);
    let mut expanded = 0;
    while let Some((s, path)) = queue.pop_front() {
        expanded += 1;
        for &i in &inputs {
            let TurnResult::Accepted { state, report } = game.step_with(&s, i, &mut sc, true)
            else {
                continue;
            };
            if happens(filter, game, &s, &state, &report) {
                continue;
            }
            let p = format!("{path}{}", i.letter());
            if report.won {
                return Ok(Found {
                    route: Some(p),
                    expanded,
                    stored: seen.len() as u64,
                });
            }
            if !report.lost_control && seen.insert(state.clone()) {
                queue.push_back((state, p));
            }
        }
        if seen.len() > cap {
            return Err(());
        }
    }
    Ok(Found {
        route: None,
        expanded,
        stored: seen.len() as u64,
    })
}

/// Cells: a YOU cat, rocks and crates to push, water, crabs, sand, jelly,
/// boats, docks, a plate and its gate, keys and doors, a mouse, flags.
const CELLS: &[&str] = &[
    ".", ".", ".", ".", ".", "m", "r", "$", "w", "c", "a", "j", "b", "o", "_", "|", "k", "=", "u",
    "f", "f", "#", "IS", "WIN", "PUSH", "SHELL", "FLOAT", "FLAG",
];

/// Rule rows above the board; the words can be pushed apart.
const RULES: &[&str] = &[
    "ROCK IS PUSH",
    "CRATE IS PUSH",
    "WATER IS SINK",
    "CRAB IS DEFEAT",
    "SAND IS FRAIL",
    "BOAT IS FLOAT",
    "DOCK IS GOAL",
    "JELLY IS SHELL",
    "KEY IS OPEN",
    "DOOR IS SHUT",
    "MOUSE IS TICK",
    "FLAG IS WIN",
    "WALL IS STOP",
    "MIAU IS FLOAT",
];

/// Boards under a `MIAU IS YOU` row and some of the rule rows.
fn board() -> impl Strategy<Value = String> {
    (
        prop::sample::subsequence(RULES.to_vec(), 1..5),
        testkit::random_grid(CELLS, 4..7, 2..5),
    )
        .prop_map(|(rules, grid)| {
            let mut rows = vec!["MIAU IS YOU".to_string()];
            rows.extend(rules.iter().map(|r| r.to_string()));
            rows.push(testkit::board_text(&grid));
            rows.join("\n")
        })
}

/// The level of board `b` with a ticking mouse, a key-and-door pair and
/// sand that crumbles to shoal.
fn game_of(b: &str) -> Game {
    let mut level = testkit::level(b);
    testkit::automaton(&mut level, "mouse", "TICK", Some("MOUSE"), 0, "LR");
    testkit::pair(&mut level, "OPEN", "SHUT", false);
    testkit::frail(&mut level, &[("SAND", "SHOAL")]);
    Game::new(&level)
}

fn forbidding(filter: &EventFilter) -> Constraints {
    Constraints {
        forbid_events: vec![filter.clone()],
        ..Constraints::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(160))]
    /// Each filter's search (the move search on one thread and on two,
    /// and the level's own choice of search) against the plain BFS over
    /// the reference engine's detailed turns: the same verdict and the
    /// same first-in-order shortest route.
    #[test]
    fn a_forbidden_event_prunes_as_the_reference_engine_says(
        b in board(),
        which in 0usize..20,
    ) {
        let filter = &filters()[which % filters().len()];
        let game = game_of(&b);
        let Ok(expected) = naive(&game, filter, 3_000) else {
            return Ok(());
        };
        let space = LevelSpace::new(&game, forbidding(filter));
        let cancel = AtomicBool::new(false);
        for jobs in [1, 2] {
            let out = search_space(&space, Limits::default(), None, jobs, &cancel, &mut |_| {});
            let found = Found {
                route: out.verdict.route().map(|r| route_text(space.inputs(), r)),
                expanded: out.expanded,
                stored: out.stored,
            };
            prop_assert_eq!(&found, &expected, "{:?} on {} threads on\n{}", filter, jobs, b);
            if found.route.is_none() {
                prop_assert_eq!(&out.verdict, &Verdict::Unsolved);
            }
        }
        let level = search_level(&game, forbidding(filter), Limits::default(), 1, &cancel, &mut |_| {});
        prop_assert_eq!(
            level.verdict.route().map(|r| r.len()),
            expected.route.as_ref().map(String::len),
            "{:?} on\n{}", filter, b
        );
    }
}

/// A route of the search forbidding `filter` on `board`, or `None` when it
/// proves that every win makes the event happen.
fn route_without(board: &str, filter: EventFilter) -> Option<String> {
    let game = game_of(board);
    let space = LevelSpace::new(&game, forbidding(&filter));
    let out = search_level(
        &game,
        forbidding(&filter),
        Limits::default(),
        1,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    match out.verdict {
        Verdict::Solved { route, .. } => Some(route_text(space.inputs(), &route)),
        Verdict::Unsolved => None,
        v => panic!("{v:?}"),
    }
}

/// Across a river the cat can only cross by pushing a rock in to sink it:
/// the plain solve sinks the rock; forbidding a sink, or the rock's loss,
/// or a push, leaves no win; forbidding a crumble changes nothing.
#[test]
fn a_win_that_needs_a_sinking_is_unsolved_without_one() {
    let river = "MIAU IS YOU\nWATER IS SINK\nROCK IS PUSH\nFLAG IS WIN\n\
                 m r w f";
    let sink = EventFilter::Destroyed {
        nouns: vec![],
        cause: Some(DestroyCause::Sink),
    };
    assert_eq!(route_without(river, sink), None);
    assert_eq!(
        route_without(
            river,
            EventFilter::Lost {
                nouns: nouns(&["ROCK"])
            }
        ),
        None
    );
    assert_eq!(
        route_without(river, EventFilter::Pushed { nouns: vec![] }),
        None
    );
    assert_eq!(
        route_without(river, EventFilter::Crumbled { nouns: vec![] }).as_deref(),
        Some("RRR")
    );
}

/// A sealed room of one crate and one dock (the push search's kind of
/// level): forbidding the push or the filled goal falls back to the move
/// search and proves the level can't be won; forbidding an event that
/// can't happen there keeps the push search's route.
#[test]
fn a_sealed_room_without_pushes_is_unsolved() {
    let room = "MIAU IS YOU!\nCRATE IS PUSH!\nDOCK IS GOAL!\nWALL IS STOP!\n\
                # # # # # #\n# m $ . o #\n# # # # # #";
    assert_eq!(route_without(room, EventFilter::GoalFilled), None);
    assert_eq!(
        route_without(room, EventFilter::Pushed { nouns: vec![] }),
        None
    );
    assert_eq!(
        route_without(room, EventFilter::FloatApart).as_deref(),
        Some("RR")
    );
}

/// A plate opens the gate before the flag: forbidding the gate's channel
/// leaves no win; another channel's gate is no obstacle.
#[test]
fn a_gate_opened_on_its_channel_is_forbidden_by_name() {
    let gated = "MIAU IS YOU\nFLAG IS WIN\nWALL IS STOP\n\
                 # # # # #\n# m _ | f\n# # # # #";
    let amber = EventFilter::GateOpened {
        channel: Some("amber".into()),
    };
    assert_eq!(route_without(gated, amber), None);
    let red = EventFilter::GateOpened {
        channel: Some("red".into()),
    };
    assert_eq!(route_without(gated, red).as_deref(), Some("RRR"));
}
