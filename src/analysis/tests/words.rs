//! Words, nouns and properties: M301–M305 and M308.

use super::*;

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
fn m308_no_win_word() {
    let bad = level("nowin", "MIAU IS YOU\n m . .");
    let ok = level("nowin", "MIAU IS YOU\n m . GOAL");
    case(
        "M308",
        &run(&bad, quiet(&bad, &[])),
        &run(&ok, quiet(&ok, &[])),
    );
}
