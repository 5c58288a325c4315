use super::*;
use crate::model::{
    Automaton, CheckMeta, EventClaim, EventClaimKind, Frail, GlossaryEntry, Named, Object, Pair,
    PaletteEntry, World,
};
use proptest::prelude::*;

const KITCHEN_SINK: &str = include_str!("../../tests/fixtures/json/kitchen-sink.json");
const CLOCKWORK_PROOF: &str = include_str!("../../tests/fixtures/clockwork-proof.json");

fn read(text: &str) -> Pack {
    let (pack, diags) = from_json(text);
    assert!(diags.is_empty(), "{diags:#?}");
    pack.expect("a pack")
}

/// Read a pack whose reader diagnostics don't matter to the test (legacy packs
/// lack `manifest.features`, which the reader reports as M230).
fn read_lenient(text: &str) -> Pack {
    from_json(text).0.expect("a pack")
}

#[test]
fn kitchen_sink_canonical_output() {
    let out = to_json(&read(KITCHEN_SINK));
    insta::assert_snapshot!(out);
}

#[test]
fn legacy_clockwork_proof_reads_and_canonicalises() {
    let pack = read_lenient(CLOCKWORK_PROOF);
    let level = &pack.levels[0];
    // Lowercase automaton words are uppercased, as the loader does.
    assert_eq!(level.automata[0].subject.as_ref().unwrap().text, "MOUSE");
    assert_eq!(level.automata[0].property.text, "TICK");
    // Objects without ids get `#` and their index.
    assert_eq!(level.objects[0].id, "#0000");
    assert_eq!(level.objects[12].id, "#0012");
    // Legacy palette strings become glyphs.
    assert_eq!(pack.palette[2].glyph, "🧱");
    assert!(crate::validate::validate(&pack).is_empty());
    let (_, diags) = check(CLOCKWORK_PROOF);
    // The legacy pack doesn't declare the automata feature.
    assert_eq!(
        diags.iter().map(|d| d.code()).collect::<Vec<_>>(),
        vec!["M230"]
    );
    insta::assert_snapshot!(to_json(&pack));
}

#[test]
fn output_is_a_fixed_point() {
    for text in [KITCHEN_SINK, CLOCKWORK_PROOF] {
        let once = to_json(&read_lenient(text));
        let twice = to_json(&read_lenient(&once));
        assert_eq!(once, twice);
        assert!(once.ends_with("}\n"));
    }
}

#[test]
fn letter_steps_and_missing_kind_are_accepted() {
    let text = r#"{"manifest": {"id": "ab", "name": "A", "version": "1", "engine": 1, "features": ["automata"]},
      "levels": [{"id": "l1", "title": "T", "width": 2, "height": 1,
        "automata": [{"id": "m1", "property": "tick", "pattern": ["L", "W"]}],
        "objects": [{"text": "TICK", "x": 0, "y": 0}, {"noun": "MOUSE", "x": 1, "y": 0, "id": "mouse-1"}]}]}"#;
    let pack = read(text);
    let l = &pack.levels[0];
    assert_eq!(l.automata[0].pattern, vec![Step::Move(-1, 0), Step::Wait]);
    assert_eq!(l.objects[0].kind, Kind::Word);
    assert_eq!(l.objects[1].kind, Kind::Thing);
    let out = to_json(&pack);
    assert!(out.contains("\"action\": \"wait\""));
    assert!(!out.contains("\"L\""));
}

#[test]
fn syntax_error_points_at_the_json_position() {
    let text = "{\n  \"manifest\": {\n    \"id\": \"x\",,\n  }\n}";
    let (pack, diags) = from_json(text);
    assert!(pack.is_none());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].code(), "M106");
    let at = diags[0].span.start as usize;
    assert_eq!(&text[at..at + 1], ",");
    assert!(text[..at].ends_with("\"x\","));
}

#[test]
fn top_level_must_be_an_object() {
    let (pack, diags) = from_json("[1, 2]");
    assert!(pack.is_none());
    assert_eq!(diags[0].code(), "M202");
}

