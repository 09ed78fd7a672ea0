//! Native p50 and p99 of one eval round trip through the exports, as a
//! host makes it (alloc, write, call, read, free both), for the two
//! requests issue #22 compares with the module from Java: `access.main` of
//! conf/policies (the server's example decision) and the bench module's
//! 1-rule ranked decision, with and without the trace.
//!
//! ```text
//! cargo run --release --example bench_eval                  # the table
//! cargo run --release --example bench_eval -- loop access 20 # 20 s of access.main evals, for perf
//! ```
//!
//! Each call is timed on its own, so the percentiles are those of single
//! calls, as JMH's sample mode reports them from Java. Timing only, no
//! thresholds (design.md §7).

use std::hint::black_box;
use std::time::{Duration, Instant};

use engine::abi::{engine_alloc, engine_call, engine_free, handle, host_read, host_write};

const ACCESS_KIND: &str = include_str!("../../../conf/policies/kind.sigil");
const ACCESS_MAIN: &str = include_str!("../../../conf/policies/access/main.sigil");
/// A member's input, as the bench module's `PeerDecision` sends it.
const ACCESS_INPUT: &str = r#"{"user":{"name":"ann","teams":["payments","search"],"admin":false},"action":"read","resource":{"name":"ledger","team":"payments"}}"#;
const REFUND_KIND: &str =
    include_str!("../../../bench/src/main/resources/dev/svc/bench/refund-kind.sigil");
/// `EvalRoundTrip.policy(1)` of the bench module.
const REFUND_POLICY: &str = "policy refund.desk: Refund@1\n\nwhen amount > 10000 {\n  deny(reason: fraud)\n}\n\n\
    when amount < 100 + 0 and channel == \"web\" {\n  approve(reason: small, limit: 100)\n}\n\n";
const REFUND_INPUT: &str = r#"{"amount":40,"channel":"web"}"#;

const CALLS: usize = 200_000;

/// A JSON string of `text` (the sources hold quotes and newlines only).
fn json_string(text: &str) -> String {
    let escaped = text
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("\"{escaped}\"")
}

/// The eval request of `input` on the policy compiled from `kind` and
/// `policy`; `None` when it doesn't compile.
fn eval_request(kind: &str, path: &str, policy: &str, input: &str, trace: bool) -> Option<Vec<u8>> {
    let compile = format!(
        r#"{{"op":"compile","files":[{{"path":"kind.sigil","source":{}}},{{"path":"{path}","source":{}}}]}}"#,
        json_string(kind),
        json_string(policy)
    );
    let answer = String::from_utf8(handle(compile.as_bytes())).ok()?;
    let at = answer.find(r#""handle":"#)? + 9;
    let id = answer.get(at..answer.len().saturating_sub(1))?;
    let extra = if trace { "" } else { r#","trace":false"# };
    Some(format!(r#"{{"op":"eval","handle":{id},"input":{input}{extra}}}"#).into_bytes())
}

/// One round trip as a host makes it; the answer's length.
fn round_trip(request: &[u8]) -> usize {
    let len = request.len() as i32;
    let ptr = engine_alloc(len);
    host_write(ptr, request);
    let packed = engine_call(ptr, len);
    let answer = black_box(host_read(packed)).map_or(0, |a| a.len());
    engine_free(ptr, len);
    engine_free((packed >> 32) as i32, packed as i32);
    answer
}

fn percentiles(request: &[u8]) -> (Duration, Duration) {
    for _ in 0..CALLS / 10 {
        round_trip(request);
    }
    let mut times: Vec<Duration> = (0..CALLS)
        .map(|_| {
            let started = Instant::now();
            black_box(round_trip(black_box(request)));
            started.elapsed()
        })
        .collect();
    times.sort_unstable();
    let at = |q: usize| times.get(CALLS * q / 100).copied().unwrap_or_default();
    (at(50), at(99))
}

/// The four requests, access.main's first and the 1-rule decision's third;
/// `None` when a policy doesn't compile.
fn requests() -> Option<Vec<(&'static str, Vec<u8>)>> {
    let access = |trace| {
        eval_request(
            ACCESS_KIND,
            "access/main.sigil",
            ACCESS_MAIN,
            ACCESS_INPUT,
            trace,
        )
    };
    let refund = |trace| {
        eval_request(
            REFUND_KIND,
            "refund/desk.sigil",
            REFUND_POLICY,
            REFUND_INPUT,
            trace,
        )
    };
    Some(vec![
        ("access.main", access(true)?),
        ("access.main, without the trace", access(false)?),
        ("1-rule ranked decision", refund(true)?),
        ("1-rule ranked decision, without the trace", refund(false)?),
    ])
}

/// Evals of `request` for `seconds`, for a profiler to watch.
fn run_for(request: &[u8], seconds: u64) {
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        for _ in 0..1000 {
            black_box(round_trip(black_box(request)));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(all) = requests() else {
        eprintln!("bench_eval: a benchmark policy doesn't compile");
        std::process::exit(1);
    };
    if let [mode, which, seconds] = args.as_slice() {
        let picked = match which.as_str() {
            "access" => all.first(),
            "refund" => all.get(2),
            _ => None,
        };
        match (mode.as_str(), picked, seconds.parse()) {
            ("loop", Some((_, request)), Ok(seconds)) => run_for(request, seconds),
            _ => {
                eprintln!("usage: bench_eval [loop access|refund SECONDS]");
                std::process::exit(2);
            }
        }
        return;
    }
    for (name, request) in &all {
        let bytes = round_trip(request);
        let (p50, p99) = percentiles(request);
        println!(
            "eval round trip, {name}: p50 {:.2} µs, p99 {:.2} µs (answer {bytes} B)",
            p50.as_secs_f64() * 1e6,
            p99.as_secs_f64() * 1e6
        );
    }
}
