//! Where the player's panels go for the terminal size it has, and which part
//! of the board is in view. Plain arithmetic over sizes, so the tests try
//! any size without a terminal.
//!
//! The board comes first: it is drawn with its pictures when they fit beside
//! or above the rules, else with the ASCII cells (as `--ascii` draws), else
//! the ASCII cells are scrolled so the YOU things (and, when there is room,
//! what wins) stay in view. The rules take the width their lines need, beside
//! the board or below it, or shrink to a few lines of text.

use ratatui::layout::Rect;
use std::ops::Range;

/// The narrowest terminal the player draws into.
pub const MIN_WIDTH: u16 = 40;
/// The shortest terminal the player draws into.
pub const MIN_HEIGHT: u16 = 12;

/// When the board scrolls, the rules panel goes below it only if the board
/// keeps at least this many rows; else the rules run as a line of text.
const MIN_SCROLLED_ROWS: u16 = 5;
/// The narrowest board box the rules panel may leave beside itself.
const MIN_SCROLLED_WIDTH: u16 = 30;

/// A board drawn one way: each column's width in terminal cells (without the
/// space between columns), and its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// The width of each column of cells.
    pub columns: Vec<u16>,
    /// The number of rows.
    pub rows: u16,
}

impl Grid {
    /// Terminal columns the cell columns `range` take, one space between cells.
    pub fn span(&self, range: Range<usize>) -> u32 {
        let n = range.len() as u32;
        self.columns[range]
            .iter()
            .map(|&w| u32::from(w))
            .sum::<u32>()
            + n.saturating_sub(1)
    }

    /// Terminal columns of the whole board.
    pub fn width(&self) -> u32 {
        self.span(0..self.columns.len())
    }
}

/// What the screen has to show, measured.
#[derive(Debug, Clone)]
pub struct Content<'a> {
    /// The board in pictures (`None` with `--ascii`).
    pub picture: Option<&'a Grid>,
    /// The board in ASCII cells.
    pub ascii: &'a Grid,
    /// The widest rule line, in terminal cells.
    pub rules_width: u16,
    /// The number of rule lines.
    pub rules: u16,
    /// The rules as running text, wrapped to the terminal's width: its lines.
    pub compact_rules_lines: u16,
}

/// How the rules are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesStyle {
    /// A bordered panel, one rule a line.
    Panel,
    /// Running text under the board, `rules: A IS B · C IS D`.
    Compact,
}

/// The screen's areas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screen {
    /// The level's title and turn.
    pub title: Rect,
    /// The board's box, borders included.
    pub board: Rect,
    /// Whether the board is drawn in ASCII cells.
    pub ascii: bool,
    /// The rules' area.
    pub rules: Rect,
    /// How the rules are drawn there.
    pub rules_style: RulesStyle,
    /// What the last turn did, and the status message.
    pub events: Rect,
    /// Whether the events have a box (tall terminals) or are bare lines.
    pub events_boxed: bool,
    /// The key hints.
    pub help: Rect,
}

impl Screen {
    /// The board's inside (its box without borders).
    pub fn board_inner(&self) -> Rect {
        inner(self.board)
    }
}

/// A rectangle without its one-cell border.
pub fn inner(r: Rect) -> Rect {
    Rect {
        x: r.x + 1,
        y: r.y + 1,
        width: r.width.saturating_sub(2),
        height: r.height.saturating_sub(2),
    }
}

/// The events' height for a terminal `height` rows tall: a box of four
/// lines, a box of two, or one bare line.
fn events_height(height: u16) -> (u16, bool) {
    if height >= 24 {
        (6, true)
    } else if height >= 16 {
        (4, true)
    } else {
        (1, false)
    }
}

/// The most lines the rules take as running text: one in a short terminal.
fn compact_rule_lines(height: u16) -> u16 {
    if height >= 16 { 2 } else { 1 }
}

/// The areas for a terminal of `area`; `None` when it is smaller than
/// [`MIN_WIDTH`] × [`MIN_HEIGHT`].
pub fn plan(area: Rect, content: &Content<'_>) -> Option<Screen> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let (events_h, events_boxed) = events_height(area.height);
    let main = Rect {
        x: area.x,
        y: area.y + 1,
        width: area.width,
        height: area.height - 2 - events_h,
    };
    let compact = content
        .compact_rules_lines
        .clamp(1, compact_rule_lines(area.height));
    let (board, ascii, rules, rules_style) = place(main, content, compact);
    Some(Screen {
        title: Rect { height: 1, ..area },
        board,
        ascii,
        rules,
        rules_style,
        events: Rect {
            x: area.x,
            y: main.bottom(),
            width: area.width,
            height: events_h,
        },
        events_boxed,
        help: Rect {
            x: area.x,
            y: area.bottom() - 1,
            width: area.width,
            height: 1,
        },
    })
}

