//! The seed cases again, through the engine's own reset ([`crate::analysis::analyse`]).

use super::*;

fn engine(l: &Level) -> Vec<Diagnostic> {
    crate::analysis::analyse(&pack(vec![l.clone()]), &[])
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
