//! Encoding responses (module-abi.md §2.2): one compact JSON object that
//! starts with the envelope, `id` (only for a numeric request id, as
//! written) then `ok`, then the op's fields in the spec's order, written
//! with [`Json`] (Go's escaping).

use std::rc::Rc;
use std::sync::OnceLock;

use super::diagnostic_record::DiagnosticRecord;
use super::error::EngineError;
use super::eval_record::EvalRecord;
use super::writer::Json;
use crate::explain::Explanation;
use crate::testrun::TestResult;
use crate::version::BuildInfo;

/// What a successful op answers, after the envelope: typed, each record
/// written by its own writer when the response is encoded.
#[derive(Debug)]
pub(crate) enum Success {
    /// The build of the engine (§4.1).
    Version,
    /// A source in the canonical style (§4.6): `source`, then `formatted`,
    /// whether the request's source was that already, byte for byte.
    Format { source: String, formatted: bool },
    /// The problems a check found (§4.2), errors and warnings alike.
    Check { diagnostics: Vec<DiagnosticRecord> },
    /// A compiled policy (§4.3): its name, the problems of documents it
    /// doesn't use, and its handle.
    Compiled {
        policy: String,
        diagnostics: Vec<DiagnosticRecord>,
        handle: u32,
    },
    /// An eval record (§4.4).
    Eval(EvalRecord),
    /// Explanations (§4.5), in their order.
    Explained(Vec<Rc<Explanation>>),
    /// The test results (§4.7), one per test file in path order.
    Test(Vec<TestResult>),
    /// A released handle (§4.8): the envelope alone.
    Released,
}

/// The response to a request, given what its op did.
pub(crate) fn encode(id: Option<&str>, result: &Result<Success, EngineError>) -> Vec<u8> {
    match result {
        Ok(Success::Version) => version(id),
        Ok(Success::Format { source, formatted }) => format(id, source, *formatted),
        Ok(Success::Check { diagnostics }) => check(id, diagnostics),
        Ok(Success::Compiled {
            policy,
            diagnostics,
            handle,
        }) => compiled(id, policy, diagnostics, *handle),
        Ok(Success::Eval(record)) => {
            let mut json = Json::envelope(id, true, 512);
            record.write(&mut json);
            json.finish()
        }
        Ok(Success::Explained(explanations)) => {
            let mut json = Json::envelope(id, true, 512);
            super::explain_record::write(&mut json, explanations.iter().map(AsRef::as_ref));
            json.finish()
        }
        Ok(Success::Test(results)) => {
            let mut json = Json::envelope(id, true, 512);
            super::test_record::write(&mut json, results);
            json.finish()
        }
        Ok(Success::Released) => Json::envelope(id, true, 32).finish(),
        Err(error) => failure(id, error),
    }
}

/// `{"id":…,"ok":false,"error":{"message":…,"help":…},"diagnostics":[…]}`,
/// without `help` when it is empty and without `diagnostics` when there are
/// none.
pub(crate) fn failure(id: Option<&str>, error: &EngineError) -> Vec<u8> {
    let mut json = Json::envelope(id, false, 64 + error.message.len() + error.help.len());
    json.member("error");
    json.raw("{\"message\":");
    json.string(&error.message);
    if !error.help.is_empty() {
        json.raw(",\"help\":");
        json.string(&error.help);
    }
    json.raw("}");
    if !error.diagnostics.is_empty() {
        json.member("diagnostics");
        for (i, diagnostic) in error.diagnostics.iter().enumerate() {
            json.raw(if i == 0 { "[" } else { "," });
            diagnostic.write(&mut json);
        }
        json.raw("]");
    }
    json.finish()
}

/// `{"id":…,"ok":true,"source":…,"formatted":…}`.
fn format(id: Option<&str>, source: &str, formatted: bool) -> Vec<u8> {
    let mut json = Json::envelope(id, true, 48 + id.map_or(0, str::len) + source.len() * 9 / 8);
    json.member("source");
    json.string(source);
    json.member("formatted");
    json.raw(if formatted { "true" } else { "false" });
    json.finish()
}

/// `{"id":…,"ok":true,"diagnostics":[…]}`, `[]` when clean.
fn check(id: Option<&str>, diagnostics: &[DiagnosticRecord]) -> Vec<u8> {
    let mut json = Json::envelope(id, true, 32 + diagnostics.len() * 160);
    diagnostic_list(&mut json, diagnostics);
    json.finish()
}

