//! Gives this crate's binaries a RUNPATH to wasmtime's library, finds the module the `bundled`
//! feature embeds, and with `precompiled` compiles it for the host.
//!
//! svc-engine-sys links `_libwasmtime.so` and names its directory (`DEP_WASMTIME_DIR`); the
//! RUNPATH and `-z now` (a library that lacks one of the declared functions fails at load, not
//! mid-call) are set here, for this crate's tests and examples. With `precompiled`, this script
//! calls wasmtime through svc-engine-sys, in an engine of the settings the crate runs the module
//! under by default, and writes the native code to `$OUT_DIR/engine.cwasm`.
use std::env;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-env-changed=ENGINE_WASM");
    if let Some(dir) = env::var_os("DEP_WASMTIME_DIR") {
        println!(
            "cargo:rustc-link-arg=-Wl,-rpath,{}",
            PathBuf::from(dir).display()
        );
    }
    println!("cargo:rustc-link-arg=-Wl,-z,now");

    let wasm = env::var_os("ENGINE_WASM")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../native/engine/target/engine.wasm"));
    let wasm = wasm.canonicalize().unwrap_or(wasm);
    println!("cargo:rerun-if-changed={}", wasm.display());
    println!("cargo:rustc-env=SVC_ENGINE_WASM={}", wasm.display());
    if env::var_os("CARGO_FEATURE_BUNDLED").is_some() && !Path::new(&wasm).is_file() {
        println!(
            "cargo:warning=the bundled module {} is missing: run native/engine/build-wasm, or set ENGINE_WASM",
            wasm.display()
        );
    }
    if env::var_os("CARGO_FEATURE_PRECOMPILED").is_some() {
        precompile(&wasm);
    }
}

/// Writes `$OUT_DIR/engine.cwasm`; panics (fails the build) when it can't, saying why.
fn precompile(wasm: &Path) {
    let (host, target) = (
        env::var("HOST").unwrap_or_default(),
        env::var("TARGET").unwrap_or_default(),
    );
    if host != target {
        panic!("the precompiled feature compiles the module for the machine that builds it ({host}), not for {target}: build without it, or on a {target} machine");
    }
    let bytes = std::fs::read(wasm).unwrap_or_else(|e| {
        panic!("the precompiled feature needs the bundled module {}: {e}; run native/engine/build-wasm, or set ENGINE_WASM", wasm.display())
    });
    let artifact = svc_engine_sys::precompile(&bytes, false)
        .unwrap_or_else(|why| panic!("precompiling {} failed: {why}", wasm.display()));
    let out = PathBuf::from(env::var("OUT_DIR").unwrap_or_default()).join("engine.cwasm");
    std::fs::write(&out, artifact).unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}
