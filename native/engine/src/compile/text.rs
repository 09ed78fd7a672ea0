//! What records print about compiled code: condition texts
//! (language-policies §6.4).

use std::collections::HashMap;
use std::rc::Rc;

use crate::ast::{Expr, ExprKind};
use crate::value::Value;

/// A condition's text: its source, every identifier that names a bound
/// param replaced by the param's value (`constText`), every run of
/// whitespace collapsed to one space.
pub(super) fn condition(source: &str, cond: &Expr, params: &HashMap<&str, Value>) -> Rc<str> {
    let mut replacements: Vec<(usize, usize, String)> = Vec::new();
    if !params.is_empty() {
        param_idents(cond, params, &mut replacements);
    }
    replacements.sort_by_key(|r| r.0);
    let mut text = String::new();
    let mut at = cond.span.start;
    for (start, end, value) in replacements {
        text.push_str(source.get(at..start).unwrap_or_default());
        text.push_str(&value);
        at = end;
    }
    text.push_str(source.get(at..cond.span.end).unwrap_or_default());
    Rc::from(collapse_whitespace(&text))
}

/// The identifiers of `e` spelled like a bound param, with the value's
/// text: names, field names after `.` and map keys alike (the reference
/// replaces by spelling).
fn param_idents(e: &Expr, params: &HashMap<&str, Value>, out: &mut Vec<(usize, usize, String)>) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Ident(name) => {
                if let Some(v) = params.get(name.as_str()) {
                    out.push((e.span.start, e.span.end, v.const_text()));
                }
            }
            ExprKind::Field { name, .. } => {
                if let Some(v) = params.get(name.name.as_str()) {
                    out.push((name.span.start, name.span.end, v.const_text()));
                }
            }
            _ => {}
        }
        stack.extend(e.children());
    }
}

/// `text` with every run of whitespace as one space.
fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out
}

/// Whether `cond` reads `outcome`.
pub(super) fn reads_outcome(cond: &Expr) -> bool {
    let mut stack = vec![cond];
    while let Some(e) = stack.pop() {
        if matches!(e.kind, ExprKind::Outcome) {
            return true;
        }
        stack.extend(e.children());
    }
    false
}
