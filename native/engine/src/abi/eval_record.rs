//! The eval record (language-policies §8, tooling §6.2) after the
//! envelope: `payload`, `error`, `policy`, `decision`, `reason`,
//! `outcome`, `trace`, `collect`, with their omission rules.

use std::cell::OnceCell;
use std::rc::Rc;

use super::writer::Json;
use crate::diag::go_quote;
use crate::eval::{Candidate, Evaluation, FailedAssert, Failure, Outcome, Phase, RuntimeError};
use crate::kind::Collect;
use crate::program::{Fallback, Program, Rule};
use crate::value::Value;

const RUNTIME_HELP: &str = "fix the expression the runtime error points at, or the input it read";
const CANCELED_HELP: &str = "the evaluation ran past its deadline or was canceled, so nothing it found counts; give it more time, or look for a loop over a large input";
const CONFLICT_HELP: &str = "a conflict is a defect in the policy: rank the reasons with precedence, or keep the exclusive outcomes' conditions apart";
const ASSERTION_HELP: &str = "the input breaks an assert of the policy; if the input is right, the policy's assumption is wrong";

/// The one outcome entry's payload, decision and reason.
type Single<'a> = (&'a [(Rc<str>, Value)], &'a str, &'a str);

/// The JSON of each rule's entry that is the same in every record, kept
/// with the compiled program and written once per rule, when it first fires
/// (so a compile pays nothing for it): an entry is then a payload and one
/// to three copies, where writing it anew would escape the same reason,
/// position, chain and conditions texts at every eval.
#[derive(Debug)]
pub(crate) struct RuleTexts {
    /// Boxed: a compile makes a cell per rule, most of which never fire.
    rules: Vec<OnceCell<Box<RuleText>>>,
}

/// One rule's [`RuleTexts`].
#[derive(Debug)]
struct RuleText {
    /// `"decision":…,"reason":…,"policy":…,"position":…`.
    head: String,
    /// `,"chain":[…]`, or empty when the chain is.
    chain: String,
    /// `,"conditions":[…]`, or empty when there are none.
    conditions: String,
}

impl RuleTexts {
    /// Room for the texts of `program`'s rules, none written yet.
    pub(crate) fn of(program: &Program) -> Self {
        Self {
            rules: program.rules.iter().map(|_| OnceCell::new()).collect(),
        }
    }

    /// The texts of rule number `rule` of `program`, written on first use.
    fn get(&self, program: &Program, rule: usize) -> Option<&RuleText> {
        let cell = self.rules.get(rule)?;
        let rule = program.rules.get(rule)?;
        Some(cell.get_or_init(|| Box::new(RuleText::of(program, rule))))
    }
}

impl RuleText {
    fn of(program: &Program, rule: &Rule) -> Self {
        let mut head = Json::body();
        head.raw("\"decision\":");
        head.name(program.decision_name(rule.decision));
        head.member("reason");
        head.name(&rule.reason);
        head.member("policy");
        head.name(&rule.policy);
        head.member("position");
        head.string(&rule.position);
        let list = |name: &str, items: &[Rc<str>]| {
            let mut json = Json::body();
            if !items.is_empty() {
                json.member(name);
                json.strings(items);
            }
            json
        };
        Self {
            head: kept(head),
            chain: kept(list("chain", &rule.chain)),
            conditions: kept(list("conditions", &rule.conditions)),
        }
    }
}

/// The text of `json`, without the spare room a record being written has:
/// it is kept as long as the program.
fn kept(json: Json) -> String {
    let mut text = json.into_members();
    text.shrink_to_fit();
    text
}

/// What eval answers: one evaluation of a compiled program, written by
/// [`EvalRecord::write`].
#[derive(Debug)]
pub(crate) struct EvalRecord {
    program: Rc<Program>,
    /// The program's rule texts.
    texts: Rc<RuleTexts>,
    evaluation: Evaluation,
    /// Whether the record has its `trace` member: an eval request's
    /// `"trace":false` (our extension) leaves it out.
    trace: bool,
}

/// What an entry shows besides its payload, decision and reason.
#[derive(Clone, Copy)]
struct Shown {
    chain: bool,
    conditions: bool,
    marked: bool,
}

