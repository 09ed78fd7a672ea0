//! A global allocator that counts live heap bytes and their high-water
//! mark, for the peak of one engine call: the `memory` test asserts it
//! against a budget and the `abuse` example prints it. Natively pointers
//! take twice the bytes they take in the module, so a peak here is above
//! the module's for the same request.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting live bytes and their high-water mark.
pub struct Counting;

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

/// What `call` returns, and the most heap bytes it held live at once
/// beyond what was live before it (the process's other threads allocating
/// meanwhile would count too: call it with no others running).
pub fn peak_of<T>(call: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = call();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(before))
}

/// A kind with an input, a host function and two decisions.
pub const KIND: &str = "kind Door version 1\n\ninput floor: int\ninput user: string\n\nfn badge(string) -> bool\n\n\
decision deny {\n  reason: closed | no_rule\n}\n\ndecision allow {\n  reason: member\n  minutes: int = 5\n}\n\n\
collect one\nprecedence deny > allow\n\ndefault deny(reason: no_rule)\n";

/// A policy of `rules` distinct rules over the kind: 36,000 of them are
/// the most under the 4 MiB body limit (3.9 MB).
pub fn rules(rules: usize) -> String {
    let mut s = String::from("policy door.main: Door@1\n\n");
    for i in 0..rules {
        s.push_str(&format!(
            "when floor > {i} and badge(user) and user != \"u{i}\" {{\n  allow(reason: member, minutes: floor + {i})\n}}\n\n"
        ));
    }
    s
}

/// `text` as a JSON string literal.
pub fn json(text: &str) -> String {
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

/// The files member of a request: the kind and `policies` (path, source).
pub fn files_of(policies: &[(String, String)]) -> String {
    let all: Vec<String> = std::iter::once(format!(r#"{{"path":"kind.sigil","source":{}}}"#, json(KIND)))
        .chain(
            policies
                .iter()
                .map(|(path, source)| format!(r#"{{"path":{},"source":{}}}"#, json(path), json(source))),
        )
        .collect();
    format!(r#""files":[{}]"#, all.join(","))
}

/// The files member of a request of the kind and `policy` as door/main.sigil.
pub fn files(policy: &str) -> String {
    files_of(&[("door/main.sigil".to_owned(), policy.to_owned())])
}

/// A request of `op` (check, compile or explain) over the kind and `policy`.
pub fn request(op: &str, policy: &str) -> String {
    match op {
        "check" => format!(r#"{{"op":"check",{}}}"#, files(policy)),
        _ => format!(r#"{{"op":"{op}",{},"policy":"door.main"}}"#, files(policy)),
    }
}
