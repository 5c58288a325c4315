//! The shared table (catalogue note 3.8, `rules.md` §11.1): every pattern,
//! limit and accepted form that stage 2, the engine and the solver must agree
//! on. Nothing else in the crate should spell these numbers.

/// Levels per pack (M211).
pub const MAX_LEVELS: usize = 64;
/// Tiles and things per level, every part of a stack counted (M212).
pub const MAX_OBJECTS: usize = 4096;
/// Smallest board side (M213).
pub const MIN_BOARD_SIDE: u32 = 1;
/// Largest board side (M213).
pub const MAX_BOARD_SIDE: u32 = 128;
/// Automata per level (M215).
pub const MAX_AUTOMATA: usize = 32;
/// Fewest steps in an automaton pattern (M216).
pub const MIN_PATTERN: usize = 1;
/// Most steps in an automaton pattern (M216).
pub const MAX_PATTERN: usize = 32;
/// Pairs per level (M217).
pub const MAX_PAIRS: usize = 4;
/// Shortest world glyph, palette glyph and fallback, in UTF-16 units (M226, M232).
pub const MIN_GLYPH: usize = 1;
/// Longest world glyph, palette glyph and fallback, in UTF-16 units (M226, M232).
pub const MAX_GLYPH: usize = 16;
/// Longest world tagline, in UTF-16 units (M227).
pub const MAX_TAGLINE: usize = 80;
/// Longest glossary `describe`, in UTF-16 units (M225).
pub const MAX_DESCRIBE: usize = 80;
/// Highest `budget` (`solverBudget`) stage 2 accepts when the check
/// configuration sets no lower cap (M238).
pub const DEFAULT_BUDGET_CAP: u64 = 100_000_000;
/// Shortest id (pack, level, automaton).
pub const MIN_ID: usize = 2;
/// Longest id (pack, level, automaton).
pub const MAX_ID: usize = 64;

/// The accents a glossary entry or a world may use (M224).
pub const ACCENTS: &[&str] = &["you", "push", "stop", "win", "sink", "defeat"];
/// The only pair effect there is (M223).
pub const PAIR_EFFECTS: &[&str] = &["destroy-both"];
/// `faces` values of a palette entry (M232).
pub const FACES: &[&str] = &["left", "right"];
/// The connectives of the rules grammar.
pub const CONNECTIVES: &[&str] = &["IS", "AND"];
/// Core properties of every rules version.
pub const CORE_PROPERTIES: &[&str] = &["YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT"];
/// Feature properties of rules version 2: property words in every level, no
/// declaration needed (in the order completions offer them).
pub const FEATURE_PROPERTIES: &[&str] = &["GOAL", "FLOAT", "FRAIL"];
/// Solution letters (M237).
pub const SOLUTION_LETTERS: &[char] = &['U', 'D', 'L', 'R', 'W'];
/// Nouns whose things take a `channel` (M245, M246).
pub const CHANNEL_NOUNS: &[&str] = &["PLATE", "GATE"];
/// Level categories (M233).
pub use crate::model::CATEGORIES;
/// The channel palette (`rules.md` §9.5).
pub use crate::model::CHANNELS;
/// Feature names (`rules.md` §11.4).
pub use crate::model::FEATURES;

/// Whether `s` is a pack, level or automaton id: `^[a-z][a-z0-9._-]{1,63}$`.
pub fn is_id(s: &str) -> bool {
    let b = s.as_bytes();
    (MIN_ID..=MAX_ID).contains(&b.len())
        && b[0].is_ascii_lowercase()
        && b[1..].iter().all(|&c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'.' | b'_' | b'-')
        })
}

/// Whether `s` is a word token: `^[A-Z][A-Z0-9_-]*$`.
pub fn is_token(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_uppercase()
        && b[1..]
            .iter()
            .all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || matches!(c, b'_' | b'-'))
}

/// Whether `word` is reserved in rules version 2: IS, AND, a core or a feature property.
pub fn is_reserved(word: &str) -> bool {
    CONNECTIVES.contains(&word)
        || CORE_PROPERTIES.contains(&word)
        || FEATURE_PROPERTIES.contains(&word)
}

/// Length as the game's loader counts it: UTF-16 code units.
pub fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        assert!(is_id("crate-works"));
        assert!(is_id("a1"));
        assert!(!is_id("a"));
        assert!(!is_id("Night"));
        assert!(!is_id(&"a".repeat(65)));
        assert!(is_id(&"a".repeat(64)));
        assert!(is_token("TRUCK_2-B"));
        assert!(!is_token("truck"));
        assert!(!is_token("2X"));
        assert!(!is_token(""));
        assert!(is_reserved("FRAIL") && is_reserved("IS") && !is_reserved("TICK"));
        assert_eq!(utf16_len("🐈"), 2);
        assert_eq!(utf16_len("⚙️"), 2);
    }
}
