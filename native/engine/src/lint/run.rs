//! Running the lints over a checked project (tooling §3.4): only over the
//! bundle's own documents (not trusted ones) that checked cleanly and are
//! in scope, at the configured levels.

use std::collections::HashMap;

use super::{Level, Levels};
use crate::ast::Document;
use crate::bundle::{DocEntry, Project, Scope};
use crate::check::Facts;
use crate::diag::{Diagnostic, Severity};
use crate::kind::Collect;
use crate::source::{LineIndex, Span};

/// Every finding of every lint not `off`, sorted by file and position.
pub fn findings(
    project: &Project,
    scope: &Scope,
    levels: &Levels,
    required: &[&str],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, doc) in project.docs.iter().enumerate() {
        if !scope.contains(i) || doc.trusted || doc.failed || doc.exports.is_none() {
            continue;
        }
        let mut lint = Linter {
            project,
            doc,
            levels,
            out: &mut out,
        };
        lint.document(required);
    }
    crate::diag::sort(&mut out);
    out
}

struct Linter<'p, 'o> {
    project: &'p Project,
    doc: &'p DocEntry,
    levels: &'p Levels,
    out: &'o mut Vec<Diagnostic>,
}

impl Linter<'_, '_> {
    fn document(&mut self, required: &[&str]) {
        let facts = &self.doc.facts;
        self.imports(facts);
        for (name, span) in &facts.unread_lets {
            let help = "remove the let, or read it; a private let can't be imported";
            self.report(
                "unused-let",
                *span,
                format!("let {name} is never read"),
                help.to_owned(),
            );
        }
        self.shadows(facts);
        self.invocations(facts, required);
        self.path_matches_name();
    }

    /// Reports a finding of `lint` unless the lint is off.
    fn report(&mut self, lint: &'static str, span: Span, message: String, help: String) {
        let severity = match self.levels.of(lint) {
            Level::Off => return,
            Level::Warn => Severity::Warning,
            Level::Error => Severity::Error,
        };
        let path = self
            .project
            .files
            .get(self.doc.at.0)
            .map(|f| f.path.clone());
        let mut diagnostic = Diagnostic::new(severity, Some(span), message)
            .with_help(help)
            .with_lint(lint)
            .with_document(self.doc.name.clone());
        diagnostic.file = path;
        self.out.push(diagnostic);
    }

    fn imports(&mut self, facts: &Facts) {
        let mut selective_seen: Vec<&str> = Vec::new();
        for import in &facts.imports {
            if let Some(item) = &import.item {
                if !selective_seen.contains(&import.path.as_str()) {
                    selective_seen.push(&import.path);
                    self.qualified_import(&import.path, item, import.span);
                }
            }
            if import.used {
                continue;
            }
            let (message, help) = match &import.item {
                None => (
                    format!("{} is imported but never used", import.path),
                    "remove the import, or use what it binds",
                ),
                Some(_) => (
                    format!(
                        "{} is imported from {} but never used",
                        import.local, import.path
                    ),
                    "remove it from the import list",
                ),
            };
            self.report("unused-import", import.span, message, help.to_owned());
        }
    }

    /// `qualified-imports`, reported at the `use` of a selective import.
    fn qualified_import(&mut self, path: &str, first_item: &str, item_span: Span) {
        let span = self.use_span(item_span).unwrap_or(item_span);
        let last = path.rsplit('.').next().unwrap_or(path);
        let help = format!(
            "import the whole document, `use {path}`, and qualify each name, `{last}.{first_item}`"
        );
        self.report(
            "qualified-imports",
            span,
            format!("selective import of {path}"),
            help,
        );
    }

    /// The span of the `use` statement holding `inner`.
    fn use_span(&self, inner: Span) -> Option<Span> {
        let uses = match self.project.document(self.doc.at)? {
            Document::Policy(p) => &p.uses,
            Document::Module(m) => &m.uses,
            Document::Kind(_) => return None,
        };
        uses.iter()
            .find(|u| u.span.start <= inner.start && inner.end <= u.span.end)
            .map(|u| u.span)
    }

