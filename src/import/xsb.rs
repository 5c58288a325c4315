//! XSB Sokoban level files to `.miau` packs (`miauc import levels.xsb`).
//!
//! XSB is the plain-text format most Sokoban collections ship in: one map
//! per level, `#` wall, space (or `-`, `_`) floor, `$` box, `.` goal, `*` box
//! on a goal, `@` player, `+` player on a goal; `;` starts a comment, and a
//! level's title may stand on its own line in single quotes or after
//! `Title:`. Levels are separated by blank or comment lines.
//!
//! Each map becomes a level of this game with the Sokoban rules in a sealed
//! header: three rows of fixed words above the map (`MIAU! IS! YOU!`,
//! `CRATE! IS! PUSH!`, `DOCK! IS! GOAL!`), which nothing can push or destroy,
//! and `WALL` as terrain (always STOP, never a rule to break). The player is
//! `MIAU` (`@`), boxes are crates (`$`), goals are docks (`o`). No word can
//! move, so every level allows BYPASS with a reason. A pack holds at most
//! [`MAX_LEVELS`] levels, so a larger set becomes several packs.
//!
//! The output is passed through the canonical formatter, so it is exactly
//! what `miauc fmt` would write.

use crate::validate::limits::{MAX_BOARD_SIDE, MAX_ID, MAX_LEVELS, MAX_OBJECTS};
use std::fmt::Write as _;

/// One Sokoban level read from an XSB file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XsbLevel {
    /// The number of the level: the last `; N` comment before it when that
    /// is a number, else its position in the file (from 1).
    pub number: u32,
    /// The title, when the file gives one.
    pub title: Option<String>,
    /// The map rows as written (trailing spaces removed).
    pub rows: Vec<String>,
    /// The 1-based line of the map's first row.
    pub line: usize,
}

/// An error in an XSB file, at a 1-based line and column (in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XsbError {
    /// Line of the problem.
    pub line: usize,
    /// Column of the problem.
    pub column: usize,
    /// What is wrong and what to do about it.
    pub message: String,
}

impl std::fmt::Display for XsbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// Characters of a map row.
const MAP_CHARS: &str = "#@+$*. -_";

/// Whether `line` is a map row: only map characters, at least one wall.
fn is_map_row(line: &str) -> bool {
    line.contains('#') && line.chars().all(|c| MAP_CHARS.contains(c))
}

/// Reads the levels of an XSB file, in file order.
pub fn parse(text: &str) -> Result<Vec<XsbLevel>, XsbError> {
    let mut levels: Vec<XsbLevel> = Vec::new();
    // The numbers given so far: a set, so each level's lookup stays
    // logarithmic on collections of thousands of levels.
    let mut taken_numbers = std::collections::BTreeSet::new();
    // Every number from the last level's position up to this one is taken:
    // the search for a free number resumes here instead of rescanning them
    // (positions only grow and taken numbers stay taken).
    let mut free_from = 1u32;
    let mut number: Option<u32> = None;
    let mut title: Option<String> = None;
    let mut current: Option<XsbLevel> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if is_map_row(line) {
            // Numbers name levels (`level-N`), so they must be unique: a
            // repeated or missing `; N` falls back to the position.
            let position = levels.len() as u32 + 1;
            let level = current.get_or_insert_with(|| {
                let chosen = match number.take().filter(|n| !taken_numbers.contains(n)) {
                    Some(n) => n,
                    None => {
                        free_from = free_from.max(position);
                        while taken_numbers.contains(&free_from) {
                            free_from += 1;
                        }
                        free_from
                    }
                };
                taken_numbers.insert(chosen);
                XsbLevel {
                    number: chosen,
                    title: title.take(),
                    rows: Vec::new(),
                    line: i + 1,
                }
            });
            level.rows.push(line.to_string());
            continue;
        }
        if let Some(level) = current.take() {
            levels.push(level);
        }
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(comment) = trimmed.strip_prefix(';') {
            number = comment.trim().parse().ok().or(number);
            continue;
        }
        if let Some(t) = trimmed
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .or_else(|| trimmed.strip_prefix("Title:").map(str::trim))
        {
            title = Some(plain_text(t));
            continue;
        }
        if trimmed.contains(':') && !trimmed.contains('#') {
            // Other `Key: value` metadata (Author:, Comment:): not part of a level.
            continue;
        }
        let column = line
            .chars()
            .position(|c| !MAP_CHARS.contains(c))
            .map_or(1, |p| p + 1);
        let found = line.chars().nth(column - 1).unwrap_or(' ');
        return Err(XsbError {
            line: i + 1,
            column,
            message: format!(
                "unexpected {found:?}: a map row holds only `# @ + $ * .` and spaces; \
                 comments start with `;` and a title stands alone in single quotes"
            ),
        });
    }
    if let Some(level) = current.take() {
        levels.push(level);
    }
    for level in &levels {
        check(level)?;
    }
    if levels.is_empty() {
        return Err(XsbError {
            line: 1,
            column: 1,
            message: "no level found: expected map rows of `#` walls, `@` the player, \
                      `$` boxes and `.` goals"
                .into(),
        });
    }
    Ok(levels)
}

