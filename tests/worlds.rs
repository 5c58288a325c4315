//! The bundled worlds Crate Works and Tidewater against their world bibles:
//! the level tables (ids, titles, categories, order, board sizes, step counts),
//! the printed routes, the necessity claims, the rules at the winning moment,
//! and a clean `miauc check --deny warnings`, all on the built binary; and the
//! bundled FRAIL levels, whose shortest routes must crumble as they teach.

mod bundled;

use bundled::{assert_steps_match_bible, field, miauc, pack, unallowed_flags};

/// One row of a bible's level table.
struct Row {
    id: &'static str,
    title: &'static str,
    category: &'static str,
    /// The bible's board size: the level's board may not be larger.
    size: (u32, u32),
    /// The bible's "solver steps".
    steps: u64,
    /// The route the bible prints, where the level is meant to follow it.
    route: Option<&'static str>,
    /// The rules the bible says every win needs (declared as `must-form`).
    must_form: &'static [&'static str],
    /// The rules the level's lesson is breaking (declared as `must-break`).
    must_break: &'static [&'static str],
    /// The bible says the level is unsolvable if no word may be lost
    /// (declared as `must-lose-word`).
    must_lose_word: bool,
    /// Rules the solver's `rules at win` must show.
    at_win: &'static [&'static str],
    /// Rules the level is about breaking: absent at the win.
    broken: &'static [&'static str],
}

const CRATE_WORKS: &str = "packs/crate-works.miau";
const TIDEWATER: &str = "packs/tidewater.miau";

/// `crate-works.md`, "Levels".
const CRATE_WORKS_TABLE: &[Row] = &[
    Row {
        id: "crates-move",
        title: "Crates move",
        category: "required",
        size: (13, 7),
        steps: 15,
        route: None,
        must_form: &[],
        must_break: &[],
        must_lose_word: false,
        at_win: &["TRUCK IS WIN", "CRATE IS PUSH"],
        broken: &[],
    },
    Row {
        id: "fill-the-gap",
        title: "Fill the gap",
        category: "required",
        size: (12, 7),
        steps: 17,
        route: None,
        must_form: &[],
        must_break: &[],
        must_lose_word: false,
        at_win: &["TRUCK IS WIN", "GAP IS SINK"],
        broken: &[],
    },
    Row {
        id: "spend-it-last",
        title: "Spend it last",
        category: "required",
        size: (14, 5),
        steps: 34,
        route: None,
        must_form: &[],
        must_break: &["CRATE IS PUSH"],
        must_lose_word: false,
        at_win: &["TRUCK IS WIN", "GAP IS SINK"],
        broken: &["CRATE IS PUSH"],
    },
    Row {
        id: "in-step",
        title: "In step",
        category: "required",
        size: (11, 9),
        steps: 31,
        route: None,
        must_form: &["CRATE IS YOU"],
        must_break: &[],
        must_lose_word: false,
        at_win: &["CRATE IS YOU", "MIAU IS YOU", "TRUCK IS WIN"],
        broken: &[],
    },
    Row {
        id: "load-order",
        title: "Load order",
        category: "optional",
        size: (12, 7),
        steps: 32,
        route: None,
        must_form: &[],
        must_break: &[],
        must_lose_word: false,
        at_win: &["TRUCK IS WIN", "GAP IS SINK", "CRATE IS PUSH"],
        broken: &[],
    },
    Row {
        id: "back-it-up",
        title: "Back it up",
        category: "optional",
        size: (13, 8),
        steps: 20,
        route: None,
        must_form: &["CRATE IS YOU"],
        must_break: &[],
        must_lose_word: false,
        at_win: &["CRATE IS YOU", "TRUCK IS PUSH", "TRUCK IS WIN"],
        broken: &[],
    },
    Row {
        id: "night-shift",
        title: "Night shift",
        category: "challenge",
        size: (12, 9),
        steps: 48,
        route: None,
        must_form: &["GAP IS CRATE"],
        must_break: &["CRATE IS PUSH"],
        must_lose_word: false,
        at_win: &["GAP IS CRATE", "TRUCK IS WIN"],
        broken: &["CRATE IS PUSH"],
    },
];

