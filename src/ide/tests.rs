//! Tests of the IDE functions, called directly on byte offsets.

use super::*;

const TRAP: &str = include_str!("../../tests/fixtures/lsp/noun_trap.miau");

fn at(text: &str, needle: &str, nth: usize) -> usize {
    text.match_indices(needle)
        .nth(nth)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("{needle} #{nth} not in the text"))
}

fn analysis() -> Analysis {
    Analysis::new(TRAP, 1 << 20)
}

#[test]
fn diagnostics_include_the_noun_trap() {
    let a = analysis();
    let m301: Vec<_> = a
        .diagnostics()
        .iter()
        .filter(|d| d.code() == "M301")
        .collect();
    assert_eq!(m301.len(), 1, "{:#?}", a.diagnostics());
    assert_eq!(a.slice(m301[0].span), "SHUT");
}

#[test]
fn hover_on_a_word_names_its_sentences_and_rules() {
    let a = analysis();
    let h = hover(&a, at(TRAP, "DOOR IS   SHUT", 0) + 1).expect("hover");
    assert!(h.markdown.contains("`DOOR IS SHUT`"), "{}", h.markdown);
    assert!(
        h.markdown
            .contains("`DOOR IS SHUT` (row 2, columns 0 to 2)"),
        "{}",
        h.markdown
    );
    assert!(h.markdown.contains("Down: no sentence"), "{}", h.markdown);
    assert!(
        h.markdown.contains("pinned") || h.markdown.contains("Pinned"),
        "{}",
        h.markdown
    );
    assert_eq!(a.slice(h.span), "DOOR");
    // IS shows both axes.
    let is = at(TRAP, "IS   YOU", 0);
    let h = hover(&a, is).expect("hover on IS");
    assert!(
        h.markdown.contains("Across: `MIAU IS YOU`"),
        "{}",
        h.markdown
    );
    assert!(h.markdown.contains("Down:"), "{}", h.markdown);
}

#[test]
fn hover_on_things_keys_properties_and_levels() {
    let a = analysis();
    // The `@` on the board: MIAU with YOU at reset.
    let h = hover(&a, at(TRAP, "@    .", 0)).expect("thing");
    assert!(
        h.markdown.contains("MIAU") && h.markdown.contains("YOU at reset"),
        "{}",
        h.markdown
    );
    assert!(h.markdown.contains("🐈"), "{}", h.markdown);
    // The legend key definition.
    let h = hover(&a, at(TRAP, "= DOOR", 0)).expect("legend key");
    assert!(h.markdown.contains("Stands for 🚪 DOOR"), "{}", h.markdown);
    assert!(
        h.markdown.contains("Used in 1 board cell"),
        "{}",
        h.markdown
    );
    // A glossary property and a core property.
    let h = hover(&a, at(TRAP, "TICK", 0)).expect("glossary");
    assert!(h.markdown.contains("Repeats its steps"), "{}", h.markdown);
    let h = hover(&a, at(TRAP, "WIN", 0)).expect("core property");
    assert!(h.markdown.contains("wins the level"), "{}", h.markdown);
    // The level header.
    let h = hover(&a, at(TRAP, "door-trap", 0)).expect("level");
    assert!(h.markdown.contains("7×5 board"), "{}", h.markdown);
    assert!(h.markdown.contains("Rules at reset"), "{}", h.markdown);
    assert!(h.markdown.contains("Not checked yet"), "{}", h.markdown);
    let mut checks = BTreeMap::new();
    checks.insert("door-trap".to_string(), "passed".to_string());
    let h = hover_with_checks(&a, at(TRAP, "door-trap", 0), &checks).unwrap();
    assert!(h.markdown.contains("Last check: passed"), "{}", h.markdown);
}

