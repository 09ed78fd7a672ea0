//! Builds the node tree of a document from the parser's events, without
//! recursion: open collections wait on a stack, so the nesting limit, not
//! the call stack, bounds how deep a document may go.
//!
//! The parser's marks count lines from 1 and columns from 0; nodes count
//! both from 1. Two marks are off, and corrected here: a block mapping's
//! start event is marked at the `:` after its first key, so a mapping takes
//! the position of whichever comes first, its start event or its first key;
//! and an empty value (`key:` and nothing) is marked at the token after it,
//! often on a later line, so it takes its key's position.

use std::collections::HashSet;

use yaml_rust::parser::{Event, Parser};
use yaml_rust::scanner::{Marker, ScanError, TScalarStyle, TokenType};

use super::resolve::resolve;
use super::{
    Entry, Key, MAX_COPIED_NODES, MAX_DEPTH, Node, NodeValue, Scalar, YamlError, YamlProblem,
};

/// The first document of `text`, or `None` when the stream holds none.
pub(super) fn build(text: &str) -> Result<Option<Node>, YamlError> {
    // A byte order mark isn't content; the parser would read it as text.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parser = Parser::new(text.chars());
    let mut builder = Builder::default();
    loop {
        let (event, mark) = parser.next().map_err(|e| syntax_error(&e))?;
        match event {
            Event::Nothing | Event::StreamStart | Event::DocumentStart => {}
            Event::DocumentEnd | Event::StreamEnd => return Ok(builder.root),
            Event::Alias(id) => builder.alias(id, mark)?,
            Event::Scalar(value, style, anchor, tag) => {
                // The parser stands `~` in for an empty value, marked where
                // the next event is; a `~` written out comes before it.
                let empty = value == "~"
                    && style == TScalarStyle::Plain
                    && tag.is_none()
                    && parser.peek().map_err(|e| syntax_error(&e))?.1.index() == mark.index();
                builder.scalar(value, style, anchor, tag.as_ref(), mark, empty)?;
            }
            Event::SequenceStart(anchor) => builder.open(Open::List(Vec::new()), anchor, mark)?,
            Event::MappingStart(anchor) => builder.open(
                Open::Object {
                    entries: Vec::new(),
                    key: None,
                    merges: Vec::new(),
                },
                anchor,
                mark,
            )?,
            Event::SequenceEnd | Event::MappingEnd => builder.close()?,
        }
    }
}

/// A syntax error, with the parser's message without its ` at line L
/// column C` suffix (the position is kept as numbers).
fn syntax_error(error: &ScanError) -> YamlError {
    let mark = error.marker();
    let full = error.to_string();
    let suffix = format!(" at line {} column {}", mark.line(), mark.col() + 1);
    let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
    YamlError {
        line: line_of(*mark),
        column: column_of(*mark),
        problem: YamlProblem::Syntax(message),
    }
}

fn line_of(mark: Marker) -> u32 {
    u32::try_from(mark.line()).unwrap_or(u32::MAX)
}

fn column_of(mark: Marker) -> u32 {
    u32::try_from(mark.col().saturating_add(1)).unwrap_or(u32::MAX)
}

/// A finished node with its weight: how many nodes it holds (itself
/// included) and how many levels of collections (0 for a scalar).
#[derive(Clone)]
struct Built {
    node: Node,
    size: usize,
    height: usize,
    /// An untagged plain `<<`: a merge when it is a key.
    merge_key: bool,
    /// An empty value, which takes its key's position.
    empty: bool,
}

/// A collection being read.
struct Frame {
    line: u32,
    column: u32,
    /// Character offset of the start, to compare with the first key's.
    index: usize,
    anchor: usize,
    size: usize,
    height: usize,
    open: Open,
}

enum Open {
    List(Vec<Node>),
    Object {
        entries: Vec<Entry>,
        /// The key whose value comes next.
        key: Option<PendingKey>,
        /// The values of merge keys, applied when the mapping ends.
        merges: Vec<Node>,
    },
}

enum PendingKey {
    Key(Key),
    Merge,
}

#[derive(Default)]
struct Builder {
    stack: Vec<Frame>,
    /// Anchored nodes by anchor id (the parser numbers anchors from 1).
    anchors: Vec<Option<Built>>,
    /// Nodes copied so far for anchors and aliases.
    copied: usize,
    root: Option<Node>,
}

impl Builder {
    fn scalar(
        &mut self,
        text: String,
        style: TScalarStyle,
        anchor: usize,
        tag: Option<&TokenType>,
        mark: Marker,
        empty: bool,
    ) -> Result<(), YamlError> {
        let at = |problem| YamlError {
            line: line_of(mark),
            column: column_of(mark),
            problem,
        };
        let resolved = resolve(&text, style, tag).map_err(at)?;
        let merge_key = text == "<<" && style == TScalarStyle::Plain && tag.is_none();
        let node = Node {
            line: line_of(mark),
            column: column_of(mark),
            value: NodeValue::Scalar(Scalar { text, resolved }),
        };
        self.finish(
            Built {
                node,
                size: 1,
                height: 0,
                merge_key,
                empty,
            },
            anchor,
            mark.index(),
        )
    }

