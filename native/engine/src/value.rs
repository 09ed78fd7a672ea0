//! Values known when a document loads: the constants of language-core §5.17
//! (param defaults and bounds, payload defaults, the kind's `default` and
//! `conflict` arguments, invocation arguments).
//!
//! Their canonical text (`constText`, language-policies §2.14) is what kinds
//! print and what bound messages quote. The evaluator's runtime values
//! extend this set (timestamps, structs, decisions, candidates).

use std::rc::Rc;

/// A constant value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `true` / `false`
    Bool(bool),
    /// An `int`.
    Int(i64),
    /// A finite `float`.
    Float(f64),
    /// A `string`'s bytes.
    String(Rc<[u8]>),
    /// A `duration` in nanoseconds.
    Duration(i64),
    /// An enum value by its bare name.
    Enum(Rc<str>),
    /// A list, elements in order.
    List(Rc<[Value]>),
    /// A map, entries in source order, keys unique.
    Map(Rc<[(Value, Value)]>),
    /// An absent optional (`none` in a kind's text).
    Absent,
}
