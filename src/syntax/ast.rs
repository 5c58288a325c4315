//! The typed syntax tree of a `.miau` file.
//!
//! Every node carries the byte [`Span`] it was read from, so that diagnostics,
//! the formatter and the language server can point back into the text. The tree
//! keeps what the author wrote (ids, words and keys as text) and leaves meaning
//! (legend resolution, ids of objects) to [`crate::lower`].

use crate::span::Span;

/// A bare token as written: a word, an id, a keyword argument or a legend key.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ident {
    /// The text as written.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// A double-quoted string, with its escapes resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Str {
    /// The text between the quotes, unescaped.
    pub value: String,
    /// The span including the quotes.
    pub span: Span,
}

/// A whole number.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Num {
    /// The value.
    pub value: u64,
    /// Where.
    pub span: Span,
}

/// A `//` comment, kept aside so that the formatter can put it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// From `//` to the end of the line (trailing whitespace excluded).
    pub span: Span,
}

/// One parsed file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct File {
    /// The `pack` header block, when present (the first one if written twice).
    pub pack: Option<PackHeader>,
    /// Palette, glossary, legend and level blocks, in source order, whether they
    /// were written at top level or nested in the `pack` block.
    pub items: Vec<Item>,
    /// Every comment of the file, in source order.
    pub comments: Vec<Comment>,
}

/// A top-level block other than the pack header.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `palette { … }`.
    Palette(Palette),
    /// `glossary { … }`.
    Glossary(Glossary),
    /// A pack-wide `legend { … }`.
    Legend(Legend),
    /// `level <id> { … }`. Shared: the editor's parse of an edited text
    /// takes an unchanged level block's tree from the earlier parse, and a
    /// level that hasn't moved is then the same tree, not a copy.
    Level(std::sync::Arc<Level>),
}

/// Where a block sits in the text: its header line and its closing brace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BlockSpan {
    /// The header: keyword (and id) through the `{`.
    pub header: Span,
    /// The closing `}` (an empty span at the end of the text when unclosed).
    pub close: Span,
}

impl BlockSpan {
    /// From the header's start to the closing brace's end.
    pub fn whole(&self) -> Span {
        self.header.cover(self.close)
    }
}

/// `pack <id> { … }`: the pack's scalar statements.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PackHeader {
    /// The pack id.
    pub id: Ident,
    /// Header and closing brace.
    pub block: BlockSpan,
    /// The statements, in source order.
    pub stmts: Vec<PackStmt>,
}

/// One statement of the pack header.
#[derive(Debug, Clone, PartialEq)]
pub struct PackStmt {
    /// What it says.
    pub kind: PackStmtKind,
    /// The keyword.
    pub keyword: Span,
    /// The whole statement (one line).
    pub span: Span,
}

/// The statements of the pack header.
#[derive(Debug, Clone, PartialEq)]
pub enum PackStmtKind {
    /// `name "…"`.
    Name(Str),
    /// `version "…"`.
    Version(Str),
    /// `engine <n>`.
    Engine(Num),
    /// `rules <n>`: the rules-semantics version.
    Rules(Num),
    /// `world glyph "…" [tagline "…"] [accent <a>]`.
    World {
        /// The world glyph.
        glyph: Str,
        /// The tagline.
        tagline: Option<Str>,
        /// The accent name.
        accent: Option<Ident>,
    },
    /// `vocabulary WORD…`.
    Vocabulary(Vec<Ident>),
    /// `allow CODE-OR-NAME ["reason"]`.
    Allow(Allow),
}

/// `allow CODE-OR-NAME "reason"` (the reason is checked in stage 2).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Allow {
    /// The code or name.
    pub code: Ident,
    /// The reason.
    pub reason: Option<Str>,
}

/// `palette { … }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Palette {
    /// Header and closing brace.
    pub block: BlockSpan,
    /// The entries.
    pub entries: Vec<PaletteEntry>,
}

/// `NOUN "glyph" [faces left|right] [fallback "…"] [terrain]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PaletteEntry {
    /// The noun.
    pub noun: Ident,
    /// The glyph.
    pub glyph: Str,
    /// `left` or `right`.
    pub faces: Option<Ident>,
    /// The fallback glyph.
    pub fallback: Option<Str>,
    /// Drawn as a terrain slab.
    pub terrain: bool,
    /// The whole entry.
    pub span: Span,
}

/// `glossary { … }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Glossary {
    /// Header and closing brace.
    pub block: BlockSpan,
    /// The entries.
    pub entries: Vec<GlossaryEntry>,
}

/// `WORD accent <a> describe "…"`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GlossaryEntry {
    /// The property word.
    pub word: Ident,
    /// The accent name.
    pub accent: Ident,
    /// The one-sentence description.
    pub describe: Str,
    /// The whole entry.
    pub span: Span,
}

