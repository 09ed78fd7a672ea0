//! The module's memory allocator: size classes with free lists in front of
//! the C library's `malloc` (wasi-libc's dlmalloc).
//!
//! Why: the engine allocates and frees many small objects per request
//! (tokens, tree nodes, strings, values), and `malloc`/`free` were a fifth
//! of a format op's instructions. Rust tells the allocator each block's
//! size when it frees it, so a small block needs no header and no
//! coalescing: freeing pushes it on the free list of its size class, and
//! allocating pops one (or carves one from the current region). That keeps
//! most of a bump allocator's speed without its flaw: a compiled policy
//! outlives the request that made it, so nothing here is reset per request;
//! every block is freed on its own, when its owner drops it.
//!
//! * Small blocks (up to [`MAX_SMALL`] bytes, alignment up to 16) come in
//!   [`CLASS_COUNT`] classes: steps of 16 bytes up to 128, then four steps
//!   per power of two, so no block wastes more than a quarter of itself.
//!   They are carved from regions of [`REGION`] bytes that `malloc` gives.
//! * Larger or more aligned blocks go to `malloc` itself, which can grow
//!   them in place and gives them back for reuse of any size.
//!
//! Memory stays flat under a steady load: a freed small block is only ever
//! reused for its own class, and a region is never given back, so the
//! memory is the high-water mark of each class's live blocks. The module's
//! memory never shrinks anyway (WebAssembly memory only grows).
//!
//! Only the wasm module installs it as its global allocator: a module
//! instance runs one thread. Native builds keep the system allocator, and
//! test this one through a [`Heap`] of their own.
#![expect(
    unsafe_code,
    reason = "a global allocator hands out raw memory: GlobalAlloc is an unsafe trait"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::ptr;

/// The largest block served from a size class.
const MAX_SMALL: usize = 4096;
/// How many size classes there are.
const CLASS_COUNT: usize = 28;
/// The alignment of every small block: classes are multiples of it and
/// regions start at it.
const SMALL_ALIGN: usize = 16;
/// How much a region holds.
const REGION: usize = 64 * 1024;

/// The index of the smallest class that holds `size` bytes, for sizes up
/// to [`MAX_SMALL`].
fn class_of(size: usize) -> usize {
    if size <= 128 {
        return size.saturating_sub(1) / 16;
    }
    // (2^log, 2^(log+1)] splits into four classes of 2^(log-2) bytes.
    let last = size - 1;
    let log = (usize::BITS - 1 - last.leading_zeros()) as usize;
    let step = (last >> (log - 2)) & 3;
    8 + (log - 7) * 4 + step
}

/// The block size of class `class`.
fn class_size(class: usize) -> usize {
    if class < 8 {
        return (class + 1) * 16;
    }
    let log = 7 + (class - 8) / 4;
    let step = (class - 8) % 4;
    (1 << log) + ((step + 1) << (log - 2))
}

/// The class of a block with `layout`, or `None` when `malloc` serves it.
fn small_class(layout: Layout) -> Option<usize> {
    (layout.size() <= MAX_SMALL && layout.align() <= SMALL_ALIGN).then(|| class_of(layout.size()))
}

/// The allocator's state: a free list per class and the unused rest of the
/// current region.
pub(crate) struct Heap {
    /// The first free block of each class; each free block holds the
    /// address of the next in its first bytes (null ends the list).
    free: [*mut u8; CLASS_COUNT],
    /// Where the next block is carved from the current region.
    next: *mut u8,
    /// How many bytes are left after `next`.
    left: usize,
    /// Whether a class without free blocks takes one of a larger class
    /// ([`Heap::spare_class`]): only while a stage frees the previous
    /// stage's tree as it builds its own ([`reusing_larger_blocks`]).
    /// Always on, it cost other ops memory: blocks drift down the classes
    /// and the larger classes take new regions for them.
    reuse_larger: bool,
}

impl Heap {
    /// A heap that holds nothing yet.
    pub(crate) const fn new() -> Self {
        Self {
            free: [ptr::null_mut(); CLASS_COUNT],
            next: ptr::null_mut(),
            left: 0,
            reuse_larger: false,
        }
    }

    /// A block for `layout`; null when memory ran out.
    ///
    /// # Safety
    ///
    /// As [`GlobalAlloc::alloc`]: `layout` has a non-zero size.
    pub(crate) unsafe fn alloc(&mut self, layout: Layout) -> *mut u8 {
        let Some(class) = small_class(layout) else {
            // SAFETY: the caller's contract is malloc's.
            return unsafe { System.alloc(layout) };
        };
        let Some(head) = self.free.get_mut(class) else {
            return ptr::null_mut();
        };
        if !head.is_null() {
            // SAFETY: the list isn't empty.
            return unsafe { self.pop(class) };
        }
        if let Some(spare) = self.spare_class(class).filter(|_| self.reuse_larger) {
            // SAFETY: the list isn't empty.
            return unsafe { self.pop(spare) };
        }
        // SAFETY: forwarded from the caller.
        unsafe { self.carve(class_size(class)) }
    }

