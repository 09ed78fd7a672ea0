//! Bundles (language-policies §5): the files of a request parsed, their
//! kinds loaded, their policies and modules indexed by header name, and
//! every document checked in import order.
//!
//! Where things are:
//!
//! * `files.rs`: the request's virtual files and their request-level
//!   failures; `path.rs`: path cleaning.
//! * `index.rs`: kinds and documents by name, duplicate names.
//! * `order.rs`: checking in import order, import cycles and depth.
//! * `scope.rs`: `--policy` patterns and the diagnostics in their scope.
//! * here: [`Project`], the result, and how a diagnostic finds its document.

mod files;
mod index;
mod order;
mod path;
mod scope;
#[cfg(test)]
mod tests;

pub use files::{FileError, FileInput, NamedFile, named_files};
pub use path::clean;
pub use scope::{Scope, pattern_matches};

use std::collections::HashMap;
use std::rc::Rc;

use crate::ast::{Document, File, Stmt};
use crate::check::{Exports, Facts};
use crate::diag::Diagnostic;
use crate::kind::Kind;
use crate::source::Span;

/// Every file of a request, parsed, indexed and checked.
#[derive(Debug)]
pub struct Project {
    /// The files, trusted ones first.
    pub files: Vec<ProjectFile>,
    /// The kinds by name, in the order their documents were found.
    pub kinds: Vec<KindEntry>,
    /// The policies and modules the index kept (the first of each name).
    pub docs: Vec<DocEntry>,
    /// Every problem found, sorted by file and position, document names
    /// filled in; capped by [`crate::diag::cap`], which ends a cut list
    /// with its "too many errors" marks.
    pub diagnostics: Vec<Diagnostic>,
    /// Each name of [`Project::docs`] and its number there, so that finding
    /// a document costs the same however many the request holds.
    by_name: HashMap<String, usize>,
}

/// One file and its syntax tree.
#[derive(Debug)]
pub struct ProjectFile {
    /// The cleaned path.
    pub path: String,
    /// The source text (shared with the compiled programs' files).
    pub source: Rc<str>,
    /// Whether it is a trusted file.
    pub trusted: bool,
    /// What parsed (with recovery, so a file with syntax errors still has
    /// documents).
    pub ast: File,
}

/// A kind document and what it loaded to.
#[derive(Debug)]
pub struct KindEntry {
    /// The kind's name.
    pub name: String,
    /// Where its document is: file and document number.
    pub at: (usize, usize),
    /// The kind, when its document is valid; a kind that doesn't load keeps
    /// its name known, so its documents aren't reported as missing a kind.
    pub kind: Option<Kind>,
}

/// A policy or module of the index.
#[derive(Debug)]
pub struct DocEntry {
    /// Its header name.
    pub name: String,
    /// Where it is: file and document number.
    pub at: (usize, usize),
    /// Whether it is a policy.
    pub is_policy: bool,
    /// Whether it came from a trusted file.
    pub trusted: bool,
    /// The kind it is written against, by number in [`Project::kinds`],
    /// when that kind exists.
    pub kind: Option<usize>,
    /// What it exports, once checked; `None` when it wasn't checked (its
    /// kind doesn't load, or it is on an import cycle).
    pub exports: Option<Exports>,
    /// Whether its own check reported an error.
    pub failed: bool,
    /// What the lints need to know, once checked.
    pub facts: Facts,
    /// The documents its `use`s resolved to, by number in
    /// [`Project::docs`].
    pub imports: Vec<usize>,
}

