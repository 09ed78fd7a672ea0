//! Every request has a bounded cost (issue #20): the requests that once
//! made answers, diagnostics or compile time grow faster than their size,
//! scaled down, with their answers' counts and sizes asserted (timings are
//! the `abuse` example's: `cargo run --release --example abuse`).

use super::eval_tests::{answer, list_member};
use super::invocation_chain::chain;
use crate::bundle::{NamedFile, Project};
use crate::compile::MAX_INSTANCES;
use crate::diag::{MAX_PER_FILE, MAX_PER_REQUEST};

const KIND: &str = "kind Door version 1\n\ninput floor: int\ninput user: string\n\nfn badge(string) -> bool\n\ndecision deny {\n  reason: closed | no_rule\n}\n\ndecision allow {\n  reason: member\n}\n\ncollect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";

const TEST: &str = "policy: door.main\ncases:\n  - name: upstairs\n    input: {floor: 2, user: ada}\n    expect: {decision: deny}\n";

/// The files member of a request: the kind and `policies` (path, source).
fn files(policies: &[(&str, &str)]) -> String {
    let mut all = vec![("kind.sigil", KIND)];
    all.extend_from_slice(policies);
    list_member("files", &all)
}

/// The start of an answer, for a failure's message.
fn head(answer: &str) -> String {
    answer.chars().take(300).collect()
}

/// The end of an answer, for a failure's message.
fn tail(answer: &str) -> String {
    let skip = answer.chars().count().saturating_sub(300);
    answer.chars().skip(skip).collect()
}

/// How many times `needle` occurs in `haystack`.
fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

