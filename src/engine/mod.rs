//! The rules engine of `rules.md` on a compact state shared with the solver.
//!
//! [`Game::new`] compiles a [`crate::model::Level`] once; [`Game::reset`] and
//! [`Game::step`] work on [`State`] values, which are small, hashable and
//! cheap to clone, so the editor, the replay and the solver share one turn
//! function. [`Play`] adds the undo history of §10.2.

mod contacts;
pub mod events;
mod game;
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
#[doc(hidden)]
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

/// Median steps per second over several runs of each input string on its
/// level, from reset, restarting the route when it ends. Release builds only
/// give meaningful figures.
pub fn bench_steps(
    levels: &[(String, crate::model::Level, String)],
    runs: usize,
    steps: usize,
) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for (name, level, route) in levels {
        let game = Game::new(level);
        let inputs: Vec<Input> = route.chars().filter_map(Input::from_char).collect();
        if inputs.is_empty() {
            continue;
        }
        let mut sc = Scratch::default();
        let mut rep = TurnReport::default();
        let (start, _) = game.reset();
        let mut rates = Vec::new();
        for _ in 0..runs.max(1) {
            let t = std::time::Instant::now();
            let mut s = start.clone();
            let mut k = 0;
            for _ in 0..steps {
                match game.step_into(&s, inputs[k], &mut sc, false, &mut rep) {
                    Ok(state) if !rep.won => s = state,
                    _ => {
                        s = start.clone();
                        k = 0;
                        continue;
                    }
                }
                k += 1;
                if k == inputs.len() {
                    s = start.clone();
                    k = 0;
                }
            }
            let secs = t.elapsed().as_secs_f64().max(1e-9);
            rates.push(steps as f64 / secs);
        }
        rates.sort_by(|a, b| a.total_cmp(b));
        out.push((name.clone(), rates[rates.len() / 2]));
    }
    out
}
