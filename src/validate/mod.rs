//! Stage 2: the loader's contract, checked on the pack model (catalogue §3).
//!
//! The model may come from `.miau` source or from pack JSON; the checks are
//! the same either way. Codes that only pack JSON can produce (a wrong type, an
//! unknown key, a letter step that isn't a letter) are raised by the reader
//! in [`crate::json`]. Limits and patterns live in [`limits`], the one table
//! the engine and the solver share.

pub mod claims;
mod level;
pub mod limits;
mod mechanics;
mod objects;
mod pack;
pub mod suggest;

use std::collections::HashMap;

use crate::diag::{self, Diagnostic, Severity};
use crate::model::{Allowance, Level, Named, Object, Pack};
use crate::span::Span;
use limits::{is_reserved, is_token};

/// Run every stage 2 check that applies to the model, in pack order.
pub fn validate(pack: &Pack) -> Vec<Diagnostic> {
    validate_with(pack, &mut level_checks)
}

/// [`validate`], with each level's checks from `levels` (given the level
/// and its index): [`level_checks`], or what they said of the same level
/// before (the editor keeps them per level).
pub fn validate_with(
    pack: &Pack,
    levels: &mut dyn FnMut(&Level, usize) -> Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let mut v = Validator::new(pack.span);
    v.pack(pack);
    for (i, level) in within_limit(pack).iter().enumerate() {
        v.diags.extend(levels(level, i));
    }
    v.expressible(pack);
    v.diags
}

/// The stage 2 checks of one level, the `i`-th of its pack: a function of
/// the level and `i` alone.
pub fn level_checks(level: &Level, i: usize) -> Vec<Diagnostic> {
    let mut v = Validator::new(Span::default());
    v.level(level, i);
    v.diags
}

/// Like [`validate`], with the check configuration's cap on `budget` (M238).
pub fn validate_with_budget_cap(pack: &Pack, budget_cap: u64) -> Vec<Diagnostic> {
    let mut diags = validate(pack);
    if budget_cap < limits::DEFAULT_BUDGET_CAP {
        for (i, level) in pack.levels.iter().enumerate() {
            if let Some(b) = level.check.solver_budget
                && b > budget_cap
                && b <= limits::DEFAULT_BUDGET_CAP
            {
                diags.push(
                    Diagnostic::new(
                        "M238",
                        level.span,
                        format!(
                            "Level {}: budget must be a whole number from 1 to {budget_cap}.",
                            level_name(level, i)
                        ),
                    )
                    .with_level(level.id.text.clone())
                    .with_path(format!("levels[{i}].solverBudget")),
                );
            }
        }
    }
    diags
}

/// M211 for a pack of `count` levels, more than a pack holds, at `span`
/// (the first level past the limit). The one wording of the limit: stage 2
/// reports it for a model of too many levels, and the front ends (the
/// lowering of `.miau` and the pack JSON reader), which stop reading levels
/// at the limit, report it for what they left unread.
pub fn too_many_levels(count: usize, span: Span) -> Diagnostic {
    let max = limits::MAX_LEVELS;
    Diagnostic::new(
        "M211",
        span,
        format!(
            "The pack has {count} levels; a pack holds at most {max}, so the game won't load it. Split it into packs of at most {max} levels (levels past the {max}th aren't checked)."
        ),
    )
    .with_path(format!("levels[{max}]"))
}

/// The levels stage 2 looks at: those within the limit. Levels past it are
/// not validated: the pack doesn't load (M211 is fatal), and a million of
/// them must cost nothing.
fn within_limit(pack: &Pack) -> &[Level] {
    &pack.levels[..pack.levels.len().min(limits::MAX_LEVELS)]
}

/// Whether an allowance code is one word `.miau` can write after `allow`
/// (letters, digits, `-`, `_`); the empty code is M239's ("names no diagnostic").
fn is_code_word(code: &str) -> bool {
    code.is_empty()
        || code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The span to report: the narrow one when the model has it, else the wider one.
fn pick(narrow: Span, wide: Span) -> Span {
    if narrow == Span::default() {
        wide
    } else {
        narrow
    }
}

/// How a level is named in messages: its id, or its path when it has none.
fn level_name(level: &Level, i: usize) -> String {
    if level.id.text.is_empty() {
        format!("levels[{i}]")
    } else {
        level.id.text.clone()
    }
}

/// The lowercased, hyphenated form of a would-be id (`Night Shift` → `night-shift`).
pub fn slugify(s: &str) -> String {
    let mut out = String::new();
    for c in s.trim().chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Whether a glossary `describe` is more than one sentence: a sentence end
/// followed by more text.
fn several_sentences(s: &str) -> bool {
    let chars: Vec<char> = s.trim().chars().collect();
    chars.windows(2).enumerate().any(|(i, w)| {
        matches!(w[0], '.' | '!' | '?')
            && w[1].is_whitespace()
            && chars[i + 1..].iter().any(|c| !c.is_whitespace())
    })
}

struct Validator {
    diags: Vec<Diagnostic>,
    pack_span: Span,
    /// The M207 of each misspelt legend noun, by level and the noun's span:
    /// one diagnostic per legend entry and level, however many cells use it.
    bad_nouns: HashMap<(usize, Span), usize>,
}

/// The context of one level's checks.
struct Lv<'a> {
    level: &'a Level,
    i: usize,
    name: String,
}

impl Lv<'_> {
    fn path(&self, rest: &str) -> String {
        format!("levels[{}]{rest}", self.i)
    }
}

