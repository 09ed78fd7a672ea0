//! Host functions: Rust code a policy calls through `engine.host_call` while it evaluates.

use std::fmt::Display;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

type RawFn = dyn Fn(&[Value]) -> Result<Value, String> + Send + Sync;

/// A shared function from the call's JSON arguments to a value or an error message.
///
/// It runs on the calling thread inside `eval`. An `Err` or a panic fails the evaluation with a
/// runtime error that quotes the message.
#[derive(Clone)]
pub struct HostFunction(Arc<RawFn>);

impl std::fmt::Debug for HostFunction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HostFunction")
    }
}

impl HostFunction {
    /// Runs the function; a panic becomes an `Err` with its message.
    pub fn call(&self, args: &[Value]) -> Result<Value, String> {
        match catch_unwind(AssertUnwindSafe(|| (self.0)(args))) {
            Ok(result) => result,
            Err(panic) => Err(panic_message(panic.as_ref())),
        }
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        format!("the host function panicked: {text}")
    } else if let Some(text) = panic.downcast_ref::<String>() {
        format!("the host function panicked: {text}")
    } else {
        "the host function panicked".into()
    }
}

/// A host function over raw JSON values.
pub fn host_fn<F>(f: F) -> HostFunction
where
    F: Fn(&[Value]) -> Result<Value, String> + Send + Sync + 'static,
{
    HostFunction(Arc::new(f))
}

/// A closure of 0 to 4 serde arguments returning `Result<R, E>`, usable with [`host_fn_typed`].
pub trait TypedHostFn<Args>: Send + Sync + 'static {
    /// Decodes the arguments, runs the closure and encodes its result.
    fn call_json(&self, args: &[Value]) -> Result<Value, String>;
}

fn arity(args: &[Value], expected: usize) -> Result<(), String> {
    if args.len() == expected {
        return Ok(());
    }
    let noun = if expected == 1 {
        "argument"
    } else {
        "arguments"
    };
    Err(format!("expected {expected} {noun}, got {}", args.len()))
}

fn arg<T: DeserializeOwned>(args: &[Value], index: usize) -> Result<T, String> {
    let value = args.get(index).cloned().unwrap_or(Value::Null);
    serde_json::from_value(value).map_err(|e| format!("argument {}: {e}", index + 1))
}

fn result<R: Serialize, E: Display>(value: Result<R, E>) -> Result<Value, String> {
    let value = value.map_err(|e| e.to_string())?;
    serde_json::to_value(value).map_err(|e| format!("the result can't be encoded as JSON: {e}"))
}

macro_rules! typed_host_fn {
    ($count:expr; $($arg:ident $index:tt),*) => {
        impl<F, R, E, $($arg),*> TypedHostFn<($($arg,)*)> for F
        where
            F: Fn($($arg),*) -> Result<R, E> + Send + Sync + 'static,
            R: Serialize,
            E: Display,
            $($arg: DeserializeOwned,)*
        {
            fn call_json(&self, args: &[Value]) -> Result<Value, String> {
                arity(args, $count)?;
                result(self($(arg::<$arg>(args, $index)?),*))
            }
        }
    };
}

typed_host_fn!(0;);
typed_host_fn!(1; A 0);
typed_host_fn!(2; A 0, B 1);
typed_host_fn!(3; A 0, B 1, C 2);
typed_host_fn!(4; A 0, B 1, C 2, D 3);

/// A host function from a closure of 0 to 4 arguments, each deserialized with serde, whose
/// `Ok` is serialized as the result. A wrong number of arguments, or an argument of the wrong
/// type, fails the call with a message that names the argument.
pub fn host_fn_typed<Args, F: TypedHostFn<Args>>(f: F) -> HostFunction {
    HostFunction(Arc::new(move |args: &[Value]| f.call_json(args)))
}

/// One host call the module sends: `{"function": name, "args": [...]}`.
#[derive(serde::Deserialize)]
struct Call {
    #[serde(default)]
    function: String,
    #[serde(default)]
    args: Vec<Value>,
}

/// Answers one host call request with the named function out of `functions`.
pub(crate) fn answer(request: &[u8], find: impl Fn(&str) -> Option<HostFunction>) -> Vec<u8> {
    let call: Call = match serde_json::from_slice(request) {
        Ok(call) => call,
        Err(e) => return error(&format!("the module's host call isn't readable: {e}")),
    };
    let Some(function) = find(&call.function) else {
        return error(&format!("no host function {} is registered", call.function));
    };
    match function.call(&call.args) {
        Ok(value) => {
            let mut out = Map::new();
            out.insert("result".into(), value);
            serde_json::to_vec(&Value::Object(out)).unwrap_or_else(|e| error(&e.to_string()))
        }
        Err(message) => error(&message),
    }
}

