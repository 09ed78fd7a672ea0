//! What records print about compiled code: the texts of conditions,
//! assert checks and payload arguments (language-policies §6.4).

use std::collections::HashMap;
use std::rc::Rc;

use crate::ast::{Expr, ExprKind};

/// The text of `e`: its source, every identifier that names a param
/// replaced by the param's text (`texts`: its bound value's `constText`,
/// or what stands for it when a static compile left it unbound), every
/// run of whitespace collapsed to one space.
pub(super) fn of(source: &str, e: &Expr, texts: &HashMap<&str, Rc<str>>) -> Rc<str> {
    let mut replacements: Vec<(usize, usize, &str)> = Vec::new();
    if !texts.is_empty() {
        param_idents(e, texts, &mut replacements);
    }
    replacements.sort_by_key(|r| r.0);
    let mut text = String::new();
    let mut at = e.span.start;
    for (start, end, value) in replacements {
        text.push_str(source.get(at..start).unwrap_or_default());
        text.push_str(value);
        at = end;
    }
    text.push_str(source.get(at..e.span.end).unwrap_or_default());
    Rc::from(collapse_whitespace(&text))
}

/// The identifiers of `e` spelled like a param, with the param's text:
/// names, field names after `.` and map keys alike (the reference
/// replaces by spelling).
fn param_idents<'t>(
    e: &Expr,
    texts: &'t HashMap<&str, Rc<str>>,
    out: &mut Vec<(usize, usize, &'t str)>,
) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Ident(name) => {
                if let Some(text) = texts.get(name.as_str()) {
                    out.push((e.span.start, e.span.end, text));
                }
            }
            ExprKind::Field { name, .. } => {
                if let Some(text) = texts.get(name.name.as_str()) {
                    out.push((name.span.start, name.span.end, text));
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
    any_node(cond, |e| matches!(e.kind, ExprKind::Outcome))
}

/// Whether some node of `e`, `e` included, is one `wanted` accepts.
pub(super) fn any_node(e: &Expr, wanted: impl Fn(&Expr) -> bool) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if wanted(e) {
            return true;
        }
        stack.extend(e.children());
    }
    false
}
