//! Lowering: the typed AST to the pack model (legend resolution, stacks, stable ids).
//!
//! Lowering resolves what the parser can't know line by line: which legend a
//! board key comes from (the level's legend, then the pack's, then the default
//! legend of `rules.md` §13), which legend keys no board uses, and the stable ids
//! of objects. It reports M109, M110 and M115, and M210 for a second `frail`
//! statement, which the model (one optional frail per level) cannot carry to stage 2.
//!
//! Object ids: a thing is `<noun lowercased>-<n>`, a word tile `<text lowercased>.<n>`,
//! numbered from 1 per noun (or per word) in reading order (row, column, stack
//! order). Words and nouns never contain `.`, so the two forms can't collide, and
//! the number is always the text after the last `-` or `.`, so `truck-2` (the
//! second TRUCK) and `truck-2-1` (the first TRUCK-2) stay distinct.

mod keys;
mod reuse;

use std::collections::{HashMap, HashSet};

use crate::diag::Diagnostic;
use crate::model::{self, EventClaim, Kind, Named};
use crate::span::Span;
use crate::syntax::ast::{self, Item, LevelStmtKind, Listed, PackStmtKind, Part};
use keys::{cell_part_spans, m109, m110};
pub use reuse::{LoweredLevels, Relowered, lower_reusing};

/// The default legend (`rules.md` §13): applied when neither the level legend
/// nor the pack legend defines a key. Key, noun, channel.
pub const DEFAULT_LEGEND: &[(&str, &str, Option<&str>)] = &[
    ("m", "MIAU", None),
    ("r", "ROCK", None),
    ("f", "FLAG", None),
    ("w", "WATER", None),
    ("j", "JELLY", None),
    ("s", "SHELL", None),
    ("c", "CRAB", None),
    ("b", "BOAT", None),
    ("g", "COG", None),
    ("u", "MOUSE", None),
    ("e", "BELL", None),
    ("k", "KEY", None),
    ("=", "DOOR", None),
    ("d", "DRIFT", None),
    ("a", "SAND", None),
    ("h", "SHOAL", None),
    ("#", "WALL", None),
    ("$", "CRATE", None),
    ("~", "GAP", None),
    ("&", "TRUCK", None),
    ("@", "MIAU", None),
    ("o", "DOCK", None),
    ("_", "PLATE", Some("amber")),
    ("|", "GATE", Some("amber")),
];

/// Which legend a key was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Level,
    Pack,
    Default,
}

/// One resolved legend entry.
#[derive(Debug, Clone, Hash)]
struct Entry {
    /// The things the key stands for, in order.
    things: Vec<Thing>,
    /// The key's span (default span for the default legend).
    key_span: Span,
    /// The whole entry.
    span: Span,
}

/// One thing of a legend entry.
#[derive(Debug, Clone, Hash)]
struct Thing {
    noun: String,
    channel: Option<String>,
    /// Where the legend writes the noun (default span for the default legend).
    noun_span: Span,
}

impl Entry {
    fn meaning(&self) -> String {
        self.things
            .iter()
            .map(|t| match &t.channel {
                Some(c) => format!("{} channel {c}", t.noun),
                None => t.noun.clone(),
            })
            .collect::<Vec<_>>()
            .join("+")
    }

    fn from_ast(e: &ast::LegendEntry) -> Entry {
        Entry {
            things: e
                .things
                .iter()
                .map(|t| Thing {
                    noun: t.noun.text.clone(),
                    channel: t.channel.as_ref().map(|c| c.text.clone()),
                    noun_span: t.noun.span,
                })
                .collect(),
            key_span: e.key.span,
            span: e.span,
        }
    }
}

/// Why a legend key can't be a key, if it can't (M110).
fn bad_key(key: &str) -> Option<&'static str> {
    if key.starts_with(|c: char| c.is_ascii_uppercase()) {
        Some("capital")
    } else if key == "." {
        Some("dot")
    } else if key.contains('+') {
        Some("plus")
    } else {
        None
    }
}

fn named(i: &ast::Ident) -> Named {
    Named {
        text: i.text.clone(),
        span: i.span,
    }
}

/// Lowers a parsed file to the pack model. Diagnostics: M109, M110, M115, M210.
pub fn lower(file: &ast::File) -> (model::Pack, Vec<Diagnostic>) {
    lower_at_most(file, usize::MAX)
}

