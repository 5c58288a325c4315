//! The file-system rules of both shells, in one place so every command and
//! the language server's workspace scan follow them:
//!
//! - directories are walked once per real directory (symbolic-link cycles
//!   end), and every real file is listed once, however many links reach it;
//! - only regular files are read, and at most [`MAX_SOURCE_BYTES`] of them,
//!   so a FIFO or a device named `x.miau` can't hang or flood a run;
//! - every write goes to a temporary file beside the target that is renamed
//!   over it, so a full disk or a killed process leaves the old file or the
//!   complete new one, never a partial one;
//! - a command's output (`import -o`, `render -o`, `build -o`) is written
//!   only to a path that holds nothing or a regular file: never through a
//!   symbolic link, over a device, FIFO or directory, or over one of the
//!   command's own inputs ([`write_output`]).

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The largest source file the commands read (32 MiB): a full pack of 64
/// levels of 128 × 128 boards is under 5 MiB, so this only stops runaways.
pub const MAX_SOURCE_BYTES: u64 = 32 << 20;

/// One source found by [`collect`]: the path as the user spelled it (for
/// messages), and the real file behind it (for writing and for identity).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The path as reached from the inputs (shown in messages).
    pub path: PathBuf,
    /// The canonical path of the file (symbolic links resolved).
    pub real: PathBuf,
    /// Whether the file was reached through a directory walk and lies
    /// outside that directory (a link leading out of it).
    pub outside: bool,
}

/// Expand directories into the files with one of these extensions (sorted,
/// recursive), keep files as given. Each real file appears once.
pub fn collect(inputs: &[PathBuf], ext: &[&str]) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    let mut seen_files = BTreeSet::new();
    for input in inputs {
        let meta = std::fs::metadata(input);
        match meta {
            Ok(m) if m.is_dir() => {
                let root = canonical(input)?;
                let mut found = Vec::new();
                let mut seen_dirs = BTreeSet::new();
                walk(
                    input,
                    &root,
                    &root,
                    ext,
                    EVERYTHING,
                    &mut seen_dirs,
                    &mut found,
                )?;
                found.sort_by(|a: &Source, b| a.path.cmp(&b.path));
                for s in found {
                    if seen_files.insert(s.real.clone()) {
                        out.push(s);
                    }
                }
            }
            Ok(_) => {
                let real = canonical(input)?;
                if seen_files.insert(real.clone()) {
                    out.push(Source {
                        path: input.clone(),
                        real,
                        outside: false,
                    });
                }
            }
            Err(_) => return Err(format!("{}: no such file or directory", input.display())),
        }
    }
    Ok(out)
}

