//! Properties over the spec's examples: every file that parses formats,
//! the output reparses to the same program with the same comments
//! (`format_file` proves it), and formatting the output changes nothing.
//! An `expr`-mode case is one expression; it is formatted as the value of a
//! `let` in a policy.

use super::*;
use crate::testing::{read, spec_example_files};

#[test]
fn spec_examples_format_idempotently() {
    let files = spec_example_files();
    let (mut formatted, mut syntax_errors) = (0, 0);
    for path in &files {
        let mut src = read(path);
        if src.lines().any(|l| l == "// mode: expr") {
            src.insert_str(0, "policy spec.example: K@1\nlet value =\n");
        }
        match format_source(&path.display().to_string(), &src) {
            Err(FormatError::Syntax(_)) => syntax_errors += 1,
            Err(e) => panic!("{}: {e}", path.display()),
            Ok(out) => {
                assert_eq!(fmt(&out), out, "{} not idempotent:\n{out}", path.display());
                formatted += 1;
            }
        }
    }
    assert!(
        files.is_empty() || (formatted >= 35 && syntax_errors == 4),
        "{formatted} examples formatted, {syntax_errors} with syntax errors"
    );
}
