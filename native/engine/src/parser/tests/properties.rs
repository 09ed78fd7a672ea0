//! Seeded properties over random token soups, random bytes and random
//! expressions: parsing never panics and is deterministic; every span of
//! the tree and of the diagnostics lies inside the source, on character
//! boundaries; diagnostics are sorted, one sentence each; and printing a
//! parsed expression canonically and parsing that again gives the same
//! shape (parentheses aside).

use super::*;
use crate::ast::{Decl, Document, Expr, ExprKind, File, Import, Stmt, Type, TypeKind, dump_file};
use crate::testing::Rng;

/// One of `items`, chosen by `rng`.
fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len())]
}

/// Tokens and token pairs of every kind the parser reacts to.
#[rustfmt::skip]
const SOUP: &[&str] = &[
    "policy a.b: K@1\n", "module m: K\n", "kind K version 1\n", "---\n", "\n", " ",
    "use", "as", "param", "let", "pub", "when", "assert", "kind", "version", "type", "input",
    "fn", "enum", "decision", "precedence", "collect", "default", "conflict", "reason",
    "and", "or", "xor", "not", "in", "all", "any", "filter", "one", "exclusive", "has",
    "like", "matches", "present", "true", "false", "outcome", "list", "map", "min", "max",
    "x", "y", "f", "deny", "1", "007", "1.5", "30m", "\"s\"", "`r`", "0x1", "\"open",
    "==", "!=", "<", "<=", ">", ">=", "??", "?.", "->", "?", "@", ".", ",", ":", "=",
    "+", "-", "|", "(", ")", "[", "]", "{", "}", "&&", "$", "// c\n", "é",
    "deny(reason: r)", "when x {", "let v = ", "f(", "any r in xs: ", "list<", "map<string, ",
];

fn soup(rng: &mut Rng) -> String {
    if rng.below(5) == 0 {
        let bytes: Vec<u8> = (0..rng.below(80)).map(|_| rng.next() as u8).collect();
        return String::from_utf8_lossy(&bytes).into_owned();
    }
    let mut s = String::new();
    if rng.below(2) == 0 {
        s.push_str(pick(
            rng,
            &["policy p: K@1\n", "kind K version 1\n", "module m: K\n"],
        ));
    }
    for _ in 0..rng.below(60) {
        s.push_str(pick(rng, SOUP));
        if rng.below(3) == 0 {
            s.push(' ');
        }
    }
    s
}

/// A random expression that often parses: operands with postfix forms
/// joined by random operators, prefix forms, brackets and quantifiers.
fn expression(rng: &mut Rng, depth: usize) -> String {
    let mut s = String::new();
    for i in 0..=rng.below(3) {
        if i > 0 {
            s.push(' ');
            s.push_str(pick(
                rng,
                &[
                    "and", "or", "xor", "==", "!=", "<", ">=", "in", "not in", "all in", "one in",
                    "has", "like", "matches", "??", "+", "-",
                ],
            ));
            s.push(' ');
        }
        if rng.below(4) == 0 {
            s.push_str(pick(rng, &["not ", "-", "present ", "- "]));
        }
        s.push_str(&operand(rng, depth));
    }
    s
}

fn operand(rng: &mut Rng, depth: usize) -> String {
    let leaf = |rng: &mut Rng| {
        pick(
            rng,
            &[
                "a", "b.c", "1", "007", "2.5", "1h30m", "\"s\"", "`r`", "true", "outcome",
            ],
        )
        .to_owned()
    };
    let mut s = if depth == 0 {
        leaf(rng)
    } else {
        match rng.below(9) {
            0 => format!("({})", expression(rng, depth - 1)),
            1 => format!(
                "[{}, {}]",
                expression(rng, depth - 1),
                expression(rng, depth - 1)
            ),
            2 => format!(
                "{{{}: {}}}",
                operand(rng, depth - 1),
                expression(rng, depth - 1)
            ),
            3 => format!(
                "({} r in {}: {})",
                pick(rng, &["any", "all", "filter"]),
                operand(rng, depth - 1),
                expression(rng, depth - 1)
            ),
            4 => format!("f({})", expression(rng, depth - 1)),
            _ => leaf(rng),
        }
    };
    for _ in 0..rng.below(3) {
        match rng.below(4) {
            0 => s.push_str(".kind"),
            1 => s.push_str("?.x"),
            2 => s.push_str(&format!("[{}]", expression(rng, depth.saturating_sub(1)))),
            _ => s.push_str("(b)"),
        }
    }
    s
}