impl EvalRecord {
    /// The record of `evaluation` of `program` (whose rule texts are
    /// `texts`), with its trace when `trace` is set.
    pub(crate) fn new(
        program: Rc<Program>,
        texts: Rc<RuleTexts>,
        evaluation: Evaluation,
        trace: bool,
    ) -> Self {
        Self {
            program,
            texts,
            evaluation,
            trace,
        }
    }

    /// Writes the record's members, each after a comma.
    pub(crate) fn write(&self, json: &mut Json) {
        let collect_one = self.program.kind.collect == Collect::One;
        let single = self.single();
        if collect_one {
            if let Some((payload, _, _)) = &single {
                if !payload.is_empty() {
                    json.member("payload");
                    write_payload(json, payload);
                }
            }
        }
        if let Some(error) = &self.evaluation.error {
            json.member("error");
            self.error(json, error);
        }
        json.member("policy");
        json.name(&self.program.policy);
        if collect_one {
            if let Some((_, decision, reason)) = &single {
                json.member("decision");
                json.name(decision);
                json.member("reason");
                json.name(reason);
            }
        }
        json.member("outcome");
        self.outcome(json);
        if self.trace {
            self.write_trace(json);
        }
        if !collect_one {
            json.member("collect");
            json.raw("true");
        }
    }

    /// The `trace` member: every candidate, in the order rules produced them.
    fn write_trace(&self, json: &mut Json) {
        json.member("trace");
        json.raw("[");
        for (i, c) in self.evaluation.trace.iter().enumerate() {
            if i > 0 {
                json.raw(",");
            }
            let shown = Shown {
                chain: true,
                conditions: self
                    .evaluation
                    .shows_conditions
                    .get(i)
                    .copied()
                    .unwrap_or(false),
                marked: self.evaluation.marked.get(i).copied().unwrap_or(false),
            };
            self.entry(json, c, shown);
        }
        json.raw("]");
    }

