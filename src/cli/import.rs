//! `miauc import`: pack JSON or a share string back to `.miau`, and XSB
//! Sokoban collections to packs; source that builds, or nothing.

use super::{Report, files, print_diagnostics};
use crate::compile::{self, SourceKind};
use crate::diag::Diagnostic;
use std::path::Path;

/// How `import` reads the bytes of an XSB file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Encoding {
    /// UTF-8; other bytes are an error naming where they are.
    Utf8,
    /// ISO 8859-1: every byte is the character of the same number.
    Latin1,
}

impl Encoding {
    /// The text of `bytes` read from `path`.
    fn decode(self, path: &Path, bytes: Vec<u8>) -> Result<String, String> {
        match self {
            Encoding::Latin1 => Ok(bytes.iter().map(|&b| char::from(b)).collect()),
            Encoding::Utf8 => String::from_utf8(bytes).map_err(|e| {
                let bytes = e.as_bytes();
                let at = e.utf8_error().valid_up_to();
                let before = &bytes[..at];
                let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
                let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
                let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
                format!(
                    "{}:{line}:{column}: byte 0x{:02X} isn't UTF-8 (M114); \
                     if the file is Latin-1, as older collections often are, pass `--encoding latin1`",
                    path.display(),
                    bytes[at]
                )
            }),
        }
    }
}

/// Runs `miauc import`; the exit status.
pub fn import(input: &str, out: Option<&Path>, encoding: Encoding) -> u8 {
    let path = Path::new(input);
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xsb"))
    {
        return import_xsb(path, out, encoding);
    }
    let (json, decoding) = match import_text(input) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 1;
        }
    };
    let input_path = Some(path).filter(|p| input != "-" && p.exists());
    let mut compiled = compile::compile(&json, SourceKind::Json);
    compiled.diagnostics.splice(0..0, decoding);
    let failed = print_diagnostics(
        &abbreviate(input),
        &json,
        &compiled.diagnostics,
        &Report::default(),
    );
    let Some(pack) = compiled.pack.filter(|_| !failed) else {
        return 1;
    };
    let unwritable = crate::import::unwritable(&pack);
    if !unwritable.is_empty() {
        for why in &unwritable {
            eprintln!("miauc: {}: {why}", abbreviate(input));
        }
        eprintln!("miauc: nothing imported: the .miau source wouldn't build");
        return 1;
    }
    let source = formatted(crate::import::to_miau(&pack));
    match out {
        Some(path) => {
            let inputs: Vec<&Path> = input_path.iter().copied().collect();
            if let Err(e) = files::write_output(path, source.as_bytes(), &inputs) {
                eprintln!("miauc: {e}");
                return 1;
            }
        }
        None => print!("{source}"),
    }
    0
}

/// The pack JSON `import` was given, with the diagnostics of decoding it: a
/// file of pack JSON, a share string as the argument, a file holding a share
/// string (`build --link` prints strings too long for a command line), or
/// `-` for either on standard input.
fn import_text(input: &str) -> Result<(String, Vec<Diagnostic>), String> {
    let from_share = |text: &str, shown: &str| {
        crate::share::decode(text.trim())
            .map(|json| (json, Vec::new()))
            .map_err(|e| format!("{shown}: not a share string: {e}"))
    };
    let bytes = if input == "-" {
        files::read_stdin()?
    } else if Path::new(input).exists() {
        files::read(Path::new(input))?
    } else {
        return crate::share::decode(input.trim())
            .map(|json| (json, Vec::new()))
            .map_err(|e| {
                format!(
                    "{}: not a file, and not a share string: {e}",
                    abbreviate(input)
                )
            });
    };
    let shown = if input == "-" {
        "standard input"
    } else {
        input
    };
    if bytes
        .trim_ascii_start()
        .starts_with(crate::share::PREFIX.as_bytes())
    {
        let text = String::from_utf8_lossy(&bytes);
        return from_share(&text, shown);
    }
    // Bytes that aren't UTF-8 are refused (M114), as `check` refuses them:
    // an import never writes U+FFFD where the pack had other bytes.
    Ok(compile::decode(&bytes))
}

/// Imported source as `miauc fmt` writes it, so that an import passes
/// `fmt --check` as it stands. The writers already emit source that parses;
/// should formatting ever refuse it, the unformatted text is still correct.
fn formatted(source: String) -> String {
    crate::fmt::format(&source).unwrap_or(source)
}

/// An argument as shown in a message: a share string can be 128 KiB, so
/// only its first 60 characters are echoed.
fn abbreviate(input: &str) -> String {
    const SHOWN: usize = 60;
    match input.char_indices().nth(SHOWN) {
        Some((at, _)) => format!(
            "{}… ({} more characters)",
            &input[..at],
            input[at..].chars().count()
        ),
        None => input.to_string(),
    }
}

/// `miauc import levels.xsb`: Sokoban levels to packs (`import::xsb`).
fn import_xsb(path: &Path, out: Option<&Path>, encoding: Encoding) -> u8 {
    let text = match files::read(path).and_then(|bytes| encoding.decode(path, bytes)) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("miauc: {e}");
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
    let mut packs = crate::import::xsb::to_packs(&stem, &levels, &credit);
    for pack in &mut packs {
        pack.text = formatted(std::mem::take(&mut pack.text));
    }
    // Source that builds, or nothing: every pack is compiled before any is written.
    for pack in &packs {
        let compiled = compile::compile(&pack.text, SourceKind::Miau);
        let name = format!("{}.miau", pack.id);
        if print_diagnostics(&name, &pack.text, &compiled.diagnostics, &Report::default()) {
            eprintln!(
                "miauc: {}: nothing imported: the .miau source wouldn't build",
                path.display()
            );
            return 1;
        }
    }
    let write =
        |target: &Path, text: &str| match files::write_output(target, text.as_bytes(), &[path]) {
            Ok(()) => {
                eprintln!("wrote {}", target.display());
                true
            }
            Err(e) => {
                eprintln!("miauc: {e}");
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
            // Every pack is written (and every failure reported), not only
            // those before the first failure.
            let failed = packs
                .iter()
                .filter(|p| !write(&dir.join(format!("{}.miau", p.id)), &p.text))
                .count();
            u8::from(failed > 0)
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
