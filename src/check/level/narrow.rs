//! Forced and narrow levels (M431): a level that leaves its player little
//! to try. Two measures, each an info:
//!
//! - **Narrow**: the states a player can reach without the lesson, counted
//!   by a claim's proof that ran out of them, or the whole level's, are
//!   fewer than [`NARROW_BELOW`]. A player who hasn't seen the idea finds
//!   the way by trying everything.
//! - **Forced**: the shortest route's first move is the only one after
//!   which the level can still be won: every other move is rejected or
//!   leaves the level unwinnable. The message counts how many moves in a
//!   row are forced so.
//!
//! The step count (M405, TRIVIAL) misses both: walking pads a route.

use super::Ctx;
use crate::check::report::{SearchFigures, SearchKind};
use crate::engine::{Input, Scratch, State, TurnResult};
use crate::solver::level::{Constraints, LevelSpace};
use crate::solver::{self, Limits, Progress, Space, Turn, Verdict};
use std::cell::Cell;

/// A level whose player can reach fewer states than this without its
/// lesson (or at all) is narrow: a few minutes of trying every move
/// covers it.
pub const NARROW_BELOW: u64 = 200;

/// The space of a level where a win ends a route like a loss: a search of
/// it that runs out of states has counted every state reachable from
/// reset on the way to a win.
#[derive(Debug, Clone)]
struct Exhaust<'g>(LevelSpace<'g>);

impl Space for Exhaust<'_> {
    fn action_count(&self) -> usize {
        self.0.action_count()
    }

    fn start(&self, out: &mut Vec<u32>) {
        self.0.start(out);
    }

    fn enter(&self, from: &[u32]) {
        self.0.enter(from);
    }

    fn step(&self, from: &[u32], action: usize, out: &mut Vec<u32>) -> Option<Turn> {
        let turn = self.0.step(from, action, out)?;
        Some(Turn {
            won: false,
            pruned: turn.pruned || turn.won,
            changed: turn.changed,
        })
    }
}

/// The space of a level from state `from` in which action `barred` is not
/// taken there: a win found is a route from `from` that starts with another
/// move. A node is the engine state's words and one word more, 0 at `from`
/// itself and 1 once a move is made, so that coming back to `from` later
/// leaves every move open.
#[derive(Debug, Clone)]
struct Detour<'g> {
    inner: LevelSpace<'g>,
    from: Vec<u32>,
    barred: usize,
    /// Whether the node of the last `enter` is `from` before any move.
    at_from: Cell<bool>,
}

impl Space for Detour<'_> {
    fn action_count(&self) -> usize {
        self.inner.action_count()
    }

    fn start(&self, out: &mut Vec<u32>) {
        out.extend_from_slice(&self.from);
        out.push(0);
    }

    fn enter(&self, node: &[u32]) {
        let (flag, state) = node.split_last().unwrap_or((&1, node));
        self.at_from.set(*flag == 0);
        self.inner.enter(state);
    }

    fn step(&self, node: &[u32], action: usize, out: &mut Vec<u32>) -> Option<Turn> {
        let at_from = self.at_from.get();
        if at_from && action == self.barred {
            return None;
        }
        let state = node.split_last().map_or(node, |(_, state)| state);
        let turn = self.inner.step(state, action, out)?;
        out.push(1);
        Some(Turn {
            // The flag word changes on the first move: no one-word hint then.
            changed: turn.changed.filter(|_| !at_from),
            ..turn
        })
    }
}

/// Runs one of this module's searches on `space` within `states` and the
/// run's memory.
fn run<S: Space + Clone + Send>(
    cx: &Ctx<'_>,
    space: &S,
    states: u64,
    progress: &mut dyn FnMut(Progress),
) -> solver::Outcome {
    let limits = Limits {
        states,
        memory: cx.memory,
    };
    solver::search(space, limits, cx.jobs, cx.cancel, progress)
}

/// Records the figures of a search [`run`] ran. One stopped at its budget
/// leaves the level not fully judged only when `judged` says its answer
/// was needed.
fn record(
    cx: &mut Ctx<'_>,
    kind: SearchKind,
    out: solver::Outcome,
    states: u64,
    judged: bool,
) -> (Verdict, u64) {
    match out.verdict {
        Verdict::Limit if judged => cx.report.complete = false,
        Verdict::Cancelled => {
            cx.report.complete = false;
            cx.report.cancelled = true;
        }
        _ => {}
    }
    cx.report.searches.push(SearchFigures {
        kind,
        verdict: out.verdict.clone(),
        expanded: out.expanded,
        stored: out.stored,
        budget: states,
        peak_bytes: out.peak_bytes,
    });
    (out.verdict, out.stored)
}

/// Whether a search explores the level without its lesson: a claim's
/// proof, not the solve or the searches every level gets. A lesson's
/// coverage search doesn't count: a mechanic such as an automaton acts on
/// every turn whatever the player does, so its space says nothing of the
/// player's room.
fn without_lesson(kind: &SearchKind) -> bool {
    !matches!(
        kind,
        SearchKind::Solve
            | SearchKind::WordsFrozen
            | SearchKind::HandsOff
            | SearchKind::NoRuleChange
            | SearchKind::Lesson(_)
            | SearchKind::WholeSpace
            | SearchKind::Opening(_)
    )
}

