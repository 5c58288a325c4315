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
    let mut keys: Vec<char> = legend.entries.iter().map(|e| e.2).collect();
    assert!(
        keys.iter()
            .all(|c| !c.is_uppercase() && *c != '.' && *c != '+')
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
        width: 80,
        height: 1,
        ..Level::default()
    };
    for i in 0..70u32 {
        level.objects.push(Object {
            id: format!("n{i}-1"),
            kind: Kind::Thing,
            text: format!("N{i}"),
            x: i,
            ..Object::default()
        });
    }
    let pack = Pack {
        levels: vec![level],
        ..Pack::default()
    };
    let legend = Legend::choose(&pack);
    let mut keys: Vec<char> = legend.entries.iter().map(|e| e.2).collect();
    keys.sort();
    keys.dedup();
    // Past the letters and symbols, the fallback key repeats; everything before is distinct.
    assert!(keys.len() >= 57);
    let _ = to_miau(&pack);
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
