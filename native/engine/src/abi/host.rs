//! The module's host (module-abi §9): the host functions a compile named in
//! `functions` run through the import `engine.host_call`, one JSON request
//! and one JSON answer per call.
//!
//! The request `{"function": «name», "args": [«arg», …]}` stays alive while
//! the host runs; its answer is a buffer the host allocated with
//! `engine_alloc`, which this module reads and frees. Every way the answer
//! can be wrong is the call's failure, never a trap.

use std::cell::RefCell;
use std::collections::BTreeSet;

use super::buffers::{Buffers, PinnedRequest};
use crate::data::{Data, Syntax, parse_checked_json, parse_json};
use crate::eval::{Host, HostError};
use crate::kind::{FnDef, Kind};
use crate::value::Value;
use crate::wire::scan_first_value;

/// The help of an answer that breaks the protocol.
const PROTOCOL_HELP: &str = r#"the host answers a call with {"result": ...} or {"error": "..."}"#;

/// Host functions: those in `functions` go to the module's host, every
/// other one to `fallback`.
pub(crate) struct ModuleHost<'a, H: Host> {
    /// The kind the functions are declared in: results decode by it.
    pub(crate) kind: &'a Kind,
    /// The names the host implements.
    pub(crate) functions: &'a BTreeSet<String>,
    /// The instance's buffers: the request is pinned in them, the answer
    /// taken from them.
    pub(crate) buffers: &'a RefCell<Buffers>,
    /// What answers every other function.
    pub(crate) fallback: H,
}

impl<H: Host> Host for ModuleHost<'_, H> {
    fn call(&mut self, function: &FnDef, args: &[Value]) -> Result<Value, HostError> {
        if !self.functions.contains(&function.name) {
            return self.fallback.call(function, args);
        }
        let request = request(function, args)?;
        let answer = exchange(self.buffers, request).ok_or_else(|| HostError {
            text: "no host is attached to run it".to_owned(),
            help: Some(format!(
                "the engine runs without a host; stub {} instead",
                function.name
            )),
        })??;
        read_answer(answer.bytes(), function, self.kind)
    }
}

