//! The `miauc` command line: argument parsing, file I/O and exit codes.
//!
//! Everything here is a thin shell over the core: it reads files, calls the
//! pipeline, and prints. Exit status: 0 when all holds, 1 on errors (or on
//! warnings with `--deny warnings`), 2 on usage errors.
#![allow(clippy::print_stdout, reason = "the command line prints")]

use crate::compile::{self, SourceKind};
use crate::diag::render::{self, SourceFile};
use crate::diag::{Diagnostic, Severity};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The file-system rules, shared with the language server (`crate::files`).
pub use crate::files;
mod allocator;
mod build;
pub mod clock;
mod import;
mod picture;
pub mod play;
mod solve;
mod stage4;
pub use import::Encoding;
pub use stage4::{CheckFormat, SolveFormat};

/// The authoring toolchain for Miau Is True packs.
#[derive(Parser, Debug)]
#[command(name = "miauc", version, about, long_about = None)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// How diagnostics are printed.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// For people, rustc's way: `warning[M403]: message`, `--> file:line:col`,
    /// the source line with markers, `= help:` lines.
    #[default]
    Human,
    /// One line per diagnostic: `file:line:col: severity[CODE name] message`.
    Concise,
    /// One JSON object per line, for tools (every diagnostic, no summary).
    Json,
}

/// Which diagnostics fail the run.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deny {
    /// Warnings fail the run too.
    Warnings,
}

/// Options shared by every command that prints diagnostics.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Report {
    /// Output format for diagnostics.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Make warnings fail the run (`--deny warnings`).
    #[arg(long, value_enum)]
    pub deny: Option<Deny>,
    /// Also print infos and hints (infos are hidden by default).
    #[arg(long)]
    pub hints: bool,
    /// Also print infos.
    #[arg(short, long)]
    pub verbose: bool,
    /// Print only errors and the summary line.
    #[arg(short, long, conflicts_with_all = ["verbose", "hints"])]
    pub quiet: bool,
}

impl Report {
    /// What a human-readable run shows under these options.
    pub fn show(&self) -> Show {
        Show {
            verbose: self.verbose,
            quiet: self.quiet,
            hints: self.hints,
            deny_warnings: self.deny == Some(Deny::Warnings),
        }
    }
}

/// Which diagnostics a human-readable run prints. Errors always; warnings
/// unless `-q` (denied warnings are errors, so always); infos with
/// `--verbose` or `--hints`; hints with `--hints`. Machine formats print
/// everything (hints with `--hints`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Show {
    /// `--verbose`.
    pub verbose: bool,
    /// `-q`.
    pub quiet: bool,
    /// `--hints`.
    pub hints: bool,
    /// `--deny warnings`.
    pub deny_warnings: bool,
}

impl Show {
    /// Whether `d` is printed.
    pub fn shows(&self, d: &Diagnostic) -> bool {
        match d.severity {
            Severity::Error => true,
            Severity::Warning => !self.quiet || self.deny_warnings,
            Severity::Info => !self.quiet && (self.verbose || self.hints),
            Severity::Hint => !self.quiet && self.hints,
        }
    }

    /// The renderer's style.
    pub fn style(&self, color: bool) -> render::Style {
        render::Style {
            color,
            deny_warnings: self.deny_warnings,
        }
    }
}

/// The counts a run's summary line gives.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    /// Errors.
    pub errors: usize,
    /// Warnings (denied or not).
    pub warnings: usize,
    /// Infos not printed.
    pub hidden_infos: usize,
    /// Hints not printed.
    pub hidden_hints: usize,
}

