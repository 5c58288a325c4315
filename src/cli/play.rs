//! `miauc play`: the terminal player.
//!
//! [`App`] is the input and state layer: keys in, a [`crate::session::Session`]
//! per level, a screen drawn into any ratatui backend (the tests use ratatui's
//! `TestBackend`), laid out for the size it has (`layout`). [`play`] is the
//! shell: the terminal check, raw mode, the alternate screen, the key loop,
//! and saving a route ([`save_route`]).

use super::load_pack;
use crate::engine::Class;
use crate::model::Pack;
use crate::session::{Action, Outcome, Session};
use crossterm::event::KeyEventKind;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use std::cell::{Cell, RefCell};
use std::io::IsTerminal;
use std::ops::Range;
use std::path::Path;

pub mod keys;
pub mod layout;

use keys::key_list;
pub use keys::{BINDINGS, Binding, Key, help_items, key_name, key_rows, keys_help};

/// What the shell must do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond redrawing.
    None,
    /// Record `route` as the solution of level `level` in the source file
    /// (with [`save_route`]), then tell the app ([`App::saved`] or
    /// [`App::save_failed`]).
    Save {
        /// The level's id.
        level: String,
        /// The route, letters `U D L R W`.
        route: String,
    },
    /// Leave.
    Quit,
}

/// A board cell: column and row, from 0 at the top-left.
pub type BoardCell = (usize, usize);

/// Which part of the board the last drawing showed, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// Whether the cells were ASCII (asked for, or the pictures did not fit).
    pub ascii: bool,
    /// The board's columns in view.
    pub columns: Range<usize>,
    /// The board's rows in view.
    pub rows: Range<usize>,
    /// ASCII words cut to this many letters (and fixed words unmarked), in
    /// a terminal too narrow for the whole words around YOU and the win.
    pub words_cut_to: Option<usize>,
}

/// The word lengths the ASCII cells try, longest first, when the board must
/// scroll: whole words, then cut until YOU and what wins fit together.
const WORD_CAPS: [Option<usize>; 4] = [None, Some(4), Some(3), Some(2)];

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
    show_keys: bool,
    /// The top-left cell of the last view of a scrolled board, so the view
    /// moves only when a YOU thing would leave it.
    origin: Cell<Option<(usize, usize)>>,
    /// What the last drawing showed of the board (`None`: the terminal was
    /// too small to draw it).
    last_view: RefCell<Option<BoardView>>,
}

fn rgb(hex: &str) -> Color {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0xcccccc);
    Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

