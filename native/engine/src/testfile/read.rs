//! Walks a test file's node tree into a [`TestFile`], noting every problem
//! in document order, the way the reference's YAML decoder meets them: a
//! mapping that gives a key twice isn't read any further, a null where a
//! mapping, list or text belongs is its empty value, and any scalar where
//! text belongs is its text (`name: 12` names the case `12`).

use std::collections::HashMap;

use super::stubs::stubs_from_node;
use super::{
    Case, Expect, ExpectedEntry, FileError, Input, Place, Problem, ShapeError, ShapeProblem, Stubs,
    TestFile,
};
use crate::data::Data;
use crate::diag::nearest;
use crate::yaml::{Entry, Key, Node, NodeValue, YamlError, YamlProblem};

/// The test file in `root` (`None` for an empty document), or why it can't
/// run, by the precedence of tooling §7.5 step 1.
pub(super) fn read(root: Option<&Node>) -> Result<TestFile, FileError> {
    let mut reader = Reader::default();
    let file = match root {
        Some(node) => reader.file(node),
        None => TestFile::default(),
    };
    if !reader.stubs.is_empty() {
        reader.stubs.sort_by_key(|p| p.line);
        return Err(FileError::Stubs(reader.stubs));
    }
    if !reader.shape.is_empty() {
        return Err(FileError::Shape(reader.shape));
    }
    if let Some(n) = reader.null_case {
        return Err(FileError::NullCase(n));
    }
    if file.policy.is_empty() {
        return Err(FileError::NoPolicy);
    }
    Ok(file)
}

#[derive(Default)]
struct Reader {
    shape: Vec<ShapeError>,
    stubs: Vec<Problem>,
    /// The first null case, counting from 1.
    null_case: Option<usize>,
}

impl Reader {
    fn file(&mut self, node: &Node) -> TestFile {
        let mut file = TestFile::default();
        let Some(entries) = self.mapping(node, "the file") else {
            return file;
        };
        for entry in entries {
            let value = &entry.value;
            match entry.key.text.as_str() {
                "policy" => file.policy = self.string(value, "policy"),
                "stubs" => file.stubs = self.stubs(value, None),
                "cases" => file.cases = self.cases(value),
                _ => self.unknown(&entry.key, Place::File),
            }
        }
        file
    }

