//! The `test` op (module-abi §4.7): test files run as `sigil test` runs
//! them against the request's files, one TestResult record per test file
//! in path order (tooling §7.6). The op fails only for what the command
//! line couldn't have sent: a `run` that isn't a regular expression, files
//! without paths or given twice with two sources, no test files, a test
//! file not named like one. A test file that can't run and a failing case
//! are results.

use std::collections::BTreeMap;

use super::project::inputs;
use crate::abi::error::EngineError;
use crate::abi::op_request::TestRequest;
use crate::abi::request::File;
use crate::abi::response::Success;
use crate::bundle::{Project, clean, named_files};
use crate::pattern::Regex;
use crate::testrun::run_test_file;

/// The help of a test or data file without a path.
const PATH_HELP: &str = "give every file a path, such as checkout/alerts_test.yaml; a case's input_file is relative to its test file's";

/// The suffixes that make a file a test file (a product rule).
const TEST_SUFFIXES: [&str; 2] = ["_test.yaml", "_test.yml"];

/// §4.7: runs every test file and answers their records.
pub(crate) fn test(request: &TestRequest<'_>) -> Result<Success, EngineError> {
    let filter = run_filter(&request.run)?;
    let mut claimed = Claimed::reserving(&request.files.files, &request.files.trusted);
    let mut tests = claimed.claim(&request.test_files, "test file")?;
    if tests.is_empty() {
        return Err(EngineError::rejected(
            "the request holds no test files".to_owned(),
            r#"send the test files as "test_files": [{"path": "checkout/alerts_test.yaml", "source": "..."}]"#.to_owned(),
        ));
    }
    if let Some((path, _)) = tests
        .iter()
        .find(|(path, _)| !TEST_SUFFIXES.iter().any(|s| path.ends_with(s)))
    {
        return Err(EngineError::rejected(
            format!("the test file {path} isn't named like one"),
            "a test file's name ends in _test.yaml or _test.yml; send other files a case reads as data_files".to_owned(),
        ));
    }
    let data: BTreeMap<String, String> = claimed
        .claim(&request.data_files, "data file")?
        .into_iter()
        .map(|(path, source)| (path, source.to_owned()))
        .collect();
    let files = named_files(
        &inputs(&request.files.files),
        &inputs(&request.files.trusted),
    )
    .map_err(|e| EngineError::rejected(e.message, e.help))?;
    let project = Project::load(files);
    tests.sort_by(|a, b| a.0.cmp(&b.0));
    let select = |name: &str| {
        filter
            .as_ref()
            .is_none_or(|re| re.is_match(name.as_bytes()))
    };
    let results = tests
        .iter()
        .map(|(path, source)| run_test_file(&project, path, source, &data, &select))
        .collect();
    Ok(Success::Test(results))
}

/// `run` compiled; `None` when it is empty (every case runs).
fn run_filter(run: &str) -> Result<Option<Regex>, EngineError> {
    if run.is_empty() {
        return Ok(None);
    }
    Regex::new(run.as_bytes()).map(Some).map_err(|e| {
        EngineError::rejected(
            format!("run isn't a valid regular expression: {e}"),
            "run takes a Go regular expression matched against case names".to_owned(),
        )
    })
}

/// The cleaned paths given so far, with their sources: a path may come
/// again with the same source (it is read once), never with another.
struct Claimed<'r> {
    paths: Vec<(String, &'r str)>,
}

impl<'r> Claimed<'r> {
    /// The paths of `files` and `trusted` (those that have one) reserved
    /// first, the first source of each kept; their own problems are
    /// reported after the test and data files'.
    fn reserving(files: &'r [File<'_>], trusted: &'r [File<'_>]) -> Self {
        let mut claimed = Claimed { paths: Vec::new() };
        for file in files.iter().chain(trusted).filter(|f| !f.path.is_empty()) {
            let path = clean(&file.path);
            if !claimed.paths.iter().any(|(p, _)| *p == path) {
                claimed.paths.push((path, &file.source));
            }
        }
        claimed
    }

    /// The files of one list under their cleaned paths, each once;
    /// `what` names the list's files in failures (`test file 2 has no
    /// path`).
    fn claim(
        &mut self,
        list: &'r [File<'_>],
        what: &str,
    ) -> Result<Vec<(String, &'r str)>, EngineError> {
        let mut out: Vec<(String, &'r str)> = Vec::new();
        for (i, file) in list.iter().enumerate() {
            if file.path.is_empty() {
                return Err(EngineError::rejected(
                    format!("{what} {} has no path", i.saturating_add(1)),
                    PATH_HELP.to_owned(),
                ));
            }
            let path = clean(&file.path);
            let source: &str = &file.source;
            if self.paths.iter().any(|(p, s)| *p == path && *s != source) {
                return Err(EngineError::rejected(
                    format!("{path} is given twice, with two sources"),
                    "send each file once".to_owned(),
                ));
            }
            if out.iter().any(|(p, _)| *p == path) {
                continue;
            }
            self.paths.push((path.clone(), source));
            out.push((path, source));
        }
        Ok(out)
    }
}
