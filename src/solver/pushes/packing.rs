//! The packing order of the GOAL cells: which to fill first, found
//! backwards from the won room by taking out the PUSH things the player
//! can pull off from outside, layer by layer. A forward satisficing pass
//! ranks its nodes by the GOAL cells covered in that order
//! ([`super::satisfice_packed`]).
//!
//! In a cluster of GOAL cells in an open room, the assignment bound
//! counts every covered GOAL cell alike, so a pass taking nodes by it
//! fills the cluster's rim first and walls its middle off. Counting only
//! the GOAL cells covered with every deeper layer covered too makes the
//! middle come first. It is a ranking, not a pruning: no node is dropped.

use super::{DIRS, NONE, PushSpace};

/// The layers of a room's GOAL cells ([`Packing::new`]) and the scratch
/// of [`Packing::packed`].
pub(super) struct Packing {
    /// Per cell, the layer of its GOAL cell, from 1, the last filled
    /// (0: no GOAL cell).
    layer: Vec<u32>,
    /// Per layer from 1, how many GOAL cells it holds.
    goals: Vec<u32>,
    /// Per layer from 1, how many of them the node being ranked covers.
    covered: Vec<u32>,
}

impl Packing {
    /// The layers of `space`'s GOAL cells. With every GOAL cell covered,
    /// layer 1 is the PUSH things the player can pull off from outside:
    /// a GOAL cell with a neighbour the player reaches and, past that
    /// neighbour, a cell neither blocked nor covered (the player steps
    /// back onto it, dragging the thing). With those taken out, layer 2
    /// is found the same way, and so on; GOAL cells nothing opens up go
    /// in one last layer.
    pub(super) fn new(space: &PushSpace) -> Packing {
        let mut covered = space.goal.clone();
        let mut layer = vec![0u32; space.cells];
        let mut left: Vec<u32> = (0..space.cells as u32)
            .filter(|&c| space.goal[c as usize])
            .collect();
        let mut reach = vec![false; space.cells];
        let mut queue = Vec::new();
        let mut round = 0;
        while !left.is_empty() {
            round += 1;
            // The player stands anywhere off the GOAL cells at the end of
            // a route: every cell joined to such a cell, covered ones
            // aside.
            reach.fill(false);
            queue.clear();
            for (c, r) in reach.iter_mut().enumerate() {
                let walks = space.walk[c * 4..c * 4 + 4].iter().any(|&w| w != NONE);
                if walks && !space.goal[c] && !space.blocked[c] {
                    *r = true;
                    queue.push(c as u32);
                }
            }
            while let Some(c) = queue.pop() {
                for &to in &space.walk[c as usize * 4..c as usize * 4 + 4] {
                    if to != NONE && !covered[to as usize] && !reach[to as usize] {
                        reach[to as usize] = true;
                        queue.push(to);
                    }
                }
            }
            let pulled = |g: u32| {
                DIRS.iter().any(|&(_, dx, dy)| {
                    let n = space.neighbour(g, dx, dy);
                    let back = n.and_then(|n| space.neighbour(n, dx, dy));
                    matches!((n, back), (Some(n), Some(b))
                        if reach[n as usize] && !space.blocked[b as usize] && !covered[b as usize])
                })
            };
            let out: Vec<u32> = left.iter().copied().filter(|&g| pulled(g)).collect();
            if out.is_empty() {
                for &g in &left {
                    layer[g as usize] = round;
                }
                break;
            }
            for &g in &out {
                layer[g as usize] = round;
                covered[g as usize] = false;
            }
            left.retain(|g| !out.contains(g));
        }
        let mut goals = vec![0; round as usize + 1];
        for &l in &layer {
            goals[l as usize] += 1;
        }
        goals[0] = 0;
        Packing {
            layer,
            covered: vec![0; goals.len()],
            goals,
        }
    }

    /// How many GOAL cells PUSH things at `cells` cover with every GOAL
    /// cell of the deeper layers covered too: the deepest layers' cells
    /// while they are full, and the covered cells of the first layer that
    /// isn't.
    pub(super) fn packed(&mut self, cells: &[u32]) -> u32 {
        self.covered.fill(0);
        for &c in cells {
            self.covered[self.layer[c as usize] as usize] += 1;
        }
        let mut packed = 0;
        for (&all, &covered) in self.goals.iter().zip(&self.covered).skip(1).rev() {
            packed += covered;
            if covered < all {
                break;
            }
        }
        packed
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rooms::{sealed, space_of};
    use super::*;

    /// A plus of docks in an open room: the middle one is filled first,
    /// the four around it after; a crate on the middle counts, one on an
    /// arm counts only once the middle is covered.
    #[test]
    fn the_middle_of_a_cluster_is_packed_first() {
        let game =
            sealed(". . . . . .\n. . o . . .\n. o o o . .\n. . o . $ $\n. @ . $ $ $\n. . . . . .");
        let space = space_of(&game).expect("a push space");
        let mut packing = Packing::new(&space);
        let goals: Vec<u32> = (0..space.cells as u32)
            .filter(|&c| space.goal[c as usize])
            .collect();
        let layers: Vec<u32> = goals.iter().map(|&g| packing.layer[g as usize]).collect();
        // Reading order: top arm, left arm, middle, right arm, bottom arm.
        assert_eq!(layers, [1, 1, 2, 1, 1]);
        let (top, middle) = (goals[0], goals[2]);
        assert_eq!(packing.packed(&[top]), 0);
        assert_eq!(packing.packed(&[middle]), 1);
        assert_eq!(packing.packed(&[middle, top]), 2);
        assert_eq!(packing.packed(&goals), 5);
    }
}
