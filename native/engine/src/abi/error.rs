//! The failure of a request: what becomes the envelope's `error` (and its
//! `diagnostics`). Each kind of failure has its constructor here, with the
//! exact texts of module-abi.md §1.1 and §2.2.

use std::borrow::Cow;

use super::diagnostic_record::DiagnosticRecord;
use crate::diag::go_quote;

/// The help of every request the engine couldn't read.
const MALFORMED_HELP: &str =
    r#"send one JSON object of an op and its fields, such as {"op": "version"}"#;

/// A request that failed: a message, what to do about it, and the
/// diagnostics that stopped the op (when an op was stopped by some).
#[derive(Debug)]
pub(crate) struct EngineError {
    pub(crate) message: String,
    /// Empty when there is honestly nothing to suggest; then left out.
    pub(crate) help: Cow<'static, str>,
    /// Left out of the response when empty.
    pub(crate) diagnostics: Vec<DiagnosticRecord>,
}

impl EngineError {
    fn new(message: String, help: impl Into<Cow<'static, str>>) -> Self {
        Self {
            message,
            help: help.into(),
            diagnostics: Vec::new(),
        }
    }

    /// The request isn't JSON, names a field no op knows, or gives a field
    /// the wrong type; `decoder_error` is the decoder's (Go-shaped) text.
    pub(crate) fn malformed(decoder_error: &str) -> Self {
        Self::new(
            format!("the request isn't a JSON object of the fields an op takes: {decoder_error}"),
            MALFORMED_HELP,
        )
    }

    /// `engine_call` got a pointer that isn't a live `engine_alloc` buffer,
    /// or a length beyond it.
    pub(crate) fn not_in_memory() -> Self {
        Self::new(
            "the request isn't in memory from engine_alloc: allocate it with engine_alloc, write it, and pass that pointer and the length written".to_owned(),
            MALFORMED_HELP,
        )
    }

    /// The request's op is none the engine knows (`""` when missing).
    pub(crate) fn unknown_op(op: &str) -> Self {
        Self::new(
            format!("unknown op {}", go_quote(op)),
            "the ops are version, check, compile, eval, explain, format, test and release",
        )
    }

    /// A request whose fields can't be used as they are (a bad file list,
    /// lint, pattern or requirement): the op's own message and help.
    pub(crate) fn rejected(message: String, help: String) -> Self {
        Self::new(message, help)
    }

    /// A request whose op was stopped by `diagnostics`.
    pub(crate) fn with_diagnostics(
        message: String,
        help: String,
        diagnostics: Vec<DiagnosticRecord>,
    ) -> Self {
        Self {
            diagnostics,
            ..Self::new(message, help)
        }
    }

    /// A check, compile or explain request without files (module-abi §3).
    pub(crate) fn no_files() -> Self {
        Self::new(
            "the request holds no files".to_owned(),
            r#"send the kind and the policies as "files": [{"path": "...", "source": "..."}]"#,
        )
    }

    /// A format request without a `source`, or with `"source": null`
    /// (§4.6).
    pub(crate) fn format_needs_source() -> Self {
        Self::new(
            "format needs a source".to_owned(),
            r#"send {"op": "format", "source": "..."}, with an optional path for its diagnostics"#,
        )
    }

    /// The source of a format request doesn't parse (§4.6): `diagnostics`
    /// are its syntax errors, in the file named `path`.
    pub(crate) fn syntax_errors(path: &str, diagnostics: Vec<DiagnosticRecord>) -> Self {
        Self {
            diagnostics,
            ..Self::new(
                format!("{path} has syntax errors"),
                "fix the syntax errors; fmt only formats files that parse",
            )
        }
    }

    /// The formatter's output for `path` failed its own check (`why`): a
    /// bug in the engine, reported instead of wrong output.
    pub(crate) fn format_unsound(path: &str, why: &impl std::fmt::Display) -> Self {
        Self::new(
            format!("formatting {path} failed the formatter's own check: {why}"),
            "this is a bug in the engine; please report it with the request",
        )
    }

    /// A panic while handling the request: a bug in the engine.
    pub(crate) fn panicked(panic_message: &str) -> Self {
        Self::new(
            format!("the engine failed while handling the request: {panic_message}"),
            "this is a bug in the engine; please report it with the request",
        )
    }
}
