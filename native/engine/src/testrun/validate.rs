//! Step 4 of tooling §7.5: every case and every stub of a test file
//! checked against the kind, before anything runs. The problems come in
//! the reference's order: the file's stubs first (by line), then case by
//! case its name, input and expectation form (`TestFile::case_problems`),
//! the decisions, reasons and payload fields it expects, and its own
//! stubs.

use crate::diag::{declared_help, go_quote};
use crate::kind::{Collect, Kind};
use crate::stubs::{BoundStubs, bind};
use crate::testfile::{Case, Expect, ExpectedEntry, Problem, TestFile};

/// The file's stubs bound to `kind`, or every problem of the file's
/// cases and stubs.
pub(super) fn validate(test: &TestFile, kind: &Kind) -> Result<BoundStubs, Vec<Problem>> {
    let mut problems = Vec::new();
    let stubs = bind(&test.stubs, kind).map_err(|p| problems.extend(p)).ok();
    let per_case = test.case_problems(&kind.name, kind.collect == Collect::All);
    for (case, own) in test.cases.iter().zip(per_case) {
        problems.extend(own);
        problems.extend(
            expect_problems(&case.expect, kind)
                .into_iter()
                .map(|(message, help)| at_case(case, message, help)),
        );
        if let Err(stub_problems) = bind(&case.stubs, kind) {
            problems.extend(stub_problems.into_iter().map(|p| Problem {
                case: Some(case.name.clone()),
                ..p
            }));
        }
    }
    match stubs {
        Some(stubs) if problems.is_empty() => Ok(stubs),
        _ => Err(problems),
    }
}

fn at_case(case: &Case, message: String, help: String) -> Problem {
    Problem {
        line: case.line,
        case: Some(case.name.clone()),
        message,
        help: Some(help),
    }
}

/// The problems, as message and help, of the entries an expectation
/// names: one decision with its reason, or each entry of an outcome.
fn expect_problems(expect: &Expect, kind: &Kind) -> Vec<(String, String)> {
    match expect {
        Expect::Decision(entry) => entry_problems(entry, kind),
        Expect::Outcome(entries) => entries
            .iter()
            .flat_map(|entry| entry_problems(entry, kind))
            .collect(),
        Expect::Asserts(_) | Expect::Error(_) | Expect::NotOneForm => Vec::new(),
    }
}

/// An expected entry must name a declared decision, one of its reasons,
/// and only its payload fields.
fn entry_problems(entry: &ExpectedEntry, kind: &Kind) -> Vec<(String, String)> {
    let decisions: Vec<&str> = kind.decisions.iter().map(|d| d.name.as_str()).collect();
    let name = entry.decision.as_str();
    if name.is_empty() {
        return vec![(
            "expected decision has no name".to_owned(),
            format!("the kind declares: {}", decisions.join(", ")),
        )];
    }
    let Some(decision) = kind.decision(name) else {
        return vec![(
            format!("the kind has no decision {}", go_quote(name)),
            declared_help(name, &decisions),
        )];
    };
    let reasons: Vec<&str> = decision.reasons.iter().map(String::as_str).collect();
    let reason = entry.reason.as_str();
    if reason.is_empty() {
        return vec![(
            format!("expected {name} has no reason"),
            format!(
                "asserting the reason catches a decision made for the wrong reason; {name} declares: {}",
                reasons.join(", ")
            ),
        )];
    }
    if !decision.has_reason(reason) {
        return vec![(
            format!("decision {name} has no reason {}", go_quote(reason)),
            declared_help(reason, &reasons),
        )];
    }
    let fields: Vec<&str> = decision.fields.iter().map(|f| f.name.as_str()).collect();
    entry
        .payload
        .iter()
        .filter(|(field, _)| decision.field(field).is_none())
        .map(|(field, _)| {
            (
                format!("decision {name} has no payload field {}", go_quote(field)),
                declared_help(field, &fields),
            )
        })
        .collect()
}
