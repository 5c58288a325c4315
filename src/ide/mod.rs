//! Editor features as plain functions over byte offsets: the core of the
//! language server, with no protocol types and no I/O.
//!
//! [`Analysis::new`] runs the front end and stages 1–3 once per document
//! version, and the first request that needs it indexes every name in the
//! text ([`Occurrence`]); each feature
//! (hover, definition, completion, …) is a function of an [`Analysis`] and a
//! byte offset, so tests call them directly and the shell in [`crate::lsp`]
//! only converts positions and types at the edge.
//!
//! A document's successive analyses share a [`Cache`]: the front end's
//! per-level results ([`crate::compile::FrontEnd`]: each level block's
//! parse, model and stage 2 diagnostics), and each level's engine reset and
//! stage 3 diagnostics, each under a key holding everything it reads. So an
//! edit inside one level parses, lowers, validates and analyses that level
//! alone; the pack-wide work runs every time, and the result is exactly a
//! full analysis's.

mod check;
mod complete;
mod hover;
#[cfg(test)]
mod incremental_tests;
mod nav;
mod outline;
mod preview;
#[cfg(test)]
mod tests;

pub use check::{CheckOutcome, check_level, replay_level};
pub use complete::{Completion, CompletionKind, completions};
pub use hover::{HoverInfo, hover, hover_with_checks};
pub use nav::{definition, references, rename, rename_range};
pub use outline::{
    CodeAction, CodeLens, FoldingRange, InlayHint, RecordAction, SemanticToken, Symbol, SymbolKind,
    TokenKind, code_actions, code_lenses, document_symbols, folding_ranges, format, inlay_hints,
    placeholder, record_action, semantic_tokens, semantic_tokens_until,
};
pub use preview::{MAX_ROUTE, Preview, parse_action, preview};

/// How many items a cancellable feature function (the `…_until` variants)
/// handles between two looks at its cancellation flag: often enough that a
/// cancelled request stops within a fraction of a millisecond, rarely enough
/// that the atomic load costs nothing measurable.
pub const CANCEL_POLL: usize = 1024;

use crate::analysis::ResetView;
use crate::diag::{self, Diagnostic};
use crate::engine::Game;
use crate::model::{Kind, Level, Pack};
use crate::span::{LineIndex, Span};
use crate::syntax::ast::{self, Item, LevelStmtKind, Listed, PackStmtKind, Part};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

/// What a name in the text is, by where it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The pack id in `pack <id>`.
    PackId,
    /// A level id in `level <id>`.
    LevelId,
    /// An automaton's record id.
    AutomatonId,
    /// The noun of a palette entry (its definition).
    PaletteNoun,
    /// The word of a glossary entry (its definition).
    GlossaryWord,
    /// A word of the pack's `vocabulary`.
    Vocabulary,
    /// A legend key where it is defined.
    LegendKey,
    /// A noun in a legend value.
    LegendNoun,
    /// A channel name in a legend value.
    Channel,
    /// A word tile on a board (`fixed` for `WORD!`).
    BoardWord {
        /// Written `WORD!`.
        fixed: bool,
    },
    /// A legend key used in a board cell.
    BoardKey,
    /// A noun in `terrain`.
    Terrain,
    /// The property an automaton drives.
    AutomatonProperty,
    /// The noun an automaton moves.
    AutomatonSubject,
    /// A word of a `pair`.
    PairWord,
    /// A noun of a `frail` leftover.
    FrailNoun,
    /// A word in `introduces` or `reuses`.
    Listed,
}

/// One name in the text: where, what, and in which level (index among the levels).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The name's bytes (without a fixed word's `!`).
    pub span: Span,
    /// The name as written.
    pub text: String,
    /// What it is.
    pub role: Role,
    /// The level it stands in, as an index into the file's levels.
    pub level: Option<usize>,
    /// For board parts: the cell's column and row.
    pub cell: Option<(u32, u32)>,
}

