//! The records the module answers with, field for field its JSON, with serde both ways.
//!
//! Written back with serde_json they give the JSON the Java library writes for the same record
//! (key order, and which empty fields are left out), so a Rust service and the Java server
//! hand out identical records.

use serde::{Deserialize, Serialize};
use serde_json::Value;

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn none_or_empty(s: &Option<String>) -> bool {
    s.as_deref().is_none_or(str::is_empty)
}

fn none_or_empty_object(v: &Option<Value>) -> bool {
    match v {
        None | Some(Value::Null) => true,
        Some(Value::Object(map)) => map.is_empty(),
        Some(Value::Array(list)) => list.is_empty(),
        Some(_) => false,
    }
}

/// A problem found in a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// `error` or `warning`.
    pub severity: String,
    /// The lint that reported it, for lint warnings.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub lint: Option<String>,
    /// The file's path.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub file: Option<String>,
    /// The document (policy, kind, module) it is in.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub document: Option<String>,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub help: Option<String>,
    /// Line, from 1; 0 when unknown.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: u32,
    /// Column, from 1; 0 when unknown.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub column: u32,
}

impl Diagnostic {
    /// `file:line:column: severity: message (help: help)`, as the reference command line prints it.
    pub fn render(&self) -> String {
        let mut text = String::new();
        if let Some(file) = &self.file {
            text.push_str(file);
            if self.line > 0 {
                text.push_str(&format!(":{}", self.line));
                if self.column > 0 {
                    text.push_str(&format!(":{}", self.column));
                }
            }
            text.push_str(": ");
        }
        text.push_str(&format!("{}: {}", self.severity, self.message));
        if let Some(help) = &self.help {
            text.push_str(&format!(" (help: {help})"));
        }
        text
    }
}

/// How the results of a kind's policies read: whether the kind collects every decision that
/// fired, and whether a collecting kind ranks its decisions (`precedence`), which makes its outcome
/// the top rank only. [`crate::Kind::compile`] stamps every result of the policies it compiles with
/// the kind's shape ([`EvalResult::shape`]): the record says `collect` for a ranked collecting kind
/// too, so without the shape the decision helpers can't tell its single outcome from a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ResultShape {
    /// Whether the kind is `collect all`.
    pub collect: bool,
    /// Whether a collecting kind has a precedence over its decisions.
    pub ranked: bool,
}

/// The record of one evaluation. A failed evaluation has `error` set; it is not an `Err`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalResult {
    /// The decision's payload.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
    /// Why the evaluation failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<EvalFailure>,
    /// The policy evaluated.
    pub policy: String,
    /// The decision taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
    /// The decision's reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Every entry of the outcome.
    pub outcome: Vec<EvalEntry>,
    /// Every rule that fired, in order.
    pub trace: Vec<EvalEntry>,
    /// Whether the kind collects all decisions.
    #[serde(default, skip_serializing_if = "is_false")]
    pub collect: bool,
    /// How the kind's results read, when the policy came from [`crate::Kind::compile`] or was
    /// stamped with [`crate::Policy::stamp_results`]; not part of the eval record's JSON.
    #[serde(skip)]
    pub shape: Option<ResultShape>,
}

impl EvalResult {
    /// Whether the evaluation succeeded (no `error`).
    pub fn succeeded(&self) -> bool {
        self.error.is_none()
    }
}

/// One entry of an outcome or a trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalEntry {
    /// The entry's payload.
    #[serde(default, skip_serializing_if = "none_or_empty_object")]
    pub payload: Option<Value>,
    /// The decision.
    pub decision: String,
    /// The reason.
    pub reason: String,
    /// The policy the rule is in.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub policy: Option<String>,
    /// `<file>:<line>:<column>` of the rule.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub position: Option<String>,
    /// The chain of required policies it came through.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<String>,
    /// The conditions that held.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
    /// Whether a trace entry made it into the outcome.
    #[serde(default, skip_serializing_if = "is_false")]
    pub outcome: bool,
}

/// How an evaluation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailureKind {
    /// An error while evaluating.
    Runtime,
    /// Decisions that exclude each other.
    Conflict,
    /// A failed assertion.
    Assertion,
    /// The evaluation's timeout passed.
    Canceled,
}

/// Where an evaluation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailurePhase {
    /// Reading the input.
    Input,
    /// Settling the outcome.
    Outcome,
}

/// A failed evaluation's `error`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EvalFailure {
    /// The kind of failure.
    pub kind: FailureKind,
    /// Where it happened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<FailurePhase>,
    /// What failed.
    pub message: String,
    /// How to fix it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub help: String,
    /// The assertions that failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asserts: Vec<FailedAssert>,
    /// The candidates of a conflict.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<EvalEntry>,
}

/// An assertion that failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailedAssert {
    /// The assertion's reason.
    pub reason: String,
    /// The policy it is in.
    pub policy: String,
    /// Where it is.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub position: String,
    /// What caused it.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub cause: Option<String>,
    /// How to fix it.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub help: Option<String>,
    /// The outcome it saw.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outcome: Vec<EvalEntry>,
}

/// What a policy can decide, rule by rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// The policy.
    pub policy: String,
    /// How many policies take part.
    pub policies: u32,
    /// How many modules take part.
    pub modules: u32,
    /// The rules; written as `null` when there are none, as the engine writes them.
    #[serde(
        default,
        serialize_with = "empty_as_null",
        deserialize_with = "null_as_empty"
    )]
    pub rules: Vec<ExplainEntry>,
}

