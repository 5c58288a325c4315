//! Stage 2 on the pack as a whole: its manifest, palette, glossary,
//! vocabulary and level list, and what pack JSON can hold but `.miau` can't say.

use std::collections::HashMap;

use super::limits::{self, is_id, is_reserved, utf16_len};
use super::suggest::{did_you_mean, or_list};
use super::{
    Validator, level_name, pick, several_sentences, slugify, too_many_levels, within_limit,
};
use crate::diag::Diagnostic;
use crate::model::{Allowance, ENGINE_VERSION, Kind, Level, Pack, RULES_VERSION};
use crate::span::Span;

impl Validator {
    /// The pack's checks (each level's follow them, in pack order).
    pub(super) fn pack(&mut self, pack: &Pack) {
        self.manifest(pack);
        self.world(pack);
        self.allowances(&pack.allow, None, "manifest.allow", self.pack_span);
        self.palette(pack);
        self.glossary(pack);
        for (i, w) in pack.vocabulary.iter().enumerate() {
            self.token(w, self.pack_span, format!("vocabulary[{i}]"), None);
        }
        self.level_list(pack);
    }

    /// The manifest's required fields (M201), its id (M206) and the versions it targets (M228).
    fn manifest(&mut self, pack: &Pack) {
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
    }

    /// The world: its glyph (M226), tagline (M227) and accent (M224).
    fn world(&mut self, pack: &Pack) {
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
    }

    /// Palette entries: nouns (M207, M208), glyphs, faces and fallbacks (M232).
    fn palette(&mut self, pack: &Pack) {
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
    }

    /// Glossary entries: words (M207, M208), accents (M224) and one-sentence describes (M225).
    fn glossary(&mut self, pack: &Pack) {
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
    }

    /// The level list: none (M201), too many (M211), an id used twice (M209).
    fn level_list(&mut self, pack: &Pack) {
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
        let mut first_index: HashMap<&str, usize> = HashMap::new();
        for (i, level) in within_limit(pack).iter().enumerate() {
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
    pub(super) fn expressible(&mut self, pack: &Pack) {
        let mut broken = Vec::new();
        pack.each_text(&mut |path, value| {
            if value.contains(['\n', '\r']) {
                broken.push(path());
            }
        });
        for path in broken {
            self.pack_diag(
                "M202",
                Span::default(),
                &path,
                format!(
                    "{path} must be one line of text: a line break can't be written in .miau. Join the lines with a space."
                ),
            );
        }
        let level_allows = within_limit(pack).iter().enumerate().flat_map(|(i, l)| {
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
        for (i, l) in within_limit(pack).iter().enumerate() {
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
}
