//! The statement lexer. It works on one line at a time: strings and comments
//! never span lines, so a mistake in one line cannot swallow the rest of the file.
//! Board rows and legend keys are not lexed here; the parser splits them on
//! whitespace itself, because a board symbol may be any non-space character.

use logos::{Lexer, Logos};

/// A raw token of a statement line.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\r]+")]
pub(crate) enum Raw {
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `,` (separates frail leftovers)
    #[token(",")]
    Comma,
    /// `// …` to the end of the line.
    #[regex(r"//[^\n]*", allow_greedy = true)]
    Comment,
    /// A double-quoted string; the flag says whether it is closed.
    #[token("\"", string)]
    Str(bool),
    /// Text in single quotes (M102), up to the last `'` of the line.
    #[token("'", single_quoted)]
    SingleQuoted,
    /// Any other run of characters up to whitespace, a brace, a quote, a comma or `//`.
    #[regex(r#"[^\s{}",'/\x00-\x1f\x7f\u{fffd}]"#, bare)]
    #[token("/", bare)]
    Bare,
}

/// Scans a string body after its opening quote. A backslash always takes the
/// next character, so `\"` does not close the string; escapes are checked later.
fn string(lex: &mut Lexer<Raw>) -> bool {
    let rest = lex.remainder();
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                lex.bump(i + 1);
                return true;
            }
            // The guard consumes the escaped character, so `\"` never closes the string.
            '\\' if chars.next().is_none() => break,
            _ => {}
        }
    }
    lex.bump(rest.len());
    false
}

/// Single-quoted text runs to the last `'` of the line, so an apostrophe inside
/// (`'The doorway's only one crate wide.'`) stays part of it.
fn single_quoted(lex: &mut Lexer<Raw>) -> bool {
    let rest = lex.remainder();
    let end = rest.rfind('\'').map(|i| i + 1).unwrap_or(rest.len());
    lex.bump(end);
    true
}

/// Extends a bare token; `//` starts a comment even without a space before it.
fn bare(lex: &mut Lexer<Raw>) -> bool {
    let rest = lex.remainder();
    let bytes = rest.as_bytes();
    let mut end = 0;
    for (i, c) in rest.char_indices() {
        let stop = c.is_whitespace()
            || c.is_control()
            || c == char::REPLACEMENT_CHARACTER
            || matches!(c, '{' | '}' | '"' | ',')
            || (c == '/' && bytes.get(i + 1) == Some(&b'/'));
        if stop {
            break;
        }
        end = i + c.len_utf8();
    }
    // A lone `/` followed by `/` is a comment; logos prefers the longer comment token.
    lex.bump(end);
    true
}

/// The kind of a bare token, by its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// `[A-Z][A-Z0-9_-]*`
    Word,
    /// `[a-z][a-z0-9._-]*`: ids, keywords, accents, channels.
    Ident,
    /// `[0-9]+`
    Num,
    /// `->`
    Arrow,
    /// Anything else.
    Other,
}

/// Whether `s` matches the word pattern `[A-Z][A-Z0-9_-]*`.
pub(crate) fn is_word(s: &str) -> bool {
    let mut b = s.bytes();
    matches!(b.next(), Some(b'A'..=b'Z'))
        && b.all(|c| matches!(c, b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'-'))
}

/// Classifies a bare token.
pub(crate) fn shape(s: &str) -> Shape {
    if is_word(s) {
        Shape::Word
    } else if s == "->" {
        Shape::Arrow
    } else if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) {
        Shape::Num
    } else {
        let mut b = s.bytes();
        if matches!(b.next(), Some(b'a'..=b'z'))
            && b.all(|c| matches!(c, b'a'..=b'z' | b'0'..=b'9' | b'.' | b'_' | b'-'))
        {
            Shape::Ident
        } else {
            Shape::Other
        }
    }
}

/// A problem inside a string body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BadEscape {
    /// Byte offset of the backslash, relative to the string token.
    pub offset: usize,
    /// The character after it.
    pub c: char,
}

/// Unescapes the body of a string token (`raw` includes the opening quote and,
/// when `closed`, the closing one). Invalid escapes keep both characters.
pub(crate) fn unescape(raw: &str, closed: bool) -> (String, Vec<BadEscape>) {
    let body_end = if closed && raw.len() >= 2 {
        raw.len() - 1
    } else {
        raw.len()
    };
    let body = raw.get(1..body_end).unwrap_or("");
    let mut out = String::with_capacity(body.len());
    let mut bad = Vec::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, e @ ('"' | '\\'))) => out.push(e),
            Some((_, e)) => {
                bad.push(BadEscape {
                    offset: i + 1,
                    c: e,
                });
                out.push('\\');
                out.push(e);
            }
            None => out.push('\\'),
        }
    }
    (out, bad)
}

/// Writes `value` as a double-quoted string with `\"` and `\\` escapes.
pub fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Result<Raw, ()>, &str)> {
        let mut lex = Raw::lexer(s);
        let mut out = Vec::new();
        while let Some(t) = lex.next() {
            out.push((t, lex.slice()));
        }
        out
    }

    #[test]
    fn strings_keep_escaped_quotes_and_apostrophes() {
        let toks = kinds(r#"hint "It's \"here\"" // done"#);
        assert_eq!(toks[0], (Ok(Raw::Bare), "hint"));
        assert_eq!(toks[1], (Ok(Raw::Str(true)), r#""It's \"here\"""#));
        assert_eq!(toks[2], (Ok(Raw::Comment), "// done"));
        let (v, bad) = unescape(toks[1].1, true);
        assert_eq!(v, r#"It's "here""#);
        assert!(bad.is_empty());
    }

    #[test]
    fn unterminated_string_runs_to_end_of_line() {
        let toks = kinds(r#"title "Crates move"#);
        assert_eq!(toks[1], (Ok(Raw::Str(false)), r#""Crates move"#));
        let toks = kinds(r#"title "ends in backslash\"#);
        assert_eq!(toks[1].0, Ok(Raw::Str(false)));
    }

    #[test]
    fn bare_tokens_split_at_commas_and_comments() {
        let toks = kinds("frail SAND -> SHOAL, SHOAL//x");
        let texts: Vec<_> = toks.iter().map(|t| t.1).collect();
        assert_eq!(texts, ["frail", "SAND", "->", "SHOAL", ",", "SHOAL", "//x"]);
    }

    #[test]
    fn invalid_escape_is_reported_with_its_character() {
        let (v, bad) = unescape(r#""a\nb""#, true);
        assert_eq!(v, r"a\nb");
        assert_eq!(bad, vec![BadEscape { offset: 2, c: 'n' }]);
    }

    #[test]
    fn control_characters_and_replaced_bytes_are_errors() {
        let toks = kinds("a\u{1}b");
        assert_eq!(toks[1].0, Err(()));
        let toks = kinds("a\u{fffd}b");
        assert_eq!(toks[1].0, Err(()));
    }

    #[test]
    fn shapes() {
        assert_eq!(shape("MIAU"), Shape::Word);
        assert_eq!(shape("must-form"), Shape::Ident);
        assert_eq!(shape("15"), Shape::Num);
        assert_eq!(shape("->"), Shape::Arrow);
        assert_eq!(shape("Miau"), Shape::Other);
        assert_eq!(quote(r#"a"b\c"#), r#""a\"b\\c""#);
    }
}
