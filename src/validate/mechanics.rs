//! Stage 2 on the words a level declares: automata, pairs, terrain and
//! frail leftovers.

use std::collections::{HashMap, HashSet};

use super::level::Declared;
use super::limits::{self, is_id, is_reserved, is_token};
use super::{Lv, Validator, pick, slugify};
use crate::model::{Kind, Step};
use crate::span::Span;

impl Validator {
    pub(super) fn automata(&mut self, lv: &Lv<'_>, pair_words: &HashSet<&str>) {
        let level = lv.level;
        let name = &lv.name;
        let lid = Some(level.id.text.as_str());
        if level.automata.len() > limits::MAX_AUTOMATA {
            let d = self.level_diag(
                lv,
                "M215",
                Span::default(),
                ".automata",
                format!(
                    "Level {name} has {} automata; at most {}.",
                    level.automata.len(),
                    limits::MAX_AUTOMATA
                ),
            );
            self.emit(d);
        }
        let mut ids: HashSet<&str> = HashSet::new();
        for (k, a) in level.automata.iter().enumerate() {
            let base = format!(".automata[{k}]");
            let span = pick(a.id.span, a.span);
            let id = &a.id.text;
            if !is_id(id) {
                let mut d = self.level_diag(
                    lv,
                    "M206",
                    span,
                    &format!("{base}.id"),
                    format!("Automaton id {} must be 2 to 64 characters: a lowercase letter, then lowercase letters, digits, '.', '_' or '-'.", if id.is_empty() { "(empty)" } else { id }),
                );
                let slug = slugify(id);
                if is_id(&slug) && a.id.span != Span::default() {
                    d = d.with_fix(format!("Rename the automaton {slug}"), a.id.span, slug);
                }
                self.emit(d);
            } else if !ids.insert(id.as_str()) {
                let d = self.level_diag(
                    lv,
                    "M210",
                    span,
                    &format!("{base}.id"),
                    format!("Level {name}: two automata are called {id}. Each needs its own id, because its phase is kept under it."),
                );
                self.emit(d);
            }
            if let Some(s) = &a.subject {
                self.token(s, a.span, lv.path(&format!("{base}.subject")), lid);
            }
            let p = &a.property;
            if self.token(p, a.span, lv.path(&format!("{base}.property")), lid) {
                if is_reserved(&p.text) {
                    let d = self.level_diag(
                        lv,
                        "M208",
                        pick(p.span, a.span),
                        &format!("{base}.property"),
                        format!("Level {name}, automaton {id}: {} is a core word; a custom property needs a new word.", p.text),
                    );
                    self.emit(d);
                } else if pair_words.contains(p.text.as_str()) {
                    let d = self.level_diag(
                        lv,
                        "M222",
                        pick(p.span, a.span),
                        &format!("{base}.property"),
                        format!("Level {name}, automaton {id}: {} is already declared in this level (as a pair word).", p.text),
                    );
                    self.emit(d);
                }
            }
            let n = a.pattern.len();
            if !(limits::MIN_PATTERN..=limits::MAX_PATTERN).contains(&n) {
                let d = self.level_diag(
                    lv,
                    "M216",
                    a.span,
                    &format!("{base}.pattern"),
                    format!(
                        "Level {name}, automaton {id}: the pattern has {}; it needs 1 to 32.",
                        crate::diag::wording::count(n, "step")
                    ),
                );
                self.emit(d);
            }
            for (s, step) in a.pattern.iter().enumerate() {
                if let Step::Move(dx, dy) = step
                    && i32::from(*dx).abs() + i32::from(*dy).abs() != 1
                {
                    let d = self.level_diag(
                        lv,
                        "M218",
                        a.span,
                        &format!("{base}.pattern[{s}]"),
                        format!("Level {name}, automaton {id}, step {s}: move {dx},{dy} isn't a step. Use U, D, L or R to move and W to wait."),
                    );
                    self.emit(d);
                }
            }
            if let Some(phase) = a.phase
                && n > 0
                && phase >= n as u64
            {
                let d = self.level_diag(
                    lv,
                    "M220",
                    a.span,
                    &format!("{base}.phase"),
                    format!("Level {name}, automaton {id}: phase {phase} is past the end of its {n}-step pattern; use 0 to {}.", n - 1),
                );
                self.emit(d);
            }
        }
    }

