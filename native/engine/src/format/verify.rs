//! The formatter's proof (style §1, "the formatter proves itself"): the
//! output reparses, to the same program as the input, with the same
//! comments: the same texts as often (their order may change where a
//! decision's members move with their comments), trailing spaces aside.
//!
//! "The same program" is tree equality with spans ignored, allowing only
//! the formatter's own rewrites (tooling §4.5–§4.6), on both sides alike:
//!
//! * a quantifier or filter body `( x )` where `x` is an `and`/`or`/`xor`
//!   is the same as `x`;
//! * the target `(n)` of a `.field` where `n` is an integer literal is the
//!   same as `n`;
//! * a call statement's positional first argument is the same as a first
//!   named argument `reason:`;
//! * a legacy decision is the same as one in the current syntax with the
//!   same name, reasons and fields.
//!
//! Expressions are compared with a worklist, so chains of any length take
//! no stack; statements and declarations recurse only as deep as `when`
//! blocks nest, which the parser bounds.

use super::FormatError;
use crate::ast::{
    BinaryOp, CallStmt, DecisionDecl, Decl, Document, Expr, ExprKind, Field, File, Stmt, same_node,
};
use crate::lexer::{CompactToken, TokenKind, lex};
use crate::parser::{Literals, parse_lexed};
use crate::source::LineIndex;

/// Checks that `out`, the formatting of `file`, is the same program with
/// the same comments: `comments` are the texts of the source's.
pub(super) fn same_program(file: &File, comments: &[&str], out: &str) -> Result<(), FormatError> {
    // One lex of the output serves the comments and the reparse.
    let lexed = lex(out);
    let after = comments_of(out, &lexed.0);
    let (again, diagnostics) = parse_lexed(&file.name, out, lexed, Literals::TextOnly);
    if let Some(d) = diagnostics.first() {
        let at = d
            .span
            .map(|s| format!("{}: ", LineIndex::new(out).position(s.start)))
            .unwrap_or_default();
        return Err(FormatError::OutputDoesntParse(format!("{at}{}", d.message)));
    }
    if !same_file(file, &again) {
        return Err(FormatError::ProgramChanged);
    }
    let before: Vec<&str> = comments.iter().map(|c| trim(c)).collect();
    if !same_texts(before, after) {
        return Err(FormatError::CommentsChanged);
    }
    Ok(())
}

/// The comments among `tokens`, what the lexer made of `src`, trimmed, in
/// source order.
fn comments_of<'src>(src: &'src str, tokens: &[CompactToken]) -> Vec<&'src str> {
    tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Comment)
        .map(|t| trim(t.text(src)))
        .collect()
}

/// Whether `a` and `b` hold the same texts as often, in any order: a
/// decision's members take their comments along when they move. Mostly
/// the order is the same, which is quicker to see than to sort.
fn same_texts(mut a: Vec<&str>, mut b: Vec<&str>) -> bool {
    if a == b {
        return true;
    }
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// A comment without its trailing spaces, which it loses on a line of its
/// own.
fn trim(comment: &str) -> &str {
    comment.trim_end_matches(' ')
}

/// The comparison of two trees. Its worklist of expression pairs serves
/// every expression of the trees in turn, so it is allocated once.
struct Same<'t> {
    pending: Vec<(&'t Expr, &'t Expr)>,
}

/// Whether `a` and `b` have the same length and `same` holds pairwise.
fn all<'t, T>(a: &'t [T], b: &'t [T], mut same: impl FnMut(&'t T, &'t T) -> bool) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
}

/// The arguments of a call as (name, value), a positional reason named
/// `reason`.
fn args(c: &CallStmt) -> impl Iterator<Item = (&str, &Expr)> {
    let positional = c.positional.iter().map(|p| ("reason", p));
    positional.chain(c.args.iter().map(|a| (a.name.name.as_str(), &a.value)))
}

fn same_file<'t>(a: &'t File, b: &'t File) -> bool {
    let mut same = Same {
        pending: Vec::new(),
    };
    all(&a.docs, &b.docs, |a, b| same.doc(a, b))
}

impl<'t> Same<'t> {
    fn doc(&mut self, a: &'t Document, b: &'t Document) -> bool {
        match (a, b) {
            (Document::Policy(a), Document::Policy(b)) => {
                a.name == b.name
                    && a.kind == b.kind
                    && a.pin == b.pin
                    && a.uses == b.uses
                    && all(&a.stmts, &b.stmts, |a, b| self.stmt(a, b))
            }
            (Document::Module(a), Document::Module(b)) => {
                a.name == b.name
                    && a.kind == b.kind
                    && a.pin == b.pin
                    && a.uses == b.uses
                    && all(&a.lets, &b.lets, |a, b| {
                        a.public == b.public && a.name == b.name && self.expr(&a.value, &b.value)
                    })
            }
            (Document::Kind(a), Document::Kind(b)) => {
                a.name == b.name
                    && a.version == b.version
                    && a.accepts == b.accepts
                    && all(&a.decls, &b.decls, |a, b| self.decl(a, b))
            }
            _ => false,
        }
    }

    fn opt(&mut self, a: Option<&'t Expr>, b: Option<&'t Expr>) -> bool {
        match (a, b) {
            (Some(a), Some(b)) => self.expr(a, b),
            (None, None) => true,
            _ => false,
        }
    }

