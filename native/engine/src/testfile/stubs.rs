//! Stubs (tooling §7.4): what host functions answer in a test file's
//! `stubs:`, a case's, and the compile op's `stubs` document
//! (module-abi §4.3 step 5, §10). This reads their shape; whether the
//! functions exist and the values fit their types is checked against the
//! kind when the stubs are bound.

use std::collections::HashMap;

use super::Problem;
use crate::diag::{did_you_mean, go_quote};
use crate::yaml::{Node, NodeValue, parse_node};

/// The keys a stub takes, in the order help lists them.
const STUB_KEYS: &[&str] = &["returns", "error", "calls"];

/// The keys a call entry takes, in the order help lists them.
const CALL_KEYS: &[&str] = &["args", "returns", "error"];

/// The help of every problem of a compile request's `stubs` (module-abi
/// §4.3 step 5).
pub const COMPILE_STUBS_HELP: &str = "a stub names a host function the kind declares and gives results of its type, as in a test file's stubs:";

/// The stubs of one level, by host function, in the order written; each
/// function at most once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stubs {
    /// The stubs.
    pub functions: Vec<Stub>,
}

/// The stub of one host function.
///
/// A call gets the answer of the first entry of `calls` whose args equal
/// its own, else `otherwise`, else it fails with `no stubbed call matches
/// …` (tooling §7.4). `otherwise` is `None` only when `calls` isn't empty.
#[derive(Clone, Debug, PartialEq)]
pub struct Stub {
    /// The host function's name.
    pub function: String,
    /// The line of the function's name in its document.
    pub line: u32,
    /// The answer to a call no entry of `calls` matches: the stub's own
    /// `returns:` or `error:`.
    pub otherwise: Option<Answer>,
    /// Answers for particular args, tried in order.
    pub calls: Vec<Call>,
}

/// One entry of a stub's `calls:`.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The line of the entry.
    pub line: u32,
    /// One value per param, as written: decoding them by the params'
    /// types reads a scalar as its text where the type is a string or an
    /// enum (tooling §7.4), and problems point at their lines.
    pub args: Vec<Node>,
    /// What a call with these args gets.
    pub answer: Answer,
}

/// What a stubbed call gets.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// `returns:`: the result, as written (null included).
    Returns(Node),
    /// `error:`: the call fails with this message.
    Fails(String),
}

impl Stubs {
    /// Whether no function is stubbed.
    pub fn is_empty(&self) -> bool {
        self.functions.is_empty()
    }

    /// The stub of `function`, if any.
    pub fn get(&self, function: &str) -> Option<&Stub> {
        self.functions.iter().find(|s| s.function == function)
    }

    /// These stubs with `over`'s replacing them function by function: a
    /// case's stubs over its file's (tooling §7.2). A function only `over`
    /// stubs comes after the others.
    pub fn overridden_by(&self, over: &Stubs) -> Stubs {
        let mut functions: Vec<Stub> = self
            .functions
            .iter()
            .map(|stub| over.get(&stub.function).unwrap_or(stub).clone())
            .collect();
        for stub in &over.functions {
            if self.get(&stub.function).is_none() {
                functions.push(stub.clone());
            }
        }
        Stubs { functions }
    }
}

/// Reads the stubs document of a compile request (module-abi §4.3 step
/// 5): YAML or JSON holding one stubs object; empty or `null` means no
/// stubs. The problems, sorted by line, are each shown as
/// `stubs: «text»` ([`Problem::text`]), with [`COMPILE_STUBS_HELP`] as the
/// request's help.
pub fn read_stubs(text: &str) -> Result<Stubs, Vec<Problem>> {
    match parse_node(text) {
        Ok(Some(node)) => stubs_from_node(&node),
        Ok(None) => Ok(Stubs::default()),
        Err(error) => Err(vec![Problem {
            line: 0,
            case: None,
            message: format!("not valid YAML or JSON: {error}"),
            help: Some(
                "write the stubs as one YAML or JSON object with a key per host function"
                    .to_owned(),
            ),
        }]),
    }
}

