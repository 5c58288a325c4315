//! Lowering an edited text again without lowering its unchanged levels
//! again: the editor's lowering, exactly the lowering of the whole file.
//!
//! A level's lowering reads the level and its [`LevelContext`]: the pack's
//! legend, every legend key of the file and, for a level whose id another
//! level shares, that level's cells too. So a level read from a block of
//! its own (the parse's block key, [`crate::syntax::Reparse::level_keys`])
//! whose id no other level has is lowered once per block text and context,
//! and the next lowering takes its model, its diagnostics and the pack
//! legend keys it used, moved to where the block now stands.

use super::{LevelContext, lower_level, lower_with};
use crate::diag::Diagnostic;
use crate::model;
use crate::span::{Move, Shift, Span};
use crate::syntax::ast::{self, Item};
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// One level's lowering, where its block was.
#[derive(Debug)]
struct Lowered {
    block: Span,
    level: model::Level,
    diagnostics: Vec<Diagnostic>,
    pack_keys: Vec<String>,
}

/// The lowered levels of one lowering, by their block's key and context,
/// for the next lowering of the same document to reuse.
#[derive(Debug, Default)]
pub struct LoweredLevels {
    levels: HashMap<u64, Arc<Lowered>>,
}

impl LoweredLevels {
    /// None: the first lowering of a document.
    pub fn new() -> LoweredLevels {
        LoweredLevels::default()
    }
}

/// A lowering that reused the levels of an earlier one.
#[derive(Debug)]
pub struct Relowered {
    /// The pack model, as [`super::lower_at_most`] gives it.
    pub pack: model::Pack,
    /// The diagnostics, as [`super::lower_at_most`] gives them.
    pub diagnostics: Vec<Diagnostic>,
    /// This file's lowered levels, for the next lowering.
    pub levels: LoweredLevels,
    /// For each lowered level, in order: a key that is the same exactly when
    /// the level's model is the same (moved with its block), when known.
    pub level_keys: Vec<Option<u64>>,
    /// How many levels were lowered rather than reused.
    pub lowered: usize,
}

/// [`super::lower_at_most`], taking from `earlier` the levels whose block
/// (`block_keys`, one per level of `file`, from the parse) and context are
/// unchanged.
pub fn lower_reusing(
    file: &ast::File,
    max_levels: usize,
    block_keys: &[Option<u64>],
    earlier: &LoweredLevels,
) -> Relowered {
    let mut reuse = Reuse {
        earlier,
        block_keys,
        shared_ids: shared_ids(file),
        context_key: None,
        fresh: LoweredLevels::new(),
        level_keys: Vec::new(),
        lowered: 0,
    };
    let (pack, diagnostics) = lower_with(file, max_levels, Some(&mut reuse));
    Relowered {
        pack,
        diagnostics,
        levels: reuse.fresh,
        level_keys: reuse.level_keys,
        lowered: reuse.lowered,
    }
}

/// The level ids that more than one level of `file` has.
fn shared_ids(file: &ast::File) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut shared = HashSet::new();
    for item in &file.items {
        if let Item::Level(l) = item
            && !seen.insert(l.id.text.as_str())
        {
            shared.insert(l.id.text.clone());
        }
    }
    shared
}

/// A lowering's reuse of an earlier one.
pub(super) struct Reuse<'a> {
    earlier: &'a LoweredLevels,
    block_keys: &'a [Option<u64>],
    shared_ids: HashSet<String>,
    /// The hash of the context, once computed (it is the same for every level).
    context_key: Option<u64>,
    fresh: LoweredLevels,
    level_keys: Vec<Option<u64>>,
    lowered: usize,
}

/// A hash of everything a level's lowering reads besides the level.
fn context_key(context: &LevelContext<'_>) -> u64 {
    let mut h = DefaultHasher::new();
    let mut legend: Vec<_> = context.pack_legend.iter().collect();
    legend.sort_by(|a, b| a.0.cmp(b.0));
    legend.hash(&mut h);
    let mut keys: Vec<&String> = context.all_keys.iter().collect();
    keys.sort();
    keys.hash(&mut h);
    h.finish()
}

impl Reuse<'_> {
    /// The `i`-th level, lowered or taken from the earlier lowering.
    pub(super) fn level(
        &mut self,
        i: usize,
        l: &ast::Level,
        context: &LevelContext<'_>,
        pack_used: &mut HashSet<String>,
        diags: &mut Vec<Diagnostic>,
    ) -> model::Level {
        let block = self.block_keys.get(i).copied().flatten();
        let Some(block) = block.filter(|_| !self.shared_ids.contains(&l.id.text)) else {
            self.level_keys.push(None);
            self.lowered += 1;
            return lower_level(l, context, pack_used, diags);
        };
        let context_key = *self.context_key.get_or_insert_with(|| context_key(context));
        let mut h = DefaultHasher::new();
        (block, context_key).hash(&mut h);
        let key = h.finish();
        self.level_keys.push(Some(key));
        let here = l.block.whole();
        let lowered = match self.earlier.levels.get(&key) {
            Some(found) => Arc::clone(found),
            None => {
                self.lowered += 1;
                let mut own_diags = Vec::new();
                let mut used = HashSet::new();
                let level = lower_level(l, context, &mut used, &mut own_diags);
                let mut pack_keys: Vec<String> = used.into_iter().collect();
                pack_keys.sort();
                Arc::new(Lowered {
                    block: here,
                    level,
                    diagnostics: own_diags,
                    pack_keys,
                })
            }
        };
        self.fresh.levels.insert(key, Arc::clone(&lowered));
        let m = Move {
            from: lowered.block,
            delta: i64::from(here.start) - i64::from(lowered.block.start),
        };
        pack_used.extend(lowered.pack_keys.iter().cloned());
        diags.extend(lowered.diagnostics.iter().map(|d| {
            let mut d = d.clone();
            d.shift(m);
            d
        }));
        let mut level = lowered.level.clone();
        level.shift(m);
        level
    }
}
