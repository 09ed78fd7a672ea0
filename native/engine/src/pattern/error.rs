//! A pattern `matches` can't use: Go's `regexp/syntax` error code and the
//! piece of the pattern Go quotes with it.

use std::fmt;

/// Why a pattern is not a regular expression, one variant per Go error code
/// the parser can return; the doc of each names an input that triggers it.
/// (Go also defines `invalid character class`, but its parser never returns
/// it: an unknown `[:name:]` is an `invalid character class range`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// `[:foo:]` inside brackets, `\pX`, `\p{Foo}`, `[z-a]`.
    InvalidCharRange,
    /// `\q`, `\1`, `\8`, `\x{110000}`, `\C`.
    InvalidEscape,
    /// `(?P<>a)`, `(?P<a-b>x)`, `(?<name` with no `>`.
    InvalidNamedCapture,
    /// `(?=x)`, `(?!x)`, `(?P=name)`, `(?` at the end.
    InvalidPerlOp,
    /// `a**`, `a+?+`, `a{2}{3}`.
    InvalidRepeatOp,
    /// `a{1001}`, `a{2,1}`, `(a{40}){40}` (nested counts multiply past 1000).
    InvalidRepeatSize,
    /// A byte sequence that is not UTF-8.
    InvalidUtf8,
    /// `[a`, `[]`, `[^`.
    MissingBracket,
    /// `(`, `(a|b`.
    MissingParen,
    /// `*`, `(+)`, `a|?`.
    MissingRepeatArgument,
    /// `\` at the very end.
    TrailingBackslash,
    /// `)`, `a)`, `(?:a))`.
    UnexpectedParen,
    /// 1000 nested groups or repetitions.
    NestingDepth,
    /// A program of more than Go's 3 355 443 instructions, as `(?:x{1000}){1000}`
    /// spelled out would need, or more than 32 Mi class runes.
    Large,
}

impl ErrorCode {
    /// Go's text for the code, as `regexp/syntax` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidCharRange => "invalid character class range",
            Self::InvalidEscape => "invalid escape sequence",
            Self::InvalidNamedCapture => "invalid named capture",
            Self::InvalidPerlOp => "invalid or unsupported Perl syntax",
            Self::InvalidRepeatOp => "invalid nested repetition operator",
            Self::InvalidRepeatSize => "invalid repeat count",
            Self::InvalidUtf8 => "invalid UTF-8",
            Self::MissingBracket => "missing closing ]",
            Self::MissingParen => "missing closing )",
            Self::MissingRepeatArgument => "missing argument to repetition operator",
            Self::TrailingBackslash => "trailing backslash at end of expression",
            Self::UnexpectedParen => "unexpected )",
            Self::NestingDepth => "expression nests too deeply",
            Self::Large => "expression too large",
        }
    }
}

/// A pattern that isn't a regular expression: the code and the bytes of the
/// pattern Go quotes with it (the whole pattern for parenthesis and size
/// problems, the offending piece otherwise; empty for a trailing backslash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexError {
    code: ErrorCode,
    fragment: Vec<u8>,
}

impl RegexError {
    pub(super) fn new(code: ErrorCode, fragment: &[u8]) -> Self {
        Self {
            code,
            fragment: fragment.to_vec(),
        }
    }

    /// What is wrong.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The piece of the pattern the message quotes, as bytes: after an
    /// `invalid UTF-8` error it holds the bytes that aren't UTF-8.
    pub fn fragment(&self) -> &[u8] {
        &self.fragment
    }

    /// Go's full text, ``error parsing regexp: <code>: `<fragment>` ``; bytes
    /// of the fragment that aren't UTF-8 show as U+FFFD (as they do once Go's
    /// JSON encoder has carried Go's text).
    pub fn message(&self) -> String {
        format!(
            "error parsing regexp: {}: `{}`",
            self.code.as_str(),
            String::from_utf8_lossy(&self.fragment)
        )
    }
}

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for RegexError {}
