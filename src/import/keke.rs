//! Keke AI Competition maps to levels of this game, for the solver benchmark.
//!
//! The competition's maps (MasterMilkX/KekeCompetition) are ASCII boards:
//! `_` the impassable border, `.` empty, lowercase letters things, uppercase
//! letters their noun words, digits property words. The border ring becomes
//! the board's edge; `KILL` becomes `DEFEAT`. The simulator the maps were
//! made for differs from this game's rules in places (`README.md` of the
//! corpus lists them), so a converted map is a real-world workload, not the
//! same puzzle: its verdict here may differ from the competition's.

use crate::model::{Kind, Level, Named, Object};

/// The noun of a thing or noun-word letter (case-insensitive).
fn noun(c: char) -> Option<&'static str> {
    Some(match c.to_ascii_lowercase() {
        'b' => "BABA",
        's' => "SKULL",
        'f' => "FLAG",
        'o' => "FLOOR",
        'a' => "GRASS",
        'l' => "LAVA",
        'r' => "ROCK",
        'w' => "WALL",
        'k' => "KEKE",
        'g' => "GOOP",
        'v' => "LOVE",
        _ => return None,
    })
}

/// The word of a digit. `KILL` is this game's `DEFEAT`; `MOVE`, `HOT` and
/// `MELT` have no counterpart, so maps using them are not converted.
fn digit_word(c: char) -> Option<&'static str> {
    Some(match c {
        '0' => "SINK",
        '1' => "IS",
        '2' => "YOU",
        '3' => "WIN",
        '4' => "DEFEAT",
        '5' => "PUSH",
        '6' => "STOP",
        _ => return None,
    })
}

/// The level of a competition map, named `id`; an error names the first
/// character with no counterpart here (row and column in the map, from 1).
pub fn level(id: &str, ascii: &str) -> Result<Level, String> {
    let rows: Vec<&str> = ascii.lines().collect();
    // The border ring is the board edge: drop it when it is whole.
    let ring = rows.len() >= 3
        && rows.first().is_some_and(|r| r.chars().all(|c| c == '_'))
        && rows.last().is_some_and(|r| r.chars().all(|c| c == '_'))
        && rows
            .iter()
            .all(|r| r.starts_with('_') && r.ends_with('_') && r.len() >= 3);
    let inner: Vec<&str> = if ring {
        rows[1..rows.len() - 1]
            .iter()
            .map(|r| &r[1..r.len() - 1])
            .collect()
    } else {
        rows
    };
    let width = inner.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    if width == 0 {
        return Err("an empty map".into());
    }
    let mut objects = Vec::new();
    let mut counts = std::collections::BTreeMap::<String, u32>::new();
    for (y, row) in inner.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let (kind, text) = match c {
                '.' | ' ' => continue,
                c if c.is_ascii_lowercase() => (Kind::Thing, noun(c)),
                c if c.is_ascii_uppercase() => (Kind::Word, noun(c)),
                c => (Kind::Word, digit_word(c)),
            };
            let Some(text) = text else {
                let (line, col) = (y + 1 + usize::from(ring), x + 1 + usize::from(ring));
                return Err(format!(
                    "{line}:{col}: {c:?} has no counterpart in this game"
                ));
            };
            let stem = match kind {
                Kind::Thing => text.to_ascii_lowercase(),
                Kind::Word => format!("{}-word", text.to_ascii_lowercase()),
            };
            let n = counts.entry(stem.clone()).or_insert(0);
            *n += 1;
            objects.push(Object {
                id: format!("{stem}-{n}"),
                kind,
                text: text.to_string(),
                x: x as u32,
                y: y as u32,
                fixed: false,
                channel: None,
                span: Default::default(),
                part: Default::default(),
                legend: Default::default(),
            });
        }
    }
    Ok(Level {
        id: Named::new(id),
        width: width as u32,
        height: inner.len() as u32,
        objects,
        ..Level::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Game;
    use crate::solver::level::{Constraints, LevelSpace, route_text, search_level};
    use crate::solver::{Limits, Verdict};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn the_demo_map_converts_and_solves() {
        // The competition's first demo map; its recorded solution is `rrrrr`.
        let map = "__________\n_B12..F13_\n_........_\n_........_\n_........_\n_.b....f._\n_........_\n_........_\n_........_\n__________";
        let level = level("demo-1", map).unwrap();
        assert_eq!((level.width, level.height), (8, 8));
        assert_eq!(level.objects.len(), 8);
        let game = Game::new(&level);
        let out = search_level(
            &game,
            Constraints::default(),
            Limits::default(),
            1,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let Verdict::Solved { route, .. } = out.verdict else {
            panic!("{:?}", out.verdict);
        };
        let space = LevelSpace::new(&game, Constraints::default());
        assert_eq!(route_text(space.inputs(), &route), "RRRRR");
    }

    #[test]
    fn words_without_counterpart_are_refused_with_their_place() {
        let e = level("x", "_____\n_b17_\n_____").unwrap_err();
        assert!(e.starts_with("2:4: '7'"), "{e}");
        assert!(level("x", "").is_err());
    }
}