    fn shadows(&mut self, facts: &Facts) {
        let Some(pin) = self.kind().map(|k| format!("{}@{}", k.name, k.version)) else {
            return;
        };
        for shadow in &facts.shadows {
            let (name, what) = (&shadow.name, &shadow.what);
            let message = format!(
                "{name} shadows the kind's {what} {name}, added after the version this document pins"
            );
            let help = format!(
                "the kind's {what} is out of reach here; rename {name} and raise the document's pin to {pin}"
            );
            self.report("shadowed-kind-name", shadow.span, message, help);
        }
    }

    fn kind(&self) -> Option<&crate::kind::Kind> {
        self.project.kind_of(self.doc)
    }

    fn invocations(&mut self, facts: &Facts, required: &[&str]) {
        // The first call of each target and arguments, and the file's line
        // index, made for the first repeat: a lookup per call, not a scan.
        let mut seen: HashMap<(&str, &[String]), Span> = HashMap::new();
        let mut lines: Option<LineIndex<'_>> = None;
        let project = self.project;
        for call in &facts.invocations {
            let key = (call.target.as_str(), call.args.as_slice());
            if let Some(first) = seen.get(&key) {
                let source = project.files.get(self.doc.at.0).map_or("", |f| &*f.source);
                let line = lines
                    .get_or_insert_with(|| LineIndex::new(source))
                    .position(first.start)
                    .line;
                let message = format!("{} is invoked twice with the same arguments", call.target);
                let help = format!(
                    "the first is on line {line}; every rule it holds already fires once, so remove one, or change its arguments"
                );
                self.report("duplicate-invocation", call.span, message, help);
            } else {
                seen.insert(key, call.span);
            }
            if call.gated && !required.contains(&call.target.as_str()) {
                self.gated(&call.target, call.span);
            }
        }
    }

    /// `gated-assert` and `gated-deny` for a policy invoked under `when`.
    fn gated(&mut self, target: &str, span: Span) {
        if self.holds(target, &|f: &Facts| f.has_asserts) {
            let message = format!("{target} holds asserts and is invoked under `when`");
            let help = "its asserts only run while the condition holds; invoke it at the top level, or have the host require it";
            self.report("gated-assert", span, message, help.to_owned());
        }
        let Some(deny) = self
            .kind()
            .filter(|k| k.collect == Collect::One)
            .and_then(|k| k.precedence.first())
        else {
            return;
        };
        let deny = deny.clone();
        if self.holds(target, &|f: &Facts| f.constructs.contains(&deny)) {
            let message = format!("{target} holds {deny} rules and is invoked under `when`");
            let help = format!(
                "its {deny} rules only fire while the condition holds; invoke it at the top level, or have the host require it"
            );
            self.report("gated-deny", span, message, help);
        }
    }

    /// Whether policy `target`, or a policy it invokes (transitively),
    /// has the property `has`.
    fn holds(&self, target: &str, has: &dyn Fn(&Facts) -> bool) -> bool {
        let mut stack = vec![target.to_owned()];
        let mut seen: Vec<String> = Vec::new();
        while let Some(name) = stack.pop() {
            if seen.contains(&name) {
                continue;
            }
            let Some(doc) = self
                .project
                .find(&name)
                .and_then(|i| self.project.docs.get(i))
            else {
                continue;
            };
            if has(&doc.facts) {
                return true;
            }
            stack.extend(doc.facts.invocations.iter().map(|c| c.target.clone()));
            seen.push(name);
        }
        false
    }

    /// `path-matches-name`: a document whose file isn't named after it.
    fn path_matches_name(&mut self) {
        let Some(file) = self.project.files.get(self.doc.at.0) else {
            return;
        };
        if file.path.is_empty() || file.path.starts_with('<') {
            return;
        }
        if crate::diag::path_matches(&file.path, &self.doc.name) {
            return;
        }
        let span = match self.project.document(self.doc.at) {
            Some(Document::Policy(p)) => p.name.span(),
            Some(Document::Module(m)) => m.name.span(),
            _ => return,
        };
        let target = format!("{}.sigil", self.doc.name.replace('.', "/"));
        let message = format!(
            "{} is in {}, not in a file named after it",
            self.doc.name, file.path
        );
        let help = format!("move it to {target}, or rename it to match its file");
        self.report("path-matches-name", span, message, help);
    }
}