/// `legend { … }`, pack-wide or inside a level.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Legend {
    /// Header and closing brace.
    pub block: BlockSpan,
    /// The entries.
    pub entries: Vec<LegendEntry>,
}

/// `key THING [+ THING…]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LegendEntry {
    /// The key as written.
    pub key: Ident,
    /// The things, in stack order.
    pub things: Vec<LegendThing>,
    /// The whole entry.
    pub span: Span,
}

/// One thing of a legend value: `NOUN [channel NAME]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LegendThing {
    /// The noun.
    pub noun: Ident,
    /// The channel, for plates and gates.
    pub channel: Option<Ident>,
    /// The noun and its attributes.
    pub span: Span,
}

/// `level <id> { … }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Level {
    /// The level id.
    pub id: Ident,
    /// Header and closing brace.
    pub block: BlockSpan,
    /// The statements, in source order.
    pub stmts: Vec<LevelStmt>,
    /// The level's legend block.
    pub legend: Option<Legend>,
    /// The board block.
    pub board: Option<Board>,
}

/// One statement of a level.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelStmt {
    /// What it says.
    pub kind: LevelStmtKind,
    /// The keyword.
    pub keyword: Span,
    /// The whole statement (one line).
    pub span: Span,
}

/// An entry of `introduces` / `reuses`: a word token or a free-text idea.
#[derive(Debug, Clone, PartialEq)]
pub enum Listed {
    /// A word such as `CRATE`.
    Word(Ident),
    /// An idea such as `"sinking words"`.
    Idea(Str),
}

/// The statements of a level.
#[derive(Debug, Clone, PartialEq)]
pub enum LevelStmtKind {
    /// `title "…"`.
    Title(Str),
    /// `category required|optional|challenge`.
    Category(Ident),
    /// `introduces WORD-or-"idea"…`.
    Introduces(Vec<Listed>),
    /// `reuses WORD-or-"idea"…`.
    Reuses(Vec<Listed>),
    /// `hint "…"`.
    Hint(Str),
    /// `solution "UDLRW…"`.
    Solution(Str),
    /// `steps <n> [at-least <m>]`: the route length, and the fewest steps a
    /// shorter route could take when the length isn't proven shortest.
    Steps(Num, Option<Num>),
    /// `must-form "X IS Y"` (repeatable).
    MustForm(Str),
    /// `must-break "X IS Y"` (repeatable).
    MustBreak(Str),
    /// `must-lose-word`: every win destroys a word.
    MustLoseWord,
    /// A claim over events (`must-lose MIAU CRAB`, `must-pair`, …;
    /// repeatable): its kind and its nouns or channels.
    MustHappen(crate::model::EventClaimKind, Vec<Ident>),
    /// `budget <n>`.
    Budget(Num),
    /// `allow CODE-OR-NAME "reason"` (repeatable).
    Allow(Allow),
    /// `terrain NOUN…`.
    Terrain(Vec<Ident>),
    /// `automaton <id> property P [subject S] [phase N] pattern "…"`.
    Automaton(AutomatonStmt),
    /// `pair A B [effect E] [enter]`.
    Pair(PairStmt),
    /// `frail [A -> B, …]`.
    Frail(Vec<(Ident, Ident)>),
}

/// `automaton …`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AutomatonStmt {
    /// The record id.
    pub id: Ident,
    /// The property word.
    pub property: Ident,
    /// The noun it moves.
    pub subject: Option<Ident>,
    /// The starting phase.
    pub phase: Option<Num>,
    /// The step letters.
    pub pattern: Str,
}

/// `pair …`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PairStmt {
    /// The two words.
    pub words: Vec<Ident>,
    /// The effect (`destroy-both`), when written.
    pub effect: Option<Ident>,
    /// Whether `enter` is set.
    pub enter: bool,
}

/// `board { … }`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Board {
    /// Header and closing brace.
    pub block: BlockSpan,
    /// The rows, top to bottom (blank and comment-only lines are not rows).
    pub rows: Vec<Row>,
}

/// One board row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Row {
    /// The cells, left to right.
    pub cells: Vec<Cell>,
    /// From the first cell to the last.
    pub span: Span,
}

/// One board cell, as written and as understood.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cell {
    /// The text as written.
    pub text: String,
    /// Its parts: one for a plain cell, several for a stack, none for `.`
    /// or for a cell whose text could not be read (already reported).
    pub parts: Vec<Part>,
    /// Where.
    pub span: Span,
}

/// One part of a cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// A word tile; `fixed` for `WORD!`.
    Word {
        /// The word.
        text: String,
        /// Marked with `!`.
        fixed: bool,
    },
    /// A legend key, resolved by lowering.
    Key(String),
}
