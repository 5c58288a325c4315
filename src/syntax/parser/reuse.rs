//! Reading an edited text again without reading its unchanged level blocks
//! again: the editor's parse, exactly the parse of the whole text.
//!
//! A *block* is the text from a line that starts with `level` up to the
//! next such line (or the end). When the parser reaches a block's first
//! line with nothing open (no block, no header waiting for its `{`, no
//! unknown block, no closing brace owed) and the block reads as one level
//! that leaves nothing open either, its reading depends on its text alone:
//! the syntax tree and comments it adds and the diagnostics it pushes, in
//! order. Those are kept under a hash of the text, and the next parse takes
//! them instead of reading the block, moved to where the block now stands.
//! Two things tie a reading to its place, and the key holds both: whether
//! the block starts the text (an empty span at 0 marks "not in the source",
//! so such results are never moved), and its line, when a message of the
//! block names a line number (`lines 3 and 7`).

use super::P;
use crate::diag::{Capped, Diagnostic};
use crate::span::{Move, Shift, Span};
use crate::syntax::ast::{Comment, Item, Level};
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The reading of one level block, where it was read.
#[derive(Debug)]
struct Block {
    /// The block's first byte.
    start: usize,
    /// Its 0-based line.
    line: usize,
    /// Whether a diagnostic of the block names a line number.
    names_lines: bool,
    level: Arc<Level>,
    comments: Vec<Comment>,
    /// The diagnostics the block pushed, in order (before the file's cap).
    diagnostics: Vec<Diagnostic>,
}

impl Block {
    /// This reading moved to a block of `len` bytes that now starts at `at`,
    /// on 0-based line `line`.
    fn moved_to(&self, at: usize, len: usize, line: usize) -> Block {
        let m = Move {
            from: Span::new(self.start, self.start + len),
            delta: at as i64 - self.start as i64,
        };
        let mut level = Level::clone(&self.level);
        level.shift(m);
        let mut comments = self.comments.clone();
        comments.shift(m);
        let mut diagnostics = self.diagnostics.clone();
        for d in &mut diagnostics {
            d.shift(m);
        }
        Block {
            start: at,
            line,
            names_lines: self.names_lines,
            level: Arc::new(level),
            comments,
            diagnostics,
        }
    }
}

/// The level blocks of one parse, by a hash of their text, for the next
/// parse of the same document to reuse.
#[derive(Debug, Default)]
pub struct LevelBlocks {
    blocks: HashMap<u64, Arc<Block>>,
}

impl LevelBlocks {
    /// No blocks: the first parse of a document.
    pub fn new() -> LevelBlocks {
        LevelBlocks::default()
    }

    /// How many blocks are kept.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Whether none are.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }
}

/// A parse that reused the blocks of an earlier one.
#[derive(Debug)]
pub struct Reparse {
    /// The syntax tree, as [`super::parse`] gives it.
    pub file: crate::syntax::ast::File,
    /// The diagnostics, as [`super::parse`] gives them.
    pub diagnostics: Vec<Diagnostic>,
    /// This text's blocks, for the next parse.
    pub blocks: LevelBlocks,
    /// For each level of the tree, in order: the hash of the block it was
    /// read from, when it was read as a block of its own (the same hash
    /// means the same level, moved).
    pub level_keys: Vec<Option<u64>>,
    /// How many blocks were read rather than reused.
    pub blocks_read: usize,
}

/// The diagnostics a parse keeps (under the file's cap), and a copy of
/// those pushed while a block is being recorded.
#[derive(Debug, Default)]
pub(super) struct Sink {
    capped: Capped,
    recording: Option<Vec<Diagnostic>>,
}

impl Sink {
    pub(super) fn push(&mut self, d: Diagnostic) {
        if let Some(r) = &mut self.recording {
            r.push(d.clone());
        }
        self.capped.push(d);
    }

    pub(super) fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        for d in ds {
            self.push(d);
        }
    }

    pub(super) fn finish(self) -> Vec<Diagnostic> {
        self.capped.finish()
    }
}

/// A block being read and recorded.
#[derive(Debug)]
struct Open {
    key: u64,
    start: usize,
    line: usize,
    items: usize,
    comments: usize,
    pack_headers: usize,
}

/// What a parse that reuses blocks carries along.
#[derive(Debug)]
pub(super) struct Reuse<'m> {
    old: &'m LevelBlocks,
    fresh: LevelBlocks,
    open: Option<Open>,
    /// (index into the file's items, block hash) of each level read as a block.
    keyed: Vec<(usize, u64)>,
    read: usize,
    /// Blocks past this many are read and not kept: a text of a million
    /// levels must not keep a million readings (only the first levels a
    /// pack holds are lowered at all).
    max_blocks: usize,
    blocks: usize,
}

