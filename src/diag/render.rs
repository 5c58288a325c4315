//! Rendering diagnostics for terminals and tools (JSON lines).
//!
//! The human form reads like rustc's: `warning[M403]: message`, then
//! `--> file:line:col`, the source lines with `^` under the span and `-`
//! under each related span with its label, and `= help:` lines for the
//! fixes; each diagnostic once. The concise form is one grep-able line per
//! diagnostic, `file:line:col: severity[CODE name] message`.

use super::{Diagnostic, Severity};
use crate::span::{LineCol, LineIndex, Span};
use unicode_width::UnicodeWidthChar;

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

/// Source bytes all excerpts of one rendering may show together: a file
/// whose mistakes sit on one 60 KB line renders each line only a few
/// times, so the output stays linear in the file.
pub const MAX_EXCERPT_BYTES: usize = 256 * 1024;

/// How the human form is drawn.
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    /// ANSI colours.
    pub color: bool,
    /// `--deny warnings`: warnings are drawn as errors, with a note saying why.
    pub deny_warnings: bool,
}

/// The severity word a diagnostic is shown with under `style`.
pub fn shown_severity(d: &Diagnostic, style: Style) -> Severity {
    if style.deny_warnings && d.severity == Severity::Warning {
        Severity::Error
    } else {
        d.severity
    }
}

fn paint(style: Style, code: &str, text: &str) -> String {
    if style.color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

fn severity_color(s: Severity) -> &'static str {
    match s {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
        Severity::Info => "1;36",
        Severity::Hint => "1;32",
    }
}

/// Render diagnostics for a terminal, rustc's way (see the module docs).
pub fn human(file: &SourceFile, diags: &[Diagnostic], style: Style) -> String {
    let mut out = String::new();
    let mut excerpts = 0usize;
    let mut budget = MAX_EXCERPT_BYTES;
    for d in diags {
        let cost = excerpt_cost(file, d);
        let with_source = excerpts < MAX_EXCERPTS && cost <= budget;
        if with_source {
            excerpts += 1;
            budget -= cost;
        }
        out.push_str(&one(file, d, style, with_source));
    }
    if diags.len() > excerpts {
        out.push_str(&format!(
            "({} more diagnostics shown without source lines)\n",
            diags.len() - excerpts
        ));
    }
    out
}

/// One line per diagnostic: [`header`], with the severity under `style`.
pub fn concise(file: &SourceFile, diags: &[Diagnostic], style: Style) -> String {
    let mut out = String::new();
    for d in diags {
        let (start, _) = file.positions(d);
        out.push_str(&format!(
            "{}:{}:{}: {}[{} {}] {}\n",
            file.name,
            start.line,
            start.column,
            shown_severity(d, style).as_str(),
            d.code(),
            d.name(),
            clean(&d.message)
        ));
    }
    out
}

/// Control characters (terminal escapes among them) never reach the
/// terminal from a source line or a message: each becomes U+FFFD.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' => ' ',
            c if c.is_control() => '\u{FFFD}',
            c => c,
        })
        .collect()
}

/// The display width of a piece of a source line (as [`clean`] draws it).
fn width(text: &str) -> usize {
    text.chars()
        .map(|c| match c {
            '\t' => 1,
            c if c.is_control() => 1,
            c => c.width().unwrap_or(0),
        })
        .sum()
}

/// One marker under a source line: its start and width in display columns.
struct Mark<'a> {
    line: usize,
    col: usize,
    len: usize,
    primary: bool,
    label: &'a str,
}

