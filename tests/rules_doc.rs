//! Every example board of `docs/rules.md` is a test. The page's ```miau
//! blocks are levels; together, under one pack header, they are the pack
//! `rules.miau`, compiled by the real front end. Each level is followed by
//! the blocks that say what it does, and this test checks each against the
//! engine:
//!
//! - ```play: the inputs, every notable event of reset and of each input
//!   (transformations, removals, crumbles, gates, refused YOUs, rule changes,
//!   rejections, the win), and the result, optionally the rules and the board
//!   at the end and warnings the level raises. The events are compared in
//!   full: an event the page leaves out fails the test as much as a wrong one.
//! - ```solve: a `miauc solve` command, run as the real binary on
//!   `rules.miau`, and lines its output must contain (or its exit status).
//! - ```check: the exact set of stage 4 codes `miauc check` raises.

use miau::compile::{SourceKind, analyse, compile, legend_keys};
use miau::diag::Severity;
use miau::engine::{BlockReason, Cause, Game, GateCause, Input, State, TurnResult, When};
use miau::model::{Level, Pack};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

/// The page, read at run time (`MIAU_RULES_DOC` names another copy, e.g. a draft).
fn doc() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        let path = std::env::var("MIAU_RULES_DOC")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/docs/rules.md").to_string());
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    })
}

/// The pack header the page's levels are compiled under (the page names it).
const HEADER: &str = "pack rules {
  name     \"Rules examples\"
  version  \"1.0.0\"
  engine   1
  rules    2
}
";

/// A fenced block of the page: its tag, text and the line its text starts on.
#[derive(Debug, Clone)]
struct Block {
    tag: String,
    text: String,
    line: usize,
}

fn blocks() -> Vec<Block> {
    let mut out = Vec::new();
    let mut cur: Option<Block> = None;
    for (n, line) in doc().lines().enumerate() {
        let t = line.trim_start();
        match &mut cur {
            None => {
                if let Some(tag) = t.strip_prefix("```") {
                    cur = Some(Block {
                        tag: tag.trim().to_string(),
                        text: String::new(),
                        line: n + 2,
                    });
                }
            }
            Some(b) => {
                if t == "```" {
                    out.extend(cur.take());
                } else {
                    b.text.push_str(line);
                    b.text.push('\n');
                }
            }
        }
    }
    assert!(cur.is_none(), "docs/rules.md: an unclosed code block");
    out
}

/// The level id of a ```miau block (`level ID {` on its first statement line).
fn level_id(b: &Block) -> String {
    let first = b
        .text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        .unwrap_or_default();
    let id = first
        .strip_prefix("level ")
        .and_then(|r| r.strip_suffix(" {"))
        .unwrap_or_else(|| {
            panic!(
                "docs/rules.md line {}: a miau block is one level, `level ID {{`",
                b.line
            )
        });
    id.to_string()
}

/// The example pack: the header and every level of the page, in page order.
fn source() -> &'static str {
    static SRC: OnceLock<String> = OnceLock::new();
    SRC.get_or_init(|| {
        let mut s = HEADER.to_string();
        for b in blocks().iter().filter(|b| b.tag == "miau") {
            s.push('\n');
            s.push_str(&b.text);
        }
        s
    })
}

fn pack() -> &'static Pack {
    static PACK: OnceLock<Pack> = OnceLock::new();
    PACK.get_or_init(|| {
        let compiled = compile(source(), SourceKind::Miau);
        let errors: Vec<String> = compiled
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| format!("{} {}", d.code(), d.message))
            .collect();
        assert!(
            errors.is_empty(),
            "the page's levels have errors: {errors:#?}"
        );
        compiled.pack.expect("a pack model")
    })
}

fn level(id: &str) -> &'static Level {
    pack()
        .levels
        .iter()
        .find(|l| l.id.text == id)
        .unwrap_or_else(|| panic!("no level {id}"))
}

/// The effective rules of a state, each once, in reading order.
fn rule_texts(game: &Game, s: &State) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in &game.rules(s).records {
        let t = format!("{} IS {}", game.name(r.subject), game.name(r.predicate));
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

fn cause(game: &Game, c: Cause) -> String {
    match c {
        Cause::Sink => "sink".into(),
        Cause::Defeat => "defeat".into(),
        Cause::Pair(i) => game.pairs[i as usize].cause.clone(),
    }
}

fn reason(r: BlockReason) -> &'static str {
    r.as_str()
}

