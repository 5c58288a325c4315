//! The board as the player sees it, as SVG text (no I/O), and its PNG and
//! GIF rasters.
//!
//! One drawing code path serves `miauc render`, the animated route export
//! and the editor's preview (which shows this SVG as it is): things by their
//! palette glyph (bundled Twemoji pictures, so the board looks the same on
//! every machine and offline), word tiles coloured by class (nouns light,
//! `IS`/`AND` dark, properties in their glossary accent), fixed words bolted,
//! terrain slabs (solid while STOP, hatched when passable), plates and gates
//! in their channel colour with the gate's open state, actors turned toward
//! their moves, and the active rules and the last turn's events beside the
//! board. Every number written is an integer, every order is fixed: the same
//! snapshot gives the same bytes.

pub mod glyph;
pub mod raster;

use crate::engine::events::rule_lines;
use crate::engine::{Class, EntId, Game, Input, State, Tok};
use crate::model::{self, Level, Pack};
use crate::session::Snapshot;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Cell size in pixels.
pub const CELL: u32 = 48;
const PAD: u32 = 16;
const HEADER: u32 = 48;
const PANEL_W: u32 = 320;
const LINE: u32 = 20;
const FONT: &str = "DejaVu Sans, Verdana, sans-serif";
/// Characters per panel line before it wraps (12 px DejaVu Sans).
const WRAP: usize = 44;

const BG: &str = "#15171c";
const FLOOR: &str = "#20232a";
const INK: &str = "#ece7dc";
const DIM: &str = "#8a8f99";
const DARK_INK: &str = "#16181d";
const NOUN_TILE: &str = "#ece7dc";
const OP_TILE: &str = "#3b404c";

/// The colour of a property accent (`you push stop win sink defeat`).
pub fn accent_colour(accent: &str) -> &'static str {
    match accent {
        "you" => "#f07cb4",
        "push" => "#e0a458",
        "stop" => "#7fc27a",
        "win" => "#f5d04c",
        "sink" => "#6fa8ea",
        "defeat" => "#ee6b6b",
        _ => "#b9a7e8",
    }
}

/// The accent of a built-in property word without a glossary entry.
fn builtin_accent(word: &str) -> &'static str {
    match word {
        "YOU" => "you",
        "PUSH" => "push",
        "STOP" => "stop",
        "WIN" | "GOAL" => "win",
        "SINK" | "FLOAT" => "sink",
        "DEFEAT" | "FRAIL" => "defeat",
        _ => "",
    }
}

/// The colour of a plate/gate channel (`rules.md` §9.5's palette).
pub fn channel_colour(channel: Option<u8>) -> &'static str {
    match channel.and_then(|c| model::CHANNELS.get(usize::from(c)).copied()) {
        Some("amber") => "#f0a830",
        Some("teal") => "#2bb3a6",
        Some("rose") => "#e86f8a",
        Some("lime") => "#9ccc3d",
        Some("violet") => "#9a6ee0",
        Some("slate") => "#8b97a6",
        _ => "#cfcfcf",
    }
}

/// Extra text for a picture.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A line shown under the events (e.g. why the last input was refused).
    pub note: Option<String>,
    /// The picture is at least this tall (frames of one animation share a size).
    pub min_height: u32,
}

/// What a level's pictures need: the pack's looks and accents, and the
/// compiled level.
pub struct Scene<'a> {
    pack: &'a Pack,
    level: &'a Level,
    game: &'a Game,
    accents: BTreeMap<String, String>,
}

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Splits `text` into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push(line);
    out
}

/// The arrow for an input.
pub fn arrow(input: Input) -> &'static str {
    match input {
        Input::Up => "↑",
        Input::Down => "↓",
        Input::Left => "←",
        Input::Right => "→",
        Input::Wait => "·",
    }
}

