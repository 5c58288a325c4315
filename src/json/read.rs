//! Pack JSON in: the canonical format plus the lenient legacy forms of the
//! seeds' packs (palette values as plain strings, letter steps, lowercase
//! automaton and pair words, objects without `kind` or `id`, `introduces` as a
//! flat list).
//!
//! The reader reports what only JSON can get wrong: syntax (M106), shapes and
//! types (M202, M204), unknown keys (M203), bad steps (M218, M219), mechanics
//! (M240, M242), features (M229–M231) and the like. Everything the model can
//! still hold is left to stage 2 ([`crate::validate::validate`]), so one
//! mistake gives one diagnostic.

use serde_json::{Map, Value};

use crate::diag::Diagnostic;
use crate::model::{
    Allowance, Automaton, CheckMeta, ENGINE_VERSION, FEATURES, Frail, GlossaryEntry, Introduces,
    Kind, Level, Named, Object, Pack, Pair, PaletteEntry, Step, World,
};
use crate::span::{LineIndex, Span};
use crate::validate::limits;
use crate::validate::suggest::{did_you_mean, or_list};

use super::{attach_spans, is_bypass, is_hands_off};

/// Top-level keys of the pack format.
const PACK_KEYS: &[&str] = &["manifest", "palette", "properties", "vocabulary", "levels"];
/// Keys of `manifest`.
const MANIFEST_KEYS: &[&str] = &[
    "id", "name", "version", "engine", "world", "features", "rules", "allow",
];
/// Keys of a level.
const LEVEL_KEYS: &[&str] = &[
    "id",
    "title",
    "hint",
    "category",
    "introduces",
    "reuses",
    "width",
    "height",
    "automata",
    "pairs",
    "mechanics",
    "terrain",
    "allowBypass",
    "allowHandsOff",
    "allow",
    "mustForm",
    "mustBreak",
    "mustLoseWord",
    "solverBudget",
    "solution",
    "steps",
    "objects",
];

/// Read pack JSON into the model.
///
/// Returns `None` only when there is no pack to speak of (a syntax error, or a
/// top level that isn't an object). Otherwise the model holds everything that
/// could be read, and the diagnostics say what couldn't; run
/// [`crate::validate::validate`] on the model for the rest of stage 2, and
/// [`attach_spans`] to point its diagnostics into `text`.
pub fn from_json(text: &str) -> (Option<Pack>, Vec<Diagnostic>) {
    let text = &*without_bom(text);
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (None, vec![syntax_error(text, &e)]),
    };
    let mut r = Reader { diags: Vec::new() };
    let pack = match &value {
        Value::Object(top) => Some(r.pack(top)),
        _ => {
            r.diags.push(
                Diagnostic::new("M202", Span::default(), "The pack must be an object.")
                    .with_path(""),
            );
            None
        }
    };
    let mut diags = r.diags;
    attach_spans(text, &mut diags);
    (pack, diags)
}

/// The text with a leading UTF-8 byte order mark turned into three spaces:
/// editors on some systems save one, `.miau` files accept it, and JSON
/// doesn't allow it. Three spaces keep every byte offset where it was.
pub fn without_bom(text: &str) -> std::borrow::Cow<'_, str> {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => format!("   {rest}").into(),
        None => text.into(),
    }
}

/// M106 for a JSON syntax error, at the byte where serde_json stopped.
fn syntax_error(text: &str, e: &serde_json::Error) -> Diagnostic {
    let index = LineIndex::new(text);
    let line = e.line().saturating_sub(1);
    let mut offset = index
        .line_start(line)
        .map_or(text.len(), |s| s + e.column().saturating_sub(1))
        .min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let found = match text[offset..].chars().next() {
        None => "the end of the file".to_string(),
        Some(c) if c.is_whitespace() => "a space".to_string(),
        Some(c) => format!("`{c}`"),
    };
    let full = e.to_string();
    let detail = full
        .rsplit_once(" at line ")
        .map_or(full.as_str(), |(d, _)| d);
    let message = match detail.strip_prefix("expected ") {
        Some(what) => format!("Expected {what}, found {found}."),
        None if e.is_eof() => "Expected the rest of the JSON, found the end of the file.".into(),
        None => format!("Expected valid JSON, found {found}: {detail}."),
    };
    let end = offset + text[offset..].chars().next().map_or(0, char::len_utf8);
    Diagnostic::new("M106", Span::new(offset, end), message).with_path("")
}

struct Reader {
    diags: Vec<Diagnostic>,
}

/// Where in the pack a value is: its path and, inside a level, the level id.
#[derive(Clone)]
struct At<'a> {
    path: String,
    level: Option<&'a str>,
}

