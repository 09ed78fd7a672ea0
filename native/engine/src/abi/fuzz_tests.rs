//! Fuzz-style properties of `abi::handle`, bounded to run in every
//! `cargo test`: over seeded mutations of valid requests and random bytes,
//! every response is one JSON object that starts with the envelope, `ok` is a
//! bool, a failure has an error message, an echoed id is a number the
//! request holds, and nothing panics. Inputs that once broke a property are
//! kept in src/abi/testdata/regressions/ and replayed.

use super::handle;

/// Valid requests of every op, the mutations' seeds.
const SEEDS: &[&str] = &[
    r#"{"op":"version"}"#,
    r#"{"op":"version","id":7}"#,
    r#"{"id":1.50,"op":"version"}"#,
    r#"{"op":"check","id":1e3,"files":[{"path":"kind.sigil","source":"kind K@1 {}"}],"trusted_files":[],"policies":["a.*"],"require":[{"policy":"p","trusted":["t/"],"roots":["r.*"]}],"lints":{"unused-let":"off"}}"#,
    r#"{"op":"compile","id":2,"files":[{"path":"a.sigil","source":"policy a.b: K@1\n"}],"policy":"a.b","stubs":{"f":{"returns":[1,2]}},"functions":["f"]}"#,
    r#"{"op":"eval","id":3,"handle":1,"timeout_ms":100,"input":{"alert":{"severity":"high","labels":{"team":"x"},"n":[1.5e3,-0,true,null]}}}"#,
    r#"{"op":"explain","handle":4294967295}"#,
    r#"{"op":"format","source":"policy   a.b:K@1","path":"a.sigil"}"#,
    r#"{"op":"test","test_files":[{"path":"a_test.yaml","source":"cases: []"}],"data_files":[],"run":"^x$"}"#,
    r#"{"op":"release","handle":1,"id":-4}"#,
    r#"{"op":"unknown \u00e9\ud83d\ude00 <&>","id":5}"#,
];

use crate::testing::Rng;

/// Bytes that change JSON's structure when inserted.
const INTERESTING: &[&[u8]] = &[
    b"{", b"}", b"[", b"]", b"\"", b":", b",", b"\\", b"\\u", b"null", b"-", b"1e", b"\"id\":",
    b"\xff", b"\x00", b" ",
];

fn mutate(rng: &mut Rng, mut bytes: Vec<u8>) -> Vec<u8> {
    for _ in 0..=rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
            1 => bytes.insert(at, rng.next() as u8),
            2 => {
                let end = (at + rng.below(8)).min(bytes.len());
                bytes.drain(at..end);
            }
            3 => {
                let piece = INTERESTING[rng.below(INTERESTING.len())];
                bytes.splice(at..at, piece.iter().copied());
            }
            4 => bytes.truncate(at),
            _ => {
                let end = (at + rng.below(16)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
        }
    }
    bytes
}

