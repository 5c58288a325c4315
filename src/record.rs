//! Writing the solver's routes into `.miau` source: `check --fix` and the
//! editor's "Record solution" action. Plain text in, text out.
//!
//! For each level given a route, every `solution` and `steps` statement is
//! replaced by one `solution "ROUTE"` and one `steps N` (`steps N at-least
//! M` for a route not proven shortest), and the result goes
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
    /// When the route isn't proven shortest: the fewest steps a route can
    /// take, written as `steps N at-least M`.
    pub at_least: Option<usize>,
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
        let steps = match r.at_least {
            Some(b) => format!("{steps} at-least {b}"),
            None => steps.to_string(),
        };
        for s in &l.stmts {
            if matches!(
                s.kind,
                LevelStmtKind::Solution(_) | LevelStmtKind::Steps(..)
            ) {
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

/// The source of level `id` as it plays: its block's words with the
/// `solution` and `steps` statements left out (a record changes them, and
/// the formatter's alignment around them, and nothing else), or `None` when
/// the text has no such level. Two texts whose level `id` gives the same are
/// the same level for a route worked out on either, so a command that
/// recorded routes on one may record them into the other.
pub fn level_as_played(text: &str, id: &str) -> Option<String> {
    let (file, _) = parse(text);
    file.items.iter().find_map(|item| {
        let Item::Level(l) = item else {
            return None;
        };
        if l.id.text != id {
            return None;
        }
        let (start, end) = (l.block.header.start as usize, l.block.close.end as usize);
        let mut out = String::new();
        let mut at = start;
        for s in &l.stmts {
            if matches!(
                s.kind,
                LevelStmtKind::Solution(_) | LevelStmtKind::Steps(..)
            ) {
                let (a, b) = whole_lines(text, s.span.start as usize, s.span.end as usize);
                out.push_str(text.get(at..a.max(at))?);
                at = b.max(at);
            }
        }
        out.push_str(text.get(at..end.max(at))?);
        Some(out.split_whitespace().collect::<Vec<_>>().join(" "))
    })
}

/// `records` worked out on the text `checked`, recorded into `current`, the
/// text the file holds now: only the levels that play the same in both
/// ([`level_as_played`]) get their route, so an edit saved meanwhile is
/// kept and a route is never written under a board it wasn't found on.
/// Returns the new text (`None`: nothing changes) and the levels recorded.
pub fn record_unchanged(
    checked: &str,
    current: &str,
    records: &[Record],
) -> (Option<String>, Vec<String>) {
    let unchanged: Vec<Record> = records
        .iter()
        .filter(|r| {
            let then = level_as_played(checked, &r.level);
            then.is_some() && then == level_as_played(current, &r.level)
        })
        .cloned()
        .collect();
    let levels = unchanged.iter().map(|r| r.level.clone()).collect();
    (record(current, &unchanged), levels)
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
    fn routes_go_into_the_text_as_it_is_now_where_the_level_is_unchanged() {
        let rec = |level: &str, route: &str| Record {
            level: level.into(),
            route: route.into(),
            at_least: None,
        };
        // Another run recorded level b meanwhile: a's route joins it.
        let other = record(SRC, &[rec("b", "RRRR")]).unwrap();
        let (out, levels) = record_unchanged(SRC, &other, &[rec("a", "RRRR")]);
        let out = out.unwrap();
        assert_eq!(levels, ["a"]);
        assert_eq!(out.matches("solution").count(), 2, "{out}");
        assert_eq!(
            out,
            record(SRC, &[rec("a", "RRRR"), rec("b", "RRRR")]).unwrap()
        );
        // Level a was edited meanwhile: its edit stays, and no route is written.
        let edited = SRC.replacen("@    .  .   . f", ".    @  .   . f", 1);
        let (out, levels) = record_unchanged(SRC, &edited, &[rec("a", "RRRR")]);
        assert_eq!(out, None);
        assert!(levels.is_empty());
    }

    #[test]
    fn a_level_as_played_ignores_its_record_only() {
        let recorded = record(
            SRC,
            &[Record {
                level: "a".into(),
                route: "RRRR".into(),
                at_least: None,
            }],
        )
        .unwrap();
        assert_eq!(level_as_played(SRC, "a"), level_as_played(&recorded, "a"));
        assert_eq!(level_as_played(SRC, "b"), level_as_played(&recorded, "b"));
        let played = level_as_played(SRC, "b").unwrap();
        assert!(
            played.starts_with("level b {") && played.ends_with("} }"),
            "{played}"
        );
        assert!(
            !played.contains("solution") && !played.contains("steps"),
            "{played}"
        );
        let moved = SRC.replace("@    .  .   . f", ".    @  .   . f");
        assert_ne!(level_as_played(SRC, "a"), level_as_played(&moved, "a"));
        assert_eq!(level_as_played(SRC, "zz"), None);
    }

    #[test]
    fn inserts_and_replaces_formatted() {
        let out = record(
            SRC,
            &[
                Record {
                    level: "a".into(),
                    route: "RRRR".into(),
                    at_least: None,
                },
                Record {
                    level: "b".into(),
                    route: "rrrr".into(),
                    at_least: Some(3),
                },
            ],
        )
        .expect("changed");
        assert!(
            out.contains("level a {\n  title      \"A\"\n  solution   \"RRRR\"\n  steps      4\n"),
            "{out}"
        );
        assert!(
            out.contains(
                "level b {\n  title      \"B\"\n  solution   \"RRRR\"\n  steps      4 at-least 3\n"
            ),
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
                at_least: None,
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
