//! `miauc play`: the input and state layer driven by scripted keys (boards,
//! events, undo, restart, level changes, saving a route), and the real
//! binary once end to end in tmux (send-keys, capture-pane).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use miau::cli::play::{App, BINDINGS, BoardView, Effect, Key, save_route};
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
    screen_at(app, 110, 24)
}

/// The screen `app` draws in a `width` × `height` terminal, one line per
/// row as a terminal shows it: a wide character's second cell is not
/// repeated, trailing spaces are trimmed.
fn screen_at(app: &App, width: u16, height: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(width, height)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    buffer_text(t.backend().buffer())
}

fn buffer_text(buf: &ratatui::buffer::Buffer) -> String {
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buf[(x, y)].symbol();
            skip = unicode_width::UnicodeWidthStr::width(symbol).saturating_sub(1);
            line.push_str(symbol);
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
    keys(&mut a, "←");
    keys(&mut a, "S");
    assert!(
        a.message().starts_with("save L (1 turn) as"),
        "{}",
        a.message()
    );
    keys(&mut a, "x");
    keys(&mut a, "↑");
    assert_eq!(keys(&mut a, "S"), [Effect::None]);
    assert!(
        a.message()
            .starts_with("save LU (2 turns) as the solution of door-stop?")
    );
    assert_eq!(keys(&mut a, "x"), [Effect::None], "any other key declines");
    assert_eq!(a.message(), "not saved");
    keys(&mut a, "S");
    assert_eq!(
        keys(&mut a, "y"),
        [Effect::Save {
            level: "door-stop".into(),
            route: "LU".into()
        }]
    );
    let dir = scratch("asks-first");
    let file = dir.join("crate-works.miau");
    std::fs::write(&file, CRATE_WORKS).unwrap();
    let saved = save_route(&file, CRATE_WORKS, "door-stop", "LU").unwrap();
    assert!(!saved.merged);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(saved.text, text);
    assert_eq!(solution_of(&text, "door-stop"), "LU");
    assert_eq!(miau::fmt::format(&text).unwrap(), text, "formatted");
    // Only that level's solution changed.
    assert_eq!(
        text.lines().filter(|l| !CRATE_WORKS.contains(l)).count(),
        1,
        "one line differs"
    );
    a.saved(text, &file, false);
    assert!(
        a.message()
            .starts_with("saved LU as the solution of door-stop")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("miau-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn solution_of(text: &str, level: &str) -> String {
    let pack = compile(text, SourceKind::Miau).pack.unwrap();
    pack.level(level)
        .unwrap()
        .check
        .solution
        .as_ref()
        .unwrap()
        .text
        .clone()
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

#[cfg(unix)]
#[test]
fn end_to_end_in_tmux() {
    use std::os::unix::fs::PermissionsExt;
    // The player opens a link to the file; links are planted at the
    // temporary names its save could use (the shell's pid is the player's
    // after `exec`), and the file is edited while the player runs.
    let dir = scratch("tmux");
    let real = dir.join("real");
    std::fs::create_dir(&real).unwrap();
    let file = real.join("crate-works.miau");
    std::fs::write(&file, CRATE_WORKS).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.join("play.miau");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep me").unwrap();
    let session = format!("miau-play-{}", std::process::id());
    let plant = format!(
        "for n in 0 1 2; do ln -s {victim} {real}/.crate-works.miau.$$.$n.tmp; done; ln -s {victim} {real}/.crate-works.miau.miau-play.tmp",
        victim = victim.display(),
        real = real.display()
    );
    let cmd = format!(
        "sh -c '{plant}; exec {} play {} --level door-stop'; echo EXITED $?; sleep 30",
        env!("CARGO_BIN_EXE_miauc"),
        link.display()
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
    // An edit saved by an editor while the player runs.
    let edited = CRATE_WORKS.replace("title      \"Door stop\"", "title      \"Door stopper\"");
    assert_ne!(edited, CRATE_WORKS);
    std::fs::write(&file, &edited).unwrap();
    // Save the route so far: asked first, then written.
    tmux(&["send-keys", "-t", &session, "S"]);
    wait_for(&session, "y to save");
    tmux(&["send-keys", "-t", &session, "y"]);
    wait_for(&session, "saved L as the solution of door-stop");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert_eq!(solution_of(&saved, "door-stop"), "L");
    assert!(saved.contains("\"Door stopper\""), "the edit is kept");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "permissions kept");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    let mut left: Vec<String> = std::fs::read_dir(&real)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left.len(),
        5,
        "the file and the four planted links: {left:?}"
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

/// A key as `miauc play --help` names it, as the terminal sends it.
fn event_of(name: &str) -> KeyEvent {
    let plain = |code| KeyEvent::new(code, KeyModifiers::NONE);
    match name {
        "↑" => plain(KeyCode::Up),
        "↓" => plain(KeyCode::Down),
        "←" => plain(KeyCode::Left),
        "→" => plain(KeyCode::Right),
        "space" => plain(KeyCode::Char(' ')),
        "Esc" => plain(KeyCode::Esc),
        "Backspace" => plain(KeyCode::Backspace),
        ctrl if ctrl.starts_with("Ctrl-") => KeyEvent::new(
            KeyCode::Char(ctrl[5..].to_ascii_lowercase().chars().next().unwrap()),
            KeyModifiers::CONTROL,
        ),
        one if one.chars().count() == 1 => {
            let c = one.chars().next().unwrap();
            let shift = if c.is_ascii_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            KeyEvent::new(KeyCode::Char(c), shift)
        }
        other => panic!("the help names a key no terminal sends: {other:?}"),
    }
}

#[test]
fn the_help_names_the_keys_the_player_reads() {
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args(["play", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let table = help.split("Keys:\n").nth(1).expect("a key table");
    let mut rows = 0;
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        // `  S Ctrl-S       save the route …`: keys, two spaces, what they do.
        let (keys, does) = line.trim_start().split_once("  ").unwrap();
        let binding = BINDINGS
            .iter()
            .find(|b| b.does == does.trim())
            .unwrap_or_else(|| panic!("{line:?} says what no key does"));
        for name in keys.split(' ') {
            assert_eq!(Key::of(&event_of(name)), binding.key, "{name} in {line:?}");
        }
        rows += 1;
    }
    assert_eq!(rows, BINDINGS.len());
    // The mistake the help once made: `s` moves down, `S` saves.
    assert!(
        table.contains("↓ s j") && table.contains("S Ctrl-S"),
        "{table}"
    );
    assert_eq!(
        Key::of(&event_of("s")),
        Key::Play(miau::engine::Input::Down)
    );
    assert_eq!(Key::of(&event_of("S")), Key::Save);
    // The command list points to the table instead of naming keys.
    let top = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .arg("--help")
        .output()
        .unwrap();
    let top = String::from_utf8(top.stdout).unwrap();
    let play = top
        .lines()
        .find(|l| l.trim_start().starts_with("play "))
        .unwrap();
    assert!(play.contains("miauc play --help"), "{play}");
    // `?` shows the table in play; at the smallest size it fits.
    let mut a = app(true);
    keys(&mut a, "?");
    let s = screen_at(&a, 40, 12);
    assert!(s.contains("S Ctrl-S") && s.contains("q Esc Ctrl-C"), "{s}");
    keys(&mut a, "x");
    assert!(!screen_at(&a, 40, 12).contains("Ctrl-S"));
}

#[test]
fn without_a_terminal_play_is_a_usage_error() {
    let dir = scratch("no-terminal");
    let file = dir.join("crate-works.miau");
    std::fs::write(&file, CRATE_WORKS).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .arg("play")
        .arg(&file)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "{:?}", out.stdout);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("miauc: play needs a terminal"), "{err}");
    // In a new session without a controlling terminal, as the report ran it.
    #[cfg(target_os = "linux")]
    {
        let out = Command::new("setsid")
            .arg("--wait")
            .arg(env!("CARGO_BIN_EXE_miauc"))
            .arg("play")
            .arg(&file)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("setsid runs (util-linux)");
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty(), "{:?}", out.stdout);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The bundled packs: (file name, text).
fn bundled() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs");
    let mut packs: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "miau"))
        .collect();
    packs.sort();
    packs
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// What must be on screen at reset, from the engine: every YOU thing, and
/// every WIN thing (or, where no thing is WIN yet, every WIN word).
fn must_see(app: &App) -> Vec<(usize, usize, String)> {
    let g = app.session().game();
    let s = &app.session().current().state;
    let rules = g.rules(s);
    let bit = |w: &str| g.tok(w).map_or(0, |t| g.vocab.prop_bit(t));
    let mut yous = Vec::new();
    let mut wins = Vec::new();
    let mut win_words = Vec::new();
    for e in g.live(s) {
        let (t, (x, y)) = (g.noun(s, e).unwrap(), g.pos(s, e).unwrap());
        let cell = (usize::from(x), usize::from(y), g.id(e).to_string());
        if g.ents[usize::from(e)].word {
            if g.name(t) == "WIN" {
                win_words.push(cell);
            }
        } else {
            if rules.noun_props(t) & bit("YOU") != 0 {
                yous.push(cell.clone());
            }
            if rules.noun_props(t) & bit("WIN") != 0 {
                wins.push(cell);
            }
        }
    }
    assert!(!yous.is_empty(), "{}: no YOU at reset", app.level_id());
    yous.extend(if wins.is_empty() { win_words } else { wins });
    yous
}

/// The board's rows as `--ascii` draws them, from the engine's cell texts
/// (with `cut`, words and unkeyed things cut to that many letters, as a
/// narrow terminal draws them): each cell's text row by row, and each
/// column's width.
fn ascii_rows(app: &App, text: &str, cut: Option<usize>) -> (Vec<Vec<String>>, Vec<usize>) {
    let g = app.session().game();
    let s = &app.session().current().state;
    let (file, _) = miau::syntax::parse(text);
    let legend = miau::compile::legend_keys(&file, app.level_id());
    let key_of = |n: &str, c: Option<&str>| legend.get(n, c);
    let w = usize::from(g.width);
    let texts = match cut {
        None => g.cell_texts(s, &key_of),
        Some(c) => {
            let mut cells = vec![Vec::new(); w * usize::from(g.height)];
            for words in [false, true] {
                for e in g
                    .live(s)
                    .into_iter()
                    .filter(|&e| g.ents[usize::from(e)].word == words)
                {
                    let name = g.name(g.noun(s, e).unwrap());
                    let (x, y) = g.pos(s, e).unwrap();
                    let short = |t: &str| t.chars().take(c).collect::<String>();
                    let t = if words {
                        short(name)
                    } else {
                        key_of(name, g.channel_name(e))
                            .unwrap_or_else(|| short(&name.to_lowercase()))
                    };
                    cells[usize::from(y) * w + usize::from(x)].push(t);
                }
            }
            cells
                .into_iter()
                .map(|c: Vec<String>| {
                    if c.is_empty() {
                        ".".into()
                    } else {
                        c.join("+")
                    }
                })
                .collect()
        }
    };
    let widths = (0..w)
        .map(|x| {
            texts
                .iter()
                .skip(x)
                .step_by(w)
                .map(|t| unicode_width::UnicodeWidthStr::width(t.as_str()))
                .max()
                .unwrap()
        })
        .collect();
    (texts.chunks(w).map(<[String]>::to_vec).collect(), widths)
}

/// Checks the screen of `app` drawn at `width` × `height`: the view holds
/// every YOU and WIN cell, the board's box shows exactly the cells in view,
/// and every edge where the board goes on carries its marker. Returns the
/// screen.
fn check_screen(app: &App, text: &str, width: u16, height: u16) -> String {
    let screen = screen_at(app, width, height);
    let at = format!("{} at {width}x{height}", app.level_id());
    let BoardView {
        ascii,
        columns,
        rows,
        words_cut_to,
    } = app
        .last_view()
        .unwrap_or_else(|| panic!("{at}: no board drawn"));
    for (x, y, id) in must_see(app) {
        assert!(
            columns.contains(&x) && rows.contains(&y),
            "{at}: {id} at column {x}, row {y} is out of view {columns:?} × {rows:?}\n{screen}"
        );
    }
    let lines: Vec<&str> = screen.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.contains("┌ board"))
        .unwrap_or_else(|| panic!("{at}: no board box\n{screen}"));
    let g = app.session().game();
    let shown: Vec<String> = if ascii {
        let (cells, widths) = ascii_rows(app, text, words_cut_to);
        rows.clone()
            .map(|y| {
                let mut line = String::new();
                for x in columns.clone() {
                    if x > columns.start {
                        line.push(' ');
                    }
                    let t = &cells[y][x];
                    line.push_str(t);
                    let w = unicode_width::UnicodeWidthStr::width(t.as_str());
                    line.push_str(&" ".repeat(widths[x] - w));
                }
                line.trim_end().to_string()
            })
            .collect()
    } else {
        // Pictures are drawn only when the whole board fits.
        assert_eq!(columns, 0..usize::from(g.width), "{at}");
        assert_eq!(rows, 0..usize::from(g.height), "{at}");
        app.board_text()
    };
    for (i, want) in shown.iter().enumerate() {
        let line = lines[top + 1 + i];
        let inside: String = line.chars().skip(1).collect();
        assert!(
            inside.starts_with(want.as_str()),
            "{at}: board row {} should read {want:?}:\n{screen}",
            rows.start + i
        );
    }
    let edge = |line: &str, c: char| line.contains(c);
    let board_lines = &lines[top + 1..top + 1 + shown.len()];
    assert_eq!(
        board_lines.iter().all(|l| l.starts_with('◀')),
        columns.start > 0,
        "{at}: left marker\n{screen}"
    );
    assert_eq!(
        board_lines.iter().all(|l| l.contains('▶')),
        columns.end < usize::from(g.width),
        "{at}: right marker\n{screen}"
    );
    assert_eq!(
        edge(lines[top], '▲'),
        rows.start > 0,
        "{at}: top marker\n{screen}"
    );
    assert_eq!(
        edge(lines[top + 1 + shown.len()], '▼'),
        rows.end < usize::from(g.height),
        "{at}: bottom marker\n{screen}"
    );
    screen
}

#[test]
fn every_bundled_level_fits_every_size() {
    let mut sizes = vec![(80, 24), (100, 40), (40, 12)];
    for w in (40..=220).step_by(23) {
        for h in (12..=60).step_by(7) {
            sizes.push((w, h));
        }
    }
    for (name, text) in bundled() {
        let pack = compile(&text, SourceKind::Miau).pack.unwrap();
        for level in 0..pack.levels.len() {
            for ascii in [false, true] {
                let a = App::new(pack.clone(), Some(text.clone()), level, ascii);
                for &(w, h) in &sizes {
                    let screen = check_screen(&a, &text, w, h);
                    assert!(screen.lines().count() <= usize::from(h), "{name}");
                }
            }
        }
    }
}

#[test]
fn the_view_follows_you_and_the_rules_fit() {
    // `Crates move` at 40 × 12: scrolled, the cat in view as it walks right.
    let text = include_str!("../packs/crate-works.miau");
    let pack = compile(text, SourceKind::Miau).pack.unwrap();
    let mut a = App::new(pack, Some(text.to_string()), 0, false);
    let s = check_screen(&a, text, 40, 12);
    assert!(
        s.contains("rules: MIAU IS YOU"),
        "things' rules before terrain's: {s}"
    );
    for step in "→→→↑→→→→→→↓↓→↓→".chars() {
        keys(&mut a, &step.to_string());
        check_screen(&a, text, 40, 12);
    }
    let won = screen_at(&a, 40, 12);
    assert!(won.contains("WON in 15 turns"), "{won}");
    // At 100 × 40 the whole board in pictures, the rules with the width they need.
    let a = App::new(a_pack(text), Some(text.to_string()), 0, false);
    let s = check_screen(&a, text, 100, 40);
    assert!(!a.last_view().unwrap().ascii);
    assert!(s.contains("🚚") && s.contains("TRUCK"), "{s}");
    let rules_top = s.lines().find(|l| l.contains("┌ rules")).unwrap();
    assert!(rules_top.chars().count() < 40, "{rules_top}");
    // Below 40 × 12: a message instead of a broken screen.
    let small = screen_at(&a, 39, 12);
    let words = small.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("needs a terminal of at least 40 × 12"),
        "{small}"
    );
    assert!(a.last_view().is_none());
    let short = screen_at(&a, 120, 11);
    assert!(short.contains("this one is 120 × 11"), "{short}");
}