/// Everything a ```play block can state, computed from the engine.
#[derive(Debug, Default)]
struct Outcome {
    moves: String,
    events: Vec<String>,
    rules: Vec<String>,
    board: Vec<String>,
    result: String,
}

fn play(level: &Level, moves: &str) -> Outcome {
    let game = Game::new(level);
    let (mut state, reset) = game.reset();
    let mut events = Vec::new();
    let mut ev: Vec<String> = Vec::new();
    for t in &reset.transformed {
        ev.push(format!("{} becomes {}", game.id(t.id), game.name(t.to)));
    }
    for d in &reset.destroyed {
        ev.push(format!(
            "{} destroyed ({})",
            game.id(d.id),
            cause(&game, d.cause)
        ));
    }
    if reset.won_at_start {
        ev.push("won at start".into());
    }
    if !ev.is_empty() {
        events.push(format!("reset: {}", ev.join("; ")));
    }
    let mut goals = reset.goals;
    let mut turns = 0;
    let mut won_on = None;
    let mut lost_on = None;
    for (i, ch) in moves.chars().enumerate() {
        let input = Input::from_char(ch).expect("moves are U D L R W");
        let mut ev: Vec<String> = Vec::new();
        match game.step(&state, input) {
            TurnResult::Rejected {
                reason: why,
                blocked,
            } => {
                let mut line = format!("rejected ({})", why.as_str());
                let who: Vec<String> = blocked
                    .iter()
                    .map(|b| match b.blocker {
                        Some(k) => {
                            format!("{} by {} ({})", game.id(b.id), game.id(k), reason(b.reason))
                        }
                        None => format!("{} ({})", game.id(b.id), reason(b.reason)),
                    })
                    .collect();
                if !who.is_empty() {
                    line.push_str(": ");
                    line.push_str(&who.join(", "));
                }
                ev.push(line);
            }
            TurnResult::Accepted {
                state: next,
                report,
            } => {
                turns += 1;
                for b in &report.blocked {
                    ev.push(match b.blocker {
                        Some(k) => format!(
                            "{} blocked by {} ({})",
                            game.id(b.id),
                            game.id(k),
                            reason(b.reason)
                        ),
                        None => format!("{} blocked ({})", game.id(b.id), reason(b.reason)),
                    });
                }
                for t in &report.transformed {
                    let when = if t.when == When::AfterAutomata {
                        " after the automata"
                    } else {
                        ""
                    };
                    ev.push(format!(
                        "{} becomes {}{when}",
                        game.id(t.id),
                        game.name(t.to)
                    ));
                }
                for c in &report.crumbled {
                    ev.push(match c.to {
                        Some(to) => format!("{} crumbles into {}", game.id(c.id), game.name(to)),
                        None => format!("{} crumbles away", game.id(c.id)),
                    });
                }
                for d in &report.destroyed {
                    ev.push(format!(
                        "{} destroyed ({})",
                        game.id(d.id),
                        cause(&game, d.cause)
                    ));
                }
                for g in &report.gates {
                    ev.push(format!(
                        "{} {}",
                        game.id(g.id),
                        match g.cause {
                            GateCause::Pressed => "opens (pressed)",
                            GateCause::Released => "closes (released)",
                            GateCause::Jammed => "stays open (jammed)",
                        }
                    ));
                }
                let old = rule_texts(&game, &state);
                let new = rule_texts(&game, &next);
                for r in new.iter().filter(|r| !old.contains(r)) {
                    ev.push(format!("+ {r}"));
                }
                for r in old.iter().filter(|r| !new.contains(r)) {
                    ev.push(format!("- {r}"));
                }
                if report.won {
                    ev.push("won".into());
                    won_on = Some(turns);
                }
                if report.lost_control {
                    ev.push("lost control".into());
                    lost_on = Some(turns);
                }
                goals = report.goals;
                state = next;
            }
        }
        if !ev.is_empty() {
            events.push(format!("{} {ch}: {}", i + 1, ev.join("; ")));
        }
    }
    let plural = |n: usize| if n == 1 { "turn" } else { "turns" };
    let mut result = match (won_on, lost_on) {
        (Some(n), _) => format!("won on turn {n}"),
        (None, Some(n)) => format!("lost control on turn {n}"),
        (None, None) => format!("not won after {turns} {}", plural(turns)),
    };
    if goals.1 > 0 {
        result.push_str(&format!(", goals {}/{}", goals.0, goals.1));
    }
    let (file, _) = miau::syntax::parse(source());
    let keys = legend_keys(&file, &level.id.text);
    let key_of = |noun: &str, channel: Option<&str>| keys.get(noun, channel);
    let board = game
        .render_board(&state, &key_of)
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    Outcome {
        moves: moves.to_string(),
        events,
        rules: rule_texts(&game, &state),
        board,
        result,
    }
}

