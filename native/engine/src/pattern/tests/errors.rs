//! Every error code with Go's exact text and the fragment Go quotes.

use super::*;

/// (pattern, Go's message).
const CASES: &[(&str, &str)] = &[
    // missing closing ): the whole pattern.
    ("(", "missing closing ): `(`"),
    ("(a|b", "missing closing ): `(a|b`"),
    ("((a)", "missing closing ): `((a)`"),
    ("(?:a", "missing closing ): `(?:a`"),
    ("(?P<n>a", "missing closing ): `(?P<n>a`"),
    ("x(?i:", "missing closing ): `x(?i:`"),
    // missing closing ]: the class from its `[`.
    ("[a", "missing closing ]: `[a`"),
    ("[]", "missing closing ]: `[]`"),
    ("x[^", "missing closing ]: `[^`"),
    ("[a-", "missing closing ]: `[a-`"),
    ("[[:alpha:]", "missing closing ]: `[[:alpha:]`"),
    // unexpected ): the whole pattern.
    (")", "unexpected ): `)`"),
    ("a)", "unexpected ): `a)`"),
    ("(a))", "unexpected ): `(a))`"),
    ("(?:a))b", "unexpected ): `(?:a))b`"),
    // missing argument to repetition operator: the operator.
    ("*", "missing argument to repetition operator: `*`"),
    ("(+)", "missing argument to repetition operator: `+`"),
    ("a|?", "missing argument to repetition operator: `?`"),
    ("*?", "missing argument to repetition operator: `*?`"),
    ("{2}", "missing argument to repetition operator: `{2}`"),
    ("(?i)*", "missing argument to repetition operator: `*`"),
    // invalid nested repetition operator: from the first operator.
    ("a**", "invalid nested repetition operator: `**`"),
    ("a+?+", "invalid nested repetition operator: `+?+`"),
    ("a{2}{3}", "invalid nested repetition operator: `{2}{3}`"),
    ("a*{2}", "invalid nested repetition operator: `*{2}`"),
    ("a??*", "invalid nested repetition operator: `??*`"),
    // invalid repeat count: the counted operator.
    ("a{1001}", "invalid repeat count: `{1001}`"),
    ("a{2,1}", "invalid repeat count: `{2,1}`"),
    ("a{1000,1001}", "invalid repeat count: `{1000,1001}`"),
    ("a{100000000}", "invalid repeat count: `{100000000}`"),
    ("a{1000000000}", "invalid repeat count: `{1000000000}`"),
    ("a{2,1000000000}", "invalid repeat count: `{2,1000000000}`"),
    ("(a{40}){40}", "invalid repeat count: `{40}`"),
    ("a*{1001}", "invalid repeat count: `{1001}`"),
    // invalid escape sequence: the escape.
    (r"\1", r"invalid escape sequence: `\1`"),
    (r"(a)\1", r"invalid escape sequence: `\1`"),
    (r"\8", r"invalid escape sequence: `\8`"),
    (r"\q", r"invalid escape sequence: `\q`"),
    (r"\C", r"invalid escape sequence: `\C`"),
    (r"\x{110000}", r"invalid escape sequence: `\x{110000`"),
    (r"\xZ1", r"invalid escape sequence: `\xZ1`"),
    (r"\x{}", r"invalid escape sequence: `\x{}`"),
    (r"a\x{12", r"invalid escape sequence: `\x{12`"),
    (r"\x", r"invalid escape sequence: `\x`"),
    (r"\xA", r"invalid escape sequence: `\xA`"),
    (r"[\b]", r"invalid escape sequence: `\b`"),
    (r"[a-\d]", r"invalid escape sequence: `\d`"),
    ("\\é", "invalid escape sequence: `\\é`"),
    // invalid character class range: the range, class name or `\p` escape.
    ("[z-a]", "invalid character class range: `z-a`"),
    ("[[:foo:]]", "invalid character class range: `[:foo:]`"),
    ("[[:a]b:]]", "invalid character class range: `[:a]b:]`"),
    (r"\pX", r"invalid character class range: `\pX`"),
    (r"\p{Foo}", r"invalid character class range: `\p{Foo}`"),
    (r"[\p{Foo}]", r"invalid character class range: `\p{Foo}`"),
    (r"\p{Greek", r"invalid character class range: `\p{Greek`"),
    (r"\p", r"invalid character class range: `\p`"),
    (r"\p^", r"invalid character class range: `\p^`"),
    (r"\p{^}", r"invalid character class range: `\p{^}`"),
    // invalid named capture: up to the `>`, or the rest without one.
    ("(?P<>a)", "invalid named capture: `(?P<>`"),
    ("(?P<a-b>x)", "invalid named capture: `(?P<a-b>`"),
    ("(?P<x y>a)", "invalid named capture: `(?P<x y>`"),
    ("(?<name", "invalid named capture: `(?<name`"),
    ("(?<=a)", "invalid named capture: `(?<=a)`"),
    ("(?<!a)b", "invalid named capture: `(?<!a)b`"),
    // invalid or unsupported Perl syntax: from `(?` to the offending character.
    ("(?=x)", "invalid or unsupported Perl syntax: `(?=`"),
    ("(?!x)", "invalid or unsupported Perl syntax: `(?!`"),
    ("(?P=name)", "invalid or unsupported Perl syntax: `(?P`"),
    ("(?P>x)", "invalid or unsupported Perl syntax: `(?P`"),
    ("(?", "invalid or unsupported Perl syntax: `(?`"),
    ("(?i", "invalid or unsupported Perl syntax: `(?i`"),
    ("(?-)", "invalid or unsupported Perl syntax: `(?-)`"),
    ("(?i-)", "invalid or unsupported Perl syntax: `(?i-)`"),
    ("(?--i)", "invalid or unsupported Perl syntax: `(?--`"),
    ("(?x)", "invalid or unsupported Perl syntax: `(?x`"),
    ("(?#comment)", "invalid or unsupported Perl syntax: `(?#`"),
    // trailing backslash at end of expression: an empty fragment.
    ("\\", "trailing backslash at end of expression: ``"),
    ("a\\", "trailing backslash at end of expression: ``"),
    ("[a\\", "trailing backslash at end of expression: ``"),
];

