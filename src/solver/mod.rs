//! Stage 4's search: a breadth-first solver over any deterministic turn function.
//!
//! The search is generic over [`Space`] so that it can be tested against a
//! naive BFS on small spaces and run on the engine's compact state unchanged.
//! Visited states are stored as 128-bit fingerprints with a parent index and
//! the action that reached them (about 26 bytes each, see [`visited`]); only
//! the current and next BFS layers keep whole states, packed, in two flat
//! buffers.

pub mod fingerprint;
pub mod level;
pub mod visited;

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
    /// The turn for `action` from packed state `from`: `None` when the input
    /// is rejected (`out` unchanged); otherwise the successor's packed words
    /// are appended to `out` and the turn says whether it won or is pruned.
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

impl Default for Limits {
    fn default() -> Self {
        Limits {
            states: 2_000_000,
            memory: 2 << 30,
        }
    }
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
    /// Peak bytes used by the visited set and frontier.
    pub peak_bytes: usize,
    /// Bytes held by the visited set at the end (fingerprints, parents,
    /// actions and table slots): divided by `stored`, the cost of a state.
    pub visited_bytes: usize,
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

/// Breadth-first search from `space.start()`.
///
/// The frontier holds packed states in one flat buffer (`[parent index,
/// length, words…]` per state), so a layer of a million states is one
/// allocation rather than a million. `cancel` is polled every 1024
/// expansions; `progress` is called every 4096 and at each new layer.
pub fn search<S: Space>(
    space: &S,
    limits: Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    let actions = space.action_count();
    let mut visited = Visited::with_capacity(1 << 12);
    let mut packed: Vec<u32> = Vec::with_capacity(256);
    space.start(&mut packed);
    let root = match visited.insert(fingerprint::of_words(&packed), u32::MAX, 0) {
        Insert::New(i) | Insert::Seen(i) => i,
    };
    let mut frontier: Vec<u32> = Vec::with_capacity(packed.len() + 2);
    frontier.push(root);
    frontier.push(packed.len() as u32);
    frontier.extend_from_slice(&packed);
    let mut next: Vec<u32> = Vec::new();
    // One expansion's successors: (action, start in `packed`, fingerprint).
    let mut batch: Vec<(u8, u32, u128)> = Vec::with_capacity(actions);
    let mut expanded = 0u64;
    let mut depth = 0u32;
    let mut peak = 0usize;
    let bytes = |visited: &Visited, a: &Vec<u32>, b: &Vec<u32>| {
        visited.bytes() + (a.capacity() + b.capacity()) * 4
    };
    let outcome = |verdict, expanded, visited: &Visited, depth, peak| Outcome {
        verdict,
        expanded,
        stored: visited.len() as u64,
        depth,
        peak_bytes: peak,
        visited_bytes: visited.bytes(),
    };
    while !frontier.is_empty() {
        progress(Progress {
            expanded,
            stored: visited.len() as u64,
            depth,
        });
        let mut at = 0;
        while at + 2 <= frontier.len() {
            let index = frontier[at];
            let len = frontier[at + 1] as usize;
            let Some(words) = frontier.get(at + 2..at + 2 + len) else {
                break;
            };
            at += 2 + len;
            if expanded >= limits.states {
                return outcome(Verdict::Limit, expanded, &visited, depth, peak);
            }
            expanded += 1;
            if expanded.is_multiple_of(1024) {
                if cancel.load(Ordering::Relaxed) {
                    return outcome(Verdict::Cancelled, expanded, &visited, depth, peak);
                }
                let used = bytes(&visited, &frontier, &next);
                peak = peak.max(used);
                if used > limits.memory || visited.len() + 8192 > visited::MAX_STATES {
                    return outcome(Verdict::Limit, expanded, &visited, depth, peak);
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
            let parent_fp = visited.fingerprint(index);
            // Step every action first and insert afterwards, in action order,
            // so the successors' visited-set probes are prefetched together.
            // A win ends the stepping: the actions before it are still
            // inserted before the search returns, as one at a time would.
            batch.clear();
            packed.clear();
            let mut won = None;
            for action in 0..actions {
                let from = packed.len();
                let Some(turn) = space.step(words, action, &mut packed) else {
                    continue;
                };
                if turn.pruned || turn.won {
                    packed.truncate(from);
                    if turn.pruned {
                        continue;
                    }
                    won = Some(action);
                    break;
                }
                let fp = fingerprint::update(parent_fp, words, &packed[from..]);
                visited.prefetch(fp);
                batch.push((action as u8, from as u32, fp));
            }
            for (k, &(action, from, fp)) in batch.iter().enumerate() {
                let to = batch.get(k + 1).map_or(packed.len(), |b| b.1 as usize);
                if let Insert::New(i) = visited.insert(fp, index, action) {
                    let words = &packed[from as usize..to];
                    next.push(i);
                    next.push(words.len() as u32);
                    next.extend_from_slice(words);
                }
            }
            if let Some(action) = won {
                let mut route = visited.route(index);
                route.push(action as u8);
                peak = peak.max(bytes(&visited, &frontier, &next));
                return outcome(Verdict::Solved(route), expanded, &visited, depth, peak);
            }
        }
        peak = peak.max(bytes(&visited, &frontier, &next));
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
        depth += 1;
    }
    outcome(Verdict::Unsolved, expanded, &visited, depth, peak)
}

#[cfg(test)]
mod tests;
