//! Stage 4's searches: a breadth-first solver over any deterministic turn
//! function, and what runs it on the engine's levels.
//!
//! # Where things are
//!
//! - This module: the move search, generic over [`Space`] (packed `u32`
//!   states), so that it is tested against a naive BFS on small spaces
//!   and runs on the engine's compact state unchanged; [`Limits`],
//!   [`Outcome`] and [`Verdict`]; `parallel` holds one layer on several
//!   threads.
//! - [`visited`], [`fingerprint`], [`frontier`], [`blocks`]: how the move
//!   search keeps what it has seen and the layers it has yet to expand.
//! - [`level`]: the engine as a [`Space`] under stage 4's constraints
//!   (words frozen, hands-off, no rule change, forbid, keep, require, no
//!   word loss, forbidden events: [`EventFilter`]), and which search a
//!   level gets ([`level::search_level`]). A search that forbids an event
//!   steps its turns with their event lists and runs over moves unless the
//!   event can't happen in the push search's levels.
//! - [`deadlock`]: the dead states of sealed GOAL-only levels, a PUSH
//!   thing that no push can ever bring to a GOAL cell; the move search
//!   drops them there.
//! - [`pushes`]: the push search those levels get when one thing is YOU,
//!   with its lower bound ([`matching`]) and the encodings of its pending
//!   nodes ([`subsets`], [`gaps`]).
//! - [`satisfice`], [`shorten`]: a winning route found without proving it
//!   shortest, then shortened.
//! - [`pool`]: the one memory cap a `check` run's parallel searches share,
//!   in level order.
//!
//! # The move search
//!
//! A visited state is its 128-bit Zobrist fingerprint, updated word by
//! changed word, of which 80 bits are kept with a parent index and the
//! action that reached it: about 20 bytes a state. A small cache of recent
//! states catches most repeats before they reach the table; inserts are
//! pipelined, their slots prefetched ahead of the merge. When the table
//! grows it is rebuilt in place, giving the old table's pages back as the
//! rebuild goes, so the memory a search counts is what it holds at its
//! peak.
//!
//! Only two layers hold states: the one being expanded and the one being
//! found, each delta-encoded against the state before it in the layer,
//! each chunk's first against the start state ([`frontier`]): a few bytes
//! a state whatever the board holds. A segment whose deltas come to 8
//! bytes a state or more (many things moving apart) is stored as LZ4
//! blocks ([`blocks`], the one block format of the solver). A segment is
//! freed once the merge is past every unit that reads it.
//!
//! With several threads, one thread merges: it inserts each chunk's
//! successors into the visited set in layer order and marks the new ones,
//! which decides everything the search reports, so the verdict, the route
//! and every count are those of one thread. The other threads expand
//! units of the layer and encode each merged chunk's new states as a
//! segment of the next layer, each thread the chunks it expanded, in
//! buffers of its own, so a chunk's words stay in one core's cache. Each
//! thread steps its own copy of the space, on cache lines of its own,
//! since a space writes into itself at every step. When the next chunk to
//! merge is not ready, the merging thread encodes or expands rather than
//! wait. Segments are counted a fixed number of units behind the merge,
//! so the memory figures do not depend on the thread count either.
//!
//! A search stops at its state budget (by default the memory cap's worth
//! of states, [`DEFAULT_BUDGET`], a count so that a verdict is the same on
//! every machine) or at the memory cap, and says which ([`LimitKind`]).
//!
//! # The push search
//!
//! On sealed rooms whose rules never change, where only the one YOU thing
//! moves things and the properties are among YOU, PUSH, STOP and GOAL,
//! [`pushes`] searches over pushes instead of moves: A* over the states
//! right after each push, the walks between pushes taken from a grid the
//! engine builds once. A node is the player's cell and the set of cells
//! holding PUSH things (which thing stands where makes no difference, since
//! any of them covers a GOAL cell). Pushes, chains included, are computed
//! natively and property-tested against the engine; the route is as short
//! as the move search's, rebuilt by replaying the pushes.
//!
//! - **Order.** Nodes are filed once, in buckets by moves plus a lower
//!   bound on the moves left, then by the bound left, so the nodes nearest
//!   a win come first and the search stops at the first win of its
//!   bucket's number. The bound is the larger of the push distances' and
//!   [`matching`]'s cheapest assignment of GOAL cells to PUSH things at
//!   straight-segment distances, which stays consistent with chain pushes
//!   (a push moves one thing one segment at most). It is worked out in
//!   full once per expanded node and repaired for each successor with one
//!   augmenting path.
//! - **Memory.** The visited set is the move search's in its compact form
//!   (grown by half at every size), and each node's fewest moves takes a
//!   byte while every count is under 255. A pending entry is its key
//!   alone: the node's index comes back from the visited set by the key's
//!   fingerprint when it is taken. The key is one number ([`subsets`]:
//!   the player's cell and the PUSH things' cells numbered densely over the
//!   open cells joined to the start, a fixed few bytes), a bucket's
//!   numbers sorted in blocks of up to 16 384 and written as Rice-coded
//!   gaps ([`gaps`]). Where the count of nodes passes 2^128, keys are
//!   written as their cells' differences from the key before, and every
//!   4 KiB of a bucket packed as an LZ4 block.
//! - **Fewer nodes.** The mirror images and rotations of a symmetric room
//!   are one node, kept as the image with the least fingerprint; a node's
//!   fingerprint hashes its PUSH things as a set, so a successor's images'
//!   follow from its parent's with two terms swapped each. A successor that
//!   leaves PUSH things frozen off the GOAL cells for good (a set walled in
//!   on both axes by itself and blocked cells) is dropped unstored, and so
//!   is one whose frozen set cuts a GOAL cell off from every other PUSH
//!   thing (a goal room whose entrance a frozen thing now fills).
//!
//! # Satisficing
//!
//! [`satisfice::satisfice`] (best-first by novelty, then a
//! [`satisfice::Guide`]'s estimate; [`satisfice::LevelGuide`] on the engine's levels, its
//! plain atoms, then novelty by changes from the start, then rule-set atoms, in
//! passes in turn, [`satisfice::satisfice_level`]) and its twin
//! over pushes, [`pushes::satisfice`], look for a winning route without
//! proving it shortest; [`shorten`] then shortens it with local
//! breadth-first detours. [`level::search_level`] tries such a pass
//! briefly before the plain solve and at length after one that ends in
//! LIMIT. A route found decides the level ([`Verdict::Solved`] with
//! [`Shortest::Bounded`] by the fewest steps the exact search had not ruled
//! out, [`Outcome::settle`]) and bounds the exact search: in sealed rooms
//! the push search looks only for shorter routes; elsewhere the move
//! search's layer whose successors are as long is its last, tested for
//! wins and never stored (`search_within`). [`level::find_route`] is the
//! pass on its own, for a caller whose clock stopped the exact search
//! (`miauc solve --timeout`).

