//! Text rendering of a state in the board notation of `language.md`.

use super::game::Game;
use super::state::State;

/// Maps a thing's name to its legend key: a noun (`CRATE` to `$`), or, for a
/// plate or gate with a channel, the noun and channel (`PLATE amber` to `_`),
/// so each channel's things keep their own key. `None` falls back to the
/// plain noun's key, then to the noun lowercased.
pub type KeyOf<'a> = &'a dyn Fn(&str) -> Option<String>;

impl Game {
    /// The board of `s`: cells separated by spaces with aligned columns, `.`
    /// for empty cells, things by legend key, words in UPPERCASE (`WORD!` when
    /// fixed), stacks joined by `+` with things first, each group in id order.
    pub fn render_board(&self, s: &State, key_of: KeyOf<'_>) -> String {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut cells: Vec<Vec<String>> = vec![Vec::new(); w * h];
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
                    info.channel
                        .and_then(|c| crate::model::CHANNELS.get(usize::from(c)))
                        .and_then(|c| key_of(&format!("{name} {c}")))
                        .or_else(|| key_of(name))
                        .unwrap_or_else(|| name.to_ascii_lowercase())
                };
                cells[e.y() as usize * w + e.x() as usize].push(text);
            }
        }
        let texts: Vec<String> = cells
            .iter()
            .map(|c| {
                if c.is_empty() {
                    ".".to_string()
                } else {
                    c.join("+")
                }
            })
            .collect();
        let widths: Vec<usize> = (0..w)
            .map(|x| {
                (0..h)
                    .map(|y| texts[y * w + x].chars().count())
                    .max()
                    .unwrap_or(1)
            })
            .collect();
        let mut out = String::new();
        for y in 0..h {
            let mut line = String::new();
            for x in 0..w {
                let t = &texts[y * w + x];
                line.push_str(t);
                if x + 1 < w {
                    let pad = widths[x] - t.chars().count() + 1;
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}
