//! Board lines: rows of cells, each cell a key, a word or a stack (M108,
//! M112–M114).

use super::super::lexer;
use super::{Frame, P, describe_char};
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax::ast::{Cell, Comment, Level, Part, Row};

impl P<'_> {
    /// A board line: cells split on whitespace, up to a `}` or a comment.
    pub(super) fn board_line(&mut self) {
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

    /// One board row: M114 for each tab (with spaces that keep the columns),
    /// then its cells, split on whitespace.
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

    /// The parts of one cell (none for `.`, or for a cell with a character a
    /// board can't hold, M114): an incomplete stack or a word named twice in
    /// it is M112, a `!` on anything but a word, or on only some of a stack's
    /// words, M113.
    fn cell_parts(&mut self, text: &str, span: Span, x: u32, y: u32, level: &str) -> Vec<Part> {
        if let Some(c) = text.chars().find(|c| !c.is_ascii() || c.is_ascii_control()) {
            self.not_ascii(c, span, x, y, level);
            return Vec::new();
        }
        if text == "." {
            return Vec::new();
        }
        let (mut parts, problem_stack, fixed_bad) = stack_parts(text);
        let dup = drop_repeated_words(&mut parts);
        if problem_stack || dup {
            self.m112(text, &parts, span, (x, y), level);
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
            self.mixed_fixed(&parts, span, (x, y), level);
        }
        parts
    }

    /// M114 for a character a board can't hold.
    fn not_ascii(&mut self, c: char, span: Span, x: u32, y: u32, level: &str) {
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
    }

    /// M112 for a stack with an empty part, a `.` or a word named twice; the
    /// fix writes the parts that are left.
    fn m112(&mut self, text: &str, parts: &[Part], span: Span, (x, y): (u32, u32), level: &str) {
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

    /// M113 for a stack with some of its words fixed and some not.
    fn mixed_fixed(&mut self, parts: &[Part], span: Span, (x, y): (u32, u32), level: &str) {
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

    /// M108 for each row of a closed level's board not as wide as its first.
    pub(super) fn check_ragged(&mut self, l: &Level) {
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

/// A cell's `+`-separated parts, and whether the stack has an empty part or
/// a `.` (M112) or a `!` on something that isn't a word (M113).
fn stack_parts(text: &str) -> (Vec<Part>, bool, bool) {
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
    (parts, problem_stack, fixed_bad)
}

/// Drops the second naming of a word in one stack; whether there was one.
fn drop_repeated_words(parts: &mut Vec<Part>) -> bool {
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
    dup
}
