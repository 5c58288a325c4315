//! Byte spans for loader-style paths in pack JSON (`levels[2].automata[0].pattern`).
//!
//! serde_json doesn't keep positions in a `Value`, and diagnostics must point
//! at the JSON value their `path` names (catalogue 1.2). This tiny scanner
//! walks the text once and records the span of every value under its path.
//! It never panics: on text that isn't JSON it simply records less.

use std::collections::HashMap;

use crate::diag::Diagnostic;
use crate::span::Span;

/// Deeper nesting than any pack has; stops runaway recursion on hostile input.
const MAX_DEPTH: usize = 256;

/// The span of the JSON value at `path` in `text`; for a path that doesn't
/// exist (a missing field), the span of its nearest existing ancestor; for
/// nothing at all, the start of the file.
pub fn locate(text: &str, path: &str) -> Span {
    let map = scan(text);
    lookup(&map, path)
}

/// Give every diagnostic that has a `path` but no span (the default, empty
/// span at 0) the span of its JSON value in `text`.
pub fn attach_spans(text: &str, diags: &mut [Diagnostic]) {
    if !diags
        .iter()
        .any(|d| d.path.is_some() && d.span == Span::default())
    {
        return;
    }
    let map = scan(text);
    for d in diags.iter_mut() {
        if d.span == Span::default()
            && let Some(p) = &d.path
        {
            d.span = lookup(&map, p);
        }
    }
}

fn lookup(map: &HashMap<String, Span>, path: &str) -> Span {
    let mut p = path;
    loop {
        if let Some(s) = map.get(p) {
            return *s;
        }
        // Strip the last segment: `.key` or `[i]`.
        match p.rfind(['.', '[']) {
            Some(i) => p = &p[..i],
            None => return map.get("").copied().unwrap_or_default(),
        }
    }
}

/// Map every value's path to its span.
pub(crate) fn scan(text: &str) -> HashMap<String, Span> {
    let mut s = Scanner {
        b: text.as_bytes(),
        text,
        i: 0,
        out: HashMap::new(),
    };
    let mut path = String::new();
    s.ws();
    s.value(&mut path, 0);
    s.out
}

struct Scanner<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
    out: HashMap<String, Span>,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Scan one value starting at `self.i` and record it under `path`.
    /// Returns false when the text isn't JSON here.
    fn value(&mut self, path: &mut String, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let start = self.i;
        let ok = match self.peek() {
            Some(b'{') => self.object(path, depth),
            Some(b'[') => self.array(path, depth),
            Some(b'"') => self.string().is_some(),
            Some(_) => {
                while self.i < self.b.len()
                    && !matches!(
                        self.b[self.i],
                        b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
                    )
                {
                    self.i += 1;
                }
                self.i > start
            }
            None => false,
        };
        if ok {
            self.out.insert(path.clone(), Span::new(start, self.i));
        }
        ok
    }

    /// Scan a string; returns its decoded text.
    fn string(&mut self) -> Option<String> {
        let start = self.i;
        self.i += 1;
        let mut escaped = false;
        while self.i < self.b.len() {
            let c = self.b[self.i];
            self.i += 1;
            match c {
                b'\\' => {
                    escaped = true;
                    self.i += 1;
                }
                b'"' => {
                    let raw = self.text.get(start..self.i)?;
                    return if escaped {
                        serde_json::from_str::<String>(raw).ok()
                    } else {
                        Some(raw[1..raw.len() - 1].to_string())
                    };
                }
                _ => {}
            }
        }
        None
    }

    fn object(&mut self, path: &mut String, depth: usize) -> bool {
        self.i += 1;
        self.ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return true;
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return false;
            }
            let Some(key) = self.string() else {
                return false;
            };
            self.ws();
            if self.peek() != Some(b':') {
                return false;
            }
            self.i += 1;
            self.ws();
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&key);
            let ok = self.value(path, depth + 1);
            path.truncate(len);
            if !ok {
                return false;
            }
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }

    fn array(&mut self, path: &mut String, depth: usize) -> bool {
        self.i += 1;
        self.ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return true;
        }
        let mut index = 0usize;
        loop {
            self.ws();
            let len = path.len();
            path.push('[');
            path.push_str(&index.to_string());
            path.push(']');
            let ok = self.value(path, depth + 1);
            path.truncate(len);
            if !ok {
                return false;
            }
            index += 1;
            self.ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return true;
                }
                _ => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_values() {
        let text = r#"{"levels": [{"id": "a\"b", "automata": [{"pattern": ["U", 3]}]}]}"#;
        let span = locate(text, "levels[0].automata[0].pattern[1]");
        assert_eq!(&text[span.range()], "3");
        let span = locate(text, "levels[0].id");
        assert_eq!(&text[span.range()], r#""a\"b""#);
        // A missing field falls back to its object.
        let span = locate(text, "levels[0].automata[0].phase");
        assert_eq!(&text[span.range()], r#"{"pattern": ["U", 3]}"#);
        assert_eq!(locate(text, "nothing").start, 0);
    }

    #[test]
    fn never_panics_on_broken_text() {
        for text in ["", "{", "[1,", "{\"a\":", "\"", "{\"a\\", "🐈"] {
            let _ = locate(text, "a[0]");
        }
        let deep = "[".repeat(10_000);
        let _ = locate(&deep, "");
    }
}