/// [`lower`], stopping after the first `max_levels` levels: a pack holds a
/// bounded number of levels, and a file of a million must not cost a
/// million models. The caller reports the levels left out; with some left
/// out, no legend key is reported unused (a level not lowered may use it).
pub fn lower_at_most(file: &ast::File, max_levels: usize) -> (model::Pack, Vec<Diagnostic>) {
    lower_with(file, max_levels, None)
}

/// [`lower_at_most`], each level's lowering taken from `reuse` where it
/// has it.
fn lower_with(
    file: &ast::File,
    max_levels: usize,
    mut reuse: Option<&mut reuse::Reuse<'_>>,
) -> (model::Pack, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut pack = model::Pack::default();
    if let Some(h) = &file.pack {
        pack.id = h.id.text.clone();
        pack.span = Span::new(
            h.block.header.start as usize,
            h.id.span.end.max(h.block.header.start) as usize,
        );
        let mut seen = HashSet::new();
        for s in &h.stmts {
            let first = seen.insert(std::mem::discriminant(&s.kind))
                || matches!(s.kind, PackStmtKind::Allow(_));
            if !first {
                continue;
            }
            match &s.kind {
                PackStmtKind::Name(v) => pack.name = v.value.clone(),
                PackStmtKind::Version(v) => pack.version = v.value.clone(),
                PackStmtKind::Engine(n) => pack.engine = n.value.min(u32::MAX as u64) as u32,
                PackStmtKind::Rules(n) => pack.rules = Some(n.value.min(u32::MAX as u64) as u32),
                PackStmtKind::World {
                    glyph,
                    tagline,
                    accent,
                } => {
                    pack.world = Some(model::World {
                        glyph: glyph.value.clone(),
                        tagline: tagline.as_ref().map(|t| t.value.clone()),
                        accent: accent.as_ref().map(|a| a.text.clone()),
                        span: s.span,
                    })
                }
                PackStmtKind::Vocabulary(ws) => pack.vocabulary = ws.iter().map(named).collect(),
                PackStmtKind::Allow(a) => pack.allow.push(allowance(a, s.span)),
            }
        }
        let after = h.stmts.iter().map(|s| s.span.end).max();
        pack.allow_at = Span::point(after.unwrap_or(h.block.header.end) as usize);
    }

    // Pack legend: every pack-wide legend block, first definition wins.
    let mut pack_legend: HashMap<String, Entry> = HashMap::new();
    let mut pack_order: Vec<String> = Vec::new();
    let all_keys = all_legend_keys(file);
    for item in &file.items {
        match item {
            Item::Palette(p) => {
                for e in &p.entries {
                    pack.palette.push(model::PaletteEntry {
                        noun: named(&e.noun),
                        glyph: e.glyph.value.clone(),
                        faces: e.faces.as_ref().map(|f| f.text.clone()),
                        fallback: e.fallback.as_ref().map(|f| f.value.clone()),
                        terrain: e.terrain,
                        span: e.span,
                    });
                }
            }
            Item::Glossary(g) => {
                for e in &g.entries {
                    pack.glossary.push(model::GlossaryEntry {
                        word: named(&e.word),
                        accent: e.accent.text.clone(),
                        describe: e.describe.value.clone(),
                        span: e.span,
                    });
                }
            }
            Item::Legend(l) => {
                for e in &l.entries {
                    if let Some(why) = bad_key(&e.key.text) {
                        diags.push(m110(file, e, why, None, &all_keys));
                        continue;
                    }
                    if !pack_legend.contains_key(&e.key.text) {
                        pack_order.push(e.key.text.clone());
                        pack_legend.insert(e.key.text.clone(), Entry::from_ast(e));
                    }
                }
            }
            Item::Level(_) => {}
        }
    }

    let mut pack_used: HashSet<String> = HashSet::new();
    let levels = file.items.iter().filter_map(|item| match item {
        Item::Level(l) => Some(l),
        _ => None,
    });
    let mut left_out = false;
    for (i, l) in levels.enumerate() {
        if i >= max_levels {
            left_out = true;
            break;
        }
        let context = LevelContext {
            pack_legend: &pack_legend,
            all_keys: &all_keys,
            file,
        };
        let level = match reuse.as_deref_mut() {
            Some(r) => r.level(i, l, &context, &mut pack_used, &mut diags),
            None => lower_level(l, &context, &mut pack_used, &mut diags),
        };
        pack.levels.push(level);
    }
    let unused = if left_out { &[][..] } else { &pack_order[..] };
    for k in unused {
        if !pack_used.contains(k) {
            let e = &pack_legend[k];
            diags.push(
                Diagnostic::new(
                    "M115",
                    e.key_span,
                    format!("Legend key {k} ({}) isn't used on any board.", e.meaning()),
                )
                .with_fix("Remove the entry", e.span, ""),
            );
        }
    }
    crate::diag::sort(&mut diags);
    (pack, diags)
}

