//! The subset of wasmtime 49.0.0's C API the crate calls, declared by us, and its start-up check.
//!
//! The library comes out of the pinned wasmtime wheel, which ships no headers (the same
//! declarations as `native/jni/wasmtime_decls.h`). Everything here is pinned to 49.0.0:
//! [`check`] compiles, serializes and runs a tiny module through these declarations once per
//! process, so a library of another version or layout fails with a clear error instead of
//! corrupting memory. "Own" results must be deleted with the matching `*_delete` function.
#![allow(non_camel_case_types, missing_docs)]

use std::ffi::c_void;
use std::sync::OnceLock;

/// The wasmtime version these declarations describe.
pub const WASMTIME_VERSION: &str = "49.0.0";
const WASMTIME_MAJOR: &str = "49";

macro_rules! opaque {
    ($($name:ident),* $(,)?) => {
        $( #[repr(C)] pub struct $name { _private: [u8; 0] } )*
    };
}

opaque!(
    wasm_config_t,
    wasm_engine_t,
    wasm_trap_t,
    wasm_valtype_t,
    wasm_functype_t,
    wasm_externtype_t,
    wasm_memorytype_t,
    wasm_importtype_t,
    wasm_exporttype_t,
    wasmtime_error_t,
    wasmtime_store_t,
    wasmtime_context_t,
    wasmtime_module_t,
    wasmtime_linker_t,
    wasmtime_instance_pre_t,
    wasmtime_caller_t,
    wasi_config_t,
);

#[repr(C)]
pub struct wasm_byte_vec_t {
    pub size: usize,
    pub data: *mut u8,
}

impl wasm_byte_vec_t {
    pub const fn empty() -> Self {
        Self {
            size: 0,
            data: std::ptr::null_mut(),
        }
    }

    /// The bytes, without the NUL that trap messages end with.
    ///
    /// # Safety
    /// `self` holds `size` readable bytes at `data` (or is empty).
    pub unsafe fn text(&self) -> String {
        if self.data.is_null() {
            return String::new();
        }
        let bytes = std::slice::from_raw_parts(self.data, self.size);
        let end = bytes.iter().rposition(|b| *b != 0).map_or(0, |i| i + 1);
        String::from_utf8_lossy(bytes.get(..end).unwrap_or_default()).into_owned()
    }
}

#[repr(C)]
pub struct wasm_valtype_vec_t {
    pub size: usize,
    pub data: *mut *mut wasm_valtype_t,
}

#[repr(C)]
pub struct wasm_importtype_vec_t {
    pub size: usize,
    pub data: *mut *mut wasm_importtype_t,
}

#[repr(C)]
pub struct wasm_exporttype_vec_t {
    pub size: usize,
    pub data: *mut *mut wasm_exporttype_t,
}

pub const WASM_I32: u8 = 0;
pub const WASM_I64: u8 = 1;
pub const WASM_EXTERN_FUNC: u8 = 0;
pub const WASM_EXTERN_MEMORY: u8 = 3;
pub const WASMTIME_EXTERN_FUNC: u8 = 0;
pub const WASMTIME_EXTERN_MEMORY: u8 = 3;

pub const TRAP_INTERRUPT: u8 = 10;
pub const TRAP_OUT_OF_FUEL: u8 = 11;

/// A store item (function, memory): a store id and private fields wasmtime 49 writes as a
/// 24-byte slot. We never look inside; [`check`] proves the size with canaries.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct wasmtime_item_t {
    pub store_id: u64,
    private: [u64; 2],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct wasmtime_instance_t {
    pub store_id: u64,
    private: u64,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union wasmtime_extern_union_t {
    pub item: wasmtime_item_t,
    pub sharedmemory: *mut c_void,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct wasmtime_extern_t {
    pub kind: u8,
    pub of: wasmtime_extern_union_t,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub union wasmtime_val_raw_t {
    pub i32: i32,
    pub i64: i64,
    pub v128: [u8; 16],
}

const _: () = assert!(size_of::<wasmtime_instance_t>() == 16);
const _: () = assert!(size_of::<wasmtime_extern_t>() == 32);
const _: () = assert!(size_of::<wasmtime_val_raw_t>() == 16);

impl wasmtime_instance_t {
    pub const fn zeroed() -> Self {
        Self {
            store_id: 0,
            private: 0,
        }
    }
}

impl wasmtime_extern_t {
    pub const fn zeroed() -> Self {
        Self {
            kind: 0xff,
            of: wasmtime_extern_union_t {
                item: wasmtime_item_t {
                    store_id: 0,
                    private: [0; 2],
                },
            },
        }
    }
}

pub type unchecked_callback_t = unsafe extern "C" fn(
    env: *mut c_void,
    caller: *mut wasmtime_caller_t,
    args_and_results: *mut wasmtime_val_raw_t,
    len: usize,
) -> *mut wasm_trap_t;

pub type wasi_output_fn =
    unsafe extern "C" fn(data: *mut c_void, bytes: *const u8, len: usize) -> isize;

extern "C" {
    pub fn wasm_byte_vec_delete(vec: *mut wasm_byte_vec_t);

    pub fn wasm_config_new() -> *mut wasm_config_t;
    pub fn wasm_engine_new_with_config(config: *mut wasm_config_t) -> *mut wasm_engine_t;
    pub fn wasm_engine_delete(engine: *mut wasm_engine_t);
    pub fn wasmtime_engine_clone(engine: *mut wasm_engine_t) -> *mut wasm_engine_t;
    pub fn wasmtime_engine_increment_epoch(engine: *mut wasm_engine_t);
    pub fn wasmtime_config_epoch_interruption_set(config: *mut wasm_config_t, enable: bool);
    pub fn wasmtime_config_consume_fuel_set(config: *mut wasm_config_t, enable: bool);
    pub fn wasmtime_config_wasm_exceptions_set(config: *mut wasm_config_t, enable: bool);
    pub fn wasmtime_config_wasm_threads_set(config: *mut wasm_config_t, enable: bool);
    pub fn wasmtime_config_max_wasm_stack_set(config: *mut wasm_config_t, bytes: usize);

    pub fn wasmtime_error_delete(error: *mut wasmtime_error_t);
    pub fn wasmtime_error_message(error: *const wasmtime_error_t, message: *mut wasm_byte_vec_t);
    pub fn wasmtime_error_exit_status(error: *const wasmtime_error_t, status: *mut i32) -> bool;
    pub fn wasm_trap_delete(trap: *mut wasm_trap_t);
    pub fn wasm_trap_message(trap: *const wasm_trap_t, message: *mut wasm_byte_vec_t);
    pub fn wasmtime_trap_code(trap: *const wasm_trap_t, code: *mut u8) -> bool;
    pub fn wasmtime_trap_new(message: *const u8, len: usize) -> *mut wasm_trap_t;

    pub fn wasm_valtype_new(kind: u8) -> *mut wasm_valtype_t;
    pub fn wasm_valtype_kind(kind: *const wasm_valtype_t) -> u8;
    pub fn wasm_valtype_vec_new(
        out: *mut wasm_valtype_vec_t,
        size: usize,
        data: *const *mut wasm_valtype_t,
    );
    pub fn wasm_functype_new(
        params: *mut wasm_valtype_vec_t,
        results: *mut wasm_valtype_vec_t,
    ) -> *mut wasm_functype_t;
    pub fn wasm_functype_delete(functype: *mut wasm_functype_t);
    pub fn wasm_functype_params(functype: *const wasm_functype_t) -> *const wasm_valtype_vec_t;
    pub fn wasm_functype_results(functype: *const wasm_functype_t) -> *const wasm_valtype_vec_t;
    pub fn wasm_externtype_kind(externtype: *const wasm_externtype_t) -> u8;
    pub fn wasm_externtype_as_functype_const(
        externtype: *const wasm_externtype_t,
    ) -> *const wasm_functype_t;
    pub fn wasm_externtype_as_memorytype_const(
        externtype: *const wasm_externtype_t,
    ) -> *const wasm_memorytype_t;
    pub fn wasmtime_memorytype_is64(memorytype: *const wasm_memorytype_t) -> bool;
    pub fn wasm_importtype_module(import: *const wasm_importtype_t) -> *const wasm_byte_vec_t;
    pub fn wasm_importtype_name(import: *const wasm_importtype_t) -> *const wasm_byte_vec_t;
    pub fn wasm_importtype_vec_delete(vec: *mut wasm_importtype_vec_t);
    pub fn wasm_exporttype_name(export: *const wasm_exporttype_t) -> *const wasm_byte_vec_t;
    pub fn wasm_exporttype_type(export: *const wasm_exporttype_t) -> *const wasm_externtype_t;
    pub fn wasm_exporttype_vec_delete(vec: *mut wasm_exporttype_vec_t);

    pub fn wasmtime_module_new(
        engine: *mut wasm_engine_t,
        wasm: *const u8,
        len: usize,
        out: *mut *mut wasmtime_module_t,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_module_delete(module: *mut wasmtime_module_t);
    pub fn wasmtime_module_serialize(
        module: *mut wasmtime_module_t,
        out: *mut wasm_byte_vec_t,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_module_deserialize(
        engine: *mut wasm_engine_t,
        bytes: *const u8,
        len: usize,
        out: *mut *mut wasmtime_module_t,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_module_deserialize_file(
        engine: *mut wasm_engine_t,
        path: *const std::ffi::c_char,
        out: *mut *mut wasmtime_module_t,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_module_imports(
        module: *const wasmtime_module_t,
        out: *mut wasm_importtype_vec_t,
    );
    pub fn wasmtime_module_exports(
        module: *const wasmtime_module_t,
        out: *mut wasm_exporttype_vec_t,
    );

    pub fn wasmtime_linker_new(engine: *mut wasm_engine_t) -> *mut wasmtime_linker_t;
    pub fn wasmtime_linker_delete(linker: *mut wasmtime_linker_t);
    pub fn wasmtime_linker_define_wasi(linker: *mut wasmtime_linker_t) -> *mut wasmtime_error_t;
    pub fn wasmtime_linker_define_func_unchecked(
        linker: *mut wasmtime_linker_t,
        module: *const u8,
        module_len: usize,
        name: *const u8,
        name_len: usize,
        functype: *const wasm_functype_t,
        callback: unchecked_callback_t,
        data: *mut c_void,
        finalizer: Option<unsafe extern "C" fn(*mut c_void)>,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_linker_instantiate_pre(
        linker: *const wasmtime_linker_t,
        module: *const wasmtime_module_t,
        out: *mut *mut wasmtime_instance_pre_t,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_instance_pre_delete(pre: *mut wasmtime_instance_pre_t);
    pub fn wasmtime_instance_pre_instantiate(
        pre: *const wasmtime_instance_pre_t,
        store: *mut wasmtime_context_t,
        out: *mut wasmtime_instance_t,
        trap: *mut *mut wasm_trap_t,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_instance_export_get(
        store: *mut wasmtime_context_t,
        instance: *const wasmtime_instance_t,
        name: *const u8,
        len: usize,
        out: *mut wasmtime_extern_t,
    ) -> bool;

    pub fn wasmtime_store_new(
        engine: *mut wasm_engine_t,
        data: *mut c_void,
        finalizer: Option<unsafe extern "C" fn(*mut c_void)>,
    ) -> *mut wasmtime_store_t;
    pub fn wasmtime_store_context(store: *mut wasmtime_store_t) -> *mut wasmtime_context_t;
    pub fn wasmtime_store_delete(store: *mut wasmtime_store_t);
    pub fn wasmtime_store_limiter(
        store: *mut wasmtime_store_t,
        memory_size: i64,
        table_elements: i64,
        instances: i64,
        tables: i64,
        memories: i64,
    );
    pub fn wasmtime_context_get_data(context: *const wasmtime_context_t) -> *mut c_void;
    pub fn wasmtime_context_set_fuel(
        context: *mut wasmtime_context_t,
        fuel: u64,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_context_set_epoch_deadline(
        context: *mut wasmtime_context_t,
        ticks_beyond_current: u64,
    );
    pub fn wasmtime_context_set_wasi(
        context: *mut wasmtime_context_t,
        wasi: *mut wasi_config_t,
    ) -> *mut wasmtime_error_t;

    pub fn wasmtime_func_call_unchecked(
        store: *mut wasmtime_context_t,
        func: *const wasmtime_item_t,
        args_and_results: *mut wasmtime_val_raw_t,
        len: usize,
        trap: *mut *mut wasm_trap_t,
    ) -> *mut wasmtime_error_t;
    pub fn wasmtime_caller_context(caller: *mut wasmtime_caller_t) -> *mut wasmtime_context_t;
    pub fn wasmtime_memory_data(
        store: *const wasmtime_context_t,
        memory: *const wasmtime_item_t,
    ) -> *mut u8;
    pub fn wasmtime_memory_data_size(
        store: *const wasmtime_context_t,
        memory: *const wasmtime_item_t,
    ) -> usize;

    pub fn wasi_config_new() -> *mut wasi_config_t;
    pub fn wasi_config_set_stdout_custom(
        config: *mut wasi_config_t,
        callback: wasi_output_fn,
        data: *mut c_void,
        finalizer: Option<unsafe extern "C" fn(*mut c_void)>,
    );
    pub fn wasi_config_set_stderr_custom(
        config: *mut wasi_config_t,
        callback: wasi_output_fn,
        data: *mut c_void,
        finalizer: Option<unsafe extern "C" fn(*mut c_void)>,
    );
}

/// Takes a wasmtime error's message and deletes the error.
///
/// # Safety
/// `error` is an owned, non-null error.
pub unsafe fn error_text(error: *mut wasmtime_error_t) -> String {
    let mut text = wasm_byte_vec_t::empty();
    wasmtime_error_message(error, &mut text);
    wasmtime_error_delete(error);
    let message = text.text();
    wasm_byte_vec_delete(&mut text);
    message
}

/// wasmtime's default wasm stack, set explicitly: guest calls run on the caller's thread.
pub const MAX_WASM_STACK: usize = 512 << 10;

/// An engine with the settings svc-engine runs the module under, fuel metering on or off. The
/// build script that precompiles the module makes its engine here too: a precompiled module loads
/// only into an engine of the same settings. Null when wasmtime refuses the configuration.
///
/// # Safety
/// The caller owns the engine and deletes it with [`wasm_engine_delete`].
pub unsafe fn new_engine(fuel: bool) -> *mut wasm_engine_t {
    let config = wasm_config_new();
    if config.is_null() {
        return std::ptr::null_mut();
    }
    wasmtime_config_epoch_interruption_set(config, true);
    wasmtime_config_consume_fuel_set(config, fuel);
    // The engine unwinds panics with wasm exception handling, so engine_call can answer ok:false.
    wasmtime_config_wasm_exceptions_set(config, true);
    wasmtime_config_wasm_threads_set(config, false);
    wasmtime_config_max_wasm_stack_set(config, MAX_WASM_STACK);
    wasm_engine_new_with_config(config)
}

/// The compiled module serialized: native code for this machine, wasmtime version and settings.
///
/// # Safety
/// `module` is a live module.
pub unsafe fn serialize(module: *mut wasmtime_module_t) -> Result<Vec<u8>, String> {
    let mut artifact = wasm_byte_vec_t::empty();
    let error = wasmtime_module_serialize(module, &mut artifact);
    if !error.is_null() {
        return Err(error_text(error));
    }
    let bytes = if artifact.data.is_null() {
        Vec::new()
    } else {
        std::slice::from_raw_parts(artifact.data, artifact.size).to_vec()
    };
    wasm_byte_vec_delete(&mut artifact);
    Ok(bytes)
}

/// Compiles `wasm` in an engine of [`new_engine`]`(fuel)` and serializes it: what svc-engine's
/// build script embeds for the `precompiled` feature. `Err` says why not.
pub fn precompile(wasm: &[u8], fuel: bool) -> Result<Vec<u8>, String> {
    check().map_err(str::to_owned)?;
    // SAFETY: the engine and module are owned here and deleted on every path.
    unsafe {
        let engine = new_engine(fuel);
        if engine.is_null() {
            return Err("wasmtime refused the engine configuration".into());
        }
        let mut module = std::ptr::null_mut();
        let error = wasmtime_module_new(engine, wasm.as_ptr(), wasm.len(), &mut module);
        let bytes = if error.is_null() {
            let bytes = serialize(module);
            wasmtime_module_delete(module);
            bytes
        } else {
            Err(format!(
                "compiling the module failed: {}",
                error_text(error)
            ))
        };
        wasm_engine_delete(engine);
        bytes
    }
}

/// `(module (func (export "f") (result i32) i32.const 42) (memory (export "memory") 1))`.
const SELF_TEST_WASM: &[u8] = &[
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // header
    0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type () -> i32
    0x03, 0x02, 0x01, 0x00, // func 0 : type 0
    0x05, 0x03, 0x01, 0x00, 0x01, // memory min 1
    0x07, 0x0e, 0x02, 0x01, b'f', 0x00, 0x00, // export "f"
    0x06, b'm', b'e', b'm', b'o', b'r', b'y', 0x02, 0x00, // export "memory"
    0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b, // i32.const 42
];

/// Proves once per process that the linked library is a working wasmtime 49 with the layouts
/// declared here; every engine checks it before its first wasmtime call. `Err` holds why not.
pub fn check() -> Result<(), &'static str> {
    static RESULT: OnceLock<Result<(), String>> = OnceLock::new();
    match RESULT.get_or_init(|| {
        // SAFETY: the self-test owns every object it makes and frees each on every path.
        unsafe { self_test() }.map_err(|why| {
            format!("the wasmtime library this program is linked with is not a working wasmtime {WASMTIME_VERSION}: {why}")
        })
    }) {
        Ok(()) => Ok(()),
        Err(message) => Err(message.as_str()),
    }
}

/// Deletes what the self-test made, in reverse order, whichever step it stopped at.
struct SelfTest {
    engine: *mut wasm_engine_t,
    module: *mut wasmtime_module_t,
    linker: *mut wasmtime_linker_t,
    pre: *mut wasmtime_instance_pre_t,
    store: *mut wasmtime_store_t,
}

impl Drop for SelfTest {
    fn drop(&mut self) {
        // SAFETY: each pointer is null or owned by this struct.
        unsafe {
            if !self.store.is_null() {
                wasmtime_store_delete(self.store);
            }
            if !self.pre.is_null() {
                wasmtime_instance_pre_delete(self.pre);
            }
            if !self.linker.is_null() {
                wasmtime_linker_delete(self.linker);
            }
            if !self.module.is_null() {
                wasmtime_module_delete(self.module);
            }
            if !self.engine.is_null() {
                wasm_engine_delete(self.engine);
            }
        }
    }
}

const CANARY: u8 = 0xA5;

/// A value with 32 canary bytes after it, to catch a library that writes more than declared.
#[repr(C)]
struct Guarded<T> {
    value: T,
    canaries: [u8; 32],
}

impl<T> Guarded<T> {
    fn new(value: T) -> Self {
        Self {
            value,
            canaries: [CANARY; 32],
        }
    }

    fn intact(&self) -> bool {
        self.canaries.iter().all(|b| *b == CANARY)
    }
}

unsafe fn self_test() -> Result<(), String> {
    let mut t = SelfTest {
        engine: wasm_engine_new_with_config(wasm_config_new()),
        module: std::ptr::null_mut(),
        linker: std::ptr::null_mut(),
        pre: std::ptr::null_mut(),
        store: std::ptr::null_mut(),
    };
    if t.engine.is_null() {
        return Err("it could not create an engine".into());
    }
    let error = wasmtime_module_new(
        t.engine,
        SELF_TEST_WASM.as_ptr(),
        SELF_TEST_WASM.len(),
        &mut t.module,
    );
    if !error.is_null() {
        return Err(format!(
            "it could not compile a test module: {}",
            error_text(error)
        ));
    }
    let mut artifact = wasm_byte_vec_t::empty();
    let error = wasmtime_module_serialize(t.module, &mut artifact);
    if !error.is_null() {
        return Err(format!(
            "it could not serialize a test module: {}",
            error_text(error)
        ));
    }
    // Serialized modules name the wasmtime major version that made them, length-prefixed.
    let mut version = vec![WASMTIME_MAJOR.len() as u8];
    version.extend_from_slice(WASMTIME_MAJOR.as_bytes());
    let bytes = std::slice::from_raw_parts(artifact.data, artifact.size);
    let found = bytes
        .windows(version.len())
        .any(|w| w == version.as_slice());
    wasm_byte_vec_delete(&mut artifact);
    if !found {
        return Err("its compiled code names another major version".into());
    }
    t.linker = wasmtime_linker_new(t.engine);
    let error = wasmtime_linker_instantiate_pre(t.linker, t.module, &mut t.pre);
    if !error.is_null() {
        return Err(format!(
            "it could not link a test module: {}",
            error_text(error)
        ));
    }
    t.store = wasmtime_store_new(t.engine, std::ptr::null_mut(), None);
    let context = wasmtime_store_context(t.store);
    let mut instance = Guarded::new(wasmtime_instance_t::zeroed());
    let mut trap: *mut wasm_trap_t = std::ptr::null_mut();
    let error = wasmtime_instance_pre_instantiate(t.pre, context, &mut instance.value, &mut trap);
    if !trap.is_null() {
        wasm_trap_delete(trap);
        return Err("it trapped instantiating a test module".into());
    }
    if !error.is_null() {
        return Err(format!(
            "it could not instantiate a test module: {}",
            error_text(error)
        ));
    }
    if !instance.intact() {
        return Err("it writes instances larger than declared".into());
    }
    let mut memory = Guarded::new(wasmtime_extern_t::zeroed());
    let mut func = Guarded::new(wasmtime_extern_t::zeroed());
    let exported = wasmtime_instance_export_get(
        context,
        &instance.value,
        b"memory".as_ptr(),
        6,
        &mut memory.value,
    ) && wasmtime_instance_export_get(
        context,
        &instance.value,
        b"f".as_ptr(),
        1,
        &mut func.value,
    );
    if !exported || !memory.intact() || !func.intact() {
        return Err("it writes exports larger than declared".into());
    }
    if memory.value.kind != WASMTIME_EXTERN_MEMORY
        || wasmtime_memory_data_size(context, &memory.value.of.item) != 65536
    {
        return Err("its memory export does not match the declared layout".into());
    }
    if func.value.kind != WASMTIME_EXTERN_FUNC {
        return Err("its function export does not match the declared layout".into());
    }
    let mut result = [wasmtime_val_raw_t { i64: 0 }];
    let error = wasmtime_func_call_unchecked(
        context,
        &func.value.of.item,
        result.as_mut_ptr(),
        1,
        &mut trap,
    );
    if !trap.is_null() {
        wasm_trap_delete(trap);
        return Err("it trapped calling a test function".into());
    }
    if !error.is_null() {
        return Err(format!(
            "it could not call a test function: {}",
            error_text(error)
        ));
    }
    if result[0].i32 != 42 {
        return Err("calling a test function gave the wrong answer".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_linked_library_passes_the_start_up_check() {
        assert_eq!(check(), Ok(()));
    }

    #[test]
    fn the_start_up_check_runs_once_and_answers_the_same() {
        assert_eq!(check(), check());
    }

    #[test]
    fn a_byte_vector_text_drops_trailing_nuls() {
        let mut bytes = *b"trap\0\0";
        let vec = wasm_byte_vec_t {
            size: bytes.len(),
            data: bytes.as_mut_ptr(),
        };
        // SAFETY: vec points at `bytes`.
        assert_eq!(unsafe { vec.text() }, "trap");
        // SAFETY: an empty vector has nothing to read.
        assert_eq!(unsafe { wasm_byte_vec_t::empty().text() }, "");
    }
}
