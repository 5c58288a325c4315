//! The mirror images and rotations of a room: a node and its images are
//! one node, kept as the image with the least fingerprint.

use super::{DIRS, NONE, PushSpace};
use crate::solver::fingerprint;

impl PushSpace<'_> {
    /// The symmetries of the search: the mirror images and rotations of
    /// the player's region (the cells the walk grid reaches) that map the
    /// region, its GOAL cells, push distances and live cells onto
    /// themselves, and each walk onto the walk from the image cell in the
    /// image direction. Each is then a symmetry of the whole search: a
    /// push from a node and the push from its image are images of each
    /// other at the same cost (a push's line and the cell past it are
    /// region cells or refuse it, checked below), wins go to wins, and
    /// both bounds, which read only GOAL cells and the board's blocked
    /// cells, are equal on images. So a node and its images have the same
    /// fewest moves to a win, and the search keeps one of them
    /// ([`PushSpace::canonical`]): on a room with two mirror axes, up to
    /// a quarter of the nodes. None when a PUSH thing stands off the
    /// region (it can never move, and its image need not be a PUSH
    /// thing's cell) or a GOAL cell is off it.
    pub(super) fn find_symmetries(&self, start: &[u32]) -> Vec<Vec<u32>> {
        let mut region = vec![false; self.cells];
        let mut queue = vec![start[0]];
        region[start[0] as usize] = true;
        while let Some(c) = queue.pop() {
            for d in 0..4 {
                let to = self.walk[c as usize * 4 + d];
                if to != NONE && !std::mem::replace(&mut region[to as usize], true) {
                    queue.push(to);
                }
            }
        }
        let inside = |c: u32| region[c as usize];
        if !start[1..].iter().all(|&c| inside(c))
            || (0..self.cells).any(|c| self.goal[c] && !region[c])
        {
            return Vec::new();
        }
        // A push takes a line of PUSH things on region cells into the
        // cell past it, which must then be a region cell or refuse it.
        for c in (0..self.cells as u32).filter(|&c| inside(c)) {
            for &(_, dx, dy) in &DIRS {
                if let Some(n) = self.neighbour(c, dx, dy)
                    && !self.blocked[n as usize]
                    && !inside(n)
                {
                    return Vec::new();
                }
            }
        }
        let (mut x0, mut y0, mut x1, mut y1) = (u8::MAX, u8::MAX, 0, 0);
        for c in (0..self.cells as u32).filter(|&c| inside(c)) {
            let (x, y) = self.xy(c);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        let (w, h) = (i32::from(x1 - x0), i32::from(y1 - y0));
        // The images of (x, y), relative to the region's corner, under
        // the mirrors and rotations of its bounding box, as the matrix
        // that maps steps: ((a, b), (c, d)) takes (dx, dy) to
        // (a·dx + b·dy, c·dx + d·dy).
        let mut maps = vec![((-1, 0), (0, 1)), ((1, 0), (0, -1)), ((-1, 0), (0, -1))];
        if w == h {
            maps.extend([
                ((0, 1), (1, 0)),
                ((0, -1), (1, 0)),
                ((0, 1), (-1, 0)),
                ((0, -1), (-1, 0)),
            ]);
        }
        let mut found = Vec::new();
        'maps: for ((a, b), (cc, d)) in maps {
            // The image of the box's corner (0, 0) sits where the
            // matrix sends the box back into itself.
            let shift_x = if a < 0 || b < 0 { w } else { 0 };
            let shift_y = if cc < 0 || d < 0 { h } else { 0 };
            let image = |c: u32| -> Option<u32> {
                let (x, y) = self.xy(c);
                let (x, y) = (i32::from(x) - i32::from(x0), i32::from(y) - i32::from(y0));
                let (ix, iy) = (a * x + b * y + shift_x, cc * x + d * y + shift_y);
                if ix < 0 || iy < 0 || ix > w || iy > h {
                    return None;
                }
                let (ix, iy) = (ix + i32::from(x0), iy + i32::from(y0));
                Some((iy as usize * self.width + ix as usize) as u32)
            };
            let step = |dir: usize| -> usize {
                let (_, dx, dy) = DIRS[dir];
                let (ix, iy) = (a * dx + b * dy, cc * dx + d * dy);
                DIRS.iter()
                    .position(|&(_, x, y)| (x, y) == (ix, iy))
                    .unwrap_or(dir)
            };
            let mut map = vec![NONE; self.cells];
            for c in 0..self.cells as u32 {
                if !inside(c) {
                    continue;
                }
                let Some(i) = image(c).filter(|&i| inside(i)) else {
                    continue 'maps;
                };
                let (cu, iu) = (c as usize, i as usize);
                if self.goal[cu] != self.goal[iu]
                    || self.live[cu] != self.live[iu]
                    || self.distance[cu] != self.distance[iu]
                {
                    continue 'maps;
                }
                map[cu] = i;
            }
            for c in (0..self.cells).filter(|&c| region[c]) {
                for dir in 0..4 {
                    let to = self.walk[c * 4 + dir];
                    let want = if to == NONE { NONE } else { map[to as usize] };
                    if self.walk[map[c] as usize * 4 + step(dir)] != want {
                        continue 'maps;
                    }
                }
            }
            found.push(map);
        }
        found
    }

    /// Replaces node `key` with the least of its images under the
    /// symmetries, the one node the search keeps for all of them; `image`
    /// is scratch.
    ///
    /// Images rank by their fingerprints ([`PushSpace::fingerprint`]),
    /// which hash the PUSH things as a set, so no image is sorted to be
    /// ranked; only the least is. Every member of an orbit has the same
    /// images (the symmetries are a group: all of the board's among the
    /// mirrors and rotations), so every member keeps the same image, but
    /// for two distinct images with one fingerprint, which the visited set
    /// would take for one node anyway.
    pub(super) fn canonical(&self, key: &mut [u32], image: &mut Vec<u32>) {
        let mut sets = Vec::new();
        self.image_sets(&key[1..], &mut sets);
        let (_, which) = self.least_image(key[0], &sets, key.len());
        self.apply_image(key, which, image);
    }

    /// The fingerprint of node `key` as the search stores it: its least
    /// image's ([`PushSpace::canonical`]), whichever image `key` is.
    pub(super) fn fingerprint(&self, key: &[u32]) -> u128 {
        let mut sets = Vec::new();
        self.image_sets(&key[1..], &mut sets);
        self.least_image(key[0], &sets, key.len()).0
    }

    /// The fingerprint of node `key` when it is its own least image (as
    /// the search files nodes): [`PushSpace::fingerprint`] without the
    /// other images.
    pub(super) fn own_fingerprint(&self, key: &[u32]) -> u128 {
        let set = key[1..].iter().fold(0, |s, &c| s ^ self.terms[c as usize]);
        let fp = fingerprint::of_node(key[0], set, key.len());
        debug_assert_eq!(fp, self.fingerprint(key), "a node filed as its least image");
        fp
    }

    /// Per image of the PUSH things on `cells` (the node itself first,
    /// then one per symmetry), the XOR of its cells' terms, into `sets`.
    pub(super) fn image_sets(&self, cells: &[u32], sets: &mut Vec<u128>) {
        let terms = &self.terms;
        sets.clear();
        sets.push(cells.iter().fold(0, |s, &c| s ^ terms[c as usize]));
        for map in &self.symmetries {
            sets.push(
                cells
                    .iter()
                    .fold(0, |s, &c| s ^ terms[map[c as usize] as usize]),
            );
        }
    }

    /// The image sets ([`PushSpace::image_sets`]) of the successor whose
    /// push took a PUSH thing out of `left` and held `past` instead, from
    /// its parent's `parent`: two terms swapped per image.
    pub(super) fn moved_sets(&self, parent: &[u128], left: u32, past: u32, sets: &mut Vec<u128>) {
        let terms = &self.terms;
        let (left, past) = (left as usize, past as usize);
        sets.clear();
        sets.push(parent[0] ^ terms[left] ^ terms[past]);
        for (map, &was) in self.symmetries.iter().zip(&parent[1..]) {
            sets.push(was ^ terms[map[left] as usize] ^ terms[map[past] as usize]);
        }
    }

    /// The least fingerprint among a node's images, given its player's
    /// cell, its image sets and its key's length, and which image has it
    /// (0 the node itself, `1 + s` symmetry `s`).
    pub(super) fn least_image(&self, player: u32, sets: &[u128], len: usize) -> (u128, usize) {
        let mut least = (fingerprint::of_node(player, sets[0], len), 0);
        for (s, (map, &set)) in self.symmetries.iter().zip(&sets[1..]).enumerate() {
            let fp = fingerprint::of_node(map[player as usize], set, len);
            if fp < least.0 {
                least = (fp, s + 1);
            }
        }
        least
    }

    /// Replaces `key` with its image `which` ([`PushSpace::least_image`]),
    /// its PUSH things' cells sorted again.
    pub(super) fn apply_image(&self, key: &mut [u32], which: usize, image: &mut Vec<u32>) {
        let Some(map) = which.checked_sub(1).map(|s| &self.symmetries[s]) else {
            return;
        };
        image.clear();
        image.extend(key.iter().map(|&c| map[c as usize]));
        image[1..].sort_unstable();
        key.copy_from_slice(image);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rooms::{sealed, space_of};

    /// The symmetries found: both mirrors and the half turn of a room
    /// with two mirror axes, all seven of a square one, none when a GOAL
    /// cell breaks them; and each node's kept image is the same from any
    /// of its images.
    #[test]
    fn symmetries_of_rooms() {
        let count = |room: &str| space_of(&sealed(room)).map(|s| s.symmetries.len());
        assert_eq!(count("o . . . o\n. $ @ $ .\no . . . o"), Some(3));
        assert_eq!(count("o . o\n$ @ $\no . o"), Some(7));
        assert_eq!(count("o . . . .\n. $ @ $ .\no . . . o"), Some(0));
        let game = sealed("o . o\n$ @ $\no . o");
        let space = space_of(&game).expect("a push space");
        let mut image = Vec::new();
        let mut first = space.start_key().expect("a start");
        space.canonical(&mut first, &mut image);
        for map in &space.symmetries {
            let mut key: Vec<u32> = space
                .start_key()
                .expect("a start")
                .iter()
                .map(|&c| map[c as usize])
                .collect();
            key[1..].sort_unstable();
            space.canonical(&mut key, &mut image);
            assert_eq!(key, first);
        }
    }
}
