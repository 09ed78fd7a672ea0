//! The formatter's tests: goldens of messy input → canonical output, the
//! properties over the spec's examples, the goldens and generated documents
//! (output reparses to the same program, idempotent, comments kept), depth
//! and the timing loop.

mod bench;
mod depth;
mod generator;
mod goldens;
mod properties;

use super::*;
use crate::parser::parse_file;

/// Formats `src`, failing the test with the error when it can't.
fn fmt(src: &str) -> String {
    match format_source("t.sigil", src) {
        Ok(out) => out,
        Err(e) => panic!("{e}: {e:?}\n--- source:\n{src}"),
    }
}

#[test]
fn an_empty_source_formats_to_nothing() {
    for src in ["", "\n", "  \n\t\r\n"] {
        assert_eq!(fmt(src), "", "{src:?}");
    }
}

#[test]
fn crlf_line_ends_become_lf() {
    let src = "policy a.b: K@1\r\n\r\nlet x = 1 // one\r\n// two\r\n";
    assert_eq!(fmt(src), "policy a.b: K@1\n\nlet x = 1 // one\n\n// two\n");
}

#[test]
fn a_source_with_syntax_errors_is_not_formatted() {
    let Err(FormatError::Syntax(diagnostics)) =
        format_source("bad.sigil", "policy a.b: K@1\nlet = 1\n")
    else {
        panic!("a source with a syntax error formatted");
    };
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].file.as_deref(), Some("bad.sigil"));
    assert_eq!(
        FormatError::Syntax(diagnostics).to_string(),
        "the source doesn't parse: expected a name after `let`, found `=`"
    );
}

#[test]
fn the_proof_catches_an_output_that_changed_anything() {
    let src = "policy a.b: K@1\n\nlet x = 1 // one\n";
    let (file, _) = parse_file("p.sigil", src);
    let comments = ["// one"];
    let check = |out: &str| verify::same_program(&file, &comments, out);
    assert_eq!(check(src), Ok(()));
    assert_eq!(
        check("policy a.b: K@1\n\nlet x = 2 // one\n"),
        Err(FormatError::ProgramChanged)
    );
    assert_eq!(
        check("policy a.b: K@1\n\nlet x = 1\n"),
        Err(FormatError::CommentsChanged)
    );
    assert_eq!(
        check("policy a.b: K@1\n\nlet x = // one\n"),
        Err(FormatError::OutputDoesntParse(
            "4:1: expected an expression, found end of file".into()
        ))
    );
    assert_eq!(
        FormatError::ProgramChanged.to_string(),
        "the output is another program"
    );
}

#[test]
fn rewrites_the_proof_allows() {
    let cases = [
        (
            "policy a.b: K@1\nlet x = any v in xs: v and w\n",
            "(v and w)",
        ),
        ("policy a.b: K@1\nlet x = 0 .f\n", "(0).f"),
        ("policy a.b: K@1\nwhen a { deny(r) }\n", "deny(reason: r)"),
        (
            "kind K version 1\ndecision d(x: int) { r s }\n",
            "decision d {\n  reason: r | s\n  x: int\n}",
        ),
    ];
    for (src, want) in cases {
        let out = fmt(src);
        assert!(out.contains(want), "{src:?} formatted to {out:?}");
    }
}
