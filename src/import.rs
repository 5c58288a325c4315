//! Pack model back to readable `.miau` source (`miauc import`).
//!
//! The output is what an author would write: the pack header, palette,
//! glossary, one pack-level legend chosen automatically, and every level with
//! its metadata, mechanics and a column-aligned board. Building it again gives
//! the canonical JSON of the imported pack, provided the pack's object ids
//! follow the compiler's scheme (things `crate-1`, words `is.1`, numbered per
//! noun or word in reading order); other ids are renumbered, because `.miau`
//! has no place for them.
//!
//! Legend keys: each thing noun (and each noun with a channel) gets one
//! character: the lowercase first letter of the noun when free, else another
//! letter of the noun, else any free lowercase letter, else a symbol; past
//! those 56, two characters (`a0` … `z9`, then `aa` …), so any number of
//! things gets a distinct ASCII key. Keys are never uppercase (that would
//! read as a word), never `.` (empty) or `+` (stacks).

pub mod keke;
pub mod xsb;

use std::fmt::Write as _;

use crate::model::{Allowance, Introduces, Kind, Level, Object, Pack, Step};

/// Symbols tried once every lowercase letter is taken.
const SYMBOLS: &[char] = &[
    '#', '$', '@', '&', '*', '~', '%', '=', '?', '^', ':', ';', '<', '>', '|', '_', '0', '1', '2',
    '3', '4', '5', '6', '7', '8', '9', '\'', '`', ',', '-',
];

/// Write `pack` as `.miau` source.
pub fn to_miau(pack: &Pack) -> String {
    let mut out = String::new();
    header(pack, &mut out);
    palette(pack, &mut out);
    glossary(pack, &mut out);
    let legend = Legend::choose(pack);
    legend.write(&mut out);
    for level in &pack.levels {
        level_block(level, &legend, &mut out);
    }
    out
}

/// What `.miau` can't write of `pack`, one message per place, naming the
/// pack JSON path: text with a line break (a `.miau` string is one line, with
/// only `\"` and `\\` escapes), an `allow` code that isn't one token, and a
/// word twice in one cell (a stack names each word once). [`to_miau`] of a
/// pack with any of these would not build, so `miauc import` refuses it and
/// writes nothing.
pub fn unwritable(pack: &Pack) -> Vec<String> {
    let mut out = Vec::new();
    for (path, value) in pack.texts() {
        if value.contains(['\n', '\r']) {
            out.push(format!(
                "{path} holds a line break, which .miau text can't hold; join its lines with a space"
            ));
        }
    }
    let level_allows = pack.levels.iter().enumerate().flat_map(|(i, l)| {
        let c = &l.check;
        c.allow_bypass
            .iter()
            .chain(c.allow_hands_off.iter())
            .chain(c.allow.iter())
            .map(move |a| (format!("levels[{i}].allow"), a))
    });
    let pack_allows = pack.allow.iter().map(|a| ("manifest.allow".to_string(), a));
    for (at, a) in pack_allows.chain(level_allows) {
        let token = !a.code.text.is_empty()
            && a.code
                .text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !token {
            out.push(format!(
                "{at}: the code {:?} isn't one word, so .miau can't write it; use a code such as M403 or a name such as bypass",
                a.code.text
            ));
        }
    }
    for (i, l) in pack.levels.iter().enumerate() {
        let mut words: Vec<(u32, u32, &str)> = l
            .objects
            .iter()
            .filter(|o| o.kind == Kind::Word)
            .map(|o| (o.y, o.x, o.text.as_str()))
            .collect();
        words.sort_unstable();
        for w in words.windows(2) {
            if w[0] == w[1] {
                out.push(format!(
                    "levels[{i}] ({}): two {} words at column {}, row {}; a .miau cell names a word once, so remove one",
                    l.id.text, w[0].2, w[0].1, w[0].0
                ));
            }
        }
    }
    out.dedup();
    out
}

