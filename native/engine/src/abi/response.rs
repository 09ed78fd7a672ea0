//! Encoding responses (module-abi.md §2.2): one compact JSON object that
//! starts with the envelope, `id` (only for a numeric request id, as
//! written) then `ok`, then the op's fields in the spec's order.
//!
//! Strings are escaped as Go's `json.Marshal` escapes them (by
//! [`crate::wire`], which values share), so responses are
//! byte-identical to the reference's: `<`, `>` and `&` as `\u003c`, `\u003e`
//! and `\u0026`; U+2028 and U+2029 as `\u2028` and `\u2029`; control
//! characters as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`.

use std::fmt;
use std::sync::OnceLock;

use super::error::EngineError;
use crate::diag::Diagnostic;
use crate::wire::write_str;
use crate::source::{LineIndex, Position};
use crate::version::BuildInfo;

/// A record that writes itself as one JSON object, such as a diagnostic.
pub(crate) trait Record: fmt::Debug {
    fn write(&self, out: &mut Json);
}

/// What a successful op answers, after the envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// An eval record (§4.4), already written: its members, each after a
    /// comma.
    Eval(String),
    /// Explanations (§4.5), already written: the `explanations` member,
    /// after a comma.
    Explained(String),
    /// The test results (§4.7), already written: `,"results":[…]`.
    Test(String),
    /// A released handle (§4.8): the envelope alone.
    Released,
}

/// A diagnostic as the record of tooling §2, its position resolved to a
/// line and a column (code points) of the source it points into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DiagnosticRecord {
    diagnostic: Diagnostic,
    position: Option<Position>,
}

impl DiagnosticRecord {
    /// The record of `diagnostic`, whose span points into `source`.
    pub(crate) fn new(diagnostic: Diagnostic, source: &LineIndex<'_>) -> Self {
        let position = diagnostic.span.map(|span| source.position(span.start));
        Self {
            diagnostic,
            position,
        }
    }
}

impl Record for DiagnosticRecord {
    /// `severity`, `lint`, `file`, `document`, `message`, `help`, `line`,
    /// `column`, in that order; `lint`, `file`, `document` and `help` left
    /// out when absent or empty, `line` and `column` without a position.
    fn write(&self, out: &mut Json) {
        let d = &self.diagnostic;
        out.raw("{\"severity\":");
        out.string(d.severity.as_str());
        let optional = [
            ("lint", d.lint),
            ("file", d.file.as_deref()),
            ("document", d.document.as_deref()),
        ];
        for (name, value) in optional {
            if let Some(value) = value.filter(|v| !v.is_empty()) {
                out.member(name);
                out.string(value);
            }
        }
        out.member("message");
        out.string(&d.message);
        if let Some(help) = d.help.as_deref().filter(|h| !h.is_empty()) {
            out.member("help");
            out.string(help);
        }
        if let Some(position) = self.position {
            out.member("line");
            out.raw(&position.line.to_string());
            out.member("column");
            out.raw(&position.column.to_string());
        }
        out.raw("}");
    }
}

/// A response being written.
pub(crate) struct Json {
    text: String,
}

impl Json {
    /// Starts a response with its envelope: `{"id":…,"ok":…`.
    fn envelope(id: Option<&str>, ok: bool, capacity: usize) -> Self {
        let mut json = Self {
            text: String::with_capacity(capacity),
        };
        if let Some(id) = id {
            json.raw("{\"id\":");
            json.raw(id);
            json.raw(",");
        } else {
            json.raw("{");
        }
        json.raw(if ok { "\"ok\":true" } else { "\"ok\":false" });
        json
    }

    /// A record's members written on their own, to follow an envelope.
    pub(crate) fn body() -> Self {
        Self {
            text: String::with_capacity(512),
        }
    }

    /// The members written, as text.
    pub(crate) fn into_members(self) -> String {
        self.text
    }

    /// The text written so far, for writers that append to a `String`
    /// (values, [`crate::wire`]).
    pub(crate) fn text_mut(&mut self) -> &mut String {
        &mut self.text
    }

    /// Appends JSON text as it is.
    pub(crate) fn raw(&mut self, text: &str) {
        self.text.push_str(text);
    }

    /// Appends `,"name":`, the start of a member after the first. The
    /// punctuation goes in byte by byte: a copy per piece costs more.
    pub(crate) fn member(&mut self, name: &str) {
        self.text.reserve(name.len() + 4);
        self.text.push(',');
        self.text.push('"');
        self.text.push_str(name);
        self.text.push('"');
        self.text.push(':');
    }

