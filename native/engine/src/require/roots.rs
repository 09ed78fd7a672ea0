//! The roots a requirement applies to (tooling §3.3): the policies its
//! `roots` patterns match, or else every policy of the required policy's
//! kind that no other policy invokes; never a trusted policy, never a
//! required one, and always of the required policy's kind.

use super::{Refusal, Requirement, place};
use crate::bundle::Project;
use crate::diag::go_quote;

/// The roots of requirement `i`, whose policy is document `required_doc`;
/// `required` names every required policy of the request.
pub(super) fn of(
    project: &Project,
    i: usize,
    requirement: &Requirement,
    required_doc: usize,
    required: &[&str],
) -> Result<Vec<usize>, Refusal> {
    let kind = project.docs.get(required_doc).and_then(|d| d.kind);
    let candidate = |d: usize| {
        project.docs.get(d).is_some_and(|doc| {
            doc.is_policy && !doc.trusted && !required.contains(&doc.name.as_str())
        })
    };
    let of_kind = |d: &usize| project.docs.get(*d).is_some_and(|doc| doc.kind == kind);
    let Some(patterns) = &requirement.roots else {
        let invoked = invoked_names(project);
        return Ok((0..project.docs.len())
            .filter(|&d| candidate(d))
            .filter(of_kind)
            .filter(|&d| {
                project
                    .docs
                    .get(d)
                    .is_some_and(|doc| !invoked.contains(&doc.name.as_str()))
            })
            .collect());
    };
    let mut matched: Vec<usize> = Vec::new();
    for pattern in patterns {
        let hits = project.matching(&[pattern.as_str()]);
        if hits.is_empty() {
            return Err(Refusal {
                message: format!(
                    "{}: roots of {}: no policy matches {}",
                    place(i),
                    requirement.policy,
                    go_quote(pattern)
                ),
                help: project.defines_help(),
            });
        }
        matched.extend(hits);
    }
    matched.sort_unstable();
    matched.dedup();
    let roots: Vec<usize> = matched.into_iter().filter(of_kind).collect();
    if roots.is_empty() {
        let kind_name = project
            .docs
            .get(required_doc)
            .map_or("", |d| project.kind_name_of(d));
        return Err(Refusal {
            message: format!(
                "{}: roots of {} match no {kind_name} policy",
                place(i),
                requirement.policy
            ),
            help: format!(
                "a required policy applies to the roots of its own kind; name {kind_name} policies in roots:"
            ),
        });
    }
    Ok(roots.into_iter().filter(|&d| candidate(d)).collect())
}

/// The names of every policy some document invokes, under `when` or not.
fn invoked_names(project: &Project) -> Vec<&str> {
    project
        .docs
        .iter()
        .flat_map(|d| d.facts.invocations.iter().map(|c| c.target.as_str()))
        .collect()
}
