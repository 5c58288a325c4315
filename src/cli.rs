//! The `miauc` command line: argument parsing, file I/O and exit codes.
//!
//! Everything here is a thin shell over the core: it reads files, calls the
//! pipeline, and prints. Exit status: 0 when all holds, 1 on errors (or on
//! warnings with `--deny warnings`), 2 on usage errors.

use crate::compile::{self, SourceKind};
use crate::diag::render::{self, SourceFile};
use crate::diag::{Diagnostic, Severity};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod stage4;
pub use stage4::CheckFormat;

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
    /// For people: `file:line:col: severity[CODE name] message` and the source line.
    #[default]
    Human,
    /// One JSON object per line, for tools.
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
    /// Also print hints.
    #[arg(long)]
    pub hints: bool,
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
        /// A pack JSON file, a share string (`miau1:…`), or an XSB file.
        input: String,
        /// Where to write the `.miau` file (default: standard output); for
        /// an XSB file of more than 64 levels, a directory to write one pack
        /// per 64 levels into.
        #[arg(short, long)]
        out: Option<PathBuf>,
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
        /// Levels checked in parallel (default: all cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Make warnings fail the run (`--deny warnings`).
        #[arg(long, value_enum)]
        deny: Option<Deny>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
        format: CheckFormat,
        /// Check only shard I of N (`--shard 2/4`), to split levels across machines.
        #[arg(long)]
        shard: Option<String>,
        /// Also print hints.
        #[arg(long)]
        hints: bool,
    },
    /// Find the shortest route of one level, optionally under constraints.
    Solve {
        /// A `.miau` or pack JSON file.
        file: PathBuf,
        /// The level id.
        #[arg(long)]
        level: String,
        /// State budget (default: the level's own, else 2000000).
        #[arg(long)]
        budget: Option<u64>,
        /// A rule that may never be active (`--forbid "FLAG IS WIN"`); repeatable.
        #[arg(long)]
        forbid: Vec<String>,
        /// A rule that must form before the win counts; repeatable.
        #[arg(long)]
        require: Vec<String>,
        /// No word may be destroyed.
        #[arg(long)]
        no_word_loss: bool,
        /// Stop after this many seconds of wall clock and report LIMIT
        /// (for interactive use: the verdict then depends on the machine).
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = CheckFormat::Human)]
        format: CheckFormat,
    },
    /// Print the documentation page of a diagnostic code or name.
    Explain {
        /// A code (`M301`) or name (`undeclared-property-word`).
        code: String,
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
        } => build(&inputs, &out, link, &report),
        Command::Import { input, out } => import(&input, out.as_deref()),
        Command::Fmt { check, inputs } => fmt(&inputs, check),
        Command::Explain { code } => explain(&code),
        Command::Replay {
            file,
            level,
            moves,
            explain,
        } => replay(&file, &level, moves.as_deref(), explain),
        Command::Lsp { .. } => return crate::lsp::run_stdio(),
        Command::Check {
            inputs,
            level,
            budget,
            jobs,
            deny,
            format,
            shard,
            hints,
        } => stage4::check(&stage4::CheckArgs {
            inputs,
            level,
            budget,
            jobs,
            deny,
            format,
            shard,
            hints,
        }),
        Command::Solve {
            file,
            level,
            budget,
            forbid,
            require,
            no_word_loss,
            timeout,
            format,
        } => stage4::solve(&stage4::SolveArgs {
            file,
            level,
            budget,
            forbid,
            require,
            no_word_loss,
            timeout,
            format,
        }),
    };
    ExitCode::from(code)
}

