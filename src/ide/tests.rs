//! Tests of the IDE functions, called directly on byte offsets.

use super::*;
use crate::diag::TextEdit;
use std::fmt::Write;

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

// Snapshot renderings: each result written out whole, spans as 1-based
// `line:column` (in characters) with the text they cover.

/// A byte offset of `text` as `line:column`, both from 1.
fn line_col(text: &str, offset: usize) -> String {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!("{line}:{column}")
}

/// A span as `line:column-line:column` and the text it covers (its first
/// line, cut at 40 characters).
fn loc(text: &str, span: Span) -> String {
    let covered = text.get(span.range()).unwrap_or("");
    let first = covered.lines().next().unwrap_or("");
    let cut: String = first.chars().take(40).collect();
    let more = if cut.len() < covered.len() { "…" } else { "" };
    format!(
        "{}-{} `{cut}{more}`",
        line_col(text, span.start as usize),
        line_col(text, span.end as usize)
    )
}

/// The diagnostics with their spans, severities, codes and messages.
fn show_diagnostics(text: &str, diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| {
            format!(
                "{} {} {}: {}\n",
                loc(text, d.span),
                d.severity.as_str(),
                d.code(),
                d.message
            )
        })
        .collect()
}

/// The hover at `needle`'s `nth` occurrence (plus `shift` bytes): where it
/// was asked, the span it is about and its Markdown.
fn show_hover(a: &Analysis, text: &str, needle: &str, nth: usize, shift: usize) -> String {
    let offset = at(text, needle, nth) + shift;
    let head = format!("hover at {} ({needle:?})\n", line_col(text, offset));
    match hover(a, offset) {
        Some(h) => format!("{head}about {}\n{}\n", loc(text, h.span), h.markdown),
        None => format!("{head}no hover\n"),
    }
}

/// Hovers, one after another, separated by a blank line.
fn show_hovers(a: &Analysis, text: &str, asks: &[(&str, usize)]) -> String {
    asks.iter()
        .map(|&(needle, nth)| show_hover(a, text, needle, nth, 0))
        .collect::<Vec<_>>()
        .join("\n")
}

fn show_spans(text: &str, spans: &[Span]) -> String {
    spans
        .iter()
        .map(|s| format!("  {}\n", loc(text, *s)))
        .collect()
}

fn show_edits(text: &str, edits: &[TextEdit]) -> String {
    edits
        .iter()
        .map(|e| format!("  {} -> {:?}\n", loc(text, e.span), e.new_text))
        .collect()
}

fn show_rename(text: &str, result: &Result<Vec<TextEdit>, String>) -> String {
    match result {
        Ok(edits) => format!("edits\n{}", show_edits(text, edits)),
        Err(e) => format!("refused: {e}\n"),
    }
}

/// The completions at an offset: label, kind and detail.
fn show_completions(a: &Analysis, text: &str, offset: usize) -> String {
    let mut out = format!("at {}\n", line_col(text, offset));
    for c in completions(a, offset) {
        let _ = writeln!(out, "  {} ({:?}) {}", c.label, c.kind, c.detail);
    }
    out
}

/// The code actions over a span: title, the diagnostic they fix, edits.
fn show_actions(a: &Analysis, text: &str, range: Span) -> String {
    let mut out = format!("actions over {}\n", loc(text, range));
    for act in code_actions(a, range) {
        let d = &a.diagnostics()[act.diagnostic];
        let _ = writeln!(
            out,
            "- {} [fixes {} at {}]",
            act.title,
            d.code(),
            loc(text, d.span)
        );
        out.push_str(&show_edits(text, &act.edits));
    }
    out
}

fn show_symbols(text: &str, symbols: &[Symbol], depth: usize, out: &mut String) {
    for s in symbols {
        let detail = s
            .detail
            .as_deref()
            .map_or(String::new(), |d| format!(" — {d}"));
        let _ = writeln!(
            out,
            "{}{} ({:?}){detail} {} name {}",
            "  ".repeat(depth),
            s.name,
            s.kind,
            loc(text, s.span),
            loc(text, s.selection)
        );
        show_symbols(text, &s.children, depth + 1, out);
    }
}

fn show_check(text: &str, outcome: &CheckOutcome) -> String {
    format!(
        "level {}\npassed {}\nsummary {}\nroute {:?}\nshortest {:?}\ndiagnostics\n{}",
        outcome.level,
        outcome.passed,
        outcome.summary,
        outcome.route,
        outcome.shortest,
        show_diagnostics(text, &outcome.diagnostics)
    )
}

#[test]
fn diagnostics_include_the_noun_trap() {
    let a = analysis();
    insta::assert_snapshot!(show_diagnostics(TRAP, a.diagnostics()));
}

