//! The parser: tokens to a syntax tree (language-core §3, language-policies
//! §1.2).
//!
//! [`parse_file`] parses every document of a source file; [`parse_expr`]
//! parses one standalone expression (the `expr` mode of the spec examples,
//! payload defaults of host-built kinds). Both return *every* diagnostic,
//! lexical ones included, sorted by position.
//!
//! Documents and statements are parsed by recursive descent, expressions by
//! a Pratt parser (`expr.rs`) that makes the decisions of language-core §3.8.
//! Where things are: document, policy and module statements in `stmt.rs`;
//! kind declarations in `kind.rs`; types in `types.rs`; every parse error
//! and its exact text in `error.rs` ([`ParseError`]); tests and goldens in
//! `tests/` and `testdata/`.
//!
//! Errors as values: a parse function returns `Err(Bail)` after recording
//! its diagnostic; the nearest recovery point (a statement, declaration or
//! document loop) skips to where parsing can resume (§3.9): the next
//! statement keyword, declaration keyword, `---` or header. So one typo
//! costs one diagnostic and the rest of the file still parses — until the
//! file has [`MAX_PER_FILE`] diagnostics: then the parser gives up, records
//! a "too many errors" mark and moves to the end (issue #20, `diag::cap`). An
//! `Illegal` token (already reported by the lexer) makes a construct fail
//! without a second diagnostic.
//!
//! Nesting is bounded ([`MAX_NESTING`], §3.8 rule 9): expressions, `when`
//! blocks and types share one counter, so the recursion of this parser — and
//! of every later phase over the tree — stays shallow whatever the input.
//! Past the limit the construct is reported once and skipped to its end.
//! The 256 levels take about 160 KiB of stack natively (release) and under
//! 64 KiB of the module's 1 MiB shadow stack; `expr.rs` says how.

mod error;
mod expr;
mod kind;
mod stmt;
mod types;

pub use error::{LoosePrefix, Nesting, ParseError, TopLevelOnly};

#[cfg(test)]
mod tests;

use crate::ast::{Expr, File};
use crate::diag::{self, Diagnostic, MAX_PER_FILE, too_many_in_file};
use crate::lexer::{CompactToken, Lexer, Token, TokenKind, lex};
use crate::source::{LineIndex, Position, Span};

/// How deeply expressions, types and `when` blocks may nest, counted
/// together: each parenthesis, operand, element, entry, index, argument,
/// quantifier part, type argument and nested rule adds a level.
pub const MAX_NESTING: usize = 256;

/// Parses every document of `src`. The file is returned even with errors,
/// holding whatever parsed; the diagnostics (lexical and syntactic, each
/// with `file` set to `name`) are sorted by position and empty only for a
/// clean file.
pub fn parse_file(name: &str, src: &str) -> (File, Vec<Diagnostic>) {
    parse_documents(name, Parser::streaming(src), Vec::new())
}

/// Whether a parse works out the values of the literals in expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Literals {
    /// Every value, as the tree promises.
    Valued,
    /// Zero and empty values, the texts only, for a tree whose values no
    /// one reads: the formatter prints literals as written, and its proof
    /// compares their texts (a value is a function of its text, and the
    /// lexer has checked that it has one). Saves decoding each string into
    /// a buffer of its own.
    TextOnly,
}

/// [`parse_file`] of what [`lex`] made of `src`, for a caller that also
/// reads the tokens the tree doesn't keep (the formatter's comments), so
/// that the source is lexed once.
pub(crate) fn parse_lexed(
    name: &str,
    src: &str,
    (tokens, lex_diagnostics): (Vec<CompactToken>, Vec<Diagnostic>),
    literals: Literals,
) -> (File, Vec<Diagnostic>) {
    parse_documents(name, Parser::new(src, tokens, literals), lex_diagnostics)
}

/// The file `p` parses, named `name`, and its diagnostics with the
/// `lexical` ones given.
fn parse_documents(
    name: &str,
    mut p: Parser<'_>,
    lexical: Vec<Diagnostic>,
) -> (File, Vec<Diagnostic>) {
    let docs = p.documents();
    let file = File {
        name: name.to_owned(),
        docs,
    };
    (file, p.finish(name, lexical))
}

