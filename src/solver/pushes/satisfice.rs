//! The satisficing search over pushes: a winning route, not necessarily
//! a shortest one, found best-first by novelty.

use super::{Key, Leg, PushSpace, Work};
use crate::solver::matching::UNREACHABLE;
use crate::solver::{hash_set_bytes, pass_may_hold, pool, vec_bytes};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
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
/// shuffling the same crates. Deterministic: ties go by order found.
pub fn satisfice(
    space: &PushSpace,
    max_nodes: u64,
    max_bytes: usize,
    cancel: &AtomicBool,
) -> Option<Vec<u8>> {
    pool::search_starts();
    let mut work = Work::default();
    let start = space.start_key()?;
    let width = start.len();
    // Every node found: its key (as the push left it, not its least
    // image, so each parent-to-child step is one of `legs`) and parent.
    let mut keys: Vec<u32> = start.clone();
    let mut parents: Vec<u32> = vec![u32::MAX];
    let mut seen: HashSet<u128> = HashSet::new();
    seen.insert(space.fingerprint(&start));
    let first = space.bound(&start, &mut work);
    if first >= UNREACHABLE || space.frozen_dead(&start, &mut work) {
        return None;
    }
    // Novelty: (bound, atom) pairs met so far; an atom is a PUSH thing's
    // cell, or the player's cell offset past them.
    let mut met: HashSet<(u32, u32)> = HashSet::new();
    let cells = space.cells as u32;
    let novel = |met: &mut HashSet<(u32, u32)>, bound: u32, key: &[u32]| {
        let mut new = met.insert((bound, cells + key[0]));
        for &c in &key[1..] {
            new |= met.insert((bound, c));
        }
        new
    };
    novel(&mut met, first, &start);
    let mut open = BinaryHeap::new();
    open.push(Reverse((false, first, 0u32)));
    let mut expanded = 0u64;
    let mut key = start.clone();
    let mut found: Vec<(Key, bool)> = Vec::new();
    while let Some(Reverse((_, _, index))) = open.pop() {
        if expanded >= max_nodes {
            return None;
        }
        if expanded.is_multiple_of(1024) {
            // What the search holds by the next look: a node has at most
            // four pushes per PUSH thing.
            let nodes = 1024 * 4 * width.saturating_sub(1).max(1);
            let bytes = vec_bytes::<u32>(keys.len(), keys.capacity(), nodes * width)
                + vec_bytes::<u32>(parents.len(), parents.capacity(), nodes)
                + hash_set_bytes::<u128>(seen.len(), seen.capacity(), nodes)
                + hash_set_bytes::<(u32, u32)>(met.len(), met.capacity(), nodes * width)
                + vec_bytes::<Reverse<(bool, u32, u32)>>(open.len(), open.capacity(), nodes);
            if cancel.load(Ordering::Relaxed) || !pass_may_hold(bytes, max_bytes) {
                return None;
            }
        }
        expanded += 1;
        let at = index as usize * width;
        key.clear();
        key.extend_from_slice(&keys[at..at + width]);
        found.clear();
        space.legs(&key, &mut work, |leg, next| {
            found.push((next.clone(), leg.won))
        });
        for (next, won) in &found {
            if *won {
                let mut chain = vec![index];
                while let Some(&p) = chain.last().and_then(|&i| parents.get(i as usize)) {
                    if p == u32::MAX {
                        break;
                    }
                    chain.push(p);
                }
                chain.reverse();
                return Some(replay(space, &keys, width, &chain, next, &mut work));
            }
            if !seen.insert(space.fingerprint(next)) || space.frozen_dead(next, &mut work) {
                continue;
            }
            let bound = space.bound(next, &mut work);
            if bound >= UNREACHABLE {
                continue;
            }
            let new = novel(&mut met, bound, next);
            keys.extend_from_slice(next);
            parents.push(index);
            open.push(Reverse((!new, bound, parents.len() as u32 - 1)));
        }
    }
    None
}

/// The moves of a chain of nodes found by [`satisfice`] (each a push's
/// successor of the one before, as `legs` gave it), then the push into
/// `last`: each leg's walk and push, the shortest walk where several
/// pushes give the same node.
fn replay(
    space: &PushSpace,
    keys: &[u32],
    width: usize,
    chain: &[u32],
    last: &[u32],
    work: &mut Work,
) -> Vec<u8> {
    let node = |i: u32| &keys[i as usize * width..(i as usize + 1) * width];
    let mut route = Vec::new();
    let targets = chain[1..]
        .iter()
        .map(|&i| node(i))
        .chain(std::iter::once(last));
    let mut key: Key = node(chain[0]).to_vec();
    for want in targets {
        let mut leg_found: Option<Leg> = None;
        space.legs(&key, work, |leg, k| {
            if k.as_slice() == want && leg_found.is_none_or(|f| leg.walk < f.walk) {
                leg_found = Some(leg);
            }
        });
        let Some(leg) = leg_found else {
            debug_assert!(false, "a satisficing chain that does not replay");
            return route;
        };
        space.walk_to(leg.from, work, &mut route);
        route.push(leg.dir);
        key = want.to_vec();
    }
    route
}
