//! The plain text form of diagnostics (tooling §2, language-core §8.0):
//!
//! ```text
//! file:line:col[ (doc)]: severity: message[ [lint]]
//! pad |
//! line | source line
//! pad | lead^^^
//! pad = help: help
//! ```
//!
//! Used by goldens, by the test runner's text fields and by anything else
//! that shows a diagnostic to a person. Only this module formats for people;
//! phases build [`Diagnostic`] values.

use std::collections::HashMap;

use super::Diagnostic;
use crate::source::{LineIndex, Position};

/// The widest quoted line, in characters. A longer line is quoted as a
/// window of this many characters that starts a little before the span,
/// `…` marking each end that was cut, so that a diagnostic costs a bounded
/// text however long its line is.
pub const QUOTE_WIDTH: usize = 160;

/// How many characters of the line a cut window shows before the span.
const QUOTE_BEFORE: usize = 40;

/// Renders one diagnostic, quoting its line from `source` (the text of the
/// diagnostic's file). The result ends with a newline.
///
/// Without `source` the position can't be resolved: the header names only the
/// file and no line is quoted. A diagnostic without a span renders its header
/// (`file: severity: message`, or just `severity: message`) and help.
pub fn render(diagnostic: &Diagnostic, source: Option<&str>) -> String {
    let index = source.map(LineIndex::new);
    render_indexed(diagnostic, index.as_ref())
}

/// [`render`] against the line index of the diagnostic's file, which a
/// caller rendering several diagnostics of one file builds once.
fn render_indexed(diagnostic: &Diagnostic, index: Option<&LineIndex<'_>>) -> String {
    let positions = match (index, diagnostic.span) {
        (Some(index), Some(span)) => Some(index.span_positions(span)),
        _ => None,
    };

    let mut out = header(diagnostic, positions.map(|(start, _)| start));
    out.push('\n');

    let quoted = match (index, positions) {
        (Some(index), Some((start, end))) => {
            index.line_text(start.line).map(|line| (line, start, end))
        }
        _ => None,
    };
    let Some((line, start, end)) = quoted else {
        if let Some(help) = &diagnostic.help {
            out.push_str("  = help: ");
            out.push_str(help);
            out.push('\n');
        }
        return out;
    };

    let number = start.line.to_string();
    let pad = " ".repeat(number.len());
    let (shown, start, end) = window(line, start, end);
    let (lead, carets) = underline(&shown, start, end);
    for part in [
        &pad, " |\n", &number, " | ", &shown, "\n", &pad, " | ", &lead, &carets, "\n",
    ] {
        out.push_str(part);
    }
    if let Some(help) = &diagnostic.help {
        for part in [&pad, " = help: ", help, "\n"] {
            out.push_str(part);
        }
    }
    out
}

/// The part of `line` to quote, and the span's start and end columns in
/// it: the whole line when it has at most [`QUOTE_WIDTH`] characters, else
/// a window of that many from [`QUOTE_BEFORE`] characters before the start
/// (less at the end of the line), with `…` for each cut end, which the
/// columns count.
fn window(line: &str, start: Position, end: Position) -> (String, Position, Position) {
    if line.len() <= QUOTE_WIDTH {
        return (line.to_owned(), start, end);
    }
    let length = line.chars().count();
    if length <= QUOTE_WIDTH {
        return (line.to_owned(), start, end);
    }
    let from = start
        .column
        .saturating_sub(1 + QUOTE_BEFORE)
        .min(length - QUOTE_WIDTH);
    let to = from + QUOTE_WIDTH;
    let mut shown = String::new();
    if from > 0 {
        shown.push('…');
    }
    shown.extend(line.chars().skip(from).take(QUOTE_WIDTH));
    if to < length {
        shown.push('…');
    }
    // Columns in the window: the cut characters go, the `…` comes.
    let shift = |column: usize| (column + usize::from(from > 0)).saturating_sub(from);
    let start = Position {
        column: shift(start.column),
        ..start
    };
    let end = match end.line == start.line {
        true => Position {
            column: shift(end.column).min(QUOTE_WIDTH + 1 + usize::from(from > 0)),
            ..end
        },
        false => end,
    };
    (shown, start, end)
}

