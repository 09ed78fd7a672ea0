//! Durations (language-core §2.5.1): `( digits unit )+` with the units `d`
//! (24 h), `h`, `m`, `s` and `ms`, largest first, each at most once, the
//! total at most `i64::MAX` nanoseconds.
//!
//! The lexer scans the shape and reports unknown or missing units; [`parse`]
//! then checks order, repetition and range and computes the value, so the
//! lexer, the parser and anything decoding a duration written as text agree
//! on what a duration means.

use super::error::LexError;
use super::{Lexer, TokenKind, is_letter};

/// The units largest first: a unit's index is its rank.
const UNITS: [&str; 5] = ["d", "h", "m", "s", "ms"];

/// Nanoseconds per unit, by rank.
const NANOS: [u64; 5] = [
    86_400_000_000_000,
    3_600_000_000_000,
    60_000_000_000,
    1_000_000_000,
    1_000_000,
];

/// The largest duration in nanoseconds, `i64::MAX`.
const LIMIT: u64 = i64::MAX.unsigned_abs();

/// The value in nanoseconds of a duration literal such as `1h30m`.
///
/// Errors, checked component by component from the left, first one wins:
/// text that isn't `(digits unit)+` ([`LexError::InvalidDuration`]), a unit
/// used again ([`LexError::RepeatedDurationUnit`]), a unit larger than the
/// one before it ([`LexError::DurationUnitsOutOfOrder`]), a day count above
/// `i64::MAX / 24` (checked as soon as it is read), then the total above
/// `i64::MAX` nanoseconds ([`LexError::DurationOutOfRange`]). The empty text
/// is zero.
pub fn parse(text: &str) -> Result<i64, LexError> {
    let out_of_range = || LexError::DurationOutOfRange {
        literal: text.to_owned(),
    };
    let mut rest = text;
    let mut last_rank: Option<usize> = None;
    // INVARIANT: `total <= i64::MAX` while `in_range`.
    let mut total: u64 = 0;
    let mut in_range = true;
    while !rest.is_empty() {
        let digit_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (digits, unit_text) = rest.split_at_checked(digit_len).unwrap_or((rest, ""));
        let rank = if unit_text.starts_with("ms") {
            Some(4)
        } else {
            UNITS.iter().position(|u| unit_text.starts_with(u))
        };
        let Some(rank) = rank.filter(|_| digit_len > 0) else {
            return Err(LexError::InvalidDuration {
                literal: text.to_owned(),
            });
        };
        let unit = UNITS.get(rank).copied().unwrap_or("");
        rest = unit_text.get(unit.len()..).unwrap_or("");

        match last_rank {
            Some(last) if rank == last => {
                return Err(LexError::RepeatedDurationUnit {
                    unit,
                    literal: text.to_owned(),
                });
            }
            Some(last) if rank < last => {
                return Err(LexError::DurationUnitsOutOfOrder {
                    literal: text.to_owned(),
                });
            }
            _ => {}
        }
        last_rank = Some(rank);

        // Without overflow checks, which cost a call each in WebAssembly: up
        // to 19 significant digits fit a u64 (its maximum has 20), and a
        // count with more is above every limit below, like `u64::MAX`.
        let significant = digits.trim_start_matches('0');
        let count = if significant.len() > 19 {
            u64::MAX
        } else {
            significant
                .bytes()
                .fold(0, |n: u64, b| n * 10 + u64::from(b - b'0'))
        };
        if rank == 0 && count > LIMIT / 24 {
            return Err(out_of_range());
        }
        let nanos = NANOS.get(rank).copied().unwrap_or(1);
        if in_range && count <= LIMIT / nanos {
            total += count * nanos;
            in_range = total <= LIMIT;
        } else {
            in_range = false;
        }
    }
    if !in_range {
        return Err(out_of_range());
    }
    i64::try_from(total).map_err(|_| out_of_range())
}