/// A level's contract: one player, as many boxes as goals, at least one,
/// and a board this game can load.
fn check(level: &XsbLevel) -> Result<(), XsbError> {
    let count = |set: &str| {
        level
            .rows
            .iter()
            .flat_map(|r| r.chars())
            .filter(|c| set.contains(*c))
            .count()
    };
    let at = |message: String| XsbError {
        line: level.line,
        column: 1,
        message: format!("level {}: {message}", level.number),
    };
    let players = count("@+");
    if players != 1 {
        return Err(at(format!(
            "{players} players: a Sokoban level has exactly one `@` (or `+` on a goal)"
        )));
    }
    let (boxes, goals) = (count("$*"), count(".+*"));
    if boxes == 0 || boxes != goals {
        return Err(at(format!(
            "{boxes} boxes and {goals} goals: a level needs as many boxes (`$`, `*`) \
             as goals (`.`, `+`, `*`), at least one"
        )));
    }
    let width = level
        .rows
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0);
    let (w, h) = board_size(width, level.rows.len());
    if w > MAX_BOARD_SIDE as usize || h > MAX_BOARD_SIDE as usize {
        return Err(at(format!(
            "the board with its rule header would be {w} × {h}; a board side is at most \
             {MAX_BOARD_SIDE}"
        )));
    }
    // Every map character but floor is a thing (two for `+` and `*`), and the
    // header holds nine words.
    let things = count("#@$.") + 2 * count("+*") + HEADER.len() * 3;
    if things > MAX_OBJECTS {
        return Err(at(format!(
            "{things} things with the rule header's words; a level holds at most {MAX_OBJECTS}"
        )));
    }
    Ok(())
}

/// The rules of the sealed header, one per row.
const HEADER: [[&str; 3]; 3] = [
    ["MIAU!", "IS!", "YOU!"],
    ["CRATE!", "IS!", "PUSH!"],
    ["DOCK!", "IS!", "GOAL!"],
];

/// Width and height of the level's board: the map under the header rows,
/// at least as wide as a rule.
fn board_size(map_width: usize, map_height: usize) -> (usize, usize) {
    (map_width.max(3), map_height + HEADER.len())
}

/// The pack id for a file stem: lowercase letters, digits and single dashes.
pub fn pack_id(stem: &str) -> String {
    let mut id = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-').to_string();
    let id = match id.chars().next() {
        Some(c) if c.is_ascii_lowercase() => id,
        Some(_) => format!("xsb-{id}"),
        None => "xsb".into(),
    };
    fit_id(&id, 0)
}

/// `id` cut so that it and a suffix of `suffix` bytes fit in an id
/// ([`MAX_ID`]), ending on a letter or digit.
fn fit_id(id: &str, suffix: usize) -> String {
    let room = MAX_ID.saturating_sub(suffix).max(1);
    // Ids are ASCII, so cutting at a byte count is cutting at a character.
    id[..id.len().min(room)].trim_end_matches('-').to_string()
}

