//! Diagnostics as plain data: code, severity, message, spans and fixes.
//!
//! Every stage (syntax, validation, analysis, check) produces [`Diagnostic`]s;
//! the shells render them (terminal, JSON lines, SARIF, LSP). Nothing here does I/O.

mod cap;
mod cause;
mod codes;
pub mod github;
pub mod render;
pub mod sarif;
pub mod wording;

pub use cap::{Capped, FIRST_KEPT_SCOPES, MAX_PER_FILE, MAX_PER_SCOPE};
pub use cause::{CAUSES, is_stage4, levels_with_causes, note_causes};
pub use codes::{CATALOGUE, CodeInfo};

use crate::span::Span;

/// How serious a diagnostic is (catalogue 1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The pack won't build, the game would refuse it, or the level is broken.
    Error,
    /// The pack loads, but something is probably wrong.
    Warning,
    /// A fact the author should see; never fails a run.
    Info,
    /// A suggestion shown faintly in the editor.
    Hint,
}

impl Severity {
    /// Lowercase name as used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// Look up a catalogue entry by code (`M301`) or name (`undeclared-property-word`),
/// ignoring case. `allow` statements and settings accept either.
pub fn lookup(code_or_name: &str) -> Option<&'static CodeInfo> {
    CATALOGUE.iter().find(|c| {
        c.code.eq_ignore_ascii_case(code_or_name) || c.name.eq_ignore_ascii_case(code_or_name)
    })
}

/// One replacement of the text in `span` by `new_text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    /// The source range replaced (empty for an insertion).
    pub span: Span,
    /// The replacement text.
    pub new_text: String,
}

/// A titled quick fix: a set of edits applied together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, as shown in the editor; says so when it changes how a level plays.
    pub title: String,
    /// The edits, non-overlapping.
    pub edits: Vec<TextEdit>,
}

/// A labelled secondary span that explains the diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// Where.
    pub span: Span,
    /// Why it matters here.
    pub label: String,
}

/// One diagnostic (catalogue 1.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The catalogue entry: code, name, default severity.
    pub info: &'static CodeInfo,
    /// Severity in force (an allowed warning is reported as info).
    pub severity: Severity,
    /// One or two sentences for the author.
    pub message: String,
    /// The narrowest source text the author would edit.
    pub span: Span,
    /// The level id, when it concerns one level.
    pub level: Option<String>,
    /// Board cells involved, as (column, row) from the top-left.
    pub cells: Vec<(u32, u32)>,
    /// The pack-model path in the loader's style, e.g. `levels[2].automata[0].pattern`.
    pub path: Option<String>,
    /// Secondary spans.
    pub related: Vec<Related>,
    /// Quick fixes.
    pub fixes: Vec<Fix>,
}

impl crate::span::Shift for Diagnostic {
    /// Move every span (its own, related ones, fix edits) with the text,
    /// as [`crate::span::Shift`] says.
    fn shift(&mut self, m: crate::span::Move) {
        self.span.shift(m);
        for r in &mut self.related {
            r.span.shift(m);
        }
        for f in &mut self.fixes {
            for e in &mut f.edits {
                e.span.shift(m);
            }
        }
    }
}

impl Diagnostic {
    /// This diagnostic with every span (its own, related ones, fix edits)
    /// that starts at or after byte `from` moved by `delta` bytes, clamped at
    /// the start of the text: a diagnostic kept across an edit before it.
    pub fn shifted(&self, from: usize, delta: i64) -> Diagnostic {
        let mv = |s: Span| {
            if (s.start as usize) < from {
                return s;
            }
            let f = |x: u32| (i64::from(x) + delta).max(0) as usize;
            Span::new(f(s.start), f(s.end))
        };
        let mut d = self.clone();
        d.span = mv(d.span);
        for r in &mut d.related {
            r.span = mv(r.span);
        }
        for f in &mut d.fixes {
            for e in &mut f.edits {
                e.span = mv(e.span);
            }
        }
        d
    }

    /// A diagnostic with the catalogue's severity for `code`.
    ///
    /// # Panics
    /// Panics if `code` is not in the catalogue: codes are compile-time constants of the toolchain.
    pub fn new(code: &str, span: Span, message: impl Into<String>) -> Self {
        let info = lookup(code).unwrap_or_else(|| panic!("unknown diagnostic code {code}"));
        Diagnostic {
            info,
            severity: info.severity,
            message: message.into(),
            span,
            level: None,
            cells: Vec::new(),
            path: None,
            related: Vec::new(),
            fixes: Vec::new(),
        }
    }

    /// The code, e.g. `M301`.
    pub fn code(&self) -> &'static str {
        self.info.code
    }

    /// The stable name, e.g. `undeclared-property-word`.
    pub fn name(&self) -> &'static str {
        self.info.name
    }

    /// Set the level this diagnostic concerns.
    pub fn with_level(mut self, level: impl Into<String>) -> Self {
        self.level = Some(level.into());
        self
    }

    /// Add a board cell.
    pub fn with_cell(mut self, x: u32, y: u32) -> Self {
        self.cells.push((x, y));
        self
    }

    /// Set the pack-model path.
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Add a labelled secondary span.
    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Self {
        self.related.push(Related {
            span,
            label: label.into(),
        });
        self
    }

    /// Add a quick fix made of one edit.
    pub fn with_fix(
        mut self,
        title: impl Into<String>,
        span: Span,
        new_text: impl Into<String>,
    ) -> Self {
        self.fixes.push(Fix {
            title: title.into(),
            edits: vec![TextEdit {
                span,
                new_text: new_text.into(),
            }],
        });
        self
    }

    /// Override the severity.
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
}

