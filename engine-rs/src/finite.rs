//! Refuses an input with a NaN or infinite float before the module sees it: serde_json would write
//! `null` for it, and JSON has no number for them (the Java library refuses them the same way).

use serde::ser::{self, Serialize};

/// Why a value can't be JSON: the float it holds.
#[derive(Debug)]
pub(crate) struct NotFinite(String);

impl std::fmt::Display for NotFinite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotFinite {}

impl ser::Error for NotFinite {
    fn custom<T: std::fmt::Display>(message: T) -> Self {
        NotFinite(message.to_string())
    }
}

/// Walks `value` as a serializer would and fails at the first NaN or infinite float.
pub(crate) fn check<T: Serialize + ?Sized>(value: &T) -> Result<(), NotFinite> {
    value.serialize(Finite)
}

struct Finite;

fn float(value: f64) -> Result<(), NotFinite> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(NotFinite(format!("{value} isn't a JSON number")))
    }
}

macro_rules! accept {
    ($($method:ident($($arg:ty),*);)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<(), NotFinite> { Ok(()) })*
    };
}

impl ser::Serializer for Finite {
    type Ok = ();
    type Error = NotFinite;
    type SerializeSeq = Finite;
    type SerializeTuple = Finite;
    type SerializeTupleStruct = Finite;
    type SerializeTupleVariant = Finite;
    type SerializeMap = Finite;
    type SerializeStruct = Finite;
    type SerializeStructVariant = Finite;

    accept! {
        serialize_bool(bool); serialize_i8(i8); serialize_i16(i16); serialize_i32(i32); serialize_i64(i64);
        serialize_i128(i128); serialize_u8(u8); serialize_u16(u16); serialize_u32(u32); serialize_u64(u64);
        serialize_u128(u128); serialize_char(char); serialize_str(&str); serialize_bytes(&[u8]);
        serialize_none(); serialize_unit(); serialize_unit_struct(&'static str);
        serialize_unit_variant(&'static str, u32, &'static str);
    }

    fn serialize_f32(self, value: f32) -> Result<(), NotFinite> {
        float(f64::from(value))
    }
    fn serialize_f64(self, value: f64) -> Result<(), NotFinite> {
        float(value)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), NotFinite> {
        value.serialize(Finite)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), NotFinite> {
        value.serialize(Finite)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), NotFinite> {
        value.serialize(Finite)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Finite, NotFinite> {
        Ok(Finite)
    }
    fn serialize_tuple(self, _: usize) -> Result<Finite, NotFinite> {
        Ok(Finite)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Finite, NotFinite> {
        Ok(Finite)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Finite, NotFinite> {
        Ok(Finite)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Finite, NotFinite> {
        Ok(Finite)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Finite, NotFinite> {
        Ok(Finite)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Finite, NotFinite> {
        Ok(Finite)
    }
}

macro_rules! compound {
    ($($trait:ident :: $method:ident $(, $key:ident)?;)*) => {
        $(impl ser::$trait for Finite {
            type Ok = ();
            type Error = NotFinite;
            fn $method<T: Serialize + ?Sized>(&mut self, $($key: &'static str,)? value: &T) -> Result<(), NotFinite> {
                $(let _ = $key;)?
                value.serialize(Finite)
            }
            fn end(self) -> Result<(), NotFinite> {
                Ok(())
            }
        })*
    };
}

compound! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
    SerializeTupleVariant::serialize_field;
    SerializeStruct::serialize_field, key;
    SerializeStructVariant::serialize_field, key;
}

impl ser::SerializeMap for Finite {
    type Ok = ();
    type Error = NotFinite;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NotFinite> {
        key.serialize(Finite)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotFinite> {
        value.serialize(Finite)
    }
    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(serde::Serialize)]
    struct Reading {
        level: f64,
        tags: Vec<f32>,
    }

    #[test]
    fn finite_values_pass() {
        assert!(check(&serde_json::json!({"a": [1, 2.5, null, "x", {"b": true}]})).is_ok());
        assert!(check(&Reading {
            level: 1.0,
            tags: vec![0.5]
        })
        .is_ok());
    }

    #[test]
    fn nan_and_infinities_are_refused_wherever_they_are() {
        assert_eq!(
            check(&f64::NAN).unwrap_err().to_string(),
            "NaN isn't a JSON number"
        );
        assert_eq!(
            check(&Reading {
                level: f64::INFINITY,
                tags: vec![]
            })
            .unwrap_err()
            .to_string(),
            "inf isn't a JSON number"
        );
        assert_eq!(
            check(&Reading {
                level: 1.0,
                tags: vec![1.0, f32::NEG_INFINITY]
            })
            .unwrap_err()
            .to_string(),
            "-inf isn't a JSON number"
        );
        assert!(check(&BTreeMap::from([("k", Some((1, f64::NAN)))])).is_err());
    }
}