#[test]
fn allowance_reasons_round_trip() {
    let mut pack = read(KITCHEN_SINK);
    pack.levels[0].check.allow.push(Allowance {
        code: Named::new("M407"),
        reason: "Skippable on purpose.".into(),
        span: Span::default(),
    });
    // The palette and glossary come back sorted, so compare the output.
    pack.palette.sort_by(|a, b| a.noun.text.cmp(&b.noun.text));
    let out = to_json(&pack);
    let back = read(&out);
    assert_eq!(back, pack);
    let c = &back.levels[0].check;
    assert_eq!(c.allow_hands_off.as_ref().unwrap().code.text, "hands-off");
    assert_eq!(c.allow[0].code.text, "M407");
}

#[test]
fn legacy_allow_bypass_without_reason_is_kept() {
    let text = KITCHEN_SINK.replace(
        r#""allow": [
        {
          "code": "bypass",
          "reason": "The door is the lesson, not the words."
        }
      ],"#,
        "",
    );
    assert_ne!(text, KITCHEN_SINK);
    let pack = read(&text);
    let bypass = pack.levels[1].check.allow_bypass.as_ref().unwrap();
    assert_eq!(bypass.code.text, "bypass");
    assert!(bypass.reason.is_empty());
    let (_, diags) = check(&text);
    assert_eq!(diags[0].code(), "M239");
}

use crate::span::Span;

fn token() -> impl Strategy<Value = String> {
    "[A-Z][A-Z0-9_-]{0,6}"
}
fn id() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9._-]{1,10}"
}
fn text() -> impl Strategy<Value = String> {
    "[ -~🐈é\"\\\\]{0,12}"
}
fn named(s: impl Strategy<Value = String>) -> impl Strategy<Value = Named> {
    s.prop_map(Named::new)
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        Just(Step::Wait),
        Just(Step::Move(0, -1)),
        Just(Step::Move(0, 1)),
        Just(Step::Move(-1, 0)),
        Just(Step::Move(1, 0)),
    ]
}

fn allowance(code: &'static str) -> impl Strategy<Value = Allowance> {
    text().prop_map(move |reason| Allowance {
        code: Named::new(code),
        reason,
        span: Span::default(),
    })
}

fn object(w: u32, h: u32) -> impl Strategy<Value = Object> {
    (
        any::<bool>(),
        token(),
        0..w,
        0..h,
        id(),
        any::<bool>(),
        proptest::option::of(prop_oneof![
            Just("amber".to_string()),
            Just("teal".to_string())
        ]),
    )
        .prop_map(|(word, t, x, y, id, fixed, channel)| Object {
            id,
            kind: if word { Kind::Word } else { Kind::Thing },
            text: t,
            x,
            y,
            fixed: fixed && word,
            channel: if word { None } else { channel },
            span: Span::default(),
            part: Span::default(),
            legend: Span::default(),
        })
}

