//! [`Engine`] (one instance and its ops) and [`Policy`] (a compiled policy of an instance).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result, StoppedError};
use crate::eval_reader;
use crate::host::HostFunction;
use crate::instance::{decode, Instance};
use crate::limits::Limits;
use crate::module::Module;
use crate::options::{
    request, CheckOptions, CompileOptions, EvalOptions, ExplainOptions, FormatOptions, SourceFile,
    TestOptions,
};
use crate::records::{Diagnostic, EvalResult, Explanation, ResultShape, TestResult, VersionInfo};

/// One instance of the module, with one method per op. Send and Sync: concurrent calls on one
/// engine wait for each other.
#[derive(Clone)]
pub struct Engine {
    instance: Arc<Instance>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("stopped", &self.instance.stopped())
            .finish()
    }
}

fn encode(map: Map<String, Value>) -> Result<Vec<u8>> {
    serde_json::to_vec(&Value::Object(map)).map_err(|e| {
        Error::engine(
            format!("the request can't be encoded as JSON: {e}"),
            "pass plain JSON values",
        )
    })
}

#[derive(Deserialize)]
struct Checked {
    diagnostics: Vec<Diagnostic>,
}

#[derive(Deserialize)]
struct Formatted {
    source: String,
}

#[derive(Deserialize)]
struct Tested {
    results: Vec<TestResult>,
}

#[derive(Deserialize)]
struct Explained {
    #[serde(default)]
    explanations: Option<Vec<Explanation>>,
}

#[derive(Deserialize)]
struct Compiled {
    policy: String,
    #[serde(default)]
    diagnostics: Vec<Diagnostic>,
    handle: u32,
}

impl Engine {
    /// Instantiates the module and starts its runtime, with default [`Limits`].
    pub fn new(module: &Module) -> Result<Engine> {
        Self::with_limits(module, Limits::default())
    }

    /// [`Engine::new`] with limits.
    pub fn with_limits(module: &Module, limits: Limits) -> Result<Engine> {
        Ok(Engine {
            instance: Arc::new(Instance::start(module, limits)?),
        })
    }

    /// [`Module::bundled`], then [`Engine::new`].
    #[cfg(feature = "bundled")]
    pub fn bundled() -> Result<Engine> {
        Self::new(&Module::bundled()?)
    }

    /// The `version` op.
    pub fn version(&self) -> Result<VersionInfo> {
        decode(&self.instance.op(br#"{"op":"version"}"#)?)
    }

    /// The `check` op: the diagnostics of the files.
    pub fn check(&self, files: &[SourceFile], options: &CheckOptions) -> Result<Vec<Diagnostic>> {
        let checked: Checked =
            decode(&self.instance.op(&encode(request::check(files, options))?)?)?;
        Ok(checked.diagnostics)
    }

    /// The `compile` op; an [`Error::Engine`] carries the diagnostics.
    pub fn compile(&self, files: &[SourceFile], options: CompileOptions) -> Result<Policy> {
        let compiled: Compiled = decode(
            &self
                .instance
                .op(&encode(request::compile(files, &options)?)?)?,
        )?;
        Ok(Policy {
            instance: Arc::clone(&self.instance),
            name: compiled.policy,
            diagnostics: compiled.diagnostics,
            handle: compiled.handle,
            functions: Arc::new(options.functions),
            released: AtomicBool::new(false),
            shape: None,
        })
    }

    /// The `explain` op on files.
    pub fn explain(
        &self,
        files: &[SourceFile],
        options: &ExplainOptions,
    ) -> Result<Vec<Explanation>> {
        let explained: Explained = decode(
            &self
                .instance
                .op(&encode(request::explain(files, options))?)?,
        )?;
        Ok(explained.explanations.unwrap_or_default())
    }

    /// The `format` op; an [`Error::Engine`] carries the syntax errors.
    pub fn format(&self, source: &str, options: &FormatOptions) -> Result<String> {
        let formatted: Formatted = decode(
            &self
                .instance
                .op(&encode(request::format(source, options))?)?,
        )?;
        Ok(formatted.source)
    }

    /// The `test` op; `test_files` are its `test_files`.
    pub fn test(
        &self,
        files: &[SourceFile],
        test_files: &[SourceFile],
        options: &TestOptions,
    ) -> Result<Vec<TestResult>> {
        let tested: Tested = decode(
            &self
                .instance
                .op(&encode(request::test(files, test_files, options))?)?,
        )?;
        Ok(tested.results)
    }

    /// Why the instance stopped; None while it works.
    pub fn stopped(&self) -> Option<StoppedError> {
        self.instance.stopped()
    }

    /// Bytes of linear memory the instance holds.
    pub fn memory_size(&self) -> Result<usize> {
        self.instance.memory_size()
    }

    /// Sends one raw request and returns the raw response, for tests of the ABI.
    #[cfg(test)]
    pub(crate) fn call_raw(&self, request: &[u8]) -> Result<Vec<u8>> {
        self.instance.op(request)
    }
}

/// A compiled policy. It keeps its instance alive, so it may outlive its [`Engine`]; dropping it
/// releases its handle.
pub struct Policy {
    instance: Arc<Instance>,
    name: String,
    diagnostics: Vec<Diagnostic>,
    handle: u32,
    functions: Arc<HashMap<String, HostFunction>>,
    released: AtomicBool,
    shape: Option<ResultShape>,
}

impl std::fmt::Debug for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Policy")
            .field("name", &self.name)
            .field("handle", &self.handle)
            .finish()
    }
}

