//! An eval input read straight from its checked JSON into values, without
//! building the [`Data`](crate::data::Data) tree first: the common case of
//! every eval, nested inputs (structs, lists, maps, optionals) included.
//!
//! It gives exactly the values the full decoder gives, or declines
//! (`None`) and leaves the input to it. It declines on anything that isn't
//! plainly right: a value that doesn't fit its type, a key unknown or given
//! twice in one object. The full decoder then finds the problem and words
//! it, walking keys in sorted order as the reference does; reading in the
//! document's order, this one could meet a different problem first, so it
//! never words one itself. Recursion goes as deep as the type, as the full
//! decoder's does: data nested deeper than its type meets a scalar type and
//! declines.

use std::borrow::Cow;
use std::rc::Rc;

use super::number::{go_bool, go_float, go_int};
use super::{or_zero, unique_keys};
use crate::kind::Kind;
use crate::lexer::duration_nanos;
use crate::types::Ty;
use crate::value::{Value, parse_rfc3339};
use crate::wire::{Cursor, Kind as JsonKind};

/// Decodes an eval input straight from its checked JSON: the values
/// [`decode_input`](super::decode_input) gives for the document, one per
/// input of `kind` in declaration order, or `None` when anything needs the
/// full decoder, which then also reports what is wrong.
pub fn decode_json_input(checked: &[u8], kind: &Kind) -> Option<Vec<Value>> {
    let mut cursor = Cursor::new(checked);
    let reader = Reader { kind };
    let values = reader.object(&mut cursor, &kind.inputs, |i| (&i.name, &i.ty))?;
    Some(or_zero(kind.inputs.iter().map(|i| &i.ty), values, kind).collect())
}

/// A JSON scalar as written.
enum Scalar<'a> {
    Bool(bool),
    /// The number's text.
    Number(&'a str),
    String(Cow<'a, str>),
}

/// The reader of one document against one kind.
struct Reader<'k> {
    kind: &'k Kind,
}

impl Reader<'_> {
    /// The value at the cursor as a `ty`, or `None` to decline.
    fn value(&self, cursor: &mut Cursor<'_>, ty: &Ty) -> Option<Value> {
        if cursor.kind() == JsonKind::Null {
            cursor.raw_value();
            return match ty {
                Ty::Optional(_) => Some(Value::Absent),
                Ty::List(_) => Some(Value::List(Rc::from(Vec::new()))),
                Ty::Map(_, _) => Some(Value::Map(Rc::from(Vec::new()))),
                _ => None,
            };
        }
        match ty {
            Ty::Optional(inner) => self.value(cursor, inner),
            Ty::List(elem) => self.list(cursor, elem),
            Ty::Map(key, value) => self.map(cursor, key, value),
            Ty::Struct(name) => {
                let def = self.kind.struct_def(name)?;
                let values = self.object(cursor, &def.fields, |f| (&f.name, &f.ty))?;
                let zeroed = or_zero(def.fields.iter().map(|f| &f.ty), values, self.kind);
                let names = def.fields.iter().map(|f| Rc::from(f.name.as_str()));
                Some(Value::Struct(names.zip(zeroed).collect()))
            }
            _ => {
                let scalar = match cursor.kind() {
                    JsonKind::String => Scalar::String(cursor.string()),
                    JsonKind::Number => {
                        Scalar::Number(std::str::from_utf8(cursor.raw_value()).ok()?)
                    }
                    JsonKind::Bool => Scalar::Bool(cursor.raw_value() == b"true"),
                    JsonKind::Null | JsonKind::Array | JsonKind::Object => return None,
                };
                scalar_fit(ty, scalar, self.kind)
            }
        }
    }

    /// The object at the cursor as one slot per declared member (an input
    /// or a field), `None` where the object leaves it out.
    fn object<D>(
        &self,
        cursor: &mut Cursor<'_>,
        declared: &[D],
        name_and_type: impl Fn(&D) -> (&String, &Ty),
    ) -> Option<Vec<Option<Value>>> {
        if cursor.kind() != JsonKind::Object {
            return None;
        }
        cursor.enter();
        let mut values: Vec<Option<Value>> = vec![None; declared.len()];
        while let Some(key) = cursor.next_key() {
            let (ty, slot) = declared
                .iter()
                .map(&name_and_type)
                .zip(values.iter_mut())
                .find(|((name, _), _)| **name == *key)
                .map(|((_, ty), slot)| (ty, slot))?;
            if slot.is_some() {
                return None;
            }
            *slot = Some(self.value(cursor, ty)?);
        }
        Some(values)
    }

    fn list(&self, cursor: &mut Cursor<'_>, elem: &Ty) -> Option<Value> {
        if cursor.kind() != JsonKind::Array {
            return None;
        }
        cursor.enter();
        let mut items = Vec::new();
        while cursor.next_element() {
            items.push(self.value(cursor, elem)?);
        }
        Some(Value::List(items.into()))
    }

    /// A map's entries in the order of their keys' text, as the full
    /// decoder walks them.
    fn map(&self, cursor: &mut Cursor<'_>, key_ty: &Ty, value_ty: &Ty) -> Option<Value> {
        if cursor.kind() != JsonKind::Object {
            return None;
        }
        cursor.enter();
        let mut entries: Vec<(Cow<'_, str>, Value, Value)> = Vec::new();
        while let Some(text) = cursor.next_key() {
            let key = key_fit(key_ty, &text, self.kind)?;
            let value = self.value(cursor, value_ty)?;
            entries.push((text, key, value));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let given_twice = entries
            .windows(2)
            .any(|pair| matches!(pair, [a, b] if a.0 == b.0));
        if given_twice {
            return None;
        }
        Some(Value::Map(
            unique_keys(entries.into_iter().map(|(_, key, value)| (key, value))).into(),
        ))
    }
}

/// A map key's text as a `ty`, read as the full decoder reads it: as a
/// JSON number for ints and floats, by Go's `ParseBool` for bools, as a
/// string otherwise.
fn key_fit(ty: &Ty, text: &str, kind: &Kind) -> Option<Value> {
    let scalar = match ty {
        Ty::Int | Ty::Float => Scalar::Number(text),
        Ty::Bool => Scalar::Bool(go_bool(text)?),
        _ => Scalar::String(Cow::Borrowed(text)),
    };
    scalar_fit(ty, scalar, kind)
}

/// The value of `scalar` as a `ty` of JSON data when it fits without a
/// problem: what the full decoder gives for it; `None` when the full
/// decoder must look.
fn scalar_fit(ty: &Ty, scalar: Scalar<'_>, kind: &Kind) -> Option<Value> {
    match (ty, scalar) {
        (Ty::Bool, Scalar::Bool(b)) => Some(Value::Bool(b)),
        (Ty::String, Scalar::String(s)) => Some(Value::String(Rc::from(s.as_bytes()))),
        (Ty::Int, Scalar::Number(text)) => go_int(text).map(Value::Int),
        (Ty::Float, Scalar::Number(text)) => go_float(text).map(Value::Float),
        (Ty::Duration, Scalar::String(text)) if !text.is_empty() => {
            duration_nanos(&text).ok().map(Value::Duration)
        }
        (Ty::Timestamp, Scalar::String(text)) => parse_rfc3339(&text).map(Value::Timestamp),
        (Ty::Enum(name), Scalar::String(text)) => kind
            .enum_def(name)
            .filter(|def| def.declares(&text))
            .map(|_| Value::Enum(Rc::from(&*text))),
        _ => None,
    }
}
