//! Kind documents (language-policies §2): the contract policies are
//! checked and evaluated against.
//!
//! * `model.rs`: [`Kind`] and its declarations, in model order, with the
//!   lookups the checker uses.

mod model;

pub use model::{
    Collect, DecisionDef, EnumDef, FieldDef, FnDef, InputDef, Kind, KindName, Outcome, OutcomeRef,
    PayloadField, StructDef,
};
