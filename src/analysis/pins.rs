//! Note C: pin analysis (M317–M320). The algorithm is written up in `docs/pins.md`.
//!
//! Sound, not complete: a word is called pinned only when no push can ever move
//! it, whatever the rules become. It runs on the reset state, in time linear in
//! the cells (a worklist fixed point: each cell is re-examined only when one of
//! its four neighbours becomes pinned).

use std::collections::BTreeSet;

use super::board::{Cell, LevelCtx, cell_name, extent};
use super::reset::RuleView;
use crate::diag::{Diagnostic, Fix, TextEdit};
use crate::span::Span;

/// The four directions, in the order `U D L R`.
pub const DIRS: [(i64, i64); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

/// The result of the pin analysis of one level.
#[derive(Debug, Clone)]
pub struct Pins {
    width: i64,
    height: i64,
    /// Cells holding a word that can never move.
    pinned: Vec<bool>,
    /// Cells holding a fixed word.
    fixed: Vec<bool>,
    /// Cells holding a permanent terrain thing alone.
    terrain: Vec<bool>,
    /// Cells where some thing started.
    has_thing: Vec<bool>,
    /// Cells holding a word.
    has_word: Vec<bool>,
    /// Cells a mover or a pushed tile may ever enter ([`reachable_cells`]).
    reachable: Vec<bool>,
}

impl Pins {
    /// Run the fixed point of note C on the reset state of `ctx`.
    pub fn compute(ctx: &LevelCtx) -> Pins {
        let n = ctx.cells.len();
        let spelled: BTreeSet<&str> = ctx
            .cells
            .iter()
            .flat_map(|c| c.words.iter().map(|&i| ctx.obj(i).text.as_str()))
            .collect();
        let mut p = Pins {
            width: ctx.width as i64,
            height: ctx.height as i64,
            pinned: vec![false; n],
            fixed: vec![false; n],
            terrain: vec![false; n],
            has_thing: vec![false; n],
            has_word: vec![false; n],
            reachable: reachable_cells(ctx),
        };
        for (k, c) in ctx.cells.iter().enumerate() {
            p.has_word[k] = !c.words.is_empty();
            p.has_thing[k] = !c.things.is_empty();
            p.fixed[k] = c.words.iter().any(|&i| ctx.obj(i).fixed);
            if let [t] = c.things.as_slice() {
                let noun = ctx.text[*t].as_str();
                p.terrain[k] = c.words.is_empty()
                    && ctx.level.terrain.iter().any(|tn| tn.text == noun)
                    && !spelled.contains(noun);
            }
            // A fixed word never moves, and neither does anything stacked with
            // it; a word no mover can ever reach never moves either.
            p.pinned[k] = p.fixed[k] || (p.has_word[k] && !p.reachable[k]);
        }
        let mut work: Vec<usize> = (0..n).filter(|&k| p.has_word[k]).collect();
        while let Some(k) = work.pop() {
            if p.pinned[k] || !p.has_word[k] || p.has_thing[k] {
                continue;
            }
            let (x, y) = p.xy(k);
            if p.passes(x, y) {
                p.pinned[k] = true;
                for (dx, dy) in DIRS {
                    if let Some(j) = p.index(x + dx, y + dy)
                        && p.has_word[j]
                        && !p.pinned[j]
                    {
                        work.push(j);
                    }
                }
            }
        }
        p
    }

    fn xy(&self, k: usize) -> (i64, i64) {
        (k as i64 % self.width, k as i64 / self.width)
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.width && y < self.height)
            .then(|| (y * self.width + x) as usize)
    }

    /// Whether the cell is off the board or holds a permanent blocker.
    pub fn blocks(&self, x: i64, y: i64) -> bool {
        match self.index(x, y) {
            None => true,
            Some(k) => self.fixed[k] || self.pinned[k] || self.terrain[k],
        }
    }

    /// Whether no mover can ever stand in the cell.
    pub fn pusher_proof(&self, x: i64, y: i64) -> bool {
        match self.index(x, y) {
            None => true,
            Some(k) => {
                !self.reachable[k]
                    || self.terrain[k]
                    || ((self.fixed[k] || self.pinned[k]) && !self.has_thing[k])
            }
        }
    }

    /// The pin test for a word at `(x, y)`: every direction is closed ahead or behind.
    pub fn passes(&self, x: i64, y: i64) -> bool {
        DIRS.iter()
            .all(|&(dx, dy)| self.blocks(x + dx, y + dy) || self.pusher_proof(x - dx, y - dy))
    }

    /// Whether the word cell at `(x, y)` is pinned.
    pub fn is_pinned(&self, x: i64, y: i64) -> bool {
        self.index(x, y).is_some_and(|k| self.pinned[k])
    }

    /// Whether a loose word at `(x, y)` is one push from `t = (x, y) + d`.
    pub fn one_push(&self, x: i64, y: i64, (dx, dy): (i64, i64)) -> bool {
        let Some(t) = self.index(x + dx, y + dy) else {
            return false;
        };
        self.reachable[t]
            && !self.has_word[t]
            && !self.blocks(x + dx, y + dy)
            && !self.pusher_proof(x - dx, y - dy)
    }

    /// Whether `(x, y)` is on an edge line.
    pub fn on_edge(&self, x: i64, y: i64) -> bool {
        x == 0 || y == 0 || x == self.width - 1 || y == self.height - 1
    }

    /// Whether `(x, y)` is a corner.
    pub fn is_corner(&self, x: i64, y: i64) -> bool {
        (x == 0 || x == self.width - 1) && (y == 0 || y == self.height - 1)
    }

    /// Trap cells: on an edge line, next to a pinned word, empty at reset, and
    /// a word there would pass the pin test.
    pub fn traps(&self) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for k in 0..self.pinned.len() {
            let (x, y) = self.xy(k);
            if !self.on_edge(x, y)
                || !self.reachable[k]
                || self.has_word[k]
                || self.has_thing[k]
                || self.terrain[k]
            {
                continue;
            }
            let next_to_pinned = DIRS
                .iter()
                .any(|&(dx, dy)| self.index(x + dx, y + dy).is_some_and(|j| self.pinned[j]));
            if next_to_pinned && self.passes(x, y) {
                out.push((x, y));
            }
        }
        out
    }
}

