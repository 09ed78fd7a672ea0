//! Values at runtime (language-core §4.4, §5.4–5.14, §6.2–6.3; tooling
//! §6.2 "Payload values"): optionals, quantifiers and filters, membership
//! and list operators, maps, durations, timestamps, patterns and enums,
//! and how payload values are written in the record.

use super::policy;

const VALS: &str = "kind Vals version 1

enum Tier: gold | silver

type Person {
  name: string
}

type Actor {
  name: string
  manager: ?Person
  nick: ?string
  teams: list<string>
}

input actor: Actor
input xs: list<int>
input words: list<string>
input labels: map<string, string>
input counts: map<string, int>
input lists: map<string, list<string>>
input tiers: map<Tier, int>
input tier: Tier
input d: duration
input t: timestamp
input u: timestamp
input s: string
input f: float

decision deny {
  reason: no_rule
}

decision allow {
  reason: yes
}

decision keep {
  reason: it
  items: list<int>
}

decision wait {
  reason: it
  span: duration
}

decision stamp {
  reason: it
  at: timestamp
}

decision table {
  reason: it
  by_num: map<int, string>
  by_span: map<duration, bool>
}

decision ratio {
  reason: it
  r: float
  label: string
}

decision show {
  reason: it
  who: ?string
  tier: Tier
}

collect one
precedence deny > allow > keep > wait > stamp > table > ratio > show

default deny(reason: no_rule)
";

/// Whether `cond` holds on `input`, failing the test on any error.
fn holds(cond: &str, input: &str) -> bool {
    let got = policy(
        VALS,
        &format!("policy p: Vals@1\n\nwhen {cond} {{\n  allow(reason: yes)\n}}\n"),
    )
    .eval(input);
    assert_eq!(got.error_kind(), None, "{cond}: {}", got.json);
    got.decision().as_deref() == Some("allow.yes")
}

/// The record's payload when `constructor` fires on `input`.
fn payload(constructor: &str, input: &str) -> String {
    let got = policy(
        VALS,
        &format!("policy p: Vals@1\n\nwhen true {{\n  {constructor}\n}}\n"),
    )
    .eval(input);
    got.at("payload")
}

