//! Equality of JSON values by the JSON data model, and a hash that agrees with it.
//!
//! `enum`, `const` and `uniqueItems` compare instances this way: numbers by value
//! (`1 == 1.0`), objects regardless of key order, everything else structurally. Either
//! side may be any [view](super::view) (an instance's, or the schema's
//! `serde_json::Value`s).

use super::view::{ArrayView, Json, NumberView, ObjectView, View};
use serde_json::Value;
use std::hash::{Hash, Hasher};

/// Nesting up to which comparison and hashing recurse; deeper values are walked with an
/// explicit stack, so no instance can overflow the thread's stack here.
const RECURSION_LIMIT: u32 = 128;

/// Whether `a` and `b` are the same JSON value.
pub(crate) fn equal<'a, 'b, A: View<'a>, B: View<'b>>(a: A, b: B) -> bool {
    equal_within(a, b, 0)
}

fn equal_within<'a, 'b, A: View<'a>, B: View<'b>>(a: A, b: B, depth: u32) -> bool {
    if depth > RECURSION_LIMIT {
        return equal_iteratively(a, b);
    }
    match (a.json(), b.json()) {
        (Json::String(x), Json::String(y)) => x == y,
        (Json::Number(x), Json::Number(y)) => same_number(x, y),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len()
                && (x.iter().zip(y.iter())).all(|(x, y)| equal_within(x, y, depth + 1))
        }
        (Json::Object(x), Json::Object(y)) => x.len() == y.len() && same_members(x, y, depth),
        (Json::Null, Json::Null) => true,
        (Json::Bool(x), Json::Bool(y)) => x == y,
        _ => false,
    }
}

/// Whether two objects of the same size have the same members, at `depth`.
#[inline(always)]
fn same_members<'a, 'b, X: ObjectView<'a>, Y: ObjectView<'b>>(x: X, y: Y, depth: u32) -> bool {
    // Keys are unique: two objects whose keys both come in byte order pair up key for
    // key, or differ (`serde_json`'s maps, unless its `preserve_order` is on: the probe).
    if X::KEYS_IN_BYTE_ORDER && Y::KEYS_IN_BYTE_ORDER && crate::memory::keys_in_byte_order() {
        return (x.iter().zip(y.iter()))
            .all(|((kx, x), (ky, y))| kx == ky && equal_within(x, y, depth + 1));
    }
    x.iter()
        .all(|(key, x)| y.get(key).is_some_and(|y| equal_within(x, y, depth + 1)))
}

/// Whether two numbers of two views are equal as numbers.
#[inline(always)]
fn same_number<A: NumberView, B: NumberView>(a: A, b: B) -> bool {
    a.with_exact(|a| b.with_exact(|b| a.equals(b)))
}

/// [`equal`] with a heap stack instead of recursion, for very deep values.
#[cold]
fn equal_iteratively<'a, 'b, A: View<'a>, B: View<'b>>(a: A, b: B) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a.json(), b.json()) {
            (Json::Number(x), Json::Number(y)) if same_number(x, y) => {}
            (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
                pending.extend(x.iter().zip(y.iter()))
            }
            (Json::Object(x), Json::Object(y)) if x.len() == y.len() => {
                for (key, x) in x.iter() {
                    match y.get(key) {
                        Some(y) => pending.push((x, y)),
                        None => return false,
                    }
                }
            }
            (Json::Null, Json::Null) => {}
            (Json::Bool(x), Json::Bool(y)) if x == y => {}
            (Json::String(x), Json::String(y)) if x == y => {}
            _ => return false,
        }
    }
    true
}

/// Feeds `value` to `state` so that [`equal`] values hash alike. Below
/// `RECURSION_LIMIT` levels only the container's kind and size are hashed: equal values
/// still hash alike, and [`equal`] settles any collision.
///
/// Returns the work done: one per value hashed and per [`BYTES_PER_WORK`] bytes of string.
pub(crate) fn hash<'i, V: View<'i>, H: Hasher>(value: V, state: &mut H) -> usize {
    hash_within(value, state, 0)
}

