//! Stage 2 on one level: the order of its checks, and those on its header,
//! its size and its check metadata. The objects' checks are in `objects`,
//! the declared words' (automata, pairs, terrain, frail) in `mechanics`.

use std::collections::HashSet;

use super::claims::ClaimNames;
use super::limits::{self, is_id, is_token};
use super::suggest::{did_you_mean, or_list};
use super::{Lv, Validator, level_name, slugify};
use crate::model::{Allowance, Kind, Level};
use crate::span::Span;

/// The words a level declares, which other declarations may not reuse.
pub(super) struct Declared<'a> {
    /// The properties its automata drive.
    pub(super) automaton_props: HashSet<&'a str>,
    /// The words of its pairs.
    pub(super) pair_words: HashSet<&'a str>,
    /// The nouns of its things.
    pub(super) thing_nouns: HashSet<&'a str>,
}

impl<'a> Declared<'a> {
    fn of(level: &'a Level) -> Self {
        let automaton_props: HashSet<&str> = level
            .automata
            .iter()
            .map(|a| a.property.text.as_str())
            .collect();
        let pair_words: HashSet<&str> = level
            .pairs
            .iter()
            .flat_map(|p| p.words.iter().map(|w| w.text.as_str()))
            .collect();
        let thing_nouns: HashSet<&str> = level
            .objects
            .iter()
            .filter(|o| o.kind == Kind::Thing)
            .map(|o| o.text.as_str())
            .collect();
        Declared {
            automaton_props,
            pair_words,
            thing_nouns,
        }
    }
}

impl Validator {
    /// Every stage 2 check of one level, in the order they report.
    pub(super) fn level(&mut self, level: &Level, i: usize) {
        let lv = Lv {
            level,
            i,
            name: level_name(level, i),
        };
        self.level_header(&lv);
        self.level_size(&lv);
        let declared = Declared::of(level);
        self.objects(&lv);
        self.automata(&lv, &declared.pair_words);
        self.pairs(&lv, &declared.automaton_props, &declared.thing_nouns);
        self.terrain(&lv);
        self.frail(&lv, &declared);
        self.category(&lv);
        self.introduces(&lv);
        self.claims(&lv);
        self.event_claims(&lv);
        self.solution(&lv);
        self.steps_and_budget(&lv);
        self.level_allowances(&lv);
    }

    /// Ids and required fields: the id (M201, M206) and the title (M201).
    fn level_header(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        if level.id.text.is_empty() {
            let d = self.level_diag(
                lv,
                "M201",
                Span::default(),
                ".id",
                format!("Level {name} has no id."),
            );
            self.emit(d);
        } else if !is_id(&level.id.text) {
            let mut d = self.level_diag(
                lv,
                "M206",
                level.id.span,
                ".id",
                format!(
                    "Level id {} must be 2 to 64 characters: a lowercase letter, then lowercase letters, digits, '.', '_' or '-'.",
                    level.id.text
                ),
            );
            let slug = slugify(&level.id.text);
            if is_id(&slug) && level.id.span != Span::default() {
                d = d.with_fix(format!("Rename the level {slug}"), level.id.span, slug);
            }
            self.emit(d);
        }
        if level.title.is_none() {
            let d = self.level_diag(
                lv,
                "M201",
                Span::default(),
                ".title",
                format!("Level {name} has no title."),
            );
            self.emit(d);
        }
    }

    /// Size and objects: no board (M201), a side out of range (M213), too many objects (M212).
    fn level_size(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        let (w, h) = (level.width, level.height);
        let side = limits::MIN_BOARD_SIDE..=limits::MAX_BOARD_SIDE;
        if w == 0 && h == 0 && level.objects.is_empty() {
            let d = self.level_diag(
                lv,
                "M201",
                level.board_span,
                "",
                format!("Level {name} has no board."),
            );
            self.emit(d);
        } else if !side.contains(&w) || !side.contains(&h) {
            let path = if side.contains(&w) {
                ".height"
            } else {
                ".width"
            };
            let d = self.level_diag(
                lv,
                "M213",
                level.board_span,
                path,
                format!("Level {name} is {w}×{h}; a board is 1 to 128 cells each way."),
            );
            self.emit(d);
        }
        if level.objects.len() > limits::MAX_OBJECTS {
            let d = self.level_diag(
                lv,
                "M212",
                level.board_span,
                ".objects",
                format!(
                    "Level {name} has {} tiles and things; at most {}.",
                    level.objects.len(),
                    limits::MAX_OBJECTS
                ),
            );
            self.emit(d);
        }
    }

