//! The document's shape and decorations: symbols, folding, semantic tokens,
//! inlay hints, code lenses, code actions and formatting.

use super::{Analysis, CANCEL_POLL, Role, hover::rules_at_reset, word_class};
use crate::analysis::board::{CORE_PROPERTIES, FEATURE_PROPERTIES, WordClass};
use crate::diag::TextEdit;
use crate::span::Span;
use crate::syntax::ast::{BlockSpan, Item};
use std::sync::atomic::{AtomicBool, Ordering};

/// What a document symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    /// The pack header.
    Pack,
    /// A palette, glossary, legend or board block.
    Block,
    /// A level.
    Level,
    /// A legend key.
    Key,
    /// A palette noun.
    Noun,
    /// A glossary word.
    Property,
}

/// One entry of the document outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The name shown.
    pub name: String,
    /// Extra text (a level's title, a key's meaning).
    pub detail: Option<String>,
    /// What it is.
    pub kind: SymbolKind,
    /// The whole block or entry.
    pub span: Span,
    /// The name within it.
    pub selection: Span,
    /// Nested symbols.
    pub children: Vec<Symbol>,
}

fn sym(
    name: &str,
    detail: Option<String>,
    kind: SymbolKind,
    span: Span,
    selection: Span,
) -> Symbol {
    Symbol {
        name: name.to_string(),
        detail,
        kind,
        span,
        selection: Span::new(
            selection.start.max(span.start) as usize,
            selection
                .end
                .min(span.end)
                .max(selection.start.max(span.start)) as usize,
        ),
        children: Vec::new(),
    }
}

fn legend_symbol(l: &crate::syntax::ast::Legend) -> Symbol {
    let mut s = sym(
        "legend",
        None,
        SymbolKind::Block,
        l.block.whole(),
        l.block.header,
    );
    for e in &l.entries {
        let meaning: Vec<&str> = e.things.iter().map(|t| t.noun.text.as_str()).collect();
        s.children.push(sym(
            &e.key.text,
            Some(meaning.join("+")),
            SymbolKind::Key,
            e.span.cover(e.key.span),
            e.key.span,
        ));
    }
    s
}

/// The outline: the pack, its palette, glossary and legend, and every level
/// with its legend and board.
pub fn document_symbols(a: &Analysis) -> Vec<Symbol> {
    let mut out = Vec::new();
    if let Some(p) = &a.file().pack {
        out.push(sym(
            &format!("pack {}", p.id.text),
            None,
            SymbolKind::Pack,
            p.block.whole(),
            p.id.span,
        ));
    }
    for item in &a.file().items {
        match item {
            Item::Palette(p) => {
                let mut s = sym(
                    "palette",
                    None,
                    SymbolKind::Block,
                    p.block.whole(),
                    p.block.header,
                );
                for e in &p.entries {
                    s.children.push(sym(
                        &e.noun.text,
                        Some(e.glyph.value.clone()),
                        SymbolKind::Noun,
                        e.span,
                        e.noun.span,
                    ));
                }
                out.push(s);
            }
            Item::Glossary(g) => {
                let mut s = sym(
                    "glossary",
                    None,
                    SymbolKind::Block,
                    g.block.whole(),
                    g.block.header,
                );
                for e in &g.entries {
                    s.children.push(sym(
                        &e.word.text,
                        Some(e.describe.value.clone()),
                        SymbolKind::Property,
                        e.span,
                        e.word.span,
                    ));
                }
                out.push(s);
            }
            Item::Legend(l) => out.push(legend_symbol(l)),
            Item::Level(l) => {
                let title = l.stmts.iter().find_map(|s| match &s.kind {
                    crate::syntax::ast::LevelStmtKind::Title(t) => Some(t.value.clone()),
                    _ => None,
                });
                let mut s = sym(
                    &format!("level {}", l.id.text),
                    title,
                    SymbolKind::Level,
                    l.block.whole(),
                    l.id.span,
                );
                if let Some(leg) = &l.legend {
                    s.children.push(legend_symbol(leg));
                }
                if let Some(b) = &l.board {
                    let w = b.rows.first().map_or(0, |r| r.cells.len());
                    s.children.push(sym(
                        "board",
                        Some(format!("{w}×{}", b.rows.len())),
                        SymbolKind::Block,
                        b.block.whole(),
                        b.block.header,
                    ));
                }
                out.push(s);
            }
        }
    }
    out
}