#[test]
fn definition_and_references() {
    let a = analysis();
    // A board key goes to its legend entry.
    let key = at(TRAP, "=    f", 0);
    let defs = definition(&a, key);
    assert_eq!(defs.len(), 1);
    assert_eq!(defs[0].start as usize, at(TRAP, "= DOOR", 0));
    // A noun word goes to the palette.
    let defs = definition(&a, at(TRAP, "DOOR IS   SHUT", 0));
    assert_eq!(defs[0].start as usize, at(TRAP, "DOOR \"", 0));
    // References of DOOR: palette, legend value, board word.
    let refs = references(&a, at(TRAP, "DOOR \"", 0), true);
    assert_eq!(refs.len(), 3, "{refs:?}");
    let refs = references(&a, at(TRAP, "DOOR \"", 0), false);
    assert_eq!(refs.len(), 2);
    // Level ids define themselves.
    let id = at(TRAP, "door-trap", 0);
    assert_eq!(definition(&a, id)[0].start as usize, id);
}

#[test]
fn rename_a_legend_key_everywhere() {
    let a = analysis();
    let edits = rename(&a, at(TRAP, "= DOOR", 0), "d").expect("rename");
    assert_eq!(edits.len(), 2);
    let mut text = TRAP.to_string();
    let mut edits = edits;
    edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    for e in edits {
        text.replace_range(e.span.range(), &e.new_text);
    }
    let b = Analysis::new(&text, 1 << 20);
    assert!(b.diagnostics().iter().all(|d| d.code() != "M109"));
    assert!(rename(&a, at(TRAP, "= DOOR", 0), "Door").is_err());
    assert!(
        rename(&a, at(TRAP, "= DOOR", 0), "f").is_err(),
        "f is taken"
    );
    assert!(
        rename(&a, at(TRAP, "DOOR IS   SHUT", 0), "x").is_err(),
        "words aren't keys"
    );
    assert!(rename_range(&a, at(TRAP, "= DOOR", 0)).is_some());
}

/// Names the legend grammar reads otherwise (`{`, `}`, a trailing `!`) and
/// a default key the board already uses are refused; the file still builds.
#[test]
fn rename_refuses_names_that_break_the_file_or_change_its_meaning() {
    let a = analysis();
    for bad in ["{", "}", "!", "x!", "=="] {
        if let Ok(edits) = rename(&a, at(TRAP, "= DOOR", 0), bad) {
            let mut text = TRAP.to_string();
            let mut edits = edits;
            edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
            for e in edits {
                text.replace_range(e.span.range(), &e.new_text);
            }
            let errors = crate::compile::compile(&text, crate::compile::SourceKind::Miau)
                .diagnostics
                .into_iter()
                .filter(|d| d.severity == crate::diag::Severity::Error)
                .count();
            assert_eq!(errors, 0, "renaming = to {bad} broke the file:\n{text}");
        }
    }
    for bad in ["{", "}", "!", "x!"] {
        assert!(
            rename(&a, at(TRAP, "= DOOR", 0), bad).is_err(),
            "{bad} accepted"
        );
    }
    // `@` is the default legend's MIAU, and this board uses it.
    let text = "pack p {\n  name \"P\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n\
                level lv {\n  title \"T\"\n  legend {\n    q FLAG\n  }\n  board {\n    \
                MIAU IS YOU . FLAG IS WIN\n    @    .  q   . .    .  .\n  }\n}\n";
    let b = Analysis::new(text, 1 << 20);
    let err = rename(&b, at(text, "q FLAG", 0), "@").expect_err("@ would turn the cat into a flag");
    assert!(err.contains("@"), "{err}");
    assert!(rename(&b, at(text, "q FLAG", 0), "p").is_ok());
}

#[test]
fn completions_by_context() {
    let a = analysis();
    let labels = |off| {
        completions(&a, off)
            .into_iter()
            .map(|c| c.label)
            .collect::<Vec<_>>()
    };
    // In a board: keys, nouns and words.
    let board = at(TRAP, "@    .", 0);
    let l = labels(board);
    for want in ["@", "=", "f", "IS", "AND", "DOOR", "WIN", "TICK"] {
        assert!(l.contains(&want.to_string()), "{want} missing from {l:?}");
    }
    // At the start of a level statement: keywords.
    let l = labels(at(TRAP, "category required", 0));
    assert!(
        l.contains(&"automaton".to_string()) && l.contains(&"board".to_string()),
        "{l:?}"
    );
    // After `category `: the categories.
    let l = labels(at(TRAP, "required", 0));
    assert_eq!(l, ["required", "optional", "challenge"]);
    // Top level.
    assert!(labels(0).contains(&"level".to_string()));
    // In the legend after a key: nouns.
    let l = labels(at(TRAP, "DOOR\n  f", 0));
    assert!(l.contains(&"FLAG".to_string()), "{l:?}");
    // Automaton steps inside a pattern string.
    let text = TRAP.replace(
        "  solution \"RRR\"\n",
        "  automaton a-b property TICK subject DOOR pattern \"L\n",
    );
    let b = Analysis::new(&text, 1 << 20);
    let off = at(&text, "pattern \"L", 0) + 10;
    let l: Vec<String> = completions(&b, off).into_iter().map(|c| c.label).collect();
    assert!(
        l.contains(&"U".to_string()) && l.contains(&"W".to_string()),
        "{l:?}"
    );
}

