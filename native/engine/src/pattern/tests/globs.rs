//! `like`: the glob rules of language-core §5.8, and agreement with the
//! anchored regular expression they are defined by.

use super::*;
use crate::testing::Rng;

/// (glob, text, whether the whole text matches).
const CASES: &[(&str, &[u8], bool)] = &[
    ("abc", b"abc", true),
    ("abc", b"abcd", false),
    ("", b"", true),
    ("", b"a", false),
    // `*`: any run, none included, but never across `\n`.
    ("a*", b"abc", true),
    ("*c", b"abc", true),
    ("a*c", b"abbbc", true),
    ("a*c", b"ac", true),
    ("a*c", b"ab\nc", false),
    ("*", b"", true),
    ("*", b"\n", false),
    ("*.txt", b"x.txt", true),
    ("*.txt", b"x.txt\n", false),
    ("a*b*c", b"axxbyyc", true),
    ("a*b*c", b"acb", false),
    ("*a", b"aaa", true),
    ("a*a", b"a", false),
    ("ab*ab", b"ab", false),
    ("ab*ba", b"aba", false),
    ("ab*ba", b"abba", true),
    ("sre-*", b"sre-oncall", true),
    ("sre-*", b"dev-sre", false),
    // `?`: exactly one code point, not `\n`; a bad byte is one character.
    ("?", "é".as_bytes(), true),
    ("??", "é".as_bytes(), false),
    ("?", b"\n", false),
    ("a?c", b"a\xffc", true),
    ("a?c", b"a\xe2\x82c", false),
    ("a??c", b"a\xe2\x82c", true),
    ("*?", b"", false),
    ("*?", b"x", true),
    ("?*", b"x", true),
    ("x*?", b"x", false),
    ("x*?", b"xy", true),
    // Everything else is literal: `[`, `\`, `.`, `/`.
    ("[a]", b"[a]", true),
    ("[a]", b"a", false),
    ("a\\b", b"a\\b", true),
    ("a\\*", b"a\\xyz", true),
    ("a.c", b"abc", false),
    ("a/b", b"a/b", true),
    ("^a$", b"^a$", true),
    // A `\n` in the pattern matches itself; stars still stop at one.
    ("a\nb", b"a\nb", true),
    ("a\n*", b"a\nxyz", true),
    ("a\n*", b"a\nx\ny", false),
    ("*\n*", b"x\ny", true),
    // U+FFFD in the pattern matches a bad byte, as Go's decoding reads it.
    ("\u{fffd}", b"\xff", true),
    ("a*\u{fffd}", b"abc\xff", true),
];

#[test]
fn each_row_matches_as_the_spec_says() {
    check_rows(CASES, |glob, text| Glob::new(glob).is_match(text));
}

/// The definition: `\A(?:…)\z` with `*` → `.*`, `?` → `.`, every other
/// character escaped.
fn as_regex(glob: &str) -> Regex {
    let mut pattern = String::from(r"\A(?:");
    for c in glob.chars() {
        match c {
            '*' => pattern.push_str(".*"),
            '?' => pattern.push('.'),
            c => pattern.push_str(&format!(r"\x{{{:x}}}", u32::from(c))),
        }
    }
    pattern.push_str(r")\z");
    regex(pattern.as_bytes())
}

#[test]
fn globs_agree_with_their_regular_expressions() {
    let pieces: [&str; 7] = ["a", "b", "*", "?", "\n", "é", "ab"];
    let text_pieces: [&[u8]; 7] = [b"a", b"b", b"\n", "é".as_bytes(), b"\xff", b"ab", b"ba"];
    let mut rng = Rng(0x5eed_0001);
    for _ in 0..3000 {
        let glob: String = (0..rng.below(7))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect();
        let re: Regex = as_regex(&glob);
        let compiled: Glob = Glob::new(glob.as_bytes());
        for _ in 0..8 {
            let text: Vec<u8> = (0..rng.below(8))
                .flat_map(|_| text_pieces[rng.below(text_pieces.len())].iter().copied())
                .collect();
            assert_eq!(
                compiled.is_match(&text),
                re.is_match(&text),
                "{glob:?} on {:?}",
                String::from_utf8_lossy(&text)
            );
        }
    }
}
