//! Comparisons, membership, list operators, `has` and patterns
//! (language-core §5.4–5.8). Each checks its operands in the order of §4.8
//! and reports the first problem of the order the spec gives.

use super::Checker;
use super::error::OperatorError;
use super::expr::resolve;
use super::hints;
use crate::ast::{BinaryOp, Expr, ExprKind};
use crate::types::Ty;

impl Checker<'_> {
    /// `==`, `!=`, `<`, `<=`, `>`, `>=` (§5.4).
    pub(super) fn comparison(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        known: Option<Ty>,
        rhs: &Expr,
        whole: &Expr,
    ) -> Ty {
        let Some((l, r)) = self.unified_operands(lhs, known, rhs) else {
            return Ty::Invalid;
        };
        let ordering = !matches!(op, BinaryOp::Eq | BinaryOp::NotEq);
        for ty in [&l, &r] {
            let inner = ty.strip_optional();
            let allowed = match ordering {
                true => inner.is_ordered(),
                false => inner.is_equatable(),
            };
            if !allowed {
                let problem = OperatorError::Undefined {
                    op: op.as_str(),
                    ty: ty.clone(),
                    help: self.undefined_help(op, inner, lhs, &l, rhs, &r),
                };
                self.report(whole.span, &problem);
                return Ty::Invalid;
            }
        }
        for (side, ty) in [(lhs, &l), (rhs, &r)] {
            if ty.is_optional() {
                let problem = OperatorError::ComparesOptional {
                    op: op.as_str(),
                    ty: ty.clone(),
                    help: hints::unwrap(side, ty),
                };
                self.report(side.span, &problem);
                return Ty::Invalid;
            }
        }
        if l != r {
            let help = hints::same_type(&l, &r)
                .or_else(|| self.enum_mismatch(rhs, &r, &l))
                .or_else(|| self.enum_mismatch(lhs, &l, &r))
                .unwrap_or_default();
            let problem = OperatorError::DifferentTypes {
                op: op.as_str(),
                left: l,
                right: r,
                help,
            };
            self.report(whole.span, &problem);
            return Ty::Invalid;
        }
        Ty::Bool
    }

    /// Both operands, each hinting the other (§4.8), an empty literal on
    /// one side resolved against the other's type; `None` when one failed.
    fn unified_operands(&mut self, lhs: &Expr, known: Option<Ty>, rhs: &Expr) -> Option<(Ty, Ty)> {
        let (l, r) = self.operands(lhs, known, rhs, same, same);
        match l.is_invalid() || r.is_invalid() {
            true => None,
            false => Some(unify(l, r)),
        }
    }

    /// The help of ``` `op` isn't defined for T ```, by priority: enum order,
    /// emptiness, candidate equality, the default.
    fn undefined_help(
        &self,
        op: BinaryOp,
        inner: &Ty,
        lhs: &Expr,
        l: &Ty,
        rhs: &Expr,
        r: &Ty,
    ) -> String {
        let equality = matches!(op, BinaryOp::Eq | BinaryOp::NotEq);
        if let Ty::Enum(_) = inner {
            return "an enum's values have no order; test them with `==` or `in`".to_owned();
        }
        if equality {
            let emptiness = match (is_empty_literal(rhs), is_empty_literal(lhs)) {
                (true, false) => self.emptiness_hint(op, lhs, l),
                (false, true) => self.emptiness_hint(op, rhs, r),
                _ => None,
            };
            if let Some(help) = emptiness {
                return help;
            }
        }
        if let Ty::Candidate(_) = inner {
            return "candidates have no equality; compare a field of each, such as `reason`"
                .to_owned();
        }
        match equality {
            true => "lists, maps and structs can't be compared yet".to_owned(),
            false => "only int, float, duration and timestamp are ordered".to_owned(),
        }
    }

    /// What tests a list or map `x` for emptiness instead of `==`/`!=`
    /// against an empty literal.
    fn emptiness_hint(&self, op: BinaryOp, x: &Expr, ty: &Ty) -> Option<String> {
        let text = x.canonical();
        match ty.strip_optional() {
            Ty::List(_) => {
                let range = match ty.is_optional() {
                    true => format!("({text} ?? [])"),
                    false => text.clone(),
                };
                let test = format!("any {} in {range}: true", self.free_name());
                Some(match op {
                    BinaryOp::Eq => format!(
                        "lists have no `==`; to test that `{text}` is empty, write `not ({test})`, or call a host function such as `len` if the kind declares one"
                    ),
                    _ => format!(
                        "lists have no `!=`; to test that `{text}` isn't empty, write `{test}`, or call a host function such as `len` if the kind declares one"
                    ),
                })
            }
            Ty::Map(..) => Some(format!(
                "maps have no `{}`; test for a key with `has`, or for emptiness with a host function such as `len` if the kind declares one",
                op.as_str()
            )),
            _ => None,
        }
    }

    /// `x`, or `x2`, `x3`, … : the first that names nothing in scope.
    fn free_name(&self) -> String {
        let taken =
            |name: &str| self.names.get(name).is_some() || self.vars.iter().any(|v| v.name == name);
        let mut n = 1;
        loop {
            let name = match n {
                1 => "x".to_owned(),
                _ => format!("x{n}"),
            };
            if !taken(&name) {
                return name;
            }
            n += 1;
        }
    }

    /// `x in xs`, `x not in xs` (§5.5).
    pub(super) fn membership(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        known: Option<Ty>,
        rhs: &Expr,
        whole: &Expr,
    ) -> Ty {
        let (l, r) = self.operands(lhs, known, rhs, element_of, list_of);
        if l.is_invalid() || r.is_invalid() {
            return Ty::Invalid;
        }
        match &r {
            Ty::List(_) | Ty::EmptyList => self.element_in_list(op, lhs, l, rhs, r, whole),
            Ty::Map(..) => {
                let (m, k) = (rhs.canonical(), lhs.canonical());
                let help = match op {
                    BinaryOp::NotIn => format!("write `not {m} has {k}`"),
                    _ => format!("write `{m} has {k}`"),
                };
                let problem = OperatorError::InMap {
                    op: op.as_str(),
                    help,
                };
                self.report(whole.span, &problem);
                Ty::Invalid
            }
            Ty::String if l == Ty::String => Ty::Bool,
            Ty::String => {
                let problem = OperatorError::SubstringOfNonString {
                    op: op.as_str(),
                    left: l,
                };
                self.report(whole.span, &problem);
                Ty::Invalid
            }
            _ => {
                let problem = OperatorError::InNonContainer {
                    op: op.as_str(),
                    help: hints::unwrap(rhs, &r),
                    right: r,
                };
                self.report(rhs.span, &problem);
                Ty::Invalid
            }
        }
    }

    /// `x in xs` with a list on the right.
    fn element_in_list(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        l: Ty,
        rhs: &Expr,
        r: Ty,
        whole: &Expr,
    ) -> Ty {
        let (l, r) = unify(l, r);
        let elem = match &r {
            Ty::List(elem) => Ty::clone(elem),
            _ => Ty::EmptyList,
        };
        let (l, elem) = match (l.is_untyped(), elem.is_untyped()) {
            (true, false) => (resolve(&l, &elem).unwrap_or(l), elem),
            _ => (l, elem),
        };
        if l.is_untyped() || elem.is_untyped() {
            self.cannot_infer(whole);
            return Ty::Invalid;
        }
        if l != elem {
            let problem = OperatorError::ElementType {
                op: op.as_str(),
                help: self.element_help(lhs, &l, rhs, &elem),
                left: l,
                elem,
            };
            self.report(whole.span, &problem);
            return Ty::Invalid;
        }
        match self.comparable(op, &elem, whole) {
            true => Ty::Bool,
            false => Ty::Invalid,
        }
    }

    /// The help of an element that doesn't fit its list: an enum against a
    /// list literal of strings gets the bare-name form of the list.
    fn element_help(&self, lhs: &Expr, l: &Ty, rhs: &Expr, elem: &Ty) -> String {
        if let (Ty::Enum(name), ExprKind::List(items)) = (l, &rhs.unparen().kind) {
            let strings: Option<Vec<&[u8]>> = items.iter().map(hints::string_literal).collect();
            if let (Some(strings), Some(def)) = (strings, self.kind.enum_def(name)) {
                let undeclared = strings
                    .iter()
                    .find(|s| !def.values.iter().any(|v| v.as_bytes() == **s));
                return match undeclared {
                    Some(text) => self.enum_string_hint(def, text),
                    None => {
                        let names: Vec<String> = strings
                            .iter()
                            .map(|s| String::from_utf8_lossy(s).into_owned())
                            .collect();
                        format!(
                            "an enum value is a bare name; write `[{}]`",
                            names.join(", ")
                        )
                    }
                };
            }
        }
        hints::same_type(l, elem)
            .or_else(|| self.enum_mismatch(lhs, l, elem))
            .unwrap_or_default()
    }

    /// Reports ``cannot infer the type of `x` `` for an operator whose
    /// operands are both untyped.
    fn cannot_infer(&mut self, whole: &Expr) {
        let problem = OperatorError::CannotInfer {
            text: whole.canonical(),
        };
        self.report(whole.span, &problem);
    }

    /// Whether elements of type `elem` compare, reporting at the whole
    /// expression when they don't.
    fn comparable(&mut self, op: BinaryOp, elem: &Ty, whole: &Expr) -> bool {
        if elem.is_element_comparable() {
            return true;
        }
        let problem = OperatorError::ElementsIncomparable {
            op: op.as_str(),
            elem: elem.clone(),
        };
        self.report(whole.span, &problem);
        false
    }

    /// `all in`, `any in`, `one in`, `exclusive in` (§5.6).
    pub(super) fn list_op(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        known: Option<Ty>,
        rhs: &Expr,
        whole: &Expr,
    ) -> Ty {
        let Some((l, r)) = self.unified_operands(lhs, known, rhs) else {
            return Ty::Invalid;
        };
        for (side, ty) in [(lhs, &l), (rhs, &r)] {
            if !matches!(ty, Ty::List(_) | Ty::EmptyList) {
                let problem = OperatorError::NeedsLists {
                    op: op.as_str(),
                    ty: ty.clone(),
                    help: hints::unwrap(side, ty),
                };
                self.report(side.span, &problem);
                return Ty::Invalid;
            }
        }
        if l.is_untyped() || r.is_untyped() {
            self.cannot_infer(whole);
            return Ty::Invalid;
        }
        if l != r {
            let problem = OperatorError::ListElementTypes {
                op: op.as_str(),
                left: l,
                right: r,
            };
            self.report(whole.span, &problem);
            return Ty::Invalid;
        }
        let elem = match &l {
            Ty::List(elem) => Ty::clone(elem),
            _ => Ty::Invalid,
        };
        match self.comparable(op, &elem, whole) {
            true => Ty::Bool,
            false => Ty::Invalid,
        }
    }

    /// `m has k`, `m has {k: v}` (§5.7).
    pub(super) fn has(&mut self, lhs: &Expr, known: Option<Ty>, rhs: &Expr, whole: &Expr) -> Ty {
        let map_literal = matches!(rhs.unparen().kind, ExprKind::Map(_));
        let (l, typed_rhs) = match known {
            None if !map_literal && self.level(lhs) > 0 => {
                let r = self.expr(rhs, None);
                let hint = matches!(r, Ty::Map(..)).then(|| r.clone());
                (self.expr(lhs, hint.as_ref()), Some(r))
            }
            known => (self.left(lhs, known), None),
        };
        let (key, value) = match &l {
            Ty::Invalid => return Ty::Invalid,
            Ty::Map(key, value) => (Ty::clone(key), Ty::clone(value)),
            _ => {
                let problem = OperatorError::HasNeedsMap {
                    help: hints::unwrap(lhs, &l),
                    left: l,
                };
                self.report(lhs.span, &problem);
                return Ty::Invalid;
            }
        };
        let op = BinaryOp::Has;
        if map_literal {
            return match self.expr_as(rhs, &l).is_invalid() || !self.comparable(op, &value, whole) {
                true => Ty::Invalid,
                false => Ty::Bool,
            };
        }
        let r = match typed_rhs {
            Some(r) => r,
            None => self.expr(rhs, Some(&key)),
        };
        if r.is_invalid() {
            return Ty::Invalid;
        }
        if r == key || (r == l && self.comparable(op, &value, whole)) {
            return Ty::Bool;
        }
        if r != l {
            let problem = OperatorError::HasNeedsKey {
                map: l,
                key,
                right: r,
            };
            self.report(rhs.span, &problem);
        }
        Ty::Invalid
    }

    /// `s like "glob"`, `s matches "re"` (§5.8): the pattern must be a
    /// string literal, and a regular expression must compile.
    pub(super) fn pattern(
        &mut self,
        op: BinaryOp,
        lhs: &Expr,
        known: Option<Ty>,
        rhs: &Expr,
    ) -> Ty {
        let l = self.left_as(lhs, known, &Ty::String);
        let Some(pattern) = hints::string_literal(rhs) else {
            let problem = OperatorError::PatternNotLiteral { op: op.as_str() };
            self.report(rhs.span, &problem);
            return Ty::Invalid;
        };
        if op == BinaryOp::Matches {
            if let Err(problem) = crate::pattern::Regex::new(pattern) {
                let problem = OperatorError::InvalidRegex {
                    problem: problem.message(),
                };
                self.report(rhs.unparen().span, &problem);
                return Ty::Invalid;
            }
        }
        match l.is_invalid() {
            true => Ty::Invalid,
            false => Ty::Bool,
        }
    }
}

