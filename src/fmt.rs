//! The canonical formatter shared by `miauc fmt` and the language server.
//!
//! The output is rebuilt from the syntax tree, not patched: the pack header
//! first, then palettes, glossaries, pack legends and levels (blocks written
//! inside `pack { }` move to the top level); statements in a fixed order;
//! two-space indentation; board columns padded to their widest cell so vertical
//! sentences line up. Comments travel with the line they annotate: a comment on
//! its own line stays above the next line of code, a comment after code stays
//! after it. Formatting never changes the lowered model, and formatting twice
//! gives the same text.

use std::collections::HashMap;

use crate::diag::{Diagnostic, Severity};
use crate::lower::lower;
use crate::span::{LineIndex, Span};
use crate::syntax::ast::*;
use crate::syntax::{parse, quote};

/// Formats `text` canonically. Fails with the stage 1 errors when there are any
/// (warnings such as an unused legend key don't stop formatting).
pub fn format(text: &str) -> Result<String, Vec<Diagnostic>> {
    let (file, mut diags) = parse(text);
    let (_, more) = lower(&file);
    diags.extend(more);
    let errors: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Printer::new(text, &file).print(&file))
}

/// Where a comment goes: before the line of an anchor, after it, or at the end of the file.
#[derive(Default)]
struct Attached {
    leading: HashMap<u32, Vec<Span>>,
    trailing: HashMap<u32, Span>,
    end: Vec<Span>,
}

struct Printer<'a> {
    text: &'a str,
    attached: Attached,
    out: String,
}

/// Collects the start and end of every node printed as its own line: block
/// headers, statements, entries, rows and closing braces.
fn anchors(file: &File) -> Vec<(u32, u32)> {
    let mut a = Vec::new();
    let block = |a: &mut Vec<(u32, u32)>, b: &BlockSpan| {
        a.push((b.header.start, b.header.end));
        a.push((b.close.start, b.close.end));
    };
    if let Some(p) = &file.pack {
        block(&mut a, &p.block);
        a.extend(p.stmts.iter().map(|s| (s.span.start, s.span.end)));
    }
    for item in &file.items {
        match item {
            Item::Palette(p) => {
                block(&mut a, &p.block);
                a.extend(p.entries.iter().map(|e| (e.span.start, e.span.end)));
            }
            Item::Glossary(g) => {
                block(&mut a, &g.block);
                a.extend(g.entries.iter().map(|e| (e.span.start, e.span.end)));
            }
            Item::Legend(l) => {
                block(&mut a, &l.block);
                a.extend(l.entries.iter().map(|e| (e.span.start, e.span.end)));
            }
            Item::Level(l) => {
                block(&mut a, &l.block);
                a.extend(l.stmts.iter().map(|s| (s.span.start, s.span.end)));
                if let Some(lg) = &l.legend {
                    block(&mut a, &lg.block);
                    a.extend(lg.entries.iter().map(|e| (e.span.start, e.span.end)));
                }
                if let Some(b) = &l.board {
                    block(&mut a, &b.block);
                    a.extend(b.rows.iter().map(|r| (r.span.start, r.span.end)));
                }
            }
        }
    }
    a.sort();
    a.dedup_by_key(|x| x.0);
    a
}

impl<'a> Printer<'a> {
    fn new(text: &'a str, file: &File) -> Self {
        let idx = LineIndex::new(text);
        let anchors = anchors(file);
        let mut attached = Attached::default();
        for c in &file.comments {
            let line = idx.line_of(c.span.start as usize);
            // The last anchor ending before the comment on the same line, if any.
            let before = anchors.partition_point(|&(s, _)| s < c.span.start);
            // Anchors are single lines, so only those starting on the comment's
            // line can precede it there; walking back stops at the line start.
            let trailing = anchors[..before]
                .iter()
                .rev()
                .take_while(|&&(s, _)| idx.line_of(s as usize) == line)
                .filter(|&&(_, e)| e <= c.span.start)
                .max_by_key(|&&(_, e)| e);
            if let Some(&(s, _)) = trailing {
                if let std::collections::hash_map::Entry::Vacant(v) = attached.trailing.entry(s) {
                    v.insert(c.span);
                    continue;
                }
            }
            match anchors.get(before) {
                Some(&(s, _)) => attached.leading.entry(s).or_default().push(c.span),
                None => attached.end.push(c.span),
            }
        }
        Printer {
            text,
            attached,
            out: String::new(),
        }
    }

