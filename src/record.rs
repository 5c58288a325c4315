//! Writing the solver's routes into `.miau` source: `check --fix` and the
//! editor's "Record solution" action. Plain text in, text out.
//!
//! For each level given a route, every `solution` and `steps` statement is
//! replaced by one `solution "ROUTE"` and one `steps N`, and the result goes
//! through the canonical formatter, so the file reads as `miauc fmt` writes
//! it. Routes are written in upper case.

use crate::syntax::ast::{Item, LevelStmtKind};
use crate::syntax::parse;

/// One level's route to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The level id.
    pub level: String,
    /// The shortest route, letters `U D L R W`.
    pub route: String,
}

/// The source with the routes recorded, formatted; `None` when the text
/// doesn't format (it has syntax errors) or nothing changes.
pub fn record(text: &str, records: &[Record]) -> Option<String> {
    let (file, _) = parse(text);
    // Edits as (start, end, replacement), applied back to front.
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for item in &file.items {
        let Item::Level(l) = item else {
            continue;
        };
        let Some(r) = records.iter().find(|r| r.level == l.id.text) else {
            continue;
        };
        let route = r.route.to_uppercase();
        let steps = route.chars().filter(|c| !c.is_whitespace()).count();
        for s in &l.stmts {
            if matches!(s.kind, LevelStmtKind::Solution(_) | LevelStmtKind::Steps(_)) {
                let (start, end) = whole_lines(text, s.span.start as usize, s.span.end as usize);
                edits.push((start, end, String::new()));
            }
        }
        // After the header line; the formatter puts the statements in order.
        let after = line_end(text, l.block.header.end as usize);
        edits.push((
            after,
            after,
            format!("  solution \"{route}\"\n  steps {steps}\n"),
        ));
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut out = text.to_string();
    for (start, end, with) in edits {
        out.replace_range(start..end, &with);
    }
    let formatted = crate::fmt::format(&out).ok()?;
    (formatted != text).then_some(formatted)
}

/// The smallest single edit turning `old` into `new`: (start, end, text)
/// with byte offsets into `old` (for an editor's one-edit code action).
pub fn minimal_edit(old: &str, new: &str) -> (usize, usize, String) {
    let prefix = old
        .char_indices()
        .zip(new.chars())
        .find(|((_, a), b)| a != b)
        .map_or(old.len().min(new.len()), |((i, _), _)| i);
    let prefix = floor(old, floor(new, prefix));
    let (a, b) = (&old[prefix..], &new[prefix..]);
    let common = a
        .chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum::<usize>()
        .min(a.len())
        .min(b.len());
    (
        prefix,
        old.len() - common,
        new[prefix..new.len() - common].to_string(),
    )
}

fn floor(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The byte after the end of the line holding `at` (past its `\n`).
fn line_end(text: &str, at: usize) -> usize {
    let at = floor(text, at);
    text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
}

/// `start..end` widened to whole lines, including the last line's `\n`.
fn whole_lines(text: &str, start: usize, end: usize) -> (usize, usize) {
    let start = floor(text, start);
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    (line_start, line_end(text, end.max(start)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "pack p {\n  name    \"P\"\n  version \"1.0.0\"\n  engine  1\n}\n\nlevel a {\n  title \"A\"\n  board {\n    MIAU IS YOU . FLAG IS WIN\n    @    .  .   . f    .  .\n  }\n}\n\nlevel b {\n  title    \"B\"\n  solution \"rrr\"\n  steps    9\n  board {\n    MIAU IS YOU . FLAG IS WIN\n    @    .  .   . f    .  .\n  }\n}\n";

    #[test]
    fn inserts_and_replaces_formatted() {
        let out = record(
            SRC,
            &[
                Record {
                    level: "a".into(),
                    route: "RRRR".into(),
                },
                Record {
                    level: "b".into(),
                    route: "rrrr".into(),
                },
            ],
        )
        .expect("changed");
        assert!(
            out.contains("level a {\n  title      \"A\"\n  solution   \"RRRR\"\n  steps      4\n"),
            "{out}"
        );
        assert!(
            out.contains("level b {\n  title      \"B\"\n  solution   \"RRRR\"\n  steps      4\n"),
            "{out}"
        );
        assert_eq!(out.matches("solution").count(), 2, "{out}");
        assert_eq!(crate::fmt::format(&out).unwrap(), out);
        // Recording the same again changes nothing.
        let again = record(
            &out,
            &[Record {
                level: "a".into(),
                route: "RRRR".into(),
            }],
        );
        assert_eq!(again, None);
    }

    #[test]
    fn minimal_edit_is_one_replacement() {
        let (s, e, t) = minimal_edit("abc🐈def", "abc🐈xyzdef");
        assert_eq!((s, e, t.as_str()), (7, 7, "xyz"));
        let (s, e, t) = minimal_edit("same", "same");
        assert_eq!((s, e, t.as_str()), (4, 4, ""));
        let (s, e, t) = minimal_edit("aXb", "ab");
        assert_eq!((s, e, t.as_str()), (1, 2, ""));
    }
}
