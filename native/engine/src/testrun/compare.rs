//! An evaluation compared with what a case expects (tooling §7.3), and the
//! failure sentences of tooling §7.6.
//!
//! `«call»` is `«decision»(reason: «reason»)`; `«got»` says what the
//! evaluation produced: `failing asserts «r1», «r2»` (in failure order), `a
//! runtime error («position»: «message»)`, `a conflict («message»)`,
//! `«call»` for one outcome entry, `the outcome [«call», …]` for several,
//! and `no decision` for none.

use std::rc::Rc;

use crate::data::{Data, Syntax};
use crate::diag::go_quote;
use crate::eval::{Evaluation, Failure, Outcome, equal};
use crate::input::decode_value;
use crate::program::{Fallback, Program};
use crate::testfile::{Expect, ExpectedEntry};
use crate::value::Value;

/// How the evaluation differs from `expect`: one sentence per difference,
/// none when the case passed.
pub(super) fn compare(expect: &Expect, program: &Program, evaluation: &Evaluation) -> Vec<String> {
    let got = Got::of(program, evaluation);
    match expect {
        Expect::Error(text) => match &evaluation.error {
            Some(Failure::Runtime(e)) if e.message.contains(text.as_str()) => Vec::new(),
            _ => vec![format!(
                "got {}, want a runtime error containing {}",
                got.describe(),
                go_quote(text)
            )],
        },
        Expect::Asserts(want) => compare_asserts(&got, want),
        Expect::Decision(want) => match &got {
            Got::Entries(entries) => match entries.first() {
                None => vec![format!("got no decision, want {}", want.call())],
                Some(first) if first.decision != want.decision || first.reason != want.reason => {
                    vec![format!("got {}, want {}", first.call(), want.call())]
                }
                Some(first) => compare_payload(program, want, &first.payload),
            },
            failed => vec![format!("got {}, want {}", failed.describe(), want.call())],
        },
        Expect::Outcome(want) => match &got {
            Got::Entries(entries) => compare_outcome(program, want, entries),
            failed => vec![format!(
                "got {}, want the outcome {}",
                failed.describe(),
                outcome_text(want)
            )],
        },
        // Validation refuses a case without exactly one form.
        Expect::NotOneForm => Vec::new(),
    }
}

/// What an evaluation produced, as the comparison reads it.
enum Got {
    /// Asserts failed: their reasons, in failure order.
    Asserts(Vec<String>),
    /// A runtime error or a conflict, described.
    Failed(String),
    /// The outcome the host acts on.
    Entries(Vec<Entry>),
}

/// One outcome entry.
struct Entry {
    decision: String,
    reason: String,
    payload: Vec<(Rc<str>, Value)>,
    /// Where its constructor is; empty for the kind's fallback.
    position: String,
}

impl Got {
    fn of(program: &Program, evaluation: &Evaluation) -> Got {
        match &evaluation.error {
            Some(Failure::Assertion { asserts, .. }) => Got::Asserts(
                asserts
                    .iter()
                    .filter_map(|f| program.asserts.get(f.assert))
                    .map(|a| a.reason.to_string())
                    .collect(),
            ),
            Some(Failure::Runtime(e)) => Got::Failed(format!(
                "a runtime error ({}: {})",
                program.position(&e.at),
                e.message
            )),
            Some(Failure::Conflict { message, .. }) => {
                Got::Failed(format!("a conflict ({message})"))
            }
            Some(Failure::Canceled) => Got::Failed(
                "a canceled evaluation (the evaluation was stopped: context deadline exceeded)"
                    .to_owned(),
            ),
            None => Got::Entries(entries(program, evaluation)),
        }
    }

    /// `«got»` of the failure sentences.
    fn describe(&self) -> String {
        match self {
            Got::Asserts(reasons) => format!("failing asserts {}", reasons.join(", ")),
            Got::Failed(text) => text.clone(),
            Got::Entries(entries) => match entries.as_slice() {
                [] => "no decision".to_owned(),
                [one] => one.call(),
                several => {
                    let calls: Vec<String> = several.iter().map(Entry::call).collect();
                    format!("the outcome [{}]", calls.join(", "))
                }
            },
        }
    }
}

/// The outcome entries of a successful evaluation: the top candidates, or
/// the kind's default or conflict entry.
fn entries(program: &Program, evaluation: &Evaluation) -> Vec<Entry> {
    let fallback = |f: Option<&Fallback>| {
        f.map(|f| Entry {
            decision: program.decision_name(f.decision).to_owned(),
            reason: f.reason.to_string(),
            payload: f.payload.clone(),
            position: String::new(),
        })
        .into_iter()
        .collect()
    };
    match &evaluation.outcome {
        Outcome::Top(top) => top
            .iter()
            .filter_map(|&i| evaluation.trace.get(i))
            .filter_map(|c| {
                let rule = program.rules.get(c.rule)?;
                Some(Entry {
                    decision: program.decision_name(rule.decision).to_owned(),
                    reason: rule.reason.to_string(),
                    payload: c.payload.clone(),
                    position: rule.position.to_string(),
                })
            })
            .collect(),
        Outcome::Default => fallback(program.default.as_ref()),
        Outcome::Conflict => fallback(program.conflict.as_ref()),
        Outcome::Empty => Vec::new(),
    }
}

fn call(decision: &str, reason: &str) -> String {
    format!("{decision}(reason: {reason})")
}

impl Entry {
    fn call(&self) -> String {
        call(&self.decision, &self.reason)
    }
}

