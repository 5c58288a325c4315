//! Turn and reset reports (`rules.md` §6.4, §8).

use super::game::EntId;
use super::vocab::Tok;

/// A player input (§6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Input {
    /// `U`.
    Up,
    /// `D`.
    Down,
    /// `L`.
    Left,
    /// `R`.
    Right,
    /// `W`.
    Wait,
}

impl Input {
    /// The solver's expansion order (§10.4), without `W`.
    pub const MOVES: [Input; 4] = [Input::Up, Input::Down, Input::Left, Input::Right];

    /// The input for a letter `U D L R W` (either case).
    pub fn from_char(c: char) -> Option<Input> {
        Some(match c.to_ascii_uppercase() {
            'U' => Input::Up,
            'D' => Input::Down,
            'L' => Input::Left,
            'R' => Input::Right,
            'W' => Input::Wait,
            _ => return None,
        })
    }

    /// The letter of this input.
    pub fn letter(self) -> char {
        match self {
            Input::Up => 'U',
            Input::Down => 'D',
            Input::Left => 'L',
            Input::Right => 'R',
            Input::Wait => 'W',
        }
    }

    /// The direction vector, `None` for a wait.
    pub fn delta(self) -> Option<(i8, i8)> {
        match self {
            Input::Up => Some((0, -1)),
            Input::Down => Some((0, 1)),
            Input::Left => Some((-1, 0)),
            Input::Right => Some((1, 0)),
            Input::Wait => None,
        }
    }
}

/// Who moved an entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum By {
    /// The YOU phase.
    Player,
    /// An automaton record (index in id order).
    Automaton(u16),
}

/// `moved {id, from, to, by, pushed}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moved {
    /// Entity.
    pub id: EntId,
    /// Cell before.
    pub from: (u8, u8),
    /// Cell after.
    pub to: (u8, u8),
    /// Who moved it.
    pub by: By,
    /// False for the phase's movers themselves.
    pub pushed: bool,
}

/// Why a move was refused (§5.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockReason {
    /// Target off the board.
    Edge,
    /// A STOP thing that is not PUSH.
    Stop,
    /// A closed gate.
    Gate,
    /// A fixed word in the chain.
    Fixed,
}

impl BlockReason {
    /// `edge`, `stop`, `gate` or `fixed`.
    pub fn as_str(self) -> &'static str {
        match self {
            BlockReason::Edge => "edge",
            BlockReason::Stop => "stop",
            BlockReason::Gate => "gate",
            BlockReason::Fixed => "fixed",
        }
    }
}

/// `blocked {id, dir, reason, blocker}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocked {
    /// The refused mover.
    pub id: EntId,
    /// The direction it tried.
    pub dir: Input,
    /// The first failure met.
    pub reason: BlockReason,
    /// The entity that refused it (none for `edge`).
    pub blocker: Option<EntId>,
}

/// When a transformation happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// At reset.
    Reset,
    /// Parse 1 of a turn.
    AfterMove,
    /// Parse 2 of a turn.
    AfterAutomata,
}

impl When {
    /// `reset`, `after-move` or `after-automata`.
    pub fn as_str(self) -> &'static str {
        match self {
            When::Reset => "reset",
            When::AfterMove => "after-move",
            When::AfterAutomata => "after-automata",
        }
    }
}

/// `transformed {id, from, to, when}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Transformed {
    /// Entity.
    pub id: EntId,
    /// Noun before.
    pub from: Tok,
    /// Noun after.
    pub to: Tok,
    /// Which transform phase.
    pub when: When,
}

/// `crumbled {id, from, to}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crumbled {
    /// Entity.
    pub id: EntId,
    /// Noun before.
    pub from: Tok,
    /// Leftover noun, `None` for removal.
    pub to: Option<Tok>,
}

/// A destruction cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// SINK.
    Sink,
    /// DEFEAT.
    Defeat,
    /// A pair (index in declaration order); its cause text is the first word lowercased.
    Pair(u8),
}

/// `destroyed {id, cause, at, noun or text}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Destroyed {
    /// Entity.
    pub id: EntId,
    /// Cause.
    pub cause: Cause,
    /// Cell.
    pub at: (u8, u8),
    /// Noun (thing) or text (word).
    pub what: Tok,
}

