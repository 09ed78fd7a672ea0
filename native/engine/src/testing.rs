//! Helpers shared by the crate's tests: the seeded generator of the property
//! and fuzz-style tests, the golden harness, the spec's example files, and
//! the peak of what a call allocates.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};

/// The system allocator, counting each thread's live bytes and their high-water mark, so that a test
/// can bound what one call allocates (issue #20) while other tests run on other threads.
struct Counting;

thread_local! {
    /// This thread's live bytes and their high-water mark.
    static COUNTS: Cell<(isize, isize)> = const { Cell::new((0, 0)) };
}

/// Adds `delta` bytes to this thread's live count and raises its peak.
fn count(delta: isize) {
    // `try_with`: a thread being torn down still frees; its counts no longer matter.
    let _ = COUNTS.try_with(|counts| {
        let (live, peak) = counts.get();
        let live = live.wrapping_add(delta);
        counts.set((live, peak.max(live)));
    });
}

/// Bytes as a signed count (no allocation is larger than `isize::MAX`).
fn signed(bytes: usize) -> isize {
    isize::try_from(bytes).unwrap_or(isize::MAX)
}

// SAFETY: every call forwards to `System` with the caller's arguments; the counts are statistics.
#[expect(unsafe_code, reason = "a global allocator is unsafe to implement")]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(signed(layout.size()));
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(signed(layout.size()));
        // SAFETY: forwarded unchanged.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-signed(layout.size()));
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A realloc that moves holds both blocks for a moment: count the new one first.
        count(signed(new_size));
        count(-signed(layout.size()));
        // SAFETY: forwarded unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// What `f` returns, and the most bytes it had allocated at once on this thread beyond what was live
/// when it started.
pub(crate) fn peak_bytes<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = COUNTS.with(|counts| {
        let (live, _) = counts.get();
        counts.set((live, live));
        live
    });
    let out = f();
    let (_, peak) = COUNTS.with(Cell::get);
    (out, usize::try_from(peak - start).unwrap_or(0))
}

/// xorshift64*: small, seeded, the same sequence on every run, so a failing
/// case reproduces from its seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Compares each `<case>.sigil` in `testdata` (relative to the crate) with its
/// `<case>.golden`, the text `golden(file name, source)` makes; with
/// `UPDATE_GOLDEN=1` it rewrites the goldens instead. Needs `min_cases` cases.
pub(crate) fn check_goldens(
    testdata: &str,
    min_cases: usize,
    golden: impl Fn(&str, &str) -> String,
) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(testdata);
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut cases: Vec<PathBuf> = files_in(&dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "sigil"))
        .collect();
    cases.sort();
    assert!(
        cases.len() >= min_cases,
        "only {} goldens in {}",
        cases.len(),
        dir.display()
    );
    let mut failed = Vec::new();
    for case in &cases {
        let src = read(case);
        let name = case
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let got = golden(&name, &src);
        let path = case.with_extension("golden");
        if update {
            std::fs::write(&path, &got)
                .unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if got != want {
            eprintln!("--- {} differs; got:\n{got}", path.display());
            failed.push(name);
        }
    }
    assert!(
        failed.is_empty(),
        "goldens differ (UPDATE_GOLDEN=1 to rewrite): {failed:?}"
    );
}

/// Every `.sigil` file under the spec's examples (`$SIGIL_SPEC_EXAMPLES`, else
/// `shared/spec/examples` beside the repository), sorted. Outside CI a missing
/// folder skips the caller's test (empty list); under CI (`CI` set) it fails,
/// so the examples are never silently unchecked there.
pub(crate) fn spec_example_files() -> Vec<PathBuf> {
    let dir = match std::env::var_os("SIGIL_SPEC_EXAMPLES") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec/examples"),
    };
    if !dir.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the spec examples are missing at {}; set SIGIL_SPEC_EXAMPLES",
            dir.display()
        );
        eprintln!("spec examples not found; set SIGIL_SPEC_EXAMPLES to run this test");
        return Vec::new();
    }
    let mut out = Vec::new();
    sigil_files(&dir, &mut out);
    out
}

/// The `.sigil` files of the spec's policy scenario `name` as (path
/// relative to the scenario, source), sorted by path; empty when the
/// examples are missing outside CI.
pub(crate) fn spec_scenario(name: &str) -> Vec<(String, String)> {
    let marker = format!("policies/{name}/");
    spec_example_files()
        .iter()
        .filter_map(|file| {
            let text = file.to_string_lossy();
            let at = text.find(&marker)?;
            let path = text.get(at + marker.len()..)?.to_owned();
            Some((path, read(file)))
        })
        .collect()
}

/// The value of the header line `// key: value` of a spec example, if any.
pub(crate) fn example_header<'s>(src: &'s str, key: &str) -> Option<&'s str> {
    src.lines()
        .find_map(|l| l.strip_prefix("// ")?.strip_prefix(key)?.strip_prefix(": "))
}

/// The text of `path`, failing the test when it can't be read.
pub(crate) fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn sigil_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for p in files_in(dir) {
        if p.is_dir() {
            sigil_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "sigil") {
            out.push(p);
        }
    }
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    paths
}

/// Runs `f` on a thread with a 2 MiB stack (the default for test threads,
/// made explicit, so depth tests don't depend on it) and waits for it.
pub(crate) fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    let thread = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap_or_else(|e| panic!("spawning a test thread: {e}"));
    if let Err(panic) = thread.join() {
        std::panic::resume_unwind(panic);
    }
}

/// `policy p: K@1` with `param x: <ty>`, and the param's type as parsed
/// (the source, for positions).
pub(crate) fn param_type(ty: &str) -> (String, crate::ast::Type) {
    use crate::ast::{Document, Stmt};
    let src = format!("policy p: K@1\nparam x: {ty}");
    let (file, problems) = crate::parser::parse_file("p.sigil", &src);
    assert!(problems.is_empty(), "{src}\n{problems:?}");
    let Some(Document::Policy(doc)) = file.docs.into_iter().next() else {
        panic!("no policy in {src}");
    };
    let Some(Stmt::Param(param)) = doc.stmts.into_iter().next() else {
        panic!("no param in {src}");
    };
    (src, param.ty)
}

/// The kind the kind document `text` loads to, failing the test when it
/// doesn't parse or load.
pub(crate) fn load_kind(text: &str) -> crate::kind::Kind {
    let (file, problems) = crate::parser::parse_file("k.sigil", text);
    assert!(problems.is_empty(), "{problems:?}");
    let Some(crate::ast::Document::Kind(doc)) = file.docs.first() else {
        panic!("no kind document in {text}");
    };
    let loaded = crate::kind::load(doc);
    loaded
        .kind
        .unwrap_or_else(|| panic!("{:?}", loaded.diagnostics))
}
