//! The shortest-route search over pushes: A* over the nodes, settled
//! from buckets by moves plus bound, then bound left.

use super::buckets::{Bucket, BucketReader, Codec, file};
use super::{Key, Leg, PushSpace, Work};
use crate::solver::matching::UNREACHABLE;
use crate::solver::visited::{self, Insert, Visited};
use crate::solver::{LimitKind, Limits, Outcome, Progress, Verdict, memory_allows, pool};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// A successor waiting for its insert.
struct Successor {
    moves: u32,
    /// Its bucket as far as the cheap bound tells: moves plus bound.
    bound: u32,
    /// The push direction.
    dir: u8,
    fp: u128,
    /// The cell the pushed PUSH thing counts as moved to
    /// ([`PushSpace::bound_after`]).
    past: u32,
    /// Which of its images the search keeps ([`PushSpace::least_image`]).
    image: u8,
}

/// Per stored node, the fewest moves found to it while it waits, or that
/// it is settled (then its moves no longer matter: it is never filed
/// again, and routes are rebuilt from the visited set's links). One byte a
/// node while every count is under 255, two while under 65 535, four
/// beyond: each width's largest value marks a settled node. Most sealed
/// rooms' routes are under 255 moves, so most searches pay a byte a node.
#[derive(Debug)]
enum MovesTo {
    Byte(Vec<u8>),
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for MovesTo {
    fn default() -> Self {
        MovesTo::Byte(Vec::new())
    }
}

impl MovesTo {
    /// Node `i`'s fewest moves so far, or `None` once it is settled.
    fn get(&self, i: u32) -> Option<u32> {
        let i = i as usize;
        match self {
            MovesTo::Byte(v) => (v[i] != u8::MAX).then(|| u32::from(v[i])),
            MovesTo::Narrow(v) => (v[i] != u16::MAX).then(|| u32::from(v[i])),
            MovesTo::Wide(v) => (v[i] != u32::MAX).then_some(v[i]),
        }
    }

    /// Marks node `i` settled.
    fn settle(&mut self, i: u32) {
        let i = i as usize;
        match self {
            MovesTo::Byte(v) => v[i] = u8::MAX,
            MovesTo::Narrow(v) => v[i] = u16::MAX,
            MovesTo::Wide(v) => v[i] = u32::MAX,
        }
    }

    /// Widens the counts until `m` fits below the width's marker (once or
    /// twice in a search at most).
    fn fit(&mut self, m: u32) {
        debug_assert!(m < u32::MAX, "a route of 2^32 moves");
        loop {
            let wider = match self {
                MovesTo::Byte(v) if m >= u32::from(u8::MAX) => MovesTo::Narrow(
                    v.iter()
                        .map(|&c| if c == u8::MAX { u16::MAX } else { u16::from(c) })
                        .collect(),
                ),
                MovesTo::Narrow(v) if m >= u32::from(u16::MAX) => MovesTo::Wide(
                    v.iter()
                        .map(|&c| {
                            if c == u16::MAX {
                                u32::MAX
                            } else {
                                u32::from(c)
                            }
                        })
                        .collect(),
                ),
                _ => return,
            };
            *self = wider;
        }
    }

    /// Sets node `i`'s fewest moves to `m` (not settled).
    fn set(&mut self, i: u32, m: u32) {
        self.fit(m);
        let i = i as usize;
        match self {
            MovesTo::Byte(v) => v[i] = m as u8,
            MovesTo::Narrow(v) => v[i] = m as u16,
            MovesTo::Wide(v) => v[i] = m,
        }
    }

    /// Appends a node found for `m` moves (not settled).
    fn push(&mut self, m: u32) {
        self.fit(m);
        match self {
            MovesTo::Byte(v) => {
                crate::solver::make_room(v, 1, 1);
                v.push(m as u8);
            }
            MovesTo::Narrow(v) => {
                crate::solver::make_room(v, 1, 1);
                v.push(m as u16);
            }
            MovesTo::Wide(v) => {
                crate::solver::make_room(v, 1, 1);
                v.push(m);
            }
        }
    }

