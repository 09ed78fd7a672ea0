//! Numbers: integers, floats, and the notations Sigil lacks (language-core
//! §2.5, §2.6). All numeric literals start with digits; what follows the
//! digits decides: `.` a float, a letter or `_` a foreign notation or else a
//! duration (`duration.rs`), anything else an integer.

use super::error::{ExponentFix, LexError, Radix};
use super::{Lexer, TokenKind, is_word_byte};

/// The value of an `Int` token's text: decimal, at most `i64::MAX`.
pub fn parse_int(text: &str) -> Result<i64, LexError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        // Not reachable from the lexer, which only calls this on digits.
        return Err(LexError::InvalidInt {
            text: text.to_owned(),
        });
    }
    if text.len() <= SURELY_I64 {
        // The common case, without the overflow checks of `parse`.
        let value = text
            .bytes()
            .fold(0, |n: i64, b| n * 10 + i64::from(b - b'0'));
        return Ok(value);
    }
    text.parse::<i64>().map_err(|_| LexError::IntOutOfRange {
        text: text.to_owned(),
    })
}

/// How many decimal digits always fit an `i64` (its maximum has 19).
const SURELY_I64: usize = 18;

/// How many digits before the point, leading zeros aside, a float may have
/// and surely be finite: `f64::MAX` is about 1.8e308.
const SURELY_FINITE: usize = 308;

/// The value of a `Float` token's text (`digits.digits`); an error when it
/// isn't finite.
pub fn parse_float(text: &str) -> Result<f64, LexError> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(LexError::FloatOutOfRange {
            text: text.to_owned(),
        }),
    }
}

impl Lexer<'_> {
    /// An integer, float or duration literal, or a foreign notation; the
    /// cursor is on the first digit.
    #[inline(never)]
    pub(super) fn number(&mut self, start: usize) -> TokenKind {
        self.eat_digits();
        let c = self.peek(0);
        if c == b'.' {
            return self.float(start);
        }
        if super::is_letter(c) {
            if let Some(token) = self.notation(start) {
                return token;
            }
            return self.duration(start);
        }
        match parse_int(self.text_from(start)) {
            Ok(_) => TokenKind::Int,
            Err(error) => self.fail(start, &error),
        }
    }

    /// The rest of a float; the cursor is on the point.
    fn float(&mut self, start: usize) -> TokenKind {
        self.bump_ascii(1);
        if !self.peek(0).is_ascii_digit() {
            let text = self.text_from(start).to_owned();
            return self.fail(start, &LexError::FloatNeedsDigits { text });
        }
        self.eat_digits();
        if let Some(token) = self.notation(start) {
            return token;
        }
        if super::is_letter(self.peek(0)) {
            self.eat_word();
            return self.fail(start, &LexError::FractionalDuration);
        }
        // Only the range can be wrong now: checking it by the number of
        // digits spares reading the value, which the parser does if asked.
        let text = self.text_from(start);
        let whole = text.split('.').next().unwrap_or("");
        if whole.trim_start_matches('0').len() <= SURELY_FINITE {
            return TokenKind::Float;
        }
        match parse_float(text) {
            Ok(_) => TokenKind::Float,
            Err(error) => self.fail(start, &error),
        }
    }

    /// A number in a notation Sigil doesn't have (§2.6); the cursor is right
    /// after the digits (and after the fraction of a float). Consumes
    /// nothing and returns `None` when there is no such notation.
    fn notation(&mut self, start: usize) -> Option<TokenKind> {
        let (c, next) = (self.peek(0), self.peek(1));
        let radix = match c {
            b'x' | b'X' => Some(Radix::Hex),
            b'o' | b'O' => Some(Radix::Octal),
            b'b' | b'B' => Some(Radix::Binary),
            _ => None,
        };
        if let Some(radix) = radix.filter(|_| self.text_from(start) == "0") {
            self.eat_number_tail();
            let text = self.text_from(start).to_owned();
            let value = parse_prefixed(&text);
            return Some(self.fail(start, &LexError::RadixNotation { text, radix, value }));
        }
        if c == b'_' && next.is_ascii_digit() {
            self.eat_number_tail();
            let text = self.text_from(start).to_owned();
            return Some(self.fail(start, &LexError::DigitSeparator { text }));
        }
        let signed_digit = matches!(next, b'+' | b'-') && self.peek(2).is_ascii_digit();
        if matches!(c, b'e' | b'E') && (next.is_ascii_digit() || signed_digit) {
            self.bump_ascii(if signed_digit { 2 } else { 1 });
            self.eat_number_tail();
            let text = self.text_from(start).to_owned();
            let fix = exponent_fix(&text);
            return Some(self.fail(start, &LexError::ExponentNotation { text, fix }));
        }
        None
    }

    /// The rest of a malformed number: letters, digits, `_`, and a point
    /// followed by a digit, so one error covers all of it.
    fn eat_number_tail(&mut self) {
        loop {
            let c = self.peek(0);
            if is_word_byte(c) {
                self.bump_ascii(1);
            } else if c == b'.' && self.peek(1).is_ascii_digit() {
                self.bump_ascii(2);
            } else {
                return;
            }
        }
    }
}

