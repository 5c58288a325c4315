//! Stage 2 on models built in code: spans from the model, quick fixes, and
//! the edges of the shared limits.

use super::*;
use crate::model::{Automaton, Kind, Named, Object, PaletteEntry, Step, World};

fn sp(a: usize, b: usize) -> Span {
    Span::new(a, b)
}

fn named(t: &str, a: usize, b: usize) -> Named {
    Named {
        text: t.into(),
        span: sp(a, b),
    }
}

/// A small valid pack: one level, MIAU IS YOU and a cat.
fn pack() -> Pack {
    let word = |t: &str, x: u32, id: &str| Object {
        id: id.into(),
        kind: Kind::Word,
        text: t.into(),
        x,
        y: 0,
        span: sp(100 + x as usize * 5, 104 + x as usize * 5),
        ..Object::default()
    };
    Pack {
        id: "tiny".into(),
        name: "Tiny".into(),
        version: "1.0.0".into(),
        engine: 1,
        rules: Some(2),
        span: sp(0, 9),
        levels: vec![Level {
            id: named("first", 20, 25),
            title: Some("First".into()),
            width: 4,
            height: 2,
            objects: vec![
                word("MIAU", 0, "miau.1"),
                word("IS", 1, "is.1"),
                word("YOU", 2, "you.1"),
                Object {
                    id: "miau-1".into(),
                    kind: Kind::Thing,
                    text: "MIAU".into(),
                    x: 0,
                    y: 1,
                    span: sp(130, 131),
                    ..Object::default()
                },
            ],
            span: sp(14, 25),
            board_span: sp(90, 140),
            ..Level::default()
        }],
        ..Pack::default()
    }
}

fn codes(p: &Pack) -> Vec<&'static str> {
    validate(p).iter().map(|d| d.code()).collect()
}

#[test]
fn a_valid_pack_is_clean() {
    assert!(validate(&pack()).is_empty(), "{:#?}", validate(&pack()));
}

#[test]
fn lowercase_word_offers_uppercase() {
    let mut p = pack();
    p.levels[0].terrain.push(named("wall", 40, 44));
    let d = validate(&p);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code(), "M207");
    assert_eq!(d[0].span, sp(40, 44));
    assert_eq!(d[0].path.as_deref(), Some("levels[0].terrain[0]"));
    assert_eq!(d[0].fixes[0].edits[0].new_text, "WALL");
}

#[test]
fn category_typo_offers_the_category() {
    let mut p = pack();
    p.levels[0].category = Some(named("challange", 30, 39));
    let d = validate(&p);
    assert_eq!(d[0].code(), "M233");
    assert!(d[0].message.ends_with("Did you mean challenge?"));
    assert_eq!(d[0].fixes[0].edits[0].span, sp(30, 39));
    assert_eq!(d[0].fixes[0].edits[0].new_text, "challenge");
}

#[test]
fn level_id_offers_a_slug() {
    let mut p = pack();
    p.levels[0].id = named("Night Shift", 20, 31);
    let d = validate(&p);
    assert_eq!(d[0].code(), "M206");
    assert_eq!(d[0].fixes[0].edits[0].new_text, "night-shift");
}

#[test]
fn frail_word_without_statement_offers_one() {
    let mut p = pack();
    p.levels[0].objects.push(Object {
        id: "frail.1".into(),
        kind: Kind::Word,
        text: "FRAIL".into(),
        x: 3,
        y: 0,
        span: sp(118, 123),
        ..Object::default()
    });
    let d = validate(&p);
    assert_eq!(d[0].code(), "M243");
    assert_eq!(d[0].span, sp(118, 123));
    assert_eq!(d[0].cells, vec![(3, 0)]);
    assert_eq!(d[0].fixes[0].edits[0].span, Span::point(90));
}

/// A bound on the recorded length (`steps N at-least B`) must be at least
/// 1, come with the steps it qualifies, and not exceed them; one at or
/// below the steps is fine.
#[test]
fn a_bound_on_the_steps_must_be_able_to_hold() {
    let faults = |steps: Option<u64>, at_least: u64| {
        let mut p = pack();
        p.levels[0].check.steps = steps;
        p.levels[0].check.steps_at_least = Some(at_least);
        validate(&p)
            .into_iter()
            .filter(|d| d.code() == "M237")
            .map(|d| d.message)
            .collect::<Vec<_>>()
    };
    assert_eq!(faults(Some(10), 4), Vec::<String>::new());
    assert_eq!(faults(Some(10), 10), Vec::<String>::new());
    let above = faults(Some(10), 12);
    assert_eq!(above.len(), 1, "{above:?}");
    assert!(
        above[0].contains("steps 10 at-least 12 can't hold"),
        "{}",
        above[0]
    );
    assert!(above[0].ends_with("Lower the bound to at most 10, or remove it."));
    let alone = faults(None, 4);
    assert!(alone[0].contains("the level records no steps"), "{alone:?}");
    let zero = faults(Some(10), 0);
    assert!(zero[0].contains("at least 1"), "{zero:?}");
}

