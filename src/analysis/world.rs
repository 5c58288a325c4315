//! World quality bar and rules versions: M335–M339 (note G).

use std::collections::BTreeSet;

use crate::diag::Diagnostic;
use crate::model::{Kind, Level, Pack, RULES_VERSION};

/// Pack-wide checks M335–M339.
pub fn check(pack: &Pack, out: &mut Vec<Diagnostic>) {
    if pack.world.is_some() {
        world_bar(pack, out);
    }
    match pack.rules {
        None => out.push(Diagnostic::new(
            "M339",
            pack.span,
            format!(
                "This pack doesn't say which rules version it was built for, so it's read as version {RULES_VERSION}. \
                 State it, so a later change to the rules is caught."
            ),
        )),
        Some(v) if v < RULES_VERSION => outdated(pack, v, out),
        Some(_) => {}
    }
}

fn world_bar(pack: &Pack, out: &mut Vec<Diagnostic>) {
    let n = pack.levels.len();
    if !(6..=8).contains(&n) {
        out.push(Diagnostic::new(
            "M335",
            pack.span,
            format!(
                "World {} has {}; a world has 6 to 8.",
                pack.id,
                crate::diag::wording::count(n, "level")
            ),
        ));
    }
    let challenge = pack
        .levels
        .iter()
        .any(|l| l.category.as_ref().is_some_and(|c| c.text == "challenge"));
    if !challenge {
        out.push(Diagnostic::new(
            "M336",
            pack.span,
            format!(
                "World {} has no challenge level. Mark one challenge: 25 steps or more, \
                 with a rule edit players don't expect.",
                pack.id
            ),
        ));
    }
    for (i, l) in pack.levels.iter().enumerate() {
        let id = &l.id.text;
        // Each message with the pack-model field it asks for: `check --fix`
        // and the editor pick the ones a recorded route settles by field.
        let mut missing = Vec::new();
        if l.category.is_none() {
            missing.push(("category", format!("Level {id} has no category.")));
        }
        if l.introduces.is_empty() {
            missing.push((
                "introduces",
                format!("Level {id} doesn't say what it introduces."),
            ));
        }
        // One mistake, one diagnostic: a level with neither gets one M337,
        // settled by one `check --fix`.
        match (l.check.solution.is_none(), l.check.steps.is_none()) {
            (true, true) => missing.push((
                "solution",
                format!(
                    "Level {id} records no solution or steps; `miauc check --fix` records \
                     the solver's route and its length."
                ),
            )),
            (true, false) => missing.push((
                "solution",
                format!(
                    "Level {id} records no solution; `miauc check --fix` records the solver's \
                     route so check can replay it."
                ),
            )),
            (false, true) => missing.push((
                "steps",
                format!(
                    "Level {id} records no steps; `miauc check --fix` records the length of \
                     the shortest route."
                ),
            )),
            (false, false) => {}
        }
        for (field, m) in missing {
            out.push(
                Diagnostic::new("M337", l.span, m)
                    .with_level(id.clone())
                    .with_path(format!("levels[{i}].{field}")),
            );
        }
    }
}

/// One semantic change of a rules version, and the levels it touches.
struct Change {
    text: &'static str,
    touches: fn(&Level) -> bool,
}

fn words(l: &Level) -> Vec<&str> {
    l.objects
        .iter()
        .filter(|o| o.kind == Kind::Word)
        .map(|o| o.text.as_str())
        .collect()
}

/// Noun words of a level: neither core nor declared (`rules.md` §2.2).
fn noun_words(l: &Level) -> Vec<&str> {
    let declared = l.declared_properties();
    words(l)
        .into_iter()
        .filter(|w| !super::board::is_core_word(w) && !declared.contains(w))
        .collect()
}

/// The W6 changes between rules versions 1 and 2 (note G).
const W6: &[Change] = &[
    Change {
        text: "STOP and PUSH on one thing make it pushable",
        touches: |l| {
            let w = words(l);
            w.contains(&"STOP") && w.contains(&"PUSH")
        },
    },
    Change {
        text: "a YOU that is also DEFEAT destroys itself",
        touches: |l| {
            let w = words(l);
            w.contains(&"YOU") && w.contains(&"DEFEAT")
        },
    },
    Change {
        text: "X IS X protects X from transformation",
        touches: |l| {
            let n = noun_words(l);
            n.iter().enumerate().any(|(i, a)| n[i + 1..].contains(a))
        },
    },
    Change {
        text: "conflicting transformations follow reading order",
        touches: |l| noun_words(l).into_iter().collect::<BTreeSet<_>>().len() >= 3,
    },
    Change {
        text: "stacked cells enumerate their readings",
        touches: |l| {
            let mut cells = BTreeSet::new();
            l.objects
                .iter()
                .filter(|o| o.kind == Kind::Word)
                .any(|o| !cells.insert((o.x, o.y)))
        },
    },
];

fn outdated(pack: &Pack, old: u32, out: &mut Vec<Diagnostic>) {
    let mut changes = Vec::new();
    let mut levels: Vec<&str> = Vec::new();
    for c in W6 {
        let touched: Vec<&str> = pack
            .levels
            .iter()
            .filter(|l| (c.touches)(l))
            .map(|l| l.id.text.as_str())
            .collect();
        if touched.is_empty() {
            continue;
        }
        changes.push(c.text);
        for t in touched {
            if !levels.contains(&t) {
                levels.push(t);
            }
        }
    }
    let since = if changes.is_empty() {
        "Since then nothing this pack uses has changed.".to_string()
    } else {
        format!(
            "Since then: {}. Levels with these words: {}.",
            changes.join("; "),
            levels.join(", ")
        )
    };
    out.push(Diagnostic::new(
        "M338",
        pack.span,
        format!(
            "This pack targets rules version {old}; the current version is {RULES_VERSION}. {since} \
             Run miauc check, then raise the rules version to {RULES_VERSION}."
        ),
    ));
}
