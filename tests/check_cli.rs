//! `miauc check` and `miauc solve` end to end, on the built binary.

use std::process::Command;

// Only the runner is used here; the world helpers stay unused.
#[allow(dead_code)]
mod bundled;
use bundled::miauc;

/// The `key: value` line of `solve` output.
fn field<'a>(out: &'a str, key: &str) -> Option<&'a str> {
    out.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
}

const BROKEN: &str = "tests/fixtures/check/broken.miau";

#[test]
fn broken_levels_each_give_their_code() {
    let (code, out, _) = miauc(&["check", BROKEN, "--jobs", "2", "--verbose"]);
    assert_eq!(code, 1, "{out}");
    for (level, code) in [
        ("sealed", "M401"),
        ("wrong-route", "M410"),
        ("wrong-route", "M411"),
        ("wrong-route", "M414"),
        ("wrong-route", "M403"),
        ("short", "M405"),
        ("needless", "M408"),
        ("too-big", "M402"),
        ("big-but-winnable", "M402"), // its bypass search; the level solves
        ("ragged", "M416"),
        ("standing", "M412"),
    ] {
        assert!(
            out.lines().any(
                |l| l.contains(&format!("[{code}]: ")) && l.contains(&format!("Level {level}"))
            ),
            "{level} {code} missing:\n{out}"
        );
    }
    insta::assert_snapshot!("check_broken_human", out);
}