/// Bytes of string hashed per unit of [`hash`]'s work.
const BYTES_PER_WORK: usize = 64;

fn hash_within<'i, V: View<'i>, H: Hasher>(value: V, state: &mut H, depth: u32) -> usize {
    if depth > RECURSION_LIMIT {
        match value.json() {
            Json::Array(items) => state.write_usize(items.len()),
            Json::Object(map) => state.write_usize(map.len()),
            _ => {}
        }
        return 1;
    }
    let mut work = 1;
    match value.json() {
        Json::Null => state.write_u8(0),
        Json::Bool(b) => {
            state.write_u8(1);
            b.hash(state);
        }
        Json::Number(n) => {
            state.write_u8(2);
            n.hash(state);
        }
        Json::String(s) => {
            state.write_u8(3);
            s.hash(state);
            work += s.len() / BYTES_PER_WORK;
        }
        Json::Array(items) => {
            state.write_u8(4);
            state.write_usize(items.len());
            for item in items.iter() {
                work += hash_within(item, state, depth + 1);
            }
        }
        Json::Object(map) => {
            // Key order must not matter: combine per-entry hashes commutatively.
            state.write_u8(5);
            let mut sum: u64 = 0;
            for (key, value) in map.iter() {
                let mut entry = ahash::AHasher::default();
                key.hash(&mut entry);
                work += key.len() / BYTES_PER_WORK + hash_within(value, &mut entry, depth + 1);
                sum = sum.wrapping_add(entry.finish());
            }
            state.write_u64(sum);
        }
    }
    work
}

/// A list of values indexed by hash: finds whether a value equals one of them by
/// hashing it once and comparing it with the few whose hash is the same, where a scan
/// compares it with every one (an `enum` of 900 objects that differ only in their last
/// member read each instance 900 times over).
#[derive(Clone, Debug)]
pub(crate) struct ValueIndex {
    /// Each value's hash and position in the list, sorted.
    keyed: Box<[(u64, u32)]>,
}

impl ValueIndex {
    /// The fewest values worth an index: below, comparing with each one costs less than
    /// hashing (most options differ from the value at their first byte or member).
    pub(crate) const WORTH_FROM: usize = 16;

    /// The index of `values` (fewer than 2^32).
    pub(crate) fn new(values: &[Value]) -> ValueIndex {
        let mut keyed: Vec<(u64, u32)> = (values.iter().enumerate())
            .map(|(i, value)| (digest(value).0, i as u32))
            .collect();
        keyed.sort_unstable();
        ValueIndex {
            keyed: keyed.into_boxed_slice(),
        }
    }

    /// Whether `value` equals one of `values` (the list the index was built from), and
    /// the work: hashing it ([`hash`]'s), a binary search's steps, and one per value it
    /// was compared with (all of them at worst, should every hash collide).
    pub(crate) fn contains<'i, V: View<'i>>(&self, values: &[Value], value: V) -> (bool, usize) {
        let (key, hashed) = digest(value);
        let start = self.keyed.partition_point(|&(k, _)| k < key);
        let search = self.keyed.len().checked_ilog2().unwrap_or(0) as usize;
        let mut compared = 0;
        for &(k, i) in &self.keyed[start..] {
            if k != key {
                break;
            }
            compared += 1;
            if values
                .get(i as usize)
                .is_some_and(|option| equal(value, option))
            {
                return (true, hashed + search + compared);
            }
        }
        (false, hashed + search + compared)
    }

    /// Heap bytes held.
    pub(crate) fn memory_usage(&self) -> usize {
        std::mem::size_of_val(&*self.keyed)
    }
}

/// `value`'s hash, and the work of computing it.
fn digest<'i, V: View<'i>>(value: V) -> (u64, usize) {
    let mut state = ahash::AHasher::default();
    let work = hash(value, &mut state);
    (state.finish(), work)
}

