//! The claims over what happens (`must-lose`, `must-crumble`, `must-become`,
//! `must-press`, `must-pair`, `must-push-word`): one search per claim that
//! forbids its event. A win means the claim is wrong (M421–M426, with the
//! route); a search stopped at its budget proves nothing (M419).

use super::{Ctx, steps};
use crate::check::report::SearchKind;
use crate::diag::Diagnostic;
use crate::diag::wording::with_article;
use crate::model::{EventClaim, EventClaimKind, Level};
use crate::solver::level::Constraints;
use crate::solver::{DestroyCause, EventFilter, Progress, Verdict};
use crate::span::Span;
use crate::validate::claims::ClaimNames;

/// The code a wrong claim of `kind` raises.
pub fn wrong_code(kind: EventClaimKind) -> &'static str {
    match kind {
        EventClaimKind::Lose => "M421",
        EventClaimKind::Crumble => "M422",
        EventClaimKind::Become => "M423",
        EventClaimKind::Press => "M424",
        EventClaimKind::Pair => "M425",
        EventClaimKind::PushWord => "M426",
    }
}

/// The events a claim's search forbids: any one of them happening prunes
/// the turn, so a claim naming several nouns or channels holds when every
/// win makes one of them happen.
pub fn forbidden_events(claim: &EventClaim) -> Vec<EventFilter> {
    let nouns: Vec<String> = claim.args.iter().map(|a| a.text.clone()).collect();
    match claim.kind {
        EventClaimKind::Lose => vec![EventFilter::Lost { nouns }],
        EventClaimKind::Crumble => vec![EventFilter::Crumbled { nouns }],
        EventClaimKind::Become => vec![EventFilter::Transformed { into: nouns }],
        EventClaimKind::Press if nouns.is_empty() => {
            vec![EventFilter::GateOpened { channel: None }]
        }
        EventClaimKind::Press => nouns
            .into_iter()
            .map(|c| EventFilter::GateOpened { channel: Some(c) })
            .collect(),
        EventClaimKind::Pair => vec![EventFilter::Destroyed {
            nouns: vec![],
            cause: Some(DestroyCause::Pair),
        }],
        EventClaimKind::PushWord => vec![EventFilter::AutomatonPushedWord],
    }
}

/// `d` with the quick fix "Claim `must-crumble DRIFT`": `claim` written as
/// a statement of `level`, before its board (where `budget` goes), for a
/// finding whose search proved the claim holds (a lesson the level
/// teaches). No fix for a level without a board in the source (read from
/// JSON).
pub fn with_claim_fix(d: Diagnostic, level: &Level, claim: &EventClaim) -> Diagnostic {
    if level.board_span == Span::default() {
        return d;
    }
    let statement = claim.statement();
    d.with_fix(
        format!("Claim `{statement}`"),
        Span::point(level.board_span.start as usize),
        format!("{statement}\n  "),
    )
}

/// What the claim's search goes without, for its messages: `losing a MIAU
/// or CRAB thing`.
fn without(claim: &EventClaim) -> String {
    let args: Vec<&str> = claim.args.iter().map(|a| a.text.as_str()).collect();
    let or = args.join(" or ");
    let a_or = with_article(&or);
    match claim.kind {
        EventClaimKind::Lose => format!("losing {a_or} thing"),
        EventClaimKind::Crumble if args.is_empty() => "anything crumbling".into(),
        EventClaimKind::Crumble => format!("{a_or} thing crumbling"),
        EventClaimKind::Become => format!("anything becoming {or}"),
        EventClaimKind::Press if args.is_empty() => "pressing a plate".into(),
        EventClaimKind::Press => format!("pressing {a_or} plate"),
        EventClaimKind::Pair => "a pair opening".into(),
        EventClaimKind::PushWord => "an automaton pushing a word".into(),
    }
}

