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
