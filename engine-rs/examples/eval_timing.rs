//! A timing loop (not a test): eval p50/p99 of the one-rule ranked decision, the same request as
//! bench's JMH `EvalRoundTrip.eval` with `rules=1` (bench/src/main/resources/.../refund-kind.sigil).
//!
//! `cargo run --release --example eval_timing [seconds]` (default 10 s of measurement after 6 s of
//! warm-up, like JMH's 3 x 2 s warm-up and 5 x 2 s measurement).

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use svc_engine::{CompileOptions, Engine, EvalResult, Module, Policy, SourceFile};

const KIND: &str = include_str!("../../bench/src/main/resources/dev/svc/bench/refund-kind.sigil");

/// `EvalRoundTrip.policy(rules)`.
fn policy_text(rules: usize) -> String {
    let mut s = String::from(
        "policy refund.desk: Refund@1\n\nwhen amount > 10000 {\n  deny(reason: fraud)\n}\n\n",
    );
    for i in 0..rules {
        s.push_str(&format!(
            "when amount < 100 + {i} and channel == \"web\" {{\n  approve(reason: small, limit: 100)\n}}\n\n"
        ));
    }
    s
}

fn run(
    policy: &Policy,
    input: &Value,
    for_time: Duration,
    samples: &mut Vec<u64>,
) -> Result<(), svc_engine::Error> {
    let end = Instant::now() + for_time;
    while Instant::now() < end {
        let start = Instant::now();
        let result: EvalResult = policy.eval(input)?;
        samples.push(u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX));
        std::hint::black_box(result);
    }
    Ok(())
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(index).copied().unwrap_or(0) as f64 / 1000.0
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds: u64 = std::env::args()
        .nth(1)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(10);
    let started = Instant::now();
    let module = Module::bundled()?;
    let engine = Engine::new(&module)?;
    eprintln!(
        "module compiled and instance started in {:?}",
        started.elapsed()
    );
    let files = [
        SourceFile::new("kind.sigil", KIND),
        SourceFile::new("refund/desk.sigil", policy_text(1)),
    ];
    let policy = engine.compile(&files, CompileOptions::default())?;
    let input = json!({"amount": 40, "channel": "web"});
    let first = policy.eval(&input)?;
    if first.decision.as_deref() != Some("approve") {
        return Err(format!("the benchmark policy doesn't approve: {first:?}").into());
    }
    let mut warmup = Vec::new();
    run(&policy, &input, Duration::from_secs(6), &mut warmup)?;
    let mut samples = Vec::with_capacity(1 << 20);
    run(&policy, &input, Duration::from_secs(seconds), &mut samples)?;
    samples.sort_unstable();
    let mean = samples.iter().sum::<u64>() as f64 / samples.len().max(1) as f64 / 1000.0;
    println!(
        "eval rules=1: n={} p50={:.3} us p99={:.3} us p99.9={:.3} us mean={:.3} us",
        samples.len(),
        percentile(&samples, 0.50),
        percentile(&samples, 0.99),
        percentile(&samples, 0.999),
        mean
    );
    Ok(())
}
