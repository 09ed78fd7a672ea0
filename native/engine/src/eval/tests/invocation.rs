//! Invocation (language-policies §3.3, §3.8, §6.1, §6.4, §7.11): params
//! bound by the call or their default, bounds checked at compile time, one
//! instance per call, and the call's chain and conditions carried into
//! every candidate and assert of the invoked policy.

use super::{Compiled, Record, compile_failure, rooted};

const GATE: &str = "kind Gate version 1

input n: int
input soak: duration

decision deny {
  reason: short | no_rule
}

decision allow {
  reason: member | guest
}

collect one
precedence deny > allow

default deny(reason: no_rule)
";

/// The invoked policy: a deny under a param-dependent condition.
const GUARD: &str = "policy guard: Gate@1

param min: duration = 24h, min: 1h, max: 72h

when soak < min {
  deny(reason: short)
}
";

/// The root `root.sigil` (its body after the header and `use guard`)
/// compiled with [`GUARD`].
fn root(body: &str) -> Compiled {
    rooted(
        GATE,
        &[("root.sigil", &root_source(body)), ("guard.sigil", GUARD)],
        "root",
    )
}

fn root_source(body: &str) -> String {
    format!("policy root: Gate@1\n\nuse guard\n\n{body}")
}

/// The root with `body`, evaluated on `soak`.
fn soaked(body: &str, soak: &str) -> Record {
    root(body).eval(&format!(r#"{{"soak":"{soak}"}}"#))
}

#[test]
fn a_candidate_of_an_invoked_policy_reports_its_document_chain_and_conditions() {
    let got = soaked("guard(min: 4h)\n", "2h");
    assert_eq!(
        got.at("trace.0"),
        r#"{"decision":"deny","reason":"short","policy":"guard","position":"guard.sigil:6:3","chain":["root.sigil:5:1"],"conditions":["soak \u003c 4h"],"outcome":true}"#
    );
    assert_eq!(
        got.at("outcome.0"),
        r#"{"decision":"deny","reason":"short","policy":"guard","position":"guard.sigil:6:3"}"#,
        "no chain or conditions on outcome entries"
    );
}

#[test]
fn the_argument_binds_the_param() {
    assert_eq!(
        soaked("guard(min: 4h)\n", "5h").decision().as_deref(),
        Some("deny.no_rule"),
        "5h < 4h is false: the default"
    );
}

#[test]
fn an_unbound_param_takes_its_default_printed_canonically() {
    let got = soaked("guard()\n", "5h");
    assert_eq!(got.decision().as_deref(), Some("deny.short"));
    assert_eq!(got.texts("trace.0.conditions"), ["soak < 1d"]);
}

/// The compile failure of a root calling `guard(min: «min»)`.
fn bound_failure(min: &str) -> Record {
    let source = root_source(&format!("guard(min: {min})\n"));
    compile_failure(
        GATE,
        &[("root.sigil", &source), ("guard.sigil", GUARD)],
        "root",
    )
}

#[test]
fn an_argument_below_the_minimum_fails_the_compile() {
    let got = bound_failure("30m");
    assert_eq!(
        got.at("diagnostics.0.message"),
        "min: 30m is below the minimum 1h"
    );
    assert_eq!(
        got.at("diagnostics.0.help"),
        "guard declares `param min: duration = 24h, min: 1h, max: 72h`"
    );
    assert_eq!(got.at("diagnostics.0.line"), "5");
    assert_eq!(got.at("diagnostics.0.column"), "12");
}

#[test]
fn an_argument_takes_any_operator_on_constants_and_is_computed_at_compile_time() {
    assert_eq!(
        soaked("guard(min: [2h, 4h][1])\n", "3h")
            .decision()
            .as_deref(),
        Some("deny.short"),
        "3h < [2h, 4h][1]"
    );
    let got = bound_failure("[2h, 40m][1]");
    assert_eq!(
        got.at("diagnostics.0.message"),
        "min: 40m is below the minimum 1h",
        "not a constant of language-core §5.17, so the compiler checks its bounds"
    );
    assert_eq!(got.at("diagnostics.0.column"), "12");
}

#[test]
fn an_argument_above_the_maximum_fails_the_compile() {
    assert_eq!(
        bound_failure("100h").at("diagnostics.0.message"),
        "min: 4d4h is above the maximum 3d"
    );
}

#[test]
fn the_conditions_around_a_call_gate_the_invoked_rules() {
    let p = root("when n == 1 {\n  guard(min: 4h)\n}\n");
    let off = p.eval(r#"{"n":0,"soak":"2h"}"#);
    assert_eq!(off.trace(), Vec::<String>::new());
    let on = p.eval(r#"{"n":1,"soak":"2h"}"#);
    assert_eq!(on.at("trace.0.chain"), r#"["root.sigil:6:3"]"#);
    assert_eq!(
        on.texts("trace.0.conditions"),
        ["n == 1", "soak < 4h"],
        "the call's conditions first"
    );
}

#[test]
fn use_alone_adds_no_rule() {
    assert_eq!(soaked("", "2h").trace(), Vec::<String>::new());
}

#[test]
fn each_call_is_an_instance_with_its_own_params() {
    let p = root("guard(min: 4h)\nguard(min: 48h)\n");
    let got = p.eval(r#"{"soak":"10h"}"#);
    assert_eq!(got.trace(), ["deny.short"]);
    assert_eq!(got.at("trace.0.chain"), r#"["root.sigil:6:1"]"#);
    assert_eq!(got.texts("trace.0.conditions"), ["soak < 2d"]);
}

#[test]
fn one_rule_reached_through_two_calls_folds_and_both_entries_are_marked() {
    let got = soaked("guard(min: 4h)\nguard(min: 48h)\n", "2h");
    assert_eq!(got.error_kind(), None, "{}", got.json);
    assert_eq!(got.outcome(), ["deny.short"]);
    assert_eq!(got.trace(), ["deny.short", "deny.short"]);
    assert_eq!(got.at("trace.0.chain"), r#"["root.sigil:5:1"]"#);
    assert_eq!(got.at("trace.1.chain"), r#"["root.sigil:6:1"]"#);
    assert_eq!(got.at("trace.0.outcome"), "true");
    assert_eq!(got.at("trace.1.outcome"), "true", "same position");
}

#[test]
fn lets_are_evaluated_per_instance() {
    let guard = "policy guard: Gate@1\n\nparam min: duration = 24h\n\nlet short = soak < min\n\nwhen short {\n  deny(reason: short)\n}\n";
    let source = root_source("guard(min: 4h)\nguard(min: 48h)\n");
    let p = rooted(
        GATE,
        &[("root.sigil", &source), ("guard.sigil", guard)],
        "root",
    );
    let got = p.eval(r#"{"soak":"10h"}"#);
    assert_eq!(got.trace(), ["deny.short"]);
    assert_eq!(got.at("trace.0.chain"), r#"["root.sigil:6:1"]"#);
}

/// A callee whose allow sits far down its file.
const LATE: &str =
    "policy late: Gate@1\n\n\n\n\n\n\n\n\n\nwhen true {\n  allow(reason: guest)\n}\n";

#[test]
fn candidates_of_equal_rank_are_ordered_by_call_path() {
    let order = |body: &str| {
        let source = format!("policy root: Gate@1\n\nuse late\n\n{body}");
        let p = rooted(
            GATE,
            &[("root.sigil", &source), ("late.sigil", LATE)],
            "root",
        );
        p.eval("{}").trace()
    };
    assert_eq!(
        order("late()\n\nwhen true {\n  deny(reason: short)\n  allow(reason: member)\n}\n"),
        ["deny.short", "allow.guest", "allow.member"],
        "the call site (5:1) comes before the root's allow (9:3)"
    );
    assert_eq!(
        order("when true {\n  deny(reason: short)\n  allow(reason: member)\n}\n\nlate()\n"),
        ["deny.short", "allow.member", "allow.guest"],
        "the root's allow (7:3) comes before the call site (10:1)"
    );
}

/// A callee with an input assert and an outcome assert.
const CHECKS: &str = "policy checks: Gate@1\n\nassert(\"soaked\", soak > 0s)\n\nassert(\"no allow\", allow not in outcome)\n";

fn checked(body: &str, input: &str) -> Record {
    let source = format!("policy root: Gate@1\n\nuse checks\n\n{body}");
    rooted(
        GATE,
        &[("root.sigil", &source), ("checks.sigil", CHECKS)],
        "root",
    )
    .eval(input)
}

#[test]
fn an_invoked_assert_reports_the_call_path_as_its_position() {
    let got = checked("checks()\n", "{}");
    assert_eq!(got.at("error.phase"), "input");
    assert_eq!(
        got.at("error.asserts.0"),
        r#"{"reason":"soaked","policy":"checks","position":"root.sigil:5:1 → checks.sigil:3:1"}"#
    );
}

#[test]
fn an_invoked_assert_runs_only_when_the_conditions_around_the_call_hold() {
    let body = "when n == 1 {\n  checks()\n}\n";
    assert_eq!(checked(body, "{}").error_kind(), None);
    assert_eq!(
        checked(body, r#"{"n":1}"#).at("error.message"),
        r#"assertions failed: "soaked""#
    );
}

#[test]
fn outcome_in_an_invoked_policy_is_the_roots_outcome() {
    let got = checked(
        "checks()\n\nwhen true {\n  allow(reason: member)\n}\n",
        r#"{"soak":"1h"}"#,
    );
    assert_eq!(got.at("error.phase"), "outcome");
    assert_eq!(got.at("error.asserts.0.reason"), "no allow");
    assert_eq!(
        got.at("error.asserts.0.position"),
        "root.sigil:5:1 → checks.sigil:5:1"
    );
    assert_eq!(got.entries("error.asserts.0.outcome"), ["allow.member"]);
}

/// A kind whose input is a struct with a field spelled like a param.
const RELEASES: &str = "kind Releases version 1

type Release {
  soak: duration
  region: string
}

input release: Release

decision deny {
  reason: short | no_rule
}

collect one
precedence deny

default deny(reason: no_rule)
";

#[test]
fn condition_texts_print_bound_params_by_spelling_even_after_a_dot() {
    let callee = "policy check: Releases@1\n\nparam soak: duration = 1h\nparam region: string = \"\"\n\nwhen release.soak < soak and release.region == region {\n  deny(reason: short)\n}\n";
    let root = "policy root: Releases@1\n\nuse check\n\ncheck(soak: 720h, region: \"eu-1\")\n";
    let p = rooted(
        RELEASES,
        &[("root.sigil", root), ("check.sigil", callee)],
        "root",
    );
    let got = p.eval(r#"{"release":{"soak":"1h","region":"eu-1"}}"#);
    assert_eq!(
        got.texts("trace.0.conditions"),
        ["release.30d < 30d and release.\"eu-1\" == \"eu-1\""]
    );
}
