//! Test files run against small projects: every expectation form passing
//! and failing with its exact sentence, stubs, inputs from data files, the
//! selection of cases, and every reason a file can't run.

use super::*;
use crate::bundle::{FileInput, named_files};

const ACCESS_KIND: &str = r#"kind Access version 1

type User {
  name: string
  teams: list<string>
  admin: bool
}

input user: User
input door: string

fn owner(string) -> string

decision deny {
  reason: locked | no_rule_matched
}

decision review {
  reason: odd | late
}

decision allow {
  reason: admin | owner | team_member
  ttl: duration = 1h
  rooms: list<string> = []
}

collect one
precedence deny > review > allow
precedence allow: admin > owner > team_member

default deny(reason: no_rule_matched)
"#;

const ACCESS: &str = r#"policy access.main: Access@1

assert("named_user", user.name != "")
assert("known_door", door != "")

when door == "attic" {
  deny(reason: locked)
}

when door == "cellar" {
  review(reason: odd)
  review(reason: late)
}

when user.admin {
  allow(reason: admin, ttl: 8h)
}

when "platform" in user.teams {
  allow(reason: team_member, rooms: ["lab"])
}

when door == "vault" and owner(door) == user.name {
  allow(reason: owner)
}
"#;

const GRANTS_KIND: &str = r#"kind Grants version 1

input user: string
input groups: list<string>

decision read {
  reason: member | oncall
  scope: string = "all"
}

decision write {
  reason: owner
}

collect all
"#;

const GRANTS: &str = r#"policy grants.main: Grants@1

assert("named", user != "")

when "eng" in groups {
  read(reason: member, scope: "code")
}

when "oncall" in groups {
  read(reason: oncall)
  write(reason: owner)
}
"#;

/// A policy with a type error that neither test policy uses.
const BROKEN: &str =
    "policy other.broken: Access@1\n\nwhen user.nmae == \"x\" {\n  deny(reason: locked)\n}\n";

fn project(files: &[(&str, &str)]) -> Project {
    let inputs: Vec<FileInput<'_>> = files
        .iter()
        .map(|&(path, source)| FileInput { path, source })
        .collect();
    Project::load(named_files(&inputs, &[]).unwrap())
}

fn standard() -> Project {
    project(&[
        ("access.sigil", ACCESS_KIND),
        ("access/main.sigil", ACCESS),
        ("grants.sigil", GRANTS_KIND),
        ("grants/main.sigil", GRANTS),
        ("other/broken.sigil", BROKEN),
    ])
}

const FILE: &str = "access/main_test.yaml";

fn run(project: &Project, test: &str) -> TestResult {
    run_test_file(project, FILE, test, &DataFiles::new(), &|_| true)
}

/// The result in a few lines: the policy, the file's error or one line per
/// case (`«line» «name»: pass`, `…: fail: «failure» | «failure»`, `…: error:
/// «error»`).
fn show(result: &TestResult) -> String {
    let mut lines = vec![format!("{} {}", result.file, result.policy)];
    if let Some(error) = &result.error {
        lines.push(format!("error: {error}"));
    }
    for case in &result.cases {
        let what = match (&case.error, case.passed()) {
            (Some(error), _) => format!("error: {error}"),
            (None, true) => "pass".to_owned(),
            (None, false) => format!("fail: {}", case.failures.join(" | ")),
        };
        lines.push(format!("{} {}: {what}", case.line, case.name));
    }
    lines.join("\n")
}

/// The one case of a test file of `policy` whose case is `case` (YAML,
/// indented as a list item): its line of [`show`].
fn one_case(policy: &str, case: &str) -> String {
    let test = format!("policy: {policy}\ncases:\n{case}");
    let result = run(&standard(), &test);
    assert!(result.error.is_none(), "{}", show(&result));
    let lines = show(&result);
    lines.lines().nth(1).unwrap_or_default().to_owned()
}

