//! The satisficing search over pushes: a winning route, not necessarily
//! a shortest one, found best-first by novelty.

use super::corral::Corral;
use super::nodes::Nodes;
use super::packing::Packing;
use super::{Key, Leg, PushSpace, Work};
use crate::solver::matching::UNREACHABLE;
use crate::solver::{pass_may_hold, pool};
use std::sync::atomic::{AtomicBool, Ordering};

/// A winning route found by a best-first search over pushes, not
/// necessarily a shortest one, or `None` when none wins, or `max_nodes`
/// nodes were expanded, or the memory held would pass `max_bytes` (in a
/// `check` run, what the run's pool grants:
/// [`crate::solver::pass_may_hold`]), or the search was cancelled first.
///
/// Nodes are taken by novelty first (a node holding a PUSH thing on a
/// cell, or the player in a cell, that no node of its bound has had
/// before), then by the assignment bound ([`PushSpace::bound`]), then in
/// the order they were found: best-first width search, which finds
/// routes in open rooms where taking nodes by the bound alone keeps
/// shuffling the same crates. A node whose PUSH things fence off a
/// PI-corral is expanded by its fence's pushes alone, or not at all when
/// they have none ([`PushSpace::fence_legs`]): in open rooms most pushes
/// elsewhere only shuffle crates before the corral's must be made anyway.
/// Deterministic: ties go by order found.
pub fn satisfice(
    space: &PushSpace,
    max_nodes: u64,
    max_bytes: usize,
    cancel: &AtomicBool,
) -> Option<Vec<u8>> {
    forward(space, max_nodes, max_bytes, cancel, None)
}

/// [`satisfice`] with nodes ranked, after novelty, by the GOAL cells they
/// leave to cover in the packing order ([`Packing::packed`]), then by the
/// assignment bound: the pass that finds routes into a cluster of GOAL
/// cells in an open room (Microban 144), where the bound alone fills the
/// cluster's rim first.
pub fn satisfice_packed(
    space: &PushSpace,
    max_nodes: u64,
    max_bytes: usize,
    cancel: &AtomicBool,
) -> Option<Vec<u8>> {
    let mut packing = Packing::new(space);
    forward(space, max_nodes, max_bytes, cancel, Some(&mut packing))
}

/// How much one GOAL cell left to pack weighs against the assignment
/// bound's moves in [`satisfice_packed`]'s rank. Microban 144's route
/// comes after about 316 000 nodes with 1, 3, 20 or 1 000: the cells
/// left to pack decide, the bound breaks ties.
const PACKING_WEIGHT: u32 = 20;

/// The pass of [`satisfice`] and [`satisfice_packed`], ranking by the
/// `packing` order when given.
fn forward(
    space: &PushSpace,
    max_nodes: u64,
    max_bytes: usize,
    cancel: &AtomicBool,
    mut packing: Option<&mut Packing>,
) -> Option<Vec<u8>> {
    pool::search_starts();
    let mut work = Work::default();
    let start = space.start_key()?;
    let width = start.len();
    // Keys are kept as the push left them, not as their least image, so
    // each parent-to-child step is one of `legs`.
    let mut nodes = Nodes::new(width, space.cells);
    nodes.first_seen(space.fingerprint(&start));
    let first = space.bound(&start, &mut work);
    if first >= UNREACHABLE || space.frozen_dead(&start, &mut work) {
        return None;
    }
    nodes.add(&start, None, first);
    let mut expanded = 0u64;
    let mut key = start.clone();
    let mut found: Vec<(Key, bool)> = Vec::new();
    while let Some(index) = nodes.take(&mut key) {
        if expanded >= max_nodes {
            return None;
        }
        // What the search holds by the next look: a node has at most four
        // pushes per PUSH thing.
        if expanded.is_multiple_of(1024)
            && (cancel.load(Ordering::Relaxed)
                || !pass_may_hold(
                    nodes.bytes(1024 * 4 * width.saturating_sub(1).max(1)),
                    max_bytes,
                ))
        {
            return None;
        }
        expanded += 1;
        found.clear();
        space.fence_legs(&key, &mut work, |leg, next| {
            found.push((next.clone(), leg.won))
        });
        for (next, won) in &found {
            if *won {
                let chain = nodes.chain(index);
                return Some(replay(space, &nodes, &chain, next, &mut work));
            }
            if !nodes.first_seen(space.fingerprint(next)) || space.frozen_dead(next, &mut work) {
                continue;
            }
            let bound = space.bound(next, &mut work);
            if bound >= UNREACHABLE {
                continue;
            }
            let rank = match packing.as_deref_mut() {
                Some(p) => {
                    let left = space.needed.saturating_sub(p.packed(&next[1..]) as usize);
                    (left as u32)
                        .saturating_mul(PACKING_WEIGHT)
                        .saturating_add(bound)
                }
                None => bound,
            };
            nodes.add(next, Some(index), rank);
        }
    }
    None
}

impl PushSpace<'_> {
    /// The pushes from node `key` a satisficing pass expands: only the
    /// inward pushes of a PI-corral's fence when one needs a change, and
    /// none when such a corral's fence has none ([`PushSpace::corral`]);
    /// pushes that win are always kept.
    pub(super) fn fence_legs(&self, key: &[u32], work: &mut Work, mut leg: impl FnMut(Leg, &Key)) {
        self.flood(key, work);
        let corral = self.corral(key, work);
        let kept = std::mem::take(&mut work.corral_pushes);
        self.legs_flooded(key, work, |l, next| {
            let fence = match corral {
                Corral::Open => true,
                Corral::Dead => false,
                Corral::Fence => kept.contains(&(l.from, l.dir)),
            };
            if l.won || fence {
                leg(l, next);
            }
        });
        work.corral_pushes = kept;
    }
}

/// The moves of a chain of nodes found by [`satisfice`] (each a push's
/// successor of the one before, as `legs` gave it), then the push into
/// `last`: each leg's walk and push, the shortest walk where several
/// pushes give the same node.
fn replay(
    space: &PushSpace,
    nodes: &Nodes,
    chain: &[u32],
    last: &[u32],
    work: &mut Work,
) -> Vec<u8> {
    let mut route = Vec::new();
    let targets = chain[1..]
        .iter()
        .map(|&i| nodes.key(i))
        .chain(std::iter::once(last));
    let mut key: Key = nodes.key(chain[0]).to_vec();
    for want in targets {
        let Some(next) = space.push_to(&key, work, &mut route, |k| k.as_slice() == want) else {
            debug_assert!(false, "a satisficing chain that does not replay");
            return route;
        };
        key = next;
    }
    route
}
