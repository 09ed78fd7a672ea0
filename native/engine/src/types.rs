//! The types of Sigil (language-core §4) as the kind loader, the constant
//! evaluator and the checker see them.
//!
//! A [`Ty`] names structs, enums and decisions by their declared names, so a
//! type prints on its own (§4.2) and compares by name (§4.3: structs and
//! enums are nominal). Children sit behind [`Rc`], so passing types around
//! the checker is cheap.

use std::fmt;
use std::rc::Rc;

/// One type of language-core §4.1, plus the two untyped empty literals and
/// the error type of §4.2.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `bool`
    Bool,
    /// `int`: signed 64-bit.
    Int,
    /// `float`: IEEE binary64.
    Float,
    /// `string`: bytes, normally UTF-8.
    String,
    /// `duration`: signed 64-bit nanoseconds.
    Duration,
    /// `timestamp`: an instant with a zone; input only.
    Timestamp,
    /// `decision`: a decision or `decision.reason` value (asserts only).
    Decision,
    /// `list<T>`
    List(Rc<Ty>),
    /// `map<K, V>`
    Map(Rc<Ty>, Rc<Ty>),
    /// `?T`; `T` is never itself optional.
    Optional(Rc<Ty>),
    /// A struct type declared by the kind, by name.
    Struct(Rc<str>),
    /// An enum declared by the kind, by name.
    Enum(Rc<str>),
    /// `<decision> candidate`: an element of `outcome.<decision>`.
    Candidate(Rc<str>),
    /// `[]` before context gave it an element type.
    EmptyList,
    /// `{}` before context gave it key and value types.
    EmptyMap,
    /// The type of an expression that already failed: operators receiving
    /// it report nothing more (errors don't cascade).
    Invalid,
}

impl Ty {
    /// `list<elem>`
    pub fn list(elem: Ty) -> Ty {
        Ty::List(Rc::new(elem))
    }

    /// `map<key, value>`
    pub fn map(key: Ty, value: Ty) -> Ty {
        Ty::Map(Rc::new(key), Rc::new(value))
    }

    /// `?elem`, or `elem` itself when it is already optional (optionals
    /// never nest).
    pub fn optional(elem: Ty) -> Ty {
        match elem {
            Ty::Optional(_) => elem,
            other => Ty::Optional(Rc::new(other)),
        }
    }

    /// The built-in scalar called `name`, if it is one.
    pub fn scalar(name: &str) -> Option<Ty> {
        Some(match name {
            "bool" => Ty::Bool,
            "int" => Ty::Int,
            "float" => Ty::Float,
            "string" => Ty::String,
            "duration" => Ty::Duration,
            "timestamp" => Ty::Timestamp,
            "decision" => Ty::Decision,
            _ => return None,
        })
    }

    /// The scalar names an unknown type's did-you-mean tries first
    /// (language-core §9), in that order.
    pub const SCALAR_NAMES: [&'static str; 6] =
        ["bool", "int", "float", "string", "duration", "timestamp"];

    /// Whether this is the error type.
    pub fn is_invalid(&self) -> bool {
        matches!(self, Ty::Invalid)
    }

    /// Whether this is `?T`.
    pub fn is_optional(&self) -> bool {
        matches!(self, Ty::Optional(_))
    }

    /// `T` for `?T`, else the type itself.
    pub fn strip_optional(&self) -> &Ty {
        match self {
            Ty::Optional(elem) => elem,
            other => other,
        }
    }

    /// Whether this is an untyped empty literal (`[]`, `{}`), or a list or
    /// map literal type still holding one (`[[]]`).
    pub fn is_untyped(&self) -> bool {
        match self {
            Ty::EmptyList | Ty::EmptyMap => true,
            Ty::List(elem) | Ty::Optional(elem) => elem.is_untyped(),
            Ty::Map(key, value) => key.is_untyped() || value.is_untyped(),
            _ => false,
        }
    }

    /// Whether `==` and `!=` apply (§4.3): scalars, `decision`, enums.
    pub fn is_equatable(&self) -> bool {
        matches!(
            self,
            Ty::Bool
                | Ty::Int
                | Ty::Float
                | Ty::String
                | Ty::Duration
                | Ty::Timestamp
                | Ty::Decision
                | Ty::Enum(_)
        )
    }

    /// Whether `<`, `<=`, `>`, `>=` apply (§4.3).
    pub fn is_ordered(&self) -> bool {
        matches!(self, Ty::Int | Ty::Float | Ty::Duration | Ty::Timestamp)
    }

    /// Whether values compare structurally for `in`, the list operators and
    /// `has` (§4.3): the equatable types, and lists, maps (by value type) and
    /// optionals built from them.
    pub fn is_element_comparable(&self) -> bool {
        match self {
            Ty::List(elem) | Ty::Optional(elem) => elem.is_element_comparable(),
            Ty::Map(_, value) => value.is_element_comparable(),
            other => other.is_equatable(),
        }
    }

    /// Whether this may be a map key (§4.3): the scalars but `decision`, and
    /// enums.
    pub fn is_key(&self) -> bool {
        self.is_equatable() && *self != Ty::Decision
    }
}

impl fmt::Display for Ty {
    /// The spelling of language-core §4.2.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => f.write_str("bool"),
            Ty::Int => f.write_str("int"),
            Ty::Float => f.write_str("float"),
            Ty::String => f.write_str("string"),
            Ty::Duration => f.write_str("duration"),
            Ty::Timestamp => f.write_str("timestamp"),
            Ty::Decision => f.write_str("decision"),
            Ty::List(elem) => write!(f, "list<{elem}>"),
            Ty::Map(key, value) => write!(f, "map<{key}, {value}>"),
            Ty::Optional(elem) => write!(f, "?{elem}"),
            Ty::Struct(name) | Ty::Enum(name) => f.write_str(name),
            Ty::Candidate(decision) => write!(f, "{decision} candidate"),
            Ty::EmptyList => f.write_str("an empty list"),
            Ty::EmptyMap => f.write_str("an empty map"),
            Ty::Invalid => f.write_str("invalid"),
        }
    }
}

/// `enum Name: a | b`: an enum type's declaration, which the kind holds
/// and constants of the type are read against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumDef {
    /// The enum's name.
    pub name: String,
    /// Its values in declaration order, at least one, unique.
    pub values: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_spell_as_messages_print_them() {
        let cases = [
            (
                Ty::map(Ty::String, Ty::list(Ty::Int)),
                "map<string, list<int>>",
            ),
            (Ty::optional(Ty::Struct("Commit".into())), "?Commit"),
            (
                Ty::list(Ty::Candidate("review".into())),
                "list<review candidate>",
            ),
            (Ty::EmptyList, "an empty list"),
        ];
        for (ty, text) in cases {
            assert_eq!(ty.to_string(), text);
        }
    }

    #[test]
    fn optionals_never_nest() {
        let once = Ty::optional(Ty::Int);
        assert_eq!(Ty::optional(once.clone()), once);
    }

    #[test]
    fn predicates_follow_the_table_of_4_3() {
        let list = Ty::list(Ty::String);
        assert!(!list.is_equatable());
        assert!(list.is_element_comparable());
        assert!(!Ty::list(Ty::Struct("S".into())).is_element_comparable());
        assert!(Ty::map(Ty::String, Ty::Int).is_element_comparable());
        assert!(!Ty::Decision.is_key());
        assert!(Ty::Enum("Zone".into()).is_key());
        assert!(!Ty::String.is_ordered());
        assert!(Ty::Timestamp.is_ordered());
    }
}