    pub(super) fn pairs(
        &mut self,
        lv: &Lv<'_>,
        automaton_props: &HashSet<&str>,
        thing_nouns: &HashSet<&str>,
    ) {
        let level = lv.level;
        let name = &lv.name;
        if level.pairs.len() > limits::MAX_PAIRS {
            let d = self.level_diag(
                lv,
                "M217",
                Span::default(),
                ".pairs",
                format!(
                    "Level {name}: pairs must be at most {}; this level has {}.",
                    limits::MAX_PAIRS,
                    level.pairs.len()
                ),
            );
            self.emit(d);
        }
        let mut declared: HashMap<&str, usize> = HashMap::new();
        for (k, p) in level.pairs.iter().enumerate() {
            let base = format!(".pairs[{k}]");
            let valid = p.words.len() == 2
                && p.words[0].text != p.words[1].text
                && p.words
                    .iter()
                    .all(|w| is_token(&w.text) && !is_reserved(&w.text));
            if !valid {
                let d = self.level_diag(lv, "M221", p.span, &format!("{base}.words"), format!("Level {name}, pair {k}: a pair names two new property words, like OPEN SHUT."));
                self.emit(d);
            } else {
                for (j, w) in p.words.iter().enumerate() {
                    let wp = format!("{base}.words[{j}]");
                    let span = pick(w.span, p.span);
                    let t = w.text.as_str();
                    let msg = if let Some(&other) = declared.get(t) {
                        Some(format!(
                            "Level {name}, pair {k}: {t} is already declared in this level (pair {other})."
                        ))
                    } else if automaton_props.contains(t) {
                        let a = level
                            .automata
                            .iter()
                            .find(|a| a.property.text == t)
                            .map_or("", |a| a.id.text.as_str());
                        Some(format!(
                            "Level {name}, pair {k}: {t} is already declared in this level (automaton {a})."
                        ))
                    } else if thing_nouns.contains(t) {
                        Some(format!(
                            "Level {name}, pair {k}: {t} is also used as a noun in this level."
                        ))
                    } else {
                        None
                    };
                    if let Some(msg) = msg {
                        let d = self.level_diag(lv, "M222", span, &wp, msg);
                        self.emit(d);
                    }
                }
                for w in &p.words {
                    declared.entry(w.text.as_str()).or_insert(k);
                }
            }
            if !limits::PAIR_EFFECTS.contains(&p.effect.as_str()) {
                let d = self.level_diag(
                    lv,
                    "M223",
                    p.span,
                    &format!("{base}.effect"),
                    format!("Level {name}, pair {k}: effect must be destroy-both."),
                );
                self.emit(d);
            }
        }
    }

    /// Terrain: each noun a word (M207) and not a core word (M208).
    pub(super) fn terrain(&mut self, lv: &Lv<'_>) {
        let level = lv.level;
        let name = &lv.name;
        let lid = Some(level.id.text.as_str());
        for (k, t) in level.terrain.iter().enumerate() {
            let path = lv.path(&format!(".terrain[{k}]"));
            if self.token(t, level.span, path.clone(), lid) && is_reserved(&t.text) {
                let d = self.level_diag(
                    lv,
                    "M208",
                    t.span,
                    &format!(".terrain[{k}]"),
                    format!(
                        "Level {name}, terrain {}: {} is a core word; terrain needs a noun.",
                        t.text, t.text
                    ),
                );
                self.emit(d);
            }
        }
    }

    /// Frail: leftovers that are nouns (M207, M208, M241), or a FRAIL word with no frail statement (M243).
    pub(super) fn frail(&mut self, lv: &Lv<'_>, declared: &Declared<'_>) {
        let level = lv.level;
        let name = &lv.name;
        let lid = Some(level.id.text.as_str());
        if let Some(frail) = &level.frail {
            for (from, to) in &frail.leaves {
                let base = format!(".mechanics[0].leaves.{}", from.text);
                let mut both_ok = true;
                for n in [from, to] {
                    let span = pick(n.span, frail.span);
                    if !self.token(n, span, lv.path(&base), lid) {
                        both_ok = false;
                    } else if is_reserved(&n.text) {
                        both_ok = false;
                        let d = self.level_diag(
                            lv,
                            "M208",
                            span,
                            &base,
                            format!("Level {name}, frail: {} -> {}: {} is a core word; a leftover must be a noun.", from.text, to.text, n.text),
                        );
                        self.emit(d);
                    }
                }
                if both_ok {
                    for n in [from, to] {
                        if declared.automaton_props.contains(n.text.as_str())
                            || declared.pair_words.contains(n.text.as_str())
                        {
                            let d = self.level_diag(
                                lv,
                                "M241",
                                pick(n.span, frail.span),
                                &base,
                                format!("Level {name}, frail: {} -> {}: a leftover must be a noun; {} is a property.", from.text, to.text, n.text),
                            );
                            self.emit(d);
                        }
                    }
                }
            }
        } else if let Some((j, o)) = level
            .objects
            .iter()
            .enumerate()
            .find(|(_, o)| o.kind == Kind::Word && o.text == "FRAIL")
        {
            let mut d = self
                .level_diag(
                    lv,
                    "M243",
                    o.span,
                    &format!(".objects[{j}]"),
                    format!("Level {name} has a FRAIL word but no frail statement. Add one with the leftovers, such as DRIFT -> WATER, or with none if crumbled things should vanish."),
                )
                .with_cell(o.x, o.y);
            if level.board_span != Span::default() {
                d = d.with_fix(
                    "Insert a frail statement",
                    Span::point(level.board_span.start as usize),
                    "frail\n  ",
                );
            }
            self.emit(d);
        }
    }
}
