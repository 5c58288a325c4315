//! SARIF 2.1.0 output, for code-scanning services and SARIF viewers.
//!
//! One log with one run: the driver `miauc`, a rule per code that occurs, and
//! a result per diagnostic. Columns count characters (catalogue 1.2), so the
//! run says `columnKind: unicodeCodePoints`; SARIF's default is UTF-16 code
//! units, which would shift every column after an emoji.
//!
//! Output is deterministic: files in name order, diagnostics in the order of
//! [`super::sort`], rules in code order, and object keys in a fixed order
//! (`serde_json` keeps insertion order in this crate).

use super::render::SourceFile;
use super::{CodeInfo, Diagnostic, Severity};
use crate::span::Span;
use serde_json::{Map, Value, json};

/// The `$schema` written into every log: the OASIS 2.1.0 errata 01 schema,
/// the same document `tests/schemas/sarif-schema-2.1.0.json` vendors.
pub const SCHEMA_URI: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The SARIF `level` of a severity: info and hint have no SARIF level of
/// their own and both become `note` (catalogue 1.2).
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

/// Render the diagnostics of several files as one SARIF 2.1.0 log.
///
/// `tool_version` goes to `tool.driver.version`. Artifact URIs are the file
/// names as given, with characters a URI reference can't hold
/// percent-encoded and `\` turned into `/`.
pub fn sarif(files: &[(SourceFile, Vec<Diagnostic>)], tool_version: &str) -> String {
    let mut order: Vec<&(SourceFile, Vec<Diagnostic>)> = files.iter().collect();
    order.sort_by(|a, b| a.0.name.cmp(b.0.name));

    let mut rules: Vec<&'static CodeInfo> = files
        .iter()
        .flat_map(|(_, diags)| diags.iter().map(|d| d.info))
        .collect();
    rules.sort_by_key(|info| info.code);
    rules.dedup_by_key(|info| info.code);

    let mut results = Vec::new();
    for (file, diags) in order {
        let mut diags = diags.clone();
        super::sort(&mut diags);
        for d in &diags {
            let rule_index = rules
                .iter()
                .position(|r| r.code == d.code())
                .expect("every code used has a rule");
            results.push(result(file, d, rule_index));
        }
    }

    let log = json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "miauc",
                    "version": tool_version,
                    "rules": rules.iter().map(|r| rule(r)).collect::<Vec<_>>(),
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    });
    let mut out = serde_json::to_string_pretty(&log).expect("a JSON value always serialises");
    out.push('\n');
    out
}

/// A `reportingDescriptor` for one code. The descriptions come from the
/// reference page (`docs/diagnostics.md`), so a viewer can show what the code
/// means without the toolchain installed.
fn rule(info: &CodeInfo) -> Value {
    let trigger = trigger_text(info.code);
    let short = first_sentence(&trigger);
    let mut m = Map::new();
    m.insert("id".into(), json!(info.code));
    m.insert("name".into(), json!(info.name));
    m.insert("shortDescription".into(), json!({ "text": short }));
    if trigger != short {
        m.insert("fullDescription".into(), json!({ "text": trigger }));
    }
    m.insert(
        "help".into(),
        json!({ "text": format!("Run `miauc explain {}` for the reference page.", info.code) }),
    );
    m.insert(
        "defaultConfiguration".into(),
        json!({ "level": level(info.severity) }),
    );
    Value::Object(m)
}

/// The "What triggers it" paragraph of a code's reference page, without
/// Markdown emphasis; the code's name when the page has none.
pub(crate) fn trigger_text(code: &str) -> String {
    const MARK: &str = "**What triggers it.** ";
    super::explain(code)
        .and_then(|page| {
            page.lines()
                .find_map(|l| l.strip_prefix(MARK))
                .map(|t| t.replace("**", "").trim().to_string())
        })
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| {
            super::lookup(code)
                .map(|i| i.name.replace('-', " "))
                .unwrap_or_default()
        })
}

/// Up to and including the first full stop that ends a sentence (the stop
/// of an abbreviation such as "e.g." doesn't).
fn first_sentence(text: &str) -> String {
    let mut from = 0;
    while let Some(i) = text[from..].find(". ").map(|i| i + from) {
        let before = &text[..i];
        if !(before.ends_with("e.g") || before.ends_with("i.e")) {
            return text[..=i].to_string();
        }
        from = i + 2;
    }
    text.to_string()
}

