//! Documents and statements: the tree each form builds (as a dump without
//! spans), statement boundaries, and recovery — how much of a broken file
//! still parses.

use super::*;
use crate::ast::dump_file;

/// The dump of `src` without spans, failing on any diagnostic.
fn dump_clean(src: &str) -> String {
    let (file, diags) = parse_file("test.sigil", src);
    assert!(diags.is_empty(), "{src:?}: {diags:#?}");
    dump_file(&file, None)
}

#[rustfmt::skip]
const STATEMENTS: &[(&str, &str)] = &[
    // Files and documents.
    ("", ""),
    ("// nothing\n\n// here\n", ""),
    ("---\n---\n", ""),
    ("policy a.b: K", "policy a.b: K\n"),
    ("policy a.b: K@2", "policy a.b: K@2\n"),
    ("policy a.b: K@007", "policy a.b: K@007\n"),
    ("module a: K@1", "module a: K@1\n"),
    ("kind K version 3", "kind K version 3\n"),
    ("kind K version 3, accepts: 2", "kind K version 3, accepts: 2\n"),
    ("policy a.b.c.d: K", "policy a.b.c.d: K\n"),
    ("policy a: K\nmodule b: K", "policy a: K\nmodule b: K\n"),
    ("---\npolicy a: K\n---\n---\nmodule b: K\n---", "policy a: K\nmodule b: K\n"),
    // Header keywords are names inside expressions.
    ("policy a: K\nlet x = r.kind == y.policy", "policy a: K\n  let x = (r.kind == y.policy)\n"),
    // Imports.
    ("policy a: K\nuse deploy.common", "policy a: K\n  use deploy.common\n"),
    ("policy a: K\nuse deploy.production as approvals", "policy a: K\n  use deploy.production as approvals\n"),
    ("policy a: K\nuse deploy.common.{cleared, owns as owner,}", "policy a: K\n  use deploy.common.{cleared, owns as owner}\n"),
    ("policy a: K\nuse deploy.common. {a}", "policy a: K\n  use deploy.common.{a}\n"),
    ("module a: K\nuse x\nuse y.{z}\npub let a = z", "module a: K\n  use x\n  use y.{z}\n  pub let a = z\n"),
    // Params and lets.
    ("policy a: K\nparam approvers: list<string>", "policy a: K\n  param approvers: list<string>\n"),
    ("policy a: K\nparam t: list<string> = [\"s\"]", "policy a: K\n  param t: list<string> = [\"s\"]\n"),
    ("policy a: K\nparam m: map<string, int>= {}", "policy a: K\n  param m: map<string, int> = {}\n"),
    ("policy a: K\nparam m: list<list<int>>= []", "policy a: K\n  param m: list<list<int>> = []\n"),
    ("policy a: K\nparam m: map<string,list<?int>>", "policy a: K\n  param m: map<string, list<?int>>\n"),
    ("policy a: K\nparam s: duration = 24h, max: 72h, min: 1h", "policy a: K\n  param s: duration = 24h, min: 1h, max: 72h\n"),
    ("policy a: K\nparam t: ?string", "policy a: K\n  param t: ?string\n"),
    ("policy a: K\nlet x = a and b", "policy a: K\n  let x = (a and b)\n"),
    ("policy a: K\npub let x = 1", "policy a: K\n  pub let x = 1\n"),
    // Statement boundaries: newlines mean nothing.
    ("policy a: K\nlet a = x let b = y f(z: 1) when a { deny(reason: r) }",
     "policy a: K\n  let a = x\n  let b = y\n  f(z: 1)\n  when a\n    deny(reason: r)\n"),
    ("policy a: K\nlet x = a\n---\nmodule b: K", "policy a: K\n  let x = a\nmodule b: K\n"),
    ("policy a: K\nlet x = a\nb(c)", "policy a: K\n  let x = a\n  b(c)\n"),
    // Rules.
    ("policy a: K\nwhen x {}", "policy a: K\n  when x\n"),
    ("policy a: K\nwhen m has {\"k\": \"v\"} { deny(reason: r) }", "policy a: K\n  when (m has {\"k\": \"v\"})\n    deny(reason: r)\n"),
    ("policy a: K\nwhen a { when b { when c { deny(reason: r) } } }", "policy a: K\n  when a\n    when b\n      when c\n        deny(reason: r)\n"),
    ("policy a: K\nwhen a { deny(reason: r) let y = 1 assert(\"r\", y) g() when c {} }",
     "policy a: K\n  when a\n    deny(reason: r)\n    let y = 1\n    assert(\"r\", y)\n    g()\n    when c\n"),
    ("policy a: K\nwhen any r in xs: r == 1 { deny(reason: r) }", "policy a: K\n  when (any r in xs: (r == 1))\n    deny(reason: r)\n"),
    // Asserts: `)` ends a quantifier body; a trailing comma is fine.
    ("policy a: K\nassert(\"no_root\", all g in gs: g != \"root\")", "policy a: K\n  assert(\"no_root\", (all g in gs: (g != \"root\")))\n"),
    ("policy a: K\nassert(\"sod\", [a, b] exclusive in outcome,)", "policy a: K\n  assert(\"sod\", ([a, b] exclusive in outcome))\n"),
    // Calls.
    ("policy a: K\nbaseline()", "policy a: K\n  baseline()\n"),
    ("policy a: K\nwhen x { deny(reason: r, bake: 1h,) }", "policy a: K\n  when x\n    deny(reason: r, bake: 1h)\n"),
    ("policy a: K\nwhen x { deny(r) }", "policy a: K\n  when x\n    deny(r)\n"),
    ("policy a: K\nwhen x { deny(s.tier, n: 1) }", "policy a: K\n  when x\n    deny(s.tier, n: 1)\n"),
    ("policy a: K\nwhen x { review(reason: r, kind: \"k\", type: t, policy: p) }",
     "policy a: K\n  when x\n    review(reason: r, kind: \"k\", type: t, policy: p)\n"),
    ("policy a: K\nf(ok: any r in xs: r, n: 1)", "policy a: K\n  f(ok: (any r in xs: r), n: 1)\n"),
    // Kind declarations.
    ("kind K version 1\nenum Tier: a | b\n  | c", "kind K version 1\n  enum Tier: a | b | c\n"),
    ("kind K version 1\ntype T {}", "kind K version 1\n  type T\n"),
    ("kind K version 1\ntype T { kind: string type: ?int policy: list<string> }",
     "kind K version 1\n  type T\n    kind: string\n    type: ?int\n    policy: list<string>\n"),
    ("kind K version 1\ntype T { list: list<string> map: map<string, string> }",
     "kind K version 1\n  type T\n    list: list<string>\n    map: map<string, string>\n"),
    ("kind K version 1\ninput now: timestamp", "kind K version 1\n  input now: timestamp\n"),
    ("kind K version 1\nfn now() -> timestamp", "kind K version 1\n  fn now() -> timestamp\n"),
    ("kind K version 1\nfn split(string, string,) -> list<string>", "kind K version 1\n  fn split(string, string) -> list<string>\n"),
    ("kind K version 1\ndecision deny {\n  reason: a\n    | b\n}", "kind K version 1\n  decision deny\n    reason: a | b\n"),
    ("kind K version 1\ndecision ok { bake: duration = 1h reason: a | b in: int = 2 not: bool }",
     "kind K version 1\n  decision ok\n    reason: a | b\n    bake: duration = 1h\n    in: int = 2\n    not: bool\n"),
    ("kind K version 1\ndecision ok(bake: duration = 1h, n: int,) { a b }",
     "kind K version 1\n  decision ok (legacy)\n    reason: a | b\n    bake: duration = 1h\n    n: int\n"),
    ("kind K version 1\ndecision ok { a b }", "kind K version 1\n  decision ok (legacy)\n    reason: a | b\n"),
    ("kind K version 1\nprecedence allow", "kind K version 1\n  precedence allow\n"),
    ("kind K version 1\nprecedence deny > review > approve", "kind K version 1\n  precedence deny > review > approve\n"),
    ("kind K version 1\nprecedence deny: a > b", "kind K version 1\n  precedence deny: a > b\n"),
    ("kind K version 1\nexclusive hold, open.maintenance, x", "kind K version 1\n  exclusive hold, open.maintenance, x\n"),
    ("kind K version 1\ncollect one\ncollect all", "kind K version 1\n  collect one\n  collect all\n"),
    ("kind K version 1\ndefault deny(reason: none, detail: \"\")\nconflict deny(reason: c)",
     "kind K version 1\n  default deny(reason: none, detail: \"\")\n  conflict deny(reason: c)\n"),
    ("kind K version 1\ninput x: int\npolicy a: K\nlet y = x", "kind K version 1\n  input x: int\npolicy a: K\n  let y = x\n"),
];

