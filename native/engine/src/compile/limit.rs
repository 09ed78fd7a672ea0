//! The bound on what compiling costs (issue #20): every invocation
//! compiles its callee again, for its call site, so policies that invoke
//! others more than once multiply (a chain of 30 that invokes the next
//! twice would make 2^30 instances). One [`Budget`] per request caps the
//! instances each root's compile makes, the instances of all its roots and
//! the work they cost; the invocation that crosses a cap is an error there,
//! and nothing past it is instantiated (past a cap of the request's, in no
//! root after it either).

/// The most policy instances one root's compile makes, the root included.
pub const MAX_INSTANCES: usize = 10_000;

/// The most policy instances the compiles of one request's roots make
/// together (a check compiles every policy in scope): a few roots' worth,
/// so that a root any compile accepts passes a check too, and the check
/// of many roots still costs a bounded time.
pub const MAX_REQUEST_INSTANCES: usize = 4 * MAX_INSTANCES;

/// The most work one request's compiles do: each instance weighs its
/// document's source bytes times its depth plus one, since each of its
/// rules and asserts carries its chain of call sites.
pub const MAX_WORK: usize = 64 << 20;

/// A cap an invocation crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpansionError {
    /// Past [`MAX_INSTANCES`].
    Instances,
    /// Past [`MAX_REQUEST_INSTANCES`].
    RequestInstances,
    /// Past [`MAX_WORK`].
    Work,
}

impl ExpansionError {
    /// The message, for an invocation of `callee`.
    pub fn message(self, callee: &str) -> String {
        match self {
            ExpansionError::Instances => format!(
                "invoking `{callee}` here makes more than {MAX_INSTANCES} policy instances in one request"
            ),
            ExpansionError::RequestInstances => format!(
                "invoking `{callee}` here makes more than {MAX_REQUEST_INSTANCES} policy instances in one request, counting every policy it compiles"
            ),
            ExpansionError::Work => format!(
                "invoking `{callee}` here compiles more than {} MiB of policy source in one request, each policy counted once per call site on its chain",
                MAX_WORK >> 20
            ),
        }
    }

    /// The help.
    pub fn help(self) -> &'static str {
        "every invocation compiles the invoked policy again, so policies that invoke others more than once multiply; invoke each policy from fewer places, or pass what varies as input"
    }
}

/// What a request's compiles have spent: the instances of the root being
/// compiled, and the instances and work of all of them.
#[derive(Debug, Default)]
pub struct Budget {
    /// The instances of the root being compiled.
    instances: usize,
    /// The instances of every root so far.
    total: usize,
    work: usize,
    /// A cap of the root's was crossed: nothing more is instantiated for it.
    exhausted: bool,
    /// A cap of the request's was crossed: nothing more is instantiated.
    spent: bool,
}

impl Budget {
    /// Whether an invocation crossed a cap: nothing more is instantiated
    /// for this root.
    pub fn exhausted(&self) -> bool {
        self.exhausted || self.spent
    }

    /// Whether an invocation crossed a cap of the request's: no more
    /// roots are compiled.
    pub fn spent(&self) -> bool {
        self.spent
    }

    /// Spends a root of `bytes` of source, whose instances count from
    /// here: a root is compiled whatever the budget, as its size is the
    /// request's.
    pub fn root(&mut self, bytes: usize) {
        self.instances = 1;
        self.exhausted = false;
        self.total = self.total.saturating_add(1);
        self.work = self.work.saturating_add(bytes);
    }

    /// Spends an instance of `bytes` of source at `depth` invocations
    /// from its root; the cap it crosses, once, exhausting the budget of
    /// the root (or of the request).
    pub fn invocation(&mut self, bytes: usize, depth: usize) -> Result<(), ExpansionError> {
        let instances = self.instances.saturating_add(1);
        let total = self.total.saturating_add(1);
        let work = self
            .work
            .saturating_add(bytes.saturating_mul(depth.saturating_add(1)));
        let crossed = if instances > MAX_INSTANCES {
            Some(ExpansionError::Instances)
        } else if total > MAX_REQUEST_INSTANCES {
            Some(ExpansionError::RequestInstances)
        } else if work > MAX_WORK {
            Some(ExpansionError::Work)
        } else {
            None
        };
        match crossed {
            Some(error) => {
                self.exhausted = true;
                self.spent = error != ExpansionError::Instances;
                Err(error)
            }
            None => {
                self.instances = instances;
                self.total = total;
                self.work = work;
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instance_past_the_cap_is_refused_once_and_exhausts_the_budget() {
        let mut budget = Budget::default();
        budget.root(10);
        for _ in 1..MAX_INSTANCES {
            assert_eq!(budget.invocation(10, 1), Ok(()));
        }
        assert!(!budget.exhausted());
        assert_eq!(budget.invocation(10, 1), Err(ExpansionError::Instances));
        assert!(budget.exhausted());
    }

    #[test]
    fn each_root_has_its_own_instances_and_the_request_a_few_roots_worth() {
        let mut budget = Budget::default();
        for _ in 0..4 {
            budget.root(10);
            for _ in 1..MAX_INSTANCES {
                assert_eq!(budget.invocation(10, 1), Ok(()));
            }
            assert_eq!(budget.invocation(10, 1), Err(ExpansionError::Instances));
            assert!(budget.exhausted() && !budget.spent());
        }
        budget.root(10);
        assert!(!budget.exhausted());
        assert_eq!(
            budget.invocation(10, 1),
            Err(ExpansionError::RequestInstances)
        );
        assert!(budget.spent());
    }

    #[test]
    fn an_instance_weighs_its_source_times_its_depth_plus_one() {
        let mut budget = Budget::default();
        budget.root(MAX_WORK - 30);
        assert_eq!(budget.invocation(10, 2), Ok(()));
        assert_eq!(budget.invocation(1, 0), Err(ExpansionError::Work));
        assert!(budget.spent());
    }

    #[test]
    fn the_messages_name_the_callee_and_the_caps() {
        assert_eq!(
            ExpansionError::Instances.message("door.p1"),
            "invoking `door.p1` here makes more than 10000 policy instances in one request"
        );
        assert_eq!(
            ExpansionError::RequestInstances.message("door.p1"),
            "invoking `door.p1` here makes more than 40000 policy instances in one request, counting every policy it compiles"
        );
        assert_eq!(
            ExpansionError::Work.message("door.p1"),
            "invoking `door.p1` here compiles more than 64 MiB of policy source in one request, each policy counted once per call site on its chain"
        );
    }
}