/// The cells that a mover or a pushed tile may ever enter: a sound
/// over-approximation, computed as a fixed point (`docs/pins.md`, "Sealed
/// regions").
///
/// A cell is *sealed off* by a thing that can never stop refusing entry: STOP
/// under rules whose words no mover can reach, not PUSH or YOU, with no
/// declared property, no FRAIL, no pending transformation, and whose noun is
/// spelled by no reachable word tile (so no new rule can ever name it). Every
/// thing is a possible mover; the reachable cells are a flood fill from the
/// things through cells that aren't sealed off. The flood fill and the rules
/// it leaves intact depend on each other, so start from "every rule holds" and
/// grow the reachable set until it is stable: it only grows, so this ends.
pub fn reachable_cells(ctx: &LevelCtx) -> Vec<bool> {
    let w = ctx.width as i64;
    let h = ctx.height as i64;
    let n = ctx.cells.len();
    let mut reach = vec![false; n];
    let Some(view) = ctx.view else {
        // Without the engine's reset nothing is known to hold: everything is reachable.
        return vec![true; n];
    };
    let cell_of = |id: &str| {
        ctx.find(id)
            .map(|i| (ctx.obj(i).y as i64 * w + ctx.obj(i).x as i64) as usize)
    };
    loop {
        // Rules that still hold: terrain, and sentences none of whose words can be reached.
        let holding: Vec<_> = view
            .rules
            .iter()
            .filter(|r| {
                r.words
                    .iter()
                    .all(|id| cell_of(id).is_none_or(|k| k < n && !reach[k]))
            })
            .collect();
        let spelled_reachable: BTreeSet<&str> = (0..n)
            .filter(|&k| reach[k])
            .flat_map(|k| ctx.cells[k].words.iter().map(|&i| ctx.text[i].as_str()))
            .collect();
        let walls_off = |noun: &str| {
            if spelled_reachable.contains(noun) || ctx.declared.contains(noun) {
                return false;
            }
            let mut stop = ctx.level.terrain.iter().any(|t| t.text == noun);
            let mut identity = false;
            let mut transforms = false;
            for r in holding.iter().filter(|r| r.subject == noun) {
                match r.predicate.as_str() {
                    "STOP" => stop = true,
                    "PUSH" | "YOU" | "FRAIL" => return false,
                    p if p == noun => identity = true,
                    p if ctx.class(p) == super::board::WordClass::Noun => transforms = true,
                    p if ctx.declared.contains(p) => return false,
                    _ => {}
                }
            }
            stop && (identity || !transforms)
        };
        let walling = |i: usize| ctx.obj(i).channel.is_none() && walls_off(ctx.text[i].as_str());
        let sealed: Vec<bool> = ctx
            .cells
            .iter()
            .map(|c| c.things.iter().any(|&i| walling(i)))
            .collect();
        // Every thing that doesn't wall off may some day move (rules can make it YOU).
        let mut next = vec![false; n];
        let mut stack: Vec<usize> = (0..n)
            .filter(|&k| ctx.cells[k].things.iter().any(|&i| !walling(i)))
            .collect();
        for &k in &stack {
            next[k] = true;
        }
        while let Some(k) = stack.pop() {
            let (x, y) = (k as i64 % w, k as i64 / w);
            for (dx, dy) in DIRS {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let j = (ny * w + nx) as usize;
                if !next[j] && !sealed[j] {
                    next[j] = true;
                    stack.push(j);
                }
            }
        }
        if next == reach {
            return reach;
        }
        // Monotone: a cell once reachable stays so, which guarantees the loop ends.
        for k in 0..n {
            reach[k] |= next[k];
        }
    }
}

