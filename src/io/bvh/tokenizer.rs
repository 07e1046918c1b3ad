//! Byte-level whitespace tokeniser with line/column tracking.
//!
//! BVH is a whitespace-separated format, so tokens are maximal runs of non-whitespace bytes (names may contain
//! `:`, `.`, `-`, anything but whitespace). Line ends may be LF, CRLF, a bare CR, or a mix of them. The cursor
//! never allocates: tokens are slices of the input, and columns are only computed when a token is handed out or
//! an error is built.

use super::BvhError;

/// A token: a slice of the input plus where it starts (1-based line and column, columns in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token<'a> {
    /// The token's bytes (never empty, never containing whitespace).
    pub text: &'a [u8],
    /// 1-based line of the first byte.
    pub line: usize,
    /// 1-based column of the first byte, counted in UTF-8 characters (a tab counts as one).
    pub column: usize,
}

impl Token<'_> {
    /// The token as text for messages (lossy for invalid UTF-8, shortened when very long).
    pub fn display(&self) -> String {
        let s = String::from_utf8_lossy(self.text);
        if s.chars().count() > 40 {
            let head: String = s.chars().take(40).collect();
            format!("{head}…")
        } else {
            s.into_owned()
        }
    }

    /// Case-insensitive comparison with an ASCII keyword.
    pub fn is(&self, keyword: &str) -> bool {
        self.text.eq_ignore_ascii_case(keyword.as_bytes())
    }

    /// An error located at this token.
    pub fn error(&self, message: impl Into<String>) -> BvhError {
        BvhError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

/// Whitespace inside a line (line breaks are handled separately so lines can be counted).
#[inline]
pub(crate) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | 0x0B | 0x0C)
}

/// A cursor over the input bytes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cursor<'a> {
    src: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
    /// A byte offset on the current line whose column is known (`mark_column` columns before it), so columns
    /// are counted from there: counting from the line start for every token was quadratic in a line's length
    /// (a fuzzed 30 kB joint name took seconds).
    mark: usize,
    mark_column: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over a whole file: skips a UTF-8 byte-order mark and ignores trailing NUL bytes (some tools pad
    /// files with them); trailing whitespace is ignored naturally.
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        let mut end = bytes.len();
        while end > 0 && bytes.get(end - 1) == Some(&0) {
            end -= 1;
        }
        let src = bytes.get(..end).unwrap_or(bytes);
        let start = if src.starts_with(&[0xEF, 0xBB, 0xBF]) {
            3
        } else {
            0
        };
        Cursor {
            src,
            pos: start,
            line: 1,
            line_start: start,
            mark: start,
            mark_column: 0,
        }
    }

    /// Number of input bytes not yet consumed (used to bound pre-allocations).
    pub fn remaining(&self) -> usize {
        self.src.len().saturating_sub(self.pos)
    }

    /// 1-based column of byte offset `at` on the current line, in characters.
    fn column_of(&self, at: usize) -> usize {
        let (from, base) = if self.mark >= self.line_start && self.mark <= at {
            (self.mark, self.mark_column)
        } else {
            (self.line_start.min(at), 0)
        };
        let slice = self.src.get(from..at).unwrap_or(&[]);
        // Count UTF-8 lead bytes only, so a multi-byte character is one column.
        1 + base + slice.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
    }

    /// The current position as (line, column).
    pub fn here(&self) -> (usize, usize) {
        (self.line, self.column_of(self.pos))
    }

    /// An error at the current position (e.g. "unexpected end of file").
    pub fn error_here(&self, message: impl Into<String>) -> BvhError {
        let (line, column) = self.here();
        BvhError {
            line,
            column,
            message: message.into(),
        }
    }

    /// If the byte at the cursor starts a line break, consumes it and returns true.
    #[inline]
    fn eat_newline(&mut self) -> bool {
        match self.src.get(self.pos) {
            Some(b'\n') => {
                self.pos += 1;
            }
            Some(b'\r') => {
                self.pos += 1;
                if self.src.get(self.pos) == Some(&b'\n') {
                    self.pos += 1;
                }
            }
            _ => return false,
        }
        self.line += 1;
        self.line_start = self.pos;
        self.mark = self.pos;
        self.mark_column = 0;
        true
    }

    /// Skips blanks on the current line (not line breaks).
    #[inline]
    fn skip_blanks(&mut self) {
        while let Some(&b) = self.src.get(self.pos) {
            if !is_blank(b) {
                break;
            }
            self.pos += 1;
        }
    }

    /// Skips all whitespace, line breaks included.
    fn skip_whitespace(&mut self) {
        loop {
            self.skip_blanks();
            if !self.eat_newline() {
                break;
            }
        }
    }

    /// Reads the run of non-whitespace bytes at the cursor (empty at a blank, line break or end of input).
    #[inline]
    fn take_word(&mut self) -> Token<'a> {
        let start = self.pos;
        while let Some(&b) = self.src.get(self.pos) {
            if is_blank(b) || b == b'\n' || b == b'\r' {
                break;
            }
            self.pos += 1;
        }
        let column = self.column_of(start);
        self.mark = start;
        self.mark_column = column - 1;
        Token {
            text: self.src.get(start..self.pos).unwrap_or(&[]),
            line: self.line,
            column,
        }
    }

    /// The next token anywhere ahead (across line breaks), or `None` at the end of the input.
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        self.skip_whitespace();
        let t = self.take_word();
        (!t.text.is_empty()).then_some(t)
    }

    /// The next token without consuming it.
    pub fn peek_token(&self) -> Option<Token<'a>> {
        let mut c = *self;
        c.next_token()
    }

    /// The next token on the current line, or `None` if only blanks remain before the line break.
    pub fn next_on_line(&mut self) -> Option<Token<'a>> {
        self.skip_blanks();
        let t = self.take_word();
        (!t.text.is_empty()).then_some(t)
    }

    /// The next token on the current line without consuming it.
    pub fn peek_on_line(&self) -> Option<Token<'a>> {
        let mut c = *self;
        c.next_on_line()
    }

    /// Moves past the end of the current line (no-op at the end of input). Returns false at the end of input.
    pub fn skip_line(&mut self) -> bool {
        while let Some(&b) = self.src.get(self.pos) {
            if b == b'\n' || b == b'\r' {
                return self.eat_newline();
            }
            self.pos += 1;
        }
        false
    }

    /// The remaining content of the current line, trimmed of blanks, then moves to the next line. Returns
    /// `None` at the end of input. Used for the MOTION section, which is read one frame per line.
    pub fn take_line(&mut self) -> Option<Line<'a>> {
        if self.pos >= self.src.len() {
            return None;
        }
        let line = self.line;
        let line_start = self.line_start;
        let start = self.pos;
        let mut end = start;
        while let Some(&b) = self.src.get(end) {
            if b == b'\n' || b == b'\r' {
                break;
            }
            end += 1;
        }
        let bytes = self.src.get(start..end).unwrap_or(&[]);
        self.pos = end;
        if !self.eat_newline() {
            self.pos = self.src.len();
        }
        Some(Line {
            bytes,
            line,
            column_base: self.column_base(line_start, start),
        })
    }

    fn column_base(&self, line_start: usize, start: usize) -> usize {
        let slice = self.src.get(line_start..start).unwrap_or(&[]);
        slice.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
    }

    /// The source text from the start of `from` to the end of `to` (for names that span several tokens).
    pub fn slice_from(&self, from: &Token<'a>, to: &Token<'a>) -> &'a [u8] {
        let base = self.src.as_ptr() as usize;
        let a = (from.text.as_ptr() as usize).saturating_sub(base);
        let b = (to.text.as_ptr() as usize).saturating_sub(base) + to.text.len();
        self.src.get(a..b).unwrap_or(from.text)
    }
}

