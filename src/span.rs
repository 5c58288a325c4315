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

/// A 1-based line and column, the column counted in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column, in Unicode scalar values.
    pub column: u32,
}

/// Line starts of one text, for offset ↔ position conversion in O(log lines).
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    len: u32,
}

impl LineIndex {
    /// Index the line starts of `text` (lines end at `\n`).
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push((i + 1) as u32);
            }
        }
        LineIndex {
            line_starts,
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

    /// 1-based line and character column of byte `offset`.
    ///
    /// An offset inside a multi-byte character counts as that character.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let column = text
            .get(start..)
            .map(|rest| {
                rest.char_indices()
                    .take_while(|(i, _)| start + i < offset)
                    .count()
            })
            .unwrap_or(0);
        LineCol {
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }

    /// 0-based line and UTF-16 column of byte `offset`, as the Language Server Protocol counts.
    pub fn utf16_position(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let col: usize = text[start..]
            .char_indices()
            .take_while(|(i, _)| start + i < offset)
            .map(|(_, c)| c.len_utf16())
            .sum();
        (line as u32, col as u32)
    }

    /// Byte offset of a 0-based line and UTF-16 column; positions past the end of a
    /// line clamp to its end, positions past the last line clamp to the text's end.
    pub fn offset_of_utf16(&self, text: &str, line: u32, col: u32) -> usize {
        let Some(start) = self.line_start(line as usize) else {
            return text.len();
        };
        let mut units = 0u32;
        for (i, c) in text[start..].char_indices() {
            if c == '\n' || units >= col {
                return start + i;
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
}
