//! Values as JSON (language-policies §8.5, tooling §6.2 "Payload values"):
//! what eval records carry as payloads, and what host functions and stubs
//! receive as arguments. The text is byte for byte what the reference's
//! Go `encoding/json` writes for the same value (tooling §1.2), compact.
//!
//! * scalars natively, floats the way Go writes a `float64`: shortest
//!   round-trip digits, plain below 1e21 and from 1e-6, exponent form
//!   outside (`1e+21`, `1e-7`), no fraction on a whole float (`2`);
//! * durations as canonical Sigil text (`1h30m`, `+500ns`), timestamps in
//!   UTC as RFC 3339 with a fraction only when there is one, enum values
//!   and decision values by name;
//! * lists as arrays; maps and structs as objects with their keys sorted
//!   by byte value (the reference turns both into Go maps before encoding,
//!   so a struct's fields are sorted too, not in declaration order); a map
//!   key that isn't a string is written as Go's `fmt.Sprint` writes it,
//!   which for a float is `%v` (`1.5`, `1e+06`);
//! * an absent optional as `null`.
//!
//! Strings are escaped as Go escapes them ([`write_string`]), which the
//! ABI's responses share.

use super::plain_run::{ESCAPES, plain_run};
use crate::value::{Value, duration_text};

/// A float that JSON can't hold (NaN or an infinity): Go's encoder refuses
/// it (`json: unsupported value: NaN`), so a value holding one has no JSON
/// form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NonFinite(pub f64);

impl std::fmt::Display for NonFinite {
    /// Go's text: `json: unsupported value: NaN` (or `+Inf`, `-Inf`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let value = match self.0 {
            x if x.is_nan() => "NaN",
            x if x > 0.0 => "+Inf",
            _ => "-Inf",
        };
        write!(f, "json: unsupported value: {value}")
    }
}

/// Appends `value` as compact JSON to `out`. On an error `out` holds part
/// of the value and is to be thrown away.
pub fn write_value(value: &Value, out: &mut String) -> Result<(), NonFinite> {
    match value {
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(n) => push_int(*n, out),
        Value::Float(f) => write_float(*f, out)?,
        Value::String(bytes) => write_string(bytes, out),
        Value::Duration(nanos) => write_string(duration_text(*nanos).as_bytes(), out),
        Value::Timestamp(t) => write_string(t.rfc3339_utc().as_bytes(), out),
        Value::Enum(name) | Value::Decision(name) => write_string(name.as_bytes(), out),
        Value::Absent => out.push_str("null"),
        Value::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out)?;
            }
            out.push(']');
        }
        Value::Map(entries) => {
            let members = entries.iter().map(|(k, v)| (key_text(k), v)).collect();
            write_object(members, out)?;
        }
        Value::Struct(fields) => {
            let members = fields
                .iter()
                .map(|(name, v)| (name.as_bytes().to_vec(), v))
                .collect();
            write_object(members, out)?;
        }
    }
    Ok(())
}

/// Appends an int in decimal, without the formatting machinery (payload
/// ints are common, and `to_string` allocates).
fn push_int(n: i64, out: &mut String) {
    let mut digits = [0u8; 20];
    let mut first = digits.len();
    let mut rest = n.unsigned_abs();
    loop {
        first -= 1;
        if let Some(digit) = digits.get_mut(first) {
            *digit = b'0' + (rest % 10) as u8;
        }
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    let text = digits.get(first..).unwrap_or_default();
    out.push_str(std::str::from_utf8(text).unwrap_or_default());
}

/// Writes members as an object, keys sorted by byte value as Go sorts a
/// map's keys. Two keys with one text (timestamps of one instant written
/// with different offsets) are one key in Go's map: the first is kept.
fn write_object(mut members: Vec<(Vec<u8>, &Value)>, out: &mut String) -> Result<(), NonFinite> {
    members.sort_by(|a, b| a.0.cmp(&b.0));
    members.dedup_by(|later, earlier| later.0 == earlier.0);
    out.push('{');
    for (i, (key, value)) in members.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(key, out);
        out.push(':');
        write_value(value, out)?;
    }
    out.push('}');
    Ok(())
}

/// A map key as text: a string as it is, anything else the way the
/// reference prints it with `fmt.Sprint` after making durations and
/// timestamps strings.
fn key_text(key: &Value) -> Vec<u8> {
    let text = match key {
        Value::String(bytes) => return bytes.to_vec(),
        Value::Float(f) => go_general(*f),
        Value::Duration(nanos) => duration_text(*nanos),
        Value::Timestamp(t) => t.rfc3339_utc(),
        Value::Enum(name) | Value::Decision(name) => name.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Int(n) => n.to_string(),
        // Not key types (language-core §4.3): their constant text keeps
        // the key readable should one ever get here.
        Value::List(_) | Value::Map(_) | Value::Struct(_) | Value::Absent => key.const_text(),
    };
    text.into_bytes()
}

