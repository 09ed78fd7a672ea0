//! Expressions: dispatch, names, literals and contextual typing
//! (language-core §4.8, §5.1–5.3, §5.9–5.10, §5.14).
//!
//! `expr(e, hint)` types `e`; the hint is the type its context expects,
//! which gives empty literals and bare enum values their type. `expr_as`
//! additionally requires the expected type (`ExprAs` in the spec's
//! tables). A long left-associative chain (`a or b or …`) is typed with a
//! loop down its spine, never by recursion (see the depth note of `ast`).

use super::Checker;
use super::error::{OperatorError, ValueError};
use super::hints;
use super::names::{Binding, LetState};
use crate::ast::{BinaryOp, Expr, ExprKind, MapEntry, UnaryOp};
use crate::source::Span;
use crate::types::Ty;

/// How much an operand's type depends on its context (§4.8): 0 has a type
/// of its own, 1 is an enum value only one enum declares, 2 is an enum value
/// several enums declare or a name bound to nothing.
pub(super) type Level = u8;

impl Checker<'_> {
    /// Types `e` with the context type `hint`.
    pub(super) fn expr(&mut self, e: &Expr, hint: Option<&Ty>) -> Ty {
        match &e.kind {
            ExprKind::Error => Ty::Invalid,
            ExprKind::Ident(name) => self.ident(name, e.span, hint),
            ExprKind::Int { .. } => Ty::Int,
            ExprKind::Float { .. } => Ty::Float,
            ExprKind::Duration { .. } => Ty::Duration,
            ExprKind::String { .. } => Ty::String,
            ExprKind::Bool(_) => Ty::Bool,
            ExprKind::Outcome => self.outcome(e.span),
            ExprKind::Paren(inner) => self.expr(inner, hint),
            ExprKind::List(elems) => self.list(elems, hint),
            ExprKind::Map(entries) => self.map(entries, hint),
            ExprKind::Unary { op, operand, .. } => self.unary(*op, operand, e.span),
            ExprKind::Binary { .. } => self.binary_chain(e),
            ExprKind::Field { .. } | ExprKind::Index { .. } => self.chain(e),
            ExprKind::Call { callee, args } => self.call(callee, args, e.span),
            ExprKind::Quantifier {
                quantifier,
                var,
                range,
                body,
            } => self.quantifier(quantifier.as_str(), var, range, body, false),
            ExprKind::Filter { var, range, body } => {
                self.quantifier("filter", var, range, body, true)
            }
        }
    }

    /// Types `e` in a context that requires `want`.
    pub(super) fn expr_as(&mut self, e: &Expr, want: &Ty) -> Ty {
        let ty = self.expr(e, Some(want));
        self.check_as(e, ty, want)
    }

    /// Requires `e`, of type `ty`, to have type `want`, resolving an empty
    /// literal against it: `want` when it does, [`Ty::Invalid`] after
    /// reporting that it doesn't.
    pub(super) fn check_as(&mut self, e: &Expr, ty: Ty, want: &Ty) -> Ty {
        if ty.is_invalid() {
            return Ty::Invalid;
        }
        let ty = match ty.is_untyped() {
            true => resolve(&ty, want).unwrap_or(ty),
            false => ty,
        };
        if ty == *want {
            return ty;
        }
        let problem = ValueError::Expected {
            help: self.expected_help(e, &ty, want),
            want: want.clone(),
            found: ty,
        };
        self.report(e.span, &problem);
        Ty::Invalid
    }

    /// Requires a finished expression to have a type: an empty literal
    /// nothing resolved is an error.
    pub(super) fn settled(&mut self, e: &Expr, ty: Ty) -> Ty {
        if !ty.is_untyped() {
            return ty;
        }
        let problem = ValueError::CannotInfer {
            text: e.canonical(),
        };
        self.report(e.span, &problem);
        Ty::Invalid
    }

    /// The dependence level of `e` (§4.8).
    pub(super) fn level(&self, e: &Expr) -> Level {
        match &e.kind {
            ExprKind::Ident(name) => self.name_level(name),
            ExprKind::Paren(inner) => self.level(inner),
            ExprKind::List(elems) => elems.iter().map(|x| self.level(x)).max().unwrap_or(0),
            ExprKind::Map(entries) => entries
                .iter()
                .flat_map(|m| [self.level(&m.key), self.level(&m.value)])
                .max()
                .unwrap_or(0),
            _ => 0,
        }
    }

    fn name_level(&self, name: &str) -> Level {
        if self.vars.iter().any(|v| v.name == name) {
            return 0;
        }
        match self.names.get(name) {
            Some(Binding::EnumValue) | None => match self.kind.enums_declaring(name).count() {
                1 => 1,
                _ => 2,
            },
            Some(_) => 0,
        }
    }

    /// Types two operands in the order of §4.8, each hinting the other: the
    /// right first when the left depends more on context. `hint_left` and
    /// `hint_right` turn one side's type into the other's hint.
    pub(super) fn operands(
        &mut self,
        lhs: &Expr,
        known_lhs: Option<Ty>,
        rhs: &Expr,
        hint_left: fn(&Ty) -> Option<Ty>,
        hint_right: fn(&Ty) -> Option<Ty>,
    ) -> (Ty, Ty) {
        if let Some(l) = known_lhs {
            let r = self.expr(rhs, hint_right(&l).as_ref());
            return (l, r);
        }
        if self.level(lhs) > self.level(rhs) {
            let r = self.expr(rhs, None);
            let l = self.expr(lhs, hint_left(&r).as_ref());
            (l, r)
        } else {
            let l = self.expr(lhs, None);
            let r = self.expr(rhs, hint_right(&l).as_ref());
            (l, r)
        }
    }

    // ---- names --------------------------------------------------------------

    /// A bare name (§5.1, §5.14).
    fn ident(&mut self, name: &str, span: Span, hint: Option<&Ty>) -> Ty {
        if let Some(var) = self.vars.iter().rev().find(|v| v.name == name) {
            return var.ty.clone();
        }
        match self.names.get(name) {
            Some(Binding::Param(i)) => self.read_param(name, i),
            Some(Binding::Let(i)) if self.let_visible(i) => self.read_let(i, span),
            Some(Binding::ImportedLet(i)) => {
                self.used_imports.push(name.to_owned());
                self.names.imported.get(i).cloned().unwrap_or(Ty::Invalid)
            }
            Some(Binding::Input(input)) => {
                if let Ty::Enum(e) = &input.ty {
                    self.facts.enum_reads.push((span, e.to_string()));
                }
                input.ty.clone()
            }
            Some(Binding::Func(f)) => {
                let problem = ValueError::FunctionAsValue {
                    name: name.to_owned(),
                    signature: f.signature(),
                };
                self.report(span, &problem);
                Ty::Invalid
            }
            Some(Binding::Decision(_)) => self.decision_value(name, span),
            Some(Binding::Module(_)) => {
                let problem = ValueError::ModuleAsValue {
                    name: name.to_owned(),
                };
                self.report(span, &problem);
                Ty::Invalid
            }
            Some(Binding::Policy(_)) => {
                let problem = ValueError::PolicyAsValue {
                    name: name.to_owned(),
                };
                self.report(span, &problem);
                Ty::Invalid
            }
            Some(Binding::EnumType(e)) => {
                let problem = ValueError::EnumTypeAsValue {
                    name: e.name.clone(),
                    first: e.values.first().cloned().unwrap_or_default(),
                };
                self.report(span, &problem);
                Ty::Invalid
            }
            Some(Binding::Let(_) | Binding::EnumValue) | None => self.enum_value(name, span, hint),
        }
    }

    fn read_param(&mut self, name: &str, i: usize) -> Ty {
        if let Some(frame) = self.param_reads.last_mut() {
            frame.push(name.to_owned());
        }
        self.names
            .params
            .get(i)
            .map_or(Ty::Invalid, |p| p.ty.clone())
    }

    /// Whether let `i` is visible where the checker is: a top-level let
    /// everywhere, a scoped let only inside its body.
    pub(super) fn let_visible(&self, i: usize) -> bool {
        match self.names.lets.get(i).map(|l| l.body) {
            Some(Some(body)) => self.body_within(self.body, body),
            Some(None) => true,
            None => false,
        }
    }

    /// The type of let `i`, read at `span`; typed now when this is the first
    /// read, so the order of lets doesn't matter.
    pub(super) fn read_let(&mut self, i: usize, span: Span) -> Ty {
        let Some(info) = self.names.lets.get_mut(i) else {
            return Ty::Invalid;
        };
        info.read = true;
        let (ty, reads) = match info.state.clone() {
            LetState::Typed(ty) => (ty, info.reads_param.clone()),
            LetState::Typing => {
                let problem = ValueError::LetCycle {
                    name: info.decl.name.name.clone(),
                };
                self.report(span, &problem);
                return Ty::Invalid;
            }
            LetState::Untyped => self.type_let(i),
        };
        if let (Some(param), Some(frame)) = (reads, self.param_reads.last_mut()) {
            frame.push(param);
        }
        ty
    }

    /// Types let `i` in its own scope: its body, no quantifier variables,
    /// not an assert condition.
    pub(super) fn type_let(&mut self, i: usize) -> (Ty, Option<String>) {
        let Some(info) = self.names.lets.get_mut(i) else {
            return (Ty::Invalid, None);
        };
        info.state = LetState::Typing;
        let (decl, body) = (info.decl, info.body);
        let vars = std::mem::take(&mut self.vars);
        let saved = (self.in_assert, self.body);
        (self.in_assert, self.body) = (false, body);
        self.param_reads.push(Vec::new());
        let ty = self.expr(&decl.value, None);
        let ty = self.settled(&decl.value, ty);
        let reads = self.param_reads.pop().and_then(|r| r.into_iter().next());
        (self.in_assert, self.body) = saved;
        self.vars = vars;
        if let Some(info) = self.names.lets.get_mut(i) {
            info.state = LetState::Typed(ty.clone());
            info.reads_param = reads.clone();
        }
        (ty, reads)
    }

    /// A bare name that is no local name: an enum value, resolved by the
    /// hint, or by the one enum declaring it (§5.14).
    fn enum_value(&mut self, name: &str, span: Span, hint: Option<&Ty>) -> Ty {
        if let Some(Ty::Enum(wanted)) = hint.map(Ty::strip_optional) {
            if let Some(def) = self.kind.enum_def(wanted) {
                if def.values.iter().any(|v| v == name) {
                    return Ty::Enum(wanted.clone());
                }
                let problem = ValueError::NoEnumValue {
                    enum_name: def.name.clone(),
                    name: name.to_owned(),
                    help: def.values_help(name),
                };
                self.report(span, &problem);
                return Ty::Invalid;
            }
        }
        let declaring: Vec<&str> = self
            .kind
            .enums_declaring(name)
            .map(|e| e.name.as_str())
            .collect();
        match declaring.as_slice() {
            [] => {
                self.unknown_name(name, span);
                Ty::Invalid
            }
            [one] => Ty::Enum((*one).into()),
            several => {
                let mut sorted = several.to_vec();
                sorted.sort_unstable();
                let qualified = several
                    .iter()
                    .map(|e| format!("`{e}.{name}`"))
                    .collect::<Vec<_>>()
                    .join(" or ");
                let problem = ValueError::AmbiguousEnumValue {
                    name: name.to_owned(),
                    enums: hints::and_list(&sorted),
                    qualified,
                };
                self.report(span, &problem);
                Ty::Invalid
            }
        }
    }

    /// Reports ``unknown name `name` `` with a did-you-mean over the names in
    /// scope.
    pub(super) fn unknown_name(&mut self, name: &str, span: Span) {
        let problem = ValueError::UnknownName {
            name: name.to_owned(),
            near: self.nearest_name(name),
        };
        self.report(span, &problem);
    }

    /// The name in scope closest to `name`, if one is close enough.
    pub(super) fn nearest_name(&self, name: &str) -> Option<String> {
        let mut names = self.names.sorted();
        names.extend(self.vars.iter().map(|v| v.name.as_str()));
        names.sort_unstable();
        crate::diag::nearest(name, names).map(str::to_owned)
    }

    /// `outcome`: only in assert conditions.
    fn outcome(&mut self, span: Span) -> Ty {
        if self.in_assert {
            return Ty::list(Ty::Decision);
        }
        self.report(span, &ValueError::OutcomeOutsideAssert);
        Ty::Invalid
    }

    /// A bare decision name: a value only in assert conditions.
    fn decision_value(&mut self, name: &str, span: Span) -> Ty {
        if self.in_assert {
            return Ty::Decision;
        }
        let problem = ValueError::DecisionAsValue {
            name: name.to_owned(),
        };
        self.report(span, &problem);
        Ty::Invalid
    }

    // ---- literals -----------------------------------------------------------

    /// A list literal (§5.2): with a list context, every element is checked
    /// against its element type; without one, the first typed element fixes
    /// it, elements that depend on context typed last.
    fn list(&mut self, elems: &[Expr], hint: Option<&Ty>) -> Ty {
        if let Some(Ty::List(want)) = hint.map(Ty::strip_optional) {
            if !want.is_untyped() {
                for e in elems {
                    if self.expr_as(e, want).is_invalid() {
                        return Ty::Invalid;
                    }
                }
                return Ty::List(want.clone());
            }
        }
        if elems.is_empty() {
            return Ty::EmptyList;
        }
        let mut order: Vec<&Expr> = elems.iter().collect();
        order.sort_by_key(|e| self.level(e));
        let help = "every element of a list has the same type";
        let mut typed: Vec<(&Expr, Ty)> = Vec::new();
        let mut elem: Option<Ty> = None;
        for e in order {
            let ty = self.expr(e, elem.as_ref());
            if ty.is_invalid() {
                return Ty::Invalid;
            }
            if let Ty::Candidate(_) = ty {
                self.report(e.span, &ValueError::CandidateElement { ty });
                return Ty::Invalid;
            }
            match self.join(&mut typed, &mut elem, e, ty, help) {
                true => {}
                false => return Ty::Invalid,
            }
        }
        Ty::list(elem.unwrap_or(Ty::EmptyList))
    }

    /// Adds an element (or map value) of type `ty` to a literal whose type
    /// so far is `so_far`: the first typed one fixes it, and earlier empty
    /// literals must take it. Reports a mismatch at the element and returns
    /// false.
    fn join<'e>(
        &mut self,
        typed: &mut Vec<(&'e Expr, Ty)>,
        so_far: &mut Option<Ty>,
        e: &'e Expr,
        ty: Ty,
        help: &str,
    ) -> bool {
        let fixed = match so_far.as_ref() {
            None => true,
            Some(current) => current.is_untyped() && !ty.is_untyped(),
        };
        if fixed {
            for (earlier, earlier_ty) in typed.iter() {
                if earlier_ty.is_untyped() && resolve(earlier_ty, &ty).is_none() {
                    let problem = ValueError::Expected {
                        want: ty,
                        found: earlier_ty.clone(),
                        help: help.to_owned(),
                    };
                    self.report(earlier.span, &problem);
                    return false;
                }
            }
            *so_far = Some(ty.clone());
        } else if let Some(current) = so_far.as_ref() {
            let fits = match ty.is_untyped() {
                true => resolve(&ty, current).is_some(),
                false => ty == *current,
            };
            if !fits {
                let problem = ValueError::Expected {
                    want: current.clone(),
                    found: ty,
                    help: help.to_owned(),
                };
                self.report(e.span, &problem);
                return false;
            }
        }
        typed.push((e, ty));
        true
    }

    /// A map literal (§5.2).
    fn map(&mut self, entries: &[MapEntry], hint: Option<&Ty>) -> Ty {
        if let Some(Ty::Map(key, value)) = hint.map(Ty::strip_optional) {
            if !key.is_untyped() && !value.is_untyped() {
                for entry in entries {
                    if self.map_key(&entry.key, Some(key), true).is_invalid()
                        || self.expr_as(&entry.value, value).is_invalid()
                    {
                        return Ty::Invalid;
                    }
                }
                return Ty::Map(key.clone(), value.clone());
            }
        }
        let mut key: Option<Ty> = None;
        let mut typed: Vec<(&Expr, Ty)> = Vec::new();
        let mut value: Option<Ty> = None;
        for entry in entries {
            if !self.map_entry_key(entry, &mut key) {
                return Ty::Invalid;
            }
            let ty = self.expr(&entry.value, value.as_ref());
            if ty.is_invalid() || !self.map_value_allowed(&entry.value, &ty) {
                return Ty::Invalid;
            }
            let help = "every value of a map has the same type";
            if !self.join(&mut typed, &mut value, &entry.value, ty, help) {
                return Ty::Invalid;
            }
        }
        match (key, value) {
            (Some(k), Some(v)) => Ty::map(k, v),
            _ => Ty::EmptyMap,
        }
    }

    /// Types the key of a map literal without a context type; the first
    /// key's type must be a key type, later ones the same type.
    fn map_entry_key(&mut self, entry: &MapEntry, key: &mut Option<Ty>) -> bool {
        let ty = self.map_key(&entry.key, key.as_ref(), false);
        if ty.is_invalid() {
            return false;
        }
        match key.as_ref() {
            None if !ty.is_key() => {
                let problem = crate::kind::TypeError::MapKey { key: ty };
                self.diagnostics.push(problem.to_diagnostic(entry.key.span));
                false
            }
            None => {
                *key = Some(ty);
                true
            }
            Some(k) if *k != ty => {
                let problem = ValueError::Expected {
                    want: k.clone(),
                    found: ty,
                    help: "every key of a map has the same type".to_owned(),
                };
                self.report(entry.key.span, &problem);
                false
            }
            Some(_) => true,
        }
    }

    /// Types a map key with the context type `want`, which it must have
    /// when `required` (a map context), else only as a hint (the first
    /// key's type). A bare name that means nothing gets the hint to quote it
    /// (§8.3).
    fn map_key(&mut self, key: &Expr, want: Option<&Ty>, required: bool) -> Ty {
        if let ExprKind::Ident(name) = &key.kind {
            let string_or_unknown = matches!(want, None | Some(Ty::String));
            if string_or_unknown && self.is_unbound(name) {
                let problem = ValueError::UnknownMapKey {
                    name: name.to_owned(),
                    near: self.nearest_name(name),
                };
                self.report(key.span, &problem);
                return Ty::Invalid;
            }
        }
        match (want, required) {
            (Some(want), true) => self.expr_as(key, want),
            (want, _) => self.expr(key, want),
        }
    }

    /// Whether `name` means nothing here: no variable, no binding, no enum
    /// value.
    fn is_unbound(&self, name: &str) -> bool {
        !self.vars.iter().any(|v| v.name == name)
            && self.names.get(name).is_none()
            && self.kind.enums_declaring(name).next().is_none()
    }

    /// Whether a map may hold values of type `ty` (§4.6, §4.7); reports why
    /// not at the value.
    fn map_value_allowed(&mut self, value: &Expr, ty: &Ty) -> bool {
        if !matches!(ty, Ty::Decision | Ty::Enum(_) | Ty::Candidate(_)) {
            return true;
        }
        let problem = ValueError::MapValue { ty: ty.clone() };
        self.report(value.span, &problem);
        false
    }

    // ---- operators ----------------------------------------------------------

    /// `not`, unary `-` and `present` (§5.3, §5.9, §5.10).
    fn unary(&mut self, op: UnaryOp, operand: &Expr, span: Span) -> Ty {
        match op {
            UnaryOp::Not => match self.expr_as(operand, &Ty::Bool).is_invalid() {
                true => Ty::Invalid,
                false => Ty::Bool,
            },
            UnaryOp::Neg => match self.expr(operand, None) {
                ty @ (Ty::Invalid | Ty::Int | Ty::Float | Ty::Duration) => ty,
                ty => {
                    let problem = OperatorError::Negate {
                        help: hints::unwrap(operand, &ty),
                        ty,
                    };
                    self.report(span, &problem);
                    Ty::Invalid
                }
            },
            UnaryOp::Present => match self.expr(operand, None) {
                Ty::Invalid => Ty::Invalid,
                Ty::Optional(_) => Ty::Bool,
                ty => {
                    let problem = OperatorError::AlwaysPresent {
                        text: operand.canonical(),
                        ty,
                    };
                    self.report(operand.span, &problem);
                    Ty::Invalid
                }
            },
        }
    }

    /// A binary expression and the left-associative chain below it: the
    /// spine is walked with a loop, innermost operator first, each result
    /// becoming the next operator's left operand.
    fn binary_chain(&mut self, e: &Expr) -> Ty {
        let mut spine = vec![e];
        let mut leaf = e;
        while let ExprKind::Binary { lhs, .. } = &leaf.kind {
            if !matches!(lhs.kind, ExprKind::Binary { .. }) {
                break;
            }
            spine.push(lhs);
            leaf = lhs;
        }
        let mut known: Option<Ty> = None;
        for node in spine.into_iter().rev() {
            if let ExprKind::Binary { op, lhs, rhs, .. } = &node.kind {
                known = Some(self.binary(*op, lhs, known.take(), rhs, node));
            }
        }
        known.unwrap_or(Ty::Invalid)
    }

    /// One binary operator; `known` is the left operand's type when the
    /// spine loop already typed it.
    fn binary(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        known: Option<Ty>,
        rhs: &Expr,
        whole: &Expr,
    ) -> Ty {
        match op {
            BinaryOp::Or | BinaryOp::Xor | BinaryOp::And => {
                let l = self.left_as(lhs, known, &Ty::Bool);
                let r = self.expr_as(rhs, &Ty::Bool);
                match l.is_invalid() || r.is_invalid() {
                    true => Ty::Invalid,
                    false => Ty::Bool,
                }
            }
            BinaryOp::Eq
            | BinaryOp::NotEq
            | BinaryOp::Lt
            | BinaryOp::LtEq
            | BinaryOp::Gt
            | BinaryOp::GtEq => self.comparison(op, lhs, known, rhs, whole),
            BinaryOp::In | BinaryOp::NotIn => self.membership(op, lhs, known, rhs, whole),
            BinaryOp::AllIn | BinaryOp::AnyIn | BinaryOp::OneIn | BinaryOp::ExclusiveIn => {
                self.list_op(op, lhs, known, rhs, whole)
            }
            BinaryOp::Has => self.has(lhs, known, rhs, whole),
            BinaryOp::Like | BinaryOp::Matches => self.pattern(op, lhs, known, rhs),
            BinaryOp::Coalesce => self.coalesce(lhs, known, rhs),
            BinaryOp::Add | BinaryOp::Sub => self.arithmetic(op, lhs, known, rhs, whole.span),
        }
    }

    /// The left operand required to be `want`, typed now unless the spine
    /// loop already did.
    pub(super) fn left_as(&mut self, lhs: &Expr, known: Option<Ty>, want: &Ty) -> Ty {
        match known {
            Some(ty) => self.check_as(lhs, ty, want),
            None => self.expr_as(lhs, want),
        }
    }

    /// The left operand, typed now unless the spine loop already did.
    pub(super) fn left(&mut self, lhs: &Expr, known: Option<Ty>) -> Ty {
        match known {
            Some(ty) => ty,
            None => self.expr(lhs, None),
        }
    }

    /// `a ?? b` (§5.9).
    fn coalesce(&mut self, lhs: &Expr, known: Option<Ty>, rhs: &Expr) -> Ty {
        match self.left(lhs, known) {
            Ty::Invalid => Ty::Invalid,
            Ty::Optional(elem) => {
                let elem = Ty::clone(&elem);
                match self.expr_as(rhs, &elem).is_invalid() {
                    true => Ty::Invalid,
                    false => elem,
                }
            }
            ty => {
                self.report(lhs.span, &OperatorError::DefaultOfNonOptional { ty });
                Ty::Invalid
            }
        }
    }

    /// `a + b`, `a - b` (§5.10).
    fn arithmetic(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        known: Option<Ty>,
        rhs: &Expr,
        span: Span,
    ) -> Ty {
        let l = self.left(lhs, known);
        let r = self.expr(rhs, None);
        if l.is_invalid() || r.is_invalid() {
            return Ty::Invalid;
        }
        match (&l, &r) {
            (Ty::Int, Ty::Int) | (Ty::Float, Ty::Float) | (Ty::Duration, Ty::Duration) => return l,
            (Ty::Timestamp, Ty::Duration) => return Ty::Timestamp,
            (Ty::Timestamp, Ty::Timestamp) if op == BinaryOp::Sub => return Ty::Duration,
            _ => {}
        }
        let help = hints::same_type(&l, &r)
            .or_else(|| l.is_optional().then(|| hints::unwrap(lhs, &l)))
            .or_else(|| r.is_optional().then(|| hints::unwrap(rhs, &r)))
            .unwrap_or_else(|| match (&l, &r) {
                (Ty::String, _) | (_, Ty::String) => "there is no string concatenation".to_owned(),
                _ => "`+` and `-` work on int, float and duration, and on a timestamp with a duration".to_owned(),
            });
        let problem = OperatorError::Arithmetic {
            op: op.as_str(),
            left: l,
            right: r,
            help,
        };
        self.report(span, &problem);
        Ty::Invalid
    }
}

/// `ty`, an empty literal or a literal holding one, given the type `want`
/// of its context, when the shapes fit; an optional context is looked
/// through (§4.8).
pub(super) fn resolve(ty: &Ty, want: &Ty) -> Option<Ty> {
    let want = want.strip_optional();
    match (ty, want) {
        (Ty::EmptyList, Ty::List(_)) | (Ty::EmptyMap, Ty::Map(..)) => Some(want.clone()),
        (Ty::List(elem), Ty::List(w)) => resolve(elem, w).map(Ty::list),
        (Ty::Map(k, v), Ty::Map(wk, wv)) => Some(Ty::map(resolve(k, wk)?, resolve(v, wv)?)),
        _ if !ty.is_untyped() && ty == want => Some(ty.clone()),
        _ => None,
    }
}
