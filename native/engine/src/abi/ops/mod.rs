//! The ops (module-abi.md §4), one function each in a module of its own,
//! chosen by the request's op. An op takes its own typed request (and the
//! instance, when it reads or stores compiled policies) and answers a
//! [`Success`] or an [`EngineError`]. What several ops share (the project of
//! a request's files, failures carrying diagnostics) is in `project`.

mod check;
mod explain;
mod format;
mod policy;
mod project;
mod test;

use super::error::EngineError;
use super::instance::Instance;
use super::op_request::OpRequest;
use super::response::Success;

/// Runs the request's op on `instance`.
pub(crate) fn run(instance: &Instance, request: OpRequest<'_>) -> Result<Success, EngineError> {
    match request {
        OpRequest::Version => Ok(Success::Version),
        OpRequest::Check(mut request) => check::check(&mut request),
        OpRequest::Compile(mut request) => policy::compile(instance, &mut request),
        OpRequest::Eval(request) => policy::eval(instance, &request),
        OpRequest::Explain(mut request) => explain::explain(instance, &mut request),
        OpRequest::Format(request) => format::format(&request),
        OpRequest::Test(request) => test::test(&request),
        OpRequest::Release(handle) => policy::release(instance, handle),
        #[cfg(any(test, feature = "panic-probe"))]
        OpRequest::PanicProbe => panic_probe(),
        OpRequest::Unknown(op) => Err(EngineError::unknown_op(&op)),
    }
}

#[cfg(any(test, feature = "panic-probe"))]
#[expect(clippy::panic, reason = "this op exists to panic")]
fn panic_probe() -> Result<Success, EngineError> {
    panic!("the panic-probe op panics on purpose")
}
