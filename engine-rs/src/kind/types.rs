//! The types of a kind document ([`Type`]) and host function signatures ([`FnDecl`]).

use std::fmt;

use crate::host::HostFunction;

/// A type of an input, a payload field, a struct field or a function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type(pub(crate) Repr);

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Repr {
    String,
    Bool,
    Int,
    Float,
    Duration,
    Timestamp,
    List(Box<Type>),
    Map(Box<Type>, Box<Type>),
    Optional(Box<Type>),
    Enum {
        name: String,
        values: Vec<String>,
    },
    Struct {
        name: String,
        fields: Vec<(String, Type)>,
    },
}

impl Type {
    /// `string`.
    pub fn string() -> Type {
        Type(Repr::String)
    }
    /// `bool`.
    pub fn bool() -> Type {
        Type(Repr::Bool)
    }
    /// `int` (64-bit).
    pub fn int() -> Type {
        Type(Repr::Int)
    }
    /// `float` (64-bit).
    pub fn float() -> Type {
        Type(Repr::Float)
    }
    /// `duration`.
    pub fn duration() -> Type {
        Type(Repr::Duration)
    }
    /// `timestamp`.
    pub fn timestamp() -> Type {
        Type(Repr::Timestamp)
    }
    /// `list<T>`.
    pub fn list(element: Type) -> Type {
        Type(Repr::List(Box::new(element)))
    }
    /// `map<K, V>`.
    pub fn map(key: Type, value: Type) -> Type {
        Type(Repr::Map(Box::new(key), Box::new(value)))
    }
    /// `?T`.
    pub fn optional(element: Type) -> Type {
        Type(Repr::Optional(Box::new(element)))
    }
    /// An enum of these values, printed `enum Name: a | b`.
    pub fn enumeration(
        name: impl Into<String>,
        values: impl IntoIterator<Item = impl Into<String>>,
    ) -> Type {
        Type(Repr::Enum {
            name: name.into(),
            values: values.into_iter().map(Into::into).collect(),
        })
    }
    /// A struct type; field order is declaration order.
    pub fn structure(
        name: impl Into<String>,
        fields: impl IntoIterator<Item = (impl Into<String>, Type)>,
    ) -> Type {
        Type(Repr::Struct {
            name: name.into(),
            fields: fields.into_iter().map(|(n, t)| (n.into(), t)).collect(),
        })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::String => f.write_str("string"),
            Repr::Bool => f.write_str("bool"),
            Repr::Int => f.write_str("int"),
            Repr::Float => f.write_str("float"),
            Repr::Duration => f.write_str("duration"),
            Repr::Timestamp => f.write_str("timestamp"),
            Repr::List(element) => write!(f, "list<{element}>"),
            Repr::Map(key, value) => write!(f, "map<{key}, {value}>"),
            Repr::Optional(element) => write!(f, "?{element}"),
            Repr::Enum { name, .. } | Repr::Struct { name, .. } => f.write_str(name),
        }
    }
}

/// A host function's signature, and optionally its implementation.
#[derive(Debug, Clone)]
pub struct FnDecl {
    pub(crate) params: Vec<Type>,
    pub(crate) result: Type,
    pub(crate) implementation: Option<HostFunction>,
}

impl FnDecl {
    /// A function of these parameter types and result type.
    pub fn new(params: impl IntoIterator<Item = Type>, result: Type) -> FnDecl {
        FnDecl {
            params: params.into_iter().collect(),
            result,
            implementation: None,
        }
    }

    /// Adds its implementation, which [`crate::Kind::compile`] passes to the engine.
    pub fn implement(mut self, implementation: HostFunction) -> FnDecl {
        self.implementation = Some(implementation);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_print_as_the_kind_file_spells_them() {
        let cases = [
            (Type::list(Type::string()), "list<string>"),
            (
                Type::map(Type::string(), Type::list(Type::int())),
                "map<string, list<int>>",
            ),
            (Type::optional(Type::timestamp()), "?timestamp"),
            (Type::enumeration("Tier", ["gold"]), "Tier"),
            (
                Type::structure("Owner", [("name", Type::string())]),
                "Owner",
            ),
            (Type::bool(), "bool"),
            (Type::float(), "float"),
            (Type::duration(), "duration"),
        ];
        for (ty, text) in cases {
            assert_eq!(ty.to_string(), text);
        }
    }
}
