//! The type checker (language-core §4–5, §8.3; language-policies §3–4).
//!
//! It checks one policy or module document against its kind and the
//! exports of the documents it imports, and reports every problem as a
//! [`Diagnostic`]. Errors never cascade: an expression that failed has the
//! type [`Ty::Invalid`], and operators receiving it report nothing more.
//!
//! Where things are:
//!
//! * `names.rs`: the document's one flat namespace (kind names, imports,
//!   params, lets, quantifier variables) and did-you-mean over it.
//! * `stmt.rs`: documents and statements: imports, params, lets, `when`,
//!   `assert`, decision constructors and policy invocations.
//! * `expr.rs`: names, literals, contextual typing, boolean operators,
//!   `??`, `present`, arithmetic.
//! * `compare.rs`: comparisons, membership, list operators, `has`, patterns.
//! * `chain.rs`: field access, `?.` chains, indexing, calls, and the
//!   qualified names `E.v`, `mod.x`, `d.r`, `outcome.d`.
//! * `quantifier.rs`: `any`, `all`, `filter`.
//! * `hints.rs`: the help texts several rules share.
//! * `exports.rs`: what a checked document offers its importers.
//! * `facts.rs`: what the lints need to know about a checked document.

mod chain;
mod compare;
mod error;
mod exports;
mod expr;
mod facts;
mod hints;
mod names;
mod quantifier;
mod stmt;
#[cfg(test)]
mod tests;

pub use error::{
    AccessError, DocumentError, DynamicRead, InvocationError, OperatorError, OutOfBounds,
    ParamError, QuantifierError, StatementError, ValueError,
};
pub use exports::{ExportedLet, Exports, ParamSig};
pub use facts::{Facts, ImportFact, InvocationFact, Shadow};
pub use stmt::{Checked, DocumentRef, ImportTarget, bounds_violation, check_document};

use crate::ast::Expr;
use crate::diag::Diagnostic;
use crate::kind::Kind;
use crate::source::Span;
use crate::types::Ty;

use error::Problem;
use names::Names;

/// Checks one standalone expression against `kind`, outside any assert, in
/// a scope holding only the kind's names (the `expr` mode of the spec's
/// examples). Returns its type ([`Ty::Invalid`] after an error) and the
/// diagnostics, sorted.
pub fn check_expr(expr: &Expr, kind: &Kind) -> (Ty, Vec<Diagnostic>) {
    let mut checker = Checker::new(kind, Names::for_kind(kind));
    let ty = checker.expr(expr, None);
    let ty = checker.settled(expr, ty);
    let mut diagnostics = checker.diagnostics;
    crate::diag::sort(&mut diagnostics);
    (ty, diagnostics)
}

/// The state of checking one document.
struct Checker<'a> {
    kind: &'a Kind,
    names: Names<'a>,
    /// Quantifier and filter variables in scope, innermost last.
    vars: Vec<Var>,
    /// Whether the expression being checked is an assert condition, the
    /// only place `outcome` and decision values may be read.
    in_assert: bool,
    /// The `when` body being checked, for the visibility of scoped lets.
    body: Option<usize>,
    /// The enclosing body of each `when` body, by body number.
    parents: Vec<Option<usize>>,
    /// The number of the next `when` body the statement walk enters.
    next_body: usize,
    /// Whether the document pins an older kind version than the current
    /// one, which lets its names take names the kind added later.
    older_pin: bool,
    /// The params read while typing the let on top of the stack (for
    /// `pub let`), innermost let last.
    param_reads: Vec<Vec<String>>,
    /// The names bound by imports that something read or invoked.
    used_imports: Vec<String>,
    /// What the lints will want to know.
    facts: Facts,
    diagnostics: Vec<Diagnostic>,
}

/// A quantifier or filter variable.
struct Var {
    name: String,
    ty: Ty,
    filter: bool,
}

impl<'a> Checker<'a> {
    fn new(kind: &'a Kind, names: Names<'a>) -> Self {
        Checker {
            kind,
            names,
            vars: Vec::new(),
            in_assert: false,
            body: None,
            parents: Vec::new(),
            next_body: 0,
            older_pin: false,
            param_reads: Vec::new(),
            used_imports: Vec::new(),
            facts: Facts::default(),
            diagnostics: Vec::new(),
        }
    }

    /// Reports `problem` at `span`.
    fn report(&mut self, span: Span, problem: &impl Problem) {
        self.diagnostics.push(problem.to_diagnostic(span));
    }

    /// Whether body `inner` is `outer` or nested inside it.
    fn body_within(&self, inner: Option<usize>, outer: usize) -> bool {
        let mut at = inner;
        while let Some(body) = at {
            if body == outer {
                return true;
            }
            at = self.parents.get(body).copied().flatten();
        }
        false
    }
}

/// The items of `items` in a list of their number: what a document keeps
/// per let stays alive through compiling and linting, so it is allocated
/// once at its size rather than grown by doubling to up to twice it.
fn exact<T>(items: impl Iterator<Item = T> + Clone) -> Vec<T> {
    let mut list = Vec::with_capacity(items.clone().count());
    list.extend(items);
    list
}
