//! `is_valid` allocates nothing on the MCP cases (after a first warm-up call, which may
//! fill the regex engine's per-thread cache). A counting global allocator proves it.

use mcp_jsonschema::Validator;
use serde_json::Value;
use std::alloc::{GlobalAlloc, Layout, System};
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
fn is_valid_allocates_nothing_on_the_mcp_cases() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data/mcp");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("benches/data/mcp exists") {
        let path = entry.expect("readable directory").path();
        let text = std::fs::read_to_string(&path).expect("readable case");
        let case: Value = serde_json::from_str(&text).expect("a JSON case");
        let validator = Validator::new(&case["schema"]).expect("the case's schema compiles");
        let instances: Vec<&Value> = ["valid", "invalid"]
            .iter()
            .flat_map(|key| case[*key].as_array().into_iter().flatten())
            .collect();
        for instance in &instances {
            validator.is_valid(instance); // warm-up: regex caches
        }
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for instance in &instances {
            std::hint::black_box(validator.is_valid(instance));
        }
        let allocated = ALLOCATIONS.load(Ordering::Relaxed) - before;
        assert_eq!(
            allocated,
            0,
            "{} allocated {allocated} times",
            path.display()
        );
        checked += instances.len();
    }
    assert!(checked >= 8, "only {checked} instances found");
}
