//! Timestamps as text: RFC 3339 read the way the reference's Go reads it
//! (`time.Parse(time.RFC3339Nano, …)`, tooling §6.1.1), and written the
//! way payloads carry them (UTC, `time.RFC3339Nano`, tooling §6.2).

use super::{Timestamp, civil_from_days};

const SECONDS_PER_DAY: i64 = 86_400;

impl Timestamp {
    /// The zero timestamp, Go's zero `time.Time`: `0001-01-01T00:00:00Z`,
    /// what a missing timestamp key decodes to (language-core §4.1).
    pub const ZERO: Timestamp = Timestamp {
        seconds: -62_135_596_800,
        nanos: 0,
        offset: 0,
    };

    /// The instant in UTC as Go's `time.RFC3339Nano` formats it: whole
    /// seconds, then a fraction only when there is one, trailing zeros
    /// removed, then `Z` (`2026-09-28T12:00:00.5Z`). Years outside
    /// 0000–9999, which an offset can push a 0000 or 9999 date into, print
    /// as Go prints them (`-0001`, `10000`).
    pub fn rfc3339_utc(&self) -> String {
        let days = self.seconds.div_euclid(SECONDS_PER_DAY);
        let secs = self.seconds.rem_euclid(SECONDS_PER_DAY);
        let (year, month, day) = civil_from_days(days);
        let sign = if year < 0 { "-" } else { "" };
        let mut out = format!(
            "{sign}{:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
            year.unsigned_abs(),
            secs / 3600,
            secs % 3600 / 60,
            secs % 60
        );
        if self.nanos > 0 {
            let fraction = format!("{:09}", self.nanos);
            out.push('.');
            out.push_str(fraction.trim_end_matches('0'));
        }
        out.push('Z');
        out
    }
}

/// The timestamp `text` spells in RFC 3339, or `None`, accepting exactly
/// what Go's `time.Parse(time.RFC3339Nano, text)` accepts:
/// `YYYY-MM-DDThh:mm:ss`, a fraction of any length after `.` or `,`
/// (digits past the ninth are dropped), then `Z` or `±hh:mm`. Go's parser
/// also takes a one-digit hour and offsets up to `24:60`, so this does too.
/// Dates are checked against the calendar (no February 30th), times
/// against the clock (no leap second).
pub fn parse_rfc3339(text: &str) -> Option<Timestamp> {
    let mut rest = text.as_bytes();
    let year = digits(&mut rest, 4)?;
    expect(&mut rest, b'-')?;
    let month = digits(&mut rest, 2)?;
    expect(&mut rest, b'-')?;
    let day = digits(&mut rest, 2)?;
    expect(&mut rest, b'T')?;
    let hour = match rest {
        [a, b, ..] if a.is_ascii_digit() && b.is_ascii_digit() => digits(&mut rest, 2)?,
        _ => digits(&mut rest, 1)?,
    };
    expect(&mut rest, b':')?;
    let minute = digits(&mut rest, 2)?;
    expect(&mut rest, b':')?;
    let second = digits(&mut rest, 2)?;
    let nanos = fraction(&mut rest);
    let offset = zone(rest)?;

    let valid = (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day)
        && hour < 24
        && minute < 60
        && second < 60;
    if !valid {
        return None;
    }
    let local =
        days_from_civil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second;
    Some(Timestamp {
        seconds: local - i64::from(offset),
        nanos,
        offset,
    })
}

