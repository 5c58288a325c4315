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

use std::collections::HashMap;

use chumsky::error::{Rich, RichPattern};
use chumsky::prelude::*;
use logos::Logos;

use super::ast::*;
use super::lexer::{self, Raw, Shape};
use super::{did_you_mean, quote_text};
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

fn tok<'a>(k: K, label: &'static str) -> impl Parser<'a, &'a [T], T, Ex<'a>> + Clone {
    any().filter(move |t: &T| t.k == k).labelled(label)
}

fn kw<'a>(w: &'static str) -> impl Parser<'a, &'a [T], T, Ex<'a>> + Clone {
    any()
        .filter(move |t: &T| t.k == K::Ident && t.text == w)
        .labelled(w)
}

fn string<'a>() -> impl Parser<'a, &'a [T], Str, Ex<'a>> + Clone {
    tok(K::Str, "text in double quotes").map(|t| Str {
        value: t.text,
        span: t.span,
    })
}

fn num<'a>() -> impl Parser<'a, &'a [T], Num, Ex<'a>> + Clone {
    any()
        .filter(|t: &T| t.k == K::Num && t.text.parse::<u64>().is_ok())
        .labelled("a whole number")
        .map(|t: T| Num {
            value: t.text.parse().unwrap_or(0),
            span: t.span,
        })
}

/// Any bare token used as a name; stage 2 checks its shape (M206, M207, M224).
fn name<'a>(label: &'static str) -> impl Parser<'a, &'a [T], Ident, Ex<'a>> + Clone {
    any()
        .filter(|t: &T| matches!(t.k, K::Word | K::Ident | K::Other | K::Num))
        .labelled(label)
        .map(|t: T| Ident {
            text: t.text,
            span: t.span,
        })
}

fn allow_args<'a>() -> impl Parser<'a, &'a [T], Allow, Ex<'a>> + Clone {
    name("a diagnostic code or name")
        .then(string().or_not())
        .map(|(code, reason)| Allow { code, reason })
}

fn listed<'a>() -> impl Parser<'a, &'a [T], Vec<Listed>, Ex<'a>> + Clone {
    choice((
        string().map(Listed::Idea),
        name("a word or an idea in double quotes").map(Listed::Word),
    ))
    .repeated()
    .at_least(1)
    .collect()
}

fn names<'a>(label: &'static str) -> impl Parser<'a, &'a [T], Vec<Ident>, Ex<'a>> + Clone {
    name(label).repeated().at_least(1).collect()
}

/// Options written after a statement's fixed arguments, in any order.
#[derive(Debug, Clone)]
enum Opt {
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

