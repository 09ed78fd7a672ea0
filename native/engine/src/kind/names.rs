//! Names across declarations: struct types and enums have unique names
//! that no built-in type has (§2.3), and inputs, host functions, decisions,
//! enums and enum values share one namespace (§2.13).

use super::error::{NameError, Names};
use super::load::Loader;
use crate::ast::{Decl, Ident};
use crate::diag::Diagnostic;
use crate::types::Ty;

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
                let problem = NameError::ShadowsBuiltin {
                    what: entry.what,
                    name: name.clone(),
                };
                Some(problem.to_diagnostic(entry.ident.span))
            } else {
                seen.iter()
                    .find(|prev| prev.ident.name == *name)
                    .map(|prev| repeated(&entry, prev, Names::Types))
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
                    .push(repeated(&entry, prev, Names::Namespace)),
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
                let problem = NameError::EnumValueCollides {
                    enum_name: decl.name.name.clone(),
                    value: value.name.clone(),
                    other: other.what,
                };
                self.diagnostics.push(problem.to_diagnostic(value.span));
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
/// same sort of declaration, a collision among `names` otherwise.
fn repeated(entry: &Entry<'_>, prev: &Entry<'_>, names: Names) -> Diagnostic {
    let name = entry.ident.name.clone();
    let problem = match entry.what == prev.what {
        true => NameError::DeclaredTwice {
            what: entry.what,
            name,
        },
        false => NameError::Collides {
            what: entry.what,
            earlier: prev.what,
            name,
            names,
        },
    };
    problem.to_diagnostic(entry.ident.span)
}

/// Whether `name` is a built-in type's: a scalar, `list` or `map`.
fn is_builtin_type(name: &str) -> bool {
    Ty::SCALAR_NAMES.contains(&name) || name == "list" || name == "map"
}
