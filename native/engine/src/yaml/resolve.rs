//! What a scalar means: YAML 1.2's core schema as the reference's Go YAML
//! library (yaml.v3) applies it, so a test file reads the same here as there.
//!
//! * Quoted and block scalars are strings, whatever they look like.
//! * A plain scalar is null for `~`, `null`, `Null`, `NULL` and the empty
//!   text; a boolean for `true`, `True`, `TRUE`, `false`, `False`, `FALSE`
//!   only (YAML 1.1's `yes`, `no`, `on`, `off`, `y`, `n` are strings); a
//!   number when it starts with a digit, a sign or a dot and reads as one;
//!   else a string. Timestamps such as `2026-01-01` stay strings, as the
//!   reference leaves them when it reads without a type.
//! * Integers follow Go's `strconv.ParseInt(s, 0, 64)` after removing every
//!   `_`: `0x1F`, `0o17`, `0b101`, and also YAML 1.1's `0777` (octal);
//!   values up to 2^64-1 without a sign. Anything else shaped like
//!   `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` is a float, as
//!   are `.inf`, `-.inf`, `+.inf` and `.nan` in three spellings each. A
//!   float too large for a float64 (`1e400`) is a string, as Go's parser
//!   refuses it.
//! * The tags `!!str`, `!!null`, `!!bool`, `!!int`, `!!float` and
//!   `!!timestamp` are checked against what the scalar resolves to
//!   (`!!float 1` is the float 1.0); any other tag leaves the text a string.
//!
//! Numbers are handed on in one form the decoder reads: an integer in
//! decimal (`0x10` becomes `16`), a float as Rust's shortest round-trip
//! text of the float64 it denotes (`1e3` becomes `1000.0`; `inf`, `-inf`,
//! `NaN`).

use yaml_rust::scanner::{TScalarStyle, TokenType};

use super::{Resolved, YamlProblem};

/// The prefix of the long form of YAML's own tags (`!<tag:yaml.org,2002:str>`).
const YAML_TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// What the scalar `text`, written in `style` with `tag`, resolves to.
pub(super) fn resolve(
    text: &str,
    style: TScalarStyle,
    tag: Option<&TokenType>,
) -> Result<Resolved, YamlProblem> {
    let Some(tag) = tag.and_then(short_tag) else {
        if style != TScalarStyle::Plain {
            return Ok(Resolved::String);
        }
        return Ok(plain(text).resolved);
    };
    let wanted = match tag.as_str() {
        "!!null" => Type::Null,
        "!!bool" => Type::Bool,
        "!!int" => Type::Int,
        "!!float" => Type::Float,
        // `!!str` asks for text, a timestamp is text to the decoder, and
        // the reference reads other tags' scalars as their text too.
        _ => return Ok(Resolved::String),
    };
    let got = plain(text);
    match (wanted, got.ty, got.resolved) {
        (want, have, resolved) if want == have => Ok(resolved),
        // An integer tagged as a float is that float (decimal digits round
        // to the nearest float64, as Go's conversion of the integer does).
        (Type::Float, Type::Int, Resolved::Number(digits)) => match digits.parse::<f64>() {
            Ok(value) => Ok(Resolved::Number(float_text(value))),
            Err(_) => Err(YamlProblem::TagMismatch {
                text: text.to_owned(),
                tag,
            }),
        },
        _ => Err(YamlProblem::TagMismatch {
            text: text.to_owned(),
            tag,
        }),
    }
}

/// The `!!name` form of a tag when it is one of YAML's own, else the tag as
/// written (`!local`); `None` for no tag.
fn short_tag(tag: &TokenType) -> Option<String> {
    let TokenType::Tag(handle, suffix) = tag else {
        return None;
    };
    if handle.is_empty() {
        if let Some(name) = suffix.strip_prefix(YAML_TAG_PREFIX) {
            return Some(format!("!!{name}"));
        }
    }
    Some(format!("{handle}{suffix}"))
}

/// The types a plain scalar resolves to, to compare with a tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Null,
    Bool,
    Int,
    Float,
    Str,
}

