//! The `format` op (module-abi §4.6).

use crate::abi::diagnostic_record::DiagnosticRecord;
use crate::abi::error::EngineError;
use crate::abi::op_request::FormatRequest;
use crate::abi::response::Success;
use crate::format::{FormatError, format_source};
use crate::source::LineIndex;

/// Where a format request's diagnostics say they are without a `path`.
const STDIN: &str = "<stdin>";

/// §4.6: `source` in the canonical style (tooling §4), and whether it was
/// already. A source that doesn't parse fails with its syntax errors, in the
/// file `path` (default `<stdin>`, used as given).
pub(super) fn format(request: &FormatRequest<'_>) -> Result<Success, EngineError> {
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
                .map(|d| DiagnosticRecord::new(d, &index))
                .collect();
            Err(EngineError::syntax_errors(path, records))
        }
        Err(unsound) => Err(EngineError::format_unsound(path, &unsound)),
    }
}
