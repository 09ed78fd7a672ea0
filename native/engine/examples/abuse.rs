//! The heaviest requests found against the engine (issue #20), replayed
//! natively: `cargo run --release --example abuse [-- NAME-FILTER]`.
//!
//! For each request it prints the engine time (best of a few runs), the
//! peak of live heap bytes during one call (a counting global allocator, so
//! the figure is the engine's own working set, not the process's RSS), the
//! answer's size and the request's size. The module's own figure, its
//! memory size after a call, is `svc_pool_memory_bytes` of a server, which
//! `scripts/abuse` prints per request; natively pointers take twice the
//! bytes, so the peak here is above the module's for the same request. The goal of the issue: no request
//! under the 4 MiB body limit takes more than 2 s of engine time or 64 MiB
//! of module memory. Timing only, no thresholds (design.md §7); the
//! engine's unit tests assert the bounds as counts and sizes.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use engine::abi::handle;

#[path = "../src/abi/invocation_chain.rs"]
mod invocation_chain;
use invocation_chain::chain;

/// The system allocator, counting live bytes and their high-water mark.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call forwards to `System` with the caller's arguments; the
// counters are only statistics.
#[expect(unsafe_code, reason = "a global allocator is unsafe to implement")]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let live = if new_size >= layout.size() {
            LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size - layout.size()
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed) - (layout.size() - new_size)
        };
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A kind with an input, a host function and two decisions.
const KIND: &str = "kind Door version 1\n\ninput floor: int\ninput user: string\n\nfn badge(string) -> bool\n\n\
decision deny {\n  reason: closed | no_rule\n}\n\ndecision allow {\n  reason: member\n  minutes: int = 5\n}\n\n\
collect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";

/// A policy of `rules` distinct rules over the kind.
fn rules(rules: usize) -> String {
    let mut s = String::from("policy door.main: Door@1\n\n");
    for i in 0..rules {
        s.push_str(&format!(
            "when floor > {i} and badge(user) and user != \"u{i}\" {{\n  allow(reason: member, minutes: floor + {i})\n}}\n\n"
        ));
    }
    s
}

