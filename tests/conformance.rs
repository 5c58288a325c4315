//! The conformance catalogue of `rules.md` §13, data-driven: every case is a
//! level of a `.miau` file in `tests/conformance/`, compiled by the real
//! front end and played on the rules engine, its expectations written inside
//! the level as comments. One test per file runs every level's directives in
//! order and fails naming the file and line of each expectation that does
//! not hold.
//!
//! A directive is a `//> KEYWORD ARGS` line; a multi-line expectation
//! follows its directive as `//| ` lines. Ids are the front end's: things
//! `<noun>-<n>`, words `<text>.<n>`, numbered in reading order (row, column,
//! stack order); cells are `x,y` counted from 0 at the top-left; a list is
//! `none` when empty.
//!
//! Actions:
//! - `play ROUTE`: every input is accepted; the report directives below then
//!   read the last turn (before any `play`, they read reset).
//! - `reject INPUT REASON`: the input is refused (`blocked`, `no-you`, `won`)
//!   and the state is unchanged; `blocked` then reads the refused YOUs.
//! - `each DIRECTIVE`: a report directive holds on every turn of the last
//!   `play`.
//! - `search ROUTE`: the breadth-first search of §10.4 from reset returns
//!   exactly this route.
//! - `events ROUTE` + `//|` lines: the transcript of `miauc replay --explain`
//!   for this route from reset (without its first, fixed line).
//!
//! Report directives: `destroyed ID CAUSE X,Y; …`, `transformed ID
//! FROM->TO WHEN; …`, `blocked ID REASON [BLOCKER]; …`, `gates ID CAUSE; …`,
//! `crumbled ID X,Y|gone LEFTOVER|nothing; …`, `path ID X,Y X,Y …` (the
//! cells a thing went through this turn), `won`, `lost-control`,
//! `word-moved`, `won-at-start` (reset) as `yes`/`no`, `goals COVERED/DOCKS`.
//!
//! State directives: `rules A IS B (AXIS), …` (reading order), `rule-texts A
//! IS B, …`, `holds A IS B yes|no`, `sentences AXIS X,Y IDS…; …`,
//! `predicates IDS…` (the rules' predicate words), `at ID X,Y|gone`, `noun ID
//! NOUN|gone`, `things X,Y NOUNS…`, `words X,Y TEXTS…` (each in id order),
//! `phase INDEX N`, `gate ID open|closed`, `channel ID NAME|none`, `board` +
//! `//|` lines (the board as the level's legend writes it).
//!
//! Level directive: `diagnostic CODE MESSAGE`: the level's stage-3
//! diagnostics with this code (messages joined by ` | `).

mod common;

use common::EngineSpace;
use miau::compile::{SourceKind, analyse, compile, legend_keys};
use miau::diag::Severity;
use miau::engine::{
    Blocked, Cause, Crumbled, Destroyed, EntId, Game, GateEvent, Input, ResetReport, State,
    Transformed, TurnReport, TurnResult, replay,
};
use miau::model::{CHANNELS, Level};
use std::path::Path;

/// One `//>` directive: its line (1-based), keyword, the rest of the line,
/// and the `//|` lines that follow it.
struct Directive {
    line: usize,
    keyword: String,
    args: String,
    block: Vec<String>,
}

/// A level of a case file with its directives, in file order.
struct LevelCase {
    id: String,
    line: usize,
    directives: Vec<Directive>,
}