    fn bytes(&self) -> usize {
        match self {
            MovesTo::Byte(v) => v.capacity(),
            MovesTo::Narrow(v) => v.capacity() * 2,
            MovesTo::Wide(v) => v.capacity() * 4,
        }
    }
}

/// Searches `space` (see the module comment) within `limits`.
///
/// A known route (a satisficing one, [`super::satisfice`]) bounds the
/// search: only routes shorter than it are looked for, and when none is
/// found it is a shortest one. A search that stops early reports it as
/// found.
pub fn search(
    space: &PushSpace,
    limits: Limits,
    known: Option<Vec<u8>>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    pool::search_starts();
    let upper = known.as_ref().map(|r| r.len() as u32);
    let (mut run, start) = match Search::begin(space, limits, upper, cancel) {
        Ok(begun) => begun,
        Err(out) => return out,
    };
    let mut keys = Keys {
        key: start.clone(),
        ahead: start.clone(),
        after: start,
    };
    if let Some(mut out) = run.settle_buckets(&mut keys, progress) {
        if matches!(out.verdict, Verdict::Limit | Verdict::Cancelled) {
            out.found = known;
        }
        return out;
    }
    run.finish(known)
}

/// Whether a route of at least `bound` moves can be no better than the
/// best win so far, or than the known route's `upper` moves.
fn beaten(best: &Option<(u32, u32, Leg)>, upper: Option<u32>, bound: u32) -> bool {
    best.map(|(m, ..)| m).or(upper).is_some_and(|m| bound >= m)
}

/// The node being expanded and the two read ahead of it ([`Search::settle_bucket`]).
struct Keys {
    key: Vec<u32>,
    ahead: Vec<u32>,
    after: Vec<u32>,
}

/// One run of [`search`]: the visited set, the pending buckets, the best
/// win and the figures, with the buffers the expansions reuse.
struct Search<'a, 'g> {
    space: &'a PushSpace<'g>,
    limits: Limits,
    cancel: &'a AtomicBool,
    /// The known route's length: only shorter routes are looked for.
    upper: Option<u32>,
    /// A node costs microseconds, an insert a fraction of one: the set's
    /// bytes matter more here than its probe runs ([`Visited::compact`]).
    visited: Visited,
    work: Work,
    /// Per stored node, the fewest moves found to it, or that it is
    /// settled.
    moves_to: MovesTo,
    codec: Codec,
    /// Pending nodes by bucket (moves plus bound, bound left), each its
    /// key, and the bytes the buckets hold.
    pending: BTreeMap<(u32, u32), Bucket>,
    pending_bytes: usize,
    /// The best win so far: (moves, the node it leaves from, the leg).
    best: Option<(u32, u32, Leg)>,
    expanded: u64,
    peak: usize,
    depth: u32,
    /// One node's successors ([`Successor`]) and their keys, one after
    /// another.
    found: Vec<Successor>,
    found_keys: Vec<u32>,
    /// The cheap bound's buffer.
    scratch: Vec<u32>,
    /// The image sets of the node being expanded and of one successor.
    parent_sets: Vec<u128>,
    sets: Vec<u128>,
    /// The image of a successor filed, and the scratch to make it.
    kept: Vec<u32>,
    image: Vec<u32>,
}

impl<'a, 'g> Search<'a, 'g> {
    /// The run with the start node stored and filed, and that node's key;
    /// the outcome instead when there is no start or no win from it.
    fn begin(
        space: &'a PushSpace<'g>,
        limits: Limits,
        upper: Option<u32>,
        cancel: &'a AtomicBool,
    ) -> Result<(Self, Key), Outcome> {
        let mut visited = Visited::compact();
        let mut work = Work::default();
        let Some(mut start) = space.start_key() else {
            return Err(ended(Verdict::Unsolved, None, &visited, 0, 0, 0));
        };
        // Nodes are kept as the least of their images (`PushSpace::canonical`).
        let mut image = Vec::new();
        space.canonical(&mut start, &mut image);
        let mut moves_to = MovesTo::default();
        let codec = space.codec(&start);
        let fp = space.fingerprint(&start) & visited::KEPT;
        let _ = visited.insert(fp, u32::MAX, 0);
        moves_to.push(0);
        let first = space.bound(&start, &mut work);
        if first >= UNREACHABLE || space.frozen_dead(&start, &mut work) {
            return Err(ended(Verdict::Unsolved, None, &visited, 0, 0, 0));
        }
        let mut run = Search {
            space,
            limits,
            cancel,
            upper,
            visited,
            work,
            moves_to,
            codec,
            pending: BTreeMap::new(),
            pending_bytes: 0,
            best: None,
            expanded: 0,
            peak: 0,
            depth: 0,
            found: Vec::new(),
            found_keys: Vec::new(),
            scratch: Vec::new(),
            parent_sets: Vec::new(),
            sets: Vec::new(),
            kept: Vec::new(),
            image,
        };
        file(
            &mut run.pending,
            &mut run.pending_bytes,
            (first, first),
            &start,
            &run.codec,
        );
        Ok((run, start))
    }

