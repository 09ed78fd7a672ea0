//! Values (language-core §6.1): the constants of language-core §5.17
//! (param defaults and bounds, payload defaults, the kind's `default` and
//! `conflict` arguments, invocation arguments) and what evaluation adds to
//! them (timestamps, structs, decision values).
//!
//! Their canonical text (`constText`, language-policies §2.14) is what kinds
//! print and what bound messages quote. An optional is the value itself
//! when present and [`Value::Absent`] when not: types are static, so a
//! value never needs to say it is optional. A candidate of `outcome.d` is
//! a [`Value::Struct`] of its payload fields.

use std::rc::Rc;

use crate::diag::go_quote_bytes;

mod time;

pub use time::parse_rfc3339;

/// A constant value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `true` / `false`
    Bool(bool),
    /// An `int`.
    Int(i64),
    /// A finite `float`.
    Float(f64),
    /// A `string`'s bytes.
    String(Rc<[u8]>),
    /// A `duration` in nanoseconds.
    Duration(i64),
    /// An enum value by its bare name.
    Enum(Rc<str>),
    /// A list, elements in order.
    List(Rc<[Value]>),
    /// A map, entries in source order, keys unique.
    Map(Rc<[(Value, Value)]>),
    /// An absent optional (`none` in a kind's text).
    Absent,
    /// A `timestamp`: an instant and the zone offset it was written with.
    Timestamp(Timestamp),
    /// A struct: every field, in the struct's declaration order.
    Struct(Rc<[(Rc<str>, Value)]>),
    /// A `decision` value: `d` or `d.r` (assert conditions only).
    Decision(Rc<str>),
}

/// An instant with the zone offset it was written in: equal instants are
/// equal timestamps whatever their offsets (language-core §5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub seconds: i64,
    /// Nanoseconds past `seconds`, below 1 000 000 000.
    pub nanos: u32,
    /// The offset from UTC it was written with, in seconds east.
    pub offset: i32,
}

impl Value {
    /// The value as a constant literal (`constText` of language-policies
    /// §2.14, language-core §6.4): what a kind's canonical text prints for a
    /// default or an outcome argument.
    pub fn const_text(&self) -> String {
        let mut out = String::new();
        self.write_const(&mut out);
        out
    }

    fn write_const(&self, out: &mut String) {
        match self {
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            // The magnitude of the minimum isn't a valid literal, so it
            // prints as arithmetic over two that are.
            Value::Int(i64::MIN) => out.push_str("(-9223372036854775807 - 1)"),
            Value::Int(n) => out.push_str(&n.to_string()),
            Value::Float(f) => out.push_str(&float_text(*f)),
            Value::String(bytes) => out.push_str(&go_quote_bytes(bytes)),
            Value::Duration(nanos) => out.push_str(&duration_text(*nanos)),
            Value::Enum(name) => out.push_str(name),
            Value::List(items) => {
                let parts: Vec<String> = items.iter().map(Value::const_text).collect();
                out.push('[');
                out.push_str(&parts.join(", "));
                out.push(']');
            }
            Value::Map(entries) => {
                // Sorted by the printed entry, so equal maps print alike
                // whatever order their source wrote them in.
                let mut parts: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{}: {}", k.const_text(), v.const_text()))
                    .collect();
                parts.sort();
                out.push('{');
                out.push_str(&parts.join(", "));
                out.push('}');
            }
            Value::Absent => out.push_str("none"),
            Value::Timestamp(t) => out.push_str(&t.const_text()),
            Value::Struct(fields) => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|(name, v)| format!("{name}: {}", v.const_text()))
                    .collect();
                out.push('{');
                out.push_str(&parts.join(", "));
                out.push('}');
            }
            Value::Decision(name) => out.push_str(name),
        }
    }
}

impl Timestamp {
    /// Double-quoted RFC 3339 with whole seconds and the timestamp's own
    /// offset (language-core §6.4): `"2026-09-27T22:30:00+02:00"`.
    pub fn const_text(&self) -> String {
        let local = self.seconds.saturating_add(i64::from(self.offset));
        let days = local.div_euclid(86_400);
        let secs = local.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        let zone = match self.offset {
            0 => "Z".to_owned(),
            o => {
                let sign = if o < 0 { '-' } else { '+' };
                let o = o.unsigned_abs();
                format!("{sign}{:02}:{:02}", o / 3600, o % 3600 / 60)
            }
        };
        format!(
            "\"{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}{zone}\"",
            secs / 3600,
            secs % 3600 / 60,
            secs % 60
        )
    }
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // INVARIANT: 1 <= day <= 31 and 1 <= month <= 12 by construction.
    (
        year,
        u32::try_from(month).unwrap_or(1),
        u32::try_from(day).unwrap_or(1),
    )
}

