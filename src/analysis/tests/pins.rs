//! Words that can never move or leave: M317–M320.

use super::*;

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

/// A sealed office: the rule row sits above a full row of walls that stay STOP,
/// so no mover ever reaches it. Its words are pinned (M317), and the empty
/// row-0 cells between them are not traps (M319), since no word can get there.
#[test]
fn sealed_office_is_pinned_and_has_no_traps() {
    let l = level(
        "office",
        "MIAU IS YOU . WALL IS STOP .\n# # # # # # # #\n# m . . . . WIN #\n# # # # # # # #",
    );
    let d = crate::analysis::analyse(&pack(vec![l.clone()]), &[]);
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
    let d = crate::analysis::analyse(&pack(vec![open]), &[]);
    assert!(
        only(&d, "M317").iter().all(|m| !m.contains("WALL IS STOP")),
        "{:#?}",
        all(&d)
    );
}
