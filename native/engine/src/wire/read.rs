//! Reading request JSON the way Go's `encoding/json` reads it.
//!
//! The reference engine decodes requests with Go's `json.Decoder`, and its
//! error texts are part of the module's answers (`…: EOF`, `…: invalid
//! character 'o' looking for beginning of value`). This module reproduces
//! Go's scanner: the same grammar, the same error texts, the same nesting
//! limit (10 000 levels: deeper is `invalid character '[' exceeded max
//! depth`). It is iterative, so no input can exhaust the stack.
//!
//! Two steps: [`scan_first_value`] checks the syntax of the first value and
//! finds where it ends; a [`Cursor`] then walks that checked value without
//! re-checking it. [`unquote`] turns a string's raw bytes into text.
//! Messages quote text with [`crate::diag::go_quote_bytes`], as Go's `%q` does.

use std::borrow::Cow;

use super::plain_run::{CONTROLS, QUOTES, plain_run};
use crate::diag::push_go_quoted_char;

/// The deepest nesting of arrays and objects Go's decoder accepts.
pub(crate) const MAX_DEPTH: usize = 10_000;

/// Why a request isn't JSON, with Go's text for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SyntaxError {
    /// Nothing but whitespace: Go's `EOF`.
    Eof,
    /// The input ends inside a value: Go's `unexpected EOF`.
    UnexpectedEof,
    /// A byte that can't continue the value, with Go's context words, such
    /// as `'o'` and `looking for beginning of value`.
    InvalidCharacter { byte: u8, context: &'static str },
}

impl SyntaxError {
    /// The text Go's decoder gives for this error.
    pub(crate) fn go_text(&self) -> String {
        match self {
            Self::Eof => "EOF".to_owned(),
            Self::UnexpectedEof => "unexpected EOF".to_owned(),
            Self::InvalidCharacter { byte, context } => {
                format!("invalid character {} {context}", quote_byte(*byte))
            }
        }
    }
}

/// JSON's whitespace, as Go's scanner defines it.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The index of the first non-space byte at or after `i`.
pub(crate) fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).copied().is_some_and(is_space) {
        i += 1;
    }
    i
}

/// A stack of open containers, one bit each (set for an object): the first
/// 64 levels in a word, deeper ones in words allocated only when a request
/// nests that deep, so scanning a usual request allocates and clears nothing.
struct Nesting {
    shallow: u64,
    deep: Vec<u64>,
    depth: usize,
}

impl Nesting {
    fn new() -> Self {
        Self {
            shallow: 0,
            deep: Vec::new(),
            depth: 0,
        }
    }

    /// The word holding level `level`'s bit, added when first reached.
    fn word(&mut self, level: usize) -> Option<&mut u64> {
        let Some(deep_index) = (level / 64).checked_sub(1) else {
            return Some(&mut self.shallow);
        };
        if deep_index == self.deep.len() {
            self.deep.push(0);
        }
        self.deep.get_mut(deep_index)
    }

    /// Opens a container; `false` when that would exceed [`MAX_DEPTH`].
    fn push(&mut self, object: bool) -> bool {
        if self.depth >= MAX_DEPTH {
            return false;
        }
        let mask = 1u64 << (self.depth % 64);
        let Some(word) = self.word(self.depth) else {
            return false;
        };
        *word = if object { *word | mask } else { *word & !mask };
        self.depth += 1;
        true
    }

