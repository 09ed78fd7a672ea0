//! The state of one formatting: the output as a list of [`Line`]s (an
//! indentation level, the code and an optional trailing comment), where
//! things are in the source, and the final rendering with aligned
//! comments (tooling §4.2). Everything that prints builds on it: the
//! comment primitives (`comments.rs`), expressions (`expr.rs`) and the walk
//! over documents (`printer.rs`).

use std::cell::Cell;

use super::scan::{Comment, Pos};
use crate::source::Span;

/// One indentation level.
const INDENT: &str = "  ";

/// One output line. A line with neither code nor comment is blank. Its
/// code is `code[start..end]` of the printer: only the last line grows, so
/// all lines share one buffer.
#[derive(Debug, Default)]
pub(super) struct Line<'src> {
    pub(super) indent: usize,
    pub(super) start: usize,
    pub(super) end: usize,
    /// The trailing comment, empty for none.
    pub(super) comment: &'src str,
}

impl Line<'_> {
    pub(super) fn has_code(&self) -> bool {
        self.end > self.start
    }
}

/// The state of one formatting.
pub(super) struct Printer<'src> {
    /// The offsets where the source's lines start (the first is 0).
    line_starts: Vec<usize>,
    /// The line [`Printer::line`] found last: the walk asks in source
    /// order, mostly about that line or the next, so it looks there first.
    line_hint: Cell<usize>,
    pub(super) lines: Vec<Line<'src>>,
    /// The code of every line, one after the other.
    code: String,
    /// The comments still to place, in source order, and the first one
    /// not printed yet.
    pub(super) comments: Vec<Comment<'src>>,
    pub(super) next: usize,
    /// The source line of the last token or comment printed.
    pub(super) last: usize,
}

impl<'src> Printer<'src> {
    /// A printer with no output yet for a tree of a source of `size`
    /// bytes whose lines start at `line_starts`.
    pub(super) fn new(size: usize, line_starts: Vec<usize>, comments: Vec<Comment<'src>>) -> Self {
        // About as many lines as the source's, and a few more where the
        // printer breaks what was written on one line: grown by doubling
        // from a smaller guess, the list would reach twice its size.
        let lines = line_starts.len() + size / 64 + 1;
        Printer {
            line_starts,
            line_hint: Cell::new(1),
            lines: Vec::with_capacity(lines),
            code: String::with_capacity(size),
            comments,
            next: 0,
            last: 0,
        }
    }

    // ---- positions ----------------------------------------------------------

    /// The 1-based source line of byte `offset`.
    pub(super) fn line(&self, offset: usize) -> usize {
        let hint = self.line_hint.get();
        let line = if self.on_line(offset, hint) {
            hint
        } else if self.on_line(offset, hint + 1) {
            hint + 1
        } else {
            self.line_starts.partition_point(|&s| s <= offset).max(1)
        };
        self.line_hint.set(line);
        line
    }

    /// Whether byte `offset` is on the 1-based source line `line`.
    fn on_line(&self, offset: usize, line: usize) -> bool {
        let start = line.checked_sub(1).and_then(|i| self.line_starts.get(i));
        start.is_some_and(|&s| s <= offset)
            && self.line_starts.get(line).is_none_or(|&next| offset < next)
    }

    /// Where `offset` is.
    pub(super) fn pos(&self, offset: usize) -> Pos {
        Pos {
            offset,
            line: self.line(offset),
        }
    }

    /// Where `span` starts.
    pub(super) fn start(&self, span: Span) -> Pos {
        self.pos(span.start)
    }

    /// The line where `span` ends.
    pub(super) fn end_line(&self, span: Span) -> usize {
        self.line(span.end)
    }

    /// Where `span` ends, as a position just after it.
    pub(super) fn end(&self, span: Span) -> Pos {
        self.pos(span.end)
    }

    /// The closing bracket that ends `span` (its last byte).
    pub(super) fn closing(&self, span: Span) -> Pos {
        Pos {
            offset: span.end.saturating_sub(1),
            line: self.line(span.end),
        }
    }

    // ---- the output ---------------------------------------------------------------

    /// Appends `text` to the current line (starting line 0 at indent 0).
    pub(super) fn write(&mut self, text: &str) {
        if self.lines.is_empty() {
            self.push(0);
        }
        self.code.push_str(text);
        if let Some(line) = self.lines.last_mut() {
            line.end = self.code.len();
        }
    }

    /// Starts a new line at `indent`.
    pub(super) fn push(&mut self, indent: usize) {
        let at = self.code.len();
        self.lines.push(Line {
            indent,
            start: at,
            end: at,
            comment: "",
        });
    }

    /// Adds a blank line, unless there is no line yet or the last one is
    /// blank already: never two blank lines in a row.
    pub(super) fn blank(&mut self) {
        match self.lines.last() {
            Some(line) if line.has_code() || !line.comment.is_empty() => self.push(0),
            _ => {}
        }
    }

    /// The indentation level of the current line.
    pub(super) fn indent_of(&self) -> usize {
        self.lines.last().map_or(0, |l| l.indent)
    }

    /// The text: trailing blank lines dropped, each line indented and
    /// ended by `\n`; the trailing comments of consecutive lines aligned one
    /// space after the longest code among them (in code points, indentation
    /// included); trailing spaces of lines without a comment trimmed.
    pub(super) fn render(mut self) -> String {
        while self
            .lines
            .last()
            .is_some_and(|l| !l.has_code() && l.comment.is_empty())
        {
            self.lines.pop();
        }
        let code = |l: &Line<'_>| self.code.get(l.start..l.end).unwrap_or("");
        let width = |l: &Line<'_>| INDENT.len() * l.indent + code(l).chars().count();
        let commented = |l: &Line<'_>| l.has_code() && !l.comment.is_empty();
        let mut out = String::with_capacity(self.code.len() + 4 * self.lines.len());
        let mut run = self.lines.as_slice();
        while let Some((first, rest)) = run.split_first() {
            let n = run.iter().take_while(|l| commented(l)).count();
            if n == 0 {
                if first.has_code() {
                    indent(&mut out, first.indent);
                    out.push_str(code(first).trim_end_matches(' '));
                }
                out.push('\n');
                run = rest;
                continue;
            }
            let (aligned, rest) = run.split_at(n);
            let longest = aligned.iter().map(width).max().unwrap_or(0);
            for l in aligned {
                indent(&mut out, l.indent);
                out.push_str(code(l));
                for _ in width(l)..=longest {
                    out.push(' ');
                }
                out.push_str(l.comment);
                out.push('\n');
            }
            run = rest;
        }
        out
    }
}

/// Appends `levels` levels of indentation.
fn indent(out: &mut String, levels: usize) {
    for _ in 0..levels {
        out.push_str(INDENT);
    }
}

#[cfg(test)]
mod tests {
    use super::Printer;

    #[test]
    fn lines_are_found_whatever_the_order_of_the_questions() {
        let src = "a\n\nbc\nd";
        let want = [1, 1, 2, 3, 3, 3, 4, 4, 4];
        let p = Printer::new(
            src.len(),
            super::super::scan::scan(src, &[]).line_starts,
            Vec::new(),
        );
        let forward: Vec<usize> = (0..want.len()).map(|o| p.line(o)).collect();
        assert_eq!(forward, want);
        for offset in [8, 0, 5, 2, 3, 7, 1, 6, 4, 4, 8, 8] {
            assert_eq!(p.line(offset), want[offset], "offset {offset}");
        }
    }
}
