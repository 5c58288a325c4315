//! The checks of one level, in the order of `diagnostics.md` §5.1 note D.

use super::report::{LevelReport, SearchFigures, SearchKind};
use super::{BUDGET_CAP, Options, TRIVIAL_BELOW, apply_allowance};
use crate::diag::Diagnostic;
use crate::engine::{Game, Input, Scratch, State, TurnResult};
use crate::model::{Level, Pack};
use crate::solver::level::{Constraints, route_text, search_level};
use crate::solver::{Limits, Progress, Shortest, Verdict};
use crate::span::Span;
use std::sync::atomic::AtomicBool;

mod events;
mod length;
pub(super) mod lesson;
pub(super) mod narrow;
pub use events::{forbidden_events, with_claim_fix, wrong_code};

/// How a recorded route fares on the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replay {
    /// It wins on its last step.
    Wins(State),
    /// Step `step` (1-based) is rejected; the first YOU thing was at `at`.
    Blocked {
        /// The step number.
        step: usize,
        /// Its letter.
        input: char,
        /// Where the (first) YOU thing stood.
        at: Option<(u8, u8)>,
    },
    /// The level is won at step `step`, before the route ends.
    WonEarly {
        /// The step number.
        step: usize,
    },
    /// No win after the whole route.
    NoWin,
}

/// Replays `route` (letters `U D L R W`, others ignored) from reset.
pub fn replay_route(game: &Game, route: &str) -> Replay {
    let inputs: Vec<Input> = route.chars().filter_map(Input::from_char).collect();
    let (mut state, _) = game.reset();
    let mut sc = Scratch::default();
    for (k, &input) in inputs.iter().enumerate() {
        match game.step_with(&state, input, &mut sc, false) {
            TurnResult::Accepted {
                state: next,
                report,
            } => {
                state = next;
                if report.won {
                    return if k + 1 == inputs.len() {
                        Replay::Wins(state)
                    } else {
                        Replay::WonEarly { step: k + 1 }
                    };
                }
            }
            TurnResult::Rejected { blocked, .. } => {
                let at = blocked
                    .first()
                    .and_then(|b| game.pos(&state, b.id))
                    .or_else(|| you_cell(game, &state));
                return Replay::Blocked {
                    step: k + 1,
                    input: input.letter(),
                    at,
                };
            }
        }
    }
    Replay::NoWin
}

/// The first YOU thing's cell.
fn you_cell(game: &Game, s: &State) -> Option<(u8, u8)> {
    let you = game.vocab.prop_bit(game.tok("YOU")?);
    let props = game.props(s);
    (0..game.len())
        .find(|&i| props[i] & you != 0)
        .and_then(|i| game.pos(s, i as u16))
}

/// The rules active when `route` wins (empty when it doesn't), as `X IS Y`.
pub fn rules_at_win(game: &Game, route: &str) -> Vec<String> {
    match replay_route(game, route) {
        Replay::Wins(s) => game
            .rules(&s)
            .pairs
            .iter()
            .map(|&r| game.rule_text(r))
            .collect(),
        _ => Vec::new(),
    }
}

/// The level's budget: its own `budget`, else the run's.
fn budget_of(level: &Level, options: Options) -> u64 {
    level.check.solver_budget.unwrap_or(options.budget).max(1)
}

/// What every check of one level shares: the level, its engine, its
/// budget and the report the checks fill.
pub(super) struct Ctx<'a> {
    pub(super) pack: &'a Pack,
    pub(super) level: &'a Level,
    pub(super) game: Game,
    pub(super) budget: u64,
    pub(super) memory: usize,
    pub(super) jobs: usize,
    pub(super) cancel: &'a AtomicBool,
    pub(super) report: LevelReport,
    /// The verdicts of this level's searches that ran to an answer (no
    /// route, or the shortest proven), by their constraints: a later search
    /// with the same constraints (the lesson coverage of FRAIL after
    /// `must-crumble`, of a pair after `must-pair`) takes the answer.
    pub(super) answered: Vec<(Constraints, Verdict)>,
}

