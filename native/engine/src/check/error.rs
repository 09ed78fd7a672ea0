//! The checker's errors as values, and the only place their texts are
//! written, one enum per area like the lexer's and parser's: the
//! operators on values ([`OperatorError`]: comparisons, membership, list
//! operators, `has`, patterns; language-core §5.4–§5.8), quantifiers
//! ([`QuantifierError`]), names read as values and expected types
//! ([`ValueError`]), chains of fields, reasons, indexes and calls
//! ([`AccessError`]), the document's header, imports and names
//! ([`DocumentError`]), params ([`ParamError`]), statements and
//! constructors ([`StatementError`]), policy invocations
//! ([`InvocationError`]). Each variant names the problem; `message` and
//! `help` spell the exact texts (an empty help is none), [`Problem`]
//! places them.

use super::hints::candidates_help;
use crate::diag::{Diagnostic, go_quote};
use crate::source::Span;
use crate::types::Ty;

/// An operator applied to operands it doesn't take. `op` is the
/// operator as written (`==`, `in`, `all in`, …); `help` fields hold
/// advice worked out from the operands.
#[derive(Clone, Debug, PartialEq)]
pub enum OperatorError {
    /// A comparison on a type without it.
    Undefined {
        /// The operator.
        op: &'static str,
        /// The operand type.
        ty: Ty,
        /// Advice by the operands.
        help: String,
    },
    /// A comparison with an optional operand.
    ComparesOptional {
        /// The operator.
        op: &'static str,
        /// The optional type.
        ty: Ty,
        /// How to unwrap it.
        help: String,
    },
    /// A comparison of two types.
    DifferentTypes {
        /// The operator.
        op: &'static str,
        /// The left operand's type.
        left: Ty,
        /// The right operand's type.
        right: Ty,
        /// Advice by the operands.
        help: String,
    },
    /// `in` with a map on the right.
    InMap {
        /// The operator.
        op: &'static str,
        /// The `has` test to write instead.
        help: String,
    },
    /// `in` on a string with something else on the left.
    SubstringOfNonString {
        /// The operator.
        op: &'static str,
        /// The left operand's type.
        left: Ty,
    },
    /// `in` with something on the right that holds nothing.
    InNonContainer {
        /// The operator.
        op: &'static str,
        /// The right operand's type.
        right: Ty,
        /// How to unwrap it, when it is optional.
        help: String,
    },
    /// `in` with an element of another type than the list's.
    ElementType {
        /// The operator.
        op: &'static str,
        /// The element's type.
        left: Ty,
        /// The list's element type.
        elem: Ty,
        /// Advice by the operands.
        help: String,
    },
    /// Both operands empty literals.
    CannotInfer {
        /// The whole expression, canonical.
        text: String,
    },
    /// Elements that have no equality.
    ElementsIncomparable {
        /// The operator.
        op: &'static str,
        /// The element type.
        elem: Ty,
    },
    /// A list operator with something other than a list.
    NeedsLists {
        /// The operator.
        op: &'static str,
        /// The operand's type.
        ty: Ty,
        /// How to unwrap it, when it is optional.
        help: String,
    },
    /// A list operator on lists of two element types.
    ListElementTypes {
        /// The operator.
        op: &'static str,
        /// The left list's type.
        left: Ty,
        /// The right list's type.
        right: Ty,
    },
    /// `has` with something other than a map on the left.
    HasNeedsMap {
        /// The left operand's type.
        left: Ty,
        /// How to unwrap it, when it is optional.
        help: String,
    },
    /// `has` with neither a key nor a map of the left's type on the right.
    HasNeedsKey {
        /// The map's type.
        map: Ty,
        /// Its key type.
        key: Ty,
        /// The right operand's type.
        right: Ty,
    },
    /// `like`/`matches` with a computed pattern.
    PatternNotLiteral {
        /// The operator.
        op: &'static str,
    },
    /// `matches` with a pattern that isn't a regular expression.
    InvalidRegex {
        /// The regular expression parser's message.
        problem: String,
    },
    /// Unary `-` on something other than a number or duration.
    Negate {
        /// The operand's type.
        ty: Ty,
        /// How to unwrap it, when it is optional.
        help: String,
    },
    /// `present` on a value that can't be absent.
    AlwaysPresent {
        /// The operand, canonical.
        text: String,
        /// Its type.
        ty: Ty,
    },
    /// `??` with something other than an optional on the left.
    DefaultOfNonOptional {
        /// The left operand's type.
        ty: Ty,
    },
    /// Arithmetic on operands it isn't defined for.
    Arithmetic {
        /// The operator.
        op: &'static str,
        /// The left operand's type.
        left: Ty,
        /// The right operand's type.
        right: Ty,
        /// Advice by the operands.
        help: String,
    },
}