impl Tally {
    /// Counts `diags` as `show` prints them.
    pub fn add(&mut self, diags: &[Diagnostic], show: Show) {
        for d in diags {
            match d.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info if !show.shows(d) => self.hidden_infos += 1,
                Severity::Hint if !show.shows(d) => self.hidden_hints += 1,
                Severity::Info | Severity::Hint => {}
            }
        }
    }

    /// `0 errors, 2 warnings (14 infos hidden)`.
    pub fn counts(&self) -> String {
        let mut out = format!(
            "{}, {}",
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        );
        let hidden: Vec<String> = [(self.hidden_infos, "info"), (self.hidden_hints, "hint")]
            .into_iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, w)| plural(n, w))
            .collect();
        if !hidden.is_empty() {
            out.push_str(&format!(" ({} hidden)", hidden.join(", ")));
        }
        out
    }

    /// The line after the summary when `--deny warnings` turned warnings
    /// into failures: `error: 2 warnings denied`.
    pub fn denied(&self, show: Show) -> Option<String> {
        (show.deny_warnings && self.warnings > 0).then(|| {
            format!(
                "error: {} denied (--deny warnings)",
                plural(self.warnings, "warning")
            )
        })
    }
}

/// "1 level", "3 levels" (the one wording of counts, [`crate::diag::wording::count`]).
pub fn plural(n: usize, word: &str) -> String {
    crate::diag::wording::count(n, word)
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Compile packs to the game's canonical pack JSON (`<pack-id>.json`).
    Build {
        /// `.miau` files, or directories holding them.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Directory to write the pack JSON into.
        #[arg(short, long, default_value = ".")]
        out: PathBuf,
        /// Also print a compact share string for each pack.
        #[arg(long)]
        link: bool,
        /// Diagnostic options.
        #[command(flatten)]
        report: Report,
    },
    /// Turn pack JSON (or a share string) back into readable `.miau`; or
    /// convert an XSB Sokoban file (`*.xsb`) to packs.
    Import {
        /// A pack JSON file, a share string (`miau1:…`), a file holding a
        /// share string, an XSB file, or `-`: pack JSON or a share string
        /// on standard input.
        input: String,
        /// Where to write the `.miau` file (default: standard output); for
        /// an XSB file of more than 64 levels, a directory to write one pack
        /// per 64 levels into.
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// The text encoding of an XSB file: `utf8` (bytes that aren't
        /// UTF-8 are refused) or `latin1` (ISO 8859-1, common in older
        /// collections).
        #[arg(long, value_enum, default_value_t = Encoding::Utf8)]
        encoding: Encoding,
    },
    /// Format `.miau` files canonically, in place.
    Fmt {
        /// Only check: exit 1 and list the files that would change.
        #[arg(long)]
        check: bool,
        /// `.miau` files, or directories holding them.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Replay a level turn by turn: the board after each turn, the rules added
    /// and removed, and a final `result:` line.
    Replay {
        /// The `.miau` file (or pack JSON).
        file: PathBuf,
        /// The level id.
        #[arg(long)]
        level: String,
        /// Inputs `U D L R W` (default: the level's recorded solution).
        #[arg(long)]
        moves: Option<String>,
        /// Print only the rule changes along the route.
        #[arg(long)]
        explain: bool,
    },
    /// Draw a level as the player sees it: SVG, PNG, or an animated GIF of a
    /// route (one frame per turn, with the turn's events).
    Render {
        /// The `.miau` file (or pack JSON).
        file: PathBuf,
        /// The level id.
        #[arg(long)]
        level: String,
        /// Inputs `U D L R W` to play first; for `.gif`, the route to animate
        /// (default: the level's recorded solution).
        #[arg(long)]
        moves: Option<String>,
        /// Output file: `.svg`, `.png` or `.gif` (default: SVG on standard output).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Hundredths of a second per GIF frame.
        #[arg(long, default_value_t = 40)]
        delay: u16,
    },
    /// Play levels in the terminal (`miauc play --help` lists the keys; `?` shows them in play).
    ///
    /// The screen fits any terminal of at least 40 × 12: the board is drawn
    /// in pictures when they fit, else in ASCII cells, else scrolled to keep
    /// every YOU in view, with markers on the edges where it goes on.
    #[command(after_help = play::keys_help())]
    Play {
        /// The `.miau` file (or pack JSON).
        file: PathBuf,
        /// The level to start on (default: the first).
        #[arg(long)]
        level: Option<String>,
        /// Draw the board with legend keys and words instead of emoji.
        #[arg(long)]
        ascii: bool,
    },
    /// Run stages 1 to 4: replay recorded solutions, then the solver's searches.
    Check {
        /// `.miau` or pack JSON files, or directories holding them.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// Check only the level with this id.
        #[arg(long)]
        level: Option<String>,
        /// State budget for levels that don't set their own.
        #[arg(long)]
        budget: Option<u64>,
        /// Threads (default: all cores): levels are checked in parallel and
        /// each search runs on this many threads, with the same results as
        /// on one.
        #[arg(long)]
        jobs: Option<usize>,
        /// Memory cap of the whole run (`64M`, `2G`; default 2G): every
        /// search of every level (exact, satisficing, claims, shortening)
        /// draws on it, whatever `--jobs`; only the program and the packs
        /// read lie outside it. A search that needs more on its own ends
        /// in LIMIT; verdicts are the same for any `--jobs`.
        #[arg(long, value_parser = stage4::parse_memory)]
        memory: Option<usize>,
        /// Make warnings fail the run (`--deny warnings`).
        #[arg(long, value_enum)]
        deny: Option<Deny>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
        format: CheckFormat,
        /// Check only shard I of N (`--shard 2/4`), to split levels across machines.
        #[arg(long)]
        shard: Option<String>,
        /// Also print infos and hints (infos are hidden by default).
        #[arg(long)]
        hints: bool,
        /// Also print infos and each level's result line.
        #[arg(short, long)]
        verbose: bool,
        /// Print only errors and the summary line.
        #[arg(short, long, conflicts_with_all = ["verbose", "hints"])]
        quiet: bool,
        /// Write the solver's route as `solution` and `steps` into `.miau`
        /// files where they are missing or wrong (M337, M410, M411).
        #[arg(long)]
        fix: bool,
    },
    /// Find the shortest route of one level, optionally under constraints.
    Solve {
        /// A `.miau` or pack JSON file.
        file: PathBuf,
        /// The level id.
        #[arg(long)]
        level: String,
        /// State budget (default: the level's own, else 67108864, 2 GiB worth).
        #[arg(long)]
        budget: Option<u64>,
        /// A rule that may never be active (`--forbid "FLAG IS WIN"`); repeatable.
        #[arg(long)]
        forbid: Vec<String>,
        /// A rule that must form before the win counts; repeatable.
        #[arg(long)]
        require: Vec<String>,
        /// A rule active at reset that must stay active at every parse point
        /// (the `must-break` proof); repeatable.
        #[arg(long)]
        keep: Vec<String>,
        /// No word may be destroyed.
        #[arg(long)]
        no_word_loss: bool,
        /// Stop the shortest-route search after this many seconds of wall
        /// clock, then look for any winning route for as long again: a route
        /// found is SOLVED with the shortest bounded, none is LIMIT (for
        /// interactive use: the verdict then depends on the machine).
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Threads the search runs on (default: all cores); the verdict,
        /// route and counts are those of one thread.
        #[arg(long)]
        jobs: Option<usize>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = SolveFormat::Human)]
        format: SolveFormat,
    },
    /// Print the catalogue of a set of packs as Markdown: one row per level
    /// (world, id, title, category, teaches, steps, flags, proofs).
    Catalogue {
        /// `.miau` or pack JSON files, or directories holding them.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Print the documentation page of a diagnostic code or name, or a
    /// section of the rules reference (`miauc explain SINK`).
    Explain {
        /// A code (`M301`), a name (`undeclared-property-word`), or a rules
        /// topic: a property or mechanism word or a heading of docs/rules.md
        /// (`the-turn`). `topics`, or nothing, lists them all.
        code: Option<String>,
    },
    /// Serve the Language Server Protocol over standard input and output.
    Lsp {
        /// Accepted for clients that pass it; standard I/O is the only transport.
        #[arg(long)]
        stdio: bool,
    },
}

