//! Test files (tooling §7): YAML files named `*_test.yaml` or
//! `*_test.yml` that name a policy and list cases, each an input and what
//! evaluating the policy on it must give, with stubs for host functions.
//!
//! This module reads a file's shape, which needs no kind: [`read_test_file`]
//! gives a [`TestFile`] or the [`FileError`] that stops the file before
//! anything runs (tooling §7.5 step 1), and [`TestFile::case_problems`] the
//! problems of step 4 that need only the kind's name and collect mode.
//! Values (inputs, expected payloads) stay [`Data`] and stub values
//! [`crate::yaml::Node`]s, for the decoder to read by the kind's types. Stubs have the
//! same format in a compile request, read by [`read_stubs`].
//!
//! Where things are: `read.rs` (walking a file's tree), `stubs.rs` (the
//! stubs format, shared with the compile op), this file (the structures,
//! the problems and their texts).

mod read;
mod stubs;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;

pub use stubs::{Answer, COMPILE_STUBS_HELP, Call, Stub, Stubs, read_stubs};

use crate::data::Data;
use crate::diag::{did_you_mean, go_quote, merge_help};
use crate::yaml::{YamlError, YamlProblem, parse_node};

/// The help of a file error about the file's shape (tooling §7.5 step 1).
pub const TEST_FILE_HELP: &str = "a test file holds `policy:` and a list of `cases:`, each with `name`, `input` or `input_file`, and `expect`";

/// A test file that read: its policy named, its stubs of the right shape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TestFile {
    /// The root policy the cases evaluate; never empty.
    pub policy: String,
    /// The stubs every case gets.
    pub stubs: Stubs,
    /// The cases, in file order.
    pub cases: Vec<Case>,
}

/// One case of a test file.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// Its name; empty when it has none (a problem of step 4).
    pub name: String,
    /// The line of the case's mapping, its first key's (tooling §7.2).
    pub line: u32,
    /// Its input.
    pub input: Input,
    /// What it expects.
    pub expect: Expect,
    /// Its own stubs, each replacing the file's stub of its function
    /// ([`Stubs::overridden_by`]).
    pub stubs: Stubs,
}

/// Where a case's input comes from: exactly one of `input:` (not null) and
/// `input_file:` (not empty), or a problem of step 4.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    /// `input:`, inline.
    Inline(Data),
    /// `input_file:`, a path relative to the test file's directory.
    File(String),
    /// Neither is given.
    Missing,
    /// Both are given.
    Both,
}

/// What a case expects (tooling §7.3): the form its keys choose.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// `decision:` and `reason:` (either may be empty, a problem of step
    /// 4), with the payload fields listed (`payload:`).
    Decision(ExpectedEntry),
    /// `outcome:`, for a `collect all` kind; `outcome: []` expects nothing.
    Outcome(Vec<ExpectedEntry>),
    /// `asserts:`, the reasons of the asserts that fail (empty: a problem
    /// of step 4).
    Asserts(Vec<String>),
    /// `error:`, text the runtime error's message contains (empty: a
    /// problem of step 4).
    Error(String),
    /// None of the forms, or several: a problem of step 4.
    NotOneForm,
}

/// One expected outcome entry: a decision, its reason, and the payload
/// fields to check (not the others).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExpectedEntry {
    /// The decision; empty when not given.
    pub decision: String,
    /// The reason; empty when not given.
    pub reason: String,
    /// The payload fields listed, in the order written.
    pub payload: Vec<(String, Data)>,
}

/// Reads a test file (tooling §7.2–§7.4): every problem of its shape, or
/// the structures the runner needs. The order of the checks is the spec's
/// (§7.5 step 1): a YAML syntax error; else the stubs of the wrong shape,
/// the file's and every case's; else the keys the format doesn't define,
/// values of the wrong type and keys given twice; else a null case; else a
/// file that names no policy.
pub fn read_test_file(text: &str) -> Result<TestFile, FileError> {
    let root = parse_node(text).map_err(FileError::Syntax)?;
    read::read(root.as_ref())
}