impl OperatorError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            OperatorError::Undefined { op, ty, .. } => format!("`{op}` isn't defined for {ty}"),
            OperatorError::ComparesOptional { op, ty, .. } => {
                format!("`{op}` can't compare {ty}; unwrap it first")
            }
            OperatorError::DifferentTypes {
                op, left, right, ..
            } => format!("`{op}` needs operands of the same type, found {left} and {right}"),
            OperatorError::InMap { op, .. } => {
                format!("`{op}` doesn't apply to a map; a key is tested with `has`")
            }
            OperatorError::SubstringOfNonString { op, left } => {
                format!("`{op}` needs a string on the left of a string, found {left}")
            }
            OperatorError::InNonContainer { op, right, .. } => {
                format!("`{op}` needs a list, map or string on the right, found {right}")
            }
            OperatorError::ElementType { op, left, elem, .. } => {
                format!("`{op}` needs an element of the list's type, found {left} in list<{elem}>")
            }
            OperatorError::CannotInfer { text } => format!("cannot infer the type of `{text}`"),
            OperatorError::ElementsIncomparable { op, elem } => {
                format!("`{op}` can't compare elements of type {elem}")
            }
            OperatorError::NeedsLists { op, ty, .. } => {
                format!("`{op}` needs lists on both sides, found {ty}")
            }
            OperatorError::ListElementTypes { op, left, right } => {
                format!("`{op}` needs lists of one element type, found {left} and {right}")
            }
            OperatorError::HasNeedsMap { left, .. } => {
                format!("`has` needs a map on the left, found {left}")
            }
            OperatorError::HasNeedsKey { map, key, right } => {
                format!("`has` needs {map} or a key of type {key}, found {right}")
            }
            OperatorError::PatternNotLiteral { op } => {
                format!("the pattern after `{op}` must be a string literal")
            }
            OperatorError::InvalidRegex { problem } => {
                format!("invalid regular expression: {problem}")
            }
            OperatorError::Negate { ty, .. } => {
                format!("`-` needs int, float or duration, found {ty}")
            }
            OperatorError::AlwaysPresent { text, ty } => {
                format!("`{text}` is {ty}, which is always present")
            }
            OperatorError::DefaultOfNonOptional { ty } => {
                format!("`??` needs an optional on the left, found {ty}")
            }
            OperatorError::Arithmetic {
                op, left, right, ..
            } => format!("`{op}` isn't defined for {left} and {right}"),
        }
    }

    /// What to do about it; empty when there is nothing to suggest.
    pub fn help(&self) -> String {
        match self {
            OperatorError::Undefined { help, .. }
            | OperatorError::ComparesOptional { help, .. }
            | OperatorError::DifferentTypes { help, .. }
            | OperatorError::InMap { help, .. }
            | OperatorError::InNonContainer { help, .. }
            | OperatorError::ElementType { help, .. }
            | OperatorError::NeedsLists { help, .. }
            | OperatorError::HasNeedsMap { help, .. }
            | OperatorError::Negate { help, .. }
            | OperatorError::Arithmetic { help, .. } => help.clone(),
            OperatorError::AlwaysPresent { .. } => {
                "only an optional value can be absent".to_owned()
            }
            OperatorError::DefaultOfNonOptional { .. } => {
                "only an optional (`?T`) value needs a default; this one is always present"
                    .to_owned()
            }
            OperatorError::SubstringOfNonString { .. } => {
                "`in` on a string tests for a substring".to_owned()
            }
            OperatorError::CannotInfer { .. } => {
                "add an element, or use it where a typed list is expected".to_owned()
            }
            OperatorError::ElementsIncomparable {
                elem: Ty::Candidate(_),
                ..
            } => {
                "candidates have no equality; compare a field of each, such as `reason`".to_owned()
            }
            OperatorError::ElementsIncomparable { .. } => {
                "structs have no equality; compare a field that identifies them, such as a name"
                    .to_owned()
            }
            OperatorError::ListElementTypes { .. } | OperatorError::HasNeedsKey { .. } => {
                String::new()
            }
            OperatorError::PatternNotLiteral { .. } => {
                "patterns compile once, when the policy loads, so they can't be computed".to_owned()
            }
            OperatorError::InvalidRegex { .. } => {
                "patterns are RE2 regular expressions, as Go's regexp package reads them".to_owned()
            }
        }
    }
}

/// A quantifier or filter that can't range or bind its variable
/// (language-core §5.10, §3.10).
#[derive(Clone, Debug, PartialEq)]
pub enum QuantifierError {
    /// A range that isn't a list.
    RangeNotList {
        /// `any`, `all`, `filter`, ….
        keyword: String,
        /// The range's type.
        ty: Ty,
        /// Advice by the range.
        help: String,
    },
    /// A variable named like something in scope.
    NameTaken {
        /// The variable's name.
        name: String,
        /// What has the name, with its article (`an input`).
        entity: String,
    },
}

