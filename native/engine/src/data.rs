//! Data documents as written, before they are decoded against a type: an
//! eval input, a host function's result, a test file's input, stub values
//! and expected payloads (tooling §6.1.1). JSON and YAML both read into a
//! [`Data`] tree, so one decoder serves them all; [`parse_json`] reads JSON.

use std::collections::{HashMap, HashSet};

use crate::wire::{Cursor, Kind, SyntaxError, scan_first_value, skip_space};

/// Which syntax a document was written in: the decoder accepts a whole
/// YAML float such as `1.0` for an int, but not a JSON one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// JSON: numbers are kept exactly as written.
    Json,
    /// YAML.
    Yaml,
}

/// One value of a data document.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// `null` (YAML `~` and an empty value too).
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as written (`1`, `1.0`, `1e3`, `-0`).
    Number(String),
    /// A string.
    String(String),
    /// A list, in order.
    List(Vec<Data>),
    /// An object: its keys in the order written, each once.
    Object(Vec<(String, Data)>),
}

/// Dropping takes the tree apart with a stack rather than recursion: a
/// document may nest 10 000 levels, more than a wasm stack survives when
/// each level's drop calls the next. (So a `Data` can't be taken apart by
/// moving out of its variants; `std::mem::take` the vector instead.)
impl Drop for Data {
    fn drop(&mut self) {
        if !has_containers(self) {
            // Only scalars inside (most objects): they drop without nesting.
            return;
        }
        let mut pending = Vec::new();
        take_children(self, &mut pending);
        while let Some(mut child) = pending.pop() {
            // Emptied before it drops, so its own drop finds nothing.
            take_children(&mut child, &mut pending);
        }
    }
}

/// Whether `data` holds lists or objects.
fn has_containers(data: &Data) -> bool {
    let is_container = |d: &Data| matches!(d, Data::List(_) | Data::Object(_));
    match data {
        Data::List(items) => items.iter().any(is_container),
        Data::Object(members) => members.iter().any(|(_, v)| is_container(v)),
        _ => false,
    }
}

/// Moves the lists and objects `data` holds into `pending`; scalars among
/// them just drop.
fn take_children(data: &mut Data, pending: &mut Vec<Data>) {
    let is_container = |d: &Data| matches!(d, Data::List(_) | Data::Object(_));
    match data {
        Data::List(items) => pending.extend(items.drain(..).filter(is_container)),
        Data::Object(members) => {
            pending.extend(members.drain(..).map(|(_, v)| v).filter(is_container));
        }
        _ => {}
    }
}

impl Data {
    /// How decoder messages name what was found (`«found»`, tooling
    /// §6.1.1).
    pub fn found(&self) -> &'static str {
        match self {
            Data::Null => "null",
            Data::Bool(_) => "a boolean",
            Data::Number(_) => "a number",
            Data::String(_) => "a string",
            Data::List(_) => "a list",
            Data::Object(_) => "an object",
        }
    }
}

/// Reads one JSON document, as Go's `json.Unmarshal` into an `any` with
/// `UseNumber` would: numbers kept as written, strings decoded (invalid
/// UTF-8 and lone surrogates become U+FFFD), a key given twice keeping its
/// last value. Only whitespace may follow the value. The error is Go's text
/// (`unexpected EOF`, `invalid character 'x' looking for beginning of
/// value`); nesting deeper than Go's limit of 10 000 is one (`invalid
/// character '[' exceeded max depth`), so no document can exhaust the stack.
pub fn parse_json(bytes: &[u8]) -> Result<Data, String> {
    let (start, end) = scan_first_value(bytes).map_err(|e| e.go_text())?;
    let after = skip_space(bytes, end);
    if let Some(&byte) = bytes.get(after) {
        let error = SyntaxError::InvalidCharacter {
            byte,
            context: "after top-level value",
        };
        return Err(error.go_text());
    }
    Ok(parse_checked_json(
        bytes.get(start..end).unwrap_or_default(),
    ))
}

/// Reads one JSON value whose syntax was checked already, as
/// [`parse_json`] reads it: an eval input, checked with its request.
pub(crate) fn parse_checked_json(checked: &[u8]) -> Data {
    build(&mut Cursor::new(checked))
}

/// A list or object being read, with the key its next value goes under.
enum Open {
    List(Vec<Data>),
    Object(Vec<(String, Data)>, String),
}

/// Builds the tree of checked JSON with a stack of open containers rather
/// than recursion.
fn build(cursor: &mut Cursor<'_>) -> Data {
    let mut stack: Vec<Open> = Vec::new();
    let mut done = start_value(cursor, &mut stack);
    loop {
        if let Some(value) = done.take() {
            match stack.last_mut() {
                None => return value,
                Some(Open::List(items)) => items.push(value),
                Some(Open::Object(members, key)) => members.push((std::mem::take(key), value)),
            }
        }
        let more = match stack.last_mut() {
            None => return Data::Null,
            Some(Open::List(_)) => cursor.next_element(),
            Some(Open::Object(_, key)) => match cursor.next_key() {
                Some(text) => {
                    *key = text.into_owned();
                    true
                }
                None => false,
            },
        };
        done = if more {
            start_value(cursor, &mut stack)
        } else {
            match stack.pop() {
                Some(Open::List(items)) => Some(Data::List(items)),
                Some(Open::Object(members, _)) => Some(Data::Object(last_of_each_key(members))),
                None => None,
            }
        };
    }
}