/// One line of the side panel.
enum Line {
    Heading(String),
    Rule(String, bool),
    Text(String, &'static str),
    Gap,
}

impl<'a> Scene<'a> {
    /// A scene for `level` of `pack`, compiled as `game`.
    pub fn new(pack: &'a Pack, level: &'a Level, game: &'a Game) -> Scene<'a> {
        let accents = pack
            .glossary
            .iter()
            .map(|g| (g.word.text.clone(), g.accent.clone()))
            .collect();
        Scene {
            pack,
            level,
            game,
            accents,
        }
    }

    fn accent_of(&self, word: &str) -> &'static str {
        let a = self
            .accents
            .get(word)
            .map_or(builtin_accent(word), String::as_str);
        accent_colour(a)
    }

    fn panel(&self, snap: &Snapshot, opts: &Options) -> Vec<Line> {
        let mut lines = vec![Line::Heading("RULES".into())];
        let rules = rule_lines(self.game, &self.game.rules(&snap.state));
        if rules.is_empty() {
            lines.push(Line::Text("no rules".into(), DIM));
        }
        for (r, terrain) in rules {
            lines.push(Line::Rule(r, terrain));
        }
        lines.push(Line::Gap);
        lines.push(Line::Heading(match snap.input {
            Some(i) => format!("TURN {} {}", snap.turn, arrow(i)),
            None => "RESET".into(),
        }));
        if snap.events.is_empty() {
            lines.push(Line::Text(
                if snap.input.is_some() {
                    "moved"
                } else {
                    "ready"
                }
                .into(),
                DIM,
            ));
        }
        for e in &snap.events {
            for w in wrap(e, WRAP) {
                lines.push(Line::Text(w, INK));
            }
        }
        if let Some(n) = &opts.note {
            lines.push(Line::Gap);
            for w in wrap(n, WRAP) {
                lines.push(Line::Text(w, accent_colour("defeat")));
            }
        }
        lines
    }

    /// The picture's size for a snapshot, before `min_height`.
    pub fn size(&self, snap: &Snapshot, opts: &Options) -> (u32, u32) {
        let (w, h) = (u32::from(self.game.width), u32::from(self.game.height));
        let board_h = HEADER + h * CELL + PAD;
        let panel_h = HEADER + self.panel(snap, opts).len() as u32 * LINE + PAD;
        (
            PAD + w * CELL + 24 + PANEL_W + PAD,
            board_h.max(panel_h).max(opts.min_height),
        )
    }

    fn word_tile(&self, out: &mut String, x: u32, y: u32, text: &str, fixed: bool) {
        let class = self
            .game
            .tok(text)
            .map_or(Class::Noun, |t: Tok| self.game.vocab.class(t));
        let (fill, ink) = match class {
            Class::Noun => (NOUN_TILE, DARK_INK),
            Class::Is | Class::And => (OP_TILE, INK),
            Class::Prop(_) => (self.accent_of(text), DARK_INK),
        };
        let len = text.chars().count().max(1) as u32;
        // DejaVu Sans Bold capitals advance about 0.72 em: fit 38 px.
        let size = (38 * 100 / (72 * len)).clamp(6, 15);
        let stroke = if fixed {
            format!(" stroke=\"{INK}\" stroke-width=\"2\"")
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"44\" height=\"44\" rx=\"6\" fill=\"{fill}\"{stroke}/>",
            x + 2,
            y + 2
        );
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{size}\" font-weight=\"bold\" fill=\"{ink}\" text-anchor=\"middle\">{}</text>",
            x + 24,
            y + 24 + size * 36 / 100,
            esc(text)
        );
        if fixed {
            for (bx, by) in [(8, 8), (40, 8), (8, 40), (40, 40)] {
                let _ = write!(
                    out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"2\" fill=\"#8a8f99\" stroke=\"{DARK_INK}\" stroke-width=\"1\"/>",
                    x + bx,
                    y + by
                );
            }
        }
    }

