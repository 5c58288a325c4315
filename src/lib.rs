//! miau: the authoring toolchain for *Miau Is True* packs.
//!
//! The modules sit on floors, each using only its own floor and those below
//! (`ARCHITECTURE.md` draws them and says what each module owns), from the
//! top:
//! - shells: [`cli`] (the `miauc` command line), [`lsp`] (the language
//!   server), [`files`] (the file-system rules both follow); the only
//!   modules that touch files, the terminal, the process or the clock;
//! - editor: [`ide`], editor features as plain functions over byte offsets;
//! - pipeline: [`compile`], bytes to stages 1–3, and the gating both shells
//!   share;
//! - stage 4: [`check`] (replays, searches and their diagnostics) and
//!   [`render`] (SVG, PNG, GIF);
//! - play: [`analysis`] (stage 3), [`solver`] (searches over the engine),
//!   [`session`] (a play for people);
//! - engine: [`engine`], the rules (`docs/rules.md`) on a compact state;
//! - text: [`syntax`], [`lower`] (stage 1), [`validate`] (stage 2),
//!   [`json`], [`fmt`], [`record`], [`import`], [`share`], [`catalogue`];
//! - model: [`model`], the pack as the game's loader sees it;
//! - base: [`span`], [`diag`], [`suggest`], [`reference`], [`markdown`].

// Floor: shells
pub mod cli;
pub mod files;
pub mod lsp;

// Floor: editor
pub mod ide;

// Floor: pipeline
pub mod compile;

// Floor: stage4
pub mod check;
pub mod render;

// Floor: play
pub mod analysis;
pub mod session;
pub mod solver;

// Floor: engine
pub mod engine;

// Floor: text
pub mod catalogue;
pub mod fmt;
pub mod import;
pub mod json;
pub mod lower;
pub mod record;
pub mod share;
pub mod syntax;
pub mod validate;

// Floor: model
pub mod model;

// Floor: base
pub mod diag;
pub mod markdown;
pub mod reference;
pub mod span;
pub mod suggest;

// Outside the floors: the fuzz targets' bodies, for tests and fuzzing only.
#[cfg(feature = "testing")]
pub mod fuzz;