/// A ```play block as written: which optional parts it states.
#[derive(Debug, Default)]
struct Stated {
    moves: String,
    events: Vec<String>,
    rules: Option<Vec<String>>,
    board: Option<Vec<String>>,
    result: Option<String>,
    warns: Vec<String>,
}

fn parse_play(b: &Block) -> Stated {
    let mut s = Stated::default();
    let mut in_board = false;
    for line in b.text.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if in_board && line.starts_with("  ") {
            s.board
                .get_or_insert_with(Vec::new)
                .push(t.split_whitespace().collect::<Vec<_>>().join(" "));
            continue;
        }
        in_board = false;
        if let Some(m) = t.strip_prefix("moves:") {
            s.moves = m.split_whitespace().collect();
        } else if let Some(r) = t.strip_prefix("rules:") {
            s.rules = Some(
                r.split(';')
                    .map(str::trim)
                    .filter(|x| !x.is_empty())
                    .map(String::from)
                    .collect(),
            );
        } else if t == "board:" {
            in_board = true;
            s.board = Some(Vec::new());
        } else if let Some(r) = t.strip_prefix("result:") {
            s.result = Some(r.trim().to_string());
        } else if let Some(w) = t.strip_prefix("warns:") {
            s.warns = w.split_whitespace().map(String::from).collect();
        } else if t.starts_with("reset:")
            || t.split_once(':').is_some_and(|(k, _)| {
                let mut p = k.split(' ');
                p.next().is_some_and(|n| n.parse::<usize>().is_ok())
                    && p.next().is_some_and(|l| l.len() == 1)
                    && p.next().is_none()
            })
        {
            s.events
                .push(t.split_whitespace().collect::<Vec<_>>().join(" "));
        } else {
            panic!(
                "docs/rules.md line {}: a play block line is `moves:`, `reset:`, `N X:`, \
                 `rules:`, `board:`, `result:` or `warns:`, not {t:?}",
                b.line
            );
        }
    }
    s
}

/// The ```play block the engine would write, for the failure message.
fn written(o: &Outcome) -> String {
    let mut s = format!("moves: {}\n", o.moves);
    for e in &o.events {
        s.push_str(e);
        s.push('\n');
    }
    s.push_str(&format!("rules: {}\nboard:\n", o.rules.join("; ")));
    for r in &o.board {
        s.push_str(&format!("  {r}\n"));
    }
    s.push_str(&format!("result: {}\n", o.result));
    s
}

/// Stage 1 to 3 warning and error codes of one level.
fn level_codes(id: &str) -> BTreeSet<String> {
    analyse(source(), SourceKind::Miau)
        .diagnostics
        .iter()
        .filter(|d| d.level.as_deref() == Some(id) && d.severity != Severity::Info)
        .map(|d| d.code().to_string())
        .collect()
}

/// The blocks that follow each level, with the level's id.
fn examples() -> Vec<(String, Block, Vec<Block>)> {
    let mut out: Vec<(String, Block, Vec<Block>)> = Vec::new();
    for b in blocks() {
        match b.tag.as_str() {
            "miau" => out.push((level_id(&b), b, Vec::new())),
            "play" | "solve" | "check" => match out.last_mut() {
                Some(last) => last.2.push(b),
                None => panic!(
                    "docs/rules.md line {}: a {} block before any level",
                    b.line, b.tag
                ),
            },
            _ => {}
        }
    }
    out
}

