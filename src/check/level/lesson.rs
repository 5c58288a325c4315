//! Lesson coverage: the mechanics a level introduces, and what it means for
//! each of them to act on a turn (`diagnostics.md`, M430).
//!
//! A level that writes `introduces FRAIL` promises that its player meets
//! crumbling. The check holds it to that: it searches for a win in which
//! the mechanic never acts, and a win found is a route that skips the
//! lesson. Only the words of `introduces` count; a level that `reuses` a
//! mechanic is not held to it, and free-text ideas name no mechanic.

use super::{Ctx, rules_at_win, steps};
use crate::check::report::{Coverage, LessonResult, SearchKind};
use crate::engine::{Cause, Game, Input, Tok, TurnResult};
use crate::model::{EventClaim, EventClaimKind, Level, Named};
use crate::solver::level::{Constraints, DestroyCause, EventFilter};
use crate::solver::{Progress, Verdict};
use crate::span::Span;

/// A mechanic a level can introduce, by the engine event that shows it
/// acting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mechanic {
    /// `SINK`: a thing or word destroyed by sinking.
    Sink,
    /// `DEFEAT`: a YOU thing destroyed by defeat.
    Defeat,
    /// `PUSH`: a thing (not a word) pushed along.
    Push,
    /// `FRAIL`: a crumble.
    Frail,
    /// A pair (`OPEN`/`SHUT`), by its index in declaration order: a pair
    /// opening (both partners destroyed).
    Pair(u8),
    /// An automaton property word (`TICK`): an automaton moving anything.
    Tick(Tok),
    /// `FLOAT`: float layers keeping a thing that moved apart from one the
    /// contact pass would have acted on with it.
    Float,
    /// `GOAL`: more GOAL things covered after a turn than before it.
    Goal,
    /// `PLATE` or `GATE`: a gate opened by its channel's plate.
    Gates,
}

impl Mechanic {
    /// The mechanic's words as the level writes them: `FRAIL`, `OPEN and
    /// SHUT`, `PLATE and GATE`, an automaton's property word.
    pub fn name(self, game: &Game) -> String {
        match self {
            Mechanic::Sink => "SINK".into(),
            Mechanic::Defeat => "DEFEAT".into(),
            Mechanic::Push => "PUSH".into(),
            Mechanic::Frail => "FRAIL".into(),
            Mechanic::Pair(i) => match game.pairs.get(usize::from(i)) {
                Some(p) => format!("{} and {}", game.name(p.a), game.name(p.b)),
                None => "a pair".into(),
            },
            Mechanic::Tick(t) => game.name(t).to_string(),
            Mechanic::Float => "FLOAT".into(),
            Mechanic::Goal => "GOAL".into(),
            Mechanic::Gates => "PLATE and GATE".into(),
        }
    }

    /// A short stable name for machine output and the search's figures:
    /// `sink`, `pair OPEN SHUT`, `tick TICK`.
    pub fn key(self, game: &Game) -> String {
        match self {
            Mechanic::Pair(_) | Mechanic::Tick(_) => {
                let kind = if matches!(self, Mechanic::Pair(_)) {
                    "pair"
                } else {
                    "tick"
                };
                format!("{kind} {}", self.name(game).replace(" and ", " "))
            }
            Mechanic::Gates => "gates".into(),
            _ => self.name(game).to_lowercase(),
        }
    }

    /// What a win that skips the mechanic avoids, as a clause: "nothing
    /// sinks", "no automaton of TICK moves anything".
    pub fn never(self, game: &Game) -> String {
        match self {
            Mechanic::Sink => "nothing sinks".into(),
            Mechanic::Defeat => "nothing is defeated".into(),
            Mechanic::Push => "no thing is pushed".into(),
            Mechanic::Frail => "nothing crumbles".into(),
            Mechanic::Pair(_) => format!("no {} pair opens", self.name(game)),
            Mechanic::Tick(_) => format!("no {} automaton moves anything", self.name(game)),
            Mechanic::Float => "FLOAT never keeps two things apart".into(),
            Mechanic::Goal => "no GOAL is filled".into(),
            Mechanic::Gates => "no gate opens".into(),
        }
    }

    /// The event that shows the mechanic acting, as the searches forbid
    /// it: a win found with it forbidden skips the lesson.
    pub fn event(self) -> EventFilter {
        let any = Vec::new;
        match self {
            Mechanic::Sink => EventFilter::Destroyed {
                nouns: any(),
                cause: Some(DestroyCause::Sink),
            },
            Mechanic::Defeat => EventFilter::Destroyed {
                nouns: any(),
                cause: Some(DestroyCause::Defeat),
            },
            Mechanic::Pair(_) => EventFilter::Destroyed {
                nouns: any(),
                cause: Some(DestroyCause::Pair),
            },
            Mechanic::Push => EventFilter::Pushed { nouns: any() },
            Mechanic::Frail => EventFilter::Crumbled { nouns: any() },
            Mechanic::Tick(_) => EventFilter::AutomatonMoved,
            Mechanic::Float => EventFilter::FloatApart,
            Mechanic::Goal => EventFilter::GoalFilled,
            Mechanic::Gates => EventFilter::GateOpened { channel: None },
        }
    }
}

