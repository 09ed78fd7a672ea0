//! [`Module`]: the engine module compiled (or loaded precompiled) once, shared by instances.

use std::ffi::CString;
use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::instance::host_call_callback;
use crate::limits::ModuleConfig;
use crate::sys;
use crate::ticker::Ticker;

const REBUILD_HELP: &str =
    "build the module from the same svc revision as this crate (native/engine/build-wasm)";

/// The WASI preview 1 functions the crate links; a module importing others is refused up front.
const WASI_FUNCTIONS: [&str; 19] = [
    "args_get",
    "args_sizes_get",
    "clock_time_get",
    "environ_get",
    "environ_sizes_get",
    "fd_close",
    "fd_fdstat_get",
    "fd_fdstat_set_flags",
    "fd_filestat_get",
    "fd_prestat_dir_name",
    "fd_prestat_get",
    "fd_read",
    "fd_write",
    "path_filestat_get",
    "path_open",
    "poll_oneoff",
    "proc_exit",
    "random_get",
    "sched_yield",
];

/// The engine module, compiled for this machine. Cheap to clone; Send and Sync.
#[derive(Clone)]
pub struct Module {
    pub(crate) inner: Arc<ModuleInner>,
}

pub(crate) struct ModuleInner {
    pub(crate) engine: *mut sys::wasm_engine_t,
    module: *mut sys::wasmtime_module_t,
    pub(crate) pre: *mut sys::wasmtime_instance_pre_t,
    pub(crate) config: ModuleConfig,
    precompiled: bool,
    pub(crate) ticker: Ticker,
}

// SAFETY: wasmtime's Engine, Module and InstancePre are Send + Sync; nothing here is mutated
// after construction.
unsafe impl Send for ModuleInner {}
unsafe impl Sync for ModuleInner {}

impl Drop for ModuleInner {
    fn drop(&mut self) {
        // SAFETY: each pointer is owned here; stores made from `pre` hold their own references.
        unsafe {
            sys::wasmtime_instance_pre_delete(self.pre);
            sys::wasmtime_module_delete(self.module);
            sys::wasm_engine_delete(self.engine);
        }
    }
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Module")
            .field("config", &self.inner.config)
            .field("precompiled", &self.inner.precompiled)
            .finish()
    }
}

/// The module the `bundled` feature embeds.
#[cfg(feature = "bundled")]
pub(crate) static BUNDLED_WASM: &[u8] = include_bytes!(env!("SVC_ENGINE_WASM"));

/// The bundled module as the build script precompiled it, in an engine of `ModuleConfig::default()`
/// (`svc_engine_sys::new_engine`, as `Module::load` makes it) for the machine that built it.
#[cfg(feature = "precompiled")]
static PRECOMPILED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/engine.cwasm"));

impl Module {
    /// Compiles the bundled module (seconds of CPU: do it once); with the `precompiled` feature,
    /// loads the native code the build made of it instead (milliseconds).
    #[cfg(feature = "bundled")]
    pub fn bundled() -> Result<Module> {
        Self::bundled_with(ModuleConfig::default())
    }

    /// [`Module::bundled`] with a config. The `precompiled` feature precompiles the default
    /// config only: any other one compiles the module.
    #[cfg(feature = "bundled")]
    pub fn bundled_with(config: ModuleConfig) -> Result<Module> {
        #[cfg(feature = "precompiled")]
        if config == ModuleConfig::default() {
            // SAFETY: the build script of this very crate wrote the artifact, with this crate's
            // wasmtime and engine settings, for the machine that builds it; wasmtime refuses it
            // when the program runs elsewhere, on another CPU or library version.
            return unsafe { Self::from_precompiled(PRECOMPILED, config) };
        }
        Self::from_bytes_with(BUNDLED_WASM, config)
    }

