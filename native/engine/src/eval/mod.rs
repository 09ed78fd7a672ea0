//! Evaluation (language-policies §7): one input through a compiled
//! program, in three phases — input asserts, rules, outcome asserts — with
//! resolution between the last two, and the fallbacks of every failure.
//!
//! Where things are:
//!
//! * here: [`evaluate`], the phases and what they produce ([`Evaluation`]).
//! * `expr.rs`: expressions, with lets and conditions memoised per
//!   evaluation, the deadline polled as §7.10 says.
//! * `host.rs`: the seam through which host functions are called.
//! * `resolve.rs`: sorting, folding, exclusive sets, rank and count.
//! * `values.rs`: equality and order of values.

mod expr;
mod host;
mod resolve;
#[cfg(test)]
mod tests;
mod values;

use std::rc::Rc;
use std::time::Instant;

use crate::kind::FnDef;
use crate::program::{At, Ex, Node, Program, Work};
use crate::value::Value;

pub use host::{Host, HostError, Unbound};
pub use values::{equal, member, order};

/// A runtime error (language-core §7): where, what, and its own advice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    /// The failing expression.
    pub at: At,
    /// The message.
    pub message: String,
    /// The error's own advice, when it has one.
    pub help: Option<String>,
}

/// Why a phase stopped.
#[derive(Clone, Debug)]
pub(crate) enum Stop {
    /// A runtime error.
    Error(Rc<RuntimeError>),
    /// The deadline passed.
    Canceled,
}

/// A candidate: a rule that fired, with its payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The rule, by number in [`Program::rules`].
    pub rule: usize,
    /// Every payload field, sorted by name.
    pub payload: Vec<(Rc<str>, Value)>,
}

/// What the host acts on.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The top candidates, by number in [`Evaluation::trace`].
    Top(Vec<usize>),
    /// The kind's default outcome.
    Default,
    /// The kind's conflict outcome.
    Conflict,
    /// Nothing: a collecting kind that failed, or found nothing and has no
    /// default.
    Empty,
}

/// The phase an assert runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the rules.
    Input,
    /// After resolution.
    Outcome,
}

/// An assert that failed.
#[derive(Clone, Debug, PartialEq)]
pub struct FailedAssert {
    /// The assert, by number in [`Program::asserts`].
    pub assert: usize,
    /// The runtime error its condition, or an enclosing one, raised.
    pub cause: Option<Rc<RuntimeError>>,
}

/// Why an evaluation failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// A runtime error in the rules.
    Runtime(Rc<RuntimeError>),
    /// Candidates that can't all be the outcome.
    Conflict {
        /// `collect one: 2 candidates at the top rank` or `exclusive …`.
        message: String,
        /// The conflicting candidates, by number in the trace.
        candidates: Vec<usize>,
    },
    /// Asserts that failed, all of one phase, in call-path order.
    Assertion {
        /// Which phase.
        phase: Phase,
        /// The failures.
        asserts: Vec<FailedAssert>,
        /// For the outcome phase, the top candidates the asserts read, by
        /// number in the trace; empty when the outcome was the default.
        top: Vec<usize>,
    },
    /// The deadline passed.
    Canceled,
}

/// The result of one evaluation (language-policies §8).
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Every candidate, winners first (empty after a runtime error, an
    /// input assert failure or cancellation).
    pub trace: Vec<Candidate>,
    /// What the host acts on.
    pub outcome: Outcome,
    /// Why it failed, if it did.
    pub error: Option<Failure>,
    /// Per trace entry: whether it shows its conditions.
    pub shows_conditions: Vec<bool>,
    /// Per trace entry: whether it is marked as (represented in) the
    /// outcome.
    pub marked: Vec<bool>,
}