/// A copy of `pack` with every level's objects in reading order (row,
/// column, then list order) and ids in the compiler's scheme: things
/// `<noun lowercased>-<n>`, words `<text lowercased>.<n>`, numbered from 1 per
/// noun or word in reading order. This is the pack that building the imported
/// source gives back, so `to_json(&with_compiler_ids(p)) == build(to_miau(p))`.
pub fn with_compiler_ids(pack: &Pack) -> Pack {
    let mut out = pack.clone();
    for level in &mut out.levels {
        level.objects.sort_by_key(|o| (o.y, o.x));
        let mut counts: std::collections::HashMap<(Kind, String), u32> =
            std::collections::HashMap::new();
        for o in &mut level.objects {
            let stem = o.text.to_lowercase();
            let n = counts.entry((o.kind, stem.clone())).or_insert(0);
            *n += 1;
            o.id = match o.kind {
                Kind::Thing => format!("{stem}-{n}"),
                Kind::Word => format!("{stem}.{n}"),
            };
        }
    }
    out
}

/// A `.miau` string literal: double quotes, `\"` and `\\` escaped.
fn quote(s: &str) -> String {
    let mut q = String::with_capacity(s.len() + 2);
    q.push('"');
    for c in s.chars() {
        if matches!(c, '"' | '\\') {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// Write a block of `keyword args` statements with the arguments aligned.
fn statements(out: &mut String, indent: &str, rows: &[(&str, String)]) {
    let width = rows.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (k, v) in rows {
        if v.is_empty() {
            let _ = writeln!(out, "{indent}{k}");
        } else {
            let _ = writeln!(out, "{indent}{k:width$} {v}");
        }
    }
}

fn allow_row(a: &Allowance) -> (&'static str, String) {
    ("allow", format!("{} {}", a.code.text, quote(&a.reason)))
}

fn header(pack: &Pack, out: &mut String) {
    let _ = writeln!(out, "pack {} {{", pack.id);
    let mut rows = vec![
        ("name", quote(&pack.name)),
        ("version", quote(&pack.version)),
        ("engine", pack.engine.to_string()),
    ];
    if let Some(r) = pack.rules {
        rows.push(("rules", r.to_string()));
    }
    if let Some(w) = &pack.world {
        let mut v = format!("glyph {}", quote(&w.glyph));
        if let Some(t) = &w.tagline {
            let _ = write!(v, " tagline {}", quote(t));
        }
        if let Some(a) = &w.accent {
            let _ = write!(v, " accent {a}");
        }
        rows.push(("world", v));
    }
    if !pack.vocabulary.is_empty() {
        let words: Vec<&str> = pack.vocabulary.iter().map(|w| w.text.as_str()).collect();
        rows.push(("vocabulary", words.join(" ")));
    }
    rows.extend(pack.allow.iter().map(allow_row));
    statements(out, "  ", &rows);
    out.push_str("}\n");
}

fn palette(pack: &Pack, out: &mut String) {
    if pack.palette.is_empty() {
        return;
    }
    out.push_str("\npalette {\n");
    let width = pack
        .palette
        .iter()
        .map(|e| e.noun.text.len())
        .max()
        .unwrap_or(0);
    for e in &pack.palette {
        let mut line = format!("  {:width$} {}", e.noun.text, quote(&e.glyph));
        if let Some(f) = &e.faces {
            let _ = write!(line, " faces {f}");
        }
        if let Some(f) = &e.fallback {
            let _ = write!(line, " fallback {}", quote(f));
        }
        if e.terrain {
            line.push_str(" terrain");
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("}\n");
}

fn glossary(pack: &Pack, out: &mut String) {
    if pack.glossary.is_empty() {
        return;
    }
    out.push_str("\nglossary {\n");
    let width = pack
        .glossary
        .iter()
        .map(|e| e.word.text.len())
        .max()
        .unwrap_or(0);
    for e in &pack.glossary {
        let _ = writeln!(
            out,
            "  {:width$} accent {} describe {}",
            e.word.text,
            e.accent,
            quote(&e.describe)
        );
    }
    out.push_str("}\n");
}

/// The pack-level legend: one key per (noun, channel) of the pack's things.
struct Legend {
    entries: Vec<(String, Option<String>, String)>,
}

impl Legend {
    fn choose(pack: &Pack) -> Legend {
        let mut entries: Vec<(String, Option<String>, String)> = Vec::new();
        let mut taken: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
        for level in &pack.levels {
            for o in reading_order(level) {
                if o.kind != Kind::Thing
                    || entries
                        .iter()
                        .any(|(n, c, _)| *n == o.text && *c == o.channel)
                {
                    continue;
                }
                let lower: Vec<char> = o
                    .text
                    .chars()
                    .filter(char::is_ascii_alphabetic)
                    .map(|c| c.to_ascii_lowercase())
                    .collect();
                let single = lower
                    .iter()
                    .copied()
                    .chain('a'..='z')
                    .chain(SYMBOLS.iter().copied())
                    .map(String::from);
                // Boards are ASCII: past the single characters, a lowercase
                // letter and a digit or letter (26 × 36 more keys), then
                // longer ones, always distinct.
                let double = ('a'..='z')
                    .flat_map(|a| ('0'..='9').chain('a'..='z').map(move |b| format!("{a}{b}")));
                let key = single
                    .chain(double)
                    .find(|c| !taken.contains(c))
                    .unwrap_or_else(|| format!("k{}", taken.len()));
                taken.insert(key.clone());
                entries.push((o.text.clone(), o.channel.clone(), key));
            }
        }
        Legend { entries }
    }

    fn key(&self, o: &Object) -> Option<&str> {
        self.entries
            .iter()
            .find(|(n, c, _)| *n == o.text && *c == o.channel)
            .map(|e| e.2.as_str())
    }

    fn write(&self, out: &mut String) {
        if self.entries.is_empty() {
            return;
        }
        out.push_str("\nlegend {\n");
        for (noun, channel, key) in &self.entries {
            match channel {
                Some(c) => {
                    let _ = writeln!(out, "  {key} {noun} channel {c}");
                }
                None => {
                    let _ = writeln!(out, "  {key} {noun}");
                }
            }
        }
        out.push_str("}\n");
    }
}

/// The level's objects in reading order (row, column, then list order, which
/// is the stack order).
fn reading_order(level: &Level) -> Vec<&Object> {
    let mut objs: Vec<&Object> = level.objects.iter().collect();
    objs.sort_by_key(|o| (o.y, o.x));
    objs
}

fn introduces_args(i: &Introduces) -> String {
    let mut parts: Vec<String> = i.words.iter().map(|w| w.text.clone()).collect();
    parts.extend(i.ideas.iter().map(|s| quote(s)));
    parts.join(" ")
}

fn pattern_letters(steps: &[Step]) -> String {
    steps.iter().map(|s| s.letter()).collect()
}

fn level_block(level: &Level, legend: &Legend, out: &mut String) {
    let _ = writeln!(out, "\nlevel {} {{", level.id.text);
    let mut rows: Vec<(&str, String)> = Vec::new();
    if let Some(t) = &level.title {
        rows.push(("title", quote(t)));
    }
    if let Some(c) = &level.category {
        rows.push(("category", c.text.clone()));
    }
    if !level.introduces.is_empty() {
        rows.push(("introduces", introduces_args(&level.introduces)));
    }
    if !level.reuses.is_empty() {
        rows.push(("reuses", introduces_args(&level.reuses)));
    }
    if let Some(h) = &level.hint {
        rows.push(("hint", quote(h)));
    }
    let check = &level.check;
    if let Some(s) = &check.solution {
        rows.push(("solution", quote(&s.text)));
    }
    // `.miau` writes the bound after the length it qualifies; a bound
    // without a length (pack JSON allows it) has no statement to go in.
    match (check.steps, check.steps_at_least) {
        (Some(s), Some(b)) => rows.push(("steps", format!("{s} at-least {b}"))),
        (Some(s), None) => rows.push(("steps", s.to_string())),
        (None, _) => {}
    }
    // One statement per rule: `must-form` and `must-break` take one string.
    for r in &check.must_form {
        rows.push(("must-form", quote(&r.text)));
    }
    for r in &check.must_break {
        rows.push(("must-break", quote(&r.text)));
    }
    if check.must_lose_word.is_some() {
        rows.push(("must-lose-word", String::new()));
    }
    for c in &check.must_happen {
        let args: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
        rows.push((c.kind.keyword(), args.join(" ")));
    }
    if let Some(b) = check.solver_budget {
        rows.push(("budget", b.to_string()));
    }
    rows.extend(
        check
            .allow_bypass
            .iter()
            .chain(check.allow_hands_off.iter())
            .chain(check.allow.iter())
            .map(allow_row),
    );
    if !level.terrain.is_empty() {
        let nouns: Vec<&str> = level.terrain.iter().map(|t| t.text.as_str()).collect();
        rows.push(("terrain", nouns.join(" ")));
    }
    for a in &level.automata {
        let mut v = format!("{} property {}", a.id.text, a.property.text);
        if let Some(s) = &a.subject {
            let _ = write!(v, " subject {}", s.text);
        }
        if let Some(p) = a.phase {
            let _ = write!(v, " phase {p}");
        }
        let _ = write!(v, " pattern {}", quote(&pattern_letters(&a.pattern)));
        rows.push(("automaton", v));
    }
    for p in &level.pairs {
        let words: Vec<&str> = p.words.iter().map(|w| w.text.as_str()).collect();
        let mut v = format!("{} effect {}", words.join(" "), p.effect);
        if p.enter {
            v.push_str(" enter");
        }
        rows.push(("pair", v));
    }
    if let Some(f) = &level.frail {
        let leaves: Vec<String> = f
            .leaves
            .iter()
            .map(|(a, b)| format!("{} -> {}", a.text, b.text))
            .collect();
        rows.push(("frail", leaves.join(", ")));
    }
    statements(out, "  ", &rows);
    if !rows.is_empty() {
        out.push('\n');
    }
    board(level, legend, out);
    out.push_str("}\n");
}

/// The cell text of one object inside a board cell.
fn part(o: &Object, legend: &Legend) -> String {
    match o.kind {
        Kind::Word if o.fixed => format!("{}!", o.text),
        Kind::Word => o.text.clone(),
        Kind::Thing => legend
            .key(o)
            .map(String::from)
            .unwrap_or_else(|| "?".into()),
    }
}

fn board(level: &Level, legend: &Legend, out: &mut String) {
    // An invalid pack may claim any size; a board larger than the loader
    // allows can't be written usefully, and allocating it could exhaust memory.
    let side = crate::validate::limits::MAX_BOARD_SIDE;
    let (w, h) = (
        level.width.min(side) as usize,
        level.height.min(side) as usize,
    );
    let mut cells: Vec<Vec<String>> = vec![vec![String::new(); w]; h];
    for o in &level.objects {
        let (x, y) = (o.x as usize, o.y as usize);
        if let Some(cell) = cells.get_mut(y).and_then(|row| row.get_mut(x)) {
            if !cell.is_empty() {
                cell.push('+');
            }
            cell.push_str(&part(o, legend));
        }
    }
    for row in &mut cells {
        for cell in row.iter_mut() {
            if cell.is_empty() {
                cell.push('.');
            }
        }
    }
    let widths: Vec<usize> = (0..w)
        .map(|x| {
            cells
                .iter()
                .map(|r| r[x].chars().count())
                .max()
                .unwrap_or(1)
        })
        .collect();
    out.push_str("  board {\n");
    for row in &cells {
        let mut line = String::from("    ");
        for (x, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if x + 1 < w {
                let pad = widths[x] - cell.chars().count() + 1;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("  }\n");
}

#[cfg(test)]
mod tests;