/// Display width of terminal text.
fn width_of(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `text` padded with spaces to `width` terminal cells, centred or at the left.
fn pad(text: &str, width: usize, centre: bool) -> String {
    let room = width.saturating_sub(width_of(text));
    let left = if centre { room / 2 } else { 0 };
    format!("{}{text}{}", " ".repeat(left), " ".repeat(room - left))
}

/// Whether terminals draw `glyph` two columns wide, as the board's layout
/// assumes. Emoji of Unicode 12 and later (the U+1FA70–U+1FAFF block: 🪼,
/// 🪨, 🫧) are missing from the width tables of many terminals and C
/// libraries still in use, which then draw them one column wide or not at
/// all and shift the rest of the row; the player draws those as text labels.
fn terminal_knows(glyph: &str) -> bool {
    !glyph
        .chars()
        .any(|c| ('\u{1FA70}'..='\u{1FAFF}').contains(&c))
}

/// A board drawn one way: its grid of widths and each cell's span, row by row.
struct Cells {
    grid: layout::Grid,
    rows: Vec<Vec<Span<'static>>>,
    /// ASCII words cut to this many letters (see [`App::ascii_texts`]).
    cap: Option<usize>,
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
            show_keys: false,
            origin: Cell::new(None),
            last_view: RefCell::new(None),
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
        self.origin.set(None);
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

    /// What the last [`App::draw`] showed of the board; `None` before the
    /// first drawing and when the terminal was too small.
    pub fn last_view(&self) -> Option<BoardView> {
        self.last_view.borrow().clone()
    }

    /// Handles one key.
    pub fn key(&mut self, key: Key) -> Effect {
        if self.show_keys {
            // Any key closes the key list.
            self.show_keys = false;
            return if key == Key::Quit {
                Effect::Quit
            } else {
                Effect::None
            };
        }
        if self.confirm_save {
            self.confirm_save = false;
            if key != Key::Yes {
                self.message = "not saved".to_string();
                return Effect::None;
            }
            return Effect::Save {
                level: self.level_id().to_string(),
                route: self.session.route(),
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
            Key::Restart => {
                self.message = self.session.apply(Action::Restart).message();
                self.origin.set(None);
            }
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
            Key::Save => self.ask_to_save(),
            Key::Keys => self.show_keys = true,
            Key::Quit => return Effect::Quit,
            Key::Yes | Key::Other => {}
        }
        Effect::None
    }

    fn ask_to_save(&mut self) {
        if self.source.is_none() {
            self.message = "saving a route needs the .miau source, not pack JSON".into();
        } else if self.session.turns() == 0 {
            self.message = "play some turns first: there is no route to save".into();
        } else {
            self.confirm_save = true;
            self.message = format!(
                "save {} ({}) as the solution of {}? y to save, any other key to keep playing",
                self.session.route(),
                super::plural(self.session.turns(), "turn"),
                self.level_id()
            );
        }
    }

    /// The shell wrote `text` to `path`; `merged` when the file had changed
    /// since it was loaded and the route went into the changed text. Later
    /// saves edit the new text.
    pub fn saved(&mut self, text: String, path: &Path, merged: bool) {
        self.source = Some(text);
        self.message = format!(
            "saved {} as the solution of {} in {}",
            self.session.route(),
            self.level_id(),
            path.display()
        );
        if merged {
            self.message.push_str(
                " (the file had changed since it was loaded: the route went into the changed file, \
                 kept as it was; quit and play again to see the changes)",
            );
        }
    }

    /// The shell failed to write.
    pub fn save_failed(&mut self, why: String) {
        self.message = format!("not saved: {why}");
    }

    /// The `.miau` text the player has (what it loaded, or last saved).
    pub fn source(&self) -> Option<&str> {
        self.source.as_deref()
    }

    /// The board as text lines, whole, in the cells asked for (pictures, or
    /// ASCII with `--ascii`), without colour.
    pub fn board_text(&self) -> Vec<String> {
        let cells = self.cells(self.ascii);
        cells
            .rows
            .iter()
            .map(|row| {
                let texts: Vec<&str> = row.iter().map(|s| s.content.as_ref()).collect();
                texts.join(" ").trim_end().to_string()
            })
            .collect()
    }

    fn cells(&self, ascii: bool) -> Cells {
        if ascii {
            self.ascii_cells(None)
        } else {
            self.picture_cells()
        }
    }

    /// The text of every cell in reading order as `miauc replay` writes it
    /// (legend keys and words, `.` for an empty cell), or with `cap`, every
    /// word and unkeyed thing cut to that many letters and no fixed mark.
    fn ascii_texts(&self, cap: Option<usize>) -> Vec<String> {
        let g = self.session.game();
        let s = &self.session.current().state;
        let cut = |text: &str| -> String {
            match cap {
                Some(c) => text.chars().take(c).collect(),
                None => text.to_string(),
            }
        };
        // The engine's cells, with an unkeyed thing's name cut here; the
        // words (the parts starting with a capital: no legend key does) are
        // cut afterwards and lose their fixed mark.
        let key_of = |noun: &str, channel: Option<&str>| {
            Some(
                self.keys
                    .get(noun, channel)
                    .unwrap_or_else(|| cut(&noun.to_ascii_lowercase())),
            )
        };
        let texts = g.cell_texts(s, &key_of);
        if cap.is_none() {
            return texts;
        }
        texts
            .into_iter()
            .map(|cell| {
                cell.split('+')
                    .map(|part| match part.chars().next() {
                        Some(c) if c.is_ascii_uppercase() => cut(part.trim_end_matches('!')),
                        _ => part.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("+")
            })
            .collect()
    }

    /// The cells in ASCII (see [`App::ascii_texts`]).
    fn ascii_cells(&self, cap: Option<usize>) -> Cells {
        let g = self.session.game();
        let texts = self.ascii_texts(cap);
        let w = usize::from(g.width).max(1);
        let mut columns = vec![1u16; w];
        for (i, t) in texts.iter().enumerate() {
            columns[i % w] = columns[i % w].max(width_of(t).min(usize::from(u16::MAX)) as u16);
        }
        let rows = texts
            .chunks(w)
            .map(|row| {
                row.iter()
                    .enumerate()
                    .map(|(x, t)| Span::raw(pad(t, usize::from(columns[x]), false)))
                    .collect()
            })
            .collect();
        Cells {
            grid: layout::Grid {
                columns,
                rows: g.height.into(),
            },
            rows,
            cap,
        }
    }

    /// The cells in pictures: emoji, coloured word tiles, terrain blocks.
    fn picture_cells(&self) -> Cells {
        let g = self.session.game();
        let s = &self.session.current().state;
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
        let rows = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| match top[y * w + x] {
                        None => {
                            Span::styled(pad("·", cw, true), Style::default().fg(Color::DarkGray))
                        }
                        Some(e) => self.picture_cell(e, cw),
                    })
                    .collect()
            })
            .collect();
        Cells {
            grid: layout::Grid {
                columns: vec![cw as u16; w],
                rows: h as u16,
            },
            rows,
            cap: None,
        }
    }

    /// The picture of entity `e`, `cw` terminal cells wide.
    fn picture_cell(&self, e: u16, cw: usize) -> Span<'static> {
        let g = self.session.game();
        let s = &self.session.current().state;
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
            let mut st = Style::default().bg(bg).fg(fg).add_modifier(Modifier::BOLD);
            if info.fixed {
                st = st.add_modifier(Modifier::UNDERLINED);
            }
            return Span::styled(pad(&label, cw, true), st);
        }
        if info.channel.is_some() && (name == "GATE" || name == "PLATE") {
            let c = rgb(crate::render::channel_colour(info.channel));
            let mark = match (name, g.open(s, e)) {
                ("GATE", false) => "▮▮",
                ("GATE", true) => "▯▯",
                _ => "[]",
            };
            return Span::styled(pad(mark, cw, true), Style::default().fg(c));
        }
        let level = &self.pack.levels[self.level];
        let look = crate::render::glyph::look(&self.pack, name);
        if look.terrain || level.terrain.iter().any(|n| n.text == name) {
            let stop_bit = g.tok("STOP").map_or(0, |t| g.vocab.prop_bit(t));
            let stop = g.rules(s).noun_props(t) & stop_bit != 0;
            let fill = if stop { "█" } else { "░" };
            Span::styled(fill.repeat(cw), Style::default().fg(rgb("#5a5f6e")))
        } else if look.glyph.is_empty() || !terminal_knows(&look.glyph) {
            let label: String = name.to_ascii_lowercase().chars().take(cw).collect();
            Span::raw(pad(&label, cw, true))
        } else {
            // A character that is narrow text unless followed by the emoji
            // selector (⚙️) is as wide as the terminal decides: drawn as text,
            // it takes one column everywhere, so the board stays aligned.
            let text: String = look.glyph.chars().filter(|&c| c != '\u{fe0f}').collect();
            let glyph = if width_of(&text) >= 2 {
                look.glyph.to_string()
            } else {
                text
            };
            Span::raw(pad(&glyph, cw, true))
        }
    }

    /// The cells to keep in view: the YOU things, and the YOU things with
    /// what wins (the WIN things, or the WIN words when no thing is WIN).
    pub fn focus_cells(&self) -> (Vec<BoardCell>, Vec<BoardCell>) {
        let g = self.session.game();
        let s = &self.session.current().state;
        let rules = g.rules(s);
        let bit = |word: &str| g.tok(word).map_or(0, |t| g.vocab.prop_bit(t));
        let (you, win) = (bit("YOU"), bit("WIN"));
        let mut yous = Vec::new();
        let mut wins = Vec::new();
        let mut win_words = Vec::new();
        for e in g.live(s) {
            let (Some(t), Some((x, y))) = (g.noun(s, e), g.pos(s, e)) else {
                continue;
            };
            let cell = (usize::from(x), usize::from(y));
            if g.ents[usize::from(e)].word {
                if g.name(t) == "WIN" {
                    win_words.push(cell);
                }
                continue;
            }
            let props = rules.noun_props(t);
            if props & you != 0 {
                yous.push(cell);
            }
            if props & win != 0 {
                wins.push(cell);
            }
        }
        if wins.is_empty() {
            wins = win_words;
        }
        wins.extend(yous.iter().copied());
        (yous, wins)
    }

    /// The part of the board in view in a box of `inner` cells, moved as
    /// little as it can from the last view.
    fn view(&self, grid: &layout::Grid, inner: Rect) -> layout::View {
        let (yous, wants) = self.focus_cells();
        let span = |cells: &[(usize, usize)], axis: fn(&(usize, usize)) -> usize| {
            let lo = cells.iter().map(axis).min()?;
            let hi = cells.iter().map(axis).max()?;
            Some(lo..hi + 1)
        };
        let focus = |axis: fn(&(usize, usize)) -> usize| layout::Focus {
            must: span(&yous, axis),
            want: span(&wants, axis),
        };
        let prev = self.origin.get();
        let columns = layout::follow(
            grid.columns.len(),
            |a, b| grid.span(a..b) <= u32::from(inner.width),
            prev.map(|p| p.0),
            &focus(|c| c.0),
        );
        let rows = layout::follow(
            usize::from(grid.rows),
            |a, b| b - a <= usize::from(inner.height),
            prev.map(|p| p.1),
            &focus(|c| c.1),
        );
        layout::View { columns, rows }
    }

    fn rule_lines(&self) -> Vec<String> {
        self.session
            .rules()
            .into_iter()
            .map(|(r, terrain)| if terrain { format!("{r} (terrain)") } else { r })
            .collect()
    }

    /// Draws the whole screen for the frame's size.
    pub fn draw(&self, f: &mut Frame<'_>) {
        let area = f.area();
        let rules = self.rule_lines();
        let compact = layout::wrap_items(
            &compact_rule_items(&self.session.rules()),
            usize::from(area.width),
        );
        let Some((screen, cells, view)) = self.arrange(area, &rules, &compact) else {
            *self.last_view.borrow_mut() = None;
            draw_too_small(f, area);
            return;
        };
        self.origin.set(Some((view.columns.start, view.rows.start)));
        self.draw_title(f, screen.title);
        draw_board(f, &screen, &cells, &view);
        *self.last_view.borrow_mut() = Some(BoardView {
            ascii: screen.ascii,
            columns: view.columns,
            rows: view.rows,
            words_cut_to: cells.cap,
        });
        match screen.rules_style {
            layout::RulesStyle::Panel => f.render_widget(
                Paragraph::new(rules.into_iter().map(Line::from).collect::<Vec<_>>())
                    .block(Block::default().borders(Borders::ALL).title(" rules ")),
                screen.rules,
            ),
            layout::RulesStyle::Compact => draw_compact_rules(f, screen.rules, compact),
        }
        self.draw_events(f, &screen);
        f.render_widget(
            Paragraph::new(self.help_line(screen.help.width)),
            screen.help,
        );
        if self.show_keys {
            draw_keys(f, area);
        }
    }

    /// The screen's plan, the cells it draws and the view of them; `None`
    /// when the terminal is too small. Pictures when the whole board fits,
    /// else ASCII with whole words, else with words cut shorter until YOU
    /// and what wins are in view together.
    fn arrange(
        &self,
        area: Rect,
        rules: &[String],
        compact: &[String],
    ) -> Option<(layout::Screen, Cells, layout::View)> {
        let picture = (!self.ascii).then(|| self.picture_cells());
        let (_, wants) = self.focus_cells();
        let mut best = None;
        for cap in WORD_CAPS {
            let ascii = self.ascii_cells(cap);
            let content = layout::Content {
                picture: picture.as_ref().map(|c| &c.grid),
                ascii: &ascii.grid,
                rules_width: rules.iter().map(|r| width_of(r)).max().unwrap_or(0) as u16,
                rules: rules.len() as u16,
                compact_rules_lines: compact.len() as u16,
            };
            let screen = layout::plan(area, &content)?;
            if !screen.ascii {
                let cells = picture?;
                let view = self.view(&cells.grid, screen.board_inner());
                return Some((screen, cells, view));
            }
            let view = self.view(&ascii.grid, screen.board_inner());
            let all_in = wants
                .iter()
                .all(|(x, y)| view.columns.contains(x) && view.rows.contains(y));
            best = Some((screen, ascii, view));
            if all_in {
                break;
            }
        }
        best
    }

    fn draw_title(&self, f: &mut Frame<'_>, area: Rect) {
        let level = &self.pack.levels[self.level];
        let snap = self.session.current();
        let title = level.title.clone().unwrap_or_else(|| level.id.text.clone());
        let status = if snap.state.won() {
            Span::styled(
                format!("WON in {} turns! n: next level", snap.turn),
                Style::default()
                    .fg(rgb(crate::render::accent_colour("win")))
                    .add_modifier(Modifier::BOLD),
            )
        } else {
            Span::raw(format!("turn {}", snap.turn))
        };
        // The status first: a narrow terminal cuts the end of the line.
        f.render_widget(
            Paragraph::new(Line::from(vec![
                status,
                Span::styled(
                    format!("  {title}"),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::styled(
                    format!(
                        "  {} ({}/{})",
                        level.id.text,
                        self.level + 1,
                        self.pack.levels.len()
                    ),
                    Style::default().fg(Color::DarkGray),
                ),
            ])),
            area,
        );
    }

    fn draw_events(&self, f: &mut Frame<'_>, screen: &layout::Screen) {
        let snap = self.session.current();
        let mut what: Vec<Line> = Vec::new();
        // The status message first: in a short terminal it is the one line shown.
        if !self.message.is_empty() {
            what.push(Line::styled(
                self.message.clone(),
                Style::default().fg(Color::Yellow),
            ));
        }
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
        let paragraph = Paragraph::new(what);
        if screen.events_boxed {
            f.render_widget(
                paragraph.wrap(Wrap { trim: true }).block(
                    Block::default()
                        .borders(Borders::ALL)
                        .title(" what happened "),
                ),
                screen.events,
            );
        } else {
            f.render_widget(paragraph, screen.events);
        }
    }

    /// The key hints that fit `width`: the answers while a question is
    /// open, else the most used keys and `? keys`.
    fn help_line(&self, width: u16) -> Line<'static> {
        let style = Style::default().fg(Color::DarkGray);
        if self.confirm_save {
            return Line::styled("y save · any other key keeps playing", style);
        }
        let mut items = help_items();
        let width = usize::from(width);
        while items.len() > 1 && width_of(&join_items(&items)) > width {
            let lowest = (1..items.len()).min_by_key(|&i| items[i].0).unwrap_or(1);
            items.remove(lowest);
        }
        Line::styled(join_items(&items), style)
    }
}