/// `,"diagnostics":[…]`, `[]` when there are none.
fn diagnostic_list(json: &mut Json, diagnostics: &[DiagnosticRecord]) {
    json.member("diagnostics");
    json.raw("[");
    for (i, diagnostic) in diagnostics.iter().enumerate() {
        if i > 0 {
            json.raw(",");
        }
        diagnostic.write(json);
    }
    json.raw("]");
}

/// `{"id":…,"ok":true,"policy":…,"diagnostics":[…],"handle":…}`.
fn compiled(
    id: Option<&str>,
    policy: &str,
    diagnostics: &[DiagnosticRecord],
    handle: u32,
) -> Vec<u8> {
    let mut json = Json::envelope(id, true, 64 + policy.len() + diagnostics.len() * 160);
    json.member("policy");
    json.string(policy);
    diagnostic_list(&mut json, diagnostics);
    json.member("handle");
    json.raw(&handle.to_string());
    json.finish()
}

/// The version response. Its body never changes, so it is encoded once.
fn version(id: Option<&str>) -> Vec<u8> {
    static BODY: OnceLock<String> = OnceLock::new();
    let body = BODY.get_or_init(|| version_body(&BuildInfo::current()));
    let mut json = Json::envelope(id, true, 16 + id.map_or(0, str::len) + body.len());
    json.raw(body);
    json.finish()
}

/// The version record's members (tooling.md §8): all six, always.
fn version_body(info: &BuildInfo) -> String {
    let mut json = Json::body();
    for (name, value) in [
        ("version", &info.version),
        ("commit", &info.commit),
        ("commitTime", &info.commit_time),
    ] {
        json.member(name);
        json.string(value);
    }
    json.member("dirty");
    json.raw(if info.dirty { "true" } else { "false" });
    json.member("goVersion");
    json.string(&info.compiler);
    json.member("platform");
    json.string(&info.platform);
    json.into_members()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Diagnostic, Severity};
    use crate::source::LineIndex;

    fn text(bytes: Vec<u8>) -> String {
        String::from_utf8(bytes).unwrap()
    }

    /// A diagnostic record of just a message.
    fn note(message: &str) -> DiagnosticRecord {
        let diagnostic = Diagnostic::new(Severity::Error, None, message);
        DiagnosticRecord::new(diagnostic, &LineIndex::new(""))
    }

    #[test]
    fn a_failure_has_the_envelope_then_error_then_diagnostics() {
        let mut error = EngineError::unknown_op("evaluate");
        assert_eq!(
            text(failure(Some("7"), &error)),
            r#"{"id":7,"ok":false,"error":{"message":"unknown op \"evaluate\"","help":"the ops are version, check, compile, eval, explain, format, test and release"}}"#
        );
        error.help = "".into();
        error.diagnostics = vec![note("a"), note("b")];
        assert_eq!(
            text(failure(None, &error)),
            r#"{"ok":false,"error":{"message":"unknown op \"evaluate\""},"diagnostics":[{"severity":"error","message":"a"},{"severity":"error","message":"b"}]}"#
        );
    }

    #[test]
    fn a_format_body_is_the_source_then_formatted() {
        assert_eq!(
            text(format(Some("3"), "policy a.b: K@1\n", false)),
            r#"{"id":3,"ok":true,"source":"policy a.b: K@1\n","formatted":false}"#
        );
        assert_eq!(
            text(format(None, "", true)),
            r#"{"ok":true,"source":"","formatted":true}"#
        );
    }

    #[test]
    fn the_version_body_has_six_members_in_order() {
        let info = BuildInfo {
            version: "v0.1.0+dirty".into(),
            commit: "3fd96".into(),
            commit_time: "2026-09-30T16:21:29Z".into(),
            dirty: true,
            compiler: "rustc 1.96.0".into(),
            platform: "wasip1/wasm".into(),
        };
        assert_eq!(
            version_body(&info),
            r#","version":"v0.1.0+dirty","commit":"3fd96","commitTime":"2026-09-30T16:21:29Z","dirty":true,"goVersion":"rustc 1.96.0","platform":"wasip1/wasm""#
        );
    }
}