pub mod blocks;
pub mod deadlock;
pub mod fingerprint;
pub mod frontier;
pub mod gaps;
pub mod level;
pub mod matching;
mod parallel;
pub mod pool;
pub mod pushes;
pub mod satisfice;
pub mod shorten;
pub mod subsets;
pub mod visited;

pub use level::{Constraints, DestroyCause, EventFilter};

use crossbeam_utils::CachePadded;
use frontier::{Frontier, Layer};
use parallel::parallel_layer;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use visited::{Insert, Visited};

/// What one accepted turn did, as far as the searches care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Turn {
    /// The turn won the play.
    pub won: bool,
    /// The turn is excluded by the search's constraint (e.g. a word moved in a
    /// words-frozen search, or a forbidden rule formed): it has no successor.
    pub pruned: bool,
    /// When known, the one word where the successor may differ from the
    /// state it came from (the search then updates the fingerprint for that
    /// word alone instead of comparing the states).
    pub changed: Option<usize>,
}

/// A deterministic puzzle as the solver sees it, on packed states.
///
/// A state is a slice of `u32` words: its identity (two states with equal
/// words are the same state) and all the search keeps of it. Stepping reads
/// one packed state and appends the successor's words to the search's
/// buffer, so no state is ever allocated on its own.
pub trait Space {
    /// The number of actions, tried in index order `0..n` (for the engine: U, D, L, R, then W).
    fn action_count(&self) -> usize;
    /// Appends the packed start state to `out`.
    fn start(&self, out: &mut Vec<u32>);
    /// Announces that the calls of [`Space::step`] that follow, until the
    /// next `enter`, all start from packed state `from`, so work shared by
    /// every action (for the engine: step 1 of the turn) is done once.
    fn enter(&self, from: &[u32]) {
        let _ = from;
    }
    /// The turn for `action` from packed state `from`, the state of the last
    /// [`Space::enter`]: `None` when the input is rejected (`out` unchanged);
    /// otherwise the successor's packed words are appended to `out` and the
    /// turn says whether it won or is pruned.
    fn step(&self, from: &[u32], action: usize, out: &mut Vec<u32>) -> Option<Turn>;
}

