//! Shared fixtures of the integration tests: the bundled module, the test modules of
//! engine-jni/src/test/wat, and small kinds and policies.
#![allow(dead_code, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use svc_engine::{Engine, Module, ModuleConfig, SourceFile};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The bundled module, compiled once per test binary.
pub fn module() -> &'static Module {
    static MODULE: OnceLock<Module> = OnceLock::new();
    MODULE.get_or_init(|| Module::bundled().expect("the bundled module compiles"))
}

/// The bundled module with fuel metering, compiled once per test binary.
pub fn fuel_module() -> &'static Module {
    static MODULE: OnceLock<Module> = OnceLock::new();
    MODULE.get_or_init(|| {
        Module::bundled_with(ModuleConfig { fuel: true }).expect("the bundled module compiles")
    })
}

pub fn engine() -> Engine {
    Engine::new(module()).expect("an engine starts")
}

/// The bytes of engine-jni/src/test/wat/<name>.wat, compiled with wat2wasm.
pub fn wat(name: &str) -> Vec<u8> {
    let source = root()
        .join("engine-jni/src/test/wat")
        .join(format!("{name}.wat"));
    let out =
        std::env::temp_dir().join(format!("svc-engine-rs-{}-{name}.wasm", std::process::id()));
    let status = std::process::Command::new("wat2wasm")
        .arg(&source)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("wat2wasm runs (Debian's wabt, installed by scripts/setup)");
    assert!(status.success(), "wat2wasm {source:?}");
    let bytes = std::fs::read(&out).expect("wat2wasm wrote the module");
    let _ = std::fs::remove_file(&out);
    bytes
}

pub const REFUND_KIND: &str =
    include_str!("../../../bench/src/main/resources/dev/svc/bench/refund-kind.sigil");

pub const REFUND_POLICY: &str = "policy refund.desk: Refund@1\n\n\
when amount > 10000 {\n  deny(reason: fraud)\n}\n\n\
when amount < 100 and channel == \"web\" {\n  approve(reason: small, limit: 100)\n}\n";

pub fn refund_files() -> Vec<SourceFile> {
    vec![
        SourceFile::new("kind.sigil", REFUND_KIND),
        SourceFile::new("refund/desk.sigil", REFUND_POLICY),
    ]
}

pub fn labels_files() -> Vec<SourceFile> {
    let dir = root().join("engine-jni/src/test/resources/labels");
    ["labels_kind.sigil", "labels.sigil"]
        .iter()
        .map(|name| {
            SourceFile::new(
                *name,
                std::fs::read_to_string(dir.join(name)).expect("labels fixture"),
            )
        })
        .collect()
}

pub const DOOR_KIND: &str =
    "kind Door version 1\n\ninput floor: int\ninput names: list<string>\n\n\
decision deny {\n  reason: closed | no_rule\n}\n\ndecision allow {\n  reason: member\n}\n\n\
collect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";

/// Quadratic in the number of names: 4000 names take far longer than the tests' deadlines.
pub const SLOW_POLICY: &str = "policy door.main: Door@1\n\n\
when any n in names: (any m in names: m == n and n == \"zz\") {\n  allow(reason: member)\n}\n";

pub fn loop_files() -> Vec<SourceFile> {
    vec![
        SourceFile::new("kind.sigil", DOOR_KIND),
        SourceFile::new("door/main.sigil", SLOW_POLICY),
    ]
}

pub fn slow_input() -> serde_json::Value {
    serde_json::json!({"floor": 1, "names": (0..4000).map(|i| format!("n{i}")).collect::<Vec<_>>()})
}

pub fn quick_input() -> serde_json::Value {
    serde_json::json!({"floor": 1, "names": ["zz"]})
}
