//! Host functions through `engine.host_call` (module-abi §9), with a
//! native host attached to the test's thread: what the host receives, and
//! every way its answer becomes the call's result or runtime error.

use std::cell::RefCell;
use std::rc::Rc;

use super::eval_tests::compiled_handle;
use super::fuzz_tests::json_string as json;
use super::{NativeHost, attach_native_host, engine_alloc, handle, host_read, host_write};

const KIND: &str = r"kind Labels version 1

enum Tier: gold | silver

type Owner {
  name: string
  tier: Tier
}

input label: string
input owner: Owner
input since: timestamp
input ratio: float

fn split(string, string) -> list<string>
fn describe(Owner, duration, timestamp, float) -> string

decision allow {
  reason: tagged
}

decision deny {
  reason: fallback
}

collect one
precedence deny > allow

default deny(reason: fallback)
";

const POLICY: &str = r#"policy labels.check: Labels@1

when "team" in split(label, ",") {
  allow(reason: tagged)
}

when describe(owner, 1h30m, since, ratio + ratio) == "ok" {
  allow(reason: tagged)
}
"#;

const INPUT: &str = r#"{"label":"team,ops","owner":{"name":"ana","tier":"gold"},"since":"2026-03-01T08:00:00Z","ratio":0.25}"#;

fn answer(request: &str) -> String {
    String::from_utf8(handle(request.as_bytes())).unwrap()
}

/// Compiles the test policy with `functions` implemented by the host.
fn compile(functions: &[&str]) -> u32 {
    let names: Vec<String> = functions.iter().map(|f| json(f)).collect();
    let response = answer(&format!(
        r#"{{"op":"compile","files":[{{"path":"labels.sigil","source":{}}},{{"path":"kind.sigil","source":{}}}],"functions":[{}]}}"#,
        json(POLICY),
        json(KIND),
        names.join(",")
    ));
    compiled_handle(&response)
}

fn eval(handle: u32, input: &str) -> String {
    answer(&format!(
        r#"{{"op":"eval","handle":{handle},"input":{input}}}"#
    ))
}

/// A host answering every call with `reply(request)`, recording the
/// requests it got.
fn host(reply: impl Fn(&str) -> Vec<u8> + 'static) -> Rc<RefCell<Vec<String>>> {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = Rc::clone(&seen);
    let native: NativeHost = Box::new(move |ptr, len| {
        let packed = (i64::from(ptr) << 32) | i64::from(len);
        let request = String::from_utf8(host_read(packed).unwrap()).unwrap();
        let bytes = reply(&request);
        log.borrow_mut().push(request);
        let size = i32::try_from(bytes.len()).unwrap();
        let buffer = engine_alloc(size);
        assert!(host_write(buffer, &bytes));
        (i64::from(buffer) << 32) | i64::from(size)
    });
    attach_native_host(Some(native));
    seen
}

