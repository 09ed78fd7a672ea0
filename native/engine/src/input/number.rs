//! Numbers as the reference reads them. A JSON number (and a map key of a
//! number type) is a Go `json.Number`, read with `strconv.ParseInt(s, 10,
//! 64)` or `strconv.ParseFloat(s, 64)`; a YAML number is what `yaml.v3`
//! resolves a plain scalar to: an `int`, a `uint64` too large for one, or
//! a `float64`.

/// A YAML number as `yaml.v3` resolves it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum YamlNumber {
    Int(i64),
    /// Above `i64::MAX`: no Sigil int, but a float.
    Uint(u64),
    Float(f64),
}

/// `strconv.ParseInt(text, 10, 64)`: an optional sign and decimal digits
/// (leading zeros allowed), in range.
pub(super) fn go_int(text: &str) -> Option<i64> {
    // Rust's integer grammar is Go's base-10 one: a sign, then digits.
    text.parse().ok()
}

/// `strconv.ParseFloat(text, 64)`, but for hexadecimal floats (`0x1p-2`),
/// which Go takes and this refuses: decimal notation with an optional
/// exponent, or `inf`/`infinity` with an optional sign, or `nan` without
/// one, case-insensitively. A finite number too large for a float is
/// Go's range error: `None`.
pub(super) fn go_float(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let special = unsigned.to_ascii_lowercase();
    if special == "nan" && unsigned.len() != text.len() {
        return None;
    }
    let value: f64 = text.parse().ok()?;
    let infinite_literal = special == "inf" || special == "infinity";
    (!value.is_infinite() || infinite_literal).then_some(value)
}

/// `strconv.ParseBool(text)`.
pub(super) fn go_bool(text: &str) -> Option<bool> {
    match text {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// The number `yaml.v3` resolves the plain scalar `text` to, or `None`
/// when it would resolve it to something else (a YAML reader that follows
/// the same rules never hands such text over as a number).
///
/// After `.inf`, `.nan` and their spellings: underscores are dropped, then
/// Go's `ParseInt` with base prefixes (`0x`, `0o`, `0b`, and a leading `0`
/// for octal), `ParseUint` the same way, and last a decimal float.
pub(super) fn yaml_number(text: &str) -> Option<YamlNumber> {
    match text {
        ".nan" | ".NaN" | ".NAN" => return Some(YamlNumber::Float(f64::NAN)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Some(YamlNumber::Float(f64::INFINITY));
        }
        "-.inf" | "-.Inf" | "-.INF" => return Some(YamlNumber::Float(f64::NEG_INFINITY)),
        _ => {}
    }
    if text.starts_with('.') {
        return go_float(text).map(YamlNumber::Float);
    }
    if !text.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-') {
        return None;
    }
    let plain = text.replace('_', "");
    let (negative, unsigned) = match plain.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, plain.strip_prefix('+').unwrap_or(&plain)),
    };
    if let Some(magnitude) = prefixed_integer(unsigned) {
        let signed = if negative {
            0i128.checked_sub(i128::from(magnitude))
        } else {
            Some(i128::from(magnitude))
        };
        if let Some(n) = signed.and_then(|n| i64::try_from(n).ok()) {
            return Some(YamlNumber::Int(n));
        }
        // Go's ParseUint takes no sign at all.
        if !negative && plain.len() == unsigned.len() {
            return Some(YamlNumber::Uint(magnitude));
        }
    }
    if yaml_style_float(&plain) {
        return go_float(&plain).map(YamlNumber::Float);
    }
    None
}

/// An unsigned integer in Go's base-0 notation: `0x`/`0X` hex, `0o`/`0O`
/// or a leading `0` octal, `0b`/`0B` binary, else decimal; `None` when a
/// digit doesn't fit the base or the value doesn't fit 64 bits.
fn prefixed_integer(text: &str) -> Option<u64> {
    let lower = text.get(..2).map(str::to_ascii_lowercase);
    let (radix, digits) = match lower.as_deref() {
        Some("0x") => (16, text.get(2..)?),
        Some("0o") => (8, text.get(2..)?),
        Some("0b") => (2, text.get(2..)?),
        _ if text.len() > 1 && text.starts_with('0') => (8, text.get(1..)?),
        _ => (10, text),
    };
    if digits.is_empty() || digits.starts_with(['+', '-']) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok()
}

