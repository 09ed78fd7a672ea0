//! A decoded request as its op takes it: the envelope (`id`, `op`) and
//! one typed request per op, holding only the fields that op reads
//! (module-abi.md §2.1, §4).
//!
//! Decoding stays one pass over the union of every op's fields
//! ([`Fields`]), because that is what fixes the texts and the order of
//! decoding failures: a key of another op is decoded (a wrong type fails)
//! and then ignored, as the reference's one Go struct does. Here the union
//! is split once; no op sees another op's fields.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::request::{Fields, File, RawJson, Requirement};

/// A request decoded: the id to echo, and what its op is asked.
pub(crate) struct Envelope<'a> {
    /// The id to echo: a JSON number, as written.
    pub(crate) id: Option<&'a str>,
    pub(crate) op: OpRequest<'a>,
}

/// One op's request.
pub(crate) enum OpRequest<'a> {
    /// §4.1; takes no fields.
    Version,
    Check(CheckRequest<'a>),
    Compile(CompileRequest<'a>),
    Eval(EvalRequest<'a>),
    Explain(ExplainRequest<'a>),
    Format(FormatRequest<'a>),
    Test(TestRequest<'a>),
    /// §4.8: the handle to drop (0 when absent).
    Release(u32),
    /// The op that panics on purpose (see the crate doc of `abi`).
    #[cfg(any(test, feature = "panic-probe"))]
    PanicProbe,
    /// An op the engine doesn't know (`""` when missing).
    Unknown(Cow<'a, str>),
}

/// The op that panics on purpose, in test builds and builds with the
/// `panic-probe` feature: it proves that a panic becomes an `ok:false`
/// answer and leaves the instance working (see the crate doc of `abi`).
#[cfg(any(test, feature = "panic-probe"))]
pub(crate) const PANIC_PROBE: &str = "panic-probe";

/// The files of a request (§3): its own and the host's trusted ones.
#[derive(Debug, Default)]
pub(crate) struct Files<'a> {
    pub(crate) files: Vec<File<'a>>,
    pub(crate) trusted: Vec<File<'a>>,
}

/// §4.2.
pub(crate) struct CheckRequest<'a> {
    pub(crate) files: Files<'a>,
    /// Name patterns that narrow the scope.
    pub(crate) policies: Vec<Cow<'a, str>>,
    pub(crate) require: Vec<Requirement<'a>>,
    pub(crate) lints: BTreeMap<Cow<'a, str>, Cow<'a, str>>,
}

/// §4.3.
pub(crate) struct CompileRequest<'a> {
    pub(crate) files: Files<'a>,
    /// The pattern that picks the root (empty: the only policy).
    pub(crate) policy: Cow<'a, str>,
    pub(crate) require: Vec<Requirement<'a>>,
    /// `None` when absent or `null`.
    pub(crate) stubs: Option<RawJson<'a>>,
    pub(crate) functions: Vec<Cow<'a, str>>,
}

/// §4.4.
pub(crate) struct EvalRequest<'a> {
    /// 0 when absent: no handle.
    pub(crate) handle: u32,
    /// `None` when absent or `null`.
    pub(crate) input: Option<RawJson<'a>>,
    /// No deadline when ≤ 0.
    pub(crate) timeout_ms: i64,
    /// Whether the record has its trace: yes unless the request said
    /// `"trace":false`, our extension (engine README, "ABI extensions").
    pub(crate) trace: bool,
}

/// §4.5: by `handle` (non-zero), or by `files` and a `policy` pattern.
pub(crate) struct ExplainRequest<'a> {
    pub(crate) handle: u32,
    pub(crate) files: Files<'a>,
    pub(crate) policy: Cow<'a, str>,
}

/// §4.6.
pub(crate) struct FormatRequest<'a> {
    /// `None` when absent or `null`, unlike an empty source.
    pub(crate) source: Option<Cow<'a, str>>,
    pub(crate) path: Cow<'a, str>,
}

/// §4.7.
pub(crate) struct TestRequest<'a> {
    pub(crate) files: Files<'a>,
    pub(crate) test_files: Vec<File<'a>>,
    pub(crate) data_files: Vec<File<'a>>,
    /// A Go regular expression selecting cases (empty: all).
    pub(crate) run: Cow<'a, str>,
}

impl<'a> From<Fields<'a>> for Envelope<'a> {
    /// Splits the decoded union: the envelope, and the op's own fields.
    fn from(fields: Fields<'a>) -> Self {
        let files = || Files {
            files: fields.files,
            trusted: fields.trusted_files,
        };
        let op = match fields.op.as_ref() {
            "version" => OpRequest::Version,
            "check" => OpRequest::Check(CheckRequest {
                files: files(),
                policies: fields.policies,
                require: fields.require,
                lints: fields.lints,
            }),
            "compile" => OpRequest::Compile(CompileRequest {
                files: files(),
                policy: fields.policy,
                require: fields.require,
                stubs: fields.stubs,
                functions: fields.functions,
            }),
            "eval" => OpRequest::Eval(EvalRequest {
                handle: fields.handle,
                input: fields.input,
                timeout_ms: fields.timeout_ms,
                trace: fields.trace != Some(false),
            }),
            "explain" => OpRequest::Explain(ExplainRequest {
                handle: fields.handle,
                files: files(),
                policy: fields.policy,
            }),
            "format" => OpRequest::Format(FormatRequest {
                source: fields.source,
                path: fields.path,
            }),
            "test" => OpRequest::Test(TestRequest {
                files: files(),
                test_files: fields.test_files,
                data_files: fields.data_files,
                run: fields.run,
            }),
            "release" => OpRequest::Release(fields.handle),
            #[cfg(any(test, feature = "panic-probe"))]
            PANIC_PROBE => OpRequest::PanicProbe,
            _ => OpRequest::Unknown(fields.op),
        };
        Envelope { id: fields.id, op }
    }
}
