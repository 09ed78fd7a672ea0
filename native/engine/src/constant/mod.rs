//! Constant expressions (language-core §5.17): payload defaults and the
//! `default`/`conflict` arguments of a kind, param defaults and bounds.
//!
//! Invocation arguments are not constants in this sense: the compiler
//! computes them with the evaluator itself ([`crate::eval::constant`]) once
//! the invoking document's params are bound. The reference accepts any
//! operator on constants and params in an argument (`guard(min: [2h,
//! 4h][1])`, `p + 1h`, `1h < 2h`); its checker refuses only what isn't
//! static (inputs, lets, imported lets, host calls, quantifiers, filters;
//! language-policies §3.8 rule 4), and where the spec's files leave it
//! open the implementation wins (spec README, precedence rule 2). So the
//! two evaluators stay apart on purpose. Folding arguments into this one
//! would refuse such arguments, and it reads no params; folding this one
//! into the evaluator would lose what §5.17 needs and the evaluator
//! doesn't have: literals typed by the type they must have (`[]`, bare
//! enum values) and the texts of the "Constants" table. Every argument's
//! bounds are the compiler's, a constant one's too, as in the reference's
//! policy compiler (`crate::eval::tests::invocation` holds both cases).
//!
//! A constant is a literal, an enum value (bare or `E.v`), a list or map
//! literal of constants, or unary `-` and binary `+`/`-` on `int`, `float`
//! and `duration` constants. [`eval`] evaluates one *against the type it
//! must have*: that is what gives `[]` its element type, a bare name its
//! enum, and a mismatch a message naming both sides. Arithmetic reports
//! overflow instead of wrapping and floats stay finite, so every constant
//! prints back as a literal ([`Value::const_text`]).
//!
//! Errors are the "Constants" table of language-core §8.3; the first one
//! found is returned, at the part of the expression that is wrong.

use crate::ast::{BinaryOp, Expr, ExprKind, MapEntry, UnaryOp};
use crate::diag::Diagnostic;
use crate::source::Span;
use crate::types::{EnumDef, Ty};
use crate::value::Value;

/// The help of every "isn't a constant" error.
const NOT_CONSTANT_HELP: &str =
    "a constant is a literal, a list or map of literals, or `+` and `-` applied to those";

/// Evaluates `expr` as a constant of type `want`. An optional type takes a
/// constant of its element type. Bare and qualified enum values resolve
/// against `enums` (the kind's, in declaration order).
pub fn eval(expr: &Expr, want: &Ty, enums: &[EnumDef]) -> Result<Value, Diagnostic> {
    Evaluator { enums }.eval(expr, want)
}

struct Evaluator<'k> {
    enums: &'k [EnumDef],
}