fn a_pack(text: &str) -> miau::model::Pack {
    compile(text, SourceKind::Miau).pack.unwrap()
}

#[cfg(unix)]
#[test]
fn saving_keeps_permissions_links_and_later_edits() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("save");
    let real = dir.join("real");
    std::fs::create_dir(&real).unwrap();
    let target = real.join("crate-works.miau");
    std::fs::write(&target, CRATE_WORKS).unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("play.miau");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    // Links planted where a temporary file could go: the old fixed name and
    // the writer's first names for this process.
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep me").unwrap();
    let pid = std::process::id();
    let mut planted = vec![real.join(".crate-works.miau.miau-play.tmp")];
    planted.extend((0..3).map(|n| real.join(format!(".crate-works.miau.{pid}.{n}.tmp"))));
    for p in &planted {
        std::os::unix::fs::symlink(&victim, p).unwrap();
    }
    let saved = save_route(&link, CRATE_WORKS, "door-stop", "LU").unwrap();
    assert!(
        std::fs::symlink_metadata(&link).unwrap().is_symlink(),
        "still a link"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), saved.text);
    assert_eq!(solution_of(&saved.text, "door-stop"), "LU");
    let mode = std::fs::metadata(&target).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640, "permissions kept");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    for p in &planted {
        assert!(std::fs::symlink_metadata(p).unwrap().is_symlink(), "{p:?}");
    }
    // An edit made after the player loaded the file is kept: the route goes
    // into the current text.
    let edited = saved
        .text
        .replace("title      \"Door stop\"", "title      \"Door stopper\"");
    assert_ne!(edited, saved.text);
    std::fs::write(&target, &edited).unwrap();
    let again = save_route(&link, &saved.text, "door-stop", "LUR").unwrap();
    assert!(again.merged);
    assert!(again.text.contains("\"Door stopper\""));
    assert_eq!(solution_of(&again.text, "door-stop"), "LUR");
    // A level edited away: refused, the file left as it is.
    let without = again.text.replace("level door-stop", "level door-stuck");
    std::fs::write(&target, &without).unwrap();
    let err = save_route(&link, &again.text, "door-stop", "L").unwrap_err();
    assert!(
        err.contains("changed since it was loaded") && err.contains("no level door-stop"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), without);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The pane of a tmux session, one line per row, trailing spaces trimmed.
