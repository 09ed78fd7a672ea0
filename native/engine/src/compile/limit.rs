//! The bound on what compiling costs (issue #20): every invocation
//! compiles its callee again, for its call site, so policies that invoke
//! others more than once multiply (a chain of 30 that invokes the next
//! twice would make 2^30 instances). One [`Budget`] per request caps the
//! instances its compiles make and the work they cost; the invocation that
//! crosses a cap is an error there, and nothing past it is instantiated.

/// The most policy instances one request's compiles make, roots included.
pub const MAX_INSTANCES: usize = 10_000;

/// The most work one request's compiles do: each instance weighs its
/// document's source bytes times its depth plus one, since each of its
/// rules and asserts carries its chain of call sites.
pub const MAX_WORK: usize = 64 << 20;

/// A cap an invocation crossed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpansionError {
    /// Past [`MAX_INSTANCES`].
    Instances,
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

/// What a request's compiles have spent, shared by every root it
/// compiles.
#[derive(Debug, Default)]
pub struct Budget {
    instances: usize,
    work: usize,
    exhausted: bool,
}

impl Budget {
    /// Whether an invocation crossed a cap: nothing more is instantiated.
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// Spends a root of `bytes` of source: a root is compiled whatever
    /// the budget, as its size is the request's.
    pub fn root(&mut self, bytes: usize) {
        self.instances = self.instances.saturating_add(1);
        self.work = self.work.saturating_add(bytes);
    }

    /// Spends an instance of `bytes` of source at `depth` invocations
    /// from its root; the cap it crosses, once, exhausting the budget.
    pub fn invocation(&mut self, bytes: usize, depth: usize) -> Result<(), ExpansionError> {
        let instances = self.instances.saturating_add(1);
        let work = self
            .work
            .saturating_add(bytes.saturating_mul(depth.saturating_add(1)));
        let crossed = match (instances > MAX_INSTANCES, work > MAX_WORK) {
            (true, _) => Some(ExpansionError::Instances),
            (false, true) => Some(ExpansionError::Work),
            (false, false) => None,
        };
        match crossed {
            Some(error) => {
                self.exhausted = true;
                Err(error)
            }
            None => {
                self.instances = instances;
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
    fn an_instance_weighs_its_source_times_its_depth_plus_one() {
        let mut budget = Budget::default();
        budget.root(MAX_WORK - 30);
        assert_eq!(budget.invocation(10, 2), Ok(()));
        assert_eq!(budget.invocation(1, 0), Err(ExpansionError::Work));
        assert!(budget.exhausted());
    }

    #[test]
    fn the_messages_name_the_callee_and_the_caps() {
        assert_eq!(
            ExpansionError::Instances.message("door.p1"),
            "invoking `door.p1` here makes more than 10000 policy instances in one request"
        );
        assert_eq!(
            ExpansionError::Work.message("door.p1"),
            "invoking `door.p1` here compiles more than 64 MiB of policy source in one request, each policy counted once per call site on its chain"
        );
    }
}
