//! The pipeline the shells call: source text in, diagnostics and a pack model out.
//!
//! Stage 1 (syntax) and stage 2 (pack validation) run here for `.miau` sources;
//! pack JSON skips stage 1 and is validated the same way. No I/O: the shells
//! read files and hand over bytes.

use crate::diag::{self, Diagnostic, Severity};
use crate::model::Pack;
use crate::span::{Move, Shift, Span};
use crate::syntax::ast;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// What a source is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// `.miau` source.
    Miau,
    /// Pack JSON in the game's format.
    Json,
}

impl SourceKind {
    /// The kind a file name implies: `.json` is pack JSON, everything else `.miau`.
    pub fn of_path(path: &str) -> SourceKind {
        if path.to_ascii_lowercase().ends_with(".json") {
            SourceKind::Json
        } else {
            SourceKind::Miau
        }
    }
}

/// The result of compiling one source through stages 1 and 2.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The pack model, when the source parsed far enough to have one.
    pub pack: Option<Pack>,
    /// Every diagnostic of stages 1 and 2, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// Ids of levels that have an error of their own: stages 3 and 4 skip them.
    pub fn levels_with_errors(&self) -> Vec<String> {
        levels_with_errors(&self.diagnostics)
    }
}

/// Codes of pack errors that stop the game loading the pack at all: stages 3
/// and 4 skip the whole pack (catalogue 1.1, gating). M211, too many levels,
/// is one: the game refuses such a pack whole.
const PACK_FATAL: &[&str] = &["M205", "M211", "M228", "M229"];

/// Whether `code` is a pack error that stops stages 3 and 4 for the whole
/// pack (catalogue 1.1, gating): the one list the CLI, the editor and
/// [`analyse`] read.
pub fn is_pack_fatal(code: &str) -> bool {
    PACK_FATAL.contains(&code)
}

/// Ids of the levels that have an error of their own among `diags`, sorted
/// and without repeats: stages 3 and 4 skip them.
pub fn levels_with_errors(diags: &[Diagnostic]) -> Vec<String> {
    let mut ids: Vec<String> = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter_map(|d| d.level.clone())
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// What stage 3 may look at after stages 1 and 2 reported `diags`: `None`
/// when the pack is fatal (stage 3 doesn't run), else the levels it skips.
pub fn stage3_skips(diags: &[Diagnostic]) -> Option<Vec<String>> {
    if diags.iter().any(|d| is_pack_fatal(d.code())) {
        return None;
    }
    Some(levels_with_errors(diags))
}

/// Join stage 3's findings to the diagnostics of stages 1 and 2: the
/// rewrites that need the syntax tree (a `.miau` source's `file`), then the
/// one order and no repeats. Used by [`analyse`] and the editor alike.
pub fn add_stage3(
    diags: &mut Vec<Diagnostic>,
    mut stage3: Vec<Diagnostic>,
    file: Option<&ast::File>,
    text: &str,
) {
    if let Some(file) = file {
        for d in &mut stage3 {
            name_the_legend_key_of_a_word(d, file, text);
        }
    }
    diags.extend(stage3);
    diag::sort(diags);
    diags.dedup();
}

/// Turn raw bytes into text. Bytes that aren't UTF-8 get an M114 at the first bad
/// byte and are replaced, so the rest of the file is still analysed.
pub fn decode(bytes: &[u8]) -> (String, Vec<Diagnostic>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), Vec::new()),
        Err(e) => {
            let at = e.valid_up_to();
            let text = String::from_utf8_lossy(bytes).into_owned();
            let d = Diagnostic::new(
                "M114",
                Span::new(at, at + 1),
                "These bytes aren't UTF-8 text; save the file as UTF-8.",
            );
            (text, vec![d])
        }
    }
}

/// Stages 1 and 2 of one source.
pub fn compile(text: &str, kind: SourceKind) -> Compiled {
    compile_keeping_tree(text, kind).1
}

