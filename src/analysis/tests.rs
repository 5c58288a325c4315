//! For every stage 3 code: a fixture that triggers it, the nearest correct
//! fixture that doesn't, and a snapshot of the message.

use super::reset::{DestroyedView, ResetView, TransformedView};
use super::testkit::{level, only, pack, quiet, rules, run};
use crate::diag::{Diagnostic, Severity};
use crate::model::{
    Allowance, Automaton, Frail, GlossaryEntry, Kind, Level, Named, Object, Pair, PaletteEntry,
    Step, World,
};

/// Assert `code` fires in `trigger` and not in `nearest`; snapshot the messages.
fn case(code: &str, trigger: &[Diagnostic], nearest: &[Diagnostic]) {
    let fired = only(trigger, code);
    assert!(!fired.is_empty(), "{code} didn't fire: {:#?}", all(trigger));
    assert!(
        only(nearest, code).is_empty(),
        "{code} fired on the nearest correct level: {:#?}",
        only(nearest, code)
    );
    insta::assert_snapshot!(code, fired.join("\n"));
}

fn all(d: &[Diagnostic]) -> Vec<String> {
    d.iter()
        .map(|d| format!("{} {}", d.code(), d.message))
        .collect()
}

fn analyse_pack(p: &crate::model::Pack) -> Vec<Diagnostic> {
    super::analyse_with(p, &[], &|_| None)
}

fn automaton(id: &str, property: &str, subject: Option<&str>) -> Automaton {
    Automaton {
        id: Named::new(id),
        subject: subject.map(Named::new),
        property: Named::new(property),
        phase: None,
        pattern: vec![Step::Move(-1, 0), Step::Move(1, 0)],
        span: Default::default(),
    }
}

fn pair(a: &str, b: &str) -> Pair {
    Pair {
        words: vec![Named::new(a), Named::new(b)],
        effect: "destroy-both".into(),
        enter: true,
        span: Default::default(),
    }
}

const KEY_AND_DOOR: &str = "
    MIAU IS YOU . DOOR IS SHUT . KEY IS PUSH
    .    .  .   . .    .  .    . .   .  .
    .    m  .   k .    =  .    . .   .  WIN
";

#[test]
fn m301_undeclared_property_word() {
    let l = level("key-and-door", KEY_AND_DOOR);
    let paths = [
        "miau.1 is.1 you.1",
        "door.1 is.2 shut.1",
        "key.1 is.3 push.1",
    ];
    let trigger = run(&l, quiet(&l, &paths));
    let d = trigger.iter().find(|d| d.code() == "M301").unwrap();
    assert_eq!(d.cells, vec![(6, 0)]);
    assert!(d.message.contains("SHUT isn't a thing"));
    let mut ok = l.clone();
    ok.pairs.push(pair("OPEN", "SHUT"));
    case("M301", &trigger, &run(&ok, quiet(&ok, &paths)));
}

#[test]
fn m301_suggests_the_nearest_property() {
    let l = level("typo", "MIAU IS STPO\n m . WIN");
    let d = run(&l, quiet(&l, &[]));
    let d = d.iter().find(|d| d.code() == "M301").unwrap();
    assert!(d.message.contains("If it ends up after IS"));
    assert_eq!(d.fixes[0].title, "Replace with STOP");
}

#[test]
fn m302_noun_is_property() {
    let mut l = level("clock", "MIAU IS YOU . WIN\n m . . u .");
    l.automata.push(automaton("mouse-walk", "TICK", None));
    let mut bad = l.clone();
    bad.objects.push(Object {
        id: "tick-1".into(),
        kind: Kind::Thing,
        text: "TICK".into(),
        x: 2,
        y: 1,
        ..Object::default()
    });
    case(
        "M302",
        &run(&bad, quiet(&bad, &[])),
        &run(&l, quiet(&l, &[])),
    );
}

