//! Timing of the checker (`#[ignore]`d; numbers, not assertions):
//! `cargo test --release --lib check::tests::bench -- --ignored --nocapture`.
//! Goal: checking a 64-rule policy under 1 ms inside the module.

use super::{KIND, kind_of};
use crate::ast::Document;
use crate::check::{DocumentRef, ImportTarget, check_document};
use crate::parser::parse_file;
use std::time::Instant;

/// A policy with `rules` rules that exercise names, enums, optionals,
/// quantifiers, maps, host functions and payloads.
fn policy(rules: usize) -> String {
    let mut s = String::from(
        "policy gate.main: Gate@2\n\nparam floor: int = 2, min: 0, max: 9\n\
         let trusted = badge.groups any in [\"staff\", \"sre\"]\n\n",
    );
    for i in 0..rules {
        s.push_str(&format!(
            "when trusted and zone in [lab, Zone.vault] and attempts < floor + {i}\n    \
             and (badge.escort?.name ?? \"\") != \"x{i}\" and any p in badge.people: p.clearance > {i}\n    \
             and badge.limits has lab and lower(badge.holder) like \"a*\" and badge.valid_for > 1h{i}m {{\n  \
             review(reason: manual, approvers: [\"r{i}\"])\n  \
             allow(reason: member, hold_open: {i}s)\n}}\n\n"
        ));
    }
    s
}

fn time(name: &str, src: &str, rounds: u32) {
    let kind = kind_of(KIND);
    let (file, diagnostics) = parse_file("bench.sigil", src);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let Some(Document::Policy(doc)) = file.docs.first() else {
        panic!("no policy");
    };
    let check = || {
        check_document(DocumentRef::Policy(doc), src, &kind, &|_| {
            ImportTarget::Unknown
        })
    };
    assert!(check().diagnostics.is_empty(), "{:#?}", check().diagnostics);
    let started = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(check());
    }
    let checked = started.elapsed().as_nanos() / u128::from(rounds);
    let started = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(parse_file("bench.sigil", std::hint::black_box(src)));
    }
    let parsed = started.elapsed().as_nanos() / u128::from(rounds);
    println!(
        "check {name}: {} bytes, check {checked} ns/op, parse {parsed} ns/op",
        src.len()
    );
}

#[test]
#[ignore = "benchmark: cargo test --release --lib check::tests::bench -- --ignored --nocapture"]
fn bench_check_1_and_64_rule_policies() {
    time("1-rule policy", &policy(1), 20_000);
    time("64-rule policy", &policy(64), 1_000);
}