/// The other operand's type as the hint.
fn same(ty: &Ty) -> Option<Ty> {
    Some(ty.clone())
}

/// A list's element type as the hint for the left of `in`.
fn element_of(ty: &Ty) -> Option<Ty> {
    match ty {
        Ty::List(elem) => Some(Ty::clone(elem)),
        _ => None,
    }
}

/// `list<T>` as the hint for the right of `in`.
fn list_of(ty: &Ty) -> Option<Ty> {
    match ty.is_untyped() || ty.is_invalid() {
        true => None,
        false => Some(Ty::list(ty.clone())),
    }
}

/// Resolves an empty literal on one side against the other side's type.
fn unify(l: Ty, r: Ty) -> (Ty, Ty) {
    match (l.is_untyped(), r.is_untyped()) {
        (true, false) => (resolve(&l, &r).unwrap_or(l), r),
        (false, true) => {
            let r = resolve(&r, &l).unwrap_or(r);
            (l, r)
        }
        _ => (l, r),
    }
}

/// Whether `e` is `[]` or `{}`, parentheses looked through.
fn is_empty_literal(e: &Expr) -> bool {
    match &e.unparen().kind {
        ExprKind::List(items) => items.is_empty(),
        ExprKind::Map(entries) => entries.is_empty(),
        _ => false,
    }
}
