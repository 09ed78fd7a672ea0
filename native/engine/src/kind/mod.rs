//! Kind documents (language-policies §2): the contract policies are
//! checked and evaluated against.
//!
//! * [`load`] (`load.rs`): a parsed kind document becomes a [`Kind`] and
//!   every diagnostic of §2.1–§2.13; the rules live in `declare.rs` (enums,
//!   types, inputs, functions, decisions), `names.rs` (type names, the
//!   shared namespace), `cycles.rs` (recursive types), `resolution.rs`
//!   (collect, precedence, exclusive) and `outcome.rs` (default, conflict).
//! * `resolve.rs`: types as written become [`Ty`](crate::types::Ty)s, for
//!   the loader and for policies ([`Kind::resolve_type`]).
//! * `model.rs`: [`Kind`] and its declarations, in model order, with the
//!   lookups the checker uses.
//! * `canonical.rs`: [`Kind::canonical_text`], the byte-exact rendering of
//!   §2.14.

mod canonical;
mod cycles;
mod declare;
mod error;
mod load;
mod model;
mod names;
mod outcome;
mod resolution;
mod resolve;

pub use error::{ConstructorError, DeclError, NameError, Names, ResolutionError, TypeError};
pub use load::{Loaded, load};
pub use model::{
    Collect, DecisionDef, EnumDef, FieldDef, FnDef, InputDef, Kind, KindName, Outcome, OutcomeRef,
    PayloadField, StructDef,
};
pub(crate) use outcome::constructor_reason;

#[cfg(test)]
mod tests;
