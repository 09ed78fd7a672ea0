//! Running a test file against a project (tooling §7.5, §7.6): what `sigil
//! test` does for one `*_test.yaml`, giving its [`TestResult`].
//!
//! The steps, in the spec's order, each stopping the file with its
//! `error` when it fails: read the file (`testfile`); find the policy it
//! names; check the policy's scope (itself, what it uses, the kind
//! documents); validate every case and every stub against the kind (all
//! cases, even those the caller doesn't select); compile the policy; then
//! run each selected case: its stubs over the file's, its input (inline or
//! a data file), one evaluation without a deadline, and the comparison
//! with what it expects. A case that can't run or doesn't get what it
//! expects is a result, never a failure of the run.
//!
//! Where things are: `validate.rs` (step 4's problems of expected
//! decisions, reasons and payload fields), `compare.rs` (the comparison
//! and its failure sentences), this file (the steps and the records).

mod compare;
mod validate;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use crate::bundle::{Project, clean};
use crate::data::{Data, Syntax, parse_json};
use crate::diag::{Diagnostic, Severity};
use crate::eval::Unbound;
use crate::input::decode_input;
use crate::kind::Kind;
use crate::program::Program;
use crate::stubs::{BoundStubs, StubHost, bind};
use crate::testfile::{Case, Input, Problem, TestFile, read_test_file, render_all};
use crate::value::Value;
use crate::yaml::parse_yaml;

/// The result of one test file (tooling §7.6 TestResult).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResult {
    /// The test file's path.
    pub file: String,
    /// The policy the file names; empty when the file couldn't be read.
    pub policy: String,
    /// Why none of its cases ran.
    pub error: Option<String>,
    /// The selected cases, in file order; empty when the file couldn't
    /// run.
    pub cases: Vec<CaseResult>,
}

/// The result of one case (tooling §7.6 CaseResult).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// Why the case couldn't run: its input can't be read or doesn't fit
    /// the kind.
    pub error: Option<String>,
    /// How the evaluation differs from what the case expects.
    pub failures: Vec<String>,
    /// The case's line in its file.
    pub line: u32,
}

impl CaseResult {
    /// Whether the case ran and got what it expects.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.failures.is_empty()
    }
}

/// Data files by cleaned path: what a case's `input_file` names.
pub type DataFiles = BTreeMap<String, String>;

/// Runs the test file at `path` (cleaned) holding `source` against
/// `project`: the cases `select` accepts by name, in file order.
pub fn run_test_file(
    project: &Project,
    path: &str,
    source: &str,
    data: &DataFiles,
    select: &dyn Fn(&str) -> bool,
) -> TestResult {
    let mut result = TestResult {
        file: path.to_owned(),
        policy: String::new(),
        error: None,
        cases: Vec::new(),
    };
    let test = match read_test_file(source) {
        Ok(test) => test,
        Err(error) => {
            result.error = Some(error.render(path));
            return result;
        }
    };
    result.policy = test.policy.clone();
    match prepare(project, path, &test) {
        Ok(ready) => {
            let run = Run {
                ready: &ready,
                test: &test,
                path,
                data,
            };
            result.cases = test
                .cases
                .iter()
                .filter(|case| select(&case.name))
                .map(|case| run.case(case))
                .collect();
        }
        Err(error) => result.error = Some(error),
    }
    result
}

/// What the cases of a file run with: the compiled policy and the file's
/// stubs, bound.
struct Ready {
    program: Program,
    stubs: BoundStubs,
}

/// Steps 2 to 5: the policy found, its scope clean, every case and stub
/// valid, the policy compiled; or the file's error.
fn prepare(project: &Project, path: &str, test: &TestFile) -> Result<Ready, String> {
    let name = test.policy.as_str();
    let Some(root) = project
        .docs
        .iter()
        .position(|d| d.is_policy && d.name == name)
    else {
        return Err(match project.diagnostics.is_empty() {
            true => render(
                project,
                &[Diagnostic::new(
                    Severity::Error,
                    None,
                    format!("bundle has no policy {name}"),
                )
                .with_help(project.defines_help())],
            ),
            false => render(project, &project.diagnostics),
        });
    };
    let scope = project.scope(&[name]).map_err(|e| e.message)?;
    let errors: Vec<Diagnostic> = project
        .in_scope(&scope)
        .into_iter()
        .filter(Diagnostic::is_error)
        .collect();
    if !errors.is_empty() {
        return Err(render(project, &errors));
    }
    let kind = project
        .docs
        .get(root)
        .and_then(|d| project.kind_of(d))
        .ok_or_else(|| format!("{path}: the kind of policy {name} doesn't load"))?;
    let stubs = validate::validate(test, kind).map_err(|problems| render_all(&problems, path))?;
    let program =
        crate::compile::compile(project, root).map_err(|diagnostics| {
            match diagnostics.is_empty() {
                true => format!("{path}: policy {name} doesn't compile"),
                false => render(project, &diagnostics),
            }
        })?;
    Ok(Ready { program, stubs })
}

