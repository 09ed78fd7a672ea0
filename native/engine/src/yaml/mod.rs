//! YAML documents: test files, their stubs and YAML input files (tooling
//! §7), read with the `yaml-rust` crate's event parser.
//!
//! Two readings of one document:
//!
//! * [`parse_yaml`] gives the [`Data`] tree the decoder reads inputs and
//!   expected payloads from.
//! * [`parse_node`] gives a [`Node`] tree that keeps where each node starts
//!   and how each scalar was written. Test files and stubs are read from
//!   it: their problems point at lines, and a stub value read as a string
//!   is the scalar's text as written (`1.10` stays `1.10`, tooling §7.4).
//!
//! Only the first document of a stream is read, as the reference does.
//! Aliases are expanded and merge keys (`<<: *base`) applied while the tree
//! is built, so neither tree holds a reference to another node. What
//! scalars mean is YAML 1.2's core schema as the reference's Go library
//! applies it (see `resolve`). Limits: nesting deeper than [`MAX_DEPTH`],
//! and anchors and aliases that copy more than [`MAX_COPIED_NODES`] nodes,
//! are errors, so no document can exhaust the stack or the memory.
//!
//! Where things are: `resolve.rs` (scalars), `tree.rs` (events to nodes),
//! this file (the trees, errors, and the conversion to [`Data`]).

mod resolve;
mod tree;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;

use crate::data::Data;
use crate::diag::go_quote;

/// How deep collections may nest in a document.
pub const MAX_DEPTH: usize = 1000;

/// How many nodes anchors and aliases may copy in one document: each alias
/// is a copy of the node its anchor names (a "billion laughs" document
/// would otherwise grow exponentially).
pub const MAX_COPIED_NODES: usize = 1_000_000;

/// Reads the first document of `text` as data: an empty document is
/// [`Data::Null`]. Repeated keys in a mapping are an error.
pub fn parse_yaml(text: &str) -> Result<Data, YamlError> {
    match parse_node(text)? {
        Some(node) => node.to_data(),
        None => Ok(Data::Null),
    }
}

/// Reads the first document of `text` as a tree of nodes with their
/// positions; `None` for a stream without a document (empty, or only
/// comments). Repeated keys are kept: readers report them in their own
/// terms (a stub's `calls` given twice, a function stubbed twice).
pub fn parse_node(text: &str) -> Result<Option<Node>, YamlError> {
    tree::build(text)
}

/// A problem with a YAML document and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in code points.
    pub column: u32,
    /// What is wrong.
    pub problem: YamlProblem,
}

impl fmt::Display for YamlError {
    /// `line 3: mapping values are not allowed in this context`, the form
    /// the reference's YAML errors take in test-file messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

/// What is wrong with a YAML document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum YamlProblem {
    /// The parser's own description of a syntax error: `a: b: c` gives
    /// `mapping values are not allowed in this context`, an unclosed `[`
    /// gives `while parsing a flow sequence, expected ',' or ']'`.
    Syntax(String),
    /// `a: 1` then `a: 2` in one mapping; `first_line` is the first one's.
    RepeatedKey {
        /// The key's text.
        key: String,
        /// Where the key was first given.
        first_line: u32,
    },
    /// Collections nested more than [`MAX_DEPTH`] deep, directly or
    /// through an alias.
    TooDeep,
    /// Anchors and aliases that copy more than [`MAX_COPIED_NODES`] nodes.
    TooManyCopies,
    /// `<<: 1`: a merge key's value must be a mapping or a list of them.
    MergeNotObject,
    /// `[a]: 1` or `{a: 1}: 2`: keys must be scalars.
    KeyNotScalar {
        /// What the key is (`a list`, `an object`).
        found: &'static str,
    },
    /// `!!int abc`: a scalar that doesn't resolve to the YAML type its tag
    /// names.
    TagMismatch {
        /// The scalar as written.
        text: String,
        /// The tag, as `!!int`.
        tag: String,
    },
}

impl fmt::Display for YamlProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            YamlProblem::Syntax(message) => f.write_str(message),
            YamlProblem::RepeatedKey { key, first_line } => write!(
                f,
                "mapping key {} already defined at line {first_line}",
                go_quote(key)
            ),
            YamlProblem::TooDeep => {
                write!(f, "the document nests more than {MAX_DEPTH} levels deep")
            }
            YamlProblem::TooManyCopies => write!(
                f,
                "the document's anchors and aliases copy more than {MAX_COPIED_NODES} nodes"
            ),
            YamlProblem::MergeNotObject => {
                f.write_str("a merge key (<<) takes a mapping or a list of mappings")
            }
            YamlProblem::KeyNotScalar { found } => {
                write!(f, "a mapping key must be a scalar, found {found}")
            }
            YamlProblem::TagMismatch { text, tag } => {
                write!(f, "{} isn't a {tag}", go_quote(text))
            }
        }
    }
}

/// One node of a document and where it starts: for a mapping the line of
/// its first key (in a list, the `- key:` line), for a flow collection its
/// bracket, for a scalar its first character (or its quote).
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in code points.
    pub column: u32,
    /// The node itself.
    pub value: NodeValue,
}

