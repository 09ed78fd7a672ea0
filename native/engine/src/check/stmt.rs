//! Documents and statements (language-policies §3–4): the kind pin,
//! imports, params, lets, `when`, `assert`, decision constructors and
//! policy invocations.

use super::error::{
    DocumentError, DynamicRead, InvocationError, OutOfBounds, ParamError, StatementError,
};
use super::exports::{ExportedLet, Exports, ParamSig};
use super::facts::{Facts, ImportFact, InvocationFact, Shadow};
use super::names::{Binding, LetInfo, LetState, Names, ParamInfo};
use super::{Checker, exact};
use crate::ast::{
    Assert, CallStmt, Expr, ExprKind, Ident, Import, IntLit, Let, ModuleDoc, Param, PolicyDoc,
    Stmt, Use, When,
};
use crate::diag::{Diagnostic, MAX_PER_FILE};
use crate::kind::{ConstructorError, DecisionDef, Kind};
use crate::source::Span;
use crate::types::Ty;
use crate::value::Value;

/// What a `use` path names, as the bundle resolves it.
#[derive(Clone, Copy, Debug)]
pub enum ImportTarget<'a> {
    /// A checked policy or module.
    Found(&'a Exports),
    /// A kind document: not importable.
    Kind,
    /// Nothing in the bundle.
    Unknown,
    /// A document whose problem is reported elsewhere (an import cycle, a
    /// kind that doesn't load): its names are bound, but to nothing usable.
    Unavailable,
}

/// A policy or module document.
#[derive(Clone, Copy, Debug)]
pub enum DocumentRef<'d> {
    /// A policy.
    Policy(&'d PolicyDoc),
    /// A module.
    Module(&'d ModuleDoc),
}

/// The result of checking one document.
#[derive(Debug, Default)]
pub struct Checked {
    /// Every problem found, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// What the document offers its importers.
    pub exports: Exports,
    /// What the lints need to know.
    pub facts: Facts,
}

/// Checks a policy or module against `kind`; `imports` resolves a `use`
/// path to what it names.
pub fn check_document<'a>(
    doc: DocumentRef<'a>,
    source: &str,
    kind: &'a Kind,
    imports: &dyn Fn(&str) -> ImportTarget<'a>,
) -> Checked {
    let mut checker = Checker::new(kind, Names::for_kind(kind));
    let (name, kind_ref, pin, uses, is_policy) = match doc {
        DocumentRef::Policy(p) => (p.name.text(), &p.kind, p.pin.as_ref(), &p.uses, true),
        DocumentRef::Module(m) => (m.name.text(), &m.kind, m.pin.as_ref(), &m.uses, false),
    };
    checker.pin(kind_ref, pin);
    for u in uses {
        checker.import(u, imports);
    }
    let mut params = Vec::new();
    match doc {
        DocumentRef::Policy(p) => {
            let lets = p.stmts.iter().filter(|s| matches!(s, Stmt::Let(_)));
            checker.names.lets.reserve_exact(lets.count());
            checker.declare_stmts(&p.stmts, None, &mut params, source);
            checker.type_lets();
            checker.stmts(&p.stmts, true);
        }
        DocumentRef::Module(m) => {
            checker.names.lets.reserve_exact(m.lets.len());
            for l in &m.lets {
                checker.declare_let(l, None);
            }
            checker.type_lets();
        }
    }
    checker.pub_lets();
    let exports = Exports {
        name,
        is_policy,
        lets: checker.exported_lets(),
        params,
    };
    let facts = checker.finish_facts();
    let mut diagnostics = checker.diagnostics;
    crate::diag::sort(&mut diagnostics);
    Checked {
        diagnostics,
        exports,
        facts,
    }
}

