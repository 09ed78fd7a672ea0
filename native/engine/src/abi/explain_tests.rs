//! `explain` through `handle`: the spec's explain scenarios byte for byte,
//! the same answer by handle, by files and by pattern, and every failure
//! of module-abi §4.5.

use super::eval_tests::{
    KIND, answer, compact, compiled_handle, files_member, list_member, scenario_dir,
};
use super::fuzz_tests::json_string as json;

const RULES: &str = "module door.rules: Door@1

pub let high = floor > 10
";

const LIMIT: &str = "policy door.limit: Door@1

param top: int = 20, min: 1, max: 50

when floor > top {
  deny(reason: closed)
}

assert(\"floor_known\", floor >= 0)
";

const MAIN: &str = "policy door.main: Door@1

use door.rules
use door.limit

limit(top: 30)

when rules.high and
     \"ana\" in names {
  allow(reason: member)
}
";

/// The explanation of `door.main` among [`bundle`].
const MAIN_EXPLAINED: &str = r#"{"policy":"door.main","policies":2,"modules":1,"rules":[{"kind":"decision","decision":"deny","reason":"closed","chain":["door.main:6","door.limit:6"],"conditions":["floor \u003e 30"]},{"kind":"decision","decision":"allow","reason":"member","chain":["door.main:10"],"conditions":["rules.high and \"ana\" in names"]},{"kind":"assert","reason":"floor_known","phase":"input","chain":["door.main:6","door.limit:9"],"conditions":[],"check":"floor \u003e= 0"}]}"#;

/// The kind, then `docs` (path, source).
fn with_kind(docs: &[(&str, &str)]) -> Vec<(String, String)> {
    std::iter::once(("kind.sigil", KIND))
        .chain(docs.iter().copied())
        .map(|(p, s)| (p.to_owned(), s.to_owned()))
        .collect()
}

/// The kind, a module, and two policies, the root invoking the other.
fn bundle() -> Vec<(String, String)> {
    with_kind(&[
        ("door/rules.sigil", RULES),
        ("door/limit.sigil", LIMIT),
        ("door/main.sigil", MAIN),
    ])
}

/// An explain request for `files`, with `rest` (members after a comma, or
/// nothing).
fn explain(files: &[(String, String)], rest: &str) -> String {
    answer(&format!(
        r#"{{"op":"explain",{}{rest}}}"#,
        files_member(files)
    ))
}

fn compile(files: &[(String, String)], policy: &str) -> String {
    answer(&format!(
        r#"{{"op":"compile",{},"policy":{}}}"#,
        files_member(files),
        json(policy)
    ))
}

/// `{"ok":false,"error":{…}}` of `message` and `help`.
fn failure(message: &str, help: &str) -> String {
    format!(
        r#"{{"ok":false,"error":{{"message":{},"help":{}}}}}"#,
        json(message),
        json(help)
    )
}