/// Run `miauc` with the process arguments.
pub fn main() -> ExitCode {
    allocator::tune();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let code = match cli.command {
        Command::Build {
            inputs,
            out,
            link,
            report,
        } => build::build(&inputs, &out, link, &report),
        Command::Import {
            input,
            out,
            encoding,
        } => import::import(&input, out.as_deref(), encoding),
        Command::Fmt { check, inputs } => fmt(&inputs, check),
        Command::Explain { code } => explain(code.as_deref().unwrap_or("topics")),
        Command::Catalogue { inputs } => catalogue(&inputs),
        Command::Replay {
            file,
            level,
            moves,
            explain,
        } => replay(&file, &level, moves.as_deref(), explain),
        Command::Render {
            file,
            level,
            moves,
            out,
            delay,
        } => picture::render(&picture::RenderArgs {
            file: &file,
            level: &level,
            moves: moves.as_deref(),
            out: out.as_deref(),
            delay,
        }),
        Command::Play { file, level, ascii } => play::play(&file, level.as_deref(), ascii),
        Command::Lsp { .. } => return crate::lsp::run_stdio(),
        Command::Check {
            inputs,
            level,
            budget,
            jobs,
            memory,
            deny,
            format,
            shard,
            hints,
            verbose,
            quiet,
            fix,
        } => stage4::check(&stage4::CheckArgs {
            inputs,
            level,
            budget,
            jobs,
            memory,
            deny,
            format,
            shard,
            hints,
            verbose,
            quiet,
            fix,
        }),
        Command::Solve {
            file,
            level,
            budget,
            forbid,
            require,
            keep,
            no_word_loss,
            timeout,
            jobs,
            format,
        } => solve::solve(&solve::SolveArgs {
            file,
            level,
            budget,
            forbid,
            require,
            keep,
            no_word_loss,
            timeout,
            jobs,
            format,
        }),
    };
    ExitCode::from(code)
}

