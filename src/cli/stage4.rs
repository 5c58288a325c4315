//! `miauc check` and `miauc solve`: file handling, threads, progress and
//! printing around the core in [`crate::check`] and [`crate::solver`].

use super::{Deny, Show, Tally, collect_sources, plural, read_source};
use crate::check::{self, LevelReport, Options, steps};
use crate::compile::{self, SourceKind};
use crate::diag::render::{self, SourceFile};
use crate::diag::{Diagnostic, Severity};
use crate::engine::Game;
use crate::solver::level::{Constraints, LevelSpace, find_route, route_text, search_level};
use crate::solver::{LimitKind, Limits, Progress, Shortest, Verdict};
use clap::ValueEnum;
use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Output formats of `check` and `solve`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CheckFormat {
    /// For people, rustc's way, with a summary line.
    #[default]
    Human,
    /// One line per diagnostic, with a summary line (`check` only).
    Concise,
    /// JSON lines.
    Json,
    /// One SARIF 2.1.0 log for the whole run (`check` only).
    Sarif,
    /// GitHub workflow annotations (`check` only).
    Github,
}

/// Output formats of `solve` (SARIF and GitHub are for `check`'s diagnostics).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SolveFormat {
    /// `key: value` lines.
    #[default]
    Human,
    /// One JSON object.
    Json,
}

/// Set by the SIGINT handler; every search polls it.
static CANCEL: AtomicBool = AtomicBool::new(false);
/// States expanded across all searches of the run, for the progress bar.
static EXPANDED: AtomicU64 = AtomicU64::new(0);
/// Depth of the latest progress report.
static DEPTH: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static LAST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Installs the Ctrl-C handler once: the first press cancels the searches,
/// which then stop within about a thousand states; a second press exits.
fn install_cancel() {
    let _ = ctrlc::set_handler(|| {
        if CANCEL.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Feeds the global counters from a search's progress (per thread, since
/// each search counts from zero).
fn note(p: Progress) {
    let last = LAST.with(|l| {
        let last = l.get();
        l.set(p.expanded);
        last
    });
    let delta = p.expanded.checked_sub(last).unwrap_or(p.expanded);
    EXPANDED.fetch_add(delta, Ordering::Relaxed);
    DEPTH.store(u64::from(p.depth), Ordering::Relaxed);
}

/// The progress line: states expanded (of the budget, for one search, since
/// the budget counts expanded states), speed and depth.
fn progress_line(expanded: u64, secs: f64, depth: u64, budget: Option<u64>) -> String {
    let (of, share) = match budget {
        Some(b) if b > 0 => (
            format!(" of {b}"),
            format!(" ({:.1}%)", expanded as f64 * 100.0 / b as f64),
        ),
        _ => (String::new(), String::new()),
    };
    format!(
        "searching: {expanded}{of} states{share}, {:.0} states/s, depth {depth}",
        expanded as f64 / secs.max(1e-9)
    )
}

/// A progress line on stderr while `work` runs, only when stderr is a
/// terminal and only after the first second. `budget` is the one search's
/// state budget (`solve`); `check` runs many searches and shows none.
fn with_progress<T: Send>(budget: Option<u64>, work: impl FnOnce() -> T + Send) -> T {
    if !std::io::stderr().is_terminal() {
        return work();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let start = Instant::now();
            let mut shown = false;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let secs = start.elapsed().as_secs_f64();
                if secs < 1.0 {
                    continue;
                }
                let n = EXPANDED.load(Ordering::Relaxed);
                let d = DEPTH.load(Ordering::Relaxed);
                eprint!("\r\x1b[2K  {}", progress_line(n, secs, d, budget));
                shown = true;
            }
            if shown {
                eprint!("\r\x1b[2K");
            }
        });
        let out = work();
        done.store(true, Ordering::Relaxed);
        out
    })
}