/// [`compile`], also handing back the syntax tree of a `.miau` source, which
/// the stage 3 rewrites that need the legends read.
fn compile_keeping_tree(text: &str, kind: SourceKind) -> (Option<ast::File>, Compiled) {
    let mut tree = None;
    let (pack, mut diagnostics) = match kind {
        SourceKind::Miau => {
            let (file, pack, diags) = stages_1_2(text);
            tree = Some(file);
            (Some(pack), diags)
        }
        SourceKind::Json => crate::json::check(text),
    };
    diag::sort(&mut diagnostics);
    diagnostics.dedup();
    (tree, Compiled { pack, diagnostics })
}

/// Stages 1 and 2 of `.miau` text, unsorted, keeping the syntax tree: the
/// one front end of [`compile`] and the editor's analysis, so both print the
/// same diagnostics with the same rewrites.
pub fn stages_1_2(text: &str) -> (ast::File, Pack, Vec<Diagnostic>) {
    let (file, diags) = crate::syntax::parse(text);
    let max = crate::validate::limits::MAX_LEVELS;
    let (pack, lower_diags) = crate::lower::lower_at_most(&file, max);
    let stage2 = crate::validate::validate(&pack);
    finish_stages_1_2(text, file, pack, [diags, lower_diags, stage2])
}

/// What [`stages_1_2_reusing`] keeps of one run for the next run over the
/// same document, edited: each level block's parse, each level's model and
/// each level's stage 2 diagnostics, under keys that hold everything each
/// reads (see [`crate::syntax::LevelBlocks`], [`crate::lower::LoweredLevels`]).
#[derive(Debug, Default)]
pub struct FrontEnd {
    blocks: crate::syntax::LevelBlocks,
    lowered: crate::lower::LoweredLevels,
    /// Each level's stage 2 diagnostics, by its model's key and index, with
    /// its block where they were found.
    validated: HashMap<(u64, usize), Arc<LevelStage2>>,
    runs: FrontEndRuns,
}

/// One level's stage 2 diagnostics and the block they were found in.
type LevelStage2 = (Span, Vec<Diagnostic>);

/// How much of the last [`stages_1_2_reusing`] ran rather than was reused.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FrontEndRuns {
    /// Level blocks parsed.
    pub parsed: usize,
    /// Levels lowered.
    pub lowered: usize,
    /// Levels whose stage 2 checks ran.
    pub validated: usize,
}

impl FrontEnd {
    /// Nothing kept: the first run over a document.
    pub fn new() -> FrontEnd {
        FrontEnd::default()
    }

    /// How much of the run that made this ran rather than was reused.
    pub fn runs(&self) -> FrontEndRuns {
        self.runs
    }
}

/// [`stages_1_2`] of an edited text, reusing what `earlier` kept of the
/// same document: the same tree, model and diagnostics, and what to keep
/// for the next run. Pack-wide work (the header, palette, glossary and
/// legends, the pack's checks, the rewrites below) runs every time.
pub fn stages_1_2_reusing(
    text: &str,
    earlier: &FrontEnd,
) -> (ast::File, Pack, Vec<Diagnostic>, FrontEnd) {
    let max = crate::validate::limits::MAX_LEVELS;
    let parsed = crate::syntax::parse_reusing(text, &earlier.blocks, max);
    let file = parsed.file;
    let lowered = crate::lower::lower_reusing(&file, max, &parsed.level_keys, &earlier.lowered);
    let pack = lowered.pack;
    let blocks: Vec<Span> = file
        .items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Level(l) => Some(l.block.whole()),
            _ => None,
        })
        .collect();
    let mut validated = HashMap::new();
    let mut runs = 0;
    let stage2 = crate::validate::validate_with(&pack, &mut |level, i| {
        let (Some(Some(key)), Some(&here)) = (lowered.level_keys.get(i), blocks.get(i)) else {
            runs += 1;
            return crate::validate::level_checks(level, i);
        };
        let found = earlier
            .validated
            .get(&(*key, i))
            .cloned()
            .unwrap_or_else(|| {
                runs += 1;
                Arc::new((here, crate::validate::level_checks(level, i)))
            });
        validated.insert((*key, i), Arc::clone(&found));
        let m = Move {
            from: found.0,
            delta: i64::from(here.start) - i64::from(found.0.start),
        };
        found
            .1
            .iter()
            .map(|d| {
                let mut d = d.clone();
                d.shift(m);
                d
            })
            .collect()
    });
    let kept = FrontEnd {
        blocks: parsed.blocks,
        lowered: lowered.levels,
        validated,
        runs: FrontEndRuns {
            parsed: parsed.blocks_read,
            lowered: lowered.lowered,
            validated: runs,
        },
    };
    let (file, pack, diags) = finish_stages_1_2(
        text,
        file,
        pack,
        [parsed.diagnostics, lowered.diagnostics, stage2],
    );
    (file, pack, diags, kept)
}