    fn pop(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Whether the innermost open container is an object; `None` at the top.
    fn innermost_is_object(&self) -> Option<bool> {
        let top = self.depth.checked_sub(1)?;
        let word = match (top / 64).checked_sub(1) {
            None => self.shallow,
            Some(deep_index) => *self.deep.get(deep_index)?,
        };
        Some(word & (1u64 << (top % 64)) != 0)
    }
}

fn invalid(byte: u8, context: &'static str) -> SyntaxError {
    SyntaxError::InvalidCharacter { byte, context }
}

/// Checks the syntax of the first JSON value in `bytes` as Go's
/// `json.Decoder` does and returns `(start, end)` of that value. Bytes after
/// it are not looked at, as Go's decoder doesn't.
pub(crate) fn scan_first_value(bytes: &[u8]) -> Result<(usize, usize), SyntaxError> {
    let start = skip_space(bytes, 0);
    if start == bytes.len() {
        return Err(SyntaxError::Eof);
    }
    let mut nesting = Nesting::new();
    let mut i = start;
    loop {
        match scan_value_start(bytes, i, &mut nesting)? {
            Scanned::Opened(next) => {
                i = next;
                continue;
            }
            Scanned::Complete(next) => i = next,
        }
        // After a complete value: close what can be closed, and find where
        // the next value starts.
        loop {
            let Some(object) = nesting.innermost_is_object() else {
                return Ok((start, i));
            };
            i = skip_space(bytes, i);
            let byte = *bytes.get(i).ok_or(SyntaxError::UnexpectedEof)?;
            match (object, byte) {
                (true, b',') => {
                    i = scan_key(bytes, i + 1)?;
                    break;
                }
                (false, b',') => {
                    i += 1;
                    break;
                }
                (true, b'}') | (false, b']') => {
                    nesting.pop();
                    i += 1;
                }
                (true, _) => return Err(invalid(byte, "after object key:value pair")),
                (false, _) => return Err(invalid(byte, "after array element")),
            }
        }
    }
}

/// What [`scan_value_start`] read.
enum Scanned {
    /// A whole value; the index after it.
    Complete(usize),
    /// An array or object that isn't empty was opened (and, for an object,
    /// its first key read); a value starts at or after the index.
    Opened(usize),
}

/// Scans one value starting at or after `i`: a scalar or an empty container
/// whole, otherwise just the opening (members are left to the caller's
/// loop, so nesting never recurses).
fn scan_value_start(bytes: &[u8], i: usize, nesting: &mut Nesting) -> Result<Scanned, SyntaxError> {
    let i = skip_space(bytes, i);
    let byte = *bytes.get(i).ok_or(SyntaxError::UnexpectedEof)?;
    let end = match byte {
        b'{' | b'[' => {
            let object = byte == b'{';
            if !nesting.push(object) {
                return Err(invalid(byte, "exceeded max depth"));
            }
            let next = skip_space(bytes, i + 1);
            let close = if object { b'}' } else { b']' };
            return match bytes.get(next) {
                None => Err(SyntaxError::UnexpectedEof),
                Some(&c) if c == close => {
                    nesting.pop();
                    Ok(Scanned::Complete(next + 1))
                }
                Some(_) if object => scan_key(bytes, next).map(Scanned::Opened),
                Some(_) => Ok(Scanned::Opened(next)),
            };
        }
        b'"' => scan_string(bytes, i)?,
        b'-' | b'0'..=b'9' => scan_number(bytes, i)?,
        b't' => scan_literal(bytes, i, b"true", LITERAL_TRUE)?,
        b'f' => scan_literal(bytes, i, b"false", LITERAL_FALSE)?,
        b'n' => scan_literal(bytes, i, b"null", LITERAL_NULL)?,
        _ => return Err(invalid(byte, "looking for beginning of value")),
    };
    Ok(Scanned::Complete(end))
}

/// Scans an object key and its colon, starting at or after `i`; returns the
/// index after the colon.
fn scan_key(bytes: &[u8], i: usize) -> Result<usize, SyntaxError> {
    let i = skip_space(bytes, i);
    match bytes.get(i) {
        None => return Err(SyntaxError::UnexpectedEof),
        Some(b'"') => {}
        Some(&c) => return Err(invalid(c, "looking for beginning of object key string")),
    }
    let i = skip_space(bytes, scan_string(bytes, i)?);
    match bytes.get(i) {
        None => Err(SyntaxError::UnexpectedEof),
        Some(b':') => Ok(i + 1),
        Some(&c) => Err(invalid(c, "after object key")),
    }
}

/// Scans a string whose opening quote is at `i`; returns the index after the
/// closing quote.
fn scan_string(bytes: &[u8], i: usize) -> Result<usize, SyntaxError> {
    let mut i = i + 1;
    loop {
        i += plain_run::<CONTROLS>(bytes, i);
        let byte = *bytes.get(i).ok_or(SyntaxError::UnexpectedEof)?;
        i += 1;
        match byte {
            b'"' => return Ok(i),
            b'\\' => {
                let escape = *bytes.get(i).ok_or(SyntaxError::UnexpectedEof)?;
                i += 1;
                match escape {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                    b'u' => {
                        for _ in 0..4 {
                            let hex = *bytes.get(i).ok_or(SyntaxError::UnexpectedEof)?;
                            if !hex.is_ascii_hexdigit() {
                                return Err(invalid(hex, "in \\u hexadecimal character escape"));
                            }
                            i += 1;
                        }
                    }
                    _ => return Err(invalid(escape, "in string escape code")),
                }
            }
            0..=0x1f => return Err(invalid(byte, "in string literal")),
            _ => {}
        }
    }
}

/// Scans a number starting at `i` (a `-` or a digit); returns the index
/// after it. Go ends a number at the first byte that can't continue it.
fn scan_number(bytes: &[u8], i: usize) -> Result<usize, SyntaxError> {
    let digit_at = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let need = |i: usize, context: &'static str| match bytes.get(i) {
        None => Err(SyntaxError::UnexpectedEof),
        Some(c) if c.is_ascii_digit() => Ok(()),
        Some(&c) => Err(invalid(c, context)),
    };
    let mut i = i;
    if bytes.get(i) == Some(&b'-') {
        i += 1;
        need(i, "in numeric literal")?;
    }
    // One zero, or a non-zero digit and more digits.
    if bytes.get(i) == Some(&b'0') {
        i += 1;
    } else {
        while digit_at(i) {
            i += 1;
        }
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        need(i, "after decimal point in numeric literal")?;
        while digit_at(i) {
            i += 1;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        need(i, "in exponent of numeric literal")?;
        while digit_at(i) {
            i += 1;
        }
    }
    Ok(i)
}

const LITERAL_TRUE: [&str; 4] = [
    "",
    "in literal true (expecting 'r')",
    "in literal true (expecting 'u')",
    "in literal true (expecting 'e')",
];
const LITERAL_FALSE: [&str; 5] = [
    "",
    "in literal false (expecting 'a')",
    "in literal false (expecting 'l')",
    "in literal false (expecting 's')",
    "in literal false (expecting 'e')",
];
const LITERAL_NULL: [&str; 4] = [
    "",
    "in literal null (expecting 'u')",
    "in literal null (expecting 'l')",
    "in literal null (expecting 'l')",
];

/// Scans `true`, `false` or `null` at `i`; `contexts[k]` is Go's error
/// context for a wrong k-th byte.
fn scan_literal<const N: usize>(
    bytes: &[u8],
    i: usize,
    literal: &[u8],
    contexts: [&'static str; N],
) -> Result<usize, SyntaxError> {
    for (k, (want, context)) in literal.iter().zip(contexts).enumerate().skip(1) {
        match bytes.get(i + k) {
            None => return Err(SyntaxError::UnexpectedEof),
            Some(c) if c == want => {}
            Some(&c) => return Err(invalid(c, context)),
        }
    }
    Ok(i + literal.len())
}

/// Whether `text` is a JSON number, as Go's `isValidNumber` decides (it
/// checks strings sent for a `json.Number`).
pub(crate) fn is_number(text: &[u8]) -> bool {
    matches!(text.first(), Some(b'-' | b'0'..=b'9')) && scan_number(text, 0) == Ok(text.len())
}

/// The kind of a JSON value, named as Go's type errors name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

impl Kind {
    /// Go's word for the kind in `cannot unmarshal «kind» into …`.
    pub(crate) fn go_name(self) -> &'static str {
        match self {
            Self::Object => "object",
            Self::Array => "array",
            Self::String => "string",
            Self::Number => "number",
            Self::Bool => "bool",
            Self::Null => "null",
        }
    }
}

/// Walks JSON that [`scan_first_value`] has already checked, so it never
/// re-checks syntax: on checked input every method does what it says.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `checked`, one complete JSON value.
    pub(crate) fn new(checked: &'a [u8]) -> Self {
        Self {
            bytes: checked,
            at: 0,
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.at = skip_space(self.bytes, self.at);
        self.bytes.get(self.at).copied()
    }

    /// The kind of the next value.
    pub(crate) fn kind(&mut self) -> Kind {
        match self.peek() {
            Some(b'{') => Kind::Object,
            Some(b'[') => Kind::Array,
            Some(b'"') => Kind::String,
            Some(b't' | b'f') => Kind::Bool,
            Some(b'n') => Kind::Null,
            _ => Kind::Number,
        }
    }

    /// Skips the next value and returns its raw bytes.
    pub(crate) fn raw_value(&mut self) -> &'a [u8] {
        self.peek();
        let start = self.at;
        match self.bytes.get(start) {
            Some(b'"') => self.at = self.string_end(start),
            Some(b'{' | b'[') => self.skip_container(),
            // A number or a literal runs to the next delimiter.
            _ => {
                while self
                    .bytes
                    .get(self.at)
                    .is_some_and(|&c| !matches!(c, b',' | b'}' | b']') && !is_space(c))
                {
                    self.at += 1;
                }
            }
        }
        self.bytes.get(start..self.at).unwrap_or_default()
    }

