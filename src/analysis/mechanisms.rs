//! Shortcuts and mechanisms: M321 (note D), M322, M324, M325.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::board::{LevelCtx, WordClass, cell_name};
use super::pins::{DIRS, Pins};
use super::reset::Axis;
use crate::diag::Diagnostic;
use crate::model::Kind;

/// M321, M322, M324 and M325 for one level.
pub fn level_checks(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    win_shortcut(ctx, out);
    plate_near_gate(ctx, out);
    must_form(ctx, out);
    frail_loops(ctx, out);
}

fn dir_word((dx, dy): (i64, i64)) -> &'static str {
    match (dx, dy) {
        (0, -1) => "up",
        (0, 1) => "down",
        (-1, 0) => "left",
        _ => "right",
    }
}

/// M321 (note D): a loose WIN that can be pushed through a property predicate.
fn win_shortcut(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    if ctx.rules.is_empty() || ctx.cells.is_empty() {
        return;
    }
    let pins = Pins::compute(ctx);
    let mut seen = BTreeSet::new();
    for r in &ctx.rules {
        let Some(last) = r.words.last() else { continue };
        if r.predicate_id.as_deref() != Some(last.as_str())
            || ctx.class(&r.predicate) != WordClass::Property
            || r.predicate == "WIN"
            || r.predicate == "YOU"
        {
            continue;
        }
        let Some(pi) = ctx.find(last) else { continue };
        let (px, py) = (ctx.obj(pi).x as i64, ctx.obj(pi).y as i64);
        if pins.is_pinned(px, py) {
            continue;
        }
        // Across the sentence: vertical for a row sentence, horizontal for a column one.
        let across: [(i64, i64); 2] = match r.axis {
            Axis::H => [(0, -1), (0, 1)],
            Axis::V => [(-1, 0), (1, 0)],
            Axis::Terrain => continue,
        };
        for (nx, ny) in across {
            for dist in 1..=2i64 {
                let (wx, wy) = (px + nx * dist, py + ny * dist);
                let Some(cell) = ctx.cell(wx, wy) else { break };
                let is_win = cell.words.iter().any(|&i| ctx.obj(i).text == "WIN");
                if !is_win {
                    if !cell.words.is_empty() || !cell.things.is_empty() {
                        break;
                    }
                    continue;
                }
                if pins.is_pinned(wx, wy) {
                    break;
                }
                let far = (px - nx, py - ny);
                let behind = (wx + nx, wy + ny);
                if pins.blocks(far.0, far.1) || pins.pusher_proof(behind.0, behind.1) {
                    break;
                }
                if !seen.insert((wx, wy, px, py)) {
                    break;
                }
                let push = (-nx, -ny);
                debug_assert!(DIRS.contains(&push));
                let wi = cell.words[0];
                out.push(
                    Diagnostic::new(
                        "M321",
                        ctx.obj(wi).span,
                        format!(
                            "Level {}: pushing WIN at {} {} would push {} out of {} and read {} IS WIN. \
                             Make sure that isn't a shortcut; must-form proves the intended rule.",
                            ctx.id(),
                            cell_name(wx as u32, wy as u32),
                            dir_word(push),
                            r.predicate,
                            ctx.sentence_text(r),
                            r.subject
                        ),
                    )
                    .with_level(ctx.id())
                    .with_cell(wx as u32, wy as u32)
                    .with_cell(px as u32, py as u32)
                    .with_related(ctx.obj(pi).span, format!("{} would be pushed out", r.predicate)),
                );
                break;
            }
        }
    }
}

/// M322: a plate and a gate of one channel are orthogonal neighbours.
fn plate_near_gate(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let holders = |noun: &'static str| {
        ctx.level
            .objects
            .iter()
            .filter(move |o| o.kind == Kind::Thing && o.text == noun && o.channel.is_some())
    };
    for plate in holders("PLATE") {
        for gate in holders("GATE") {
            let dx = plate.x.abs_diff(gate.x);
            let dy = plate.y.abs_diff(gate.y);
            if plate.channel != gate.channel || dx + dy != 1 {
                continue;
            }
            let ch = plate.channel.as_deref().unwrap_or_default();
            out.push(
                Diagnostic::new(
                    "M322",
                    plate.span,
                    format!(
                        "Level {}: the {ch} plate at {} touches its gate at {}. A lone YOU can step on the plate, \
                         into the gate and through. Keep plates at least 2 cells from their gate.",
                        ctx.id(),
                        cell_name(plate.x, plate.y),
                        cell_name(gate.x, gate.y)
                    ),
                )
                .with_level(ctx.id())
                .with_cell(plate.x, plate.y)
                .with_cell(gate.x, gate.y)
                .with_related(gate.span, "its gate"),
            );
        }
    }
}