/// `{"function":…,"args":[…]}`, args encoded as payload values are.
fn request(function: &FnDef, args: &[Value]) -> Result<Vec<u8>, HostError> {
    // Room for the usual request: a name and a few short args, without growing.
    let mut out = String::with_capacity(64 + function.name.len());
    out.push_str(r#"{"function":"#);
    crate::wire::write_str(&function.name, &mut out);
    out.push_str(r#","args":["#);
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        crate::wire::write_value(arg, &mut out).map_err(|e| HostError {
            text: format!("its args can't be sent as JSON: {e}"),
            help: Some(
                "JSON has no infinite or NaN float; keep them out of a host function's args"
                    .to_owned(),
            ),
        })?;
    }
    out.push_str("]}");
    Ok(out.into_bytes())
}

/// Runs one host call: `None` when no host is attached, the failure when
/// its answer isn't a buffer from `engine_alloc`, else the answer's bytes
/// (whose buffer is already freed).
fn exchange(
    buffers: &RefCell<Buffers>,
    request: Vec<u8>,
) -> Option<Result<PinnedRequest, HostError>> {
    let packed = call_host(buffers, request)?.cast_unsigned();
    let (answer, answer_len) = ((packed >> 32) as u32, (packed & 0xffff_ffff) as u32);
    Some(taken(buffers, answer, answer_len))
}

/// Hands the host the request where it lies in linear memory, alive until
/// the host returns. It isn't pinned in the registry: the host never frees
/// it, and if it did, freeing an address that isn't pinned does nothing.
#[cfg(target_arch = "wasm32")]
fn call_host(_: &RefCell<Buffers>, request: Vec<u8>) -> Option<i64> {
    let len = i32::try_from(request.len()).unwrap_or(i32::MAX);
    // wasm32 addresses are 32 bits: the conversion never fails.
    let address = u32::try_from(request.as_ptr().expose_provenance()).unwrap_or(0);
    super::exports::host_call(address.cast_signed(), len)
}

/// Natively an address is a token only the registry resolves, so the
/// request is pinned while the host runs.
#[cfg(not(target_arch = "wasm32"))]
fn call_host(buffers: &RefCell<Buffers>, request: Vec<u8>) -> Option<i64> {
    let len = i32::try_from(request.len()).unwrap_or(i32::MAX);
    // The registry isn't borrowed while the host runs: it allocates the
    // answer with engine_alloc meanwhile.
    let address = buffers.borrow_mut().pin(request);
    let packed = super::exports::host_call(address.cast_signed(), len);
    buffers.borrow_mut().free(address);
    packed
}

/// The answer buffer at `address`, unpinned: the module owns it now.
fn taken(buffers: &RefCell<Buffers>, address: u32, len: u32) -> Result<PinnedRequest, HostError> {
    let len = i32::try_from(len).unwrap_or(-1);
    let mut buffers = buffers.borrow_mut();
    let answer = buffers.request(address, len);
    if answer.is_some() {
        buffers.free(address);
    }
    answer.ok_or_else(|| HostError {
        text: "host_call returned memory it didn't allocate with engine_alloc".to_owned(),
        help: None,
    })
}

/// The host's answer: its `error` (which wins), else its `result` decoded
/// as the function's result type.
fn read_answer(answer: &[u8], function: &FnDef, kind: &Kind) -> Result<Value, HostError> {
    if let Some(result) = plain_result(answer) {
        return decode_result(&result, function, kind);
    }
    let protocol = |text: String, help: String| HostError {
        text,
        help: Some(help),
    };
    let data = parse_json(answer).map_err(|e| {
        protocol(
            format!("the host's answer isn't a JSON object: {e}"),
            PROTOCOL_HELP.to_owned(),
        )
    })?;
    let Data::Object(members) = &data else {
        return Err(protocol(
            format!(
                "the host's answer isn't a JSON object: found {}",
                data.found()
            ),
            PROTOCOL_HELP.to_owned(),
        ));
    };
    let member = |key: &str| members.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    match (member("error"), member("result")) {
        (Some(Data::String(text)), _) => Err(HostError {
            text: text.clone(),
            help: None,
        }),
        (Some(_), _) => Err(protocol(
            "the host answered with an error that isn't a string".to_owned(),
            PROTOCOL_HELP.to_owned(),
        )),
        (None, Some(result)) => decode_result(result, function, kind),
        (None, None) => Err(protocol(
            "the host answered with neither a result nor an error".to_owned(),
            format!("{PROTOCOL_HELP}; a null result is {{\"result\": null}}"),
        )),
    }
}

/// The result of an answer that is just `{"result":«value»}`, compact, as
/// hosts write it: read without building the object around it. `None` for
/// any other answer, which [`read_answer`] reads whole.
fn plain_result(answer: &[u8]) -> Option<Data> {
    let value = answer.strip_prefix(br#"{"result":"#)?.strip_suffix(b"}")?;
    // One value fills the object, and the object is JSON as `parse_json`
    // checks it: its nesting counts from the object's own level.
    let single = scan_first_value(value).ok()? == (0, value.len());
    let whole = scan_first_value(answer).ok()? == (0, answer.len());
    (single && whole).then(|| parse_checked_json(value))
}

/// A result is read as an input value of the declared result type.
fn decode_result(result: &Data, function: &FnDef, kind: &Kind) -> Result<Value, HostError> {
    crate::input::decode_value(result, Syntax::Json, &function.result, kind, "result").map_err(
        |e| HostError {
            text: format!("the host returned {}", e.message),
            help: Some(format!(
                "the kind declares `{}`; return a value of its result type",
                function.signature()
            )),
        },
    )
}
