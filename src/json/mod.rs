//! Canonical pack JSON: writing it from the model and reading pack JSON into the model.
//!
//! The writer produces exactly the game's pack format (`language.md` "Output",
//! `docs/pack-format.md`): keys in one fixed order, palette and glossary sorted,
//! automaton steps in the long form, absent optional fields and empty lists
//! omitted, two-space indentation and a final newline. The same model always
//! gives the same bytes.
//!
//! The reader ([`from_json`]) accepts the canonical form plus the lenient
//! legacy forms the seeds' packs use, and reports format problems with the
//! loader-style `path` and a byte span found by [`locate`].

mod locate;
mod read;

pub use locate::{attach_spans, locate};
pub use read::from_json;

use serde_json::{Map, Value, json};

use crate::diag;
use crate::model::{
    Allowance, Automaton, CheckMeta, EventClaim, Introduces, Kind, Level, Object, Pack, Pair, Step,
};

/// Write the canonical pack JSON of `pack`.
///
/// `manifest.features` is the declared list when the model was read from JSON
/// (`declared_features` is `Some`), and [`Pack::derived_features`] otherwise.
pub fn to_json(pack: &Pack) -> String {
    let value = pack_value(pack);
    // Serialising a `Value` can't fail: every key is a string.
    let mut out = serde_json::to_string_pretty(&value).unwrap_or_default();
    out.push('\n');
    out
}

/// The canonical pack as a JSON value (keys already in canonical order).
pub fn pack_value(pack: &Pack) -> Value {
    let mut top = Map::new();
    top.insert("manifest".into(), manifest_value(pack));

    if !pack.palette.is_empty() {
        let mut entries: Vec<_> = pack.palette.iter().collect();
        entries.sort_by(|a, b| a.noun.text.cmp(&b.noun.text));
        let mut palette = Map::new();
        for e in entries {
            let mut m = Map::new();
            m.insert("glyph".into(), json!(e.glyph));
            if let Some(f) = &e.faces {
                m.insert("faces".into(), json!(f));
            }
            if let Some(f) = &e.fallback {
                m.insert("fallback".into(), json!(f));
            }
            if e.terrain {
                m.insert("terrain".into(), json!(true));
            }
            palette.insert(e.noun.text.clone(), Value::Object(m));
        }
        top.insert("palette".into(), Value::Object(palette));
    }

    if !pack.glossary.is_empty() {
        let mut entries: Vec<_> = pack.glossary.iter().collect();
        entries.sort_by(|a, b| a.word.text.cmp(&b.word.text));
        let mut props = Map::new();
        for e in entries {
            props.insert(
                e.word.text.clone(),
                json!({ "accent": e.accent, "describe": e.describe }),
            );
        }
        top.insert("properties".into(), Value::Object(props));
    }

    if !pack.vocabulary.is_empty() {
        let words: Vec<Value> = pack.vocabulary.iter().map(|w| json!(w.text)).collect();
        top.insert("vocabulary".into(), Value::Array(words));
    }

    let levels: Vec<Value> = pack.levels.iter().map(level_value).collect();
    top.insert("levels".into(), Value::Array(levels));
    Value::Object(top)
}

fn manifest_value(pack: &Pack) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(pack.id));
    m.insert("name".into(), json!(pack.name));
    m.insert("version".into(), json!(pack.version));
    m.insert("engine".into(), json!(pack.engine));
    if let Some(w) = &pack.world {
        let mut wm = Map::new();
        wm.insert("glyph".into(), json!(w.glyph));
        if let Some(t) = &w.tagline {
            wm.insert("tagline".into(), json!(t));
        }
        if let Some(a) = &w.accent {
            wm.insert("accent".into(), json!(a));
        }
        m.insert("world".into(), Value::Object(wm));
    }
    let features: Vec<String> = match &pack.declared_features {
        Some(list) => list.clone(),
        None => pack
            .derived_features()
            .into_iter()
            .map(String::from)
            .collect(),
    };
    if !features.is_empty() {
        m.insert("features".into(), json!(features));
    }
    if let Some(r) = pack.rules {
        m.insert("rules".into(), json!(r));
    }
    if !pack.allow.is_empty() {
        m.insert("allow".into(), allow_list(pack.allow.iter()));
    }
    Value::Object(m)
}

