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
    /// value type, whose zero value a missing key reads.
    pub map_values: Vec<(Span, Ty)>,
    /// Every read of an input or struct field of an enum type: the read's
    /// span and the enum's name. A missing key reads as the empty name,
    /// which no enum declares: reading it there is a runtime error
    /// (language-core §7).
    pub enum_reads: Vec<(Span, String)>,
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