/// `yaml.v3`'s `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn yaml_style_float(text: &str) -> bool {
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let rest = text.strip_prefix(['+', '-']).unwrap_or(text);
    let rest = if let Some(fraction) = rest.strip_prefix('.') {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        fraction.get(n..).unwrap_or_default()
    } else {
        let n = digits(rest);
        if n == 0 {
            return false;
        }
        let rest = rest.get(n..).unwrap_or_default();
        match rest.strip_prefix('.') {
            Some(fraction) => fraction.get(digits(fraction)..).unwrap_or_default(),
            None => rest,
        }
    };
    match rest.strip_prefix(['e', 'E']) {
        None => rest.is_empty(),
        Some(exponent) => {
            let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            digits(exponent) > 0 && digits(exponent) == exponent.len()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::YamlNumber::{Float, Int, Uint};
    use super::*;

    #[test]
    fn go_ints_are_base_10_with_a_sign() {
        let cases: &[(&str, Option<i64>)] = &[
            ("3", Some(3)),
            ("-3", Some(-3)),
            ("+3", Some(3)),
            ("007", Some(7)),
            ("-0", Some(0)),
            ("9223372036854775807", Some(i64::MAX)),
            ("-9223372036854775808", Some(i64::MIN)),
            ("9223372036854775808", None),
            ("1.0", None),
            ("1e3", None),
            ("0x10", None),
            ("1_000", None),
            (" 1", None),
            ("", None),
            ("-", None),
        ];
        for &(text, want) in cases {
            assert_eq!(go_int(text), want, "{text:?}");
        }
    }

    #[test]
    fn go_floats_are_decimal_or_special() {
        let cases: &[(&str, Option<f64>)] = &[
            ("1.5", Some(1.5)),
            ("-2", Some(-2.0)),
            ("+.5", Some(0.5)),
            ("5.", Some(5.0)),
            ("1E3", Some(1000.0)),
            ("1e-400", Some(0.0)),
            ("Inf", Some(f64::INFINITY)),
            ("-infinity", Some(f64::NEG_INFINITY)),
            ("+INF", Some(f64::INFINITY)),
            ("1e400", None),
            ("-1e400", None),
            ("+nan", None),
            ("-NaN", None),
            ("infin", None),
            (".", None),
            ("e5", None),
            ("1_0", None),
            ("0x1p-2", None),
            ("", None),
        ];
        for &(text, want) in cases {
            assert_eq!(go_float(text), want, "{text:?}");
        }
        assert!(go_float("NaN").is_some_and(f64::is_nan));
        assert!(go_float("nan").is_some_and(f64::is_nan));
    }

    #[test]
    fn go_bools_take_go_s_spellings() {
        for text in ["1", "t", "T", "TRUE", "true", "True"] {
            assert_eq!(go_bool(text), Some(true), "{text}");
        }
        for text in ["0", "f", "F", "FALSE", "false", "False"] {
            assert_eq!(go_bool(text), Some(false), "{text}");
        }
        for text in ["yes", "tRUE", "", "2"] {
            assert_eq!(go_bool(text), None, "{text}");
        }
    }

    #[test]
    fn yaml_numbers_resolve_as_yaml_v3_resolves_them() {
        let cases: &[(&str, Option<YamlNumber>)] = &[
            ("3", Some(Int(3))),
            ("-3", Some(Int(-3))),
            ("+3", Some(Int(3))),
            ("1_000", Some(Int(1000))),
            ("0x1F", Some(Int(31))),
            ("0o17", Some(Int(15))),
            ("017", Some(Int(15))),
            ("0b101", Some(Int(5))),
            ("-0b101", Some(Int(-5))),
            ("-0x10", Some(Int(-16))),
            ("9223372036854775807", Some(Int(i64::MAX))),
            ("-9223372036854775808", Some(Int(i64::MIN))),
            ("9223372036854775808", Some(Uint(1 << 63))),
            ("18446744073709551615", Some(Uint(u64::MAX))),
            (
                "18446744073709551616",
                Some(Float(18_446_744_073_709_551_616.0)),
            ),
            (
                "-9223372036854775809",
                Some(Float(-9_223_372_036_854_775_809.0)),
            ),
            ("1.0", Some(Float(1.0))),
            ("1.5", Some(Float(1.5))),
            ("1e3", Some(Float(1000.0))),
            ("08", Some(Float(8.0))),
            ("1.", Some(Float(1.0))),
            (".5", Some(Float(0.5))),
            ("-.5", Some(Float(-0.5))),
            (".inf", Some(Float(f64::INFINITY))),
            ("-.Inf", Some(Float(f64::NEG_INFINITY))),
            ("1e400", None),
            ("0x", None),
            ("abc", None),
            ("1.2.3", None),
            ("+-3", None),
        ];
        for &(text, want) in cases {
            assert_eq!(yaml_number(text), want, "{text:?}");
        }
        assert!(matches!(yaml_number(".nan"), Some(Float(f)) if f.is_nan()));
    }
}
