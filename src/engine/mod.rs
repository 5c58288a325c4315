//! The rules engine of `rules.md` on a compact state shared with the solver.
//!
//! [`Game::new`] compiles a [`crate::model::Level`] once; [`Game::reset`] and
//! [`Game::step`] work on [`State`] values, which are small, hashable and
//! cheap to clone, so the editor, the replay and the solver share one turn
//! function. [`Play`] adds the undo history of §10.2.

mod contacts;
pub mod events;
mod game;
mod layers;
mod mechanics;
mod movement;
mod parse;
mod play;
mod props;
mod render;
mod replay;
mod report;
mod reset;
mod scratch;
mod search;
mod state;
#[cfg(any(test, feature = "testing"))]
pub mod testkit;
mod turn;
mod vocab;

#[cfg(test)]
mod proptests;

pub use game::{Auto, EntId, EntInfo, Game, PairDef};
pub use parse::{Axis, RuleRecord, Rules, Sentence};
pub use play::Play;
pub use render::KeyOf;
pub use replay::{ReplayOutput, ReplayResult, replay, replay_to};
pub use report::*;
pub use scratch::Scratch;
pub use state::State;
pub use vocab::{Class, Tok, Vocab};