impl<'a> At<'a> {
    fn key(&self, k: &str) -> At<'a> {
        At {
            path: if self.path.is_empty() {
                k.to_string()
            } else {
                format!("{}.{k}", self.path)
            },
            level: self.level,
        }
    }
    fn index(&self, i: usize) -> At<'a> {
        At {
            path: format!("{}[{i}]", self.path),
            level: self.level,
        }
    }
}

impl Reader {
    fn push(&mut self, code: &str, at: &At<'_>, message: impl Into<String>) {
        let mut d = Diagnostic::new(code, Span::default(), message).with_path(at.path.clone());
        if let Some(l) = at.level {
            d = d.with_level(l);
        }
        self.diags.push(d);
    }

    fn wrong_type(&mut self, at: &At<'_>, expected: &str) {
        let msg = format!("{} must be {expected}.", at.path);
        self.push("M202", at, msg);
    }

    /// M203 for keys the format doesn't define at pack, manifest or level level.
    fn unknown_keys(&mut self, map: &Map<String, Value>, known: &[&str], at: &At<'_>, whose: &str) {
        for k in map.keys() {
            if known.contains(&k.as_str()) {
                continue;
            }
            let sugg = did_you_mean(k, known);
            let mean = if sugg.is_empty() {
                String::new()
            } else {
                format!(" Did you mean {}?", or_list(&sugg))
            };
            let msg = format!(
                "{whose}: unknown key {k}.{mean} A build that doesn't know a key ignores it, so this one does nothing."
            );
            self.push("M203", &at.key(k), msg);
        }
    }

    /// M204 for fields a closed record doesn't define.
    fn unsupported(&mut self, map: &Map<String, Value>, known: &[&str], at: &At<'_>) {
        for k in map.keys() {
            if !known.contains(&k.as_str()) {
                let a = at.key(k);
                let msg = format!("{}: unsupported field.", a.path);
                self.push("M204", &a, msg);
            }
        }
    }

    fn string(&mut self, v: Option<&Value>, at: &At<'_>) -> Option<String> {
        match v? {
            Value::String(s) => Some(s.clone()),
            _ => {
                self.wrong_type(at, "text");
                None
            }
        }
    }

    fn uint(&mut self, v: Option<&Value>, at: &At<'_>) -> Option<u64> {
        let v = v?;
        match v.as_u64() {
            Some(n) => Some(n),
            None => {
                self.wrong_type(at, "a whole number");
                None
            }
        }
    }

    fn boolean(&mut self, v: Option<&Value>, at: &At<'_>) -> Option<bool> {
        match v? {
            Value::Bool(b) => Some(*b),
            _ => {
                self.wrong_type(at, "true or false");
                None
            }
        }
    }

