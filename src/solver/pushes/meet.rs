//! The satisficing search from both ends: the forward pass over pushes and
//! the backward pass over pulls, the forward one aimed at the backward
//! one's nodes and stopped where it meets one.
//!
//! **Why both ends.** Some rooms need both halves of the work in one
//! order: crates packed into narrow start pockets that only a few push
//! orders free, and a goal corridor that only one order fills. The forward
//! pass ([`super::satisfice`]) frees the pockets but meets the corridor's
//! wrong orders first; the backward pass ([`super::satisfice_pulls`])
//! empties the corridor but can't pack the pockets. Each only has to do
//! its own half when the other does the rest.
//!
//! **The order.** The backward pass runs first, on half the nodes, as
//! [`super::satisfice_pulls`] does, every node it finds filed by its
//! fingerprint. Then the forward pass runs on the rest, once for each of
//! the [`AIMS`] backward nodes nearest the start by the backward pass's
//! bound (no two with the same PUSH things), in turn and on an equal share:
//! each time ranked by novelty, then by the assignment of its PUSH things
//! to that node's cells instead of to the GOAL cells, then in the order
//! found, so the search is the same on every machine.
//!
//! **Where they meet.** A backward node stands for the player's whole
//! region (its least cell, [`PushSpace::settle`]); a forward node for one
//! cell, where the last push left the player. Each forward node expanded
//! is settled the same way and looked up among every backward node: the
//! same PUSH things and the same least cell of the player's region are one
//! node for both. Then the forward chain of pushes up to the forward node,
//! and from it the backward chain read forwards down to its won room, is
//! the route ([`PushSpace::push_to`] for each step, the shortest walk to
//! it). A wrong meeting (two nodes that share a fingerprint only) leaves a
//! step without a push, and the search goes on; the caller replays the
//! route on the engine before it counts.
//!
//! **Where it runs.** Among the passes after a stopped exact search
//! ([`crate::solver::level::find_route`]), after the one ranked by the
//! packing order ([`super::satisfice_packed`]), with their 8 M nodes (fewer
//! past ten crates: [`crate::solver::level::SATISFICE_MEET_WORK`]): it finds
//! Microban 153's route (1 704 moves once shortened) in about 20 s of
//! them, where the forward pass alone finds none in 8 M nodes and the
//! backward one none in 2 M. On Microban 144 it finds none: the backward
//! nodes nearest the start there are ones the start can't reach, and the
//! forward pass aimed at them ends a push or so short.

use super::nodes::Nodes;
use super::pulls::Backwards;
use super::{Key, PushSpace, Work};
use crate::solver::matching::{Assignment, Segments, UNREACHABLE};
use crate::solver::{hash_set_bytes, pass_may_hold, pool, vec_bytes};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// A winning route found by the backward pass over pulls, then the
/// forward pass aimed at the backward node nearest the start (module
/// comment), not necessarily a shortest one, or `None` when the room is
/// outside the backward pass's reach (as for [`super::satisfice_pulls`]),
/// or `max_nodes` nodes were expanded by the two together (half each, the
/// forward pass taking what the backward one left), or the memory held
/// would pass `max_bytes` ([`crate::solver::pass_may_hold`]), or the
/// search was cancelled, or the forward pass ran out of nodes.
/// Deterministic: ties go by order found.
pub fn satisfice_meet(
    space: &PushSpace,
    max_nodes: u64,
    max_bytes: usize,
    cancel: &AtomicBool,
) -> Option<Vec<u8>> {
    pool::search_starts();
    let start = space.start_key()?;
    let mut work = Work::default();
    let mut backward = Backward::new(space, &start, &mut work)?;
    // A node has at most four pushes or pulls per PUSH thing: what the
    // search holds by the next look.
    let more = 1024 * 4 * start.len().saturating_sub(1).max(1);
    let looks = |expanded: u64, held: usize| {
        expanded.is_multiple_of(1024)
            && (cancel.load(Ordering::Relaxed) || !pass_may_hold(held, max_bytes))
    };
    let mut expanded = 0u64;
    while expanded < max_nodes / 2 {
        if looks(expanded, backward.bytes(more)) {
            return None;
        }
        expanded += 1;
        match backward.step(space, &mut work) {
            Some(Some(route)) => return Some(route),
            Some(None) => {}
            None => return None,
        }
    }
    let targets = backward.nearest(AIMS);
    let slice = (max_nodes - expanded) / targets.len().max(1) as u64;
    for &target in &targets {
        let Some(mut forward) = Forward::new(space, &start, backward.nodes.key(target), &mut work)
        else {
            continue;
        };
        let end = expanded + slice;
        while expanded < end {
            if looks(expanded, backward.bytes(0) + forward.nodes.bytes(more)) {
                return None;
            }
            expanded += 1;
            match forward.step(space, &backward.met, &mut work) {
                Step::Open => {}
                Step::Exhausted => break,
                Step::Route(route) => return Some(route),
                Step::Meet(f, b) => {
                    if let Some(route) =
                        join(space, &forward.nodes, f, &backward.nodes, b, &mut work)
                    {
                        return Some(route);
                    }
                }
            }
        }
    }
    None
}

