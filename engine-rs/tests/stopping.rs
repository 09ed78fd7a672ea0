//! Deadlines, fuel, memory and traps: what stops an instance, and that it stays stopped.
#![allow(clippy::unwrap_used, reason = "fixtures of the tests stop loudly")]

mod common;

use std::time::Duration;

use common::{engine, fuel_module, loop_files, module, quick_input, slow_input, wat};
use svc_engine::*;

fn stopped_message(result: Result<impl std::fmt::Debug>) -> String {
    match result {
        Err(Error::Stopped(e)) => e.message,
        other => panic!("not stopped: {other:?}"),
    }
}

#[test]
fn the_modules_own_timeout_cancels_and_the_instance_works() {
    let engine = engine();
    let policy = engine
        .compile(&loop_files(), CompileOptions::default())
        .unwrap();
    let options = EvalOptions {
        timeout: Some(Duration::from_millis(5)),
        grace: Some(Duration::from_secs(30)),
        fuel: None,
    };
    let result = policy.eval_with(&slow_input(), &options).unwrap();
    assert_eq!(result.error.map(|e| e.kind), Some(FailureKind::Canceled));
    assert_eq!(engine.stopped(), None);
    assert!(engine.version().is_ok());
}

#[test]
fn the_hard_deadline_kills_the_call_and_stops_the_instance() {
    let engine = engine();
    let policy = engine
        .compile(&loop_files(), CompileOptions::default())
        .unwrap();
    // The module's own check is at 1 s; a grace of zero kills the call first.
    let limits_grace = EvalOptions {
        timeout: Some(Duration::from_millis(3)),
        grace: Some(Duration::ZERO),
        fuel: None,
    };
    let outcome = policy.eval_with(&slow_input(), &limits_grace);
    match outcome {
        Err(Error::Timeout(deadline)) => assert_eq!(deadline, Duration::from_millis(3)),
        // The module's check may win the race with the epoch: then the instance still works.
        Ok(result) => {
            assert_eq!(result.error.map(|e| e.kind), Some(FailureKind::Canceled));
            return;
        }
        Err(other) => panic!("{other:?}"),
    }
    let later = stopped_message(policy.eval(&quick_input()));
    assert_eq!(
        later,
        "the Sigil module stopped earlier: a call ran past its hard deadline and was killed"
    );
    assert_eq!(stopped_message(engine.version()), later);
    assert_eq!(engine.stopped().map(|s| s.message), Some(later));
}

#[test]
fn the_op_deadline_bounds_an_evaluation_without_a_timeout() {
    let limits = Limits {
        op_deadline: Some(Duration::from_millis(20)),
        ..Limits::default()
    };
    let engine = Engine::with_limits(module(), limits).unwrap();
    let policy = engine
        .compile(&loop_files(), CompileOptions::default())
        .unwrap();
    let error = policy.eval(&slow_input()).unwrap_err();
    assert_eq!(error, Error::Timeout(Duration::from_millis(20)));
    assert!(error.is_stopped());
}

#[test]
fn fuel_stops_the_call_and_the_instance() {
    let engine = Engine::new(fuel_module()).unwrap();
    let policy = engine
        .compile(&loop_files(), CompileOptions::default())
        .unwrap();
    let options = EvalOptions {
        fuel: Some(100_000),
        ..EvalOptions::default()
    };
    assert_eq!(
        policy.eval_with(&slow_input(), &options).unwrap_err(),
        Error::OutOfFuel
    );
    assert_eq!(
        stopped_message(policy.eval(&quick_input())),
        "the Sigil module stopped earlier: a call ran out of fuel and was stopped"
    );
}

#[test]
fn enough_fuel_lets_the_call_finish() {
    let engine = Engine::new(fuel_module()).unwrap();
    let policy = engine
        .compile(&loop_files(), CompileOptions::default())
        .unwrap();
    let options = EvalOptions {
        fuel: Some(100_000_000),
        ..EvalOptions::default()
    };
    assert_eq!(
        policy
            .eval_with(&quick_input(), &options)
            .unwrap()
            .decision
            .as_deref(),
        Some("allow")
    );
}

#[test]
fn fuel_without_metering_is_refused_and_the_instance_works() {
    let engine = engine();
    let policy = engine
        .compile(&loop_files(), CompileOptions::default())
        .unwrap();
    let options = EvalOptions {
        fuel: Some(1000),
        ..EvalOptions::default()
    };
    let Err(Error::Engine(e)) = policy.eval_with(&quick_input(), &options) else {
        panic!("accepted")
    };
    assert_eq!(
        e.message,
        "a fuel limit needs a module built with fuel metering"
    );
    assert_eq!(engine.stopped(), None);
}

#[test]
fn too_little_memory_to_start_stops_the_instance() {
    let limits = Limits {
        max_memory: 1 << 20,
        ..Limits::default()
    };
    let message = stopped_message(Engine::with_limits(module(), limits));
    assert!(
        message.starts_with("starting the Sigil module failed: "),
        "{message}"
    );
}

#[test]
fn invalid_limits_are_refused() {
    let limits = Limits {
        op_deadline: Some(Duration::ZERO),
        ..Limits::default()
    };
    let Err(Error::Engine(e)) = Engine::with_limits(module(), limits) else {
        panic!("accepted")
    };
    assert_eq!(e.message, "Limits::op_deadline must be positive, got 0 ms");
}

#[test]
fn a_trap_stops_the_instance_and_quotes_stderr() {
    let module = Module::from_bytes(&wat("engine_traps")).unwrap();
    let engine = Engine::new(&module).unwrap();
    let message = stopped_message(engine.version());
    assert!(
        message.starts_with("the Sigil module stopped: it trapped: "),
        "{message}"
    );
    assert!(
        message.ends_with("\nfatal: the engine broke\nat engine_call"),
        "{message}"
    );
    assert_eq!(engine.stopped().map(|s| s.message), Some(message.clone()));
    assert_eq!(
        stopped_message(engine.version()),
        message,
        "the same error every time"
    );
}

#[test]
fn an_op_that_never_returns_is_killed_at_the_op_deadline() {
    let module = Module::from_bytes(&wat("engine_loops")).unwrap();
    let limits = Limits {
        op_deadline: Some(Duration::from_millis(10)),
        ..Limits::default()
    };
    let engine = Engine::with_limits(&module, limits).unwrap();
    assert_eq!(
        engine.version().unwrap_err(),
        Error::Timeout(Duration::from_millis(10))
    );
    assert_eq!(
        stopped_message(engine.format("x", &FormatOptions::default())),
        "the Sigil module stopped earlier: a call ran past its hard deadline and was killed"
    );
}
