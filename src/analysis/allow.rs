//! `allow` statements applied to stage 3 output (`diagnostics.md` 1.4).
//!
//! An allowed diagnostic is still reported, as info, with "(allowed: reason)",
//! so the design it excuses stays visible. Errors can't be allowed. Level
//! allowances apply to that level's diagnostics; pack allowances to pack-wide
//! ones. Malformed allowances are M239 (stage 2), and allowances that no longer
//! match anything are M414 (stage 4, which sees every stage's output), so
//! neither is reported here.

use crate::diag::{Diagnostic, Severity};
use crate::model::{Pack, REASON_PLACEHOLDER};
use crate::span::Span;

/// Downgrade allowed diagnostics and offer "Allow … in level" on the others.
pub fn apply(pack: &Pack, diags: &mut [Diagnostic]) {
    for d in diags.iter_mut() {
        if d.severity == Severity::Error {
            continue;
        }
        let allowed = pack.allowance(d.level.as_deref(), d.info.code);
        match allowed {
            Some(a) => {
                if d.severity == Severity::Warning {
                    d.severity = Severity::Info;
                }
                d.message = format!("{} (allowed: {})", d.message, a.reason.trim());
            }
            None => offer_allow_fix(pack, d),
        }
    }
}

/// Every warning and info raised for a level offers "Allow word-trap (M319)
/// in level id": an `allow` statement inserted before the board, where level
/// statements go. A pack-wide one (a world of three levels while it is
/// drafted) offers "Allow world-level-count (M335) in the pack": an `allow`
/// after the pack header's last statement. The title names what is allowed,
/// so the actions of two diagnostics at one place read apart. Stage 4 offers
/// it too, on the findings that an allowance answers (M430).
pub fn offer_allow_fix(pack: &Pack, d: &mut Diagnostic) {
    if !matches!(d.severity, Severity::Warning | Severity::Info) {
        return;
    }
    let Some(id) = d.level.as_deref() else {
        if pack.allow_at != Span::default() {
            let text = format!("\n  allow {} \"{REASON_PLACEHOLDER}\"", d.info.name);
            let title = format!("Allow {} in the pack", allowed(d));
            *d = d.clone().with_fix(title, pack.allow_at, text);
        }
        return;
    };
    let Some(level) = pack.level(id) else {
        return;
    };
    if level.board_span == Span::default() {
        return;
    }
    let title = format!("Allow {} in level {}", allowed(d), level.id.text);
    let text = format!("allow {} \"{REASON_PLACEHOLDER}\"\n  ", d.info.name);
    *d = d
        .clone()
        .with_fix(title, Span::point(level.board_span.start as usize), text);
}

/// What an allow fix's title names: "word-trap (M319)".
fn allowed(d: &Diagnostic) -> String {
    format!("{} ({})", d.info.name, d.info.code)
}
