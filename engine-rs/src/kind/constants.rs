//! Payload defaults written as kind-file constants (bindings §13.5).

use serde_json::Value;

use super::types::{Repr, Type};
use crate::durations::{format_duration, parse_duration};
use crate::quote::go_quote;

// The minimum int64's magnitude isn't a valid literal, so the engine writes it as arithmetic over
// two that are (as the Java builder does).
const MIN_INT: &str = "(-9223372036854775807 - 1)";

/// The constant text of `value` as a `ty`, or why it isn't one.
pub(crate) fn text(ty: &Type, value: &Value) -> Result<String, String> {
    match (&ty.0, value) {
        (Repr::String, Value::String(s)) => Ok(go_quote(s)),
        (Repr::Bool, Value::Bool(b)) => Ok(b.to_string()),
        (Repr::Int, Value::Number(n)) if n.is_i64() => {
            let n = n.as_i64().unwrap_or_default();
            Ok(if n == i64::MIN { MIN_INT.to_owned() } else { n.to_string() })
        }
        (Repr::Float, Value::Number(n)) => match n.as_f64().filter(|f| f.is_finite()) {
            Some(f) => Ok(float_text(f)),
            None => Err(mismatch(ty, value)),
        },
        (Repr::Duration, Value::String(s)) => {
            let parsed = parse_duration(s).map_err(|e| e.to_string())?;
            format_duration(parsed).map_err(|e| e.to_string())
        }
        (Repr::Timestamp, _) => {
            Err("a timestamp field can't have a default: timestamps come from input; there's no literal for one".into())
        }
        (Repr::List(element), Value::Array(items)) => {
            let items: Result<Vec<String>, String> = items.iter().map(|item| text(element, item)).collect();
            Ok(format!("[{}]", items?.join(", ")))
        }
        (Repr::Map(key, element), Value::Object(map)) => {
            let numeric = matches!(key.0, Repr::Int | Repr::Float);
            let mut entries = Vec::with_capacity(map.len());
            for (k, v) in map {
                let key_value = if numeric { number_or_text(k) } else { Value::String(k.clone()) };
                entries.push(format!("{}: {}", text(key, &key_value)?, text(element, v)?));
            }
            // By UTF-8 bytes, as Go and the engine sort them.
            entries.sort();
            Ok(format!("{{{}}}", entries.join(", ")))
        }
        (Repr::Optional(element), value) => {
            if value.is_null() {
                Ok("none".into())
            } else {
                text(element, value)
            }
        }
        (Repr::Enum { values, .. }, Value::String(s)) if values.contains(s) => Ok(s.clone()),
        (Repr::Struct { .. }, _) => Err(format!(
            "a default of struct type {ty} can't be written in a kind file: give struct-typed payload fields no default"
        )),
        _ => Err(mismatch(ty, value)),
    }
}

fn mismatch(ty: &Type, value: &Value) -> String {
    format!("{value} isn't a constant of type {ty}")
}

/// A map key of a numeric type that reads as a JSON number is that number.
fn number_or_text(key: &str) -> Value {
    let digits = key.strip_prefix('-').unwrap_or(key);
    let integer_end = digits.bytes().take_while(u8::is_ascii_digit).count();
    let (integer, rest) = digits.split_at(integer_end);
    let integer_ok = integer == "0" || (!integer.is_empty() && !integer.starts_with('0'));
    let rest_ok = {
        let (fraction, exponent) = match rest.find(['e', 'E']) {
            Some(at) => rest.split_at(at),
            None => (rest, ""),
        };
        let fraction_ok = fraction.is_empty()
            || (fraction.len() > 1
                && fraction.starts_with('.')
                && fraction.bytes().skip(1).all(|b| b.is_ascii_digit()));
        let exponent_ok = exponent.is_empty() || {
            let e = exponent.get(1..).unwrap_or_default();
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
        };
        fraction_ok && exponent_ok
    };
    if !integer_ok || !rest_ok {
        return Value::String(key.to_owned());
    }
    if rest.is_empty() {
        if let Ok(n) = key.parse::<i64>() {
            return Value::from(n);
        }
    }
    key.parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or_else(|| Value::String(key.to_owned()), Value::Number)
}