fn introduces_value(i: &Introduces) -> Value {
    let mut m = Map::new();
    if !i.words.is_empty() {
        let words: Vec<&str> = i.words.iter().map(|w| w.text.as_str()).collect();
        m.insert("words".into(), json!(words));
    }
    if !i.ideas.is_empty() {
        m.insert("ideas".into(), json!(i.ideas));
    }
    Value::Object(m)
}

/// The long form of one automaton step (catalogue note 3.8).
pub fn step_value(step: Step) -> Value {
    match step {
        Step::Move(dx, dy) => json!({ "action": "move", "dx": dx, "dy": dy }),
        Step::Wait => json!({ "action": "wait" }),
    }
}

fn allow_list<'a>(items: impl Iterator<Item = &'a Allowance>) -> Value {
    Value::Array(
        items
            .map(|a| json!({ "code": a.code.text, "reason": a.reason }))
            .collect(),
    )
}

/// A level record, its keys in the format's order and empty lists left out.
fn level_value(level: &Level) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(level.id.text));
    if let Some(t) = &level.title {
        m.insert("title".into(), json!(t));
    }
    if let Some(h) = &level.hint {
        m.insert("hint".into(), json!(h));
    }
    if let Some(c) = &level.category {
        m.insert("category".into(), json!(c.text));
    }
    if !level.introduces.is_empty() {
        m.insert("introduces".into(), introduces_value(&level.introduces));
    }
    if !level.reuses.is_empty() {
        m.insert("reuses".into(), introduces_value(&level.reuses));
    }
    m.insert("width".into(), json!(level.width));
    m.insert("height".into(), json!(level.height));

    if !level.automata.is_empty() {
        let list: Vec<Value> = level.automata.iter().map(automaton_value).collect();
        m.insert("automata".into(), Value::Array(list));
    }

    if !level.pairs.is_empty() {
        let list: Vec<Value> = level.pairs.iter().map(pair_value).collect();
        m.insert("pairs".into(), Value::Array(list));
    }

    if let Some(frail) = &level.frail {
        let mut leaves = Map::new();
        for (from, to) in &frail.leaves {
            leaves.insert(from.text.clone(), json!(to.text));
        }
        let entry = json!({
            "id": "frail",
            "type": "frail",
            "version": 1,
            "state": "derived",
            "leaves": Value::Object(leaves),
        });
        m.insert("mechanics".into(), json!([entry]));
    }

    if !level.terrain.is_empty() {
        let list: Vec<&str> = level.terrain.iter().map(|t| t.text.as_str()).collect();
        m.insert("terrain".into(), json!(list));
    }

    insert_check(&mut m, &level.check);

    let objects: Vec<Value> = level.objects.iter().map(object_value).collect();
    m.insert("objects".into(), Value::Array(objects));
    Value::Object(m)
}

/// An automaton, its steps in the long form.
fn automaton_value(a: &Automaton) -> Value {
    let mut am = Map::new();
    am.insert("id".into(), json!(a.id.text));
    if let Some(s) = &a.subject {
        am.insert("subject".into(), json!(s.text));
    }
    am.insert("property".into(), json!(a.property.text));
    if let Some(p) = a.phase {
        am.insert("phase".into(), json!(p));
    }
    let steps: Vec<Value> = a.pattern.iter().map(|s| step_value(*s)).collect();
    am.insert("pattern".into(), Value::Array(steps));
    Value::Object(am)
}

/// A pair; `enter` only when set.
fn pair_value(p: &Pair) -> Value {
    let mut pm = Map::new();
    let words: Vec<&str> = p.words.iter().map(|w| w.text.as_str()).collect();
    pm.insert("words".into(), json!(words));
    pm.insert("effect".into(), json!(p.effect));
    if p.enter {
        pm.insert("enter".into(), json!(true));
    }
    Value::Object(pm)
}

