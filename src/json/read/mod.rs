//! Pack JSON in: the canonical format plus the lenient legacy forms of the
//! seeds' packs (palette values as plain strings, letter steps, lowercase
//! automaton and pair words, objects without `kind` or `id`, `introduces` as a
//! flat list).
//!
//! The reader reports what only JSON can get wrong: syntax (M106), shapes and
//! types (M202, M204), unknown keys (M203), bad steps (M218, M219), mechanics
//! (M240, M242), features (M229–M231) and the like. Everything the model can
//! still hold is left to stage 2 ([`crate::validate::validate`]), so one
//! mistake gives one diagnostic.

mod level;
mod mechanics;
mod pack;

use serde_json::{Map, Value};

use crate::diag::Diagnostic;
use crate::model::{Named, Pack};
use crate::span::{LineIndex, Span};
use crate::validate::suggest::{did_you_mean, or_list};

use super::attach_spans;

/// Read pack JSON into the model.
///
/// Returns `None` only when there is no pack to speak of (a syntax error, or a
/// top level that isn't an object). Otherwise the model holds everything that
/// could be read, and the diagnostics say what couldn't; run
/// [`crate::validate::validate`] on the model for the rest of stage 2, and
/// [`attach_spans`] to point its diagnostics into `text`.
pub fn from_json(text: &str) -> (Option<Pack>, Vec<Diagnostic>) {
    let text = &*without_bom(text);
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (None, vec![syntax_error(text, &e)]),
    };
    let mut r = Reader { diags: Vec::new() };
    let pack = match &value {
        Value::Object(top) => Some(r.pack(top)),
        _ => {
            r.diags.push(
                Diagnostic::new("M202", Span::default(), "The pack must be an object.")
                    .with_path(""),
            );
            None
        }
    };
    let mut diags = r.diags;
    attach_spans(text, &mut diags);
    (pack, diags)
}

/// The text with a leading UTF-8 byte order mark turned into three spaces:
/// editors on some systems save one, `.miau` files accept it, and JSON
/// doesn't allow it. Three spaces keep every byte offset where it was.
pub fn without_bom(text: &str) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => format!("   {rest}").into(),
        None => text.into(),
    }
}

/// M106 for a JSON syntax error, at the byte where serde_json stopped.
fn syntax_error(text: &str, e: &serde_json::Error) -> Diagnostic {
    let index = LineIndex::new(text);
    let line = e.line().saturating_sub(1);
    let mut offset = index
        .line_start(line)
        .map_or(text.len(), |s| s + e.column().saturating_sub(1))
        .min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let found = match text[offset..].chars().next() {
        None => "the end of the file".to_string(),
        Some(c) if c.is_whitespace() => "a space".to_string(),
        Some(c) => format!("`{c}`"),
    };
    let full = e.to_string();
    let detail = full
        .rsplit_once(" at line ")
        .map_or(full.as_str(), |(d, _)| d);
    let message = match detail.strip_prefix("expected ") {
        Some(what) => format!("Expected {what}, found {found}."),
        None if e.is_eof() => "Expected the rest of the JSON, found the end of the file.".into(),
        None => format!("Expected valid JSON, found {found}: {detail}."),
    };
    let end = offset + text[offset..].chars().next().map_or(0, char::len_utf8);
    Diagnostic::new("M106", Span::new(offset, end), message).with_path("")
}

/// The reader: the diagnostics found so far.
struct Reader {
    diags: Vec<Diagnostic>,
}

/// Where in the pack a value is: its path and, inside a level, the level id.
#[derive(Clone)]
struct At<'a> {
    path: String,
    level: Option<&'a str>,
}

impl<'a> At<'a> {
    pub(super) fn key(&self, k: &str) -> At<'a> {
        At {
            path: if self.path.is_empty() {
                k.to_string()
            } else {
                format!("{}.{k}", self.path)
            },
            level: self.level,
        }
    }
    pub(super) fn index(&self, i: usize) -> At<'a> {
        At {
            path: format!("{}[{i}]", self.path),
            level: self.level,
        }
    }
}

impl Reader {
    pub(super) fn push(&mut self, code: &str, at: &At<'_>, message: impl Into<String>) {
        let mut d = Diagnostic::new(code, Span::default(), message).with_path(at.path.clone());
        if let Some(l) = at.level {
            d = d.with_level(l);
        }
        self.diags.push(d);
    }

    pub(super) fn wrong_type(&mut self, at: &At<'_>, expected: &str) {
        let msg = format!("{} must be {expected}.", at.path);
        self.push("M202", at, msg);
    }

    /// M203 for keys the format doesn't define at pack, manifest or level level.
    pub(super) fn unknown_keys(
        &mut self,
        map: &Map<String, Value>,
        known: &[&str],
        at: &At<'_>,
        whose: &str,
    ) {
        for k in map.keys() {
            if known.contains(&k.as_str()) {
                continue;
            }
            let sugg = did_you_mean(k, known);
            let mean = if sugg.is_empty() {
                String::new()
            } else {
                format!(" Did you mean {}?", or_list(&sugg))
            };
            let msg = format!(
                "{whose}: unknown key {k}.{mean} A build that doesn't know a key ignores it, so this one does nothing."
            );
            self.push("M203", &at.key(k), msg);
        }
    }

    /// M204 for fields a closed record doesn't define.
    pub(super) fn unsupported(&mut self, map: &Map<String, Value>, known: &[&str], at: &At<'_>) {
        for k in map.keys() {
            if !known.contains(&k.as_str()) {
                let a = at.key(k);
                let msg = format!("{}: unsupported field.", a.path);
                self.push("M204", &a, msg);
            }
        }
    }

    pub(super) fn string(&mut self, v: Option<&Value>, at: &At<'_>) -> Option<String> {
        match v? {
            Value::String(s) => Some(s.clone()),
            _ => {
                self.wrong_type(at, "text");
                None
            }
        }
    }

    pub(super) fn uint(&mut self, v: Option<&Value>, at: &At<'_>) -> Option<u64> {
        let v = v?;
        match v.as_u64() {
            Some(n) => Some(n),
            None => {
                self.wrong_type(at, "a whole number");
                None
            }
        }
    }

    pub(super) fn boolean(&mut self, v: Option<&Value>, at: &At<'_>) -> Option<bool> {
        match v? {
            Value::Bool(b) => Some(*b),
            _ => {
                self.wrong_type(at, "true or false");
                None
            }
        }
    }

    pub(super) fn object<'v>(
        &mut self,
        v: &'v Value,
        at: &At<'_>,
        expected: &str,
    ) -> Option<&'v Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            _ => {
                self.wrong_type(at, expected);
                None
            }
        }
    }

    pub(super) fn array<'v>(
        &mut self,
        v: &'v Value,
        at: &At<'_>,
        expected: &str,
    ) -> Option<&'v Vec<Value>> {
        match v {
            Value::Array(a) => Some(a),
            _ => {
                self.wrong_type(at, expected);
                None
            }
        }
    }

    /// A list of strings; `upper` applies the loader's uppercasing.
    pub(super) fn words(
        &mut self,
        v: Option<&Value>,
        at: &At<'_>,
        expected: &str,
        upper: bool,
    ) -> Vec<Named> {
        let Some(v) = v else { return Vec::new() };
        let Some(list) = self.array(v, at, expected) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in list.iter().enumerate() {
            match item {
                Value::String(s) => {
                    out.push(Named::new(if upper { s.to_uppercase() } else { s.clone() }))
                }
                _ => self.wrong_type(&at.index(i), "an uppercase word"),
            }
        }
        out
    }
}