/// Parses a memory size for `--memory`: bytes, or a whole number with `K`,
/// `M` or `G` (powers of 1024, an optional `iB`/`B` after them), at least 1M.
pub fn parse_memory(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.char_indices().last() {
        Some((i, 'K' | 'k')) => (&t[..i], 10),
        Some((i, 'M' | 'm')) => (&t[..i], 20),
        Some((i, 'G' | 'g')) => (&t[..i], 30),
        _ => (t, 0),
    };
    let bytes = digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(1usize << shift))
        .ok_or_else(|| {
            format!("{s:?} isn't a size: write bytes or a number with K, M or G, like 64M")
        })?;
    if bytes < 1 << 20 {
        return Err(format!("{s:?} is below 1M, too little for a search"));
    }
    Ok(bytes)
}

/// Arguments of `miauc check`.
#[derive(Debug, Clone)]
pub struct CheckArgs {
    /// Files or directories.
    pub inputs: Vec<PathBuf>,
    /// Only this level id.
    pub level: Option<String>,
    /// Default budget.
    pub budget: Option<u64>,
    /// Threads.
    pub jobs: Option<usize>,
    /// The run's memory cap in bytes (`--memory`), shared by its searches.
    pub memory: Option<usize>,
    /// `--deny warnings`.
    pub deny: Option<Deny>,
    /// Output format.
    pub format: CheckFormat,
    /// `I/N`: check only the levels whose running index is I-1 modulo N.
    pub shard: Option<String>,
    /// Also print infos and hints.
    pub hints: bool,
    /// Also print infos and each level's result.
    pub verbose: bool,
    /// Only errors and the summary.
    pub quiet: bool,
    /// `--fix`: record the solver's routes.
    pub fix: bool,
}

impl CheckArgs {
    fn show(&self) -> Show {
        Show {
            verbose: self.verbose,
            quiet: self.quiet,
            hints: self.hints,
            deny_warnings: self.deny == Some(Deny::Warnings),
        }
    }

    /// What the run prints, for the summary's count of hidden diagnostics:
    /// the human formats' choice, or, for the machine formats, everything
    /// but hints (unless `--hints`).
    fn printed(&self) -> Show {
        if self.human() {
            return self.show();
        }
        Show {
            verbose: true,
            quiet: false,
            ..self.show()
        }
    }

    fn human(&self) -> bool {
        matches!(self.format, CheckFormat::Human | CheckFormat::Concise)
    }
}

fn parse_shard(s: &str) -> Option<(usize, usize)> {
    let (i, n) = s.split_once('/')?;
    let (i, n) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
    (n >= 1 && (1..=n).contains(&i)).then_some((i, n))
}