/// What the engine's reset says about one level, cached by source text.
#[derive(Debug, Clone, Default)]
pub struct LevelFacts {
    /// The reset as stage 3 reads it; `None` when the engine can't take the level.
    pub view: Option<ResetView>,
    /// Properties at reset of every live entity, by object id.
    pub props: BTreeMap<String, Vec<String>>,
    /// Ids of the gates that are open at reset.
    pub open: Vec<String>,
}

impl LevelFacts {
    fn of(level: &Level) -> LevelFacts {
        let view = crate::analysis::reset::engine_reset(level);
        if view.is_none() {
            return LevelFacts::default();
        }
        // The same guard as stage 3: an engine panic must not take the editor down.
        let (props, open) = std::panic::catch_unwind(|| {
            let game = Game::new(level);
            let (state, _) = game.reset();
            let bits = game.props(&state);
            let mut out = BTreeMap::new();
            let mut open = Vec::new();
            for (i, b) in bits.iter().enumerate() {
                if let Ok(e) = u16::try_from(i) {
                    let names = game.prop_names(*b).iter().map(|s| s.to_string()).collect();
                    out.insert(game.id(e).to_string(), names);
                    if game.ents[i].channel.is_some() && game.open(&state, e) {
                        open.push(game.id(e).to_string());
                    }
                }
            }
            (out, open)
        })
        .unwrap_or_default();
        LevelFacts { view, props, open }
    }
}

/// Per-document cache of [`LevelFacts`], keyed by a hash of the level's source
/// text and the pack legend's. Shared between successive analyses of one document.
#[derive(Debug, Default)]
pub struct Cache {
    /// Stages 1 and 2 per level block (see [`crate::compile::FrontEnd`]).
    front_end: Mutex<crate::compile::FrontEnd>,
    levels: Mutex<HashMap<u64, Arc<LevelFacts>>>,
    stage3: Mutex<HashMap<u64, Arc<LevelDiags>>>,
    /// How many times a level's stage 3 checks ran (not taken from the cache).
    level_runs: std::sync::atomic::AtomicUsize,
}

/// The stage 3 diagnostics of one level, with the level's start offset when
/// they were computed (spans inside the level move with it).
#[derive(Debug)]
struct LevelDiags {
    start: usize,
    diagnostics: Vec<Diagnostic>,
}

impl Cache {
    /// An empty cache.
    pub fn new() -> Self {
        Cache::default()
    }

