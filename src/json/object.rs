//! Finding a property of a JSON object by name.
//!
//! `serde_json`'s map is a B-tree ordered by `str`'s `Ord` (unless its `preserve_order`
//! feature is on, see `memory::keys_in_byte_order`), so `Map::get` compares the
//! name with about half the keys through a call to `memcmp` each. The objects of tool
//! calls and configuration files are small, and their keys mostly differ in length:
//! walking the keys (from the end nearer the name's first byte) and comparing lengths
//! first (then the bytes, inline) finds a name in a fraction of the instructions.
//! Larger objects are searched as before.

use crate::names::same_bytes;
use serde_json::{Map, Value};

/// Objects of up to this many keys are scanned rather than searched. (A B-tree node
/// holds up to 11 keys: up to there an object is one node, walked in order.)
const SCAN_UP_TO: usize = 11;

/// The value of the property `name` of `map`, if it has one.
#[inline]
pub(crate) fn get<'a>(map: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    if map.len() > SCAN_UP_TO {
        return map.get(name);
    }
    scan(map, name)
}

/// [`get`] by walking the keys. Its callers are the interpreter's hot loops, whose code
/// must stay small: forced inline, the walk cost some unrelated loops 3% (fat LTO);
/// forced out of line, the default release profile left it a copy of its own that calls
/// the B-tree's `next_back` (Swagger's warm pass 0.8% more, measured), so the compiler
/// decides.
#[inline]
fn scan<'a>(map: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    let same = |(key, _): &(&String, &Value)| same_bytes(key.as_bytes(), name.as_bytes());
    // The keys come in byte order (mostly: see `memory::keys_in_byte_order`; either way every
    // key is looked at): a name from the second half of the lowercase alphabet
    // (`specVersion`, `type`) is nearer the end.
    let found = match name.as_bytes().first() {
        Some(&first) if first > b'm' => map.iter().rev().find(same),
        _ => map.iter().find(same),
    };
    found.map(|(_, value)| value)
}

/// Whether `map` has a property called `name`.
#[inline]
pub(crate) fn has(map: &Map<String, Value>, name: &str) -> bool {
    get(map, name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_exactly_the_keys_of_small_and_large_objects() {
        let names = [
            "",
            "a",
            "ab",
            "abc",
            "abcdefgh",
            "abcdefghi",
            "b",
            "\u{e9}",
            "x-y",
        ];
        for n in 0..=names.len() {
            let map: Map<String, Value> = (names[..n].iter())
                .enumerate()
                .map(|(i, name)| (name.to_string(), json!(i)))
                .collect();
            let mut large = map.clone();
            for i in 0..20 {
                large.insert(format!("filler{i}"), json!(null));
            }
            for object in [&map, &large] {
                for name in names.iter().copied().chain(["c", "abcd", "filler3"]) {
                    assert_eq!(
                        get(object, name),
                        object.get(name),
                        "{name:?} in {object:?}"
                    );
                    assert_eq!(has(object, name), object.contains_key(name));
                }
            }
        }
    }
}
