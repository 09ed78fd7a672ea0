//! The `async_rt` variants on a tokio runtime.
#![cfg(feature = "async_rt")]
#![allow(clippy::unwrap_used, reason = "fixtures of the tests stop loudly")]

mod common;

use std::sync::Arc;

use common::*;
use serde_json::json;
use svc_engine::*;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

#[test]
fn a_pool_compiles_and_evaluates_asynchronously() {
    let pool = Pool::new(module(), 1).unwrap();
    runtime().block_on(async {
        pool.compile_async("refunds", refund_files(), CompileOptions::default())
            .await
            .unwrap();
        let result = pool
            .evaluate_async(
                "refunds",
                json!({"amount": 40, "channel": "web"}),
                EvalOptions::default(),
            )
            .await
            .unwrap();
        assert_eq!(result.decision.as_deref(), Some("approve"));
        let missing = pool
            .evaluate_async("nope", json!({}), EvalOptions::default())
            .await
            .unwrap_err();
        assert_eq!(missing, Error::NoPolicy("nope".into()));
    });
}

#[test]
fn a_policy_evaluates_asynchronously() {
    let policy = Arc::new(
        engine()
            .compile(&refund_files(), CompileOptions::default())
            .unwrap(),
    );
    let result = runtime()
        .block_on(policy.eval_async(
            json!({"amount": 20000, "channel": "web"}),
            EvalOptions::default(),
        ))
        .unwrap();
    assert_eq!(result.reason.as_deref(), Some("fraud"));
}

/// An input whose serializer panics: the panic comes back as an error, not through the runtime.
struct Exploding;

impl serde::Serialize for Exploding {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        panic!("the serializer broke")
    }
}

#[test]
fn a_panic_on_the_blocking_pool_is_an_engine_error() {
    let policy = Arc::new(
        engine()
            .compile(&refund_files(), CompileOptions::default())
            .unwrap(),
    );
    let error = runtime()
        .block_on(policy.eval_async(Exploding, EvalOptions::default()))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the evaluation panicked: the serializer broke"
    );
}
