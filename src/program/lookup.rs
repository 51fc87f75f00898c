//! [`NameLookup`]: how a [`Properties`] table finds a property name.

use super::Properties;
use crate::names::{ProbedIndex, QuickIndex};
use std::sync::Arc;

/// How a [`Properties`] table finds a name.
#[derive(Clone, Debug)]
pub(crate) enum NameLookup {
    /// A scan of the probe words of a short table (up to [`Properties::SCAN_UP_TO`]
    /// names; [`NameLookup::NO_PROBE`] fills the rest).
    Scan([u64; Properties::SCAN_UP_TO]),
    /// A slot per name by length and end bytes: most tables of real schemas.
    Quick(QuickIndex),
    /// Open addressing by a hash of the name's length and end words.
    Probed(ProbedIndex),
    /// A general hash map, for names too alike for a [`ProbedIndex`].
    Hashed(ahash::AHashMap<Arc<str>, u32>),
}

impl Default for NameLookup {
    fn default() -> Self {
        NameLookup::Scan([NameLookup::NO_PROBE; Properties::SCAN_UP_TO])
    }
}

impl NameLookup {
    /// A probe word no name has (its length would be 2^56 bytes).
    pub(super) const NO_PROBE: u64 = u64::MAX;

    /// Heap bytes held (a hash map's entries, control bytes and its share of names).
    pub(super) fn memory_usage(&self) -> usize {
        use crate::memory::{block, shared_text};
        match self {
            NameLookup::Scan(_) => 0,
            NameLookup::Quick(index) => index.memory_usage(),
            NameLookup::Probed(index) => index.memory_usage(),
            NameLookup::Hashed(map) => {
                // One block: a power-of-two number of buckets (7 in 8 usable from 8 on),
                // each an entry and a control byte, and a group of control bytes more.
                let capacity = map.capacity();
                let buckets = match capacity {
                    0 => 0,
                    1..8 => capacity + 1,
                    _ => capacity / 7 * 8,
                };
                let entry = std::mem::size_of::<(Arc<str>, u32)>() + 1;
                let table = if buckets == 0 {
                    0
                } else {
                    block(buckets * entry + 16)
                };
                table + map.keys().map(shared_text).sum::<usize>()
            }
        }
    }
}

/// [`Properties::position`] through a general hash map.
#[inline(never)]
pub(crate) fn hashed_position(map: &ahash::AHashMap<Arc<str>, u32>, name: &str) -> Option<usize> {
    map.get(name).map(|&i| i as usize)
}
