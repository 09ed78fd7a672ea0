//! What matches: one table row per rule of Go's semantics.

use super::*;

/// (pattern, text, whether the pattern matches somewhere in the text).
const CASES: &[(&str, &[u8], bool)] = &[
    // Literals, unanchored; the empty pattern matches everything.
    ("", b"", true),
    ("", b"abc", true),
    ("abc", b"xabcx", true),
    ("abc", b"ab", false),
    ("a.c", b"abc", true),
    ("\\.", b"a", false),
    // Anchors: `^`/`$` are the text's ends (Go's `$` is not before a final
    // `\n`), line ends under `(?m)`.
    ("^abc$", b"abc", true),
    ("^abc$", b"abc\n", false),
    ("^b", b"a\nb", false),
    ("(?m)^b", b"a\nb", true),
    ("a$", b"a\n", false),
    ("(?m)a$", b"a\nb", true),
    ("(?m)^abc$", b"x\nabc\ny", true),
    ("\\Aab\\z", b"ab", true),
    ("(?m)\\Ab", b"a\nb", false),
    ("(?m)a\\z", b"a\n", false),
    ("x^", b"x", false),
    ("$x", b"x", false),
    // `.` is one character but `\n`, unless `(?s)`.
    ("a.c", b"a\nc", false),
    ("(?s)a.c", b"a\nc", true),
    ("(?s:.)b", b"\nb", true),
    ("a.c", "aéc".as_bytes(), true),
    ("a..c", "aéc".as_bytes(), false),
    ("a.c", b"a\xffc", true),
    // Classes: ranges, negation (which includes `\n`), `]` first, `-` last.
    ("[a-c]+", b"xbz", true),
    ("[a-c]", b"xyz", false),
    ("^[^a]$", b"\n", true),
    ("^[^a]$", b"a", false),
    ("[]a]", b"]", true),
    ("^[a-]$", b"-", true),
    ("[\\d-]", b"-", true),
    ("^[\\x{100}-\\x{200}]$", "ā".as_bytes(), true),
    // POSIX classes inside brackets, and their negations.
    ("[[:alpha:]]", b"1a", true),
    ("^[[:alpha:]]$", b"1", false),
    ("^[[:^alpha:]]+$", b"123", true),
    ("^[[:space:]]$", b"\x0b", true),
    ("^[[:xdigit:]]+$", b"09afAF", true),
    ("^[[:punct:]]$", b"_", true),
    ("^[[:word:]]$", b"_", true),
    // Perl classes are ASCII; `\s` has no vertical tab.
    ("\\d+", b"x42", true),
    ("^\\D$", b"5", false),
    ("\\s", b"a\tb", true),
    ("^\\s$", b"\x0b", false),
    ("\\w", b"_", true),
    ("^\\w$", "é".as_bytes(), false),
    ("^\\W$", "é".as_bytes(), true),
    ("^\\D$", b"\n", true),
    // Unicode classes: categories, scripts, long and loose names, negation.
    ("^\\pL+$", "héllo".as_bytes(), true),
    ("\\p{Greek}", "αβγ".as_bytes(), true),
    ("^\\p{Greek}$", b"a", false),
    ("^\\PL$", b"1", true),
    ("^\\p{^L}$", b"1", true),
    ("^\\P{^L}$", b"a", true),
    ("^\\p{Lu}$", b"A", true),
    ("^\\p{Lu}$", b"a", false),
    ("^\\p{Han}$", "中".as_bytes(), true),
    ("^\\p{Letter}$", b"x", true),
    ("^\\p{uppercase letter}$", b"X", true),
    ("^\\p{greek}$", "α".as_bytes(), true),
    ("^\\p{Old_Italic}$", "𐌀".as_bytes(), true),
    ("^\\p{olditalic}$", "𐌀".as_bytes(), true),
    ("^\\p{Any}$", b"\n", true),
    ("^\\p{ASCII}+$", b"abc", true),
    ("^\\p{ascii}$", "é".as_bytes(), false),
    ("^\\p{Assigned}$", "\u{378}".as_bytes(), false),
    ("^\\p{Assigned}$", b"a", true),
    ("^\\p{Cn}$", "\u{378}".as_bytes(), true),
    ("^\\pN$", "٣".as_bytes(), true),
    ("^\\pC$", "\u{378}".as_bytes(), false),
    ("^\\p{LC}$", "ǅ".as_bytes(), true),
    ("^[\\p{Greek}\\d]+$", "α1β2".as_bytes(), true),
    ("^\\p{Kawi}$", "\u{11f00}".as_bytes(), false),
    // Case folding: simple folding orbits, scoped flags.
    ("(?i)hello", b"HeLLo", true),
    ("(?i)k", "\u{212a}".as_bytes(), true),
    ("(?i)K", "\u{212a}".as_bytes(), true),
    ("(?i)ß", "ẞ".as_bytes(), true),
    ("(?i)σ", "ς".as_bytes(), true),
    ("(?i)Σ", "ς".as_bytes(), true),
    ("(?i)i", "İ".as_bytes(), false),
    ("(?i)[a-z]+", b"ABC", true),
    ("(?i)[^k]", "\u{212a}".as_bytes(), false),
    ("(?i)\\W", "\u{212a}".as_bytes(), false),
    ("\\W", "\u{212a}".as_bytes(), true),
    ("(?i)[[:upper:]]", b"q", true),
    ("(?i)\\p{Lu}", b"q", true),
    ("(?i)\\P{Lu}", b"Q", false),
    ("(?i:a)b", b"Ab", true),
    ("(?i:a)b", b"AB", false),
    ("(?i)a(?-i)b", b"AB", false),
    ("(?i)a(?-i:b)", b"Ab", true),
    ("(?i)ǅ", "ǆ".as_bytes(), true),
    ("a(?i)", b"a", true),
    // `\b` is an ASCII word boundary.
    ("\\bfoo\\b", b"a foo b", true),
    ("\\bfoo\\b", b"afoo", false),
    ("\\Bfoo", b"afoo", true),
    ("\\bé", " é".as_bytes(), false),
    ("x\\b", "xé".as_bytes(), true),
    ("\\b", b"", false),
    ("\\B", b"", true),
    ("^\\b$", b"", false),
    // Counted repetitions; `{` that isn't a count is a literal.
    ("^a{3}$", b"aaa", true),
    ("^a{3}$", b"aa", false),
    ("^a{2,3}$", b"aaaa", false),
    ("^a{2,3}$", b"aaa", true),
    ("^a{2,}$", b"aaaaa", true),
    ("^a{2,}$", b"a", false),
    ("^a{0}$", b"", true),
    ("^a{0,0}b$", b"b", true),
    ("^(ab){2}$", b"abab", true),
    ("^a{,2}$", b"a{,2}", true),
    ("^a{01}$", b"a{01}", true),
    ("^a{1$", b"a{1", true),
    ("^x{2}?$", b"xx", true),
    ("^(?:a{2}){3}$", b"aaaaaa", true),
    ("^(?:a{2}){3}$", b"aaaaa", false),
    ("^(a{0,2}b){2}$", b"aabb", true),
    // Lazy forms give the same yes/no.
    ("a+?", b"aaa", true),
    ("^a*?$", b"aaa", true),
    ("^a??b$", b"ab", true),
    ("^a{1,2}?$", b"aa", true),
    ("(?U)^a+$", b"aaa", true),
    ("^a+?$", b"", false),
    // Alternation, empty branches, groups.
    ("^(cat|dog)$", b"dog", true),
    ("^(cat|dog)$", b"cow", false),
    ("a|", b"zzz", true),
    ("^(|a)$", b"", true),
    ("^(a|b|c)+$", b"abcabc", true),
    ("^(?:ab|ac|b)$", b"ac", true),
    ("^()$", b"", true),
    ("(?P<year>\\d{4})", b"in 2024", true),
    ("(?<y>a)", b"a", true),
    // Escapes: hex, octal, C, quoting, punctuation.
    ("\\x41", b"A", true),
    ("\\x{1F600}", "😀".as_bytes(), true),
    ("\\101", b"A", true),
    ("\\0", b"\0", true),
    ("\\Q.*\\E", b".*", true),
    ("\\Q.*\\E", b"ab", false),
    ("\\Qa*", b"a*", true),
    ("\\n", b"\n", true),
    ("\\t\\v\\f\\r\\a", b"\t\x0b\x0c\r\x07", true),
    ("\\_\\!", b"_!", true),
    // Text that isn't UTF-8: each bad byte is one U+FFFD.
    (".", b"\xff", true),
    ("\\x{FFFD}", b"\xff", true),
    ("^.$", b"\xe2\x82", false),
    ("^..$", b"\xe2\x82", true),
    ("^\\xff$", "ÿ".as_bytes(), true),
    ("^\\xff$", b"\xff", false),
    ("a\\b", b"a\xff", true),
    // Nothing matches a class with no members.
    ("[^\\x00-\\x{10FFFF}]", b"abc", false),
    ("a[^\\x00-\\x{10FFFF}]|b", b"b", true),
];

#[test]
fn each_row_matches_as_go_does() {
    let mut failed: Vec<String> = Vec::new();
    for &(pattern, text, want) in CASES {
        let got: bool = regex(pattern.as_bytes()).is_match(text);
        if got != want {
            failed.push(format!(
                "{pattern:?} on {:?}: got {got}",
                String::from_utf8_lossy(text)
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn a_repeated_pattern_is_reusable() {
    let re: Regex = regex(b"^[a-z]+@[a-z]+\\.(?:com|org)$");
    assert!(re.is_match(b"alice@example.com"));
    assert!(!re.is_match(b"alice@example.net"));
    assert!(re.is_match(b"bob@example.org"));
}