/// Reads exactly `count` ASCII digits from the front of `rest`.
fn digits(rest: &mut &[u8], count: usize) -> Option<i64> {
    let (number, tail) = rest.split_at_checked(count)?;
    if !number.iter().all(u8::is_ascii_digit) {
        return None;
    }
    *rest = tail;
    Some(number.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
}

fn expect(rest: &mut &[u8], byte: u8) -> Option<()> {
    let (&first, tail) = rest.split_first()?;
    (first == byte).then(|| *rest = tail)
}

/// Reads a fractional second (`.` or `,` then digits) if one is next and
/// returns its nanoseconds; Go reads all the digits but keeps nine.
fn fraction(rest: &mut &[u8]) -> u32 {
    let [b'.' | b',', first, ..] = rest else {
        return 0;
    };
    if !first.is_ascii_digit() {
        return 0;
    }
    let tail = rest.get(1..).unwrap_or_default();
    let count = tail.iter().take_while(|d| d.is_ascii_digit()).count();
    let mut nanos = 0;
    for place in 0..9 {
        let digit = tail
            .get(place)
            .filter(|_| place < count)
            .map_or(0, |d| u32::from(d - b'0'));
        nanos = nanos * 10 + digit;
    }
    *rest = tail.get(count..).unwrap_or_default();
    nanos
}

/// The zone offset in seconds east of `rest`, which must be all that is
/// left: `Z`, or a sign and `hh:mm` with `hh` up to 24 and `mm` up to 60.
fn zone(rest: &[u8]) -> Option<i32> {
    let (sign, mut tail) = match rest {
        b"Z" => return Some(0),
        [b'+', tail @ ..] => (1, tail),
        [b'-', tail @ ..] => (-1, tail),
        _ => return None,
    };
    let hours = digits(&mut tail, 2)?;
    expect(&mut tail, b':')?;
    let minutes = digits(&mut tail, 2)?;
    if !tail.is_empty() || hours > 24 || minutes > 60 {
        return None;
    }
    i32::try_from(sign * (hours * 3600 + minutes * 60)).ok()
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date, the inverse of
/// [`civil_from_days`] (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(seconds: i64, nanos: u32, offset: i32) -> Timestamp {
        Timestamp {
            seconds,
            nanos,
            offset,
        }
    }

    #[test]
    fn parses_what_go_parses() {
        let noon = 1_790_596_800; // 2026-09-28T12:00:00Z
        let cases: &[(&str, Timestamp)] = &[
            ("2026-09-28T12:00:00Z", ts(noon, 0, 0)),
            ("2026-09-28T14:00:00+02:00", ts(noon, 0, 7200)),
            ("2026-09-28T07:30:00-04:30", ts(noon, 0, -16_200)),
            ("2026-09-28T12:00:00.5Z", ts(noon, 500_000_000, 0)),
            ("2026-09-28T12:00:00,25Z", ts(noon, 250_000_000, 0)),
            ("2026-09-28T12:00:00.123456789Z", ts(noon, 123_456_789, 0)),
            (
                "2026-09-28T12:00:00.1234567891234Z",
                ts(noon, 123_456_789, 0),
            ),
            ("2026-09-28T12:00:00.000000001Z", ts(noon, 1, 0)),
            ("2026-09-28T2:00:00-10:00", ts(noon, 0, -36_000)),
            ("2026-09-29T12:00:00+24:00", ts(noon, 0, 86_400)),
            ("2026-09-28T13:00:00+00:60", ts(noon, 0, 3600)),
            ("2026-09-28T12:00:00-00:00", ts(noon, 0, 0)),
            ("1970-01-01T00:00:00Z", ts(0, 0, 0)),
            ("1969-12-31T23:59:59.5Z", ts(-1, 500_000_000, 0)),
            ("0001-01-01T00:00:00Z", Timestamp::ZERO),
            ("2024-02-29T00:00:00Z", ts(1_709_164_800, 0, 0)),
            ("2000-02-29T00:00:00Z", ts(951_782_400, 0, 0)),
            ("9999-12-31T23:59:59Z", ts(253_402_300_799, 0, 0)),
            ("0000-01-01T00:00:00Z", ts(-62_167_219_200, 0, 0)),
        ];
        for (text, want) in cases {
            assert_eq!(parse_rfc3339(text), Some(*want), "{text}");
        }
    }

    #[test]
    fn refuses_what_go_refuses() {
        let cases = [
            "",
            "2026-09-28",
            "2026-09-28T12:00:00",
            "2026-09-28 12:00:00Z",
            "2026-09-28t12:00:00Z",
            "2026-09-28T12:00:00z",
            "2026-9-28T12:00:00Z",
            "2026-09-8T12:00:00Z",
            "26-09-28T12:00:00Z",
            "+2026-09-28T12:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-00-01T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-09-00T00:00:00Z",
            "2026-09-28T24:00:00Z",
            "2026-09-28T123:00:00Z",
            "2026-09-28T12:60:00Z",
            "2026-09-28T12:00:60Z",
            "2026-09-28T12:0:00Z",
            "2026-09-28T12:00:0Z",
            "2026-09-28T12:00:00.Z",
            "2026-09-28T12:00:00.5",
            "2026-09-28T12:00:00+2:00",
            "2026-09-28T12:00:00+0200",
            "2026-09-28T12:00:00+25:00",
            "2026-09-28T12:00:00+00:61",
            "2026-09-28T12:00:00+02:00 ",
            "2026-09-28T12:00:00ZZ",
            " 2026-09-28T12:00:00Z",
            "2026-09-28T12:00:00UTC",
        ];
        for text in cases {
            assert_eq!(parse_rfc3339(text), None, "{text}");
        }
    }

    #[test]
    fn formats_as_rfc3339_nano_in_utc() {
        let noon = 1_790_596_800;
        let cases: &[(Timestamp, &str)] = &[
            (ts(noon, 0, 7200), "2026-09-28T12:00:00Z"),
            (ts(noon, 500_000_000, 0), "2026-09-28T12:00:00.5Z"),
            (ts(noon, 250_000_000, -3600), "2026-09-28T12:00:00.25Z"),
            (ts(noon, 1, 0), "2026-09-28T12:00:00.000000001Z"),
            (ts(noon, 123_456_780, 0), "2026-09-28T12:00:00.12345678Z"),
            (ts(-1, 500_000_000, 0), "1969-12-31T23:59:59.5Z"),
            (Timestamp::ZERO, "0001-01-01T00:00:00Z"),
            (ts(-62_167_219_200 - 3600, 0, 3600), "-0001-12-31T23:00:00Z"),
            (ts(253_402_300_800, 0, 0), "10000-01-01T00:00:00Z"),
        ];
        for (value, want) in cases {
            assert_eq!(value.rfc3339_utc(), *want, "{value:?}");
        }
    }

    #[test]
    fn text_round_trips_through_the_instant() {
        for text in [
            "2026-09-28T12:00:00Z",
            "2026-09-28T12:00:00.000001Z",
            "1600-02-29T23:59:59.999999999Z",
            "0001-01-01T00:00:00Z",
        ] {
            let parsed = parse_rfc3339(text).unwrap();
            assert_eq!(parsed.rfc3339_utc(), text);
        }
    }
}