    /// How many levels are cached (for tests of the re-analysis).
    pub fn len(&self) -> usize {
        self.levels.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// How many times a level's stage 3 checks ran rather than came from
    /// the cache (for tests of the re-analysis).
    pub fn level_runs(&self) -> usize {
        self.level_runs.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How much of the last analysis's stages 1 and 2 ran rather than came
    /// from the cache (for tests of the re-analysis).
    pub fn front_end_runs(&self) -> crate::compile::FrontEndRuns {
        self.front_end.lock().map(|f| f.runs()).unwrap_or_default()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One document, analysed: text, syntax tree, pack model, diagnostics of
/// stages 1–3, the engine's reset of every level, and an index of its names.
#[derive(Debug)]
pub struct Analysis {
    text: String,
    index: LineIndex,
    file: ast::File,
    pack: Option<Pack>,
    diagnostics: Vec<Diagnostic>,
    facts: Vec<Arc<LevelFacts>>,
    /// The name index, built on first use: publishing diagnostics after an
    /// edit never reads it, and on a large pack it costs as much as the rest
    /// of a cached re-analysis.
    occurrences: std::sync::OnceLock<Vec<Occurrence>>,
    too_large: Option<usize>,
}

impl Analysis {
    /// Analyse `text` without a cache. Texts longer than `max_bytes` are not
    /// analysed at all (see [`Analysis::too_large`]).
    pub fn new(text: &str, max_bytes: usize) -> Analysis {
        Analysis::with_cache(text, max_bytes, &Cache::new())
    }

    /// Analyse `text`, reusing the engine resets in `cache` for levels whose
    /// source is unchanged; afterwards the cache holds exactly this text's levels.
    pub fn with_cache(text: &str, max_bytes: usize, cache: &Cache) -> Analysis {
        if text.len() > max_bytes {
            return Analysis {
                text: String::new(),
                index: LineIndex::new(""),
                file: ast::File::default(),
                pack: None,
                diagnostics: Vec::new(),
                facts: Vec::new(),
                occurrences: std::sync::OnceLock::from(Vec::new()),
                too_large: Some(text.len()),
            };
        }
        let (file, pack, mut diagnostics) = {
            let mut kept = cache.front_end.lock().unwrap_or_else(|e| e.into_inner());
            let (file, pack, diagnostics, fresh) = crate::compile::stages_1_2_reusing(text, &kept);
            *kept = fresh;
            (file, pack, diagnostics)
        };
        diag::sort(&mut diagnostics);
        diagnostics.dedup();

        let (facts, keys) = level_facts(text, &file, &pack, cache);
        if let Some(skip) = crate::compile::stage3_skips(&diagnostics) {
            let found = stage3(text, &file, &pack, &facts, &keys, &skip, cache);
            crate::compile::add_stage3(&mut diagnostics, found, Some(&file), text);
        }
        Analysis {
            text: text.to_string(),
            index: LineIndex::new(text),
            file,
            pack: Some(pack),
            diagnostics,
            facts,
            occurrences: std::sync::OnceLock::new(),
            too_large: None,
        }
    }

    /// The analysed text (empty when it was too large).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Line starts of the text.
    pub fn index(&self) -> &LineIndex {
        &self.index
    }

    /// The syntax tree.
    pub fn file(&self) -> &ast::File {
        &self.file
    }

    /// The pack model, when the text was analysed.
    pub fn pack(&self) -> Option<&Pack> {
        self.pack.as_ref()
    }

    /// Diagnostics of stages 1–3, sorted.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The document's size when it was over the limit and so not analysed.
    pub fn too_large(&self) -> Option<usize> {
        self.too_large
    }

    /// Every name in the text, in text order.
    pub fn occurrences(&self) -> &[Occurrence] {
        self.occurrences.get_or_init(|| occurrences(&self.file))
    }

    /// The name at `offset` (a cursor just after a name still hits it).
    pub fn occurrence_at(&self, offset: usize) -> Option<&Occurrence> {
        let mut best: Option<&Occurrence> = None;
        for o in self.occurrences() {
            if o.span.start as usize > offset {
                break;
            }
            if o.span.contains(offset) {
                best = Some(o);
                // A name that starts exactly here beats one that ends here.
                if (o.span.start as usize) == offset {
                    break;
                }
            }
        }
        best
    }

    /// The syntax tree's levels, in order (the same order as the model's).
    pub fn ast_levels(&self) -> Vec<&ast::Level> {
        self.file
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Level(l) => Some(&**l),
                _ => None,
            })
            .collect()
    }

    /// The model of the `i`-th level.
    pub fn level(&self, i: usize) -> Option<&Level> {
        self.pack.as_ref()?.levels.get(i)
    }

    /// The engine's reset facts of the `i`-th level.
    pub fn facts(&self, i: usize) -> Option<&LevelFacts> {
        self.facts.get(i).map(|f| f.as_ref())
    }

    /// Index of the level whose block contains `offset`.
    pub fn level_at(&self, offset: usize) -> Option<usize> {
        self.ast_levels()
            .iter()
            .position(|l| l.block.whole().contains(offset))
    }

    /// Index of the level with this id.
    pub fn level_index(&self, id: &str) -> Option<usize> {
        self.ast_levels().iter().position(|l| l.id.text == id)
    }

    /// The source text of a span (empty when out of range).
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }
}

/// The engine facts of every level, from the cache where the level's source is unchanged.
fn level_facts(
    text: &str,
    file: &ast::File,
    pack: &Pack,
    cache: &Cache,
) -> (Vec<Arc<LevelFacts>>, Vec<u64>) {
    let mut legend_hash = DefaultHasher::new();
    for item in &file.items {
        if let Item::Legend(l) = item {
            text.get(l.block.whole().range()).hash(&mut legend_hash);
        }
    }
    let legend_hash = legend_hash.finish();
    let ast_levels: Vec<&ast::Level> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Level(l) => Some(&**l),
            _ => None,
        })
        .collect();
    let mut map = cache.levels.lock().unwrap_or_else(|e| e.into_inner());
    let mut fresh = HashMap::new();
    let mut out = Vec::with_capacity(pack.levels.len());
    let mut keys = Vec::with_capacity(pack.levels.len());
    for (i, level) in pack.levels.iter().enumerate() {
        let mut h = DefaultHasher::new();
        legend_hash.hash(&mut h);
        let src = ast_levels
            .get(i)
            .and_then(|l| text.get(l.block.whole().range()))
            .unwrap_or("");
        src.hash(&mut h);
        let key = h.finish();
        let facts = match map.get(&key) {
            Some(f) => Arc::clone(f),
            None => Arc::new(LevelFacts::of(level)),
        };
        fresh.insert(key, Arc::clone(&facts));
        out.push(facts);
        keys.push(key);
    }
    *map = fresh;
    (out, keys)
}

