//! The spec's examples (`shared/spec/examples`, or `$SIGIL_SPEC_EXAMPLES`):
//! every `.sigil` file parses or fails exactly as its header says.
//!
//! Core cases in `expr` mode are one expression (the header comments are
//! trivia, so positions are file positions): `expect-parse` is compared with
//! the canonical rendering; an `expect-error` that is lexical or syntactic
//! must be the only diagnostic, with its span and help; any other expected
//! error belongs to a later phase, so the parse must be clean. Every other
//! file (kinds, policies, modules, `policy`-mode cases) must parse cleanly.

use super::*;

/// Core cases whose expected error comes from the lexer or the parser.
const SYNTAX_ERROR_CASES: &[&str] = &[
    "03-duration-units-out-of-order",
    "04-hex-notation",
    "17-comparisons-dont-chain",
    "18-or-xor-mix",
];

#[test]
fn spec_examples_parse_as_their_headers_say() {
    let files = crate::testing::spec_example_files();
    if files.is_empty() {
        return;
    }
    assert!(files.len() >= 30, "only {} examples", files.len());
    let (mut parsed_shapes, mut syntax_errors) = (0, 0);
    for file in &files {
        let src = std::fs::read_to_string(file).unwrap();
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let name = file.display().to_string();
        if crate::testing::example_header(&src, "mode") != Some("expr") {
            let (parsed, diags) = parse_file(&name, &src);
            assert!(diags.is_empty(), "{name}: {diags:#?}");
            assert!(!parsed.docs.is_empty(), "{name}: no documents");
            continue;
        }
        let (expr, diags) = parse_expr(&name, &src);
        if SYNTAX_ERROR_CASES.contains(&stem.as_str()) {
            syntax_errors += 1;
            let idx = LineIndex::new(&src);
            let got: Vec<_> = diags
                .iter()
                .map(|d| format!("{} {}", idx.format_span(d.span.unwrap()), d.message))
                .collect();
            assert_eq!(
                got,
                [crate::testing::example_header(&src, "expect-error").unwrap()],
                "{name}"
            );
            assert_eq!(
                diags[0].help.as_deref(),
                crate::testing::example_header(&src, "expect-help"),
                "{name}"
            );
            continue;
        }
        assert!(diags.is_empty(), "{name}: {diags:#?}");
        if let Some(want) = crate::testing::example_header(&src, "expect-parse") {
            parsed_shapes += 1;
            assert_eq!(expr.unwrap().canonical(), want, "{name}");
        }
    }
    assert_eq!(syntax_errors, SYNTAX_ERROR_CASES.len());
    assert!(
        parsed_shapes >= 4,
        "only {parsed_shapes} expect-parse headers checked"
    );
}