fn word_label(ctx: &LevelCtx, x: i64, y: i64) -> String {
    ctx.cell(x, y)
        .map(|c| {
            c.words
                .iter()
                .map(|&i| {
                    let o = ctx.obj(i);
                    if o.fixed {
                        format!("{}!", o.text)
                    } else {
                        o.text.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join("+")
        })
        .unwrap_or_default()
}

fn cell_span(ctx: &LevelCtx, x: i64, y: i64) -> Span {
    ctx.cell(x, y)
        .and_then(|c| c.words.first().or(c.things.first()))
        .map_or(ctx.level.board_span, |&i| ctx.obj(i).span)
}

/// The words `idx` with every other word of their cells, in object order.
fn stack_mates(ctx: &LevelCtx, p: &Pins, idx: &[usize]) -> Vec<usize> {
    let mut out: Vec<usize> = idx
        .iter()
        .flat_map(|&i| {
            let o = ctx.obj(i);
            p.index(o.x as i64, o.y as i64)
                .and_then(|k| ctx.cells.get(k))
                .map_or_else(|| vec![i], |c| c.words.clone())
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn dir_word((dx, dy): (i64, i64)) -> &'static str {
    match (dx, dy) {
        (0, -1) => "up",
        (0, 1) => "down",
        (-1, 0) => "left",
        _ => "right",
    }
}

/// The edge line a cell lies on, for the push direction `d` that reached it.
fn edge_line(p: &Pins, x: i64, y: i64) -> Option<(String, &'static str, &'static str)> {
    if y == 0 || y == p.height - 1 {
        Some((
            format!("row {y}"),
            "left and right",
            if y == 0 { "down" } else { "up" },
        ))
    } else if x == 0 || x == p.width - 1 {
        Some((
            format!("column {x}"),
            "up and down",
            if x == 0 { "right" } else { "left" },
        ))
    } else {
        None
    }
}

/// Why one axis is closed at a trap cell, for M319.
fn axis_reason(ctx: &LevelCtx, p: &Pins, x: i64, y: i64, horizontal: bool) -> String {
    if horizontal && (x == 0 || x == p.width - 1) {
        return format!("column {x}");
    }
    if !horizontal && (y == 0 || y == p.height - 1) {
        return format!("row {y}");
    }
    let dirs: [(i64, i64); 2] = if horizontal {
        [(-1, 0), (1, 0)]
    } else {
        [(0, -1), (0, 1)]
    };
    for (dx, dy) in dirs {
        let (nx, ny) = (x + dx, y + dy);
        if p.is_pinned(nx, ny) {
            let what = if p.index(nx, ny).is_some_and(|k| p.fixed[k]) {
                "fixed"
            } else {
                "pinned"
            };
            return format!(
                "the {what} {} at {}",
                word_label(ctx, nx, ny),
                cell_name(nx as u32, ny as u32)
            );
        }
        if p.index(nx, ny).is_some_and(|k| p.terrain[k]) {
            let noun = ctx
                .cell(nx, ny)
                .and_then(|c| c.things.first())
                .map_or(String::new(), |&i| ctx.text[i].clone());
            return format!("the {noun} at {}", cell_name(nx as u32, ny as u32));
        }
    }
    "the tiles around it".to_string()
}

/// M317–M320 for one level, in the order the checks report: M317 and M320
/// (only with a reset), then M319, then M318 (which skips the words M319
/// already reported).
pub fn level_checks(ctx: &LevelCtx, out: &mut Vec<Diagnostic>) {
    if ctx.cells.is_empty() {
        return;
    }
    let p = Pins::compute(ctx);
    if ctx.view.is_some() {
        check_pinned_sentences(ctx, &p, out);
        check_pinned_loose_words(ctx, &p, out);
    }
    let trapped_words = check_traps(ctx, &p, out);
    check_edge_words(ctx, &p, &trapped_words, out);
}

/// M317: sentences active at reset whose tiles are all pinned, none fixed;
/// one diagnostic per set of cells.
fn check_pinned_sentences(ctx: &LevelCtx, p: &Pins, out: &mut Vec<Diagnostic>) {
    let mut seen: BTreeSet<Vec<(u32, u32)>> = BTreeSet::new();
    for r in &ctx.rules {
        if let Some(d) = pinned_sentence(ctx, p, r, &mut seen) {
            out.push(d);
        }
    }
}

/// The M317 diagnostic for one rule, when all its tiles are pinned, none is
/// fixed, and no earlier rule on the same cells was reported (`seen`).
fn pinned_sentence(
    ctx: &LevelCtx,
    p: &Pins,
    r: &RuleView,
    seen: &mut BTreeSet<Vec<(u32, u32)>>,
) -> Option<Diagnostic> {
    let idx: Vec<usize> = r.words.iter().filter_map(|w| ctx.find(w)).collect();
    if idx.is_empty() || idx.len() != r.words.len() {
        return None;
    }
    let cells: Vec<(u32, u32)> = idx.iter().map(|&i| (ctx.obj(i).x, ctx.obj(i).y)).collect();
    let all_pinned = cells.iter().all(|&(x, y)| p.is_pinned(x as i64, y as i64));
    let any_fixed = idx.iter().any(|&i| ctx.obj(i).fixed);
    if !all_pinned || any_fixed || !seen.insert(cells.clone()) {
        return None;
    }
    let hold = what_holds_sentence(p, &cells);
    let text = ctx.sentence_text(r);
    let id = ctx.id();
    let mut d = Diagnostic::new(
        "M317",
        ctx.obj(idx[0]).span,
        format!(
            "Level {id}: {text} ({}) can never move: {hold}. Players can't see that. \
             Mark its words fixed so they're drawn bolted.",
            extent(&cells)
        ),
    )
    .with_level(id);
    for &(x, y) in &cells {
        d = d.with_cell(x, y);
    }
    if let Some(fix) = mark_sentence_fixed(ctx, p, &idx, &text) {
        d.fixes.push(fix);
    }
    Some(d)
}

/// Why a pinned sentence on `cells` never moves, for M317: walled off, held by
/// the board edges it touches, or held by the pinned tiles around it.
fn what_holds_sentence(p: &Pins, cells: &[(u32, u32)]) -> String {
    let mut edges = Vec::new();
    if cells.iter().any(|c| c.1 == 0) {
        edges.push("the top edge");
    }
    if cells.iter().any(|c| c.1 as i64 == p.height - 1) {
        edges.push("the bottom edge");
    }
    if cells.iter().any(|c| c.0 == 0) {
        edges.push("the left edge");
    }
    if cells.iter().any(|c| c.0 as i64 == p.width - 1) {
        edges.push("the right edge");
    }
    let unreachable = cells
        .iter()
        .all(|&(x, y)| p.index(x as i64, y as i64).is_some_and(|k| !p.reachable[k]));
    if unreachable {
        "no mover can ever reach it, because things that stay STOP wall it off".to_string()
    } else if edges.is_empty() {
        "the pinned tiles around it hold it".to_string()
    } else {
        format!(
            "{} {}",
            super::reset::join_and(&edges.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
            if edges.len() == 1 {
                "holds it"
            } else {
                "hold it"
            }
        )
    }
}

/// The M317 fix marking every word of the sentence `idx` (spelled `text`)
/// fixed, when each of them is written in the source and none is fixed yet.
fn mark_sentence_fixed(ctx: &LevelCtx, p: &Pins, idx: &[usize], text: &str) -> Option<Fix> {
    // Every word of each cell: a stack is fixed whole or not at all (M113),
    // and a pinned cell's other words are pinned too.
    let mates = stack_mates(ctx, p, idx);
    let all_editable = mates
        .iter()
        .all(|&i| ctx.obj(i).written() != Span::default() && !ctx.obj(i).fixed);
    if !all_editable {
        return None;
    }
    Some(Fix {
        title: format!(
            "Mark {} fixed (play doesn't change; the pack then needs a game build that knows fixed words)",
            text.split(' ')
                .map(|w| format!("{w}!"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        edits: mates
            .into_iter()
            .map(|i| TextEdit {
                span: ctx.obj(i).written(),
                new_text: format!("{}!", ctx.obj(i).text),
            })
            .collect(),
    })
}

/// M320: pinned words in no rule active at reset (fixed words are visibly
/// bolted already), one diagnostic per cell in reading order.
fn check_pinned_loose_words(ctx: &LevelCtx, p: &Pins, out: &mut Vec<Diagnostic>) {
    let id = ctx.id();
    let in_rules = ctx.words_in_rules();
    for (k, c) in ctx.cells.iter().enumerate() {
        let (x, y) = p.xy(k);
        if !p.pinned[k]
            || p.fixed[k]
            || c.words
                .iter()
                .any(|&i| in_rules.contains(ctx.obj(i).id.as_str()))
        {
            continue;
        }
        let mut d = Diagnostic::new(
            "M320",
            ctx.obj(c.words[0]).span,
            format!(
                "Level {id}: {} at {} can never move. It can only be used where it stands, \
                 as the start or end of a sentence built onto it.",
                word_label(ctx, x, y),
                cell_name(x as u32, y as u32)
            ),
        )
        .with_level(id)
        .with_cell(x as u32, y as u32);
        if let Some(fix) = mark_cell_fixed(ctx, c) {
            d.fixes.push(fix);
        }
        out.push(d);
    }
}

/// The M320 fix marking every word of the cell `c` fixed, when each of them
/// is written in the source.
fn mark_cell_fixed(ctx: &LevelCtx, c: &Cell) -> Option<Fix> {
    if !c
        .words
        .iter()
        .all(|&i| ctx.obj(i).written() != Span::default())
    {
        return None;
    }
    Some(Fix {
        title: "Mark it fixed (play doesn't change; the pack then needs a game build that knows fixed words)".into(),
        edits: c
            .words
            .iter()
            .map(|&i| TextEdit {
                span: ctx.obj(i).written(),
                new_text: format!("{}!", ctx.obj(i).text),
            })
            .collect(),
    })
}

/// M319: loose words one push from a trap cell, one diagnostic per trap.
/// Returns the cells of the words reported, which M318 then leaves alone.
fn check_traps(ctx: &LevelCtx, p: &Pins, out: &mut Vec<Diagnostic>) -> BTreeSet<usize> {
    let mut trapped_words: BTreeSet<usize> = BTreeSet::new();
    for (tx, ty) in p.traps() {
        let reach = words_one_push_from(p, tx, ty);
        if reach.is_empty() {
            continue;
        }
        trapped_words.extend(reach.iter().filter_map(|&(x, y)| p.index(x, y)));
        out.push(trap_diagnostic(ctx, p, (tx, ty), &reach));
    }
    trapped_words
}

/// The cells of loose words that one push moves into the trap `(tx, ty)`,
/// in reading order.
fn words_one_push_from(p: &Pins, tx: i64, ty: i64) -> Vec<(i64, i64)> {
    let mut reach: Vec<(i64, i64)> = Vec::new();
    for (dx, dy) in DIRS {
        let (wx, wy) = (tx - dx, ty - dy);
        if let Some(k) = p.index(wx, wy)
            && p.has_word[k]
            && !p.pinned[k]
            && p.one_push(wx, wy, (dx, dy))
        {
            reach.push((wx, wy));
        }
    }
    reach.sort_by_key(|&(x, y)| (y, x));
    reach
}

/// The M319 diagnostic for the trap `(tx, ty)` and the words `reach` (not
/// empty) one push away from it, pointing at the pinned words that close it.
fn trap_diagnostic(
    ctx: &LevelCtx,
    p: &Pins,
    (tx, ty): (i64, i64),
    reach: &[(i64, i64)],
) -> Diagnostic {
    let id = ctx.id();
    let who: Vec<String> = reach
        .iter()
        .map(|&(x, y)| {
            format!(
                "{} at {}",
                word_label(ctx, x, y),
                cell_name(x as u32, y as u32)
            )
        })
        .collect();
    let side = axis_reason(ctx, p, tx, ty, true);
    let vert = axis_reason(ctx, p, tx, ty, false);
    let mut d = Diagnostic::new(
        "M319",
        cell_span(ctx, reach[0].0, reach[0].1),
        format!(
            "Level {id}: a word pushed into {} can never leave: {side} stops sideways pushes and {vert} stops vertical ones. \
             {} {} there in one push.",
            cell_name(tx as u32, ty as u32),
            super::reset::join_and(&who),
            if who.len() == 1 { "gets" } else { "get" }
        ),
    )
    .with_level(id)
    .with_cell(tx as u32, ty as u32);
    for &(x, y) in reach {
        d = d.with_cell(x as u32, y as u32);
    }
    for (dx, dy) in DIRS {
        if p.is_pinned(tx + dx, ty + dy) {
            d = d.with_related(
                cell_span(ctx, tx + dx, ty + dy),
                "this pinned word closes the trap",
            );
        }
    }
    d
}

/// M318: loose words on an edge line, or one push from one, skipping the
/// words M319 reported (`trapped_words`); one diagnostic per cell in reading
/// order.
fn check_edge_words(
    ctx: &LevelCtx,
    p: &Pins,
    trapped_words: &BTreeSet<usize>,
    out: &mut Vec<Diagnostic>,
) {
    for (k, c) in ctx.cells.iter().enumerate() {
        if c.words.is_empty() || p.pinned[k] || trapped_words.contains(&k) {
            continue;
        }
        let (x, y) = p.xy(k);
        let Some(msg) = edge_word_message(ctx, p, x, y) else {
            continue;
        };
        out.push(
            Diagnostic::new("M318", ctx.obj(c.words[0]).span, msg)
                .with_level(ctx.id())
                .with_cell(x as u32, y as u32),
        );
    }
}

/// The M318 message for the loose word at `(x, y)`: it lies on an edge line
/// (not a corner), or one push takes it into a corner or onto an edge line.
/// `None` when neither holds.
fn edge_word_message(ctx: &LevelCtx, p: &Pins, x: i64, y: i64) -> Option<String> {
    let id = ctx.id();
    let label = word_label(ctx, x, y);
    let here = cell_name(x as u32, y as u32);
    if p.on_edge(x, y) {
        if p.is_corner(x, y) {
            return None;
        }
        let (line, slides, _) = edge_line(p, x, y)?;
        return Some(format!(
            "Level {id}: {label} at {here} can only slide {slides} along {line}."
        ));
    }
    let (d, tx, ty) = DIRS.into_iter().find_map(|d| {
        let (tx, ty) = (x + d.0, y + d.1);
        (p.on_edge(tx, ty) && p.one_push(x, y, d)).then_some((d, tx, ty))
    })?;
    if p.is_corner(tx, ty) {
        Some(format!(
            "Level {id}: {label} at {here} can be pushed {} into the corner at {}, where it can never move again.",
            dir_word(d),
            cell_name(tx as u32, ty as u32)
        ))
    } else {
        let (line, slides, back) = edge_line(p, tx, ty)?;
        Some(format!(
            "Level {id}: {label} at {here} can be pushed {} into {line}. From there it only slides {slides}; it never comes back {back}.",
            dir_word(d)
        ))
    }
}
