//! Property tests over random valid packs: `build(import(json)) == json`, and
//! `fmt` is idempotent on the imported source and never changes its build.

use miau::compile::build_source;
use miau::import::{to_miau, with_compiler_ids};
use miau::json::to_json;
use miau::model::{
    Allowance, Automaton, CheckMeta, EventClaim, EventClaimKind, Frail, Kind, Level, Named, Object,
    Pack, Pair, PaletteEntry, Step,
};
use proptest::prelude::*;

const NOUNS: &[&str] = &[
    "ROCK", "FLAG", "WALL", "CRATE", "KEY", "BELL", "MIAU", "SAND",
];
const WORDS: &[&str] = &[
    "MIAU", "ROCK", "FLAG", "WALL", "IS", "AND", "YOU", "WIN", "PUSH", "STOP", "SINK", "DEFEAT",
    "GOAL", "FLOAT",
];

/// One cell: nothing, or a stack of things and words.
fn cell() -> impl Strategy<Value = Vec<(Kind, String, bool, Option<String>)>> {
    let part = prop_oneof![
        4 => prop::sample::select(NOUNS).prop_map(|n| (Kind::Thing, n.to_string(), false, None)),
        4 => (prop::sample::select(WORDS), prop::bool::weighted(0.1))
            .prop_map(|(w, f)| (Kind::Word, w.to_string(), f, None)),
        1 => prop::sample::select(&["PLATE", "GATE"][..])
            .prop_map(|n| (Kind::Thing, n.to_string(), false, Some("amber".to_string()))),
    ];
    prop_oneof![
        6 => Just(Vec::new()),
        3 => prop::collection::vec(part, 1..3),
    ]
}

/// What a claim over events of `kind` names in the generated levels.
fn claim_args(kind: EventClaimKind) -> Vec<Named> {
    let names: &[&str] = match kind {
        EventClaimKind::Lose => &["ROCK"],
        EventClaimKind::Crumble => &["SAND"],
        EventClaimKind::Become => &["FLAG", "ROCK"],
        EventClaimKind::Press => &["amber"],
        EventClaimKind::Pair | EventClaimKind::PushWord => &[],
    };
    names.iter().map(|n| Named::new(*n)).collect()
}

fn level(index: usize) -> impl Strategy<Value = Level> {
    (1u32..6, 1u32..5).prop_flat_map(move |(w, h)| {
        (
            prop::collection::vec(cell(), (w * h) as usize),
            prop::option::of("[UDLRW]{1,12}"),
            prop::option::of(1u64..200),
            prop::bool::ANY,
            prop::bool::ANY,
            prop::bool::ANY,
            prop::option::of("[a-z ]{1,20}"),
            prop::bool::ANY,
        )
            .prop_map(
                move |(cells, solution, steps, tick, pair, frail, hint, claims)| {
                    let mut objects = Vec::new();
                    for (k, parts) in cells.into_iter().enumerate() {
                        let (x, y) = (k as u32 % w, k as u32 / w);
                        // A stack fixes all its words or none (M113): follow the first word.
                        let fixed = parts
                            .iter()
                            .find(|p| p.0 == Kind::Word)
                            .is_some_and(|p| p.2);
                        let mut seen_words = Vec::new();
                        for (kind, text, _, channel) in parts {
                            if kind == Kind::Word {
                                if seen_words.contains(&text) {
                                    continue; // a stack names a word once (M112)
                                }
                                seen_words.push(text.clone());
                            }
                            objects.push(Object {
                                kind,
                                fixed: kind == Kind::Word && fixed,
                                text,
                                x,
                                y,
                                channel,
                                ..Default::default()
                            });
                        }
                    }
                    let automata = if tick {
                        vec![Automaton {
                            id: Named::new("walker"),
                            subject: Some(Named::new("ROCK")),
                            property: Named::new("TICK"),
                            phase: Some(0),
                            pattern: vec![Step::Move(1, 0), Step::Wait],
                            ..Default::default()
                        }]
                    } else {
                        Vec::new()
                    };
                    let pairs = if pair {
                        vec![Pair {
                            words: vec![Named::new("OPEN"), Named::new("SHUT")],
                            effect: "destroy-both".into(),
                            enter: true,
                            ..Default::default()
                        }]
                    } else {
                        Vec::new()
                    };
                    Level {
                        id: Named::new(format!("level-{index}")),
                        title: Some(format!("Level {index}")),
                        hint,
                        width: w,
                        height: h,
                        automata,
                        pairs,
                        frail: frail.then(|| Frail {
                            leaves: vec![(Named::new("SAND"), Named::new("WATER"))],
                            ..Default::default()
                        }),
                        check: CheckMeta {
                            solution: solution.map(Named::new),
                            steps,
                            // Two entries: import writes one statement per rule.
                            must_form: if pair {
                                vec![Named::new("ROCK IS PUSH"), Named::new("ROCK IS WIN")]
                            } else {
                                Vec::new()
                            },
                            must_break: if tick {
                                vec![Named::new("ROCK IS STOP"), Named::new("WALL IS STOP")]
                            } else {
                                Vec::new()
                            },
                            must_lose_word: frail.then(|| Named::new("must-lose-word")),
                            // One claim of each kind: each statement is written
                            // back as its keyword and nouns or channels.
                            must_happen: if claims {
                                EventClaimKind::ALL
                                    .iter()
                                    .map(|&kind| EventClaim {
                                        kind,
                                        args: claim_args(kind),
                                        span: Default::default(),
                                    })
                                    .collect()
                            } else {
                                Vec::new()
                            },
                            allow: vec![Allowance {
                                code: Named::new("M326"),
                                reason: "Wide on purpose.".into(),
                                ..Default::default()
                            }],
                            ..Default::default()
                        },
                        objects,
                        ..Default::default()
                    }
                },
            )
    })
}