/// `miauc check`: stages 1 to 4 on every pack; exit 0, 1 or 2 (catalogue 1.3).
pub fn check(args: &CheckArgs) -> u8 {
    let shard = match args.shard.as_deref().map(parse_shard) {
        None => None,
        Some(Some(s)) => Some(s),
        Some(None) => {
            eprintln!("miauc: --shard wants I/N with 1 <= I <= N, e.g. 2/4");
            return 2;
        }
    };
    let files = match collect_sources(&args.inputs, &["miau", "json"]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 2;
        }
    };
    install_cancel();
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let options = Options {
        budget: args.budget.unwrap_or(check::DEFAULT_BUDGET),
        search_jobs: jobs,
        memory: args.memory.unwrap_or(Options::default().memory),
    };
    let mut failed = false;
    // SARIF is one log for the whole run, so those formats print at the end.
    let mut collected: Vec<(String, String, Vec<Diagnostic>)> = Vec::new();
    let mut running = 0usize;
    let mut found_level = args.level.is_none();
    let mut in_shard = 0usize;
    let mut tally = Tally::default();
    let mut packs = 0usize;
    let mut solved = 0usize;
    let mut pack_ids = compile::PackIds::default();
    // `--level ID` names a level before any pack diagnostic is printed.
    if let Some(id) = args.level.as_deref() {
        match level_ids(&files).iter().any(|l| l == id) {
            true => {}
            false => {
                eprintln!(
                    "miauc: no level {id} in the inputs{}",
                    level_hint(&files, id)
                );
                return 2;
            }
        }
    }
    for path in files {
        let (text, mut diags) = match read_source(&path) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("miauc: {e}");
                failed = true;
                continue;
            }
        };
        let name = path.display().to_string();
        let compiled = compile::analyse(&text, SourceKind::of_path(&name));
        diags.extend(compiled.diagnostics.iter().cloned());
        let Some(pack) = compiled.pack.as_ref() else {
            tally.add(&diags, args.printed());
            failed |= print(&name, &text, &diags, &[], args);
            collected.push((name, text, diags));
            continue;
        };
        diags.extend(pack_ids.declare(&name, pack));
        let fatal = diags.iter().any(|d| compile::is_pack_fatal(d.code()));
        let with_errors: BTreeSet<String> = compiled.levels_with_errors().into_iter().collect();
        let mut selected = Vec::new();
        let mut checked_ids = Vec::new();
        let mut chosen: BTreeSet<String> = BTreeSet::new();
        let mut to_skip: Vec<&str> = Vec::new();
        for (i, level) in pack.levels.iter().enumerate() {
            if args.level.as_deref().is_some_and(|id| id != level.id.text) {
                continue;
            }
            found_level = true;
            running += 1;
            if let Some((si, sn)) = shard
                && (running - 1) % sn != si - 1
            {
                continue;
            }
            chosen.insert(level.id.text.clone());
            in_shard += 1;
            if fatal || with_errors.contains(&level.id.text) {
                to_skip.push(&level.id.text);
            } else {
                selected.push(i);
            }
        }
        let skipped = check::skipped_levels(pack, &to_skip, &diags);
        diags.extend(skipped);
        let reports = with_progress(None, || {
            check::check_levels(pack, &selected, options, jobs, &CANCEL, &note)
        });
        for r in &reports {
            diags.extend(r.diagnostics.iter().cloned());
            if r.complete {
                checked_ids.push(r.level.clone());
            }
        }
        let ids: Vec<&str> = checked_ids.iter().map(String::as_str).collect();
        let unneeded = check::unneeded_allowances(pack, &ids, &diags);
        diags.extend(unneeded);
        if args.level.is_none() && shard.is_none() {
            diags.extend(check::world_quality(pack, &reports));
        }
        if args.level.is_some() || shard.is_some() {
            // Only the selected levels' diagnostics, plus the pack-wide ones.
            diags.retain(|d| d.level.as_ref().is_none_or(|l| chosen.contains(l)));
        }
        crate::diag::note_causes(&mut diags, &text);
        crate::diag::sort(&mut diags);
        diags.dedup();
        if args.fix && SourceKind::of_path(&name) == SourceKind::Miau {
            match fix_routes(&path, &text, pack, &reports, &diags) {
                Ok(fixed) if !fixed.is_empty() => {
                    diags.retain(|d| !fixed_by_record(d, &fixed));
                    if !args.quiet {
                        let mut err = std::io::stderr().lock();
                        let _ = writeln!(
                            err,
                            "fixed {name}: recorded the solution of {} ({})",
                            plural(fixed.len(), "level"),
                            fixed_list(&fixed, &reports)
                        );
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    eprintln!("miauc: {e}");
                    failed = true;
                }
            }
        }
        packs += 1;
        solved += reports
            .iter()
            .filter(|r| {
                matches!(
                    r.searches.first().map(|s| &s.verdict),
                    Some(Verdict::Solved { .. })
                )
            })
            .count();
        tally.add(&diags, args.printed());
        failed |= print(&name, &text, &diags, &reports, args);
        collected.push((name, text, diags));
        if CANCEL.load(Ordering::Relaxed) {
            eprintln!("miauc: cancelled");
            return 130;
        }
    }
    if matches!(args.format, CheckFormat::Sarif | CheckFormat::Github) {
        let files: Vec<(SourceFile, Vec<Diagnostic>)> = collected
            .iter()
            .map(|(name, text, diags)| {
                let shown = diags
                    .iter()
                    .filter(|d| args.hints || d.severity != Severity::Hint)
                    .cloned()
                    .collect();
                (SourceFile::new(name, text), shown)
            })
            .collect();
        let out = match args.format {
            CheckFormat::Sarif => crate::diag::sarif::sarif(&files, env!("CARGO_PKG_VERSION")),
            _ => crate::diag::github::github(&files),
        };
        let _ = write!(std::io::stdout().lock(), "{out}");
    }
    if !found_level {
        eprintln!(
            "miauc: no level {} in the inputs",
            args.level.as_deref().unwrap_or("")
        );
        return 2;
    }
    let summary = tally.denied(args.show()).into_iter().chain([format!(
        "checked {} in {}: {solved} solved, {}",
        plural(in_shard, "level"),
        plural(packs, "pack"),
        tally.counts()
    )]);
    match args.format {
        CheckFormat::Human | CheckFormat::Concise => {
            let mut out = std::io::stdout().lock();
            for line in summary {
                let _ = writeln!(out, "{line}");
            }
        }
        // Stdout is the log or the annotations; the summary goes to the
        // job's log, so a run that found nothing still says what it checked.
        CheckFormat::Sarif | CheckFormat::Github => {
            let mut err = std::io::stderr().lock();
            for line in summary {
                let _ = writeln!(err, "{line}");
            }
        }
        CheckFormat::Json => {}
    }
    if let Some((i, n)) = shard
        && in_shard == 0
        && found_level
    {
        // Not an error (a CI matrix may have more shards than levels), but
        // a run that checked nothing says so.
        eprintln!(
            "miauc: shard {i}/{n} is empty: the inputs hold {running} level{}, so no level was checked",
            if running == 1 { "" } else { "s" }
        );
    }
    u8::from(failed)
}