impl<'a> Checker<'a> {
    /// The pin rules of language-policies §2.1.
    fn pin(&mut self, kind_ref: &Ident, pin: Option<&IntLit>) {
        let kind = self.kind;
        let Some(pin) = pin else {
            let missing = DocumentError::MissingPin {
                kind: kind.name.clone(),
                version: kind.version,
            };
            self.report(kind_ref.span, &missing);
            return;
        };
        if pin.value > kind.version {
            let too_new = DocumentError::PinTooNew {
                kind: kind.name.clone(),
                pin: pin.value,
                version: kind.version,
            };
            self.report(pin.span, &too_new);
        } else if pin.value < kind.accepts {
            let too_old = DocumentError::PinTooOld {
                kind: kind.name.clone(),
                pin: pin.value,
                accepts: kind.accepts,
            };
            self.report(pin.span, &too_old);
        } else {
            self.older_pin = pin.value < kind.version;
        }
    }

    // ---- imports --------------------------------------------------------------

    /// One `use` (language-policies §3.2).
    fn import(&mut self, u: &'a Use, imports: &dyn Fn(&str) -> ImportTarget<'a>) {
        let path = u.path.text();
        let target = imports(&path);
        let exports = match target {
            ImportTarget::Found(exports) => Some(exports),
            ImportTarget::Kind => {
                let path = path.clone();
                self.report(u.path.span(), &DocumentError::ImportsKind { path });
                None
            }
            ImportTarget::Unknown => {
                let path = path.clone();
                self.report(u.path.span(), &DocumentError::UnknownDocument { path });
                None
            }
            ImportTarget::Unavailable => None,
        };
        match &u.import {
            Import::Whole | Import::Alias(_) => {
                let local = match &u.import {
                    Import::Alias(alias) => alias,
                    _ => match u.path.parts.last() {
                        Some(last) => last,
                        None => return,
                    },
                };
                self.facts.imports.push(ImportFact {
                    path: path.clone(),
                    local: local.name.clone(),
                    item: None,
                    span: u.span,
                    used: false,
                });
                let binding = match exports {
                    Some(e) if e.is_policy => Binding::Policy(e),
                    Some(e) => Binding::Module(e),
                    None => self.unavailable(),
                };
                self.declare(local, binding);
            }
            Import::Items(items) => {
                for item in items {
                    let ty = match exports {
                        Some(e) => self.imported_let(e, &item.name),
                        None => Ty::Invalid,
                    };
                    self.names.imported.push(ty);
                    let binding = Binding::ImportedLet(self.names.imported.len() - 1);
                    let local = item.alias.as_ref().unwrap_or(&item.name);
                    self.facts.imports.push(ImportFact {
                        path: path.clone(),
                        local: local.name.clone(),
                        item: Some(item.name.name.clone()),
                        span: local.span,
                        used: false,
                    });
                    self.declare(local, binding);
                }
            }
        }
    }