/// A foldable range of lines, by byte offsets of its first and last line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoldingRange {
    /// Where the range starts.
    pub start: usize,
    /// Where it ends.
    pub end: usize,
    /// A run of comment lines rather than a block.
    pub comment: bool,
}

/// Every block spanning more than one line, and every run of two or more comment lines.
pub fn folding_ranges(a: &Analysis) -> Vec<FoldingRange> {
    let mut blocks: Vec<BlockSpan> = Vec::new();
    if let Some(p) = &a.file().pack {
        blocks.push(p.block);
    }
    for item in &a.file().items {
        match item {
            Item::Palette(p) => blocks.push(p.block),
            Item::Glossary(g) => blocks.push(g.block),
            Item::Legend(l) => blocks.push(l.block),
            Item::Level(l) => {
                blocks.push(l.block);
                blocks.extend(l.legend.as_ref().map(|x| x.block));
                blocks.extend(l.board.as_ref().map(|x| x.block));
            }
        }
    }
    let idx = a.index();
    let mut out: Vec<FoldingRange> = blocks
        .iter()
        .filter(|b| idx.line_of(b.header.start as usize) < idx.line_of(b.close.start as usize))
        .map(|b| FoldingRange {
            start: b.header.start as usize,
            end: b.close.start as usize,
            comment: false,
        })
        .collect();
    let mut run: Option<(usize, usize, usize)> = None; // start, end, last line
    for c in &a.file().comments {
        let line = idx.line_of(c.span.start as usize);
        run = match run {
            Some((s, _, l)) if line == l + 1 => Some((s, c.span.end as usize, line)),
            Some((s, e, l)) => {
                if idx.line_of(s) < l {
                    out.push(FoldingRange {
                        start: s,
                        end: e,
                        comment: true,
                    });
                }
                Some((c.span.start as usize, c.span.end as usize, line))
            }
            None => Some((c.span.start as usize, c.span.end as usize, line)),
        };
    }
    if let Some((s, e, l)) = run {
        if idx.line_of(s) < l {
            out.push(FoldingRange {
                start: s,
                end: e,
                comment: true,
            });
        }
    }
    out.sort_by_key(|f| (f.start, f.end));
    out
}

/// The class of a semantic token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TokenKind {
    /// A noun word (or a noun named outside a board).
    Noun,
    /// `IS`.
    Is,
    /// `AND`.
    And,
    /// A core or feature property.
    Property,
    /// A property the pack or level declares (glossary, automaton, pair).
    CustomProperty,
    /// A thing on a board (a legend key), or a legend key's definition.
    Thing,
    /// A level id.
    Level,
}

/// One semantic token: span, class, and whether it is a fixed word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemanticToken {
    /// Where (always within one line).
    pub span: Span,
    /// The class.
    pub kind: TokenKind,
    /// A fixed word (`WIN!`).
    pub fixed: bool,
    /// A definition (legend key, palette noun, glossary word).
    pub declaration: bool,
}

/// Semantic tokens in text order: words by class, things, fixed words, level ids.
pub fn semantic_tokens(a: &Analysis) -> Vec<SemanticToken> {
    semantic_tokens_until(a, &AtomicBool::new(false)).unwrap_or_default()
}

