//! The module's ABI: how a host talks to the engine (module-abi.md §1, §2,
//! §5). Requests and responses are JSON in linear memory.
//!
//! # Layers
//!
//! * `exports`: the wasm exports and the `engine.host_call` import, the only
//!   `extern` code; each export calls a function of this module. With
//!   `heap` (the module's allocator: size classes with free lists in front
//!   of `malloc`) the only `unsafe` code.
//! * `call`: one `engine_call`: finds the request among the pinned
//!   buffers (`buffers`), answers it with [`handle`], pins the response.
//! * [`handle`]: bytes in, bytes out, for one request; never panics (below).
//!   Tests, fuzzing and benchmarks enter here.
//! * `instance`: the instance's state (pinned buffers, compiled policies
//!   in the handle table of §5, `handles`), one `thread_local` here, passed
//!   down to everything below.
//! * `request` (decoding, Go-compatible, with [`crate::wire`]) and
//!   `op_request` (the envelope and one typed request per op), `ops` (one
//!   module per op, the shared parts in `ops::project`), `response` (the
//!   envelope and the typed bodies, each record with its writer:
//!   `diagnostic_record`, `eval_record`, `explain_record`, `test_record`,
//!   all on `writer`), `error` (every failure's message and help).
//!
//! # Panics
//!
//! The product rule (§2.2) is that a panic while handling a request answers
//! `ok:false` (`the engine failed while handling the request: «panic
//! message»`, help `this is a bug in the engine; please report it with the
//! request`) with the request's id, and leaves the instance working. The
//! engine is written not to panic (the crate's clippy lints forbid
//! `unwrap`, indexing and the like); [`handle`] catches what slips through
//! with `catch_unwind`.
//!
//! In the wasm module that takes unwinding: `build-wasm` compiles std and
//! the engine with `panic=unwind` and WebAssembly exception handling in its
//! standardized form (exnref: `-C target-feature=+exception-handling` and
//! `-C llvm-args=-wasm-use-legacy-eh=false`; LLVM 22 still emits the legacy
//! `try`/`catch` form without the second flag, and wasmtime 49 refuses that
//! form). So hosts must enable exceptions (wasmtime:
//! `wasmtime_config_wasm_exceptions_set(config, true)`); a module built this
//! way doesn't load without them. With `panic=abort` a panic would trap and
//! kill the instance, every handle with it. Unwinding costs nothing until a
//! panic happens (the module grows by its landing pads).
//!
//! The default panic hook stays: a caught panic also prints its message and
//! place to stderr (fd 2), for the host's log.
//!
//! The `panic-probe` cargo feature adds an op named `panic-probe` that
//! panics on purpose, so a test can prove all this on a built module
//! (`build-wasm --features panic-probe -o target/engine-panic-probe.wasm`).
//! Release builds leave the feature off; native unit tests have the op.

mod buffers;
mod diagnostic_record;
mod error;
mod eval_record;
mod explain_record;
mod exports;
mod handles;
#[cfg(any(test, all(target_arch = "wasm32", not(target_feature = "atomics"))))]
mod heap;
mod host;
mod instance;
mod op_request;
mod ops;
mod request;
mod response;
mod test_record;
mod writer;

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use error::EngineError;
use instance::Instance;
use request::DecodeError;

/// What `engine_abi_version` returns.
pub const ABI_VERSION: i32 = 1;

thread_local! {
    /// This instance: its pinned buffers and compiled policies (one per
    /// thread natively, so tests running in parallel don't share them).
    /// The only global state; the exports pass it down from here.
    static INSTANCE: Instance = const { Instance::new() };
}

/// Handles one request and returns its response: one JSON object with `ok`
/// (module-abi.md §2). Never panics: a panic inside becomes an `ok:false`
/// response, with the request's id when it was read before the panic.
pub fn handle(request: &[u8]) -> Vec<u8> {
    INSTANCE.with(|instance| handle_on(instance, request))
}

