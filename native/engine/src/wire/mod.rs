//! JSON as the reference's Go `encoding/json` reads and writes it: the
//! bottom floor that the ABI's requests and responses, data documents
//! (`data`), decoded inputs (`input`) and host-function arguments share.
//! It knows nothing of requests, ops or kinds; everything above imports it,
//! it imports nothing above it but the values it writes.
//!
//! * `read`: Go's scanner (grammar, error texts, nesting limit), a
//!   [`Cursor`] over a checked value, and [`unquote`].
//! * `write`: values as compact JSON ([`write_value`]) and Go's string
//!   escaping ([`write_string`], which responses use too).
//! * `plain_run`: how far a JSON string's text goes before a byte that
//!   needs a look, eight bytes at a time, for reading and writing alike.

pub(crate) mod plain_run;
mod read;
mod write;

#[cfg(test)]
pub(crate) use read::MAX_DEPTH;
pub(crate) use read::{
    Cursor, Kind, SyntaxError, is_number, scan_first_value, skip_space, unquote,
};
pub(crate) use write::write_str;
pub use write::{NonFinite, write_string, write_value};