fn empty_as_null<S: serde::Serializer>(rules: &[ExplainEntry], s: S) -> Result<S::Ok, S::Error> {
    if rules.is_empty() {
        s.serialize_none()
    } else {
        s.collect_seq(rules)
    }
}

fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<ExplainEntry>, D::Error> {
    Ok(Option::<Vec<ExplainEntry>>::deserialize(d)?.unwrap_or_default())
}

/// One rule of an explanation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExplainEntry {
    /// The rule's kind.
    pub kind: String,
    /// Its decision.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub decision: Option<String>,
    /// Its reason.
    pub reason: String,
    /// Its phase.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub phase: Option<String>,
    /// The chain of required policies.
    pub chain: Vec<String>,
    /// Its conditions.
    pub conditions: Vec<String>,
    /// What an assertion checks.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub check: Option<String>,
    /// Its payload fields.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub payload: Vec<String>,
}

/// The result of one test file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestResult {
    /// The test file.
    pub file: String,
    /// The policy it tests.
    #[serde(default)]
    pub policy: String,
    /// Why the file could not run.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub error: Option<String>,
    /// Its cases.
    #[serde(default, deserialize_with = "null_as_empty_cases")]
    pub cases: Vec<TestCaseResult>,
}

fn null_as_empty_cases<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<TestCaseResult>, D::Error> {
    Ok(Option::<Vec<TestCaseResult>>::deserialize(d)?.unwrap_or_default())
}

impl TestResult {
    /// Whether the file ran and every case passed.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.cases.iter().all(|c| c.passed)
    }
}

/// One test case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestCaseResult {
    /// Its name.
    pub name: String,
    /// Why it could not run.
    #[serde(default, skip_serializing_if = "none_or_empty")]
    pub error: Option<String>,
    /// What did not match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<String>,
    /// Its line in the test file.
    #[serde(default)]
    pub line: u32,
    /// Whether it passed.
    #[serde(default)]
    pub passed: bool,
}

/// The module's build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionInfo {
    /// Release version.
    pub version: String,
    /// Source commit.
    pub commit: String,
    /// Commit time.
    #[serde(rename = "commitTime")]
    pub commit_time: String,
    /// Whether the tree had changes.
    pub dirty: bool,
    /// The reference's toolchain field.
    #[serde(rename = "goVersion")]
    pub go_version: String,
    /// Always `wasip1/wasm`.
    pub platform: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Serialize + for<'de> Deserialize<'de>>(json: &str) -> String {
        let value: T = serde_json::from_str(json).unwrap();
        serde_json::to_string(&value).unwrap()
    }

    #[test]
    fn an_eval_record_keeps_key_order_and_leaves_out_empty_fields() {
        let json = r#"{"payload":{"b":1,"a":2},"policy":"p","decision":"allow","reason":"ok","outcome":[{"decision":"allow","reason":"ok","policy":"p","position":"a.sigil:1:2"}],"trace":[]}"#;
        assert_eq!(round_trip::<EvalResult>(json), json);
    }

    #[test]
    fn an_entry_with_an_empty_payload_leaves_it_out() {
        let json = r#"{"payload":{},"decision":"deny","reason":"r"}"#;
        assert_eq!(
            round_trip::<EvalEntry>(json),
            r#"{"decision":"deny","reason":"r"}"#
        );
    }

    #[test]
    fn a_failure_writes_its_kind_and_phase_in_lower_case() {
        let json = r#"{"kind":"canceled","phase":"input","message":"m","help":"h"}"#;
        assert_eq!(round_trip::<EvalFailure>(json), json);
    }

    #[test]
    fn an_explanation_without_rules_writes_null() {
        let json = r#"{"policy":"p","policies":1,"modules":0,"rules":null}"#;
        let read: Explanation = serde_json::from_str(json).unwrap();
        assert!(read.rules.is_empty());
        assert_eq!(serde_json::to_string(&read).unwrap(), json);
    }

    #[test]
    fn a_diagnostic_leaves_out_unknown_positions() {
        let json = r#"{"severity":"warning","lint":"unused","message":"m","line":0,"column":0}"#;
        assert_eq!(
            round_trip::<Diagnostic>(json),
            r#"{"severity":"warning","lint":"unused","message":"m"}"#
        );
    }

    #[test]
    fn a_diagnostic_renders_as_the_command_line_prints_it() {
        let d: Diagnostic =
            serde_json::from_str(r#"{"severity":"error","file":"a.sigil","line":2,"message":"m"}"#)
                .unwrap();
        assert_eq!(d.render(), "a.sigil:2: error: m");
    }

    #[test]
    fn a_test_result_passes_only_when_it_ran_and_every_case_passed() {
        let ran: TestResult = serde_json::from_str(
            r#"{"file":"t_test.yaml","policy":"p","cases":[{"name":"a","line":3,"passed":true}]}"#,
        )
        .unwrap();
        assert!(ran.passed());
        let failed: TestResult = serde_json::from_str(
            r#"{"file":"t_test.yaml","policy":"p","error":"boom","cases":null}"#,
        )
        .unwrap();
        assert!(!failed.passed());
        assert!(failed.cases.is_empty());
    }

    #[test]
    fn version_info_uses_the_modules_field_names() {
        let json = r#"{"version":"v1","commit":"c","commitTime":"t","dirty":false,"goVersion":"g","platform":"wasip1/wasm"}"#;
        assert_eq!(round_trip::<VersionInfo>(json), json);
    }
}