fn level() -> impl Strategy<Value = Level> {
    (1u32..6, 1u32..6).prop_flat_map(|(w, h)| {
        let meta = (
            named(id()),
            proptest::option::of(text()),
            proptest::option::of(text()),
            proptest::option::of(named(prop_oneof![
                Just("required".to_string()),
                Just("optional".to_string())
            ])),
            proptest::collection::vec(named(token()), 0..3),
            proptest::collection::vec(text(), 0..2),
            proptest::collection::vec(named(token()), 0..2),
        );
        let mech = (
            proptest::collection::vec(
                (
                    named(id()),
                    proptest::option::of(named(token())),
                    named(token()),
                    proptest::option::of(0u64..4),
                    proptest::collection::vec(step(), 1..5),
                ),
                0..3,
            ),
            proptest::collection::vec((named(token()), named(token()), any::<bool>()), 0..2),
            proptest::option::of(proptest::collection::vec(
                (named(token()), named(token())),
                0..3,
            )),
            proptest::collection::vec(named(token()), 0..2),
        );
        let check = (
            proptest::option::of(allowance("bypass")),
            proptest::option::of(allowance("M404")),
            proptest::collection::vec(allowance("M407"), 0..2),
            proptest::collection::vec(named(text()), 0..2),
            proptest::option::of(1u64..10_000_000),
            proptest::option::of(named("[UDLRW]{1,10}")),
            proptest::option::of(1u64..100),
            proptest::collection::vec(named(text()), 0..2),
            any::<bool>(),
            proptest::collection::vec(
                (
                    proptest::sample::select(EventClaimKind::ALL.to_vec()),
                    proptest::collection::vec(named(token()), 0..3),
                ),
                0..3,
            ),
        );
        (
            meta,
            mech,
            check,
            proptest::collection::vec(object(w, h), 0..8),
        )
            .prop_map(move |(meta, mech, check, objects)| {
                let (id, title, hint, category, words, ideas, reuse) = meta;
                let (automata, pairs, frail, terrain) = mech;
                let (
                    bypass,
                    hands_off,
                    allow,
                    must_form,
                    budget,
                    solution,
                    steps,
                    must_break,
                    lose,
                    happen,
                ) = check;
                // Keep leaves keys distinct: JSON maps can't repeat a key.
                let frail = frail.map(|mut leaves| {
                    let mut seen = std::collections::HashSet::new();
                    leaves.retain(|(a, _): &(Named, Named)| seen.insert(a.text.clone()));
                    Frail {
                        leaves,
                        span: Span::default(),
                    }
                });
                Level {
                    id,
                    title,
                    hint,
                    category,
                    introduces: Introduces { words, ideas },
                    reuses: Introduces {
                        words: reuse,
                        ideas: Vec::new(),
                    },
                    width: w,
                    height: h,
                    automata: automata
                        .into_iter()
                        .map(|(id, subject, property, phase, pattern)| Automaton {
                            id,
                            subject,
                            property,
                            phase,
                            pattern,
                            span: Span::default(),
                        })
                        .collect(),
                    pairs: pairs
                        .into_iter()
                        .map(|(a, b, enter)| Pair {
                            words: vec![a, b],
                            effect: "destroy-both".into(),
                            enter,
                            span: Span::default(),
                        })
                        .collect(),
                    frail,
                    terrain,
                    terrain_span: Span::default(),
                    check: CheckMeta {
                        allow_bypass: bypass,
                        allow_hands_off: hands_off,
                        allow,
                        must_form,
                        must_break,
                        must_lose_word: lose.then(|| Named::new("must-lose-word")),
                        must_happen: happen
                            .into_iter()
                            .map(|(kind, args)| EventClaim {
                                kind,
                                args,
                                span: Span::default(),
                            })
                            .collect(),
                        solver_budget: budget,
                        solution,
                        steps,
                        // A bound on a third of the lengths (the tuple of
                        // strategies is full): with and without one.
                        steps_at_least: steps.and_then(|s| (s % 3 == 0).then_some(s / 3 + 1)),
                        steps_span: Span::default(),
                    },
                    objects,
                    span: Span::default(),
                    board_span: Span::default(),
                }
            })
    })
}

