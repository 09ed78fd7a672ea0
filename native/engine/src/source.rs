//! Source files and positions.
//!
//! Every phase points into source text with a [`Span`] of byte offsets; people
//! read positions as `line:column`. [`LineIndex`] turns one into the other by
//! the rules of language-core §2.1: lines start at 1 and advance after every
//! `\n` (a `\r` is ordinary whitespace, so `\r\n` ends a line once); columns
//! start at 1 and count Unicode code points, a tab being one column like any
//! other character.

use std::fmt;

/// One named source text, as a host hands it to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The file name diagnostics print (a cleaned path, or `<stdin>`).
    pub name: String,
    /// The whole source text.
    pub text: String,
}

impl SourceFile {
    /// A source file called `name` holding `text`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }

    /// A line index over this file's text.
    pub fn line_index(&self) -> LineIndex<'_> {
        LineIndex::new(&self.text)
    }
}

/// A half-open range of byte offsets `start..end` into a source text.
///
/// `end` is the offset just past the last byte. An empty span (`start ==
/// end`) marks a position, such as the end of the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset just past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// The empty span at `offset`.
    pub const fn empty(offset: usize) -> Self {
        Span {
            start: offset,
            end: offset,
        }
    }

    /// Length in bytes.
    pub const fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no bytes.
    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The text this span covers in `src`, or `None` when it isn't a valid
    /// range of `src` (out of bounds or not on character boundaries).
    pub fn text(self, src: &str) -> Option<&str> {
        src.get(self.start..self.end)
    }
}

/// A position as people read it: 1-based line and 1-based column in code
/// points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// Line number, from 1.
    pub line: usize,
    /// Column number in code points, from 1.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Maps byte offsets of one text to [`Position`]s and quotes its lines.
///
/// Building the index is one pass over the text; a lookup is a binary search
/// for the line plus a count of the code points before the offset on that
/// line.
#[derive(Clone, Debug)]
pub struct LineIndex<'src> {
    text: &'src str,
    // INVARIANT: non-empty, starts with 0, strictly increasing, every entry
    // is 0 or one past a `\n` byte, so each is a char boundary <= text.len().
    line_starts: Vec<usize>,
}

impl<'src> LineIndex<'src> {
    /// Indexes `text`.
    pub fn new(text: &'src str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { text, line_starts }
    }

    /// The indexed text.
    pub fn text(&self) -> &'src str {
        self.text
    }

    /// How many lines the text has: one more than its number of `\n`.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The position of byte `offset`. Offsets past the end clamp to the end
    /// of the text; an offset inside a multi-byte character counts as that
    /// character's column.
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        // Number of line starts <= offset; at least 1 because the first is 0.
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts.get(line - 1).copied().unwrap_or(0);
        let column = 1 + self.text.as_bytes().get(start..offset).map_or(0, |bytes| {
            bytes.iter().filter(|&&b| !is_continuation(b)).count()
        });
        Position { line, column }
    }

    /// The start and end positions of `span`.
    pub fn span_positions(&self, span: Span) -> (Position, Position) {
        (self.position(span.start), self.position(span.end))
    }

    /// Line `line` (1-based) without its `\n` and without one `\r` before it,
    /// or `None` when the text has no such line.
    pub fn line_text(&self, line: usize) -> Option<&'src str> {
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        let end = match self.line_starts.get(line) {
            Some(&next) => next - 1, // the `\n`
            None => self.text.len(),
        };
        let text = self.text.get(start..end)?;
        Some(text.strip_suffix('\r').unwrap_or(text))
    }

    /// `span` as `line:col-line:col`, the form tables and goldens use.
    pub fn format_span(&self, span: Span) -> String {
        let (start, end) = self.span_positions(span);
        format!("{start}-{end}")
    }
}

/// Whether `b` continues a UTF-8 sequence rather than starting a character.
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Case {
        src: &'static str,
        offset: usize,
        want: &'static str,
    }

    #[rustfmt::skip]
    const CASES: &[Case] = &[
        Case {
            src: "",
            offset: 0,
            want: "1:1",
        },
        Case {
            src: "abc",
            offset: 0,
            want: "1:1",
        },
        Case {
            src: "abc",
            offset: 3,
            want: "1:4",
        },
        Case {
            src: "abc",
            offset: 99,
            want: "1:4",
        },
        Case {
            src: "a\nb",
            offset: 1,
            want: "1:2",
        },
        Case {
            src: "a\nb",
            offset: 2,
            want: "2:1",
        },
        Case {
            src: "a\r\nb",
            offset: 1,
            want: "1:2",
        },
        Case {
            src: "a\r\nb",
            offset: 2,
            want: "1:3",
        },
        Case {
            src: "a\r\nb",
            offset: 3,
            want: "2:1",
        },
        Case {
            src: "a\rb",
            offset: 2,
            want: "1:3",
        },
        Case {
            src: "\tx",
            offset: 1,
            want: "1:2",
        },
        Case {
            src: "\"é\" + y",
            offset: 5,
            want: "1:5",
        },
        Case {
            src: "\"é\" + y",
            offset: 7,
            want: "1:7",
        },
        Case {
            src: "é",
            offset: 1,
            want: "1:1",
        },
        Case {
            src: "😀x",
            offset: 4,
            want: "1:2",
        },
        Case {
            src: "x\n\n",
            offset: 3,
            want: "3:1",
        },
    ];

    #[test]
    fn positions() {
        for c in CASES {
            let idx = LineIndex::new(c.src);
            let got = idx.position(c.offset).to_string();
            assert_eq!(got, c.want, "src {:?} offset {}", c.src, c.offset);
        }
    }

    #[test]
    fn line_text() {
        let idx = LineIndex::new("one\r\ntwo\n\nlast");
        assert_eq!(idx.line_count(), 4);
        assert_eq!(idx.line_text(0), None);
        assert_eq!(idx.line_text(1), Some("one"));
        assert_eq!(idx.line_text(2), Some("two"));
        assert_eq!(idx.line_text(3), Some(""));
        assert_eq!(idx.line_text(4), Some("last"));
        assert_eq!(idx.line_text(5), None);
        let trailing = LineIndex::new("a\n");
        assert_eq!(trailing.line_text(2), Some(""));
    }

    #[test]
    fn spans() {
        let s = Span::new(2, 5);
        assert_eq!(s.len(), 3);
        assert!(!s.is_empty());
        assert!(Span::empty(4).is_empty());
        assert_eq!(s.to(Span::new(7, 9)), Span::new(2, 9));
        assert_eq!(s.text("abcdefg"), Some("cde"));
        assert_eq!(Span::new(0, 1).text("é"), None);
        assert_eq!(
            LineIndex::new("ab\ncd").format_span(Span::new(1, 4)),
            "1:2-2:2"
        );
    }
}
