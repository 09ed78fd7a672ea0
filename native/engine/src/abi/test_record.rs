//! The test record (module-abi §4.7, tooling §7.6) after the envelope:
//! `results`, one TestResult per test file, each with its CaseResults.

use super::writer::Json;
use crate::testrun::{CaseResult, TestResult};

/// Writes `,"results":[…]` for `results`, in their order.
pub(crate) fn write(json: &mut Json, results: &[TestResult]) {
    json.member("results");
    json.list(results, write_result);
}

/// A TestResult record: `file`, `policy`, `error` (when the file couldn't
/// run), `cases` (never null).
fn write_result(json: &mut Json, result: &TestResult) {
    json.raw("{\"file\":");
    json.string(&result.file);
    json.member("policy");
    json.string(&result.policy);
    if let Some(error) = &result.error {
        json.member("error");
        json.string(error);
    }
    json.member("cases");
    json.list(&result.cases, write_case);
    json.raw("}");
}

/// A CaseResult record: `name`, `error` and `failures` when there are
/// some, `line`, `passed`.
fn write_case(json: &mut Json, case: &CaseResult) {
    json.raw("{\"name\":");
    json.string(&case.name);
    if let Some(error) = &case.error {
        json.member("error");
        json.string(error);
    }
    if !case.failures.is_empty() {
        json.member("failures");
        json.strings(&case.failures);
    }
    json.member("line");
    json.raw(&case.line.to_string());
    json.member("passed");
    json.raw(if case.passed() { "true" } else { "false" });
    json.raw("}");
}
