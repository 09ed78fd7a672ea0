//! Data documents as written, before they are decoded against a type: an
//! eval input, a host function's result, a test file's input, stub values
//! and expected payloads (tooling §6.1.1). JSON and YAML both read into a
//! [`Data`] tree, so one decoder serves them all.

/// Which syntax a document was written in: the decoder accepts a whole
/// YAML float such as `1.0` for an int, but not a JSON one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// JSON: numbers are kept exactly as written.
    Json,
    /// YAML.
    Yaml,
}

/// One value of a data document.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// `null` (YAML `~` and an empty value too).
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as written (`1`, `1.0`, `1e3`, `-0`).
    Number(String),
    /// A string.
    String(String),
    /// A list, in order.
    List(Vec<Data>),
    /// An object: its keys in the order written, each once.
    Object(Vec<(String, Data)>),
}

impl Data {
    /// How decoder messages name what was found (`«found»`, tooling
    /// §6.1.1).
    pub fn found(&self) -> &'static str {
        match self {
            Data::Null => "null",
            Data::Bool(_) => "a boolean",
            Data::Number(_) => "a number",
            Data::String(_) => "a string",
            Data::List(_) => "a list",
            Data::Object(_) => "an object",
        }
    }
}
