//! `miauc build`, `import`, `fmt` and `explain` end to end, as a user runs them:
//! exit codes, files written, messages naming file:line:col, and bad input of
//! every kind ending in diagnostics (exit 0 or 1), never a panic (exit 101).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn miauc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .output()
        .expect("miauc runs")
}

/// A scratch directory removed when the test ends (pass or fail).
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for TempDir {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("miau-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

#[test]
fn help_lists_the_commands() {
    let out = miauc(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for cmd in ["build", "import", "fmt", "replay", "explain"] {
        assert!(text.contains(cmd), "--help lacks {cmd}:\n{text}");
    }
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(miauc(&["build"]).status.code(), Some(2));
    assert_eq!(miauc(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(miauc(&["explain", "M999"]).status.code(), Some(2));
}

#[test]
fn builds_bundled_packs_twice_to_identical_bytes_and_links_round_trip() {
    let dir = temp_dir("bundled");
    let out1 = dir.join("one");
    let out2 = dir.join("two");
    let r = miauc(&[
        "build",
        &repo("packs"),
        "-o",
        out1.to_str().unwrap(),
        "--deny",
        "warnings",
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let r = miauc(&[
        "build",
        &repo("packs"),
        "-o",
        out2.to_str().unwrap(),
        "--link",
    ]);
    assert!(r.status.success());
    for name in ["crate-works.json", "clockwork.json"] {
        let a = std::fs::read(out1.join(name)).unwrap();
        let b = std::fs::read(out2.join(name)).unwrap();
        assert_eq!(a, b, "{name} differs between two builds");
    }
    // The share string imports back to a source that builds to the same bytes.
    let links = String::from_utf8_lossy(&r.stdout).to_string();
    let line = links
        .lines()
        .find(|l| l.starts_with("crate-works: "))
        .expect("a link line");
    let link = line.trim_start_matches("crate-works: ");
    assert!(link.starts_with("miau1:") && !link.contains(['+', '/', '=']));
    let src = dir.join("from-link.miau");
    let r = miauc(&["import", link, "-o", src.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    // Import writes what fmt would: the file passes `fmt --check` as written.
    let r = miauc(&["fmt", "--check", src.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let out3 = dir.join("three");
    let r = miauc(&["build", src.to_str().unwrap(), "-o", out3.to_str().unwrap()]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        std::fs::read(out3.join("crate-works.json")).unwrap(),
        std::fs::read(out1.join("crate-works.json")).unwrap()
    );
}

#[test]
fn an_error_names_file_line_and_column_and_writes_nothing() {
    let dir = temp_dir("error");
    let src = dir.join("broken.miau");
    std::fs::write(
        &src,
        "pack broken {\n  name \"Broken\"\n  version \"1.0.0\"\n  engine 1\n}\n\nlevel one {\n  title \"One\"\n  board {\n    MIAU IS YOU\n    m . . .\n  }\n}\n",
    )
    .unwrap();
    let out = dir.join("out");
    let r = miauc(&["build", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("--> "), "{err}");
    assert!(err.contains("broken.miau:11:"), "{err}");
    assert!(err.contains("error[M108]: "), "{err}");
    assert!(
        err.lines()
            .last()
            .is_some_and(|l| l.starts_with("1 pack, 0 written: 1 error")),
        "{err}"
    );
    assert!(!out.join("broken.json").exists());
    // The same as JSON lines, for tools.
    let r = miauc(&[
        "build",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let line = String::from_utf8_lossy(&r.stderr)
        .lines()
        .find(|l| l.contains("M108"))
        .expect("an M108 line")
        .to_string();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["code"], "M108");
    assert_eq!(v["name"], "ragged-board-row");
    assert_eq!(v["severity"], "error");
    assert_eq!(v["line"], 11);
    assert_eq!(v["level"], "one");
    for key in ["file", "column", "end_line", "end_column", "message"] {
        assert!(v.get(key).is_some(), "{key} missing: {line}");
    }
}

#[test]
fn fmt_check_reports_and_fmt_rewrites() {
    let dir = temp_dir("fmt");
    let src = dir.join("messy.miau");
    let messy = "pack messy {\nname \"Messy\"\n    version \"1.0.0\"\nengine 1\n}\nlevel one {\ntitle \"One\"\nboard {\nMIAU IS YOU\n. . WIN\nm . .\n}\n}\n";
    std::fs::write(&src, messy).unwrap();
    let r = miauc(&["fmt", "--check", src.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&src).unwrap(),
        messy,
        "--check must not write"
    );
    // It shows what would change, as a unified diff against the file.
    let shown = String::from_utf8_lossy(&r.stdout).replace(&dir.display().to_string(), "<dir>");
    insta::assert_snapshot!("fmt_check_diff", shown);
    assert!(miauc(&["fmt", src.to_str().unwrap()]).status.success());
    let once = std::fs::read_to_string(&src).unwrap();
    assert_ne!(once, messy);
    assert!(once.contains("    MIAU IS YOU\n"), "{once}");
    assert_eq!(
        miauc(&["fmt", "--check", src.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn explain_prints_the_reference_page() {
    let r = miauc(&["explain", "undeclared-property-word"]);
    assert!(r.status.success());
    let page = String::from_utf8_lossy(&r.stdout);
    assert!(
        page.starts_with("### M301 undeclared-property-word"),
        "{page}"
    );
}

#[test]
fn explain_prints_a_section_of_the_rules() {
    let r = miauc(&["explain", "SINK"]);
    assert!(r.status.success());
    let page = String::from_utf8_lossy(&r.stdout);
    assert!(page.starts_with("### SINK\n"), "{page}");
    assert!(page.contains("level sink {"), "{page}");
    assert!(!page.contains("### DEFEAT"), "{page}");
    assert!(page.contains("From docs/rules.md#sink"), "{page}");
    let r = miauc(&["explain", "the-turn"]);
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("## The turn\n"));
    let r = miauc(&["explain", "no-such-topic"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("docs/rules.md"));
    assert!(String::from_utf8_lossy(&r.stderr).contains("miauc explain topics"));
    // The word a hover names leads to its mechanism's section.
    let r = miauc(&["explain", "OPEN"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).starts_with("### Pairs\n"));
    // The list of topics, asked for or by giving none.
    for args in [&["explain", "topics"][..], &["explain"][..]] {
        let r = miauc(args);
        assert!(r.status.success(), "{args:?}");
        let page = String::from_utf8_lossy(&r.stdout);
        assert!(
            page.contains("`the-turn`") && page.contains("| M301 |"),
            "{page}"
        );
    }
    // A misspelt name gets its suggestion: a diagnostic name, or a section.
    let r = miauc(&["explain", "skipable"]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("did you mean skippable?"), "{err}");
    let r = miauc(&["explain", "the-trun"]);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("did you mean the-turn?"), "{err}");
}

/// Piped, `explain` prints the page's Markdown unchanged, for a pager or a
/// Markdown viewer.
#[test]
fn explain_piped_is_the_markdown() {
    let r = miauc(&["explain", "M332"]);
    assert!(r.status.success());
    let page = String::from_utf8_lossy(&r.stdout);
    assert_eq!(page, miau::diag::explain("M332").unwrap());
    assert!(page.contains("**Severity:**"), "{page}");
}

/// On a terminal, `explain` lays the page out: no `**`, backticks, heading
/// marks or link syntax (run under `script`, which gives it a pty).
#[test]
fn explain_on_a_terminal_is_laid_out() {
    let cmd = format!("{} explain M301", env!("CARGO_BIN_EXE_miauc"));
    let out = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &cmd, "/dev/null"])
        .env("NO_COLOR", "1")
        .output()
        .expect("script runs (util-linux)");
    assert!(out.status.success(), "{out:?}");
    let page = String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n");
    assert!(
        page.starts_with("M301 undeclared-property-word\n"),
        "{page}"
    );
    assert!(page.contains("Severity: warning"), "{page}");
    for raw in ["**", "`", "###", "]("] {
        assert!(!page.contains(raw), "{raw} left in:\n{page}");
    }
    // The example board keeps its columns, indented as a block.
    assert!(
        page.contains("\n        MIAU IS YOU  . FLAG IS WIN\n"),
        "{page}"
    );
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.max(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn bad_input_never_crashes_the_cli() {
    let dir = temp_dir("bad");
    let pack = std::fs::read_to_string(repo("packs/crate-works.miau")).unwrap();
    let lines: Vec<&str> = pack.lines().collect();
    let mut inputs: Vec<(String, Vec<u8>)> = vec![
        ("empty".into(), Vec::new()),
        ("noise".into(), noise(7, 5000)),
        ("nested".into(), "{".repeat(100_000).into_bytes()),
        (
            "truncated".into(),
            pack.as_bytes()[..pack.len() / 2].to_vec(),
        ),
        (
            "big".into(),
            pack.repeat(10 * 1024 * 1024 / pack.len() + 1).into_bytes(),
        ),
    ];
    for i in (0..lines.len()).step_by(7) {
        let mut deleted = lines.clone();
        deleted.remove(i);
        inputs.push((format!("deleted-{i}"), deleted.join("\n").into_bytes()));
        let mut duplicated = lines.clone();
        duplicated.insert(i, lines[i]);
        inputs.push((
            format!("duplicated-{i}"),
            duplicated.join("\n").into_bytes(),
        ));
    }
    for (name, bytes) in inputs {
        let path = dir.join(format!("{name}.miau"));
        std::fs::write(&path, &bytes).unwrap();
        for args in [
            vec!["build", path.to_str().unwrap(), "-o", dir.to_str().unwrap()],
            vec!["fmt", "--check", path.to_str().unwrap()],
            vec!["import", path.to_str().unwrap()],
        ] {
            let r = miauc(&args);
            let code = r.status.code();
            assert!(
                matches!(code, Some(0) | Some(1)),
                "{args:?} on {name}: exit {code:?}\n{}",
                String::from_utf8_lossy(&r.stderr)
            );
            assert!(!String::from_utf8_lossy(&r.stderr).contains("panicked"));
        }
    }
}
