//! The kind loader's and type resolution's errors as values, and the only
//! place their texts are written (language-policies §2), one enum per area:
//! types ([`TypeError`]), names ([`NameError`]), the header and the
//! declarations ([`DeclError`]), decision constructors and the outcomes
//! built with them ([`ConstructorError`]), how candidates resolve
//! ([`ResolutionError`]). Each variant names the
//! problem; `message` and `help` spell the exact texts, `to_diagnostic`
//! places them.

use super::DecisionDef;
use crate::diag::{Diagnostic, did_you_mean, go_quote, merge_help};
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

/// A decision constructor that breaks the rules of its reason and payload
/// (language-policies §3.6), in a kind's `default`/`conflict` or in a
/// policy; and the kind's rules for those two outcomes (§2.10, §2.11).
#[derive(Clone, Debug, PartialEq)]
pub enum ConstructorError {
    /// A kind that collects one decision without a `default`.
    NoDefault {
        /// The kind's name.
        kind: String,
    },
    /// A `conflict` in a kind that collects all decisions.
    ConflictWhenCollectingAll {
        /// The kind's name.
        kind: String,
    },
    /// `default`/`conflict` naming no decision of the kind.
    UndeclaredDecision {
        /// `default` or `conflict`.
        what: String,
        /// The name written.
        name: String,
        /// The did-you-mean sentence, when a decision is close.
        did_you_mean: Option<String>,
    },
    /// A constructor without `reason:`.
    NeedsReason {
        /// The decision.
        decision: String,
        /// The sentence listing its reasons.
        declares: String,
    },
    /// `reason:` given twice.
    ReasonTwice,
    /// A reason the decision doesn't declare.
    NoSuchReason {
        /// The decision.
        decision: String,
        /// The reason written.
        reason: String,
        /// The decision's reasons, with a did-you-mean.
        help: String,
    },
    /// `reason: "x"`.
    StringReason {
        /// The string's text.
        text: String,
    },
    /// `reason: a.b`.
    QualifiedReason {
        /// The name after the dot.
        name: String,
    },
    /// `reason:` with anything else.
    NotAReasonName,
    /// `d(x)`: the legacy positional reason.
    PositionalReason {
        /// The call rewritten with `reason:` first.
        rewritten: String,
    },
    /// A payload argument naming no field of the decision.
    NoPayloadField {
        /// The decision.
        decision: String,
        /// The field written.
        field: String,
        /// A did-you-mean and the decision's signature.
        help: String,
    },
    /// A payload field given twice.
    FieldTwice {
        /// The field.
        field: String,
        /// In a kind's `default` or `conflict`, rather than in a policy's
        /// constructor (the reference words the help differently).
        in_kind: bool,
    },
    /// A payload field without a default, not given.
    NeedsField {
        /// The decision.
        decision: String,
        /// The field.
        field: String,
        /// The decision's signature.
        signature: String,
    },
}

