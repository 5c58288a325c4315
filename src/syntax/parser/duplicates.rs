//! Statements and entries set twice (M107), found when their block closes
//! and, for the pack-wide legends, at the end of the file.

use std::collections::HashMap;

use super::P;
use crate::diag::Diagnostic;
use crate::span::Span;
use crate::syntax::ast::{Item, Legend, Level, LevelStmtKind, PackHeader, PackStmtKind};

impl P<'_> {
    fn delete_line_fix(&self, span: Span) -> Span {
        let line = self.idx.line_of(span.start as usize);
        let start = self.idx.line_start(line).unwrap_or(span.start as usize);
        let end = self.idx.line_start(line + 1).unwrap_or(self.text.len());
        Span::new(start, end)
    }

    pub(super) fn dup_entries(
        &self,
        keys: &[(&str, Span)],
        who: &str,
        what: &str,
    ) -> Vec<Diagnostic> {
        let mut first: HashMap<&str, Span> = HashMap::new();
        let mut out = Vec::new();
        for &(k, span) in keys {
            if let Some(prev) = first.get(k) {
                let (a, b) = (
                    self.line_no(prev.start as usize),
                    self.line_no(span.start as usize),
                );
                out.push(
                    Diagnostic::new(
                        "M107",
                        span,
                        format!("{who} sets {what} {k} twice (lines {a} and {b}); keep one."),
                    )
                    .with_fix(
                        "Delete the later one",
                        self.delete_line_fix(span),
                        "",
                    ),
                );
            } else {
                first.insert(k, span);
            }
        }
        out
    }

    pub(super) fn check_pack_dups(&mut self, p: &PackHeader) {
        let mut first: HashMap<&'static str, Span> = HashMap::new();
        let mut ds = Vec::new();
        for s in &p.stmts {
            let k = match s.kind {
                PackStmtKind::Name(_) => "name",
                PackStmtKind::Version(_) => "version",
                PackStmtKind::Engine(_) => "engine",
                PackStmtKind::Rules(_) => "rules",
                PackStmtKind::World { .. } => "world",
                PackStmtKind::Vocabulary(_) => "vocabulary",
                PackStmtKind::Allow(_) => continue,
            };
            if let Some(prev) = first.get(k) {
                let (a, b) = (
                    self.line_no(prev.start as usize),
                    self.line_no(s.span.start as usize),
                );
                ds.push(
                    Diagnostic::new(
                        "M107",
                        s.span,
                        format!("The pack sets {k} twice (lines {a} and {b}); keep one."),
                    )
                    .with_fix(
                        "Delete the later one",
                        self.delete_line_fix(s.span),
                        "",
                    ),
                );
            } else {
                first.insert(k, s.span);
            }
        }
        self.diags.extend(ds);
    }

    pub(super) fn check_level_dups(&mut self, l: &Level) {
        use LevelStmtKind as L;
        let mut first: HashMap<&'static str, Span> = HashMap::new();
        let mut ds = Vec::new();
        for s in &l.stmts {
            let k = match s.kind {
                L::Title(_) => "title",
                L::Category(_) => "category",
                L::Introduces(_) => "introduces",
                L::Reuses(_) => "reuses",
                L::Hint(_) => "hint",
                L::Solution(_) => "solution",
                L::Steps(..) => "steps",
                L::Budget(_) => "budget",
                L::Terrain(_) => "terrain",
                L::MustLoseWord => "must-lose-word",
                // Repeatable, or checked in stage 2 (two frail statements are M210).
                L::MustForm(_)
                | L::MustBreak(_)
                | L::MustHappen(..)
                | L::Allow(_)
                | L::Automaton(_)
                | L::Pair(_)
                | L::Frail(_) => {
                    continue;
                }
            };
            if let Some(prev) = first.get(k) {
                let (a, b) = (
                    self.line_no(prev.start as usize),
                    self.line_no(s.span.start as usize),
                );
                ds.push(
                    Diagnostic::new(
                        "M107",
                        s.span,
                        format!(
                            "Level {} sets {k} twice (lines {a} and {b}); keep one.",
                            l.id.text
                        ),
                    )
                    .with_level(l.id.text.clone())
                    .with_fix(
                        "Delete the later one",
                        self.delete_line_fix(s.span),
                        "",
                    ),
                );
            } else {
                first.insert(k, s.span);
            }
        }
        self.diags.extend(ds);
    }

    /// Pack legend keys defined in two different pack-wide legend blocks.
    pub(super) fn check_pack_legend_dups(&mut self) {
        let mut keys: Vec<(String, Span)> = Vec::new();
        let legends: Vec<&Legend> = self
            .file
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Legend(l) => Some(l),
                _ => None,
            })
            .collect();
        if legends.len() > 1 {
            let mut seen: HashMap<String, usize> = HashMap::new();
            for (bi, l) in legends.iter().enumerate() {
                for e in &l.entries {
                    match seen.get(&e.key.text) {
                        Some(&b) if b != bi => keys.push((e.key.text.clone(), e.span)),
                        Some(_) => {}
                        None => {
                            seen.insert(e.key.text.clone(), bi);
                        }
                    }
                }
            }
        }
        for (k, span) in keys {
            let d = Diagnostic::new(
                "M107",
                span,
                format!("The pack legend sets legend key {k} twice; keep one."),
            )
            .with_fix("Delete the later one", self.delete_line_fix(span), "");
            self.diags.push(d);
        }
    }
}