impl Ctx<'_> {
    pub(super) fn id(&self) -> &str {
        &self.level.id.text
    }

    pub(super) fn diag(&self, code: &str, span: Span, message: String) -> Diagnostic {
        let mut d = Diagnostic::new(code, span, message).with_level(self.id());
        apply_allowance(self.pack, &mut d);
        d
    }

    pub(super) fn push(&mut self, d: Diagnostic) {
        self.report.diagnostics.push(d);
    }

    /// Runs one search and records its figures, or gives the answer of an
    /// earlier search of this level with the same constraints (the budget
    /// and the memory cap are the level's throughout), which then adds no
    /// figures: nothing ran. Only answers are kept; a search stopped at its
    /// budget or cancelled is run again, and a route not proven shortest
    /// isn't one search's whole answer.
    pub(super) fn search(
        &mut self,
        kind: SearchKind,
        constraints: Constraints,
        progress: &mut dyn FnMut(Progress),
    ) -> Verdict {
        if let Some((_, verdict)) = self.answered.iter().find(|(c, _)| *c == constraints) {
            return verdict.clone();
        }
        let limits = Limits {
            states: self.budget,
            memory: self.memory,
        };
        let out = search_level(
            &self.game,
            constraints.clone(),
            limits,
            self.jobs,
            self.cancel,
            progress,
        );
        let figures = SearchFigures {
            kind,
            verdict: out.verdict.clone(),
            expanded: out.expanded,
            stored: out.stored,
            budget: self.budget,
            peak_bytes: out.peak_bytes,
        };
        match out.verdict {
            Verdict::Limit => self.report.complete = false,
            Verdict::Cancelled => {
                self.report.complete = false;
                self.report.cancelled = true;
            }
            // The exact search stopped: the route found isn't proven
            // shortest, so the length checks can't all be judged.
            Verdict::Solved {
                shortest: Shortest::Bounded { .. },
                ..
            } => self.report.complete = false,
            Verdict::Solved { .. } | Verdict::Unsolved => {
                self.margin(&figures);
                self.answered.push((constraints, out.verdict.clone()));
            }
        }
        self.report.searches.push(figures);
        out.verdict
    }

    /// M413: a finished search that used 80% or more of its budget.
    fn margin(&mut self, f: &SearchFigures) {
        if f.expanded * 5 < f.budget * 4 {
            return;
        }
        let pct = f.expanded * 100 / f.budget.max(1);
        let what = f.kind.describe();
        let d = self.diag(
            "M413",
            self.level.span,
            format!(
                "Level {}: the {what} used {} of {} states ({pct}%). A small edit may push it past the budget.",
                self.id(),
                f.expanded,
                f.budget
            ),
        );
        let d = self.raise_fix(d);
        self.push(d);
    }

    /// The quick fix "Raise budget to double" when that stays under the cap.
    fn raise_fix(&self, d: Diagnostic) -> Diagnostic {
        let doubled = self.budget.saturating_mul(2);
        if doubled > BUDGET_CAP || self.level.board_span == Span::default() {
            return d;
        }
        d.with_fix(
            format!("Raise budget to {doubled}"),
            Span::point(self.level.board_span.start as usize),
            format!("budget {doubled}\n  "),
        )
    }

    pub(super) fn limit(&mut self, kind: &SearchKind, consequence: &str) {
        let f = self.report.searches.last().map_or(0, |f| f.expanded);
        let d = self.diag(
            "M402",
            self.level.span,
            format!(
                "Level {}: the {} stopped at {f} states (budget {}) without an answer, so {consequence}. Raise the budget, or shrink the open area or the number of loose words.",
                self.id(),
                kind.describe(),
                self.budget
            ),
        );
        let d = self.raise_fix(d);
        self.push(d);
    }

    pub(super) fn text(&self, route: &[u8]) -> String {
        let inputs = if self.game.automata.is_empty() {
            &Input::MOVES[..]
        } else {
            &[
                Input::Up,
                Input::Down,
                Input::Left,
                Input::Right,
                Input::Wait,
            ][..]
        };
        route_text(inputs, route)
    }

    /// M419: the search behind a `must-break`, `must-lose-word` or event
    /// claim reached its budget.
    fn unproven(&mut self, span: Span, claim: &str, search: &str) {
        let n = self.report.searches.last().map_or(0, |f| f.expanded);
        let d = self.diag(
            "M419",
            span,
            format!(
                "Level {}: {claim} isn't proven: {search} stopped at {n} states (budget {}). Only a search that runs out of states proves a claim.",
                self.id(),
                self.budget
            ),
        );
        let d = self.raise_fix(d);
        self.push(d);
    }

    pub(super) fn rules_list(&self, rules: &[String]) -> String {
        if rules.is_empty() {
            "none".into()
        } else {
            rules.join(", ")
        }
    }
}