/// Parses all of `src` as one expression. On any error (lexical or
/// syntactic) the expression is `None` and the list holds every diagnostic,
/// each with `file` set to `name`.
pub fn parse_expr(name: &str, src: &str) -> (Option<Expr>, Vec<Diagnostic>) {
    let (tokens, lex_diagnostics) = lex(src);
    let mut p = Parser::new(src, tokens, Literals::Valued);
    let expr = p.standalone_expr().ok();
    let diagnostics = p.finish(name, lex_diagnostics);
    if diagnostics.is_empty() {
        (expr, diagnostics)
    } else {
        (None, diagnostics)
    }
}

/// The failure of a parse function. Its diagnostic, if any, has already been
/// recorded; the caller unwinds to a recovery point.
#[derive(Debug)]
struct Bail;

type PResult<T> = Result<T, Bail>;

/// How many tokens a streaming parse holds at once (issue #20: a large
/// file's tokens never all sit beside its tree).
const WINDOW: usize = 1024;
/// How far the parser looks ahead: [`Parser::peek_at`] reads at most the
/// third token after the current one.
const LOOKAHEAD: usize = 4;

/// The state of one parse.
struct Parser<'src> {
    src: &'src str,
    // INVARIANT: not empty, no comments; `pos` indexes a token, never past
    // the `Eof`. Either the last token (only the last) is `Eof` and `rest`
    // is None, or `rest` lexes the tokens after the last and at least
    // LOOKAHEAD tokens follow `pos`. Compact (issue #20): `tok` gives the
    // current one with its text.
    tokens: Vec<CompactToken>,
    pos: usize,
    /// In a streaming parse, the lexer of the source after `tokens`: the
    /// tokens before the previous one are dropped as the window moves on.
    rest: Option<Lexer<'src>>,
    /// The lexer's diagnostics, once a streaming parse's lexer is done.
    lexical: Vec<Diagnostic>,
    diagnostics: Vec<Diagnostic>,
    /// Where the last `sync` stopped, so a statement that fails at its first
    /// token can't be retried forever.
    last_sync: Option<usize>,
    /// Nesting levels entered (see [`MAX_NESTING`]).
    depth: usize,
    /// Set once a construct went past the limit and was reported, until the
    /// parser is back within it, so the rest of that construct fails
    /// quietly instead of once per level.
    deep: bool,
    /// `(`, `[` and `{` moved past without their closer.
    brackets: usize,
    /// `brackets` when the outermost expression being parsed started, and
    /// how many expressions the parser is inside: a construct nested too
    /// deep is skipped to the end of that outermost expression.
    expr_start: usize,
    expr_depth: usize,
    /// The `{` of a rule body that a condition missing its last operand read
    /// as a map literal, for `when` to resume the body from (§3.8 rule 5).
    lost_body: Option<Token<'src>>,
    /// Set while a decision field's default is parsed, where a keyword
    /// followed by `:` starts the next field instead of continuing.
    in_field: bool,
    /// Built on the first error that needs a position in its text.
    line_index: Option<LineIndex<'src>>,
    /// Whether expression literals get their values.
    literals: Literals,
}

impl<'src> Parser<'src> {
    fn new(src: &'src str, mut tokens: Vec<CompactToken>, literals: Literals) -> Self {
        tokens.retain(|t| !t.kind.is_trivia());
        if tokens.last().is_none_or(|t| t.kind != TokenKind::Eof) {
            tokens.push(CompactToken::new(TokenKind::Eof, Span::empty(src.len())));
        }
        Parser {
            src,
            tokens,
            pos: 0,
            rest: None,
            lexical: Vec::new(),
            diagnostics: Vec::new(),
            last_sync: None,
            depth: 0,
            deep: false,
            brackets: 0,
            expr_start: 0,
            expr_depth: 0,
            lost_body: None,
            in_field: false,
            line_index: None,
            literals,
        }
    }

