//! The bundled worlds Crossword and Clockwork against their world bibles: the
//! level tables (ids, titles, categories, order, board sizes, step counts
//! within a fifth), the necessity claims, the rules at the winning moment,
//! and a clean `miauc check --deny warnings`, all on the built binary. The
//! machine room, which has no world identity, must check clean too.

mod bundled;

use bundled::{assert_steps_match_bible, field, miauc, pack, unallowed_flags};

/// One row of a bible's level table.
struct Row {
    id: &'static str,
    title: &'static str,
    category: &'static str,
    /// The largest board the bible allows for the level.
    size: (u32, u32),
    /// The bible's "solver steps".
    steps: u64,
    /// The route the bible prints, where the level follows it exactly.
    route: Option<&'static str>,
    /// Rules declared with `must-form` (and so proven by `check`).
    must_form: &'static [&'static str],
    /// Rules the solver's `rules at win` must show.
    at_win: &'static [&'static str],
}

const CROSSWORD: &str = "packs/crossword.miau";
const CLOCKWORK: &str = "packs/clockwork.miau";
const MACHINE_ROOM: &str = "packs/machine-room.miau";

/// `crossword.md`, "Levels". The bible gives the sizes of levels 3 and 5.
const CROSSWORD_TABLE: &[Row] = &[
    Row {
        id: "across-and-down",
        title: "Across and down",
        category: "required",
        size: (14, 10),
        steps: 16,
        route: Some("URRRRRULLLDDRRRR"),
        must_form: &[],
        at_win: &["FLAG IS WIN", "MIAU IS YOU"],
    },
    Row {
        id: "company",
        title: "Company",
        category: "required",
        size: (14, 10),
        steps: 20,
        route: None,
        must_form: &["ROCK IS YOU"],
        at_win: &["ROCK IS YOU", "MIAU IS YOU", "FLAG IS WIN"],
    },
    Row {
        id: "shove-the-danger",
        title: "Shove the danger",
        category: "required",
        size: (7, 7),
        steps: 23,
        route: None,
        must_form: &["ROCK IS PUSH"],
        at_win: &["ROCK IS PUSH", "ROCK IS DEFEAT", "FLAG IS WIN"],
    },
    Row {
        id: "carry-the-pair",
        title: "Carry the pair",
        category: "required",
        size: (14, 10),
        steps: 24,
        route: None,
        must_form: &["ROCK IS DEFEAT"],
        at_win: &["ROCK IS YOU", "ROCK IS DEFEAT", "MIAU IS YOU"],
    },
    Row {
        id: "pass-it-on",
        title: "Pass it on",
        category: "required",
        size: (8, 7),
        steps: 24,
        route: None,
        must_form: &["ROCK IS FLAG"],
        at_win: &["ROCK IS FLAG", "FLAG IS WIN"],
    },
    Row {
        id: "down-to-miau",
        title: "Down to MIAU",
        category: "optional",
        size: (14, 10),
        steps: 19,
        route: None,
        must_form: &["ROCK IS MIAU"],
        at_win: &["ROCK IS MIAU", "MIAU IS YOU", "FLAG IS WIN"],
    },
    Row {
        id: "spend-it-twice",
        title: "Spend it twice",
        category: "challenge",
        size: (14, 10),
        steps: 35,
        route: None,
        // WALL IS ROCK is spent before the win (the level's comment says so),
        // so only the second spending shows at the win.
        must_form: &["WALL IS ROCK"],
        at_win: &["ROCK IS WIN", "MIAU IS YOU"],
    },
];

