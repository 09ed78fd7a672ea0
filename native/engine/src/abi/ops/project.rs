//! What several ops share: the project of a request's files, the
//! policies a request may pick as roots, and the failures several ops
//! answer: an unknown handle, the bundle's diagnostics, a requirement's
//! refusal.

use std::borrow::Cow;

use crate::abi::diagnostic_record::{DiagnosticRecord, records};
use crate::abi::error::EngineError;
use crate::abi::op_request::Files;
use crate::abi::request::File;
use crate::bundle::{FileInput, Project, named_files};
use crate::diag::Diagnostic;
use crate::require::{self, Refusal, Requirement};

/// The help of a failure carrying the bundle's errors.
pub(super) const FIX_HELP: &str =
    "fix the errors in the diagnostics; the check op reports every problem in a bundle at once";

const HANDLE_HELP: &str = "pass a handle compile returned, before releasing it";

/// The failure of an op given a handle no compiled policy has.
pub(super) fn unknown_handle(handle: u32) -> EngineError {
    EngineError::rejected(
        format!("no compiled policy has handle {handle}"),
        HANDLE_HELP.to_owned(),
    )
}

/// A requirement that can't be enforced as written fails the request.
pub(super) fn refused(refusal: Refusal) -> EngineError {
    EngineError::rejected(refusal.message, refusal.help)
}

/// The request's files and trusted files, parsed, indexed and checked;
/// files below a requirement's trusted path count as trusted. The project
/// takes the sources: the request's copies (decoded from the JSON) are
/// dropped before the trees are built beside them.
pub(super) fn load_project(
    request: &mut Files<'_>,
    requirements: &[Requirement],
) -> Result<Project, EngineError> {
    if request.files.is_empty() {
        return Err(EngineError::no_files());
    }
    let files = named_files(&inputs(&request.files), &inputs(&request.trusted))
        .map_err(|e| EngineError::rejected(e.message, e.help))?;
    for file in request.files.iter_mut().chain(request.trusted.iter_mut()) {
        file.source = Cow::Borrowed("");
    }
    Ok(Project::load(require::move_into_trusted(
        requirements,
        files,
    )))
}

/// The files of one list as the bundle takes them.
pub(super) fn inputs<'r>(list: &'r [File<'_>]) -> Vec<FileInput<'r>> {
    list.iter()
        .map(|f| FileInput {
            path: f.path.as_ref(),
            source: f.source.as_ref(),
        })
        .collect()
}

/// The bundle's policies outside the trusted files, by number in
/// [`Project::docs`]: the ones a request may pick as roots.
pub(super) fn own_policies(project: &Project) -> Vec<usize> {
    (0..project.docs.len())
        .filter(|&i| {
            project
                .docs
                .get(i)
                .is_some_and(|d| d.is_policy && !d.trusted)
        })
        .collect()
}

/// `docs` (by number in [`Project::docs`]) sorted by their documents'
/// names.
pub(super) fn sort_by_name(project: &Project, docs: &mut [usize]) {
    docs.sort_by(|&a, &b| {
        let name = |i: usize| project.docs.get(i).map(|d| d.name.as_str());
        name(a).cmp(&name(b))
    });
}

/// `error`, the failure to pick roots, unless the bundle has problems: a
/// policy may be missing because its document or kind doesn't check, so
/// they are the failure then (`the bundle doesn't check, so nothing was
/// «done»`).
pub(super) fn unless_broken(project: &Project, error: EngineError, done: &str) -> EngineError {
    match project.diagnostics.is_empty() {
        true => error,
        false => with_diagnostics(
            format!("the bundle doesn't check, so nothing was {done}"),
            FIX_HELP,
            project,
            project.diagnostics.clone(),
        ),
    }
}

/// A failure carrying diagnostics, resolved as check resolves them.
pub(super) fn with_diagnostics(
    message: String,
    help: &str,
    project: &Project,
    mut diagnostics: Vec<Diagnostic>,
) -> EngineError {
    crate::diag::sort(&mut diagnostics);
    let records: Vec<DiagnosticRecord> = records(project, diagnostics);
    EngineError::with_diagnostics(message, help.to_owned(), records)
}
