//! The parser of Go's RE2 syntax (`regexp/syntax` with the Perl flags
//! `regexp.Compile` uses), with Go's error codes and quoted fragments.
//!
//! It works as Go's parser does, which is what makes the errors agree: one
//! pass over the bytes with an explicit stack of finished nodes and markers
//! for `(` and `|`, no recursion. A repetition operator takes the node on
//! top of the stack; `|` and `)` fold the nodes above the nearest marker
//! into a concatenation and an alternation. Every node pushed is checked
//! against Go's limits: height 1000, program size 3 355 443, 32 Mi runes in
//! classes.

use std::collections::HashMap;

use super::ast::{Look, Node, NodeId, Tree};
use super::class::{Range, clean, fold_closure, negate, push_folded, simple_fold};
use super::error::{ErrorCode, RegexError};
use super::unicode::{Group, perl_group, posix_group, unicode_group};
use super::utf8::{REPLACEMENT, first_invalid, next_rune};

/// The largest count of a repetition, and of nested counts multiplied.
const MAX_REPEAT: i64 = 1000;
/// Go's `maxHeight`: the deepest tree.
const MAX_HEIGHT: u32 = 1000;
/// Go's `maxSize`: 128 MiB of 40-byte instructions.
pub(super) const MAX_SIZE: u64 = (128 << 20) / 40;
/// Go's `maxRunes`: 128 MiB of 4-byte runes in literals and classes.
const MAX_RUNES: u64 = (128 << 20) / 4;

/// `(?i)`: case-insensitive.
const FOLD: u16 = 1;
/// `(?s)`: `.` matches `\n`.
const DOT_NL: u16 = 1 << 1;
/// Cleared by `(?m)`: `^` and `$` match only at the ends of the text.
const ONE_LINE: u16 = 1 << 2;
/// `(?U)`: repetitions prefer fewer; parsed, but meaningless for a yes/no match.
const NON_GREEDY: u16 = 1 << 3;

type Result<T> = std::result::Result<T, RegexError>;

/// Parses `pattern` as Go's `regexp.Compile` would.
pub(super) fn parse(pattern: &[u8]) -> Result<Tree> {
    let mut p = Parser {
        whole: pattern,
        flags: ONE_LINE,
        nodes: Vec::new(),
        heights: Vec::new(),
        sizes: Vec::new(),
        stack: Vec::new(),
        runes: 0,
        unicode_classes: HashMap::new(),
    };
    let mut t: &[u8] = pattern;
    // The text from the previous repetition operator on, when the previous
    // token was one: a second operator right after it is an error.
    let mut last_repeat: &[u8] = &[];
    while let Some(&c) = t.first() {
        let mut repeat: &[u8] = &[];
        t = match c {
            b'(' => p.open_paren(t)?,
            b'|' => {
                p.vertical_bar()?;
                skip(t, 1)
            }
            b')' => {
                p.close_paren()?;
                skip(t, 1)
            }
            b'^' | b'$' | b'.' => {
                p.push_node(p.simple_op(c))?;
                skip(t, 1)
            }
            b'[' => p.bracket_class(t)?,
            b'*' | b'+' | b'?' => {
                repeat = t;
                p.repeat(Repetition::Op(c), t, skip(t, 1), last_repeat)?
            }
            b'{' => match parse_counts(t) {
                None => {
                    p.literal(u32::from(b'{'))?;
                    skip(t, 1)
                }
                Some((min, max, after)) => {
                    if !(0..=MAX_REPEAT).contains(&min)
                        || max > MAX_REPEAT
                        || (max >= 0 && min > max)
                    {
                        return Err(error(ErrorCode::InvalidRepeatSize, consumed(t, after)));
                    }
                    repeat = t;
                    p.repeat(Repetition::Counted(min, max), t, after, last_repeat)?
                }
            },
            b'\\' => p.backslash(t)?,
            _ => {
                let (r, rest) = next(t)?;
                p.literal(r)?;
                rest
            }
        };
        last_repeat = repeat;
    }
    p.finish()
}

