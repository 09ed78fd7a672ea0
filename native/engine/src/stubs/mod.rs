//! Stubs bound to a kind (tooling §7.4, module-abi §10): the stubs a test
//! file, a case or a compile request writes ([`testfile::Stubs`], read by
//! `testfile/stubs.rs`) checked against the kind's host functions, their
//! values decoded by the declared types, and a [`Host`] that answers calls
//! from them.
//!
//! [`bind`] reports every problem with its line: a function the kind
//! doesn't declare, a call entry with the wrong number of args, a value
//! that doesn't decode into its type, a null where the type can't be null.
//! [`StubHost`] answers a stubbed function's calls (the first entry whose
//! args equal the call's, else the stub's own result, else `no stubbed
//! call matches …`) and hands every other function to the host it wraps,
//! so a module's own host functions can sit behind the stubs.
//!
//! Where things are: `typed.rs` (stub values read by their types), this
//! file (binding and answering).

mod typed;

#[cfg(test)]
mod tests;

use crate::data::Syntax;
use crate::diag::{did_you_mean, merge_help};
use crate::eval::{Host, HostError, equal};
use crate::input::decode_value;
use crate::kind::{FnDef, Kind};
use crate::testfile::{self, Answer, Problem};
use crate::types::Ty;
use crate::value::Value;
use crate::yaml::Node;

/// The help of a call no entry of its stub's `calls` matches.
const UNMATCHED_HELP: &str = "add these args under the stub's calls, or give the stub a returns or error for every other call";

/// The help of a call a stub's `error:` fails.
const STUB_ERROR_HELP: &str = "the stub's error: fails the call, as the host function failing would; a test case expects it with `expect: {error: ...}`";

/// The help of a stub value that is null where its type can't be.
const NULL_HELP: &str = "write a value of that type; only an optional, a list or a map may be null";

/// Stubs whose functions the kind declares and whose values have the
/// declared types: ready to answer calls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoundStubs {
    functions: Vec<BoundStub>,
}

/// One function's stub, bound.
#[derive(Clone, Debug, PartialEq)]
struct BoundStub {
    function: String,
    /// What a call no entry matches gets; `None`: it fails as unmatched.
    otherwise: Option<Reply>,
    /// The entries of `calls`: args, one per param, and what they get.
    calls: Vec<(Vec<Value>, Reply)>,
}

/// What a stubbed call gets, decoded.
#[derive(Clone, Debug, PartialEq)]
enum Reply {
    Returns(Value),
    Fails(String),
}

impl BoundStubs {
    /// Whether no function is stubbed.
    pub fn is_empty(&self) -> bool {
        self.functions.is_empty()
    }

    /// Whether `function` is stubbed.
    pub fn stubs(&self, function: &str) -> bool {
        self.get(function).is_some()
    }

    fn get(&self, function: &str) -> Option<&BoundStub> {
        self.functions.iter().find(|s| s.function == function)
    }
}

/// Binds `stubs` to `kind`: every stub's function must be a host function
/// of the kind, every call entry must pass one arg per param, and every
/// value must decode into its declared type (a scalar read as its text
/// where the type is a string or an enum). Functions are bound in name
/// order and the problems sorted by line (stable), as the reference
/// reports them; any problem means nothing is bound. The problems name no
/// case: the caller says whose stubs they were.
pub fn bind(stubs: &testfile::Stubs, kind: &Kind) -> Result<BoundStubs, Vec<Problem>> {
    let mut sorted: Vec<&testfile::Stub> = stubs.functions.iter().collect();
    sorted.sort_by(|a, b| a.function.cmp(&b.function));
    let mut problems = Vec::new();
    let mut functions = Vec::with_capacity(sorted.len());
    for stub in sorted {
        let binder = Binder {
            kind,
            problems: &mut problems,
        };
        if let Some(bound) = binder.stub(stub) {
            functions.push(bound);
        }
    }
    if problems.is_empty() {
        Ok(BoundStubs { functions })
    } else {
        problems.sort_by_key(|p| p.line);
        Err(problems)
    }
}

/// Binds one level of stubs, noting its problems.
struct Binder<'k, 'p> {
    kind: &'k Kind,
    problems: &'p mut Vec<Problem>,
}

impl Binder<'_, '_> {
    /// One function's stub; `None` when it has problems.
    fn stub(mut self, stub: &testfile::Stub) -> Option<BoundStub> {
        let name = &stub.function;
        let Some(function) = self.kind.func(name) else {
            self.problem(
                stub.line,
                format!("the kind has no host function {name} to stub"),
                functions_help(self.kind, name),
            );
            return None;
        };
        let before = self.problems.len();
        let what = format!("stub {name}");
        let otherwise = stub
            .otherwise
            .as_ref()
            .and_then(|answer| self.reply(function, answer, &what));
        let mut calls = Vec::with_capacity(stub.calls.len());
        for (i, call) in stub.calls.iter().enumerate() {
            let what = format!("{what}: call {}", i.saturating_add(1));
            if let Some(bound) = self.call(function, call, &what) {
                calls.push(bound);
            }
        }
        (self.problems.len() == before).then(|| BoundStub {
            function: name.clone(),
            otherwise,
            calls,
        })
    }