    /// Compiles the module at `path`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Module> {
        Self::from_file_with(path, ModuleConfig::default())
    }

    /// [`Module::from_file`] with a config.
    pub fn from_file_with(path: impl AsRef<Path>, config: ModuleConfig) -> Result<Module> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| {
            Error::engine(
                format!("reading the module `{}`: {e}", path.display()),
                "pass the path of engine.wasm (native/engine/build-wasm writes it)",
            )
        })?;
        Self::from_bytes_with(&bytes, config)
    }

    /// Compiles the module's bytes.
    pub fn from_bytes(wasm: &[u8]) -> Result<Module> {
        Self::from_bytes_with(wasm, ModuleConfig::default())
    }

    /// [`Module::from_bytes`] with a config.
    pub fn from_bytes_with(wasm: &[u8], config: ModuleConfig) -> Result<Module> {
        Self::load(
            config,
            false,
            |engine, out| {
                // SAFETY: `wasm` is readable for its length during the call.
                unsafe { sys::wasmtime_module_new(engine, wasm.as_ptr(), wasm.len(), out) }
            },
            |why| {
                Error::engine(
                    format!("compiling the module failed: {why}"),
                    "pass the bytes of engine.wasm",
                )
            },
        )
    }

    /// Loads what [`Module::precompile`] returned.
    ///
    /// # Safety
    /// The bytes must be what `precompile` returned for the same crate version, architecture and
    /// `ModuleConfig`, from a source as trusted as the program's own binary: they are native code.
    /// An artifact of another wasmtime version or settings is refused; a tampered one can't be told
    /// from a genuine one.
    pub unsafe fn from_precompiled(artifact: &[u8], config: ModuleConfig) -> Result<Module> {
        Self::load(
            config,
            true,
            |engine, out| {
                sys::wasmtime_module_deserialize(engine, artifact.as_ptr(), artifact.len(), out)
            },
            refused,
        )
    }

    /// [`Module::from_precompiled`] from a file, memory mapped.
    ///
    /// # Safety
    /// As [`Module::from_precompiled`]; and the file must not change while the module is in use.
    pub unsafe fn from_precompiled_file(
        path: impl AsRef<Path>,
        config: ModuleConfig,
    ) -> Result<Module> {
        let path = path.as_ref();
        let c_path = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|_| {
            Error::engine(
                format!("the path `{}` holds a NUL byte", path.display()),
                "pass a path without NUL bytes",
            )
        })?;
        Self::load(
            config,
            true,
            |engine, out| sys::wasmtime_module_deserialize_file(engine, c_path.as_ptr(), out),
            refused,
        )
    }

    /// Serializes the compiled module: native code for this machine, wasmtime version and config.
    pub fn precompile(&self) -> Result<Vec<u8>> {
        // SAFETY: the module lives as long as `self`.
        unsafe { sys::serialize(self.inner.module) }.map_err(|why| {
            Error::engine(
                format!("serializing the module failed: {why}"),
                "precompile on a machine with memory to spare",
            )
        })
    }

    /// Whether loaded from a precompiled artifact.
    pub fn is_precompiled(&self) -> bool {
        self.inner.precompiled
    }

    /// The config it was compiled with.
    pub fn config(&self) -> ModuleConfig {
        self.inner.config
    }

    /// Makes an engine for `config`, loads the module with `make`, checks its exports and links it.
    fn load(
        config: ModuleConfig,
        precompiled: bool,
        make: impl FnOnce(
            *mut sys::wasm_engine_t,
            *mut *mut sys::wasmtime_module_t,
        ) -> *mut sys::wasmtime_error_t,
        load_failed: impl FnOnce(String) -> Error,
    ) -> Result<Module> {
        sys::check().map_err(|why| Error::engine(why, format!("link this program with wasmtime {}'s _libwasmtime.so (scripts/setup extracts it)", sys::WASMTIME_VERSION)))?;
        // SAFETY: every object made is owned by a guard or by ModuleInner, and freed once.
        unsafe {
            let engine = sys::new_engine(config.fuel);
            if engine.is_null() {
                return Err(load_failed(
                    "wasmtime refused the engine configuration".into(),
                ));
            }
            let mut module = std::ptr::null_mut();
            let error = make(engine, &mut module);
            if !error.is_null() {
                sys::wasm_engine_delete(engine);
                return Err(load_failed(sys::error_text(error)));
            }
            let pre = check_imports(module)
                .and_then(|()| check_exports(module))
                .and_then(|()| link(engine, module))
                .map_err(|why| Error::engine(why, REBUILD_HELP));
            match pre {
                Ok(pre) => Ok(Module {
                    inner: Arc::new(ModuleInner {
                        engine,
                        module,
                        pre,
                        config,
                        precompiled,
                        ticker: Ticker::new(engine),
                    }),
                }),
                Err(why) => {
                    sys::wasmtime_module_delete(module);
                    sys::wasm_engine_delete(engine);
                    Err(why)
                }
            }
        }
    }
}

