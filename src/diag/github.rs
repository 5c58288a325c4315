//! GitHub Actions workflow commands, so a CI run annotates the pull request:
//! `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=M301 name::message`.
//!
//! GitHub reads one command per line, so the message escapes `%`, `\r` and
//! `\n`; property values additionally escape `:` and `,`, which would
//! otherwise end the value. Columns are 1-based characters, like every other
//! output of the toolchain.

use super::render::SourceFile;
use super::{Diagnostic, Severity};

/// The workflow command for a severity: info and hint are notices, since
/// GitHub has no fainter kind.
pub fn command(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "notice",
    }
}

/// Escape a command's message (GitHub's `escapeData`).
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a property value (GitHub's `escapeProperty`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation line for one diagnostic, without the trailing newline.
pub fn annotation(file: &SourceFile, d: &Diagnostic) -> String {
    let (start, end) = file.positions(d);
    format!(
        "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        command(d.severity),
        escape_property(file.name),
        start.line,
        start.column,
        end.line,
        end.column,
        escape_property(&format!("{} {}", d.code(), d.name())),
        escape_data(&d.message),
    )
}

/// Annotations for several files, one line each: files in name order,
/// diagnostics in the order of [`super::sort`].
pub fn github(files: &[(SourceFile, Vec<Diagnostic>)]) -> String {
    let mut order: Vec<&(SourceFile, Vec<Diagnostic>)> = files.iter().collect();
    order.sort_by(|a, b| a.0.name.cmp(b.0.name));
    let mut out = String::new();
    for (file, diags) in order {
        let mut diags = diags.clone();
        super::sort(&mut diags);
        for d in &diags {
            out.push_str(&annotation(file, d));
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    #[test]
    fn escaping_follows_github_rules() {
        assert_eq!(escape_data("50% a\r\nb: c, d"), "50%25 a%0D%0Ab: c, d");
        assert_eq!(escape_property("a:b,c%\n"), "a%3Ab%2Cc%25%0A");
    }

    #[test]
    fn one_file_of_mixed_severities() {
        let text = "pack p {\n  level night-shift {\n    rule STPO\n    name \"x\n  }\n}\n";
        let at = text.find("STPO").unwrap();
        let q = text.find("\"x").unwrap();
        let file = SourceFile::new("packs/crate-works.miau", text);
        let diags = vec![
            Diagnostic::new(
                "M101",
                Span::new(q, q + 2),
                "This text has no closing quote.",
            ),
            Diagnostic::new(
                "M301",
                Span::new(at, at + 4),
                "Level night-shift, column 3, row 1: STPO isn't a thing.\nDid you mean a property? 100% sure: no.",
            ),
            Diagnostic::new("M301", Span::new(0, 4), "Allowed (allowed: deliberate).")
                .with_severity(Severity::Info),
            Diagnostic::new("M301", Span::new(5, 6), "A faint suggestion.")
                .with_severity(Severity::Hint),
        ];
        insta::assert_snapshot!(github(&[(file, diags)]));
    }

    #[test]
    fn file_names_with_commas_and_colons_are_escaped() {
        let text = "ab\n";
        let file = SourceFile::new("C:/packs/a,b.miau", text);
        let d = Diagnostic::new("M104", Span::new(0, 2), "Unknown keyword ab.");
        insta::assert_snapshot!(annotation(&file, &d));
    }

    #[test]
    fn files_come_in_name_order() {
        let text = "x\n";
        let out = github(&[
            (
                SourceFile::new("b.miau", text),
                vec![Diagnostic::new("M104", Span::new(0, 1), "b")],
            ),
            (
                SourceFile::new("a.miau", text),
                vec![Diagnostic::new("M104", Span::new(0, 1), "a")],
            ),
        ]);
        let lines: Vec<_> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("::error file=a.miau,line=1,col=1,endLine=1,endColumn=2,"));
        assert!(lines[1].contains("file=b.miau"));
    }
}