    fn alias(&mut self, id: usize, mark: Marker) -> Result<(), YamlError> {
        let at = |problem| YamlError {
            line: line_of(mark),
            column: column_of(mark),
            problem,
        };
        // The parser reports an alias to an unknown anchor itself; an alias
        // inside the node its anchor names (`&a [*a]`) gets here.
        let Some(Some(anchored)) = self.anchors.get(id) else {
            return Err(at(YamlProblem::Syntax(
                "an alias can't refer to a node that contains it".to_owned(),
            )));
        };
        if self.stack.len().saturating_add(anchored.height) > MAX_DEPTH {
            return Err(at(YamlProblem::TooDeep));
        }
        let copy = Built {
            merge_key: false,
            empty: false,
            ..anchored.clone()
        };
        self.copy(copy.size).map_err(at)?;
        self.finish(copy, 0, mark.index())
    }

    fn open(&mut self, open: Open, anchor: usize, mark: Marker) -> Result<(), YamlError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError {
                line: line_of(mark),
                column: column_of(mark),
                problem: YamlProblem::TooDeep,
            });
        }
        self.stack.push(Frame {
            line: line_of(mark),
            column: column_of(mark),
            index: mark.index(),
            anchor,
            size: 1,
            height: 1,
            open,
        });
        Ok(())
    }

    fn close(&mut self) -> Result<(), YamlError> {
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        let value = match frame.open {
            Open::List(items) => NodeValue::List(items),
            Open::Object {
                mut entries,
                merges,
                ..
            } => {
                for merge in merges {
                    merge_into(&mut entries, merge)?;
                }
                NodeValue::Object(entries)
            }
        };
        let built = Built {
            node: Node {
                line: frame.line,
                column: frame.column,
                value,
            },
            size: frame.size,
            height: frame.height,
            merge_key: false,
            empty: false,
        };
        self.finish(built, frame.anchor, frame.index)
    }

    /// Hands a finished node to the collection it belongs to (or makes it
    /// the root), keeping a copy under its anchor.
    fn finish(&mut self, mut built: Built, anchor: usize, index: usize) -> Result<(), YamlError> {
        if built.empty {
            if let Some(Frame {
                open:
                    Open::Object {
                        key: Some(PendingKey::Key(key)),
                        ..
                    },
                ..
            }) = self.stack.last()
            {
                built.node.line = key.line;
                built.node.column = key.column;
            }
        }
        if anchor > 0 {
            self.copy(built.size).map_err(|problem| YamlError {
                line: built.node.line,
                column: built.node.column,
                problem,
            })?;
            if self.anchors.len() <= anchor {
                self.anchors.resize(anchor.saturating_add(1), None);
            }
            if let Some(slot) = self.anchors.get_mut(anchor) {
                *slot = Some(built.clone());
            }
        }
        let Some(parent) = self.stack.last_mut() else {
            self.root = Some(built.node);
            return Ok(());
        };
        parent.size = parent.size.saturating_add(built.size);
        parent.height = parent.height.max(built.height.saturating_add(1));
        match &mut parent.open {
            Open::List(items) => items.push(built.node),
            Open::Object {
                entries,
                key,
                merges,
            } => match key.take() {
                None => {
                    let node = built.node;
                    if entries.is_empty() && merges.is_empty() && index < parent.index {
                        parent.line = node.line;
                        parent.column = node.column;
                        parent.index = index;
                    }
                    *key = Some(if built.merge_key {
                        PendingKey::Merge
                    } else {
                        PendingKey::Key(key_of(node)?)
                    });
                }
                Some(PendingKey::Key(k)) => entries.push(Entry {
                    key: k,
                    value: built.node,
                }),
                Some(PendingKey::Merge) => merges.push(built.node),
            },
        }
        Ok(())
    }

    /// Counts `size` more copied nodes against [`MAX_COPIED_NODES`].
    fn copy(&mut self, size: usize) -> Result<(), YamlProblem> {
        self.copied = self.copied.saturating_add(size);
        if self.copied > MAX_COPIED_NODES {
            return Err(YamlProblem::TooManyCopies);
        }
        Ok(())
    }
}

/// A mapping key from the node written as one: only scalars are keys.
fn key_of(node: Node) -> Result<Key, YamlError> {
    match node.value {
        NodeValue::Scalar(scalar) => Ok(Key {
            text: scalar.text,
            line: node.line,
            column: node.column,
        }),
        NodeValue::List(_) | NodeValue::Object(_) => Err(YamlError {
            line: node.line,
            column: node.column,
            problem: YamlProblem::KeyNotScalar {
                found: if matches!(node.value, NodeValue::List(_)) {
                    "a list"
                } else {
                    "an object"
                },
            },
        }),
    }
}

/// Applies one merge key's value to a mapping's entries: the entries of
/// the merged mapping (or of each mapping of a merged list, in order) whose
/// keys the mapping doesn't have yet. So keys written in the mapping win,
/// then earlier merged mappings over later ones.
fn merge_into(entries: &mut Vec<Entry>, merge: Node) -> Result<(), YamlError> {
    let not_object = |node: &Node| YamlError {
        line: node.line,
        column: node.column,
        problem: YamlProblem::MergeNotObject,
    };
    let sources = match merge.value {
        NodeValue::Object(merged) => vec![merged],
        NodeValue::List(items) => {
            let mut sources = Vec::with_capacity(items.len());
            for item in items {
                match item.value {
                    NodeValue::Object(merged) => sources.push(merged),
                    _ => return Err(not_object(&item)),
                }
            }
            sources
        }
        NodeValue::Scalar(_) => return Err(not_object(&merge)),
    };
    let mut present: HashSet<String> = entries.iter().map(|e| e.key.text.clone()).collect();
    for merged in sources {
        for entry in merged {
            if present.insert(entry.key.text.clone()) {
                entries.push(entry);
            }
        }
    }
    Ok(())
}
