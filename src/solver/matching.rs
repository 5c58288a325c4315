//! A lower bound on the moves of a sealed Sokoban room that holds with
//! chain pushes: the cheapest assignment of GOAL cells to PUSH things,
//! each pair costing the fewest straight *segments* the thing needs.
//!
//! **Why segments.** Sokoban solvers bound the pushes left by matching
//! crates to docks at their push distances. Here one move can push a whole
//! line of things one cell each, so a sum of push distances overestimates
//! (a line of three saves two pushes per move). Look at the cells instead
//! of the things: a push of the line `first, first + d, …, past - d` leaves
//! every cell of the line held except `first`, and holds `past`, which was
//! free. Things are interchangeable for a GOAL win, so a move is, as far as
//! the win can tell, one *token* jumping from `first` to `past` along a
//! straight segment: `first - d` (where the player stands) and every cell
//! from `first` to `past` unblocked and on the board. Each move jumps one
//! token over one segment, and a win needs a distinct token on each GOAL
//! cell to cover, so the moves left are at least the cheapest assignment
//! of those cells to tokens at their segment distances ([`Segments`]).
//!
//! **Consistent.** A move changes one token's cell from `first` to `past`,
//! and `first` is one segment from `past`'s every target, so the bound
//! drops by at most one per push and not at all on a walk. The push
//! search can therefore settle a node the first time it is taken in order
//! of moves plus this bound. A pair with no segment path costs
//! [`UNREACHABLE`]; an assignment that needs one means no win is left.

/// The cost of a GOAL cell no segment path from the token reaches.
pub const UNREACHABLE: u32 = 1 << 20;

/// Per GOAL cell to cover, per cell: the fewest segments that bring a
/// token there to the GOAL cell on a board of blocked cells alone.
#[derive(Debug, Clone)]
pub struct Segments {
    cells: usize,
    /// `goals × cells`, row by GOAL cell; [`UNREACHABLE`] where none.
    table: Vec<u32>,
}

/// The four push directions as cell steps: (dx, dy).
const STEPS: [(i32, i32); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

/// The cell at (x, y) on a `width`-wide board of `blocked.len()` cells,
/// when it is on the board and not blocked.
fn open_cell(blocked: &[bool], width: usize) -> impl Fn(i32, i32) -> Option<usize> + '_ {
    let height = blocked.len().checked_div(width).unwrap_or(0);
    move |x, y| {
        (x >= 0 && y >= 0 && (x as usize) < width && (y as usize) < height)
            .then(|| y as usize * width + x as usize)
            .filter(|&c| !blocked[c])
    }
}

/// Breadth-first distances, one row of `cells` per start of `starts`
/// ([`UNREACHABLE`] where none leads): `step((x, y), next)` appends the
/// cells one move from cell (x, y) of a `width`-wide board. What a move
/// is (a push of one cell, a segment of a push line) is the caller's.
fn distance_rows(
    starts: &[usize],
    cells: usize,
    width: usize,
    mut step: impl FnMut((i32, i32), &mut Vec<usize>),
) -> Vec<u32> {
    let mut table = vec![UNREACHABLE; starts.len() * cells];
    let mut queue = std::collections::VecDeque::new();
    let mut next = Vec::new();
    for (s, &start) in starts.iter().enumerate() {
        let row = &mut table[s * cells..(s + 1) * cells];
        row[start] = 0;
        queue.clear();
        queue.push_back(start);
        while let Some(c) = queue.pop_front() {
            next.clear();
            step(((c % width) as i32, (c / width) as i32), &mut next);
            for &n in &next {
                if row[n] == UNREACHABLE {
                    row[n] = row[c] + 1;
                    queue.push_back(n);
                }
            }
        }
    }
    table
}

