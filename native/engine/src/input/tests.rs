//! The decoder as tables: documents against the kind below, and what they
//! decode to (as the JSON the encoder writes) or the message and advice of
//! tooling §6.1.1, exactly.

use super::*;
use crate::data::parse_json;
use crate::testing::{Rng, load_kind};
use crate::wire::write_value;

const KIND: &str = r#"kind Decode version 1

enum Severity: critical | major | minor
enum Zone: lobby | lab | vault

type Actor {
  name: string
  teams: list<string>
  roles: list<string>
  regions: list<string>
}

type Order {
  id: int
  ratio: float
  urgent: bool
  soak: duration
  at: timestamp
  severity: Severity
  note: ?string
  owner: ?Actor
  labels: map<string, string>
  counts: map<int, int>
  weights: map<float, int>
  flags: map<bool, string>
  windows: map<duration, int>
  seen: map<timestamp, int>
  zones: map<Zone, int>
  tags: list<list<string>>
}

type Empty {}

input actor: Actor
input order: Order
input empty: Empty
input count: int
input severity: Severity

decision allow { reason: ok }
collect all
"#;

fn kind() -> Kind {
    load_kind(KIND)
}

fn json(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out).unwrap();
    out
}

/// Decodes a JSON input document; `Ok` holds each input's value as JSON,
/// `name=value`, joined by spaces.
fn input(kind: &Kind, text: &str) -> Result<String, (String, String)> {
    let data = parse_json(text.as_bytes()).unwrap();
    match decode_input(&data, Syntax::Json, kind) {
        Ok(values) => Ok(kind
            .inputs
            .iter()
            .zip(&values)
            .map(|(i, v)| format!("{}={}", i.name, json(v)))
            .collect::<Vec<_>>()
            .join(" ")),
        Err(e) => Err((e.message, e.advice)),
    }
}

const DEFAULT: &str = "give the value the type the kind declares for it";
const NULL: &str =
    "only optionals, lists and maps may be null; leave the key out to get the zero value";
const DURATION: &str = "write durations as strings in Sigil's syntax, like \"45m\" or \"1h30m\"";
const INVALID_DURATION: &str =
    "units are d, h, m, s and ms, largest first, each at most once: \"1h30m\"";
const TIMESTAMP: &str = "write timestamps in RFC 3339, like \"2026-09-28T14:00:00Z\"";

