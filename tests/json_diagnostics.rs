//! One JSON fixture per stage 2 code that pack JSON can trigger
//! (`tests/fixtures/json/M2xx-*.json`); the diagnostics of each are pinned
//! with an insta snapshot: code, severity, level, path, cells, span and message.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use miau::json;
use miau::span::LineIndex;

fn render(text: &str, diags: &[miau::diag::Diagnostic]) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for d in diags {
        let pos = index.line_col(text, d.span.start as usize);
        let _ = writeln!(
            out,
            "{} {} [{}] {}:{} level={} path={} cells={:?}\n  {}",
            d.code(),
            d.severity.as_str(),
            d.name(),
            pos.line,
            pos.column,
            d.level.as_deref().unwrap_or("-"),
            d.path.as_deref().unwrap_or("-"),
            d.cells,
            d.message
        );
        for f in &d.fixes {
            for e in &f.edits {
                let _ = writeln!(out, "  fix: {} ({:?} -> {:?})", f.title, e.span, e.new_text);
            }
        }
    }
    out
}

#[test]
fn every_fixture_raises_its_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/json");
    let mut names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert!(names.len() > 40);
    for name in names {
        let text = fs::read_to_string(dir.join(&name)).unwrap();
        let (_, diags) = json::check(&text);
        let stem = name.trim_end_matches(".json");
        if let Some(code) = stem.get(..4).filter(|c| c.starts_with('M')) {
            assert!(
                diags.iter().any(|d| d.code() == code),
                "{name} doesn't raise {code}: {diags:#?}"
            );
            for d in &diags {
                assert!(d.path.is_some(), "{name}: {} without a path", d.code());
            }
        } else {
            assert!(diags.is_empty(), "{name} should be clean: {diags:#?}");
        }
        insta::assert_snapshot!(stem.to_string(), render(&text, &diags));
    }
}