    /// Reads statement tokens from `pos` up to a brace or the end of the line.
    fn read_stmt(&mut self, mut toks: Vec<T>) -> (Vec<T>, End) {
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
                    let lc = self.idx.line_col(self.text, span.start as usize);
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
            let lc = self.idx.line_col(self.text, at);
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

    /// Runs a statement grammar over `args`; the first error becomes M106.
    fn run_grammar<'a, O>(
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

    fn m106(&self, e: &Rich<'_, T>, args: &[T], stmt_end: usize) -> Diagnostic {
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

    fn missing(&mut self, what: &str, stmt_end: usize) {
        let d = Diagnostic::new(
            "M106",
            Span::point(stmt_end),
            format!("Expected {what}, found the end of the line."),
        );
        self.push_diag(d);
    }

    fn m104(&mut self, t: &T, valid: &[&str], outside: bool) {
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
    fn stmt(&mut self, toks: Vec<T>) {
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
                    let lc = self.idx.line_col(self.text, first.span.start as usize);
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

    fn pack_stmt(&mut self, toks: Vec<T>, stmt_end: usize) {
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

    fn level_stmt(&mut self, toks: Vec<T>, stmt_end: usize) {
        use LevelStmtKind as L;
        let first = &toks[0];
        let span = Span::new(first.span.start as usize, stmt_end);
        let args = &toks[1..];
        let kw_text = if first.k == K::Ident {
            first.text.as_str()
        } else {
            ""
        };
        let kind = match kw_text {
            "title" => self.run_grammar(string(), args, stmt_end).map(L::Title),
            "hint" => self.run_grammar(string(), args, stmt_end).map(L::Hint),
            "solution" => self.run_grammar(string(), args, stmt_end).map(L::Solution),
            "must-form" => self.run_grammar(string(), args, stmt_end).map(L::MustForm),
            "must-break" => self.run_grammar(string(), args, stmt_end).map(L::MustBreak),
            "must-lose-word" => self
                .run_grammar(empty(), args, stmt_end)
                .map(|()| L::MustLoseWord),
            "category" => self
                .run_grammar(name("a category"), args, stmt_end)
                .map(L::Category),
            "introduces" => self
                .run_grammar(listed(), args, stmt_end)
                .map(L::Introduces),
            "reuses" => self.run_grammar(listed(), args, stmt_end).map(L::Reuses),
            "steps" => self.run_grammar(num(), args, stmt_end).map(L::Steps),
            "budget" => self.run_grammar(num(), args, stmt_end).map(L::Budget),
            "allow" => self.run_grammar(allow_args(), args, stmt_end).map(L::Allow),
            "terrain" => self
                .run_grammar(names("a noun"), args, stmt_end)
                .map(L::Terrain),
            "automaton" => {
                let p = name("an automaton id").then(
                    choice((
                        kw("property")
                            .ignore_then(name("a word"))
                            .map(Opt::Property),
                        kw("subject").ignore_then(name("a noun")).map(Opt::Subject),
                        kw("phase").ignore_then(num()).map(Opt::Phase),
                        kw("pattern").ignore_then(string()).map(Opt::Pattern),
                    ))
                    .repeated()
                    .collect::<Vec<_>>(),
                );
                self.run_grammar(p, args, stmt_end).and_then(|(id, opts)| {
                    let mut a = AutomatonStmt {
                        id,
                        ..Default::default()
                    };
                    let (mut prop, mut pat) = (false, false);
                    for o in opts {
                        match o {
                            Opt::Property(w) => {
                                a.property = w;
                                prop = true;
                            }
                            Opt::Subject(w) => a.subject = Some(w),
                            Opt::Phase(n) => a.phase = Some(n),
                            Opt::Pattern(s) => {
                                a.pattern = s;
                                pat = true;
                            }
                            _ => {}
                        }
                    }
                    if !prop {
                        self.missing("`property WORD`", stmt_end);
                        None
                    } else if !pat {
                        self.missing("`pattern \"…\"`", stmt_end);
                        None
                    } else {
                        Some(L::Automaton(a))
                    }
                })
            }
            "pair" => {
                let p = name("a word").then(name("a word")).then(
                    choice((
                        kw("effect").ignore_then(name("an effect")).map(Opt::Effect),
                        kw("enter").to(Opt::Enter),
                    ))
                    .repeated()
                    .collect::<Vec<_>>(),
                );
                self.run_grammar(p, args, stmt_end).map(|((a, b), opts)| {
                    let mut pair = PairStmt {
                        words: vec![a, b],
                        ..Default::default()
                    };
                    for o in opts {
                        match o {
                            Opt::Effect(e) => pair.effect = Some(e),
                            Opt::Enter => pair.enter = true,
                            _ => {}
                        }
                    }
                    L::Pair(pair)
                })
            }
            "frail" => {
                let entry = name("a noun")
                    .then_ignore(tok(K::Arrow, "->"))
                    .then(name("a noun"));
                let p = entry.separated_by(tok(K::Comma, ",")).collect::<Vec<_>>();
                self.run_grammar(p, args, stmt_end).map(L::Frail)
            }
            _ => {
                let mut valid = LEVEL_STMTS.to_vec();
                valid.extend(LEVEL_BLOCKS);
                self.m104(first, &valid, false);
                None
            }
        };
        if let (Some(kind), Some(Frame::Level(l))) = (kind, self.stack.last_mut()) {
            l.stmts.push(LevelStmt {
                kind,
                keyword: toks[0].span,
                span,
            });
        }
    }

    fn palette_entry(&mut self, toks: Vec<T>, stmt_end: usize) {
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

    fn glossary_entry(&mut self, toks: Vec<T>, stmt_end: usize) {
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

    /// A legend line: the key is read raw (any non-space text), the value is lexed.
    fn legend_line(&mut self) {
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

    /// A board line: cells split on whitespace, up to a `}` or a comment.
    fn board_line(&mut self) {
        let start = self.pos;
        let rest = &self.text[start..self.line_end];
        let close = rest.find('}');
        let comment = rest.find("//");
        let cells_end = match (close, comment) {
            (Some(c), Some(m)) => c.min(m),
            (Some(c), None) => c,
            (None, Some(m)) => m,
            (None, None) => rest.len(),
        };
        let region = &rest[..cells_end];
        // A header of a new top-level block: the board (and its level) were left open.
        let first = region.split_whitespace().next().unwrap_or("");
        let before_comment = &rest[..comment.unwrap_or(rest.len())];
        if before_comment.trim_end().ends_with('{') && self.enclosing_accepts(first) {
            self.unclosed_until(first, start);
            return;
        }
        if !region.trim().is_empty() {
            let row = self.board_row(start, region);
            if let Some(Frame::Board(b)) = self.stack.last_mut() {
                b.rows.push(row);
            }
        }
        match (close, comment) {
            (Some(c), m) if m.is_none_or(|m| c < m) => {
                self.pos = start + c + 1;
                self.close_block(Span::new(start + c, start + c + 1));
            }
            (_, Some(m)) => {
                let text = rest[m..].trim_end();
                self.file.comments.push(Comment {
                    span: Span::new(start + m, start + m + text.len()),
                });
                self.pos = self.line_end;
            }
            _ => self.pos = self.line_end,
        }
    }

    /// Whether a block that isn't the innermost one would accept a `kw { … }`
    /// block: then the innermost block was left open (M105).
    fn enclosing_accepts(&self, kw: &str) -> bool {
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
    fn unclosed_until(&mut self, kw: &str, at: usize) {
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

    fn board_row(&mut self, start: usize, region: &str) -> Row {
        let mut cells = Vec::new();
        let y = self
            .stack
            .last()
            .map(|f| match f {
                Frame::Board(b) => b.rows.len(),
                _ => 0,
            })
            .unwrap_or(0) as u32;
        let level = self.level_id().unwrap_or_default();
        // Tabs: one diagnostic per tab, with spaces that keep the columns (tab stops of 4).
        // Columns count from the start of the line, so the fix keeps alignment.
        let line_start = self
            .idx
            .line_start(self.idx.line_of(start))
            .unwrap_or(start);
        let mut visual = self.text[line_start..start].chars().count();
        for (i, c) in region.char_indices() {
            if c == '\t' {
                let width = 4 - visual % 4;
                let at = start + i;
                let col = self.col(at);
                let d = Diagnostic::new(
                    "M114",
                    Span::new(at, at + 1),
                    format!(
                        "Level {level}, board row {y}: a tab at column {col}; boards use spaces."
                    ),
                )
                .with_fix(
                    "Replace the tab with spaces",
                    Span::new(at, at + 1),
                    " ".repeat(width),
                );
                self.push_diag(d);
                visual += width;
            } else {
                visual += 1;
            }
        }
        let mut i = 0;
        let bytes = region.as_bytes();
        while i < region.len() {
            while i < region.len() && matches!(bytes[i], b' ' | b'\t' | b'\r') {
                i += 1;
            }
            if i >= region.len() {
                break;
            }
            let s = i;
            while i < region.len() && !matches!(bytes[i], b' ' | b'\t' | b'\r') {
                i += 1;
            }
            let text = &region[s..i];
            let span = Span::new(start + s, start + i);
            let x = cells.len() as u32;
            let parts = self.cell_parts(text, span, x, y, &level);
            cells.push(Cell {
                text: text.to_string(),
                parts,
                span,
            });
        }
        let span = match (cells.first(), cells.last()) {
            (Some(a), Some(b)) => a.span.cover(b.span),
            _ => Span::point(start),
        };
        Row { cells, span }
    }

    fn cell_parts(&mut self, text: &str, span: Span, x: u32, y: u32, level: &str) -> Vec<Part> {
        if let Some(c) = text.chars().find(|c| !c.is_ascii() || c.is_ascii_control()) {
            let msg = if c.is_ascii_control() || c == char::REPLACEMENT_CHARACTER {
                format!(
                    "Level {level}, board row {y}: unexpected {}.",
                    describe_char(c)
                )
            } else {
                format!(
                    "Level {level}, board row {y}: boards are ASCII. Give {c} a palette entry and a legend key."
                )
            };
            let d = Diagnostic::new("M114", span, msg)
                .with_level(level)
                .with_cell(x, y);
            self.push_diag(d);
            return Vec::new();
        }
        if text == "." {
            return Vec::new();
        }
        let raw_parts: Vec<&str> = text.split('+').collect();
        let is_stack = raw_parts.len() > 1;
        let mut parts = Vec::new();
        let mut problem_stack = false;
        let mut fixed_bad = false;
        for p in &raw_parts {
            if p.is_empty() || (is_stack && *p == ".") {
                problem_stack = true;
                continue;
            }
            if let Some(base) = p.strip_suffix('!') {
                if lexer::is_word(base) {
                    parts.push(Part::Word {
                        text: base.to_string(),
                        fixed: true,
                    });
                } else {
                    fixed_bad = true;
                    if !base.is_empty() && base != "." {
                        parts.push(part_of(base));
                    }
                }
            } else {
                parts.push(part_of(p));
            }
        }
        // A word named twice in one stack.
        let mut seen: Vec<String> = Vec::new();
        let mut dup = false;
        parts.retain(|p| match p {
            Part::Word { text, .. } => {
                if seen.contains(text) {
                    dup = true;
                    false
                } else {
                    seen.push(text.clone());
                    true
                }
            }
            Part::Key(_) => true,
        });
        if problem_stack || dup {
            let fixed_text: Vec<String> = parts.iter().map(part_text).collect();
            let d = Diagnostic::new(
                "M112",
                span,
                format!(
                    "Level {level}, column {x}, row {y}: {text} isn't a complete stack. Join two or more parts with +, like WIN+DEFEAT."
                ),
            )
            .with_level(level)
            .with_cell(x, y);
            let d = if fixed_text.is_empty() {
                d
            } else {
                d.with_fix(
                    "Drop the empty part or the repeat",
                    span,
                    fixed_text.join("+"),
                )
            };
            self.push_diag(d);
        }
        if fixed_bad {
            let d = Diagnostic::new(
                "M113",
                span,
                format!("Level {level}, column {x}, row {y}: only word tiles can be fixed."),
            )
            .with_level(level)
            .with_cell(x, y)
            .with_fix("Remove the !", span, text.replace('!', ""));
            self.push_diag(d);
        } else {
            let words: Vec<bool> = parts
                .iter()
                .filter_map(|p| match p {
                    Part::Word { fixed, .. } => Some(*fixed),
                    Part::Key(_) => None,
                })
                .collect();
            if words.iter().any(|f| *f) && words.iter().any(|f| !*f) {
                let all: Vec<String> = parts
                    .iter()
                    .map(|p| match p {
                        Part::Word { text, .. } => format!("{text}!"),
                        Part::Key(k) => k.clone(),
                    })
                    .collect();
                let d = Diagnostic::new(
                    "M113",
                    span,
                    format!(
                        "Level {level}, column {x}, row {y}: mark every word of the stack fixed, or none."
                    ),
                )
                .with_level(level)
                .with_cell(x, y)
                .with_fix("Mark every word of the stack fixed", span, all.join("+"));
                self.push_diag(d);
            }
        }
        parts
    }

    /// Opens a block whose header tokens are `toks`.
    fn open_block(&mut self, toks: Vec<T>, brace: Span) {
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
        let no_args = |this: &mut Self| {
            if let Some(t) = args.first() {
                let d = Diagnostic::new(
                    "M106",
                    t.span,
                    format!("Expected `{{`, found `{}`.", &this.text[t.span.range()]),
                );
                this.push_diag(d);
            }
        };
        match (top, kwd) {
            ("unknown", k) => {
                // An unknown block (already reported) that runs into a top-level
                // block was left open: stop skipping, so the rest is still read.
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
            ("file", "pack") => {
                let line = self.line_no(header.start as usize);
                if let Some(first_line) = self.first_pack_line {
                    let d = Diagnostic::new(
                        "M107",
                        header,
                        format!(
                            "The file sets pack twice (lines {first_line} and {line}); keep one."
                        ),
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
                    block: BlockSpan {
                        header,
                        close: Span::default(),
                    },
                    stmts: Vec::new(),
                }));
            }
            ("file" | "pack", "level") => {
                let id = self
                    .run_grammar(name("a level id"), args, stmt_end)
                    .unwrap_or_default();
                self.level_idx = Some(self.stack.len());
                self.stack.push(Frame::Level(Level {
                    id,
                    block: BlockSpan {
                        header,
                        close: Span::default(),
                    },
                    ..Default::default()
                }));
            }
            ("file" | "pack", "palette") => {
                no_args(self);
                self.stack.push(Frame::Palette(Palette {
                    block: BlockSpan {
                        header,
                        close: Span::default(),
                    },
                    entries: Vec::new(),
                }));
            }
            ("file" | "pack", "glossary") => {
                no_args(self);
                self.stack.push(Frame::Glossary(Glossary {
                    block: BlockSpan {
                        header,
                        close: Span::default(),
                    },
                    entries: Vec::new(),
                }));
            }
            ("file" | "pack" | "level", "legend") => {
                no_args(self);
                let in_level = top == "level";
                if in_level
                    && matches!(self.stack.last(), Some(Frame::Level(l)) if l.legend.is_some())
                {
                    self.dup_block("legend", header);
                }
                self.stack.push(Frame::Legend(
                    Legend {
                        block: BlockSpan {
                            header,
                            close: Span::default(),
                        },
                        entries: Vec::new(),
                    },
                    in_level,
                ));
            }
            ("level", "board") => {
                no_args(self);
                if matches!(self.stack.last(), Some(Frame::Level(l)) if l.board.is_some()) {
                    self.dup_block("board", header);
                }
                self.stack.push(Frame::Board(Board {
                    block: BlockSpan {
                        header,
                        close: Span::default(),
                    },
                    rows: Vec::new(),
                }));
                // Cells may follow the brace on the same line.
            }
            (_, k) if self.enclosing_accepts(k) => {
                self.unclosed_until(k, first.span.start as usize);
                self.open_block(toks, brace);
            }
            (_, _) => {
                let valid: &[&str] = match top {
                    "file" => TOP_BLOCKS,
                    "pack" => PACK_BLOCKS,
                    "level" => LEVEL_BLOCKS,
                    _ => &[],
                };
                if first.k == K::Ident {
                    self.m104(&first, valid, top == "file");
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
        }
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

    fn push_unknown(&mut self) {
        if !matches!(self.stack.last(), Some(Frame::Unknown)) {
            self.unknown_from = Some(self.stack.len());
        }
        self.stack.push(Frame::Unknown);
    }

    fn close_block(&mut self, brace: Span) {
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
                self.file.items.push(Item::Level(l));
            }
        }
    }

    fn delete_line_fix(&self, span: Span) -> Span {
        let line = self.idx.line_of(span.start as usize);
        let start = self.idx.line_start(line).unwrap_or(span.start as usize);
        let end = self.idx.line_start(line + 1).unwrap_or(self.text.len());
        Span::new(start, end)
    }

    fn dup_entries(&self, keys: &[(&str, Span)], who: &str, what: &str) -> Vec<Diagnostic> {
        let mut first: HashMap<&str, Span> = HashMap::new();
        let mut out = Vec::new();
        for &(k, span) in keys {
            if let Some(prev) = first.get(k) {
                let (a, b) = (
                    self.line_no(prev.start as usize),
                    self.line_no(span.start as usize),
                );
                out.push(
                    Diagnostic::new(
                        "M107",
                        span,
                        format!("{who} sets {what} {k} twice (lines {a} and {b}); keep one."),
                    )
                    .with_fix(
                        "Delete the later one",
                        self.delete_line_fix(span),
                        "",
                    ),
                );
            } else {
                first.insert(k, span);
            }
        }
        out
    }

    fn check_pack_dups(&mut self, p: &PackHeader) {
        let mut first: HashMap<&'static str, Span> = HashMap::new();
        let mut ds = Vec::new();
        for s in &p.stmts {
            let k = match s.kind {
                PackStmtKind::Name(_) => "name",
                PackStmtKind::Version(_) => "version",
                PackStmtKind::Engine(_) => "engine",
                PackStmtKind::Rules(_) => "rules",
                PackStmtKind::World { .. } => "world",
                PackStmtKind::Vocabulary(_) => "vocabulary",
                PackStmtKind::Allow(_) => continue,
            };
            if let Some(prev) = first.get(k) {
                let (a, b) = (
                    self.line_no(prev.start as usize),
                    self.line_no(s.span.start as usize),
                );
                ds.push(
                    Diagnostic::new(
                        "M107",
                        s.span,
                        format!("The pack sets {k} twice (lines {a} and {b}); keep one."),
                    )
                    .with_fix(
                        "Delete the later one",
                        self.delete_line_fix(s.span),
                        "",
                    ),
                );
            } else {
                first.insert(k, s.span);
            }
        }
        self.diags.extend(ds);
    }

    fn check_level_dups(&mut self, l: &Level) {
        use LevelStmtKind as L;
        let mut first: HashMap<&'static str, Span> = HashMap::new();
        let mut ds = Vec::new();
        for s in &l.stmts {
            let k = match s.kind {
                L::Title(_) => "title",
                L::Category(_) => "category",
                L::Introduces(_) => "introduces",
                L::Reuses(_) => "reuses",
                L::Hint(_) => "hint",
                L::Solution(_) => "solution",
                L::Steps(_) => "steps",
                L::Budget(_) => "budget",
                L::Terrain(_) => "terrain",
                L::MustLoseWord => "must-lose-word",
                // Repeatable, or checked in stage 2 (two frail statements are M210).
                L::MustForm(_)
                | L::MustBreak(_)
                | L::Allow(_)
                | L::Automaton(_)
                | L::Pair(_)
                | L::Frail(_) => {
                    continue;
                }
            };
            if let Some(prev) = first.get(k) {
                let (a, b) = (
                    self.line_no(prev.start as usize),
                    self.line_no(s.span.start as usize),
                );
                ds.push(
                    Diagnostic::new(
                        "M107",
                        s.span,
                        format!(
                            "Level {} sets {k} twice (lines {a} and {b}); keep one.",
                            l.id.text
                        ),
                    )
                    .with_level(l.id.text.clone())
                    .with_fix(
                        "Delete the later one",
                        self.delete_line_fix(s.span),
                        "",
                    ),
                );
            } else {
                first.insert(k, s.span);
            }
        }
        self.diags.extend(ds);
    }

    fn check_ragged(&mut self, l: &Level) {
        let Some(board) = &l.board else { return };
        let Some(row0) = board.rows.first() else {
            return;
        };
        let expected = row0.cells.len();
        for (y, row) in board.rows.iter().enumerate().skip(1) {
            let found = row.cells.len();
            if found == expected {
                continue;
            }
            let head = format!(
                "Level {}, board row {y} is {} wide, expected {expected}.",
                l.id.text,
                crate::diag::wording::count(found, "cell")
            );
            let d = if found < expected {
                let at = row.span.end as usize;
                Diagnostic::new(
                    "M108",
                    Span::point(at),
                    format!("{head} Cells are missing from column {found} on."),
                )
                .with_cell(found as u32, y as u32)
                .with_fix(
                    "Pad the row with .",
                    Span::point(at),
                    " .".repeat(expected - found),
                )
            } else {
                let extra = &row.cells[expected..];
                let span = extra[0].span.cover(extra[extra.len() - 1].span);
                let d = Diagnostic::new(
                    "M108",
                    span,
                    format!("{head} The extra cells start at column {expected}."),
                )
                .with_cell(expected as u32, y as u32);
                if extra.iter().all(|c| c.text == ".") {
                    let from = row.cells[expected - 1].span.end as usize;
                    d.with_fix(
                        "Remove the extra empty cells",
                        Span::new(from, span.end as usize),
                        "",
                    )
                } else {
                    d
                }
            };
            self.diags.push(d.with_level(l.id.text.clone()));
        }
    }

    fn finish(&mut self) {
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
        // Pack legend keys defined in two different pack-wide legend blocks.
        let mut keys: Vec<(String, Span)> = Vec::new();
        let legends: Vec<&Legend> = self
            .file
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Legend(l) => Some(l),
                _ => None,
            })
            .collect();
        if legends.len() > 1 {
            let mut seen: HashMap<String, usize> = HashMap::new();
            for (bi, l) in legends.iter().enumerate() {
                for e in &l.entries {
                    match seen.get(&e.key.text) {
                        Some(&b) if b != bi => keys.push((e.key.text.clone(), e.span)),
                        Some(_) => {}
                        None => {
                            seen.insert(e.key.text.clone(), bi);
                        }
                    }
                }
            }
        }
        for (k, span) in keys {
            let d = Diagnostic::new(
                "M107",
                span,
                format!("The pack legend sets legend key {k} twice; keep one."),
            )
            .with_fix("Delete the later one", self.delete_line_fix(span), "");
            self.diags.push(d);
        }
        self.file.comments.sort_by_key(|c| c.span.start);
    }
}

fn part_of(p: &str) -> Part {
    if lexer::is_word(p) {
        Part::Word {
            text: p.to_string(),
            fixed: false,
        }
    } else {
        Part::Key(p.to_string())
    }
}

fn part_text(p: &Part) -> String {
    match p {
        Part::Word { text, fixed } => format!("{text}{}", if *fixed { "!" } else { "" }),
        Part::Key(k) => k.clone(),
    }
}

/// Splits a bare token at `+` so that `CRATE+DOCK` reads as three tokens.
fn split_plus(t: &T) -> Vec<T> {
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
mod tests {
    use super::*;

    #[test]
    fn valid_example_parses_cleanly() {
        let text = include_str!("../../tests/fixtures/syntax/valid-crate-works.miau");
        let (file, diags) = parse(text);
        assert!(diags.is_empty(), "{diags:#?}");
        let pack = file.pack.expect("pack");
        assert_eq!(pack.id.text, "crate-works");
        assert_eq!(pack.stmts.len(), 5);
        assert_eq!(file.items.len(), 4);
        let Item::Level(level) = &file.items[3] else {
            panic!("level expected")
        };
        assert_eq!(level.stmts.len(), 13);
        let board = level.board.as_ref().expect("board");
        assert_eq!(board.rows.len(), 4);
        assert!(board.rows.iter().all(|r| r.cells.len() == 11));
        assert_eq!(
            board.rows[3].cells[8].parts,
            vec![
                Part::Key("f".into()),
                Part::Word {
                    text: "WIN".into(),
                    fixed: false
                }
            ]
        );
        assert_eq!(file.comments.len(), 5);
    }

    fn codes(text: &str) -> Vec<&'static str> {
        parse(text).1.iter().map(|d| d.code()).collect()
    }

    #[test]
    fn single_line_blocks_nesting_and_crlf() {
        let text = "pack p1 { name \"P\" }\r\n%%%\r\n";
        assert_eq!(codes(text), ["M114"]);
        let text = "pack p1 {\r\n  legend { x ROCK + GATE channel teal }\r\n  level l1 { board { x MIAU } }\r\n}\r\n";
        let (file, diags) = parse(text);
        assert!(diags.is_empty(), "{diags:#?}");
        assert_eq!(file.items.len(), 2);
        let Item::Legend(l) = &file.items[0] else {
            panic!("legend first")
        };
        assert_eq!(l.entries[0].things.len(), 2);
        assert_eq!(
            l.entries[0].things[1].channel.as_ref().unwrap().text,
            "teal"
        );
        let Item::Level(lv) = &file.items[1] else {
            panic!("level second")
        };
        assert_eq!(lv.board.as_ref().unwrap().rows[0].cells.len(), 2);
    }

    #[test]
    fn a_block_left_open_is_one_m105_and_the_rest_still_parses() {
        // The level legend misses its brace: the board still belongs to the level.
        let text = "level l1 {\n  legend {\n    x ROCK\n  board {\n    x\n  }\n}\n";
        let (file, diags) = parse(text);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code(), "M105");
        assert_eq!(
            diags[0].message,
            "The legend block of level l1 that opens on line 2 isn't closed."
        );
        let Item::Level(lv) = &file.items[0] else {
            panic!("level")
        };
        assert!(lv.board.is_some() && lv.legend.is_some());
        // A board and level left open before the next level.
        let text = "level l1 {\n  board {\n    MIAU\nlevel l2 {\n  title \"Two\"\n}\n";
        let (file, diags) = parse(text);
        assert_eq!(diags.iter().map(|d| d.code()).collect::<Vec<_>>(), ["M105"]);
        assert_eq!(file.items.len(), 2);
        // Unclosed at the end of the file.
        assert_eq!(codes("palette {\n  MIAU \"x\"\n"), ["M105"]);
    }

    #[test]
    fn keywords_out_of_place() {
        let (_, d) = parse("automaton a property TICK pattern \"L\"\n");
        assert_eq!(d[0].code(), "M104");
        assert_eq!(
            d[0].message,
            "automaton isn't a statement here. It belongs inside a level block."
        );
        let (_, d) = parse("levl one {\n  title \"x\"\n}\n");
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0].message,
            "levl isn't a statement here. Did you mean level?"
        );
        assert_eq!(d[0].fixes[0].edits[0].new_text, "level");
        let (_, d) = parse("level one {\n  automation a property TICK pattern \"L\"\n}\n");
        assert_eq!(
            d[0].message,
            "automation isn't a statement here. Did you mean automaton?"
        );
    }

    #[test]
    fn statement_arguments() {
        let (file, d) = parse(
            "level one {\n  frail\n  pair OPEN SHUT\n  automaton a pattern \"LR\" property TICK\n  allow M407\n}\n",
        );
        assert!(d.is_empty(), "{d:#?}");
        let Item::Level(lv) = &file.items[0] else {
            panic!("level")
        };
        assert_eq!(lv.stmts.len(), 4);
        assert!(matches!(&lv.stmts[0].kind, LevelStmtKind::Frail(v) if v.is_empty()));
        let (_, d) = parse("level one {\n  automaton a property TICK\n}\n");
        assert_eq!(
            d[0].message,
            "Expected `pattern \"…\"`, found the end of the line."
        );
        let (_, d) = parse("level one {\n  title \"a\" \"b\"\n}\n");
        assert_eq!(d[0].message, "Expected the end of the line, found `\"b\"`.");
        let (_, d) = parse("pack p { world tagline \"t\" colour red }\n");
        assert_eq!(
            d[0].message,
            "Expected `glyph`, `tagline`, `accent` or the end of the line, found `colour`."
        );
    }

    #[test]
    fn board_cells() {
        let (_, d) = parse("level one {\n  board {\n    WIN!+STOP .!\n  }\n}\n");
        let msgs: Vec<_> = d.iter().map(|d| (d.code(), d.cells.clone())).collect();
        assert_eq!(msgs, [("M113", vec![(0, 0)]), ("M113", vec![(1, 0)])]);
        assert!(
            d[0].message
                .ends_with("mark every word of the stack fixed, or none.")
        );
        let (_, d) = parse("level one {\n  board {\n    WIN+WIN . 🦀\n  }\n}\n");
        assert_eq!(
            d.iter().map(|d| d.code()).collect::<Vec<_>>(),
            ["M112", "M114"]
        );
        assert_eq!(
            d[1].message,
            "Level one, board row 0: boards are ASCII. Give 🦀 a palette entry and a legend key."
        );
    }

    #[test]
    fn a_brace_on_the_next_line_is_one_diagnostic() {
        let (file, d) = parse("level one\n{\n  title \"One\"\n  board\n  {\n    MIAU\n  }\n}\n");
        let msgs: Vec<_> = d.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            [
                "Expected `{` at the end of the line to open the level block, found the end of the line.",
                "Expected `{` at the end of the line to open the board block, found the end of the line.",
            ]
        );
        let Item::Level(lv) = &file.items[0] else {
            panic!("level")
        };
        assert_eq!(lv.id.text, "one");
        assert_eq!(lv.board.as_ref().unwrap().rows.len(), 1);
    }

    #[test]
    fn a_misspelt_block_does_not_hide_the_levels_after_it() {
        // `packk` is unknown; the levels written inside it are still read, and
        // its closing brace isn't reported again.
        let text = "packk p {\n  name \"P\"\n  level a {\n    title \"A\"\n  }\n}\nlevel b {\n  title 'B'\n}\n";
        let (file, d) = parse(text);
        assert_eq!(
            d.iter().map(|d| d.code()).collect::<Vec<_>>(),
            ["M104", "M102"]
        );
        assert_eq!(file.items.len(), 2);
        // A properly closed unknown block with nested blocks is skipped whole.
        let (file, d) = parse("levl a {\n  board {\n    x\n  }\n}\nlevel b {\n}\n");
        assert_eq!(d.len(), 1);
        assert_eq!(file.items.len(), 1);
    }
}