/// Splits a case file into its levels and their directives. A directive
/// outside a level's braces, or a `//|` line with no directive before it,
/// is an error.
fn parse_cases(text: &str) -> Result<Vec<LevelCase>, (usize, String)> {
    let mut levels: Vec<LevelCase> = Vec::new();
    // Whether the line is inside the last level's braces.
    let mut in_level = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if raw.starts_with('}') {
            in_level = false;
        } else if let Some(rest) = raw.strip_prefix("level ") {
            in_level = true;
            let id = rest.split_whitespace().next().unwrap_or_default();
            levels.push(LevelCase {
                id: id.to_string(),
                line,
                directives: Vec::new(),
            });
        } else if let Some(rest) = trimmed.strip_prefix("//>") {
            let Some(level) = levels.last_mut().filter(|_| in_level) else {
                return Err((line, "a directive outside a level".into()));
            };
            let rest = rest.trim();
            let (keyword, args) = rest.split_once(' ').unwrap_or((rest, ""));
            level.directives.push(Directive {
                line,
                keyword: keyword.to_string(),
                args: args.trim().to_string(),
                block: Vec::new(),
            });
        } else if let Some(rest) = trimmed.strip_prefix("//|") {
            let directive = levels
                .last_mut()
                .filter(|_| in_level)
                .and_then(|l| l.directives.last_mut());
            let Some(directive) = directive else {
                return Err((line, "a `//|` line with no directive before it".into()));
            };
            directive
                .block
                .push(rest.strip_prefix(' ').unwrap_or(rest).to_string());
        }
    }
    Ok(levels)
}

/// What the last action reported: reset, accepted turns, or a rejection.
enum Last {
    Reset(ResetReport),
    Turns(Vec<TurnReport>),
    Rejected(Vec<Blocked>),
}

/// One level being played by its directives.
struct Run<'a> {
    source: &'a str,
    level: Level,
    game: Game,
    state: State,
    last: Last,
}

impl<'a> Run<'a> {
    fn new(source: &'a str, level: Level) -> Self {
        let game = Game::new(&level);
        let (state, reset) = game.reset();
        Run {
            source,
            level,
            game,
            state,
            last: Last::Reset(reset),
        }
    }

    /// Runs one directive: `Ok` when it holds, else what went wrong.
    fn directive(&mut self, d: &Directive) -> Result<(), String> {
        match d.keyword.as_str() {
            "play" => self.play(&d.args),
            "reject" => self.reject(&d.args),
            "each" => self.each(&d.args),
            "board" => compare_block(d, &self.board()),
            "events" => compare_block(d, &self.events(&d.args)),
            "search" => compare(&d.args, &self.search()),
            keyword => {
                let (query, want) = split_query(keyword, &d.args);
                let got = self.observe(keyword, query)?;
                compare(want, &got)
            }
        }
    }

    /// Plays each input of `route`; every one must be accepted.
    fn play(&mut self, route: &str) -> Result<(), String> {
        let mut reports = Vec::new();
        for (i, c) in route.chars().enumerate() {
            let input = Input::from_char(c).ok_or_else(|| format!("`{c}` is not an input"))?;
            match self.game.step(&self.state, input) {
                TurnResult::Accepted { state, report } => {
                    self.state = state;
                    reports.push(*report);
                }
                TurnResult::Rejected { reason, blocked } => {
                    return Err(format!(
                        "input {} ({c}) of `{route}` was rejected ({}): {}",
                        i + 1,
                        reason.as_str(),
                        self.blocked(&blocked)
                    ));
                }
            }
        }
        self.last = Last::Turns(reports);
        Ok(())
    }

    /// `reject C REASON`: the input is refused for that reason and the state
    /// stays as it was.
    fn reject(&mut self, args: &str) -> Result<(), String> {
        let (letter, want) = args.split_once(' ').unwrap_or((args, ""));
        let input = letter
            .chars()
            .next()
            .and_then(Input::from_char)
            .ok_or_else(|| format!("`{letter}` is not an input"))?;
        match self.game.step(&self.state, input) {
            TurnResult::Accepted { .. } => Err(format!("input {letter} was accepted")),
            TurnResult::Rejected { reason, blocked } => {
                self.last = Last::Rejected(blocked);
                compare(want, reason.as_str())
            }
        }
    }

