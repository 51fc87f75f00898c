//! A global allocator that can count live heap bytes, to compare how much memory each
//! engine's compiled schema keeps, whether or not the engine can report it itself.
//!
//! Counting is off except inside [`retained_by`], so the timed code only pays one relaxed
//! atomic load per allocation, the same for every engine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

/// The system allocator, plus counting.
pub struct Counting;

static ENABLED: AtomicBool = AtomicBool::new(false);
static LIVE: AtomicIsize = AtomicIsize::new(0);

fn record(delta: isize) {
    if ENABLED.load(Relaxed) {
        LIVE.fetch_add(delta, Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to `System`; the bookkeeping around it
// allocates nothing and cannot fail.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            record(layout.size() as isize);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            record(layout.size() as isize);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) };
        record(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as the caller's.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            record(new_size as isize - layout.size() as isize);
        }
        new
    }
}

/// Runs `make` with counting on and returns its result with the heap bytes it allocated
/// and did not free (i.e. what the result holds, plus anything cached globally). Single
/// threaded use only: allocations of other threads would be counted too.
pub fn retained_by<T>(make: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Relaxed);
    ENABLED.store(true, Relaxed);
    let value = make();
    ENABLED.store(false, Relaxed);
    let after = LIVE.load(Relaxed);
    (value, usize::try_from(after - before).unwrap_or(0))
}