/// The value Go's `strconv.ParseInt(text, 0, 64)` gives a `0x`/`0o`/`0b`
/// literal: the digits after the prefix in that base, `_` allowed between
/// digits (and after the prefix), at most `i64::MAX`.
fn parse_prefixed(text: &str) -> Option<i64> {
    let mut chars = text.chars();
    let (zero, prefix) = (chars.next()?, chars.next()?);
    let base = match (zero, prefix.to_ascii_lowercase()) {
        ('0', 'x') => 16,
        ('0', 'o') => 8,
        ('0', 'b') => 2,
        _ => return None,
    };
    let digits = chars.as_str();
    if !underscores_ok(digits, base == 16) {
        return None;
    }
    let mut value: i64 = 0;
    let mut any = false;
    for c in digits.chars().filter(|&c| c != '_') {
        let d = c.to_digit(base)?;
        value = value
            .checked_mul(i64::from(base))?
            .checked_add(i64::from(d))?;
        any = true;
    }
    any.then_some(value)
}

/// Go's rule for `_` in a base-prefixed literal, applied to the digits after
/// the prefix (which counts as a digit): every `_` sits between two digits.
fn underscores_ok(digits: &str, hex: bool) -> bool {
    #[derive(PartialEq)]
    enum Saw {
        Digit,
        Underscore,
        Other,
    }
    let mut saw = Saw::Digit; // the prefix
    for b in digits.bytes() {
        if b.is_ascii_digit() || (hex && b.is_ascii_hexdigit()) {
            saw = Saw::Digit;
        } else if b == b'_' {
            if saw != Saw::Digit {
                return false;
            }
            saw = Saw::Underscore;
        } else if saw == Saw::Underscore {
            return false;
        } else {
            saw = Saw::Other;
        }
    }
    saw != Saw::Underscore
}

/// What to suggest for a literal written with an exponent.
fn exponent_fix(text: &str) -> ExponentFix {
    let Ok(v) = text.parse::<f64>() else {
        return ExponentFix::Generic;
    };
    if !v.is_finite() {
        return ExponentFix::Generic;
    }
    // 2^53: beyond it not every integer is a float, so don't claim one.
    const EXACT: f64 = 9_007_199_254_740_992.0;
    if !text.contains('.') && v.trunc() == v && v.abs() < EXACT {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "v is a whole number below 2^53 in magnitude, so it converts exactly"
        )]
        return ExponentFix::Integer(v as i64);
    }
    // Rust prints a float in its shortest round-trip digits without an
    // exponent, as Go's FormatFloat(v, 'f', -1, 64) does.
    let mut full = v.to_string();
    if !full.contains('.') {
        full.push_str(".0");
    }
    if full.len() > 24 {
        return ExponentFix::Generic;
    }
    ExponentFix::Float(full)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixed_values() {
        let cases: &[(&str, Option<i64>)] = &[
            ("0x1F", Some(31)),
            ("0X1f", Some(31)),
            ("0o17", Some(15)),
            ("0O17", Some(15)),
            ("0b101", Some(5)),
            ("0B101", Some(5)),
            ("0x", None),
            ("0x_1F", Some(31)),
            ("0x1_F", Some(31)),
            ("0x1__F", None),
            ("0x1F_", None),
            ("0xG", None),
            ("0b102", None),
            ("0o8", None),
            ("0x7fffffffffffffff", Some(i64::MAX)),
            ("0x8000000000000000", None),
            ("0x1.8", None),
        ];
        for &(text, want) in cases {
            assert_eq!(parse_prefixed(text), want, "{text}");
        }
    }

    #[test]
    fn exponent_fixes() {
        let cases: &[(&str, ExponentFix)] = &[
            ("1e3", ExponentFix::Integer(1000)),
            ("1E+3", ExponentFix::Integer(1000)),
            ("1e-3", ExponentFix::Float("0.001".into())),
            ("1.5e3", ExponentFix::Float("1500.0".into())),
            ("2.0e0", ExponentFix::Float("2.0".into())),
            ("1e-400", ExponentFix::Integer(0)),
            ("1e15", ExponentFix::Integer(1_000_000_000_000_000)),
            // At or above 2^53 an integer is written as a float, if it fits 24 characters.
            ("1e16", ExponentFix::Float("10000000000000000.0".into())),
            (
                "1e21",
                ExponentFix::Float("1000000000000000000000.0".into()),
            ),
            ("1e22", ExponentFix::Generic),
            ("1e30", ExponentFix::Generic),
            ("1e400", ExponentFix::Generic),
            ("1e3x", ExponentFix::Generic),
            ("1.25e-7", ExponentFix::Float("0.000000125".into())),
        ];
        for (text, want) in cases {
            assert_eq!(&exponent_fix(text), want, "{text}");
        }
    }

    #[test]
    fn values() {
        assert_eq!(parse_int("007"), Ok(7));
        assert_eq!(parse_int("999999999999999999"), Ok(999_999_999_999_999_999));
        assert_eq!(parse_int("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse_int(&format!("{}42", "0".repeat(30))), Ok(42));
        assert!(parse_int("9223372036854775808").is_err());
        assert_eq!(
            parse_int("+1"),
            Err(LexError::InvalidInt { text: "+1".into() })
        );
        assert_eq!(parse_float("1.5"), Ok(1.5));
        assert!(parse_float(&format!("1{}.0", "0".repeat(400))).is_err());
    }
}