/// The end of stages 1 and 2, whether or not they reused an earlier run:
/// the levels left out, one mistake reported once, and the rewrites that
/// need the syntax tree.
fn finish_stages_1_2(
    text: &str,
    file: ast::File,
    pack: Pack,
    [mut diags, lower_diags, mut stage2]: [Vec<Diagnostic>; 3],
) -> (ast::File, Pack, Vec<Diagnostic>) {
    let max = crate::validate::limits::MAX_LEVELS;
    diags.extend(lower_diags);
    diags.extend(levels_left_out(&file, max));
    stage2.retain(|d| !is_misspelt_missing_field(d, &diags, &file));
    diags.extend(stage2);
    for d in &mut diags {
        name_the_key_of_a_glyph(d, &file, &pack, text);
        point_at_the_accent(d, &file);
    }
    (file, pack, diags)
}

/// M211 when the file has more than `max` levels: the levels past it are
/// not lowered, validated or analysed, so this is the only word on them.
fn levels_left_out(file: &ast::File, max: usize) -> Option<Diagnostic> {
    let mut levels = file.items.iter().filter_map(|i| match i {
        ast::Item::Level(l) => Some(l),
        _ => None,
    });
    let past = levels.nth(max)?;
    let count = max + 1 + levels.count();
    let span = Span::new(
        past.block.header.start as usize,
        past.id.span.end.max(past.block.header.start) as usize,
    );
    Some(crate::validate::too_many_levels(count, span))
}

/// An M224 (an accent that isn't one of the six) points at the accent as
/// written, not at the whole glossary entry or world statement the model
/// knows, and offers the nearest accent when there is one.
fn point_at_the_accent(d: &mut Diagnostic, file: &ast::File) {
    if d.code() != "M224" {
        return;
    }
    let glossary = file.items.iter().flat_map(|i| match i {
        ast::Item::Glossary(g) => g.entries.iter().map(|e| &e.accent).collect(),
        _ => Vec::new(),
    });
    let world = file
        .pack
        .iter()
        .flat_map(|p| p.stmts.iter())
        .filter_map(|s| match &s.kind {
            ast::PackStmtKind::World { accent, .. } => accent.as_ref(),
            _ => None,
        });
    let within = d.span;
    let Some(accent) = glossary
        .chain(world)
        .find(|a| a.span.start >= within.start && a.span.end <= within.end)
    else {
        return;
    };
    d.span = accent.span;
    let accents = crate::validate::limits::ACCENTS;
    for near in crate::validate::suggest::did_you_mean(&accent.text, accents) {
        d.fixes.push(diag::Fix {
            title: format!("Replace with {near}"),
            edits: vec![diag::TextEdit {
                span: accent.span,
                new_text: near.to_string(),
            }],
        });
    }
}

