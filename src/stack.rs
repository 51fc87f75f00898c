//! A guard on how much thread stack the compiler and the interpreter may use.
//!
//! Both walk nested data recursively. Depth limits alone cannot promise stack safety,
//! because a frame's size depends on the build profile (an unoptimised frame is many
//! times larger) and on the thread (spawned threads default to 2 MiB). So each walk also
//! measures the stack it has used, as the distance between the address of a local at its
//! start and one in the current frame, and stops with an error past a fixed budget.
//! Taking the address of a local is safe Rust; nothing is dereferenced.

/// Stack bytes a single compilation or validation may use: well inside the 2 MiB of a
/// default spawned thread.
pub(crate) const STACK_BUDGET: usize = 768 * 1024;

/// Where a walk started on the stack.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StackGuard {
    base: usize,
}

impl StackGuard {
    /// A guard measuring from the caller's frame.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        StackGuard { base: here() }
    }

    /// Whether the walk has used more than [`STACK_BUDGET`] bytes of stack.
    #[inline(always)]
    pub(crate) fn exhausted(&self) -> bool {
        self.base.abs_diff(here()) > STACK_BUDGET
    }
}

/// The address of a local in the current frame.
#[inline(always)]
fn here() -> usize {
    let marker = 0u8;
    std::hint::black_box(&marker) as *const u8 as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recurse(guard: &StackGuard, depth: usize) -> usize {
        let padding = std::hint::black_box([0u8; 256]);
        if guard.exhausted() {
            return depth + usize::from(padding[0]);
        }
        recurse(guard, depth + 1)
    }

    #[test]
    fn the_guard_trips_before_the_stack_runs_out() {
        let depth = std::thread::spawn(|| recurse(&StackGuard::new(), 0))
            .join()
            .unwrap();
        assert!(depth > 100, "{depth}");
    }
}