/// Whether all items of `items` are distinct JSON values.
#[inline]
pub(crate) fn all_unique<'i, A: ArrayView<'i>>(items: A) -> bool {
    // Most arrays checked are short lists of a few strings (jsconfig's `lib`, `files`):
    // no call and no frame for the hashing paths' stack buffers.
    match items.len() {
        0 | 1 => true,
        2 => match (items.get(0), items.get(1)) {
            (Some(a), Some(b)) => !equal(a, b),
            _ => true,
        },
        _ => several_unique(items),
    }
}

/// [`all_unique`] of three items or more.
#[inline(never)]
fn several_unique<'i, A: ArrayView<'i>>(items: A) -> bool {
    // Quadratic comparison is cheapest for short arrays and allocates nothing. A pair of
    // distinct items usually differs at its first member, while hashing reads each item
    // whole: so up to 24 strings or numbers, but fewer small objects (24 `{"name",
    // "enabled"}` objects: 276 pairs of two key lookups each, where hashing each once
    // costs a fifth), a few more for objects of more members.
    let quadratic_up_to = match items.get(0).map(View::json) {
        Some(Json::Object(map)) => (3 * map.len()).clamp(8, 24),
        Some(Json::Array(items)) => (3 * items.len()).clamp(8, 24),
        _ => 24,
    };
    if items.len() <= quadratic_up_to {
        let text = |item: A::Item| match item.json() {
            Json::String(text) => Some(text),
            _ => None,
        };
        // The commonest unique list, of strings (tags, file names, features): compared
        // as texts, without `equal`'s call and dispatch on kinds.
        if items.iter().all(|item| text(item).is_some()) {
            return (items.iter().enumerate())
                .all(|(i, a)| items.iter().skip(i + 1).all(|b| text(a) != text(b)));
        }
        return (items.iter().enumerate())
            .all(|(i, a)| items.iter().skip(i + 1).all(|b| !equal(a, b)));
    }
    // Up to a few hundred items, hashes sorted on the stack find the candidates for a
    // repeat without allocating; beyond, sorted in a buffer of their own.
    if items.len() <= 32 {
        return distinct_hashes(items, &mut [(0, 0); 32][..items.len()]);
    }
    if items.len() <= 256 {
        return distinct_hashes(items, &mut [(0, 0); 256][..items.len()]);
    }
    distinct_hashes(items, &mut vec![(0, 0); items.len()])
}

