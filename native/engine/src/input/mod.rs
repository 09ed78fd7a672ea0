//! Decodes data documents against the kind's types (tooling §6.1.1,
//! language-core §6.5): an eval input, a test case's input, a host
//! function's result (path `result`), stub values and expected payload
//! values all become [`Value`]s here, by one decoder with one set of
//! messages.
//!
//! The rules are the reference's: object keys are walked in sorted (byte)
//! order and the first problem stops the walk; a missing key is the type's
//! [zero value](zero_value), an extra key an error; `null` is a value only
//! for optionals, lists and maps; durations are strings in Sigil's syntax,
//! timestamps RFC 3339 strings, enum values strings naming a value; map
//! keys are strings parsed by the key type. Every error names the path to
//! the value (`actor.name`, `labels["team"]`, `regions[3]`) and says what
//! to do about it.
//!
//! Numbers depend on the syntax: JSON keeps them as written, so an int
//! must be written as one (`1.0` is not an int); YAML reads `1.0` as a
//! float, which an int takes when it is whole (`number.rs`).

mod number;
mod straight;

use std::collections::HashMap;
use std::rc::Rc;

use crate::data::{Data, Syntax};
use crate::diag::{declared_help, go_quote};
use crate::kind::Kind;
use crate::lexer::duration_nanos;
use crate::types::Ty;
use crate::value::{Timestamp, Value, parse_rfc3339};
use number::{YamlNumber, go_bool, go_float, go_int, yaml_number};
pub use straight::decode_json_input;

/// A value that doesn't fit its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// `«path»: «what»`, or just `«what»` when the path is empty.
    pub message: String,
    /// What to do about it.
    pub advice: String,
}

/// The advice when a problem has none of its own.
const DEFAULT_ADVICE: &str = "give the value the type the kind declares for it";

/// Decodes an input document: one value per input of `kind`, in
/// declaration order, a missing key giving the input's zero value.
pub fn decode_input(data: &Data, syntax: Syntax, kind: &Kind) -> Result<Vec<Value>, DecodeError> {
    let names = || -> Vec<&str> { kind.inputs.iter().map(|i| i.name.as_str()).collect() };
    let Data::Object(members) = data else {
        return Err(error(
            &Path::Root(""),
            format!(
                "the input must be an object with one key per input, found {}",
                data.found()
            ),
            format!("the kind declares: {}", names().join(", ")),
        ));
    };
    let decoder = Decoder { kind, syntax };
    let mut values: Vec<Option<Value>> = vec![None; kind.inputs.len()];
    for (key, value) in sorted(members) {
        let Some((input, slot)) = kind
            .inputs
            .iter()
            .zip(values.iter_mut())
            .find(|(input, _)| input.name == *key)
        else {
            let what = format!("unknown input {}", go_quote(key));
            return Err(unknown_key(key, &Path::Root(""), what, &names()));
        };
        *slot = Some(decoder.value(value, &input.ty, &Path::Root(key))?);
    }
    Ok(or_zero(kind.inputs.iter().map(|i| &i.ty), values, kind).collect())
}

/// Each declared member's value (an input's, a field's), the zero value of
/// its type where the document leaves it out.
fn or_zero<'t>(
    types: impl Iterator<Item = &'t Ty>,
    values: Vec<Option<Value>>,
    kind: &Kind,
) -> impl Iterator<Item = Value> {
    types
        .zip(values)
        .map(|(ty, value)| value.unwrap_or_else(|| zero_value(ty, kind)))
}

/// A map's entries, in key order, with keys that are one value (`"3"` and
/// `"03"` as ints) made one entry: at the first one's place, with the last
/// one's value.
fn unique_keys(entries: impl IntoIterator<Item = (Value, Value)>) -> Vec<(Value, Value)> {
    let entries = entries.into_iter();
    let mut unique: Vec<(Value, Value)> = Vec::with_capacity(entries.size_hint().0);
    let mut places: HashMap<KeyId, usize> = HashMap::new();
    for (key, value) in entries {
        let id = KeyId::of(&key);
        match id.as_ref().and_then(|id| places.get(id)) {
            Some(&place) => {
                if let Some(entry) = unique.get_mut(place) {
                    entry.1 = value;
                }
            }
            None => {
                if let Some(id) = id {
                    places.insert(id, unique.len());
                }
                unique.push((key, value));
            }
        }
    }
    unique
}

/// Decodes one value of type `ty`, named `path` in errors (`result` for a
/// host function's result; empty for none).
pub fn decode_value(
    data: &Data,
    syntax: Syntax,
    ty: &Ty,
    kind: &Kind,
    path: &str,
) -> Result<Value, DecodeError> {
    Decoder { kind, syntax }.value(data, ty, &Path::Root(path))
}

