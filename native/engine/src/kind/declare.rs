//! The declarations that make up the model: enums, struct types, inputs,
//! host functions and decisions (language-policies §2.2–§2.6), each checked
//! on its own. Rules across declarations are in `names.rs` and `cycles.rs`.

use super::error::DeclError;
use super::load::Loader;
use super::{DecisionDef, EnumDef, FieldDef, FnDef, InputDef, PayloadField, StructDef};
use crate::ast::{
    DecisionDecl, EnumDecl, Field, FnDecl, Ident, InputDecl, TypeDecl, TypeKind, render_type,
};
use crate::constant;
use crate::diag::{Diagnostic, go_quote};
use crate::types::Ty;

impl<'d> Loader<'d> {
    /// Builds every enum, type, input, function and decision of the model.
    pub(super) fn declare(&mut self) {
        // Enums first: payload defaults may name their values.
        let decls = &self.decls;
        let (enums, types, inputs) = (
            decls.enums.clone(),
            decls.types.clone(),
            decls.inputs.clone(),
        );
        let (fns, decisions) = (decls.fns.clone(), decls.decisions.clone());
        enums.into_iter().for_each(|d| self.declare_enum(d));
        types.into_iter().for_each(|d| self.declare_type(d));
        inputs.into_iter().for_each(|d| self.declare_input(d));
        fns.into_iter().for_each(|d| self.declare_fn(d));
        decisions.into_iter().for_each(|d| self.declare_decision(d));
        if self.decls.decisions.is_empty() {
            let problem = DeclError::NoDecisions {
                kind: self.name().to_string(),
            };
            self.report(problem.to_diagnostic(self.header_span()));
        }
    }

    fn declare_enum(&mut self, decl: &'d EnumDecl) {
        let name = &decl.name.name;
        let values = self.unique(&decl.values, &format!("enum {name}"), "value");
        self.enums.push(EnumDef {
            name: name.clone(),
            values,
        });
    }

    fn declare_type(&mut self, decl: &'d TypeDecl) {
        let name = &decl.name.name;
        let mut fields: Vec<FieldDef> = Vec::new();
        for field in &decl.fields {
            let field_name = &field.name.name;
            if fields.iter().any(|f| f.name == *field_name) {
                let problem = DeclError::MemberTwice {
                    owner: format!("type {name}"),
                    member: "field",
                    name: field_name.clone(),
                };
                self.report(problem.to_diagnostic(field.name.span));
                continue;
            }
            let place = format!("type {name}, field {}", go_quote(field_name));
            let ty = self.resolve(&field.ty, &place);
            fields.push(FieldDef {
                name: field_name.clone(),
                ty,
            });
        }
        self.types.push(StructDef {
            name: name.clone(),
            fields,
        });
    }

    fn declare_input(&mut self, decl: &'d InputDecl) {
        let name = decl.name.name.clone();
        let ty = self.resolve(&decl.ty, &format!("input {}", go_quote(&name)));
        self.inputs.push(InputDef { name, ty });
    }

    fn declare_fn(&mut self, decl: &'d FnDecl) {
        let name = decl.name.name.clone();
        let params = decl
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| self.resolve(p, &format!("function {name}, parameter {}", i + 1)))
            .collect();
        let result = if matches!(decl.result.kind, TypeKind::Optional(_)) {
            let problem = DeclError::OptionalResult {
                function: name.clone(),
            };
            self.report(problem.to_diagnostic(decl.result.span));
            Ty::Invalid
        } else {
            self.resolve(&decl.result, &format!("function {name}, result"))
        };
        self.funcs.push(FnDef {
            name,
            params,
            result,
        });
    }

    fn declare_decision(&mut self, decl: &'d DecisionDecl) {
        let name = &decl.name.name;
        if decl.legacy {
            self.report(legacy_syntax(decl));
        }
        let reasons = self.unique(&decl.reasons, &format!("decision {name}"), "reason");
        let mut fields: Vec<PayloadField> = Vec::new();
        for field in &decl.fields {
            if let Some(payload) = self.payload_field(name, field, &fields) {
                fields.push(payload);
            }
        }
        self.decisions.push(DecisionDef {
            name: name.clone(),
            reasons,
            fields,
            ranked: None,
        });
    }

    /// One payload field of decision `decision`, or `None` when it can't be
    /// one (called `reason`, or declared before in `earlier`).
    fn payload_field(
        &mut self,
        decision: &str,
        field: &Field,
        earlier: &[PayloadField],
    ) -> Option<PayloadField> {
        let name = &field.name.name;
        let place = format!("decision {decision}, field {}", go_quote(name));
        if name == "reason" {
            let problem = DeclError::ReasonField { place };
            self.report(problem.to_diagnostic(field.name.span));
            return None;
        }
        if earlier.iter().any(|f| f.name == *name) {
            let problem = DeclError::PayloadFieldTwice { place };
            self.report(problem.to_diagnostic(field.name.span));
            return None;
        }
        let ty = self.resolve(&field.ty, &place);
        let default = match (&field.default, ty.is_invalid()) {
            (Some(expr), false) => match constant::eval(expr, &ty, &self.enums) {
                Ok(value) => Some(value),
                Err(problem) => {
                    self.report(problem);
                    None
                }
            },
            _ => None,
        };
        if field.default.is_some() && default.is_none() {
            self.broken_defaults
                .push((decision.to_owned(), name.clone()));
        }
        Some(PayloadField {
            name: name.clone(),
            ty,
            default,
        })
    }

    /// The names of `names` without repeats, reporting each repeat as a
    /// `member` of `owner` declared twice.
    fn unique(&mut self, names: &[Ident], owner: &str, member: &'static str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for ident in names {
            if out.contains(&ident.name) {
                let problem = DeclError::MemberTwice {
                    owner: owner.to_owned(),
                    member,
                    name: ident.name.clone(),
                };
                self.report(problem.to_diagnostic(ident.span));
            } else {
                out.push(ident.name.clone());
            }
        }
        out
    }
}

/// The migration error of a decision in the legacy syntax (§2.6), at its
/// name, with the declaration rewritten in the current syntax as help.
fn legacy_syntax(decl: &DecisionDecl) -> Diagnostic {
    let name = &decl.name.name;
    let mut shape = vec!["reason: …".to_owned()];
    shape.extend(decl.fields.iter().map(|f| format!("{}: …", f.name.name)));
    let reasons: Vec<&str> = decl.reasons.iter().map(|r| r.name.as_str()).collect();
    let mut members = vec![format!("reason: {}", reasons.join(" | "))];
    members.extend(decl.fields.iter().map(written_field));
    let problem = DeclError::LegacySyntax {
        name: name.clone(),
        shape: shape.join(" "),
        members: members.join("  "),
    };
    problem.to_diagnostic(decl.name.span)
}

/// `name: T = default` as the field was written (the default in its
/// canonical rendering).
fn written_field(field: &Field) -> String {
    let mut out = format!("{}: {}", field.name.name, render_type(&field.ty));
    if let Some(default) = &field.default {
        out.push_str(" = ");
        out.push_str(&default.canonical());
    }
    out
}
