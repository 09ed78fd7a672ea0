//! Timing of one ranked decision (`#[ignore]`d; numbers, not assertions):
//! `cargo test --release --lib abi::eval_bench -- --ignored --nocapture`.
//! Goal (issue #5): one `policy.eval` from Java under 5 µs; this is the
//! engine's share, whole and by phase: request decoding, the input decoded
//! against the kind (the fast path of scalar inputs), evaluation, and the
//! record with its envelope. The server's example decision, `access.main`
//! of `conf/policies`, has a nested input: its loop times the input read
//! straight from the JSON against the same input through the tree
//! (issue #22).

use std::hint::black_box;
use std::rc::Rc;
use std::time::Instant;

use super::eval_record::{EvalRecord, RuleTexts};
use super::fuzz_tests::json_string as json;
use super::{handle, request, response};
use crate::bundle::{FileInput, Project, named_files};
use crate::data::Syntax;
use crate::eval::Unbound;
use crate::program::Program;

const KIND: &str = "kind Refund version 1\n\ninput amount: int\ninput channel: string\n\n\
    decision deny {\n  reason: fraud | no_rule\n}\n\n\
    decision approve {\n  reason: goodwill | small\n  limit: int = 100\n}\n\n\
    collect one\nprecedence deny > approve\nprecedence approve: goodwill > small\n\n\
    default deny(reason: no_rule)\n";

const INPUT: &str = r#"{"amount":40,"channel":"web"}"#;

/// The bench module's policy (`bench/.../EvalRoundTrip.java`): `rules`
/// rules that all approve a small web refund, ranked under a deny.
fn policy(rules: usize) -> String {
    let mut s = String::from(
        "policy refund.desk: Refund@1\n\nwhen amount > 10000 {\n  deny(reason: fraud)\n}\n\n",
    );
    for i in 0..rules {
        s.push_str(&format!(
            "when amount < 100 + {i} and channel == \"web\" {{\n  approve(reason: small, limit: 100)\n}}\n\n"
        ));
    }
    s
}

/// The policy `name` in the file `path` of `policy`, compiled under `kind`.
fn program(kind: &str, path: &str, policy: &str, name: &str) -> Program {
    let files = [
        FileInput {
            path: "kind.sigil",
            source: kind,
        },
        FileInput {
            path,
            source: policy,
        },
    ];
    let project = Project::load(named_files(&files, &[]).unwrap());
    let root = project.find(name).unwrap();
    crate::compile::compile(&project, root).unwrap()
}

/// A compile request of a kind and one policy file.
fn compile_request(kind: &str, path: &str, policy: &str) -> String {
    format!(
        r#"{{"op":"compile","files":[{{"path":"kind.sigil","source":{}}},{{"path":"{path}","source":{}}}]}}"#,
        json(kind),
        json(policy)
    )
}

/// The handle the compile request `compile` answers, as its JSON text.
fn compiled_handle(compile: &str) -> String {
    let compiled = String::from_utf8(handle(compile.as_bytes())).unwrap();
    let at = compiled.find(r#""handle":"#).unwrap() + 9;
    compiled.get(at..compiled.len() - 1).unwrap().to_owned()
}

/// Nanoseconds per call of `op`: the median of rounds of `per_round` calls.
pub(super) fn ns_per_op(per_round: u32, mut op: impl FnMut()) -> u128 {
    let mut rounds: Vec<u128> = (0..15)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..per_round {
                op();
            }
            started.elapsed().as_nanos() / u128::from(per_round)
        })
        .collect();
    rounds.sort_unstable();
    rounds[rounds.len() / 2]
}