fn allowance(a: &ast::Allow, span: Span) -> model::Allowance {
    model::Allowance {
        code: named(&a.code),
        reason: a
            .reason
            .as_ref()
            .map(|r| r.value.clone())
            .unwrap_or_default(),
        span,
    }
}

/// Every legend key written anywhere, so a rename picks a letter that is free.
fn all_legend_keys(file: &ast::File) -> HashSet<String> {
    let mut keys: HashSet<String> = DEFAULT_LEGEND.iter().map(|d| d.0.to_string()).collect();
    for item in &file.items {
        match item {
            Item::Legend(l) => keys.extend(l.entries.iter().map(|e| e.key.text.clone())),
            Item::Level(lv) => {
                if let Some(l) = &lv.legend {
                    keys.extend(l.entries.iter().map(|e| e.key.text.clone()));
                }
            }
            _ => {}
        }
    }
    keys
}

/// The span of each `+`-separated piece of `cell`, in order.
fn piece_spans(cell: &ast::Cell) -> Vec<Span> {
    let mut out = Vec::new();
    let mut off = cell.span.start as usize;
    for piece in cell.text.split('+') {
        out.push(Span::new(off, off + piece.len()));
        off += piece.len() + 1;
    }
    out
}

/// What a level's lowering reads besides the level: the pack's legend,
/// every legend key of the file (for a free letter to rename a key to), and
/// the file (for the cells of other levels of the same id).
struct LevelContext<'a> {
    pack_legend: &'a HashMap<String, Entry>,
    all_keys: &'a HashSet<String>,
    file: &'a ast::File,
}

/// Lowers one level: its statements, its legend, its board's objects with
/// stable ids, then the keys its board missed (M109) or never used (M115).
fn lower_level(
    l: &ast::Level,
    context: &LevelContext<'_>,
    pack_used: &mut HashSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> model::Level {
    let LevelContext {
        pack_legend,
        all_keys,
        file,
    } = *context;
    let id = l.id.text.clone();
    let mut out = level_shell(l);
    level_statements(l, &mut out, diags);
    let (legend, order) = level_legend(l, file, all_keys, diags);
    let legends = Legends {
        level: &legend,
        pack: pack_legend,
        defaults: default_legend(),
    };
    let mut board = BoardObjects {
        id: &id,
        level: l,
        legends: &legends,
        objects: Vec::new(),
        used: HashSet::new(),
        pack_used,
        missing: HashMap::new(),
        diags,
    };
    if let Some(b) = &l.board {
        out.height = b.rows.len() as u32;
        out.width = b.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0) as u32;
        for (y, row) in b.rows.iter().enumerate() {
            for (x, cell) in row.cells.iter().enumerate() {
                board.cell(cell, x as u32, y as u32);
            }
        }
    }
    let BoardObjects {
        mut objects,
        used,
        missing,
        diags,
        ..
    } = board;
    number_objects(&mut objects);
    out.objects = objects;
    count_repeated_unknown_keys(&missing, diags);
    for k in &order {
        if !used.contains(k) {
            let e = &legend[k];
            diags.push(
                Diagnostic::new(
                    "M115",
                    e.key_span,
                    format!("Legend key {k} ({}) isn't used on any board.", e.meaning()),
                )
                .with_level(id.clone())
                .with_fix("Remove the entry", e.span, ""),
            );
        }
    }
    out
}

