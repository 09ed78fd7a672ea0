//! Native cost of the `test` op: `cargo run --release --example bench_test_op`.
//!
//! One request holding a kind, a policy with a host function, a test file
//! of four cases (inline and `input_file` inputs, stubs of the file and of a
//! case, a failing case) and a data file: load and check the files, read the
//! test file, validate, compile, run the cases, write the records. Prints
//! the best of five rounds in µs per request; timing only, no thresholds
//! (design.md §7: timing belongs in benchmarks).

use std::hint::black_box;
use std::time::Instant;

use engine::abi::handle;

const ROUNDS: usize = 5;
const PER_ROUND: u32 = 2_000;

const REQUEST: &str = r#"{"op":"test",
"files":[
 {"path":"kind.sigil","source":"kind Door version 1\n\ninput floor: int\ninput user: string\n\nfn badge(string) -> bool\n\ndecision deny {\n  reason: closed | no_rule\n}\n\ndecision allow {\n  reason: member\n  minutes: int = 5\n}\n\ncollect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n"},
 {"path":"door/main.sigil","source":"policy door.main: Door@1\n\nwhen floor > 1 and badge(user) {\n  allow(reason: member, minutes: floor)\n}\n\nwhen floor < 0 {\n  deny(reason: closed)\n}\n"}],
"test_files":[
 {"path":"door/main_test.yaml","source":"policy: door.main\nstubs:\n  badge: {calls: [{args: [ada], returns: true}], returns: false}\ncases:\n  - name: ada upstairs\n    input: {floor: 2, user: ada}\n    expect: {decision: allow, reason: member, payload: {minutes: 2}}\n  - name: bob upstairs\n    input_file: testdata/bob.json\n    expect: {decision: deny, reason: no_rule}\n  - name: a revoked badge\n    input: {floor: 3, user: ada}\n    stubs:\n      badge: {error: revoked}\n    expect: {error: revoked}\n  - name: the basement fails\n    input: {floor: -1, user: ada}\n    expect: {decision: allow, reason: member}\n"}],
"data_files":[{"path":"door/testdata/bob.json","source":"{\"floor\": 3, \"user\": \"bob\"}"}]}"#;

fn main() {
    let request = REQUEST.as_bytes();
    let response = String::from_utf8(handle(request)).unwrap_or_default();
    assert!(
        response.starts_with(r#"{"ok":true,"results":[{"file":"door/main_test.yaml""#)
            && response.matches(r#""passed":true"#).count() == 3,
        "{response}"
    );
    for _ in 0..PER_ROUND / 10 {
        black_box(handle(black_box(request)));
    }
    let best = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..PER_ROUND {
                black_box(handle(black_box(request)));
            }
            start.elapsed().as_nanos() as f64 / f64::from(PER_ROUND) / 1000.0
        })
        .fold(f64::INFINITY, f64::min);
    println!("abi::handle(test, 1 file, 4 cases)  {best:8.1} µs/request");
}