/// How many backward nodes the forward pass is aimed at in turn.
const AIMS: usize = 8;

/// What one node taken by the forward pass gave.
enum Step {
    /// Nothing yet.
    Open,
    /// No node left.
    Exhausted,
    /// A push wins: this route.
    Route(Vec<u8>),
    /// Forward node (first) is backward node (second).
    Meet(u32, u32),
}

/// The fingerprints of the backward pass's nodes, with their indices in
/// its store: what the forward pass looks its nodes up in.
type Met = HashMap<u128, u32>;

/// The forward pass's side: [`super::satisfice`]'s nodes and order, but
/// ranked by the assignment of its PUSH things to one backward node's.
struct Forward {
    nodes: Nodes,
    aim: Segments,
    assignment: Assignment,
    key: Key,
    settled: Key,
    found: Vec<(Key, bool)>,
}

impl Forward {
    /// The pass from `start` aimed at node `target`'s PUSH things, or
    /// `None` when the start is dead or can't reach them.
    fn new(space: &PushSpace, start: &[u32], target: &[u32], work: &mut Work) -> Option<Forward> {
        let cells: Vec<usize> = target[1..].iter().map(|&c| c as usize).collect();
        let aim = Segments::new(&cells, &space.blocked, space.width);
        let mut assignment = Assignment::default();
        let mut nodes = Nodes::new(start.len(), space.cells);
        nodes.first_seen(space.fingerprint(start));
        let first = aim.bound(&start[1..], &mut assignment);
        if first >= UNREACHABLE || space.frozen_dead(start, work) {
            return None;
        }
        nodes.add(start, None, first);
        Some(Forward {
            nodes,
            aim,
            assignment,
            key: start.to_vec(),
            settled: start.to_vec(),
            found: Vec::new(),
        })
    }

    /// Takes the next node: a push that wins ends the pass, and the node,
    /// settled as the backward pass settles its own, is looked up among
    /// the backward nodes (`other`).
    fn step(&mut self, space: &PushSpace, other: &Met, work: &mut Work) -> Step {
        let Some(index) = self.nodes.take(&mut self.key) else {
            return Step::Exhausted;
        };
        let found = &mut self.found;
        found.clear();
        space.legs(&self.key, work, |leg, next| {
            found.push((next.clone(), leg.won))
        });
        // `legs` left the flood of the node's player in `work`: its
        // region's least cell is the backward pass's player.
        self.settled.clone_from(&self.key);
        if let Some(&least) = work.order.iter().min() {
            self.settled[0] = least;
        }
        if let Some(&b) = other.get(&space.node_fingerprint(&self.settled)) {
            return Step::Meet(index, b);
        }
        for (next, won) in &self.found {
            if *won {
                let mut route = Vec::new();
                let Some(key) = forward_route(space, &self.nodes, index, work, &mut route) else {
                    debug_assert!(false, "a forward chain that does not replay");
                    return Step::Open;
                };
                if space
                    .push_to(&key, work, &mut route, |k| k == next)
                    .is_none()
                {
                    debug_assert!(false, "a winning push that does not replay");
                    return Step::Open;
                }
                return Step::Route(route);
            }
            if !self.nodes.first_seen(space.fingerprint(next)) || space.frozen_dead(next, work) {
                continue;
            }
            let bound = self.aim.bound(&next[1..], &mut self.assignment);
            if bound < UNREACHABLE {
                self.nodes.add(next, Some(index), bound);
            }
        }
        Step::Open
    }
}

