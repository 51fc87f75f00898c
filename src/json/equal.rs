//! Equality of JSON values by the JSON data model, and a hash that agrees with it.
//!
//! `enum`, `const` and `uniqueItems` compare instances this way: numbers by value
//! (`1 == 1.0`), objects regardless of key order, everything else structurally.

use serde_json::Value;
use std::hash::{Hash, Hasher};

/// Nesting up to which comparison and hashing recurse; deeper values are walked with an
/// explicit stack, so no instance can overflow the thread's stack here.
const RECURSION_LIMIT: u32 = 128;

/// Whether `a` and `b` are the same JSON value.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    equal_within(a, b, 0)
}

fn equal_within(a: &Value, b: &Value, depth: u32) -> bool {
    if depth > RECURSION_LIMIT {
        return equal_iteratively(a, b);
    }
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => super::number::equal(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| equal_within(x, y, depth + 1))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| equal_within(x, y, depth + 1)))
        }
        _ => a == b,
    }
}

/// [`equal`] with a heap stack instead of recursion, for very deep values.
#[cold]
fn equal_iteratively(a: &Value, b: &Value) -> bool {
    let mut pending = vec![(a, b)];
    while let Some((a, b)) = pending.pop() {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) if super::number::equal(x, y) => {}
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                pending.extend(x.iter().zip(y))
            }
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
                for (key, x) in x {
                    match y.get(key) {
                        Some(y) => pending.push((x, y)),
                        None => return false,
                    }
                }
            }
            (Value::Null, Value::Null) => {}
            (Value::Bool(x), Value::Bool(y)) if x == y => {}
            (Value::String(x), Value::String(y)) if x == y => {}
            _ => return false,
        }
    }
    true
}

/// Feeds `value` to `state` so that [`equal`] values hash alike. Below
/// `RECURSION_LIMIT` levels only the container's kind and size are hashed: equal values
/// still hash alike, and [`equal`] settles any collision.
pub(crate) fn hash<H: Hasher>(value: &Value, state: &mut H) {
    hash_within(value, state, 0);
}

fn hash_within<H: Hasher>(value: &Value, state: &mut H, depth: u32) {
    if depth > RECURSION_LIMIT {
        match value {
            Value::Array(items) => state.write_usize(items.len()),
            Value::Object(map) => state.write_usize(map.len()),
            _ => {}
        }
        return;
    }
    match value {
        Value::Null => state.write_u8(0),
        Value::Bool(b) => {
            state.write_u8(1);
            b.hash(state);
        }
        Value::Number(n) => {
            state.write_u8(2);
            super::number::hash(n, state);
        }
        Value::String(s) => {
            state.write_u8(3);
            s.hash(state);
        }
        Value::Array(items) => {
            state.write_u8(4);
            state.write_usize(items.len());
            for item in items {
                hash_within(item, state, depth + 1);
            }
        }
        Value::Object(map) => {
            // Key order must not matter: combine per-entry hashes commutatively.
            state.write_u8(5);
            let mut sum: u64 = 0;
            for (key, value) in map {
                let mut entry = ahash::AHasher::default();
                key.hash(&mut entry);
                hash_within(value, &mut entry, depth + 1);
                sum = sum.wrapping_add(entry.finish());
            }
            state.write_u64(sum);
        }
    }
}

/// Whether all items of `items` are distinct JSON values.
pub(crate) fn all_unique(items: &[Value]) -> bool {
    // Quadratic comparison is cheapest for short arrays and allocates nothing. A pair of
    // distinct items usually differs at its first member, while hashing reads each item
    // whole: so up to 24 strings or numbers, but fewer small objects (24 `{"name",
    // "enabled"}` objects: 276 pairs of two key lookups each, where hashing each once
    // costs a fifth), a few more for objects of more members.
    let quadratic_up_to = match items.first() {
        Some(Value::Object(map)) => (3 * map.len()).clamp(8, 24),
        Some(Value::Array(items)) => (3 * items.len()).clamp(8, 24),
        _ => 24,
    };
    if items.len() <= quadratic_up_to {
        return items
            .iter()
            .enumerate()
            .all(|(i, a)| items[i + 1..].iter().all(|b| !equal(a, b)));
    }
    // Up to a few hundred items, hashes sorted on the stack find the candidates for a
    // repeat without allocating.
    if items.len() <= 32 {
        return sorted_unique::<32>(items);
    }
    if items.len() <= 256 {
        return sorted_unique::<256>(items);
    }
    let mut buckets: ahash::AHashMap<u64, smallvec::SmallVec<[usize; 1]>> =
        crate::maps::map_with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let mut state = ahash::AHasher::default();
        hash(item, &mut state);
        let bucket = buckets.entry(state.finish()).or_default();
        if bucket.iter().any(|&j| equal(&items[j], item)) {
            return false;
        }
        bucket.push(i);
    }
    true
}

/// [`all_unique`] for at most `N` items: their hashes sorted in a stack array, then
/// items compared only within a run of equal hashes.
fn sorted_unique<const N: usize>(items: &[Value]) -> bool {
    let mut keyed = [(0u64, 0u32); N];
    let keyed = &mut keyed[..items.len()];
    for (slot, (i, item)) in keyed.iter_mut().zip(items.iter().enumerate()) {
        let mut state = ahash::AHasher::default();
        hash(item, &mut state);
        *slot = (state.finish(), i as u32);
    }
    keyed.sort_unstable();
    keyed.chunk_by(|a, b| a.0 == b.0).all(|run| {
        run.iter().enumerate().all(|(k, &(_, i))| {
            let a = &items[i as usize];
            run[k + 1..]
                .iter()
                .all(|&(_, j)| !equal(a, &items[j as usize]))
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
            proptest::prop_assert_eq!(all_unique(&items), pairs);
            for (i, a) in items.iter().enumerate() {
                for b in &items[i + 1..] {
                    if equal(a, b) {
                        proptest::prop_assert_eq!(digest(a), digest(b));
                    }
                }
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
        assert!(all_unique(&items));
        items.push(json!({"n": 42.0}));
        assert!(!all_unique(&items));
        assert!(!all_unique(&[json!(1), json!(1.0)]));
    }
}