/// Appends a finite float as Go's `encoding/json` writes a `float64`.
fn write_float(f: f64, out: &mut String) -> Result<(), NonFinite> {
    if !f.is_finite() {
        return Err(NonFinite(f));
    }
    let digits = Digits::of(f);
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        // Go writes `e-07` and then shortens it to `e-7`.
        let mut text = digits.exponent_form();
        if let Some(at) = text.find("e-0") {
            text.remove(at + 2);
        }
        out.push_str(&text);
    } else {
        out.push_str(&digits.plain_form());
    }
    Ok(())
}

/// A float as Go's `%v` (`strconv`'s `'g'` with the shortest digits)
/// writes it: exponent form when the decimal exponent is below -4 or at
/// least 6 (`1e+06`, `1.5e-05`), plain otherwise; `NaN`, `+Inf`, `-Inf`.
fn go_general(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    let digits = Digits::of(f);
    if f != 0.0 && !(-4..6).contains(&digits.exponent) {
        digits.exponent_form()
    } else {
        digits.plain_form()
    }
}

/// The shortest decimal digits that read back as a float, Go's and Rust's
/// alike: the value is `±0.d₁d₂… × 10^(exponent + 1)`.
struct Digits {
    negative: bool,
    /// At least one digit, no leading zero except for zero itself.
    digits: String,
    /// The power of ten of the first digit.
    exponent: i32,
}

impl Digits {
    fn of(f: f64) -> Digits {
        // Rust's `{:e}` is the shortest round-trip form, as `d.ddde±x`.
        let text = format!("{:e}", f.abs());
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        Digits {
            negative: f.is_sign_negative(),
            digits: mantissa.replace('.', ""),
            exponent: exponent.parse().unwrap_or(0),
        }
    }

    fn sign(&self) -> &'static str {
        if self.negative { "-" } else { "" }
    }

    /// `d.ddde±xx`, the exponent of at least two digits (`1e+21`).
    fn exponent_form(&self) -> String {
        let (first, rest) = self.digits.split_at_checked(1).unwrap_or(("0", ""));
        let point = if rest.is_empty() { "" } else { "." };
        let exp_sign = if self.exponent < 0 { '-' } else { '+' };
        let magnitude = self.exponent.unsigned_abs();
        format!(
            "{}{first}{point}{rest}e{exp_sign}{magnitude:02}",
            self.sign()
        )
    }

    /// The digits with a point where it falls, without an exponent:
    /// `123000`, `0.000123`, `1.5`.
    fn plain_form(&self) -> String {
        let count = i32::try_from(self.digits.len()).unwrap_or(i32::MAX);
        let text = if self.exponent < 0 {
            let zeros = "0".repeat(self.exponent.unsigned_abs() as usize - 1);
            format!("0.{zeros}{}", self.digits)
        } else if self.exponent + 1 >= count {
            let zeros = "0".repeat((self.exponent + 1 - count) as usize);
            format!("{}{zeros}", self.digits)
        } else {
            let (whole, fraction) = self
                .digits
                .split_at_checked((self.exponent + 1) as usize)
                .unwrap_or((&self.digits, ""));
            format!("{whole}.{fraction}")
        };
        format!("{}{text}", self.sign())
    }
}

/// Appends `bytes` as a JSON string the way Go's `encoding/json` writes a
/// string: `"` and `\` escaped, control characters as `\b \f \n \r \t` or
/// `\u00XX`, the HTML-sensitive `<`, `>`, `&` as `\u003c`, `\u003e`,
/// `\u0026`, U+2028 and U+2029 as `\u2028` and `\u2029`, each byte of
/// invalid UTF-8 as `\ufffd`; everything else as it is.
pub fn write_string(bytes: &[u8], out: &mut String) {
    out.push('"');
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(text) => {
                push_escaped(text, out);
                break;
            }
            Err(error) => {
                let (valid, invalid) = rest.split_at(error.valid_up_to());
                push_escaped(std::str::from_utf8(valid).unwrap_or_default(), out);
                // One replacement per byte, as Go decodes invalid UTF-8.
                out.push_str("\\ufffd");
                rest = invalid.get(1..).unwrap_or_default();
            }
        }
    }
    out.push('"');
}

/// [`write_string`] for text known to be UTF-8.
pub(crate) fn write_str(text: &str, out: &mut String) {
    out.push('"');
    push_escaped(text, out);
    out.push('"');
}

