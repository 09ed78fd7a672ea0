//! The tree as a Thompson NFA program, built without recursion: a stack of
//! tasks visits nodes and combines the fragments they leave on a second
//! stack. Counted repetitions are spelled out as Go's `Simplify` does
//! (`x{2,4}` is `xx(x(x)?)?`); the parser's size limit bounds the result.

use super::ast::{Look, Node, NodeId, Tree};
use super::class::{Range, fold_closure};
use super::error::{ErrorCode, RegexError};

/// What an instruction does; `out` (and `arg` for `Split`) say where next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    /// No match on this path (instruction 0, also the target of empty holes).
    Fail,
    /// The pattern matched.
    Match,
    /// Go on to `out` without reading.
    Nop,
    /// Go on to both `out` and `arg`.
    Split,
    /// Read this character.
    Rune(u32),
    /// Read a character of `Program::classes[i]`.
    Class(u32),
    /// Read any character but `\n`.
    AnyNotNl,
    /// Read any character.
    Any,
    /// Go on when the assertion holds here.
    Look(Look),
}

/// One instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Inst {
    pub(super) op: Op,
    pub(super) out: u32,
    pub(super) arg: u32,
}

/// A compiled pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Program {
    pub(super) insts: Vec<Inst>,
    /// The clean sets `Op::Class` refers to.
    pub(super) classes: Vec<Vec<Range>>,
    pub(super) start: u32,
    /// Every match starts at the beginning of the text (`\A…`, `^…`).
    pub(super) anchored: bool,
}

/// Compiles `tree`; fails only when spelling out repetitions goes past
/// Go's size limit (which the parser's estimate normally catches first).
pub(super) fn compile(tree: &Tree, whole: &[u8]) -> Result<Program, RegexError> {
    let mut c = Compiler {
        insts: vec![inst(Op::Fail)],
        classes: Vec::new(),
        frags: Vec::new(),
    };
    let mut tasks: Vec<Task> = vec![Task::Visit(tree.root)];
    while let Some(task) = tasks.pop() {
        if c.insts.len() as u64 > 2 * super::parse::MAX_SIZE {
            return Err(RegexError::new(ErrorCode::Large, whole));
        }
        match task {
            Task::Visit(id) => c.visit(tree, id, &mut tasks),
            Task::Combine(how) => c.combine(how),
        }
    }
    let root: Frag = c.frags.pop().unwrap_or_else(Frag::fail);
    let done: u32 = c.emit(Op::Match);
    c.patch(root.holes, done);
    Ok(Program {
        insts: c.insts,
        classes: c.classes,
        start: root.start,
        anchored: starts_with_begin_text(tree),
    })
}

/// A step of the compilation.
#[derive(Debug, Clone, Copy)]
enum Task {
    /// Compile a node: leaves one fragment.
    Visit(NodeId),
    /// Combine fragments on top of the stack into one.
    Combine(Combine),
}

#[derive(Debug, Clone, Copy)]
enum Combine {
    /// The top `n` fragments in sequence.
    Cat(usize),
    /// The top `n` fragments as choices.
    Alt(usize),
    Star,
    Plus,
    Quest,
    /// A new fragment that matches the empty string.
    Empty,
}

/// A list of unfilled `out`/`arg` fields, linked through the fields
/// themselves: `2 * inst + (1 for arg)`, 0 for the end (instruction 0 is
/// `Fail` and never has holes).
#[derive(Debug, Clone, Copy, Default)]
struct Holes {
    head: u32,
    tail: u32,
}

impl Holes {
    fn one(inst: u32, arg: bool) -> Self {
        let hole: u32 = inst * 2 + u32::from(arg);
        Self {
            head: hole,
            tail: hole,
        }
    }
}

/// A compiled piece: where it starts and its dangling exits.
#[derive(Debug, Clone, Copy)]
struct Frag {
    start: u32,
    holes: Holes,
}

impl Frag {
    fn fail() -> Self {
        Self {
            start: 0,
            holes: Holes::default(),
        }
    }
}

fn inst(op: Op) -> Inst {
    Inst { op, out: 0, arg: 0 }
}

