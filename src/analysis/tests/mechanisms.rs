//! Plates, gates, automata and frail leftovers: M321, M322, M324 and M325.

use super::*;

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
