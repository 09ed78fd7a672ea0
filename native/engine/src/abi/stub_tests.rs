//! The compile op's `stubs` (module-abi §4.3 step 5, §10): bound to the
//! root's kind, answering eval's host function calls, and failing the
//! compile with every problem when they don't fit.

use super::eval_tests::{answer, compiled_handle, files_member};

const KIND: &str = "kind Vault version 1\n\ninput user: string\ninput door: string\n\nfn owner(string) -> string\nfn teams(string) -> list<string>\n\ndecision deny {\n  reason: no_rule\n}\n\ndecision allow {\n  reason: owner\n}\n\ncollect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";

const POLICY: &str =
    "policy vault.main: Vault@1\n\nwhen owner(door) == user {\n  allow(reason: owner)\n}\n";

/// The compile request for the policy above with `stubs` (JSON, or
/// nothing when empty).
fn compile(stubs: &str) -> String {
    let files = vec![
        ("kind.sigil".to_owned(), KIND.to_owned()),
        ("vault/main.sigil".to_owned(), POLICY.to_owned()),
    ];
    let stubs = match stubs {
        "" => String::new(),
        stubs => format!(r#","stubs":{stubs}"#),
    };
    answer(&format!(
        r#"{{"op":"compile",{}{stubs}}}"#,
        files_member(&files)
    ))
}

/// The eval record of `input` through the policy compiled with `stubs`.
fn eval(stubs: &str, input: &str) -> String {
    let handle = compiled_handle(&compile(stubs));
    answer(&format!(
        r#"{{"op":"eval","handle":{handle},"input":{input}}}"#
    ))
}

const LAB: &str = r#"{"user":"ada","door":"lab"}"#;
const VAULT: &str = r#"{"user":"ada","door":"vault"}"#;

/// The runtime error record of a failed host call, and the default.
fn failed_call(text: &str, help: &str) -> String {
    format!(
        r#"{{"ok":true,"error":{{"kind":"runtime","message":"vault/main.sigil:3:6: host function owner failed: {text}","help":"{help}"}},"policy":"vault.main","decision":"deny","reason":"no_rule","outcome":[{{"decision":"deny","reason":"no_rule"}}],"trace":[]}}"#
    )
}

#[test]
fn stubs_answer_calls_by_their_args_then_their_own_result() {
    let stubs = r#"{"owner":{"returns":"nobody","calls":[{"args":["vault"],"returns":"ada"}]}}"#;
    assert!(
        eval(stubs, VAULT).contains(r#""decision":"allow","reason":"owner""#),
        "{}",
        eval(stubs, VAULT)
    );
    assert!(eval(stubs, LAB).contains(r#""decision":"deny","reason":"no_rule","outcome""#));
}

#[test]
fn a_call_no_stub_answers_and_a_stub_error_are_runtime_errors() {
    let only_vault = r#"{"owner":{"calls":[{"args":["vault"],"returns":"ada"}]}}"#;
    assert_eq!(
        eval(only_vault, LAB),
        failed_call(
            r#"no stubbed call matches owner(\"lab\")"#,
            "add these args under the stub's calls, or give the stub a returns or error for every other call"
        )
    );
    let down = r#"{"owner":{"error":"the directory is down"}}"#;
    assert_eq!(
        eval(down, LAB),
        failed_call(
            "the directory is down",
            "the stub's error: fails the call, as the host function failing would; a test case expects it with `expect: {error: ...}`"
        )
    );
}

#[test]
fn without_stubs_a_host_function_has_no_implementation() {
    for stubs in ["", "null", "{}"] {
        let got = eval(stubs, LAB);
        assert!(
            got.contains("host function owner failed: no implementation in this sigil binary"),
            "{stubs}: {got}"
        );
    }
}

#[test]
fn stubs_that_don_t_fit_the_kind_fail_the_compile_with_every_problem() {
    let help = "a stub names a host function the kind declares and gives results of its type, as in a test file's stubs:";
    let table = [
        (
            r#"{"ownr":{"returns":"ada"},"teams":{"returns":"x"}}"#,
            r#"stubs: the kind has no host function ownr to stub (did you mean \"owner\"? the kind declares: owner, teams)\nstubs: stub teams: returns: expected a list\u003cstring\u003e, found a string (give the value the type the kind declares for it)"#,
        ),
        (
            r#"{"owner":{"calls":[{"args":[],"returns":"x"}]}}"#,
            "stubs: stub owner: call 1 passes 0 args, but owner takes 1 (the kind declares `fn owner(string) -\\u003e string`)",
        ),
        (
            "[1]",
            "stubs: stubs must be an object (write one key per host function, each with its stub, like `teams: {returns: [platform]}`)",
        ),
    ];
    for (stubs, message) in table {
        assert_eq!(
            compile(stubs),
            format!(r#"{{"ok":false,"error":{{"message":"{message}","help":"{help}"}}}}"#),
            "{stubs}"
        );
    }
}
