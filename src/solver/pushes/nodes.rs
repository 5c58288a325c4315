//! The nodes of a best-first satisficing pass over the push space, forwards
//! over pushes ([`super::satisfice`]) or backwards over pulls
//! ([`super::satisfice_pulls`]): one store, one order, one memory count.

use crate::solver::{hash_set_bytes, vec_bytes};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// Every node a pass has found (its key, as the step left it, and its
/// parent), the fingerprints seen, the novelty atoms met and the nodes
/// still open. Nodes are taken by novelty first (a node holding a PUSH
/// thing on a cell, or the player in a cell, that no node of its bound has
/// had before), then by bound, then in the order found, so a pass is the
/// same on every machine.
pub(super) struct Nodes {
    width: usize,
    /// The player's atoms start past the PUSH things' cells.
    cells: u32,
    keys: Vec<u32>,
    parents: Vec<u32>,
    seen: HashSet<u128>,
    met: HashSet<(u32, u32)>,
    open: BinaryHeap<Reverse<(bool, u32, u32)>>,
}

/// The parent of a node found first (a start or a root).
const ROOT: u32 = u32::MAX;

impl Nodes {
    /// An empty store for keys of `width` words on a board of `cells` cells.
    pub(super) fn new(width: usize, cells: usize) -> Nodes {
        Nodes {
            width,
            cells: cells as u32,
            keys: Vec::new(),
            parents: Vec::new(),
            seen: HashSet::new(),
            met: HashSet::new(),
            open: BinaryHeap::new(),
        }
    }

    /// Whether `fingerprint` is new to the pass (and records it).
    pub(super) fn first_seen(&mut self, fingerprint: u128) -> bool {
        self.seen.insert(fingerprint)
    }

    /// Files `key`, found from node `parent` (`None` for a root), with its
    /// `bound`, as an open node, and returns its index.
    pub(super) fn add(&mut self, key: &[u32], parent: Option<u32>, bound: u32) -> u32 {
        let mut new = self.met.insert((bound, self.cells + key[0]));
        for &c in &key[1..] {
            new |= self.met.insert((bound, c));
        }
        self.keys.extend_from_slice(key);
        self.parents.push(parent.unwrap_or(ROOT));
        let index = self.parents.len() as u32 - 1;
        self.open.push(Reverse((!new, bound, index)));
        index
    }

    /// The next open node's index, its key copied into `key`.
    pub(super) fn take(&mut self, key: &mut Vec<u32>) -> Option<u32> {
        let Reverse((_, _, index)) = self.open.pop()?;
        let at = index as usize * self.width;
        key.clear();
        key.extend_from_slice(&self.keys[at..at + self.width]);
        Some(index)
    }

    /// The key of node `index`.
    pub(super) fn key(&self, index: u32) -> &[u32] {
        let at = index as usize * self.width;
        &self.keys[at..at + self.width]
    }

    /// The nodes from a root to node `index`, in the order found.
    pub(super) fn chain(&self, index: u32) -> Vec<u32> {
        let mut chain = vec![index];
        while let Some(&p) = chain.last().and_then(|&i| self.parents.get(i as usize)) {
            if p == ROOT {
                break;
            }
            chain.push(p);
        }
        chain.reverse();
        chain
    }

    /// The bytes the store holds once `more` nodes are added: what a pass
    /// holds by its next look at the memory cap.
    pub(super) fn bytes(&self, more: usize) -> usize {
        let w = self.width;
        vec_bytes::<u32>(self.keys.len(), self.keys.capacity(), more * w)
            + vec_bytes::<u32>(self.parents.len(), self.parents.capacity(), more)
            + hash_set_bytes::<u128>(self.seen.len(), self.seen.capacity(), more)
            + hash_set_bytes::<(u32, u32)>(self.met.len(), self.met.capacity(), more * w)
            + vec_bytes::<Reverse<(bool, u32, u32)>>(self.open.len(), self.open.capacity(), more)
    }
}
