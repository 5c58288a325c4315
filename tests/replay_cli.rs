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
    assert_published("packs/clockwork.miau", "mouse-keeps-time", "DRRRRRRRRRR");
    let (_, text) = replay(
        "packs/clockwork.miau",
        "mouse-keeps-time",
        &["--moves", "DRRRRRRRRRR", "--explain"],
    );
    // The mouse delivers WIN on its fifth beat: the only rule change after
    // reset is BELL IS WIN forming on turn 5.
    assert!(text.contains("turn 5 R\n  + BELL IS WIN\n"), "{text}");
    // and the only other turn told is the win.
    let turns: Vec<&str> = text.lines().filter(|l| l.starts_with("turn ")).collect();
    assert_eq!(turns, vec!["turn 5 R", "turn 11 R"], "{text}");
    assert!(text.contains("turn 11 R\n  won!\n"), "{text}");
}

#[test]
fn default_moves_are_the_recorded_solution() {
    let (out, text) = replay("packs/clockwork.miau", "mouse-keeps-time", &[]);
    assert_eq!(result_line(&text), "result: won in 11 turns");
    assert!(out.status.success());
}

#[test]
fn a_rejected_move_is_reported_and_not_won() {
    let (out, text) = replay("packs/machine-room.miau", "jam", &["--moves", "LLL"]);
    assert!(
        text.contains(
            "input 2 L rejected (blocked): MIAU at column 1, row 3 was blocked by WALL\n"
        ),
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
fn explain_prints_rule_changes_and_the_events_that_matter() {
    let (_, text) = replay(
        "packs/machine-room.miau",
        "hand-off",
        &["--moves", "LUDLURRRRRURRRR", "--explain"],
    );
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("coordinates: "), "{text}");
    for line in lines {
        assert!(
            line == "reset"
                || line.starts_with("turn ")
                || line.starts_with("  + ")
                || line.starts_with("  - ")
                || line.starts_with("  the amber gate at column ")
                || line == "  won!"
                || line.starts_with("result: "),
            "neither a rule change nor an event that matters: {line:?}\n{text}"
        );
    }
    // No boards, and no blocks: the explanation stays short.
    assert!(!text.contains("was blocked"), "{text}");
    assert!(text.contains("  + CRATE IS YOU\n"), "{text}");
    assert_eq!(result_line(&text), "result: won in 15 turns");
}

const EVENTS: &str = "tests/fixtures/replay/events.miau";

/// The lines of every board's ruler (the line after each `reset` or `turn`
/// heading) in a full replay.
fn rulers(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .windows(2)
        .filter(|w| w[0] == "reset" || w[0].starts_with("turn "))
        .map(|w| w[1])
        .collect()
}

#[test]
fn the_first_line_says_how_cells_are_counted() {
    for explain in [&[][..], &["--explain"][..]] {
        let mut args = vec!["--moves", "R"];
        args.extend_from_slice(explain);
        let (_, text) = replay(EVENTS, "defeat", &args);
        assert_eq!(
            text.lines().next(),
            Some(
                "coordinates: columns and rows count from 0 at the top-left, as in the \
                 diagnostics' `column C, row R`; a `file:line:col` location counts from 1"
            ),
            "{text}"
        );
    }
}

#[test]
fn a_sunk_word_and_a_blocked_you_are_told() {
    let (_, text) = replay(EVENTS, "sink-and-block", &["--moves", "RR"]);
    assert!(
        text.contains("turn 1 R\n   0     1    2    3 4\n0  MIAU  IS   YOU  . .\n"),
        "the board has a ruler:\n{text}"
    );
    assert!(
        text.contains("  CRAB at column 0, row 5 was blocked by WALL\n  the word ROCK sank with WATER at column 2, row 4\nturn 2 R\n"),
        "{text}"
    );
    insta::assert_snapshot!("replay_sink_and_block", text);
}

#[test]
fn a_defeat_names_what_defeated() {
    let (out, text) = replay(EVENTS, "defeat", &["--moves", "R"]);
    assert!(
        text.contains("  MIAU was defeated by JELLY at column 1, row 2\n  nothing is YOU any more\nresult: lost control after 1 turn\n"),
        "{text}"
    );
    assert!(!out.status.success());
    insta::assert_snapshot!("replay_defeat", text);
}

#[test]
fn a_crumble_is_told_and_columns_keep_their_width() {
    let (_, text) = replay(EVENTS, "crumble", &["--moves", "RRR"]);
    assert!(
        text.contains("  DRIFT crumbled into WATER at column 1, row 3\nturn 3 R\n"),
        "{text}"
    );
    // `f+m` appears in column 3 on the last turn only, yet every board,
    // the reset one included, is laid out for it.
    let rulers = rulers(&text);
    assert_eq!(rulers.len(), 4, "{text}");
    assert!(rulers.iter().all(|r| *r == rulers[0]), "{text}");
    let column_3 = rulers[0].find('3').unwrap();
    let column_4 = rulers[0].find('4').unwrap();
    assert_eq!(column_4 - column_3, "f+m ".len(), "{text}");
    assert!(text.contains("\n3  m     d   d     f   . .\n"), "{text}");
    assert!(text.contains("\n3  .     w   w     f+m . .\n"), "{text}");
    insta::assert_snapshot!("replay_crumble", text);
}

#[test]
fn a_win_at_start_is_told_at_reset() {
    let (_, text) = replay(EVENTS, "won-at-start", &["--moves", "W"]);
    assert!(
        text.contains("  + MIAU IS WIN\n  won at start: a win already holds before the first move (M307)\nturn 1 W\n"),
        "{text}"
    );
    let (_, explained) = replay(EVENTS, "won-at-start", &["--moves", "W", "--explain"]);
    assert!(explained.contains("  won at start: "), "{explained}");
}

#[test]
fn gates_and_plates_show_the_keys_they_were_written_with() {
    // The level's legend names teal plates and gates (`t`, `y`); the amber
    // ones keep the default legend's `_` and `|`.
    let (out, text) = replay(EVENTS, "two-channels", &["--moves", "RRRRRR"]);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("\n1  m    t   y   _   |    .  f\n"), "{text}");
    assert!(text.contains("\n1  .    t   y   m+_ |    .  f\n"), "{text}");
    for event in [
        "turn 1 R\n   0    1   2   3   4    5  6\n0  MIAU IS  YOU .   FLAG IS WIN\n1  .    m+t y   _   |    .  f\n  the teal gate at column 2, row 1 opened: a teal plate is pressed\n",
        "  the teal gate at column 2, row 1 is jammed open: no teal plate is pressed, but something stands in it\n",
        "  the teal gate at column 2, row 1 closed: no teal plate is pressed\n  the amber gate at column 4, row 1 opened: an amber plate is pressed\n",
        "  the amber gate at column 4, row 1 closed: no amber plate is pressed\n",
    ] {
        assert!(text.contains(event), "{event}\n{text}");
    }
    insta::assert_snapshot!("replay_two_channels", text);
}

