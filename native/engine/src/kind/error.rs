//! The kind loader's and type resolution's errors as values, and the only
//! place their texts are written (language-policies §2), one enum per area:
//! types ([`TypeError`]), names ([`NameError`]), the header and the
//! declarations ([`DeclError`]). Each variant names the
//! problem; `message` and `help` spell the exact texts, `to_diagnostic`
//! places them.

use crate::diag::{Diagnostic, go_quote};
use crate::source::Span;
use crate::types::Ty;

/// A type as written that can't be resolved or breaks a rule every type
/// obeys.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeError {
    /// A name that is no built-in type, struct type or enum.
    Unknown {
        /// The name as written.
        name: String,
        /// The closest known name, if one is close.
        near: Option<String>,
        /// Written in the kind itself (rather than in a policy's `param`).
        in_kind: bool,
    },
    /// `??T`.
    NestedOptional {
        /// The declaration it is written in, when in the kind.
        place: Option<String>,
    },
    /// `?list<T>`.
    OptionalList {
        /// The declaration it is written in, when in the kind.
        place: Option<String>,
    },
    /// `?map<K, V>`.
    OptionalMap {
        /// The declaration it is written in, when in the kind.
        place: Option<String>,
    },
    /// `map<K, V>` with a `K` that can't be a key.
    MapKey {
        /// The key type.
        key: Ty,
    },
    /// `map<K, E>` with an enum `E`.
    EnumMapValue,
    /// A struct type that reaches itself through its fields.
    Recursive {
        /// The struct's name.
        name: String,
        /// The struct names of the cycle, from the struct back to it.
        path: Vec<String>,
    },
}

impl TypeError {
    /// The message.
    pub fn message(&self) -> String {
        let placed = |place: &Option<String>, message: &str| match place {
            Some(place) => format!("{place}: {message}"),
            None => message.to_owned(),
        };
        match self {
            TypeError::Unknown { name, .. } => format!("unknown type `{name}`"),
            TypeError::NestedOptional { place } => placed(place, "optional types don't nest"),
            TypeError::OptionalList { place } => placed(place, "a list can't be optional"),
            TypeError::OptionalMap { place } => placed(place, "a map can't be optional"),
            TypeError::MapKey { key } => format!("{key} can't be a map key"),
            TypeError::EnumMapValue => "an enum can't be a map value".to_owned(),
            TypeError::Recursive { name, path } => {
                format!("type {name} is recursive: {}", path.join(" -> "))
            }
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            TypeError::Unknown {
                near: Some(near), ..
            } => format!("did you mean `{near}`?"),
            TypeError::Unknown { in_kind: false, .. } => {
                "types are the built-ins and the struct types and enums the kind declares".to_owned()
            }
            TypeError::Unknown { name, .. } => format!(
                "declare it with `type {name} {{ … }}` or `enum {name}: …`, or use a built-in type"
            ),
            TypeError::NestedOptional { .. } => "write `?T` with one `?`".to_owned(),
            TypeError::OptionalList { .. } => {
                "write `list<T>`: a missing list reads as an empty one".to_owned()
            }
            TypeError::OptionalMap { .. } => {
                "write `map<K, V>`: a missing map reads as an empty one".to_owned()
            }
            TypeError::MapKey { .. } => {
                "map keys are bool, int, float, string, duration, timestamp or an enum".to_owned()
            }
            TypeError::EnumMapValue => "a missing key would read as the zero value, and an enum has none; key the map by the enum instead, or use a list".to_owned(),
            TypeError::Recursive { .. } => "policies can't loop, so a recursive type could only be read to a fixed depth; model the relation with an id instead".to_owned(),
        }
    }

    /// The diagnostic for this error at `span`.
    pub fn to_diagnostic(&self, span: Span) -> Diagnostic {
        Diagnostic::error(span, self.message()).with_help(self.help())
    }
}

/// Which names a colliding name shares, for the collision's help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Names {
    /// Struct type and enum names.
    Types,
    /// Inputs, host functions, decisions, enums and enum values.
    Namespace,
}

/// A declared name that another declaration or a built-in type already
/// has (§2.3, §2.13). `what` is the declaration's keyword-like word:
/// `input`, `function`, `decision`, `enum` or `type`.
#[derive(Clone, Debug, PartialEq)]
pub enum NameError {
    /// A struct type or enum named like a built-in type.
    ShadowsBuiltin {
        /// `type` or `enum`.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// Two declarations of one sort with one name.
    DeclaredTwice {
        /// What both declare.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// Declarations of different sorts with one name.
    Collides {
        /// The later declaration.
        what: &'static str,
        /// The earlier one.
        earlier: &'static str,
        /// The name.
        name: String,
        /// The names they share.
        names: Names,
    },
    /// An enum value named like something in the namespace or a type.
    EnumValueCollides {
        /// The enum's name.
        enum_name: String,
        /// The value.
        value: String,
        /// What else has the name.
        other: &'static str,
    },
}

/// The help of every collision in the shared namespace.
const NAMESPACE_HELP: &str = "inputs, host functions, decisions, enums and their values share one namespace; rename one of them";

impl NameError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            NameError::ShadowsBuiltin { what, name } => {
                format!("{what} {} shadows a built-in type", go_quote(name))
            }
            NameError::DeclaredTwice { what, name } => {
                format!("{what} {} is declared twice", go_quote(name))
            }
            NameError::Collides {
                what,
                earlier,
                name,
                ..
            } => {
                let quoted = go_quote(name);
                format!("{what} {quoted} collides with {earlier} {quoted}")
            }
            NameError::EnumValueCollides {
                enum_name,
                value,
                other,
            } => {
                let quoted = go_quote(value);
                format!("enum {enum_name}: value {quoted} collides with {other} {quoted}")
            }
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            NameError::ShadowsBuiltin { .. } => {
                "the built-in type names are taken; pick another name".to_owned()
            }
            NameError::DeclaredTwice { what, .. } => format!("declare each {what} once"),
            NameError::Collides {
                names: Names::Types,
                ..
            } => "struct types and enums share their names; rename one of them".to_owned(),
            NameError::Collides {
                names: Names::Namespace,
                ..
            }
            | NameError::EnumValueCollides { .. } => NAMESPACE_HELP.to_owned(),
        }
    }

    /// The diagnostic for this error at `span`.
    pub fn to_diagnostic(&self, span: Span) -> Diagnostic {
        Diagnostic::error(span, self.message()).with_help(self.help())
    }
}