/// Limits of one search.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Maximum number of expanded states.
    pub states: u64,
    /// Maximum bytes for the visited set plus the frontier.
    pub memory: usize,
}

/// The memory a search may hold by default: 2 GiB.
pub const DEFAULT_MEMORY: usize = 2 << 30;

/// The bytes a stored state costs at most, frontier included, as the
/// benchmark measures it on every level (`docs/performance.md`): the unit
/// in which a memory cap becomes a state budget.
pub const BYTES_PER_STATE: usize = 32;

/// The state budget worth `memory` bytes of states: a count, so a level
/// gets the same verdict on every machine, whatever its allocator does.
pub const fn budget_for_memory(memory: usize) -> u64 {
    (memory / BYTES_PER_STATE) as u64
}

/// The default state budget of every search (`solve`, each search of
/// `check`, the editor's checks): [`DEFAULT_MEMORY`]'s worth of states,
/// 67 108 864. A count, not a measurement, so a level gets the same verdict
/// on every machine; the memory cap stays as a safety net and ends a search
/// in LIMIT (saying so) should a level ever cost more per state.
pub const DEFAULT_BUDGET: u64 = budget_for_memory(DEFAULT_MEMORY);

impl Default for Limits {
    /// [`DEFAULT_BUDGET`] states within [`DEFAULT_MEMORY`].
    fn default() -> Self {
        Limits {
            states: DEFAULT_BUDGET,
            memory: DEFAULT_MEMORY,
        }
    }
}

/// Which limit ended a search in [`Verdict::Limit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitKind {
    /// The state budget ([`Limits::states`]).
    States,
    /// The memory cap ([`Limits::memory`]), or the visited set's index range.
    Memory,
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A winning route was found: the level can be won. `route` holds its
    /// action indices; `shortest` says whether it is a shortest one.
    Solved {
        /// The route's action indices.
        route: Vec<u8>,
        /// What is known of the shortest route's length.
        shortest: Shortest,
    },
    /// Every reachable state was explored and none wins: a proof.
    Unsolved,
    /// The state or memory budget ran out first, and no winning route was
    /// found: nothing is proven.
    Limit,
    /// The caller cancelled the search before any winning route was found.
    Cancelled,
}

/// What a [`Verdict::Solved`] knows of the shortest winning route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shortest {
    /// No winning route is shorter than the route found. A route of the
    /// exact search's own is also the first in action order among the
    /// shortest; a satisficing one the search's bound proved need not be.
    Proven,
    /// The exact search stopped first: the shortest route takes at least
    /// `fewest` steps (every shorter route was ruled out) and at most the
    /// route's length. `fewest` is always below the route's length.
    Bounded {
        /// The fewest steps a winning route can still take.
        fewest: u32,
    },
}

impl Verdict {
    /// A route the exact search proved shortest.
    pub fn proven(route: Vec<u8>) -> Verdict {
        Verdict::Solved {
            route,
            shortest: Shortest::Proven,
        }
    }

    /// A winning route of `route.len()` steps when no winning route of
    /// fewer than `fewest` steps exists: [`Shortest::Proven`] when that
    /// leaves none shorter, else [`Shortest::Bounded`].
    pub fn bounded(route: Vec<u8>, fewest: u32) -> Verdict {
        let shortest = if fewest as usize >= route.len() {
            Shortest::Proven
        } else {
            Shortest::Bounded { fewest }
        };
        Verdict::Solved { route, shortest }
    }

    /// The winning route, when there is one.
    pub fn route(&self) -> Option<&[u8]> {
        match self {
            Verdict::Solved { route, .. } => Some(route),
            _ => None,
        }
    }

    /// The range the shortest route's length lies in, `(fewest, longest)`,
    /// when a route was found (the two are equal once proven).
    pub fn shortest_range(&self) -> Option<(usize, usize)> {
        match self {
            Verdict::Solved {
                route,
                shortest: Shortest::Proven,
            } => Some((route.len(), route.len())),
            Verdict::Solved {
                route,
                shortest: Shortest::Bounded { fewest },
            } => Some((*fewest as usize, route.len())),
            _ => None,
        }
    }
}

