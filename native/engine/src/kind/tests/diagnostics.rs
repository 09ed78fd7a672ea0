//! One row per loader diagnostic: a small kind, and the one diagnostic it
//! must produce (message, help, and where: `line:column` of the start and
//! the source text spanned).

use super::{at, load_src};

/// A valid end for kinds whose problem is elsewhere.
const TAIL: &str = "decision deny { reason: no }
collect one
precedence deny
default deny(reason: no)
";

struct Case {
    /// The kind; `{T}` stands for [`TAIL`].
    src: &'static str,
    message: &'static str,
    /// `""` for no help.
    help: &'static str,
    /// `line:column text`.
    at: &'static str,
}

const NAMESPACE: &str = "inputs, host functions, decisions, enums and their values share one namespace; rename one of them";

#[rustfmt::skip]
const CASES: &[Case] = &[
    // §2.1 header
    Case { src: "kind K version 0\n{T}", message: "invalid kind version 0", help: "versions start at 1; raise the number whenever the contract changes", at: "1:16 0" },
    Case { src: "kind K version 2, accepts: 0\n{T}", message: "kind K accepts version 0, but versions start at 1", help: "name the oldest version documents may pin, or leave `accepts` out to accept them all", at: "1:28 0" },
    Case { src: "kind K version 2, accepts: 3\n{T}", message: "kind K at version 2 can't accept version 3", help: "`accepts` names the oldest version documents may pin, at most the kind's version", at: "1:28 3" },
    // §2.2 enums
    Case { src: "kind K version 1\nenum Tier: a | b | a\n{T}", message: "enum Tier: value \"a\" is declared twice", help: "declare each value once", at: "2:20 a" },
    // §2.3 types
    Case { src: "kind K version 1\ntype T { a: int  a: string }\n{T}", message: "type T: field \"a\" is declared twice", help: "declare each field once", at: "2:18 a" },
    Case { src: "kind K version 1\ntype string { a: int }\n{T}", message: "type \"string\" shadows a built-in type", help: "the built-in type names are taken; pick another name", at: "2:6 string" },
    Case { src: "kind K version 1\nenum list: a\n{T}", message: "enum \"list\" shadows a built-in type", help: "the built-in type names are taken; pick another name", at: "2:6 list" },
    Case { src: "kind K version 1\ntype T { a: int }\ntype T { b: int }\n{T}", message: "type \"T\" is declared twice", help: "declare each type once", at: "3:6 T" },
    Case { src: "kind K version 1\ntype T { a: int }\nenum T: x\n{T}", message: "enum \"T\" collides with type \"T\"", help: "struct types and enums share their names; rename one of them", at: "3:6 T" },
    Case { src: "kind K version 1\ntype Node { next: map<string, Node> }\n{T}", message: "type Node is recursive: Node -> Node", help: "policies can't loop, so a recursive type could only be read to a fixed depth; model the relation with an id instead", at: "2:6 Node" },
    Case { src: "kind K version 1\ninput x: Strin\n{T}", message: "unknown type `Strin`", help: "did you mean `string`?", at: "2:10 Strin" },
    Case { src: "kind K version 1\ninput x: list<Ticket>\n{T}", message: "unknown type `Ticket`", help: "declare it with `type Ticket { … }` or `enum Ticket: …`, or use a built-in type", at: "2:15 Ticket" },
    Case { src: "kind K version 1\ntype S { a: int }\ninput x: map<S, int>\n{T}", message: "S can't be a map key", help: "map keys are bool, int, float, string, duration, timestamp or an enum", at: "3:14 S" },
    Case { src: "kind K version 1\nenum E: a\ninput x: map<string, E>\n{T}", message: "an enum can't be a map value", help: "a missing key would read as the zero value, and an enum has none; key the map by the enum instead, or use a list", at: "3:22 E" },
    Case { src: "kind K version 1\ninput x: ?list<int>\n{T}", message: "input \"x\": a list can't be optional", help: "write `list<T>`: a missing list reads as an empty one", at: "2:10 ?list<int>" },
    Case { src: "kind K version 1\ntype S { m: ?map<string, int> }\n{T}", message: "type S, field \"m\": a map can't be optional", help: "write `map<K, V>`: a missing map reads as an empty one", at: "2:13 ?map<string, int>" },
    // §2.4, §2.5, §2.13 inputs, functions, the namespace
    Case { src: "kind K version 1\ninput x: int\nfn x() -> int\n{T}", message: "function \"x\" collides with input \"x\"", help: NAMESPACE, at: "3:4 x" },
    Case { src: "kind K version 1\nfn x() -> int\ninput x: int\n{T}", message: "input \"x\" collides with function \"x\"", help: NAMESPACE, at: "3:7 x" },
    Case { src: "kind K version 1\ninput x: int\ninput x: int\n{T}", message: "input \"x\" is declared twice", help: "declare each input once", at: "3:7 x" },
    Case { src: "kind K version 1\ninput deny: int\n{T}", message: "decision \"deny\" collides with input \"deny\"", help: NAMESPACE, at: "3:10 deny" },
    Case { src: "kind K version 1\nenum Stage: build | deny\n{T}", message: "enum Stage: value \"deny\" collides with decision \"deny\"", help: NAMESPACE, at: "2:21 deny" },
    Case { src: "kind K version 1\ntype S { a: int }\nenum E: S\n{T}", message: "enum E: value \"S\" collides with type \"S\"", help: NAMESPACE, at: "3:9 S" },
    Case { src: "kind K version 1\nfn f(string) -> ?int\n{T}", message: "function f: the result can't be optional", help: "return a value that is always there, such as a zero value or a list, and let policies test it", at: "2:17 ?int" },
    Case { src: "kind K version 1\nfn f(list<?Tier>) -> int\n{T}", message: "unknown type `Tier`", help: "declare it with `type Tier { … }` or `enum Tier: …`, or use a built-in type", at: "2:12 Tier" },
    // §2.6 decisions
    Case { src: "kind K version 1\ndecision deny { reason: no }\ndecision deny { reason: no }\ncollect one\nprecedence deny\ndefault deny(reason: no)\n", message: "decision \"deny\" is declared twice", help: "declare each decision once", at: "3:10 deny" },
    Case { src: "kind K version 1\ndecision deny { reason: no | yes | no }\ncollect one\nprecedence deny\ndefault deny(reason: no)\n", message: "decision deny: reason \"no\" is declared twice", help: "declare each reason once", at: "2:36 no" },
    Case { src: "kind K version 1\ndecision deny { reason: no  a: int  a: int }\ncollect all\n", message: "decision deny, field \"a\": declared twice", help: "declare each field once", at: "2:37 a" },
    Case { src: "kind K version 1\ndecision approve(bake: duration = 1h, who: list<string>) { release_manager payments_sre }\ncollect all\n", message: "old decision syntax; write `decision approve { reason: … bake: … who: … }`", help: "write `decision approve { reason: release_manager | payments_sre  bake: duration = 1h  who: list<string> }`, or run `sigil fmt --write`", at: "2:10 approve" },
    Case { src: "kind K version 1\ndecision deny { no }\ncollect all\n", message: "old decision syntax; write `decision deny { reason: … }`", help: "write `decision deny { reason: no }`, or run `sigil fmt --write`", at: "2:10 deny" },
    Case { src: "kind K version 1\ndecision deny { reason: no  wait: duration = 5 }\ncollect all\n", message: "expected duration, found int", help: "", at: "2:46 5" },
    Case { src: "kind K version 1\nenum Tier: gold\ndecision deny { reason: no  tier: Tier = silver }\ncollect all\n", message: "Tier has no value `silver`", help: "Tier declares: gold", at: "3:42 silver" },
    Case { src: "kind K version 1\ncollect all\n", message: "kind K declares no decisions", help: "declare at least one decision, like `decision deny { reason: no_rule_matched }`", at: "1:6 K version 1" },
    // §2.7 collect
    Case { src: "kind K version 1\ndecision deny { reason: no }\ndefault deny(reason: no)\n", message: "kind K doesn't declare how many decisions it returns", help: "add `collect one` with a `precedence`, or `collect all`", at: "1:6 K version 1" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\nprecedence deny\ndefault deny(reason: no)\n", message: "kind K has precedence but no collect", help: "add `collect one` to return the highest-ranked decision, or `collect all` for every one at the top rank", at: "3:1 precedence deny" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\ndefault deny(reason: no)\n", message: "kind K collects one decision but has no precedence", help: "rank the decisions, highest first, like `precedence deny > review > approve`", at: "3:1 collect one" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect all\ncollect all\n", message: "collect is declared twice", help: "a kind declares `collect` once; remove one", at: "4:1 collect all" },
    // §2.8 precedence
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny > alow\ndefault deny(reason: no)\n", message: "precedence names undeclared decision \"alow\"", help: "precedence ranks the declared decisions, highest first", at: "4:19 alow" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny > deny\ndefault deny(reason: no)\n", message: "precedence names \"deny\" twice", help: "name every decision exactly once", at: "4:19 deny" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ndecision allow { reason: ok }\ncollect one\nprecedence deny\ndefault deny(reason: no)\n", message: "precedence doesn't name decision \"allow\"", help: "name every decision exactly once, highest first", at: "5:1 precedence deny" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny\nprecedence deny\ndefault deny(reason: no)\n", message: "precedence is declared twice", help: "a kind declares `precedence` once; remove one", at: "5:1 precedence deny" },
    Case { src: "kind K version 1\n{T}precedence dny: no\n", message: "precedence: undeclared decision \"dny\"", help: "did you mean \"deny\"? name one of the kind's decisions", at: "6:12 dny" },
    Case { src: "kind K version 1\n{T}precedence deny: no\nprecedence deny: no\n", message: "precedence deny is declared twice", help: "rank the reasons of deny in one `precedence deny: …`", at: "7:1 precedence deny: no" },
    Case { src: "kind K version 1\n{T}precedence deny: no > maybe\n", message: "precedence deny: names undeclared reason \"maybe\"", help: "deny declares: no", at: "6:23 maybe" },
    Case { src: "kind K version 1\n{T}precedence deny: no > no\n", message: "precedence deny: names \"no\" twice", help: "name every reason exactly once", at: "6:23 no" },
    Case { src: "kind K version 1\ndecision deny { reason: no | yes }\ncollect all\nprecedence deny: yes\n", message: "precedence deny: doesn't name reason \"no\"", help: "name every reason exactly once, highest first", at: "4:1 precedence deny: yes" },
    // §2.9 exclusive
    Case { src: "kind K version 1\n{T}exclusive deny, hold\n", message: "exclusive: undeclared decision \"hold\"", help: "name one of the kind's decisions", at: "6:17 hold" },
    Case { src: "kind K version 1\n{T}exclusive deny.no, deny.maybe\n", message: "exclusive: decision deny has no reason \"maybe\"", help: "deny declares: no", at: "6:25 maybe" },
    // §2.10 default
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny\n", message: "kind K has no default decision", help: "declare what an evaluation returns when no rule fires, like `default deny(reason: no_rule_matched)`", at: "1:6 K version 1" },
    Case { src: "kind K version 1\n{T}default deny(reason: no)\n", message: "default is declared twice", help: "a kind declares `default` once; remove one", at: "6:1 default deny(reason: no)" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny\ndefault deni(reason: no)\n", message: "default names undeclared decision \"deni\"", help: "did you mean \"deny\"? the default constructs one of the kind's decisions", at: "5:9 deni" },
    Case { src: "kind K version 1\ndecision deny { reason: no | nope }\ncollect one\nprecedence deny\ndefault deny(reason: noo)\n", message: "decision deny has no reason `noo`", help: "did you mean `no`? deny declares: no, nope", at: "5:22 noo" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny\ndefault deny()\n", message: "decision deny needs a reason", help: "write `deny(reason: <reason>)`; deny declares: no", at: "5:9 deny()" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny\ndefault deny(reason: no, reason: no)\n", message: "field \"reason\" is given twice", help: "give the reason once", at: "5:26 reason" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny\ndefault deny(reason: \"no\")\n", message: "decision reason must be a bare name", help: "reasons are declared names, not strings; write `reason: no`", at: "5:22 \"no\"" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny\ndefault deny(reason: deny.no)\n", message: "a reason is a bare name", help: "write `reason: no`", at: "5:22 deny.no" },
    Case { src: "kind K version 1\ndecision deny { reason: no }\ncollect one\nprecedence deny\ndefault deny(reason: 1 + 1)\n", message: "decision reason must be a bare name", help: "", at: "5:22 1 + 1" },
    Case { src: "kind K version 1\ndecision deny { reason: no  n: int = 1 }\ncollect one\nprecedence deny\ndefault deny(ni, n: 2)\n", message: "the reason is a named argument", help: "write `deny(reason: no, n: 2)`", at: "5:14 ni" },
    Case { src: "kind K version 1\ndecision deny { reason: no  queue: string = \"a\" }\ncollect one\nprecedence deny\ndefault deny(reason: no, queu: \"b\")\n", message: "decision deny has no payload field \"queu\"", help: "did you mean \"queue\"? deny takes reason: no, and queue: string = \"a\"", at: "5:26 queu" },
    Case { src: "kind K version 1\ndecision deny { reason: no  n: int = 1 }\ncollect one\nprecedence deny\ndefault deny(reason: no, n: 2, n: 3)\n", message: "field \"n\" is given twice", help: "give each field once", at: "5:32 n" },
    Case { src: "kind K version 1\ndecision deny { reason: no | maybe  n: int  m: int = 1 }\ncollect one\nprecedence deny\ndefault deny(reason: no)\n", message: "decision deny needs field \"n\"", help: "deny takes reason: no | maybe, n: int, and m: int = 1", at: "5:9 deny(reason: no)" },
    Case { src: "kind K version 1\ndecision deny { reason: no  n: int = 1 }\ncollect one\nprecedence deny\ndefault deny(reason: no, n: 1.5)\n", message: "expected int, found float", help: "", at: "5:29 1.5" },
    // §2.11 conflict
    Case { src: "kind K version 1\ndecision grant { reason: ok | clash }\ncollect all\nconflict grant(reason: clash)\n", message: "kind K collects all decisions and can't declare a conflict outcome", help: "a collecting kind returns an empty outcome on a conflict, because granting anything on a defect in the policy would fail open; remove `conflict`", at: "4:1 conflict grant(reason: clash)" },
    Case { src: "kind K version 1\n{T}conflict deny(reason: no)\nconflict deny(reason: no)\n", message: "conflict is declared twice", help: "a kind declares `conflict` once; remove one", at: "7:1 conflict deny(reason: no)" },
    Case { src: "kind K version 1\n{T}conflict dent(reason: no)\n", message: "conflict names undeclared decision \"dent\"", help: "did you mean \"deny\"? the conflict constructs one of the kind's decisions", at: "6:10 dent" },
];

#[test]
fn every_loader_diagnostic() {
    let mut failed = Vec::new();
    for case in CASES {
        let src = case.src.replace("{T}", TAIL);
        let loaded = load_src(&src);
        let got: Vec<(String, String, String)> = loaded
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.message.clone(),
                    d.help.clone().unwrap_or_default(),
                    at(&src, d),
                )
            })
            .collect();
        let want = vec![(
            case.message.to_owned(),
            case.help.to_owned(),
            case.at.to_owned(),
        )];
        if got != want || loaded.kind.is_some() {
            failed.push(format!("{src}\n  got  {got:?}\n  want {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn mutually_recursive_types_each_report_their_own_cycle() {
    let src = format!(
        "kind K version 1\ntype A {{ b: list<B> }}\ntype B {{ a: ?A  c: C }}\ntype C {{ n: int }}\n{TAIL}"
    );
    let got: Vec<(String, String)> = load_src(&src)
        .diagnostics
        .iter()
        .map(|d| (d.message.clone(), at(&src, d)))
        .collect();
    assert_eq!(
        got,
        [
            (
                "type A is recursive: A -> B -> A".to_owned(),
                "2:6 A".to_owned()
            ),
            (
                "type B is recursive: B -> A -> B".to_owned(),
                "3:6 B".to_owned()
            ),
        ]
    );
}

#[test]
fn problems_are_all_reported_and_sorted() {
    let src = "kind K version 0\ninput x: Nope\ninput x: int\ndecision deny { reason: no }\n";
    let messages: Vec<String> = load_src(src)
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        messages,
        [
            // The header problems sit at the name, before the version.
            "kind K doesn't declare how many decisions it returns",
            "kind K has no default decision",
            "invalid kind version 0",
            "unknown type `Nope`",
            "input \"x\" is declared twice",
        ]
    );
}

#[test]
fn reason_is_no_payload_field() {
    let src = "kind K version 1\ndecision deny(a: int, reason: string) { no }\ncollect all\n";
    let got: Vec<(String, String, String)> = load_src(src)
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.message.clone(),
                d.help.clone().unwrap_or_default(),
                at(src, d),
            )
        })
        .collect();
    assert_eq!(
        got.get(1),
        Some(&(
            "decision deny, field \"reason\": reason can't be a payload field".to_owned(),
            "list the reasons after `reason:` in the decision's body; every constructor names one"
                .to_owned(),
            "2:23 reason".to_owned()
        )),
        "{got:?}"
    );
}