    /// The bytes the search holds: the visited set, the move counts and
    /// the pending buckets.
    fn bytes(&self) -> usize {
        self.visited.bytes() + self.moves_to.bytes() + self.pending_bytes
    }

    /// Takes the buckets in order until one cannot beat the best win, or
    /// none is left; the outcome when the search ends early (limits, or
    /// cancelled).
    ///
    /// Buckets are by moves plus a lower bound on the moves left (the full
    /// one, `PushSpace::bound`, an assignment, worked out when a node is
    /// filed), so a bucket's nodes lead to no win shorter than its number,
    /// and a node taken from a bucket has its moves and bound in hand: no
    /// entry is ever filed twice for one cost. (Filed under a cheaper
    /// bound and moved on once the full one was known, four entries in ten
    /// were such moves on the open rooms, each holding a whole key.) The
    /// cheap bound only rules successors out before their insert.
    ///
    /// Within one number, buckets go by the bound left, least first: the
    /// nodes nearest a win are taken first, so in the last number, where
    /// the win is, it is found before most of that number's nodes are
    /// taken, and the search stops there. Any order within a number keeps
    /// a node's first settling at its fewest moves: a shorter way to it
    /// would file it under a lower number (its bound is the same), whose
    /// nodes on that way all come first.
    fn settle_buckets(
        &mut self,
        keys: &mut Keys,
        progress: &mut dyn FnMut(Progress),
    ) -> Option<Outcome> {
        while let Some(((bound, _), nodes)) = self.pending.pop_first() {
            if beaten(&self.best, self.upper, bound) {
                self.pending_bytes -= nodes.bytes();
                break;
            }
            self.depth = bound;
            progress(Progress {
                expanded: self.expanded,
                stored: self.visited.len() as u64,
                depth: self.depth,
            });
            if let Some(out) = self.settle_bucket(&nodes, bound, keys, progress) {
                return Some(out);
            }
            self.peak = self.peak.max(self.bytes());
            self.pending_bytes -= nodes.bytes();
        }
        None
    }

