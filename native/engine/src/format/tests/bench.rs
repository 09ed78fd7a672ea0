//! Timing of parse + format (`#[ignore]`d; numbers, not assertions):
//! `cargo test --release --lib format::tests::bench -- --ignored --nocapture`.
//! Formatting includes its proof (a reparse and a tree comparison), as the
//! format op runs it. Goal: a 64-rule policy under 1 ms natively.

use super::*;
use crate::parser::parse_file;
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

fn time(name: &str, src: &str, rounds: u32) {
    let out = format_source("bench.sigil", src).unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(out, src);
    let (file, _) = parse_file("bench.sigil", src);
    let started = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(format_source("bench.sigil", std::hint::black_box(src)).ok());
    }
    let both = started.elapsed().as_nanos() / u128::from(rounds);
    let started = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(format_file(&file, std::hint::black_box(src)).ok());
    }
    let format = started.elapsed().as_nanos() / u128::from(rounds);
    println!(
        "parse+format {name}: {} bytes, {both} ns/op ({:.1} ns/byte); format alone {format} ns/op",
        src.len(),
        both as f64 / src.len() as f64,
    );
}

#[test]
#[ignore = "benchmark: cargo test --release --lib format::tests::bench -- --ignored --nocapture"]
fn bench_format_1_and_64_rule_policies() {
    time("1-rule policy", &policy(1), 20_000);
    time("64-rule policy", &policy(64), 500);
}