    /// The binding of a name imported from a document that isn't usable: an
    /// imported let of type invalid, so reading it reports nothing more.
    fn unavailable(&mut self) -> Binding<'a> {
        self.names.imported.push(Ty::Invalid);
        Binding::ImportedLet(self.names.imported.len() - 1)
    }

    // ---- declarations -----------------------------------------------------------

    /// Binds a document name, reporting a collision with what already holds
    /// it (language-policies §3.10).
    fn declare(&mut self, name: &Ident, binding: Binding<'a>) -> bool {
        let Some(existing) = self.names.get(&name.name) else {
            self.names.bind(&name.name, binding);
            return true;
        };
        if existing.is_kind_name() && self.older_pin {
            self.shadow(name, existing);
            self.names.bind(&name.name, binding);
            return true;
        }
        let taken = DocumentError::NameTaken {
            name: name.name.clone(),
            entity: existing.entity().with_article(),
        };
        self.report(name.span, &taken);
        false
    }

    /// Records that `name` takes the kind's name `existing` (allowed in a
    /// document pinned to an older kind version; lint
    /// `shadowed-kind-name`).
    pub(super) fn shadow(&mut self, name: &Ident, existing: Binding<'_>) {
        let what = match existing {
            Binding::Input(_) => "input".to_owned(),
            Binding::Func(_) => "host function".to_owned(),
            Binding::Decision(_) => "decision".to_owned(),
            Binding::EnumValue => match self.kind.enums_declaring(&name.name).next() {
                Some(e) => format!("{} value", e.name),
                None => "name".to_owned(),
            },
            _ => "name".to_owned(),
        };
        self.facts.shadows.push(Shadow {
            name: name.name.clone(),
            what,
            span: name.span,
        });
    }

    /// The facts, with what the whole document's check learned: which
    /// imports were used and which lets were never read.
    fn finish_facts(&mut self) -> Facts {
        let mut facts = std::mem::take(&mut self.facts);
        for import in &mut facts.imports {
            import.used = self.used_imports.contains(&import.local);
        }
        // In source order, as the lets were declared; one past a file's
        // cap on diagnostics is as many as its lint can report (the rest
        // would be cut), so a document of 140,000 unread lets keeps 101.
        facts.unread_lets = exact(
            self.names
                .lets
                .iter()
                .filter(|l| !l.read && !l.decl.public)
                .map(|l| (l.decl.name.name.clone(), l.decl.name.span))
                .take(MAX_PER_FILE + 1),
        );
        facts
    }

    /// Declares the params and lets of `stmts` (and of nested bodies) in
    /// source order; `body` is the `when` body they are in.
    fn declare_stmts(
        &mut self,
        stmts: &'a [Stmt],
        body: Option<usize>,
        params: &mut Vec<ParamSig>,
        source: &str,
    ) {
        for stmt in stmts {
            match stmt {
                Stmt::Param(p) => params.push(self.param(p, source)),
                Stmt::Let(l) => self.declare_let(l, body),
                Stmt::When(w) => {
                    self.parents.push(body);
                    let inner = self.parents.len() - 1;
                    self.declare_stmts(&w.body, Some(inner), params, source);
                }
                Stmt::Assert(_) | Stmt::Call(_) => {}
            }
        }
    }

    fn declare_let(&mut self, decl: &'a Let, body: Option<usize>) {
        if let Some(Binding::Let(other)) = self.names.get(&decl.name.name) {
            let elsewhere = self.names.lets.get(other).map(|l| l.body) != Some(body);
            if elsewhere && body.is_some() {
                let name = decl.name.name.clone();
                self.report(decl.name.span, &DocumentError::LetInOtherBody { name });
                return;
            }
        }
        let index = self.names.lets.len();
        if self.declare(&decl.name, Binding::Let(index)) {
            self.names.lets.push(LetInfo {
                decl,
                body,
                state: LetState::Untyped,
                reads_param: None,
                read: false,
            });
        }
    }

    /// Types every let not typed yet, in declaration order.
    fn type_lets(&mut self) {
        for i in 0..self.names.lets.len() {
            let untyped = self
                .names
                .lets
                .get(i)
                .is_some_and(|l| l.state == LetState::Untyped);
            if untyped {
                self.type_let(i);
            }
        }
    }

    /// A `pub let` in a policy can't read a param (language-policies §3.4).
    fn pub_lets(&mut self) {
        let problems: Vec<(Span, DocumentError)> = self
            .names
            .lets
            .iter()
            .filter(|l| l.decl.public)
            .filter_map(|l| {
                let problem = DocumentError::PubLetReadsParam {
                    name: l.decl.name.name.clone(),
                    param: l.reads_param.clone()?,
                };
                Some((l.decl.name.span, problem))
            })
            .collect();
        for (span, problem) in problems {
            self.report(span, &problem);
        }
    }

    fn exported_lets(&self) -> Vec<ExportedLet> {
        exact(
            self.names
                .lets
                .iter()
                .filter(|l| l.body.is_none())
                .map(|l| ExportedLet {
                    name: l.decl.name.name.clone(),
                    public: l.decl.public,
                    ty: match &l.state {
                        LetState::Typed(ty) => ty.clone(),
                        _ => Ty::Invalid,
                    },
                }),
        )
    }

    // ---- params -------------------------------------------------------------------

    /// A `param` (language-policies §3.3): its type, default and bounds.
    fn param(&mut self, p: &Param, source: &str) -> ParamSig {
        let ty = self.param_type(p);
        self.names.params.push(ParamInfo { ty: ty.clone() });
        let binding = Binding::Param(self.names.params.len() - 1);
        self.declare(&p.name, binding);
        let mut sig = ParamSig {
            name: p.name.name.clone(),
            ty: ty.clone(),
            has_default: p.default.is_some(),
            default: None,
            min: None,
            max: None,
            text: collapse_whitespace(p.span.text(source).unwrap_or_default()),
            span: p.span,
        };
        if ty.is_invalid() {
            return sig;
        }
        sig.default = p.default.as_ref().and_then(|d| self.constant(d, &ty));
        if p.min.is_some() || p.max.is_some() {
            self.bounds(p, &ty, &mut sig);
        }
        sig
    }

    fn param_type(&mut self, p: &Param) -> Ty {
        let ty = match self.kind.resolve_type(&p.ty) {
            Ok(ty) => ty,
            Err(diagnostic) => {
                self.diagnostics.push(diagnostic);
                return Ty::Invalid;
            }
        };
        match &ty {
            Ty::Optional(elem) => {
                let optional = ParamError::Optional {
                    name: p.name.name.clone(),
                    elem: (**elem).clone(),
                };
                self.report(p.ty.span, &optional);
                Ty::Invalid
            }
            _ => ty,
        }
    }

    /// Evaluates a constant of type `ty`, reporting why it isn't one.
    fn constant(&mut self, e: &Expr, ty: &Ty) -> Option<Value> {
        match crate::constant::eval(e, ty, &self.kind.enums) {
            Ok(value) => Some(value),
            Err(diagnostic) => {
                self.diagnostics.push(diagnostic);
                None
            }
        }
    }

    /// A param's `min` and `max`: only on int, float and duration, in
    /// order, around the default.
    fn bounds(&mut self, p: &Param, ty: &Ty, sig: &mut ParamSig) {
        if !matches!(ty, Ty::Int | Ty::Float | Ty::Duration) {
            let Some(at) = p.min.as_ref().or(p.max.as_ref()) else {
                return;
            };
            self.report(at.span, &ParamError::BoundsOnType { ty: ty.clone() });
            return;
        }
        sig.min = p.min.as_ref().and_then(|e| self.constant(e, ty));
        sig.max = p.max.as_ref().and_then(|e| self.constant(e, ty));
        if let (Some(lo), Some(hi), Some(max)) = (&sig.min, &sig.max, &p.max) {
            if compare(lo, hi) == Some(std::cmp::Ordering::Greater) {
                let reversed = ParamError::MaxBelowMin {
                    max: hi.const_text(),
                    min: lo.const_text(),
                };
                self.report(max.span, &reversed);
                return;
            }
        }
        let (Some(default), Some(at)) = (&sig.default, &p.default) else {
            return;
        };
        if let Some(bound) = out_of_bounds(default, sig) {
            let outside = ParamError::DefaultOutOfBounds {
                default: default.const_text(),
                bound,
            };
            self.report(at.span, &outside);
        }
    }

    // ---- statements -----------------------------------------------------------------

    /// Checks rules, asserts, constructors and invocations; `top` is true at
    /// the document's top level.
    fn stmts(&mut self, stmts: &'a [Stmt], top: bool) {
        for stmt in stmts {
            match stmt {
                Stmt::Param(_) | Stmt::Let(_) => {}
                Stmt::When(w) => {
                    // Bodies are numbered in the order `declare_stmts` met
                    // them: source order, depth first.
                    let body = self.next_body;
                    self.next_body += 1;
                    self.when(w, body);
                }
                Stmt::Assert(a) => self.assert(a),
                Stmt::Call(c) => self.call_stmt(c, top),
            }
        }
    }

    fn when(&mut self, w: &'a When, body: usize) {
        self.expr_as(&w.cond, &Ty::Bool);
        let outer = self.body;
        self.body = Some(body);
        self.stmts(&w.body, false);
        self.body = outer;
    }

    fn assert(&mut self, a: &Assert) {
        if a.reason.value.is_empty() {
            self.report(a.reason.span, &StatementError::EmptyAssertReason);
        }
        self.facts.has_asserts = true;
        let outer = self.in_assert;
        self.in_assert = true;
        self.expr_as(&a.cond, &Ty::Bool);
        self.in_assert = outer;
    }

    /// A call statement: a decision constructor or a policy invocation.
    fn call_stmt(&mut self, c: &CallStmt, top: bool) {
        let name = &c.name.name;
        match self.names.get(name) {
            Some(Binding::Decision(d)) => {
                if top {
                    let decision = name.clone();
                    let misplaced = StatementError::ConstructorAtTopLevel { decision };
                    self.report(c.name.span, &misplaced);
                }
                self.constructor(c, d);
            }
            Some(Binding::Policy(exports)) => {
                self.used_imports.push(name.clone());
                self.invocation(c, exports);
            }
            Some(Binding::Module(_)) => {
                let name = name.clone();
                self.report(c.name.span, &StatementError::InvokesModule { name });
            }
            Some(other) => {
                let not_decision = StatementError::NotADecision {
                    name: name.clone(),
                    entity: other.entity().with_article(),
                };
                self.report(c.name.span, &not_decision);
            }
            None => {
                let unknown = StatementError::UnknownDecision {
                    name: name.clone(),
                    near: self.nearest_name(name),
                };
                self.report(c.name.span, &unknown);
            }
        }
    }

    // ---- constructors ---------------------------------------------------------------

    /// A decision constructor (language-policies §3.6).
    fn constructor(&mut self, c: &CallStmt, d: &DecisionDef) {
        self.facts.constructs.push(d.name.clone());
        self.reason(c, d);
        let mut given: Vec<&str> = Vec::new();
        for arg in c.args.iter().filter(|a| a.name.name != "reason") {
            let field_name = arg.name.name.as_str();
            let Some(field) = d.field(field_name) else {
                let unknown = ConstructorError::no_payload_field(d, field_name);
                self.diagnostics.push(unknown.to_diagnostic(arg.name.span));
                self.expr(&arg.value, None);
                continue;
            };
            if given.contains(&field_name) {
                let twice = ConstructorError::FieldTwice {
                    field: field_name.to_owned(),
                    in_kind: false,
                };
                self.diagnostics.push(twice.to_diagnostic(arg.name.span));
            }
            given.push(field_name);
            self.expr_as(&arg.value, &field.ty);
        }
        for field in &d.fields {
            if field.default.is_none() && !given.contains(&field.name.as_str()) {
                let missing = ConstructorError::NeedsField {
                    decision: d.name.clone(),
                    field: field.name.clone(),
                    signature: d.signature(),
                };
                self.diagnostics.push(missing.to_diagnostic(c.span));
            }
        }
    }

    /// A constructor's `reason:`: given once, a bare declared reason (the
    /// kind loader's rule for `default` and `conflict`, shared).
    fn reason(&mut self, c: &CallStmt, d: &DecisionDef) {
        let mut problems = Vec::new();
        crate::kind::constructor_reason(c, d, &mut problems);
        self.diagnostics.extend(problems);
    }

    // ---- invocations ----------------------------------------------------------------

    /// A policy invocation (language-policies §3.8).
    fn invocation(&mut self, c: &CallStmt, callee: &Exports) {
        let mut args: Vec<String> = c
            .args
            .iter()
            .map(|a| format!("{}: {}", a.name.name, a.value.canonical()))
            .collect();
        args.sort_unstable();
        self.facts.invocations.push(InvocationFact {
            target: callee.name.clone(),
            args,
            gated: self.body.is_some(),
            span: c.span,
        });
        if let Some(positional) = &c.positional {
            let callee = c.name.name.clone();
            self.report(positional.span, &InvocationError::Positional { callee });
        }
        let mut given: Vec<&str> = Vec::new();
        for arg in &c.args {
            let name = arg.name.name.as_str();
            let Some(param) = callee.param(name) else {
                self.unknown_param(callee, &arg.name);
                continue;
            };
            if given.contains(&name) {
                let param = name.to_owned();
                self.report(arg.name.span, &InvocationError::ParamTwice { param });
            }
            given.push(name);
            // The argument's value against the param's bounds is the
            // compiler's to check (`crate::compile`), as the reference's
            // policy compiler does: a bound is a compile error, not a
            // check error.
            if self.static_argument(&arg.value) && !param.ty.is_invalid() {
                self.expr_as(&arg.value, &param.ty);
            }
        }
        for param in &callee.params {
            if !param.has_default && !given.contains(&param.name.as_str()) {
                let unbound = InvocationError::Unbound {
                    policy: callee.name.clone(),
                    param: param.name.clone(),
                    callee: c.name.name.clone(),
                };
                self.report(c.span, &unbound);
            }
        }
    }

    fn unknown_param(&mut self, callee: &Exports, arg: &Ident) {
        let params: Vec<String> = callee.params.iter().map(|p| p.name.clone()).collect();
        let near = crate::diag::nearest(&arg.name, params.iter().map(String::as_str));
        let unknown = InvocationError::UnknownParam {
            policy: callee.name.clone(),
            param: arg.name.clone(),
            near: near.map(str::to_owned),
            params,
        };
        self.report(arg.span, &unknown);
    }

    /// Whether an invocation argument reads only constants and the
    /// document's own params; reports the first thing it reads otherwise.
    fn static_argument(&mut self, e: &Expr) -> bool {
        let Some(read) = self.dynamic_part(e) else {
            return true;
        };
        self.report(e.span, &InvocationError::Dynamic { read });
        false
    }

    /// The first thing in `e` that isn't known when the policy compiles.
    fn dynamic_part(&self, e: &Expr) -> Option<DynamicRead> {
        match &e.kind {
            ExprKind::Ident(name) => match self.names.get(name) {
                Some(Binding::Input(_)) => Some(DynamicRead::Input(name.clone())),
                Some(Binding::Let(_)) => Some(DynamicRead::Let(name.clone())),
                Some(Binding::ImportedLet(_)) => Some(DynamicRead::ImportedLet(name.clone())),
                _ => None,
            },
            ExprKind::Field { target, name, .. } => match &target.unparen().kind {
                ExprKind::Ident(m) => match self.names.get(m) {
                    Some(Binding::Module(_) | Binding::Policy(_)) => {
                        Some(DynamicRead::ImportedLet(format!("{m}.{}", name.name)))
                    }
                    _ => self.dynamic_part(target),
                },
                _ => self.dynamic_part(target),
            },
            ExprKind::Call { .. } => Some(DynamicRead::HostCall),
            ExprKind::Quantifier { range, .. } | ExprKind::Filter { range, .. } => {
                Some(DynamicRead::Quantifier(range.canonical()))
            }
            _ => e
                .children()
                .into_iter()
                .find_map(|child| self.dynamic_part(child)),
        }
    }
}