    /// `each DIRECTIVE`: a report directive that holds on every turn of the
    /// last `play`.
    fn each(&mut self, args: &str) -> Result<(), String> {
        let Last::Turns(reports) = &self.last else {
            return Err("`each` needs a `play` before it".into());
        };
        let (keyword, rest) = args.split_once(' ').unwrap_or((args, ""));
        let (query, want) = split_query(keyword, rest);
        for (i, report) in reports.iter().enumerate() {
            let got = self.report_field(keyword, query, &Last::Turns(vec![report.clone()]))?;
            compare(want, &got).map_err(|e| format!("turn {} of the play: {e}", i + 1))?;
        }
        Ok(())
    }

    /// The value a query keyword observes, written as its directive writes it.
    fn observe(&self, keyword: &str, query: &str) -> Result<String, String> {
        match keyword {
            "rules" => Ok(self.rules(true)),
            "rule-texts" => Ok(self.rules(false)),
            "holds" => Ok(self.holds(query)),
            "sentences" => Ok(self.sentences()),
            "predicates" => Ok(self.predicates()),
            "at" => Ok(cell(self.game.pos(&self.state, self.ent(query)?))),
            "noun" => Ok(self
                .game
                .noun(&self.state, self.ent(query)?)
                .map_or("gone".into(), |t| self.game.name(t).to_string())),
            "things" => Ok(self.at_cell(query, false)?),
            "words" => Ok(self.at_cell(query, true)?),
            "phase" => {
                let index: usize = query.parse().map_err(|_| "a record index")?;
                Ok(self.game.phase(&self.state, index).to_string())
            }
            "gate" => Ok(if self.game.open(&self.state, self.ent(query)?) {
                "open".into()
            } else {
                "closed".into()
            }),
            "channel" => Ok(self.game.ents[self.ent(query)? as usize]
                .channel
                .map_or("none".into(), |i| CHANNELS[i as usize].to_string())),
            "diagnostic" => Ok(self.diagnostic(query)),
            _ => self.report_field(keyword, query, &self.last),
        }
    }

    /// A field of the last report.
    fn report_field(&self, keyword: &str, query: &str, last: &Last) -> Result<String, String> {
        if let (Last::Rejected(blocked), "blocked") = (last, keyword) {
            return Ok(self.blocked(blocked));
        }
        let (turn, reset) = match last {
            Last::Turns(reports) => (reports.last(), None),
            Last::Reset(reset) => (None, Some(reset)),
            Last::Rejected(_) => {
                return Err(format!("`{keyword}` after a rejection (only `blocked` is)"));
            }
        };
        let unknown = || format!("unknown directive `{keyword}`");
        match (keyword, turn, reset) {
            ("destroyed", Some(t), _) => Ok(self.destroyed(&t.destroyed)),
            ("destroyed", _, Some(r)) => Ok(self.destroyed(&r.destroyed)),
            ("transformed", Some(t), _) => Ok(self.transformed(&t.transformed)),
            ("transformed", _, Some(r)) => Ok(self.transformed(&r.transformed)),
            ("goals", Some(t), _) => Ok(goals(t.goals)),
            ("goals", _, Some(r)) => Ok(goals(r.goals)),
            ("won-at-start", _, Some(r)) => Ok(yes_no(r.won_at_start)),
            ("blocked", Some(t), _) => Ok(self.blocked(&t.blocked)),
            ("gates", Some(t), _) => Ok(self.gates(&t.gates)),
            ("crumbled", Some(t), _) => Ok(self.crumbled(&t.crumbled)),
            ("won", Some(t), _) => Ok(yes_no(t.won)),
            ("lost-control", Some(t), _) => Ok(yes_no(t.lost_control)),
            ("word-moved", Some(t), _) => Ok(yes_no(t.word_moved)),
            ("path", Some(t), _) => self.path(t, query),
            (
                "blocked" | "gates" | "crumbled" | "won" | "lost-control" | "word-moved" | "path",
                None,
                _,
            ) => Err(format!("`{keyword}` needs a turn (a `play` before it)")),
            ("won-at-start", _, None) => Err("`won-at-start` is about reset".into()),
            _ => Err(unknown()),
        }
    }

