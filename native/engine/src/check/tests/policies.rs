//! Documents and statements: pins, names, params, lets, constructors,
//! invocations and asserts (language-policies §3).

use super::check_policy;

/// `(policy source, expected diagnostics)`.
const CASES: &[(&str, &[&str])] = &[
    (
        "policy a: Gate\n",
        &[
            "Gate: `Gate` needs a version | pin the kind version the document was written against, like `Gate@2`",
        ],
    ),
    (
        "policy a: Gate@3\n",
        &[
            "3: Gate@3 is newer than the kind, which is at version 2 | the kind is older than the document; check the document against this version and lower the pin",
        ],
    ),
    (
        "policy a: Gate@2\nlet zone = 1\n",
        &[
            "zone: `zone` is already the name of an input | every name in a document means one thing; rename one of them",
        ],
    ),
    (
        "policy a: Gate@1\nlet zone = 1\nwhen zone == 1 { allow(reason: member) }\n",
        &[],
    ),
    (
        "policy a: Gate@2\nlet a = b\nlet b = a\nwhen a { allow(reason: member) }\n",
        &[
            "a: let `a` depends on itself | lets form a directed acyclic graph; a let can't depend on itself, even through other lets",
        ],
    ),
    (
        "policy a: Gate@2\nwhen b { allow(reason: member) }\nlet b = attempts > 1\n",
        &[],
    ),
    (
        "policy a: Gate@2\nwhen true { let s = 1 }\nwhen s == 1 { allow(reason: member) }\n",
        &[
            "s: unknown name `s` | names come from the kind's inputs, host functions, decisions and enum values, and the document's params, lets and imports",
        ],
    ),
    (
        "policy a: Gate@2\nwhen true { let s = 1 }\nwhen true { let s = 2 }\n",
        &[
            "s: `s` is already the name of a let in another `when` body | let names are unique in a document, so a trace can name each one; rename one of them",
        ],
    ),
    (
        "policy a: Gate@2\nwhen attempts > 1 { let s = 2\n when s > 1 { allow(reason: member) } }\n",
        &[],
    ),
    (
        "policy a: Gate@2\nlet l = []\n",
        &[
            "[]: cannot infer the type of `[]` | add an element, or use the literal where a typed list or map is expected",
        ],
    ),
    // params
    (
        "policy a: Gate@2\nparam p: ?int\n",
        &[
            "?int: a param can't be optional | an optional param is a param with a default; write `param p: int = <default>`",
        ],
    ),
    (
        "policy a: Gate@2\nparam p: string = \"a\", min: \"b\"\n",
        &[
            "\"b\": a param of type string can't have bounds | bounds apply to int, float and duration params",
        ],
    ),
    (
        "policy a: Gate@2\nparam p: int = 5, min: 1, max: 3\n",
        &["5: default 5 is above the maximum 3 | a default has to be a value the param accepts"],
    ),
    (
        "policy a: Gate@2\nparam p: int = 0, min: 1, max: 3\n",
        &["0: default 0 is below the minimum 1 | a default has to be a value the param accepts"],
    ),
    (
        "policy a: Gate@2\nparam p: int, min: 3, max: 1\n",
        &["1: max 1 is below min 3 | "],
    ),
    (
        "policy a: Gate@2\nparam p: int = 2, min: 1, max: 3\nwhen attempts > p { allow(reason: member) }\n",
        &[],
    ),
    (
        "policy a: Gate@2\nparam p: int\npub let q = p + 1\n",
        &[
            "q: let `q` can't be `pub`: it reads param `p` | a param has no value outside an invocation; move the let to a module, or drop `pub`",
        ],
    ),
    // constructors
    (
        "policy a: Gate@2\ndeny(reason: expired)\n",
        &[
            "deny: decision constructors go inside a `when` block | a constructor here would fire for every input; wrap it in `when true { deny(...) }` if that's what you mean",
        ],
    ),
    (
        "policy a: Gate@2\nwhen true { deny() }\n",
        &[
            "deny(): decision deny needs a reason | write `deny(reason: <reason>)`; deny declares: expired, wrong_zone, fallback",
        ],
    ),
    (
        "policy a: Gate@2\nwhen true { deny(reason: expird) }\n",
        &[
            "expird: decision deny has no reason `expird` | did you mean `expired`? deny declares: expired, wrong_zone, fallback",
        ],
    ),
    (
        "policy a: Gate@2\nwhen true { deny(reason: \"expired\") }\n",
        &[
            "\"expired\": decision reason must be a bare name | reasons are declared names, not strings; write `reason: expired`",
        ],
    ),
    (
        "policy a: Gate@2\nwhen true { deny(reason: deny.expired) }\n",
        &["deny.expired: a reason is a bare name | write `reason: expired`"],
    ),
    (
        "policy a: Gate@2\nwhen true { deny(expired) }\n",
        &["expired: the reason is a named argument | write `deny(reason: expired)`"],
    ),
    (
        "policy a: Gate@2\nwhen true { deny(reason: expired, reason: expired) }\n",
        &["reason: field \"reason\" is given twice | give the reason once"],
    ),
    (
        "policy a: Gate@2\nwhen true { allow(reason: member, hold_opn: 1s) }\n",
        &[
            "hold_opn: decision allow has no payload field \"hold_opn\" | did you mean \"hold_open\"? allow takes reason: member | escorted, and hold_open: duration = 5s",
        ],
    ),
    (
        "policy a: Gate@2\nwhen true { allow(reason: member, hold_open: 1) }\n",
        &[
            "1: expected duration, found int | a bare number is never a duration; write a literal like `30m`",
        ],
    ),
    (
        "policy a: Gate@2\nwhen true { review(reason: manual) }\n",
        &[
            "review(reason: manual): decision review needs field \"approvers\" | review takes reason: manual, and approvers: list<string>",
        ],
    ),
    (
        "policy a: Gate@2\nwhen true { review(reason: manual, approvers: []) }\n",
        &[],
    ),
    (
        "policy a: Gate@2\nwhen true { revew(reason: manual) }\n",
        &["revew: unknown decision `revew` | did you mean `review`?"],
    ),
    (
        "policy a: Gate@2\nwhen true { attempts(reason: manual) }\n",
        &[
            "attempts: `attempts` is an input, not a decision | only the kind's decisions can be constructed, and only imported policies invoked",
        ],
    ),
    (
        "policy a: Gate@2\nassert(\"x\", any r in outcome.alow: true)\n",
        &[
            "alow: the kind declares no decision `alow` | did you mean `allow`? `outcome.<decision>` reads the candidates of one decision; the kind declares: allow, deny, review",
        ],
    ),
    // asserts
    (
        "policy a: Gate@2\nassert(\"\", true)\n",
        &[
            "\"\": an assert's reason can't be empty | the reason is a stable identifier for metrics and grep, like `sod_customer_dev`",
        ],
    ),
    (
        "policy a: Gate@2\nassert(\"x\", deny in outcome and deny.expired not in outcome)\n",
        &[],
    ),
    (
        "policy a: Gate@2\nassert(\"x\", deny.expird in outcome)\n",
        &[
            "expird: decision deny has no reason `expird` | did you mean `expired`? deny declares: expired, wrong_zone, fallback",
        ],
    ),
    (
        "policy a: Gate@2\nassert(\"x\", all r in outcome.review: r.approvrs == [])\n",
        &[
            "approvrs: unknown field \"approvrs\" on a review candidate | did you mean \"approvers\"? a review candidate has: approvers, reason",
        ],
    ),
    (
        "policy a: Gate@2\nassert(\"x\", all r in outcome.allow.member: r.hold_open < 1h)\n",
        &[],
    ),
    (
        "policy a: Gate@2\nassert(\"x\", outcome.allow[0] in outcome)\n",
        &[
            "outcome.allow: `outcome.allow` is a list of candidates, which can't be indexed | the order of candidates isn't part of the outcome; test every one with `all x in outcome.allow: ...`, or `any`",
        ],
    ),
    (
        "policy a: Gate@2\nassert(\"x\", any r in outcome.allow.hold_open: true)\n",
        &[
            "hold_open: decision allow has no reason `hold_open` | `hold_open` is a field of each candidate, not of the list; read it per candidate, like `all x in outcome.allow: x.hold_open ...`",
        ],
    ),
    (
        "policy a: Gate@2\nassert(\"x\", deny.expired.x in outcome)\n",
        &[
            "x: `deny.expired` is a decision value, not a decision's name, so `.x` names no reason | compare the whole value instead, like `deny.expired == deny.x`, or test it with `in`",
        ],
    ),
];

#[test]
fn every_statement_rule_has_its_diagnostic() {
    let mut failures = Vec::new();
    for (src, want) in CASES {
        let got = check_policy(src);
        if got != *want {
            failures.push(format!("{src}\n  want {want:?}\n  got  {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