    /// Appends a JSON string of a name: a policy, decision, reason or field
    /// name, which the language spells with ASCII letters, digits, `_` and
    /// `.` (lexer), so it needs no escaping and no search for escapes.
    /// Anything else is escaped as [`Json::string`] escapes it.
    pub(crate) fn name(&mut self, text: &str) {
        let plain = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'.';
        if !text.bytes().all(plain) {
            return self.string(text);
        }
        self.text.reserve(text.len() + 2);
        self.text.push('"');
        self.text.push_str(text);
        self.text.push('"');
    }

    /// Appends a JSON string, escaped as Go escapes it.
    pub(crate) fn string(&mut self, text: &str) {
        write_str(text, &mut self.text);
    }

    fn finish(mut self) -> Vec<u8> {
        self.text.push('}');
        self.text.into_bytes()
    }
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
        Ok(Success::Eval(members) | Success::Explained(members) | Success::Test(members)) => {
            let mut json = Json::envelope(id, true, 32 + members.len());
            json.raw(members);
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
    let mut json = Json {
        text: String::with_capacity(256),
    };
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
    json.text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bytes: Vec<u8>) -> String {
        String::from_utf8(bytes).unwrap()
    }

    #[derive(Debug)]
    struct Note(&'static str);

    impl Record for Note {
        fn write(&self, out: &mut Json) {
            out.raw("{\"message\":");
            out.string(self.0);
            out.raw("}");
        }
    }

    #[test]
    fn a_failure_has_the_envelope_then_error_then_diagnostics() {
        let mut error = EngineError::unknown_op("evaluate");
        assert_eq!(
            text(failure(Some("7"), &error)),
            r#"{"id":7,"ok":false,"error":{"message":"unknown op \"evaluate\"","help":"the ops are version, check, compile, eval, explain, format, test and release"}}"#
        );
        error.help = "".into();
        error.diagnostics = vec![Box::new(Note("a")), Box::new(Note("b"))];
        assert_eq!(
            text(failure(None, &error)),
            r#"{"ok":false,"error":{"message":"unknown op \"evaluate\""},"diagnostics":[{"message":"a"},{"message":"b"}]}"#
        );
    }

    #[test]
    fn a_diagnostic_record_has_its_fields_in_order_and_leaves_out_the_empty_ones() {
        use crate::source::Span;
        let src = "let é = 1\nlet x = ?\n";
        let index = LineIndex::new(src);
        let write = |d: Diagnostic| {
            let mut json = Json {
                text: String::new(),
            };
            DiagnosticRecord::new(d, &index).write(&mut json);
            json.text
        };
        let full = Diagnostic::error(Span::new(19, 20), "unexpected `?`")
            .with_help("write <an> expression")
            .with_lint("unused-let")
            .with_file("a.sigil")
            .with_document("a.b");
        assert_eq!(
            write(full),
            r#"{"severity":"error","lint":"unused-let","file":"a.sigil","document":"a.b","message":"unexpected `?`","help":"write \u003can\u003e expression","line":2,"column":9}"#
        );
        // Columns count code points: `=` is the 7th character, byte 7.
        let bare = Diagnostic::error(Span::new(7, 8), "m").with_file("");
        assert_eq!(
            write(bare),
            r#"{"severity":"error","message":"m","line":1,"column":7}"#
        );
        let nowhere = Diagnostic::new(crate::diag::Severity::Warning, None, "m");
        assert_eq!(write(nowhere), r#"{"severity":"warning","message":"m"}"#);
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

    #[test]
    fn names_are_written_as_they_are_and_anything_else_escaped() {
        let mut json = Json {
            text: String::new(),
        };
        json.name("refund.desk_2");
        json.name("a<b\"");
        json.name("é");
        assert_eq!(json.text, r#""refund.desk_2""a\u003cb\"""é""#);
    }

    #[test]
    fn strings_are_escaped_as_go_marshals_them() {
        let mut json = Json {
            text: String::new(),
        };
        json.string("a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}<>&\u{2028}\u{2029}\u{7f}é😀");
        assert_eq!(
            json.text,
            concat!(
                r#""a\"b\\c\n\r\t\b\f\u0001\u001f\u003c\u003e\u0026\u2028\u2029"#,
                "\u{7f}é😀\""
            )
        );
    }
}
