//! Expressions (tooling §4.5).
//!
//! `indent` is the level of the lines an expression breaks onto: where an
//! `and`/`or`/`xor` chain broke in the source, inside parentheses one level
//! deeper, the items of a broken list one level below the line the list
//! starts on.
//!
//! Depth: the spine of an expression (left operands, targets of field
//! accesses, indexes and calls) may be arbitrarily long, so [`Printer::expr`]
//! walks it with a loop, as `ast/dump.rs` does; every other child is at most
//! [`crate::parser::MAX_NESTING`] levels deep, and is printed recursively.

use super::output::Printer;
use super::scan::Pos;
use crate::ast::{BinaryOp, Expr, ExprKind, MapEntry, NamedArg, UnaryOp};

/// The items of a bracketed list.
pub(super) enum Items<'a> {
    /// List elements or call arguments.
    Exprs(&'a [Expr]),
    /// Map entries, `key: value`.
    Entries(&'a [MapEntry]),
    /// A call statement's arguments: the legacy positional reason first.
    Args {
        positional: Option<&'a Expr>,
        named: &'a [NamedArg],
    },
}

impl Items<'_> {
    fn len(&self) -> usize {
        match self {
            Items::Exprs(xs) => xs.len(),
            Items::Entries(entries) => entries.len(),
            Items::Args { positional, named } => named.len() + usize::from(positional.is_some()),
        }
    }

    /// Where item `i` starts in the source.
    fn start(&self, i: usize) -> usize {
        match self {
            Items::Exprs(xs) => xs.get(i).map_or(0, |x| x.span.start),
            Items::Entries(entries) => entries.get(i).map_or(0, |e| e.key.span.start),
            Items::Args { positional, named } => match (positional, i) {
                (Some(p), 0) => p.span.start,
                (Some(_), i) => named.get(i - 1).map_or(0, |a| a.name.span.start),
                (None, i) => named.get(i).map_or(0, |a| a.name.span.start),
            },
        }
    }
}

/// How many nodes of a spine [`Printer::expr`] keeps on the stack.
const NEAR: usize = 8;

/// Whether a chain of `op` may break across lines.
fn breaks(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::And | BinaryOp::Or | BinaryOp::Xor)
}