    /// The SVG of one snapshot: the glyphs it uses, the header, the floor,
    /// the layers (channel holders, terrain, things, words; id order in
    /// each), then the side panel.
    pub fn svg(&self, snap: &Snapshot, opts: &Options) -> String {
        let (width, height) = self.size(snap, opts);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"{FONT}\">"
        );
        out.push_str("<desc>Miau Is True board. Emoji graphics: Twemoji, CC-BY 4.0.</desc>");
        let nouns = self.looks(&snap.state);
        let symbols = self.write_defs(&mut out, &nouns);
        let _ = write!(
            out,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"{BG}\"/>"
        );
        self.write_header(&mut out, snap, width);
        self.write_floor(&mut out);
        let live = self.game.live(&snap.state);
        self.write_channel_holders(&mut out, &snap.state, &live);
        let looks = Looks {
            nouns: &nouns,
            symbols,
            stop: self.stop_nouns(&snap.state),
        };
        for pass_terrain in [true, false] {
            for &e in &live {
                self.write_thing(&mut out, snap, e, pass_terrain, &looks);
            }
        }
        self.write_words(&mut out, &snap.state, &live);
        self.write_panel(&mut out, snap, opts);
        out.push_str("</svg>\n");
        // One element a line, so that diffs of pictures read; never inside a
        // <text>, where a line break would become a space.
        out.replace("/>", "/>\n")
            .replace("</text>", "</text>\n")
            .replace("</symbol>", "</symbol>\n")
            .replace("<defs>", "<defs>\n")
            .replace("</desc>", "</desc>\n")
            .replace("</defs>", "</defs>\n")
    }

    /// The look of every noun a live thing (not a word) of `s` has.
    fn looks(&self, s: &State) -> BTreeMap<String, glyph::Look> {
        let g = self.game;
        let mut nouns = BTreeMap::new();
        for e in g.live(s) {
            if !g.ents[usize::from(e)].word
                && let Some(t) = g.noun(s, e)
            {
                let n = g.name(t).to_string();
                let l = glyph::look(self.pack, &n);
                nouns.insert(n, l);
            }
        }
        nouns
    }

    /// Whether a noun is STOP under the rules of `s`: its terrain is drawn
    /// solid.
    fn stop_nouns(&self, s: &State) -> impl Fn(Tok) -> bool {
        let g = self.game;
        let rules = g.rules(s);
        let stop_bit = g.tok("STOP").map_or(0, |t| g.vocab.prop_bit(t));
        move |t| rules.noun_props(t) & stop_bit != 0
    }

    /// Whether things of `noun` are drawn as terrain slabs: by their look,
    /// or the level's terrain declaration.
    fn is_terrain(&self, noun: &str, look: &glyph::Look) -> bool {
        look.terrain || self.level.terrain.iter().any(|t| t.text == noun)
    }

    /// Writes `<defs>`: a symbol per Twemoji glyph of `nouns`' things
    /// (once each, in noun order; terrain has none), and the terrain's
    /// hatch. Returns each glyph's symbol number.
    fn write_defs<'n>(
        &self,
        out: &mut String,
        nouns: &'n BTreeMap<String, glyph::Look>,
    ) -> BTreeMap<&'n str, usize> {
        let mut symbols: BTreeMap<&str, usize> = BTreeMap::new();
        let mut defs = String::new();
        for (n, l) in nouns {
            let slab = self.is_terrain(n, l);
            if slab || l.glyph.is_empty() || symbols.contains_key(l.glyph.as_str()) {
                continue;
            }
            let k = symbols.len();
            if let Some(body) = glyph::twemoji_body(&l.glyph, &format!("e{k}-")) {
                let _ = write!(
                    defs,
                    "<symbol id=\"g{k}\" viewBox=\"0 0 36 36\" data-glyph=\"{}\">{body}</symbol>",
                    esc(&l.glyph)
                );
                symbols.insert(l.glyph.as_str(), k);
            }
        }
        defs.push_str("<pattern id=\"hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"3\" height=\"8\" fill=\"#5a5f6e\"/></pattern>");
        let _ = write!(out, "<defs>{defs}</defs>");
        symbols
    }

    /// Writes the header: the level's title, and the turn or the win.
    fn write_header(&self, out: &mut String, snap: &Snapshot, width: u32) {
        let s = &snap.state;
        let title = self
            .level
            .title
            .clone()
            .unwrap_or_else(|| self.level.id.text.clone());
        let _ = write!(
            out,
            "<text x=\"{PAD}\" y=\"30\" font-size=\"18\" font-weight=\"bold\" fill=\"{INK}\">{}</text>",
            esc(&title)
        );
        let status = if s.won() {
            format!("won in {}", crate::diag::wording::count(snap.turn, "turn"))
        } else {
            format!("turn {}", snap.turn)
        };
        let colour = if s.won() { accent_colour("win") } else { DIM };
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"30\" font-size=\"14\" font-weight=\"bold\" fill=\"{colour}\" text-anchor=\"end\">{}</text>",
            width - PAD,
            esc(&status)
        );
    }

    /// Writes the floor: one tile per cell of the board.
    fn write_floor(&self, out: &mut String) {
        let (bw, bh) = (u32::from(self.game.width), u32::from(self.game.height));
        for y in 0..bh {
            for x in 0..bw {
                let _ = write!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{FLOOR}\"/>",
                    PAD + x * CELL + 1,
                    HEADER + y * CELL + 1,
                    CELL - 2,
                    CELL - 2
                );
            }
        }
    }

    /// The top-left corner, in pixels, of the cell thing `e` stands on.
    fn cell_corner(&self, s: &State, e: EntId) -> (u32, u32) {
        let (x, y) = self.game.pos(s, e).unwrap_or((0, 0));
        (PAD + u32::from(x) * CELL, HEADER + u32::from(y) * CELL)
    }

    /// Writes the first layer: things with a channel in its colour, gates
    /// (barred when shut, dashed when open) and plates whole, any other a
    /// channel dot over which its glyph is drawn later.
    fn write_channel_holders(&self, out: &mut String, s: &State, live: &[EntId]) {
        let g = self.game;
        for &e in live {
            let info = &g.ents[usize::from(e)];
            if info.word || info.channel.is_none() {
                continue;
            }
            let (x, y) = self.cell_corner(s, e);
            let c = channel_colour(info.channel);
            let noun = g.noun(s, e).map_or("", |t| g.name(t));
            if noun == "GATE" {
                if g.open(s, e) {
                    let _ = write!(
                        out,
                        "<rect x=\"{}\" y=\"{}\" width=\"40\" height=\"40\" rx=\"3\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" stroke-dasharray=\"4 4\"/>",
                        x + 4,
                        y + 4
                    );
                } else {
                    let _ = write!(
                        out,
                        "<rect x=\"{}\" y=\"{}\" width=\"40\" height=\"40\" rx=\"3\" fill=\"{c}\"/>",
                        x + 4,
                        y + 4
                    );
                    for bx in [14, 24, 34] {
                        let _ = write!(
                            out,
                            "<rect x=\"{}\" y=\"{}\" width=\"3\" height=\"34\" fill=\"{DARK_INK}\" opacity=\"0.45\"/>",
                            x + bx - 1,
                            y + 7
                        );
                    }
                }
            } else if noun == "PLATE" {
                let _ = write!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"32\" height=\"32\" rx=\"8\" fill=\"{c}\" fill-opacity=\"0.3\" stroke=\"{c}\" stroke-width=\"3\"/>",
                    x + 8,
                    y + 8
                );
            } else {
                // Another thing with a channel: its glyph below, a channel dot.
                let _ = write!(
                    out,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{c}\"/>",
                    x + 40,
                    y + 8
                );
            }
        }
    }

    /// Writes thing `e` (not a word, a gate or a plate) when it belongs to
    /// the pass: terrain slabs in the terrain pass (`pass_terrain`), every
    /// other thing's glyph in the next.
    fn write_thing(
        &self,
        out: &mut String,
        snap: &Snapshot,
        e: EntId,
        pass_terrain: bool,
        looks: &Looks<'_, impl Fn(Tok) -> bool>,
    ) {
        let (g, s) = (self.game, &snap.state);
        let info = &g.ents[usize::from(e)];
        if info.word {
            return;
        }
        let Some(t) = g.noun(s, e) else { return };
        let noun = g.name(t);
        if info.channel.is_some() && (noun == "GATE" || noun == "PLATE") {
            return;
        }
        let look = looks
            .nouns
            .get(noun)
            .cloned()
            .unwrap_or_else(|| glyph::look(self.pack, noun));
        let terrain = self.is_terrain(noun, &look);
        if terrain != pass_terrain {
            return;
        }
        let (x, y) = self.cell_corner(s, e);
        if terrain {
            write_slab(out, x, y, (looks.stop)(t));
            return;
        }
        match looks.symbols.get(look.glyph.as_str()) {
            Some(k) => {
                let left = snap
                    .facing_left
                    .get(usize::from(e))
                    .copied()
                    .unwrap_or(false);
                let flip = look.faces_left.is_some_and(|fl| fl != left);
                if flip {
                    let _ = write!(
                        out,
                        "<use href=\"#g{k}\" width=\"40\" height=\"40\" transform=\"translate({} {}) scale(-1 1)\"/>",
                        x + 44,
                        y + 4
                    );
                } else {
                    let _ = write!(
                        out,
                        "<use href=\"#g{k}\" x=\"{}\" y=\"{}\" width=\"40\" height=\"40\"/>",
                        x + 4,
                        y + 4
                    );
                }
            }
            None if !look.glyph.is_empty() => {
                let _ = write!(
                    out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"26\" fill=\"{INK}\" text-anchor=\"middle\">{}</text>",
                    x + 24,
                    y + 34,
                    esc(&look.glyph)
                );
            }
            None => {
                let len = noun.chars().count().max(1) as u32;
                let size = (40 * 100 / (62 * len)).clamp(6, 12);
                let _ = write!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"40\" height=\"40\" rx=\"20\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"1.5\"/><text x=\"{}\" y=\"{}\" font-size=\"{size}\" fill=\"{INK}\" text-anchor=\"middle\">{}</text>",
                    x + 4,
                    y + 4,
                    x + 24,
                    y + 24 + size * 36 / 100,
                    esc(&noun.to_ascii_lowercase())
                );
            }
        }
    }

    /// Writes the last layer: the word tiles.
    fn write_words(&self, out: &mut String, s: &State, live: &[EntId]) {
        let g = self.game;
        for &e in live {
            let info = &g.ents[usize::from(e)];
            if !info.word {
                continue;
            }
            let Some(t) = g.noun(s, e) else { continue };
            let (x, y) = self.cell_corner(s, e);
            self.word_tile(out, x, y, g.name(t), info.fixed);
        }
    }

    /// Writes the side panel: the rules, their words coloured by class,
    /// and the turn's events ([`Scene::panel`]'s lines).
    fn write_panel(&self, out: &mut String, snap: &Snapshot, opts: &Options) {
        let g = self.game;
        let px = PAD + u32::from(g.width) * CELL + 24;
        let mut y = HEADER + 14;
        for line in self.panel(snap, opts) {
            match line {
                Line::Heading(t) => {
                    let _ = write!(
                        out,
                        "<text x=\"{px}\" y=\"{y}\" font-size=\"12\" font-weight=\"bold\" fill=\"{DIM}\" letter-spacing=\"1\">{}</text>",
                        esc(&t)
                    );
                }
                Line::Rule(r, terrain) => {
                    let _ = write!(
                        out,
                        "<text x=\"{px}\" y=\"{y}\" font-size=\"13\" font-weight=\"bold\">"
                    );
                    for (i, w) in r.split(' ').enumerate() {
                        let class = self.game.tok(w).map_or(Class::Noun, |t| g.vocab.class(t));
                        let fill = match class {
                            Class::Prop(_) => self.accent_of(w),
                            Class::Is | Class::And => DIM,
                            Class::Noun => INK,
                        };
                        let sep = if i > 0 { " " } else { "" };
                        let _ = write!(out, "<tspan fill=\"{fill}\">{sep}{}</tspan>", esc(w));
                    }
                    if terrain {
                        let _ = write!(
                            out,
                            "<tspan fill=\"{DIM}\" font-weight=\"normal\"> (terrain)</tspan>"
                        );
                    }
                    out.push_str("</text>");
                }
                Line::Text(t, colour) => {
                    let _ = write!(
                        out,
                        "<text x=\"{px}\" y=\"{y}\" font-size=\"12\" fill=\"{colour}\">{}</text>",
                        esc(&t)
                    );
                }
                Line::Gap => {}
            }
            y += LINE;
        }
    }
}

