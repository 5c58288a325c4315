//! `miauc play`: the terminal player.
//!
//! [`App`] is the input and state layer: keys in, a [`crate::session::Session`]
//! per level, a screen drawn into any ratatui backend (the tests use ratatui's
//! `TestBackend`). [`play`] is the shell: raw mode, the alternate screen, the
//! key loop, and the atomic write of a saved route.

use super::load_pack;
use crate::engine::{Class, Input};
use crate::model::Pack;
use crate::session::{Action, Outcome, Session};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use std::path::{Path, PathBuf};

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A move or a wait.
    Play(Input),
    /// `z`: undo.
    Undo,
    /// `r`: restart.
    Restart,
    /// `n`: next level.
    Next,
    /// `p`: previous level.
    Prev,
    /// `S` or Ctrl-S: save the route as the level's solution (asks first).
    Save,
    /// `y`: yes to a question.
    Yes,
    /// `q`, Esc or Ctrl-C.
    Quit,
    /// Anything else.
    Other,
}

impl Key {
    /// The meaning of a terminal key. WASD moves, so saving is the capital
    /// `S` (or Ctrl-S).
    pub fn of(k: &KeyEvent) -> Key {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        match k.code {
            KeyCode::Char('c') if ctrl => Key::Quit,
            KeyCode::Char('s') if ctrl => Key::Save,
            KeyCode::Up | KeyCode::Char('w') | KeyCode::Char('k') => Key::Play(Input::Up),
            KeyCode::Down | KeyCode::Char('s') | KeyCode::Char('j') => Key::Play(Input::Down),
            KeyCode::Left | KeyCode::Char('a') | KeyCode::Char('h') => Key::Play(Input::Left),
            KeyCode::Right | KeyCode::Char('d') | KeyCode::Char('l') => Key::Play(Input::Right),
            KeyCode::Char(' ') | KeyCode::Char('.') => Key::Play(Input::Wait),
            KeyCode::Char('z') | KeyCode::Char('u') | KeyCode::Backspace => Key::Undo,
            KeyCode::Char('r') => Key::Restart,
            KeyCode::Char('n') => Key::Next,
            KeyCode::Char('p') => Key::Prev,
            KeyCode::Char('S') => Key::Save,
            KeyCode::Char('y') | KeyCode::Char('Y') => Key::Yes,
            KeyCode::Char('q') | KeyCode::Esc => Key::Quit,
            _ => Key::Other,
        }
    }
}

/// What the shell must do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond redrawing.
    None,
    /// Write this text to the source file (then call [`App::saved`]).
    Save(String),
    /// Leave.
    Quit,
}

/// The player's whole state.
pub struct App {
    pack: Pack,
    /// The `.miau` text, when the pack came from one (saving needs it).
    source: Option<String>,
    level: usize,
    session: Session,
    keys: crate::compile::LegendKeys,
    ascii: bool,
    message: String,
    confirm_save: bool,
}

fn rgb(hex: &str) -> Color {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0xcccccc);
    Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

impl App {
    /// A player on level `level` of `pack`; `source` is the `.miau` text it
    /// came from, if any.
    pub fn new(pack: Pack, source: Option<String>, level: usize, ascii: bool) -> App {
        let level = level.min(pack.levels.len().saturating_sub(1));
        let session = Session::new(&pack.levels[level]);
        let mut app = App {
            pack,
            source,
            level,
            session,
            keys: Default::default(),
            ascii,
            message: String::new(),
            confirm_save: false,
        };
        app.load_keys();
        app
    }

    fn load_keys(&mut self) {
        self.keys = match &self.source {
            Some(text) => {
                let (file, _) = crate::syntax::parse(text);
                crate::compile::legend_keys(&file, &self.pack.levels[self.level].id.text)
            }
            None => Default::default(),
        };
    }

    fn go(&mut self, level: usize) {
        self.level = level;
        self.session = Session::new(&self.pack.levels[level]);
        self.load_keys();
    }

