//! Comments, put back by source position (tooling §4.2) so every comment
//! survives formatting; `scan.rs` collects them.
//!
//! A comment prints either *trailing* the current output line (when it sat
//! on the source line that line's code came from) or on a line of its own
//! before the next item. The primitives below decide which, and where the
//! author's blank lines survive (at most one, only where the caller allows
//! it); every layout function of the printer goes through them.

use super::output::Printer;
use super::scan::Pos;

impl<'src> Printer<'src> {
    /// Whether a comment not printed yet starts before `offset`.
    pub(super) fn comment_before(&self, offset: usize) -> bool {
        self.comments
            .get(self.next)
            .is_some_and(|c| c.offset < offset)
    }

    /// Makes the next comment trail the current line, when it comes before
    /// `next`, sat on the source line of the last thing printed, and the
    /// line has code and no trailing comment yet.
    pub(super) fn trail(&mut self, next: Pos) {
        let Some(&c) = self.comments.get(self.next) else {
            return;
        };
        if c.offset >= next.offset || c.line != self.last {
            return;
        }
        if let Some(line) = self.lines.last_mut()
            && line.has_code()
            && line.comment.is_empty()
        {
            line.comment = c.text;
            self.next += 1;
        }
    }

    /// Prints the comments before `next`: a trailing one first, then each
    /// on its own line at `indent`. An author's blank line survives before
    /// the first own-line comment when `lead` allows it, before a later one
    /// when `between` does. Returns whether none got its own line.
    pub(super) fn flush(&mut self, next: Pos, indent: usize, lead: bool, between: bool) -> bool {
        self.trail(next);
        let mut none = true;
        while let Some(&c) = self.comments.get(self.next) {
            if c.offset >= next.offset {
                break;
            }
            if c.line > self.last + 1 && ((none && lead) || (!none && between)) {
                self.blank();
            }
            self.push(indent);
            self.write(c.text);
            self.last = c.line;
            none = false;
            self.next += 1;
        }
        none
    }

    /// Ends the current line and starts one at `indent` for the item at
    /// `next`, after the comments before it (own-line ones at
    /// `comment_indent`). The author's blank line before the item survives
    /// when `tail` allows it and either `lead` does or comments came first.
    /// The item's first token counts as printed (`last` is its line).
    pub(super) fn open(
        &mut self,
        next: Pos,
        indent: usize,
        comment_indent: usize,
        lead: bool,
        tail: bool,
    ) {
        let none = self.flush(next, comment_indent, lead, true);
        if next.line > self.last + 1 && tail && (lead || !none) {
            self.blank();
        }
        self.push(indent);
        // The token at `next` comes first on the new line: a comment after
        // it on its source line trails this line, in every later
        // formatting too (the new line is where that token then sits).
        self.last = next.line;
    }

    /// `open` for an item a blank line always sets apart, above any
    /// comments that lead into it.
    pub(super) fn section(&mut self, next: Pos, indent: usize) {
        self.trail(next);
        self.blank();
        self.open(next, indent, indent, false, true);
    }

    /// `open` for a closing bracket at `next`: comments before it are
    /// indented like the items (`comment_indent`), no blank line right
    /// before the bracket.
    pub(super) fn close(&mut self, next: Pos, indent: usize, comment_indent: usize, blanks: bool) {
        self.flush(next, comment_indent, blanks, blanks);
        self.push(indent);
    }
}
