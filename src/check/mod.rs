//! Stage 4: the check (`diagnostics.md` §5, M401–M431).
//!
//! Per level, in the order of note D: replay the recorded solution (M410,
//! microseconds), the plain solve (M401, M402, M405, M406, M411, M412), then
//! the searches that matter only for a level that solves: words frozen
//! (M403), hands-off (M404), no rule change (M407), one forbid search per
//! `must-form` entry (M408, M409), one keep search per `must-break` entry
//! (M417, M419), the no-word-loss search for `must-lose-word` (M418,
//! M419) and one search per claim over events, forbidding its event
//! (`must-lose`, `must-crumble`, …: M421–M426, M419); then lesson
//! coverage, one search per mechanic the level introduces (M430), and how
//! much room the level leaves (M431); then the pack-wide M414, M415 and
//! M416.
//! No I/O: the shell reads files, prints, and owns the cancel flag.

mod cause;
mod level;
mod report;

pub use level::lesson::{Mechanic, introduced};
pub use level::narrow::NARROW_BELOW;
pub(crate) use level::steps;
pub use level::{
    Replay, check_level, forbidden_events, replay_route, rules_at_win, with_claim_fix, wrong_code,
};
pub use report::{
    Coverage, LessonResult, LevelReport, SearchFigures, SearchKind, shortest_json, shortest_text,
};

use crate::diag::{Diagnostic, Severity, lookup};
use crate::model::{Allowance, Pack};
use crate::solver::Progress;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

/// The default state budget per search: the solver's, the default memory
/// cap's worth of states (see [`crate::solver::DEFAULT_BUDGET`]).
pub const DEFAULT_BUDGET: u64 = crate::solver::DEFAULT_BUDGET;

/// The CI cap on a level's budget (the one stage 2 enforces, M238); quick
/// fixes never propose more.
pub const BUDGET_CAP: u64 = crate::validate::limits::DEFAULT_BUDGET_CAP;

/// Shortest solutions under this many steps are TRIVIAL (M405).
pub const TRIVIAL_BELOW: usize = 6;

/// A world needs a challenge level of at least this many steps (M415).
pub const LONG_CHALLENGE: usize = 25;

/// Options of a check run.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The budget of a level that doesn't set its own (`budget`).
    pub budget: u64,
    /// Bytes the searches of a run may hold together ([`check_levels`]
    /// shares them); one search needing more on its own ends in LIMIT.
    pub memory: usize,
    /// Threads each search runs on (the result is the one of one thread).
    pub search_jobs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: DEFAULT_BUDGET,
            memory: crate::solver::DEFAULT_MEMORY,
            search_jobs: 1,
        }
    }
}

/// The allowance a level (or, for `None`, the pack) makes for `code`, if any.
pub fn allowance<'p>(pack: &'p Pack, level: Option<&str>, code: &str) -> Option<&'p Allowance> {
    pack.allowance(level, code)
}

/// Downgrades an allowed warning to info with "(allowed: reason)" (§1.4).
pub fn apply_allowance(pack: &Pack, d: &mut Diagnostic) {
    if d.severity == Severity::Error {
        return;
    }
    if let Some(a) = allowance(pack, d.level.as_deref(), d.info.code) {
        if d.severity == Severity::Warning {
            d.severity = Severity::Info;
        }
        d.message = format!("{} (allowed: {})", d.message, a.reason.trim());
    }
}

/// M416 for a level stages 3 and 4 skipped, naming the codes that stopped it.
pub fn skipped(pack: &Pack, level: &str, earlier: &[Diagnostic]) -> Option<Diagnostic> {
    skipped_levels(pack, &[level], earlier).pop()
}

/// M416 for each of these levels (in the order given), from one pass over
/// the earlier diagnostics: a pack with thousands of broken levels costs
/// the levels plus the diagnostics, not their product.
pub fn skipped_levels(pack: &Pack, levels: &[&str], earlier: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut codes: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for d in earlier {
        if d.severity == Severity::Error
            && let Some(l) = d.level.as_deref()
        {
            codes.entry(l).or_default().insert(d.code());
        }
    }
    // The first level of an id, as `Pack::level` finds it.
    let mut spans: BTreeMap<&str, crate::span::Span> = BTreeMap::new();
    for l in &pack.levels {
        spans.entry(l.id.text.as_str()).or_insert(l.span);
    }
    levels
        .iter()
        .filter_map(|&level| {
            let span = *spans.get(level)?;
            let list = match codes.get(level) {
                Some(c) if !c.is_empty() => c.iter().copied().collect::<Vec<_>>().join(", "),
                _ => "the pack doesn't load".to_string(),
            };
            Some(not_checked(level, span, &list))
        })
        .collect()
}