/// A plain scalar resolved: its type and its meaning.
struct Plain {
    ty: Type,
    resolved: Resolved,
}

impl Plain {
    fn of(ty: Type, resolved: Resolved) -> Self {
        Plain { ty, resolved }
    }
}

/// Resolves an untagged plain scalar.
fn plain(text: &str) -> Plain {
    let string = || Plain::of(Type::Str, Resolved::String);
    // The first byte says which readings to try, as in yaml.v3: a scalar
    // that starts otherwise is a string without further ado.
    let Some(&first) = text.as_bytes().first() else {
        return Plain::of(Type::Null, Resolved::Null);
    };
    let hint = match first {
        b'+' | b'-' | b'0'..=b'9' => Hint::Number,
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => Hint::Word,
        b'.' => Hint::Dot,
        _ => return string(),
    };
    match text {
        "true" | "True" | "TRUE" => return Plain::of(Type::Bool, Resolved::Bool(true)),
        "false" | "False" | "FALSE" => return Plain::of(Type::Bool, Resolved::Bool(false)),
        "~" | "null" | "Null" | "NULL" => return Plain::of(Type::Null, Resolved::Null),
        ".nan" | ".NaN" | ".NAN" => return float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return float(f64::NEG_INFINITY),
        _ => {}
    }
    match hint {
        Hint::Word => string(),
        Hint::Dot => {
            if dot_float(text) {
                finite_float(text).unwrap_or_else(string)
            } else {
                string()
            }
        }
        Hint::Number => {
            let digits: String = text.chars().filter(|&c| c != '_').collect();
            if let Some(value) = go_int(&digits) {
                return Plain::of(Type::Int, Resolved::Number(value.to_string()));
            }
            if yaml_float(&digits) {
                return finite_float(&digits).unwrap_or_else(string);
            }
            string()
        }
    }
}

#[derive(Clone, Copy)]
enum Hint {
    Number,
    Word,
    Dot,
}

fn float(value: f64) -> Plain {
    Plain::of(Type::Float, Resolved::Number(float_text(value)))
}

/// The float `text` denotes, unless it is too large for a float64.
fn finite_float(text: &str) -> Option<Plain> {
    let value: f64 = text.parse().ok()?;
    value.is_finite().then(|| float(value))
}

/// The text the decoder reads a float from: Rust's shortest round-trip
/// form, which always has a `.` or an exponent (`1000.0`, `1e300`), so it
/// never reads as an integer.
fn float_text(value: f64) -> String {
    format!("{value:?}")
}

/// Whether `text` is `\.[0-9]+([eE][-+]?[0-9]+)?`: what Go's float parser
/// accepts from a scalar starting with a dot.
fn dot_float(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('.') else {
        return false;
    };
    let (fraction, exponent) = split_exponent(rest);
    all_digits(fraction) && exponent.is_none_or(exponent_ok)
}

/// Whether `text` is `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn yaml_float(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = split_exponent(unsigned);
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => all_digits(fraction),
        Some((whole, fraction)) => {
            all_digits(whole) && fraction.bytes().all(|b| b.is_ascii_digit())
        }
        None => all_digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(exponent_ok)
}

/// `text` split before its first `e` or `E`: the mantissa and the digits
/// after the letter.
fn split_exponent(text: &str) -> (&str, Option<&str>) {
    match text.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, Some(exponent)),
        None => (text, None),
    }
}

fn exponent_ok(exponent: &str) -> bool {
    all_digits(exponent.strip_prefix(['-', '+']).unwrap_or(exponent))
}

