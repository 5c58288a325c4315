//! The command line against hostile and careless file systems: a full disk,
//! symbolic-link cycles, FIFOs, links leading out of a directory, outputs
//! that collide with inputs, and inputs that are merely odd (a byte order
//! mark, a huge share string, an empty shard). Each test is the minimal
//! case of a defect that once lost data or hung.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn miauc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .output()
        .expect("miauc runs")
}

/// Runs `miauc` and kills it when it outlives `limit`: a hang fails the
/// test instead of stalling the suite.
fn miauc_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("miauc runs");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "miauc {args:?} still ran after {limit:?}; stderr so far:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `miauc` with the file size limit set to `kib` KiB and SIGXFSZ ignored,
/// so a write past the limit fails with EFBIG, as on a full disk.
fn miauc_on_full_disk(kib: u32, args: &[&str]) -> Output {
    let script = format!("ulimit -f {}; trap '' XFSZ; exec \"$0\" \"$@\"", kib * 2);
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .output()
        .expect("sh runs")
}

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
    let dir = std::env::temp_dir().join(format!("miau-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// A small pack with one solvable level; `id` is the pack id.
fn tiny_pack(id: &str) -> String {
    format!(
        "pack {id} {{\n  name \"Tiny\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}}\n\n\
         level first {{\n  title \"First\"\n  solution \"RR\"\n\n  board {{\n    \
         MIAU IS YOU . FLAG IS WIN\n    @    .  f   . .    .  .\n  }}\n}}\n"
    )
}

/// Crate Works with its indentation doubled: valid, several KiB, and not
/// canonically formatted.
fn unformatted_pack() -> String {
    let text = std::fs::read_to_string(repo("packs/crate-works.miau")).unwrap();
    text.lines()
        .map(|l| format!("{l}{}\n", " ".repeat(l.len().min(40))).replacen("  ", "    ", 1))
        .collect()
}

/// Crate Works built into `dir`: pack JSON that validates.
fn built_json(dir: &Path) -> PathBuf {
    let out = miauc(&["build", s(&repo("packs/crate-works.miau")), "-o", s(dir)]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir.join("crate-works.json")
}

#[test]
fn fmt_on_a_full_disk_leaves_the_source_whole() {
    let dir = temp_dir("fmt-full");
    let file = dir.join("crate-works.miau");
    let original = unformatted_pack();
    assert!(original.len() > 4096);
    std::fs::write(&file, &original).unwrap();
    assert_eq!(miauc(&["fmt", "--check", s(&file)]).status.code(), Some(1));
    let out = miauc_on_full_disk(2, &["fmt", s(&file)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("crate-works.miau"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    assert_eq!(
        names(&dir),
        ["crate-works.miau"],
        "a temporary file was left"
    );
}

#[test]
fn build_and_import_on_a_full_disk_keep_the_old_output() {
    let dir = temp_dir("build-full");
    let out_dir = dir.join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let src = repo("packs/crate-works.miau");
    assert!(
        miauc(&["build", s(&src), "-o", s(&out_dir)])
            .status
            .success()
    );
    let target = out_dir.join("crate-works.json");
    let old = std::fs::read(&target).unwrap();
    // An older build that differs, so a partial rewrite would show.
    let older = [&old[..], b"\n"].concat();
    std::fs::write(&target, &older).unwrap();
    let out = miauc_on_full_disk(4, &["build", s(&src), "-o", s(&out_dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read(&target).unwrap(), older);
    assert_eq!(names(&out_dir), ["crate-works.json"]);

    let miau_out = dir.join("back.miau");
    std::fs::write(&miau_out, "keep me").unwrap();
    let out = miauc_on_full_disk(1, &["import", s(&target), "-o", s(&miau_out)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&miau_out).unwrap(), "keep me");
}

#[test]
fn fmt_replaces_the_file_instead_of_rewriting_it_in_place() {
    // A hard link shares the bytes of an in-place rewrite; a rename leaves
    // the other name with the old bytes. (An in-place rewrite is what a full
    // disk truncates.)
    let dir = temp_dir("fmt-rename");
    let file = dir.join("p.miau");
    let original = unformatted_pack();
    std::fs::write(&file, &original).unwrap();
    std::fs::hard_link(&file, dir.join("backup")).unwrap();
    let out = miauc(&["fmt", s(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(std::fs::read_to_string(&file).unwrap(), original);
    assert_eq!(
        std::fs::read_to_string(dir.join("backup")).unwrap(),
        original
    );
}

#[test]
fn build_refuses_to_overwrite_its_own_input() {
    let dir = temp_dir("own-input");
    let json = built_json(&dir);
    let mut text = std::fs::read_to_string(&json).unwrap();
    // An unknown key the canonical writer would drop.
    text = text.replacen('{', "{\n \"x-note\": \"mine\",", 1);
    std::fs::write(&json, &text).unwrap();
    let out = miauc(&["build", s(&json), "-o", s(&dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("is the input"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&json).unwrap(), text);
}

#[test]
fn build_refuses_two_packs_with_one_id() {
    let dir = temp_dir("same-id");
    std::fs::write(dir.join("a.miau"), tiny_pack("twin")).unwrap();
    std::fs::write(
        dir.join("b.miau"),
        tiny_pack("twin").replace("Tiny", "Other"),
    )
    .unwrap();
    let out_dir = dir.join("out");
    let out = miauc(&["build", s(&dir), "-o", s(&out_dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("a.miau") && err.contains("b.miau"), "{err}");
    assert!(err.contains("error[M248]"), "{err}");
    assert!(err.contains("both packs would build twin.json"), "{err}");
    // The refusal is an error of the run, and its summary counts it.
    assert!(
        err.contains("2 packs, 1 written: 1 error, 0 warnings ("),
        "{err}"
    );
    let written = std::fs::read_to_string(out_dir.join("twin.json")).unwrap();
    assert!(written.contains("\"Tiny\""), "the first pack was replaced");
}

#[test]
fn build_refuses_to_replace_a_file_that_is_not_an_earlier_build() {
    let dir = temp_dir("package");
    std::fs::write(dir.join("p.miau"), tiny_pack("package")).unwrap();
    let out_dir = dir.join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let manifest = "{\"name\": \"my-extension\"}\n";
    std::fs::write(out_dir.join("package.json"), manifest).unwrap();
    let out = miauc(&["build", s(&dir.join("p.miau")), "-o", s(&out_dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("isn't a built pack"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(out_dir.join("package.json")).unwrap(),
        manifest
    );
    // An earlier build of the same pack is replaced as usual.
    std::fs::remove_file(out_dir.join("package.json")).unwrap();
    let p = s(&dir.join("p.miau")).to_string();
    assert!(miauc(&["build", &p, "-o", s(&out_dir)]).status.success());
    let again = miauc(&["build", &p, "-o", s(&out_dir)]);
    assert!(again.status.success(), "{}", stderr(&again));
}

#[test]
fn build_does_not_write_through_a_link() {
    let dir = temp_dir("link-out");
    let elsewhere = dir.join("elsewhere.json");
    std::fs::write(&elsewhere, "precious").unwrap();
    let out_dir = dir.join("out");
    std::fs::create_dir(&out_dir).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out_dir.join("tiny.json")).unwrap();
    std::fs::write(dir.join("p.miau"), tiny_pack("tiny")).unwrap();
    let out = miauc(&["build", s(&dir.join("p.miau")), "-o", s(&out_dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "precious");
}

#[test]
fn check_walks_a_directory_with_link_cycles_once() {
    let dir = temp_dir("cycles");
    std::fs::write(dir.join("p.miau"), tiny_pack("tiny")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("a")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("b")).unwrap();
    let out = miauc_within(&["check", s(&dir), "--verbose"], Duration::from_secs(60));
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.matches("level first: solved").count(),
        1,
        "the level was checked more than once:\n{stdout}"
    );
}

#[test]
fn a_fifo_named_like_a_pack_does_not_hang() {
    let dir = temp_dir("fifo");
    std::fs::write(dir.join("p.miau"), tiny_pack("tiny")).unwrap();
    let fifo = dir.join("x.miau");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for cmd in ["check", "build", "fmt"] {
        let mut args = vec![cmd, s(&dir)];
        let out_dir = dir.join("out");
        if cmd == "build" {
            args.extend(["-o", s(&out_dir)]);
        }
        let out = miauc_within(&args, Duration::from_secs(60));
        assert_eq!(out.status.code(), Some(1), "{cmd}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("x.miau: not a regular file"),
            "{cmd}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn fmt_does_not_follow_links_out_of_the_directory() {
    let dir = temp_dir("fmt-out");
    let inside = dir.join("inside");
    std::fs::create_dir(&inside).unwrap();
    let outside = dir.join("outside.miau");
    let original = unformatted_pack();
    std::fs::write(&outside, &original).unwrap();
    std::os::unix::fs::symlink(&outside, inside.join("link.miau")).unwrap();
    std::fs::write(inside.join("own.miau"), &original).unwrap();
    let out = miauc(&["fmt", s(&inside)]);
    assert!(
        stderr(&out).contains("outside the directory given"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), original);
    assert_ne!(
        std::fs::read_to_string(inside.join("own.miau")).unwrap(),
        original
    );
    // Named on its own, the link is the user's choice: its file is
    // formatted and the link stays a link.
    let out = miauc(&["fmt", s(&inside.join("link.miau"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_ne!(std::fs::read_to_string(&outside).unwrap(), original);
    assert!(
        std::fs::symlink_metadata(inside.join("link.miau"))
            .unwrap()
            .is_symlink()
    );
}

#[test]
fn json_with_a_byte_order_mark_is_accepted_like_miau() {
    let dir = temp_dir("bom");
    let text = std::fs::read_to_string(built_json(&dir)).unwrap();
    let file = dir.join("bom.json");
    std::fs::write(&file, format!("\u{feff}{text}")).unwrap();
    let out = miauc(&["import", s(&file)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plain = dir.join("plain.json");
    std::fs::write(&plain, &text).unwrap();
    assert_eq!(out.stdout, miauc(&["import", s(&plain)]).stdout);
}

#[test]
fn import_refuses_bytes_that_are_not_utf8() {
    let dir = temp_dir("not-utf8");
    let text = std::fs::read_to_string(built_json(&dir)).unwrap();
    let at = text.find("Crate Works").expect("the pack's name");
    let mut bytes = text.into_bytes();
    bytes[at + 2] = 0xff;
    let file = dir.join("bad.json");
    std::fs::write(&file, &bytes).unwrap();
    let target = dir.join("bad.miau");
    let out = miauc(&["import", s(&file), "-o", s(&target)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("M114") && err.contains("UTF-8"), "{err}");
    assert!(out.stdout.is_empty());
    assert!(!target.exists(), "no .miau with U+FFFD in it is written");
}

#[test]
fn import_refuses_what_miau_cannot_write_and_writes_nothing() {
    let dir = temp_dir("unwritable");
    let text = std::fs::read_to_string(built_json(&dir)).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["levels"][0]["hint"] = "Two\nlines.".into();
    let file = dir.join("two-lines.json");
    std::fs::write(&file, v.to_string()).unwrap();
    let target = dir.join("two-lines.miau");
    let out_import = miauc(&["import", s(&file), "-o", s(&target)]);
    assert_eq!(out_import.status.code(), Some(1), "{}", stderr(&out_import));
    let err = stderr(&out_import);
    assert!(
        err.contains("levels[0].hint") && err.contains("line break"),
        "{err}"
    );
    assert!(!target.exists());
}

#[test]
fn import_does_not_echo_a_huge_share_string() {
    let junk = format!("miau1:{}", "A".repeat(100_000));
    let out = miauc(&["import", &junk]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("not a share string"), "{err}");
    assert!(err.len() < 1_000, "{} bytes of error", err.len());
}

#[test]
fn an_empty_shard_says_so() {
    let dir = temp_dir("shard");
    let file = dir.join("p.miau");
    std::fs::write(&file, tiny_pack("tiny")).unwrap();
    let out = miauc(&["check", s(&file), "--shard", "1000000/1000000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("shard 1000000/1000000 is empty"), "{err}");
    assert!(err.contains("1 level"), "{err}");
}

#[test]
fn solve_refuses_a_level_with_errors() {
    let dir = temp_dir("solve-errors");
    let file = dir.join("p.miau");
    // `z` isn't in any legend: an error in the level (stage 1-2).
    let text = tiny_pack("tiny").replace("@    .  f   . .", "@    z  f   . .");
    std::fs::write(&file, text).unwrap();
    let out = miauc(&["solve", s(&file), "--level", "first"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("solved"), "{stdout}");
    assert!(stderr(&out).contains("has errors"), "{}", stderr(&out));
}

/// What pack JSON can hold but `.miau` can't say is refused by `check`
/// itself (stage 2), so a pack `check` accepts always imports: a hint with a
/// line break and an allowance code with a space are M202, the same word
/// twice in one cell M112. The inputs are the saved fuzz corpus files.
#[test]
fn check_refuses_json_that_miau_cannot_write() {
    let dir = temp_dir("inexpressible");
    for (file, code, needle) in [
        (
            "issue14-hint-newline.json",
            "M202",
            "levels[0].hint must be one line",
        ),
        ("issue14-allow-code-space.json", "M202", "\"M3 26\" isn't"),
        (
            "issue14-word-twice.json",
            "M112",
            "MIAU+MIAU isn't a complete stack",
        ),
    ] {
        let input = repo(&format!("fuzz/corpus/import_json/{file}"));
        let out = miauc(&["check", s(&input)]);
        let err = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(
            err.contains(&format!("error[{code}]")) && err.contains(needle),
            "{file}: {err}"
        );
        let target = dir.join("out.miau");
        let out = miauc(&["import", s(&input), "-o", s(&target)]);
        assert_eq!(out.status.code(), Some(1), "{file}: {}", stderr(&out));
        assert!(stderr(&out).contains(code), "{file}: {}", stderr(&out));
        assert!(!target.exists(), "{file}: nothing is written");
    }
}

/// `miauc` with its address space capped at `mib` MiB (`ulimit -v`) and
/// killed after `limit`: a run whose memory follows a huge input fails
/// instead of taking the machine. Its output is read while it runs, so a
/// long report can't fill a pipe and stall it.
fn miauc_capped(mib: u64, args: &[&str], limit: Duration) -> Output {
    use std::io::Read;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", mib * 1024))
        .arg(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = r.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("miauc {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    }
}

/// Pack JSON of `n` empty levels, the first with the id `lv`: every level
/// is an error of its own (no title, no board).
fn many_empty_levels(n: usize) -> String {
    let mut text = String::from(
        "{\"manifest\":{\"id\":\"many\",\"name\":\"Many\",\"version\":\"1.0.0\",\"engine\":1},\"levels\":[{\"id\":\"lv\"}",
    );
    for _ in 1..n {
        text.push_str(",{}");
    }
    text.push_str("]}");
    text
}

/// A pack of a quarter of a million empty levels (each an error) costs what
/// its first 64 do: one M211 counts them, no level past the 64th is read,
/// and every command answers with a bounded report under a 1 GiB cap (the
/// levels once cost 8 KB each and ran out of memory).
#[test]
fn a_pack_of_many_broken_levels_stops_at_the_level_limit() {
    let dir = temp_dir("many-levels");
    let json = dir.join("many.json");
    std::fs::write(&json, many_empty_levels(250_000)).unwrap();
    let target = dir.join("many.miau");
    let runs: [(&str, Vec<&str>); 6] = [
        ("check", vec!["check", s(&json)]),
        (
            "check --format json",
            vec!["check", s(&json), "--format", "json"],
        ),
        ("import", vec!["import", s(&json), "-o", s(&target)]),
        ("catalogue", vec!["catalogue", s(&json)]),
        ("solve", vec!["solve", s(&json), "--level", "lv"]),
        ("render", vec!["render", s(&json), "--level", "lv"]),
    ];
    for (what, args) in runs {
        let out = miauc_capped(1024, &args, Duration::from_secs(60));
        let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
        assert_eq!(
            out.status.code(),
            Some(1),
            "{what}: {}",
            &all[..all.len().min(2000)]
        );
        assert!(
            all.contains("M211") && all.contains("The pack has 250000 levels"),
            "{what}: {}",
            &all[..all.len().min(2000)]
        );
        // The first 64 levels' errors and the limit: kilobytes, not the
        // 250,000 levels' megabytes.
        assert!(all.len() < 256 * 1024, "{what}: {} bytes", all.len());
    }
    assert!(!target.exists(), "import wrote nothing");
}

/// The same in `.miau`: a file of 100,000 levels with a syntax error each
/// reports the limit and a capped list of the parser's diagnostics.
#[test]
fn a_source_of_many_broken_levels_reports_a_capped_list() {
    let dir = temp_dir("many-miau-levels");
    let file = dir.join("many.miau");
    let mut text = String::from(
        "pack many {\n  name \"Many\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n",
    );
    for i in 0..100_000 {
        text.push_str(&format!("level l{i} {{ ? }}\n"));
    }
    std::fs::write(&file, text).unwrap();
    let out = miauc_capped(
        1024,
        &["check", s(&file), "--format", "json"],
        Duration::from_secs(60),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines = stdout.lines().count();
    assert!(
        stdout.contains("\"M211\""),
        "{}",
        &stdout[..stdout.len().min(2000)]
    );
    assert!(stdout.contains("more problems in this file were left out"));
    assert!(lines < 4 * 1024, "{lines} diagnostics");
}