/// An M201 "has no title" (or any missing field) inside a level or pack
/// where the parser already reported the field's keyword as misspelt
/// (`titel`, M104 with the fix "Replace with title"): one mistake gets one
/// diagnostic, and fixing the spelling settles both.
fn is_misspelt_missing_field(d: &Diagnostic, syntax: &[Diagnostic], file: &ast::File) -> bool {
    if d.code() != "M201" {
        return false;
    }
    let Some(field) = d.path.as_deref().and_then(|p| p.rsplit('.').next()) else {
        return false;
    };
    // The block the missing field belongs in: its level's, or the pack's.
    let block = match &d.level {
        Some(id) => file.items.iter().find_map(|i| match i {
            ast::Item::Level(l) if l.id.text == *id => Some(l.block),
            _ => None,
        }),
        None => file.pack.as_ref().map(|p| p.block),
    };
    let Some(block) = block else {
        return false;
    };
    syntax.iter().any(|m| {
        m.code() == "M104"
            && m.span.start >= block.header.start
            && m.span.end <= block.close.end
            && m.fixes
                .iter()
                .any(|f| f.edits.iter().any(|e| e.new_text == field))
    })
}

/// An emoji typed into a board (M114 "boards are ASCII") that is the glyph
/// of a noun with a legend key: say which key to write, and offer it as the
/// fix. The parser can't know this; the pack's palette and legends can.
fn name_the_key_of_a_glyph(d: &mut Diagnostic, file: &ast::File, pack: &Pack, text: &str) {
    const MARK: &str = "boards are ASCII. Give ";
    if d.code() != "M114" || !d.message.contains(MARK) {
        return;
    }
    let Some(cell) = text.get(d.span.range()) else {
        return;
    };
    let bare = |g: &str| g.trim_end_matches('\u{FE0F}').to_string();
    let glyph = bare(cell);
    let noun = pack
        .palette
        .iter()
        .find(|e| bare(&e.glyph) == glyph)
        .map(|e| e.noun.text.clone())
        .or_else(|| {
            crate::model::BUILTIN_GLYPHS
                .iter()
                .find(|b| bare(b.1) == glyph)
                .map(|b| b.0.to_string())
        });
    let Some(noun) = noun else {
        return;
    };
    let level = file.items.iter().find_map(|i| match i {
        ast::Item::Level(l) if Some(&l.id.text) == d.level.as_ref() => Some(&**l),
        _ => None,
    });
    let Some(key) = key_of(&noun, level, file) else {
        return;
    };
    if let Some(at) = d.message.find(MARK) {
        d.message.truncate(at);
        d.message.push_str(&format!(
            "boards are ASCII. {cell} is {noun}: write its legend key `{key}`."
        ));
    }
    d.fixes.clear();
    *d = d
        .clone()
        .with_fix(format!("Replace with {key}"), d.span, key);
}

/// The legend key that stands for `noun` alone in this level: the level's
/// legend, then the pack's, then the default legend where neither redefines
/// the key.
fn key_of(noun: &str, level: Option<&ast::Level>, file: &ast::File) -> Option<String> {
    let single = |l: &ast::Legend| {
        l.entries
            .iter()
            .find(|e| {
                e.things.len() == 1
                    && e.things[0].noun.text == noun
                    && e.things[0].channel.is_none()
            })
            .map(|e| e.key.text.clone())
    };
    let pack_legends: Vec<&ast::Legend> = file
        .items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Legend(l) => Some(l),
            _ => None,
        })
        .collect();
    let level_legend = level.and_then(|l| l.legend.as_ref());
    if let Some(k) = level_legend.and_then(single) {
        return Some(k);
    }
    if let Some(k) = pack_legends.iter().find_map(|l| single(l)) {
        return Some(k);
    }
    let redefined = |key: &str| {
        level_legend
            .into_iter()
            .chain(pack_legends.iter().copied())
            .any(|l| l.entries.iter().any(|e| e.key.text == key))
    };
    crate::lower::DEFAULT_LEGEND
        .iter()
        .find(|(k, n, channel)| *n == noun && channel.is_none() && !redefined(k))
        .map(|(k, _, _)| k.to_string())
}