    /// Moves past the array or object that starts at the cursor, counting
    /// brackets outside strings (the input is checked, so they balance).
    fn skip_container(&mut self) {
        let mut depth = 0usize;
        while let Some(&byte) = self.bytes.get(self.at) {
            match byte {
                b'"' => {
                    self.at = self.string_end(self.at);
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.at += 1;
            if depth == 0 {
                break;
            }
        }
    }

    /// The index after the string whose opening quote is at `i`.
    fn string_end(&self, i: usize) -> usize {
        let mut i = i + 1;
        loop {
            i += plain_run::<QUOTES>(self.bytes, i);
            let Some(&byte) = self.bytes.get(i) else {
                break;
            };
            i += 1;
            match byte {
                b'"' => break,
                b'\\' => i += 1,
                _ => {}
            }
        }
        i
    }

    /// Reads a string value and returns its raw bytes, without the quotes.
    fn raw_string(&mut self) -> &'a [u8] {
        let raw = self.raw_value();
        raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default()
    }

    /// Reads a string value and returns its text, as [`unquote`] decodes
    /// it. A string without escapes (most are) is found and borrowed in
    /// one look.
    pub(crate) fn string(&mut self) -> Cow<'a, str> {
        self.peek();
        let start = self.at + 1;
        let end = start + plain_run::<QUOTES>(self.bytes, start);
        if self.bytes.get(end) == Some(&b'"') {
            let raw = self.bytes.get(start..end).unwrap_or_default();
            if let Ok(text) = std::str::from_utf8(raw) {
                self.at = end + 1;
                return Cow::Borrowed(text);
            }
        }
        unquote(self.raw_string())
    }

