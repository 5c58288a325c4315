//! Lesson coverage: the mechanics a level introduces, and what it means for
//! each of them to act on a turn (`diagnostics.md`, M430).
//!
//! A level that writes `introduces FRAIL` promises that its player meets
//! crumbling. The check holds it to that: it searches for a win in which
//! the mechanic never acts, and a win found is a route that skips the
//! lesson. Only the words of `introduces` count; a level that `reuses` a
//! mechanic is not held to it, and free-text ideas name no mechanic.

use crate::engine::{By, Cause, Game, GateCause, Input, State, Tok, TurnReport, TurnResult};
use crate::model::Level;

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
    /// An automaton property word (`TICK`): an automaton moving something.
    Tick(Tok),
    /// `FLOAT`: a contact that float layers keep from acting (a FLOAT thing
    /// in a cell with a SINK, DEFEAT, WIN or pair partner on the other layer).
    Float,
    /// `GOAL`: a GOAL thing newly covered by a PUSH entity.
    Goal,
    /// `PLATE` or `GATE`: a gate opening, or held open by a jam.
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

    /// Whether the mechanic acted on the turn from `before` to `after` that
    /// `report` describes (a report with its event lists, `detail` on).
    pub fn acted(self, game: &Game, before: &State, after: &State, report: &TurnReport) -> bool {
        let destroyed = |cause: Cause| report.destroyed.iter().any(|d| d.cause == cause);
        match self {
            Mechanic::Sink => destroyed(Cause::Sink),
            Mechanic::Defeat => destroyed(Cause::Defeat),
            Mechanic::Pair(i) => destroyed(Cause::Pair(i)),
            Mechanic::Push => report
                .moved
                .iter()
                .any(|m| m.pushed && game.ents.get(usize::from(m.id)).is_some_and(|e| !e.word)),
            Mechanic::Frail => !report.crumbled.is_empty(),
            Mechanic::Tick(property) => report.moved.iter().any(|m| match m.by {
                By::Automaton(a) => game
                    .automata
                    .get(usize::from(a))
                    .is_some_and(|a| a.property == property),
                By::Player => false,
            }),
            Mechanic::Float => kept_apart(game, after),
            Mechanic::Goal => covered(game, after)
                .iter()
                .any(|g| !covered(game, before).contains(g)),
            Mechanic::Gates => report
                .gates
                .iter()
                .any(|g| (!g.from && g.to) || g.cause == GateCause::Jammed),
        }
    }
}

/// The mechanics `level` introduces, in the order of its `introduces`
/// words, each once (`PLATE` and `GATE` are one mechanic, as are a pair's
/// two words). Words that name no mechanic of the level are left out: a
/// pair word or an automaton's property only counts when the level
/// declares that pair or automaton.
pub fn introduced(level: &Level, game: &Game) -> Vec<Mechanic> {
    let mut out: Vec<Mechanic> = Vec::new();
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
            && !out.contains(&m)
        {
            out.push(m);
        }
    }
    out
}

/// The turns (1-based) of `route` on which `mechanic` acts, replayed on
/// the engine with every event reported; `None` when the route is rejected
/// or doesn't end in a win on its last turn. A route the coverage search
/// returns replays to `Some(vec![])`: it wins and the mechanic never acts.
pub fn acts_along(game: &Game, mechanic: Mechanic, route: &str) -> Option<Vec<usize>> {
    let inputs: Vec<Input> = route.chars().filter_map(Input::from_char).collect();
    let (mut state, _) = game.reset();
    let mut turns = Vec::new();
    for (k, &input) in inputs.iter().enumerate() {
        let TurnResult::Accepted {
            state: next,
            report,
        } = game.step(&state, input)
        else {
            return None;
        };
        if mechanic.acted(game, &state, &next, &report) {
            turns.push(k + 1);
        }
        if report.won != (k + 1 == inputs.len()) {
            return None;
        }
        state = next;
    }
    (!inputs.is_empty()).then_some(turns)
}

