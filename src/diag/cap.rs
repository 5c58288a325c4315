//! A cap on the diagnostics one stage keeps per scope (the whole file, or
//! one level), so a file of a million mistakes costs memory for the first
//! [`MAX_PER_SCOPE`] of each scope, not for all of them. The last kept
//! diagnostic of a capped scope says how many were left out. The first
//! diagnostic of every level is always kept, so the levels with errors are
//! still known (stages 3 and 4 skip them).

use super::Diagnostic;
use std::collections::HashMap;

/// Diagnostics kept per scope (file-wide, or one level) by one stage.
pub const MAX_PER_SCOPE: usize = 128;

/// Collects diagnostics up to [`MAX_PER_SCOPE`] per scope.
#[derive(Debug, Default)]
pub struct Capped {
    kept: Vec<Diagnostic>,
    /// Per scope (`None`: file-wide): how many were kept, the index of the
    /// last one kept, and how many were left out.
    scopes: HashMap<Option<String>, (usize, usize, usize)>,
}

impl Capped {
    /// An empty collector.
    pub fn new() -> Capped {
        Capped::default()
    }

    /// Keep `d` unless its scope is full, in which case it is only counted.
    pub fn push(&mut self, d: Diagnostic) {
        let at = self.kept.len();
        let (kept, last, left_out) = self.scopes.entry(d.level.clone()).or_insert((0, 0, 0));
        if *kept < MAX_PER_SCOPE {
            *kept += 1;
            *last = at;
            self.kept.push(d);
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
    /// ends by saying how many of its kind were left out.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        for (scope, &(_, last, left_out)) in &self.scopes {
            if left_out > 0 {
                let place = match scope {
                    Some(level) => format!("level {level}"),
                    None => "this file".to_string(),
                };
                let (s, were) = if left_out == 1 {
                    ("", "was")
                } else {
                    ("s", "were")
                };
                self.kept[last].message.push_str(&format!(
                    " ({left_out} more problem{s} in {place} {were} left out; fix these first.)"
                ));
            }
        }
        self.kept
    }
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
}
