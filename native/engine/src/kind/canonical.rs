//! The canonical text of a kind (language-policies §2.14), byte for byte:
//! what a host's export writes, what a kind file loads back to, and how two
//! kinds compare (the same contract exactly when the texts are equal).
//!
//! Categories come in a fixed order, each in model order, so a kind file
//! whose declarations are interleaved prints regrouped.

use super::{Collect, DecisionDef, FnDef, Kind, Outcome, OutcomeRef};
use crate::value::Value;

impl Kind {
    /// The kind in canonical form; ends with one `\n`.
    pub fn canonical_text(&self) -> String {
        let mut out = format!("kind {} version {}", self.name, self.version);
        if self.accepts > 1 {
            out.push_str(&format!(", accepts: {}", self.accepts));
        }
        out.push('\n');
        self.write_declarations(&mut out);
        let resolution = self.resolution_lines();
        if !resolution.is_empty() {
            out.push('\n');
            out.push_str(&resolution.join("\n"));
            out.push('\n');
        }
        if let Some(default) = &self.default {
            out.push_str(&format!("\ndefault {}\n", self.call_text(default)));
        }
        if let Some(conflict) = &self.conflict {
            // Without a default (only an invalid kind) the blank line that
            // separates the pair from the rest still comes first.
            if self.default.is_none() {
                out.push('\n');
            }
            out.push_str(&format!("conflict {}\n", self.call_text(conflict)));
        }
        out
    }

    /// Enums, types, inputs, functions and decisions.
    fn write_declarations(&self, out: &mut String) {
        group(
            out,
            self.enums
                .iter()
                .map(|e| format!("enum {}: {}", e.name, e.values.join(" | "))),
        );
        for t in &self.types {
            // `type T {}` stays on one line.
            out.push_str(&format!("\ntype {} {{", t.name));
            if !t.fields.is_empty() {
                out.push('\n');
            }
            for f in &t.fields {
                out.push_str(&format!("  {}: {}\n", f.name, f.ty));
            }
            out.push_str("}\n");
        }
        group(
            out,
            self.inputs
                .iter()
                .map(|i| format!("input {}: {}", i.name, i.ty)),
        );
        group(out, self.funcs.iter().map(FnDef::signature));
        for d in &self.decisions {
            write_decision(out, d);
        }
    }

    /// `collect`, the decision ranking, each reason ranking, each
    /// `exclusive` set: one line each.
    fn resolution_lines(&self) -> Vec<String> {
        let mut lines = vec![
            match self.collect {
                Collect::One => "collect one",
                Collect::All => "collect all",
            }
            .to_owned(),
        ];
        if !self.precedence.is_empty() {
            lines.push(format!("precedence {}", self.precedence.join(" > ")));
        }
        for d in &self.decisions {
            if let Some(ranked) = &d.ranked {
                lines.push(format!("precedence {}: {}", d.name, ranked.join(" > ")));
            }
        }
        for set in &self.exclusive {
            let outcomes: Vec<String> = set.iter().map(outcome_text).collect();
            lines.push(format!("exclusive {}", outcomes.join(", ")));
        }
        lines
    }

    /// `d(reason: r, f: c, …)`: the arguments the decision declares in field
    /// order, then any others sorted by name.
    fn call_text(&self, outcome: &Outcome) -> String {
        let declared = self.decision(&outcome.decision);
        let is_field = |name: &str| declared.is_some_and(|d| d.field(name).is_some());
        let mut args: Vec<&(String, Value)> = declared
            .iter()
            .flat_map(|d| d.fields.iter())
            .filter_map(|f| outcome.args.iter().find(|(name, _)| *name == f.name))
            .collect();
        let mut others: Vec<&(String, Value)> = outcome
            .args
            .iter()
            .filter(|(name, _)| !is_field(name))
            .collect();
        others.sort_by(|a, b| a.0.cmp(&b.0));
        args.extend(others);
        let mut text = format!("{}(reason: {}", outcome.decision, outcome.reason);
        for (name, value) in args {
            text.push_str(&format!(", {name}: {}", value.const_text()));
        }
        text.push(')');
        text
    }
}

/// Lines as one group after one blank line; nothing when there are none.
fn group(out: &mut String, lines: impl Iterator<Item = String>) {
    let mut lines = lines.peekable();
    if lines.peek().is_some() {
        out.push('\n');
    }
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
}

fn write_decision(out: &mut String, d: &DecisionDef) {
    out.push_str(&format!("\ndecision {} {{\n", d.name));
    out.push_str(&format!("  reason: {}\n", d.reasons.join(" | ")));
    for f in &d.fields {
        out.push_str(&format!("  {}: {}", f.name, f.ty));
        if let Some(default) = &f.default {
            out.push_str(&format!(" = {}", default.const_text()));
        }
        out.push('\n');
    }
    out.push_str("}\n");
}

/// `d` or `d.r`.
fn outcome_text(o: &OutcomeRef) -> String {
    match &o.reason {
        Some(reason) => format!("{}.{reason}", o.decision),
        None => o.decision.clone(),
    }
}
