//! Completion: what may be written at the cursor, by block and statement.

use super::Analysis;
use crate::analysis::board::{CORE_PROPERTIES, FEATURE_PROPERTIES};
use crate::model::{CHANNELS, Kind};
use crate::syntax::ast::Item;

/// What a completion item is, for the editor's icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletionKind {
    /// A statement or block keyword.
    Keyword,
    /// A legend key.
    Key,
    /// A noun.
    Noun,
    /// A property word.
    Property,
    /// `IS` or `AND`.
    Operator,
    /// A fixed value: a category, a channel, an accent, a step letter, a code.
    Value,
}

/// One completion item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The text inserted.
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// A short explanation.
    pub detail: String,
}

use crate::syntax::{LEVEL_STMTS as LEVEL, PACK_STMTS as PACK, TOP_BLOCKS as TOP};

/// Blocks inside a level, offered after its statements.
const LEVEL_BLOCKS: &[&str] = &["legend", "board"];
use crate::model::CATEGORIES;
use crate::validate::limits::ACCENTS;
const STEPS: &[(&str, &str)] = &[
    ("U", "up"),
    ("D", "down"),
    ("L", "left"),
    ("R", "right"),
    ("W", "wait"),
];

/// Where the cursor is.
enum Block {
    Top,
    Pack,
    Palette,
    Glossary,
    Legend,
    Level(usize),
    Board(usize),
}

fn block_at(a: &Analysis, offset: usize) -> Block {
    let inside = |b: &crate::syntax::ast::BlockSpan| {
        (b.header.end as usize) <= offset && offset <= b.close.start as usize
    };
    if let Some(p) = &a.file().pack {
        if inside(&p.block) {
            // Blocks nested in the pack block are items too; check them first.
            if !a.file().items.iter().any(|i| item_contains(i, offset)) {
                return Block::Pack;
            }
        }
    }
    let mut level_no = 0;
    for item in &a.file().items {
        match item {
            Item::Palette(p) if inside(&p.block) => return Block::Palette,
            Item::Glossary(g) if inside(&g.block) => return Block::Glossary,
            Item::Legend(l) if inside(&l.block) => return Block::Legend,
            Item::Level(l) => {
                if inside(&l.block) {
                    if l.board.as_ref().is_some_and(|b| inside(&b.block)) {
                        return Block::Board(level_no);
                    }
                    if l.legend.as_ref().is_some_and(|b| inside(&b.block)) {
                        return Block::Legend;
                    }
                    return Block::Level(level_no);
                }
                level_no += 1;
            }
            _ => {}
        }
    }
    Block::Top
}

fn item_contains(i: &Item, offset: usize) -> bool {
    let b = match i {
        Item::Palette(p) => p.block,
        Item::Glossary(g) => g.block,
        Item::Legend(l) => l.block,
        Item::Level(l) => l.block,
    };
    (b.header.start as usize) <= offset && offset <= b.close.end as usize
}

/// Completions at `offset`, by context: statement keywords at the start of a
/// line, legend keys and words in boards, nouns, properties, categories,
/// channels, accents and automaton steps after the statements that take them.
pub fn completions(a: &Analysis, offset: usize) -> Vec<Completion> {
    let text = a.text();
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &text[line_start..offset];
    let prefix = prefix.split("//").next().unwrap_or("");
    let in_string = prefix.matches('"').count() % 2 == 1;
    // Inside a string, the statement is what comes before the opening quote.
    let before = if in_string {
        prefix.rfind('"').map_or(prefix, |q| &prefix[..q])
    } else {
        prefix
    };
    let mut tokens: Vec<&str> = before.split_whitespace().collect();
    // The token being typed doesn't count as context.
    if !prefix.is_empty() && !prefix.ends_with(char::is_whitespace) && !in_string {
        tokens.pop();
    }
    let mut out = Out::default();
    match block_at(a, offset) {
        Block::Top => out.keywords(TOP),
        Block::Pack => match tokens.first().copied() {
            None => out.keywords(PACK),
            Some("world") => {
                if tokens.last() == Some(&"accent") {
                    out.values(ACCENTS, "accent")
                } else {
                    out.keywords(&["glyph", "tagline", "accent"])
                }
            }
            Some("vocabulary") => nouns(a, &mut out),
            Some("allow") if tokens.len() == 1 => codes(&mut out),
            _ => {}
        },
        Block::Palette => match (tokens.len(), tokens.last().copied()) {
            (0, _) => nouns(a, &mut out),
            (_, Some("faces")) => out.values(&["left", "right"], "facing"),
            (n, _) if n >= 2 => out.keywords(&["faces", "fallback", "terrain"]),
            _ => {}
        },
        Block::Glossary => match (tokens.len(), tokens.last().copied()) {
            (0, _) => properties(a, None, &mut out),
            (_, Some("accent")) => out.values(ACCENTS, "accent"),
            (_, _) => out.keywords(&["accent", "describe"]),
        },
        Block::Legend => match (tokens.len(), tokens.last().copied()) {
            (0, _) => {}
            (_, Some("channel")) => out.values(CHANNELS, "channel"),
            (_, Some(t)) if t == "+" || tokens.len() == 1 => nouns(a, &mut out),
            _ => {
                out.keywords(&["channel"]);
                nouns(a, &mut out);
            }
        },
        Block::Board(i) => board(a, i, &mut out),
        Block::Level(i) => level_stmt(a, i, &tokens, in_string, &mut out),
    }
    out.items
}