#[test]
fn solution_with_separators_offers_the_cleaned_route() {
    let mut p = pack();
    p.levels[0].check.solution = Some(named("r, r d", 50, 58));
    let d = validate(&p);
    assert_eq!(d[0].code(), "M237");
    assert_eq!(d[0].fixes[0].edits[0].new_text, "\"RRD\"");
}

#[test]
fn solution_steps_count_from_one_and_a_space_is_named() {
    let mut p = pack();
    p.levels[0].check.solution = Some(named("RRDX", 50, 56));
    let d = validate(&p);
    assert!(
        d[0].message.ends_with("found X at step 4."),
        "{}",
        d[0].message
    );
    p.levels[0].check.solution = Some(named("R D", 50, 55));
    let d = validate(&p);
    assert!(
        d[0].message.ends_with("found a space at step 2."),
        "{}",
        d[0].message
    );
}

#[test]
fn absent_introduced_word_offers_removal() {
    let mut p = pack();
    p.levels[0].introduces.words.push(named("GOAL", 60, 64));
    let d = validate(&p);
    assert_eq!(d[0].code(), "M235");
    assert_eq!(d[0].fixes[0].edits[0].new_text, "");
}

#[test]
fn lengths_count_utf16_units() {
    let mut p = pack();
    p.world = Some(World {
        glyph: "🐈".repeat(8),
        ..World::default()
    });
    assert!(codes(&p).is_empty());
    p.world.as_mut().unwrap().glyph = "🐈".repeat(9);
    assert_eq!(codes(&p), vec!["M226"]);
    p.world = None;
    p.palette.push(PaletteEntry {
        noun: Named::new("MIAU"),
        glyph: "⚙️".repeat(5),
        ..PaletteEntry::default()
    });
    // ⚙️ is two units (U+2699 and a variation selector): 10, fine.
    assert!(codes(&p).is_empty());
}

#[test]
fn limits_edges() {
    let mut p = pack();
    p.levels[0].width = limits::MAX_BOARD_SIDE;
    assert!(codes(&p).is_empty());
    p.levels[0].width = limits::MAX_BOARD_SIDE + 1;
    assert_eq!(codes(&p), vec!["M213"]);

    let mut p = pack();
    p.levels[0].automata.push(Automaton {
        id: Named::new("clock"),
        property: Named::new("TICK"),
        pattern: vec![Step::Wait; limits::MAX_PATTERN],
        phase: Some(limits::MAX_PATTERN as u64 - 1),
        ..Automaton::default()
    });
    assert!(codes(&p).is_empty());
    p.levels[0].automata[0].pattern.push(Step::Wait);
    assert_eq!(codes(&p), vec!["M216"]);
    p.levels[0].automata[0].pattern.truncate(2);
    assert_eq!(codes(&p), vec!["M220"]);

    let mut p = pack();
    let level = p.levels[0].clone();
    p.levels = (0..limits::MAX_LEVELS)
        .map(|i| Level {
            id: Named::new(format!("level-{i}")),
            ..level.clone()
        })
        .collect();
    assert!(codes(&p).is_empty());
    p.levels.push(Level {
        id: Named::new("one-more"),
        ..level
    });
    assert_eq!(codes(&p), vec!["M211"]);
}

#[test]
fn reserved_and_declared_names() {
    let mut p = pack();
    p.levels[0].objects[3].text = "WIN".into();
    assert_eq!(codes(&p), vec!["M208"]);
    let mut p = pack();
    p.levels[0].pairs.push(crate::model::Pair {
        words: vec![Named::new("OPEN"), Named::new("MIAU")],
        effect: "destroy-both".into(),
        ..Default::default()
    });
    assert_eq!(codes(&p), vec!["M222"]);
}

#[test]
fn budget_cap_from_the_check_configuration() {
    let mut p = pack();
    p.levels[0].check.solver_budget = Some(5_000_000);
    assert!(validate(&p).is_empty());
    let d = validate_with_budget_cap(&p, 4_000_000);
    assert_eq!(d[0].code(), "M238");
    assert!(d[0].message.contains("1 to 4000000"));
}

#[test]
fn slugify_makes_ids() {
    assert_eq!(slugify("Night Shift"), "night-shift");
    assert_eq!(slugify("  A--B  "), "a--b");
    assert_eq!(slugify("🐈"), "");
}

#[test]
fn a_thing_named_after_an_automaton_property_is_left_to_stage_3() {
    // M302 (stage 3) owns this case. An M208 here would be an error of the
    // level, so stage 3 would skip the level and M302 could never fire.
    let mut p = pack();
    p.levels[0].automata.push(crate::model::Automaton {
        id: Named::new("shuttle"),
        subject: None,
        property: Named::new("TICK"),
        phase: None,
        pattern: vec![crate::model::Step::Move(1, 0)],
        span: Span::default(),
    });
    p.levels[0].objects[3].text = "TICK".into();
    assert!(!codes(&p).contains(&"M208"), "{:?}", codes(&p));
    let analysed = crate::analysis::analyse(&p, &[]);
    assert!(analysed.iter().any(|d| d.code() == "M302"));
}
