//! The lexer: source text to tokens (language-core §2).
//!
//! [`lex`] reads a whole source; [`Lexer`] hands out one token at a time. The
//! lexer never stops: text it can't read becomes a [`TokenKind::Illegal`]
//! token covering that text, a [`Diagnostic`] is recorded, and lexing goes on
//! right after it (§2.8), so every lexical error of a source is reported once
//! — up to [`MAX_PER_FILE`] of them: past that the source is junk and the
//! rest of it becomes one last `Illegal` token (issue #20, `diag::cap`).
//! Comments come back as [`TokenKind::Comment`] tokens (the formatter keeps
//! them; the parser skips them). Whitespace (space, tab, `\r`, `\n`) is the
//! only text no token covers.
//!
//! Where things are: token kinds in `token.rs`; error values and their exact
//! texts in `error.rs`; numbers and the foreign notations of §2.6 in
//! `number.rs`; durations (scan, validation and [`duration_nanos`]) in
//! `duration.rs`; strings, raw strings and [`string_value`] in `string.rs`.
//! Identifiers, comments and operators are short enough to live here.
//!
//! Diagnostics carry spans but no file name; the caller that knows the file
//! sets it.

mod duration;
mod error;
mod number;
mod string;
mod token;

#[cfg(test)]
mod tests;

pub use duration::parse as duration_nanos;
pub use error::{ExponentFix, LexError, Radix};
pub use number::{parse_float as float_value, parse_int as int_value};
pub use string::{StringError, raw_string_value, unquote as string_value};
pub use token::{CompactToken, Token, TokenKind};

use crate::diag::{Diagnostic, MAX_PER_FILE, too_many_in_file};
use crate::source::Span;

/// Lexes all of `src`: every token in order, ending with exactly one
/// [`TokenKind::Eof`], and every lexical diagnostic in source order. A
/// token's text is [`CompactToken::text`] of `src`.
///
/// The tokens are counted first, in a pass that keeps nothing, so that the
/// list is allocated once at its exact size (issue #20): a list that grows
/// by doubling holds its old and new buffers while it copies, and may end
/// nearly twice too large, and the module's memory keeps whatever it grew
/// to. Lexing is a small part of any operation; the second pass costs less
/// than the memory it saves.
pub fn lex(src: &str) -> (Vec<CompactToken>, Vec<Diagnostic>) {
    let mut counter = Lexer::new(src);
    counter.quiet = true;
    let mut count = 1;
    while counter.advance().0 != TokenKind::Eof {
        count += 1;
    }
    let mut lexer = Lexer::new(src);
    let mut tokens = Vec::with_capacity(count);
    loop {
        let token = lexer.next_compact();
        tokens.push(token);
        if token.kind == TokenKind::Eof {
            break;
        }
    }
    (tokens, lexer.into_diagnostics())
}

/// A lexer over one source text, producing tokens on demand.
///
/// As an [`Iterator`] it yields every token before [`TokenKind::Eof`] and then
/// stops; [`Lexer::next_token`] returns `Eof` forever instead.
#[derive(Clone, Debug)]
pub struct Lexer<'src> {
    src: &'src str,
    // INVARIANT: `pos <= src.len()` and `pos` is on a char boundary; every
    // move goes through `bump` (whole characters) or `bump_ascii` (after
    // peeking an ASCII byte).
    pos: usize,
    diagnostics: Vec<Diagnostic>,
    /// Set once the lexer has given up on a source of junk (see
    /// [`Lexer::fail_at`]).
    cut: bool,
    /// Set for [`lex`]'s counting pass, which needs the tokens' extents but
    /// not the diagnostics: errors are counted, not recorded.
    quiet: bool,
    /// Errors met so far, recorded or not.
    errors: usize,
}

