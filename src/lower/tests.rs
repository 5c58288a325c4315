//! Lowering small texts: legends, look-alikes, renames and a second frail.

use super::*;
use crate::syntax::parse;

fn build(text: &str) -> (model::Pack, Vec<Diagnostic>) {
    let (file, mut diags) = parse(text);
    let (pack, more) = lower(&file);
    diags.extend(more);
    (pack, diags)
}

#[test]
fn lowers_the_reference_example() {
    let text = include_str!("../../tests/fixtures/syntax/valid-crate-works.miau");
    let (pack, diags) = build(text);
    let codes: Vec<_> = diags.iter().map(|d| d.code()).collect();
    assert!(codes.is_empty(), "{diags:#?}");
    assert_eq!(pack.id, "crate-works");
    assert_eq!(pack.engine, 1);
    assert_eq!(pack.world.as_ref().unwrap().accent.as_deref(), Some("push"));
    assert_eq!(pack.palette.len(), 4);
    assert!(pack.palette[2].terrain);
    let l = &pack.levels[0];
    assert_eq!((l.width, l.height), (11, 4));
    assert_eq!(
        l.check.allow_bypass.as_ref().unwrap().reason,
        "Pure Sokoban: no word needs to move."
    );
    assert_eq!(l.check.steps, Some(15));
    assert_eq!(l.introduces.ideas, vec!["pushing".to_string()]);
    assert_eq!(l.automata[0].pattern.len(), 10);
    assert_eq!(l.automata[0].pattern[0], model::Step::Move(-1, 0));
    assert!(l.pairs[0].enter);
    assert_eq!(l.frail.as_ref().unwrap().leaves.len(), 2);
    // Reading order and ids.
    let first: Vec<_> = l.objects.iter().take(3).map(|o| o.id.as_str()).collect();
    assert_eq!(first, ["miau.1", "is.1", "you.1"]);
    let is2 = l.objects.iter().find(|o| o.id == "is.2").unwrap();
    assert_eq!((is2.x, is2.y), (5, 0));
    // `*` is CRATE+DOCK from the pack legend: two things in one cell, in order.
    let star: Vec<_> = l.objects.iter().filter(|o| (o.x, o.y) == (7, 2)).collect();
    assert_eq!(star.len(), 2);
    assert_eq!(
        (star[0].id.as_str(), star[1].id.as_str()),
        ("crate-2", "dock-1")
    );
    // `@` from the default legend.
    let cat = l.objects.iter().find(|o| o.id == "miau-1").unwrap();
    assert_eq!((cat.x, cat.y), (1, 2));
    let win = l.objects.iter().find(|o| o.id == "win.1").unwrap();
    assert!(win.fixed);
    assert_eq!(&text[win.span.range()], "WIN!");
    // f+WIN: a FLAG thing and a WIN word in one cell.
    let f: Vec<_> = l
        .objects
        .iter()
        .filter(|o| (o.x, o.y) == (8, 3))
        .map(|o| o.id.as_str())
        .collect();
    assert_eq!(f, ["flag-1", "win.2"]);
}

#[test]
fn level_legend_overrides_pack_legend_and_default() {
    let text = "pack p1 {\n}\nlegend {\n  x ROCK\n}\nlevel l1 {\n  legend {\n    x BOAT\n    _ PLATE channel teal\n  }\n  board {\n    x _ $\n  }\n}\n";
    let (pack, diags) = build(text);
    let codes: Vec<_> = diags.iter().map(|d| d.code()).collect();
    assert_eq!(codes, ["M115"]); // the pack's x is shadowed everywhere
    let o = &pack.levels[0].objects;
    assert_eq!(o[0].text, "BOAT");
    assert_eq!(o[1].channel.as_deref(), Some("teal"));
    assert_eq!(o[2].text, "CRATE");
}

#[test]
fn unknown_key_suggests_look_alike() {
    let text = "level l1 {\n  board {\n    0 MIAU\n  }\n}\n";
    let (_, diags) = build(text);
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code(), "M109");
    assert_eq!(
        diags[0].message,
        "Level l1, column 0, row 0: 0 isn't in the legend. Did you mean o (DOCK)?"
    );
    assert_eq!(diags[0].cells, vec![(0, 0)]);
    assert_eq!(diags[0].fixes[0].edits[0].new_text, "o");
}

#[test]
fn mixed_case_cell_suggests_the_word() {
    let (_, diags) = build("level l1 {\n  board {\n    Miau IS YOU\n  }\n}\n");
    assert!(
        diags[0].message.ends_with("Did you mean the word MIAU?"),
        "{}",
        diags[0].message
    );
}

#[test]
fn uppercase_legend_key_is_m110_with_rename() {
    let (_, diags) = build("level l1 {\n  legend {\n    X ROCK\n  }\n  board {\n    X .\n  }\n}\n");
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code(), "M110");
    assert_eq!(diags[0].fixes[0].edits.len(), 2);
    assert_eq!(diags[0].fixes[0].edits[0].new_text, "i");
}

#[test]
fn second_frail_is_m210() {
    let (pack, diags) = build("level l1 {\n  frail\n  frail A -> B\n  board {\n    .\n  }\n}\n");
    assert_eq!(diags.iter().map(|d| d.code()).collect::<Vec<_>>(), ["M210"]);
    assert!(pack.levels[0].frail.as_ref().unwrap().leaves.is_empty());
}