impl ExpectedEntry {
    fn call(&self) -> String {
        call(&self.decision, &self.reason)
    }
}

/// The asserts form: the evaluation failed its asserts, and the sets of
/// reasons (sorted, each once) are equal.
fn compare_asserts(got: &Got, want: &[String]) -> Vec<String> {
    let Got::Asserts(reasons) = got else {
        return vec![format!(
            "got {}, want failing asserts {}",
            got.describe(),
            want.join(", ")
        )];
    };
    let set = |items: &[String]| {
        let mut items = items.to_vec();
        items.sort();
        items.dedup();
        items
    };
    let (got, want) = (set(reasons), set(want));
    match got == want {
        true => Vec::new(),
        false => vec![format!(
            "got failing asserts {}, want {}",
            got.join(", "),
            want.join(", ")
        )],
    }
}

/// The payload fields `want` lists, in the decision's declaration order:
/// each decoded by its type and compared as a value with the entry's.
fn compare_payload(
    program: &Program,
    want: &ExpectedEntry,
    got: &[(Rc<str>, Value)],
) -> Vec<String> {
    let kind = &program.kind;
    let Some(decision) = kind.decision(&want.decision) else {
        return Vec::new();
    };
    let mut failures = Vec::new();
    for field in &decision.fields {
        let Some((_, raw)) = want.payload.iter().find(|(name, _)| *name == field.name) else {
            continue;
        };
        let expected = match decode_value(raw, Syntax::Yaml, &field.ty, kind, &field.name) {
            Ok(value) => value,
            Err(error) => {
                failures.push(format!("expected payload {}", error.message));
                continue;
            }
        };
        let actual = got
            .iter()
            .find(|(name, _)| **name == *field.name)
            .map(|(_, value)| value);
        if !actual.is_some_and(|actual| equal(actual, &expected)) {
            failures.push(format!(
                "payload {} = {}, want {}",
                field.name,
                actual.map_or_else(|| Value::Absent.const_text(), Value::const_text),
                expected.const_text()
            ));
        }
    }
    failures
}

/// The outcome form: each expected entry takes one distinct entry with its
/// decision, reason and listed payload fields, in any order; every entry
/// left over is unexpected.
fn compare_outcome(program: &Program, want: &[ExpectedEntry], got: &[Entry]) -> Vec<String> {
    let mut used = vec![false; got.len()];
    let mut failures = Vec::new();
    for expected in want {
        let found = got.iter().zip(used.iter_mut()).find(|(entry, used)| {
            !**used
                && entry.decision == expected.decision
                && entry.reason == expected.reason
                && compare_payload(program, expected, &entry.payload).is_empty()
        });
        match found {
            Some((_, used)) => *used = true,
            None => failures.push(format!(
                "missing from the outcome: {}",
                expected_text(expected)
            )),
        }
    }
    for (entry, used) in got.iter().zip(&used) {
        if !used {
            failures.push(format!(
                "not expected in the outcome: {} at {}",
                entry.call(),
                entry.position
            ));
        }
    }
    failures
}

/// `[«entry», …]`, or `[]`.
fn outcome_text(entries: &[ExpectedEntry]) -> String {
    let parts: Vec<String> = entries.iter().map(expected_text).collect();
    format!("[{}]", parts.join(", "))
}

/// `«call»`, then ` {«field»: «value», …}` with the fields sorted when the
/// entry lists any, each value as written.
fn expected_text(entry: &ExpectedEntry) -> String {
    let mut out = entry.call();
    if entry.payload.is_empty() {
        return out;
    }
    let mut fields: Vec<&(String, Data)> = entry.payload.iter().collect();
    fields.sort_by(|a, b| a.0.cmp(&b.0));
    let parts: Vec<String> = fields
        .iter()
        .map(|(name, value)| format!("{name}: {}", data_text(value)))
        .collect();
    out.push_str(&format!(" {{{}}}", parts.join(", ")));
    out
}

/// A value as written, the way Go's `%v` prints what YAML decoded: text
/// bare, lists as `[a b]`, objects as `map[k:v]` with sorted keys, null as
/// `<nil>`. Iterative, so a deep value costs heap, not stack.
fn data_text(data: &Data) -> String {
    enum Step<'d> {
        Value(&'d Data),
        Text(&'static str),
        Key(&'d str),
    }
    let mut out = String::new();
    let mut steps = vec![Step::Value(data)];
    while let Some(step) = steps.pop() {
        match step {
            Step::Text(text) => out.push_str(text),
            Step::Key(key) => {
                out.push_str(key);
                out.push(':');
            }
            Step::Value(Data::Null) => out.push_str("<nil>"),
            Step::Value(Data::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
            Step::Value(Data::Number(text) | Data::String(text)) => out.push_str(text),
            Step::Value(Data::List(items)) => {
                out.push('[');
                steps.push(Step::Text("]"));
                for (i, item) in items.iter().enumerate().rev() {
                    steps.push(Step::Value(item));
                    if i > 0 {
                        steps.push(Step::Text(" "));
                    }
                }
            }
            Step::Value(Data::Object(members)) => {
                out.push_str("map[");
                steps.push(Step::Text("]"));
                let mut sorted: Vec<&(String, Data)> = members.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                for (i, (key, value)) in sorted.into_iter().enumerate().rev() {
                    steps.push(Step::Value(value));
                    steps.push(Step::Key(key));
                    if i > 0 {
                        steps.push(Step::Text(" "));
                    }
                }
            }
        }
    }
    out
}
