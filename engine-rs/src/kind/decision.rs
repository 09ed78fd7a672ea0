//! Decisions, their outcomes, and reading results by them (bindings §14).

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::types::Type;
use crate::error::{Error, Result};
use crate::quote::go_quote;
use crate::records::{EvalEntry, EvalResult};

/// A payload field of a decision.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) ty: Type,
    pub(crate) default: Option<Value>,
}

/// A decision of a kind: its name, reasons, and payload fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub(crate) name: String,
    pub(crate) reasons: Vec<String>,
    pub(crate) fields: Vec<Field>,
}

/// One reason of one decision, `decision.reason`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub(crate) decision: String,
    pub(crate) reason: String,
}

/// A member of an exclusive set: a whole decision, or one outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutcomeRef {
    /// Every outcome of the decision of this name.
    Decision(String),
    /// One outcome.
    Outcome(Outcome),
}

/// One outcome entry of a decision, with its typed payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Matched<P> {
    /// The payload.
    pub payload: P,
    /// The reason.
    pub reason: String,
    /// The policy that decided.
    pub policy: Option<String>,
    /// `<file>:<line>:<column>` of the rule.
    pub position: Option<String>,
}

impl Decision {
    /// A decision of this name and reasons, without payload fields.
    pub fn new(
        name: impl Into<String>,
        reasons: impl IntoIterator<Item = impl Into<String>>,
    ) -> Decision {
        Decision {
            name: name.into(),
            reasons: reasons.into_iter().map(Into::into).collect(),
            fields: Vec::new(),
        }
    }

    /// Adds a required payload field.
    pub fn field(mut self, name: impl Into<String>, ty: Type) -> Decision {
        self.fields.push(Field {
            name: name.into(),
            ty,
            default: None,
        });
        self
    }

    /// Adds a payload field with a default.
    pub fn field_default(mut self, name: impl Into<String>, ty: Type, default: Value) -> Decision {
        self.fields.push(Field {
            name: name.into(),
            ty,
            default: Some(default),
        });
        self
    }

    /// The decision's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its reasons, in declared order.
    pub fn reasons(&self) -> &[String] {
        &self.reasons
    }

    /// The outcome of this decision with `reason`.
    ///
    /// # Panics
    /// With a did-you-mean, when the decision declares no such reason; see [`Decision::try_reason`].
    #[expect(
        clippy::panic,
        reason = "a reason name is a constant of the program; a typo is a bug to stop at"
    )]
    pub fn reason(&self, reason: &str) -> Outcome {
        match self.try_reason(reason) {
            Ok(outcome) => outcome,
            Err(error) => panic!("{error} ({})", error.help()),
        }
    }

    /// The outcome of this decision with `reason`, or an error with a did-you-mean.
    pub fn try_reason(&self, reason: &str) -> Result<Outcome> {
        if self.reasons.iter().any(|r| r == reason) {
            return Ok(Outcome {
                decision: self.name.clone(),
                reason: reason.to_owned(),
            });
        }
        let suggestion =
            nearest(reason, &self.reasons).map(|best| format!("did you mean {}? ", go_quote(best)));
        Err(Error::engine(
            format!("decision {} has no reason {}", self.name, go_quote(reason)),
            format!(
                "{}{} declares: {}",
                suggestion.unwrap_or_default(),
                self.name,
                self.reasons.join(", ")
            ),
        ))
    }

    /// The typed payload when the outcome is exactly one entry of this decision; None otherwise
    /// (a ranked collecting kind's outcome of two entries of the top rank, say). An error on the
    /// result of a collecting kind without precedence, and of any collecting kind when the result
    /// doesn't carry its kind's [`EvalResult::shape`].
    pub fn matches<P: DeserializeOwned>(&self, result: &EvalResult) -> Result<Option<P>> {
        guard(result, "matches")?;
        match result.outcome.as_slice() {
            [only] if only.decision == self.name => self.payload(only).map(Some),
            _ => Ok(None),
        }
    }

    /// Every outcome entry of this decision, in outcome order.
    pub fn match_all<P: DeserializeOwned>(&self, result: &EvalResult) -> Result<Vec<Matched<P>>> {
        result
            .outcome
            .iter()
            .filter(|entry| entry.decision == self.name)
            .map(|entry| {
                Ok(Matched {
                    payload: self.payload(entry)?,
                    reason: entry.reason.clone(),
                    policy: entry.policy.clone(),
                    position: entry.position.clone(),
                })
            })
            .collect()
    }

    fn payload<P: DeserializeOwned>(&self, entry: &EvalEntry) -> Result<P> {
        let payload = entry
            .payload
            .clone()
            .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
        serde_json::from_value(payload).map_err(|e| {
            Error::engine(
                format!("the payload of decision {} doesn't fit the type asked for: {e}", self.name),
                "give the type the decision's fields, with the same names and types; a duration or timestamp is a String",
            )
        })
    }
}