impl Segments {
    /// The segment distances to each of `goals` on a `width`-wide board of
    /// `blocked.len()` cells.
    pub fn new(goals: &[usize], blocked: &[bool], width: usize) -> Segments {
        let at = open_cell(blocked, width);
        let table = distance_rows(goals, blocked.len(), width, |(cx, cy), next| {
            for (dx, dy) in STEPS {
                // Segments ending at `c` in direction (dx, dy) start at
                // `c - k·d` for k = 1, 2, …, through unblocked cells,
                // with the player's cell behind the start unblocked.
                let mut k = 1;
                while let Some(start) = at(cx - k * dx, cy - k * dy) {
                    if at(cx - (k + 1) * dx, cy - (k + 1) * dy).is_some() {
                        next.push(start);
                    }
                    k += 1;
                }
            }
        });
        Segments {
            cells: blocked.len(),
            table,
        }
    }

    /// The single pushes from each of `sources` on a `width`-wide board of
    /// `blocked.len()` cells: per source, per cell, the fewest pushes of
    /// one token (the player's cell behind it unblocked) that bring it
    /// from the source to the cell. As rows of [`Segments::bound`], the
    /// cheapest assignment of the sources to tokens: how far a set of
    /// tokens is from standing on `sources`, for a search that pulls them
    /// back there ([`super::pushes::satisfice_pulls`]).
    pub fn pushes_from(sources: &[usize], blocked: &[bool], width: usize) -> Segments {
        let at = open_cell(blocked, width);
        let table = distance_rows(sources, blocked.len(), width, |(cx, cy), next| {
            for (dx, dy) in STEPS {
                if let (Some(to), Some(_)) = (at(cx + dx, cy + dy), at(cx - dx, cy - dy)) {
                    next.push(to);
                }
            }
        });
        Segments {
            cells: blocked.len(),
            table,
        }
    }

    /// How many GOAL cells the table covers.
    pub fn goals(&self) -> usize {
        self.table.len().checked_div(self.cells).unwrap_or(0)
    }

    /// The fewest segments from `cell` to GOAL cell number `goal`.
    pub fn distance(&self, goal: usize, cell: usize) -> u32 {
        self.table[goal * self.cells + cell]
    }

    /// The bound for tokens on `cells`: the cheapest assignment of every
    /// GOAL cell to a distinct token, or at least [`UNREACHABLE`] when
    /// some GOAL cell cannot get one. `work` is reused between calls.
    pub fn bound(&self, cells: &[u32], work: &mut Assignment) -> u32 {
        let goals = self.goals();
        // Nothing for `moved` to start from unless the method runs.
        work.rows = 0;
        if goals == 0 {
            return 0;
        }
        if cells.len() < goals {
            return UNREACHABLE;
        }
        work.cost.clear();
        for g in 0..goals {
            let row = &self.table[g * self.cells..(g + 1) * self.cells];
            work.cost.extend(
                cells
                    .iter()
                    .map(|&c| row.get(c as usize).copied().unwrap_or(UNREACHABLE)),
            );
        }
        work.solve(goals, cells.len())
    }

    /// The bound for the tokens `from` was last worked out for
    /// ([`Segments::bound`]), with the one in column `column` (its index
    /// in those cells) moved to `cell`; `None` unless `from` holds an
    /// assignment with as many tokens as GOAL cells.
    ///
    /// **Why one path is enough.** With as many tokens as GOAL cells every
    /// column is assigned. Moving a token changes one column's costs:
    /// unassign it, lower its potential until no reduced cost in it is
    /// negative (the others' potentials and tight pairs are untouched),
    /// and the potentials are feasible again with one row and one column
    /// free. One shortest augmenting path from that row assigns every
    /// column with every assigned pair tight: the least assignment, in
    /// `O(goals · tokens)` instead of the full method's `O(goals² ·
    /// tokens)`.
    pub fn moved(
        &self,
        from: &Assignment,
        column: usize,
        cell: u32,
        work: &mut Assignment,
    ) -> Option<u32> {
        let (n, m) = (from.rows, from.columns);
        if n == 0 || n != m || column >= m {
            return None;
        }
        work.clone_from(from);
        let j = column + 1;
        let mut least = i32::MAX;
        for g in 0..n {
            let cost = self.table[g * self.cells..(g + 1) * self.cells]
                .get(cell as usize)
                .copied()
                .unwrap_or(UNREACHABLE);
            work.cost[g * m + column] = cost;
            least = least.min(cost as i32 - work.u[g + 1]);
        }
        work.v[j] = least;
        let row = std::mem::replace(&mut work.row_of[j], 0);
        work.augment(row);
        Some(work.total())
    }
}

