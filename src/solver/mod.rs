//! Stage 4's search: a breadth-first solver over any deterministic turn function.
//!
//! The search is generic over [`Space`] so that it can be tested against a
//! naive BFS on small spaces and run on the engine's compact state unchanged.
//! Visited states are stored as 96-bit fingerprints with a parent index and
//! the action that reached them (about 22 bytes each, see [`visited`]); only
//! the current and next BFS layers keep states, delta-encoded against the
//! state before them in the layer (a few bytes each whatever the board
//! holds, see [`frontier`]).

pub mod fingerprint;
pub mod frontier;
pub mod level;
pub mod visited;

use frontier::Layer;
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

impl Default for Limits {
    /// About 67 million states (2 GiB worth) within 2 GiB.
    fn default() -> Self {
        Limits {
            states: budget_for_memory(DEFAULT_MEMORY),
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
    /// A shortest winning route (action indices), first in action order among the shortest.
    Solved(Vec<u8>),
    /// Every reachable state was explored and none wins: a proof.
    Unsolved,
    /// The state or memory budget ran out first: not a proof.
    Limit,
    /// The caller cancelled the search.
    Cancelled,
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
    /// For [`Verdict::Limit`], the limit that ran out.
    pub limit: Option<LimitKind>,
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

/// The successors of one expanded state, waiting to be inserted.
#[derive(Debug, Default)]
struct Batch {
    /// The expanded state's index in the visited set.
    parent: u32,
    /// Per successor, in action order: (action, end of its words in
    /// `words`, fingerprint).
    successors: Vec<(u8, u32, u128)>,
    /// The successors' packed words, one after another.
    words: Vec<u32>,
}

impl Batch {
    /// Inserts the successors in action order, appending the new ones to
    /// the next layer, and empties the batch. New states get consecutive
    /// indices, so a layer's states are the indices from its first one on,
    /// in the order the layer holds them.
    fn insert(&mut self, visited: &mut Visited, next: &mut Layer) {
        let mut start = 0;
        for &(action, end, fp) in &self.successors {
            if let Insert::New(_) = visited.insert(fp, self.parent, action) {
                next.push(&self.words[start..end as usize]);
            }
            start = end as usize;
        }
        self.successors.clear();
        self.words.clear();
    }
}

/// How many batches of successors are in flight: the visited-set slots of a
/// batch are prefetched when it is made and it is inserted when its ring
/// slot comes round again, so the cache misses overlap with the engine's
/// work on the states in between. (Prefetching the fingerprints a probe
/// will compare as well was measured slower: it has to read the slot.)
const PIPELINE: usize = 8;

/// The batches in flight, inserted in the order they were made, so results
/// are those of inserting each successor as soon as it is found.
#[derive(Debug, Default)]
struct Pipeline {
    batches: [Batch; PIPELINE],
    /// The slot of the newest batch.
    newest: usize,
}

impl Pipeline {
    /// The slot for the next expansion, after moving the pipeline on: the
    /// oldest batch is inserted.
    fn advance(&mut self, visited: &mut Visited, next: &mut Layer) -> &mut Batch {
        self.newest = (self.newest + 1) % PIPELINE;
        for &(_, _, fp) in &self.batches[(self.newest + PIPELINE / 2) % PIPELINE].successors {
            visited.prefetch_fingerprint(fp);
        }
        // The slot being reused holds the oldest batch.
        let slot = &mut self.batches[self.newest];
        slot.insert(visited, next);
        slot
    }

    /// Inserts every waiting batch, oldest first.
    fn flush(&mut self, visited: &mut Visited, next: &mut Layer) {
        for k in 1..=PIPELINE {
            self.batches[(self.newest + k) % PIPELINE].insert(visited, next);
        }
    }
}

/// Breadth-first search from `space.start()`.
///
/// The frontier is one [`Layer`] per BFS layer (the one being expanded and
/// the one being found); a layer's states are the visited set's indices
/// from the layer's first on, in order, so only their words are kept.
/// `cancel` is polled every 1024 expansions; `progress` is called every
/// 4096 and at each new layer.
pub fn search<S: Space>(
    space: &S,
    limits: Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    let actions = space.action_count();
    // Small at first: a level of a few dozen states pays for a few dozen.
    let mut visited = Visited::with_capacity(0);
    let mut start: Vec<u32> = Vec::with_capacity(256);
    space.start(&mut start);
    let _ = visited.insert(fingerprint::of_words(&start), u32::MAX, 0);
    let mut frontier = Layer::default();
    frontier.push(&start);
    // The index of the current layer's first state.
    let mut first = 0u32;
    let mut next = Layer::default();
    let mut pipeline = Pipeline::default();
    let mut expanded = 0u64;
    let mut depth = 0u32;
    let mut peak = 0usize;
    let bytes = |visited: &Visited, a: &Layer, b: &Layer| visited.bytes() + a.bytes() + b.bytes();
    let outcome = |verdict, expanded, visited: &Visited, depth, peak| Outcome {
        verdict,
        expanded,
        stored: visited.len() as u64,
        depth,
        peak_bytes: peak,
        visited_bytes: visited.bytes(),
        limit: None,
    };
    let limited = |kind, expanded, visited: &Visited, depth, peak| Outcome {
        limit: Some(kind),
        ..outcome(Verdict::Limit, expanded, visited, depth, peak)
    };
    while !frontier.is_empty() {
        progress(Progress {
            expanded,
            stored: visited.len() as u64,
            depth,
        });
        let mut reader = frontier.reader();
        let mut index = first;
        let next_first = visited.len() as u32;
        while let Some(words) = reader.next() {
            let this = index;
            index += 1;
            if expanded >= limits.states {
                pipeline.flush(&mut visited, &mut next);
                return limited(LimitKind::States, expanded, &visited, depth, peak);
            }
            expanded += 1;
            if expanded.is_multiple_of(1024) {
                if cancel.load(Ordering::Relaxed) {
                    pipeline.flush(&mut visited, &mut next);
                    return outcome(Verdict::Cancelled, expanded, &visited, depth, peak);
                }
                let used = bytes(&visited, &frontier, &next);
                peak = peak.max(used);
                if used > limits.memory || visited.len() + 8192 > visited::MAX_STATES {
                    pipeline.flush(&mut visited, &mut next);
                    return limited(LimitKind::Memory, expanded, &visited, depth, peak);
                }
                if expanded.is_multiple_of(4096) {
                    progress(Progress {
                        expanded,
                        stored: visited.len() as u64,
                        depth,
                    });
                }
            }
            // A successor's fingerprint is its parent's, updated for the
            // words that differ (see `fingerprint`): a turn moves a few
            // entities, so this costs a comparison of the words rather than
            // hashing all of them.
            let parent_fp = visited.fingerprint(this);
            // The most common repeat is the way back (a walk undone), which
            // leads to the grandparent: known to be stored, so its insert
            // is skipped. Parents of a layer's states are expanded in order,
            // so these reads are sequential, not cache misses.
            let grand_fp = visited.parent(this).map(|p| visited.fingerprint(p));
            let batch = pipeline.advance(&mut visited, &mut next);
            batch.parent = this;
            let mut won = None;
            space.enter(words);
            for action in 0..actions {
                let from = batch.words.len();
                let Some(turn) = space.step(words, action, &mut batch.words) else {
                    continue;
                };
                if turn.pruned || turn.won {
                    batch.words.truncate(from);
                    if turn.pruned {
                        continue;
                    }
                    won = Some(action);
                    break;
                }
                let new = &batch.words[from..];
                let fp = match turn.changed {
                    Some(i) if new.len() == words.len() && i < new.len() => {
                        fingerprint::update_word(parent_fp, i, words[i], new[i])
                    }
                    _ => fingerprint::update(parent_fp, words, new),
                } & visited::KEPT;
                if grand_fp == Some(fp) {
                    batch.words.truncate(from);
                    continue;
                }
                visited.prefetch(fp);
                let end = batch.words.len() as u32;
                batch.successors.push((action as u8, end, fp));
            }
            if let Some(action) = won {
                // The successors found before the win are stored first, as
                // they would be one at a time.
                pipeline.flush(&mut visited, &mut next);
                let mut route = visited.route(this);
                route.push(action as u8);
                peak = peak.max(bytes(&visited, &frontier, &next));
                return outcome(Verdict::Solved(route), expanded, &visited, depth, peak);
            }
        }
        pipeline.flush(&mut visited, &mut next);
        peak = peak.max(bytes(&visited, &frontier, &next));
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
        first = next_first;
        depth += 1;
    }
    outcome(Verdict::Unsolved, expanded, &visited, depth, peak)
}

#[cfg(test)]
mod tests;