    /// The session of the current level.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The current level's id.
    pub fn level_id(&self) -> &str {
        &self.pack.levels[self.level].id.text
    }

    /// The status line: what the last key did.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Handles one key.
    pub fn key(&mut self, key: Key) -> Effect {
        if self.confirm_save {
            self.confirm_save = false;
            if key != Key::Yes {
                self.message = "not saved".to_string();
                return Effect::None;
            }
            let route = self.session.route();
            return match self
                .source
                .as_deref()
                .map(|t| crate::session::record_solution(t, self.level_id(), &route))
            {
                Some(Ok(text)) => Effect::Save(text),
                Some(Err(e)) => {
                    self.message = format!("not saved: {e}");
                    Effect::None
                }
                None => Effect::None,
            };
        }
        self.message.clear();
        match key {
            Key::Play(i) => {
                let out = self.session.apply(Action::Input(i));
                if out != Outcome::Accepted {
                    self.message = out.message();
                }
            }
            Key::Undo => self.message = self.session.apply(Action::Undo).message(),
            Key::Restart => self.message = self.session.apply(Action::Restart).message(),
            Key::Next => {
                if self.level + 1 < self.pack.levels.len() {
                    self.go(self.level + 1);
                } else {
                    self.message = "this is the last level".to_string();
                }
            }
            Key::Prev => {
                if self.level > 0 {
                    self.go(self.level - 1);
                } else {
                    self.message = "this is the first level".to_string();
                }
            }
            Key::Save => {
                if self.source.is_none() {
                    self.message = "saving a route needs the .miau source, not pack JSON".into();
                } else if self.session.turns() == 0 {
                    self.message = "play some turns first: there is no route to save".into();
                } else {
                    self.confirm_save = true;
                    self.message = format!(
                        "save {} ({} turns) as the solution of {}? y to save, any other key to keep playing",
                        self.session.route(),
                        self.session.turns(),
                        self.level_id()
                    );
                }
            }
            Key::Quit => return Effect::Quit,
            Key::Yes | Key::Other => {}
        }
        Effect::None
    }

    /// The shell wrote `text` to `path`: later saves edit the new text.
    pub fn saved(&mut self, text: String, path: &Path) {
        self.source = Some(text);
        self.message = format!(
            "saved {} as the solution of {} in {}",
            self.session.route(),
            self.level_id(),
            path.display()
        );
    }

    /// The shell failed to write.
    pub fn save_failed(&mut self, why: String) {
        self.message = format!("not saved: {why}");
    }

    /// The board as text lines (what the board pane shows, without colour).
    pub fn board_text(&self) -> Vec<String> {
        self.board_lines()
            .into_iter()
            .map(|l| {
                l.spans
                    .iter()
                    .map(|s| s.content.as_ref())
                    .collect::<String>()
            })
            .map(|s: String| s.trim_end().to_string())
            .collect()
    }