struct Compiler {
    insts: Vec<Inst>,
    classes: Vec<Vec<Range>>,
    frags: Vec<Frag>,
}

impl Compiler {
    fn emit(&mut self, op: Op) -> u32 {
        self.insts.push(inst(op));
        (self.insts.len() - 1) as u32
    }

    /// Emits an instruction whose `out` is the fragment's one exit.
    fn single(&mut self, op: Op) -> Frag {
        let at: u32 = self.emit(op);
        Frag {
            start: at,
            holes: Holes::one(at, false),
        }
    }

    fn field(&mut self, hole: u32) -> Option<&mut u32> {
        let inst: &mut Inst = self.insts.get_mut((hole / 2) as usize)?;
        Some(if hole % 2 == 1 {
            &mut inst.arg
        } else {
            &mut inst.out
        })
    }

    fn patch(&mut self, holes: Holes, target: u32) {
        let mut hole: u32 = holes.head;
        while hole != 0 {
            let Some(field) = self.field(hole) else {
                return;
            };
            let next: u32 = *field;
            *field = target;
            hole = next;
        }
    }

    fn append(&mut self, a: Holes, b: Holes) -> Holes {
        if a.head == 0 {
            return b;
        }
        if b.head == 0 {
            return a;
        }
        if let Some(field) = self.field(a.tail) {
            *field = b.head;
        }
        Holes {
            head: a.head,
            tail: b.tail,
        }
    }

    /// Compiles a leaf now, or schedules the children and the combination.
    fn visit(&mut self, tree: &Tree, id: NodeId, tasks: &mut Vec<Task>) {
        let Some(node) = tree.nodes.get(id) else {
            self.frags.push(Frag::fail());
            return;
        };
        // Tasks run in the reverse order of pushing: the combination last.
        let mut schedule = |children: &[NodeId], how: Option<Combine>| {
            tasks.extend(how.map(Task::Combine));
            tasks.extend(children.iter().rev().map(|&c| Task::Visit(c)));
        };
        let frag: Frag = match node {
            Node::NoMatch => Frag::fail(),
            Node::EmptyMatch => self.single(Op::Nop),
            Node::Literal { runes, fold } => self.literal(runes, *fold),
            Node::Class(ranges) => self.class(ranges.clone()),
            Node::AnyCharNotNl => self.single(Op::AnyNotNl),
            Node::AnyChar => self.single(Op::Any),
            Node::Look(look) => self.single(Op::Look(*look)),
            Node::Capture(sub) => return schedule(&[*sub], None),
            Node::Star(sub) => return schedule(&[*sub], Some(Combine::Star)),
            Node::Plus(sub) => return schedule(&[*sub], Some(Combine::Plus)),
            Node::Quest(sub) => return schedule(&[*sub], Some(Combine::Quest)),
            Node::Concat(subs) => return schedule(subs, Some(Combine::Cat(subs.len()))),
            Node::Alternate(subs) => return schedule(subs, Some(Combine::Alt(subs.len()))),
            Node::Repeat { sub, min, max } => {
                let steps: Vec<Task> = spell_out(*sub, *min, *max);
                tasks.extend(steps.into_iter().rev());
                return;
            }
        };
        self.frags.push(frag);
    }

    fn literal(&mut self, runes: &[u32], fold: bool) -> Frag {
        let mut frag: Option<Frag> = None;
        for &r in runes {
            let next: Frag = if fold {
                self.class(fold_closure(&[(r, r)]))
            } else {
                self.single(Op::Rune(r))
            };
            frag = Some(match frag {
                None => next,
                Some(prev) => self.cat(prev, next),
            });
        }
        frag.unwrap_or_else(|| self.single(Op::Nop))
    }

    fn class(&mut self, ranges: Vec<Range>) -> Frag {
        match *ranges.as_slice() {
            [] => Frag::fail(),
            [(lo, hi)] if lo == hi => self.single(Op::Rune(lo)),
            _ => {
                self.classes.push(ranges);
                self.single(Op::Class((self.classes.len() - 1) as u32))
            }
        }
    }