impl Validator {
    fn new(pack_span: Span) -> Validator {
        Validator {
            diags: Vec::new(),
            pack_span,
            bad_nouns: HashMap::new(),
        }
    }

    fn emit(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn pack_diag(&mut self, code: &str, span: Span, path: &str, msg: String) {
        let d = Diagnostic::new(code, pick(span, self.pack_span), msg).with_path(path);
        self.emit(d);
    }

    fn level_diag(
        &self,
        lv: &Lv<'_>,
        code: &str,
        span: Span,
        path: &str,
        msg: String,
    ) -> Diagnostic {
        let mut d = Diagnostic::new(code, pick(span, lv.level.span), msg).with_path(lv.path(path));
        if !lv.level.id.text.is_empty() {
            d = d.with_level(lv.level.id.text.clone());
        }
        d
    }

    /// M207 for a word that isn't a token, with the uppercase fix when that helps.
    fn token(&mut self, word: &Named, fallback: Span, path: String, level: Option<&str>) -> bool {
        if is_token(&word.text) {
            return true;
        }
        let mut d = Diagnostic::new(
            "M207",
            pick(word.span, fallback),
            format!(
                "{} isn't a word: words are capital letters, digits, '_' and '-', starting with a letter.",
                if word.text.is_empty() { "(empty)" } else { &word.text }
            ),
        )
        .with_path(path);
        if let Some(l) = level.filter(|l| !l.is_empty()) {
            d = d.with_level(l);
        }
        let upper = word.text.to_uppercase();
        if is_token(&upper) && word.span != Span::default() {
            d = d.with_fix(format!("Write {upper}"), word.span, upper);
        }
        self.emit(d);
        false
    }

    /// M207 for a thing whose legend entry writes its noun wrong (`y Key`):
    /// reported once, at the noun in the legend, with every cell of the key
    /// in its cells. The fix rewrites the legend's noun, so the cells stay
    /// things; it is offered only when the capitals are a noun a thing may
    /// have (`y Is` would become the core word IS, which names no thing).
    fn legend_noun(&mut self, lv: &Lv<'_>, o: &Object, path: String, level: Option<&str>) -> bool {
        if is_token(&o.text) {
            return true;
        }
        if let Some(&at) = self.bad_nouns.get(&(lv.i, o.legend)) {
            self.diags[at].cells.push((o.x, o.y));
            return false;
        }
        self.bad_nouns.insert((lv.i, o.legend), self.diags.len());
        let upper = o.text.to_uppercase();
        let mut d = Diagnostic::new(
            "M207",
            o.legend,
            format!(
                "The legend's thing {} isn't a noun: nouns are capital letters, digits, '_' and '-', starting with a letter.",
                if o.text.is_empty() { "(empty)" } else { &o.text }
            ),
        )
        .with_path(path)
        .with_cell(o.x, o.y);
        if let Some(l) = level.filter(|l| !l.is_empty()) {
            d = d.with_level(l);
        }
        if is_token(&upper) && !is_reserved(&upper) {
            d = d.with_fix(
                format!("Write the noun {upper} in the legend"),
                o.legend,
                upper,
            );
        }
        self.emit(d);
        false
    }

    /// M239 for a list of allowances (the level's, or the pack's when `level` is None).
    fn allowances(
        &mut self,
        list: &[Allowance],
        level: Option<(&Lv<'_>, bool)>,
        path: &str,
        fallback: Span,
    ) {
        for (k, a) in list.iter().enumerate() {
            let span = pick(a.span, pick(a.code.span, fallback));
            let who = match level {
                Some((lv, _)) => format!("Level {}", lv.name),
                None => "The pack".to_string(),
            };
            let message = match diag::lookup(&a.code.text) {
                // A code that isn't one word is M202 (see `expressible`).
                None if !is_code_word(&a.code.text) => None,
                None => Some(format!(
                    "{who}: allow {} names no diagnostic; use a code such as M403 or a name such as bypass.",
                    a.code.text
                )),
                Some(info) if info.severity == Severity::Error => Some(format!(
                    "{who}: allow {}: {} is an error, and errors can't be allowed.",
                    a.code.text, info.code
                )),
                Some(info)
                    if info.code == "M404" && level.is_some_and(|(_, automata)| !automata) =>
                {
                    Some(format!(
                        "{who}: allow hands-off, but this level has no automata, so HANDS-OFF can't happen."
                    ))
                }
                Some(_) if a.reason.trim().is_empty() => Some(format!(
                    "{who}: allow {} needs a reason, so the next reader knows why.",
                    a.code.text
                )),
                Some(_) if a.reason.trim() == crate::model::REASON_PLACEHOLDER => Some(format!(
                    "{who}: allow {} still has the placeholder reason; write why, so the next reader knows.",
                    a.code.text
                )),
                Some(_) => None,
            };
            if let Some(msg) = message {
                let mut d = Diagnostic::new("M239", span, msg).with_path(format!("{path}[{k}]"));
                if let Some((lv, _)) = level
                    && !lv.level.id.text.is_empty()
                {
                    d = d.with_level(lv.level.id.text.clone());
                }
                self.emit(d);
            }
        }
    }
}

#[cfg(test)]
mod tests;
