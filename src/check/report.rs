//! What a check result carries (`diagnostics.md` §5.1 note C).

use crate::diag::Diagnostic;
use crate::solver::{Shortest, Verdict};

/// The searches of stage 4 (§5.1 note A).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SearchKind {
    /// The plain solve.
    Solve,
    /// No word moves on any turn (BYPASS).
    WordsFrozen,
    /// The player's own moves push no word (HANDS-OFF).
    HandsOff,
    /// The active rules stay those at reset at every parse point (SKIPPABLE).
    NoRuleChange,
    /// A `must-form` rule never becomes active.
    Forbid(String),
    /// A `must-break` rule stays active at every parse point.
    Keep(String),
    /// No word is destroyed (`must-lose-word`).
    NoWordLoss,
    /// A claim's event never happens (`must-lose MIAU`, …): the claim as written.
    Happen(String),
    /// A mechanic the level introduces never acts (lesson coverage, M430),
    /// by its name (`FRAIL`).
    Lesson(String),
    /// Every state reachable from reset, a win ending a route (M431).
    WholeSpace,
    /// A win whose move at step `n` (1-based) of the shortest route is
    /// another (M431: whether the opening is forced).
    Opening(usize),
}

impl SearchKind {
    /// How messages name the search.
    pub fn describe(&self) -> String {
        match self {
            SearchKind::Solve => "solve search".into(),
            SearchKind::WordsFrozen => "words-frozen search".into(),
            SearchKind::HandsOff => "hands-off search".into(),
            SearchKind::NoRuleChange => "no-rule-change search".into(),
            SearchKind::Forbid(r) => format!("must-form proof for {r}"),
            SearchKind::Keep(r) => format!("must-break proof for {r}"),
            SearchKind::NoWordLoss => "must-lose-word proof".into(),
            SearchKind::Happen(c) => format!("{c} proof"),
            SearchKind::Lesson(m) => format!("lesson coverage search for {m}"),
            SearchKind::WholeSpace => "count of the whole space".into(),
            SearchKind::Opening(n) => format!("search for another move at step {n}"),
        }
    }

    /// A short stable name for machine output.
    pub fn name(&self) -> String {
        match self {
            SearchKind::Solve => "solve".into(),
            SearchKind::WordsFrozen => "words-frozen".into(),
            SearchKind::HandsOff => "hands-off".into(),
            SearchKind::NoRuleChange => "no-rule-change".into(),
            SearchKind::Forbid(r) => format!("forbid {r}"),
            SearchKind::Keep(r) => format!("keep {r}"),
            SearchKind::NoWordLoss => "no-word-loss".into(),
            SearchKind::Happen(c) => c.clone(),
            SearchKind::Lesson(m) => format!("lesson {m}"),
            SearchKind::WholeSpace => "whole-space".into(),
            SearchKind::Opening(n) => format!("opening {n}"),
        }
    }
}

/// The figures of one search.
#[derive(Debug, Clone)]
pub struct SearchFigures {
    /// Which search.
    pub kind: SearchKind,
    /// How it ended.
    pub verdict: Verdict,
    /// States expanded.
    pub expanded: u64,
    /// Distinct states stored.
    pub stored: u64,
    /// The state budget it ran under.
    pub budget: u64,
    /// Peak bytes of the visited set and frontier.
    pub peak_bytes: usize,
}

impl SearchFigures {
    /// The verdict's flag word: `solved`, `unsolved`, `limit` or `cancelled`.
    pub fn result(&self) -> &'static str {
        match self.verdict {
            Verdict::Solved { .. } => "solved",
            Verdict::Unsolved => "unsolved",
            Verdict::Limit => "limit",
            Verdict::Cancelled => "cancelled",
        }
    }
}

/// What the lesson coverage search found for one mechanic (M430).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Every win makes the mechanic act: the search ran out of states.
    Covered,
    /// A win in which the mechanic never acts (M430 gives the route).
    Skippable,
    /// The search stopped at its budget: nothing is proven (M402).
    Unproven,
}

impl Coverage {
    /// `covered`, `skippable` or `unproven`.
    pub fn as_str(self) -> &'static str {
        match self {
            Coverage::Covered => "covered",
            Coverage::Skippable => "skippable",
            Coverage::Unproven => "unproven",
        }
    }
}

/// One mechanic's lesson coverage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonResult {
    /// The mechanic as the level writes it: `FRAIL`, `PLATE and GATE`.
    pub mechanic: String,
    /// What its search found.
    pub coverage: Coverage,
    /// For [`Coverage::Skippable`], the winning route the search found.
    pub route: Option<String>,
}

/// The check result of one level.
#[derive(Debug, Clone, Default)]
pub struct LevelReport {
    /// The level id.
    pub level: String,
    /// The level's index in the pack.
    pub index: usize,
    /// The best winning route known, when the level solves: the shortest
    /// one unless `shortest` says it is only bounded.
    pub route: Option<String>,
    /// Whether `route` is proven shortest, or how far the shortest could be
    /// below it; `None` when the level doesn't solve.
    pub shortest: Option<Shortest>,
    /// The rules active at the winning step of the shortest route.
    pub rules_at_win: Vec<String>,
    /// Every search that ran, in order.
    pub searches: Vec<SearchFigures>,
    /// Lesson coverage: each mechanic the level introduces, in order, and
    /// what its search found.
    pub lessons: Vec<LessonResult>,
    /// Stage 4 diagnostics for the level, allowances applied.
    pub diagnostics: Vec<Diagnostic>,
    /// Every search that ran came to an answer (none stopped at LIMIT or was
    /// cancelled), so unneeded allowances can be judged.
    pub complete: bool,
    /// A search was cancelled.
    pub cancelled: bool,
}

impl LevelReport {
    /// The range the shortest route's length lies in, `(fewest, longest)`
    /// (equal once proven), when the level solves.
    pub fn shortest_range(&self) -> Option<(usize, usize)> {
        let k = self.route.as_ref()?.chars().count();
        match self.shortest? {
            Shortest::Proven => Some((k, k)),
            Shortest::Bounded { fewest } => Some((fewest as usize, k)),
        }
    }

    /// The shortest route's length as one line says it: `proven`, or the
    /// range `38..131` when only bounded.
    pub fn shortest_text(&self) -> Option<String> {
        let (fewest, longest) = self.shortest_range()?;
        Some(shortest_text(fewest, longest))
    }
}

/// `proven` when `fewest == longest`, else the range `fewest..longest`.
pub fn shortest_text(fewest: usize, longest: usize) -> String {
    if fewest >= longest {
        "proven".to_string()
    } else {
        format!("{fewest}..{longest}")
    }
}

/// The shortest route's length for machine output: `{"min", "max",
/// "proven"}`, the same three keys whether proven or only bounded.
pub fn shortest_json(fewest: usize, longest: usize) -> serde_json::Value {
    serde_json::json!({
        "min": fewest.min(longest),
        "max": longest,
        "proven": fewest >= longest,
    })
}