/// Every span in the tree of `file`.
fn file_spans(file: &File) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut exprs: Vec<&Expr> = Vec::new();
    fn ty(t: &Type, spans: &mut Vec<Span>) {
        spans.push(t.span);
        match &t.kind {
            TypeKind::Named(n) => spans.push(n.span),
            TypeKind::Optional(e) | TypeKind::List(e) => ty(e, spans),
            TypeKind::Map(k, v) => {
                ty(k, spans);
                ty(v, spans);
            }
        }
    }
    fn stmt<'t>(s: &'t Stmt, spans: &mut Vec<Span>, exprs: &mut Vec<&'t Expr>) {
        spans.push(s.span());
        match s {
            Stmt::Param(p) => {
                spans.push(p.name.span);
                ty(&p.ty, spans);
                exprs.extend(p.default.iter().chain(&p.min).chain(&p.max));
            }
            Stmt::Let(l) => {
                spans.push(l.name.span);
                exprs.push(&l.value);
            }
            Stmt::When(w) => {
                exprs.push(&w.cond);
                for s in &w.body {
                    stmt(s, spans, exprs);
                }
            }
            Stmt::Assert(a) => {
                spans.push(a.reason.span);
                exprs.push(&a.cond);
            }
            Stmt::Call(c) => call(c, spans, exprs),
        }
    }
    fn call<'t>(c: &'t crate::ast::CallStmt, spans: &mut Vec<Span>, exprs: &mut Vec<&'t Expr>) {
        spans.push(c.span);
        spans.push(c.name.span);
        exprs.extend(c.positional.iter());
        for a in &c.args {
            spans.push(a.name.span);
            exprs.push(&a.value);
        }
    }
    for doc in &file.docs {
        spans.push(doc.span());
        match doc {
            Document::Policy(d) => {
                spans.extend(d.name.parts.iter().map(|p| p.span));
                for u in &d.uses {
                    spans.push(u.span);
                    if let Import::Items(items) = &u.import {
                        spans.extend(items.iter().map(|i| i.name.span));
                    }
                }
                for s in &d.stmts {
                    stmt(s, &mut spans, &mut exprs);
                }
            }
            Document::Module(d) => {
                spans.extend(d.uses.iter().map(|u| u.span));
                for l in &d.lets {
                    spans.push(l.span);
                    exprs.push(&l.value);
                }
            }
            Document::Kind(d) => {
                for decl in &d.decls {
                    spans.push(decl.span());
                    match decl {
                        Decl::Type(t) => {
                            for f in &t.fields {
                                spans.push(f.span);
                                ty(&f.ty, &mut spans);
                            }
                        }
                        Decl::Decision(dd) => {
                            spans.extend(dd.reasons.iter().map(|r| r.span));
                            for f in &dd.fields {
                                spans.push(f.span);
                                exprs.extend(f.default.iter());
                            }
                        }
                        Decl::Fn(f) => f
                            .params
                            .iter()
                            .chain([&f.result])
                            .for_each(|t| ty(t, &mut spans)),
                        Decl::Input(i) => ty(&i.ty, &mut spans),
                        Decl::Default(o) | Decl::Conflict(o) => {
                            call(&o.call, &mut spans, &mut exprs)
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    spans.extend(expr_spans(exprs));
    spans
}

/// Every span of the expressions, walked with a worklist.
fn expr_spans(mut work: Vec<&Expr>) -> Vec<Span> {
    let mut spans = Vec::new();
    while let Some(e) = work.pop() {
        spans.push(e.span);
        match &e.kind {
            ExprKind::Binary { op_span, .. } | ExprKind::Unary { op_span, .. } => {
                spans.push(*op_span)
            }
            ExprKind::Field { name, .. } => spans.push(name.span),
            ExprKind::Quantifier { var, .. } | ExprKind::Filter { var, .. } => spans.push(var.span),
            _ => {}
        }
        work.extend(e.children());
    }
    spans
}

fn check_span(src: &str, span: Span, what: &str) {
    assert!(
        span.start <= span.end && span.text(src).is_some(),
        "{what} span {span:?} outside {src:?}"
    );
}

fn check_diagnostics(src: &str, diags: &[Diagnostic]) {
    for pair in diags.windows(2) {
        assert!(
            pair[0].span.unwrap().start <= pair[1].span.unwrap().start,
            "{src:?}: unsorted {diags:?}"
        );
    }
    for d in diags {
        check_span(src, d.span.unwrap(), "diagnostic");
        assert!(
            !d.message.is_empty() && !d.message.ends_with('.') && !d.message.contains('\n'),
            "{d:?}"
        );
        assert!(d.help.as_deref() != Some(""), "{d:?}");
    }
}

/// The tree's shape with parentheses dropped (what the canonical rendering
/// must preserve).
fn shape_without_parens(e: &Expr) -> String {
    let inner = |x: &Expr| shape_without_parens(x);
    match &e.kind {
        ExprKind::Paren(x) => inner(x),
        ExprKind::List(xs) => format!("[{}]", xs.iter().map(inner).collect::<Vec<_>>().join(",")),
        ExprKind::Map(es) => format!(
            "{{{}}}",
            es.iter()
                .map(|en| format!("{}:{}", inner(&en.key), inner(&en.value)))
                .collect::<Vec<_>>()
                .join(",")
        ),
        ExprKind::Unary { op, operand, .. } => format!("({} {})", op.as_str(), inner(operand)),
        ExprKind::Binary { op, lhs, rhs, .. } => {
            format!("({} {} {})", inner(lhs), op.as_str(), inner(rhs))
        }
        ExprKind::Field {
            target,
            name,
            optional,
        } => format!(
            "{}{}{}",
            inner(target),
            if *optional { "?." } else { "." },
            name.name
        ),
        ExprKind::Index { target, index } => format!("{}[{}]", inner(target), inner(index)),
        ExprKind::Call { callee, args } => format!(
            "{}({})",
            inner(callee),
            args.iter().map(inner).collect::<Vec<_>>().join(",")
        ),
        ExprKind::Quantifier {
            quantifier,
            var,
            range,
            body,
        } => format!(
            "({} {} {} {})",
            quantifier.as_str(),
            var.name,
            inner(range),
            inner(body)
        ),
        ExprKind::Filter { var, range, body } => {
            format!("(filter {} {} {})", var.name, inner(range), inner(body))
        }
        _ => e.canonical(),
    }
}

fn check_source(src: &str) {
    let (file, diags) = parse_file("p.sigil", src);
    let (again, again_diags) = parse_file("p.sigil", src);
    assert_eq!(
        dump_file(&file, Some(src)),
        dump_file(&again, Some(src)),
        "{src:?}"
    );
    assert_eq!(file, again);
    assert_eq!(diags, again_diags);
    check_diagnostics(src, &diags);
    for span in file_spans(&file) {
        check_span(src, span, "node");
    }

    let (expr, diags) = parse_expr("p.sigil", src);
    check_diagnostics(src, &diags);
    assert_eq!(expr.is_some(), diags.is_empty());
    if let Some(expr) = expr {
        for span in expr_spans(vec![&expr]) {
            check_span(src, span, "expression");
        }
        let printed = expr.canonical();
        let (reparsed, diags) = parse_expr("p.sigil", &printed);
        assert!(
            diags.is_empty(),
            "{src:?} printed as {printed:?}: {diags:?}"
        );
        assert_eq!(
            shape_without_parens(&reparsed.unwrap()),
            shape_without_parens(&expr),
            "{src:?} printed as {printed:?}"
        );
    }
}

#[test]
fn random_soups_and_bytes() {
    on_small_stack(|| {
        let mut rng = Rng(0x05EE_D0F9_A45E);
        for _ in 0..3000 {
            check_source(&soup(&mut rng));
        }
    });
}

#[test]
fn random_expressions_round_trip_through_the_canonical_rendering() {
    on_small_stack(|| {
        let mut rng = Rng(0xE4_9E55_1015);
        let mut parsed = 0;
        for _ in 0..3000 {
            let src = expression(&mut rng, 3);
            if parse_expr("p.sigil", &src).0.is_some() {
                parsed += 1;
            }
            check_source(&src);
            check_source(&format!(
                "policy p: K@1\nwhen {src} {{ deny(reason: r) }}\nlet z = {src}"
            ));
        }
        assert!(
            parsed > 600,
            "only {parsed} of 3000 random expressions parsed"
        );
    });
}
