//! Text rendering of a state in the board notation of `language.md`.

use super::game::Game;
use super::state::State;

/// Maps a noun (e.g. `CRATE`) and, for a plate or gate, its channel (e.g.
/// `amber`) to the legend key that wrote it (e.g. `$`, `_`); `None` falls
/// back to the noun lowercased. The channel matters: an amber and a teal
/// plate are written with different keys.
pub type KeyOf<'a> = &'a dyn Fn(&str, Option<&str>) -> Option<String>;

impl Game {
    /// The board of `s`: cells separated by spaces with aligned columns, `.`
    /// for empty cells, things by legend key, words in UPPERCASE (`WORD!` when
    /// fixed), stacks joined by `+` with things first, each group in id order.
    pub fn render_board(&self, s: &State, key_of: KeyOf<'_>) -> String {
        let texts = self.cell_texts(s, key_of);
        let widths = self.column_widths(&texts);
        let mut out = String::new();
        for row in texts.chunks(usize::from(self.width).max(1)) {
            out.push_str(&layout_row(row, &widths));
            out.push('\n');
        }
        out
    }

    /// The text of every cell of `s` in reading order, as
    /// [`Game::render_board`] writes it (`.` for an empty cell).
    pub fn cell_texts(&self, s: &State, key_of: KeyOf<'_>) -> Vec<String> {
        let w = usize::from(self.width);
        let mut cells: Vec<Vec<String>> = vec![Vec::new(); w * usize::from(self.height)];
        for pass_words in [false, true] {
            for (i, info) in self.ents.iter().enumerate() {
                let e = s.ent(i);
                if !e.alive() || info.word != pass_words {
                    continue;
                }
                let name = self.name(e.noun());
                let text = if info.word {
                    if info.fixed {
                        format!("{name}!")
                    } else {
                        name.to_string()
                    }
                } else {
                    key_of(name, self.channel_name(i as u16))
                        .unwrap_or_else(|| name.to_ascii_lowercase())
                };
                if let Some(c) = cells.get_mut(e.y() as usize * w + e.x() as usize) {
                    c.push(text);
                }
            }
        }
        cells
            .iter()
            .map(|c| {
                if c.is_empty() {
                    ".".to_string()
                } else {
                    c.join("+")
                }
            })
            .collect()
    }

    /// The widest cell of each column of a board's [`Game::cell_texts`], in
    /// characters.
    pub fn column_widths(&self, texts: &[String]) -> Vec<usize> {
        let w = usize::from(self.width).max(1);
        let mut widths = vec![1; w];
        for (i, t) in texts.iter().enumerate() {
            widths[i % w] = widths[i % w].max(t.chars().count());
        }
        widths
    }
}

/// One board row: each cell padded to its column's width plus one space,
/// trailing spaces trimmed.
pub(crate) fn layout_row(row: &[String], widths: &[usize]) -> String {
    let mut line = String::new();
    for (x, t) in row.iter().enumerate() {
        line.push_str(t);
        let width = widths.get(x).copied().unwrap_or(0);
        let pad = width.saturating_sub(t.chars().count()) + 1;
        line.extend(std::iter::repeat_n(' ', pad));
    }
    line.truncate(line.trim_end().len());
    line
}