fn one(file: &SourceFile, d: &Diagnostic, style: Style, with_source: bool) -> String {
    let sev = shown_severity(d, style);
    let (start, _) = file.positions(d);
    let mut out = String::new();
    let head = format!("{}[{}]", sev.as_str(), d.code());
    out.push_str(&paint(style, severity_color(sev), &head));
    out.push_str(&paint(style, "1", &format!(": {}", clean(&d.message))));
    out.push('\n');
    let mut marks: Vec<Mark> = Vec::new();
    if with_source {
        marks.extend(mark(file, d.span, true, ""));
        for r in &d.related {
            marks.extend(mark(file, r.span, false, &r.label));
        }
    }
    let last_line = marks
        .iter()
        .map(|m| m.line)
        .max()
        .unwrap_or(start.line as usize);
    let gutter = last_line.to_string().len();
    let pad = " ".repeat(gutter);
    let bar = paint(style, "1;34", "|");
    out.push_str(&format!(
        "{pad}{} {}:{}:{}\n",
        paint(style, "1;34", "-->"),
        file.name,
        start.line,
        start.column
    ));
    if !marks.is_empty() {
        out.push_str(&format!("{pad} {bar}\n"));
        let mut lines: Vec<usize> = marks.iter().map(|m| m.line).collect();
        lines.sort_unstable();
        lines.dedup();
        let mut previous: Option<usize> = None;
        for line in lines {
            if previous.is_some_and(|p| line > p + 1) {
                out.push_str(&paint(style, "1;34", "...\n"));
            }
            previous = Some(line);
            let text = line_text(file, line);
            let number = paint(style, "1;34", &format!("{line:>gutter$}"));
            out.push_str(&format!("{number} {bar} {}\n", clean(text).trim_end()));
            for m in marks.iter().filter(|m| m.line == line) {
                let (ch, color) = if m.primary {
                    ('^', severity_color(sev))
                } else {
                    ('-', "1;34")
                };
                let marker: String = std::iter::repeat_n(ch, m.len.max(1)).collect();
                let label = if m.label.is_empty() {
                    String::new()
                } else {
                    format!(" {}", clean(m.label))
                };
                out.push_str(&format!(
                    "{pad} {bar} {}{}\n",
                    " ".repeat(m.col),
                    paint(style, color, &format!("{marker}{label}"))
                ));
            }
        }
        out.push_str(&format!("{pad} {bar}\n"));
    }
    if sev != d.severity {
        out.push_str(&format!(
            "{pad} {} {}: warning {} denied by `--deny warnings`\n",
            paint(style, "1;34", "="),
            paint(style, "1", "note"),
            d.code()
        ));
    }
    for f in &d.fixes {
        out.push_str(&format!(
            "{pad} {} {}: {}{}\n",
            paint(style, "1;34", "="),
            paint(style, "1", "help"),
            clean(&f.title),
            shown_text(f)
        ));
    }
    out
}

/// What a one-edit, one-line fix writes, when its title doesn't already
/// say it (": write `allow world-level-count "…"`"), so the reader of a
/// terminal can apply by hand what an editor applies with one action.
fn shown_text(f: &super::Fix) -> String {
    let [edit] = f.edits.as_slice() else {
        return String::new();
    };
    let text = edit.new_text.trim();
    if text.is_empty() || text.contains('\n') || f.title.contains(text) {
        return String::new();
    }
    format!(": write `{}`", clean(text))
}

/// The text of 1-based `line`, without its line break.
fn line_text<'t>(file: &SourceFile<'t>, line: usize) -> &'t str {
    let start = file.index.line_start(line - 1).unwrap_or(file.text.len());
    let end = file.index.line_start(line).unwrap_or(file.text.len());
    let end = end.max(start);
    file.text
        .get(start..end)
        .unwrap_or("")
        .trim_end_matches(['\n', '\r'])
}

/// The marker of a span on its first line (a span over several lines is
/// marked to the end of its first line).
fn mark<'a>(file: &SourceFile, span: Span, primary: bool, label: &'a str) -> Option<Mark<'a>> {
    let at = floor_boundary(file.text, span.start as usize);
    let first = file.index.line_of(at);
    let line_start = file.index.line_start(first)?;
    let text = line_text(file, first + 1);
    let line_end = line_start + text.len();
    let from = at.clamp(line_start, line_end);
    let to = floor_boundary(file.text, (span.end as usize).clamp(from, line_end));
    let col = width(file.text.get(line_start..from)?);
    let len = width(file.text.get(from..to)?);
    Some(Mark {
        line: first + 1,
        col,
        len,
        primary,
        label,
    })
}

/// The bytes of the lines an excerpt of `d` shows (its span's and its
/// related spans' lines).
fn excerpt_cost(file: &SourceFile, d: &Diagnostic) -> usize {
    let lines = |span: Span| {
        let first = file.index.line_of(span.start as usize);
        let start = file.index.line_start(first).unwrap_or(0);
        let end = file.index.line_start(first + 1).unwrap_or(file.text.len());
        end.saturating_sub(start)
    };
    lines(d.span) + d.related.iter().map(|r| lines(r.span)).sum::<usize>()
}

/// Move a byte offset back to the nearest character boundary.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
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
        let rendered = human(&file, std::slice::from_ref(&d), Style::default());
        assert_eq!(
            rendered,
            "error[M101]: this text has no closing quote.\n \
             --> p.miau:2:8\n  \
             |\n\
             2 |   name \"x\n  \
             |        ^^\n  \
             |\n"
        );
        let line = json_line(&file, &d);
        assert!(line.contains(r#""line":2,"column":8"#), "{line}");
    }

    #[test]
    fn odd_line_breaks_and_mid_character_spans_render() {
        // Positions count lines by `\n` only; the others are drawn as U+FFFD.
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
        let out = human(&file, &diags, Style::default());
        assert!(out.matches("odd.miau:").count() >= diags.len());
        // No control character of the source reaches the terminal.
        assert!(!out.contains(['\r', '\x0B', '\x0C', '\u{85}']), "{out:?}");
    }
}