/// A box around `w` × `h` cells of content, at least wide enough for a short title.
fn boxed(w: u32, h: u16) -> (u32, u16) {
    ((w + 2).max(9), h.saturating_add(2))
}

/// The board's box, whether it is ASCII, the rules' area and style in `main`.
fn place(main: Rect, c: &Content<'_>, compact: u16) -> (Rect, bool, Rect, RulesStyle) {
    let (rules_w, rules_h) = boxed(u32::from(c.rules_width), c.rules.max(1));
    let rules_w = rules_w.min(u32::from(main.width)) as u16;
    let (w, h) = (u32::from(main.width), main.height);
    let at = |x: u16, y: u16, width: u16, height: u16| Rect {
        x: main.x + x,
        y: main.y + y,
        width,
        height,
    };
    let grids = c
        .picture
        .map(|g| (g, false))
        .into_iter()
        .chain([(c.ascii, true)]);
    for (grid, ascii) in grids {
        let (bw, bh) = boxed(grid.width(), grid.rows);
        if bw + u32::from(rules_w) <= w && bh.max(rules_h) <= h {
            let bw = bw as u16;
            return (
                at(0, 0, bw, bh),
                ascii,
                at(bw, 0, rules_w, rules_h),
                RulesStyle::Panel,
            );
        }
        if bw <= w && bh + rules_h <= h {
            return (
                at(0, 0, bw as u16, bh),
                ascii,
                at(0, bh, rules_w, rules_h),
                RulesStyle::Panel,
            );
        }
    }
    // The board does not fit whole beside its rules: ASCII cells, scrolled
    // unless only the rules panel was in the way.
    let (bw, bh) = boxed(c.ascii.width(), c.ascii.rows);
    let bw = bw.min(w) as u16;
    if main.width.saturating_sub(rules_w) >= MIN_SCROLLED_WIDTH.min(bw) && rules_h <= h {
        let bw = bw.min(main.width - rules_w);
        return (
            at(0, 0, bw, bh.min(h)),
            true,
            at(bw, 0, rules_w, rules_h),
            RulesStyle::Panel,
        );
    }
    let least = bh.min(MIN_SCROLLED_ROWS + 2);
    if h.saturating_sub(rules_h) >= least {
        let board_h = bh.min(h - rules_h);
        return (
            at(0, 0, bw, board_h),
            true,
            at(0, board_h, rules_w, rules_h),
            RulesStyle::Panel,
        );
    }
    let board_h = bh.min(h.saturating_sub(compact));
    (
        at(0, 0, bw, board_h),
        true,
        at(0, board_h, main.width, h - board_h),
        RulesStyle::Compact,
    )
}

/// The part of the board in view: cell columns and rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// The columns in view.
    pub columns: Range<usize>,
    /// The rows in view.
    pub rows: Range<usize>,
}

/// The cells to keep in view along one axis: `must` (the YOU things) always
/// when it fits, `want` (YOU and what wins) when that fits too.
#[derive(Debug, Clone, Default)]
pub struct Focus {
    /// The span of the YOU things, if any.
    pub must: Option<Range<usize>>,
    /// The span of the YOU things and what wins, if any.
    pub want: Option<Range<usize>>,
}

/// The window `[start, end)` over `n` cells along one axis, where
/// `fits(a, b)` says whether cells `a..b` fit the screen. It moves as little
/// as it can from `prev` (the start of the last view) to keep the focus in
/// view; without one it centres on the focus.
pub fn follow(
    n: usize,
    fits: impl Fn(usize, usize) -> bool,
    prev: Option<usize>,
    focus: &Focus,
) -> Range<usize> {
    if n == 0 || fits(0, n) {
        return 0..n;
    }
    let fitting = |r: &Range<usize>| fits(r.start, r.end);
    let target = match (&focus.want, &focus.must) {
        (Some(w), _) if fitting(w) => w.clone(),
        (_, Some(m)) if fitting(m) => m.clone(),
        (_, Some(m)) => m.start..m.start + 1,
        (Some(w), None) => w.start..w.start + 1,
        (None, None) => 0..1,
    };
    let mut start = match prev {
        Some(p) => p.min(target.start),
        None => centred_start(n, &fits, &target),
    };
    while start < target.start && !fits(start, target.end) {
        start += 1;
    }
    let mut end = start + 1;
    while end < n && fits(start, end + 1) {
        end += 1;
    }
    // At the far edge, show as much as fits rather than blank space.
    while end == n && start > 0 && fits(start - 1, n) {
        start -= 1;
    }
    start..end
}