/// Reads a stubs object (a `null` node is no stubs). Every problem is
/// reported, sorted by line; any problem means no stubs.
pub(super) fn stubs_from_node(node: &Node) -> Result<Stubs, Vec<Problem>> {
    let mut problems = Vec::new();
    let mut functions = Vec::new();
    match &node.value {
        _ if node.is_null() => {}
        NodeValue::Object(entries) => {
            let mut first: HashMap<&str, u32> = HashMap::new();
            for entry in entries {
                let name = entry.key.text.as_str();
                if let Some(line) = first.get(name) {
                    problems.push(problem(
                        entry.key.line,
                        format!("{name} is stubbed twice"),
                        format!("the first stub of {name} is on line {line}; keep one"),
                    ));
                    continue;
                }
                first.insert(name, entry.key.line);
                if let Some(stub) = read_stub(name, entry.key.line, &entry.value, &mut problems)
                {
                    functions.push(stub);
                }
            }
        }
        NodeValue::Scalar(_) | NodeValue::List(_) => problems.push(problem(
            node.line,
            "stubs must be an object".to_owned(),
            "write one key per host function, each with its stub, like `teams: {returns: [platform]}`"
                .to_owned(),
        )),
    }
    if problems.is_empty() {
        Ok(Stubs { functions })
    } else {
        problems.sort_by_key(|p| p.line);
        Err(problems)
    }
}

fn problem(line: u32, message: String, help: String) -> Problem {
    Problem {
        line,
        case: None,
        message,
        help: Some(help),
    }
}

/// One function's stub; `None` when it has problems.
fn read_stub(name: &str, line: u32, node: &Node, problems: &mut Vec<Problem>) -> Option<Stub> {
    let what = format!("stub {name}");
    let before = problems.len();
    let fields = fields(node, &what, "a stub", STUB_KEYS, problems)?;
    let (returns, error, result_problems) = result(&fields, &what, problems);
    let mut calls = Vec::new();
    let mut call_problems = false;
    if let Some(node) = fields.get("calls") {
        let before_calls = problems.len();
        calls = read_calls(node, name, problems);
        call_problems = problems.len() > before_calls;
    }
    let otherwise = match (returns, error) {
        (Some(_), Some(_)) => {
            problems.push(problem(
                line,
                format!("{what} gives both returns and error"),
                "a call either returns a value or fails; keep one".to_owned(),
            ));
            None
        }
        (None, None) if calls.is_empty() && !result_problems && !call_problems => {
            problems.push(problem(
                line,
                format!("{what} gives no result"),
                "give `returns:` for the result of every call, `error:` for a call that fails, or `calls:` to answer particular args".to_owned(),
            ));
            None
        }
        (Some(value), None) => Some(Answer::Returns(value)),
        (None, Some(message)) => Some(Answer::Fails(message)),
        (None, None) => None,
    };
    (problems.len() == before).then(|| Stub {
        function: name.to_owned(),
        line,
        otherwise,
        calls,
    })
}

/// A stub's `calls:` entries that have no problems.
fn read_calls(node: &Node, name: &str, problems: &mut Vec<Problem>) -> Vec<Call> {
    let NodeValue::List(items) = &node.value else {
        problems.push(problem(
            node.line,
            format!("stub {name}: calls must be a list"),
            "make `calls:` a list of entries like `{args: [...], returns: ...}`".to_owned(),
        ));
        return Vec::new();
    };
    items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let what = format!("stub {name}: call {}", i.saturating_add(1));
            read_call(item, &what, problems)
        })
        .collect()
}