/// Why a test file can't run at all (tooling §7.5 step 1).
#[derive(Clone, Debug, PartialEq)]
pub enum FileError {
    /// The file isn't YAML.
    Syntax(YamlError),
    /// Problems with the file's shape, in document order.
    Shape(Vec<ShapeError>),
    /// Stubs of the wrong shape, the file's and every case's, sorted by
    /// line.
    Stubs(Vec<Problem>),
    /// `case «n» is null`: the first null case, counting from 1.
    NullCase(usize),
    /// No `policy:`, or an empty one.
    NoPolicy,
}

impl FileError {
    /// The problems, each rendered by [`Problem::render`].
    pub fn problems(&self) -> Vec<Problem> {
        let file_level = |message: String, help: &str| {
            vec![Problem {
                line: 0,
                case: None,
                message,
                help: Some(help.to_owned()),
            }]
        };
        match self {
            FileError::Syntax(error) => {
                file_level(format!("not a valid test file: {error}"), TEST_FILE_HELP)
            }
            FileError::Shape(errors) => {
                let message = errors
                    .iter()
                    .map(ShapeError::to_string)
                    .collect::<Vec<_>>()
                    .join("; ");
                // A misspelled key gets its suggestion in front of the
                // spec's help; the message keeps the spec's form.
                let mut suggestions: Vec<String> = Vec::new();
                for error in errors {
                    if let ShapeProblem::UnknownKey { key, place, .. } = &error.problem {
                        if let Some(hint) = did_you_mean(key, place.keys().iter().copied()) {
                            if !suggestions.contains(&hint) {
                                suggestions.push(hint);
                            }
                        }
                    }
                }
                suggestions.push(TEST_FILE_HELP.to_owned());
                file_level(
                    format!("not a valid test file: {message}"),
                    &merge_help(&suggestions),
                )
            }
            FileError::Stubs(problems) => problems.clone(),
            FileError::NullCase(n) => file_level(
                format!("case {n} is null"),
                "each case must be an object with name, input or input_file, and expect",
            ),
            FileError::NoPolicy => file_level(
                "the test file names no policy".to_owned(),
                "add `policy: <name>` for the policy its cases evaluate",
            ),
        }
    }

    /// The record's `error` text (tooling §7.6): each problem rendered for
    /// `file`, joined by line breaks.
    pub fn render(&self, file: &str) -> String {
        render_all(&self.problems(), file)
    }
}

/// Problems rendered for `file`, one per line.
pub fn render_all(problems: &[Problem], file: &str) -> String {
    problems
        .iter()
        .map(|p| p.render(file))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A problem with a test file or its stubs, where it is, and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line; 0 when the problem is about no line.
    pub line: u32,
    /// The case it is in, by name; `None` (or empty) for the file.
    pub case: Option<String>,
    /// What is wrong.
    pub message: String,
    /// What to do.
    pub help: Option<String>,
}

impl Problem {
    /// `«message» («help»)`, or the message alone: how a compile request
    /// shows a stub problem, after `stubs: ` (module-abi §4.3).
    pub fn text(&self) -> String {
        match &self.help {
            Some(help) if !help.is_empty() => format!("{} ({help})", self.message),
            _ => self.message.clone(),
        }
    }

    /// `«file»:«line»: case "«name»": «message» («help»)`, the line, case
    /// and help left out when unknown (tooling §7.5).
    pub fn render(&self, file: &str) -> String {
        let mut out = file.to_owned();
        if self.line > 0 {
            out.push_str(&format!(":{}", self.line));
        }
        if let Some(case) = self.case.as_deref().filter(|c| !c.is_empty()) {
            out.push_str(&format!(": case {}", go_quote(case)));
        }
        out.push_str(": ");
        out.push_str(&self.text());
        out
    }
}

/// A problem with a test file's shape and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What is wrong.
    pub problem: ShapeProblem,
}

impl fmt::Display for ShapeError {
    /// `line 5: unknown key "expcet" in a case`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

/// What is wrong with a test file's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeProblem {
    /// `expcet:` in a case: a key the format doesn't define there.
    UnknownKey {
        /// The key as written.
        key: String,
        /// Where.
        place: Place,
        /// The key of that place nearest to it.
        suggestion: Option<&'static str>,
    },
    /// `cases: 5`: a value of the wrong type.
    WrongType {
        /// What has it: `cases`, `a case`, `an assert`.
        what: &'static str,
        /// What it must be: `a list`.
        expected: &'static str,
        /// What it is: `a number`.
        found: &'static str,
    },
    /// A mapping that gives a key twice (the file's, a case's, or one
    /// inside an input or payload).
    Yaml(YamlProblem),
}

