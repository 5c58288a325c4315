//! Did-you-mean (catalogue 1.7), one engine for every place that suggests:
//! CLI messages, stage 1–3 diagnostics and their fixes, the language server.
//!
//! The caller passes the vocabulary valid at the place (statement keywords
//! in a level, level ids of the inputs, diagnostic codes and names, …).
//! Names are compared without case, by optimal-string-alignment distance
//! (Levenshtein plus the swap of two neighbours, so `hnit` finds `hint`):
//! within 1 for names of 4 characters or fewer, within 2 otherwise. The best
//! distance wins; ties list up to three, in candidate order.
//!
//! Bounded work: a name longer than [`MAX_LEN`] characters gets no
//! suggestion (no vocabulary word is that long), a candidate whose length
//! differs by more than the limit is skipped before any table is built, and
//! the table is three rows of the candidate's length.

/// Names longer than this (in characters) get no suggestion.
pub const MAX_LEN: usize = 64;

/// The largest distance accepted for a name of `len` characters.
fn limit(len: usize) -> usize {
    if len <= 4 { 1 } else { 2 }
}

/// The suggestions for `written` among `candidates`, best first (at most
/// three, all at the same distance). Never `written` itself.
pub fn suggest<'a>(written: &str, candidates: &[&'a str]) -> Vec<&'a str> {
    let w: Vec<char> = written.chars().flat_map(char::to_lowercase).collect();
    if w.is_empty() || w.len() > MAX_LEN {
        return Vec::new();
    }
    let max = limit(w.len());
    let mut best = usize::MAX;
    let mut out: Vec<&'a str> = Vec::new();
    let mut row = Rows::default();
    for &c in candidates {
        if c == written {
            continue;
        }
        let n = c.chars().count();
        if n > MAX_LEN || n.abs_diff(w.len()) > max {
            continue;
        }
        let cand: Vec<char> = c.chars().flat_map(char::to_lowercase).collect();
        let Some(d) = row.distance(&w, &cand, max.min(best)) else {
            continue;
        };
        if d < best {
            best = d;
            out.clear();
        }
        if out.len() < 3 && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The single best suggestion, when there is one.
pub fn best<'a>(written: &str, candidates: &[&'a str]) -> Option<&'a str> {
    suggest(written, candidates).into_iter().next()
}

/// Reused rows of the distance table.
#[derive(Default)]
struct Rows {
    before: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

impl Rows {
    /// The optimal-string-alignment distance of `a` and `b` when it is at
    /// most `max`, else `None` (stopping as soon as a row exceeds it).
    fn distance(&mut self, a: &[char], b: &[char], max: usize) -> Option<usize> {
        let n = b.len();
        self.before.clear();
        self.before.resize(n + 1, 0);
        self.prev.clear();
        self.prev.extend(0..=n);
        self.cur.clear();
        self.cur.resize(n + 1, 0);
        for i in 1..=a.len() {
            self.cur[0] = i;
            let mut row_min = i;
            for j in 1..=n {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut d = (self.prev[j - 1] + cost)
                    .min(self.prev[j] + 1)
                    .min(self.cur[j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(self.before[j - 2] + 1);
                }
                self.cur[j] = d;
                row_min = row_min.min(d);
            }
            if row_min > max {
                return None;
            }
            std::mem::swap(&mut self.before, &mut self.prev);
            std::mem::swap(&mut self.prev, &mut self.cur);
        }
        let d = self.prev[n];
        (d <= max).then_some(d)
    }
}

/// The suggestion list as text: `challenge`, `amber or teal`, `a, b or c`.
pub fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn suggests_within_distance_and_swaps() {
        let stmts = ["title", "hint", "solution", "must-form", "budget"];
        assert_eq!(suggest("titel", &stmts), ["title"]);
        // A swap of two neighbours is one edit, even in a short name.
        assert_eq!(suggest("hnit", &stmts), ["hint"]);
        assert_eq!(suggest("must_form", &stmts), ["must-form"]);
        assert_eq!(suggest("Budget", &stmts), ["budget"]);
        assert!(suggest("zzz", &stmts).is_empty());
        // Short names allow one edit only.
        assert!(suggest("hxnx", &stmts).is_empty());
        assert_eq!(
            best("skipable", &["skippable", "trivial"]),
            Some("skippable")
        );
        assert_eq!(
            best("lowtide", &["low-tide", "high-tide"]),
            Some("low-tide")
        );
        assert_eq!(
            best("low_tide", &["low-tide", "high-tide"]),
            Some("low-tide")
        );
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }

    #[test]
    fn ties_list_up_to_three_in_candidate_order() {
        let c = ["cat", "bat", "hat", "mat"];
        assert_eq!(suggest("xat", &c), ["cat", "bat", "hat"]);
    }

    /// The 40 KB word of issue 14 item 8: no suggestion, and no table at all.
    #[test]
    fn huge_names_get_nothing_quickly() {
        let word = "W".repeat(40_000);
        let cands: Vec<String> = (0..2000).map(|i| format!("WORD{i}")).collect();
        let refs: Vec<&str> = cands.iter().map(String::as_str).collect();
        assert!(suggest(&word, &refs).is_empty());
        // A huge candidate is skipped too.
        assert!(suggest("WALL", &[word.as_str()]).is_empty());
        // And many long-ish candidates of the same length stay bounded:
        // the early stop leaves each after a row or two.
        let long: Vec<String> = (0..5000).map(|i| format!("{i:0>60}")).collect();
        let refs: Vec<&str> = long.iter().map(String::as_str).collect();
        let mut rows = Rows::default();
        assert_eq!(rows.distance(&['a'; 60], &['b'; 60], 2), None);
        assert!(suggest(&"a".repeat(60), &refs).is_empty());
    }

    /// Plain Levenshtein with a swap, no cut-offs: the reference.
    fn reference(a: &str, b: &str) -> usize {
        let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
        let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
        let mut t = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in t.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, cell) in t[0].iter_mut().enumerate() {
            *cell = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut d = (t[i - 1][j - 1] + cost)
                    .min(t[i - 1][j] + 1)
                    .min(t[i][j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(t[i - 2][j - 2] + 1);
                }
                t[i][j] = d;
            }
        }
        t[a.len()][b.len()]
    }

    proptest! {
        #[test]
        fn the_cut_offs_change_no_answer(a in "[a-dA-D-]{0,8}", b in "[a-d-]{0,8}", max in 0usize..4) {
            let al: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
            let bl: Vec<char> = b.chars().collect();
            let d = reference(&a, &b);
            let got = Rows::default().distance(&al, &bl, max);
            prop_assert_eq!(got, (d <= max).then_some(d));
        }
    }
}