/// What the layers of things draw from, worked out once a picture: each
/// noun's look, each glyph's symbol number in `<defs>`, and which nouns
/// are STOP.
struct Looks<'n, F: Fn(Tok) -> bool> {
    nouns: &'n BTreeMap<String, glyph::Look>,
    symbols: BTreeMap<&'n str, usize>,
    stop: F,
}

/// Writes a terrain slab at `(x, y)`: solid while its noun is STOP (`stop`),
/// hatched when it can be walked over.
fn write_slab(out: &mut String, x: u32, y: u32, stop: bool) {
    if stop {
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"#4d5260\"/><rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"5\" fill=\"#646a7a\"/>"
        );
    } else {
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"url(#hatch)\" stroke=\"#5a5f6e\" stroke-width=\"2\"/>",
            x + 2,
            y + 2,
            CELL - 4,
            CELL - 4
        );
    }
}

/// Where a route stopped early: the 1-based input position and why.
pub type Stop = (usize, String);

/// The animated GIF of `level` played along `moves` (reset first, then one
/// frame per accepted turn, all of the tallest frame's height) and where the
/// route stopped early. Frames are drawn and encoded one at a time, and a
/// GIF past [`raster::MAX_GIF_PIXELS`] is refused before the route is
/// played, so memory and time stay bounded whatever the route's length.
pub fn route_gif(
    pack: &Pack,
    level: &Level,
    moves: &str,
    delay_cs: u16,
) -> Result<(Vec<u8>, Option<Stop>), String> {
    let inputs = moves.chars().filter(|c| !c.is_whitespace()).count();
    let mut session = crate::session::Session::new(level);
    {
        let scene = Scene::new(pack, level, session.game());
        let (w, h) = scene.size(session.current(), &Options::default());
        if let Some(why) = raster::gif_refusal(inputs + 1, w, h) {
            return Err(why);
        }
    }
    let stop = session.play_route(moves).err();
    let scene = Scene::new(pack, level, session.game());
    let history = session.history();
    let last = history.len() - 1;
    let opts_for = |i: usize| Options {
        note: (i == last)
            .then(|| {
                stop.as_ref()
                    .map(|(n, why)| format!("input {n} refused: {why}"))
            })
            .flatten(),
        min_height: 0,
    };
    let (mut width, mut height) = (0, 0);
    for (i, snap) in history.iter().enumerate() {
        let (w, h) = scene.size(snap, &opts_for(i));
        (width, height) = (width.max(w), height.max(h));
    }
    let frame = |i: usize| {
        let mut o = opts_for(i);
        o.min_height = height;
        scene.svg(&history[i], &o)
    };
    let bytes = raster::gif_frames(history.len(), (width, height), frame, delay_cs)?;
    Ok((bytes, stop))
}

/// The SVG of `level` after `moves`, and where the route stopped early.
pub fn level_svg(pack: &Pack, level: &Level, moves: &str) -> (String, Option<Stop>) {
    // One board drawn: no history kept, however long the route.
    let mut session = crate::session::Session::last_only(level);
    let stop = session.play_route(moves).err();
    let scene = Scene::new(pack, level, session.game());
    let opts = Options {
        note: stop
            .as_ref()
            .map(|(n, why)| format!("input {n} refused: {why}")),
        min_height: 0,
    };
    (scene.svg(session.current(), &opts), stop)
}