    fn ent(&self, id: &str) -> Result<EntId, String> {
        self.game
            .find(id)
            .ok_or_else(|| format!("no entity `{id}` in the level"))
    }

    /// The rule list in reading order, with or without axes; `none` if empty.
    fn rules(&self, axes: bool) -> String {
        let rules = self.game.rules(&self.state);
        let list: Vec<String> = rules
            .records
            .iter()
            .map(|r| {
                let text = format!(
                    "{} IS {}",
                    self.game.name(r.subject),
                    self.game.name(r.predicate)
                );
                if axes {
                    format!("{text} ({})", r.axis.as_str())
                } else {
                    text
                }
            })
            .collect();
        list_or_none(list, ", ")
    }

    fn holds(&self, rule: &str) -> String {
        let texts = self.rules(false);
        let holds = texts.split(", ").any(|r| r == rule);
        format!("{rule} {}", yes_no(holds))
    }

    /// The sentences as `axis x,y word-ids…`, in the engine's order.
    fn sentences(&self) -> String {
        let rules = self.game.rules(&self.state);
        let list = rules
            .sentences
            .iter()
            .map(|s| {
                let ids: Vec<&str> = s.words.iter().map(|&w| self.game.id(w)).collect();
                format!("{} {} {}", s.axis.as_str(), cell(Some(s.at)), ids.join(" "))
            })
            .collect();
        list_or_none(list, "; ")
    }

    /// The ids of the rule records' predicate words, in rule order.
    fn predicates(&self) -> String {
        let rules = self.game.rules(&self.state);
        let list = rules
            .records
            .iter()
            .map(|r| {
                rules
                    .predicate_word(r)
                    .map_or("-".to_string(), |w| self.game.id(w).to_string())
            })
            .collect();
        list_or_none(list, " ")
    }

    /// Nouns of the live things (or texts of the live words) at `x,y`.
    fn at_cell(&self, at: &str, words: bool) -> Result<String, String> {
        let (x, y) = parse_cell(at)?;
        let list = self
            .game
            .live(&self.state)
            .into_iter()
            .filter(|&e| {
                self.game.ents[e as usize].word == words
                    && self.game.pos(&self.state, e) == Some((x, y))
            })
            .filter_map(|e| self.game.noun(&self.state, e))
            .map(|t| self.game.name(t).to_string())
            .collect();
        Ok(list_or_none(list, " "))
    }

    /// The level's stage-3 diagnostics with this code, their messages joined.
    fn diagnostic(&self, code: &str) -> String {
        let analysed = analyse(self.source, SourceKind::Miau);
        let list = analysed
            .diagnostics
            .iter()
            .filter(|d| d.level.as_deref() == Some(&self.level.id.text) && d.code() == code)
            .map(|d| d.message.clone())
            .collect();
        list_or_none(list, " | ")
    }

    fn destroyed(&self, list: &[Destroyed]) -> String {
        let list = list
            .iter()
            .map(|d| {
                let cause = match d.cause {
                    Cause::Sink => "sink".to_string(),
                    Cause::Defeat => "defeat".to_string(),
                    Cause::Pair(i) => self.game.pairs[i as usize].cause.clone(),
                };
                format!("{} {cause} {}", self.game.id(d.id), cell(Some(d.at)))
            })
            .collect();
        list_or_none(list, "; ")
    }

    fn transformed(&self, list: &[Transformed]) -> String {
        let list = list
            .iter()
            .map(|t| {
                format!(
                    "{} {}->{} {}",
                    self.game.id(t.id),
                    self.game.name(t.from),
                    self.game.name(t.to),
                    t.when.as_str()
                )
            })
            .collect();
        list_or_none(list, "; ")
    }