impl Evaluator<'_> {
    fn eval(&self, expr: &Expr, want: &Ty) -> Result<Value, Diagnostic> {
        let expr = expr.unparen();
        match want.strip_optional() {
            Ty::Bool | Ty::String => self.literal(expr, want.strip_optional()),
            Ty::Int | Ty::Float | Ty::Duration => self.number(expr, want.strip_optional()),
            Ty::Enum(name) => self.enum_value(expr, name),
            Ty::List(elem) => self.list(expr, want.strip_optional(), elem),
            Ty::Map(key, value) => self.map(expr, want.strip_optional(), key, value),
            Ty::Timestamp => Err(mismatch(expr, want)
                .with_help("timestamps come from input; there's no literal for one")),
            Ty::Struct(name) => Err(Diagnostic::error(
                expr.span,
                format!("{name} has no literal form, so a constant can't be one"),
            )),
            // Decisions, candidates and the placeholder types have no
            // constants either; callers don't ask for them on valid input.
            other => Err(mismatch(expr, other)),
        }
    }

    /// A `bool` or `string`: only its literal, never arithmetic.
    fn literal(&self, expr: &Expr, want: &Ty) -> Result<Value, Diagnostic> {
        match (&expr.kind, want) {
            (ExprKind::Bool(b), Ty::Bool) => Ok(Value::Bool(*b)),
            (ExprKind::String { value, .. }, Ty::String) => {
                Ok(Value::String(value.as_slice().into()))
            }
            _ => Err(self.wrong_shape(expr, want)),
        }
    }

    /// An `int`, `float` or `duration`: a literal, or `-`, `+`, `-` on such
    /// constants of the same type.
    fn number(&self, expr: &Expr, want: &Ty) -> Result<Value, Diagnostic> {
        match (&expr.kind, want) {
            (ExprKind::Int { value, .. }, Ty::Int) => Ok(Value::Int(*value)),
            (ExprKind::Float { value, .. }, Ty::Float) => Ok(Value::Float(*value)),
            (ExprKind::Duration { nanos, .. }, Ty::Duration) => Ok(Value::Duration(*nanos)),
            (
                ExprKind::Unary {
                    op: UnaryOp::Neg,
                    operand,
                    ..
                },
                _,
            ) => {
                let value = self.number(operand.unparen(), want)?;
                negate(value).ok_or_else(|| overflow(expr.span, want))
            }
            (
                ExprKind::Binary {
                    op: op @ (BinaryOp::Add | BinaryOp::Sub),
                    lhs,
                    rhs,
                    ..
                },
                _,
            ) => {
                let lhs = self.number(lhs.unparen(), want)?;
                let rhs = self.number(rhs.unparen(), want)?;
                arithmetic(*op, lhs, rhs).ok_or_else(|| overflow(expr.span, want))
            }
            _ => Err(self.wrong_shape(expr, want)),
        }
    }

    /// A value of the enum `name`: bare `v` or qualified `name.v`.
    fn enum_value(&self, expr: &Expr, name: &str) -> Result<Value, Diagnostic> {
        let Some(def) = self.enums.iter().find(|e| e.name == name) else {
            return Err(mismatch(expr, &Ty::Enum(name.into())));
        };
        match &expr.kind {
            ExprKind::Ident(value) => declared_value(def, value, expr.span),
            ExprKind::String { value, .. } => Err(string_for_enum(expr, def, value)),
            ExprKind::Field {
                target,
                name: value,
                optional: false,
            } => match &target.kind {
                ExprKind::Ident(qualifier) => {
                    self.qualified(expr, def, qualifier, &value.name, value.span)
                }
                _ => Err(not_constant(expr)),
            },
            _ => Err(self.wrong_shape(expr, &Ty::Enum(name.into()))),
        }
    }

    /// `qualifier.value` where a value of `want` is expected.
    fn qualified(
        &self,
        expr: &Expr,
        want: &EnumDef,
        qualifier: &str,
        value: &str,
        value_span: Span,
    ) -> Result<Value, Diagnostic> {
        let Some(named) = self.enums.iter().find(|e| e.name == qualifier) else {
            return Err(not_constant(expr));
        };
        let found = declared_value(named, value, value_span)?;
        if named.name == want.name {
            return Ok(found);
        }
        let help = if want.declares(value) {
            format!(
                "{w} declares {value} too; write `{w}.{value}`, or `{value}`",
                w = want.name
            )
        } else {
            want.declares_sentence()
        };
        Err(Diagnostic::error(
            expr.span,
            format!("`{qualifier}.{value}` isn't a value of {}", want.name),
        )
        .with_help(help))
    }

    /// A list literal of constants of `elem`.
    fn list(&self, expr: &Expr, want: &Ty, elem: &Ty) -> Result<Value, Diagnostic> {
        let ExprKind::List(items) = &expr.kind else {
            return Err(self.wrong_shape(expr, want));
        };
        let values = items
            .iter()
            .map(|item| self.eval(item, elem))
            .collect::<Result<Vec<Value>, Diagnostic>>()?;
        Ok(Value::List(values.into()))
    }

    /// A map literal of constants, keys unique.
    fn map(&self, expr: &Expr, want: &Ty, key: &Ty, value: &Ty) -> Result<Value, Diagnostic> {
        let ExprKind::Map(entries) = &expr.kind else {
            return Err(self.wrong_shape(expr, want));
        };
        let mut out: Vec<(Value, Value)> = Vec::with_capacity(entries.len());
        for MapEntry { key: k, value: v } in entries {
            let k_value = self.eval(k, key)?;
            if out.iter().any(|(seen, _)| *seen == k_value) {
                return Err(Diagnostic::error(
                    k.span,
                    format!("duplicate key {} in map constant", k.canonical()),
                ));
            }
            let v_value = self.eval(v, value)?;
            out.push((k_value, v_value));
        }
        Ok(Value::Map(out.into()))
    }

    /// The error for an expression that isn't a constant of `want`: a
    /// non-constant form says so, a constant of another shape is a
    /// mismatch.
    fn wrong_shape(&self, expr: &Expr, want: &Ty) -> Diagnostic {
        let numeric = matches!(want, Ty::Int | Ty::Float | Ty::Duration);
        let is_list_or_map = matches!(want, Ty::List(_) | Ty::Map(..));
        match &expr.kind {
            ExprKind::Unary {
                op: UnaryOp::Neg, ..
            } if !numeric && !is_list_or_map => {
                Diagnostic::error(expr.span, format!("expected {want}, found a negated value"))
            }
            ExprKind::Binary {
                op: op @ (BinaryOp::Add | BinaryOp::Sub),
                ..
            } if !numeric && !is_list_or_map => Diagnostic::error(
                expr.span,
                format!("expected {want}, found `{}` arithmetic", op.as_str()),
            ),
            ExprKind::Unary {
                op: UnaryOp::Neg, ..
            }
            | ExprKind::Binary {
                op: BinaryOp::Add | BinaryOp::Sub,
                ..
            }
            | ExprKind::Bool(_)
            | ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Duration { .. }
            | ExprKind::String { .. }
            | ExprKind::List(_)
            | ExprKind::Map(_) => mismatch(expr, want),
            _ => not_constant(expr),
        }
    }
}