/// The flags of a level report, as the world builders wrote them.
fn flags(r: &LevelReport) -> Vec<String> {
    let mut out: Vec<String> = r
        .diagnostics
        .iter()
        .filter_map(|d| {
            let f = check::flag_name(d.code())?;
            Some(if d.message.contains("(allowed: ") {
                format!("{f} (allowed)")
            } else {
                f.to_string()
            })
        })
        .collect();
    out.dedup();
    out
}

fn print(
    name: &str,
    text: &str,
    diags: &[Diagnostic],
    reports: &[LevelReport],
    args: &CheckArgs,
) -> bool {
    let file = SourceFile::new(name, text);
    let show = args.show();
    let shown: Vec<Diagnostic> = diags
        .iter()
        .filter(|d| {
            if args.human() {
                show.shows(d)
            } else {
                args.hints || d.severity != Severity::Hint
            }
        })
        .cloned()
        .collect();
    let mut out = std::io::stdout().lock();
    match args.format {
        CheckFormat::Human | CheckFormat::Concise => {
            let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
            let text = if args.format == CheckFormat::Human {
                render::human(&file, &shown, show.style(color))
            } else {
                render::concise(&file, &shown, show.style(color))
            };
            let _ = write!(out, "{text}");
            for r in reports.iter().filter(|_| args.verbose) {
                let verdict = r.searches.first().map_or("cancelled", |s| s.result());
                let mut line = format!("{name}: level {}: {verdict}", r.level);
                if let Some(route) = &r.route {
                    line.push_str(&format!(" in {}, route {route}", steps(route.len())));
                }
                if let Some(shortest) = r.shortest_text() {
                    line.push_str(&format!(", shortest {shortest}"));
                }
                line.push_str(&states_line(&r.searches));
                let f = flags(r);
                if !f.is_empty() {
                    line.push_str(&format!(", flags {}", f.join(" ")));
                }
                let _ = writeln!(out, "{line}");
            }
        }
        CheckFormat::Json => {
            for d in &shown {
                let _ = writeln!(out, "{}", render::json_line(&file, d));
            }
            for r in reports {
                let searches: Vec<serde_json::Value> = r
                    .searches
                    .iter()
                    .map(|s| {
                        serde_json::json!({
                            "search": s.kind.name(),
                            "result": s.result(),
                            "expanded": s.expanded,
                            "stored": s.stored,
                            "budget": s.budget,
                        })
                    })
                    .collect();
                let v = serde_json::json!({
                    "file": name,
                    "level": r.level,
                    "result": r.searches.first().map_or("cancelled", |s| s.result()),
                    "route": r.route,
                    "steps": r.route.as_ref().map(String::len),
                    "shortest": r.shortest_range().map(|(f, l)| check::shortest_json(f, l)),
                    "rulesAtWin": r.rules_at_win,
                    "flags": flags(r),
                    "searches": searches,
                });
                let _ = writeln!(out, "{v}");
            }
        }
        CheckFormat::Sarif | CheckFormat::Github => {}
    }
    diags.iter().any(|d| {
        d.severity == Severity::Error
            || (args.deny == Some(Deny::Warnings) && d.severity == Severity::Warning)
    })
}

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

