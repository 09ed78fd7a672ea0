//! The `precompiled` feature: the bundled module, compiled by the build script, loads as native
//! code and evaluates; the artifact is refused by an engine of other settings.
#![cfg(feature = "precompiled")]
#![allow(clippy::unwrap_used, reason = "fixtures of the tests stop loudly")]

mod common;

use common::*;
use serde_json::json;
use svc_engine::*;

/// What the build script wrote: the artifact `Module::bundled` loads.
static BUILT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/engine.cwasm"));

#[test]
fn the_bundled_module_loads_precompiled_and_evaluates() {
    let module = Module::bundled().unwrap();
    assert!(module.is_precompiled());
    assert_eq!(module.config(), ModuleConfig::default());
    let policy = Engine::new(&module)
        .unwrap()
        .compile(&refund_files(), CompileOptions::default())
        .unwrap();
    let result = policy
        .eval(&json!({"amount": 1, "channel": "web"}))
        .unwrap();
    assert_eq!(result.decision.as_deref(), Some("approve"));
}

#[test]
fn the_built_artifact_loads_into_the_default_settings_only() {
    // SAFETY: the build script of this crate wrote it for this machine.
    let loaded = unsafe { Module::from_precompiled(BUILT, ModuleConfig::default()) }.unwrap();
    assert_eq!(
        Engine::new(&loaded).unwrap().version().unwrap().platform,
        "wasip1/wasm"
    );
    // SAFETY: wasmtime checks the settings before it maps any code.
    let Err(Error::Engine(e)) =
        (unsafe { Module::from_precompiled(BUILT, ModuleConfig { fuel: true }) })
    else {
        panic!("an artifact of the default settings loaded into an engine metering fuel")
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
fn another_config_compiles_the_bundled_module() {
    let module = Module::bundled_with(ModuleConfig { fuel: true }).unwrap();
    assert!(!module.is_precompiled());
    assert_eq!(module.config(), ModuleConfig { fuel: true });
}