/// Expand directories into the files with these extensions (sorted,
/// recursive), keep files as given; each real file once (see [`files`]).
pub fn collect_sources(inputs: &[PathBuf], ext: &[&str]) -> Result<Vec<PathBuf>, String> {
    Ok(files::collect(inputs, ext)?
        .into_iter()
        .map(|s| s.path)
        .collect())
}

/// Read a file as text; bytes that aren't UTF-8 become an M114 diagnostic.
/// Only regular files of at most [`files::MAX_SOURCE_BYTES`] are read.
pub fn read_source(path: &Path) -> Result<(String, Vec<Diagnostic>), String> {
    let bytes = files::read(path)?;
    Ok(compile::decode(&bytes))
}

/// Print diagnostics to stderr in the chosen format; return whether the run fails.
pub fn print_diagnostics(name: &str, text: &str, diags: &[Diagnostic], report: &Report) -> bool {
    let file = SourceFile::new(name, text);
    let show = report.show();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    match report.format {
        Format::Human | Format::Concise => {
            let shown: Vec<Diagnostic> = diags.iter().filter(|d| show.shows(d)).cloned().collect();
            let text = if report.format == Format::Human {
                render::human(&file, &shown, show.style(color))
            } else {
                render::concise(&file, &shown, show.style(color))
            };
            let _ = write!(err, "{text}");
        }
        Format::Json => {
            for d in diags
                .iter()
                .filter(|d| report.hints || d.severity != Severity::Hint)
            {
                let _ = writeln!(err, "{}", render::json_line(&file, d));
            }
        }
    }
    fails(diags, report)
}