/// A node: a scalar, a list or a mapping.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeValue {
    /// A scalar, with its text and meaning.
    Scalar(Scalar),
    /// A sequence, in order.
    List(Vec<Node>),
    /// A mapping, its entries in the order written, repeated keys kept;
    /// the entries a merge key brings in follow, each only when no entry
    /// before it has its key.
    Object(Vec<Entry>),
}

/// A scalar: its text as written (quotes removed, escapes applied, lines
/// folded) and what YAML's core schema makes of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Scalar {
    /// The text as written.
    pub text: String,
    /// Its meaning.
    pub resolved: Resolved,
}

/// What a scalar means.
#[derive(Clone, Debug, PartialEq)]
pub enum Resolved {
    /// `~`, `null`, an empty value.
    Null,
    /// `true` / `false` (and their capitalized forms).
    Bool(bool),
    /// A number in the form the decoder reads: `16` for `0x10`, `1000.0`
    /// for `1e3`, `inf` for `.inf` (see `resolve`).
    Number(String),
    /// Text: the scalar's text itself.
    String,
}

/// One entry of a mapping.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The key.
    pub key: Key,
    /// The value.
    pub value: Node,
}

/// A mapping key: a scalar's text and where it is. `1: x` has the key `1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key {
    /// The key's text as written.
    pub text: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in code points.
    pub column: u32,
}

impl Node {
    /// The node as data. The only error: a mapping (here or inside) that
    /// gives a key twice, reported at the second one; mappings are checked
    /// before what they hold, in document order.
    ///
    /// Iterative, so the depth of a tree costs heap, not stack.
    pub fn to_data(&self) -> Result<Data, YamlError> {
        enum Step<'n> {
            Visit(&'n Node),
            List(usize),
            Object(&'n [Entry]),
        }
        let mut steps = vec![Step::Visit(self)];
        // The finished values of the nodes visited so far whose parent
        // isn't finished yet, in document order.
        let mut done: Vec<Data> = Vec::new();
        while let Some(step) = steps.pop() {
            match step {
                Step::Visit(node) => match &node.value {
                    NodeValue::Scalar(scalar) => done.push(scalar.to_data()),
                    NodeValue::List(items) => {
                        steps.push(Step::List(items.len()));
                        steps.extend(items.iter().rev().map(Step::Visit));
                    }
                    NodeValue::Object(entries) => {
                        if let Some(error) = repeated_key(entries) {
                            return Err(error);
                        }
                        steps.push(Step::Object(entries));
                        steps.extend(entries.iter().rev().map(|e| Step::Visit(&e.value)));
                    }
                },
                Step::List(len) => {
                    let items = done.split_off(done.len().saturating_sub(len));
                    done.push(Data::List(items));
                }
                Step::Object(entries) => {
                    let values = done.split_off(done.len().saturating_sub(entries.len()));
                    let keys = entries.iter().map(|e| e.key.text.clone());
                    done.push(Data::Object(keys.zip(values).collect()));
                }
            }
        }
        Ok(done.pop().unwrap_or(Data::Null))
    }

    /// How messages name what the node is, as [`Data::found`] does.
    pub fn found(&self) -> &'static str {
        match &self.value {
            NodeValue::Scalar(scalar) => match scalar.resolved {
                Resolved::Null => "null",
                Resolved::Bool(_) => "a boolean",
                Resolved::Number(_) => "a number",
                Resolved::String => "a string",
            },
            NodeValue::List(_) => "a list",
            NodeValue::Object(_) => "an object",
        }
    }

    /// Whether the node is a null scalar.
    pub fn is_null(&self) -> bool {
        matches!(
            &self.value,
            NodeValue::Scalar(Scalar {
                resolved: Resolved::Null,
                ..
            })
        )
    }

    /// The text of a scalar that isn't null, as written; `None` for null
    /// and for collections.
    pub fn text(&self) -> Option<&str> {
        match &self.value {
            NodeValue::Scalar(scalar) if scalar.resolved != Resolved::Null => Some(&scalar.text),
            _ => None,
        }
    }
}

impl Scalar {
    /// The scalar as data.
    pub fn to_data(&self) -> Data {
        match &self.resolved {
            Resolved::Null => Data::Null,
            Resolved::Bool(b) => Data::Bool(*b),
            Resolved::Number(n) => Data::Number(n.clone()),
            Resolved::String => Data::String(self.text.clone()),
        }
    }
}

/// The first key of `entries` given again, as an error at the repetition.
/// Keys are compared by their text, as the reference compares them.
fn repeated_key(entries: &[Entry]) -> Option<YamlError> {
    let mut first: HashMap<&str, u32> = HashMap::with_capacity(entries.len());
    for entry in entries {
        let key = &entry.key;
        if let Some(&first_line) = first.get(key.text.as_str()) {
            return Some(YamlError {
                line: key.line,
                column: key.column,
                problem: YamlProblem::RepeatedKey {
                    key: key.text.clone(),
                    first_line,
                },
            });
        }
        first.insert(&key.text, key.line);
    }
    None
}
