//! Links wasmtime's C API library and finds the module the `bundled` feature embeds.
//!
//! `_libwasmtime.so` 49.0.0 comes from the pinned wasmtime wheel that `scripts/setup` extracts
//! into `build/deps/wasmtime-49.0.0`; `WASMTIME_DIR` names another directory. The library is
//! linked by its file name (it has no `lib` prefix) with a RUNPATH to that directory, and with
//! `-z now` so a library that lacks one of the declared functions fails at load, not mid-call.
use std::env;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    println!("cargo:rerun-if-env-changed=WASMTIME_DIR");
    println!("cargo:rerun-if-env-changed=ENGINE_WASM");
    let wasmtime = env::var_os("WASMTIME_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let candidates = [
                root.join("../build/deps/wasmtime-49.0.0"),
                root.join("../native/jni/build"),
            ];
            candidates
                .iter()
                .find(|dir| dir.join("_libwasmtime.so").is_file())
                .cloned()
                .unwrap_or_else(|| candidates[0].clone())
        });
    if !wasmtime.join("_libwasmtime.so").is_file() {
        println!(
            "cargo:warning=no _libwasmtime.so in {}: run scripts/setup, or set WASMTIME_DIR",
            wasmtime.display()
        );
    }
    let wasmtime = wasmtime.canonicalize().unwrap_or(wasmtime);
    println!("cargo:rustc-link-search=native={}", wasmtime.display());
    println!("cargo:rustc-link-lib=dylib:+verbatim=_libwasmtime.so");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", wasmtime.display());
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
}