/// `members` with a key given twice kept once, at its first place, with its
/// last value, as decoding into a Go map keeps it.
fn last_of_each_key(members: Vec<(String, Data)>) -> Vec<(String, Data)> {
    if all_keys_differ(&members) {
        return members;
    }
    let mut place: HashMap<String, usize> = HashMap::with_capacity(members.len());
    let mut out: Vec<(String, Data)> = Vec::with_capacity(members.len());
    for (key, value) in members {
        match place.get(&key).and_then(|&i| out.get_mut(i)) {
            Some((_, earlier)) => *earlier = value,
            None => {
                place.insert(key.clone(), out.len());
                out.push((key, value));
            }
        }
    }
    out
}

/// Whether no key is given twice: by comparing each with the ones before it
/// in a small object (most are), by hashing in a large one.
fn all_keys_differ(members: &[(String, Data)]) -> bool {
    const SMALL: usize = 16;
    if members.len() <= SMALL {
        return members
            .iter()
            .enumerate()
            .all(|(i, (key, _))| members.iter().take(i).all(|(earlier, _)| earlier != key));
    }
    let mut seen = HashSet::with_capacity(members.len());
    members.iter().all(|(key, _)| seen.insert(key.as_str()))
}

/// Reads the value at the cursor: a scalar whole, or the opening of a list
/// or object, which goes on the stack (`None`).
fn start_value(cursor: &mut Cursor<'_>, stack: &mut Vec<Open>) -> Option<Data> {
    let value = match cursor.kind() {
        Kind::Array => {
            cursor.enter();
            stack.push(Open::List(Vec::new()));
            return None;
        }
        Kind::Object => {
            cursor.enter();
            stack.push(Open::Object(Vec::new(), String::new()));
            return None;
        }
        Kind::String => Data::String(cursor.string().into_owned()),
        Kind::Number => Data::Number(String::from_utf8_lossy(cursor.raw_value()).into_owned()),
        Kind::Bool => Data::Bool(cursor.raw_value() == b"true"),
        Kind::Null => {
            cursor.raw_value();
            Data::Null
        }
    };
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> Data {
        Data::Number(text.to_owned())
    }

    fn string(text: &str) -> Data {
        Data::String(text.to_owned())
    }

    #[test]
    fn reads_every_kind_of_value() {
        let cases: Vec<(&str, Data)> = vec![
            ("null", Data::Null),
            (" true ", Data::Bool(true)),
            ("false", Data::Bool(false)),
            ("1.0", number("1.0")),
            ("-0", number("-0")),
            ("1e3", number("1e3")),
            ("12345678901234567890123", number("12345678901234567890123")),
            (r#""a\"\u00e9\ud83d\ude00""#, string("a\"é😀")),
            (r#""\ud800x""#, string("\u{fffd}x")),
            ("[]", Data::List(vec![])),
            ("{}", Data::Object(vec![])),
            (
                r#"[1, "x", [null], {"k": false}]"#,
                Data::List(vec![
                    number("1"),
                    string("x"),
                    Data::List(vec![Data::Null]),
                    Data::Object(vec![("k".to_owned(), Data::Bool(false))]),
                ]),
            ),
            (
                r#"{"b": 1, "a": {"c": []}, "b": 2, "a": {"d": 3}, "e": 4}"#,
                Data::Object(vec![
                    ("b".to_owned(), number("2")),
                    (
                        "a".to_owned(),
                        Data::Object(vec![("d".to_owned(), number("3"))]),
                    ),
                    ("e".to_owned(), number("4")),
                ]),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse_json(text.as_bytes()), Ok(want), "{text}");
        }
    }

    #[test]
    fn invalid_utf8_in_strings_becomes_replacement_characters() {
        assert_eq!(
            parse_json(b"{\"\xff\": \"a\xe2\x82\"}"),
            Ok(Data::Object(vec![(
                "\u{fffd}".to_owned(),
                string("a\u{fffd}\u{fffd}")
            )]))
        );
    }

    #[test]
    fn errors_are_go_s_texts() {
        let cases = [
            ("", "EOF"),
            ("  ", "EOF"),
            ("[1,", "unexpected EOF"),
            ("{\"a\" 1}", "invalid character '1' after object key"),
            ("nul", "unexpected EOF"),
            ("01", "invalid character '1' after top-level value"),
            ("{} {}", "invalid character '{' after top-level value"),
            ("1 x", "invalid character 'x' after top-level value"),
            (
                "'a'",
                "invalid character '\\'' looking for beginning of value",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse_json(text.as_bytes()), Err(want.to_owned()), "{text}");
        }
    }

    #[test]
    fn the_deepest_document_reads_and_drops_on_a_small_stack() {
        let deepest = format!("{}1{}", "[{\"a\":".repeat(5_000), "}]".repeat(5_000));
        let worker = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || parse_json(deepest.as_bytes()).map(drop))
            .unwrap();
        assert_eq!(worker.join().unwrap(), Ok(()));
    }

    #[test]
    fn nesting_is_bounded_without_recursion() {
        const LIMIT: usize = 10_000;
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        for depth in [LIMIT - 1, LIMIT] {
            let data = parse_json(nested(depth).as_bytes()).unwrap();
            let mut levels = 1;
            let mut at = &data;
            while let Data::List(items) = at {
                let Some(inner) = items.first() else { break };
                at = inner;
                levels += 1;
            }
            assert_eq!(levels, depth, "depth {depth}");
        }
        let too_deep = "invalid character '[' exceeded max depth".to_owned();
        assert_eq!(
            parse_json(nested(LIMIT + 1).as_bytes()),
            Err(too_deep.clone())
        );
        assert_eq!(parse_json("[".repeat(100_000).as_bytes()), Err(too_deep));
        let objects = format!("{}1{}", "{\"a\":".repeat(LIMIT + 1), "}".repeat(LIMIT + 1));
        assert_eq!(
            parse_json(objects.as_bytes()),
            Err("invalid character '{' exceeded max depth".to_owned())
        );
    }
}