/// The property bit of a built-in property word.
fn bit(game: &Game, word: &str) -> u64 {
    game.tok(word).map_or(0, |t| game.vocab.prop_bit(t))
}

/// The GOAL things of `s` that share their cell with another PUSH entity
/// (a word or a PUSH thing) on their float layer, in id order (`rules.md`
/// §7.6).
fn covered(game: &Game, s: &State) -> Vec<usize> {
    let props = game.props(s);
    let (goal, push, float) = (bit(game, "GOAL"), bit(game, "PUSH"), bit(game, "FLOAT"));
    let layer = |i: usize| !game.ents[i].word && props[i] & float != 0;
    let at = |i: usize| game.pos(s, i as u16);
    (0..game.len())
        .filter(|&g| props[g] & goal != 0 && !game.ents[g].word)
        .filter(|&g| {
            (0..game.len()).any(|o| {
                o != g
                    && at(o).is_some()
                    && at(o) == at(g)
                    && layer(o) == layer(g)
                    && (game.ents[o].word || props[o] & push != 0)
            })
        })
        .collect()
}

/// Whether some cell of `s` holds, on different float layers, two entities
/// that a contact would act on were they on one layer: a SINK thing and
/// anything, a DEFEAT or WIN thing and a YOU thing, or a pair's partners
/// (`rules.md` §9.8).
fn kept_apart(game: &Game, s: &State) -> bool {
    let props = game.props(s);
    let float = bit(game, "FLOAT");
    let (you, win, sink, defeat) = (
        bit(game, "YOU"),
        bit(game, "WIN"),
        bit(game, "SINK"),
        bit(game, "DEFEAT"),
    );
    let pairs: Vec<(u64, u64)> = game
        .pairs
        .iter()
        .map(|p| (game.vocab.prop_bit(p.a), game.vocab.prop_bit(p.b)))
        .collect();
    let acts_on = |a: u64, b: u64| {
        a & sink != 0
            || (a & (defeat | win) != 0 && b & you != 0)
            || pairs.iter().any(|&(x, y)| a & x != 0 && b & y != 0)
    };
    let live = game.live(s);
    live.iter().enumerate().any(|(k, &i)| {
        live[k + 1..].iter().any(|&j| {
            let (i, j) = (usize::from(i), usize::from(j));
            let floats = |e: usize| !game.ents[e].word && props[e] & float != 0;
            floats(i) != floats(j)
                && game.pos(s, i as u16) == game.pos(s, j as u16)
                && (acts_on(props[i], props[j]) || acts_on(props[j], props[i]))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testkit;

    fn game(board: &str) -> Game {
        Game::new(&testkit::level(board))
    }

    #[test]
    fn a_sink_acts_when_the_cat_walks_into_water() {
        let g = game("MIAU IS YOU . WATER IS SINK\n@ w . . . . .\nFLAG IS WIN . . . f");
        assert_eq!(acts_along(&g, Mechanic::Sink, "R"), None, "loses, no win");
        let g = game("MIAU IS YOU . WATER IS SINK\n@ . . f . . w\nFLAG IS WIN . . . .");
        assert_eq!(acts_along(&g, Mechanic::Sink, "RRR"), Some(vec![]));
    }

    #[test]
    fn pushing_a_thing_is_push_acting_and_pushing_a_word_is_not() {
        let g = game("MIAU IS YOU . ROCK IS PUSH\n@ r . f . . .\nFLAG IS WIN . . . .");
        assert_eq!(acts_along(&g, Mechanic::Push, "RRR"), Some(vec![1, 2, 3]));
        let g =
            game("MIAU IS YOU . ROCK IS PUSH\n. r . . . . .\n@ . . f . . .\nFLAG IS WIN . . . .");
        assert_eq!(acts_along(&g, Mechanic::Push, "RRR"), Some(vec![]));
        let g = game("MIAU IS YOU . ROCK IS PUSH\n@ WATER . . f . .\nFLAG IS WIN . . . .");
        assert_eq!(acts_along(&g, Mechanic::Push, "RRRR"), Some(vec![]));
    }
}