    /// The one outcome entry's payload, decision and reason, when the
    /// outcome has exactly one.
    fn single(&self) -> Option<Single<'_>> {
        let program = &*self.program;
        match &self.evaluation.outcome {
            Outcome::Top(top) if top.len() == 1 => {
                let c = top.first().and_then(|&i| self.evaluation.trace.get(i))?;
                let rule = program.rules.get(c.rule)?;
                Some((
                    &c.payload,
                    program.decision_name(rule.decision),
                    &rule.reason,
                ))
            }
            Outcome::Default => self.fallback_parts(program.default.as_ref()?),
            Outcome::Conflict => self.fallback_parts(program.conflict.as_ref()?),
            _ => None,
        }
    }

    fn fallback_parts<'f>(&'f self, f: &'f Fallback) -> Option<Single<'f>> {
        let decision = self.program.kind.decisions.get(f.decision)?;
        Some((&f.payload, &decision.name, &f.reason))
    }

    fn outcome(&self, json: &mut Json) {
        json.raw("[");
        match &self.evaluation.outcome {
            Outcome::Top(top) => {
                let hidden = Shown {
                    chain: false,
                    conditions: false,
                    marked: false,
                };
                self.entries(json, top, hidden);
            }
            Outcome::Default => self.fallback(json, self.program.default.as_ref()),
            Outcome::Conflict => self.fallback(json, self.program.conflict.as_ref()),
            Outcome::Empty => {}
        }
        json.raw("]");
    }

    fn fallback(&self, json: &mut Json, f: Option<&Fallback>) {
        let Some((payload, decision, reason)) = f.and_then(|f| self.fallback_parts(f)) else {
            return;
        };
        json.raw("{");
        let mut first = true;
        if !payload.is_empty() {
            json.raw("\"payload\":");
            write_payload(json, payload);
            first = false;
        }
        json.raw(if first {
            "\"decision\":"
        } else {
            ",\"decision\":"
        });
        json.name(decision);
        json.member("reason");
        json.name(reason);
        json.raw("}");
    }

    /// An entry: `payload`, `decision`, `reason`, `policy`, `position`,
    /// then what `shown` allows of `chain`, `conditions`, `outcome`.
    fn entry(&self, json: &mut Json, c: &Candidate, shown: Shown) {
        let Some(text) = self.texts.get(&self.program, c.rule) else {
            return;
        };
        json.raw("{");
        if !c.payload.is_empty() {
            json.raw("\"payload\":");
            write_payload(json, &c.payload);
            json.raw(",");
        }
        json.raw(&text.head);
        if shown.chain {
            json.raw(&text.chain);
        }
        if shown.conditions {
            json.raw(&text.conditions);
        }
        if shown.marked {
            json.member("outcome");
            json.raw("true");
        }
        json.raw("}");
    }

    fn error(&self, json: &mut Json, error: &Failure) {
        json.raw("{\"kind\":");
        match error {
            Failure::Runtime(e) => {
                json.raw("\"runtime\"");
                json.member("message");
                json.string(&self.runtime_message(e));
                json.member("help");
                json.string(e.help.as_deref().unwrap_or(RUNTIME_HELP));
            }
            Failure::Canceled => {
                json.raw("\"canceled\"");
                json.member("message");
                json.string("the evaluation was stopped: context deadline exceeded");
                json.member("help");
                json.string(CANCELED_HELP);
            }
            Failure::Conflict {
                message,
                candidates,
            } => {
                json.raw("\"conflict\"");
                json.member("message");
                json.string(message);
                json.member("help");
                json.string(CONFLICT_HELP);
                json.member("candidates");
                self.candidate_list(json, candidates);
            }
            Failure::Assertion {
                phase,
                asserts,
                top,
            } => {
                json.raw("\"assertion\"");
                json.member("phase");
                json.string(match phase {
                    Phase::Input => "input",
                    Phase::Outcome => "outcome",
                });
                let reasons: Vec<String> = asserts
                    .iter()
                    .filter_map(|f| self.program.asserts.get(f.assert))
                    .map(|a| go_quote(&a.reason))
                    .collect();
                json.member("message");
                json.string(&format!("assertions failed: {}", reasons.join(", ")));
                json.member("help");
                json.string(ASSERTION_HELP);
                json.member("asserts");
                json.raw("[");
                for (i, f) in asserts.iter().enumerate() {
                    if i > 0 {
                        json.raw(",");
                    }
                    self.failed_assert(json, f, top);
                }
                json.raw("]");
            }
        }
        json.raw("}");
    }

    /// Conflicting candidates, or those an outcome assert read: with their
    /// chains and conditions.
    fn candidate_list(&self, json: &mut Json, candidates: &[usize]) {
        let shown = Shown {
            chain: true,
            conditions: true,
            marked: false,
        };
        json.raw("[");
        self.entries(json, candidates, shown);
        json.raw("]");
    }

    /// The trace entries numbered `indices`, comma-separated.
    fn entries(&self, json: &mut Json, indices: &[usize], shown: Shown) {
        for (n, c) in indices
            .iter()
            .filter_map(|&i| self.evaluation.trace.get(i))
            .enumerate()
        {
            if n > 0 {
                json.raw(",");
            }
            self.entry(json, c, shown);
        }
    }

    fn failed_assert(&self, json: &mut Json, f: &FailedAssert, top: &[usize]) {
        let Some(def) = self.program.asserts.get(f.assert) else {
            return;
        };
        json.raw("{\"reason\":");
        json.string(&def.reason);
        json.member("policy");
        json.string(&def.policy);
        json.member("position");
        json.string(&def.position);
        if let Some(cause) = &f.cause {
            json.member("cause");
            json.string(&self.runtime_message(cause));
            if let Some(help) = &cause.help {
                json.member("help");
                json.string(help);
            }
        }
        if def.reads_outcome && !top.is_empty() {
            json.member("outcome");
            self.candidate_list(json, top);
        }
        json.raw("}");
    }

    /// `«position»: «message»` of a runtime error.
    fn runtime_message(&self, e: &RuntimeError) -> String {
        format!("{}: {}", self.program.position(&e.at), e.message)
    }
}

/// A payload: an object of every field, keys sorted.
fn write_payload(json: &mut Json, payload: &[(Rc<str>, Value)]) {
    json.raw("{");
    for (i, (name, value)) in payload.iter().enumerate() {
        if i > 0 {
            json.raw(",");
        }
        json.name(name);
        json.raw(":");
        write_value(json, value);
    }
    json.raw("}");
}

/// A value as payloads encode it (language-policies §8.5). A payload
/// can't hold a NaN or infinite float: constants refuse them and the
/// language has no operation that makes one from finite values but `+` and
/// `-` overflowing, which writes `null` rather than invalid JSON.
fn write_value(json: &mut Json, value: &Value) {
    let text = json.text_mut();
    let start = text.len();
    if crate::wire::write_value(value, text).is_err() {
        text.truncate(start);
        text.push_str("null");
    }
}
