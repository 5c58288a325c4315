//! One broken level doesn't block the per-level commands of the others:
//! `solve`, `render`, `replay` and the editor's level check work on any level
//! whose own stages 1–2 pass, and still refuse the broken one by its error.

use std::process::Command;

/// A pack of a good level and one with a stage-2 error (an unknown category).
const TWO: &str = "pack two {\n  name    \"Two\"\n  version \"1.0.0\"\n  engine  1\n}\n\n\
    level good {\n  title    \"Good\"\n  solution \"RRRR\"\n  board {\n    MIAU IS YOU . FLAG IS WIN\n    m    .  .   . f    .  .\n  }\n}\n\n\
    level broken {\n  title    \"Broken\"\n  category requird\n  board {\n    MIAU IS YOU\n    m . .\n  }\n}\n";

fn miauc(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(args)
        .output()
        .expect("miauc runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn solve_and_render_work_on_a_level_beside_a_broken_one() {
    let dir = std::env::temp_dir().join(format!("miau-per-level-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.miau");
    std::fs::write(&file, TWO).unwrap();
    let path = file.to_str().unwrap();

    let (code, out, err) = miauc(&["solve", path, "--level", "good"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.lines().any(|l| l == "route: RRRR"), "{out}");

    let (code, out, err) = miauc(&["render", path, "--level", "good", "--moves", "RR"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("<svg"), "{out}");

    // The broken level itself is refused, naming its own error.
    let (code, out, err) = miauc(&["solve", path, "--level", "broken"]);
    assert_ne!(code, Some(0), "{out}");
    assert!(err.contains("M233"), "{err}");
    let (code, _, err) = miauc(&["render", path, "--level", "broken"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("M233"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_editors_level_check_runs_beside_a_broken_level() {
    let a = miau::ide::Analysis::new(TWO, 1 << 20);
    let no = std::sync::atomic::AtomicBool::new(false);
    let good = miau::ide::check_level(&a, "good", &no).expect("level good exists");
    assert_eq!(good.route.as_deref(), Some("RRRR"), "{good:?}");
    assert!(
        good.diagnostics.iter().all(|d| d.code() != "M416"),
        "{good:?}"
    );
    let broken = miau::ide::check_level(&a, "broken", &no).expect("level broken exists");
    assert!(!broken.passed);
    assert_eq!(broken.summary, "not checked: the level has errors");
    assert!(broken.diagnostics[0].message.contains("M233"), "{broken:?}");
    let replay = miau::ide::replay_level(&a, "good").expect("replays");
    assert!(replay.contains("result: won in 4 turns"), "{replay}");
}
