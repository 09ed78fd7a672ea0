//! The checker's specification, as tables: each case is a source snippet
//! and the one diagnostic it must produce (the underlined text, message
//! and help), or the type it must have.

mod bench;
mod examples;
mod exprs;
mod policies;

use super::{DocumentRef, ImportTarget, check_document, check_expr};
use crate::ast::Document;
use crate::kind::Kind;
use crate::parser::{parse_expr, parse_file};

/// The kind the tables are checked against: two enums sharing a value,
/// optional fields, maps keyed by an enum, host functions, decisions with
/// payloads.
pub(super) const KIND: &str = "kind Gate version 2, accepts: 1

enum Zone: lobby | lab | vault
enum Tier: critical | standard | lab

type Person {
  name: string
  clearance: int
}

type Badge {
  holder: string
  zones: list<Zone>
  groups: list<string>
  attrs: map<string, string>
  limits: map<Zone, int>
  issued_at: timestamp
  valid_for: duration
  escort: ?Person
  pin_age: ?duration
  people: list<Person>
}

input badge: Badge
input now: timestamp
input attempts: int
input risk: float
input tier: Tier
input zone: Zone

fn lower(string) -> string
fn score(Zone, int) -> float

decision allow {
  reason: member | escorted
  hold_open: duration = 5s
}

decision deny {
  reason: expired | wrong_zone | fallback
}

decision review {
  reason: manual
  approvers: list<string>
}

collect one
precedence deny > review > allow

default deny(reason: fallback)
";

/// Loads the kind document in `src`.
pub(super) fn kind_of(src: &str) -> Kind {
    let (file, diagnostics) = parse_file("kind.sigil", src);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let Some(Document::Kind(doc)) = file.docs.first() else {
        panic!("no kind document in {src}");
    };
    let loaded = crate::kind::load(doc);
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    loaded.kind.expect("a valid kind")
}

/// One diagnostic as the tables write it: `underlined text: message | help`.
pub(super) fn describe(src: &str, d: &crate::diag::Diagnostic) -> String {
    let span = d.span.expect("a position");
    let text = span.text(src).unwrap_or("<bad span>");
    format!(
        "{text}: {} | {}",
        d.message,
        d.help.as_deref().unwrap_or("")
    )
}

/// The type and diagnostics of one expression checked against [`KIND`].
pub(super) fn check_one(src: &str) -> (String, Vec<String>) {
    let kind = kind_of(KIND);
    let (expr, diagnostics) = parse_expr("expr", src);
    assert!(diagnostics.is_empty(), "{src}: {diagnostics:#?}");
    let expr = expr.expect("an expression");
    let (ty, diagnostics) = check_expr(&expr, &kind);
    let described = diagnostics.iter().map(|d| describe(src, d)).collect();
    (ty.to_string(), described)
}

/// The diagnostics of the policy `src` checked against [`KIND`], with no
/// documents to import.
pub(super) fn check_policy(src: &str) -> Vec<String> {
    let kind = kind_of(KIND);
    let (file, diagnostics) = parse_file("p.sigil", src);
    assert!(diagnostics.is_empty(), "{src}: {diagnostics:#?}");
    let doc = match file.docs.first() {
        Some(Document::Policy(p)) => DocumentRef::Policy(p),
        Some(Document::Module(m)) => DocumentRef::Module(m),
        _ => panic!("no policy in {src}"),
    };
    let checked = check_document(doc, src, &kind, &|_| ImportTarget::Unknown);
    checked
        .diagnostics
        .iter()
        .map(|d| describe(src, d))
        .collect()
}
