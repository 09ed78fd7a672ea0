//! The cap on diagnostics (issue #20): a file reports at most
//! [`MAX_PER_FILE`] diagnostics and a request at most [`MAX_PER_REQUEST`];
//! past a cap the list ends with one diagnostic that says so. A source of
//! junk then costs a bounded answer, and the phases that stop early (the
//! lexer, the parser) a bounded time, whatever the source's size.
//!
//! The cap keeps the first diagnostics of the order it is given; phases
//! give theirs sorted by position (see [`super::sort`]), so what is
//! reported is what a person fixes first.

use std::collections::HashMap;

use super::{Diagnostic, Severity};

/// The most diagnostics one file reports.
pub const MAX_PER_FILE: usize = 100;

/// The most diagnostics one request reports, over all its files.
pub const MAX_PER_REQUEST: usize = 1000;

/// The message of the mark that ends a file's cut list.
const FILE_MARK: &str = "too many errors: only the first 100 of this file are reported";

/// The message of the mark that ends a request's cut list.
const REQUEST_MARK: &str = "too many errors: only the first 1000 of the request are reported";

/// The help of both marks.
const HELP: &str = "fix the errors reported and check again to see the rest";

/// The diagnostic that ends a file's list cut at [`MAX_PER_FILE`]; `file`
/// is the file's name, `None` for a bare source.
pub fn too_many_in_file(file: Option<&str>) -> Diagnostic {
    let mut d = Diagnostic::new(Severity::Error, None, FILE_MARK).with_help(HELP);
    d.file = file.map(str::to_owned);
    d
}

/// The diagnostic that ends a request's list cut at [`MAX_PER_REQUEST`].
fn too_many_in_request() -> Diagnostic {
    Diagnostic::new(Severity::Error, None, REQUEST_MARK).with_help(HELP)
}

/// Whether `d` is a mark with message `mark`.
fn is_mark(d: &Diagnostic, mark: &str) -> bool {
    d.span.is_none() && d.message == mark
}

/// `diagnostics` capped, in their order: at most [`MAX_PER_FILE`] per file
/// and [`MAX_PER_REQUEST`] in all. Past a cap the list ends with the marks
/// that say so: one [`too_many_in_file`] per cut file, or, when the request
/// is cut, the request's mark alone. A list within the caps comes back as
/// it was; a list already capped (a parser's) keeps its marks, once.
pub fn cap(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    if diagnostics.len() <= MAX_PER_FILE {
        return diagnostics;
    }
    let mut counts: HashMap<Option<String>, usize> = HashMap::new();
    let mut marks: Vec<Diagnostic> = Vec::new();
    let mut out: Vec<Diagnostic> = Vec::with_capacity(MAX_PER_REQUEST.min(diagnostics.len()));
    let mut request_cut = false;
    for d in diagnostics {
        if is_mark(&d, REQUEST_MARK) {
            request_cut = true;
            continue;
        }
        let count = counts.entry(d.file.clone()).or_insert(0);
        if is_mark(&d, FILE_MARK) || *count >= MAX_PER_FILE {
            if !marks.iter().any(|m| m.file == d.file) {
                marks.push(too_many_in_file(d.file.as_deref()));
            }
            continue;
        }
        *count += 1;
        if out.len() < MAX_PER_REQUEST {
            out.push(d);
        } else {
            request_cut = true;
        }
    }
    if request_cut {
        out.push(too_many_in_request());
    } else {
        out.extend(marks);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;

    /// `n` errors in `file`, at offsets 0, 1, ...
    fn errors(file: &str, n: usize) -> Vec<Diagnostic> {
        (0..n)
            .map(|i| Diagnostic::error(Span::new(i, i + 1), format!("e{i}")).with_file(file))
            .collect()
    }

    fn messages(list: &[Diagnostic]) -> Vec<(Option<&str>, &str)> {
        list.iter()
            .map(|d| (d.file.as_deref(), d.message.as_str()))
            .collect()
    }

    #[test]
    fn the_marks_name_the_caps() {
        assert!(FILE_MARK.contains(&format!(" {MAX_PER_FILE} ")));
        assert!(REQUEST_MARK.contains(&format!(" {MAX_PER_REQUEST} ")));
    }

    #[test]
    fn a_list_within_the_caps_is_unchanged() {
        let mut list = errors("b.sigil", 3);
        list.extend(errors("a.sigil", MAX_PER_FILE));
        assert_eq!(cap(list.clone()), list);
    }

    #[test]
    fn a_file_past_its_cap_keeps_its_first_diagnostics_and_a_mark_at_the_end() {
        let mut list = errors("a.sigil", MAX_PER_FILE + 50);
        list.extend(errors("b.sigil", 3));
        let got = cap(list);
        assert_eq!(got.len(), MAX_PER_FILE + 3 + 1);
        let got = messages(&got);
        assert_eq!(got.get(MAX_PER_FILE - 1), Some(&(Some("a.sigil"), "e99")));
        assert_eq!(got.get(MAX_PER_FILE), Some(&(Some("b.sigil"), "e0")));
        assert_eq!(
            got.last(),
            Some(&(
                Some("a.sigil"),
                "too many errors: only the first 100 of this file are reported"
            ))
        );
    }

    #[test]
    fn a_list_capped_before_keeps_its_mark_once() {
        let mut list = vec![too_many_in_file(Some("a.sigil"))];
        list.extend(errors("a.sigil", MAX_PER_FILE + 1));
        let got = cap(cap(list));
        assert_eq!(got.len(), MAX_PER_FILE + 1);
        assert_eq!(got.last(), Some(&too_many_in_file(Some("a.sigil"))));
        assert_eq!(
            got.last().and_then(|d| d.help.as_deref()),
            Some("fix the errors reported and check again to see the rest")
        );
    }

    #[test]
    fn a_request_past_its_cap_ends_with_the_request_s_mark_alone() {
        let list: Vec<Diagnostic> = (0..MAX_PER_REQUEST / MAX_PER_FILE + 1)
            .flat_map(|i| errors(&format!("f{i:02}.sigil"), MAX_PER_FILE + 1))
            .collect();
        let got = cap(list);
        assert_eq!(cap(got.clone()), got, "a capped list is capped");
        assert_eq!(got.len(), MAX_PER_REQUEST + 1);
        assert_eq!(
            messages(&got).last(),
            Some(&(
                None,
                "too many errors: only the first 1000 of the request are reported"
            ))
        );
    }
}