    /// Enters the array or object whose bracket is next.
    pub(crate) fn enter(&mut self) {
        self.peek();
        self.at += 1;
    }

    /// Moves to the next element of the array just entered, consuming the
    /// comma before it or the closing bracket after the last one. `false`
    /// when the array ended.
    pub(crate) fn next_element(&mut self) -> bool {
        match self.peek() {
            Some(b',') => {
                self.at += 1;
                true
            }
            Some(b']' | b'}') => {
                self.at += 1;
                false
            }
            _ => true,
        }
    }

    /// Reads the next member key of the object just entered, as text, and
    /// moves past its colon; `None` (and the closing brace consumed) when
    /// it ended.
    pub(crate) fn next_key(&mut self) -> Option<Cow<'a, str>> {
        if !self.next_element() {
            return None;
        }
        let key = self.string();
        self.peek();
        self.at += 1; // the colon
        Some(key)
    }
}

/// The text of a JSON string from its raw bytes (without quotes), decoded as
/// Go decodes it: escapes resolved, each byte of invalid UTF-8 and each lone
/// UTF-16 surrogate replaced by U+FFFD. Borrows when nothing changes.
pub(crate) fn unquote(raw: &[u8]) -> Cow<'_, str> {
    let Ok(valid) = std::str::from_utf8(raw) else {
        return Cow::Owned(unquote_lossy(raw));
    };
    // In a checked string a quote comes after a backslash, so a run that
    // reaches the end has no escape.
    if plain_run::<QUOTES>(raw, 0) == raw.len() {
        return Cow::Borrowed(valid);
    }
    // Valid as a whole, so valid between escapes (which are ASCII): the
    // runs are sliced, not checked again.
    let mut out = String::with_capacity(raw.len());
    let mut at = 0;
    while at < raw.len() {
        let end = at + plain_run::<QUOTES>(raw, at);
        out.push_str(valid.get(at..end).unwrap_or_default());
        let Some(rest) = raw.get(end..).filter(|rest| !rest.is_empty()) else {
            break;
        };
        at = end + rest.len() - push_escape(&mut out, rest).len();
    }
    Cow::Owned(out)
}

