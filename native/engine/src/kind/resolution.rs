//! How candidates resolve (§2.7–§2.9): `collect`, the decision ranking,
//! the reason rankings and the `exclusive` sets.

use super::error::ResolutionError;
use super::load::Loader;
use super::{Collect, DecisionDef, OutcomeRef};
use crate::ast::{Ident, PrecedenceDecl};
use crate::diag::{Diagnostic, did_you_mean, merge_help};
use crate::source::Span;

impl<'d> Loader<'d> {
    /// The decision ranking, `collect`, the reason rankings and the
    /// `exclusive` sets.
    pub(super) fn resolution(&mut self) {
        let (ranking, scoped): (Vec<&'d PrecedenceDecl>, Vec<&'d PrecedenceDecl>) = self
            .decls
            .precedences
            .clone()
            .into_iter()
            .partition(|p| p.scope.is_none());
        let ranking = self.once(&ranking, "precedence");
        if let Some(decl) = ranking {
            self.decision_ranking(decl);
        }
        self.collect(ranking);
        for decl in scoped {
            self.reason_ranking(decl);
        }
        self.exclusive();
    }

    /// The first of `decls`, reporting every later one as declared twice.
    pub(super) fn once<'a, T: HasSpan>(&mut self, decls: &[&'a T], what: &str) -> Option<&'a T> {
        for extra in decls.iter().skip(1) {
            let problem = ResolutionError::DeclaredTwice {
                what: what.to_owned(),
            };
            self.report(problem.to_diagnostic(extra.span()));
        }
        decls.first().copied()
    }

    /// `collect one` / `collect all`, exactly once (§2.7).
    fn collect(&mut self, ranking: Option<&PrecedenceDecl>) {
        let collects = self.decls.collects.clone();
        let kind = self.name().to_string();
        let Some(decl) = self.once(&collects, "collect") else {
            let problem = match ranking {
                Some(p) => ResolutionError::PrecedenceWithoutCollect { kind }.to_diagnostic(p.span),
                None => ResolutionError::NoCollect { kind }.to_diagnostic(self.header_span()),
            };
            self.report(problem);
            return;
        };
        let collect = if decl.all { Collect::All } else { Collect::One };
        if collect == Collect::One && ranking.is_none() {
            let problem = ResolutionError::CollectOneWithoutPrecedence { kind };
            self.report(problem.to_diagnostic(decl.span));
        }
        self.collect = Some(collect);
    }

    /// `precedence d1 > d2 > …`: every declared decision exactly once.
    fn decision_ranking(&mut self, decl: &PrecedenceDecl) {
        let declared: Vec<String> = self.decisions.iter().map(|d| d.name.clone()).collect();
        let undeclared_help = |name: &str| {
            merge_help([
                did_you_mean(name, declared.iter().map(String::as_str)).unwrap_or_default(),
                "precedence ranks the declared decisions, highest first".to_owned(),
            ])
        };
        let ranking = Ranking {
            prefix: "precedence".to_owned(),
            noun: "decision",
            declared: &declared,
            undeclared_help: &undeclared_help,
        };
        self.precedence = self.rank(decl, &ranking);
    }

    /// `precedence d: r1 > r2 > …`: at most one per decision, every reason
    /// of `d` exactly once.
    fn reason_ranking(&mut self, decl: &PrecedenceDecl) {
        let Some(scope) = &decl.scope else {
            return;
        };
        let Some(index) = self.decision_index(scope, "precedence:") else {
            return;
        };
        let Some(decision) = self.decisions.get(index) else {
            return;
        };
        let d = decision.name.clone();
        if decision.ranked.is_some() {
            let problem = ResolutionError::ReasonRankingTwice { decision: d };
            self.report(problem.to_diagnostic(decl.span));
            return;
        }
        let reasons = decision.reasons.clone();
        let undeclared_help = |_: &str| declares(&d, &reasons);
        let ranking = Ranking {
            prefix: format!("precedence {d}:"),
            noun: "reason",
            declared: &reasons,
            undeclared_help: &undeclared_help,
        };
        let ranked = self.rank(decl, &ranking);
        if let Some(decision) = self.decisions.get_mut(index) {
            decision.ranked = Some(ranked);
        }
    }

    /// The names `decl` ranks, reporting a name `ranking` doesn't declare,
    /// a name ranked twice, and a declared name left out.
    fn rank(&mut self, decl: &PrecedenceDecl, ranking: &Ranking<'_>) -> Vec<String> {
        let Ranking { prefix, noun, .. } = ranking;
        let mut named: Vec<String> = Vec::new();
        for ident in &decl.names {
            let name = &ident.name;
            if !ranking.declared.contains(name) {
                let problem = ResolutionError::RanksUndeclared {
                    prefix: prefix.clone(),
                    noun,
                    name: name.clone(),
                    help: (ranking.undeclared_help)(name),
                };
                self.report(problem.to_diagnostic(ident.span));
            } else if named.contains(name) {
                let problem = ResolutionError::RanksTwice {
                    prefix: prefix.clone(),
                    noun,
                    name: name.clone(),
                };
                self.report(problem.to_diagnostic(ident.span));
            }
            named.push(name.clone());
        }
        for missing in ranking.declared.iter().filter(|d| !named.contains(d)) {
            let problem = ResolutionError::RankingMisses {
                prefix: prefix.clone(),
                noun,
                name: missing.clone(),
            };
            self.report(problem.to_diagnostic(decl.span));
        }
        named
    }

    /// Every `exclusive` set: declared decisions, and declared reasons.
    fn exclusive(&mut self) {
        for decl in self.decls.exclusives.clone() {
            let mut set: Vec<OutcomeRef> = Vec::new();
            for outcome in &decl.outcomes {
                let index = self.decision_index(&outcome.decision, "exclusive:");
                let decision = index.and_then(|i| self.decisions.get(i));
                if let (Some(decision), Some(reason)) = (decision, &outcome.reason) {
                    if !decision.has_reason(&reason.name) {
                        let problem = no_reason(decision, reason, reason.span);
                        self.report(problem);
                    }
                }
                set.push(OutcomeRef {
                    decision: outcome.decision.name.clone(),
                    reason: outcome.reason.as_ref().map(|r| r.name.clone()),
                });
            }
            self.exclusive.push(set);
        }
    }

    /// The index of the decision `ident` names, or `None` after reporting
    /// `<place> undeclared decision "<d>"` at it.
    fn decision_index(&mut self, ident: &Ident, place: &'static str) -> Option<usize> {
        let found = self.decisions.iter().position(|d| d.name == ident.name);
        if found.is_none() {
            let problem = ResolutionError::UndeclaredDecision {
                place,
                name: ident.name.clone(),
                did_you_mean: did_you_mean(
                    &ident.name,
                    self.decisions.iter().map(|d| d.name.as_str()),
                ),
            };
            self.report(problem.to_diagnostic(ident.span));
        }
        found
    }
}