/// Set when `--timeout` ran out (the search was stopped through `CANCEL`).
static TIMED_OUT: AtomicBool = AtomicBool::new(false);

/// Starts the `--timeout` clock: after `secs`, the search is cancelled
/// and the run reports a time limit rather than a cancellation.
fn start_timeout(secs: Option<f64>) {
    let Some(secs) = secs.filter(|s| s.is_finite() && *s >= 0.0) else {
        return;
    };
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs_f64(secs.min(1e9)));
        TIMED_OUT.store(true, Ordering::SeqCst);
        CANCEL.store(true, Ordering::SeqCst);
    });
}

/// `miauc solve`: the shortest route of one level; exit 0 when solved, 1 when
/// UNSOLVED or LIMIT, 2 on usage errors.
pub fn solve(args: &SolveArgs) -> u8 {
    let (text, mut diags) = match read_source(&args.file) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 2;
        }
    };
    let name = args.file.display().to_string();
    let compiled = compile::compile(&text, SourceKind::of_path(&name));
    let Some(level) = compiled.pack.as_ref().and_then(|p| p.level(&args.level)) else {
        eprintln!(
            "miauc: {name}: no level {}{}",
            args.level,
            level_hint(std::slice::from_ref(&args.file), &args.level)
        );
        return 2;
    };
    // A level the game wouldn't load (stage 1–2 errors of its own or of the
    // whole pack) has no meaningful route: say why instead of searching it.
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
        return 1;
    }
    let game = Game::new(level);
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
                    return 2;
                }
            }
        }
    }
    // A forbidden rule active at reset, or a kept one that isn't, leaves
    // nothing to search: "unsolved, states: 0" would read as a proof.
    let reset = LevelSpace::new(&game, Constraints::default())
        .reset_rules()
        .to_vec();
    let rule_list = |rules: &[(crate::engine::Tok, crate::engine::Tok)]| -> String {
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
            args.level
        );
        return 2;
    }
    if let Some(&r) = constraints
        .keep
        .iter()
        .find(|r| reset.binary_search(r).is_err())
    {
        eprintln!(
            "miauc: --keep \"{}\" proves nothing on level {}: the rule isn't active at reset (rules at reset: {})",
            game.rule_text(r),
            args.level,
            rule_list(&reset)
        );
        return 2;
    }
    // Which search this was, named as `check` names its searches, so the
    // counts compare with the check's line for the same search.
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
    let search = if named.is_empty() {
        "solve".to_string()
    } else {
        named.join(", ")
    };
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
    let inputs = LevelSpace::new(&game, Constraints::default())
        .inputs()
        .to_vec();
    let start = Instant::now();
    start_timeout(args.timeout);
    let mut out = with_progress(Some(budget), || {
        search_level(&game, constraints, limits, jobs, &CANCEL, &mut |p| note(p))
    });
    // The clock stopped the exact search before any route was found: the
    // best-first pass a LIMIT gets still looks for one, on a clock of its
    // own as long (Ctrl-C stops it too).
    if out.verdict == Verdict::Cancelled
        && TIMED_OUT.load(Ordering::SeqCst)
        && named.is_empty()
        && CANCEL.swap(false, Ordering::SeqCst)
    {
        start_timeout(args.timeout);
        if let Some(route) = with_progress(None, || find_route(&game, limits, &CANCEL)) {
            out = out.with_route(route);
        }
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let stopped = matches!(
        out.verdict,
        Verdict::Cancelled
            | Verdict::Solved {
                shortest: Shortest::Bounded { .. },
                ..
            }
    );
    let timed_out = stopped && TIMED_OUT.load(Ordering::SeqCst);
    if timed_out && out.verdict == Verdict::Cancelled {
        out.verdict = Verdict::Limit;
    }
    // Which limit ran out, in the author's terms.
    let limit = match (timed_out, out.limit) {
        (true, _) => Some(format!("time ({} s)", args.timeout.unwrap_or_default())),
        (false, Some(LimitKind::States)) => Some(format!("states (budget {budget})")),
        (false, Some(LimitKind::Memory)) => {
            Some(format!("memory ({} MiB)", Options::default().memory >> 20))
        }
        (false, None) => None,
    };
    let (result, route) = match &out.verdict {
        Verdict::Solved { route, .. } => ("solved", Some(route_text(&inputs, route))),
        Verdict::Unsolved => ("unsolved", None),
        Verdict::Limit => ("limit", None),
        Verdict::Cancelled => ("cancelled", None),
    };
    let range = out.verdict.shortest_range();
    let rules = route
        .as_deref()
        .map(|r| check::rules_at_win(&game, r))
        .unwrap_or_default();
    let rate = out.expanded as f64 / secs;
    let mib = out.peak_bytes as f64 / f64::from(1u32 << 20);
    let mut o = std::io::stdout().lock();
    match args.format {
        SolveFormat::Human => {
            let _ = writeln!(o, "level: {}", args.level);
            let _ = writeln!(o, "result: {result}");
            if let Some(r) = &route {
                let _ = writeln!(o, "route: {r}");
                let _ = writeln!(o, "steps: {}", r.len());
            }
            if let Some((fewest, longest)) = range {
                let _ = writeln!(o, "shortest: {}", check::shortest_text(fewest, longest));
            }
            if let Some(l) = &limit {
                let _ = writeln!(o, "limit: {l}");
            }
            let _ = writeln!(o, "search: {search}");
            let _ = writeln!(
                o,
                "states: {} expanded (stored {})",
                out.expanded, out.stored
            );
            let _ = writeln!(o, "depth: {}", out.depth);
            let _ = writeln!(o, "budget: {budget}");
            let _ = writeln!(o, "states/s: {rate:.0}");
            let _ = writeln!(o, "peak memory: {mib:.1} MiB");
            if route.is_some() {
                let _ = writeln!(o, "rules at win: {}", rules.join(", "));
            }
        }
        SolveFormat::Json => {
            let v = serde_json::json!({
                "level": args.level,
                "result": result,
                "route": route,
                "steps": route.as_ref().map(String::len),
                "shortest": range.map(|(f, l)| check::shortest_json(f, l)),
                "limit": limit,
                "search": search,
                "expanded": out.expanded,
                "stored": out.stored,
                "depth": out.depth,
                "budget": budget,
                "statesPerSecond": rate.round(),
                "peakMemoryMiB": (mib * 10.0).round() / 10.0,
                "rulesAtWin": rules,
            });
            let _ = writeln!(o, "{v}");
        }
    }
    match out.verdict {
        Verdict::Solved { .. } => 0,
        Verdict::Cancelled => 130,
        Verdict::Unsolved | Verdict::Limit => 1,
    }
}

