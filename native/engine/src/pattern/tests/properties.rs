//! Properties: generated patterns never panic, limits fail cleanly however
//! big or deep the pattern, and matching stays linear on large texts.

use super::*;
use crate::testing::{Rng, on_small_stack};

/// Pieces of Go's syntax, valid and not, for generated patterns.
const PIECES: &[&str] = &[
    "a",
    "b",
    "é",
    ".",
    "^",
    "$",
    "|",
    "(",
    ")",
    "(?:",
    "(?i)",
    "(?s:",
    "(?m)",
    "(?P<n>",
    "[",
    "]",
    "[^",
    "-",
    "*",
    "+",
    "?",
    "{2}",
    "{1,3}",
    "{0,}",
    "{",
    "}",
    "\\",
    "\\d",
    "\\W",
    "\\pL",
    "\\p{Greek}",
    "\\b",
    "\\Q",
    "\\E",
    "[:alpha:]",
    "\\x{41}",
    "\\1",
    "\n",
    "\u{212a}",
];

fn generated(rng: &mut Rng) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    for _ in 0..rng.below(12) {
        if rng.below(40) == 0 {
            out.push(rng.below(256) as u8);
        } else {
            out.extend_from_slice(PIECES[rng.below(PIECES.len())].as_bytes());
        }
    }
    out
}

#[test]
fn generated_patterns_compile_or_fail_with_a_go_message() {
    let texts: [&[u8]; 5] = [
        b"",
        b"ab\nA",
        "éΣK".as_bytes(),
        b"\xff\xe2",
        b"aaaa bbbb 1234",
    ];
    let mut rng = Rng(0x5eed_0002);
    let mut compiled: usize = 0;
    for _ in 0..6_000 {
        let pattern: Vec<u8> = generated(&mut rng);
        match Regex::new(&pattern) {
            Ok(re) => {
                compiled += 1;
                for text in texts {
                    re.is_match(text);
                }
            }
            Err(e) => assert!(e.message().starts_with("error parsing regexp: "), "{e}"),
        }
        // Deterministic: the same pattern gives the same answer.
        assert_eq!(Regex::new(&pattern).is_ok(), Regex::new(&pattern).is_ok());
    }
    assert!(
        compiled > 600,
        "only {compiled} generated patterns compiled"
    );
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x5eed_0003);
    for _ in 0..20_000 {
        let pattern: Vec<u8> = (0..rng.below(16)).map(|_| rng.below(128) as u8).collect();
        if let Ok(re) = Regex::new(&pattern) {
            re.is_match(&pattern);
        }
        Glob::new(&pattern).is_match(&pattern);
    }
}

#[test]
fn huge_and_deep_patterns_fail_cleanly_on_a_small_stack() {
    on_small_stack(|| {
        let cases: [(String, Option<ErrorCode>); 8] = [
            ("(".repeat(100_000), Some(ErrorCode::MissingParen)),
            (")".repeat(100_000), Some(ErrorCode::UnexpectedParen)),
            (
                "(".repeat(50_000) + &")".repeat(50_000),
                Some(ErrorCode::NestingDepth),
            ),
            ("(?:".repeat(50_000) + "a" + &")".repeat(50_000), None),
            ("[".repeat(100_000), Some(ErrorCode::MissingBracket)),
            ("a|".repeat(100_000), None),
            ("(?:a*)".repeat(100_000), None),
            ("(?:(?:(?:a{0,10}){10}){10})".repeat(100), None),
        ];
        for (pattern, want) in cases {
            let got = Regex::new(pattern.as_bytes());
            assert_eq!(
                got.as_ref().err().map(RegexError::code),
                want,
                "{}…",
                pattern.chars().take(20).collect::<String>()
            );
            if let Ok(re) = got {
                assert!(re.is_match(b"aaaa"));
            }
        }
    });
}

#[test]
fn a_megabyte_text_is_searched_in_one_pass() {
    let text: Vec<u8> = b"x".repeat(1 << 20);
    // Patterns that make backtracking engines explode; here each costs one
    // pass over the text with a handful of live instructions.
    for pattern in ["(x+x+)+y", "(?:x*)*y", "\\bx{0,3}y"] {
        assert!(!regex(pattern.as_bytes()).is_match(&text), "{pattern}");
    }
    assert!(regex(b"x{20}$").is_match(&text));
    assert!(!Glob::new(b"*x*y*").is_match(&text));
    assert!(Glob::new(b"x*?x").is_match(&text));
}
