//! Host functions through a real evaluation: typed and raw, errors, panics, and re-entry.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "fixtures of the tests stop loudly"
)]

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use serde_json::{json, Value};
use svc_engine::*;

fn input(label: &str) -> Value {
    json!({"label": label, "owner": {"name": "ada", "tier": "gold"}, "since": "2026-01-02T03:04:05Z", "age": "90m"})
}

#[derive(serde::Deserialize)]
struct Owner {
    name: String,
    tier: String,
}

fn functions(describe: HostFunction) -> CompileOptions {
    let mut options = CompileOptions::default();
    options.functions.insert(
        "split".into(),
        host_fn_typed(|text: String, sep: String| {
            Ok::<_, String>(text.split(&sep).map(str::to_owned).collect::<Vec<_>>())
        }),
    );
    options.functions.insert("describe".into(), describe);
    options
}

fn describing(answer: &'static str) -> HostFunction {
    host_fn_typed(move |_owner: Owner, _age: String, _since: String| Ok::<_, String>(answer))
}

/// How the evaluation of label `x` fails on `engine` with the labels policy compiled with `options`.
fn failure_with(engine: &Engine, options: CompileOptions) -> EvalFailure {
    let policy = engine.compile(&labels_files(), options).unwrap();
    policy
        .eval(&input("x"))
        .unwrap()
        .error
        .expect("a failed evaluation")
}

#[test]
fn typed_host_functions_answer_the_policy() {
    let engine = engine();
    let policy = engine
        .compile(&labels_files(), functions(describing("no")))
        .unwrap();
    let tagged = policy.eval(&input("a,team,b")).unwrap();
    assert_eq!(tagged.reason.as_deref(), Some("tagged"), "{tagged:?}");
    let untagged = policy.eval(&input("a,b")).unwrap();
    assert_eq!(untagged.reason.as_deref(), Some("fallback"), "{untagged:?}");
}

#[test]
fn arguments_arrive_as_the_kind_declares_them() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let describe = host_fn_typed(move |owner: Owner, age: String, since: String| {
        record
            .lock()
            .unwrap()
            .push(format!("{} {} {age} {since}", owner.name, owner.tier));
        Ok::<_, String>("ok")
    });
    let policy = engine()
        .compile(&labels_files(), functions(describe))
        .unwrap();
    assert_eq!(
        policy.eval(&input("x")).unwrap().reason.as_deref(),
        Some("described")
    );
    assert_eq!(
        *seen.lock().unwrap(),
        ["ada gold 1h30m 2026-01-02T03:04:05Z"]
    );
}

#[test]
fn an_err_of_a_host_function_fails_the_evaluation_with_its_message() {
    let failing = host_fn(|_| Err("the directory is down".into()));
    let engine = engine();
    let error = failure_with(&engine, functions(failing));
    assert_eq!(error.kind, FailureKind::Runtime);
    assert!(
        error.message.contains("the directory is down"),
        "{}",
        error.message
    );
    assert_eq!(engine.stopped(), None);
}

#[test]
fn a_panicking_host_function_fails_the_evaluation_and_the_instance_works_on() {
    let panicking = host_fn(|_| panic!("index out of range"));
    let engine = engine();
    let error = failure_with(&engine, functions(panicking));
    assert!(
        error
            .message
            .contains("the host function panicked: index out of range"),
        "{}",
        error.message
    );
    assert_eq!(engine.stopped(), None);
    assert!(engine.version().is_ok());
}

#[test]
fn an_argument_of_the_wrong_type_is_named_in_the_failure() {
    let wrong = host_fn_typed(|_owner: i64, _age: String, _since: String| Ok::<_, String>("ok"));
    let error = failure_with(&engine(), functions(wrong));
    assert!(
        error.message.contains("argument 1: invalid type"),
        "{}",
        error.message
    );
}

#[test]
fn a_host_function_that_calls_back_into_its_instance_is_refused() {
    let engine = engine();
    let inner = Arc::new(Mutex::new(None::<Engine>));
    let reentrant = {
        let inner = Arc::clone(&inner);
        host_fn(move |_| {
            let engine = inner.lock().unwrap().clone().expect("set before eval");
            engine
                .version()
                .map(|_| Value::from("ok"))
                .map_err(|e| e.to_string())
        })
    };
    *inner.lock().unwrap() = Some(engine.clone());
    let error = failure_with(&engine, functions(reentrant));
    assert!(
        error.message.contains(
            "the module is busy: a host function can't call back into the instance that runs it"
        ),
        "{}",
        error.message
    );
    inner.lock().unwrap().take();
    assert_eq!(engine.stopped(), None);
}

#[test]
fn a_policy_dropped_inside_a_host_function_is_released_at_the_next_call() {
    let engine = engine();
    let doomed = Arc::new(Mutex::new(Some(
        engine
            .compile(&refund_files(), CompileOptions::default())
            .unwrap(),
    )));
    let dropping = {
        let doomed = Arc::clone(&doomed);
        host_fn(move |_| {
            drop(doomed.lock().unwrap().take());
            Ok(Value::from("no"))
        })
    };
    let policy = engine
        .compile(&labels_files(), functions(dropping))
        .unwrap();
    assert_eq!(
        policy.eval(&input("x")).unwrap().reason.as_deref(),
        Some("fallback")
    );
    assert!(doomed.lock().unwrap().is_none());
    assert!(engine.version().is_ok());
}

#[test]
fn a_function_the_kind_does_not_declare_is_refused_at_compile() {
    let mut options = functions(describing("ok"));
    options
        .functions
        .insert("nope".into(), host_fn(|_| Ok(Value::Null)));
    let Err(Error::Engine(e)) = engine().compile(&labels_files(), options) else {
        panic!("accepted")
    };
    assert!(e.message.contains("nope"), "{}", e.message);
}

#[test]
fn a_stub_answers_in_place_of_an_implementation() {
    let mut options = CompileOptions::default();
    options
        .stubs
        .insert("split".into(), Stub::returning(json!(["team"])));
    options
        .stubs
        .insert("describe".into(), Stub::returning(json!("no")));
    let policy = engine().compile(&labels_files(), options).unwrap();
    assert_eq!(
        policy.eval(&input("anything")).unwrap().reason.as_deref(),
        Some("tagged")
    );
}

#[test]
fn a_function_without_implementation_or_stub_fails_the_evaluation() {
    let engine = engine();
    let error = failure_with(&engine, CompileOptions::default());
    assert_eq!(error.kind, FailureKind::Runtime);
    assert_eq!(engine.stopped(), None);
}