/// The counts of `check --verbose`'s level line: the solve search's states
/// expanded and stored (what `miauc solve` prints for the level), then, when
/// the check ran more searches (bypass, hands-off, no rule change, the
/// claims), the states all of them expanded together.
fn states_line(searches: &[check::SearchFigures]) -> String {
    let Some(first) = searches.first() else {
        return String::new();
    };
    let mut line = format!(
        ", states: {} expanded (stored {}) by {}",
        first.expanded,
        first.stored,
        first.kind.name()
    );
    if searches.len() > 1 {
        let all: u64 = searches.iter().map(|s| s.expanded).sum();
        line.push_str(&format!(
            ", {all} expanded by the check's {} searches",
            searches.len()
        ));
    }
    line
}

/// Every level id of the inputs that compile to a pack, in input order.
fn level_ids(files: &[PathBuf]) -> Vec<String> {
    let mut out = Vec::new();
    for path in files {
        let Ok((text, _)) = read_source(path) else {
            continue;
        };
        let name = path.display().to_string();
        let compiled = compile::compile(&text, SourceKind::of_path(&name));
        if let Some(pack) = compiled.pack {
            out.extend(pack.levels.into_iter().map(|l| l.id.text));
        }
    }
    out
}

/// ": did you mean `low-tide`? The levels are: …" for an unknown level id.
pub(crate) fn level_hint(files: &[PathBuf], id: &str) -> String {
    let ids = level_ids(files);
    let names: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut out = String::new();
    if let Some(best) = crate::suggest::best(id, &names) {
        out.push_str(&format!("; did you mean `{best}`?"));
    }
    if !ids.is_empty() {
        let shown: Vec<&str> = names.iter().take(20).copied().collect();
        let more = if ids.len() > 20 {
            format!(" and {} more", ids.len() - 20)
        } else {
            String::new()
        };
        out.push_str(&format!(" The levels are: {}{more}.", shown.join(", ")));
    }
    out
}