/// An item of the parse stack: a finished node or a marker.
#[derive(Debug, Clone, Copy)]
enum Item {
    Node(NodeId),
    /// `(` or `(?flags:`; the flags to restore at its `)`.
    LeftParen {
        capture: bool,
        flags: u16,
    },
    /// `|`: the finished branches of the alternation sit below it.
    Bar,
}

/// A repetition operator: `*`, `+`, `?` or `{min,max}` (`max` -1 for none).
#[derive(Debug, Clone, Copy)]
enum Repetition {
    Op(u8),
    Counted(i64, i64),
}

struct Parser<'a> {
    whole: &'a [u8],
    flags: u16,
    nodes: Vec<Node>,
    /// Height of each node (a leaf is 1).
    heights: Vec<u32>,
    /// Go's estimate of each node's compiled size.
    sizes: Vec<u64>,
    stack: Vec<Item>,
    /// Runes of the literals and classes pushed so far, as Go counts them.
    runes: u64,
    /// The members of each `\p` escape seen, by its spelling and `(?i)`:
    /// a pattern may repeat `\pL` thousands of times.
    unicode_classes: HashMap<(&'a [u8], bool), Vec<Range>>,
}

impl<'a> Parser<'a> {
    fn fold(&self) -> bool {
        self.flags & FOLD != 0
    }

    /// The node of `^`, `$` or `.` under the current flags.
    fn simple_op(&self, c: u8) -> Node {
        let one_line: bool = self.flags & ONE_LINE != 0;
        match c {
            b'^' if one_line => Node::Look(Look::BeginText),
            b'^' => Node::Look(Look::BeginLine),
            b'$' if one_line => Node::Look(Look::EndText),
            b'$' => Node::Look(Look::EndLine),
            _ if self.flags & DOT_NL != 0 => Node::AnyChar,
            _ => Node::AnyCharNotNl,
        }
    }

    /// Adds `node` to the arena with its height and size (Go's `calcSize`).
    fn add(&mut self, node: Node) -> NodeId {
        let height = |id: &NodeId| self.heights.get(*id).copied().unwrap_or(0);
        let size = |id: &NodeId| self.sizes.get(*id).copied().unwrap_or(0);
        let children: &[NodeId] = node.children();
        let h: u32 = 1 + children.iter().map(height).max().unwrap_or(0);
        let sub: u64 = children.first().map_or(0, size);
        let s: u64 = match &node {
            Node::Literal { runes, .. } => runes.len() as u64,
            Node::Capture(_) | Node::Star(_) => 2 + sub,
            Node::Plus(_) | Node::Quest(_) => 1 + sub,
            Node::Concat(subs) => subs.iter().map(size).sum(),
            Node::Alternate(subs) => {
                subs.iter().map(size).sum::<u64>() + (subs.len() as u64).saturating_sub(1)
            }
            Node::Repeat { min, max: None, .. } if *min == 0 => 2 + sub,
            Node::Repeat { min, max: None, .. } => 1 + u64::from(*min).saturating_mul(sub),
            Node::Repeat {
                min,
                max: Some(max),
                ..
            } => u64::from(*max)
                .saturating_mul(sub)
                .saturating_add(u64::from(max - min)),
            _ => 0,
        };
        self.nodes.push(node);
        self.heights.push(h);
        self.sizes.push(s.max(1));
        self.nodes.len() - 1
    }

    /// Go's `checkLimits` for a node just pushed or made.
    fn check_limits(&self, id: NodeId) -> Result<()> {
        let too_large: bool =
            self.runes > MAX_RUNES || self.sizes.get(id).is_some_and(|&s| s > MAX_SIZE);
        if too_large {
            return Err(error(ErrorCode::Large, self.whole));
        }
        if self.heights.get(id).is_some_and(|&h| h > MAX_HEIGHT) {
            return Err(error(ErrorCode::NestingDepth, self.whole));
        }
        Ok(())
    }

    fn push_node(&mut self, node: Node) -> Result<()> {
        let id: NodeId = self.add(node);
        self.push(id)
    }

    /// Pushes a finished node, first merging the two literals below it (Go's
    /// `maybeConcat`: the top literal stays apart, as a repetition may
    /// follow it).
    fn push(&mut self, id: NodeId) -> Result<()> {
        self.merge_literals();
        self.runes += match self.nodes.get(id) {
            Some(Node::Literal { runes, .. }) => runes.len() as u64,
            Some(Node::Class(ranges)) => 2 * ranges.len() as u64,
            _ => 0,
        };
        self.stack.push(Item::Node(id));
        self.check_limits(id)
    }