/// M431, narrow: the smallest space a search without the lesson ran out of,
/// else the whole level's when that is under [`NARROW_BELOW`] (counted by a
/// search that stops there, so a large level costs that many states).
pub(super) fn narrow(cx: &mut Ctx<'_>, progress: &mut dyn FnMut(Progress)) {
    let proof = cx
        .report
        .searches
        .iter()
        .filter(|f| without_lesson(&f.kind) && f.verdict == Verdict::Unsolved)
        .min_by_key(|f| f.stored)
        .map(|f| (f.stored, f.kind.clone()));
    let (stored, kind) = match proof {
        Some((stored, kind)) if stored < NARROW_BELOW => (stored, Some(kind)),
        _ => {
            let space = Exhaust(LevelSpace::new(&cx.game, Constraints::default()));
            let out = run(cx, &space, NARROW_BELOW, progress);
            match record(cx, SearchKind::WholeSpace, out, NARROW_BELOW, false) {
                (Verdict::Unsolved, stored) => (stored, None),
                _ => return,
            }
        }
    };
    let what = match &kind {
        Some(kind) => format!(
            "without its lesson a player can reach only {} (the {} ran out of states there)",
            crate::diag::wording::count(stored as usize, "state"),
            kind.describe()
        ),
        None => format!(
            "a player can reach only {} in the whole level",
            crate::diag::wording::count(stored as usize, "state")
        ),
    };
    let d = cx.diag(
        "M431",
        cx.level.span,
        format!(
            "Level {} is narrow: {what}, fewer than {NARROW_BELOW}. Trying every move finds the way without the idea; give the player room to be wrong in.",
            cx.id()
        ),
    );
    cx.push(d);
}

/// M431, forced: how many moves of `route` (the shortest), from the first
/// on, are each the only move after which the level can still be won.
pub(super) fn forced_opening(cx: &mut Ctx<'_>, route: &str, progress: &mut dyn FnMut(Progress)) {
    let inputs: Vec<Input> = route.chars().filter_map(Input::from_char).collect();
    let actions: Vec<Input> = LevelSpace::new(&cx.game, Constraints::default())
        .inputs()
        .to_vec();
    let (mut state, _) = cx.game.reset();
    let mut first: Option<String> = None;
    let mut forced = 0;
    for (k, &input) in inputs.iter().enumerate() {
        let Some(barred) = actions.iter().position(|&a| a == input) else {
            break;
        };
        if undone(cx, &state, &actions, input) {
            break;
        }
        let space = Detour {
            inner: LevelSpace::new(&cx.game, Constraints::default()),
            from: state.words().to_vec(),
            barred,
            at_from: Cell::new(false),
        };
        let out = run(cx, &space, cx.budget, progress);
        let kind = SearchKind::Opening(k + 1);
        if record(cx, kind, out, cx.budget, true).0 != Verdict::Unsolved {
            break;
        }
        if k == 0 {
            first = Some(alternatives(cx, &state, &actions, input));
        }
        forced += 1;
        let TurnResult::Accepted { state: next, .. } = cx.game.step(&state, input) else {
            break;
        };
        state = next;
    }
    let Some(first) = first else {
        return;
    };
    let moves: String = inputs.iter().take(forced).map(|i| i.letter()).collect();
    let message = if forced == 1 {
        format!(
            "the opening is forced: {moves} is the only first move after which the level can still be won ({first})"
        )
    } else {
        format!(
            "the opening is forced: its first {forced} moves ({moves}) are each the only move after which the level can still be won (first move: {first})"
        )
    };
    let d = cx.diag(
        "M431",
        cx.level.span,
        format!(
            "Level {}: {message}. A player who tries another move learns nothing but that it fails.",
            cx.id()
        ),
    );
    cx.push(d);
}

/// What the other moves from `state` do, besides `taken`: "U and L are
/// rejected, R leaves the level unwinnable".
fn alternatives(cx: &Ctx<'_>, state: &State, actions: &[Input], taken: Input) -> String {
    let mut sc = Scratch::default();
    let (mut rejected, mut losing) = (Vec::new(), Vec::new());
    for &a in actions.iter().filter(|&&a| a != taken) {
        match cx.game.step_with(state, a, &mut sc, false) {
            TurnResult::Accepted { .. } => losing.push(a.letter().to_string()),
            TurnResult::Rejected { .. } => rejected.push(a.letter().to_string()),
        }
    }
    let list = |v: &[String]| match v {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let mut parts = Vec::new();
    if !rejected.is_empty() {
        let verb = if rejected.len() == 1 { "is" } else { "are" };
        parts.push(format!("{} {verb} rejected", list(&rejected)));
    }
    if !losing.is_empty() {
        let verb = if losing.len() == 1 {
            "leaves"
        } else {
            "each leave"
        };
        parts.push(format!("{} {verb} the level unwinnable", list(&losing)));
    }
    parts.join("; ")
}

/// Whether some move from `state` other than `taken` can be undone by the
/// next one, back to `state`: then it loses nothing, and no search is
/// needed to know the move isn't forced (a step aside and back, on most
/// levels).
fn undone(cx: &Ctx<'_>, state: &State, actions: &[Input], taken: Input) -> bool {
    let mut sc = Scratch::default();
    actions.iter().filter(|&&a| a != taken).any(|&a| {
        let TurnResult::Accepted { state: aside, .. } = cx.game.step_with(state, a, &mut sc, false)
        else {
            return false;
        };
        actions.iter().any(|&b| {
            matches!(
                cx.game.step_with(&aside, b, &mut sc, false),
                TurnResult::Accepted { state: back, .. } if back == *state
            )
        })
    })
}
