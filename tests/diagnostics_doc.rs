//! `docs/diagnostics.md` is the reference `miauc explain` prints. Every code of
//! the catalogue has a page with the same sections in the same order, and
//! every page's example really raises its code while the nearest correct
//! version really doesn't, through the same pipeline `miauc` runs.

use miau::compile::{PackIds, SourceKind, analyse};
use miau::diag::{CATALOGUE, Diagnostic, Severity};

use std::sync::OnceLock;

/// The reference page, read at run time (`MIAU_DIAGNOSTICS_DOC` names another
/// copy to check, e.g. a draft).
fn doc() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        let path = std::env::var("MIAU_DIAGNOSTICS_DOC").unwrap_or_else(|_| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/docs/diagnostics.md").to_string()
        });
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    })
}

/// The sections of a page, in order.
const SECTIONS: &[&str] = &[
    "**Severity:**",
    "**What triggers it.**",
    "**Why it matters.**",
    "**How to fix it.**",
    "**Example**",
    "**Nearest correct version**",
];

struct Page<'a> {
    code: &'static str,
    text: &'a str,
}

/// A fenced block: its tag and its text.
struct Block {
    tag: String,
    text: String,
}

fn page(code: &'static str, name: &str) -> Page<'static> {
    let heading = format!("### {code} {name}\n");
    let doc = doc();
    let start = doc
        .find(&heading)
        .unwrap_or_else(|| panic!("no heading `### {code} {name}`"));
    let rest = &doc[start + heading.len()..];
    let end = [rest.find("\n### "), rest.find("\n## ")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
    Page {
        code,
        text: &rest[..end],
    }
}

/// The first fenced block after `marker` in the page.
fn block_after(p: &Page<'_>, marker: &str) -> Block {
    let at = p
        .text
        .find(marker)
        .unwrap_or_else(|| panic!("{}: no {marker}", p.code));
    let rest = &p.text[at..];
    let open = rest
        .find("\n```")
        .unwrap_or_else(|| panic!("{}: no code block after {marker}", p.code));
    let rest = &rest[open + 4..];
    let eol = rest.find('\n').unwrap();
    let tag = rest[..eol].trim().to_string();
    let body = &rest[eol + 1..];
    let close = body
        .find("\n```")
        .unwrap_or_else(|| panic!("{}: unclosed code block", p.code));
    Block {
        tag,
        text: body[..close + 1].to_string(),
    }
}

fn kind(p: &Page<'_>, b: &Block) -> SourceKind {
    match b.tag.as_str() {
        "miau" => SourceKind::Miau,
        "json" => SourceKind::Json,
        other => panic!(
            "{}: code block tagged `{other}`, expected miau or json",
            p.code
        ),
    }
}

fn listing(d: &[Diagnostic]) -> String {
    d.iter()
        .map(|d| format!("  {} {} {}", d.code(), d.severity.as_str(), d.message))
        .collect::<Vec<_>>()
        .join("\n")
}

fn codes(d: &[Diagnostic]) -> Vec<&'static str> {
    d.iter().map(|d| d.code()).collect()
}

#[test]
fn every_code_has_a_page_with_every_section_in_order() {
    for info in CATALOGUE {
        let p = page(info.code, info.name);
        let mut last = 0;
        for s in SECTIONS {
            let at = p.text[last..]
                .find(s)
                .unwrap_or_else(|| panic!("{}: section {s} missing or out of order", info.code));
            last += at + s.len();
        }
        let severity = format!("**Severity:** {}", info.severity.as_str());
        assert!(
            p.text.contains(&severity),
            "{}: expected {severity}",
            info.code
        );
        let ex = block_after(&p, "**Example**");
        let ok = block_after(&p, "**Nearest correct version**");
        assert_eq!(
            ex.tag, ok.tag,
            "{}: example and correct version differ in kind",
            info.code
        );
        assert_ne!(ex.text, ok.text, "{}", info.code);
        // Only M205 (data that isn't plain, which neither `.miau` nor JSON can
        // hold) is shown in the game's module form; the toolchain can't run it.
        assert!(
            ex.tag != "js" || info.code == "M205",
            "{}: examples are miau or json",
            info.code
        );
        // JSON-only codes are those whose trigger can't be written in `.miau`.
        if ex.tag == "json" {
            assert!(
                info.code.starts_with("M1") || info.code.starts_with("M2"),
                "{}: only stage 1 and 2 pages use pack JSON",
                info.code
            );
        }
    }
}

/// The example and the nearest correct version of a page, run through stages 1 to 3.
fn run_stage_1_to_3(code: &'static str, name: &str) -> Option<(Vec<Diagnostic>, Vec<Diagnostic>)> {
    let p = page(code, name);
    let ex = block_after(&p, "**Example**");
    if ex.tag == "js" {
        return None;
    }
    let ok = block_after(&p, "**Nearest correct version**");
    let fired = analyse_files(&ex.text, kind(&p, &ex));
    let clean = analyse_files(&ok.text, kind(&p, &ok));
    Some((fired, clean))
}

/// The sources of a block: one, or several where `// file: NAME` lines
/// start each (the pages of rules over several files, such as M248).
fn files(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        match line.strip_prefix("// file: ") {
            Some(name) => out.push((name.trim().to_owned(), String::new())),
            None if out.is_empty() => out.push(("example".to_owned(), String::new())),
            None => {}
        }
        if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// Every source of a block through stages 1 to 3, and the pack ids across
/// them, as one `miauc check` run over those files does.
fn analyse_files(text: &str, kind: SourceKind) -> Vec<Diagnostic> {
    let mut ids = PackIds::default();
    let mut diags = Vec::new();
    for (name, text) in files(text) {
        let compiled = analyse(&text, kind);
        diags.extend(compiled.diagnostics);
        if let Some(pack) = &compiled.pack {
            diags.extend(ids.declare(&name, pack));
        }
    }
    diags
}

#[test]
fn an_example_of_two_files_is_split_at_its_file_lines() {
    let p = page("M248", "duplicate-pack-id");
    let names: Vec<String> = files(&block_after(&p, "**Example**").text)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(names, ["walks.miau", "more-walks.miau"]);
    let fired = analyse_files(&block_after(&p, "**Example**").text, SourceKind::Miau);
    let m248: Vec<&Diagnostic> = fired.iter().filter(|d| d.code() == "M248").collect();
    assert_eq!(m248.len(), 1, "{}", listing(&fired));
    // At the second file's header, naming the first.
    assert!(
        m248[0].message.contains("already declared by walks.miau"),
        "{}",
        m248[0].message
    );
}

#[test]
fn stage_1_to_3_examples_fire_and_nearest_versions_do_not() {
    let mut failures = Vec::new();
    for info in CATALOGUE.iter().filter(|c| !c.code.starts_with("M4")) {
        let Some((fired, clean)) = run_stage_1_to_3(info.code, info.name) else {
            continue;
        };
        if !codes(&fired).contains(&info.code) {
            failures.push(format!(
                "{}: the example doesn't raise it; it raises:\n{}",
                info.code,
                listing(&fired)
            ));
        }
        if codes(&clean).contains(&info.code) {
            failures.push(format!(
                "{}: the nearest correct version raises it:\n{}",
                info.code,
                listing(&clean)
            ));
        }
        // The correct version builds: it has no error of any stage, so the
        // smallest edit really is a fix and not a different mistake.
        let errors: Vec<_> = clean
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .cloned()
            .collect();
        if !errors.is_empty() {
            failures.push(format!(
                "{}: the nearest correct version has errors:\n{}",
                info.code,
                listing(&errors)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Stage 4 pages: the examples are complete packs with no error of stages 1
/// to 3, so the check runs on them (except M416's, which is about exactly
/// that). The engine's replay then shows what the check reports, where one
/// route is proof enough: a recorded route that doesn't win (M410), a win
/// shorter than the recorded length (M411), or than 6 steps (M405), or than
/// 25 steps in a world's only challenge (M415); every accepted first move
/// winning (M406); a win that never forms the `must-form` rule (M408) or any
/// new rule (M407); and, for the nearest correct versions, the route that
/// wins as intended.
mod stage_4 {
    use super::*;
    use miau::compile::compile;
    use miau::engine::{ReplayOutput, ReplayResult, replay};
    use miau::model::Level;

    fn level(code: &'static str, marker: &str, index: usize) -> Level {
        let info = miau::diag::lookup(code).unwrap();
        let p = page(code, info.name);
        let b = block_after(&p, marker);
        let compiled = compile(&b.text, kind(&p, &b));
        assert!(
            !compiled.has_errors(),
            "{code}: {}",
            listing(&compiled.diagnostics)
        );
        compiled.pack.unwrap().levels.swap_remove(index)
    }

    fn example(code: &'static str) -> Level {
        level(code, "**Example**", 0)
    }

    fn nearest(code: &'static str) -> Level {
        level(code, "**Nearest correct version**", 0)
    }

    fn play(l: &Level, moves: &str) -> ReplayOutput {
        replay(l, moves, true, &|_, _| None)
    }

    fn won_in(l: &Level, moves: &str) -> usize {
        match play(l, moves).result {
            ReplayResult::Won { turns } => turns,
            other => panic!("{}: {moves} doesn't win: {other:?}", l.id.text),
        }
    }

    /// Rules that became active after reset along the route (explain mode
    /// prints `+ RULE` under each turn that adds one).
    fn formed(out: &ReplayOutput) -> Vec<String> {
        out.text
            .split_once("\nturn")
            .map(|(_, turns)| {
                turns
                    .lines()
                    .filter_map(|l| l.trim().strip_prefix("+ "))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn examples_are_checked_levels_and_m416_is_the_exception() {
        for info in CATALOGUE.iter().filter(|c| c.code.starts_with("M4")) {
            let p = page(info.code, info.name);
            let ex = block_after(&p, "**Example**");
            let ok = block_after(&p, "**Nearest correct version**");
            let fired = analyse(&ex.text, kind(&p, &ex));
            let clean = analyse(&ok.text, kind(&p, &ok));
            assert!(
                !clean.has_errors(),
                "{}: {}",
                info.code,
                listing(&clean.diagnostics)
            );
            // M416 is raised for a level with an error of stages 1 to 3.
            assert_eq!(
                fired.has_errors(),
                info.code == "M416",
                "{}: {}",
                info.code,
                listing(&fired.diagnostics)
            );
        }
    }

    #[test]
    fn m401_nearest_version_wins() {
        assert_eq!(won_in(&nearest("M401"), "RRRURR"), 6);
    }

    #[test]
    fn m403_example_wins_without_a_rule_change_and_nearest_needs_a_push() {
        let out = play(&example("M403"), "RRRR");
        assert_eq!(out.result, ReplayResult::Won { turns: 4 });
        assert!(formed(&out).is_empty(), "{}", out.text);
        let out = play(&nearest("M403"), "RRRRRRULLD");
        assert_eq!(out.result, ReplayResult::Won { turns: 10 });
        assert_eq!(formed(&out), vec!["FLAG IS WIN"]);
    }

    #[test]
    fn m404_the_automaton_builds_the_rule_in_the_example_only() {
        // The mouse's first beat pushes WIN into FLAG IS _; the player just walks.
        let out = play(&example("M404"), "RRRR");
        assert_eq!(out.result, ReplayResult::Won { turns: 4 }, "{}", out.text);
        assert!(!matches!(
            play(&nearest("M404"), "RRRR").result,
            ReplayResult::Won { .. }
        ));
        assert_eq!(won_in(&nearest("M404"), "RRRRRRULLD"), 10);
    }

    #[test]
    fn m405_example_wins_in_under_6_steps() {
        assert!(won_in(&example("M405"), "RRRR") < 6);
        assert_eq!(won_in(&nearest("M405"), "RRRRRR"), 6);
    }

    #[test]
    fn m406_every_accepted_first_move_wins_in_the_example_only() {
        let l = example("M406");
        let mut wins = 0;
        for m in ["U", "D", "L", "R"] {
            match play(&l, m).result {
                ReplayResult::Won { turns: 1 } => wins += 1,
                ReplayResult::NotWon {
                    turns: 0,
                    stopped: Some(_),
                } => {}
                other => panic!("M406 example: {m} is accepted and doesn't win: {other:?}"),
            }
        }
        assert!(wins > 0);
        assert_eq!(
            play(&nearest("M406"), "R").result,
            ReplayResult::NotWon {
                turns: 1,
                stopped: None
            }
        );
    }

    #[test]
    fn m407_example_wins_without_forming_a_rule() {
        let out = play(&example("M407"), "RRRR");
        assert_eq!(out.result, ReplayResult::Won { turns: 4 });
        assert!(formed(&out).is_empty(), "{}", out.text);
    }

    #[test]
    fn m408_example_wins_without_the_must_form_rule() {
        let l = example("M408");
        assert_eq!(l.check.must_form[0].text, "ROCK IS WIN");
        let out = play(&l, "RRRR");
        assert_eq!(out.result, ReplayResult::Won { turns: 4 });
        assert!(!out.text.contains("ROCK IS WIN"), "{}", out.text);
    }

    #[test]
    fn m410_recorded_solution_fails_in_the_example_and_wins_in_the_nearest() {
        let l = example("M410");
        let route = l.check.solution.as_ref().unwrap().text.clone();
        assert!(!matches!(play(&l, &route).result, ReplayResult::Won { .. }));
        let l = nearest("M410");
        let route = l.check.solution.as_ref().unwrap().text.clone();
        assert_eq!(won_in(&l, &route), route.len());
    }

    #[test]
    fn m411_example_records_more_steps_than_a_route_takes() {
        let l = example("M411");
        let route = l.check.solution.as_ref().unwrap().text.clone();
        assert!((won_in(&l, &route) as u64) < l.check.steps.unwrap());
        let l = nearest("M411");
        let route = l.check.solution.as_ref().unwrap().text.clone();
        assert_eq!(won_in(&l, &route) as u64, l.check.steps.unwrap());
    }

    #[test]
    fn m412_example_wins_by_forming_win_under_a_standing_cat() {
        let out = play(&example("M412"), "L");
        assert_eq!(out.result, ReplayResult::Won { turns: 1 });
        assert_eq!(formed(&out), vec!["FLAG IS WIN"]);
        // Nearest: the same rule forms, but the win needs a step onto the flag.
        assert_eq!(won_in(&nearest("M412"), "LR"), 2);
    }

    #[test]
    fn m415_example_challenge_is_short_and_nearest_is_long() {
        assert!(won_in(&example("M415"), "RRRR") < 25);
        let route = format!("{}DD{}", "R".repeat(13), "L".repeat(13));
        assert_eq!(won_in(&nearest("M415"), &route), 28);
    }
}

/// Stage 4 through `miauc check` itself: every stage 4 page's example raises
/// its code and the nearest correct version doesn't.
#[test]
fn stage_4_examples_through_miauc_check() {
    use std::process::Command;
    let miauc = env!("CARGO_BIN_EXE_miauc");
    let dir = std::env::temp_dir().join(format!("miau-diagnostics-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let codes_of = |code: &str, which: &str, text: &str| -> Vec<String> {
        let path = dir.join(format!("{code}-{which}.miau"));
        std::fs::write(&path, text).unwrap();
        let out = Command::new(miauc)
            .args(["check", "--jobs", "1", "--format", "json"])
            .arg(&path)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v.get("code").and_then(|c| c.as_str()).map(str::to_string))
            .collect()
    };
    let mut failures = Vec::new();
    for info in CATALOGUE.iter().filter(|c| c.code.starts_with("M4")) {
        let p = page(info.code, info.name);
        let ex = block_after(&p, "**Example**");
        let ok = block_after(&p, "**Nearest correct version**");
        let fired = codes_of(info.code, "example", &ex.text);
        let clean = codes_of(info.code, "nearest", &ok.text);
        if !fired.iter().any(|c| c == info.code) {
            failures.push(format!("{}: example raises {fired:?}", info.code));
        }
        if clean.iter().any(|c| c == info.code) {
            failures.push(format!("{}: nearest correct version raises it", info.code));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