/// One `result`: rule, level, message, location, related locations, fixes
/// and the miau-specific fields as a property bag.
fn result(file: &SourceFile, d: &Diagnostic, rule_index: usize) -> Value {
    let mut m = Map::new();
    m.insert("ruleId".into(), json!(d.code()));
    m.insert("ruleIndex".into(), json!(rule_index));
    m.insert("level".into(), json!(level(d.severity)));
    m.insert("message".into(), json!({ "text": d.message }));
    m.insert(
        "locations".into(),
        json!([{ "physicalLocation": physical(file, d.span) }]),
    );
    if !d.related.is_empty() {
        let related: Vec<Value> = d
            .related
            .iter()
            .enumerate()
            .map(|(i, r)| {
                json!({
                    "id": i,
                    "physicalLocation": physical(file, r.span),
                    "message": { "text": r.label },
                })
            })
            .collect();
        m.insert("relatedLocations".into(), Value::Array(related));
    }
    if !d.fixes.is_empty() {
        let fixes: Vec<Value> = d
            .fixes
            .iter()
            .map(|f| {
                let replacements: Vec<Value> = f
                    .edits
                    .iter()
                    .map(|e| {
                        json!({
                            "deletedRegion": region(file, e.span),
                            "insertedContent": { "text": e.new_text },
                        })
                    })
                    .collect();
                json!({
                    "description": { "text": f.title },
                    "artifactChanges": [{
                        "artifactLocation": { "uri": uri(file.name) },
                        "replacements": replacements,
                    }],
                })
            })
            .collect();
        m.insert("fixes".into(), Value::Array(fixes));
    }
    let mut props = Map::new();
    if let Some(l) = &d.level {
        props.insert("level".into(), json!(l));
    }
    if !d.cells.is_empty() {
        props.insert(
            "cells".into(),
            Value::Array(d.cells.iter().map(|(x, y)| json!([x, y])).collect()),
        );
    }
    if let Some(p) = &d.path {
        props.insert("path".into(), json!(p));
    }
    if !props.is_empty() {
        m.insert("properties".into(), Value::Object(props));
    }
    Value::Object(m)
}

fn physical(file: &SourceFile, span: Span) -> Value {
    json!({
        "artifactLocation": { "uri": uri(file.name) },
        "region": region(file, span),
    })
}

/// A region in 1-based lines and character columns; SARIF's `endColumn` is
/// the column after the last character, which is exactly the end offset's column.
fn region(file: &SourceFile, span: Span) -> Value {
    let s = file.index.line_col(file.text, span.start as usize);
    let e = file.index.line_col(file.text, span.end as usize);
    json!({
        "startLine": s.line,
        "startColumn": s.column,
        "endLine": e.line,
        "endColumn": e.column,
    })
}

