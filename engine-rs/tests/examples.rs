//! The spec's policy examples through the crate: every input evaluates to the record the Java
//! library writes (and `sigil eval -o json` prints), byte for byte once compacted with key order
//! kept, and the explanations likewise. The examples are `$SIGIL_SPEC_EXAMPLES`, else
//! `shared/spec/examples` beside the repository; missing, the tests say so and pass, except under
//! CI, where examples must never go unchecked.
#![allow(clippy::unwrap_used, reason = "fixtures of the tests stop loudly")]

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;
use svc_engine::*;

const SCENARIOS: [(&str, &str); 5] = [
    ("01-refund-gate", "refunds.desk"),
    ("02-door-access", "doors.main"),
    ("03-tool-grants", "tools.grants"),
    ("04-change-asserts", "changes.gate"),
    ("05-deploy-composition", "payments.deploy"),
];

fn examples() -> Option<PathBuf> {
    let dir = std::env::var_os("SIGIL_SPEC_EXAMPLES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/spec/examples"));
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the spec examples are missing at {dir:?}; set SIGIL_SPEC_EXAMPLES"
    );
    eprintln!("spec examples not found at {dir:?}; set SIGIL_SPEC_EXAMPLES");
    None
}

/// Every `.sigil` file below `scenario`, named by its path relative to it, sorted.
fn sigil_files(scenario: &Path) -> Vec<SourceFile> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "sigil") {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(scenario, &mut paths);
    paths.sort();
    paths
        .iter()
        .map(|p| {
            SourceFile::new(
                p.strip_prefix(scenario).unwrap().to_string_lossy(),
                std::fs::read_to_string(p).unwrap(),
            )
        })
        .collect()
}

/// The same JSON without whitespace, member order kept.
fn compact(path: &Path) -> String {
    let value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    serde_json::to_string(&value).unwrap()
}

#[test]
fn every_input_evaluates_to_the_record_the_java_library_writes() {
    let Some(dir) = examples() else { return };
    let engine = engine();
    let mut checked = 0;
    for (scenario, root_policy) in SCENARIOS {
        let scenario = dir.join("policies").join(scenario);
        let options = CompileOptions {
            policy: Some(root_policy.into()),
            ..CompileOptions::default()
        };
        let policy = engine.compile(&sigil_files(&scenario), options).unwrap();
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(scenario.join("inputs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        inputs.sort();
        for input in inputs {
            let name = input.file_stem().unwrap().to_string_lossy().into_owned();
            let value: Value =
                serde_json::from_str(&std::fs::read_to_string(&input).unwrap()).unwrap();
            let want = compact(&scenario.join("expected").join(format!("{name}.json")));
            let result = policy.eval(&value).unwrap();
            assert_eq!(
                serde_json::to_string(&result).unwrap(),
                want,
                "{scenario:?} {name}"
            );
            let bound: EvalResult = serde_json::from_str(&want).unwrap();
            assert_eq!(
                serde_json::to_string(&bound).unwrap(),
                want,
                "{scenario:?} {name}, read and written back"
            );
            checked += 1;
        }
    }
    assert!(checked >= SCENARIOS.len(), "only {checked} inputs");
}

#[test]
fn explanations_are_what_the_java_library_writes() {
    let Some(dir) = examples() else { return };
    let engine = engine();
    let mut checked = 0;
    for (scenario, root_policy) in SCENARIOS {
        let scenario = dir.join("policies").join(scenario);
        let expected = scenario.join("expected/explain.json");
        if !expected.is_file() {
            continue;
        }
        let files = sigil_files(&scenario);
        let options = ExplainOptions {
            policy: Some(root_policy.into()),
            ..ExplainOptions::default()
        };
        let explained = engine.explain(&files, &options).unwrap();
        assert_eq!(
            serde_json::to_string(&explained).unwrap(),
            compact(&expected),
            "{scenario:?}"
        );
        let compile = CompileOptions {
            policy: Some(root_policy.into()),
            ..CompileOptions::default()
        };
        let policy = engine.compile(&files, compile).unwrap();
        assert_eq!(vec![policy.explain().unwrap()], explained, "{scenario:?}");
        checked += 1;
    }
    assert!(checked > 0, "no scenario has an expected explanation");
}

#[test]
fn every_bundle_checks_cleanly() {
    let Some(dir) = examples() else { return };
    let engine = engine();
    for (scenario, _) in SCENARIOS {
        let files = sigil_files(&dir.join("policies").join(scenario));
        assert_eq!(
            engine.check(&files, &CheckOptions::default()).unwrap(),
            vec![],
            "{scenario}"
        );
    }
}