    /// A larger class, at most twice the size of `class`, with a free
    /// block: when `class` has none, such a block serves it rather than
    /// new memory. Why: a compile frees the syntax tree of each statement
    /// as it builds the statement's program, whose blocks are mostly of
    /// other, smaller classes (the compiled expressions); without this the
    /// freed blocks would sit on their lists and the program take new
    /// regions beside them (issue #20). Once freed, the block joins the
    /// list of the class it served, its rest unused.
    fn spare_class(&self, class: usize) -> Option<usize> {
        let most = 2 * class_size(class);
        (class + 1..CLASS_COUNT)
            .take_while(|&c| class_size(c) <= most)
            .find(|&c| self.free.get(c).is_some_and(|head| !head.is_null()))
    }

    /// The first free block of `class`, taken off its list.
    ///
    /// # Safety
    ///
    /// The list of `class` isn't empty.
    unsafe fn pop(&mut self, class: usize) -> *mut u8 {
        let Some(head) = self.free.get_mut(class) else {
            return ptr::null_mut();
        };
        let block = *head;
        // SAFETY: a free block of this heap holds the next one's address
        // in its first bytes, aligned: blocks are 16-aligned.
        *head = unsafe { block.cast::<*mut u8>().read() };
        block
    }

    /// A zeroed block for `layout`; null when memory ran out. `calloc`
    /// knows when fresh memory is zero already.
    ///
    /// # Safety
    ///
    /// As [`GlobalAlloc::alloc_zeroed`].
    pub(crate) unsafe fn alloc_zeroed(&mut self, layout: Layout) -> *mut u8 {
        if small_class(layout).is_none() {
            // SAFETY: the caller's contract is calloc's.
            return unsafe { System.alloc_zeroed(layout) };
        }
        // SAFETY: forwarded; a non-null block is valid for `layout.size()`.
        unsafe {
            let block = self.alloc(layout);
            if !block.is_null() {
                ptr::write_bytes(block, 0, layout.size());
            }
            block
        }
    }

    /// A new block of `size` bytes from the current region, starting a
    /// region when it has too little left.
    ///
    /// # Safety
    ///
    /// `size` is a class size (a multiple of [`SMALL_ALIGN`], at most
    /// [`MAX_SMALL`]).
    unsafe fn carve(&mut self, size: usize) -> *mut u8 {
        if self.left < size {
            // The rest of the old region is left unused: less than one
            // block of this class.
            // SAFETY: REGION is non-zero and SMALL_ALIGN a power of two.
            let region =
                unsafe { System.alloc(Layout::from_size_align_unchecked(REGION, SMALL_ALIGN)) };
            if region.is_null() {
                return region;
            }
            self.next = region;
            self.left = REGION;
        }
        let block = self.next;
        // SAFETY: `size <= left`, so the block and the new `next` lie in
        // the region (or one past its end).
        self.next = unsafe { block.add(size) };
        self.left -= size;
        block
    }

    /// Frees a block.
    ///
    /// # Safety
    ///
    /// As [`GlobalAlloc::dealloc`]: `block` came from this heap with
    /// `layout`, and isn't used afterwards.
    pub(crate) unsafe fn dealloc(&mut self, block: *mut u8, layout: Layout) {
        let Some(class) = small_class(layout) else {
            // SAFETY: a block of this layout came from System.
            return unsafe { System.dealloc(block, layout) };
        };
        if let Some(head) = self.free.get_mut(class) {
            // SAFETY: the block is at least 16 bytes, 16-aligned, and ours
            // again: its first bytes hold the list's link.
            unsafe { block.cast::<*mut u8>().write(*head) };
            *head = block;
        }
    }

