//! Decoding a request (module-abi.md §2.1): the `id` on its own first, then
//! every field, strictly.
//!
//! Requests are decoded as the reference decodes them with Go's
//! `encoding/json` (a `Decoder` with unknown fields disallowed), because its
//! behaviour and error texts are what hosts and goldens know:
//!
//! * one JSON object; leading whitespace is skipped and bytes after the
//!   object are ignored, as Go's decoder does;
//! * a key that names no field of any op fails the request with
//!   `json: unknown field "«key»"`, in nested File and Requirement objects
//!   too; keys match field names case-insensitively (`"OP"` is `op`), and for
//!   a key given twice the last value wins;
//! * a value of the wrong JSON type fails the request with Go's
//!   `json: cannot unmarshal «kind» into Go struct field «Struct».«path» of
//!   type «type»`; `null` leaves a field as it was; integers must be written
//!   as integers (`"timeout_ms": 1.5` and `"handle": -1` fail);
//! * of several problems the first one in the text is reported, except that
//!   an `id` string that isn't a number fails at once, as in Go.
//!
//! Where our texts differ from the reference's (spec open point 5):
//! the Go type names in type errors (`engine.request`, `engine.File`,
//! `[]engine.Requirement`, …) are the reference's as far as we know them;
//! a top-level `null` fails with `json: cannot unmarshal null into Go value
//! of type engine.request` where Go would read it as an empty request (a
//! request must be an object: anything else is reserved for other
//! encodings); when a key repeats, a list or object is replaced, where Go
//! merges the new elements into the old ones.
//!
//! The id echo (§2.2) follows the reference: the id is read from the whole
//! request on its own ([`read_id`]), so a request that fails decoding still
//! gets it back; only a JSON number is echoed, as written (`1.50`, `1e3`).
//! A string holding a number is accepted as an id but not echoed; any other
//! string fails decoding, as in Go.

use std::borrow::Cow;
use std::collections::BTreeMap;

use crate::diag::go_quote_bytes;

use crate::wire::{Cursor, Kind, SyntaxError, is_number, scan_first_value, skip_space, unquote};

/// A request whose syntax has been checked once, for [`read_id`] and
/// [`decode`] to share.
pub(crate) struct Checked<'a> {
    bytes: &'a [u8],
    /// Where the first JSON value is, or why there is none.
    value: Result<(usize, usize), SyntaxError>,
}

/// Checks the syntax of a request's first JSON value.
pub(crate) fn check(bytes: &[u8]) -> Checked<'_> {
    Checked {
        bytes,
        value: scan_first_value(bytes),
    }
}

impl<'a> Checked<'a> {
    fn first_value(&self) -> Option<&'a [u8]> {
        let (start, end) = self.value.as_ref().ok()?;
        self.bytes.get(*start..*end)
    }
}

/// JSON text kept as it was written, such as an eval `input`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawJson<'a>(pub(crate) &'a [u8]);

/// Every field any op reads (the union of §2.1), as decoding fills it.
/// [`super::op_request::Envelope`] splits it into the op's own request.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Fields<'a> {
    /// The id to echo: a JSON number, as written.
    pub(crate) id: Option<&'a str>,
    /// Empty when absent.
    pub(crate) op: Cow<'a, str>,
    pub(crate) files: Vec<File<'a>>,
    pub(crate) trusted_files: Vec<File<'a>>,
    pub(crate) test_files: Vec<File<'a>>,
    pub(crate) data_files: Vec<File<'a>>,
    pub(crate) policies: Vec<Cow<'a, str>>,
    pub(crate) policy: Cow<'a, str>,
    pub(crate) require: Vec<Requirement<'a>>,
    pub(crate) lints: BTreeMap<Cow<'a, str>, Cow<'a, str>>,
    /// `None` when absent or `null`.
    pub(crate) stubs: Option<RawJson<'a>>,
    pub(crate) functions: Vec<Cow<'a, str>>,
    /// `None` when absent or `null`.
    pub(crate) input: Option<RawJson<'a>>,
    pub(crate) timeout_ms: i64,
    /// 0 when absent: no handle.
    pub(crate) handle: u32,
    /// `None` when absent or `null`, unlike an empty source.
    pub(crate) source: Option<Cow<'a, str>>,
    pub(crate) path: Cow<'a, str>,
    pub(crate) run: Cow<'a, str>,
    /// Our extension of eval (engine README, "ABI extensions"): `Some(false)`
    /// leaves the record's trace out; `None` when absent or `null`.
    pub(crate) trace: Option<bool>,
}

