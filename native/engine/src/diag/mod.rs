//! Diagnostics: the one record every phase reports problems with.
//!
//! The lexer, parser, kind loader, checker, lints and test runner all produce
//! [`Diagnostic`]s, so one renderer prints them and one encoder turns them
//! into the record of tooling §2. A diagnostic is data, not a failure of the
//! engine: phases return their partial result *and* every diagnostic.
//!
//! Where things are:
//!
//! * [`Diagnostic`], [`Severity`] and [`sort`]: here.
//! * [`nearest`], [`did_you_mean`] and [`declared_help`]: the product's
//!   only did-you-mean (tooling §1.5), in `nearest.rs`.
//! * [`merge_help`]: several pieces of advice in one help (tooling §1.6).
//! * [`render`] / [`render_all`]: the plain text layout (tooling §2), in
//!   `render.rs`; [`path_matches`] decides whether a document name is printed.
//! * [`go_quote`]: Go's `%q` quoting, which some messages embed, in `quote.rs`.
//! * [`cap`]: at most [`MAX_PER_FILE`] diagnostics per file and
//!   [`MAX_PER_REQUEST`] per request, then a "too many errors" mark, in
//!   `limit.rs`.
//!
//! Positions are byte [`Span`]s; rendering and encoding resolve them to
//! `line:column` against the file's source with
//! [`LineIndex`](crate::source::LineIndex).

mod limit;
mod nearest;
mod quote;
mod render;

pub use limit::{MAX_PER_FILE, MAX_PER_REQUEST, cap, too_many_in_file};
pub use nearest::{declared_help, did_you_mean, nearest};
pub use quote::{go_quote, go_quote_bytes, push_go_quoted_char};
pub use render::{path_matches, position_text, render, render_all};

use crate::source::Span;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The source is wrong; the phase's result can't be used.
    Error,
    /// A lint finding at level `warning`; never changes an outcome.
    Warning,
}

impl Severity {
    /// The word the record and the renderer print: `error` or `warning`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem in a source: what is wrong, how to fix it, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// `error` or `warning`.
    pub severity: Severity,
    /// The lint's name for a lint finding (shown as `[name]`), else `None`.
    pub lint: Option<&'static str>,
    /// One sentence, lower case start, no final period, user text in backticks.
    pub message: String,
    /// What to do, as an instruction; `None` when there is honestly nothing
    /// to suggest. Never `Some("")`.
    pub help: Option<String>,
    /// The file the span points into; `None` until the phase that knows the
    /// file name sets it (the lexer works on bare text).
    pub file: Option<String>,
    /// The policy or module document the position falls in, when known.
    pub document: Option<String>,
    /// Byte offsets into the file's source; `None` for a diagnostic about no
    /// particular place (the record then omits `line`/`column`).
    pub span: Option<Span>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Error, Some(span), message)
    }

    /// A diagnostic of any severity, at `span` or nowhere in particular.
    pub fn new(severity: Severity, span: Option<Span>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            lint: None,
            message: message.into(),
            help: None,
            file: None,
            document: None,
            span,
        }
    }

    /// The same diagnostic with `help`; an empty help means none.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        let help = help.into();
        self.help = if help.is_empty() { None } else { Some(help) };
        self
    }

    /// The same diagnostic with the help `help`, if any.
    #[must_use]
    pub fn with_optional_help(self, help: Option<String>) -> Self {
        match help {
            Some(help) => self.with_help(help),
            None => self,
        }
    }

    /// The same diagnostic marked as a finding of lint `lint`.
    #[must_use]
    pub fn with_lint(mut self, lint: &'static str) -> Self {
        self.lint = Some(lint);
        self
    }

    /// The same diagnostic placed in file `file`.
    #[must_use]
    pub fn with_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// The same diagnostic attributed to document `document`.
    #[must_use]
    pub fn with_document(mut self, document: impl Into<String>) -> Self {
        self.document = Some(document.into());
        self
    }

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Sorts diagnostics the way every list leaves a phase: stably by file name
/// (plain string order; no file sorts as the empty name, first), then by the
/// byte offset where the span starts (no span counts as offset 0).
pub fn sort(diagnostics: &mut [Diagnostic]) {
    fn file(d: &Diagnostic) -> &str {
        d.file.as_deref().unwrap_or("")
    }
    fn offset(d: &Diagnostic) -> usize {
        d.span.map_or(0, |s| s.start)
    }
    diagnostics.sort_by(|a, b| file(a).cmp(file(b)).then(offset(a).cmp(&offset(b))));
}

/// Joins several pieces of advice into one help (tooling §1.6): after an
/// item that ends in `?` or `.` the separator is one space, otherwise `; `.
/// Empty items are skipped.
pub fn merge_help<I, S>(items: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut out = String::new();
    for item in items {
        let item = item.as_ref();
        if item.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str(if out.ends_with('?') || out.ends_with('.') {
                " "
            } else {
                "; "
            });
        }
        out.push_str(item);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders() {
        let d = Diagnostic::error(Span::new(1, 2), "bad")
            .with_help("")
            .with_lint("unused-let")
            .with_file("a.sigil")
            .with_document("a");
        assert_eq!(d.help, None);
        assert_eq!(d.lint, Some("unused-let"));
        assert_eq!(d.file.as_deref(), Some("a.sigil"));
        assert_eq!(d.document.as_deref(), Some("a"));
        assert!(d.is_error());
        let d = d.with_optional_help(Some("fix it".into()));
        assert_eq!(d.help.as_deref(), Some("fix it"));
        assert_eq!(Severity::Warning.as_str(), "warning");
    }

    #[test]
    fn sort_by_file_then_offset() {
        let at = |file: Option<&str>, start: usize, msg: &str| {
            let mut d = Diagnostic::error(Span::new(start, start + 1), msg);
            d.file = file.map(str::to_owned);
            d
        };
        let mut list = vec![
            at(Some("b.sigil"), 0, "b0"),
            at(Some("a.sigil"), 9, "a9"),
            at(None, 5, "none5"),
            at(Some("a.sigil"), 2, "a2-first"),
            at(Some("a.sigil"), 2, "a2-second"),
            Diagnostic::new(Severity::Error, None, "nowhere"),
        ];
        sort(&mut list);
        let got: Vec<_> = list.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            got,
            ["nowhere", "none5", "a2-first", "a2-second", "a9", "b0"]
        );
    }

    struct MergeCase {
        items: &'static [&'static str],
        want: &'static str,
    }

    #[rustfmt::skip]
    const MERGE_CASES: &[MergeCase] = &[
        MergeCase {
            items: &[],
            want: "",
        },
        MergeCase {
            items: &["one"],
            want: "one",
        },
        MergeCase {
            items: &["one", "two"],
            want: "one; two",
        },
        MergeCase {
            items: &["did you mean \"unused-let\"?", "the lints are a, b"],
            want: "did you mean \"unused-let\"? the lints are a, b",
        },
        MergeCase {
            items: &["Done.", "next", "", "last"],
            want: "Done. next; last",
        },
    ];

    #[test]
    fn merge_help_table() {
        for c in MERGE_CASES {
            assert_eq!(merge_help(c.items), c.want, "items {:?}", c.items);
        }
    }
}
