//! The syntax tree the parser builds and the compiler reads: nodes in one
//! arena, children by index, each node with the height and the program size
//! Go's limits are checked against.

use super::class::Range;

/// A node's index in [`Tree::nodes`].
pub(super) type NodeId = usize;

/// A zero-width assertion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Look {
    /// `^` under `(?m)`: at the start or after `\n`.
    BeginLine,
    /// `$` under `(?m)`: at the end or before `\n`.
    EndLine,
    /// `\A`, or `^` without `(?m)`.
    BeginText,
    /// `\z`, or `$` without `(?m)`.
    EndText,
    /// `\b`: between an ASCII word character and something else.
    WordBoundary,
    /// `\B`.
    NoWordBoundary,
}

/// One node of the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Node {
    /// Matches nothing (an alternation without branches).
    NoMatch,
    /// Matches the empty string: `()`, `a|`.
    EmptyMatch,
    /// A run of characters; under `(?i)` each matches its case folding
    /// equivalents.
    Literal { runes: Vec<u32>, fold: bool },
    /// One character of a clean set.
    Class(Vec<Range>),
    /// `.` without `(?s)`.
    AnyCharNotNl,
    /// `.` under `(?s)`.
    AnyChar,
    /// A zero-width assertion.
    Look(Look),
    /// `( … )` and named groups; only the tree's shape needs it.
    Capture(NodeId),
    /// `x*`, `x*?`.
    Star(NodeId),
    /// `x+`, `x+?`.
    Plus(NodeId),
    /// `x?`, `x??`.
    Quest(NodeId),
    /// `x{min,max}`; `max` is `None` for `x{min,}`.
    Repeat {
        sub: NodeId,
        min: u32,
        max: Option<u32>,
    },
    /// A sequence of at least two nodes, none of them a `Concat`.
    Concat(Vec<NodeId>),
    /// A choice of at least two nodes, none of them an `Alternate`.
    Alternate(Vec<NodeId>),
}

impl Node {
    /// The direct children.
    pub(super) fn children(&self) -> &[NodeId] {
        match self {
            Self::Capture(sub)
            | Self::Star(sub)
            | Self::Plus(sub)
            | Self::Quest(sub)
            | Self::Repeat { sub, .. } => std::slice::from_ref(sub),
            Self::Concat(subs) | Self::Alternate(subs) => subs,
            _ => &[],
        }
    }
}

/// A parsed pattern.
#[derive(Debug, Clone, Default)]
pub(super) struct Tree {
    /// Every node; children come before their parents.
    pub(super) nodes: Vec<Node>,
    /// The node of the whole pattern.
    pub(super) root: NodeId,
}
