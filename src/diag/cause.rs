//! Cause first: a level's stage 1–3 diagnostics before its stage 4 findings,
//! and each finding tied to the warnings it may follow from.
//!
//! A misspelt property (`DOOR IS STPO`) is a warning, so the level is still
//! checked, and the check reports what the misspelling does: the door no
//! longer stops anything, so the level is won without moving a word (M403)
//! and the recorded route is longer than the shortest (M411). Those findings
//! are kept, not held back: the warning may be deliberate, and an error of the
//! check must fail the run whatever else the level has. Instead they are
//! printed after the warning and each names it as a likely cause, with a
//! secondary span on it, as rustc points from an error to the item it comes
//! from.

use super::{Diagnostic, Related, Severity};
use std::collections::HashMap;

/// Stage 1–3 codes whose finding changes how the level plays, so that a
/// stage 4 finding of the same level may follow from it: a word that isn't
/// the property it looks like (M301), a gate that never opens (M247), things
/// gone or changed before the first turn (M309, M310, M312, M313) and a
/// crumble that never settles (M325).
pub const CAUSES: &[&str] = &["M247", "M301", "M309", "M310", "M312", "M313", "M325"];

/// Stage 4 codes about the check itself rather than the level's play, which
/// no warning explains: an unneeded allowance (M414), a level not checked
/// (M416, which names its errors already).
const NOT_CONSEQUENCES: &[&str] = &["M414", "M416"];

/// At most this many causes are named under one finding.
const MAX_CAUSES: usize = 3;

/// Whether a code is a stage 4 (check) finding.
pub fn is_stage4(code: &str) -> bool {
    code.starts_with("M4")
}

/// Sort into the order every output uses: by position, then code, then
/// message; except that a stage 4 finding of a level comes after the level's
/// last stage 1–3 diagnostic, so its cause is read first.
pub fn sort(diags: &mut [Diagnostic]) {
    let last_cause = last_front_end_position(diags);
    let anchor = |d: &Diagnostic| -> u32 {
        match d.level.as_deref() {
            Some(level) if is_stage4(d.code()) => last_cause
                .get(level)
                .map_or(d.span.start, |&at| at.max(d.span.start)),
            _ => d.span.start,
        }
    };
    diags.sort_by(|a, b| {
        (
            anchor(a),
            is_stage4(a.code()),
            a.span.start,
            a.span.end,
            a.info.code,
            &a.message,
        )
            .cmp(&(
                anchor(b),
                is_stage4(b.code()),
                b.span.start,
                b.span.end,
                b.info.code,
                &b.message,
            ))
    });
}

/// Where each level's last stage 1–3 diagnostic starts, for levels that
/// have stage 4 findings too (the others keep plain position order).
fn last_front_end_position(diags: &[Diagnostic]) -> HashMap<String, u32> {
    let checked: std::collections::HashSet<&str> = diags
        .iter()
        .filter(|d| is_stage4(d.code()))
        .filter_map(|d| d.level.as_deref())
        .collect();
    let mut last: HashMap<String, u32> = HashMap::new();
    if checked.is_empty() {
        return last;
    }
    for d in diags.iter().filter(|d| !is_stage4(d.code())) {
        if let Some(level) = d.level.as_deref().filter(|l| checked.contains(l)) {
            let at = last.entry(level.to_string()).or_insert(d.span.start);
            *at = (*at).max(d.span.start);
        }
    }
    last
}

/// Tie each stage 4 finding of a level to the level's stage 1–3 warnings
/// that change how it plays ([`CAUSES`]): a secondary span on each, labelled
/// with what it is and that the finding may follow from it. Such a finding
/// offers no quick fix: a route, a budget or an allowance written now would
/// record what the cause does, not what the author meant. Allowed warnings
/// (reported as info) are by design and name nothing. `text` is the source
/// the spans are in, for the label's word.
pub fn note_causes(diags: &mut [Diagnostic], text: &str) {
    let mut causes: HashMap<String, Vec<Related>> = HashMap::new();
    for d in diags.iter().filter(|d| is_cause(d)) {
        let Some(level) = d.level.as_deref() else {
            continue;
        };
        let list = causes.entry(level.to_string()).or_default();
        if list.len() < MAX_CAUSES {
            list.push(Related {
                span: d.span,
                label: cause_label(d, text),
            });
        }
    }
    if causes.is_empty() {
        return;
    }
    for d in diags.iter_mut() {
        if !is_stage4(d.code()) || NOT_CONSEQUENCES.contains(&d.code()) {
            continue;
        }
        let Some(list) = d.level.as_deref().and_then(|l| causes.get(l)) else {
            continue;
        };
        for r in list {
            if !d.related.contains(r) {
                d.related.push(r.clone());
            }
        }
        d.fixes.clear();
    }
}

