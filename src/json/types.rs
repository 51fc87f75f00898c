//! The seven JSON Schema primitive types as a one-byte set.

use super::view::{Json, Kind, NumberView, ObjectView, View};

/// A set of JSON Schema types, one bit each; `number` includes `integer`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct TypeSet(u8);

impl TypeSet {
    pub(crate) const NULL: TypeSet = TypeSet(1);
    pub(crate) const BOOLEAN: TypeSet = TypeSet(1 << 1);
    pub(crate) const INTEGER: TypeSet = TypeSet(1 << 2);
    /// `number`: every number, integer or not.
    pub(crate) const NUMBER: TypeSet = TypeSet(1 << 3 | 1 << 2);
    pub(crate) const STRING: TypeSet = TypeSet(1 << 4);
    pub(crate) const ARRAY: TypeSet = TypeSet(1 << 5);
    pub(crate) const OBJECT: TypeSet = TypeSet(1 << 6);

    /// The type named `name` in a schema's `type` keyword.
    pub(crate) fn from_name(name: &str) -> Option<TypeSet> {
        Some(match name {
            "null" => Self::NULL,
            "boolean" => Self::BOOLEAN,
            "integer" => Self::INTEGER,
            "number" => Self::NUMBER,
            "string" => Self::STRING,
            "array" => Self::ARRAY,
            "object" => Self::OBJECT,
            _ => return None,
        })
    }

    /// Every type.
    pub(crate) const ANY: TypeSet = TypeSet(0x7f);
    /// No type.
    pub(crate) const NONE: TypeSet = TypeSet(0);

    /// The broad kind of `value` as a set: a number is `number` and `integer` both, so
    /// that a set containing either may accept it. For [`TypeSet::admits`].
    #[inline(always)]
    pub(crate) fn kind<'i, V: View<'i>>(value: V) -> TypeSet {
        match value.kind() {
            Kind::Null => Self::NULL,
            Kind::Bool => Self::BOOLEAN,
            Kind::Number => Self::NUMBER,
            Kind::String => Self::STRING,
            Kind::Array => Self::ARRAY,
            Kind::Object => Self::OBJECT,
        }
    }

    /// How many kinds of value there are ([`TypeSet::kind_index`]).
    pub(crate) const KINDS: usize = 6;

    /// The kind of `value` as an index: null, boolean, number, string, array, object.
    #[inline(always)]
    pub(crate) fn kind_index<'i, V: View<'i>>(value: V) -> usize {
        match value.kind() {
            Kind::Null => 0,
            Kind::Bool => 1,
            Kind::Number => 2,
            Kind::String => 3,
            Kind::Array => 4,
            Kind::Object => 5,
        }
    }

    /// The kinds of value ([`TypeSet::kind`] of each), in [`TypeSet::kind_index`] order.
    pub(crate) const BY_KIND: [TypeSet; Self::KINDS] = [
        Self::NULL,
        Self::BOOLEAN,
        Self::NUMBER,
        Self::STRING,
        Self::ARRAY,
        Self::OBJECT,
    ];

    /// Whether a value of `kind` ([`TypeSet::kind`]) may have a type in this set.
    #[inline(always)]
    pub(crate) fn admits(self, kind: TypeSet) -> bool {
        self.0 & kind.0 != 0
    }