#[test]
fn every_expectation_form_passes_when_the_evaluation_meets_it() {
    let test = r#"policy: access.main
stubs:
  owner: {returns: ada}
cases:
  - name: an admin is allowed for 8h
    input: {user: {name: ada, admin: true}, door: lab}
    expect: {decision: allow, reason: admin, payload: {ttl: 480m}}
  - name: only the listed payload fields count
    input: {user: {name: bob, teams: [platform]}, door: lab}
    expect: {decision: allow, reason: team_member, payload: {rooms: [lab]}}
  - name: the default
    input: {user: {name: bob}, door: lab}
    expect: {decision: deny, reason: no_rule_matched}
  - name: the owner by the stub
    input: {user: {name: ada}, door: vault}
    expect: {decision: allow, reason: owner}
  - name: asserts as a set
    input: {user: {name: ""}, door: ""}
    expect: {asserts: [named_user, known_door, named_user]}
  - name: a runtime error
    input: {user: {name: ada}, door: vault}
    stubs:
      owner: {error: the directory is down}
    expect: {error: directory is down}
"#;
    assert_eq!(
        show(&run(&standard(), test)),
        "access/main_test.yaml access.main\n5 an admin is allowed for 8h: pass\n8 only the listed payload fields count: pass\n11 the default: pass\n14 the owner by the stub: pass\n17 asserts as a set: pass\n20 a runtime error: pass"
    );
    let grants = r#"policy: grants.main
cases:
  - name: everything, in any order
    input: {user: ada, groups: [oncall, eng]}
    expect:
      outcome:
        - {decision: write, reason: owner}
        - {decision: read, reason: oncall}
        - {decision: read, reason: member, payload: {scope: code}}
  - name: nothing
    input: {user: ada}
    expect: {outcome: []}
"#;
    assert_eq!(
        show(&run(&standard(), grants)),
        "access/main_test.yaml grants.main\n3 everything, in any order: pass\n10 nothing: pass"
    );
}

const OWNER_AT: &str = "access/main.sigil:23:26";

#[test]
fn each_form_fails_with_its_sentence() {
    let unbound = format!(
        "a runtime error ({OWNER_AT}: host function owner failed: no implementation in this sigil binary)"
    );
    let table: Vec<(&str, &str, String)> = vec![
        (
            "access.main",
            "{user: {name: ada, admin: true}, door: lab}\n    expect: {decision: allow, reason: team_member}",
            "got allow(reason: admin), want allow(reason: team_member)".to_owned(),
        ),
        (
            "access.main",
            "{user: {name: ada, admin: true}, door: lab}\n    expect: {decision: allow, reason: admin, payload: {ttl: 1h, rooms: [x]}}",
            "payload ttl = 8h, want 1h | payload rooms = [], want [\"x\"]".to_owned(),
        ),
        (
            "access.main",
            "{user: {name: ada, admin: true}, door: lab}\n    expect: {decision: allow, reason: admin, payload: {ttl: soon}}",
            "expected payload ttl: invalid duration \"soon\"".to_owned(),
        ),
        (
            "access.main",
            "{user: {name: ada}, door: vault}\n    expect: {decision: allow, reason: owner}",
            format!("got {unbound}, want allow(reason: owner)"),
        ),
        (
            "access.main",
            "{user: {name: ada}, door: cellar}\n    expect: {decision: review, reason: odd}",
            "got a conflict (collect one: 2 candidates at the top rank), want review(reason: odd)".to_owned(),
        ),
        (
            "access.main",
            "{user: {name: \"\"}, door: lab}\n    expect: {decision: deny, reason: no_rule_matched}",
            "got failing asserts named_user, want deny(reason: no_rule_matched)".to_owned(),
        ),
        (
            "access.main",
            "{user: {name: ada}, door: attic}\n    expect: {asserts: [named_user]}",
            "got deny(reason: locked), want failing asserts named_user".to_owned(),
        ),
        (
            "access.main",
            "{user: {name: \"\"}, door: \"\"}\n    expect: {asserts: [named_user]}",
            "got failing asserts known_door, named_user, want named_user".to_owned(),
        ),
        (
            "access.main",
            "{user: {name: ada}, door: vault}\n    expect: {asserts: [named_user, known_door]}",
            format!("got {unbound}, want failing asserts named_user, known_door"),
        ),
        (
            "access.main",
            "{user: {name: ada, admin: true}, door: lab}\n    expect: {error: down}",
            "got allow(reason: admin), want a runtime error containing \"down\"".to_owned(),
        ),
        (
            "access.main",
            "{user: {name: ada}, door: vault}\n    expect: {error: Down}",
            format!("got {unbound}, want a runtime error containing \"Down\""),
        ),
        (
            "access.main",
            "{user: {name: \"\"}, door: lab}\n    expect: {error: named_user}",
            "got failing asserts named_user, want a runtime error containing \"named_user\"".to_owned(),
        ),
        (
            "grants.main",
            "{user: ada, groups: [eng]}\n    expect: {outcome: [{decision: write, reason: owner}, {decision: read, reason: member, payload: {scope: all}}]}",
            "missing from the outcome: write(reason: owner) | missing from the outcome: read(reason: member) {scope: all} | not expected in the outcome: read(reason: member) at grants/main.sigil:6:3".to_owned(),
        ),
        (
            "grants.main",
            "{user: \"\", groups: [eng]}\n    expect: {outcome: [{decision: read, reason: member, payload: {scope: code}}]}",
            "got failing asserts named, want the outcome [read(reason: member) {scope: code}]".to_owned(),
        ),
        (
            "grants.main",
            "{user: \"\"}\n    expect: {outcome: []}",
            "got failing asserts named, want the outcome []".to_owned(),
        ),
        (
            "grants.main",
            "{user: ada, groups: [oncall]}\n    expect: {asserts: [named]}",
            "got the outcome [read(reason: oncall), write(reason: owner)], want failing asserts named".to_owned(),
        ),
        (
            "grants.main",
            "{user: ada, groups: [eng]}\n    expect: {asserts: [named]}",
            "got read(reason: member), want failing asserts named".to_owned(),
        ),
        (
            "grants.main",
            "{user: ada}\n    expect: {asserts: [named]}",
            "got no decision, want failing asserts named".to_owned(),
        ),
    ];
    for (policy, case, want) in table {
        let case = format!("  - name: c\n    input: {case}\n");
        assert_eq!(
            one_case(policy, &case),
            format!("3 c: fail: {want}"),
            "{case}"
        );
    }
}