/// Text from the file (a title, the file's name) as one line a `.miau`
/// string or comment can hold: line breaks, tabs and other control
/// characters become spaces, runs of spaces one.
pub fn plain_text(text: &str) -> String {
    text.split(|c: char| c.is_control() || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One pack of `.miau` source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackSource {
    /// The pack id (also the file stem to write it under).
    pub id: String,
    /// The formatted source.
    pub text: String,
}

/// Converts the levels of an XSB file to packs of at most [`MAX_LEVELS`]
/// levels each. `stem` names the pack (the file name without extension);
/// `credit` is kept as the file's leading comment lines (a collection's
/// author and licence travel with its levels). A single pack is named after
/// the stem; several get the range of level numbers they hold.
pub fn to_packs(stem: &str, levels: &[XsbLevel], credit: &[String]) -> Vec<PackSource> {
    let base = pack_id(stem);
    let chunks: Vec<&[XsbLevel]> = levels.chunks(MAX_LEVELS).collect();
    chunks
        .iter()
        .map(|chunk| {
            let id = match (chunks.len(), chunk.first(), chunk.last()) {
                (1, _, _) | (_, None, _) | (_, _, None) => base.clone(),
                (_, Some(a), Some(b)) => {
                    let range = format!("-{}-{}", a.number, b.number);
                    format!("{}{range}", fit_id(&base, range.len()))
                }
            };
            let text = pack_text(&id, stem, chunk, credit);
            // The formatter only realigns what is generated here; should it
            // ever refuse, the unformatted source still builds the same pack.
            let text = crate::fmt::format(&text).unwrap_or(text);
            PackSource { id, text }
        })
        .collect()
}

/// One level of an XSB file in the game's model, as [`to_levels`] gives it.
#[derive(Debug, Clone)]
pub struct ModelLevel {
    /// `stem-id/N`: the file's pack id ([`pack_id`], one for the whole file
    /// however many packs it makes) and the level's number.
    pub name: String,
    /// The level's number in the file ([`XsbLevel::number`]).
    pub number: u32,
    /// The level as the engine loads it.
    pub level: crate::model::Level,
}

/// The levels of an XSB file straight to the model, for a caller that plays
/// them without writing a pack (the solver benchmark's collections): the
/// same `.miau` [`to_packs`] writes, parsed and lowered, so they play as an
/// imported pack does. An unreadable map or a file without a level is the
/// [`parse`] error.
pub fn to_levels(stem: &str, text: &str) -> Result<Vec<ModelLevel>, XsbError> {
    let levels = parse(text)?;
    let base = pack_id(stem);
    let mut out = Vec::new();
    for pack in to_packs(stem, &levels, &[]) {
        let (file, _) = crate::syntax::parse(&pack.text);
        let (model, _) = crate::lower::lower(&file);
        for level in model.levels {
            // The importer names each level `level-N` after its number.
            let number = level
                .id
                .text
                .strip_prefix("level-")
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            out.push(ModelLevel {
                name: format!("{base}/{number}"),
                number,
                level,
            });
        }
    }
    Ok(out)
}

/// The leading `;` comment lines of an XSB file (its credit), without the `;`.
pub fn credit(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .take_while(|l| {
            l.is_empty() || (l.starts_with(';') && l[1..].trim().parse::<u32>().is_err())
        })
        .filter_map(|l| l.strip_prefix(';'))
        .map(plain_text)
        .collect()
}

fn pack_text(id: &str, stem: &str, levels: &[XsbLevel], credit: &[String]) -> String {
    let stem = plain_text(stem);
    let mut out = String::new();
    let _ = writeln!(out, "// Imported from {stem}.xsb (XSB Sokoban levels).");
    for line in credit {
        if line.is_empty() {
            out.push_str("//\n");
        } else {
            let _ = writeln!(out, "// {line}");
        }
    }
    let _ = writeln!(out, "pack {id} {{");
    let _ = writeln!(out, "  name {}", quote(&stem.replace('_', " ")));
    out.push_str("  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n");
    out.push_str(
        "palette {\n  MIAU \"🐈\"\n  CRATE \"📦\"\n  DOCK \"🟫\"\n  WALL \"🧱\" terrain\n}\n\n",
    );
    out.push_str("legend {\n  @ MIAU\n  # WALL\n  $ CRATE\n  o DOCK\n}\n");
    for level in levels {
        level_text(level, &mut out);
    }
    out
}

fn level_text(level: &XsbLevel, out: &mut String) {
    let _ = writeln!(out, "\nlevel level-{} {{", level.number);
    let title = level
        .title
        .clone()
        .unwrap_or_else(|| format!("Level {}", level.number));
    let _ = writeln!(out, "  title {}", quote(&title));
    out.push_str(
        "  allow bypass \"Sokoban: the rules are fixed words in a sealed header; no word moves.\"\n",
    );
    // Walls stop the player and the crates: an unbreakable `WALL IS STOP`.
    out.push_str("  terrain WALL\n");
    out.push_str("  board {\n");
    let map_width = level
        .rows
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0);
    let (width, _) = board_size(map_width, level.rows.len());
    for rule in HEADER {
        let mut cells: Vec<&str> = rule.to_vec();
        cells.resize(width, ".");
        let _ = writeln!(out, "    {}", cells.join(" "));
    }
    for row in &level.rows {
        let mut cells: Vec<&str> = row
            .chars()
            .map(|c| match c {
                '#' => "#",
                '@' => "@",
                '+' => "@+o",
                '$' => "$",
                '*' => "$+o",
                '.' => "o",
                _ => ".",
            })
            .collect();
        cells.resize(width, ".");
        let _ = writeln!(out, "    {}", cells.join(" "));
    }
    out.push_str("  }\n}\n");
}

/// A `.miau` string literal.
fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        if matches!(c, '"' | '\\') {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{SourceKind, compile};
    use crate::engine::{Game, Input, TurnResult};
    use crate::solver::level::{Constraints, LevelSpace, route_text, search_level};
    use crate::solver::{Limits, Verdict};
    use std::sync::atomic::AtomicBool;

    const TWO: &str = "; A test set\n; by nobody\n\n; 1\n\n####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n\n; 2\n'Duh!'\n#####\n#@$.#\n#####\n";

    #[test]
    fn reads_levels_numbers_and_titles() {
        let levels = parse(TWO).unwrap();
        assert_eq!(levels.len(), 2);
        assert_eq!(levels[0].number, 1);
        assert_eq!(levels[0].title, None);
        assert_eq!(levels[0].rows.len(), 7);
        assert_eq!(levels[0].line, 6);
        assert_eq!(levels[1].number, 2);
        assert_eq!(levels[1].title.as_deref(), Some("Duh!"));
        assert_eq!(credit(TWO), vec!["A test set", "by nobody"]);
    }

    #[test]
    fn imported_pack_snapshot() {
        let levels = parse(TWO).unwrap();
        let packs = to_packs("Tiny_Set", &levels, &credit(TWO));
        assert_eq!(packs.len(), 1);
        assert_eq!(packs[0].id, "tiny-set");
        insta::assert_snapshot!(packs[0].text);
    }

    #[test]
    fn imported_levels_build_cleanly_and_solve() {
        let levels = parse(TWO).unwrap();
        let pack = &to_packs("tiny", &levels, &[])[0];
        let compiled = compile(&pack.text, SourceKind::Miau);
        assert!(
            compiled.diagnostics.is_empty(),
            "{:?}",
            compiled.diagnostics
        );
        let model = compiled.pack.unwrap();
        assert_eq!(model.levels.len(), 2);
        let game = Game::new(&model.levels[1]);
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
        // One push right: the crate covers the dock.
        assert_eq!(route_text(space.inputs(), &route), "R");
        // The header's words never move: a words-frozen search agrees.
        let frozen = search_level(
            &game,
            Constraints {
                words_frozen: true,
                ..Constraints::default()
            },
            Limits::default(),
            1,
            &AtomicBool::new(false),
            &mut |_| {},
        );
        assert_eq!(frozen.verdict, Verdict::proven(route));
    }

    /// Walls are terrain: the player and the crates stop at them, so a
    /// route can't cut through the warehouse's racking.
    #[test]
    fn walls_stop_the_player() {
        let levels = parse("#####\n#@$.#\n#####\n").unwrap();
        let pack = &to_packs("walls", &levels, &[])[0];
        let model = compile(&pack.text, SourceKind::Miau).pack.unwrap();
        let game = Game::new(&model.levels[0]);
        let (start, _) = game.reset();
        assert!(
            crate::engine::testkit::rule_list(&game, &start)
                .contains(&"WALL IS STOP (terrain)".to_string()),
            "{:?}",
            crate::engine::testkit::rule_list(&game, &start)
        );
        for input in [Input::Up, Input::Down, Input::Left] {
            assert!(
                matches!(game.step(&start, input), TurnResult::Rejected { .. }),
                "{input:?} went through a wall"
            );
        }
    }

    #[test]
    fn large_sets_split_into_packs_of_the_level_limit() {
        let one = "#####\n#@$.#\n#####\n\n";
        let text = one.repeat(MAX_LEVELS + 3);
        let levels = parse(&text).unwrap();
        assert_eq!(levels.len(), MAX_LEVELS + 3);
        let packs = to_packs("big", &levels, &[]);
        let ids: Vec<&str> = packs.iter().map(|p| p.id.as_str()).collect();
        let last = format!("big-{}-{}", MAX_LEVELS + 1, MAX_LEVELS + 3);
        assert_eq!(
            ids,
            vec![format!("big-1-{MAX_LEVELS}").as_str(), last.as_str()]
        );
        for p in &packs {
            assert!(compile(&p.text, SourceKind::Miau).diagnostics.is_empty());
        }
    }

    #[test]
    fn bad_input_names_line_and_column() {
        let e = parse("#####\n#@$.#\n#####\n\n# x #\n").unwrap_err();
        assert_eq!((e.line, e.column), (5, 3));
        assert!(e.message.contains("unexpected 'x'"), "{}", e.message);
        let e = parse("; 4\n#####\n#@$.#\n#@  #\n#####\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.message.contains("level 4: 2 players"), "{}", e.message);
        let e = parse("#####\n#@$ #\n#####\n").unwrap_err();
        assert!(e.message.contains("1 boxes and 0 goals"), "{}", e.message);
        let e = parse("; only comments\n").unwrap_err();
        assert!(e.message.starts_with("no level found"), "{}", e.message);
        let wide = format!(
            "{}\n#@$.{}#\n{}\n",
            "#".repeat(130),
            " ".repeat(125),
            "#".repeat(130)
        );
        assert!(parse(&wide).unwrap_err().message.contains("at most 128"));
    }

    #[test]
    fn repeated_numbers_fall_back_to_unique_positions() {
        let levels = parse("; 1\n#####\n#@$.#\n#####\n\n; 1\n#####\n#@$.#\n#####\n").unwrap();
        let numbers: Vec<u32> = levels.iter().map(|l| l.number).collect();
        assert_eq!(numbers, [1, 2]);
        let pack = &to_packs("dup", &levels, &[])[0];
        assert!(compile(&pack.text, SourceKind::Miau).diagnostics.is_empty());
    }

    /// The benchmark's path: every level of the file, in file order, named
    /// by the file's pack id and number, playing as the imported pack does;
    /// a file without a level is an error, not an empty set.
    #[test]
    fn levels_straight_to_the_model() {
        let levels = to_levels("Tiny_Set", TWO).unwrap();
        let names: Vec<&str> = levels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["tiny-set/1", "tiny-set/2"]);
        assert_eq!(levels[1].number, 2);
        let pack = &to_packs("Tiny_Set", &parse(TWO).unwrap(), &[])[0];
        let model = compile(&pack.text, SourceKind::Miau).pack.unwrap();
        assert_eq!(levels[0].level, model.levels[0]);
        assert_eq!(levels[1].level, model.levels[1]);
        // A set larger than a pack keeps one name for the whole file.
        let big = to_levels("big", &"#####\n#@$.#\n#####\n\n".repeat(MAX_LEVELS + 1)).unwrap();
        assert_eq!(big.len(), MAX_LEVELS + 1);
        assert_eq!(big[MAX_LEVELS].name, format!("big/{}", MAX_LEVELS + 1));
        let empty = to_levels("empty", "").unwrap_err();
        assert!(
            empty.message.starts_with("no level found"),
            "{}",
            empty.message
        );
        assert!(to_levels("bad", "#####\n#@x.#\n#####\n").is_err());
    }

    #[test]
    fn pack_ids_are_valid() {
        assert_eq!(pack_id("Microban_II_135"), "microban-ii-135");
        assert_eq!(pack_id("42 levels"), "xsb-42-levels");
        assert_eq!(pack_id("__"), "xsb");
    }

    proptest::proptest! {
        /// Any text: an error or levels, never a panic; imported levels build.
        #[test]
        fn never_panics(text in "[#@+$*. \\n;'a1:-]{0,200}") {
            if let Ok(levels) = parse(&text) {
                for p in to_packs("p", &levels, &credit(&text)) {
                    let c = compile(&p.text, SourceKind::Miau);
                    proptest::prop_assert!(c.pack.is_some(), "{:?}\n{}", c.diagnostics, p.text);
                }
            }
        }
    }
}
