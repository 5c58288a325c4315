//! Shortening a winning route by short detours searched around it.
//!
//! A satisficing route ([`super::satisfice`]) wins but wanders: it goes where
//! novelty led it. Every state on it is a place a short breadth-first search
//! can start from: if, within a few steps, that search meets a state the
//! route only reaches later (or a win), the steps in between are replaced by
//! the shorter way. Walking the route from the start and always taking the
//! farthest such jump gives a route that is never longer and often much
//! shorter, which is both a better answer to show an author ("the level can
//! be won in N steps") and a tighter bound for the shortest-route search.
//!
//! Deterministic: actions are tried in index order, the local searches are
//! breadth first, ties go to the first found. The result is checked by
//! replaying it; should it not win (it always should), the route given is
//! returned unchanged.

use super::{Space, fingerprint, hash_set_bytes, pass_may_hold};
use std::collections::{HashMap, HashSet};

/// How far each local search looks, in steps.
pub const RADIUS: u32 = 8;

/// States each local search may expand.
pub const LOCAL_STATES: usize = 4_000;

/// The states along `route` from the start: `states[k]` is the state after
/// `k` steps, for every step before the winning one. `None` when the route
/// doesn't replay to a win on its last step, or passes a turn the space
/// prunes.
pub(crate) fn states_along<S: Space>(space: &S, route: &[u8]) -> Option<Vec<Vec<u32>>> {
    let mut state = Vec::new();
    space.start(&mut state);
    let mut out = vec![state];
    for (k, &action) in route.iter().enumerate() {
        let from = out.last()?;
        space.enter(from);
        let mut next = Vec::with_capacity(from.len());
        let turn = space.step(from, usize::from(action), &mut next)?;
        // As in the search: a pruned turn has no successor, won or not.
        if turn.pruned {
            return None;
        }
        if turn.won {
            return (k + 1 == route.len()).then_some(out);
        }
        out.push(next);
    }
    None
}

/// Where a local search got: the farthest state of the route it met (or a
/// win), and the actions leading there from where it started.
struct Jump {
    /// The route's index it lands on; `None`: the path wins.
    to: Option<usize>,
    /// The actions from the state the search started at.
    path: Vec<u8>,
}

/// Breadth-first search from `from`, the route's state `i` (its
/// fingerprint `from_fp`), for at most [`RADIUS`] steps and
/// [`LOCAL_STATES`] expansions: the best jump it finds, a win first, else
/// the route's latest state met, provided it saves steps.
fn jump<S: Space>(
    space: &S,
    from: &[u32],
    from_fp: u128,
    later: &HashMap<u128, usize>,
    i: usize,
    remaining: usize,
) -> Option<Jump> {
    // Local nodes: (words, parent, action).
    let mut nodes: Vec<(Vec<u32>, usize, u8)> = vec![(from.to_vec(), usize::MAX, 0)];
    let mut seen: HashSet<u128> = HashSet::from([from_fp]);
    let path = |nodes: &[(Vec<u32>, usize, u8)], mut at: usize, last: Option<u8>| {
        let mut p: Vec<u8> = last.into_iter().collect();
        while at != 0 {
            p.push(nodes[at].2);
            at = nodes[at].1;
        }
        p.reverse();
        p
    };
    // The best jump so far: (steps saved, the route's index met, node).
    let mut best: Option<(usize, usize, usize)> = None;
    let mut layer = 0..1;
    let mut depth = 0u32;
    let mut expanded = 0usize;
    while depth < RADIUS && !layer.is_empty() {
        let next_start = nodes.len();
        for at in layer.clone() {
            if expanded >= LOCAL_STATES {
                break;
            }
            expanded += 1;
            let words = nodes[at].0.clone();
            space.enter(&words);
            for action in 0..space.action_count() {
                let mut next = Vec::with_capacity(words.len());
                let Some(turn) = space.step(&words, action, &mut next) else {
                    continue;
                };
                if turn.pruned {
                    continue;
                }
                if turn.won {
                    // The nearest win from here (the search is breadth
                    // first): no jump can finish sooner. Taken when the
                    // route would need more steps.
                    if (depth as usize + 1) < remaining {
                        return Some(Jump {
                            to: None,
                            path: path(&nodes, at, Some(action as u8)),
                        });
                    }
                    continue;
                }
                let fp = fingerprint::of_words(&next);
                if !seen.insert(fp) {
                    continue;
                }
                nodes.push((next, at, action as u8));
                // Most steps saved; the first found on a tie.
                let steps = depth as usize + 1;
                if let Some(&j) = later.get(&fp)
                    && j > i + steps
                    && best.is_none_or(|(saved, _, _)| j - i - steps > saved)
                {
                    best = Some((j - i - steps, j, nodes.len() - 1));
                }
            }
        }
        layer = next_start..nodes.len();
        depth += 1;
    }
    best.map(|(_, j, n)| Jump {
        to: Some(j),
        path: path(&nodes, n, None),
    })
}