impl QuantifierError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            QuantifierError::RangeNotList { keyword, ty, .. } => {
                format!("`{keyword}` needs a list to range over, found {ty}")
            }
            QuantifierError::NameTaken { name, entity } => {
                format!("`{name}` is already the name of {entity}")
            }
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            QuantifierError::RangeNotList { help, .. } => help.clone(),
            QuantifierError::NameTaken { .. } => {
                "nothing shadows anything; pick a name that isn't in use".to_owned()
            }
        }
    }
}

/// An error value of the checker, placed as a diagnostic.
pub(crate) trait Problem {
    /// The diagnostic for this error at `span`.
    fn to_diagnostic(&self, span: Span) -> Diagnostic;
}

/// Places each error type's `message` and `help`.
macro_rules! problems {
    ($($error:ty),+) => {$(
        impl Problem for $error {
            fn to_diagnostic(&self, span: Span) -> Diagnostic {
                Diagnostic::error(span, self.message()).with_help(self.help())
            }
        }
    )+};
}

problems!(
    OperatorError,
    QuantifierError,
    ValueError,
    AccessError,
    DocumentError,
    ParamError,
    StatementError,
    InvocationError
);

/// A name read as a value that isn't one, or an expression whose type is
/// wrong or can't be known (language-core §3, §4.8).
#[derive(Clone, Debug, PartialEq)]
pub enum ValueError {
    /// An expression of another type than the one required.
    Expected {
        /// The type required.
        want: Ty,
        /// The type found.
        found: Ty,
        /// Advice by the expression.
        help: String,
    },
    /// An empty literal nothing gives a type.
    CannotInfer {
        /// The expression, canonical.
        text: String,
    },
    /// A host function read as a value.
    FunctionAsValue {
        /// Its name.
        name: String,
        /// Its signature.
        signature: String,
    },
    /// An imported module read as a value.
    ModuleAsValue {
        /// Its name.
        name: String,
    },
    /// An imported policy read as a value.
    PolicyAsValue {
        /// Its name.
        name: String,
    },
    /// An enum type read as a value.
    EnumTypeAsValue {
        /// The enum.
        name: String,
        /// Its first value.
        first: String,
    },
    /// A let that reads itself.
    LetCycle {
        /// The let.
        name: String,
    },
    /// A bare name that isn't a value of the enum expected.
    NoEnumValue {
        /// The enum.
        enum_name: String,
        /// The name.
        name: String,
        /// The enum's values, with a did-you-mean.
        help: String,
    },
    /// A bare name that is a value of several enums.
    AmbiguousEnumValue {
        /// The name.
        name: String,
        /// The enums, sorted and listed (`A and B`).
        enums: String,
        /// The qualified forms, as declared (`` `A.x` or `B.x` ``).
        qualified: String,
    },
    /// A name nothing declares.
    UnknownName {
        /// The name.
        name: String,
        /// The closest name in scope, if one is close.
        near: Option<String>,
    },
    /// `outcome` outside an assert condition.
    OutcomeOutsideAssert,
    /// A decision's bare name read as a value outside an assert.
    DecisionAsValue {
        /// The decision.
        name: String,
    },
    /// A list literal with a candidate element.
    CandidateElement {
        /// The candidate's type.
        ty: Ty,
    },
    /// A map key that is a bare name nothing declares.
    UnknownMapKey {
        /// The name.
        name: String,
        /// The closest name in scope, if one is close.
        near: Option<String>,
    },
    /// A map literal with values of a type a map can't hold.
    MapValue {
        /// The value's type.
        ty: Ty,
    },
}

