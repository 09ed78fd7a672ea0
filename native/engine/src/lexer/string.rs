//! Strings (language-core §2.5.2): double-quoted strings with Go's
//! interpreted-string escapes, on one line; raw strings in backticks, which
//! may span lines and have no escapes.
//!
//! The scanner only needs to know that a backslash protects the next
//! character; which escapes are valid is decided afterwards by [`unquote`]
//! over the whole literal, which reports the first bad escape.

use super::error::LexError;
use super::{Lexer, TokenKind};
use crate::source::Span;

/// A string literal's problem and where it is, relative to the literal's
/// first byte (the opening quote).
#[derive(Clone, Debug, PartialEq)]
pub struct StringError {
    /// What is wrong.
    pub error: LexError,
    /// Where, in bytes from the opening quote.
    pub span: Span,
}

/// The value of a `String` token's text, quotes included: Go's
/// `strconv.Unquote`. Strings are byte sequences, so `\xff` gives the single
/// byte 0xFF.
///
/// The first backslash that starts no valid escape is an
/// [`LexError::UnknownEscape`] spanning it and the next character; a
/// well-shaped escape with an invalid value (`\uD800`, `\U00110000`, `\400`)
/// or text that isn't one quoted line is an [`LexError::InvalidString`] with
/// an empty span at the opening quote.
pub fn unquote(text: &str) -> Result<Vec<u8>, StringError> {
    let invalid = || StringError {
        error: LexError::InvalidString,
        span: Span::empty(0),
    };
    let body = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .ok_or_else(invalid)?;
    if !body.bytes().any(|b| matches!(b, b'\\' | b'\n' | b'"')) {
        // No escape and nothing invalid: the common case, in one pass.
        return Ok(body.as_bytes().to_vec());
    }

    // Shape first: every backslash must start a known escape.
    let mut i = 0;
    while let Some(at) = body.get(i..).and_then(|rest| rest.find('\\')) {
        let slash = i + at;
        let after = body.get(slash + 1..).unwrap_or("");
        let n = escape_len(after);
        if n == 0 {
            let next = after.chars().next().map_or(0, char::len_utf8);
            let sequence = body.get(slash..slash + 1 + next).unwrap_or("\\").to_owned();
            return Err(StringError {
                error: LexError::UnknownEscape { sequence },
                // +1: the opening quote precedes the body.
                span: Span::new(1 + slash, 2 + slash + next),
            });
        }
        i = slash + 1 + n;
    }

    // Then values, as Go decodes them: the text up to the next backslash,
    // line break or quote is its own value.
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    loop {
        let plain = rest
            .bytes()
            .position(|b| matches!(b, b'\\' | b'\n' | b'"'))
            .unwrap_or(rest.len());
        let (text, special) = rest.split_at_checked(plain).unwrap_or((rest, ""));
        out.extend_from_slice(text.as_bytes());
        let mut chars = special.chars();
        match chars.next() {
            None => return Ok(out),
            Some('\\') => {}
            Some(_) => return Err(invalid()),
        }
        let Some(kind) = chars.next() else {
            return Err(invalid());
        };
        let simple = match kind {
            'a' => Some(0x07),
            'b' => Some(0x08),
            'f' => Some(0x0C),
            'n' => Some(b'\n'),
            'r' => Some(b'\r'),
            't' => Some(b'\t'),
            'v' => Some(0x0B),
            '\\' => Some(b'\\'),
            '"' => Some(b'"'),
            _ => None,
        };
        if let Some(byte) = simple {
            out.push(byte);
            rest = chars.as_str();
            continue;
        }
        let (digits, radix) = match kind {
            'x' => (2, 16),
            'u' => (4, 16),
            'U' => (8, 16),
            '0'..='7' => (2, 8), // the first digit is `kind` itself
            _ => return Err(invalid()),
        };
        let mut value = if radix == 8 {
            kind.to_digit(8).unwrap_or(0)
        } else {
            0
        };
        for _ in 0..digits {
            let d = chars
                .next()
                .and_then(|c| c.to_digit(radix))
                .ok_or_else(invalid)?;
            value = value * radix + d;
        }
        match kind {
            'x' | '0'..='7' => {
                // One byte; an octal escape above \377 is invalid.
                out.push(u8::try_from(value).map_err(|_| invalid())?);
            }
            _ => {
                let c = char::from_u32(value).ok_or_else(invalid)?;
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
        rest = chars.as_str();
    }
}

/// The value of a `RawString` token's text: exactly the text between the
/// backticks, carriage returns included.
pub fn raw_string_value(text: &str) -> &str {
    text.strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .unwrap_or("")
}

/// How many characters after a backslash form a valid escape at the start
/// of `s`, or 0 when none does.
fn escape_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let hex = |n: usize| {
        let ok = bytes
            .get(1..=n)
            .is_some_and(|ds| ds.iter().all(u8::is_ascii_hexdigit));
        if ok { 1 + n } else { 0 }
    };
    match bytes.first() {
        Some(b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'\\' | b'"') => 1,
        Some(b'x') => hex(2),
        Some(b'u') => hex(4),
        Some(b'U') => hex(8),
        Some(b'0'..=b'7') => {
            let octal = |i: usize| bytes.get(i).is_some_and(|b| (b'0'..=b'7').contains(b));
            if octal(1) && octal(2) { 3 } else { 0 }
        }
        _ => 0,
    }
}

impl Lexer<'_> {
    /// A double-quoted string; the cursor is on the opening quote.
    #[inline(never)]
    pub(super) fn string(&mut self, start: usize) -> TokenKind {
        self.bump_ascii(1);
        let mut escapes = false;
        loop {
            // Only these ASCII bytes matter here, so jump to the next one.
            self.eat_while(|b| !matches!(b, b'"' | b'\\' | b'\n'));
            if self.at_end() {
                return self.fail(start, &LexError::UnterminatedString { at_eof: true });
            }
            match self.peek(0) {
                b'"' => {
                    self.bump_ascii(1);
                    let text = self.text_from(start);
                    if !escapes {
                        // Nothing to decode: no escapes, no line break, no inner quote.
                        return TokenKind::String;
                    }
                    return match unquote(text) {
                        Ok(_) => TokenKind::String,
                        Err(StringError { error, span }) => {
                            let span = Span::new(start + span.start, start + span.end);
                            self.fail_at(&error, span)
                        }
                    };
                }
                b'\\' => {
                    escapes = true;
                    self.bump_ascii(1);
                    // The backslash protects the next character, but never a
                    // line break: that still ends the (unterminated) string.
                    if self.peek(0) != b'\n' {
                        self.bump();
                    }
                }
                _ => {
                    return self.fail(start, &LexError::UnterminatedString { at_eof: false });
                }
            }
        }
    }

    /// A raw string; the cursor is on the opening backtick.
    #[inline(never)]
    pub(super) fn raw_string(&mut self, start: usize) -> TokenKind {
        let body_start = start + 1;
        match self.src.get(body_start..).and_then(|rest| rest.find('`')) {
            Some(len) => {
                self.pos = body_start + len + 1;
                TokenKind::RawString
            }
            None => {
                self.pos = self.src.len();
                self.fail(start, &LexError::UnterminatedRawString)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Vec<u8> {
        unquote(text).unwrap()
    }

    #[test]
    fn escapes() {
        let cases: &[(&str, &[u8])] = &[
            (r#""""#, b""),
            (r#""abc""#, b"abc"),
            (r#""\a\b\f\n\r\t\v\\\"""#, b"\x07\x08\x0c\n\r\t\x0b\\\""),
            (r#""\x41\xff""#, b"A\xff"),
            (r#""\101\377\000""#, b"A\xff\x00"),
            (r#""\u00e9""#, "é".as_bytes()),
            (r#""\U0001F600""#, "😀".as_bytes()),
            (r#""\u0041""#, b"A"),
            ("\"é\r\"", "é\r".as_bytes()),
            ("\"tab\there\"", b"tab\there"),
        ];
        for &(text, want) in cases {
            assert_eq!(value(text), want, "{text}");
        }
    }

    #[test]
    fn errors() {
        let unknown = |seq: &str, start, end| StringError {
            error: LexError::UnknownEscape {
                sequence: seq.into(),
            },
            span: Span::new(start, end),
        };
        let invalid = StringError {
            error: LexError::InvalidString,
            span: Span::empty(0),
        };
        let cases: Vec<(&str, StringError)> = vec![
            (r#""\q""#, unknown("\\q", 1, 3)),
            (r#""ab\'""#, unknown("\\'", 3, 5)),
            (r#""\x4""#, unknown("\\x", 1, 3)),
            (r#""\u12""#, unknown("\\u", 1, 3)),
            (r#""\U0001F60""#, unknown("\\U", 1, 3)),
            (r#""\8""#, unknown("\\8", 1, 3)),
            (r#""\12""#, unknown("\\1", 1, 3)),
            ("\"\\é\"", unknown("\\é", 1, 4)),
            (r#""ok\n\q\z""#, unknown("\\q", 5, 7)),
            (r#""\uD800""#, invalid.clone()),
            (r#""\U00110000""#, invalid.clone()),
            (r#""\400""#, invalid.clone()),
            ("\"a\nb\"", invalid.clone()),
            ("\"a\"b\"", invalid.clone()),
            ("\"", invalid.clone()),
            ("abc", invalid),
        ];
        for (text, want) in cases {
            assert_eq!(unquote(text), Err(want), "{text:?}");
        }
    }

    #[test]
    fn raw_values() {
        assert_eq!(raw_string_value("`a\r\nb`"), "a\r\nb");
        assert_eq!(raw_string_value("``"), "");
        assert_eq!(raw_string_value("x"), "");
    }
}
