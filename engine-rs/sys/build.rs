//! Links wasmtime's C API library, for this crate and every crate (or build script) using it.
//!
//! `_libwasmtime.so` 49.0.0 comes from the pinned wasmtime wheel that `scripts/setup` extracts
//! into `build/deps/wasmtime-49.0.0`; `WASMTIME_DIR` names another directory. The library is
//! linked by its file name (it has no `lib` prefix) through a link in `OUT_DIR`. A RUNPATH can't
//! reach the build scripts that link this crate (svc-engine's, which precompiles the module), so
//! a second link goes into the profile's `deps` directory, which cargo puts on the loader's path
//! of every build script it runs (it adds the `OUT_DIR` search path there under `cargo build` and
//! `cargo test`, but not under `cargo check` or `cargo clippy`). `cargo:dir` hands the library's
//! directory to svc-engine's build script for the RUNPATH of its binaries.
use std::env;
use std::path::PathBuf;

const LIBRARY: &str = "_libwasmtime.so";

fn main() {
    println!("cargo:rerun-if-env-changed=WASMTIME_DIR");
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out = PathBuf::from(env::var("OUT_DIR").unwrap_or_default());
    let dir = wasmtime_dir(&root);
    let dir = dir.canonicalize().unwrap_or(dir);
    link(&dir, &out);
    // OUT_DIR is <profile>/build/svc-engine-sys-<hash>/out.
    if let Some(deps) = out.ancestors().nth(3).map(|profile| profile.join("deps")) {
        link(&dir, &deps);
    }
    println!("cargo:rerun-if-changed={}", dir.join(LIBRARY).display());
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-lib=dylib:+verbatim={LIBRARY}");
    println!("cargo:dir={}", dir.display());
    // For this crate's own tests; dependents set theirs from DEP_WASMTIME_DIR.
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    println!("cargo:rustc-link-arg=-Wl,-z,now");
}

/// Links `dir`'s library into `into`, replacing a stale link from another WASMTIME_DIR.
fn link(dir: &std::path::Path, into: &std::path::Path) {
    let (target, link) = (dir.join(LIBRARY), into.join(LIBRARY));
    if std::fs::read_link(&link).is_ok_and(|to| to == target) {
        return;
    }
    let _ = std::fs::remove_file(&link);
    if let Err(e) =
        std::fs::create_dir_all(into).and_then(|()| std::os::unix::fs::symlink(&target, &link))
    {
        println!(
            "cargo:warning=linking {LIBRARY} into {}: {e}",
            into.display()
        );
    }
}

/// `WASMTIME_DIR`, else the first of the places the repository's scripts put the library.
fn wasmtime_dir(root: &std::path::Path) -> PathBuf {
    if let Some(dir) = env::var_os("WASMTIME_DIR") {
        return check(PathBuf::from(dir));
    }
    let candidates = [
        root.join("../../build/deps/wasmtime-49.0.0"),
        root.join("../../native/jni/build"),
    ];
    let found = candidates
        .iter()
        .find(|dir| dir.join(LIBRARY).is_file())
        .cloned();
    check(found.unwrap_or_else(|| candidates[0].clone()))
}

fn check(dir: PathBuf) -> PathBuf {
    if !dir.join(LIBRARY).is_file() {
        println!(
            "cargo:warning=no {LIBRARY} in {}: run scripts/setup, or set WASMTIME_DIR",
            dir.display()
        );
    }
    dir
}
