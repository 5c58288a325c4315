//! Lesson coverage (M430) on a held-out set of levels with known shortcuts
//! (`tests/fixtures/lessons/held-out.miau`): each shortcut level gets the
//! warning with a route that really skips its mechanic, replayed here on
//! the engine with every event listed, and each fixed version is covered.

use miau::check::{Coverage, LevelReport, Options, check_level};
use miau::compile::{SourceKind, compile};
use miau::engine::{Cause, Game, Input, TurnReport, TurnResult};
use miau::model::Pack;
use std::sync::atomic::AtomicBool;

const HELD_OUT: &str = "tests/fixtures/lessons/held-out.miau";

/// One `//> lesson MECHANIC skippable|covered` line and the level it follows.
struct Expected {
    level: String,
    mechanic: String,
    coverage: Coverage,
}

/// The `//> lesson` lines of `text`, each with the level it sits in.
fn expectations(text: &str) -> Vec<Expected> {
    let mut level = String::new();
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("level ") {
            level = rest.trim_end_matches('{').trim().to_string();
        }
        let Some(rest) = line.strip_prefix("//> lesson ") else {
            continue;
        };
        let (mechanic, result) = rest.rsplit_once(' ').expect("MECHANIC RESULT");
        let coverage = match result {
            "skippable" => Coverage::Skippable,
            "covered" => Coverage::Covered,
            other => panic!("{level}: unknown result {other}"),
        };
        out.push(Expected {
            level: level.clone(),
            mechanic: mechanic.to_string(),
            coverage,
        });
    }
    out
}

fn pack(text: &str) -> Pack {
    let compiled = compile(text, SourceKind::Miau);
    assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
    compiled.pack.expect("the fixture compiles")
}

fn check(pack: &Pack, id: &str) -> LevelReport {
    let index = pack
        .levels
        .iter()
        .position(|l| l.id.text == id)
        .unwrap_or_else(|| panic!("no level {id}"));
    check_level(
        pack,
        &pack.levels[index],
        index,
        Options::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    )
}

/// Whether `mechanic` (as the check names it) acts on a turn, read from the
/// turn's event lists alone.
fn acted(mechanic: &str, report: &TurnReport) -> bool {
    match mechanic {
        "FRAIL" => !report.crumbled.is_empty(),
        "SINK" => report.destroyed.iter().any(|d| d.cause == Cause::Sink),
        "PLATE and GATE" => report.gates.iter().any(|g| !g.from && g.to),
        other => panic!("no event test for {other}"),
    }
}

/// Replays `route`: it must win on its last turn and not before, and
/// `mechanic` must never act on the way.
fn replay_skips(game: &Game, mechanic: &str, route: &str) -> Result<(), String> {
    let inputs: Vec<Input> = route.chars().filter_map(Input::from_char).collect();
    let (mut state, _) = game.reset();
    for (k, &input) in inputs.iter().enumerate() {
        let TurnResult::Accepted {
            state: next,
            report,
        } = game.step(&state, input)
        else {
            return Err(format!("step {} is rejected", k + 1));
        };
        if acted(mechanic, &report) {
            return Err(format!("{mechanic} acts on step {}", k + 1));
        }
        if report.won != (k + 1 == inputs.len()) {
            return Err(format!("won: {} at step {}", report.won, k + 1));
        }
        state = next;
    }
    Ok(())
}

#[test]
fn held_out_shortcuts_are_found_and_their_fixes_pass() {
    let text = std::fs::read_to_string(HELD_OUT).unwrap();
    let pack = pack(&text);
    let expected = expectations(&text);
    assert_eq!(expected.len(), 6, "three shortcuts and their fixes");
    let mut failures = Vec::new();
    for e in &expected {
        let report = check(&pack, &e.level);
        let m430: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.code() == "M430")
            .collect();
        let Some(lesson) = report.lessons.iter().find(|l| l.mechanic == e.mechanic) else {
            failures.push(format!("{}: no lesson {}", e.level, e.mechanic));
            continue;
        };
        if lesson.coverage != e.coverage {
            failures.push(format!(
                "{}: {} is {:?}, expected {:?}",
                e.level, e.mechanic, lesson.coverage, e.coverage
            ));
            continue;
        }
        if e.coverage == Coverage::Covered {
            if !m430.is_empty() {
                failures.push(format!("{}: M430 on a covered level", e.level));
            }
            continue;
        }
        let route = lesson.route.clone().unwrap_or_default();
        let said = m430.iter().any(|d| {
            d.message.contains(&format!("introduces {}", e.mechanic)) && d.message.contains(&route)
        });
        if !said {
            failures.push(format!(
                "{}: no M430 naming {} and {route}",
                e.level, e.mechanic
            ));
        }
        let level = pack.level(&e.level).unwrap();
        if let Err(why) = replay_skips(&Game::new(level), &e.mechanic, &route) {
            failures.push(format!("{}: route {route}: {why}", e.level));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The warning offers the allowance, and an allowance with its reason
/// turns it into an info that says why.
#[test]
fn the_warning_offers_an_allowance_that_quiets_it() {
    let text = std::fs::read_to_string(HELD_OUT).unwrap();
    let report = check(&pack(&text), "ford");
    let m430 = report
        .diagnostics
        .iter()
        .find(|d| d.code() == "M430")
        .expect("M430 on ford");
    assert_eq!(m430.severity, miau::diag::Severity::Warning);
    let fix = m430
        .fixes
        .iter()
        .find(|f| f.title == "Allow lesson-skippable (M430) in level ford")
        .expect("the allow fix");
    assert!(
        fix.edits[0]
            .new_text
            .starts_with("allow lesson-skippable \""),
        "{:?}",
        fix.edits
    );
    // The shortest route sinks the rock, so the check tries the claim
    // `must-lose ROCK`; the walk round keeps the rock, so its search wins
    // and no claim is offered.
    let claim = report
        .searches
        .iter()
        .find(|f| f.kind.name() == "must-lose ROCK")
        .expect("the must-lose ROCK search ran");
    assert_eq!(claim.result(), "solved");
    assert!(m430.fixes.iter().all(|f| !f.title.starts_with("Claim")));
    let allowed = text.replace(
        "  title      \"Ford\"\n",
        "  title      \"Ford\"\n  allow      lesson-skippable \"The river is a warm-up: the rock is there for those who see it.\"\n",
    );
    let report = check(&pack(&allowed), "ford");
    let m430 = report
        .diagnostics
        .iter()
        .find(|d| d.code() == "M430")
        .expect("still reported");
    assert_eq!(m430.severity, miau::diag::Severity::Info);
    assert!(
        m430.message.ends_with(
            "(allowed: The river is a warm-up: the rock is there for those who see it.)"
        ),
        "{}",
        m430.message
    );
}