/// One search per claim over events, in the order written. A claim naming
/// a noun or channel the level lacks gets none: stage 2 reports the name
/// (M249), and a search would only add a route that avoids an event that
/// can't happen.
pub(super) fn event_claims(cx: &mut Ctx<'_>, progress: &mut dyn FnMut(Progress)) {
    let id = cx.id().to_string();
    let names = ClaimNames::of(cx.level);
    for claim in &cx.level.check.must_happen {
        if cx.report.cancelled {
            return;
        }
        if !names.absent(claim).is_empty() {
            continue;
        }
        let statement = claim.statement();
        let constraints = Constraints {
            forbid_events: forbidden_events(claim),
            ..Constraints::default()
        };
        let kind = SearchKind::Happen(statement.clone());
        match cx.search(kind, constraints, progress) {
            Verdict::Solved { route, .. } => {
                let t = cx.text(&route);
                let d = cx.diag(
                    wrong_code(claim.kind),
                    claim.span,
                    format!(
                        "Level {id}: {statement} isn't needed: won in {} without {} ({t}).",
                        steps(route.len()),
                        without(claim)
                    ),
                );
                cx.push(d);
            }
            Verdict::Limit => cx.unproven(
                claim.span,
                &statement,
                &format!("the search without {}", without(claim)),
            ),
            Verdict::Unsolved | Verdict::Cancelled => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Options, check_level};
    use crate::compile::{SourceKind, compile};
    use std::sync::atomic::AtomicBool;

    /// A FRAIL plank is the only way over the water.
    const PLANK: &str = "pack p {
  name    \"P\"
  version \"1.0.0\"
  engine  1
  rules   2
}

level plank {
  title \"Plank\"
  terrain WALL

  board {
    MIAU! IS! YOU!  . DRIFT! IS! FRAIL!
    WATER! IS! SINK! . FLAG! IS! WIN!
    #  #  #  #  #  #  #
    @  .  d  d  .  f  .
    #  #  #  #  #  #  #
  }
}
";

    /// The codes `check` raises on the only level of `src`.
    fn codes(src: &str) -> Vec<String> {
        let pack = compile(src, SourceKind::Miau)
            .pack
            .expect("the pack builds");
        let level = &pack.levels[0];
        let report = check_level(
            &pack,
            level,
            0,
            Options::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        );
        report
            .diagnostics
            .iter()
            .map(|d| d.code().to_string())
            .collect()
    }

    /// The fix writes the claim into the level; the level then holds it,
    /// and the check proves it.
    #[test]
    fn the_claim_fix_inserts_a_claim_the_check_proves() {
        let pack = compile(PLANK, SourceKind::Miau)
            .pack
            .expect("the pack builds");
        let claim = EventClaim {
            kind: EventClaimKind::Crumble,
            args: vec![crate::model::Named::new("DRIFT")],
            span: Span::default(),
        };
        let d = with_claim_fix(
            Diagnostic::new("M405", Span::default(), "x"),
            &pack.levels[0],
            &claim,
        );
        let edit = &d.fixes[0].edits[0];
        assert_eq!(d.fixes[0].title, "Claim `must-crumble DRIFT`");
        let mut fixed = PLANK.to_string();
        fixed.replace_range(edit.span.range(), &edit.new_text);
        assert!(fixed.contains("  must-crumble DRIFT\n  board {"), "{fixed}");
        let again = compile(&fixed, SourceKind::Miau)
            .pack
            .expect("the fixed pack builds");
        assert_eq!(again.levels[0].check.must_happen.len(), 1);
        assert_eq!(
            again.levels[0].check.must_happen[0].statement(),
            "must-crumble DRIFT"
        );
        let found = codes(&fixed);
        assert!(
            !found.iter().any(|c| c == "M422" || c == "M419"),
            "{found:?}"
        );
    }

    /// `must-crumble` naming no noun forbids what FRAIL's lesson coverage
    /// forbids: the lesson takes the claim's answer instead of searching
    /// again, whether that answer is a proof or a route.
    #[test]
    fn a_lesson_takes_the_answer_of_the_claim_with_its_constraints() {
        let claimed = PLANK.replace(
            "level plank {\n  title \"Plank\"\n",
            "level plank {\n  title \"Plank\"\n  introduces FRAIL\n  must-crumble\n",
        );
        let walked_round = claimed.replace(
            "    #  #  #  #  #  #  #\n  }",
            "    .  .  .  .  .  .  .\n  }",
        );
        for (src, coverage, code) in [
            (&claimed, "covered", None),
            (&walked_round, "skippable", Some("M422")),
        ] {
            let pack = compile(src, SourceKind::Miau)
                .pack
                .expect("the pack builds");
            let report = check_level(
                &pack,
                &pack.levels[0],
                0,
                Options::default(),
                &AtomicBool::new(false),
                &mut |_| {},
            );
            let kinds: Vec<String> = report.searches.iter().map(|s| s.kind.name()).collect();
            assert!(kinds.contains(&"must-crumble".to_string()), "{kinds:?}");
            assert!(!kinds.iter().any(|k| k.starts_with("lesson")), "{kinds:?}");
            let lessons: Vec<(&str, &str)> = report
                .lessons
                .iter()
                .map(|l| (l.mechanic.as_str(), l.coverage.as_str()))
                .collect();
            assert_eq!(lessons, [("FRAIL", coverage)]);
            let found: Vec<&str> = report.diagnostics.iter().map(|d| d.code()).collect();
            if let Some(code) = code {
                assert!(
                    found.contains(&code) && found.contains(&"M430"),
                    "{found:?}"
                );
            }
        }
    }

    /// A claim the level doesn't need is wrong, with its code: here the
    /// planks can be walked round.
    #[test]
    fn a_claim_a_win_avoids_is_wrong() {
        let open = PLANK
            .replace(
                "    #  #  #  #  #  #  #\n  }",
                "    .  .  .  .  .  .  .\n  }",
            )
            .replace(
                "level plank {\n  title \"Plank\"\n",
                "level plank {\n  title \"Plank\"\n  must-crumble DRIFT\n",
            );
        let found = codes(&open);
        assert!(found.iter().any(|c| c == "M422"), "{found:?}");
    }
}
