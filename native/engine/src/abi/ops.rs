//! The ops (module-abi.md §4), one function each, chosen by the request's
//! `op`. An op takes its own typed request and answers a [`Success`] or an
//! [`EngineError`].

use super::error::EngineError;
use super::op_request::{CheckRequest, Files, FormatRequest, OpRequest};
use super::request::File;
use super::response::{DiagnosticRecord, Record, Success};
use crate::bundle::{FileInput, Project, named_files};
use crate::diag::Diagnostic;
use crate::format::{FormatError, format_source};
use crate::lint::Levels;
use crate::require::{self, Refusal, Requirement};
use crate::source::LineIndex;

/// Runs the request's op.
pub(crate) fn run(request: OpRequest<'_>) -> Result<Success, EngineError> {
    match request {
        OpRequest::Version => Ok(version()),
        OpRequest::Check(request) => check(&request),
        OpRequest::Compile(request) => super::policy_ops::compile(&request),
        OpRequest::Eval(request) => super::policy_ops::eval(&request),
        OpRequest::Explain(request) => super::explain_op::explain(&request),
        OpRequest::Format(request) => format(&request),
        OpRequest::Test(request) => super::test_op::test(&request),
        OpRequest::Release(handle) => super::policy_ops::release(handle),
        #[cfg(any(test, feature = "panic-probe"))]
        OpRequest::PanicProbe => panic_probe(),
        OpRequest::Unknown(op) => Err(EngineError::unknown_op(&op)),
    }
}

/// §4.1: the build of the engine. It takes no fields.
fn version() -> Success {
    Success::Version
}

/// §4.2: every problem of the files, as `sigil check -o json` reports
/// them. Finding errors is a result (`ok: true`); a request whose lints,
/// files, requirements or patterns can't be used fails, in the order the
/// spec lists those failures.
fn check(request: &CheckRequest<'_>) -> Result<Success, EngineError> {
    let lints = request.lints.iter().map(|(k, v)| (k.as_ref(), v.as_ref()));
    let levels = Levels::configured(lints).map_err(|e| EngineError::rejected(e.message, e.help))?;
    let requirements = requirements(request);
    let paths = request.files.files.iter().chain(&request.files.trusted);
    require::check_trusted_paths(&requirements, paths.map(|f| f.path.as_ref())).map_err(refused)?;
    let project = load_project(&request.files, &requirements)?;
    require::check_named(&requirements, "deploy.guardrails").map_err(refused)?;
    let patterns: Vec<&str> = request.policies.iter().map(AsRef::as_ref).collect();
    let scope = project
        .scope(&patterns)
        .map_err(|e| EngineError::rejected(e.message, e.help))?;
    let mut diagnostics = project.in_scope(&scope);
    if !diagnostics.iter().any(Diagnostic::is_error) {
        let narrow = (!patterns.is_empty()).then(|| project.matching(&patterns));
        diagnostics
            .extend(require::enforce(&project, &requirements, narrow.as_deref()).map_err(refused)?);
        let required: Vec<&str> = requirements.iter().map(|r| r.policy.as_str()).collect();
        diagnostics.extend(crate::lint::findings(&project, &scope, &levels, &required));
        crate::diag::sort(&mut diagnostics);
    }
    Ok(Success::Check {
        diagnostics: records(&project, diagnostics),
    })
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

/// A requirement that can't be enforced as written fails the request.
pub(super) fn refused(refusal: Refusal) -> EngineError {
    EngineError::rejected(refusal.message, refusal.help)
}

/// The request's files and trusted files, parsed, indexed and checked;
/// files below a requirement's trusted path count as trusted.
pub(super) fn load_project(
    request: &Files<'_>,
    requirements: &[Requirement],
) -> Result<Project, EngineError> {
    if request.files.is_empty() {
        return Err(EngineError::no_files());
    }
    let files = named_files(&inputs(&request.files), &inputs(&request.trusted))
        .map_err(|e| EngineError::rejected(e.message, e.help))?;
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

/// The records of `diagnostics`, positions resolved in their files.
pub(super) fn records(project: &Project, diagnostics: Vec<Diagnostic>) -> Vec<DiagnosticRecord> {
    // Indexed only when a diagnostic points into the file: a clean check
    // indexes nothing.
    let mut indexes: Vec<Option<LineIndex<'_>>> = project.files.iter().map(|_| None).collect();
    let empty = LineIndex::new("");
    diagnostics
        .into_iter()
        .map(|d| {
            let file = project
                .files
                .iter()
                .position(|f| Some(f.path.as_str()) == d.file.as_deref());
            let index = file.and_then(|i| {
                let source = &project.files.get(i)?.source;
                Some(
                    &*indexes
                        .get_mut(i)?
                        .get_or_insert_with(|| LineIndex::new(source)),
                )
            });
            DiagnosticRecord::new(d, index.unwrap_or(&empty))
        })
        .collect()
}

/// Where a format request's diagnostics say they are without a `path`.
const STDIN: &str = "<stdin>";

/// §4.6: `source` in the canonical style (tooling §4), and whether it was
/// already. A source that doesn't parse fails with its syntax errors, in the
/// file `path` (default `<stdin>`, used as given).
fn format(request: &FormatRequest<'_>) -> Result<Success, EngineError> {
    let Some(source) = request.source.as_deref() else {
        return Err(EngineError::format_needs_source());
    };
    let path = match request.path.as_ref() {
        "" => STDIN,
        path => path,
    };
    match format_source(path, source) {
        Ok(out) => {
            let formatted = out == source;
            Ok(Success::Format {
                source: out,
                formatted,
            })
        }
        Err(FormatError::Syntax(diagnostics)) => {
            let index = LineIndex::new(source);
            let records = diagnostics
                .into_iter()
                .map(|d| Box::new(DiagnosticRecord::new(d, &index)) as Box<dyn Record>)
                .collect();
            Err(EngineError::syntax_errors(path, records))
        }
        Err(unsound) => Err(EngineError::format_unsound(path, &unsound)),
    }
}

#[cfg(any(test, feature = "panic-probe"))]
#[expect(clippy::panic, reason = "this op exists to panic")]
fn panic_probe() -> Result<Success, EngineError> {
    panic!("the panic-probe op panics on purpose")
}
