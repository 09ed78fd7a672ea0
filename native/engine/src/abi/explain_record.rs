//! The explanation record (tooling §5.2, language-policies §9) after the
//! envelope: `explanations`, a list of Explanation objects (`policy`,
//! `policies`, `modules`, `rules`), each rule an ExplainEntry (`kind`,
//! `decision`, `reason`, `phase`, `chain`, `conditions`, `check`,
//! `payload`) with the omission rules there.

use super::writer::Json;
use crate::eval::Phase;
use crate::explain::{Entry, Explanation, What};

/// Writes `,"explanations":[…]` for `explanations`, in their order.
pub(crate) fn write<'e>(json: &mut Json, explanations: impl IntoIterator<Item = &'e Explanation>) {
    json.member("explanations");
    json.list(explanations, explanation);
}

/// One Explanation; `rules` is `null` when the policy has no rule and no
/// assert, as the reference never makes its list then.
fn explanation(json: &mut Json, e: &Explanation) {
    json.raw("{\"policy\":");
    json.string(&e.policy);
    json.member("policies");
    json.raw(&e.policies.to_string());
    json.member("modules");
    json.raw(&e.modules.to_string());
    json.member("rules");
    if e.entries.is_empty() {
        json.raw("null");
    } else {
        json.raw("[");
        for (i, entry) in e.entries.iter().enumerate() {
            if i > 0 {
                json.raw(",");
            }
            write_entry(json, entry);
        }
        json.raw("]");
    }
    json.raw("}");
}

/// One ExplainEntry: `decision` and `payload` (when not empty) for a rule
/// only, `phase` and `check` for an assert only; `chain` and `conditions`
/// always, `[]` when empty.
fn write_entry(json: &mut Json, entry: &Entry) {
    json.raw("{\"kind\":");
    match &entry.what {
        What::Rule { decision, .. } => {
            json.string("decision");
            json.member("decision");
            json.string(decision);
        }
        What::Assert { .. } => json.string("assert"),
    }
    json.member("reason");
    json.string(&entry.reason);
    if let What::Assert { phase, .. } = &entry.what {
        json.member("phase");
        json.string(match phase {
            Phase::Input => "input",
            Phase::Outcome => "outcome",
        });
    }
    json.member("chain");
    json.strings(&entry.chain);
    json.member("conditions");
    json.strings(&entry.conditions);
    match &entry.what {
        What::Assert { check, .. } => {
            json.member("check");
            json.string(check);
        }
        What::Rule { payload, .. } if !payload.is_empty() => {
            json.member("payload");
            json.strings(payload);
        }
        What::Rule { .. } => {}
    }
    json.raw("}");
}
