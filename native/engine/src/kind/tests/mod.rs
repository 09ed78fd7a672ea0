//! The kind loader's specification: a table of every diagnostic
//! (`diagnostics.rs`) and the canonical text (`canonical.rs`).

mod canonical;
mod diagnostics;
mod resolve_type;

use super::{Loaded, load};
use crate::ast::Document;
use crate::diag::Diagnostic;
use crate::parser::parse_file;
use crate::source::LineIndex;

/// Loads the only document of `src`, a kind without syntax errors.
fn load_src(src: &str) -> Loaded {
    let (file, problems) = parse_file("k.sigil", src);
    assert!(problems.is_empty(), "{src}\n{problems:?}");
    match file.docs.first() {
        Some(Document::Kind(doc)) => load(doc),
        _ => panic!("no kind document in\n{src}"),
    }
}

/// Where `d` is: `line:column` of its start, then the text it spans.
fn at(src: &str, d: &Diagnostic) -> String {
    let span = d.span.unwrap_or_else(|| panic!("{d:?} has no span"));
    let start = LineIndex::new(src).position(span.start);
    format!(
        "{}:{} {}",
        start.line,
        start.column,
        span.text(src).unwrap_or_default()
    )
}
