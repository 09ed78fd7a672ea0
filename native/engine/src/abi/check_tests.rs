//! The `check` op (module-abi §4.2) through `handle`: a check that finds
//! errors answers `ok: true` with them; a request whose lints, files or
//! patterns can't be used fails.

use super::fuzz_tests::json_string as json;
use super::handle;

const KIND: &str = "kind Door version 1\n\ninput zone: string\ninput floor: int\n\ndecision allow {\n  reason: member\n}\n\ncollect all\n";

fn answer(request: &str) -> String {
    String::from_utf8(handle(request.as_bytes())).unwrap()
}

/// A check request of `files` (path, source) plus `extra` members.
pub(super) fn check(files: &[(&str, &str)], extra: &str) -> String {
    request("check", files, extra)
}

/// The answer to op `op` with `files` and the members `extra` adds.
pub(super) fn request(op: &str, files: &[(&str, &str)], extra: &str) -> String {
    answer(&format!(
        r#"{{"op":"{op}","id":7,"files":{}{extra}}}"#,
        files_json(files)
    ))
}

/// `files` as a request's list of `{path, source}`.
pub(super) fn files_json(files: &[(&str, &str)]) -> String {
    let files: Vec<String> = files
        .iter()
        .map(|(path, source)| format!(r#"{{"path":{},"source":{}}}"#, json(path), json(source)))
        .collect();
    format!("[{}]", files.join(","))
}

#[test]
fn a_clean_bundle_answers_no_diagnostics() {
    let policy = "policy door.main: Door@1\n\nwhen floor > 1 {\n  allow(reason: member)\n}\n";
    assert_eq!(
        check(&[("kind.sigil", KIND), ("door/main.sigil", policy)], ""),
        r#"{"id":7,"ok":true,"diagnostics":[]}"#
    );
}

#[test]
fn type_errors_are_a_result_with_file_document_and_position() {
    let policy = "policy door.main: Door@1\n\nwhen floor == \"1\" {\n  allow(reason: member)\n}\n";
    assert_eq!(
        check(&[("./kind.sigil", KIND), ("x.sigil", policy)], ""),
        r#"{"id":7,"ok":true,"diagnostics":[{"severity":"error","file":"x.sigil","document":"door.main","message":"`==` needs operands of the same type, found int and string","line":3,"column":6}]}"#
    );
}

#[test]
fn problems_of_the_bundle_are_reported_together_sorted_by_file() {
    let a = "policy a: Door@1\nwhen true { allow(reason: member) }\n";
    let b = "policy a: Door@1\nwhen flor > 1 { allow(reason: member) }\n";
    let c = "module c: Gate@1\n";
    let response = check(
        &[
            ("kind.sigil", KIND),
            ("b.sigil", b),
            ("a.sigil", a),
            ("c.sigil", c),
        ],
        "",
    );
    let messages: Vec<&str> = response
        .split(r#""message":""#)
        .skip(1)
        .map(|m| m.split('"').next().unwrap())
        .collect();
    assert_eq!(
        messages,
        [
            "policy a is defined twice",
            "unknown name `flor`",
            "module c is written against kind Gate, but no kind Gate was found"
        ]
    );
    assert!(response.contains(r#""help":"first defined at b.sigil:1:1; documents resolve by name, so each name has one definition""#), "{response}");
}

#[test]
fn an_import_cycle_is_reported_once_at_the_use_that_closes_it() {
    let a = "module a: Door@1\nuse b\npub let x = 1\n";
    let b = "module b: Door@1\nuse a\npub let y = 1\n";
    let response = check(&[("kind.sigil", KIND), ("a.sigil", a), ("b.sigil", b)], "");
    assert_eq!(
        response,
        r#"{"id":7,"ok":true,"diagnostics":[{"severity":"error","file":"b.sigil","document":"b","message":"import cycle: a -\u003e b -\u003e a","help":"imports form a directed acyclic graph; move the shared lets to a module both can import","line":2,"column":1}]}"#
    );
}

#[test]
fn imports_read_pub_lets_of_checked_documents() {
    let shared = "module shared: Door@1\npub let high = floor > 10\nlet hidden = 1\n";
    let policy = "policy p: Door@1\nuse shared\nuse shared.{hidden}\nwhen shared.high and shared.nope { allow(reason: member) }\n";
    let response = check(
        &[
            ("kind.sigil", KIND),
            ("s.sigil", shared),
            ("p.sigil", policy),
        ],
        "",
    );
    assert!(
        response.contains("let `hidden` of shared is private"),
        "{response}"
    );
    assert!(
        response.contains("shared has no pub let `nope`"),
        "{response}"
    );
    assert!(
        response.contains(r#""help":"shared exports: high""#),
        "{response}"
    );
}

#[test]
fn policies_patterns_narrow_the_check_to_what_they_use() {
    let good = "policy good: Door@1\nwhen true { allow(reason: member) }\n";
    let bad = "policy bad: Door@1\nwhen nope { allow(reason: member) }\n";
    let files = [
        ("kind.sigil", KIND),
        ("good.sigil", good),
        ("bad.sigil", bad),
    ];
    assert_eq!(
        check(&files, r#","policies":["go*"]"#),
        r#"{"id":7,"ok":true,"diagnostics":[]}"#
    );
    assert_eq!(
        check(&files, r#","policies":["nothing"]"#),
        r#"{"id":7,"ok":false,"error":{"message":"no policy matches \"nothing\"","help":"the bundle defines: bad, good"}}"#
    );
}

#[test]
fn unusable_requests_fail_with_message_and_help() {
    let cases = [
        (
            r#"{"op":"check","files":[]}"#,
            r#"{"ok":false,"error":{"message":"the request holds no files","help":"send the kind and the policies as \"files\": [{\"path\": \"...\", \"source\": \"...\"}]"}}"#,
        ),
        (
            r#"{"op":"check","files":[{"path":"a","source":"x"},{"path":"./a","source":"y"}]}"#,
            r#"{"ok":false,"error":{"message":"a is given twice, with two sources","help":"send each file once"}}"#,
        ),
        (
            r#"{"op":"check","files":[{"source":"x"}]}"#,
            r#"{"ok":false,"error":{"message":"file 1 has no path","help":"give every file a path, such as access/main.sigil; diagnostics name files by it"}}"#,
        ),
        (
            r#"{"op":"check","files":[{"path":"a","source":""}],"lints":{"unused-lett":"warn"}}"#,
            r#"{"ok":false,"error":{"message":"lints: unknown lint \"unused-lett\"","help":"did you mean \"unused-let\"? the lints are unused-import, shadowed-kind-name, unused-let, gated-assert, gated-deny, duplicate-invocation, qualified-imports, path-matches-name"}}"#,
        ),
        (
            r#"{"op":"check","files":[{"path":"a","source":""}],"lints":{"unused-let":"loud"}}"#,
            r#"{"ok":false,"error":{"message":"lints: unused-let: unknown level \"loud\"","help":"set a lint to off, warn or error"}}"#,
        ),
    ];
    for (request, want) in cases {
        assert_eq!(answer(request), want, "{request}");
    }
}

#[test]
fn invocations_bind_params_by_name_inside_their_bounds() {
    let guard = "policy guard: Door@1\nparam min_floor: int = 1, min: 0,\n  max: 9\nwhen floor < min_floor { allow(reason: member) }\n";
    let cases = [
        (
            "guard(min_floor: 12)",
            "min_floor: 12 is above the maximum 9",
            "guard declares `param min_floor: int = 1, min: 0, max: 9`",
        ),
        (
            "guard(min_floor: -1)",
            "min_floor: -1 is below the minimum 0",
            "guard declares `param min_floor: int = 1, min: 0, max: 9`",
        ),
        (
            "guard(min_flor: 1)",
            "policy guard has no param `min_flor`",
            "did you mean `min_floor`? guard declares: min_floor",
        ),
        (
            "guard(min_floor: floor)",
            "invocation argument reads input `floor`",
            "an invocation is bound when the policy compiles, so its arguments can only be constants and this document's params",
        ),
        (
            "guard(min_floor: 1, min_floor: 2)",
            "param `min_floor` is given twice",
            "bind each param once",
        ),
    ];
    for (call, message, help) in cases {
        let root = format!("policy root: Door@1\nuse guard\n{call}\n");
        let response = check(
            &[
                ("kind.sigil", KIND),
                ("guard.sigil", guard),
                ("root.sigil", &root),
            ],
            "",
        );
        let want = format!(r#""message":"{message}","help":"{help}""#);
        assert!(response.contains(&want), "{call}: {response}");
    }
    let root = "policy root: Door@1\nuse guard\nguard(min_floor: 3)\n";
    let response = check(
        &[
            ("kind.sigil", KIND),
            ("guard.sigil", guard),
            ("root.sigil", root),
        ],
        "",
    );
    assert_eq!(response, r#"{"id":7,"ok":true,"diagnostics":[]}"#);
}

#[test]
fn check_compiles_every_policy_in_scope_once_the_bundle_checks() {
    let limits = "policy limits: Door@1\nparam max_weight: int = 50, min: 10, max: 100\nwhen floor > max_weight { allow(reason: member) }\n";
    let root = "policy root: Door@1\nuse limits\nparam w: int = 500\nlimits(max_weight: w)\n";
    let response = check(
        &[
            ("kind.sigil", KIND),
            ("limits.sigil", limits),
            ("root.sigil", root),
        ],
        "",
    );
    assert_eq!(
        response,
        r#"{"id":7,"ok":true,"diagnostics":[{"severity":"error","file":"root.sigil","document":"root","message":"max_weight: 500 is above the maximum 100","help":"limits declares `param max_weight: int = 50, min: 10, max: 100`","line":4,"column":20}]}"#
    );
}

#[test]
fn a_file_left_with_no_document_reports_its_syntax_error_when_no_pattern_narrows_the_check() {
    let broken = "policy shop.one: Door@1\n";
    let good = "policy good: Door@1\nwhen true { allow(reason: member) }\n";
    let files = [
        ("kind.sigil", KIND),
        ("good.sigil", good),
        ("shop.sigil", broken),
    ];
    assert_eq!(
        check(&files, ""),
        r#"{"id":7,"ok":true,"diagnostics":[{"severity":"error","file":"shop.sigil","message":"expected a name after `.`, found `one`","line":1,"column":13}]}"#
    );
    assert_eq!(
        check(&files, r#","policies":["good"]"#),
        r#"{"id":7,"ok":true,"diagnostics":[]}"#
    );
}

#[test]
fn a_narrowed_check_keeps_an_error_outside_every_document_only_in_its_files_or_a_kind_document() {
    let good = "policy good: Door@1\nwhen true { allow(reason: member) }\n";
    let kind_then_broken = format!("{KIND}\npolicy shop.one: Door@1\n");
    let files = [
        ("kind.sigil", kind_then_broken.as_str()),
        ("good.sigil", good),
    ];
    assert_eq!(
        check(&files, r#","policies":["good"]"#),
        r#"{"id":7,"ok":true,"diagnostics":[]}"#
    );
    let broken_kind = KIND.replace("input floor: int", "input floor: integer");
    let files = [("kind.sigil", broken_kind.as_str()), ("good.sigil", good)];
    assert_eq!(
        check(&files, r#","policies":["good"]"#),
        r#"{"id":7,"ok":true,"diagnostics":[{"severity":"error","file":"kind.sigil","message":"unknown type `integer`","help":"declare it with `type integer { … }` or `enum integer: …`, or use a built-in type","line":4,"column":14}]}"#
    );
}
