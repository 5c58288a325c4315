//! `miauc build`: packs to pack JSON, and `--link`'s share strings, with
//! the guard that keeps a build from writing over what it shouldn't.

use super::{Format, Report, Tally, files, plural, print_diagnostics, read_source};
use crate::compile::{self, SourceKind};
use std::path::{Path, PathBuf};

/// `miauc build`: every pack of `inputs` that has no error becomes
/// `OUT/ID.json`; exit 0, 1 or 2.
pub(super) fn build(inputs: &[PathBuf], out: &Path, link: bool, report: &Report) -> u8 {
    let sources = match files::collect(inputs, &["miau"]) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("miauc: {e}");
            return 2;
        }
    };
    let mut guard = OutputGuard::new(&sources);
    let mut pack_ids = compile::PackIds::default();
    let mut failed = false;
    let mut tally = Tally::default();
    let show = report.show();
    let mut packs = 0usize;
    let mut written = 0usize;
    let human = report.format != Format::Json;
    for source in sources {
        let path = source.path;
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
        if let Some(pack) = &compiled.pack {
            diags.extend(pack_ids.declare(&name, pack));
            crate::diag::sort(&mut diags);
        }
        let fail = print_diagnostics(&name, &text, &diags, report);
        tally.add(&diags, show);
        failed |= fail;
        packs += 1;
        let Some(pack) = compiled.pack.filter(|_| !fail) else {
            continue;
        };
        let json = crate::json::to_json(&pack);
        if let Err(e) = std::fs::create_dir_all(out) {
            eprintln!("miauc: {}: {e}", out.display());
            return 1;
        }
        let target = out.join(format!("{}.json", pack.id));
        if let Err(e) = guard.claim(&target, &pack.id, &path) {
            eprintln!("miauc: {e}");
            failed = true;
            continue;
        }
        if let Err(e) = files::write_atomic(&target, json.as_bytes()) {
            eprintln!("miauc: {}: {e}", target.display());
            failed = true;
            continue;
        }
        written += 1;
        if !show.quiet && human {
            eprintln!("wrote {}", target.display());
        }
        if link {
            print_share_string(&pack.id, &json);
        }
    }
    if human {
        eprintln!(
            "{}, {written} written: {}",
            plural(packs, "pack"),
            tally.counts()
        );
        if let Some(line) = tally.denied(show) {
            eprintln!("{line}");
        }
    }
    u8::from(failed)
}

/// The longest single argument Linux passes to a program (`MAX_ARG_STRLEN`,
/// 32 pages): a longer share string can't be given to `import` on a command line.
const MAX_ARGUMENT_BYTES: usize = 128 * 1024;

/// `build --link`'s line for one pack: its share string, unless `import`
/// could never take it back (the JSON inflates past what a share string may
/// hold); a string too long for a command line comes with how to pass it.
fn print_share_string(id: &str, json: &str) {
    let (line, message) = share_output(id, json);
    if let Some(message) = message {
        eprintln!("{message}");
    }
    if let Some(line) = line {
        println!("{line}");
    }
}

/// The line `build --link` prints for a pack (`id: miau1:…`), if any, and
/// the warning or note that goes with it.
fn share_output(id: &str, json: &str) -> (Option<String>, Option<String>) {
    if json.len() > crate::share::MAX_DECODED_BYTES {
        let warning = format!(
            "warning: pack `{id}`: no share string: its JSON is {} MiB, more than the {} MiB \
             `miauc import` decodes from one; share the JSON file instead",
            json.len() >> 20,
            crate::share::MAX_DECODED_BYTES >> 20
        );
        return (None, Some(warning));
    }
    let link = crate::share::encode(json);
    let note = (link.len() > MAX_ARGUMENT_BYTES).then(|| {
        format!(
            "note: pack `{id}`: its share string is {} KiB, too long to pass as one argument; \
             save it to a file and run `miauc import FILE`, or pipe it to `miauc import -`",
            link.len() >> 10
        )
    });
    (Some(format!("{id}: {link}")), note)
}

/// What `build` may write: never one of its inputs, never the same file
/// twice in one run, never through a symbolic link, and never over a file
/// that isn't an earlier build of the same pack.
struct OutputGuard {
    inputs: Vec<(PathBuf, PathBuf)>,
    written: Vec<(PathBuf, PathBuf)>,
}

impl OutputGuard {
    fn new(sources: &[files::Source]) -> OutputGuard {
        OutputGuard {
            inputs: sources
                .iter()
                .map(|s| (s.real.clone(), s.path.clone()))
                .collect(),
            written: Vec::new(),
        }
    }

    /// Check `target` for pack `id` built from `from`, and remember it.
    fn claim(&mut self, target: &Path, id: &str, from: &Path) -> Result<(), String> {
        let shown = target.display();
        let link = std::fs::symlink_metadata(target).ok();
        if link.as_ref().is_some_and(std::fs::Metadata::is_symlink) {
            return Err(format!(
                "{shown} is a symbolic link; not writing through it (remove it, or pick another --out)"
            ));
        }
        // The real path of the target: its directory resolved, its own name kept.
        let real = match (target.parent(), target.file_name()) {
            (Some(dir), Some(file)) => std::fs::canonicalize(if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            })
            .map(|d| d.join(file))
            .unwrap_or_else(|_| target.to_path_buf()),
            _ => target.to_path_buf(),
        };
        if let Some((_, input)) = self.inputs.iter().find(|(r, _)| *r == real) {
            return Err(format!(
                "{shown} is the input {}; not overwriting it (pick another --out)",
                input.display()
            ));
        }
        // Two packs of one id are refused before this (M248, `PackIds`);
        // this keeps any other path that resolves twice from being written twice.
        if let Some((_, first)) = self.written.iter().find(|(r, _)| *r == real) {
            return Err(format!(
                "{} and {} both build {shown}; not writing it twice",
                first.display(),
                from.display()
            ));
        }
        if link.is_some() && !is_pack_json_of(target, id) {
            return Err(format!(
                "{shown} exists and isn't a built pack `{id}`; not overwriting it (remove it, or pick another --out)"
            ));
        }
        self.written.push((real, from.to_path_buf()));
        Ok(())
    }
}

/// Whether the file at `path` is pack JSON whose manifest id is `id` (an
/// earlier build, safe to replace).
fn is_pack_json_of(path: &Path, id: &str) -> bool {
    let Ok(bytes) = files::read(path) else {
        return false;
    };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return false;
    };
    value
        .pointer("/manifest/id")
        .and_then(serde_json::Value::as_str)
        == Some(id)
}

#[cfg(test)]
mod tests {
    #[test]
    fn share_strings_import_cannot_take_back_are_not_printed() {
        let huge = "x".repeat(crate::share::MAX_DECODED_BYTES + 1);
        let (line, message) = super::share_output("big", &huge);
        assert_eq!(line, None);
        assert!(
            message
                .unwrap()
                .starts_with("warning: pack `big`: no share string")
        );
    }

    #[test]
    fn share_strings_too_long_for_an_argument_say_how_to_pass_them() {
        // Text deflate can't shrink: a 200 KiB string of pseudo-random letters.
        let mut x: u32 = 1;
        let noisy: String = (0..200 * 1024)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                char::from(b'a' + ((x >> 16) % 26) as u8)
            })
            .collect();
        let (line, message) = super::share_output("noisy", &noisy);
        assert!(line.unwrap().starts_with("noisy: miau1:"));
        assert!(message.unwrap().contains("miauc import -"));
        let (line, message) = super::share_output("small", "{}");
        assert!(line.is_some());
        assert_eq!(message, None);
    }
}
