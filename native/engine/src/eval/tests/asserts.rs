//! Asserts (language-policies §3.7, §7.2, §7.3, §7.7, §7.8, §8.3): input
//! asserts before the rules, outcome asserts after resolution, what a
//! failure reports and falls back to, and which phase evaluates a block.

use super::{GRANTS, Record, policy};

/// A `collect one` kind with a host function nothing implements.
const CHANGE: &str = "kind Change version 1

input n: int
input xs: list<int>

fn lookup(string) -> string

decision deny {
  reason: risky | no_rule
}

decision review {
  reason: owner | peer
  who: string = \"anyone\"
}

decision allow {
  reason: member
}

collect one
precedence deny > review > allow
precedence review: owner > peer

default deny(reason: no_rule)
";

/// The help of every assertion failure.
const ASSERTION_HELP: &str = "the input breaks an assert of the policy; if the input is right, the policy's assumption is wrong";

/// Evaluates `body` (the policy after its header) against [`CHANGE`].
fn change(body: &str, input: &str) -> Record {
    policy(CHANGE, &format!("policy p: Change@1\n\n{body}")).eval(input)
}

#[test]
fn a_failing_input_assert_stops_before_the_rules_and_falls_back() {
    let got = change(
        "assert(\"positive\", n == 1)\n\nwhen true {\n  allow(reason: member)\n}\n",
        "{}",
    );
    assert_eq!(
        got.json,
        format!(
            r#"{{"error":{{"kind":"assertion","phase":"input","message":"assertions failed: \"positive\"","help":"{ASSERTION_HELP}","asserts":[{{"reason":"positive","policy":"p","position":"p.sigil:3:1"}}]}},"policy":"p","decision":"deny","reason":"no_rule","outcome":[{{"decision":"deny","reason":"no_rule"}}],"trace":[]}}"#
        )
    );
}

#[test]
fn a_passing_input_assert_changes_nothing() {
    let got = change(
        "assert(\"positive\", n == 1)\n\nwhen true {\n  allow(reason: member)\n}\n",
        r#"{"n":1}"#,
    );
    assert_eq!(got.error_kind(), None);
    assert_eq!(got.decision().as_deref(), Some("allow.member"));
}