#[test]
fn outline_folding_tokens_hints_lenses() {
    let a = analysis();
    let syms = document_symbols(&a);
    let names: Vec<&str> = syms.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "pack doors",
            "palette",
            "glossary",
            "legend",
            "level door-trap"
        ]
    );
    assert_eq!(
        syms[4].children.last().map(|c| c.name.as_str()),
        Some("board")
    );
    let folds = folding_ranges(&a);
    assert!(folds.len() >= 6, "{folds:?}");
    let toks = semantic_tokens(&a);
    let kind_of = |needle: &str, nth| {
        let off = at(TRAP, needle, nth);
        toks.iter()
            .find(|t| t.span.start as usize == off)
            .map(|t| t.kind)
    };
    assert_eq!(kind_of("IS   YOU", 0), Some(TokenKind::Is));
    assert_eq!(kind_of("YOU  .", 0), Some(TokenKind::Property));
    assert_eq!(kind_of("SHUT .", 0), Some(TokenKind::Noun));
    assert_eq!(kind_of("@    .", 0), Some(TokenKind::Thing));
    assert_eq!(kind_of("TICK", 0), Some(TokenKind::CustomProperty));
    let hints = inlay_hints(&a);
    assert_eq!(hints.len(), 1);
    assert!(hints[0].label.contains("MIAU IS YOU") && hints[0].label.contains("DOOR IS SHUT"));
    let lenses = code_lenses(&a);
    let titles: Vec<&str> = lenses.iter().map(|l| l.title.as_str()).collect();
    assert_eq!(titles, ["Check", "Replay solution"]);
}

#[test]
fn code_actions_carry_the_fixes() {
    let text = TRAP.replace("FLAG IS WIN", "FLAG IS WIM");
    let a = Analysis::new(&text, 1 << 20);
    let off = at(&text, "WIM", 0);
    let acts = code_actions(&a, Span::new(off, off));
    assert!(acts.iter().any(|c| c.title.contains("WIN")), "{acts:?}");
    // WIM is a misspelt WIN, not a new word: it is never paired with SHUT.
    let shut = Span::point(at(&text, "SHUT .", 0));
    let acts = code_actions(&a, shut);
    assert!(
        !acts.iter().any(|c| c.title.contains("as a pair")),
        "{acts:?}"
    );
    // Two undeclared words with no did-you-mean: declare them as a pair.
    let text = TRAP.replace("FLAG IS WIN", "FLAG IS ZORP");
    let a = Analysis::new(&text, 1 << 20);
    let acts = code_actions(&a, Span::point(at(&text, "SHUT .", 0)));
    assert!(
        acts.iter()
            .any(|c| c.title.starts_with("Declare SHUT and ZORP as a pair")),
        "{acts:?}"
    );
}