impl Policy {
    /// The compiled policy's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Problems in documents the policy does not use.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The module's handle of the policy.
    pub fn handle(&self) -> u32 {
        self.handle
    }

    /// The `eval` op with no timeout.
    pub fn eval<I: Serialize + ?Sized>(&self, input: &I) -> Result<EvalResult> {
        self.eval_with(input, &EvalOptions::default())
    }

    /// The `eval` op with a timeout, a grace period and fuel.
    pub fn eval_with<I: Serialize + ?Sized>(
        &self,
        input: &I,
        options: &EvalOptions,
    ) -> Result<EvalResult> {
        options.validate()?;
        let request = eval_request(self.handle, input, options.timeout_ms())?;
        let deadline = options.hard_deadline(self.instance.limits().grace);
        let result = self.instance.evaluate(
            &request,
            deadline,
            options.fuel,
            &self.functions,
            read_eval_record,
        )??;
        Ok(EvalResult {
            shape: self.shape,
            ..result
        })
    }

    /// Stamps every later result of this policy with `shape` ([`EvalResult::shape`]), for the
    /// decision helpers ([`crate::Decision::matches`], [`crate::Outcome::is`]). [`crate::Kind::compile`]
    /// does it; do it for a policy of a Rust-defined kind compiled with [`Engine::compile`], with
    /// the kind's [`crate::Kind::result_shape`].
    pub fn stamp_results(mut self, shape: ResultShape) -> Policy {
        self.shape = Some(shape);
        self
    }

    /// The `explain` op on the handle.
    pub fn explain(&self) -> Result<Explanation> {
        let response = self.instance.op(&request_bytes("explain", self.handle))?;
        let explained: Explained = decode(&response)?;
        explained
            .explanations
            .unwrap_or_default()
            .into_iter()
            .next()
            .ok_or_else(|| {
                Error::engine(
                    format!(
                        "the module returned no explanation for policy {}",
                        self.name
                    ),
                    "this is a bug in the engine; please report it",
                )
            })
    }

    /// The `release` op; dropping a policy releases it too.
    pub fn release(self) -> Result<()> {
        self.released.store(true, Ordering::SeqCst);
        let response = self.instance.op(&request_bytes("release", self.handle))?;
        decode::<serde::de::IgnoredAny>(&response).map(|_| ())
    }
}

impl Drop for Policy {
    fn drop(&mut self) {
        if !self.released.swap(true, Ordering::SeqCst) {
            self.instance.release_quietly(self.handle);
        }
    }
}

fn request_bytes(op: &str, handle: u32) -> Vec<u8> {
    serde_json::to_vec(&Value::Object(request::with_handle(op, handle))).unwrap_or_default()
}

