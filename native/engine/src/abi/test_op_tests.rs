//! The `test` op through `handle` (module-abi §4.7): results per test file
//! in path order, `run`, data files, trusted files, and every request
//! failure in the spec's order.

use super::eval_tests::{SCENARIOS, answer, json_files, list_member, scenario_dir};
use super::fuzz_tests::json_string;
use crate::data::{Data, parse_json};

const KIND: &str = "kind Door version 1\n\ninput floor: int\ninput user: string\n\nfn badge(string) -> bool\n\ndecision deny {\n  reason: closed | no_rule\n}\n\ndecision allow {\n  reason: member\n}\n\ncollect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";

const POLICY: &str =
    "policy door.main: Door@1\n\nwhen floor > 1 and badge(user) {\n  allow(reason: member)\n}\n";

const TEST: &str = "policy: door.main\nstubs:\n  badge: {returns: true}\ncases:\n  - name: upstairs\n    input: {floor: 2, user: ada}\n    expect: {decision: allow, reason: member}\n  - name: ground floor\n    input_file: ground.json\n    expect: {decision: deny, reason: no_rule}\n";

const GROUND: &str = r#"{"floor": 0, "user": "ada"}"#;

/// The files of the door bundle.
fn files() -> String {
    list_member(
        "files",
        &[("kind.sigil", KIND), ("door/main.sigil", POLICY)],
    )
}