impl<'src> Lexer<'src> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'src str) -> Self {
        Lexer {
            src,
            pos: 0,
            diagnostics: Vec::new(),
            cut: false,
            quiet: false,
            errors: 0,
        }
    }

    /// Skips whitespace and returns the next token (possibly a comment or an
    /// `Illegal` token). At the end of the input it returns `Eof`, whose
    /// span is empty and sits just after the last character, forever.
    pub fn next_token(&mut self) -> Token<'src> {
        let (kind, start) = self.advance();
        self.token(kind, start)
    }

    /// [`Lexer::next_token`] without the text.
    pub(crate) fn next_compact(&mut self) -> CompactToken {
        let (kind, start) = self.advance();
        CompactToken::new(kind, Span::new(start, self.pos))
    }

    /// Skips whitespace and moves over the next token: its kind and where
    /// it starts; it ends at the cursor.
    ///
    /// The scanning functions return a kind, not a [`Token`]: a kind and an
    /// offset come back in registers, where a token would go through
    /// memory, and [`lex`] writes each token once, into its vector.
    /// Identifiers, keywords and operators, most of the tokens, are read
    /// here, the longer forms out of line. Not inlined: inside `lex`'s loop
    /// it made the module slower (more values kept on the stack).
    #[inline(never)]
    fn advance(&mut self) -> (TokenKind, usize) {
        self.skip_whitespace();
        let start = self.pos;
        let Some(&c) = self.src.as_bytes().get(start) else {
            return (TokenKind::Eof, start);
        };
        let kind = match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.ident(start),
            b'0'..=b'9' => self.number(start),
            b'"' => self.string(start),
            b'`' => self.raw_string(start),
            b'/' if self.peek(1) == b'/' => self.comment(start),
            _ => self.operator(start, c),
        };
        (kind, start)
    }

    /// The diagnostics recorded so far, in source order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Consumes the lexer and returns its diagnostics.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    // ---- cursor -------------------------------------------------------

    /// The byte `n` bytes ahead, or 0 past the end. For peeking at ASCII
    /// structure only: a NUL byte in the source also reads as 0, so end of
    /// input is always checked with [`Lexer::at_end`].
    fn peek(&self, n: usize) -> u8 {
        self.src.as_bytes().get(self.pos + n).copied().unwrap_or(0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// Moves over one whole character.
    fn bump(&mut self) {
        let width = self
            .src
            .get(self.pos..)
            .and_then(|rest| rest.chars().next())
            .map_or(0, char::len_utf8);
        self.pos += width;
    }

    /// Moves over `n` bytes the caller has peeked and knows to be ASCII.
    fn bump_ascii(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.src.len());
    }

    /// Moves over a run of decimal digits.
    fn eat_digits(&mut self) {
        self.eat_while(|b| b.is_ascii_digit());
    }

    /// Moves over a run of letters, digits and `_`.
    fn eat_word(&mut self) {
        self.eat_while(is_word_byte);
    }

    /// Moves over the bytes `accept` takes, up to the first it refuses.
    /// `accept` takes only ASCII bytes or refuses only ASCII bytes, so the
    /// cursor stays on a character boundary. Counting over the rest of the
    /// source in one go, not peeking byte by byte, keeps the cursor out of
    /// memory in the loop (it matters in the module).
    fn eat_while(&mut self, accept: impl Fn(u8) -> bool) {
        let rest = self.src.as_bytes().get(self.pos..).unwrap_or_default();
        self.pos += rest.iter().take_while(|&&b| accept(b)).count();
    }

    /// The source from `start` to the cursor.
    fn text_from(&self, start: usize) -> &'src str {
        self.src.get(start..self.pos).unwrap_or("")
    }

    // ---- results ------------------------------------------------------

    /// The token of kind `kind` from `start` to the cursor.
    fn token(&self, kind: TokenKind, start: usize) -> Token<'src> {
        Token {
            kind,
            text: self.text_from(start),
            span: Span::new(start, self.pos),
        }
    }

    /// Records `error` for the text from `start` to the cursor, which makes
    /// an `Illegal` token.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, start: usize, error: &LexError) -> TokenKind {
        self.fail_at(error, Span::new(start, self.pos))
    }

    /// Records `error` at `span`, inside the text of the token being read,
    /// which makes an `Illegal` token of all of that text.
    ///
    /// Past [`MAX_PER_FILE`] errors the source is junk: the lexer records
    /// the "too many errors" mark instead, and the token being read takes
    /// the rest of the source, so junk costs neither a diagnostic nor a
    /// token per character.
    #[cold]
    #[inline(never)]
    fn fail_at(&mut self, error: &LexError, span: Span) -> TokenKind {
        if !self.cut {
            if self.errors < MAX_PER_FILE {
                self.errors += 1;
                if !self.quiet {
                    self.diagnostics.push(error.to_diagnostic(span));
                }
                return TokenKind::Illegal;
            }
            self.cut = true;
            if !self.quiet {
                self.diagnostics.push(too_many_in_file(None));
            }
        }
        self.pos = self.src.len();
        TokenKind::Illegal
    }

    // ---- the small token kinds ----------------------------------------

    fn skip_whitespace(&mut self) {
        self.eat_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    }

    /// An identifier or keyword; the cursor is on a letter or `_`.
    fn ident(&mut self, start: usize) -> TokenKind {
        self.eat_word();
        let text = self.text_from(start);
        TokenKind::keyword(text).unwrap_or(TokenKind::Ident)
    }

    /// A line comment: `//` up to, not including, the next `\n` or `\r`.
    #[inline(never)]
    fn comment(&mut self, start: usize) -> TokenKind {
        self.pos = start;
        self.eat_while(|b| b != b'\n' && b != b'\r');
        TokenKind::Comment
    }

    /// Operators and punctuation by longest match (§2.7): `---`, then the
    /// two-character tokens, then single characters; `c` is the byte at
    /// the cursor. Anything else is an unexpected character, with a hint
    /// for symbols other languages use.
    fn operator(&mut self, start: usize, c: u8) -> TokenKind {
        use TokenKind as T;
        let next = self.peek(1);
        let (kind, width) = match c {
            b'=' if next == b'=' => (T::Eq, 2),
            b'=' => (T::Assign, 1),
            b'!' if next == b'=' => (T::NotEq, 2),
            b'<' if next == b'=' => (T::LtEq, 2),
            b'<' => (T::Lt, 1),
            b'>' if next == b'=' => (T::GtEq, 2),
            b'>' => (T::Gt, 1),
            b'?' if next == b'?' => (T::Coalesce, 2),
            b'?' if next == b'.' => (T::OptDot, 2),
            b'?' => (T::Question, 1),
            b'-' if next == b'-' && self.peek(2) == b'-' => (T::Separator, 3),
            b'-' if next == b'>' => (T::Arrow, 2),
            b'-' => (T::Minus, 1),
            b'+' => (T::Plus, 1),
            b'@' => (T::At, 1),
            b'.' => (T::Dot, 1),
            b',' => (T::Comma, 1),
            b':' => (T::Colon, 1),
            b'(' => (T::LParen, 1),
            b')' => (T::RParen, 1),
            b'[' => (T::LBracket, 1),
            b']' => (T::RBracket, 1),
            b'{' => (T::LBrace, 1),
            b'}' => (T::RBrace, 1),
            b'|' if next != b'|' => (T::Pipe, 1),
            _ => return self.unexpected_char(start, c, next),
        };
        self.bump_ascii(width);
        kind
    }

    /// A character that starts no token, or `||` or `&&`, which take both
    /// characters.
    #[cold]
    #[inline(never)]
    fn unexpected_char(&mut self, start: usize, c: u8, next: u8) -> TokenKind {
        if (c == b'|' || c == b'&') && next == c {
            self.bump_ascii(2);
        } else {
            self.bump();
        }
        let text = self.text_from(start).to_owned();
        self.fail(start, &LexError::UnexpectedChar { text })
    }
}

impl<'src> Iterator for Lexer<'src> {
    type Item = Token<'src>;

    fn next(&mut self) -> Option<Token<'src>> {
        let token = self.next_token();
        (token.kind != TokenKind::Eof).then_some(token)
    }
}

/// Letters, digits and `_`: what identifiers, units and malformed number
/// tails are made of.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Letters and `_`: what starts an identifier or a duration unit.
fn is_letter(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}