/// The Hungarian method's buffers: a rectangular assignment of rows (GOAL
/// cells) to distinct columns (tokens) of least total cost, with the
/// potentials of the shortest-augmenting-path form, `O(rows² · columns)`.
#[derive(Debug, Default, Clone)]
pub struct Assignment {
    /// `rows × columns` costs, row-major.
    cost: Vec<u32>,
    u: Vec<i32>,
    v: Vec<i32>,
    /// Per column (1-based, 0 the virtual column), the row it is assigned.
    row_of: Vec<usize>,
    way: Vec<usize>,
    min: Vec<i32>,
    used: Vec<bool>,
    /// The shape of the last assignment solved: `rows` 0 when none was.
    rows: usize,
    columns: usize,
}

impl Assignment {
    /// The least total cost of assigning each of `rows` rows a distinct
    /// column among `columns` (`rows ≤ columns`), over `self.cost`.
    fn solve(&mut self, rows: usize, columns: usize) -> u32 {
        let (n, m) = (rows, columns);
        (self.rows, self.columns) = (n, m);
        self.u.clear();
        self.u.resize(n + 1, 0);
        self.v.clear();
        self.v.resize(m + 1, 0);
        self.row_of.clear();
        self.row_of.resize(m + 1, 0);
        self.way.clear();
        self.way.resize(m + 1, 0);
        for i in 1..=n {
            self.augment(i);
        }
        self.total()
    }

