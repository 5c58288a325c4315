//! miau: the authoring toolchain for *Miau Is True* packs.
//!
//! Layers, from the bottom (see `ARCHITECTURE.md`):
//! - [`span`], [`diag`]: positions and diagnostics as plain data;
//! - [`reference`]: the rules reference (`docs/rules.md`) by section;
//! - [`syntax`]: the `.miau` lexer, parser and typed AST with spans;
//! - [`model`]: the pack model the game's loader sees;
//! - [`lower`]: AST to model (legend resolution, stable ids);
//! - [`validate`]: stage 2, the loader's contract, on the model;
//! - [`json`]: canonical pack JSON out, pack JSON in;
//! - [`import`]: pack model back to readable `.miau`;
//! - [`fmt`]: the canonical formatter;
//! - [`engine`]: the rules engine (`rules.md`) on a compact state;
//! - [`solver`]: the breadth-first solver, generic and on the engine;
//! - [`session`]: a play for people: undo, restart, facing, event lines;
//! - [`render`]: the board as SVG, PNG and animated GIF;
//! - [`check`]: stage 4, the searches and their diagnostics (M401–M420);
//! - [`catalogue`]: the Markdown catalogue of a set of packs;
//! - [`compile`]: the pipeline the shells call;
//! - [`ide`]: editor features as plain functions over byte offsets;
//! - [`files`]: the file-system rules both shells follow (walks, bounded
//!   reads, atomic writes in their lane);
//! - [`lsp`]: the language server shell (`miauc lsp`);
//! - [`cli`]: the `miauc` command line (with `lsp` and `files`, the only
//!   modules here that do I/O).

pub mod analysis;
pub mod catalogue;
pub mod check;
pub mod cli;
pub mod compile;
pub mod diag;
pub mod engine;
pub mod files;
pub mod fmt;
#[cfg(feature = "testing")]
pub mod fuzz;
pub mod ide;
pub mod import;
pub mod json;
pub mod lower;
pub mod lsp;
pub mod markdown;
pub mod model;
pub mod record;
pub mod reference;
pub mod render;
pub mod session;
pub mod share;
pub mod solver;
pub mod span;
pub mod suggest;
pub mod syntax;
pub mod validate;