/// [`handle`] on `instance`.
fn handle_on(instance: &Instance, request: &[u8]) -> Vec<u8> {
    let answered = catch_unwind(AssertUnwindSafe(|| {
        let checked = request::check(request);
        match request::decode(&checked) {
            Ok(fields) => {
                let envelope = op_request::Envelope::from(fields);
                response::encode(envelope.id, &ops::run(instance, envelope.op))
            }
            Err(DecodeError(text)) => {
                response::failure(request::read_id(&checked), &EngineError::malformed(&text))
            }
        }
    }));
    answered.unwrap_or_else(|payload| {
        // The id is read again, on its own, only for a failure: a request
        // that decodes is answered with the id decoding found.
        let id = catch_unwind(|| request::read_id(&request::check(request)))
            .ok()
            .flatten();
        response::failure(id, &EngineError::panicked(panic_message(payload.as_ref())))
    })
}

/// The message a panic was raised with.
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    let text = payload.downcast_ref::<&str>().copied();
    text.or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("Box<dyn Any>")
}

/// Runs `stage`, a stage that frees the previous stage's tree as it builds
/// its own, with the module's allocator serving a class without free
/// blocks from a larger class's free blocks (`heap.rs`); natively it just
/// runs it.
pub(crate) fn freeing_stage<T>(stage: impl FnOnce() -> T) -> T {
    #[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
    return heap::reusing_larger_blocks(stage);
    #[cfg(not(all(target_arch = "wasm32", not(target_feature = "atomics"))))]
    stage()
}

/// `engine_alloc`.
fn alloc(size: i32) -> i32 {
    INSTANCE
        .with(|instance| instance.buffers.borrow_mut().alloc(size))
        .cast_signed()
}

/// `engine_free`.
fn free(ptr: i32) {
    INSTANCE.with(|instance| instance.buffers.borrow_mut().free(ptr.cast_unsigned()));
}

/// `engine_call`: answers the request at `ptr`, or the malformed-request
/// failure when `ptr` isn't a live buffer from `engine_alloc` or `len` goes
/// beyond it, and returns the pinned response as `(ptr << 32) | len`.
fn call(ptr: i32, len: i32) -> i64 {
    INSTANCE.with(|instance| {
        // The registry isn't borrowed while the request is handled: a host
        // function may allocate or free buffers meanwhile.
        let request = instance.buffers.borrow().request(ptr.cast_unsigned(), len);
        let response = match request {
            Some(request) => handle_on(instance, request.bytes()),
            None => response::failure(None, &EngineError::not_in_memory()),
        };
        let response_len = u32::try_from(response.len()).unwrap_or(u32::MAX);
        let response_ptr = instance.buffers.borrow_mut().pin(response);
        ((u64::from(response_ptr) << 32) | u64::from(response_len)).cast_signed()
    })
}

/// Writes `bytes` into the buffer `engine_alloc` returned as `ptr`, as a
/// host writes into linear memory; `false` when they don't fit. Native
/// builds only (their addresses are tokens): for tests and benchmarks.
#[cfg(not(target_arch = "wasm32"))]
pub fn host_write(ptr: i32, bytes: &[u8]) -> bool {
    INSTANCE.with(|instance| {
        instance
            .buffers
            .borrow_mut()
            .write(ptr.cast_unsigned(), bytes)
    })
}

/// Reads the response `engine_call` returned as `packed`, as a host reads
/// linear memory. Native builds only: for tests and benchmarks.
#[cfg(not(target_arch = "wasm32"))]
pub fn host_read(packed: i64) -> Option<Vec<u8>> {
    let packed = packed.cast_unsigned();
    let len = usize::try_from(packed & 0xffff_ffff).ok()?;
    let ptr = u32::try_from(packed >> 32).ok()?;
    INSTANCE.with(|instance| instance.buffers.borrow().read(ptr, len))
}

#[cfg(not(target_arch = "wasm32"))]
pub use exports::{NativeHost, attach_native_host};
pub use exports::{engine_abi_version, engine_alloc, engine_call, engine_free};

#[cfg(test)]
mod bounds_tests;
#[cfg(test)]
mod check_tests;
#[cfg(test)]
mod eval_bench;
#[cfg(test)]
mod eval_tests;
#[cfg(test)]
mod explain_tests;
#[cfg(test)]
mod fuzz_tests;
#[cfg(test)]
mod host_tests;
#[cfg(test)]
mod invocation_chain;
#[cfg(test)]
mod require_tests;
#[cfg(test)]
mod stub_tests;
#[cfg(test)]
mod test_op_tests;
#[cfg(test)]
mod tests;