    /// Assigns row `i` (1-based, free) a column along a shortest
    /// augmenting path in reduced costs, keeping the potentials feasible
    /// and every assigned pair tight; every row assigned before stays so.
    fn augment(&mut self, i: usize) {
        let m = self.columns;
        self.row_of[0] = i;
        let mut j0 = 0;
        self.min.clear();
        self.min.resize(m + 1, i32::MAX);
        self.used.clear();
        self.used.resize(m + 1, false);
        loop {
            self.used[j0] = true;
            let i0 = self.row_of[j0];
            let mut delta = i32::MAX;
            let mut j1 = 0;
            let row = &self.cost[(i0 - 1) * m..i0 * m];
            let ui = self.u[i0];
            for j in 1..=m {
                if self.used[j] {
                    continue;
                }
                // Costs are at most UNREACHABLE (2^20) and potentials
                // stay within a few times the largest cost: i32 holds
                // them.
                let reduced = row[j - 1] as i32 - ui - self.v[j];
                if reduced < self.min[j] {
                    self.min[j] = reduced;
                    self.way[j] = j0;
                }
                if self.min[j] < delta {
                    delta = self.min[j];
                    j1 = j;
                }
            }
            for j in 0..=m {
                if self.used[j] {
                    self.u[self.row_of[j]] += delta;
                    self.v[j] -= delta;
                } else {
                    self.min[j] -= delta;
                }
            }
            j0 = j1;
            if self.row_of[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = self.way[j0];
            self.row_of[j0] = self.row_of[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }

    /// The total cost of the assignment held.
    fn total(&self) -> u32 {
        let m = self.columns;
        let total: u64 = (1..=m)
            .filter(|&j| self.row_of[j] != 0)
            .map(|j| u64::from(self.cost[(self.row_of[j] - 1) * m + (j - 1)]))
            .sum();
        total.min(u64::from(u32::MAX)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The least assignment by trying every injective choice.
    fn brute(cost: &[u32], rows: usize, columns: usize) -> u32 {
        fn go(cost: &[u32], rows: usize, columns: usize, row: usize, used: &mut Vec<bool>) -> u32 {
            if row == rows {
                return 0;
            }
            let mut best = u32::MAX;
            for j in 0..columns {
                if !used[j] {
                    used[j] = true;
                    let rest = go(cost, rows, columns, row + 1, used);
                    best = best.min(cost[row * columns + j].saturating_add(rest));
                    used[j] = false;
                }
            }
            best
        }
        go(cost, rows, columns, 0, &mut vec![false; columns])
    }

    proptest! {
        /// The Hungarian method finds the least assignment, rectangular
        /// and with unreachable pairs included.
        #[test]
        fn assignment_is_the_least(
            (rows, columns, cost) in (1usize..5).prop_flat_map(|r| (Just(r), r..6)).prop_flat_map(|(r, c)| {
                (Just(r), Just(c), prop::collection::vec(prop_oneof![4 => 0u32..9, 1 => Just(UNREACHABLE)], r * c))
            })
        ) {
            let mut a = Assignment { cost: cost.clone(), ..Assignment::default() };
            prop_assert_eq!(a.solve(rows, columns), brute(&cost, rows, columns));
        }
    }

    proptest! {
        /// Moving one token of a square assignment and repairing it with
        /// one augmenting path gives the least assignment of the new
        /// costs, again and again from each result.
        #[test]
        fn a_moved_token_is_one_path(
            (width, height, goals, tokens, moves) in (2usize..6, 2usize..6).prop_flat_map(|(w, h)| {
                let cells = w * h;
                (1usize..4).prop_flat_map(move |n| (
                    Just(w),
                    Just(h),
                    prop::collection::vec(0..cells, n),
                    prop::collection::vec(0..cells as u32, n),
                    prop::collection::vec((0..n, 0..cells as u32), 1..6),
                ))
            }),
            walls in prop::collection::vec(any::<bool>(), 36),
        ) {
            let cells = width * height;
            let blocked: Vec<bool> = (0..cells).map(|c| walls[c] && walls[(c * 7) % 36]).collect();
            let s = Segments::new(&goals, &blocked, width);
            let mut tokens = tokens;
            let mut from = Assignment::default();
            s.bound(&tokens, &mut from);
            let mut moved = Assignment::default();
            let mut fresh = Assignment::default();
            for (column, cell) in moves {
                tokens[column] = cell;
                let got = s.moved(&from, column, cell, &mut moved);
                prop_assert_eq!(got, Some(s.bound(&tokens, &mut fresh)));
                std::mem::swap(&mut from, &mut moved);
            }
        }
    }

    /// Nothing to repair from unless the last assignment was square.
    #[test]
    fn only_square_assignments_are_repaired() {
        let s = Segments::new(&[15], &[false; 16], 4);
        let (mut from, mut work) = (Assignment::default(), Assignment::default());
        s.bound(&[5, 13], &mut from);
        assert_eq!(s.moved(&from, 0, 14, &mut work), None);
        s.bound(&[5], &mut from);
        assert_eq!(s.moved(&from, 0, 14, &mut work), Some(1));
        assert_eq!(s.moved(&from, 1, 14, &mut work), None);
    }

    /// In an open corridor a token is one segment from every cell it can
    /// be pushed to in a line; against a wall it cannot be started.
    #[test]
    fn segments_count_straight_pushes() {
        // A 5 × 3 board, walls around a row of five cells: . . . . .
        let width = 5;
        let mut blocked = vec![true; 15];
        blocked[5..10].fill(false);
        let s = Segments::new(&[9], &blocked, width);
        let row: Vec<u32> = (5..10).map(|c| s.distance(0, c)).collect();
        // Cells 6, 7, 8 have a free cell behind them to push from; 5 does
        // not (a wall behind it, going right), so it never reaches 9.
        assert_eq!(row, [UNREACHABLE, 1, 1, 1, 0]);
    }

    /// A turn takes a second segment.
    #[test]
    fn a_corner_takes_two_segments() {
        // 4 × 4 open board, the goal in a corner (x 3, y 3).
        let blocked = vec![false; 16];
        let s = Segments::new(&[15], &blocked, 4);
        // (1, 1) needs a push right and a push down.
        assert_eq!(s.distance(0, 5), 2);
        // (1, 3) needs one push right along the bottom row.
        assert_eq!(s.distance(0, 13), 1);
        let mut a = Assignment::default();
        assert_eq!(s.bound(&[5, 13], &mut a), 1);
        assert_eq!(s.bound(&[5], &mut a), 2);
    }
}