fn pane(session: &str) -> String {
    let raw = tmux(&["capture-pane", "-p", "-t", session]);
    let mut out: String = raw.lines().map(|l| format!("{}\n", l.trim_end())).collect();
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn trimmed(screen: &str) -> String {
    let mut out = screen.to_string();
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// Every level of every bundled pack played in a real terminal of
/// `width` × `height`: `n` through the levels, `q` to the next pack. Each
/// screen at reset must be the one [`check_screen`] checked (YOU and what
/// wins in view, the board's cells as the engine has them, the markers).
fn every_level_in_tmux(width: u16, height: u16) {
    let packs = bundled();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs");
    let session = format!("miau-fit-{}-{width}x{height}", std::process::id());
    let files: Vec<String> = packs
        .iter()
        .map(|(name, _)| root.join(name).display().to_string())
        .collect();
    let cmd = format!(
        "for f in {}; do {} play \"$f\"; done; echo ALL PACKS PLAYED; sleep 30",
        files.join(" "),
        env!("CARGO_BIN_EXE_miauc")
    );
    tmux(&["kill-session", "-t", &session]);
    let (w, h) = (width.to_string(), height.to_string());
    let status = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            &w,
            "-y",
            &h,
            &cmd,
        ])
        .env("TERM", "xterm-256color")
        .status()
        .expect("tmux starts");
    assert!(status.success());
    for (name, text) in &packs {
        let pack = compile(text, SourceKind::Miau).pack.unwrap();
        for level in 0..pack.levels.len() {
            let app = App::new(pack.clone(), Some(text.clone()), level, false);
            let want = check_screen(&app, text, width, height);
            let what = format!("{name} level {} at {width}x{height}", app.level_id());
            wait_for_screen(&session, &want, &what);
            let last = level + 1 == pack.levels.len();
            tmux(&["send-keys", "-t", &session, if last { "q" } else { "n" }]);
        }
    }
    wait_for(&session, "ALL PACKS PLAYED");
    tmux(&["kill-session", "-t", &session]);
}

