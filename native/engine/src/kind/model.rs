//! The model of a loaded kind (language-policies §2): what policies are
//! checked and evaluated against.
//!
//! Every list is in *model order*: for a kind document, the order of its
//! declarations in the file, category by category (§2.14). Lookups are
//! linear: a kind declares tens of names, and a scan of that many is faster
//! than hashing.

pub use crate::types::EnumDef;
use crate::types::Ty;
use crate::value::Value;

/// A valid kind: every rule of §2.12 holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Kind {
    /// The kind's name.
    pub name: String,
    /// Its version, at least 1.
    pub version: i64,
    /// The oldest version a document may pin, 1 ≤ accepts ≤ version.
    pub accepts: i64,
    /// `enum` declarations.
    pub enums: Vec<EnumDef>,
    /// `type` declarations.
    pub types: Vec<StructDef>,
    /// `input` declarations.
    pub inputs: Vec<InputDef>,
    /// `fn` declarations.
    pub funcs: Vec<FnDef>,
    /// `decision` declarations, at least one.
    pub decisions: Vec<DecisionDef>,
    /// `collect one` or `collect all`.
    pub collect: Collect,
    /// The decision ranking, highest first; empty when the kind declares
    /// none (only allowed with `collect all`).
    pub precedence: Vec<String>,
    /// The `exclusive` sets, each of at least two outcomes.
    pub exclusive: Vec<Vec<OutcomeRef>>,
    /// The `default` outcome (required with `collect one`).
    pub default: Option<Outcome>,
    /// The `conflict` outcome (only with `collect one`).
    pub conflict: Option<Outcome>,
}

/// `type Name { field: T … }`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDef {
    /// The type's name.
    pub name: String,
    /// Its fields in declaration order, names unique.
    pub fields: Vec<FieldDef>,
}

/// A struct field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDef {
    /// The field's name (may be spelled like a keyword).
    pub name: String,
    /// Its type.
    pub ty: Ty,
}

/// `input name: T`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputDef {
    /// The input's name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
}

/// `fn name(T, …) -> R`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnDef {
    /// The function's name.
    pub name: String,
    /// Parameter types, in order.
    pub params: Vec<Ty>,
    /// The result type, never optional.
    pub result: Ty,
}

impl FnDef {
    /// `fn name(T, …) -> R`, as the kind declares it and helps quote it.
    pub fn signature(&self) -> String {
        let params: Vec<String> = self.params.iter().map(ToString::to_string).collect();
        format!("fn {}({}) -> {}", self.name, params.join(", "), self.result)
    }
}

/// `decision name { reason: a | b  field: T = c }`
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionDef {
    /// The decision's name.
    pub name: String,
    /// Its reasons in declaration order, at least one, unique.
    pub reasons: Vec<String>,
    /// Its payload fields in declaration order.
    pub fields: Vec<PayloadField>,
    /// The reason ranking `precedence name: r1 > r2`, highest first, when
    /// the kind declares one.
    pub ranked: Option<Vec<String>>,
}

/// A payload field of a decision.
#[derive(Clone, Debug, PartialEq)]
pub struct PayloadField {
    /// The field's name, never `reason`.
    pub name: String,
    /// Its type, never `decision`.
    pub ty: Ty,
    /// Its default, a constant of `ty`; a field without one is required at
    /// every constructor.
    pub default: Option<Value>,
}

/// How many decisions an evaluation returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collect {
    /// `collect one`: one winner, or a conflict.
    One,
    /// `collect all`: every folded candidate (at the top rank).
    All,
}

/// `d` or `d.r` in an `exclusive` set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeRef {
    /// The decision.
    pub decision: String,
    /// The reason, when the entry names one.
    pub reason: Option<String>,
}

/// The `default` or `conflict` outcome: a constructor with constant
/// arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The decision constructed.
    pub decision: String,
    /// Its reason.
    pub reason: String,
    /// The payload arguments as written in the kind (names and constant
    /// values), in source order; fields left out take their defaults.
    pub args: Vec<(String, Value)>,
}

