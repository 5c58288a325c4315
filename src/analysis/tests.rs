//! For every stage 3 code: a fixture that triggers it, the nearest correct
//! fixture that doesn't, and a snapshot of the message. The tests live in
//! one module per subject; the fixtures and [`case`], which takes the
//! snapshots, live here, so the snapshots keep their names (from this
//! module's path) and their folder (next to this file).

use super::testkit::{level, only, pack, quiet, rules, run};
use super::view::{DestroyedView, ResetView, TransformedView};
use crate::diag::{Diagnostic, Severity};
use crate::model::{
    Allowance, Automaton, Frail, GlossaryEntry, Kind, Level, Named, Object, Pair, PaletteEntry,
    Step, World,
};

mod mechanisms;
mod pins;
mod presentation;
mod reset;
mod robustness;
mod with_engine;
mod words;
mod world;

/// Assert `code` fires in `trigger` and not in `nearest`; snapshot the messages.
fn case(code: &str, trigger: &[Diagnostic], nearest: &[Diagnostic]) {
    let fired = only(trigger, code);
    assert!(!fired.is_empty(), "{code} didn't fire: {:#?}", all(trigger));
    assert!(
        only(nearest, code).is_empty(),
        "{code} fired on the nearest correct level: {:#?}",
        only(nearest, code)
    );
    insta::assert_snapshot!(code, fired.join("\n"));
}

fn all(d: &[Diagnostic]) -> Vec<String> {
    d.iter()
        .map(|d| format!("{} {}", d.code(), d.message))
        .collect()
}

fn analyse_pack(p: &crate::model::Pack) -> Vec<Diagnostic> {
    super::analyse_with(p, &[], &|_| None)
}

fn automaton(id: &str, property: &str, subject: Option<&str>) -> Automaton {
    Automaton {
        id: Named::new(id),
        subject: subject.map(Named::new),
        property: Named::new(property),
        phase: None,
        pattern: vec![Step::Move(-1, 0), Step::Move(1, 0)],
        span: Default::default(),
    }
}

fn pair(a: &str, b: &str) -> Pair {
    Pair {
        words: vec![Named::new(a), Named::new(b)],
        effect: "destroy-both".into(),
        enter: true,
        span: Default::default(),
    }
}

const KEY_AND_DOOR: &str = "
    MIAU IS YOU . DOOR IS SHUT . KEY IS PUSH
    .    .  .   . .    .  .    . .   .  .
    .    m  .   k .    =  .    . .   .  WIN
";

const SINKING: &str = "
    MIAU  IS YOU  . .
    WATER IS SINK . .
    m     .  .    . b+w
    .     .  .    . WIN
";
