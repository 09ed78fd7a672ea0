//! The inputs of the ops: files, requirements, stubs, lints, and each op's options.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::host::HostFunction;

/// A document and the path diagnostics name it by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SourceFile {
    /// The path, such as `access/main.sigil`.
    pub path: String,
    /// The text.
    pub source: String,
}

impl SourceFile {
    /// A file of this path and text.
    pub fn new(path: impl Into<String>, source: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            source: source.into(),
        }
    }
}

/// A `check` requirement: a policy that must be defined, with the files it may trust.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Requirement {
    /// The policy's name.
    pub policy: String,
    /// Paths of trusted files it may be defined in.
    pub trusted: Vec<String>,
    /// Patterns of the roots it may be required from.
    pub roots: Option<Vec<String>>,
}

/// A `compile` requirement: only the policy's name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileRequirement {
    /// The policy's name.
    pub policy: String,
}

/// The level of a lint in `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LintLevel {
    /// Not reported.
    Off,
    /// A warning.
    Warn,
    /// An error.
    Error,
}

/// One stubbed answer of a host function for particular arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct StubCall {
    /// The arguments this answer is for.
    pub args: Vec<Value>,
    /// The answer: a value, or the message the call fails with.
    pub result: std::result::Result<Value, String>,
}

/// What a host function answers in place of its implementation, for `compile` without one.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stub {
    /// The value every call returns.
    pub returns: Option<Value>,
    /// The message every call fails with.
    pub error: Option<String>,
    /// Answers for particular arguments.
    pub calls: Vec<StubCall>,
}

impl Stub {
    /// A stub every call of which returns `value`.
    pub fn returning(value: Value) -> Self {
        Self {
            returns: Some(value),
            ..Self::default()
        }
    }

    /// A stub every call of which fails with `message`.
    pub fn failing(message: impl Into<String>) -> Self {
        Self {
            error: Some(message.into()),
            ..Self::default()
        }
    }

    fn to_json(&self, function: &str) -> Result<Value> {
        if self.returns.is_some() && self.error.is_some() {
            return Err(Error::engine(
                format!("stubs: `{function}`: a stub either returns a value or fails"),
                "give returns or error, not both",
            ));
        }
        if self.returns.is_none() && self.error.is_none() && self.calls.is_empty() {
            return Err(Error::engine(
                format!("stubs: `{function}`: the stub gives no result"),
                "give returns for every call, error for a call that fails, or calls for particular args",
            ));
        }
        let mut out = Map::new();
        if let Some(value) = &self.returns {
            out.insert("returns".into(), value.clone());
        }
        if let Some(message) = &self.error {
            out.insert(
                "error".into(),
                Value::String(stub_message(function, message)?),
            );
        }
        if !self.calls.is_empty() {
            let mut calls = Vec::with_capacity(self.calls.len());
            for call in &self.calls {
                let mut entry = Map::new();
                entry.insert("args".into(), Value::Array(call.args.clone()));
                match &call.result {
                    Ok(value) => entry.insert("returns".into(), value.clone()),
                    Err(message) => entry.insert(
                        "error".into(),
                        Value::String(stub_message(function, message)?),
                    ),
                };
                calls.push(Value::Object(entry));
            }
            out.insert("calls".into(), Value::Array(calls));
        }
        Ok(Value::Object(out))
    }
}

fn stub_message(function: &str, message: &str) -> Result<String> {
    if message.is_empty() {
        return Err(Error::engine(
            format!("stubs: `{function}`: a stub's error needs a message"),
            "give the message the call fails with, like \"timeout\"",
        ));
    }
    Ok(message.to_owned())
}

/// Options of `check`.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Names or patterns of the policies to check; all when empty.
    pub policies: Vec<String>,
    /// Policies that must be defined.
    pub require: Vec<Requirement>,
    /// Files trusted to define required policies.
    pub trusted_files: Vec<SourceFile>,
    /// Lint levels by lint name.
    pub lints: BTreeMap<String, LintLevel>,
}

/// Options of `compile`.
#[derive(Clone, Default)]
pub struct CompileOptions {
    /// The name or pattern of the policy to compile.
    pub policy: Option<String>,
    /// Policies that must be defined.
    pub require: Vec<CompileRequirement>,
    /// Files trusted to define required policies.
    pub trusted_files: Vec<SourceFile>,
    /// Stubs of host functions by name.
    pub stubs: BTreeMap<String, Stub>,
    /// Implementations of host functions by name; they run inside `eval`.
    pub functions: HashMap<String, HostFunction>,
}