/// [`unquote`] of a string that isn't valid UTF-8.
fn unquote_lossy(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while !rest.is_empty() {
        let plain = plain_run::<QUOTES>(rest, 0);
        let (text, tail) = rest.split_at(plain);
        push_utf8_lossy_per_byte(&mut out, text);
        rest = tail;
        if !rest.is_empty() {
            rest = push_escape(&mut out, rest);
        }
    }
    out
}

/// Appends `bytes`, replacing each byte that isn't part of valid UTF-8 by
/// U+FFFD, one per byte as Go does (Rust's lossy decoding merges some).
fn push_utf8_lossy_per_byte(out: &mut String, mut bytes: &[u8]) {
    loop {
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                out.push_str(text);
                return;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push(char::REPLACEMENT_CHARACTER);
                bytes = rest.get(1..).unwrap_or_default();
            }
        }
    }
}

/// Appends the escape at the start of `rest` (which begins with a
/// backslash) and returns what follows it.
fn push_escape<'r>(out: &mut String, rest: &'r [u8]) -> &'r [u8] {
    let escape = rest.get(1).copied().unwrap_or(b'\\');
    let after = rest.get(2..).unwrap_or_default();
    let simple = match escape {
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return push_unicode_escape(out, after),
        other => char::from(other),
    };
    out.push(simple);
    after
}

/// Appends a `\u` escape whose four hex digits start `after_u`, joining a
/// surrogate pair written as two escapes; returns what follows.
fn push_unicode_escape<'r>(out: &mut String, after_u: &'r [u8]) -> &'r [u8] {
    let unit = hex4(after_u);
    let rest = after_u.get(4..).unwrap_or_default();
    if (0xD800..0xDC00).contains(&unit) && rest.starts_with(b"\\u") {
        let low = hex4(rest.get(2..).unwrap_or_default());
        if (0xDC00..0xE000).contains(&low) {
            let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
            return rest.get(6..).unwrap_or_default();
        }
    }
    out.push(char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER));
    rest
}

fn hex4(digits: &[u8]) -> u32 {
    digits
        .iter()
        .take(4)
        .fold(0, |n, &d| n * 16 + char::from(d).to_digit(16).unwrap_or(0))
}