/// A virtual file (§3).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct File<'a> {
    pub(crate) path: Cow<'a, str>,
    pub(crate) source: Cow<'a, str>,
}

/// A required policy (check's and compile's `require`).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Requirement<'a> {
    pub(crate) policy: Cow<'a, str>,
    /// `None` when absent, so compile can refuse a present one.
    pub(crate) trusted: Option<Vec<Cow<'a, str>>>,
    pub(crate) roots: Option<Vec<Cow<'a, str>>>,
}

/// Why a request couldn't be decoded: Go's decoder text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DecodeError(pub(crate) String);

/// The id to echo for a request, read on its own as the reference reads it
/// (with Go's `json.Unmarshal` into a struct of just the id): the whole
/// request must be one JSON object, with nothing but whitespace after it,
/// whose last `id` is a number. An id that isn't a number, or isn't valid
/// for one, leaves nothing to echo.
pub(crate) fn read_id<'a>(checked: &Checked<'a>) -> Option<&'a str> {
    let (_, end) = checked.value.as_ref().ok()?;
    if skip_space(checked.bytes, *end) != checked.bytes.len() {
        return None;
    }
    let mut cursor = Cursor::new(checked.first_value()?);
    if cursor.kind() != Kind::Object {
        return None;
    }
    cursor.enter();
    let mut id = None;
    while let Some(key) = cursor.next_key() {
        if !key_names(&key, "id") {
            cursor.raw_value();
            continue;
        }
        id = match cursor.kind() {
            Kind::Number => Some(cursor.raw_value()),
            Kind::Null => {
                cursor.raw_value();
                None
            }
            Kind::String if is_number(cursor.string().as_bytes()) => None,
            Kind::String | Kind::Bool | Kind::Array | Kind::Object => return None,
        };
    }
    std::str::from_utf8(id?).ok()
}

/// Decodes every field of a request strictly (see the module doc).
pub(crate) fn decode<'a>(checked: &Checked<'a>) -> Result<Fields<'a>, DecodeError> {
    let value = match &checked.value {
        Ok(_) => checked.first_value().unwrap_or_default(),
        Err(error) => return Err(DecodeError(error.go_text())),
    };
    let mut cursor = Cursor::new(value);
    match cursor.kind() {
        Kind::Object => {}
        kind => {
            return Err(DecodeError(format!(
                "json: cannot unmarshal {} into Go value of type engine.request",
                kind.go_name()
            )));
        }
    }
    let mut decoder = Decoder::default();
    let mut request = Fields::default();
    cursor.enter();
    while let Some(key) = cursor.next_key() {
        match Field::named(&key) {
            Some(field) => decoder.field(&mut request, field, &mut cursor)?,
            None => decoder.unknown_field(&key, &mut cursor),
        }
    }
    match decoder.first_error {
        Some(error) => Err(DecodeError(error)),
        None => Ok(request),
    }
}

/// The request's fields, by their JSON names.
#[derive(Debug, Clone, Copy)]
enum Field {
    Op,
    Id,
    Files,
    TrustedFiles,
    TestFiles,
    DataFiles,
    Policies,
    Policy,
    Require,
    Lints,
    Stubs,
    Functions,
    Input,
    TimeoutMs,
    Handle,
    Source,
    Path,
    Run,
    Trace,
}