#[test]
fn every_level_fits_80_by_24_in_tmux() {
    every_level_in_tmux(80, 24);
}

#[test]
fn every_level_fits_100_by_40_in_tmux() {
    every_level_in_tmux(100, 40);
}

#[test]
fn every_level_fits_40_by_12_in_tmux() {
    every_level_in_tmux(40, 12);
}

/// Waits until the pane shows `want` (trailing blank lines aside).
fn wait_for_screen(session: &str, want: &str, what: &str) {
    let want = trimmed(want);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let got = pane(session);
        if got == want {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: the terminal shows\n{got}\nexpected\n{want}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_resized_terminal_gets_a_new_layout() {
    let text = include_str!("../packs/crate-works.miau");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("packs/crate-works.miau");
    let session = format!("miau-resize-{}", std::process::id());
    let cmd = format!(
        "{} play {}; echo EXITED $?; sleep 30",
        env!("CARGO_BIN_EXE_miauc"),
        path.display()
    );
    tmux(&["kill-session", "-t", &session]);
    let status = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "100",
            "-y",
            "40",
            &cmd,
        ])
        .env("TERM", "xterm-256color")
        .status()
        .expect("tmux starts");
    assert!(status.success());
    // One app drawn at each size in turn, as the player redraws on each resize.
    let a = App::new(a_pack(text), Some(text.to_string()), 0, false);
    for (w, h) in [(100u16, 40u16), (40, 12), (80, 24), (30, 10), (60, 16)] {
        let (ws, hs) = (w.to_string(), h.to_string());
        tmux(&["resize-window", "-t", &session, "-x", &ws, "-y", &hs]);
        let want = if w < 40 {
            screen_at(&a, w, h)
        } else {
            check_screen(&a, text, w, h)
        };
        wait_for_screen(&session, &want, &format!("resized to {w}x{h}"));
    }
    tmux(&["send-keys", "-t", &session, "q"]);
    wait_for(&session, "EXITED 0");
    tmux(&["kill-session", "-t", &session]);
}
