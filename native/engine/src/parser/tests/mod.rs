//! Parser tests: tables for expression shapes and every error message,
//! statement and document dumps, recovery, nesting limits, the spec's
//! examples, goldens (`testdata/*.sigil` → `*.golden`), seeded properties and
//! an `#[ignore]`d benchmark.

mod bench;
mod depth;
mod errors;
mod examples;
mod expr;
mod files;
mod goldens;
mod properties;

use super::*;
use crate::source::LineIndex;

/// `src` parsed as an expression, rendered canonically, or the first
/// diagnostic as `span message`.
fn shape(src: &str) -> String {
    let (expr, diags) = parse_expr("test.sigil", src);
    match (expr, diags.first()) {
        (Some(e), None) => e.canonical(),
        (_, Some(d)) => format!(
            "error {} {}",
            LineIndex::new(src).format_span(d.span.unwrap_or_default()),
            d.message
        ),
        (None, None) => "no expression and no diagnostic".to_owned(),
    }
}

use crate::testing::on_small_stack;
