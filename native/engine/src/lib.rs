//! # engine: the svc policy engine
//!
//! The engine runs the Sigil policy language for svc. It is built as
//! `engine.wasm`, a WASI preview 1 reactor that Java hosts run on wasmtime
//! (see `native/engine/README.md` and `build-wasm`), and natively for tests.
//!
//! ## The pipeline
//!
//! A host writes a JSON request into the module's memory and calls
//! `engine_call`. The request is decoded strictly, its op runs, and the
//! response is encoded as JSON and left pinned in memory for the host:
//!
//! ```text
//! engine_call -> abi::handle: check the JSON -> read the id -> decode the fields
//!   -> split them into the op's typed request -> ops::run(instance, request)
//!   -> encode the typed answer
//! ```
//!
//! Every op of module-abi.md §4 answers: `version`, `check`, `compile`,
//! `eval`, `explain`, `format`, `test` and `release`. Each sits in a module
//! of its own under `abi::ops` and calls the language phases (lexer, parser,
//! format, kind, check, bundle, compile, eval, explain, testrun), which
//! know nothing of the ABI.
//!
//! ## Where things are
//!
//! * [`abi`]: everything a host sees: exports and import (`abi/exports.rs`)
//!   and the module's allocator (`abi/heap.rs`), the only `unsafe` code;
//!   pinned buffers, request decoding compatible with the reference's Go
//!   decoder, response encoding, the ops, handles, and how a panic becomes
//!   an answer.
//! * [`source`]: source files, byte spans and their line/column positions.
//! * [`diag`]: the one Diagnostic type of every phase, did-you-mean, Go-style
//!   quoting, help merging and the plain-text rendering.
//! * [`lexer`]: tokens with spans and the lexical diagnostics.
//! * [`ast`]: the syntax tree, spans on every node, equality ignoring spans.
//! * [`parser`]: `parse_file`/`parse_expr`, recovery, the nesting limit.
//! * [`format`]: the canonical formatter, comments kept, proven by reparsing.
//! * [`kind`]: the kind loader (a kind document becomes a [`kind::Kind`]
//!   and its diagnostics), type resolution and the canonical kind text.
//! * [`constant`]: constant expressions evaluated against their type.
//! * [`types`] and [`value`]: semantic types and values (constants and
//!   what evaluation adds).
//! * [`data`]: JSON and YAML data documents before they are decoded.
//! * [`input`]: data documents decoded against the kind's types (inputs,
//!   host results, stub values), with the reference's messages.
//! * [`wire`]: JSON as Go's `encoding/json` reads and writes it (the
//!   scanner and its error texts, values as the JSON of payloads and
//!   host-function arguments, Go's string escaping), the floor that the ABI,
//!   `data` and `input` share.
//! * [`yaml`]: YAML documents (the `yaml-rust` crate's parser) read into
//!   [`data::Data`], or into nodes that keep their lines for test files.
//! * [`testfile`]: test files and stubs read into typed structures, with
//!   the spec's messages for every problem of their shape.
//! * [`stubs`]: stubs bound to a kind, and the host that answers from them.
//! * [`testrun`]: a test file run against a project: its cases evaluated
//!   and compared with what they expect, with the spec's failure sentences.
//! * [`check`]: the type checker of policy and module documents.
//! * [`bundle`]: the files of a request parsed, indexed by name and
//!   checked in import order; scopes of `policies` patterns.
//! * [`program`]: the compiled form of a root policy that [`compile`]
//!   builds and [`eval`] runs: instances flattened, names resolved, rules
//!   and asserts with their record texts.
//! * [`compile`]: a root policy compiled for evaluation: instances,
//!   resolved names, rules and asserts with their record texts.
//! * [`eval`]: evaluation of a compiled policy: phases, resolution,
//!   runtime errors, deadlines.
//! * [`explain`]: a policy compiled statically and flattened into its
//!   guarded rules and asserts, the explanation record's content.
//! * [`lint`]: the lints and their levels.
//! * [`require`]: required policies, their trusted paths and roots, and
//!   the roots that don't invoke them unconditionally.
//! * [`pattern`]: the patterns of `like` (glob) and `matches` (Go's RE2
//!   syntax and error texts, linear-time matching).
//! * `version`: the build information the version op reports, set by
//!   `build.rs`.
//! * `testing` (tests only): the seeded generator of the property tests.
#![cfg_attr(
    all(target_arch = "wasm32", panic = "unwind"),
    feature(asm_experimental_arch)
)]

pub mod abi;
pub mod ast;
pub mod bundle;
pub mod check;
pub mod compile;
pub mod constant;
pub mod data;
pub mod diag;
pub mod eval;
pub mod explain;
pub mod format;
pub mod input;
pub mod kind;
pub mod lexer;
pub mod lint;
pub mod parser;
pub mod pattern;
pub mod program;
pub mod require;
pub mod source;
pub mod stubs;
pub mod testfile;
#[cfg(test)]
mod testing;
pub mod testrun;
pub mod types;
pub mod value;
mod version;
pub mod wire;
pub mod yaml;
