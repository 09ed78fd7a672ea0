//! The check op's `require` (module-abi §4.2, tooling §3.3): every root of
//! a required policy's kind must invoke it unconditionally; requirements
//! that can't be enforced as written fail the request in the spec's order.

use super::check_tests::{check, files_json, request};

const KIND: &str = "kind Door version 1\n\ninput floor: int\n\ndecision allow {\n  reason: member\n}\n\ncollect all\n";
const GUARD: &str = "policy door.guard: Door@1\n\nwhen floor < 0 {\n  allow(reason: member)\n}\n";
const INVOKES: &str = "policy team.a: Door@1\n\nuse door.guard\n\nguard()\n";
const SILENT: &str = "policy team.b: Door@1\n\nwhen floor > 1 {\n  allow(reason: member)\n}\n";
const GATED: &str = "policy team.c: Door@1\n\nuse door.guard\n\nwhen floor > 2 {\n  guard()\n}\n";
const BASE: &str = "policy door.base: Door@1\n\nuse door.guard\n\nguard()\n";
const THROUGH_BASE: &str = "policy team.d: Door@1\n\nuse door.base\n\nbase()\n";

fn bundle() -> Vec<(&'static str, &'static str)> {
    vec![
        ("kind.sigil", KIND),
        ("door/guard.sigil", GUARD),
        ("door/base.sigil", BASE),
        ("team/a.sigil", INVOKES),
        ("team/b.sigil", SILENT),
        ("team/c.sigil", GATED),
        ("team/d.sigil", THROUGH_BASE),
    ]
}

const NOT_INVOKED: &str = r#"{"severity":"error","file":"team/b.sigil","document":"team.b","message":"team.b doesn't invoke door.guard","help":"the host requires door.guard for every Door policy; import it with `use door.guard` and invoke it at the top level","line":1,"column":1}"#;
const GATED_CALL: &str = r#"{"severity":"error","file":"team/c.sigil","document":"team.c","message":"door.guard must be invoked unconditionally","help":"the host requires door.guard for every Door policy; move the call to the top level","line":6,"column":3}"#;