impl ConstructorError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            ConstructorError::NoDefault { kind } => format!("kind {kind} has no default decision"),
            ConstructorError::ConflictWhenCollectingAll { kind } => {
                format!("kind {kind} collects all decisions and can't declare a conflict outcome")
            }
            ConstructorError::UndeclaredDecision { what, name, .. } => {
                format!("{what} names undeclared decision {}", go_quote(name))
            }
            ConstructorError::NeedsReason { decision, .. } => {
                format!("decision {decision} needs a reason")
            }
            ConstructorError::ReasonTwice => "field \"reason\" is given twice".to_owned(),
            ConstructorError::NoSuchReason {
                decision, reason, ..
            } => format!("decision {decision} has no reason `{reason}`"),
            ConstructorError::StringReason { .. } | ConstructorError::NotAReasonName => {
                "decision reason must be a bare name".to_owned()
            }
            ConstructorError::QualifiedReason { .. } => "a reason is a bare name".to_owned(),
            ConstructorError::PositionalReason { .. } => {
                "the reason is a named argument".to_owned()
            }
            ConstructorError::NoPayloadField {
                decision, field, ..
            } => format!(
                "decision {decision} has no payload field {}",
                go_quote(field)
            ),
            ConstructorError::FieldTwice { field, .. } => {
                format!("field {} is given twice", go_quote(field))
            }
            ConstructorError::NeedsField {
                decision, field, ..
            } => format!("decision {decision} needs field {}", go_quote(field)),
        }
    }

    /// A payload argument `field` that names no field of `decision`, with a
    /// did-you-mean and the decision's signature as help.
    pub fn no_payload_field(decision: &DecisionDef, field: &str) -> Self {
        let fields = decision.fields.iter().map(|f| f.name.as_str());
        ConstructorError::NoPayloadField {
            decision: decision.name.clone(),
            field: field.to_owned(),
            help: merge_help([
                did_you_mean(field, fields).unwrap_or_default(),
                decision.signature(),
            ]),
        }
    }

    /// What to do about it, when there is something to suggest.
    pub fn help(&self) -> Option<String> {
        let help = match self {
            ConstructorError::NoDefault { .. } => "declare what an evaluation returns when no rule fires, like `default deny(reason: no_rule_matched)`".to_owned(),
            ConstructorError::ConflictWhenCollectingAll { .. } => "a collecting kind returns an empty outcome on a conflict, because granting anything on a defect in the policy would fail open; remove `conflict`".to_owned(),
            ConstructorError::UndeclaredDecision {
                what, did_you_mean, ..
            } => merge_help([
                did_you_mean.clone().unwrap_or_default(),
                format!("the {what} constructs one of the kind's decisions"),
            ]),
            ConstructorError::NeedsReason { decision, declares } => {
                format!("write `{decision}(reason: <reason>)`; {declares}")
            }
            ConstructorError::ReasonTwice => "give the reason once".to_owned(),
            ConstructorError::NoSuchReason { help, .. }
            | ConstructorError::NoPayloadField { help, .. } => help.clone(),
            ConstructorError::StringReason { text } => {
                format!("reasons are declared names, not strings; write `reason: {text}`")
            }
            ConstructorError::QualifiedReason { name } => format!("write `reason: {name}`"),
            ConstructorError::NotAReasonName => return None,
            ConstructorError::PositionalReason { rewritten } => format!("write `{rewritten}`"),
            ConstructorError::FieldTwice { in_kind: true, .. } => "give each field once".to_owned(),
            ConstructorError::FieldTwice { in_kind: false, .. } => {
                "pass each field once".to_owned()
            }
            ConstructorError::NeedsField { signature, .. } => signature.clone(),
        };
        Some(help)
    }

    /// The diagnostic for this error at `span`.
    pub fn to_diagnostic(&self, span: Span) -> Diagnostic {
        Diagnostic::error(span, self.message()).with_optional_help(self.help())
    }
}

/// A problem with how candidates resolve (§2.7–§2.9): `collect`,
/// `precedence` rankings and `exclusive` sets.
#[derive(Clone, Debug, PartialEq)]
pub enum ResolutionError {
    /// A declaration the kind may have once, given again.
    DeclaredTwice {
        /// `precedence`, `collect`, `default` or `conflict`.
        what: String,
    },
    /// A `precedence` without `collect`.
    PrecedenceWithoutCollect {
        /// The kind's name.
        kind: String,
    },
    /// Neither `collect` nor `precedence`.
    NoCollect {
        /// The kind's name.
        kind: String,
    },
    /// `collect one` without a `precedence`.
    CollectOneWithoutPrecedence {
        /// The kind's name.
        kind: String,
    },
    /// A second ranking of one decision's reasons.
    ReasonRankingTwice {
        /// The decision.
        decision: String,
    },
    /// A ranking naming something undeclared.
    RanksUndeclared {
        /// `precedence` or `precedence d:`.
        prefix: String,
        /// `decision` or `reason`.
        noun: &'static str,
        /// The name.
        name: String,
        /// What is declared, with a did-you-mean.
        help: String,
    },
    /// A ranking naming something twice.
    RanksTwice {
        /// `precedence` or `precedence d:`.
        prefix: String,
        /// `decision` or `reason`.
        noun: &'static str,
        /// The name.
        name: String,
    },
    /// A ranking leaving a declared name out.
    RankingMisses {
        /// `precedence` or `precedence d:`.
        prefix: String,
        /// `decision` or `reason`.
        noun: &'static str,
        /// The name left out.
        name: String,
    },
    /// A `precedence d:` or `exclusive` naming an undeclared decision.
    UndeclaredDecision {
        /// `precedence:` or `exclusive:`.
        place: &'static str,
        /// The name.
        name: String,
        /// The did-you-mean sentence, when a decision is close.
        did_you_mean: Option<String>,
    },
    /// An `exclusive` naming a reason its decision doesn't declare.
    ExclusiveNoReason {
        /// The decision.
        decision: String,
        /// The reason.
        reason: String,
        /// The sentence listing the decision's reasons.
        declares: String,
    },
}

