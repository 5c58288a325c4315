//! Events a search forbids: [`EventFilter`], what a stage 4 claim or a
//! lesson check names, and its compiled form, tested against each turn's
//! report ([`crate::engine::TurnReport`]).

use crate::engine::{By, Cause, EntId, Game, GateCause, Scratch, Tok, TurnReport};
use std::cell::{Cell, RefCell};

/// What destroyed a thing, for [`EventFilter::Destroyed`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DestroyCause {
    /// A SINK contact (`rules.md` §7): everything in the cell goes.
    Sink,
    /// A DEFEAT contact: a YOU thing in a DEFEAT thing's cell goes.
    Defeat,
    /// A pair (§9.2, `OPEN`/`SHUT`): the two things meeting go together,
    /// a pair opening.
    Pair,
}

/// An event of an accepted turn that a search can forbid
/// ([`super::Constraints::forbid_events`]): a turn in which it happens has
/// no successor, and a win on that turn does not count. A search that
/// forbids an event and ends [`crate::solver::Verdict::Unsolved`] proves
/// that every win makes the event happen.
///
/// Nouns are named as the level writes them (`"MIAU"`); an empty list means
/// any noun, and a noun the level doesn't have matches nothing. Each
/// mechanic a level can teach has its filter: SINK and DEFEAT are
/// [`EventFilter::Destroyed`] with that cause, a pair opening is
/// `Destroyed` with [`DestroyCause::Pair`], FRAIL is
/// [`EventFilter::Crumbled`], an automaton is
/// [`EventFilter::AutomatonMoved`], PUSH is [`EventFilter::Pushed`],
/// FLOAT is [`EventFilter::FloatApart`], GOAL is
/// [`EventFilter::GoalFilled`], and plates and gates are
/// [`EventFilter::GateOpened`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EventFilter {
    /// A thing of one of `nouns` stops being one: it is destroyed (any
    /// cause), crumbles, or is transformed into another noun. Word tiles
    /// are not things.
    Lost {
        /// The nouns (empty: any thing).
        nouns: Vec<String>,
    },
    /// An entity is destroyed by `cause` (any cause when `None`): with
    /// `nouns` empty any entity, word tiles included; otherwise a thing of
    /// one of `nouns`.
    Destroyed {
        /// The nouns (empty: anything, words included).
        nouns: Vec<String>,
        /// The cause, or any.
        cause: Option<DestroyCause>,
    },
    /// A FRAIL thing of one of `nouns` crumbles (§9.3): it is removed or
    /// becomes its leftover noun.
    Crumbled {
        /// The nouns crumbling (empty: any).
        nouns: Vec<String>,
    },
    /// A thing is transformed (§4.2) into one of `into`.
    Transformed {
        /// The nouns it becomes (empty: any).
        into: Vec<String>,
    },
    /// A gate of `channel` (any when `None`) opens because a plate of its
    /// channel is pressed (§9.5): the engine's one report of a plate
    /// pressed, so a plate pressed while its gates stay closed or already
    /// open is not seen.
    GateOpened {
        /// The channel's name (`"red"`), or any.
        channel: Option<String>,
    },
    /// An automaton moves anything (§9.1): its own thing, or what that
    /// thing pushes.
    AutomatonMoved,
    /// An automaton's thing pushes a word tile.
    AutomatonPushedWord,
    /// A thing (not a word tile) of one of `nouns` is pushed, by a YOU
    /// thing or an automaton's.
    Pushed {
        /// The nouns pushed (empty: any).
        nouns: Vec<String>,
    },
    /// FLOAT keeps a thing apart that moved this turn: after the turn it
    /// shares a cell with a live thing of the other layer that the contact
    /// pass would have acted on with it on one layer
    /// ([`Game::float_apart`]).
    FloatApart,
    /// More GOAL things are covered in the settled state after the turn
    /// than in the one before it ([`Game::goals_in`]).
    GoalFilled,
}

/// Nouns resolved against a level: any, or these tokens.
#[derive(Debug, Clone)]
enum Nouns {
    Any,
    Of(Vec<Tok>),
}

