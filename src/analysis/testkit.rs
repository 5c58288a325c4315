//! Test helpers: levels from the conformance notation of `rules.md` §13, and
//! hand-built reset views.

use super::reset::{Axis, ResetView, RuleView};
use crate::diag::Diagnostic;
use crate::model::{Kind, Level, Named, Object, Pack};
use std::collections::BTreeMap;

/// The conformance legend (`rules.md` §13) plus the ones the brief adds.
fn legend(key: &str) -> Option<(&'static str, Option<&'static str>)> {
    Some(match key {
        "m" | "@" => ("MIAU", None),
        "r" => ("ROCK", None),
        "f" => ("FLAG", None),
        "w" => ("WATER", None),
        "j" => ("JELLY", None),
        "s" => ("SHELL", None),
        "c" => ("CRAB", None),
        "b" => ("BOAT", None),
        "g" => ("COG", None),
        "u" => ("MOUSE", None),
        "e" => ("BELL", None),
        "k" => ("KEY", None),
        "=" => ("DOOR", None),
        "d" => ("DRIFT", None),
        "a" => ("SAND", None),
        "h" => ("SHOAL", None),
        "#" => ("WALL", None),
        "$" => ("CRATE", None),
        "~" => ("GAP", None),
        "&" => ("TRUCK", None),
        "o" => ("DOCK", None),
        "_" => ("PLATE", Some("amber")),
        "|" => ("GATE", Some("amber")),
        _ => return None,
    })
}

/// A level `id` from rows of space-separated cells (`.` empty, UPPERCASE words,
/// `WORD!` fixed, `a+b` stacks, lowercase legend keys). Ids are
/// `<noun>-<n>` for things and `<word>.<n>` for words, in reading order.
pub fn level(id: &str, board: &str) -> Level {
    let rows: Vec<Vec<&str>> = board
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    let mut counts: BTreeMap<String, u32> = BTreeMap::new();
    let mut objects = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, cell) in row.iter().enumerate() {
            if *cell == "." {
                continue;
            }
            for part in cell.split('+') {
                let (kind, text, fixed, channel) = if part
                    .starts_with(|c: char| c.is_ascii_uppercase())
                {
                    let fixed = part.ends_with('!');
                    (
                        Kind::Word,
                        part.trim_end_matches('!').to_string(),
                        fixed,
                        None,
                    )
                } else {
                    let (noun, ch) = legend(part).unwrap_or_else(|| panic!("no legend key {part}"));
                    (Kind::Thing, noun.to_string(), false, ch.map(str::to_string))
                };
                let key = format!("{kind:?}{text}");
                let n = counts.entry(key).or_insert(0);
                *n += 1;
                let id = match kind {
                    Kind::Word => format!("{}.{n}", text.to_lowercase()),
                    Kind::Thing => format!("{}-{n}", text.to_lowercase()),
                };
                objects.push(Object {
                    id,
                    kind,
                    text,
                    x: x as u32,
                    y: y as u32,
                    fixed,
                    channel,
                    ..Object::default()
                });
            }
        }
    }
    Level {
        id: Named::new(id),
        width: rows.iter().map(Vec::len).max().unwrap_or(0) as u32,
        height: rows.len() as u32,
        objects,
        ..Level::default()
    }
}

/// A pack of these levels that states the current rules version.
pub fn pack(levels: Vec<Level>) -> Pack {
    Pack {
        id: "test".into(),
        name: "Test".into(),
        rules: Some(crate::model::RULES_VERSION),
        levels,
        ..Pack::default()
    }
}

/// Rule records of the sentences given as word-id paths ("miau.1 is.1 you.1 and.1 rock.1").
pub fn rules(level: &Level, paths: &[&str]) -> Vec<RuleView> {
    let mut out = Vec::new();
    for path in paths {
        let ids: Vec<String> = path.split_whitespace().map(str::to_string).collect();
        let obj = |id: &str| {
            level
                .objects
                .iter()
                .find(|o| o.id == id)
                .unwrap_or_else(|| panic!("no object {id}"))
        };
        let axis = if ids.len() > 1 && obj(&ids[0]).y == obj(&ids[1]).y {
            Axis::H
        } else {
            Axis::V
        };
        let is_at = ids.iter().position(|i| obj(i).text == "IS").expect("IS");
        let subjects: Vec<&String> = ids[..is_at]
            .iter()
            .filter(|i| obj(i).text != "AND")
            .collect();
        let preds: Vec<&String> = ids[is_at + 1..]
            .iter()
            .filter(|i| obj(i).text != "AND")
            .collect();
        for p in &preds {
            for s in &subjects {
                out.push(RuleView {
                    subject: obj(s).text.clone(),
                    predicate: obj(p).text.clone(),
                    axis,
                    words: ids.clone(),
                    subject_id: Some((*s).clone()),
                    predicate_id: Some((*p).clone()),
                });
            }
        }
    }
    out
}

/// A reset view where nothing changes and `paths` are the rules throughout.
pub fn quiet(level: &Level, paths: &[&str]) -> ResetView {
    let r = rules(level, paths);
    ResetView {
        initial_rules: r.clone(),
        rules: r,
        ..ResetView::default()
    }
}

/// Stage 3 of one level with a given reset view.
pub fn run(level: &Level, view: ResetView) -> Vec<Diagnostic> {
    let p = pack(vec![level.clone()]);
    super::analyse_with(&p, &[], &move |_| Some(view.clone()))
}

/// Only the diagnostics with `code`, as "CODE message" lines.
pub fn only(diags: &[Diagnostic], code: &str) -> Vec<String> {
    diags
        .iter()
        .filter(|d| d.code() == code)
        .map(|d| format!("{} {}: {}", d.code(), d.severity.as_str(), d.message))
        .collect()
}
