//! How a root reaches a policy (language-policies §5.5): the invocation
//! tree walked from the root, each invoked instance (policy and
//! arguments) once, tracking whether a `when` encloses the path.

use crate::bundle::Project;
use crate::source::Span;

/// How the root reaches the policy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Whether any path reaches it.
    pub invoked: bool,
    /// Whether some path with no `when` on it reaches it.
    pub unconditional: bool,
    /// The gated calls of it, in walk order; empty when `unconditional`.
    pub gated: Vec<Site>,
}

/// One invocation statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    /// The document holding it, by number in [`Project::docs`].
    pub doc: usize,
    /// The statement.
    pub span: Span,
}

/// How document `root` reaches the policy called `name`.
pub fn reach(project: &Project, root: usize, name: &str) -> Reach {
    let mut found = Reach::default();
    // An instance is a policy with its arguments: walked once, with the
    // gating of the first path that reached it.
    let mut seen: Vec<(&str, &[String])> = Vec::new();
    // Depth first, in source order: the stack holds (document, gated).
    let mut stack = vec![(root, false)];
    while let Some((doc, gated)) = stack.pop() {
        let Some(entry) = project.docs.get(doc) else {
            continue;
        };
        let mut next = Vec::new();
        for call in &entry.facts.invocations {
            let gated = gated || call.gated;
            if call.target == name {
                found.invoked = true;
                match gated {
                    true => found.gated.push(Site {
                        doc,
                        span: call.span,
                    }),
                    false => found.unconditional = true,
                }
            }
            let instance = (call.target.as_str(), call.args.as_slice());
            if !seen.contains(&instance) {
                seen.push(instance);
                if let Some(target) = project.find(&call.target) {
                    next.push((target, gated));
                }
            }
        }
        stack.extend(next.into_iter().rev());
    }
    if found.unconditional {
        found.gated.clear();
    }
    found
}