#[test]
fn an_expected_outcome_entry_shows_its_payload_as_written() {
    let case = "  - name: c\n    input: {user: ada}\n    expect:\n      outcome:\n        - decision: read\n          reason: member\n          payload: {scope: [b, {y: 1, x: null}]}\n";
    assert_eq!(
        one_case("grants.main", case),
        "3 c: fail: missing from the outcome: read(reason: member) {scope: [b map[x:<nil> y:1]]}"
    );
}

#[test]
fn case_stubs_replace_the_file_s_stub_of_their_function() {
    let test = r#"policy: access.main
stubs:
  owner:
    calls:
      - {args: [vault], returns: ada}
cases:
  - name: the file's stub
    input: {user: {name: ada}, door: vault}
    expect: {decision: allow, reason: owner}
  - name: the case's own
    input: {user: {name: ada}, door: vault}
    stubs:
      owner: {returns: bob}
    expect: {decision: allow, reason: owner}
  - name: a call nothing answers
    input: {user: {name: ada}, door: vault}
    stubs:
      owner: {calls: [{args: [lab], returns: ada}]}
    expect: {error: directory}
"#;
    assert_eq!(
        show(&run(&standard(), test)),
        format!(
            "access/main_test.yaml access.main\n7 the file's stub: pass\n10 the case's own: fail: got deny(reason: no_rule_matched), want allow(reason: owner)\n15 a call nothing answers: fail: got a runtime error ({OWNER_AT}: host function owner failed: no stubbed call matches owner(\"vault\")), want a runtime error containing \"directory\""
        )
    );
}

/// Runs a test file at `path` with data files.
fn run_with_data(path: &str, test: &str, data: &[(&str, &str)]) -> String {
    let data: DataFiles = data
        .iter()
        .map(|&(p, s)| (p.to_owned(), s.to_owned()))
        .collect();
    show(&run_test_file(&standard(), path, test, &data, &|_| true))
}