    fn board_lines(&self) -> Vec<Line<'static>> {
        let g = self.session.game();
        let s = &self.session.current().state;
        if self.ascii {
            let keys = &self.keys;
            let key_of = |n: &str, c: Option<&str>| keys.get(n, c);
            return g
                .render_board(s, &key_of)
                .lines()
                .map(|l| Line::from(l.to_string()))
                .collect();
        }
        let (w, h) = (usize::from(g.width), usize::from(g.height));
        let longest = g
            .ents
            .iter()
            .enumerate()
            .filter(|(_, e)| e.word)
            .filter_map(|(i, _)| g.noun(s, i as u16).map(|t| g.name(t).chars().count()))
            .max()
            .unwrap_or(2);
        let cw = longest.clamp(2, 6);
        let rules = g.rules(s);
        let stop_bit = g.tok("STOP").map_or(0, |t| g.vocab.prop_bit(t));
        let level = &self.pack.levels[self.level];
        // Top of each cell: words over things, the last in id order.
        let mut top: Vec<Option<u16>> = vec![None; w * h];
        for pass_words in [false, true] {
            for e in g.live(s) {
                if g.ents[usize::from(e)].word == pass_words
                    && let Some((x, y)) = g.pos(s, e)
                {
                    top[usize::from(y) * w + usize::from(x)] = Some(e);
                }
            }
        }
        let mut lines = Vec::with_capacity(h);
        for y in 0..h {
            let mut spans = Vec::with_capacity(w * 2);
            for x in 0..w {
                let cell = match top[y * w + x] {
                    None => Span::styled(
                        format!("{:^cw$}", "·"),
                        Style::default().fg(Color::DarkGray),
                    ),
                    Some(e) => {
                        let info = &g.ents[usize::from(e)];
                        let t = g.noun(s, e).unwrap_or(0);
                        let name = g.name(t);
                        if info.word {
                            let (bg, fg) = match g.vocab.class(t) {
                                Class::Noun => (rgb("#ece7dc"), Color::Black),
                                Class::Is | Class::And => (rgb("#3b404c"), Color::White),
                                Class::Prop(_) => {
                                    let accent = self
                                        .pack
                                        .glossary
                                        .iter()
                                        .find(|gl| gl.word.text == name)
                                        .map(|gl| gl.accent.clone())
                                        .unwrap_or_else(|| name.to_ascii_lowercase());
                                    (rgb(crate::render::accent_colour(&accent)), Color::Black)
                                }
                            };
                            let label: String = name.chars().take(cw).collect();
                            let mut st =
                                Style::default().bg(bg).fg(fg).add_modifier(Modifier::BOLD);
                            if info.fixed {
                                st = st.add_modifier(Modifier::UNDERLINED);
                            }
                            Span::styled(format!("{label:^cw$}"), st)
                        } else if info.channel.is_some() && (name == "GATE" || name == "PLATE") {
                            let c = rgb(crate::render::channel_colour(info.channel));
                            let mark = match (name, g.open(s, e)) {
                                ("GATE", false) => "▮▮",
                                ("GATE", true) => "▯▯",
                                _ => "[]",
                            };
                            Span::styled(format!("{mark:^cw$}"), Style::default().fg(c))
                        } else {
                            let look = crate::render::glyph::look(&self.pack, name);
                            let terrain =
                                look.terrain || level.terrain.iter().any(|n| n.text == name);
                            if terrain {
                                let stop = rules.noun_props(t) & stop_bit != 0;
                                let fill = if stop { "█" } else { "░" };
                                Span::styled(fill.repeat(cw), Style::default().fg(rgb("#5a5f6e")))
                            } else if look.glyph.is_empty() {
                                let label: String =
                                    name.to_ascii_lowercase().chars().take(cw).collect();
                                Span::raw(format!("{label:^cw$}"))
                            } else {
                                // Emoji are two columns wide.
                                let pad = cw.saturating_sub(2);
                                Span::raw(format!(
                                    "{}{}{}",
                                    " ".repeat(pad / 2),
                                    look.glyph,
                                    " ".repeat(pad - pad / 2)
                                ))
                            }
                        }
                    }
                };
                spans.push(cell);
                spans.push(Span::raw(" "));
            }
            lines.push(Line::from(spans));
        }
        lines
    }

    /// Draws the whole screen.
    pub fn draw(&self, f: &mut Frame<'_>) {
        let level = &self.pack.levels[self.level];
        let snap = self.session.current();
        let rows = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Length(1),
                Constraint::Min(5),
                Constraint::Length(6),
                Constraint::Length(1),
            ])
            .split(f.area());
        let title = level.title.clone().unwrap_or_else(|| level.id.text.clone());
        let won = snap.state.won();
        let status = if won {
            Span::styled(
                format!("  WON in {} turns! n: next level", snap.turn),
                Style::default()
                    .fg(rgb(crate::render::accent_colour("win")))
                    .add_modifier(Modifier::BOLD),
            )
        } else {
            Span::raw(format!("  turn {}", snap.turn))
        };
        f.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(title, Style::default().add_modifier(Modifier::BOLD)),
                Span::styled(
                    format!(
                        "  {} ({}/{})",
                        level.id.text,
                        self.level + 1,
                        self.pack.levels.len()
                    ),
                    Style::default().fg(Color::DarkGray),
                ),
                status,
            ])),
            rows[0],
        );
        let cols = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Min(20), Constraint::Length(32)])
            .split(rows[1]);
        f.render_widget(
            Paragraph::new(self.board_lines())
                .block(Block::default().borders(Borders::ALL).title(" board ")),
            cols[0],
        );
        let rules: Vec<Line> = self
            .session
            .rules()
            .into_iter()
            .map(|(r, terrain)| {
                if terrain {
                    Line::from(format!("{r} (terrain)"))
                } else {
                    Line::from(r)
                }
            })
            .collect();
        f.render_widget(
            Paragraph::new(rules).block(Block::default().borders(Borders::ALL).title(" rules ")),
            cols[1],
        );
        let mut what: Vec<Line> = Vec::new();
        if let Some(i) = snap.input {
            what.push(Line::from(format!(
                "turn {} {}: {}",
                snap.turn,
                crate::render::arrow(i),
                if snap.events.is_empty() {
                    "moved".to_string()
                } else {
                    snap.events.join(", ")
                }
            )));
        } else if !snap.events.is_empty() {
            what.push(Line::from(snap.events.join(", ")));
        }
        if !self.message.is_empty() {
            what.push(Line::styled(
                self.message.clone(),
                Style::default().fg(Color::Yellow),
            ));
        }
        f.render_widget(
            Paragraph::new(what).wrap(Wrap { trim: true }).block(
                Block::default()
                    .borders(Borders::ALL)
                    .title(" what happened "),
            ),
            rows[2],
        );
        f.render_widget(
            Paragraph::new(Line::styled(
                "arrows/WASD move · space wait · z undo · r restart · n/p level · S save route · q quit",
                Style::default().fg(Color::DarkGray),
            )),
            rows[3],
        );
    }
}

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename.
fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let tmp: PathBuf = match dir {
        Some(d) => d.join(format!(".{name}.miau-play.tmp")),
        None => PathBuf::from(format!(".{name}.miau-play.tmp")),
    };
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Runs `miauc play`; the exit status.
pub fn play(path: &Path, level: Option<&str>, ascii: bool) -> u8 {
    let Some((text, pack)) = load_pack(path, None) else {
        return 1;
    };
    if pack.levels.is_empty() {
        eprintln!("miauc: {}: the pack has no level to play", path.display());
        return 2;
    }
    let index = match level {
        None => 0,
        Some(id) => match pack.levels.iter().position(|l| l.id.text == id) {
            Some(i) => i,
            None => {
                let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.text.as_str()).collect();
                eprintln!(
                    "miauc: {}: no level {id}; the levels are {}",
                    path.display(),
                    ids.join(", ")
                );
                return 2;
            }
        },
    };
    let miau = crate::compile::SourceKind::of_path(&path.to_string_lossy())
        == crate::compile::SourceKind::Miau;
    let mut app = App::new(pack, miau.then_some(text), index, ascii);
    let mut terminal = ratatui::init();
    let result = (|| -> std::io::Result<()> {
        loop {
            terminal.draw(|f| app.draw(f))?;
            let ev = crossterm::event::read()?;
            let crossterm::event::Event::Key(k) = ev else {
                continue;
            };
            if k.kind != KeyEventKind::Press {
                continue;
            }
            match app.key(Key::of(&k)) {
                Effect::None => {}
                Effect::Quit => return Ok(()),
                Effect::Save(text) => match write_atomic(path, &text) {
                    Ok(()) => app.saved(text, path),
                    Err(e) => app.save_failed(e.to_string()),
                },
            }
        }
    })();
    ratatui::restore();
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("miauc: terminal: {e}");
            1
        }
    }
}
