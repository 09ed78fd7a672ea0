//! Timing of parse + format (`#[ignore]`d; numbers, not assertions):
//! `cargo test --release --lib format::tests::bench -- --ignored --nocapture`.
//! Formatting includes its proof (a reparse and a tree comparison), as the
//! format op runs it. Goal: a 64-rule policy under 1 ms inside the module.
//!
//! Besides the whole op it times each phase of it on its own: lexing,
//! parsing the tokens, printing, the proof and dropping the tree. Each
//! number is the best of several batches, which shared machines need.

use super::*;
use crate::lexer::lex;
use crate::parser::{Literals, parse_file, parse_lexed};
use std::time::Instant;

/// A policy with `rules` rules in the style of the spec's examples, not
/// quite canonical (so the formatter has work to do), with comments.
fn policy(rules: usize) -> String {
    let mut s = String::from(
        "// The deploy gate of the payments team.\n\
         policy payments.deploy: DeployGate@1\n\nuse platform.common\n\n\
         param min_soak: duration = 4h, max: 72h, min: 1h\n\
         let owners = [\"alice\", \"bob\",\n  \"carol\"] // on call\n\n",
    );
    for i in 0..rules {
        s.push_str(&format!(
            "// rule {i}: hotfixes by owners skip the soak\n\
             when release.soak >= 1h30m and service.tier == Tier.critical\n    and actor in owners \
             and not (region in [\"eu-{i}\", \"us-{i}\"]) and any r in actor.roles: r like \"sre-*\" and release.hotfix {{\n  \
             approve(reason: owner_hotfix, approvers: [\"sre\"], limit: {i}, ratio: 0.{i}5) // why\n}}\n\n"
        ));
    }
    s
}

/// How many batches each measurement takes the best of.
const BATCHES: u32 = 7;

/// The best time per round, in nanoseconds, of `BATCHES` batches of
/// `rounds` calls of `run`, each given a fresh `setup()` made just before
/// it, outside the clock (so that dropping can be timed on its own, on a
/// tree as fresh in the caches as the format op's).
fn best<T, R>(rounds: u32, mut setup: impl FnMut() -> T, mut run: impl FnMut(T) -> R) -> u128 {
    let mut best = u128::MAX;
    for _ in 0..BATCHES {
        let mut spent = 0;
        for _ in 0..rounds {
            let input = setup();
            let started = Instant::now();
            std::hint::black_box(run(std::hint::black_box(input)));
            spent += started.elapsed().as_nanos();
        }
        best = best.min(spent / u128::from(rounds));
    }
    best
}

fn time(name: &str, src: &str, rounds: u32) {
    let out = format_source("bench.sigil", src).unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(out, src);
    let parse = || parse_lexed("bench.sigil", src, lex(src), Literals::TextOnly).0;
    let file = parse();
    let scanned = || {
        let (tokens, _) = lex(src);
        scan::scan(src, &tokens)
    };
    let texts: Vec<&str> = scanned().comments.iter().map(|c| c.text).collect();

    let total = best(rounds, || (), |()| format_source("bench.sigil", src));
    let lexing = best(rounds, || (), |()| lex(src));
    let lexed_parse = best(
        rounds,
        || lex(src),
        |lexed| {
            // The tree is returned, so its drop is outside the clock.
            parse_lexed("bench.sigil", src, lexed, Literals::TextOnly).0
        },
    );
    let valued_parse = best(
        rounds,
        || lex(src),
        |lexed| parse_lexed("bench.sigil", src, lexed, Literals::Valued).0,
    );
    let printing = best(rounds, scanned, |scanned| {
        printer::print(&file, src, scanned)
    });
    let proof = best(
        rounds,
        || (),
        |()| verify::same_program(&file, &texts, &out),
    );
    let dropping = best(rounds, parse, drop);
    let scanning = best(rounds, || lex(src).0, |tokens| scan::scan(src, &tokens));
    println!(
        "format {name} ({} bytes): {total} ns/op; lex {lexing}, parse {lexed_parse} \
         (with values {valued_parse}), lines and comments {scanning}, print {printing}, \
         proof {proof} (lex + parse + compare + drop of the output), drop {dropping}",
        src.len(),
    );
}

#[test]
#[ignore = "benchmark: cargo test --release --lib format::tests::bench -- --ignored --nocapture"]
fn bench_format_1_and_64_rule_policies() {
    time("1-rule policy", &policy(1), 5_000);
    time("64-rule policy", &policy(64), 200);
    let (file, _) = parse_file("bench.sigil", &policy(64));
    let src = policy(64);
    let alone = best(200, || (), |()| format_file(&file, &src));
    println!("format_file 64-rule policy (lex, print, proof): {alone} ns/op");
}
