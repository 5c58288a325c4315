//! The small `chumsky` grammars of statement arguments, and how their
//! first error becomes M106.

use chumsky::error::{Rich, RichPattern};
use chumsky::prelude::*;

use super::{Ex, K, P, T, join_or};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax::ast::{Allow, Ident, Listed, Num, Str};

pub(super) fn tok<'a>(k: K, label: &'static str) -> impl Parser<'a, &'a [T], T, Ex<'a>> + Clone {
    any().filter(move |t: &T| t.k == k).labelled(label)
}

pub(super) fn kw<'a>(w: &'static str) -> impl Parser<'a, &'a [T], T, Ex<'a>> + Clone {
    any()
        .filter(move |t: &T| t.k == K::Ident && t.text == w)
        .labelled(w)
}

pub(super) fn string<'a>() -> impl Parser<'a, &'a [T], Str, Ex<'a>> + Clone {
    tok(K::Str, "text in double quotes").map(|t| Str {
        value: t.text,
        span: t.span,
    })
}

pub(super) fn num<'a>() -> impl Parser<'a, &'a [T], Num, Ex<'a>> + Clone {
    any()
        .filter(|t: &T| t.k == K::Num && t.text.parse::<u64>().is_ok())
        .labelled("a whole number")
        .map(|t: T| Num {
            value: t.text.parse().unwrap_or(0),
            span: t.span,
        })
}

/// Any bare token used as a name; stage 2 checks its shape (M206, M207, M224).
pub(super) fn name<'a>(label: &'static str) -> impl Parser<'a, &'a [T], Ident, Ex<'a>> + Clone {
    any()
        .filter(|t: &T| matches!(t.k, K::Word | K::Ident | K::Other | K::Num))
        .labelled(label)
        .map(|t: T| Ident {
            text: t.text,
            span: t.span,
        })
}

pub(super) fn allow_args<'a>() -> impl Parser<'a, &'a [T], Allow, Ex<'a>> + Clone {
    name("a diagnostic code or name")
        .then(string().or_not())
        .map(|(code, reason)| Allow { code, reason })
}

pub(super) fn listed<'a>() -> impl Parser<'a, &'a [T], Vec<Listed>, Ex<'a>> + Clone {
    choice((
        string().map(Listed::Idea),
        name("a word or an idea in double quotes").map(Listed::Word),
    ))
    .repeated()
    .at_least(1)
    .collect()
}

pub(super) fn names<'a>(
    label: &'static str,
) -> impl Parser<'a, &'a [T], Vec<Ident>, Ex<'a>> + Clone {
    name(label).repeated().at_least(1).collect()
}

#[derive(Debug, Clone)]
pub(super) enum Opt {
    Glyph(Str),
    Tagline(Str),
    Accent(Ident),
    Faces(Ident),
    Fallback(Str),
    Terrain,
    Describe(Str),
    Property(Ident),
    Subject(Ident),
    Phase(Num),
    Pattern(Str),
    Effect(Ident),
    Enter,
}

impl P<'_> {
    /// Runs a statement grammar over `args`; the first error becomes M106.
    pub(super) fn run_grammar<'a, O>(
        &mut self,
        parser: impl Parser<'a, &'a [T], O, Ex<'a>>,
        args: &'a [T],
        stmt_end: usize,
    ) -> Option<O> {
        let (out, errs) = parser.then_ignore(end()).parse(args).into_output_errors();
        if let Some(e) = errs.first() {
            self.push_diag(self.m106(e, args, stmt_end));
            return None;
        }
        out
    }

    pub(super) fn m106(&self, e: &Rich<'_, T>, args: &[T], stmt_end: usize) -> Diagnostic {
        let (found, span) = match args.get(e.span().start) {
            Some(t) => (format!("`{}`", &self.text[t.span.range()]), t.span),
            None => ("the end of the line".to_string(), Span::point(stmt_end)),
        };
        let mut expected: Vec<String> = Vec::new();
        for p in e.expected() {
            let s = match p {
                RichPattern::Label(l) => {
                    if l.contains(' ') {
                        l.to_string()
                    } else {
                        format!("`{l}`")
                    }
                }
                RichPattern::EndOfInput => "the end of the line".into(),
                RichPattern::Token(t) => format!("`{}`", t.text),
                _ => continue,
            };
            if !expected.contains(&s) {
                expected.push(s);
            }
        }
        let expected = if expected.is_empty() {
            "the end of the line".to_string()
        } else {
            join_or(&expected)
        };
        Diagnostic::new("M106", span, format!("Expected {expected}, found {found}."))
    }

    pub(super) fn missing(&mut self, what: &str, stmt_end: usize) {
        let d = Diagnostic::new(
            "M106",
            Span::point(stmt_end),
            format!("Expected {what}, found the end of the line."),
        );
        self.push_diag(d);
    }
}