/// The value a missing key reads as (language-core §4.1): `false`, `0`,
/// `0.0`, `""`, `0s`, Go's zero time `0001-01-01T00:00:00Z`, `[]`, `{}`,
/// an absent optional, a struct of zero fields.
///
/// An enum has no zero value, yet a missing key of one must read as
/// something: it reads as the empty name, which no enum declares, as the
/// reference reads Go's empty string. Evaluation rejects it where it is
/// read, as any value outside its enum (language-core §7: ``x: "" is not a
/// value of E``). `decision` reads as the empty name too; candidates and
/// the checker's own types never occur in data and read as absent.
pub fn zero_value(ty: &Ty, kind: &Kind) -> Value {
    match ty {
        Ty::Bool => Value::Bool(false),
        Ty::Int => Value::Int(0),
        Ty::Float => Value::Float(0.0),
        Ty::String => Value::String(Rc::from(&b""[..])),
        Ty::Duration => Value::Duration(0),
        Ty::Timestamp => Value::Timestamp(Timestamp::ZERO),
        Ty::List(_) => Value::List(Rc::from(Vec::new())),
        Ty::Map(_, _) => Value::Map(Rc::from(Vec::new())),
        Ty::Struct(name) => {
            let fields = kind.struct_def(name).map_or(&[][..], |s| &s.fields);
            Value::Struct(
                fields
                    .iter()
                    .map(|f| (Rc::from(f.name.as_str()), zero_value(&f.ty, kind)))
                    .collect(),
            )
        }
        Ty::Enum(_) => Value::Enum(Rc::from("")),
        Ty::Decision => Value::Decision(Rc::from("")),
        Ty::Optional(_) | Ty::Candidate(_) | Ty::EmptyList | Ty::EmptyMap | Ty::Invalid => {
            Value::Absent
        }
    }
}

/// The decoder of one document.
struct Decoder<'k> {
    kind: &'k Kind,
    syntax: Syntax,
}

