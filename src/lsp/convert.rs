//! Conversions between the core's plain data (byte offsets) and protocol types.
//!
//! Positions are counted in UTF-16 code units unless the client offered
//! `utf-8` in `general.positionEncodings`, in which case they are bytes.

use crate::diag::{Diagnostic, Severity};
use crate::ide::Analysis;
use crate::span::Span;
use tower_lsp_server::ls_types as lsp;

/// How the client counts columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// UTF-16 code units (the protocol's default).
    #[default]
    Utf16,
    /// Bytes of UTF-8.
    Utf8,
}

/// The protocol position of byte `offset` (clamped to the text).
pub fn lsp_position(a: &Analysis, offset: usize, enc: Encoding) -> lsp::Position {
    let text = a.text();
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    match enc {
        Encoding::Utf16 => {
            let (l, c) = a.index().utf16_position(text, offset);
            lsp::Position::new(l, c)
        }
        Encoding::Utf8 => {
            let line = a.index().line_of(offset);
            let start = a.index().line_start(line).unwrap_or(0);
            lsp::Position::new(line as u32, (offset - start.min(offset)) as u32)
        }
    }
}

/// Spans of one document as LSP locations (definitions, references).
pub fn locations(
    a: &Analysis,
    uri: &lsp::Uri,
    spans: Vec<Span>,
    enc: Encoding,
) -> Vec<lsp::Location> {
    spans
        .into_iter()
        .map(|s| lsp::Location {
            uri: uri.clone(),
            range: lsp_range(a, s, enc),
        })
        .collect()
}

/// The protocol range of a byte span.
pub fn lsp_range(a: &Analysis, span: Span, enc: Encoding) -> lsp::Range {
    lsp::Range {
        start: lsp_position(a, span.start as usize, enc),
        end: lsp_position(a, span.end as usize, enc),
    }
}

/// The byte offset of a protocol position; out-of-range positions clamp to
/// the end of their line, or of the text.
pub fn offset_of(a: &Analysis, pos: lsp::Position, enc: Encoding) -> usize {
    let text = a.text();
    match enc {
        Encoding::Utf16 => a.index().offset_of_utf16(text, pos.line, pos.character),
        Encoding::Utf8 => {
            let Some(start) = a.index().line_start(pos.line as usize) else {
                return text.len();
            };
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            let mut at = start.saturating_add(pos.character as usize).min(end);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        }
    }
}

/// Codes whose diagnostics are about unused declarations: editors fade them.
const UNNECESSARY: &[&str] = &["M115", "M231", "M303", "M305", "M332"];

/// A core diagnostic as a protocol diagnostic, linked to its page in
/// `docs/diagnostics.md` when the server knows where that is (`docs`).
pub fn lsp_diagnostic(
    uri: &lsp::Uri,
    a: &Analysis,
    d: &Diagnostic,
    enc: Encoding,
    docs: Option<&str>,
) -> lsp::Diagnostic {
    let severity = match d.severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    };
    let related = d
        .related
        .iter()
        .map(|r| lsp::DiagnosticRelatedInformation {
            location: lsp::Location {
                uri: uri.clone(),
                range: lsp_range(a, r.span, enc),
            },
            message: r.label.clone(),
        })
        .collect::<Vec<_>>();
    // The page's heading is `### M301 undeclared-property-word`.
    let href = docs.map(|base| format!("{base}#{}-{}", d.code().to_ascii_lowercase(), d.name()));
    lsp::Diagnostic {
        range: lsp_range(a, d.span, enc),
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code().to_string())),
        code_description: href
            .and_then(|h| h.parse::<lsp::Uri>().ok())
            .map(|href| lsp::CodeDescription { href }),
        source: Some("miau".into()),
        message: d.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        tags: UNNECESSARY
            .contains(&d.code())
            .then(|| vec![lsp::DiagnosticTag::UNNECESSARY]),
        data: None,
    }
}
