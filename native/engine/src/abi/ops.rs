//! The ops (module-abi.md §4), one function each, chosen by the request's
//! `op`. An op reads the fields it needs from the decoded request and
//! answers a [`Success`] or an [`EngineError`].

use super::error::EngineError;
use super::request::Request;
use super::response::{DiagnosticRecord, Record, Success};
use crate::format::{FormatError, format_source};
use crate::source::LineIndex;

/// The op that panics on purpose, in test builds and builds with the
/// `panic-probe` feature: it proves that a panic becomes an `ok:false`
/// answer and leaves the instance working (see the crate doc of `abi`).
#[cfg(any(test, feature = "panic-probe"))]
pub(crate) const PANIC_PROBE: &str = "panic-probe";

/// Runs the request's op.
pub(crate) fn run(request: &Request<'_>) -> Result<Success, EngineError> {
    match request.op.as_ref() {
        "version" => Ok(version()),
        "check" => Err(EngineError::not_implemented("check")),
        "compile" => Err(EngineError::not_implemented("compile")),
        "eval" => Err(EngineError::not_implemented("eval")),
        "explain" => Err(EngineError::not_implemented("explain")),
        "format" => format(request),
        "test" => Err(EngineError::not_implemented("test")),
        "release" => Err(EngineError::not_implemented("release")),
        #[cfg(any(test, feature = "panic-probe"))]
        PANIC_PROBE => panic_probe(),
        op => Err(EngineError::unknown_op(op)),
    }
}

/// §4.1: the build of the engine. It takes no fields.
fn version() -> Success {
    Success::Version
}

/// Where a format request's diagnostics say they are without a `path`.
const STDIN: &str = "<stdin>";

/// §4.6: `source` in the canonical style (tooling §4), and whether it was
/// already. A source that doesn't parse fails with its syntax errors, in the
/// file `path` (default `<stdin>`, used as given).
fn format(request: &Request<'_>) -> Result<Success, EngineError> {
    let Some(source) = request.source.as_deref() else {
        return Err(EngineError::format_needs_source());
    };
    let path = match request.path.as_ref() {
        "" => STDIN,
        path => path,
    };
    match format_source(path, source) {
        Ok(out) => {
            let formatted = out == source;
            Ok(Success::Format {
                source: out,
                formatted,
            })
        }
        Err(FormatError::Syntax(diagnostics)) => {
            let index = LineIndex::new(source);
            let records = diagnostics
                .into_iter()
                .map(|d| Box::new(DiagnosticRecord::new(d, &index)) as Box<dyn Record>)
                .collect();
            Err(EngineError::syntax_errors(path, records))
        }
        Err(unsound) => Err(EngineError::format_unsound(path, &unsound)),
    }
}

#[cfg(any(test, feature = "panic-probe"))]
#[expect(clippy::panic, reason = "this op exists to panic")]
fn panic_probe() -> Result<Success, EngineError> {
    panic!("the panic-probe op panics on purpose")
}