    /// Resizes a block: in place when the new size is of the same class,
    /// by `realloc` when `malloc` serves both, otherwise by moving it.
    ///
    /// # Safety
    ///
    /// As [`GlobalAlloc::realloc`].
    pub(crate) unsafe fn realloc(
        &mut self,
        block: *mut u8,
        layout: Layout,
        new_size: usize,
    ) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size`, rounded up to the
        // alignment, doesn't overflow.
        let new_layout = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        match (small_class(layout), small_class(new_layout)) {
            (Some(old), Some(new)) if old == new => block,
            // SAFETY: the block came from System with `layout`.
            (None, None) => unsafe { System.realloc(block, layout, new_size) },
            _ => {
                // SAFETY: `new_layout` has a non-zero size (the caller's
                // contract); the old block is valid for `layout.size()`
                // bytes and the new one for `new_size`, and they are apart.
                unsafe {
                    let moved = self.alloc(new_layout);
                    if !moved.is_null() {
                        ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                        self.dealloc(block, layout);
                    }
                    moved
                }
            }
        }
    }
}

/// Runs `stage` with a class without free blocks served from a larger
/// class's ([`Heap::spare_class`]).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
pub(crate) fn reusing_larger_blocks<T>(stage: impl FnOnce() -> T) -> T {
    /// Turns the reuse off again however `stage` ends (a panic is caught
    /// and answered, and the instance goes on).
    struct Off;
    impl Drop for Off {
        fn drop(&mut self) {
            // SAFETY: one thread, and no allocator call is running here.
            unsafe { (*MODULE_HEAP.0.get()).reuse_larger = false };
        }
    }
    // SAFETY: as in Off::drop.
    unsafe { (*MODULE_HEAP.0.get()).reuse_larger = true };
    let _off = Off;
    stage()
}

/// The module's allocator.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static MODULE_HEAP: ModuleHeap = ModuleHeap(std::cell::UnsafeCell::new(Heap::new()));

/// The heap as a global allocator.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
struct ModuleHeap(std::cell::UnsafeCell<Heap>);

// SAFETY: a module instance runs on one thread (the module is built
// without atomics, so without threads), so the heap is never used from
// two at once.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl Sync for ModuleHeap {}

// SAFETY: Heap's functions keep GlobalAlloc's contract; calls never
// overlap: there is one thread, and no allocator call re-enters another.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl GlobalAlloc for ModuleHeap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { (*self.0.get()).alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { (*self.0.get()).alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: see the impl.
        unsafe { (*self.0.get()).dealloc(block, layout) }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { (*self.0.get()).realloc(block, layout, new_size) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn each_size_gets_the_smallest_class_that_holds_it() {
        let mut class = 0;
        for size in 1..=MAX_SMALL {
            if size > class_size(class) {
                class += 1;
            }
            assert_eq!(class_of(size), class, "size {size}");
        }
        assert_eq!(class, CLASS_COUNT - 1);
        assert_eq!(class_size(CLASS_COUNT - 1), MAX_SMALL);
    }

    #[test]
    fn no_block_wastes_more_than_a_quarter_of_itself_past_128_bytes() {
        for class in 0..CLASS_COUNT {
            let size = class_size(class);
            assert_eq!(size % SMALL_ALIGN, 0, "class {class}");
            if class > 0 && size > 128 {
                let smaller = class_size(class - 1);
                assert!((size - smaller) * 4 <= size, "{smaller} -> {size}");
            }
        }
    }

    #[test]
    fn a_freed_block_serves_its_class_and_never_a_larger_one() {
        let mut heap = Heap::new();
        unsafe {
            let a = heap.alloc(layout(40, 8));
            heap.dealloc(a, layout(40, 8));
            let other_class = heap.alloc(layout(100, 8));
            assert_ne!(other_class, a);
            assert_eq!(
                heap.alloc(layout(33, 4)),
                a,
                "33 and 40 bytes share a class"
            );
            heap.dealloc(a, layout(33, 4));
            heap.dealloc(other_class, layout(100, 8));
        }
    }

    #[test]
    fn a_class_without_free_blocks_takes_one_of_a_class_at_most_twice_its_size() {
        let mut heap = Heap::new();
        heap.reuse_larger = true;
        unsafe {
            let tree_node = heap.alloc(layout(48, 8));
            let too_large = heap.alloc(layout(80, 8));
            heap.dealloc(tree_node, layout(48, 8));
            heap.dealloc(too_large, layout(80, 8));
            let compiled = heap.alloc(layout(32, 8));
            assert_eq!(
                compiled, tree_node,
                "the free 48-byte block serves 32 bytes"
            );
            let fresh = heap.alloc(layout(32, 8));
            assert_ne!(fresh, too_large, "80 bytes are more than twice 32");
            heap.dealloc(compiled, layout(32, 8));
            assert_eq!(
                heap.alloc(layout(20, 8)),
                compiled,
                "freed, it is a 32-byte block"
            );
            heap.dealloc(compiled, layout(20, 8));
            heap.dealloc(fresh, layout(32, 8));
        }
    }

    #[test]
    fn larger_blocks_serve_smaller_classes_only_when_asked() {
        let mut heap = Heap::new();
        unsafe {
            let tree_node = heap.alloc(layout(48, 8));
            heap.dealloc(tree_node, layout(48, 8));
            let compiled = heap.alloc(layout(32, 8));
            assert_ne!(compiled, tree_node);
            assert_eq!(heap.alloc(layout(48, 8)), tree_node);
            heap.dealloc(tree_node, layout(48, 8));
            heap.dealloc(compiled, layout(32, 8));
        }
    }

    #[test]
    fn large_and_overaligned_blocks_come_from_malloc() {
        let mut heap = Heap::new();
        unsafe {
            let large = heap.alloc(layout(MAX_SMALL + 1, 8));
            let aligned = heap.alloc(layout(64, 64));
            assert_eq!(aligned.addr() % 64, 0);
            assert!(heap.next.is_null(), "no region was started");
            heap.dealloc(large, layout(MAX_SMALL + 1, 8));
            heap.dealloc(aligned, layout(64, 64));
        }
    }

    #[test]
    fn realloc_keeps_the_bytes_and_stays_in_place_within_a_class() {
        let mut heap = Heap::new();
        unsafe {
            let block = heap.alloc(layout(20, 1));
            for i in 0..20 {
                block.add(i).write(i as u8);
            }
            assert_eq!(heap.realloc(block, layout(20, 1), 32), block);
            let mut block = block;
            let mut size = 32;
            // Through every class, into malloc's blocks and back.
            for new_size in [100, 3000, 5000, 70_000, 4000, 16] {
                block = heap.realloc(block, layout(size, 1), new_size);
                size = new_size;
                for i in 0..16 {
                    assert_eq!(block.add(i).read(), i as u8, "after resizing to {size}");
                }
            }
            heap.dealloc(block, layout(size, 1));
        }
    }

    #[test]
    fn alloc_zeroed_zeroes_a_reused_block() {
        let mut heap = Heap::new();
        unsafe {
            let block = heap.alloc(layout(64, 8));
            block.write_bytes(0xab, 64);
            heap.dealloc(block, layout(64, 8));
            let zeroed = heap.alloc_zeroed(layout(64, 8));
            assert_eq!(zeroed, block);
            assert!((0..64).all(|i| zeroed.add(i).read() == 0));
            heap.dealloc(zeroed, layout(64, 8));
        }
    }

    /// Random allocations, frees and resizes: every live block stays
    /// aligned, apart from the others, and keeps what was written into it.
    #[test]
    fn live_blocks_never_overlap_or_lose_their_bytes() {
        let mut heap = Heap::new();
        let mut rng = Rng(0x5eed_4ea9);
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let fill = |block: *mut u8, l: Layout, tag: u8| unsafe { block.write_bytes(tag, l.size()) };
        let intact = |block: *mut u8, l: Layout, tag: u8| unsafe {
            (0..l.size()).all(|i| block.add(i).read() == tag)
        };
        for step in 0..20_000u32 {
            let tag = (step % 251) as u8;
            match rng.below(3) {
                0 | 1 if live.len() < 400 => {
                    let size = match rng.below(10) {
                        0 => 1 + rng.below(20_000),
                        _ => 1 + rng.below(600),
                    };
                    let l = layout(size, 1 << rng.below(6));
                    let block = unsafe { heap.alloc(l) };
                    assert_eq!(block.addr() % l.align(), 0);
                    fill(block, l, tag);
                    live.push((block, l, tag));
                }
                2 if !live.is_empty() => {
                    let (block, l, old) = live.swap_remove(rng.below(live.len()));
                    assert!(intact(block, l, old), "step {step}");
                    let new_size = 1 + rng.below(6000);
                    let moved = unsafe { heap.realloc(block, l, new_size) };
                    let kept = l.size().min(new_size);
                    assert!((0..kept).all(|i| unsafe { moved.add(i).read() } == old));
                    let l = layout(new_size, l.align());
                    fill(moved, l, tag);
                    live.push((moved, l, tag));
                }
                _ => {
                    if let Some((block, l, old)) = live.pop() {
                        assert!(intact(block, l, old), "step {step}");
                        unsafe { heap.dealloc(block, l) };
                    }
                }
            }
        }
        let mut spans: Vec<(usize, usize)> =
            live.iter().map(|(b, l, _)| (b.addr(), l.size())).collect();
        spans.sort_unstable();
        for pair in spans.windows(2) {
            assert!(pair[0].0 + pair[0].1 <= pair[1].0, "{pair:?} overlap");
        }
        for (block, l, tag) in live {
            assert!(intact(block, l, tag));
            unsafe { heap.dealloc(block, l) };
        }
    }
}
