//! The parser: a line-driven block reader with an explicit stack, and one
//! `chumsky` grammar per statement.
//!
//! Why this split: `.miau` is one statement per line, strings and comments end
//! with their line, and blocks only nest a few levels deep in valid files. The
//! block structure is therefore read by a loop over lines with a `Vec` of open
//! frames (no recursion, so 10 000 nested braces cost 10 000 stack entries on
//! the heap, not 10 000 call frames), and every statement's arguments are
//! parsed by a small `chumsky` grammar over that line's tokens. A mistake never
//! leaves its line, so recovery at the next statement is automatic.

mod blocks;
mod board;
mod duplicates;
mod grammar;
mod legend;
mod level;
mod pack;
mod statements;
mod tokens;

use chumsky::error::Rich;
use chumsky::prelude::*;

use super::ast::*;
use super::quote_text;
use crate::diag::Diagnostic;
use crate::span::{LineIndex, Span};

/// The kind of a statement token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum K {
    Word,
    Ident,
    Num,
    Str,
    Arrow,
    Comma,
    Plus,
    Other,
}

/// A statement token: its kind, its text (unescaped for strings) and span.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct T {
    k: K,
    text: String,
    span: Span,
}

type Ex<'a> = extra::Err<Rich<'a, T>>;

/// Words that are never things, so a legend can't name them (M111).
pub(crate) const NOT_THINGS: &[&str] = &[
    "IS", "AND", "YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "GOAL", "FLOAT", "FRAIL",
];

/// Statements of the `pack` header block, in canonical order.
pub const PACK_STMTS: &[&str] = &[
    "name",
    "version",
    "engine",
    "rules",
    "world",
    "vocabulary",
    "allow",
];
/// Statements of a `level` block (besides its `legend` and `board` blocks), in canonical order.
pub const LEVEL_STMTS: &[&str] = &[
    "title",
    "category",
    "introduces",
    "reuses",
    "hint",
    "solution",
    "steps",
    "must-form",
    "must-break",
    "must-lose-word",
    "must-lose",
    "must-crumble",
    "must-become",
    "must-press",
    "must-pair",
    "must-push-word",
    "budget",
    "allow",
    "terrain",
    "automaton",
    "pair",
    "frail",
];
/// Blocks that may start at top level.
pub const TOP_BLOCKS: &[&str] = &["pack", "palette", "glossary", "legend", "level"];
const PACK_BLOCKS: &[&str] = &["palette", "glossary", "legend", "level"];
const LEVEL_BLOCKS: &[&str] = &["legend", "board"];

/// Whether `f` holds blocks introduced by `kw`.
fn accepts(f: &Frame, kw: &str) -> bool {
    match f {
        Frame::File => TOP_BLOCKS.contains(&kw),
        Frame::Pack(_) => PACK_BLOCKS.contains(&kw),
        Frame::Level(_) => LEVEL_BLOCKS.contains(&kw),
        _ => false,
    }
}

/// One frame of the block stack.
enum Frame {
    File,
    Pack(PackHeader),
    Palette(Palette),
    Glossary(Glossary),
    /// A legend; `true` when inside a level.
    Legend(Legend, bool),
    Level(Level),
    Board(Board),
    /// A block that was already reported; everything inside is skipped.
    Unknown,
}

impl Frame {
    fn name(&self) -> &'static str {
        match self {
            Frame::File => "file",
            Frame::Pack(_) => "pack",
            Frame::Palette(_) => "palette",
            Frame::Glossary(_) => "glossary",
            Frame::Legend(..) => "legend",
            Frame::Level(_) => "level",
            Frame::Board(_) => "board",
            Frame::Unknown => "unknown",
        }
    }

    fn header(&self) -> Option<Span> {
        Some(match self {
            Frame::Pack(p) => p.block.header,
            Frame::Palette(p) => p.block.header,
            Frame::Glossary(g) => g.block.header,
            Frame::Legend(l, _) => l.block.header,
            Frame::Level(l) => l.block.header,
            Frame::Board(b) => b.block.header,
            Frame::File | Frame::Unknown => return None,
        })
    }

    fn set_close(&mut self, close: Span) {
        match self {
            Frame::Pack(p) => p.block.close = close,
            Frame::Palette(p) => p.block.close = close,
            Frame::Glossary(g) => g.block.close = close,
            Frame::Legend(l, _) => l.block.close = close,
            Frame::Level(l) => l.block.close = close,
            Frame::Board(b) => b.block.close = close,
            Frame::File | Frame::Unknown => {}
        }
    }
}

/// How a statement's token run ended.
enum End {
    Open(Span),
    Close(Span),
    Eol,
}

