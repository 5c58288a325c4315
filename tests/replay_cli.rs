//! `miauc replay` on the seeds' published drafts, run as the real binary: the
//! routes the seeds give must win in exactly their published number of turns.

use std::process::{Command, Output};

/// Runs `miauc replay FILE --level LEVEL [args…]` from the crate root.
fn replay(file: &str, level: &str, args: &[&str]) -> (Output, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["replay", file, "--level", level])
        .args(args)
        .output()
        .expect("miauc runs");
    let text = String::from_utf8(out.stdout.clone()).expect("UTF-8 output");
    (out, text)
}

/// The last line of the output, which must be its `result:` line.
fn result_line(text: &str) -> &str {
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("result: "), "no result line:\n{text}");
    last
}

/// Replays a published route and checks it wins on its last input.
fn assert_published(file: &str, level: &str, moves: &str) {
    let (out, text) = replay(file, level, &["--moves", moves]);
    let want = format!("result: won in {} turns", moves.len());
    assert_eq!(result_line(&text), want, "{level}:\n{text}");
    assert!(out.status.success(), "{level}: a won replay exits 0");
}

#[test]
fn g1_pallet_row_wins_in_27() {
    assert_published(
        "packs/machine-room.miau",
        "pallet-row",
        "LUURRDULLDDRRRRUULLLRDDLLUU",
    );
}

#[test]
fn g2_short_one_crate_wins_in_36() {
    assert_published(
        "packs/machine-room.miau",
        "short-one-crate",
        "RRRRRURDLLLUULDULLDLDRRRRRRDDRRUURUL",
    );
}

#[test]
fn d1_door_stop_wins_in_15() {
    assert_published("packs/machine-room.miau", "door-stop", "LURRURDDURRRRRR");
}

#[test]
fn d2_hand_off_wins_in_15() {
    assert_published("packs/machine-room.miau", "hand-off", "LUDLURRRRRURRRR");
}

#[test]
fn d3_jam_wins_in_7() {
    assert_published("packs/machine-room.miau", "jam", "RRRRRRR");
}

#[test]
fn clockwork_proof_wins_in_11_with_win_on_beat_5() {
    assert_published("packs/machine-room.miau", "mouse-keeps-time", "DRRRRRRRRRR");
    let (_, text) = replay(
        "packs/machine-room.miau",
        "mouse-keeps-time",
        &["--moves", "DRRRRRRRRRR", "--explain"],
    );
    // The mouse delivers WIN on its fifth beat: the only rule change after
    // reset is BELL IS WIN forming on turn 5.
    assert!(text.contains("turn 5 R\n  + BELL IS WIN\n"), "{text}");
    let turns: Vec<&str> = text.lines().filter(|l| l.starts_with("turn ")).collect();
    assert_eq!(turns, vec!["turn 5 R"], "{text}");
}

#[test]
fn default_moves_are_the_recorded_solution() {
    let (out, text) = replay("packs/machine-room.miau", "mouse-keeps-time", &[]);
    assert_eq!(result_line(&text), "result: won in 11 turns");
    assert!(out.status.success());
}

#[test]
fn a_rejected_move_is_reported_and_not_won() {
    let (out, text) = replay("packs/machine-room.miau", "jam", &["--moves", "LLL"]);
    assert!(
        text.contains("input 2 L rejected: blocked; miau-1 stop by wall-15\n"),
        "{text}"
    );
    assert_eq!(result_line(&text), "result: not won after 1 turn");
    assert!(
        !out.status.success(),
        "a replay that doesn't win exits non-zero"
    );
}

#[test]
fn a_short_route_is_not_won() {
    let (out, text) = replay("packs/machine-room.miau", "jam", &["--moves", "RRRRRR"]);
    assert_eq!(result_line(&text), "result: not won after 6 turns");
    assert!(!out.status.success());
}

#[test]
fn explain_prints_only_rule_changes() {
    let (_, text) = replay(
        "packs/machine-room.miau",
        "hand-off",
        &["--moves", "LUDLURRRRRURRRR", "--explain"],
    );
    for line in text.lines() {
        assert!(
            line == "reset"
                || line.starts_with("turn ")
                || line.starts_with("  + ")
                || line.starts_with("  - ")
                || line.starts_with("result: "),
            "not a rule change: {line:?}\n{text}"
        );
    }
    assert!(text.contains("  + CRATE IS YOU\n"), "{text}");
    assert_eq!(result_line(&text), "result: won in 15 turns");
}

#[test]
fn snapshot_full_replay_of_jam() {
    let (_, text) = replay("packs/machine-room.miau", "jam", &["--moves", "RRRRRRR"]);
    insta::assert_snapshot!("replay_jam", text);
}

#[test]
fn snapshot_explain_of_clockwork() {
    let (_, text) = replay(
        "packs/machine-room.miau",
        "mouse-keeps-time",
        &["--moves", "DRRRRRRRRRR", "--explain"],
    );
    insta::assert_snapshot!("explain_clockwork", text);
}

#[test]
fn a_broken_level_does_not_block_the_replay_of_another() {
    let dir = std::env::temp_dir().join(format!("miau-replay-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.miau");
    std::fs::write(
        &file,
        "pack two {\n  name    \"Two\"\n  version \"1.0.0\"\n  engine  1\n}\n\n\
         level good {\n  title \"Good\"\n  board {\n    MIAU IS YOU . FLAG IS WIN\n    m    .  .   . f    .  .\n  }\n}\n\n\
         level broken {\n  title    \"Broken\"\n  category requird\n  board {\n    MIAU IS YOU\n    m . .\n  }\n}\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(["replay", path, "--level", "good", "--moves", "RRRR"])
        .output()
        .expect("miauc runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(result_line(&text), "result: won in 4 turns");
    // The broken level itself is still refused, naming its error.
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(["replay", path, "--level", "broken", "--moves", "R"])
        .output()
        .expect("miauc runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("M233"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An amber plate and gate print as `_` and `|` even when the legend gives
/// teal plates and gates keys first (the board reads as it was written).
#[test]
fn each_channel_keeps_its_legend_key() {
    let (out, text) = replay("tests/fixtures/replay/channels.miau", "two", &[]);
    assert!(out.status.success(), "{text}");
    let reset: Vec<&str> = text.lines().skip(1).take(2).collect();
    assert_eq!(
        reset[1].split_whitespace().collect::<Vec<_>>(),
        ["m", "_", "|", "t", "y", "f", "."],
        "{text}"
    );
}

/// `--moves` reads lower case as upper case, as `solution` does.
#[test]
fn lower_case_moves_replay_as_upper_case() {
    let (out, text) = replay(
        "packs/tidewater.miau",
        "low-tide",
        &["--moves", "dduurrrrrr"],
    );
    assert!(out.status.success(), "{text}");
    assert_eq!(result_line(&text), "result: won in 10 turns");
}