/// What a name of the kind namespace (§2.13) stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KindName<'k> {
    /// An input.
    Input(&'k InputDef),
    /// A host function.
    Func(&'k FnDef),
    /// A decision.
    Decision(&'k DecisionDef),
    /// An enum's name.
    EnumType(&'k EnumDef),
    /// A value of at least one enum (see [`Kind::enums_declaring`]).
    EnumValue,
}

impl Kind {
    /// The enum called `name`.
    pub fn enum_def(&self, name: &str) -> Option<&EnumDef> {
        self.enums.iter().find(|e| e.name == name)
    }

    /// The struct type called `name`.
    pub fn struct_def(&self, name: &str) -> Option<&StructDef> {
        self.types.iter().find(|t| t.name == name)
    }

    /// The input called `name`.
    pub fn input(&self, name: &str) -> Option<&InputDef> {
        self.inputs.iter().find(|i| i.name == name)
    }

    /// The host function called `name`.
    pub fn func(&self, name: &str) -> Option<&FnDef> {
        self.funcs.iter().find(|f| f.name == name)
    }

    /// The decision called `name`.
    pub fn decision(&self, name: &str) -> Option<&DecisionDef> {
        self.decisions.iter().find(|d| d.name == name)
    }

    /// The enums that declare the value `value`, in declaration order.
    pub fn enums_declaring<'k>(&'k self, value: &'k str) -> impl Iterator<Item = &'k EnumDef> {
        self.enums.iter().filter(move |e| e.declares(value))
    }

    /// What `name` stands for in the kind namespace, if anything.
    pub fn name(&self, name: &str) -> Option<KindName<'_>> {
        if let Some(input) = self.input(name) {
            return Some(KindName::Input(input));
        }
        if let Some(func) = self.func(name) {
            return Some(KindName::Func(func));
        }
        if let Some(decision) = self.decision(name) {
            return Some(KindName::Decision(decision));
        }
        if let Some(e) = self.enum_def(name) {
            return Some(KindName::EnumType(e));
        }
        self.enums_declaring(name)
            .next()
            .map(|_| KindName::EnumValue)
    }
}

impl EnumDef {
    /// Whether the enum declares `value`.
    pub fn declares(&self, value: &str) -> bool {
        self.values.iter().any(|v| v == value)
    }

    /// `<E> declares: a, b, c`, the help that lists the values.
    pub fn declares_sentence(&self) -> String {
        format!("{} declares: {}", self.name, self.values.join(", "))
    }

    /// The help for `name`, which isn't one of the values:
    /// ``did you mean `w`? <E> declares: a, b`` or the list alone.
    pub fn values_help(&self, name: &str) -> String {
        let declares = self.declares_sentence();
        match crate::diag::nearest(name, self.values.iter().map(String::as_str)) {
            Some(close) => format!("did you mean `{close}`? {declares}"),
            None => declares,
        }
    }
}

impl StructDef {
    /// The field called `name`.
    pub fn field(&self, name: &str) -> Option<&FieldDef> {
        self.fields.iter().find(|f| f.name == name)
    }
}

impl DecisionDef {
    /// Whether the decision declares the reason `reason`.
    pub fn has_reason(&self, reason: &str) -> bool {
        self.reasons.iter().any(|r| r == reason)
    }

    /// The help for `reason`, which the decision doesn't declare:
    /// ``did you mean `s`? d declares: r1, r2`` or the list alone.
    pub fn reasons_help(&self, reason: &str) -> String {
        let declares = format!("{} declares: {}", self.name, self.reasons.join(", "));
        match crate::diag::nearest(reason, self.reasons.iter().map(String::as_str)) {
            Some(close) => format!("did you mean `{close}`? {declares}"),
            None => declares,
        }
    }

    /// The payload field called `name`.
    pub fn field(&self, name: &str) -> Option<&PayloadField> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// The signature sentence constructor messages end with
    /// (language-policies §3.6): `approve takes reason: a | b, and bake:
    /// duration = 1h`, the lines of the decision's body joined by `, `, the
    /// last after `and ` when there are two or more.
    pub fn signature(&self) -> String {
        let mut lines = vec![format!("reason: {}", self.reasons.join(" | "))];
        lines.extend(self.fields.iter().map(|f| match &f.default {
            Some(value) => format!("{}: {} = {}", f.name, f.ty, value.const_text()),
            None => format!("{}: {}", f.name, f.ty),
        }));
        if let Some(last) = lines.last_mut().filter(|_| !self.fields.is_empty()) {
            last.insert_str(0, "and ");
        }
        format!("{} takes {}", self.name, lines.join(", "))
    }
}
