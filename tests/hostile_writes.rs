//! Writers in their lane: `import -o` and `render -o` never replace a link,
//! a device, a FIFO or their own input; XSB import writes source that
//! builds, or nothing; share strings `build --link` prints come back through
//! `import` from a file or standard input. Each test is the minimal case of
//! a defect a careless or hostile user met.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Instant;

fn miauc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("miauc runs")
}

fn miauc_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("miauc runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().expect("output")
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("miau-writes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

const LEVEL: &str = "; 1\n'Step aside'\n######\n#@ $.#\n######\n\n";

/// Crate Works built into `dir`: pack JSON that validates.
fn built_json(dir: &Path) -> PathBuf {
    let out = miauc(&["build", s(&repo("packs/crate-works.miau")), "-o", s(dir)]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir.join("crate-works.json")
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

#[test]
fn import_never_overwrites_its_own_input() {
    let dir = temp_dir("own-input");
    let xsb = dir.0.join("levels.xsb");
    std::fs::write(&xsb, LEVEL).unwrap();
    let out = miauc(&["import", s(&xsb), "-o", s(&xsb)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&xsb).unwrap(), LEVEL);

    let json = built_json(&dir.0);
    let before = std::fs::read(&json).unwrap();
    let out = miauc(&["import", s(&json), "-o", s(&json)]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&json).unwrap(), before);
}

#[test]
fn import_and_render_refuse_links_fifos_and_directories() {
    let dir = temp_dir("lanes");
    let xsb = dir.0.join("levels.xsb");
    std::fs::write(&xsb, LEVEL).unwrap();
    let precious = dir.0.join("precious.txt");
    std::fs::write(&precious, "keep me").unwrap();
    let link = dir.0.join("link.miau");
    std::os::unix::fs::symlink(&precious, &link).unwrap();
    let fifo = dir.0.join("fifo.svg");
    mkfifo(&fifo);
    let sub = dir.0.join("sub.png");
    std::fs::create_dir(&sub).unwrap();

    let out = miauc(&["import", s(&xsb), "-o", s(&link)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    let pack = repo("packs/crate-works.miau");
    let render = |target: &Path| {
        miauc(&[
            "render",
            s(&pack),
            "--level",
            "crates-move",
            "-o",
            s(target),
        ])
    };
    let link_svg = dir.0.join("link.svg");
    std::os::unix::fs::symlink(&precious, &link_svg).unwrap();
    for target in [&link_svg, &fifo, &sub] {
        let out = render(target);
        assert_eq!(out.status.code(), Some(1), "{target:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&target.display().to_string()),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(std::fs::symlink_metadata(&link_svg).unwrap().is_symlink());
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    // A plain target is written, and replaced whole on the next render.
    let svg = dir.0.join("board.svg");
    std::fs::write(&svg, "old").unwrap();
    assert_eq!(render(&svg).status.code(), Some(0));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
}

#[test]
fn render_on_a_full_disk_keeps_the_old_picture() {
    let dir = temp_dir("render-full");
    let png = dir.0.join("board.png");
    std::fs::write(&png, "the old picture").unwrap();
    // A file size limit of 8 KiB: writing the PNG fails with EFBIG, as on a full disk.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 16; trap '' XFSZ; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_miauc"))
        .args([
            "render",
            s(&repo("packs/crate-works.miau")),
            "--level",
            "crates-move",
            "-o",
            s(&png),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&png).unwrap(), "the old picture");
    let left: Vec<_> = std::fs::read_dir(&dir.0).unwrap().collect();
    assert_eq!(left.len(), 1, "a temporary file was left");
}

/// Imports `xsb` (written under `name` in a scratch directory) to one file
/// and returns the run and the file's text, if written.
fn import_xsb(tag: &str, name: &str, xsb: &[u8], extra: &[&str]) -> (Output, Option<String>) {
    let dir = temp_dir(tag);
    let path = dir.0.join(name);
    std::fs::write(&path, xsb).unwrap();
    let target = dir.0.join("out.miau");
    let mut args = vec!["import", s(&path), "-o", s(&target)];
    args.extend_from_slice(extra);
    let out = miauc(&args);
    let text = std::fs::read_to_string(&target).ok();
    if let Some(text) = &text {
        let check = miauc(&["build", s(&target), "-o", s(&dir.0.join("built"))]);
        assert!(check.status.success(), "{}\n{text}", stderr(&check));
    }
    (out, text)
}

#[test]
fn xsb_titles_and_names_with_control_characters_import_as_one_line() {
    let xsb = b"; 1\n'Carriage\rreturn\ttab'\n######\n#@ $.#\n######\n";
    let (out, text) = import_xsb("cr", "odd\nname.xsb", xsb, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = text.unwrap();
    assert!(text.contains(" \"Carriage return tab\"\n"), "{text}");
    assert!(text.contains(" \"odd name\"\n"), "{text}");
    assert!(!text.contains('\r'));
}

#[test]
fn a_long_xsb_file_name_still_makes_a_valid_pack_id() {
    let name = format!("{}.xsb", "long-collection-name".repeat(5));
    let (out, text) = import_xsb("long", &name, LEVEL.as_bytes(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = text.unwrap();
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("pack "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap();
    assert!(id.len() <= 64, "{id}");
}

#[test]
fn an_xsb_map_with_too_many_things_is_refused_by_level() {
    // 66 × 66 cells, the inside filled with boxes and goals: far past 4,096 things.
    let mut xsb = String::from("; 7\n");
    xsb.push_str(&"#".repeat(66));
    xsb.push('\n');
    for row in 0..64 {
        let inside: String = (0..64)
            .map(|c| match (row, c) {
                (0, 1) => '+',
                _ if (row + c) % 2 == 0 => '$',
                _ => '.',
            })
            .collect();
        xsb.push_str(&format!("#{inside}#\n"));
    }
    xsb.push_str(&"#".repeat(66));
    xsb.push('\n');
    let (out, text) = import_xsb("many", "big.xsb", xsb.as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text.is_none(), "wrote source that doesn't build");
    let err = stderr(&out);
    assert!(err.contains("level 7") && err.contains("4096"), "{err}");
}

#[test]
fn latin1_xsb_is_refused_with_where_and_imported_with_the_option() {
    let xsb = b"; 1\n'Jos\xE9'\n######\n#@ $.#\n######\n";
    let (out, text) = import_xsb("latin1-refused", "jose.xsb", xsb, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text.is_none());
    let err = stderr(&out);
    assert!(err.contains("jose.xsb:2:5"), "{err}");
    assert!(
        err.contains("0xE9") && err.contains("--encoding latin1"),
        "{err}"
    );
    assert!(!err.contains('\u{FFFD}'), "{err}");

    let (out, text) = import_xsb("latin1", "jose.xsb", xsb, &["--encoding", "latin1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = text.unwrap();
    assert!(text.contains(" \"José\"\n"), "{text}");
}

#[test]
fn xsb_import_grows_linearly_with_the_number_of_levels() {
    // Half the levels numbered from n/4 + 1 on, then as many without
    // numbers: each of those takes the next free position, past a run of
    // numbers already taken. Time is compared between n and 4n levels in one
    // run, so a lookup that rescans (16x or worse) fails where a linear one
    // (4x) passes on any machine speed.
    let set = |n: usize| -> Vec<u8> {
        let mut text = String::new();
        for i in 0..n / 2 {
            text.push_str(&format!("; {}\n", n / 4 + 1 + i));
            text.push_str("######\n#@ $.#\n######\n\n");
        }
        for _ in 0..n / 2 {
            text.push_str("######\n#@ $.#\n######\n\n");
        }
        text.into_bytes()
    };
    let time = |n: usize| {
        let dir = temp_dir(&format!("many-{n}"));
        let path = dir.0.join("set.xsb");
        std::fs::write(&path, set(n)).unwrap();
        let start = Instant::now();
        let out = miauc(&["import", s(&path), "-o", s(&dir.0.join("packs"))]);
        assert!(out.status.success(), "{}", stderr(&out));
        start.elapsed().as_secs_f64()
    };
    let small = time(500);
    let large = time(2000);
    assert!(
        large < small * 10.0 + 0.5,
        "500 levels in {small:.2} s, 2000 in {large:.2} s: worse than linear"
    );
}

#[test]
fn a_share_string_comes_back_from_a_file_and_from_standard_input() {
    let dir = temp_dir("share");
    let pack = repo("packs/crate-works.miau");
    let out = miauc(&["build", s(&pack), "-o", s(&dir.0), "--link"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = String::from_utf8(out.stdout).unwrap();
    let link = line
        .trim()
        .strip_prefix("crate-works: ")
        .unwrap()
        .to_string();
    let direct = miauc(&["import", &link]);
    assert!(direct.status.success(), "{}", stderr(&direct));
    let file = dir.0.join("share.txt");
    std::fs::write(&file, format!("{link}\n")).unwrap();
    let from_file = miauc(&["import", s(&file)]);
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    assert_eq!(from_file.stdout, direct.stdout);
    let from_stdin = miauc_with_stdin(&["import", "-"], link.as_bytes());
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    assert_eq!(from_stdin.stdout, direct.stdout);
}

#[test]
fn check_fix_writes_through_a_link_and_keeps_it() {
    let dir = temp_dir("fix-link");
    let real = dir.0.join("real.miau");
    let src = "pack fix {\n  name    \"Fix\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n}\n\nlevel walk {\n  title \"Walk\"\n  board {\n    MIAU IS YOU . . . FLAG IS WIN\n    @    .  .   . . . f    .  .\n  }\n}\n";
    std::fs::write(&real, src).unwrap();
    let link = dir.0.join("link.miau");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = miauc(&["check", s(&link), "--fix"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let fixed = std::fs::read_to_string(&real).unwrap();
    assert!(fixed.contains("solution"), "{fixed}");
}