    fn blocked(&self, list: &[Blocked]) -> String {
        let list = list
            .iter()
            .map(|b| {
                let by = b
                    .blocker
                    .map_or(String::new(), |x| format!(" {}", self.game.id(x)));
                format!("{} {}{by}", self.game.id(b.id), b.reason.as_str())
            })
            .collect();
        list_or_none(list, "; ")
    }

    fn gates(&self, list: &[GateEvent]) -> String {
        let list = list
            .iter()
            .map(|g| format!("{} {}", self.game.id(g.id), g.cause.as_str()))
            .collect();
        list_or_none(list, "; ")
    }

    /// Crumbles as `id cell-after-the-turn leftover` (`gone`, `nothing`).
    fn crumbled(&self, list: &[Crumbled]) -> String {
        let list = list
            .iter()
            .map(|k| {
                let into =
                    k.to.map_or("nothing".into(), |t| self.game.name(t).to_string());
                let at = cell(self.game.pos(&self.state, k.id));
                format!("{} {at} {into}", self.game.id(k.id))
            })
            .collect();
        list_or_none(list, "; ")
    }

    /// The cells one thing went through on the last turn, from its start.
    fn path(&self, report: &TurnReport, id: &str) -> Result<String, String> {
        let e = self.ent(id)?;
        let moves: Vec<_> = report.moved.iter().filter(|m| m.id == e).collect();
        let Some(first) = moves.first() else {
            return Ok("none".into());
        };
        let mut cells = vec![cell(Some(first.from))];
        cells.extend(moves.iter().map(|m| cell(Some(m.to))));
        Ok(cells.join(" "))
    }

    /// The board as the level's legend writes it.
    fn board(&self) -> String {
        let keys = self.keys();
        let key_of = |noun: &str, channel: Option<&str>| keys.get(noun, channel);
        self.game.render_board(&self.state, &key_of)
    }

    /// The events of a replay from reset (`miauc replay --explain`), without
    /// its first line (how cells are counted, the same in every replay).
    fn events(&self, route: &str) -> String {
        let keys = self.keys();
        let key_of = |noun: &str, channel: Option<&str>| keys.get(noun, channel);
        let text = replay(&self.level, route, true, &key_of).text;
        let mut lines = text.lines();
        lines.next();
        lines.collect::<Vec<_>>().join("\n")
    }

    fn keys(&self) -> miau::compile::LegendKeys {
        let (file, _) = miau::syntax::parse(self.source);
        legend_keys(&file, &self.level.id.text)
    }

    /// The route the breadth-first search of §10.4 finds from reset.
    fn search(&self) -> String {
        EngineSpace::new(&self.game)
            .solve(5_000_000)
            .unwrap_or_else(|| "none".into())
    }
}

/// Splits a query directive's arguments into the query (the first word, for
/// keywords that take one) and the expected value.
fn split_query<'s>(keyword: &str, args: &'s str) -> (&'s str, &'s str) {
    const WITH_QUERY: &[&str] = &[
        "at",
        "noun",
        "things",
        "words",
        "phase",
        "gate",
        "channel",
        "diagnostic",
        "path",
    ];
    if WITH_QUERY.contains(&keyword) {
        args.split_once(' ').unwrap_or((args, ""))
    } else if keyword == "holds" {
        (args.rsplit_once(' ').map_or(args, |(rule, _)| rule), args)
    } else {
        ("", args)
    }
}

fn compare(want: &str, got: &str) -> Result<(), String> {
    let normalise = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    if normalise(want) == normalise(got) {
        Ok(())
    } else {
        Err(format!("expected `{}`, got `{}`", want.trim(), got.trim()))
    }
}

