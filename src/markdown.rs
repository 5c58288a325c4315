//! The reference pages (`miauc explain`) for a terminal: Markdown in,
//! wrapped text out, with no `**`, backticks or link syntax left.
//!
//! A pure function of the text, the width and whether to style: the shell
//! decides (a terminal gets this, a pipe the raw Markdown, which is the
//! better input for another program). Parsing is pulldown-cmark's; this
//! module only lays the events out:
//!
//! - headings bold and underlined (without styles: the text over a rule);
//! - paragraphs and list items wrapped to the width, items hanging after
//!   their `•` or number;
//! - **strong** bold, *emphasis* italic, `code` in colour (without styles:
//!   the bare text);
//! - a link's text, then its address in parentheses unless it is an anchor
//!   of the same page or the text already says it;
//! - code blocks indented four columns, never wrapped (boards keep their
//!   columns);
//! - tables with padded columns under a rule, or, when too wide for the
//!   width, one block per row of `heading: value` lines;
//! - HTML (anchors, comments) left out.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use unicode_width::UnicodeWidthStr;

/// The narrowest width laid out; a smaller one is raised to it.
const MIN_WIDTH: usize = 20;

/// `markdown` laid out for a terminal `width` columns wide, with ANSI styles
/// when `styled`.
pub fn to_terminal(markdown: &str, width: usize, styled: bool) -> String {
    let mut w = Writer {
        width: width.max(MIN_WIDTH),
        styled,
        ..Writer::default()
    };
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
    );
    for event in parser {
        w.event(event);
    }
    w.flush();
    let mut out = w.out.trim_end().to_string();
    out.push('\n');
    out
}

/// How a run of text is drawn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Style {
    bold: bool,
    italic: bool,
    code: bool,
    heading: bool,
    dim: bool,
}

impl Style {
    /// The SGR parameters that draw this style, empty for plain text.
    fn sgr(self) -> String {
        let mut p: Vec<&str> = Vec::new();
        if self.bold || self.heading {
            p.push("1");
        }
        if self.italic {
            p.push("3");
        }
        if self.heading {
            p.push("4");
        }
        if self.dim {
            p.push("2");
        }
        if self.code {
            p.push("36");
        }
        p.join(";")
    }
}

/// A run of inline text in one style; `"\n"` alone is a hard break.
type Run = (String, Style);

/// A list being written: the next number of an ordered list.
#[derive(Debug, Clone, Copy)]
struct List {
    next: Option<u64>,
}

/// A table being collected: rows of cells of runs, the first row the head.
#[derive(Debug, Default)]
struct Table {
    rows: Vec<Vec<Vec<Run>>>,
}

/// The layout state over the parser's events.
#[derive(Debug, Default)]
struct Writer {
    out: String,
    width: usize,
    styled: bool,
    /// The inline text of the block being written.
    inline: Vec<Run>,
    style: Style,
    /// Addresses of the links being written, with where their text starts.
    links: Vec<(String, usize)>,
    lists: Vec<List>,
    /// The marker of a list item whose first line isn't written yet.
    marker: Option<String>,
    quote: usize,
    /// The text of a code block being written.
    code: Option<String>,
    table: Option<Table>,
    /// A blank line is owed before the next block.
    gap: bool,
    /// Inside a heading.
    heading: bool,
    /// Inside HTML, whose text is left out.
    html: bool,
}

