//! The `miauc check` commands of the pack-repository workflow
//! (`ci/pack-repo/miau.yml`) run as written, shard by shard, on a small pack
//! of this test's own (`tests/fixtures/ci`, clean under `--deny warnings`, so
//! the test doesn't follow the bundled packs' state): the flags exist, the
//! exit status is success, SARIF is one valid log and the GitHub format
//! prints workflow commands only.

use std::path::Path;
use std::process::Command;

/// The workflow's `run: miauc check …` lines, and its shard list.
fn workflow() -> (Vec<String>, Vec<u32>) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("ci/pack-repo/miau.yml"),
    )
    .unwrap();
    let runs = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("run: "))
        .filter(|r| r.starts_with("miauc check"))
        .map(str::to_owned)
        .collect();
    let shards = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("shard: ["))
        .expect("a shard matrix")
        .trim_end_matches(']')
        .split(',')
        .map(|s| s.trim().parse().unwrap())
        .collect();
    (runs, shards)
}

/// The arguments of a run line for one shard: expressions substituted,
/// quotes dropped, and the redirection to a file removed.
fn args(run: &str, shard: u32, total: usize, packs: &str) -> Vec<String> {
    let line = run
        .replace("${{ matrix.shard }}", &shard.to_string())
        .replace("${{ strategy.job-total }}", &total.to_string())
        .replace("\"$MIAU_PACKS\"", packs);
    let line = line.split(" > ").next().unwrap();
    line.split_whitespace()
        .skip(1)
        .map(|a| a.trim_matches('"').to_owned())
        .collect()
}

#[test]
fn the_workflow_check_commands_run_on_every_shard() {
    let (runs, shards) = workflow();
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert!(shards.len() >= 2);
    let packs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ci");
    for run in &runs {
        for &shard in &shards {
            let a = args(run, shard, shards.len(), packs.to_str().unwrap());
            assert!(a.contains(&format!("{shard}/{}", shards.len())), "{a:?}");
            let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
                .args(&a)
                .output()
                .unwrap();
            let stdout = String::from_utf8(out.stdout).unwrap();
            assert!(
                out.status.success(),
                "miauc {} failed: {stdout}{}",
                a.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
            if run.contains("--format sarif") {
                let log: serde_json::Value = serde_json::from_str(&stdout).unwrap();
                assert_eq!(log["version"], "2.1.0");
                assert_eq!(log["runs"][0]["tool"]["driver"]["name"], "miauc");
            } else {
                assert!(run.contains("--format github"));
                for line in stdout.lines() {
                    assert!(line.starts_with("::"), "not a workflow command: {line}");
                }
            }
            // A green shard's log says what it checked (stderr: stdout is
            // the annotations or the SARIF log).
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr
                    .lines()
                    .any(|l| l.starts_with("checked ") && l.ends_with("0 errors, 0 warnings")),
                "miauc {}: no summary line on stderr: {stderr}",
                a.join(" ")
            );
        }
    }
}

/// The workflow's other `run: miauc …` lines (`fmt --check`, `build`), as
/// written, on the same pack: both pass, and `build` writes the pack JSON.
#[test]
fn the_workflow_fmt_and_build_commands_pass() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("ci/pack-repo/miau.yml"),
    )
    .unwrap();
    let runs: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("run: "))
        .filter(|r| r.starts_with("miauc ") && !r.starts_with("miauc check"))
        .collect();
    assert!(
        runs.iter().any(|r| r.starts_with("miauc fmt --check")),
        "{runs:?}"
    );
    assert!(
        runs.iter().any(|r| r.starts_with("miauc build")),
        "{runs:?}"
    );
    let packs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ci");
    let out_dir = std::env::temp_dir().join(format!("miau-pack-ci-{}", std::process::id()));
    for run in runs {
        let line = run.replace("\"$MIAU_PACKS\"", packs.to_str().unwrap());
        let mut a: Vec<String> = line.split_whitespace().skip(1).map(str::to_owned).collect();
        if let Some(i) = a.iter().position(|x| x == "-o") {
            a[i + 1] = out_dir.display().to_string();
        }
        let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
            .args(&a)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "miauc {} failed: {}{}",
            a.join(" "),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(out_dir.join("walks.json").is_file());
    std::fs::remove_dir_all(&out_dir).unwrap();
}
