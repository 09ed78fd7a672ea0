//! The svc policy engine for Rust services: the engine module (`engine.wasm`) on wasmtime's C API.
//!
//! A [`Module`] is compiled once and shared; an [`Engine`] is one instance of it with one method per
//! op; [`Engine::compile`] gives a [`Policy`] to evaluate. Every evaluation is bounded: the module's
//! own timeout ([`EvalOptions::timeout`]), a hard deadline by epoch interruption, fuel, and
//! [`Limits::max_memory`]. A failed evaluation is an [`EvalResult`] with `error` set; an [`Error`]
//! is a failure of the machinery.
//!
//! Where things are: `sys` (crate svc-engine-sys: the C API, declared by us and checked at start-up, and the engine settings), `module`, `instance`
//! (the ABI round trip, host calls, stopping), `engine` (ops and policies), `eval_reader` (the eval answer, read without serde), `pool` (instances, rebuild, reinstall), `ticker` (the epoch
//! thread), `host` (host functions), `kind` (the kind builder and decision helpers), `options`, `limits`, `records`, `durations`, `error`.
//!
//! Guest code runs on the calling thread, with a wasm stack of 512 KiB: call from threads with at
//! least 2 MiB of stack (Rust's default for spawned threads).

#[cfg(feature = "async_rt")]
mod async_rt;
mod durations;
mod engine;
mod error;
mod eval_reader;
mod finite;
mod host;
mod instance;
mod kind;
mod limits;
mod module;
mod options;
mod pool;
mod quote;
mod records;
use svc_engine_sys as sys;
mod ticker;

pub use durations::{format_duration, parse_duration};
pub use engine::{Engine, Policy};
pub use error::{EngineError, Error, Result, StoppedError};
pub use host::{host_fn, host_fn_typed, HostFunction, TypedHostFn};
pub use instance::ABI_VERSION;
pub use kind::{
    Decision, FnDecl, Kind, KindBuilder, KindCompileOptions, Matched, Outcome, OutcomeRef, Type,
};
pub use limits::{Limits, ModuleConfig};
pub use module::Module;
pub use options::{
    CheckOptions, CompileOptions, CompileRequirement, EvalOptions, ExplainOptions, FormatOptions,
    LintLevel, Requirement, SourceFile, Stub, StubCall, TestOptions,
};
pub use pool::{Pool, PoolOptions, PoolStats, Recipe};
pub use records::{
    Diagnostic, EvalEntry, EvalFailure, EvalResult, ExplainEntry, Explanation, FailedAssert,
    FailureKind, FailurePhase, ResultShape, TestCaseResult, TestResult, VersionInfo,
};

/// Engines, policies and modules cross threads.
#[allow(dead_code)]
fn assert_send_sync() {
    fn is<T: Send + Sync>() {}
    is::<Module>();
    is::<Engine>();
    is::<Policy>();
    is::<Pool>();
}