/// Evaluates `program` on `inputs` (one value per declared input, in
/// declaration order), calling host functions through `host`, stopping
/// with `canceled` once `deadline` passes.
pub fn evaluate(
    program: &Program,
    inputs: &[Value],
    host: &mut dyn Host,
    deadline: Option<Instant>,
) -> Evaluation {
    let mut state = expr::State::new(program, inputs, host, deadline);
    let failed = |error: Failure, program: &Program| Evaluation {
        trace: Vec::new(),
        outcome: fallback(program),
        error: Some(error),
        shows_conditions: Vec::new(),
        marked: Vec::new(),
    };
    if state.poll().is_err() {
        return failed(Failure::Canceled, program);
    }
    match run_asserts(&mut state, Phase::Input) {
        Err(Canceled) => return failed(Failure::Canceled, program),
        Ok(failures) if !failures.is_empty() => {
            let error = Failure::Assertion {
                phase: Phase::Input,
                asserts: failures,
                top: Vec::new(),
            };
            return failed(error, program);
        }
        Ok(_) => {}
    }
    let mut candidates = Vec::new();
    match walk_rules(&mut state, &program.body, &mut candidates) {
        Ok(()) => {}
        Err(Stop::Canceled) => return failed(Failure::Canceled, program),
        Err(Stop::Error(e)) => return failed(Failure::Runtime(e), program),
    }
    let resolved = resolve::resolve(program, candidates);
    if let Some(conflict) = resolved.conflict {
        let outcome = match (program.conflict.is_some(), collects(program)) {
            (_, true) => Outcome::Empty,
            (true, false) => Outcome::Conflict,
            (false, false) => fallback(program),
        };
        let n = resolved.trace.len();
        return Evaluation {
            trace: resolved.trace,
            outcome,
            error: Some(conflict),
            shows_conditions: vec![false; n],
            marked: vec![false; n],
        };
    }
    if program.asserts.iter().any(|a| a.reads_outcome) {
        state.set_outcome(&resolved.trace, &resolved.outcome);
    }
    let shows = shows_conditions(program, &resolved.trace, &resolved.outcome);
    match run_asserts(&mut state, Phase::Outcome) {
        Err(Canceled) => failed(Failure::Canceled, program),
        Ok(failures) if !failures.is_empty() => {
            let n = resolved.trace.len();
            Evaluation {
                trace: resolved.trace,
                outcome: fallback(program),
                error: Some(Failure::Assertion {
                    phase: Phase::Outcome,
                    asserts: failures,
                    top: match &resolved.outcome {
                        Outcome::Top(top) => top.clone(),
                        _ => Vec::new(),
                    },
                }),
                shows_conditions: shows,
                marked: vec![false; n],
            }
        }
        Ok(_) => {
            let marked = marked(program, &resolved.trace, &resolved.outcome);
            Evaluation {
                trace: resolved.trace,
                outcome: resolved.outcome,
                error: None,
                shows_conditions: shows,
                marked,
            }
        }
    }
}

/// Evaluates an invocation argument, with the invoking document's params
/// already bound into `ex`, in `program`, a program without code
/// ([`Program::constants`]): `None` when it reads anything but constants or
/// fails. Arguments take every operator, so they aren't §5.17 constants;
/// `crate::constant` says why the two evaluators stay apart.
pub fn constant(ex: &Ex, program: &Program) -> Option<Value> {
    struct NoCalls;
    impl Host for NoCalls {
        fn call(&mut self, _: &FnDef, _: &[Value]) -> Result<Value, HostError> {
            Err(HostError {
                text: String::new(),
                help: None,
            })
        }
    }
    let mut host = NoCalls;
    let mut state = expr::State::new(program, &[], &mut host, None);
    state.eval(ex, 0).ok()
}

/// Whether the kind collects every top candidate.
fn collects(program: &Program) -> bool {
    program.kind.collect == crate::kind::Collect::All
}

/// The outcome of a failed evaluation: the default, or nothing for a
/// collecting kind.
fn fallback(program: &Program) -> Outcome {
    match (collects(program), program.default.is_some()) {
        (false, true) => Outcome::Default,
        _ => Outcome::Empty,
    }
}

/// Phase 1 or 3: every assert of `phase` whose enclosing conditions hold;
/// a condition that raises fails every assert of the phase beneath it.
/// The deadline passed while asserts ran: a failing assert is a result,
/// so this is the only way their phase stops.
struct Canceled;

fn run_asserts(state: &mut expr::State<'_>, phase: Phase) -> Result<Vec<FailedAssert>, Canceled> {
    let mut failures = Vec::new();
    let in_phase = |a: &crate::program::AssertDef| a.reads_outcome == (phase == Phase::Outcome);
    if !state.program().asserts.iter().any(in_phase) {
        return Ok(failures);
    }
    let body = &state.program().body;
    assert_nodes(state, body, phase, None, &mut failures)?;
    let program = state.program();
    failures.sort_by(|a, b| {
        let path = |f: &FailedAssert| program.asserts.get(f.assert).map(|a| a.path.clone());
        resolve::compare_paths(path(a).as_deref(), path(b).as_deref())
    });
    Ok(failures)
}

