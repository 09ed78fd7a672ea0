//! Checks a [`KindBuilder`] and writes its kind document (bindings §13.2-13.4).

use std::collections::{HashMap, HashSet};

use super::constants;
use super::decision::{Decision, Field, Outcome, OutcomeRef};
use super::types::{Repr, Type};
use super::KindBuilder;
use crate::quote::go_quote;

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Writes the kind: its text and every problem, in the documented order.
pub(crate) fn write(draft: &KindBuilder) -> (String, Vec<String>) {
    let mut writer = Writer {
        draft,
        problems: draft.problems.clone(),
        by_name: HashMap::new(),
        rankings: HashMap::new(),
        exclusive_sets: Vec::new(),
        precedence: Vec::new(),
    };
    writer.check_header();
    writer.check_decisions();
    writer.resolve_precedence();
    writer.check_fallbacks();
    writer.resolve_rankings();
    writer.resolve_exclusive_sets();
    let walk = writer.walk_types();
    let text = writer.text(&walk);
    (text, writer.problems)
}

struct Writer<'a> {
    draft: &'a KindBuilder,
    problems: Vec<String>,
    // Of two decisions of one name the later wins, which only matters once that is a problem.
    by_name: HashMap<&'a str, &'a Decision>,
    rankings: HashMap<String, Vec<String>>,
    exclusive_sets: Vec<String>,
    precedence: Vec<String>,
}

impl<'a> Writer<'a> {
    fn problem(&mut self, text: String) {
        self.problems.push(text);
    }

    fn advised(&mut self, text: String, advice: &str) {
        self.problems.push(format!("{text} ({advice})"));
    }

    fn check_header(&mut self) {
        let d = self.draft;
        if !is_identifier(&d.name) {
            self.advised(
                format!("kind name {} isn't an identifier", go_quote(&d.name)),
                "use letters, digits and underscores, like AlertRouting",
            );
        }
        if d.version < 1 {
            self.problem(format!("version {} isn't a whole number from 1", d.version));
        }
        if d.accepts < 1 || d.accepts > d.version {
            self.problem(format!(
                "accepts {} isn't from 1 to the version, {}",
                d.accepts, d.version
            ));
        }
    }

    fn check_decisions(&mut self) {
        if self.draft.decisions.is_empty() {
            self.advised(
                "the kind declares no decisions".into(),
                "set decisions, or collect_all for a collecting kind",
            );
        }
        for d in &self.draft.decisions {
            if self.by_name.insert(&d.name, d).is_some() {
                self.problem(format!("decision {} is declared twice", d.name));
            }
            if !is_identifier(&d.name) {
                self.problem(format!(
                    "decision name {} isn't an identifier",
                    go_quote(&d.name)
                ));
            }
            if d.reasons.is_empty() {
                self.problem(format!("decision {} declares no reasons", d.name));
            }
            let mut reasons = HashSet::new();
            for r in &d.reasons {
                if !reasons.insert(r) {
                    self.problem(format!("decision {} declares reason {r} twice", d.name));
                }
                if !is_identifier(r) {
                    self.problem(format!(
                        "decision {}: reason {} isn't an identifier",
                        d.name,
                        go_quote(r)
                    ));
                }
            }
            let mut fields = HashSet::new();
            for f in &d.fields {
                if !fields.insert(&f.name) {
                    self.problem(format!(
                        "decision {}: field {} is declared twice",
                        d.name, f.name
                    ));
                }
            }
        }
    }

