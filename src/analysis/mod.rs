//! Stage 3: semantic analysis without search (`diagnostics.md` section 4).
//!
//! Stage 3 answers "will this level play the way it reads?" from the pack model,
//! one reset of each level ([`reset`]) and linear scans of the board. It runs on
//! every keystroke, so nothing here searches: every check is a pass over the
//! cells, tiles, things or rule records of one level, or over the pack header.
//!
//! Modules, one per section of the catalogue:
//! - [`words`] for note B, the noun set and M301–M305, M308;
//! - [`reset`] for the boundary to the engine's reset and M306–M316, M323;
//! - [`pins`] for note C (documented in `docs/pins.md`), M317–M320;
//! - [`mechanisms`] for M321, M322, M324, M325;
//! - [`presentation`] for M326–M334;
//! - [`world`] for M335–M339;
//! - [`allow`] for `allow` statements applied to stage 3 output.

pub mod allow;
pub mod board;
pub mod mechanisms;
pub mod pins;
pub mod presentation;
pub mod reset;
pub mod view;
pub mod words;
pub mod world;

#[cfg(test)]
pub(crate) mod testkit;
#[cfg(test)]
mod tests;

use crate::diag::Diagnostic;
use crate::model::{Level, Pack};

pub use reset::{ResetView, RuleView};

/// Run stage 3 on `pack`, skipping the levels whose ids are in `skip_levels`
/// (they had stage 1 or 2 errors), with the engine's reset.
///
/// The result is sorted: pack-wide diagnostics first, then level by level in
/// pack order; within each, by span, cell and code. Allowances are applied.
pub fn analyse(pack: &Pack, skip_levels: &[String]) -> Vec<Diagnostic> {
    analyse_with(pack, skip_levels, &reset::engine_reset)
}

/// [`analyse`] with another source of resets: tests pass hand-built
/// [`ResetView`]s, and a caller without an engine can pass `|_| None`, which
/// leaves out every check that needs the reset.
///
/// The composition of stage 3: [`pack_checks`], [`level_checks`] of every
/// level not skipped, then [`finish`]. The editor calls the same three,
/// caching each level's checks.
pub fn analyse_with(
    pack: &Pack,
    skip_levels: &[String],
    reset: &dyn Fn(&Level) -> Option<ResetView>,
) -> Vec<Diagnostic> {
    let nouns = words::NounSet::of(pack);
    let mut out = pack_checks(pack, &nouns);
    for level in &pack.levels {
        if skip_levels.contains(&level.id.text) {
            continue;
        }
        let view = reset(level);
        out.extend(level_checks(pack, level, &nouns, view.as_ref()));
    }
    finish(pack, &mut out);
    out
}

/// The pack-wide checks of stage 3 (the pack's words, presentation and
/// world), unsorted and before allowances.
pub fn pack_checks(pack: &Pack, nouns: &words::NounSet) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    words::pack_checks(pack, &mut out);
    presentation::pack_checks(pack, nouns, &mut out);
    world::check(pack, &mut out);
    out
}

/// The stage 3 checks of one level of `pack`, given the pack's nouns and the
/// level's reset (`None` when the engine can't take the level: the checks
/// that need the reset are left out). Unsorted and before allowances. They
/// read only the level, the pack header and the pack's noun set, so a
/// caller may keep the result while those are unchanged.
pub fn level_checks(
    pack: &Pack,
    level: &Level,
    nouns: &words::NounSet,
    reset: Option<&ResetView>,
) -> Vec<Diagnostic> {
    let ctx = board::LevelCtx::new(pack, level, nouns, reset);
    let mut out = Vec::new();
    words::level_checks(&ctx, &mut out);
    if let Some(view) = reset {
        reset::level_checks(&ctx, view, &mut out);
    }
    reset::stack_checks(&ctx, &mut out);
    pins::level_checks(&ctx, &mut out);
    mechanisms::level_checks(&ctx, &mut out);
    presentation::level_checks(&ctx, &mut out);
    out
}

/// The last step of stage 3: allowances applied to what the checks found,
/// then the deterministic order.
pub fn finish(pack: &Pack, diags: &mut [Diagnostic]) {
    allow::apply(pack, diags);
    sort(pack, diags);
}

/// Deterministic order: by level (pack-wide first, then pack order), then span,
/// then first cell, then code, then message.
fn sort(pack: &Pack, diags: &mut [Diagnostic]) {
    // Level positions looked up once (the first level of an id), not by a
    // scan per comparison: a pack of thousands of levels sorts in n·log n.
    let mut positions: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, l) in pack.levels.iter().enumerate() {
        positions.entry(l.id.text.as_str()).or_insert(i);
    }
    let level_index = |d: &Diagnostic| match &d.level {
        None => 0,
        Some(id) => {
            1 + positions
                .get(id.as_str())
                .copied()
                .unwrap_or(pack.levels.len())
        }
    };
    diags.sort_by_cached_key(|d| {
        (
            level_index(d),
            d.span.start,
            d.span.end,
            d.cells.first().map(|&(x, y)| (y, x)),
            d.info.code,
            d.message.clone(),
        )
    });
}
