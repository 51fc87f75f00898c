//! `is_valid` allocates nothing, on every benchmark case (the 34 jsonschema-benchmark
//! schemas, the classic ones and the MCP ones; `benches/common/cases.rs`) and on every
//! instance, valid or not, after a first warm-up pass (which may fill the regex engine's
//! per-thread caches). A counting global allocator proves it.
//!
//! Caches built once in a validator's life may still be built later: a pattern searched
//! often enough gets its full DFA on the search that proves it hot (`src/regex/table.rs`),
//! whenever that comes. So an instance that allocated is run again at once, and fails
//! the test only if it allocates again: a one-time build does not repeat. Patterns only
//! the backtracking engine can run (ui5-manifest's lookahead) included: its buffers are
//! kept per thread.
//!
//! The benchmark data lives outside the repository (`../shared/bench-data`, or
//! `$MCP_JSONSCHEMA_BENCH_DATA`); without it only the embedded MCP cases run, and the
//! test says so on standard error.

mod common;

use common::{cases, compile};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: delegates every call to the system allocator unchanged; it only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn is_valid_allocates_nothing_on_any_benchmark_case() {
    let dir = cases::data_dir(Path::new(env!("CARGO_MANIFEST_DIR")));
    let all = cases::load(&dir, &|_| true).expect("the benchmark cases load");
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &all {
        let validator = compile(case);
        for instance in &case.instances {
            validator.is_valid(instance); // warm-up: regex caches
        }
        for (i, instance) in case.instances.iter().enumerate() {
            let allocations = || {
                let before = ALLOCATIONS.load(Ordering::Relaxed);
                std::hint::black_box(validator.is_valid(instance));
                ALLOCATIONS.load(Ordering::Relaxed) - before
            };
            if allocations() == 0 {
                continue;
            }
            let allocated = allocations();
            if allocated != 0 {
                failures.push(format!(
                    "{} instance {i}: {allocated} allocations",
                    case.name
                ));
            }
        }
        checked += case.instances.len();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The MCP cases alone have more than 8 instances; the full data set thousands.
    assert!(checked >= 8, "only {checked} instances found");
    eprintln!(
        "is_valid allocated nothing on {checked} instances of {} cases",
        all.len()
    );
}
