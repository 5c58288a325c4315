//! The player's keys: one table ([`BINDINGS`]) that the key handling, the
//! help line, the `?` list and `miauc play --help` all read, so what the help
//! says is what the keys do.

use crate::engine::Input;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A move or a wait.
    Play(Input),
    /// Undo the last turn.
    Undo,
    /// Restart the level.
    Restart,
    /// The next level.
    Next,
    /// The previous level.
    Prev,
    /// Save the route as the level's solution (asks first).
    Save,
    /// Yes to a question.
    Yes,
    /// Show every key.
    Keys,
    /// Leave.
    Quit,
    /// Anything else.
    Other,
}

/// One row of the key table: the keys that ask for one thing. The key
/// handling ([`Key::of`]), the help line, the key overlay and `miauc play
/// --help` all read [`BINDINGS`], so they cannot disagree.
#[derive(Debug)]
pub struct Binding {
    /// What the keys ask for.
    pub key: Key,
    /// The keys pressed alone (a capital letter is pressed with Shift).
    pub plain: &'static [KeyCode],
    /// Letters pressed with Ctrl.
    pub ctrl: &'static [char],
    /// What the keys do, for `miauc play --help`.
    pub does: &'static str,
    /// What the keys do in a word or two, for the help line and the key
    /// list of a small terminal (empty: the moves, and keys only the full
    /// list names).
    pub brief: &'static str,
    /// Which brief a narrow help line drops first: the lowest rank.
    pub rank: u8,
}

/// Every key the player knows. WASD moves, so saving is the capital `S`.
pub const BINDINGS: &[Binding] = &[
    Binding {
        key: Key::Play(Input::Up),
        plain: &[KeyCode::Up, KeyCode::Char('w'), KeyCode::Char('k')],
        ctrl: &[],
        does: "move up",
        brief: "",
        rank: 0,
    },
    Binding {
        key: Key::Play(Input::Left),
        plain: &[KeyCode::Left, KeyCode::Char('a'), KeyCode::Char('h')],
        ctrl: &[],
        does: "move left",
        brief: "",
        rank: 0,
    },
    Binding {
        key: Key::Play(Input::Down),
        plain: &[KeyCode::Down, KeyCode::Char('s'), KeyCode::Char('j')],
        ctrl: &[],
        does: "move down",
        brief: "",
        rank: 0,
    },
    Binding {
        key: Key::Play(Input::Right),
        plain: &[KeyCode::Right, KeyCode::Char('d'), KeyCode::Char('l')],
        ctrl: &[],
        does: "move right",
        brief: "",
        rank: 0,
    },
    Binding {
        key: Key::Play(Input::Wait),
        plain: &[KeyCode::Char(' '), KeyCode::Char('.')],
        ctrl: &[],
        does: "wait a turn",
        brief: "wait",
        rank: 2,
    },
    Binding {
        key: Key::Undo,
        plain: &[KeyCode::Char('z'), KeyCode::Char('u'), KeyCode::Backspace],
        ctrl: &[],
        does: "undo the last turn",
        brief: "undo",
        rank: 6,
    },
    Binding {
        key: Key::Restart,
        plain: &[KeyCode::Char('r')],
        ctrl: &[],
        does: "restart the level",
        brief: "restart",
        rank: 4,
    },
    Binding {
        key: Key::Next,
        plain: &[KeyCode::Char('n')],
        ctrl: &[],
        does: "next level",
        brief: "next",
        rank: 1,
    },
    Binding {
        key: Key::Prev,
        plain: &[KeyCode::Char('p')],
        ctrl: &[],
        does: "previous level",
        brief: "previous",
        rank: 0,
    },
    Binding {
        key: Key::Save,
        plain: &[KeyCode::Char('S')],
        ctrl: &['s'],
        does: "save the route played so far as the level's solution (asks first)",
        brief: "save route",
        rank: 5,
    },
    Binding {
        key: Key::Yes,
        plain: &[KeyCode::Char('y'), KeyCode::Char('Y')],
        ctrl: &[],
        does: "yes, when asked",
        brief: "",
        rank: 0,
    },
    Binding {
        key: Key::Keys,
        plain: &[KeyCode::Char('?')],
        ctrl: &[],
        does: "show every key",
        brief: "keys",
        rank: 8,
    },
    Binding {
        key: Key::Quit,
        plain: &[KeyCode::Char('q'), KeyCode::Esc],
        ctrl: &['c'],
        does: "quit",
        brief: "quit",
        rank: 7,
    },
];

