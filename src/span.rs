//! Byte spans into one source text, and the conversion to the line and column
//! positions the tools report (1-based, columns in characters; UTF-16 for LSP).

/// A half-open byte range `start..end` into one source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets; `end` is clamped to be at least `start`.
    pub fn new(start: usize, end: usize) -> Self {
        let start = start.min(u32::MAX as usize) as u32;
        let end = (end.min(u32::MAX as usize) as u32).max(start);
        Span { start, end }
    }

    /// An empty span at `offset`.
    pub fn point(offset: usize) -> Self {
        Span::new(offset, offset)
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The byte range, for slicing the source text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Whether `offset` lies inside the span (end inclusive, so a cursor just after a token hits it).
    pub fn contains(self, offset: usize) -> bool {
        (self.start as usize) <= offset && offset <= self.end as usize
    }
}

/// A block of text that moved: the spans inside `from` (bounds included)
/// move by `delta` bytes, every other span stays where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    /// Where the block was.
    pub from: Span,
    /// How far it moved.
    pub delta: i64,
}

/// Moving what a text's spans point at when a block of the text moved: the
/// editor reuses the parse, model and diagnostics of a level block that is
/// unchanged but stands at another offset. Spans outside the block (a pack
/// legend a level's things come from) keep their place; an empty span at 0,
/// which marks something not in the source, is inside a block only when the
/// block starts the text, and such results are reused only there (the
/// callers' keys say so), where nothing moves.
pub trait Shift {
    /// Move the spans inside `m.from` by `m.delta` bytes.
    fn shift(&mut self, m: Move);
}

impl Shift for Span {
    fn shift(&mut self, m: Move) {
        if m.delta == 0 || self.start < m.from.start || self.end > m.from.end {
            return;
        }
        let mv = |x: u32| (i64::from(x) + m.delta).clamp(0, i64::from(u32::MAX)) as u32;
        self.start = mv(self.start);
        self.end = mv(self.end);
    }
}

impl<T: Shift> Shift for Option<T> {
    fn shift(&mut self, m: Move) {
        if let Some(x) = self {
            x.shift(m);
        }
    }
}

impl<T: Shift> Shift for Vec<T> {
    fn shift(&mut self, m: Move) {
        for x in self {
            x.shift(m);
        }
    }
}

impl<A: Shift, B: Shift> Shift for (A, B) {
    fn shift(&mut self, m: Move) {
        self.0.shift(m);
        self.1.shift(m);
    }
}

/// A 1-based line and column, the column counted in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in Unicode scalar values.
    pub column: u32,
}

/// Line starts of one text, for offset ↔ position conversion in O(log n):
/// besides the line starts it keeps a checkpoint every
/// [`CHECKPOINT_BYTES`] bytes (the character and UTF-16 columns there), so
/// a column is found by scanning at most that many bytes, however long the
/// line. A line of 40,000 mistakes converts in linear time, not quadratic.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    checkpoints: Vec<Checkpoint>,
    len: u32,
}

/// Distance between two column checkpoints of a [`LineIndex`], in bytes.
pub const CHECKPOINT_BYTES: usize = 256;

/// The columns at one character boundary: counted from its line's start.
#[derive(Debug, Clone, Copy)]
struct Checkpoint {
    offset: u32,
    chars: u32,
    utf16: u32,
}

