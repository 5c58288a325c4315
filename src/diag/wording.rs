//! Small agreements of English that every message shares: a count with its
//! noun in the right number ("1 cell", "3 cells") and the article a word
//! takes ("a STOP thing", "an OPEN thing").

/// `n` and `noun`, plural unless `n` is 1: "1 cell", "0 cells", "7 steps".
/// `noun` is the singular of a noun whose plural adds `s`.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// "a" or "an", as `word` is said when read as a word: "an" before a
/// vowel sound ("an OPEN", "an UNDO"), "a" otherwise ("a STOP"), including
/// the "you" sound of a U before one consonant and a vowel ("a UNIT").
pub fn article(word: &str) -> &'static str {
    let mut chars = word.chars().map(|c| c.to_ascii_lowercase());
    match chars.next() {
        Some('a' | 'e' | 'i' | 'o') => "an",
        Some('u') => match (chars.next(), chars.next()) {
            (Some(c), Some(v)) if !is_vowel(c) && is_vowel(v) => "a",
            _ => "an",
        },
        _ => "a",
    }
}

/// `word` with its article: "an OPEN", "a STOP".
pub fn with_article(word: &str) -> String {
    format!("{} {word}", article(word))
}

fn is_vowel(c: char) -> bool {
    matches!(c.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o' | 'u')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree() {
        assert_eq!(count(1, "cell"), "1 cell");
        assert_eq!(count(0, "cell"), "0 cells");
        assert_eq!(count(7, "step"), "7 steps");
    }

    #[test]
    fn articles_follow_the_sound() {
        for (word, a) in [
            ("OPEN", "an"),
            ("STOP", "a"),
            ("ICE", "an"),
            ("EGG", "an"),
            ("SHUT", "a"),
            ("UNDO", "an"),
            ("UMBRELLA", "an"),
            ("UNIT", "a"),
            ("USER", "a"),
            ("rock", "a"),
            ("", "a"),
        ] {
            assert_eq!(article(word), a, "{word}");
        }
        assert_eq!(with_article("OPEN"), "an OPEN");
    }
}