/// The result and its figures.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// How it ended.
    pub verdict: Verdict,
    /// States expanded (taken from the frontier and stepped).
    pub expanded: u64,
    /// Distinct states stored.
    pub stored: u64,
    /// Depth reached (the BFS layer being expanded at the end).
    pub depth: u32,
    /// Peak bytes used by the visited set and frontier (divided by
    /// `stored`: the bytes per stored state, frontier included).
    pub peak_bytes: usize,
    /// Bytes held by the visited set at the end (fingerprints, parents,
    /// actions and table slots): divided by `stored`, the cost of a state.
    pub visited_bytes: usize,
    /// For [`Verdict::Limit`], and for a [`Shortest::Bounded`] solve, the
    /// limit that stopped the exact search (`None` when its caller did).
    pub limit: Option<LimitKind>,
    /// A winning route a satisficing search found ([`satisfice`]) while
    /// the exact search ended without its answer: [`level::search_level`]
    /// folds it into the verdict ([`Outcome::settle`]).
    pub(crate) found: Option<Vec<u8>>,
    /// Unless the search ended in [`Verdict::Unsolved`] or a proven route:
    /// no winning route has fewer steps, as far as the search got (a
    /// breadth-first search expanding layer `d` has ruled out every route
    /// of `d` steps or fewer; the push search taking nodes of bound `b`,
    /// every one under `b`).
    pub fewest: u32,
}

impl Outcome {
    /// The outcome with a winning route found another way: an exact search
    /// that stopped (LIMIT, or cancelled) becomes [`Verdict::Solved`] with
    /// the shortest bounded by `fewest`, and a bounded solve takes the
    /// route when it is shorter than its own; any other outcome is kept.
    /// The route must win (callers replay it on the engine first).
    pub fn with_route(mut self, route: Vec<u8>) -> Outcome {
        match &self.verdict {
            Verdict::Limit | Verdict::Cancelled => self.found = Some(route),
            Verdict::Solved {
                route: known,
                shortest: Shortest::Bounded { fewest },
            } if route.len() < known.len() => self.verdict = Verdict::bounded(route, *fewest),
            _ => {}
        }
        self.settle()
    }

    /// The outcome with a route the satisficing search found folded into
    /// the verdict (see [`Outcome::with_route`]).
    pub fn settle(mut self) -> Outcome {
        if matches!(self.verdict, Verdict::Limit | Verdict::Cancelled)
            && let Some(route) = self.found.take()
        {
            self.verdict = Verdict::bounded(route, self.fewest);
        }
        self.found = None;
        self
    }
}

/// Progress reported between layers and every few thousand states.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// States expanded so far.
    pub expanded: u64,
    /// Distinct states stored so far.
    pub stored: u64,
    /// Current depth.
    pub depth: u32,
}

/// The successors found from one chunk of a layer (see [`frontier`]), in
/// layer and action order, waiting to be inserted.
#[derive(Debug, Default)]
struct Chunk {
    /// Per expanded state, the end of its successors in `successors`.
    ends: Vec<u32>,
    /// Per successor: (action, end of its words in `words`, fingerprint).
    successors: Vec<(u8, u32, u128)>,
    /// The successors' packed words, one after another.
    words: Vec<u32>,
    /// The first winning turn: (the state's place in the chunk, action).
    won: Option<(u32, u8)>,
    /// The successors the merge found new (their places in `successors`),
    /// which become the next layer's segment for this unit.
    fresh: Vec<u32>,
    /// The thread of [`parallel_layer`] that expanded it (0 otherwise).
    by: usize,
}

/// The segment of the next layer made of `chunk`'s new successors, once
/// merged (`None` when none is new). Reads only the chunk, so any thread
/// encodes it.
fn encode(chunk: &Chunk, base: &Arc<[u32]>) -> Option<Layer> {
    if chunk.fresh.is_empty() {
        return None;
    }
    let mut segment = Layer::new(base.clone());
    for &k in &chunk.fresh {
        let k = k as usize;
        let from = k
            .checked_sub(1)
            .map_or(0, |p| chunk.successors[p].1 as usize);
        let (_, to, fp) = chunk.successors[k];
        segment.push(&chunk.words[from..to as usize], fp);
    }
    segment.finish();
    Some(segment)
}