fn time(rules: usize, per_round: u32) {
    let source = policy(rules);
    let compile = compile_request(KIND, "refund/desk.sigil", &source);
    let id = compiled_handle(&compile);
    let eval = format!(r#"{{"op":"eval","handle":{id},"input":{INPUT}}}"#);
    let answer = String::from_utf8(handle(eval.as_bytes())).unwrap();
    assert!(answer.contains(r#""decision":"approve""#), "{answer}");

    let program = program(KIND, "refund/desk.sigil", &source, "refund.desk");
    let data = crate::data::parse_json(INPUT.as_bytes()).unwrap();
    let inputs = crate::input::decode_input(&data, Syntax::Json, &program.kind).unwrap();
    let evaluation = crate::eval::evaluate(&program, &inputs, &mut Unbound, None);

    let whole = ns_per_op(per_round, || {
        black_box(handle(black_box(eval.as_bytes())));
    });
    let light = format!(r#"{{"op":"eval","handle":{id},"input":{INPUT},"trace":false}}"#);
    let without_trace = ns_per_op(per_round, || {
        black_box(handle(black_box(light.as_bytes())));
    });
    let decode = ns_per_op(per_round, || {
        let checked = request::check(black_box(eval.as_bytes()));
        black_box(request::decode(&checked).is_ok());
    });
    let input = ns_per_op(per_round, || {
        black_box(crate::input::decode_json_input(
            black_box(INPUT.as_bytes()),
            &program.kind,
        ));
    });
    let evaluate = ns_per_op(per_round, || {
        black_box(crate::eval::evaluate(
            &program,
            black_box(&inputs),
            &mut Unbound,
            None,
        ));
    });
    let texts = Rc::new(RuleTexts::of(&program));
    let evaluated = Ok(response::Success::Eval(EvalRecord::new(
        Rc::new(program),
        texts,
        evaluation,
        true,
    )));
    let record = ns_per_op(per_round, || {
        black_box(response::encode(None, black_box(&evaluated)));
    });
    let compile_and_release = ns_per_op(per_round / 10, || {
        let compiled = handle(black_box(compile.as_bytes()));
        let at = compiled
            .windows(9)
            .position(|w| w == br#""handle":"#)
            .unwrap()
            + 9;
        let id = std::str::from_utf8(&compiled[at..compiled.len() - 1]).unwrap();
        black_box(handle(
            format!(r#"{{"op":"release","handle":{id}}}"#).as_bytes(),
        ));
    });
    println!(
        "eval, {rules} rules: {whole} ns/op, without the trace {without_trace}; request {decode}, input {input}, evaluate {evaluate}, record {record}; compile and release {compile_and_release} ns/op"
    );
}

#[test]
#[ignore = "benchmark: cargo test --release --lib abi::eval_bench -- --ignored --nocapture"]
fn bench_eval_of_1_and_64_rule_policies() {
    time(1, 20_000);
    time(64, 1_000);
}

const ACCESS_KIND: &str = include_str!("../../../../conf/policies/kind.sigil");
const ACCESS_MAIN: &str = include_str!("../../../../conf/policies/access/main.sigil");

/// A member's input of `access.main`, as the bench module's
/// `PeerDecision` sends it.
const ACCESS_INPUT: &str = r#"{"user":{"name":"ann","teams":["payments","search"],"admin":false},"action":"read","resource":{"name":"ledger","team":"payments"}}"#;

#[test]
#[ignore = "benchmark: cargo test --release --lib abi::eval_bench -- --ignored --nocapture"]
fn bench_eval_of_access_main() {
    let id = compiled_handle(&compile_request(
        ACCESS_KIND,
        "access/main.sigil",
        ACCESS_MAIN,
    ));
    let eval = format!(r#"{{"op":"eval","handle":{id},"input":{ACCESS_INPUT}}}"#);
    let answer = String::from_utf8(handle(eval.as_bytes())).unwrap();
    assert!(answer.contains(r#""reason":"team_member""#), "{answer}");

    let program = program(ACCESS_KIND, "access/main.sigil", ACCESS_MAIN, "access.main");
    let kind = &program.kind;
    let per_round = 20_000;
    let whole = ns_per_op(per_round, || {
        black_box(handle(black_box(eval.as_bytes())));
    });
    let light = format!(r#"{{"op":"eval","handle":{id},"input":{ACCESS_INPUT},"trace":false}}"#);
    let without_trace = ns_per_op(per_round, || {
        black_box(handle(black_box(light.as_bytes())));
    });
    let straight = ns_per_op(per_round, || {
        black_box(crate::input::decode_json_input(
            black_box(ACCESS_INPUT.as_bytes()),
            kind,
        ));
    });
    let tree = ns_per_op(per_round, || {
        let data = crate::data::parse_checked_json(black_box(ACCESS_INPUT.as_bytes()));
        black_box(crate::input::decode_input(&data, Syntax::Json, kind).is_ok());
    });
    println!(
        "eval, access.main (nested input): {whole} ns/op, without the trace {without_trace}; input read straight {straight}, through the tree {tree} ns/op"
    );
}