/// An M301 "isn't a thing" on a word that is a legend key of its level in
/// the wrong case (`S` on a board whose legend maps `s` to SHELL): the author
/// meant the key, not a new property, so the did-you-mean names the key and
/// its things, and the only replacement offered writes the key. Stage 3 sees
/// the pack model, which has no legends; the syntax tree has them.
pub fn name_the_legend_key_of_a_word(d: &mut Diagnostic, file: &ast::File, text: &str) {
    if d.code() != "M301" {
        return;
    }
    let Some(word) = text.get(d.span.range()).map(|w| w.trim_end_matches('!')) else {
        return;
    };
    let level = file.items.iter().find_map(|i| match i {
        ast::Item::Level(l) if Some(&l.id.text) == d.level.as_ref() => Some(&**l),
        _ => None,
    });
    let Some((key, things)) = key_in_any_case(word, level, file) else {
        return;
    };
    const ASK: &str = " Did you mean ";
    let Some(at) = d.message.find(ASK) else {
        return;
    };
    let Some(end) = d.message[at..].find('?').map(|e| at + e + 1) else {
        return;
    };
    d.message.replace_range(
        at..end,
        &format!(" Did you mean the legend key `{key}` ({things})?"),
    );
    // The property did-you-means replace the word itself; the key does instead.
    let span = d.span;
    d.fixes.retain(|f| !f.edits.iter().any(|e| e.span == span));
    d.fixes.insert(
        0,
        diag::Fix {
            title: format!("Replace with the legend key {key} ({things})"),
            edits: vec![diag::TextEdit {
                span,
                new_text: key,
            }],
        },
    );
}