/// `tidewater.md`, "Levels".
const TIDEWATER_TABLE: &[Row] = &[
    Row {
        id: "low-tide",
        title: "Low tide",
        category: "required",
        size: (9, 7),
        steps: 10,
        route: Some("DDUURRRRRR"),
        must_form: &[],
        must_break: &["WATER IS SINK"],
        must_lose_word: false,
        at_win: &["SHELL IS WIN"],
        broken: &["WATER IS SINK"],
    },
    Row {
        id: "paper-bridge",
        title: "Paper bridge",
        category: "required",
        size: (10, 7),
        steps: 9,
        route: Some("DRRRRRRUR"),
        must_form: &[],
        must_break: &["ROCK IS STOP"],
        must_lose_word: true,
        at_win: &["SHELL IS WIN", "WATER IS SINK"],
        broken: &["ROCK IS STOP"],
    },
    Row {
        id: "sink-the-sting",
        title: "Sink the sting",
        category: "required",
        size: (11, 7),
        steps: 13,
        route: Some("DDRRRRRRUUURR"),
        must_form: &[],
        must_break: &["JELLY IS DEFEAT"],
        must_lose_word: true,
        at_win: &["SHELL IS WIN", "WATER IS SINK"],
        broken: &["JELLY IS DEFEAT"],
    },
    Row {
        id: "sideways",
        title: "Sideways",
        category: "required",
        size: (11, 7),
        steps: 11,
        route: Some("DLLLUUUDDDR"),
        must_form: &["CRAB IS YOU"],
        must_break: &[],
        must_lose_word: false,
        at_win: &["CRAB IS YOU", "SHELL IS WIN"],
        broken: &["MIAU IS YOU"],
    },
    Row {
        id: "shell-game",
        title: "Shell game",
        category: "required",
        size: (5, 7),
        steps: 11,
        // Same length as the bible's UURDRUURULU; the level's comment says why
        // the moves differ.
        route: None,
        must_form: &["JELLY IS SHELL"],
        must_break: &[],
        must_lose_word: false,
        at_win: &["JELLY IS SHELL", "SHELL IS WIN"],
        broken: &[],
    },
    Row {
        id: "one-for-the-tide",
        title: "One for the tide",
        category: "optional",
        size: (11, 7),
        steps: 14,
        route: Some("DLUUUURRRRRRRR"),
        must_form: &[],
        must_break: &[],
        must_lose_word: false,
        at_win: &["CRAB IS YOU", "SHELL IS WIN", "WATER IS SINK"],
        broken: &["MIAU IS YOU"],
    },
    Row {
        id: "last-boat-out",
        title: "Last boat out",
        category: "challenge",
        size: (10, 7),
        steps: 26,
        // One step longer than the bible's; the level's comment says why.
        route: None,
        must_form: &["JELLY IS MIAU"],
        must_break: &[],
        must_lose_word: false,
        at_win: &["JELLY IS MIAU", "BOAT IS WIN", "MIAU IS YOU"],
        broken: &["JELLY IS DEFEAT"],
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
            "{id}: board {}x{} is larger than the bible's {}x{}",
            level.width,
            level.height,
            row.size.0,
            row.size.1
        );
        assert!(level.width <= 14 && level.height <= 10, "{id}");
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
        assert_eq!(must, row.must_form, "{id}: the bible's necessity claims");
        let breaks: Vec<&str> = level
            .check
            .must_break
            .iter()
            .map(|m| m.text.as_str())
            .collect();
        assert_eq!(breaks, row.must_break, "{id}: the rules the lesson breaks");
        assert_eq!(
            level.check.must_lose_word.is_some(),
            row.must_lose_word,
            "{id}: must-lose-word"
        );
    }
}