/// The record of the module's answer to an eval: read straight from its bytes, or decoded by serde,
/// which says what is wrong, when the reader leaves it to serde.
fn read_eval_record(answer: &[u8]) -> Result<EvalResult> {
    eval_reader::read(answer).map_or_else(|| decode(answer), Ok)
}

/// `{"op":"eval","handle":h,"input":...,"timeout_ms":t}`, written straight from the input.
fn eval_request<I: Serialize + ?Sized>(
    handle: u32,
    input: &I,
    timeout_ms: Option<u64>,
) -> Result<Vec<u8>> {
    let unencodable = |e: &dyn std::fmt::Display| {
        Error::engine(
            format!("the input can't be encoded as JSON: {e}"),
            "pass a value serde can serialize as a JSON object, with one key per input the kind declares \
             and no NaN or infinite float (JSON has no number for them)",
        )
    };
    crate::finite::check(input).map_err(|e| unencodable(&e))?;
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(br#"{"op":"eval","handle":"#);
    serde_json::to_writer(&mut out, &handle).map_err(|e| unencodable(&e))?;
    out.extend_from_slice(br#","input":"#);
    serde_json::to_writer(&mut out, input).map_err(|e| unencodable(&e))?;
    if let Some(ms) = timeout_ms {
        out.extend_from_slice(br#","timeout_ms":"#);
        serde_json::to_writer(&mut out, &ms).map_err(|e| unencodable(&e))?;
    }
    out.push(b'}');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_eval_request_carries_the_input_and_the_timeout() {
        let input = serde_json::json!({"amount": 5});
        assert_eq!(
            String::from_utf8(eval_request(7, &input, Some(12)).unwrap()).unwrap(),
            r#"{"op":"eval","handle":7,"input":{"amount":5},"timeout_ms":12}"#
        );
        assert_eq!(
            String::from_utf8(eval_request(1, &input, None).unwrap()).unwrap(),
            r#"{"op":"eval","handle":1,"input":{"amount":5}}"#
        );
    }

    fn wat_module(name: &str) -> Module {
        let source = format!(
            "{}/../engine-jni/src/test/wat/{name}.wat",
            env!("CARGO_MANIFEST_DIR")
        );
        let out = std::env::temp_dir().join(format!(
            "svc-engine-rs-lib-{}-{name}.wasm",
            std::process::id()
        ));
        let status = std::process::Command::new("wat2wasm")
            .arg(&source)
            .arg("-o")
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
        let module = Module::from_file(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        module
    }

    #[test]
    fn the_ticker_runs_only_once_a_call_with_a_deadline_comes() {
        let module = wat_module("engine_answers_ok");
        let engine = Engine::with_limits(
            &module,
            Limits {
                op_deadline: None,
                ..Limits::default()
            },
        )
        .unwrap();
        assert_eq!(
            engine.call_raw(br#"{"op":"version"}"#).unwrap(),
            br#"{"ok":true}"#
        );
        assert!(
            !module.inner.ticker.is_started(),
            "an idle process has no timer running"
        );
        let bounded = Engine::new(&module).unwrap();
        assert_eq!(
            bounded.call_raw(br#"{"op":"version"}"#).unwrap(),
            br#"{"ok":true}"#
        );
        assert!(module.inner.ticker.is_started());
    }

    #[test]
    fn an_input_with_a_nan_is_refused_before_the_module_sees_it() {
        let error = eval_request(
            1,
            &serde_json::json!({"a": 1}).as_object().map(|_| f64::NAN),
            None,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "the input can't be encoded as JSON: NaN isn't a JSON number"
        );
        assert!(error
            .help()
            .ends_with("no NaN or infinite float (JSON has no number for them)"));
    }

    #[test]
    fn an_input_that_cant_be_json_is_an_engine_error() {
        let input = HashMap::from([((1, 2), 3)]);
        let error = eval_request(1, &input, None).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the input can't be encoded as JSON: key must be a string"
        );
        assert!(!error.is_stopped());
    }
}