#[test]
fn input_files_are_data_files_relative_to_the_test_file() {
    let test = r#"policy: access.main
cases:
  - name: json next to it
    input_file: testdata/admin.json
    expect: {decision: allow, reason: admin}
  - name: yaml above it
    input_file: ../shared/./team.yml
    expect: {decision: allow, reason: team_member}
  - name: missing
    input_file: nowhere.json
    expect: {decision: allow, reason: admin}
  - name: not json
    input_file: testdata/broken.json
    expect: {decision: allow, reason: admin}
  - name: not yaml
    input_file: testdata/broken.yaml
    expect: {decision: allow, reason: admin}
  - name: json numbers are exact
    input_file: testdata/float.json
    expect: {decision: allow, reason: admin}
  - name: a typo in the input
    input: {user: {nmae: ada}, door: lab}
    expect: {decision: allow, reason: admin}
"#;
    let data = [
        (
            "access/testdata/admin.json",
            r#"{"user": {"name": "ada", "admin": true}, "door": "lab"}"#,
        ),
        (
            "shared/team.yml",
            "user: {name: bob, teams: [platform]}\ndoor: lab\n",
        ),
        ("access/testdata/broken.json", "{\"user\": "),
        ("access/testdata/broken.yaml", "user: [\n"),
        ("access/testdata/float.json", r#"{"user": {"name": 1.0}}"#),
    ];
    let want = [
        "access/main_test.yaml access.main",
        "3 json next to it: pass",
        "6 yaml above it: pass",
        "9 missing: error: input_file nowhere.json couldn't be read (input_file is relative to the test file)",
        "12 not json: error: input_file testdata/broken.json isn't valid: unexpected EOF (an input file is a JSON object, or YAML when its name ends in .yaml)",
        "15 not yaml: error: input_file testdata/broken.yaml isn't valid: yaml: line 2: while parsing a node, did not find expected node content (an input file is a JSON object, or YAML when its name ends in .yaml)",
        "18 json numbers are exact: error: input user.name: expected a string, found a number (give the value the type the kind declares for it)",
        "21 a typo in the input: error: input user.nmae: unknown field \"nmae\" on type User (did you mean \"name\"? declared: name, teams, admin)",
    ];
    assert_eq!(run_with_data(FILE, test, &data), want.join("\n"));
}

#[test]
fn only_selected_cases_run_but_every_case_is_validated() {
    let test = r#"policy: access.main
cases:
  - name: first
    input: {user: {name: ada}, door: lab}
    expect: {decision: deny, reason: no_rule_matched}
  - name: second
    input: {user: {name: ada}, door: lab}
    expect: {decision: allow, reason: admin}
"#;
    let select = |name: &str| name.starts_with('s');
    let result = run_test_file(&standard(), FILE, test, &DataFiles::new(), &select);
    assert_eq!(
        show(&result),
        "access/main_test.yaml access.main\n6 second: fail: got deny(reason: no_rule_matched), want allow(reason: admin)"
    );
    let none = run_test_file(&standard(), FILE, test, &DataFiles::new(), &|_| false);
    assert_eq!(show(&none), "access/main_test.yaml access.main");
    let invalid = test.replace("reason: no_rule_matched", "reason: nope");
    let result = run_test_file(&standard(), FILE, &invalid, &DataFiles::new(), &select);
    assert_eq!(
        show(&result),
        "access/main_test.yaml access.main\nerror: access/main_test.yaml:3: case \"first\": decision deny has no reason \"nope\" (declared: locked, no_rule_matched)"
    );
}

#[test]
fn validation_reports_every_case_and_stub_problem_in_order() {
    let test = r#"policy: access.main
stubs:
  ownr: {returns: ada}
cases:
  - name: a stub of the wrong type
    input: {user: {name: ada}}
    stubs:
      owner: {returns: [ada]}
    expect: {decision: deny, reason: no_rule_matched}
  - name: two forms
    input: {user: {name: ada}}
    expect: {error: failed, decision: deny, reason: no_rule_matched}
  - name: unknown names
    input: {user: {name: ada}}
    expect: {decision: alow, reason: admin}
  - name: no reason
    input: {user: {name: ada}}
    expect: {decision: allow, payload: {ttl: 1h}}
  - name: unknown payload field
    input: {user: {name: ada}}
    expect: {decision: allow, reason: admin, payload: {tll: 1h, rooms: []}}
  - name: an outcome for a kind that collects one
    input: {user: {name: ada}}
    expect: {outcome: [{reason: x}]}
  - input: {user: {name: ada}}
    input_file: x.json
    expect: {asserts: []}
  - name: no reason
    input: {user: {name: ada}}
    expect: {error: ""}
"#;
    let want = [
        "access/main_test.yaml:3: the kind has no host function ownr to stub (did you mean \"owner\"? the kind declares: owner)",
        "access/main_test.yaml:8: case \"a stub of the wrong type\": stub owner: returns: expected a string, found a list (give the value the type the kind declares for it)",
        "access/main_test.yaml:10: case \"two forms\": case must expect exactly one of decision, outcome, asserts and error (expect a decision with its reason, an outcome for a collect all kind, the asserts that fail, or the runtime error the evaluation fails with)",
        "access/main_test.yaml:13: case \"unknown names\": the kind has no decision \"alow\" (did you mean \"allow\"? declared: deny, review, allow)",
        "access/main_test.yaml:16: case \"no reason\": expected allow has no reason (asserting the reason catches a decision made for the wrong reason; allow declares: admin, owner, team_member)",
        "access/main_test.yaml:19: case \"unknown payload field\": decision allow has no payload field \"tll\" (did you mean \"ttl\"? declared: ttl, rooms)",
        "access/main_test.yaml:22: case \"an outcome for a kind that collects one\": outcome is for collect all kinds, and Access collects one (a collect one kind decides once; expect `decision:` and `reason:`)",
        "access/main_test.yaml:22: case \"an outcome for a kind that collects one\": expected decision has no name (the kind declares: deny, review, allow)",
        "access/main_test.yaml:25: case has no name (every case needs a name, which `--run` matches and failures report)",
        "access/main_test.yaml:25: case needs exactly one of input and input_file (give the input inline with `input:`, or name a JSON file with `input_file:`)",
        "access/main_test.yaml:25: asserts is empty (name the reasons of the asserts that should fail)",
        "access/main_test.yaml:28: case \"no reason\": case \"no reason\" is defined twice (the first is on line 16; give each case its own name)",
        "access/main_test.yaml:28: case \"no reason\": error is empty (give text the runtime error's message contains, like `error: host function owner failed`)",
    ];
    let result = run(&standard(), test);
    assert_eq!(result.policy, "access.main");
    assert!(result.cases.is_empty());
    assert_eq!(result.error.as_deref(), Some(want.join("\n").as_str()));
}

#[test]
fn a_file_that_doesn_t_read_has_no_policy_and_says_where() {
    let result = run(&standard(), "policy: access.main\ncases:\n  - name: [x\n");
    assert_eq!(result.policy, "");
    assert!(result.cases.is_empty());
    assert_eq!(
        result.error.as_deref(),
        Some(
            "access/main_test.yaml: not a valid test file: line 4: while parsing a flow sequence, expected ',' or ']' (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)"
        )
    );
    let unknown_key = run(
        &standard(),
        "policy: access.main\ncases:\n  - name: x\n    expcet: {}\n",
    );
    assert_eq!(
        unknown_key.error.as_deref(),
        Some(
            "access/main_test.yaml: not a valid test file: line 4: unknown key \"expcet\" in a case (did you mean \"expect\"? a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)"
        )
    );
}

#[test]
fn a_policy_that_isn_t_there_or_doesn_t_check_stops_the_file() {
    let test = "policy: access.mian\ncases: []\n";
    let clean = project(&[("access.sigil", ACCESS_KIND), ("access/main.sigil", ACCESS)]);
    assert_eq!(
        run(&clean, test).error.as_deref(),
        Some("error: bundle has no policy access.mian\n  = help: the bundle defines: access.main")
    );
    assert_eq!(
        run(&project(&[]), test).error.as_deref(),
        Some("error: bundle has no policy access.mian\n  = help: the bundle defines no policies")
    );
    // With problems anywhere, they are why the policy may be missing.
    let broken = run(&standard(), test).error.unwrap_or_default();
    assert!(
        broken.starts_with("other/broken.sigil:3:11: error: unknown field \"nmae\" on type User\n"),
        "{broken}"
    );
    // A broken document the policy doesn't use doesn't matter; its own
    // errors stop it.
    let passing = "policy: access.main\ncases:\n  - name: c\n    input: {user: {name: a}}\n    expect: {decision: deny, reason: no_rule_matched}\n";
    assert_eq!(run(&standard(), passing).cases.len(), 1);
    let typo = ACCESS.replace("user.admin", "user.amdin");
    let result = run(
        &project(&[("access.sigil", ACCESS_KIND), ("access/main.sigil", &typo)]),
        passing,
    );
    let error = result.error.unwrap_or_default();
    assert!(
        error.starts_with("access/main.sigil:15:11: error: unknown field \"amdin\" on type User\n   |\n15 | when user.amdin {\n"),
        "{error}"
    );
    assert_eq!(result.policy, "access.main");
    assert!(result.cases.is_empty());
}

#[test]
fn a_kind_that_doesn_t_load_stops_the_file_with_its_diagnostic() {
    let broken_kind = ACCESS_KIND.replace("default deny(reason: no_rule_matched)\n", "");
    let project = project(&[
        ("access.sigil", &broken_kind),
        ("access/main.sigil", ACCESS),
    ]);
    let result = run(&project, "policy: access.main\ncases: []\n");
    let error = result.error.unwrap_or_default();
    assert!(
        error.starts_with("access.sigil:1:6: error: kind Access has no default decision\n"),
        "{error}"
    );
}

#[test]
fn a_policy_that_doesn_t_compile_stops_the_file() {
    let with_param = ACCESS.replace(
        "assert(\"named_user\"",
        "param level: int\n\nassert(\"named_user\"",
    );
    let project = project(&[
        ("access.sigil", ACCESS_KIND),
        ("access/main.sigil", &with_param),
    ]);
    let passing = "policy: access.main\ncases:\n  - name: c\n    input: {user: {name: a}}\n    expect: {decision: deny, reason: no_rule_matched}\n";
    let error = run(&project, passing).error.unwrap_or_default();
    assert!(error.contains("param `level` has no value"), "{error}");
}