/// One entry of `calls:`; `None` when it has problems.
fn read_call(node: &Node, what: &str, problems: &mut Vec<Problem>) -> Option<Call> {
    let args_help = "give `args:` as a list with one value per param of the function";
    let before = problems.len();
    let fields = fields(node, what, "a call", CALL_KEYS, problems)?;
    let (returns, error, result_problems) = result(&fields, what, problems);
    let not_one = || {
        problem(
            node.line,
            format!("{what} needs exactly one of returns and error"),
            "give the entry `returns:` for the result of a call with its args, or `error:` for the message that call fails with".to_owned(),
        )
    };
    let answer = match (returns, error) {
        (Some(value), None) => Some(Answer::Returns(value)),
        (None, Some(message)) => Some(Answer::Fails(message)),
        (Some(_), Some(_)) => {
            problems.push(not_one());
            None
        }
        (None, None) => {
            if !result_problems {
                problems.push(not_one());
            }
            None
        }
    };
    let mut args = Vec::new();
    match fields.get("args") {
        None => problems.push(problem(
            node.line,
            format!("{what} has no args"),
            args_help.to_owned(),
        )),
        Some(Node {
            value: NodeValue::List(items),
            ..
        }) => {
            for item in items {
                if checked_value(item, what, problems) {
                    args.push(item.clone());
                }
            }
        }
        Some(other) => problems.push(problem(
            other.line,
            format!("{what}: args must be a list"),
            args_help.to_owned(),
        )),
    }
    let answer = answer?;
    (problems.len() == before).then_some(Call {
        line: node.line,
        args,
        answer,
    })
}

/// The `returns:` and `error:` of a stub or call entry, and whether either
/// had a problem. A `returns:` value whose mappings repeat a key isn't
/// given; nor is an `error:` that isn't a non-empty scalar.
fn result(
    fields: &Fields<'_>,
    what: &str,
    problems: &mut Vec<Problem>,
) -> (Option<Node>, Option<String>, bool) {
    let before = problems.len();
    let returns = fields
        .get("returns")
        .filter(|node| checked_value(node, what, problems))
        .cloned();
    let error = fields.get("error").and_then(|node| match node.text() {
        Some(message) if !message.is_empty() => Some(message.to_owned()),
        _ => {
            problems.push(problem(
                node.line,
                format!("{what}: error must be a message"),
                "write the message the call fails with as text, like `error: timeout`".to_owned(),
            ));
            None
        }
    });
    (returns, error, problems.len() > before)
}

/// Whether `node` reads as data; when not, the problem (a mapping in it
/// that repeats a key) is reported at the repetition.
fn checked_value(node: &Node, what: &str, problems: &mut Vec<Problem>) -> bool {
    match node.to_data() {
        Ok(_) => true,
        Err(error) => {
            problems.push(problem(
                error.line,
                format!("{what}: {}", error.problem),
                "give each key of a mapping once".to_owned(),
            ));
            false
        }
    }
}

/// The known keys of a stub or call entry and their values.
struct Fields<'n>(Vec<(&'static str, &'n Node)>);

impl<'n> Fields<'n> {
    fn get(&self, key: &str) -> Option<&'n Node> {
        self.0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|&(_, node)| node)
    }
}

/// The entries of the mapping `node` with the given keys. An unknown key or
/// one given twice is a problem (the first value counts); `None` when
/// `node` isn't a mapping.
fn fields<'n>(
    node: &'n Node,
    what: &str,
    article: &str,
    keys: &[&'static str],
    problems: &mut Vec<Problem>,
) -> Option<Fields<'n>> {
    let list = keys.join(", ");
    let NodeValue::Object(entries) = &node.value else {
        problems.push(problem(
            node.line,
            format!("{what} must be an object with {list}"),
            format!("write {article} as a mapping of {list}"),
        ));
        return None;
    };
    let mut fields = Fields(Vec::new());
    for entry in entries {
        let key = entry.key.text.as_str();
        let Some(&known) = keys.iter().find(|&&k| k == key) else {
            let takes = format!("{article} takes {list}");
            let help = match did_you_mean(key, keys.iter().copied()) {
                Some(hint) => format!("{hint} {takes}"),
                None => takes,
            };
            problems.push(problem(
                entry.key.line,
                format!("{what}: unknown key {}", go_quote(key)),
                help,
            ));
            continue;
        };
        if fields.get(known).is_some() {
            problems.push(problem(
                entry.key.line,
                format!("{what}: {known} is given twice"),
                format!("keep one {known}"),
            ));
            continue;
        }
        fields.0.push((known, &entry.value));
    }
    Some(fields)
}