impl Key {
    /// The meaning of a terminal key, looked up in [`BINDINGS`]: Ctrl with
    /// a letter first, then the key alone.
    pub fn of(k: &KeyEvent) -> Key {
        let ctrl_letter = match k.code {
            KeyCode::Char(c) if k.modifiers.contains(KeyModifiers::CONTROL) => Some(c),
            _ => None,
        };
        ctrl_letter
            .and_then(|c| BINDINGS.iter().find(|b| b.ctrl.contains(&c)))
            .or_else(|| BINDINGS.iter().find(|b| b.plain.contains(&k.code)))
            .map_or(Key::Other, |b| b.key)
    }
}

/// A key's name as the help writes it: `↑`, `space`, `S`, `Esc`.
pub fn key_name(code: &KeyCode) -> String {
    match code {
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Char(' ') => "space".into(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Backspace => "Backspace".into(),
        other => format!("{other:?}"),
    }
}

/// Every name of a binding's keys: `S Ctrl-S`.
fn binding_names(b: &Binding) -> Vec<String> {
    b.plain
        .iter()
        .map(key_name)
        .chain(
            b.ctrl
                .iter()
                .map(|c| format!("Ctrl-{}", c.to_ascii_uppercase())),
        )
        .collect()
}

/// The key table as `(keys, what they do)` rows, one per binding.
pub fn key_rows() -> Vec<(String, &'static str)> {
    BINDINGS
        .iter()
        .map(|b| (binding_names(b).join(" "), b.does))
        .collect()
}

/// The key table for `miauc play --help`.
pub fn keys_help() -> String {
    let rows = key_rows();
    let width = rows
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::from("Keys:\n");
    for (keys, does) in rows {
        let pad = width - keys.chars().count();
        out.push_str(&format!("  {keys}{}  {does}\n", " ".repeat(pad)));
    }
    out
}

/// The moves' keys as one row: `↑←↓→ wasd khjl`.
fn move_keys() -> String {
    let moves: Vec<&Binding> = BINDINGS
        .iter()
        .filter(|b| matches!(b.key, Key::Play(i) if i != Input::Wait))
        .collect();
    let columns = moves.iter().map(|b| b.plain.len()).max().unwrap_or(0);
    (0..columns)
        .map(|n| {
            moves
                .iter()
                .filter_map(|b| b.plain.get(n).map(key_name))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The help line's items with their ranks: the moves as one item (their
/// first two keys, `↑←↓→/wasd move`), then each binding's first key and
/// brief.
pub fn help_items() -> Vec<(u8, String)> {
    let keys = move_keys();
    let mut two = keys.split(' ');
    let arrows = two.next().unwrap_or_default();
    let letters = two.next().unwrap_or_default();
    let mut items = vec![(u8::MAX, format!("{arrows}/{letters} move"))];
    items.extend(
        BINDINGS
            .iter()
            .filter(|b| !b.brief.is_empty())
            .map(|b| (b.rank, format!("{} {}", key_name(&b.plain[0]), b.brief))),
    );
    items
}

/// The key list the `?` key shows: the moves as one row, then one row per
/// binding; with `brief`, the short words (for a small terminal).
pub(super) fn key_list(brief: bool) -> Vec<(String, &'static str)> {
    let mut rows = vec![(move_keys(), "move")];
    rows.extend(
        BINDINGS
            .iter()
            .filter(|b| !matches!(b.key, Key::Play(i) if i != Input::Wait))
            .map(|b| {
                let says = if brief && !b.brief.is_empty() {
                    b.brief
                } else {
                    b.does
                };
                (binding_names(b).join(" "), says)
            }),
    );
    rows
}