/// M324: a must-form rule names a word no tile spells.
fn must_form(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let spelled: BTreeSet<&str> = ctx
        .level
        .objects
        .iter()
        .filter(|o| o.kind == Kind::Word)
        .map(|o| o.text.as_str())
        .collect();
    for m in &ctx.level.check.must_form {
        let rule = m.text.split_whitespace().collect::<Vec<_>>().join(" ");
        let missing: Vec<String> = rule
            .split(' ')
            .map(str::to_uppercase)
            .filter(|w| !w.is_empty() && !spelled.contains(w.as_str()))
            .fold(Vec::new(), |mut acc, w| {
                if !acc.contains(&w) {
                    acc.push(w);
                }
                acc
            });
        if missing.is_empty() {
            continue;
        }
        let words = super::reset::join_and(&missing);
        out.push(
            Diagnostic::new(
                "M324",
                m.span,
                format!(
                    "Level {}: must-form {rule} can never form: there's no {words} word in this level.",
                    ctx.id()
                ),
            )
            .with_level(ctx.id()),
        );
    }
}

/// M325: the frail leftovers map a noun to itself or loop.
///
/// The leftovers are a function (the first arrow of a noun counts, as in
/// the engine), so the loops are the cycles of a functional graph: found in
/// one pass over the arrows, linear however long the chain.
fn frail_loops(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    let Some(f) = &ctx.level.frail else { return };
    let mut next: HashMap<&str, &str> = HashMap::new();
    for (k, v) in &f.leaves {
        next.entry(k.text.as_str()).or_insert(v.text.as_str());
    }
    let on_cycle = cycle_members(&next);
    let mut reported: BTreeSet<&str> = BTreeSet::new();
    for (k, v) in &f.leaves {
        let start = k.text.as_str();
        if reported.contains(start) {
            continue;
        }
        if v.text == start {
            reported.insert(start);
            out.push(
                Diagnostic::new(
                    "M325",
                    k.span,
                    format!(
                        "Level {}: {start} -> {start}: crumbling changes nothing.",
                        ctx.id()
                    ),
                )
                .with_level(ctx.id()),
            );
            continue;
        }
        if !on_cycle.contains(start) {
            continue;
        }
        let mut chain = vec![start];
        let mut cur = start;
        while let Some(&n) = next.get(cur) {
            chain.push(n);
            if n == start {
                break;
            }
            cur = n;
        }
        reported.extend(chain.iter().copied());
        out.push(
            Diagnostic::new(
                "M325",
                k.span,
                format!(
                    "Level {}: the frail leftovers loop ({}), so these tiles never run out.",
                    ctx.id(),
                    chain.join(" -> ")
                ),
            )
            .with_level(ctx.id()),
        );
    }
}

/// The nouns that lie on a cycle of `next`, each node visited once.
fn cycle_members<'a>(next: &HashMap<&'a str, &'a str>) -> HashSet<&'a str> {
    // 1: on the path being walked, 2: finished.
    let mut state: HashMap<&str, u8> = HashMap::new();
    let mut members = HashSet::new();
    let mut keys: Vec<&str> = next.keys().copied().collect();
    keys.sort_unstable();
    for &first in &keys {
        if state.contains_key(first) {
            continue;
        }
        let mut path: Vec<&str> = Vec::new();
        let mut cur = Some(first);
        while let Some(n) = cur {
            match state.get(n) {
                Some(1) => {
                    // Back on the current path: the path from `n` on is a cycle.
                    let at = path.iter().position(|&p| p == n).unwrap_or(0);
                    members.extend(path[at..].iter().copied());
                    break;
                }
                Some(_) => break,
                None => {
                    state.insert(n, 1);
                    path.push(n);
                    cur = next.get(n).copied();
                }
            }
        }
        for p in path {
            state.insert(p, 2);
        }
    }
    members
}
