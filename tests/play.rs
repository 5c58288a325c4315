//! `miauc play`: the input and state layer driven by scripted keys (boards,
//! events, undo, restart, level changes, saving a route), and the real
//! binary once end to end in tmux (send-keys, capture-pane).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use miau::cli::play::{App, Effect, Key};
use miau::compile::{SourceKind, compile};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::process::Command;
use std::time::{Duration, Instant};

const CRATE_WORKS: &str = include_str!("fixtures/play/crate-works-drafts.miau");

fn app(ascii: bool) -> App {
    let pack = compile(CRATE_WORKS, SourceKind::Miau).pack.unwrap();
    let door = pack
        .levels
        .iter()
        .position(|l| l.id.text == "door-stop")
        .unwrap();
    App::new(pack, Some(CRATE_WORKS.to_string()), door, ascii)
}

fn keys(app: &mut App, script: &str) -> Vec<Effect> {
    script
        .chars()
        .map(|c| {
            let code = match c {
                '↑' => KeyCode::Up,
                '↓' => KeyCode::Down,
                '←' => KeyCode::Left,
                '→' => KeyCode::Right,
                c => KeyCode::Char(c),
            };
            app.key(Key::of(&KeyEvent::new(code, KeyModifiers::NONE)))
        })
        .collect()
}