#[test]
fn crate_works_matches_its_bible() {
    assert_table(CRATE_WORKS, "📦", CRATE_WORKS_TABLE);
}

#[test]
fn tidewater_matches_its_bible() {
    assert_table(TIDEWATER, "🌊", TIDEWATER_TABLE);
}

/// Every recorded route replays to a win on its last turn, is the solver's
/// shortest, and the rules at the win are the ones the level is about.
fn assert_routes(path: &str, table: &[Row]) {
    let pack = pack(path);
    for (level, row) in pack.levels.iter().zip(table) {
        let id = row.id;
        let recorded = &level.check.solution.as_ref().expect("solution").text;
        let (code, out, err) = miauc(&["replay", path, "--level", id]);
        assert_eq!(code, 0, "{id}: {out}{err}");
        let result = out.lines().last().unwrap_or_default();
        assert_eq!(
            result,
            format!("result: won in {} turns", recorded.len()),
            "{id}"
        );
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
        for rule in row.broken {
            assert!(!rules.contains(rule), "{id}: {rule} still holds at the win");
        }
    }
}

#[test]
fn crate_works_routes_replay_and_are_shortest() {
    assert_routes(CRATE_WORKS, CRATE_WORKS_TABLE);
}

#[test]
fn tidewater_routes_replay_and_are_shortest() {
    assert_routes(TIDEWATER, TIDEWATER_TABLE);
}

/// The whole check, proofs included, passes with warnings denied.
fn assert_clean(path: &str, table: &[Row]) {
    let (code, out, err) = miauc(&["check", path, "--deny", "warnings", "--verbose"]);
    assert_eq!(code, 0, "{out}{err}");
    for row in table {
        let line = format!("level {}: solved in ", row.id);
        let found = out.lines().find(|l| l.contains(&line));
        assert!(found.is_some(), "{line} missing:\n{out}");
        // Every bundled level's shortest route is proven, not only bounded.
        assert!(
            found.is_some_and(|l| l.contains(", shortest proven")),
            "{found:?}"
        );
    }
    for line in out.lines().filter(|l| l.contains(": solved in ")) {
        assert!(
            unallowed_flags(line).is_empty(),
            "a flag not allowed: {line}"
        );
    }
}

#[test]
fn crate_works_checks_clean() {
    assert_clean(CRATE_WORKS, CRATE_WORKS_TABLE);
}

#[test]
fn tidewater_checks_clean() {
    assert_clean(TIDEWATER, TIDEWATER_TABLE);
}

/// Forbidding each `must-form` rule, or keeping each `must-break` rule, leaves
/// the level unsolvable: the proofs the check runs, seen through `solve`.
#[test]
fn necessity_claims_hold_under_forbid_and_keep() {
    for (path, table) in [
        (CRATE_WORKS, CRATE_WORKS_TABLE),
        (TIDEWATER, TIDEWATER_TABLE),
    ] {
        for row in table {
            let claims = row
                .must_form
                .iter()
                .map(|r| ("--forbid", *r))
                .chain(row.must_break.iter().map(|r| ("--keep", *r)));
            for (flag, rule) in claims {
                let (code, out, _) = miauc(&["solve", path, "--level", row.id, flag, rule]);
                assert_eq!(code, 1, "{} {flag} {rule}: {out}", row.id);
                assert_eq!(field(&out, "result"), Some("unsolved"), "{}: {out}", row.id);
            }
        }
    }
}

/// `tidewater.md`: paper-bridge and sink-the-sting are unsolvable if no word
/// may sink.
#[test]
fn tidewater_bridges_need_a_sunk_word() {
    for id in TIDEWATER_TABLE
        .iter()
        .filter(|r| r.must_lose_word)
        .map(|r| r.id)
    {
        let (code, out, _) = miauc(&["solve", TIDEWATER, "--level", id, "--no-word-loss"]);
        assert_eq!(code, 1, "{id}: {out}");
        assert_eq!(field(&out, "result"), Some("unsolved"), "{id}: {out}");
    }
}

