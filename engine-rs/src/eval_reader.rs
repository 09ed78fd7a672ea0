//! Reads the module's answer to an eval, `{"ok":true, «eval record»}`, straight from its bytes into
//! an [`EvalResult`]: the record serde derives from the same bytes, payloads included, at a fraction
//! of the cost. Evaluation is the crate's hot path, and serde's derived decoding took half as long
//! as the engine takes to decide.
//!
//! It reads only what the module writes for a successful call: an answer that starts `{"ok":true`,
//! JSON without problems. For anything else (`ok:false`, an `error` member, a member of the wrong
//! type, missing or repeated, an escaped member name, a string with a control character, a lone
//! surrogate or bytes that aren't UTF-8, nesting deeper than [`MAX_DEPTH`], a syntax error) it
//! answers None and the caller decodes with serde, which says what is wrong. So wherever it answers
//! Some, the record is the one serde would give.

use serde_json::{Map, Number, Value};

use crate::records::{EvalEntry, EvalResult};

/// Deeper payloads go to serde, whose own limit (128) is deeper still.
const MAX_DEPTH: usize = 64;

/// The record of an ok eval answer, or None when serde must decide.
pub(crate) fn read(answer: &[u8]) -> Option<EvalResult> {
    let rest = answer.strip_prefix(br#"{"ok":true"#)?;
    let mut cursor = Cursor { bytes: rest, at: 0 };
    let result = cursor.record()?;
    cursor.space();
    (cursor.at == rest.len()).then_some(result)
}

/// Members already read, one bit each: serde refuses a repeated one.
#[derive(Default)]
struct Seen(u8);

impl Seen {
    /// None when `bit` was seen before; bit 0 is a member nobody tracks.
    fn first(&mut self, bit: u8) -> Option<()> {
        let fresh = self.0 & bit == 0;
        self.0 |= bit;
        fresh.then_some(())
    }
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn space(&mut self) {
        while matches!(self.bytes.get(self.at), Some(b' ' | b'\n' | b'\t' | b'\r')) {
            self.at += 1;
        }
    }

    /// The next byte after white space, not taken.
    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.space();
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| self.at = end)
    }

    /// Runs `member` on each member name of an object whose `{` is taken already (or, with `open`
    /// false, whose first member was), until its `}`.
    fn members(
        &mut self,
        mut open: bool,
        mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        loop {
            match self.peek()? {
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                b',' if !open => self.at += 1,
                _ if open => {}
                _ => return None,
            }
            open = false;
            let name = self.name()?;
            self.eat(b':')?;
            member(self, name)?;
        }
    }

    /// A member name without escapes, as bytes; a name with one goes to serde.
    fn name(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.at;
        let length = self
            .bytes
            .get(start..)?
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        self.at = start + length;
        self.eat_raw(b'"')?;
        let bytes: &'a [u8] = self.bytes;
        bytes.get(start..start + length)
    }

    fn eat_raw(&mut self, byte: u8) -> Option<()> {
        (*self.bytes.get(self.at)? == byte).then(|| self.at += 1)
    }

    fn string(&mut self) -> Option<String> {
        self.eat(b'"')?;
        let start = self.at;
        let plain = self
            .bytes
            .get(start..)?
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        self.at = start + plain;
        if self.eat_raw(b'"').is_some() {
            let text = self.bytes.get(start..start + plain)?;
            if text.is_ascii() {
                // SAFETY: ASCII is UTF-8; the check is far cheaper than validating the bytes as UTF-8.
                return Some(unsafe { std::str::from_utf8_unchecked(text) }.to_owned());
            }
            return std::str::from_utf8(text).ok().map(str::to_owned);
        }
        let mut text = self.bytes.get(start..start + plain)?.to_vec();
        loop {
            match *self.bytes.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return String::from_utf8(text).ok();
                }
                b'\\' => {
                    self.at += 1;
                    self.escape(&mut text)?;
                }
                b if b < 0x20 => return None,
                b => {
                    text.push(b);
                    self.at += 1;
                }
            }
        }
    }

    /// One escape after its backslash, appended to `text` as UTF-8.
    fn escape(&mut self, text: &mut Vec<u8>) -> Option<()> {
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        let simple = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let unit = self.hex4()?;
                let code = match unit {
                    0xD800..=0xDBFF => {
                        self.literal_raw(b"\\u")?;
                        let low = self.hex4()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return None;
                        }
                        0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    0xDC00..=0xDFFF => return None,
                    _ => unit,
                };
                let mut buffer = [0u8; 4];
                text.extend_from_slice(char::from_u32(code)?.encode_utf8(&mut buffer).as_bytes());
                return Some(());
            }
            _ => return None,
        };
        text.push(simple);
        Some(())
    }

    fn literal_raw(&mut self, word: &[u8]) -> Option<()> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word).then(|| self.at = end)
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = std::str::from_utf8(self.bytes.get(self.at..self.at + 4)?).ok()?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.at += 4;
        u32::from_str_radix(digits, 16).ok()
    }

    fn boolean(&mut self) -> Option<bool> {
        match self.peek()? {
            b't' => self.literal(b"true").map(|()| true),
            b'f' => self.literal(b"false").map(|()| false),
            _ => None,
        }
    }

    /// `null` taken, or not there.
    fn null(&mut self) -> Option<bool> {
        Some(self.peek()? == b'n' && self.literal(b"null").is_some())
    }

    fn optional_string(&mut self) -> Option<Option<String>> {
        if self.null()? {
            return Some(None);
        }
        self.string().map(Some)
    }

    /// serde reads `null` into an `Option<Value>` as None.
    fn optional_value(&mut self) -> Option<Option<Value>> {
        if self.null()? {
            return Some(None);
        }
        self.value(0).map(Some)
    }

    fn strings(&mut self) -> Option<Vec<String>> {
        self.list(Self::string)
    }

    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut items = Vec::new();
        if self.peek()? == b']' {
            self.at += 1;
            return Some(items);
        }
        loop {
            items.push(item(self)?);
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(items);
                }
                _ => return None,
            }
        }
    }

    /// Any JSON value, as serde_json builds it (with its `preserve_order` maps).
    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth >= MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => {
                self.at += 1;
                let mut map = Map::new();
                self.entries(&mut map, depth)?;
                Some(Value::Object(map))
            }
            b'[' => self
                .list(|cursor| cursor.value(depth + 1))
                .map(Value::Array),
            b'"' => self.string().map(Value::String),
            b't' | b'f' => self.boolean().map(Value::Bool),
            b'n' => self.literal(b"null").map(|()| Value::Null),
            b'-' | b'0'..=b'9' => self.number().map(Value::Number),
            _ => None,
        }
    }

    /// The members of an object into `map`; a repeated name replaces the value in place, as
    /// serde_json's own map does.
    fn entries(&mut self, map: &mut Map<String, Value>, depth: usize) -> Option<()> {
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(());
        }
        loop {
            let key = self.string()?;
            self.eat(b':')?;
            let value = self.value(depth + 1)?;
            map.insert(key, value);
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A whole number from 0 to u64::MAX is read here; any other number (negative, fraction,
    /// exponent, too large, or not a JSON number at all) by serde_json, so it is the same `Number`.
    fn number(&mut self) -> Option<Number> {
        let start = self.at;
        let length = self
            .bytes
            .get(start..)?
            .iter()
            .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'));
        let end = length.map_or(self.bytes.len(), |length| start + length);
        let token = self.bytes.get(start..end)?;
        self.at = end;
        let leading_zero = token.len() > 1 && token.first() == Some(&b'0');
        if !leading_zero && token.iter().all(u8::is_ascii_digit) {
            let whole = token.iter().try_fold(0u64, |n, &d| {
                n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            });
            if let Some(whole) = whole {
                return Some(Number::from(whole));
            }
        }
        serde_json::from_slice(token).ok()
    }

    /// `read`, with the bytes it read.
    fn raw<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<(&'a [u8], T)> {
        self.space();
        let start = self.at;
        let value = read(self)?;
        let bytes: &'a [u8] = self.bytes;
        Some((bytes.get(start..self.at)?, value))
    }

    /// `raw`, or None for `null`.
    fn optional_raw<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<Option<(&'a [u8], T)>> {
        if self.null()? {
            return Some(None);
        }
        self.raw(read).map(Some)
    }

    /// A copy of `known`'s value when its bytes come next, taken. Bytes that only start the same
    /// (`1` before `12`) leave no separator after them, so the reader then declines.
    fn again<T: Clone>(&mut self, known: Option<&(&'a [u8], T)>) -> Option<T> {
        let (raw, value) = known?;
        self.space();
        let end = self.at + raw.len();
        (self.bytes.get(self.at..end)? == *raw).then(|| {
            self.at = end;
            value.clone()
        })
    }

    /// The eval record's members after `{"ok":true`.
    fn record(&mut self) -> Option<EvalResult> {
        let mut seen = Seen::default();
        let mut record = Record::default();
        let (mut outcome, mut trace, mut collect) = (None, None, false);
        self.members(false, |cursor, name| {
            match name {
                b"payload" => {
                    record.payload = seen
                        .first(1)
                        .and_then(|()| cursor.optional_raw(|c| c.value(0)))?
                }
                // A failed evaluation's record is rare: serde reads it.
                b"error" => {
                    seen.first(2)?;
                    return cursor.null()?.then_some(());
                }
                b"policy" => {
                    record.policy = Some(seen.first(4).and_then(|()| cursor.raw(Self::string))?)
                }
                b"decision" => {
                    record.decision = seen
                        .first(8)
                        .and_then(|()| cursor.optional_raw(Self::string))?
                }
                b"reason" => {
                    record.reason = seen
                        .first(16)
                        .and_then(|()| cursor.optional_raw(Self::string))?
                }
                b"outcome" => {
                    outcome = Some(
                        seen.first(32)
                            .and_then(|()| cursor.list(|c| c.entry(&record)))?,
                    )
                }
                b"trace" => {
                    trace = Some(
                        seen.first(64)
                            .and_then(|()| cursor.list(|c| c.entry(&record)))?,
                    )
                }
                b"collect" => collect = seen.first(128).and_then(|()| cursor.boolean())?,
                // `ok`, `id` and members this crate doesn't know: serde skips them too.
                _ => drop(cursor.value(0)?),
            }
            Some(())
        })?;
        Some(EvalResult {
            payload: value(record.payload),
            error: None,
            policy: value(record.policy)?,
            decision: value(record.decision),
            reason: value(record.reason),
            outcome: outcome?,
            trace: trace?,
            collect,
            shape: None,
        })
    }

    /// One entry of the outcome or the trace; what repeats the record's own members is copied.
    fn entry(&mut self, record: &Record<'a>) -> Option<EvalEntry> {
        self.eat(b'{')?;
        let mut seen = Seen::default();
        let (mut payload, mut decision, mut reason, mut policy, mut position) =
            (None, None, None, None, None);
        let (mut chain, mut conditions, mut outcome) = (Vec::new(), Vec::new(), false);
        self.members(true, |cursor, name| {
            seen.first(match name {
                b"payload" => 1,
                b"decision" => 2,
                b"reason" => 4,
                b"policy" => 8,
                b"position" => 16,
                b"chain" => 32,
                b"conditions" => 64,
                b"outcome" => 128,
                _ => 0,
            })?;
            match name {
                b"payload" => {
                    payload = cursor
                        .again(record.payload.as_ref())
                        .map(Some)
                        .or_else(|| cursor.optional_value())?
                }
                b"decision" => {
                    decision = Some(
                        cursor
                            .again(record.decision.as_ref())
                            .or_else(|| cursor.string())?,
                    )
                }
                b"reason" => {
                    reason = Some(
                        cursor
                            .again(record.reason.as_ref())
                            .or_else(|| cursor.string())?,
                    )
                }
                b"policy" => {
                    policy = cursor
                        .again(record.policy.as_ref())
                        .map(Some)
                        .or_else(|| cursor.optional_string())?
                }
                b"position" => position = cursor.optional_string()?,
                b"chain" => chain = cursor.strings()?,
                b"conditions" => conditions = cursor.strings()?,
                b"outcome" => outcome = cursor.boolean()?,
                _ => drop(cursor.value(0)?),
            }
            Some(())
        })?;
        Some(EvalEntry {
            payload,
            decision: decision?,
            reason: reason?,
            policy,
            position,
            chain,
            conditions,
            outcome,
        })
    }
}

fn value<T>(known: Option<(&[u8], T)>) -> Option<T> {
    known.map(|(_, value)| value)
}

/// The record's own members, each with the bytes it was read from (None for `null` or absent):
/// the entries of its outcome and trace mostly repeat them, and a copy of a value read already is
/// cheaper than reading the same bytes again.
#[derive(Default)]
struct Record<'a> {
    payload: Option<(&'a [u8], Value)>,
    policy: Option<(&'a [u8], String)>,
    decision: Option<(&'a [u8], String)>,
    reason: Option<(&'a [u8], String)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::decode;

    /// The benchmark's answer, as the module writes it (bench's refund desk, one rule).
    const APPROVE: &str = r#"{"ok":true,"payload":{"limit":100},"policy":"refund.desk","decision":"approve","reason":"small","outcome":[{"payload":{"limit":100},"decision":"approve","reason":"small","policy":"refund.desk","position":"refund/desk.sigil:8:3"}],"trace":[{"payload":{"limit":100},"decision":"approve","reason":"small","policy":"refund.desk","position":"refund/desk.sigil:8:3","conditions":["amount \u003c 100 + 0 and channel == \"web\""],"outcome":true}]}"#;

    /// The reader's record is serde's, down to the key order of its payloads.
    fn assert_reads_as_serde(answer: &str) {
        let read =
            read(answer.as_bytes()).unwrap_or_else(|| panic!("the reader declined {answer}"));
        let serde: EvalResult = decode(answer.as_bytes()).unwrap();
        assert_eq!(read, serde, "{answer}");
        assert_eq!(
            serde_json::to_string(&read).unwrap(),
            serde_json::to_string(&serde).unwrap(),
            "{answer}"
        );
    }

    /// The reader leaves the answer to serde.
    fn assert_declines(answer: &str) {
        assert_eq!(read(answer.as_bytes()), None, "{answer}");
    }

    #[test]
    fn reads_the_modules_answers_as_serde_does() {
        let answers = [
            APPROVE,
            r#"{"ok":true,"policy":"p","outcome":[],"trace":[]}"#,
            r#"{"ok":true,"id":7,"policy":"p","decision":null,"reason":null,"payload":null,"error":null,"outcome":[],"trace":[],"collect":true}"#,
            r#"{"ok":true,"policy":"p","outcome":[{"decision":"d","reason":"r","chain":["a","b"],"conditions":[],"payload":{}}],"trace":[],"collect":false}"#,
            r#"{"ok":true,"policy":"p","outcome":[{"decision":"d","reason":"r","policy":null,"position":null,"unknown":[1,{"x":null}]}],"trace":[]}"#,
            r#"{"ok":true,"policy":"p","later":{"a":[true,false,null]},"outcome":[],"trace":[],"ok":false}"#,
            "{\"ok\":true , \"policy\" :\t\"p\"\n,\"outcome\":[ ],\"trace\":[\r] }  \n",
        ];
        for answer in answers {
            assert_reads_as_serde(answer);
        }
    }

    #[test]
    fn reads_entries_that_differ_from_the_record_as_written() {
        assert_reads_as_serde(
            r#"{"ok":true,"payload":{"a":1},"policy":"p","decision":"d","reason":"r","outcome":[{"payload":{"a":2},"decision":"dd","reason":"r2","policy":"q"}],"trace":[{"payload":{"a":1,"b":2},"decision":"d","reason":"rr","policy":"pp"},{"payload":{"a":1},"decision":"d","reason":"r","policy":"p"}]}"#,
        );
        assert_reads_as_serde(
            r#"{"ok":true,"payload":null,"policy":"p","decision":null,"outcome":[{"payload":null,"decision":"null","reason":"r"}],"trace":[]}"#,
        );
        // A copy is taken only for the same bytes; a number that merely starts the same is left to serde.
        assert_declines(
            r#"{"ok":true,"payload":1,"policy":"p","outcome":[{"payload":12,"decision":"d","reason":"r"}],"trace":[]}"#,
        );
    }

    #[test]
    fn reads_payloads_as_serde_json_values() {
        let payloads = [
            r#"{"z":1,"a":2,"m":{"y":[],"b":{}}}"#,
            r#"{"n":[0,1,-1,-0,18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809]}"#,
            r#"{"f":[0.5,1e3,1E-3,-2.5e+10,123456789012345678901234567890.5,0.1]}"#,
            r#"{"s":["plain","é ü 日本","\u00e9\ud83d\ude00","\"\\\/\b\f\n\r\t","\u003c\u003e\u0026"]}"#,
            r#"{"twice":1,"other":2,"twice":3}"#,
            r#"[1,"two",[3]]"#,
            r#""text""#,
            "42",
            "true",
        ];
        for payload in payloads {
            assert_reads_as_serde(&format!(
                r#"{{"ok":true,"payload":{payload},"policy":"p","outcome":[],"trace":[]}}"#
            ));
        }
    }

    #[test]
    fn reads_nesting_up_to_its_depth_and_declines_deeper() {
        let nested = |depth: usize| {
            format!(
                r#"{{"ok":true,"payload":{}{},"policy":"p","outcome":[],"trace":[]}}"#,
                "[".repeat(depth),
                "]".repeat(depth)
            )
        };
        assert_reads_as_serde(&nested(MAX_DEPTH));
        assert_declines(&nested(MAX_DEPTH + 1));
        // serde reads it: its own limit is deeper.
        assert!(decode::<EvalResult>(nested(MAX_DEPTH + 1).as_bytes()).is_ok());
    }

    #[test]
    fn leaves_failures_and_anything_unusual_to_serde() {
        let answers = [
            // Not an ok answer, or not one that starts as the module writes it.
            r#"{"ok":false,"error":{"message":"m"}}"#,
            r#" {"ok":true,"policy":"p","outcome":[],"trace":[]}"#,
            r#"{"id":1,"ok":true,"policy":"p","outcome":[],"trace":[]}"#,
            // A failed evaluation.
            r#"{"ok":true,"error":{"kind":"runtime","message":"m"},"policy":"p","outcome":[],"trace":[]}"#,
            // Repeated, missing or mistyped members.
            r#"{"ok":true,"policy":"p","policy":"q","outcome":[],"trace":[]}"#,
            r#"{"ok":true,"policy":"p","outcome":[{"decision":"d","reason":"r","reason":"s"}],"trace":[]}"#,
            r#"{"ok":true,"outcome":[],"trace":[]}"#,
            r#"{"ok":true,"policy":"p","outcome":[{"decision":"d"}],"trace":[]}"#,
            r#"{"ok":true,"policy":null,"outcome":[],"trace":[]}"#,
            r#"{"ok":true,"policy":"p","outcome":null,"trace":[]}"#,
            r#"{"ok":true,"policy":"p","outcome":[],"trace":[],"collect":null}"#,
            r#"{"ok":true,"policy":"p","outcome":[{"decision":"d","reason":"r","chain":null}],"trace":[]}"#,
            // Strings serde refuses, or names with escapes.
            r#"{"ok":true,"policy":"\ud800","outcome":[],"trace":[]}"#,
            r#"{"ok":true,"policy":"\udc00","outcome":[],"trace":[]}"#,
            r#"{"ok":true,"policy":"\ud800\u0041","outcome":[],"trace":[]}"#,
            "{\"ok\":true,\"policy\":\"tab\there\",\"outcome\":[],\"trace\":[]}",
            r#"{"ok":true,"policy":"\x","outcome":[],"trace":[]}"#,
            r#"{"ok":true,"\u0070olicy":"p","outcome":[],"trace":[]}"#,
            // Numbers that aren't JSON, and syntax errors.
            r#"{"ok":true,"payload":01,"policy":"p","outcome":[],"trace":[]}"#,
            r#"{"ok":true,"payload":1.,"policy":"p","outcome":[],"trace":[]}"#,
            r#"{"ok":true,"payload":{"a":1,},"policy":"p","outcome":[],"trace":[]}"#,
            r#"{"ok":true,"policy":"p","outcome":[,],"trace":[]}"#,
            r#"{"ok":true,"policy":"p","outcome":[],"trace":[]}x"#,
            r#"{"ok":true,"policy":"p","outcome":[],"trace":[]"#,
            r#"{"ok":true"#,
            r#"{"ok":truest}"#,
        ];
        for answer in answers {
            assert_declines(answer);
        }
    }

    #[test]
    fn leaves_bytes_that_are_not_utf8_to_serde() {
        let mut answer = br#"{"ok":true,"policy":"p"#.to_vec();
        answer.push(0xff);
        answer.extend_from_slice(br#"","outcome":[],"trace":[]}"#);
        assert_eq!(read(&answer), None);
        assert!(decode::<EvalResult>(&answer).is_err());
    }
}
