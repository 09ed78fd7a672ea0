//! Runtime errors (language-core §5.16, §7; language-policies §7.2, §7.4,
//! §7.8, §7.10, §8.3): each error's exact message and position, the help,
//! what ends the evaluation and what never runs, and cancellation.

use std::time::Instant;

use super::{KIND_FILE, POLICY_FILE, Record, policy, stubbed};
use crate::bundle::{FileInput, Project, named_files};
use crate::eval::{Failure, Outcome, Unbound, evaluate};

const CALC: &str = "kind Calc version 1

input n: int
input xs: list<int>
input d: duration
input early: timestamp
input late: timestamp

fn lookup(string) -> string

decision deny {
  reason: no_rule
}

decision allow {
  reason: member
  note: string = \"\"
}

collect one
precedence deny > allow

default deny(reason: no_rule)
";

/// The help of a runtime error without advice of its own.
const RUNTIME_HELP: &str = "fix the expression the runtime error points at, or the input it read";

/// Evaluates `when «cond» { allow(reason: member) }` on `input`.
fn when(cond: &str, input: &str) -> Record {
    policy(
        CALC,
        &format!("policy p: Calc@1\n\nwhen {cond} {{\n  allow(reason: member)\n}}\n"),
    )
    .eval(input)
}

/// The message of the runtime error `when «cond»` raises on `input`.
fn message(cond: &str, input: &str) -> String {
    let got = when(cond, input);
    assert_eq!(got.error_kind().as_deref(), Some("runtime"), "{}", got.json);
    got.at("error.message")
}