/// Expands unit `u` of `layer` into `out`: every state of the unit in
/// order, each action in order, up to the first win. On the `last` layer
/// a search may take (see [`search_within`]) only wins matter: no
/// successor is kept, so none is inserted or encoded. Reads only the layer,
/// so units are expanded on any thread; what is new is decided when the
/// units are merged, in order ([`Run::merge`]).
fn expand<S: Space>(space: &S, layer: &Frontier, u: usize, last: bool, out: &mut Chunk) {
    out.ends.clear();
    out.successors.clear();
    out.words.clear();
    out.fresh.clear();
    out.won = None;
    let actions = space.action_count();
    let mut reader = layer.reader(u);
    while let Some((words, fp)) = reader.next() {
        space.enter(words);
        for action in 0..actions {
            let from = out.words.len();
            let Some(turn) = space.step(words, action, &mut out.words) else {
                continue;
            };
            if turn.pruned || turn.won || last {
                out.words.truncate(from);
                if turn.pruned || !turn.won {
                    continue;
                }
                out.won = Some((out.ends.len() as u32, action as u8));
                break;
            }
            // A successor's fingerprint is its parent's, updated for the
            // words that differ (see `fingerprint`): a turn moves a few
            // entities, so this costs a comparison of the words rather
            // than hashing all of them.
            let new = &out.words[from..];
            let fp = match turn.changed {
                Some(i) if new.len() == words.len() && i < new.len() => {
                    fingerprint::update_word(fp, i, words[i], new[i])
                }
                _ => fingerprint::update(fp, words, new),
            } & visited::KEPT;
            out.successors
                .push((action as u8, out.words.len() as u32, fp));
        }
        out.ends.push(out.successors.len() as u32);
        if out.won.is_some() {
            return;
        }
    }
}

/// Makes room in `v` for `need` more entries when it lacks it, growing it
/// by an eighth of its length (at least `least` entries) rather than by
/// doubling: the searches count their memory by capacity, so their
/// vectors' slack stays under 12.5% of what they hold.
pub(crate) fn make_room<T>(v: &mut Vec<T>, need: usize, least: usize) {
    make_room_by(v, need, least, 8);
}

/// [`make_room`], growing `v` by a `share`-th of its length instead.
pub(crate) fn make_room_by<T>(v: &mut Vec<T>, need: usize, least: usize, share: usize) {
    if v.len() + need > v.capacity() {
        v.reserve_exact((v.len() / share).max(least));
    }
}

/// How far ahead of the merge the successors of the next few visited-set
/// inserts are prefetched: their slots at this distance, their
/// fingerprints (which needs the slot) at half of it, so the cache misses
/// overlap instead of following one another.
const PREFETCH: usize = 16;

/// Whether a search holding `used` bytes and `stored` states may go on;
/// otherwise how it ends: cancelled when a `check` run's shared cap
/// (`pool`) evicts it, LIMIT (memory) over the cap or near the visited
/// set's index range.
fn memory_allows(
    used: usize,
    stored: usize,
    limits: &Limits,
) -> Result<(), (Verdict, Option<LimitKind>)> {
    let over = match pool::reserve(used) {
        None => used > limits.memory,
        Some(pool::Answer::Granted) => false,
        Some(pool::Answer::OverCap) => true,
        Some(pool::Answer::Evicted) => return Err((Verdict::Cancelled, None)),
    };
    if over || stored + 8192 > visited::MAX_STATES {
        return Err((Verdict::Limit, Some(LimitKind::Memory)));
    }
    Ok(())
}

/// Whether a satisficing pass, or a route's shortening, holding `used`
/// bytes may go on. In a `check` run the run's pool decides, as for the
/// exact searches ([`memory_allows`]), so every search of the run draws on
/// the one cap; a pass the pool stops (it needs more than the whole cap,
/// or an earlier level needs the memory and the level is checked again)
/// ends without a route. A search with no pool (`solve`, the editor)
/// holds at most `cap`.
pub(crate) fn pass_may_hold(used: usize, cap: usize) -> bool {
    match pool::reserve(used) {
        None => used <= cap,
        Some(pool::Answer::Granted) => true,
        Some(pool::Answer::OverCap | pool::Answer::Evicted) => false,
    }
}

/// The bytes a vector of `len` entries of `T` within `capacity` holds by
/// the time `more` entries are pushed: its capacity, or the one it grows
/// to (twice as much, or what the entries need) when they pass it. Counted
/// ahead, so that a pass checking its memory every so many expansions
/// never holds more in between than it counted.
pub(crate) fn vec_bytes<T>(len: usize, capacity: usize, more: usize) -> usize {
    let capacity = if len + more > capacity {
        (capacity * 2).max(len + more)
    } else {
        capacity
    };
    capacity * std::mem::size_of::<T>()
}