fn pack() -> impl Strategy<Value = Pack> {
    prop::collection::vec(0usize..1, 1..4)
        .prop_flat_map(|v| {
            let levels: Vec<_> = (0..v.len()).map(level).collect();
            levels
        })
        .prop_map(|levels| Pack {
            id: "random-pack".into(),
            name: "Random pack".into(),
            version: "1.0.0".into(),
            engine: 1,
            rules: Some(2),
            palette: vec![PaletteEntry {
                noun: Named::new("ROCK"),
                glyph: "🪨".into(),
                ..Default::default()
            }],
            levels,
            ..Default::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn import_then_build_gives_the_same_json(p in pack()) {
        let p = with_compiler_ids(&p);
        let json = to_json(&p);
        let source = to_miau(&p);
        match build_source(&source) {
            Ok(built) => prop_assert_eq!(&built, &json, "source:\n{}", source),
            Err(d) => prop_assert!(false, "imported source doesn't build: {:#?}\n{}", d, source),
        }
        let formatted = miau::fmt::format(&source).expect("imported source formats");
        prop_assert_eq!(miau::fmt::format(&formatted).unwrap(), formatted.clone());
        prop_assert_eq!(build_source(&formatted).ok(), Some(json));
    }
}

/// Text an author might paste: quotes, backslashes, emoji, tabs, line breaks.
fn pasted_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{1,20}",
        "[a-z\"\\\\ 🐈\t]{1,16}",
        "[a-z]{1,6}\n[a-z]{1,6}",
        "\\PC{1,12}",
    ]
}

/// Hostile shapes `check` may accept: pasted hints and allowance reasons, an
/// allowance code with a space, a word twice in one cell, more things than
/// there are one-character keys.
fn hostile_pack() -> impl Strategy<Value = Pack> {
    (
        pack(),
        pasted_text(),
        pasted_text(),
        prop::sample::select(&["M326", "wide-board", "M3 26", "wide board"][..]),
        prop::bool::weighted(0.2),
        0usize..80,
    )
        .prop_map(|(mut p, hint, reason, code, twice, extra)| {
            let l = &mut p.levels[0];
            l.hint = Some(hint);
            l.check.allow = vec![Allowance {
                code: Named::new(code),
                reason,
                ..Default::default()
            }];
            if twice && let Some(w) = l.objects.iter().find(|o| o.kind == Kind::Word).cloned() {
                l.objects.push(w);
            }
            // `extra` more nouns, in a new bottom row.
            if extra > 0 {
                let y = l.height;
                l.height += 1;
                l.width = l.width.max(extra as u32);
                for i in 0..extra {
                    l.objects.push(Object {
                        kind: Kind::Thing,
                        text: format!("THING{i}"),
                        x: i as u32,
                        y,
                        ..Default::default()
                    });
                }
            }
            p
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// For any pack JSON that `check` accepts, `import` then `build` gives the
    /// same canonical JSON: what `.miau` can't write (a line break in a text,
    /// an allowance code with a space, a word twice in one cell) is refused
    /// by stage 2, so `import` never has to refuse an accepted pack.
    #[test]
    fn import_of_any_accepted_json_builds_to_the_same_json(p in hostile_pack()) {
        let json = to_json(&p);
        let (read, diags) = miau::json::check(&json);
        let accepted = !diags.iter().any(|d| d.severity == miau::diag::Severity::Error);
        if let Some(read) = &read {
            let why = miau::import::unwritable(read);
            prop_assert!(
                !accepted || why.is_empty(),
                "check accepted a pack .miau can't write: {why:?}"
            );
        }
        prop_assume!(accepted);
        let read = read.expect("an accepted pack has a model");
        let want = to_json(&with_compiler_ids(&read));
        let source = to_miau(&read);
        let built = build_source(&source);
        match built {
            Ok(b) => prop_assert_eq!(&b, &want, "source:\n{}", source),
            Err(d) => prop_assert!(false, "imported source doesn't build: {:#?}\n{}", d, source),
        }
    }
}