/// Sort diagnostics into the order every output uses: by position, then
/// code, then message, with a level's stage 4 findings after its stage 1–3
/// diagnostics (cause first, see [`note_causes`]).
pub fn sort(diags: &mut [Diagnostic]) {
    cause::sort(diags);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_codes_are_unique_and_ordered() {
        for pair in CATALOGUE.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} !< {}",
                pair[0].code,
                pair[1].code
            );
        }
        let mut names: Vec<_> = CATALOGUE.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), CATALOGUE.len());
    }

    #[test]
    fn lookup_accepts_code_or_name() {
        assert_eq!(lookup("m403").unwrap().name, "bypass");
        assert_eq!(lookup("BYPASS").unwrap().code, "M403");
        assert!(lookup("M999").is_none());
    }
}

/// The reference page of every code, `docs/diagnostics.md`, compiled in so
/// `miauc explain` works from any directory.
const REFERENCE: &str = include_str!("../../docs/diagnostics.md");

/// The documentation page of a code or name, as printed by `miauc explain`;
/// for anything else, the section of the rules reference on it
/// (`miauc explain SINK`, see [`crate::reference::section`]).
pub fn explain(code_or_name: &str) -> Option<String> {
    if code_or_name.eq_ignore_ascii_case("topics") {
        return Some(topics());
    }
    let Some(info) = lookup(code_or_name) else {
        let anchor = match crate::reference::section(code_or_name) {
            Some(_) => crate::reference::slug(code_or_name),
            None => crate::reference::mechanism_anchor(code_or_name)?.to_string(),
        };
        let section = crate::reference::section(&anchor)?;
        return Some(format!(
            "{section}\nFrom docs/rules.md#{anchor}; how to read its examples: \
             docs/rules.md#how-to-read-the-examples.\n"
        ));
    };
    let heading = format!("### {} {}", info.code, info.name);
    let start = REFERENCE.find(&heading)?;
    let rest = &REFERENCE[start..];
    let end = rest[heading.len()..]
        .find("\n## ")
        .into_iter()
        .chain(rest[heading.len()..].find("\n### "))
        .min()
        .map_or(rest.len(), |e| e + heading.len() + 1);
    Some(rest[..end].trim_end().to_string() + "\n")
}

/// Everything `miauc explain` takes, as a Markdown page: the rules'
/// sections (indented by heading level) and every diagnostic code with its
/// name and severity.
pub fn topics() -> String {
    let mut out = String::from(
        "# miauc explain: topics\n\n\
         `miauc explain <topic>` prints one of these. Sections of the rules \
         (docs/rules.md), by anchor or heading in any case; a property word \
         (`SINK`) or a mechanism's word (`OPEN`, `TICK`, `PLATE`) names its \
         section:\n\n",
    );
    for (level, text, anchor) in crate::reference::sections() {
        if level < 2 {
            continue;
        }
        let indent = "  ".repeat(level - 2);
        out.push_str(&format!("{indent}- `{anchor}`: {text}\n"));
    }
    out.push_str(
        "\nDiagnostics (docs/diagnostics.md), by code or name:\n\n\
         | code | name | severity |\n| --- | --- | --- |\n",
    );
    for info in CATALOGUE {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            info.code,
            info.name,
            info.severity.as_str()
        ));
    }
    out
}

#[cfg(test)]
mod explain_tests {
    #[test]
    fn every_code_has_a_reference_page() {
        for info in super::CATALOGUE {
            let page =
                super::explain(info.code).unwrap_or_else(|| panic!("no page for {}", info.code));
            assert!(page.starts_with(&format!("### {} {}", info.code, info.name)));
            assert!(page.contains("**Severity:**"), "{page}");
        }
        assert!(super::explain("bypass").unwrap().contains("M403"));
    }

    #[test]
    fn topics_list_every_code_and_section() {
        let page = super::explain("topics").unwrap();
        for info in super::CATALOGUE {
            assert!(page.contains(&format!("| {} | {} |", info.code, info.name)));
        }
        for (_, _, anchor) in crate::reference::sections().iter().skip(1) {
            assert!(page.contains(&format!("`{anchor}`")), "{anchor} missing");
        }
    }

    #[test]
    fn a_mechanism_word_explains_its_section() {
        let open = super::explain("OPEN").unwrap();
        assert!(open.starts_with("### Pairs\n"), "{open}");
        assert!(open.contains("docs/rules.md#pairs"), "{open}");
    }

    #[test]
    fn a_rules_topic_explains_its_section() {
        let sink = super::explain("SINK").unwrap();
        assert!(sink.starts_with("### SINK\n"), "{sink}");
        // A diagnostic's name wins over a section of the same name.
        assert!(super::explain("skippable").unwrap().starts_with("### M407"));
        assert!(super::explain("no such topic").is_none());
    }
}