/// `clockwork.md`, "Levels": all boards fit in 14 by 10, the largest 11 by 10.
const CLOCKWORK_TABLE: &[Row] = &[
    Row {
        id: "mouse-keeps-time",
        title: "The mouse keeps time",
        category: "required",
        size: (11, 10),
        steps: 11,
        route: Some("DRRRRRRRRRR"),
        must_form: &[],
        at_win: &["BELL IS WIN", "MOUSE IS TICK"],
    },
    Row {
        id: "wind-it-up",
        title: "Wind it up",
        category: "required",
        size: (11, 10),
        steps: 18,
        route: Some("URRRRRULLDDRRRRRRR"),
        must_form: &["MOUSE IS TICK"],
        at_win: &["BELL IS WIN", "MOUSE IS TICK"],
    },
    // The three OPEN and SHUT levels of the bible's proposal, after level 2
    // now that pairs ship (clockwork.md, "OPEN and SHUT").
    Row {
        id: "key-and-door",
        title: "Every door has a key",
        category: "required",
        size: (11, 10),
        steps: 17,
        route: None,
        must_form: &["KEY IS OPEN"],
        at_win: &["KEY IS OPEN", "DOOR IS SHUT", "BELL IS WIN"],
    },
    Row {
        id: "any-wall-will-do",
        title: "Any wall will do",
        category: "required",
        size: (11, 10),
        steps: 32,
        route: None,
        must_form: &["WALL IS SHUT"],
        at_win: &["WALL IS SHUT", "KEY IS OPEN", "BELL IS WIN"],
    },
    Row {
        id: "let-the-mouse-in",
        title: "Let the mouse in",
        category: "required",
        size: (11, 10),
        steps: 13,
        route: None,
        must_form: &["MOUSE IS OPEN"],
        at_win: &["MOUSE IS OPEN", "MOUSE IS TICK", "BELL IS WIN"],
    },
    Row {
        id: "ring-for-service",
        title: "Ring for service",
        category: "required",
        size: (11, 10),
        steps: 10,
        route: None,
        must_form: &["BELL IS TICK"],
        at_win: &["BELL IS TICK", "BELL IS WIN"],
    },
    Row {
        id: "double-time",
        title: "Double time",
        category: "required",
        size: (11, 10),
        steps: 11,
        route: None,
        must_form: &["MIAU IS TICK"],
        at_win: &["MIAU IS TICK", "COG IS DEFEAT", "BELL IS WIN"],
    },
    Row {
        id: "mouse-hole",
        title: "Mouse hole",
        category: "required",
        size: (11, 10),
        steps: 23,
        route: None,
        must_form: &["MOUSE IS SINK"],
        at_win: &["MOUSE IS SINK", "MOUSE IS TICK", "BELL IS WIN"],
    },
    Row {
        id: "escapement",
        title: "Escapement",
        category: "challenge",
        size: (11, 10),
        steps: 29,
        route: None,
        must_form: &["COG IS BELL"],
        at_win: &["COG IS BELL", "BELL IS WIN", "COG IS DEFEAT"],
    },
];

fn assert_table(path: &str, world_glyph: &str, table: &[Row]) {
    let pack = pack(path);
    let world = pack.world.as_ref().expect("a world pack");
    assert_eq!(world.glyph, world_glyph, "{path}");
    let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.text.as_str()).collect();
    let want: Vec<&str> = table.iter().map(|r| r.id).collect();
    assert_eq!(ids, want, "{path}: the bible's levels in the bible's order");
    for (level, row) in pack.levels.iter().zip(table) {
        let id = row.id;
        assert_eq!(level.title.as_deref(), Some(row.title), "{id}");
        assert_eq!(
            level.category.as_ref().map(|c| c.text.as_str()),
            Some(row.category),
            "{id}"
        );
        assert!(
            level.width <= row.size.0 && level.height <= row.size.1,
            "{id}: board {}x{} is larger than {}x{}",
            level.width,
            level.height,
            row.size.0,
            row.size.1
        );
        assert!(level.hint.is_some(), "{id}: every level has a hint");
        assert!(!level.introduces.is_empty(), "{id}: introduces");
        let steps = level.check.steps.expect("recorded steps");
        assert_steps_match_bible(path, id, steps, row.steps);
        let solution = level.check.solution.as_ref().expect("recorded solution");
        assert_eq!(solution.text.len() as u64, steps, "{id}");
        if let Some(route) = row.route {
            assert_eq!(solution.text, route, "{id}: the bible's printed route");
        }
        let must: Vec<&str> = level
            .check
            .must_form
            .iter()
            .map(|m| m.text.as_str())
            .collect();
        assert_eq!(must, row.must_form, "{id}: the declared necessity claims");
    }
}

#[test]
fn crossword_matches_its_bible() {
    assert_table(CROSSWORD, "✏️", CROSSWORD_TABLE);
}

#[test]
fn clockwork_matches_its_bible() {
    assert_table(CLOCKWORK, "⚙️", CLOCKWORK_TABLE);
}

/// Every recorded route is the solver's shortest, and the rules at the win
/// are the ones the level is about. (`check` replays each route to a win.)
fn assert_routes(path: &str, table: &[Row]) {
    let pack = pack(path);
    for (level, row) in pack.levels.iter().zip(table) {
        let id = row.id;
        let recorded = &level.check.solution.as_ref().expect("solution").text;
        let (code, out, err) = miauc(&["solve", path, "--level", id]);
        assert_eq!(code, 0, "{id}: {out}{err}");
        assert_eq!(field(&out, "route"), Some(recorded.as_str()), "{id}");
        let rules = field(&out, "rules at win").expect("rules at win");
        let rules: Vec<&str> = rules.split(", ").collect();
        for rule in row.at_win {
            assert!(
                rules.contains(rule),
                "{id}: {rule} missing at the win: {rules:?}"
            );
        }
    }
}

#[test]
fn crossword_routes_are_shortest_and_win_by_the_lesson() {
    assert_routes(CROSSWORD, CROSSWORD_TABLE);
}

#[test]
fn clockwork_routes_are_shortest_and_win_by_the_lesson() {
    assert_routes(CLOCKWORK, CLOCKWORK_TABLE);
}