#[test]
fn every_example_is_a_canonical_level_with_a_stated_outcome() {
    let all = examples();
    assert!(all.len() >= 40, "found {} examples", all.len());
    let mut ids = BTreeSet::new();
    for (id, b, follow) in &all {
        assert!(ids.insert(id.clone()), "level {id} is on the page twice");
        assert!(
            !follow.is_empty(),
            "docs/rules.md line {}: level {id} has no play, solve or check block after it",
            b.line
        );
        // Each example is written as `miauc fmt` writes it.
        let alone = format!("{HEADER}\n{}", b.text);
        let formatted = miau::fmt::format(&alone).expect("formats");
        assert_eq!(
            formatted, alone,
            "docs/rules.md line {}: level {id} isn't in canonical form",
            b.line
        );
    }
    // The whole pack compiles without errors.
    assert_eq!(pack().levels.len(), all.len());
}

#[test]
fn every_play_block_is_what_the_engine_does() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (id, _, follow) in examples() {
        for b in follow.iter().filter(|b| b.tag == "play") {
            count += 1;
            let stated = parse_play(b);
            let got = play(level(&id), &stated.moves);
            let mut wrong = Vec::new();
            if stated.events != got.events {
                wrong.push("events");
            }
            if stated.result.as_deref() != Some(got.result.as_str()) {
                wrong.push("result");
            }
            if stated.rules.as_ref().is_some_and(|r| *r != got.rules) {
                wrong.push("rules");
            }
            if stated.board.as_ref().is_some_and(|r| *r != got.board) {
                wrong.push("board");
            }
            let codes = level_codes(&id);
            if stated.warns.iter().any(|w| !codes.contains(w)) {
                wrong.push("warns");
            }
            if !wrong.is_empty() {
                failures.push(format!(
                    "docs/rules.md line {}, level {id}: wrong {}; the engine gives\n{}(warnings: {})",
                    b.line,
                    wrong.join(", "),
                    written(&got),
                    codes.iter().cloned().collect::<Vec<_>>().join(" ")
                ));
            }
        }
    }
    assert!(count >= 40, "found {count} play blocks");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Splits a command line at spaces, keeping double-quoted parts whole.
fn words(cmd: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in cmd.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn pack_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("miau-rules-doc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("rules.miau"), source()).expect("write rules.miau");
        dir
    })
}

