//! The seam through which an evaluation calls host functions
//! (module-abi §9, §10): the module's host, stubs, or neither.

use crate::kind::FnDef;
use crate::value::Value;

/// What a host function answered when it failed: the text after
/// `host function «f» failed: `, and advice when there is some.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostError {
    /// What went wrong.
    pub text: String,
    /// What to do, when the failure has its own advice.
    pub help: Option<String>,
}

/// Runs a policy's host function calls.
pub trait Host {
    /// Calls `function` with `args` (already evaluated, in order).
    fn call(&mut self, function: &FnDef, args: &[Value]) -> Result<Value, HostError>;
}

/// Host functions no stub and no host implements: calling one is a
/// runtime error, as in the stock command line (module-abi §4.3 step 5).
#[derive(Clone, Copy, Debug, Default)]
pub struct Unbound;

impl Host for Unbound {
    fn call(&mut self, function: &FnDef, _args: &[Value]) -> Result<Value, HostError> {
        let name = &function.name;
        Err(HostError {
            text: "no implementation in this sigil binary".to_owned(),
            help: Some(format!(
                "this sigil binary has only {name}'s signature from the kind file; stub it with `stubs:` in the test file or `--stub {name}=VALUE` on sigil eval, or evaluate with a host binary built with sigil's pkg/cli, which links the real function in"
            )),
        })
    }
}