/// Help line items joined by ` · `.
fn join_items(items: &[(u8, String)]) -> String {
    let texts: Vec<&str> = items.iter().map(|(_, t)| t.as_str()).collect();
    texts.join(" · ")
}

/// The rules as running text items: `rules: A IS B`, `C IS D`, …, the
/// rules of things before the terrain's (a short terminal shows the first
/// few).
fn compact_rule_items(rules: &[(String, bool)]) -> Vec<String> {
    let ordered: Vec<String> = rules
        .iter()
        .filter(|(_, terrain)| !terrain)
        .chain(rules.iter().filter(|(_, terrain)| *terrain))
        .map(|(r, terrain)| {
            if *terrain {
                format!("{r} (terrain)")
            } else {
                r.clone()
            }
        })
        .collect();
    match ordered.split_first() {
        Some((first, rest)) => std::iter::once(format!("rules: {first}"))
            .chain(rest.iter().cloned())
            .collect(),
        None => vec!["rules: none".to_string()],
    }
}

/// The rules as running text in `area`; an ellipsis when they go on.
fn draw_compact_rules(f: &mut Frame<'_>, area: Rect, mut lines: Vec<String>) {
    let shown = usize::from(area.height).max(1);
    if lines.len() > shown {
        lines.truncate(shown);
        if let Some(last) = lines.last_mut() {
            last.push_str(" …");
        }
    }
    f.render_widget(
        Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>()),
        area,
    );
}

