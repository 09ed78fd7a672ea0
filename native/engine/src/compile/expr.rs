//! Expressions with their names resolved (language-core §5.1): a name is,
//! innermost first, a quantifier or filter variable, a let of the
//! instance, a param (its bound value), an imported let, and then the
//! kind's: an input, a decision, an enum value. The document's names come
//! before the kind's, as a document pinned to an older kind version may
//! take a name the kind added later.

use std::rc::Rc;

use super::{Compiler, ImportRef, Instance};
use crate::ast::{BinaryOp, Expr, ExprKind, Quantifier, UnaryOp};
use crate::check::Facts;
use crate::input::zero_value;
use crate::pattern::{Glob, Regex};
use crate::program::{Arith, At, Comparison, EnumRead, Ex, IndexEx, ListOp};
use crate::value::Value;

impl<'p> Compiler<'p> {
    /// `e` compiled in `inst`, outside any quantifier.
    pub(super) fn expr(&mut self, inst: &mut Instance<'p>, e: &Expr) -> Ex {
        self.expr_in(inst, e, &mut Vec::new())
    }

    fn at(&self, inst: &Instance<'p>, e: &Expr) -> At {
        At {
            file: inst.file,
            offset: e.span.start,
            document: inst.name.clone(),
        }
    }

    /// `read`, an input or field read at `e`, checked for a value its enum
    /// doesn't declare when the checker typed it as an enum.
    fn enum_read(&self, inst: &Instance<'p>, e: &Expr, read: Ex) -> Ex {
        if !matches!(read, Ex::Input(_) | Ex::Field(..)) {
            return read;
        }
        let declared = Facts::read_at(inst.enum_reads, e.span)
            .and_then(|name| self.kind.enums.iter().position(|d| d.name == *name));
        match declared {
            Some(enumeration) => Ex::EnumRead(Box::new(EnumRead {
                read,
                enumeration,
                text: Rc::from(e.canonical()),
                at: self.at(inst, e),
            })),
            None => read,
        }
    }

