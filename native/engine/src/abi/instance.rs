//! The state of one engine instance: the host's pinned buffers and the
//! compiled policies under their handles (module-abi §1, §5). The exports
//! keep one `Instance` (`abi/mod.rs`); everything below gets it passed.

use std::cell::{OnceCell, RefCell};
use std::collections::BTreeSet;
use std::rc::Rc;

use super::buffers::Buffers;
use super::eval_record::RuleTexts;
use super::handles::{HandleTable, TableFull};
use crate::explain::Explanation;
use crate::program::Program;
use crate::stubs::BoundStubs;

/// One instance's state. Each part is borrowed on its own: a host function
/// allocates buffers while an eval reads its program.
pub(crate) struct Instance {
    pub(crate) buffers: RefCell<Buffers>,
    pub(crate) programs: RefCell<HandleTable<Compiled>>,
}

impl Instance {
    /// An instance with no buffers and no programs.
    pub(crate) const fn new() -> Self {
        Self {
            buffers: RefCell::new(Buffers::new()),
            programs: RefCell::new(HandleTable::new()),
        }
    }

    /// Stores a compiled policy under a new handle.
    pub(crate) fn store(&self, compiled: Compiled) -> Result<u32, TableFull> {
        self.programs.borrow_mut().insert(compiled)
    }

    /// What `read` makes of the policy compiled under `handle`, if there is
    /// one.
    pub(crate) fn with_program<T>(
        &self,
        handle: u32,
        read: impl FnOnce(&Compiled) -> T,
    ) -> Option<T> {
        self.programs.borrow().get(handle).map(read)
    }

    /// Drops the policy compiled under `handle`; `false` when there is none.
    pub(crate) fn release(&self, handle: u32) -> bool {
        self.programs.borrow_mut().remove(handle).is_some()
    }
}

/// What compile stores under a handle.
pub(crate) struct Compiled {
    /// The program eval runs; its records share it.
    pub(crate) program: Rc<Program>,
    /// The host functions the module's host implements (`functions`).
    pub(crate) functions: BTreeSet<String>,
    /// The request's stubs, which answer their functions' calls before
    /// the host or anything else does.
    pub(crate) stubs: BoundStubs,
    /// How many policies and modules the root compiled in, for its
    /// explanation.
    pub(crate) counts: (usize, usize),
    /// What explain by handle answers (§4.5), made when first asked for:
    /// most compiled policies are never explained, and a compile's peak
    /// needs no copy of its rules' texts (issue #20).
    pub(crate) explanation: OnceCell<Rc<Explanation>>,
    /// The JSON of the program's rules in eval records, written as they fire.
    pub(crate) rule_texts: Rc<RuleTexts>,
}

impl Compiled {
    /// What explain by handle answers.
    pub(crate) fn explanation(&self) -> Rc<Explanation> {
        Rc::clone(
            self.explanation.get_or_init(|| {
                Rc::new(crate::explain::flatten_counted(self.counts, &self.program))
            }),
        )
    }
}