/// A kind's header or declaration that breaks its rules (§2.1–§2.6).
#[derive(Clone, Debug, PartialEq)]
pub enum DeclError {
    /// `kind K@0`.
    InvalidVersion {
        /// The version written.
        version: i64,
    },
    /// `accepts 0`.
    AcceptsBelowOne {
        /// The kind's name.
        kind: String,
        /// The version accepted.
        accepts: i64,
    },
    /// `accepts` above the kind's version.
    AcceptsAboveVersion {
        /// The kind's name.
        kind: String,
        /// The kind's version.
        version: i64,
        /// The version accepted.
        accepts: i64,
    },
    /// A kind without a decision.
    NoDecisions {
        /// The kind's name.
        kind: String,
    },
    /// A member of a declaration given twice: an enum's value, a struct
    /// type's field, a decision's reason.
    MemberTwice {
        /// The declaration, like `enum Zone` or `decision deny`.
        owner: String,
        /// `value`, `field` or `reason`.
        member: &'static str,
        /// The member's name.
        name: String,
    },
    /// A host function whose result type is optional.
    OptionalResult {
        /// The function's name.
        function: String,
    },
    /// A payload field named `reason`.
    ReasonField {
        /// The field's place, like `decision deny, field "reason"`.
        place: String,
    },
    /// A payload field given twice.
    PayloadFieldTwice {
        /// The field's place, like `decision deny, field "x"`.
        place: String,
    },
    /// A decision in the legacy syntax, with its current form.
    LegacySyntax {
        /// The decision's name.
        name: String,
        /// The members' shape, like `reason: … code: …`.
        shape: String,
        /// The members as written in the current syntax.
        members: String,
    },
}

impl DeclError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            DeclError::InvalidVersion { version } => format!("invalid kind version {version}"),
            DeclError::AcceptsBelowOne { kind, accepts } => {
                format!("kind {kind} accepts version {accepts}, but versions start at 1")
            }
            DeclError::AcceptsAboveVersion {
                kind,
                version,
                accepts,
            } => format!("kind {kind} at version {version} can't accept version {accepts}"),
            DeclError::NoDecisions { kind } => format!("kind {kind} declares no decisions"),
            DeclError::MemberTwice {
                owner,
                member,
                name,
            } => format!("{owner}: {member} {} is declared twice", go_quote(name)),
            DeclError::OptionalResult { function } => {
                format!("function {function}: the result can't be optional")
            }
            DeclError::ReasonField { place } => format!("{place}: reason can't be a payload field"),
            DeclError::PayloadFieldTwice { place } => format!("{place}: declared twice"),
            DeclError::LegacySyntax { name, shape, .. } => {
                format!("old decision syntax; write `decision {name} {{ {shape} }}`")
            }
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            DeclError::InvalidVersion { .. } => {
                "versions start at 1; raise the number whenever the contract changes".to_owned()
            }
            DeclError::AcceptsBelowOne { .. } => "name the oldest version documents may pin, or leave `accepts` out to accept them all".to_owned(),
            DeclError::AcceptsAboveVersion { .. } => "`accepts` names the oldest version documents may pin, at most the kind's version".to_owned(),
            DeclError::NoDecisions { .. } => "declare at least one decision, like `decision deny { reason: no_rule_matched }`".to_owned(),
            DeclError::MemberTwice { member, .. } => format!("declare each {member} once"),
            DeclError::OptionalResult { .. } => "return a value that is always there, such as a zero value or a list, and let policies test it".to_owned(),
            DeclError::ReasonField { .. } => "list the reasons after `reason:` in the decision's body; every constructor names one".to_owned(),
            DeclError::PayloadFieldTwice { .. } => "declare each field once".to_owned(),
            DeclError::LegacySyntax { name, members, .. } => {
                format!("write `decision {name} {{ {members} }}`, or run `sigil fmt --write`")
            }
        }
    }

    /// The diagnostic for this error at `span`.
    pub fn to_diagnostic(&self, span: Span) -> Diagnostic {
        Diagnostic::error(span, self.message()).with_help(self.help())
    }
}