/// `route`, a winning route of `space`, with detours found by short local
/// searches replacing the steps they skip (see the module's text). Never
/// longer than `route`; `route` itself when it doesn't replay to a win.
pub fn shorten<S: Space>(space: &S, route: &[u8]) -> Vec<u8> {
    super::pool::search_starts();
    if !pass_may_hold(bytes_at_most(space, route.len()), usize::MAX) {
        return route.to_vec();
    }
    let Some(states) = states_along(space, route) else {
        return route.to_vec();
    };
    let fps: Vec<u128> = states.iter().map(|s| fingerprint::of_words(s)).collect();
    // Each state's latest place on the route (a route may pass a state twice).
    let later: HashMap<u128, usize> = fps.iter().enumerate().map(|(k, &fp)| (fp, k)).collect();
    let mut out = Vec::with_capacity(route.len());
    let mut i = 0usize;
    while i < route.len() {
        // A state met again later on the route: skip the loop outright.
        if let Some(&j) = later.get(&fps[i])
            && j > i
        {
            i = j;
            continue;
        }
        match jump(space, &states[i], fps[i], &later, i, route.len() - i) {
            Some(Jump { to: None, path }) => {
                out.extend(path);
                return checked(space, out, route);
            }
            Some(Jump { to: Some(j), path }) => {
                out.extend(path);
                i = j;
            }
            None => {
                out.push(route[i]);
                i += 1;
            }
        }
    }
    checked(space, out, route)
}

/// What [`shorten`] holds at most for a route of `steps` steps: each state
/// along the route whole, with its fingerprint and place, and a local
/// search's nodes (a state each, [`LOCAL_STATES`] expansions of every
/// action). A vector's allocation is counted with the allocator's header
/// beside its words. In a `check` run this is drawn from the run's pool
/// ([`super::pass_may_hold`]) before anything is held: a route the pool
/// has no room for is given back unshortened.
fn bytes_at_most<S: Space>(space: &S, steps: usize) -> usize {
    let mut start = Vec::new();
    space.start(&mut start);
    let state = start.len() * 4 + std::mem::size_of::<Vec<u32>>() + 16;
    let along = (steps + 1) * (state + 16) + hash_set_bytes::<(u128, usize)>(0, 0, steps + 1);
    let nodes = LOCAL_STATES * space.action_count() + 1;
    let local = nodes * (state + 16) + hash_set_bytes::<u128>(0, 0, nodes);
    along + local
}

/// `shorter` when it wins and is no longer than `route`, else `route`.
fn checked<S: Space>(space: &S, shorter: Vec<u8>, route: &[u8]) -> Vec<u8> {
    if shorter.len() <= route.len() && states_along(space, &shorter).is_some() {
        shorter
    } else {
        route.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, testkit};
    use crate::solver::level::{Constraints, LevelSpace, route_text};

    const OPEN: &str = "MIAU IS YOU . .\n\
                        FLAG IS WIN . .\n\
                        . . . . . .\n\
                        m . . . . f";

    /// The actions of a route written in `U D L R`.
    fn actions(route: &str) -> Vec<u8> {
        route
            .chars()
            .map(|c| "UDLR".find(c).unwrap_or(0) as u8)
            .collect()
    }

    /// A wandering route (a loop back to the start, a detour up and down)
    /// becomes the straight walk.
    #[test]
    fn a_wandering_route_becomes_the_straight_one() {
        let game = Game::new(&testkit::level(OPEN));
        let space = LevelSpace::new(&game, Constraints::default());
        let wandering = actions("RLRURDRRR");
        assert!(space.wins(&wandering));
        let short = shorten(&space, &wandering);
        assert_eq!(route_text(space.inputs(), &short), "RRRRR");
    }

    /// A route that doesn't win comes back as it was.
    #[test]
    fn a_route_that_does_not_win_is_left_alone() {
        let game = Game::new(&testkit::level(OPEN));
        let space = LevelSpace::new(&game, Constraints::default());
        for route in ["RLRL", "RRRRRR", ""] {
            assert_eq!(shorten(&space, &actions(route)), actions(route));
        }
    }
}
