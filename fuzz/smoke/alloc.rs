//! A counting global allocator: the system allocator, plus the largest single request of each thread since its last reset,
//! so the smoke can fail an input that asks for more than 256 MB at once (before it becomes an OOM kill on a
//! machine with less memory).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // Per thread, so the smoke tests running in parallel each see their own input's requests. A const
    // initializer and no destructor: safe to touch from inside the allocator.
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    let _ = PEAK.try_with(|p| p.set(p.get().max(size)));
}

// SAFETY: every method forwards to `System` with the caller's arguments; only a counter is added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: forwarded contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: forwarded contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded contract.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: forwarded contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Forgets the largest request so far.
pub fn reset_peak() {
    PEAK.with(|p| p.set(0));
}

/// The largest single allocation request (bytes) of this thread since [`reset_peak`].
pub fn peak() -> usize {
    PEAK.with(Cell::get)
}