fn has_work(work: Work, phase: Phase) -> bool {
    match phase {
        Phase::Input => work.input_asserts,
        Phase::Outcome => work.outcome_asserts,
    }
}

fn assert_nodes(
    state: &mut expr::State<'_>,
    nodes: &[Node],
    phase: Phase,
    cause: Option<&Rc<RuntimeError>>,
    failures: &mut Vec<FailedAssert>,
) -> Result<(), Canceled> {
    for node in nodes {
        match node {
            Node::Rule(_) => {}
            Node::Invoke(inv) if has_work(inv.work, phase) => {
                assert_nodes(state, &inv.body, phase, cause, failures)?;
            }
            Node::Invoke(_) => {}
            Node::When(w) if has_work(w.work, phase) => match cause {
                Some(cause) => assert_nodes(state, &w.body, phase, Some(cause), failures)?,
                None => match state.condition(w) {
                    Ok(true) => assert_nodes(state, &w.body, phase, None, failures)?,
                    Ok(false) => {}
                    Err(Stop::Error(e)) => {
                        assert_nodes(state, &w.body, phase, Some(&e), failures)?;
                    }
                    Err(Stop::Canceled) => return Err(Canceled),
                },
            },
            Node::When(_) => {}
            Node::Assert(i) => {
                let Some(def) = state.program().asserts.get(*i) else {
                    continue;
                };
                if def.reads_outcome != (phase == Phase::Outcome) {
                    continue;
                }
                state.poll().map_err(|_| Canceled)?;
                if let Some(cause) = cause {
                    failures.push(FailedAssert {
                        assert: *i,
                        cause: Some(Rc::clone(cause)),
                    });
                    continue;
                }
                match state.eval(&def.cond, 0) {
                    Ok(Value::Bool(true)) => {}
                    Ok(_) => failures.push(FailedAssert {
                        assert: *i,
                        cause: None,
                    }),
                    Err(Stop::Error(e)) => failures.push(FailedAssert {
                        assert: *i,
                        cause: Some(e),
                    }),
                    Err(Stop::Canceled) => return Err(Canceled),
                }
            }
        }
    }
    Ok(())
}

/// Phase 2: every constructor in a firing block becomes a candidate.
fn walk_rules(
    state: &mut expr::State<'_>,
    nodes: &[Node],
    out: &mut Vec<Candidate>,
) -> Result<(), Stop> {
    for node in nodes {
        match node {
            Node::Assert(_) => {}
            Node::Invoke(inv) => {
                if inv.work.rules {
                    walk_rules(state, &inv.body, out)?;
                }
            }
            Node::When(w) => {
                if w.work.rules && state.condition(w)? {
                    walk_rules(state, &w.body, out)?;
                }
            }
            Node::Rule(i) => {
                state.poll()?;
                let Some(rule) = state.program().rules.get(*i) else {
                    continue;
                };
                let mut payload = Vec::with_capacity(rule.payload.len());
                for (name, arg) in &rule.payload {
                    let value = match arg {
                        crate::program::PayloadArg::Given(ex) => state.eval(ex, 0)?,
                        crate::program::PayloadArg::Default(v) => v.clone(),
                    };
                    payload.push((Rc::clone(name), value));
                }
                out.push(Candidate { rule: *i, payload });
            }
        }
    }
    Ok(())
}

/// Which trace entries show their conditions: those whose decision is the
/// decision of some top candidate.
fn shows_conditions(program: &Program, trace: &[Candidate], outcome: &Outcome) -> Vec<bool> {
    let Outcome::Top(top) = outcome else {
        return vec![false; trace.len()];
    };
    let decision = |c: &Candidate| program.rules.get(c.rule).map(|r| r.decision);
    let decisions: Vec<Option<usize>> = top
        .iter()
        .filter_map(|&i| trace.get(i))
        .map(decision)
        .collect();
    trace
        .iter()
        .map(|c| decisions.contains(&decision(c)))
        .collect()
}

/// Which trace entries are marked `outcome: true`: same position,
/// decision and reason as some outcome entry.
fn marked(program: &Program, trace: &[Candidate], outcome: &Outcome) -> Vec<bool> {
    let Outcome::Top(top) = outcome else {
        return vec![false; trace.len()];
    };
    let key = |c: &Candidate| {
        program
            .rules
            .get(c.rule)
            .map(|r| (&*r.position, r.decision, &*r.reason))
    };
    let keys: Vec<_> = top.iter().filter_map(|&i| trace.get(i)).map(key).collect();
    trace.iter().map(|c| keys.contains(&key(c))).collect()
}
