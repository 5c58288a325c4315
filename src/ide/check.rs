//! The editor's check of one level.
//!
//! The solver-backed stage 4 (`miauc check`) is not part of this crate yet, so
//! the editor's check is the replay of the recorded solution through the
//! engine, reported as M410 when it doesn't win exactly on its last step, and
//! M416 when the level has errors that stop any check. When stage 4 lands this
//! is the one function to point at it.

use super::Analysis;
use crate::diag::{Diagnostic, Severity};
use crate::engine::{ReplayResult, replay};

/// The result of checking one level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOutcome {
    /// The level id.
    pub level: String,
    /// Whether the check found nothing wrong.
    pub passed: bool,
    /// One line for the author: "recorded solution wins in 15 steps".
    pub summary: String,
    /// Stage 4 diagnostics of this level.
    pub diagnostics: Vec<Diagnostic>,
}

/// Check the level `id`: `None` when there is no such level.
pub fn check_level(a: &Analysis, id: &str) -> Option<CheckOutcome> {
    let i = a.level_index(id)?;
    let level = a.level(i)?;
    let header = a.ast_levels().get(i).map(|l| l.block.header)?;
    let errors: Vec<&str> = a
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error && d.level.as_deref() == Some(id))
        .map(|d| d.code())
        .collect();
    if !errors.is_empty() || a.facts(i).is_none_or(|f| f.view.is_none()) {
        let mut codes = errors.clone();
        codes.dedup();
        let msg = format!(
            "Level {id} wasn't checked: fix its errors first ({}).",
            if codes.is_empty() {
                "the engine can't load it".to_string()
            } else {
                codes.join(", ")
            }
        );
        return Some(CheckOutcome {
            level: id.to_string(),
            passed: false,
            summary: "not checked: the level has errors".into(),
            diagnostics: vec![Diagnostic::new("M416", header, msg).with_level(id)],
        });
    }
    let Some(solution) = &level.check.solution else {
        return Some(CheckOutcome {
            level: id.to_string(),
            passed: true,
            summary: "no recorded solution to replay".into(),
            diagnostics: Vec::new(),
        });
    };
    let moves: String = solution
        .text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let n = moves.chars().count();
    let out = std::panic::catch_unwind(|| replay(level, &moves, true, &|_| None)).ok()?;
    let problem = match out.result {
        ReplayResult::Won { turns } if turns == n => None,
        ReplayResult::Won { turns } => Some(format!(
            "it wins on step {turns}, before its last step ({n})"
        )),
        ReplayResult::LostControl { turns } => {
            Some(format!("the last YOU is lost on step {turns}"))
        }
        ReplayResult::NotWon {
            stopped: Some((pos, ch, _)),
            ..
        } => Some(format!("step {pos} ({ch}) is blocked")),
        ReplayResult::NotWon { turns, .. } => Some(format!("it isn't won after its {turns} steps")),
    };
    Some(match problem {
        None => CheckOutcome {
            level: id.to_string(),
            passed: true,
            summary: format!("the recorded solution wins in {n} steps"),
            diagnostics: Vec::new(),
        },
        Some(why) => CheckOutcome {
            level: id.to_string(),
            passed: false,
            summary: format!("the recorded solution fails: {why}"),
            diagnostics: vec![
                Diagnostic::new(
                    "M410",
                    solution.span,
                    format!("Level {id}: the recorded solution doesn't replay: {why}."),
                )
                .with_level(id),
            ],
        },
    })
}

/// The rule changes along the recorded solution of level `id`, as `miauc replay --explain` prints them.
pub fn replay_level(a: &Analysis, id: &str) -> Option<String> {
    let level = a.level(a.level_index(id)?)?;
    let solution = level.check.solution.as_ref()?;
    std::panic::catch_unwind(|| replay(level, &solution.text, true, &|_| None).text).ok()
}
