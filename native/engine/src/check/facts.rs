//! What the lints need to know about a checked document (tooling §3.4):
//! its imports and whether they were used, its unread lets, the kind names
//! it shadows, its invocations, and whether it holds asserts and which
//! decisions it constructs; and the one type the evaluator needs that
//! values don't carry: what a missing map key reads.

use crate::source::Span;
use crate::types::Ty;

/// The lint-relevant facts of one document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Every `use` and each item of a selective one.
    pub imports: Vec<ImportFact>,
    /// Lets that aren't `pub` and that nothing reads: name and span, in
    /// source order, at most [`crate::diag::MAX_PER_FILE`] + 1 (what a
    /// file's cap lets the lint report, and that it was cut).
    pub unread_lets: Vec<(String, Span)>,
    /// Names a document pinned to an older kind version took from the
    /// kind.
    pub shadows: Vec<Shadow>,
    /// Policy invocations in source order.
    pub invocations: Vec<InvocationFact>,
    /// Whether the document holds an `assert`.
    pub has_asserts: bool,
    /// The decisions its constructors build, in source order.
    pub constructs: Vec<String>,
    /// Every indexing of a map: the index expression's span and the map's
    /// value type, whose zero value a missing key reads. Sorted by span
    /// once the document is checked ([`Facts::sort_reads`]).
    pub map_values: Vec<(Span, Ty)>,
    /// Every read of an input or struct field of an enum type: the read's
    /// span and the enum's name. A missing key reads as the empty name,
    /// which no enum declares: reading it there is a runtime error
    /// (language-core §7). Sorted by span once the document is checked.
    pub enum_reads: Vec<(Span, String)>,
}

impl Facts {
    /// Sorts the map indexings and enum reads by span, for a compile to
    /// look each read up by its span in logarithmic time (a linear search
    /// per read made compiling 36,000 rules that read an enum take minutes).
    /// Stable: of equal spans the first recorded stays first.
    pub fn sort_reads(&mut self) {
        self.map_values.sort_by_key(|(span, _)| *span);
        self.enum_reads.sort_by_key(|(span, _)| *span);
    }

    /// What `reads` (sorted by span) records for `span`: the first entry.
    pub fn read_at<T>(reads: &[(Span, T)], span: Span) -> Option<&T> {
        let first = reads.partition_point(|(s, _)| *s < span);
        reads.get(first).filter(|(s, _)| *s == span).map(|(_, t)| t)
    }
}

/// A whole import, or one item of a selective import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportFact {
    /// The path imported.
    pub path: String,
    /// The name it binds in the document.
    pub local: String,
    /// For an item, its name as the imported document spells it; `None`
    /// for a whole import.
    pub item: Option<String>,
    /// The `use` statement, or the item's alias (else its name).
    pub span: Span,
    /// Whether anything read or invoked what it binds.
    pub used: bool,
}

/// A document name that takes a kind name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shadow {
    /// The name.
    pub name: String,
    /// What the kind's name is: `input`, `host function`, `decision`, `Tier
    /// value` or `name`.
    pub what: String,
    /// The shadowing identifier.
    pub span: Span,
}

/// One invocation statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvocationFact {
    /// The invoked policy's name.
    pub target: String,
    /// Its arguments as `name: expression` (canonical), sorted.
    pub args: Vec<String>,
    /// Whether a `when` encloses it.
    pub gated: bool,
    /// The statement.
    pub span: Span,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_looked_up_by_span_once_sorted() {
        let mut facts = Facts {
            enum_reads: vec![
                (Span::new(30, 34), "Late".to_owned()),
                (Span::new(5, 9), "First".to_owned()),
                (Span::new(5, 9), "Second".to_owned()),
                (Span::new(5, 7), "Inner".to_owned()),
            ],
            ..Facts::default()
        };
        facts.sort_reads();
        let at = |start, end| Facts::read_at(&facts.enum_reads, Span::new(start, end)).cloned();
        assert_eq!(
            at(5, 9).as_deref(),
            Some("First"),
            "the first recorded of a span"
        );
        assert_eq!(at(5, 7).as_deref(), Some("Inner"));
        assert_eq!(at(30, 34).as_deref(), Some("Late"));
        assert_eq!(at(6, 9), None);
        assert_eq!(at(40, 41), None);
    }
}