/// The legend key of this level that `word` spells in another case, and
/// what it stands for (`SHELL`, `PLATE amber + GATE amber`): the level's
/// legend, then the pack's, then the default legend, as the board reads keys.
fn key_in_any_case(
    word: &str,
    level: Option<&ast::Level>,
    file: &ast::File,
) -> Option<(String, String)> {
    let lower = word.to_lowercase();
    if lower == word {
        return None;
    }
    let describe = |things: &mut dyn Iterator<Item = (&str, Option<&str>)>| {
        things
            .map(|(noun, channel)| match channel {
                Some(c) => format!("{noun} {c}"),
                None => noun.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let legends =
        level
            .and_then(|l| l.legend.as_ref())
            .into_iter()
            .chain(file.items.iter().filter_map(|i| match i {
                ast::Item::Legend(l) => Some(l),
                _ => None,
            }));
    for legend in legends {
        if let Some(e) = legend
            .entries
            .iter()
            .find(|e| e.key.text.to_lowercase() == lower)
        {
            let mut things = e.things.iter().map(|t| {
                (
                    t.noun.text.as_str(),
                    t.channel.as_ref().map(|c| c.text.as_str()),
                )
            });
            return Some((e.key.text.clone(), describe(&mut things)));
        }
    }
    crate::lower::DEFAULT_LEGEND
        .iter()
        .find(|(k, _, _)| *k == lower)
        .map(|&(k, noun, channel)| {
            (
                k.to_string(),
                describe(&mut std::iter::once((noun, channel))),
            )
        })
}

/// Stages 1 to 3: [`compile`], then the semantic analysis of every level that
/// has no error of its own (catalogue 1.1, gating).
pub fn analyse(text: &str, kind: SourceKind) -> Compiled {
    let (tree, mut compiled) = compile_keeping_tree(text, kind);
    if let (Some(pack), Some(skip)) = (&compiled.pack, stage3_skips(&compiled.diagnostics)) {
        let stage3 = crate::analysis::analyse(pack, &skip);
        add_stage3(&mut compiled.diagnostics, stage3, tree.as_ref(), text);
    }
    compiled
}

/// Build `.miau` text to canonical pack JSON, or return the diagnostics that stop it.
pub fn build_source(text: &str) -> Result<String, Vec<Diagnostic>> {
    let compiled = compile(text, SourceKind::Miau);
    match compiled.pack {
        Some(pack) if !compiled.has_errors() => Ok(crate::json::to_json(&pack)),
        _ => Err(compiled.diagnostics),
    }
}

/// The pack ids declared by the sources of one run (`check`, `build`), in
/// the order the run reads them. Packs are files of their own, but the game
/// loads them by id and `build` names each output `<id>.json`, so two
/// sources declaring one id is an error (M248) of the later one.
#[derive(Debug, Clone, Default)]
pub struct PackIds {
    /// Each id and the source that declared it first.
    first: BTreeMap<String, String>,
}

impl PackIds {
    /// Records that the source `name` declares `pack`; returns M248, at the
    /// pack header and naming both sources, when an earlier source of the
    /// run declared the same id. Packs without an id (M201) are not counted.
    pub fn declare(&mut self, name: &str, pack: &Pack) -> Option<Diagnostic> {
        let id = pack.id.as_str();
        if id.is_empty() {
            return None;
        }
        match self.first.get(id) {
            Some(first) if first != name => Some(
                Diagnostic::new(
                    "M248",
                    pack.span,
                    format!(
                        "Pack id {id} is already declared by {first}: both packs would build {id}.json, and the game loads one pack per id. Give this pack an id of its own."
                    ),
                )
                .with_path("manifest.id"),
            ),
            Some(_) => None,
            None => {
                self.first.insert(id.to_owned(), name.to_owned());
                None
            }
        }
    }
}

/// The legend key that wrote each thing of one level, by noun and channel
/// (an amber and a teal plate have different keys), for printing boards the
/// way the author wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LegendKeys(BTreeMap<(String, Option<String>), String>);

impl LegendKeys {
    /// The key of a noun with a channel (`None` for a thing without one), if
    /// a legend names it. A thing that keeps a channel without needing one
    /// (a gate that became a ROCK) takes its noun's plain key.
    pub fn get(&self, noun: &str, channel: Option<&str>) -> Option<String> {
        let plain = || self.0.get(&(noun.to_string(), None));
        match channel {
            Some(c) => self
                .0
                .get(&(noun.to_string(), Some(c.to_string())))
                .or_else(plain),
            None => plain(),
        }
        .cloned()
    }
}

/// The legend keys of one level: the level's legend first, then the pack's,
/// then the default legend. Only one-thing entries count (a stack key isn't
/// a noun's key).
pub fn legend_keys(file: &crate::syntax::ast::File, level_id: &str) -> LegendKeys {
    use crate::syntax::ast::Item;
    let mut keys: BTreeMap<(String, Option<String>), String> = BTreeMap::new();
    let add = |legend: &crate::syntax::ast::Legend,
               keys: &mut BTreeMap<(String, Option<String>), String>| {
        for e in &legend.entries {
            if let [thing] = e.things.as_slice() {
                let channel = thing.channel.as_ref().map(|c| c.text.clone());
                keys.insert((thing.noun.text.clone(), channel), e.key.text.clone());
            }
        }
    };
    for (key, noun, channel) in crate::lower::DEFAULT_LEGEND.iter().rev() {
        keys.insert(
            (noun.to_string(), channel.map(str::to_string)),
            key.to_string(),
        );
    }
    for item in &file.items {
        if let Item::Legend(l) = item {
            add(l, &mut keys);
        }
    }
    for item in &file.items {
        if let Item::Level(l) = item
            && l.id.text == level_id
            && let Some(legend) = &l.legend
        {
            add(legend, &mut keys);
        }
    }
    LegendKeys(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        "pack typo {\n  name    \"T\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n}\n\n";

    fn codes(level: &str) -> Vec<&'static str> {
        let src = format!("{HEADER}{level}");
        compile(&src, SourceKind::Miau)
            .diagnostics
            .iter()
            .map(|d| d.code())
            .collect()
    }

    #[test]
    fn a_misspelt_title_is_one_diagnostic() {
        let level =
            "level walk {\n  titel \"Walk\"\n  board {\n    MIAU IS YOU\n    @ . .\n  }\n}\n";
        assert_eq!(codes(level), ["M104"]);
    }

    #[test]
    fn a_lower_case_route_reads_as_upper_case() {
        let level = "level walk {\n  title \"Walk\"\n  solution \"rr\"\n  board {\n    MIAU IS YOU\n    @ . .\n  }\n}\n";
        let src = format!("{HEADER}{level}");
        let compiled = compile(&src, SourceKind::Miau);
        let codes: Vec<_> = compiled.diagnostics.iter().map(|d| d.code()).collect();
        assert!(!codes.contains(&"M237"), "{codes:?}");
        let pack = compiled.pack.unwrap();
        let route = pack.levels[0].check.solution.as_ref().unwrap();
        assert_eq!(route.text, "RR");
        let formatted = crate::fmt::format(&src).expect("formats");
        assert!(formatted.contains("\"RR\""), "{formatted}");
        // Other characters stay as typed, for M237 to quote.
        let bad = src.replace("\"rr\"", "\"rx\"");
        let compiled = compile(&bad, SourceKind::Miau);
        assert!(
            compiled
                .diagnostics
                .iter()
                .any(|d| d.code() == "M237" && d.message.contains("found x at step 2")),
            "{:?}",
            compiled.diagnostics
        );
    }

    #[test]
    fn an_emoji_on_a_board_is_answered_with_its_legend_key() {
        let level =
            "level tide {\n  title \"Tide\"\n  board {\n    MIAU IS YOU\n    m 🌊 🦀\n  }\n}\n";
        let palette = "palette {\n  CRAB \"🦀\"\n}\n\nlegend {\n  x CRAB\n}\n\n";
        let src = format!("{HEADER}{palette}{level}");
        let d = compile(&src, SourceKind::Miau).diagnostics;
        let m114: Vec<&Diagnostic> = d.iter().filter(|d| d.code() == "M114").collect();
        assert_eq!(m114.len(), 2, "{d:?}");
        // A built-in glyph through the default legend; a palette glyph through the pack legend.
        assert!(
            m114[0]
                .message
                .ends_with("boards are ASCII. 🌊 is WATER: write its legend key `w`."),
            "{}",
            m114[0].message
        );
        assert_eq!(m114[0].fixes[0].edits[0].new_text, "w");
        assert!(
            m114[1]
                .message
                .ends_with("🦀 is CRAB: write its legend key `x`."),
            "{}",
            m114[1].message
        );
        // A glyph nothing stands for keeps the general advice.
        let other = src
            .replace("🦀", "🦜")
            .replace("CRAB \"🦜\"", "CRAB \"🦀\"");
        let d = compile(&other, SourceKind::Miau).diagnostics;
        assert!(
            d.iter().any(|d| d.code() == "M114"
                && d.message
                    .ends_with("Give 🦜 a palette entry and a legend key.")),
            "{d:?}"
        );
    }

    #[test]
    fn a_missing_title_without_a_misspelling_is_still_reported() {
        let level = "level walk {\n  board {\n    MIAU IS YOU\n    @ . .\n  }\n}\n";
        assert!(codes(level).contains(&"M201"));
        // A typo of another keyword does not hide the missing title.
        let level = "level walk {\n  hnit \"H\"\n  board {\n    MIAU IS YOU\n    @ . .\n  }\n}\n";
        let got = codes(level);
        assert!(got.contains(&"M104") && got.contains(&"M201"), "{got:?}");
    }
}