#[test]
fn a_legend_key_in_capitals_is_named_and_never_paired() {
    // `S` meant as the default legend's `s` (SHELL), and SNIK meant as SINK,
    // in one level with the undeclared SHUT.
    let text = TRAP.replace(
        "    .    .    .    . .    .  .\n",
        "    .    S    .    . SNIK .  .\n",
    );
    assert_ne!(text, TRAP);
    let a = Analysis::new(&text, 1 << 20);
    let s = at(&text, "S    .    . SNIK", 0);
    let (k, d) = a
        .diagnostics()
        .iter()
        .enumerate()
        .find(|(_, d)| d.code() == "M301" && d.span.start as usize == s)
        .expect("M301 on S");
    assert!(
        d.message
            .contains("S isn't a thing in this pack. Did you mean the legend key `s` (SHELL)?"),
        "{}",
        d.message
    );
    let mut acts = code_actions(&a, Span::point(s));
    acts.retain(|c| c.diagnostic == k);
    let titles: Vec<&str> = acts.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Replace with the legend key s (SHELL)",
            "Allow undeclared-property-word (M301) in level door-trap"
        ],
        "{acts:?}"
    );
    assert_eq!(acts[0].edits[0].new_text, "s");
    assert_eq!(acts[0].edits[0].span, Span::new(s, s + 1));
    // SNIK gets its spelling fix, and no pairing with S or SHUT.
    let snik = code_actions(&a, Span::point(at(&text, "SNIK", 0)));
    assert!(
        snik.iter().any(|c| c.title == "Replace with SINK"),
        "{snik:?}"
    );
    for acts in [
        &snik,
        &code_actions(&a, Span::point(at(&text, "SHUT .", 0))),
    ] {
        assert!(
            !acts.iter().any(|c| c.title.contains("as a pair")),
            "{acts:?}"
        );
    }
}

#[test]
fn formatting_is_fmt() {
    let messy = TRAP.replace("  title    \"Door trap\"", "title \"Door trap\"");
    let a = Analysis::new(&messy, 1 << 20);
    let edits = format(&a).expect("formats");
    let mut out = messy.clone();
    for e in edits.iter().rev() {
        out.replace_range(e.span.range(), &e.new_text);
    }
    assert_eq!(out, crate::fmt::format(&messy).unwrap());
}

#[test]
fn check_runs_stage_4() {
    let no = std::sync::atomic::AtomicBool::new(false);
    let a = analysis();
    let ok = check_level(&a, "door-trap", &no).unwrap();
    let codes: Vec<&str> = ok.diagnostics.iter().map(|d| d.code()).collect();
    // The recorded route replays; the solver finds it is 3 steps, under the 6 a level needs.
    assert!(!codes.contains(&"M410"), "{ok:?}");
    assert!(codes.contains(&"M405"), "{ok:?}");
    assert!(!ok.passed);
    // Bypass (no word moves) and trivial: the summary leads with the first finding.
    assert!(codes.contains(&"M403"), "{ok:?}");
    assert!(ok.summary.starts_with("M40"), "{}", ok.summary);
    let text = TRAP.replace("\"RRR\"", "\"RRL\"");
    let b = Analysis::new(&text, 1 << 20);
    let bad = check_level(&b, "door-trap", &no).unwrap();
    assert!(!bad.passed);
    assert!(
        bad.diagnostics.iter().any(|d| d.code() == "M410"),
        "{bad:?}"
    );
    assert!(
        replay_level(&a, "door-trap")
            .unwrap()
            .contains("result: won in 3 turns")
    );
    assert!(check_level(&a, "nope", &no).is_none());
}

#[test]
fn cache_reuses_unchanged_levels() {
    let cache = Cache::new();
    let _ = Analysis::with_cache(TRAP, 1 << 20, &cache);
    assert_eq!(cache.len(), 1);
    let edited = TRAP.replace("Doors 🚪", "Doors!");
    let b = Analysis::with_cache(&edited, 1 << 20, &cache);
    assert_eq!(cache.len(), 1);
    assert_eq!(
        b.diagnostics().iter().map(|d| d.code()).collect::<Vec<_>>(),
        analysis()
            .diagnostics()
            .iter()
            .map(|d| d.code())
            .collect::<Vec<_>>()
    );
}

