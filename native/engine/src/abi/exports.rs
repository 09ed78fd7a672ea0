//! The module's exports and its one import (module-abi.md §1.1, §1.2): the
//! only `extern` and `unsafe` code of the engine, each export a thin shell
//! over the safe functions of [`super`].
//!
//! Every export returns normally whatever the host passes: a bad pointer or
//! length is answered (see [`super::call`]), and a panic while handling a
//! request is caught before it could reach this boundary.
#![expect(
    unsafe_code,
    reason = "exports are #[unsafe(no_mangle)], the host import is an unsafe extern block"
)]

/// `() -> i32`: the ABI version, 1.
#[unsafe(no_mangle)]
pub extern "C" fn engine_abi_version() -> i32 {
    super::ABI_VERSION
}

/// `(size i32) -> i32`: a pinned buffer of `size` bytes.
#[unsafe(no_mangle)]
pub extern "C" fn engine_alloc(size: i32) -> i32 {
    super::alloc(size)
}

/// `(ptr i32, size i32) -> ()`: unpins a buffer; the size is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn engine_free(ptr: i32, _size: i32) {
    super::free(ptr);
}

/// `(ptr i32, len i32) -> i64`: handles the request in the first `len`
/// bytes of the buffer at `ptr`; returns the pinned response as
/// `(respPtr << 32) | respLen`.
#[unsafe(no_mangle)]
pub extern "C" fn engine_call(ptr: i32, len: i32) -> i64 {
    super::call(ptr, len)
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "engine")]
unsafe extern "C" {
    /// `engine.host_call(reqPtr i32, reqLen i32) -> i64`: runs one host
    /// function (§9).
    #[link_name = "host_call"]
    fn import_host_call(request_ptr: i32, request_len: i32) -> i64;
}

/// Runs one host call through `engine.host_call`: the answer's buffer as
/// `(ptr << 32) | len`. Always `Some`: a module always has its host.
#[cfg(target_arch = "wasm32")]
pub(super) fn host_call(request_ptr: i32, request_len: i32) -> Option<i64> {
    // SAFETY: the import takes two plain integers; the host reads the
    // request through them and answers with a buffer from engine_alloc.
    Some(unsafe { import_host_call(request_ptr, request_len) })
}

/// The native stand-in for `engine.host_call`: the host a native program
/// attached with [`attach_native_host`], else `None` (no host attached).
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn host_call(request_ptr: i32, request_len: i32) -> Option<i64> {
    NATIVE_HOST.with_borrow_mut(|host| host.as_mut().map(|answer| answer(request_ptr, request_len)))
}

/// A native host: gets the request's address and length (read it with
/// [`super::host_read`]), answers with a buffer from [`super::engine_alloc`]
/// written with [`super::host_write`], packed as `(ptr << 32) | len`.
#[cfg(not(target_arch = "wasm32"))]
pub type NativeHost = Box<dyn FnMut(i32, i32) -> i64>;

#[cfg(not(target_arch = "wasm32"))]
thread_local! {
    static NATIVE_HOST: std::cell::RefCell<Option<NativeHost>> = const { std::cell::RefCell::new(None) };
}

/// Attaches `host` to this thread's engine (natively each thread is an
/// instance), or detaches it with `None`: for tests and native programs.
#[cfg(not(target_arch = "wasm32"))]
pub fn attach_native_host(host: Option<NativeHost>) {
    NATIVE_HOST.set(host);
}

// LLVM's wasm exception handling throws with the tag `__cpp_exception`,
// which on WASI a C++ runtime would define; the engine links none, so it
// defines the tag itself (i32: wasm32's pointer to the exception object).
#[cfg(all(target_arch = "wasm32", panic = "unwind"))]
core::arch::global_asm!(
    ".globl __cpp_exception",
    ".tagtype __cpp_exception i32",
    "__cpp_exception:"
);