    // `collect one` ranks its decisions in declaration order; a collecting kind only when given a
    // precedence, which must then be a permutation of the decisions.
    fn resolve_precedence(&mut self) {
        let names: Vec<String> = self
            .draft
            .decisions
            .iter()
            .map(|d| d.name.clone())
            .collect();
        if !self.draft.collect_all {
            if self.draft.precedence.is_some() {
                self.advised(
                    "precedence is for a collecting kind".into(),
                    "decisions already ranks them in order",
                );
            }
            self.precedence = names;
            return;
        }
        let Some(given) = self.draft.precedence.as_ref().filter(|p| !p.is_empty()) else {
            return;
        };
        self.precedence = given.clone();
        let unique = given.iter().collect::<HashSet<_>>().len() == given.len();
        let covers = names.iter().all(|n| given.contains(n));
        let known = given.iter().all(|g| self.by_name.contains_key(g.as_str()));
        if !unique || !covers || !known {
            self.advised(
                "precedence must list every decision of the kind once".into(),
                &format!("the decisions are {}", names.join(", ")),
            );
        }
    }

    fn check_fallbacks(&mut self) {
        let d = self.draft;
        if !d.collect_all && d.default_outcome.is_none() && !d.decisions.is_empty() {
            self.advised(
                "a `collect one` kind needs a default".into(),
                "set default_outcome to the outcome when no rule fires",
            );
        }
        if d.collect_all && d.conflict.is_some() {
            self.advised(
                "conflict is for a `collect one` kind".into(),
                "a collecting kind applies every decision, so nothing conflicts over the one outcome",
            );
        }
        if let Some(outcome) = &d.default_outcome {
            self.check_fallback(outcome, "default");
        }
        if let Some(outcome) = &d.conflict {
            self.check_fallback(outcome, "conflict");
        }
    }

    // A fallback outcome has no rule to give payload values: each field needs a default.
    fn check_fallback(&mut self, outcome: &Outcome, what: &str) {
        if let Some(d) = self.declared(outcome, what) {
            for f in d.fields.iter().filter(|f| f.default.is_none()) {
                self.advised(
                    format!("{what} {outcome}: payload field {} has no default", f.name),
                    "give it one with field_default",
                );
            }
        }
    }