#[test]
fn never_panics_on_any_offset_or_text() {
    let texts = [
        TRAP.to_string(),
        String::new(),
        "level {".into(),
        "board { 🐈 }".into(),
        TRAP[..TRAP.len() / 2].to_string(),
        "\u{0}\u{feff}level x { board { A+ +B ! } }".into(),
    ];
    for t in &texts {
        let a = Analysis::new(t, 1 << 20);
        for off in 0..=t.len() + 2 {
            let _ = hover(&a, off);
            let _ = definition(&a, off);
            let _ = references(&a, off, true);
            let _ = completions(&a, off);
            let _ = rename(&a, off, "zz");
        }
        let _ = (
            document_symbols(&a),
            folding_ranges(&a),
            semantic_tokens(&a),
        );
        let _ = (inlay_hints(&a), code_lenses(&a), format(&a));
        let _ = code_actions(&a, Span::new(0, t.len()));
    }
    let big = Analysis::new(&"x".repeat(100), 10);
    assert_eq!(big.too_large(), Some(100));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Random edits of a real pack (cut a range, paste random text) never
    /// make a feature panic, at any offset.
    #[test]
    fn features_never_panic_on_edited_packs(
        cut in 0usize..1400,
        len in 0usize..40,
        paste in "[ -~🐈\n]{0,12}",
        offsets in proptest::collection::vec(0usize..1500, 8),
    ) {
        let mut text = TRAP.to_string();
        let mut start = cut.min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + len).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.replace_range(start..end, &paste);
        let a = Analysis::new(&text, 1 << 20);
        for off in offsets {
            let _ = hover(&a, off);
            let _ = definition(&a, off);
            let _ = references(&a, off, false);
            let _ = completions(&a, off);
            let _ = rename(&a, off, "q");
            let _ = code_actions(&a, Span::new(off, off + 3));
        }
        let _ = (document_symbols(&a), folding_ranges(&a), semantic_tokens(&a));
        let _ = (inlay_hints(&a), code_lenses(&a), format(&a));
        let _ = check_level(&a, "door-trap", &std::sync::atomic::AtomicBool::new(false));
    }
}

#[test]
fn hover_on_a_gate_says_whether_it_is_open() {
    let text = include_str!("../../packs/machine-room.miau");
    let a = Analysis::new(text, 1 << 20);
    let level = at(text, "level door-stop", 0);
    let gate = level + text[level..].find("|    .").unwrap();
    let h = hover(&a, gate).unwrap();
    assert!(
        h.markdown
            .contains("**GATE** (channel amber), closed at reset"),
        "{}",
        h.markdown
    );
}

#[test]
fn hover_shows_the_glyph_the_game_draws_and_links_the_rules() {
    let text = "pack glyphs {
  name    \"Glyphs\"
  version \"1.0.0\"
  engine  1
  rules   2
}

level shells {
  title \"Shells\"

  board {
    MIAU IS YOU  . SHELL IS WIN
    ROCK IS SINK . .     .  .
    m    r  s    . .     .  .
  }
}
";
    let a = Analysis::new(text, 1 << 20);
    // ROCK has no palette entry, but a built-in glyph: hover says so.
    let h = hover(&a, at(text, "r  s", 0)).expect("rock key");
    assert!(h.markdown.contains("🪨 **ROCK**"), "{}", h.markdown);
    let h = hover(&a, at(text, "ROCK IS", 0)).expect("ROCK word");
    assert!(h.markdown.contains("Built-in glyph 🪨"), "{}", h.markdown);
    // SHELL comes from the default legend, which gives no glyph.
    let h = hover(&a, at(text, "s    .", 0)).expect("shell key");
    assert!(
        h.markdown
            .contains("**SHELL** (no glyph: it shows as a text label)"),
        "{}",
        h.markdown
    );
    // Properties and nouns end with the section of the rules reference.
    let h = hover(&a, at(text, "SINK", 0)).expect("SINK word");
    assert!(
        h.markdown
            .ends_with("Rules: `docs/rules.md#sink` (`miauc explain sink`)."),
        "{}",
        h.markdown
    );
    let h = hover(&a, at(text, "WIN", 0)).expect("WIN word");
    assert!(h.markdown.contains("docs/rules.md#win"), "{}", h.markdown);
    // The same words stay consistent with stage 3: SHELL raises M331, ROCK doesn't.
    let m331: Vec<&str> = a
        .diagnostics()
        .iter()
        .filter(|d| d.code() == "M331")
        .map(|d| a.slice(d.span))
        .collect();
    assert_eq!(m331, vec!["SHELL"], "{:#?}", a.diagnostics());
}

#[test]
fn hover_explains_statement_keywords_allow_codes_and_categories() {
    let text = "pack words {
  name    \"Words\"
  version \"1.0.0\"
  engine  1
  rules   2
}