#[test]
fn a_policy_explains_byte_for_byte_alike_by_handle_by_files_and_by_pattern() {
    let files = bundle();
    let handle = compiled_handle(&compile(&files, "door.main"));
    let by_handle = answer(&format!(r#"{{"op":"explain","id":5,"handle":{handle}}}"#));
    let by_name = answer(&format!(
        r#"{{"op":"explain","id":5,{},"policy":"door.main"}}"#,
        files_member(&files)
    ));
    let by_pattern = answer(&format!(
        r#"{{"op":"explain","id":5,{},"policy":"*.main"}}"#,
        files_member(&files)
    ));
    let want = format!(r#"{{"id":5,"ok":true,"explanations":[{MAIN_EXPLAINED}]}}"#);
    assert_eq!(by_handle, want);
    assert_eq!(by_name, by_handle);
    assert_eq!(by_pattern, by_handle);
}

#[test]
fn the_spec_explain_scenarios_explain_to_their_expected_records() {
    let scenarios = [
        ("04-change-asserts", "changes.gate"),
        ("05-deploy-composition", "payments.deploy"),
    ];
    let mut checked = 0;
    for (name, root) in scenarios {
        let Some(dir) = scenario_dir(name) else {
            continue;
        };
        let files = crate::testing::spec_scenario(name);
        let expected = compact(&crate::testing::read(&dir.join("expected/explain.json")));
        let want = format!(r#"{{"ok":true,"explanations":{expected}}}"#);
        let policy = format!(r#","policy":{}"#, json(root));
        assert_eq!(explain(&files, &policy), want, "{name} by files");
        let handle = compiled_handle(&compile(&files, root));
        let by_handle = answer(&format!(r#"{{"op":"explain","handle":{handle}}}"#));
        assert_eq!(by_handle, want, "{name} by handle");
        checked += 1;
    }
    if checked > 0 {
        assert_eq!(checked, 2);
    }
}

#[test]
fn without_a_pattern_every_policy_outside_the_trusted_files_explains_sorted_by_name() {
    let limit_alone = r#"{"policy":"door.limit","policies":1,"modules":0,"rules":[{"kind":"decision","decision":"deny","reason":"closed","chain":["door.limit:6"],"conditions":["floor \u003e 20"]},{"kind":"assert","reason":"floor_known","phase":"input","chain":["door.limit:9"],"conditions":[],"check":"floor \u003e= 0"}]}"#;
    assert_eq!(
        explain(&bundle(), ""),
        format!(r#"{{"ok":true,"explanations":[{limit_alone},{MAIN_EXPLAINED}]}}"#)
    );
    // The trusted files resolve the root's imports and are never roots.
    let trusted = list_member(
        "trusted_files",
        &[("door/rules.sigil", RULES), ("door/limit.sigil", LIMIT)],
    );
    let files = with_kind(&[("door/main.sigil", MAIN)]);
    assert_eq!(
        explain(&files, &format!(",{trusted}")),
        format!(r#"{{"ok":true,"explanations":[{MAIN_EXPLAINED}]}}"#)
    );
}

#[test]
fn unbound_params_stand_for_their_names_and_no_rule_is_null() {
    let regional = "policy door.regional: Door@1

param level: int

when floor == level {
  allow(reason: member)
}
";
    let empty = "policy door.empty: Door@1\n";
    let files = with_kind(&[
        ("door/regional.sigil", regional),
        ("door/empty.sigil", empty),
    ]);
    assert_eq!(
        explain(&files, ""),
        r#"{"ok":true,"explanations":[{"policy":"door.empty","policies":1,"modules":0,"rules":null},{"policy":"door.regional","policies":1,"modules":0,"rules":[{"kind":"decision","decision":"allow","reason":"member","chain":["door.regional:6"],"conditions":["floor == level"]}]}]}"#
    );
}

#[test]
fn errors_in_documents_the_roots_dont_use_dont_stop_them() {
    let mut files = bundle();
    files.push((
        "door/other.sigil".to_owned(),
        "policy door.other: Door@1\n\nwhen flor > 1 {\n  allow(reason: member)\n}\n".to_owned(),
    ));
    assert_eq!(
        explain(&files, r#","policy":"door.main""#),
        format!(r#"{{"ok":true,"explanations":[{MAIN_EXPLAINED}]}}"#)
    );
}

#[test]
fn explain_fails_as_the_spec_says() {
    const HANDLE_HELP: &str = "pass a handle compile returned, before releasing it";
    let files = bundle();
    let handle = compiled_handle(&compile(&files, "door.main"));
    let both = answer(&format!(
        r#"{{"op":"explain","handle":{handle},{}}}"#,
        files_member(&files)
    ));
    assert_eq!(
        both,
        failure(
            "explain takes a handle or files, not both",
            "explain a compiled policy by its handle, or the policies of files"
        )
    );
    assert_eq!(
        answer(r#"{"op":"explain","handle":4000000000}"#),
        failure("no compiled policy has handle 4000000000", HANDLE_HELP)
    );
    answer(&format!(r#"{{"op":"release","handle":{handle}}}"#));
    assert_eq!(
        answer(&format!(r#"{{"op":"explain","handle":{handle}}}"#)),
        failure(
            &format!("no compiled policy has handle {handle}"),
            HANDLE_HELP
        )
    );
    assert_eq!(
        answer(r#"{"op":"explain","id":3}"#),
        format!(
            r#"{{"id":3,{}"#,
            failure(
                "the request holds no files",
                r#"send the kind and the policies as "files": [{"path": "...", "source": "..."}]"#
            )
            .get(1..)
            .unwrap()
        )
    );
    assert_eq!(
        explain(&with_kind(&[]), ""),
        failure("the bundle holds no policies", "send a file that holds one")
    );
    assert_eq!(
        explain(&files, r#","policy":"x.*""#),
        failure(
            r#"no policy matches "x.*""#,
            "the bundle defines: door.limit, door.main"
        )
    );
}

#[test]
fn explain_fails_with_the_diagnostics_that_stop_it() {
    const FIX: &str = r#""help":"fix the errors in the diagnostics; the check op reports every problem in a bundle at once"},"diagnostics":["#;
    let broken = "policy door.other: Door@1\n\nwhen flor > 1 {\n  allow(reason: member)\n}\n";
    let files = with_kind(&[("door/other.sigil", broken)]);
    let diagnostic = r#"{"severity":"error","file":"door/other.sigil","document":"door.other","message":"unknown name `flor`","#;
    let no_root = explain(&files, r#","policy":"x""#);
    assert!(
        no_root.starts_with(&format!(
            r#"{{"ok":false,"error":{{"message":"the bundle doesn't check, so nothing was explained",{FIX}{diagnostic}"#
        )),
        "{no_root}"
    );
    let root_broken = explain(&files, "");
    assert!(
        root_broken.starts_with(&format!(
            r#"{{"ok":false,"error":{{"message":"the policies to explain don't check, so nothing was explained",{FIX}{diagnostic}"#
        )),
        "{root_broken}"
    );
}

#[test]
fn an_argument_outside_the_bounds_is_a_compile_error_whether_constant_or_read_from_a_param() {
    let diagnostics = r#""diagnostics":[{"severity":"error","file":"door/main.sigil","document":"door.main","message":"top: 90 is above the maximum 50","help":"door.limit declares `param top: int = 20, min: 1, max: 50`","line":7,"column":12}]}"#;
    let help = r#""help":"fix the errors in the diagnostics; the check op reports every problem in a bundle at once"}"#;
    for argument in ["top", "90"] {
        let main = format!(
            "policy door.main: Door@1

use door.limit

param top: int = 90

limit(top: {argument})
"
        );
        let files = with_kind(&[("door/limit.sigil", LIMIT), ("door/main.sigil", &main)]);
        assert_eq!(
            explain(&files, r#","policy":"door.main""#),
            format!(
                r#"{{"ok":false,"error":{{"message":"policy door.main doesn't compile, so it wasn't explained",{help},{diagnostics}"#
            ),
            "{argument}"
        );
        assert_eq!(
            compile(&files, "door.main"),
            format!(
                r#"{{"ok":false,"error":{{"message":"the policy doesn't compile, so nothing was compiled",{help},{diagnostics}"#
            ),
            "{argument}"
        );
    }
}
