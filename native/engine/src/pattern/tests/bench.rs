//! Timing of compile and match (`#[ignore]`d; numbers, not assertions):
//! `cargo test --release --lib pattern::tests::bench -- --ignored --nocapture`.

use super::*;
use std::hint::black_box;
use std::time::Instant;

/// Runs `f` `rounds` times and prints the mean cost.
fn time(what: &str, rounds: u32, mut f: impl FnMut()) {
    let started = Instant::now();
    for _ in 0..rounds {
        f();
    }
    let ns: u128 = started.elapsed().as_nanos() / u128::from(rounds);
    println!("{what}: {ns} ns/op");
}

#[test]
#[ignore = "benchmark: cargo test --release --lib pattern::tests::bench -- --ignored --nocapture"]
fn bench_compile_and_match() {
    let email: &[u8] = br"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$";
    let re: Regex = regex(email);
    println!("email pattern: {} instructions", re.program_len());
    time("compile email pattern", 20_000, || {
        black_box(Regex::new(black_box(email)).is_ok());
    });
    time("compile (?i)\\p{Greek}+|\\pL{3}", 2_000, || {
        black_box(Regex::new(black_box(br"(?i)\p{Greek}+|\pL{3}")).is_ok());
    });
    time("match email, 24-byte address", 200_000, || {
        black_box(re.is_match(black_box(b"alice.smith@example.com")));
    });
    let word: Regex = regex(br"\bdeploy-(prod|staging)\b");
    let kb: Vec<u8> = b"lorem ipsum dolor sit amet ".repeat(40);
    time("unanchored search, 1 KiB, no match", 20_000, || {
        black_box(word.is_match(black_box(&kb)));
    });
    let mb: Vec<u8> = b"lorem ipsum dolor sit amet ".repeat(40_000);
    time("unanchored search, 1 MiB, no match", 10, || {
        black_box(word.is_match(black_box(&mb)));
    });
    let prefix: Glob = Glob::new(b"sre-*");
    let suffix: Glob = Glob::new(b"*.example.com");
    let general: Glob = Glob::new(b"team-?-*-prod");
    time("like sre-*", 1_000_000, || {
        black_box(prefix.is_match(black_box(b"sre-oncall-primary")));
    });
    time("like *.example.com", 1_000_000, || {
        black_box(suffix.is_match(black_box(b"api.eu.example.com")));
    });
    time("like team-?-*-prod", 1_000_000, || {
        black_box(general.is_match(black_box(b"team-a-payments-prod")));
    });
}