/// The board's box with the cells in view, and a marker on every edge where
/// the board goes on.
fn draw_board(f: &mut Frame<'_>, screen: &layout::Screen, cells: &Cells, view: &layout::View) {
    let more = Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD);
    let mut block = Block::default().borders(Borders::ALL).title(" board ");
    if view.rows.start > 0 {
        block = block.title_top(Line::styled(" ▲ more ", more).right_aligned());
    }
    if view.rows.end < usize::from(cells.grid.rows) {
        block = block.title_bottom(Line::styled(" ▼ more ", more).right_aligned());
    }
    let lines: Vec<Line> = cells.rows[view.rows.clone()]
        .iter()
        .map(|row| {
            let mut spans = Vec::with_capacity(view.columns.len() * 2);
            for (i, cell) in row[view.columns.clone()].iter().enumerate() {
                if i > 0 {
                    spans.push(Span::raw(" "));
                }
                spans.push(cell.clone());
            }
            Line::from(spans)
        })
        .collect();
    f.render_widget(Paragraph::new(lines).block(block), screen.board);
    let inner = screen.board_inner();
    let buf = f.buffer_mut();
    if view.columns.start > 0 {
        for y in inner.top()..inner.bottom() {
            buf[(screen.board.x, y)].set_symbol("◀").set_style(more);
        }
    }
    if view.columns.end < cells.grid.columns.len() {
        for y in inner.top()..inner.bottom() {
            buf[(screen.board.right() - 1, y)]
                .set_symbol("▶")
                .set_style(more);
        }
    }
}