impl Outcome {
    /// An outcome by names, unchecked; [`crate::KindBuilder::build`] checks it against the kind.
    /// [`Decision::reason`] checks it at once.
    pub fn new(decision: impl Into<String>, reason: impl Into<String>) -> Outcome {
        Outcome {
            decision: decision.into(),
            reason: reason.into(),
        }
    }

    /// The decision's name.
    pub fn decision(&self) -> &str {
        &self.decision
    }

    /// The reason.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// Whether the outcome is exactly one entry of this decision with this reason. An error as
    /// [`Decision::matches`] gives one.
    pub fn is(&self, result: &EvalResult) -> Result<bool> {
        guard(result, "is")?;
        Ok(
            matches!(result.outcome.as_slice(), [only] if only.decision == self.decision && only.reason == self.reason),
        )
    }
}

/// Refuses the result of a collecting kind without precedence, whose outcome is every decision
/// that fired rather than one. The result's shape says so; without one, the record's `collect`
/// does, which also refuses a ranked collecting kind's result its kind didn't stamp.
fn guard(result: &EvalResult, what: &str) -> Result<()> {
    let unranked = result
        .shape
        .map_or(result.collect, |shape| shape.collect && !shape.ranked);
    if !unranked {
        return Ok(());
    }
    Err(Error::engine(
        format!("{what} on a collecting kind's result, which has no single outcome; read it with match_all"),
        "a collecting kind applies every decision that fired; with precedence, the top rank reads with matches",
    ))
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.decision, self.reason)
    }
}

impl fmt::Display for OutcomeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutcomeRef::Decision(name) => f.write_str(name),
            OutcomeRef::Outcome(outcome) => outcome.fmt(f),
        }
    }
}

impl From<&Decision> for OutcomeRef {
    fn from(decision: &Decision) -> Self {
        OutcomeRef::Decision(decision.name.clone())
    }
}

impl From<Outcome> for OutcomeRef {
    fn from(outcome: Outcome) -> Self {
        OutcomeRef::Outcome(outcome)
    }
}