/// `text` as a JSON string literal.
fn json(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn files(policy: &str) -> String {
    files_of(&[("door/main.sigil".to_owned(), policy.to_owned())])
}

/// The files member of the kind and `policies` (path, source).
fn files_of(policies: &[(String, String)]) -> String {
    let all: Vec<String> =
        std::iter::once(format!(
            r#"{{"path":"kind.sigil","source":{}}}"#,
            json(KIND)
        ))
        .chain(policies.iter().map(|(path, source)| {
            format!(r#"{{"path":{},"source":{}}}"#, json(path), json(source))
        }))
        .collect();
    format!(r#""files":[{}]"#, all.join(","))
}

fn check(policy: &str) -> String {
    format!(r#"{{"op":"check",{}}}"#, files(policy))
}

fn compile(policy: &str) -> String {
    format!(
        r#"{{"op":"compile",{},"policy":"door.main"}}"#,
        files(policy)
    )
}

fn explain(policy: &str) -> String {
    format!(
        r#"{{"op":"explain",{},"policy":"door.main"}}"#,
        files(policy)
    )
}

fn format_op(source: &str) -> String {
    format!(
        r#"{{"op":"format","path":"door/main.sigil","source":{}}}"#,
        json(source)
    )
}

fn test_op(policy: &str) -> String {
    let test = "policy: door.main\ncases:\n  - name: one\n    input: {floor: 2, user: ada}\n    expect: {decision: deny}\n";
    format!(
        r#"{{"op":"test",{},"test_files":[{{"path":"door/main_test.yaml","source":{}}}]}}"#,
        files(policy),
        json(test)
    )
}

/// Junk: `n` tokens the lexer or parser refuses, one per character.
fn junk(token: &str, n: usize) -> String {
    token.repeat(n)
}

/// Each op of the engine over the one policy `policy`, named `what`.
fn every_op(out: &mut Vec<(String, String)>, what: &str, policy: &str) {
    out.push((format!("check {what}"), check(policy)));
    out.push((format!("compile {what}"), compile(policy)));
    out.push((format!("explain {what}"), explain(policy)));
    out.push((format!("format {what}"), format_op(policy)));
    out.push((format!("test {what}"), test_op(policy)));
}

/// Every request of the issue and its neighbours, by name.
fn requests() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mb2 = 2 << 20;
    for (what, source) in [
        ("20k `#`", junk("#", 20_000)),
        ("100k `#`", junk("#", 100_000)),
        ("1M `# `", junk("# ", 1 << 20)),
        ("80k `) `", junk(") ", 80_000)),
        ("1M `) `", junk(") ", 1 << 20)),
        ("2 MiB NUL", "\0".repeat(mb2)),
        ("1M `\"` lines", junk("\"\n", 1 << 20)),
        ("1M `policy `", junk("policy ", 500_000)),
        ("1M `when x {`", junk("when x {", 400_000)),
        ("2 MiB `(`", "(".repeat(mb2)),
        ("4M `(`", "(".repeat(4_000_000)),
        ("1M `1x `", junk("1x ", 1 << 20)),
    ] {
        out.push((format!("check {what}"), check(&source)));
        out.push((format!("format {what}"), format_op(&source)));
        out.push((format!("test {what}"), test_op(&source)));
        out.push((format!("compile {what}"), compile(&source)));
    }
    for n in [80_000, 200_000] {
        let comments = format!("policy door.main: Door@1\n{}", "// x\n".repeat(n));
        let lets: String = (0..n / 4)
            .map(|i| format!("let l{i} = floor + {i}\n"))
            .collect();
        let lets = format!("policy door.main: Door@1\n{lets}");
        out.push((format!("format {n} comments"), format_op(&comments)));
        out.push((format!("check {n} comments"), check(&comments)));
        out.push((format!("format {} lets", n / 4), format_op(&lets)));
        out.push((format!("check {} lets", n / 4), check(&lets)));
    }
    for n in [10_000, 100_000] {
        let distinct: String = (0..n).map(|i| format!("policy d{i}: Door@1\n")).collect();
        let same = "policy door.main: Door@1\n".repeat(n);
        out.push((format!("check {n} documents"), check(&distinct)));
        out.push((format!("check {n} same documents"), check(&same)));
    }
    // 36,000 rules and 140,000 lets are the largest of their kind under 4 MiB (3.9 MB).
    for n in [1_000, 4_000, 8_000, 36_000] {
        let policy = rules(n);
        every_op(&mut out, &format!("{n} rules"), &policy);
    }
    let lets: String = (0..140_000)
        .map(|i| format!("let l{i} = floor + {i}\n"))
        .collect();
    every_op(
        &mut out,
        "140000 lets",
        &format!("policy door.main: Door@1\n{lets}"),
    );
    for depth in [12, 16, 20, 30] {
        let files = files_of(&chain(depth));
        out.push((
            format!("check chain {depth}"),
            format!(r#"{{"op":"check",{files}}}"#),
        ));
        out.push((
            format!("compile chain {depth}"),
            format!(r#"{{"op":"compile",{files},"policy":"door.main"}}"#),
        ));
        out.push((
            format!("explain chain {depth}"),
            format!(r#"{{"op":"explain",{files},"policy":"door.main"}}"#),
        ));
    }
    out
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    println!(
        "{:<28} {:>10} {:>10} {:>12} {:>12}",
        "request", "request", "ms (best)", "peak heap", "answer"
    );
    let mut worst_ms = 0.0_f64;
    let mut worst_peak = 0;
    for (name, request) in requests() {
        if !name.contains(&filter) {
            continue;
        }
        let bytes = request.as_bytes();
        let mut best = Duration::MAX;
        let mut answer = 0;
        let mut peak = 0;
        for round in 0..3 {
            let before = LIVE.load(Ordering::Relaxed);
            PEAK.store(before, Ordering::Relaxed);
            let started = Instant::now();
            let response = black_box(handle(black_box(bytes)));
            let spent = started.elapsed();
            peak = peak.max(PEAK.load(Ordering::Relaxed) - before);
            answer = response.len();
            best = best.min(spent);
            if round == 0 && spent > Duration::from_secs(1) {
                break;
            }
        }
        let ms = best.as_secs_f64() * 1000.0;
        worst_ms = worst_ms.max(ms);
        worst_peak = worst_peak.max(peak);
        println!(
            "{name:<28} {:>10} {ms:>10.1} {:>12} {answer:>12}",
            bytes.len(),
            peak
        );
    }
    println!("worst: {worst_ms:.1} ms, peak heap {worst_peak} bytes");
}