/// The message in place of the screen when the terminal is too small.
fn draw_too_small(f: &mut Frame<'_>, area: Rect) {
    let text = format!(
        "miauc play needs a terminal of at least {} × {}; this one is {} × {}. \
         Make the window larger, or press q to quit.",
        layout::MIN_WIDTH,
        layout::MIN_HEIGHT,
        area.width,
        area.height
    );
    f.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
}

/// The key list over the screen (the `?` key), in short words when the
/// full ones would not fit.
fn draw_keys(f: &mut Frame<'_>, area: Rect) {
    let lines_of = |brief: bool| -> Vec<Line<'static>> {
        let rows = key_list(brief);
        let keys_w = rows.iter().map(|(k, _)| width_of(k)).max().unwrap_or(0);
        rows.iter()
            .map(|(k, does)| Line::from(format!("{}  {does}", pad(k, keys_w, false))))
            .collect()
    };
    let widest = |lines: &[Line]| lines.iter().map(Line::width).max().unwrap_or(0) + 2;
    let mut lines = lines_of(false);
    if widest(&lines) > usize::from(area.width) {
        lines = lines_of(true);
    }
    let width = (widest(&lines) as u16).min(area.width);
    let height = (lines.len() as u16 + 2).min(area.height);
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    f.render_widget(Clear, popup);
    f.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" keys ")),
        popup,
    );
}

