//! The `.miau` front end: lexer, parser and typed AST with spans.
//!
//! [`parse`] turns text into an [`ast::File`] plus the stage 1 diagnostics it
//! found (M101–M114); [`crate::lower`] resolves the legend and builds the pack
//! model (M109–M110, M115). Comments are kept in [`ast::File::comments`] so the
//! formatter can put them back.

pub mod ast;
mod lexer;
mod parser;

pub use lexer::quote;
pub use parser::{LEVEL_STMTS, PACK_STMTS, TOP_BLOCKS, parse};

pub(crate) use lexer::is_word;
pub(crate) use parser::join_or;

/// Levenshtein distance over characters, compared without case.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    // Names are short; a long input can't be within distance 2 of any of them.
    if a.len().abs_diff(b.len()) > 2 {
        return 3;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Did-you-mean (catalogue 1.7): the candidates within edit distance 2 (1 for
/// names of 4 characters or fewer), compared without case; the best distance
/// wins and ties list up to three, in candidate order.
pub(crate) fn did_you_mean(name: &str, candidates: &[&str]) -> Vec<String> {
    let limit = if name.chars().count() <= 4 { 1 } else { 2 };
    let mut best = usize::MAX;
    let mut out: Vec<String> = Vec::new();
    for c in candidates {
        if c.eq_ignore_ascii_case(name) && *c == name {
            continue;
        }
        let d = edit_distance(name, c);
        if d > limit || d > best {
            continue;
        }
        if d < best {
            best = d;
            out.clear();
        }
        if out.len() < 3 && !out.iter().any(|o| o == c) {
            out.push(c.to_string());
        }
    }
    out
}

/// Text shown in a message: as is when printable, else escaped.
pub(crate) fn quote_text(s: &str) -> String {
    s.chars().flat_map(char::escape_debug).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_follows_the_catalogue() {
        let kws = ["level", "legend", "must-form", "automaton"];
        assert_eq!(did_you_mean("levl", &kws), ["level"]);
        assert_eq!(did_you_mean("must_form", &kws), ["must-form"]);
        assert_eq!(did_you_mean("automation", &kws), ["automaton"]);
        assert!(did_you_mean("zzz", &kws).is_empty());
        // Short names allow one edit only.
        assert!(did_you_mean("lvxl", &["level"]).is_empty());
    }
}