/// A level with its id and spans, before its statements and board are read.
fn level_shell(l: &ast::Level) -> model::Level {
    model::Level {
        id: named(&l.id),
        span: Span::new(
            l.block.header.start as usize,
            l.id.span.end.max(l.block.header.start) as usize,
        ),
        board_span: l
            .board
            .as_ref()
            .map(|b| b.block.whole())
            .unwrap_or(l.block.whole()),
        ..Default::default()
    }
}

/// The level's statements into `out`: the first of each single-valued one,
/// every repeatable one, and M210 for a second `frail`.
fn level_statements(l: &ast::Level, out: &mut model::Level, diags: &mut Vec<Diagnostic>) {
    let id = l.id.text.clone();
    let mut seen = HashSet::new();
    let mut frail_seen: Option<Span> = None;
    for s in &l.stmts {
        let repeatable = matches!(
            s.kind,
            LevelStmtKind::MustForm(_)
                | LevelStmtKind::MustBreak(_)
                | LevelStmtKind::MustHappen(..)
                | LevelStmtKind::Allow(_)
                | LevelStmtKind::Automaton(_)
                | LevelStmtKind::Pair(_)
                | LevelStmtKind::Frail(_)
        );
        // A repeated single-valued statement is M107 (parser); the first one counts.
        if !seen.insert(std::mem::discriminant(&s.kind)) && !repeatable {
            continue;
        }
        let c = &mut out.check;
        match &s.kind {
            LevelStmtKind::Title(v) => out.title = Some(v.value.clone()),
            LevelStmtKind::Hint(v) => out.hint = Some(v.value.clone()),
            LevelStmtKind::Category(v) => out.category = Some(named(v)),
            LevelStmtKind::Introduces(v) => out.introduces = listed(v),
            LevelStmtKind::Reuses(v) => out.reuses = listed(v),
            LevelStmtKind::Solution(v) => {
                c.solution = Some(Named {
                    text: crate::model::route_upper(&v.value),
                    span: v.span,
                })
            }
            LevelStmtKind::Steps(n, at_least) => {
                c.steps = Some(n.value);
                c.steps_at_least = at_least.as_ref().map(|b| b.value);
                c.steps_span = s.span;
            }
            LevelStmtKind::Budget(n) => c.solver_budget = Some(n.value),
            LevelStmtKind::MustForm(v) => c.must_form.push(Named {
                text: v.value.clone(),
                span: v.span,
            }),
            LevelStmtKind::MustBreak(v) => c.must_break.push(Named {
                text: v.value.clone(),
                span: v.span,
            }),
            LevelStmtKind::MustLoseWord => {
                c.must_lose_word = Some(Named {
                    text: "must-lose-word".into(),
                    span: s.span,
                })
            }
            LevelStmtKind::MustHappen(kind, args) => c.must_happen.push(EventClaim {
                kind: *kind,
                args: args.iter().map(named).collect(),
                span: s.span,
            }),
            LevelStmtKind::Allow(a) => {
                let al = allowance(a, s.span);
                match crate::diag::lookup(&a.code.text).map(|i| i.code) {
                    Some("M403") if c.allow_bypass.is_none() => c.allow_bypass = Some(al),
                    Some("M404") if c.allow_hands_off.is_none() => c.allow_hands_off = Some(al),
                    _ => c.allow.push(al),
                }
            }
            LevelStmtKind::Terrain(ws) => {
                out.terrain = ws.iter().map(named).collect();
                out.terrain_span = s.span;
            }
            LevelStmtKind::Automaton(a) => out.automata.push(automaton(a, s.span)),
            LevelStmtKind::Pair(p) => out.pairs.push(pair(p, s.span)),
            LevelStmtKind::Frail(leaves) => {
                if frail_seen.is_some() {
                    diags.push(
                        Diagnostic::new(
                            "M210",
                            s.span,
                            format!("Level {id} has two frail statements; a level has one."),
                        )
                        .with_level(id.clone()),
                    );
                    continue;
                }
                frail_seen = Some(s.span);
                out.frail = Some(model::Frail {
                    leaves: leaves.iter().map(|(a, b)| (named(a), named(b))).collect(),
                    span: s.span,
                });
            }
        }
    }
}