#[test]
fn every_failing_input_assert_is_reported_in_position_order() {
    let got = change(
        "when true {\n  assert(\"a\", n == 1)\n  assert(\"holds\", true)\n}\n\nassert(\"b\", n == 2)\n",
        "{}",
    );
    assert_eq!(got.at("error.message"), r#"assertions failed: "a", "b""#);
    assert_eq!(got.at("error.asserts.0.position"), "p.sigil:4:3");
    assert_eq!(got.at("error.asserts.1.position"), "p.sigil:8:1");
    assert_eq!(got.get("error.asserts.2"), None);
}

#[test]
fn an_assert_under_a_false_condition_is_not_checked() {
    let got = change("when n == 1 {\n  assert(\"never\", false)\n}\n", "{}");
    assert_eq!(got.error_kind(), None, "{}", got.json);
    assert_eq!(got.decision().as_deref(), Some("deny.no_rule"));
}

#[test]
fn an_assert_whose_condition_raises_fails_with_the_error_as_its_cause() {
    let got = change("assert(\"third\", xs[2] == 0)\n", r#"{"xs":[1]}"#);
    assert_eq!(got.at("error.kind"), "assertion");
    assert_eq!(got.at("error.phase"), "input");
    assert_eq!(
        got.at("error.asserts.0"),
        r#"{"reason":"third","policy":"p","position":"p.sigil:3:1","cause":"p.sigil:3:17: index 2 out of range for a list of 1"}"#,
        "no help: the runtime error has no advice of its own"
    );
}

#[test]
fn a_cause_with_its_own_advice_carries_it_as_help() {
    let got = change("assert(\"known\", lookup(\"x\") == \"y\")\n", "{}");
    assert_eq!(
        got.at("error.asserts.0.cause"),
        "p.sigil:3:17: host function lookup failed: no implementation in this sigil binary"
    );
    assert_eq!(
        got.at("error.asserts.0.help"),
        "this sigil binary has only lookup's signature from the kind file; stub it with `stubs:` in the test file or `--stub lookup=VALUE` on sigil eval, or evaluate with a host binary built with sigil's pkg/cli, which links the real function in"
    );
}

#[test]
fn a_raising_enclosing_condition_fails_every_assert_beneath_it() {
    let got = change(
        "when xs[2] == 0 {\n  assert(\"a\", true)\n  when true {\n    assert(\"b\", true)\n  }\n}\n\nwhen true {\n  allow(reason: member)\n}\n",
        r#"{"xs":[1]}"#,
    );
    assert_eq!(got.at("error.kind"), "assertion", "not a runtime failure");
    assert_eq!(got.at("error.message"), r#"assertions failed: "a", "b""#);
    let cause = "p.sigil:3:6: index 2 out of range for a list of 1";
    assert_eq!(got.at("error.asserts.0.cause"), cause);
    assert_eq!(got.at("error.asserts.1.cause"), cause);
    assert_eq!(got.trace(), Vec::<String>::new(), "no rule ran");
}

#[test]
fn a_block_without_asserts_is_not_evaluated_in_the_assert_phase() {
    let got = change(
        "assert(\"holds\", true)\n\nwhen xs[2] == 0 {\n  allow(reason: member)\n}\n",
        r#"{"xs":[1]}"#,
    );
    assert_eq!(
        got.at("error"),
        r#"{"kind":"runtime","message":"p.sigil:5:6: index 2 out of range for a list of 1","help":"fix the expression the runtime error points at, or the input it read"}"#,
        "the rules phase raised it, so it is a runtime failure"
    );
}

#[test]
fn an_assert_that_mentions_outcome_anywhere_runs_after_resolution() {
    let got = change("assert(\"late\", n == 1 or allow in outcome)\n", "{}");
    assert_eq!(got.at("error.phase"), "outcome");
}

#[test]
fn a_failing_outcome_assert_keeps_the_trace_and_falls_back_to_the_default() {
    let got = change(
        "when n == 1 {\n  review(reason: peer, who: \"bo\")\n  allow(reason: member)\n}\n\nassert(\"no peer review\", review.peer not in outcome)\n",
        r#"{"n":1}"#,
    );
    assert_eq!(
        got.json,
        format!(
            concat!(
                r#"{{"error":{{"kind":"assertion","phase":"outcome","message":"assertions failed: \"no peer review\"","help":"{}","#,
                r#""asserts":[{{"reason":"no peer review","policy":"p","position":"p.sigil:8:1","outcome":[{{"payload":{{"who":"bo"}},"decision":"review","reason":"peer","policy":"p","position":"p.sigil:4:3","conditions":["n == 1"]}}]}}]}},"#,
                r#""policy":"p","decision":"deny","reason":"no_rule","outcome":[{{"decision":"deny","reason":"no_rule"}}],"#,
                r#""trace":[{{"payload":{{"who":"bo"}},"decision":"review","reason":"peer","policy":"p","position":"p.sigil:4:3","conditions":["n == 1"]}},{{"decision":"allow","reason":"member","policy":"p","position":"p.sigil:5:3"}}]}}"#
            ),
            ASSERTION_HELP
        )
    );
}

#[test]
fn outcome_holds_the_default_when_nothing_fired() {
    let assert = "assert(\"defaulted\", deny.no_rule in outcome)\n";
    let nothing = change(assert, "{}");
    assert_eq!(nothing.error_kind(), None, "{}", nothing.json);
    let fired = change(
        &format!("{assert}\nwhen true {{\n  allow(reason: member)\n}}\n"),
        "{}",
    );
    assert_eq!(fired.at("error.phase"), "outcome");
}

#[test]
fn a_failed_assert_reads_no_outcome_entries_when_the_outcome_was_the_default() {
    let got = change("assert(\"allowed\", allow in outcome)\n", "{}");
    assert_eq!(
        got.at("error.asserts.0"),
        r#"{"reason":"allowed","policy":"p","position":"p.sigil:3:1"}"#
    );
}

#[test]
fn a_bare_decision_in_outcome_matches_any_of_its_reasons() {
    let got = change(
        "when true {\n  review(reason: owner)\n}\n\nassert(\"reviewed\", review in outcome)\nassert(\"exact\", review.owner in outcome)\nassert(\"other\", not (review.peer in outcome))\n",
        "{}",
    );
    assert_eq!(got.error_kind(), None, "{}", got.json);
}

#[test]
fn outcome_dot_decision_reads_the_payloads_of_the_outcome() {
    let body = |who: &str| {
        format!(
            "when true {{\n  review(reason: owner, who: \"{who}\")\n}}\n\nassert(\"not mallory\", all c in outcome.review: c.who != \"mallory\")\n"
        )
    };
    assert_eq!(change(&body("ana"), "{}").error_kind(), None);
    assert_eq!(
        change(&body("mallory"), "{}").at("error.message"),
        r#"assertions failed: "not mallory""#
    );
}

#[test]
fn outcome_dot_decision_reads_the_default_when_nothing_fired() {
    let got = change(
        "assert(\"not defaulted\", not (any c in outcome.deny: true))\n",
        "{}",
    );
    assert_eq!(
        got.at("error.message"),
        r#"assertions failed: "not defaulted""#
    );
}

#[test]
fn a_candidate_of_the_outcome_reads_its_reason_as_a_decision_value() {
    let got = change(
        "when true {\n  review(reason: owner)\n}\n\nassert(\"owner\", all c in outcome.review: c.reason == review.owner)\n",
        "{}",
    );
    assert_eq!(got.error_kind(), None, "{}", got.json);
}

#[test]
fn outcome_holds_each_distinct_decision_and_reason_in_outcome_order() {
    let got = policy(
        GRANTS,
        "policy p: Grants@1\n\nwhen true {\n  log(reason: audit)\n  grant(reason: team, tool: \"git\")\n  grant(reason: team, tool: \"ci\")\n}\n\nassert(\"order\", outcome[0] == grant.team and outcome[1] == log.audit)\nassert(\"distinct\", outcome[2] == grant.team)\n",
    )
    .eval("{}");
    assert_eq!(got.trace().len(), 3, "three candidates fired");
    assert_eq!(got.at("error.message"), r#"assertions failed: "distinct""#);
    assert_eq!(
        got.at("error.asserts.0.cause"),
        "p.sigil:10:20: index 2 out of range for a list of 2"
    );
}

#[test]
fn a_collecting_kind_without_default_has_an_empty_outcome_when_nothing_fired() {
    let got = policy(
        GRANTS,
        "policy p: Grants@1\n\nwhen n == 1 {\n  log(reason: audit)\n}\n\nassert(\"nothing\", not (log in outcome))\nassert(\"something\", log in outcome)\n",
    )
    .eval("{}");
    assert_eq!(got.at("error.message"), r#"assertions failed: "something""#);
    assert_eq!(got.outcome(), Vec::<String>::new());
}

#[test]
fn outcome_asserts_do_not_run_after_a_conflict() {
    let got = change(
        "when true {\n  review(reason: owner, who: \"a\")\n  review(reason: owner, who: \"b\")\n}\n\nassert(\"never\", false and allow in outcome)\n",
        "{}",
    );
    assert_eq!(got.at("error.kind"), "conflict");
}

#[test]
fn outcome_asserts_do_not_run_after_a_failed_input_assert() {
    let got = change(
        "assert(\"input\", n == 1)\nassert(\"outcome\", allow in outcome)\n",
        "{}",
    );
    assert_eq!(got.at("error.phase"), "input");
    assert_eq!(got.at("error.message"), r#"assertions failed: "input""#);
}

#[test]
fn outcome_asserts_do_not_run_after_a_runtime_error() {
    let got = change(
        "when xs[1] == 0 {\n  allow(reason: member)\n}\n\nassert(\"outcome\", allow in outcome)\n",
        "{}",
    );
    assert_eq!(got.at("error.kind"), "runtime");
}

#[test]
fn a_condition_raising_in_the_outcome_phase_fails_the_outcome_asserts_beneath_it() {
    let got = change(
        "when true {\n  allow(reason: member)\n}\n\nwhen xs[1] == 0 {\n  assert(\"late\", allow in outcome)\n}\n",
        "{}",
    );
    assert_eq!(got.at("error.kind"), "assertion");
    assert_eq!(got.at("error.phase"), "outcome");
    assert_eq!(
        got.at("error.asserts.0.cause"),
        "p.sigil:7:6: index 1 out of range for a list of 0"
    );
    assert_eq!(
        got.trace(),
        ["allow.member"],
        "the rules phase didn't evaluate the block"
    );
}