impl<'m> Reuse<'m> {
    pub(super) fn new(old: &'m LevelBlocks, max_blocks: usize) -> Reuse<'m> {
        Reuse {
            old,
            fresh: LevelBlocks::new(),
            open: None,
            keyed: Vec::new(),
            read: 0,
            max_blocks,
            blocks: 0,
        }
    }
}

/// Whether a block starts at `at` (a line start): the line begins with the
/// keyword `level`.
fn starts_block(text: &str, at: usize) -> bool {
    let rest = text.as_bytes().get(at..).unwrap_or_default();
    rest.starts_with(b"level") && matches!(rest.get(5), Some(b' ' | b'\t' | b'{'))
}

/// Where the block starting at `at` ends: the start of the next line that
/// starts one, or the end of the text.
fn block_end(text: &str, at: usize) -> usize {
    let mut from = at;
    while let Some(i) = text[from..].find("\nlevel") {
        let line = from + i + 1;
        if starts_block(text, line) {
            return line;
        }
        from = line;
    }
    text.len()
}

/// The key of a block's text.
fn block_key(text: &str, at_start: bool) -> u64 {
    let mut h = DefaultHasher::new();
    (text, at_start).hash(&mut h);
    h.finish()
}

impl P<'_> {
    /// Nothing is open: a block read from here reads the same wherever it stands.
    fn is_clean(&self) -> bool {
        self.stack.len() == 1
            && self.pending_header.is_none()
            && self.unknown_from.is_none()
            && self.orphan_closes == 0
            && self.level_idx.is_none()
    }

    /// At the line starting at `at`: end the block being recorded if one
    /// ends here, and if a block starts here, take it from the earlier
    /// parse (returning where it ends) or start recording it.
    pub(super) fn reuse_at(&mut self, at: usize) -> Option<usize> {
        if self.reuse.is_none() || !starts_block(self.text, at) {
            return None;
        }
        self.end_block();
        if !self.is_clean() {
            return None;
        }
        let end = block_end(self.text, at);
        let key = block_key(&self.text[at..end], at == 0);
        let line = self.idx.line_of(at);
        let reuse = self.reuse.as_mut()?;
        reuse.blocks += 1;
        if reuse.blocks > reuse.max_blocks {
            return None;
        }
        let found = reuse
            .old
            .blocks
            .get(&key)
            .filter(|b| !b.names_lines || b.line == line)
            .cloned();
        let Some(block) = found else {
            reuse.open = Some(Open {
                key,
                start: at,
                line,
                items: self.file.items.len(),
                comments: self.file.comments.len(),
                pack_headers: self.pack_headers,
            });
            reuse.read += 1;
            self.lines_named.set(false);
            self.diags.recording = Some(Vec::new());
            return None;
        };
        reuse.keyed.push((self.file.items.len(), key));
        // A block where it was is taken as it is (its tree shared); a moved
        // one is moved once, and kept where it now stands for the next parse.
        let block = if block.start == at {
            block
        } else {
            Arc::new(block.moved_to(at, end - at, line))
        };
        reuse.fresh.blocks.insert(key, Arc::clone(&block));
        self.file.items.push(Item::Level(Arc::clone(&block.level)));
        self.file.comments.extend(block.comments.iter().cloned());
        for d in &block.diagnostics {
            self.diags.capped.push(d.clone());
        }
        Some(end)
    }

    /// End the block being recorded: keep it when it read as one level and
    /// left nothing open.
    pub(super) fn end_block(&mut self) {
        let Some(open) = self.reuse.as_mut().and_then(|r| r.open.take()) else {
            return;
        };
        let diagnostics = self.diags.recording.take().unwrap_or_default();
        let one_level = self.file.items.len() == open.items + 1
            && self.pack_headers == open.pack_headers
            && self.is_clean();
        let Some(Item::Level(level)) = self.file.items.last().filter(|_| one_level) else {
            return;
        };
        let block = Block {
            start: open.start,
            line: open.line,
            names_lines: self.lines_named.get(),
            level: Arc::clone(level),
            comments: self.file.comments[open.comments..].to_vec(),
            diagnostics,
        };
        if let Some(reuse) = self.reuse.as_mut() {
            reuse.keyed.push((open.items, open.key));
            reuse.fresh.blocks.insert(open.key, Arc::new(block));
        }
    }

    /// The reuse's results: the fresh blocks, each level's key, and how
    /// many blocks were read.
    pub(super) fn reuse_results(&mut self) -> Option<(LevelBlocks, Vec<Option<u64>>, usize)> {
        let reuse = self.reuse.take()?;
        let keyed: HashMap<usize, u64> = reuse.keyed.into_iter().collect();
        let level_keys = self
            .file
            .items
            .iter()
            .enumerate()
            .filter(|(_, item)| matches!(item, Item::Level(_)))
            .map(|(i, _)| keyed.get(&i).copied())
            .collect();
        Some((reuse.fresh, level_keys, reuse.read))
    }
}