impl Writer {
    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if self.html {
                } else if let Some(code) = &mut self.code {
                    code.push_str(&t);
                } else {
                    self.push(&t, self.style);
                }
            }
            Event::Code(t) => {
                let style = Style {
                    code: true,
                    ..self.style
                };
                self.push(&t, style);
            }
            Event::SoftBreak => self.push(" ", self.style),
            Event::HardBreak => self.inline.push(("\n".into(), self.style)),
            Event::Rule => {
                self.flush();
                self.block_gap();
                let rule = "─".repeat(self.width.min(40));
                let line = self.paint(
                    &rule,
                    Style {
                        dim: true,
                        ..Style::default()
                    },
                );
                self.line(&line);
                self.gap = true;
            }
            Event::TaskListMarker(done) => {
                self.push(if done { "[x] " } else { "[ ] " }, self.style)
            }
            Event::InlineMath(t) | Event::DisplayMath(t) => self.push(&t, self.style),
            Event::FootnoteReference(t) => self.push(&format!("[{t}]"), self.style),
            Event::Html(_) | Event::InlineHtml(_) => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => self.flush(),
            Tag::Heading { .. } => {
                self.flush();
                self.heading = true;
                self.style.heading = true;
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.quote += 1;
            }
            // A fence's language says nothing a reader needs.
            Tag::CodeBlock(_) => {
                self.flush();
                self.code = Some(String::new());
            }
            Tag::HtmlBlock => self.html = true,
            Tag::List(first) => {
                self.flush();
                if self.lists.is_empty() {
                    self.block_gap();
                }
                self.lists.push(List { next: first });
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(List { next: Some(n) }) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "• ".to_string(),
                };
                self.marker = Some(marker);
            }
            Tag::Table(_) => {
                self.flush();
                self.table = Some(Table::default());
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(t) = &mut self.table {
                    t.rows.push(Vec::new());
                }
            }
            Tag::TableCell => self.inline.clear(),
            Tag::Emphasis => self.style.italic = true,
            Tag::Strong => self.style.bold = true,
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                let at = self.inline.len();
                self.links.push((dest_url.to_string(), at));
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                self.flush();
                self.gap = true;
            }
            TagEnd::Heading(level) => {
                self.heading = false;
                self.style.heading = false;
                let runs = std::mem::take(&mut self.inline);
                self.block_gap();
                let text: String = runs.iter().map(|r| r.0.as_str()).collect();
                let text = text.trim().to_string();
                if self.styled {
                    let line = self.paint(
                        &text,
                        Style {
                            heading: true,
                            ..Style::default()
                        },
                    );
                    self.line(&line);
                } else {
                    self.line(&text);
                    let ch = if matches!(level, HeadingLevel::H1 | HeadingLevel::H2) {
                        "═"
                    } else {
                        "─"
                    };
                    self.line(&ch.repeat(text.width().min(self.width)));
                }
                self.gap = true;
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
                self.gap = true;
            }
            TagEnd::CodeBlock => {
                let code = self.code.take().unwrap_or_default();
                self.block_gap();
                let style = Style {
                    code: true,
                    ..Style::default()
                };
                for l in code.trim_end_matches('\n').lines() {
                    let painted = self.paint(l, style);
                    let indent = self.indent();
                    self.line(&format!("{indent}    {painted}"));
                }
                self.gap = true;
            }
            TagEnd::HtmlBlock => self.html = false,
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.gap = true;
                }
            }
            TagEnd::Item => self.flush(),
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    self.table_out(t);
                }
                self.gap = true;
            }
            TagEnd::TableHead | TagEnd::TableRow => {}
            TagEnd::TableCell => {
                let cell = std::mem::take(&mut self.inline);
                if let Some(row) = self.table.as_mut().and_then(|t| t.rows.last_mut()) {
                    row.push(cell);
                }
            }
            TagEnd::Emphasis => self.style.italic = false,
            TagEnd::Strong => self.style.bold = false,
            TagEnd::Link | TagEnd::Image => {
                if let Some((dest, at)) = self.links.pop() {
                    let text: String = self.inline[at.min(self.inline.len())..]
                        .iter()
                        .map(|r| r.0.as_str())
                        .collect();
                    if !dest.starts_with('#') && !dest.is_empty() && text.trim() != dest {
                        let style = Style {
                            dim: true,
                            ..Style::default()
                        };
                        self.push(&format!(" ({dest})"), style);
                    }
                }
            }
            _ => {}
        }
    }

    /// Add inline text.
    fn push(&mut self, text: &str, style: Style) {
        if !self.html {
            self.inline.push((text.to_string(), style));
        }
    }

    /// Text wrapped in `style`'s escape codes (as is without styles).
    fn paint(&self, text: &str, style: Style) -> String {
        let sgr = style.sgr();
        if !self.styled || sgr.is_empty() || text.is_empty() {
            text.to_string()
        } else {
            format!("\x1b[{sgr}m{text}\x1b[0m")
        }
    }

    /// The prefix of every line at this depth: quote bars and list indents.
    fn indent(&self) -> String {
        let mut s = "│ ".repeat(self.quote);
        // Each enclosing list indents its items' text by two columns.
        s.push_str(&"  ".repeat(self.lists.len().saturating_sub(1)));
        s
    }

    /// Write one finished line.
    fn line(&mut self, text: &str) {
        self.out.push_str(text.trim_end());
        self.out.push('\n');
    }

    /// The blank line owed before a block, once.
    fn block_gap(&mut self) {
        if self.gap && !self.out.is_empty() {
            self.out.push('\n');
        }
        self.gap = false;
    }

    /// Wrap and write the inline text gathered so far, as a paragraph or the
    /// text of a list item.
    fn flush(&mut self) {
        let runs = std::mem::take(&mut self.inline);
        let marker = self.marker.take();
        if runs.iter().all(|r| r.0.trim().is_empty()) {
            if let Some(m) = marker {
                // An item that opens with a nested block: its marker alone.
                self.block_gap();
                let indent = self.indent();
                self.line(&format!("{indent}{m}"));
            }
            return;
        }
        self.block_gap();
        let indent = self.indent();
        let (first, rest) = match &marker {
            Some(m) => (
                format!("{indent}{m}"),
                format!("{indent}{}", " ".repeat(m.width())),
            ),
            None if !self.lists.is_empty() => (format!("{indent}  "), format!("{indent}  ")),
            None => (indent.clone(), indent),
        };
        for l in self.wrap(&runs, &first, &rest) {
            self.line(&l);
        }
    }

    /// Lay out runs in lines of at most the width (a word longer than a line
    /// gets a line of its own), the first line after `first`, the others
    /// after `rest`.
    fn wrap(&self, runs: &[Run], first: &str, rest: &str) -> Vec<String> {
        let words = words(runs);
        let mut lines = Vec::new();
        let mut line = first.to_string();
        let mut used = first.width();
        let mut empty = true;
        for word in words {
            let Some(word) = word else {
                lines.push(std::mem::replace(&mut line, rest.to_string()));
                used = rest.width();
                empty = true;
                continue;
            };
            let w: usize = word.iter().map(|r| r.0.width()).sum();
            if !empty && used + 1 + w > self.width {
                lines.push(std::mem::replace(&mut line, rest.to_string()));
                used = rest.width();
                empty = true;
            }
            if !empty {
                line.push(' ');
                used += 1;
            }
            for (text, style) in &word {
                line.push_str(&self.paint(text, *style));
            }
            used += w;
            empty = false;
        }
        if !empty {
            lines.push(line);
        }
        lines
    }

    /// Write a table: padded columns under a rule, or row blocks when the
    /// columns don't fit the width.
    fn table_out(&mut self, table: Table) {
        self.block_gap();
        let indent = self.indent();
        // A cell on one line, painted, with its width; the head row bold.
        let text = |cell: &[Run], head: bool| -> (String, usize) {
            let mut s = String::new();
            let mut w = 0;
            for word in words(cell).into_iter().flatten() {
                if w > 0 {
                    s.push(' ');
                    w += 1;
                }
                for (t, style) in &word {
                    let style = Style {
                        bold: style.bold || head,
                        ..*style
                    };
                    s.push_str(&self.paint(t, style));
                    w += t.width();
                }
            }
            (s, w)
        };
        let rows: Vec<Vec<(String, usize)>> = table
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| r.iter().map(|c| text(c, i == 0)).collect())
            .collect();
        let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..cols)
            .map(|c| {
                rows.iter()
                    .filter_map(|r| r.get(c).map(|x| x.1))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let total = indent.width() + widths.iter().sum::<usize>() + 3 * cols.saturating_sub(1);
        if total <= self.width {
            for (i, row) in rows.iter().enumerate() {
                let mut line = indent.clone();
                for (c, width) in widths.iter().enumerate() {
                    let (s, w) = row.get(c).cloned().unwrap_or_default();
                    if c > 0 {
                        line.push_str(" │ ");
                    }
                    line.push_str(&s);
                    line.push_str(&" ".repeat(width - w));
                }
                self.line(&line);
                if i == 0 {
                    let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
                    self.line(&format!("{indent}{}", rule.join("─┼─")));
                }
            }
            return;
        }
        // Too wide: each row as `heading: value` lines, wrapped.
        let head: Vec<Vec<Run>> = table.rows.first().cloned().unwrap_or_default();
        for (i, row) in table.rows.iter().enumerate().skip(1) {
            if i > 1 {
                self.line("");
            }
            for (c, cell) in row.iter().enumerate() {
                let mut runs: Vec<Run> = head
                    .get(c)
                    .map(|h| {
                        h.iter()
                            .map(|(t, s)| (t.clone(), Style { bold: true, ..*s }))
                            .collect()
                    })
                    .unwrap_or_default();
                runs.push((
                    ":".into(),
                    Style {
                        bold: true,
                        ..Style::default()
                    },
                ));
                runs.push((" ".into(), Style::default()));
                runs.extend(cell.iter().cloned());
                let rest = format!("{indent}  ");
                for l in self.wrap(&runs, &indent, &rest) {
                    self.line(&l);
                }
            }
        }
    }
}

