//! The recorded length against what the solve established: `steps` and
//! the recorded solution's length outside the range of the shortest (M411),
//! a recorded bound (`steps N at-least B`) the solve made obsolete (M411),
//! and a length inside a range not yet narrowed (M420).

use super::{Ctx, steps};
use crate::diag::Diagnostic;
use crate::span::Span;

/// M411 when a recorded length (`steps`, then the recorded solution's)
/// lies outside what the solve established, the shortest route taking
/// from `fewest` steps to the length of `route`, the best route known;
/// else, while that range is open, M420: the recorded length isn't proven
/// shortest.
pub(super) fn recorded_length(
    cx: &Ctx<'_>,
    span: Span,
    recorded: &[Option<usize>],
    fewest: usize,
    route: &str,
) -> Option<Diagnostic> {
    let id = cx.id();
    let k = route.len();
    let mut first = None;
    for r in recorded.iter().flatten().copied() {
        first.get_or_insert(r);
        let why = if fewest >= k && r != k {
            format!("the shortest solution takes {k} ({route})")
        } else if r > k {
            format!(
                "a route of {} wins ({route}), though the shortest isn't proven: it takes {fewest} to {k} steps",
                steps(k)
            )
        } else if r < fewest {
            format!(
                "no winning route has fewer than {fewest} steps; the shortest takes {fewest} to {k} ({route})"
            )
        } else {
            continue;
        };
        let mut d = cx.diag(
            "M411",
            span,
            format!("Level {id}: the level records {r} steps; {why}."),
        );
        if let Some(s) = &cx.level.check.solution {
            let title = if fewest >= k {
                "Replace the solution with the solver's shortest route"
            } else {
                "Replace the solution with the shortest route found"
            };
            d = d.with_fix(title, s.span, format!("\"{route}\""));
        }
        return Some(d);
    }
    if let Some(d) = recorded_bound(cx, span, fewest, route) {
        return Some(d);
    }
    let r = first.filter(|_| fewest < k)?;
    let n = cx.report.searches.first().map_or(0, |f| f.expanded);
    Some(cx.diag(
        "M420",
        span,
        format!(
            "Level {id} records {}, not proven shortest: the solve search stopped at {n} states (budget {}), so the shortest route takes {fewest} to {k} steps.",
            steps(r),
            cx.budget
        ),
    ))
}

/// M411 for a recorded bound (`steps N at-least B`) the solve made
/// obsolete: the shortest is proven now, which the bound says it isn't. A
/// bound below what the search ruled out is only weaker, and stands; one
/// above a winning route is above the recorded steps too, which is M411
/// on the steps already (or, above the steps themselves, stage 2's M237).
fn recorded_bound(cx: &Ctx<'_>, span: Span, fewest: usize, route: &str) -> Option<Diagnostic> {
    let b = cx.level.check.steps_at_least?;
    let k = route.len();
    if fewest < k {
        return None;
    }
    let recorded = match cx.level.check.steps {
        Some(n) => format!("{n} steps at least {b}"),
        None => format!("at least {b} steps"),
    };
    Some(cx.diag(
        "M411",
        span,
        format!(
            "Level {}: the level records {recorded}; the shortest is proven now: it takes {k} ({route}), so the bound no longer applies.",
            cx.id()
        ),
    ))
}