impl Printer<'_> {
    /// Prints `e`. The spine is unrolled: the innermost operand first, then
    /// each spine node's suffix (operator and right operand, `.name`,
    /// `[index]`, `(args)`), innermost first.
    pub(super) fn expr(&mut self, e: &Expr, indent: usize) {
        if e.spine_child().is_none() {
            self.leaf(e, indent);
            self.last = self.end_line(e.span);
            return;
        }
        // The spine nodes, outermost first: the first few in place, the
        // rest of a long chain on the heap, so that the many short spines
        // cost no allocation.
        let mut near = [e; NEAR];
        let mut far = Vec::new();
        let mut len = 0;
        let mut leaf = e;
        while let Some(next) = leaf.spine_child() {
            match near.get_mut(len) {
                Some(slot) => *slot = leaf,
                None => far.push(leaf),
            }
            len += 1;
            leaf = next;
        }
        let near = near.get(..len.min(NEAR)).unwrap_or_default();
        // `0 .f` keeps its token boundary as `(0).f`; a checker rejects it.
        let wrap = matches!(leaf.kind, ExprKind::Int { .. })
            && far.last().or(near.last()).is_some_and(|n| {
                matches!(
                    n.kind,
                    ExprKind::Field {
                        optional: false,
                        ..
                    }
                )
            });
        if wrap {
            self.write("(");
        }
        self.leaf(leaf, indent);
        if wrap {
            self.write(")");
        }
        self.last = self.end_line(leaf.span);
        for node in far.iter().rev().chain(near.iter().rev()) {
            self.suffix(node, indent);
            self.last = self.end_line(node.span);
        }
    }

    /// What a spine node adds after its spine child.
    fn suffix(&mut self, node: &Expr, indent: usize) {
        match &node.kind {
            ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => {
                let op_line = self.line(op_span.start);
                if breaks(*op)
                    && (op_line > self.end_line(lhs.span) || self.line(rhs.span.start) > op_line)
                {
                    self.open(self.start(*op_span), indent, indent, false, false);
                    self.write(op.as_str());
                    self.write(" ");
                } else {
                    self.write(" ");
                    self.write(op.as_str());
                    self.write(" ");
                }
                // The operator is the last token printed: a comment after it
                // trails its line, the same line in every later formatting.
                self.last = op_line;
                self.expr(rhs, indent);
            }
            ExprKind::Field { name, optional, .. } => {
                self.write(if *optional { "?." } else { "." });
                self.write(&name.name);
            }
            ExprKind::Index { index, .. } => {
                self.write("[");
                self.expr(index, indent + 1);
                self.write("]");
            }
            ExprKind::Call { callee, args } => {
                let open_line = self.end_line(callee.span);
                let closing = self.closing(node.span);
                self.list(("(", ")"), open_line, closing, &Items::Exprs(args), indent);
            }
            _ => {}
        }
    }

    /// A node off the spine (its children may start spines of their own).
    fn leaf(&mut self, e: &Expr, indent: usize) {
        match &e.kind {
            ExprKind::Error => self.write("<error>"),
            ExprKind::Ident(name) => self.write(name),
            ExprKind::Int { text, .. }
            | ExprKind::Float { text, .. }
            | ExprKind::Duration { text, .. }
            | ExprKind::String { text, .. } => self.write(text),
            ExprKind::Bool(b) => self.write(if *b { "true" } else { "false" }),
            ExprKind::Outcome => self.write("outcome"),
            ExprKind::Paren(inner) => {
                self.write("(");
                self.expr(inner, indent + 1);
                self.write(")");
            }
            ExprKind::List(xs) => {
                let (open_line, closing) = (self.line(e.span.start), self.closing(e.span));
                self.list(("[", "]"), open_line, closing, &Items::Exprs(xs), indent);
            }
            ExprKind::Map(entries) => {
                let (open_line, closing) = (self.line(e.span.start), self.closing(e.span));
                self.list(
                    ("{", "}"),
                    open_line,
                    closing,
                    &Items::Entries(entries),
                    indent,
                );
            }
            ExprKind::Unary { op, operand, .. } => {
                match op {
                    // Two minus signs never touch (three would read as `---`).
                    UnaryOp::Neg => self.write(
                        if matches!(
                            operand.kind,
                            ExprKind::Unary {
                                op: UnaryOp::Neg,
                                ..
                            }
                        ) {
                            "- "
                        } else {
                            "-"
                        },
                    ),
                    UnaryOp::Not | UnaryOp::Present => {
                        self.write(op.as_str());
                        self.write(" ");
                    }
                }
                self.expr(operand, indent);
            }
            ExprKind::Quantifier {
                quantifier,
                var,
                range,
                body,
            } => self.binder(quantifier.as_str(), &var.name, range, body, indent),
            ExprKind::Filter { var, range, body } => {
                self.binder("filter", &var.name, range, body, indent);
            }
            ExprKind::Binary { .. }
            | ExprKind::Field { .. }
            | ExprKind::Index { .. }
            | ExprKind::Call { .. } => self.expr(e, indent),
        }
    }

    /// `any v in range: body`; a body with a top-level `and`/`or`/`xor`
    /// gets parentheses, which show how far the body extends.
    fn binder(&mut self, keyword: &str, var: &str, range: &Expr, body: &Expr, indent: usize) {
        self.write(keyword);
        self.write(" ");
        self.write(var);
        self.write(" in ");
        self.expr(range, indent);
        self.write(": ");
        if matches!(body.kind, ExprKind::Binary { op, .. } if breaks(op)) {
            self.write("(");
            self.expr(body, indent + 1);
            self.write(")");
        } else {
            self.expr(body, indent);
        }
    }

    /// Bracketed items: on one line joined by `, ` when the first item
    /// starts on `open_line` (the line of the opening bracket, or where a
    /// callee ends); else one per line, one level below the current line,
    /// each followed by `,`, and the closing bracket (at `closing`) on a
    /// line of its own.
    pub(super) fn list(
        &mut self,
        (open, close): (&str, &str),
        open_line: usize,
        closing: Pos,
        items: &Items<'_>,
        indent: usize,
    ) {
        self.write(open);
        let n = items.len();
        if n == 0 {
            self.write(close);
            return;
        }
        if self.line(items.start(0)) <= open_line {
            for i in 0..n {
                if i > 0 {
                    self.write(", ");
                }
                self.item(items, i, indent);
            }
            self.write(close);
            return;
        }
        let base = self.indent_of();
        for i in 0..n {
            self.open(self.pos(items.start(i)), base + 1, base + 1, false, false);
            self.item(items, i, base + 2);
            self.write(",");
        }
        self.close(closing, base, base + 1, false);
        self.write(close);
    }

    /// Prints item `i` of `items`.
    fn item(&mut self, items: &Items<'_>, i: usize, indent: usize) {
        match items {
            Items::Exprs(xs) => {
                if let Some(x) = xs.get(i) {
                    self.expr(x, indent);
                }
            }
            Items::Entries(entries) => {
                if let Some(entry) = entries.get(i) {
                    self.expr(&entry.key, indent);
                    self.write(": ");
                    self.expr(&entry.value, indent);
                }
            }
            Items::Args { positional, named } => {
                let named_at = match (positional, i) {
                    (Some(p), 0) => {
                        self.write("reason: ");
                        self.expr(p, indent);
                        return;
                    }
                    (Some(_), i) => i - 1,
                    (None, i) => i,
                };
                if let Some(arg) = named.get(named_at) {
                    self.write(&arg.name.name);
                    self.write(": ");
                    self.expr(&arg.value, indent);
                }
            }
        }
    }
}
