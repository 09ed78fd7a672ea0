//! The kind loader's entry: a parsed kind document becomes a [`Kind`] and
//! every diagnostic of language-policies §2.1–§2.13.
//!
//! The loader groups the declarations by category (model order is source
//! order within each category, §2.14), builds the model piece by piece and
//! reports as it goes; the kind comes out only when nothing was wrong. The
//! pieces live in their own files: `declare.rs` (enums, types, inputs,
//! functions, decisions), `names.rs` (type names and the shared namespace),
//! `cycles.rs` (recursive types), `resolution.rs` (collect, precedence,
//! exclusive), `outcome.rs` (default, conflict).

use super::error::DeclError;
use super::resolve::{TypeNames, TypeSite, resolve};
use super::{Collect, DecisionDef, EnumDef, FnDef, InputDef, Kind, Outcome, OutcomeRef, StructDef};
use crate::ast::{
    CollectDecl, DecisionDecl, Decl, EnumDecl, ExclusiveDecl, FnDecl, InputDecl, KindDoc,
    OutcomeDecl, PrecedenceDecl, Type, TypeDecl,
};
use crate::diag::{self, Diagnostic};
use crate::source::Span;
use crate::types::Ty;

/// What loading a kind document gives: the kind when it is valid, and
/// every problem found, sorted by position. Diagnostics carry no file or
/// document; the caller that knows them sets them.
#[derive(Debug)]
pub struct Loaded {
    /// The kind; `None` when any diagnostic is an error.
    pub kind: Option<Kind>,
    /// Every problem, sorted by where it starts.
    pub diagnostics: Vec<Diagnostic>,
}

/// Loads one kind document: checks every rule of a valid kind and builds
/// the model.
pub fn load(doc: &KindDoc) -> Loaded {
    let mut loader = Loader::new(doc);
    loader.header();
    loader.declare();
    loader.check_names();
    loader.check_cycles();
    loader.resolution();
    loader.outcomes();
    loader.finish()
}

/// A kind document's declarations, by category, each in source order.
#[derive(Default)]
pub(super) struct Decls<'d> {
    pub(super) enums: Vec<&'d EnumDecl>,
    pub(super) types: Vec<&'d TypeDecl>,
    pub(super) inputs: Vec<&'d InputDecl>,
    pub(super) fns: Vec<&'d FnDecl>,
    pub(super) decisions: Vec<&'d DecisionDecl>,
    pub(super) precedences: Vec<&'d PrecedenceDecl>,
    pub(super) exclusives: Vec<&'d ExclusiveDecl>,
    pub(super) collects: Vec<&'d CollectDecl>,
    pub(super) defaults: Vec<&'d OutcomeDecl>,
    pub(super) conflicts: Vec<&'d OutcomeDecl>,
}

impl<'d> Decls<'d> {
    fn group(decls: &'d [Decl]) -> Self {
        let mut out = Decls::default();
        for decl in decls {
            match decl {
                Decl::Enum(d) => out.enums.push(d),
                Decl::Type(d) => out.types.push(d),
                Decl::Input(d) => out.inputs.push(d),
                Decl::Fn(d) => out.fns.push(d),
                Decl::Decision(d) => out.decisions.push(d),
                Decl::Precedence(d) => out.precedences.push(d),
                Decl::Exclusive(d) => out.exclusives.push(d),
                Decl::Collect(d) => out.collects.push(d),
                Decl::Default(d) => out.defaults.push(d),
                Decl::Conflict(d) => out.conflicts.push(d),
            }
        }
        out
    }
}

/// The kind being built, and what was found wrong so far. Each list of
/// the model is parallel to its list of declarations in [`Decls`].
pub(super) struct Loader<'d> {
    pub(super) doc: &'d KindDoc,
    pub(super) decls: Decls<'d>,
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) enums: Vec<EnumDef>,
    pub(super) types: Vec<StructDef>,
    pub(super) inputs: Vec<InputDef>,
    pub(super) funcs: Vec<FnDef>,
    pub(super) decisions: Vec<DecisionDef>,
    pub(super) collect: Option<Collect>,
    pub(super) precedence: Vec<String>,
    pub(super) exclusive: Vec<Vec<OutcomeRef>>,
    pub(super) default: Option<Outcome>,
    pub(super) conflict: Option<Outcome>,
    /// `(decision, field)` of each payload default that failed to load:
    /// it still counts as a default (reported once, not again as missing).
    pub(super) broken_defaults: Vec<(String, String)>,
}

impl<'d> Loader<'d> {
    fn new(doc: &'d KindDoc) -> Self {
        Loader {
            doc,
            decls: Decls::group(&doc.decls),
            diagnostics: Vec::new(),
            enums: Vec::new(),
            types: Vec::new(),
            inputs: Vec::new(),
            funcs: Vec::new(),
            decisions: Vec::new(),
            collect: None,
            precedence: Vec::new(),
            exclusive: Vec::new(),
            default: None,
            conflict: None,
            broken_defaults: Vec::new(),
        }
    }

    /// Records a problem.
    pub(super) fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// The kind's name.
    pub(super) fn name(&self) -> &'d str {
        &self.doc.name.name
    }

    /// Where problems of the whole kind are anchored: its name and version.
    pub(super) fn header_span(&self) -> Span {
        self.doc.name.span.to(self.doc.version.span)
    }

    /// Resolves a type of the kind's own declarations; `place` names the
    /// declaration in messages.
    pub(super) fn resolve(&mut self, ty: &Type, place: &str) -> Ty {
        let names = TypeNames {
            structs: self
                .decls
                .types
                .iter()
                .map(|t| t.name.name.as_str())
                .collect(),
            enums: self
                .decls
                .enums
                .iter()
                .map(|e| e.name.name.as_str())
                .collect(),
        };
        resolve(ty, &names, &TypeSite::Kind(place), &mut self.diagnostics)
    }

    /// The header rules (§2.1): version at least 1, `1 ≤ accepts ≤ version`.
    fn header(&mut self) {
        let version = &self.doc.version;
        if version.value < 1 {
            let problem = DeclError::InvalidVersion {
                version: version.value,
            };
            self.report(problem.to_diagnostic(version.span));
        }
        let Some(accepts) = &self.doc.accepts else {
            return;
        };
        let kind = self.name().to_string();
        let problem = if accepts.value < 1 {
            DeclError::AcceptsBelowOne {
                kind,
                accepts: accepts.value,
            }
        } else if version.value >= 1 && accepts.value > version.value {
            DeclError::AcceptsAboveVersion {
                kind,
                version: version.value,
                accepts: accepts.value,
            }
        } else {
            return;
        };
        self.report(problem.to_diagnostic(accepts.span));
    }

    /// The diagnostics, sorted, and the kind when none is an error.
    fn finish(self) -> Loaded {
        let mut diagnostics = self.diagnostics;
        diag::sort(&mut diagnostics);
        let valid = !diagnostics.iter().any(Diagnostic::is_error);
        let kind = match (valid, self.collect) {
            (true, Some(collect)) => Some(Kind {
                name: self.doc.name.name.clone(),
                version: self.doc.version.value,
                accepts: self.doc.accepts.as_ref().map_or(1, |a| a.value),
                enums: self.enums,
                types: self.types,
                inputs: self.inputs,
                funcs: self.funcs,
                decisions: self.decisions,
                collect,
                precedence: self.precedence,
                exclusive: self.exclusive,
                default: self.default,
                conflict: self.conflict,
            }),
            _ => None,
        };
        Loaded { kind, diagnostics }
    }
}