#[test]
fn m303_declaration_unused() {
    let mut bad = level("clock", "MIAU IS YOU . WIN\n m . . u .\nMOUSE IS . . .");
    bad.automata
        .push(automaton("mouse-walk", "TICK", Some("MOUSE")));
    let mut ok = level("clock", "MIAU IS YOU . WIN\n m . . u .\nMOUSE IS TICK . .");
    ok.automata
        .push(automaton("mouse-walk", "TICK", Some("MOUSE")));
    case(
        "M303",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}

#[test]
fn m304_m305_glossary() {
    let mut l = level("clock", "MIAU IS YOU . WIN\n m . . u .\nMOUSE IS TICK . .");
    l.automata
        .push(automaton("mouse-walk", "TICK", Some("MOUSE")));
    let entry = |w: &str| GlossaryEntry {
        word: Named::new(w),
        accent: "push".into(),
        describe: "Repeats its steps, one for each of your turns.".into(),
        span: Default::default(),
    };
    let bare = pack(vec![l.clone()]);
    let mut described = bare.clone();
    described.glossary.push(entry("TICK"));
    case("M304", &analyse_pack(&bare), &analyse_pack(&described));
    let mut extra = described.clone();
    extra.glossary.push(entry("BONG"));
    case("M305", &analyse_pack(&extra), &analyse_pack(&described));
}

#[test]
fn m306_no_you_at_start() {
    let bad = level("rocky", "MIAU IS YOU AND ROCK\n m . . . WIN");
    let path = ["miau.1 is.1 you.1 and.1 rock.1"];
    let mut view = quiet(&bad, &path);
    view.transformed.push(TransformedView {
        id: "miau-1".into(),
        from: "MIAU".into(),
        to: "ROCK".into(),
    });
    let ok = level("rocky", "MIAU IS YOU . .\n m . . . WIN");
    case(
        "M306",
        &run(&bad, view),
        &run(&ok, quiet(&ok, &["miau.1 is.1 you.1"])),
    );
    let empty = level("empty", "MIAU IS . WIN\n m . . .");
    let d = run(&empty, quiet(&empty, &[]));
    assert!(only(&d, "M306")[0].contains("no sentence reads … IS YOU"));
}

#[test]
fn m307_won_at_start() {
    let l = level("won", "MIAU IS YOU\nIS . .\nWIN . m");
    let paths = ["miau.1 is.1 you.1", "miau.1 is.2 win.1"];
    let mut view = quiet(&l, &paths);
    view.won_at_start = true;
    case("M307", &run(&l, view), &run(&l, quiet(&l, &paths)));
}

#[test]
fn m308_no_win_word() {
    let bad = level("nowin", "MIAU IS YOU\n m . .");
    let ok = level("nowin", "MIAU IS YOU\n m . GOAL");
    case(
        "M308",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}

const SINKING: &str = "
    MIAU  IS YOU  . .
    WATER IS SINK . .
    m     .  .    . b+w
    .     .  .    . WIN
";

#[test]
fn m309_destroyed_at_reset() {
    let l = level("tide", SINKING);
    let paths = ["miau.1 is.1 you.1", "water.1 is.2 sink.1"];
    let mut view = quiet(&l, &paths);
    for id in ["boat-1", "water-1"] {
        view.destroyed.push(DestroyedView {
            id: id.into(),
            cause: "sink".into(),
        });
    }
    let trigger = run(&l, view.clone());
    let m = &only(&trigger, "M309")[0];
    assert!(
        m.contains("BOAT at column 4, row 2 sinks at reset: WATER IS SINK"),
        "{m}"
    );
    case("M309", &trigger, &run(&l, quiet(&l, &paths)));
}

#[test]
fn m309_is_allowed_as_info() {
    let mut l = level("tide", SINKING);
    l.check.allow.push(Allowance {
        code: Named::new("destroyed-at-reset"),
        reason: "The boat is meant to sink.".into(),
        span: Default::default(),
    });
    let paths = ["miau.1 is.1 you.1", "water.1 is.2 sink.1"];
    let mut view = quiet(&l, &paths);
    view.destroyed.push(DestroyedView {
        id: "boat-1".into(),
        cause: "sink".into(),
    });
    let d = run(&l, view);
    let d = d.iter().find(|d| d.code() == "M309").unwrap();
    assert_eq!(d.severity, Severity::Info);
    assert!(d.message.ends_with("(allowed: The boat is meant to sink.)"));
}

#[test]
fn m310_frail_on_sink() {
    let l = level(
        "plank",
        "MIAU IS YOU . .\nWATER IS SINK . .\nDRIFT IS FRAIL . .\nm . d+w . WIN",
    );
    let paths = [
        "miau.1 is.1 you.1",
        "water.1 is.2 sink.1",
        "drift.1 is.3 frail.1",
    ];
    let mut view = quiet(&l, &paths);
    for id in ["drift-1", "water-1"] {
        view.destroyed.push(DestroyedView {
            id: id.into(),
            cause: "sink".into(),
        });
    }
    let trigger = run(&l, view);
    assert!(
        only(&trigger, "M309").is_empty(),
        "M310 cells are left out of M309"
    );
    case("M310", &trigger, &run(&l, quiet(&l, &paths)));
}

#[test]
fn m311_to_m314_transformations() {
    // M311: rocks load as flags.
    let l = level("load", "ROCK IS FLAG\nMIAU IS YOU\nm r WIN");
    let paths = ["rock.1 is.1 flag.1", "miau.1 is.2 you.1"];
    let mut view = quiet(&l, &paths);
    view.transformed.push(TransformedView {
        id: "rock-1".into(),
        from: "ROCK".into(),
        to: "FLAG".into(),
    });
    let ok = level("load", "ROCK IS .\nMIAU IS YOU\nm r WIN");
    let ok_d = run(&ok, quiet(&ok, &["miau.1 is.2 you.1"]));
    case("M311", &run(&l, view.clone()), &ok_d);

    // M312: the rock is a FLAG after reset, and FLAG IS WALL moves it on.
    let chain = level(
        "chain",
        "ROCK IS FLAG . .\n. . . . .\nFLAG IS WALL . .\nMIAU IS YOU . .\nm r WIN . .",
    );
    let paths = [
        "rock.1 is.1 flag.1",
        "flag.2 is.2 wall.1",
        "miau.1 is.3 you.1",
    ];
    let mut view = quiet(&chain, &paths);
    view.transformed.push(TransformedView {
        id: "rock-1".into(),
        from: "ROCK".into(),
        to: "FLAG".into(),
    });
    case("M312", &run(&chain, view), &ok_d);

    // M313: two transformations of ROCK.
    let conflict = level(
        "conflict",
        "MIAU IS YOU . .\n. . . . .\nROCK IS FLAG . .\n. . . . .\nROCK IS WALL . .\nm r WIN . .",
    );
    let paths = [
        "miau.1 is.1 you.1",
        "rock.1 is.2 flag.1",
        "rock.2 is.3 wall.1",
    ];
    case("M313", &run(&conflict, quiet(&conflict, &paths)), &ok_d);

    // M314: ROCK IS ROCK blocks ROCK IS FLAG.
    let ident = level(
        "ident",
        "MIAU IS YOU . .\n. . . . .\nROCK IS ROCK . .\n. . . . .\nROCK IS FLAG . .\nm r WIN . .",
    );
    let paths = [
        "miau.1 is.1 you.1",
        "rock.1 is.2 rock.2",
        "rock.3 is.3 flag.1",
    ];
    let d = run(&ident, quiet(&ident, &paths));
    assert!(only(&d, "M313").is_empty());
    case("M314", &d, &ok_d);
}

#[test]
fn m312_cycle() {
    let l = level(
        "swap",
        "ROCK IS FLAG . .\n. . . . .\nFLAG IS ROCK . .\nMIAU IS YOU . .\nm r f WIN .",
    );
    let paths = [
        "rock.1 is.1 flag.1",
        "flag.1 is.2 rock.2",
        "miau.1 is.3 you.1",
    ];
    let d = run(&l, quiet(&l, &paths));
    assert_eq!(
        only(&d, "M312"),
        vec![
            "M312 warning: Level swap: ROCK IS FLAG and FLAG IS ROCK make these things change every turn."
        ]
    );
}

#[test]
fn m315_m316_stacks() {
    let l = level("stack", "FLAG IS WIN+DEFEAT\nMIAU IS YOU\nm f .");
    let paths = [
        "flag.1 is.1 win.1",
        "flag.1 is.1 defeat.1",
        "miau.1 is.2 you.1",
    ];
    let ok = level("stack", "FLAG IS WIN\nMIAU IS YOU\nm f .");
    let ok_d = run(&ok, quiet(&ok, &["flag.1 is.1 win.1", "miau.1 is.2 you.1"]));
    case("M315", &run(&l, quiet(&l, &paths)), &ok_d);

    let mixed = level("mixed", "MIAU AND+ROCK IS YOU\nm r . WIN");
    let paths = ["rock.1 is.1 you.1"];
    case("M316", &run(&mixed, quiet(&mixed, &paths)), &ok_d);
}

#[test]
fn m317_pinned_sentence_in_the_top_left_corner() {
    let l = level("company", "MIAU IS YOU . .\n. . . . .\nm . . . WIN");
    let trigger = run(&l, quiet(&l, &["miau.1 is.1 you.1"]));
    let ok = level("company", ". MIAU IS YOU .\n. . . . .\nm . . . WIN");
    case(
        "M317",
        &trigger,
        &run(&ok, quiet(&ok, &["miau.1 is.1 you.1"])),
    );
    // Note C example 1: the top-right corner.
    let corner = level("corner", ". . . . MIAU IS YOU\n. . . . . . m");
    let d = run(&corner, quiet(&corner, &["miau.1 is.1 you.1"]));
    assert!(only(&d, "M317")[0].contains(
        "MIAU IS YOU (row 0, columns 4 to 6) can never move: the top edge and the right edge hold it."
    ));
    // Fixed words are already drawn bolted.
    let fixed = level("fixed", "MIAU! IS! YOU! . .\n. . . . .\nm . . . WIN");
    assert!(only(&run(&fixed, quiet(&fixed, &["miau.1 is.1 you.1"])), "M317").is_empty());
}

#[test]
fn m318_edge_confinement() {
    let bad = level("edge", ". . . . .\n. . WIN . .\n. . . . .\n. . . . m");
    let ok = level(
        "edge",
        ". . . . .\n. . . . .\n. . WIN . .\n. . . . .\n. . . . m",
    );
    case(
        "M318",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}

#[test]
fn m319_word_trap() {
    let bad = level("spend-it-twice", "WALL IS STOP .\n. IS . .\n. . . m");
    let paths = ["wall.1 is.1 stop.1"];
    let trigger = run(&bad, quiet(&bad, &paths));
    assert_eq!(
        only(&trigger, "M319"),
        vec![
            "M319 warning: Level spend-it-twice: a word pushed into column 0, row 1 can never leave: \
             column 0 stops sideways pushes and the pinned WALL at column 0, row 0 stops vertical ones. \
             IS at column 1, row 1 gets there in one push."
        ]
    );
    // Nearest correct: the loose IS sits one column further right, two pushes away.
    let ok = level(
        "spend-it-twice",
        "WALL IS STOP . .\n. . . . .\n. . IS . .\n. . . . m",
    );
    case("M319", &trigger, &run(&ok, quiet(&ok, &paths)));
}

#[test]
fn m320_immovable_word() {
    let bad = level(
        "anchor",
        ". . . . FLAG\n. . . . .\nMIAU IS YOU . .\nm . . WIN .",
    );
    let ok = level(
        "anchor",
        ". . . FLAG .\n. . . . .\nMIAU IS YOU . .\nm . . WIN .",
    );
    let paths = ["miau.1 is.1 you.1"];
    case(
        "M320",
        &run(&bad, quiet(&bad, &paths)),
        &run(&ok, quiet(&ok, &paths)),
    );
}

#[test]
fn m321_win_shortcut_risk() {
    let bad = level(
        "crates-move",
        ". . . .\n. . WIN .\nCRATE IS PUSH .\n. . . m",
    );
    let ok = level(
        "crates-move",
        ". . WIN .\n. . . .\nCRATE IS PUSH .\n. . . m",
    );
    let paths = ["crate.1 is.1 push.1"];
    case(
        "M321",
        &run(&bad, quiet(&bad, &paths)),
        &run(&ok, quiet(&ok, &paths)),
    );
}

#[test]
fn m322_plate_near_gate() {
    let bad = level("gates", "MIAU IS YOU . . WIN\n. . . . . .\nm . . _ | .");
    let ok = level("gates", "MIAU IS YOU . . WIN\n. . . . . .\nm . _ . | .");
    case(
        "M322",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}

#[test]
fn m323_moving_guard() {
    let mut l = level(
        "guard",
        "MIAU IS YOU . .\n. . . . .\nMOUSE IS TICK . .\n. . . . .\nMOUSE IS DEFEAT . .\nm . u . WIN",
    );
    l.automata
        .push(automaton("mouse-walk", "TICK", Some("MOUSE")));
    let paths = [
        "miau.1 is.1 you.1",
        "mouse.1 is.2 tick.1",
        "mouse.2 is.3 defeat.1",
    ];
    let ok_paths = ["miau.1 is.1 you.1", "mouse.1 is.2 tick.1"];
    case(
        "M323",
        &run(&l, quiet(&l, &paths)),
        &run(&l, quiet(&l, &ok_paths)),
    );
}

#[test]
fn m324_must_form_unformable() {
    let mut bad = level("forms", "ROCK IS . .\nMIAU IS YOU WIN\nm r . .");
    bad.check.must_form.push(Named::new("ROCK IS FLAG"));
    let mut ok = level("forms", "ROCK IS FLAG .\nMIAU IS YOU WIN\nm r . .");
    ok.check.must_form.push(Named::new("ROCK IS FLAG"));
    case(
        "M324",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}

#[test]
fn m325_frail_leaves_loop() {
    let base = level("sand", "SAND IS FRAIL . .\nMIAU IS YOU WIN .\nm a h . .");
    let leaves = |pairs: &[(&str, &str)]| Frail {
        leaves: pairs
            .iter()
            .map(|(a, b)| (Named::new(*a), Named::new(*b)))
            .collect(),
        span: Default::default(),
    };
    let mut bad = base.clone();
    bad.frail = Some(leaves(&[
        ("SAND", "SHOAL"),
        ("SHOAL", "SAND"),
        ("DRIFT", "DRIFT"),
    ]));
    let mut ok = base.clone();
    ok.frail = Some(leaves(&[("SAND", "SHOAL"), ("SHOAL", "WATER")]));
    case(
        "M325",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}

#[test]
fn m326_board_too_large() {
    let row = |n: usize| vec!["."; n].join(" ");
    let bad = level("wide", &format!("MIAU IS YOU WIN {}\n{}", row(11), row(15)));
    let ok = level("wide", &format!("MIAU IS YOU WIN {}\n{}", row(10), row(14)));
    case(
        "M326",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}

#[test]
fn m327_sentence_spacing() {
    // Room all round, so every word can be pushed.
    let bad = level(
        "spacing",
        ". . . . . .\n. MIAU IS YOU . .\n. ROCK IS PUSH . .\n. . . . . .\n. m r . . WIN",
    );
    let ok = level(
        "spacing",
        ". . . . . .\n. MIAU IS YOU . .\n. . . . . .\n. ROCK IS PUSH . .\n. . . . . .\n. m r . . WIN",
    );
    case(
        "M327",
        &run(
            &bad,
            quiet(&bad, &["miau.1 is.1 you.1", "rock.1 is.2 push.1"]),
        ),
        &run(
            &ok,
            quiet(&ok, &["miau.1 is.1 you.1", "rock.1 is.2 push.1"]),
        ),
    );
}

/// Stacked sentences whose words can never move (fixed, or walled in where no
/// push reaches them) read down only as drawn: no hint. One loose sentence
/// next to a fixed one still gets it.
#[test]
fn m327_not_on_words_that_never_move() {
    let paths = ["miau.1 is.1 you.1", "rock.1 is.2 push.1"];
    let fixed = level(
        "spacing",
        "MIAU! IS! YOU! . .\nROCK! IS! PUSH! . .\nm r . . WIN",
    );
    assert!(only(&run(&fixed, quiet(&fixed, &paths)), "M327").is_empty());
    // Loose words, but sealed behind terrain no mover can cross.
    let mut sealed = level(
        "spacing",
        "MIAU IS YOU # . .\nROCK IS PUSH # . .\n# # # # . .\n. . . . m WIN",
    );
    sealed.terrain.push(Named::new("WALL"));
    let d = run(&sealed, quiet(&sealed, &paths));
    assert!(only(&d, "M327").is_empty(), "{:#?}", all(&d));
    let half = level(
        "spacing",
        ". . . . . .\n. MIAU! IS! YOU! . .\n. ROCK IS PUSH . .\n. . . . . .\n. m r . . WIN",
    );
    assert_eq!(only(&run(&half, quiet(&half, &paths)), "M327").len(), 1);
}

#[test]
fn m328_to_m330_copy() {
    let base = level("gap", "MIAU IS YOU WIN\nm . . .");
    let with = |title: &str, hint: &str| {
        let mut l = base.clone();
        l.title = Some(title.into());
        l.hint = Some(hint.into());
        l.check.must_form.push(Named::new("MIAU IS WIN"));
        run(&l, quiet(&l, &[]))
    };
    let ok = with("Down to MIAU", "The doorway's only one crate wide.");
    case("M328", &with("Fill The Gap", "Look around."), &ok);
    case("M329", &with("The garden · gate", "Past the gardens."), &ok);
    let d = with(
        "Fill the gap",
        "Try miau  is win, then up, up, right, right.",
    );
    assert_eq!(only(&d, "M330").len(), 1);
    case("M330", &d, &ok);
    let moves = with("Fill the gap", "Go UURRD.");
    assert!(only(&moves, "M330")[0].contains("UURRD"));
}

fn palette(noun: &str, glyph: &str) -> PaletteEntry {
    PaletteEntry {
        noun: Named::new(noun),
        glyph: glyph.into(),
        ..PaletteEntry::default()
    }
}

#[test]
fn m331_to_m334_glyphs() {
    let l = level("crates", "MIAU IS YOU WIN\nm $ . .");
    let bare = pack(vec![l.clone()]);
    let mut drawn = bare.clone();
    drawn.palette.push(palette("CRATE", "📦"));
    case("M331", &analyse_pack(&bare), &analyse_pack(&drawn));

    let mut reef = drawn.clone();
    reef.palette.push(palette("REEF", "🪸"));
    case("M332", &analyse_pack(&reef), &analyse_pack(&drawn));

    // Every PLATE has a channel: the renderer draws those itself, and the
    // message says so instead of claiming there is no PLATE thing.
    let plates = pack(vec![level("plates", "MIAU IS YOU WIN\nm _ | $")]);
    let mut entry = plates.clone();
    entry.palette.push(palette("CRATE", "📦"));
    let mut unused = entry.clone();
    unused.palette.push(palette("PLATE", "🟫"));
    let fired = only(&analyse_pack(&unused), "M332");
    assert_eq!(
        fired,
        [
            "M332 warning: The palette gives PLATE 🟫, but every PLATE thing in the pack has a channel, \
          and the renderer draws plates and gates with a channel itself, in the channel's \
          colour: this glyph is never used."
        ],
    );
    // A plate without a channel uses the entry.
    let mut bare_plate = unused.clone();
    bare_plate.levels[0].objects[5].channel = None;
    assert_eq!(bare_plate.levels[0].objects[5].text, "PLATE");
    assert!(only(&analyse_pack(&bare_plate), "M332").is_empty());

    let mut jelly = drawn.clone();
    jelly.levels[0] = level("crates", "MIAU IS YOU WIN\nm $ j .");
    jelly.palette.push(palette("JELLY", "🪼"));
    let mut fallback = jelly.clone();
    fallback.palette.last_mut().unwrap().fallback = Some("🎐".into());
    case("M333", &analyse_pack(&jelly), &analyse_pack(&fallback));

    let mut cat = drawn.clone();
    cat.palette.push(palette("MIAU", "🐱"));
    let mut faces = cat.clone();
    faces.palette.last_mut().unwrap().faces = Some("left".into());
    case("M334", &analyse_pack(&cat), &analyse_pack(&faces));
}

#[test]
fn m335_to_m337_world() {
    let mk = |i: usize, category: &str| {
        let mut l: Level = level(&format!("level-{i}"), "MIAU IS YOU WIN\nm . . .");
        l.category = Some(Named::new(category));
        l.introduces.ideas.push("walking".into());
        l.check.solution = Some(Named::new("RRR"));
        l.check.steps = Some(3);
        l
    };
    let mut ok = pack(
        (0..6)
            .map(|i| mk(i, if i == 5 { "challenge" } else { "required" }))
            .collect(),
    );
    ok.world = Some(World {
        glyph: "🐈".into(),
        ..World::default()
    });
    let mut few = ok.clone();
    few.levels.truncate(5);
    case("M335", &analyse_pack(&few), &analyse_pack(&ok));
    let mut plain = ok.clone();
    plain.levels[5].category = Some(Named::new("optional"));
    case("M336", &analyse_pack(&plain), &analyse_pack(&ok));
    let mut bare = ok.clone();
    bare.levels[2].check.solution = None;
    bare.levels[3].introduces = Default::default();
    case("M337", &analyse_pack(&bare), &analyse_pack(&ok));
}

#[test]
fn m338_m339_rules_versions() {
    let l = level("stack", "FLAG IS WIN+DEFEAT\nMIAU IS YOU\nm f .");
    let ok = pack(vec![l]);
    let mut old = ok.clone();
    old.rules = Some(1);
    case("M338", &analyse_pack(&old), &analyse_pack(&ok));
    let mut none = ok.clone();
    none.rules = None;
    case("M339", &analyse_pack(&none), &analyse_pack(&ok));
}

#[test]
fn skipped_levels_and_order() {
    let a = level("a", "MIAU IS YOU\nm . .");
    let b = level("b", "MIAU IS YOU\nm . .");
    let p = pack(vec![a, b]);
    let d = super::analyse_with(&p, &["a".to_string()], &|_| Some(ResetView::default()));
    assert!(d.iter().all(|d| d.level.as_deref() != Some("a")));
    assert!(d.iter().any(|d| d.level.as_deref() == Some("b")));
    let again = super::analyse_with(&p, &["a".to_string()], &|_| Some(ResetView::default()));
    assert_eq!(d, again);
}

#[test]
fn never_panics_on_odd_models() {
    // Objects off the board, a zero-sized board, an oversized board, unknown ids in the view.
    let mut l = level("odd", "MIAU IS YOU\nm . .");
    l.objects.push(Object {
        id: "far".into(),
        kind: Kind::Word,
        text: "WIN".into(),
        x: 900,
        y: 900,
        ..Object::default()
    });
    let mut view = quiet(&l, &["miau.1 is.1 you.1"]);
    view.destroyed.push(DestroyedView {
        id: "ghost".into(),
        cause: "open".into(),
    });
    view.transformed.push(TransformedView {
        id: "ghost".into(),
        from: "A".into(),
        to: "B".into(),
    });
    view.won_at_start = true;
    run(&l, view.clone());
    let mut zero = l.clone();
    zero.width = 0;
    zero.height = 0;
    run(&zero, view.clone());
    let mut huge = l.clone();
    huge.width = 100_000;
    huge.height = 100_000;
    run(&huge, view);
}

#[test]
fn a_full_128_board_is_cheap() {
    let row: Vec<&str> = (0..128)
        .map(|x| match x % 4 {
            0 => "ROCK",
            1 => "IS",
            2 => "PUSH",
            _ => ".",
        })
        .collect();
    let board: Vec<String> = (0..128).map(|_| row.join(" ")).collect();
    let l = level("big", &board.join("\n"));
    let paths: Vec<String> = (0..32)
        .map(|i| format!("rock.{n} is.{n} push.{n}", n = i + 1))
        .collect();
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let r = rules(&l, &paths);
    let view = ResetView {
        initial_rules: r.clone(),
        rules: r,
        ..ResetView::default()
    };
    let start = std::time::Instant::now();
    let d = run(&l, view);
    assert!(!d.is_empty());
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
}

/// The seed cases again, through the engine's own reset ([`super::analyse`]).
mod with_engine {
    use super::*;

    fn engine(l: &Level) -> Vec<Diagnostic> {
        super::super::analyse(&pack(vec![l.clone()]), &[])
    }

    #[test]
    fn key_and_door() {
        let d = engine(&level("key-and-door", KEY_AND_DOOR));
        assert_eq!(
            only(&d, "M301"),
            vec![
                "M301 warning: Level key-and-door, column 6, row 0: SHUT isn't a thing in this pack. \
                 Did you mean a property? As written, DOOR IS SHUT turns every DOOR into a SHUT thing with no glyph."
            ]
        );
        let mut ok = level("key-and-door", KEY_AND_DOOR);
        ok.pairs.push(pair("OPEN", "SHUT"));
        assert!(only(&engine(&ok), "M301").is_empty());
    }

    #[test]
    fn a_typo_names_the_property_its_fix_offers() {
        let board = "
    MIAU  IS YOU  . .
    WATER IS SNIK . .
    m     .  .    . w
";
        let d = engine(&level("typo", board));
        let m301 = only(&d, "M301");
        assert_eq!(m301.len(), 1, "{m301:?}");
        assert!(
            m301[0].contains("SNIK isn't a thing in this pack. Did you mean SINK?"),
            "{m301:?}"
        );
        let fix = d.iter().find(|x| x.code() == "M301").unwrap();
        assert_eq!(fix.fixes[0].title, "Replace with SINK");
    }

    #[test]
    fn boat_sinks_at_reset() {
        let d = engine(&level("tide", SINKING));
        let m = only(&d, "M309");
        assert_eq!(m.len(), 1);
        assert!(
            m[0].contains("BOAT at column 4, row 2 sinks at reset: WATER IS SINK"),
            "{m:?}"
        );
    }

    #[test]
    fn miau_is_you_and_rock() {
        let d = engine(&level(
            "rocky",
            "MIAU IS YOU AND ROCK\n. . . . .\nm . . . WIN",
        ));
        assert_eq!(
            only(&d, "M306"),
            vec![
                "M306 error: Level rocky starts with nothing that is YOU: \
                 MIAU IS YOU AND ROCK turns every MIAU into a ROCK at reset."
            ]
        );
        assert_eq!(only(&d, "M311").len(), 1);
        let ok = engine(&level("rocky", "MIAU IS YOU . .\n. . . . .\nm . . . WIN"));
        assert!(only(&ok, "M306").is_empty());
    }

    #[test]
    fn you_and_defeat_destroys_itself() {
        let d = engine(&level(
            "ouch",
            "MIAU IS YOU AND DEFEAT\n. . . . .\nm . . . WIN",
        ));
        let m = only(&d, "M306");
        assert!(
            m[0].contains("the only MIAU is destroyed at reset"),
            "{m:?}"
        );
        assert!(only(&d, "M309")[0].contains("destroys itself at reset: MIAU IS YOU AND DEFEAT"));
    }

    #[test]
    fn pinned_and_trapped() {
        let d = engine(&level("company", "MIAU IS YOU . .\n. . . . .\nm . . . WIN"));
        assert_eq!(only(&d, "M317").len(), 1);
        let d = engine(&level(
            "spend-it-twice",
            "WALL IS STOP .\n. IS . .\nMIAU IS YOU .\n. . . .\nm . . WIN",
        ));
        assert!(only(&d, "M319")[0].contains("column 0, row 1 can never leave"));
    }

    #[test]
    fn frail_on_sink_and_moving_guard() {
        let d = engine(&level(
            "plank",
            "MIAU IS YOU . .\n. . . . .\nWATER IS SINK . .\n. . . . .\nDRIFT IS FRAIL . .\nm . d+w . WIN",
        ));
        assert_eq!(only(&d, "M310").len(), 1, "{:?}", all(&d));
        assert!(only(&d, "M309").is_empty());
        let mut l = level(
            "guard",
            "MIAU IS YOU . .\n. . . . .\nMOUSE IS TICK . .\n. . . . .\nMOUSE IS DEFEAT . .\nm . u . WIN",
        );
        l.automata
            .push(automaton("mouse-walk", "TICK", Some("MOUSE")));
        assert_eq!(only(&engine(&l), "M323").len(), 1);
    }

    #[test]
    fn transformations() {
        let d = engine(&level(
            "chain",
            "ROCK IS FLAG . .\n. . . . .\nFLAG IS WALL . .\n. . . . .\nMIAU IS YOU . .\nm r WIN . .",
        ));
        assert_eq!(only(&d, "M311").len(), 1);
        assert_eq!(only(&d, "M312").len(), 1);
        let d = engine(&level(
            "conflict",
            "ROCK IS FLAG . .\n. . . . .\nROCK IS WALL . .\n. . . . .\nMIAU IS YOU . .\nm r WIN . .",
        ));
        assert!(only(&d, "M313")[0].contains("Reading order picks ROCK IS FLAG"));
        let d = engine(&level(
            "stack",
            "FLAG IS WIN+DEFEAT\n. . .\nMIAU IS YOU\nm f .",
        ));
        assert_eq!(only(&d, "M315").len(), 1);
        let d = engine(&level(
            "won",
            "MIAU IS YOU\n. . .\nFLAG IS WIN\n. . .\nm+f . .",
        ));
        assert!(only(&d, "M307")[0].contains("stands on FLAG, which is WIN"));
    }
}

#[test]
fn permanent_terrain_pins_a_word() {
    let board = "MIAU IS YOU . .\n# IS # . .\n. . . . .\nm . . WIN .";
    let paths = ["miau.1 is.1 you.1"];
    let mut walled = level("walls", board);
    walled.terrain.push(Named::new("WALL"));
    let d = run(&walled, quiet(&walled, &paths));
    assert_eq!(
        only(&d, "M320"),
        vec![
            "M320 info: Level walls: IS at column 1, row 1 can never move. It can only be used \
             where it stands, as the start or end of a sentence built onto it."
        ]
    );
    let plain = level("walls", board);
    assert!(only(&run(&plain, quiet(&plain, &paths)), "M320").is_empty());
    // A WALL word anywhere makes the walls impermanent.
    let mut spelled = level("walls", &format!("{board}\n. . WALL . ."));
    spelled.terrain.push(Named::new("WALL"));
    assert!(only(&run(&spelled, quiet(&spelled, &paths)), "M320").is_empty());
}

#[test]
fn a_full_128_board_through_the_engine_is_cheap() {
    // Every fourth cell a sentence start, things stacked on water everywhere else.
    let row: Vec<&str> = (0..128)
        .map(|x| match x % 8 {
            0 => "ROCK",
            1 => "IS",
            2 => "SINK",
            3 => "r+r",
            4 => "WATER",
            5 => "IS",
            6 => "ROCK",
            _ => "b+r",
        })
        .collect();
    let board: Vec<String> = (0..128).map(|_| row.join(" ")).collect();
    let l = level("big", &board.join("\n"));
    let start = std::time::Instant::now();
    let d = super::analyse(&pack(vec![l]), &[]);
    assert!(!d.is_empty());
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    eprintln!("128x128 through the engine: {:?}", start.elapsed());
}

#[test]
fn pack_allowances_apply_to_pack_wide_warnings_only() {
    let mut l = level("clock", "MIAU IS YOU . WIN\n m . . u .\nMOUSE IS TICK . .");
    l.automata
        .push(automaton("mouse-walk", "TICK", Some("MOUSE")));
    let mut p = pack(vec![l]);
    p.allow.push(Allowance {
        code: Named::new("M304"),
        reason: "Described in the tutorial.".into(),
        span: Default::default(),
    });
    // A pack allowance doesn't reach level diagnostics.
    p.allow.push(Allowance {
        code: Named::new("M308"),
        reason: "Errors can't be allowed.".into(),
        span: Default::default(),
    });
    let d = analyse_pack(&p);
    let m304 = d.iter().find(|d| d.code() == "M304").unwrap();
    assert_eq!(m304.severity, Severity::Info);
    assert!(
        m304.message
            .ends_with("(allowed: Described in the tutorial.)")
    );
    let mut no_win = p.clone();
    no_win.levels[0] = level("clock", "MIAU IS YOU\nm . .");
    let d = analyse_pack(&no_win);
    let m308 = d.iter().find(|d| d.code() == "M308").unwrap();
    assert_eq!(m308.severity, Severity::Error);
    assert!(!m308.message.contains("allowed"));
}

#[test]
fn sentence_case_keeps_pack_words_and_i() {
    let mut l = level("gap", "MIAU IS YOU WIN\nm . . .");
    l.title = Some("Down to MIAU, I'm sure".into());
    assert!(only(&run(&l, quiet(&l, &[])), "M328").is_empty());
}

#[test]
fn m309_offers_removal_only_when_the_reset_stays_the_same() {
    use crate::span::Span;
    let mut l = level("tide", SINKING);
    // Give every object its own cell span, as lowering does.
    for (k, o) in l.objects.iter_mut().enumerate() {
        o.span = Span::new(10 * k, 10 * k + 3);
    }
    // The boat and the water were written in one cell: `b+w`.
    let boat = l.objects.iter().position(|o| o.id == "boat-1").unwrap();
    let water = l.objects.iter().position(|o| o.id == "water-1").unwrap();
    l.objects[water].span = l.objects[boat].span;
    let d = super::analyse(&pack(vec![l.clone()]), &[]);
    let m309 = d.iter().find(|d| d.code() == "M309").unwrap();
    assert_eq!(m309.fixes.len(), 1, "{:?}", m309.fixes);
    assert_eq!(m309.fixes[0].edits.len(), 1);
    assert_eq!(m309.fixes[0].edits[0].new_text, ".");
    // Separate spans for a stack: the edit can't remove one without the other, so no fix.
    let mut apart = l.clone();
    apart.objects[water].span = Span::new(500, 503);
    apart.objects.push(Object {
        id: "rock-9".into(),
        kind: Kind::Thing,
        text: "ROCK".into(),
        x: 0,
        y: 3,
        span: Span::new(500, 503),
        ..Object::default()
    });
    let d = super::analyse(&pack(vec![apart]), &[]);
    let m309 = d.iter().find(|d| d.code() == "M309").unwrap();
    assert!(
        m309.fixes
            .iter()
            .all(|f| f.title != "Remove the destroyed tiles and things")
    );
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    const CELLS: &[&str] = &[
        ".",
        ".",
        ".",
        "MIAU",
        "IS",
        "YOU",
        "WIN",
        "AND",
        "ROCK",
        "SINK",
        "DEFEAT",
        "PUSH",
        "STOP",
        "FLAG",
        "SHUT",
        "TICK",
        "STOP!",
        "IS+AND",
        "WIN+DEFEAT",
        "m",
        "r",
        "w",
        "b+w",
        "f+WIN",
        "d",
        "#",
        "_",
        "|",
        "u",
        "k+=",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn random_levels(w in 1usize..9, h in 1usize..7, picks in proptest::collection::vec(0usize..CELLS.len(), 64)) {
            let board: Vec<String> = (0..h)
                .map(|y| (0..w).map(|x| CELLS[picks[(y * w + x) % picks.len()]]).collect::<Vec<_>>().join(" "))
                .collect();
            let mut l = level("random", &board.join("\n"));
            l.terrain.push(Named::new("WALL"));
            l.automata.push(automaton("mouse-walk", "TICK", Some("MOUSE")));
            l.pairs.push(pair("OPEN", "SHUT"));
            l.frail = Some(Frail {
                leaves: vec![(Named::new("DRIFT"), Named::new("DRIFT"))],
                span: Default::default(),
            });
            let p = pack(vec![l]);
            let a = super::super::analyse(&p, &[]);
            let b = super::super::analyse(&p, &[]);
            prop_assert_eq!(a, b);
        }
    }
}

/// A sealed office: the rule row sits above a full row of walls that stay STOP,
/// so no mover ever reaches it. Its words are pinned (M317), and the empty
/// row-0 cells between them are not traps (M319), since no word can get there.
#[test]
fn sealed_office_is_pinned_and_has_no_traps() {
    let l = level(
        "office",
        "MIAU IS YOU . WALL IS STOP .\n# # # # # # # #\n# m . . . . WIN #\n# # # # # # # #",
    );
    let d = super::analyse(&pack(vec![l.clone()]), &[]);
    assert!(only(&d, "M319").is_empty(), "{:#?}", all(&d));
    let pinned = only(&d, "M317");
    assert_eq!(pinned.len(), 2, "{pinned:#?}");
    assert!(
        pinned[0].contains("no mover can ever reach it"),
        "{pinned:#?}"
    );
    // Break the seal: a gap in the wall row lets the cat up into row 0.
    let open = level(
        "office",
        "MIAU IS YOU . WALL IS STOP .\n# # # . # # # #\n# m . . . . WIN #\n# # # # # # # #",
    );
    let d = super::analyse(&pack(vec![open]), &[]);
    assert!(
        only(&d, "M317").iter().all(|m| !m.contains("WALL IS STOP")),
        "{:#?}",
        all(&d)
    );
}