/// The error of an invocation argument whose value `value` is outside the
/// bounds of param `param` of policy `callee` (language-policies §3.8 rule
/// 5), which the compiler reports at the argument once it has computed it
/// in the invoking instance.
pub fn bounds_violation(callee: &str, param: &ParamSig, value: &Value) -> Option<InvocationError> {
    Some(InvocationError::OutOfBounds {
        policy: callee.to_owned(),
        param: param.name.clone(),
        value: value.const_text(),
        bound: out_of_bounds(value, param)?,
        declaration: param.text.clone(),
    })
}

/// The bound `value` crosses, when it is outside the bounds of `param`.
fn out_of_bounds(value: &Value, param: &ParamSig) -> Option<OutOfBounds> {
    use std::cmp::Ordering::{Greater, Less};
    match (&param.min, &param.max) {
        (Some(lo), _) if compare(value, lo) == Some(Less) => {
            Some(OutOfBounds::BelowMinimum(lo.const_text()))
        }
        (_, Some(hi)) if compare(value, hi) == Some(Greater) => {
            Some(OutOfBounds::AboveMaximum(hi.const_text()))
        }
        _ => None,
    }
}

/// The order of two constants of one numeric type.
fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Int(a), Value::Int(b)) | (Value::Duration(a), Value::Duration(b)) => Some(a.cmp(b)),
        (Value::Float(a), Value::Float(b)) => a.partial_cmp(b),
        _ => None,
    }
}

/// `text` with every run of whitespace collapsed to one space.
fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