/// Stage 3 as [`crate::analysis::analyse_with`] runs it, with each level's
/// checks cached under its source text and everything else those checks read:
/// the text outside the levels, every word and noun of the pack, and the
/// level's place. Pack-wide checks and allowances run every time.
fn stage3(
    text: &str,
    file: &ast::File,
    pack: &Pack,
    facts: &[Arc<LevelFacts>],
    keys: &[u64],
    skip: &[String],
    cache: &Cache,
) -> Vec<Diagnostic> {
    use crate::analysis;
    let nouns = analysis::words::NounSet::of(pack);
    let mut out = analysis::pack_checks(pack, &nouns);

    let blocks: Vec<Span> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Level(l) => Some(l.block.whole()),
            _ => None,
        })
        .collect();
    // Everything the per-level checks read besides the level itself.
    let header_end = blocks.first().map_or(text.len(), |b| b.start as usize);
    let mut ctx_hash = DefaultHasher::new();
    text.get(..header_end).hash(&mut ctx_hash);
    let mut rest = header_end;
    for b in &blocks {
        text.get(rest.min(b.start as usize)..b.start as usize)
            .hash(&mut ctx_hash);
        rest = rest.max(b.end as usize);
    }
    text.get(rest..).hash(&mut ctx_hash);
    nouns.all.hash(&mut ctx_hash);
    let words: std::collections::BTreeSet<&str> = pack
        .levels
        .iter()
        .flat_map(|l| l.objects.iter().map(|o| o.text.as_str()))
        .collect();
    words.hash(&mut ctx_hash);
    let ctx_hash = ctx_hash.finish();

    let mut map = cache.stage3.lock().unwrap_or_else(|e| e.into_inner());
    let mut fresh = HashMap::new();
    for (i, level) in pack.levels.iter().enumerate() {
        if skip.contains(&level.id.text) {
            continue;
        }
        let (Some(block), Some(key)) = (blocks.get(i), keys.get(i)) else {
            continue;
        };
        let start = block.start as usize;
        let mut h = DefaultHasher::new();
        (ctx_hash, *key, i, block.end - block.start).hash(&mut h);
        let key = h.finish();
        if let Some(c) = map.get(&key) {
            let delta = start as i64 - c.start as i64;
            out.extend(c.diagnostics.iter().map(|d| d.shifted(c.start, delta)));
            fresh.insert(key, Arc::clone(c));
            continue;
        }
        let view = facts.get(i).and_then(|f| f.view.as_ref());
        let d = analysis::level_checks(pack, level, &nouns, view);
        cache
            .level_runs
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // Only results that point into the level or the unchanged text before
        // every level can be moved with the level; others are recomputed.
        let movable = d.iter().all(|x| {
            spans_of(x).all(|s| {
                (s.end as usize) <= header_end || block.start <= s.start && s.end <= block.end
            })
        });
        if movable {
            fresh.insert(
                key,
                Arc::new(LevelDiags {
                    start,
                    diagnostics: d.clone(),
                }),
            );
        }
        out.extend(d);
    }
    *map = fresh;
    drop(map);
    analysis::finish(pack, &mut out);
    out
}