/// One line of the MOTION section.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    /// The line's bytes from the cursor to the line break (excluded).
    pub bytes: &'a [u8],
    /// 1-based line number.
    pub line: usize,
    /// Characters on the line before `bytes` (0 when the line was read from its start).
    column_base: usize,
}

impl<'a> Line<'a> {
    /// True when the line holds only whitespace.
    pub fn is_blank(&self) -> bool {
        self.bytes.iter().all(|&b| is_blank(b))
    }

    /// 1-based column of byte offset `at` within `bytes`.
    pub fn column(&self, at: usize) -> usize {
        let slice = self.bytes.get(..at).unwrap_or(self.bytes);
        1 + self.column_base + slice.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
    }

    /// An error at byte offset `at` of this line.
    pub fn error(&self, at: usize, message: impl Into<String>) -> BvhError {
        BvhError {
            line: self.line,
            column: self.column(at),
            message: message.into(),
        }
    }

    /// The whitespace-separated words of the line with their byte offsets.
    pub fn words(&self) -> Words<'a> {
        Words {
            bytes: self.bytes,
            pos: 0,
        }
    }
}

/// Iterator over the words of a [`Line`]: (byte offset within the line, word).
pub(crate) struct Words<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for Words<'a> {
    type Item = (usize, &'a [u8]);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        while let Some(&b) = self.bytes.get(self.pos) {
            if !is_blank(b) {
                break;
            }
            self.pos += 1;
        }
        let start = self.pos;
        while let Some(&b) = self.bytes.get(self.pos) {
            if is_blank(b) {
                break;
            }
            self.pos += 1;
        }
        (self.pos > start).then(|| (start, self.bytes.get(start..self.pos).unwrap_or(&[])))
    }
}

#[cfg(test)]
mod tests;