/// The mechanics `level` introduces, in the order of its `introduces`
/// words, each once and with the span of its first word (`PLATE` and
/// `GATE` are one mechanic, as are a pair's two words). Words that name no
/// mechanic of the level are left out: a pair word or an automaton's
/// property only counts when the level declares that pair or automaton.
pub fn introduced(level: &Level, game: &Game) -> Vec<(Mechanic, Span)> {
    let mut out: Vec<(Mechanic, Span)> = Vec::new();
    for word in &level.introduces.words {
        let text = word.text.to_uppercase();
        let tok = game.tok(&text);
        let pair = tok.and_then(|t| game.pairs.iter().position(|p| p.a == t || p.b == t));
        let tick = tok.filter(|&t| game.automata.iter().any(|a| a.property == t));
        let mechanic = match (text.as_str(), pair, tick) {
            (_, Some(i), _) => u8::try_from(i).ok().map(Mechanic::Pair),
            (_, None, Some(t)) => Some(Mechanic::Tick(t)),
            ("SINK", ..) => Some(Mechanic::Sink),
            ("DEFEAT", ..) => Some(Mechanic::Defeat),
            ("PUSH", ..) => Some(Mechanic::Push),
            ("FRAIL", ..) => Some(Mechanic::Frail),
            ("FLOAT", ..) => Some(Mechanic::Float),
            ("GOAL", ..) => Some(Mechanic::Goal),
            ("PLATE" | "GATE", ..) => Some(Mechanic::Gates),
            _ => None,
        };
        if let Some(m) = mechanic
            && !out.iter().any(|(known, _)| *known == m)
        {
            out.push((m, word.span));
        }
    }
    out
}

/// Lesson coverage (M430): for each mechanic the level introduces, a search
/// that forbids its event. A win found skips the lesson; a search that runs
/// out of states proves every win makes the mechanic act; one stopped at
/// the budget proves nothing (M402). Each outcome goes into the report.
pub(super) fn coverage(cx: &mut Ctx<'_>, shortest: &str, progress: &mut dyn FnMut(Progress)) {
    for (mechanic, span) in introduced(cx.level, &cx.game) {
        if cx.report.cancelled {
            return;
        }
        let name = mechanic.name(&cx.game);
        let kind = SearchKind::Lesson(name.clone());
        let constraints = Constraints {
            forbid_events: vec![mechanic.event()],
            ..Constraints::default()
        };
        let (coverage, route) = match cx.search(kind.clone(), constraints, progress) {
            Verdict::Solved { route, .. } => {
                let text = cx.text(&route);
                skippable(cx, mechanic, span, &text, shortest, progress);
                (Coverage::Skippable, Some(text))
            }
            Verdict::Unsolved => (Coverage::Covered, None),
            Verdict::Limit => {
                cx.limit(&kind, "a win that skips the lesson isn't ruled out");
                (Coverage::Unproven, None)
            }
            Verdict::Cancelled => return,
        };
        cx.report.lessons.push(LessonResult {
            mechanic: name,
            coverage,
            route,
        });
    }
}

/// M430 at the `introduces` word of `mechanic`: `text` wins while the
/// mechanic never acts. Fixes: allow it, with a reason to write, and a
/// claim of what every win does instead, when its search proves it
/// ([`proven_claim`], from `shortest`, the level's shortest route).
fn skippable(
    cx: &mut Ctx<'_>,
    mechanic: Mechanic,
    span: Span,
    text: &str,
    shortest: &str,
    progress: &mut dyn FnMut(Progress),
) {
    let rules = rules_at_win(&cx.game, text);
    let name = mechanic.name(&cx.game);
    let mut d = cx.diag(
        "M430",
        span,
        format!(
            "Level {} introduces {name}, but it can be won while {}, in {}: {text}. A player can skip the lesson. Rules at the win: {}.",
            cx.id(),
            mechanic.never(&cx.game),
            steps(text.len()),
            cx.rules_list(&rules)
        ),
    );
    if d.severity == crate::diag::Severity::Warning {
        crate::analysis::allow::offer_allow_fix(cx.pack, &mut d);
        if let Some(claim) = proven_claim(cx, mechanic, shortest, progress) {
            d = crate::check::with_claim_fix(d, cx.level, &claim);
        }
    }
    cx.push(d);
}

