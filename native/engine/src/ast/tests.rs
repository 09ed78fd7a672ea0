//! Tree tests that need no parser: equality ignores spans, long chains
//! compare, render and drop without deep recursion (and so do trees deep
//! off the spine), and the rendering rules of language-core §3.10 that the
//! parser can't produce on its own.

use super::*;

fn ident(name: &str, at: usize) -> Expr {
    Expr::new(
        ExprKind::Ident(name.to_owned()),
        Span::new(at, at + name.len()),
    )
}

fn int(text: &str, at: usize) -> Expr {
    Expr::new(
        ExprKind::Int {
            text: text.to_owned(),
            value: text.parse().unwrap(),
        },
        Span::new(at, at + text.len()),
    )
}

fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = lhs.span.to(rhs.span);
    Expr::new(
        ExprKind::Binary {
            op,
            op_span: Span::empty(lhs.span.end),
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        span,
    )
}

fn field(target: Expr, name: &str, optional: bool) -> Expr {
    let span = Span::new(target.span.start, target.span.end + name.len() + 1);
    Expr::new(
        ExprKind::Field {
            target: Box::new(target),
            name: Ident {
                name: name.to_owned(),
                span: Span::empty(0),
            },
            optional,
        },
        span,
    )
}

#[test]
fn equality_ignores_spans_but_not_spelling() {
    let a = binary(BinaryOp::And, ident("x", 0), int("7", 6));
    let b = binary(BinaryOp::And, ident("x", 40), int("7", 99));
    assert_eq!(a, b);
    assert_ne!(a, binary(BinaryOp::Or, ident("x", 0), int("7", 6)));
    assert_ne!(a, binary(BinaryOp::And, ident("x", 0), int("007", 6)));
    assert_ne!(a, binary(BinaryOp::And, ident("y", 0), int("7", 6)));
    assert_ne!(
        field(ident("a", 0), "b", false),
        field(ident("a", 0), "b", true)
    );
    let t1 = Type {
        kind: TypeKind::Named(Ident {
            name: "int".into(),
            span: Span::new(1, 4),
        }),
        span: Span::new(1, 4),
    };
    let t2 = Type {
        kind: TypeKind::Named(Ident {
            name: "int".into(),
            span: Span::new(8, 11),
        }),
        span: Span::new(8, 11),
    };
    assert_eq!(t1, t2);
}

#[test]
fn canonical_rendering_rules() {
    // A plain dot on an integer literal is wrapped; `?.` is not.
    assert_eq!(field(int("1", 0), "name", false).canonical(), "(1).name");
    assert_eq!(field(int("1", 0), "name", true).canonical(), "1?.name");
    let neg = Expr::new(
        ExprKind::Unary {
            op: UnaryOp::Neg,
            op_span: Span::new(0, 1),
            operand: Box::new(int("3", 1)),
        },
        Span::new(0, 2),
    );
    assert_eq!(neg.canonical(), "(-3)");
    let error = Expr::new(ExprKind::Error, Span::empty(0));
    assert_eq!(
        binary(BinaryOp::Add, error, ident("b", 4)).canonical(),
        "(<error> + b)"
    );
}

use crate::testing::on_small_stack;

#[test]
fn long_chains_compare_render_and_drop_without_recursion() {
    on_small_stack(|| {
        let chain = |n: usize| {
            let mut e = ident("a", 0);
            for i in 0..n {
                e = if i % 2 == 0 {
                    binary(BinaryOp::Or, e, ident("b", 0))
                } else {
                    field(e, "c", false)
                };
            }
            e
        };
        let (a, b) = (chain(200_000), chain(200_000));
        assert_eq!(a, b);
        assert_ne!(a, chain(199_999));
        let text = a.canonical();
        assert!(text.starts_with("((((") && text.ends_with(" or b).c"));
        drop(a);
        drop(b);
    });
}

#[test]
fn trees_deep_off_the_spine_drop_without_recursion() {
    // The parser never nests this deep off the spine, but a tree built by
    // hand may: right operands, operands of `not`, list elements, call
    // arguments and quantifier bodies, mixed, 200 000 levels down.
    on_small_stack(|| {
        let mut e = ident("a", 0);
        for i in 0..200_000 {
            let span = Span::empty(0);
            let kind = match i % 5 {
                0 => ExprKind::Binary {
                    op: BinaryOp::And,
                    op_span: span,
                    lhs: Box::new(ident("b", 0)),
                    rhs: Box::new(e),
                },
                1 => ExprKind::Unary {
                    op: UnaryOp::Not,
                    op_span: span,
                    operand: Box::new(e),
                },
                2 => ExprKind::List(vec![ident("c", 0), e]),
                3 => ExprKind::Call {
                    callee: Box::new(ident("f", 0)),
                    args: vec![e],
                },
                _ => ExprKind::Quantifier {
                    quantifier: Quantifier::Any,
                    var: Ident {
                        name: "v".to_owned(),
                        span,
                    },
                    range: Box::new(ident("xs", 0)),
                    body: Box::new(e),
                },
            };
            e = Expr::new(kind, span);
        }
        drop(e);
    });
}