fn pack() -> impl Strategy<Value = Pack> {
    (
        (id(), text(), text(), proptest::option::of(1u32..3)),
        proptest::option::of((
            text(),
            proptest::option::of(text()),
            proptest::option::of(Just("push".to_string())),
        )),
        proptest::collection::btree_map(
            token(),
            (
                text(),
                proptest::option::of(Just("left".to_string())),
                proptest::option::of(text()),
                any::<bool>(),
            ),
            0..4,
        ),
        proptest::collection::btree_map(token(), text(), 0..3),
        proptest::collection::vec(named(token()), 0..3),
        proptest::collection::vec(level(), 1..3),
        proptest::collection::vec(allowance("M231"), 0..2),
    )
        .prop_map(
            |((id, name, version, rules), world, palette, glossary, vocabulary, levels, allow)| {
                let mut pack = Pack {
                    id,
                    name,
                    version,
                    engine: 1,
                    rules,
                    world: world.map(|(glyph, tagline, accent)| World {
                        glyph,
                        tagline,
                        accent,
                        span: Span::default(),
                    }),
                    declared_features: None,
                    palette: palette
                        .into_iter()
                        .map(|(noun, (glyph, faces, fallback, terrain))| PaletteEntry {
                            noun: Named::new(noun),
                            glyph,
                            faces,
                            fallback,
                            terrain,
                            span: Span::default(),
                        })
                        .collect(),
                    glossary: glossary
                        .into_iter()
                        .map(|(word, describe)| GlossaryEntry {
                            word: Named::new(word),
                            accent: "win".into(),
                            describe,
                            span: Span::default(),
                        })
                        .collect(),
                    vocabulary,
                    levels,
                    allow,
                    span: Span::default(),
                    allow_at: Span::default(),
                };
                // Models read from JSON always carry their declared list.
                pack.declared_features = Some(
                    pack.derived_features()
                        .into_iter()
                        .map(String::from)
                        .collect(),
                );
                pack
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn from_json_inverts_to_json(pack in pack()) {
        let out = to_json(&pack);
        let (back, diags) = from_json(&out);
        prop_assert!(diags.is_empty(), "{:#?}", diags);
        prop_assert_eq!(back.as_ref(), Some(&pack));
        prop_assert_eq!(to_json(&back.unwrap()), out);
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = check(&text);
    }

    #[test]
    fn mutated_json_never_panics(pos in 0usize..4000, len in 0usize..20, insert in "[\\[\\]{}\",:0-9a-zA-Z -]{0,6}") {
        let base = KITCHEN_SINK;
        let mut start = pos.min(base.len());
        while !base.is_char_boundary(start) { start -= 1; }
        let mut end = (start + len).min(base.len());
        while !base.is_char_boundary(end) { end -= 1; }
        let text = format!("{}{}{}", &base[..start], insert, &base[end..]);
        let (pack, _) = check(&text);
        if let Some(p) = pack {
            let _ = to_json(&p);
            let _ = crate::import::to_miau(&p);
        }
    }

    #[test]
    fn shape_mutations_never_panic(path_pick in 0usize..700, value in prop_oneof![
        Just(serde_json::json!(null)), Just(serde_json::json!(-1)), Just(serde_json::json!(1.5)),
        Just(serde_json::json!("x")), Just(serde_json::json!([])), Just(serde_json::json!({})),
        Just(serde_json::json!([1, "a", null])), Just(serde_json::json!(u64::MAX)),
    ]) {
        let mut v: serde_json::Value = serde_json::from_str(KITCHEN_SINK).unwrap();
        // Replace the value at one of the first 700 paths (depth-first) with junk.
        let mut n = 0;
        replace_nth(&mut v, path_pick, &mut n, &value);
        let text = serde_json::to_string(&v).unwrap();
        let (pack, _) = check(&text);
        if let Some(p) = pack {
            let _ = to_json(&p);
            let _ = crate::import::to_miau(&p);
        }
    }
}

fn replace_nth(
    v: &mut serde_json::Value,
    target: usize,
    n: &mut usize,
    with: &serde_json::Value,
) -> bool {
    if *n == target {
        *v = with.clone();
        return true;
    }
    *n += 1;
    match v {
        serde_json::Value::Object(m) => m.values_mut().any(|c| replace_nth(c, target, n, with)),
        serde_json::Value::Array(a) => a.iter_mut().any(|c| replace_nth(c, target, n, with)),
        _ => false,
    }
}

#[test]
fn source_models_get_derived_features() {
    let mut pack = read(KITCHEN_SINK);
    pack.declared_features = None;
    let out = to_json(&pack);
    assert_eq!(out, to_json(&read(KITCHEN_SINK)));
    pack.levels.truncate(1);
    let v: serde_json::Value = serde_json::from_str(&to_json(&pack)).unwrap();
    assert_eq!(
        v["manifest"]["features"],
        serde_json::json!(["automata", "gates", "fixed", "terrain"])
    );
}

#[test]
fn same_model_same_bytes_and_key_order() {
    let pack = read(KITCHEN_SINK);
    let out = to_json(&pack);
    assert_eq!(out, to_json(&pack.clone()));
    let level_keys: Vec<String> =
        serde_json::from_str::<serde_json::Value>(&out).unwrap()["levels"][0]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
    assert_eq!(
        level_keys,
        [
            "id",
            "title",
            "hint",
            "category",
            "introduces",
            "width",
            "height",
            "automata",
            "terrain",
            "allowHandsOff",
            "allow",
            "mustForm",
            "solverBudget",
            "solution",
            "steps",
            "stepsAtLeast",
            "objects"
        ]
    );
}