    /// A parser that lexes `src` as it reads it, [`WINDOW`] tokens at a
    /// time.
    fn streaming(src: &'src str) -> Self {
        // `new` of no tokens holds just an `Eof`: the window replaces it.
        let mut p = Parser::new(src, Vec::new(), Literals::Valued);
        p.tokens = Vec::with_capacity(WINDOW);
        p.rest = Some(Lexer::new(src));
        p.refill();
        p
    }

    /// Moves the window of a streaming parse on: drops the tokens before
    /// the previous one and lexes up to [`WINDOW`] more, comments skipped.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        let Some(lexer) = self.rest.as_mut() else {
            return;
        };
        let keep = self.pos.saturating_sub(1);
        self.tokens.drain(..keep);
        self.pos -= keep;
        let mut done = false;
        while self.tokens.len() < WINDOW {
            let token = lexer.next_compact();
            if token.kind.is_trivia() {
                continue;
            }
            self.tokens.push(token);
            if token.kind == TokenKind::Eof {
                done = true;
                break;
            }
        }
        if done {
            self.lexical = self
                .rest
                .take()
                .map(Lexer::into_diagnostics)
                .unwrap_or_default();
        }
    }

    /// Moves to the `Eof`. A streaming parse lexes the rest of the source
    /// first, for its lexical diagnostics.
    fn skip_to_end(&mut self) {
        if let Some(mut lexer) = self.rest.take() {
            loop {
                let token = lexer.next_compact();
                if token.kind == TokenKind::Eof {
                    self.tokens.push(token);
                    break;
                }
            }
            self.lexical = lexer.into_diagnostics();
        }
        self.pos = self.tokens.len().saturating_sub(1);
    }

    /// All diagnostics, parser's and lexer's, placed in `name`, sorted and
    /// capped at [`MAX_PER_FILE`] (see [`diag::cap`]).
    fn finish(self, name: &str, lexical: Vec<Diagnostic>) -> Vec<Diagnostic> {
        let mut all = self.diagnostics;
        all.extend(lexical);
        all.extend(self.lexical);
        let mut all: Vec<Diagnostic> = all.into_iter().map(|d| d.with_file(name)).collect();
        diag::sort(&mut all);
        diag::cap(all)
    }

    // ---- the token cursor ---------------------------------------------------

    /// The current token.
    #[inline]
    fn tok(&self) -> Token<'src> {
        // `pos` indexes a token (INVARIANT above): no clamping needed, and
        // the parser asks for this token several times per token.
        match self.tokens.get(self.pos) {
            Some(&token) => token.expand(self.src),
            None => self.peek_at(0),
        }
    }

    /// The current token's kind.
    #[inline]
    fn kind(&self) -> TokenKind {
        self.tokens.get(self.pos).map_or(TokenKind::Eof, |t| t.kind)
    }

    /// Whether the current token is of kind `kind`.
    #[inline]
    fn at(&self, kind: TokenKind) -> bool {
        self.kind() == kind
    }

    /// The token `n` places after the current one (`Eof` past the end).
    fn peek_at(&self, n: usize) -> Token<'src> {
        self.compact_at(n).expand(self.src)
    }

    /// [`Parser::peek_at`] without the text.
    fn compact_at(&self, n: usize) -> CompactToken {
        let last = self.tokens.len().saturating_sub(1);
        let at = self.pos.saturating_add(n).min(last);
        let token = self.tokens.get(at).copied();
        token.unwrap_or(CompactToken::new(
            TokenKind::Eof,
            Span::empty(self.src.len()),
        ))
    }

    /// The next token's kind.
    #[inline]
    fn peek(&self) -> TokenKind {
        self.compact_at(1).kind
    }

    /// The kind of the token before the current one (`Eof` at the start).
    fn prev(&self) -> TokenKind {
        match self.pos.checked_sub(1) {
            Some(i) => self.tokens.get(i).map_or(TokenKind::Eof, |t| t.kind),
            None => TokenKind::Eof,
        }
    }

    /// Moves to the next token (never past `Eof`), counting brackets.
    #[inline(always)]
    fn next(&mut self) {
        match self.kind() {
            TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => self.brackets += 1,
            TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                self.brackets = self.brackets.saturating_sub(1);
            }
            TokenKind::Eof => return,
            _ => {}
        }
        self.pos += 1;
        if self.rest.is_some() && self.pos + LOOKAHEAD >= self.tokens.len() {
            self.refill();
        }
    }

    /// Replaces the current token (the type parser splits a `>=`).
    fn replace_current(&mut self, token: Token<'src>) {
        if let Some(slot) = self.tokens.get_mut(self.pos) {
            *slot = CompactToken::of(token);
        }
    }

    /// Whether the current token starts its line (column 1).
    fn at_line_start(&self) -> bool {
        let start = self.tok().span.start;
        start == 0 || self.src.as_bytes().get(start - 1) == Some(&b'\n')
    }

    // ---- diagnostics ------------------------------------------------------------

    /// Records `error` at `span` and carries on. A second diagnostic at the
    /// start of the previous one is a consequence of it and is dropped (§3.9).
    ///
    /// Past [`MAX_PER_FILE`] diagnostics the source is junk: the parser
    /// records the "too many errors" mark once and moves to the end of the
    /// input, where every recovery loop stops, so the rest costs nothing.
    fn report(&mut self, error: &ParseError, span: Span) {
        if let Some(last) = self.diagnostics.last()
            && last.span.map(|s| s.start) == Some(span.start)
        {
            return;
        }
        if self.diagnostics.len() < MAX_PER_FILE {
            self.diagnostics.push(error.at(span));
            return;
        }
        if self.diagnostics.len() == MAX_PER_FILE {
            self.diagnostics.push(too_many_in_file(None));
        }
        self.skip_to_end();
    }

    /// Records `error` at `span` and returns the bail that abandons the
    /// construct. Errors are cold and never inlined, so their temporaries
    /// stay out of the frames of the recursive parse functions.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, error: &ParseError, span: Span) -> Bail {
        self.report(error, span);
        Bail
    }

    /// Records `error` at the current token and bails.
    #[cold]
    #[inline(never)]
    fn fail_here(&mut self, error: &ParseError) -> Bail {
        let span = self.tok().span;
        self.fail(error, span)
    }

    /// Fails at the current token with `expected <want>, found <tok>`; an
    /// `Illegal` token fails quietly (the lexer reported it).
    #[cold]
    #[inline(never)]
    fn unexpected(&mut self, want: &str, help: &str) -> Bail {
        let tok = self.tok();
        if tok.kind == TokenKind::Illegal {
            return Bail;
        }
        self.fail(&ParseError::expected(want, tok, help), tok.span)
    }

    /// Consumes a token of kind `kind`, or fails with ``expected `kind` ``.
    fn expect(&mut self, kind: TokenKind, help: &str) -> PResult<Token<'src>> {
        let tok = self.tok();
        if tok.kind != kind {
            return Err(self.expected_kind(kind, help));
        }
        self.next();
        Ok(tok)
    }

    #[cold]
    #[inline(never)]
    fn expected_kind(&mut self, kind: TokenKind, help: &str) -> Bail {
        let want = format!("`{}`", kind.name());
        self.unexpected(&want, help)
    }

    /// Consumes the closer of `open`, or fails pointing at the opener:
    /// ``to close the `(` at 2:7``.
    fn expect_closing(&mut self, kind: TokenKind, open: Token<'src>) -> PResult<Token<'src>> {
        let tok = self.tok();
        if tok.kind != kind {
            return Err(self.unclosed(kind, open));
        }
        self.next();
        Ok(tok)
    }

    #[cold]
    #[inline(never)]
    fn unclosed(&mut self, kind: TokenKind, open: Token<'src>) -> Bail {
        let help = format!(
            "to close the `{}` at {}",
            open.text,
            self.position(open.span.start)
        );
        self.expected_kind(kind, &help)
    }

    /// The line and column of byte `offset`, for texts that name a position.
    fn position(&mut self, offset: usize) -> Position {
        let src = self.src;
        self.line_index
            .get_or_insert_with(|| LineIndex::new(src))
            .position(offset)
    }

    // ---- recovery --------------------------------------------------------------------

    /// Runs `parse`; on failure skips with `sync` and returns `None`.
    fn recover<T>(
        &mut self,
        parse: impl FnOnce(&mut Self) -> PResult<T>,
        sync: impl FnOnce(&mut Self),
    ) -> Option<T> {
        match parse(self) {
            Ok(v) => Some(v),
            Err(Bail) => {
                sync(self);
                None
            }
        }
    }

    /// Skips tokens until `stop` accepts one or the input ends. If the
    /// parser is where the last sync stopped, it first moves one token, so
    /// a construct that fails at its first token makes progress.
    fn sync(&mut self, stop: impl Fn(&Self) -> bool) {
        let here = self.tok().span.start;
        if self.last_sync == Some(here) && !self.at(TokenKind::Eof) {
            self.next();
        }
        while !self.at(TokenKind::Eof) && !stop(self) {
            self.next();
        }
        self.last_sync = Some(self.tok().span.start);
    }

    /// Whether the current token looks like a document header while the
    /// parser skips after an error and has lost track of brackets: a header
    /// keyword that doesn't follow a `.` (a field) and isn't followed by `:`
    /// (a field or argument named like it) unless it starts its line.
    fn at_header(&self) -> bool {
        is_header_keyword(self.kind())
            && self.prev() != TokenKind::Dot
            && (self.peek() != TokenKind::Colon || self.at_line_start())
    }

    /// Skips to the next document header or `---`.
    fn sync_doc(&mut self) {
        self.sync(|p| p.at(TokenKind::Separator) || p.at_header());
    }

    // ---- nesting ------------------------------------------------------------------------

    /// Enters one nesting level at the current token. Past the limit it
    /// reports (once per construct), skips the rest of the construct and
    /// fails. The caller calls [`Parser::unnest`] whatever happens.
    fn nest(&mut self, what: Nesting) -> PResult<()> {
        self.depth += 1;
        if self.depth <= MAX_NESTING {
            return Ok(());
        }
        Err(self.too_deep(what))
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&mut self, what: Nesting) -> Bail {
        if !self.deep {
            self.deep = true;
            let span = self.tok().span;
            self.report(&ParseError::TooDeep { what }, span);
        }
        match what {
            Nesting::Expression => self.skip_expr(),
            Nesting::When => self.skip_when(),
            Nesting::Type => {}
        }
        Bail
    }

    /// Leaves the level [`Parser::nest`] entered.
    fn unnest(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        if self.depth < MAX_NESTING {
            self.deep = false;
        }
    }

    /// Skips to the end of the outermost expression being parsed: past every
    /// bracket opened since it started.
    fn skip_expr(&mut self) {
        while self.brackets > self.expr_start
            && !self.at(TokenKind::Eof)
            && !self.at(TokenKind::Separator)
        {
            self.next();
        }
    }

    /// Skips a `when` from its keyword: the condition, and the body up to
    /// the `}` that closes it.
    fn skip_when(&mut self) {
        let start = self.brackets;
        while !matches!(
            self.kind(),
            TokenKind::LBrace | TokenKind::Eof | TokenKind::Separator
        ) {
            self.next();
        }
        if !self.at(TokenKind::LBrace) {
            return;
        }
        self.next();
        while self.brackets > start && !self.at(TokenKind::Eof) && !self.at(TokenKind::Separator) {
            self.next();
        }
    }
}

/// Whether `kind` starts a document.
fn is_header_keyword(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Policy | TokenKind::Module | TokenKind::Kind
    )
}

/// `list` without its spare capacity. A list grows by doubling (and from
/// four entries), and the tree keeps every list it parsed: a `when` body of
/// one statement or a call of two arguments would hold twice its entries
/// (issue #20).
fn fit<T>(mut list: Vec<T>) -> Vec<T> {
    list.shrink_to_fit();
    list
}