fn level_stmt(a: &Analysis, i: usize, tokens: &[&str], in_string: bool, out: &mut Out) {
    let Some(&first) = tokens.first() else {
        out.keywords(LEVEL);
        out.keywords(LEVEL_BLOCKS);
        return;
    };
    let last = tokens.last().copied().unwrap_or("");
    match first {
        "category" if tokens.len() == 1 => out.values(CATEGORIES, "category"),
        "terrain" | "frail" => nouns(a, out),
        "introduces" | "reuses" => {
            nouns(a, out);
            properties(a, Some(i), out);
        }
        "pair" => match last {
            "effect" => out.values(&["destroy-both"], "pair effect"),
            _ if tokens.len() >= 3 => out.keywords(&["effect", "enter"]),
            _ => glossary_words(a, out),
        },
        "automaton" => {
            if in_string && last == "pattern" {
                for (s, d) in STEPS {
                    out.push(s, CompletionKind::Value, format!("step: {d}"));
                }
            } else {
                match last {
                    "property" => glossary_words(a, out),
                    "subject" => nouns(a, out),
                    "pattern" | "phase" => {}
                    _ if tokens.len() >= 2 => {
                        out.keywords(&["property", "subject", "phase", "pattern"])
                    }
                    _ => {}
                }
            }
        }
        "allow" if tokens.len() == 1 => codes(out),
        // After the length: its bound, for a length not proven shortest.
        "steps" if tokens.len() == 2 => out.keywords(&["at-least"]),
        "must-lose" | "must-crumble" | "must-become" => nouns(a, out),
        "must-press" => out.values(crate::model::CHANNELS, "channel"),
        _ => {}
    }
}

fn board(a: &Analysis, i: usize, out: &mut Out) {
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut add = |k: &str, meaning: String| {
        if !keys.iter().any(|(x, _)| x == k) {
            keys.push((k.to_string(), meaning));
        }
    };
    let meaning = |e: &crate::syntax::ast::LegendEntry| {
        e.things
            .iter()
            .map(|t| t.noun.text.clone())
            .collect::<Vec<_>>()
            .join("+")
    };
    if let Some(l) = a.ast_levels().get(i).and_then(|l| l.legend.as_ref()) {
        for e in &l.entries {
            add(&e.key.text, meaning(e));
        }
    }
    for item in &a.file().items {
        if let Item::Legend(l) = item {
            for e in &l.entries {
                add(&e.key.text, meaning(e));
            }
        }
    }
    for (k, n, _) in crate::lower::DEFAULT_LEGEND {
        add(k, format!("{n} (default legend)"));
    }
    out.push(".", CompletionKind::Key, "empty cell".into());
    for (k, m) in keys {
        out.push(&k, CompletionKind::Key, m);
    }
    out.push("IS", CompletionKind::Operator, "word".into());
    out.push("AND", CompletionKind::Operator, "word".into());
    nouns(a, out);
    properties(a, Some(i), out);
}

fn nouns(a: &Analysis, out: &mut Out) {
    let Some(pack) = a.pack() else { return };
    for e in &pack.palette {
        out.push(
            &e.noun.text,
            CompletionKind::Noun,
            format!("noun {}", e.glyph),
        );
    }
    for l in &pack.levels {
        for o in l.objects.iter().filter(|o| o.kind == Kind::Thing) {
            out.push(&o.text, CompletionKind::Noun, "noun".into());
        }
    }
}

fn glossary_words(a: &Analysis, out: &mut Out) {
    if let Some(pack) = a.pack() {
        for g in &pack.glossary {
            out.push(&g.word.text, CompletionKind::Property, g.describe.clone());
        }
    }
}

fn properties(a: &Analysis, level: Option<usize>, out: &mut Out) {
    for p in CORE_PROPERTIES.iter().chain(FEATURE_PROPERTIES) {
        let d = super::hover::core_meaning(p).unwrap_or("property");
        out.push(p, CompletionKind::Property, d.into());
    }
    glossary_words(a, out);
    if let Some(l) = level.and_then(|i| a.level(i)) {
        for au in &l.automata {
            out.push(
                &au.property.text,
                CompletionKind::Property,
                "automaton property".into(),
            );
        }
        for p in &l.pairs {
            for w in &p.words {
                out.push(&w.text, CompletionKind::Property, "pair word".into());
            }
        }
    }
}

fn codes(out: &mut Out) {
    for c in crate::diag::CATALOGUE {
        if c.severity != crate::diag::Severity::Error {
            out.push(c.name, CompletionKind::Value, c.code.to_string());
        }
    }
}

#[derive(Default)]
struct Out {
    items: Vec<Completion>,
}

impl Out {
    fn push(&mut self, label: &str, kind: CompletionKind, detail: String) {
        if label.is_empty() || self.items.iter().any(|c| c.label == label) {
            return;
        }
        self.items.push(Completion {
            label: label.to_string(),
            kind,
            detail,
        });
    }

    fn keywords(&mut self, kws: &[&str]) {
        for k in kws {
            self.push(k, CompletionKind::Keyword, "keyword".into());
        }
    }

    fn values(&mut self, vs: &[&str], what: &str) {
        for v in vs {
            self.push(v, CompletionKind::Value, what.into());
        }
    }
}
