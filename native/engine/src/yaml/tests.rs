use super::*;
use crate::testing::{Rng, on_small_stack};

/// A data tree in a compact notation, for the tables: `null`, `true`,
/// `#16` for a number, `"x"` for a string, `[a, b]`, `{k: v}`.
fn show(data: &Data) -> String {
    match data {
        Data::Null => "null".to_owned(),
        Data::Bool(b) => b.to_string(),
        Data::Number(n) => format!("#{n}"),
        Data::String(s) => format!("{s:?}"),
        Data::List(items) => {
            let items: Vec<String> = items.iter().map(show).collect();
            format!("[{}]", items.join(", "))
        }
        Data::Object(entries) => {
            let entries: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{k}: {}", show(v)))
                .collect();
            format!("{{{}}}", entries.join(", "))
        }
    }
}

fn parsed(text: &str) -> String {
    match parse_yaml(text) {
        Ok(data) => show(&data),
        Err(e) => format!("error {}:{}: {}", e.line, e.column, e.problem),
    }
}

struct Case {
    text: &'static str,
    want: &'static str,
}

#[rustfmt::skip]
const DATA: &[Case] = &[
    // Documents.
    Case { text: "", want: "null" },
    Case { text: "# only a comment\n", want: "null" },
    Case { text: "---\n", want: "null" },
    Case { text: "~", want: "null" },
    Case { text: "a: 1\n---\nb: 2\n", want: "{a: #1}" },
    Case { text: "a: 1\n---\n[\n", want: "{a: #1}" },
    Case { text: "\u{feff}a: 1\n", want: "{a: #1}" },
    Case { text: "a: 1\r\nb: 2\r\n", want: "{a: #1, b: #2}" },
    // Scalars: the core schema as the reference reads it.
    Case { text: "[yes, no, on, off, y, n]", want: r#"["yes", "no", "on", "off", "y", "n"]"# },
    Case { text: "[true, True, TRUE, false, tRUE]", want: r#"[true, true, true, false, "tRUE"]"# },
    Case { text: "[~, null, Null, NULL, '', \"~\"]", want: r#"[null, null, null, null, "", "~"]"# },
    Case { text: "a:\nb: ", want: "{a: null, b: null}" },
    Case { text: "[0x10, 0o17, 0b11, 017, 1_000, +5, -0]", want: "[#16, #15, #3, #15, #1000, #5, #0]" },
    Case { text: "[1.0, 1e3, .5, -1.5, 1.10]", want: "[#1.0, #1000.0, #0.5, #-1.5, #1.1]" },
    Case { text: "[.inf, -.Inf, .NAN, 1e400]", want: r#"[#inf, #-inf, #NaN, "1e400"]"# },
    Case { text: "['1', \"2\", !!str 3, !!float 4, !!int '5']", want: r#"["1", "2", "3", #4.0, #5]"# },
    Case { text: "[2026-01-01, 2026-09-28T14:00:00Z, 45m, 1h30m]", want: r#"["2026-01-01", "2026-09-28T14:00:00Z", "45m", "1h30m"]"# },
    Case { text: "[!thing 12, !!binary aGk=]", want: r#"["12", "aGk="]"# },
    Case { text: "s: \"tab\\there \\u00e9\"", want: r#"{s: "tab\there é"}"# },
    Case { text: "s: 'it''s'", want: r#"{s: "it's"}"# },
    Case { text: "s: |\n  two\n  lines\n", want: r#"{s: "two\nlines\n"}"# },
    Case { text: "s: >-\n  folded\n  text\n", want: r#"{s: "folded text"}"# },
    Case { text: "s: plain\n  continued\n", want: r#"{s: "plain continued"}"# },
    // Keys are text, in the order written.
    Case { text: "{b: 1, a: 2, 3: x, true: y, ~: z}", want: r#"{b: #1, a: #2, 3: "x", true: "y", ~: "z"}"# },
    // JSON is YAML.
    Case { text: r#"{"a": 1.50, "b": [true, null, "x\u00e9"], "c": {}}"#, want: r#"{a: #1.5, b: [true, null, "xé"], c: {}}"# },
    Case { text: r#"{"a":1,"b":[]}"#, want: "{a: #1, b: []}" },
    // Anchors, aliases and merge keys.
    Case { text: "a: &x [1, 2]\nb: *x\n", want: "{a: [#1, #2], b: [#1, #2]}" },
    Case { text: "base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\n", want: "{base: {x: #1, y: #2}, c: {y: #3, x: #1}}" },
    Case { text: "- &p {x: 1}\n- &q {x: 2, z: 2}\n- <<: [*p, *q]\n", want: "[{x: #1}, {x: #2, z: #2}, {x: #1, z: #2}]" },
    Case { text: "a: {'<<': 1}", want: "{a: {<<: #1}}" },
    // Repeated keys.
    Case { text: "a: 1\nb: 2\na: 3\n", want: r#"error 3:1: mapping key "a" already defined at line 1"# },
    Case { text: "x:\n  - {k: 1, k: 2}\n", want: r#"error 2:12: mapping key "k" already defined at line 2"# },
    Case { text: "{1: a, '1': b}", want: r#"error 1:8: mapping key "1" already defined at line 1"# },
    // Syntax errors point at the line (and column) of the problem.
    Case { text: "a: b: c\n", want: "error 1:5: mapping values are not allowed in this context" },
    Case { text: "a: 1\nb\n", want: "error 2:1: while parsing a block mapping, did not find expected key" },
    Case { text: "a:\n  - b\n c: d\n", want: "error 3:3: while parsing a block mapping, did not find expected key" },
    Case { text: "a: [1, 2\n", want: "error 2:1: while parsing a flow sequence, expected ',' or ']'" },
    Case { text: "a: \"open\n", want: "error 1:4: while scanning a quoted scalar, found unexpected end of stream" },
    Case { text: "a: *nope\n", want: "error 1:4: while parsing node, found unknown anchor" },
    Case { text: "a: @x\n", want: "error 1:4: unexpected character: `@'" },
    Case { text: "a: \"\\q\"\n", want: "error 1:4: while parsing a quoted scalar, found unknown escape character" },
    // The reader's own errors.
    Case { text: "[a]: 1\n", want: "error 1:1: a mapping key must be a scalar, found a list" },
    Case { text: "{a: 1}: 1\n", want: "error 1:1: a mapping key must be a scalar, found an object" },
    Case { text: "a:\n  <<: 1\n", want: "error 2:7: a merge key (<<) takes a mapping or a list of mappings" },
    Case { text: "a:\n  <<: [{x: 1}, 2]\n", want: "error 2:16: a merge key (<<) takes a mapping or a list of mappings" },
    Case { text: "a: !!int abc\n", want: r#"error 1:10: "abc" isn't a !!int"# },
    Case { text: "a: !!bool yes\n", want: r#"error 1:11: "yes" isn't a !!bool"# },
    Case { text: "a: &x [1, *x]\n", want: "error 1:11: an alias can't refer to a node that contains it" },
];

#[test]
fn parse_yaml_table() {
    for (i, case) in DATA.iter().enumerate() {
        assert_eq!(parsed(case.text), case.want, "row {i}: {:?}", case.text);
    }
}

/// Where nodes start: the line of a case in a list is its `- name:` line.
#[test]
fn positions() {
    let text = "policy: a.b\ncases:\n  - name: first\n    input: {x: 1}\n  -   name: second\n      expect:\n        decision: allow\n  - {name: third}\n  - [1]\n  - |\n    block\n";
    let root = parse_node(text).unwrap().unwrap();
    assert_eq!((root.line, root.column), (1, 1));
    let NodeValue::Object(entries) = &root.value else {
        panic!("not an object")
    };
    let keys: Vec<(&str, u32, u32)> = entries
        .iter()
        .map(|e| (e.key.text.as_str(), e.key.line, e.key.column))
        .collect();
    assert_eq!(keys, [("policy", 1, 1), ("cases", 2, 1)]);
    let cases = &entries[1].value;
    assert_eq!((cases.line, cases.column), (3, 3));
    let NodeValue::List(items) = &cases.value else {
        panic!("not a list")
    };
    let starts: Vec<(u32, u32)> = items.iter().map(|n| (n.line, n.column)).collect();
    // A block scalar starts where its text does, the line after its `|`.
    assert_eq!(starts, [(3, 5), (5, 7), (8, 5), (9, 5), (11, 5)]);
    let NodeValue::Object(first) = &items[0].value else {
        panic!("not an object")
    };
    let input = &first[1].value;
    assert_eq!((input.line, input.column), (4, 12));
    assert_eq!(input.found(), "an object");
    let NodeValue::Object(fields) = &input.value else {
        panic!("not an object")
    };
    assert_eq!((fields[0].value.line, fields[0].value.column), (4, 16));
}

/// An empty value sits on its key's line, not on the next token's.
#[test]
fn empty_values_take_their_keys_position() {
    let root = parse_node("a:\nb: ~\nc:\n\n\nd: [x]\ne:\n")
        .unwrap()
        .unwrap();
    let NodeValue::Object(entries) = &root.value else {
        panic!("not an object")
    };
    let values: Vec<(&str, u32, u32, bool)> = entries
        .iter()
        .map(|e| {
            (
                e.key.text.as_str(),
                e.value.line,
                e.value.column,
                e.value.is_null(),
            )
        })
        .collect();
    assert_eq!(
        values,
        [
            ("a", 1, 1, true),
            ("b", 2, 4, true),
            ("c", 3, 1, true),
            ("d", 6, 4, false),
            ("e", 7, 1, true)
        ]
    );
}

#[test]
fn scalars_keep_their_text() {
    let root = parse_node("[1.10, 0x10, True, '007', ~, \"\"]")
        .unwrap()
        .unwrap();
    let NodeValue::List(items) = &root.value else {
        panic!("not a list")
    };
    let texts: Vec<Option<&str>> = items.iter().map(Node::text).collect();
    assert_eq!(
        texts,
        [
            Some("1.10"),
            Some("0x10"),
            Some("True"),
            Some("007"),
            None,
            Some("")
        ]
    );
    let found: Vec<&str> = items.iter().map(Node::found).collect();
    assert_eq!(
        found,
        [
            "a number",
            "a number",
            "a boolean",
            "a string",
            "null",
            "a string"
        ]
    );
    assert!(items[4].is_null());
    assert!(!items[5].is_null());
}

#[test]
fn aliases_keep_the_anchors_position() {
    let root = parse_node("a: &x\n  k: v\nb: *x\n").unwrap().unwrap();
    let NodeValue::Object(entries) = &root.value else {
        panic!("not an object")
    };
    assert_eq!(entries[0].value, entries[1].value);
    assert_eq!(entries[1].value.line, 2);
}

fn nested_blocks(depth: usize) -> String {
    let mut text = String::new();
    for level in 0..depth {
        text.push_str(&" ".repeat(level));
        text.push_str("k:\n");
    }
    text
}

#[test]
fn depth_limit() {
    on_small_stack(|| {
        // `k:` nested n times holds n mappings (the innermost value is null).
        assert!(parse_yaml(&nested_blocks(MAX_DEPTH - 1)).is_ok());
        assert!(parse_yaml(&nested_blocks(MAX_DEPTH)).is_ok());
        let err = parse_yaml(&nested_blocks(MAX_DEPTH + 1)).unwrap_err();
        assert_eq!(err.problem, YamlProblem::TooDeep);
        assert_eq!(err.line, u32::try_from(MAX_DEPTH + 1).unwrap());
        let err = parse_yaml(&"- ".repeat(20_000)).unwrap_err();
        assert_eq!(err.problem, YamlProblem::TooDeep);
        // Flow collections: the parser stops at 255 levels itself.
        let err = parse_yaml(&"[".repeat(20_000)).unwrap_err();
        assert_eq!(
            err.problem,
            YamlProblem::Syntax("recursion limit exceeded".into())
        );
    });
}

#[test]
fn depth_limit_through_aliases() {
    on_small_stack(|| {
        let half = MAX_DEPTH / 2 + 1;
        let deep = format!("a: &x {}1{}\n", "[".repeat(200), "]".repeat(200));
        let mut text = deep.clone();
        text.push_str("b:\n");
        text.push_str(&"- ".repeat(half));
        text.push_str("*x\n");
        assert!(parse_yaml(&text).is_ok(), "200 + {half} levels");
        let mut text = deep;
        text.push_str("b:\n");
        for level in 0..MAX_DEPTH - 200 {
            text.push_str(&" ".repeat(level + 1));
            text.push_str("k:");
            text.push('\n');
        }
        text.push_str(&" ".repeat(MAX_DEPTH - 200 + 1));
        text.push_str("k: *x\n");
        let err = parse_yaml(&text).unwrap_err();
        assert_eq!(err.problem, YamlProblem::TooDeep);
    });
}

#[test]
fn billion_laughs_are_refused() {
    let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    let mut previous = 'a';
    for name in 'b'..='j' {
        let refs = vec![format!("*{previous}"); 10].join(", ");
        text.push_str(&format!("{name}: &{name} [{refs}]\n"));
        previous = name;
    }
    let err = parse_yaml(&text).unwrap_err();
    assert_eq!(err.problem, YamlProblem::TooManyCopies);
}

/// Mutated YAML never panics: the parser and the tree builder answer every
/// input with a tree or an error.
#[test]
fn mutations_never_panic() {
    const SEEDS: &[&str] = &[
        "policy: a.b\nstubs:\n  owner: {returns: ada}\ncases:\n  - name: x\n    input: {a: [1, 2.5, ~]}\n    expect: {decision: allow, reason: r}\n",
        "a: &x {k: [1, 2]}\nb:\n  <<: *x\n  c: |\n    text\n  d: 'q''s'\n  e: \"\\u00e9\"\n",
        "- [a, {b: c}]\n- ? complex\n  : value\n- !!str 12\n--- \n...\n",
    ];
    const BYTES: &[u8] = b" \n\t:-[]{},&*!|>'\"#%@`?~<\\0a";
    let mut rng = Rng(0x5eed_7a41);
    for _ in 0..3000 {
        let seed = SEEDS[rng.below(SEEDS.len())];
        let mut bytes = seed.as_bytes().to_vec();
        for _ in 0..=rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            let byte = BYTES[rng.below(BYTES.len())];
            match rng.below(3) {
                0 => bytes.insert(at, byte),
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ if at < bytes.len() => bytes[at] = byte,
                _ => bytes.push(byte),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(Some(node)) = parse_node(&text) {
            let _ = node.to_data();
        }
    }
}