fn screen(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(110, 24)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    let buf = t.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn keys_map_like_the_help_line() {
    let k = |code| Key::of(&KeyEvent::new(code, KeyModifiers::NONE));
    use miau::engine::Input::*;
    assert_eq!(k(KeyCode::Char('w')), Key::Play(Up));
    assert_eq!(k(KeyCode::Char('a')), Key::Play(Left));
    assert_eq!(k(KeyCode::Char('s')), Key::Play(Down));
    assert_eq!(k(KeyCode::Char('d')), Key::Play(Right));
    assert_eq!(k(KeyCode::Char(' ')), Key::Play(Wait));
    assert_eq!(k(KeyCode::Char('z')), Key::Undo);
    assert_eq!(k(KeyCode::Char('r')), Key::Restart);
    assert_eq!(k(KeyCode::Char('n')), Key::Next);
    assert_eq!(k(KeyCode::Char('p')), Key::Prev);
    assert_eq!(k(KeyCode::Char('S')), Key::Save);
    assert_eq!(
        Key::of(&KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
        Key::Save
    );
    assert_eq!(
        Key::of(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Key::Quit
    );
    assert_eq!(k(KeyCode::Char('q')), Key::Quit);
}

#[test]
fn scripted_keys_give_boards_events_and_undo() {
    let mut a = app(true);
    let reset = a.board_text();
    insta::assert_snapshot!("door_stop_reset", screen(&a));
    keys(&mut a, "←↑");
    assert_eq!(a.session().route(), "LU");
    let after = a.board_text();
    assert_ne!(after, reset);
    // A wall refuses the next move: the board stays, the status says why.
    keys(&mut a, "a");
    assert_eq!(a.message(), "MIAU at column 1, row 5 was blocked by WALL");
    assert_eq!(a.board_text(), after);
    insta::assert_snapshot!("door_stop_blocked", screen(&a));
    keys(&mut a, "z");
    assert_eq!(a.session().route(), "L");
    assert_eq!(a.message(), "undone");
    keys(&mut a, "r");
    assert_eq!(a.board_text(), reset);
    assert_eq!(a.message(), "restarted");
    // The recorded solution, typed: the win, with the plate's gate events on the way.
    let mut events = Vec::new();
    for c in "LURRURDDURRRRRR".chars() {
        keys(
            &mut a,
            &match c {
                'L' => '←',
                'R' => '→',
                'U' => '↑',
                _ => '↓',
            }
            .to_string(),
        );
        events.extend(a.session().current().events.clone());
    }
    assert!(a.session().won());
    assert!(
        events
            .iter()
            .any(|e| e == "the amber gate at column 6, row 5 opened: an amber plate is pressed"),
        "{events:?}"
    );
    assert!(events.iter().any(|e| e == "won!"));
    let won = screen(&a);
    assert!(won.contains("WON in 15 turns"), "{won}");
    insta::assert_snapshot!("door_stop_won", won);
    // Inputs after the win are refused until undo.
    keys(&mut a, "→");
    assert!(a.message().contains("already won"));
    keys(&mut a, "z");
    assert!(!a.session().won());
}

#[test]
fn emoji_board_and_level_changes() {
    let mut a = app(false);
    let board = a.board_text().join("\n");
    assert!(board.contains('🐈') && board.contains("MIAU"), "{board}");
    let first = a.level_id().to_string();
    keys(&mut a, "n");
    assert_ne!(a.level_id(), first);
    keys(&mut a, "p");
    assert_eq!(a.level_id(), first);
    for _ in 0..20 {
        keys(&mut a, "n");
    }
    assert_eq!(a.message(), "this is the last level");
}

#[test]
fn saving_asks_first_then_records_the_route_through_the_formatter() {
    let mut a = app(true);
    assert_eq!(keys(&mut a, "S"), [Effect::None]);
    assert!(a.message().contains("play some turns first"));
    keys(&mut a, "←↑");
    assert_eq!(keys(&mut a, "S"), [Effect::None]);
    assert!(
        a.message()
            .starts_with("save LU (2 turns) as the solution of door-stop?")
    );
    assert_eq!(keys(&mut a, "x"), [Effect::None], "any other key declines");
    assert_eq!(a.message(), "not saved");
    keys(&mut a, "S");
    let Effect::Save(text) = keys(&mut a, "y").remove(0) else {
        panic!("y saves")
    };
    let pack = compile(&text, SourceKind::Miau).pack.unwrap();
    assert_eq!(
        pack.level("door-stop")
            .unwrap()
            .check
            .solution
            .as_ref()
            .unwrap()
            .text,
        "LU"
    );
    assert_eq!(miau::fmt::format(&text).unwrap(), text, "formatted");
    // Only that level's solution changed.
    assert_eq!(
        text.lines().filter(|l| !CRATE_WORKS.contains(l)).count(),
        1,
        "one line differs"
    );
}

#[test]
fn a_level_without_solution_gets_one() {
    let src = "pack tt {\n  name \"T\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\nlevel aa {\n  title \"A\"\n  board {\n    MIAU IS YOU\n    m    .  .\n  }\n}\n";
    let out = miau::session::record_solution(src, "aa", "RR").unwrap();
    let pack = compile(&out, SourceKind::Miau).pack.unwrap();
    assert_eq!(pack.levels[0].check.solution.as_ref().unwrap().text, "RR");
    assert!(miau::session::record_solution(src, "zz", "RR").is_err());
}

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux")
        .args(args)
        .output()
        .expect("tmux runs (apt-get install tmux)");
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn wait_for(session: &str, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]);
        if screen.contains(needle) {
            return screen;
        }
        assert!(
            Instant::now() < deadline,
            "never showed {needle:?}:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn end_to_end_in_tmux() {
    let dir = std::env::temp_dir().join(format!("miau-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("crate-works.miau");
    std::fs::write(&file, CRATE_WORKS).unwrap();
    let session = format!("miau-play-{}", std::process::id());
    let cmd = format!(
        "{} play {} --level door-stop; echo EXITED $?; sleep 30",
        env!("CARGO_BIN_EXE_miauc"),
        file.display()
    );
    tmux(&["kill-session", "-t", &session]);
    let status = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "120",
            "-y",
            "30",
            &cmd,
        ])
        .env("TERM", "xterm-256color")
        .status()
        .expect("tmux starts");
    assert!(status.success());
    let s = wait_for(&session, "turn 0");
    assert!(s.contains("Door stop") && s.contains("MIAU IS YOU"), "{s}");
    tmux(&["send-keys", "-t", &session, "Left"]);
    wait_for(&session, "turn 1");
    tmux(&["send-keys", "-t", &session, "Up"]);
    wait_for(&session, "turn 2");
    tmux(&["send-keys", "-t", &session, "z"]);
    let s = wait_for(&session, "undone");
    assert!(s.contains("turn 1"), "{s}");
    // Save the route so far: asked first, then written atomically.
    tmux(&["send-keys", "-t", &session, "S"]);
    wait_for(&session, "y to save");
    tmux(&["send-keys", "-t", &session, "y"]);
    wait_for(&session, "saved L as the solution of door-stop");
    let saved = std::fs::read_to_string(&file).unwrap();
    let pack = compile(&saved, SourceKind::Miau).pack.unwrap();
    assert_eq!(
        pack.level("door-stop")
            .unwrap()
            .check
            .solution
            .as_ref()
            .unwrap()
            .text,
        "L"
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no temporary file is left"
    );
    for k in [
        "Up", "Right", "Right", "Up", "Right", "Down", "Down", "Up", "Right", "Right", "Right",
        "Right", "Right", "Right",
    ] {
        tmux(&["send-keys", "-t", &session, k]);
    }
    wait_for(&session, "WON in 15 turns");
    tmux(&["send-keys", "-t", &session, "q"]);
    wait_for(&session, "EXITED 0");
    tmux(&["kill-session", "-t", &session]);
    let _ = std::fs::remove_dir_all(&dir);
}
