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
    /// function (§9). Imported once eval calls host functions.
    #[expect(dead_code, reason = "eval calls host functions through it")]
    fn host_call(request_ptr: i32, request_len: i32) -> i64;
}

/// The native stand-in for `engine.host_call`: natively no host is
/// attached, so it answers nothing (0, no buffer), which a caller reports
/// as `no host is attached to run it`.
#[cfg(not(target_arch = "wasm32"))]
#[expect(dead_code, reason = "eval calls host functions through it")]
fn host_call(_request_ptr: i32, _request_len: i32) -> i64 {
    0
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