    fn comment(&self, s: Span) -> &'a str {
        self.text[s.range()].trim_end()
    }

    /// Writes one line for the node starting at `anchor`, with its comments.
    fn line(&mut self, depth: usize, anchor: u32, content: &str) {
        let pad = "  ".repeat(depth);
        if let Some(cs) = self.attached.leading.remove(&anchor) {
            // Comments above a closing brace are the block's last lines, so
            // they take the block's inner indent, not the brace's.
            let inner = if content.trim() == "}" { "  " } else { "" };
            for c in cs {
                let c = self.comment(c);
                self.out.push_str(&format!("{pad}{inner}{c}\n"));
            }
        }
        self.out.push_str(&pad);
        self.out.push_str(content.trim_end());
        if let Some(c) = self.attached.trailing.remove(&anchor) {
            let c = self.comment(c);
            self.out.push_str("  ");
            self.out.push_str(c);
        }
        self.out.push('\n');
    }

    fn blank(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    fn print(mut self, file: &File) -> String {
        if let Some(p) = &file.pack {
            self.pack(p);
        }
        let rank = |i: &Item| match i {
            Item::Palette(_) => 0,
            Item::Glossary(_) => 1,
            Item::Legend(_) => 2,
            Item::Level(_) => 3,
        };
        let mut items: Vec<&Item> = file.items.iter().collect();
        items.sort_by_key(|i| rank(i));
        for item in items {
            self.blank();
            match item {
                Item::Palette(p) => self.palette(p),
                Item::Glossary(g) => self.glossary(g),
                Item::Legend(l) => self.legend(l, 0),
                Item::Level(l) => self.level(l),
            }
        }
        let end = std::mem::take(&mut self.attached.end);
        if !end.is_empty() {
            self.blank();
            for c in end {
                let c = self.comment(c);
                self.out.push_str(c);
                self.out.push('\n');
            }
        }
        self.out
    }

    fn pack(&mut self, p: &PackHeader) {
        self.line(0, p.block.header.start, &format!("pack {} {{", p.id.text));
        let rank = |k: &PackStmtKind| match k {
            PackStmtKind::Name(_) => 0,
            PackStmtKind::Version(_) => 1,
            PackStmtKind::Engine(_) => 2,
            PackStmtKind::Rules(_) => 3,
            PackStmtKind::World { .. } => 4,
            PackStmtKind::Vocabulary(_) => 5,
            PackStmtKind::Allow(_) => 6,
        };
        let mut stmts: Vec<&PackStmt> = p.stmts.iter().collect();
        stmts.sort_by_key(|s| rank(&s.kind));
        for s in stmts {
            let (kw, rest) = match &s.kind {
                PackStmtKind::Name(v) => ("name", quote(&v.value)),
                PackStmtKind::Version(v) => ("version", quote(&v.value)),
                PackStmtKind::Engine(n) => ("engine", n.value.to_string()),
                PackStmtKind::Rules(n) => ("rules", n.value.to_string()),
                PackStmtKind::World {
                    glyph,
                    tagline,
                    accent,
                } => {
                    let mut r = format!("glyph {}", quote(&glyph.value));
                    if let Some(t) = tagline {
                        r.push_str(&format!(" tagline {}", quote(&t.value)));
                    }
                    if let Some(a) = accent {
                        r.push_str(&format!(" accent {}", a.text));
                    }
                    ("world", r)
                }
                PackStmtKind::Vocabulary(ws) => ("vocabulary", idents(ws)),
                PackStmtKind::Allow(a) => ("allow", allow(a)),
            };
            self.line(1, s.span.start, &format!("{kw:<8} {rest}"));
        }
        self.line(0, p.block.close.start, "}");
    }

    fn palette(&mut self, p: &Palette) {
        self.line(0, p.block.header.start, "palette {");
        let w = p
            .entries
            .iter()
            .map(|e| width(&e.noun.text))
            .max()
            .unwrap_or(0);
        for e in &p.entries {
            let mut s = format!("{} {}", pad(&e.noun.text, w), quote(&e.glyph.value));
            if let Some(f) = &e.faces {
                s.push_str(&format!(" faces {}", f.text));
            }
            if let Some(f) = &e.fallback {
                s.push_str(&format!(" fallback {}", quote(&f.value)));
            }
            if e.terrain {
                s.push_str(" terrain");
            }
            self.line(1, e.span.start, &s);
        }
        self.line(0, p.block.close.start, "}");
    }

    fn glossary(&mut self, g: &Glossary) {
        self.line(0, g.block.header.start, "glossary {");
        let w = g
            .entries
            .iter()
            .map(|e| width(&e.word.text))
            .max()
            .unwrap_or(0);
        for e in &g.entries {
            let s = format!(
                "{} accent {} describe {}",
                pad(&e.word.text, w),
                e.accent.text,
                quote(&e.describe.value)
            );
            self.line(1, e.span.start, &s);
        }
        self.line(0, g.block.close.start, "}");
    }

    fn legend(&mut self, l: &Legend, depth: usize) {
        self.line(depth, l.block.header.start, "legend {");
        let w = l
            .entries
            .iter()
            .map(|e| width(&e.key.text))
            .max()
            .unwrap_or(0);
        for e in &l.entries {
            let spaced = e.things.iter().any(|t| t.channel.is_some());
            let things: Vec<String> = e
                .things
                .iter()
                .map(|t| match &t.channel {
                    Some(c) => format!("{} channel {}", t.noun.text, c.text),
                    None => t.noun.text.clone(),
                })
                .collect();
            let value = things.join(if spaced { " + " } else { "+" });
            self.line(
                depth + 1,
                e.span.start,
                &format!("{} {value}", pad(&e.key.text, w)),
            );
        }
        self.line(depth, l.block.close.start, "}");
    }

    fn level(&mut self, l: &Level) {
        use LevelStmtKind as L;
        self.line(0, l.block.header.start, &format!("level {} {{", l.id.text));
        let rank = |k: &L| match k {
            L::Title(_) => 0,
            L::Category(_) => 1,
            L::Introduces(_) => 2,
            L::Reuses(_) => 3,
            L::Hint(_) => 4,
            L::Solution(_) => 5,
            L::Steps(..) => 6,
            L::MustForm(_) => 7,
            L::MustBreak(_) => 8,
            L::MustLoseWord => 9,
            L::MustHappen(..) => 10,
            L::Budget(_) => 11,
            L::Allow(_) => 12,
            L::Terrain(_) => 13,
            L::Automaton(_) => 14,
            L::Pair(_) => 15,
            L::Frail(_) => 16,
        };
        let mut stmts: Vec<&LevelStmt> = l.stmts.iter().collect();
        stmts.sort_by_key(|s| rank(&s.kind));
        for s in &stmts {
            let (kw, rest) = match &s.kind {
                L::Title(v) => ("title", quote(&v.value)),
                L::Category(v) => ("category", v.text.clone()),
                L::Introduces(v) => ("introduces", listed(v)),
                L::Reuses(v) => ("reuses", listed(v)),
                L::Hint(v) => ("hint", quote(&v.value)),
                L::Solution(v) => ("solution", quote(&crate::model::route_upper(&v.value))),
                L::Steps(n, None) => ("steps", n.value.to_string()),
                L::Steps(n, Some(b)) => ("steps", format!("{} at-least {}", n.value, b.value)),
                L::MustForm(v) => ("must-form", quote(&v.value)),
                L::MustBreak(v) => ("must-break", quote(&v.value)),
                L::MustLoseWord => ("must-lose-word", String::new()),
                L::MustHappen(kind, args) => (kind.keyword(), idents(args)),
                L::Budget(n) => ("budget", n.value.to_string()),
                L::Allow(a) => ("allow", allow(a)),
                L::Terrain(ws) => ("terrain", idents(ws)),
                L::Automaton(a) => {
                    let mut r = format!("{} property {}", a.id.text, a.property.text);
                    if let Some(s) = &a.subject {
                        r.push_str(&format!(" subject {}", s.text));
                    }
                    if let Some(p) = &a.phase {
                        r.push_str(&format!(" phase {}", p.value));
                    }
                    r.push_str(&format!(" pattern {}", quote(&a.pattern.value)));
                    ("automaton", r)
                }
                L::Pair(p) => {
                    let effect = p
                        .effect
                        .as_ref()
                        .map_or("destroy-both", |e| e.text.as_str());
                    let mut r = format!("{} effect {effect}", idents(&p.words));
                    if p.enter {
                        r.push_str(" enter");
                    }
                    ("pair", r)
                }
                L::Frail(leaves) => {
                    let r: Vec<String> = leaves
                        .iter()
                        .map(|(a, b)| format!("{} -> {}", a.text, b.text))
                        .collect();
                    ("frail", r.join(", "))
                }
            };
            // `must-lose-word`, `must-pair` and `must-push-word` take no
            // argument: no trailing space.
            let text = format!("{kw:<10} {rest}");
            self.line(1, s.span.start, text.trim_end());
        }
        if let Some(lg) = &l.legend {
            if !stmts.is_empty() {
                self.blank();
            }
            self.legend(lg, 1);
        }
        if let Some(b) = &l.board {
            if !stmts.is_empty() || l.legend.is_some() {
                self.blank();
            }
            self.board(b);
        }
        self.line(0, l.block.close.start, "}");
    }

    fn board(&mut self, b: &Board) {
        self.line(1, b.block.header.start, "board {");
        let mut widths: Vec<usize> = Vec::new();
        for r in &b.rows {
            for (i, c) in r.cells.iter().enumerate() {
                if widths.len() <= i {
                    widths.push(0);
                }
                widths[i] = widths[i].max(width(&c.text));
            }
        }
        for r in &b.rows {
            let cells: Vec<String> = r
                .cells
                .iter()
                .enumerate()
                .map(|(i, c)| pad(&c.text, widths[i]))
                .collect();
            self.line(2, r.span.start, &cells.join(" "));
        }
        self.line(1, b.block.close.start, "}");
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

fn idents(ws: &[Ident]) -> String {
    ws.iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn listed(v: &[Listed]) -> String {
    v.iter()
        .map(|l| match l {
            Listed::Word(w) => w.text.clone(),
            Listed::Idea(s) => quote(&s.value),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn allow(a: &Allow) -> String {
    match &a.reason {
        Some(r) => format!("{} {}", a.code.text, quote(&r.value)),
        None => a.code.text.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_the_reference_example_idempotently() {
        let text = include_str!("../tests/fixtures/syntax/valid-crate-works.miau");
        let once = format(text).expect("formats");
        let twice = format(&once).expect("formats again");
        assert_eq!(once, twice);
        // Every comment survives.
        assert_eq!(once.matches("//").count(), text.matches("//").count());
        assert!(once.contains("    MIAU IS YOU . WALL IS STOP . CRATE IS PUSH\n    #    #  #   # #    #  #    # #     #  #\n"), "{once}");
        assert!(
            once.contains(
                "  solution   \"RRRRRRRURRDDRDR\"  // recorded route: check replays it\n"
            )
        );
    }

    #[test]
    fn canonicalises_order_nesting_and_comments() {
        let text = "pack p1 {\n  version \"1\"\n  // the name\n  name \"P\"\n  legend { x ROCK }\n}\nlevel l1 {\n board {\n x  . MIAU // row\n  . WALL! x\n }\n  hint \"h\"\n  title \"T\" // t\n}\n// end\n";
        let out = format(text).expect("formats");
        let expected = "pack p1 {\n  // the name\n  name     \"P\"\n  version  \"1\"\n}\n\nlegend {\n  x ROCK\n}\n\nlevel l1 {\n  title      \"T\"  // t\n  hint       \"h\"\n\n  board {\n    x .     MIAU  // row\n    . WALL! x\n  }\n}\n\n// end\n";
        assert_eq!(out, expected);
        assert_eq!(format(&out).unwrap(), out);
    }

    /// `steps N at-least M` reads, formats and reads again to the same
    /// model; the bound needs its keyword and a whole number.
    #[test]
    fn a_bounded_length_round_trips() {
        let text = "pack p {\n  name \"P\"\n  version \"1\"\n  engine 1\n}\nlevel l {\n  title \"T\"\n  steps   131   at-least  38\n  board {\n    MIAU IS YOU\n  }\n}\n";
        let out = format(text).expect("formats");
        assert!(out.contains("\n  steps      131 at-least 38\n"), "{out}");
        assert_eq!(format(&out).unwrap(), out);
        let (before, _) = crate::lower::lower(&crate::syntax::parse(text).0);
        let (after, _) = crate::lower::lower(&crate::syntax::parse(&out).0);
        for pack in [&before, &after] {
            assert_eq!(pack.levels[0].check.steps, Some(131));
            assert_eq!(pack.levels[0].check.steps_at_least, Some(38));
        }
        for bad in ["steps 131 at-least", "steps 131 38", "steps 131 at-most 38"] {
            let errs = format(&text.replace("steps   131   at-least  38", bad)).unwrap_err();
            assert_eq!(errs[0].code(), "M106", "{bad}");
        }
    }

    #[test]
    fn a_comment_above_a_closing_brace_keeps_the_block_indent() {
        let text = "level l1 {\n  title \"T\"\n  board {\n    MIAU IS YOU\n    // last row\n  }\n  // the end of the level\n}\n";
        let out = format(text).expect("formats");
        assert!(
            out.contains("\n  }\n  // the end of the level\n}\n"),
            "{out}"
        );
        assert!(out.contains("\n    // last row\n  }\n"), "{out}");
        assert_eq!(format(&out).unwrap(), out);
    }

    #[test]
    fn refuses_text_with_errors() {
        let errs = format("level l1 {\n  title \"x\n}\n").unwrap_err();
        assert_eq!(errs[0].code(), "M101");
    }
}