fn canonical(path: &Path) -> Result<PathBuf, String> {
    std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// How far a directory walk goes.
#[derive(Debug, Clone, Copy)]
struct Reach {
    /// Skip hidden directories and build output (`target`, `node_modules`),
    /// as an editor's workspace scan does; the command line walks whatever
    /// it is given.
    skip_build_dirs: bool,
    /// Stop after this many files.
    max_files: usize,
    /// Skip a directory or file that can't be read and go on, as an
    /// editor's scan does (it only shows problems early); the command line
    /// stops with the error, since it was asked for everything.
    skip_unreadable: bool,
}

/// The command line's reach: everything under the directories given.
const EVERYTHING: Reach = Reach {
    skip_build_dirs: false,
    max_files: usize::MAX,
    skip_unreadable: false,
};

/// Whether a workspace scan leaves this directory out.
fn is_build_or_hidden(name: &str) -> bool {
    name.starts_with('.') || name == "target" || name == "node_modules"
}

/// The sources of an editor's workspace folders: the files with one of
/// these extensions under `roots`, by the same rules as [`collect`] (each
/// real directory walked once, so link cycles and fans of links to `.` end;
/// each real file once), skipping hidden and build directories, at most
/// `max_files` of them. A folder that can't be read is skipped: the scan
/// only shows problems early, and the editor reports files as they open.
pub fn workspace_sources(roots: &[PathBuf], ext: &[&str], max_files: usize) -> Vec<Source> {
    let reach = Reach {
        skip_build_dirs: true,
        max_files,
        skip_unreadable: true,
    };
    let mut out: Vec<Source> = Vec::new();
    let mut seen_dirs = BTreeSet::new();
    for root in roots {
        let Ok(real_root) = std::fs::canonicalize(root) else {
            continue;
        };
        let mut found = Vec::new();
        let _ = walk(
            root,
            &real_root,
            &real_root,
            ext,
            reach,
            &mut seen_dirs,
            &mut found,
        );
        for s in found {
            if out.len() < max_files && !out.iter().any(|o| o.real == s.real) {
                out.push(s);
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Walk `dir`, whose canonical path is `real_dir`, into `out`. An error
/// names the folder or file that couldn't be read.
///
/// The real path of an entry that isn't a symbolic link is its directory's
/// joined with its name; only links are resolved with `canonicalize`.
/// Resolving every directory instead costs a lookup of each of its
/// components, and a tree nested two thousand deep took minutes.
fn walk(
    dir: &Path,
    real_dir: &Path,
    root: &Path,
    ext: &[&str],
    reach: Reach,
    seen_dirs: &mut BTreeSet<PathBuf>,
    out: &mut Vec<Source>,
) -> Result<(), String> {
    // A directory reached a second time (through `a -> .`) is not walked again.
    if !seen_dirs.insert(real_dir.to_path_buf()) {
        return Ok(());
    }
    // Whether each entry is a link (one that can't tell is resolved as one).
    let unreadable = |path: &Path, e: std::io::Error| format!("{}: {e}", path.display());
    let mut entries: Vec<(PathBuf, bool)> = std::fs::read_dir(dir)
        .and_then(|entries| {
            entries
                .map(|e| e.map(|e| (e.path(), e.file_type().map_or(true, |t| t.is_symlink()))))
                .collect::<Result<_, _>>()
        })
        .map_err(|e| unreadable(dir, e))?;
    entries.sort();
    for (path, is_link) in entries {
        if out.len() >= reach.max_files {
            break;
        }
        // A dangling link is skipped like any other non-file.
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        let real_of = |path: &Path| match path.file_name() {
            Some(name) if !is_link => Ok(real_dir.join(name)),
            _ => std::fs::canonicalize(path).map_err(|e| unreadable(path, e)),
        };
        if meta.is_dir() {
            let name = path.file_name().map(|n| n.to_string_lossy());
            if reach.skip_build_dirs && name.is_some_and(|n| is_build_or_hidden(&n)) {
                continue;
            }
            let walked = real_of(&path)
                .and_then(|real| walk(&path, &real, root, ext, reach, seen_dirs, out));
            match walked {
                Err(_) if reach.skip_unreadable => continue,
                other => other?,
            }
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ext.contains(&e))
        {
            let real = match real_of(&path) {
                Err(_) if reach.skip_unreadable => continue,
                other => other?,
            };
            let outside = !real.starts_with(root);
            out.push(Source {
                path,
                real,
                outside,
            });
        }
    }
    Ok(())
}

/// Read a regular file of at most [`MAX_SOURCE_BYTES`]; anything else
/// (a FIFO, a device, a directory, a huge file) is an error naming the file.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    read_at_most(path, MAX_SOURCE_BYTES)
}

/// Read a regular file of at most `max` bytes, checking its size before
/// reading any of it (a link to `/dev/zero` is not a regular file; a file
/// growing while it is read stops one byte past `max`).
pub fn read_at_most(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let meta = std::fs::metadata(path).map_err(err)?;
    if !meta.is_file() {
        return Err(format!(
            "{}: not a regular file; pass a .miau or .json file",
            path.display()
        ));
    }
    if meta.len() > max {
        return Err(too_big(path, max));
    }
    let file = std::fs::File::open(path).map_err(err)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // The length may have grown since `metadata`: read one byte past the cap to notice.
    file.take(max + 1).read_to_end(&mut bytes).map_err(err)?;
    if bytes.len() as u64 > max {
        return Err(too_big(path, max));
    }
    Ok(bytes)
}

/// Read standard input, at most [`MAX_SOURCE_BYTES`] of it, like [`read`]
/// reads a file.
pub fn read_stdin() -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("standard input: {e}"))?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(too_big(Path::new("standard input"), MAX_SOURCE_BYTES));
    }
    Ok(bytes)
}

fn too_big(path: &Path, max: u64) -> String {
    format!(
        "{}: larger than {} MiB, the most a source file may be",
        path.display(),
        max >> 20
    )
}

/// Write `bytes` to `target` atomically: into a temporary file in the same
/// directory, flushed to disk, then renamed over `target`. On any error the
/// temporary file is removed and `target` is untouched.
pub fn write_atomic(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (tmp, mut file) = create_temp(&dir, &name)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| keep_permissions(target, &file));
    drop(file);
    let result = written.and_then(|()| std::fs::rename(&tmp, target));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// What [`rewrite_source`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The text the edit was applied to: what the file held when written,
    /// which differs from what the command read at its start when an editor
    /// or another run saved it meanwhile.
    pub before: String,
    /// The text written.
    pub after: String,
}

