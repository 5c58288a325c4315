//! `miauc check`: file handling, threads, progress and printing around the
//! core in [`crate::check`]; and what `check` and `miauc solve`
//! ([`super::solve`]) share: the output formats, the Ctrl-C flag, the
//! progress line, `--memory` sizes and the hint for an unknown level id.

use super::{Deny, Show, Tally, collect_sources, plural, read_source};
use crate::check::{self, LevelReport, Options, steps};
use crate::compile::{self, SourceKind};
use crate::diag::render::{self, SourceFile};
use crate::diag::{Diagnostic, Severity};
use crate::model::Pack;
use crate::solver::{Progress, Verdict};
use clap::ValueEnum;
use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
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
pub(super) static CANCEL: AtomicBool = AtomicBool::new(false);
/// States expanded across all searches of the run, for the progress bar.
static EXPANDED: AtomicU64 = AtomicU64::new(0);
/// Depth of the latest progress report.
static DEPTH: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static LAST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Installs the Ctrl-C handler once: the first press cancels the searches,
/// which then stop within about a thousand states; a second press exits.
pub(super) fn install_cancel() {
    let _ = ctrlc::set_handler(|| {
        if CANCEL.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
}

/// Feeds the global counters from a search's progress (per thread, since
/// each search counts from zero).
pub(super) fn note(p: Progress) {
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
pub(super) fn with_progress<T: Send>(budget: Option<u64>, work: impl FnOnce() -> T + Send) -> T {
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
    // `--level ID` names a level before any pack diagnostic is printed.
    if let Some(id) = args.level.as_deref()
        && !level_ids(&files).iter().any(|l| l == id)
    {
        eprintln!(
            "miauc: no level {id} in the inputs{}",
            level_hint(&files, id)
        );
        return 2;
    }
    let mut run = CheckRun::new(args, shard);
    for path in files {
        run.check_file(&path);
        if CANCEL.load(Ordering::Relaxed) {
            eprintln!("miauc: cancelled");
            return 130;
        }
    }
    run.finish()
}

/// A `check` run across its files: what it has found and counted so far.
struct CheckRun<'a> {
    args: &'a CheckArgs,
    /// `--shard I/N` as `(I, N)`.
    shard: Option<(usize, usize)>,
    options: Options,
    /// Levels checked at once.
    jobs: usize,
    failed: bool,
    /// Every file's name, text and diagnostics: SARIF is one log for the
    /// whole run, so those formats print at the end.
    collected: Vec<(String, String, Vec<Diagnostic>)>,
    /// Levels of the inputs (of `--level`) seen so far, for the shards.
    running: usize,
    found_level: bool,
    /// Levels of this shard (all of them without `--shard`).
    in_shard: usize,
    tally: Tally,
    packs: usize,
    solved: usize,
    pack_ids: compile::PackIds,
}

/// The levels of one pack a run checks.
#[derive(Default)]
struct Picked<'p> {
    /// Indices of the levels searched.
    selected: Vec<usize>,
    /// Levels not searched, for errors of their own or of the pack (M416).
    to_skip: Vec<&'p str>,
    /// Every level of `--level` and the shard, searched or not.
    chosen: BTreeSet<String>,
}

impl<'a> CheckRun<'a> {
    fn new(args: &'a CheckArgs, shard: Option<(usize, usize)>) -> CheckRun<'a> {
        let jobs = args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        let options = Options {
            budget: args.budget.unwrap_or(check::DEFAULT_BUDGET),
            search_jobs: jobs,
            memory: args.memory.unwrap_or(Options::default().memory),
        };
        CheckRun {
            args,
            shard,
            options,
            jobs,
            failed: false,
            collected: Vec::new(),
            running: 0,
            found_level: args.level.is_none(),
            in_shard: 0,
            tally: Tally::default(),
            packs: 0,
            solved: 0,
            pack_ids: compile::PackIds::default(),
        }
    }

    /// Checks one file and prints (or, for SARIF, keeps) its diagnostics.
    fn check_file(&mut self, path: &Path) {
        let (text, mut diags) = match read_source(path) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("miauc: {e}");
                self.failed = true;
                return;
            }
        };
        let name = path.display().to_string();
        let compiled = compile::analyse(&text, SourceKind::of_path(&name));
        diags.extend(compiled.diagnostics.iter().cloned());
        let Some(pack) = compiled.pack.as_ref() else {
            self.report(name, text, diags, &[]);
            return;
        };
        let pack_ids = &mut self.pack_ids;
        diags.extend(pack_ids.declare(&name, pack));
        let fatal = diags.iter().any(|d| compile::is_pack_fatal(d.code()));
        let with_errors: BTreeSet<String> = compiled.levels_with_errors().into_iter().collect();
        let picked = self.pick(pack, |id| fatal || with_errors.contains(id));
        let skipped = check::skipped_levels(pack, &picked.to_skip, &diags);
        diags.extend(skipped);
        let (options, jobs) = (self.options, self.jobs);
        let reports = with_progress(None, || {
            check::check_levels(pack, &picked.selected, options, jobs, &CANCEL, &note)
        });
        self.add_reports(pack, &reports, &picked.chosen, &text, &mut diags);
        if self.args.fix && SourceKind::of_path(&name) == SourceKind::Miau {
            self.fix(path, &text, pack, &reports, &mut diags);
        }
        self.packs += 1;
        self.solved += reports
            .iter()
            .filter(|r| {
                matches!(
                    r.searches.first().map(|s| &s.verdict),
                    Some(Verdict::Solved { .. })
                )
            })
            .count();
        self.report(name, text, diags, &reports);
    }

    /// The levels of `pack` that `--level` and the shard choose, in order,
    /// those for which `skip` holds set aside unsearched.
    fn pick<'p>(&mut self, pack: &'p Pack, skip: impl Fn(&str) -> bool) -> Picked<'p> {
        let mut picked = Picked::default();
        for (i, level) in pack.levels.iter().enumerate() {
            if self
                .args
                .level
                .as_deref()
                .is_some_and(|id| id != level.id.text)
            {
                continue;
            }
            self.found_level = true;
            self.running += 1;
            if let Some((si, sn)) = self.shard
                && (self.running - 1) % sn != si - 1
            {
                continue;
            }
            picked.chosen.insert(level.id.text.clone());
            self.in_shard += 1;
            if skip(&level.id.text) {
                picked.to_skip.push(&level.id.text);
            } else {
                picked.selected.push(i);
            }
        }
        picked
    }

    /// Adds the stage-4 findings to the pack's diagnostics: each level's,
    /// the allowances no checked level needed, and, on a whole run, the
    /// world's; keeps only the chosen levels' on a partial run; then
    /// notes causes, sorts and drops repeats.
    fn add_reports(
        &self,
        pack: &Pack,
        reports: &[LevelReport],
        chosen: &BTreeSet<String>,
        text: &str,
        diags: &mut Vec<Diagnostic>,
    ) {
        let mut checked_ids = Vec::new();
        for r in reports {
            diags.extend(r.diagnostics.iter().cloned());
            if r.complete {
                checked_ids.push(r.level.as_str());
            }
        }
        let unneeded = check::unneeded_allowances(pack, &checked_ids, diags);
        diags.extend(unneeded);
        let partial = self.args.level.is_some() || self.shard.is_some();
        if !partial {
            diags.extend(check::world_quality(pack, reports));
        }
        if partial {
            // Only the selected levels' diagnostics, plus the pack-wide ones.
            diags.retain(|d| d.level.as_ref().is_none_or(|l| chosen.contains(l)));
        }
        crate::diag::note_causes(diags, text);
        crate::diag::sort(diags);
        diags.dedup();
    }

    /// `--fix`: records the routes found into the file, drops the
    /// diagnostics that settles and says which levels it recorded.
    fn fix(
        &mut self,
        path: &Path,
        text: &str,
        pack: &Pack,
        reports: &[LevelReport],
        diags: &mut Vec<Diagnostic>,
    ) {
        match fix_routes(path, text, pack, reports, diags) {
            Ok(fixed) if !fixed.is_empty() => {
                diags.retain(|d| !fixed_by_record(d, &fixed));
                if !self.args.quiet {
                    let mut err = std::io::stderr().lock();
                    let _ = writeln!(
                        err,
                        "fixed {}: recorded the solution of {} ({})",
                        path.display(),
                        plural(fixed.len(), "level"),
                        fixed_list(&fixed, reports)
                    );
                }
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("miauc: {e}");
                self.failed = true;
            }
        }
    }

    /// Counts and prints one file's diagnostics (and its level reports),
    /// and keeps them for the formats that print at the end.
    fn report(
        &mut self,
        name: String,
        text: String,
        diags: Vec<Diagnostic>,
        reports: &[LevelReport],
    ) {
        self.tally.add(&diags, self.args.printed());
        self.failed |= print(&name, &text, &diags, reports, self.args);
        self.collected.push((name, text, diags));
    }

    /// The end of the run: SARIF or the annotations, the summary, and the
    /// exit status.
    fn finish(self) -> u8 {
        let args = self.args;
        if matches!(args.format, CheckFormat::Sarif | CheckFormat::Github) {
            print_collected(&self.collected, args);
        }
        if !self.found_level {
            eprintln!(
                "miauc: no level {} in the inputs",
                args.level.as_deref().unwrap_or("")
            );
            return 2;
        }
        self.print_summary();
        if let Some((i, n)) = self.shard
            && self.in_shard == 0
        {
            // Not an error (a CI matrix may have more shards than levels), but
            // a run that checked nothing says so.
            eprintln!(
                "miauc: shard {i}/{n} is empty: the inputs hold {} level{}, so no level was checked",
                self.running,
                if self.running == 1 { "" } else { "s" }
            );
        }
        u8::from(self.failed)
    }

    /// The lines of diagnostics `--deny` made fail, and the count line.
    fn print_summary(&self) {
        let args = self.args;
        let summary = self.tally.denied(args.show()).into_iter().chain([format!(
            "checked {} in {}: {} solved, {}",
            plural(self.in_shard, "level"),
            plural(self.packs, "pack"),
            self.solved,
            self.tally.counts()
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
    }
}

/// The whole run's SARIF log or GitHub annotations, on stdout.
fn print_collected(collected: &[(String, String, Vec<Diagnostic>)], args: &CheckArgs) {
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
                if !r.lessons.is_empty() {
                    let lessons: Vec<String> = r
                        .lessons
                        .iter()
                        .map(|l| format!("{} {}", l.mechanic, l.coverage.as_str()))
                        .collect();
                    line.push_str(&format!(", lessons {}", lessons.join(", ")));
                }
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
                    "lessons": r.lessons.iter().map(|l| serde_json::json!({
                        "mechanic": l.mechanic,
                        "result": l.coverage.as_str(),
                        "route": l.route,
                    })).collect::<Vec<_>>(),
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
pub(super) fn level_hint(files: &[PathBuf], id: &str) -> String {
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
            // A route not proven shortest is recorded with its bound.
            let at_least = r
                .shortest_range()
                .and_then(|(fewest, longest)| (fewest < longest).then_some(fewest));
            records.push(crate::record::Record {
                level: r.level.clone(),
                route: route.clone(),
                at_least,
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
