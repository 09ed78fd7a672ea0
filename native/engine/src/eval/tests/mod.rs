//! One small test per semantic rule of evaluation (issue #5): each compiles
//! a tiny kind and policy written inline through the module's `compile` op,
//! evaluates an input with `eval`, and reads the eval record
//! (language-policies §7–8, tooling §6.2) — the path a host takes.
//!
//! * `resolve.rs`: precedence, reason ranking, folding, exclusive sets, the
//!   conflict outcome, the default, collecting kinds.
//! * `asserts.rs`: input and outcome asserts.
//! * `runtime_errors.rs`: every runtime error, its message, position and
//!   help, and what it falls back to; cancellation.
//! * `values.rs`: optionals, quantifiers and filters, membership, maps,
//!   durations, timestamps.
//! * `invocation.rs`: invoked policies, their params and bounds, and the
//!   conditions carried into their candidates.

mod asserts;
mod invocation;
mod resolve;
mod runtime_errors;
mod values;

use crate::data::Data;

/// The path of the kind file in every test bundle.
const KIND_FILE: &str = "kind.sigil";

/// The path of the policy file of a one-policy bundle: it spells the
/// policy `p`, so positions print without a document name.
const POLICY_FILE: &str = "p.sigil";

/// A `collect all` kind without precedence or default, shared by the
/// areas whose rules differ for collecting kinds.
pub(super) const GRANTS: &str = "kind Grants version 1

input n: int

decision grant {
  reason: team | oncall
  tool: string
}

decision log {
  reason: audit
}

collect all
";

/// A JSON string holding `text`.
fn quoted(text: &str) -> String {
    let mut out = String::new();
    crate::wire::write_string(text.as_bytes(), &mut out);
    out
}

/// Answers one request through the module's entry point.
fn answer(request: &str) -> String {
    String::from_utf8(crate::abi::handle(request.as_bytes()))
        .unwrap_or_else(|e| panic!("a response that isn't UTF-8: {e}"))
}