/// One row per situation of the §6.1.1 table, then paths and orders.
#[rustfmt::skip]
const ERRORS: &[(&str, &str, &str)] = &[
    // The input document isn't an object.
    ("[1]", "the input must be an object with one key per input, found a list", "the kind declares: actor, order, empty, count, severity"),
    ("null", "the input must be an object with one key per input, found null", "the kind declares: actor, order, empty, count, severity"),
    ("\"x\"", "the input must be an object with one key per input, found a string", "the kind declares: actor, order, empty, count, severity"),
    ("7", "the input must be an object with one key per input, found a number", "the kind declares: actor, order, empty, count, severity"),
    ("true", "the input must be an object with one key per input, found a boolean", "the kind declares: actor, order, empty, count, severity"),
    // A key that is no input.
    (r#"{"actr": {}}"#, r#"actr: unknown input "actr""#, "did you mean \"actor\"? declared: actor, order, empty, count, severity"),
    (r#"{"zzzzzz": 1}"#, r#"zzzzzz: unknown input "zzzzzz""#, "declared: actor, order, empty, count, severity"),
    (r#"{"a\"b": 1}"#, r#"a"b: unknown input "a\"b""#, "declared: actor, order, empty, count, severity"),
    // A key that is no field of the struct.
    (r#"{"actor": {"nmae": "x"}}"#, r#"actor.nmae: unknown field "nmae" on type Actor"#, "did you mean \"name\"? declared: name, teams, roles, regions"),
    (r#"{"actor": {"zzzzzz": "x"}}"#, r#"actor.zzzzzz: unknown field "zzzzzz" on type Actor"#, "declared: name, teams, roles, regions"),
    (r#"{"empty": {"x": 1}}"#, r#"empty.x: unknown field "x" on type Empty"#, "none are declared"),
    (r#"{"order": {"owner": {"Name": "x"}}}"#, r#"order.owner.Name: unknown field "Name" on type Actor"#, "did you mean \"name\"? declared: name, teams, roles, regions"),
    // null where the type is not optional, list or map.
    (r#"{"count": null}"#, "count: null for an int", NULL),
    (r#"{"actor": null}"#, "actor: null for a Actor", NULL),
    (r#"{"order": null}"#, "order: null for a Order", NULL),
    (r#"{"severity": null}"#, "severity: null for a Severity", NULL),
    (r#"{"order": {"soak": null}}"#, "order.soak: null for a duration", NULL),
    (r#"{"order": {"at": null}}"#, "order.at: null for a timestamp", NULL),
    (r#"{"order": {"tags": [[null]]}}"#, "order.tags[0][0]: null for a string", NULL),
    // Wrong JSON type.
    (r#"{"count": "7"}"#, "count: expected an int, found a string", DEFAULT),
    (r#"{"count": 1.0}"#, "count: expected an int, found a number", DEFAULT),
    (r#"{"count": 1e3}"#, "count: expected an int, found a number", DEFAULT),
    (r#"{"count": 9223372036854775808}"#, "count: expected an int, found a number", DEFAULT),
    (r#"{"count": true}"#, "count: expected an int, found a boolean", DEFAULT),
    (r#"{"actor": 3}"#, "actor: expected a Actor, found a number", DEFAULT),
    (r#"{"order": []}"#, "order: expected a Order, found a list", DEFAULT),
    (r#"{"actor": {"teams": {}}}"#, "actor.teams: expected a list<string>, found an object", DEFAULT),
    (r#"{"actor": {"name": ["x"]}}"#, "actor.name: expected a string, found a list", DEFAULT),
    (r#"{"order": {"labels": []}}"#, "order.labels: expected a map<string, string>, found a list", DEFAULT),
    (r#"{"order": {"urgent": 1}}"#, "order.urgent: expected a bool, found a number", DEFAULT),
    (r#"{"order": {"ratio": "1"}}"#, "order.ratio: expected a float, found a string", DEFAULT),
    (r#"{"order": {"ratio": 1e400}}"#, "order.ratio: expected a float, found a number", DEFAULT),
    (r#"{"order": {"note": 3}}"#, "order.note: expected a string, found a number", DEFAULT),
    (r#"{"order": {"owner": "x"}}"#, "order.owner: expected a Actor, found a string", DEFAULT),
    (r#"{"severity": 2}"#, "severity: expected a Severity, found a number", DEFAULT),
    // Durations.
    (r#"{"order": {"soak": 45}}"#, "order.soak: expected a duration, found a number", DURATION),
    (r#"{"order": {"soak": {}}}"#, "order.soak: expected a duration, found an object", DURATION),
    (r#"{"order": {"soak": "45x"}}"#, r#"order.soak: invalid duration "45x""#, INVALID_DURATION),
    (r#"{"order": {"soak": ""}}"#, r#"order.soak: invalid duration """#, INVALID_DURATION),
    (r#"{"order": {"soak": "30m1h"}}"#, r#"order.soak: invalid duration "30m1h""#, INVALID_DURATION),
    (r#"{"order": {"soak": "1h1h"}}"#, r#"order.soak: invalid duration "1h1h""#, INVALID_DURATION),
    (r#"{"order": {"soak": "-5m"}}"#, r#"order.soak: invalid duration "-5m""#, INVALID_DURATION),
    (r#"{"order": {"soak": "1h 30m"}}"#, r#"order.soak: invalid duration "1h 30m""#, INVALID_DURATION),
    (r#"{"order": {"soak": "106752d"}}"#, r#"order.soak: invalid duration "106752d""#, INVALID_DURATION),
    // Timestamps.
    (r#"{"order": {"at": "yesterday"}}"#, "order.at: expected a timestamp, found a string", TIMESTAMP),
    (r#"{"order": {"at": "2026-02-30T00:00:00Z"}}"#, "order.at: expected a timestamp, found a string", TIMESTAMP),
    (r#"{"order": {"at": "2026-09-28"}}"#, "order.at: expected a timestamp, found a string", TIMESTAMP),
    (r#"{"order": {"at": 1790596800}}"#, "order.at: expected a timestamp, found a number", TIMESTAMP),
    // Enum values.
    (r#"{"severity": "critcal"}"#, r#"severity: "critcal" is not a value of Severity"#, "did you mean `critical`? Severity declares: critical, major, minor"),
    (r#"{"severity": "blocker"}"#, r#"severity: "blocker" is not a value of Severity"#, "Severity declares: critical, major, minor"),
    (r#"{"severity": "Critical"}"#, r#"severity: "Critical" is not a value of Severity"#, "did you mean `critical`? Severity declares: critical, major, minor"),
    (r#"{"order": {"severity": ""}}"#, r#"order.severity: "" is not a value of Severity"#, "Severity declares: critical, major, minor"),
    // Paths into lists and maps.
    (r#"{"order": {"tags": [["a"], ["b", 3]]}}"#, "order.tags[1][1]: expected a string, found a number", DEFAULT),
    (r#"{"actor": {"teams": ["a", "b", "c", null]}}"#, "actor.teams[3]: null for a string", NULL),
    (r#"{"order": {"labels": {"team": 1}}}"#, r#"order.labels["team"]: expected a string, found a number"#, DEFAULT),
    (r#"{"order": {"labels": {"a\"\n": 1}}}"#, r#"order.labels["a\"\n"]: expected a string, found a number"#, DEFAULT),
    // Map keys, parsed by the key type.
    (r#"{"order": {"counts": {"x": 1}}}"#, r#"order.counts["x"]: expected an int, found a number"#, DEFAULT),
    (r#"{"order": {"counts": {"1.0": 1}}}"#, r#"order.counts["1.0"]: expected an int, found a number"#, DEFAULT),
    (r#"{"order": {"counts": {"3": "x"}}}"#, r#"order.counts["3"]: expected an int, found a string"#, DEFAULT),
    (r#"{"order": {"weights": {"one": 1}}}"#, r#"order.weights["one"]: expected a float, found a number"#, DEFAULT),
    (r#"{"order": {"flags": {"maybe": "x"}}}"#, r#"order.flags["maybe"]: expected a bool, found a string"#, DEFAULT),
    (r#"{"order": {"windows": {"soon": 1}}}"#, r#"order.windows["soon"]: invalid duration "soon""#, INVALID_DURATION),
    (r#"{"order": {"seen": {"today": 1}}}"#, r#"order.seen["today"]: expected a timestamp, found a string"#, TIMESTAMP),
    (r#"{"order": {"zones": {"attic": 1}}}"#, r#"order.zones["attic"]: "attic" is not a value of Zone"#, "Zone declares: lobby, lab, vault"),
    (r#"{"order": {"zones": {"lbby": 1}}}"#, r#"order.zones["lbby"]: "lbby" is not a value of Zone"#, "did you mean `lobby`? Zone declares: lobby, lab, vault"),
    // Keys are walked in byte order; the first problem wins.
    (r#"{"order": {"urgent": 1, "id": "x"}}"#, "order.id: expected an int, found a string", DEFAULT),
    (r#"{"zzzzzz": 1, "actor": {"nmae": 1}}"#, r#"actor.nmae: unknown field "nmae" on type Actor"#, "did you mean \"name\"? declared: name, teams, roles, regions"),
    (r#"{"order": {"counts": {"b": 1, "a": 1}}}"#, r#"order.counts["a"]: expected an int, found a number"#, DEFAULT),
    (r#"{"Zebra": 1, "actor": 1}"#, r#"Zebra: unknown input "Zebra""#, "declared: actor, order, empty, count, severity"),
];

#[test]
fn decoder_messages() {
    let kind = kind();
    for (text, message, advice) in ERRORS {
        assert_eq!(
            input(&kind, text),
            Err(((*message).to_owned(), (*advice).to_owned())),
            "{text}"
        );
    }
}

#[test]
fn a_kind_without_inputs_declares_none() {
    let kind = load_kind("kind K version 1\ndecision d { reason: r }\ncollect all\n");
    assert_eq!(input(&kind, "{}"), Ok(String::new()));
    assert_eq!(
        input(&kind, r#"{"x": 1}"#),
        Err((
            "x: unknown input \"x\"".to_owned(),
            "none are declared".to_owned()
        ))
    );
    assert_eq!(
        input(&kind, "[]"),
        Err((
            "the input must be an object with one key per input, found a list".to_owned(),
            "the kind declares: ".to_owned()
        ))
    );
}

#[test]
fn missing_keys_read_as_zero_values() {
    let zero_order = concat!(
        r#"{"at":"0001-01-01T00:00:00Z","counts":{},"flags":{},"id":0,"labels":{},"note":null,"#,
        r#""owner":null,"ratio":0,"seen":{},"severity":"","soak":"0s","tags":[],"urgent":false,"#,
        r#""weights":{},"windows":{},"zones":{}}"#
    );
    let want = format!(
        r#"actor={{"name":"","regions":[],"roles":[],"teams":[]}} order={zero_order} empty={{}} count=0 severity="""#
    );
    assert_eq!(input(&kind(), "{}"), Ok(want.clone()));
    // An object that leaves every field out reads the same.
    assert_eq!(
        input(&kind(), r#"{"actor": {}, "order": {}, "empty": {}}"#),
        Ok(want)
    );
}

/// An input giving every input and field, each map key type more than once.
const DOCUMENT: &str = r#"{
    "count": -42,
    "severity": "major",
    "actor": {"name": "<ada>", "teams": ["a", "b"], "regions": null},
    "order": {
        "id": 9223372036854775807,
        "ratio": 2,
        "urgent": true,
        "soak": "1d90m",
        "at": "2026-09-28T14:00:00.250+02:00",
        "severity": "critical",
        "note": null,
        "owner": {"name": "x"},
        "labels": {"team": "core", "b": "2"},
        "counts": {"3": 1, "-2": 2, "+7": 3, "03": 4},
        "weights": {"1.5": 1, "1e3": 2, "-0": 3},
        "flags": {"true": "y", "0": "n", "F": "f"},
        "windows": {"45m": 1, "1h": 2, "60m": 3},
        "seen": {"2026-09-28T14:00:00+02:00": 1},
        "zones": {"lab": 1, "vault": 2},
        "tags": [[], ["x"]]
    }
}"#;

#[test]
fn documents_decode_and_encode_back() {
    let kind = kind();
    let order = concat!(
        r#"{"at":"2026-09-28T12:00:00.25Z","counts":{"-2":2,"3":1,"7":3},"#,
        r#""flags":{"false":"f","true":"y"},"id":9223372036854775807,"#,
        r#""labels":{"b":"2","team":"core"},"note":null,"#,
        r#""owner":{"name":"x","regions":[],"roles":[],"teams":[]},"ratio":2,"#,
        r#""seen":{"2026-09-28T12:00:00Z":1},"severity":"critical","soak":"1d1h30m","#,
        r#""tags":[[],["x"]],"urgent":true,"weights":{"-0":3,"1.5":1,"1000":2},"#,
        r#""windows":{"1h":3,"45m":1},"zones":{"lab":1,"vault":2}}"#
    );
    let want = format!(
        r#"actor={{"name":"\u003cada\u003e","regions":[],"roles":[],"teams":["a","b"]}} order={order} empty={{}} count=-42 severity="major""#
    );
    assert_eq!(input(&kind, DOCUMENT), Ok(want));
}

#[test]
fn encoded_values_decode_to_the_same_json() {
    let kind = kind();
    let data = parse_json(DOCUMENT.as_bytes()).unwrap();
    let values = decode_input(&data, Syntax::Json, &kind).unwrap();
    for (input, value) in kind.inputs.iter().zip(&values) {
        let text = json(value);
        let again = parse_json(text.as_bytes()).unwrap();
        let again = decode_value(&again, Syntax::Json, &input.ty, &kind, &input.name).unwrap();
        assert_eq!(json(&again), text, "{}", input.name);
    }
}

#[test]
fn structs_keep_declaration_order_and_timestamps_their_offset() {
    let kind = kind();
    let data =
        parse_json(br#"{"order": {"at": "2026-09-28T14:00:00+02:00"}, "actor": {"roles": ["r"]}}"#)
            .unwrap();
    let values = decode_input(&data, Syntax::Json, &kind).unwrap();
    let Some(Value::Struct(actor)) = values.first() else {
        panic!("{values:?}");
    };
    let names: Vec<&str> = actor.iter().map(|(name, _)| &**name).collect();
    assert_eq!(names, ["name", "teams", "roles", "regions"]);
    let Some(Value::Struct(order)) = values.get(1) else {
        panic!("{values:?}");
    };
    let at = order
        .iter()
        .find(|(name, _)| &**name == "at")
        .map(|(_, v)| v);
    assert_eq!(
        at,
        Some(&Value::Timestamp(Timestamp {
            seconds: 1_790_596_800,
            nanos: 0,
            offset: 7200
        }))
    );
}

#[test]
fn keys_that_parse_alike_are_one_entry_the_last_in_key_order() {
    let kind = kind();
    // Sorted, "03" comes before "3", so "3" is the one that stays.
    let data = parse_json(br#"{"03": 1, "3": 2, "+3": 3}"#).unwrap();
    let ty = Ty::map(Ty::Int, Ty::Int);
    let value = decode_value(&data, Syntax::Json, &ty, &kind, "m").unwrap();
    assert_eq!(
        value,
        Value::Map(vec![(Value::Int(3), Value::Int(2))].into())
    );
    // Timestamps of one instant at different offsets are different keys.
    let data =
        parse_json(br#"{"2026-01-01T01:00:00+01:00": 1, "2026-01-01T00:00:00Z": 2}"#).unwrap();
    let ty = Ty::map(Ty::Timestamp, Ty::Int);
    let Value::Map(entries) = decode_value(&data, Syntax::Json, &ty, &kind, "m").unwrap() else {
        panic!("not a map");
    };
    assert_eq!(entries.len(), 2);
}

fn number(text: &str) -> Data {
    Data::Number(text.to_owned())
}

/// One value against a type, in either syntax: the value's JSON or the
/// message.
type Outcome = Result<String, String>;

fn value(data: &Data, syntax: Syntax, ty: &Ty) -> Outcome {
    decode_value(data, syntax, ty, &kind(), "result")
        .map(|v| json(&v))
        .map_err(|e| e.message)
}

#[test]
fn json_ints_are_exact_and_yaml_ints_may_be_whole_floats() {
    let int = Ty::Int;
    let not_int = || Err("result: expected an int, found a number".to_owned());
    #[rustfmt::skip]
    let cases: &[(&str, Outcome, Outcome)] = &[
        // text, as JSON, as YAML
        ("7", Ok("7".into()), Ok("7".into())),
        ("-0", Ok("0".into()), Ok("0".into())),
        ("1.0", not_int(), Ok("1".into())),
        ("1e3", not_int(), Ok("1000".into())),
        ("1.5", not_int(), not_int()),
        ("-9223372036854775808", Ok("-9223372036854775808".into()), Ok("-9223372036854775808".into())),
        ("-9.223372036854775808e18", not_int(), Ok("-9223372036854775808".into())),
        ("9223372036854775807", Ok("9223372036854775807".into()), Ok("9223372036854775807".into())),
        ("9223372036854775808", not_int(), not_int()),
        ("9.223372036854775807e18", not_int(), not_int()),
        ("0x10", not_int(), Ok("16".into())),
        ("1_000", not_int(), Ok("1000".into())),
        (".inf", not_int(), not_int()),
        (".nan", not_int(), not_int()),
    ];
    for (text, as_json, as_yaml) in cases {
        assert_eq!(
            &value(&number(text), Syntax::Json, &int),
            as_json,
            "JSON {text}"
        );
        assert_eq!(
            &value(&number(text), Syntax::Yaml, &int),
            as_yaml,
            "YAML {text}"
        );
    }
}

#[test]
fn floats_take_any_number() {
    let float = Ty::Float;
    for (text, syntax, want) in [
        ("2", Syntax::Json, "2"),
        ("-0.5", Syntax::Json, "-0.5"),
        ("1e21", Syntax::Json, "1e+21"),
        ("9223372036854775808", Syntax::Json, "9223372036854776000"),
        ("2", Syntax::Yaml, "2"),
        ("18446744073709551615", Syntax::Yaml, "18446744073709552000"),
        ("1_000.5", Syntax::Yaml, "1000.5"),
    ] {
        assert_eq!(
            value(&number(text), syntax, &float),
            Ok(want.to_owned()),
            "{text}"
        );
    }
    let infinite = decode_value(&number(".inf"), Syntax::Yaml, &float, &kind(), "");
    assert_eq!(infinite, Ok(Value::Float(f64::INFINITY)));
}

#[test]
fn paths_name_the_value() {
    let kind = kind();
    let data = Data::String("x".to_owned());
    let error = |path| decode_value(&data, Syntax::Json, &Ty::Int, &kind, path).unwrap_err();
    assert_eq!(
        error("result").message,
        "result: expected an int, found a string"
    );
    assert_eq!(error("").message, "expected an int, found a string");
    assert_eq!(error("").advice, DEFAULT);
    // A map or struct straight under the empty path.
    let data = parse_json(br#"{"x": 1}"#).unwrap();
    let map = Ty::map(Ty::Int, Ty::Int);
    let error = decode_value(&data, Syntax::Json, &map, &kind, "").unwrap_err();
    assert_eq!(error.message, r#"["x"]: expected an int, found a number"#);
    let actor = Ty::Struct("Actor".into());
    let error = decode_value(&data, Syntax::Json, &actor, &kind, "").unwrap_err();
    assert_eq!(error.message, r#"x: unknown field "x" on type Actor"#);
}

#[test]
fn nulls_of_optionals_lists_and_maps() {
    let cases = [
        (Ty::optional(Ty::Int), "null"),
        (Ty::optional(Ty::Struct("Actor".into())), "null"),
        (Ty::list(Ty::Int), "[]"),
        (Ty::map(Ty::String, Ty::Int), "{}"),
    ];
    for (ty, want) in cases {
        assert_eq!(
            value(&Data::Null, Syntax::Json, &ty),
            Ok(want.to_owned()),
            "{ty}"
        );
    }
}

#[test]
fn types_no_document_holds_are_refused() {
    let kind = kind();
    for ty in [Ty::Decision, Ty::Candidate("allow".into())] {
        let error = decode_value(&Data::Bool(true), Syntax::Json, &ty, &kind, "x").unwrap_err();
        assert_eq!(
            error.message,
            format!("x: values of type {ty} can't be decoded")
        );
        assert_eq!(error.advice, DEFAULT);
    }
}

#[test]
fn articles_follow_the_first_character() {
    let cases = [
        (Ty::Int, "an int"),
        (Ty::Float, "a float"),
        (Ty::Bool, "a bool"),
        (Ty::String, "a string"),
        (Ty::list(Ty::String), "a list<string>"),
        (
            Ty::map(Ty::Enum("Zone".into()), Ty::Int),
            "a map<Zone, int>",
        ),
        (Ty::Struct("Actor".into()), "a Actor"),
        (Ty::Struct("Order".into()), "a Order"),
        (Ty::Struct("Service".into()), "a Service"),
        (Ty::Enum("ember".into()), "an ember"),
        (Ty::Enum("unit".into()), "an unit"),
        (Ty::Enum("yard".into()), "a yard"),
    ];
    for (ty, want) in cases {
        assert_eq!(article(&ty), want);
    }
}

#[test]
fn zero_values_of_every_type() {
    let kind = kind();
    let cases = [
        (Ty::Bool, "false"),
        (Ty::Int, "0"),
        (Ty::Float, "0"),
        (Ty::String, r#""""#),
        (Ty::Duration, r#""0s""#),
        (Ty::Timestamp, r#""0001-01-01T00:00:00Z""#),
        (Ty::list(Ty::Int), "[]"),
        (Ty::map(Ty::String, Ty::Int), "{}"),
        (Ty::optional(Ty::Int), "null"),
        (Ty::Enum("Severity".into()), r#""""#),
        (
            Ty::Struct("Actor".into()),
            r#"{"name":"","regions":[],"roles":[],"teams":[]}"#,
        ),
        (Ty::Struct("Empty".into()), "{}"),
    ];
    for (ty, want) in cases {
        assert_eq!(json(&zero_value(&ty, &kind)), want, "{ty}");
    }
    assert_eq!(
        zero_value(&Ty::Timestamp, &kind),
        Value::Timestamp(Timestamp::ZERO)
    );
    assert_eq!(
        zero_value(&Ty::Enum("Zone".into()), &kind),
        Value::Enum("".into())
    );
}

#[test]
fn deep_data_fails_at_the_depth_of_the_type() {
    let kind = kind();
    let deep = format!("{}{}", "[".repeat(9_990), "]".repeat(9_990));
    let data = parse_json(format!(r#"{{"count": {deep}}}"#).as_bytes()).unwrap();
    assert_eq!(
        decode_input(&data, Syntax::Json, &kind)
            .unwrap_err()
            .message,
        "count: expected an int, found a list"
    );
    let data = parse_json(format!(r#"{{"order": {{"tags": [[{deep}]]}}}}"#).as_bytes()).unwrap();
    assert_eq!(
        decode_input(&data, Syntax::Json, &kind)
            .unwrap_err()
            .message,
        "order.tags[0][0]: expected a string, found a list"
    );
}

/// A random value of any JSON kind, fitting its place or not.
fn random_value(rng: &mut Rng) -> &'static str {
    const VALUES: &[&str] = &[
        "7",
        "-0",
        "1.5",
        "1e3",
        "9223372036854775808",
        "true",
        "false",
        "null",
        "\"x\"",
        "\"\"",
        "\"lab\"",
        "\"attic\"",
        "\"1h30m\"",
        "\"1x\"",
        "\"2026-09-28T14:00:00Z\"",
        "\"a\\\"b\\u00e9\"",
        "[1]",
        "[]",
        "{}",
        "{\"a\":2}",
    ];
    pick(rng, VALUES)
}

fn pick<T: Copy>(rng: &mut Rng, choices: &[T]) -> T {
    choices[rng.below(choices.len())]
}

/// Random JSON documents for a kind's inputs, written by their types:
/// mostly values that fit, at every depth some that don't (a value of
/// another kind, a scalar outside its type, an unknown or misspelt key),
/// keys in any order, some given twice, some spelt with escapes.
struct Documents<'k> {
    kind: &'k Kind,
    rng: Rng,
    /// Whether the last document gives a key twice in one object.
    repeated: bool,
}

impl Documents<'_> {
    fn document(&mut self) -> String {
        self.repeated = false;
        if self.rng.below(50) == 0 {
            return random_value(&mut self.rng).to_owned();
        }
        let kind = self.kind;
        self.object(
            kind.inputs
                .iter()
                .map(|i| (i.name.clone(), &i.ty))
                .collect(),
        )
    }

    /// An object holding some of `members` (name, type) in a random order,
    /// now and then one of them twice or a key that is none of them; each
    /// key as JSON writes it or with an escape.
    fn object(&mut self, mut members: Vec<(String, &Ty)>) -> String {
        for i in (1..members.len()).rev() {
            members.swap(i, self.rng.below(i + 1));
        }
        members.truncate(self.rng.below(members.len() + 1));
        if !members.is_empty() && self.rng.below(20) == 0 {
            self.repeated = true;
            members.push(members[self.rng.below(members.len())].clone());
        }
        if self.rng.below(30) == 0 {
            members.push(("x".to_owned(), &Ty::Int));
        }
        let written: Vec<String> = members
            .into_iter()
            .map(|(name, ty)| {
                let key = match self.rng.below(8) {
                    0 => escaped_key(&name),
                    _ => format!("\"{name}\""),
                };
                format!("{key}:{}", self.value(ty))
            })
            .collect();
        format!("{{{}}}", written.join(","))
    }

    fn value(&mut self, ty: &Ty) -> String {
        if self.rng.below(60) == 0 {
            return random_value(&mut self.rng).to_owned();
        }
        let kind = self.kind;
        match ty {
            Ty::Optional(inner) if self.rng.below(3) == 0 => "null".to_owned(),
            Ty::Optional(inner) => self.value(inner),
            Ty::List(_) | Ty::Map(_, _) if self.rng.below(10) == 0 => "null".to_owned(),
            Ty::List(elem) => {
                let items: Vec<String> = (0..self.rng.below(4)).map(|_| self.value(elem)).collect();
                format!("[{}]", items.join(","))
            }
            Ty::Map(key, value) => self.map(key, value),
            Ty::Struct(name) => {
                let fields = kind.struct_def(name).map_or(&[][..], |s| &s.fields);
                self.object(fields.iter().map(|f| (f.name.clone(), &f.ty)).collect())
            }
            Ty::Bool => self.scalar(&["true", "false"], &["1"]),
            Ty::Int => self.scalar(
                &["7", "-3", "0", "-0", "9223372036854775807"],
                &["1.0", "1e2"],
            ),
            Ty::Float => self.scalar(&["1.5", "-0", "2", "1e308"], &["1e309"]),
            Ty::String => self.scalar(
                &[
                    "\"\"",
                    "\"ada\"",
                    "\"<b>\"",
                    "\"a\\\"b\\u00e9\"",
                    "\"\\ud83d\"",
                ],
                &["7"],
            ),
            Ty::Duration => self.scalar(
                &["\"45m\"", "\"1h30m\"", "\"0s\""],
                &["\"\"", "\"1x\"", "\"30m1h\""],
            ),
            Ty::Timestamp => self.scalar(
                &[
                    "\"2026-09-28T14:00:00Z\"",
                    "\"2026-09-28T14:00:00.25+02:00\"",
                ],
                &["\"2026-09-28\"", "\"\""],
            ),
            Ty::Enum(_) => self.scalar(
                &["\"critical\"", "\"minor\"", "\"lab\"", "\"vault\""],
                &["\"attic\"", "\"\""],
            ),
            _ => random_value(&mut self.rng).to_owned(),
        }
    }

    /// One of `fitting`, or now and then one of `not_fitting`.
    fn scalar(&mut self, fitting: &[&str], not_fitting: &[&str]) -> String {
        let choices = if self.rng.below(12) == 0 {
            not_fitting
        } else {
            fitting
        };
        pick(&mut self.rng, choices).to_owned()
    }

    /// A map with keys from a small set per key type, so that some are
    /// given twice, some parse alike (`"3"` and `"03"`) and some don't
    /// parse.
    fn map(&mut self, key: &Ty, value: &Ty) -> String {
        let texts: &[&str] = match key {
            Ty::Int => &["3", "03", "-2", "1.5", "x"],
            Ty::Float => &["1.5", "-0", "0", "1e3", "1000", "x"],
            Ty::Bool => &["t", "true", "0", "False", "yes"],
            Ty::Duration => &["45m", "1h", "60m", "", "1x"],
            Ty::Timestamp => &["2026-09-28T12:00:00Z", "2026-09-28T14:00:00+02:00", "today"],
            Ty::Enum(_) => &["lab", "vault", "attic"],
            _ => &["a", "b", "team", "é", ""],
        };
        let mut keys: Vec<&str> = Vec::new();
        let mut written: Vec<String> = Vec::new();
        for _ in 0..self.rng.below(4) {
            let text = pick(&mut self.rng, texts);
            if keys.contains(&text) {
                self.repeated = true;
            }
            keys.push(text);
            let key = match self.rng.below(6) {
                0 => escaped_key(text),
                _ => format!("\"{text}\""),
            };
            written.push(format!("{key}:{}", self.value(value)));
        }
        format!("{{{}}}", written.join(","))
    }
}

/// `text` as a JSON string whose first character is a `\u` escape.
fn escaped_key(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("\"\\u{:04x}{}\"", u32::from(first), chars.as_str()),
        None => "\"\"".to_owned(),
    }
}

/// The straight path of eval inputs gives exactly what the full decoder
/// gives, or leaves the input to it: never a value where the full decoder
/// has an error (whose message and advice are then the full decoder's),
/// never a value the full decoder doesn't give, and it declines a
/// document the full decoder takes only when a key is given twice.
fn straight_agrees_with_full(kind_text: &str, seed: u64) {
    let kind = load_kind(kind_text);
    let mut documents = Documents {
        kind: &kind,
        rng: Rng(seed),
        repeated: false,
    };
    let (mut straight, mut errors) = (0, 0);
    for _ in 0..10_000 {
        let text = documents.document();
        let full = decode_input(&parse_json(text.as_bytes()).unwrap(), Syntax::Json, &kind);
        errors += usize::from(full.is_err());
        match decode_json_input(text.as_bytes(), &kind) {
            Some(values) => {
                straight += 1;
                assert_eq!(Ok(values), full, "{text}");
            }
            None => assert!(
                full.is_err() || documents.repeated,
                "{text}: the straight path left a plain input to the full decoder"
            ),
        }
    }
    assert!(
        straight > 3000,
        "only {straight} inputs took the straight path"
    );
    assert!(errors > 3000, "only {errors} inputs had errors");
}

#[test]
fn the_straight_path_agrees_with_the_full_decoder_on_nested_inputs() {
    straight_agrees_with_full(KIND, 0x1a2b_3c4d);
}

const SCALARS: &str = r#"kind Scalars version 1

enum Zone: lobby | lab | vault

type Pair {
  a: int
}

input n: int
input f: float
input b: bool
input s: string
input d: duration
input t: timestamp
input z: Zone
input o: ?int
input p: Pair
input l: list<?Zone>
input m: map<string, ?duration>

decision allow { reason: ok }
collect all
"#;

#[test]
fn the_straight_path_agrees_with_the_full_decoder_on_flat_inputs() {
    straight_agrees_with_full(SCALARS, 0x5eed_0001);
}

/// A plain nested input (structs, a list of lists, a map, a null optional,
/// missing keys) takes the straight path.
#[test]
fn a_nested_input_takes_the_straight_path() {
    let kind = kind();
    let text = br#"{"actor":{"name":"ada","teams":["a","b"]},"count":3,"order":{"labels":{"team":"core"},"tags":[["x"]],"owner":null}}"#;
    let values = decode_json_input(text, &kind).expect("the straight path");
    let full = decode_input(&parse_json(text).unwrap(), Syntax::Json, &kind);
    assert_eq!(Ok(values), full);
}
