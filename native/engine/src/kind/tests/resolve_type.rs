//! `Kind::resolve_type`, the checker's way to read a `param`'s type.

use super::{at, load_src};
use crate::testing::param_type;

const KIND: &str = "kind K version 1
enum Tier: gold
type Service { name: string }
decision d { reason: r }
collect all
";

/// Message, help and where (`line:column text`).
type Problem = (&'static str, &'static str, &'static str);

#[rustfmt::skip]
const CASES: &[(&str, Result<&str, Problem>)] = &[
    ("map<Tier, list<Service>>", Ok("map<Tier, list<Service>>")),
    ("?Tier", Ok("?Tier")),
    ("Servce", Err(("unknown type `Servce`", "did you mean `Service`?", "2:10 Servce"))),
    ("tier", Err(("unknown type `tier`", "did you mean `Tier`?", "2:10 tier"))),
    ("list<Ticket>", Err(("unknown type `Ticket`", "types are the built-ins and the struct types and enums the kind declares", "2:15 Ticket"))),
    ("map<list<string>, int>", Err(("list<string> can't be a map key", "map keys are bool, int, float, string, duration, timestamp or an enum", "2:14 list<string>"))),
    ("map<string, Tier>", Err(("an enum can't be a map value", "a missing key would read as the zero value, and an enum has none; key the map by the enum instead, or use a list", "2:22 Tier"))),
    ("?map<string, int>", Err(("a map can't be optional", "write `map<K, V>`: a missing map reads as an empty one", "2:10 ?map<string, int>"))),
];

#[test]
fn resolve_type_table() {
    let Some(kind) = load_src(KIND).kind else {
        panic!("the kind is valid");
    };
    for (text, want) in CASES {
        let (src, ty) = param_type(text);
        let got = kind.resolve_type(&ty).map(|t| t.to_string()).map_err(|d| {
            (
                d.message.clone(),
                d.help.clone().unwrap_or_default(),
                at(&src, &d),
            )
        });
        let want = want
            .map(str::to_owned)
            .map_err(|(m, h, a)| (m.to_owned(), h.to_owned(), a.to_owned()));
        assert_eq!(got, want, "{text}");
    }
}
