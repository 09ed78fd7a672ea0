//! Expressions: one diagnostic per rule of language-core §8.3, and the
//! types of well-typed expressions.

use super::check_one;

/// `(expression, underlined text, message, help)`.
const ERRORS: &[(&str, &str, &str, &str)] = &[
    // names and values
    (
        "atempts",
        "atempts",
        "unknown name `atempts`",
        "did you mean `attempts`?",
    ),
    (
        "qqq",
        "qqq",
        "unknown name `qqq`",
        "names come from the kind's inputs, host functions, decisions and enum values, and the document's params, lets and imports",
    ),
    (
        "lower",
        "lower",
        "`lower` is a host function, not a value",
        "call it with its arguments; it's declared as: fn lower(string) -> string",
    ),
    (
        "deny",
        "deny",
        "`deny` is a decision, not a value here",
        "to produce the decision, construct it inside a rule: `when <condition> { deny(reason: <reason>) }`; its bare name is only a value in an assert condition",
    ),
    (
        "outcome",
        "outcome",
        "`outcome` can only be read in an assert condition",
        "a rule that read its own outcome could fire exactly when it doesn't; only `assert` conditions may read it",
    ),
    (
        "Zone",
        "Zone",
        "Zone is an enum type",
        "name one of its values, such as `Zone.lobby`",
    ),
    (
        "zone == vualt",
        "vualt",
        "Zone has no value `vualt`",
        "did you mean `vault`? Zone declares: lobby, lab, vault",
    ),
    (
        "Zone.lobyy",
        "lobyy",
        "Zone has no value `lobyy`",
        "did you mean `lobby`? Zone declares: lobby, lab, vault",
    ),
    (
        "lab",
        "lab",
        "`lab` is a value of Tier and Zone",
        "write `Zone.lab` or `Tier.lab`",
    ),
    (
        "Zone?.lab",
        "lab",
        "`Zone` isn't optional",
        "write `Zone.lab`; `?.` reads a field of an optional struct",
    ),
    (
        "[]",
        "[]",
        "cannot infer the type of `[]`",
        "add an element, or use the literal where a typed list or map is expected",
    ),
    // comparisons
    (
        "attempts == 3.0",
        "attempts == 3.0",
        "`==` needs operands of the same type, found int and float",
        "int and float don't convert implicitly",
    ),
    (
        "badge.valid_for > 30",
        "badge.valid_for > 30",
        "`>` needs operands of the same type, found duration and int",
        "a bare number is never a duration; write a literal like `30m`",
    ),
    (
        "zone == \"lab\"",
        "zone == \"lab\"",
        "`==` needs operands of the same type, found Zone and string",
        "an enum value is a bare name; write `lab`",
    ),
    (
        "zone == \"lbb\"",
        "zone == \"lbb\"",
        "`==` needs operands of the same type, found Zone and string",
        "an enum value is a bare name; did you mean `lab`? Zone declares: lobby, lab, vault",
    ),
    (
        "zone == \"upstairs\"",
        "zone == \"upstairs\"",
        "`==` needs operands of the same type, found Zone and string",
        "an enum value is a bare name; Zone declares: lobby, lab, vault",
    ),
    (
        "tier == Zone.lab",
        "tier == Zone.lab",
        "`==` needs operands of the same type, found Tier and Zone",
        "Tier declares lab too; write `Tier.lab`, or `lab`",
    ),
    (
        "badge.pin_age > 1h",
        "badge.pin_age",
        "`>` can't compare ?duration; unwrap it first",
        "unwrap it with `??`, like `badge.pin_age ?? <default>`",
    ),
    (
        "badge.groups != []",
        "badge.groups != []",
        "`!=` isn't defined for list<string>",
        "lists have no `!=`; to test that `badge.groups` isn't empty, write `any x in badge.groups: true`, or call a host function such as `len` if the kind declares one",
    ),
    (
        "badge.people == []",
        "badge.people == []",
        "`==` isn't defined for list<Person>",
        "lists have no `==`; to test that `badge.people` is empty, write `not (any x in badge.people: true)`, or call a host function such as `len` if the kind declares one",
    ),
    (
        "badge.attrs == {}",
        "badge.attrs == {}",
        "`==` isn't defined for map<string, string>",
        "maps have no `==`; test for a key with `has`, or for emptiness with a host function such as `len` if the kind declares one",
    ),
    (
        "badge.escort == badge.escort",
        "badge.escort == badge.escort",
        "`==` isn't defined for ?Person",
        "lists, maps and structs can't be compared yet",
    ),
    (
        "zone < lab",
        "zone < lab",
        "`<` isn't defined for Zone",
        "an enum's values have no order; test them with `==` or `in`",
    ),
    (
        "badge.holder < \"b\"",
        "badge.holder < \"b\"",
        "`<` isn't defined for string",
        "only int, float, duration and timestamp are ordered",
    ),
    // membership and list operators
    (
        "\"floor\" in badge.attrs",
        "\"floor\" in badge.attrs",
        "`in` doesn't apply to a map; a key is tested with `has`",
        "write `badge.attrs has \"floor\"`",
    ),
    (
        "\"floor\" not in badge.attrs",
        "\"floor\" not in badge.attrs",
        "`not in` doesn't apply to a map; a key is tested with `has`",
        "write `not badge.attrs has \"floor\"`",
    ),
    (
        "attempts in \"abc\"",
        "attempts in \"abc\"",
        "`in` needs a string on the left of a string, found int",
        "`in` on a string tests for a substring",
    ),
    (
        "attempts in attempts",
        "attempts",
        "`in` needs a list, map or string on the right, found int",
        "",
    ),
    // the left hints the list literal with list<?duration>, so the element is reported (§4.9)
    (
        "badge.pin_age in [1h]",
        "1h",
        "expected ?duration, found duration",
        "",
    ),
    (
        "badge.pin_age in badge.people",
        "badge.pin_age in badge.people",
        "`in` needs an element of the list's type, found ?duration in list<Person>",
        "",
    ),
    (
        "badge.people[0] in badge.people",
        "badge.people[0] in badge.people",
        "`in` can't compare elements of type Person",
        "structs have no equality; compare a field that identifies them, such as a name",
    ),
    (
        "[] in []",
        "[] in []",
        "cannot infer the type of `([] in [])`",
        "add an element, or use it where a typed list is expected",
    ),
    (
        "badge.zones all in [\"lab\"]",
        "\"lab\"",
        "expected Zone, found string",
        "an enum value is a bare name; write `lab`",
    ),
    (
        "badge.zones all in badge.groups",
        "badge.zones all in badge.groups",
        "`all in` needs lists of one element type, found list<Zone> and list<string>",
        "",
    ),
    (
        "attempts any in badge.groups",
        "attempts",
        "`any in` needs lists on both sides, found int",
        "",
    ),
    (
        "[] one in []",
        "[] one in []",
        "cannot infer the type of `([] one in [])`",
        "add an element, or use it where a typed list is expected",
    ),
    // has
    (
        "zone has lab",
        "zone",
        "`has` needs a map on the left, found Zone",
        "",
    ),
    (
        "badge.limits has \"x\"",
        "\"x\"",
        "`has` needs map<Zone, int> or a key of type Zone, found string",
        "",
    ),
    (
        "badge.attrs has {floor: \"3\"}",
        "floor",
        "unknown name `floor`",
        "a map key is an expression, so `floor` reads as a name; for the string key, write `\"floor\"`",
    ),
    (
        "badge.attrs has {\"floor\": 3}",
        "3",
        "expected string, found int",
        "",
    ),
    // patterns
    (
        "badge.holder like lower(\"x\")",
        "lower(\"x\")",
        "the pattern after `like` must be a string literal",
        "patterns compile once, when the policy loads, so they can't be computed",
    ),
    (
        "attempts like \"a*\"",
        "attempts",
        "expected string, found int",
        "",
    ),
    (
        "badge.holder matches \"(\"",
        "\"(\"",
        "invalid regular expression: error parsing regexp: missing closing ): `(`",
        "patterns are RE2 regular expressions, as Go's regexp package reads them",
    ),
    (
        "badge.holder matches (`a**`)",
        "`a**`",
        "invalid regular expression: error parsing regexp: invalid nested repetition operator: `**`",
        "patterns are RE2 regular expressions, as Go's regexp package reads them",
    ),
    // optionals
    (
        "attempts ?? 1",
        "attempts",
        "`??` needs an optional on the left, found int",
        "only an optional (`?T`) value needs a default; this one is always present",
    ),
    (
        "badge.pin_age ?? 5",
        "5",
        "expected duration, found int",
        "a bare number is never a duration; write a literal like `30m`",
    ),
    (
        "present badge.holder",
        "badge.holder",
        "`badge.holder` is string, which is always present",
        "only an optional value can be absent",
    ),
    (
        "badge.escort.name == \"x\"",
        "name",
        "`badge.escort` is ?Person, which may be absent",
        "read the field with `badge.escort?.name`",
    ),
    (
        "badge.holder?.x",
        "x",
        "`badge.holder` isn't optional",
        "read the field with `badge.holder.x`; `?.` is for a struct that may be absent",
    ),
    (
        "badge.pin_age?.x",
        "x",
        "`badge.pin_age` holds duration, which has no fields",
        "",
    ),
    (
        "badge.escort?.name == \"x\"",
        "badge.escort?.name",
        "`==` can't compare ?string; unwrap it first",
        "unwrap it with `??`, like `badge.escort?.name ?? <default>`",
    ),
    // arithmetic
    (
        "-badge.holder",
        "-badge.holder",
        "`-` needs int, float or duration, found string",
        "",
    ),
    (
        "-badge.pin_age",
        "-badge.pin_age",
        "`-` needs int, float or duration, found ?duration",
        "unwrap it with `??`, like `badge.pin_age ?? <default>`",
    ),
    (
        "badge.holder + \"x\"",
        "badge.holder + \"x\"",
        "`+` isn't defined for string and string",
        "there is no string concatenation",
    ),
    (
        "badge.valid_for + 1",
        "badge.valid_for + 1",
        "`+` isn't defined for duration and int",
        "a bare number is never a duration; write a literal like `30m`",
    ),
    (
        "now + now",
        "now + now",
        "`+` isn't defined for timestamp and timestamp",
        "`+` and `-` work on int, float and duration, and on a timestamp with a duration",
    ),
    // fields, indexes, calls
    (
        "badge.holdr == \"Ada\"",
        "holdr",
        "unknown field \"holdr\" on type Badge",
        "did you mean \"holder\"? Badge declares: holder, zones, groups, attrs, limits, issued_at, valid_for, escort, pin_age, people",
    ),
    (
        "badge.holder.size",
        "size",
        "`badge.holder` is string, which has no fields",
        "",
    ),
    (
        "badge.holder[0]",
        "badge.holder",
        "`badge.holder` is string, which can't be indexed",
        "",
    ),
    (
        "badge.people[\"a\"]",
        "\"a\"",
        "expected int, found string",
        "",
    ),
    ("badge.limits[1]", "1", "expected Zone, found int", ""),
    ("lower(1)", "1", "expected string, found int", ""),
    (
        "lower(\"a\", \"b\")",
        "lower(\"a\", \"b\")",
        "`lower` takes 1 argument, found 2",
        "it's declared as: fn lower(string) -> string",
    ),
    (
        "score(lab)",
        "score(lab)",
        "`score` takes 2 arguments, found 1",
        "it's declared as: fn score(Zone, int) -> float",
    ),
    (
        "nope(1)",
        "nope",
        "unknown function `nope`",
        "policies can only call the host functions the kind declares",
    ),
    (
        "lowr(\"a\")",
        "lowr",
        "unknown function `lowr`",
        "did you mean `lower`?",
    ),
    (
        "attempts(1)",
        "attempts",
        "`attempts` is an input, not a function",
        "policies can only call the host functions the kind declares",
    ),
    (
        "(lower)(\"a\")",
        "(lower)",
        "`(lower)` isn't a function",
        "policies can only call the host functions the kind declares",
    ),
    // quantifiers and filters
    (
        "any p in badge.attrs: true",
        "badge.attrs",
        "`any` needs a list to range over, found map<string, string>",
        "quantifiers range over lists; to test a map's keys, index it or use `has` on map<string, string>",
    ),
    (
        "filter p in attempts: true",
        "attempts",
        "`filter` needs a list to range over, found int",
        "a filter ranges over a list",
    ),
    (
        "all p in badge.escort: true",
        "badge.escort",
        "`all` needs a list to range over, found ?Person",
        "unwrap it with `??`, like `badge.escort ?? <default>`",
    ),
    (
        "any zone in badge.zones: true",
        "zone",
        "`zone` is already the name of an input",
        "nothing shadows anything; pick a name that isn't in use",
    ),
    (
        "any z in badge.zones: any z in badge.zones: true",
        "z",
        "`z` is already the name of a quantifier variable",
        "nothing shadows anything; pick a name that isn't in use",
    ),
    (
        "any z in badge.zones: z",
        "z",
        "expected bool, found Zone",
        "",
    ),
    // literals
    (
        "[1, \"a\"] == []",
        "\"a\"",
        "expected int, found string",
        "every element of a list has the same type",
    ),
    (
        "{badge: 1}",
        "badge",
        "Badge can't be a map key",
        "map keys are bool, int, float, string, duration, timestamp or an enum",
    ),
    (
        "{\"a\": Zone.lab}",
        "Zone.lab",
        "an enum can't be a map value",
        "a missing key would read as the zero value, and an enum has none; key the map by the enum instead, or use a list",
    ),
    (
        "{\"a\": 1, 2: 1}",
        "2",
        "expected string, found int",
        "every key of a map has the same type",
    ),
    (
        "{\"a\": 1, \"b\": \"c\"}",
        "\"c\"",
        "expected int, found string",
        "every value of a map has the same type",
    ),
    // boolean operators report each operand
    ("not attempts", "attempts", "expected bool, found int", ""),
];