impl std::fmt::Debug for CompileOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut functions: Vec<&String> = self.functions.keys().collect();
        functions.sort();
        f.debug_struct("CompileOptions")
            .field("policy", &self.policy)
            .field("require", &self.require)
            .field("trusted_files", &self.trusted_files)
            .field("stubs", &self.stubs)
            .field("functions", &functions)
            .finish()
    }
}

/// Options of `explain` on files.
#[derive(Debug, Clone, Default)]
pub struct ExplainOptions {
    /// The name or pattern of the policy to explain.
    pub policy: Option<String>,
    /// Files trusted to define required policies.
    pub trusted_files: Vec<SourceFile>,
}

/// Options of `format`.
#[derive(Debug, Clone, Default)]
pub struct FormatOptions {
    /// The path diagnostics name the source by.
    pub path: Option<String>,
}

/// Options of `test`.
#[derive(Debug, Clone, Default)]
pub struct TestOptions {
    /// Data files the test files read (`data_files`).
    pub data: Vec<SourceFile>,
    /// A pattern of the cases to run.
    pub run: Option<String>,
    /// Files trusted to define required policies.
    pub trusted_files: Vec<SourceFile>,
}

/// Options of one evaluation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvalOptions {
    /// The module's own timeout (`timeout_ms`, rounded up to whole milliseconds): past it the
    /// evaluation stops at its next check with a `canceled` failure, and the instance works.
    pub timeout: Option<Duration>,
    /// How long past `timeout` the call may run before it is killed; `Limits::grace` when None.
    pub grace: Option<Duration>,
    /// Stops the call after this much fuel; needs `ModuleConfig::fuel`.
    pub fuel: Option<u64>,
}

impl EvalOptions {
    /// Refuses a zero timeout or fuel: both would stop the call before it starts.
    pub(crate) fn validate(&self) -> Result<()> {
        if self.timeout == Some(Duration::ZERO) {
            return Err(Error::engine(
                "timeout must be positive, got 0 ms",
                "leave timeout out for no timeout",
            ));
        }
        if self.fuel == Some(0) {
            return Err(Error::engine(
                "fuel must be positive, got 0",
                "leave fuel out for no fuel limit",
            ));
        }
        Ok(())
    }

    /// `timeout_ms`: whole milliseconds, rounded up.
    pub(crate) fn timeout_ms(&self) -> Option<u64> {
        self.timeout.map(|t| {
            let ms = t.as_millis();
            let ms = if t.subsec_nanos() % 1_000_000 == 0 {
                ms
            } else {
                ms + 1
            };
            u64::try_from(ms).unwrap_or(u64::MAX)
        })
    }

    /// The hard deadline: timeout plus grace.
    pub(crate) fn hard_deadline(&self, instance_grace: Duration) -> Option<Duration> {
        self.timeout
            .map(|t| t.saturating_add(self.grace.unwrap_or(instance_grace)))
    }
}

fn files(list: &[SourceFile]) -> Value {
    Value::Array(
        list.iter()
            .map(|f| {
                let mut m = Map::new();
                m.insert("path".into(), Value::String(f.path.clone()));
                m.insert("source".into(), Value::String(f.source.clone()));
                Value::Object(m)
            })
            .collect(),
    )
}

fn strings(list: &[String]) -> Value {
    Value::Array(list.iter().cloned().map(Value::String).collect())
}

/// Starts a request of `op` with its files (always, even none: the engine then says so).
fn bundle(op: &str, list: &[SourceFile], trusted: &[SourceFile]) -> Map<String, Value> {
    let mut request = Map::new();
    request.insert("op".into(), Value::String(op.into()));
    request.insert("files".into(), files(list));
    if !trusted.is_empty() {
        request.insert("trusted_files".into(), files(trusted));
    }
    request
}

/// The JSON requests of the ops, field names as the module's ABI spells them.
pub(crate) mod request {
    use super::*;

    pub(crate) fn check(list: &[SourceFile], options: &CheckOptions) -> Map<String, Value> {
        let mut request = bundle("check", list, &options.trusted_files);
        if !options.policies.is_empty() {
            request.insert("policies".into(), strings(&options.policies));
        }
        if !options.require.is_empty() {
            let require = options.require.iter().map(|r| {
                let mut entry = Map::new();
                entry.insert("policy".into(), Value::String(r.policy.clone()));
                if !r.trusted.is_empty() {
                    entry.insert("trusted".into(), strings(&r.trusted));
                }
                if let Some(roots) = r.roots.as_ref().filter(|roots| !roots.is_empty()) {
                    entry.insert("roots".into(), strings(roots));
                }
                Value::Object(entry)
            });
            request.insert("require".into(), Value::Array(require.collect()));
        }
        if !options.lints.is_empty() {
            let lints = options.lints.iter().map(|(name, level)| {
                (
                    name.clone(),
                    serde_json::to_value(level).unwrap_or(Value::Null),
                )
            });
            request.insert("lints".into(), Value::Object(lints.collect()));
        }
        request
    }

