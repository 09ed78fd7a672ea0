//! Chains of `.name`, `?.name` and `[index]` links (language-core §5.9,
//! §5.11), the qualified names that start with a name (`E.v`, `mod.x`,
//! `d.r`, `outcome.d.r`), and host function calls.
//!
//! A chain is walked with a loop from its base outwards. A `?.` whose
//! operand is absent skips the rest of the chain, so the chain's type is its
//! last link's type made optional as soon as one link is a `?.`; an
//! optional link still needs its own `?.` to read a field.

use super::Checker;
use super::error::{AccessError, ValueError};
use super::exports::Exports;
use super::hints;
use super::names::Binding;
use crate::ast::{Expr, ExprKind, Ident};
use crate::kind::DecisionDef;
use crate::source::Span;
use crate::types::Ty;

impl Checker<'_> {
    /// A chain ending in a field access or an index.
    pub(super) fn chain(&mut self, e: &Expr) -> Ty {
        let mut links: Vec<&Expr> = Vec::new();
        let mut base = e;
        while let ExprKind::Field { target, .. } | ExprKind::Index { target, .. } = &base.kind {
            links.push(base);
            base = target;
        }
        links.reverse();
        let (mut ty, consumed) = self.chain_base(base, &links);
        let mut short = false;
        for link in links.iter().skip(consumed) {
            if ty.is_invalid() {
                return Ty::Invalid;
            }
            let (next, optional) = self.link(link, ty);
            ty = next;
            short |= optional;
        }
        match short && !ty.is_invalid() {
            true => Ty::optional(ty),
            false => ty,
        }
    }

    /// Types the base of a chain, and the links that form a qualified name
    /// with it; returns the type and how many links it consumed.
    fn chain_base(&mut self, base: &Expr, links: &[&Expr]) -> (Ty, usize) {
        let (ExprKind::Ident(name), Some(first)) = (&base.kind, links.first()) else {
            return self.unqualified(base, links);
        };
        let ExprKind::Field {
            name: field,
            optional,
            ..
        } = &first.kind
        else {
            return self.unqualified(base, links);
        };
        if self.vars.iter().any(|v| v.name == *name) {
            return self.unqualified(base, links);
        }
        match self.names.get(name) {
            Some(Binding::Module(exports) | Binding::Policy(exports)) => {
                self.used_imports.push(name.clone());
                (self.imported_let(exports, field), 1)
            }
            Some(Binding::EnumType(def)) => {
                if *optional {
                    let problem = AccessError::OptionalEnumValue {
                        name: def.name.clone(),
                        value: field.name.clone(),
                    };
                    self.report(field.span, &problem);
                    return (Ty::Invalid, 1);
                }
                if def.values.contains(&field.name) {
                    return (Ty::Enum(def.name.as_str().into()), 1);
                }
                let problem = ValueError::NoEnumValue {
                    enum_name: def.name.clone(),
                    name: field.name.clone(),
                    help: def.values_help(&field.name),
                };
                self.report(field.span, &problem);
                (Ty::Invalid, 1)
            }
            Some(Binding::Decision(decision)) if self.in_assert && !*optional => {
                (self.reason_value(decision, field), 1)
            }
            _ => self.unqualified(base, links),
        }
    }

    /// The base of a chain that starts with no qualified name, except
    /// `outcome.d`, the candidates of one decision (assert conditions only).
    fn unqualified(&mut self, base: &Expr, links: &[&Expr]) -> (Ty, usize) {
        let first = links.first().map(|l| &l.kind);
        match (&base.kind, first) {
            (
                ExprKind::Outcome,
                Some(ExprKind::Field {
                    name,
                    optional: false,
                    ..
                }),
            ) if self.in_assert => (self.candidates(name), 1),
            _ => (self.expr(base, None), 0),
        }
    }

    /// `outcome.d`: the candidates of decision `d`.
    fn candidates(&mut self, decision: &Ident) -> Ty {
        if self.kind.decision(&decision.name).is_some() {
            return Ty::list(Ty::Candidate(decision.name.as_str().into()));
        }
        let names: Vec<&str> = self
            .kind
            .decisions
            .iter()
            .map(|d| d.name.as_str())
            .collect();
        let declares = format!(
            "`outcome.<decision>` reads the candidates of one decision; the kind declares: {}",
            names.join(", ")
        );
        let help = match crate::diag::nearest(&decision.name, names) {
            Some(near) => format!("did you mean `{near}`? {declares}"),
            None => declares,
        };
        let problem = AccessError::UnknownDecision {
            decision: decision.name.clone(),
            help,
        };
        self.report(decision.span, &problem);
        Ty::Invalid
    }

    /// `mod.x`: a `pub let` of an imported document.
    pub(super) fn imported_let(&mut self, exports: &Exports, field: &Ident) -> Ty {
        match exports.letting(&field.name) {
            Some(found) if found.public => found.ty.clone(),
            Some(_) => {
                let problem = AccessError::PrivateLet {
                    name: field.name.clone(),
                    document: exports.name.clone(),
                };
                self.report(field.span, &problem);
                Ty::Invalid
            }
            None => {
                self.report(field.span, &no_pub_let(exports, &field.name));
                Ty::Invalid
            }
        }
    }

    /// `d.r`: a decision value naming one reason (assert conditions only).
    fn reason_value(&mut self, decision: &DecisionDef, reason: &Ident) -> Ty {
        if decision.has_reason(&reason.name) {
            return Ty::Decision;
        }
        let problem = AccessError::NoReason {
            decision: decision.name.clone(),
            reason: reason.name.clone(),
            help: decision.reasons_help(&reason.name),
        };
        self.report(reason.span, &problem);
        Ty::Invalid
    }

    /// One link on a base of type `base`; returns its type and whether it is
    /// a `?.`.
    fn link(&mut self, link: &Expr, base: Ty) -> (Ty, bool) {
        match &link.kind {
            ExprKind::Field {
                target,
                name,
                optional,
            } => {
                let ty = self.field(target, name, *optional, base);
                if let Ty::Enum(e) = &ty {
                    self.facts.enum_reads.push((link.span, e.to_string()));
                }
                (ty, *optional)
            }
            ExprKind::Index { target, index } => (self.index(target, index, base), false),
            _ => (Ty::Invalid, false),
        }
    }

    /// `target.name` or `target?.name` on a base of type `base`.
    fn field(&mut self, target: &Expr, name: &Ident, optional: bool, base: Ty) -> Ty {
        let operand = target.canonical();
        if let Ty::List(elem) = &base {
            if let (Ty::Candidate(decision), ExprKind::Outcome) =
                (&**elem, &target_leaf(target).kind)
            {
                return self.narrow(decision, name, &operand, base.clone());
            }
        }
        if base == Ty::Decision {
            return self.reason_of_value(target, name);
        }
        if optional && !base.is_optional() {
            let problem = AccessError::NotOptional {
                operand,
                field: name.name.clone(),
            };
            self.report(name.span, &problem);
            return Ty::Invalid;
        }
        let inner = match optional {
            true => base.strip_optional().clone(),
            false => base.clone(),
        };
        match &inner {
            Ty::Struct(s) => self.struct_field(s, name),
            Ty::Candidate(d) => self.candidate_field(d, name),
            Ty::Optional(elem) if matches!(**elem, Ty::Struct(_)) => {
                let problem = AccessError::MayBeAbsent {
                    operand,
                    ty: inner.clone(),
                    field: name.name.clone(),
                };
                self.report(name.span, &problem);
                Ty::Invalid
            }
            _ if optional => {
                let problem = AccessError::HoldsNoFields {
                    operand,
                    ty: inner.clone(),
                };
                self.report(name.span, &problem);
                Ty::Invalid
            }
            _ => {
                let problem = AccessError::NoFields {
                    operand,
                    help: hints::unwrap(target, &base),
                    ty: base,
                };
                self.report(name.span, &problem);
                Ty::Invalid
            }
        }
    }

    fn struct_field(&mut self, name: &str, field: &Ident) -> Ty {
        let Some(def) = self.kind.struct_def(name) else {
            return Ty::Invalid;
        };
        if let Some(found) = def.field(&field.name) {
            return found.ty.clone();
        }
        let names: Vec<&str> = def.fields.iter().map(|f| f.name.as_str()).collect();
        let declares = format!("{name} declares: {}", names.join(", "));
        let help = match crate::diag::did_you_mean(&field.name, names) {
            Some(near) => format!("{near} {declares}"),
            None => declares,
        };
        let problem = AccessError::UnknownStructField {
            field: field.name.clone(),
            struct_name: name.to_owned(),
            help,
        };
        self.report(field.span, &problem);
        Ty::Invalid
    }

    /// A field of a candidate: a payload field, or `reason`.
    fn candidate_field(&mut self, decision: &str, field: &Ident) -> Ty {
        let Some(def) = self.kind.decision(decision) else {
            return Ty::Invalid;
        };
        if field.name == "reason" {
            return Ty::Decision;
        }
        if let Some(found) = def.field(&field.name) {
            return found.ty.clone();
        }
        let mut names: Vec<&str> = def.fields.iter().map(|f| f.name.as_str()).collect();
        names.push("reason");
        let article = article(decision);
        let has = format!("{article} {decision} candidate has: {}", names.join(", "));
        let help = match crate::diag::did_you_mean(&field.name, names) {
            Some(near) => format!("{near} {has}"),
            None => has,
        };
        let problem = AccessError::UnknownCandidateField {
            field: field.name.clone(),
            decision: format!("{article} {decision}"),
            help,
        };
        self.report(field.span, &problem);
        Ty::Invalid
    }

    /// `outcome.d.r`: the candidates of one reason, the same type.
    fn narrow(&mut self, decision: &str, reason: &Ident, list: &str, ty: Ty) -> Ty {
        let Some(def) = self.kind.decision(decision) else {
            return Ty::Invalid;
        };
        if def.has_reason(&reason.name) {
            return ty;
        }
        let help = match def.field(&reason.name) {
            Some(_) => format!(
                "`{0}` is a field of each candidate, not of the list; read it per candidate, like `all x in {list}: x.{0} ...`",
                reason.name
            ),
            None => def.reasons_help(&reason.name),
        };
        let problem = AccessError::NoReason {
            decision: def.name.clone(),
            reason: reason.name.clone(),
            help,
        };
        self.report(reason.span, &problem);
        Ty::Invalid
    }

    /// `.r` on a decision value that isn't a decision's bare name.
    fn reason_of_value(&mut self, target: &Expr, name: &Ident) -> Ty {
        let value = target.canonical();
        if let ExprKind::Field { target: inner, .. } = &target.unparen().kind {
            if let ExprKind::Ident(decision) = &inner.kind {
                let problem = AccessError::ReasonOfDecisionValue {
                    value,
                    reason: name.name.clone(),
                    decision: decision.clone(),
                };
                self.report(name.span, &problem);
                return Ty::Invalid;
            }
        }
        let problem = AccessError::ReasonOfValue {
            value,
            reason: name.name.clone(),
        };
        self.report(name.span, &problem);
        Ty::Invalid
    }

    /// `target[index]` on a base of type `base`.
    fn index(&mut self, target: &Expr, index: &Expr, base: Ty) -> Ty {
        match &base {
            Ty::Map(key, value) => {
                let value = Ty::clone(value);
                self.facts.map_values.push((index.span, value.clone()));
                match self.expr_as(index, key).is_invalid() {
                    true => Ty::Invalid,
                    false => value,
                }
            }
            Ty::List(elem) if matches!(**elem, Ty::Candidate(_)) => {
                let problem = AccessError::IndexedCandidates {
                    operand: target.canonical(),
                };
                self.report(target.span, &problem);
                Ty::Invalid
            }
            Ty::List(elem) => {
                let elem = Ty::clone(elem);
                match self.expr_as(index, &Ty::Int).is_invalid() {
                    true => Ty::Invalid,
                    false => elem,
                }
            }
            _ => {
                let problem = AccessError::NotIndexable {
                    operand: target.canonical(),
                    help: hints::unwrap(target, &base),
                    ty: base,
                };
                self.report(target.span, &problem);
                Ty::Invalid
            }
        }
    }

    /// `f(args)`: a host function with matching arguments (§5.11).
    pub(super) fn call(&mut self, callee: &Expr, args: &[Expr], span: Span) -> Ty {
        let ExprKind::Ident(name) = &callee.kind else {
            let problem = AccessError::NotAFunction {
                callee: callee.canonical(),
            };
            self.report(callee.span, &problem);
            return Ty::Invalid;
        };
        let entity = match self.vars.iter().rev().find(|v| v.name == *name) {
            Some(var) => Err(var_entity(var.filter)),
            None => match self.names.get(name) {
                Some(Binding::Func(f)) => Ok(f),
                Some(other) => Err(other.entity()),
                None => {
                    let problem = AccessError::UnknownFunction {
                        name: name.clone(),
                        near: self.nearest_name(name),
                    };
                    self.report(callee.span, &problem);
                    return Ty::Invalid;
                }
            },
        };
        let f = match entity {
            Ok(f) => f,
            Err(entity) => {
                let problem = AccessError::CallsNonFunction {
                    name: name.clone(),
                    entity: entity.with_article().to_owned(),
                };
                self.report(callee.span, &problem);
                return Ty::Invalid;
            }
        };
        if args.len() != f.params.len() {
            let problem = AccessError::Arity {
                name: name.clone(),
                params: f.params.len(),
                args: args.len(),
                signature: f.signature(),
            };
            self.report(span, &problem);
            return Ty::Invalid;
        }
        let mut valid = true;
        for (arg, param) in args.iter().zip(&f.params) {
            valid &= !self.expr_as(arg, param).is_invalid();
        }
        match valid {
            true => f.result.clone(),
            false => Ty::Invalid,
        }
    }
}

/// The entity of a quantifier or filter variable.
pub(super) fn var_entity(filter: bool) -> super::names::Entity {
    match filter {
        true => super::names::Entity::FilterVar,
        false => super::names::Entity::QuantVar,
    }
}

/// The expression at the bottom of `e`'s chain.
fn target_leaf(mut e: &Expr) -> &Expr {
    while let ExprKind::Field { target, .. } | ExprKind::Index { target, .. } = &e.kind {
        e = target;
    }
    e
}

/// `a` or `an` before a decision's name.
fn article(name: &str) -> &'static str {
    match name.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "an",
        _ => "a",
    }
}

/// The error of a name an imported document doesn't export.
fn no_pub_let(exports: &Exports, name: &str) -> AccessError {
    let public: Vec<&str> = exports.public_lets().collect();
    let list = match public.is_empty() {
        true => format!("{} exports no lets", exports.name),
        false => format!("{} exports: {}", exports.name, public.join(", ")),
    };
    let help = match crate::diag::nearest(name, public) {
        Some(near) => format!("did you mean `{near}`? {list}"),
        None => list,
    };
    AccessError::NoPubLet {
        name: name.to_owned(),
        document: exports.name.clone(),
        help,
    }
}