/// `check --fix`: writes the solver's route as `solution` and `steps` into
/// the `.miau` file for every solved level whose record is missing or wrong
/// (M337, M410, M411), except in levels whose findings may follow from a
/// warning ([`crate::diag::levels_with_causes`]). Returns the levels fixed.
fn fix_routes(
    path: &std::path::Path,
    text: &str,
    pack: &crate::model::Pack,
    reports: &[LevelReport],
    diags: &[Diagnostic],
) -> Result<Vec<String>, String> {
    let mut records = Vec::new();
    // A route found while a misspelt property (or another cause) changes how
    // the level plays would write that effect down: it waits for the fix.
    let caused = crate::diag::levels_with_causes(diags);
    for r in reports {
        let Some(route) = &r.route else {
            continue;
        };
        if caused.contains(&r.level) {
            continue;
        }
        let Some(level) = pack.level(&r.level) else {
            continue;
        };
        let wrong = diags.iter().any(|d| {
            d.level.as_deref() == Some(r.level.as_str()) && matches!(d.code(), "M410" | "M411")
        });
        if wrong || level.check.solution.is_none() || level.check.steps.is_none() {
            records.push(crate::record::Record {
                level: r.level.clone(),
                route: route.clone(),
            });
        }
    }
    if records.is_empty() {
        return Ok(Vec::new());
    }
    // Recorded into the file as it is when written: a level edited since the
    // check read it keeps its edit and gets no route (the route was worked
    // out on the old board); routes others recorded meanwhile (an editor,
    // another shard) stay.
    let mut applied = Vec::new();
    super::files::rewrite_source(path, &mut |current| {
        let (new, levels) = crate::record::record_unchanged(text, current, &records);
        applied = levels;
        Ok(new)
    })?;
    for r in &records {
        if !applied.contains(&r.level) {
            eprintln!(
                "note: {}: level {} changed since it was checked; its route is not recorded \
                 (check it again)",
                path.display(),
                r.level
            );
        }
    }
    Ok(applied)
}

/// The levels `check --fix` recorded, each whose route isn't proven
/// shortest saying so with the range: `a, b (131 steps, not proven
/// shortest: 38..131)`.
fn fixed_list(fixed: &[String], reports: &[LevelReport]) -> String {
    let named: Vec<String> = fixed
        .iter()
        .map(|id| {
            let range = reports
                .iter()
                .find(|r| &r.level == id)
                .and_then(LevelReport::shortest_range);
            match range {
                Some((fewest, longest)) if fewest < longest => format!(
                    "{id} ({}, not proven shortest: {fewest}..{longest})",
                    steps(longest)
                ),
                _ => id.clone(),
            }
        })
        .collect();
    named.join(", ")
}

/// The diagnostics a recorded route settles: M410, M411, and M337's
/// missing solution or steps.
fn fixed_by_record(d: &Diagnostic, fixed: &[String]) -> bool {
    let Some(level) = d.level.as_deref() else {
        return false;
    };
    fixed.iter().any(|f| f == level)
        && match d.code() {
            "M410" | "M411" => true,
            "M337" => d
                .path
                .as_deref()
                .is_some_and(|p| p.ends_with(".solution") || p.ends_with(".steps")),
            _ => false,
        }
}

#[cfg(test)]
mod progress_tests {
    use super::progress_line;

    #[test]
    fn one_search_shows_its_budget_and_share() {
        assert_eq!(
            progress_line(500_000, 2.0, 17, Some(2_000_000)),
            "searching: 500000 of 2000000 states (25.0%), 250000 states/s, depth 17"
        );
    }

    #[test]
    fn many_searches_show_the_count_alone() {
        assert_eq!(
            progress_line(300, 1.5, 4, None),
            "searching: 300 states, 200 states/s, depth 4"
        );
    }
}