/// A claim that states what the level's wins have in common when the
/// mechanic itself can be skipped, proven by its own search: for SINK and
/// DEFEAT, `must-lose` of the things the shortest route sinks or loses to
/// DEFEAT (every win then loses one of them, some other way if not so).
/// Claims of the other mechanics forbid no more than the lesson's own
/// search, which has just won, so none of them can hold. `None` when the
/// search wins or stops, and when the level already makes the claim.
fn proven_claim(
    cx: &mut Ctx<'_>,
    mechanic: Mechanic,
    shortest: &str,
    progress: &mut dyn FnMut(Progress),
) -> Option<EventClaim> {
    let cause = match mechanic {
        Mechanic::Sink => Cause::Sink,
        Mechanic::Defeat => Cause::Defeat,
        _ => return None,
    };
    let nouns = lost_along(&cx.game, shortest, cause);
    if nouns.is_empty() {
        return None;
    }
    let claim = EventClaim {
        kind: EventClaimKind::Lose,
        args: nouns.into_iter().map(Named::new).collect(),
        span: Span::default(),
    };
    let statement = claim.statement();
    let made = cx
        .level
        .check
        .must_happen
        .iter()
        .any(|c| c.statement() == statement);
    if made || cx.report.cancelled {
        return None;
    }
    let constraints = Constraints {
        forbid_events: crate::check::forbidden_events(&claim),
        ..Constraints::default()
    };
    let verdict = cx.search(SearchKind::Happen(statement), constraints, progress);
    (verdict == Verdict::Unsolved).then_some(claim)
}

/// The nouns of the things (not words) that `cause` destroys along `route`,
/// each once, in the order they go; not the SINK things themselves, which
/// every sinking uses up.
fn lost_along(game: &Game, route: &str, cause: Cause) -> Vec<String> {
    let sink = game.tok("SINK").map_or(0, |t| game.vocab.prop_bit(t));
    let (mut state, _) = game.reset();
    let mut nouns: Vec<String> = Vec::new();
    for input in route.chars().filter_map(Input::from_char) {
        let TurnResult::Accepted {
            state: next,
            report,
        } = game.step(&state, input)
        else {
            break;
        };
        let props = game.props(&state);
        for d in report.destroyed.iter().filter(|d| d.cause == cause) {
            let i = usize::from(d.id);
            let thing = game.ents.get(i).is_some_and(|e| !e.word)
                && props.get(i).is_some_and(|p| p & sink == 0);
            let noun = game.name(d.what).to_string();
            if thing && !nouns.contains(&noun) {
                nouns.push(noun);
            }
        }
        state = next;
    }
    nouns
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Introduces, Named};

    fn introducing(board: &str, words: &[&str]) -> (Level, Game) {
        let mut level = crate::engine::testkit::level(board);
        level.introduces = Introduces {
            words: words.iter().map(|w| Named::new(*w)).collect(),
            ideas: vec!["an idea names no mechanic".into()],
        };
        let game = Game::new(&level);
        (level, game)
    }

    #[test]
    fn introduced_words_name_mechanics_once_each_in_order() {
        let (level, game) = introducing(
            "MIAU IS YOU . WATER IS SINK\n@ w . . f\nFLAG IS WIN . .",
            &["WATER", "GATE", "SINK", "PLATE", "FRAIL", "OPEN", "TICK"],
        );
        // No pair or automaton is declared: OPEN and TICK are plain words.
        let mechanics: Vec<Mechanic> = introduced(&level, &game).iter().map(|(m, _)| *m).collect();
        assert_eq!(
            mechanics,
            [Mechanic::Gates, Mechanic::Sink, Mechanic::Frail]
        );
        let names: Vec<String> = mechanics.iter().map(|m| m.name(&game)).collect();
        assert_eq!(names, ["PLATE and GATE", "SINK", "FRAIL"]);
    }

    #[test]
    fn the_things_a_route_sinks_are_named_once_in_order() {
        let (_, game) = introducing(
            "MIAU IS YOU . WATER IS SINK\n@ r r w . f\nROCK IS PUSH . FLAG IS WIN",
            &["SINK"],
        );
        // The front rock sinks with the water on the first push; the water
        // is used up, so the other rock stays.
        assert_eq!(lost_along(&game, "RRRR", Cause::Sink), ["ROCK"]);
        assert!(lost_along(&game, "RRRR", Cause::Defeat).is_empty());
        assert!(lost_along(&game, "U", Cause::Sink).is_empty());
    }

    #[test]
    fn each_mechanic_forbids_its_own_event() {
        assert_eq!(
            Mechanic::Frail.event(),
            EventFilter::Crumbled { nouns: vec![] }
        );
        assert_eq!(
            Mechanic::Sink.event(),
            EventFilter::Destroyed {
                nouns: vec![],
                cause: Some(DestroyCause::Sink)
            }
        );
        assert_eq!(
            Mechanic::Gates.event(),
            EventFilter::GateOpened { channel: None }
        );
        assert_eq!(Mechanic::Tick(0).event(), EventFilter::AutomatonMoved);
    }
}