fn refused(why: String) -> Error {
    Error::engine(
        format!("the precompiled module was refused: {why}"),
        format!(
            "precompile again with this crate (wasmtime {}) on this kind of machine, with the same ModuleConfig",
            sys::WASMTIME_VERSION
        ),
    )
}

/// One export the crate calls unchecked, with the type it must have.
struct AbiExport {
    name: &'static str,
    params: &'static [u8],
    results: &'static [u8],
    signature: &'static str,
}

const ABI_EXPORTS: [AbiExport; 5] = [
    AbiExport {
        name: "_initialize",
        params: &[],
        results: &[],
        signature: "() -> ()",
    },
    AbiExport {
        name: "engine_abi_version",
        params: &[],
        results: &[sys::WASM_I32],
        signature: "() -> i32",
    },
    AbiExport {
        name: "engine_alloc",
        params: &[sys::WASM_I32],
        results: &[sys::WASM_I32],
        signature: "(i32) -> i32",
    },
    AbiExport {
        name: "engine_free",
        params: &[sys::WASM_I32, sys::WASM_I32],
        results: &[],
        signature: "(i32, i32) -> ()",
    },
    AbiExport {
        name: "engine_call",
        params: &[sys::WASM_I32, sys::WASM_I32],
        results: &[sys::WASM_I64],
        signature: "(i32, i32) -> i64",
    },
];

unsafe fn kinds(vec: *const sys::wasm_valtype_vec_t) -> Vec<u8> {
    let vec = &*vec;
    if vec.data.is_null() {
        return Vec::new();
    }
    std::slice::from_raw_parts(vec.data, vec.size)
        .iter()
        .map(|t| sys::wasm_valtype_kind(*t))
        .collect()
}

/// Refuses a module that imports anything but the WASI functions above and `engine.host_call`.
unsafe fn check_imports(module: *mut sys::wasmtime_module_t) -> std::result::Result<(), String> {
    let mut imports = sys::wasm_importtype_vec_t {
        size: 0,
        data: std::ptr::null_mut(),
    };
    sys::wasmtime_module_imports(module, &mut imports);
    let list = if imports.data.is_null() {
        &[][..]
    } else {
        std::slice::from_raw_parts(imports.data, imports.size)
    };
    let foreign = list.iter().find_map(|import| {
        let from = (*sys::wasm_importtype_module(*import)).text();
        let name = (*sys::wasm_importtype_name(*import)).text();
        let provided = (from == "wasi_snapshot_preview1"
            && WASI_FUNCTIONS.contains(&name.as_str()))
            || (from == "engine" && name == "host_call");
        (!provided)
            .then(|| format!("the module imports {from}.{name}, which this crate doesn't provide"))
    });
    sys::wasm_importtype_vec_delete(&mut imports);
    foreign.map_or(Ok(()), Err)
}

