//! The rules reference, `docs/rules.md`, compiled in: its sections by topic
//! for `miauc explain SINK`, and the anchors the editor's hovers point to.
//! No I/O; the page is part of the binary, so it works from any directory.

/// The page as shipped.
const RULES: &str = include_str!("../docs/rules.md");

/// The anchors of the sections that explain each word class a hover can
/// name: the property words of every level, the connectives, the declared
/// kinds and nouns. Every one is a heading of `docs/rules.md` (tested).
pub const ANCHORS: &[&str] = &[
    "you",
    "push",
    "stop",
    "win",
    "sink",
    "defeat",
    "goal",
    "float",
    "frail",
    "lines",
    "automata",
    "pairs",
    "nouns-and-glyphs",
    "gates-and-plates",
];

/// The anchor of the section about a core or feature property word, or the
/// connectives `IS` and `AND`.
pub fn word_anchor(word: &str) -> Option<&'static str> {
    Some(match word {
        "YOU" => "you",
        "PUSH" => "push",
        "STOP" => "stop",
        "WIN" => "win",
        "SINK" => "sink",
        "DEFEAT" => "defeat",
        "GOAL" => "goal",
        "FLOAT" => "float",
        "FRAIL" => "frail",
        "IS" | "AND" => "lines",
        _ => return None,
    })
}

/// The section that explains a mechanism's conventional word, for words a
/// pack declares itself rather than the core's properties: `OPEN` and `SHUT`
/// (pairs), `TICK` (automata), `PLATE` and `GATE` (gates and plates). Lets
/// `miauc explain OPEN` answer with the section a hover on OPEN names.
pub fn mechanism_anchor(word: &str) -> Option<&'static str> {
    Some(match word.to_uppercase().as_str() {
        "OPEN" | "SHUT" | "PAIR" => "pairs",
        "TICK" | "AUTOMATON" => "automata",
        "PLATE" | "GATE" | "CHANNEL" => "gates-and-plates",
        "CRUMBLE" => "crumbling",
        _ => return None,
    })
}

/// Every section of the page as (heading level, heading text, anchor), in
/// page order: the topics `miauc explain` takes.
pub fn sections() -> Vec<(usize, &'static str, String)> {
    headings()
        .into_iter()
        .zip(anchors())
        .map(|((level, text, _), anchor)| (level, text, anchor))
        .collect()
}

/// The GitHub anchor of a heading: lower case, spaces to `-`, punctuation
/// other than `-` and `_` dropped.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The headings of the page: (level, text, byte offset of the heading line),
/// skipping fenced blocks.
fn headings() -> Vec<(usize, &'static str, usize)> {
    let mut out = Vec::new();
    let mut fenced = false;
    let mut at = 0;
    for line in RULES.split_inclusive('\n') {
        let t = line.trim_end();
        if t.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && t.starts_with('#') {
            let level = t.chars().take_while(|&c| c == '#').count();
            if let Some(text) = t[level..].strip_prefix(' ') {
                out.push((level, text, at));
            }
        }
        at += line.len();
    }
    out
}

/// Every anchor of the page, in page order (a repeated heading gets `-1`,
/// `-2`, … as on GitHub).
pub fn anchors() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (_, text, _) in headings() {
        let base = slug(text);
        let mut s = base.clone();
        let mut n = 0;
        while out.contains(&s) {
            n += 1;
            s = format!("{base}-{n}");
        }
        out.push(s);
    }
    out
}

/// The section of the page on `topic`, a heading's anchor or its text in any
/// case (`SINK`, `gates-and-plates`, `the turn`): from its heading to the
/// next heading of the same or a higher level.
pub fn section(topic: &str) -> Option<String> {
    let want = slug(topic);
    if want.is_empty() {
        return None;
    }
    let hs = headings();
    let names = anchors();
    let i = names.iter().position(|a| *a == want)?;
    let (level, _, start) = hs[i];
    let end = hs[i + 1..]
        .iter()
        .find(|(l, _, _)| *l <= level)
        .map_or(RULES.len(), |h| h.2);
    Some(RULES[start..end].trim_end().to_string() + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mechanism_words_name_sections() {
        for word in ["OPEN", "shut", "TICK", "PLATE", "GATE", "crumble"] {
            let anchor = mechanism_anchor(word).unwrap();
            assert!(section(anchor).is_some(), "{word}: no section #{anchor}");
        }
        assert_eq!(mechanism_anchor("MIAU"), None);
    }

    #[test]
    fn sections_list_every_heading_with_its_anchor() {
        let all = sections();
        assert_eq!(all.len(), anchors().len());
        assert!(
            all.iter()
                .any(|(l, t, a)| *l == 3 && *t == "SINK" && a == "sink")
        );
    }

    #[test]
    fn every_anchor_a_hover_names_is_a_section() {
        let all = anchors();
        for a in ANCHORS {
            assert!(all.iter().any(|x| x == a), "no section #{a}");
            assert!(section(a).is_some());
        }
        for w in [
            "YOU", "PUSH", "STOP", "WIN", "SINK", "DEFEAT", "GOAL", "FLOAT", "FRAIL", "IS", "AND",
        ] {
            let a = word_anchor(w).unwrap();
            assert!(ANCHORS.contains(&a), "{w}: #{a} isn't listed");
        }
    }

    #[test]
    fn a_section_runs_to_the_next_heading_of_its_level() {
        let sink = section("SINK").unwrap();
        assert!(sink.starts_with("### SINK\n"), "{sink}");
        assert!(sink.contains("level sink {"), "{sink}");
        assert!(!sink.contains("### DEFEAT"), "{sink}");
        let turn = section("the turn").unwrap();
        assert!(turn.starts_with("## The turn\n"));
        assert!(!turn.contains("## Contacts and precedence"));
        // A section with subsections keeps them.
        let mech = section("mechanics").unwrap();
        assert!(mech.contains("### Automata") && mech.contains("### Terrain"));
        assert!(!mech.contains("## Nouns and glyphs"));
        assert_eq!(section("gates-and-plates"), section("Gates and plates"));
        assert!(section("no such topic").is_none());
        assert!(section("").is_none());
        assert!(section("!!!").is_none());
    }

    #[test]
    fn slugs_follow_github() {
        assert_eq!(
            slug("Claims: must-form, must-break, must-lose-word"),
            "claims-must-form-must-break-must-lose-word"
        );
        assert_eq!(slug("solve's constraints"), "solves-constraints");
        assert_eq!(
            slug("The rules of *Miau Is True*"),
            "the-rules-of-miau-is-true"
        );
    }
}