/// A level's warning (or error) that changes how it plays and isn't allowed.
fn is_cause(d: &Diagnostic) -> bool {
    CAUSES.contains(&d.code()) && d.severity <= Severity::Warning && d.level.is_some()
}

/// The levels with a [`CAUSES`] warning that isn't allowed: their check
/// findings may follow from it, so nothing is recorded from them (`check
/// --fix` leaves their routes alone until the cause is fixed).
pub fn levels_with_causes(diags: &[Diagnostic]) -> std::collections::BTreeSet<String> {
    diags
        .iter()
        .filter(|d| is_cause(d))
        .filter_map(|d| d.level.clone())
        .collect()
}

/// What a cause's secondary span says: "because STPO isn't a property
/// (M301), this may follow from it".
fn cause_label(d: &Diagnostic, text: &str) -> String {
    let written = text
        .get(d.span.range())
        .map(|w| w.trim_end_matches('!'))
        .filter(|w| !w.is_empty() && w.len() <= 40 && !w.contains(char::is_whitespace));
    match (d.code(), written) {
        ("M301", Some(word)) => format!(
            "because {word} isn't a property (M301), this may follow from it: fix that first"
        ),
        _ => format!(
            "this may follow from the {} here ({} {}): fix that first",
            d.severity.as_str(),
            d.code(),
            d.name()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    fn at(code: &str, start: usize, level: &str) -> Diagnostic {
        Diagnostic::new(
            code,
            Span::new(start, start + 4),
            format!("{code} at {start}"),
        )
        .with_level(level)
    }

    #[test]
    fn a_levels_findings_follow_its_warnings() {
        // Level a: a finding on its header (0) and a warning on its board (30);
        // level b starts at 50. Pack-wide diagnostics keep their place.
        let mut d = vec![
            at("M301", 30, "a"),
            at("M403", 0, "a"),
            at("M411", 10, "a"),
            Diagnostic::new("M335", Span::new(40, 41), "pack-wide"),
            at("M403", 50, "b"),
        ];
        sort(&mut d);
        let order: Vec<(&str, u32)> = d.iter().map(|d| (d.code(), d.span.start)).collect();
        assert_eq!(
            order,
            [
                ("M301", 30),
                ("M403", 0),
                ("M411", 10),
                ("M335", 40),
                ("M403", 50)
            ]
        );
    }

    #[test]
    fn findings_name_their_likely_cause_unless_it_is_allowed() {
        let text = "level a {\n  MIAU IS STPO\n}\n";
        let stpo = text.find("STPO").unwrap();
        let mut d = vec![
            Diagnostic::new("M301", Span::new(stpo, stpo + 4), "STPO").with_level("a"),
            at("M403", 0, "a").with_fix("Record", Span::new(0, 1), "x"),
            at("M416", 0, "a"),
            at("M403", 0, "b"),
        ];
        note_causes(&mut d, text);
        assert_eq!(d[1].related.len(), 1);
        assert_eq!(d[1].related[0].span, d[0].span);
        assert!(
            d[1].fixes.is_empty(),
            "a fix would record the cause's effect"
        );
        assert_eq!(
            d[1].related[0].label,
            "because STPO isn't a property (M301), this may follow from it: fix that first"
        );
        assert!(d[2].related.is_empty(), "M416 names its errors already");
        assert_eq!(
            levels_with_causes(&d).into_iter().collect::<Vec<_>>(),
            ["a"]
        );
        assert!(d[3].related.is_empty(), "another level");
        // Twice changes nothing.
        note_causes(&mut d, text);
        assert_eq!(d[1].related.len(), 1);
        // An allowed M301 is by design.
        let mut allowed = vec![
            d[0].clone().with_severity(Severity::Info),
            at("M403", 0, "a"),
        ];
        note_causes(&mut allowed, text);
        assert!(allowed[1].related.is_empty());
    }
}
