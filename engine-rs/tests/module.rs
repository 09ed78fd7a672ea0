//! Loading the module: bytes, files, precompiled artifacts and their refusals, and the ABI checks.
#![allow(clippy::unwrap_used, reason = "fixtures of the tests stop loudly")]

mod common;

use common::*;
use svc_engine::*;

fn engine_message(result: Result<impl std::fmt::Debug>) -> String {
    match result {
        Err(Error::Engine(e)) => e.message,
        other => panic!("not an engine error: {other:?}"),
    }
}

#[test]
fn bytes_that_are_not_wasm_are_refused() {
    let message = engine_message(Module::from_bytes(b"not wasm"));
    assert!(
        message.starts_with("compiling the module failed: "),
        "{message}"
    );
}

#[test]
fn a_missing_file_is_refused_with_its_path() {
    let message = engine_message(Module::from_file("/no/such/engine.wasm"));
    assert!(
        message.starts_with("reading the module `/no/such/engine.wasm`: "),
        "{message}"
    );
}

#[test]
fn a_module_without_engine_call_is_refused() {
    assert_eq!(
        engine_message(Module::from_bytes(&wat("engine_no_call"))),
        "the module doesn't export `engine_call`; it is not the engine module"
    );
}

#[test]
fn a_module_importing_what_the_crate_doesnt_provide_is_refused() {
    assert_eq!(
        engine_message(Module::from_bytes(&wat("engine_foreign_import"))),
        "the module imports env.clock, which this crate doesn't provide"
    );
    let Err(Error::Engine(e)) = Module::from_bytes(&wat("engine_foreign_wasi")) else {
        panic!("accepted")
    };
    assert_eq!(
        e.message,
        "the module imports wasi_snapshot_preview1.sock_accept, which this crate doesn't provide"
    );
    assert_eq!(
        e.help,
        "build the module from the same svc revision as this crate (native/engine/build-wasm)"
    );
}

#[test]
fn a_module_whose_abi_export_has_the_wrong_type_is_refused() {
    assert_eq!(
        engine_message(Module::from_bytes(&wat("bridge_bad_alloc"))),
        "the module exports `engine_alloc` with the wrong type; expected (i32) -> i32"
    );
}

#[test]
fn a_module_that_is_not_a_reactor_is_refused() {
    let Err(Error::Engine(e)) = Module::from_bytes(&wat("bridge_start_traps")) else {
        panic!("accepted")
    };
    assert_eq!(
        e.message,
        "the module doesn't export `_initialize`; it is not the engine module"
    );
}

#[test]
fn a_module_of_another_abi_version_is_refused_by_engine_new() {
    let module = Module::from_bytes(&wat("engine_abi2")).unwrap();
    let Err(Error::Engine(e)) = Engine::new(&module) else {
        panic!("accepted")
    };
    assert_eq!(
        e.message,
        "the module speaks ABI version 2, and this crate version 1"
    );
    assert_eq!(ABI_VERSION, 1);
}

#[test]
fn a_module_that_exits_while_starting_is_stopped_and_quotes_its_stderr() {
    let module = Module::from_bytes(&wat("engine_start_exits")).unwrap();
    let Err(Error::Stopped(e)) = Engine::new(&module) else {
        panic!("started")
    };
    assert_eq!(
        e.message,
        "starting the Sigil module failed: it exited with code 3\ncannot start: no memory?!"
    );
}

#[test]
fn a_file_loads_like_its_bytes() {
    let path = root().join("native/engine/target/engine.wasm");
    let module = Module::from_file(&path).unwrap();
    assert!(!module.is_precompiled());
    assert_eq!(
        Engine::new(&module).unwrap().version().unwrap().platform,
        "wasip1/wasm"
    );
}

#[test]
fn a_precompiled_module_loads_from_bytes_and_from_a_file() {
    let artifact = module().precompile().unwrap();
    // SAFETY: the artifact was made by this process with the same config.
    let loaded = unsafe { Module::from_precompiled(&artifact, ModuleConfig::default()) }.unwrap();
    assert!(loaded.is_precompiled());
    assert_eq!(
        Engine::new(&loaded).unwrap().version().unwrap().platform,
        "wasip1/wasm"
    );

    let path = std::env::temp_dir().join(format!("svc-engine-rs-{}.cwasm", std::process::id()));
    std::fs::write(&path, &artifact).unwrap();
    // SAFETY: as above; the file is not changed while in use.
    let mapped = unsafe { Module::from_precompiled_file(&path, ModuleConfig::default()) }.unwrap();
    assert!(mapped.is_precompiled());
    assert!(Engine::new(&mapped)
        .unwrap()
        .check(&refund_files(), &CheckOptions::default())
        .unwrap()
        .is_empty());
    drop(mapped);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_precompiled_artifact_of_another_config_is_refused() {
    let artifact = module().precompile().unwrap();
    // SAFETY: wasmtime checks the settings before it maps any code.
    let Err(Error::Engine(e)) =
        (unsafe { Module::from_precompiled(&artifact, ModuleConfig { fuel: true }) })
    else {
        panic!("accepted")
    };
    assert!(
        e.message
            .starts_with("the precompiled module was refused: "),
        "{}",
        e.message
    );
    assert!(e.help.contains("same ModuleConfig"), "{}", e.help);
}

#[test]
fn bytes_that_are_not_an_artifact_are_refused() {
    for bytes in [&b""[..], b"\x7fELF garbage", &wat("engine_abi2")] {
        // SAFETY: wasmtime checks the header before it maps any code.
        let result = unsafe { Module::from_precompiled(bytes, ModuleConfig::default()) };
        assert!(engine_message(result).starts_with("the precompiled module was refused: "));
    }
}

#[test]
fn a_missing_artifact_file_or_a_path_with_nul_is_refused() {
    // SAFETY: nothing is loaded.
    let missing =
        unsafe { Module::from_precompiled_file("/no/such.cwasm", ModuleConfig::default()) };
    assert!(engine_message(missing).starts_with("the precompiled module was refused: "));
    // SAFETY: nothing is loaded.
    let nul = unsafe { Module::from_precompiled_file("a\0b", ModuleConfig::default()) };
    assert_eq!(engine_message(nul), "the path `a\0b` holds a NUL byte");
}

#[test]
fn module_engine_and_policy_cross_threads() {
    let module = module().clone();
    let engine = std::thread::spawn(move || Engine::new(&module).unwrap())
        .join()
        .unwrap();
    let policy = engine
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    let decision = std::thread::spawn(move || {
        policy
            .eval(&serde_json::json!({"amount": 1, "channel": "web"}))
            .unwrap()
            .decision
    })
    .join()
    .unwrap();
    assert_eq!(decision.as_deref(), Some("approve"));
}