/// The `error` member of an eval response, compact.
fn error_of(response: &str) -> &str {
    let at = response
        .find(r#""error":"#)
        .unwrap_or_else(|| panic!("{response}"));
    let end = response.find(r#"},"policy""#).unwrap() + 1;
    response.get(at + 8..end).unwrap()
}

/// A runtime error record, its texts in Go's escaping (`<` as `\u003c`).
fn runtime_error(message: &str, help: &str) -> String {
    let go = |text: &str| {
        let mut out = String::new();
        crate::wire::write_string(text.as_bytes(), &mut out);
        out
    };
    format!(
        r#"{{"kind":"runtime","message":{},"help":{}}}"#,
        go(message),
        go(help)
    )
}

#[test]
fn the_host_gets_each_call_with_args_encoded_as_payload_values() {
    let seen = host(|request| match request.contains(r#""function":"split""#) {
        true => br#"{"result":["ops"]}"#.to_vec(),
        false => br#"{"result":"ok"}"#.to_vec(),
    });
    let response = eval(compile(&["describe", "split"]), INPUT);
    attach_native_host(None);
    assert_eq!(
        *seen.borrow(),
        [
            r#"{"function":"split","args":["team,ops",","]}"#,
            r#"{"function":"describe","args":[{"name":"ana","tier":"gold"},"1h30m","2026-03-01T08:00:00Z",0.5]}"#,
        ]
    );
    assert!(
        response.contains(r#""decision":"allow","reason":"tagged""#),
        "{response}"
    );
}

#[test]
fn an_error_answer_fails_the_call_with_its_text_and_wins_over_a_result() {
    host(|_| br#"{"result":["team"],"error":"label too long"}"#.to_vec());
    let response = eval(compile(&["split"]), INPUT);
    attach_native_host(None);
    assert_eq!(
        error_of(&response),
        runtime_error(
            "labels.sigil:3:16 (labels.check): host function split failed: label too long",
            RUNTIME_HELP
        )
    );
}

/// The failure of the split call when the host answers `reply`.
fn split_failure(reply: &'static [u8]) -> String {
    host(move |_| reply.to_vec());
    let response = eval(compile(&["split"]), INPUT);
    attach_native_host(None);
    error_of(&response).to_owned()
}

/// The help of a runtime error without advice of its own.
const RUNTIME_HELP: &str = "fix the expression the runtime error points at, or the input it read";

const PROTOCOL: &str = r#"the host answers a call with {"result": ...} or {"error": "..."}"#;

#[test]
fn answers_that_break_the_protocol_fail_the_call_with_their_own_help() {
    let cases: [(&[u8], &str, String); 6] = [
        (
            br#"{"error":42}"#,
            "the host answered with an error that isn't a string",
            PROTOCOL.to_owned(),
        ),
        (
            br#"{"value":1}"#,
            "the host answered with neither a result nor an error",
            format!(r#"{PROTOCOL}; a null result is {{"result": null}}"#),
        ),
        (
            b"not json",
            "the host's answer isn't a JSON object: invalid character 'o' in literal null (expecting 'u')",
            PROTOCOL.to_owned(),
        ),
        (
            b"[1]",
            "the host's answer isn't a JSON object: found a list",
            PROTOCOL.to_owned(),
        ),
        (
            br#"{"result":["team"]}}"#,
            "the host's answer isn't a JSON object: invalid character '}' after top-level value",
            PROTOCOL.to_owned(),
        ),
        (
            br#"{"result":7}"#,
            "the host returned result: expected a list<string>, found a number",
            "the kind declares `fn split(string, string) -> list<string>`; return a value of its result type".to_owned(),
        ),
    ];
    for (reply, text, help) in cases {
        let message =
            format!("labels.sigil:3:16 (labels.check): host function split failed: {text}");
        assert_eq!(
            split_failure(reply),
            runtime_error(&message, &help),
            "{text}"
        );
    }
}

#[test]
fn an_answer_reads_the_same_whatever_its_layout() {
    let replies: [&[u8]; 4] = [
        br#"{"result":["team"]}"#,
        br#"{ "result" : [ "team" ] }"#,
        b"{\"result\":[\"team\"]}\n",
        br#"{"result":["ops"],"result":["team"]}"#,
    ];
    for reply in replies {
        host(
            move |request| match request.contains(r#""function":"split""#) {
                true => reply.to_vec(),
                false => br#"{"result":"no"}"#.to_vec(),
            },
        );
        let response = eval(compile(&["describe", "split"]), INPUT);
        attach_native_host(None);
        assert!(
            response.contains(r#""decision":"allow","reason":"tagged""#),
            "{}: {response}",
            String::from_utf8_lossy(reply)
        );
    }
}

#[test]
fn a_result_nests_as_deep_as_json_allows_counting_its_answer_object() {
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let answer = |depth: usize| format!(r#"{{"result":{}}}"#, nested(depth)).into_bytes();
    let deepest = answer(crate::wire::MAX_DEPTH - 1);
    host(move |_| deepest.clone());
    let response = eval(compile(&["split"]), INPUT);
    assert!(
        response.contains("the host returned result[0]: expected a string, found a list"),
        "{response}"
    );
    let too_deep = answer(crate::wire::MAX_DEPTH);
    host(move |_| too_deep.clone());
    let response = eval(compile(&["split"]), INPUT);
    attach_native_host(None);
    assert!(
        response.contains(
            "the host's answer isn't a JSON object: invalid character '[' exceeded max depth"
        ),
        "{response}"
    );
}

#[test]
fn a_null_result_is_refused_where_the_type_is_not_nullable() {
    host(|request| match request.contains(r#""function":"split""#) {
        true => br#"{"result":null}"#.to_vec(),
        false => br#"{"result":null}"#.to_vec(),
    });
    let response = eval(compile(&["describe", "split"]), INPUT);
    attach_native_host(None);
    let failure = error_of(&response);
    assert!(
        failure.contains("host function describe failed: the host returned result"),
        "a null list is an empty one, a null string is refused: {failure}"
    );
}

#[test]
fn an_answer_not_allocated_with_engine_alloc_fails_the_call() {
    let native: NativeHost = Box::new(|_, _| (0x7fff_0000_i64 << 32) | 4);
    attach_native_host(Some(native));
    let response = eval(compile(&["split"]), INPUT);
    attach_native_host(None);
    assert_eq!(
        error_of(&response),
        runtime_error(
            "labels.sigil:3:16 (labels.check): host function split failed: host_call returned memory it didn't allocate with engine_alloc",
            RUNTIME_HELP
        )
    );
}

#[test]
fn the_request_and_answer_buffers_are_freed_after_each_call() {
    host(|_| br#"{"result":["team"]}"#.to_vec());
    let handle = compile(&["split"]);
    let live = || super::INSTANCE.with(|instance| instance.buffers.borrow().live_count());
    let before = live();
    for _ in 0..3 {
        eval(handle, INPUT);
    }
    attach_native_host(None);
    assert_eq!(live(), before);
}

#[test]
fn without_a_host_attached_a_named_function_says_so() {
    attach_native_host(None);
    assert_eq!(
        error_of(&eval(compile(&["split"]), INPUT)),
        runtime_error(
            "labels.sigil:3:16 (labels.check): host function split failed: no host is attached to run it",
            "the engine runs without a host; stub split instead"
        )
    );
}

#[test]
fn functions_not_named_in_compile_never_reach_the_host() {
    let seen = host(|_| br#"{"result":["team"]}"#.to_vec());
    let response = eval(compile(&[]), INPUT);
    attach_native_host(None);
    assert!(seen.borrow().is_empty());
    assert!(
        response.contains("no implementation in this sigil binary"),
        "{response}"
    );
}

#[test]
fn args_holding_a_nan_are_never_sent() {
    let seen = host(|_| br#"{"result":["x"]}"#.to_vec());
    let input = INPUT
        .replace(r#""label":"team,ops""#, r#""label":"ops""#)
        .replace("0.25", "1.7e308");
    let response = eval(compile(&["describe", "split"]), &input);
    attach_native_host(None);
    assert_eq!(seen.borrow().len(), 1, "only split was sent");
    assert!(
        response.contains("its args can't be sent as JSON: json: unsupported value: +Inf"),
        "{response}"
    );
}

#[test]
fn a_stub_answers_before_the_host_for_a_function_in_both_lists() {
    let seen = host(|_| br#"{"result":"from the host"}"#.to_vec());
    let response = answer(&format!(
        r#"{{"op":"compile","files":[{{"path":"labels.sigil","source":{}}},{{"path":"kind.sigil","source":{}}}],"functions":["describe","split"],"stubs":{{"split":{{"returns":["team"]}}}}}}"#,
        json(POLICY),
        json(KIND)
    ));
    let response = eval(compiled_handle(&response), INPUT);
    attach_native_host(None);
    assert_eq!(
        *seen.borrow(),
        [
            r#"{"function":"describe","args":[{"name":"ana","tier":"gold"},"1h30m","2026-03-01T08:00:00Z",0.5]}"#
        ]
    );
    assert!(response.contains(r#""reason":"tagged""#), "{response}");
}

/// The bench module's policy (`bench/.../HostCallRoundTrip.java`): one rule
/// that compares the input itself (`condition` `name == "ana"`) or the
/// result of one host call (`lower(name) == "ana"`).
fn round_trip_eval(condition: &str, input: &str) -> String {
    let kind = "kind Name version 1\n\ninput name: string\n\nfn lower(string) -> string\n\n\
        decision allow {\n  reason: known\n}\n\ndecision deny {\n  reason: no_rule\n}\n\n\
        collect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";
    let policy =
        format!("policy names.check: Name@1\n\nwhen {condition} {{\n  allow(reason: known)\n}}\n");
    let response = answer(&format!(
        r#"{{"op":"compile","files":[{{"path":"kind.sigil","source":{}}},{{"path":"names.sigil","source":{}}}],"functions":["lower"]}}"#,
        json(kind),
        json(&policy)
    ));
    let handle = compiled_handle(&response);
    format!(r#"{{"op":"eval","handle":{handle},"input":{input}}}"#)
}

#[test]
#[ignore = "benchmark: cargo test --release --lib abi::host_tests::bench -- --ignored --nocapture"]
fn bench_the_engine_share_of_a_host_call() {
    let native: NativeHost = Box::new(|_, _| {
        let bytes = br#"{"result":"ana"}"#;
        let buffer = engine_alloc(16);
        host_write(buffer, bytes);
        (i64::from(buffer) << 32) | 16
    });
    attach_native_host(Some(native));
    let none = round_trip_eval(r#"name == "ana""#, r#"{"name":"ana"}"#);
    let one = round_trip_eval(r#"lower(name) == "ana""#, r#"{"name":"ANA"}"#);
    assert!(answer(&one).contains(r#""decision":"allow""#));
    let without = super::eval_bench::ns_per_op(20_000, || {
        std::hint::black_box(handle(std::hint::black_box(none.as_bytes())));
    });
    let with = super::eval_bench::ns_per_op(20_000, || {
        std::hint::black_box(handle(std::hint::black_box(one.as_bytes())));
    });
    attach_native_host(None);
    println!("eval without a host call {without} ns, with one {with} ns");
}