/// Whether these diagnostics fail the run under `report`'s options.
pub fn fails(diags: &[Diagnostic], report: &Report) -> bool {
    diags.iter().any(|d| {
        d.severity == Severity::Error
            || (report.deny == Some(Deny::Warnings) && d.severity == Severity::Warning)
    })
}

/// Standard output as a `fmt::Write`, for text the core writes as it goes.
struct StdoutText<W: std::io::Write>(W);

impl<W: std::io::Write> std::fmt::Write for StdoutText<W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write_all(s.as_bytes()).map_err(|_| std::fmt::Error)
    }
}

fn fmt(inputs: &[PathBuf], check: bool) -> u8 {
    let sources = match files::collect(inputs, &["miau"]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 2;
        }
    };
    let mut status = 0;
    for source in sources {
        let path = source.path;
        if source.outside {
            // A link inside the directory leading out of it: formatting the
            // file would rewrite something the user didn't hand over.
            eprintln!(
                "miauc: {}: a link to {}, outside the directory given; not formatting it",
                path.display(),
                source.real.display()
            );
            continue;
        }
        let (text, diags) = match read_source(&path) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("miauc: {e}");
                status = 1;
                continue;
            }
        };
        let name = path.display().to_string();
        if !diags.is_empty() {
            print_diagnostics(&name, &text, &diags, &Report::default());
            status = 1;
            continue;
        }
        match crate::fmt::format(&text) {
            Ok(formatted) if formatted == text => {}
            Ok(formatted) => {
                if check {
                    // The diff, as rustfmt's and ruff's `--check` print it, so
                    // the log shows what to change without running `fmt`.
                    println!("would reformat {name}:");
                    print!("{}", format_diff(&name, &text, &formatted));
                    status = 1;
                    continue;
                }
                // Formatted as the file is when written: an edit saved
                // meanwhile is formatted too, not overwritten.
                let written = files::rewrite_source(&source.real, &mut |now| {
                    if now == text {
                        return Ok(Some(formatted.clone()));
                    }
                    crate::fmt::format(now)
                        .map(|f| (f != now).then_some(f))
                        .map_err(|_| format!("{name} changed meanwhile and no longer formats"))
                });
                match written {
                    Ok(_) => eprintln!("formatted {name}"),
                    Err(e) => {
                        eprintln!("miauc: {e}");
                        status = 1;
                    }
                }
            }
            Err(diags) => {
                print_diagnostics(&name, &text, &diags, &Report::default());
                status = 1;
            }
        }
    }
    status
}

/// A unified diff from a file's text to its canonical form, three lines of
/// context around each change.
fn format_diff(name: &str, text: &str, formatted: &str) -> String {
    similar::TextDiff::from_lines(text, formatted)
        .unified_diff()
        .context_radius(3)
        .header(name, &format!("{name} (formatted)"))
        .missing_newline_hint(false)
        .to_string()
}

/// `miauc catalogue`: every pack must build; the document goes to stdout.
fn catalogue(inputs: &[PathBuf]) -> u8 {
    let files = match collect_sources(inputs, &["miau", "json"]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 2;
        }
    };
    let mut packs = Vec::new();
    for path in &files {
        let Some((_, pack)) = load_pack(path, None) else {
            return 1;
        };
        // Forward slashes, so the document is the same on every platform.
        let shown = path.to_string_lossy().replace('\\', "/");
        packs.push((shown, pack));
    }
    let entries: Vec<crate::catalogue::Entry<'_>> = packs
        .iter()
        .map(|(path, pack)| crate::catalogue::Entry { path, pack })
        .collect();
    let shown: Vec<String> = inputs
        .iter()
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .collect();
    let command = format!("miauc catalogue {}", shown.join(" "));
    print!("{}", crate::catalogue::document(&entries, &command));
    0
}

