//! The canonical formatter (tooling §4): a parsed file reprinted in the one
//! style `sigil fmt` prints, every comment kept.
//!
//! [`format_source`] parses and formats a source; [`format_file`] formats a
//! tree the parser made without errors, from the source it came from. A
//! file that doesn't parse isn't formatted: reprinting a partial tree would
//! drop what didn't parse.
//!
//! The formatter reprints the tree, so spacing and indentation are always
//! the same; its few layout decisions follow where the author broke lines
//! (an `and`/`or`/`xor` chain, a bracketed list whose first item started a
//! new line, a `let` value on the next line, enum and reason continuation
//! lines). Comments aren't in the tree: they come from the tokens the parser
//! skips and go back by source position, on a line of their own or trailing
//! the code they followed.
//!
//! Where things are:
//!
//! * `scan.rs`: what the printer needs of the source besides the tree:
//!   where lines start, the comments and the document separators.
//! * `output.rs`: the printer's state: the output as a list of lines
//!   (indent, code, trailing comment), positions in the source, and the
//!   final rendering with aligned comments.
//! * `comments.rs`: the primitives that put comments back (`trail`,
//!   `flush`, `open`, `section`, `close`).
//! * `expr.rs`: expressions, walked along their spine with a loop.
//! * `printer.rs`: files, documents, statements, declarations and types,
//!   and the decision members that move with their comments.
//! * `verify.rs`: the proof: the output reparses to the same program (spans
//!   ignored) with the same comments, or formatting fails.
//!
//! Each of the first five builds only on those listed before it, so the
//! modules import one another in one direction (`module-circles`).
//!
//! **The formatter proves itself**: the output is reparsed and compared
//! with the input tree, allowing only the rewrites of tooling §4.5–§4.6 (a
//! quantifier or filter body with a top-level `and`/`or`/`xor` gains
//! parentheses, `0 .f` prints as `(0).f`, a legacy decision and a
//! positional reason print in the current syntax), and its comments with
//! the input's. A mismatch is a bug in the engine, reported as
//! [`FormatError`], never wrong output.

mod comments;
mod expr;
mod output;
mod printer;
mod scan;
mod verify;

#[cfg(test)]
mod tests;

use std::fmt;

use crate::ast::File;
use crate::diag::Diagnostic;
use crate::lexer::lex;
use crate::parser::{Literals, parse_lexed};

/// Why a source wasn't formatted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    /// The source doesn't parse: the parser's diagnostics (never empty),
    /// each with the file name given.
    Syntax(Vec<Diagnostic>),
    /// The formatter's output doesn't parse: a bug in the formatter. Holds
    /// the first diagnostic of the reparse, rendered on one line.
    OutputDoesntParse(String),
    /// The output parses to another program than the input: a bug.
    ProgramChanged,
    /// The output lost, added or changed a comment: a bug.
    CommentsChanged,
}

impl fmt::Display for FormatError {
    /// What went wrong, as the tail of a sentence (lower case, no period).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Syntax(diagnostics) => match diagnostics.first() {
                Some(first) => write!(f, "the source doesn't parse: {}", first.message),
                None => f.write_str("the source doesn't parse"),
            },
            FormatError::OutputDoesntParse(why) => write!(f, "the output doesn't parse: {why}"),
            FormatError::ProgramChanged => f.write_str("the output is another program"),
            FormatError::CommentsChanged => f.write_str("the output doesn't keep every comment"),
        }
    }
}

/// Parses `src` (diagnostics name it `name`) and formats it. The output
/// uses two spaces per indentation level and ends with one newline, or is
/// empty for a source with nothing in it.
pub fn format_source(name: &str, src: &str) -> Result<String, FormatError> {
    let lexed = lex(src);
    let scanned = scan::scan(src, &lexed.0);
    let (file, diagnostics) = parse_lexed(name, src, lexed, Literals::TextOnly);
    if !diagnostics.is_empty() {
        return Err(FormatError::Syntax(diagnostics));
    }
    let comments = verify::Comments::of(scanned.comments.iter().map(|c| c.text));
    let out = printer::print(&file, src, scanned);
    // The input's tree goes before the output's is made (the proof holds
    // its fingerprint), so a large file is never two trees at once.
    let program = verify::Program::of(&file);
    drop(file);
    verify::proven(name, program, comments, &out)?;
    Ok(out)
}

/// Formats `file`, which [`parse_file`](crate::parser::parse_file) made of `src` without diagnostics,
/// and proves the output keeps the program and its comments (module doc).
/// Only the proof fails: a tree with errors in it fails it.
pub fn format_file(file: &File, src: &str) -> Result<String, FormatError> {
    let (tokens, _) = lex(src);
    let scanned = scan::scan(src, &tokens);
    let comments = verify::Comments::of(scanned.comments.iter().map(|c| c.text));
    let out = printer::print(file, src, scanned);
    verify::proven(&file.name, verify::Program::of(file), comments, &out)?;
    Ok(out)
}