/// The start of the widest window grown evenly around `target`.
fn centred_start(n: usize, fits: &impl Fn(usize, usize) -> bool, target: &Range<usize>) -> usize {
    let (mut l, mut r) = (target.start, target.end);
    loop {
        let mut grew = false;
        if r < n && fits(l, r + 1) {
            r += 1;
            grew = true;
        }
        if l > 0 && fits(l - 1, r) {
            l -= 1;
            grew = true;
        }
        if !grew {
            return l;
        }
    }
}

/// `items` joined by ` · ` into lines of at most `width` characters (an
/// item longer than a line gets a line of its own, cut by the drawing).
pub fn wrap_items(items: &[String], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for item in items {
        let len = |s: &str| unicode_width::UnicodeWidthStr::width(s);
        if !line.is_empty() && len(&line) + 3 + len(item) > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push_str(" · ");
        }
        line.push_str(item);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(columns: &[u16], rows: u16) -> Grid {
        Grid {
            columns: columns.to_vec(),
            rows,
        }
    }

    fn content<'a>(picture: Option<&'a Grid>, ascii: &'a Grid) -> Content<'a> {
        Content {
            picture,
            ascii,
            rules_width: 14,
            rules: 4,
            compact_rules_lines: 2,
        }
    }

    fn area(width: u16, height: u16) -> Rect {
        Rect::new(0, 0, width, height)
    }

    #[test]
    fn too_small_gives_no_screen() {
        let a = grid(&[1; 5], 5);
        assert!(plan(area(39, 30), &content(None, &a)).is_none());
        assert!(plan(area(100, 11), &content(None, &a)).is_none());
        assert!(plan(area(40, 12), &content(None, &a)).is_some());
    }

    #[test]
    fn pictures_when_they_fit_else_ascii_else_scrolled() {
        let picture = grid(&[5; 13], 6);
        let ascii = grid(&[2; 13], 6);
        let wide = plan(area(100, 40), &content(Some(&picture), &ascii)).unwrap();
        assert!(!wide.ascii);
        // The panels take what their content needs, side by side.
        assert_eq!(wide.board.width, 13 * 6 - 1 + 2);
        assert_eq!(wide.rules.x, wide.board.right());
        assert_eq!(wide.rules.width, 16);
        let narrow = plan(area(60, 24), &content(Some(&picture), &ascii)).unwrap();
        assert!(narrow.ascii, "{narrow:?}");
        assert_eq!(narrow.board_inner().width as u32, ascii.width());
        let big = grid(&[3; 40], 30);
        let tiny = plan(area(40, 12), &content(Some(&big), &big)).unwrap();
        assert!(tiny.ascii);
        assert!(tiny.board.right() <= 40 && tiny.rules.bottom() <= tiny.events.y);
        assert!(tiny.board_inner().height >= 5, "{tiny:?}");
        assert!(tiny.help.bottom() == 12);
    }

    #[test]
    fn the_rules_fold_below_a_board_that_is_wide() {
        let picture = grid(&[5; 12], 6);
        let ascii = grid(&[5; 12], 6);
        let s = plan(area(80, 40), &content(Some(&picture), &ascii)).unwrap();
        assert!(!s.ascii);
        assert_eq!(s.rules.y, s.board.bottom());
        assert_eq!(s.rules_style, RulesStyle::Panel);
    }

    #[test]
    fn follow_keeps_the_focus_in_view_and_moves_little() {
        let fits = |a: usize, b: usize| b - a <= 5;
        let f = |must: Range<usize>, want: Range<usize>| Focus {
            must: Some(must),
            want: Some(want),
        };
        assert_eq!(follow(4, fits, None, &f(1..2, 1..2)), 0..4);
        // Centred at first, YOU and the win together.
        let v = follow(20, fits, None, &f(10..11, 8..12));
        assert!(v.start <= 8 && v.end >= 12 && v.len() == 5, "{v:?}");
        // YOU alone when the win is too far.
        let v = follow(20, fits, None, &f(10..11, 2..11));
        assert!(v.contains(&10) && v.len() == 5, "{v:?}");
        // Later views move only when YOU would leave.
        assert_eq!(follow(20, fits, Some(7), &f(11..12, 11..12)), 7..12);
        assert_eq!(follow(20, fits, Some(7), &f(12..13, 12..13)), 8..13);
        assert_eq!(follow(20, fits, Some(7), &f(3..4, 3..4)), 3..8);
        // At the far edge the window is full.
        assert_eq!(follow(20, fits, Some(17), &f(19..20, 19..20)), 15..20);
    }

    #[test]
    fn items_wrap_at_the_separator() {
        let items: Vec<String> = ["aaaa", "bbbb", "cc"].map(String::from).to_vec();
        assert_eq!(wrap_items(&items, 11), ["aaaa · bbbb", "cc"]);
        assert_eq!(wrap_items(&items, 80), ["aaaa · bbbb · cc"]);
    }
}
