//! The spec's core examples in `expr` mode with an expected type or a
//! type error (syntax errors belong to the parser's tests).

use super::{describe, kind_of};
use crate::parser::parse_expr;
use crate::source::LineIndex;

#[test]
fn core_examples_check_as_their_headers_say() {
    let files = crate::testing::spec_example_files();
    let Some(kind_file) = files.iter().find(|f| f.ends_with("core/kind.sigil")) else {
        return;
    };
    let kind = kind_of(&crate::testing::read(kind_file));
    let mut checked = 0;
    for file in files
        .iter()
        .filter(|f| f.to_string_lossy().contains("/core/"))
    {
        let src = crate::testing::read(file);
        if crate::testing::example_header(&src, "mode") != Some("expr") {
            continue;
        }
        let (expr, syntax) = parse_expr("case", &src);
        let Some(expr) = expr.filter(|_| syntax.is_empty()) else {
            continue;
        };
        let (ty, diagnostics) = super::super::check_expr(&expr, &kind);
        let name = file.display();
        match crate::testing::example_header(&src, "expect-error") {
            Some(want) => {
                let index = LineIndex::new(&src);
                let got: Vec<String> = diagnostics
                    .iter()
                    .map(|d| {
                        format!(
                            "{} {}",
                            index.format_span(d.span.unwrap_or_default()),
                            d.message
                        )
                    })
                    .collect();
                assert_eq!(got, [want], "{name}");
                let help = diagnostics.first().and_then(|d| d.help.as_deref());
                assert_eq!(
                    help,
                    crate::testing::example_header(&src, "expect-help"),
                    "{name}: {}",
                    describe(&src, &diagnostics[0])
                );
            }
            None => {
                assert!(diagnostics.is_empty(), "{name}: {diagnostics:#?}");
                if let Some(want) = crate::testing::example_header(&src, "expect-type") {
                    assert_eq!(ty.to_string(), want, "{name}");
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} core examples checked");
}