/// Checks the properties of one response; returns why one fails.
fn check(request: &[u8], response: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(response).map_err(|e| format!("not UTF-8: {e}"))?;
    let members = top_level_members(text).ok_or("not one JSON object")?;
    let names: Vec<&str> = members.iter().map(|(name, _)| name.as_str()).collect();
    let ok_at = usize::from(names.first() == Some(&"id"));
    if names.get(ok_at) != Some(&"ok") {
        return Err(format!("the envelope isn't [id,] ok: {names:?}"));
    }
    if let Some((_, id)) = members.first().filter(|(name, _)| name == "id") {
        if !id.starts_with(|c: char| c == '-' || c.is_ascii_digit())
            || !contains(request, id.as_bytes())
        {
            return Err(format!("echoed id {id} isn't a number of the request"));
        }
    }
    match members[ok_at].1.as_str() {
        "true" => Ok(()),
        "false"
            if names.get(ok_at + 1) == Some(&"error")
                && members[ok_at + 1].1.starts_with(r#"{"message":""#) =>
        {
            Ok(())
        }
        other => Err(format!("ok is {other} without an error after it")),
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

/// The members of a compact JSON object as (name, raw value), or `None`
/// when `text` isn't exactly one object. Responses are compact and shallow,
/// so a small recursive reader does.
fn top_level_members(text: &str) -> Option<Vec<(String, String)>> {
    let bytes = text.as_bytes();
    let mut at = 0;
    if bytes.first() != Some(&b'{') {
        return None;
    }
    at += 1;
    let mut members = Vec::new();
    while bytes.get(at) != Some(&b'}') {
        if !members.is_empty() {
            (bytes.get(at) == Some(&b',')).then_some(())?;
            at += 1;
        }
        let name_end = value_end(bytes, at, 0)?;
        let name = text.get(at + 1..name_end - 1)?.to_owned();
        (bytes.get(name_end) == Some(&b':')).then_some(())?;
        let value_start = name_end + 1;
        at = value_end(bytes, value_start, 0)?;
        members.push((name, text.get(value_start..at)?.to_owned()));
    }
    (at + 1 == bytes.len()).then_some(members)
}

/// The index after the JSON value at `at`.
fn value_end(bytes: &[u8], at: usize, depth: usize) -> Option<usize> {
    if depth > 32 {
        return None;
    }
    match *bytes.get(at)? {
        b'"' => {
            let mut i = at + 1;
            loop {
                match *bytes.get(i)? {
                    b'"' => return Some(i + 1),
                    b'\\' => i += 2,
                    c if c < 0x20 => return None,
                    _ => i += 1,
                }
            }
        }
        open @ (b'{' | b'[') => {
            let close = if open == b'{' { b'}' } else { b']' };
            let mut i = at + 1;
            let mut first = true;
            while *bytes.get(i)? != close {
                if !first {
                    (bytes.get(i) == Some(&b',')).then_some(())?;
                    i += 1;
                }
                first = false;
                if open == b'{' {
                    i = value_end(bytes, i, depth + 1)?;
                    (bytes.get(i) == Some(&b':')).then_some(())?;
                    i += 1;
                }
                i = value_end(bytes, i, depth + 1)?;
            }
            Some(i + 1)
        }
        _ => {
            let len = bytes[at..]
                .iter()
                .position(|c| matches!(c, b',' | b'}' | b']'))
                .unwrap_or(bytes.len() - at);
            let scalar = std::str::from_utf8(&bytes[at..at + len]).ok()?;
            let number = scalar.parse::<f64>().is_ok() && !scalar.starts_with('+');
            (number || matches!(scalar, "true" | "false" | "null")).then_some(at + len)
        }
    }
}

fn assert_properties(request: &[u8]) {
    let response = handle(request);
    if let Err(why) = check(request, &response) {
        panic!(
            "{why}\nrequest:  {:?}\nresponse: {}",
            String::from_utf8_lossy(request),
            String::from_utf8_lossy(&response)
        );
    }
}

#[test]
fn mutated_requests_get_well_formed_answers() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for round in 0..20_000 {
        let seed = SEEDS[round % SEEDS.len()].as_bytes().to_vec();
        assert_properties(&mutate(&mut rng, seed));
    }
}

#[test]
fn random_bytes_get_well_formed_answers() {
    let mut rng = Rng(0x0ddb_a11c_0ffe_e002);
    for _ in 0..5_000 {
        let len = rng.below(64);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        assert_properties(&bytes);
    }
}

#[test]
fn every_seed_is_answered_and_numeric_ids_come_back_as_written() {
    for seed in SEEDS {
        assert_properties(seed.as_bytes());
    }
    let mut rng = Rng(0x1d5_0003);
    for _ in 0..1_000 {
        let id = match rng.below(4) {
            0 => format!("{}", rng.next() as i64),
            1 => format!("{}.{:02}", rng.below(1000), rng.below(100)),
            2 => format!("{}e{}", rng.below(10), rng.below(30)),
            _ => format!("-{}E-{}", rng.below(10), rng.below(9)),
        };
        let response = handle(format!(r#"{{"op":"version","id":{id}}}"#).as_bytes());
        assert!(
            response.starts_with(format!(r#"{{"id":{id},"ok":true,"#).as_bytes()),
            "id {id}"
        );
    }
}

#[test]
fn kept_regressions_still_hold() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/abi/testdata/regressions");
    let mut replayed = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        assert_properties(&std::fs::read(entry.unwrap().path()).unwrap());
        replayed += 1;
    }
    assert!(replayed > 0);
}

/// Sigil's vocabulary, for token soups: keywords, operators, names,
/// literals, comments, separators and line breaks.
#[rustfmt::skip]
const VOCABULARY: &[&str] = &[
    "policy", "module", "kind", "use", "as", "param", "let", "pub", "when", "assert", "version",
    "type", "input", "fn", "enum", "decision", "precedence", "collect", "default", "conflict",
    "and", "or", "xor", "not", "in", "all", "any", "filter", "one", "exclusive", "has", "like",
    "matches", "present", "true", "false", "outcome", "reason", "a", "b.c", "K", "@1", "0", "1.5",
    "1h30m", "\"s\"", "\"é\"", "`raw`", "// c", "// ü\n", "---", "==", "!=", "<", ">=", "??", "?.",
    "->", "+", "-", "?", ".", ",", ":", "=", "(", ")", "[", "]", "{", "}", "|", "\n", "\n\n", "\t",
    "<&>", "\u{2028}", "\\", "\"", "\u{0}",
];

/// `text` as a JSON string, every control character escaped.
pub(super) fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A format request for `source`, sometimes with a path.
fn format_request(rng: &mut Rng, source: &str) -> Vec<u8> {
    let path = if rng.below(2) == 0 {
        r#","path":"p/a.sigil""#
    } else {
        ""
    };
    format!(
        r#"{{"op":"format","id":{},"source":{}{path}}}"#,
        rng.below(100),
        json_string(source)
    )
    .into_bytes()
}

/// The format op's own properties on top of the envelope's: it never
/// fails its proof (an output that isn't the same program).
fn assert_format_properties(request: &[u8]) {
    assert_properties(request);
    let response = String::from_utf8(handle(request)).unwrap();
    assert!(
        !response.contains("failed the formatter's own check"),
        "request {:?}\nresponse {response}",
        String::from_utf8_lossy(request)
    );
}

#[test]
fn format_of_token_soups_gets_well_formed_answers() {
    let mut rng = Rng(0x50c1_f00d_0000_0004);
    let mut formatted = 0;
    for _ in 0..3_000 {
        let mut source = String::new();
        // Some soups start like a document, so more of them parse.
        if rng.below(2) == 0 {
            source.push_str("policy a.b: K@1\n");
        }
        for _ in 0..rng.below(40) {
            source.push_str(VOCABULARY[rng.below(VOCABULARY.len())]);
            source.push_str([" ", "", "\n"][rng.below(3)]);
        }
        let request = format_request(&mut rng, &source);
        assert_format_properties(&request);
        formatted += usize::from(handle(&request).windows(9).any(|w| w == b"\"ok\":true"));
    }
    assert!(formatted > 30, "only {formatted} soups formatted");
}

#[test]
fn format_of_random_bytes_gets_well_formed_answers() {
    let mut rng = Rng(0xb17e_5000_0000_0005);
    for _ in 0..3_000 {
        let len = rng.below(80);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        // As text (lossy), and as raw bytes inside the JSON string.
        let request = format_request(&mut rng, &String::from_utf8_lossy(&bytes));
        assert_format_properties(&request);
        let mut raw = br#"{"op":"format","source":""#.to_vec();
        raw.extend(bytes.iter().filter(|&&b| b != b'"' && b != b'\\'));
        raw.extend_from_slice(br#""}"#);
        assert_format_properties(&raw);
    }
}

/// The kind the check soups are written against: it declares some of the
/// vocabulary's names.
const SOUP_KIND: &str = "kind K version 1\nenum E: x | r\ntype S { a: ?int  s: list<S2> }\ntype S2 { b: map<E, string> }\ninput a: S\nfn f(int) -> S\ndecision d {\n  reason: r\n  n: list<int> = []\n}\ncollect all\n";

/// A check of the kind and `source`.
fn check_request(source: &str) -> Vec<u8> {
    format!(
        r#"{{"op":"check","files":[{{"path":"k.sigil","source":{}}},{{"path":"p.sigil","source":{}}}]}}"#,
        json_string(SOUP_KIND),
        json_string(source)
    )
    .into_bytes()
}

#[test]
fn check_of_token_soups_always_answers_ok() {
    let mut rng = Rng(0xc4ec_5000_0000_0006);
    let starts = [
        "",
        "policy a.b: K@1\n",
        "policy a.b: K@1\nwhen ",
        "module m: K@1\nlet x = ",
    ];
    let mut clean = 0;
    for _ in 0..3_000 {
        let mut source = String::from(starts[rng.below(starts.len())]);
        for _ in 0..rng.below(30) {
            source.push_str(VOCABULARY[rng.below(VOCABULARY.len())]);
            source.push_str([" ", "", "\n"][rng.below(3)]);
        }
        let request = check_request(&source);
        assert_properties(&request);
        let response = handle(&request);
        assert!(
            response.starts_with(br#"{"ok":true,"diagnostics":["#),
            "a check answers ok whatever the source: {}",
            String::from_utf8_lossy(&response)
        );
        clean += usize::from(response.ends_with(br#""diagnostics":[]}"#));
    }
    assert!(clean > 10, "only {clean} soups checked clean");
}
