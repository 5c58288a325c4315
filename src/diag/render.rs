//! Rendering diagnostics for terminals (ariadne) and tools (JSON lines).
//!
//! The human form starts with one grep-able line per diagnostic,
//! `file:line:col: severity[CODE name] message`, as the catalogue's
//! illustration shows, followed by ariadne's source excerpt with a marker
//! under the span and every related span labelled.

use super::{Diagnostic, Severity};
use crate::span::{LineCol, LineIndex};
use ariadne::{Config, IndexType, Label, Report, ReportKind, Source};

/// One source file as the renderers see it.
pub struct SourceFile<'a> {
    /// The name printed before `:line:col`.
    pub name: &'a str,
    /// The full text.
    pub text: &'a str,
    /// Its line index.
    pub index: LineIndex,
}

impl<'a> SourceFile<'a> {
    /// Index `text` under `name`.
    pub fn new(name: &'a str, text: &'a str) -> Self {
        SourceFile {
            name,
            text,
            index: LineIndex::new(text),
        }
    }

    /// Start and end positions of a diagnostic's span.
    pub fn positions(&self, d: &Diagnostic) -> (LineCol, LineCol) {
        (
            self.index.line_col(self.text, d.span.start as usize),
            self.index.line_col(self.text, d.span.end as usize),
        )
    }
}

/// The one-line header: `file:line:col: severity[CODE name] message`.
pub fn header(file: &SourceFile, d: &Diagnostic) -> String {
    let (start, _) = file.positions(d);
    format!(
        "{}:{}:{}: {}[{} {}] {}",
        file.name,
        start.line,
        start.column,
        d.severity.as_str(),
        d.code(),
        d.name(),
        d.message
    )
}

/// Render diagnostics for a terminal: the header line, then the source excerpt.
pub fn human(file: &SourceFile, diags: &[Diagnostic], color: bool) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&header(file, d));
        out.push('\n');
        out.push_str(&excerpt(file, d, color));
    }
    out
}

fn excerpt(file: &SourceFile, d: &Diagnostic, color: bool) -> String {
    let len = file.text.len();
    let clamp = |s: std::ops::Range<usize>| s.start.min(len)..s.end.min(len);
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
        Severity::Info | Severity::Hint => ReportKind::Advice,
    };
    let main = clamp(d.span.range());
    // The header line already carries the message; the marker carries the fix when there is one.
    let label = d
        .fixes
        .first()
        .map(|f| format!("fix: {}", f.title))
        .unwrap_or_else(|| "here".to_string());
    let mut report = Report::build(kind, (file.name, main.clone()))
        .with_config(
            Config::default()
                .with_color(color)
                .with_index_type(IndexType::Byte),
        )
        .with_code(d.code())
        .with_message(d.name())
        .with_label(Label::new((file.name, main)).with_message(label));
    for r in &d.related {
        report = report
            .with_label(Label::new((file.name, clamp(r.span.range()))).with_message(&r.label));
    }
    let mut buf = Vec::new();
    if report
        .finish()
        .write((file.name, Source::from(file.text)), &mut buf)
        .is_err()
    {
        return String::new();
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// One JSON object per diagnostic (a line each), for tools: `code`, `name`,
/// `severity`, `message`, `file`, 1-based `line`/`column`/`end_line`/`end_column`,
/// and `level`, `cells`, `path`, `related`, `fixes` where present.
pub fn json_line(file: &SourceFile, d: &Diagnostic) -> String {
    use serde_json::{Map, Value, json};
    let (start, end) = file.positions(d);
    let mut m = Map::new();
    m.insert("code".into(), json!(d.code()));
    m.insert("name".into(), json!(d.name()));
    m.insert("severity".into(), json!(d.severity.as_str()));
    m.insert("message".into(), json!(d.message));
    m.insert("file".into(), json!(file.name));
    m.insert("line".into(), json!(start.line));
    m.insert("column".into(), json!(start.column));
    m.insert("end_line".into(), json!(end.line));
    m.insert("end_column".into(), json!(end.column));
    if let Some(level) = &d.level {
        m.insert("level".into(), json!(level));
    }
    if !d.cells.is_empty() {
        m.insert(
            "cells".into(),
            Value::Array(d.cells.iter().map(|(x, y)| json!([x, y])).collect()),
        );
    }
    if let Some(path) = &d.path {
        m.insert("path".into(), json!(path));
    }
    if !d.related.is_empty() {
        let related = d
            .related
            .iter()
            .map(|r| {
                let p = file.index.line_col(file.text, r.span.start as usize);
                json!({"line": p.line, "column": p.column, "label": r.label})
            })
            .collect();
        m.insert("related".into(), Value::Array(related));
    }
    if !d.fixes.is_empty() {
        let fixes = d
            .fixes
            .iter()
            .map(|f| {
                let edits: Vec<Value> = f
                    .edits
                    .iter()
                    .map(|e| {
                        let s = file.index.line_col(file.text, e.span.start as usize);
                        let t = file.index.line_col(file.text, e.span.end as usize);
                        json!({"line": s.line, "column": s.column, "end_line": t.line,
                               "end_column": t.column, "new_text": e.new_text})
                    })
                    .collect();
                json!({"title": f.title, "edits": edits})
            })
            .collect();
        m.insert("fixes".into(), Value::Array(fixes));
    }
    Value::Object(m).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    #[test]
    fn header_names_file_line_and_column() {
        let text = "pack p {\n  name \"x\n}\n";
        let file = SourceFile::new("p.miau", text);
        let d = Diagnostic::new("M101", Span::new(16, 18), "this text has no closing quote.");
        assert_eq!(
            header(&file, &d),
            "p.miau:2:8: error[M101 unterminated-string] this text has no closing quote."
        );
        let rendered = human(&file, std::slice::from_ref(&d), false);
        assert!(rendered.contains("p.miau:2:8"), "{rendered}");
        let line = json_line(&file, &d);
        assert!(line.contains(r#""line":2,"column":8"#), "{line}");
    }
}
