//! `miauc solve`: one level's shortest route, with the searches' figures.
//! The Ctrl-C flag and the progress line are `check`'s too
//! ([`super::stage4`]).

use super::clock::search_level_on_clock;
use super::read_source;
use super::stage4::{CANCEL, SolveFormat, install_cancel, level_hint, note, with_progress};
use crate::check::{self, Options};
use crate::compile::{self, Compiled, SourceKind};
use crate::diag::Severity;
use crate::diag::render::{self, SourceFile};
use crate::engine::{Game, Tok};
use crate::solver::level::{Constraints, LevelSpace, route_text, search_level};
use crate::solver::{LimitKind, Limits, Outcome, Shortest, Verdict};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `miauc solve`.
#[derive(Debug, Clone)]
pub struct SolveArgs {
    /// The pack file.
    pub file: PathBuf,
    /// The level id.
    pub level: String,
    /// State budget.
    pub budget: Option<u64>,
    /// Rules that may never be active.
    pub forbid: Vec<String>,
    /// A rule that must form before the win counts.
    pub require: Vec<String>,
    /// Rules that must stay active at every parse point.
    pub keep: Vec<String>,
    /// No word may be destroyed.
    pub no_word_loss: bool,
    /// Wall-clock seconds after which the search stops in LIMIT.
    pub timeout: Option<f64>,
    /// Threads the search runs on (default: all cores).
    pub jobs: Option<usize>,
    /// Output format.
    pub format: SolveFormat,
}

/// `miauc solve`: the shortest route of one level; exit 0 when solved, 1 when
/// UNSOLVED or LIMIT, 2 on usage errors.
pub fn solve(args: &SolveArgs) -> u8 {
    let compiled = match compile_level(args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let Some(level) = compiled.pack.as_ref().and_then(|p| p.level(&args.level)) else {
        return 2;
    };
    let game = Game::new(level);
    let constraints = match constraints_of(&game, args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if let Err(code) = refuse_vacuous(&game, &constraints, &args.level) {
        return code;
    }
    let search = search_name(&game, &constraints);
    install_cancel();
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let budget = args
        .budget
        .or(level.check.solver_budget)
        .unwrap_or(check::DEFAULT_BUDGET);
    let limits = Limits {
        states: budget,
        memory: Options::default().memory,
    };
    let start = Instant::now();
    let (out, limit) = run_search(&game, constraints, limits, jobs, args.timeout);
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let solved = Solved {
        level: &args.level,
        game: &game,
        out: &out,
        limit,
        search,
        budget,
        secs,
    };
    match args.format {
        SolveFormat::Human => print_human(&solved),
        SolveFormat::Json => print_json(&solved),
    }
    match out.verdict {
        Verdict::Solved { .. } => 0,
        Verdict::Cancelled => 130,
        Verdict::Unsolved | Verdict::Limit => 1,
    }
}

/// Reads and compiles `args.file`, refusing (with the exit code) a file that
/// can't be read, a level that isn't there, and a level with errors: a level
/// the game wouldn't load (stage 1–2 errors of its own or of the whole pack)
/// has no meaningful route, so the errors are shown instead of a search.
fn compile_level(args: &SolveArgs) -> Result<Compiled, u8> {
    let (text, mut diags) = match read_source(&args.file) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("miauc: {e}");
            return Err(2);
        }
    };
    let name = args.file.display().to_string();
    let compiled = compile::compile(&text, SourceKind::of_path(&name));
    if compiled
        .pack
        .as_ref()
        .and_then(|p| p.level(&args.level))
        .is_none()
    {
        eprintln!(
            "miauc: {name}: no level {}{}",
            args.level,
            level_hint(std::slice::from_ref(&args.file), &args.level)
        );
        return Err(2);
    }
    diags.extend(compiled.diagnostics.iter().cloned());
    diags.retain(|d| {
        d.severity == Severity::Error && d.level.as_deref().is_none_or(|l| l == args.level)
    });
    if !diags.is_empty() {
        let file = SourceFile::new(&name, &text);
        eprint!("{}", render::human(&file, &diags, render::Style::default()));
        eprintln!(
            "miauc: level {} has errors; fix them before solving it",
            args.level
        );
        return Err(1);
    }
    Ok(compiled)
}

