//! The `explain` op (module-abi §4.5): the explanation compile stored under
//! a handle, or the explanations of the policies of files. Both ways write
//! the same record, so explaining one policy by its handle, by its files
//! and by a pattern selecting it answer byte for byte alike.

use std::rc::Rc;

use super::project::{
    FIX_HELP, load_project, own_policies, sort_by_name, unknown_handle, unless_broken,
    with_diagnostics,
};
use crate::abi::error::EngineError;
use crate::abi::instance::{Compiled, Instance};
use crate::abi::op_request::ExplainRequest;
use crate::abi::response::Success;
use crate::bundle::Project;
use crate::diag::go_quote;
use crate::explain::Explanation;

/// §4.5: by `handle`, or by `files` (with `trusted_files` and a `policy`
/// pattern), not both.
pub(super) fn explain(
    instance: &Instance,
    request: &mut ExplainRequest<'_>,
) -> Result<Success, EngineError> {
    if request.handle == 0 {
        let mut project = load_project(&mut request.files, &[])?;
        let explanations = explain_files(&mut project, &request.policy)?;
        return Ok(Success::Explained(
            explanations.into_iter().map(Rc::new).collect(),
        ));
    }
    if !request.files.files.is_empty() {
        return Err(EngineError::rejected(
            "explain takes a handle or files, not both".to_owned(),
            "explain a compiled policy by its handle, or the policies of files".to_owned(),
        ));
    }
    let explanation = instance
        .with_program(request.handle, Compiled::explanation)
        .ok_or_else(|| unknown_handle(request.handle))?;
    Ok(Success::Explained(vec![explanation]))
}

/// The explanations of the roots `pattern` picks, each compiled statically
/// in the scope of what it uses: errors in documents no root uses don't
/// stop them. One root's statements are freed as they compile (another
/// root may invoke a root, so with several none are).
fn explain_files(project: &mut Project, pattern: &str) -> Result<Vec<Explanation>, EngineError> {
    let roots = roots(project, pattern).map_err(|e| unless_broken(project, e, "explained"))?;
    let names: Vec<String> = roots
        .iter()
        .filter_map(|&i| project.docs.get(i).map(|d| d.name.clone()))
        .collect();
    let scope = project
        .scope(&names.iter().map(String::as_str).collect::<Vec<_>>())
        .map_err(|e| EngineError::rejected(e.message, e.help))?;
    let errors = project.errors_in(&scope);
    if !errors.is_empty() {
        return Err(with_diagnostics(
            "the policies to explain don't check, so nothing was explained".to_owned(),
            FIX_HELP,
            project,
            errors,
        ));
    }
    let single = roots.len() == 1;
    roots
        .iter()
        .zip(&names)
        .map(|(&root, name)| {
            let explained = match single {
                true => {
                    crate::abi::freeing_stage(|| crate::explain::explain_releasing(project, root))
                }
                false => crate::explain::explain(project, root),
            };
            explained.map_err(|diagnostics| {
                with_diagnostics(
                    format!("policy {name} doesn't compile, so it wasn't explained"),
                    FIX_HELP,
                    project,
                    diagnostics,
                )
            })
        })
        .collect()
}

/// The policies to explain, sorted by name: every one outside the trusted
/// files, or those `pattern` matches.
fn roots(project: &Project, pattern: &str) -> Result<Vec<usize>, EngineError> {
    let mut roots = own_policies(project);
    if !pattern.is_empty() {
        let matched = project.matching(&[pattern]);
        roots.retain(|i| matched.contains(i));
    }
    sort_by_name(project, &mut roots);
    match (roots.is_empty(), pattern) {
        (false, _) => Ok(roots),
        (true, "") => Err(EngineError::rejected(
            "the bundle holds no policies".to_owned(),
            "send a file that holds one".to_owned(),
        )),
        (true, pattern) => Err(EngineError::rejected(
            format!("no policy matches {}", go_quote(pattern)),
            project.defines_help(),
        )),
    }
}
