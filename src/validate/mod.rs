//! Stage 2: the loader's contract, checked on the pack model (catalogue §3).
//!
//! The model may come from `.miau` source or from pack JSON; the checks are
//! the same either way. Codes that only pack JSON can produce (a wrong type, an
//! unknown key, a letter step that isn't a letter) are raised by the reader
//! in [`crate::json`]. Limits and patterns live in [`limits`], the one table
//! the engine and the solver share.

pub mod limits;
pub mod suggest;

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::diag::{self, Diagnostic, Severity};
use crate::model::{
    Allowance, ENGINE_VERSION, Kind, Level, Named, Object, Pack, RULES_VERSION, Step,
};
use crate::span::Span;
use limits::{is_id, is_reserved, is_token, utf16_len};
use suggest::{did_you_mean, or_list};

/// Run every stage 2 check that applies to the model, in pack order.
pub fn validate(pack: &Pack) -> Vec<Diagnostic> {
    let mut v = Validator {
        diags: Vec::new(),
        pack_span: pack.span,
        bad_nouns: HashMap::new(),
    };
    v.pack(pack);
    v.expressible(pack);
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

    fn pack(&mut self, pack: &Pack) {
        for (field, value) in [
            ("id", &pack.id),
            ("name", &pack.name),
            ("version", &pack.version),
        ] {
            if value.is_empty() {
                self.pack_diag(
                    "M201",
                    Span::default(),
                    &format!("manifest.{field}"),
                    format!("The pack has no {field}."),
                );
            }
        }
        if !pack.id.is_empty() && !is_id(&pack.id) {
            let mut d = Diagnostic::new(
                "M206",
                self.pack_span,
                format!(
                    "Pack id {} must be 2 to 64 characters: a lowercase letter, then lowercase letters, digits, '.', '_' or '-'.",
                    pack.id
                ),
            )
            .with_path("manifest.id");
            let slug = slugify(&pack.id);
            if is_id(&slug) && pack.span != Span::default() {
                d = d.with_fix(
                    format!("Rename the pack {slug}"),
                    pack.span,
                    format!("pack {slug}"),
                );
            }
            self.emit(d);
        }
        if pack.engine != ENGINE_VERSION {
            self.pack_diag(
                "M228",
                Span::default(),
                "manifest.engine",
                format!("This pack needs a newer Miau. It targets engine {}; this miauc knows engine {ENGINE_VERSION}.", pack.engine),
            );
        }
        if let Some(r) = pack.rules
            && r > RULES_VERSION
        {
            self.pack_diag(
                "M228",
                Span::default(),
                "manifest.rules",
                format!("This pack needs a newer Miau. It targets rules version {r}; this miauc knows versions up to {RULES_VERSION}."),
            );
        }
        if let Some(w) = &pack.world {
            let n = utf16_len(&w.glyph);
            if !(limits::MIN_GLYPH..=limits::MAX_GLYPH).contains(&n) {
                self.pack_diag(
                    "M226",
                    w.span,
                    "manifest.world.glyph",
                    format!(
                        "The world glyph must be 1 to 16 characters; {} is {n}.",
                        if w.glyph.is_empty() {
                            "(empty)"
                        } else {
                            &w.glyph
                        }
                    ),
                );
            }
            if let Some(t) = &w.tagline {
                let n = utf16_len(t);
                if n > limits::MAX_TAGLINE {
                    self.pack_diag(
                        "M227",
                        w.span,
                        "manifest.world.tagline",
                        format!("The world tagline is {n} characters; at most 80."),
                    );
                }
                if t.contains('\u{b7}') {
                    self.pack_diag(
                        "M227",
                        w.span,
                        "manifest.world.tagline",
                        "The world tagline uses ·, which the copy deck doesn't allow.".into(),
                    );
                }
            }
            if let Some(a) = &w.accent {
                self.accent("The world", a, w.span, "manifest.world.accent");
            }
        }
        self.allowances(&pack.allow, None, "manifest.allow", self.pack_span);

        let mut seen_palette = HashSet::new();
        for e in &pack.palette {
            let path = format!("palette.{}", e.noun.text);
            let span = pick(e.noun.span, e.span);
            if self.token(&e.noun, span, path.clone(), None) && is_reserved(&e.noun.text) {
                self.pack_diag(
                    "M208",
                    span,
                    &path,
                    format!(
                        "Palette {}: {} is a core word; a thing needs its own noun.",
                        e.noun.text, e.noun.text
                    ),
                );
            }
            seen_palette.insert(e.noun.text.as_str());
            let mut problems = Vec::new();
            let n = utf16_len(&e.glyph);
            if !(limits::MIN_GLYPH..=limits::MAX_GLYPH).contains(&n) {
                problems.push((
                    "glyph",
                    format!("the glyph must be 1 to 16 characters; this one is {n}"),
                ));
            }
            if let Some(f) = &e.faces
                && !limits::FACES.contains(&f.as_str())
            {
                problems.push(("faces", "faces must be left or right".to_string()));
            }
            if let Some(f) = &e.fallback {
                let n = utf16_len(f);
                if !(limits::MIN_GLYPH..=limits::MAX_GLYPH).contains(&n) {
                    problems.push((
                        "fallback",
                        format!("the fallback must be 1 to 16 characters; this one is {n}"),
                    ));
                }
            }
            for (field, p) in problems {
                self.pack_diag(
                    "M232",
                    e.span,
                    &format!("{path}.{field}"),
                    format!("Palette {}: {p}.", e.noun.text),
                );
            }
        }

        for e in &pack.glossary {
            let path = format!("properties.{}", e.word.text);
            let span = pick(e.word.span, e.span);
            if self.token(&e.word, span, path.clone(), None) && is_reserved(&e.word.text) {
                self.pack_diag(
                    "M208",
                    span,
                    &path,
                    format!(
                        "Glossary {}: {} is a core word; a custom property needs a new word.",
                        e.word.text, e.word.text
                    ),
                );
            }
            self.accent(
                &format!("Glossary {}", e.word.text),
                &e.accent,
                e.span,
                &format!("{path}.accent"),
            );
            let n = utf16_len(&e.describe);
            if e.describe.trim().is_empty()
                || n > limits::MAX_DESCRIBE
                || several_sentences(&e.describe)
            {
                self.pack_diag(
                    "M225",
                    e.span,
                    &format!("{path}.describe"),
                    format!("Glossary {}: describe must be one sentence of at most 80 characters (this one is {n}).", e.word.text),
                );
            }
        }

        for (i, w) in pack.vocabulary.iter().enumerate() {
            self.token(w, self.pack_span, format!("vocabulary[{i}]"), None);
        }

        if pack.levels.is_empty() {
            self.pack_diag(
                "M201",
                Span::default(),
                "levels",
                "The pack has no levels.".into(),
            );
        }
        if pack.levels.len() > limits::MAX_LEVELS {
            let past = &pack.levels[limits::MAX_LEVELS];
            self.emit(too_many_levels(
                pack.levels.len(),
                pick(past.span, self.pack_span),
            ));
        }
        // Levels past the limit are not validated: the pack doesn't load
        // (M211 is fatal), and a million of them must cost nothing.
        let within = &pack.levels[..pack.levels.len().min(limits::MAX_LEVELS)];
        let mut first_index: HashMap<&str, usize> = HashMap::new();
        for (i, level) in within.iter().enumerate() {
            let id = level.id.text.as_str();
            if id.is_empty() {
                continue;
            }
            if let Some(&j) = first_index.get(id) {
                let d = Diagnostic::new(
                    "M209",
                    pick(level.id.span, level.span),
                    format!("Level id {id} is used twice (levels {j} and {i}): duplicates another level id."),
                )
                .with_level(id)
                .with_path(format!("levels[{i}].id"))
                .with_related(pick(pack.levels[j].id.span, pack.levels[j].span), "first used here");
                self.emit(d);
            } else {
                first_index.insert(id, i);
            }
        }
        for (i, level) in within.iter().enumerate() {
            self.level(level, i);
        }
    }

    fn accent(&mut self, where_: &str, value: &str, span: Span, path: &str) {
        if limits::ACCENTS.contains(&value) {
            return;
        }
        let sugg = did_you_mean(value, limits::ACCENTS);
        let mean = if sugg.is_empty() {
            String::new()
        } else {
            format!(" Did you mean {}?", or_list(&sugg))
        };
        self.pack_diag(
            "M224",
            span,
            path,
            format!(
                "{where_}: accent {value} must be one of you, push, stop, win, sink, defeat.{mean}"
            ),
        );
    }

    /// What pack JSON can hold but `.miau` can't say, refused so that every
    /// pack that validates imports to source that builds to the same pack:
    /// a line break in a text (a `.miau` string is one line, with only `\"`
    /// and `\\` escapes) and an allowance code that isn't one word are M202,
    /// the same word twice in one cell is M112 (a stack names each word
    /// once). Source never produces these: the lexer ends a string at the
    /// line's end, the parser reads a code as one token and drops a repeated
    /// stack word with its own M112.
    fn expressible(&mut self, pack: &Pack) {
        for (path, value) in pack.texts() {
            if value.contains(['\n', '\r']) {
                self.pack_diag(
                    "M202",
                    Span::default(),
                    &path,
                    format!(
                        "{path} must be one line of text: a line break can't be written in .miau. Join the lines with a space."
                    ),
                );
            }
        }
        let within = &pack.levels[..pack.levels.len().min(limits::MAX_LEVELS)];
        let level_allows = within.iter().enumerate().flat_map(|(i, l)| {
            let c = &l.check;
            let named = c.allow_bypass.iter().chain(c.allow_hands_off.iter());
            // The JSON path of the `allow` list entry: bypass and hands-off
            // may come from their booleans, and then have no entry.
            named
                .map(move |a| (format!("levels[{i}].allow"), l, a))
                .chain(
                    c.allow
                        .iter()
                        .enumerate()
                        .map(move |(k, a)| (format!("levels[{i}].allow[{k}].code"), l, a)),
                )
        });
        let mut bad: Vec<(String, Option<&Level>, &Allowance)> = pack
            .allow
            .iter()
            .enumerate()
            .map(|(k, a)| (format!("manifest.allow[{k}].code"), None, a))
            .collect();
        bad.extend(level_allows.map(|(p, l, a)| (p, Some(l), a)));
        for (path, level, a) in bad {
            let code = &a.code.text;
            if code.is_empty()
                || code
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                continue;
            }
            let mut d = Diagnostic::new(
                "M202",
                pick(a.span, pick(a.code.span, self.pack_span)),
                format!(
                    "{path} must be one word, a code such as M403 or a name such as bypass; {code:?} isn't."
                ),
            )
            .with_path(path);
            if let Some(l) = level.filter(|l| !l.id.text.is_empty()) {
                d = d.with_level(l.id.text.clone());
            }
            self.emit(d);
        }
        for (i, l) in within.iter().enumerate() {
            let mut first: HashMap<(u32, u32, &str), usize> = HashMap::new();
            for (j, o) in l.objects.iter().enumerate() {
                if o.kind != Kind::Word {
                    continue;
                }
                if let Some(&k) = first.get(&(o.x, o.y, o.text.as_str())) {
                    let name = level_name(l, i);
                    let mut d = Diagnostic::new(
                        "M112",
                        pick(o.span, l.span),
                        format!(
                            "Level {name}, column {}, row {}: {w}+{w} isn't a complete stack: objects {k} and {j} are both the word {w}, and a cell names a word once. Remove one.",
                            o.x,
                            o.y,
                            w = o.text
                        ),
                    )
                    .with_path(format!("levels[{i}].objects[{j}]"))
                    .with_cell(o.x, o.y);
                    if !l.id.text.is_empty() {
                        d = d.with_level(l.id.text.clone());
                    }
                    self.emit(d);
                } else {
                    first.insert((o.x, o.y, o.text.as_str()), j);
                }
            }
        }
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

    fn level(&mut self, level: &Level, i: usize) {
        let lv = Lv {
            level,
            i,
            name: level_name(level, i),
        };
        let name = lv.name.clone();
        let lid = Some(level.id.text.as_str());

        // Ids and required fields.
        if level.id.text.is_empty() {
            let d = self.level_diag(
                &lv,
                "M201",
                Span::default(),
                ".id",
                format!("Level {name} has no id."),
            );
            self.emit(d);
        } else if !is_id(&level.id.text) {
            let mut d = self.level_diag(
                &lv,
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
                &lv,
                "M201",
                Span::default(),
                ".title",
                format!("Level {name} has no title."),
            );
            self.emit(d);
        }

        // Size and objects.
        let (w, h) = (level.width, level.height);
        let side = limits::MIN_BOARD_SIDE..=limits::MAX_BOARD_SIDE;
        if w == 0 && h == 0 && level.objects.is_empty() {
            let d = self.level_diag(
                &lv,
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
                &lv,
                "M213",
                level.board_span,
                path,
                format!("Level {name} is {w}×{h}; a board is 1 to 128 cells each way."),
            );
            self.emit(d);
        }
        if level.objects.len() > limits::MAX_OBJECTS {
            let d = self.level_diag(
                &lv,
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

        // Declared properties of this level.
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

        let mut seen_ids: HashMap<&str, usize> = HashMap::new();
        let mut channels: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for (j, o) in level.objects.iter().enumerate() {
            let path = format!(".objects[{j}]");
            let at = |d: Diagnostic| d.with_cell(o.x, o.y);
            if !o.id.is_empty() {
                if let Some(&first) = seen_ids.get(o.id.as_str()) {
                    let d = self.level_diag(
                        &lv,
                        "M210",
                        o.span,
                        &format!("{path}.id"),
                        format!("Level {name}: two objects are called {} (objects {first} and {j}). Each needs its own id.", o.id),
                    );
                    self.emit(at(d));
                } else {
                    seen_ids.insert(&o.id, j);
                }
            }
            if o.x >= w || o.y >= h {
                let what = match o.kind {
                    Kind::Word => format!("the word {}", o.text),
                    Kind::Thing => format!("the {}", o.text),
                };
                let d = self.level_diag(
                    &lv,
                    "M214",
                    o.span,
                    &path,
                    format!(
                        "Level {name}: {what} at column {}, row {} is outside the {w}×{h} board.",
                        o.x, o.y
                    ),
                );
                self.emit(at(d));
            }
            let ok = if o.kind == Kind::Thing && o.legend != Span::default() {
                self.legend_noun(&lv, o, lv.path(&format!("{path}.noun")), lid)
            } else {
                let field = if o.kind == Kind::Word { "text" } else { "noun" };
                let word = Named {
                    text: o.text.clone(),
                    span: o.written(),
                };
                let ok = self.token(
                    &word,
                    lv.level.span,
                    lv.path(&format!("{path}.{field}")),
                    lid,
                );
                if let Some(last) = self.diags.last_mut()
                    && !ok
                {
                    last.cells.push((o.x, o.y));
                }
                ok
            };
            match o.kind {
                Kind::Word => {
                    if o.channel.is_some() {
                        let d = self.level_diag(
                            &lv,
                            "M204",
                            o.span,
                            &format!("{path}.channel"),
                            format!("levels[{i}]{path}.channel: unsupported field."),
                        );
                        self.emit(at(d));
                    }
                }
                Kind::Thing => {
                    if ok && is_reserved(&o.text) {
                        let d = self.level_diag(
                            &lv,
                            "M208",
                            o.span,
                            &format!("{path}.noun"),
                            format!("Level {name}, column {}, row {}: a thing can't be called {t}; {t} is a core word.", o.x, o.y, t = o.text),
                        );
                        self.emit(at(d));
                    }
                    // A thing named after an automaton property is M302, a stage 3
                    // error: reporting it here as M208 would gate stage 3 and hide it.
                    if o.fixed {
                        let d = self.level_diag(
                            &lv,
                            "M204",
                            o.span,
                            &format!("{path}.fixed"),
                            format!("levels[{i}]{path}.fixed: unsupported field. Only word tiles can be fixed."),
                        );
                        self.emit(at(d));
                    }
                    let gateish = limits::CHANNEL_NOUNS.contains(&o.text.as_str());
                    match &o.channel {
                        Some(c) if !gateish => {
                            let d = self.level_diag(
                                &lv,
                                "M245",
                                o.span,
                                &format!("{path}.channel"),
                                format!(
                                    "Level {name}, {} at column {}, row {} has a channel, but only plates and gates are linked by channels.",
                                    o.text, o.x, o.y
                                ),
                            );
                            self.emit(at(d));
                            let _ = c;
                        }
                        Some(c) => {
                            if limits::CHANNELS.contains(&c.as_str()) {
                                let e = channels.entry(c.as_str()).or_default();
                                if o.text == "PLATE" {
                                    e.0 += 1;
                                } else {
                                    e.1 += 1;
                                }
                            } else {
                                let sugg = did_you_mean(c, limits::CHANNELS);
                                let mean = if sugg.is_empty() {
                                    format!(" The channels are {}.", limits::CHANNELS.join(", "))
                                } else {
                                    format!(" Did you mean {}?", or_list(&sugg))
                                };
                                let d = self.level_diag(
                                    &lv,
                                    "M244",
                                    o.span,
                                    &format!("{path}.channel"),
                                    format!(
                                        "Level {name}, {} at column {}, row {}: channel {c} isn't a channel colour.{mean}",
                                        o.text, o.x, o.y
                                    ),
                                );
                                self.emit(at(d));
                            }
                        }
                        None if gateish => {
                            let d = self.level_diag(
                                &lv,
                                "M246",
                                o.span,
                                &path,
                                format!(
                                    "Level {name}, the {} at column {}, row {} has no channel, so {}.",
                                    o.text,
                                    o.x,
                                    o.y,
                                    if o.text == "GATE" { "no plate opens it" } else { "it opens no gate" }
                                ),
                            );
                            self.emit(at(d));
                        }
                        None => {}
                    }
                }
            }
        }
        for (c, (plates, gates)) in &channels {
            let msg = match (plates, gates) {
                (p, 0) if *p > 0 => format!(
                    "Level {name}: the {c} channel has plates but no gate, so pressing them does nothing."
                ),
                (0, g) if *g > 0 => format!(
                    "Level {name}: the {c} channel has a gate but no plate, so the gate never opens."
                ),
                _ => continue,
            };
            let d = self.level_diag(&lv, "M247", level.board_span, ".objects", msg);
            self.emit(d);
        }

        self.automata(&lv, &pair_words);
        self.pairs(&lv, &automaton_props, &thing_nouns);

        // Terrain.
        for (k, t) in level.terrain.iter().enumerate() {
            let path = lv.path(&format!(".terrain[{k}]"));
            if self.token(t, level.span, path.clone(), lid) && is_reserved(&t.text) {
                let d = self.level_diag(
                    &lv,
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

        // Frail.
        if let Some(frail) = &level.frail {
            for (k, (from, to)) in frail.leaves.iter().enumerate() {
                let base = format!(".mechanics[0].leaves.{}", from.text);
                let mut both_ok = true;
                for n in [from, to] {
                    let span = pick(n.span, frail.span);
                    if !self.token(n, span, lv.path(&base), lid) {
                        both_ok = false;
                    } else if is_reserved(&n.text) {
                        both_ok = false;
                        let d = self.level_diag(
                            &lv,
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
                        if automaton_props.contains(n.text.as_str())
                            || pair_words.contains(n.text.as_str())
                        {
                            let d = self.level_diag(
                                &lv,
                                "M241",
                                pick(n.span, frail.span),
                                &base,
                                format!("Level {name}, frail: {} -> {}: a leftover must be a noun; {} is a property.", from.text, to.text, n.text),
                            );
                            self.emit(d);
                        }
                    }
                }
                let _ = k;
            }
        } else if let Some((j, o)) = level
            .objects
            .iter()
            .enumerate()
            .find(|(_, o)| o.kind == Kind::Word && o.text == "FRAIL")
        {
            let mut d = self
                .level_diag(
                    &lv,
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

        // Category.
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
                &lv,
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

        // Introduces and reuses.
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
                        &lv,
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

        // Check metadata.
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
                    &lv,
                    "M236",
                    rule.span,
                    &format!(".{key}[{k}]"),
                    format!("Level {name}: {stmt} {} isn't a rule. Write SUBJECT IS PREDICATE, like {like}.", rule.text),
                );
                self.emit(d);
            }
        }
        if let Some(sol) = &level.check.solution
            && let Some((k, c)) = sol
                .text
                .chars()
                .enumerate()
                .find(|(_, c)| !limits::SOLUTION_LETTERS.contains(c))
        {
            let mut d = self.level_diag(
                &lv,
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
        if level.check.steps == Some(0) {
            let d = self.level_diag(
                &lv,
                "M237",
                Span::default(),
                ".steps",
                format!("Level {name}: steps must be a whole number of at least 1."),
            );
            self.emit(d);
        }
        if let Some(b) = level.check.solver_budget
            && (b == 0 || b > limits::DEFAULT_BUDGET_CAP)
        {
            let d = self.level_diag(
                &lv,
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
            Some((&lv, has_automata)),
            &lv.path(".allow"),
            level.span,
        );
    }

    fn automata(&mut self, lv: &Lv<'_>, pair_words: &HashSet<&str>) {
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

    fn pairs(&mut self, lv: &Lv<'_>, automaton_props: &HashSet<&str>, thing_nouns: &HashSet<&str>) {
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
}

#[cfg(test)]
mod tests;

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
