//! The command line's file system rules, in one place so every command
//! follows them:
//!
//! - directories are walked once per real directory (symbolic-link cycles
//!   end), and every real file is listed once, however many links reach it;
//! - only regular files are read, and at most [`MAX_SOURCE_BYTES`] of them,
//!   so a FIFO or a device named `x.miau` can't hang or flood a run;
//! - every write goes to a temporary file beside the target that is renamed
//!   over it, so a full disk or a killed process leaves the old file or the
//!   complete new one, never a partial one.

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
                walk(input, &root, ext, &mut seen_dirs, &mut found)
                    .map_err(|e| format!("{}: {e}", input.display()))?;
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

fn walk(
    dir: &Path,
    root: &Path,
    ext: &[&str],
    seen_dirs: &mut BTreeSet<PathBuf>,
    out: &mut Vec<Source>,
) -> std::io::Result<()> {
    // A directory reached a second time (through `a -> .`) is not walked again.
    if !seen_dirs.insert(std::fs::canonicalize(dir)?) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        // A dangling link is skipped like any other non-file.
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            walk(&path, root, ext, seen_dirs, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| ext.contains(&e))
        {
            let real = std::fs::canonicalize(&path)?;
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
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let meta = std::fs::metadata(path).map_err(err)?;
    if !meta.is_file() {
        return Err(format!(
            "{}: not a regular file; pass a .miau or .json file",
            path.display()
        ));
    }
    if meta.len() > MAX_SOURCE_BYTES {
        return Err(too_big(path));
    }
    let file = std::fs::File::open(path).map_err(err)?;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // The length may have grown since `metadata`: read one byte past the cap to notice.
    file.take(MAX_SOURCE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(err)?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        return Err(too_big(path));
    }
    Ok(bytes)
}

fn too_big(path: &Path) -> String {
    format!(
        "{}: larger than {} MiB, the most a source file may be",
        path.display(),
        MAX_SOURCE_BYTES >> 20
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
}