/// Go's `quoteChar`: a byte of a syntax error, taken as the code point of
/// the same value (so byte 0xEF shows as `'ï'`), in single quotes.
fn quote_byte(byte: u8) -> String {
    match byte {
        b'\'' => "'\\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        _ => {
            let mut text = String::new();
            push_go_quoted_char(&mut text, char::from(byte), '"');
            format!("'{text}'")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(text: &str) -> Result<&str, String> {
        scan_first_value(text.as_bytes())
            .map(|(s, e)| text.get(s..e).unwrap())
            .map_err(|e| e.go_text())
    }

    /// Go's decoder texts, from Go's `encoding/json` scanner states.
    #[test]
    fn syntax_errors_read_as_go_writes_them() {
        let cases: &[(&str, &str)] = &[
            ("", "EOF"),
            (" \n\t\r ", "EOF"),
            (
                "oops",
                "invalid character 'o' looking for beginning of value",
            ),
            ("{", "unexpected EOF"),
            ("{\"op\":", "unexpected EOF"),
            ("{\"op\"", "unexpected EOF"),
            (
                "{\"op\" \"version\"}",
                "invalid character '\"' after object key",
            ),
            (
                "{\"op\":\"version\" \"x\"}",
                "invalid character '\"' after object key:value pair",
            ),
            (
                "{op}",
                "invalid character 'o' looking for beginning of object key string",
            ),
            (
                "{\"a\":1,}",
                "invalid character '}' looking for beginning of object key string",
            ),
            ("[1 2]", "invalid character '2' after array element"),
            (
                "[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            ("\"a\nb\"", "invalid character '\\n' in string literal"),
            ("\"\\x\"", "invalid character 'x' in string escape code"),
            (
                "\"\\u12g4\"",
                "invalid character 'g' in \\u hexadecimal character escape",
            ),
            ("-x", "invalid character 'x' in numeric literal"),
            (
                "1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            (
                "1e+x",
                "invalid character 'x' in exponent of numeric literal",
            ),
            ("tru", "unexpected EOF"),
            (
                "trxe",
                "invalid character 'x' in literal true (expecting 'u')",
            ),
            (
                "fals3",
                "invalid character '3' in literal false (expecting 'e')",
            ),
            (
                "nul!",
                "invalid character '!' in literal null (expecting 'l')",
            ),
            (
                "'a'",
                "invalid character '\\'' looking for beginning of value",
            ),
            (
                "\u{feff}{}",
                "invalid character 'ï' looking for beginning of value",
            ),
            (
                "\x01",
                "invalid character '\\x01' looking for beginning of value",
            ),
            (
                "\x7f",
                "invalid character '\\x7f' looking for beginning of value",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(scan(input), Err((*want).to_owned()), "input {input:?}");
        }
    }

    #[test]
    fn a_value_ends_where_go_stops_reading() {
        let cases: &[(&str, &str)] = &[
            ("{}", "{}"),
            (
                " {\"a\":[1,{\"b\":null}]} trailing",
                "{\"a\":[1,{\"b\":null}]}",
            ),
            ("12x", "12"),
            ("0.5e-3,", "0.5e-3"),
            ("[[]]]", "[[]]"),
            ("\"a\\\"b\" c", "\"a\\\"b\""),
            ("-0", "-0"),
            ("true false", "true"),
        ];
        for (input, want) in cases {
            assert_eq!(scan(input), Ok(*want), "input {input:?}");
        }
    }

    #[test]
    fn nesting_stops_at_go_s_limit() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(scan(&nested(MAX_DEPTH - 1)).is_ok());
        assert!(scan(&nested(MAX_DEPTH)).is_ok());
        assert_eq!(
            scan(&nested(MAX_DEPTH + 1)),
            Err("invalid character '[' exceeded max depth".to_owned())
        );
        assert_eq!(
            scan(&"[".repeat(100_000)),
            Err("invalid character '[' exceeded max depth".to_owned())
        );
        let objects = "{\"a\":".repeat(MAX_DEPTH + 1);
        assert_eq!(
            scan(&objects),
            Err("invalid character '{' exceeded max depth".to_owned())
        );
    }

    #[test]
    fn numbers_are_checked_as_go_checks_json_numbers() {
        for good in ["0", "-0", "7", "1.50", "1e3", "1E+3", "-12.5e-7"] {
            assert!(is_number(good.as_bytes()), "{good}");
        }
        for bad in ["", "-", "01", "1.", ".5", "1e", "+1", "0x10", "7 "] {
            assert!(!is_number(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn strings_unquote_as_go_decodes_them() {
        let cases: &[(&[u8], &str)] = &[
            (b"plain", "plain"),
            (br#"a\nb\t\"\\\/"#, "a\nb\t\"\\/"),
            (br"\u00e9\u20ac", "é€"),
            (br"\ud83d\ude00", "😀"),
            (br"\ud83d", "\u{fffd}"),
            (br"\ude00x", "\u{fffd}x"),
            (br"\ud83d\u0041", "\u{fffd}A"),
            (b"a\xffb", "a\u{fffd}b"),
            (b"\xe2\x82", "\u{fffd}\u{fffd}"),
            (b"\xed\xa0\x80", "\u{fffd}\u{fffd}\u{fffd}"),
        ];
        for (raw, want) in cases {
            assert_eq!(unquote(raw), *want, "raw {raw:?}");
        }
        assert!(matches!(unquote(b"op"), Cow::Borrowed("op")));
    }

    #[test]
    fn a_cursor_walks_checked_json() {
        let text = br#" { "a" : [1, "x\"]", {"b": null}] , "c":-2.5e3 ,"d":{}} "#;
        let mut cursor = Cursor::new(text);
        assert_eq!(cursor.kind(), Kind::Object);
        cursor.enter();
        assert_eq!(cursor.next_key().as_deref(), Some("a"));
        assert_eq!(cursor.raw_value(), br#"[1, "x\"]", {"b": null}]"#);
        assert_eq!(cursor.next_key().as_deref(), Some("c"));
        assert_eq!(cursor.kind(), Kind::Number);
        assert_eq!(cursor.raw_value(), b"-2.5e3");
        assert_eq!(cursor.next_key().as_deref(), Some("d"));
        assert_eq!(cursor.raw_value(), b"{}");
        assert_eq!(cursor.next_key(), None);
    }
}
