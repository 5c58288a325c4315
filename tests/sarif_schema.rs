//! SARIF output validated against the official OASIS SARIF 2.1.0 JSON schema
//! (`tests/schemas/sarif-schema-2.1.0.json`; provenance in `tests/schemas/README.md`).
//!
//! The diagnostics are realistic: every stage 2 fixture of `tests/fixtures/json`
//! run through the real checker (paths, cells, levels, fixes), plus hand-made
//! diagnostics on the bundled `.miau` packs that carry related spans, multi-edit
//! fixes, emoji columns and every severity. A broken log must fail validation,
//! which proves the validator is not vacuous.

use std::fs;
use std::path::Path;

use miau::diag::render::SourceFile;
use miau::diag::{Diagnostic, Fix, Severity, TextEdit, sarif};
use miau::json;
use miau::span::Span;
use serde_json::{Value, json};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn validator() -> jsonschema::Validator {
    let text = fs::read_to_string(root().join("tests/schemas/sarif-schema-2.1.0.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        schema["id"],
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    );
    // The schema declares draft-04; format checks are on so URIs are checked too.
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles")
}

fn errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Sources kept alive for the borrowed `SourceFile`s.
struct Inputs {
    texts: Vec<(String, String)>,
}

fn inputs() -> Inputs {
    let mut texts = Vec::new();
    let dir = root().join("tests/fixtures/json");
    let mut names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    for n in names {
        let text = fs::read_to_string(dir.join(&n)).unwrap();
        texts.push((format!("tests/fixtures/json/{n}"), text));
    }
    for n in ["clockwork.miau", "crate-works.miau"] {
        let text = fs::read_to_string(root().join("packs").join(n)).unwrap();
        texts.push((format!("packs/{n}"), text));
    }
    Inputs { texts }
}

/// Hand-made diagnostics on a `.miau` source exercising every optional field.
fn miau_diagnostics(text: &str) -> Vec<Diagnostic> {
    let line2 = text.find('\n').map_or(0, |i| i + 1);
    let word = line2..(line2 + 4).min(text.len());
    let end = text.len();
    vec![
        Diagnostic::new(
            "M301",
            Span::new(word.start, word.end),
            "Level a: STPO isn't a thing.",
        )
        .with_level("a")
        .with_cell(4, 2)
        .with_cell(5, 2)
        .with_path("levels[0].board")
        .with_related(Span::new(0, 4), "the pack header")
        .with_fix("Replace with STOP", Span::new(word.start, word.end), "STOP")
        .with_fix("Declare a property", Span::point(end), "\n"),
        Diagnostic::new("M403", Span::new(0, 4), "Bypass (allowed: deliberate).")
            .with_severity(Severity::Info),
        Diagnostic::new(
            "M301",
            Span::point(end),
            "A faint hint at the end of the file.",
        )
        .with_severity(Severity::Hint),
        Diagnostic {
            fixes: vec![Fix {
                title: "Two edits at once".into(),
                edits: vec![
                    TextEdit {
                        span: Span::new(0, 1),
                        new_text: "🐱".into(),
                    },
                    TextEdit {
                        span: Span::new(word.start, word.start),
                        new_text: String::new(),
                    },
                ],
            }],
            ..Diagnostic::new("M101", Span::new(word.start, word.end), "Unterminated.")
        },
    ]
}

fn realistic_log() -> Value {
    let inputs = inputs();
    let files: Vec<(SourceFile, Vec<Diagnostic>)> = inputs
        .texts
        .iter()
        .map(|(name, text)| {
            let diags = if name.ends_with(".json") {
                json::check(text).1
            } else {
                miau_diagnostics(text)
            };
            (SourceFile::new(name, text), diags)
        })
        .collect();
    let out = sarif::sarif(&files, env!("CARGO_PKG_VERSION"));
    serde_json::from_str(&out).expect("SARIF output is JSON")
}

#[test]
fn realistic_log_is_valid_sarif_2_1_0() {
    let validator = validator();
    let log = realistic_log();
    let results = log["runs"][0]["results"].as_array().unwrap();
    // Enough variety to mean something: many codes, all three levels, fixes and extras.
    assert!(results.len() > 50, "{} results", results.len());
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert!(rules.len() > 40, "{} rules", rules.len());
    for level in ["error", "warning", "note"] {
        assert!(results.iter().any(|r| r["level"] == level), "no {level}");
    }
    assert!(results.iter().any(|r| r.get("fixes").is_some()));
    assert!(results.iter().any(|r| r.get("relatedLocations").is_some()));
    assert!(
        results
            .iter()
            .any(|r| r["properties"].get("cells").is_some())
    );
    let errs = errors(&validator, &log);
    assert!(errs.is_empty(), "schema violations:\n{}", errs.join("\n"));
}

#[test]
fn broken_logs_fail_validation() {
    let validator = validator();
    let good = realistic_log();
    let mut broken = Vec::new();

    let mut wrong_version = good.clone();
    wrong_version["version"] = json!("2.0.0");
    broken.push(("version 2.0.0", wrong_version));

    let mut bad_level = good.clone();
    bad_level["runs"][0]["results"][0]["level"] = json!("info");
    broken.push(("level info", bad_level));

    let mut zero_line = good.clone();
    zero_line["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        json!(0);
    broken.push(("startLine 0", zero_line));

    let mut no_driver = good.clone();
    no_driver["runs"][0]["tool"]
        .as_object_mut()
        .unwrap()
        .remove("driver");
    broken.push(("no driver", no_driver));

    let mut bad_column_kind = good.clone();
    bad_column_kind["runs"][0]["columnKind"] = json!("characters");
    broken.push(("columnKind characters", bad_column_kind));

    let mut message_string = good;
    message_string["runs"][0]["results"][0]["message"] = json!("plain string");
    broken.push(("message as string", message_string));

    for (what, log) in broken {
        assert!(
            !errors(&validator, &log).is_empty(),
            "a log with {what} passed validation"
        );
    }
}