/// Every span a diagnostic carries.
fn spans_of(d: &Diagnostic) -> impl Iterator<Item = Span> + '_ {
    std::iter::once(d.span)
        .chain(d.related.iter().map(|r| r.span))
        .chain(d.fixes.iter().flat_map(|f| f.edits.iter().map(|e| e.span)))
}

/// Index every name of the file, in text order.
fn occurrences(file: &ast::File) -> Vec<Occurrence> {
    let mut out = Vec::new();
    let mut push = |out: &mut Vec<Occurrence>, i: &ast::Ident, role: Role, level: Option<usize>| {
        if !i.text.is_empty() && i.span.end > i.span.start {
            out.push(Occurrence {
                span: i.span,
                text: i.text.clone(),
                role,
                level,
                cell: None,
            });
        }
    };
    if let Some(p) = &file.pack {
        push(&mut out, &p.id, Role::PackId, None);
        for s in &p.stmts {
            if let PackStmtKind::Vocabulary(words) = &s.kind {
                for w in words {
                    push(&mut out, w, Role::Vocabulary, None);
                }
            }
        }
    }
    let mut level_no = 0usize;
    for item in &file.items {
        match item {
            Item::Palette(p) => {
                for e in &p.entries {
                    push(&mut out, &e.noun, Role::PaletteNoun, None);
                }
            }
            Item::Glossary(g) => {
                for e in &g.entries {
                    push(&mut out, &e.word, Role::GlossaryWord, None);
                }
            }
            Item::Legend(l) => legend_occurrences(&mut out, l, None, &mut push),
            Item::Level(l) => {
                let lv = Some(level_no);
                level_no += 1;
                push(&mut out, &l.id, Role::LevelId, lv);
                for s in &l.stmts {
                    match &s.kind {
                        LevelStmtKind::Introduces(v) | LevelStmtKind::Reuses(v) => {
                            for x in v {
                                if let Listed::Word(w) = x {
                                    push(&mut out, w, Role::Listed, lv);
                                }
                            }
                        }
                        LevelStmtKind::Terrain(v) => {
                            for w in v {
                                push(&mut out, w, Role::Terrain, lv);
                            }
                        }
                        LevelStmtKind::Automaton(a) => {
                            push(&mut out, &a.id, Role::AutomatonId, lv);
                            push(&mut out, &a.property, Role::AutomatonProperty, lv);
                            if let Some(s) = &a.subject {
                                push(&mut out, s, Role::AutomatonSubject, lv);
                            }
                        }
                        LevelStmtKind::Pair(p) => {
                            for w in &p.words {
                                push(&mut out, w, Role::PairWord, lv);
                            }
                        }
                        LevelStmtKind::Frail(v) => {
                            for (a, b) in v {
                                push(&mut out, a, Role::FrailNoun, lv);
                                push(&mut out, b, Role::FrailNoun, lv);
                            }
                        }
                        _ => {}
                    }
                }
                if let Some(leg) = &l.legend {
                    legend_occurrences(&mut out, leg, lv, &mut push);
                }
                if let Some(b) = &l.board {
                    for (y, row) in b.rows.iter().enumerate() {
                        for (x, cell) in row.cells.iter().enumerate() {
                            cell_occurrences(&mut out, cell, lv, (x as u32, y as u32));
                        }
                    }
                }
            }
        }
    }
    out.sort_by_key(|o| (o.span.start, o.span.end));
    out
}

fn legend_occurrences(
    out: &mut Vec<Occurrence>,
    l: &ast::Legend,
    level: Option<usize>,
    push: &mut impl FnMut(&mut Vec<Occurrence>, &ast::Ident, Role, Option<usize>),
) {
    for e in &l.entries {
        push(out, &e.key, Role::LegendKey, level);
        for t in &e.things {
            push(out, &t.noun, Role::LegendNoun, level);
            if let Some(c) = &t.channel {
                push(out, c, Role::Channel, level);
            }
        }
    }
}

