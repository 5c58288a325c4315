//! How diagnostics read: where they point, what their fixes write, how their
//! words agree. Each test pins one mistake's report, and the fixes are applied
//! to show they keep the level meaning what it did.

use miau::check::{Options, SearchKind, check_level};
use miau::compile::{SourceKind, analyse, compile};
use miau::diag::{Diagnostic, Severity, TextEdit};
use miau::model::{Kind, Level};
use miau::span::LineIndex;
use std::sync::atomic::AtomicBool;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/quality/{name}.miau",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).expect("fixture")
}

/// `line:col severity[CODE] message`, then the cells and every fix's edits.
fn render(text: &str, diags: &[Diagnostic]) -> String {
    let idx = LineIndex::new(text);
    let at = |offset: u32| {
        let lc = idx.line_col(text, offset as usize);
        format!("{}:{}", lc.line, lc.column)
    };
    let mut out = String::new();
    for d in diags {
        out.push_str(&format!(
            "{}-{} {}[{}] {}\n",
            at(d.span.start),
            at(d.span.end),
            d.severity.as_str(),
            d.code(),
            d.message
        ));
        for (x, y) in &d.cells {
            out.push_str(&format!("  cell: column {x}, row {y}\n"));
        }
        for r in &d.related {
            out.push_str(&format!(
                "  related: {}-{} {}\n",
                at(r.span.start),
                at(r.span.end),
                r.label
            ));
        }
        for f in &d.fixes {
            let edits: Vec<String> = f
                .edits
                .iter()
                .map(|e| format!("{}-{} {:?}", at(e.span.start), at(e.span.end), e.new_text))
                .collect();
            out.push_str(&format!("  fix: {}: {}\n", f.title, edits.join("; ")));
        }
    }
    out
}

/// The text with one fix's edits applied (edits never overlap).
fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| e.span.start);
    let mut out = text.to_string();
    for e in sorted.iter().rev() {
        out.replace_range(e.span.range(), &e.new_text);
    }
    out
}

/// Each object of a level as (kind, noun or text, column, row).
fn board(level: &Level) -> Vec<(Kind, String, u32, u32)> {
    level
        .objects
        .iter()
        .map(|o| (o.kind, o.text.clone(), o.x, o.y))
        .collect()
}

#[test]
fn a_legend_noun_in_mixed_case_is_fixed_on_the_legend_line() {
    let text = fixture("legend-noun-case");
    let compiled = compile(&text, SourceKind::Miau);
    let m207: Vec<&Diagnostic> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.code() == "M207")
        .collect();
    assert_eq!(m207.len(), 1, "{:#?}", compiled.diagnostics);
    let legend_line = text.find("y Key").expect("legend entry") + 2;
    assert_eq!(m207[0].span.start as usize, legend_line);
    insta::assert_snapshot!(
        "legend_noun_case",
        render(&text, &m207.iter().copied().cloned().collect::<Vec<_>>())
    );

    let fixed = apply(&text, &m207[0].fixes[0].edits);
    let after = compile(&fixed, SourceKind::Miau);
    let errors: Vec<&Diagnostic> = after
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{fixed}");
    // The same things on the same cells: only the noun's spelling changed.
    let before = board(&compiled.pack.expect("a model").levels[0]);
    let now = board(&after.pack.expect("a model").levels[0]);
    let expected: Vec<_> = before
        .into_iter()
        .map(|(kind, noun, x, y)| match kind {
            Kind::Thing => (kind, noun.to_uppercase(), x, y),
            Kind::Word => (kind, noun, x, y),
        })
        .collect();
    assert_eq!(now, expected);
    assert!(
        now.contains(&(Kind::Thing, "KEY".to_string(), 2, 1)),
        "{now:?}"
    );
}

/// The text a diagnostic's span covers.
fn spanned<'t>(text: &'t str, d: &Diagnostic) -> &'t str {
    &text[d.span.range()]
}

fn the<'d>(diags: &'d [Diagnostic], code: &str) -> &'d Diagnostic {
    diags
        .iter()
        .find(|d| d.code() == code)
        .unwrap_or_else(|| panic!("no {code}: {diags:#?}"))
}

#[test]
fn small_flaws_read_right() {
    let text = fixture("small-flaws");
    let diags = analyse(&text, SourceKind::Miau).diagnostics;
    insta::assert_snapshot!("small_flaws", render(&text, &diags));

    // M224 marks the accent, and offers the nearest one.
    let m224 = the(&diags, "M224");
    assert_eq!(spanned(&text, m224), "sotp");
    assert_eq!(m224.fixes[0].title, "Replace with stop");

    // Counts agree in number, articles with their word.
    assert!(the(&diags, "M108").message.contains("is 1 cell wide"));
    assert!(
        the(&diags, "M301")
            .message
            .contains("turns every DOOR into an OPEN thing")
    );

    // M109 without a look-alike lists the keys there are, and its fix says
    // what it writes.
    let m109 = the(&diags, "M109");
    assert!(
        m109.message
            .contains("or write a key the level has: # (WALL), $ (CRATE),"),
        "{}",
        m109.message
    );
    assert!(m109.fixes[0].title.contains("`z NOUN`"), "{:?}", m109.fixes);

    // M105 marks the header and says where the brace goes.
    let m105 = the(&diags, "M105");
    assert_eq!(spanned(&text, m105), "level unclosed {");
    let next = text.find("level last").unwrap();
    assert_eq!(m105.related[0].span.start as usize, next);
    assert_eq!(m105.fixes[0].title, "Close the block before line 43");
    let closed = apply(&text, &m105.fixes[0].edits);
    let after = compile(&closed, SourceKind::Miau).diagnostics;
    assert!(after.iter().all(|d| d.code() != "M105"), "{after:#?}");

    // Two diagnostics on one cell offer allowances that read apart.
    let open = the(&diags, "M301").span;
    let allows: Vec<&str> = diags
        .iter()
        .filter(|d| d.span == open)
        .flat_map(|d| d.fixes.iter())
        .map(|f| f.title.as_str())
        .filter(|t| t.starts_with("Allow"))
        .collect();
    assert_eq!(
        allows,
        [
            "Allow undeclared-property-word (M301) in level doors",
            "Allow transformed-at-reset (M311) in level doors"
        ]
    );
}

