//! The nesting limit (language-core §3.8 rule 9, module-abi §12): every
//! nesting form at 255, 256, 257 and 20 000 levels. Up to the limit it
//! parses; past it there is exactly one diagnostic, at the token where level
//! 257 starts, the rest of the construct is skipped, and the next document
//! still parses. Everything runs on a 2 MiB stack.
//!
//! Flat left-associative and postfix chains don't nest: 100 000 links parse.

use super::*;
use crate::ast::{Document, dump_file};

const LIMIT: usize = MAX_NESTING;
const TOO_DEEP: &str = "this expression nests more than 256 levels deep";

/// One way an expression nests: `build(n)` has its deepest part at level
/// `n` (the expression itself is level 1), `at(k)` is the byte offset where
/// the first part at level `k` starts.
struct Form {
    name: &'static str,
    build: fn(usize) -> String,
    at: fn(usize) -> usize,
}

#[rustfmt::skip]
const FORMS: &[Form] = &[
    Form { name: "parentheses", build: |n| "(".repeat(n - 1) + "a" + &")".repeat(n - 1), at: |k| k - 1 },
    Form { name: "lists", build: |n| "[".repeat(n - 1) + "a" + &"]".repeat(n - 1), at: |k| k - 1 },
    // A map's key is a level deeper than the map, like its value, and comes first.
    Form { name: "maps", build: |n| r#"{"k": "#.repeat(n - 1) + "1" + &"}".repeat(n - 1), at: |k| 6 * (k - 2) + 1 },
    Form { name: "calls", build: |n| "f(".repeat(n - 1) + "a" + &")".repeat(n - 1), at: |k| 2 * (k - 1) },
    Form { name: "indexes", build: |n| "a[".repeat(n - 1) + "0" + &"]".repeat(n - 1), at: |k| 2 * (k - 1) },
    Form { name: "not", build: |n| "not ".repeat(n - 1) + "a", at: |k| 4 * (k - 1) },
    Form { name: "unary minus", build: |n| "- ".repeat(n - 1) + "a", at: |k| 2 * (k - 1) },
    Form { name: "present", build: |n| "present ".repeat(n - 1) + "a", at: |k| 8 * (k - 1) },
    Form { name: "right-associative ??", build: |n| "a ?? ".repeat(n - 1) + "a", at: |k| 5 * (k - 1) },
    // A quantifier's range is a level deeper than the quantifier, like its body, and comes first.
    Form { name: "quantifier bodies", build: |n| "any x in y: ".repeat(n - 1) + "a", at: |k| 12 * (k - 2) + 9 },
    Form { name: "filter bodies", build: |n| "filter x in y: ".repeat(n - 1) + "a", at: |k| 15 * (k - 2) + 12 },
];

#[test]
fn every_expression_form_at_and_past_the_limit() {
    on_small_stack(|| {
        for form in FORMS {
            for n in [LIMIT - 1, LIMIT, LIMIT + 1, 20_000] {
                let src = (form.build)(n);
                let (expr, diags) = parse_expr("deep.sigil", &src);
                if n <= LIMIT {
                    assert!(
                        diags.is_empty() && expr.is_some(),
                        "{} at {n}: {diags:?}",
                        form.name
                    );
                    continue;
                }
                assert_eq!(diags.len(), 1, "{} at {n}: {diags:?}", form.name);
                let d = &diags[0];
                assert_eq!(d.message, TOO_DEEP, "{} at {n}", form.name);
                assert!(d.help.as_deref().unwrap().contains("`let`"));
                let want = (form.at)(LIMIT + 1);
                assert_eq!(d.span.unwrap().start, want, "{} at {n}", form.name);
            }
        }
    });
}

/// A policy whose only rule has condition `cond`, then a second rule.
fn condition(cond: &str) -> String {
    format!(
        "policy a.b: K@1\n\nwhen {cond} {{\n  allow(reason: y)\n}}\n\nwhen x {{\n  allow(reason: z)\n}}\n"
    )
}

/// `n` nested `when` blocks; the deepest condition is at level `n + 1`.
fn whens(n: usize) -> String {
    "policy a.b: K@1\n\n".to_owned()
        + &"when x {\n".repeat(n)
        + "allow(reason: y)\n"
        + &"}\n".repeat(n)
}

/// An input whose type nests `n` levels.
fn lists(n: usize) -> String {
    "kind K version 1\n\ninput x: ".to_owned()
        + &"list<".repeat(n - 1)
        + "int"
        + &" >".repeat(n - 1)
        + "\n"
}

fn maps(n: usize) -> String {
    "kind K version 1\n\ninput x: ".to_owned()
        + &"map<string, ".repeat(n - 1)
        + "int"
        + &">".repeat(n - 1)
        + "\n"
}

#[test]
fn whens_types_and_conditions_in_files() {
    on_small_stack(|| {
        const NEXT: &str = "\n---\npolicy a.next: K@1\n";
        const TYPE_DEEP: &str = "this type nests more than 256 levels deep";
        let mut cases: Vec<(String, String, Option<&str>)> = Vec::new();
        for n in [LIMIT - 1, LIMIT, LIMIT + 1, 20_000] {
            // The deepest `when` holds a condition one level further in.
            let when_error = (n >= LIMIT).then_some(TOO_DEEP);
            cases.push((format!("{n} whens"), whens(n), when_error));
            let type_error = (n > LIMIT).then_some(TYPE_DEEP);
            cases.push((format!("list types {n} deep"), lists(n), type_error));
            cases.push((format!("map types {n} deep"), maps(n), type_error));
        }
        let parens = |n: usize| "(".repeat(n) + "a" + &")".repeat(n);
        let deep = [
            (
                "parentheses in a condition",
                condition(&parens(20_000)),
                Some(TOO_DEEP),
            ),
            (
                "maps in a condition",
                condition(&(r#"{"k": "#.repeat(20_000) + "1" + &"}".repeat(20_000) + " == x")),
                Some(TOO_DEEP),
            ),
            (
                "lists in a condition",
                condition(&("[".repeat(20_000) + "a" + &"]".repeat(20_000) + " == []")),
                Some(TOO_DEEP),
            ),
            // The condition of a top-level rule starts at level 2.
            (
                "a condition at the limit",
                condition(&parens(LIMIT - 2)),
                None,
            ),
            (
                "a condition past the limit",
                condition(&parens(LIMIT - 1)),
                Some(TOO_DEEP),
            ),
            (
                "a deep let",
                format!(
                    "policy a: K\nlet x = {}\nlet y = 1\n",
                    "not ".repeat(20_000) + "a"
                ),
                Some(TOO_DEEP),
            ),
            (
                "a deep param default",
                format!(
                    "policy a: K\nparam x: list<int> = {}\nlet y = 1\n",
                    "[".repeat(20_000) + &"]".repeat(20_000)
                ),
                Some(TOO_DEEP),
            ),
            (
                "a deep constructor argument",
                format!(
                    "policy a: K\nwhen x {{ deny(reason: r, n: {}) }}\n",
                    "- ".repeat(20_000) + "1"
                ),
                Some(TOO_DEEP),
            ),
            (
                "a deep field default",
                format!(
                    "kind K version 1\ndecision d {{ reason: r  n: int = {}  m: int }}\n",
                    parens(20_000)
                ),
                Some(TOO_DEEP),
            ),
        ];
        cases.extend(deep.map(|(name, src, want)| (name.to_owned(), src, want)));
        for (name, src, want) in cases {
            let src = src + NEXT;
            let (file, diags) = parse_file("deep.sigil", &src);
            match want {
                None => assert!(diags.is_empty(), "{name}: {diags:?}"),
                Some(message) => {
                    let got: Vec<_> = diags.iter().map(|d| d.message.as_str()).collect();
                    assert_eq!(got, [message], "{name}");
                }
            }
            let Some(Document::Policy(last)) = file.docs.last() else {
                panic!("{name}: the document after the deep one wasn't parsed");
            };
            assert_eq!(last.name.text(), "a.next", "{name}");
        }
    });
}

#[test]
fn a_rule_after_a_too_deep_condition_still_parses() {
    on_small_stack(|| {
        let src = condition(&("(".repeat(20_000) + "a" + &")".repeat(20_000)));
        let (file, diags) = parse_file("deep.sigil", &src);
        assert_eq!(diags.len(), 1);
        let dump = dump_file(&file, None);
        assert_eq!(
            dump,
            "policy a.b: K@1\n  when <error>\n    allow(reason: y)\n  when x\n    allow(reason: z)\n"
        );
    });
}

#[test]
fn flat_chains_do_not_nest() {
    on_small_stack(|| {
        let n = 100_000;
        for (src, start, end) in [
            (
                "a".to_owned() + &" and a".repeat(n),
                "((((",
                " and a) and a)",
            ),
            ("a".to_owned() + &" + 1".repeat(n), "((((", " + 1) + 1)"),
            ("a".to_owned() + &".b".repeat(n), "a.b.b.b", ".b.b"),
            (
                "a".to_owned() + &"?.b[0](c)".repeat(n),
                "a?.b[0](c)?.b",
                "(c)?.b[0](c)",
            ),
        ] {
            let (expr, diags) = parse_expr("flat.sigil", &src);
            assert!(diags.is_empty(), "{diags:?}");
            let expr = expr.unwrap();
            let text = expr.canonical();
            assert!(
                text.starts_with(start) && text.ends_with(end),
                "{}",
                text.get(..40).unwrap_or("")
            );
            let (again, _) = parse_expr("flat.sigil", &src);
            assert_eq!(again.unwrap(), expr);
        }
    });
}

/// The WebAssembly module has a 1 MiB stack. Every form at the limit parses
/// in that much even natively without optimizations (about 650 KiB for
/// maps, the deepest form per level; about 160 KiB in a release build).
#[test]
fn every_form_at_the_limit_fits_in_1_mib_of_stack() {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for form in FORMS {
                let (expr, diags) = parse_expr("deep.sigil", &(form.build)(LIMIT));
                assert!(diags.is_empty() && expr.is_some(), "{}", form.name);
            }
            for src in [whens(LIMIT - 1), lists(LIMIT), maps(LIMIT), whens(20_000)] {
                let (file, diags) = parse_file("deep.sigil", &src);
                assert!(diags.len() <= 1 && file.docs.len() == 1);
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