/// The backward pass's side: [`super::satisfice_pulls`]'s nodes and order,
/// each node found filed for the forward pass, and the one nearest the
/// start by its bound.
struct Backward {
    nodes: Nodes,
    met: Met,
    start: Key,
    /// The start, settled: the node the backward pass ends at alone.
    target: Key,
    back: Segments,
    assignment: Assignment,
    /// Per node, its bound.
    bounds: Vec<u32>,
    key: Key,
    found: Vec<Key>,
}

impl Backward {
    /// The pass from the won rooms, or `None` outside its reach (as for
    /// [`super::satisfice_pulls`]).
    fn new(space: &PushSpace, start: &[u32], work: &mut Work) -> Option<Backward> {
        let Backwards {
            goals,
            back,
            target,
        } = space.backwards(start, work)?;
        let mut side = Backward {
            nodes: Nodes::new(start.len(), space.cells),
            met: Met::new(),
            start: start.to_vec(),
            target,
            back,
            assignment: Assignment::default(),
            bounds: Vec::new(),
            key: Vec::with_capacity(start.len()),
            found: Vec::new(),
        };
        for root in space.won_rooms(&goals, work) {
            let bound = side.back.bound(&root[1..], &mut side.assignment);
            let fingerprint = space.node_fingerprint(&root);
            if bound >= UNREACHABLE || !side.nodes.first_seen(fingerprint) {
                continue;
            }
            side.file(&root, None, bound, fingerprint);
        }
        Some(side)
    }

    fn file(&mut self, key: &[u32], parent: Option<u32>, bound: u32, fingerprint: u128) {
        let index = self.nodes.add(key, parent, bound);
        self.met.insert(fingerprint, index);
        debug_assert_eq!(index as usize, self.bounds.len());
        self.bounds.push(bound);
    }

    /// The `count` nodes of least bound (the first found among equals),
    /// no two with the same PUSH things.
    fn nearest(&self, count: usize) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.bounds.len() as u32).collect();
        order.sort_by_key(|&i| (self.bounds[i as usize], i));
        let mut picked: Vec<u32> = Vec::new();
        for i in order {
            if picked.len() == count {
                break;
            }
            let things = &self.nodes.key(i)[1..];
            if picked.iter().all(|&p| &self.nodes.key(p)[1..] != things) {
                picked.push(i);
            }
        }
        picked
    }

    fn bytes(&self, more: usize) -> usize {
        vec_bytes::<u32>(self.bounds.len(), self.bounds.capacity(), more)
            + self.nodes.bytes(more)
            + hash_set_bytes::<(u128, u32)>(self.met.len(), self.met.capacity(), more)
    }

    /// Takes the next node and files the nodes its pulls find: `None`
    /// when no node is left, `Some(Some(route))` when a pull reaches the
    /// start.
    fn step(&mut self, space: &PushSpace, work: &mut Work) -> Option<Option<Vec<u8>>> {
        let index = self.nodes.take(&mut self.key)?;
        let mut found = std::mem::take(&mut self.found);
        found.clear();
        space.pulls(&self.key, work, |next| found.push(next.to_vec()));
        let mut route = None;
        for next in &mut found {
            space.settle(next, work);
            if *next == self.target {
                let mut chain = self.nodes.chain(index);
                chain.reverse();
                route = space.pushes_along(&self.start, &self.nodes, &chain, work);
                break;
            }
            let fingerprint = space.node_fingerprint(next);
            if !self.nodes.first_seen(fingerprint) {
                continue;
            }
            let bound = self.back.bound(&next[1..], &mut self.assignment);
            if bound < UNREACHABLE {
                self.file(next, Some(index), bound, fingerprint);
            }
        }
        self.found = found;
        Some(route)
    }
}

/// Appends to `route` the pushes of the forward chain from the start to
/// forward node `index`, and returns that node's key (`None` if a step has
/// no push).
fn forward_route(
    space: &PushSpace,
    nodes: &Nodes,
    index: u32,
    work: &mut Work,
    route: &mut Vec<u8>,
) -> Option<Key> {
    let chain = nodes.chain(index);
    let mut key: Key = nodes.key(chain[0]).to_vec();
    for &i in &chain[1..] {
        let want = nodes.key(i);
        key = space.push_to(&key, work, route, |k| k.as_slice() == want)?;
    }
    Some(key)
}