/// Rewrite the source file at `path` in place by `edit`, which maps the
/// file's current text to its new text (`None`: nothing to write).
///
/// The one writer for commands that change a source (`fmt`, `check --fix`,
/// the player's save): a symbolic link is written where it points and stays
/// a link; the edit is applied to what the file holds now, not to the text
/// read when the command started, so an edit saved meanwhile (an editor, a
/// second `check --fix --shard`) is kept; and just before the atomic rename
/// the file is read once more, and the edit applied again should it have
/// changed (three tries, then an error: nothing written).
pub fn rewrite_source(
    path: &Path,
    edit: &mut dyn FnMut(&str) -> Result<Option<String>, String>,
) -> Result<Option<Rewritten>, String> {
    let target = std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text_of = |bytes: Vec<u8>| {
        String::from_utf8(bytes).map_err(|_| {
            format!(
                "{} is no longer UTF-8 text; not writing over it",
                path.display()
            )
        })
    };
    for _ in 0..3 {
        let before = read(&target)?;
        let Some(after) = edit(&text_of(before.clone())?)? else {
            return Ok(None);
        };
        if read(&target)? != before {
            continue;
        }
        write_atomic(&target, after.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(Some(Rewritten {
            before: text_of(before)?,
            after,
        }));
    }
    Err(format!(
        "{} kept changing while it was being rewritten; not written",
        path.display()
    ))
}

/// Why `target` may not receive a command's output, if it may not: it is a
/// symbolic link (writing through it would change a file the user didn't
/// name), something other than a regular file (renaming over `/dev/null` or
/// a FIFO replaces it), or the same file as one of `inputs` (the command
/// would destroy what it read).
pub fn output_refusal(target: &Path, inputs: &[&Path]) -> Option<String> {
    let shown = target.display();
    let meta = std::fs::symlink_metadata(target).ok()?;
    if meta.is_symlink() {
        return Some(format!(
            "{shown} is a symbolic link; not writing through it (remove it, or pick another output)"
        ));
    }
    if !meta.is_file() {
        return Some(format!(
            "{shown} exists and isn't a regular file; not replacing it (pick another output)"
        ));
    }
    let real = std::fs::canonicalize(target).ok()?;
    let input = inputs
        .iter()
        .find(|i| std::fs::canonicalize(i).is_ok_and(|r| r == real))?;
    Some(format!(
        "{shown} is the input {}; not overwriting it (pick another output)",
        input.display()
    ))
}

/// Write a command's output to `target` atomically, after
/// [`output_refusal`] allows it. The error names the file.
pub fn write_output(target: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), String> {
    if let Some(why) = output_refusal(target, inputs) {
        return Err(why);
    }
    write_atomic(target, bytes).map_err(|e| format!("{}: {e}", target.display()))
}

/// A new file `.<name>.<pid>.<n>.tmp` in `dir`, created exclusively so two
/// runs never share one.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
    let pid = std::process::id();
    let mut n = 0u32;
    loop {
        let tmp = dir.join(format!(".{name}.{pid}.{n}.tmp"));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
            Err(e) => return Err(e),
        }
    }
}