/// What a `precedence` ranks, for its messages.
struct Ranking<'r> {
    /// `precedence`, or `precedence d:` for the reasons of `d`.
    prefix: String,
    /// `decision` or `reason`.
    noun: &'static str,
    /// The names to rank, each exactly once.
    declared: &'r [String],
    /// The help for a name that isn't declared.
    undeclared_help: &'r dyn Fn(&str) -> String,
}

/// `exclusive: decision <d> has no reason "<r>"` at `span`.
fn no_reason(decision: &DecisionDef, reason: &Ident, span: Span) -> Diagnostic {
    let problem = ResolutionError::ExclusiveNoReason {
        decision: decision.name.clone(),
        reason: reason.name.clone(),
        declares: declares(&decision.name, &decision.reasons),
    };
    problem.to_diagnostic(span)
}

/// `<d> declares: r1, r2`.
pub(super) fn declares(decision: &str, reasons: &[String]) -> String {
    format!("{decision} declares: {}", reasons.join(", "))
}

/// A declaration with a span, for [`Loader::once`].
pub(super) trait HasSpan {
    /// The declaration's source range.
    fn span(&self) -> Span;
}

impl HasSpan for PrecedenceDecl {
    fn span(&self) -> Span {
        self.span
    }
}

impl HasSpan for crate::ast::CollectDecl {
    fn span(&self) -> Span {
        self.span
    }
}

impl HasSpan for crate::ast::OutcomeDecl {
    fn span(&self) -> Span {
        self.span
    }
}