    pub(crate) fn compile(
        list: &[SourceFile],
        options: &CompileOptions,
    ) -> Result<Map<String, Value>> {
        let mut request = bundle("compile", list, &options.trusted_files);
        if let Some(policy) = &options.policy {
            request.insert("policy".into(), Value::String(policy.clone()));
        }
        if !options.require.is_empty() {
            let require = options.require.iter().map(|r| {
                let mut entry = Map::new();
                entry.insert("policy".into(), Value::String(r.policy.clone()));
                Value::Object(entry)
            });
            request.insert("require".into(), Value::Array(require.collect()));
        }
        if !options.functions.is_empty() {
            let mut names: Vec<String> = options.functions.keys().cloned().collect();
            names.sort();
            request.insert("functions".into(), strings(&names));
        }
        if !options.stubs.is_empty() {
            let mut stubs = Map::new();
            for (function, stub) in &options.stubs {
                stubs.insert(function.clone(), stub.to_json(function)?);
            }
            request.insert("stubs".into(), Value::Object(stubs));
        }
        Ok(request)
    }

    pub(crate) fn explain(list: &[SourceFile], options: &ExplainOptions) -> Map<String, Value> {
        let mut request = bundle("explain", list, &options.trusted_files);
        if let Some(policy) = &options.policy {
            request.insert("policy".into(), Value::String(policy.clone()));
        }
        request
    }

    pub(crate) fn format(source: &str, options: &FormatOptions) -> Map<String, Value> {
        let mut request = Map::new();
        request.insert("op".into(), Value::String("format".into()));
        request.insert("source".into(), Value::String(source.into()));
        if let Some(path) = &options.path {
            request.insert("path".into(), Value::String(path.clone()));
        }
        request
    }

    pub(crate) fn test(
        list: &[SourceFile],
        test_files: &[SourceFile],
        options: &TestOptions,
    ) -> Map<String, Value> {
        let mut request = Map::new();
        request.insert("op".into(), Value::String("test".into()));
        for (field, value) in [
            ("files", list),
            ("trusted_files", &options.trusted_files),
            ("test_files", test_files),
            ("data_files", &options.data),
        ] {
            if !value.is_empty() {
                request.insert(field.into(), files(value));
            }
        }
        if let Some(run) = &options.run {
            request.insert("run".into(), Value::String(run.clone()));
        }
        request
    }

