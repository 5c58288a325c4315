use super::*;
use crate::json::from_json;

const KITCHEN_SINK: &str = include_str!("../../tests/fixtures/json/kitchen-sink.json");
const CLOCKWORK_PROOF: &str = include_str!("../../tests/fixtures/clockwork-proof.json");

fn import(text: &str) -> String {
    // Legacy packs draw M230 (no manifest.features); import doesn't care.
    let (pack, _) = from_json(text);
    to_miau(&pack.unwrap())
}

#[test]
fn kitchen_sink_imports() {
    insta::assert_snapshot!(import(KITCHEN_SINK));
}

#[test]
fn clockwork_proof_imports() {
    insta::assert_snapshot!(import(CLOCKWORK_PROOF));
}

#[test]
fn legend_keys_are_never_uppercase_dot_or_plus() {
    let (pack, _) = from_json(KITCHEN_SINK);
    let legend = Legend::choose(&pack.unwrap());
    let mut keys: Vec<&str> = legend.entries.iter().map(|e| e.2.as_str()).collect();
    assert!(
        keys.iter().all(|k| {
            !k.starts_with(|c: char| c.is_uppercase()) && *k != "." && !k.contains('+')
        })
    );
    let n = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), n);
}

#[test]
fn strings_are_escaped() {
    assert_eq!(quote(r#"say "hi" \o/"#), r#""say \"hi\" \\o/""#);
}

#[test]
fn many_nouns_still_get_distinct_keys() {
    let mut level = Level {
        id: crate::model::Named::new("many"),
        title: Some("Many".into()),
        width: 100,
        height: 3,
        ..Level::default()
    };
    for (x, w) in ["MIAU", "IS", "YOU", "FLAG", "IS", "WIN"]
        .iter()
        .enumerate()
    {
        level.objects.push(Object {
            kind: Kind::Word,
            text: w.to_string(),
            x: x as u32,
            ..Object::default()
        });
    }
    level.objects.push(Object {
        kind: Kind::Thing,
        text: "MIAU".into(),
        y: 1,
        ..Object::default()
    });
    level.objects.push(Object {
        kind: Kind::Thing,
        text: "FLAG".into(),
        x: 1,
        y: 1,
        ..Object::default()
    });
    // 98 more distinct nouns: past the 56 single-character keys.
    for i in 0..98u32 {
        level.objects.push(Object {
            kind: Kind::Thing,
            text: format!("N{i}"),
            x: i,
            y: 2,
            ..Object::default()
        });
    }
    let pack = Pack {
        id: "many-things".into(),
        name: "Many things".into(),
        version: "1.0.0".into(),
        engine: 1,
        levels: vec![level],
        ..Pack::default()
    };
    let legend = Legend::choose(&pack);
    let mut keys: Vec<&str> = legend.entries.iter().map(|e| e.2.as_str()).collect();
    assert_eq!(keys.len(), 100);
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 100, "every thing has its own key");
    assert!(keys.iter().all(|k| k.is_ascii()), "{keys:?}");
    // The source builds back to the same level.
    let source = to_miau(&pack);
    let built =
        crate::compile::build_source(&source).unwrap_or_else(|d| panic!("{source}\n{d:#?}"));
    let (back, _) = from_json(&built);
    let back = back.unwrap();
    let nouns = |p: &Pack| {
        let mut v: Vec<(u32, u32, String)> = p.levels[0]
            .objects
            .iter()
            .map(|o| (o.x, o.y, o.text.clone()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(nouns(&back), nouns(&pack));
}

#[test]
fn compiler_ids_follow_the_scheme() {
    let (pack, _) = from_json(CLOCKWORK_PROOF);
    let pack = with_compiler_ids(&pack.unwrap());
    let ids: Vec<&str> = pack.levels[0]
        .objects
        .iter()
        .map(|o| o.id.as_str())
        .collect();
    assert_eq!(&ids[..4], &["miau.1", "is.1", "you.1", "wall.1"]);
    assert!(ids.contains(&"wall-22"));
    // The kitchen sink already follows the scheme, so nothing changes.
    let (sink, _) = from_json(KITCHEN_SINK);
    let sink = sink.unwrap();
    assert_eq!(with_compiler_ids(&sink), sink);
}