/// Diagnostics in the plain text form, each quoting its line.
fn render(project: &Project, diagnostics: &[Diagnostic]) -> String {
    crate::diag::render_all(diagnostics, |file| {
        let file = file?;
        project
            .files
            .iter()
            .find(|f| f.path == file)
            .map(|f| &*f.source)
    })
}

/// The run of one file's cases.
struct Run<'r> {
    ready: &'r Ready,
    test: &'r TestFile,
    path: &'r str,
    data: &'r DataFiles,
}

impl Run<'_> {
    /// Step 6 for one case.
    fn case(&self, case: &Case) -> CaseResult {
        let mut result = CaseResult {
            name: case.name.clone(),
            error: None,
            failures: Vec::new(),
            line: case.line,
        };
        let program = &self.ready.program;
        let evaluated = self.inputs(case).and_then(|inputs| {
            let own;
            let stubs = match case.stubs.is_empty() {
                true => &self.ready.stubs,
                false => {
                    let merged = self.test.stubs.overridden_by(&case.stubs);
                    own = bind(&merged, &program.kind).map_err(|p| problems_text(&p))?;
                    &own
                }
            };
            let mut unbound = Unbound;
            let mut host = StubHost::new(stubs, &mut unbound);
            Ok(crate::eval::evaluate(program, &inputs, &mut host, None))
        });
        match evaluated {
            Ok(evaluation) => {
                result.failures = compare::compare(&case.expect, program, &evaluation);
            }
            Err(error) => result.error = Some(error),
        }
        result
    }

    /// The case's input, read and decoded by the kind; or the case's
    /// error.
    fn inputs(&self, case: &Case) -> Result<Vec<Value>, String> {
        let (data, syntax) = match &case.input {
            Input::Inline(data) => (data.clone(), Syntax::Yaml),
            Input::File(name) => self.input_file(name)?,
            Input::Missing | Input::Both => {
                return Err("case needs exactly one of input and input_file".to_owned());
            }
        };
        let kind: &Kind = &self.ready.program.kind;
        decode_input(&data, syntax, kind)
            .map_err(|e| with_help(format!("input {}", e.message), &e.advice))
    }

    /// The data file `name` names, relative to the test file's
    /// directory: YAML when its name ends in `.yaml` or `.yml`, else JSON.
    fn input_file(&self, name: &str) -> Result<(Data, Syntax), String> {
        let dir = self.path.rsplit_once('/').map_or(".", |(dir, _)| dir);
        let path = clean(&format!("{dir}/{name}"));
        let Some(text) = self.data.get(&path) else {
            return Err(with_help(
                format!("input_file {name} couldn't be read"),
                "input_file is relative to the test file",
            ));
        };
        let parsed = match path.ends_with(".yaml") || path.ends_with(".yml") {
            true => parse_yaml(text)
                .map(|d| (d, Syntax::Yaml))
                .map_err(|e| format!("yaml: {e}")),
            false => parse_json(text.as_bytes()).map(|d| (d, Syntax::Json)),
        };
        parsed.map_err(|e| {
            with_help(
                format!("input_file {name} isn't valid: {e}"),
                "an input file is a JSON object, or YAML when its name ends in .yaml",
            )
        })
    }
}

/// `«message» («help»)`, or the message alone without help.
fn with_help(message: String, help: &str) -> String {
    match help.is_empty() {
        true => message,
        false => format!("{message} ({help})"),
    }
}

/// Stub problems as one case error. Binding a case's stubs over its
/// file's can't fail once both were validated; this says why if it did.
fn problems_text(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(Problem::text)
        .collect::<Vec<_>>()
        .join("; ")
}
