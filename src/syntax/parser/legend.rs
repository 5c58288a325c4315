//! A legend line: a key read raw, then the things it stands for (M111).

use chumsky::prelude::*;

use super::grammar::{kw, name, tok};
use super::tokens::split_plus;
use super::{End, Frame, K, NOT_THINGS, P, T};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax::ast::{Ident, LegendEntry, LegendThing};

impl P<'_> {
    /// A legend line: the key is read raw (any non-space text), the value is lexed.
    pub(super) fn legend_line(&mut self) {
        let start = self.pos;
        let rest = &self.text[start..self.line_end];
        let key_len = rest
            .char_indices()
            .find(|&(_, c)| c.is_whitespace() || c == '{' || c == '}')
            .map(|(i, _)| i)
            .unwrap_or(rest.len());
        let key = Ident {
            text: rest[..key_len].to_string(),
            span: Span::new(start, start + key_len),
        };
        self.pos = start + key_len;
        let key_tok = T {
            k: K::Other,
            text: key.text.clone(),
            span: key.span,
        };
        let (toks, term) = self.read_stmt(vec![key_tok]);
        let value: Vec<T> = toks[1..].iter().flat_map(split_plus).collect();
        let stmt_end = toks.last().map(|t| t.span.end as usize).unwrap_or(start);
        let thing = name("a noun")
            .then(kw("channel").ignore_then(name("a channel")).or_not())
            .map_with(|(noun, channel), e| (noun, channel, e.span()));
        let p = thing
            .separated_by(tok(K::Plus, "+"))
            .at_least(1)
            .collect::<Vec<_>>()
            .then_ignore(end());
        let (out, errs) = p.parse(&value).into_output_errors();
        let value_text = if value.is_empty() {
            "an empty value".to_string()
        } else {
            let (a, b) = (value[0].span.start, value[value.len() - 1].span.end);
            self.text[a as usize..b as usize].to_string()
        };
        let mut ok = errs.is_empty();
        let mut things = Vec::new();
        if let Some(out) = out.filter(|_| ok) {
            for (noun, channel, s) in out {
                if NOT_THINGS.contains(&noun.text.as_str()) {
                    ok = false;
                }
                let s: SimpleSpan = s;
                let span = value[s.start].span.cover(value[s.end.max(1) - 1].span);
                things.push(LegendThing {
                    noun,
                    channel,
                    span,
                });
            }
        }
        if !ok {
            let vspan = match (value.first(), value.last()) {
                (Some(a), Some(b)) => a.span.cover(b.span),
                _ => key.span,
            };
            let d = Diagnostic::new(
                "M111",
                vspan,
                format!(
                    "Legend {}: {} isn't a thing. Legend entries name things; write words straight on the board.",
                    key.text, value_text
                ),
            );
            self.push_diag(d);
        } else if let Some(Frame::Legend(l, _)) = self.stack.last_mut() {
            l.entries.push(LegendEntry {
                span: Span::new(start, stmt_end),
                key,
                things,
            });
        }
        match term {
            End::Open(brace) => {
                let d = Diagnostic::new("M106", brace, "Expected a legend entry, found `{`.");
                self.push_diag(d);
                self.push_unknown();
            }
            End::Close(brace) => self.close_block(brace),
            End::Eol => {}
        }
    }
}