/// The bytes a standard hash set of `len` entries of `T` within `capacity`
/// holds (a bucket of `T` and a control byte per slot, its table kept at
/// most 7/8 full) by the time `more` entries are inserted: when they pass
/// its capacity, the table they need and the one before it, which are
/// held together while the set grows.
pub(crate) fn hash_set_bytes<T>(len: usize, capacity: usize, more: usize) -> usize {
    let buckets = |items: usize| match items {
        0 => 0,
        1..4 => 4,
        4..8 => 8,
        n => (n * 8 / 7).next_power_of_two(),
    };
    let now = buckets(capacity);
    let slots = if len + more > capacity {
        let grown = buckets(len + more);
        now.max(grown / 2) + grown
    } else {
        now
    };
    slots * (std::mem::size_of::<T>() + 1)
}

/// The chunk buffers a move search holds at most, on any number of threads
/// (one on one thread): what every search counts for them
/// ([`working_bytes`]), so that its memory, and with it its verdict, is
/// the same on any number of threads.
pub(crate) const CHUNK_BUFFERS: usize = 8;

/// The bytes of [`CHUNK_BUFFERS`] chunk buffers for states of `len` words
/// and `actions` actions: each successor's words and entry, each state's
/// end, with the vectors' slack (they grow by doubling and are reused).
fn working_bytes(len: usize, actions: usize) -> usize {
    let states = frontier::chunk_states(len);
    let successors = states * actions;
    let entry = std::mem::size_of::<(u8, u32, u128)>() + 4;
    let chunk = successors * (len * 4 + entry) + states * 4;
    CHUNK_BUFFERS * 2 * chunk
}

/// The sequential half of a search: the visited set, the layer being found
/// and the figures, fed the expanded chunks in layer order.
struct Run<'a> {
    limits: Limits,
    /// What the chunk buffers may hold ([`working_bytes`]): counted
    /// against the memory cap beside the states, not in the figures.
    working: usize,
    cancel: &'a AtomicBool,
    progress: &'a mut dyn FnMut(Progress),
    visited: Visited,
    /// The next layer's segments counted so far, in unit order.
    segments: Vec<Layer>,
    /// Units of the current layer whose segment is counted.
    counted: usize,
    /// What the counted segments hold ([`frontier::segment_bytes`]).
    counted_bytes: usize,
    expanded: u64,
    depth: u32,
    peak: usize,
}