/// Compares a multi-line result with the directive's `//|` lines (trailing
/// spaces aside).
fn compare_block(d: &Directive, got: &str) -> Result<(), String> {
    let got: Vec<&str> = got.lines().map(str::trim_end).collect();
    let want: Vec<&str> = d.block.iter().map(|l| l.trim_end()).collect();
    if got == want {
        return Ok(());
    }
    let show = |lines: &[&str]| {
        lines
            .iter()
            .map(|l| format!("    //| {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    Err(format!("expected\n{}\n  got\n{}", show(&want), show(&got)))
}

fn cell(at: Option<(u8, u8)>) -> String {
    at.map_or("gone".into(), |(x, y)| format!("{x},{y}"))
}

fn parse_cell(text: &str) -> Result<(u8, u8), String> {
    let (x, y) = text.split_once(',').ok_or("a cell `x,y`")?;
    let n = |s: &str| {
        s.parse::<u8>()
            .map_err(|_| format!("a cell `x,y`, not `{text}`"))
    };
    Ok((n(x)?, n(y)?))
}

fn goals((covered, docks): (u32, u32)) -> String {
    format!("{covered}/{docks}")
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

fn list_or_none(list: Vec<String>, sep: &str) -> String {
    if list.is_empty() {
        "none".into()
    } else {
        list.join(sep)
    }
}

/// Compiles a case file and the level `id`; an error in the file fails the
/// case, since a level the front end rejects proves nothing about the engine.
fn compile_level(source: &str, id: &str) -> Result<Level, String> {
    let compiled = compile(source, SourceKind::Miau);
    let errors: Vec<String> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{} {}", d.code(), d.message))
        .collect();
    if !errors.is_empty() {
        return Err(format!("front-end errors: {errors:?}"));
    }
    let pack = compiled.pack.ok_or("no pack model")?;
    pack.levels
        .into_iter()
        .find(|l| l.id.text == id)
        .ok_or_else(|| format!("no level {id}"))
}

/// Runs every level of one case file; returns its failures as
/// `path:line: level: message`.
fn run_file(root: &Path, file: &str) -> Vec<String> {
    let name = format!("tests/conformance/{file}");
    let source = std::fs::read_to_string(root.join(&name)).expect("a readable case file");
    let levels = match parse_cases(&source) {
        Ok(levels) => levels,
        Err((line, e)) => return vec![format!("{name}:{line}: {e}")],
    };
    let mut failures = Vec::new();
    if levels.is_empty() {
        failures.push(format!("{name}: no level"));
    }
    for case in &levels {
        if case.directives.is_empty() {
            failures.push(format!(
                "{name}:{}: level {} has no expectation",
                case.line, case.id
            ));
            continue;
        }
        let level = match compile_level(&source, &case.id) {
            Ok(level) => level,
            Err(e) => {
                failures.push(format!("{name}:{}: {e}", case.line));
                continue;
            }
        };
        let mut run = Run::new(&source, level);
        for d in &case.directives {
            if let Err(e) = run.directive(d) {
                failures.push(format!("{name}:{}: {} {}: {e}", d.line, case.id, d.keyword));
                // Later expectations build on this one's state.
                if matches!(d.keyword.as_str(), "play" | "reject") {
                    break;
                }
            }
        }
    }
    failures
}

fn check(file: &str) {
    let failures = run_file(Path::new(env!("CARGO_MANIFEST_DIR")), file);
    assert!(
        failures.is_empty(),
        "{} expectation(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// One test per case file, so the files run in parallel.
macro_rules! case_files {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check($file);
            }
        )*

        /// Every `.miau` in `tests/conformance/` has its test above.
        #[test]
        fn every_case_file_runs() {
            let listed = [$($file),*];
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
            let mut missing: Vec<String> = std::fs::read_dir(dir)
                .expect("the case directory")
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".miau") && !listed.contains(&n.as_str()))
                .collect();
            missing.sort();
            assert!(missing.is_empty(), "case files without a test: {missing:?}");
        }
    };
}

case_files! {
    parsing => "parsing.miau",
    transform => "transform.miau",
    movement => "movement.miau",
    contacts => "contacts.miau",
    automata => "automata.miau",
    pairs => "pairs.miau",
    goal => "goal.miau",
    gates => "gates.miau",
    frail => "frail.miau",
    float_fixed_terrain => "float-fixed-terrain.miau",
}