    fn push_marker(&mut self, item: Item) {
        self.merge_literals();
        self.stack.push(item);
    }

    /// Merges the top literal into the one below it when both have the same
    /// case folding.
    fn merge_literals(&mut self) {
        let [.., Item::Node(below), Item::Node(top)] = *self.stack.as_slice() else {
            return;
        };
        let Some(Node::Literal { runes: tail, fold }) = self.nodes.get(top).cloned() else {
            return;
        };
        let Some(Node::Literal {
            runes,
            fold: below_fold,
        }) = self.nodes.get_mut(below)
        else {
            return;
        };
        if *below_fold != fold {
            return;
        }
        runes.extend(tail);
        let len: u64 = runes.len() as u64;
        if let Some(size) = self.sizes.get_mut(below) {
            *size = len;
        }
        self.stack.pop();
    }

    fn literal(&mut self, r: u32) -> Result<()> {
        let fold: bool = self.fold();
        self.push_node(Node::Literal {
            runes: vec![r],
            fold,
        })
    }

    /// Pushes a class, as a literal when it is one character or one
    /// character in both cases, as Go does.
    fn push_class(&mut self, ranges: Vec<Range>) -> Result<()> {
        let node: Node = match *ranges.as_slice() {
            [(a, b)] if a == b => Node::Literal {
                runes: vec![a],
                fold: false,
            },
            [(a, b)] if b == a + 1 && folds_only_to(a, b) => Node::Literal {
                runes: vec![a],
                fold: true,
            },
            [(a, a2), (b, b2)] if a == a2 && b == b2 && folds_only_to(a, b) => Node::Literal {
                runes: vec![a],
                fold: true,
            },
            _ => Node::Class(ranges),
        };
        self.push_node(node)
    }

