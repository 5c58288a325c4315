//! A level's automata (their patterns in letters or long form), pairs and
//! mechanics records.

use serde_json::Value;

use super::{At, Reader};
use crate::model::{Automaton, Frail, Named, Pair, Step};
use crate::span::Span;

impl Reader {
    pub(super) fn automaton(&mut self, v: &Value, at: &At<'_>) -> Option<Automaton> {
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

    pub(super) fn pair(&mut self, v: &Value, at: &At<'_>) -> Option<Pair> {
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

    pub(super) fn mechanics(&mut self, v: &Value, at: &At<'_>) -> Option<Frail> {
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
}
