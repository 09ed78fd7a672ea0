//! Expression shapes: source → canonical parenthesized rendering (§3.10),
//! hand-written rows plus every pair of operators the precedence table
//! orders; node spans; literal values.

use super::*;
use crate::ast::{BinaryOp, ExprKind};

/// Source → rendering, one behaviour per row.
#[rustfmt::skip]
const SHAPES: &[(&str, &str)] = &[
    // Operands and literals as written.
    ("a", "a"),
    ("007", "007"),
    ("0.5", "0.5"),
    ("1h30m", "1h30m"),
    (r#""x\n""#, r#""x\n""#),
    ("`^re$`", "`^re$`"),
    ("true", "true"),
    ("false", "false"),
    ("outcome", "outcome"),
    ("(a)", "(a)"),
    ("((a))", "((a))"),
    ("(a + b)", "((a + b))"),
    // The worked examples of §3.7.
    ("a or b and c", "(a or (b and c))"),
    ("a and b xor c and d", "((a and b) xor (c and d))"),
    ("not a == b", "(not (a == b))"),
    ("not a and b", "((not a) and b)"),
    ("a or not b == c", "(a or (not (b == c)))"),
    (r#"x ?? "d" == "v""#, r#"((x ?? "d") == "v")"#),
    ("a ?? b ?? c", "(a ?? (b ?? c))"),
    ("a ?? b + c", "(a ?? (b + c))"),
    ("a + b ?? c", "((a + b) ?? c)"),
    ("-a + b", "((-a) + b)"),
    ("-a.b", "(-a.b)"),
    ("a - -b", "(a - (-b))"),
    ("present a.b[0] == c", "((present a.b[0]) == c)"),
    ("not present a", "(not (present a))"),
    ("any r in xs: p and q", "(any r in xs: (p and q))"),
    ("a or all r in xs: p or q", "(a or (all r in xs: (p or q)))"),
    ("not any r in xs: p", "(not (any r in xs: p))"),
    ("any r in xs ?? []: r", "(any r in (xs ?? []): r)"),
    ("f(any r in xs: p, q)", "f((any r in xs: p), q)"),
    ("{a ?? b: c or d}", "{(a ?? b): (c or d)}"),
    // Associativity.
    ("a or b or c", "((a or b) or c)"),
    ("a and b and c", "((a and b) and c)"),
    ("a + b - c + d", "(((a + b) - c) + d)"),
    ("(a xor b) xor c", "(((a xor b)) xor c)"),
    // Unary forms.
    ("not not a", "(not (not a))"),
    ("- -a", "(-(-a))"),
    ("a - --b", "(a - (-(-b)))"),
    ("-3", "(-3)"),
    ("-1h", "(-1h)"),
    ("present a?.b ?? c", "((present a?.b) ?? c)"),
    ("a == (not b)", "(a == ((not b)))"),
    // Compound and word operators.
    ("a not in b", "(a not in b)"),
    ("xs all in ys", "(xs all in ys)"),
    ("xs any in ys", "(xs any in ys)"),
    ("xs one in ys", "(xs one in ys)"),
    ("xs exclusive in outcome", "(xs exclusive in outcome)"),
    (r#"m has {"k": "v"}"#, r#"(m has {"k": "v"})"#),
    (r#"n like "a-*""#, r#"(n like "a-*")"#),
    ("n matches `^a$`", "(n matches `^a$`)"),
    ("a not\n  in b", "(a not in b)"),
    // Postfix forms, keywords as field names.
    ("a.b.c", "a.b.c"),
    ("a?.b?.c[0]", "a?.b?.c[0]"),
    ("resource.kind", "resource.kind"),
    ("service.type?.policy", "service.type?.policy"),
    ("a[0][1]", "a[0][1]"),
    ("f()", "f()"),
    ("f(a,)", "f(a)"),
    ("a.b(c)[d].e", "a.b(c)[d].e"),
    ("f(a)(b)", "f(a)(b)"),
    ("f(a or b, not c)", "f((a or b), (not c))"),
    ("x[any r in xs: r]", "x[(any r in xs: r)]"),
    ("(1).name", "(1).name"),
    // Lists and maps, trailing commas dropped.
    ("[]", "[]"),
    ("[1, 2,]", "[1, 2]"),
    ("[[1], [2]]", "[[1], [2]]"),
    ("[any r in xs: p, q]", "[(any r in xs: p), q]"),
    ("{}", "{}"),
    (r#"{"a": 1, "b": 2,}"#, r#"{"a": 1, "b": 2}"#),
    ("{a: not b}", "{a: (not b)}"),
    ("{a + 1: x}", "{(a + 1): x}"),
    // Quantifiers and filters: the body extends right, the range stops at `:`.
    ("all a in xs: any b in ys: a == b", "(all a in xs: (any b in ys: (a == b)))"),
    ("any r in a + b: r", "(any r in (a + b): r)"),
    ("any r in a.b[0]: r", "(any r in a.b[0]: r)"),
    ("filter g in gs: g like \"t-*\"", "(filter g in gs: (g like \"t-*\"))"),
    ("a and filter g in gs: g", "(a and (filter g in gs: g))"),
    ("(any r in xs: r) and b", "(((any r in xs: r)) and b)"),
    // Whitespace and comments are invisible.
    ("a // c\n and b", "(a and b)"),
    ("a\n  and b\n  or c", "((a and b) or c)"),
];

#[test]
fn shapes() {
    let mut failed = Vec::new();
    for (src, want) in SHAPES {
        let got = shape(src);
        if got != *want {
            failed.push(format!("{src:?}: got {got}, want {want}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// What `a A b B c` must parse as, from the levels and associativity of
/// §3.7 alone.
fn expected_pair(a: BinaryOp, b: BinaryOp) -> String {
    let (x, y) = (a.as_str(), b.as_str());
    let left = format!("((a {x} b) {y} c)");
    let right = format!("(a {x} (b {y} c))");
    // Column of the second operator: "a " + A + " b " + 1.
    let col = 2 + x.len() + 3 + 1;
    let at = |msg: String| {
        format!(
            "error 1:{col}-1:{} {msg}",
            col + y.split(' ').next().map_or(0, str::len)
        )
    };
    match a.level().cmp(&b.level()) {
        std::cmp::Ordering::Greater => left,
        std::cmp::Ordering::Less => right,
        std::cmp::Ordering::Equal => match (a, b) {
            _ if a.is_comparison() => {
                at(format!("`{y}` can't follow `{x}`: comparisons don't chain"))
            }
            (BinaryOp::Xor, BinaryOp::Xor) => at("`xor` can't be chained".to_owned()),
            (BinaryOp::Or, BinaryOp::Xor) | (BinaryOp::Xor, BinaryOp::Or) => {
                at("`or` and `xor` can't be mixed without parentheses".to_owned())
            }
            (BinaryOp::Coalesce, _) => right,
            _ => left,
        },
    }
}

#[test]
fn every_pair_of_binary_operators() {
    let mut failed = Vec::new();
    for &a in BinaryOp::ALL {
        for &b in BinaryOp::ALL {
            let src = format!("a {} b {} c", a.as_str(), b.as_str());
            let (got, want) = (shape(&src), expected_pair(a, b));
            if got != want {
                failed.push(format!("{src:?}: got {got}, want {want}"));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Whether a level-3 prefix form may be the right operand of `op`.
fn takes_loose_operand(op: BinaryOp) -> bool {
    op.level() <= 2
}

#[test]
fn every_prefix_form_against_every_binary_operator() {
    let mut failed = Vec::new();
    let mut check = |src: String, want: String| {
        let got = shape(&src);
        if got != want {
            failed.push(format!("{src:?}: got {got}, want {want}"));
        }
    };
    for &op in BinaryOp::ALL {
        let o = op.as_str();
        let col = 3 + o.len() + 1;
        // A prefix on the left operand: `not` takes comparisons and tighter.
        let not_left = if op.level() >= 4 {
            format!("(not (a {o} b))")
        } else {
            format!("((not a) {o} b)")
        };
        check(format!("not a {o} b"), not_left);
        check(format!("-a {o} b"), format!("((-a) {o} b)"));
        check(format!("present a {o} b"), format!("((present a) {o} b)"));
        check(format!("a.f {o} b[0]"), format!("(a.f {o} b[0])"));
        // A prefix on the right operand.
        check(format!("a {o} -b"), format!("(a {o} (-b))"));
        check(format!("a {o} present b"), format!("(a {o} (present b))"));
        for (prefix, rendered, what, width) in [
            ("not b", "(not b)", "`not`", 3),
            ("any r in xs: r", "(any r in xs: r)", "a quantifier", 3),
            ("all r in xs: r", "(all r in xs: r)", "a quantifier", 3),
            ("filter r in xs: r", "(filter r in xs: r)", "a filter", 6),
        ] {
            let want = if takes_loose_operand(op) {
                format!("(a {o} {rendered})")
            } else {
                format!(
                    "error 1:{col}-1:{} {what} can't be an operand of `{o}`",
                    col + width
                )
            };
            check(format!("a {o} {prefix}"), want);
        }
        // A quantifier's body takes everything to its right.
        check(
            format!("any r in xs: a {o} b"),
            format!("(any r in xs: (a {o} b))"),
        );
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn node_spans() {
    #[rustfmt::skip]
    let cases: &[(&str, &str)] = &[
        ("a", "1:1-1:2"),
        ("not a", "1:1-1:6"),
        ("-a", "1:1-1:3"),
        ("a and b", "1:1-1:8"),
        ("a not in b", "1:1-1:11"),
        ("a.b", "1:1-1:4"),
        ("a?.type", "1:1-1:8"),
        ("a[0]", "1:1-1:5"),
        ("f(a)", "1:1-1:5"),
        ("f( a , )", "1:1-1:9"),
        ("(a)", "1:1-1:4"),
        ("[1, 2]", "1:1-1:7"),
        (r#"{"a": 1}"#, "1:1-1:9"),
        ("any r in xs: r", "1:1-1:15"),
        ("filter r in xs: r", "1:1-1:18"),
        ("a and\n  b", "1:1-2:4"),
        ("`a\nb`", "1:1-2:3"),
        ("a\n  or b\n  and c", "1:1-3:8"),
        ("  x  ", "1:3-1:4"),
    ];
    for (src, want) in cases {
        let (expr, diags) = parse_expr("t", src);
        assert!(diags.is_empty(), "{src:?}: {diags:?}");
        let got = LineIndex::new(src).format_span(expr.unwrap().span);
        assert_eq!(&got, want, "{src:?}");
    }
    let (expr, _) = parse_expr("t", "ab not in cd");
    let expr = expr.unwrap();
    let ExprKind::Binary {
        op_span, lhs, rhs, ..
    } = &expr.kind
    else {
        panic!("not binary: {expr:?}");
    };
    assert_eq!(
        (lhs.span, *op_span, rhs.span),
        (Span::new(0, 2), Span::new(3, 9), Span::new(10, 12))
    );
}

#[test]
fn literal_values() {
    let value = |src: &str| parse_expr("t", src).0.unwrap();
    assert!(matches!(value("007").kind, ExprKind::Int { value: 7, .. }));
    assert!(matches!(
        value("9223372036854775807").kind,
        ExprKind::Int {
            value: i64::MAX,
            ..
        }
    ));
    assert!(matches!(value("0.5").kind, ExprKind::Float { value, .. } if value == 0.5));
    assert!(matches!(
        value("1h30m").kind,
        ExprKind::Duration {
            nanos: 5_400_000_000_000,
            ..
        }
    ));
    let ExprKind::String {
        value: bytes,
        raw: false,
        ..
    } = &value(r#""a\n\xff""#).kind
    else {
        panic!("not a string");
    };
    assert_eq!(bytes, b"a\n\xff");
    let ExprKind::String {
        value: bytes,
        raw: true,
        ..
    } = &value("`a\\n\r\nb`").kind
    else {
        panic!("not a raw string");
    };
    assert_eq!(bytes, b"a\\n\r\nb");
    assert!(matches!(value("true").kind, ExprKind::Bool(true)));
    assert!(matches!(value("outcome").kind, ExprKind::Outcome));
}
