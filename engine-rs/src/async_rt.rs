//! The `async_rt` feature: the blocking calls on tokio's blocking pool, for async services.

use std::sync::Arc;

use serde::Serialize;

use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::options::{CompileOptions, EvalOptions, SourceFile};
use crate::pool::Pool;
use crate::records::EvalResult;

/// Runs `call` on the runtime's blocking pool.
async fn blocking<T: Send + 'static>(
    call: impl FnOnce() -> Result<T> + Send + 'static,
) -> Result<T> {
    match tokio::task::spawn_blocking(call).await {
        Ok(result) => result,
        Err(error) if error.is_panic() => {
            let panic = error.into_panic();
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(Error::engine(
                format!("the evaluation panicked: {message}"),
                "host function panics are caught elsewhere; this came from e.g. the input's serializer",
            ))
        }
        Err(_) => Err(Error::engine(
            "the blocking task was cancelled",
            "keep the runtime running until the call ends",
        )),
    }
}

impl Policy {
    /// [`Policy::eval_with`] on the runtime's blocking pool.
    pub async fn eval_async<I: Serialize + Send + 'static>(
        self: Arc<Self>,
        input: I,
        options: EvalOptions,
    ) -> Result<EvalResult> {
        blocking(move || self.eval_with(&input, &options)).await
    }
}

impl Pool {
    /// [`Pool::evaluate`] on the runtime's blocking pool.
    pub async fn evaluate_async<I: Serialize + Send + 'static>(
        &self,
        name: &str,
        input: I,
        options: EvalOptions,
    ) -> Result<EvalResult> {
        let (pool, name) = (self.clone(), name.to_owned());
        blocking(move || pool.evaluate(&name, &input, &options)).await
    }

    /// [`Pool::compile`] on the runtime's blocking pool.
    pub async fn compile_async(
        &self,
        name: &str,
        files: Vec<SourceFile>,
        options: CompileOptions,
    ) -> Result<()> {
        let (pool, name) = (self.clone(), name.to_owned());
        blocking(move || pool.compile(name, files, options)).await
    }
}
