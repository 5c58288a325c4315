//! A statement in the current block: handed to the grammar of the block
//! it sits in, or reported where it doesn't belong (M104, M106, M114).

use super::super::did_you_mean;
use super::{Frame, K, LEVEL_STMTS, P, PACK_STMTS, T, TOP_BLOCKS, accepts, join_or};
use crate::diag::Diagnostic;
use crate::span::Span;

impl P<'_> {
    pub(super) fn m104(&mut self, t: &T, valid: &[&str], outside: bool) {
        let cands: Vec<&str> = valid.to_vec();
        let sugg = did_you_mean(&t.text, &cands);
        let mut msg = format!("{} isn't a statement here.", t.text);
        let mut d;
        if let Some(s) = sugg.first() {
            msg.push_str(&format!(" Did you mean {}?", join_or(&sugg)));
            d = Diagnostic::new("M104", t.span, msg.clone());
            d = d.with_fix(format!("Replace with {s}"), t.span, s.clone());
        } else {
            if outside && LEVEL_STMTS.contains(&t.text.as_str()) {
                msg.push_str(" It belongs inside a level block.");
            } else if outside && PACK_STMTS.contains(&t.text.as_str()) {
                msg.push_str(" It belongs inside the pack block.");
            }
            d = Diagnostic::new("M104", t.span, msg);
        }
        self.push_diag(d);
    }

    /// A statement in the current frame.
    pub(super) fn stmt(&mut self, toks: Vec<T>) {
        self.pending_header = None;
        let first = toks[0].clone();
        let stmt_end = toks.last().map(|t| t.span.end as usize).unwrap_or(0);
        let top = self.stack.last().map(Frame::name).unwrap_or("file");
        let block_here = self
            .stack
            .last()
            .is_some_and(|f| first.k == K::Ident && accepts(f, &first.text));
        if block_here {
            let d = Diagnostic::new(
                "M106",
                Span::point(stmt_end),
                format!(
                    "Expected `{{` at the end of the line to open the {} block, found the end of the line.",
                    first.text
                ),
            )
            .with_fix("Insert {", Span::point(stmt_end), " {");
            self.push_diag(d);
            self.pending_header = Some(toks);
            return;
        }
        match top {
            "unknown" => {}
            "file" => {
                if first.k == K::Ident {
                    let is_elsewhere = LEVEL_STMTS.contains(&first.text.as_str())
                        || PACK_STMTS.contains(&first.text.as_str());
                    if is_elsewhere {
                        self.m104(&first, &[], true);
                    } else {
                        self.m104(&first, TOP_BLOCKS, true);
                    }
                } else {
                    let lc = self.line_col(first.span.start as usize);
                    let shown = &self.text[first.span.range()];
                    let d = Diagnostic::new(
                        "M114",
                        first.span,
                        format!(
                            "Line {}, column {}: unexpected {shown} outside every block.",
                            lc.line, lc.column
                        ),
                    );
                    self.push_diag(d);
                }
            }
            "pack" => self.pack_stmt(toks, stmt_end),
            "palette" => self.palette_entry(toks, stmt_end),
            "glossary" => self.glossary_entry(toks, stmt_end),
            "level" => self.level_stmt(toks, stmt_end),
            _ => {}
        }
    }
}
