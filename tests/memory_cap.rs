//! `check --memory` caps the whole run: every search of every level (the
//! exact one, the satisficing passes after it, the shortening) draws on one
//! pool, and the allocator gives back what a search frees. Measured here
//! as the child's peak resident memory (`wait4`'s `ru_maxrss`), on levels
//! whose searches all run into the cap, with one thread and with four.

#![allow(unsafe_code, reason = "wait4, to read one child's peak memory")]

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The cap the runs are given.
const CAP_MIB: u64 = 64;

/// What a run may hold beyond the cap and the base it measured (the
/// program, the pack, a trivial check): the searches' small objects the
/// pool doesn't count, and the allocator's own rounding.
const SLACK_MIB: u64 = 8;

/// An open room of six rocks whose flag is walled in: the move search and
/// the satisficing pass after it both explore until the memory cap stops
/// them, never finding a win (M402).
fn vault(id: &str) -> String {
    format!(
        "level {id} {{\n  title \"Vault {id}\"\n  terrain WALL\n\n  board {{\n\
         MIAU! IS! YOU! ROCK! IS! PUSH! FLAG! IS! WIN! . . . .\n\
         # # # # # # # # # # # # #\n\
         # . . . . . . . . . . . #\n\
         # . r . . . r . . . r . #\n\
         # . . . . . . . . . . . #\n\
         # . . . r . . . . r . . #\n\
         # . . . . . @ . . . . . #\n\
         # . r . . . . . . . r . #\n\
         # . . . . . . . . . . . #\n\
         # # # # # # # # # # # # #\n\
         # f # . . . . . . . . . .\n\
         # # # . . . . . . . . . .\n  }}\n}}\n"
    )
}

/// A pack holding `levels`, each as its text.
fn pack(levels: &[String]) -> String {
    let mut text = String::from(
        "pack vaults {\n  name \"Vaults\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n\
         palette {\n  MIAU \"🐈\"\n  ROCK \"🪨\"\n  FLAG \"🚩\"\n  WALL \"🧱\" terrain\n}\n\n\
         legend {\n  @ MIAU\n  # WALL\n  r ROCK\n  f FLAG\n}\n\n",
    );
    for level in levels {
        text.push_str(level);
        text.push('\n');
    }
    text
}

/// A level the plain solve wins in a few steps: a check whose searches
/// hold next to nothing, for the base.
const EASY: &str = "level easy {\n  title \"Easy\"\n  terrain WALL\n\n  board {\n\
                    MIAU! IS! YOU! FLAG! IS! WIN!\n\
                    @ . . . . f\n  }\n}\n";

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir() -> TempDir {
    let dir = std::env::temp_dir().join(format!("miau-memory-cap-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    TempDir(dir)
}

/// Runs `miauc check` on `file` with `args`: its exit code, what it
/// printed, and its peak resident memory in KiB.
#[allow(
    clippy::zombie_processes,
    reason = "reaped by wait4, which reads its usage"
)]
fn check(file: &std::path::Path, args: &[&str]) -> (i32, String, u64) {
    let out = std::fs::File::create(file.with_extension("out")).expect("output file");
    let child = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .arg("check")
        .arg(file)
        .args(args)
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("output file"))
        .stderr(out)
        .spawn()
        .expect("miauc runs");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, writing into the two locals above;
    // `child` is never waited on again.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 reaps miauc");
    assert!(libc::WIFEXITED(status), "miauc {args:?} exited normally");
    let printed = std::fs::read_to_string(file.with_extension("out")).expect("output");
    let peak = u64::try_from(usage.ru_maxrss).expect("a size");
    (libc::WEXITSTATUS(status), printed, peak)
}

#[test]
fn a_check_run_stays_within_its_memory_cap() {
    let dir = temp_dir();
    let easy = dir.0.join("easy.miau");
    std::fs::write(&easy, pack(&[EASY.to_string()])).expect("write");
    let (code, printed, base) = check(&easy, &["--jobs", "1"]);
    assert_eq!(code, 0, "{printed}");
    let cap = format!("{CAP_MIB}M");
    let bound = CAP_MIB * 1024 + base + SLACK_MIB * 1024;
    let runs: [(usize, &str); 2] = [(1, "1"), (2, "4")];
    for (levels, jobs) in runs {
        let file = dir.0.join(format!("vaults-{levels}.miau"));
        let texts: Vec<String> = (0..levels).map(|k| vault(&format!("v{k}"))).collect();
        std::fs::write(&file, pack(&texts)).expect("write");
        let (code, printed, peak) = check(&file, &["--memory", &cap, "--jobs", jobs]);
        assert_eq!(code, 1, "{printed}");
        assert_eq!(
            printed.matches("error[M402]").count(),
            levels,
            "every search runs into the cap:\n{printed}"
        );
        assert!(
            peak <= bound,
            "--jobs {jobs}, {levels} levels: peak {} MiB over the cap {CAP_MIB} MiB plus \
             the base {} MiB and {SLACK_MIB} MiB",
            peak / 1024,
            base / 1024
        );
    }
}