/// Split runs into words (runs joined without a space between them), with
/// `None` for a hard break. A code span's spaces don't break it.
fn words(runs: &[Run]) -> Vec<Option<Vec<Run>>> {
    let mut out: Vec<Option<Vec<Run>>> = Vec::new();
    let mut word: Vec<Run> = Vec::new();
    let end = |word: &mut Vec<Run>, out: &mut Vec<Option<Vec<Run>>>| {
        if !word.is_empty() {
            out.push(Some(std::mem::take(word)));
        }
    };
    for (text, style) in runs {
        if text == "\n" {
            end(&mut word, &mut out);
            out.push(None);
            continue;
        }
        if style.code {
            word.push((text.clone(), *style));
            continue;
        }
        let mut piece = String::new();
        for ch in text.chars() {
            if ch.is_whitespace() {
                if !piece.is_empty() {
                    word.push((std::mem::take(&mut piece), *style));
                }
                end(&mut word, &mut out);
            } else {
                piece.push(ch);
            }
        }
        if !piece.is_empty() {
            word.push((piece, *style));
        }
    }
    end(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::to_terminal;

    const PAGE: &str = "### M301 undeclared-property-word\n\n\
        **Severity:** warning\n\n\
        **What triggers it.** A word such as `STPO` that is no property, \
        see [the rules](rules.md#sink) and [below](#example).\n\n\
        - first item, long enough that it has to wrap onto a second line here\n\
        - second\n  1. nested one\n  2. nested two\n\n\
        ```miau\nboard {\n  MIAU IS YOU\n}\n```\n\n\
        | key | thing |\n| --- | --- |\n| `s` | SHELL |\n| `w` | WATER |\n";

    #[test]
    fn a_page_reads_without_markup() {
        let plain = to_terminal(PAGE, 40, false);
        insta::assert_snapshot!("markdown_plain", plain);
        for raw in ["**", "`", "](", "###", "| ---"] {
            assert!(!plain.contains(raw), "{raw} left in:\n{plain}");
        }
        assert!(
            plain
                .lines()
                .all(|l| unicode_width::UnicodeWidthStr::width(l) <= 40),
            "{plain}"
        );
    }

    #[test]
    fn styles_are_escape_codes() {
        let styled = to_terminal(PAGE, 60, true);
        insta::assert_snapshot!("markdown_styled", styled.replace('\x1b', "\\e"));
        assert!(
            styled.contains("\x1b[1;4mM301 undeclared-property-word\x1b[0m"),
            "{styled}"
        );
        assert!(styled.contains("\x1b[36mSTPO\x1b[0m"), "{styled}");
    }

    #[test]
    fn a_wide_table_becomes_row_blocks() {
        let md = "| code | what it means in a long sentence |\n| --- | --- |\n\
                  | M301 | a word that is neither a noun nor a property of the level |\n";
        let out = to_terminal(md, 30, false);
        assert_eq!(
            out,
            "code: M301\nwhat it means in a long\n  sentence: a word that is\n  neither a noun nor a\n  property of the level\n"
        );
    }

    #[test]
    fn every_reference_page_lays_out() {
        for info in crate::diag::CATALOGUE {
            let page = crate::diag::explain(info.code).unwrap();
            let out = to_terminal(&page, 80, false);
            assert!(!out.contains("**"), "{}:\n{out}", info.code);
            assert!(out.contains(info.name), "{}:\n{out}", info.code);
        }
        for topic in crate::reference::anchors() {
            if let Some(page) = crate::diag::explain(&topic) {
                let out = to_terminal(&page, 80, false);
                assert!(!out.contains("]("), "{topic}:\n{out}");
            }
        }
    }
}