#[test]
fn statements() {
    let mut failed = Vec::new();
    for (src, want) in STATEMENTS {
        let got = dump_clean(src);
        if got != *want {
            failed.push(format!("{src:?}\n   got  {got:?}\n   want {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn spans_of_documents_and_statements() {
    let src = "policy a.b: K@1\n\nuse c\nlet x = 1 + 2\nwhen x {\n  deny(reason: r)\n}\n\n---\nkind K version 1\ntype T {\n  f: int\n}\n";
    let (file, diags) = parse_file("t.sigil", src);
    assert!(diags.is_empty(), "{diags:?}");
    let want = "\
policy a.b: K@1 [1:1-7:2]
  use c [3:1-3:6]
  let x = (1 + 2) [4:1-4:14]
  when x [5:1-7:2]
    deny(reason: r) [6:3-6:18]
kind K version 1 [10:1-13:2]
  type T [11:1-13:2]
    f: int [12:3-12:9]
";
    assert_eq!(dump_file(&file, Some(src)), want);
}

/// A broken file: the diagnostics as `line:col message`, and the dump of
/// what still parsed.
struct Recovery {
    src: &'static str,
    errors: &'static [&'static str],
    dump: &'static str,
}

#[rustfmt::skip]
const RECOVERY: &[Recovery] = &[
    // One bad statement costs one diagnostic; the next statement parses.
    Recovery {
        src: "policy a: K\nlet x = 1 <\nlet y = 2",
        errors: &["3:1 expected an expression, found `let`"],
        dump: "policy a: K\n  let y = 2\n",
    },
    // Several independent errors in one file.
    Recovery {
        src: "policy a: K\nlet x = a b\nlet y = (\nwhen z { deny(reason: r) }\nlet w = 1 < 2 < 3\nlet v = 1",
        errors: &[
            "2:11 expected a statement, found `b`",
            "4:1 expected an expression, found `when`",
            "5:15 `<` can't follow `<`: comparisons don't chain",
        ],
        dump: "policy a: K\n  let x = a\n  when z\n    deny(reason: r)\n  let v = 1\n",
    },
    // A broken header loses its document only.
    Recovery {
        src: "policy : K\nlet a = b\nmodule m: K\nlet c = d",
        errors: &["1:8 expected a name after `policy`, found `:`"],
        dump: "module m: K\n  let c = d\n",
    },
    // A broken condition keeps its body.
    Recovery {
        src: "policy a: K\nwhen a == == b {\n  deny(reason: r)\n}\nlet z = 1",
        errors: &["2:11 expected an expression, found `==`"],
        dump: "policy a: K\n  when <error>\n    deny(reason: r)\n  let z = 1\n",
    },
    // A condition without its last operand lost the body to a map literal;
    // the body still parses.
    Recovery {
        src: "policy a: K\nwhen release.soak < {\n  deny(reason: too_short)\n  when x { allow(reason: y) }\n}\nlet z = 1",
        errors: &["2:19 `<` has no right operand"],
        dump: "policy a: K\n  when <error>\n    deny(reason: too_short)\n    when x\n      allow(reason: y)\n  let z = 1\n",
    },
    // An error inside a body loses only that statement.
    Recovery {
        src: "policy a: K\nwhen x {\n  deny(reason: r\n  approve(reason: ok)\n}",
        errors: &["4:3 expected `)`, found `approve`"],
        dump: "policy a: K\n  when x\n    approve(reason: ok)\n",
    },
    Recovery {
        src: "policy a: K\nwhen x {\n  a == b\n  deny(reason: r)\n}",
        errors: &["3:3 expected a decision constructor, invocation, `when`, `let` or `assert`, found `a`"],
        dump: "policy a: K\n  when x\n    deny(reason: r)\n",
    },
    // Statements that belong elsewhere.
    Recovery {
        src: "policy a: K\nwhen x { param y: int deny(reason: r) }",
        errors: &["2:10 expected a decision constructor, invocation, `when`, `let` or `assert`, found `param`"],
        dump: "policy a: K\n  when x\n    deny(reason: r)\n",
    },
    Recovery {
        src: "policy a: K\nwhen x { use y deny(reason: r) }",
        errors: &["2:10 expected a decision constructor, invocation, `when`, `let` or `assert`, found `use`"],
        dump: "policy a: K\n  when x\n    deny(reason: r)\n",
    },
    Recovery {
        src: "policy a: K\nwhen x { pub let y = 1 }",
        errors: &["2:10 a let inside a `when` body can't be `pub`"],
        dump: "policy a: K\n  when x\n    pub let y = 1\n",
    },
    Recovery {
        src: "policy a: K\nparam x: int\nuse b",
        errors: &["3:1 `use` must come before every other statement"],
        dump: "policy a: K\n  use b\n  param x: int\n",
    },
    Recovery {
        src: "module m: K\nlet x = 1\nuse b\nparam p: int\nwhen x {}\nassert(\"r\", x)\nf(a: 1)\nlet y = 2",
        errors: &[
            "3:1 `use` must come before every other statement",
            "4:1 a module can't contain `param`",
            "5:1 a module can't contain `when`",
            "6:1 a module can't contain `assert`",
            "7:1 a module can't contain an invocation",
        ],
        dump: "module m: K\n  use b\n  let x = 1\n  let y = 2\n",
    },
    // An unclosed body stops at the document's end; the next document parses.
    Recovery {
        src: "policy a: K\nwhen x {\n---\nmodule m: K",
        errors: &["3:1 expected `}`, found `---`"],
        dump: "policy a: K\nmodule m: K\n",
    },
    Recovery {
        src: "policy a: K\nwhen x {\n  deny(reason: r)\n",
        errors: &["4:1 expected `}`, found end of file"],
        dump: "policy a: K\n",
    },
    // The type parser's error, then the statement its keyword starts.
    Recovery {
        src: "policy a: K\nparam x: when",
        errors: &["2:10 expected a type, found `when`", "2:14 expected an expression, found end of file"],
        dump: "policy a: K\n",
    },
    // Kind declarations resynchronize at the next declaration keyword.
    Recovery {
        src: "kind K version 1\ntype T { f: int = 1 }\ninput i: int\nenum E: one | two\nenum F: a, b\ncollect some\ninput j: T",
        errors: &[
            "2:17 a field in a `type` body can't have a default",
            "4:9 expected an enum value, found the keyword `one`",
            "5:10 expected `|` between two values, found `,`",
            "6:9 expected `one` or `all`, found `some`",
        ],
        dump: "kind K version 1\n  input i: int\n  input j: T\n",
    },
    // Text before any header.
    Recovery {
        src: "let x = 1\npolicy a: K",
        errors: &["1:1 expected a document header (`policy`, `module` or `kind`), found `let`"],
        dump: "policy a: K\n",
    },
    Recovery {
        src: "policy a: K\nlet x = a\n---\n1h\npolicy b: K",
        errors: &["3:1 `---` separates documents and can't appear inside an expression"],
        dump: "policy a: K\n  let x = a\npolicy b: K\n",
    },
    // Lexical errors are reported once; the statement around them is lost.
    Recovery {
        src: "policy a: K\nlet x = 0x10\nlet y = 1",
        errors: &["2:9 `0x10` is hex notation, which Sigil doesn't have"],
        dump: "policy a: K\n  let y = 1\n",
    },
    // A statement that fails at its first token makes progress.
    Recovery {
        src: "policy a: K\n} } let y = 1",
        errors: &["2:1 expected `param`, `let`, `when`, `assert` or an invocation, found `}`"],
        dump: "policy a: K\n  let y = 1\n",
    },
];

#[test]
fn recovery() {
    let mut failed = Vec::new();
    for case in RECOVERY {
        let (file, diags) = parse_file("test.sigil", case.src);
        let idx = LineIndex::new(case.src);
        let errors: Vec<String> = diags
            .iter()
            .map(|d| format!("{} {}", idx.position(d.span.unwrap().start), d.message))
            .collect();
        let dump = dump_file(&file, None);
        if errors != case.errors || dump != case.dump {
            failed.push(format!(
                "{:?}\n   errors {errors:?}\n   want   {:?}\n   dump   {dump:?}\n   want   {:?}",
                case.src, case.errors, case.dump
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn a_file_parses_the_same_streamed_as_from_all_its_tokens() {
    // parse_file lexes as it reads, a window of tokens at a time (issue
    // #20); the formatter's parse reads every token, lexed up front. Both
    // build the same tree with the same diagnostics: over many windows,
    // with comments between the tokens, errors at the end, lexical errors,
    // and the move to the end once a file has too many errors.
    let rules: String = (0..3_000)
        .map(|i| format!("// rule {i}\nwhen floor > {i} and user != \"u{i}\" {{\n  allow(reason: member)\n}}\n"))
        .collect();
    let sources = [
        format!("policy a.b: K\n\n{rules}"),
        format!("policy a.b: K\n\n{rules}when x > {{\n"),
        format!("policy a.b: K\n{}", "when 1x ) {\n".repeat(500)),
        "# @ ".repeat(5_000),
        "policy a: K\nlet x = (((1 + 2\n".to_owned(),
        String::new(),
    ];
    for src in &sources {
        let (streamed, streamed_diags) = parse_file("t.sigil", src);
        let (whole, whole_diags) = parse_lexed("t.sigil", src, lex(src), Literals::Valued);
        let head: String = src.chars().take(40).collect();
        assert_eq!(
            dump_file(&streamed, Some(src)),
            dump_file(&whole, Some(src)),
            "{head:?}"
        );
        assert_eq!(
            format!("{streamed_diags:?}"),
            format!("{whole_diags:?}"),
            "{head:?}"
        );
    }
    let (_, junk) = parse_file("t.sigil", &sources[2]);
    assert_eq!(junk.len(), MAX_PER_FILE + 1, "the junk reaches the cap");
}