#[test]
fn coalesce_takes_its_right_side_only_when_the_left_is_absent() {
    assert!(holds(r#"actor.nick ?? "none" == "none""#, "{}"));
    assert!(holds(
        r#"actor.nick ?? "none" == "al""#,
        r#"{"actor":{"nick":"al"}}"#
    ));
    assert!(
        holds(
            r#"actor.nick ?? words[3] == "al""#,
            r#"{"actor":{"nick":"al"}}"#
        ),
        "the right side is never evaluated"
    );
}

#[test]
fn present_is_true_for_any_value_even_an_empty_string() {
    assert!(holds("present actor.nick", r#"{"actor":{"nick":""}}"#));
    assert!(!holds("present actor.nick", r#"{"actor":{"nick":null}}"#));
    assert!(!holds("present actor.nick", "{}"));
}

#[test]
fn optional_chaining_makes_the_whole_chain_absent() {
    assert!(holds(
        r#"actor.manager?.name ?? "nobody" == "nobody""#,
        "{}"
    ));
    assert!(holds(
        r#"actor.manager?.name ?? "nobody" == "eve""#,
        r#"{"actor":{"manager":{"name":"eve"}}}"#
    ));
}

#[test]
fn an_absent_optional_payload_field_is_written_null() {
    assert_eq!(
        payload(
            "show(reason: it, who: actor.nick, tier: tier)",
            r#"{"tier":"gold"}"#
        ),
        r#"{"tier":"gold","who":null}"#
    );
}

#[test]
fn quantifiers_over_an_empty_list() {
    assert!(!holds("any x in xs: true", "{}"));
    assert!(holds("all x in xs: false", "{}"));
    assert!(
        holds("all x in xs: false", r#"{"xs":null}"#),
        "a null list is empty"
    );
}

#[test]
fn any_needs_one_element_and_all_needs_every_element() {
    let input = r#"{"xs":[1,2,3]}"#;
    assert!(holds("any x in xs: x == 2", input));
    assert!(!holds("any x in xs: x == 4", input));
    assert!(holds("all x in xs: x > 0", input));
    assert!(!holds("all x in xs: x > 1", input));
}

#[test]
fn a_nested_quantifier_sees_the_outer_variable() {
    let input = r#"{"words":["ops","dev"],"actor":{"teams":["dev"]}}"#;
    assert!(holds(
        "any w in words: any t2 in actor.teams: t2 == w",
        input
    ));
    assert!(!holds(
        "all w in words: any t2 in actor.teams: t2 == w",
        input
    ));
}

#[test]
fn a_filter_keeps_passing_elements_in_order_with_duplicates() {
    assert_eq!(
        payload(
            "keep(reason: it, items: filter x in xs: x > 1)",
            r#"{"xs":[3,1,2,3]}"#
        ),
        r#"{"items":[3,2,3]}"#
    );
    assert_eq!(
        payload(
            "keep(reason: it, items: filter x in xs: x > 5)",
            r#"{"xs":[3]}"#
        ),
        r#"{"items":[]}"#
    );
}

#[test]
fn in_on_strings_is_a_byte_wise_substring_test() {
    assert!(holds(r#""" in s"#, "{}"));
    assert!(holds(r#""ab" in s"#, r#"{"s":"xaby"}"#));
    assert!(!holds(r#""Ab" in s"#, r#"{"s":"xaby"}"#), "case-sensitive");
    assert!(holds(r#""ab" not in s"#, r#"{"s":"a-b"}"#));
}

#[test]
fn in_on_lists_compares_elements_structurally() {
    assert!(holds("2 in xs", r#"{"xs":[1,2]}"#));
    assert!(holds("3 not in xs", r#"{"xs":[1,2]}"#));
    assert!(holds("xs in [[0], [1, 2]]", r#"{"xs":[1,2]}"#));
    assert!(
        !holds("xs in [[2, 1]]", r#"{"xs":[1,2]}"#),
        "lists in order"
    );
}

#[test]
fn list_operators_and_their_empty_left_sides() {
    let input = r#"{"xs":[1,2]}"#;
    assert!(holds("[1, 2, 2] all in xs", input));
    assert!(!holds("[1, 3] all in xs", input));
    assert!(holds("[3, 2] any in xs", input));
    assert!(holds("[] all in xs", input));
    assert!(!holds("[] any in xs", input));
    assert!(!holds("[] one in xs", input));
    assert!(holds("[] exclusive in xs", input));
}

#[test]
fn one_in_and_exclusive_in_count_distinct_elements() {
    let input = r#"{"xs":[1,2]}"#;
    assert!(holds("[1, 1, 3] one in xs", input));
    assert!(!holds("[1, 2] one in xs", input));
    assert!(holds("[1, 1] exclusive in xs", input));
    assert!(holds("[3, 4] exclusive in xs", input));
    assert!(!holds("[1, 2] exclusive in xs", input));
}

#[test]
fn a_missing_map_key_reads_the_zero_value_of_the_value_type() {
    assert!(holds(r#"counts["x"] == 0"#, "{}"));
    assert!(holds(r#"labels["x"] == """#, r#"{"labels":{"a":"1"}}"#));
    assert!(holds(r#"[] all in lists["x"]"#, "{}"));
    assert!(holds(r#"counts["a"] == 4"#, r#"{"counts":{"a":4}}"#));
}

#[test]
fn has_tests_a_key_or_every_entry_of_a_map() {
    let input = r#"{"labels":{"team":"ops","tier":"1"}}"#;
    assert!(holds(r#"labels has "team""#, input));
    assert!(!holds(r#"labels has "owner""#, input));
    assert!(holds(r#"labels has {"team": "ops"}"#, input));
    assert!(!holds(r#"labels has {"team": "dev"}"#, input));
    assert!(!holds(r#"labels has {"team": "ops", "x": "y"}"#, input));
    assert!(holds("labels has {}", "{}"), "an empty map is always in");
}

#[test]
fn maps_are_equal_as_sets_of_entries() {
    assert!(holds(
        r#"labels in [{"b": "2", "a": "1"}]"#,
        r#"{"labels":{"a":"1","b":"2"}}"#
    ));
    assert!(!holds(
        r#"labels in [{"a": "1"}]"#,
        r#"{"labels":{"a":"1","b":"2"}}"#
    ));
}

#[test]
fn enum_keyed_maps_are_read_by_value() {
    let input = r#"{"tiers":{"gold":2}}"#;
    assert!(holds("tiers[gold] == 2", input));
    assert!(holds("tiers[Tier.silver] == 0", input));
    assert!(holds("tiers has gold", input));
    assert!(!holds("tiers has silver", input));
}

#[test]
fn the_last_duplicate_key_of_a_map_literal_wins() {
    assert!(holds(r#"{s: 1, "a": 2}["a"] == 2"#, r#"{"s":"a"}"#));
}

#[test]
fn map_payloads_write_keys_as_text_sorted_by_bytes() {
    assert_eq!(
        payload(
            r#"table(reason: it, by_num: {10: "x", 9: "y"}, by_span: {90m: true, 2h: false})"#,
            "{}"
        ),
        r#"{"by_num":{"10":"x","9":"y"},"by_span":{"1h30m":true,"2h":false}}"#
    );
}

#[test]
fn enums_compare_by_name() {
    assert!(holds("tier == gold", r#"{"tier":"gold"}"#));
    assert!(holds("tier == Tier.gold", r#"{"tier":"gold"}"#));
    assert!(holds("tier != silver", r#"{"tier":"gold"}"#));
    assert!(holds("tier in [silver, gold]", r#"{"tier":"gold"}"#));
}

#[test]
fn durations_compare_and_add_as_nanoseconds() {
    let input = r#"{"d":"1h30m"}"#;
    assert!(holds("d == 90m", input));
    assert!(holds("d + 30m == 2h", input));
    assert!(holds("d - 2h == -30m", input));
    assert!(holds("d < 1d", input));
}

#[test]
fn duration_payloads_are_written_in_canonical_form() {
    let span = |input: &str, expr: &str| payload(&format!("wait(reason: it, span: {expr})"), input);
    assert_eq!(span(r#"{"d":"1500m"}"#, "d"), r#"{"span":"1d1h"}"#);
    assert_eq!(span(r#"{"d":"24h"}"#, "d"), r#"{"span":"1d"}"#);
    assert_eq!(span(r#"{"d":"15m"}"#, "0s - d"), r#"{"span":"-15m"}"#);
    assert_eq!(span("{}", "d"), r#"{"span":"0s"}"#);
    assert_eq!(
        span(
            r#"{"t":"2026-01-01T00:00:00.0015Z","u":"2026-01-01T00:00:00Z"}"#,
            "t - u"
        ),
        r#"{"span":"1ms+500000ns"}"#
    );
}

#[test]
fn timestamps_are_equal_by_instant_whatever_their_zone() {
    let input = r#"{"t":"2026-09-28T14:00:00Z","u":"2026-09-28T16:00:00+02:00"}"#;
    assert!(holds("t == u", input));
    assert!(holds("t <= u and t >= u", input));
}

#[test]
fn timestamp_arithmetic_with_durations() {
    let input = r#"{"t":"2026-09-28T14:00:00Z","u":"2026-09-28T15:30:00Z"}"#;
    assert!(holds("t < u", input));
    assert!(holds("t + 90m == u", input));
    assert!(holds("u - 90m == t", input));
    assert!(holds("u - t == 1h30m", input));
    assert!(holds("t - u == -1h30m", input));
}

#[test]
fn timestamp_differences_saturate_instead_of_failing() {
    let input = r#"{"t":"0001-01-01T00:00:00Z","u":"9999-12-31T00:00:00Z"}"#;
    assert!(holds("t - u < -106751d", input));
    assert!(holds("u - t > 106751d", input));
}

#[test]
fn timestamp_payloads_are_written_in_utc_without_trailing_zeros() {
    let at = |input: &str| payload("stamp(reason: it, at: t)", input);
    assert_eq!(
        at(r#"{"t":"2026-09-28T16:00:00.250+02:00"}"#),
        r#"{"at":"2026-09-28T14:00:00.25Z"}"#
    );
    assert_eq!(
        at(r#"{"t":"2026-09-28T14:00:00Z"}"#),
        r#"{"at":"2026-09-28T14:00:00Z"}"#
    );
    assert_eq!(
        at("{}"),
        r#"{"at":"0001-01-01T00:00:00Z"}"#,
        "the zero value"
    );
}

#[test]
fn like_matches_the_whole_string_and_its_wildcards_skip_newlines() {
    assert!(holds(r#"s like "a*c""#, r#"{"s":"abbc"}"#));
    assert!(!holds(r#"s like "a*""#, r#"{"s":"xa"}"#));
    assert!(holds(r#"s like "a?c""#, r#"{"s":"abc"}"#));
    assert!(holds(r#"s like "[a].""#, r#"{"s":"[a]."}"#));
    assert!(!holds(r#"s like "a*""#, r#"{"s":"a\nb"}"#));
}

#[test]
fn matches_is_an_unanchored_regular_expression() {
    assert!(holds(r#"s matches "b+""#, r#"{"s":"abbc"}"#));
    assert!(!holds(r#"s matches "^b""#, r#"{"s":"abbc"}"#));
}

#[test]
fn float_overflow_is_no_runtime_error() {
    assert!(holds("f + f > f", r#"{"f":1.7e308}"#));
}

#[test]
fn strings_compare_byte_wise_and_case_sensitively() {
    assert!(holds(r#"s == "Ab""#, r#"{"s":"Ab"}"#));
    assert!(!holds(r#"s == "ab""#, r#"{"s":"Ab"}"#));
}

#[test]
fn float_payloads_are_written_as_go_formats_them() {
    let ratio = |input: &str| payload("ratio(reason: it, r: f, label: s)", input);
    assert_eq!(ratio(r#"{"f":2.0}"#), r#"{"label":"","r":2}"#);
    assert_eq!(ratio(r#"{"f":0.25}"#), r#"{"label":"","r":0.25}"#);
    assert_eq!(ratio(r#"{"f":1e21}"#), r#"{"label":"","r":1e+21}"#);
    assert_eq!(ratio(r#"{"f":0.0000001}"#), r#"{"label":"","r":1e-7}"#);
}

#[test]
fn payload_strings_escape_html_characters_as_go_does() {
    let got = policy(
        VALS,
        "policy p: Vals@1\n\nwhen true {\n  ratio(reason: it, r: 0.5, label: s)\n}\n",
    )
    .eval(r#"{"s":"<a & b>"}"#);
    assert!(
        got.json
            .starts_with(r#"{"payload":{"label":"\u003ca \u0026 b\u003e","#),
        "{}",
        got.json
    );
}