/// A file name as a relative URI reference: `/` separators, and
/// percent-encoding for every byte outside RFC 3986's unreserved set and `/`,
/// so a name with spaces or `#` still points at the right file.
fn uri(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.replace('\\', "/").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn parse(s: &str) -> Value {
        serde_json::from_str(s).expect("valid JSON")
    }

    #[test]
    fn short_descriptions_stop_at_the_first_sentence() {
        assert_eq!(first_sentence("One. Two."), "One.");
        assert_eq!(
            first_sentence("A value, e.g. `x`. Then more."),
            "A value, e.g. `x`."
        );
        assert_eq!(first_sentence("No stop"), "No stop");
    }

    #[test]
    fn levels_follow_the_catalogue_mapping() {
        assert_eq!(level(Severity::Error), "error");
        assert_eq!(level(Severity::Warning), "warning");
        assert_eq!(level(Severity::Info), "note");
        assert_eq!(level(Severity::Hint), "note");
    }

    #[test]
    fn columns_count_characters_not_utf16_units() {
        // The emoji is one character but two UTF-16 units: the word after it
        // starts at character column 13 (UTF-16 would say 14).
        let text = "title \"🐱 x\" STPO\n";
        let start = text.find("STPO").unwrap();
        let file = SourceFile::new("a.miau", text);
        let d = Diagnostic::new("M301", Span::new(start, start + 4), "STPO isn't a thing.");
        let log = parse(&sarif(&[(file, vec![d])], "0.1.0"));
        let run = &log["runs"][0];
        assert_eq!(run["columnKind"], "unicodeCodePoints");
        let region = &run["results"][0]["locations"][0]["physicalLocation"]["region"];
        assert_eq!(region["startLine"], 1);
        assert_eq!(region["startColumn"], 13);
        assert_eq!(region["endColumn"], 17);
    }

    #[test]
    fn rules_are_the_codes_used_once_each_in_code_order() {
        let text = "abc\ndef\n";
        let a = SourceFile::new("b.miau", text);
        let b = SourceFile::new("a.miau", text);
        let log = parse(&sarif(
            &[
                (
                    a,
                    vec![
                        Diagnostic::new("M301", Span::new(0, 1), "one"),
                        Diagnostic::new("M101", Span::new(4, 5), "two"),
                    ],
                ),
                (b, vec![Diagnostic::new("M301", Span::new(1, 2), "three")]),
            ],
            "9.9.9",
        ));
        let driver = &log["runs"][0]["tool"]["driver"];
        assert_eq!(driver["name"], "miauc");
        assert_eq!(driver["version"], "9.9.9");
        let ids: Vec<_> = driver["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["M101", "M301"]);
        assert_eq!(driver["rules"][1]["name"], "undeclared-property-word");
        assert_eq!(
            driver["rules"][1]["defaultConfiguration"]["level"],
            "warning"
        );
        assert_eq!(
            driver["rules"][1]["shortDescription"]["text"],
            "The silent noun trap."
        );
        // Files in name order, then position order inside a file; ruleIndex points at the rule.
        let results = log["runs"][0]["results"].as_array().unwrap();
        let msgs: Vec<_> = results
            .iter()
            .map(|r| r["message"]["text"].clone())
            .collect();
        assert_eq!(msgs, ["three", "one", "two"]);
        assert_eq!(results[2]["ruleId"], "M101");
        assert_eq!(results[2]["ruleIndex"], 0);
        assert_eq!(results[0]["ruleIndex"], 1);
    }

    #[test]
    fn related_fixes_and_properties_are_carried() {
        let text = "level a {\n  rule STPO\n}\n";
        let at = text.find("STPO").unwrap();
        let d = Diagnostic::new("M301", Span::new(at, at + 4), "STPO?")
            .with_severity(Severity::Hint)
            .with_level("a")
            .with_cell(3, 1)
            .with_path("levels[0].board")
            .with_related(Span::new(0, 5), "the level")
            .with_fix("Replace with STOP", Span::new(at, at + 4), "STOP");
        let file = SourceFile::new("dir with space/p#1.miau", text);
        let log = parse(&sarif(&[(file, vec![d])], "0.1.0"));
        let r = &log["runs"][0]["results"][0];
        assert_eq!(r["level"], "note");
        assert_eq!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "dir%20with%20space/p%231.miau"
        );
        assert_eq!(r["relatedLocations"][0]["message"]["text"], "the level");
        assert_eq!(
            r["relatedLocations"][0]["physicalLocation"]["region"]["endColumn"],
            6
        );
        let change = &r["fixes"][0]["artifactChanges"][0];
        assert_eq!(r["fixes"][0]["description"]["text"], "Replace with STOP");
        assert_eq!(change["replacements"][0]["insertedContent"]["text"], "STOP");
        assert_eq!(change["replacements"][0]["deletedRegion"]["startLine"], 2);
        assert_eq!(change["replacements"][0]["deletedRegion"]["startColumn"], 8);
        assert_eq!(
            r["properties"],
            json!({"level": "a", "cells": [[3, 1]], "path": "levels[0].board"})
        );
    }

    #[test]
    fn output_is_deterministic_and_keys_keep_their_order() {
        let text = "x\n";
        let mk = || {
            vec![(
                SourceFile::new("p.miau", text),
                vec![
                    Diagnostic::new("M104", Span::new(0, 1), "b"),
                    Diagnostic::new("M101", Span::new(0, 1), "a"),
                ],
            )]
        };
        let one = sarif(&mk(), "1");
        assert_eq!(one, sarif(&mk(), "1"));
        assert!(one.find("\"$schema\"").unwrap() < one.find("\"version\"").unwrap());
        assert!(
            one.find("\"ruleId\": \"M101\"").unwrap() < one.find("\"ruleId\": \"M104\"").unwrap()
        );
        // A result without extras has no empty arrays or property bag.
        assert!(!one.contains("\"properties\""));
        assert!(!one.contains("\"fixes\""));
    }
}