    /// M233: a category that isn't one, with the near ones as fixes.
    fn category(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        if let Some(c) = &level.category
            && !limits::CATEGORIES.contains(&c.text.as_str())
        {
            let sugg = did_you_mean(&c.text, limits::CATEGORIES);
            let mean = if sugg.is_empty() {
                String::new()
            } else {
                format!(" Did you mean {}?", or_list(&sugg))
            };
            let mut d = self.level_diag(
                lv,
                "M233",
                c.span,
                ".category",
                format!(
                    "Level {name}: category {} must be required, optional or challenge.{mean}",
                    c.text
                ),
            );
            if c.span != Span::default() {
                for s in &sugg {
                    d = d.with_fix(format!("Write {s}"), c.span, *s);
                }
            }
            self.emit(d);
        }
    }

    /// M235: a word `introduces` or `reuses` names that the level doesn't hold.
    fn introduces(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        let lid = Some(level.id.text.as_str());
        for (key, list) in [("introduces", &level.introduces), ("reuses", &level.reuses)] {
            for (k, word) in list.words.iter().enumerate() {
                let path = format!(".{key}.words[{k}]");
                if !self.token(word, level.span, lv.path(&path), lid) {
                    continue;
                }
                let present = level.objects.iter().any(|o| o.text == word.text)
                    || level.frail.as_ref().is_some_and(|f| {
                        f.leaves
                            .iter()
                            .any(|(a, b)| a.text == word.text || b.text == word.text)
                    });
                if !present {
                    let mut d = self.level_diag(
                        lv,
                        "M235",
                        word.span,
                        &path,
                        format!(
                            "Level {name} {key} {w}, but there's no {w} tile or thing in it.",
                            w = word.text
                        ),
                    );
                    if word.span != Span::default() {
                        d = d.with_fix(format!("Remove {} from {key}", word.text), word.span, "");
                    }
                    self.emit(d);
                }
            }
        }
    }

    /// M236: a `must-form` or `must-break` that isn't a rule.
    fn claims(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        let claims = level
            .check
            .must_form
            .iter()
            .enumerate()
            .map(|(k, r)| ("must-form", "mustForm", "ROCK IS PUSH", k, r))
            .chain(
                level
                    .check
                    .must_break
                    .iter()
                    .enumerate()
                    .map(|(k, r)| ("must-break", "mustBreak", "WATER IS SINK", k, r)),
            );
        for (stmt, key, like, k, rule) in claims {
            let parts: Vec<&str> = rule.text.split_whitespace().collect();
            let ok = parts.len() == 3
                && parts[1] == "IS"
                && is_token(parts[0])
                && is_token(parts[2])
                && parts[0] != "IS"
                && parts[2] != "IS";
            if !ok {
                let d = self.level_diag(
                    lv,
                    "M236",
                    rule.span,
                    &format!(".{key}[{k}]"),
                    format!("Level {name}: {stmt} {} isn't a rule. Write SUBJECT IS PREDICATE, like {like}.", rule.text),
                );
                self.emit(d);
            }
        }
    }

    /// M249: a claim over events naming a noun or channel the level doesn't
    /// have ([`ClaimNames`]), so its event can't happen and the claim is
    /// wrong for any win.
    fn event_claims(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        let names = ClaimNames::of(level);
        for (k, claim) in level.check.must_happen.iter().enumerate() {
            let Some((what, known)) = names.known(claim) else {
                continue;
            };
            for (j, arg) in claim.args.iter().enumerate() {
                if known.contains(&arg.text.as_str()) {
                    continue;
                }
                let sugg = did_you_mean(&arg.text, known);
                let mean = if sugg.is_empty() {
                    String::new()
                } else {
                    format!(" Did you mean {}?", or_list(&sugg))
                };
                let nowhere = if what == "noun" {
                    format!(
                        "the level has no {} thing, word tile or frail leftover",
                        arg.text
                    )
                } else {
                    format!("no plate or gate of the level is on {}", arg.text)
                };
                let mut d = self.level_diag(
                    lv,
                    "M249",
                    arg.span,
                    &format!(".mustHappen[{k}].of[{j}]"),
                    format!(
                        "Level {name}: {} names the {what} {}, but {nowhere}: the event can't happen, so any win shows the claim wrong.{mean}",
                        claim.statement(),
                        arg.text
                    ),
                );
                if arg.span != Span::default() {
                    for s in &sugg {
                        d = d.with_fix(format!("Write {s}"), arg.span, *s);
                    }
                }
                self.emit(d);
            }
        }
    }

