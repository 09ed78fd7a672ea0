//! Native cost of the ABI's `version` path: `cargo run --release --example bench_abi`.
//!
//! Measures `abi::handle` alone (decode, op, encode) and a full round trip
//! through the exports as a host makes it (alloc, write, call, read, free
//! both). Prints the best of five rounds in ns per request; timing only, no
//! thresholds (design.md §7: timing belongs in benchmarks).

use std::hint::black_box;
use std::time::Instant;

use engine::abi::{engine_alloc, engine_call, engine_free, handle, host_read, host_write};

const REQUEST: &[u8] = br#"{"op":"version","id":1}"#;
const ROUNDS: usize = 5;
const PER_ROUND: u32 = 200_000;

fn best_ns_per_op(mut op: impl FnMut()) -> f64 {
    for _ in 0..PER_ROUND / 10 {
        op();
    }
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..PER_ROUND {
                op();
            }
            start.elapsed().as_nanos() as f64 / f64::from(PER_ROUND)
        })
        .fold(f64::INFINITY, f64::min)
}

fn round_trip() {
    let len = REQUEST.len() as i32;
    let ptr = engine_alloc(len);
    host_write(ptr, REQUEST);
    let packed = engine_call(ptr, len);
    black_box(host_read(packed));
    engine_free(ptr, len);
    engine_free((packed >> 32) as i32, packed as i32);
}

fn main() {
    let handled = best_ns_per_op(|| {
        black_box(handle(black_box(REQUEST)));
    });
    let round_trip = best_ns_per_op(round_trip);
    println!("abi::handle(version)          {handled:8.0} ns/op");
    println!(
        "exports round trip (version)  {round_trip:8.0} ns/op  (alloc, write, call, read, free x2)"
    );
}