/// The whole check, proofs included, passes with warnings denied, and each
/// level's flags are only those its author allowed.
fn assert_clean(path: &str, ids: &[&str], allowed_flags: &[&str]) {
    let (code, out, err) = miauc(&["check", path, "--deny", "warnings", "--verbose"]);
    assert_eq!(code, 0, "{out}{err}");
    for id in ids {
        let line = format!("level {id}: solved in ");
        let found = out.lines().find(|l| l.contains(&line));
        assert!(found.is_some(), "{line} missing:\n{out}");
        // Every bundled level's shortest route is proven, not only bounded.
        assert!(
            found.is_some_and(|l| l.contains(", shortest proven")),
            "{found:?}"
        );
    }
    for line in out.lines().filter(|l| l.contains(", flags ")) {
        if line.contains("(allowed)") {
            assert!(
                allowed_flags.iter().any(|f| line.contains(f)),
                "an unexpected flag: {line}"
            );
        }
        assert!(
            unallowed_flags(line).is_empty(),
            "a flag not allowed: {line}"
        );
    }
}

#[test]
fn crossword_checks_clean() {
    let ids: Vec<&str> = CROSSWORD_TABLE.iter().map(|r| r.id).collect();
    assert_clean(CROSSWORD, &ids, &[]);
}

#[test]
fn clockwork_checks_clean() {
    let ids: Vec<&str> = CLOCKWORK_TABLE.iter().map(|r| r.id).collect();
    // The first level is hands-off on purpose (clockwork.md, "Bypass notes").
    assert_clean(CLOCKWORK, &ids, &["level mouse-keeps-time: "]);
}

/// The machine room: the seeds' drafts on their exact boards and routes, and
/// the newer mechanics, each checked clean.
#[test]
fn machine_room_checks_clean() {
    let pack = pack(MACHINE_ROOM);
    assert!(
        pack.world.is_none(),
        "the machine room has no world identity"
    );
    let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.text.as_str()).collect();
    for id in [
        "pallet-row",
        "short-one-crate",
        "door-stop",
        "hand-off",
        "jam",
        "one-plank-each",
        "two-tides",
        "float-to-the-flag",
        "two-circuits",
    ] {
        assert!(ids.contains(&id), "{id} missing from the machine room");
    }
    // The machine room keeps only mechanisms no world uses: the pair levels
    // and the automata's proof level are Clockwork's.
    for id in CLOCKWORK_TABLE.iter().map(|r| r.id) {
        assert!(
            !ids.contains(&id),
            "{id} is Clockwork's, not the machine room's"
        );
    }
    // The crate-works drafts keep the seeds' exact routes.
    for (id, route) in [
        ("pallet-row", "LUURRDULLDDRRRRUULLLRDDLLUU"),
        ("short-one-crate", "RRRRRURDLLLUULDULLDLDRRRRRRDDRRUURUL"),
        ("door-stop", "LURRURDDURRRRRR"),
        ("hand-off", "LUDLURRRRRURRRR"),
        ("jam", "RRRRRRR"),
    ] {
        let level = pack.level(id).expect("level");
        assert_eq!(
            level.check.solution.as_ref().map(|s| s.text.as_str()),
            Some(route),
            "{id}"
        );
    }
    // Two gate channels in one level.
    let circuits = pack.level("two-circuits").expect("two-circuits");
    assert_eq!(circuits.channels(), ["amber", "teal"]);
    assert_clean(MACHINE_ROOM, &ids, &["(allowed)"]);
}

/// A level id names one level among all the bundled packs: a level that a
/// world took from the machine room lives only in the world.
#[test]
fn every_bundled_level_exists_once() {
    let mut seen = std::collections::BTreeMap::new();
    for path in [
        CROSSWORD,
        CLOCKWORK,
        MACHINE_ROOM,
        "packs/crate-works.miau",
        "packs/tidewater.miau",
    ] {
        for level in pack(path).levels {
            if let Some(first) = seen.insert(level.id.text.clone(), path) {
                panic!("{} is in both {first} and {path}", level.id.text);
            }
        }
    }
    assert!(seen.contains_key("mouse-keeps-time"));
}

/// Forbidding each declared rule leaves the level unsolvable: the proofs the
/// check runs, seen through `solve --forbid`.
#[test]
fn necessity_claims_hold_under_forbid() {
    for (path, table) in [(CROSSWORD, CROSSWORD_TABLE), (CLOCKWORK, CLOCKWORK_TABLE)] {
        for row in table {
            for rule in row.must_form {
                let (code, out, _) = miauc(&["solve", path, "--level", row.id, "--forbid", rule]);
                assert_eq!(code, 1, "{}: {out}", row.id);
                assert_eq!(field(&out, "result"), Some("unsolved"), "{}: {out}", row.id);
            }
        }
    }
}