    fn cat(&mut self, a: Frag, b: Frag) -> Frag {
        self.patch(a.holes, b.start);
        Frag {
            start: a.start,
            holes: b.holes,
        }
    }

    /// A `Split` to `out` with its `arg` a hole.
    fn split(&mut self, out: u32) -> u32 {
        let at: u32 = self.emit(Op::Split);
        if let Some(i) = self.insts.get_mut(at as usize) {
            i.out = out;
        }
        at
    }

    fn combine(&mut self, how: Combine) {
        let frag: Frag = match how {
            Combine::Empty => self.single(Op::Nop),
            Combine::Cat(n) => {
                let parts: Vec<Frag> = self.pop(n);
                let mut iter = parts.into_iter();
                let first: Frag = iter.next().unwrap_or_else(|| self.single(Op::Nop));
                iter.fold(first, |acc, next| self.cat(acc, next))
            }
            Combine::Alt(n) => {
                let parts: Vec<Frag> = self.pop(n);
                let mut iter = parts.into_iter().rev();
                let last: Frag = iter.next().unwrap_or_else(Frag::fail);
                iter.fold(last, |rest, choice| {
                    let at: u32 = self.split(choice.start);
                    if let Some(i) = self.insts.get_mut(at as usize) {
                        i.arg = rest.start;
                    }
                    let holes: Holes = self.append(choice.holes, rest.holes);
                    Frag { start: at, holes }
                })
            }
            Combine::Star | Combine::Plus | Combine::Quest => {
                let sub: Frag = self.frags.pop().unwrap_or_else(Frag::fail);
                let at: u32 = self.split(sub.start);
                let exit: Holes = Holes::one(at, true);
                match how {
                    Combine::Quest => Frag {
                        start: at,
                        holes: self.append(sub.holes, exit),
                    },
                    _ => {
                        self.patch(sub.holes, at);
                        let start: u32 = if matches!(how, Combine::Star) {
                            at
                        } else {
                            sub.start
                        };
                        Frag { start, holes: exit }
                    }
                }
            }
        };
        self.frags.push(frag);
    }

    /// The top `n` fragments, oldest first.
    fn pop(&mut self, n: usize) -> Vec<Frag> {
        let at: usize = self.frags.len().saturating_sub(n);
        self.frags.split_off(at)
    }
}

/// The tasks that compile `sub{min,max}` as copies of `sub` (Go's
/// `Simplify`): `x{n,}` is n-1 copies then `x+`, `x{n,m}` n copies then
/// m-n nested optional copies.
fn spell_out(sub: NodeId, min: u32, max: Option<u32>) -> Vec<Task> {
    let visit = |n: u32| (0..n).map(move |_| Task::Visit(sub));
    let combine = Task::Combine;
    let mut steps: Vec<Task> = Vec::new();
    match max {
        None if min == 0 => steps.extend([Task::Visit(sub), combine(Combine::Star)]),
        None => {
            steps.extend(visit(min));
            steps.extend([combine(Combine::Plus), combine(Combine::Cat(min as usize))]);
        }
        Some(0) => steps.push(combine(Combine::Empty)),
        Some(max) => {
            steps.extend(visit(min));
            let optional: u32 = max.saturating_sub(min);
            if optional > 0 {
                // (x(x(x)?)?)?: the innermost first.
                steps.extend(visit(optional));
                steps.push(combine(Combine::Quest));
                for _ in 1..optional {
                    steps.extend([combine(Combine::Cat(2)), combine(Combine::Quest)]);
                }
            }
            let parts: u32 = min + u32::from(optional > 0);
            steps.push(combine(Combine::Cat(parts as usize)));
        }
    }
    steps
}

/// Whether every path starts with `\A` (or `^` without `(?m)`).
fn starts_with_begin_text(tree: &Tree) -> bool {
    let mut id: NodeId = tree.root;
    loop {
        match tree.nodes.get(id) {
            Some(Node::Look(Look::BeginText)) => return true,
            Some(Node::Capture(sub)) => id = *sub,
            Some(Node::Concat(subs)) => match subs.first() {
                Some(&first) => id = first,
                None => return false,
            },
            _ => return false,
        }
    }
}