impl ValueError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            ValueError::Expected { want, found, .. } => format!("expected {want}, found {found}"),
            ValueError::CannotInfer { text } => format!("cannot infer the type of `{text}`"),
            ValueError::FunctionAsValue { name, .. } => {
                format!("`{name}` is a host function, not a value")
            }
            ValueError::ModuleAsValue { name } => format!("`{name}` is a module, not a value"),
            ValueError::PolicyAsValue { name } => {
                format!("`{name}` is an imported policy, not a value")
            }
            ValueError::EnumTypeAsValue { name, .. } => format!("{name} is an enum type"),
            ValueError::LetCycle { name } => format!("let `{name}` depends on itself"),
            ValueError::NoEnumValue {
                enum_name, name, ..
            } => format!("{enum_name} has no value `{name}`"),
            ValueError::AmbiguousEnumValue { name, enums, .. } => {
                format!("`{name}` is a value of {enums}")
            }
            ValueError::UnknownName { name, .. } => format!("unknown name `{name}`"),
            ValueError::OutcomeOutsideAssert => {
                "`outcome` can only be read in an assert condition".to_owned()
            }
            ValueError::DecisionAsValue { name } => {
                format!("`{name}` is a decision, not a value here")
            }
            ValueError::CandidateElement { ty } => format!("{ty} can't be a list element"),
            ValueError::UnknownMapKey { name, .. } => format!("unknown name `{name}`"),
            ValueError::MapValue { ty: Ty::Decision } => {
                "a decision can't be a map value".to_owned()
            }
            ValueError::MapValue { ty: Ty::Enum(_) } => "an enum can't be a map value".to_owned(),
            ValueError::MapValue { ty } => format!("{ty} can't be a map value"),
        }
    }

    /// What to do about it; empty when there is nothing to suggest.
    pub fn help(&self) -> String {
        match self {
            ValueError::Expected { help, .. } | ValueError::NoEnumValue { help, .. } => help.clone(),
            ValueError::CannotInfer { .. } => {
                "add an element, or use the literal where a typed list or map is expected"
                    .to_owned()
            }
            ValueError::FunctionAsValue { signature, .. } => {
                format!("call it with its arguments; it's declared as: {signature}")
            }
            ValueError::ModuleAsValue { name } => {
                format!("read one of its pub lets as `{name}.<let>`")
            }
            ValueError::PolicyAsValue { name } => format!(
                "invoke it as a statement, `{name}(<param>: <value>)`, or read one of its pub lets as `{name}.<let>`"
            ),
            ValueError::EnumTypeAsValue { name, first } => {
                format!("name one of its values, such as `{name}.{first}`")
            }
            ValueError::LetCycle { .. } => "lets form a directed acyclic graph; a let can't depend on itself, even through other lets".to_owned(),
            ValueError::AmbiguousEnumValue { qualified, .. } => format!("write {qualified}"),
            ValueError::UnknownName {
                near: Some(near), ..
            } => format!("did you mean `{near}`?"),
            ValueError::UnknownName { near: None, .. } => "names come from the kind's inputs, host functions, decisions and enum values, and the document's params, lets and imports".to_owned(),
            ValueError::OutcomeOutsideAssert => "a rule that read its own outcome could fire exactly when it doesn't; only `assert` conditions may read it".to_owned(),
            ValueError::DecisionAsValue { name } => format!(
                "to produce the decision, construct it inside a rule: `when <condition> {{ {name}(reason: <reason>) }}`; its bare name is only a value in an assert condition"
            ),
            ValueError::CandidateElement { .. } => candidates_help(),
            ValueError::UnknownMapKey { name, near } => {
                let quote = format!(
                    "a map key is an expression, so `{name}` reads as a name; for the string key, write `\"{name}\"`"
                );
                match near {
                    Some(near) => format!("{quote}, or did you mean `{near}`?"),
                    None => quote,
                }
            }
            ValueError::MapValue { ty: Ty::Decision } => "a missing key would read as the zero value, and a decision has none; test decisions with `in outcome`, or collect them in a list like `[deny, approve]`".to_owned(),
            ValueError::MapValue { ty: Ty::Enum(_) } => "a missing key would read as the zero value, and an enum has none; key the map by the enum instead, or use a list".to_owned(),
            ValueError::MapValue { .. } => candidates_help(),
        }
    }
}

/// The help of every call of something that isn't a host function.
const ONLY_HOST: &str = "policies can only call the host functions the kind declares";

