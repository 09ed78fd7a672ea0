//! Type resolution: a [`Type`] as written becomes a [`Ty`] against the
//! struct types and enums of one kind, with the rules every type obeys
//! (language-policies §2.12): known names, map keys that are keys, no enum
//! map values, no nested optionals, no optional list or map.
//!
//! The kind loader resolves its own declarations here, and the checker
//! resolves `param` types through [`Kind::resolve_type`].

use super::Kind;
use super::error::TypeError;
use crate::ast::{Type, TypeKind};
use crate::diag::{Diagnostic, nearest};
use crate::types::Ty;

/// The type names a kind declares, in declaration order (the order of the
/// unknown type's did-you-mean, language-core §9).
pub(crate) struct TypeNames<'n> {
    /// Struct type names.
    pub(crate) structs: Vec<&'n str>,
    /// Enum names.
    pub(crate) enums: Vec<&'n str>,
}

/// Where a type is written, which decides a few texts.
pub(crate) enum TypeSite<'w> {
    /// In a policy (a `param`).
    Policy,
    /// In the kind itself; the text names the declaration in messages, like
    /// `input "release"` or `decision approve, field "bake"`.
    Kind(&'w str),
}

impl Kind {
    /// Resolves a type written in a policy (a `param`'s) against this
    /// kind's struct types and enums: an unknown name is ``unknown type
    /// `<n>` ``, and the map-key, enum-as-map-value and optional rules hold.
    /// The first problem found is the error.
    pub fn resolve_type(&self, ty: &Type) -> Result<Ty, Diagnostic> {
        let names = TypeNames {
            structs: self.types.iter().map(|t| t.name.as_str()).collect(),
            enums: self.enums.iter().map(|e| e.name.as_str()).collect(),
        };
        let mut problems = Vec::new();
        let resolved = resolve(ty, &names, &TypeSite::Policy, &mut problems);
        match problems.into_iter().next() {
            Some(problem) => Err(problem),
            None => Ok(resolved),
        }
    }
}

/// Resolves `ty`, reporting every problem into `out`. A type with a
/// problem anywhere inside is [`Ty::Invalid`], so nothing downstream
/// reports it again.
pub(crate) fn resolve(
    ty: &Type,
    names: &TypeNames<'_>,
    site: &TypeSite<'_>,
    out: &mut Vec<Diagnostic>,
) -> Ty {
    Resolver { names, site, out }.resolve(ty)
}

/// One resolution: where the names come from, where the type is written,
/// where problems go.
struct Resolver<'r, 'n> {
    names: &'r TypeNames<'n>,
    site: &'r TypeSite<'r>,
    out: &'r mut Vec<Diagnostic>,
}

impl Resolver<'_, '_> {
    fn resolve(&mut self, ty: &Type) -> Ty {
        match &ty.kind {
            TypeKind::Named(name) => match named(&name.name, self.names) {
                Some(resolved) => resolved,
                None => {
                    let problem = unknown_type(&name.name, ty, self.names, self.site);
                    self.out.push(problem);
                    Ty::Invalid
                }
            },
            TypeKind::List(elem) => match self.resolve(elem) {
                Ty::Invalid => Ty::Invalid,
                elem => Ty::list(elem),
            },
            TypeKind::Optional(elem) => self.optional(ty, elem),
            TypeKind::Map(key, value) => self.map(key, value),
        }
    }

    /// `?elem`: one `?` around anything but an optional, a list or a map.
    fn optional(&mut self, ty: &Type, elem: &Type) -> Ty {
        let place = match self.site {
            TypeSite::Policy => None,
            TypeSite::Kind(place) => Some((*place).to_owned()),
        };
        let problem = match &elem.kind {
            TypeKind::Optional(_) => Some(TypeError::NestedOptional { place }),
            TypeKind::List(_) => Some(TypeError::OptionalList { place }),
            TypeKind::Map(..) => Some(TypeError::OptionalMap { place }),
            TypeKind::Named(_) => None,
        };
        let inner = self.resolve(elem);
        if let Some(problem) = problem {
            self.out.push(problem.to_diagnostic(ty.span));
            return Ty::Invalid;
        }
        match inner {
            Ty::Invalid => Ty::Invalid,
            inner => Ty::optional(inner),
        }
    }

    /// `map<key, value>`: a key type that is a key, a value that isn't an
    /// enum.
    fn map(&mut self, key: &Type, value: &Type) -> Ty {
        let key_ty = self.resolve(key);
        let value_ty = self.resolve(value);
        let mut valid = !key_ty.is_invalid() && !value_ty.is_invalid();
        if valid && !key_ty.is_key() {
            let problem = TypeError::MapKey {
                key: key_ty.clone(),
            };
            self.out.push(problem.to_diagnostic(key.span));
            valid = false;
        }
        if let Ty::Enum(_) = value_ty {
            self.out
                .push(TypeError::EnumMapValue.to_diagnostic(value.span));
            valid = false;
        }
        if valid {
            Ty::map(key_ty, value_ty)
        } else {
            Ty::Invalid
        }
    }
}

/// The type a bare name stands for: a scalar, then a struct, then an enum.
/// `decision` is a keyword, never a name here, so data can't hold one.
fn named(name: &str, names: &TypeNames<'_>) -> Option<Ty> {
    if Ty::SCALAR_NAMES.contains(&name) {
        return Ty::scalar(name);
    }
    if names.structs.contains(&name) {
        return Some(Ty::Struct(name.into()));
    }
    names.enums.contains(&name).then(|| Ty::Enum(name.into()))
}

fn unknown_type(name: &str, ty: &Type, names: &TypeNames<'_>, site: &TypeSite<'_>) -> Diagnostic {
    let candidates = Ty::SCALAR_NAMES
        .iter()
        .copied()
        .chain(names.structs.iter().copied())
        .chain(names.enums.iter().copied());
    let problem = TypeError::Unknown {
        name: name.to_owned(),
        near: nearest(name, candidates).map(str::to_owned),
        in_kind: matches!(site, TypeSite::Kind(_)),
    };
    problem.to_diagnostic(ty.span)
}