/// The bindings' did-you-mean: plain Levenshtein distance over code points, strictly below a bar
/// that starts at `max(2, len/3) + 1` and drops to each better candidate's score.
fn nearest<'a>(name: &str, candidates: &'a [String]) -> Option<&'a str> {
    let mut bar = (name.chars().count() / 3).max(2) + 1;
    let mut best = None;
    for candidate in candidates {
        let score = levenshtein(name, candidate);
        if score < bar {
            bar = score;
            best = Some(candidate.as_str());
        }
    }
    best
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = i;
        let mut left = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let up = row.get(j + 1).copied().unwrap_or_default();
            let cost = if ca == *cb { diagonal } else { diagonal + 1 };
            let value = cost.min(up + 1).min(left + 1);
            diagonal = up;
            left = value;
            if let Some(cell) = row.get_mut(j + 1) {
                *cell = value;
            }
        }
        if let Some(first) = row.get_mut(0) {
            *first = i + 1;
        }
    }
    row.last().copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn notify() -> Decision {
        Decision::new("notify", ["routine", "unrouted"]).field_default(
            "channel",
            Type::string(),
            json!("#alerts"),
        )
    }

    fn result(entries: Value, collect: bool) -> EvalResult {
        serde_json::from_value(
            json!({"policy": "p", "outcome": entries, "trace": [], "collect": collect}),
        )
        .unwrap()
    }

    #[test]
    fn an_undeclared_reason_gets_a_did_you_mean() {
        let error = notify().try_reason("unroutd").unwrap_err();
        assert_eq!(
            error.to_string(),
            "decision notify has no reason \"unroutd\""
        );
        assert_eq!(
            error.help(),
            "did you mean \"unrouted\"? notify declares: routine, unrouted"
        );
        assert_eq!(
            notify().try_reason("zzzzzz").unwrap_err().help(),
            "notify declares: routine, unrouted"
        );
        assert_eq!(notify().reason("routine").to_string(), "notify.routine");
    }

    #[test]
    #[should_panic(expected = "decision notify has no reason \"x\"")]
    fn reason_panics_on_an_undeclared_reason() {
        notify().reason("x");
    }

    #[test]
    fn nearest_follows_the_bindings_cases() {
        let reasons = vec!["routine".to_string(), "unrouted".to_string()];
        assert_eq!(nearest("unroutd", &reasons), Some("unrouted"));
        assert_eq!(nearest("zzzzzz", &reasons), None);
        assert_eq!(nearest("a", &["b".to_string()]), Some("b"));
        assert_eq!(nearest("", &[]), None);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("ä", "a"), 1);
    }

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Notify {
        channel: String,
    }

    #[test]
    fn matches_reads_the_one_entry_of_the_decision() {
        let one = result(
            json!([{"payload": {"channel": "#ops"}, "decision": "notify", "reason": "routine"}]),
            false,
        );
        assert_eq!(
            notify().matches::<Notify>(&one).unwrap(),
            Some(Notify {
                channel: "#ops".into()
            })
        );
        assert!(notify().reason("routine").is(&one).unwrap());
        assert!(!notify().reason("unrouted").is(&one).unwrap());
        let other = result(json!([{"decision": "page", "reason": "x"}]), false);
        assert_eq!(notify().matches::<Value>(&other).unwrap(), None);
        let empty = result(json!([{"decision": "notify", "reason": "routine"}]), false);
        assert_eq!(notify().matches::<Value>(&empty).unwrap(), Some(json!({})));
    }

    #[test]
    fn matches_and_is_refuse_a_collecting_result() {
        let collected = result(json!([{"decision": "notify", "reason": "routine"}]), true);
        assert_eq!(
            notify().matches::<Value>(&collected).unwrap_err().to_string(),
            "matches on a collecting kind's result, which has no single outcome; read it with match_all"
        );
        assert!(notify()
            .reason("routine")
            .is(&collected)
            .unwrap_err()
            .to_string()
            .starts_with("is on a collecting"));
    }

    #[test]
    fn only_an_unranked_collecting_result_is_refused_its_single_outcome() {
        let shape = |collect, ranked| Some(crate::records::ResultShape { collect, ranked });
        // (shape, the record's collect, refused): the shape wins over the record when there is one.
        let cases = [
            (None, true, true),
            (None, false, false),
            (shape(true, false), false, true),
            (shape(true, true), true, false),
            (shape(false, false), true, false),
        ];
        for (shape, collect, refused) in cases {
            let one = EvalResult {
                shape,
                ..result(
                    json!([{"decision": "notify", "reason": "routine"}]),
                    collect,
                )
            };
            assert_eq!(
                notify().matches::<Value>(&one).is_err(),
                refused,
                "{shape:?} {collect}"
            );
            assert_eq!(
                notify().reason("routine").is(&one).is_err(),
                refused,
                "{shape:?} {collect}"
            );
            if !refused {
                assert_eq!(notify().matches::<Value>(&one).unwrap(), Some(json!({})));
                assert!(notify().reason("routine").is(&one).unwrap());
            }
            assert_eq!(notify().match_all::<Value>(&one).unwrap().len(), 1);
        }
    }

    #[test]
    fn match_all_reads_every_entry_in_order() {
        let collected = result(
            json!([
                {"payload": {"channel": "a"}, "decision": "notify", "reason": "routine", "policy": "p", "position": "a.sigil:1:1"},
                {"decision": "page", "reason": "x"},
                {"payload": {"channel": "b"}, "decision": "notify", "reason": "unrouted"}
            ]),
            true,
        );
        let all = notify().match_all::<Notify>(&collected).unwrap();
        assert_eq!(
            all.iter()
                .map(|m| (m.payload.channel.as_str(), m.reason.as_str()))
                .collect::<Vec<_>>(),
            [("a", "routine"), ("b", "unrouted")]
        );
        assert_eq!(all[0].position.as_deref(), Some("a.sigil:1:1"));
    }

    #[test]
    fn a_payload_of_the_wrong_shape_is_an_error() {
        let one = result(
            json!([{"payload": {"channel": 5}, "decision": "notify", "reason": "routine"}]),
            false,
        );
        let error = notify().matches::<Notify>(&one).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the payload of decision notify doesn't fit the type asked for: "),
            "{error}"
        );
    }
}