#[test]
fn snapshot_full_replay_of_jam() {
    let (_, text) = replay("packs/machine-room.miau", "jam", &["--moves", "RRRRRRR"]);
    insta::assert_snapshot!("replay_jam", text);
}

#[test]
fn snapshot_explain_of_clockwork() {
    let (_, text) = replay(
        "packs/clockwork.miau",
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

#[test]
fn the_replays_shown_in_docs_play_md_are_what_miauc_prints() {
    // Every ```console block of the page that runs `miauc replay` shows its
    // whole output.
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/play.md"))
        .expect("docs/play.md");
    let mut seen = 0;
    for block in doc.split("```console\n").skip(1) {
        let block = block.split("```").next().unwrap_or_default();
        let (command, shown) = block.split_once('\n').unwrap_or((block, ""));
        let Some(args) = command.strip_prefix("$ miauc replay ") else {
            continue;
        };
        let args: Vec<&str> = args.split_whitespace().collect();
        let (file, level, rest) = match args.as_slice() {
            [file, "--level", level, rest @ ..] => (*file, *level, rest),
            _ => panic!("docs/play.md: write `miauc replay FILE --level ID …`: {command}"),
        };
        let (_, text) = replay(file, level, rest);
        assert_eq!(shown, text, "docs/play.md: {command}");
        seen += 1;
    }
    assert_eq!(seen, 2, "docs/play.md shows two replays");
}

#[test]
fn a_level_without_you_stops_without_a_player_s_advice() {
    let dir = std::env::temp_dir().join(format!("miau-replay-no-you-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("no-you.miau");
    std::fs::write(
        &file,
        "pack tt {\n  name    \"T\"\n  version \"1.0.0\"\n  engine  1\n}\n\n\
         level aa {\n  title \"A\"\n\n  board {\n    FLAG IS WIN\n    m    .  f\n  }\n}\n",
    )
    .unwrap();
    let (_, text) = replay(file.to_str().unwrap(), "aa", &["--moves", "RR"]);
    // A replay can't undo: the line says why it stopped, not what to press.
    assert!(
        text.ends_with(
            "input 1 R rejected (no-you): nothing is YOU\nresult: not won after 0 turns\n"
        ),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
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

/// A legal 64 × 64 level crowded with about 4,000 rocks, the cat among them.
fn crowded_level() -> String {
    let side = 64;
    let mut rows = vec![vec!["r"; side]; side];
    for (i, w) in ["MIAU", "IS", "YOU", ".", "ROCK", "IS", "STOP"]
        .iter()
        .enumerate()
    {
        rows[0][i] = w;
    }
    for cell in rows[0].iter_mut().skip(7) {
        *cell = ".";
    }
    rows[1] = vec!["."; side];
    rows[2][0] = "@";
    let board: String = rows
        .iter()
        .map(|r| format!("    {}\n", r.join(" ")))
        .collect();
    format!(
        "pack crowd {{\n  name \"Crowd\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}}\n\n\
         legend {{\n  r ROCK\n}}\n\n\
         level rocks {{\n  title \"Rocks\"\n  board {{\n{board}  }}\n}}\n"
    )
}

#[test]
fn a_long_replay_of_a_crowded_level_holds_one_board_at_a_time() {
    // 15,000 waits among 4,000 rocks: keeping every board (and the whole
    // text) peaked at 4 GB. Replayed twice and streamed, it fits in 256 MiB
    // of address space; its text goes to a pipe the test drains and counts.
    let dir = std::env::temp_dir().join(format!("miau-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("crowd.miau");
    std::fs::write(&src, crowded_level()).unwrap();
    let moves = "W".repeat(15_000);
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 262144; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_miauc"))
        .args([
            "replay",
            src.to_str().unwrap(),
            "--level",
            "rocks",
            "--moves",
            &moves,
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut last = Vec::new();
    let mut total = 0usize;
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = std::io::Read::read(&mut stdout, &mut buf).unwrap();
        if n == 0 {
            break;
        }
        total += n;
        last.extend_from_slice(&buf[..n]);
        let keep = last.len().saturating_sub(200);
        last.drain(..keep);
    }
    let out = child.wait_with_output().unwrap();
    let tail = String::from_utf8_lossy(&last);
    assert!(
        tail.ends_with("result: not won after 15000 turns\n"),
        "{tail}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(total > 100_000_000, "{total} bytes of replay");
    let _ = std::fs::remove_dir_all(&dir);
}
