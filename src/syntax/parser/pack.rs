//! The statements of the `pack` header and the entries of `palette` and
//! `glossary` blocks.

use chumsky::prelude::*;

use super::grammar::{Opt, allow_args, kw, name, names, num, string};
use super::{Frame, K, P, PACK_BLOCKS, PACK_STMTS, T};
use crate::span::Span;
use crate::syntax::ast::{GlossaryEntry, PackStmt, PackStmtKind, PaletteEntry};

impl P<'_> {
    pub(super) fn pack_stmt(&mut self, toks: Vec<T>, stmt_end: usize) {
        let first = &toks[0];
        let span = Span::new(first.span.start as usize, stmt_end);
        let args = &toks[1..];
        let kind = match (first.k, first.text.as_str()) {
            (K::Ident, "name") => self
                .run_grammar(string(), args, stmt_end)
                .map(PackStmtKind::Name),
            (K::Ident, "version") => self
                .run_grammar(string(), args, stmt_end)
                .map(PackStmtKind::Version),
            (K::Ident, "engine") => self
                .run_grammar(num(), args, stmt_end)
                .map(PackStmtKind::Engine),
            (K::Ident, "rules") => self
                .run_grammar(num(), args, stmt_end)
                .map(PackStmtKind::Rules),
            (K::Ident, "vocabulary") => self
                .run_grammar(names("a word"), args, stmt_end)
                .map(PackStmtKind::Vocabulary),
            (K::Ident, "allow") => self
                .run_grammar(allow_args(), args, stmt_end)
                .map(PackStmtKind::Allow),
            (K::Ident, "world") => {
                let p = choice((
                    kw("glyph").ignore_then(string()).map(Opt::Glyph),
                    kw("tagline").ignore_then(string()).map(Opt::Tagline),
                    kw("accent").ignore_then(name("an accent")).map(Opt::Accent),
                ))
                .repeated()
                .collect::<Vec<_>>();
                self.run_grammar(p, args, stmt_end).and_then(|opts| {
                    let (mut glyph, mut tagline, mut accent) = (None, None, None);
                    for o in opts {
                        match o {
                            Opt::Glyph(s) => glyph = Some(s),
                            Opt::Tagline(s) => tagline = Some(s),
                            Opt::Accent(a) => accent = Some(a),
                            _ => {}
                        }
                    }
                    match glyph {
                        Some(glyph) => Some(PackStmtKind::World {
                            glyph,
                            tagline,
                            accent,
                        }),
                        None => {
                            self.missing("`glyph \"…\"`", stmt_end);
                            None
                        }
                    }
                })
            }
            _ => {
                let mut valid = PACK_STMTS.to_vec();
                valid.extend(PACK_BLOCKS);
                self.m104(first, &valid, false);
                None
            }
        };
        if let (Some(kind), Some(Frame::Pack(p))) = (kind, self.stack.last_mut()) {
            p.stmts.push(PackStmt {
                kind,
                keyword: toks[0].span,
                span,
            });
        }
    }

    pub(super) fn palette_entry(&mut self, toks: Vec<T>, stmt_end: usize) {
        let p = name("a noun").then(string()).then(
            choice((
                kw("faces")
                    .ignore_then(name("left or right"))
                    .map(Opt::Faces),
                kw("fallback").ignore_then(string()).map(Opt::Fallback),
                kw("terrain").to(Opt::Terrain),
            ))
            .repeated()
            .collect::<Vec<_>>(),
        );
        let span = Span::new(toks[0].span.start as usize, stmt_end);
        if let Some(((noun, glyph), opts)) = self.run_grammar(p, &toks, stmt_end) {
            let mut e = PaletteEntry {
                noun,
                glyph,
                span,
                ..Default::default()
            };
            for o in opts {
                match o {
                    Opt::Faces(f) => e.faces = Some(f),
                    Opt::Fallback(f) => e.fallback = Some(f),
                    Opt::Terrain => e.terrain = true,
                    _ => {}
                }
            }
            if let Some(Frame::Palette(p)) = self.stack.last_mut() {
                p.entries.push(e);
            }
        }
    }

    pub(super) fn glossary_entry(&mut self, toks: Vec<T>, stmt_end: usize) {
        let p = name("a word").then(
            choice((
                kw("accent").ignore_then(name("an accent")).map(Opt::Accent),
                kw("describe").ignore_then(string()).map(Opt::Describe),
            ))
            .repeated()
            .collect::<Vec<_>>(),
        );
        let span = Span::new(toks[0].span.start as usize, stmt_end);
        if let Some((word, opts)) = self.run_grammar(p, &toks, stmt_end) {
            let (mut accent, mut describe) = (None, None);
            for o in opts {
                match o {
                    Opt::Accent(a) => accent = Some(a),
                    Opt::Describe(d) => describe = Some(d),
                    _ => {}
                }
            }
            let missing_accent = accent.is_none();
            let (Some(accent), Some(describe)) = (accent, describe) else {
                let what = if missing_accent {
                    "`accent NAME`"
                } else {
                    "`describe \"…\"`"
                };
                self.missing(what, stmt_end);
                return;
            };
            if let Some(Frame::Glossary(g)) = self.stack.last_mut() {
                g.entries.push(GlossaryEntry {
                    word,
                    accent,
                    describe,
                    span,
                });
            }
        }
    }
}