impl Field {
    const ALL: [(&'static str, Field); 19] = [
        ("op", Field::Op),
        ("id", Field::Id),
        ("files", Field::Files),
        ("trusted_files", Field::TrustedFiles),
        ("test_files", Field::TestFiles),
        ("data_files", Field::DataFiles),
        ("policies", Field::Policies),
        ("policy", Field::Policy),
        ("require", Field::Require),
        ("lints", Field::Lints),
        ("stubs", Field::Stubs),
        ("functions", Field::Functions),
        ("input", Field::Input),
        ("timeout_ms", Field::TimeoutMs),
        ("handle", Field::Handle),
        ("source", Field::Source),
        ("path", Field::Path),
        ("run", Field::Run),
        ("trace", Field::Trace),
    ];

    fn named(key: &str) -> Option<(Field, &'static str)> {
        let exact = Self::ALL.iter().find(|(name, _)| *name == key);
        exact
            .or_else(|| Self::ALL.iter().find(|(name, _)| key_names(key, name)))
            .map(|&(name, field)| (field, name))
    }
}

/// Whether a JSON key names the field `name` (lower-case ASCII), as Go
/// matches keys: exactly, or equal after Go's case folding, under which
/// `ſ` is `s`, the Kelvin sign is `k`, and `ı` and `İ` are `i`.
fn key_names(key: &str, name: &str) -> bool {
    let mut name = name.bytes();
    for c in key.chars() {
        let folded = match c {
            'ſ' => 'S',
            '\u{212a}' => 'K',
            'ı' | 'İ' => 'I',
            _ => c.to_ascii_uppercase(),
        };
        if name.next().map(|b| char::from(b.to_ascii_uppercase())) != Some(folded) {
            return false;
        }
    }
    name.next().is_none()
}

/// Where a value goes, for Go's type errors: the Go struct that holds the
/// field and the path of JSON names to it.
#[derive(Clone, Copy)]
struct Place {
    go_struct: &'static str,
    parent: Option<&'static str>,
    field: &'static str,
}

impl Place {
    fn top(field: &'static str) -> Self {
        Self {
            go_struct: "request",
            parent: None,
            field,
        }
    }

    fn nested(go_struct: &'static str, parent: &'static str, field: &'static str) -> Self {
        Self {
            go_struct,
            parent: Some(parent),
            field,
        }
    }
}

/// Keeps the first type error or unknown field, as Go's decoder does, while
/// decoding goes on to the end.
#[derive(Default)]
struct Decoder {
    first_error: Option<String>,
}

impl Decoder {
    fn save(&mut self, error: String) {
        self.first_error.get_or_insert(error);
    }

    fn unknown_field(&mut self, key: &str, cursor: &mut Cursor<'_>) {
        self.save(format!(
            "json: unknown field {}",
            go_quote_bytes(key.as_bytes())
        ));
        cursor.raw_value();
    }

    /// Records Go's type error for a value of `kind` (or, for integers, the
    /// number `text`) at `place` of Go type `go_type`.
    fn type_error(&mut self, what: &str, place: Place, go_type: &str) {
        let path = match place.parent {
            Some(parent) => format!("{parent}.{}", place.field),
            None => place.field.to_owned(),
        };
        self.save(format!(
            "json: cannot unmarshal {what} into Go struct field {}.{path} of type {go_type}",
            place.go_struct
        ));
    }

    /// Skips a value of the wrong kind and records why.
    fn wrong_kind(&mut self, cursor: &mut Cursor<'_>, place: Place, go_type: &str) {
        let kind = cursor.kind();
        cursor.raw_value();
        self.type_error(kind.go_name(), place, go_type);
    }

