//! Timing of lex + parse (`#[ignore]`d; numbers, not assertions):
//! `cargo test --release --lib parser::tests::bench -- --ignored --nocapture`.

use super::*;
use std::time::Instant;

/// A policy with `rules` rules in the style of the spec's examples.
fn policy(rules: usize) -> String {
    let mut s = String::from(
        "policy payments.deploy: DeployGate@1\n\nuse platform.common\n\n\
         param min_soak: duration = 4h, min: 1h, max: 72h\n\
         let owners = [\"alice\", \"bob\", \"carol\"]\n\n",
    );
    for i in 0..rules {
        s.push_str(&format!(
            "// rule {i}: hotfixes by owners skip the soak\n\
             when release.soak >= 1h30m and service.tier == Tier.critical and actor in owners \
             and not (region in [\"eu-{i}\", \"us-{i}\"]) and service.labels[\"team\"] matches `^team-[a-z]+$` {{\n  \
             approve(reason: owner_hotfix, approvers: [\"sre\"], limit: {i}, ratio: 0.{i}5)\n}}\n\n"
        ));
    }
    s
}

fn time(name: &str, src: &str, rounds: u32) {
    let (file, diags) = parse_file("bench.sigil", src);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(file.docs.len(), 1);
    let started = Instant::now();
    for _ in 0..rounds {
        std::hint::black_box(parse_file("bench.sigil", std::hint::black_box(src)));
    }
    let ns = started.elapsed().as_nanos() / u128::from(rounds);
    println!(
        "lex+parse {name}: {} bytes, {ns} ns/op ({:.1} ns/byte)",
        src.len(),
        ns as f64 / src.len() as f64
    );
}

#[test]
#[ignore = "benchmark: cargo test --release --lib parser::tests::bench -- --ignored --nocapture"]
fn bench_parse_1_and_64_rule_policies() {
    time("1-rule policy", &policy(1), 50_000);
    time("64-rule policy", &policy(64), 2_000);
}
