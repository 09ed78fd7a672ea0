//! The engine's duration syntax on the host side (bindings §15): `1h30m` is 90 minutes.

use std::time::Duration;

use crate::error::{Error, Result};
use crate::quote::go_quote;

/// The longest duration: Go's int64 nanosecond range, in whole milliseconds (about 292 years).
const MAX_MILLIS: u64 = 9_223_372_036_854;

const HELP_SYNTAX: &str =
    "units are d, h, m, s and ms, largest first, each at most once: \"1h30m\"";
const HELP_REPEATED: &str = "each unit may appear once in a duration; add the components together";
const HELP_ORDER: &str = "write the largest unit first, like \"1h30m\"";
const HELP_RANGE: &str = "a duration is at most about 292 years";

/// Units, largest first, with their milliseconds.
const UNITS: [(&str, u64); 5] = [
    ("d", 86_400_000),
    ("h", 3_600_000),
    ("m", 60_000),
    ("s", 1_000),
    ("ms", 1),
];

/// The unit at the start of `rest`: `ms` before `m`. Its index in [`UNITS`].
fn unit_at(rest: &str) -> Option<usize> {
    if rest.starts_with("ms") {
        return Some(4);
    }
    UNITS
        .iter()
        .position(|(symbol, _)| rest.starts_with(symbol))
}

/// Parses the engine's duration syntax: `«digits»«unit»` pairs, units `d`, `h`, `m`, `s`, `ms`,
/// each at most once, largest first. The empty string is zero.
pub fn parse_duration(text: &str) -> Result<Duration> {
    let invalid = |help: &str| Error::engine(format!("invalid duration {}", go_quote(text)), help);
    let mut total: u64 = 0;
    let mut last: Option<usize> = None;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (number, after) = rest.split_at(digits);
        let unit = if digits > 0 { unit_at(after) } else { None };
        let Some(unit) = unit else {
            return Err(invalid(HELP_SYNTAX));
        };
        match last {
            Some(previous) if previous == unit => return Err(invalid(HELP_REPEATED)),
            Some(previous) if unit < previous => return Err(invalid(HELP_ORDER)),
            _ => {}
        }
        let (symbol, millis) = UNITS.get(unit).copied().unwrap_or(("ms", 1));
        let count: u64 = number.parse().unwrap_or(u64::MAX);
        total = total.saturating_add(count.saturating_mul(millis));
        last = Some(unit);
        rest = after.get(symbol.len()..).unwrap_or_default();
    }
    if total > MAX_MILLIS {
        return Err(invalid(HELP_RANGE));
    }
    Ok(Duration::from_millis(total))
}

/// Writes the canonical form, to whole milliseconds: the greedy decomposition into d, h, m, s and
/// ms, skipping zeros; zero is `0s`.
pub fn format_duration(duration: Duration) -> Result<String> {
    let millis = u64::try_from(duration.as_millis()).unwrap_or(u64::MAX);
    if millis > MAX_MILLIS {
        return Err(Error::engine(
            format!("{millis} ms isn't a duration Sigil can write"),
            HELP_RANGE,
        ));
    }
    if millis == 0 {
        return Ok("0s".into());
    }
    let mut text = String::new();
    let mut rest = millis;
    for (symbol, size) in UNITS {
        let count = rest / size;
        if count > 0 {
            text.push_str(&format!("{count}{symbol}"));
            rest -= count * size;
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_cases() {
        let cases = [
            ("", 0),
            ("0s", 0),
            ("1h30m", 5_400_000),
            ("2d3h", 183_600_000),
            ("5ms", 5),
            ("1m30s250ms", 90_250),
            ("90s", 90_000),
        ];
        for (text, millis) in cases {
            assert_eq!(
                parse_duration(text).unwrap(),
                Duration::from_millis(millis),
                "{text}"
            );
        }
    }

    #[test]
    fn formats_the_documented_cases() {
        let cases = [
            (0, "0s"),
            (1, "1ms"),
            (720_000, "12m"),
            (5_400_000, "1h30m"),
            (183_600_000, "2d3h"),
            (86_400_001, "1d1ms"),
        ];
        for (millis, text) in cases {
            assert_eq!(
                format_duration(Duration::from_millis(millis)).unwrap(),
                text
            );
        }
        assert_eq!(format_duration(Duration::from_micros(1500)).unwrap(), "1ms");
    }

    #[test]
    fn refuses_bad_syntax_with_the_units_in_the_help() {
        for text in ["90 minutes", "h", "5", "1.5h", "-1h", "1us"] {
            let error = parse_duration(text).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("invalid duration {}", go_quote(text))
            );
            assert_eq!(error.help(), HELP_SYNTAX, "{text}");
        }
    }

    #[test]
    fn refuses_a_repeated_unit_a_wrong_order_and_overflow() {
        assert_eq!(parse_duration("1h1h").unwrap_err().help(), HELP_REPEATED);
        assert_eq!(parse_duration("30m1h").unwrap_err().help(), HELP_ORDER);
        assert_eq!(
            parse_duration("9223372036855ms").unwrap_err().help(),
            HELP_RANGE
        );
        assert_eq!(
            parse_duration("99999999999999999999999d")
                .unwrap_err()
                .help(),
            HELP_RANGE
        );
        assert_eq!(
            parse_duration("9223372036854ms").unwrap(),
            Duration::from_millis(MAX_MILLIS)
        );
    }

    #[test]
    fn refuses_to_format_past_the_maximum() {
        let error = format_duration(Duration::from_millis(MAX_MILLIS + 1)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "9223372036855 ms isn't a duration Sigil can write"
        );
        assert_eq!(error.help(), HELP_RANGE);
        assert!(format_duration(Duration::from_millis(MAX_MILLIS)).is_ok());
    }
}