    /// The intersection of two sets.
    pub(crate) fn intersection(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 & other.0)
    }

    /// The union of two sets.
    pub(crate) fn union(self, other: TypeSet) -> TypeSet {
        TypeSet(self.0 | other.0)
    }

    /// Whether the set holds `number` and `integer` both, or neither: then exactly the
    /// values it does not [match](TypeSet::matches) match its
    /// [`complement`](TypeSet::complement).
    pub(crate) fn whole_numbers(self) -> bool {
        let numbers = self.intersection(Self::NUMBER);
        numbers == Self::NONE || numbers == Self::NUMBER
    }

    /// The types not in the set (see [`TypeSet::whole_numbers`] for when a value
    /// matches one of the two sets exactly when it does not match the other).
    pub(crate) fn complement(self) -> TypeSet {
        TypeSet(Self::ANY.0 & !self.0)
    }

    /// Whether `value` has one of the types in this set. A number with a zero
    /// fractional part (`1.0`) is an integer.
    ///
    /// One bit per kind of value, the number's being `number` alone, so that the test
    /// is a table lookup and a mask; only a number that this misses (against a set with
    /// `integer` but not `number`) asks whether it is integral.
    #[inline(always)]
    pub(crate) fn matches<'i, V: View<'i>>(self, value: V) -> bool {
        const NUMBER_ONLY: u8 = 1 << 3;
        let bit = match value.kind() {
            Kind::Null => Self::NULL.0,
            Kind::Bool => Self::BOOLEAN.0,
            Kind::Number => NUMBER_ONLY,
            Kind::String => Self::STRING.0,
            Kind::Array => Self::ARRAY.0,
            Kind::Object => Self::OBJECT.0,
        };
        if self.0 & bit != 0 {
            return true;
        }
        self.admits(Self::INTEGER) && is_integer(value)
    }

    /// Whether every value of `map` is of a type in the set: an object whose properties
    /// all go to an `additionalProperties` that is only a `type`. Out of line, as a
    /// loop of its own: inside the interpreter's large recursive functions LLVM kept the
    /// B-tree iterator's `next` or the check itself out of line, a call per key.
    #[inline(never)]
    pub(crate) fn matches_all_values<'i, O: ObjectView<'i>>(self, map: O) -> bool {
        for (_, value) in map.iter() {
            if !self.matches(value) {
                return false;
            }
        }
        true
    }

    /// The names of the types in the set, for messages: containers first and `null`
    /// last, as people write them ("string or null").
    pub(crate) fn names(self) -> impl Iterator<Item = &'static str> {
        const NAMES: [(TypeSet, &str); 7] = [
            (TypeSet::OBJECT, "object"),
            (TypeSet::ARRAY, "array"),
            (TypeSet::STRING, "string"),
            (TypeSet::NUMBER, "number"),
            (TypeSet::INTEGER, "integer"),
            (TypeSet::BOOLEAN, "boolean"),
            (TypeSet::NULL, "null"),
        ];
        let mut seen_number = false;
        NAMES.into_iter().filter_map(move |(set, name)| {
            if self.0 & set.0 != set.0 {
                return None;
            }
            if set == TypeSet::INTEGER && seen_number {
                return None;
            }
            seen_number |= set == TypeSet::NUMBER;
            Some(name)
        })
    }
}

/// The JSON Schema type names of values, in [`type_index`] order.
pub(crate) const NAMES: [&str; 7] = [
    "null", "boolean", "integer", "number", "string", "array", "object",
];

/// The JSON Schema type of `value` as an index into [`NAMES`] (`integer` for a number
/// without a fraction): one byte, which an error keeps for its masked message.
pub(crate) fn type_index<'i, V: View<'i>>(value: V) -> u8 {
    match value.json() {
        Json::Null => 0,
        Json::Bool(_) => 1,
        Json::Number(n) if n.is_integer() => 2,
        Json::Number(_) => 3,
        Json::String(_) => 4,
        Json::Array(_) => 5,
        Json::Object(_) => 6,
    }
}

/// The JSON Schema type name of `value`, for messages.
pub(crate) fn type_name<'i, V: View<'i>>(value: V) -> &'static str {
    NAMES[usize::from(type_index(value))]
}

/// Whether `value` is an integer: out of line, the rare question of [`TypeSet::matches`].
#[inline(never)]
fn is_integer<'i, V: View<'i>>(value: V) -> bool {
    value.as_number().is_some_and(NumberView::is_integer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integer_includes_integral_floats_and_number_includes_integers() {
        assert!(TypeSet::INTEGER.matches(&json!(1.0)));
        assert!(!TypeSet::INTEGER.matches(&json!(1.5)));
        assert!(TypeSet::NUMBER.matches(&json!(3)));
        assert!(!TypeSet::STRING.matches(&json!(3)));
        let set = TypeSet::NUMBER.union(TypeSet::NULL);
        assert_eq!(set.names().collect::<Vec<_>>(), ["number", "null"]);
    }

    #[test]
    fn a_complement_matches_what_its_set_does_not_when_numbers_go_together() {
        let values = [
            json!(null),
            json!(true),
            json!(1),
            json!(1.0),
            json!(1.5),
            json!(-2),
            json!("1"),
            json!([1]),
            json!({"a": 1}),
        ];
        for bits in 0..=TypeSet::ANY.0 {
            let set = TypeSet(bits);
            let exact = values
                .iter()
                .all(|value| set.complement().matches(value) != set.matches(value));
            assert_eq!(
                exact,
                set.whole_numbers(),
                "{:?}",
                set.names().collect::<Vec<_>>()
            );
        }
    }
}
