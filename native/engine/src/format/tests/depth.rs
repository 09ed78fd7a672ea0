//! Depth: the formatter never overflows the stack on what the parser
//! accepts. Chains that nest on the left without bound (`a or b or …`,
//! `a.b.c…`, calls of calls) format at 30 000 links; every bounded form
//! formats at the nesting limit. All on a 2 MiB stack, in debug builds too.

use super::*;
use crate::parser::MAX_NESTING;
use crate::testing::on_small_stack;

/// Far more than recursion on a 2 MiB stack could take.
const LINKS: usize = 30_000;

/// `policy` wrapping one `let` whose value is `value`.
fn policy(value: &str) -> String {
    format!("policy deep.chain: K@1\n\nlet x = {value}\n")
}

#[test]
fn left_nested_chains_of_any_length_format() {
    on_small_stack(|| {
        let chains: [(&str, String); 6] = [
            ("or", "a".to_owned() + &" or a".repeat(LINKS)),
            ("and, broken", "a".to_owned() + &"\n  and a".repeat(LINKS)),
            ("+", "1".to_owned() + &" + 1".repeat(LINKS)),
            ("fields", "a".to_owned() + &".b?.c".repeat(LINKS / 2)),
            ("indexes", "a".to_owned() + &"[0]".repeat(LINKS)),
            ("calls", "f".to_owned() + &"(x)".repeat(LINKS)),
        ];
        for (name, value) in chains {
            let src = policy(&value);
            let out = format_source("deep.sigil", &src).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(out, src, "{name}: a canonical chain is kept as it is");
        }
    });
}

/// Builds an expression that nests `n` levels deep.
type Build = fn(usize) -> String;

/// Each nesting form, to try at the limit.
#[rustfmt::skip]
const FORMS: &[(&str, Build)] = &[
    ("parentheses", |n| "(".repeat(n - 1) + "a" + &")".repeat(n - 1)),
    ("lists", |n| "[".repeat(n - 1) + "a" + &"]".repeat(n - 1)),
    ("broken lists", |n| "[\n".repeat(n - 1) + "a" + &"\n]".repeat(n - 1)),
    ("maps", |n| r#"{"k": "#.repeat(n - 1) + "1" + &"}".repeat(n - 1)),
    ("calls", |n| "f(".repeat(n - 1) + "a" + &")".repeat(n - 1)),
    ("indexes", |n| "a[".repeat(n - 1) + "0" + &"]".repeat(n - 1)),
    ("not", |n| "not ".repeat(n - 1) + "a"),
    ("unary minus", |n| "- ".repeat(n - 1) + "a"),
    ("right-associative ??", |n| "a ?? ".repeat(n - 1) + "a"),
    ("quantifier bodies", |n| "any x in y: ".repeat(n / 2) + "a and b"),
    ("filter bodies", |n| "filter x in y: ".repeat(n / 2) + "a"),
];

#[test]
fn every_nesting_form_formats_at_the_limit() {
    on_small_stack(|| {
        for (name, build) in FORMS {
            // The let's value is one level; the form fills the rest.
            let src = policy(&build(MAX_NESTING - 1));
            let out = format_source("deep.sigil", &src).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(fmt(&out), out, "{name}");
        }
        // Rules nest with their conditions: 255 rules, a condition inside.
        let mut src = "policy deep.rules: K@1\n\n".to_owned();
        for _ in 0..MAX_NESTING - 1 {
            src.push_str("when a {\n");
        }
        src.push_str("deny(reason: r)\n");
        src.push_str(&"}\n".repeat(MAX_NESTING - 1));
        let out = format_source("deep.sigil", &src).unwrap_or_else(|e| panic!("rules: {e}"));
        assert_eq!(fmt(&out), out, "rules");
        let ty = "list<".repeat(MAX_NESTING - 1) + "int" + &">".repeat(MAX_NESTING - 1);
        let src = format!("kind Deep version 1\n\ninput x: {ty}\n");
        assert_eq!(fmt(&src), src, "types");
    });
}