/// The shortest round-trip decimal without an exponent, with `.0` when it has no point.
pub(crate) fn float_text(value: f64) -> String {
    let plain = format!("{value}");
    if plain.contains('.') {
        plain
    } else {
        format!("{plain}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_print_as_the_bindings_document() {
        let cases = [
            (Type::string(), json!("a\"b"), "\"a\\\"b\""),
            (Type::bool(), json!(true), "true"),
            (Type::int(), json!(-3), "-3"),
            (Type::int(), json!(i64::MIN), MIN_INT),
            (Type::float(), json!(0.5), "0.5"),
            (Type::float(), json!(2), "2.0"),
            (Type::float(), json!(-0.0), "-0.0"),
            (Type::float(), json!(1e21), "1000000000000000000000.0"),
            (Type::float(), json!(1e-7), "0.0000001"),
            (Type::duration(), json!("90m"), "1h30m"),
            (Type::duration(), json!(""), "0s"),
            (Type::optional(Type::int()), json!(4), "4"),
            (
                Type::enumeration("Level", ["low", "mid"]),
                json!("mid"),
                "mid",
            ),
        ];
        for (ty, value, want) in cases {
            assert_eq!(text(&ty, &value).unwrap(), want, "{ty} {value}");
        }
    }

    #[test]
    fn lists_and_maps_print_sorted_by_utf8() {
        assert_eq!(
            text(&Type::list(Type::string()), &json!(["a", "b"])).unwrap(),
            "[\"a\", \"b\"]"
        );
        assert_eq!(text(&Type::list(Type::int()), &json!([])).unwrap(), "[]");
        let weights = json!({"b": 2, "a": 1, "ä": 3, "Z": 4});
        assert_eq!(
            text(&Type::map(Type::string(), Type::int()), &weights).unwrap(),
            "{\"Z\": 4, \"a\": 1, \"b\": 2, \"ä\": 3}"
        );
        let flags = json!({"10": true, "2": false});
        assert_eq!(
            text(&Type::map(Type::int(), Type::bool()), &flags).unwrap(),
            "{10: true, 2: false}"
        );
    }

    #[test]
    fn mismatches_and_unwritable_types_are_refused() {
        let cases = [
            (Type::int(), json!("seven"), "\"seven\" isn't a constant of type int"),
            (Type::int(), json!(1.5), "1.5 isn't a constant of type int"),
            (Type::list(Type::int()), json!({}), "{} isn't a constant of type list<int>"),
            (Type::enumeration("Level", ["low"]), json!("high"), "\"high\" isn't a constant of type Level"),
            (Type::duration(), json!("5"), "invalid duration \"5\""),
            (Type::timestamp(), json!("2026-01-01T00:00:00Z"), "a timestamp field can't have a default: timestamps come from input; there's no literal for one"),
            (Type::structure("S", Vec::<(String, Type)>::new()), json!({}), "a default of struct type S can't be written in a kind file: give struct-typed payload fields no default"),
            (Type::map(Type::int(), Type::int()), json!({"x": 1}), "\"x\" isn't a constant of type int"),
        ];
        for (ty, value, want) in cases {
            assert_eq!(text(&ty, &value).unwrap_err(), want);
        }
    }

    #[test]
    fn numeric_keys_read_as_json_numbers_only() {
        assert_eq!(number_or_text("10"), json!(10));
        assert_eq!(number_or_text("-1.5e3"), json!(-1500.0));
        for text in ["01", "1.", "+1", "1e", "x", ""] {
            assert_eq!(number_or_text(text), json!(text), "{text}");
        }
    }
}