/// The one M416: level `level` (at `span`, its header) wasn't checked, and
/// `why` says what stopped it (the error codes, or what couldn't load).
pub fn not_checked(level: &str, span: crate::span::Span, why: &str) -> Diagnostic {
    Diagnostic::new(
        "M416",
        span,
        format!("Level {level} wasn't checked: fix its errors first ({why})."),
    )
    .with_level(level)
}

/// M414: allowances of fully checked levels (and of the pack) whose
/// diagnostic didn't fire, among everything stages 1 to 4 reported.
pub fn unneeded_allowances(pack: &Pack, checked: &[&str], all: &[Diagnostic]) -> Vec<Diagnostic> {
    let fired = |level: Option<&str>, code: &str| {
        all.iter()
            .any(|d| d.level.as_deref() == level && d.info.code == code)
    };
    let mut out = Vec::new();
    for l in &pack.levels {
        if !checked.contains(&l.id.text.as_str()) {
            continue;
        }
        let allows = l
            .check
            .allow
            .iter()
            .chain(l.check.allow_bypass.iter())
            .chain(l.check.allow_hands_off.iter());
        for a in allows {
            let Some(info) = lookup(&a.code.text) else {
                continue;
            };
            if info.code == "M414" || fired(Some(&l.id.text), info.code) {
                continue;
            }
            let flag = flag_name(info.code).unwrap_or(info.name);
            out.push(
                Diagnostic::new(
                    "M414",
                    a.span,
                    format!(
                        "Level {} allows {flag}, but it has no {}. Remove the allowance.",
                        l.id.text,
                        info.name.replace('-', " ")
                    ),
                )
                .with_level(l.id.text.clone())
                .with_fix("Remove the allowance", a.span, ""),
            );
        }
    }
    out
}

/// The capitals the world builders used for a stage 4 flag.
pub fn flag_name(code: &str) -> Option<&'static str> {
    Some(match code {
        "M401" => "UNSOLVED",
        "M402" => "LIMIT",
        "M403" => "BYPASS",
        "M404" => "HANDS-OFF",
        "M405" => "TRIVIAL",
        "M406" => "WON-AT-START",
        "M407" => "SKIPPABLE",
        "M412" => "WON-WHILE-OVERLAPPING",
        "M430" => "LESSON-SKIPPABLE",
        _ => return None,
    })
}

/// M415: a world pack whose solved challenge levels are all shorter than
/// [`LONG_CHALLENGE`]; reported only once every challenge level has solved.
pub fn world_quality(pack: &Pack, reports: &[LevelReport]) -> Option<Diagnostic> {
    pack.world.as_ref()?;
    let challenges: Vec<&crate::model::Level> = pack
        .levels
        .iter()
        .filter(|l| l.category.as_ref().is_some_and(|c| c.text == "challenge"))
        .collect();
    if challenges.is_empty() {
        return None;
    }
    let mut lengths = Vec::new();
    for l in &challenges {
        let r = reports.iter().find(|r| r.level == l.id.text)?;
        lengths.push((l.id.text.as_str(), r.route.as_ref()?.len()));
    }
    if lengths.iter().any(|&(_, k)| k >= LONG_CHALLENGE) {
        return None;
    }
    let list: Vec<String> = lengths
        .iter()
        .map(|(id, k)| format!("{id} (challenge) solves in {k}"))
        .collect();
    Some(Diagnostic::new(
        "M415",
        pack.span,
        format!(
            "World {} has no challenge level of {LONG_CHALLENGE} steps or more: {}.",
            pack.id,
            list.join(", ")
        ),
    ))
}