impl Decoder<'_> {
    /// Decodes `data` as a `ty` at `path`. Each call goes one level down
    /// the type, so recursion is as deep as the type, never as the data.
    fn value(&self, data: &Data, ty: &Ty, path: &Path<'_>) -> Result<Value, DecodeError> {
        if let Data::Null = data {
            return match ty {
                Ty::Optional(_) => Ok(Value::Absent),
                Ty::List(_) => Ok(Value::List(Rc::from(Vec::new()))),
                Ty::Map(_, _) => Ok(Value::Map(Rc::from(Vec::new()))),
                _ => Err(error(
                    path,
                    format!("null for {}", article(ty)),
                    "only optionals, lists and maps may be null; leave the key out to get the zero value",
                )),
            };
        }
        match ty {
            Ty::Optional(elem) => self.value(data, elem, path),
            Ty::List(elem) => {
                let Data::List(items) = data else {
                    return Err(mismatch(path, ty, data));
                };
                let values = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.value(item, elem, &Path::Index(path, i)))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Value::List(values.into()))
            }
            Ty::Map(key, value) => self.map(data, ty, key, value, path),
            Ty::Struct(name) => self.structure(data, ty, name, path),
            _ => self.scalar(data, ty, path, self.syntax),
        }
    }

    /// A map: each key parsed by the key type as if written as a value
    /// (ints and floats as JSON numbers, bools as Go's `ParseBool` reads
    /// them, the rest as strings), at `path["key"]`. Two keys that parse
    /// to one value (`"3"` and `"03"`) are one entry, the last in key order.
    fn map(
        &self,
        data: &Data,
        ty: &Ty,
        key_ty: &Ty,
        value_ty: &Ty,
        path: &Path<'_>,
    ) -> Result<Value, DecodeError> {
        let Data::Object(members) = data else {
            return Err(mismatch(path, ty, data));
        };
        let entries = sorted(members)
            .into_iter()
            .map(|(text, raw)| {
                let at = Path::Key(path, text);
                let key_data = match key_ty {
                    Ty::Int | Ty::Float => Data::Number(text.clone()),
                    Ty::Bool => {
                        go_bool(text).map_or_else(|| Data::String(text.clone()), Data::Bool)
                    }
                    _ => Data::String(text.clone()),
                };
                let key = self.scalar(&key_data, key_ty, &at, Syntax::Json)?;
                Ok((key, self.value(raw, value_ty, &at)?))
            })
            .collect::<Result<Vec<_>, DecodeError>>()?;
        Ok(Value::Map(unique_keys(entries).into()))
    }

    /// A struct: every field, in declaration order, the ones the object
    /// leaves out at their zero value.
    fn structure(
        &self,
        data: &Data,
        ty: &Ty,
        name: &str,
        path: &Path<'_>,
    ) -> Result<Value, DecodeError> {
        let Some(def) = self.kind.struct_def(name) else {
            return Err(undecodable(path, ty));
        };
        let Data::Object(members) = data else {
            return Err(mismatch(path, ty, data));
        };
        let mut values: Vec<Option<Value>> = vec![None; def.fields.len()];
        for (key, raw) in sorted(members) {
            let Some((field, slot)) = def
                .fields
                .iter()
                .zip(values.iter_mut())
                .find(|(field, _)| field.name == *key)
            else {
                let names: Vec<&str> = def.fields.iter().map(|f| f.name.as_str()).collect();
                let what = format!("unknown field {} on type {name}", go_quote(key));
                return Err(unknown_key(key, path, what, &names));
            };
            *slot = Some(self.value(raw, &field.ty, &Path::Field(path, key))?);
        }
        let zeroed = or_zero(def.fields.iter().map(|f| &f.ty), values, self.kind);
        let names = def.fields.iter().map(|f| Rc::from(f.name.as_str()));
        Ok(Value::Struct(names.zip(zeroed).collect()))
    }

    /// A scalar or an enum value; `syntax` says how a number reads.
    fn scalar(
        &self,
        data: &Data,
        ty: &Ty,
        path: &Path<'_>,
        syntax: Syntax,
    ) -> Result<Value, DecodeError> {
        let value = match (ty, data) {
            (Ty::Bool, Data::Bool(b)) => Some(Value::Bool(*b)),
            (Ty::String, Data::String(s)) => Some(Value::String(Rc::from(s.as_bytes()))),
            (Ty::Int, Data::Number(text)) => integer(text, syntax).map(Value::Int),
            (Ty::Float, Data::Number(text)) => float(text, syntax).map(Value::Float),
            (Ty::Duration, _) => return duration(data, path).map(Value::Duration),
            (Ty::Timestamp, _) => return timestamp(data, path).map(Value::Timestamp),
            (Ty::Enum(name), Data::String(s)) => return self.enum_value(ty, name, s, path),
            (Ty::Bool | Ty::String | Ty::Int | Ty::Float | Ty::Enum(_), _) => None,
            _ => return Err(undecodable(path, ty)),
        };
        value.ok_or_else(|| mismatch(path, ty, data))
    }

    fn enum_value(
        &self,
        ty: &Ty,
        name: &str,
        text: &str,
        path: &Path<'_>,
    ) -> Result<Value, DecodeError> {
        let Some(def) = self.kind.enum_def(name) else {
            return Err(undecodable(path, ty));
        };
        if def.declares(text) {
            return Ok(Value::Enum(Rc::from(text)));
        }
        Err(error(
            path,
            format!("{} is not a value of {name}", go_quote(text)),
            def.values_help(text),
        ))
    }
}

/// An int: in JSON exactly an integer that fits; in YAML also a whole
/// float in range.
fn integer(text: &str, syntax: Syntax) -> Option<i64> {
    match syntax {
        Syntax::Json => go_int(text),
        Syntax::Yaml => match yaml_number(text)? {
            YamlNumber::Int(n) => Some(n),
            YamlNumber::Uint(_) => None,
            // The range is Go's, [-2^63, 2^63): `i64::MAX as f64` rounds
            // up to 2^63, which doesn't fit.
            YamlNumber::Float(f) => {
                let limit = -(i64::MIN as f64);
                let whole = f.trunc() == f && (-limit..limit).contains(&f);
                whole.then_some(f as i64)
            }
        },
    }
}

/// A float: any number.
fn float(text: &str, syntax: Syntax) -> Option<f64> {
    match syntax {
        Syntax::Json => go_float(text),
        Syntax::Yaml => match yaml_number(text)? {
            YamlNumber::Int(n) => Some(n as f64),
            YamlNumber::Uint(n) => Some(n as f64),
            YamlNumber::Float(f) => Some(f),
        },
    }
}

/// A duration: a non-empty string that reads as a duration literal.
fn duration(data: &Data, path: &Path<'_>) -> Result<i64, DecodeError> {
    let Data::String(text) = data else {
        return Err(error(
            path,
            format!("expected a duration, found {}", data.found()),
            "write durations as strings in Sigil's syntax, like \"45m\" or \"1h30m\"",
        ));
    };
    match duration_nanos(text) {
        Ok(nanos) if !text.is_empty() => Ok(nanos),
        _ => Err(error(
            path,
            format!("invalid duration {}", go_quote(text)),
            "units are d, h, m, s and ms, largest first, each at most once: \"1h30m\"",
        )),
    }
}

