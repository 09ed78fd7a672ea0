//! The `check` op (module-abi §4.2).

use super::project::{load_project, own_policies, refused, sort_by_name};
use crate::abi::diagnostic_record::records;
use crate::abi::error::EngineError;
use crate::abi::op_request::CheckRequest;
use crate::abi::response::Success;
use crate::bundle::{Project, Scope};
use crate::diag::Diagnostic;
use crate::lint::Levels;
use crate::require::{self, Requirement};

/// §4.2: every problem of the files, as `sigil check -o json` reports
/// them. Finding errors is a result (`ok: true`); a request whose lints,
/// files, requirements or patterns can't be used fails, in the order the
/// spec lists those failures.
pub(super) fn check(request: &mut CheckRequest<'_>) -> Result<Success, EngineError> {
    let lints = request.lints.iter().map(|(k, v)| (k.as_ref(), v.as_ref()));
    let levels = Levels::configured(lints).map_err(|e| EngineError::rejected(e.message, e.help))?;
    let requirements = requirements(request);
    let paths = request.files.files.iter().chain(&request.files.trusted);
    require::check_trusted_paths(&requirements, paths.map(|f| f.path.as_ref())).map_err(refused)?;
    let project = load_project(&mut request.files, &requirements)?;
    require::check_named(&requirements, "deploy.guardrails").map_err(refused)?;
    let patterns: Vec<&str> = request.policies.iter().map(AsRef::as_ref).collect();
    let scope = project
        .scope(&patterns)
        .map_err(|e| EngineError::rejected(e.message, e.help))?;
    let mut diagnostics = project.in_scope(&scope);
    if !diagnostics.iter().any(Diagnostic::is_error) {
        let narrow = (!patterns.is_empty()).then(|| project.matching(&patterns));
        let violations =
            require::enforce(&project, &requirements, narrow.as_deref()).map_err(refused)?;
        // Every policy in scope compiles statically, as the reference's
        // check does; a root is held to its requirements only once all
        // of them compile. The lints run either way: they read what the
        // checker learned.
        let compiled = crate::compile::static_errors(&project, &policies_in(&project, &scope));
        diagnostics.extend(match compiled.is_empty() {
            true => violations,
            false => compiled,
        });
        let required: Vec<&str> = requirements.iter().map(|r| r.policy.as_str()).collect();
        diagnostics.extend(crate::lint::findings(&project, &scope, &levels, &required));
        crate::diag::sort(&mut diagnostics);
    }
    Ok(Success::Check {
        diagnostics: records(&project, crate::diag::cap(diagnostics)),
    })
}

/// The policies outside the trusted files that `scope` holds, sorted by
/// name, by number in [`Project::docs`]: what a check compiles.
fn policies_in(project: &Project, scope: &Scope) -> Vec<usize> {
    let mut policies: Vec<usize> = own_policies(project)
        .into_iter()
        .filter(|&i| scope.contains(i))
        .collect();
    sort_by_name(project, &mut policies);
    policies
}

/// The request's `require`, as the requirement rules take it.
fn requirements(request: &CheckRequest<'_>) -> Vec<Requirement> {
    request
        .require
        .iter()
        .map(|r| {
            let trusted = r.trusted.iter().flatten().map(AsRef::as_ref);
            let roots = r
                .roots
                .as_ref()
                .map(|p| p.iter().map(|p| p.to_string()).collect());
            Requirement::new(&r.policy, trusted, roots)
        })
        .collect()
}