/// A test request with `members` (each a `"name":value` member).
fn test(members: &[String]) -> String {
    answer(&format!(r#"{{"op":"test",{}}}"#, members.join(",")))
}

fn tests(files: &[(&str, &str)]) -> String {
    list_member("test_files", files)
}

fn data(files: &[(&str, &str)]) -> String {
    list_member("data_files", files)
}

const UPSTAIRS: &str = r#"{"name":"upstairs","line":5,"passed":true}"#;
const GROUND_FLOOR: &str = r#"{"name":"ground floor","line":8,"passed":true}"#;

#[test]
fn results_come_one_per_test_file_in_path_order() {
    let other = "policy: door.main\ncases:\n  - name: one floor up\n    input: {floor: 1}\n    expect: {decision: deny, reason: no_rule}\n";
    let got = test(&[
        files(),
        tests(&[
            ("door/main_test.yaml", TEST),
            ("./a//other_test.yml", other),
        ]),
        data(&[("door/ground.json", GROUND)]),
    ]);
    assert_eq!(
        got,
        format!(
            r#"{{"ok":true,"results":[{{"file":"a/other_test.yml","policy":"door.main","cases":[{{"name":"one floor up","line":3,"passed":true}}]}},{{"file":"door/main_test.yaml","policy":"door.main","cases":[{UPSTAIRS},{GROUND_FLOOR}]}}]}}"#
        )
    );
}

#[test]
fn failing_cases_and_files_that_can_t_run_are_results() {
    let failing = TEST.replace(
        "{decision: allow, reason: member}",
        "{decision: deny, reason: closed}",
    );
    let missing = "policy: door.side\ncases: []\n";
    let bad_yaml = "policy: [door\n";
    let got = test(&[
        files(),
        tests(&[
            ("door/main_test.yaml", &failing),
            ("door/side_test.yaml", missing),
            ("door/bad_test.yaml", bad_yaml),
        ]),
    ]);
    let want = [
        r#"{"ok":true,"results":["#,
        r#"{"file":"door/bad_test.yaml","policy":"","error":"door/bad_test.yaml: not a valid test file: line 2: while parsing a flow sequence, expected ',' or ']' (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)","cases":[]},"#,
        r#"{"file":"door/main_test.yaml","policy":"door.main","cases":["#,
        r#"{"name":"upstairs","failures":["got allow(reason: member), want deny(reason: closed)"],"line":5,"passed":false},"#,
        r#"{"name":"ground floor","error":"input_file ground.json couldn't be read (input_file is relative to the test file)","line":8,"passed":false}]},"#,
        r#"{"file":"door/side_test.yaml","policy":"door.side","error":"error: bundle has no policy door.side\n  = help: the bundle defines: door.main","cases":[]}]}"#,
    ];
    assert_eq!(got, want.concat());
}

#[test]
fn run_selects_cases_by_an_unanchored_regular_expression() {
    let results = |run: &str| {
        test(&[
            files(),
            tests(&[("door/main_test.yaml", TEST)]),
            data(&[("door/ground.json", GROUND)]),
            format!(r#""run":"{run}""#),
        ])
    };
    let only = |cases: &str| {
        format!(
            r#"{{"ok":true,"results":[{{"file":"door/main_test.yaml","policy":"door.main","cases":[{cases}]}}]}}"#
        )
    };
    assert_eq!(results("stairs"), only(UPSTAIRS));
    assert_eq!(results("^ground"), only(GROUND_FLOOR));
    assert_eq!(
        results("(?i)FLOOR|^up"),
        only(&format!("{UPSTAIRS},{GROUND_FLOOR}"))
    );
    assert_eq!(results("nothing"), only(""));
}

#[test]
fn stubs_come_only_from_the_test_files() {
    let got = test(&[
        files(),
        tests(&[("door/main_test.yaml", TEST)]),
        data(&[("door/ground.json", GROUND)]),
        r#""stubs":{"badge":{"returns":false}},"functions":["badge"],"run":"up""#.to_owned(),
    ]);
    assert!(got.contains(UPSTAIRS), "{got}");
    let unstubbed = TEST.replace("stubs:\n  badge: {returns: true}\n", "");
    let got = test(&[
        files(),
        tests(&[("door/main_test.yaml", &unstubbed)]),
        r#""run":"up""#.to_owned(),
    ]);
    assert!(
        got.contains(r#""failures":["got a runtime error (door/main.sigil:3:20: host function badge failed: no implementation in this sigil binary), want allow(reason: member)"]"#),
        "{got}"
    );
}

#[test]
fn trusted_files_hold_policies_and_no_files_hold_none() {
    let got = test(&[
        list_member(
            "trusted_files",
            &[("kind.sigil", KIND), ("door/main.sigil", POLICY)],
        ),
        tests(&[("door/main_test.yaml", TEST)]),
        data(&[("door/ground.json", GROUND)]),
    ]);
    assert!(
        got.contains(&format!("[{UPSTAIRS},{GROUND_FLOOR}]")),
        "{got}"
    );
    let none = test(&[tests(&[("door/main_test.yaml", TEST)])]);
    assert_eq!(
        none,
        r#"{"ok":true,"results":[{"file":"door/main_test.yaml","policy":"door.main","error":"error: bundle has no policy door.main\n  = help: the bundle defines no policies","cases":[]}]}"#
    );
}

#[test]
fn a_data_file_may_repeat_a_policy_file_with_its_source() {
    let got = test(&[
        files(),
        tests(&[("door/main_test.yaml", TEST), ("door/main_test.yaml", TEST)]),
        data(&[("door/ground.json", GROUND), ("door/main.sigil", POLICY)]),
    ]);
    assert!(
        got.contains(&format!("[{UPSTAIRS},{GROUND_FLOOR}]")),
        "{got}"
    );
    assert_eq!(got.matches("door/main_test.yaml").count(), 1, "{got}");
}

#[test]
fn request_failures_come_in_the_spec_s_order() {
    let path_help = "give every file a path, such as checkout/alerts_test.yaml; a case's input_file is relative to its test file's";
    let twice = "send each file once";
    let test_file = || tests(&[("door/main_test.yaml", TEST)]);
    let table: Vec<(Vec<String>, &str, &str)> = vec![
        (
            vec![r#""run":"(""#.to_owned()],
            "run isn't a valid regular expression: error parsing regexp: missing closing ): `(`",
            "run takes a Go regular expression matched against case names",
        ),
        (
            vec![tests(&[("a_test.yaml", ""), ("", "")])],
            "test file 2 has no path",
            path_help,
        ),
        (
            vec![files(), tests(&[("./door/main.sigil", "policy: x")])],
            "door/main.sigil is given twice, with two sources",
            twice,
        ),
        (
            vec![tests(&[("a_test.yaml", "x"), ("a_test.yaml", "y")])],
            "a_test.yaml is given twice, with two sources",
            twice,
        ),
        (
            vec![files()],
            "the request holds no test files",
            r#"send the test files as "test_files": [{"path": "checkout/alerts_test.yaml", "source": "..."}]"#,
        ),
        (
            vec![tests(&[
                ("door/main_test.yaml", TEST),
                ("door/main_test.json", "{}"),
            ])],
            "the test file door/main_test.json isn't named like one",
            "a test file's name ends in _test.yaml or _test.yml; send other files a case reads as data_files",
        ),
        (
            vec![tests(&[("door/main.yaml", TEST)])],
            "the test file door/main.yaml isn't named like one",
            "a test file's name ends in _test.yaml or _test.yml; send other files a case reads as data_files",
        ),
        (
            vec![test_file(), data(&[("", "{}")])],
            "data file 1 has no path",
            path_help,
        ),
        (
            vec![test_file(), data(&[("door/main_test.yaml", "{}")])],
            "door/main_test.yaml is given twice, with two sources",
            twice,
        ),
        (
            vec![
                test_file(),
                list_member("files", &[("a.sigil", "x"), ("a.sigil", "y")]),
            ],
            "a.sigil is given twice, with two sources",
            twice,
        ),
        (
            vec![
                test_file(),
                list_member("files", &[("k.sigil", KIND)]),
                list_member("trusted_files", &[("./k.sigil", KIND)]),
            ],
            "k.sigil is among both the files and the trusted files",
            "a trusted file's path belongs to it; give the other file another path",
        ),
        (
            vec![test_file(), list_member("files", &[("", "x")])],
            "file 1 has no path",
            "give every file a path, such as access/main.sigil; diagnostics name files by it",
        ),
        // A bad `run` is found before there being no test files.
        (
            vec![r#""run":"a{2,1}""#.to_owned()],
            "run isn't a valid regular expression: error parsing regexp: invalid repeat count: `{2,1}`",
            "run takes a Go regular expression matched against case names",
        ),
    ];
    for (members, message, help) in table {
        let got = test(&members);
        let want = format!(
            r#"{{"ok":false,"error":{{"message":{},"help":{}}}}}"#,
            json_string(message),
            json_string(help)
        )
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
        assert_eq!(got, want, "{members:?}");
    }
}

/// The member `key` of an object.
fn member<'d>(data: &'d Data, key: &str) -> Option<&'d Data> {
    match data {
        Data::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

fn text(data: Option<&Data>) -> &str {
    match data {
        Some(Data::String(s)) => s,
        _ => "",
    }
}

/// A JSON value written back as YAML flow syntax, which JSON is.
fn flow(data: &Data) -> String {
    match data {
        Data::Null => "null".to_owned(),
        Data::Bool(b) => b.to_string(),
        Data::Number(n) => n.clone(),
        Data::String(s) => json_string(s),
        Data::List(items) => format!(
            "[{}]",
            items.iter().map(flow).collect::<Vec<_>>().join(", ")
        ),
        Data::Object(members) => format!(
            "{{{}}}",
            members
                .iter()
                .map(|(k, v)| format!("{}: {}", json_string(k), flow(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `{decision: d, reason: r, payload: {…}}` of an eval record entry.
fn expected_entry(entry: &Data) -> String {
    let payload =
        member(entry, "payload").map_or(String::new(), |p| format!(", payload: {}", flow(p)));
    format!(
        "{{decision: {}, reason: {}{payload}}}",
        text(member(entry, "decision")),
        text(member(entry, "reason"))
    )
}

/// A case expecting what the eval record `expected` holds, and the
/// failure sentence the case must give (empty when it must pass): a
/// conflict can't be expected, so its case expects the fallback and fails
/// with `got a conflict (…)`.
fn scenario_case(stem: &str, expected: &Data) -> (String, String) {
    let error = member(expected, "error");
    let expect = match text(error.and_then(|e| member(e, "kind"))) {
        "assertion" => {
            let asserts = match error.and_then(|e| member(e, "asserts")) {
                Some(Data::List(items)) => items
                    .iter()
                    .map(|a| text(member(a, "reason")))
                    .collect::<Vec<_>>(),
                _ => Vec::new(),
            };
            format!("{{asserts: [{}]}}", asserts.join(", "))
        }
        _ if member(expected, "collect").is_some() => match member(expected, "outcome") {
            Some(Data::List(entries)) => format!(
                "{{outcome: [{}]}}",
                entries
                    .iter()
                    .map(expected_entry)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => "{outcome: []}".to_owned(),
        },
        _ => expected_entry(expected),
    };
    let failure = match text(error.and_then(|e| member(e, "kind"))) {
        "conflict" => format!(
            "got a conflict ({}), want {}(reason: {})",
            text(error.and_then(|e| member(e, "message"))),
            text(member(expected, "decision")),
            text(member(expected, "reason"))
        ),
        _ => String::new(),
    };
    let case =
        format!("  - name: {stem}\n    input_file: inputs/{stem}.json\n    expect: {expect}\n");
    (case, failure)
}

#[test]
fn the_spec_s_policy_scenarios_pass_as_test_files() {
    let mut checked = 0;
    for name in SCENARIOS {
        let Some(dir) = scenario_dir(name) else {
            continue;
        };
        let files = crate::testing::spec_scenario(name);
        let mut data = Vec::new();
        let mut cases = String::new();
        let mut want = Vec::new();
        let mut policy = String::new();
        for input in json_files(&dir.join("inputs")) {
            let stem = input.file_stem().unwrap().to_string_lossy().into_owned();
            let expected_text =
                crate::testing::read(&dir.join("expected").join(format!("{stem}.json")));
            let expected = parse_json(expected_text.as_bytes()).unwrap();
            policy = text(member(&expected, "policy")).to_owned();
            let (case, failure) = scenario_case(&stem, &expected);
            cases.push_str(&case);
            want.push((stem.clone(), failure));
            data.push((
                format!("{name}/inputs/{stem}.json"),
                crate::testing::read(&input),
            ));
        }
        let test_file = format!("policy: {policy}\ncases:\n{cases}");
        let got = test(&[
            list_member("files", &files),
            list_member(
                "test_files",
                &[(format!("{name}/scenario_test.yaml"), test_file)],
            ),
            list_member("data_files", &data),
        ]);
        let results = parse_json(got.as_bytes()).unwrap();
        let Some(Data::List(records)) = member(&results, "results") else {
            panic!("{got}");
        };
        let Some(Data::List(case_records)) = records.first().and_then(|r| member(r, "cases"))
        else {
            panic!("{name}: {got}");
        };
        assert_eq!(case_records.len(), want.len(), "{name}: {got}");
        for (record, (stem, failure)) in case_records.iter().zip(&want) {
            let failures = match member(record, "failures") {
                Some(Data::List(items)) => items
                    .iter()
                    .map(|f| text(Some(f)).to_owned())
                    .collect::<Vec<_>>()
                    .join(" | "),
                _ => String::new(),
            };
            assert_eq!(text(member(record, "name")), stem);
            assert_eq!(member(record, "error"), None, "{name}/{stem}: {got}");
            assert_eq!(&failures, failure, "{name}/{stem}");
            checked += 1;
        }
    }
    if checked > 0 {
        assert_eq!(checked, 17);
    }
}
