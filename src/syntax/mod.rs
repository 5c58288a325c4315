//! The `.miau` front end: lexer, parser and typed AST with spans.
