//! Help texts several rules share (language-core §8.3): the unwrap hint,
//! the numeric and enum hints of a type mismatch and enum value lists.

use super::Checker;
use crate::ast::{Expr, ExprKind};
use crate::kind::EnumDef;
use crate::types::Ty;

/// `A`, `A and B`, `A, B and C`.
pub(super) fn and_list(items: &[&str]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => (*last).to_owned(),
        None => String::new(),
    }
}

/// What candidates can be used for.
pub(super) fn candidates_help() -> String {
    "candidates can only be ranged over with `any`, `all` or `filter`, and read field by field, like `all r in outcome.<decision>: r.<field> ...`".to_owned()
}

/// The hint for an optional `e` used where its element type is needed;
/// empty for anything else.
pub(super) fn unwrap(e: &Expr, ty: &Ty) -> String {
    match ty.is_optional() {
        true => format!("unwrap it with `??`, like `{} ?? <default>`", e.canonical()),
        false => String::new(),
    }
}

/// The hint for two numeric types that differ.
pub(super) fn same_type(l: &Ty, r: &Ty) -> Option<String> {
    match (l, r) {
        (Ty::Duration, Ty::Int) | (Ty::Int, Ty::Duration) => {
            Some("a bare number is never a duration; write a literal like `30m`".to_owned())
        }
        (Ty::Int, Ty::Float) | (Ty::Float, Ty::Int) => {
            Some("int and float don't convert implicitly".to_owned())
        }
        _ => None,
    }
}

/// The value of `e` when it is a string literal, parentheses looked
/// through.
pub(super) fn string_literal(e: &Expr) -> Option<&[u8]> {
    match &e.unparen().kind {
        ExprKind::String { value, .. } => Some(value),
        _ => None,
    }
}

impl Checker<'_> {
    /// The help of ``expected W, found T`` for `e` (§8.3, first applicable).
    pub(super) fn expected_help(&self, e: &Expr, found: &Ty, want: &Ty) -> String {
        if let Some(help) = same_type(want, found) {
            return help;
        }
        if found.is_optional() {
            return unwrap(e, found);
        }
        self.enum_mismatch(e, found, want).unwrap_or_default()
    }

    /// The enum hints of a mismatch between `e` (of type `found`) and the
    /// type `want`, or the other way round: a string literal where an enum
    /// is expected, or another enum's qualified value.
    pub(super) fn enum_mismatch(&self, e: &Expr, found: &Ty, want: &Ty) -> Option<String> {
        let Ty::Enum(wanted) = want.strip_optional() else {
            return None;
        };
        let def = self.kind.enum_def(wanted)?;
        if let Some(text) = string_literal(e) {
            return Some(self.enum_string_hint(def, text));
        }
        match (found, &e.unparen().kind) {
            (Ty::Enum(_), ExprKind::Field { name, .. }) if def.values.contains(&name.name) => {
                Some(format!(
                    "{0} declares {1} too; write `{0}.{1}`, or `{1}`",
                    def.name, name.name
                ))
            }
            _ => None,
        }
    }

    /// The hint for a string literal `text` where enum `def` is expected.
    pub(super) fn enum_string_hint(&self, def: &EnumDef, text: &[u8]) -> String {
        let text = String::from_utf8_lossy(text);
        match def.values.iter().any(|v| *v == text) {
            true => format!("an enum value is a bare name; write `{text}`"),
            false => format!("an enum value is a bare name; {}", def.values_help(&text)),
        }
    }
}
