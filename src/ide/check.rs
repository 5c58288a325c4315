//! The editor's check of one level: stage 4, the same code as `miauc check`
//! (recorded solution first, then the solver's searches), or M416 when the
//! level has errors that stop any check.

use super::Analysis;
use crate::diag::{Diagnostic, Severity};
use crate::engine::replay;
use std::sync::atomic::AtomicBool;

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
    /// The solver's shortest route, when it found one (what "Record
    /// solution" writes).
    pub route: Option<String>,
    /// The range the shortest route's length lies in, `(fewest, longest)`
    /// (equal once proven), when the level solves.
    pub shortest: Option<(usize, usize)>,
}

/// Check the level `id`: `None` when there is no such level. Setting `cancel`
/// stops the searches promptly (the outcome then says so).
pub fn check_level(a: &Analysis, id: &str, cancel: &AtomicBool) -> Option<CheckOutcome> {
    let i = a.level_index(id)?;
    let level = a.level(i)?;
    let pack = a.pack()?;
    let stopped = if crate::compile::stage3_skips(a.diagnostics())
        .is_none_or(|skip| skip.iter().any(|l| l == id))
    {
        crate::check::skipped(pack, id, a.diagnostics())
    } else if a.facts(i).is_none_or(|f| f.view.is_none()) {
        Some(crate::check::not_checked(
            id,
            level.span,
            "the engine can't load it",
        ))
    } else {
        None
    };
    if let Some(m416) = stopped {
        return Some(CheckOutcome {
            level: id.to_string(),
            passed: false,
            summary: "not checked: the level has errors".into(),
            diagnostics: vec![m416],
            route: None,
            shortest: None,
        });
    }
    let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::check::check_level(
            pack,
            level,
            i,
            crate::check::Options::default(),
            cancel,
            &mut |_| {},
        )
    }))
    .ok()?;
    let failing: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| matches!(d.severity, Severity::Error | Severity::Warning))
        .collect();
    let summary = match (&report.route, failing.first()) {
        (_, Some(d)) => format!("{} {}: {}", d.code(), d.name(), d.message),
        (Some(route), None) => match report.shortest_range() {
            Some((fewest, longest)) if fewest < longest => format!(
                "solved in {longest} steps, not proven shortest (the shortest takes {fewest} to {longest}): {route}"
            ),
            _ => format!(
                "solved in {}: {route}",
                crate::diag::wording::count(route.chars().count(), "step")
            ),
        },
        (None, None) => "checked".to_string(),
    };
    Some(CheckOutcome {
        level: id.to_string(),
        passed: failing.is_empty(),
        summary,
        shortest: report.shortest_range(),
        diagnostics: report.diagnostics,
        route: report.route,
    })
}

/// The rule changes and the events that matter along the recorded solution
/// of level `id`, as `miauc replay --explain` prints them.
pub fn replay_level(a: &Analysis, id: &str) -> Option<String> {
    let level = a.level(a.level_index(id)?)?;
    let solution = level.check.solution.as_ref()?;
    std::panic::catch_unwind(|| replay(level, &solution.text, true, &|_, _| None).text).ok()
}