/// Renders several diagnostics separated by one blank line, each quoting the
/// source `sources` returns for its file. The result has no trailing newline.
/// Each file is indexed once, however many diagnostics it has.
pub fn render_all<'s, F>(diagnostics: &[Diagnostic], sources: F) -> String
where
    F: Fn(Option<&str>) -> Option<&'s str>,
{
    let mut indexes: HashMap<Option<&str>, Option<LineIndex<'s>>> = HashMap::new();
    let parts: Vec<String> = diagnostics
        .iter()
        .map(|d| {
            let file = d.file.as_deref();
            let index = indexes
                .entry(file)
                .or_insert_with(|| sources(file).map(LineIndex::new));
            let mut text = render_indexed(d, index.as_ref());
            let trimmed = text.trim_end_matches('\n').len();
            text.truncate(trimmed);
            text
        })
        .collect();
    parts.join("\n\n")
}

/// Whether `path` is where a document called `document` is expected (tooling
/// §1.4): the name with each `.` turned into `/` and `.sigil` appended, equal
/// to the path or ending it after a `/`. The path's backslashes count as `/`
/// and a leading `./` is ignored.
pub fn path_matches(path: &str, document: &str) -> bool {
    let want = format!("{}.sigil", document.replace('.', "/"));
    let path = path.replace('\\', "/");
    let path = path.strip_prefix("./").unwrap_or(&path);
    path == want
        || path
            .strip_suffix(want.as_str())
            .is_some_and(|rest| rest.ends_with('/'))
}

/// A position as records print it (language-policies §8.4):
/// `file:line:column`, then ` (document)` when the path doesn't spell the
/// document's name.
pub fn position_text(path: &str, document: &str, at: Position) -> String {
    let mut out = format!("{path}:{}:{}", at.line, at.column);
    if !path_matches(path, document) {
        out.push_str(&format!(" ({document})"));
    }
    out
}

/// The first line: where, how serious, what, and which lint.
fn header(d: &Diagnostic, start: Option<Position>) -> String {
    let mut out = String::new();
    if d.file.is_some() || start.is_some() {
        if let Some(file) = &d.file {
            out.push_str(file);
        }
        if let Some(start) = start {
            if d.file.is_some() {
                out.push(':');
            }
            out.push_str(&start.to_string());
            if let Some(doc) = &d.document {
                if !path_matches(d.file.as_deref().unwrap_or(""), doc) {
                    out.push_str(" (");
                    out.push_str(doc);
                    out.push(')');
                }
            }
        }
        out.push_str(": ");
    }
    out.push_str(d.severity.as_str());
    out.push_str(": ");
    out.push_str(&d.message);
    if let Some(lint) = d.lint {
        out.push_str(" [");
        out.push_str(lint);
        out.push(']');
    }
    out
}