/// An `automaton` statement as the model's automaton.
fn automaton(a: &ast::AutomatonStmt, span: Span) -> model::Automaton {
    model::Automaton {
        id: named(&a.id),
        subject: a.subject.as_ref().map(named),
        property: named(&a.property),
        phase: a.phase.as_ref().map(|p| p.value),
        // A letter that isn't a step becomes the non-move (0, 0), which
        // stage 2 reports as M218 with the step's position.
        pattern: a
            .pattern
            .value
            .chars()
            .map(|ch| model::Step::from_letter(ch).unwrap_or(model::Step::Move(0, 0)))
            .collect(),
        span,
    }
}

/// A `pair` statement as the model's pair (its effect `destroy-both` unless written).
fn pair(p: &ast::PairStmt, span: Span) -> model::Pair {
    model::Pair {
        words: p.words.iter().map(named).collect(),
        effect: p
            .effect
            .as_ref()
            .map(|e| e.text.clone())
            .unwrap_or_else(|| "destroy-both".into()),
        enter: p.enter,
        span,
    }
}

/// The level's legend, first definition of a key winning, and its keys in
/// the order written; M110 for a key that can't be one.
fn level_legend(
    l: &ast::Level,
    file: &ast::File,
    all_keys: &HashSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> (HashMap<String, Entry>, Vec<String>) {
    let id = &l.id.text;
    let mut legend: HashMap<String, Entry> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    if let Some(lg) = &l.legend {
        for e in &lg.entries {
            if let Some(why) = bad_key(&e.key.text) {
                diags.push(m110(file, e, why, Some(id), all_keys));
                continue;
            }
            if !legend.contains_key(&e.key.text) {
                order.push(e.key.text.clone());
                legend.insert(e.key.text.clone(), Entry::from_ast(e));
            }
        }
    }
    (legend, order)
}

/// [`DEFAULT_LEGEND`] as legend entries.
fn default_legend() -> HashMap<&'static str, Entry> {
    DEFAULT_LEGEND
        .iter()
        .map(|&(k, n, c)| {
            (
                k,
                Entry {
                    things: vec![Thing {
                        noun: n.to_string(),
                        channel: c.map(String::from),
                        noun_span: Span::default(),
                    }],
                    key_span: Span::default(),
                    span: Span::default(),
                },
            )
        })
        .collect()
}

/// The legends a board key is looked up in: the level's, the pack's, the default one.
struct Legends<'a> {
    level: &'a HashMap<String, Entry>,
    pack: &'a HashMap<String, Entry>,
    defaults: HashMap<&'static str, Entry>,
}

impl Legends<'_> {
    /// The entry of `k` in the first legend that has it, and which legend that is.
    fn lookup(&self, k: &str) -> Option<(&Entry, Source)> {
        self.level
            .get(k)
            .map(|e| (e, Source::Level))
            .or_else(|| self.pack.get(k).map(|e| (e, Source::Pack)))
            .or_else(|| self.defaults.get(k).map(|e| (e, Source::Default)))
    }

    /// Every key with its meaning: the level's keys, then the pack's, then
    /// the default ones, each sorted (maps have no order).
    fn visible(&self) -> Vec<(String, String)> {
        let sorted = |mut part: Vec<(String, String)>| {
            part.sort();
            part
        };
        let mut visible = sorted(
            self.level
                .iter()
                .map(|(k, e)| (k.clone(), e.meaning()))
                .collect(),
        );
        visible.extend(sorted(
            self.pack
                .iter()
                .map(|(k, e)| (k.clone(), e.meaning()))
                .collect(),
        ));
        visible.extend(sorted(
            self.defaults
                .iter()
                .map(|(k, e)| (k.to_string(), e.meaning()))
                .collect(),
        ));
        visible
    }
}

/// A board being lowered: its objects in reading order, the legend keys its
/// cells used, and the keys no legend has (M109).
struct BoardObjects<'a, 'm> {
    /// The level's id, for diagnostics.
    id: &'a str,
    level: &'a ast::Level,
    legends: &'a Legends<'a>,
    objects: Vec<model::Object>,
    /// Keys of the level's legend that a cell uses.
    used: HashSet<String>,
    /// Keys of the pack's legend that a cell of any level uses.
    pack_used: &'m mut HashSet<String>,
    /// Unknown keys of this board: where their M109 is, and how many more cells use them.
    missing: HashMap<String, (usize, usize)>,
    diags: &'m mut Vec<Diagnostic>,
}

