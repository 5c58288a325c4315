//! The pack's own parts: the manifest, its features, the palette, the
//! glossary and allowances.

use serde_json::{Map, Value};

use super::{At, Reader};
use crate::model::{
    Allowance, ENGINE_VERSION, FEATURES, GlossaryEntry, Kind, Level, Named, Pack, PaletteEntry,
    World,
};
use crate::span::Span;

/// Top-level keys of the pack format.
const PACK_KEYS: &[&str] = &["manifest", "palette", "properties", "vocabulary", "levels"];
/// Keys of `manifest`.
const MANIFEST_KEYS: &[&str] = &[
    "id", "name", "version", "engine", "world", "features", "rules", "allow",
];

impl Reader {
    /// The whole pack: its parts in the format's order, then the features check.
    pub(super) fn pack(&mut self, top: &Map<String, Value>) -> Pack {
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
        self.manifest(top, &m_at, &mut pack, &mut declared);
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

    /// `manifest`: ids, versions, world, declared features (into `declared`,
    /// with where each is) and allowances.
    fn manifest(
        &mut self,
        top: &Map<String, Value>,
        m_at: &At<'static>,
        pack: &mut Pack,
        declared: &mut Vec<(String, At<'static>)>,
    ) {
        match top.get("manifest") {
            None => self.push("M201", m_at, "The pack has no manifest."),
            Some(v) => {
                if let Some(m) = self.object(v, m_at, "an object") {
                    self.unknown_keys(m, MANIFEST_KEYS, m_at, "The manifest");
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

    pub(super) fn allow_list(&mut self, v: &Value, at: &At<'_>) -> Vec<Allowance> {
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