/// The constraints `--forbid`, `--require`, `--keep` and `--no-word-loss`
/// ask for, each rule read with the level's words (exit 2 on one that
/// isn't a rule of the level).
fn constraints_of(game: &Game, args: &SolveArgs) -> Result<Constraints, u8> {
    let mut constraints = Constraints {
        no_word_loss: args.no_word_loss,
        ..Constraints::default()
    };
    for (list, into) in [
        (&args.forbid, &mut constraints.forbid),
        (&args.require, &mut constraints.require),
        (&args.keep, &mut constraints.keep),
    ] {
        for text in list {
            match game.parse_rule(text) {
                Some(r) => into.push(r),
                None => {
                    eprintln!(
                        "miauc: \"{text}\" isn't a rule of level {}: write SUBJECT IS PREDICATE with words the level uses",
                        args.level
                    );
                    return Err(2);
                }
            }
        }
    }
    Ok(constraints)
}

/// Refuses (exit 2) constraints that leave nothing to search: a forbidden
/// rule active at reset, or a kept one that isn't, where "unsolved,
/// states: 0" would read as a proof.
fn refuse_vacuous(game: &Game, constraints: &Constraints, level: &str) -> Result<(), u8> {
    let reset = LevelSpace::new(game, Constraints::default())
        .reset_rules()
        .to_vec();
    let rule_list = |rules: &[(Tok, Tok)]| -> String {
        if rules.is_empty() {
            "none".into()
        } else {
            let names: Vec<String> = rules.iter().map(|&r| game.rule_text(r)).collect();
            names.join(", ")
        }
    };
    if let Some(&r) = constraints
        .forbid
        .iter()
        .find(|r| reset.binary_search(r).is_ok())
    {
        eprintln!(
            "miauc: --forbid \"{}\" proves nothing on level {}: the rule is active at reset, so every state breaks the constraint. Forbid a rule that isn't active at reset, or use --keep to search for wins that keep it",
            game.rule_text(r),
            level
        );
        return Err(2);
    }
    if let Some(&r) = constraints
        .keep
        .iter()
        .find(|r| reset.binary_search(r).is_err())
    {
        eprintln!(
            "miauc: --keep \"{}\" proves nothing on level {}: the rule isn't active at reset (rules at reset: {})",
            game.rule_text(r),
            level,
            rule_list(&reset)
        );
        return Err(2);
    }
    Ok(())
}

/// Which search this is, named as `check` names its searches, so the counts
/// compare with the check's line for the same search: `solve` when
/// unconstrained.
fn search_name(game: &Game, constraints: &Constraints) -> String {
    let mut named: Vec<String> = Vec::new();
    named.extend(
        constraints
            .forbid
            .iter()
            .map(|&r| format!("forbid {}", game.rule_text(r))),
    );
    named.extend(
        constraints
            .keep
            .iter()
            .map(|&r| format!("keep {}", game.rule_text(r))),
    );
    named.extend(
        constraints
            .require
            .iter()
            .map(|&r| format!("require {}", game.rule_text(r))),
    );
    if constraints.no_word_loss {
        named.push("no-word-loss".into());
    }
    if named.is_empty() {
        "solve".to_string()
    } else {
        named.join(", ")
    }
}

/// Runs the search under `--timeout`, and names the limit that ran out, in
/// the author's terms. On a clock, the shortest-route search gets its
/// share of it and an unconstrained solve that stops without a route gets
/// the best-first passes for the rest ([`search_level_on_clock`]); Ctrl-C
/// stops either.
fn run_search(
    game: &Game,
    constraints: Constraints,
    limits: Limits,
    jobs: usize,
    timeout: Option<f64>,
) -> (Outcome, Option<String>) {
    let clock = timeout
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(1e9)));
    let (mut out, clock_ran_out) = with_progress(Some(limits.states), || {
        let progress = &mut |p| note(p);
        match clock {
            Some(clock) => {
                let timed = search_level_on_clock(
                    game,
                    constraints,
                    limits,
                    clock,
                    jobs,
                    &CANCEL,
                    progress,
                );
                (timed.outcome, timed.timed_out)
            }
            None => (
                search_level(game, constraints, limits, jobs, &CANCEL, progress),
                false,
            ),
        }
    });
    let stopped = matches!(
        out.verdict,
        Verdict::Cancelled
            | Verdict::Solved {
                shortest: Shortest::Bounded { .. },
                ..
            }
    );
    let timed_out = stopped && clock_ran_out;
    if timed_out && out.verdict == Verdict::Cancelled {
        out.verdict = Verdict::Limit;
    }
    let limit = match (timed_out, out.limit) {
        (true, _) => Some(format!("time ({} s)", timeout.unwrap_or_default())),
        (false, Some(LimitKind::States)) => Some(format!("states (budget {})", limits.states)),
        (false, Some(LimitKind::Memory)) => Some(format!("memory ({} MiB)", limits.memory >> 20)),
        (false, None) => None,
    };
    (out, limit)
}