/// A claim over events naming a noun or channel the level lacks (M249)
/// points at the name, suggests the closest one the level holds and its fix
/// writes it; names held as things, word tiles, frail leftovers or channels
/// raise nothing.
#[test]
fn claims_name_what_the_level_holds() {
    let text = fixture("claim-targets");
    let diags = compile(&text, SourceKind::Miau).diagnostics;
    let m249: Vec<Diagnostic> = diags.into_iter().filter(|d| d.code() == "M249").collect();
    insta::assert_snapshot!("claim_targets", render(&text, &m249));
    let held = text.find("level missed").unwrap() as u32;
    assert!(m249.iter().all(|d| d.span.start > held), "{m249:#?}");
    let names: Vec<&str> = m249.iter().map(|d| spanned(&text, d)).collect();
    assert_eq!(names, ["ROK", "CRAB", "SNAD", "amber", "teal"]);
    // The fix of the misspelt noun writes the level's own, and the warning goes.
    let rok = &m249[0];
    assert_eq!(rok.fixes[0].title, "Write ROCK");
    let fixed = apply(&text, &rok.fixes[0].edits);
    let after = compile(&fixed, SourceKind::Miau).diagnostics;
    assert_eq!(after.iter().filter(|d| d.code() == "M249").count(), 4);
}

/// A claim over an absent noun gets no stage 4 search: the misspelt name
/// (M249) is the one message, not also a route that avoids an event that
/// can't happen (M421). The same claim over a noun the level holds is
/// searched, and shown wrong.
#[test]
fn a_claim_over_an_absent_name_is_not_searched() {
    let text = |noun: &str| {
        format!(
            "pack p {{\n  name    \"P\"\n  version \"1.0.0\"\n  engine  1\n}}\n\n\
             level walk {{\n  title \"Walk\"\n  must-lose {noun}\n\n  board {{\n    \
             MIAU IS YOU . FLAG IS WIN\n    @    .  .   . f\n  }}\n}}\n"
        )
    };
    let check = |noun: &str| {
        let compiled = compile(&text(noun), SourceKind::Miau);
        let stage2: Vec<&str> = compiled.diagnostics.iter().map(|d| d.code()).collect();
        let pack = compiled.pack.expect("a pack");
        let report = check_level(
            &pack,
            &pack.levels[0],
            0,
            Options::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        let claims = report
            .searches
            .iter()
            .filter(|s| matches!(s.kind, SearchKind::Happen(_)))
            .count();
        let stage4: Vec<&str> = report.diagnostics.iter().map(|d| d.code()).collect();
        (stage2.contains(&"M249"), claims, stage4.contains(&"M421"))
    };
    assert_eq!(check("MIAU"), (false, 1, true));
    assert_eq!(check("MAIU"), (true, 0, false));
}

/// A level of one step and one thing: the editor's hover counts them in the
/// singular, like every message (`diag::wording::count`).
#[test]
fn hover_counts_agree_in_number() {
    let text = "pack one {\n  name    \"One\"\n  version \"1.0.0\"\n  engine  1\n}\n\nlevel step {\n  title    \"Step\"\n  solution \"R\"\n\n  board {\n    m+MIAU+IS+YOU WIN\n  }\n}\n";
    let a = miau::ide::Analysis::new(text, 1 << 20);
    let header = text.find("step {").expect("the level's id");
    let h = miau::ide::hover(&a, header).expect("a level hover");
    assert!(
        h.markdown.contains("4 word tiles, 1 thing."),
        "{}",
        h.markdown
    );
    assert!(
        h.markdown.contains("Recorded solution: 1 step."),
        "{}",
        h.markdown
    );
}

/// A board left open inside a level left open: one M105, naming both, whose
/// fix closes both where the next level starts, each brace at its depth.
/// (Inline, not a fixture file: the editors' grammar would read the next
/// level's lines as board rows.)
#[test]
fn an_unclosed_board_and_level_are_closed_by_one_fix() {
    let text = "level one {\n  title \"One\"\n  board {\n    MIAU IS YOU\n\nlevel two {\n  title \"Two\"\n  board {\n    MIAU IS YOU\n  }\n}\n";
    let diags = compile(text, SourceKind::Miau).diagnostics;
    let m105 = the(&diags, "M105");
    assert_eq!(
        m105.message,
        "The board block of level one that opens on line 3 isn't closed. The level block one that opens on line 1 isn't closed."
    );
    assert_eq!(m105.fixes[0].title, "Close the 2 blocks before line 6");
    assert_eq!(m105.fixes[0].edits[0].new_text, "  }\n}\n");
    let closed = apply(text, &m105.fixes[0].edits);
    let after = compile(&closed, SourceKind::Miau).diagnostics;
    assert!(
        after.iter().all(|d| d.code() != "M105"),
        "{after:#?}\n{closed}"
    );
}