    /// Expands the nodes of bucket `nodes` (number `bound`) in order,
    /// until a win at that number; the outcome when the search ends early.
    ///
    /// Every node filed is stored, under its own fingerprint (it is its
    /// least image). Nodes are read two ahead of the one expanded: the
    /// visited set's slot for the second and then the fingerprint it
    /// points to for the first load meanwhile (a block's nodes come in
    /// the order of their numbers, so their indexes are far apart).
    fn settle_bucket(
        &mut self,
        nodes: &Bucket,
        bound: u32,
        keys: &mut Keys,
        progress: &mut dyn FnMut(Progress),
    ) -> Option<Outcome> {
        let space = self.space;
        let mut reader = nodes.reader();
        let read = |reader: &mut BucketReader, key: &mut Vec<u32>, run: &Self| {
            reader.next(key, &run.codec)?;
            let fp = space.own_fingerprint(key);
            run.visited.prefetch(fp);
            Some(fp)
        };
        let mut next = read(&mut reader, &mut keys.ahead, self);
        let mut after = read(&mut reader, &mut keys.after, self);
        while let Some(fp) = next {
            std::mem::swap(&mut keys.key, &mut keys.ahead);
            std::mem::swap(&mut keys.ahead, &mut keys.after);
            next = after;
            if let Some(fp) = next {
                self.visited.prefetch_fingerprint(fp);
            }
            after = read(&mut reader, &mut keys.after, self);
            let Some(index) = self.visited.find(fp) else {
                debug_assert!(false, "a pending node that is not stored");
                continue;
            };
            // A node found again for fewer moves has a newer entry, taken
            // first (its bucket is lower) and settled then.
            let Some(cost) = self.moves_to.get(index) else {
                continue;
            };
            // A successor's bucket is no lower than its parent's (the
            // bound is consistent), so an unsettled node's bucket is the
            // one filed for its fewest moves.
            debug_assert!(cost <= bound, "a consistent bound");
            let left = bound.saturating_sub(cost);
            self.moves_to.settle(index);
            if let Some(out) = self.count_expansion(progress) {
                return Some(out);
            }
            // The node's successors first, then their inserts: the
            // visited set's cache misses are started together (prefetch)
            // rather than met one after another. Inserts keep the order
            // the successors were found in, so nothing else changes.
            self.find_successors(&keys.key, index, cost, left);
            self.file_successors(&keys.key, index);
            // A win at this bucket's number is a shortest one: no node
            // here or in a later bucket leads to a shorter.
            if self.best.is_some_and(|(m, ..)| m <= bound) {
                break;
            }
        }
        None
    }

    /// Counts one more node expanded; the outcome when the state budget,
    /// the memory cap or a cancel ends the search first. Cancel and memory
    /// are checked every 1024 nodes, progress reported every 4096.
    fn count_expansion(&mut self, progress: &mut dyn FnMut(Progress)) -> Option<Outcome> {
        if self.expanded >= self.limits.states {
            let used = self.bytes();
            return Some(ended(
                Verdict::Limit,
                Some(LimitKind::States),
                &self.visited,
                self.expanded,
                self.depth,
                self.peak.max(used),
            ));
        }
        self.expanded += 1;
        if self.expanded.is_multiple_of(1024) {
            let used = self.bytes();
            self.peak = self.peak.max(used);
            if self.cancel.load(Ordering::Relaxed) {
                return Some(ended(
                    Verdict::Cancelled,
                    None,
                    &self.visited,
                    self.expanded,
                    self.depth,
                    self.peak,
                ));
            }
            if let Err((verdict, limit)) = memory_allows(used, self.visited.len(), &self.limits) {
                let (expanded, depth, peak) = (self.expanded, self.depth, self.peak);
                return Some(ended(verdict, limit, &self.visited, expanded, depth, peak));
            }
            if self.expanded.is_multiple_of(4096) {
                progress(Progress {
                    expanded: self.expanded,
                    stored: self.visited.len() as u64,
                    depth: self.depth,
                });
            }
        }
        None
    }