    fn field<'a>(
        &mut self,
        request: &mut Fields<'a>,
        (field, name): (Field, &'static str),
        cursor: &mut Cursor<'a>,
    ) -> Result<(), DecodeError> {
        let place = Place::top(name);
        match field {
            Field::Id => {
                if let Some(id) = self.id(cursor, place)? {
                    request.id = id;
                }
            }
            Field::Op => set(&mut request.op, self.string(cursor, place)),
            Field::Policy => set(&mut request.policy, self.string(cursor, place)),
            Field::Path => set(&mut request.path, self.string(cursor, place)),
            Field::Run => set(&mut request.run, self.string(cursor, place)),
            Field::Source => {
                if let Some(source) = self.string(cursor, place) {
                    request.source = Some(source);
                }
            }
            Field::Files => set(&mut request.files, self.files(cursor, name)),
            Field::TrustedFiles => set(&mut request.trusted_files, self.files(cursor, name)),
            Field::TestFiles => set(&mut request.test_files, self.files(cursor, name)),
            Field::DataFiles => set(&mut request.data_files, self.files(cursor, name)),
            Field::Policies => set(&mut request.policies, self.strings(cursor, place)),
            Field::Functions => set(&mut request.functions, self.strings(cursor, place)),
            Field::Require => set(&mut request.require, self.requirements(cursor)),
            Field::Lints => self.lints(cursor, &mut request.lints),
            Field::Stubs => set_raw(&mut request.stubs, cursor),
            Field::Input => set_raw(&mut request.input, cursor),
            Field::TimeoutMs => set(
                &mut request.timeout_ms,
                self.integer(cursor, place, "int64"),
            ),
            Field::Handle => set(&mut request.handle, self.integer(cursor, place, "uint32")),
            Field::Trace => set_some(&mut request.trace, self.boolean(cursor, place)),
        }
        Ok(())
    }