impl Run<'_> {
    fn bytes(&self, frontier: &Frontier) -> usize {
        // The first segment's record stands for the layer's working copy,
        // not counted (as in [`Frontier::bytes`]).
        let next = self
            .counted_bytes
            .saturating_sub(std::mem::size_of::<Layer>());
        self.visited.bytes() + frontier.bytes() + next
    }

    /// Counts the segment of the next unit in order (`None`: nothing new
    /// there). A unit's segment is counted [`LAG`] units after it was
    /// merged, or at the layer's end ([`due`]), whichever thread encoded
    /// it and whenever: so the memory every check sees, and with it every
    /// verdict and figure, is the same on any number of threads.
    fn count(&mut self, segment: Option<Layer>) {
        self.counted += 1;
        if let Some(s) = segment {
            self.counted_bytes += frontier::segment_bytes(&s);
            self.segments.push(s);
        }
    }

    /// `out`, a search that ended within a layer once the segments of
    /// every unit merged are counted: its peak includes them, so the
    /// figures of a search that ends early are as complete as those of
    /// one that ends between layers.
    fn ended(&mut self, mut out: Outcome, frontier: &Frontier) -> Outcome {
        self.peak = self.peak.max(self.bytes(frontier));
        out.peak_bytes = self.peak;
        out
    }

    /// The next layer, once every unit's segment is counted.
    fn take_layer(&mut self) -> Frontier {
        self.counted = 0;
        self.counted_bytes = 0;
        Frontier::new(std::mem::take(&mut self.segments))
    }

    fn outcome(
        &mut self,
        verdict: Verdict,
        limit: Option<LimitKind>,
        frontier: &Frontier,
    ) -> Outcome {
        self.peak = self.peak.max(self.bytes(frontier));
        Outcome {
            verdict,
            expanded: self.expanded,
            stored: self.visited.len() as u64,
            depth: self.depth,
            peak_bytes: self.peak,
            visited_bytes: self.visited.bytes(),
            limit,
            found: None,
            fewest: self.depth + 1,
        }
    }

    fn report(&mut self) {
        (self.progress)(Progress {
            expanded: self.expanded,
            stored: self.visited.len() as u64,
            depth: self.depth,
        });
    }

    /// Inserts the successors of `chunk`, whose first state has index
    /// `first` in the visited set, as if each were inserted as soon as it
    /// was found; the new ones are marked in `chunk.fresh`, to be encoded
    /// as the next layer's segment ([`encode`]). Returns the outcome
    /// when the search ends here (a win, a limit, cancellation). Every
    /// decision is taken here, in layer order, from the chunk's contents
    /// alone, so how the chunks were expanded (threads, timing) changes
    /// nothing.
    fn merge(&mut self, chunk: &mut Chunk, first: u32, frontier: &Frontier) -> Option<Outcome> {
        let Chunk {
            ends,
            successors: succ,
            won,
            fresh,
            ..
        } = chunk;
        fresh.clear();
        for (k, s) in succ.iter().enumerate().take(PREFETCH) {
            self.visited.prefetch(s.2);
            if k < PREFETCH / 2 {
                self.visited.prefetch_fingerprint(s.2);
            }
        }
        let mut k = 0usize;
        for (j, &end) in ends.iter().enumerate() {
            let this = first + j as u32;
            if self.expanded >= self.limits.states {
                return Some(self.outcome(Verdict::Limit, Some(LimitKind::States), frontier));
            }
            self.expanded += 1;
            if self.expanded.is_multiple_of(1024) {
                if self.cancel.load(Ordering::Relaxed) {
                    return Some(self.outcome(Verdict::Cancelled, None, frontier));
                }
                let used = self.bytes(frontier);
                self.peak = self.peak.max(used);
                let held = used + self.working;
                if let Err((verdict, limit)) = memory_allows(held, self.visited.len(), &self.limits)
                {
                    return Some(self.outcome(verdict, limit, frontier));
                }
                if self.expanded.is_multiple_of(4096) {
                    self.report();
                }
            }
            // The most common repeat is the way back (a walk undone),
            // which leads to the grandparent: known to be stored, so its
            // insert is skipped. Parents of a layer's states are expanded
            // in order, so these reads are sequential, not cache misses.
            let grand = self
                .visited
                .parent(this)
                .map(|p| self.visited.fingerprint(p));
            while k < end as usize {
                let (action, _, fp) = succ[k];
                if let Some(s) = succ.get(k + PREFETCH) {
                    self.visited.prefetch(s.2);
                }
                if let Some(s) = succ.get(k + PREFETCH / 2) {
                    self.visited.prefetch_fingerprint(s.2);
                }
                if grand != Some(fp)
                    && let Insert::New(_) = self.visited.insert(fp, this, action)
                {
                    fresh.push(k as u32);
                }
                k += 1;
            }
            if let Some((at, action)) = *won
                && at as usize == j
            {
                let mut route = self.visited.route(this);
                route.push(action);
                return Some(self.outcome(Verdict::proven(route), None, frontier));
            }
        }
        None
    }
}

/// The chunks per thread below which a layer is expanded on the search's
/// own thread. (The library's tests cut layers into chunks of a few
/// states, so there one chunk per thread is enough.)
#[cfg(not(test))]
const PARALLEL_CHUNKS: usize = 4;
#[cfg(test)]
const PARALLEL_CHUNKS: usize = 1;

/// How many units after its own a unit's segment is counted (see
/// [`Run::count`]): far enough behind the merge that the threads have
/// encoded it by then, so the merging thread rarely waits. A constant,
/// not a function of the number of threads. (The library's tests, whose
/// layers have a few units, count two units behind, so that counting
/// mid-layer is what they compare across thread counts.)
#[cfg(not(test))]
const LAG: usize = 8;
#[cfg(test)]
const LAG: usize = 2;

/// How many of a layer's `units` units must be counted before unit `m`
/// is merged (all of them once `m` is past the last).
fn due(m: usize, units: usize) -> usize {
    if m >= units {
        units
    } else {
        m.saturating_sub(LAG)
    }
}

/// Breadth-first search from `space.start()` on `jobs` threads.
///
/// The frontier is one [`Frontier`] per BFS layer (the one being expanded
/// and the one being found); a layer's states are the visited set's
/// indices from the layer's first on, in order, so only their words are
/// kept. Each layer is expanded unit by unit: with more than one job,
/// threads expand units ahead and encode the next layer's segments while
/// this thread merges the units in layer order, so the result (verdict,
/// route, every count) is the one of a single thread. `cancel` is polled
/// every 1024 expansions; `progress` is called every 4096 and at each new
/// layer.
pub fn search<S: Space + Clone + Send>(
    space: &S,
    limits: Limits,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    search_within(space, limits, None, jobs, cancel, progress)
}