/// Runs every stage 4 check of `level` (the `index`th of `pack`), in the
/// order of `diagnostics.md` §5.1 note D: the recorded solution, the plain
/// solve and what its route says, then the searches that matter once the
/// level solves, then the claims.
pub fn check_level(
    pack: &Pack,
    level: &Level,
    index: usize,
    options: Options,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> LevelReport {
    let mut cx = Ctx {
        pack,
        level,
        game: Game::new(level),
        budget: budget_of(level, options),
        memory: options.memory,
        jobs: options.search_jobs,
        cancel,
        report: LevelReport {
            level: level.id.text.clone(),
            index,
            complete: true,
            ..LevelReport::default()
        },
        answered: Vec::new(),
    };
    let recorded = Recorded::of(level);
    let recorded_wins = replay_recorded(&mut cx, &recorded);
    let Some((route, shortest)) = solve(&mut cx, progress) else {
        return finish(cx);
    };
    let best = best_route(&mut cx, &recorded, recorded_wins, &route, shortest);
    route_findings(&mut cx, &recorded, recorded_wins, &best);
    let bypassed = bypass(&mut cx, progress);
    if !bypassed && !level.automata.is_empty() && !cx.report.cancelled {
        hands_off(&mut cx, progress);
    }
    if !bypassed && !cx.report.cancelled {
        no_rule_change(&mut cx, progress);
    }
    must_form(&mut cx, progress);
    claims(&mut cx, progress);
    events::event_claims(&mut cx, progress);
    lesson_and_room(&mut cx, &best.text, progress);
    finish(cx)
}

/// The checks of what the level teaches, once the claims are judged:
/// lesson coverage (M430), then how much room the level leaves (M431).
fn lesson_and_room(cx: &mut Ctx<'_>, route: &str, progress: &mut dyn FnMut(Progress)) {
    lesson::coverage(cx, route, progress);
    if !cx.report.cancelled {
        narrow::narrow(cx, progress);
    }
    if !cx.report.cancelled {
        narrow::forced_opening(cx, route, progress);
    }
}

/// The level's recorded solution, if any, and where to report on it.
struct Recorded {
    /// The route as written.
    route: Option<String>,
    /// Its number of steps (letters that are inputs).
    len: Option<usize>,
    /// The solution's span, else the `steps` statement's, else the level's.
    span: Span,
}

impl Recorded {
    fn of(level: &Level) -> Recorded {
        let route = level.check.solution.as_ref().map(|s| s.text.clone());
        let len = route
            .as_ref()
            .map(|r| r.chars().filter(|c| Input::from_char(*c).is_some()).count());
        let steps = Some(level.check.steps_span).filter(|s| *s != Span::default());
        let span = level
            .check
            .solution
            .as_ref()
            .map(|s| s.span)
            .or(steps)
            .unwrap_or(level.span);
        Recorded { route, len, span }
    }
}

/// Step 1, the recorded solution (M410): microseconds, so first. Whether it wins.
fn replay_recorded(cx: &mut Ctx<'_>, recorded: &Recorded) -> bool {
    let (Some(route), Some(n)) = (&recorded.route, recorded.len) else {
        return false;
    };
    let why = match replay_route(&cx.game, route) {
        Replay::Wins(_) => return true,
        Replay::Blocked { step, input, at } => match at {
            Some((x, y)) => {
                format!("doesn't win: step {step} ({input}) is blocked at column {x}, row {y}.")
            }
            None => format!("doesn't win: step {step} ({input}) is blocked."),
        },
        Replay::WonEarly { step } => match n.saturating_sub(step) {
            1 => format!(
                "wins at step {step} of {n}: the last move is extra (`miauc check --fix` trims it)."
            ),
            k => format!(
                "wins at step {step} of {n}: the last {k} moves are extra (`miauc check --fix` trims them)."
            ),
        },
        Replay::NoWin => format!("doesn't win: it ends without a win after {n} steps."),
    };
    let d = cx.diag(
        "M410",
        recorded.span,
        format!("Level {}: the recorded solution {why}", cx.id()),
    );
    cx.push(d);
    false
}

/// Step 2, the plain solve: the route found and whether it is the shortest,
/// or `None` when the level can't be won (M401), the search stopped (LIMIT)
/// or was cancelled, and nothing more is checked.
fn solve(cx: &mut Ctx<'_>, progress: &mut dyn FnMut(Progress)) -> Option<(Vec<u8>, Shortest)> {
    match cx.search(SearchKind::Solve, Constraints::default(), progress) {
        Verdict::Solved { route, shortest } => Some((route, shortest)),
        Verdict::Unsolved => {
            let n = cx.report.searches.last().map_or(0, |f| f.stored);
            let why = (n as usize <= super::cause::CAUSE_STATES)
                .then(|| super::cause::why_unwinnable(&cx.game))
                .flatten()
                .map_or(String::new(), |w| format!(" {w}"));
            let d = cx.diag(
                "M401",
                cx.level.span,
                format!(
                    "Level {} can't be won: all {n} reachable states were explored.{why}",
                    cx.id()
                ),
            );
            cx.push(d);
            None
        }
        Verdict::Limit => {
            cx.limit(
                &SearchKind::Solve,
                "it isn't known whether the level can be won",
            );
            None
        }
        Verdict::Cancelled => None,
    }
}

/// The best route known and what is known of the shortest.
struct Best {
    /// The route, as letters.
    text: String,
    /// The fewest steps a route may have (the route's length when proven).
    fewest: usize,
    /// Whether `text` is a shortest route.
    proven: bool,
    /// The rules in force when it wins.
    rules: Vec<String>,
}

/// The best route known: the solver's, or the recorded solution when it
/// wins and the solver's is only bounded and longer. Recorded in the report.
fn best_route(
    cx: &mut Ctx<'_>,
    recorded: &Recorded,
    recorded_wins: bool,
    route: &[u8],
    shortest: Shortest,
) -> Best {
    let mut text = cx.text(route);
    let mut fewest = match shortest {
        Shortest::Proven => route.len(),
        Shortest::Bounded { fewest } => fewest as usize,
    };
    // A recorded solution that wins is a route too: when the solver's is
    // only bounded and longer, the recorded one is the best known.
    if let Some(r) = recorded.route.as_ref().filter(|_| recorded_wins)
        && let Some(n) = recorded
            .len
            .filter(|&n| n < route.len() && fewest < route.len())
    {
        text = r
            .chars()
            .filter_map(Input::from_char)
            .map(Input::letter)
            .collect();
        fewest = fewest.min(n);
    }
    let proven = fewest >= text.len();
    let rules = rules_at_win(&cx.game, &text);
    cx.report.route = Some(text.clone());
    cx.report.shortest = Some(if proven {
        Shortest::Proven
    } else {
        Shortest::Bounded {
            fewest: fewest as u32,
        }
    });
    cx.report.rules_at_win = rules.clone();
    Best {
        text,
        fewest,
        proven,
        rules,
    }
}

/// What the best route says: won at once (M406) or too short (M405), the
/// recorded length against the range (M411, M420), and overlapping moves
/// on the best and the recorded route (M412).
fn route_findings(cx: &mut Ctx<'_>, recorded: &Recorded, recorded_wins: bool, best: &Best) {
    let id = cx.id().to_string();
    let k = best.text.len();
    // M406, else M405 (a route that short bounds the shortest, proven or not).
    if won_at_start(&cx.game) {
        let d = cx.diag(
            "M406",
            cx.level.span,
            format!(
                "Level {id} is won on the first turn, whatever the player does. Rules at the win: {}.",
                cx.rules_list(&best.rules)
            ),
        );
        cx.push(d);
    } else if k < TRIVIAL_BELOW {
        let d = cx.diag(
            "M405",
            cx.level.span,
            format!(
                "Level {id} solves in {} ({}); a level needs at least {TRIVIAL_BELOW}.",
                steps(k),
                best.text
            ),
        );
        cx.push(d);
    }
    let recorded_steps = [cx.level.check.steps.map(|s| s as usize), recorded.len];
    if let Some(d) =
        length::recorded_length(cx, recorded.span, &recorded_steps, best.fewest, &best.text)
    {
        cx.push(d);
    }
    let what = if best.proven {
        "shortest route"
    } else {
        "route found"
    };
    let mut routes = vec![(what, best.text.clone())];
    if let Some(r) = recorded
        .route
        .as_ref()
        .filter(|r| recorded_wins && **r != best.text)
    {
        routes.push(("recorded solution", r.clone()));
    }
    for (what, r) in routes {
        if let Some(d) = overlap(cx, what, &r) {
            cx.push(d);
        }
    }
}

/// Step 3 begins: a win without moving any word (M403). Whether one exists.
fn bypass(cx: &mut Ctx<'_>, progress: &mut dyn FnMut(Progress)) -> bool {
    let constraints = Constraints {
        words_frozen: true,
        ..Constraints::default()
    };
    match cx.search(SearchKind::WordsFrozen, constraints, progress) {
        Verdict::Solved { route: r, .. } => {
            let t = cx.text(&r);
            let rules = rules_at_win(&cx.game, &t);
            let d = cx.diag(
                "M403",
                cx.level.span,
                format!(
                    "Level {} can be won without moving any word, in {}: {t}. Rules at the win: {}.",
                    cx.id(),
                    steps(r.len()),
                    cx.rules_list(&rules)
                ),
            );
            cx.push(d);
            true
        }
        Verdict::Limit => {
            cx.limit(&SearchKind::WordsFrozen, "a bypass isn't ruled out");
            false
        }
        Verdict::Unsolved | Verdict::Cancelled => false,
    }
}

/// A win without the player pushing a word, on a level with automata (M404).
fn hands_off(cx: &mut Ctx<'_>, progress: &mut dyn FnMut(Progress)) {
    let constraints = Constraints {
        hands_off: true,
        ..Constraints::default()
    };
    match cx.search(SearchKind::HandsOff, constraints, progress) {
        Verdict::Solved { route: r, .. } => {
            let t = cx.text(&r);
            let movers = automaton_words(&cx.game, &t);
            let d = cx.diag(
                "M404",
                cx.level.span,
                format!(
                    "Level {} can be won without the player pushing a word, in {}: {t}. {movers}.",
                    cx.id(),
                    steps(r.len()),
                ),
            );
            cx.push(d);
        }
        Verdict::Limit => cx.limit(&SearchKind::HandsOff, "a hands-off win isn't ruled out"),
        Verdict::Unsolved | Verdict::Cancelled => {}
    }
}

/// A win without changing any rule (M407).
fn no_rule_change(cx: &mut Ctx<'_>, progress: &mut dyn FnMut(Progress)) {
    let constraints = Constraints {
        no_rule_change: true,
        ..Constraints::default()
    };
    match cx.search(SearchKind::NoRuleChange, constraints, progress) {
        Verdict::Solved { route: r, .. } => {
            let t = cx.text(&r);
            let (start, _) = cx.game.reset();
            let reset: Vec<String> = cx
                .game
                .rules(&start)
                .pairs
                .iter()
                .map(|&r| cx.game.rule_text(r))
                .collect();
            let d = cx.diag(
                "M407",
                cx.level.span,
                format!(
                    "Level {} can be won without changing any rule, in {}: {t}. The rules stay {} throughout.",
                    cx.id(),
                    steps(r.len()),
                    cx.rules_list(&reset)
                ),
            );
            cx.push(d);
        }
        Verdict::Limit => cx.limit(
            &SearchKind::NoRuleChange,
            "a win without changing a rule isn't ruled out",
        ),
        Verdict::Unsolved | Verdict::Cancelled => {}
    }
}

/// One forbid search per `must-form` entry: a win without the rule means
/// the claim is wrong (M408); a search that stopped proves nothing (M409).
fn must_form(cx: &mut Ctx<'_>, progress: &mut dyn FnMut(Progress)) {
    let level = cx.level;
    let id = cx.id().to_string();
    for entry in &level.check.must_form {
        if cx.report.cancelled {
            break;
        }
        let Some(rule) = cx.game.parse_rule(&entry.text) else {
            continue;
        };
        let name = cx.game.rule_text(rule);
        let constraints = Constraints {
            forbid: vec![rule],
            ..Constraints::default()
        };
        match cx.search(SearchKind::Forbid(name.clone()), constraints, progress) {
            Verdict::Solved { route: r, .. } => {
                let t = cx.text(&r);
                let rules = rules_at_win(&cx.game, &t);
                let d = cx.diag(
                    "M408",
                    entry.span,
                    format!(
                        "Level {id}: must-form {name} isn't needed: won in {} without it ({t}). Rules at the win: {}.",
                        steps(r.len()),
                        cx.rules_list(&rules)
                    ),
                );
                cx.push(d);
            }
            Verdict::Limit => {
                let n = cx.report.searches.last().map_or(0, |f| f.expanded);
                let d = cx.diag(
                    "M409",
                    entry.span,
                    format!(
                        "Level {id}: must-form {name} isn't proven: the search without it stopped at {n} states (budget {}). Only a search that runs out of states proves a rule is needed.",
                        cx.budget
                    ),
                );
                let d = cx.raise_fix(d);
                cx.push(d);
            }
            Verdict::Unsolved | Verdict::Cancelled => {}
        }
    }
}

/// The `must-break` entries (one keep search each) and `must-lose-word` (a
/// no-word-loss search): a claim holds only when its search runs out of
/// states without a win (M417, M418); LIMIT proves nothing (M419).
fn claims(cx: &mut Ctx<'_>, progress: &mut dyn FnMut(Progress)) {
    let id = cx.id().to_string();
    let level = cx.level;
    for entry in &level.check.must_break {
        if cx.report.cancelled {
            return;
        }
        let Some(rule) = cx.game.parse_rule(&entry.text) else {
            continue;
        };
        let name = cx.game.rule_text(rule);
        let (start, _) = cx.game.reset();
        let reset = cx.game.rules(&start).pairs;
        if reset.binary_search(&rule).is_err() {
            let d = cx.diag(
                "M417",
                entry.span,
                format!(
                    "Level {id}: must-break {name} claims nothing: {name} isn't active at reset, so there's no rule to break. Rules at reset: {}.",
                    cx.rules_list(&reset.iter().map(|&r| cx.game.rule_text(r)).collect::<Vec<_>>())
                ),
            );
            cx.push(d);
            continue;
        }
        let kind = SearchKind::Keep(name.clone());
        let verdict = cx.search(
            kind,
            Constraints {
                keep: vec![rule],
                ..Constraints::default()
            },
            progress,
        );
        match verdict {
            Verdict::Solved { route: r, .. } => {
                let t = cx.text(&r);
                let d = cx.diag(
                    "M417",
                    entry.span,
                    format!(
                        "Level {id}: must-break {name} isn't needed: won in {} while {name} stays active ({t}).",
                        steps(r.len()),
                    ),
                );
                cx.push(d);
            }
            Verdict::Limit => cx.unproven(
                entry.span,
                &format!("must-break {name}"),
                &format!("the search keeping {name}"),
            ),
            Verdict::Unsolved | Verdict::Cancelled => {}
        }
    }
    if let Some(entry) = &level.check.must_lose_word {
        if cx.report.cancelled {
            return;
        }
        let verdict = cx.search(
            SearchKind::NoWordLoss,
            Constraints {
                no_word_loss: true,
                ..Constraints::default()
            },
            progress,
        );
        match verdict {
            Verdict::Solved { route: r, .. } => {
                let t = cx.text(&r);
                let d = cx.diag(
                    "M418",
                    entry.span,
                    format!(
                        "Level {id}: must-lose-word isn't needed: won in {} without destroying a word ({t}).",
                        steps(r.len()),
                    ),
                );
                cx.push(d);
            }
            Verdict::Limit => {
                cx.unproven(entry.span, "must-lose-word", "the search without word loss")
            }
            Verdict::Unsolved | Verdict::Cancelled => {}
        }
    }
}

fn finish(cx: Ctx<'_>) -> LevelReport {
    let mut report = cx.report;
    crate::diag::sort(&mut report.diagnostics);
    report
}

/// "1 step", "7 steps".
pub(crate) fn steps(k: usize) -> String {
    if k == 1 {
        "1 step".into()
    } else {
        format!("{k} steps")
    }
}

/// M406: every first turn the engine accepts ends in a win (and one is accepted).
fn won_at_start(game: &Game) -> bool {
    let (start, _) = game.reset();
    let mut sc = Scratch::default();
    let mut inputs = Input::MOVES.to_vec();
    if !game.automata.is_empty() {
        inputs.push(Input::Wait);
    }
    let mut accepted = 0;
    for input in inputs {
        if let TurnResult::Accepted { report, .. } = game.step_with(&start, input, &mut sc, false) {
            if !report.won {
                return false;
            }
            accepted += 1;
        }
    }
    accepted > 0
}

/// "Automaton A moves X, Y" for every automaton that pushes a word along
/// `route` (detailed replay), in automaton order.
fn automaton_words(game: &Game, route: &str) -> String {
    let (mut s, _) = game.reset();
    let mut moved: Vec<Vec<String>> = vec![Vec::new(); game.automata.len()];
    for input in route.chars().filter_map(Input::from_char) {
        let TurnResult::Accepted { state, report } = game.step(&s, input) else {
            break;
        };
        for m in &report.moved {
            let crate::engine::By::Automaton(ai) = m.by else {
                continue;
            };
            let (Some(list), Some(info)) =
                (moved.get_mut(ai as usize), game.ents.get(m.id as usize))
            else {
                continue;
            };
            if !info.word {
                continue;
            }
            if let Some(text) = game.noun(&s, m.id).map(|t| game.name(t).to_string())
                && !list.contains(&text)
            {
                list.push(text);
            }
        }
        s = state;
    }
    let parts: Vec<String> = game
        .automata
        .iter()
        .zip(&moved)
        .filter(|(_, words)| !words.is_empty())
        .map(|(a, words)| format!("Automaton {} moves {}", a.id, words.join(", ")))
        .collect();
    if parts.is_empty() {
        "No automaton needs to move a word".to_string()
    } else {
        parts.join("; ")
    }
}

/// M412: on the winning turn of `route`, a YOU thing that didn't move already
/// shared its cell with the winning noun, and the WIN rule that completes the
/// win formed on that turn.
fn overlap(cx: &Ctx<'_>, what: &str, route: &str) -> Option<Diagnostic> {
    let game = &cx.game;
    let inputs: Vec<Input> = route.chars().filter_map(Input::from_char).collect();
    let (last, prefix) = inputs.split_last()?;
    let (mut s, _) = game.reset();
    let mut sc = Scratch::default();
    for &i in prefix {
        match game.step_with(&s, i, &mut sc, false) {
            TurnResult::Accepted { state, .. } => s = state,
            TurnResult::Rejected { .. } => return None,
        }
    }
    let TurnResult::Accepted { state: t, report } = game.step_with(&s, *last, &mut sc, false)
    else {
        return None;
    };
    if !report.won {
        return None;
    }
    let win = game.tok("WIN")?;
    let you_bit = game.vocab.prop_bit(game.tok("YOU")?);
    let before = game.rules(&s).pairs;
    let after = game.rules(&t).pairs;
    let props = game.props(&s);
    for &(subject, predicate) in after.iter().filter(|r| r.1 == win) {
        if before.binary_search(&(subject, predicate)).is_ok() {
            continue;
        }
        for you in 0..game.len() {
            let you = you as u16;
            if props[you as usize] & you_bit == 0 || game.ents[you as usize].word {
                continue;
            }
            let (Some(p0), Some(p1)) = (game.pos(&s, you), game.pos(&t, you)) else {
                continue;
            };
            if p0 != p1 {
                continue;
            }
            let winner = (0..game.len()).map(|i| i as u16).find(|&w| {
                !game.ents[w as usize].word
                    && game.pos(&s, w) == Some(p0)
                    && game.noun(&s, w) == Some(subject)
            })?;
            let you_noun = game.noun(&s, you).map_or("YOU", |n| game.name(n));
            let (x, y) = p0;
            let goal = if winner == you {
                "its own cell".to_string()
            } else {
                format!("the {}", game.name(subject).to_lowercase())
            };
            let k = inputs.len();
            let rule = game.rule_text((subject, predicate));
            return Some(
                cx.diag(
                    "M412",
                    cx.level.span,
                    format!(
                        "Level {}: the {what} wins at step {k} by forming {rule} while {you_noun} already stands on {goal} at column {x}, row {y}. If the goal is meant to be out of reach, this is a shortcut.",
                        cx.id()
                    ),
                )
                .with_cell(u32::from(x), u32::from(y)),
            );
        }
    }
    None
}