/// [`all_unique`] by hashes: `keyed` (one slot per item) gets each item's hash and
/// position, sorted, and items are compared only within a run of equal hashes. Sorting
/// beats a hash map of buckets on long arrays (a third of the time on 150,000 numbers,
/// which fill the map's memory in no order).
fn distinct_hashes<'i, A: ArrayView<'i>>(items: A, keyed: &mut [(u64, u32)]) -> bool {
    for (slot, (i, item)) in keyed.iter_mut().zip(items.iter().enumerate()) {
        *slot = (digest(item).0, i as u32);
    }
    keyed.sort_unstable();
    keyed.chunk_by(|a, b| a.0 == b.0).all(|run| {
        run.iter().enumerate().all(|(k, &(_, i))| {
            let Some(a) = items.get(i as usize) else {
                return false;
            };
            run[k + 1..]
                .iter()
                .all(|&(_, j)| items.get(j as usize).is_none_or(|b| !equal(a, b)))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn digest(v: &Value) -> u64 {
        let mut s = ahash::AHasher::default();
        hash(v, &mut s);
        s.finish()
    }

    #[test]
    fn numbers_compare_by_value_and_objects_ignore_order() {
        assert!(equal(&json!([1, {"a": 2.0}]), &json!([1.0, {"a": 2}])));
        let a: Value = serde_json::from_str(r#"{"x":1,"y":2}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"y":2,"x":1}"#).unwrap();
        assert!(equal(&a, &b));
        assert_eq!(digest(&a), digest(&b));
        assert_eq!(digest(&json!(1)), digest(&json!(1.0)));
        assert!(!equal(&json!(false), &json!(0)));
    }

    fn small_value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(json!(null)),
            (0i64..3).prop_map(|n| json!(n)),
            Just(json!(1.0)),
            "[ab]{0,2}".prop_map(Value::String),
        ];
        leaf.prop_recursive(2, 12, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                proptest::collection::vec(("[a-c]", inner), 0..3)
                    .prop_map(|entries| Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        /// Every size class of [`all_unique`] (pairs, hashes sorted on the stack) agrees
        /// with comparing every pair, and equal values hash alike.
        #[test]
        fn uniqueness_agrees_with_comparing_every_pair(
            distinct in proptest::collection::vec(small_value(), 0..40),
            repeat in proptest::option::of((0usize..40, 0usize..40)),
        ) {
            let mut items = distinct;
            if let Some((from, to)) = repeat {
                if !items.is_empty() {
                    let copy = items[from % items.len()].clone();
                    items.insert(to % (items.len() + 1), copy);
                }
            }
            let pairs = (0..items.len())
                .all(|i| (i + 1..items.len()).all(|j| !equal(&items[i], &items[j])));
            proptest::prop_assert_eq!(all_unique(items.as_slice()), pairs);
            for (i, a) in items.iter().enumerate() {
                for b in &items[i + 1..] {
                    if equal(a, b) {
                        proptest::prop_assert_eq!(digest(a), digest(b));
                    }
                }
            }
        }

        /// Lists of strings only (compared as texts up to the quadratic bound) are
        /// unique exactly when no two items are the same `Value`, and `equal` says
        /// of two strings what `==` says.
        #[test]
        fn string_lists_are_unique_when_no_two_texts_are_the_same(
            texts in proptest::collection::vec("[ab]{0,3}", 0..30),
        ) {
            let items: Vec<Value> = texts.into_iter().map(Value::String).collect();
            let pairs = (0..items.len())
                .all(|i| (i + 1..items.len()).all(|j| items[i] != items[j]));
            proptest::prop_assert_eq!(all_unique(items.as_slice()), pairs);
            for (a, b) in items.iter().zip(items.iter().skip(1)) {
                proptest::prop_assert_eq!(equal(a, b), a == b);
            }
        }

        /// An index finds a value exactly when comparing it with every listed one does,
        /// listed values written differently (`1` for `1.0`, members in another order)
        /// included, and its work counts the comparisons it made.
        #[test]
        fn an_index_finds_what_a_scan_finds(
            listed in proptest::collection::vec(small_value(), 0..40),
            probes in proptest::collection::vec(small_value(), 1..20),
        ) {
            let index = ValueIndex::new(&listed);
            for probe in &probes {
                let scan = listed.iter().any(|l| equal(probe, l));
                let (found, work) = index.contains(&listed, probe);
                proptest::prop_assert_eq!(found, scan, "{}", probe);
                proptest::prop_assert!(work >= 1);
            }
            for listed_value in &listed {
                proptest::prop_assert!(index.contains(&listed, listed_value).0);
            }
        }
    }

    #[test]
    fn very_deep_values_compare_without_recursion() {
        let deep = |leaf: Value| {
            let mut v = leaf;
            for _ in 0..100_000 {
                v = Value::Array(vec![v]);
            }
            v
        };
        let (a, b, c) = (deep(json!(1)), deep(json!(1.0)), deep(json!(2)));
        assert!(equal(&a, &b));
        assert!(!equal(&a, &c));
        assert_eq!(digest(&a), digest(&b));
        for mut v in [a, b, c] {
            while let Value::Array(mut items) = v {
                v = items.pop().unwrap_or(Value::Null);
            }
        }
    }

    #[test]
    fn uniqueness_agrees_between_small_and_large_arrays() {
        let mut items: Vec<Value> = (0..100).map(|i| json!({"n": i})).collect();
        assert!(all_unique(items.as_slice()));
        items.push(json!({"n": 42.0}));
        assert!(!all_unique(items.as_slice()));
        assert!(!all_unique(&[json!(1), json!(1.0)][..]));
        // Beyond the stack's 256, the buffer of sorted hashes.
        let mut items: Vec<Value> = (0..1000).map(|i| json!([i, {"n": i}])).collect();
        assert!(all_unique(items.as_slice()));
        items.insert(500, json!([999.0, {"n": 999}]));
        assert!(!all_unique(items.as_slice()));
    }
}