#[test]
fn a_test_of_a_policy_of_junk_answers_a_bounded_error() {
    // Was: every `#` a diagnostic quoting the whole 20,000-character line,
    // a 600 MB answer from a 21 KB request.
    let junk = "#".repeat(20_000);
    let got = answer(&format!(
        r#"{{"op":"test",{},{}}}"#,
        files(&[("door/main.sigil", &junk)]),
        list_member("test_files", &[("door/main_test.yaml", TEST)])
    ));
    assert!(got.starts_with(r#"{"ok":true,"results":[{"file":"door/main_test.yaml","policy":"door.main","error":"door/main.sigil:1:1: error: unexpected character `#`"#), "{}", head(&got));
    assert_eq!(count(&got, "door/main.sigil:1:"), MAX_PER_FILE);
    assert_eq!(
        count(
            &got,
            "door/main.sigil: error: too many errors: only the first 100 of this file are reported"
        ),
        1
    );
    // Each quoted line is cut to a window of the line.
    assert!(got.len() < 40 * 1024, "{} bytes", got.len());
}

#[test]
fn format_of_junk_answers_at_most_the_capped_diagnostics() {
    // Was: one diagnostic per junk token, and seconds for 80,000 of them.
    let junk = "when ".repeat(40_000);
    let got = answer(&format!(
        r#"{{"op":"format","path":"a.sigil","source":"policy a: K@1\n{junk}"}}"#
    ));
    assert!(
        got.starts_with(r#"{"ok":false,"error":{"message":"a.sigil has syntax errors""#),
        "{}",
        head(&got)
    );
    assert_eq!(count(&got, r#""severity":"error""#), MAX_PER_FILE + 1);
    assert!(got.ends_with(r#"{"severity":"error","file":"a.sigil","message":"too many errors: only the first 100 of this file are reported","help":"fix the errors reported and check again to see the rest"}]}"#), "{}", tail(&got));
}

#[test]
fn check_of_nul_bytes_answers_the_capped_diagnostics() {
    // Was: 2 MiB of NUL bytes trapped the module on allocation (one
    // diagnostic and one token per byte).
    let junk = "\0".repeat(200_000);
    let got = answer(&format!(
        r#"{{"op":"check",{}}}"#,
        files(&[(
            "door/main.sigil",
            &format!("policy door.main: Door@1\n{junk}")
        )])
    ));
    assert_eq!(
        count(&got, r#""severity":"error""#),
        MAX_PER_FILE + 1,
        "{}",
        head(&got)
    );
    assert_eq!(count(&got, "too many errors"), 1);
}

#[test]
fn check_of_many_broken_files_answers_at_most_the_request_s_cap() {
    let junk = "#".repeat(MAX_PER_FILE + 5);
    let broken: Vec<(String, String)> = (0..MAX_PER_REQUEST / MAX_PER_FILE + 2)
        .map(|i| {
            (
                format!("f{i:02}.sigil"),
                format!("policy f{i:02}: Door@1\n{junk}"),
            )
        })
        .collect();
    let got = answer(&format!(
        r#"{{"op":"check",{}}}"#,
        list_member(
            "files",
            &[&[("kind.sigil".to_owned(), KIND.to_owned())], &broken[..]].concat()
        )
    ));
    assert_eq!(count(&got, r#""severity":"error""#), MAX_PER_REQUEST + 1);
    assert!(got.ends_with(r#"{"severity":"error","message":"too many errors: only the first 1000 of the request are reported","help":"fix the errors reported and check again to see the rest"}]}"#), "{}", tail(&got));
}

#[test]
fn compiled_rules_keep_their_positions_in_every_file() {
    // The compiler indexes each file's lines once (it did per rule: O(rules²)).
    let rules = |name: &str, uses: &str, n: usize| {
        let mut s = format!("policy door.{name}: Door@1\n\n{uses}");
        for i in 0..n {
            s.push_str(&format!(
                "when floor > {i} {{\n  allow(reason: member)\n}}\n\n"
            ));
        }
        s
    };
    let file = |path: &str, source: String| NamedFile {
        path: path.to_owned(),
        source: source.into(),
        trusted: false,
    };
    let main = format!(
        "{}when floor < 0 {{\n  side()\n}}\n",
        rules("main", "use door.side\n\n", 300)
    );
    let project = Project::load(vec![
        file("kind.sigil", KIND.to_owned()),
        file("door/main.sigil", main),
        file("door/side.sigil", rules("side", "", 200)),
    ]);
    assert!(project.diagnostics.is_empty(), "{:?}", project.diagnostics);
    let root = project.docs.iter().position(|d| d.name == "door.main");
    let program = crate::compile::compile(&project, root.unwrap()).unwrap();
    let positions: Vec<&str> = program.rules.iter().map(|r| &*r.position).collect();
    assert_eq!(positions.len(), 500);
    assert_eq!(positions[0], "door/main.sigil:6:3");
    assert_eq!(positions[299], "door/main.sigil:1202:3");
    assert_eq!(positions[300], "door/side.sigil:4:3");
    assert_eq!(positions[499], "door/side.sigil:800:3");
}

#[test]
fn a_name_defined_many_times_reports_the_capped_diagnostics() {
    // Was: each later definition looked through every document and indexed
    // the first one's file again for its position: O(documents²).
    let same = "policy door.main: Door@1\n".repeat(3 * MAX_PER_FILE);
    let got = answer(&format!(
        r#"{{"op":"check",{}}}"#,
        files(&[("door/main.sigil", &same)])
    ));
    assert_eq!(
        count(&got, "policy door.main is defined twice"),
        MAX_PER_FILE
    );
    assert_eq!(
        count(&got, "first defined at door/main.sigil:1:1;"),
        MAX_PER_FILE
    );
    assert_eq!(count(&got, r#""severity":"error""#), MAX_PER_FILE + 1);
    assert!(got.ends_with(r#"{"severity":"error","file":"door/main.sigil","message":"too many errors: only the first 100 of this file are reported","help":"fix the errors reported and check again to see the rest"}]}"#), "{}", tail(&got));
}

#[test]
fn a_policy_invoked_many_times_reports_the_capped_findings() {
    // Was: each repeat scanned the earlier calls and indexed the file again.
    let main = format!(
        "policy door.main: Door@1\n\nuse door.side\n\n{}",
        "side()\n".repeat(3 * MAX_PER_FILE)
    );
    let side = "policy door.side: Door@1\n\nwhen floor > 1 {\n  allow(reason: member)\n}\n";
    let got = answer(&format!(
        r#"{{"op":"check",{}}}"#,
        files(&[("door/main.sigil", &main), ("door/side.sigil", side)])
    ));
    assert_eq!(
        count(&got, "door.side is invoked twice with the same arguments"),
        MAX_PER_FILE
    );
    assert_eq!(count(&got, "the first is on line 5;"), MAX_PER_FILE);
    assert_eq!(count(&got, "too many errors"), 1);
}

#[test]
fn a_request_of_a_token_per_byte_under_the_body_limit_allocates_under_64_mib() {
    // Was: 145 MiB of module memory for format of 4 MiB of `(` (a 20-byte
    // token per byte, in a list grown by doubling); the goal of issue #20 is
    // 64 MiB for any request under the 4 MiB body limit.
    let parens = "(".repeat(4_000_000);
    for op in ["format", "check"] {
        let request = if op == "format" {
            format!(r#"{{"op":"format","path":"a.sigil","source":"{parens}"}}"#)
        } else {
            format!(
                r#"{{"op":"check",{}}}"#,
                files(&[("door/main.sigil", &parens)])
            )
        };
        let (got, peak) = crate::testing::peak_bytes(|| answer(&request));
        assert!(got.starts_with(r#"{"ok":"#), "{op}: {}", head(&got));
        assert!(peak < 64 << 20, "{op}: {peak} bytes at most at once");
    }
}

#[test]
fn a_chain_of_policies_that_each_invoke_the_next_twice_stops_at_the_instance_cap() {
    // Was: every invocation a new instance, 2^30 of them for 30 policies of
    // 80 bytes, for compile, explain and (once it compiled every policy in
    // scope) check. The depth-first compile crosses the cap at the first
    // call of the last policy but one.
    let chain = chain(30);
    let policies: Vec<(&str, &str)> = chain
        .iter()
        .map(|(p, s)| (p.as_str(), s.as_str()))
        .collect();
    let files = files(&policies);
    let error = format!(
        r#"{{"severity":"error","file":"door/p28.sigil","document":"door.p28","message":"invoking `door.p29` here makes more than {MAX_INSTANCES} policy instances in one request","help":"every invocation compiles the invoked policy again, so policies that invoke others more than once multiply; invoke each policy from fewer places, or pass what varies as input","line":7,"column":1}}"#
    );
    for op in ["compile", "explain"] {
        let got = answer(&format!(r#"{{"op":"{op}",{files},"policy":"door.main"}}"#));
        assert!(got.starts_with(r#"{"ok":false,"#), "{}", head(&got));
        assert!(
            got.ends_with(&format!(r#""diagnostics":[{error}]}}"#)),
            "{}",
            tail(&got)
        );
    }
    // A check gives each root its own instances, within the request's
    // work: `door.main` crosses at the same call, `door.p1` one call on (its
    // 10,001st instance), and `door.p2` crosses the work cap, after which
    // no root is compiled.
    let got = answer(&format!(r#"{{"op":"check",{files}}}"#));
    assert_eq!(count(&got, &error), 1, "{}", head(&got));
    let second = error.replace(r#""line":7"#, r#""line":8"#);
    assert_eq!(count(&got, &second), 1, "{}", head(&got));
    let work = "invoking `door.p29` here compiles more than 64 MiB of policy source in one request";
    assert_eq!(count(&got, work), 1, "{}", head(&got));
    assert_eq!(count(&got, r#""severity":"error""#), 3, "{}", head(&got));
}

#[test]
fn check_gives_each_root_the_instances_a_compile_of_it_has() {
    // Was: the roots of a check shared one budget, so at depth 13 (8,191
    // instances for `door.main`, which compiles) the check of the chain
    // (16,369 instances over its 13 roots) refused an invocation.
    let chain = chain(13);
    let policies: Vec<(&str, &str)> = chain
        .iter()
        .map(|(p, s)| (p.as_str(), s.as_str()))
        .collect();
    let files = files(&policies);
    let compiled = answer(&format!(
        r#"{{"op":"compile",{files},"policy":"door.main"}}"#
    ));
    assert!(
        compiled.starts_with(r#"{"ok":true,"#),
        "{}",
        head(&compiled)
    );
    let checked = answer(&format!(r#"{{"op":"check",{files}}}"#));
    assert_eq!(checked, r#"{"ok":true,"diagnostics":[]}"#);
}

/// 46,000 rules (3.9 MB), about the most under the 4 MiB body limit.
fn rules() -> String {
    let rules: String = (0..46_000)
        .map(|i| format!("when floor > {i} and badge(user) and user != \"u{i}\" {{\n  allow(reason: member)\n}}\n\n"))
        .collect();
    format!("policy door.main: Door@1\n\n{rules}")
}

/// 140,000 lets (3.8 MB), about the most under the 4 MiB body limit.
fn lets() -> String {
    let lets: String = (0..140_000)
        .map(|i| format!("let l{i} = floor + {i}\n"))
        .collect();
    format!("policy door.main: Door@1\n{lets}")
}

/// The most bytes `op` on the policy `source` (with the kind) had
/// allocated at once, natively, where pointers and spans take twice the
/// module's bytes; the answer must be a success.
fn peak(op: &str, source: &str) -> usize {
    let files = files(&[("door/main.sigil", source)]);
    let request = match op {
        "format" => format!(
            r#"{{"op":"format","path":"door/main.sigil","source":{}}}"#,
            super::fuzz_tests::json_string(source)
        ),
        "check" => format!(r#"{{"op":"check",{files}}}"#),
        "test" => format!(
            r#"{{"op":"test",{files},{}}}"#,
            list_member("test_files", &[("door/main_test.yaml", TEST)])
        ),
        _ => format!(r#"{{"op":"{op}",{files},"policy":"door.main"}}"#),
    };
    let (got, peak) = crate::testing::peak_bytes(|| answer(&request));
    assert!(got.starts_with(r#"{"ok":true,"#), "{op}: {}", head(&got));
    peak
}

// The largest valid sources under the body limit, per op (issue #20: at
// most 64 MiB of module memory). Natively, before: format of the rules
// 151 MiB (two trees at once, statements of 352 bytes, lists grown by
// doubling), check of the lets 216 MiB (and a finding per unread let),
// compile, explain and test of them 180 MiB.

#[test]
fn format_of_the_largest_rules_allocates_under_96_mib() {
    assert!(peak("format", &rules()) < 96 << 20);
}

#[test]
fn check_of_the_largest_lets_allocates_under_96_mib() {
    assert!(peak("check", &lets()) < 96 << 20);
}

#[test]
fn compile_of_the_largest_lets_allocates_under_96_mib() {
    assert!(peak("compile", &lets()) < 96 << 20);
}

#[test]
fn explain_of_the_largest_lets_allocates_under_96_mib() {
    assert!(peak("explain", &lets()) < 96 << 20);
}

#[test]
fn test_of_the_largest_lets_allocates_under_96_mib() {
    assert!(peak("test", &lets()) < 96 << 20);
}

#[test]
fn compile_and_explain_of_the_largest_rules_allocate_under_80_mib() {
    // Was under 128 MiB, about 117 natively (87 and 98 MiB of module memory
    // for 36,000 rules): the program was built beside the whole tree, and
    // compile kept an explanation beside the program. Now the tree of each
    // of the root's statements is freed once it is compiled, a static
    // compile keeps no code, and compile leaves the explanation to the
    // first explain: 73 MiB.
    let rules = rules();
    for op in ["compile", "explain"] {
        assert!(peak(op, &rules) < 80 << 20, "{op}");
    }
}

#[test]
fn check_of_the_largest_rules_allocates_under_68_mib() {
    // Was about 125 MiB natively (97 MiB of module memory for 36,000
    // rules): the check's static compile built every rule's compiled form
    // and record texts beside the tree, only to read its errors, and all
    // of the file's tokens sat beside the tree while it was built. Now the
    // tree, a window of tokens and one copy of the source: 65 MiB.
    assert!(peak("check", &rules()) < 68 << 20);
}