#[test]
fn an_index_out_of_range_falls_back_to_the_default_with_an_empty_trace() {
    assert_eq!(
        when("xs[3] == 0", r#"{"xs":[7]}"#).json,
        format!(
            r#"{{"error":{{"kind":"runtime","message":"p.sigil:3:6: index 3 out of range for a list of 1","help":"{RUNTIME_HELP}"}},"policy":"p","decision":"deny","reason":"no_rule","outcome":[{{"decision":"deny","reason":"no_rule"}}],"trace":[]}}"#
        )
    );
}

#[test]
fn a_negative_index_is_out_of_range() {
    assert_eq!(
        message("xs[0 - 1] == 0", r#"{"xs":[7,8]}"#),
        "p.sigil:3:6: index -1 out of range for a list of 2"
    );
}

#[test]
fn integer_overflow_names_the_expression_fully_parenthesized() {
    assert_eq!(
        message("n + 9223372036854775807 == 0", r#"{"n":1}"#),
        "p.sigil:3:6: integer overflow in `(n + 9223372036854775807)`"
    );
    assert_eq!(
        message("-9223372036854775807 - n == 0", r#"{"n":2}"#),
        "p.sigil:3:6: integer overflow in `((-9223372036854775807) - n)`"
    );
}

#[test]
fn duration_overflow_names_the_expression() {
    assert_eq!(
        message("d + 106751d > 0s", r#"{"d":"1d"}"#),
        "p.sigil:3:6: duration overflow in `(d + 106751d)`"
    );
}

#[test]
fn negating_the_minimum_int_overflows() {
    assert_eq!(
        message("1 == 1 and -n == 0", r#"{"n":-9223372036854775808}"#),
        "p.sigil:3:17: integer overflow negating -9223372036854775808"
    );
}

#[test]
fn negating_the_minimum_duration_overflows_in_go_duration_text() {
    assert_eq!(
        message(
            "-(early - late) > 0s",
            r#"{"early":"0001-01-01T00:00:00Z","late":"9999-12-31T00:00:00Z"}"#
        ),
        "p.sigil:3:6: duration overflow negating -2562047h47m16.854775808s"
    );
}

#[test]
fn a_host_function_without_implementation_fails_with_its_own_help() {
    let got = when("lookup(\"x\") == \"y\"", "{}");
    assert_eq!(
        got.at("error"),
        r#"{"kind":"runtime","message":"p.sigil:3:6: host function lookup failed: no implementation in this sigil binary","help":"this sigil binary has only lookup's signature from the kind file; stub it with `stubs:` in the test file or `--stub lookup=VALUE` on sigil eval, or evaluate with a host binary built with sigil's pkg/cli, which links the real function in"}"#
    );
}

/// The runtime error of `when lookup("x") == "y"` with `stubs`.
fn stubbed_lookup(stubs: &str) -> String {
    let p = stubbed(
        CALC,
        "policy p: Calc@1\n\nwhen lookup(\"x\") == \"y\" {\n  allow(reason: member)\n}\n",
        stubs,
    );
    p.eval("{}").at("error")
}

#[test]
fn a_host_function_error_is_a_runtime_error_at_the_call() {
    assert_eq!(
        stubbed_lookup(r#"{"lookup":{"error":"directory offline"}}"#),
        r#"{"kind":"runtime","message":"p.sigil:3:6: host function lookup failed: directory offline","help":"the stub's error: fails the call, as the host function failing would; a test case expects it with `expect: {error: ...}`"}"#
    );
}

#[test]
fn a_call_no_stub_entry_matches_names_its_args() {
    assert_eq!(
        stubbed_lookup(r#"{"lookup":{"calls":[{"args":["a"],"returns":"y"}]}}"#),
        r#"{"kind":"runtime","message":"p.sigil:3:6: host function lookup failed: no stubbed call matches lookup(\"x\")","help":"add these args under the stub's calls, or give the stub a returns or error for every other call"}"#
    );
}

#[test]
fn a_runtime_error_in_a_payload_ends_the_evaluation() {
    let got = policy(
        CALC,
        "policy p: Calc@1\n\nwhen true {\n  deny(reason: no_rule)\n  allow(reason: member, note: [\"a\"][n])\n}\n",
    )
    .eval(r#"{"n":1}"#);
    assert_eq!(
        got.at("error.message"),
        "p.sigil:5:31: index 1 out of range for a list of 1"
    );
    assert_eq!(
        got.trace(),
        Vec::<String>::new(),
        "candidates found before are dropped"
    );
}

#[test]
fn a_runtime_error_in_a_let_points_into_the_let() {
    let got = policy(
        CALC,
        "policy p: Calc@1\n\nlet first = xs[0]\n\nwhen first == 1 {\n  allow(reason: member)\n}\n",
    )
    .eval("{}");
    assert_eq!(
        got.at("error.message"),
        "p.sigil:3:13: index 0 out of range for a list of 0"
    );
}

#[test]
fn a_let_nobody_reaches_never_runs() {
    let got = policy(
        CALC,
        "policy p: Calc@1\n\nlet first = xs[0]\n\nwhen n == 1 and first == 1 {\n  allow(reason: member)\n}\n",
    )
    .eval("{}");
    assert_eq!(got.error_kind(), None, "{}", got.json);
}

#[test]
fn and_and_or_skip_their_right_operand() {
    assert_eq!(when("n == 1 and xs[5] == 0", "{}").error_kind(), None);
    assert_eq!(
        when("n == 0 or xs[5] == 0", "{}").decision().as_deref(),
        Some("allow.member")
    );
}

#[test]
fn an_error_on_the_left_surfaces_even_when_the_right_decides() {
    assert_eq!(
        message("xs[5] == 0 or true", "{}"),
        "p.sigil:3:6: index 5 out of range for a list of 0"
    );
}

#[test]
fn xor_evaluates_both_operands() {
    assert_eq!(
        message("true xor xs[5] == 0", "{}"),
        "p.sigil:3:15: index 5 out of range for a list of 0"
    );
}

#[test]
fn a_quantifier_stops_at_the_first_deciding_element() {
    let input = r#"{"xs":[1]}"#;
    assert_eq!(
        when("any i in [0, 5]: xs[i] == 1", input)
            .decision()
            .as_deref(),
        Some("allow.member")
    );
    assert_eq!(
        when("not (all i in [0, 5]: xs[i] == 2)", input)
            .decision()
            .as_deref(),
        Some("allow.member")
    );
}

#[test]
fn a_filter_runs_its_body_for_every_element() {
    assert_eq!(
        message("0 in (filter i in [0, 5]: xs[i] == 1)", r#"{"xs":[1]}"#),
        "p.sigil:3:32: index 5 out of range for a list of 1"
    );
}

#[test]
fn a_false_condition_keeps_its_body_from_raising() {
    let got = policy(
        CALC,
        "policy p: Calc@1\n\nwhen n == 1 {\n  when xs[5] == 0 {\n    allow(reason: member)\n  }\n}\n",
    )
    .eval("{}");
    assert_eq!(got.error_kind(), None, "{}", got.json);
}

/// `policy` compiled natively against `kind`.
fn program(kind: &str, policy: &str) -> crate::program::Program {
    let inputs =
        [(KIND_FILE, kind), (POLICY_FILE, policy)].map(|(path, source)| FileInput { path, source });
    let files = named_files(&inputs, &[]).unwrap_or_else(|e| panic!("{}", e.message));
    let project = Project::load(files);
    assert!(project.diagnostics.is_empty(), "{:?}", project.diagnostics);
    let root = project.find("p").unwrap_or_default();
    crate::compile::compile(&project, root).unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn a_passed_deadline_cancels_with_an_empty_trace_and_the_fallback() {
    let program = program(
        CALC,
        "policy p: Calc@1\n\nwhen true {\n  allow(reason: member)\n}\n",
    );
    let inputs = zero_inputs(&program);
    let done = evaluate(&program, &inputs, &mut Unbound, Some(Instant::now()));
    assert_eq!(done.error, Some(Failure::Canceled));
    assert_eq!(done.outcome, Outcome::Default);
    assert!(done.trace.is_empty());
    let open = evaluate(&program, &inputs, &mut Unbound, None);
    assert_eq!(open.error, None);
    assert_eq!(open.trace.len(), 1);
}

/// Every input of `program`'s kind at its zero value.
fn zero_inputs(program: &crate::program::Program) -> Vec<crate::value::Value> {
    let empty = crate::data::Data::Object(Vec::new());
    crate::input::decode_input(&empty, crate::data::Syntax::Json, &program.kind)
        .unwrap_or_else(|e| panic!("{}", e.message))
}

#[test]
fn a_canceled_collecting_kind_has_an_empty_outcome_even_with_a_default() {
    let kind = "kind Grants version 1\n\ndecision grant {\n  reason: team\n}\n\ncollect all\n\ndefault grant(reason: team)\n";
    let program = program(
        kind,
        "policy p: Grants@1\n\nwhen true {\n  grant(reason: team)\n}\n",
    );
    let done = evaluate(
        &program,
        &zero_inputs(&program),
        &mut Unbound,
        Some(Instant::now()),
    );
    assert_eq!(done.error, Some(Failure::Canceled));
    assert_eq!(done.outcome, Outcome::Empty);
}