#[test]
fn every_solve_block_is_what_miauc_solve_prints() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (_, _, follow) in examples() {
        for b in follow.iter().filter(|b| b.tag == "solve") {
            count += 1;
            let mut lines = b.text.lines().filter(|l| !l.trim().is_empty());
            let cmd = lines
                .next()
                .and_then(|l| l.strip_prefix("$ "))
                .unwrap_or_else(|| {
                    panic!("docs/rules.md line {}: `$ miauc solve …` first", b.line)
                });
            let args = words(cmd);
            assert_eq!(
                args[..3],
                ["miauc", "solve", "rules.miau"],
                "docs/rules.md line {}",
                b.line
            );
            let at = args.iter().position(|a| a == "--level");
            let named = at.and_then(|i| args.get(i + 1)).map(String::as_str);
            assert!(
                named.is_some_and(|l| pack().levels.iter().any(|x| x.id.text == l)),
                "docs/rules.md line {}: solve a level of the page",
                b.line
            );
            let out = Command::new(env!("CARGO_BIN_EXE_miauc"))
                .current_dir(pack_dir())
                .args(&args[1..])
                .output()
                .expect("miauc runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            let code = out.status.code().unwrap_or(-1);
            for want in lines {
                let want = want.trim();
                let ok = match want.strip_prefix("exit: ") {
                    Some(n) => n.parse::<i32>().ok() == Some(code),
                    None => stdout.lines().any(|l| l.trim() == want),
                };
                if !ok {
                    failures.push(format!(
                        "docs/rules.md line {}: `{cmd}` doesn't give `{want}`; it exits {code} with\n{stdout}{}",
                        b.line,
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
            }
        }
    }
    assert!(count >= 5, "found {count} solve blocks");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_check_block_is_what_the_check_raises() {
    let mut failures = Vec::new();
    let mut count = 0;
    let cancel = AtomicBool::new(false);
    for (id, _, follow) in examples() {
        for b in follow.iter().filter(|b| b.tag == "check") {
            count += 1;
            let stated: BTreeSet<String> = b
                .text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && *l != "(nothing)")
                .map(String::from)
                .collect();
            let index = pack()
                .levels
                .iter()
                .position(|l| l.id.text == id)
                .expect("level");
            let report = miau::check::check_level(
                pack(),
                level(&id),
                index,
                miau::check::Options::default(),
                &cancel,
                &mut |_| {},
            );
            let got: BTreeSet<String> = report
                .diagnostics
                .iter()
                .map(|d| format!("{} {}", d.code(), d.info.name))
                .collect();
            if got != stated {
                failures.push(format!(
                    "docs/rules.md line {}, level {id}: the check raises\n{}",
                    b.line,
                    got.iter().cloned().collect::<Vec<_>>().join("\n")
                ));
            }
        }
    }
    assert!(count >= 4, "found {count} check blocks");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The rows of the first table after `heading`, cells trimmed, header and
/// separator skipped.
fn table_after(heading: &str) -> Vec<Vec<String>> {
    let d = doc();
    let at = d
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("docs/rules.md has no `{heading}`"));
    d[at..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            let inner = l.trim().trim_start_matches('|').trim_end_matches('|');
            // `\|` is a literal bar inside a cell.
            inner
                .replace("\\|", "\u{0}")
                .split('|')
                .map(|c| c.trim().replace('\u{0}', "|"))
                .collect()
        })
        .collect()
}

/// The built-in glyph table as the code has it.
fn builtin_rows() -> Vec<Vec<String>> {
    miau::model::BUILTIN_GLYPHS
        .iter()
        .map(|(noun, glyph, faces)| {
            vec![
                format!("`{noun}`"),
                glyph.to_string(),
                if faces.is_some() { "yes" } else { "no" }.to_string(),
            ]
        })
        .collect()
}

/// The default legend table as the code has it, with the glyph each key's
/// thing gets without a palette entry.
fn legend_rows() -> Vec<Vec<String>> {
    miau::lower::DEFAULT_LEGEND
        .iter()
        .map(|(key, noun, channel)| {
            let thing = match channel {
                Some(c) => format!("{noun}, channel {c}"),
                None => noun.to_string(),
            };
            let glyph = match (channel, miau::model::builtin_glyph(noun)) {
                (Some(c), _) => format!("drawn by the game as the {c} {}", noun.to_lowercase()),
                (None, Some(g)) => format!("{g} (built-in)"),
                (None, None) => "none: give it a palette entry".to_string(),
            };
            vec![format!("`{key}`"), thing, glyph]
        })
        .collect()
}

fn rows_text(rows: &[Vec<String>]) -> String {
    rows.iter()
        .map(|r| format!("| {} |", r.join(" | ").replace("`|`", "`\\|`")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_noun_tables_are_the_code_tables() {
    let want = builtin_rows();
    let got = table_after("### Built-in glyphs");
    assert_eq!(got, want, "the built-in glyphs are:\n{}", rows_text(&want));
    let want = legend_rows();
    let got = table_after("### The default legend");
    assert_eq!(got, want, "the default legend is:\n{}", rows_text(&want));
    // The renderer and stage 3 read the same table.
    for (noun, glyph, _) in miau::model::BUILTIN_GLYPHS {
        let look = miau::render::glyph::look(&Pack::default(), noun);
        assert_eq!(look.glyph, *glyph);
    }
}

#[test]
fn every_link_of_the_page_has_its_target() {
    let anchors = miau::reference::anchors();
    let lang = include_str!("../docs/language.md");
    let lang_anchors: Vec<String> = lang
        .lines()
        .filter_map(|l| l.strip_prefix("## ").or_else(|| l.strip_prefix("### ")))
        .map(miau::reference::slug)
        .collect();
    let d = doc();
    let mut missing = Vec::new();
    for (i, _) in d.match_indices("](") {
        let rest = &d[i + 2..];
        let target = &rest[..rest.find(')').unwrap_or(0)];
        let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
        let ok = match file {
            "" => anchors.iter().any(|a| a == anchor),
            "language.md" => anchor.is_empty() || lang_anchors.iter().any(|a| a == anchor),
            "diagnostics.md" => anchor.is_empty(),
            _ => false,
        };
        if !ok {
            missing.push(target.to_string());
        }
    }
    assert!(missing.is_empty(), "links without a target: {missing:?}");
}
