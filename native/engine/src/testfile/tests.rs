use super::*;
use crate::testing::{Rng, on_small_stack};
use crate::yaml::{MAX_DEPTH, Node, NodeValue, Resolved, Scalar};

const FILE: &str = "access/main_test.yaml";

/// A compact text of data for the tables: `#1` numbers, `"x"` strings.
fn show(data: &Data) -> String {
    match data {
        Data::Null => "null".to_owned(),
        Data::Bool(b) => b.to_string(),
        Data::Number(n) => format!("#{n}"),
        Data::String(s) => format!("{s:?}"),
        Data::List(items) => format!(
            "[{}]",
            items.iter().map(show).collect::<Vec<_>>().join(", ")
        ),
        Data::Object(fields) => format!("{{{}}}", show_fields(fields)),
    }
}

fn show_fields(fields: &[(String, Data)]) -> String {
    fields
        .iter()
        .map(|(k, v)| format!("{k}: {}", show(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn show_entry(entry: &ExpectedEntry) -> String {
    let mut out = format!("{}({})", entry.decision, entry.reason);
    if !entry.payload.is_empty() {
        out.push_str(&format!(" {{{}}}", show_fields(&entry.payload)));
    }
    out
}

fn show_expect(expect: &Expect) -> String {
    match expect {
        Expect::Decision(entry) => format!("decision {}", show_entry(entry)),
        Expect::Outcome(entries) => format!(
            "outcome [{}]",
            entries
                .iter()
                .map(show_entry)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Expect::Asserts(reasons) => format!("asserts {reasons:?}"),
        Expect::Error(text) => format!("error {text:?}"),
        Expect::NotOneForm => "not one form".to_owned(),
    }
}

fn show_input(input: &Input) -> String {
    match input {
        Input::Inline(data) => format!("input {}", show(data)),
        Input::File(path) => format!("input_file {path}"),
        Input::Missing => "no input".to_owned(),
        Input::Both => "both inputs".to_owned(),
    }
}

fn show_stubs(stubs: &Stubs) -> String {
    let node = |n: &Node| n.to_data().map(|d| show(&d)).unwrap_or_default();
    let answer = |a: &Answer| match a {
        Answer::Returns(value) => format!("returns {}", node(value)),
        Answer::Fails(message) => format!("fails {message:?}"),
    };
    stubs
        .functions
        .iter()
        .map(|stub| {
            let mut out = format!("{}@{}", stub.function, stub.line);
            if let Some(otherwise) = &stub.otherwise {
                out.push_str(&format!(" {}", answer(otherwise)));
            }
            for call in &stub.calls {
                let args: Vec<String> = call.args.iter().map(node).collect();
                out.push_str(&format!(
                    " [@{} ({}) {}]",
                    call.line,
                    args.join(", "),
                    answer(&call.answer)
                ));
            }
            out
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A read test file, or its error as the record shows it.
fn read(text: &str) -> String {
    match read_test_file(text) {
        Err(error) => error.render(FILE),
        Ok(file) => {
            let mut lines = vec![format!("policy {}", file.policy)];
            if !file.stubs.is_empty() {
                lines.push(format!("stubs {}", show_stubs(&file.stubs)));
            }
            for case in &file.cases {
                let mut line = format!(
                    "case {:?} @{}: {}; {}",
                    case.name,
                    case.line,
                    show_input(&case.input),
                    show_expect(&case.expect)
                );
                if !case.stubs.is_empty() {
                    line.push_str(&format!("; stubs {}", show_stubs(&case.stubs)));
                }
                lines.push(line);
            }
            lines.join("\n")
        }
    }
}

/// A test file that uses every key the format defines.
const FULL: &str = r##"policy: access.main
stubs:
  owner:
    returns: ada
  teams:
    calls:
      - args: [ada]
        returns: [platform, sre]
      - args: [bob]
        error: directory unavailable
    returns: []
cases:
  - name: an admin gets in
    input:
      user: {name: ada, admin: true}
      ttl: 1h30m
    expect:
      decision: allow
      reason: admin
      payload:
        ttl: 90m
        level: 2
  - name: from a file
    input_file: testdata/bob.json
    expect: {outcome: [{decision: notify, reason: routine}, {decision: page, reason: urgent, payload: {channel: "#ops"}}]}
  - name: nothing expected
    input: {}
    expect:
      outcome: []
  - name: unnamed users fail
    input: {user: {name: ""}}
    expect:
      asserts: [named_user, known_user]
  - name: the directory is down
    input: {user: {name: bob}}
    stubs:
      owner:
        error: directory unavailable
    expect:
      error: host function owner failed
"##;

#[test]
fn reads_every_key() {
    assert_eq!(
        read(FULL),
        r##"policy access.main
stubs owner@3 returns "ada"; teams@5 returns [] [@7 ("ada") returns ["platform", "sre"]] [@9 ("bob") fails "directory unavailable"]
case "an admin gets in" @13: input {user: {name: "ada", admin: true}, ttl: "1h30m"}; decision allow(admin) {ttl: "90m", level: #2}
case "from a file" @23: input_file testdata/bob.json; outcome [notify(routine), page(urgent) {channel: "#ops"}]
case "nothing expected" @26: input {}; outcome []
case "unnamed users fail" @30: input {user: {name: ""}}; asserts ["named_user", "known_user"]
case "the directory is down" @34: input {user: {name: "bob"}}; error "host function owner failed"; stubs owner@37 fails "directory unavailable""##
    );
}

struct Case {
    text: &'static str,
    want: &'static str,
}

/// What each key reads as, alone or with others.
#[rustfmt::skip]
const SHAPES: &[Case] = &[
    // Any scalar is text where text belongs; null is the empty text.
    Case { text: "policy: 12\ncases:\n- name: 3\n  input_file: 4\n  expect: {decision: true, reason: ~}\n",
           want: r#"policy 12
case "3" @3: input_file 4; decision true()"# },
    Case { text: "policy: a\ncases:\n- name: ~\n  input: ~\n  input_file: ''\n",
           want: r#"policy a
case "" @3: no input; not one form"# },
    Case { text: "policy: a\ncases:\n- {name: x, input: {a: 1}, input_file: a.json}\n",
           want: r#"policy a
case "x" @3: both inputs; not one form"# },
    Case { text: "policy: a\ncases: ~\nstubs: ~\n", want: "policy a" },
    Case { text: "policy: a\ncases: []\nstubs: {}\n", want: "policy a" },
    // The forms of expect.
    Case { text: "policy: a\ncases:\n- expect: {reason: r}\n",
           want: "policy a\ncase \"\" @3: no input; decision (r)" },
    Case { text: "policy: a\ncases:\n- expect: {payload: {}}\n",
           want: "policy a\ncase \"\" @3: no input; decision ()" },
    Case { text: "policy: a\ncases:\n- expect: {decision: '', payload: ~}\n",
           want: "policy a\ncase \"\" @3: no input; not one form" },
    Case { text: "policy: a\ncases:\n- expect: {asserts: []}\n",
           want: "policy a\ncase \"\" @3: no input; asserts []" },
    Case { text: "policy: a\ncases:\n- expect: {asserts: [~, 1]}\n",
           want: "policy a\ncase \"\" @3: no input; asserts [\"\", \"1\"]" },
    Case { text: "policy: a\ncases:\n- expect: {error: ''}\n",
           want: "policy a\ncase \"\" @3: no input; error \"\"" },
    Case { text: "policy: a\ncases:\n- expect: {error: ~, asserts: ~, outcome: ~}\n",
           want: "policy a\ncase \"\" @3: no input; not one form" },
    Case { text: "policy: a\ncases:\n- expect: {decision: d, outcome: []}\n",
           want: "policy a\ncase \"\" @3: no input; not one form" },
    Case { text: "policy: a\ncases:\n- expect: {asserts: [x], error: e}\n",
           want: "policy a\ncase \"\" @3: no input; not one form" },
    Case { text: "policy: a\ncases:\n- expect: {outcome: [~, {decision: d}]}\n",
           want: "policy a\ncase \"\" @3: no input; outcome [(), d()]" },
    Case { text: "policy: a\ncases:\n- expect: ~\n",
           want: "policy a\ncase \"\" @3: no input; not one form" },
    // Values keep YAML's types: the decoder reads them by the kind's.
    Case { text: "policy: a\ncases:\n- input: {n: 0x10, f: 1.10, s: '1.10', b: yes, t: 2026-01-01, z: ~}\n",
           want: r#"policy a
case "" @3: input {n: #16, f: #1.1, s: "1.10", b: "yes", t: "2026-01-01", z: null}; not one form"# },
    // Anchors and merge keys share inputs between cases.
    Case { text: "policy: a\ncases:\n- name: one\n  input: &base {user: ada, team: sre}\n- name: two\n  input:\n    <<: *base\n    team: ops\n",
           want: r#"policy a
case "one" @3: input {user: "ada", team: "sre"}; not one form
case "two" @5: input {team: "ops", user: "ada"}; not one form"# },
    // The line of a case is its first key's, however it is written.
    Case { text: "policy: a\ncases:\n  -\n    name: below\n  - {name: flow}\n  -   name: spaced\n",
           want: "policy a\ncase \"below\" @4: no input; not one form\ncase \"flow\" @5: no input; not one form\ncase \"spaced\" @6: no input; not one form" },
    // JSON is YAML.
    Case { text: r#"{"policy": "a", "cases": [{"name": "j", "input": {"n": 1.0}, "expect": {"asserts": ["x"]}}]}"#,
           want: "policy a\ncase \"j\" @1: input {n: #1.0}; asserts [\"x\"]" },
];

#[test]
fn shapes_table() {
    for (i, case) in SHAPES.iter().enumerate() {
        assert_eq!(read(case.text), case.want, "row {i}: {:?}", case.text);
    }
}

const HELP: &str = "(a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)";

/// Every file error, as the record's `error` shows it.
#[rustfmt::skip]
const FILE_ERRORS: &[Case] = &[
    // YAML syntax, with the line of the problem.
    Case { text: "policy: a\ncases:\n  - name: x\n   input: {}\n",
           want: "access/main_test.yaml: not a valid test file: line 4: while parsing a block collection, did not find expected '-' indicator (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases: [\n",
           want: "access/main_test.yaml: not a valid test file: line 3: while parsing a node, did not find expected node content (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    // Unknown keys, with the place's nearest key first in the help.
    Case { text: "policy: a\npolcy: b\n",
           want: "access/main_test.yaml: not a valid test file: line 2: unknown key \"polcy\" in the file (did you mean \"policy\"? a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- name: x\n  expcet: {}\n",
           want: "access/main_test.yaml: not a valid test file: line 4: unknown key \"expcet\" in a case (did you mean \"expect\"? a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: {decison: d}\n",
           want: "access/main_test.yaml: not a valid test file: line 3: unknown key \"decison\" in an expect (did you mean \"decision\"? a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect:\n    outcome:\n    - {decision: d, reasons: r}\n",
           want: "access/main_test.yaml: not a valid test file: line 5: unknown key \"reasons\" in an outcome entry (did you mean \"reason\"? a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\nzzz: 1\n",
           want: "access/main_test.yaml: not a valid test file: line 2: unknown key \"zzz\" in the file (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    // Every problem of the shape, in document order, joined by "; ".
    Case { text: "polcy: a\ncases:\n- name: [x]\n  inptu: {}\n  expect: {asserts: x}\n- nme: y\n",
           want: "access/main_test.yaml: not a valid test file: line 1: unknown key \"polcy\" in the file; line 3: name must be a string, found a list; line 4: unknown key \"inptu\" in a case; line 5: asserts must be a list, found a string; line 6: unknown key \"nme\" in a case (did you mean \"policy\"? did you mean \"input\"? did you mean \"name\"? a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    // Values of the wrong type.
    Case { text: "- policy\n", want: "access/main_test.yaml: not a valid test file: line 1: the file must be an object, found a list (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "just text\n", want: "access/main_test.yaml: not a valid test file: line 1: the file must be an object, found a string (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: [a]\n", want: "access/main_test.yaml: not a valid test file: line 1: policy must be a string, found a list (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases: {name: x}\n", want: "access/main_test.yaml: not a valid test file: line 2: cases must be a list, found an object (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases: [x]\n", want: "access/main_test.yaml: not a valid test file: line 2: a case must be an object, found a string (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- input_file: {a: b}\n", want: "access/main_test.yaml: not a valid test file: line 3: input_file must be a string, found an object (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: [decision]\n", want: "access/main_test.yaml: not a valid test file: line 3: expect must be an object, found a list (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: {decision: {a: 1}, reason: [r]}\n", want: "access/main_test.yaml: not a valid test file: line 3: decision must be a string, found an object; line 3: reason must be a string, found a list (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: {decision: d, payload: [1]}\n", want: "access/main_test.yaml: not a valid test file: line 3: payload must be an object, found a list (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: {outcome: {decision: d}}\n", want: "access/main_test.yaml: not a valid test file: line 3: outcome must be a list, found an object (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: {outcome: [d]}\n", want: "access/main_test.yaml: not a valid test file: line 3: an outcome entry must be an object, found a string (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: {asserts: [[x]]}\n", want: "access/main_test.yaml: not a valid test file: line 3: an assert must be a string, found a list (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: {error: {}}\n", want: "access/main_test.yaml: not a valid test file: line 3: error must be a string, found an object (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    // Keys given twice: the mapping isn't read further.
    Case { text: "policy: a\ncases: []\npolicy: b\n", want: "access/main_test.yaml: not a valid test file: line 3: mapping key \"policy\" already defined at line 1 (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- name: x\n  name: y\n  inptu: 1\n", want: "access/main_test.yaml: not a valid test file: line 4: mapping key \"name\" already defined at line 3 (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- input:\n    user: ada\n    user: bob\n", want: "access/main_test.yaml: not a valid test file: line 5: mapping key \"user\" already defined at line 4 (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    Case { text: "policy: a\ncases:\n- expect: {decision: d, payload: {a: 1, a: 2}}\n", want: "access/main_test.yaml: not a valid test file: line 3: mapping key \"a\" already defined at line 3 (a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
    // A null case, then a missing policy.
    Case { text: "policy: a\ncases:\n- name: x\n-\n- ~\n", want: "access/main_test.yaml: case 2 is null (each case must be an object with name, input or input_file, and expect)" },
    Case { text: "cases:\n- ~\n", want: "access/main_test.yaml: case 1 is null (each case must be an object with name, input or input_file, and expect)" },
    Case { text: "cases: []\n", want: "access/main_test.yaml: the test file names no policy (add `policy: <name>` for the policy its cases evaluate)" },
    Case { text: "policy: ''\n", want: "access/main_test.yaml: the test file names no policy (add `policy: <name>` for the policy its cases evaluate)" },
    Case { text: "policy:\n", want: "access/main_test.yaml: the test file names no policy (add `policy: <name>` for the policy its cases evaluate)" },
    Case { text: "", want: "access/main_test.yaml: the test file names no policy (add `policy: <name>` for the policy its cases evaluate)" },
    Case { text: "~\n", want: "access/main_test.yaml: the test file names no policy (add `policy: <name>` for the policy its cases evaluate)" },
    // Precedence: stubs of the wrong shape over the rest of the shape,
    // the shape over a null case, a null case over the policy.
    Case { text: "polcy: a\ncases:\n- ~\n- name: x\n  stubs: {owner: {}}\n", want: "access/main_test.yaml:5: case \"x\": stub owner gives no result (give `returns:` for the result of every call, `error:` for a call that fails, or `calls:` to answer particular args)" },
    Case { text: "cases:\n- ~\n- nme: x\n", want: "access/main_test.yaml: not a valid test file: line 3: unknown key \"nme\" in a case (did you mean \"name\"? a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`)" },
];

#[test]
fn file_errors_table() {
    for (i, case) in FILE_ERRORS.iter().enumerate() {
        assert_eq!(read(case.text), case.want, "row {i}: {:?}", case.text);
    }
    assert!(HELP.starts_with('('));
}

/// Stub problems of a test file: every stubs object's, the file's and each
/// case's, sorted by line, each naming its case.
#[test]
fn stub_problems_of_a_file() {
    let text = "policy: a
cases:
  - name: second
    stubs:
      owner: {returns: x, error: y}
  - stubs: {teams: 5}
    name: third
stubs:
  owner: {}
  group: {calls: 1}
";
    assert_eq!(
        read(text),
        "access/main_test.yaml:5: case \"second\": stub owner gives both returns and error (a call either returns a value or fails; keep one)
access/main_test.yaml:6: case \"third\": stub teams must be an object with returns, error, calls (write a stub as a mapping of returns, error, calls)
access/main_test.yaml:9: stub owner gives no result (give `returns:` for the result of every call, `error:` for a call that fails, or `calls:` to answer particular args)
access/main_test.yaml:10: stub group: calls must be a list (make `calls:` a list of entries like `{args: [...], returns: ...}`)"
    );
}

/// Every message of a stubs object (tooling §7.4), with its line.
#[rustfmt::skip]
const STUB_PROBLEMS: &[Case] = &[
    Case { text: "[owner]", want: "1: stubs must be an object (write one key per host function, each with its stub, like `teams: {returns: [platform]}`)" },
    Case { text: "owner: ada", want: "1: stub owner must be an object with returns, error, calls (write a stub as a mapping of returns, error, calls)" },
    Case { text: "owner:\nteams: {returns: []}", want: "1: stub owner must be an object with returns, error, calls (write a stub as a mapping of returns, error, calls)" },
    Case { text: "owner: {returns: a, error: b}", want: "1: stub owner gives both returns and error (a call either returns a value or fails; keep one)" },
    Case { text: "owner: {}", want: "1: stub owner gives no result (give `returns:` for the result of every call, `error:` for a call that fails, or `calls:` to answer particular args)" },
    Case { text: "owner: {calls: []}", want: "1: stub owner gives no result (give `returns:` for the result of every call, `error:` for a call that fails, or `calls:` to answer particular args)" },
    // An unknown key doesn't stand in for a result.
    Case { text: "owner:\n  retuns: a", want: "1: stub owner gives no result (give `returns:` for the result of every call, `error:` for a call that fails, or `calls:` to answer particular args)\n2: stub owner: unknown key \"retuns\" (did you mean \"returns\"? a stub takes returns, error, calls)" },
    Case { text: "owner:\n  answer: a\n  returns: b", want: "2: stub owner: unknown key \"answer\" (a stub takes returns, error, calls)" },
    Case { text: "owner:\n  returns: a\n  returns: b", want: "3: stub owner: returns is given twice (keep one returns)" },
    Case { text: "owner: {returns: a}\nowner: {returns: b}", want: "2: owner is stubbed twice (the first stub of owner is on line 1; keep one)" },
    Case { text: "owner: {calls: {args: [a]}}", want: "1: stub owner: calls must be a list (make `calls:` a list of entries like `{args: [...], returns: ...}`)" },
    Case { text: "owner:\n  calls:\n  - [a]", want: "3: stub owner: call 1 must be an object with args, returns, error (write a call as a mapping of args, returns, error)" },
    Case { text: "owner:\n  calls:\n  - {args: [a], returns: x, error: y}", want: "3: stub owner: call 1 needs exactly one of returns and error (give the entry `returns:` for the result of a call with its args, or `error:` for the message that call fails with)" },
    Case { text: "owner:\n  calls:\n  - {args: [a], returns: x}\n  - {args: [b]}", want: "4: stub owner: call 2 needs exactly one of returns and error (give the entry `returns:` for the result of a call with its args, or `error:` for the message that call fails with)" },
    Case { text: "owner:\n  calls:\n  - {returns: x}", want: "3: stub owner: call 1 has no args (give `args:` as a list with one value per param of the function)" },
    Case { text: "owner:\n  calls:\n  - returns: x\n    args: a", want: "4: stub owner: call 1: args must be a list (give `args:` as a list with one value per param of the function)" },
    Case { text: "owner:\n  calls:\n  - {args: [a], returns: x, arg: 1}", want: "3: stub owner: call 1: unknown key \"arg\" (did you mean \"args\"? a call takes args, returns, error)" },
    Case { text: "owner: {error: ''}", want: "1: stub owner: error must be a message (write the message the call fails with as text, like `error: timeout`)" },
    Case { text: "owner:\n  error:", want: "2: stub owner: error must be a message (write the message the call fails with as text, like `error: timeout`)" },
    Case { text: "owner:\n  calls:\n  - args: []\n    error: [x]", want: "4: stub owner: call 1: error must be a message (write the message the call fails with as text, like `error: timeout`)" },
    Case { text: "owner:\n  returns: {a: 1, a: 2}", want: "2: stub owner: mapping key \"a\" already defined at line 2 (give each key of a mapping once)" },
    Case { text: "owner:\n  calls:\n  - args: [{k: 1, k: 2}]\n    returns: x", want: "3: stub owner: call 1: mapping key \"k\" already defined at line 3 (give each key of a mapping once)" },
    // Several problems, sorted by line.
    Case { text: "b: {returns: 1, error: x}\na:\n  calls:\n  - {}\n  retrns: 2",
           want: "1: stub b gives both returns and error (a call either returns a value or fails; keep one)\n4: stub a: call 1 needs exactly one of returns and error (give the entry `returns:` for the result of a call with its args, or `error:` for the message that call fails with)\n4: stub a: call 1 has no args (give `args:` as a list with one value per param of the function)\n5: stub a: unknown key \"retrns\" (did you mean \"returns\"? a stub takes returns, error, calls)" },
];

fn stub_problems(text: &str) -> String {
    match read_stubs(text) {
        Ok(stubs) => format!("ok {}", show_stubs(&stubs)),
        Err(problems) => problems
            .iter()
            .map(|p| format!("{}: {}", p.line, p.text()))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[test]
fn stub_problems_table() {
    for (i, case) in STUB_PROBLEMS.iter().enumerate() {
        assert_eq!(
            stub_problems(case.text),
            case.want,
            "row {i}: {:?}",
            case.text
        );
    }
}

#[rustfmt::skip]
const STUBS: &[Case] = &[
    Case { text: "", want: "ok " },
    Case { text: "null", want: "ok " },
    Case { text: "{}", want: "ok " },
    Case { text: "owner: {returns: ~}", want: "ok owner@1 returns null" },
    Case { text: "owner: {error: 404}", want: "ok owner@1 fails \"404\"" },
    Case { text: "owner: {calls: [{args: [], error: gone}]}", want: "ok owner@1 [@1 () fails \"gone\"]" },
    Case { text: r#"{"owner": {"returns": "ada"}, "teams": {"calls": [{"args": ["ada", 2.50], "returns": ["sre"]}], "error": "down"}}"#,
           want: "ok owner@1 returns \"ada\"; teams@1 fails \"down\" [@1 (\"ada\", #2.5) returns [\"sre\"]]" },
    Case { text: "{\"a\": [1,", want: "0: not valid YAML or JSON: line 2: while parsing a node, did not find expected node content (write the stubs as one YAML or JSON object with a key per host function)" },
];

#[test]
fn read_stubs_table() {
    for (i, case) in STUBS.iter().enumerate() {
        assert_eq!(
            stub_problems(case.text),
            case.want,
            "row {i}: {:?}",
            case.text
        );
    }
}

/// A stub value keeps its text as written and its line, for the decoder
/// to read it by the param's or result's type.
#[test]
fn stub_values_keep_text_and_lines() {
    let stubs = read_stubs(
        "owner:\n  calls:\n  - args: [1.10, 2026-01-01]\n    returns:\n      name: True\n",
    )
    .unwrap();
    let call = &stubs.functions[0].calls[0];
    let texts: Vec<Option<&str>> = call.args.iter().map(Node::text).collect();
    assert_eq!(texts, [Some("1.10"), Some("2026-01-01")]);
    assert_eq!(call.args[0].line, 3);
    let Answer::Returns(value) = &call.answer else {
        panic!("not a returns")
    };
    assert_eq!(value.line, 5);
    let NodeValue::Object(fields) = &value.value else {
        panic!("not an object")
    };
    assert_eq!(
        fields[0].value.value,
        NodeValue::Scalar(Scalar {
            text: "True".into(),
            resolved: Resolved::Bool(true)
        })
    );
}

#[test]
fn compile_request_text() {
    let problems = read_stubs("owner: {}\nteams: 1\n").unwrap_err();
    let lines: Vec<String> = problems
        .iter()
        .map(|p| format!("stubs: {}", p.text()))
        .collect();
    assert_eq!(
        lines.join("\n"),
        "stubs: stub owner gives no result (give `returns:` for the result of every call, `error:` for a call that fails, or `calls:` to answer particular args)\nstubs: stub teams must be an object with returns, error, calls (write a stub as a mapping of returns, error, calls)"
    );
    assert!(COMPILE_STUBS_HELP.ends_with("stubs:"));
}

#[test]
fn case_stubs_override_the_files() {
    let file = read_stubs("owner: {returns: a}\nteams: {returns: [x]}\n").unwrap();
    let case = read_stubs("teams: {error: down}\ngroup: {returns: g}\n").unwrap();
    assert_eq!(
        show_stubs(&file.overridden_by(&case)),
        "owner@1 returns \"a\"; teams@1 fails \"down\"; group@2 returns \"g\""
    );
    assert_eq!(file.overridden_by(&Stubs::default()), file);
    assert_eq!(Stubs::default().overridden_by(&case), case);
    assert!(file.get("teams").is_some());
    assert!(file.get("group").is_none());
}

struct Checks {
    text: &'static str,
    collects_all: bool,
    want: &'static str,
}

/// Step 4's problems that need only the kind's name and collect mode.
#[rustfmt::skip]
const CASE_PROBLEMS: &[Checks] = &[
    Checks { text: "policy: a\ncases:\n- name: ok\n  input: {}\n  expect: {decision: allow, reason: r}\n", collects_all: false, want: "" },
    Checks { text: "policy: a\ncases:\n- input: {}\n  expect: {decision: allow, reason: r}\n", collects_all: false,
             want: "t_test.yaml:3: case has no name (every case needs a name, which `--run` matches and failures report)" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}, expect: {error: e}}\n- {name: y, input: {}, expect: {error: e}}\n- {name: x, input: {}, expect: {error: e}}\n- {name: x, input: {}, expect: {error: e}}\n", collects_all: false,
             want: "t_test.yaml:5: case \"x\": case \"x\" is defined twice (the first is on line 3; give each case its own name)\nt_test.yaml:6: case \"x\": case \"x\" is defined twice (the first is on line 3; give each case its own name)" },
    Checks { text: "policy: a\ncases:\n- name: x\n  expect: {error: e}\n", collects_all: false,
             want: "t_test.yaml:3: case \"x\": case needs exactly one of input and input_file (give the input inline with `input:`, or name a JSON file with `input_file:`)" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}, input_file: a.json, expect: {error: e}}\n", collects_all: false,
             want: "t_test.yaml:3: case \"x\": case needs exactly one of input and input_file (give the input inline with `input:`, or name a JSON file with `input_file:`)" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}}\n", collects_all: false,
             want: "t_test.yaml:3: case \"x\": case must expect exactly one of decision, outcome, asserts and error (expect a decision with its reason, an outcome for a collect all kind, the asserts that fail, or the runtime error the evaluation fails with)" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}, expect: {outcome: []}}\n", collects_all: false,
             want: "t_test.yaml:3: case \"x\": outcome is for collect all kinds, and Access collects one (a collect one kind decides once; expect `decision:` and `reason:`)" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}, expect: {outcome: []}}\n", collects_all: true, want: "" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}, expect: {decision: d, reason: r}}\n", collects_all: true,
             want: "t_test.yaml:3: case \"x\": Access collects all, so expect an outcome (a collect all kind returns every decision that fired; list them under `outcome:`)" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}, expect: {reason: r}}\n", collects_all: true, want: "" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}, expect: {asserts: []}}\n", collects_all: false,
             want: "t_test.yaml:3: case \"x\": asserts is empty (name the reasons of the asserts that should fail)" },
    Checks { text: "policy: a\ncases:\n- {name: x, input: {}, expect: {error: ''}}\n", collects_all: true,
             want: "t_test.yaml:3: case \"x\": error is empty (give text the runtime error's message contains, like `error: host function owner failed`)" },
    Checks { text: "policy: a\ncases:\n- {input_file: a.json, input: {}}\n", collects_all: false,
             want: "t_test.yaml:3: case has no name (every case needs a name, which `--run` matches and failures report)\nt_test.yaml:3: case needs exactly one of input and input_file (give the input inline with `input:`, or name a JSON file with `input_file:`)\nt_test.yaml:3: case must expect exactly one of decision, outcome, asserts and error (expect a decision with its reason, an outcome for a collect all kind, the asserts that fail, or the runtime error the evaluation fails with)" },
];

#[test]
fn case_problems_table() {
    for (i, case) in CASE_PROBLEMS.iter().enumerate() {
        let file = read_test_file(case.text).unwrap();
        let problems: Vec<Problem> = file
            .case_problems("Access", case.collects_all)
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(
            render_all(&problems, "t_test.yaml"),
            case.want,
            "row {i}: {:?}",
            case.text
        );
    }
}

#[test]
fn case_problems_come_per_case() {
    let file = read_test_file(
        "policy: a\ncases:\n- {name: x}\n- {name: y, input: {}, expect: {error: e}}\n- {}\n",
    )
    .unwrap();
    let counts: Vec<usize> = file
        .case_problems("K", false)
        .iter()
        .map(Vec::len)
        .collect();
    assert_eq!(counts, [2, 0, 3]);
}

#[test]
fn problem_rendering() {
    let problem = |line, case: Option<&str>, help: Option<&str>| Problem {
        line,
        case: case.map(str::to_owned),
        message: "msg".to_owned(),
        help: help.map(str::to_owned),
    };
    let cases = [
        (problem(0, None, None), "f.yaml: msg", "msg"),
        (problem(3, None, None), "f.yaml:3: msg", "msg"),
        (
            problem(3, Some("a \"b\""), Some("do")),
            "f.yaml:3: case \"a \\\"b\\\"\": msg (do)",
            "msg (do)",
        ),
        (problem(0, Some(""), Some("")), "f.yaml: msg", "msg"),
    ];
    for (p, rendered, text) in cases {
        assert_eq!(p.render("f.yaml"), rendered);
        assert_eq!(p.text(), text);
    }
}

/// The structured errors behind the texts.
#[test]
fn errors_are_data() {
    let Err(FileError::Shape(errors)) = read_test_file("policy: a\ncases:\n- expcet: {}\n") else {
        panic!("not a shape error")
    };
    assert_eq!(
        errors,
        [ShapeError {
            line: 3,
            column: 3,
            problem: ShapeProblem::UnknownKey {
                key: "expcet".into(),
                place: Place::Case,
                suggestion: Some("expect")
            }
        }]
    );
    let Err(FileError::Syntax(error)) = read_test_file("a: b: c\n") else {
        panic!("not a syntax error")
    };
    assert_eq!((error.line, error.column), (1, 5));
    assert_eq!(read_test_file("cases: [~, ~]"), Err(FileError::NullCase(1)));
    assert_eq!(read_test_file("cases: []"), Err(FileError::NoPolicy));
    for place in [Place::File, Place::Case, Place::Expect, Place::OutcomeEntry] {
        assert!(!place.keys().is_empty());
    }
}

/// Values nested as deep as YAML allows read without exhausting a small
/// stack, in inputs and in stub values alike.
#[test]
fn deep_values() {
    on_small_stack(|| {
        // The file, the cases, a case and `input` take four levels.
        let depth = MAX_DEPTH - 4;
        let value = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let mut text = String::from("policy: a\nstubs:\n  f:\n    returns: &deep\n");
        let mut nested = String::new();
        for level in 0..depth - 200 {
            nested.push_str(&" ".repeat(level + 6));
            nested.push_str("k:\n");
        }
        nested.push_str(&" ".repeat(depth - 200 + 6));
        nested.push_str(&format!("k: {value}\n"));
        text.push_str(&nested);
        text.push_str("cases:\n  - name: deep\n    input: *deep\n");
        let file = read_test_file(&text).unwrap();
        assert!(matches!(
            file.cases[0].input,
            Input::Inline(Data::Object(_))
        ));
        assert!(matches!(
            file.stubs.functions[0].otherwise,
            Some(Answer::Returns(_))
        ));
        let too_deep = text.replace(
            "cases:\n  - name: deep\n    input: *deep\n",
            "cases:\n  - name: deep\n    input:\n      k: *deep\n",
        );
        assert!(matches!(
            read_test_file(&too_deep),
            Err(FileError::Syntax(_))
        ));
    });
}

/// Mutated test files never panic: reading, the step 4 checks and the
/// rendering of every error answer every input.
#[test]
fn mutations_never_panic() {
    const BYTES: &[u8] = b" \n:-[]{},&*!|>'\"#~<0ax";
    let mut rng = Rng(0x7e57_f11e);
    for _ in 0..2000 {
        let mut bytes = FULL.as_bytes().to_vec();
        for _ in 0..=rng.below(3) {
            let at = rng.below(bytes.len());
            let byte = BYTES[rng.below(BYTES.len())];
            if rng.below(2) == 0 {
                bytes.insert(at, byte);
            } else {
                bytes[at] = byte;
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        match read_test_file(&text) {
            Ok(file) => {
                let _ = file.case_problems("K", rng.below(2) == 0);
            }
            Err(error) => {
                assert!(!error.render(FILE).is_empty());
            }
        }
    }
}
