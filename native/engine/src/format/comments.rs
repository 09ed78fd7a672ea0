//! Comments: collected from the tokens the parser skips and put back by
//! source position (tooling §4.2), so every comment survives formatting.
//!
//! A comment prints either *trailing* the current output line (when it sat
//! on the source line that line's code came from) or on a line of its own
//! before the next item. The primitives below decide which, and where the
//! author's blank lines survive (at most one, only where the caller allows
//! it); every layout function of the printer goes through them.

use super::printer::{Member, Pos, Printer};
use crate::lexer::{Token, TokenKind};

/// A comment of the source: where it starts, its line and its text
/// (`//` included, line break excluded).
#[derive(Clone, Copy, Debug)]
pub(super) struct Comment<'src> {
    pub(super) offset: usize,
    pub(super) line: usize,
    pub(super) text: &'src str,
}

/// What the printer needs of a source besides its tree.
pub(super) struct Scanned<'src> {
    /// The offsets where the source's lines start (the first is 0).
    pub(super) line_starts: Vec<usize>,
    /// The comments, in source order.
    pub(super) comments: Vec<Comment<'src>>,
    /// Where the document separators are, in source order.
    pub(super) separators: Vec<Pos>,
}

/// The lines of `src` and the comments and document separators among
/// `tokens`, what the lexer made of `src`: the tokens the tree doesn't
/// keep. The source is searched for line breaks once, here.
pub(super) fn scan<'src>(src: &str, tokens: &[Token<'src>]) -> Scanned<'src> {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(src.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut comments = Vec::new();
    let mut separators = Vec::new();
    // The 1-based line of the token at hand: tokens come in source order,
    // so the line only moves forward.
    let mut line = 1;
    for token in tokens {
        if !matches!(token.kind, TokenKind::Comment | TokenKind::Separator) {
            continue;
        }
        let start = token.span.start;
        let later = line_starts.get(line..).unwrap_or_default();
        line += later.iter().take_while(|&&s| s <= start).count();
        if token.kind == TokenKind::Comment {
            comments.push(Comment {
                offset: start,
                line,
                text: token.text,
            });
        } else {
            separators.push(Pos {
                offset: start,
                line,
            });
        }
    }
    Scanned {
        line_starts,
        comments,
        separators,
    }
}

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

    /// Prints a decision's members in the given order, which may differ
    /// from the source's, before `end`. Each takes along the comments that
    /// belong to it in the source: those after the member before it (in
    /// source order) and the one on its last line. The comments after the
    /// last member stay for the caller.
    pub(super) fn reorder(&mut self, members: &[Member<'_>], end: Pos) {
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by_key(|&i| members.get(i).map_or(0, |m| m.from));
        let mut owned: Vec<Vec<Comment<'src>>> = vec![Vec::new(); members.len()];
        let mut after = vec![0; members.len()];
        let mut line = self.last;
        for &i in &order {
            let (Some(member), Some(slot), Some(own)) =
                (members.get(i), after.get_mut(i), owned.get_mut(i))
            else {
                continue;
            };
            *slot = line;
            line = member.to.line;
            while let Some(&c) = self.comments.get(self.next) {
                if c.offset >= end.offset
                    || (c.offset > member.to.offset && c.line != member.to.line)
                {
                    break;
                }
                own.push(c);
                self.next += 1;
            }
        }
        let comments = std::mem::take(&mut self.comments);
        let next = self.next;
        for ((member, own), after) in members.iter().zip(owned).zip(after) {
            self.comments = own;
            self.next = 0;
            self.last = after;
            self.member(member);
            self.flush(
                Pos {
                    offset: end.offset,
                    line: 0,
                },
                1,
                false,
                true,
            );
        }
        self.comments = comments;
        self.next = next;
        self.last = line;
    }
}