/// Non-empty and only ASCII digits.
fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// The integer `text` denotes by Go's `ParseInt(text, 0, 64)`, or failing
/// that `ParseUint(text, 0, 64)`: an optional sign, then `0x`, `0o` or
/// `0b` and digits of that base, or a `0` and octal digits, or decimal
/// digits. A signed value must fit an int64; an unsigned one may reach
/// 2^64-1.
fn go_int(text: &str) -> Option<i128> {
    let (negative, signed, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, true, text.get(1..)?),
        Some(b'+') => (false, true, text.get(1..)?),
        _ => (false, false, text),
    };
    if unsigned.is_empty() {
        return None;
    }
    let (radix, digits) = radix_and_digits(unsigned);
    let mut magnitude: u128 = 0;
    for c in digits.chars() {
        let digit = c.to_digit(radix)?;
        magnitude = magnitude
            .checked_mul(u128::from(radix))?
            .checked_add(u128::from(digit))?;
        if magnitude > u128::from(u64::MAX) {
            return None;
        }
    }
    let magnitude = i128::try_from(magnitude).ok()?;
    let limit = match (negative, signed) {
        (true, _) => 1_i128 << 63,
        (false, true) => (1_i128 << 63) - 1,
        (false, false) => i128::from(u64::MAX),
    };
    (magnitude <= limit).then_some(if negative { -magnitude } else { magnitude })
}