impl BoardObjects<'_, '_> {
    /// The objects of one cell: its words, and the things its keys stand for.
    fn cell(&mut self, cell: &ast::Cell, x: u32, y: u32) {
        // A stack the parser repaired (an empty or repeated part) has
        // fewer parts than pieces: its parts keep the cell's span.
        let pieces = piece_spans(cell);
        let whole = pieces.len() != cell.parts.len();
        for (pi, part) in cell.parts.iter().enumerate() {
            let piece = if whole { cell.span } else { pieces[pi] };
            match part {
                Part::Word { text, fixed } => self.objects.push(model::Object {
                    kind: Kind::Word,
                    text: text.clone(),
                    x,
                    y,
                    fixed: *fixed,
                    span: cell.span,
                    part: piece,
                    ..Default::default()
                }),
                Part::Key(k) => self.key(cell, k, piece, x, y),
            }
        }
    }

    /// The things a key stands for, from the first legend that has it; M109
    /// when none does.
    fn key(&mut self, cell: &ast::Cell, k: &str, piece: Span, x: u32, y: u32) {
        let legends = self.legends;
        match legends.lookup(k) {
            Some((e, src)) => {
                match src {
                    Source::Level => {
                        self.used.insert(k.to_string());
                    }
                    Source::Pack => {
                        self.pack_used.insert(k.to_string());
                    }
                    Source::Default => {}
                }
                for t in &e.things {
                    self.objects.push(model::Object {
                        kind: Kind::Thing,
                        text: t.noun.clone(),
                        x,
                        y,
                        channel: t.channel.clone(),
                        span: cell.span,
                        part: piece,
                        legend: t.noun_span,
                        ..Default::default()
                    });
                }
            }
            None if self.missing.contains_key(k) => self.unknown_key_again(cell, k, x, y),
            None => {
                self.missing.insert(k.to_string(), (self.diags.len(), 0));
                let visible = legends.visible();
                self.diags
                    .push(m109(self.id, self.level, cell, k, x, y, &visible));
            }
        }
    }

    /// The same unknown key again: one diagnostic per key, so a board of
    /// 16,384 look-alike cells stays one M109 with one fix, not 16,384
    /// fixes of 16,384 edits each.
    fn unknown_key_again(&mut self, cell: &ast::Cell, k: &str, x: u32, y: u32) {
        let (at, more) = self.missing.get_mut(k).expect("present");
        *more += 1;
        let d: &mut Diagnostic = &mut self.diags[*at];
        d.cells.push((x, y));
        if d.related.len() < MAX_M109_RELATED {
            for sp in cell_part_spans(cell, k) {
                d.related.push(crate::diag::Related {
                    span: sp,
                    label: format!("{k} again"),
                });
            }
        }
    }
}

/// Stable ids, numbered per noun or word in reading order.
fn number_objects(objects: &mut [model::Object]) {
    let mut counters: HashMap<(Kind, String), u32> = HashMap::new();
    for o in objects {
        let n = counters.entry((o.kind, o.text.clone())).or_insert(0);
        *n += 1;
        let sep = if o.kind == Kind::Word { '.' } else { '-' };
        o.id = format!("{}{sep}{n}", o.text.to_lowercase());
    }
}

/// Each unknown key's M109 says how many more cells of the board use it.
fn count_repeated_unknown_keys(
    missing: &HashMap<String, (usize, usize)>,
    diags: &mut [Diagnostic],
) {
    for (k, &(at, more)) in missing {
        if more > 0 {
            let d = &mut diags[at];
            d.message.push_str(&format!(
                " {k} is in {} of this board too.",
                crate::diag::wording::count(more, "more cell")
            ));
        }
    }
}

fn listed(v: &[Listed]) -> model::Introduces {
    let mut out = model::Introduces::default();
    for l in v {
        match l {
            Listed::Word(w) => out.words.push(named(w)),
            Listed::Idea(s) => out.ideas.push(s.value.clone()),
        }
    }
    out
}

/// Other cells of one unknown key shown as related spans of its M109; the
/// message counts them all and the board-wide fix replaces them all.
const MAX_M109_RELATED: usize = 16;

#[cfg(test)]
mod tests;