/// [`semantic_tokens`], stopping with `None` once `cancel` is set: the flag is
/// polled every [`CANCEL_POLL`] occurrences, so a cancelled request on a
/// 100,000-cell row gives its thread back within microseconds. One pass over
/// the occurrences, each classified against the level's few declarations:
/// linear in the document.
pub fn semantic_tokens_until(a: &Analysis, cancel: &AtomicBool) -> Option<Vec<SemanticToken>> {
    let mut out = Vec::new();
    for (n, o) in a.occurrences().iter().enumerate() {
        if n.is_multiple_of(CANCEL_POLL) && cancel.load(Ordering::Relaxed) {
            return None;
        }
        let (kind, fixed) = match o.role {
            Role::BoardWord { fixed } => (word_kind(a, o.level, &o.text), fixed),
            Role::BoardKey | Role::LegendKey => (TokenKind::Thing, false),
            Role::LevelId => (TokenKind::Level, false),
            Role::PackId | Role::AutomatonId | Role::Channel => continue,
            _ => (word_kind(a, o.level, &o.text), false),
        };
        out.push(SemanticToken {
            span: o.span,
            kind,
            fixed,
            declaration: matches!(
                o.role,
                Role::LegendKey | Role::PaletteNoun | Role::GlossaryWord | Role::LevelId
            ),
        });
    }
    Some(out)
}

fn word_kind(a: &Analysis, level: Option<usize>, w: &str) -> TokenKind {
    let glossary = a
        .pack()
        .is_some_and(|p| p.glossary.iter().any(|g| g.word.text == w));
    match word_class(a, level, w) {
        WordClass::Is => TokenKind::Is,
        WordClass::And => TokenKind::And,
        WordClass::Property if CORE_PROPERTIES.contains(&w) || FEATURE_PROPERTIES.contains(&w) => {
            TokenKind::Property
        }
        WordClass::Property => TokenKind::CustomProperty,
        WordClass::Noun if glossary => TokenKind::CustomProperty,
        WordClass::Noun => TokenKind::Noun,
    }
}

/// An inlay hint: a label shown at an offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlayHint {
    /// Where it is shown.
    pub offset: usize,
    /// The text.
    pub label: String,
}

/// The rules each level forms at reset, shown after its `board {`.
pub fn inlay_hints(a: &Analysis) -> Vec<InlayHint> {
    let mut out = Vec::new();
    for (i, l) in a.ast_levels().iter().enumerate() {
        let Some(b) = &l.board else { continue };
        let rules = rules_at_reset(a, i);
        if rules.is_empty() {
            continue;
        }
        out.push(InlayHint {
            offset: b.block.header.end as usize,
            label: rules.join(" · "),
        });
    }
    out
}

/// A code lens: a titled command shown above a level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeLens {
    /// The level header.
    pub span: Span,
    /// The title shown.
    pub title: String,
    /// The command it runs (`miau.checkLevel`, `miau.replaySolution`).
    pub command: String,
    /// The level id it passes.
    pub level: String,
}

/// "Check" on every level, and "Replay solution" on levels that record one.
pub fn code_lenses(a: &Analysis) -> Vec<CodeLens> {
    let mut out = Vec::new();
    for (i, l) in a.ast_levels().iter().enumerate() {
        if l.id.text.is_empty() {
            continue;
        }
        out.push(CodeLens {
            span: l.block.header,
            title: "Check".into(),
            command: "miau.checkLevel".into(),
            level: l.id.text.clone(),
        });
        if a.level(i).is_some_and(|m| m.check.solution.is_some()) {
            out.push(CodeLens {
                span: l.block.header,
                title: "Replay solution".into(),
                command: "miau.replaySolution".into(),
                level: l.id.text.clone(),
            });
        }
    }
    out
}

/// A quick fix offered for one diagnostic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeAction {
    /// What it does (says so when it changes how a level plays).
    pub title: String,
    /// The edits.
    pub edits: Vec<TextEdit>,
    /// Index of the diagnostic in [`Analysis::diagnostics`].
    pub diagnostic: usize,
}

/// The quick fixes of the diagnostics that touch `range`: the fixes the
/// diagnostics carry (did-you-mean, allow with a reason, removals), plus
/// declaring two undeclared words of one level as a pair.
pub fn code_actions(a: &Analysis, range: Span) -> Vec<CodeAction> {
    let mut out = Vec::new();
    for (k, d) in a.diagnostics().iter().enumerate() {
        if d.span.end < range.start || d.span.start > range.end {
            continue;
        }
        for fix in &d.fixes {
            out.push(CodeAction {
                title: fix.title.clone(),
                edits: fix.edits.clone(),
                diagnostic: k,
            });
        }
        if d.code() == "M301" {
            out.extend(declare_pair(a, k));
            out.extend(declare_waiting(a, k));
        }
    }
    // Two diagnostics can offer the same fix (M337's missing solution and
    // missing steps both offer one "Allow"): the editor lists it once.
    let mut seen: Vec<(String, Vec<TextEdit>)> = Vec::new();
    out.retain(|act| {
        let key = (act.title.clone(), act.edits.clone());
        let fresh = !seen.contains(&key);
        if fresh {
            seen.push(key);
        }
        fresh
    });
    out
}