    fn declared(&mut self, outcome: &Outcome, what: &str) -> Option<&'a Decision> {
        let Some(d) = self.by_name.get(outcome.decision.as_str()).copied() else {
            self.problem(format!(
                "{what} {outcome}: decision {} isn't one of the kind's",
                outcome.decision
            ));
            return None;
        };
        if !d.reasons.contains(&outcome.reason) {
            self.problem(format!(
                "{what} {outcome}: decision {} has no reason {}",
                d.name, outcome.reason
            ));
        }
        Some(d)
    }

    fn resolve_rankings(&mut self) {
        for ranking in &self.draft.rankings {
            let Some(first) = ranking.first() else {
                self.problem("a reason ranking names no reasons".into());
                continue;
            };
            let decision = first.decision.clone();
            let Some(d) = self.by_name.get(decision.as_str()).copied() else {
                self.problem(format!(
                    "reason ranking: decision {decision} isn't one of the kind's"
                ));
                continue;
            };
            let mut reasons = Vec::new();
            for o in ranking {
                if o.decision == decision {
                    reasons.push(o.reason.clone());
                } else {
                    self.advised(
                        format!(
                            "reason ranking {decision}: reason {} belongs to decision {}",
                            o.reason, o.decision
                        ),
                        "rank each decision's reasons in a ranking of its own",
                    );
                }
            }
            if self.rankings.contains_key(&decision) {
                self.problem(format!("reasons of {decision} are ranked twice"));
            }
            let unique = reasons.iter().collect::<HashSet<_>>().len() == reasons.len();
            let same = d.reasons.iter().all(|r| reasons.contains(r))
                && reasons.iter().all(|r| d.reasons.contains(r));
            if !unique || !same {
                self.advised(
                    format!("the reason ranking of {decision} must name every reason of {decision} once"),
                    &format!("{decision} declares: {}", d.reasons.join(", ")),
                );
            }
            self.rankings.insert(decision, reasons);
        }
    }

    fn resolve_exclusive_sets(&mut self) {
        for set in &self.draft.exclusive_sets {
            if set.len() < 2 {
                self.problem("an exclusive set names at least two outcomes".into());
            }
            for member in set {
                match member {
                    OutcomeRef::Outcome(outcome) => {
                        self.declared(outcome, "exclusive");
                    }
                    OutcomeRef::Decision(name) if !self.by_name.contains_key(name.as_str()) => {
                        self.problem(format!(
                            "exclusive: decision {name} isn't one of the kind's"
                        ));
                    }
                    OutcomeRef::Decision(_) => {}
                }
            }
            self.exclusive_sets.push(
                set.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
    }

    // Inputs, then each function's parameters and result, then payload fields, then the enums
    // declared on their own: the order the kind file prints enums and structs in.
    fn walk_types(&mut self) -> TypeWalk<'a> {
        let draft: &'a KindBuilder = self.draft;
        let mut walk = TypeWalk::default();
        for (_, ty) in &draft.inputs {
            walk.visit(ty, &mut self.problems);
        }
        for (name, decl) in &draft.functions {
            if !is_identifier(name) {
                self.problem(format!(
                    "function name {} isn't an identifier",
                    go_quote(name)
                ));
            }
            for param in &decl.params {
                walk.visit(param, &mut self.problems);
            }
            walk.visit(&decl.result, &mut self.problems);
            if matches!(decl.result.0, Repr::Optional(_)) {
                self.advised(
                    format!("function {name}: the result can't be optional"),
                    "return the zero value and let the policy compare, or return a list",
                );
            }
        }
        for d in &draft.decisions {
            for f in &d.fields {
                walk.visit(&f.ty, &mut self.problems);
            }
        }
        for e in &draft.enums {
            walk.visit(e, &mut self.problems);
        }
        for e in &walk.enums {
            if let Repr::Enum { name, values } = &e.0 {
                if values.is_empty() {
                    self.problem(format!("enum {name} declares no values"));
                }
                if values.iter().collect::<HashSet<_>>().len() != values.len() {
                    self.problem(format!("enum {name} declares a value twice"));
                }
            }
        }
        for s in &walk.structs {
            if let Repr::Struct { name, fields } = &s.0 {
                let mut seen = HashSet::new();
                for (field, _) in fields {
                    if !seen.insert(field) {
                        self.problem(format!("struct {name}: field {field} is declared twice"));
                    }
                }
            }
        }
        walk
    }

    fn text(&mut self, types: &TypeWalk<'_>) -> String {
        let d = self.draft;
        let mut out = format!("kind {} version {}", d.name, d.version);
        if d.accepts > 1 {
            out.push_str(&format!(", accepts: {}", d.accepts));
        }
        out.push('\n');
        let enums = types.enums.iter().filter_map(|e| match &e.0 {
            Repr::Enum { name, values } => Some(format!("enum {name}: {}", values.join(" | "))),
            _ => None,
        });
        group(&mut out, enums.collect());
        for s in &types.structs {
            if let Repr::Struct { name, fields } = &s.0 {
                out.push_str(&format!("\ntype {name} {{"));
                if !fields.is_empty() {
                    out.push('\n');
                }
                for (field, ty) in fields {
                    out.push_str(&format!("  {field}: {ty}\n"));
                }
                out.push_str("}\n");
            }
        }
        group(
            &mut out,
            d.inputs
                .iter()
                .map(|(name, ty)| format!("input {name}: {ty}"))
                .collect(),
        );
        let signatures = d.functions.iter().map(|(name, decl)| {
            let params: Vec<String> = decl.params.iter().map(ToString::to_string).collect();
            format!("fn {name}({}) -> {}", params.join(", "), decl.result)
        });
        group(&mut out, signatures.collect());
        for decision in &d.decisions {
            out.push_str(&format!(
                "\ndecision {} {{\n  reason: {}\n",
                decision.name,
                decision.reasons.join(" | ")
            ));
            for f in &decision.fields {
                out.push_str(&format!("  {}: {}", f.name, f.ty));
                if let Some(value) = &f.default {
                    let text = self.default_text(decision, f, value);
                    out.push_str(&format!(" = {text}"));
                }
                out.push('\n');
            }
            out.push_str("}\n");
        }
        let resolution = self.resolution_lines();
        if !resolution.is_empty() {
            out.push('\n');
            out.push_str(&resolution.join("\n"));
            out.push('\n');
        }
        if let Some(o) = &d.default_outcome {
            out.push_str(&format!("\ndefault {}(reason: {})\n", o.decision, o.reason));
        }
        if let Some(o) = &d.conflict {
            // Without a default (only a kind with problems) the pair's blank line comes first.
            if d.default_outcome.is_none() {
                out.push('\n');
            }
            out.push_str(&format!("conflict {}(reason: {})\n", o.decision, o.reason));
        }
        out
    }

    fn default_text(&mut self, d: &Decision, f: &Field, value: &serde_json::Value) -> String {
        let at = format!("decision {}: field {}: ", d.name, f.name);
        if matches!(f.ty.0, Repr::Optional(_)) && value.is_null() {
            self.problem(format!("{at}`none` isn't a constant: leave the default out; a field without one is required"));
            return "none".into();
        }
        match constants::text(&f.ty, value) {
            Ok(text) => text,
            Err(why) => {
                self.problem(format!("{at}{why}"));
                "?".into()
            }
        }
    }

    fn resolution_lines(&self) -> Vec<String> {
        let d = self.draft;
        let mut lines = Vec::new();
        if !d.decisions.is_empty() {
            lines.push(
                if d.collect_all {
                    "collect all"
                } else {
                    "collect one"
                }
                .to_owned(),
            );
        }
        if !self.precedence.is_empty() {
            lines.push(format!("precedence {}", self.precedence.join(" > ")));
        }
        for decision in &d.decisions {
            if let Some(ranked) = self.rankings.get(&decision.name) {
                lines.push(format!(
                    "precedence {}: {}",
                    decision.name,
                    ranked.join(" > ")
                ));
            }
        }
        lines.extend(
            self.exclusive_sets
                .iter()
                .map(|set| format!("exclusive {set}")),
        );
        lines
    }
}