/// A chain that reads what isn't there: a field, a reason, an index, an
/// imported let, a host function call (language-core §5.1, §5.2, §5.11).
/// `operand` fields hold the expression read, canonical.
#[derive(Clone, Debug, PartialEq)]
pub enum AccessError {
    /// `E?.v` on an enum type.
    OptionalEnumValue {
        /// The enum as written.
        name: String,
        /// The value after `?.`.
        value: String,
    },
    /// `outcome.d` for a decision the kind doesn't declare.
    UnknownDecision {
        /// The name after `outcome.`.
        decision: String,
        /// The kind's decisions, with a did-you-mean.
        help: String,
    },
    /// An imported let that isn't `pub`.
    PrivateLet {
        /// The let.
        name: String,
        /// The document it is in.
        document: String,
    },
    /// An imported document without such a `pub let`.
    NoPubLet {
        /// The name read.
        name: String,
        /// The document.
        document: String,
        /// Its pub lets, with a did-you-mean.
        help: String,
    },
    /// A reason the decision doesn't declare.
    NoReason {
        /// The decision.
        decision: String,
        /// The name read.
        reason: String,
        /// Advice by the name.
        help: String,
    },
    /// `x?.f` on a value that can't be absent.
    NotOptional {
        /// The operand.
        operand: String,
        /// The field.
        field: String,
    },
    /// `x.f` on an optional struct.
    MayBeAbsent {
        /// The operand.
        operand: String,
        /// Its type.
        ty: Ty,
        /// The field.
        field: String,
    },
    /// `x?.f` on an optional of something without fields.
    HoldsNoFields {
        /// The operand.
        operand: String,
        /// The type it holds.
        ty: Ty,
    },
    /// `x.f` on something without fields.
    NoFields {
        /// The operand.
        operand: String,
        /// Its type.
        ty: Ty,
        /// How to unwrap it, when it is optional.
        help: String,
    },
    /// A field a struct type doesn't declare.
    UnknownStructField {
        /// The field.
        field: String,
        /// The struct type.
        struct_name: String,
        /// Its fields, with a did-you-mean.
        help: String,
    },
    /// A field a candidate doesn't have.
    UnknownCandidateField {
        /// The field.
        field: String,
        /// The candidate's decision, with its article (`an approve`).
        decision: String,
        /// Its fields, with a did-you-mean.
        help: String,
    },
    /// `.r` on a decision value read from a candidate.
    ReasonOfDecisionValue {
        /// The value.
        value: String,
        /// The name after the dot.
        reason: String,
        /// The decision the value was read from.
        decision: String,
    },
    /// `.r` on any other decision value.
    ReasonOfValue {
        /// The value.
        value: String,
        /// The name after the dot.
        reason: String,
    },
    /// An index into a list of candidates.
    IndexedCandidates {
        /// The list.
        operand: String,
    },
    /// An index into something that isn't a list or map.
    NotIndexable {
        /// The operand.
        operand: String,
        /// Its type.
        ty: Ty,
        /// How to unwrap it, when it is optional.
        help: String,
    },
    /// A call of an expression that isn't a name.
    NotAFunction {
        /// The callee.
        callee: String,
    },
    /// A call of a name nothing declares.
    UnknownFunction {
        /// The name.
        name: String,
        /// The closest name in scope, if one is close.
        near: Option<String>,
    },
    /// A call of a name that is something else.
    CallsNonFunction {
        /// The name.
        name: String,
        /// What it is, with its article.
        entity: String,
    },
    /// A call with the wrong number of arguments.
    Arity {
        /// The function.
        name: String,
        /// The parameters it takes.
        params: usize,
        /// The arguments given.
        args: usize,
        /// Its signature.
        signature: String,
    },
}

impl AccessError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            AccessError::OptionalEnumValue { name, .. } => format!("`{name}` isn't optional"),
            AccessError::UnknownDecision { decision, .. } => {
                format!("the kind declares no decision `{decision}`")
            }
            AccessError::PrivateLet { name, document } => {
                format!("let `{name}` of {document} is private")
            }
            AccessError::NoPubLet { name, document, .. } => {
                format!("{document} has no pub let `{name}`")
            }
            AccessError::NoReason {
                decision, reason, ..
            } => format!("decision {decision} has no reason `{reason}`"),
            AccessError::NotOptional { operand, .. } => format!("`{operand}` isn't optional"),
            AccessError::MayBeAbsent { operand, ty, .. } => {
                format!("`{operand}` is {ty}, which may be absent")
            }
            AccessError::HoldsNoFields { operand, ty } => {
                format!("`{operand}` holds {ty}, which has no fields")
            }
            AccessError::NoFields { operand, ty, .. } => {
                format!("`{operand}` is {ty}, which has no fields")
            }
            AccessError::UnknownStructField {
                field, struct_name, ..
            } => format!("unknown field {} on type {struct_name}", go_quote(field)),
            AccessError::UnknownCandidateField {
                field, decision, ..
            } => format!("unknown field {} on {decision} candidate", go_quote(field)),
            AccessError::ReasonOfDecisionValue { value, reason, .. } => format!(
                "`{value}` is a decision value, not a decision's name, so `.{reason}` names no reason"
            ),
            AccessError::ReasonOfValue { value, reason } => {
                format!("`{value}.{reason}` names no reason")
            }
            AccessError::IndexedCandidates { operand } => {
                format!("`{operand}` is a list of candidates, which can't be indexed")
            }
            AccessError::NotIndexable { operand, ty, .. } => {
                format!("`{operand}` is {ty}, which can't be indexed")
            }
            AccessError::NotAFunction { callee } => format!("`{callee}` isn't a function"),
            AccessError::UnknownFunction { name, .. } => format!("unknown function `{name}`"),
            AccessError::CallsNonFunction { name, entity } => {
                format!("`{name}` is {entity}, not a function")
            }
            AccessError::Arity {
                name, params, args, ..
            } => {
                let plural = if *params == 1 { "" } else { "s" };
                format!("`{name}` takes {params} argument{plural}, found {args}")
            }
        }
    }

    /// What to do about it; empty when there is nothing to suggest.
    pub fn help(&self) -> String {
        match self {
            AccessError::OptionalEnumValue { name, value } => {
                format!("write `{name}.{value}`; `?.` reads a field of an optional struct")
            }
            AccessError::UnknownDecision { help, .. }
            | AccessError::NoPubLet { help, .. }
            | AccessError::NoReason { help, .. }
            | AccessError::NoFields { help, .. }
            | AccessError::UnknownStructField { help, .. }
            | AccessError::UnknownCandidateField { help, .. }
            | AccessError::NotIndexable { help, .. } => help.clone(),
            AccessError::PrivateLet { name, document } => {
                format!("mark it `pub let {name}` in {document} to import it")
            }
            AccessError::NotOptional { operand, field } => format!(
                "read the field with `{operand}.{field}`; `?.` is for a struct that may be absent"
            ),
            AccessError::MayBeAbsent { operand, field, .. } => {
                format!("read the field with `{operand}?.{field}`")
            }
            AccessError::HoldsNoFields { .. } => String::new(),
            AccessError::ReasonOfDecisionValue {
                value,
                reason,
                decision,
            } => format!(
                "compare the whole value instead, like `{value} == {decision}.{reason}`, or test it with `in`"
            ),
            AccessError::ReasonOfValue { .. } => {
                "a reason follows a decision's name directly, like `approve.release_manager`"
                    .to_owned()
            }
            AccessError::IndexedCandidates { operand } => format!(
                "the order of candidates isn't part of the outcome; test every one with `all x in {operand}: ...`, or `any`"
            ),
            AccessError::UnknownFunction {
                near: Some(near), ..
            } => format!("did you mean `{near}`?"),
            AccessError::NotAFunction { .. }
            | AccessError::UnknownFunction { near: None, .. }
            | AccessError::CallsNonFunction { .. } => ONLY_HOST.to_owned(),
            AccessError::Arity { signature, .. } => format!("it's declared as: {signature}"),
        }
    }
}