    fn boxed<'e>(
        &mut self,
        inst: &mut Instance<'p>,
        e: &'e Expr,
        vars: &mut Vec<&'e str>,
    ) -> Box<Ex> {
        Box::new(self.expr_in(inst, e, vars))
    }

    fn expr_in<'e>(&mut self, inst: &mut Instance<'p>, e: &'e Expr, vars: &mut Vec<&'e str>) -> Ex {
        match &e.kind {
            ExprKind::Error => Ex::Lit(Value::Absent),
            ExprKind::Ident(name) => {
                let read = self.name(inst, name, vars);
                self.enum_read(inst, e, read)
            }
            ExprKind::Int { value, .. } => Ex::Lit(Value::Int(*value)),
            ExprKind::Float { value, .. } => Ex::Lit(Value::Float(*value)),
            ExprKind::Duration { nanos, .. } => Ex::Lit(Value::Duration(*nanos)),
            ExprKind::String { value, .. } => Ex::Lit(Value::String(Rc::from(value.as_slice()))),
            ExprKind::Bool(b) => Ex::Lit(Value::Bool(*b)),
            ExprKind::Outcome => Ex::Outcome,
            ExprKind::Paren(inner) => self.expr_in(inst, inner, vars),
            ExprKind::List(items) => {
                Ex::List(items.iter().map(|i| self.expr_in(inst, i, vars)).collect())
            }
            ExprKind::Map(entries) => Ex::Map(
                entries
                    .iter()
                    .map(|m| {
                        (
                            self.expr_in(inst, &m.key, vars),
                            self.expr_in(inst, &m.value, vars),
                        )
                    })
                    .collect(),
            ),
            ExprKind::Unary { op, operand, .. } => {
                let inner = self.boxed(inst, operand, vars);
                match op {
                    UnaryOp::Not => Ex::Not(inner),
                    UnaryOp::Present => Ex::Present(inner),
                    UnaryOp::Neg => Ex::Neg(inner, Box::new(self.at(inst, e))),
                }
            }
            ExprKind::Binary { op, lhs, rhs, .. } => self.binary(inst, e, *op, lhs, rhs, vars),
            ExprKind::Field { target, name, .. } => {
                let read = self.field(inst, target, &name.name, vars);
                self.enum_read(inst, e, read)
            }
            ExprKind::Index { target, index } => {
                let zero =
                    Facts::read_at(inst.map_values, index.span).map(|ty| zero_value(ty, self.kind));
                let target = self.expr_in(inst, target, vars);
                let index_ex = self.expr_in(inst, index, vars);
                Ex::Index(Box::new(IndexEx {
                    target,
                    index: index_ex,
                    zero,
                    at: self.at(inst, e),
                }))
            }
            ExprKind::Call { callee, args } => {
                let function = match &callee.kind {
                    ExprKind::Ident(name) => self.kind.funcs.iter().position(|f| f.name == *name),
                    _ => None,
                };
                let args = args.iter().map(|a| self.expr_in(inst, a, vars)).collect();
                Ex::Call {
                    function: function.unwrap_or(usize::MAX),
                    args,
                    at: Box::new(self.at(inst, e)),
                }
            }
            ExprKind::Quantifier {
                quantifier,
                var,
                range,
                body,
            } => {
                let range = self.boxed(inst, range, vars);
                vars.push(&var.name);
                let body = self.boxed(inst, body, vars);
                vars.pop();
                Ex::Quantifier {
                    any: *quantifier == Quantifier::Any,
                    range,
                    body,
                }
            }
            ExprKind::Filter { var, range, body } => {
                let range = self.boxed(inst, range, vars);
                vars.push(&var.name);
                let body = self.boxed(inst, body, vars);
                vars.pop();
                Ex::Filter { range, body }
            }
        }
    }

    /// A bare name.
    fn name(&mut self, inst: &mut Instance<'p>, name: &str, vars: &[&str]) -> Ex {
        if let Some(depth) = vars.iter().rposition(|v| *v == name) {
            return Ex::Var(depth);
        }
        if let Some(slot) = self.let_slot(inst, name) {
            return Ex::Let(slot);
        }
        if let Some(value) = inst.params.values.get(name) {
            return Ex::Lit(value.clone());
        }
        if inst.params.is_unbound(name) {
            // Only a static compile leaves a param unbound, and its program
            // is never evaluated.
            return Ex::Lit(Value::Absent);
        }
        if let Some(ImportRef::Item(doc, item)) = inst.imports.get(name).copied() {
            if let Some(slot) = self.shared_let(doc, item) {
                return Ex::Let(slot);
            }
        }
        let kind = self.kind;
        if let Some(input) = kind.inputs.iter().position(|i| i.name == name) {
            return Ex::Input(input);
        }
        if kind.decision(name).is_some() {
            return Ex::Lit(Value::Decision(Rc::from(name)));
        }
        Ex::Lit(Value::Enum(Rc::from(name)))
    }

    /// `target.name`: an imported let, a decision's reason, an enum's
    /// value, the outcome's candidates, or a struct's field.
    fn field<'e>(
        &mut self,
        inst: &mut Instance<'p>,
        target: &'e Expr,
        name: &str,
        vars: &mut Vec<&'e str>,
    ) -> Ex {
        let kind = self.kind;
        match &target.unparen().kind {
            ExprKind::Outcome => {
                if let Some(decision) = kind.decisions.iter().position(|d| d.name == name) {
                    return Ex::OutcomeOf {
                        decision,
                        reason: None,
                    };
                }
            }
            ExprKind::Field {
                target: inner,
                name: d,
                ..
            } if matches!(inner.unparen().kind, ExprKind::Outcome) => {
                if let Some(decision) = kind.decisions.iter().position(|x| x.name == d.name) {
                    return Ex::OutcomeOf {
                        decision,
                        reason: Some(Rc::from(name)),
                    };
                }
            }
            ExprKind::Ident(base) if !self.is_local(inst, base, vars) => {
                if let Some(ImportRef::Whole(doc)) = inst.imports.get(base.as_str()).copied() {
                    if let Some(slot) = self.shared_let(doc, name) {
                        return Ex::Let(slot);
                    }
                }
                if kind.decision(base).is_some() {
                    return Ex::Lit(Value::Decision(Rc::from(format!("{base}.{name}"))));
                }
                if kind.enum_def(base).is_some() && kind.input(base).is_none() {
                    return Ex::Lit(Value::Enum(Rc::from(name)));
                }
            }
            _ => {}
        }
        let target = self.boxed(inst, target, vars);
        Ex::Field(target, Rc::from(name))
    }

    /// Whether `name` is one of the instance's own names (a variable, a
    /// let, a param), which take it before the kind's.
    fn is_local(&self, inst: &Instance<'p>, name: &str, vars: &[&str]) -> bool {
        vars.contains(&name) || inst.lets.contains_key(name) || inst.params.texts.contains_key(name)
    }

    fn binary<'e>(
        &mut self,
        inst: &mut Instance<'p>,
        e: &'e Expr,
        op: BinaryOp,
        lhs: &'e Expr,
        rhs: &'e Expr,
        vars: &mut Vec<&'e str>,
    ) -> Ex {
        if let BinaryOp::Like | BinaryOp::Matches = op {
            let subject = self.boxed(inst, lhs, vars);
            let pattern = match &rhs.unparen().kind {
                ExprKind::String { value, .. } => value.as_slice(),
                _ => &[],
            };
            return match op {
                BinaryOp::Like => Ex::Like(subject, Rc::new(Glob::new(pattern))),
                _ => match Regex::new(pattern) {
                    Ok(re) => Ex::Matches(subject, Rc::new(re)),
                    // The checker refused it already; the program never runs.
                    Err(_) => Ex::Lit(Value::Bool(false)),
                },
            };
        }
        let l = self.boxed(inst, lhs, vars);
        let r = self.boxed(inst, rhs, vars);
        match op {
            BinaryOp::Or => Ex::Or(l, r),
            BinaryOp::And => Ex::And(l, r),
            BinaryOp::Xor => Ex::Xor(l, r),
            BinaryOp::Eq => Ex::Compare(Comparison::Eq, l, r),
            BinaryOp::NotEq => Ex::Compare(Comparison::NotEq, l, r),
            BinaryOp::Lt => Ex::Compare(Comparison::Lt, l, r),
            BinaryOp::LtEq => Ex::Compare(Comparison::LtEq, l, r),
            BinaryOp::Gt => Ex::Compare(Comparison::Gt, l, r),
            BinaryOp::GtEq => Ex::Compare(Comparison::GtEq, l, r),
            BinaryOp::In | BinaryOp::NotIn => Ex::In {
                negated: op == BinaryOp::NotIn,
                lhs: l,
                rhs: r,
            },
            BinaryOp::AllIn => Ex::ListOp(ListOp::All, l, r),
            BinaryOp::AnyIn => Ex::ListOp(ListOp::Any, l, r),
            BinaryOp::OneIn => Ex::ListOp(ListOp::One, l, r),
            BinaryOp::ExclusiveIn => Ex::ListOp(ListOp::Exclusive, l, r),
            BinaryOp::Has => Ex::Has(l, r),
            BinaryOp::Coalesce => Ex::Coalesce(l, r),
            // `+` and `-`: the patterns returned above.
            _ => Ex::Arith(Box::new(Arith {
                minus: op == BinaryOp::Sub,
                lhs: l,
                rhs: r,
                text: Rc::from(e.canonical().as_str()),
                at: self.at(inst, e),
            })),
        }
    }
}
