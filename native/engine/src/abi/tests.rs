//! The ABI's rules (module-abi.md §1–2), through `handle` and the exports.

use super::*;
use crate::version::BuildInfo;

const MALFORMED_HELP: &str =
    r#""help":"send one JSON object of an op and its fields, such as {\"op\": \"version\"}"}}"#;
const NOT_IN_MEMORY: &str = r#"{"ok":false,"error":{"message":"the request isn't in memory from engine_alloc: allocate it with engine_alloc, write it, and pass that pointer and the length written","help":"send one JSON object of an op and its fields, such as {\"op\": \"version\"}"}}"#;

fn answer(request: &str) -> String {
    String::from_utf8(handle(request.as_bytes())).unwrap()
}

/// The malformed-request failure for a decoder error, after the envelope.
fn malformed(id: &str, decoder_error: &str) -> String {
    let envelope = if id.is_empty() {
        String::new()
    } else {
        format!(r#""id":{id},"#)
    };
    format!(
        r#"{{{envelope}"ok":false,"error":{{"message":"the request isn't a JSON object of the fields an op takes: {decoder_error}",{MALFORMED_HELP}"#
    )
}

/// The version body this build reports, after the envelope.
fn version_body() -> String {
    let info = BuildInfo::current();
    format!(
        r#""version":"{}","commit":"{}","commitTime":"{}","dirty":{},"goVersion":"{}","platform":"{}"}}"#,
        info.version, info.commit, info.commit_time, info.dirty, info.compiler, info.platform
    )
}

#[test]
fn the_id_is_echoed_only_when_it_is_a_number() {
    let cases: &[(&str, &str)] = &[
        (r#"{"op":"version","id":7}"#, r#"{"id":7,"ok":true,"#),
        (r#"{"op":"version","id":1.50}"#, r#"{"id":1.50,"ok":true,"#),
        (r#"{"op":"version","id":1e3}"#, r#"{"id":1e3,"ok":true,"#),
        (r#"{"op":"version","id":-2}"#, r#"{"id":-2,"ok":true,"#),
        (r#"{"op":"version","id":null}"#, r#"{"ok":true,"#),
        (r#"{"op":"version","id":"7"}"#, r#"{"ok":true,"#),
        (r#"{"op":"version"}"#, r#"{"ok":true,"#),
        (
            r#"{"op":"eval","id":5,"handle":1,"timeoutMs":10}"#,
            r#"{"id":5,"ok":false,"#,
        ),
        (
            r#"{"op":"eval","id":6,"handle":"one"}"#,
            r#"{"id":6,"ok":false,"#,
        ),
        (r#"{"op":"evaluate","id":7}"#, r#"{"id":7,"ok":false,"#),
        (r#"{"op":"check","id":9}"#, r#"{"id":9,"ok":false,"#),
        (r#"{"op":"eval","id":8,"#, r#"{"ok":false,"#),
        (r#"{"op":"version","id":"x"}"#, r#"{"ok":false,"#),
        (r#"{"op":"version","id":true}"#, r#"{"ok":false,"#),
    ];
    for (request, start) in cases {
        let response = answer(request);
        assert!(
            response.starts_with(start),
            "request {request}\nresponse {response}"
        );
    }
}

#[test]
fn malformed_requests_fail_with_the_decoder_s_text() {
    let cases: &[(&str, String)] = &[
        ("", malformed("", "EOF")),
        (
            "oops",
            malformed("", "invalid character 'o' looking for beginning of value"),
        ),
        (
            r#"{"op":"eval","id":3,"timeoutMs":10}"#,
            malformed("3", r#"json: unknown field \"timeoutMs\""#),
        ),
        (
            r#"{"op":"check","files":[{"path":"a","verbose":true}]}"#,
            malformed("", r#"json: unknown field \"verbose\""#),
        ),
        (
            r#"{"op":"eval","handle":"one"}"#,
            malformed(
                "",
                "json: cannot unmarshal string into Go struct field request.handle of type uint32",
            ),
        ),
        (
            r#"{"op":"eval","timeout_ms":1.5}"#,
            malformed(
                "",
                "json: cannot unmarshal number 1.5 into Go struct field request.timeout_ms of type int64",
            ),
        ),
        (
            r#"{"op":"eval","handle":-1}"#,
            malformed(
                "",
                "json: cannot unmarshal number -1 into Go struct field request.handle of type uint32",
            ),
        ),
        (
            "[]",
            malformed(
                "",
                "json: cannot unmarshal array into Go value of type engine.request",
            ),
        ),
        (
            "\u{a1}\u{bf}",
            malformed("", "invalid character 'Â' looking for beginning of value"),
        ),
    ];
    for (request, want) in cases {
        assert_eq!(answer(request), *want, "request {request}");
    }
}

#[test]
fn deep_nesting_is_a_malformed_request() {
    let deep = format!(
        r#"{{"op":"eval","id":1,"input":{}{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(
        answer(&deep),
        malformed("", "invalid character '[' exceeded max depth")
    );
}

#[test]
fn an_unknown_or_missing_op_names_the_ops() {
    let help = r#""help":"the ops are version, check, compile, eval, explain, format, test and release"}}"#;
    let cases: &[(&str, String)] = &[
        (
            r#"{"op":"evaluate","id":7}"#,
            format!(r#"{{"id":7,"ok":false,"error":{{"message":"unknown op \"evaluate\"",{help}"#),
        ),
        (
            "{}",
            format!(r#"{{"ok":false,"error":{{"message":"unknown op \"\"",{help}"#),
        ),
        (
            r#"{"op":"VERSION"}"#,
            format!(r#"{{"ok":false,"error":{{"message":"unknown op \"VERSION\"",{help}"#),
        ),
        (
            r#"{"op":"<tab>\t"}"#,
            format!(
                r#"{{"ok":false,"error":{{"message":"unknown op \"\u003ctab\u003e\\t\"",{help}"#
            ),
        ),
    ];
    for (request, want) in cases {
        assert_eq!(answer(request), *want, "request {request}");
    }
}

#[test]
fn every_op_decodes_its_fields_strictly() {
    let ops = [
        "version", "check", "compile", "eval", "explain", "format", "test", "release",
    ];
    for op in ops {
        let typo = answer(&format!(r#"{{"op":"{op}","id":2,"fles":[]}}"#));
        assert_eq!(
            typo,
            malformed("2", r#"json: unknown field \"fles\""#),
            "{op}"
        );
    }
}

#[test]
fn the_version_response_is_the_envelope_then_six_members() {
    assert_eq!(
        answer(r#"{"op":"version"}"#),
        format!(r#"{{"ok":true,{}"#, version_body())
    );
    assert_eq!(
        answer(r#"{"id":1,"op":"version"}"#),
        format!(r#"{{"id":1,"ok":true,{}"#, version_body())
    );
    // Fields of other ops are read and ignored.
    assert_eq!(
        answer(r#"{"op":"version","handle":3,"input":{}}"#),
        format!(r#"{{"ok":true,{}"#, version_body())
    );
}

#[test]
fn the_native_version_reports_its_platform() {
    let info = BuildInfo::current();
    assert!(
        !info.platform.contains("wasm"),
        "a native build isn't wasip1/wasm: {}",
        info.platform
    );
}

/// Writes `request` into a fresh buffer and calls the engine on it.
fn call_with(request: &[u8]) -> (i32, i64) {
    let ptr = engine_alloc(i32::try_from(request.len()).unwrap());
    assert!(host_write(ptr, request));
    (ptr, engine_call(ptr, i32::try_from(request.len()).unwrap()))
}

fn read(packed: i64) -> String {
    String::from_utf8(host_read(packed).unwrap()).unwrap()
}

fn live_buffers() -> usize {
    INSTANCE.with(|instance| instance.buffers.borrow().live_count())
}

#[test]
fn a_round_trip_through_the_exports() {
    assert_eq!(engine_abi_version(), 1);
    let before = live_buffers();
    let (request, packed) = call_with(br#"{"op":"version","id":4}"#);
    assert!(read(packed).starts_with(r#"{"id":4,"ok":true,"version":"#));
    engine_free(request, 0);
    engine_free((packed >> 32) as i32, (packed & 0xffff_ffff) as i32);
    assert_eq!(live_buffers(), before);
}

#[test]
fn a_pointer_not_from_engine_alloc_is_answered_not_read() {
    let (request, _) = call_with(br#"{"op":"version"}"#);
    for (ptr, len) in [(0, 0), (12345, 5), (request + 1, 1), (-1, 1)] {
        assert_eq!(
            read(engine_call(ptr, len)),
            NOT_IN_MEMORY,
            "ptr {ptr} len {len}"
        );
    }
}

#[test]
fn a_length_beyond_the_buffer_is_answered_not_read() {
    let (request, _) = call_with(br#"{"op":"version"}"#);
    assert_eq!(read(engine_call(request, 17)), NOT_IN_MEMORY);
    assert_eq!(read(engine_call(request, -1)), NOT_IN_MEMORY);
    assert!(read(engine_call(request, 16)).starts_with(r#"{"ok":true"#));
    // Fewer bytes than written: the request is the first len bytes.
    assert_eq!(read(engine_call(request, 0)), malformed("", "EOF"));
}

#[test]
fn a_freed_buffer_is_no_request_and_freeing_again_is_harmless() {
    let (request, _) = call_with(br#"{"op":"version"}"#);
    engine_free(request, 16);
    let after_free = live_buffers();
    engine_free(request, 16);
    engine_free(987_654, 1);
    engine_free(0, 0);
    assert_eq!(live_buffers(), after_free);
    assert_eq!(read(engine_call(request, 16)), NOT_IN_MEMORY);
}

#[test]
fn zero_size_buffers_have_unique_addresses_and_hold_the_empty_request() {
    let addresses: Vec<i32> = (0..4)
        .map(|_| engine_alloc(0))
        .chain([engine_alloc(-3)])
        .collect();
    let mut unique = addresses.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), addresses.len());
    assert_eq!(read(engine_call(addresses[0], 0)), malformed("", "EOF"));
    assert_eq!(read(engine_call(addresses[4], 1)), NOT_IN_MEMORY);
}

#[test]
fn responses_stay_pinned_until_the_host_frees_them() {
    let (_, first) = call_with(br#"{"op":"version","id":1}"#);
    let (_, second) = call_with(br#"{"op":"nope","id":2}"#);
    assert!(read(first).starts_with(r#"{"id":1,"ok":true"#));
    assert!(read(second).starts_with(r#"{"id":2,"ok":false"#));
    engine_free((first >> 32) as i32, 0);
    assert_eq!(host_read(first), None);
    assert!(read(second).starts_with(r#"{"id":2,"ok":false"#));
}

#[test]
fn a_panic_is_an_answer_and_the_instance_keeps_working() {
    let (kept, _) = call_with(br#"{"op":"version","id":1}"#);
    let want = r#"{"id":9,"ok":false,"error":{"message":"the engine failed while handling the request: the panic-probe op panics on purpose","help":"this is a bug in the engine; please report it with the request"}}"#;
    for _ in 0..3 {
        let (_, packed) = call_with(br#"{"op":"panic-probe","id":9}"#);
        assert_eq!(read(packed), want);
    }
    assert!(
        read(engine_call(kept, 23)).starts_with(r#"{"id":1,"ok":true"#),
        "a buffer from before the panic is intact"
    );
    let (_, packed) = call_with(br#"{"op":"version","id":10}"#);
    assert!(read(packed).starts_with(r#"{"id":10,"ok":true"#));
}

#[test]
fn a_panic_message_is_read_from_str_and_string_payloads() {
    assert_eq!(panic_message(&"static"), "static");
    assert_eq!(panic_message(&String::from("owned")), "owned");
    assert_eq!(panic_message(&42_u8), "Box<dyn Any>");
}

const NEEDS_SOURCE: &str = r#"{"ok":false,"error":{"message":"format needs a source","help":"send {\"op\": \"format\", \"source\": \"...\"}, with an optional path for its diagnostics"}}"#;

#[test]
fn format_answers_the_canonical_source_and_whether_it_was_already() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"op":"format","source":"policy a.b: K@1\n"}"#,
            r#"{"ok":true,"source":"policy a.b: K@1\n","formatted":true}"#,
        ),
        (
            r#"{"id":1,"op":"format","source":"policy   a.b:K@1"}"#,
            r#"{"id":1,"ok":true,"source":"policy a.b: K@1\n","formatted":false}"#,
        ),
        (
            r#"{"op":"format","source":"","path":"empty.sigil"}"#,
            r#"{"ok":true,"source":"","formatted":true}"#,
        ),
        (
            r#"{"op":"format","source":"// only a comment"}"#,
            r#"{"ok":true,"source":"// only a comment\n","formatted":false}"#,
        ),
        // Non-ASCII text comes back as it went in; `<`, `>`, `&` escaped as Go does.
        (
            r#"{"op":"format","source":"policy a.b: K@1\nlet s = \"é <&> 😀\" // ünï\n"}"#,
            r#"{"ok":true,"source":"policy a.b: K@1\n\nlet s = \"é \u003c\u0026\u003e 😀\" // ünï\n","formatted":false}"#,
        ),
        (r#"{"op":"format"}"#, NEEDS_SOURCE),
        (
            r#"{"op":"format","source":null,"path":"a.sigil"}"#,
            NEEDS_SOURCE,
        ),
    ];
    for (request, want) in cases {
        assert_eq!(answer(request), *want, "request {request}");
    }
}

#[test]
fn format_of_a_source_that_doesn_t_parse_answers_its_syntax_errors() {
    let help = r#""help":"fix the syntax errors; fmt only formats files that parse"}"#;
    assert_eq!(
        answer(
            r#"{"id":4,"op":"format","source":"policy a.b: K@1\nlet = 1\nlet é = 2","path":"deploy/a.sigil"}"#
        ),
        format!(
            r#"{{"id":4,"ok":false,"error":{{"message":"deploy/a.sigil has syntax errors",{help},"diagnostics":[{{"severity":"error","file":"deploy/a.sigil","message":"expected a name after `let`, found `=`","help":"a let is written `let name = expression`","line":2,"column":5}},{{"severity":"error","file":"deploy/a.sigil","message":"unexpected character `é`","line":3,"column":5}}]}}"#
        )
    );
    // Without a path the diagnostics name `<stdin>`; the path is used as given.
    let response = answer(r#"{"op":"format","source":"policy","path":""}"#);
    assert!(
        response.starts_with(&format!(
            r#"{{"ok":false,"error":{{"message":"\u003cstdin\u003e has syntax errors",{help},"diagnostics":[{{"severity":"error","file":"\u003cstdin\u003e","#
        )),
        "{response}"
    );
    let response = answer(r#"{"op":"format","source":"policy","path":"./a//b.sigil"}"#);
    assert!(response.contains(r#""file":"./a//b.sigil""#), "{response}");
}

#[test]
fn format_decodes_its_fields_strictly() {
    assert_eq!(
        answer(r#"{"op":"format","id":3,"source":"x","paht":"a"}"#),
        malformed("3", r#"json: unknown field \"paht\""#)
    );
    assert_eq!(
        answer(r#"{"op":"format","source":1}"#),
        malformed(
            "",
            "json: cannot unmarshal number into Go struct field request.source of type string"
        )
    );
}

// A legacy decision with a payload field named `reason` has no form in the
// current syntax; the migration's output doesn't parse, and the formatter's
// proof turns that into a failure instead of wrong output.
#[test]
fn format_fails_rather_than_answer_an_output_that_fails_its_proof() {
    assert_eq!(
        answer(
            r#"{"op":"format","source":"kind K version 1\ndecision d(x: int, reason: string) { a }\n"}"#
        ),
        r#"{"ok":false,"error":{"message":"formatting \u003cstdin\u003e failed the formatter's own check: the output doesn't parse: 6:3: decision d declares `reason` twice","help":"this is a bug in the engine; please report it with the request"}}"#
    );
}
