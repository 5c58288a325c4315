//! The visited set: fingerprints with parent pointers, in one open-addressing table.
//!
//! Per stored state: a 16-byte fingerprint, a 4-byte parent index and a 1-byte
//! action in three parallel vectors (21 bytes), plus a 4-byte slot in a table
//! kept at most 3/4 full (5.3 bytes amortised): about 26 bytes, and routes are
//! rebuilt by walking parents instead of storing path strings.

/// Whether an insert found a new state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Insert {
    /// Stored under this index.
    New(u32),
    /// Already there, under this index.
    Seen(u32),
}

const EMPTY: u32 = u32::MAX;

/// The set of visited states.
#[derive(Debug, Default)]
pub struct Visited {
    fingerprints: Vec<u128>,
    parents: Vec<u32>,
    actions: Vec<u8>,
    slots: Vec<u32>,
}

impl Visited {
    /// An empty set with room for about `n` states before it grows.
    pub fn with_capacity(n: usize) -> Self {
        let slots = (n * 4 / 3).next_power_of_two().max(16);
        Visited {
            fingerprints: Vec::with_capacity(n),
            parents: Vec::with_capacity(n),
            actions: Vec::with_capacity(n),
            slots: vec![EMPTY; slots],
        }
    }

    /// Number of stored states.
    pub fn len(&self) -> usize {
        self.fingerprints.len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.fingerprints.is_empty()
    }

    /// Bytes held (capacity, not just length: what the allocator gave us).
    pub fn bytes(&self) -> usize {
        self.fingerprints.capacity() * 16
            + self.parents.capacity() * 4
            + self.actions.capacity()
            + self.slots.len() * 4
    }

    /// Insert `fp`, reached from `parent` by `action`, unless it is already there.
    pub fn insert(&mut self, fp: u128, parent: u32, action: u8) -> Insert {
        if (self.len() + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (fp as usize) & mask;
        loop {
            let slot = self.slots[i];
            if slot == EMPTY {
                let index = self.fingerprints.len() as u32;
                self.fingerprints.push(fp);
                self.parents.push(parent);
                self.actions.push(action);
                self.slots[i] = index;
                return Insert::New(index);
            }
            if self.fingerprints[slot as usize] == fp {
                return Insert::Seen(slot);
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        let mask = size - 1;
        let mut slots = vec![EMPTY; size];
        for (index, fp) in self.fingerprints.iter().enumerate() {
            let mut i = (*fp as usize) & mask;
            while slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            slots[i] = index as u32;
        }
        self.slots = slots;
    }

    /// The actions from the root to state `index`.
    pub fn route(&self, mut index: u32) -> Vec<u8> {
        let mut route = Vec::new();
        while let Some(&parent) = self.parents.get(index as usize) {
            if parent == EMPTY {
                break;
            }
            route.push(self.actions[index as usize]);
            index = parent;
        }
        route.reverse();
        route
    }
}

impl Visited {
    /// Bytes per stored state in steady state: the three parallel entries plus
    /// the table slots divided over the states (vector slack not counted).
    pub fn bytes_per_state(&self) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        21.0 + (self.slots.len() * 4) as f64 / self.len() as f64
    }
}