/// The document's kind pin, its imports and the names it declares
/// (language-policies §2.1, §3.2, §3.4, §3.10).
#[derive(Clone, Debug, PartialEq)]
pub enum DocumentError {
    /// A kind named without `@version`.
    MissingPin {
        /// The kind.
        kind: String,
        /// Its current version.
        version: i64,
    },
    /// A pin newer than the kind.
    PinTooNew {
        /// The kind.
        kind: String,
        /// The version pinned.
        pin: i64,
        /// The kind's current version.
        version: i64,
    },
    /// A pin older than the kind accepts.
    PinTooOld {
        /// The kind.
        kind: String,
        /// The version pinned.
        pin: i64,
        /// The oldest version the kind accepts.
        accepts: i64,
    },
    /// `use` of a kind document.
    ImportsKind {
        /// The path as written.
        path: String,
    },
    /// `use` of a name no document of the bundle has.
    UnknownDocument {
        /// The path as written.
        path: String,
    },
    /// A name that already means something in the document.
    NameTaken {
        /// The name.
        name: String,
        /// What has it, with its article (`an input`).
        entity: &'static str,
    },
    /// A scoped let named like a let of another `when` body.
    LetInOtherBody {
        /// The let.
        name: String,
    },
    /// A `pub let` of a policy that reads a param.
    PubLetReadsParam {
        /// The let.
        name: String,
        /// The param it reads.
        param: String,
    },
}

impl DocumentError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            DocumentError::MissingPin { kind, .. } => format!("`{kind}` needs a version"),
            DocumentError::PinTooNew { kind, pin, version } => {
                format!("{kind}@{pin} is newer than the kind, which is at version {version}")
            }
            DocumentError::PinTooOld { kind, pin, accepts } => format!(
                "{kind}@{pin} is no longer accepted; the kind accepts version {accepts} and later"
            ),
            DocumentError::ImportsKind { path } => {
                format!("`{path}` is a kind, not a policy or module")
            }
            DocumentError::UnknownDocument { path } => format!("unknown document `{path}`"),
            DocumentError::NameTaken { name, entity } => {
                format!("`{name}` is already the name of {entity}")
            }
            DocumentError::LetInOtherBody { name } => {
                format!("`{name}` is already the name of a let in another `when` body")
            }
            DocumentError::PubLetReadsParam { name, param } => {
                format!("let `{name}` can't be `pub`: it reads param `{param}`")
            }
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            DocumentError::MissingPin { kind, version } => format!(
                "pin the kind version the document was written against, like `{kind}@{version}`"
            ),
            DocumentError::PinTooNew { .. } => "the kind is older than the document; check the document against this version and lower the pin".to_owned(),
            DocumentError::PinTooOld { pin, .. } => format!(
                "review the document against the kind's changes since version {pin}, then raise the pin"
            ),
            DocumentError::ImportsKind { .. } => "`use` names a policy or module by the name in its header; the kind is the document's contract already".to_owned(),
            DocumentError::UnknownDocument { .. } => {
                "`use` names a policy or module by the name in its header, wherever its file is"
                    .to_owned()
            }
            DocumentError::NameTaken { .. } => {
                "every name in a document means one thing; rename one of them".to_owned()
            }
            DocumentError::LetInOtherBody { .. } => "let names are unique in a document, so a trace can name each one; rename one of them".to_owned(),
            DocumentError::PubLetReadsParam { .. } => "a param has no value outside an invocation; move the let to a module, or drop `pub`".to_owned(),
        }
    }
}

