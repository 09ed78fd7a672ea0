//! Indexing (language-policies §5.2, §5.6): kinds by name (the files'
//! kind documents before the trusted files'), then policies and modules by
//! header name (trusted ones first, so their names are reserved), the
//! first definition of a name winning.

use super::{DocEntry, KindEntry, Project};
use crate::ast::{Document, Ident, KindDoc};
use crate::diag::{Diagnostic, MAX_PER_FILE, too_many_in_file};
use crate::kind::Kind;
use crate::source::Span;

impl Project {
    /// Loads every kind document; a later document of a known kind must
    /// be the same kind.
    pub(super) fn index_kinds(&mut self) {
        let trusted = |f: usize| self.files.get(f).is_some_and(|f| f.trusted);
        let order: Vec<usize> = (0..self.files.len())
            .filter(|&f| !trusted(f))
            .chain((0..self.files.len()).filter(|&f| trusted(f)))
            .collect();
        for file in order {
            let Some(f) = self.files.get(file) else {
                continue;
            };
            let kinds: Vec<(usize, &KindDoc)> = f
                .ast
                .docs
                .iter()
                .enumerate()
                .filter_map(|(i, d)| match d {
                    Document::Kind(k) => Some((i, k)),
                    _ => None,
                })
                .collect();
            let mut found = Vec::new();
            for (doc, k) in kinds {
                let (kind, diagnostics) = load_kind(k);
                found.push((doc, k.name.clone(), kind, diagnostics));
            }
            for (doc, name, kind, diagnostics) in found {
                self.add_kind(file, doc, &name, kind, diagnostics);
            }
        }
    }

    fn add_kind(
        &mut self,
        file: usize,
        doc: usize,
        name: &Ident,
        kind: Option<Kind>,
        diagnostics: Vec<Diagnostic>,
    ) {
        let path = self.path_of(file);
        self.diagnostics
            .extend(diagnostics.into_iter().map(|d| d.with_file(path.clone())));
        let Some(first) = self.kinds.iter().find(|k| k.name == name.name) else {
            self.kinds.push(KindEntry {
                name: name.name.clone(),
                at: (file, doc),
                kind,
            });
            return;
        };
        if same_kind(first.kind.as_ref(), kind.as_ref()) {
            return;
        }
        let at = self.header_position(first.at);
        let message = format!("kind document {} differs from the one at {at}", name.name);
        let help = "a kind has one definition; make the two documents identical, or remove one";
        self.diagnostics.push(
            Diagnostic::error(name.span, message)
                .with_help(help)
                .with_file(path),
        );
    }

    /// Indexes policies and modules; a name defined twice is an error at
    /// the later definition.
    pub(super) fn index_documents(&mut self) {
        for file in 0..self.files.len() {
            let count = self.files.get(file).map_or(0, |f| f.ast.docs.len());
            let mut twice = 0;
            for doc in 0..count {
                self.index_document(file, doc, &mut twice);
            }
        }
    }

    /// Indexes one document; `twice` counts the file's names defined
    /// twice. Past [`MAX_PER_FILE`] of them the file's list is cut (see
    /// [`crate::diag::cap`]), so their positions aren't worked out.
    fn index_document(&mut self, file: usize, doc: usize, twice: &mut usize) {
        let (name, name_span, kind_ident, is_policy) = match self.document((file, doc)) {
            Some(Document::Policy(p)) => (p.name.text(), p.name.span(), p.kind.clone(), true),
            Some(Document::Module(m)) => (m.name.text(), m.name.span(), m.kind.clone(), false),
            _ => return,
        };
        let what = if is_policy { "policy" } else { "module" };
        let path = self.path_of(file);
        if let Some(first) = self.find(&name).and_then(|at| self.docs.get(at)) {
            *twice += 1;
            if *twice > MAX_PER_FILE {
                if *twice == MAX_PER_FILE + 1 {
                    self.diagnostics.push(too_many_in_file(Some(&path)));
                }
                return;
            }
            let at = self.header_position(first.at);
            let help = match first.trusted {
                true => format!(
                    "the name belongs to the trusted source, defined at {at}; documents resolve by name, so each name has one definition"
                ),
                false => format!(
                    "first defined at {at}; documents resolve by name, so each name has one definition"
                ),
            };
            let message = format!("{what} {name} is defined twice");
            self.diagnostics.push(
                Diagnostic::error(name_span, message)
                    .with_help(help)
                    .with_file(path)
                    .with_document(name),
            );
            return;
        }
        let kind = self.kinds.iter().position(|k| k.name == kind_ident.name);
        if kind.is_none() {
            let names = self.kinds.iter().map(|k| k.name.as_str());
            let help = match crate::diag::nearest(&kind_ident.name, names) {
                Some(near) => format!("did you mean `{near}`?"),
                None => "send the kind document among the files".to_owned(),
            };
            let message = format!(
                "{what} {name} is written against kind {0}, but no kind {0} was found",
                kind_ident.name
            );
            self.diagnostics.push(
                Diagnostic::error(kind_ident.span, message)
                    .with_help(help)
                    .with_file(path),
            );
        }
        self.by_name.insert(name.clone(), self.docs.len());
        self.docs.push(DocEntry {
            name,
            at: (file, doc),
            is_policy,
            trusted: self.files.get(file).is_some_and(|f| f.trusted),
            kind,
            exports: None,
            failed: false,
            facts: Default::default(),
            imports: Vec::new(),
        });
    }

    /// `file:line:col` of the header keyword of the document at `at`.
    fn header_position(&self, at: (usize, usize)) -> String {
        let span = match self.document(at) {
            Some(Document::Policy(p)) => p.span,
            Some(Document::Module(m)) => m.span,
            Some(Document::Kind(k)) => k.span,
            None => Span::default(),
        };
        self.position(at.0, Span::empty(span.start))
    }
}

/// Loads one kind document.
fn load_kind(doc: &KindDoc) -> (Option<Kind>, Vec<Diagnostic>) {
    let loaded = crate::kind::load(doc);
    (loaded.kind, loaded.diagnostics)
}

/// Whether two loads of a kind name are the same contract: their canonical
/// texts are identical (language-policies §2.14). A kind that didn't load
/// reports its own problems, so it differs from nothing.
fn same_kind(a: Option<&Kind>, b: Option<&Kind>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.canonical_text() == b.canonical_text(),
        _ => true,
    }
}