/// A route saved: the text written, and whether the file had changed since
/// the player loaded it (the route then went into the changed text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// The text now in the file.
    pub text: String,
    /// The file differed from `loaded`.
    pub merged: bool,
}

/// Records `route` as level `level`'s solution in the `.miau` file at
/// `path`, through the CLI's one atomic writer. The file is read again
/// first: an edit made since the player loaded `loaded` is kept, the route
/// going into the current text. A symbolic link is written through, to the
/// file it points at.
pub fn save_route(path: &Path, loaded: &str, level: &str, route: &str) -> Result<Saved, String> {
    let written = super::files::rewrite_source(path, &mut |current| {
        crate::session::record_solution(current, level, route)
            .map(Some)
            .map_err(|e| {
                if current == loaded {
                    e
                } else {
                    format!("the file changed since it was loaded, and {e}")
                }
            })
    })?;
    let written = written.ok_or("nothing to save")?;
    Ok(Saved {
        merged: written.before != loaded,
        text: written.after,
    })
}

/// Runs `miauc play`; the exit status.
pub fn play(path: &Path, level: Option<&str>, ascii: bool) -> u8 {
    // Without a terminal the key loop has nothing to read and the screen
    // nowhere to go: a usage error, before anything is written.
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        eprintln!(
            "miauc: play needs a terminal: its standard input and output must be a terminal, \
             not a file, a pipe or /dev/null (to see a route without one, use `miauc replay`)"
        );
        return 2;
    }
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
    let mut terminal = match ratatui::try_init() {
        Ok(t) => t,
        Err(e) => {
            let _ = crossterm::terminal::disable_raw_mode();
            eprintln!("miauc: play needs a terminal, and this one could not be set up: {e}");
            return 2;
        }
    };
    let result = key_loop(&mut terminal, &mut app, path);
    ratatui::restore();
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("miauc: terminal: {e}");
            1
        }
    }
}

/// Draws, reads a key, acts on it, until the player quits. Every event
/// (a resize too) redraws the screen for the terminal's current size.
fn key_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    path: &Path,
) -> std::io::Result<()> {
    loop {
        terminal.draw(|f| app.draw(f))?;
        let crossterm::event::Event::Key(k) = crossterm::event::read()? else {
            continue;
        };
        if k.kind != KeyEventKind::Press {
            continue;
        }
        match app.key(Key::of(&k)) {
            Effect::None => {}
            Effect::Quit => return Ok(()),
            Effect::Save { level, route } => {
                let loaded = app.source().unwrap_or_default().to_string();
                match save_route(path, &loaded, &level, &route) {
                    Ok(saved) => app.saved(saved.text, path, saved.merged),
                    Err(e) => app.save_failed(e),
                }
            }
        }
    }
}