impl Lexer<'_> {
    /// The rest of a duration literal; the cursor is on the first letter
    /// after the first digits (foreign notations are already ruled out).
    ///
    /// A letter after a unit, or a letter that is no unit, consumes the run of
    /// letters, digits and `_` and is an unknown unit named from the start of
    /// the bad unit (`1hx` → `hx`, `1mss` → `mss`); digits followed by no
    /// letter are a component missing its unit.
    pub(super) fn duration(&mut self, start: usize) -> TokenKind {
        loop {
            let unit_start = self.pos;
            if !self.eat_unit() || is_letter(self.peek(0)) {
                self.eat_word();
                let error = LexError::UnknownDurationUnit {
                    unit: self.text_from(unit_start).to_owned(),
                    literal: self.text_from(start).to_owned(),
                };
                return self.fail(start, &error);
            }
            if !self.peek(0).is_ascii_digit() {
                break;
            }
            let component_start = self.pos;
            self.eat_digits();
            if !is_letter(self.peek(0)) {
                let error = LexError::MissingDurationUnit {
                    component: self.text_from(component_start).to_owned(),
                    literal: self.text_from(start).to_owned(),
                };
                return self.fail(start, &error);
            }
        }
        match parse(self.text_from(start)) {
            Ok(_) => TokenKind::Duration,
            Err(error) => self.fail(start, &error),
        }
    }

    /// Moves over one unit, `ms` before `m`; false when the cursor isn't on
    /// a unit.
    fn eat_unit(&mut self) -> bool {
        match self.peek(0) {
            b'm' if self.peek(1) == b's' => self.bump_ascii(2),
            b'm' | b's' | b'h' | b'd' => self.bump_ascii(1),
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NS_PER_S: i64 = 1_000_000_000;

    #[test]
    fn values() {
        let cases: &[(&str, i64)] = &[
            ("", 0),
            ("0s", 0),
            ("30m", 30 * 60 * NS_PER_S),
            ("1h30m", 90 * 60 * NS_PER_S),
            ("1d", 86_400 * NS_PER_S),
            ("1d2h30m", (86_400 + 2 * 3600 + 30 * 60) * NS_PER_S),
            ("1m1s1ms", 61 * NS_PER_S + 1_000_000),
            ("1500ms", 1_500_000_000),
            ("007s", 7 * NS_PER_S),
            ("106751d", 106_751 * 86_400 * NS_PER_S),
            ("9223372036854ms", 9_223_372_036_854_000_000),
            ("106751d23h47m16s854ms", 9_223_372_036_854_000_000),
            // Leading zeros don't count towards a long number.
            ("000000000000000000000000001s", NS_PER_S),
            (
                "0000000000000000000000000106751d",
                106_751 * 86_400 * NS_PER_S,
            ),
        ];
        for &(text, want) in cases {
            assert_eq!(parse(text), Ok(want), "{text}");
        }
    }

    #[test]
    fn errors() {
        let twice = |unit, literal: &str| LexError::RepeatedDurationUnit {
            unit,
            literal: literal.into(),
        };
        let order = |literal: &str| LexError::DurationUnitsOutOfOrder {
            literal: literal.into(),
        };
        let range = |literal: &str| LexError::DurationOutOfRange {
            literal: literal.into(),
        };
        let invalid = |literal: &str| LexError::InvalidDuration {
            literal: literal.into(),
        };
        let cases: Vec<(&str, LexError)> = vec![
            ("1h1h", twice("h", "1h1h")),
            ("1ms1ms", twice("ms", "1ms1ms")),
            ("30m1h", order("30m1h")),
            ("1ms1s", order("1ms1s")),
            ("106752d", range("106752d")),
            ("9223372036855ms", range("9223372036855ms")),
            ("106751d23h47m16s855ms", range("106751d23h47m16s855ms")),
            (
                "99999999999999999999999999999999999999999999h",
                range("99999999999999999999999999999999999999999999h"),
            ),
            ("9999999999999999999h", range("9999999999999999999h")),
            ("18446744073709551616ms", range("18446744073709551616ms")),
            (
                "00000000000000000000106752d",
                range("00000000000000000000106752d"),
            ),
            // The order error is found before the total overflows ...
            ("99999999999999999999h1d", order("99999999999999999999h1d")),
            (
                "99999999999999999999h1h",
                twice("h", "99999999999999999999h1h"),
            ),
            // ... but a huge day count is out of range as soon as it is read.
            ("384307168202282326d1d", range("384307168202282326d1d")),
            ("384307168202282325d1d", twice("d", "384307168202282325d1d")),
            ("1h30", invalid("1h30")),
            ("h", invalid("h")),
            ("1w", invalid("1w")),
            ("-1h", invalid("-1h")),
            ("1h ", invalid("1h ")),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text), Err(want), "{text}");
        }
    }
}
