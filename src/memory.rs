//! The arithmetic of the `memory_usage()` figures: what one heap block costs, and the
//! heap below a JSON value.
//!
//! Every figure counts blocks as the allocator spends memory on them, not the bytes
//! asked for, since what a caller wants to know is how much the process grows: a
//! block costs its size plus an 8-byte header, rounded up to 16 bytes, 32 at least
//! (glibc's `malloc`, which the figures are held to; other allocators round to size
//! classes of their own, most with less overhead on the smallest blocks, so there the
//! figures are a little high). A `serde_json` object is a B-tree whose every node holds room for 11
//! entries, so a schema's many small objects cost far more than their entries: each
//! node is counted, as the tree is shaped for its length (`tests/load.rs` holds the
//! figures to the resident memory the process gains). Whether a map is that B-tree,
//! keys in byte order, or an insertion-ordered `IndexMap` (`serde_json`'s
//! `preserve_order`) is probed here once, for the figures and for the paths that rely on
//! the order.

use serde_json::{Map, Value};
use std::mem::size_of;
use std::sync::Arc;

/// The bytes the allocator spends on a block of `size` bytes (none for 0, which
/// allocates nothing).
pub(crate) const fn block(size: usize) -> usize {
    const HEADER: usize = 8;
    const ALIGN: usize = 16;
    const MIN: usize = 32;
    if size == 0 {
        return 0;
    }
    let rounded = size.saturating_add(HEADER + ALIGN - 1) & !(ALIGN - 1);
    if rounded < MIN {
        MIN
    } else {
        rounded
    }
}

/// The block of a vector's buffer.
pub(crate) fn vec<T>(items: &Vec<T>) -> usize {
    block(items.capacity() * size_of::<T>())
}

/// The block of a vector's buffer, and what each item holds below it.
pub(crate) fn vec_with<T>(items: &Vec<T>, below: impl Fn(&T) -> usize) -> usize {
    vec(items) + items.iter().map(below).sum::<usize>()
}

/// The block of a boxed slice.
pub(crate) fn slice<T>(items: &[T]) -> usize {
    block(std::mem::size_of_val(items))
}

/// The block of a boxed string.
pub(crate) fn text(text: &str) -> usize {
    block(text.len())
}

/// A holder's share of the block of a shared string (the text and two counts): each
/// holder counts an equal part, so a name several tables of one program hold is
/// counted once over all of them.
pub(crate) fn shared_text(text: &Arc<str>) -> usize {
    block(2 * size_of::<usize>() + text.len()) / Arc::strong_count(text)
}

/// The block of an `Arc<T>`: the value and its two counts.
pub(crate) fn arc<T>() -> usize {
    block(2 * size_of::<usize>() + size_of::<T>())
}

/// The heap below `value` (not the `Value` itself, which its owner holds).
pub(crate) fn value(value: &Value) -> usize {
    match value {
        Value::String(s) => block(s.capacity()),
        Value::Array(items) => vec_with(items, self::value),
        Value::Object(map) => {
            map_nodes(map)
                + (map.iter())
                    .map(|(key, item)| block(key.capacity()) + self::value(item))
                    .sum::<usize>()
        }
        Value::Number(n) => number(n),
        Value::Null | Value::Bool(_) => 0,
    }
}

/// The heap a number holds: its text, in the build that keeps it.
#[cfg(feature = "arbitrary-precision")]
pub(crate) fn number(n: &serde_json::Number) -> usize {
    block(n.as_str().len())
}

/// The heap a number holds: none.
#[cfg(not(feature = "arbitrary-precision"))]
pub(crate) fn number(_: &serde_json::Number) -> usize {
    0
}

/// The nodes of a map's B-tree (or, when `serde_json`'s `preserve_order` is on, of its
/// entry vector and index). A tree of up to 11 entries is one leaf; a larger one, as
/// parsing and cloning shape it, has a leaf per 6 to 9 entries (8 counted: within 10%
/// of trees built in order or at random) and an internal node per 8 nodes below.
fn map_nodes(map: &Map<String, Value>) -> usize {
    /// Entries one node holds (the B-tree's `2 * B - 1`).
    const CAPACITY: usize = 11;
    const PER_LEAF: usize = 8;
    const PER_INTERNAL: usize = 8;
    let entry = size_of::<String>() + size_of::<Value>();
    let len = map.len();
    if len == 0 {
        return 0;
    }
    if !keys_in_byte_order() {
        // A vector of (hash, key, value) grown by doubling, and a hash table of
        // indices with a control byte per bucket.
        let buckets = (len * 8 / 7 + 1).next_power_of_two();
        let index = buckets * (size_of::<usize>() + 1) + 16;
        return block(len.next_power_of_two() * (entry + size_of::<u64>())) + block(index);
    }
    // A leaf: parent pointer, parent index and length, then the keys and the values.
    let leaf = (size_of::<usize>() + 2 * size_of::<u16>() + CAPACITY * entry)
        .next_multiple_of(size_of::<usize>());
    // An internal node: a leaf and its children's pointers.
    let internal = leaf + (CAPACITY + 1) * size_of::<usize>();
    let mut nodes = len.div_ceil(PER_LEAF);
    let mut bytes = if len <= CAPACITY {
        nodes = 1;
        block(leaf)
    } else {
        nodes * block(leaf)
    };
    while nodes > 1 {
        nodes = nodes.div_ceil(PER_INTERNAL);
        bytes += nodes * block(internal);
    }
    bytes
}

/// Whether an object's keys iterate in byte order, as `serde_json`'s B-tree map keeps
/// them; not when its `preserve_order` feature is on (any crate of a program may turn it
/// on, for every crate of it): then a map is an `IndexMap`, in insertion order. Paths
/// that rely on the order (an exact record, see `Properties::exact`) are taken only when
/// this holds; a map's heap is counted as the one or the other.
pub(crate) fn keys_in_byte_order() -> bool {
    static SORTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *SORTED.get_or_init(|| {
        let mut map = Map::new();
        map.insert("b".into(), Value::Null);
        map.insert("a".into(), Value::Null);
        map.keys().next().is_some_and(|key| key == "a")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_as_malloc_does() {
        assert_eq!(block(0), 0);
        assert_eq!(block(1), 32);
        assert_eq!(block(24), 32);
        assert_eq!(block(25), 48);
        assert_eq!(block(632), 640);
        assert_eq!(block(usize::MAX), usize::MAX & !15);
    }

    #[test]
    fn small_objects_cost_a_whole_leaf() {
        let one = serde_json::json!({"type": "string"});
        let leaf = block(8 + 4 + 11 * (size_of::<String>() + size_of::<Value>()));
        // No crate of this workspace turns `preserve_order` on.
        assert!(keys_in_byte_order());
        assert_eq!(value(&one), leaf + block(4) + block(6));
        assert_eq!(value(&serde_json::json!({})), 0);
    }
}