/// Checks the levels at `indices` of `pack` on up to `jobs` threads. The
/// reports come back in `indices` order whatever the scheduling, so output is
/// deterministic. `progress` receives each search's progress (from any thread).
///
/// `options.memory` is the cap of the whole run: the searches running at
/// once draw on one [`crate::solver::pool::Pool`] of that size, in level
/// order, so their total stays under it and every verdict is the one of
/// `jobs == 1` (see the pool's module for why). A level whose search is
/// evicted to make room for an earlier one is checked again from the start.
pub fn check_levels(
    pack: &Pack,
    indices: &[usize],
    options: Options,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(Progress) + Sync),
) -> Vec<LevelReport> {
    let slots: Vec<Mutex<Option<LevelReport>>> = indices.iter().map(|_| Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let pool = crate::solver::pool::Pool::new(options.memory);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, indices.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&index) = indices.get(k) else {
                        break;
                    };
                    let Some(level) = pack.levels.get(index) else {
                        continue;
                    };
                    let _ticket = crate::solver::pool::enter(&pool, k);
                    let report = loop {
                        let report =
                            check_level(pack, level, index, options, cancel, &mut |p| progress(p));
                        if !pool.take_evicted(k) {
                            break report;
                        }
                        pool.wait_to_restart(k);
                    };
                    if let Ok(mut slot) = slots[k].lock() {
                        *slot = Some(report);
                    }
                }
            });
        }
    });
    slots
        .into_iter()
        .filter_map(|m| m.into_inner().ok().flatten())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Level, Named, World};

    fn pack(challenges: &[&str]) -> Pack {
        let mut pack = Pack {
            id: "w".into(),
            world: Some(World::default()),
            ..Pack::default()
        };
        for id in challenges {
            pack.levels.push(Level {
                id: Named::new(*id),
                category: Some(Named::new("challenge")),
                ..Level::default()
            });
        }
        pack.levels.push(Level {
            id: Named::new("easy"),
            category: Some(Named::new("required")),
            ..Level::default()
        });
        pack
    }

    fn solved(level: &str, k: usize) -> LevelReport {
        LevelReport {
            level: level.into(),
            route: Some("R".repeat(k)),
            ..LevelReport::default()
        }
    }

    #[test]
    fn world_needs_a_long_challenge_once_all_are_solved() {
        let p = pack(&["a", "b"]);
        let d = world_quality(&p, &[solved("a", 10), solved("b", 24), solved("easy", 40)])
            .expect("M415");
        assert_eq!(d.code(), "M415");
        assert!(
            d.message.contains("a (challenge) solves in 10"),
            "{}",
            d.message
        );
        assert!(world_quality(&p, &[solved("a", 10), solved("b", 25)]).is_none());
        // Not every challenge solved yet: no verdict.
        assert!(world_quality(&p, &[solved("a", 10)]).is_none());
        // Not a world pack.
        let mut p = p;
        p.world = None;
        assert!(world_quality(&p, &[solved("a", 1), solved("b", 1)]).is_none());
    }

    /// A recorded bound against a proven shortest of 4 steps: any bound is
    /// stale (the length is proven now), and a plain `steps 4` is right.
    /// (One above the steps it qualifies is stage 2's M237 first, which
    /// keeps the level from a `check` run: this calls the level's check
    /// directly.)
    #[test]
    fn a_recorded_bound_is_held_against_a_proven_shortest() {
        let m411 = |steps: &str| -> Vec<String> {
            let src = format!(
                "pack p {{\n  name \"P\"\n  version \"1.0.0\"\n  engine 1\n}}\n\nlevel l {{\n  title \"L\"\n  {steps}\n  board {{\n    MIAU IS YOU . FLAG IS WIN\n    @ . . . f . .\n  }}\n}}\n"
            );
            let pack = crate::compile::compile(&src, crate::compile::SourceKind::Miau)
                .pack
                .expect("the pack builds");
            let report = check_level(
                &pack,
                &pack.levels[0],
                0,
                Options::default(),
                &std::sync::atomic::AtomicBool::new(false),
                &mut |_| {},
            );
            report
                .diagnostics
                .iter()
                .filter(|d| d.code() == "M411")
                .map(|d| d.message.clone())
                .collect()
        };
        assert_eq!(
            m411("steps 4 at-least 6"),
            [
                "Level l: the level records 4 steps at least 6; the shortest is proven now: it takes 4 (RRRR), so the bound no longer applies."
            ]
        );
        assert_eq!(
            m411("steps 4 at-least 2"),
            [
                "Level l: the level records 4 steps at least 2; the shortest is proven now: it takes 4 (RRRR), so the bound no longer applies."
            ]
        );
        assert!(m411("steps 4").is_empty());
    }

    #[test]
    fn flags_name_the_stage_4_codes() {
        assert_eq!(flag_name("M403"), Some("BYPASS"));
        assert_eq!(flag_name("M412"), Some("WON-WHILE-OVERLAPPING"));
        assert_eq!(flag_name("M301"), None);
    }
}