#[test]
fn each_error_has_gos_code_and_fragment() {
    let mut failed: Vec<String> = Vec::new();
    for &(pattern, want) in CASES {
        let got: String = match Regex::new(pattern.as_bytes()) {
            Ok(_) => "compiled".to_owned(),
            Err(e) => e.message(),
        };
        if got != format!("error parsing regexp: {want}") {
            failed.push(format!("{pattern:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn the_specs_examples_read_as_the_spec_says() {
    for (pattern, want) in [
        ("(", "error parsing regexp: missing closing ): `(`"),
        (
            "a**",
            "error parsing regexp: invalid nested repetition operator: `**`",
        ),
        (
            r"\1",
            r"error parsing regexp: invalid escape sequence: `\1`",
        ),
        (
            "(?=x)",
            "error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
        ),
    ] {
        let err: RegexError = Regex::new(pattern.as_bytes()).err().unwrap();
        assert_eq!(err.to_string(), want);
    }
}

/// (pattern bytes, code, fragment bytes): Go quotes the bytes from the first
/// one that isn't UTF-8 (of the pattern, or of the `\Q` text or group name
/// being read).
const INVALID_UTF8: &[(&[u8], &[u8])] = &[
    (b"a\xffb", b"\xffb"),
    (b"[\xff]", b"\xff]"),
    (b"\\Q\xffa\\Eb", b"\xffa"),
    (b"(?P<\xff>a)", b"\xff"),
    (b"(?i\xff)", b"\xff)"),
    (b"\\p{\xff}", b"\xff"),
    (b"\\p\xff", b"\xff"),
    (b"\xe2\x82", b"\xe2\x82"),
];

#[test]
fn bytes_that_are_not_utf8_are_invalid_utf8() {
    for &(pattern, fragment) in INVALID_UTF8 {
        let err: RegexError = Regex::new(pattern).err().unwrap();
        assert_eq!(err.code(), ErrorCode::InvalidUtf8, "{pattern:?}");
        assert_eq!(err.fragment(), fragment, "{pattern:?}");
    }
    let err: RegexError = Regex::new(b"a\xffb").err().unwrap();
    assert_eq!(
        err.message(),
        "error parsing regexp: invalid UTF-8: `\u{fffd}b`"
    );
}

/// `n` copies of `open`, then `middle`, then `n` copies of `close`.
fn nest(open: &str, middle: &str, close: &str, n: usize) -> String {
    open.repeat(n) + middle + &close.repeat(n)
}

#[test]
fn nesting_is_limited_at_go_height_1000() {
    let deep = |pattern: &str| {
        Regex::new(pattern.as_bytes())
            .map(|_| ())
            .map_err(|e| e.code())
    };
    // Each capture adds a level above the innermost node.
    assert_eq!(deep(&nest("(", "a", ")", 999)), Ok(()));
    assert_eq!(
        deep(&nest("(", "a", ")", 1000)),
        Err(ErrorCode::NestingDepth)
    );
    assert_eq!(
        deep(&nest("(", "", ")", 1000)),
        Err(ErrorCode::NestingDepth)
    );
    assert_eq!(deep(&nest("(?:", "a", ")*", 999)), Ok(()));
    assert_eq!(
        deep(&nest("(?:", "a", ")*", 1000)),
        Err(ErrorCode::NestingDepth)
    );
    assert_eq!(
        deep(&nest("(", "a", ")", 20_000)),
        Err(ErrorCode::NestingDepth)
    );
    // Non-capturing groups add no level, so any number of them is fine.
    assert_eq!(deep(&nest("(?:", "a", ")", 20_000)), Ok(()));
    // The fragment is the whole pattern.
    let pattern: String = nest("(", "a", ")", 1000);
    let err: RegexError = Regex::new(pattern.as_bytes()).err().unwrap();
    assert_eq!(err.fragment(), pattern.as_bytes());
}

#[test]
fn programs_are_limited_at_go_size() {
    let large = |pattern: &str| Regex::new(pattern.as_bytes()).err().map(|e| e.code());
    // 1000 × (xx?){1000}: 5 000 000 instructions by Go's estimate.
    assert_eq!(large(&"(xx?){1000}".repeat(1000)), Some(ErrorCode::Large));
    assert_eq!(large(&r"\pL".repeat(27_000)), Some(ErrorCode::Large));
    assert_eq!(large(&"(xx?){1000}".repeat(10)), None);
    // Nested counts multiply: within 1000 is fine, past it is a count error.
    assert_eq!(large("((a{10}){10}){10}"), None);
    assert_eq!(
        large("((a{10}){10}){11}"),
        Some(ErrorCode::InvalidRepeatSize)
    );
}
