//! A timing loop (not a test): how long `Module::bundled` takes, compiling the module or, with the
//! `precompiled` feature, loading the build's native code; the median of `[runs]` loads (default 3).
//!
//! `cargo run --example load_timing` against `cargo run --features precompiled --example
//! load_timing`, back to back (the time is wasmtime's, so a debug build of this crate will do).

use std::time::{Duration, Instant};

use svc_engine::Module;

fn main() -> svc_engine::Result<()> {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(3)
        .max(1);
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut precompiled = false;
    for _ in 0..runs {
        let start = Instant::now();
        let module = Module::bundled()?;
        times.push(start.elapsed());
        precompiled = module.is_precompiled();
    }
    times.sort();
    let median = times.get(runs / 2).copied().unwrap_or_default();
    println!(
        "Module::bundled, precompiled {precompiled}: median {:.1} ms of {runs}",
        median.as_secs_f64() * 1e3
    );
    Ok(())
}