    /// The successors of node `key` (stored as `index`, reached in `cost`
    /// moves, `left` its bound left) into `found` and `found_keys`, each
    /// with its fingerprint as the search keeps it; a win becomes the best
    /// when it beats it, and is not listed.
    fn find_successors(&mut self, key: &[u32], index: u32, cost: u32, left: u32) {
        let space = self.space;
        let upper = self.upper;
        let (found, found_keys) = (&mut self.found, &mut self.found_keys);
        let (best, scratch) = (&mut self.best, &mut self.scratch);
        let (parent_sets, sets) = (&mut self.parent_sets, &mut self.sets);
        found.clear();
        found_keys.clear();
        space.image_sets(&key[1..], parent_sets);
        space.legs(key, &mut self.work, |leg, next| {
            let moves = cost + leg.walk + 1;
            let bound = if leg.won {
                moves
            } else {
                let inherited = left.saturating_sub(leg.walk + 1);
                moves + space.estimate(next, scratch).max(inherited)
            };
            if beaten(best, upper, bound) {
                return;
            }
            if leg.won {
                *best = Some((moves, index, leg));
                return;
            }
            // Stored as the least of its images: its fingerprint now,
            // the image itself only if it is filed.
            found_keys.extend_from_slice(next);
            space.moved_sets(parent_sets, next[0], leg.past, sets);
            let (fp, which) = space.least_image(next[0], sets, next.len());
            debug_assert_eq!(
                fp,
                space.fingerprint(next),
                "a successor's image sets follow from its parent's"
            );
            let fp = fp & visited::KEPT;
            found.push(Successor {
                moves,
                bound,
                dir: leg.dir,
                fp,
                past: leg.past,
                image: which as u8,
            });
        });
    }

    /// Inserts the successors [`Search::find_successors`] listed for node
    /// `key` (stored as `index`), in order, and files each new one or one
    /// found for fewer moves under its full bound, as its least image; a
    /// successor with no win ahead is settled unfiled.
    fn file_successors(&mut self, key: &[u32], index: u32) {
        for s in &self.found {
            self.visited.prefetch(s.fp);
        }
        for s in &self.found {
            self.visited.prefetch_fingerprint(s.fp);
        }
        self.work.parent_solved = false;
        for (s, next) in self
            .found
            .iter()
            .zip(self.found_keys.chunks_exact(key.len()))
        {
            let &Successor {
                moves,
                bound,
                dir,
                fp,
                past,
                image: which,
            } = s;
            if beaten(&self.best, self.upper, bound) {
                continue;
            }
            let at = match self.visited.insert(fp, index, dir) {
                Insert::New(i) => {
                    self.moves_to.push(moves);
                    i
                }
                Insert::Seen(i) => {
                    // A settled node has its fewest moves already.
                    if self.moves_to.get(i).is_none_or(|known| known <= moves) {
                        continue;
                    }
                    self.visited.relink(i, index, dir);
                    self.moves_to.set(i, moves);
                    i
                }
            };
            let left = self.space.bound_after(key, next, past, &mut self.work);
            if left >= UNREACHABLE {
                // No win from here: never expanded, never filed.
                self.moves_to.settle(at);
                continue;
            }
            if beaten(&self.best, self.upper, moves + left) {
                continue;
            }
            self.kept.clear();
            self.kept.extend_from_slice(next);
            self.space
                .apply_image(&mut self.kept, usize::from(which), &mut self.image);
            file(
                &mut self.pending,
                &mut self.pending_bytes,
                (moves + left, left),
                &self.kept,
                &self.codec,
            );
        }
    }