#[test]
fn every_type_error_has_its_message_help_and_span() {
    let mut failures = Vec::new();
    for (src, underlined, message, help) in ERRORS {
        let (_, got) = check_one(src);
        let want = format!("{underlined}: {message} | {help}");
        if got != [want.clone()] {
            failures.push(format!("{src}\n  want {want}\n  got  {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `(expression, type)`.
const TYPES: &[(&str, &str)] = &[
    ("lab == zone", "bool"),
    ("zone == lab", "bool"),
    ("tier == lab", "bool"),
    ("zone in [lab, vault]", "bool"),
    ("[lab, Zone.vault]", "list<Zone>"),
    ("badge.limits[lab]", "int"),
    ("badge.limits has vault", "bool"),
    ("badge.limits has {lab: 1}", "bool"),
    ("score(lab, 1)", "float"),
    ("badge.escort?.name", "?string"),
    ("badge.escort?.name ?? \"\"", "string"),
    ("(badge.escort?.name ?? \"x\") == \"x\"", "bool"),
    ("present badge.escort", "bool"),
    ("now - now", "duration"),
    ("now + 1h - badge.valid_for", "timestamp"),
    ("-badge.valid_for", "duration"),
    ("filter z in badge.zones: z == lab", "list<Zone>"),
    ("badge.zones any in []", "bool"),
    ("[] all in badge.groups", "bool"),
    ("[[], [1]]", "list<list<int>>"),
    ("{\"a\": [], \"b\": [1h]}", "map<string, list<duration>>"),
    ("badge.people[0].name", "string"),
    ("\"a\" in badge.holder", "bool"),
    ("badge.attrs has {\"k\": \"v\"}", "bool"),
    ("badge.attrs has \"k\"", "bool"),
    ("risk > 0.5 xor attempts > 3", "bool"),
];

#[test]
fn well_typed_expressions_have_their_types() {
    let mut failures = Vec::new();
    for (src, want) in TYPES {
        let (ty, diagnostics) = check_one(src);
        if ty != *want || !diagnostics.is_empty() {
            failures.push(format!("{src}: want {want}, got {ty} {diagnostics:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn both_operands_of_a_boolean_operator_report() {
    let (_, got) = check_one("attempts and risk");
    assert_eq!(
        got,
        [
            "attempts: expected bool, found int | ",
            "risk: expected bool, found float | "
        ]
    );
}

#[test]
fn a_long_chain_is_checked_without_deep_recursion() {
    crate::testing::on_small_stack(|| {
        let src = vec!["attempts > 1"; 20_000].join(" or ");
        let (ty, diagnostics) = check_one(&src);
        assert_eq!((ty.as_str(), diagnostics.len()), ("bool", 0));
    });
}
