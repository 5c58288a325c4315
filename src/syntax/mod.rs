//! The `.miau` front end: lexer, parser and typed AST with spans.
//!
//! [`parse`] turns text into an [`ast::File`] plus the stage 1 diagnostics it
//! found (M101–M114); [`crate::lower`] resolves the legend and builds the pack
//! model (M109–M110, M115). Comments are kept in [`ast::File::comments`] so the
//! formatter can put them back. [`parse_reusing`] is the same parse of an
//! edited text, taking each unchanged level block from an earlier one.

pub mod ast;
mod lexer;
mod parser;
mod shift;

pub use lexer::quote;
pub use parser::{LEVEL_STMTS, LevelBlocks, PACK_STMTS, Reparse, TOP_BLOCKS, parse, parse_reusing};

pub(crate) use lexer::is_word;
pub(crate) use parser::join_or;

/// Did-you-mean (catalogue 1.7) over `candidates`: [`crate::suggest`].
pub(crate) fn did_you_mean(name: &str, candidates: &[&str]) -> Vec<String> {
    crate::suggest::suggest(name, candidates)
        .into_iter()
        .map(str::to_string)
        .collect()
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
