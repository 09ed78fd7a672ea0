//! The engine's working set on the largest valid sources under the 4 MiB
//! body limit (issue #20: at most 64 MiB of module memory per request),
//! counted natively by a global allocator: the peak of live heap bytes of
//! one call. A test binary of its own, with one test, so that no other
//! test's allocations count. Natively pointers take twice their bytes in
//! the module; `tests/wasm_memory.py` measures the module itself.

#[path = "common/counting.rs"]
mod counting;

use counting::{Counting, peak_of, request, rules};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const MIB: usize = 1 << 20;

#[test]
fn a_check_of_36000_rules_holds_no_compiled_program_beside_the_tree() {
    // Was 125 MiB natively (97 MiB of module memory): the check's static
    // compile built every rule's compiled form and record texts, as large
    // again as the syntax tree, only to read its errors. Now the tree, its
    // tokens and the request's copy of the source: about 70 MiB.
    let body = request("check", &rules(36_000));
    let (answer, peak) = peak_of(|| engine::abi::handle(body.as_bytes()));
    assert_eq!(
        String::from_utf8_lossy(&answer),
        r#"{"ok":true,"diagnostics":[]}"#
    );
    assert!(peak < 80 * MIB, "check of 36,000 rules peaked at {} MiB", peak / MIB);
}