/// The caret line under `line` for a span from `start` to `end`: the line's
/// characters before the start column as spaces (tabs kept as tabs, so the
/// carets line up in a terminal), then one `^` per character of the span on
/// this line. A span that ends on a later line, or that is empty, is
/// underlined to the end of the line (the reference renderer's behaviour);
/// there is always at least one caret.
fn underline(line: &str, start: Position, end: Position) -> (String, String) {
    let line_end = line.chars().count() + 1;
    let first = start.column.clamp(1, line_end);
    let lead: String = line
        .chars()
        .take(first - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let last = if end.line == start.line && end.column > first {
        line_end.min(end.column)
    } else {
        line_end
    };
    let carets = "^".repeat(last.saturating_sub(first).max(1));
    (lead, carets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;
    use crate::source::Span;

    const SRC: &str = "policy p: K\n\tlet tight = min_soak---1h\nlet s = `abc\ndef\n";

    struct Case {
        name: &'static str,
        diagnostic: fn() -> Diagnostic,
        source: Option<&'static str>,
        want: &'static str,
    }

    fn err(start: usize, end: usize, msg: &str) -> Diagnostic {
        Diagnostic::error(Span::new(start, end), msg).with_file("p.sigil")
    }

    const CASES: &[Case] = &[
        Case {
            name: "one line, tab kept in the lead",
            diagnostic: || err(33, 36, "`---` separates documents").with_help("put spaces"),
            source: Some(SRC),
            want: "p.sigil:2:22: error: `---` separates documents\n  |\n2 | \tlet tight = min_soak---1h\n  | \t                    ^^^\n  = help: put spaces\n",
        },
        Case {
            name: "no help",
            diagnostic: || err(8, 9, "expected `:`"),
            source: Some(SRC),
            want: "p.sigil:1:9: error: expected `:`\n  |\n1 | policy p: K\n  |         ^\n",
        },
        Case {
            name: "multi-line span underlines to the end of its first line",
            diagnostic: || {
                err(47, 56, "unterminated raw string literal").with_help("close it with a backtick")
            },
            source: Some(SRC),
            want: "p.sigil:3:9: error: unterminated raw string literal\n  |\n3 | let s = `abc\n  |         ^^^^\n  = help: close it with a backtick\n",
        },
        Case {
            name: "empty span at the end of the file",
            diagnostic: || err(56, 56, "expected `}`, found end of file"),
            source: Some(SRC),
            want: "p.sigil:5:1: error: expected `}`, found end of file\n  |\n5 | \n  | ^\n",
        },
        Case {
            name: "empty span inside a line underlines to its end",
            diagnostic: || err(4, 4, "invalid string literal"),
            source: Some("x = \"\\uD800\"\n"),
            want: "p.sigil:1:5: error: invalid string literal\n  |\n1 | x = \"\\uD800\"\n  |     ^^^^^^^^\n",
        },
        Case {
            name: "no source: header and help only",
            diagnostic: || err(1, 2, "somewhere").with_help("look again"),
            source: None,
            want: "p.sigil: error: somewhere\n  = help: look again\n",
        },
        Case {
            name: "no span",
            diagnostic: || Diagnostic::new(Severity::Error, None, "nowhere").with_file("p.sigil"),
            source: Some(SRC),
            want: "p.sigil: error: nowhere\n",
        },
        Case {
            name: "no file, no span",
            diagnostic: || Diagnostic::new(Severity::Error, None, "bare").with_help("h"),
            source: None,
            want: "error: bare\n  = help: h\n",
        },
        Case {
            name: "no file, with position",
            diagnostic: || Diagnostic::error(Span::new(0, 6), "first"),
            source: Some(SRC),
            want: "1:1: error: first\n  |\n1 | policy p: K\n  | ^^^^^^\n",
        },
        Case {
            name: "warning with lint",
            diagnostic: || {
                Diagnostic::new(
                    Severity::Warning,
                    Some(Span::new(4, 5)),
                    "let `x` is never read",
                )
                .with_lint("unused-let")
                .with_help("remove it")
                .with_file("p.sigil")
            },
            source: Some("let x = 1\n"),
            want: "p.sigil:1:5: warning: let `x` is never read [unused-let]\n  |\n1 | let x = 1\n  |     ^\n  = help: remove it\n",
        },
        Case {
            name: "document that the path doesn't spell",
            diagnostic: || {
                Diagnostic::error(Span::new(2, 3), "x")
                    .with_file("policies.sigil")
                    .with_document("payments.production")
            },
            source: None,
            want: "policies.sigil: error: x\n",
        },
        Case {
            name: "document shown after the position",
            diagnostic: || {
                Diagnostic::error(Span::new(2, 3), "x")
                    .with_file("policies.sigil")
                    .with_document("payments.production")
            },
            source: Some("ab\ncd\n"),
            want: "policies.sigil:1:3 (payments.production): error: x\n  |\n1 | ab\n  |   ^\n",
        },
        Case {
            name: "document the path spells is not shown",
            diagnostic: || {
                Diagnostic::error(Span::new(2, 3), "x")
                    .with_file("payments/production.sigil")
                    .with_document("payments.production")
            },
            source: Some("ab\ncd\n"),
            want: "payments/production.sigil:1:3: error: x\n  |\n1 | ab\n  |   ^\n",
        },
        Case {
            name: "crlf line ending is not quoted",
            diagnostic: || err(5, 6, "x"),
            source: Some("abc\r\ndef\r\n"),
            want: "p.sigil:2:1: error: x\n  |\n2 | def\n  | ^\n",
        },
        Case {
            name: "columns and carets count characters",
            diagnostic: || err(1, 3, "x"),
            source: Some("\"é\" + y"),
            want: "p.sigil:1:2: error: x\n  |\n1 | \"é\" + y\n  |  ^\n",
        },
        Case {
            name: "two-digit line numbers widen the gutter",
            diagnostic: || err(24, 28, "deep").with_help("h"),
            source: Some("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\nline twelve\n"),
            want: "p.sigil:12:1: error: deep\n   |\n12 | line twelve\n   | ^^^^\n   = help: h\n",
        },
    ];

    #[test]
    fn render_table() {
        for c in CASES {
            let got = render(&(c.diagnostic)(), c.source);
            assert_eq!(got, c.want, "case {:?}", c.name);
        }
    }

    #[test]
    fn a_long_line_is_quoted_as_a_window_around_the_span() {
        let line = format!("{}#{}", "x".repeat(50), "y".repeat(300));
        let at = |start: usize, end: usize| render(&err(start, end, "m"), Some(&line));
        let window = format!("…{}#{}…", "x".repeat(40), "y".repeat(119));
        assert_eq!(
            at(50, 51),
            format!(
                "p.sigil:1:51: error: m\n  |\n1 | {window}\n  | {}^\n",
                " ".repeat(41)
            )
        );
        // At the start: no cut before; at the end: none after.
        let head = format!("{}#{}…", "x".repeat(50), "y".repeat(109));
        assert_eq!(
            at(0, 2),
            format!("p.sigil:1:1: error: m\n  |\n1 | {head}\n  | ^^\n")
        );
        let tail = format!("…{}", "y".repeat(QUOTE_WIDTH));
        assert_eq!(
            at(340, 351),
            format!(
                "p.sigil:1:341: error: m\n  |\n1 | {tail}\n  | {}{}\n",
                " ".repeat(150),
                "^".repeat(11)
            )
        );
        // A span past the window is underlined to its end.
        assert_eq!(
            at(50, 351).lines().last(),
            Some(format!("  | {}{}", " ".repeat(41), "^".repeat(120)).as_str())
        );
    }

    #[test]
    fn render_all_joins_with_blank_lines() {
        let a = Diagnostic::error(Span::new(0, 3), "first").with_file("a.sigil");
        let b = Diagnostic::error(Span::new(0, 1), "second")
            .with_help("fix it")
            .with_file("b.sigil");
        let c = Diagnostic::new(Severity::Error, None, "no source").with_file("c.sigil");
        let sources = |file: Option<&str>| match file {
            Some("a.sigil") => Some("one\n"),
            Some("b.sigil") => Some("two\n"),
            _ => None,
        };
        let got = render_all(&[a, b, c], sources);
        let want = "a.sigil:1:1: error: first\n  |\n1 | one\n  | ^^^\n\n\
                    b.sigil:1:1: error: second\n  |\n1 | two\n  | ^\n  = help: fix it\n\n\
                    c.sigil: error: no source";
        assert_eq!(got, want);
        assert_eq!(render_all(&[], sources), "");
    }

    #[test]
    fn path_matching() {
        let cases: &[(&str, &str, bool)] = &[
            ("deploy/production.sigil", "deploy.production", true),
            (
                "policies/deploy/production.sigil",
                "deploy.production",
                true,
            ),
            ("./deploy/production.sigil", "deploy.production", true),
            (
                "policies\\deploy\\production.sigil",
                "deploy.production",
                true,
            ),
            ("xdeploy/production.sigil", "deploy.production", false),
            ("policies.sigil", "payments.production", false),
            ("p.sigil", "p", true),
            ("", "p", false),
        ];
        for &(path, doc, want) in cases {
            assert_eq!(path_matches(path, doc), want, "{path} ~ {doc}");
        }
    }
}
