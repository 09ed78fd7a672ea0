//! The Pike VM: runs a program over the text one character at a time,
//! keeping the set of instructions alive at each position. Each character
//! costs at most one visit per instruction, so a search is linear in the
//! text for a given pattern, and there is no backtracking to blow up.

use super::ast::Look;
use super::class::contains;
use super::compile::{Op, Program};
use super::utf8::decode;

/// Whether `program` matches anywhere in `haystack` (read as Go reads
/// UTF-8: a byte that isn't UTF-8 is one U+FFFD).
pub(super) fn is_match(program: &Program, haystack: &[u8]) -> bool {
    let mut vm = Vm {
        program,
        haystack,
        current: Threads::new(program.insts.len()),
        next: Threads::new(program.insts.len()),
        todo: Vec::new(),
    };
    vm.run()
}

struct Vm<'a> {
    program: &'a Program,
    haystack: &'a [u8],
    /// The instructions alive before the character at the current position.
    current: Threads,
    /// The instructions alive after it.
    next: Threads,
    /// Work list of the closure over instructions that read nothing.
    todo: Vec<u32>,
}

impl Vm<'_> {
    fn run(&mut self) -> bool {
        let mut at: usize = 0;
        loop {
            // Unanchored: a new attempt starts at every position.
            if at == 0 || !self.program.anchored {
                let mut current = std::mem::take(&mut self.current);
                let matched: bool = self.add(&mut current, self.program.start, at);
                self.current = current;
                if matched {
                    return true;
                }
            }
            if self.current.is_empty() && self.program.anchored {
                return false;
            }
            let Some((c, width)) = decode(self.haystack, at) else {
                return false;
            };
            if self.step(c, at + width) {
                return true;
            }
            std::mem::swap(&mut self.current, &mut self.next);
            at += width;
        }
    }

    /// Moves every live thread over the character `c`; `after` is the
    /// position after it. True when a thread reaches `Match`.
    fn step(&mut self, c: u32, after: usize) -> bool {
        let current = std::mem::take(&mut self.current);
        let mut next = std::mem::take(&mut self.next);
        next.clear();
        let program: &Program = self.program;
        let matched: bool = current.dense.iter().any(|&pc| {
            let Some(inst) = program.insts.get(pc as usize) else {
                return false;
            };
            let reads: bool = match inst.op {
                Op::Rune(r) => r == c,
                Op::Class(i) => program
                    .classes
                    .get(i as usize)
                    .is_some_and(|set| contains(set, c)),
                Op::AnyNotNl => c != u32::from(b'\n'),
                Op::Any => true,
                _ => false,
            };
            reads && self.add(&mut next, inst.out, after)
        });
        self.current = current;
        self.next = next;
        matched
    }

    /// Adds `pc` and everything reachable from it without reading, at
    /// position `at`; true when that reaches `Match`.
    fn add(&mut self, threads: &mut Threads, pc: u32, at: usize) -> bool {
        self.todo.clear();
        self.todo.push(pc);
        while let Some(pc) = self.todo.pop() {
            if !threads.insert(pc) {
                continue;
            }
            let Some(inst) = self.program.insts.get(pc as usize) else {
                continue;
            };
            match inst.op {
                Op::Match => return true,
                Op::Nop => self.todo.push(inst.out),
                Op::Split => self.todo.extend([inst.arg, inst.out]),
                Op::Look(look) if holds(look, self.haystack, at) => self.todo.push(inst.out),
                _ => {}
            }
        }
        false
    }
}

/// Whether an assertion holds between the bytes before and at `at`.
fn holds(look: Look, haystack: &[u8], at: usize) -> bool {
    let before: Option<u8> = at.checked_sub(1).and_then(|i| haystack.get(i).copied());
    let after: Option<u8> = haystack.get(at).copied();
    // A multi-byte or invalid character has no ASCII byte at its edges, so
    // looking at single bytes reads Go's ASCII word characters exactly.
    let word = |b: Option<u8>| b.is_some_and(|b| b == b'_' || b.is_ascii_alphanumeric());
    match look {
        Look::BeginText => before.is_none(),
        Look::EndText => after.is_none(),
        Look::BeginLine => before.is_none_or(|b| b == b'\n'),
        Look::EndLine => after.is_none_or(|b| b == b'\n'),
        Look::WordBoundary => word(before) != word(after),
        Look::NoWordBoundary => word(before) == word(after),
    }
}

/// A set of instruction indexes with insertion order, O(1) insert, test
/// and clear (a sparse set).
#[derive(Default)]
struct Threads {
    dense: Vec<u32>,
    /// For each instruction, its index in `dense` if it is a member.
    sparse: Vec<u32>,
}

impl Threads {
    fn new(size: usize) -> Self {
        Self {
            dense: Vec::with_capacity(size),
            sparse: vec![0; size],
        }
    }

    fn is_empty(&self) -> bool {
        self.dense.is_empty()
    }

    fn clear(&mut self) {
        self.dense.clear();
    }

    /// Adds `pc`; false when it was already there (or is out of range).
    fn insert(&mut self, pc: u32) -> bool {
        let Some(&slot) = self.sparse.get(pc as usize) else {
            return false;
        };
        if self.dense.get(slot as usize) == Some(&pc) {
            return false;
        }
        if let Some(s) = self.sparse.get_mut(pc as usize) {
            *s = self.dense.len() as u32;
        }
        self.dense.push(pc);
        true
    }
}
