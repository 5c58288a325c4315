//! The tree-sitter grammar of `.miau` packs, compiled from the committed
//! `src/parser.c`, with the queries editors use.
//!
//! ```
//! let mut parser = tree_sitter::Parser::new();
//! parser.set_language(&tree_sitter_miau::LANGUAGE.into()).unwrap();
//! let tree = parser.parse("pack p {\n}\n", None).unwrap();
//! assert!(!tree.root_node().has_error());
//! ```

use tree_sitter_language::LanguageFn;

unsafe extern "C" {
    fn tree_sitter_miau() -> *const ();
}

/// The language of `.miau` files, for `tree_sitter::Parser::set_language`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_miau) };

/// Every node type of the grammar, as `tree-sitter generate` wrote it.
pub const NODE_TYPES: &str = include_str!("../../src/node-types.json");

/// Syntax highlighting captures (the scopes of `grammar/miau.tmLanguage.json`).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");

/// Folding regions: every block.
pub const FOLDS_QUERY: &str = include_str!("../../queries/folds.scm");
