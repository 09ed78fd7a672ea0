//! Diagnostics as the records of tooling §2, which check and compile
//! answer and failures carry: positions resolved to lines and columns of
//! the files they point into.

use super::writer::Json;
use crate::bundle::Project;
use crate::diag::Diagnostic;
use crate::source::{LineIndex, Position};

/// A diagnostic as the record of tooling §2, its position resolved to a
/// line and a column (code points) of the source it points into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DiagnosticRecord {
    diagnostic: Diagnostic,
    position: Option<Position>,
}

impl DiagnosticRecord {
    /// The record of `diagnostic`, whose span points into `source`.
    pub(crate) fn new(diagnostic: Diagnostic, source: &LineIndex<'_>) -> Self {
        let position = diagnostic.span.map(|span| source.position(span.start));
        Self {
            diagnostic,
            position,
        }
    }

    /// Writes the record: `severity`, `lint`, `file`, `document`, `message`, `help`, `line`,
    /// `column`, in that order; `lint`, `file`, `document` and `help` left
    /// out when absent or empty, `line` and `column` without a position.
    pub(crate) fn write(&self, out: &mut Json) {
        let d = &self.diagnostic;
        out.raw("{\"severity\":");
        out.string(d.severity.as_str());
        let optional = [
            ("lint", d.lint),
            ("file", d.file.as_deref()),
            ("document", d.document.as_deref()),
        ];
        for (name, value) in optional {
            if let Some(value) = value.filter(|v| !v.is_empty()) {
                out.member(name);
                out.string(value);
            }
        }
        out.member("message");
        out.string(&d.message);
        if let Some(help) = d.help.as_deref().filter(|h| !h.is_empty()) {
            out.member("help");
            out.string(help);
        }
        if let Some(position) = self.position {
            out.member("line");
            out.raw(&position.line.to_string());
            out.member("column");
            out.raw(&position.column.to_string());
        }
        out.raw("}");
    }
}

/// The records of `diagnostics`, positions resolved in their files.
pub(crate) fn records(project: &Project, diagnostics: Vec<Diagnostic>) -> Vec<DiagnosticRecord> {
    // Indexed only when a diagnostic points into the file: a clean check
    // indexes nothing.
    let mut indexes: Vec<Option<LineIndex<'_>>> = project.files.iter().map(|_| None).collect();
    let empty = LineIndex::new("");
    diagnostics
        .into_iter()
        .map(|d| {
            let file = project
                .files
                .iter()
                .position(|f| Some(f.path.as_str()) == d.file.as_deref());
            let index = file.and_then(|i| {
                let source = &project.files.get(i)?.source;
                Some(
                    &*indexes
                        .get_mut(i)?
                        .get_or_insert_with(|| LineIndex::new(source)),
                )
            });
            DiagnosticRecord::new(d, index.unwrap_or(&empty))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_record_has_its_fields_in_order_and_leaves_out_the_empty_ones() {
        use crate::source::Span;
        let src = "let é = 1\nlet x = ?\n";
        let index = LineIndex::new(src);
        let write = |d: Diagnostic| {
            let mut json = Json::body();
            DiagnosticRecord::new(d, &index).write(&mut json);
            json.into_members()
        };
        let full = Diagnostic::error(Span::new(19, 20), "unexpected `?`")
            .with_help("write <an> expression")
            .with_lint("unused-let")
            .with_file("a.sigil")
            .with_document("a.b");
        assert_eq!(
            write(full),
            r#"{"severity":"error","lint":"unused-let","file":"a.sigil","document":"a.b","message":"unexpected `?`","help":"write \u003can\u003e expression","line":2,"column":9}"#
        );
        // Columns count code points: `=` is the 7th character, byte 7.
        let bare = Diagnostic::error(Span::new(7, 8), "m").with_file("");
        assert_eq!(
            write(bare),
            r#"{"severity":"error","message":"m","line":1,"column":7}"#
        );
        let nowhere = Diagnostic::new(crate::diag::Severity::Warning, None, "m");
        assert_eq!(write(nowhere), r#"{"severity":"warning","message":"m"}"#);
    }
}