/// Refuses a module without the ABI's exports of the right types: the crate calls them unchecked.
unsafe fn check_exports(module: *mut sys::wasmtime_module_t) -> std::result::Result<(), String> {
    let mut exports = sys::wasm_exporttype_vec_t {
        size: 0,
        data: std::ptr::null_mut(),
    };
    sys::wasmtime_module_exports(module, &mut exports);
    let list = if exports.data.is_null() {
        &[][..]
    } else {
        std::slice::from_raw_parts(exports.data, exports.size)
    };
    let mut found = [false; ABI_EXPORTS.len()];
    let mut memory = false;
    let mut problem = None;
    for export in list {
        let name = (*sys::wasm_exporttype_name(*export)).text();
        let ty = sys::wasm_exporttype_type(*export);
        if name == "memory" {
            let is_memory = sys::wasm_externtype_kind(ty) == sys::WASM_EXTERN_MEMORY
                && !sys::wasmtime_memorytype_is64(sys::wasm_externtype_as_memorytype_const(ty));
            if !is_memory {
                problem.get_or_insert_with(|| {
                    "the module exports `memory`, but not as a 32-bit linear memory".to_owned()
                });
            }
            memory = true;
            continue;
        }
        for (i, abi) in ABI_EXPORTS.iter().enumerate() {
            if name != abi.name {
                continue;
            }
            let func = if sys::wasm_externtype_kind(ty) == sys::WASM_EXTERN_FUNC {
                sys::wasm_externtype_as_functype_const(ty)
            } else {
                std::ptr::null()
            };
            let matches = !func.is_null()
                && kinds(sys::wasm_functype_params(func)) == abi.params
                && kinds(sys::wasm_functype_results(func)) == abi.results;
            if !matches {
                problem.get_or_insert_with(|| {
                    format!(
                        "the module exports `{}` with the wrong type; expected {}",
                        abi.name, abi.signature
                    )
                });
            }
            if let Some(flag) = found.get_mut(i) {
                *flag = true;
            }
        }
    }
    sys::wasm_exporttype_vec_delete(&mut exports);
    if let Some(problem) = problem {
        return Err(problem);
    }
    if !memory {
        return Err("the module doesn't export `memory`; it is not the engine module".into());
    }
    match ABI_EXPORTS.iter().zip(found).find(|(_, present)| !present) {
        Some((abi, _)) => Err(format!(
            "the module doesn't export `{}`; it is not the engine module",
            abi.name
        )),
        None => Ok(()),
    }
}

/// Links WASI preview 1 and `engine.host_call`, and prepares instantiation.
unsafe fn link(
    engine: *mut sys::wasm_engine_t,
    module: *mut sys::wasmtime_module_t,
) -> std::result::Result<*mut sys::wasmtime_instance_pre_t, String> {
    let linker = sys::wasmtime_linker_new(engine);
    let mut error = sys::wasmtime_linker_define_wasi(linker);
    if error.is_null() {
        let params = [
            sys::wasm_valtype_new(sys::WASM_I32),
            sys::wasm_valtype_new(sys::WASM_I32),
        ];
        let results = [sys::wasm_valtype_new(sys::WASM_I64)];
        let mut param_vec = sys::wasm_valtype_vec_t {
            size: 0,
            data: std::ptr::null_mut(),
        };
        let mut result_vec = sys::wasm_valtype_vec_t {
            size: 0,
            data: std::ptr::null_mut(),
        };
        sys::wasm_valtype_vec_new(&mut param_vec, 2, params.as_ptr());
        sys::wasm_valtype_vec_new(&mut result_vec, 1, results.as_ptr());
        let functype = sys::wasm_functype_new(&mut param_vec, &mut result_vec);
        error = sys::wasmtime_linker_define_func_unchecked(
            linker,
            b"engine".as_ptr(),
            6,
            b"host_call".as_ptr(),
            9,
            functype,
            host_call_callback,
            std::ptr::null_mut(),
            None,
        );
        sys::wasm_functype_delete(functype);
    }
    let mut pre = std::ptr::null_mut();
    if error.is_null() {
        error = sys::wasmtime_linker_instantiate_pre(linker, module, &mut pre);
    }
    sys::wasmtime_linker_delete(linker);
    if error.is_null() {
        Ok(pre)
    } else {
        Err(format!(
            "linking the module failed: {}",
            sys::error_text(error)
        ))
    }
}