/// `value` as a value of `def`, or ``<E> has no value `v` `` at `span`.
fn declared_value(def: &EnumDef, value: &str, span: Span) -> Result<Value, Diagnostic> {
    if def.declares(value) {
        return Ok(Value::Enum(value.into()));
    }
    let help = def.values_help(value);
    Err(Diagnostic::error(span, format!("{} has no value `{value}`", def.name)).with_help(help))
}

/// A string literal where a value of `def` is expected.
fn string_for_enum(expr: &Expr, def: &EnumDef, bytes: &[u8]) -> Diagnostic {
    let text = String::from_utf8_lossy(bytes);
    let help = if def.declares(&text) {
        format!("an enum value is a bare name; write `{text}`")
    } else {
        def.declares_sentence()
    };
    mismatch(expr, &Ty::Enum(def.name.as_str().into())).with_help(help)
}

/// `expected <want>, found <what expr is>`.
fn mismatch(expr: &Expr, want: &Ty) -> Diagnostic {
    Diagnostic::error(
        expr.span,
        format!("expected {want}, found {}", describe(expr)),
    )
}

/// ``` `<x>` isn't a constant ```, naming an operator by its spelling and
/// anything else by its rendering.
fn not_constant(expr: &Expr) -> Diagnostic {
    let shown = match &expr.kind {
        ExprKind::Unary { op, .. } => op.as_str().to_owned(),
        ExprKind::Binary { op, .. } => op.as_str().to_owned(),
        _ => expr.canonical(),
    };
    Diagnostic::error(expr.span, format!("`{shown}` isn't a constant")).with_help(NOT_CONSTANT_HELP)
}

/// What a constant is, for the "found" part of a mismatch.
fn describe(expr: &Expr) -> String {
    match &expr.unparen().kind {
        ExprKind::Bool(_) => "bool".to_owned(),
        ExprKind::Int { .. } => "int".to_owned(),
        ExprKind::Float { .. } => "float".to_owned(),
        ExprKind::String { .. } => "string".to_owned(),
        ExprKind::Duration { .. } => "duration".to_owned(),
        ExprKind::List(_) => "a list".to_owned(),
        ExprKind::Map(_) => "a map".to_owned(),
        _ => format!("`{}`", expr.canonical()),
    }
}

/// `-value`, or `None` when it overflows.
fn negate(value: Value) -> Option<Value> {
    match value {
        Value::Int(n) => n.checked_neg().map(Value::Int),
        Value::Duration(n) => n.checked_neg().map(Value::Duration),
        Value::Float(f) => Some(Value::Float(-f)),
        _ => None,
    }
}

/// `lhs op rhs` for two numbers of one type, or `None` when it overflows
/// (a float result that isn't finite).
fn arithmetic(op: BinaryOp, lhs: Value, rhs: Value) -> Option<Value> {
    let sub = op == BinaryOp::Sub;
    let ints = |a: i64, b: i64| {
        if sub {
            a.checked_sub(b)
        } else {
            a.checked_add(b)
        }
    };
    match (lhs, rhs) {
        (Value::Int(a), Value::Int(b)) => ints(a, b).map(Value::Int),
        (Value::Duration(a), Value::Duration(b)) => ints(a, b).map(Value::Duration),
        (Value::Float(a), Value::Float(b)) => {
            let sum = if sub { a - b } else { a + b };
            sum.is_finite().then_some(Value::Float(sum))
        }
        _ => None,
    }
}

/// The overflow error of `want`'s arithmetic at `span`.
fn overflow(span: Span, want: &Ty) -> Diagnostic {
    match want {
        Ty::Float => Diagnostic::error(span, "float overflow in constant")
            .with_help("constant floats must be finite so the kind can be exported"),
        Ty::Duration => Diagnostic::error(span, "duration overflow in constant"),
        _ => Diagnostic::error(span, "integer overflow in constant"),
    }
}

#[cfg(test)]
mod tests;