#[test]
fn every_root_must_reach_the_required_policy_through_top_level_calls() {
    assert_eq!(
        check(&bundle(), r#","require":[{"policy":"door.guard"}]"#),
        format!(r#"{{"id":7,"ok":true,"diagnostics":[{NOT_INVOKED},{GATED_CALL}]}}"#)
    );
}

#[test]
fn without_require_the_same_bundle_is_clean() {
    assert_eq!(
        check(&bundle(), ""),
        r#"{"id":7,"ok":true,"diagnostics":[]}"#
    );
}

#[test]
fn roots_patterns_choose_the_roots() {
    let response = check(
        &bundle(),
        r#","require":[{"policy":"door.guard","roots":["team.c","team.a"]}]"#,
    );
    assert_eq!(
        response,
        format!(r#"{{"id":7,"ok":true,"diagnostics":[{GATED_CALL}]}}"#)
    );
}

#[test]
fn policies_patterns_narrow_the_roots() {
    let narrowed = |patterns: &str| {
        check(
            &bundle(),
            &format!(r#","policies":{patterns},"require":[{{"policy":"door.guard"}}]"#),
        )
    };
    assert_eq!(
        narrowed(r#"["team.b"]"#),
        format!(r#"{{"id":7,"ok":true,"diagnostics":[{NOT_INVOKED}]}}"#)
    );
    assert_eq!(
        narrowed(r#"["team.a","team.d"]"#),
        r#"{"id":7,"ok":true,"diagnostics":[]}"#
    );
}

#[test]
fn a_gated_call_inside_an_invoked_policy_is_reported_where_it_is() {
    let gated_base =
        "policy door.base: Door@1\n\nuse door.guard\n\nwhen floor > 3 {\n  guard()\n}\n";
    let files = [
        ("kind.sigil", KIND),
        ("door/guard.sigil", GUARD),
        ("door/base.sigil", gated_base),
        ("team/d.sigil", THROUGH_BASE),
    ];
    let response = check(&files, r#","require":[{"policy":"door.guard"}]"#);
    assert!(
        response.contains(r#""file":"door/base.sigil","document":"door.base","message":"door.guard must be invoked unconditionally""#),
        "{response}"
    );
    assert!(response.contains(r#""line":6,"column":3"#), "{response}");
}

#[test]
fn one_unconditional_path_satisfies_a_requirement_that_also_has_gated_calls() {
    let both =
        "policy team.e: Door@1\n\nuse door.guard\n\nguard()\n\nwhen floor > 2 {\n  guard()\n}\n";
    let files = [
        ("kind.sigil", KIND),
        ("door/guard.sigil", GUARD),
        ("team/e.sigil", both),
    ];
    let response = check(&files, r#","require":[{"policy":"door.guard"}]"#);
    assert!(!response.contains("must be invoked"), "{response}");
}

#[test]
fn a_required_policy_of_another_kind_does_not_apply() {
    let other_kind = "kind Gate version 1\n\ninput open: bool\n\ndecision pass {\n  reason: ok\n}\n\ncollect all\n";
    let gate = "policy gate.main: Gate@1\n\nwhen open {\n  pass(reason: ok)\n}\n";
    let mut files = bundle();
    files.push(("gate.sigil", other_kind));
    files.push(("gate/main.sigil", gate));
    let response = check(&files, r#","require":[{"policy":"door.guard"}]"#);
    assert!(!response.contains("gate.main doesn't invoke"), "{response}");
}

#[test]
fn the_deploy_scenario_requires_its_guardrails_from_the_platform_directory() {
    let scenario = crate::testing::spec_scenario("05-deploy-composition");
    if scenario.is_empty() {
        return;
    }
    let files: Vec<(&str, &str)> = scenario
        .iter()
        .map(|(p, s)| (p.as_str(), s.as_str()))
        .collect();
    assert_eq!(
        check(
            &files,
            r#","require":[{"policy":"platform.guardrails","trusted":["./platform/"]}]"#
        ),
        r#"{"id":7,"ok":true,"diagnostics":[]}"#
    );
    let response = check(&files, r#","require":[{"policy":"platform.regional"}]"#);
    let gated = r#""file":"payments/deploy.sigil","document":"payments.deploy","message":"platform.regional must be invoked unconditionally""#;
    assert_eq!(response.matches(gated).count(), 2, "{response}");
    assert!(response.contains(r#""line":10,"column":3"#), "{response}");
    assert!(response.contains(r#""line":11,"column":3"#), "{response}");
}

#[test]
fn files_below_a_trusted_path_are_trusted_so_a_team_copy_is_a_duplicate() {
    let copy = "policy door.guard: Door@1\n\nwhen floor < 5 {\n  allow(reason: member)\n}\n";
    let mut files = bundle();
    files.push(("team/guard.sigil", copy));
    let response = check(
        &files,
        r#","require":[{"policy":"door.guard","trusted":["door"]}]"#,
    );
    assert!(
        response.contains(r#""file":"team/guard.sigil","document":"door.guard","message":"policy door.guard is defined twice""#),
        "{response}"
    );
}

fn failure(response: &str) -> (&str, &str) {
    let message = response
        .split(r#""message":""#)
        .nth(1)
        .and_then(|m| m.split("\",\"help\"").next())
        .unwrap_or_else(|| panic!("{response}"));
    let help = response
        .split(r#""help":""#)
        .nth(1)
        .and_then(|h| h.strip_suffix("\"}}"))
        .unwrap_or_else(|| panic!("{response}"));
    assert!(response.contains(r#""ok":false"#), "{response}");
    (message, help)
}

#[test]
fn unusable_requirements_fail_the_request_with_message_and_help() {
    let cases: [(&str, &str, &str); 7] = [
        (
            r#"[{"policy":"door.guard","trusted":["door","vendor/x"]}]"#,
            "require[0]: the trusted path vendor/x of door.guard holds no file",
            "name a file of the request, or a directory some of them are below",
        ),
        (
            r#"[{"policy":"door.guard"},{"trusted":["door"]}]"#,
            "require[1] names no policy",
            r#"give each requirement the policy it requires, as {\"policy\": \"deploy.guardrails\"}"#,
        ),
        (
            r#"[{"policy":"door.gaurd"}]"#,
            "require[0]: door.gaurd is required, but no policy door.gaurd was found",
            r#"did you mean \"door.guard\"? check reads a required policy from the entry's trusted: paths, or else from its paths"#,
        ),
        (
            r#"[{"policy":"door.guard","trusted":["kind.sigil"]}]"#,
            "require[0]: door.guard must come from kind.sigil, but it's defined at door/guard.sigil",
            "the host reads a required policy only from its trusted source, as policy.From does; define it there, and remove the other definition",
        ),
        (
            r#"[{"policy":"door.guard","roots":["team.*","nobody.*"]}]"#,
            r#"require[0]: roots of door.guard: no policy matches \"nobody.*\""#,
            "the bundle defines: door.base, door.guard, gate.main, team.a, team.b, team.c, team.d",
        ),
        (
            r#"[{"policy":"door.guard","roots":["gate.*"]}]"#,
            "require[0]: roots of door.guard match no Door policy",
            "a required policy applies to the roots of its own kind; name Door policies in roots:",
        ),
        (
            r#"[{"policy":"billing.limits"}]"#,
            "require[0]: billing.limits is required, but no policy billing.limits was found",
            "check reads a required policy from the entry's trusted: paths, or else from its paths",
        ),
    ];
    let other_kind = "kind Gate version 1\n\ninput open: bool\n\ndecision pass {\n  reason: ok\n}\n\ncollect all\n";
    let gate = "policy gate.main: Gate@1\n\nwhen open {\n  pass(reason: ok)\n}\n";
    let mut files = bundle();
    files.push(("gate.sigil", other_kind));
    files.push(("gate/main.sigil", gate));
    for (require, message, help) in cases {
        let response = check(&files, &format!(r#","require":{require}"#));
        assert_eq!(failure(&response), (message, help), "{require}");
    }
}

#[test]
fn a_trusted_path_that_holds_no_file_fails_before_the_files_are_read() {
    let twice = [("a.sigil", "x"), ("a.sigil", "y")];
    let response = check(&twice, r#","require":[{"policy":"p","trusted":["t"]}]"#);
    assert_eq!(
        failure(&response).0,
        "require[0]: the trusted path t of p holds no file"
    );
    let response = check(&twice, r#","require":[{}]"#);
    assert_eq!(
        failure(&response).0,
        "a.sigil is given twice, with two sources"
    );
}

#[test]
fn requirements_are_not_enforced_while_the_bundle_has_errors() {
    let broken = "policy team.x: Door@1\n\nwhen nope {\n  allow(reason: member)\n}\n";
    let mut files = bundle();
    files.push(("team/x.sigil", broken));
    let response = check(&files, r#","require":[{"policy":"nothing.here"}]"#);
    assert!(response.contains(r#""ok":true"#), "{response}");
    assert!(response.contains("unknown name `nope`"), "{response}");
    assert!(!response.contains("doesn't invoke"), "{response}");
}

/// Compiles `root` of `files` with `extra` members (module-abi §4.3, §6).
fn compile(files: &[(&str, &str)], root: &str, extra: &str) -> String {
    request("compile", files, &format!(r#","policy":"{root}"{extra}"#))
}

#[test]
fn compile_requires_the_root_to_invoke_each_required_policy() {
    let ok = compile(
        &bundle(),
        "team.a",
        r#","require":[{"policy":"door.guard"}]"#,
    );
    assert!(ok.contains(r#""ok":true"#), "{ok}");
    assert_eq!(
        compile(
            &bundle(),
            "team.b",
            r#","require":[{"policy":"door.guard"}]"#
        ),
        format!(
            r#"{{"id":7,"ok":false,"error":{{"message":"the policy doesn't compile, so nothing was compiled","help":"fix the errors in the diagnostics; the check op reports every problem in a bundle at once"}},"diagnostics":[{NOT_INVOKED}]}}"#
        )
    );
}

#[test]
fn compile_requirements_take_only_a_policy() {
    let cases = [
        (
            r#"[{"policy":"door.guard","trusted":["door"]}]"#,
            "require[0]: compile's requirements take only a policy",
        ),
        (
            r#"[{"policy":"door.guard","roots":["team.*"]}]"#,
            "require[0]: compile's requirements take only a policy",
        ),
        (
            r#"[{"policy":"door.guard"},{}]"#,
            "require[1] names no policy",
        ),
    ];
    for (require, message) in cases {
        let response = compile(&bundle(), "team.a", &format!(r#","require":{require}"#));
        assert_eq!(failure(&response).0, message, "{require}");
    }
}

/// The bundle without door.guard, and door.guard as the only trusted file.
fn split_trusted() -> (Vec<(&'static str, &'static str)>, String) {
    let mut files = bundle();
    files.retain(|(path, _)| *path != "door/guard.sigil");
    (
        files,
        format!(
            r#","trusted_files":{}"#,
            files_json(&[("door/guard.sigil", GUARD)])
        ),
    )
}

#[test]
fn with_trusted_files_a_required_policy_defined_there_is_accepted() {
    let (files, trusted) = split_trusted();
    let response = compile(
        &files,
        "team.a",
        &format!(r#"{trusted},"require":[{{"policy":"door.guard"}}]"#),
    );
    assert!(response.contains(r#""ok":true"#), "{response}");
}

#[test]
fn with_trusted_files_a_required_policy_they_dont_define_fails() {
    let (files, trusted) = split_trusted();
    let response = compile(
        &files,
        "team.a",
        &format!(r#"{trusted},"require":[{{"policy":"door.base"}}]"#),
    );
    assert_eq!(
        response,
        r#"{"id":7,"ok":false,"error":{"message":"require[0]: door.base isn't among the trusted files","help":"fix the errors in the diagnostics; the check op reports every problem in a bundle at once"},"diagnostics":[{"severity":"error","file":"door/base.sigil","document":"door.base","message":"door.base must come from the trusted files, but it's defined here","help":"the host reads a required policy only from its trusted source, as policy.From does; define it there, and remove this definition","line":1,"column":1}]}"#
    );
    let response = compile(
        &files,
        "team.a",
        &format!(r#"{trusted},"require":[{{"policy":"door.nothing"}}]"#),
    );
    assert_eq!(
        failure(&response),
        (
            "require[0]: door.nothing is required, but the trusted files define no policy door.nothing",
            "send the document that defines it among trusted_files"
        )
    );
}