    fn cases(&mut self, node: &Node) -> Vec<Case> {
        let items = match &node.value {
            NodeValue::List(items) => items,
            _ if node.is_null() => return Vec::new(),
            _ => {
                self.wrong_type(node, "cases", "a list");
                return Vec::new();
            }
        };
        let mut cases = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            if item.is_null() {
                self.null_case.get_or_insert(i.saturating_add(1));
            } else if let Some(case) = self.case(item) {
                cases.push(case);
            }
        }
        cases
    }

    fn case(&mut self, node: &Node) -> Option<Case> {
        let entries = self.mapping(node, "a case")?;
        let mut name = String::new();
        let mut input = None;
        let mut input_file = String::new();
        let mut expect = Expect::NotOneForm;
        let mut stubs = None;
        for entry in entries {
            let value = &entry.value;
            match entry.key.text.as_str() {
                "name" => name = self.string(value, "name"),
                "input" => input = self.data(value),
                "input_file" => input_file = self.string(value, "input_file"),
                "expect" => expect = self.expect(value),
                "stubs" => stubs = Some(value),
                _ => self.unknown(&entry.key, Place::Case),
            }
        }
        // The case's name, known once all its keys are read, goes with its
        // stubs' problems.
        let stubs = stubs.map_or_else(Stubs::default, |node| self.stubs(node, Some(&name)));
        let input = match (input, input_file.is_empty()) {
            (Some(data), true) => Input::Inline(data),
            (None, false) => Input::File(input_file),
            (None, true) => Input::Missing,
            (Some(_), false) => Input::Both,
        };
        Some(Case {
            name,
            line: node.line,
            input,
            expect,
            stubs,
        })
    }

    fn expect(&mut self, node: &Node) -> Expect {
        let Some(entries) = self.mapping(node, "expect") else {
            return Expect::NotOneForm;
        };
        let mut decision = String::new();
        let mut reason = String::new();
        let mut payload = None;
        let mut outcome = None;
        let mut asserts = None;
        let mut error = None;
        for entry in entries {
            let value = &entry.value;
            match entry.key.text.as_str() {
                "decision" => decision = self.string(value, "decision"),
                "reason" => reason = self.string(value, "reason"),
                "payload" => payload = self.payload(value),
                "outcome" => outcome = self.outcome(value),
                "asserts" => asserts = self.asserts(value),
                "error" => error = self.optional_string(value, "error"),
                _ => self.unknown(&entry.key, Place::Expect),
            }
        }
        let decides = !decision.is_empty() || !reason.is_empty() || payload.is_some();
        let forms = usize::from(decides)
            + usize::from(outcome.is_some())
            + usize::from(asserts.is_some())
            + usize::from(error.is_some());
        if forms != 1 {
            return Expect::NotOneForm;
        }
        if let Some(entries) = outcome {
            Expect::Outcome(entries)
        } else if let Some(reasons) = asserts {
            Expect::Asserts(reasons)
        } else if let Some(text) = error {
            Expect::Error(text)
        } else {
            Expect::Decision(ExpectedEntry {
                decision,
                reason,
                payload: payload.unwrap_or_default(),
            })
        }
    }

    fn outcome(&mut self, node: &Node) -> Option<Vec<ExpectedEntry>> {
        match &node.value {
            NodeValue::List(items) => Some(items.iter().map(|item| self.entry(item)).collect()),
            _ if node.is_null() => None,
            _ => {
                self.wrong_type(node, "outcome", "a list");
                None
            }
        }
    }

    fn entry(&mut self, node: &Node) -> ExpectedEntry {
        let mut entry = ExpectedEntry::default();
        let Some(entries) = self.mapping(node, "an outcome entry") else {
            return entry;
        };
        for field in entries {
            let value = &field.value;
            match field.key.text.as_str() {
                "decision" => entry.decision = self.string(value, "decision"),
                "reason" => entry.reason = self.string(value, "reason"),
                "payload" => entry.payload = self.payload(value).unwrap_or_default(),
                _ => self.unknown(&field.key, Place::OutcomeEntry),
            }
        }
        entry
    }

    fn asserts(&mut self, node: &Node) -> Option<Vec<String>> {
        match &node.value {
            NodeValue::List(items) => Some(
                items
                    .iter()
                    .map(|item| self.string(item, "an assert"))
                    .collect(),
            ),
            _ if node.is_null() => None,
            _ => {
                self.wrong_type(node, "asserts", "a list");
                None
            }
        }
    }

    /// A payload's fields; `None` when not given (or null).
    fn payload(&mut self, node: &Node) -> Option<Vec<(String, Data)>> {
        if node.is_null() {
            return None;
        }
        if !matches!(node.value, NodeValue::Object(_)) {
            self.wrong_type(node, "payload", "an object");
            return None;
        }
        // `Data` drops without recursion, so its parts are taken, not moved.
        match &mut self.data(node)? {
            Data::Object(fields) => Some(std::mem::take(fields)),
            _ => None,
        }
    }

    /// A value as data; `None` for null, or when a mapping in it repeats a
    /// key.
    fn data(&mut self, node: &Node) -> Option<Data> {
        if node.is_null() {
            return None;
        }
        node.to_data().map_err(|e| self.yaml(e)).ok()
    }

    fn stubs(&mut self, node: &Node, case: Option<&str>) -> Stubs {
        stubs_from_node(node).unwrap_or_else(|problems| {
            self.stubs.extend(problems.into_iter().map(|p| Problem {
                case: case.map(str::to_owned),
                ..p
            }));
            Stubs::default()
        })
    }

    /// A scalar's text where the format wants text; null is the empty text.
    fn string(&mut self, node: &Node, what: &'static str) -> String {
        self.optional_string(node, what).unwrap_or_default()
    }

    /// A scalar's text, or `None` for null.
    fn optional_string(&mut self, node: &Node, what: &'static str) -> Option<String> {
        match &node.value {
            NodeValue::Scalar(_) => node.text().map(str::to_owned),
            NodeValue::List(_) | NodeValue::Object(_) => {
                self.wrong_type(node, what, "a string");
                None
            }
        }
    }

    /// The entries of a mapping the format defines the keys of; a null is
    /// one without entries. `None`, after noting why, when the node isn't a
    /// mapping or gives a key twice.
    fn mapping<'n>(&mut self, node: &'n Node, what: &'static str) -> Option<&'n [Entry]> {
        let entries: &[Entry] = match &node.value {
            NodeValue::Object(entries) => entries,
            _ if node.is_null() => &[],
            _ => {
                self.wrong_type(node, what, "an object");
                return None;
            }
        };
        let mut first: HashMap<&str, u32> = HashMap::new();
        let mut repeated = false;
        for entry in entries {
            let key = &entry.key;
            if let Some(&first_line) = first.get(key.text.as_str()) {
                repeated = true;
                self.yaml(YamlError {
                    line: key.line,
                    column: key.column,
                    problem: YamlProblem::RepeatedKey {
                        key: key.text.clone(),
                        first_line,
                    },
                });
            } else {
                first.insert(&key.text, key.line);
            }
        }
        (!repeated).then_some(entries)
    }

    fn unknown(&mut self, key: &Key, place: Place) {
        self.shape.push(ShapeError {
            line: key.line,
            column: key.column,
            problem: ShapeProblem::UnknownKey {
                key: key.text.clone(),
                place,
                suggestion: nearest(&key.text, place.keys().iter().copied()),
            },
        });
    }

    fn wrong_type(&mut self, node: &Node, what: &'static str, expected: &'static str) {
        self.shape.push(ShapeError {
            line: node.line,
            column: node.column,
            problem: ShapeProblem::WrongType {
                what,
                expected,
                found: node.found(),
            },
        });
    }

    fn yaml(&mut self, error: YamlError) {
        self.shape.push(ShapeError {
            line: error.line,
            column: error.column,
            problem: ShapeProblem::Yaml(error.problem),
        });
    }
}
