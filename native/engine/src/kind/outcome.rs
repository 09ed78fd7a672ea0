//! The `default` and `conflict` outcomes (§2.10, §2.11): decision
//! constructors with the reason and payload rules of policies
//! (language-policies §3.6), whose payload values are constants.

use super::error::ConstructorError;
use super::load::Loader;
use super::resolution::declares;
use super::{Collect, DecisionDef, EnumDef, Outcome};
use crate::ast::{CallStmt, Expr, ExprKind, NamedArg, OutcomeDecl};
use crate::constant;
use crate::diag::{Diagnostic, did_you_mean, nearest};
use crate::value::Value;

impl Loader<'_> {
    /// Loads `default` and `conflict`, each at most once, and checks when
    /// they are required or allowed.
    pub(super) fn outcomes(&mut self) {
        let defaults = self.decls.defaults.clone();
        let conflicts = self.decls.conflicts.clone();
        let default = self.once(&defaults, "default");
        let conflict = self.once(&conflicts, "conflict");
        let kind = self.name().to_string();
        if default.is_none() && self.collect != Some(Collect::All) {
            let problem = ConstructorError::NoDefault { kind: kind.clone() };
            self.report(problem.to_diagnostic(self.header_span()));
        }
        if let (Some(decl), Some(Collect::All)) = (conflict, self.collect) {
            let problem = ConstructorError::ConflictWhenCollectingAll { kind };
            self.report(problem.to_diagnostic(decl.span));
        }
        self.default = default.and_then(|d| self.outcome(d, "default"));
        self.conflict = conflict.and_then(|c| self.outcome(c, "conflict"));
    }

    /// The outcome `decl` constructs, or `None` when its decision is
    /// unknown. `what` is `default` or `conflict`.
    fn outcome(&mut self, decl: &OutcomeDecl, what: &str) -> Option<Outcome> {
        let call = &decl.call;
        let Some(decision) = self.decisions.iter().find(|d| d.name == call.name.name) else {
            let problem = ConstructorError::UndeclaredDecision {
                what: what.to_owned(),
                name: call.name.name.clone(),
                did_you_mean: did_you_mean(
                    &call.name.name,
                    self.decisions.iter().map(|d| d.name.as_str()),
                ),
            };
            self.report(problem.to_diagnostic(call.name.span));
            return None;
        };
        let mut problems = Vec::new();
        let reason = constructor_reason(call, decision, &mut problems);
        let args = payload(
            call,
            decision,
            &self.enums,
            &self.broken_defaults,
            &mut problems,
        );
        self.diagnostics.extend(problems);
        Some(Outcome {
            decision: decision.name.clone(),
            reason: reason.unwrap_or_default(),
            args,
        })
    }
}

/// The reason `call` names, checked as in §3.6 rule 3: the rules of a
/// constructor's `reason:` in a kind's `default`/`conflict` and in a
/// policy alike, so the checker calls this too.
pub(crate) fn constructor_reason(
    call: &CallStmt,
    decision: &DecisionDef,
    out: &mut Vec<Diagnostic>,
) -> Option<String> {
    let d = &decision.name;
    let mut given = call.args.iter().filter(|a| a.name.name == "reason");
    if let Some(positional) = &call.positional {
        out.push(positional_reason(call, positional, decision));
        return None;
    }
    let Some(first) = given.next() else {
        let problem = ConstructorError::NeedsReason {
            decision: d.clone(),
            declares: declares(d, &decision.reasons),
        };
        out.push(problem.to_diagnostic(call.span));
        return None;
    };
    for again in given {
        out.push(ConstructorError::ReasonTwice.to_diagnostic(again.name.span));
    }
    match reason_name(&first.value) {
        Ok(name) if decision.has_reason(name) => Some(name.to_owned()),
        Ok(name) => {
            let problem = ConstructorError::NoSuchReason {
                decision: d.clone(),
                reason: name.to_owned(),
                help: decision.reasons_help(name),
            };
            out.push(problem.to_diagnostic(first.value.span));
            None
        }
        Err(problem) => {
            out.push(problem.to_diagnostic(first.value.span));
            None
        }
    }
}

/// The bare name a `reason:` argument must be, or why it isn't one.
fn reason_name(value: &Expr) -> Result<&str, ConstructorError> {
    match &value.kind {
        ExprKind::Ident(name) => Ok(name),
        ExprKind::String { value: text, .. } => Err(ConstructorError::StringReason {
            text: String::from_utf8_lossy(text).into_owned(),
        }),
        ExprKind::Field {
            target,
            name,
            optional: false,
        } if matches!(target.kind, ExprKind::Ident(_)) => Err(ConstructorError::QualifiedReason {
            name: name.name.clone(),
        }),
        _ => Err(ConstructorError::NotAReasonName),
    }
}

/// The legacy positional reason `d(x)`: an error at the argument whose
/// help rewrites the whole call with `reason:` first.
fn positional_reason(call: &CallStmt, positional: &Expr, decision: &DecisionDef) -> Diagnostic {
    let written = positional.canonical();
    let reason = match &positional.kind {
        ExprKind::Ident(name) => nearest(name, decision.reasons.iter().map(String::as_str))
            .unwrap_or(name)
            .to_owned(),
        _ => written,
    };
    let mut args = vec![format!("reason: {reason}")];
    args.extend(
        call.args
            .iter()
            .map(|a| format!("{}: {}", a.name.name, a.value.canonical())),
    );
    let problem = ConstructorError::PositionalReason {
        rewritten: format!("{}({})", call.name.name, args.join(", ")),
    };
    problem.to_diagnostic(positional.span)
}

/// The payload arguments of `call` as constants, checked as in §3.6 rule 4.
/// A field in `broken` has a default that failed to load; it still counts
/// as one, so it isn't reported as required too.
fn payload(
    call: &CallStmt,
    decision: &DecisionDef,
    enums: &[EnumDef],
    broken: &[(String, String)],
    out: &mut Vec<Diagnostic>,
) -> Vec<(String, Value)> {
    let d = &decision.name;
    let mut args: Vec<(String, Value)> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for NamedArg { name, value } in call.args.iter().filter(|a| a.name.name != "reason") {
        let Some(field) = decision.field(&name.name) else {
            let problem = ConstructorError::no_payload_field(decision, &name.name);
            out.push(problem.to_diagnostic(name.span));
            continue;
        };
        if seen.contains(&name.name.as_str()) {
            let problem = ConstructorError::FieldTwice {
                field: name.name.clone(),
                in_kind: true,
            };
            out.push(problem.to_diagnostic(name.span));
            continue;
        }
        seen.push(&name.name);
        if field.ty.is_invalid() {
            continue;
        }
        match constant::eval(value, &field.ty, enums) {
            Ok(v) => args.push((name.name.clone(), v)),
            Err(problem) => out.push(problem),
        }
    }
    for missing in decision
        .fields
        .iter()
        .filter(|f| f.default.is_none() && !seen.contains(&f.name.as_str()))
        .filter(|f| !broken.iter().any(|(bd, bf)| *bd == *d && *bf == f.name))
    {
        let problem = ConstructorError::NeedsField {
            decision: d.clone(),
            field: missing.name.clone(),
            signature: decision.signature(),
        };
        out.push(problem.to_diagnostic(call.span));
    }
    args
}