/// The check metadata's keys, in the format's order.
fn insert_check(m: &mut Map<String, Value>, check: &CheckMeta) {
    // The game's format keeps `allowBypass` / `allowHandsOff` as booleans; the
    // reasons (and the code or name as written) go into `allow`, bypass first,
    // then hands-off, then the others, so nothing is lost on a round trip.
    if check.allow_bypass.is_some() {
        m.insert("allowBypass".into(), json!(true));
    }
    if check.allow_hands_off.is_some() {
        m.insert("allowHandsOff".into(), json!(true));
    }
    let allows: Vec<&Allowance> = check
        .allow_bypass
        .iter()
        .chain(check.allow_hands_off.iter())
        .chain(check.allow.iter())
        .collect();
    if !allows.is_empty() {
        m.insert("allow".into(), allow_list(allows.into_iter()));
    }
    if !check.must_form.is_empty() {
        let list: Vec<&str> = check.must_form.iter().map(|r| r.text.as_str()).collect();
        m.insert("mustForm".into(), json!(list));
    }
    if !check.must_break.is_empty() {
        let list: Vec<&str> = check.must_break.iter().map(|r| r.text.as_str()).collect();
        m.insert("mustBreak".into(), json!(list));
    }
    if check.must_lose_word.is_some() {
        m.insert("mustLoseWord".into(), json!(true));
    }
    if !check.must_happen.is_empty() {
        let list: Vec<Value> = check.must_happen.iter().map(claim_value).collect();
        m.insert("mustHappen".into(), Value::Array(list));
    }
    if let Some(b) = check.solver_budget {
        m.insert("solverBudget".into(), json!(b));
    }
    if let Some(s) = &check.solution {
        m.insert("solution".into(), json!(s.text));
    }
    if let Some(s) = check.steps {
        m.insert("steps".into(), json!(s));
    }
    if let Some(b) = check.steps_at_least {
        m.insert("stepsAtLeast".into(), json!(b));
    }
}

/// A claim over events: `event`, then `of` when it names anything.
fn claim_value(c: &EventClaim) -> Value {
    let mut cm = Map::new();
    cm.insert("event".into(), json!(c.kind.event()));
    if !c.args.is_empty() {
        let of: Vec<&str> = c.args.iter().map(|a| a.text.as_str()).collect();
        cm.insert("of".into(), json!(of));
    }
    Value::Object(cm)
}

/// An object record: `kind`, its word or noun, place and id, then `fixed` and
/// `channel` when set.
fn object_value(o: &Object) -> Value {
    let mut om = Map::new();
    match o.kind {
        Kind::Word => {
            om.insert("kind".into(), json!("word"));
            om.insert("text".into(), json!(o.text));
        }
        Kind::Thing => {
            om.insert("kind".into(), json!("object"));
            om.insert("noun".into(), json!(o.text));
        }
    }
    om.insert("x".into(), json!(o.x));
    om.insert("y".into(), json!(o.y));
    om.insert("id".into(), json!(o.id));
    if o.fixed {
        om.insert("fixed".into(), json!(true));
    }
    if let Some(c) = &o.channel {
        om.insert("channel".into(), json!(c));
    }
    Value::Object(om)
}

/// Whether an allowance names M403 (bypass).
pub(crate) fn is_bypass(a: &Allowance) -> bool {
    diag::lookup(&a.code.text).is_some_and(|c| c.code == "M403")
}

/// Whether an allowance names M404 (hands-off).
pub(crate) fn is_hands_off(a: &Allowance) -> bool {
    diag::lookup(&a.code.text).is_some_and(|c| c.code == "M404")
}

/// Read pack JSON and run stage 2 on it: the reader's diagnostics plus
/// [`crate::validate::validate`], all pointing into `text`, in output order.
pub fn check(text: &str) -> (Option<Pack>, Vec<diag::Diagnostic>) {
    let text = &*read::without_bom(text);
    let (pack, mut diags) = from_json(text);
    if let Some(p) = &pack {
        let mut more = crate::validate::validate(p);
        attach_spans(text, &mut more);
        diags.extend(more);
    }
    diag::sort(&mut diags);
    (pack, diags)
}

#[cfg(test)]
mod tests;