    /// M237: a recorded solution with a letter that isn't a step.
    fn solution(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        if let Some(sol) = &level.check.solution
            && let Some((k, c)) = sol
                .text
                .chars()
                .enumerate()
                .find(|(_, c)| !limits::SOLUTION_LETTERS.contains(c))
        {
            let mut d = self.level_diag(
                lv,
                "M237",
                sol.span,
                ".solution",
                // Steps count from 1, as the route's letters are read (M410 too).
                format!(
                    "Level {name}: the recorded solution may only use U, D, L, R and W; found {} at step {}.",
                    named_char(c),
                    k + 1
                ),
            );
            let cleaned: String = sol
                .text
                .chars()
                .filter(|c| !c.is_whitespace() && *c != ',')
                .collect::<String>()
                .to_uppercase();
            if sol.span != Span::default()
                && !cleaned.is_empty()
                && cleaned
                    .chars()
                    .all(|c| limits::SOLUTION_LETTERS.contains(&c))
            {
                d = d.with_fix(
                    format!("Write \"{cleaned}\""),
                    sol.span,
                    format!("\"{cleaned}\""),
                );
            }
            self.emit(d);
        }
    }

    /// M237 for zero steps or a bound on them (`steps N at-least B`) that
    /// can't hold; M238 for a budget out of range.
    fn steps_and_budget(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        if level.check.steps == Some(0) {
            let d = self.level_diag(
                lv,
                "M237",
                level.check.steps_span,
                ".steps",
                format!("Level {name}: steps must be a whole number of at least 1."),
            );
            self.emit(d);
        }
        if let Some(msg) = bound_fault(name, level.check.steps, level.check.steps_at_least) {
            let d = self.level_diag(lv, "M237", level.check.steps_span, ".stepsAtLeast", msg);
            self.emit(d);
        }
        if let Some(b) = level.check.solver_budget
            && (b == 0 || b > limits::DEFAULT_BUDGET_CAP)
        {
            let d = self.level_diag(
                lv,
                "M238",
                Span::default(),
                ".solverBudget",
                format!(
                    "Level {name}: budget must be a whole number from 1 to {}.",
                    limits::DEFAULT_BUDGET_CAP
                ),
            );
            self.emit(d);
        }
    }

    /// M239 for the level's allowances, bypass and hands-off first.
    fn level_allowances(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let has_automata = !level.automata.is_empty();
        let all: Vec<Allowance> = level
            .check
            .allow_bypass
            .iter()
            .chain(level.check.allow_hands_off.iter())
            .chain(level.check.allow.iter())
            .cloned()
            .collect();
        self.allowances(
            &all,
            Some((lv, has_automata)),
            &lv.path(".allow"),
            level.span,
        );
    }
}

/// What is wrong with a recorded bound `at_least` on the recorded `steps`
/// of level `name`, if anything: a bound says the shortest route takes at
/// least that many steps, so it must be at least 1, qualify a recorded
/// length (pack JSON can give `stepsAtLeast` alone) and not exceed it (the
/// recorded route itself would then be shorter than the bound).
fn bound_fault(name: &str, steps: Option<u64>, at_least: Option<u64>) -> Option<String> {
    let b = at_least?;
    Some(match steps {
        _ if b == 0 => format!(
            "Level {name}: the bound on the shortest route (`at-least`) must be a whole number of at least 1."
        ),
        None => format!(
            "Level {name}: stepsAtLeast {b} bounds a recorded length, but the level records no steps: record `steps` with it, or remove it."
        ),
        Some(n) if b > n => format!(
            "Level {name}: steps {n} at-least {b} can't hold: a route of {n} steps is recorded, so the shortest takes no more than {n}. Lower the bound to at most {n}, or remove it."
        ),
        Some(_) => return None,
    })
}

/// A character as a message names it: invisible ones by name.
fn named_char(c: char) -> String {
    match c {
        ' ' => "a space".to_string(),
        '\t' => "a tab".to_string(),
        '\n' | '\r' => "a line break".to_string(),
        ',' => "a comma".to_string(),
        c if c.is_whitespace() || c.is_control() => format!("U+{:04X}", u32::from(c)),
        c => c.to_string(),
    }
}