/// A search out of budget whose satisficing pass found a route decides
/// the level: SOLVED, the route replays to a win, and the shortest is
/// bounded between the fewest steps not ruled out and the route's length;
/// without a route the level is LIMIT and nothing is known.
#[test]
fn a_route_found_past_the_budget_solves_with_the_shortest_bounded() {
    let (_, out, _) = miauc(&["check", BROKEN, "--jobs", "1", "--verbose"]);
    let line = out
        .lines()
        .find(|l| l.contains("level big-but-winnable: "))
        .unwrap_or_else(|| panic!("no result line:\n{out}"));
    assert!(
        line.contains("level big-but-winnable: solved in "),
        "{line}"
    );
    let route = line
        .split("route ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .expect("the route");
    let range = line
        .split("shortest ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .expect("the range");
    let (fewest, longest) = range.split_once("..").expect("a range, not proven");
    let (fewest, longest): (usize, usize) = (fewest.parse().unwrap(), longest.parse().unwrap());
    assert_eq!(longest, route.len(), "{line}");
    assert!(fewest < longest, "{line}");
    // The solve search no longer says LIMIT; the other searches still may.
    assert!(
        !out.lines().any(|l| l.contains("[M402]")
            && l.contains("Level big-but-winnable:")
            && l.contains("the solve search")),
        "{out}"
    );
    let (code, replay, _) = miauc(&[
        "replay",
        BROKEN,
        "--level",
        "big-but-winnable",
        "--moves",
        route,
    ]);
    assert_eq!(code, 0, "{replay}");
    assert_eq!(
        field(&replay, "result"),
        Some(format!("won in {} turns", route.len()).as_str()),
        "{replay}"
    );
    let too_big = out
        .lines()
        .find(|l| l.contains("[M402]") && l.contains("Level too-big:"))
        .unwrap_or_else(|| panic!("no M402 for too-big:\n{out}"));
    assert!(too_big.contains("it isn't known whether the level can be won"));
    // `solve` says the same: solved, exit 0, the range and why it isn't proven.
    let (code, solved, _) = miauc(&["solve", BROKEN, "--level", "big-but-winnable"]);
    assert_eq!(code, 0, "{solved}");
    assert_eq!(field(&solved, "result"), Some("solved"));
    assert_eq!(field(&solved, "route"), Some(route), "{solved}");
    assert_eq!(field(&solved, "shortest"), Some(range), "{solved}");
    assert_eq!(field(&solved, "limit"), Some("states (budget 100)"));
    let (_, json, _) = miauc(&[
        "solve",
        BROKEN,
        "--level",
        "big-but-winnable",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
    assert_eq!(v["result"], "solved");
    assert_eq!(
        v["shortest"],
        serde_json::json!({ "min": fewest, "max": longest, "proven": false })
    );
    // A proven one, for contrast.
    let (_, json, _) = miauc(&["solve", BROKEN, "--level", "short", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
    assert_eq!(
        v["shortest"],
        serde_json::json!({ "min": 2, "max": 2, "proven": true })
    );
    let (_, solved, _) = miauc(&["solve", BROKEN, "--level", "short"]);
    assert_eq!(field(&solved, "shortest"), Some("proven"), "{solved}");
    assert_eq!(field(&solved, "limit"), None, "{solved}");
    let (code, solved, _) = miauc(&["solve", BROKEN, "--level", "too-big"]);
    assert_eq!(code, 1, "{solved}");
    assert_eq!(field(&solved, "result"), Some("limit"));
    assert_eq!(field(&solved, "shortest"), None, "{solved}");
}

/// The big-but-winnable level of the fixture with `steps` set to `steps`
/// (or none), alone in a pack in a fresh directory.
fn bounded_level(name: &str, steps: Option<usize>) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("miau-bounded-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bounded.miau");
    let steps = steps.map_or(String::new(), |n| format!("  steps  {n}\n"));
    let src = format!(
        "pack bounded {{\n  name    \"Bounded\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n}}\n\n\
         level big {{\n  title  \"Big\"\n{steps}  budget 100\n  board {{\n\
             MIAU! IS! YOU! . FLAG! IS! WIN! . ROCK! IS! PUSH!\n\
             WALL! IS! STOP! . . . . . . . .\n\
             # # # # # # # # # # #\n\
             # m . . . . . . . . #\n\
             # . r . . . . r . . #\n\
             # . . . . . . . . . #\n\
             # . r . . . . . r f #\n\
             # # # # # # # # # # #\n  }}\n}}\n"
    );
    std::fs::write(&path, src).unwrap();
    (dir, path)
}

/// The range `solve` gives the bounded level.
fn bounded_range(path: &str) -> (usize, usize) {
    let (_, json, _) = miauc(&["solve", path, "--level", "big", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("one JSON object");
    assert_eq!(v["shortest"]["proven"], false, "{json}");
    let n = |k: &str| v["shortest"][k].as_u64().unwrap() as usize;
    (n("min"), n("max"))
}

/// The recorded-length diagnostics (M411, M420) of `check --format json`
/// output: code, severity and message of each.
fn length_diagnostics(out: &str) -> Vec<(String, String, String)> {
    out.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| {
            let code = v.get("code")?.as_str()?;
            matches!(code, "M411" | "M420").then(|| {
                (
                    code.to_string(),
                    v["severity"].as_str().unwrap_or("").to_string(),
                    v["message"].as_str().unwrap_or("").to_string(),
                )
            })
        })
        .collect()
}

/// Recorded steps against a shortest only bounded: inside the range an
/// info (M420, with the range), outside it M411 (a route shorter found, or
/// fewer steps than any route can take).
#[test]
fn recorded_steps_are_judged_against_the_range() {
    let (dir, path) = bounded_level("judge", None);
    let (fewest, longest) = bounded_range(path.to_str().unwrap());
    let codes = |steps: usize| {
        let (dir, path) = bounded_level(&format!("judge-{steps}"), Some(steps));
        let (_, out, _) = miauc(&["check", path.to_str().unwrap(), "--format", "json"]);
        let _ = std::fs::remove_dir_all(&dir);
        length_diagnostics(&out)
    };
    for steps in [fewest, longest] {
        let found = codes(steps);
        assert_eq!(found.len(), 1, "{steps}: {found:?}");
        let (code, severity, message) = &found[0];
        assert_eq!((code.as_str(), severity.as_str()), ("M420", "info"));
        assert!(
            message.contains(&format!("records {steps} steps, not proven shortest"))
                && message.contains(&format!("takes {fewest} to {longest} steps")),
            "{message}"
        );
    }
    let longer = codes(longest + 1);
    assert_eq!(longer.len(), 1, "{longer:?}");
    assert_eq!(longer[0].0, "M411");
    assert!(
        longer[0]
            .2
            .contains(&format!("a route of {longest} steps wins")),
        "{}",
        longer[0].2
    );
    if fewest > 1 {
        let shorter = codes(fewest - 1);
        assert_eq!(shorter.len(), 1, "{shorter:?}");
        assert_eq!(shorter[0].0, "M411");
        assert!(
            shorter[0]
                .2
                .contains(&format!("no winning route has fewer than {fewest} steps")),
            "{}",
            shorter[0].2
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recorded bound (`steps N at-least B`) inside what the search
/// established stays the info M420; steps above a winning route are wrong
/// (M411), and a bound above the steps it qualifies can't hold (M237, at
/// stage 2: the level isn't searched).
#[test]
fn a_recorded_bound_is_judged_against_the_range() {
    let (dir, path) = bounded_level("bound", None);
    let (fewest, longest) = bounded_range(path.to_str().unwrap());
    let judged = |steps: usize, bound: usize| {
        let (dir, path) = bounded_level(&format!("bound-{steps}-{bound}"), Some(steps));
        let text = std::fs::read_to_string(&path).unwrap().replace(
            &format!("steps  {steps}\n"),
            &format!("steps  {steps} at-least {bound}\n"),
        );
        std::fs::write(&path, text).unwrap();
        let (_, out, _) = miauc(&["check", path.to_str().unwrap(), "--format", "json"]);
        let _ = std::fs::remove_dir_all(&dir);
        length_diagnostics(&out)
            .into_iter()
            .map(|(code, _, message)| (code, message))
            .collect::<Vec<_>>()
    };
    let held = judged(longest, fewest);
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!(held[0].0, "M420", "{held:?}");
    let above = judged(longest + 1, fewest);
    assert_eq!(above.len(), 1, "{above:?}");
    assert_eq!(above[0].0, "M411");
    assert!(
        above[0].1.contains(&format!(
            "records {} steps; a route of {longest} steps wins (",
            longest + 1
        )),
        "{}",
        above[0].1
    );
    let (dir2, path2) = bounded_level("bound-over", Some(fewest));
    let text = std::fs::read_to_string(&path2).unwrap().replace(
        &format!("steps  {fewest}\n"),
        &format!("steps  {fewest} at-least {}\n", fewest + 1),
    );
    std::fs::write(&path2, text).unwrap();
    let (_, out, _) = miauc(&["check", path2.to_str().unwrap(), "--format", "json"]);
    let _ = std::fs::remove_dir_all(&dir2);
    let m237: Vec<&str> = out.lines().filter(|l| l.contains("\"M237\"")).collect();
    assert_eq!(m237.len(), 1, "{out}");
    assert!(
        m237[0].contains(&format!(
            "steps {fewest} at-least {} can't hold",
            fewest + 1
        )),
        "{}",
        m237[0]
    );
    assert!(length_diagnostics(&out).is_empty(), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A recorded solution that wins in fewer steps than the route the solver
/// found is the best route known: the range ends at its length, and the
/// check neither calls it wrong nor offers to replace it.
#[test]
fn a_recorded_solution_shorter_than_the_route_found_bounds_the_range() {
    let (dir, path) = bounded_level("recorded", None);
    let p = path.to_str().unwrap();
    let (fewest, longest) = bounded_range(p);
    // Along the top of the room, then down to the flag.
    let recorded = "rrrrrrrrddd";
    assert!(recorded.len() < longest, "{longest}");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace(
        "  title  \"Big\"\n",
        &format!("  title  \"Big\"\n  solution \"{recorded}\"\n"),
    );
    std::fs::write(&path, text).unwrap();
    let (_, out, _) = miauc(&["check", p, "--format", "json"]);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let level = lines
        .iter()
        .find(|v| v["level"] == "big" && v.get("result").is_some())
        .unwrap_or_else(|| panic!("no result line:\n{out}"));
    assert_eq!(level["route"], "RRRRRRRRDDD", "{out}");
    assert_eq!(
        level["shortest"],
        serde_json::json!({ "min": fewest, "max": recorded.len(), "proven": false })
    );
    let codes: Vec<&str> = lines.iter().filter_map(|v| v["code"].as_str()).collect();
    assert!(codes.contains(&"M420"), "{out}");
    assert!(
        !codes.contains(&"M411") && !codes.contains(&"M410"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `check --fix` records the best route found when the shortest isn't
/// proven, and says so; the check then reports the recorded length as not
/// proven (M420), not as wrong.
#[test]
fn check_fix_records_a_bounded_route_and_says_it_is_not_proven() {
    let (dir, path) = bounded_level("fix", None);
    let p = path.to_str().unwrap();
    let (fewest, longest) = bounded_range(p);
    let (_, _, err) = miauc(&["check", p, "--fix", "--jobs", "1"]);
    assert!(
        err.contains(&format!(
            "recorded the solution of 1 level (big ({longest} steps, not proven shortest: {fewest}..{longest}))"
        )),
        "{err}"
    );
    // The length goes in with the bound the search established.
    let fixed = std::fs::read_to_string(&path).unwrap();
    assert!(
        fixed.contains(&format!("steps      {longest} at-least {fewest}\n")),
        "{fixed}"
    );
    let (_, out, _) = miauc(&["check", p, "--format", "json"]);
    assert!(out.contains("\"M420\""), "{out}");
    assert!(
        !out.contains("\"M411\"") && !out.contains("\"M410\""),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `solve --timeout`: when the clock stops the shortest-route search before
/// any route is known, the best-first search still gets its turn (the
/// clock's last quarter), and the route it finds solves the level, bounded.
#[test]
fn solve_past_its_timeout_still_finds_a_route() {
    let dir = std::env::temp_dir().join(format!("miau-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("open.miau");
    // Nine rocks loose in an open room: far more states than a second
    // holds, and the flag 28 steps away, while a walk to it is plain.
    let src = "pack open-room {\n  name    \"Open room\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n}\n\n\
               level open {\n  title \"Open\"\n  board {\n\
               MIAU! IS! YOU! . ROCK! IS! PUSH! . FLAG! IS! WIN! . . . . . . . . .\n\
               . . . . . . . . . . . . . . . . . . . .\n\
               . m . . . . . . . . . . . . . . . . . .\n\
               . . . . . . . . . . . . . . . . . . . .\n\
               . . . r . . . r . . . . . . . . . . . .\n\
               . . . . . . . . . . . . . . r . . . . .\n\
               . . r . . . r . . . r . . . . . . . . .\n\
               . . . . . . . . . . . . . . . . . . . .\n\
               . . . r . . . . . r . . . . . . . . . .\n\
               . . . . . . . . . . . . . . . . . . . .\n\
               . . . . . . . . . . . . . . . r . . . .\n\
               . . . . . . . . . . . . . . . . . . . .\n\
               . . . . . . . . . . . . . . . . . . . f\n  }\n}\n";
    std::fs::write(&path, src).unwrap();
    let p = path.to_str().unwrap();
    let (code, out, _) = miauc(&["solve", p, "--level", "open", "--timeout", "1"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(field(&out, "result"), Some("solved"), "{out}");
    assert_eq!(field(&out, "limit"), Some("time (1 s)"), "{out}");
    let route = field(&out, "route").expect("a route");
    let (fewest, longest) = field(&out, "shortest")
        .and_then(|r| r.split_once(".."))
        .expect("a range");
    assert_eq!(longest.parse::<usize>().unwrap(), route.len(), "{out}");
    assert!(fewest.parse::<usize>().unwrap() < route.len(), "{out}");
    let (code, replay, _) = miauc(&["replay", p, "--level", "open", "--moves", route]);
    assert_eq!(code, 0, "{replay}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn output_is_the_same_whatever_the_jobs() {
    let one = miauc(&["check", BROKEN, "--jobs", "1"]);
    let two = miauc(&["check", BROKEN, "--jobs", "3"]);
    assert_eq!(one, two);
}

#[test]
fn json_output_carries_codes_and_level_results() {
    let (code, out, _) = miauc(&["check", BROKEN, "--format", "json"]);
    assert_eq!(code, 1);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object per line");
        assert!(v.is_object());
    }
    insta::assert_snapshot!("check_broken_json", out);
}

#[test]
fn level_and_shard_select_levels() {
    let (code, out, _) = miauc(&["check", BROKEN, "--level", "short", "--verbose"]);
    assert_eq!(code, 0, "warnings alone pass: {out}");
    assert!(out.contains("level short: solved in 2 steps, route RR"));
    assert!(!out.contains("level sealed"));
    let (code, _, _) = miauc(&["check", BROKEN, "--level", "short", "--deny", "warnings"]);
    assert_eq!(code, 1);
    let (code, _, err) = miauc(&["check", BROKEN, "--level", "nope"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = miauc(&["check", BROKEN, "--shard", "3/2"]);
    assert_eq!(code, 2);
    let mut seen = Vec::new();
    for shard in ["1/2", "2/2"] {
        let (_, out, _) = miauc(&["check", BROKEN, "--shard", shard, "--verbose"]);
        seen.extend(
            out.lines()
                .filter(|l| l.contains(": level "))
                .map(str::to_string),
        );
    }
    seen.sort();
    let (_, all, _) = miauc(&["check", BROKEN, "--verbose"]);
    let mut whole: Vec<String> = all
        .lines()
        .filter(|l| l.contains(": level "))
        .map(str::to_string)
        .collect();
    whole.sort();
    assert_eq!(seen, whole);
}

#[test]
fn clockwork_proof_level_passes_and_is_hands_off() {
    let (code, out, _) = miauc(&[
        "check",
        "packs/clockwork.miau",
        "--level",
        "mouse-keeps-time",
        "--verbose",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("level mouse-keeps-time: solved in 11 steps, route DRRRRRRRRRR"),
        "{out}"
    );
    assert!(out.contains("flags HANDS-OFF (allowed)"), "{out}");
}

#[test]
fn small_mechanism_drafts_pass() {
    for (level, route, flags) in [
        (
            "pallet-row",
            "LUURRDULLDDRRRRUULLLRDDLLUU",
            "BYPASS (allowed)",
        ),
        ("door-stop", "LURRURDDURRRRRR", "BYPASS (allowed)"),
        ("jam", "RRRRRRR", "BYPASS (allowed)"),
    ] {
        let (code, out, _) = miauc(&[
            "check",
            "packs/machine-room.miau",
            "--level",
            level,
            "--verbose",
        ]);
        assert_eq!(code, 0, "{out}");
        let line = format!(
            "level {level}: solved in {} steps, route {route}",
            route.len()
        );
        assert!(out.contains(&line), "{out}");
        assert!(out.contains(flags), "{out}");
    }
}

/// The whole bundled set, including the 2-million-state short-one-crate:
/// the test profile builds the binary with optimisations (Cargo.toml), so it runs in seconds.
#[test]
fn bundled_packs_pass() {
    let (code, out, err) = miauc(&["check", "packs", "--verbose"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("level short-one-crate: solved in 36 steps"),
        "{out}"
    );
}

#[test]
fn solve_prints_the_published_routes() {
    for (file, level, route) in [
        (
            "packs/machine-room.miau",
            "pallet-row",
            "LUURRDULLDDRRRRUULLLRDDLLUU",
        ),
        ("packs/machine-room.miau", "door-stop", "LURRURDDURRRRRR"),
        ("packs/machine-room.miau", "hand-off", "LUDLURRRRRURRRR"),
        ("packs/machine-room.miau", "jam", "RRRRRRR"),
        ("packs/clockwork.miau", "mouse-keeps-time", "DRRRRRRRRRR"),
    ] {
        let (code, out, err) = miauc(&["solve", file, "--level", level]);
        assert_eq!(code, 0, "{level}: {out}{err}");
        assert_eq!(field(&out, "result"), Some("solved"), "{out}");
        assert_eq!(field(&out, "route"), Some(route), "{out}");
        let steps = route.len().to_string();
        assert_eq!(field(&out, "steps"), Some(steps.as_str()));
        for key in ["states", "states/s", "peak memory", "rules at win"] {
            assert!(field(&out, key).is_some(), "{key} missing: {out}");
        }
    }
}

#[test]
fn solve_short_one_crate() {
    let (code, out, _) = miauc(&[
        "solve",
        "packs/machine-room.miau",
        "--level",
        "short-one-crate",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        field(&out, "route"),
        Some("RRRRRURDLLLUULDULLDLDRRRRRRDDRRUURUL")
    );
}

#[test]
fn solve_reports_unsolved_and_limit_and_constraints() {
    let (code, out, _) = miauc(&["solve", BROKEN, "--level", "sealed"]);
    assert_eq!(code, 1);
    assert_eq!(field(&out, "result"), Some("unsolved"));
    let (code, out, _) = miauc(&["solve", BROKEN, "--level", "too-big"]);
    assert_eq!(code, 1);
    assert_eq!(field(&out, "result"), Some("limit"));
    // LIMIT says which limit ran out and how far the search got.
    assert_eq!(field(&out, "limit"), Some("states (budget 5)"), "{out}");
    assert!(
        field(&out, "states").is_some_and(|s| s.starts_with("5 expanded (stored ")),
        "{out}"
    );
    assert!(field(&out, "depth").is_some(), "{out}");
    // A wall-clock timeout is a limit too, named as such.
    let (code, out, _) = miauc(&[
        "solve",
        "packs/machine-room.miau",
        "--level",
        "short-one-crate",
        "--timeout",
        "0",
    ]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(field(&out, "result"), Some("limit"), "{out}");
    assert_eq!(field(&out, "limit"), Some("time (0 s)"), "{out}");
    let (code, out, _) = miauc(&["solve", BROKEN, "--level", "too-big", "--budget", "1000"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(field(&out, "route"), Some("DDRRRR"));
    // FLAG IS WIN is active at reset: forbidding it leaves nothing to
    // explore, which is a usage error naming the rule, not a proof.
    let (code, out, err) = miauc(&[
        "solve",
        BROKEN,
        "--level",
        "short",
        "--forbid",
        "FLAG IS WIN",
    ]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(field(&out, "result"), None, "{out}");
    assert!(
        err.contains(
            "--forbid \"FLAG IS WIN\" proves nothing on level short: the rule is active at reset"
        ),
        "{err}"
    );
    // ROCK IS PUSH can never form in `needless`.
    let (code, out, _) = miauc(&[
        "solve",
        BROKEN,
        "--level",
        "needless",
        "--require",
        "ROCK IS PUSH",
    ]);
    assert_eq!(code, 1);
    assert_eq!(field(&out, "result"), Some("unsolved"));
    let (code, out, _) = miauc(&[
        "solve",
        BROKEN,
        "--level",
        "short",
        "--no-word-loss",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["route"], "RR");
    let (code, _, _) = miauc(&[
        "solve",
        BROKEN,
        "--level",
        "short",
        "--forbid",
        "NOPE IS WIN",
    ]);
    assert_eq!(code, 2);
}

#[test]
fn sarif_output_validates_against_the_schema() {
    let (code, out, _) = miauc(&["check", BROKEN, "--format", "sarif"]);
    assert_eq!(code, 1);
    let log: serde_json::Value = serde_json::from_str(&out).expect("one SARIF log");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/schemas/sarif-schema-2.1.0.json"))
        .expect("vendored schema");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema JSON");
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .should_validate_formats(true)
        .build(&schema)
        .expect("the SARIF schema compiles");
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let results = log["runs"][0]["results"].as_array().expect("results");
    for code in ["M401", "M402", "M405", "M408", "M410", "M416"] {
        assert!(
            results.iter().any(|r| r["ruleId"] == code),
            "{code} missing"
        );
    }
}

#[test]
fn github_annotations_name_level_and_code() {
    let (code, out, _) = miauc(&["check", BROKEN, "--format", "github"]);
    assert_eq!(code, 1);
    assert!(
        out.lines()
            .any(|l| l.starts_with("::error ") && l.contains("M401") && l.contains("sealed")),
        "{out}"
    );
}

/// Ctrl-C (SIGINT) stops a long search within moments, not at its end.
#[test]
fn ctrl_c_stops_a_search_promptly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_miauc"))
        .args([
            "solve",
            "tests/fixtures/check/big.miau",
            "--level",
            "open-room",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run miauc");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(
        child.try_wait().expect("poll").is_none(),
        "finished too early"
    );
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(sent.success());
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll") {
            break status;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(5),
            "still running 5 s after Ctrl-C"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let out = child.wait_with_output().expect("output");
    let out = String::from_utf8_lossy(&out.stdout);
    assert_eq!(field(&out, "result"), Some("cancelled"), "{out}");
}

const CLAIMS: &str = "tests/fixtures/check/claims.miau";

/// `(level, code)` of every diagnostic `check --format json` reports.
fn codes(file: &str) -> Vec<(String, String)> {
    let (_, out, _) = miauc(&["check", file, "--format", "json", "--jobs", "1"]);
    out.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| {
            let code = v.get("code")?.as_str()?.to_string();
            let level = v.get("level")?.as_str()?.to_string();
            Some((level, code))
        })
        .collect()
}

#[test]
fn breaking_a_rule_is_not_skippable_and_must_break_is_proven() {
    let found = codes(CLAIMS);
    let has = |level: &str, code: &str| found.iter().any(|(l, c)| l == level && c == code);
    // low-tide's only wins break WATER IS SINK: no M407, and must-break holds.
    assert!(!has("low-tide", "M407"), "{found:?}");
    assert!(!has("low-tide", "M417"), "{found:?}");
    assert!(!has("low-tide", "M419"), "{found:?}");
    // The rules never change in plug: skippable (allowed there, so info).
    assert!(has("plug", "M407"), "{found:?}");
    // dry-route is won with WATER IS SINK active throughout.
    assert!(has("dry-route", "M417"), "{found:?}");
    // MIAU IS WIN isn't active at reset: nothing to break.
    assert!(has("nothing-to-break", "M417"), "{found:?}");
}

#[test]
fn must_lose_word_is_proven_by_an_exhaustive_search() {
    let found = codes(CLAIMS);
    let has = |level: &str, code: &str| found.iter().any(|(l, c)| l == level && c == code);
    // plug: every win sinks the ROCK word.
    assert!(!has("plug", "M418"), "{found:?}");
    assert!(!has("plug", "M419"), "{found:?}");
    // low-tide wins without destroying a word.
    assert!(has("low-tide", "M418"), "{found:?}");
    let (_, out, _) = miauc(&["check", CLAIMS, "--level", "low-tide"]);
    assert!(
        out.contains(
            "Level low-tide: must-lose-word isn't needed: won in 10 steps without destroying a word (UUDDRRRRRR)."
        ),
        "{out}"
    );
    // With a budget too small to finish, the claim is unproven, not proven.
    // (The solve search needs 34 states, the no-word-loss proof 60.)
    let (_, out, _) = miauc(&[
        "check", CLAIMS, "--level", "plug", "--budget", "40", "--format", "json",
    ]);
    assert!(out.contains("\"code\":\"M419\""), "{out}");
    assert!(out.contains("must-lose-word isn't proven"), "{out}");
    assert!(!out.contains("\"code\":\"M418\""), "{out}");
}

#[test]
fn solve_keep_searches_wins_that_keep_a_rule() {
    let (code, out, _) = miauc(&[
        "solve",
        CLAIMS,
        "--level",
        "low-tide",
        "--keep",
        "WATER IS SINK",
    ]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(field(&out, "result"), Some("unsolved"));
    let (code, out, _) = miauc(&[
        "solve",
        CLAIMS,
        "--level",
        "dry-route",
        "--keep",
        "WATER IS SINK",
    ]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(field(&out, "result"), Some("solved"));
    // A kept rule that isn't active at reset is a usage error naming it.
    let (code, _, err) = miauc(&[
        "solve",
        CLAIMS,
        "--level",
        "low-tide",
        "--keep",
        "MIAU IS WIN",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--keep \"MIAU IS WIN\" proves nothing on level low-tide"),
        "{err}"
    );
}

/// A passing `--deny warnings` run prints one summary line and nothing
/// else; a failing one prints each diagnostic once, rustc's way, then
/// the denial and the summary.
#[test]
fn human_output_is_quiet_and_sums_up() {
    let (code, out, err) = miauc(&["check", "packs/clockwork.miau", "--deny", "warnings"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.starts_with("checked 9 levels in 1 pack: 9 solved, 0 errors, 0 warnings ("),
        "{out}"
    );
    let (code, out, _) = miauc(&["check", CLAIMS, "--level", "low-tide", "--deny", "warnings"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("check_low_tide_denied", out);
    // Each diagnostic once: no second header for the same code.
    assert_eq!(out.matches("[M319]").count(), 1, "{out}");
    // -q: errors (denied warnings are errors) and the summary only.
    let (_, quiet, _) = miauc(&["check", CLAIMS, "--level", "low-tide", "-q"]);
    assert!(quiet.contains("error[M418]"), "{quiet}");
    assert!(!quiet.contains("M319"), "{quiet}");
    assert!(
        quiet.ends_with(
            "   |\nchecked 1 level in 1 pack: 1 solved, 1 error, 1 warning (1 info hidden)\n"
        ),
        "{quiet}"
    );
    // --format concise: one line per diagnostic.
    let (_, concise, _) = miauc(&[
        "check", CLAIMS, "--level", "low-tide", "--format", "concise",
    ]);
    let lines: Vec<&str> = concise.lines().collect();
    // The level's stage 3 warning first, then the check's finding.
    assert!(lines[0].contains("[M319 word-trap]"), "{concise}");
    assert!(lines[1].starts_with("tests/fixtures/check/claims.miau:16:3: error[M418 must-lose-word-avoidable] Level low-tide"), "{concise}");
    assert!(
        lines.last().unwrap().starts_with("checked 1 level"),
        "{concise}"
    );
}

const EVENTS: &str = "tests/fixtures/check/events.miau";

/// Each claim over what happens holds on a level whose every win makes its
/// event happen, and is wrong, with its own code and a route that avoids
/// the event, on the same level with a shortcut.
#[test]
fn claims_over_events_are_proven_or_wrong_with_a_route() {
    let found = codes(EVENTS);
    let claims = ["M421", "M422", "M423", "M424", "M425", "M426", "M419"];
    for (level, code) in [
        ("ferry", "M421"),
        ("plank", "M422"),
        ("bloom", "M423"),
        ("gatehouse", "M424"),
        ("lock", "M425"),
        ("courier", "M426"),
    ] {
        let of = |l: &str| -> Vec<&str> {
            found
                .iter()
                .filter(|(x, c)| x == l && claims.contains(&c.as_str()))
                .map(|(_, c)| c.as_str())
                .collect()
        };
        assert_eq!(of(level), Vec::<&str>::new(), "{level}: {found:?}");
        assert_eq!(of(&format!("{level}-wrong")), vec![code], "{found:?}");
    }
    let (_, out, _) = miauc(&["check", EVENTS, "--format", "concise", "--jobs", "1"]);
    let wrong: String = out
        .lines()
        .filter(|l| claims.iter().any(|c| l.contains(&format!("[{c} "))))
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!("check_events_wrong_claims", wrong);
}

#[test]
fn unknown_level_is_named_before_any_pack_diagnostic() {
    let (code, out, err) = miauc(&["check", CLAIMS, "--level", "lowtide"]);
    assert_eq!(code, 2);
    assert_eq!(out, "", "nothing of the pack is printed");
    assert_eq!(
        err.trim_end(),
        "miauc: no level lowtide in the inputs; did you mean `low-tide`? The levels are: low-tide, dry-route, plug, nothing-to-break."
    );
    let (code, _, err) = miauc(&["solve", CLAIMS, "--level", "low_tide"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `low-tide`?"), "{err}");
}

#[test]
fn check_fix_records_the_solvers_routes() {
    let dir = std::env::temp_dir().join(format!("miau-check-fix-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fix.miau");
    let src = "pack fix {\n  name    \"Fix\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n}\n\nlevel walk {\n  title    \"Walk\"\n  solution \"RRRRRRR\"\n  board {\n    MIAU IS YOU . . . FLAG IS WIN\n    .    .  .   . . . .    .  .\n    @    .  .   . . . f    .  .\n  }\n}\n";
    std::fs::write(&path, src).unwrap();
    let p = path.to_str().unwrap();
    // The recorded route wins one move early: said as such, not "doesn't win".
    let (_, before, _) = miauc(&["check", p, "--format", "json"]);
    assert!(
        before.contains(
            "Level walk: the recorded solution wins at step 6 of 7: the last move is extra (`miauc check --fix` trims it)."
        ),
        "{before}"
    );
    let (code, _, err) = miauc(&["check", p, "--fix", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("recorded the solution of 1 level (walk)"),
        "{err}"
    );
    let fixed = std::fs::read_to_string(&path).unwrap();
    assert!(
        fixed.contains("  solution   \"RRRRRR\"\n  steps      6\n"),
        "{fixed}"
    );
    // Written as miauc fmt would, and the check now holds without --fix.
    let (code, _, _) = miauc(&["fmt", "--check", p]);
    assert_eq!(code, 0, "{fixed}");
    let (code, out, _) = miauc(&["check", p, "--format", "json"]);
    assert_eq!(code, 0);
    assert!(!out.contains("M410") && !out.contains("M411"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// In a world, M337 asks for each missing field: the solution and steps
/// once (one `--fix` settles both), the category on its own, which `--fix`
/// leaves to the author.
#[test]
fn check_fix_settles_only_the_fields_it_writes() {
    let dir = std::env::temp_dir().join(format!("miau-check-fix-world-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("world.miau");
    let src = "pack wfix {\n  name    \"W\"\n  version \"1.0.0\"\n  engine  1\n  rules   2\n  world   glyph \"🌊\" tagline \"T.\" accent sink\n}\n\nlevel walk {\n  title      \"Walk\"\n  introduces WIN\n  board {\n    MIAU IS YOU . . . FLAG IS WIN\n    .    .  .   . . . .    .  .\n    @    .  .   . . . f    .  .\n  }\n}\n";
    std::fs::write(&path, src).unwrap();
    let p = path.to_str().unwrap();
    let m337 = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.contains("\"M337\""))
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["path"].as_str().unwrap_or("").to_string()
            })
            .collect()
    };
    let (_, before, _) = miauc(&["check", p, "--format", "json"]);
    // One level: "1 level", not "1 levels".
    assert!(
        before.contains("World wfix has 1 level; a world has 6 to 8."),
        "{before}"
    );
    assert_eq!(
        m337(&before),
        ["levels[0].category", "levels[0].solution"],
        "{before}"
    );
    assert!(
        before.contains("records no solution or steps; `miauc check --fix` records"),
        "{before}"
    );
    let (_, fixed, err) = miauc(&["check", p, "--fix", "--format", "json"]);
    assert!(
        err.contains("recorded the solution of 1 level (walk)"),
        "{err}"
    );
    assert_eq!(m337(&fixed), ["levels[0].category"], "{fixed}");
    let (_, after, _) = miauc(&["check", p, "--format", "json"]);
    assert_eq!(m337(&after), ["levels[0].category"], "{after}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An uppercase `S` on a board meant as the legend key `s` (SHELL): the
/// did-you-mean names the key and its thing, the fix writes the key, and the
/// unrelated SNIK keeps its own spelling fix (catalogue 1.7).
#[test]
fn a_legend_key_in_capitals_suggests_the_key() {
    let (code, out, err) = miauc(&[
        "check",
        "tests/fixtures/check/key_case.miau",
        "--format",
        "concise",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let s = out
        .lines()
        .find(|l| l.contains("M301") && l.contains(": S isn't"))
        .unwrap_or_else(|| panic!("no M301 on S:\n{out}"));
    assert!(
        s.contains("S isn't a thing in this pack. Did you mean the legend key `s` (SHELL)?"),
        "{s}"
    );
    assert!(!out.contains("Did you mean a property"), "{out}");
    let (_, human, _) = miauc(&["check", "tests/fixtures/check/key_case.miau"]);
    assert!(
        human.contains("= help: Replace with the legend key s (SHELL)"),
        "{human}"
    );
    assert!(human.contains("= help: Replace with SINK"), "{human}");
    insta::assert_snapshot!("check_key_case_concise", out);
}

/// `solve` and `check` count states of the same search the same way, and
/// each says which search and which count a figure is: `solve` prints the
/// solve search's states expanded and stored; `check --verbose` prints the
/// same pair for its solve search, then what all its searches expanded; the
/// JSON of both uses the same names.
#[test]
fn solve_and_check_name_their_state_counts() {
    let (code, solve, _) = miauc(&["solve", "packs/tidewater.miau", "--level", "low-tide"]);
    assert_eq!(code, 0, "{solve}");
    assert_eq!(field(&solve, "search"), Some("solve"), "{solve}");
    let states = field(&solve, "states").expect("states line");
    assert!(states.contains(" expanded (stored "), "{solve}");
    assert!(
        field(&solve, "stored").is_none(),
        "one line for both: {solve}"
    );
    let (code, check, _) = miauc(&[
        "check",
        "packs/tidewater.miau",
        "--level",
        "low-tide",
        "--verbose",
    ]);
    assert_eq!(code, 0, "{check}");
    let line = check
        .lines()
        .find(|l| l.contains("level low-tide: solved"))
        .unwrap_or_else(|| panic!("no level line:\n{check}"));
    // low-tide's check also runs the words-frozen, no-rule-change and
    // must-break searches and the lesson coverage of SINK: five in all,
    // summed only where it says so.
    assert!(
        line.contains(&format!(", states: {states} by solve, ")),
        "solve printed {states:?}; check: {line}"
    );
    assert!(
        line.contains(" expanded by the check's 5 searches, lessons SINK skippable"),
        "{line}"
    );
    // JSON: the same names in both commands.
    let (_, json, _) = miauc(&[
        "solve",
        "packs/tidewater.miau",
        "--level",
        "low-tide",
        "--format",
        "json",
    ]);
    let solve: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    let (_, json, _) = miauc(&[
        "check",
        "packs/tidewater.miau",
        "--level",
        "low-tide",
        "--format",
        "json",
    ]);
    let level: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    let first = &level["searches"][0];
    assert_eq!(first["search"], solve["search"], "{json}");
    for key in ["expanded", "stored"] {
        assert!(solve[key].is_u64(), "{solve}");
        assert_eq!(first[key], solve[key], "{key}: {json}");
    }
    assert!(solve.get("states").is_none() && first.get("states").is_none());
}

/// `solve --help` lists only the formats `solve` accepts (no SARIF or
/// GitHub annotations, which `check` has), and refuses the others.
#[test]
fn solve_help_lists_only_its_formats() {
    let (code, help, _) = miauc(&["solve", "--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("human") && help.contains("json"), "{help}");
    for other in ["sarif", "github", "concise"] {
        assert!(!help.contains(other), "{other} listed:\n{help}");
    }
    let (code, _, err) = miauc(&[
        "solve",
        "packs/tidewater.miau",
        "--level",
        "low-tide",
        "--format",
        "sarif",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// `--memory` caps the whole run, shared by the parallel searches: a tiny
/// cap ends the big searches in LIMIT, and the verdicts (the whole output)
/// are the same on one thread and on four, whichever levels ran together.
#[test]
fn one_memory_cap_for_the_run_gives_the_same_verdicts_whatever_the_jobs() {
    let pack = "packs/crate-works.miau";
    let (_, full, _) = miauc(&["check", pack, "--jobs", "1", "-v"]);
    let (code1, one, err1) = miauc(&["check", pack, "--memory", "1M", "--jobs", "1", "-v"]);
    let (code4, four, err4) = miauc(&["check", pack, "--memory", "1M", "--jobs", "4", "-v"]);
    assert_eq!(one, four, "{err1}{err4}");
    assert_eq!(code1, code4);
    let limits = |s: &str| s.lines().filter(|l| l.contains("LIMIT")).count();
    assert!(
        limits(&one) > limits(&full),
        "a 1 MiB cap stops some search:\n{one}"
    );
    // Every level still gets its result line, in level order.
    let levels = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| {
                l.split(": level ")
                    .nth(1)?
                    .split(':')
                    .next()
                    .map(String::from)
            })
            .collect()
    };
    assert_eq!(levels(&one), levels(&full));
    let (code, _, err) = miauc(&["check", pack, "--memory", "12"]);
    assert_eq!(code, 2);
    assert!(err.contains("below 1M"), "{err}");
}

/// Two files declaring one pack id: each is fine alone, so only the run over
/// both finds it. `check` reports M248 at the later file's header, naming the
/// earlier one, and counts it in the summary; every format says so.
#[test]
fn two_files_with_one_pack_id_are_an_error_of_the_run() {
    let dir = std::env::temp_dir().join(format!("miau-check-twin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let walks = std::fs::read_to_string("tests/fixtures/ci/walks.miau").unwrap();
    std::fs::write(dir.join("a.miau"), &walks).unwrap();
    std::fs::write(
        dir.join("b.miau"),
        walks.replace("\"Walks\"", "\"More walks\""),
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    let (code, out, err) = miauc(&["check", d, "--deny", "warnings"]);
    assert_eq!(code, 1, "{out}{err}");
    let b = dir.join("b.miau").display().to_string();
    let a = dir.join("a.miau").display().to_string();
    assert!(
        out.contains("error[M248]: Pack id walks is already declared by"),
        "{out}"
    );
    assert!(out.contains(&format!("--> {b}:4:1")), "{out}");
    assert!(
        out.contains(&format!(
            "already declared by {a}: both packs would build walks.json"
        )),
        "{out}"
    );
    assert!(
        out.lines()
            .last()
            .unwrap_or_default()
            .starts_with("checked 8 levels in 2 packs: 8 solved, 1 error, 0 warnings"),
        "{out}"
    );
    // Alone, each file passes.
    let (code, out, err) = miauc(&["check", &a, "--deny", "warnings"]);
    assert_eq!(code, 0, "{out}{err}");
    // GitHub annotations: the error on b.miau, the summary on stderr.
    let (code, out, err) = miauc(&["check", d, "--format", "github"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.lines()
            .any(|l| l.starts_with(&format!("::error file={b},line=4")) && l.contains("M248")),
        "{out}"
    );
    assert!(err.contains("1 error, 0 warnings"), "{err}");
    // Every shard of a sharded run reports it (it concerns no one level).
    for shard in ["1/2", "2/2"] {
        let (code, out, _) = miauc(&["check", d, "--shard", shard]);
        assert_eq!(code, 1, "{shard}: {out}");
        assert!(out.contains("error[M248]"), "{shard}: {out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Machine formats keep stdout for the log or the annotations; the summary
/// line goes to stderr, so a clean run's log still says what was checked.
#[test]
fn github_and_sarif_print_the_summary_on_stderr() {
    for format in ["github", "sarif"] {
        let (code, out, err) =
            miauc(&["check", "tests/fixtures/ci/walks.miau", "--format", format]);
        assert_eq!(code, 0, "{format}: {out}{err}");
        assert!(
            !out.contains("checked "),
            "{format}: the summary is on stdout: {out}"
        );
        let summary = err.lines().last().unwrap_or_default();
        assert!(
            summary.starts_with("checked ")
                && summary.contains(" in 1 pack: ")
                && summary.ends_with("0 errors, 0 warnings"),
            "{format}: {err}"
        );
    }
}

/// The root cause first: in a level whose property is misspelt (STPO) and
/// in one whose contact words have no `pair` line, the M301 warning is
/// printed before the check's findings, and each finding points at it as
/// the likely cause, offering no fix that would write its effect down.
#[test]
fn a_levels_warnings_come_before_the_findings_they_explain() {
    const CAUSES: &str = "tests/fixtures/check/causes.miau";
    let (code, concise, _) = miauc(&["check", CAUSES, "--format", "concise"]);
    assert_eq!(code, 1, "{concise}");
    for level in ["misspelt", "unpaired"] {
        let codes: Vec<&str> = concise
            .lines()
            .filter(|l| l.contains(&format!("Level {level}")))
            .filter_map(|l| l.split_once("[M").map(|(_, c)| &c[..3]))
            .collect();
        let first_finding = codes.iter().position(|c| c.starts_with('4'));
        let last_warning = codes.iter().rposition(|c| c.starts_with('3'));
        assert!(
            first_finding.is_some() && last_warning < first_finding,
            "{level}: {codes:?}\n{concise}"
        );
    }
    let (_, human, _) = miauc(&["check", CAUSES]);
    assert!(
        human.contains(
            "----- because STPO isn't a property (M301), this may follow from it: fix that first"
        ),
        "{human}"
    );
    assert!(
        !human.contains("Replace the solution with the solver's shortest route"),
        "{human}"
    );
    insta::assert_snapshot!("check_causes_human", human);
    insta::assert_snapshot!("check_causes_concise", concise);
}

/// `check --fix` records no route in a level whose findings may follow from
/// a warning: the route the solver found there wins only because of it.
#[test]
fn check_fix_waits_for_the_cause() {
    let dir = std::env::temp_dir().join(format!("miau-check-fix-cause-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("causes.miau");
    let src = std::fs::read_to_string("tests/fixtures/check/causes.miau").unwrap();
    std::fs::write(&path, &src).unwrap();
    let (_, _, err) = miauc(&["check", path.to_str().unwrap(), "--fix"]);
    assert!(!err.contains("recorded the solution"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), src);
    let _ = std::fs::remove_dir_all(&dir);
}