fn error(message: &str) -> Vec<u8> {
    let mut out = Map::new();
    out.insert("error".into(), Value::String(message.into()));
    serde_json::to_vec(&Value::Object(out)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answered(request: &str, f: HostFunction) -> String {
        String::from_utf8(answer(request.as_bytes(), |name| {
            (name == "f").then(|| f.clone())
        }))
        .unwrap()
    }

    #[test]
    fn a_raw_function_gets_the_json_arguments() {
        let f = host_fn(|args| Ok(json!(args.len())));
        assert_eq!(
            answered(r#"{"function":"f","args":[1,"a"]}"#, f),
            r#"{"result":2}"#
        );
    }

    #[test]
    fn a_null_result_is_written_as_null() {
        let f = host_fn(|_| Ok(Value::Null));
        assert_eq!(
            answered(r#"{"function":"f","args":[]}"#, f),
            r#"{"result":null}"#
        );
    }

    #[test]
    fn typed_functions_take_zero_to_four_arguments() {
        let zero = host_fn_typed(|| Ok::<_, String>("z"));
        let one = host_fn_typed(|a: i64| Ok::<_, String>(a + 1));
        let two = host_fn_typed(|a: String, b: bool| Ok::<_, String>(format!("{a}{b}")));
        let three = host_fn_typed(|a: i64, b: i64, c: i64| Ok::<_, String>(a + b + c));
        let four = host_fn_typed(|a: Vec<i64>, b: Option<i64>, c: f64, d: String| {
            Ok::<_, String>(json!([a, b, c, d]))
        });
        assert_eq!(zero.call(&[]), Ok(json!("z")));
        assert_eq!(one.call(&[json!(1)]), Ok(json!(2)));
        assert_eq!(two.call(&[json!("x"), json!(true)]), Ok(json!("xtrue")));
        assert_eq!(three.call(&[json!(1), json!(2), json!(3)]), Ok(json!(6)));
        assert_eq!(
            four.call(&[json!([1]), json!(null), json!(1.5), json!("d")]),
            Ok(json!([[1], null, 1.5, "d"]))
        );
    }

    #[test]
    fn a_wrong_number_of_arguments_fails_the_call() {
        let one = host_fn_typed(|a: i64| Ok::<_, String>(a));
        assert_eq!(one.call(&[]), Err("expected 1 argument, got 0".into()));
        let two = host_fn_typed(|a: i64, b: i64| Ok::<_, String>(a + b));
        assert_eq!(
            two.call(&[json!(1)]),
            Err("expected 2 arguments, got 1".into())
        );
    }

    #[test]
    fn an_argument_of_the_wrong_type_is_named() {
        let f = host_fn_typed(|_a: i64, _b: String| Ok::<_, String>(true));
        assert_eq!(
            f.call(&[json!(1), json!(2)]),
            Err("argument 2: invalid type: integer `2`, expected a string".into())
        );
    }

    #[test]
    fn an_err_or_a_panic_becomes_the_error_answer() {
        let failing = host_fn_typed(|| Err::<bool, _>("service down"));
        assert_eq!(
            answered(r#"{"function":"f","args":[]}"#, failing),
            r#"{"error":"service down"}"#
        );
        let panicking = host_fn(|_| panic!("boom"));
        assert_eq!(
            answered(r#"{"function":"f","args":[]}"#, panicking),
            r#"{"error":"the host function panicked: boom"}"#
        );
    }

    #[test]
    fn an_unknown_function_or_an_unreadable_call_is_an_error_answer() {
        let f = host_fn(|_| Ok(Value::Null));
        assert_eq!(
            answered(r#"{"function":"g","args":[]}"#, f.clone()),
            r#"{"error":"no host function g is registered"}"#
        );
        assert!(
            answered("{", f).starts_with(r#"{"error":"the module's host call isn't readable: "#)
        );
    }

    #[test]
    fn a_result_that_cant_be_json_is_an_error() {
        let f = host_fn_typed(|| Ok::<_, String>(std::collections::HashMap::from([((1, 2), 3)])));
        assert_eq!(
            f.call(&[]),
            Err("the result can't be encoded as JSON: key must be a string".into())
        );
    }
}