/// Every bundled level with crumbling planks is won, on its shortest route,
/// by the crumbling it teaches: replaying the solver's route shows each
/// leftover of the level's `frail` statement happen (`DRIFT -> WATER` in
/// one-plank-each; `SAND -> SHOAL` and then `SHOAL -> WATER` in two-tides).
#[test]
fn frail_levels_win_by_crumbling() {
    let mut checked = Vec::new();
    for path in [
        "packs/machine-room.miau",
        CRATE_WORKS,
        TIDEWATER,
        "packs/crossword.miau",
        "packs/clockwork.miau",
    ] {
        for level in pack(path).levels {
            let Some(frail) = &level.frail else { continue };
            let id = level.id.text.as_str();
            let (code, out, err) = miauc(&["solve", path, "--level", id]);
            assert_eq!(code, 0, "{id}: {out}{err}");
            assert_eq!(field(&out, "shortest"), Some("proven"), "{id}: {out}");
            let route = field(&out, "route").expect("a route");
            let (code, replay, err) = miauc(&["replay", path, "--level", id, "--moves", route]);
            assert_eq!(code, 0, "{id}: {replay}{err}");
            assert!(replay.ends_with(&format!("result: won in {} turns\n", route.len())));
            assert!(
                !frail.leaves.is_empty(),
                "{id}: a frail level names its leftovers"
            );
            for (from, to) in &frail.leaves {
                let event = format!("{} crumbled into {}", from.text, to.text);
                assert!(
                    replay.lines().any(|l| l.trim_start().starts_with(&event)),
                    "{id}: the shortest route {route} never shows `{event}`:\n{replay}"
                );
            }
            checked.push(id.to_owned());
        }
    }
    assert_eq!(checked, ["one-plank-each", "two-tides"]);
}

/// The claims that say each level's mechanism matters, each
/// proven: `check --format json` lists the claim's search, and it ran out of
/// states without a win (every win makes the event happen).
#[test]
fn event_claims_are_proven() {
    const MACHINE_ROOM: &str = "packs/machine-room.miau";
    const CLOCKWORK: &str = "packs/clockwork.miau";
    for (path, id, claim) in [
        // tidewater.md: UNSOLVED if no crab or cat may be lost.
        (TIDEWATER, "one-for-the-tide", "must-lose MIAU CRAB"),
        (MACHINE_ROOM, "one-plank-each", "must-crumble DRIFT"),
        // The second crossing: a shoal must crumble into water.
        (MACHINE_ROOM, "two-tides", "must-crumble SHOAL"),
        (MACHINE_ROOM, "door-stop", "must-press amber"),
        // crate-works.md's hand-off: the crate presses as a YOU, not pushed.
        (MACHINE_ROOM, "hand-off", "forbid CRATE IS YOU"),
        (MACHINE_ROOM, "hand-off", "must-press amber"),
        (MACHINE_ROOM, "jam", "must-press amber"),
        (MACHINE_ROOM, "two-circuits", "must-press amber"),
        (MACHINE_ROOM, "two-circuits", "must-press teal"),
        (CLOCKWORK, "mouse-keeps-time", "must-push-word"),
        (CLOCKWORK, "wind-it-up", "must-push-word"),
        (CLOCKWORK, "key-and-door", "must-pair"),
        (CLOCKWORK, "any-wall-will-do", "must-pair"),
        (CLOCKWORK, "let-the-mouse-in", "must-pair"),
    ] {
        let (code, out, err) = miauc(&["check", path, "--level", id, "--format", "json"]);
        assert_eq!(code, 0, "{id}: {out}{err}");
        let proof = format!(r#"{{"search":"{claim}","result":"unsolved","#);
        assert!(out.contains(&proof), "{id}: no proof of {claim}: {out}");
    }
}
