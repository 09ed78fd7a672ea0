//! What the printer needs of a source besides its tree: where its lines
//! start, its comments and its document separators, found among the
//! tokens the parser skips (tooling §4.2).

use crate::lexer::{CompactToken, TokenKind};

/// A place in the source: a byte offset and its 1-based line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pos {
    pub(super) offset: usize,
    pub(super) line: usize,
}

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
pub(super) fn scan<'src>(src: &'src str, tokens: &[CompactToken]) -> Scanned<'src> {
    // Both lists are allocated at their size: grown by doubling, they
    // would hold up to twice their entries for as long as the printer runs.
    let mut line_starts = Vec::with_capacity(src.bytes().filter(|&b| b == b'\n').count() + 1);
    line_starts.push(0);
    line_starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
    let mut comments = Vec::with_capacity(
        tokens
            .iter()
            .filter(|t| t.kind == TokenKind::Comment)
            .count(),
    );
    let mut separators = Vec::new();
    // The 1-based line of the token at hand: tokens come in source order,
    // so the line only moves forward.
    let mut line = 1;
    for token in tokens {
        if !matches!(token.kind, TokenKind::Comment | TokenKind::Separator) {
            continue;
        }
        let start = token.span().start;
        let later = line_starts.get(line..).unwrap_or_default();
        line += later.iter().take_while(|&&s| s <= start).count();
        if token.kind == TokenKind::Comment {
            comments.push(Comment {
                offset: start,
                line,
                text: token.text(src),
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