impl fmt::Display for ShapeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeProblem::UnknownKey { key, place, .. } => {
                write!(f, "unknown key {} in {place}", go_quote(key))
            }
            ShapeProblem::WrongType {
                what,
                expected,
                found,
            } => write!(f, "{what} must be {expected}, found {found}"),
            ShapeProblem::Yaml(problem) => problem.fmt(f),
        }
    }
}

/// The mappings of a test file whose keys are fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The top level: `policy`, `stubs`, `cases`.
    File,
    /// A case: `name`, `input`, `input_file`, `expect`, `stubs`.
    Case,
    /// An `expect`: `decision`, `reason`, `payload`, `outcome`, `asserts`,
    /// `error`.
    Expect,
    /// An entry of `outcome`: `decision`, `reason`, `payload`.
    OutcomeEntry,
}

impl Place {
    /// The keys the place takes, in the order the spec lists them.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            Place::File => &["policy", "stubs", "cases"],
            Place::Case => &["name", "input", "input_file", "expect", "stubs"],
            Place::Expect => &[
                "decision", "reason", "payload", "outcome", "asserts", "error",
            ],
            Place::OutcomeEntry => &["decision", "reason", "payload"],
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Place::File => "the file",
            Place::Case => "a case",
            Place::Expect => "an expect",
            Place::OutcomeEntry => "an outcome entry",
        })
    }
}

impl TestFile {
    /// The problems of tooling §7.5 step 4 that need of the kind only its
    /// name and whether it collects all: for each case, in file order, a
    /// missing or repeated name, the input not given exactly once, and an
    /// expectation of no form, of the form the kind's collect mode doesn't
    /// take, or empty. The caller adds after each case's list the problems
    /// of its expected decisions, reasons and payload fields and of its
    /// stubs bound to the kind, and puts the file's stub problems first.
    pub fn case_problems(&self, kind: &str, collects_all: bool) -> Vec<Vec<Problem>> {
        let mut first_line: HashMap<&str, u32> = HashMap::new();
        self.cases
            .iter()
            .map(|case| {
                let mut problems = Vec::new();
                let mut add = |message: String, help: String| {
                    problems.push(Problem {
                        line: case.line,
                        case: Some(case.name.clone()),
                        message,
                        help: Some(help),
                    });
                };
                if case.name.is_empty() {
                    add(
                        "case has no name".to_owned(),
                        "every case needs a name, which `--run` matches and failures report".to_owned(),
                    );
                } else if let Some(first) = first_line.get(case.name.as_str()) {
                    add(
                        format!("case {} is defined twice", go_quote(&case.name)),
                        format!("the first is on line {first}; give each case its own name"),
                    );
                } else {
                    first_line.insert(&case.name, case.line);
                }
                if matches!(case.input, Input::Missing | Input::Both) {
                    add(
                        "case needs exactly one of input and input_file".to_owned(),
                        "give the input inline with `input:`, or name a JSON file with `input_file:`".to_owned(),
                    );
                }
                match &case.expect {
                    Expect::NotOneForm => add(
                        "case must expect exactly one of decision, outcome, asserts and error".to_owned(),
                        "expect a decision with its reason, an outcome for a collect all kind, the asserts that fail, or the runtime error the evaluation fails with".to_owned(),
                    ),
                    Expect::Outcome(_) if !collects_all => add(
                        format!("outcome is for collect all kinds, and {kind} collects one"),
                        "a collect one kind decides once; expect `decision:` and `reason:`".to_owned(),
                    ),
                    Expect::Decision(entry) if collects_all && !entry.decision.is_empty() => add(
                        format!("{kind} collects all, so expect an outcome"),
                        "a collect all kind returns every decision that fired; list them under `outcome:`".to_owned(),
                    ),
                    Expect::Asserts(reasons) if reasons.is_empty() => add(
                        "asserts is empty".to_owned(),
                        "name the reasons of the asserts that should fail".to_owned(),
                    ),
                    Expect::Error(text) if text.is_empty() => add(
                        "error is empty".to_owned(),
                        "give text the runtime error's message contains, like `error: host function owner failed`".to_owned(),
                    ),
                    _ => {}
                }
                problems
            })
            .collect()
    }
}