    fn stmt(&mut self, a: &'t Stmt, b: &'t Stmt) -> bool {
        match (a, b) {
            (Stmt::Param(a), Stmt::Param(b)) => {
                a.name == b.name
                    && a.ty == b.ty
                    && self.opt(a.default.as_ref(), b.default.as_ref())
                    && self.opt(a.min.as_ref(), b.min.as_ref())
                    && self.opt(a.max.as_ref(), b.max.as_ref())
            }
            (Stmt::Let(a), Stmt::Let(b)) => {
                a.public == b.public && a.name == b.name && self.expr(&a.value, &b.value)
            }
            (Stmt::When(a), Stmt::When(b)) => {
                self.expr(&a.cond, &b.cond) && all(&a.body, &b.body, |a, b| self.stmt(a, b))
            }
            (Stmt::Assert(a), Stmt::Assert(b)) => {
                a.reason == b.reason && self.expr(&a.cond, &b.cond)
            }
            (Stmt::Call(a), Stmt::Call(b)) => self.call(a, b),
            _ => false,
        }
    }

    fn call(&mut self, a: &'t CallStmt, b: &'t CallStmt) -> bool {
        a.name == b.name
            && args(a).count() == args(b).count()
            && args(a)
                .zip(args(b))
                .all(|((na, va), (nb, vb))| na == nb && self.expr(va, vb))
    }

    fn decl(&mut self, a: &'t Decl, b: &'t Decl) -> bool {
        match (a, b) {
            (Decl::Decision(a), Decl::Decision(b)) => self.decision(a, b),
            (Decl::Type(a), Decl::Type(b)) => {
                a.name == b.name && all(&a.fields, &b.fields, |a, b| self.field(a, b))
            }
            (Decl::Default(a), Decl::Default(b)) | (Decl::Conflict(a), Decl::Conflict(b)) => {
                self.call(&a.call, &b.call)
            }
            (Decl::Enum(a), Decl::Enum(b)) => a == b,
            (Decl::Input(a), Decl::Input(b)) => a == b,
            (Decl::Fn(a), Decl::Fn(b)) => a == b,
            (Decl::Precedence(a), Decl::Precedence(b)) => a == b,
            (Decl::Exclusive(a), Decl::Exclusive(b)) => a == b,
            (Decl::Collect(a), Decl::Collect(b)) => a == b,
            _ => false,
        }
    }

    /// Name, reasons and fields; the syntax it was written in doesn't count.
    fn decision(&mut self, a: &'t DecisionDecl, b: &'t DecisionDecl) -> bool {
        a.name == b.name
            && a.reasons == b.reasons
            && all(&a.fields, &b.fields, |a, b| self.field(a, b))
    }

    fn field(&mut self, a: &'t Field, b: &'t Field) -> bool {
        a.name == b.name && a.ty == b.ty && self.opt(a.default.as_ref(), b.default.as_ref())
    }

    /// Tree equality of expressions, spans ignored, with the two rewrites
    /// of the module doc. A worklist, not recursion, and no allocation per
    /// node.
    fn expr(&mut self, a: &'t Expr, b: &'t Expr) -> bool {
        use ExprKind as K;
        let pending = &mut self.pending;
        pending.clear();
        pending.push((a, b));
        while let Some((a, b)) = pending.pop() {
            if !same_node(&a.kind, &b.kind) {
                return false;
            }
            // `same_node` held: the same variant, with as many elements.
            match (&a.kind, &b.kind) {
                (K::Paren(x), K::Paren(y))
                | (K::Unary { operand: x, .. }, K::Unary { operand: y, .. }) => {
                    pending.push((x, y))
                }
                (K::List(xs), K::List(ys)) => pending.extend(xs.iter().zip(ys)),
                (K::Map(xs), K::Map(ys)) => {
                    for (x, y) in xs.iter().zip(ys) {
                        pending.push((&x.key, &y.key));
                        pending.push((&x.value, &y.value));
                    }
                }
                (
                    K::Binary {
                        lhs: l1, rhs: r1, ..
                    },
                    K::Binary {
                        lhs: l2, rhs: r2, ..
                    },
                )
                | (
                    K::Index {
                        target: l1,
                        index: r1,
                    },
                    K::Index {
                        target: l2,
                        index: r2,
                    },
                ) => {
                    pending.push((l1, l2));
                    pending.push((r1, r2));
                }
                (
                    K::Field {
                        target: x,
                        optional,
                        ..
                    },
                    K::Field { target: y, .. },
                ) => {
                    if *optional {
                        pending.push((x, y));
                    } else {
                        pending.push((unparen_int(x), unparen_int(y)));
                    }
                }
                (
                    K::Call {
                        callee: x,
                        args: xs,
                    },
                    K::Call {
                        callee: y,
                        args: ys,
                    },
                ) => {
                    pending.push((x, y));
                    pending.extend(xs.iter().zip(ys));
                }
                (
                    K::Quantifier {
                        range: r1,
                        body: b1,
                        ..
                    }
                    | K::Filter {
                        range: r1,
                        body: b1,
                        ..
                    },
                    K::Quantifier {
                        range: r2,
                        body: b2,
                        ..
                    }
                    | K::Filter {
                        range: r2,
                        body: b2,
                        ..
                    },
                ) => {
                    pending.push((r1, r2));
                    pending.push((unparen_chain(b1), unparen_chain(b2)));
                }
                _ => {}
            }
        }
        true
    }
}

/// `(x)` as `x` when `x` is an `and`/`or`/`xor`: a quantifier's body.
fn unparen_chain(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(inner)
            if matches!(
                inner.kind,
                ExprKind::Binary {
                    op: BinaryOp::And | BinaryOp::Or | BinaryOp::Xor,
                    ..
                }
            ) =>
        {
            inner
        }
        _ => e,
    }
}

/// `(n)` as `n` when `n` is an integer literal: a field's target.
fn unparen_int(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(inner) if matches!(inner.kind, ExprKind::Int { .. }) => inner,
        _ => e,
    }
}