/// Where the author still has to type in a fix's edits: the byte range,
/// inside edit `.0`'s `new_text`, of the reason placeholder the "Allow"
/// fix writes, for the editor to select after applying the fix.
pub fn placeholder(act: &CodeAction) -> Option<(usize, std::ops::Range<usize>)> {
    let quoted = format!("\"{}\"", crate::model::REASON_PLACEHOLDER);
    act.edits.iter().enumerate().find_map(|(i, e)| {
        let at = e.new_text.find(&quoted)? + 1;
        Some((i, at..at + crate::model::REASON_PLACEHOLDER.len()))
    })
}

/// The editor's "Record solution DRRRRRRRU (9 steps)" for level `id`, once
/// a check found `route`: the same edit as `miauc check --fix`, as one
/// replacement of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordAction {
    /// "Record solution DRRRRRRRU (9 steps)".
    pub title: String,
    /// The one edit.
    pub edit: TextEdit,
    /// The diagnostics of [`Analysis::diagnostics`] it settles (M337's
    /// missing solution or steps).
    pub settles: Vec<usize>,
}

/// The "Record solution" action of level `id` for `route`, or `None` when
/// the level already records that route and its length. `at_least`: the
/// fewest steps a route can take when `route` isn't proven shortest,
/// written as the length's bound (`steps N at-least M`).
pub fn record_action(
    a: &Analysis,
    id: &str,
    route: &str,
    at_least: Option<usize>,
) -> Option<RecordAction> {
    let route = route.to_uppercase();
    let new = crate::record::record(
        a.text(),
        &[crate::record::Record {
            level: id.to_string(),
            route: route.clone(),
            at_least,
        }],
    )?;
    let (start, end, text) = crate::record::minimal_edit(a.text(), &new);
    let steps = route.chars().filter(|c| !c.is_whitespace()).count();
    let settles = a
        .diagnostics()
        .iter()
        .enumerate()
        .filter(|(_, d)| {
            d.level.as_deref() == Some(id)
                && d.code() == "M337"
                && d.path
                    .as_deref()
                    .is_some_and(|p| p.ends_with(".solution") || p.ends_with(".steps"))
        })
        .map(|(k, _)| k)
        .collect();
    Some(RecordAction {
        title: match at_least {
            Some(m) => format!(
                "Record solution {route} ({}, not proven shortest: at least {m})",
                crate::diag::wording::count(steps, "step")
            ),
            None => format!(
                "Record solution {route} ({})",
                crate::diag::wording::count(steps, "step")
            ),
        },
        edit: TextEdit {
            span: Span::new(start, end),
            new_text: text,
        },
        settles,
    })
}

/// Where a new statement of level `li` goes (the line after its header) and its indentation.
fn statement_slot(a: &Analysis, li: usize) -> Option<(usize, String)> {
    let level = a.ast_levels().get(li).copied()?;
    let text = a.text();
    let at = text
        .get(level.block.header.end as usize..)?
        .find('\n')
        .map(|i| level.block.header.end as usize + i + 1)?;
    let indent = level
        .stmts
        .first()
        .map(|s| {
            let ls = a
                .index()
                .line_start(a.index().line_of(s.keyword.start as usize))
                .unwrap_or(0);
            text.get(ls..s.keyword.start as usize)
                .unwrap_or("  ")
                .to_string()
        })
        .unwrap_or_else(|| "  ".into());
    Some((at, indent))
}

