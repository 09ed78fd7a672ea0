//! `any v in xs: p`, `all v in xs: p` and `filter v in xs: p`
//! (language-core §5.12–5.13): a list to range over, a fresh variable of
//! its element type visible only in the body, and a `bool` body.

use super::chain::var_entity;
use super::error::QuantifierError;
use super::names::Binding;
use super::{Checker, Var};
use crate::ast::{Expr, Ident};
use crate::types::Ty;

impl Checker<'_> {
    /// `keyword` is `any`, `all` or `filter`; a filter's result is the
    /// range's list type, a quantifier's `bool`.
    pub(super) fn quantifier(
        &mut self,
        keyword: &str,
        var: &Ident,
        range: &Expr,
        body: &Expr,
        filter: bool,
    ) -> Ty {
        let range_ty = self.expr(range, None);
        let range_ty = self.settled(range, range_ty);
        let elem = match &range_ty {
            Ty::Invalid => return Ty::Invalid,
            Ty::List(elem) => Ty::clone(elem),
            other => {
                let problem = QuantifierError::RangeNotList {
                    keyword: keyword.to_owned(),
                    ty: other.clone(),
                    help: range_help(filter, range, other),
                };
                self.report(range.span, &problem);
                return Ty::Invalid;
            }
        };
        if !self.declare_var(var) {
            return Ty::Invalid;
        }
        self.vars.push(Var {
            name: var.name.clone(),
            ty: elem,
            filter,
        });
        let body_ty = self.expr_as(body, &Ty::Bool);
        self.vars.pop();
        match (body_ty.is_invalid(), filter) {
            (true, _) => Ty::Invalid,
            (false, true) => range_ty,
            (false, false) => Ty::Bool,
        }
    }

    /// Whether `var` is a fresh name; reports the collision otherwise. In a
    /// document pinned to an older kind version, a kind's name may be taken.
    fn declare_var(&mut self, var: &Ident) -> bool {
        let taken = match self.vars.iter().rev().find(|v| v.name == var.name) {
            Some(v) => Some(var_entity(v.filter)),
            None => match self.names.get(&var.name) {
                Some(b) if b.is_kind_name() && self.older_pin => {
                    self.shadow(var, b);
                    None
                }
                Some(Binding::Let(i)) if !self.let_visible(i) => None,
                Some(b) => Some(b.entity()),
                None => None,
            },
        };
        let Some(entity) = taken else {
            return true;
        };
        let problem = QuantifierError::NameTaken {
            name: var.name.clone(),
            entity: entity.with_article().to_owned(),
        };
        self.report(var.span, &problem);
        false
    }
}

/// The help of a range that isn't a list.
fn range_help(filter: bool, range: &Expr, ty: &Ty) -> String {
    if ty.is_optional() {
        return super::hints::unwrap(range, ty);
    }
    let base = match filter {
        true => "a filter ranges over a list",
        false => "quantifiers range over lists",
    };
    match ty {
        Ty::Map(..) => format!("{base}; to test a map's keys, index it or use `has` on {ty}"),
        _ => base.to_owned(),
    }
}