    /// The outcome once the buckets are done: the best win's route, else
    /// the known route proven shortest, else unsolved.
    fn finish(mut self, known: Option<Vec<u8>>) -> Outcome {
        self.peak = self.peak.max(self.bytes());
        let Some((moves, index, leg)) = self.best else {
            // Nothing shorter than the known route: it is a shortest one.
            let verdict = known.map_or(Verdict::Unsolved, Verdict::proven);
            let depth = self.upper.unwrap_or(self.depth);
            return ended(
                verdict,
                None,
                &self.visited,
                self.expanded,
                depth,
                self.peak,
            );
        };
        let route = route(self.space, &self.visited, index, leg, &mut self.work);
        debug_assert_eq!(route.len(), moves as usize);
        ended(
            Verdict::proven(route),
            None,
            &self.visited,
            self.expanded,
            moves,
            self.peak,
        )
    }
}

fn ended(
    verdict: Verdict,
    limit: Option<LimitKind>,
    visited: &Visited,
    expanded: u64,
    depth: u32,
    peak: usize,
) -> Outcome {
    Outcome {
        verdict,
        expanded,
        stored: visited.len() as u64,
        depth,
        peak_bytes: peak.max(visited.bytes()),
        visited_bytes: visited.bytes(),
        limit,
        found: None,
        fewest: depth,
    }
}

/// The moves to node `index`, then the winning `last` leg: each leg
/// replayed from the start, the node pushed to picked by its fingerprint.
fn route(space: &PushSpace, visited: &Visited, index: u32, last: Leg, work: &mut Work) -> Vec<u8> {
    let mut chain = vec![index];
    while let Some(p) = chain.last().and_then(|&i| visited.parent(i)) {
        chain.push(p);
    }
    chain.reverse();
    let mut key = space.start_key().unwrap_or_default();
    let mut route = Vec::new();
    // The chain holds nodes as the search kept them, images of the
    // states the route passes through (`PushSpace::canonical`): from
    // each state, the push to an image of the next node with the
    // shortest walk is one the search's own leg mirrors, at its cost.
    for &next in &chain[1..] {
        let want = visited.fingerprint(next);
        let mut found: Option<(Leg, Key)> = None;
        space.legs(&key, work, |leg, k| {
            if leg.won || found.as_ref().is_some_and(|(f, _)| f.walk <= leg.walk) {
                return;
            }
            if space.fingerprint(k) & visited::KEPT == want {
                found = Some((leg, k.clone()));
            }
        });
        let Some((leg, k)) = found else {
            // Unreachable for a sound set: the node was found this way.
            return route;
        };
        // `legs` flooded from `key`, so the walk is read from `work`.
        space.walk_to(leg.from, work, &mut route);
        route.push(leg.dir);
        key = k;
    }
    // The winning push, seen from the node's image: the one from this
    // state with the shortest walk costs what `last` did.
    let mut win: Option<Leg> = None;
    space.legs(&key, work, |leg, _| {
        if leg.won && win.is_none_or(|w| leg.walk < w.walk) {
            win = Some(leg);
        }
    });
    let last = win.unwrap_or(last);
    space.walk_to(last.from, work, &mut route);
    route.push(last.dir);
    route
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Move counts read back as set, settled or not, through the
        /// switches to two and four bytes a node when one count needs
        /// them; the width is the least that holds every count below its
        /// marker.
        #[test]
        fn move_counts_read_back(
            counts in prop::sample::select(vec![255u32, 256, 65_535, 65_536, 1 << 17])
                .prop_flat_map(|most| {
                    // The largest count is drawn often: the widths' edges.
                    let count = prop_oneof![0..most, Just(most - 1)];
                    prop::collection::vec((count, any::<bool>()), 1..300)
                })
        ) {
            let mut moves = MovesTo::default();
            let mut want = Vec::new();
            for (i, &(count, settled)) in counts.iter().enumerate() {
                let i = i as u32;
                moves.push(count);
                prop_assert_eq!(moves.get(i), Some(count));
                if settled {
                    moves.settle(i);
                }
                let m = (!settled).then_some(count);
                want.push(m);
                prop_assert_eq!(moves.get(i), m);
            }
            let most = counts.iter().map(|&(c, _)| c).max().unwrap_or(0);
            let width = match moves {
                MovesTo::Byte(_) => 1,
                MovesTo::Narrow(_) => 2,
                MovesTo::Wide(_) => 4,
            };
            let least = if most < 255 { 1 } else if most < 65_535 { 2 } else { 4 };
            prop_assert_eq!(width, least);
            for (i, &m) in want.iter().enumerate() {
                prop_assert_eq!(moves.get(i as u32), m);
            }
            // A count set again after the widening reads back too.
            for (i, &m) in want.iter().enumerate() {
                if let Some(m) = m {
                    moves.set(i as u32, m / 2);
                    prop_assert_eq!(moves.get(i as u32), Some(m / 2));
                }
            }
        }
    }
}