/// The base Go's `ParseInt(_, 0, _)` reads `text` in and the digits it
/// reads: `0b…`, `0o…`, `0x…` (either case, with at least one digit after
/// the prefix), `0…` octal, else decimal.
fn radix_and_digits(text: &str) -> (u32, &str) {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'0') {
        return (10, text);
    }
    let prefixed = |radix| (radix, text.get(2..).unwrap_or_default());
    match bytes.get(1).map(u8::to_ascii_lowercase) {
        Some(b'b') if bytes.len() >= 3 => prefixed(2),
        Some(b'o') if bytes.len() >= 3 => prefixed(8),
        Some(b'x') if bytes.len() >= 3 => prefixed(16),
        _ => (8, text.get(1..).unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain_number(text: &str) -> Option<String> {
        match plain(text).resolved {
            Resolved::Number(n) => Some(n),
            _ => None,
        }
    }

    #[test]
    fn integers_read_as_go_parses_them() {
        let cases = [
            ("0", Some("0")),
            ("-0", Some("0")),
            ("+12", Some("12")),
            ("1_000", Some("1000")),
            ("0x1F", Some("31")),
            ("0X1f", Some("31")),
            ("-0x10", Some("-16")),
            ("0o17", Some("15")),
            ("0O17", Some("15")),
            ("0b101", Some("5")),
            ("0777", Some("511")),
            ("9223372036854775807", Some("9223372036854775807")),
            ("-9223372036854775808", Some("-9223372036854775808")),
            // ParseUint reaches 2^64-1 without a sign; with one it can't.
            ("18446744073709551615", Some("18446744073709551615")),
            ("+18446744073709551615", Some("1.8446744073709552e19")),
            ("18446744073709551616", Some("1.8446744073709552e19")),
            ("-9223372036854775809", Some("-9.223372036854776e18")),
            // 8 isn't octal, so `08` is the float 8.
            ("08", Some("8.0")),
            ("0x", None),
            ("0b", None),
            ("0xG", None),
            ("1_", Some("1")),
            ("-", None),
            ("+", None),
        ];
        for (text, want) in cases {
            assert_eq!(plain_number(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn floats_read_as_go_parses_them() {
        let cases = [
            ("1.0", Some("1.0")),
            ("1.", Some("1.0")),
            ("1e3", Some("1000.0")),
            ("1E+3", Some("1000.0")),
            ("-1.5e-3", Some("-0.0015")),
            ("+.5", Some("0.5")),
            (".5", Some("0.5")),
            (".5e1", Some("5.0")),
            ("1_0.5", Some("10.5")),
            ("1e300", Some("1e300")),
            ("-0.0", Some("-0.0")),
            ("1e-400", Some("0.0")),
            (".inf", Some("inf")),
            ("+.Inf", Some("inf")),
            ("-.INF", Some("-inf")),
            (".NaN", Some("NaN")),
            // Too large: Go refuses it, so it stays text.
            ("1e400", None),
            (".5e400", None),
            // Not numbers.
            (".", None),
            (".e1", None),
            ("._5", None),
            (".inF", None),
            ("1.2.3", None),
            ("1e", None),
            ("e1", None),
            ("inf", None),
            ("NaN", None),
            ("0x1p3", None),
            ("1,000", None),
            ("2026-01-01", None),
            ("12:30", None),
        ];
        for (text, want) in cases {
            assert_eq!(plain_number(text).as_deref(), want, "{text}");
        }
    }

    #[test]
    fn words() {
        let cases = [
            ("true", Resolved::Bool(true)),
            ("True", Resolved::Bool(true)),
            ("TRUE", Resolved::Bool(true)),
            ("false", Resolved::Bool(false)),
            ("False", Resolved::Bool(false)),
            ("FALSE", Resolved::Bool(false)),
            ("tRUE", Resolved::String),
            ("yes", Resolved::String),
            ("Yes", Resolved::String),
            ("no", Resolved::String),
            ("on", Resolved::String),
            ("off", Resolved::String),
            ("y", Resolved::String),
            ("n", Resolved::String),
            ("~", Resolved::Null),
            ("", Resolved::Null),
            ("null", Resolved::Null),
            ("Null", Resolved::Null),
            ("NULL", Resolved::Null),
            ("nULL", Resolved::String),
            ("<<", Resolved::String),
            ("é", Resolved::String),
        ];
        for (text, want) in cases {
            assert_eq!(plain(text).resolved, want, "{text}");
        }
    }

    #[test]
    fn quoted_and_block_scalars_are_strings() {
        for style in [
            TScalarStyle::SingleQuoted,
            TScalarStyle::DoubleQuoted,
            TScalarStyle::Literal,
            TScalarStyle::Foled,
        ] {
            for text in ["1", "true", "~", ""] {
                assert_eq!(resolve(text, style, None), Ok(Resolved::String));
            }
        }
    }

    #[test]
    fn tags() {
        let tag = |name: &str| TokenType::Tag("!!".to_owned(), name.to_owned());
        let long = |name: &str| TokenType::Tag(String::new(), format!("{YAML_TAG_PREFIX}{name}"));
        let plain = TScalarStyle::Plain;
        let quoted = TScalarStyle::DoubleQuoted;
        assert_eq!(resolve("1", plain, Some(&tag("str"))), Ok(Resolved::String));
        assert_eq!(
            resolve("5", quoted, Some(&tag("int"))),
            Ok(Resolved::Number("5".into()))
        );
        assert_eq!(
            resolve("5", quoted, Some(&long("int"))),
            Ok(Resolved::Number("5".into()))
        );
        assert_eq!(
            resolve("1", plain, Some(&tag("float"))),
            Ok(Resolved::Number("1.0".into()))
        );
        assert_eq!(
            resolve("1.5", plain, Some(&tag("float"))),
            Ok(Resolved::Number("1.5".into()))
        );
        assert_eq!(resolve("~", plain, Some(&tag("null"))), Ok(Resolved::Null));
        assert_eq!(
            resolve("true", plain, Some(&tag("bool"))),
            Ok(Resolved::Bool(true))
        );
        assert_eq!(
            resolve("2026-01-01", plain, Some(&tag("timestamp"))),
            Ok(Resolved::String)
        );
        assert_eq!(
            resolve("yes", plain, Some(&tag("bool"))),
            Err(YamlProblem::TagMismatch {
                text: "yes".into(),
                tag: "!!bool".into()
            })
        );
        assert_eq!(
            resolve("1.5", plain, Some(&tag("int"))),
            Err(YamlProblem::TagMismatch {
                text: "1.5".into(),
                tag: "!!int".into()
            })
        );
        // Tags that aren't YAML's own leave the text a string.
        let local = TokenType::Tag("!".to_owned(), "thing".to_owned());
        assert_eq!(resolve("12", plain, Some(&local)), Ok(Resolved::String));
        assert_eq!(
            resolve("12", plain, Some(&tag("binary"))),
            Ok(Resolved::String)
        );
    }
}