/// The parts of one board cell, with their spans computed from the cell's text.
fn cell_occurrences(
    out: &mut Vec<Occurrence>,
    cell: &ast::Cell,
    level: Option<usize>,
    at: (u32, u32),
) {
    let mut off = cell.span.start as usize;
    let pieces: Vec<&str> = cell.text.split('+').collect();
    for (k, piece) in pieces.iter().enumerate() {
        let start = off;
        off += piece.len() + 1;
        if piece.is_empty() || *piece == "." {
            continue;
        }
        // Prefer the parser's reading of the part, when it has one for this position.
        let role = match cell.parts.get(k) {
            Some(Part::Word { fixed, .. }) if cell.parts.len() == pieces.len() => {
                Role::BoardWord { fixed: *fixed }
            }
            Some(Part::Key(_)) if cell.parts.len() == pieces.len() => Role::BoardKey,
            _ if piece.starts_with(|c: char| c.is_ascii_uppercase()) => Role::BoardWord {
                fixed: piece.ends_with('!'),
            },
            _ => Role::BoardKey,
        };
        let text = match role {
            Role::BoardWord { .. } => piece.trim_end_matches('!'),
            _ => piece,
        };
        out.push(Occurrence {
            span: Span::new(start, start + text.len()),
            text: text.to_string(),
            role,
            level,
            cell: Some(at),
        });
    }
}

/// The legend meaning of `key` in a level: the things, and where it was defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMeaning {
    /// Nouns and channels, in stack order.
    pub things: Vec<(String, Option<String>)>,
    /// The key's definition in the text (`None` for the default legend).
    pub defined_at: Option<Span>,
    /// The level whose own legend defines it (`None`: the pack's or the default legend).
    pub level: Option<usize>,
}

/// What `key` means in level `level` (its legend, then the pack's, then the default).
pub fn key_meaning(a: &Analysis, level: Option<usize>, key: &str) -> Option<KeyMeaning> {
    let of = |e: &ast::LegendEntry, level| KeyMeaning {
        things: e
            .things
            .iter()
            .map(|t| {
                (
                    t.noun.text.clone(),
                    t.channel.as_ref().map(|c| c.text.clone()),
                )
            })
            .collect(),
        defined_at: Some(e.key.span),
        level,
    };
    if let Some(i) = level {
        if let Some(leg) = a.ast_levels().get(i).and_then(|l| l.legend.as_ref()) {
            if let Some(e) = leg.entries.iter().find(|e| e.key.text == key) {
                return Some(of(e, Some(i)));
            }
        }
    }
    for item in &a.file.items {
        if let Item::Legend(l) = item {
            if let Some(e) = l.entries.iter().find(|e| e.key.text == key) {
                return Some(of(e, None));
            }
        }
    }
    crate::lower::DEFAULT_LEGEND
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, n, c)| KeyMeaning {
            things: vec![(n.to_string(), c.map(str::to_string))],
            defined_at: None,
            level: None,
        })
}

/// The objects of level `level` at a cell, of one kind.
pub(crate) fn objects_at(
    level: &Level,
    (x, y): (u32, u32),
    kind: Kind,
) -> Vec<&crate::model::Object> {
    level
        .objects
        .iter()
        .filter(|o| o.x == x && o.y == y && o.kind == kind)
        .collect()
}

/// The word class of an uppercase word in a level: `IS`, `AND`, property or noun.
pub(crate) fn word_class(
    a: &Analysis,
    level: Option<usize>,
    word: &str,
) -> crate::analysis::board::WordClass {
    use crate::analysis::board::{CORE_PROPERTIES, FEATURE_PROPERTIES, WordClass};
    match word {
        "IS" => WordClass::Is,
        "AND" => WordClass::And,
        w if CORE_PROPERTIES.contains(&w) || FEATURE_PROPERTIES.contains(&w) => WordClass::Property,
        w => {
            let declared = level.and_then(|i| a.level(i)).is_some_and(|l| {
                l.automata.iter().any(|x| x.property.text == w)
                    || l.pairs.iter().any(|p| p.words.iter().any(|x| x.text == w))
            });
            if declared {
                WordClass::Property
            } else {
                WordClass::Noun
            }
        }
    }
}
