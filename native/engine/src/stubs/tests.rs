//! Binding as a table of stubs documents and the problems they give (or
//! the values they bind to), and the host answering calls.

use std::rc::Rc;

use super::*;
use crate::testfile::read_stubs;
use crate::testing::load_kind;
use crate::value::parse_rfc3339;

const KIND: &str = r#"kind Stubbed version 1

enum Tier: gold | silver

type Team {
  name: string
  size: int
}

input user: string

fn owner(string) -> string
fn teams(string) -> list<string>
fn tier(string) -> Tier
fn within(duration, timestamp) -> bool
fn lead(Team, ?string) -> string
fn sizes(map<string, int>) -> int
fn pair(int, int) -> int

decision allow { reason: ok }
collect all
"#;

fn kind() -> Kind {
    load_kind(KIND)
}

/// Binds the stubs document `text`: the problems as `«line»: «text»`, one
/// per line.
fn problems(kind: &Kind, text: &str) -> String {
    let stubs = read_stubs(text).unwrap_or_else(|p| panic!("{text}: {p:?}"));
    match bind(&stubs, kind) {
        Ok(_) => "bound".to_owned(),
        Err(problems) => problems
            .iter()
            .map(|p| format!("{}: {}", p.line, p.text()))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

fn bound(text: &str) -> BoundStubs {
    let stubs = read_stubs(text).unwrap();
    bind(&stubs, &kind()).unwrap_or_else(|p| panic!("{text}: {p:?}"))
}

const DECODE: &str = "give the value the type the kind declares for it";

#[test]
fn every_binding_rule_has_its_problem() {
    let table: Vec<(&str, String)> = vec![
        ("owner: {returns: ada}", "bound".to_owned()),
        (
            "ownr: {returns: ada}",
            r#"1: the kind has no host function ownr to stub (did you mean "owner"? the kind declares: owner, teams, tier, within, lead, sizes, pair)"#.to_owned(),
        ),
        (
            "vault: {returns: ada}",
            "1: the kind has no host function vault to stub (the kind declares: owner, teams, tier, within, lead, sizes, pair)".to_owned(),
        ),
        (
            "owner:\n  calls:\n    - {args: [a, b], returns: x}",
            "3: stub owner: call 1 passes 2 args, but owner takes 1 (the kind declares `fn owner(string) -> string`)".to_owned(),
        ),
        (
            "pair:\n  calls:\n    - {args: [1], returns: 2}",
            "3: stub pair: call 1 passes 1 arg, but pair takes 2 (the kind declares `fn pair(int, int) -> int`)".to_owned(),
        ),
        (
            "owner: {returns: [ada]}",
            format!("1: stub owner: returns: expected a string, found a list ({DECODE})"),
        ),
        (
            "owner: {returns: null}",
            "1: stub owner: returns is null, but its type is string (write a value of that type; only an optional, a list or a map may be null)".to_owned(),
        ),
        (
            "owner:\n  calls:\n    - {args: [~], returns: x}",
            "3: stub owner: call 1: arg 1 is null, but its type is string (write a value of that type; only an optional, a list or a map may be null)".to_owned(),
        ),
        (
            "teams: {returns: [a, null]}",
            "1: stub teams: returns[1]: null for a string (only optionals, lists and maps may be null; leave the key out to get the zero value)".to_owned(),
        ),
        (
            "tier: {returns: gould}",
            "1: stub tier: returns: \"gould\" is not a value of Tier (did you mean `gold`? Tier declares: gold, silver)".to_owned(),
        ),
        (
            "pair:\n  calls:\n    - {args: [1, x], returns: 1.5}",
            format!(
                "3: stub pair: call 1: arg 2: expected an int, found a string ({DECODE})\n3: stub pair: call 1: returns: expected an int, found a number ({DECODE})"
            ),
        ),
        (
            "lead:\n  calls:\n    - args: [{name: a, sise: 3}, x]\n      returns: x",
            "3: stub lead: call 1: arg 1.sise: unknown field \"sise\" on type Team (did you mean \"size\"? declared: name, size)".to_owned(),
        ),
        (
            "within:\n  calls:\n    - {args: [90x, \"2026-01-01T00:00:00Z\"], returns: true}",
            "3: stub within: call 1: arg 1: invalid duration \"90x\" (units are d, h, m, s and ms, largest first, each at most once: \"1h30m\")".to_owned(),
        ),
        // Functions bind in name order, and the problems are sorted by line.
        (
            "teams: {returns: 1}\nowner: {returns: [x]}\nzz: {returns: 1}",
            format!(
                "1: stub teams: returns: expected a list<string>, found a number ({DECODE})\n2: stub owner: returns: expected a string, found a list ({DECODE})\n3: the kind has no host function zz to stub (the kind declares: owner, teams, tier, within, lead, sizes, pair)"
            ),
        ),
        // Nulls where the type takes one, and an error instead of a value.
        ("lead: {calls: [{args: [{}, null], returns: a}]}\nteams: {returns: ~}\nsizes: {error: down}", "bound".to_owned()),
    ];
    let kind = kind();
    for (text, want) in table {
        assert_eq!(problems(&kind, text), want, "{text}");
    }
}

#[test]
fn a_kind_without_host_functions_says_so() {
    let kind = load_kind("kind Bare version 1\ndecision allow { reason: ok }\ncollect all\n");
    assert_eq!(
        problems(&kind, "owner: {returns: ada}"),
        "1: the kind has no host function owner to stub (the kind declares no host functions)"
    );
}

/// The one function of `stubs` answering `args`: its value as a constant,
/// or its failure's text and help.
fn answer(stubs: &BoundStubs, function: &str, args: &[Value]) -> Result<String, (String, String)> {
    let kind = kind();
    let def = kind.func(function).unwrap();
    let mut unbound = crate::eval::Unbound;
    let mut host = StubHost::new(stubs, &mut unbound);
    host.call(def, args)
        .map(|v| v.const_text())
        .map_err(|e| (e.text, e.help.unwrap_or_default()))
}

fn string(text: &str) -> Value {
    Value::String(Rc::from(text.as_bytes()))
}

#[test]
fn scalars_of_string_and_enum_types_are_their_text_as_written() {
    let stubs = bound(
        "owner:\n  calls:\n    - {args: [1.10], returns: 2026-01-01}\n    - {args: [true], returns: 012}\n\
         tier: {returns: silver}\n\
         lead: {calls: [{args: [{name: 1.5, size: 3}, null], returns: yes}]}\n",
    );
    assert_eq!(
        answer(&stubs, "owner", &[string("1.10")]),
        Ok(r#""2026-01-01""#.to_owned())
    );
    assert_eq!(
        answer(&stubs, "owner", &[string("true")]),
        Ok(r#""012""#.to_owned())
    );
    assert_eq!(
        answer(&stubs, "tier", &[string("x")]),
        Ok("silver".to_owned())
    );
    let team = Value::Struct(Rc::from(vec![
        (Rc::from("name"), string("1.5")),
        (Rc::from("size"), Value::Int(3)),
    ]));
    assert_eq!(
        answer(&stubs, "lead", &[team, Value::Absent]),
        Ok(r#""yes""#.to_owned())
    );
}

#[test]
fn calls_match_by_value_in_order_then_fall_back() {
    let stubs = bound(
        "owner:\n  returns: nobody\n  calls:\n    - {args: [vault], returns: ada}\n    - {args: [vault], returns: bob}\n    - {args: [lab], error: lab is closed}\n",
    );
    assert_eq!(
        answer(&stubs, "owner", &[string("vault")]),
        Ok(r#""ada""#.to_owned())
    );
    assert_eq!(
        answer(&stubs, "owner", &[string("lobby")]),
        Ok(r#""nobody""#.to_owned())
    );
    assert_eq!(
        answer(&stubs, "owner", &[string("lab")]),
        Err((
            "lab is closed".to_owned(),
            "the stub's error: fails the call, as the host function failing would; a test case expects it with `expect: {error: ...}`".to_owned()
        ))
    );
}

#[test]
fn args_compare_as_values_not_as_written() {
    let stubs = bound(
        "within:\n  calls:\n    - {args: [90m, \"2026-01-01T02:00:00+02:00\"], returns: true}\n",
    );
    let at = parse_rfc3339("2026-01-01T00:00:00Z").unwrap();
    let args = [Value::Duration(5_400_000_000_000), Value::Timestamp(at)];
    assert_eq!(answer(&stubs, "within", &args), Ok("true".to_owned()));
}

#[test]
fn a_call_nothing_answers_names_its_args_as_sigil_literals() {
    let stubs = bound(
        "within:\n  calls:\n    - {args: [1h, \"2026-01-01T00:00:00Z\"], returns: true}\nsizes: {calls: [{args: [{a: 1}], returns: 1}]}\n",
    );
    let at = parse_rfc3339("2026-01-01T00:00:00Z").unwrap();
    let help = UNMATCHED_HELP.to_owned();
    assert_eq!(
        answer(
            &stubs,
            "within",
            &[Value::Duration(5_400_000_000_000), Value::Timestamp(at)]
        ),
        Err((
            r#"no stubbed call matches within(1h30m, "2026-01-01T00:00:00Z")"#.to_owned(),
            help.clone()
        ))
    );
    let map = Value::Map(Rc::from(vec![(string("b"), Value::Int(2))]));
    assert_eq!(
        answer(&stubs, "sizes", &[map]),
        Err((
            r#"no stubbed call matches sizes({"b": 2})"#.to_owned(),
            help
        ))
    );
}

/// Records the calls it gets and answers each with `true`.
struct Recorder(Vec<String>);

impl Host for Recorder {
    fn call(&mut self, function: &FnDef, _args: &[Value]) -> Result<Value, HostError> {
        self.0.push(function.name.clone());
        Ok(Value::Bool(true))
    }
}

#[test]
fn functions_without_a_stub_go_to_the_wrapped_host() {
    let stubs = bound("owner: {returns: ada}");
    let kind = kind();
    let mut recorder = Recorder(Vec::new());
    let mut host = StubHost::new(&stubs, &mut recorder);
    let owner = host.call(kind.func("owner").unwrap(), &[string("x")]);
    let tier = host.call(kind.func("tier").unwrap(), &[string("x")]);
    assert_eq!(owner, Ok(string("ada")));
    assert_eq!(tier, Ok(Value::Bool(true)));
    assert_eq!(recorder.0, ["tier"]);
    assert!(stubs.stubs("owner") && !stubs.stubs("tier"));
}

#[test]
fn an_unstubbed_function_is_unbound_by_default() {
    let stubs = BoundStubs::default();
    assert!(stubs.is_empty());
    let (text, help) = answer(&stubs, "owner", &[string("x")]).unwrap_err();
    assert_eq!(text, "no implementation in this sigil binary");
    assert!(help.contains("stub it with `stubs:`"), "{help}");
}
