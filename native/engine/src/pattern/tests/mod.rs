//! The pattern tests, as a specification: Go's error texts for every code,
//! matching tables, `like` tables, properties over generated patterns and
//! texts, and the timing loop.

mod bench;
mod errors;
mod globs;
mod matching;
mod properties;

use super::*;

/// Compiles `pattern`, failing the test with Go's text when it can't.
fn regex(pattern: &[u8]) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("{:?}: {e}", String::from_utf8_lossy(pattern)))
}

/// Runs `is_match(pattern, text)` on each (pattern, text, want) row and
/// fails naming every row that disagrees.
fn check_rows(rows: &[(&str, &[u8], bool)], is_match: impl Fn(&[u8], &[u8]) -> bool) {
    let failed: Vec<String> = rows
        .iter()
        .filter(|&&(pattern, text, want)| is_match(pattern.as_bytes(), text) != want)
        .map(|(pattern, text, want)| {
            format!(
                "{pattern:?} on {:?}: want {want}",
                String::from_utf8_lossy(text)
            )
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