/// Where a value falls outside a param's bounds, with the bound it
/// crosses as a constant's text.
#[derive(Clone, Debug, PartialEq)]
pub enum OutOfBounds {
    /// Below `min`.
    BelowMinimum(String),
    /// Above `max`.
    AboveMaximum(String),
}

impl std::fmt::Display for OutOfBounds {
    /// `is below the minimum «lo»` or `is above the maximum «hi»`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutOfBounds::BelowMinimum(lo) => write!(f, "is below the minimum {lo}"),
            OutOfBounds::AboveMaximum(hi) => write!(f, "is above the maximum {hi}"),
        }
    }
}

/// A `param` declaration's type, bounds and default (language-policies
/// §3.3). Values are constants' texts.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    /// An optional type.
    Optional {
        /// The param.
        name: String,
        /// The type it holds.
        elem: Ty,
    },
    /// Bounds on a type without an order.
    BoundsOnType {
        /// The param's type.
        ty: Ty,
    },
    /// `max` below `min`.
    MaxBelowMin {
        /// The maximum.
        max: String,
        /// The minimum.
        min: String,
    },
    /// A default outside the bounds.
    DefaultOutOfBounds {
        /// The default.
        default: String,
        /// The bound it crosses.
        bound: OutOfBounds,
    },
}

impl ParamError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            ParamError::Optional { .. } => "a param can't be optional".to_owned(),
            ParamError::BoundsOnType { ty } => format!("a param of type {ty} can't have bounds"),
            ParamError::MaxBelowMin { max, min } => format!("max {max} is below min {min}"),
            ParamError::DefaultOutOfBounds { default, bound } => {
                format!("default {default} {bound}")
            }
        }
    }

    /// What to do about it; empty when there is nothing to suggest.
    pub fn help(&self) -> String {
        match self {
            ParamError::Optional { name, elem } => format!(
                "an optional param is a param with a default; write `param {name}: {elem} = <default>`"
            ),
            ParamError::BoundsOnType { .. } => {
                "bounds apply to int, float and duration params".to_owned()
            }
            ParamError::MaxBelowMin { .. } => String::new(),
            ParamError::DefaultOutOfBounds { .. } => {
                "a default has to be a value the param accepts".to_owned()
            }
        }
    }
}

/// An assert, or a call statement in the wrong place or naming something
/// that can't be called (language-policies §3.6–§3.8). A constructor's
/// reason and payload share the kind loader's rules and texts
/// ([`crate::kind::ConstructorError`]).
#[derive(Clone, Debug, PartialEq)]
pub enum StatementError {
    /// An assert whose reason is `""`.
    EmptyAssertReason,
    /// A constructor at the document's top level.
    ConstructorAtTopLevel {
        /// The decision.
        decision: String,
    },
    /// A call of an imported module.
    InvokesModule {
        /// The name called.
        name: String,
    },
    /// A call of a name that is neither a decision nor a policy.
    NotADecision {
        /// The name called.
        name: String,
        /// What it is, with its article.
        entity: &'static str,
    },
    /// A call of a name nothing declares.
    UnknownDecision {
        /// The name called.
        name: String,
        /// The closest name in scope, if one is close.
        near: Option<String>,
    },
}

impl StatementError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            StatementError::EmptyAssertReason => "an assert's reason can't be empty".to_owned(),
            StatementError::ConstructorAtTopLevel { .. } => {
                "decision constructors go inside a `when` block".to_owned()
            }
            StatementError::InvokesModule { name } => {
                format!("`{name}` is a module and can't be invoked")
            }
            StatementError::NotADecision { name, entity } => {
                format!("`{name}` is {entity}, not a decision")
            }
            StatementError::UnknownDecision { name, .. } => format!("unknown decision `{name}`"),
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            StatementError::EmptyAssertReason => {
                "the reason is a stable identifier for metrics and grep, like `sod_customer_dev`"
                    .to_owned()
            }
            StatementError::ConstructorAtTopLevel { decision } => format!(
                "a constructor here would fire for every input; wrap it in `when true {{ {decision}(...) }}` if that's what you mean"
            ),
            StatementError::InvokesModule { name } => format!(
                "a module holds only lets; read one as `{name}.<let>`, or import a policy to invoke"
            ),
            StatementError::NotADecision { .. } => {
                "only the kind's decisions can be constructed, and only imported policies invoked"
                    .to_owned()
            }
            StatementError::UnknownDecision {
                near: Some(near), ..
            } => format!("did you mean `{near}`?"),
            StatementError::UnknownDecision { near: None, .. } => {
                "constructors name one of the kind's decisions; invocations name an imported policy"
                    .to_owned()
            }
        }
    }
}