impl Project {
    /// Parses, indexes and checks `files` (trusted ones first).
    pub fn load(files: Vec<NamedFile>) -> Project {
        let mut diagnostics = Vec::new();
        let files: Vec<ProjectFile> = files
            .into_iter()
            .map(|f| {
                let (ast, parse_errors) = crate::parser::parse_file(&f.path, &f.source);
                diagnostics.extend(
                    parse_errors
                        .into_iter()
                        .map(|d| d.with_file(f.path.clone())),
                );
                ProjectFile {
                    path: f.path,
                    source: f.source,
                    trusted: f.trusted,
                    ast,
                }
            })
            .collect();
        let mut project = Project {
            files,
            kinds: Vec::new(),
            docs: Vec::new(),
            diagnostics,
            by_name: HashMap::new(),
        };
        project.index_kinds();
        project.index_documents();
        project.check_in_import_order();
        // Capped before the documents are named: naming looks through a
        // file's documents for each diagnostic.
        crate::diag::sort(&mut project.diagnostics);
        project.diagnostics = crate::diag::cap(std::mem::take(&mut project.diagnostics));
        project.name_documents();
        project
    }

    /// The document at `at`.
    pub fn document(&self, at: (usize, usize)) -> Option<&Document> {
        self.files.get(at.0)?.ast.docs.get(at.1)
    }

    /// Takes the statements of policy `doc` (by number in
    /// [`Project::docs`]) out of its tree, which keeps the document's
    /// header, imports and span: for a compile that frees each statement's
    /// tree once compiled. Empty for a module or an unknown number.
    pub fn take_statements(&mut self, doc: usize) -> Vec<Stmt> {
        let Some(&DocEntry { at, .. }) = self.docs.get(doc) else {
            return Vec::new();
        };
        match self
            .files
            .get_mut(at.0)
            .and_then(|f| f.ast.docs.get_mut(at.1))
        {
            Some(Document::Policy(p)) => std::mem::take(&mut p.stmts),
            _ => Vec::new(),
        }
    }

    /// The kind `doc` is written against, when it exists and loads.
    pub fn kind_of(&self, doc: &DocEntry) -> Option<&Kind> {
        self.kinds.get(doc.kind?)?.kind.as_ref()
    }

    /// The name of the kind `doc` is written against; empty when no such
    /// kind exists.
    pub fn kind_name_of(&self, doc: &DocEntry) -> &str {
        doc.kind
            .and_then(|k| self.kinds.get(k))
            .map_or("", |k| k.name.as_str())
    }

    /// The policy or module called `name`, by number.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The path of file `file`.
    fn path_of(&self, file: usize) -> String {
        self.files
            .get(file)
            .map(|f| f.path.clone())
            .unwrap_or_default()
    }

    /// `file:line:col` of `span` in file `file`.
    fn position(&self, file: usize, span: Span) -> String {
        match self.files.get(file) {
            Some(f) => {
                let (start, _) = f.source_index().span_positions(span);
                format!("{}:{start}", f.path)
            }
            None => String::new(),
        }
    }

    /// Fills in the document of every diagnostic that has a position but
    /// no document: the policy or module of its file whose span holds it.
    fn name_documents(&mut self) {
        for d in &mut self.diagnostics {
            if d.document.is_some() {
                continue;
            }
            let (Some(file), Some(span)) = (d.file.as_deref(), d.span) else {
                continue;
            };
            let Some(f) = self.files.iter().find(|f| f.path == file) else {
                continue;
            };
            // The documents are in source order and don't overlap: the one
            // that holds the span is the last that starts at or before it,
            // or, when the span starts where that one starts, the one
            // before, which ends there and is the first to hold it.
            let at = f
                .ast
                .docs
                .partition_point(|doc| doc.span().start <= span.start);
            let near = f.ast.docs.get(at.saturating_sub(2)..at).unwrap_or_default();
            let name = near.iter().find_map(|doc| match doc {
                Document::Policy(p) if contains(p.span, span) => Some(p.name.text()),
                Document::Module(m) if contains(m.span, span) => Some(m.name.text()),
                _ => None,
            });
            d.document = name;
        }
    }
}

impl ProjectFile {
    fn source_index(&self) -> crate::source::LineIndex<'_> {
        crate::source::LineIndex::new(&self.source)
    }
}

fn contains(outer: Span, inner: Span) -> bool {
    outer.start <= inner.start && inner.start <= outer.end
}
