//! Worlds, rules versions and pack-wide allowances: M335–M339.

use super::*;

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