/// A float in its shortest decimal form without an exponent, with `.0`
/// when that has no point (`2.0`, `1e21` → `1000000000000000000000.0`).
fn float_text(f: f64) -> String {
    // Rust's `Display` for f64 is the shortest text that reads back to the
    // same value, and never uses an exponent.
    let mut text = f.to_string();
    if !text.contains('.') {
        text.push_str(".0");
    }
    text
}

/// A duration of `nanos` nanoseconds in canonical form (language-core
/// §6.3): units `d h m s ms`, largest first, zero units left out, `0s` for
/// zero, a leading `-` when negative, and a sub-millisecond rest as
/// `+<n>ns` (which is not valid source, so the value stays visibly exact).
pub fn duration_text(nanos: i64) -> String {
    const UNITS: [(&str, u64); 5] = [
        ("d", 86_400_000_000_000),
        ("h", 3_600_000_000_000),
        ("m", 60_000_000_000),
        ("s", 1_000_000_000),
        ("ms", 1_000_000),
    ];
    if nanos == 0 {
        return "0s".to_owned();
    }
    let mut out = String::new();
    if nanos < 0 {
        out.push('-');
    }
    // `unsigned_abs` has room for the magnitude of the minimum.
    let mut rest = nanos.unsigned_abs();
    for (unit, size) in UNITS {
        let count = rest / size;
        if count > 0 {
            out.push_str(&format!("{count}{unit}"));
            rest %= size;
        }
    }
    if rest > 0 {
        out.push_str(&format!("+{rest}ns"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(s: &str) -> Value {
        Value::String(s.as_bytes().into())
    }

    #[test]
    fn const_text_table() {
        let cases: Vec<(Value, &str)> = vec![
            (Value::Bool(true), "true"),
            (Value::Bool(false), "false"),
            (Value::Int(-42), "-42"),
            (Value::Int(i64::MAX), "9223372036854775807"),
            (Value::Int(i64::MIN), "(-9223372036854775807 - 1)"),
            (Value::Float(2.0), "2.0"),
            (Value::Float(0.5), "0.5"),
            (Value::Float(-0.0), "-0.0"),
            (Value::Float(1e21), "1000000000000000000000.0"),
            (Value::Float(1e-7), "0.0000001"),
            (Value::Float(0.1 + 0.2), "0.30000000000000004"),
            (string("a\"b"), r#""a\"b""#),
            (string("\n"), r#""\n""#),
            (string("grüß ✓"), "\"grüß ✓\""),
            (Value::String(b"\xff".as_slice().into()), r#""\xff""#),
            (Value::Duration(0), "0s"),
            (Value::Enum("critical".into()), "critical"),
            (Value::Absent, "none"),
            (
                Value::List(vec![Value::Int(1), Value::Int(2)].into()),
                "[1, 2]",
            ),
            (Value::List(Vec::new().into()), "[]"),
            (
                Value::Map(
                    vec![(Value::Int(9), string("y")), (Value::Int(10), string("x"))].into(),
                ),
                r#"{10: "x", 9: "y"}"#,
            ),
            (Value::Map(Vec::new().into()), "{}"),
            (
                Value::Timestamp(Timestamp {
                    seconds: 1_790_548_200,
                    nanos: 5,
                    offset: 7200,
                }),
                r#""2026-09-28T00:30:00+02:00""#,
            ),
            (
                Value::Timestamp(Timestamp {
                    seconds: 0,
                    nanos: 0,
                    offset: 0,
                }),
                r#""1970-01-01T00:00:00Z""#,
            ),
            (Value::Decision("approve.lgtm".into()), "approve.lgtm"),
        ];
        for (value, want) in cases {
            assert_eq!(value.const_text(), want, "{value:?}");
        }
    }

    #[test]
    fn duration_text_table() {
        const MINUTE: i64 = 60_000_000_000;
        let cases: &[(i64, &str)] = &[
            (0, "0s"),
            (24 * 60 * MINUTE, "1d"),
            (1500 * MINUTE, "1d1h"),
            (90 * MINUTE, "1h30m"),
            (720 * 60 * MINUTE, "30d"),
            (-15 * MINUTE, "-15m"),
            (1_500_000, "1ms+500000ns"),
            (500, "+500ns"),
            (1_000_000_500, "1s+500ns"),
            (i64::MAX, "106751d23h47m16s854ms+775807ns"),
            (i64::MIN, "-106751d23h47m16s854ms+775808ns"),
        ];
        for &(nanos, want) in cases {
            assert_eq!(duration_text(nanos), want, "{nanos}");
        }
    }
}