    /// An id as Go reads a `*json.Number`: `Some(Some(number))`, or
    /// `Some(None)` for `null` and for a string holding a number (accepted,
    /// never echoed); `None` after a type error. A string that isn't a
    /// number fails at once.
    fn id<'a>(
        &mut self,
        cursor: &mut Cursor<'a>,
        place: Place,
    ) -> Result<Option<Option<&'a str>>, DecodeError> {
        match cursor.kind() {
            Kind::Number => Ok(Some(std::str::from_utf8(cursor.raw_value()).ok())),
            Kind::Null => {
                cursor.raw_value();
                Ok(Some(None))
            }
            Kind::String => {
                let raw = cursor.raw_value();
                let text = unquote(raw.get(1..raw.len().saturating_sub(1)).unwrap_or_default());
                if is_number(text.as_bytes()) {
                    Ok(Some(None))
                } else {
                    Err(DecodeError(format!(
                        "json: invalid number literal, trying to unmarshal {} into Number",
                        go_quote_bytes(raw)
                    )))
                }
            }
            Kind::Bool | Kind::Array | Kind::Object => {
                self.wrong_kind(cursor, place, "json.Number");
                Ok(None)
            }
        }
    }

    /// A string; `None` for `null` or a wrong kind.
    fn string<'a>(&mut self, cursor: &mut Cursor<'a>, place: Place) -> Option<Cow<'a, str>> {
        match cursor.kind() {
            Kind::String => Some(cursor.string()),
            Kind::Null => {
                cursor.raw_value();
                None
            }
            _ => {
                self.wrong_kind(cursor, place, "string");
                None
            }
        }
    }

    /// A list of strings; a `null` element is an empty string.
    fn strings<'a>(&mut self, cursor: &mut Cursor<'a>, place: Place) -> Option<Vec<Cow<'a, str>>> {
        self.list(cursor, place, "[]string", |decoder, cursor| {
            decoder.string(cursor, place).unwrap_or_default()
        })
    }

    /// A list whose elements `element` decodes; `None` for `null` or a
    /// wrong kind.
    fn list<'a, T>(
        &mut self,
        cursor: &mut Cursor<'a>,
        place: Place,
        go_type: &str,
        mut element: impl FnMut(&mut Self, &mut Cursor<'a>) -> T,
    ) -> Option<Vec<T>> {
        match cursor.kind() {
            Kind::Array => {
                cursor.enter();
                let mut items = Vec::new();
                while cursor.next_element() {
                    items.push(element(self, cursor));
                }
                Some(items)
            }
            Kind::Null => {
                cursor.raw_value();
                None
            }
            _ => {
                self.wrong_kind(cursor, place, go_type);
                None
            }
        }
    }

    /// Walks the members of the object at the cursor, or records a type
    /// error when it holds another kind; `false` when there was no object.
    fn object<'a>(
        &mut self,
        cursor: &mut Cursor<'a>,
        place: Place,
        go_type: &str,
        mut member: impl FnMut(&mut Self, Cow<'a, str>, &mut Cursor<'a>),
    ) -> bool {
        match cursor.kind() {
            Kind::Object => {
                cursor.enter();
                while let Some(key) = cursor.next_key() {
                    member(self, key, cursor);
                }
                true
            }
            Kind::Null => {
                cursor.raw_value();
                false
            }
            _ => {
                self.wrong_kind(cursor, place, go_type);
                false
            }
        }
    }

    fn files<'a>(&mut self, cursor: &mut Cursor<'a>, list: &'static str) -> Option<Vec<File<'a>>> {
        let place = Place::top(list);
        self.list(cursor, place, "[]engine.File", |decoder, cursor| {
            let mut file = File::default();
            decoder.object(
                cursor,
                place,
                "engine.File",
                |decoder, key, cursor| match key.as_ref() {
                    k if key_names(k, "path") => set(
                        &mut file.path,
                        decoder.string(cursor, Place::nested("File", list, "path")),
                    ),
                    k if key_names(k, "source") => set(
                        &mut file.source,
                        decoder.string(cursor, Place::nested("File", list, "source")),
                    ),
                    k => decoder.unknown_field(k, cursor),
                },
            );
            file
        })
    }

    fn requirements<'a>(&mut self, cursor: &mut Cursor<'a>) -> Option<Vec<Requirement<'a>>> {
        let place = Place::top("require");
        self.list(cursor, place, "[]engine.Requirement", |decoder, cursor| {
            let mut requirement = Requirement::default();
            let at = |field| Place::nested("Requirement", "require", field);
            decoder.object(
                cursor,
                place,
                "engine.Requirement",
                |decoder, key, cursor| match key.as_ref() {
                    k if key_names(k, "policy") => set(
                        &mut requirement.policy,
                        decoder.string(cursor, at("policy")),
                    ),
                    k if key_names(k, "trusted") => set_some(
                        &mut requirement.trusted,
                        decoder.strings(cursor, at("trusted")),
                    ),
                    k if key_names(k, "roots") => {
                        set_some(&mut requirement.roots, decoder.strings(cursor, at("roots")))
                    }
                    k => decoder.unknown_field(k, cursor),
                },
            );
            requirement
        })
    }

    /// `lints`, a map of strings: a repeated `lints` adds to the map, as Go
    /// decodes into the map it already has.
    fn lints<'a>(
        &mut self,
        cursor: &mut Cursor<'a>,
        lints: &mut BTreeMap<Cow<'a, str>, Cow<'a, str>>,
    ) {
        let place = Place::top("lints");
        self.object(
            cursor,
            place,
            "map[string]string",
            |decoder, key, cursor| {
                let level = decoder.string(cursor, place).unwrap_or_default();
                lints.insert(key, level);
            },
        );
    }

    /// A boolean; `None` for `null` or a wrong kind.
    fn boolean(&mut self, cursor: &mut Cursor<'_>, place: Place) -> Option<bool> {
        match cursor.kind() {
            Kind::Bool => Some(cursor.raw_value() == b"true"),
            Kind::Null => {
                cursor.raw_value();
                None
            }
            _ => {
                self.wrong_kind(cursor, place, "bool");
                None
            }
        }
    }

    /// An integer of Go type `go_type` (`int64` or `uint32`), written as
    /// an integer that fits it.
    fn integer<T: std::str::FromStr>(
        &mut self,
        cursor: &mut Cursor<'_>,
        place: Place,
        go_type: &str,
    ) -> Option<T> {
        match cursor.kind() {
            Kind::Number => {
                let text = std::str::from_utf8(cursor.raw_value()).unwrap_or_default();
                // `str::parse` takes a leading `+`, which JSON never has, and
                // refuses `-0` for unsigned types, as Go's ParseUint does.
                let value = text.parse().ok();
                if value.is_none() {
                    self.type_error(&format!("number {text}"), place, go_type);
                }
                value
            }
            Kind::Null => {
                cursor.raw_value();
                None
            }
            _ => {
                self.wrong_kind(cursor, place, go_type);
                None
            }
        }
    }
}