impl Nouns {
    fn of(game: &Game, names: &[String]) -> Nouns {
        if names.is_empty() {
            Nouns::Any
        } else {
            Nouns::Of(names.iter().filter_map(|n| game.tok(n)).collect())
        }
    }

    fn has(&self, t: Tok) -> bool {
        match self {
            Nouns::Any => true,
            Nouns::Of(list) => list.contains(&t),
        }
    }

    fn is_any(&self) -> bool {
        matches!(self, Nouns::Any)
    }
}

/// An [`EventFilter`] resolved against one level.
#[derive(Debug, Clone)]
enum Compiled {
    Lost(Nouns),
    Destroyed(Nouns, Option<DestroyCause>),
    Crumbled(Nouns),
    Transformed(Nouns),
    GateOpened(Option<String>),
    AutomatonMoved,
    AutomatonPushedWord,
    Pushed(Nouns),
    FloatApart,
    GoalFilled,
}

/// A search's forbidden events on one level, with the buffers their tests
/// use. Filters that cannot happen on the level (an automaton's on a level
/// without automata, a gate's without channels, a pair's without pairs)
/// are dropped, so that such a search is the plain one.
#[derive(Debug, Clone, Default)]
pub(super) struct Forbidden {
    filters: Vec<Compiled>,
    /// The covered GOAL things of the state last entered.
    goals_before: Cell<u32>,
    /// A scratch of its own for the state tests (GOAL, FLOAT).
    scratch: RefCell<Scratch>,
    /// The moved entities of a turn, for FLOAT.
    movers: RefCell<Vec<EntId>>,
}

impl Forbidden {
    /// `filters` resolved against `game`.
    pub(super) fn new(game: &Game, filters: &[EventFilter]) -> Forbidden {
        let has_channels = game.ents.iter().any(|e| e.channel.is_some());
        let filters = filters
            .iter()
            .filter_map(|f| {
                Some(match f {
                    EventFilter::Lost { nouns } => Compiled::Lost(Nouns::of(game, nouns)),
                    EventFilter::Destroyed { cause, .. }
                        if *cause == Some(DestroyCause::Pair) && game.pairs.is_empty() =>
                    {
                        return None;
                    }
                    EventFilter::Destroyed { nouns, cause } => {
                        Compiled::Destroyed(Nouns::of(game, nouns), *cause)
                    }
                    EventFilter::Crumbled { nouns } => Compiled::Crumbled(Nouns::of(game, nouns)),
                    EventFilter::Transformed { into } => {
                        Compiled::Transformed(Nouns::of(game, into))
                    }
                    EventFilter::GateOpened { .. } if !has_channels => return None,
                    EventFilter::GateOpened { channel } => Compiled::GateOpened(channel.clone()),
                    EventFilter::AutomatonMoved | EventFilter::AutomatonPushedWord
                        if game.automata.is_empty() =>
                    {
                        return None;
                    }
                    EventFilter::AutomatonMoved => Compiled::AutomatonMoved,
                    EventFilter::AutomatonPushedWord => Compiled::AutomatonPushedWord,
                    EventFilter::Pushed { nouns } => Compiled::Pushed(Nouns::of(game, nouns)),
                    EventFilter::FloatApart => Compiled::FloatApart,
                    EventFilter::GoalFilled => Compiled::GoalFilled,
                })
            })
            .collect();
        Forbidden {
            filters,
            ..Forbidden::default()
        }
    }

    /// Whether nothing is forbidden.
    pub(super) fn is_empty(&self) -> bool {
        self.filters.is_empty()
    }

    /// Whether a turn's event lists are needed (the engine fills them only
    /// when asked: `detail`).
    pub(super) fn needs_detail(&self) -> bool {
        self.filters
            .iter()
            .any(|f| !matches!(f, Compiled::GoalFilled))
    }