    /// `(`, `(?:`, `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>`.
    fn open_paren(&mut self, t: &'a [u8]) -> Result<&'a [u8]> {
        if t.get(1) == Some(&b'?') {
            return self.perl_flags(t);
        }
        self.push_marker(Item::LeftParen {
            capture: true,
            flags: self.flags,
        });
        Ok(skip(t, 1))
    }

    /// A group or flag change that starts with `(?` (Go's `parsePerlFlags`).
    fn perl_flags(&mut self, s: &'a [u8]) -> Result<&'a [u8]> {
        let python_name: bool = s.len() > 4 && s.get(2..4) == Some(b"P<");
        let perl_name: bool = s.len() > 3 && s.get(2) == Some(&b'<');
        if python_name || perl_name {
            let name_start: usize = if perl_name { 3 } else { 4 };
            let Some(end) = s.iter().position(|&b| b == b'>') else {
                check_utf8(s)?;
                return Err(error(ErrorCode::InvalidNamedCapture, s));
            };
            let name: &[u8] = s.get(name_start..end).unwrap_or_default();
            check_utf8(name)?;
            let valid: bool =
                !name.is_empty() && name.iter().all(|&b| b == b'_' || b.is_ascii_alphanumeric());
            if !valid {
                return Err(error(
                    ErrorCode::InvalidNamedCapture,
                    s.get(..=end).unwrap_or(s),
                ));
            }
            self.push_marker(Item::LeftParen {
                capture: true,
                flags: self.flags,
            });
            return Ok(skip(s, end + 1));
        }
        let mut t: &[u8] = skip(s, 2);
        let mut flags: u16 = self.flags;
        let mut negated: bool = false;
        let mut saw_flag: bool = false;
        while !t.is_empty() {
            let (c, rest) = next(t)?;
            t = rest;
            match char::from_u32(c).unwrap_or('\0') {
                'i' => flags |= FOLD,
                'm' => flags &= !ONE_LINE,
                's' => flags |= DOT_NL,
                'U' => flags |= NON_GREEDY,
                // After `-` the flags are inverted, so setting clears them.
                '-' if !negated => {
                    negated = true;
                    flags = !flags;
                    saw_flag = false;
                    continue;
                }
                ':' | ')' if !negated || saw_flag => {
                    if negated {
                        flags = !flags;
                    }
                    if c == u32::from(b':') {
                        self.push_marker(Item::LeftParen {
                            capture: false,
                            flags: self.flags,
                        });
                    }
                    self.flags = flags;
                    return Ok(t);
                }
                _ => break,
            }
            saw_flag = true;
        }
        Err(error(ErrorCode::InvalidPerlOp, consumed(s, t)))
    }

    fn vertical_bar(&mut self) -> Result<()> {
        self.concat()?;
        if !self.swap_vertical_bar() {
            self.push_marker(Item::Bar);
        }
        Ok(())
    }

    /// Moves a `|` above the branch just finished, so the branches gather
    /// below it; false when there is no `|` under the top.
    fn swap_vertical_bar(&mut self) -> bool {
        let n: usize = self.stack.len();
        if n >= 2 && matches!(self.stack.get(n - 2), Some(Item::Bar)) {
            self.stack.swap(n - 1, n - 2);
            return true;
        }
        false
    }

    /// Folds everything above the nearest marker into one alternation, after
    /// the last branch is finished.
    fn close_alternation(&mut self) -> Result<()> {
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()
    }

    fn close_paren(&mut self) -> Result<()> {
        self.close_alternation()?;
        let unexpected = || error(ErrorCode::UnexpectedParen, self.whole);
        let (Some(Item::Node(inner)), Some(Item::LeftParen { capture, flags })) =
            (self.stack.pop(), self.stack.pop())
        else {
            return Err(unexpected());
        };
        self.flags = flags;
        if capture {
            self.push_node(Node::Capture(inner))
        } else {
            self.push(inner)
        }
    }

    fn finish(mut self) -> Result<Tree> {
        self.close_alternation()?;
        match *self.stack.as_slice() {
            [Item::Node(root)] => Ok(Tree {
                nodes: self.nodes,
                root,
            }),
            _ => Err(error(ErrorCode::MissingParen, self.whole)),
        }
    }

    /// Removes and returns the nodes above the nearest marker.
    fn take_above_marker(&mut self) -> Vec<NodeId> {
        let start: usize = self
            .stack
            .iter()
            .rposition(|item| !matches!(item, Item::Node(_)))
            .map_or(0, |i| i + 1);
        self.stack
            .drain(start..)
            .filter_map(|item| match item {
                Item::Node(id) => Some(id),
                _ => None,
            })
            .collect()
    }

    fn concat(&mut self) -> Result<()> {
        self.merge_literals();
        let subs: Vec<NodeId> = self.take_above_marker();
        if subs.is_empty() {
            return self.push_node(Node::EmptyMatch);
        }
        let id: NodeId = self.collapse(subs, false);
        self.push(id)
    }

    fn alternate(&mut self) -> Result<()> {
        let subs: Vec<NodeId> = self.take_above_marker();
        if subs.is_empty() {
            return self.push_node(Node::NoMatch);
        }
        let subs: Vec<NodeId> = self.merge_char_branches(subs);
        let id: NodeId = self.collapse(subs, true);
        self.push(id)
    }

    /// One node for `subs` in sequence (or as choices): the node itself when
    /// alone, else a new node with nested nodes of the same kind flattened.
    fn collapse(&mut self, subs: Vec<NodeId>, alternate: bool) -> NodeId {
        if let [only] = subs[..] {
            return only;
        }
        let mut flat: Vec<NodeId> = Vec::with_capacity(subs.len());
        for id in subs {
            match self.nodes.get(id) {
                Some(Node::Alternate(inner)) if alternate => flat.extend_from_slice(inner),
                Some(Node::Concat(inner)) if !alternate => flat.extend_from_slice(inner),
                _ => flat.push(id),
            }
        }
        self.add(if alternate {
            Node::Alternate(flat)
        } else {
            Node::Concat(flat)
        })
    }

    /// Go's alternation clean-up that shapes the tree: runs of branches of
    /// one character become one class, runs of empty branches one.
    fn merge_char_branches(&mut self, subs: Vec<NodeId>) -> Vec<NodeId> {
        let mut out: Vec<NodeId> = Vec::with_capacity(subs.len());
        let mut run: Vec<NodeId> = Vec::new();
        for id in subs {
            if self.nodes.get(id).and_then(one_char_ranges).is_some() {
                run.push(id);
                continue;
            }
            self.flush_char_run(&mut out, &mut run);
            let empty_again: bool = matches!(self.nodes.get(id), Some(Node::EmptyMatch))
                && out
                    .last()
                    .is_some_and(|&last| matches!(self.nodes.get(last), Some(Node::EmptyMatch)));
            if !empty_again {
                out.push(id);
            }
        }
        self.flush_char_run(&mut out, &mut run);
        out
    }

    /// Ends a run of one-character branches: a single branch stays as it
    /// is; several become one class node.
    fn flush_char_run(&mut self, out: &mut Vec<NodeId>, run: &mut Vec<NodeId>) {
        if let [only] = run.as_slice() {
            out.push(*only);
        } else if !run.is_empty() {
            let mut ranges: Vec<Range> = run
                .iter()
                .filter_map(|&id| self.nodes.get(id).and_then(one_char_ranges))
                .flatten()
                .collect();
            clean(&mut ranges);
            out.push(self.add(Node::Class(ranges)));
        }
        run.clear();
    }

    /// A repetition operator at `before`; `after` is the text after it.
    fn repeat(
        &mut self,
        op: Repetition,
        before: &'a [u8],
        after: &'a [u8],
        last_repeat: &[u8],
    ) -> Result<&'a [u8]> {
        // A `?` after the operator makes it lazy: the same yes/no answer.
        let after: &[u8] = after.strip_prefix(b"?").unwrap_or(after);
        if !last_repeat.is_empty() {
            return Err(error(
                ErrorCode::InvalidRepeatOp,
                consumed(last_repeat, after),
            ));
        }
        let operator: &[u8] = consumed(before, after);
        let Some(Item::Node(sub)) = self.stack.last().copied() else {
            return Err(error(ErrorCode::MissingRepeatArgument, operator));
        };
        let node: Node = match op {
            Repetition::Op(b'*') => Node::Star(sub),
            Repetition::Op(b'+') => Node::Plus(sub),
            Repetition::Op(_) => Node::Quest(sub),
            Repetition::Counted(min, max) => Node::Repeat {
                sub,
                min: u32::try_from(min).unwrap_or(0),
                max: u32::try_from(max).ok(),
            },
        };
        let id: NodeId = self.add(node);
        if let Some(top) = self.stack.last_mut() {
            *top = Item::Node(id);
        }
        self.check_limits(id)?;
        if let Repetition::Counted(min, max) = op
            && (min >= 2 || max >= 2)
            && !self.counts_within(id, MAX_REPEAT)
        {
            return Err(error(ErrorCode::InvalidRepeatSize, operator));
        }
        Ok(after)
    }

    /// Go's `repeatIsValid`: nested counted repetitions multiply to at most
    /// `limit` copies of the innermost node.
    fn counts_within(&self, root: NodeId, limit: i64) -> bool {
        let mut todo: Vec<(NodeId, i64)> = vec![(root, limit)];
        while let Some((id, mut n)) = todo.pop() {
            let Some(node) = self.nodes.get(id) else {
                continue;
            };
            if let Node::Repeat { min, max, .. } = node {
                let m: i64 = match max {
                    Some(0) => continue,
                    Some(max) => i64::from(*max),
                    None => i64::from(*min),
                };
                if m > n {
                    return false;
                }
                if m > 0 {
                    n /= m;
                }
            }
            todo.extend(node.children().iter().map(|&child| (child, n)));
        }
        true
    }

    /// An escape at the top level: assertions, `\Q…\E`, classes, characters.
    fn backslash(&mut self, t: &'a [u8]) -> Result<&'a [u8]> {
        let look = |look: Look| Some(Node::Look(look));
        let assertion: Option<Node> = match t.get(1) {
            Some(b'A') => look(Look::BeginText),
            Some(b'b') => look(Look::WordBoundary),
            Some(b'B') => look(Look::NoWordBoundary),
            Some(b'z') => look(Look::EndText),
            Some(b'C') => return Err(error(ErrorCode::InvalidEscape, t.get(..2).unwrap_or(t))),
            Some(b'Q') => return self.quoted(skip(t, 2)),
            _ => None,
        };
        if let Some(node) = assertion {
            self.push_node(node)?;
            return Ok(skip(t, 2));
        }
        if let Some((ranges, rest)) = self.class_escape(t)? {
            self.push_class(ranges)?;
            return Ok(rest);
        }
        let (c, rest) = escape(t)?;
        self.literal(c)?;
        Ok(rest)
    }

    /// `\Q…\E`: everything up to `\E` (or the end) is literal.
    fn quoted(&mut self, body: &'a [u8]) -> Result<&'a [u8]> {
        let (mut lit, rest): (&[u8], &[u8]) = match body.windows(2).position(|w| w == b"\\E") {
            Some(end) => (body.get(..end).unwrap_or_default(), skip(body, end + 2)),
            None => (body, &[]),
        };
        while !lit.is_empty() {
            let (c, after) = next(lit)?;
            self.literal(c)?;
            lit = after;
        }
        Ok(rest)
    }

    /// A Unicode class (`\pL`, `\p{Greek}`) or Perl class (`\d`) at `t`.
    fn class_escape(&mut self, t: &'a [u8]) -> Result<Option<(Vec<Range>, &'a [u8])>> {
        match t.get(..2) {
            Some(b"\\p" | b"\\P") => self.unicode_class(t).map(Some),
            Some(&[b'\\', letter]) => Ok(perl_group(letter).map(|g| (self.apply(g), skip(t, 2)))),
            _ => Ok(None),
        }
    }

    /// `\pN`, `\p{Name}`, `\p{^Name}`, `\PN` (Go's `parseUnicodeClass`).
    fn unicode_class(&mut self, s: &'a [u8]) -> Result<(Vec<Range>, &'a [u8])> {
        let mut negated: bool = s.get(1) == Some(&b'P');
        let (c, after) = next(skip(s, 2))?;
        let (seq, mut name, rest): (&'a [u8], &[u8], &'a [u8]) = if c != u32::from(b'{') {
            let seq: &[u8] = consumed(s, after);
            (seq, skip(seq, 2), after)
        } else {
            let Some(end) = s.iter().position(|&b| b == b'}') else {
                check_utf8(s)?;
                return Err(error(ErrorCode::InvalidCharRange, s));
            };
            let name: &[u8] = s.get(3..end).unwrap_or_default();
            check_utf8(name)?;
            (s.get(..=end).unwrap_or(s), name, skip(s, end + 1))
        };
        let key: (&[u8], bool) = (seq, self.fold());
        if let Some(ranges) = self.unicode_classes.get(&key) {
            return Ok((ranges.clone(), rest));
        }
        if let Some(positive) = name.strip_prefix(b"^") {
            negated = !negated;
            name = positive;
        }
        let Some(mut group) = unicode_group(name) else {
            return Err(error(ErrorCode::InvalidCharRange, seq));
        };
        group.negated ^= negated;
        let ranges: Vec<Range> = self.apply(group);
        self.unicode_classes.insert(key, ranges.clone());
        Ok((ranges, rest))
    }

    /// The members of a named class under the current flags: folded first,
    /// then complemented (so `(?i)\W` leaves out `K`'s Kelvin sign too).
    fn apply(&self, group: Group) -> Vec<Range> {
        let ranges: Vec<Range> = if self.fold() {
            fold_closure(&group.ranges)
        } else {
            group.ranges
        };
        if group.negated {
            negate(&ranges)
        } else {
            ranges
        }
    }

    /// A bracket class `[…]` at `s` (Go's `parseClass`).
    fn bracket_class(&mut self, s: &'a [u8]) -> Result<&'a [u8]> {
        let mut t: &[u8] = skip(s, 1);
        let negated: bool = t.first() == Some(&b'^');
        if negated {
            t = skip(t, 1);
        }
        let mut ranges: Vec<Range> = Vec::new();
        // `]` first in the class is a member, not the end.
        let mut first: bool = true;
        while t.first() != Some(&b']') || first {
            first = false;
            if t.len() > 2 && t.starts_with(b"[:") {
                if let Some((members, rest)) = self.posix_class(t)? {
                    ranges.extend(members);
                    t = rest;
                    continue;
                }
            }
            if let Some((members, rest)) = self.class_escape(t)? {
                ranges.extend(members);
                t = rest;
                continue;
            }
            let range_start: &[u8] = t;
            let (lo, rest) = class_char(t, s)?;
            t = rest;
            let mut hi: u32 = lo;
            // `[a-]` holds `a` and `-`.
            if t.len() >= 2 && t.first() == Some(&b'-') && t.get(1) != Some(&b']') {
                let (h, rest) = class_char(skip(t, 1), s)?;
                t = rest;
                hi = h;
                if hi < lo {
                    return Err(error(ErrorCode::InvalidCharRange, consumed(range_start, t)));
                }
            }
            if self.fold() {
                push_folded(&mut ranges, lo, hi);
            } else {
                ranges.push((lo, hi));
            }
        }
        clean(&mut ranges);
        if negated {
            ranges = negate(&ranges);
        }
        self.push_class(ranges)?;
        Ok(skip(t, 1))
    }

    /// `[:alpha:]` at `t`, or `None` when no `:]` follows (then `[` is a
    /// member of the class).
    fn posix_class(&self, t: &'a [u8]) -> Result<Option<(Vec<Range>, &'a [u8])>> {
        let Some(i) = skip(t, 2).windows(2).position(|w| w == b":]") else {
            return Ok(None);
        };
        let spelling: &[u8] = t.get(..i + 4).unwrap_or(t);
        let Some(group) = posix_group(spelling) else {
            return Err(error(ErrorCode::InvalidCharRange, spelling));
        };
        Ok(Some((self.apply(group), skip(t, i + 4))))
    }
}

/// Whether `a` and `b` are each other's only case folding equivalent.
fn folds_only_to(a: u32, b: u32) -> bool {
    simple_fold(a) == b && simple_fold(b) == a
}

/// The members of a node that matches exactly one character.
fn one_char_ranges(node: &Node) -> Option<Vec<Range>> {
    match node {
        Node::Literal { runes, fold } => match *runes.as_slice() {
            [r] if *fold => Some(fold_closure(&[(r, r)])),
            [r] => Some(vec![(r, r)]),
            _ => None,
        },
        Node::Class(ranges) => Some(ranges.clone()),
        Node::AnyCharNotNl => Some(negate(&[(0x0A, 0x0A)])),
        Node::AnyChar => Some(negate(&[])),
        _ => None,
    }
}

/// One character of a bracket class: an escape or a literal character; the
/// end of the pattern means the `]` is missing.
fn class_char<'a>(t: &'a [u8], whole_class: &[u8]) -> Result<(u32, &'a [u8])> {
    match t.first() {
        None => Err(error(ErrorCode::MissingBracket, whole_class)),
        Some(b'\\') => escape(t),
        Some(_) => next(t),
    }
}

/// A one-character escape at `s` (Go's `parseEscape`): punctuation, octal
/// `\0`–`\777` (a lone `\1`–`\7` would be a backreference), `\xFF`,
/// `\x{10FFFF}` and the C escapes `\a\f\n\r\t\v`.
fn escape(s: &[u8]) -> Result<(u32, &[u8])> {
    let t: &[u8] = skip(s, 1);
    if t.is_empty() {
        return Err(error(ErrorCode::TrailingBackslash, &[]));
    }
    let (c, mut t) = next(t)?;
    let invalid = |rest: &[u8]| Err(error(ErrorCode::InvalidEscape, consumed(s, rest)));
    let octal_digit = |t: &[u8]| t.first().filter(|b| (b'0'..=b'7').contains(b)).copied();
    let Some(ch) = char::from_u32(c) else {
        return invalid(t);
    };
    match ch {
        '1'..='7' if octal_digit(t).is_none() => invalid(t),
        '0'..='7' => {
            let mut r: u32 = c - u32::from(b'0');
            for _ in 1..3 {
                let Some(d) = octal_digit(t) else { break };
                r = r * 8 + u32::from(d - b'0');
                t = skip(t, 1);
            }
            Ok((r, t))
        }
        'x' => hex_escape(s, t),
        'a' => Ok((0x07, t)),
        'f' => Ok((0x0C, t)),
        'n' => Ok((0x0A, t)),
        'r' => Ok((0x0D, t)),
        't' => Ok((0x09, t)),
        'v' => Ok((0x0B, t)),
        _ if ch.is_ascii() && !ch.is_ascii_alphanumeric() => Ok((c, t)),
        _ => invalid(t),
    }
}

/// The rest of `\x`: two hex digits or `{` hex digits `}`; `s` starts at
/// the backslash, `t` after the `x`.
fn hex_escape<'a>(s: &[u8], t: &'a [u8]) -> Result<(u32, &'a [u8])> {
    let invalid = |rest: &[u8]| Err(error(ErrorCode::InvalidEscape, consumed(s, rest)));
    if t.is_empty() {
        return invalid(t);
    }
    let (c, mut t) = next(t)?;
    if c != u32::from(b'{') {
        let (c2, t) = next(t)?;
        return match (hex_value(c), hex_value(c2)) {
            (Some(x), Some(y)) => Ok((x * 16 + y, t)),
            _ => invalid(t),
        };
    }
    let mut r: u32 = 0;
    let mut digits: usize = 0;
    loop {
        if t.is_empty() {
            return invalid(t);
        }
        let (c, rest) = next(t)?;
        t = rest;
        if c == u32::from(b'}') {
            break;
        }
        let Some(v) = hex_value(c) else {
            return invalid(t);
        };
        r = r * 16 + v;
        if r > super::utf8::MAX_RUNE {
            return invalid(t);
        }
        digits += 1;
    }
    if digits == 0 {
        return invalid(t);
    }
    Ok((r, t))
}

fn hex_value(c: u32) -> Option<u32> {
    char::from_u32(c)?.to_digit(16)
}

/// Go's `parseRepeat`: `{n}`, `{n,}` or `{n,m}` at `s` as (min, max, rest),
/// max -1 for none and min -1 for a number too big; `None` when `s` isn't
/// of that form (then `{` is a literal).
fn parse_counts(s: &[u8]) -> Option<(i64, i64, &[u8])> {
    let (mut min, s) = parse_int(s.strip_prefix(b"{")?)?;
    let (max, s): (i64, &[u8]) = match s.strip_prefix(b",") {
        None => (min, s),
        Some(b"") => return None,
        Some(s) if s.first() == Some(&b'}') => (-1, s),
        Some(s) => {
            let (max, s) = parse_int(s)?;
            if max < 0 {
                min = -1;
            }
            (max, s)
        }
    };
    Some((min, max, s.strip_prefix(b"}")?))
}

/// Decimal digits without a leading zero; -1 when the number is too big.
fn parse_int(s: &[u8]) -> Option<(i64, &[u8])> {
    let digits: usize = s.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || (digits >= 2 && s.first() == Some(&b'0')) {
        return None;
    }
    let mut n: i64 = 0;
    for &d in s.iter().take(digits) {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(d - b'0');
    }
    Some((n, skip(s, digits)))
}

/// The next character of `t` and the rest; U+FFFD and nothing at the end
/// (as Go's `nextRune` reads an empty string).
fn next(t: &[u8]) -> Result<(u32, &[u8])> {
    match next_rune(t) {
        Ok(Some(found)) => Ok(found),
        Ok(None) => Ok((REPLACEMENT, t)),
        Err(()) => Err(error(ErrorCode::InvalidUtf8, t)),
    }
}

fn check_utf8(s: &[u8]) -> Result<()> {
    match first_invalid(s) {
        Some(at) => Err(error(ErrorCode::InvalidUtf8, skip(s, at))),
        None => Ok(()),
    }
}

fn error(code: ErrorCode, fragment: &[u8]) -> RegexError {
    RegexError::new(code, fragment)
}

/// `t` without its first `n` bytes.
fn skip(t: &[u8], n: usize) -> &[u8] {
    t.get(n..).unwrap_or_default()
}

/// The part of `from` before its suffix `rest`.
fn consumed<'a>(from: &'a [u8], rest: &[u8]) -> &'a [u8] {
    from.get(..from.len().saturating_sub(rest.len()))
        .unwrap_or_default()
}
