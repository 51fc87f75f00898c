//! Hash tables made by the crate (the compiler's bookkeeping, `uniqueItems` over long
//! arrays, deduplicated errors), all keyed from one random state per process.
//!
//! `AHashMap::new()` derives a fresh random state for every table, which costs more
//! than the whole use of the small tables a compile makes by the dozen. The keys stay
//! random per process (chosen on first use), so table layouts still cannot be predicted
//! from outside.

use ahash::{AHashMap, AHashSet, RandomState};
use std::sync::OnceLock;

/// The process's random state, cloned into every table.
fn state() -> RandomState {
    static STATE: OnceLock<RandomState> = OnceLock::new();
    STATE.get_or_init(RandomState::new).clone()
}

/// An empty map.
pub(crate) fn map<K, V>() -> AHashMap<K, V> {
    AHashMap::with_hasher(state())
}

/// An empty map with room for `capacity` entries.
pub(crate) fn map_with_capacity<K, V>(capacity: usize) -> AHashMap<K, V> {
    AHashMap::with_capacity_and_hasher(capacity, state())
}

/// An empty set.
pub(crate) fn set<T>() -> AHashSet<T> {
    AHashSet::with_hasher(state())
}
