//! The namespace of a document (language-core §5.1, language-policies
//! §3.10): one flat map from a name to what it means. The kind's inputs,
//! host functions, decisions, enums and enum values come first; the
//! document adds its imports, params and lets; quantifier and filter
//! variables live on the checker's stack while their body is checked.
//! Nothing shadows anything, except that a document pinned to an older
//! kind version may take a name the kind added later.

use std::collections::BTreeMap;

use super::exports::Exports;
use crate::ast;
use crate::kind::{DecisionDef, EnumDef, FnDef, InputDef, Kind};
use crate::types::Ty;

/// What a name means.
#[derive(Clone, Copy)]
pub(super) enum Binding<'a> {
    Input(&'a InputDef),
    Func(&'a FnDef),
    Decision(&'a DecisionDef),
    EnumType(&'a EnumDef),
    /// A value of one or more enums; which one depends on context.
    EnumValue,
    /// A param, by its number in [`Names::params`].
    Param(usize),
    /// A let, by its number in [`Names::lets`].
    Let(usize),
    /// A whole import of a module.
    Module(&'a Exports),
    /// A whole import of a policy.
    Policy(&'a Exports),
    /// A `pub let` imported by name, by its number in [`Names::imported`].
    ImportedLet(usize),
}

/// The entity a name stands for, as messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entity {
    Input,
    Func,
    Decision,
    EnumType,
    EnumValue,
    Param,
    Let,
    Module,
    Policy,
    QuantVar,
    FilterVar,
}

impl Entity {
    /// The entity with its article, as in "is already the name of
    /// «a param»". Imported policies keep the reference's "a imported
    /// policy" (language-core §12).
    pub(super) fn with_article(self) -> &'static str {
        match self {
            Entity::Input => "an input",
            Entity::Func => "a host function",
            Entity::Decision => "a decision",
            Entity::EnumType => "an enum type",
            Entity::EnumValue => "an enum value",
            Entity::Param => "a param",
            Entity::Let => "a let",
            Entity::Module => "a module",
            Entity::Policy => "a imported policy",
            Entity::QuantVar => "a quantifier variable",
            Entity::FilterVar => "a filter variable",
        }
    }
}

impl Binding<'_> {
    pub(super) fn entity(self) -> Entity {
        match self {
            Binding::Input(_) => Entity::Input,
            Binding::Func(_) => Entity::Func,
            Binding::Decision(_) => Entity::Decision,
            Binding::EnumType(_) => Entity::EnumType,
            Binding::EnumValue => Entity::EnumValue,
            Binding::Param(_) => Entity::Param,
            Binding::Let(_) | Binding::ImportedLet(_) => Entity::Let,
            Binding::Module(_) => Entity::Module,
            Binding::Policy(_) => Entity::Policy,
        }
    }

    /// Whether the kind declared the name (so an older document may take
    /// it).
    pub(super) fn is_kind_name(self) -> bool {
        matches!(
            self,
            Binding::Input(_)
                | Binding::Func(_)
                | Binding::Decision(_)
                | Binding::EnumType(_)
                | Binding::EnumValue
        )
    }
}

/// A param of the document.
pub(super) struct ParamInfo {
    pub(super) ty: Ty,
}

/// A let of the document and how far its typing got.
pub(super) struct LetInfo<'a> {
    pub(super) decl: &'a ast::Let,
    /// The `when` body it is declared in; `None` at the top level.
    pub(super) body: Option<usize>,
    pub(super) state: LetState,
    /// The first param it reads, directly or through other lets.
    pub(super) reads_param: Option<String>,
    /// Whether any expression of the document reads it.
    pub(super) read: bool,
}

/// How far a let's typing got: lets are typed when first read, so their
/// order doesn't matter, and a let reached again while its own typing is
/// under way closes a cycle.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum LetState {
    Untyped,
    Typing,
    Typed(Ty),
}

/// The document's namespace. A `BTreeMap`: sorted names are what
/// did-you-mean wants, and it needs no random seed (a `HashMap` would make
/// the module import `random_get`).
pub(super) struct Names<'a> {
    map: BTreeMap<String, Binding<'a>>,
    pub(super) params: Vec<ParamInfo>,
    pub(super) lets: Vec<LetInfo<'a>>,
    /// Types of the lets imported by name, in import order.
    pub(super) imported: Vec<Ty>,
}

impl<'a> Names<'a> {
    /// The kind's names: inputs, host functions, decisions, enums and their
    /// values.
    pub(super) fn for_kind(kind: &'a Kind) -> Self {
        let mut map = BTreeMap::new();
        for e in &kind.enums {
            for value in &e.values {
                map.insert(value.clone(), Binding::EnumValue);
            }
        }
        for e in &kind.enums {
            map.insert(e.name.clone(), Binding::EnumType(e));
        }
        for d in &kind.decisions {
            map.insert(d.name.clone(), Binding::Decision(d));
        }
        for f in &kind.funcs {
            map.insert(f.name.clone(), Binding::Func(f));
        }
        for i in &kind.inputs {
            map.insert(i.name.clone(), Binding::Input(i));
        }
        Names {
            map,
            params: Vec::new(),
            lets: Vec::new(),
            imported: Vec::new(),
        }
    }

    /// What `name` means, if anything.
    pub(super) fn get(&self, name: &str) -> Option<Binding<'a>> {
        self.map.get(name).copied()
    }

    /// Binds `name`, replacing what it meant.
    pub(super) fn bind(&mut self, name: &str, binding: Binding<'a>) {
        self.map.insert(name.to_owned(), binding);
    }

    /// Every bound name, sorted by bytes: the candidates of an unknown
    /// name's did-you-mean (language-core §9).
    pub(super) fn sorted(&self) -> Vec<&str> {
        self.map.keys().map(String::as_str).collect()
    }
}
