//! Constants as a table: source, wanted type, and the value's canonical
//! text or the diagnostic (message, help, the source text it spans).

use super::eval;
use crate::kind::Kind;
use crate::parser::parse_expr;
use crate::testing::{load_kind, param_type};
use crate::types::Ty;

const KIND: &str = "kind K version 1
enum Tier: critical | standard
enum Zone: lobby | critical
type S { a: int }
decision d { reason: r }
collect all
";

/// The kind the table's types and enum values come from.
fn kind() -> Kind {
    load_kind(KIND)
}

/// `text` as a type of the kind, read the way a param's type is.
fn ty(kind: &Kind, text: &str) -> Ty {
    let (_, ty) = param_type(text);
    kind.resolve_type(&ty).unwrap_or_else(|d| panic!("{d:?}"))
}

enum Want {
    /// The value, as `const_text` prints it.
    Value(&'static str),
    /// Message, help (`""` for none) and the spanned source text.
    Error(&'static str, &'static str, &'static str),
}
use Want::{Error, Value};

const NOT_CONSTANT: &str =
    "a constant is a literal, a list or map of literals, or `+` and `-` applied to those";

#[rustfmt::skip]
const CASES: &[(&str, &str, Want)] = &[
    // Values of every type.
    ("true", "bool", Value("true")),
    ("42", "int", Value("42")),
    ("-42", "int", Value("-42")),
    ("(1 + 2) - 4", "int", Value("-1")),
    ("-9223372036854775807 - 1", "int", Value("(-9223372036854775807 - 1)")),
    ("9223372036854775807", "int", Value("9223372036854775807")),
    ("0.5", "float", Value("0.5")),
    ("1.5 + 0.5", "float", Value("2.0")),
    ("-0.25", "float", Value("-0.25")),
    ("\"a\\\"b\\n\"", "string", Value("\"a\\\"b\\n\"")),
    ("`raw`", "string", Value("\"raw\"")),
    ("90m", "duration", Value("1h30m")),
    ("1h + 30m", "duration", Value("1h30m")),
    ("-15m", "duration", Value("-15m")),
    ("24h - 24h", "duration", Value("0s")),
    ("critical", "Tier", Value("critical")),
    ("Tier.standard", "Tier", Value("standard")),
    ("(Zone.lobby)", "Zone", Value("lobby")),
    ("critical", "?Tier", Value("critical")),
    ("3", "?int", Value("3")),
    ("[1, 2, -3]", "list<int>", Value("[1, 2, -3]")),
    ("[]", "list<string>", Value("[]")),
    ("[[critical], []]", "list<list<Tier>>", Value("[[critical], []]")),
    ("{10: \"x\", 9: \"y\"}", "map<int, string>", Value("{10: \"x\", 9: \"y\"}")),
    ("{}", "map<string, int>", Value("{}")),
    ("{standard: 1h, critical: 2h}", "map<Tier, duration>", Value("{critical: 2h, standard: 1h}")),
    // Overflow at the limits.
    ("9223372036854775807 + 1", "int", Error("integer overflow in constant", "", "9223372036854775807 + 1")),
    ("-9223372036854775807 - 2", "int", Error("integer overflow in constant", "", "-9223372036854775807 - 2")),
    ("-(-9223372036854775807 - 1)", "int", Error("integer overflow in constant", "", "-(-9223372036854775807 - 1)")),
    ("106751d + 1d", "duration", Error("duration overflow in constant", "", "106751d + 1d")),
    ("-(106751d)", "duration", Value("-106751d")),
    ("-106751d - 1d", "duration", Error("duration overflow in constant", "", "-106751d - 1d")),
    // Not constants.
    ("environment", "string", Error("`environment` isn't a constant", NOT_CONSTANT, "environment")),
    ("a.b", "int", Error("`a.b` isn't a constant", NOT_CONSTANT, "a.b")),
    ("f(1)", "list<int>", Error("`f(1)` isn't a constant", NOT_CONSTANT, "f(1)")),
    ("not true", "bool", Error("`not` isn't a constant", NOT_CONSTANT, "not true")),
    ("1 == 1", "bool", Error("`==` isn't a constant", NOT_CONSTANT, "1 == 1")),
    ("[x]", "list<int>", Error("`x` isn't a constant", NOT_CONSTANT, "x")),
    ("Color.red", "Tier", Error("`Color.red` isn't a constant", NOT_CONSTANT, "Color.red")),
    // Mismatches.
    ("24", "duration", Error("expected duration, found int", "", "24")),
    ("(1.5)", "int", Error("expected int, found float", "", "1.5")),
    ("1 + 2.0", "int", Error("expected int, found float", "", "2.0")),
    ("\"x\"", "bool", Error("expected bool, found string", "", "\"x\"")),
    ("true", "string", Error("expected string, found bool", "", "true")),
    ("1h", "int", Error("expected int, found duration", "", "1h")),
    ("[1]", "int", Error("expected int, found a list", "", "[1]")),
    ("{}", "list<int>", Error("expected list<int>, found a map", "", "{}")),
    ("[]", "map<int, int>", Error("expected map<int, int>, found a list", "", "[]")),
    ("3", "list<int>", Error("expected list<int>, found int", "", "3")),
    ("-3", "list<int>", Error("expected list<int>, found `(-3)`", "", "-3")),
    ("[1, \"a\"]", "list<int>", Error("expected int, found string", "", "\"a\"")),
    ("-true", "bool", Error("expected bool, found a negated value", "", "-true")),
    ("\"a\" + \"b\"", "string", Error("expected string, found `+` arithmetic", "", "\"a\" + \"b\"")),
    ("1", "Tier", Error("expected Tier, found int", "", "1")),
    ("-critical", "Tier", Error("expected Tier, found a negated value", "", "-critical")),
    ("critical - standard", "Tier", Error("expected Tier, found `-` arithmetic", "", "critical - standard")),
    ("\"x\"", "timestamp", Error("expected timestamp, found string", "timestamps come from input; there's no literal for one", "\"x\"")),
    ("{}", "S", Error("S has no literal form, so a constant can't be one", "", "{}")),
    // Maps.
    ("{\"a\": 1, \"a\": 2}", "map<string, int>", Error("duplicate key \"a\" in map constant", "", "\"a\"")),
    ("{1: 1, 0 + 1: 2}", "map<int, int>", Error("duplicate key (0 + 1) in map constant", "", "0 + 1")),
    ("{critical: 1, Tier.critical: 2}", "map<Tier, int>", Error("duplicate key Tier.critical in map constant", "", "Tier.critical")),
    // Enum values.
    ("critcal", "Tier", Error("Tier has no value `critcal`", "did you mean `critical`? Tier declares: critical, standard", "critcal")),
    ("lobby", "Tier", Error("Tier has no value `lobby`", "Tier declares: critical, standard", "lobby")),
    ("Tier.lobby", "Tier", Error("Tier has no value `lobby`", "Tier declares: critical, standard", "lobby")),
    ("\"critical\"", "Tier", Error("expected Tier, found string", "an enum value is a bare name; write `critical`", "\"critical\"")),
    ("\"gold\"", "Tier", Error("expected Tier, found string", "Tier declares: critical, standard", "\"gold\"")),
    ("Zone.critical", "Tier", Error("`Zone.critical` isn't a value of Tier", "Tier declares critical too; write `Tier.critical`, or `critical`", "Zone.critical")),
    ("Zone.lobby", "Tier", Error("`Zone.lobby` isn't a value of Tier", "Tier declares: critical, standard", "Zone.lobby")),
];

#[test]
fn constants_table() {
    let kind = kind();
    for (src, ty_text, want) in CASES {
        let (expr, problems) = parse_expr("c.sigil", src);
        let expr = expr.unwrap_or_else(|| panic!("{src}: {problems:?}"));
        let got = eval(&expr, &ty(&kind, ty_text), &kind.enums);
        match (want, got) {
            (Value(text), Ok(value)) => assert_eq!(value.const_text(), *text, "{src} as {ty_text}"),
            (Error(message, help, spanned), Err(d)) => {
                let span = d.span.unwrap_or_else(|| panic!("{src}: no span"));
                let got = (
                    d.message.as_str(),
                    d.help.as_deref().unwrap_or(""),
                    span.text(src),
                );
                assert_eq!(got, (*message, *help, Some(*spanned)), "{src} as {ty_text}");
            }
            (_, got) => panic!("{src} as {ty_text}: got {got:?}"),
        }
    }
}

#[test]
fn float_overflow_is_an_error() {
    let max = "179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000.0";
    let kind = kind();
    let src = format!("{max} + {max}");
    let (expr, problems) = parse_expr("c.sigil", &src);
    let expr = expr.unwrap_or_else(|| panic!("{problems:?}"));
    let d = eval(&expr, &Ty::Float, &kind.enums).unwrap_err();
    assert_eq!(d.message, "float overflow in constant");
    assert_eq!(
        d.help.as_deref(),
        Some("constant floats must be finite so the kind can be exported")
    );
    assert_eq!(d.span.and_then(|s| s.text(&src)), Some(src.as_str()));
    let (expr, _) = parse_expr("c.sigil", &format!("{max} - 1.0"));
    assert!(eval(&expr.unwrap(), &Ty::Float, &kind.enums).is_ok());
}