    /// One entry of `calls`: its args (when there is one per param) and
    /// its reply.
    fn call(
        &mut self,
        function: &FnDef,
        call: &testfile::Call,
        what: &str,
    ) -> Option<(Vec<Value>, Reply)> {
        if call.args.len() != function.params.len() {
            self.problem(
                call.line,
                format!(
                    "{what} passes {}, but {} takes {}",
                    arg_count(call.args.len()),
                    function.name,
                    function.params.len()
                ),
                format!("the kind declares `{}`", function.signature()),
            );
            return None;
        }
        let args: Vec<Option<Value>> = call
            .args
            .iter()
            .zip(&function.params)
            .enumerate()
            .map(|(i, (node, ty))| {
                self.value(node, ty, &format!("arg {}", i.saturating_add(1)), what)
            })
            .collect();
        let reply = self.reply(function, &call.answer, what);
        Some((args.into_iter().collect::<Option<Vec<Value>>>()?, reply?))
    }

    /// A stub's or entry's answer, its `returns:` decoded by the result
    /// type.
    fn reply(&mut self, function: &FnDef, answer: &Answer, what: &str) -> Option<Reply> {
        match answer {
            Answer::Fails(message) => Some(Reply::Fails(message.clone())),
            Answer::Returns(node) => self
                .value(node, &function.result, "returns", what)
                .map(Reply::Returns),
        }
    }

    /// `node` decoded as a `ty`, named `path` (`returns`, `arg 2`) in the
    /// problem `what` (`stub f: call 1`) reports when it doesn't fit.
    fn value(&mut self, node: &Node, ty: &Ty, path: &str, what: &str) -> Option<Value> {
        let data = typed::data(node, ty, self.kind);
        if matches!(data, crate::data::Data::Null) && !nullable(ty) {
            self.problem(
                node.line,
                format!("{what}: {path} is null, but its type is {ty}"),
                NULL_HELP.to_owned(),
            );
            return None;
        }
        match decode_value(&data, Syntax::Yaml, ty, self.kind, path) {
            Ok(value) => Some(value),
            Err(error) => {
                self.problem(
                    node.line,
                    format!("{what}: {}", error.message),
                    error.advice,
                );
                None
            }
        }
    }

    fn problem(&mut self, line: u32, message: String, help: String) {
        self.problems.push(Problem {
            line,
            case: None,
            message,
            help: Some(help),
        });
    }
}

/// Whether a stub value of type `ty` may be null.
fn nullable(ty: &Ty) -> bool {
    matches!(ty, Ty::Optional(_) | Ty::List(_) | Ty::Map(_, _))
}

/// `1 arg`, `2 args`.
fn arg_count(n: usize) -> String {
    match n {
        1 => "1 arg".to_owned(),
        n => format!("{n} args"),
    }
}

/// The kind's host functions, with the one nearest `name` first.
fn functions_help(kind: &Kind, name: &str) -> String {
    let names: Vec<&str> = kind.funcs.iter().map(|f| f.name.as_str()).collect();
    if names.is_empty() {
        return "the kind declares no host functions".to_owned();
    }
    merge_help([
        did_you_mean(name, names.iter().copied()).unwrap_or_default(),
        format!("the kind declares: {}", names.join(", ")),
    ])
}

/// A host that answers stubbed functions from their stubs and hands every
/// other call to the host it wraps ([`crate::eval::Unbound`] when there is
/// none).
pub struct StubHost<'s, 'h> {
    stubs: &'s BoundStubs,
    others: &'h mut dyn Host,
}

impl<'s, 'h> StubHost<'s, 'h> {
    /// Answers from `stubs`, and from `others` for the functions they
    /// don't stub.
    pub fn new(stubs: &'s BoundStubs, others: &'h mut dyn Host) -> Self {
        Self { stubs, others }
    }
}

impl Host for StubHost<'_, '_> {
    fn call(&mut self, function: &FnDef, args: &[Value]) -> Result<Value, HostError> {
        let Some(stub) = self.stubs.get(&function.name) else {
            return self.others.call(function, args);
        };
        let matched = stub
            .calls
            .iter()
            .find(|(want, _)| {
                want.len() == args.len() && want.iter().zip(args).all(|(w, a)| equal(w, a))
            })
            .map(|(_, reply)| reply);
        match matched.or(stub.otherwise.as_ref()) {
            Some(Reply::Returns(value)) => Ok(value.clone()),
            Some(Reply::Fails(message)) => Err(HostError {
                text: message.clone(),
                help: Some(STUB_ERROR_HELP.to_owned()),
            }),
            None => {
                let shown: Vec<String> = args.iter().map(Value::const_text).collect();
                Err(HostError {
                    text: format!(
                        "no stubbed call matches {}({})",
                        function.name,
                        shown.join(", ")
                    ),
                    help: Some(UNMATCHED_HELP.to_owned()),
                })
            }
        }
    }
}