/// What an invocation argument reads that isn't known when the policy
/// compiles (language-policies §3.8 rule 4).
#[derive(Clone, Debug, PartialEq)]
pub enum DynamicRead {
    /// An input.
    Input(String),
    /// A let of the document.
    Let(String),
    /// An imported let, as written (`m.x` or its local name).
    ImportedLet(String),
    /// A host function call.
    HostCall,
    /// A quantifier or filter, with its range (canonical).
    Quantifier(String),
}

/// A policy invocation's arguments (language-policies §3.8).
#[derive(Clone, Debug, PartialEq)]
pub enum InvocationError {
    /// An argument without a param's name.
    Positional {
        /// The name called (the import's local name).
        callee: String,
    },
    /// A param bound twice.
    ParamTwice {
        /// The param.
        param: String,
    },
    /// A param without default that the call doesn't bind.
    Unbound {
        /// The invoked policy's name.
        policy: String,
        /// The param.
        param: String,
        /// The name called.
        callee: String,
    },
    /// An argument for a param the policy doesn't declare.
    UnknownParam {
        /// The invoked policy's name.
        policy: String,
        /// The argument's name.
        param: String,
        /// The params it declares, in order.
        params: Vec<String>,
        /// The closest of them, if one is close.
        near: Option<String>,
    },
    /// An argument that isn't static.
    Dynamic {
        /// The first thing it reads that isn't.
        read: DynamicRead,
    },
    /// An argument's value outside the param's bounds.
    OutOfBounds {
        /// The invoked policy's name.
        policy: String,
        /// The param.
        param: String,
        /// The value, as a constant's text.
        value: String,
        /// The bound it crosses.
        bound: OutOfBounds,
        /// The param's declaration, whitespace collapsed.
        declaration: String,
    },
}

impl InvocationError {
    /// The message.
    pub fn message(&self) -> String {
        match self {
            InvocationError::Positional { .. } => "invocation arguments are named".to_owned(),
            InvocationError::ParamTwice { param } => format!("param `{param}` is given twice"),
            InvocationError::Unbound { policy, param, .. } => {
                format!("invocation of {policy} doesn't bind param `{param}`")
            }
            InvocationError::UnknownParam { policy, param, .. } => {
                format!("policy {policy} has no param `{param}`")
            }
            InvocationError::Dynamic { read } => match read {
                DynamicRead::Input(name) => format!("invocation argument reads input `{name}`"),
                DynamicRead::Let(name) => format!("invocation argument reads let `{name}`"),
                DynamicRead::ImportedLet(name) => {
                    format!("invocation argument reads imported let `{name}`")
                }
                DynamicRead::HostCall => "invocation argument calls a host function".to_owned(),
                DynamicRead::Quantifier(range) => {
                    format!("invocation argument quantifies over `{range}`")
                }
            },
            InvocationError::OutOfBounds {
                param,
                value,
                bound,
                ..
            } => format!("{param}: {value} {bound}"),
        }
    }

    /// What to do about it.
    pub fn help(&self) -> String {
        match self {
            InvocationError::Positional { callee } => {
                format!("name the param it binds, like `{callee}(<param>: <value>)`")
            }
            InvocationError::ParamTwice { .. } => "bind each param once".to_owned(),
            InvocationError::Unbound { param, callee, .. } => {
                format!("bind it in the invocation: `{callee}({param}: ...)`")
            }
            InvocationError::UnknownParam {
                policy,
                params,
                near,
                ..
            } => {
                let declares = match params.is_empty() {
                    true => format!("{policy} declares no params"),
                    false => format!("{policy} declares: {}", params.join(", ")),
                };
                match near {
                    Some(near) => format!("did you mean `{near}`? {declares}"),
                    None => declares,
                }
            }
            InvocationError::Dynamic { .. } => "an invocation is bound when the policy compiles, so its arguments can only be constants and this document's params".to_owned(),
            InvocationError::OutOfBounds {
                policy,
                declaration,
                ..
            } => format!("{policy} declares `{declaration}`"),
        }
    }
}
