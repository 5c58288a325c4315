//! The block stack: opening blocks by their header, closing them, and the
//! recovery when one is left open (M105), set twice (M107) or unknown.

use super::grammar::name;
use super::{Frame, K, LEVEL_BLOCKS, P, PACK_BLOCKS, T, TOP_BLOCKS, accepts};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax::ast::{BlockSpan, Board, Glossary, Item, Legend, Level, PackHeader, Palette};

/// The spans of a block just opened: its header, and no closing brace yet.
fn opened(header: Span) -> BlockSpan {
    BlockSpan {
        header,
        close: Span::default(),
    }
}

impl P<'_> {
    /// Opens a block whose header tokens are `toks`.
    pub(super) fn open_block(&mut self, toks: Vec<T>, brace: Span) {
        let pending = self.pending_header.take();
        let Some(first) = toks.first().cloned() else {
            if let Some(header) = pending {
                return self.open_block(header, brace);
            }
            if !matches!(self.stack.last(), Some(Frame::Unknown)) {
                let d = Diagnostic::new("M106", brace, "Expected a block keyword, found `{`.");
                self.push_diag(d);
            }
            self.push_unknown();
            return;
        };
        let header = first.span.cover(brace);
        let kwd = if first.k == K::Ident {
            first.text.as_str()
        } else {
            ""
        };
        let top = self.stack.last().map(Frame::name).unwrap_or("file");
        let args = &toks[1..];
        let stmt_end = toks.last().map(|t| t.span.end as usize).unwrap_or(0);
        match (top, kwd) {
            ("unknown", k) => self.open_in_unknown(k, toks, brace),
            ("file", "pack") => self.open_pack(header, args, stmt_end),
            ("file" | "pack", "level") => {
                let id = self
                    .run_grammar(name("a level id"), args, stmt_end)
                    .unwrap_or_default();
                self.level_idx = Some(self.stack.len());
                self.stack.push(Frame::Level(Level {
                    id,
                    block: opened(header),
                    ..Default::default()
                }));
            }
            ("file" | "pack", "palette") => {
                self.no_args(args);
                self.stack.push(Frame::Palette(Palette {
                    block: opened(header),
                    entries: Vec::new(),
                }));
            }
            ("file" | "pack", "glossary") => {
                self.no_args(args);
                self.stack.push(Frame::Glossary(Glossary {
                    block: opened(header),
                    entries: Vec::new(),
                }));
            }
            ("file" | "pack" | "level", "legend") => self.open_legend(header, args, top == "level"),
            ("level", "board") => {
                self.no_args(args);
                if matches!(self.stack.last(), Some(Frame::Level(l)) if l.board.is_some()) {
                    self.dup_block("board", header);
                }
                self.stack.push(Frame::Board(Board {
                    block: opened(header),
                    rows: Vec::new(),
                }));
                // Cells may follow the brace on the same line.
            }
            (_, k) if self.enclosing_accepts(k) => {
                self.unclosed_until(k, first.span.start as usize);
                self.open_block(toks, brace);
            }
            (_, _) => self.open_unknown_keyword(&first, top),
        }
    }

    /// M106 for arguments after a block keyword that takes none.
    fn no_args(&mut self, args: &[T]) {
        if let Some(t) = args.first() {
            let d = Diagnostic::new(
                "M106",
                t.span,
                format!("Expected `{{`, found `{}`.", &self.text[t.span.range()]),
            );
            self.push_diag(d);
        }
    }

    /// A block header inside an unknown block (already reported): one that
    /// runs into a top-level block was left open, so stop skipping and read
    /// the rest; any other is skipped too.
    fn open_in_unknown(&mut self, k: &str, toks: Vec<T>, brace: Span) {
        let from = self.unknown_from.unwrap_or(self.stack.len());
        let base = from.checked_sub(1).and_then(|i| self.stack.get(i));
        if matches!(base, Some(Frame::File | Frame::Pack(_)))
            && ["pack", "palette", "glossary", "level"].contains(&k)
        {
            self.orphan_closes += self.stack.len() - from;
            self.stack.truncate(from);
            self.unknown_from = None;
            self.open_block(toks, brace);
        } else {
            self.push_unknown();
        }
    }

    /// `pack ID {`: the file's one pack header (a second one is M107).
    fn open_pack(&mut self, header: Span, args: &[T], stmt_end: usize) {
        self.pack_headers += 1;
        let line = self.line_no(header.start as usize);
        if let Some(first_line) = self.first_pack_line {
            let d = Diagnostic::new(
                "M107",
                header,
                format!("The file sets pack twice (lines {first_line} and {line}); keep one."),
            );
            self.push_diag(d);
            self.push_unknown();
            return;
        }
        self.first_pack_line = Some(line);
        let id = self
            .run_grammar(name("a pack id"), args, stmt_end)
            .unwrap_or_default();
        self.stack.push(Frame::Pack(PackHeader {
            id,
            block: opened(header),
            stmts: Vec::new(),
        }));
    }

    /// `legend {`, pack-wide or in a level (a level's second one is M107).
    fn open_legend(&mut self, header: Span, args: &[T], in_level: bool) {
        self.no_args(args);
        if in_level && matches!(self.stack.last(), Some(Frame::Level(l)) if l.legend.is_some()) {
            self.dup_block("legend", header);
        }
        self.stack.push(Frame::Legend(
            Legend {
                block: opened(header),
                entries: Vec::new(),
            },
            in_level,
        ));
    }

    /// A header whose keyword opens no block here: M104 (or M106 when it
    /// isn't a keyword at all), and the block is skipped.
    fn open_unknown_keyword(&mut self, first: &T, top: &str) {
        let valid: &[&str] = match top {
            "file" => TOP_BLOCKS,
            "pack" => PACK_BLOCKS,
            "level" => LEVEL_BLOCKS,
            _ => &[],
        };
        if first.k == K::Ident {
            self.m104(first, valid, top == "file");
        } else {
            let d = Diagnostic::new(
                "M106",
                first.span,
                format!(
                    "Expected a block keyword, found `{}`.",
                    &self.text[first.span.range()]
                ),
            );
            self.push_diag(d);
        }
        self.push_unknown();
    }

    fn dup_block(&mut self, what: &str, header: Span) {
        let level = self.level_id().unwrap_or_default();
        let first = match self.stack.last() {
            Some(Frame::Level(l)) => match what {
                "board" => l.board.as_ref().map(|b| b.block.header),
                _ => l.legend.as_ref().map(|b| b.block.header),
            },
            _ => None,
        }
        .unwrap_or_default();
        let (a, b) = (
            self.line_no(first.start as usize),
            self.line_no(header.start as usize),
        );
        let d = Diagnostic::new(
            "M107",
            header,
            format!("Level {level} sets {what} twice (lines {a} and {b}); keep one."),
        );
        self.push_diag(d);
    }

    pub(super) fn push_unknown(&mut self) {
        if !matches!(self.stack.last(), Some(Frame::Unknown)) {
            self.unknown_from = Some(self.stack.len());
        }
        self.stack.push(Frame::Unknown);
    }

    pub(super) fn close_block(&mut self, brace: Span) {
        self.pending_header = None;
        match self.stack.last() {
            Some(Frame::File) | None if self.orphan_closes > 0 => self.orphan_closes -= 1,
            Some(Frame::File) | None => {
                let d = Diagnostic::new(
                    "M106",
                    brace,
                    "Expected a block or the end of the file, found `}`.",
                )
                .with_fix("Delete it", brace, "");
                self.push_diag(d);
            }
            Some(_) => self.pop_frame(brace),
        }
    }

    /// Pops the top frame and attaches its node to its parent.
    fn pop_frame(&mut self, close: Span) {
        if self.stack.len() <= 1 {
            return;
        }
        let Some(mut f) = self.stack.pop() else {
            return;
        };
        if self.level_idx == Some(self.stack.len()) {
            self.level_idx = None;
        }
        if self.unknown_from == Some(self.stack.len()) {
            self.unknown_from = None;
        }
        f.set_close(close);
        match f {
            Frame::File | Frame::Unknown => {}
            Frame::Pack(p) => {
                self.check_pack_dups(&p);
                self.file.pack = Some(p);
            }
            Frame::Palette(p) => {
                let keys: Vec<(&str, Span)> = p
                    .entries
                    .iter()
                    .map(|e| (e.noun.text.as_str(), e.span))
                    .collect();
                let ds = self.dup_entries(&keys, "The palette", "palette noun");
                self.diags.extend(ds);
                self.file.items.push(Item::Palette(p));
            }
            Frame::Glossary(g) => {
                let keys: Vec<(&str, Span)> = g
                    .entries
                    .iter()
                    .map(|e| (e.word.text.as_str(), e.span))
                    .collect();
                let ds = self.dup_entries(&keys, "The glossary", "glossary word");
                self.diags.extend(ds);
                self.file.items.push(Item::Glossary(g));
            }
            Frame::Legend(l, in_level) => {
                let keys: Vec<(&str, Span)> = l
                    .entries
                    .iter()
                    .map(|e| (e.key.text.as_str(), e.span))
                    .collect();
                let level = self.level_id();
                let who = match &level {
                    Some(id) if in_level => format!("The legend of level {id}"),
                    _ => "The legend".to_string(),
                };
                let mut ds = self.dup_entries(&keys, &who, "legend key");
                if let Some(id) = level.filter(|_| in_level) {
                    ds = ds.into_iter().map(|d| d.with_level(id.clone())).collect();
                }
                self.diags.extend(ds);
                match self.stack.last_mut() {
                    Some(Frame::Level(lv)) if in_level => {
                        if lv.legend.is_none() {
                            lv.legend = Some(l);
                        }
                    }
                    _ => self.file.items.push(Item::Legend(l)),
                }
            }
            Frame::Board(b) => {
                if let Some(Frame::Level(lv)) = self.stack.last_mut() {
                    if lv.board.is_none() {
                        lv.board = Some(b);
                    }
                }
            }
            Frame::Level(l) => {
                self.check_level_dups(&l);
                self.check_ragged(&l);
                self.file.items.push(Item::Level(std::sync::Arc::new(l)));
            }
        }
    }

    /// Whether a block that isn't the innermost one would accept a `kw { … }`
    /// block: then the innermost block was left open (M105).
    pub(super) fn enclosing_accepts(&self, kw: &str) -> bool {
        if matches!(self.stack.last(), Some(Frame::Unknown) | None) {
            return false;
        }
        // Below a non-unknown frame there are only a few known frames, so this is O(1).
        self.stack.iter().rev().skip(1).any(|f| accepts(f, kw))
    }

    /// Reports M105 for the innermost open block and closes blocks until one
    /// that accepts a `kw` block is on top. The fix writes a `}` for each
    /// block closed, indented by its depth, where the next block starts: the
    /// diagnostic marks the header, lines away, so its title and a label on
    /// the next block's keyword say where.
    pub(super) fn unclosed_until(&mut self, kw: &str, at: usize) {
        // The frames closed: from the top down to one that accepts `kw`,
        // keeping the file's own frame.
        let open = self
            .stack
            .iter()
            .enumerate()
            .skip(1)
            .rev()
            .take_while(|(_, f)| !accepts(f, kw))
            .map(|(depth, _)| depth)
            .collect::<Vec<_>>();
        if let (Some(f), false) = (self.stack.last(), open.is_empty()) {
            let line_start = self.idx.line_start(self.idx.line_of(at)).unwrap_or(at);
            let line = self.line_no(at);
            let keyword = self
                .text
                .get(at..)
                .and_then(|t| t.find(kw))
                .map_or(Span::point(at), |i| Span::new(at + i, at + i + kw.len()));
            let braces: String = open
                .iter()
                .map(|&depth| format!("{}}}\n", "  ".repeat(depth - 1)))
                .collect();
            let title = if open.len() == 1 {
                format!("Close the block before line {line}")
            } else {
                format!("Close the {} blocks before line {line}", open.len())
            };
            let mut d = self
                .m105(f)
                .with_related(keyword, format!("`}}` expected before this {kw}"))
                .with_fix(title, Span::point(line_start), braces);
            // The blocks around it are left open too: one diagnostic, one fix.
            for &depth in open.iter().skip(1) {
                let outer = self.m105(&self.stack[depth]).message;
                d.message = format!("{} {outer}", d.message);
            }
            self.push_diag(d);
        }
        while self.stack.len() > 1 && !self.stack.last().is_some_and(|f| accepts(f, kw)) {
            self.pop_frame(Span::point(at));
        }
    }

    fn m105(&self, f: &Frame) -> Diagnostic {
        let header = f.header().unwrap_or_default();
        let line = self.line_no(header.start as usize);
        let name = match f {
            Frame::Pack(p) => format!(" {}", p.id.text),
            Frame::Level(l) => format!(" {}", l.id.text),
            Frame::Board(_) | Frame::Legend(_, true) => match self.level_id() {
                Some(l) => format!(" of level {l}"),
                None => String::new(),
            },
            _ => String::new(),
        };
        Diagnostic::new(
            "M105",
            header,
            format!(
                "The {} block{name} that opens on line {line} isn't closed.",
                f.name()
            ),
        )
    }

    pub(super) fn finish(&mut self) {
        let end = self.text.len();
        while self.stack.len() > 1 {
            if let Some(f) = self.stack.last() {
                if !matches!(f, Frame::Unknown) {
                    let d = self.m105(f).with_fix(
                        "Close the block at the end of the file",
                        Span::point(end),
                        "\n}",
                    );
                    self.push_diag(d);
                }
            }
            self.pop_frame(Span::point(end));
        }
        self.check_pack_legend_dups();
        self.file.comments.sort_by_key(|c| c.span.start);
    }
}