    /// Whether every filter is one that cannot happen in the push search's
    /// fragment (no SINK, DEFEAT, FRAIL, FLOAT, transforms, pairs,
    /// automata or channels; see [`crate::solver::deadlock`]), so the push
    /// search, which has no turn reports, may run for it.
    pub(super) fn vacuous_in_push_fragment(&self) -> bool {
        self.filters
            .iter()
            .all(|f| !matches!(f, Compiled::Pushed(_) | Compiled::GoalFilled))
    }

    /// Notes what the tests of the turns from settled state `words` need of
    /// it (the GOAL things covered), before they are stepped.
    pub(super) fn enter(&self, game: &Game, words: &[u32]) {
        if self
            .filters
            .iter()
            .any(|f| matches!(f, Compiled::GoalFilled))
        {
            let (covered, _) = game.goals_in(words, &mut self.scratch.borrow_mut());
            self.goals_before.set(covered);
        }
    }

    /// Whether the turn from `before` to `after` (packed words of settled
    /// states) with `report` (filled with detail when
    /// [`Forbidden::needs_detail`]) makes a forbidden event happen.
    pub(super) fn happened(
        &self,
        game: &Game,
        report: &TurnReport,
        before: &[u32],
        after: &[u32],
    ) -> bool {
        self.filters
            .iter()
            .any(|f| self.one_happened(f, game, report, before, after))
    }

    fn one_happened(
        &self,
        filter: &Compiled,
        game: &Game,
        report: &TurnReport,
        before: &[u32],
        after: &[u32],
    ) -> bool {
        let word = |id: EntId| game.ents.get(usize::from(id)).is_some_and(|e| e.word);
        match filter {
            Compiled::Lost(nouns) => {
                report
                    .destroyed
                    .iter()
                    .any(|d| !word(d.id) && nouns.has(d.what))
                    || report.crumbled.iter().any(|c| nouns.has(c.from))
                    || report
                        .transformed
                        .iter()
                        .any(|t| t.from != t.to && nouns.has(t.from))
            }
            Compiled::Destroyed(nouns, cause) => report.destroyed.iter().any(|d| {
                cause.is_none_or(|c| c == cause_of(d.cause))
                    && (nouns.is_any() || (!word(d.id) && nouns.has(d.what)))
            }),
            Compiled::Crumbled(nouns) => report.crumbled.iter().any(|c| nouns.has(c.from)),
            Compiled::Transformed(nouns) => report.transformed.iter().any(|t| nouns.has(t.to)),
            Compiled::GateOpened(channel) => report.gates.iter().any(|g| {
                g.cause == GateCause::Pressed
                    && !g.from
                    && channel
                        .as_deref()
                        .is_none_or(|c| game.channel_name(g.id) == Some(c))
            }),
            Compiled::AutomatonMoved => report
                .moved
                .iter()
                .any(|m| matches!(m.by, By::Automaton(_))),
            Compiled::AutomatonPushedWord => report
                .moved
                .iter()
                .any(|m| matches!(m.by, By::Automaton(_)) && m.pushed && word(m.id)),
            Compiled::Pushed(nouns) => report.moved.iter().any(|m| {
                m.pushed
                    && !word(m.id)
                    && (nouns.is_any()
                        || [before, after]
                            .iter()
                            .any(|w| Game::noun_in(w, m.id).is_some_and(|t| nouns.has(t))))
            }),
            Compiled::FloatApart => {
                let mut movers = self.movers.borrow_mut();
                movers.clear();
                movers.extend(report.moved.iter().map(|m| m.id));
                !movers.is_empty()
                    && game.float_apart(after, &movers, &mut self.scratch.borrow_mut())
            }
            Compiled::GoalFilled => {
                let (covered, _) = game.goals_in(after, &mut self.scratch.borrow_mut());
                covered > self.goals_before.get()
            }
        }
    }
}

/// The filter's cause of an engine's destruction cause.
fn cause_of(cause: Cause) -> DestroyCause {
    match cause {
        Cause::Sink => DestroyCause::Sink,
        Cause::Defeat => DestroyCause::Defeat,
        Cause::Pair(_) => DestroyCause::Pair,
    }
}
