//! A cap on the diagnostics one stage keeps per scope (the whole file, or
//! one level) and per file, so a file of a million mistakes costs memory
//! for the first [`MAX_PER_SCOPE`] of each scope and [`MAX_PER_FILE`] in
//! all, not for all of them. The last kept diagnostic of a capped scope
//! (and of a capped file) says how many were left out. The first diagnostic
//! of each of the first [`FIRST_KEPT_SCOPES`] levels is always kept, so the
//! levels with errors of any pack within the level limit are still known
//! (stages 3 and 4 skip them).

use super::Diagnostic;
use std::collections::HashMap;

/// Diagnostics kept per scope (file-wide, or one level) by one stage.
pub const MAX_PER_SCOPE: usize = 128;

/// Diagnostics kept per file by one stage, beyond the first of each of the
/// first [`FIRST_KEPT_SCOPES`] scopes.
pub const MAX_PER_FILE: usize = 16 * MAX_PER_SCOPE;

/// Scopes whose first diagnostic is kept whatever the file's count: more
/// than the levels a pack holds (64), so every level of a pack within the
/// limit that has an error is known to have one.
pub const FIRST_KEPT_SCOPES: usize = 256;

/// Collects diagnostics up to [`MAX_PER_SCOPE`] per scope and
/// [`MAX_PER_FILE`] in all.
#[derive(Debug, Default)]
pub struct Capped {
    kept: Vec<Diagnostic>,
    /// Per scope (`None`: file-wide): how many were kept, the index of the
    /// last one kept, and how many were left out.
    scopes: HashMap<Option<String>, (usize, usize, usize)>,
    /// Diagnostics left out because the file's cap was reached.
    file_left_out: usize,
}

impl Capped {
    /// An empty collector.
    pub fn new() -> Capped {
        Capped::default()
    }

    /// Keep `d` unless its scope or the file is full, in which case it is
    /// only counted.
    pub fn push(&mut self, d: Diagnostic) {
        let at = self.kept.len();
        let known = self.scopes.len();
        let scope = d.level.clone();
        if !self.scopes.contains_key(&scope) && known >= FIRST_KEPT_SCOPES && at >= MAX_PER_FILE {
            // A scope that can't keep anything is not remembered either: a
            // million levels must not cost a million entries.
            self.file_left_out += 1;
            return;
        }
        let (kept, last, left_out) = self.scopes.entry(scope).or_insert((0, 0, 0));
        let first_of_scope = *kept == 0 && known < FIRST_KEPT_SCOPES;
        if *kept < MAX_PER_SCOPE && (at < MAX_PER_FILE || first_of_scope) {
            *kept += 1;
            *last = at;
            self.kept.push(d);
        } else if *kept < MAX_PER_SCOPE {
            self.file_left_out += 1;
        } else {
            *left_out += 1;
        }
    }

    /// Push each of `ds`.
    pub fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        for d in ds {
            self.push(d);
        }
    }

    /// The kept diagnostics, in the order pushed; the last of a capped scope
    /// ends by saying how many of its kind were left out, and the last of
    /// all how many the file's cap left out.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        for (scope, &(_, last, left_out)) in &self.scopes {
            if left_out > 0 {
                let place = match scope {
                    Some(level) => format!("level {level}"),
                    None => "this file".to_string(),
                };
                self.kept[last]
                    .message
                    .push_str(&left_out_note(left_out, &place));
            }
        }
        if self.file_left_out > 0
            && let Some(last) = self.kept.last_mut()
        {
            let note = left_out_note(self.file_left_out, "this file");
            last.message.push_str(&note);
        }
        self.kept
    }
}

/// " (3 more problems in level x were left out; fix these first.)"
fn left_out_note(n: usize, place: &str) -> String {
    let (s, were) = if n == 1 { ("", "was") } else { ("s", "were") };
    format!(" ({n} more problem{s} in {place} {were} left out; fix these first.)")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    #[test]
    fn each_scope_keeps_its_first_diagnostics_and_counts_the_rest() {
        let mut c = Capped::new();
        for i in 0..MAX_PER_SCOPE + 5 {
            c.push(Diagnostic::new("M106", Span::point(i), "x"));
        }
        c.push(Diagnostic::new("M106", Span::point(0), "in a level").with_level("lv"));
        let kept = c.finish();
        assert_eq!(kept.len(), MAX_PER_SCOPE + 1);
        assert!(
            kept[MAX_PER_SCOPE - 1]
                .message
                .ends_with("(5 more problems in this file were left out; fix these first.)"),
            "{}",
            kept[MAX_PER_SCOPE - 1].message
        );
        assert_eq!(kept[MAX_PER_SCOPE].message, "in a level");
    }

    #[test]
    fn a_file_of_many_scopes_keeps_a_bounded_number() {
        let mut c = Capped::new();
        let n = 100_000;
        for i in 0..n {
            c.push(Diagnostic::new("M106", Span::point(i), "x").with_level(format!("l{i}")));
        }
        let kept = c.finish();
        assert_eq!(kept.len(), MAX_PER_FILE);
        // The first of each of the first scopes is kept.
        assert!(
            kept.iter()
                .take(FIRST_KEPT_SCOPES)
                .enumerate()
                .all(|(i, d)| d.level.as_deref() == Some(format!("l{i}").as_str()))
        );
        let left = n - MAX_PER_FILE;
        assert!(
            kept[MAX_PER_FILE - 1].message.ends_with(&format!(
                "({left} more problems in this file were left out; fix these first.)"
            )),
            "{}",
            kept[MAX_PER_FILE - 1].message
        );
    }

    #[test]
    fn the_first_diagnostic_of_the_first_scopes_is_kept_past_the_file_cap() {
        let mut c = Capped::new();
        let scopes = MAX_PER_FILE / MAX_PER_SCOPE + 4;
        for s in 0..scopes {
            for i in 0..MAX_PER_SCOPE {
                c.push(Diagnostic::new("M106", Span::point(i), "x").with_level(format!("s{s}")));
            }
        }
        c.push(Diagnostic::new("M106", Span::point(0), "in a level").with_level("lv"));
        let kept = c.finish();
        // The file is full after 16 scopes; the 4 scopes after them keep
        // their first diagnostic, and so does `lv`.
        assert_eq!(kept.len(), MAX_PER_FILE + 4 + 1);
        assert!(kept.last().unwrap().message.starts_with("in a level"));
        assert!(
            kept.last().unwrap().message.ends_with(&format!(
                "({} more problems in this file were left out; fix these first.)",
                4 * (MAX_PER_SCOPE - 1)
            )),
            "{}",
            kept.last().unwrap().message
        );
    }
}