/// Stores a decoded value; `None` (a `null` or a wrong kind) leaves the
/// field as it was, as Go does.
fn set<T>(field: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *field = value;
    }
}

fn set_some<T>(field: &mut Option<T>, value: Option<T>) {
    if value.is_some() {
        *field = value;
    }
}

fn set_raw<'a>(field: &mut Option<RawJson<'a>>, cursor: &mut Cursor<'a>) {
    let null = cursor.kind() == Kind::Null;
    let raw = cursor.raw_value();
    if !null {
        *field = Some(RawJson(raw));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(text: &str) -> Result<Fields<'_>, String> {
        decode(&check(text.as_bytes())).map_err(|DecodeError(e)| e)
    }

    fn failure(text: &str) -> String {
        match decoded(text) {
            Ok(request) => format!("decoded: {request:?}"),
            Err(error) => error,
        }
    }

    fn id(text: &str) -> Option<&str> {
        read_id(&check(text.as_bytes()))
    }

    #[test]
    fn every_field_of_every_op_decodes() {
        let text = r#"{"op":"compile","id":7,
            "files":[{"path":"a.sigil","source":"s"}],"trusted_files":[{"path":"t.sigil","source":"t"}],
            "test_files":[{"path":"a_test.yaml","source":"x"}],"data_files":[{"path":"d.yaml","source":"d"}],
            "policies":["a.*"],"policy":"a.b","require":[{"policy":"p","trusted":["t"],"roots":["r.*"]}],
            "lints":{"unused-let":"off"},"stubs":{"f":{"returns":1}},"functions":["f"],
            "input":{"n":1.50},"timeout_ms":-5,"handle":4294967295,"source":"","path":"p.sigil","run":"^a$",
            "trace":false}"#;
        let request = decoded(text).unwrap();
        let file = |path: &'static str, source: &'static str| File {
            path: path.into(),
            source: source.into(),
        };
        let want = Fields {
            id: Some("7"),
            op: "compile".into(),
            files: vec![file("a.sigil", "s")],
            trusted_files: vec![file("t.sigil", "t")],
            test_files: vec![file("a_test.yaml", "x")],
            data_files: vec![file("d.yaml", "d")],
            policies: vec!["a.*".into()],
            policy: "a.b".into(),
            require: vec![Requirement {
                policy: "p".into(),
                trusted: Some(vec!["t".into()]),
                roots: Some(vec!["r.*".into()]),
            }],
            lints: [("unused-let".into(), "off".into())].into_iter().collect(),
            stubs: Some(RawJson(br#"{"f":{"returns":1}}"#)),
            functions: vec!["f".into()],
            input: Some(RawJson(br#"{"n":1.50}"#)),
            timeout_ms: -5,
            handle: u32::MAX,
            source: Some("".into()),
            path: "p.sigil".into(),
            run: "^a$".into(),
            trace: Some(false),
        };
        assert_eq!(request, want);
    }

    #[test]
    fn absent_and_null_fields_keep_their_defaults() {
        assert_eq!(decoded("{}").unwrap(), Fields::default());
        let nulls = r#"{"op":null,"id":null,"files":null,"require":null,"lints":null,"stubs":null,"input":null,
            "timeout_ms":null,"handle":null,"source":null,"path":null,"policies":[null],"trusted_files":[null]}"#;
        let request = decoded(nulls).unwrap();
        assert_eq!(request.source, None);
        assert_eq!(request.input, None);
        assert_eq!(request.policies, vec![Cow::Borrowed("")]);
        assert_eq!(request.trusted_files, vec![File::default()]);
        assert_eq!(
            decoded(r#"{"op":"version","op":null}"#).unwrap().op,
            "version"
        );
    }

    /// Go's decoder texts for the ways a request fails decoding.
    #[test]
    fn decoding_fails_with_go_s_texts() {
        let cases: &[(&str, &str)] = &[
            ("", "EOF"),
            (
                "oops",
                "invalid character 'o' looking for beginning of value",
            ),
            (r#"{"op":"eval","id":8,"#, "unexpected EOF"),
            (
                r#"{"op":"eval","timeoutMs":10}"#,
                r#"json: unknown field "timeoutMs""#,
            ),
            (
                r#"{"op":"check","files":[{"path":"a","mode":1}]}"#,
                r#"json: unknown field "mode""#,
            ),
            (
                r#"{"op":"check","require":[{"policy":"p","root":[]}]}"#,
                r#"json: unknown field "root""#,
            ),
            (
                r#"{"op":"eval","handle":"one"}"#,
                "json: cannot unmarshal string into Go struct field request.handle of type uint32",
            ),
            (
                r#"{"op":"eval","timeout_ms":1.5}"#,
                "json: cannot unmarshal number 1.5 into Go struct field request.timeout_ms of type int64",
            ),
            (
                r#"{"op":"eval","trace":"no"}"#,
                "json: cannot unmarshal string into Go struct field request.trace of type bool",
            ),
            (
                r#"{"op":"eval","timeout_ms":1e3}"#,
                "json: cannot unmarshal number 1e3 into Go struct field request.timeout_ms of type int64",
            ),
            (
                r#"{"op":"eval","handle":-1}"#,
                "json: cannot unmarshal number -1 into Go struct field request.handle of type uint32",
            ),
            (
                r#"{"op":"eval","handle":-0}"#,
                "json: cannot unmarshal number -0 into Go struct field request.handle of type uint32",
            ),
            (
                r#"{"op":"eval","handle":4294967296}"#,
                "json: cannot unmarshal number 4294967296 into Go struct field request.handle of type uint32",
            ),
            (
                r#"{"op":7}"#,
                "json: cannot unmarshal number into Go struct field request.op of type string",
            ),
            (
                r#"{"files":{}}"#,
                "json: cannot unmarshal object into Go struct field request.files of type []engine.File",
            ),
            (
                r#"{"files":["a"]}"#,
                "json: cannot unmarshal string into Go struct field request.files of type engine.File",
            ),
            (
                r#"{"test_files":[{"path":true}]}"#,
                "json: cannot unmarshal bool into Go struct field File.test_files.path of type string",
            ),
            (
                r#"{"require":[{"trusted":"t"}]}"#,
                "json: cannot unmarshal string into Go struct field Requirement.require.trusted of type []string",
            ),
            (
                r#"{"policies":[1]}"#,
                "json: cannot unmarshal number into Go struct field request.policies of type string",
            ),
            (
                r#"{"lints":{"a":1}}"#,
                "json: cannot unmarshal number into Go struct field request.lints of type string",
            ),
            (
                r#"{"lints":[]}"#,
                "json: cannot unmarshal array into Go struct field request.lints of type map[string]string",
            ),
            (
                r#"{"id":true}"#,
                "json: cannot unmarshal bool into Go struct field request.id of type json.Number",
            ),
            (
                r#"{"id":"x"}"#,
                r#"json: invalid number literal, trying to unmarshal "\"x\"" into Number"#,
            ),
            (
                "[1]",
                "json: cannot unmarshal array into Go value of type engine.request",
            ),
            (
                "\"op\"",
                "json: cannot unmarshal string into Go value of type engine.request",
            ),
            (
                "7",
                "json: cannot unmarshal number into Go value of type engine.request",
            ),
            (
                "null",
                "json: cannot unmarshal null into Go value of type engine.request",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(failure(input), *want, "request {input}");
        }
    }

    #[test]
    fn the_first_problem_in_the_text_is_reported() {
        assert_eq!(
            failure(r#"{"verbose":1,"handle":"x"}"#),
            r#"json: unknown field "verbose""#
        );
        assert_eq!(
            failure(r#"{"handle":"x","verbose":1}"#),
            "json: cannot unmarshal string into Go struct field request.handle of type uint32"
        );
        // An id string that isn't a number stops Go's decoder at once.
        assert_eq!(
            failure(r#"{"verbose":1,"id":"x"}"#),
            r#"json: invalid number literal, trying to unmarshal "\"x\"" into Number"#
        );
    }

    #[test]
    fn keys_match_as_go_matches_them() {
        assert_eq!(decoded(r#"{"OP":"version"}"#).unwrap().op, "version");
        assert_eq!(decoded(r#"{"Timeout_MS":3}"#).unwrap().timeout_ms, 3);
        assert_eq!(decoded(r#"{"\u006fp":"version"}"#).unwrap().op, "version");
        assert_eq!(
            decoded("{\"fileſ\":[{\"PATH\":\"a\"}]}").unwrap().files,
            vec![File {
                path: "a".into(),
                source: "".into()
            }]
        );
        assert_eq!(
            decoded(r#"{"op":"x","op":"version"}"#).unwrap().op,
            "version"
        );
        assert_eq!(
            failure(r#"{"o_p":"version"}"#),
            r#"json: unknown field "o_p""#
        );
    }

    #[test]
    fn bytes_after_the_object_are_ignored_as_go_does() {
        assert_eq!(
            decoded(r#" {"op":"version"} trailing"#).unwrap().op,
            "version"
        );
    }

    #[test]
    fn the_id_is_read_on_its_own() {
        let cases: &[(&str, Option<&str>)] = &[
            (r#"{"op":"version","id":7}"#, Some("7")),
            (r#"{"id":1.50}"#, Some("1.50")),
            (r#"{"id":1e3}"#, Some("1e3")),
            (r#"{"id":-0}"#, Some("-0")),
            (r#"{"ID":5}"#, Some("5")),
            (r#"{"id":1,"id":2}"#, Some("2")),
            (r#"{"id":null}"#, None),
            (r#"{"id":"7"}"#, None),
            (r#"{"op":"version"}"#, None),
            // Echoed although decoding fails.
            (
                r#"{"op":"eval","id":5,"handle":1,"timeoutMs":10}"#,
                Some("5"),
            ),
            (r#"{"op":"eval","handle":"one","id":6}"#, Some("6")),
            (r#"{"files":[{"x":1}],"id":9}"#, Some("9")),
            // Nothing to echo.
            (r#"{"op":"eval","id":8,"#, None),
            (r#"{"id":7} x"#, None),
            (r#"[{"id":7}]"#, None),
            (r#"{"id":"x"}"#, None),
            (r#"{"id":true}"#, None),
            (r#"{"id":7,"id":[7]}"#, None),
            (r#"{"input":{"id":7}}"#, None),
        ];
        for (input, want) in cases {
            assert_eq!(id(input), *want, "request {input}");
        }
    }

    #[test]
    fn the_decoded_id_is_a_number_or_nothing() {
        assert_eq!(decoded(r#"{"id":1.50}"#).unwrap().id, Some("1.50"));
        assert_eq!(decoded(r#"{"id":"7"}"#).unwrap().id, None);
        assert_eq!(decoded(r#"{"id":7,"id":null}"#).unwrap().id, None);
        // Unlike read_id, bytes after the object don't matter here.
        assert_eq!(decoded(r#"{"id":7} x"#).unwrap().id, Some("7"));
    }

    #[test]
    fn deep_nesting_fails_decoding_cleanly() {
        let deep = format!(
            r#"{{"op":"eval","input":{}{}}}"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert_eq!(failure(&deep), "invalid character '[' exceeded max depth");
        let allowed = format!(
            r#"{{"op":"eval","input":{}{}}}"#,
            "[".repeat(9_999),
            "]".repeat(9_999)
        );
        assert_eq!(
            decoded(&allowed)
                .unwrap()
                .input
                .map(|RawJson(raw)| raw.len()),
            Some(19_998)
        );
    }

    #[test]
    fn strings_are_unescaped() {
        let request = decoded(r#"{"source":"a\n\u00e9\ud83d\ude00","path":"x\ud800"}"#).unwrap();
        assert_eq!(request.source.as_deref(), Some("a\né😀"));
        assert_eq!(request.path, "x\u{fffd}");
    }
}
