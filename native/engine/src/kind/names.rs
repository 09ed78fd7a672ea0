//! Names across declarations: struct types and enums have unique names
//! that no built-in type has (§2.3), and inputs, host functions, decisions,
//! enums and enum values share one namespace (§2.13).

use super::load::Loader;
use crate::ast::{Decl, Ident};
use crate::diag::{Diagnostic, go_quote};
use crate::types::Ty;

/// The help of every collision in the shared namespace.
const NAMESPACE_HELP: &str = "inputs, host functions, decisions, enums and their values share one namespace; rename one of them";

/// A declared name and what declares it.
struct Entry<'d> {
    /// `input`, `function`, `decision`, `enum` or `type`.
    what: &'static str,
    ident: &'d Ident,
}

impl<'d> Loader<'d> {
    /// Checks type names, then the shared namespace, then enum values.
    pub(super) fn check_names(&mut self) {
        self.check_type_names();
        let entries = self.check_namespace();
        self.check_enum_values(entries);
    }

    /// Struct type and enum names: unique together, none a built-in type.
    fn check_type_names(&mut self) {
        let doc = self.doc;
        let mut seen: Vec<Entry<'d>> = Vec::new();
        for entry in doc.decls.iter().filter_map(Entry::of) {
            if !matches!(entry.what, "type" | "enum") {
                continue;
            }
            let name = &entry.ident.name;
            let problem = if is_builtin_type(name) {
                Some(
                    Diagnostic::error(
                        entry.ident.span,
                        format!("{} {} shadows a built-in type", entry.what, go_quote(name)),
                    )
                    .with_help("the built-in type names are taken; pick another name"),
                )
            } else {
                seen.iter()
                    .find(|prev| prev.ident.name == *name)
                    .map(|prev| {
                        repeated(
                            &entry,
                            prev,
                            "struct types and enums share their names; rename one of them",
                        )
                    })
            };
            match problem {
                Some(problem) => self.diagnostics.push(problem),
                None => seen.push(entry),
            }
        }
    }

    /// Inputs, functions, decisions and enum names, in source order; a name
    /// declared before is reported at the later declaration. Returns the
    /// entries, first of each name only.
    fn check_namespace(&mut self) -> Vec<Entry<'d>> {
        let doc = self.doc;
        let mut seen: Vec<Entry<'d>> = Vec::new();
        for entry in doc.decls.iter().filter_map(Entry::of) {
            if entry.what == "type" {
                continue;
            }
            match seen.iter().find(|p| p.ident.name == entry.ident.name) {
                // Two enums of one name are the type-name rule's to report.
                Some(prev) if prev.what == "enum" && entry.what == "enum" => {}
                Some(prev) => self
                    .diagnostics
                    .push(repeated(&entry, prev, NAMESPACE_HELP)),
                None => seen.push(entry),
            }
        }
        seen
    }

    /// Every enum value against the namespace and the struct type names.
    /// Two enums may share a value.
    fn check_enum_values(&mut self, namespace: Vec<Entry<'d>>) {
        let doc = self.doc;
        let types = doc
            .decls
            .iter()
            .filter_map(Entry::of)
            .filter(|e| e.what == "type");
        let taken: Vec<Entry<'d>> = namespace.into_iter().chain(types).collect();
        let enums = doc.decls.iter().filter_map(|d| match d {
            Decl::Enum(e) => Some(e),
            _ => None,
        });
        for decl in enums {
            for value in &decl.values {
                let Some(other) = taken.iter().find(|e| e.ident.name == value.name) else {
                    continue;
                };
                self.diagnostics.push(
                    Diagnostic::error(
                        value.span,
                        format!(
                            "enum {}: value {} collides with {} {}",
                            decl.name.name,
                            go_quote(&value.name),
                            other.what,
                            go_quote(&value.name)
                        ),
                    )
                    .with_help(NAMESPACE_HELP),
                );
            }
        }
    }
}

impl<'d> Entry<'d> {
    /// The name `decl` declares, for the declarations that name something
    /// in the namespace or among the types.
    fn of(decl: &'d Decl) -> Option<Self> {
        let (what, ident) = match decl {
            Decl::Input(d) => ("input", &d.name),
            Decl::Fn(d) => ("function", &d.name),
            Decl::Decision(d) => ("decision", &d.name),
            Decl::Enum(d) => ("enum", &d.name),
            Decl::Type(d) => ("type", &d.name),
            _ => return None,
        };
        Some(Entry { what, ident })
    }
}

/// `entry` repeats the name of `prev`: declared twice when both are the
/// same sort of declaration, a collision otherwise (with `help`).
fn repeated(entry: &Entry<'_>, prev: &Entry<'_>, help: &str) -> Diagnostic {
    let quoted = go_quote(&entry.ident.name);
    if entry.what == prev.what {
        return Diagnostic::error(
            entry.ident.span,
            format!("{} {quoted} is declared twice", entry.what),
        )
        .with_help(format!("declare each {} once", entry.what));
    }
    Diagnostic::error(
        entry.ident.span,
        format!(
            "{} {quoted} collides with {} {quoted}",
            entry.what, prev.what
        ),
    )
    .with_help(help)
}

/// Whether `name` is a built-in type's: a scalar, `list` or `map`.
fn is_builtin_type(name: &str) -> bool {
    Ty::SCALAR_NAMES.contains(&name) || name == "list" || name == "map"
}