level walk {
  title    \"Walk\"
  category required
  allow    skippable \"the walk is the lesson\"
  must-lose-word

  board {
    MIAU IS YOU . FLAG IS WIN
    m    .  .   . f    .  .
  }
}
";
    let a = Analysis::new(text, 1 << 20);
    let h = hover(&a, at(text, "allow", 0)).expect("allow keyword");
    assert!(h.markdown.starts_with("**allow**"), "{}", h.markdown);
    let h = hover(&a, at(text, "skippable", 0)).expect("allow's name");
    assert!(
        h.markdown.starts_with("**M407 skippable** (warning)")
            && h.markdown.contains("miauc explain skippable"),
        "{}",
        h.markdown
    );
    let h = hover(&a, at(text, "required", 0)).expect("category value");
    assert!(
        h.markdown.starts_with("**category required**"),
        "{}",
        h.markdown
    );
    let h = hover(&a, at(text, "category", 0)).expect("category keyword");
    assert!(h.markdown.contains("`challenge`"), "{}", h.markdown);
    let h = hover(&a, at(text, "must-lose-word", 0)).expect("must-lose-word");
    assert!(
        h.markdown.starts_with("**must-lose-word**"),
        "{}",
        h.markdown
    );
    // The reason string is not a keyword: no hover there.
    assert!(hover(&a, at(text, "the walk is", 0)).is_none());
}

/// The editor reads stages 1–2 as `miauc check` does: an emoji on a board
/// is answered with its legend key, and a misspelt `title` is one
/// diagnostic (M104), not also M201 "has no title".
#[test]
fn the_editor_gives_the_clis_front_end_diagnostics() {
    let text = TRAP
        .replace("    @    .    =    f", "    @    .    =    🚩")
        .replace("  title    \"Door trap\"", "  titel    \"Door trap\"");
    let a = Analysis::new(&text, 1 << 20);
    let emoji = a
        .diagnostics()
        .iter()
        .find(|d| d.code() == "M114")
        .expect("M114 on the emoji");
    assert!(
        emoji
            .message
            .ends_with("boards are ASCII. 🚩 is FLAG: write its legend key `f`."),
        "{}",
        emoji.message
    );
    assert_eq!(emoji.fixes[0].edits[0].new_text, "f");
    let codes: Vec<&str> = a.diagnostics().iter().map(|d| d.code()).collect();
    assert!(codes.contains(&"M104"), "{codes:?}");
    assert!(!codes.contains(&"M201"), "{:#?}", a.diagnostics());
}

#[test]
fn cancelled_semantic_tokens_stop_and_say_so() {
    use std::sync::atomic::AtomicBool;
    let a = analysis();
    let all = semantic_tokens_until(&a, &AtomicBool::new(false)).expect("not cancelled");
    assert!(!all.is_empty());
    assert_eq!(all, semantic_tokens(&a));
    assert_eq!(semantic_tokens_until(&a, &AtomicBool::new(true)), None);
}

/// The editor's check carries what the solve knows of the shortest route:
/// proven for a small level, a range when the budget stops the exact search
/// and a route found afterwards solves the level.
#[test]
fn check_says_whether_the_shortest_is_proven() {
    let no = std::sync::atomic::AtomicBool::new(false);
    let ok = check_level(&analysis(), "door-trap", &no).unwrap();
    assert_eq!(ok.shortest, Some((3, 3)), "{ok:?}");
    let room = "pack room {\n  name    \"Room\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n}\n\n\
                level room {\n  title  \"Room\"\n  budget 20\n\n  board {\n\
                MIAU IS YOU . . . . .\n\
                .    .  .   . . . . .\n\
                @    .  .   . . . . .\n\
                .    .  .   . . . . .\n\
                .    .  .   . . . . .\n\
                .    .  .   . . . . f\n\
                FLAG IS WIN . . . . .\n  }\n}\n";
    let bounded = check_level(&Analysis::new(room, 1 << 20), "room", &no).unwrap();
    let (fewest, longest) = bounded.shortest.expect("a route found");
    assert!(fewest < longest, "{bounded:?}");
    assert_eq!(bounded.route.as_ref().map(String::len), Some(longest));
}