/// A rewritten file keeps the permissions of the one it replaces.
fn keep_permissions(target: &Path, file: &std::fs::File) -> std::io::Result<()> {
    match std::fs::metadata(target) {
        Ok(m) => file.set_permissions(m.permissions()),
        Err(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("miau-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = scratch("failed");
        let target = dir.join("p.miau");
        std::fs::write(&target, "old").unwrap();
        // Renaming a file over a directory fails after the bytes were written.
        let blocked = dir.join("d.miau");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("x"), "keep").unwrap();
        assert!(write_atomic(&blocked, b"new").is_err());
        assert!(write_atomic(&target, b"new").is_ok());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left.len(), 2, "a temporary file was left: {left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A workspace scan goes on past a folder it can't read; the command
    /// line stops there with the error. Run as a user without root's
    /// override of permissions: as root, the test runs itself again as
    /// `nobody` (setpriv), the walk in that child.
    #[test]
    #[cfg(unix)]
    fn an_unreadable_folder_is_skipped_by_the_scan_and_named_by_the_command_line() {
        use std::os::unix::fs::PermissionsExt;
        const CHILD: &str = "MIAU_FILES_UNREADABLE_CHILD";
        let name = "files::tests::an_unreadable_folder_is_skipped_by_the_scan_and_named_by_the_command_line";
        let dir = match std::env::var_os(CHILD) {
            Some(dir) => PathBuf::from(dir),
            None => {
                let dir = scratch("unreadable");
                for sub in ["a-closed", "b-open"] {
                    std::fs::create_dir(dir.join(sub)).unwrap();
                    std::fs::write(dir.join(sub).join("x.miau"), "pack x {\n").unwrap();
                }
                let open = std::fs::Permissions::from_mode(0o755);
                std::fs::set_permissions(&dir, open.clone()).unwrap();
                std::fs::set_permissions(
                    dir.join("a-closed"),
                    std::fs::Permissions::from_mode(0o000),
                )
                .unwrap();
                if std::fs::read_dir(dir.join("a-closed")).is_ok() {
                    // Root reads it anyway: walk as `nobody` in a child.
                    let status = std::process::Command::new("setpriv")
                        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                        .arg(std::env::current_exe().unwrap())
                        .args(["--exact", name, "--test-threads=1"])
                        .env(CHILD, &dir)
                        .status()
                        .expect("setpriv runs");
                    std::fs::set_permissions(dir.join("a-closed"), open).unwrap();
                    std::fs::remove_dir_all(&dir).unwrap();
                    assert!(status.success(), "the walk as nobody failed");
                    return;
                }
                dir
            }
        };
        let found = workspace_sources(std::slice::from_ref(&dir), &["miau"], 256);
        let names: Vec<_> = found
            .iter()
            .map(|s| s.path.strip_prefix(&dir).unwrap().to_owned())
            .collect();
        assert_eq!(names, [PathBuf::from("b-open/x.miau")]);
        let err = collect(std::slice::from_ref(&dir), &["miau"]).unwrap_err();
        assert!(err.contains("a-closed"), "{err}");
        if std::env::var_os(CHILD).is_none() {
            std::fs::set_permissions(dir.join("a-closed"), std::fs::Permissions::from_mode(0o755))
                .unwrap();
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    /// Directories nested as deep as a path may name (about two thousand):
    /// each is walked in a moment, where resolving each one's whole path
    /// took minutes. Both walks find the file at the bottom.
    #[test]
    fn a_deep_tree_is_walked_quickly() {
        let dir = scratch("deep");
        let mut deep = dir.clone();
        while deep.as_os_str().len() < 4000 {
            deep.push("d");
        }
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(deep.join("x.miau"), "pack x {\n").unwrap();
        let start = std::time::Instant::now();
        let found = collect(std::slice::from_ref(&dir), &["miau"]).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].real,
            std::fs::canonicalize(deep.join("x.miau")).unwrap()
        );
        let found = workspace_sources(std::slice::from_ref(&dir), &["miau"], 256);
        assert_eq!(found.len(), 1);
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn a_rewrite_goes_through_a_link_and_edits_the_text_as_it_is_now() {
        let dir = scratch("rewrite");
        let real = dir.join("real.miau");
        std::fs::write(&real, "one\n").unwrap();
        let link = dir.join("link.miau");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        // Another writer saves while the edit is being worked out: the edit
        // is applied again to what the file holds then.
        let mut calls = 0;
        let done = rewrite_source(&link, &mut |text| {
            calls += 1;
            if calls == 1 {
                std::fs::write(&real, "one\ntwo\n").unwrap();
            }
            Ok(Some(format!("{text}added\n")))
        })
        .unwrap()
        .unwrap();
        assert_eq!(calls, 2);
        assert_eq!(done.before, "one\ntwo\n");
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "one\ntwo\nadded\n");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        // Nothing to change: nothing written.
        assert_eq!(rewrite_source(&link, &mut |_| Ok(None)), Ok(None));
        // A file that never holds still is not written.
        let err = rewrite_source(&link, &mut |text| {
            std::fs::write(&real, format!("{text}x")).unwrap();
            Ok(Some(String::new()))
        })
        .unwrap_err();
        assert!(err.contains("kept changing"), "{err}");
        assert!(!std::fs::read_to_string(&real).unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn outputs_go_only_to_new_or_regular_files_that_are_not_inputs() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("outputs");
        let input = dir.join("in.xsb");
        std::fs::write(&input, "input").unwrap();
        let inputs = [input.as_path()];
        // A new path and an existing regular file are written.
        let fresh = dir.join("new.miau");
        assert_eq!(write_output(&fresh, b"a", &inputs), Ok(()));
        assert_eq!(write_output(&fresh, b"b", &inputs), Ok(()));
        assert_eq!(std::fs::read_to_string(&fresh).unwrap(), "b");
        // The input itself, by its name or another spelling of it, is not.
        let again = dir.join(".").join("in.xsb");
        for target in [&input, &again] {
            let err = write_output(target, b"x", &inputs).unwrap_err();
            assert!(err.contains("is the input"), "{err}");
        }
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "input");
        // Nor a link (even to a harmless file), a FIFO or a directory.
        let link = dir.join("link.miau");
        std::os::unix::fs::symlink(&fresh, &link).unwrap();
        let err = write_output(&link, b"x", &inputs).unwrap_err();
        assert!(err.contains("symbolic link"), "{err}");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&fresh).unwrap(), "b");
        let fifo = dir.join("fifo.miau");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let sub = dir.join("sub.miau");
        std::fs::create_dir(&sub).unwrap();
        for target in [&fifo, &sub] {
            let err = write_output(target, b"x", &inputs).unwrap_err();
            assert!(err.contains("isn't a regular file"), "{err}");
        }
        assert!(
            std::fs::symlink_metadata(&fifo)
                .unwrap()
                .file_type()
                .is_fifo()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