/// The replacements a diagnostic offers for its own text (an M301 word's
/// did-you-mean: a property, or the legend key it spells in another case).
fn replacements(d: &crate::diag::Diagnostic) -> impl Iterator<Item = &str> {
    d.fixes
        .iter()
        .flat_map(|f| &f.edits)
        .filter(move |e| e.span == d.span)
        .map(|e| e.new_text.as_str())
}

/// M301 on a word W: declare W as a property with an automaton that only
/// waits (`pattern "W"`), so W things don't move but W is a property. Not
/// for a legend key written in capitals (`S` for `s`): that is no property.
fn declare_waiting(a: &Analysis, k: usize) -> Option<CodeAction> {
    let d = a.diagnostics().get(k)?;
    let word = a.slice(d.span).trim_end_matches('!').to_string();
    if replacements(d).any(|r| r.eq_ignore_ascii_case(&word)) {
        return None;
    }
    if word.is_empty()
        || !word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return None;
    }
    let li = a.level_at(d.span.start as usize)?;
    let (at, indent) = statement_slot(a, li)?;
    let id = format!("declare-{}", word.to_ascii_lowercase().replace('_', "-"));
    Some(CodeAction {
        title: format!(
            "Declare {word} as a property with a waiting automaton (changes how the level plays)"
        ),
        edits: vec![TextEdit {
            span: Span::point(at),
            new_text: format!("{indent}automaton {id} property {word} pattern \"W\"\n"),
        }],
        diagnostic: k,
    })
}

/// M301 on a word W with another undeclared word V in the level: declare them as `pair V W`.
/// Only words with no did-you-mean are paired: a misspelt property (`SNIK`)
/// or a legend key in capitals (`S`) is a slip, and pairing it with another
/// word of the level would pair two unrelated words.
fn declare_pair(a: &Analysis, k: usize) -> Option<CodeAction> {
    let d = a.diagnostics().get(k)?;
    if replacements(d).next().is_some() {
        return None;
    }
    let word = a.slice(d.span).trim_end_matches('!').to_string();
    let li = a.level_at(d.span.start as usize)?;
    let other = a
        .diagnostics()
        .iter()
        .filter(|o| o.code() == "M301" && a.level_at(o.span.start as usize) == Some(li))
        .filter(|o| replacements(o).next().is_none())
        .map(|o| a.slice(o.span).trim_end_matches('!').to_string())
        .find(|w| *w != word)?;
    let level = a.ast_levels().get(li).copied()?;
    let text = a.text();
    let at = text
        .get(level.block.header.end as usize..)?
        .find('\n')
        .map(|i| level.block.header.end as usize + i + 1)?;
    let indent = level
        .stmts
        .first()
        .map(|s| {
            let ls = a
                .index()
                .line_start(a.index().line_of(s.keyword.start as usize))
                .unwrap_or(0);
            text.get(ls..s.keyword.start as usize)
                .unwrap_or("  ")
                .to_string()
        })
        .unwrap_or_else(|| "  ".into());
    let (x, y) = if other < word {
        (other, word)
    } else {
        (word, other)
    };
    Some(CodeAction {
        title: format!("Declare {x} and {y} as a pair (changes how the level plays)"),
        edits: vec![TextEdit {
            span: Span::point(at),
            new_text: format!("{indent}pair {x} {y}\n"),
        }],
        diagnostic: k,
    })
}

/// The canonical formatting (`miauc fmt`) as the smallest single edit, or
/// `None` when the text doesn't parse well enough to format.
pub fn format(a: &Analysis) -> Option<Vec<TextEdit>> {
    let old = a.text();
    let new = crate::fmt::format(old).ok()?;
    if new == old {
        return Some(Vec::new());
    }
    let mut pre = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(pre) || !new.is_char_boundary(pre) {
        pre -= 1;
    }
    let max_suf = (old.len() - pre).min(new.len() - pre);
    let mut suf = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(max_suf)
        .take_while(|(x, y)| x == y)
        .count();
    while !old.is_char_boundary(old.len() - suf) || !new.is_char_boundary(new.len() - suf) {
        suf -= 1;
    }
    Some(vec![TextEdit {
        span: Span::new(pre, old.len() - suf),
        new_text: new[pre..new.len() - suf].to_string(),
    }])
}