struct P<'s> {
    text: &'s str,
    idx: LineIndex,
    /// Capped per level and file-wide, so a million mistakes don't cost a
    /// million diagnostics.
    diags: crate::diag::Capped,
    file: File,
    stack: Vec<Frame>,
    line_end: usize,
    pos: usize,
    /// Line (0-based) of the first `pack` header, for M107.
    first_pack_line: Option<usize>,
    /// Index of the open level's frame, so messages name it in O(1) however deep the stack.
    level_idx: Option<usize>,
    /// A block header written without its `{` (already reported): if the next
    /// line starts with `{`, that brace opens this block, so the block's content
    /// is still read and the mistake gives one diagnostic.
    pending_header: Option<Vec<T>>,
    /// Stack index of the outermost frame of the current run of unknown blocks.
    unknown_from: Option<usize>,
    /// Unknown blocks abandoned when a top-level block started inside them; their
    /// closing braces are expected later and are not reported again.
    orphan_closes: usize,
}

/// Parses a whole file. Never panics; every mistake becomes a diagnostic and
/// the rest of the file is still read.
pub fn parse(text: &str) -> (File, Vec<Diagnostic>) {
    let mut p = P {
        text,
        idx: LineIndex::new(text),
        diags: crate::diag::Capped::new(),
        file: File::default(),
        stack: vec![Frame::File],
        line_end: 0,
        pos: 0,
        first_pack_line: None,
        level_idx: None,
        pending_header: None,
        unknown_from: None,
        orphan_closes: 0,
    };
    p.run();
    let mut diags = p.diags.finish();
    crate::diag::sort(&mut diags);
    (p.file, diags)
}

impl<'s> P<'s> {
    fn run(&mut self) {
        let mut start = 0;
        if self.text.starts_with('\u{feff}') {
            start = 3;
        }
        while start <= self.text.len() {
            let end = self.text[start..]
                .find('\n')
                .map(|i| start + i)
                .unwrap_or(self.text.len());
            self.line_end = end;
            self.pos = start;
            self.line();
            if end == self.text.len() {
                break;
            }
            start = end + 1;
        }
        self.finish();
    }

    fn line_no(&self, offset: usize) -> usize {
        self.idx.line_of(offset) + 1
    }

    fn col(&self, offset: usize) -> u32 {
        self.idx.line_col(self.text, offset).column
    }

    fn level_id(&self) -> Option<String> {
        match self.level_idx.and_then(|i| self.stack.get(i)) {
            Some(Frame::Level(l)) => Some(l.id.text.clone()),
            _ => None,
        }
    }

    fn push_diag(&mut self, mut d: Diagnostic) {
        if d.level.is_none() {
            if let Some(l) = self.level_id() {
                d = d.with_level(l);
            }
        }
        self.diags.push(d);
    }

    /// "Level x, hint" or "Pack, name": where a string problem sits.
    fn context(&self, stmt: &str) -> String {
        match self.level_id() {
            Some(l) => format!("Level {l}, {stmt}"),
            None => match self.stack.last() {
                Some(f @ (Frame::Palette(_) | Frame::Glossary(_) | Frame::Legend(..))) => {
                    format!("{} {stmt}", capitalise(f.name()))
                }
                _ => format!("Pack, {stmt}"),
            },
        }
    }

    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..self.line_end];
        let trimmed = rest.trim_start_matches([' ', '\t', '\r']);
        self.pos += rest.len() - trimmed.len();
    }

    /// Handles the rest of the current line.
    fn line(&mut self) {
        loop {
            self.skip_ws();
            if self.pos >= self.line_end {
                return;
            }
            match self.stack.last() {
                Some(Frame::Board(_)) => {
                    self.board_line();
                    continue;
                }
                Some(Frame::Legend(..)) => {
                    let rest = &self.text[self.pos..self.line_end];
                    let first = rest.split_whitespace().next().unwrap_or("");
                    let code = rest.split("//").next().unwrap_or("");
                    if code.trim_end().ends_with('{') && self.enclosing_accepts(first) {
                        self.unclosed_until(first, self.pos);
                        continue;
                    }
                    if !rest.starts_with("//") && !rest.starts_with('}') {
                        self.legend_line();
                        continue;
                    }
                }
                _ => {}
            }
            let (toks, end) = self.read_stmt(Vec::new());
            match end {
                End::Open(brace) => self.open_block(toks, brace),
                End::Close(brace) => {
                    if !toks.is_empty() {
                        self.stmt(toks);
                    }
                    self.close_block(brace);
                }
                End::Eol => {
                    if !toks.is_empty() {
                        self.stmt(toks);
                    }
                    return;
                }
            }
        }
    }
}

fn describe_char(c: char) -> String {
    if c == char::REPLACEMENT_CHARACTER {
        "bytes that aren't UTF-8".to_string()
    } else if c.is_control() {
        format!("control character U+{:04X}", c as u32)
    } else {
        quote_text(&c.to_string())
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `a`, `a or b`, `a, b or c`.
pub(crate) fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [a] => a.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests;
