//! A level: its header, introduces and reuses, check metadata and objects.
//! Its automata, pairs and mechanics are in `mechanics`.

use serde_json::{Map, Value};

use super::super::{is_bypass, is_hands_off};
use super::{At, Reader};
use crate::model::{
    Allowance, CheckMeta, EventClaim, EventClaimKind, Introduces, Kind, Level, Named, Object,
};
use crate::span::Span;
use crate::validate::limits;

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
    "mustHappen",
    "solverBudget",
    "solution",
    "steps",
    "stepsAtLeast",
    "objects",
];

impl Reader {
    /// `mustHappen`: claims over events, each `{"event": "lose", "of":
    /// ["MIAU"]}` (`of` left out when the claim names nothing).
    fn must_happen(&mut self, v: Option<&Value>, at: &At<'_>) -> Vec<EventClaim> {
        let expected = "a list of claims like {\"event\": \"lose\", \"of\": [\"MIAU\"]}";
        let Some(list) = v.and_then(|v| self.array(v, at, expected)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let at = at.index(i);
            let Value::Object(claim) = item else {
                self.wrong_type(&at, expected);
                continue;
            };
            self.unsupported(claim, &["event", "of"], &at);
            let event = self.string(claim.get("event"), &at.key("event"));
            let Some(kind) = event.as_deref().and_then(EventClaimKind::of_event) else {
                let events: Vec<&str> = EventClaimKind::ALL.iter().map(|k| k.event()).collect();
                self.wrong_type(&at.key("event"), &format!("one of {}", events.join(", ")));
                continue;
            };
            let args = self.words(claim.get("of"), &at.key("of"), "a list of words", false);
            out.push(EventClaim {
                kind,
                args,
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

    pub(super) fn level(&mut self, m: &Map<String, Value>, at0: &At<'_>) -> Level {
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
        check.must_happen = self.must_happen(m.get("mustHappen"), &at.key("mustHappen"));
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
        if let Some(v) = m.get("stepsAtLeast") {
            match v.as_u64() {
                Some(n) => check.steps_at_least = Some(n),
                None => self.push(
                    "M237",
                    &at.key("stepsAtLeast"),
                    format!(
                        "Level {level}: stepsAtLeast must be a whole number of at least 1; found {v}."
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
}