impl ResolutionError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            ResolutionError::DeclaredTwice { what } => format!("{what} is declared twice"),
            ResolutionError::PrecedenceWithoutCollect { kind } => {
                format!("kind {kind} has precedence but no collect")
            }
            ResolutionError::NoCollect { kind } => {
                format!("kind {kind} doesn't declare how many decisions it returns")
            }
            ResolutionError::CollectOneWithoutPrecedence { kind } => {
                format!("kind {kind} collects one decision but has no precedence")
            }
            ResolutionError::ReasonRankingTwice { decision } => {
                format!("precedence {decision} is declared twice")
            }
            ResolutionError::RanksUndeclared {
                prefix, noun, name, ..
            } => format!("{prefix} names undeclared {noun} {}", go_quote(name)),
            ResolutionError::RanksTwice { prefix, name, .. } => {
                format!("{prefix} names {} twice", go_quote(name))
            }
            ResolutionError::RankingMisses { prefix, noun, name } => {
                format!("{prefix} doesn't name {noun} {}", go_quote(name))
            }
            ResolutionError::UndeclaredDecision { place, name, .. } => {
                format!("{place} undeclared decision {}", go_quote(name))
            }
            ResolutionError::ExclusiveNoReason {
                decision, reason, ..
            } => format!(
                "exclusive: decision {decision} has no reason {}",
                go_quote(reason)
            ),
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            ResolutionError::DeclaredTwice { what } => {
                format!("a kind declares `{what}` once; remove one")
            }
            ResolutionError::PrecedenceWithoutCollect { .. } => "add `collect one` to return the highest-ranked decision, or `collect all` for every one at the top rank".to_owned(),
            ResolutionError::NoCollect { .. } => {
                "add `collect one` with a `precedence`, or `collect all`".to_owned()
            }
            ResolutionError::CollectOneWithoutPrecedence { .. } => {
                "rank the decisions, highest first, like `precedence deny > review > approve`"
                    .to_owned()
            }
            ResolutionError::ReasonRankingTwice { decision } => {
                format!("rank the reasons of {decision} in one `precedence {decision}: …`")
            }
            ResolutionError::RanksUndeclared { help, .. } => help.clone(),
            ResolutionError::RanksTwice { noun, .. } => format!("name every {noun} exactly once"),
            ResolutionError::RankingMisses { noun, .. } => {
                format!("name every {noun} exactly once, highest first")
            }
            ResolutionError::UndeclaredDecision { did_you_mean, .. } => merge_help([
                did_you_mean.clone().unwrap_or_default(),
                "name one of the kind's decisions".to_owned(),
            ]),
            ResolutionError::ExclusiveNoReason { declares, .. } => declares.clone(),
        }
    }

    /// The diagnostic for this error at `span`.
    pub fn to_diagnostic(&self, span: Span) -> Diagnostic {
        Diagnostic::error(span, self.message()).with_help(self.help())
    }
}
