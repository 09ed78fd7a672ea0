//! Stub values read by their declared types (tooling §7.4): YAML makes
//! `2026-01-01` a timestamp-looking string and `1.10` a number, but a stub
//! of a `string` (or enum) function means the text as written. So a node
//! becomes data as YAML reads it, except that a scalar where the type is a
//! string or an enum is its text; lists, maps, optionals and struct fields
//! are read by their element, value and field types. A node that doesn't
//! fit its type is read as YAML reads it, for the decoder to report.

use crate::data::Data;
use crate::kind::Kind;
use crate::types::Ty;
use crate::yaml::{Node, NodeValue};

/// `node` as data for a value of type `ty`. Recursion follows the type and
/// the node together, so it is no deeper than the node (whose depth the
/// YAML reader bounds); where the type ends, the rest of the node converts
/// without recursion.
pub(super) fn data(node: &Node, ty: &Ty, kind: &Kind) -> Data {
    match (ty, &node.value) {
        (Ty::String | Ty::Enum(_), NodeValue::Scalar(_)) if !node.is_null() => {
            Data::String(node.text().unwrap_or_default().to_owned())
        }
        (Ty::Optional(elem), _) if !node.is_null() => data(node, elem, kind),
        (Ty::List(elem), NodeValue::List(items)) => {
            Data::List(items.iter().map(|item| data(item, elem, kind)).collect())
        }
        (Ty::Map(_, value), NodeValue::Object(entries)) => Data::Object(
            entries
                .iter()
                .map(|e| (e.key.text.clone(), data(&e.value, value, kind)))
                .collect(),
        ),
        (Ty::Struct(name), NodeValue::Object(entries)) => {
            let fields = kind.struct_def(name).map_or(&[][..], |s| &s.fields);
            Data::Object(
                entries
                    .iter()
                    .map(|e| {
                        let field = fields.iter().find(|f| f.name == e.key.text);
                        let value = match field {
                            Some(field) => data(&e.value, &field.ty, kind),
                            None => as_yaml(&e.value),
                        };
                        (e.key.text.clone(), value)
                    })
                    .collect(),
            )
        }
        _ => as_yaml(node),
    }
}

/// The node as YAML reads it. Stub values were checked to convert when
/// the stubs were read (no mapping repeats a key), so this never loses
/// anything.
fn as_yaml(node: &Node) -> Data {
    node.to_data().unwrap_or(Data::Null)
}