/// [`search`] for routes of at most `longest` steps (`None`: any), given
/// when a route that long is known to win. The layer whose successors
/// are that long is the last: its successors are tested for a win and
/// nothing else, neither inserted nor encoded, which spares the largest
/// layer's memory and most of its time. Up to the win, the search is the
/// one without the bound (the same states expanded in the same order, so
/// the same verdict and route, and the same `expanded`); only `stored`
/// leaves out the last layer's successors. Should that layer hold no win
/// after all (the known route was not one of this space's), the outcome
/// is a LIMIT naming no limit.
pub(crate) fn search_within<S: Space + Clone + Send>(
    space: &S,
    limits: Limits,
    longest: Option<u32>,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    pool::search_starts();
    // Small at first: a level of a few dozen states pays for a few dozen.
    let mut visited = Visited::with_capacity(0);
    let mut start: Vec<u32> = Vec::with_capacity(256);
    space.start(&mut start);
    let start_fp = fingerprint::of_words(&start) & visited::KEPT;
    let _ = visited.insert(start_fp, u32::MAX, 0);
    // Every segment's chunks are delta-encoded against the start state.
    let base: Arc<[u32]> = start.as_slice().into();
    let mut frontier = Frontier::single(base.clone(), &start, start_fp);
    let mut run = Run {
        limits,
        working: working_bytes(start.len(), space.action_count()),
        cancel,
        progress,
        visited,
        segments: Vec::new(),
        counted: 0,
        counted_bytes: 0,
        expanded: 0,
        depth: 0,
        peak: 0,
    };
    // The index of the current layer's first state.
    let mut first = 0u32;
    // Each thread's own copy of the space, on cache lines of its own. A
    // space writes into itself at every step (the engine's scratch
    // buffers' lengths, its borrow flags), and copies side by side in one
    // vector shared a line: each thread's writes then cost the other a
    // cache miss on what it reads every step. (Measured: expanding took a
    // third more thread time on two cores than on one; with the copies
    // apart, a sixth.)
    let mut workers: Vec<CachePadded<S>> = Vec::new();
    let mut chunk = Chunk::default();
    while !frontier.is_empty() {
        run.report();
        let next_first = run.visited.len() as u32;
        let last = longest.is_some_and(|k| run.depth + 1 >= k);
        // Threads start per layer, so a layer of a few units is expanded
        // here: starting them would cost more than they save.
        let ended = if jobs <= 1 || frontier.units() < PARALLEL_CHUNKS * jobs {
            sequential_layer(space, &frontier, first, last, &base, &mut run, &mut chunk)
        } else {
            if workers.is_empty() {
                workers = (0..jobs).map(|_| CachePadded::new(space.clone())).collect();
            }
            parallel_layer(&mut workers, &frontier, first, last, &base, &mut run)
        };
        if let Some(out) = ended {
            return out;
        }
        if last {
            // The whole layer is expanded: its successors' length is ruled out too.
            let mut out = run.outcome(Verdict::Limit, None, &frontier);
            out.fewest += 1;
            return out;
        }
        run.peak = run.peak.max(run.bytes(&frontier));
        frontier = run.take_layer();
        first = next_first;
        run.depth += 1;
    }
    run.outcome(Verdict::Unsolved, None, &frontier)
}

/// One layer on this thread: each unit expanded, merged and encoded in
/// turn, the segments counted as [`due`] says. Returns the outcome when
/// the search ends within the layer.
fn sequential_layer<S: Space>(
    space: &S,
    frontier: &Frontier,
    first: u32,
    last: bool,
    base: &Arc<[u32]>,
    run: &mut Run<'_>,
    chunk: &mut Chunk,
) -> Option<Outcome> {
    let units = frontier.units();
    // Encoded segments not yet counted, in unit order.
    let mut encoded = std::collections::VecDeque::new();
    let mut ended = None;
    for u in 0..units {
        while run.counted < due(u, units) {
            run.count(encoded.pop_front().flatten());
        }
        expand(space, frontier, u, last, chunk);
        ended = run.merge(chunk, first + frontier.unit_start(u), frontier);
        frontier.release_through(u);
        encoded.push_back(encode(chunk, base));
        if ended.is_some() {
            break;
        }
    }
    // The layer's end, or the search's: every merged unit is counted.
    while let Some(segment) = encoded.pop_front() {
        run.count(segment);
    }
    ended.map(|out| run.ended(out, frontier))
}

#[cfg(test)]
mod tests;