    fn object<'v>(
        &mut self,
        v: &'v Value,
        at: &At<'_>,
        expected: &str,
    ) -> Option<&'v Map<String, Value>> {
        match v {
            Value::Object(m) => Some(m),
            _ => {
                self.wrong_type(at, expected);
                None
            }
        }
    }

    fn array<'v>(&mut self, v: &'v Value, at: &At<'_>, expected: &str) -> Option<&'v Vec<Value>> {
        match v {
            Value::Array(a) => Some(a),
            _ => {
                self.wrong_type(at, expected);
                None
            }
        }
    }

    /// A list of strings; `upper` applies the loader's uppercasing.
    fn words(&mut self, v: Option<&Value>, at: &At<'_>, expected: &str, upper: bool) -> Vec<Named> {
        let Some(v) = v else { return Vec::new() };
        let Some(list) = self.array(v, at, expected) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in list.iter().enumerate() {
            match item {
                Value::String(s) => {
                    out.push(Named::new(if upper { s.to_uppercase() } else { s.clone() }))
                }
                _ => self.wrong_type(&at.index(i), "an uppercase word"),
            }
        }
        out
    }

    fn pack(&mut self, top: &Map<String, Value>) -> Pack {
        let root = At {
            path: String::new(),
            level: None,
        };
        self.unknown_keys(top, PACK_KEYS, &root, "The pack");
        let mut pack = Pack {
            engine: ENGINE_VERSION,
            ..Pack::default()
        };
        let mut declared: Vec<(String, At<'static>)> = Vec::new();

        let m_at = root.key("manifest");
        match top.get("manifest") {
            None => self.push("M201", &m_at, "The pack has no manifest."),
            Some(v) => {
                if let Some(m) = self.object(v, &m_at, "an object") {
                    self.unknown_keys(m, MANIFEST_KEYS, &m_at, "The manifest");
                    pack.id = self
                        .string(m.get("id"), &m_at.key("id"))
                        .unwrap_or_default();
                    pack.name = self
                        .string(m.get("name"), &m_at.key("name"))
                        .unwrap_or_default();
                    pack.version = self
                        .string(m.get("version"), &m_at.key("version"))
                        .unwrap_or_default();
                    match m.get("engine") {
                        None => self.push("M201", &m_at.key("engine"), "The pack has no engine."),
                        Some(v) => {
                            if let Some(n) = self.uint(Some(v), &m_at.key("engine")) {
                                pack.engine = u32::try_from(n).unwrap_or(u32::MAX);
                            }
                        }
                    }
                    pack.rules = self
                        .uint(m.get("rules"), &m_at.key("rules"))
                        .map(|n| u32::try_from(n).unwrap_or(u32::MAX));
                    if let Some(w) = m.get("world") {
                        pack.world = self.world(w, &m_at.key("world"));
                    }
                    let f_at = m_at.key("features");
                    let features = match m.get("features") {
                        None => Vec::new(),
                        Some(v) => match v.as_array() {
                            Some(list) => {
                                let mut out = Vec::new();
                                for (i, f) in list.iter().enumerate() {
                                    match f.as_str() {
                                        Some(s) => {
                                            out.push(s.to_string());
                                            declared.push((s.to_string(), f_at.index(i)));
                                        }
                                        None => self.wrong_type(&f_at.index(i), "a feature name"),
                                    }
                                }
                                out
                            }
                            None => {
                                self.wrong_type(&f_at, "a list of feature names");
                                Vec::new()
                            }
                        },
                    };
                    pack.declared_features = Some(features);
                    if let Some(v) = m.get("allow") {
                        pack.allow = self.allow_list(v, &m_at.key("allow"));
                    }
                }
            }
        }
        if pack.declared_features.is_none() {
            pack.declared_features = Some(Vec::new());
        }

        if let Some(v) = top.get("palette") {
            self.palette(v, &mut pack);
        }
        if let Some(v) = top.get("properties") {
            self.glossary(v, &mut pack);
        }
        pack.vocabulary = self.words(
            top.get("vocabulary"),
            &root.key("vocabulary"),
            "a list of uppercase words",
            false,
        );

        let l_at = root.key("levels");
        if let Some(v) = top.get("levels")
            && let Some(list) = self.array(v, &l_at, "a list of levels")
        {
            let max = crate::validate::limits::MAX_LEVELS;
            if list.len() > max {
                // Levels past the limit are not read: the pack doesn't load
                // (M211), and a million of them must not cost a million models.
                self.diags.push(crate::validate::too_many_levels(
                    list.len(),
                    Span::default(),
                ));
            }
            for (i, lv) in list.iter().take(max).enumerate() {
                let at = l_at.index(i);
                if let Some(m) = self.object(lv, &at, "an object") {
                    let level = self.level(m, &at);
                    pack.levels.push(level);
                }
            }
        }

        self.features(&pack, &declared);
        pack
    }

    fn world(&mut self, v: &Value, at: &At<'_>) -> Option<World> {
        let m = self.object(v, at, "{ glyph, tagline, accent }")?;
        self.unsupported(m, &["glyph", "tagline", "accent"], at);
        Some(World {
            glyph: self
                .string(m.get("glyph"), &at.key("glyph"))
                .unwrap_or_default(),
            tagline: self.string(m.get("tagline"), &at.key("tagline")),
            accent: self.string(m.get("accent"), &at.key("accent")),
            span: Span::default(),
        })
    }

    fn palette(&mut self, v: &Value, pack: &mut Pack) {
        let at = At {
            path: "palette".into(),
            level: None,
        };
        let Some(m) = self.object(v, &at, "a map from nouns to glyphs") else {
            return;
        };
        for (noun, entry) in m {
            let e_at = at.key(noun);
            let mut e = PaletteEntry {
                noun: Named::new(noun.clone()),
                ..PaletteEntry::default()
            };
            match entry {
                // Legacy form: the glyph alone.
                Value::String(g) => e.glyph = g.clone(),
                Value::Object(em) => {
                    self.unsupported(em, &["glyph", "faces", "fallback", "terrain"], &e_at);
                    e.glyph = self
                        .string(em.get("glyph"), &e_at.key("glyph"))
                        .unwrap_or_default();
                    e.faces = self.string(em.get("faces"), &e_at.key("faces"));
                    e.fallback = self.string(em.get("fallback"), &e_at.key("fallback"));
                    e.terrain = self
                        .boolean(em.get("terrain"), &e_at.key("terrain"))
                        .unwrap_or(false);
                }
                _ => {
                    self.wrong_type(&e_at, "a glyph or { glyph, faces, fallback, terrain }");
                    continue;
                }
            }
            pack.palette.push(e);
        }
    }

    fn glossary(&mut self, v: &Value, pack: &mut Pack) {
        let at = At {
            path: "properties".into(),
            level: None,
        };
        let Some(m) = self.object(v, &at, "a map from property words to { accent, describe }")
        else {
            return;
        };
        for (word, entry) in m {
            let e_at = at.key(word);
            let Some(em) = self.object(entry, &e_at, "{ accent, describe }") else {
                continue;
            };
            self.unsupported(em, &["accent", "describe"], &e_at);
            pack.glossary.push(GlossaryEntry {
                word: Named::new(word.clone()),
                accent: self
                    .string(em.get("accent"), &e_at.key("accent"))
                    .unwrap_or_default(),
                describe: self
                    .string(em.get("describe"), &e_at.key("describe"))
                    .unwrap_or_default(),
                span: Span::default(),
            });
        }
    }

    fn allow_list(&mut self, v: &Value, at: &At<'_>) -> Vec<Allowance> {
        let Some(list) = self.array(v, at, "a list of { code, reason }") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let a_at = at.index(i);
            let Some(m) = self.object(item, &a_at, "{ code, reason }") else {
                continue;
            };
            self.unsupported(m, &["code", "reason"], &a_at);
            let Some(code) = self.string(m.get("code"), &a_at.key("code")) else {
                if !m.contains_key("code") {
                    self.wrong_type(&a_at.key("code"), "a diagnostic code or name");
                }
                continue;
            };
            out.push(Allowance {
                code: Named::new(code),
                reason: self
                    .string(m.get("reason"), &a_at.key("reason"))
                    .unwrap_or_default(),
                span: Span::default(),
            });
        }
        out
    }

    fn introduces(&mut self, v: Option<&Value>, at: &At<'_>, key: &str) -> Introduces {
        let Some(v) = v else {
            return Introduces::default();
        };
        match v {
            Value::Object(m) => {
                self.unsupported(m, &["words", "ideas"], at);
                let words = self.words(
                    m.get("words"),
                    &at.key("words"),
                    "a list of uppercase words",
                    false,
                );
                let ideas = self
                    .words(m.get("ideas"), &at.key("ideas"), "a list of texts", false)
                    .into_iter()
                    .map(|n| n.text)
                    .collect();
                Introduces { words, ideas }
            }
            // Legacy: one flat list of tokens and free text (M234).
            Value::Array(list) => {
                let mut out = Introduces::default();
                for (i, item) in list.iter().enumerate() {
                    match item.as_str() {
                        Some(s) if limits::is_token(s) => out.words.push(Named::new(s)),
                        Some(s) => out.ideas.push(s.to_string()),
                        None => self.wrong_type(&at.index(i), "a word or a text"),
                    }
                }
                if !out.ideas.is_empty() {
                    let words: Vec<&str> = out.words.iter().map(|w| w.text.as_str()).collect();
                    let ideas: Vec<String> = out.ideas.iter().map(|s| format!("\"{s}\"")).collect();
                    let level = at.level.unwrap_or("?");
                    let msg = if words.is_empty() {
                        format!(
                            "Level {level}: {key} is a plain list. Write it as {{ words, ideas }}: ideas {}.",
                            ideas.join(", ")
                        )
                    } else {
                        format!(
                            "Level {level}: {key} mixes words and ideas. Split it: words {}; ideas {}.",
                            words.join(", "),
                            ideas.join(", ")
                        )
                    };
                    self.push("M234", at, msg);
                }
                out
            }
            _ => {
                self.push(
                    "M234",
                    at,
                    format!(
                        "Level {}: {key} must be {{ words, ideas }}.",
                        at.level.unwrap_or("?")
                    ),
                );
                Introduces::default()
            }
        }
    }

    fn level(&mut self, m: &Map<String, Value>, at0: &At<'_>) -> Level {
        let id = m.get("id").and_then(Value::as_str);
        let at = At {
            path: at0.path.clone(),
            level: id,
        };
        let name = id.map_or_else(|| at.path.clone(), str::to_string);
        self.unknown_keys(m, LEVEL_KEYS, &at, &format!("Level {name}"));
        let mut level = Level {
            id: Named::new(self.string(m.get("id"), &at.key("id")).unwrap_or_default()),
            title: self.string(m.get("title"), &at.key("title")),
            hint: self.string(m.get("hint"), &at.key("hint")),
            category: self
                .string(m.get("category"), &at.key("category"))
                .map(Named::new),
            ..Level::default()
        };
        level.introduces =
            self.introduces(m.get("introduces"), &at.key("introduces"), "introduces");
        level.reuses = self.introduces(m.get("reuses"), &at.key("reuses"), "reuses");

        if let Some(v) = m.get("automata")
            && let Some(list) = self.array(v, &at.key("automata"), "a list of automata")
        {
            for (i, item) in list.iter().enumerate() {
                if let Some(a) = self.automaton(item, &at.key("automata").index(i)) {
                    level.automata.push(a);
                }
            }
        }
        if let Some(v) = m.get("pairs")
            && let Some(list) = self.array(v, &at.key("pairs"), "a list of pairs")
        {
            for (i, item) in list.iter().enumerate() {
                if let Some(p) = self.pair(item, &at.key("pairs").index(i)) {
                    level.pairs.push(p);
                }
            }
        }
        if let Some(v) = m.get("mechanics") {
            level.frail = self.mechanics(v, &at.key("mechanics"));
        }
        level.terrain = self.words(
            m.get("terrain"),
            &at.key("terrain"),
            "a list of uppercase nouns",
            false,
        );
        level.check = self.check(m, &at);

        let objects = match m.get("objects") {
            None => {
                self.push(
                    "M201",
                    &at.key("objects"),
                    format!("Level {name} has no objects."),
                );
                Vec::new()
            }
            Some(v) => match self.array(v, &at.key("objects"), "a list of objects") {
                Some(list) => list
                    .iter()
                    .enumerate()
                    .filter_map(|(i, o)| {
                        self.object_record(o, i, &at.key("objects").index(i), &name)
                    })
                    .collect(),
                None => Vec::new(),
            },
        };
        level.objects = objects;

        // A missing size falls back to the objects' extent, so one missing
        // field doesn't also produce a size error and a pile of out-of-bounds ones.
        for (key, is_width) in [("width", true), ("height", false)] {
            let k_at = at.key(key);
            let extent = level
                .objects
                .iter()
                .map(|o| (if is_width { o.x } else { o.y }).saturating_add(1))
                .max()
                .unwrap_or(1);
            let value = match m.get(key) {
                None => {
                    self.push("M201", &k_at, format!("Level {name} has no {key}."));
                    extent
                }
                Some(v) => match v.as_u64() {
                    Some(n) => u32::try_from(n).unwrap_or(u32::MAX),
                    None => {
                        self.wrong_type(&k_at, "a whole number from 1 to 128");
                        extent
                    }
                },
            };
            if is_width {
                level.width = value;
            } else {
                level.height = value;
            }
        }
        level
    }

    fn automaton(&mut self, v: &Value, at: &At<'_>) -> Option<Automaton> {
        let m = self.object(v, at, "{ id, subject, property, phase, pattern }")?;
        self.unsupported(m, &["id", "subject", "property", "phase", "pattern"], at);
        let id = self.string(m.get("id"), &at.key("id")).unwrap_or_default();
        let mut a = Automaton {
            id: Named::new(id.clone()),
            // The loader uppercases subjects and properties; so do we.
            subject: self
                .string(m.get("subject"), &at.key("subject"))
                .map(|s| Named::new(s.to_uppercase())),
            property: Named::new(
                self.string(m.get("property"), &at.key("property"))
                    .unwrap_or_default()
                    .to_uppercase(),
            ),
            ..Automaton::default()
        };
        let level = at.level.unwrap_or("?");
        if let Some(p) = m.get("phase") {
            match p.as_u64() {
                Some(n) => a.phase = Some(n),
                None => self.push(
                    "M220",
                    &at.key("phase"),
                    format!("Level {level}, automaton {id}: phase {p} isn't a whole number from 0 to the pattern length minus 1."),
                ),
            }
        }
        let p_at = at.key("pattern");
        match m.get("pattern") {
            None => {}
            Some(Value::String(s)) => {
                for (k, c) in s.chars().enumerate() {
                    match Step::from_letter(c) {
                        Some(step) => a.pattern.push(step),
                        None => self.bad_step(&p_at, level, &id, k, &c.to_string()),
                    }
                }
            }
            Some(Value::Array(steps)) => {
                let (mut letters, mut long) = (false, false);
                for (k, s) in steps.iter().enumerate() {
                    let s_at = p_at.index(k);
                    match s {
                        Value::String(l) => {
                            letters = true;
                            let mut cs = l.chars();
                            match (cs.next().and_then(Step::from_letter), cs.next()) {
                                (Some(step), None) => a.pattern.push(step),
                                _ => self.bad_step(&s_at, level, &id, k, &format!("'{l}'")),
                            }
                        }
                        Value::Object(sm) => {
                            long = true;
                            self.unsupported(sm, &["action", "dx", "dy"], &s_at);
                            let dx = sm.get("dx").and_then(Value::as_i64);
                            let dy = sm.get("dy").and_then(Value::as_i64);
                            let step = match sm.get("action").and_then(Value::as_str) {
                                Some("wait")
                                    if !sm.contains_key("dx") && !sm.contains_key("dy") =>
                                {
                                    Some(Step::Wait)
                                }
                                Some("move") => match (dx, dy) {
                                    // Only the four unit directions; matching literally
                                    // also keeps extreme numbers away from arithmetic.
                                    (Some(x @ -1..=1), Some(y @ -1..=1))
                                        if (x == 0) != (y == 0) =>
                                    {
                                        Some(Step::Move(x as i8, y as i8))
                                    }
                                    _ => None,
                                },
                                _ => None,
                            };
                            match step {
                                Some(st) => a.pattern.push(st),
                                None => {
                                    let shown = serde_json::to_string(s).unwrap_or_default();
                                    self.bad_step(&s_at, level, &id, k, &shown)
                                }
                            }
                        }
                        other => {
                            let shown = other.to_string();
                            self.bad_step(&s_at, level, &id, k, &shown)
                        }
                    }
                }
                if letters && long {
                    self.push(
                        "M219",
                        &p_at,
                        format!("Automaton {id} mixes letter steps and long-form steps. Both work; one form reads better."),
                    );
                }
            }
            Some(_) => self.wrong_type(&p_at, "a list of steps"),
        }
        Some(a)
    }

    fn bad_step(&mut self, at: &At<'_>, level: &str, id: &str, k: usize, shown: &str) {
        self.push(
            "M218",
            at,
            format!("Level {level}, automaton {id}, step {k}: {shown} isn't a step. Use U, D, L or R to move and W to wait."),
        );
    }

    fn pair(&mut self, v: &Value, at: &At<'_>) -> Option<Pair> {
        let m = self.object(v, at, "{ words, effect, enter }")?;
        self.unsupported(m, &["words", "effect", "enter"], at);
        Some(Pair {
            words: self.words(
                m.get("words"),
                &at.key("words"),
                "a list of two property words",
                true,
            ),
            effect: self
                .string(m.get("effect"), &at.key("effect"))
                .unwrap_or_default(),
            enter: self
                .boolean(m.get("enter"), &at.key("enter"))
                .unwrap_or(false),
            span: Span::default(),
        })
    }

    fn mechanics(&mut self, v: &Value, at: &At<'_>) -> Option<Frail> {
        let list = self.array(v, at, "a list of mechanics")?;
        let level = at.level.unwrap_or("?");
        let mut frail: Option<Frail> = None;
        for (i, item) in list.iter().enumerate() {
            let e_at = at.index(i);
            let Some(m) = self.object(item, &e_at, "a mechanic record") else {
                continue;
            };
            let ty = m.get("type").and_then(Value::as_str);
            if ty != Some("frail") {
                let shown = m.get("type").map_or_else(
                    || "(none)".to_string(),
                    |t| match t {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    },
                );
                self.push(
                    "M240",
                    &e_at.key("type"),
                    format!("Level {level}, mechanics[{i}]: unknown mechanic type {shown}."),
                );
                continue;
            }
            self.unsupported(m, &["id", "type", "version", "state", "leaves"], &e_at);
            let mut ok = true;
            if m.get("id").and_then(Value::as_str) != Some("frail") {
                self.push(
                    "M240",
                    &e_at.key("id"),
                    format!("Level {level}, mechanics[{i}]: frail needs id frail."),
                );
                ok = false;
            }
            if m.get("version").and_then(Value::as_u64) != Some(1) {
                self.push(
                    "M240",
                    &e_at.key("version"),
                    format!("Level {level}, mechanics[{i}]: frail needs version 1."),
                );
                ok = false;
            }
            if m.get("state").and_then(Value::as_str) != Some("derived") {
                self.push(
                    "M240",
                    &e_at.key("state"),
                    format!("Level {level}, mechanics[{i}]: frail needs state derived."),
                );
                ok = false;
            }
            let mut leaves = Vec::new();
            match m.get("leaves") {
                Some(Value::Object(lm)) => {
                    for (from, to) in lm {
                        match to.as_str() {
                            Some(t) => leaves.push((Named::new(from.clone()), Named::new(t))),
                            None => {
                                self.wrong_type(&e_at.key("leaves").key(from), "an uppercase noun")
                            }
                        }
                    }
                }
                Some(_) => self.wrong_type(&e_at.key("leaves"), "a map from nouns to nouns"),
                None => {
                    self.push(
                        "M240",
                        &e_at.key("leaves"),
                        format!("Level {level}, mechanics[{i}]: frail needs a leaves map."),
                    );
                    ok = false;
                }
            }
            if frail.is_some() {
                self.push(
                    "M210",
                    &e_at,
                    format!("Level {level} has two frail statements; a level has one."),
                );
                continue;
            }
            let _ = ok;
            frail = Some(Frail {
                leaves,
                span: Span::default(),
            });
        }
        frail
    }

    fn check(&mut self, m: &Map<String, Value>, at: &At<'_>) -> CheckMeta {
        let level = at.level.unwrap_or("?");
        let mut check = CheckMeta::default();
        let bypass = self
            .boolean(m.get("allowBypass"), &at.key("allowBypass"))
            .unwrap_or(false);
        let hands_off = self
            .boolean(m.get("allowHandsOff"), &at.key("allowHandsOff"))
            .unwrap_or(false);
        if let Some(v) = m.get("allow") {
            for a in self.allow_list(v, &at.key("allow")) {
                if is_bypass(&a) && check.allow_bypass.is_none() {
                    check.allow_bypass = Some(a);
                } else if is_hands_off(&a) && check.allow_hands_off.is_none() {
                    check.allow_hands_off = Some(a);
                } else {
                    check.allow.push(a);
                }
            }
        }
        // Legacy packs set the boolean with no reason; keep it, and let stage 2
        // ask for the reason (M239).
        if bypass && check.allow_bypass.is_none() {
            check.allow_bypass = Some(Allowance {
                code: Named::new("bypass"),
                ..Allowance::default()
            });
        }
        if hands_off && check.allow_hands_off.is_none() {
            check.allow_hands_off = Some(Allowance {
                code: Named::new("hands-off"),
                ..Allowance::default()
            });
        }
        match m.get("mustForm") {
            None => {}
            Some(Value::String(s)) => check.must_form.push(Named::new(s.clone())),
            Some(Value::Array(list)) => {
                for (i, item) in list.iter().enumerate() {
                    match item.as_str() {
                        Some(s) => check.must_form.push(Named::new(s)),
                        None => self.push(
                            "M236",
                            &at.key("mustForm").index(i),
                            format!("Level {level}: must-form {item} isn't a rule. Write SUBJECT IS PREDICATE, like ROCK IS PUSH."),
                        ),
                    }
                }
            }
            Some(_) => self.wrong_type(&at.key("mustForm"), "a list of rules"),
        }
        match m.get("mustBreak") {
            None => {}
            Some(Value::Array(list)) => {
                for (i, item) in list.iter().enumerate() {
                    match item.as_str() {
                        Some(s) => check.must_break.push(Named::new(s)),
                        None => self.push(
                            "M236",
                            &at.key("mustBreak").index(i),
                            format!("Level {level}: must-break {item} isn't a rule. Write SUBJECT IS PREDICATE, like WATER IS SINK."),
                        ),
                    }
                }
            }
            Some(_) => self.wrong_type(&at.key("mustBreak"), "a list of rules"),
        }
        match m.get("mustLoseWord") {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Bool(true)) => check.must_lose_word = Some(Named::new("must-lose-word")),
            Some(_) => self.wrong_type(&at.key("mustLoseWord"), "true"),
        }
        if let Some(v) = m.get("solverBudget") {
            match v.as_u64() {
                Some(n) => check.solver_budget = Some(n),
                None => self.push(
                    "M238",
                    &at.key("solverBudget"),
                    format!(
                        "Level {level}: budget must be a whole number from 1 to {}.",
                        limits::DEFAULT_BUDGET_CAP
                    ),
                ),
            }
        }
        check.solution = self
            .string(m.get("solution"), &at.key("solution"))
            .map(Named::new);
        if let Some(v) = m.get("steps") {
            match v.as_u64() {
                Some(n) => check.steps = Some(n),
                None => self.push(
                    "M237",
                    &at.key("steps"),
                    format!(
                        "Level {level}: steps must be a whole number of at least 1; found {v}."
                    ),
                ),
            }
        }
        check
    }

    fn object_record(
        &mut self,
        v: &Value,
        index: usize,
        at: &At<'_>,
        level: &str,
    ) -> Option<Object> {
        let m = self.object(v, at, "an object record")?;
        let kind = match m.get("kind") {
            None => {
                if m.contains_key("text") {
                    Kind::Word
                } else {
                    Kind::Thing
                }
            }
            Some(Value::String(k)) if k == "word" => Kind::Word,
            Some(Value::String(k)) if k == "object" => Kind::Thing,
            Some(_) => {
                self.wrong_type(&at.key("kind"), "word or object");
                return None;
            }
        };
        let (field, other) = match kind {
            Kind::Word => ("text", "noun"),
            Kind::Thing => ("noun", "text"),
        };
        let mut known = vec!["kind", field, "x", "y", "id", "fixed", "channel"];
        if m.contains_key("leaves") {
            known.push("leaves");
        }
        let _ = other;
        self.unsupported(m, &known, at);
        let text = match m.get(field) {
            Some(Value::String(s)) => s.clone(),
            Some(_) => {
                self.wrong_type(&at.key(field), "an uppercase word");
                return None;
            }
            None => {
                self.push(
                    "M202",
                    &at.key(field),
                    format!("{}.{field} must be an uppercase word.", at.path),
                );
                return None;
            }
        };
        let coord = |key: &str| {
            m.get(key)
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
        };
        let (x, y) = match (coord("x"), coord("y")) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                let show = |k: &str| m.get(k).map_or_else(|| "?".to_string(), Value::to_string);
                let what = match kind {
                    Kind::Word => format!("the word {text}"),
                    Kind::Thing => format!("the {text}"),
                };
                self.push(
                    "M214",
                    at,
                    format!(
                        "Level {level}: {what} at column {}, row {} isn't on the board: x and y must be whole numbers from 0.",
                        show("x"),
                        show("y")
                    ),
                );
                return None;
            }
        };
        if let Some(l) = m.get("leaves") {
            let value = match l {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            self.push(
                "M242",
                &at.key("leaves"),
                format!("Level {level}, {text} at column {x}, row {y}: a thing can't carry its own leftover. Put {text} -> {value} in the level's frail leftovers."),
            );
        }
        let id = match m.get("id") {
            None => format!("#{index:04}"),
            Some(Value::String(s)) => s.clone(),
            Some(_) => {
                self.wrong_type(&at.key("id"), "text");
                format!("#{index:04}")
            }
        };
        Some(Object {
            id,
            kind,
            text,
            x,
            y,
            fixed: self
                .boolean(m.get("fixed"), &at.key("fixed"))
                .unwrap_or(false),
            channel: self.string(m.get("channel"), &at.key("channel")),
            span: Span::default(),
            part: Span::default(),
            legend: Span::default(),
        })
    }

    /// M229, M230, M231: `manifest.features` against what the levels use.
    fn features(&mut self, pack: &Pack, declared: &[(String, At<'_>)]) {
        let known = FEATURES.join(", ");
        for (f, at) in declared {
            if !FEATURES.contains(&f.as_str()) {
                self.push(
                    "M229",
                    at,
                    format!("This pack needs a newer Miau. manifest.features lists {f}; this miauc knows {known}."),
                );
            }
        }
        let listed = |f: &str| declared.iter().any(|(d, _)| d == f);
        let used = pack.derived_features();
        for (f, at) in declared {
            if FEATURES.contains(&f.as_str()) && !used.contains(&f.as_str()) {
                self.push(
                    "M231",
                    at,
                    format!("manifest.features lists {f}, but no level uses it, so older builds would refuse this pack for nothing."),
                );
            }
        }
        for (i, level) in pack.levels.iter().enumerate() {
            for f in level.features() {
                if listed(f) {
                    continue;
                }
                let (evidence, consequence) = feature_evidence(level, f);
                let at = At {
                    path: "manifest.features".into(),
                    level: Some(level.id.text.as_str()),
                };
                let _ = i;
                self.push(
                    "M230",
                    &at,
                    format!(
                        "Level {} uses {f} ({evidence}), but manifest.features doesn't list it. A build that doesn't know {f} would load this level without it: {consequence}.",
                        level.id.text
                    ),
                );
            }
        }
    }
}

/// What in `level` uses feature `f`, and what an older build would do instead.
fn feature_evidence(level: &Level, f: &str) -> (String, String) {
    let word_at = |w: &str| {
        level
            .objects
            .iter()
            .find(|o| o.kind == Kind::Word && o.text == w)
            .map(|o| format!("the word {w} at column {}, row {}", o.x, o.y))
            .unwrap_or_else(|| format!("{} word", crate::diag::wording::with_article(w)))
    };
    match f {
        "automata" => {
            let a = level.automata.first();
            (
                format!("automaton {}", a.map_or("", |a| a.id.text.as_str())),
                format!(
                    "{} would be a plain noun",
                    a.map_or("TICK", |a| a.property.text.as_str())
                ),
            )
        }
        "pairs" => {
            let words: Vec<&str> = level
                .pairs
                .first()
                .map(|p| p.words.iter().map(|w| w.text.as_str()).collect())
                .unwrap_or_default();
            let first = words.first().copied().unwrap_or("OPEN");
            (
                format!("pair {}", words.join(" ")),
                format!("{first} would be a plain noun"),
            )
        }
        "frail" => (
            if level.frail.is_some() {
                "a frail mechanic".into()
            } else {
                word_at("FRAIL")
            },
            "FRAIL would be a plain noun".into(),
        ),
        "gates" => {
            let o = level.objects.iter().find(|o| o.channel.is_some());
            (
                o.map_or_else(String::new, |o| {
                    format!(
                        "{} at column {}, row {} on channel {}",
                        o.text,
                        o.x,
                        o.y,
                        o.channel.as_deref().unwrap_or("")
                    )
                }),
                "plates and gates would do nothing".into(),
            )
        }
        "fixed" => {
            let o = level.objects.iter().find(|o| o.fixed);
            (
                o.map_or_else(String::new, |o| {
                    format!("the fixed word {}! at column {}, row {}", o.text, o.x, o.y)
                }),
                "fixed words could be pushed".into(),
            )
        }
        "terrain" => (
            format!(
                "terrain {}",
                level.terrain.first().map_or("", |t| t.text.as_str())
            ),
            "walls wouldn't block".into(),
        ),
        "goal" => (word_at("GOAL"), "GOAL would be a plain noun".into()),
        "float" => (word_at("FLOAT"), "FLOAT would be a plain noun".into()),
        _ => (String::new(), String::new()),
    }
}