impl LineIndex {
    /// Index the line starts of `text` (lines end at `\n`).
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0u32];
        let mut checkpoints = Vec::with_capacity(text.len() / CHECKPOINT_BYTES);
        let bytes = text.as_bytes();
        // The editor builds an index per edit, so it goes a line at a time:
        // the newline found by the library's fast search, an ASCII line's
        // checkpoints computed (its columns are its bytes), and only other
        // lines read byte by byte. A checkpoint is taken at the first
        // character boundary (the newline included) at least
        // CHECKPOINT_BYTES past the previous one.
        let (mut start, mut last) = (0usize, 0usize);
        loop {
            let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
            // The positions of this line's characters and of its newline.
            let stop = (end + 1).min(text.len());
            if bytes[start..end].is_ascii() {
                let mut at = last + CHECKPOINT_BYTES;
                while at < stop {
                    let column = (at - start) as u32;
                    checkpoints.push(Checkpoint {
                        offset: at as u32,
                        chars: column,
                        utf16: column,
                    });
                    last = at;
                    at += CHECKPOINT_BYTES;
                }
            } else {
                let (mut chars, mut utf16) = (0u32, 0u32);
                for (i, &b) in bytes.iter().enumerate().take(stop).skip(start) {
                    // A character starts at every byte that isn't a
                    // continuation byte; only four-byte ones (lead byte 0xF0
                    // and up) take two UTF-16 units.
                    if b & 0xC0 == 0x80 {
                        continue;
                    }
                    if i - last >= CHECKPOINT_BYTES {
                        checkpoints.push(Checkpoint {
                            offset: i as u32,
                            chars,
                            utf16,
                        });
                        last = i;
                    }
                    chars += 1;
                    utf16 += if b >= 0xF0 { 2 } else { 1 };
                }
            }
            if end == text.len() {
                break;
            }
            line_starts.push((end + 1) as u32);
            start = end + 1;
        }
        LineIndex {
            line_starts,
            checkpoints,
            len: text.len() as u32,
        }
    }

    /// Number of lines (a trailing newline opens one more, empty line).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where the 0-based line `line` starts, if it exists.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line).map(|&s| s as usize)
    }

    /// 0-based line containing byte `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len as usize) as u32;
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// The last checkpoint at or before `offset` on the line starting at
    /// `start`, or the line start itself: (byte, chars, UTF-16 units).
    fn before(&self, start: usize, offset: usize) -> (usize, u32, u32) {
        let i = self
            .checkpoints
            .partition_point(|c| c.offset as usize <= offset);
        match i.checked_sub(1).map(|i| self.checkpoints[i]) {
            Some(c) if c.offset as usize >= start => (c.offset as usize, c.chars, c.utf16),
            _ => (start, 0, 0),
        }
    }

    /// 1-based line and character column of byte `offset`.
    ///
    /// An offset inside a multi-byte character counts as that character.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let (from, chars, _) = self.before(start, offset);
        let column = text
            .get(from..)
            .map(|rest| {
                rest.char_indices()
                    .take_while(|(i, _)| from + i < offset)
                    .count()
            })
            .unwrap_or(0);
        LineCol {
            line: line as u32 + 1,
            column: chars + column as u32 + 1,
        }
    }

    /// 0-based line and UTF-16 column of byte `offset`, as the Language Server Protocol counts.
    pub fn utf16_position(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let (from, _, units) = self.before(start, offset);
        let col: usize = text
            .get(from..)
            .map(|rest| {
                rest.char_indices()
                    .take_while(|(i, _)| from + i < offset)
                    .map(|(_, c)| c.len_utf16())
                    .sum()
            })
            .unwrap_or(0);
        (line as u32, units + col as u32)
    }

    /// Byte offset of a 0-based line and UTF-16 column; positions past the end of a
    /// line clamp to its end, positions past the last line clamp to the text's end.
    pub fn offset_of_utf16(&self, text: &str, line: u32, col: u32) -> usize {
        let Some(start) = self.line_start(line as usize) else {
            return text.len();
        };
        let end = self.line_start(line as usize + 1).unwrap_or(text.len() + 1);
        // The last checkpoint of this line whose column is at most `col`.
        let lo = self
            .checkpoints
            .partition_point(|c| (c.offset as usize) < start);
        let hi = self
            .checkpoints
            .partition_point(|c| (c.offset as usize) < end);
        let on_line = &self.checkpoints[lo..hi];
        let k = on_line.partition_point(|c| c.utf16 <= col);
        let (from, mut units) = match k.checked_sub(1).map(|k| on_line[k]) {
            Some(c) => (c.offset as usize, c.utf16),
            None => (start, 0),
        };
        for (i, c) in text[from..].char_indices() {
            if c == '\n' || units >= col {
                return from + i;
            }
            units += c.len_utf16() as u32;
        }
        text.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_and_utf16_units() {
        let text = "ab\n🐈 x\n";
        let idx = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(idx.line_col(text, x), LineCol { line: 2, column: 3 });
        assert_eq!(idx.utf16_position(text, x), (1, 3));
        assert_eq!(idx.offset_of_utf16(text, 1, 3), x);
        assert_eq!(idx.offset_of_utf16(text, 9, 0), text.len());
    }

    /// The index read over bytes holds the same line starts and checkpoints
    /// as one read over decoded characters, for characters of every width.
    #[test]
    fn the_byte_scan_matches_a_character_scan() {
        let mixed: String = (0..1500)
            .map(|i| ["a", "é", "€", "🐈", "\n", "\u{0}"][(i * 7) % 6])
            .collect();
        let long: String = (0..3000)
            .map(|i| if i % 997 == 0 { '€' } else { 'a' })
            .collect();
        let ascii = "b".repeat(700);
        for text in [
            format!("{mixed}\n{mixed}x"),
            format!("{ascii}\n{long}\n{ascii}\n\n{mixed}{ascii}\n"),
            format!("{long}{ascii}"),
            ascii.clone(),
            String::new(),
            "\n\n".to_string(),
        ] {
            by_characters_and_bytes_alike(&text);
        }
    }

    fn by_characters_and_bytes_alike(text: &str) {
        let (mut starts, mut points) = (vec![0u32], Vec::new());
        let (mut chars, mut utf16, mut last) = (0u32, 0u32, 0usize);
        for (i, c) in text.char_indices() {
            if i - last >= CHECKPOINT_BYTES {
                points.push((i as u32, chars, utf16));
                last = i;
            }
            if c == '\n' {
                starts.push((i + 1) as u32);
                (chars, utf16) = (0, 0);
            } else {
                chars += 1;
                utf16 += c.len_utf16() as u32;
            }
        }
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_starts, starts);
        let got: Vec<_> = idx
            .checkpoints
            .iter()
            .map(|c| (c.offset, c.chars, c.utf16))
            .collect();
        assert_eq!(got, points);
    }

    /// The checkpoints give the same answers as a scan from the line start,
    /// on long lines of mixed widths (checkpoints land on many of them).
    #[test]
    fn checkpoints_agree_with_a_plain_scan() {
        let line: String = (0..2000)
            .map(|i| ["a", "é", "🐈", "\u{0}"][i % 4])
            .collect();
        let text = format!("{line}\nxy\n{line}");
        let idx = LineIndex::new(&text);
        for (offset, _) in text.char_indices().step_by(7) {
            let line = idx.line_of(offset);
            let start = idx.line_start(line).unwrap();
            let before = &text[start..offset];
            let want = LineCol {
                line: line as u32 + 1,
                column: before.chars().count() as u32 + 1,
            };
            assert_eq!(idx.line_col(&text, offset), want);
            let units: usize = before.chars().map(char::len_utf16).sum();
            assert_eq!(
                idx.utf16_position(&text, offset),
                (line as u32, units as u32)
            );
            assert_eq!(
                idx.offset_of_utf16(&text, line as u32, units as u32),
                offset
            );
        }
    }
}
