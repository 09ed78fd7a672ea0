//! Explanations (tooling §5, language-policies §9): a root policy compiled
//! statically and flattened into every decision rule and assert it can
//! reach, each with the chain of invocations that reaches it and the
//! conditions that guard it, without evaluating anything.
//!
//! The compiler does the flattening: its rules and asserts are already in
//! traversal order (statements in source order, invocations inlined where
//! they are called) and carry their texts. Here they become entries, and
//! the documents the root compiled in are counted.

#[cfg(test)]
mod tests;

use std::rc::Rc;

use crate::bundle::Project;
use crate::diag::Diagnostic;
use crate::eval::Phase;
use crate::program::Program;

/// One policy flattened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The explained root.
    pub policy: Rc<str>,
    /// How many of the documents counted are policies, the root included.
    pub policies: usize,
    /// How many of them are modules.
    pub modules: usize,
    /// Every decision rule, then every assert, each in traversal order.
    pub entries: Vec<Entry>,
}

/// A decision rule or an assert of an explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A rule's reason, or an assert's name.
    pub reason: Rc<str>,
    /// `«document»:«line»` of each call site from the root inwards, then
    /// of the rule or assert itself.
    pub chain: Rc<[Rc<str>]>,
    /// The text of every enclosing `when` condition, the call sites' first,
    /// outermost first.
    pub conditions: Rc<[Rc<str>]>,
    /// What kind of entry it is, and what only that kind has.
    pub what: What,
}

/// What only a rule, or only an assert, has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// A decision constructor.
    Rule {
        /// The decision it returns.
        decision: Rc<str>,
        /// `«field» = «argument text»` for each payload argument written,
        /// in source order.
        payload: Vec<Rc<str>>,
    },
    /// An assert.
    Assert {
        /// `input`, or `outcome` for an assert that reads `outcome`.
        phase: Phase,
        /// Its own condition's text.
        check: Rc<str>,
    },
}

/// Compiles policy `root` (by number in [`Project::docs`]) of a project
/// whose scope checked cleanly statically, and flattens it. A root that
/// doesn't compile (an invocation argument outside the callee's bounds)
/// gives the compiler's diagnostics.
pub fn explain(project: &Project, root: usize) -> Result<Explanation, Vec<Diagnostic>> {
    let program = crate::compile::compile_static(project, root)?;
    Ok(flatten(project, root, &program))
}

/// [`explain`], freeing the tree of each of the root's statements once it
/// is compiled ([`crate::compile::compile_static_releasing`]): the project
/// holds no statements for the root afterwards.
pub fn explain_releasing(
    project: &mut Project,
    root: usize,
) -> Result<Explanation, Vec<Diagnostic>> {
    let program = crate::compile::compile_static_releasing(project, root)?;
    Ok(flatten(project, root, &program))
}

/// The explanation of `program`, root `root` compiled. A program compiled
/// for evaluation explains like the static one: the two compiles differ
/// only for a root param without a default, which the compile for
/// evaluation refuses.
pub fn flatten(project: &Project, root: usize, program: &Program) -> Explanation {
    flatten_counted(counts(project, root), program)
}

/// [`flatten`] of a program whose root compiled in `policies` policies and
/// `modules` modules ([`counts`]), without the project.
pub fn flatten_counted((policies, modules): (usize, usize), program: &Program) -> Explanation {
    let decision_name = |d: usize| -> Rc<str> {
        program
            .kind
            .decisions
            .get(d)
            .map_or_else(|| Rc::from(""), |d| Rc::from(d.name.as_str()))
    };
    let rules = program.rules.iter().map(|r| Entry {
        reason: r.reason.clone(),
        chain: r.sites.clone(),
        conditions: r.conditions.clone(),
        what: What::Rule {
            decision: decision_name(r.decision),
            payload: r.payload_texts.clone(),
        },
    });
    let asserts = program.asserts.iter().map(|a| Entry {
        reason: a.reason.clone(),
        chain: a.sites.clone(),
        conditions: a.conditions.clone(),
        what: What::Assert {
            phase: match a.reads_outcome {
                true => Phase::Outcome,
                false => Phase::Input,
            },
            check: a.check.clone(),
        },
    });
    Explanation {
        policy: program.policy.clone(),
        policies,
        modules,
        entries: rules.chain(asserts).collect(),
    }
}

/// How many documents the root compiled in are policies and how many are
/// modules. The reference counts the root and every document it imports,
/// then walks its body for invoked policies not counted yet, with their
/// imports; as invoking a policy takes importing it, that walk never adds
/// one, and the count is the root and its own imports, each once (tooling
/// §5.1: a module only an invoked policy imports isn't counted).
pub fn counts(project: &Project, root: usize) -> (usize, usize) {
    let mut counted = vec![root];
    let imports = project.docs.get(root).map_or(&[][..], |d| &d.imports);
    for &doc in imports {
        if !counted.contains(&doc) {
            counted.push(doc);
        }
    }
    let policies = counted
        .iter()
        .filter(|&&d| project.docs.get(d).is_none_or(|d| d.is_policy))
        .count();
    (policies, counted.len() - policies)
}