/// Pushes valid text with the characters that need it escaped. Only a
/// byte that may start such a character stops the search (a quote, a
/// backslash, a control, an HTML-sensitive byte, or a non-ASCII byte,
/// which may start U+2028 or U+2029); the runs between are pushed as they
/// are.
fn push_escaped(text: &str, out: &mut String) {
    let bytes = text.as_bytes();
    let mut plain_from = 0;
    let mut next = 0;
    while next < bytes.len() {
        let at = next + plain_run::<ESCAPES>(bytes, next);
        // `at` is on a character boundary: the byte there is ASCII or a lead byte.
        let Some(c) = text.get(at..).and_then(|t| t.chars().next()) else {
            break;
        };
        next = at + c.len_utf8();
        let Some(escaped) = escape(c) else {
            continue;
        };
        out.push_str(text.get(plain_from..at).unwrap_or_default());
        out.push_str(escaped);
        plain_from = next;
    }
    out.push_str(text.get(plain_from..).unwrap_or_default());
}

/// The escape Go's encoder writes for `c`, if it escapes it.
fn escape(c: char) -> Option<&'static str> {
    const CONTROL: [&str; 32] = [
        "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
        "\\b", "\\t", "\\n", "\\u000b", "\\f", "\\r", "\\u000e", "\\u000f", //
        "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
        "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f",
    ];
    match c {
        '"' => Some("\\\""),
        '\\' => Some("\\\\"),
        '<' => Some("\\u003c"),
        '>' => Some("\\u003e"),
        '&' => Some("\\u0026"),
        '\u{2028}' => Some("\\u2028"),
        '\u{2029}' => Some("\\u2029"),
        _ => CONTROL.get(usize::try_from(u32::from(c)).ok()?).copied(),
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::value::{Timestamp, parse_rfc3339};

    fn json(value: &Value) -> String {
        let mut out = String::new();
        write_value(value, &mut out).unwrap();
        out
    }

    fn string(s: &str) -> Value {
        Value::String(s.as_bytes().into())
    }

    fn list(items: Vec<Value>) -> Value {
        Value::List(items.into())
    }

    fn map(entries: Vec<(Value, Value)>) -> Value {
        Value::Map(entries.into())
    }

    fn timestamp(text: &str) -> Value {
        Value::Timestamp(parse_rfc3339(text).unwrap())
    }

    #[test]
    fn floats_as_go_writes_a_float64() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (2.0, "2"),
            (-2.5, "-2.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (123_456_789.0, "123456789"),
            (1e20, "100000000000000000000"),
            (1.2345678901234568e20, "123456789012345680000"),
            (1e21, "1e+21"),
            (-1.5e21, "-1.5e+21"),
            (1e100, "1e+100"),
            (f64::MAX, "1.7976931348623157e+308"),
            (1e-6, "0.000001"),
            (1.5e-6, "0.0000015"),
            (9.99e-7, "9.99e-7"),
            (1e-7, "1e-7"),
            (1e-10, "1e-10"),
            (5e-324, "5e-324"),
            (-1.25e-300, "-1.25e-300"),
        ];
        for &(f, want) in cases {
            assert_eq!(json(&Value::Float(f)), want, "{f:e}");
        }
    }

    #[test]
    fn non_finite_floats_have_no_json() {
        for f in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut out = String::new();
            let value = list(vec![Value::Int(1), Value::Float(f)]);
            assert!(
                matches!(write_value(&value, &mut out), Err(NonFinite(x)) if x.to_bits() == f.to_bits())
            );
        }
    }

    #[test]
    fn strings_are_escaped_as_go_escapes_them() {
        let cases: &[(&[u8], &str)] = &[
            (b"plain", r#""plain""#),
            (b"<stdin> & more", r#""\u003cstdin\u003e \u0026 more""#),
            (b"q\"b\\", r#""q\"b\\""#),
            (
                b"\x08\x0c\n\r\t\x00\x1f\x7f",
                "\"\\b\\f\\n\\r\\t\\u0000\\u001f\u{7f}\"",
            ),
            ("l\u{2028}p\u{2029}".as_bytes(), r#""l\u2028p\u2029""#),
            ("→ grüß ✓ 😀".as_bytes(), "\"→ grüß ✓ 😀\""),
            (b"a\xffb", r#""a\ufffdb""#),
            (b"\xe2\x82A", r#""\ufffd\ufffdA""#),
            (b"\xed\xa0\x80", r#""\ufffd\ufffd\ufffd""#),
            (b"", r#""""#),
        ];
        for &(bytes, want) in cases {
            let mut out = String::new();
            write_string(bytes, &mut out);
            assert_eq!(out, want, "{bytes:?}");
        }
    }

    #[test]
    fn every_kind_of_value() {
        let cases: Vec<(Value, &str)> = vec![
            (Value::Bool(true), "true"),
            (Value::Int(i64::MIN), "-9223372036854775808"),
            (Value::Int(i64::MAX), "9223372036854775807"),
            (Value::Int(0), "0"),
            (Value::Int(-70), "-70"),
            (string("x"), r#""x""#),
            (Value::Duration(0), r#""0s""#),
            (Value::Duration(90 * 60_000_000_000), r#""1h30m""#),
            (Value::Duration(86_400_000_000_500), r#""1d+500ns""#),
            (Value::Duration(-1_500_000), r#""-1ms+500000ns""#),
            (
                timestamp("2026-09-28T14:00:00+02:00"),
                r#""2026-09-28T12:00:00Z""#,
            ),
            (
                timestamp("2026-09-28T14:00:00.250-01:30"),
                r#""2026-09-28T15:30:00.25Z""#,
            ),
            (
                Value::Timestamp(Timestamp::ZERO),
                r#""0001-01-01T00:00:00Z""#,
            ),
            (Value::Enum("critical".into()), r#""critical""#),
            (Value::Decision("approve.lgtm".into()), r#""approve.lgtm""#),
            (Value::Absent, "null"),
            (list(vec![]), "[]"),
            (
                list(vec![Value::Int(1), Value::Absent, string("<")]),
                r#"[1,null,"\u003c"]"#,
            ),
            (map(vec![]), "{}"),
            (
                Value::Struct(Rc::from(vec![
                    (Rc::from("zone"), Value::Enum("lab".into())),
                    (Rc::from("age"), Value::Int(3)),
                    (Rc::from("Name"), string("n")),
                ])),
                r#"{"Name":"n","age":3,"zone":"lab"}"#,
            ),
            (
                list(vec![map(vec![(
                    string("k"),
                    list(vec![Value::Float(0.5)]),
                )])]),
                r#"[{"k":[0.5]}]"#,
            ),
        ];
        for (value, want) in cases {
            assert_eq!(json(&value), want, "{value:?}");
        }
    }

    #[test]
    fn map_keys_are_written_as_text_and_sorted_by_bytes() {
        let cases: Vec<(Vec<(Value, Value)>, &str)> = vec![
            (
                vec![
                    (string("b"), Value::Int(1)),
                    (string("B"), Value::Int(2)),
                    (string("a"), Value::Int(3)),
                ],
                r#"{"B":2,"a":3,"b":1}"#,
            ),
            (
                vec![
                    (Value::Int(10), Value::Bool(true)),
                    (Value::Int(9), Value::Bool(false)),
                    (Value::Int(i64::MIN), Value::Bool(true)),
                ],
                r#"{"-9223372036854775808":true,"10":true,"9":false}"#,
            ),
            (
                vec![
                    (Value::Bool(true), Value::Int(1)),
                    (Value::Bool(false), Value::Int(0)),
                ],
                r#"{"false":0,"true":1}"#,
            ),
            (
                vec![
                    (Value::Duration(45 * 60_000_000_000), Value::Int(1)),
                    (Value::Duration(500), Value::Int(2)),
                ],
                r#"{"+500ns":2,"45m":1}"#,
            ),
            (
                vec![(timestamp("2026-01-01T01:00:00+01:00"), Value::Int(1))],
                r#"{"2026-01-01T00:00:00Z":1}"#,
            ),
            (
                vec![
                    (Value::Enum("vault".into()), Value::Int(1)),
                    (Value::Enum("lab".into()), Value::Int(2)),
                ],
                r#"{"lab":2,"vault":1}"#,
            ),
            (
                vec![
                    (Value::Float(1.5), Value::Int(1)),
                    (Value::Float(1e6), Value::Int(2)),
                    (Value::Float(123456.0), Value::Int(3)),
                    (Value::Float(1e-5), Value::Int(4)),
                    (Value::Float(0.0001), Value::Int(5)),
                    (Value::Float(-0.0), Value::Int(6)),
                    (Value::Float(f64::NAN), Value::Int(7)),
                    (Value::Float(f64::INFINITY), Value::Int(8)),
                ],
                r#"{"+Inf":8,"-0":6,"0.0001":5,"1.5":1,"123456":3,"1e+06":2,"1e-05":4,"NaN":7}"#,
            ),
            (
                vec![(string("<&>"), Value::Int(1))],
                r#"{"\u003c\u0026\u003e":1}"#,
            ),
            (
                vec![
                    (timestamp("2026-01-01T01:00:00+01:00"), Value::Int(1)),
                    (timestamp("2026-01-01T00:00:00Z"), Value::Int(2)),
                ],
                r#"{"2026-01-01T00:00:00Z":1}"#,
            ),
        ];
        for (entries, want) in cases {
            assert_eq!(json(&map(entries)), want);
        }
    }
}