fn explain(code: &str) -> u8 {
    match crate::diag::explain(code) {
        Some(page) => {
            // A terminal gets the page laid out; a pipe or file the Markdown
            // itself, for a pager, a Markdown viewer or another program.
            let stdout = std::io::stdout();
            if stdout.is_terminal() {
                // A terminal that reports no size (some ptys say 0) reads as 80.
                let width = crossterm::terminal::size()
                    .ok()
                    .filter(|&(w, _)| w > 0)
                    .map_or(80, |(w, _)| usize::from(w))
                    .min(100);
                let styled = std::env::var_os("NO_COLOR").is_none();
                print!("{}", crate::markdown::to_terminal(&page, width, styled));
            } else {
                print!("{page}");
            }
            0
        }
        None => {
            eprintln!(
                "miauc: {code} isn't a diagnostic code or name, or a section of docs/rules.md"
            );
            eprintln!("  = note: `miauc explain topics` lists every code and section");
            // Diagnostic names first (`skipable`), then the rules' sections.
            let names: Vec<&str> = crate::diag::CATALOGUE.iter().map(|i| i.name).collect();
            let anchors = crate::reference::anchors();
            let sections: Vec<&str> = anchors.iter().map(String::as_str).collect();
            let lower = code.to_lowercase();
            let mut hits = crate::suggest::suggest(&lower, &names);
            if hits.is_empty() {
                hits = crate::suggest::suggest(&crate::reference::slug(code), &sections);
            }
            if !hits.is_empty() {
                eprintln!("  = help: did you mean {}?", crate::suggest::or_list(&hits));
            }
            2
        }
    }
}

/// Load one pack for a per-level command; print its errors and return
/// `None` when it doesn't build. With `only`, the errors of other levels
/// don't count: one broken level doesn't block `replay` or `render` of the
/// others. (`play` moves between levels, so it still needs the whole pack.)
pub fn load_pack(path: &Path, only: Option<&str>) -> Option<(String, crate::model::Pack)> {
    let (text, mut diags) = match read_source(path) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("miauc: {e}");
            return None;
        }
    };
    let compiled = compile::compile(&text, SourceKind::of_path(&path.to_string_lossy()));
    diags.extend(compiled.diagnostics.iter().cloned());
    let errors: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| {
            d.severity == Severity::Error
                && only.is_none_or(|id| d.level.as_deref().is_none_or(|l| l == id))
        })
        .collect();
    if !errors.is_empty() || compiled.pack.is_none() {
        print_diagnostics(
            &path.display().to_string(),
            &text,
            &errors,
            &Report::default(),
        );
        return None;
    }
    compiled.pack.map(|p| (text, p))
}

fn replay(path: &Path, level_id: &str, moves: Option<&str>, explain: bool) -> u8 {
    let Some((text, pack)) = load_pack(path, Some(level_id)) else {
        return 1;
    };
    let Some(level) = pack.level(level_id) else {
        let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.text.as_str()).collect();
        eprintln!(
            "miauc: {}: no level {level_id}; the levels are {}",
            path.display(),
            ids.join(", ")
        );
        return 2;
    };
    let moves = match moves
        .map(str::to_string)
        .or_else(|| level.check.solution.as_ref().map(|s| s.text.clone()))
    {
        Some(m) => m,
        None => {
            eprintln!("miauc: level {level_id} records no solution; pass --moves");
            return 2;
        }
    };
    let keys = if SourceKind::of_path(&path.to_string_lossy()) == SourceKind::Miau {
        let (file, _) = crate::syntax::parse(&text);
        compile::legend_keys(&file, level_id)
    } else {
        Default::default()
    };
    let key_of = |noun: &str, channel: Option<&str>| keys.get(noun, channel);
    // Streamed: a long replay's text is never held whole.
    let mut out = StdoutText(std::io::BufWriter::new(std::io::stdout().lock()));
    let result = crate::engine::replay_to(level, &moves, explain, &key_of, &mut out);
    let _ = std::io::Write::flush(&mut out.0);
    match result {
        crate::engine::ReplayResult::Won { .. } => 0,
        _ => 1,
    }
}
