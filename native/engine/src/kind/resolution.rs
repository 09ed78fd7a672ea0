//! How candidates resolve (§2.7–§2.9): `collect`, the decision ranking,
//! the reason rankings and the `exclusive` sets.

use super::load::Loader;
use super::{Collect, DecisionDef, OutcomeRef};
use crate::ast::{Ident, PrecedenceDecl};
use crate::diag::{Diagnostic, did_you_mean, go_quote, merge_help};
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
            self.report(
                Diagnostic::error(extra.span(), format!("{what} is declared twice"))
                    .with_help(format!("a kind declares `{what}` once; remove one")),
            );
        }
        decls.first().copied()
    }

    /// `collect one` / `collect all`, exactly once (§2.7).
    fn collect(&mut self, ranking: Option<&PrecedenceDecl>) {
        let collects = self.decls.collects.clone();
        let name = self.name();
        let Some(decl) = self.once(&collects, "collect") else {
            let problem = match ranking {
                Some(p) => Diagnostic::error(p.span, format!("kind {name} has precedence but no collect"))
                    .with_help("add `collect one` to return the highest-ranked decision, or `collect all` for every one at the top rank"),
                None => Diagnostic::error(
                    self.header_span(),
                    format!("kind {name} doesn't declare how many decisions it returns"),
                )
                .with_help("add `collect one` with a `precedence`, or `collect all`"),
            };
            self.report(problem);
            return;
        };
        let collect = if decl.all { Collect::All } else { Collect::One };
        if collect == Collect::One && ranking.is_none() {
            self.report(
                Diagnostic::error(
                    decl.span,
                    format!("kind {name} collects one decision but has no precedence"),
                )
                .with_help(
                    "rank the decisions, highest first, like `precedence deny > review > approve`",
                ),
            );
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
        let Some(index) = self.decision_index(scope, "precedence: undeclared decision") else {
            return;
        };
        let Some(decision) = self.decisions.get(index) else {
            return;
        };
        let d = decision.name.clone();
        if decision.ranked.is_some() {
            self.report(
                Diagnostic::error(decl.span, format!("precedence {d} is declared twice"))
                    .with_help(format!(
                        "rank the reasons of {d} in one `precedence {d}: …`"
                    )),
            );
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
            let (name, quoted) = (&ident.name, go_quote(&ident.name));
            if !ranking.declared.contains(name) {
                self.report(
                    Diagnostic::error(
                        ident.span,
                        format!("{prefix} names undeclared {noun} {quoted}"),
                    )
                    .with_help((ranking.undeclared_help)(name)),
                );
            } else if named.contains(name) {
                self.report(
                    Diagnostic::error(ident.span, format!("{prefix} names {quoted} twice"))
                        .with_help(format!("name every {noun} exactly once")),
                );
            }
            named.push(name.clone());
        }
        for missing in ranking.declared.iter().filter(|d| !named.contains(d)) {
            self.report(
                Diagnostic::error(
                    decl.span,
                    format!("{prefix} doesn't name {noun} {}", go_quote(missing)),
                )
                .with_help(format!("name every {noun} exactly once, highest first")),
            );
        }
        named
    }

    /// Every `exclusive` set: declared decisions, and declared reasons.
    fn exclusive(&mut self) {
        for decl in self.decls.exclusives.clone() {
            let mut set: Vec<OutcomeRef> = Vec::new();
            for outcome in &decl.outcomes {
                let index =
                    self.decision_index(&outcome.decision, "exclusive: undeclared decision");
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
    /// `<message> "<d>"` at it.
    fn decision_index(&mut self, ident: &Ident, message: &str) -> Option<usize> {
        let found = self.decisions.iter().position(|d| d.name == ident.name);
        if found.is_none() {
            let help = merge_help([
                did_you_mean(&ident.name, self.decisions.iter().map(|d| d.name.as_str()))
                    .unwrap_or_default(),
                "name one of the kind's decisions".to_owned(),
            ]);
            self.report(
                Diagnostic::error(ident.span, format!("{message} {}", go_quote(&ident.name)))
                    .with_help(help),
            );
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
    Diagnostic::error(
        span,
        format!(
            "exclusive: decision {} has no reason {}",
            decision.name,
            go_quote(&reason.name)
        ),
    )
    .with_help(declares(&decision.name, &decision.reasons))
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
