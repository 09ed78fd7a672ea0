//! Equality and order of runtime values (language-core §5.4, §6.2).

use std::cmp::Ordering;

use crate::value::{Timestamp, Value};

/// Structural equality: scalars by value (floats IEEE, so NaN equals
/// nothing), timestamps by instant, enums by name, lists element-wise,
/// maps as sets of entries, structs field-wise, absent equal to absent.
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) | (Value::Duration(x), Value::Duration(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Enum(x), Value::Enum(y)) | (Value::Decision(x), Value::Decision(y)) => x == y,
        (Value::Timestamp(x), Value::Timestamp(y)) => instant(x) == instant(y),
        (Value::List(x), Value::List(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| equal(a, b))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| lookup(y, k).is_some_and(|w| equal(v, w)))
        }
        (Value::Struct(x), Value::Struct(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((n, a), (m, b))| n == m && equal(a, b))
        }
        (Value::Absent, Value::Absent) => true,
        _ => false,
    }
}

/// The order of two ordered values (ints, floats, durations, timestamps);
/// `None` for NaN and for values that aren't ordered.
pub fn order(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) | (Value::Duration(x), Value::Duration(y)) => Some(x.cmp(y)),
        (Value::Float(x), Value::Float(y)) => x.partial_cmp(y),
        (Value::Timestamp(x), Value::Timestamp(y)) => Some(instant(x).cmp(&instant(y))),
        _ => None,
    }
}

/// A timestamp's instant, for equality and order.
fn instant(t: &Timestamp) -> (i64, u32) {
    (t.seconds, t.nanos)
}

/// The value under `key` in a map's entries.
pub fn lookup<'m>(entries: &'m [(Value, Value)], key: &Value) -> Option<&'m Value> {
    entries.iter().find(|(k, _)| equal(k, key)).map(|(_, v)| v)
}

/// Whether `element` is in `list` (language-core §5.5): equality, except
/// that decision values match by name: a bare `d` matches `d` and every
/// `d.r`, a `d.r` matches `d.r` and a bare `d`.
pub fn member(element: &Value, item: &Value) -> bool {
    match (element, item) {
        (Value::Decision(x), Value::Decision(y)) => decision_matches(x, y),
        _ => equal(element, item),
    }
}

fn decision_matches(x: &str, y: &str) -> bool {
    let bare = |d: &str| d.split('.').next().unwrap_or_default().to_owned();
    x == y || (!x.contains('.') && bare(y) == x) || (!y.contains('.') && bare(x) == y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(s: &str) -> Value {
        Value::Decision(s.into())
    }

    #[test]
    fn decision_membership_matches_bare_names_against_reasons() {
        let cases = [
            ("approve", "approve.lgtm", true),
            ("approve.lgtm", "approve", true),
            ("approve.lgtm", "approve.lgtm", true),
            ("approve.lgtm", "approve.other", false),
            ("approve", "deny", false),
            ("approve", "approved.x", false),
        ];
        for (x, y, want) in cases {
            assert_eq!(member(&decision(x), &decision(y)), want, "{x} in [{y}]");
        }
        assert!(!equal(&decision("approve"), &decision("approve.lgtm")));
    }

    #[test]
    fn timestamps_are_equal_by_instant_whatever_their_zone() {
        let utc = Value::Timestamp(Timestamp {
            seconds: 100,
            nanos: 0,
            offset: 0,
        });
        let plus_two = Value::Timestamp(Timestamp {
            seconds: 100,
            nanos: 0,
            offset: 7200,
        });
        assert!(equal(&utc, &plus_two));
        assert_eq!(order(&utc, &plus_two), Some(Ordering::Equal));
    }

    #[test]
    fn nan_equals_nothing_and_has_no_order() {
        let nan = Value::Float(f64::NAN);
        assert!(!equal(&nan, &nan));
        assert_eq!(order(&nan, &Value::Float(1.0)), None);
    }

    #[test]
    fn maps_are_equal_as_sets_of_entries() {
        let a = Value::Map(
            vec![
                (Value::Int(1), Value::Int(2)),
                (Value::Int(3), Value::Int(4)),
            ]
            .into(),
        );
        let b = Value::Map(
            vec![
                (Value::Int(3), Value::Int(4)),
                (Value::Int(1), Value::Int(2)),
            ]
            .into(),
        );
        assert!(equal(&a, &b));
    }
}
