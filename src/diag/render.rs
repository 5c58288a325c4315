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

/// How many diagnostics get a source excerpt; past this only header lines are
/// printed, so a file with thousands of mistakes still renders in linear time.
pub const MAX_EXCERPTS: usize = 200;

/// Render diagnostics for a terminal: the header line, then the source excerpt.
pub fn human(file: &SourceFile, diags: &[Diagnostic], color: bool) -> String {
    let text = ariadne_text(file.text);
    // One line table for the whole file, shared by every excerpt.
    let source = Source::from(text.as_ref());
    let mut out = String::new();
    let mut excerpts = 0usize;
    let mut budget = MAX_EXCERPT_BYTES;
    for d in diags {
        out.push_str(&header(file, d));
        out.push('\n');
        let cost = excerpt_cost(file, d);
        if excerpts < MAX_EXCERPTS && cost <= budget {
            excerpts += 1;
            budget -= cost;
            out.push_str(&excerpt(file.name, &text, &source, d, color));
        }
    }
    if diags.len() > excerpts {
        out.push_str(&format!(
            "({} more diagnostics shown without source lines)\n",
            diags.len() - excerpts
        ));
    }
    out
}

/// Source bytes all excerpts of one rendering may show together: a file
/// whose mistakes sit on one 60 KB line renders each line only a few
/// times, so the output stays linear in the file.
pub const MAX_EXCERPT_BYTES: usize = 256 * 1024;

/// The bytes of the lines an excerpt of `d` shows (its span's and its
/// related spans' lines).
fn excerpt_cost(file: &SourceFile, d: &Diagnostic) -> usize {
    let lines = |span: crate::span::Span| {
        let first = file.index.line_of(span.start as usize);
        let last = file.index.line_of(span.end as usize);
        let start = file.index.line_start(first).unwrap_or(0);
        let end = file.index.line_start(last + 1).unwrap_or(file.text.len());
        end.saturating_sub(start)
    };
    lines(d.span) + d.related.iter().map(|r| lines(r.span)).sum::<usize>()
}

/// The text as ariadne should see it: ariadne also breaks lines at `\r`,
/// vertical tab, form feed, NEL and the Unicode line and paragraph separators,
/// while every position here counts lines by `\n` only. Those characters are
/// replaced by as many spaces as they have bytes, so byte offsets stay valid and
/// both agree on lines.
fn ariadne_text(text: &str) -> std::borrow::Cow<'_, str> {
    let breaks = |c: char| {
        matches!(
            c,
            '\r' | '\x0B' | '\x0C' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    };
    if !text.contains(breaks) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if breaks(c) {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Move a byte offset back to the nearest character boundary.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn excerpt(name: &str, text: &str, source: &Source<&str>, d: &Diagnostic, color: bool) -> String {
    let clamp = |s: std::ops::Range<usize>| {
        let start = floor_boundary(text, s.start);
        start..floor_boundary(text, s.end).max(start)
    };
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
    let mut report = Report::build(kind, (name, main.clone()))
        .with_config(
            Config::default()
                .with_color(color)
                .with_index_type(IndexType::Byte),
        )
        .with_code(d.code())
        .with_message(d.name())
        .with_label(Label::new((name, main)).with_message(label));
    for r in &d.related {
        report =
            report.with_label(Label::new((name, clamp(r.span.range()))).with_message(&r.label));
    }
    let mut buf = Vec::new();
    if report.finish().write((name, source), &mut buf).is_err() {
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

    #[test]
    fn odd_line_breaks_and_mid_character_spans_render() {
        // ariadne breaks lines at these too; positions here count only `\n`.
        let text = "a\rb\u{85}c\u{2028}🐈d\x0Be\n\x0Cf🐈\n";
        let file = SourceFile::new("odd.miau", text);
        let diags: Vec<Diagnostic> = (0..text.len())
            .flat_map(|i| {
                [
                    Diagnostic::new("M114", Span::new(i, i + 1), "odd"),
                    Diagnostic::new("M114", Span::new(i, text.len() + 5), "odd")
                        .with_related(Span::new(i / 2, i), "also"),
                ]
            })
            .collect();
        let out = human(&file, &diags, false);
        assert!(out.matches("odd.miau:").count() >= diags.len());
    }
}