/// Why a gate changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateCause {
    /// Its channel is pressed.
    Pressed,
    /// Its channel was let go and the gate is empty.
    Released,
    /// Its channel was let go while the gate was occupied.
    Jammed,
}

impl GateCause {
    /// `pressed`, `released` or `jammed`.
    pub fn as_str(self) -> &'static str {
        match self {
            GateCause::Pressed => "pressed",
            GateCause::Released => "released",
            GateCause::Jammed => "jammed",
        }
    }
}

/// `gates {id, from, to, cause}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GateEvent {
    /// The gate.
    pub id: EntId,
    /// `open` before.
    pub from: bool,
    /// `open` after.
    pub to: bool,
    /// Cause.
    pub cause: GateCause,
}

/// Why an input was rejected (§6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rejection {
    /// The play is already won.
    Won,
    /// No YOU thing exists.
    NoYou,
    /// The YOU phase planned nothing.
    Blocked,
}

impl Rejection {
    /// `won`, `no-you` or `blocked`.
    pub fn as_str(self) -> &'static str {
        match self {
            Rejection::Won => "won",
            Rejection::NoYou => "no-you",
            Rejection::Blocked => "blocked",
        }
    }
}

/// Everything an accepted turn reports (§6.4), plus the solver's flags (§10.5).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnReport {
    /// Moves, phases in turn order, id order within a phase.
    pub moved: Vec<Moved>,
    /// Every refused YOU thing, in mover order.
    pub blocked: Vec<Blocked>,
    /// Transformations, step order then id.
    pub transformed: Vec<Transformed>,
    /// Crumbles, id order.
    pub crumbled: Vec<Crumbled>,
    /// Destructions: pairs, SINK, DEFEAT; id within each.
    pub destroyed: Vec<Destroyed>,
    /// Gate changes, id order.
    pub gates: Vec<GateEvent>,
    /// The play is won this turn.
    pub won: bool,
    /// No YOU thing exists after the turn.
    pub lost_control: bool,
    /// `(covered, total)` GOAL things from the contact pass.
    pub goals: (u32, u32),
    /// Some word moved this turn (any cause).
    pub word_moved: bool,
    /// Some word moved in the YOU phase.
    pub word_moved_by_you: bool,
    /// Every (subject, predicate) yielded by any parse of the turn, sorted.
    pub formed: Vec<(Tok, Tok)>,
    /// Some parse of the turn yielded a rule set other than the turn start's
    /// (a rule formed or a rule broken, even if only between two parse points).
    pub rules_changed: bool,
    /// Every rule of the turn start's set missing from some parse of the
    /// turn, sorted: the rules broken this turn, even if only for a moment.
    pub broken: Vec<(Tok, Tok)>,
}

impl TurnReport {
    /// Empties every list and resets every flag, keeping the buffers.
    pub fn clear(&mut self) {
        self.moved.clear();
        self.blocked.clear();
        self.transformed.clear();
        self.crumbled.clear();
        self.destroyed.clear();
        self.gates.clear();
        self.won = false;
        self.lost_control = false;
        self.goals = (0, 0);
        self.word_moved = false;
        self.word_moved_by_you = false;
        self.formed.clear();
        self.rules_changed = false;
        self.broken.clear();
    }
}

/// What reset reports (§8).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResetReport {
    /// Transformations of the reset transform phase.
    pub transformed: Vec<Transformed>,
    /// Entities destroyed by the reset contact pass.
    pub destroyed: Vec<Destroyed>,
    /// WIN or GOAL held after the reset contact pass (not a win).
    pub won_at_start: bool,
    /// `(covered, total)` GOAL things.
    pub goals: (u32, u32),
}

/// The outcome of one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnResult {
    /// An accepted turn: the new state and its report.
    Accepted {
        /// The settled state after the turn.
        state: super::State,
        /// The turn report.
        report: Box<TurnReport>,
    },
    /// A rejected input: nothing changed.
    Rejected {
        /// Why.
        reason: Rejection,
        /// For `blocked`: every YOU thing with its reason.
        blocked: Vec<Blocked>,
    },
}

impl TurnResult {
    /// Whether the input was accepted.
    pub fn accepted(&self) -> bool {
        matches!(self, TurnResult::Accepted { .. })
    }
}