#[test]
fn hover_on_a_word_names_its_sentences_and_rules() {
    let a = analysis();
    // DOOR (inside the word) in its one sentence; IS on both axes.
    let word = show_hover(&a, TRAP, "DOOR IS   SHUT", 0, 1);
    let is = show_hover(&a, TRAP, "IS   YOU", 0, 0);
    insta::assert_snapshot!(format!("{word}\n{is}"));
}

#[test]
fn hover_on_things_keys_properties_and_levels() {
    let a = analysis();
    // A thing on the board, a legend key's definition, a glossary property,
    // a core property and the level header, before any check.
    let hovers = show_hovers(
        &a,
        TRAP,
        &[
            ("@    .", 0),
            ("= DOOR", 0),
            ("TICK", 0),
            ("WIN", 0),
            ("door-trap", 0),
        ],
    );
    insta::assert_snapshot!(hovers);
    // After a check, the level header says how it went.
    let mut checks = BTreeMap::new();
    checks.insert("door-trap".to_string(), "passed".to_string());
    let h = hover_with_checks(&a, at(TRAP, "door-trap", 0), &checks).unwrap();
    insta::assert_snapshot!("hover_on_a_checked_level", h.markdown);
}

#[test]
fn definition_and_references() {
    let a = analysis();
    let mut out = String::new();
    // A board key goes to its legend entry, a noun word to the palette, a
    // level id to itself.
    for (what, needle) in [
        ("board key", "=    f"),
        ("noun word", "DOOR IS   SHUT"),
        ("level id", "door-trap"),
    ] {
        let defs = definition(&a, at(TRAP, needle, 0));
        let _ = writeln!(out, "definition of the {what} {needle:?}");
        out.push_str(&show_spans(TRAP, &defs));
    }
    // References of DOOR: palette, legend value, board word.
    for declaration in [true, false] {
        let refs = references(&a, at(TRAP, "DOOR \"", 0), declaration);
        let _ = writeln!(out, "references of DOOR (declaration {declaration})");
        out.push_str(&show_spans(TRAP, &refs));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn rename_a_legend_key_everywhere() {
    let a = analysis();
    let key = at(TRAP, "= DOOR", 0);
    let edits = rename(&a, key, "d").expect("rename");
    // The renamed file still resolves every key (no M109).
    let mut text = TRAP.to_string();
    let mut sorted = edits.clone();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    for e in sorted {
        text.replace_range(e.span.range(), &e.new_text);
    }
    let b = Analysis::new(&text, 1 << 20);
    assert!(b.diagnostics().iter().all(|d| d.code() != "M109"));
    // Capitals are words, `f` is taken, and words aren't keys.
    let mut out = format!("range {}\n", loc(TRAP, rename_range(&a, key).unwrap()));
    for (at_, name) in [
        (key, "d"),
        (key, "Door"),
        (key, "f"),
        (at(TRAP, "DOOR IS   SHUT", 0), "x"),
    ] {
        let _ = write!(out, "rename {} to {name:?}: ", line_col(TRAP, at_));
        out.push_str(&show_rename(TRAP, &rename(&a, at_, name)));
    }
    insta::assert_snapshot!(out);
}

/// Names the legend grammar reads otherwise (`{`, `}`, a trailing `!`) and
/// a default key the board already uses are refused; the file still builds.
#[test]
fn rename_refuses_names_that_break_the_file_or_change_its_meaning() {
    let a = analysis();
    let mut out = String::new();
    for bad in ["{", "}", "!", "x!", "=="] {
        let result = rename(&a, at(TRAP, "= DOOR", 0), bad);
        if let Ok(edits) = &result {
            let mut text = TRAP.to_string();
            let mut edits = edits.clone();
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
        let _ = write!(out, "rename = to {bad:?}: ");
        out.push_str(&show_rename(TRAP, &result));
    }
    // `@` is the default legend's MIAU, and this board uses it.
    let text = "pack p {\n  name \"P\"\n  version \"1.0.0\"\n  engine 1\n  rules 2\n}\n\n\
                level lv {\n  title \"T\"\n  legend {\n    q FLAG\n  }\n  board {\n    \
                MIAU IS YOU . FLAG IS WIN\n    @    .  q   . .    .  .\n  }\n}\n";
    let b = Analysis::new(text, 1 << 20);
    for name in ["@", "p"] {
        let _ = write!(out, "rename q to {name:?}: ");
        out.push_str(&show_rename(text, &rename(&b, at(text, "q FLAG", 0), name)));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn completions_by_context() {
    let a = analysis();
    // In a board: keys, nouns and words.
    insta::assert_snapshot!(
        "completions_in_a_board",
        show_completions(&a, TRAP, at(TRAP, "@    .", 0))
    );
    // At the start of a level statement: keywords.
    insta::assert_snapshot!(
        "completions_of_a_level_statement",
        show_completions(&a, TRAP, at(TRAP, "category required", 0))
    );
    // After `category `: the categories.
    insta::assert_snapshot!(
        "completions_of_a_category",
        show_completions(&a, TRAP, at(TRAP, "required", 0))
    );
    // Top level.
    insta::assert_snapshot!(
        "completions_at_the_top_level",
        show_completions(&a, TRAP, 0)
    );
    // In the legend after a key: nouns.
    insta::assert_snapshot!(
        "completions_of_a_legend_value",
        show_completions(&a, TRAP, at(TRAP, "DOOR\n  f", 0))
    );
    // Automaton steps inside a pattern string.
    let text = TRAP.replace(
        "  solution \"RRR\"\n",
        "  automaton a-b property TICK subject DOOR pattern \"L\n",
    );
    let b = Analysis::new(&text, 1 << 20);
    let off = at(&text, "pattern \"L", 0) + 10;
    insta::assert_snapshot!("completions_in_a_pattern", show_completions(&b, &text, off));
    // After a claim's keyword: channels for `must-press`, nouns for `must-lose`.
    let text = TRAP.replace(
        "  solution \"RRR\"\n",
        "  must-press amber\n  must-lose DOOR\n",
    );
    let c = Analysis::new(&text, 1 << 20);
    insta::assert_snapshot!(
        "completions_of_a_claim_channel",
        show_completions(&c, &text, at(&text, "must-press amber", 0) + 11)
    );
    insta::assert_snapshot!(
        "completions_of_a_claim_noun",
        show_completions(&c, &text, at(&text, "must-lose DOOR", 0) + 10)
    );
    // After `steps N`: its bound, and nothing after the bound's keyword.
    let text = TRAP.replace("  solution \"RRR\"\n", "  steps 3 at-least 2\n");
    let d = Analysis::new(&text, 1 << 20);
    let bound = at(&text, "at-least 2", 0);
    let labels = |offset| -> Vec<String> {
        completions(&d, offset)
            .into_iter()
            .map(|c| c.label)
            .collect()
    };
    assert_eq!(labels(bound), ["at-least"]);
    assert!(labels(bound + 9).is_empty());
}

/// "Record solution" of a route not proven shortest writes the length with
/// its bound and says so; a proven one writes the length alone.
#[test]
fn recording_an_unproven_route_writes_its_bound() {
    let a = analysis();
    let bounded = record_action(&a, "door-trap", "RRRR", Some(3)).expect("an action");
    assert_eq!(
        bounded.title,
        "Record solution RRRR (4 steps, not proven shortest: at least 3)"
    );
    assert!(
        bounded.edit.new_text.contains("4 at-least 3"),
        "{:?}",
        bounded.edit
    );
    let proven = record_action(&a, "door-trap", "RRRR", None).expect("an action");
    assert_eq!(proven.title, "Record solution RRRR (4 steps)");
    assert!(
        !proven.edit.new_text.contains("at-least"),
        "{:?}",
        proven.edit
    );
}

#[test]
fn outline_folding_tokens_hints_lenses() {
    let a = analysis();
    let mut outline = String::new();
    show_symbols(TRAP, &document_symbols(&a), 0, &mut outline);
    insta::assert_snapshot!("outline", outline);
    let folds: String = folding_ranges(&a)
        .iter()
        .map(|f| {
            let kind = if f.comment { "comment" } else { "block" };
            format!("{kind} {}\n", loc(TRAP, Span::new(f.start, f.end)))
        })
        .collect();
    insta::assert_snapshot!("folding_ranges", folds);
    let tokens: String = semantic_tokens(&a)
        .iter()
        .map(|t| {
            let mut flags = String::new();
            if t.fixed {
                flags.push_str(" fixed");
            }
            if t.declaration {
                flags.push_str(" declaration");
            }
            format!("{} {:?}{flags}\n", loc(TRAP, t.span), t.kind)
        })
        .collect();
    insta::assert_snapshot!("semantic_tokens", tokens);
    let hints: String = inlay_hints(&a)
        .iter()
        .map(|h| format!("{} {}\n", line_col(TRAP, h.offset), h.label))
        .collect();
    insta::assert_snapshot!("inlay_hints", hints);
    let lenses: String = code_lenses(&a)
        .iter()
        .map(|l| {
            format!(
                "{} {} ({} {})\n",
                loc(TRAP, l.span),
                l.title,
                l.command,
                l.level
            )
        })
        .collect();
    insta::assert_snapshot!("code_lenses", lenses);
}

#[test]
fn code_actions_carry_the_fixes() {
    // WIM is a misspelt WIN, not a new word: it is never paired with SHUT.
    let text = TRAP.replace("FLAG IS WIN", "FLAG IS WIM");
    let a = Analysis::new(&text, 1 << 20);
    let off = at(&text, "WIM", 0);
    let misspelt = show_actions(&a, &text, Span::new(off, off));
    let shut = show_actions(&a, &text, Span::point(at(&text, "SHUT .", 0)));
    insta::assert_snapshot!(format!("{misspelt}\n{shut}"));
    // Two undeclared words with no did-you-mean: declare them as a pair.
    let text = TRAP.replace("FLAG IS WIN", "FLAG IS ZORP");
    let a = Analysis::new(&text, 1 << 20);
    insta::assert_snapshot!(
        "code_actions_pair_two_undeclared_words",
        show_actions(&a, &text, Span::point(at(&text, "SHUT .", 0)))
    );
}

#[test]
fn a_legend_key_in_capitals_is_named_and_never_paired() {
    // `S` meant as the default legend's `s` (SHELL), and SNIK meant as SINK,
    // in one level with the undeclared SHUT: S gets the legend key, SNIK its
    // spelling, and nothing is paired.
    let text = TRAP.replace(
        "    .    .    .    . .    .  .\n",
        "    .    S    .    . SNIK .  .\n",
    );
    assert_ne!(text, TRAP);
    let a = Analysis::new(&text, 1 << 20);
    let mut out = show_diagnostics(&text, a.diagnostics());
    for needle in ["S    .    . SNIK", "SNIK", "SHUT ."] {
        out.push('\n');
        out.push_str(&show_actions(&a, &text, Span::point(at(&text, needle, 0))));
    }
    insta::assert_snapshot!(out);
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
    // The recorded route replays; the solver finds it is 3 steps, under the
    // 6 a level needs; no word moves and it is trivial.
    let ok = check_level(&a, "door-trap", &no).unwrap();
    insta::assert_snapshot!("check_of_the_recorded_route", show_check(TRAP, &ok));
    // A recorded route that no longer wins.
    let text = TRAP.replace("\"RRR\"", "\"RRL\"");
    let b = Analysis::new(&text, 1 << 20);
    let bad = check_level(&b, "door-trap", &no).unwrap();
    insta::assert_snapshot!("check_of_a_broken_route", show_check(&text, &bad));
    insta::assert_snapshot!(
        "replay_of_the_recorded_route",
        replay_level(&a, "door-trap").unwrap()
    );
    assert!(check_level(&a, "nope", &no).is_none());
}

/// The editor's check shows a lesson that can be skipped (M430) like the
/// other flags: a failing check whose summary is the warning, at the
/// `introduces` word, with the route and the fix that allows it.
#[test]
fn check_shows_a_skippable_lesson_at_its_introduces_word() {
    let text = include_str!("../../tests/fixtures/lessons/held-out.miau");
    let no = std::sync::atomic::AtomicBool::new(false);
    let a = Analysis::new(text, 1 << 20);
    let out = check_level(&a, "ford", &no).unwrap();
    assert!(!out.passed);
    assert!(
        out.summary
            .starts_with("M430 lesson-skippable: Level ford introduces SINK"),
        "{}",
        out.summary
    );
    let d = out.diagnostics.iter().find(|d| d.code() == "M430").unwrap();
    let at = at(text, "introduces SINK", 0) + "introduces ".len();
    assert_eq!(d.span.start as usize, at, "{d:?}");
    assert!(
        d.fixes
            .iter()
            .any(|f| f.title.starts_with("Allow lesson-skippable"))
    );
    let fixed = check_level(&a, "ford-fixed", &no).unwrap();
    assert!(fixed.diagnostics.iter().all(|d| d.code() != "M430"));
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
    insta::assert_snapshot!(format!("about {}\n{}", loc(text, h.span), h.markdown));
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
    // ROCK has no palette entry, but a built-in glyph: hover says so. SHELL
    // comes from the default legend, which gives no glyph. Properties and
    // nouns end with the section of the rules reference.
    let hovers = show_hovers(
        &a,
        text,
        &[
            ("r  s", 0),
            ("ROCK IS", 0),
            ("s    .", 0),
            ("SINK", 0),
            ("WIN", 0),
        ],
    );
    insta::assert_snapshot!(hovers);
    // The same words stay consistent with stage 3: SHELL raises M331, ROCK doesn't.
    insta::assert_snapshot!("glyph_diagnostics", show_diagnostics(text, a.diagnostics()));
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
  must-lose MIAU
  must-press amber

  board {
    MIAU IS YOU . FLAG IS WIN
    m    .  .   . f    .  .
  }
}
";
    let a = Analysis::new(text, 1 << 20);
    let hovers = show_hovers(
        &a,
        text,
        &[
            ("allow", 0),
            ("skippable", 0),
            ("required", 0),
            ("category", 0),
            ("must-lose-word", 0),
            ("must-lose MIAU", 0),
            ("must-press", 0),
        ],
    );
    insta::assert_snapshot!(hovers);
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
