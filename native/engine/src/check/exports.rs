//! What a checked document offers the documents that import it: its lets
//! (only `pub` ones are importable, the others are named so that importing
//! one says it is private) and, for a policy, its params (for invocations).

use crate::source::Span;
use crate::types::Ty;
use crate::value::Value;

/// A checked document's exports.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exports {
    /// The document's name.
    pub name: String,
    /// Whether it is a policy (invocable) rather than a module.
    pub is_policy: bool,
    /// Its top-level lets in declaration order.
    pub lets: Vec<ExportedLet>,
    /// Its params in declaration order (empty for a module).
    pub params: Vec<ParamSig>,
}

/// A top-level let.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedLet {
    /// Its name.
    pub name: String,
    /// Whether it is `pub`.
    pub public: bool,
    /// Its type; [`Ty::Invalid`] when its expression failed, so importers
    /// don't repeat the error.
    pub ty: Ty,
}

/// A param as invocations see it.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSig {
    /// Its name.
    pub name: String,
    /// Its type; [`Ty::Invalid`] when the declaration failed.
    pub ty: Ty,
    /// Whether it has a default, so an invocation may leave it out.
    pub has_default: bool,
    /// Its default's value, when it has a valid one.
    pub default: Option<Value>,
    /// Its inclusive lower bound, when it has a valid one.
    pub min: Option<Value>,
    /// Its inclusive upper bound, when it has a valid one.
    pub max: Option<Value>,
    /// The declaration's source text with every run of whitespace collapsed
    /// to one space, for the help of an out-of-bounds argument.
    pub text: String,
    /// Where the declaration is.
    pub span: Span,
}

impl Exports {
    /// The top-level let called `name`.
    pub fn letting(&self, name: &str) -> Option<&ExportedLet> {
        self.lets.iter().find(|l| l.name == name)
    }

    /// The param called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamSig> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The names of its `pub` lets, in declaration order.
    pub fn public_lets(&self) -> impl Iterator<Item = &str> {
        self.lets
            .iter()
            .filter(|l| l.public)
            .map(|l| l.name.as_str())
    }
}
