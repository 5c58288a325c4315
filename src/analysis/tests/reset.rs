//! What the reset does to a level: M306, M307, M309–M316 and M323.

use super::*;

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
    let d = crate::analysis::analyse(&pack(vec![l.clone()]), &[]);
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
    let d = crate::analysis::analyse(&pack(vec![apart]), &[]);
    let m309 = d.iter().find(|d| d.code() == "M309").unwrap();
    assert!(
        m309.fixes
            .iter()
            .all(|f| f.title != "Remove the destroyed tiles and things")
    );
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
