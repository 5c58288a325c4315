//! `schema/pack.schema.json` is valid JSON, claims draft 2020-12, and covers
//! every key the canonical writer produces (a key the writer emits but the
//! schema doesn't know would make every built pack fail schema validation).

use std::fs;
use std::path::Path;

use serde_json::Value;

fn load(rel: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

fn resolve<'a>(root: &'a Value, mut s: &'a Value) -> &'a Value {
    while let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.trim_start_matches("#/$defs/");
        s = &root["$defs"][name];
    }
    s
}

/// Check that every key in `v` is allowed by `schema`, recursively.
fn covered(root: &Value, schema: &Value, v: &Value, path: &str) {
    let schema = resolve(root, schema);
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                // The key may be declared here or in a `oneOf` branch.
                let mut candidates = vec![schema];
                if let Some(Value::Array(branches)) = schema.get("oneOf") {
                    candidates.extend(branches.iter().map(|b| resolve(root, b)));
                }
                let sub = candidates
                    .iter()
                    .find_map(|c| c.get("properties").and_then(|p| p.get(k)))
                    .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()))
                    .unwrap_or_else(|| panic!("{path}.{k} isn't in the schema"));
                covered(root, sub, child, &format!("{path}.{k}"));
            }
        }
        Value::Array(a) => {
            if let Some(items) = schema.get("items") {
                for (i, child) in a.iter().enumerate() {
                    covered(root, items, child, &format!("{path}[{i}]"));
                }
            }
        }
        _ => {}
    }
}

#[test]
fn schema_covers_canonical_output() {
    let schema: Value = serde_json::from_str(&load("schema/pack.schema.json")).unwrap();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    for fixture in [
        "tests/fixtures/json/kitchen-sink.json",
        "tests/fixtures/clockwork-proof.json",
    ] {
        let (pack, _) = miau::json::from_json(&load(fixture));
        let out = miau::json::to_json(&pack.unwrap());
        let v: Value = serde_json::from_str(&out).unwrap();
        covered(&schema, &schema, &v, "");
    }
}

#[test]
fn schema_lists_the_shared_tables() {
    let schema: Value = serde_json::from_str(&load("schema/pack.schema.json")).unwrap();
    let names = |def: &str| -> Vec<String> {
        schema["$defs"][def]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names("feature"), miau::model::FEATURES);
    assert_eq!(names("channel"), miau::model::CHANNELS);
    assert_eq!(names("accent"), miau::validate::limits::ACCENTS);
}
