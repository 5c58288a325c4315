//! A statement's tokens: the line lexed up to a brace or its end, with
//! strings unescaped (M101–M103) and stray characters reported (M114).

use logos::Logos;

use super::super::lexer::{self, Raw, Shape};
use super::{End, K, P, T, describe_char};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax::ast::Comment;

impl P<'_> {
    /// Reads statement tokens from `pos` up to a brace or the end of the line.
    pub(super) fn read_stmt(&mut self, mut toks: Vec<T>) -> (Vec<T>, End) {
        loop {
            let base = self.pos;
            let slice = &self.text[base..self.line_end];
            let mut lex = Raw::lexer(slice);
            let Some(r) = lex.next() else {
                self.pos = self.line_end;
                return (toks, End::Eol);
            };
            let range = lex.span();
            let span = Span::new(base + range.start, base + range.end);
            let raw = &slice[range.clone()];
            self.pos = base + range.end;
            let t = match r {
                Ok(Raw::LBrace) => return (toks, End::Open(span)),
                Ok(Raw::RBrace) => return (toks, End::Close(span)),
                Ok(Raw::Comment) => {
                    let trimmed = raw.trim_end();
                    self.file.comments.push(Comment {
                        span: Span::new(span.start as usize, span.start as usize + trimmed.len()),
                    });
                    continue;
                }
                Ok(Raw::Comma) => T {
                    k: K::Comma,
                    text: ",".into(),
                    span,
                },
                Ok(Raw::Str(closed)) => self.string_token(raw, closed, span, &toks),
                Ok(Raw::SingleQuoted) => self.single_quoted(raw, span, &toks),
                Ok(Raw::Bare) => T {
                    k: match lexer::shape(raw) {
                        Shape::Word => K::Word,
                        Shape::Ident => K::Ident,
                        Shape::Num => K::Num,
                        Shape::Arrow => K::Arrow,
                        Shape::Other => K::Other,
                    },
                    text: raw.to_string(),
                    span,
                },
                Err(()) => {
                    let c = raw.chars().next().unwrap_or('?');
                    let lc = self.line_col(span.start as usize);
                    let d = Diagnostic::new(
                        "M114",
                        span,
                        format!(
                            "Line {}, column {}: unexpected {}.",
                            lc.line,
                            lc.column,
                            describe_char(c)
                        ),
                    )
                    .with_fix("Delete it", span, "");
                    self.push_diag(d);
                    continue;
                }
            };
            toks.push(t);
        }
    }

    fn stmt_name(toks: &[T]) -> String {
        toks.first()
            .map(|t| t.text.clone())
            .unwrap_or_else(|| "this statement".into())
    }

    fn string_token(&mut self, raw: &str, closed: bool, span: Span, toks: &[T]) -> T {
        let (value, bad) = lexer::unescape(raw, closed);
        let ctx = self.context(&Self::stmt_name(toks));
        if !closed {
            let col = self.col(span.start as usize);
            let d = Diagnostic::new(
                "M101",
                span,
                format!("{ctx}: this text has no closing quote (it opens at column {col})."),
            )
            .with_fix(
                "Insert the closing quote",
                Span::point(span.end as usize),
                "\"",
            );
            self.push_diag(d);
        }
        for b in bad {
            let at = span.start as usize + b.offset;
            let lc = self.line_col(at);
            let d = Diagnostic::new(
                "M103",
                Span::new(at, at + 1 + b.c.len_utf8()),
                format!(
                    "Line {}, column {}: `\\{}` isn't an escape. Write `\\\\` for a backslash.",
                    lc.line, lc.column, b.c
                ),
            )
            .with_fix("Double the backslash", Span::point(at), "\\");
            self.push_diag(d);
        }
        T {
            k: K::Str,
            text: value,
            span,
        }
    }

    fn single_quoted(&mut self, raw: &str, span: Span, toks: &[T]) -> T {
        let inner = if raw.len() >= 2 && raw.ends_with('\'') {
            &raw[1..raw.len() - 1]
        } else {
            raw.get(1..).unwrap_or("")
        };
        let ctx = self.context(&Self::stmt_name(toks));
        let requoted = lexer::quote(inner);
        let d = Diagnostic::new(
            "M102",
            span,
            format!("{ctx}: text goes in double quotes. An apostrophe inside is fine: {requoted}."),
        )
        .with_fix("Use double quotes", span, requoted);
        self.push_diag(d);
        T {
            k: K::Str,
            text: inner.to_string(),
            span,
        }
    }
}

/// Splits a bare token at `+` so that `CRATE+DOCK` reads as three tokens.
pub(super) fn split_plus(t: &T) -> Vec<T> {
    if t.k == K::Str || !t.text.contains('+') {
        return vec![t.clone()];
    }
    let mut out = Vec::new();
    let base = t.span.start as usize;
    let mut off = 0;
    for (i, piece) in t.text.split('+').enumerate() {
        if i > 0 {
            out.push(T {
                k: K::Plus,
                text: "+".into(),
                span: Span::new(base + off - 1, base + off),
            });
        }
        if !piece.is_empty() {
            let k = match lexer::shape(piece) {
                Shape::Word => K::Word,
                Shape::Ident => K::Ident,
                Shape::Num => K::Num,
                _ => K::Other,
            };
            out.push(T {
                k,
                text: piece.to_string(),
                span: Span::new(base + off, base + off + piece.len()),
            });
        }
        off += piece.len() + 1;
    }
    out
}