/// The route through forward node `f` and backward node `b`, one node
/// (module comment): the forward chain up to `f`, then the backward chain
/// from `b` read forwards down to its won room. `None` when a step has no
/// push: `f` and `b` shared a fingerprint only.
fn join(
    space: &PushSpace,
    forward: &Nodes,
    f: u32,
    backward: &Nodes,
    b: u32,
    work: &mut Work,
) -> Option<Vec<u8>> {
    let mut route = Vec::new();
    let key = forward_route(space, forward, f, work, &mut route)?;
    if key[1..] != backward.key(b)[1..] {
        return None;
    }
    // From `b` towards its root: each parent is one push on.
    let mut chain = backward.chain(b);
    chain.reverse();
    route.extend(space.pushes_along(&key, backward, &chain[1..], work)?);
    Some(route)
}

#[cfg(test)]
mod tests {
    use super::super::test_rooms::{GOAL_CORRIDOR, room, sealed, space_of, walled, wins};
    use super::super::{satisfice, satisfice_pulls, search};
    use super::*;
    use crate::solver::{Limits, Verdict};
    use proptest::prelude::*;

    /// An open room of five crates, three ways to a dock blocked by walls
    /// and things: within 100 nodes neither pass alone has a route (the
    /// forward one needs about 700, the backward one about 1 300), but the
    /// forward pass aimed at the backward one's nodes meets one, and the
    /// joined route wins.
    #[test]
    fn the_join_finds_what_neither_pass_finds_alone() {
        let game = walled(
            "MIAU! IS! YOU!\nCRATE! IS! PUSH!\nDOCK! IS! GOAL!\nWALL! IS! STOP!\n\
             . . . . . . . .\n\
             . f # o . f . .\n\
             . o # . f # . .\n\
             . $ $ $ $ . f .\n\
             . . $ . . # . .\n\
             . o . o o . @ .\n\
             . . . . . . . .",
        );
        let space = space_of(&game).expect("a sealed room");
        let cancel = AtomicBool::new(false);
        assert_eq!(satisfice(&space, 100, 1 << 28, &cancel), None);
        assert_eq!(satisfice_pulls(&space, 100, 1 << 28, &cancel), None);
        let route = satisfice_meet(&space, 100, 1 << 28, &cancel).expect("a joined route");
        assert!(wins(&game, &route), "{route:?}");
    }

    /// A goal corridor filled deepest first: the route found wins.
    #[test]
    fn a_goal_corridor_route_wins() {
        let game = sealed(GOAL_CORRIDOR);
        let space = space_of(&game).expect("a sealed room");
        let route =
            satisfice_meet(&space, 1000, 1 << 28, &AtomicBool::new(false)).expect("a route");
        assert!(wins(&game, &route), "{route:?}");
    }

    /// A cancelled search stops at its first look; more crates than docks
    /// are outside the backward pass's reach.
    #[test]
    fn cancelled_or_spare_crates_give_no_route() {
        let game = sealed("@ $ . o .");
        let space = space_of(&game).expect("a sealed room");
        assert_eq!(
            satisfice_meet(&space, 1000, 1 << 20, &AtomicBool::new(true)),
            None
        );
        assert!(satisfice_meet(&space, 1000, 1 << 20, &AtomicBool::new(false)).is_some());
        let game = sealed(". $ $ o @");
        let space = space_of(&game).expect("a sealed room");
        assert_eq!(
            satisfice_meet(&space, 1000, 1 << 20, &AtomicBool::new(false)),
            None
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Against the exact push search on random rooms: a route found,
        /// on any budget, wins on the engine, and none is found on a room
        /// the exact search proves unsolvable.
        #[test]
        fn joined_routes_agree_with_the_push_search(b in room(), nodes in 2u64..400) {
            let game = walled(&b);
            let Some(space) = space_of(&game) else {
                return Ok(());
            };
            let cancel = AtomicBool::new(false);
            let limits = Limits { states: 200_000, memory: 1 << 28 };
            let exact = search(&space, limits, None, &cancel, &mut |_| {});
            if let Some(route) = satisfice_meet(&space, nodes, 1 << 28, &cancel) {
                prop_assert!(wins(&game, &route), "{:?} does not win on\n{}", route, b);
                prop_assert!(exact.verdict != Verdict::Unsolved, "a route on an unsolvable room\n{}", b);
            }
        }
    }
}
