//! The diagnostics of legend keys, with their fixes: M110 for a key that
//! can't be one, M109 for a key no legend has.

use std::collections::HashSet;

use super::Entry;
use crate::diag::{Diagnostic, Fix, TextEdit};
use crate::span::Span;
use crate::syntax::ast::{self, Item};
use crate::syntax::{did_you_mean, is_word};

/// Characters that look alike on a board (catalogue 1.7).
fn look_alikes(c: char) -> Option<char> {
    Some(match c {
        '0' => 'o',
        'o' => '0',
        '1' => 'l',
        'l' => '1',
        '5' => 's',
        's' => '5',
        'O' => '0',
        _ => return None,
    })
}

/// The spans of every board part written as `key` (in one level, or in all).
fn part_spans(file: &ast::File, level: Option<&str>, key: &str) -> Vec<Span> {
    let mut out = Vec::new();
    for item in &file.items {
        let Item::Level(lv) = item else { continue };
        if level.is_some_and(|id| id != lv.id.text) {
            continue;
        }
        let Some(board) = &lv.board else { continue };
        for cell in board.rows.iter().flat_map(|r| &r.cells) {
            out.extend(cell_part_spans(cell, key));
        }
    }
    out
}

/// Spans of the parts of `cell` written as `key`.
pub(super) fn cell_part_spans(cell: &ast::Cell, key: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut off = cell.span.start as usize;
    for piece in cell.text.split('+') {
        if piece == key {
            out.push(Span::new(off, off + piece.len()));
        }
        off += piece.len() + 1;
    }
    out
}

/// M110 for a legend key that can't be one (`why`: capital, dot or plus),
/// with a rename to a free letter there and on the boards.
pub(super) fn m110(
    file: &ast::File,
    e: &ast::LegendEntry,
    why: &str,
    level: Option<&str>,
    all_keys: &HashSet<String>,
) -> Diagnostic {
    let key = &e.key.text;
    let meaning = Entry::from_ast(e).meaning();
    let msg = match why {
        "capital" => format!(
            "Legend key {key} starts with a capital, so on a board it reads as the word {key}, not as {meaning}. Use a lowercase letter or a symbol."
        ),
        "dot" => format!(
            "Legend key . is the empty cell on a board, so it can't mean {meaning}. Use a lowercase letter or a symbol."
        ),
        _ => format!(
            "Legend key {key} contains +, which joins the parts of a stack on a board, so it can't mean {meaning}. Use a lowercase letter or a symbol."
        ),
    };
    let mut d = Diagnostic::new("M110", e.key.span, msg);
    if let Some(l) = level {
        d = d.with_level(l);
    }
    if let Some(free) = ('a'..='z')
        .map(String::from)
        .find(|c| !all_keys.contains(c))
    {
        let mut edits = vec![TextEdit {
            span: e.key.span,
            new_text: free.clone(),
        }];
        if why != "dot" {
            for s in part_spans(file, level, key) {
                edits.push(TextEdit {
                    span: s,
                    new_text: free.clone(),
                });
            }
        }
        d.fixes.push(Fix {
            title: format!("Rename the key to {free}"),
            edits,
        });
    }
    d
}

/// M109 for a key no legend has: the word it may mean, a look-alike or near
/// key, or the keys there are; fixes for this cell, the board, and the legend.
pub(super) fn m109(
    id: &str,
    l: &ast::Level,
    cell: &ast::Cell,
    key: &str,
    x: u32,
    y: u32,
    visible: &[(String, String)],
) -> Diagnostic {
    let key_spans = cell_part_spans(cell, key);
    let here = key_spans.first().copied().unwrap_or(cell.span);
    let mut msg = format!("Level {id}, column {x}, row {y}: {key} isn't in the legend.");
    let upper = key.to_uppercase();
    let mut suggestion: Option<String> = None;
    if key.chars().any(|c| c.is_ascii_uppercase()) && is_word(&upper) {
        msg.push_str(&format!(" Did you mean the word {upper}?"));
        suggestion = Some(upper);
    } else {
        // Look-alikes first (0/o, 1/l, 5/s), then edit distance for longer keys.
        let alike: String = key.chars().map(|c| look_alikes(c).unwrap_or(c)).collect();
        let mut found: Vec<String> = visible
            .iter()
            .filter(|(k, _)| *k == alike && alike != key)
            .map(|(k, _)| k.clone())
            .collect();
        if found.is_empty() && key.chars().count() > 1 {
            let mut names: Vec<&str> = visible.iter().map(|(k, _)| k.as_str()).collect();
            names.sort();
            found = did_you_mean(key, &names);
        }
        found.dedup();
        if !found.is_empty() {
            let parts: Vec<String> = found
                .iter()
                .map(|k| {
                    let meaning = visible
                        .iter()
                        .find(|(v, _)| v == k)
                        .map(|(_, m)| m.clone())
                        .unwrap_or_default();
                    format!("{k} ({meaning})")
                })
                .collect();
            msg.push_str(&format!(
                " Did you mean {}?",
                crate::syntax::join_or(&parts)
            ));
            suggestion = Some(found[0].clone());
        } else {
            msg.push_str(&format!(
                " Add it to the legend (`{key} NOUN`, with the thing it stands for), or write a key the level has: {}.",
                known_keys(visible)
            ));
        }
    }
    let mut d = Diagnostic::new("M109", here, msg)
        .with_level(id)
        .with_cell(x, y);
    if let Some(s) = suggestion {
        d = d.with_fix(
            format!("Replace {key} with {s} in this cell"),
            here,
            s.clone(),
        );
        let mut edits = Vec::new();
        if let Some(b) = &l.board {
            for c in b.rows.iter().flat_map(|r| &r.cells) {
                for sp in cell_part_spans(c, key) {
                    edits.push(TextEdit {
                        span: sp,
                        new_text: s.clone(),
                    });
                }
            }
        }
        d.fixes.push(Fix {
            title: format!("Replace {key} with {s} in every cell of the board"),
            edits,
        });
    }
    // Add a legend entry: into the level's legend, or a new one before the board.
    let (at, text) = match (&l.legend, &l.board) {
        (Some(lg), _) => (lg.block.header.end as usize, format!("\n    {key} NOUN")),
        (None, Some(b)) => (
            b.block.header.start as usize,
            format!("legend {{\n    {key} NOUN\n  }}\n\n  "),
        ),
        _ => (cell.span.start as usize, String::new()),
    };
    if !text.is_empty() {
        d = d.with_fix(
            format!("Add `{key} NOUN` to the level legend, then write its thing for NOUN"),
            Span::point(at),
            text,
        );
    }
    d
}

/// How many keys an M109 without a suggestion lists.
const MAX_KEYS_LISTED: usize = 12;

/// The keys a board can use, as "y (KEY), @ (MIAU), …": in the order of
/// `visible` (the level's legend, the pack's, the default one), each key
/// once as the first of them defines it, and at most [`MAX_KEYS_LISTED`].
pub(super) fn known_keys(visible: &[(String, String)]) -> String {
    let mut seen: HashSet<&str> = HashSet::new();
    let keys: Vec<&(String, String)> = visible
        .iter()
        .filter(|(k, _)| seen.insert(k.as_str()))
        .collect();
    let mut listed: Vec<String> = keys
        .iter()
        .take(MAX_KEYS_LISTED)
        .map(|(k, meaning)| format!("{k} ({meaning})"))
        .collect();
    if keys.len() > MAX_KEYS_LISTED {
        listed.push(format!("and {} more", keys.len() - MAX_KEYS_LISTED));
    }
    listed.join(", ")
}
