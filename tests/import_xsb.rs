//! `miauc import FILE.xsb` as the real binary: Sokoban levels become packs
//! that build and check, large sets split into packs of 64 levels, and bad
//! input is refused with its line and column.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn miauc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_miauc"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("miauc runs")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("miau-import-xsb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

const LEVEL: &str = "; 1\n'Step aside'\n######\n#@ $.#\n######\n\n";

#[test]
fn imported_levels_build_and_check_clean() {
    let dir = scratch("one");
    std::fs::write(
        dir.join("tiny.xsb"),
        format!("; Tiny, by nobody\n\n{LEVEL}"),
    )
    .unwrap();
    let out = miauc(&dir, &["import", "tiny.xsb", "-o", "tiny.miau"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(dir.join("tiny.miau")).unwrap();
    assert!(text.contains("// Tiny, by nobody"), "{text}");
    assert!(text.contains("title      \"Step aside\""), "{text}");
    // The import is canonical: the formatter leaves it alone.
    let fmt = miauc(&dir, &["fmt", "--check", "tiny.miau"]);
    assert!(
        fmt.status.success(),
        "{}",
        String::from_utf8_lossy(&fmt.stdout)
    );
    let check = miauc(&dir, &["check", "tiny.miau"]);
    let report = String::from_utf8_lossy(&check.stdout).into_owned()
        + &String::from_utf8_lossy(&check.stderr);
    assert!(check.status.success(), "{report}");
    assert!(report.contains("solved in 2 steps, route RR"), "{report}");
    // Standard output when no `-o` is given: the same text.
    let stdout = miauc(&dir, &["import", "tiny.xsb"]);
    assert_eq!(String::from_utf8_lossy(&stdout.stdout), text);
}

#[test]
fn more_than_64_levels_need_a_directory() {
    let dir = scratch("many");
    std::fs::write(dir.join("many.xsb"), LEVEL.replace("; 1\n", "").repeat(70)).unwrap();
    let out = miauc(&dir, &["import", "many.xsb"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("70 levels make 2 packs"), "{err}");
    assert!(err.contains("-o DIR"), "{err}");
    let out = miauc(&dir, &["import", "many.xsb", "-o", "packs"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<String> = std::fs::read_dir(dir.join("packs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["many-1-64.miau", "many-65-70.miau"]);
    let build = miauc(&dir, &["build", "packs", "-o", "out"]);
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
}

#[test]
fn bad_input_names_file_line_and_column() {
    let dir = scratch("bad");
    std::fs::write(dir.join("bad.xsb"), "######\n#@ $.#\n#  x #\n######\n").unwrap();
    let out = miauc(&dir, &["import", "bad.xsb"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("miauc: bad.xsb:3:4: unexpected 'x'"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