/// Expand directories into the `.miau` files they hold (sorted, recursive), keep files as given.
pub fn collect_sources(inputs: &[PathBuf], ext: &[&str]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found = Vec::new();
            walk(input, ext, &mut found).map_err(|e| format!("{}: {e}", input.display()))?;
            found.sort();
            out.extend(found);
        } else if input.exists() {
            out.push(input.clone());
        } else {
            return Err(format!("{}: no such file or directory", input.display()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, ext: &[&str], out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, ext, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ext.contains(&e))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Read a file as text; bytes that aren't UTF-8 become an M114 diagnostic.
pub fn read_source(path: &Path) -> Result<(String, Vec<Diagnostic>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(compile::decode(&bytes))
}

/// Print diagnostics to stderr in the chosen format; return whether the run fails.
pub fn print_diagnostics(name: &str, text: &str, diags: &[Diagnostic], report: &Report) -> bool {
    let file = SourceFile::new(name, text);
    let shown: Vec<Diagnostic> = diags
        .iter()
        .filter(|d| report.hints || d.severity != Severity::Hint)
        .cloned()
        .collect();
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    match report.format {
        Format::Human => {
            let color = stderr.is_terminal() && std::env::var_os("NO_COLOR").is_none();
            let _ = write!(err, "{}", render::human(&file, &shown, color));
        }
        Format::Json => {
            for d in &shown {
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

fn build(inputs: &[PathBuf], out: &Path, link: bool, report: &Report) -> u8 {
    let files = match collect_sources(inputs, &["miau"]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 2;
        }
    };
    let mut failed = false;
    for path in files {
        let (text, mut diags) = match read_source(&path) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("miauc: {e}");
                failed = true;
                continue;
            }
        };
        let compiled = compile::analyse(&text, SourceKind::of_path(&path.to_string_lossy()));
        diags.extend(compiled.diagnostics.iter().cloned());
        let name = path.display().to_string();
        let fail = print_diagnostics(&name, &text, &diags, report);
        failed |= fail;
        let Some(pack) = compiled.pack.filter(|_| !fail) else {
            continue;
        };
        let json = crate::json::to_json(&pack);
        if let Err(e) = std::fs::create_dir_all(out) {
            eprintln!("miauc: {}: {e}", out.display());
            return 1;
        }
        let target = out.join(format!("{}.json", pack.id));
        if let Err(e) = std::fs::write(&target, &json) {
            eprintln!("miauc: {}: {e}", target.display());
            failed = true;
            continue;
        }
        eprintln!("wrote {}", target.display());
        if link {
            println!("{}: {}", pack.id, crate::share::encode(&json));
        }
    }
    u8::from(failed)
}

fn import(input: &str, out: Option<&Path>) -> u8 {
    let path = Path::new(input);
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xsb"))
    {
        return import_xsb(path, out);
    }
    let json = if Path::new(input).exists() {
        match read_source(Path::new(input)) {
            Ok((text, _)) => text,
            Err(e) => {
                eprintln!("miauc: {e}");
                return 1;
            }
        }
    } else {
        match crate::share::decode(input.trim()) {
            Ok(json) => json,
            Err(e) => {
                eprintln!("miauc: {input}: not a file, and not a share string: {e}");
                return 1;
            }
        }
    };
    let compiled = compile::compile(&json, SourceKind::Json);
    let failed = print_diagnostics(input, &json, &compiled.diagnostics, &Report::default());
    let Some(pack) = compiled.pack.filter(|_| !failed) else {
        return 1;
    };
    let source = crate::import::to_miau(&pack);
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, source) {
                eprintln!("miauc: {}: {e}", path.display());
                return 1;
            }
        }
        None => print!("{source}"),
    }
    0
}

/// `miauc import levels.xsb`: Sokoban levels to packs (`import::xsb`).
fn import_xsb(path: &Path, out: Option<&Path>) -> u8 {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("miauc: {}: {e}", path.display());
            return 1;
        }
    };
    let levels = match crate::import::xsb::parse(&text) {
        Ok(levels) => levels,
        Err(e) => {
            eprintln!("miauc: {}:{e}", path.display());
            return 1;
        }
    };
    let stem = path
        .file_stem()
        .map_or("xsb".into(), |s| s.to_string_lossy());
    let credit = crate::import::xsb::credit(&text);
    let packs = crate::import::xsb::to_packs(&stem, &levels, &credit);
    let write = |target: &Path, text: &str| match std::fs::write(target, text) {
        Ok(()) => {
            eprintln!("wrote {}", target.display());
            true
        }
        Err(e) => {
            eprintln!("miauc: {}: {e}", target.display());
            false
        }
    };
    match (out, packs.as_slice()) {
        (Some(file), [one]) if !file.is_dir() => u8::from(!write(file, &one.text)),
        (Some(dir), _) => {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("miauc: {}: {e}", dir.display());
                return 1;
            }
            let ok = packs
                .iter()
                .map(|p| write(&dir.join(format!("{}.miau", p.id)), &p.text))
                .fold(true, |a, b| a && b);
            u8::from(!ok)
        }
        (None, [one]) => {
            print!("{}", one.text);
            0
        }
        (None, _) => {
            eprintln!(
                "miauc: {}: {} levels make {} packs (a pack holds at most {}): \
                 pass `-o DIR` to write them into a directory",
                path.display(),
                levels.len(),
                packs.len(),
                crate::validate::limits::MAX_LEVELS
            );
            1
        }
    }
}

fn fmt(inputs: &[PathBuf], check: bool) -> u8 {
    let files = match collect_sources(inputs, &["miau"]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 2;
        }
    };
    let mut status = 0;
    for path in files {
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
                    println!("would reformat {name}");
                    status = 1;
                } else if let Err(e) = std::fs::write(&path, formatted) {
                    eprintln!("miauc: {name}: {e}");
                    status = 1;
                } else {
                    eprintln!("formatted {name}");
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

fn explain(code: &str) -> u8 {
    match crate::diag::explain(code) {
        Some(page) => {
            print!("{page}");
            0
        }
        None => {
            eprintln!("miauc: {code} isn't a diagnostic code or name");
            2
        }
    }
}

/// Load one pack for a per-level command; print its errors and return `None` when it doesn't build.
pub fn load_pack(path: &Path) -> Option<(String, crate::model::Pack)> {
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
        .filter(|d| d.severity == Severity::Error)
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
    let Some((text, pack)) = load_pack(path) else {
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
    let key_of = |noun: &str| keys.get(noun).cloned();
    let out = crate::engine::replay(level, &moves, explain, &key_of);
    print!("{}", out.text);
    match out.result {
        crate::engine::ReplayResult::Won { .. } => 0,
        _ => 1,
    }
}