    pub(crate) fn with_handle(op: &str, handle: u32) -> Map<String, Value> {
        let mut request = Map::new();
        request.insert("op".into(), Value::String(op.into()));
        request.insert("handle".into(), Value::from(handle));
        request
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(map: Map<String, Value>) -> String {
        serde_json::to_string(&Value::Object(map)).unwrap()
    }

    #[test]
    fn a_check_request_names_every_field_as_the_abi_does() {
        let options = CheckOptions {
            policies: vec!["a.*".into()],
            require: vec![Requirement {
                policy: "base".into(),
                trusted: vec!["t.sigil".into()],
                roots: Some(vec!["a.*".into()]),
            }],
            trusted_files: vec![SourceFile::new("t.sigil", "T")],
            lints: BTreeMap::from([("z".into(), LintLevel::Off), ("a".into(), LintLevel::Error)]),
        };
        assert_eq!(
            json(request::check(&[SourceFile::new("a.sigil", "A")], &options)),
            r#"{"op":"check","files":[{"path":"a.sigil","source":"A"}],"trusted_files":[{"path":"t.sigil","source":"T"}],"policies":["a.*"],"require":[{"policy":"base","trusted":["t.sigil"],"roots":["a.*"]}],"lints":{"a":"error","z":"off"}}"#
        );
    }

    #[test]
    fn a_request_always_sends_its_files_even_none() {
        assert_eq!(
            json(request::check(&[], &CheckOptions::default())),
            r#"{"op":"check","files":[]}"#
        );
        assert_eq!(
            json(request::explain(&[], &ExplainOptions::default())),
            r#"{"op":"explain","files":[]}"#
        );
    }

    #[test]
    fn a_compile_request_sends_function_names_sorted_and_stubs() {
        let mut options = CompileOptions {
            policy: Some("p".into()),
            ..CompileOptions::default()
        };
        options
            .functions
            .insert("zeta".into(), crate::host_fn(|_| Ok(Value::Null)));
        options
            .functions
            .insert("alpha".into(), crate::host_fn(|_| Ok(Value::Null)));
        options.require.push(CompileRequirement {
            policy: "base".into(),
        });
        options.stubs.insert(
            "f".into(),
            Stub {
                calls: vec![
                    StubCall {
                        args: vec![Value::from(1)],
                        result: Ok(Value::from(true)),
                    },
                    StubCall {
                        args: vec![],
                        result: Err("down".into()),
                    },
                ],
                ..Stub::default()
            },
        );
        assert_eq!(
            json(request::compile(&[], &options).unwrap()),
            r#"{"op":"compile","files":[],"policy":"p","require":[{"policy":"base"}],"functions":["alpha","zeta"],"stubs":{"f":{"calls":[{"args":[1],"returns":true},{"args":[],"error":"down"}]}}}"#
        );
    }

    #[test]
    fn a_stub_that_both_returns_and_fails_is_refused() {
        let stub = Stub {
            returns: Some(Value::from(1)),
            error: Some("x".into()),
            calls: vec![],
        };
        let options = CompileOptions {
            stubs: BTreeMap::from([("f".into(), stub)]),
            ..CompileOptions::default()
        };
        let Err(Error::Engine(e)) = request::compile(&[], &options) else {
            panic!("accepted")
        };
        assert_eq!(
            e.message,
            "stubs: `f`: a stub either returns a value or fails"
        );
    }

    #[test]
    fn a_stub_without_a_result_or_with_an_empty_message_is_refused() {
        for (stub, message) in [
            (Stub::default(), "stubs: `f`: the stub gives no result"),
            (
                Stub::failing(""),
                "stubs: `f`: a stub's error needs a message",
            ),
        ] {
            let options = CompileOptions {
                stubs: BTreeMap::from([("f".into(), stub)]),
                ..CompileOptions::default()
            };
            let Err(Error::Engine(e)) = request::compile(&[], &options) else {
                panic!("accepted")
            };
            assert_eq!(e.message, message);
        }
    }

    #[test]
    fn a_test_request_leaves_out_empty_lists() {
        let options = TestOptions {
            data: vec![SourceFile::new("d.json", "{}")],
            run: Some("case".into()),
            trusted_files: vec![],
        };
        assert_eq!(
            json(request::test(
                &[],
                &[SourceFile::new("a_test.yaml", "")],
                &options
            )),
            r#"{"op":"test","test_files":[{"path":"a_test.yaml","source":""}],"data_files":[{"path":"d.json","source":"{}"}],"run":"case"}"#
        );
    }

    #[test]
    fn a_format_request_carries_the_path_when_given() {
        assert_eq!(
            json(request::format(
                "x",
                &FormatOptions {
                    path: Some("a.sigil".into())
                }
            )),
            r#"{"op":"format","source":"x","path":"a.sigil"}"#
        );
    }

    #[test]
    fn timeout_rounds_up_to_whole_milliseconds() {
        let cases = [
            (Duration::from_millis(5), 5),
            (Duration::from_micros(5001), 6),
            (Duration::from_nanos(1), 1),
        ];
        for (timeout, ms) in cases {
            assert_eq!(
                EvalOptions {
                    timeout: Some(timeout),
                    ..EvalOptions::default()
                }
                .timeout_ms(),
                Some(ms)
            );
        }
        assert_eq!(EvalOptions::default().timeout_ms(), None);
    }

    #[test]
    fn the_hard_deadline_is_timeout_plus_grace() {
        let options = EvalOptions {
            timeout: Some(Duration::from_millis(10)),
            ..EvalOptions::default()
        };
        assert_eq!(
            options.hard_deadline(Duration::from_millis(500)),
            Some(Duration::from_millis(510))
        );
        let own = EvalOptions {
            grace: Some(Duration::from_millis(1)),
            ..options
        };
        assert_eq!(
            own.hard_deadline(Duration::from_millis(500)),
            Some(Duration::from_millis(11))
        );
        assert_eq!(
            EvalOptions::default().hard_deadline(Duration::from_millis(500)),
            None
        );
        let huge = EvalOptions {
            timeout: Some(Duration::MAX),
            ..EvalOptions::default()
        };
        assert_eq!(
            huge.hard_deadline(Duration::from_secs(1)),
            Some(Duration::MAX)
        );
    }

    #[test]
    fn zero_timeout_or_fuel_is_refused() {
        let zero_timeout = EvalOptions {
            timeout: Some(Duration::ZERO),
            ..EvalOptions::default()
        };
        assert_eq!(
            zero_timeout.validate().unwrap_err().to_string(),
            "timeout must be positive, got 0 ms"
        );
        let zero_fuel = EvalOptions {
            fuel: Some(0),
            ..EvalOptions::default()
        };
        assert_eq!(
            zero_fuel.validate().unwrap_err().to_string(),
            "fuel must be positive, got 0"
        );
        assert!(EvalOptions::default().validate().is_ok());
    }
}
