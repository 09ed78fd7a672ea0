//! `compile`, `eval` and `release` through `handle`: every scenario of the
//! spec's policy examples evaluates to its expected record, byte for byte
//! once the pretty-printed expectation is made compact.

use super::fuzz_tests::json_string as json;
use super::handle;
use std::path::{Path, PathBuf};

pub(super) fn answer(request: &str) -> String {
    String::from_utf8(handle(request.as_bytes())).unwrap()
}

/// A JSON text without the whitespace outside its strings.
pub(super) fn compact(text: &str) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// The `files` member of a request for `files` (path, source).
pub(super) fn files_member(files: &[(String, String)]) -> String {
    list_member("files", files)
}

/// A member `name` holding a list of files (path, source).
pub(super) fn list_member<P: AsRef<str>, S: AsRef<str>>(name: &str, files: &[(P, S)]) -> String {
    let items: Vec<String> = files
        .iter()
        .map(|(p, s)| {
            format!(
                r#"{{"path":{},"source":{}}}"#,
                json(p.as_ref()),
                json(s.as_ref())
            )
        })
        .collect();
    format!(r#""{name}":[{}]"#, items.join(","))
}

/// The handle a successful compile answered.
pub(super) fn compiled_handle(response: &str) -> u32 {
    let at = response
        .find(r#""handle":"#)
        .unwrap_or_else(|| panic!("{response}"));
    response
        .get(at + 9..response.len() - 1)
        .unwrap()
        .parse()
        .unwrap()
}

/// The spec's policy scenarios (`examples/policies`).
pub(super) const SCENARIOS: [&str; 5] = [
    "01-refund-gate",
    "02-door-access",
    "03-tool-grants",
    "04-change-asserts",
    "05-deploy-composition",
];

pub(super) fn scenario_dir(name: &str) -> Option<PathBuf> {
    let files = crate::testing::spec_example_files();
    let marker = format!("policies/{name}/");
    let file = files
        .iter()
        .find(|f| f.to_string_lossy().contains(&marker))?;
    let text = file.to_string_lossy();
    let end = text.find(&marker)? + marker.len();
    Some(PathBuf::from(text.get(..end)?))
}

pub(super) fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.retain(|p| p.extension().is_some_and(|e| e == "json"));
    out.sort();
    out
}

#[test]
fn every_policy_scenario_evaluates_to_its_expected_record() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for name in SCENARIOS {
        let Some(dir) = scenario_dir(name) else {
            continue;
        };
        let files = crate::testing::spec_scenario(name);
        for input in json_files(&dir.join("inputs")) {
            let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
            let expected = compact(&crate::testing::read(
                &dir.join("expected").join(format!("{stem}.json")),
            ));
            let root_at = expected.find(r#""policy":""#).unwrap();
            let root = expected
                .get(root_at + 10..)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .to_owned();
            let compiled = answer(&format!(
                r#"{{"op":"compile",{},"policy":{}}}"#,
                files_member(&files),
                json(&root)
            ));
            if !compiled.contains(r#""ok":true"#) {
                failures.push(format!("{name}/{stem}: compile: {compiled}"));
                continue;
            }
            let handle = compiled_handle(&compiled);
            let input_text = crate::testing::read(&input);
            let eval = format!(r#"{{"op":"eval","handle":{handle},"input":{input_text}}}"#);
            let want = format!(r#"{{"ok":true,{}"#, expected.get(1..).unwrap());
            // Twice: the second record's entries come from the rule texts
            // the first one kept with the handle.
            for round in ["first", "second"] {
                let got = answer(&eval);
                if got != want {
                    failures.push(format!(
                        "{name}/{stem} ({round} eval):\n got {got}\nwant {want}"
                    ));
                }
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    if checked > 0 {
        assert_eq!(checked, 17);
    }
}

pub(super) const KIND: &str = "kind Door version 1\n\ninput floor: int\ninput names: list<string>\n\ndecision deny {\n  reason: closed | no_rule\n}\n\ndecision allow {\n  reason: member\n}\n\ncollect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";

fn compile_one(policy: &str) -> String {
    let files = vec![
        ("kind.sigil".to_owned(), KIND.to_owned()),
        ("door/main.sigil".to_owned(), policy.to_owned()),
    ];
    answer(&format!(
        r#"{{"op":"compile","id":1,{}}}"#,
        files_member(&files)
    ))
}

#[test]
fn handles_count_up_from_one_and_a_released_one_is_gone() {
    let policy = "policy door.main: Door@1\n\nwhen floor > 1 {\n  allow(reason: member)\n}\n";
    let first = compiled_handle(&compile_one(policy));
    let second = compiled_handle(&compile_one(policy));
    assert!(first >= 1 && second > first);
    assert_eq!(
        answer(&format!(r#"{{"op":"release","id":3,"handle":{first}}}"#)),
        r#"{"id":3,"ok":true}"#
    );
    let again = answer(&format!(r#"{{"op":"release","handle":{first}}}"#));
    assert_eq!(
        again,
        format!(
            r#"{{"ok":false,"error":{{"message":"no compiled policy has handle {first}","help":"pass a handle compile returned, before releasing it"}}}}"#
        )
    );
    let eval = answer(&format!(r#"{{"op":"eval","handle":{first},"input":{{}}}}"#));
    assert!(eval.contains("no compiled policy has handle"), "{eval}");
    let third = compiled_handle(&compile_one(policy));
    assert!(third > second);
}

#[test]
fn runtime_errors_fall_back_to_the_default_with_their_position() {
    let policy =
        "policy door.main: Door@1\n\nwhen names[floor] == \"x\" {\n  allow(reason: member)\n}\n";
    let handle = compiled_handle(&compile_one(policy));
    let got = answer(&format!(
        r#"{{"op":"eval","handle":{handle},"input":{{"floor":3,"names":["a"]}}}}"#
    ));
    assert_eq!(
        got,
        r#"{"ok":true,"error":{"kind":"runtime","message":"door/main.sigil:3:6: index 3 out of range for a list of 1","help":"fix the expression the runtime error points at, or the input it read"},"policy":"door.main","decision":"deny","reason":"no_rule","outcome":[{"decision":"deny","reason":"no_rule"}],"trace":[]}"#
    );
}

#[test]
fn integer_overflow_names_the_expression() {
    let policy = "policy door.main: Door@1\n\nwhen floor + 9223372036854775807 > 0 {\n  allow(reason: member)\n}\n";
    let handle = compiled_handle(&compile_one(policy));
    let got = answer(&format!(
        r#"{{"op":"eval","handle":{handle},"input":{{"floor":1}}}}"#
    ));
    assert!(
        got.contains(r#""message":"door/main.sigil:3:6: integer overflow in `(floor + 9223372036854775807)`""#),
        "{got}"
    );
}

#[test]
fn a_passed_deadline_cancels_and_the_instance_keeps_working() {
    let policy = "policy door.main: Door@1\n\nwhen any n in names: (any m in names: m == n and n == \"zz\") {\n  allow(reason: member)\n}\n";
    let handle = compiled_handle(&compile_one(policy));
    let names: Vec<String> = (0..3000).map(|i| format!("\"n{i}\"")).collect();
    let input = format!(r#"{{"floor":1,"names":[{}]}}"#, names.join(","));
    let got = answer(&format!(
        r#"{{"op":"eval","handle":{handle},"timeout_ms":1,"input":{input}}}"#
    ));
    assert!(
        got.starts_with(r#"{"ok":true,"error":{"kind":"canceled","message":"the evaluation was stopped: context deadline exceeded""#),
        "{got}"
    );
    assert!(
        got.ends_with(r#""outcome":[{"decision":"deny","reason":"no_rule"}],"trace":[]}"#),
        "{got}"
    );
    let small = answer(&format!(
        r#"{{"op":"eval","handle":{handle},"input":{{"floor":1,"names":["zz"]}}}}"#
    ));
    assert!(small.contains(r#""decision":"allow""#), "{small}");
}

#[test]
fn compile_failures_say_what_to_fix() {
    let broken = "policy door.main: Door@1\n\nwhen flor > 1 {\n  allow(reason: member)\n}\n";
    let got = compile_one(broken);
    assert!(
        got.starts_with(r#"{"id":1,"ok":false,"error":{"message":"door.main doesn't check, so nothing was compiled","help":"fix the errors in the diagnostics; the check op reports every problem in a bundle at once"},"diagnostics":[{"severity":"error","file":"door/main.sigil","document":"door.main","message":"unknown name `flor`""#),
        "{got}"
    );
    let root_param = "policy door.main: Door@1\n\nparam level: int\n\nwhen floor > level {\n  allow(reason: member)\n}\n";
    let got = compile_one(root_param);
    assert!(
        got.contains(r#""message":"the policy doesn't compile, so nothing was compiled""#),
        "{got}"
    );
    assert!(got.contains("param `level` has no value"), "{got}");
    let missing = answer(r#"{"op":"eval","handle":4000000000,"input":{}}"#);
    assert!(
        missing.contains("no compiled policy has handle 4000000000"),
        "{missing}"
    );
    let policy = "policy door.main: Door@1\n\nwhen floor > 1 {\n  allow(reason: member)\n}\n";
    let handle = compiled_handle(&compile_one(policy));
    let no_input = answer(&format!(r#"{{"op":"eval","handle":{handle}}}"#));
    assert_eq!(
        no_input,
        r#"{"ok":false,"error":{"message":"eval needs an input","help":"the input is a JSON object with one key per input the kind declares"}}"#
    );
}

const GATE_KIND: &str = "kind Gate version 1\n\nenum Zone: lobby | lab\n\ntype Door {\n  name: string\n  zone: Zone\n}\n\ninput door: Door\ninput zone: Zone\n\ndecision allow {\n  reason: ok\n}\n\ndecision deny {\n  reason: no_rule\n}\n\ncollect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";

/// The eval answer of `policy` (over [`GATE_KIND`]) for `input`.
fn gate_eval(policy: &str, input: &str) -> String {
    let files = vec![
        ("kind.sigil".to_owned(), GATE_KIND.to_owned()),
        ("gate/main.sigil".to_owned(), policy.to_owned()),
    ];
    let handle = compiled_handle(&answer(&format!(
        r#"{{"op":"compile",{}}}"#,
        files_member(&files)
    )));
    answer(&format!(
        r#"{{"op":"eval","handle":{handle},"input":{input}}}"#
    ))
}

#[test]
fn a_missing_enum_reads_as_no_value_and_fails_where_it_is_read() {
    let field = "policy gate.main: Gate@1\n\nwhen door.zone == lab {\n  allow(reason: ok)\n}\n";
    let input = "policy gate.main: Gate@1\n\nwhen zone != lobby {\n  allow(reason: ok)\n}\n";
    let error = |message: &str| {
        format!(
            r#"{{"ok":true,"error":{{"kind":"runtime","message":"gate/main.sigil:3:6: {message}","help":"Zone declares: lobby, lab"}},"policy":"gate.main","decision":"deny","reason":"no_rule","outcome":[{{"decision":"deny","reason":"no_rule"}}],"trace":[]}}"#
        )
    };
    assert_eq!(
        gate_eval(field, r#"{"door":{"name":"east"}}"#),
        error(r#"door.zone: \"\" is not a value of Zone"#)
    );
    assert_eq!(
        gate_eval(input, r#"{"door":{"name":"east","zone":"lab"}}"#),
        error(r#"zone: \"\" is not a value of Zone"#)
    );
    let given = gate_eval(
        field,
        r#"{"door":{"name":"east","zone":"lab"},"zone":"lab"}"#,
    );
    assert!(given.contains(r#""decision":"allow""#), "{given}");
}

/// `record` without its top-level `trace` member.
fn without_trace(record: &str) -> String {
    let at = record
        .rfind(r#","trace":"#)
        .unwrap_or_else(|| panic!("no trace: {record}"));
    let value_at = at + r#","trace":"#.len();
    let value = crate::wire::Cursor::new(record.get(value_at..).unwrap().as_bytes())
        .raw_value()
        .len();
    format!(
        "{}{}",
        record.get(..at).unwrap(),
        record.get(value_at + value..).unwrap()
    )
}

/// Our extension (engine README, "ABI extensions"): `"trace":false` leaves
/// the trace member out and nothing else; `true`, `null` or no `trace` at
/// all answer the reference's record byte for byte.
#[test]
fn trace_false_leaves_the_trace_out_and_nothing_else() {
    let mut checked = 0;
    for name in SCENARIOS {
        let Some(dir) = scenario_dir(name) else {
            continue;
        };
        let files = crate::testing::spec_scenario(name);
        for input in json_files(&dir.join("inputs")) {
            let expected = crate::testing::read(
                &dir.join("expected")
                    .join(input.file_name().unwrap().to_string_lossy().as_ref()),
            );
            let root = expected
                .split(r#""policy": ""#)
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap()
                .to_owned();
            let handle = compiled_handle(&answer(&format!(
                r#"{{"op":"compile",{},"policy":{}}}"#,
                files_member(&files),
                json(&root)
            )));
            let input_text = crate::testing::read(&input);
            let eval = |extra: &str| {
                answer(&format!(
                    r#"{{"op":"eval","handle":{handle},"input":{input_text}{extra}}}"#
                ))
            };
            let reference = eval("");
            assert_eq!(eval(r#","trace":true"#), reference);
            assert_eq!(eval(r#","trace":null"#), reference);
            let light = eval(r#","trace":false"#);
            assert!(!light.contains(r#""trace":"#), "{light}");
            assert_eq!(light, without_trace(&reference));
            checked += 1;
        }
    }
    if checked > 0 {
        assert_eq!(checked, 17);
    }
}
