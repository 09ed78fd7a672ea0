//! Checking in import order (language-policies §5.3): each document after
//! the documents it imports, so it sees their exports. An import cycle is
//! reported once, at the `use` that closes it, and its documents are not
//! checked; a chain of more than 64 documents is reported at the import
//! that makes it too long.

use super::{DocEntry, Project};
use crate::ast::{Document, Use};
use crate::check::{DocumentRef, ImportTarget, check_document};
use crate::diag::Diagnostic;
use crate::source::Span;

/// The longest chain of documents importing each other.
const MAX_CHAIN: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    New,
    Visiting,
    Done,
    Cyclic,
}

/// Where the walk is: a mark per document and the chain being followed.
struct Walk {
    marks: Vec<Mark>,
    path: Vec<usize>,
}

impl Walk {
    fn mark(&self, i: usize) -> Mark {
        self.marks.get(i).copied().unwrap_or(Mark::Done)
    }

    fn set(&mut self, i: usize, mark: Mark) {
        if let Some(m) = self.marks.get_mut(i) {
            *m = mark;
        }
    }
}

/// What a `use` path names, seen from one document.
enum Resolved {
    Doc(usize),
    Kind,
    Unknown,
}

impl Project {
    pub(super) fn check_in_import_order(&mut self) {
        let mut walk = Walk {
            marks: vec![Mark::New; self.docs.len()],
            path: Vec::new(),
        };
        for i in 0..self.docs.len() {
            if walk.mark(i) == Mark::New {
                self.visit(i, &mut walk);
            }
        }
    }

    fn visit(&mut self, i: usize, walk: &mut Walk) {
        walk.set(i, Mark::Visiting);
        walk.path.push(i);
        for (span, target) in self.uses_of(i) {
            let Resolved::Doc(j) = self.resolve(i, &target) else {
                continue;
            };
            if let Some(entry) = self.docs.get_mut(i) {
                entry.imports.push(j);
            }
            match walk.mark(j) {
                Mark::Visiting => self.report_cycle(i, j, span, walk),
                Mark::New if walk.path.len() >= MAX_CHAIN => {
                    let start = walk.path.first().copied().unwrap_or(i);
                    self.report_depth(i, span, start);
                }
                Mark::New => self.visit(j, walk),
                Mark::Done | Mark::Cyclic => {}
            }
        }
        walk.path.pop();
        if walk.mark(i) == Mark::Visiting {
            self.check(i);
            walk.set(i, Mark::Done);
        }
    }

    fn entry(&self, i: usize) -> Option<&DocEntry> {
        self.docs.get(i)
    }

    fn name_of(&self, i: usize) -> &str {
        self.entry(i).map_or("", |d| d.name.as_str())
    }

    /// The `use` statements of document `i`: span and path.
    fn uses_of(&self, i: usize) -> Vec<(Span, String)> {
        let uses: &[Use] = match self.entry(i).and_then(|d| self.document(d.at)) {
            Some(Document::Policy(p)) => &p.uses,
            Some(Document::Module(m)) => &m.uses,
            _ => &[],
        };
        uses.iter().map(|u| (u.span, u.path.text())).collect()
    }

    /// What `path` names for document `from`: trusted documents resolve
    /// only among trusted ones, and only documents of the same kind count.
    fn resolve(&self, from: usize, path: &str) -> Resolved {
        let Some(source) = self.entry(from) else {
            return Resolved::Unknown;
        };
        let found = self
            .docs
            .iter()
            .position(|d| d.name == path && (d.trusted || !source.trusted));
        match found.and_then(|j| Some((j, self.entry(j)?))) {
            Some((j, target)) if target.kind == source.kind => Resolved::Doc(j),
            _ if self.kinds.iter().any(|k| k.name == path) => Resolved::Kind,
            _ => Resolved::Unknown,
        }
    }

    fn report_cycle(&mut self, i: usize, j: usize, span: Span, walk: &mut Walk) {
        let start = walk.path.iter().position(|&d| d == j).unwrap_or(0);
        let cycle: Vec<usize> = walk.path.get(start..).unwrap_or_default().to_vec();
        let mut names: Vec<&str> = cycle.iter().map(|&d| self.name_of(d)).collect();
        names.push(self.name_of(j));
        let any_policy = cycle
            .iter()
            .any(|&d| self.entry(d).is_some_and(|e| e.is_policy));
        let help = match any_policy {
            true => {
                "a policy can't invoke itself, directly or through other policies; imports form a directed acyclic graph"
            }
            false => {
                "imports form a directed acyclic graph; move the shared lets to a module both can import"
            }
        };
        let message = format!("import cycle: {}", names.join(" -> "));
        self.report(i, span, message, help);
        for d in cycle {
            walk.set(d, Mark::Cyclic);
        }
    }

    fn report_depth(&mut self, i: usize, span: Span, start: usize) {
        let message = format!(
            "imports nest more than {MAX_CHAIN} levels deep: {} starts a chain of {} documents, each importing the next",
            self.name_of(start),
            MAX_CHAIN + 1
        );
        let help = "flatten the chain: import the shared lets from one module instead of through every document";
        self.report(i, span, message, help);
    }

    fn report(&mut self, i: usize, span: Span, message: String, help: &str) {
        let Some(doc) = self.entry(i) else {
            return;
        };
        let diagnostic = Diagnostic::error(span, message)
            .with_help(help)
            .with_file(self.path_of(doc.at.0))
            .with_document(doc.name.clone());
        self.diagnostics.push(diagnostic);
    }

    /// Checks document `i` against its kind, its imports already checked.
    fn check(&mut self, i: usize) {
        let Some(entry) = self.entry(i) else {
            return;
        };
        let kinds = &self.kinds;
        let Some(kind) = entry.kind.and_then(|k| kinds.get(k)?.kind.as_ref()) else {
            return;
        };
        let Some(file) = self.files.get(entry.at.0) else {
            return;
        };
        let doc = match file.ast.docs.get(entry.at.1) {
            Some(Document::Policy(p)) => DocumentRef::Policy(p),
            Some(Document::Module(m)) => DocumentRef::Module(m),
            _ => return,
        };
        let resolver = |path: &str| match self.resolve(i, path) {
            Resolved::Doc(j) => match self.entry(j).and_then(|d| d.exports.as_ref()) {
                Some(exports) => ImportTarget::Found(exports),
                None => ImportTarget::Unavailable,
            },
            Resolved::Kind => ImportTarget::Kind,
            Resolved::Unknown => ImportTarget::Unknown,
        };
        let checked = check_document(doc, &file.source, kind, &resolver);
        let (path, name) = (file.path.clone(), entry.name.clone());
        let failed = checked.diagnostics.iter().any(Diagnostic::is_error);
        self.diagnostics.extend(
            checked
                .diagnostics
                .into_iter()
                .map(|d| d.with_file(path.clone()).with_document(name.clone())),
        );
        if let Some(entry) = self.docs.get_mut(i) {
            entry.exports = Some(checked.exports);
            entry.failed = failed;
            entry.facts = checked.facts;
            entry.facts.sort_reads();
        }
    }
}