fn group(out: &mut String, lines: Vec<String>) {
    if !lines.is_empty() {
        out.push('\n');
    }
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
}

/// The enums and structs a kind prints, in the order first reached (bindings §13.3).
#[derive(Default)]
struct TypeWalk<'a> {
    enums: Vec<&'a Type>,
    structs: Vec<&'a Type>,
    by_name: HashMap<String, &'a Type>,
}

impl<'a> TypeWalk<'a> {
    fn visit(&mut self, ty: &'a Type, problems: &mut Vec<String>) {
        match &ty.0 {
            Repr::Enum { .. } if self.claim(ty, problems) => self.enums.push(ty),
            // Registered before its fields, so a nested struct prints after its container.
            Repr::Struct { fields, .. } if self.claim(ty, problems) => {
                self.structs.push(ty);
                for (_, field) in fields {
                    self.visit(field, problems);
                }
            }
            Repr::List(element) | Repr::Optional(element) => self.visit(element, problems),
            Repr::Map(key, value) => {
                self.visit(key, problems);
                self.visit(value, problems);
            }
            _ => {}
        }
    }

    // Whether the name is new. The same type again is no news; another type under a taken name is
    // a clash, and the first keeps the name.
    fn claim(&mut self, ty: &'a Type, problems: &mut Vec<String>) -> bool {
        let name = ty.to_string();
        match self.by_name.get(&name) {
            None => {
                self.by_name.insert(name, ty);
                true
            }
            Some(known) => {
                if *known != ty {
                    problems.push(format!("two different types are both named {name} (rename one; each enum and struct needs a name of its own)"));
                }
                false
            }
        }
    }
}