/// What `solve` prints about a finished search.
struct Solved<'a> {
    level: &'a str,
    game: &'a Game,
    out: &'a Outcome,
    /// The limit that ran out, named ([`run_search`]).
    limit: Option<String>,
    /// The search's name ([`search_name`]).
    search: String,
    budget: u64,
    /// Wall-clock seconds, for the rate.
    secs: f64,
}

impl Solved<'_> {
    fn result(&self) -> &'static str {
        match &self.out.verdict {
            Verdict::Solved { .. } => "solved",
            Verdict::Unsolved => "unsolved",
            Verdict::Limit => "limit",
            Verdict::Cancelled => "cancelled",
        }
    }

    /// The winning route as text, when there is one.
    fn route(&self) -> Option<String> {
        match &self.out.verdict {
            Verdict::Solved { route, .. } => {
                let inputs = LevelSpace::new(self.game, Constraints::default())
                    .inputs()
                    .to_vec();
                Some(route_text(&inputs, route))
            }
            _ => None,
        }
    }

    fn rules_at_win(&self, route: Option<&str>) -> Vec<String> {
        route
            .map(|r| check::rules_at_win(self.game, r))
            .unwrap_or_default()
    }

    fn rate(&self) -> f64 {
        self.out.expanded as f64 / self.secs
    }

    fn mib(&self) -> f64 {
        self.out.peak_bytes as f64 / f64::from(1u32 << 20)
    }
}

/// `solve`'s `key: value` lines.
fn print_human(s: &Solved) {
    let route = s.route();
    let range = s.out.verdict.shortest_range();
    let mut o = std::io::stdout().lock();
    let _ = writeln!(o, "level: {}", s.level);
    let _ = writeln!(o, "result: {}", s.result());
    if let Some(r) = &route {
        let _ = writeln!(o, "route: {r}");
        let _ = writeln!(o, "steps: {}", r.len());
    }
    if let Some((fewest, longest)) = range {
        let _ = writeln!(o, "shortest: {}", check::shortest_text(fewest, longest));
    }
    if let Some(l) = &s.limit {
        let _ = writeln!(o, "limit: {l}");
    }
    let _ = writeln!(o, "search: {}", s.search);
    let _ = writeln!(
        o,
        "states: {} expanded (stored {})",
        s.out.expanded, s.out.stored
    );
    let _ = writeln!(o, "depth: {}", s.out.depth);
    let _ = writeln!(o, "budget: {}", s.budget);
    let _ = writeln!(o, "states/s: {:.0}", s.rate());
    let _ = writeln!(o, "peak memory: {:.1} MiB", s.mib());
    if route.is_some() {
        let rules = s.rules_at_win(route.as_deref());
        let _ = writeln!(o, "rules at win: {}", rules.join(", "));
    }
}

/// `solve --format json`: one object.
fn print_json(s: &Solved) {
    let route = s.route();
    let v = serde_json::json!({
        "level": s.level,
        "result": s.result(),
        "route": route,
        "steps": route.as_ref().map(String::len),
        "shortest": s.out.verdict.shortest_range().map(|(f, l)| check::shortest_json(f, l)),
        "limit": s.limit,
        "search": s.search,
        "expanded": s.out.expanded,
        "stored": s.out.stored,
        "depth": s.out.depth,
        "budget": s.budget,
        "statesPerSecond": s.rate().round(),
        "peakMemoryMiB": (s.mib() * 10.0).round() / 10.0,
        "rulesAtWin": s.rules_at_win(route.as_deref()),
    });
    let _ = writeln!(std::io::stdout().lock(), "{v}");
}