/// The `files` of a compile request: the kind, then the policy files.
fn files_json(kind: &str, policies: &[(&str, &str)]) -> String {
    let files: Vec<String> = std::iter::once((KIND_FILE, kind))
        .chain(policies.iter().copied())
        .map(|(path, source)| format!(r#"{{"path":{},"source":{}}}"#, quoted(path), quoted(source)))
        .collect();
    format!("[{}]", files.join(","))
}

/// What a compile request needs beyond the files.
#[derive(Default)]
struct Options<'a> {
    /// The root policy, when the bundle has several.
    root: Option<&'a str>,
    /// The `stubs` object, as JSON.
    stubs: Option<&'a str>,
}

/// The response to compiling `policies` (path, source) against `kind`.
fn compile_response(kind: &str, policies: &[(&str, &str)], options: &Options<'_>) -> String {
    let mut request = format!(r#"{{"op":"compile","files":{}"#, files_json(kind, policies));
    if let Some(root) = options.root {
        request.push_str(&format!(r#","policy":{}"#, quoted(root)));
    }
    if let Some(stubs) = options.stubs {
        request.push_str(&format!(r#","stubs":{stubs}"#));
    }
    request.push('}');
    answer(&request)
}

/// A compiled policy, released when the test drops it.
pub(super) struct Compiled {
    handle: String,
}

impl Compiled {
    /// Evaluates the JSON object `input` (keys left out read as zero
    /// values), failing the test when the op itself fails.
    pub(super) fn eval(&self, input: &str) -> Record {
        let response = answer(&format!(
            r#"{{"op":"eval","handle":{},"input":{input}}}"#,
            self.handle
        ));
        let record = response
            .strip_prefix(r#"{"ok":true,"#)
            .unwrap_or_else(|| panic!("the eval op failed: {response}"));
        Record::new(format!("{{{record}"))
    }
}

impl Drop for Compiled {
    fn drop(&mut self) {
        answer(&format!(r#"{{"op":"release","handle":{}}}"#, self.handle));
    }
}

/// Compiles `policy` (in `p.sigil`) against `kind`.
pub(super) fn policy(kind: &str, policy: &str) -> Compiled {
    bundle(kind, &[(POLICY_FILE, policy)], &Options::default())
}

/// Compiles the policy `p` with `body` after its header, against `kind`.
pub(super) fn body(kind: &str, body: &str) -> Compiled {
    let name = kind
        .strip_prefix("kind ")
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no kind header in {kind}"));
    policy(kind, &format!("policy p: {name}@1\n\n{body}"))
}

/// Evaluates `{}` with every constructor of `constructors` in one
/// `when true` block of a policy against `kind`.
pub(super) fn firing(kind: &str, constructors: &[&str]) -> Record {
    let lines: Vec<String> = constructors.iter().map(|c| format!("  {c}\n")).collect();
    body(kind, &format!("when true {{\n{}}}\n", lines.concat())).eval("{}")
}

/// Compiles `policy` against `kind` with the `stubs` object (JSON).
pub(super) fn stubbed(kind: &str, policy: &str, stubs: &str) -> Compiled {
    let options = Options {
        stubs: Some(stubs),
        ..Options::default()
    };
    bundle(kind, &[(POLICY_FILE, policy)], &options)
}

/// Compiles the policy `root` of the bundle `policies` against `kind`.
pub(super) fn rooted(kind: &str, policies: &[(&str, &str)], root: &str) -> Compiled {
    let options = Options {
        root: Some(root),
        ..Options::default()
    };
    bundle(kind, policies, &options)
}

fn bundle(kind: &str, policies: &[(&str, &str)], options: &Options<'_>) -> Compiled {
    let response = compile_response(kind, policies, options);
    let data = parse(&response);
    let Some(handle) = member(&data, "handle") else {
        panic!("the bundle doesn't compile: {response}");
    };
    Compiled {
        handle: compact(handle),
    }
}

/// The `error` of a compile that must fail, as a record to read.
pub(super) fn compile_failure(kind: &str, policies: &[(&str, &str)], root: &str) -> Record {
    let options = Options {
        root: Some(root),
        ..Options::default()
    };
    let response = compile_response(kind, policies, &options);
    assert!(
        response.starts_with(r#"{"ok":false,"#),
        "the bundle compiled: {response}"
    );
    Record::new(response)
}

/// An eval record (the response without its envelope), exact and parsed.
pub(super) struct Record {
    /// The record's JSON, as the module wrote it.
    pub(super) json: String,
    data: Data,
}

impl Record {
    fn new(json: String) -> Record {
        let data = parse(&json);
        Record { json, data }
    }

    /// The value at `path` (members and list indexes joined by `.`): a
    /// string's text, or any other value as compact JSON; `None` when the
    /// record has nothing there.
    pub(super) fn get(&self, path: &str) -> Option<String> {
        let mut at = &self.data;
        for step in path.split('.') {
            at = match at {
                Data::List(items) => items.get(step.parse::<usize>().ok()?)?,
                _ => member(at, step)?,
            };
        }
        Some(match at {
            Data::String(text) => text.clone(),
            other => compact(other),
        })
    }

    /// The value at `path`, failing the test when there is none.
    pub(super) fn at(&self, path: &str) -> String {
        self.get(path)
            .unwrap_or_else(|| panic!("no {path} in {}", self.json))
    }

    /// The record's single decision as `decision.reason`, or `None` when
    /// it has none (a collecting kind).
    pub(super) fn decision(&self) -> Option<String> {
        Some(format!("{}.{}", self.get("decision")?, self.get("reason")?))
    }

    /// The single decision of a successful evaluation, failing the test
    /// when it failed.
    pub(super) fn winner(&self) -> String {
        assert_eq!(self.error_kind(), None, "{}", self.json);
        self.decision()
            .unwrap_or_else(|| panic!("no decision in {}", self.json))
    }

    /// The strings of the list at `path`.
    pub(super) fn texts(&self, path: &str) -> Vec<String> {
        (0..)
            .map_while(|i| self.get(&format!("{path}.{i}")))
            .collect()
    }

    /// The entries of the list at `path` as `decision.reason`.
    pub(super) fn entries(&self, path: &str) -> Vec<String> {
        (0..)
            .map_while(|i| {
                Some(format!(
                    "{}.{}",
                    self.get(&format!("{path}.{i}.decision"))?,
                    self.get(&format!("{path}.{i}.reason"))?
                ))
            })
            .collect()
    }

    /// The outcome entries as `decision.reason`.
    pub(super) fn outcome(&self) -> Vec<String> {
        self.entries("outcome")
    }

    /// The trace entries as `decision.reason`, winners first.
    pub(super) fn trace(&self) -> Vec<String> {
        self.entries("trace")
    }

    /// The error's kind, or `None` when the evaluation succeeded.
    pub(super) fn error_kind(&self) -> Option<String> {
        self.get("error.kind")
    }
}

fn parse(json: &str) -> Data {
    crate::data::parse_json(json.as_bytes()).unwrap_or_else(|e| panic!("{e}: {json}"))
}

fn member<'d>(data: &'d Data, name: &str) -> Option<&'d Data> {
    match data {
        Data::Object(members) => members.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    }
}

/// `data` as compact JSON, strings escaped as the record escapes them.
fn compact(data: &Data) -> String {
    match data {
        Data::Null => "null".to_owned(),
        Data::Bool(b) => b.to_string(),
        Data::Number(n) => n.clone(),
        Data::String(s) => quoted(s),
        Data::List(items) => {
            let items: Vec<String> = items.iter().map(compact).collect();
            format!("[{}]", items.join(","))
        }
        Data::Object(members) => {
            let members: Vec<String> = members
                .iter()
                .map(|(k, v)| format!("{}:{}", quoted(k), compact(v)))
                .collect();
            format!("{{{}}}", members.join(","))
        }
    }
}