/// A timestamp: an RFC 3339 string.
fn timestamp(data: &Data, path: &Path<'_>) -> Result<Timestamp, DecodeError> {
    let parsed = match data {
        Data::String(text) => parse_rfc3339(text),
        _ => None,
    };
    parsed.ok_or_else(|| {
        error(
            path,
            format!("expected a timestamp, found {}", data.found()),
            "write timestamps in RFC 3339, like \"2026-09-28T14:00:00Z\"",
        )
    })
}

/// What tells two map keys apart, as Go's map tells them apart: a float
/// zero is one key whatever its sign, NaN is never the same key, and
/// timestamps differ by their offset too (language-core §13, point 4).
#[derive(Hash, PartialEq, Eq)]
enum KeyId {
    Number(i64),
    Bool(bool),
    FloatBits(u64),
    Time(i64, u32, i32),
    Name(Rc<str>),
    Bytes(Rc<[u8]>),
}

impl KeyId {
    /// `None` for NaN, and for values that are no keys.
    fn of(key: &Value) -> Option<KeyId> {
        Some(match key {
            Value::Int(n) | Value::Duration(n) => KeyId::Number(*n),
            Value::Bool(b) => KeyId::Bool(*b),
            Value::Float(f) if f.is_nan() => return None,
            Value::Float(f) => KeyId::FloatBits(if *f == 0.0 { 0 } else { f.to_bits() }),
            Value::Timestamp(t) => KeyId::Time(t.seconds, t.nanos, t.offset),
            Value::Enum(name) => KeyId::Name(Rc::clone(name)),
            Value::String(bytes) => KeyId::Bytes(Rc::clone(bytes)),
            _ => return None,
        })
    }
}

/// An object's members by key, in byte order.
fn sorted(members: &[(String, Data)]) -> Vec<&(String, Data)> {
    let mut sorted: Vec<&(String, Data)> = members.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted
}

/// `T` with its article: `an` before a lowercase vowel, else `a` (`an int`,
/// `a list<string>`, and, as the reference has it, `a Actor`).
fn article(ty: &Ty) -> String {
    let spelled = ty.to_string();
    let article = if spelled.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {spelled}")
}

/// Where a value is in its document, kept as links to the enclosing
/// value's path and spelled out only for an error: most values decode
/// without one.
enum Path<'a> {
    /// An input by its name, a host result as `result`, or nothing.
    Root(&'a str),
    /// `path.field`, or just `field` under an empty path.
    Field(&'a Path<'a>, &'a str),
    /// `path[3]`
    Index(&'a Path<'a>, usize),
    /// `path["key"]`, the key Go-quoted: a map's value or its key.
    Key(&'a Path<'a>, &'a str),
}

impl Path<'_> {
    /// The path as messages spell it. Paths are as deep as types, so the
    /// recursion is too.
    fn text(&self) -> String {
        match self {
            Path::Root(name) => (*name).to_owned(),
            Path::Field(parent, field) => {
                let parent = parent.text();
                if parent.is_empty() {
                    (*field).to_owned()
                } else {
                    format!("{parent}.{field}")
                }
            }
            Path::Index(parent, i) => format!("{}[{i}]", parent.text()),
            Path::Key(parent, key) => format!("{}[{}]", parent.text(), go_quote(key)),
        }
    }
}

/// `«path»: «what»` with `advice`, or with the default advice when that
/// is empty.
fn error(path: &Path<'_>, what: impl Into<String>, advice: impl Into<String>) -> DecodeError {
    let path = path.text();
    let what = what.into();
    let advice = advice.into();
    DecodeError {
        message: if path.is_empty() {
            what
        } else {
            format!("{path}: {what}")
        },
        advice: if advice.is_empty() {
            DEFAULT_ADVICE.to_owned()
        } else {
            advice
        },
    }
}

/// `expected «a/an T», found «found»`.
fn mismatch(path: &Path<'_>, ty: &Ty, data: &Data) -> DecodeError {
    error(
        path,
        format!("expected {}, found {}", article(ty), data.found()),
        "",
    )
}

/// A type no document holds (`decision`, candidates).
fn undecodable(path: &Path<'_>, ty: &Ty) -> DecodeError {
    error(path, format!("values of type {ty} can't be decoded"), "")
}

/// A key that names nothing, at `path.key`, with the names it could have
/// been.
fn unknown_key(key: &str, path: &Path<'_>, what: String, declared: &[&str]) -> DecodeError {
    error(&Path::Field(path, key), what, declared_help(key, declared))
}

#[cfg(test)]
mod tests;
