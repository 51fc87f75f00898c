//! The read-only instance view: everything the interpreter reads of an instance, so that
//! any representation (a `serde_json::Value`, Python objects, JSON text) is validated in
//! place, with nothing converted.
//!
//! A view is a `Copy` handle on one value of the instance ([`View`]): asked what it is,
//! it answers one level deep ([`Json`]), with handles on its array ([`ArrayView`]) or
//! object ([`ObjectView`]), its string borrowed and its number behind [`NumberView`].
//! `&serde_json::Value` is the view the Rust API uses; each binding implements its own.
//!
//! What the interpreter relies on, which every view must hold to (the conformance test
//! of the views checks it on the official suite):
//!
//! - **Borrowed, stable strings.** A key or a string is a `&'i str` that lives as long as
//!   the instance, and the keys of one object are at distinct addresses: evaluation marks
//!   for `unevaluatedProperties` name a key by its address.
//! - **Identity.** [`View::address`] tells two values apart while the instance lives: the
//!   cycle guard keys on it.
//! - **Unique keys.** An object has each key once (JSON text with a repeated name keeps
//!   the last, as `serde_json` does).
//! - **Order is declared.** [`ObjectView::KEYS_IN_BYTE_ORDER`] says whether iteration
//!   yields keys in byte order (`serde_json`'s map); the fast path that matches an
//!   object's keys with a schema's sorted names in one pass runs only then. Views in
//!   insertion or document order (Python dicts, JSON text, Ruby hashes, JS objects) get
//!   the same verdicts through the order-free loops.
//! - **Lookup cost is declared.** [`ObjectView::INDEXED`] says whether
//!   [`ObjectView::get`] is cheaper than a walk of the keys; the loop that looks a
//!   schema's few names up in a large object runs only then.

use super::number::{self, Exact};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::hash::Hasher;

/// One value of an instance, one level deep: what a [`View`] is.
pub(crate) enum Json<'i, V: View<'i>> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(V::Number),
    /// A string.
    String(&'i str),
    /// An array.
    Array(V::Array),
    /// An object.
    Object(V::Object),
}

impl<'i, V: View<'i>> Clone for Json<'i, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<'i, V: View<'i>> Copy for Json<'i, V> {}

/// What kind of value a [`View`] is, without its contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

/// A handle on one value of an instance that lives for `'i`.
pub(crate) trait View<'i>: Copy {
    /// The view's numbers.
    type Number: NumberView;
    /// The view's arrays, whose items are views of the same kind.
    type Array: ArrayView<'i, Item = Self>;
    /// The view's objects, whose values are views of the same kind.
    type Object: ObjectView<'i, Value = Self>;

    /// What this value is.
    fn json(self) -> Json<'i, Self>;

    /// What kind of value this is: [`View::json`] without the contents, for the type
    /// checks every loop makes.
    #[inline(always)]
    fn kind(self) -> Kind {
        match self.json() {
            Json::Null => Kind::Null,
            Json::Bool(_) => Kind::Bool,
            Json::Number(_) => Kind::Number,
            Json::String(_) => Kind::String,
            Json::Array(_) => Kind::Array,
            Json::Object(_) => Kind::Object,
        }
    }

    /// The array this value is, if it is one: [`View::json`] for the one kind a check
    /// reads (a single comparison where matching on the whole [`Json`] may cost a
    /// jump table).
    #[inline(always)]
    fn as_array(self) -> Option<Self::Array> {
        match self.json() {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The object this value is, if it is one (see [`View::as_array`]).
    #[inline(always)]
    fn as_object(self) -> Option<Self::Object> {
        match self.json() {
            Json::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The string this value is, if it is one (see [`View::as_array`]).
    #[inline(always)]
    fn as_str(self) -> Option<&'i str> {
        match self.json() {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// The number this value is, if it is one (see [`View::as_array`]).
    #[inline(always)]
    fn as_number(self) -> Option<Self::Number> {
        match self.json() {
            Json::Number(n) => Some(n),
            _ => None,
        }
    }

    /// A number that tells this value apart from every other value of the instance
    /// while it lives (its address, say).
    fn address(self) -> usize;

    /// The value as a `serde_json::Value`, for what only the explaining mode does
    /// (messages quote values): borrowed where the view is one, else converted.
    fn to_value(self) -> Cow<'i, Value>;
}

/// The items of an array.
pub(crate) trait ArrayView<'i>: Copy {
    /// The view of an item.
    type Item: View<'i>;
    /// The items in order.
    type Iter: ExactSizeIterator<Item = Self::Item>;

    /// How many items there are.
    fn len(self) -> usize;

    /// The item at `index`, if there is one.
    fn get(self, index: usize) -> Option<Self::Item>;

    /// The items.
    fn iter(self) -> Self::Iter;
}

/// The properties of an object: each key once.
pub(crate) trait ObjectView<'i>: Copy {
    /// The view of a property's value.
    type Value: View<'i>;
    /// The properties.
    type Iter: ExactSizeIterator<Item = (&'i str, Self::Value)>;

    /// Whether [`ObjectView::iter`] yields the keys in byte order (`str`'s `Ord`).
    const KEYS_IN_BYTE_ORDER: bool;

    /// Whether [`ObjectView::get`] takes less than a walk of the keys (a tree or a hash
    /// table behind it).
    const INDEXED: bool;

    /// How many properties there are.
    fn len(self) -> usize;

    /// Whether there are none.
    fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The value of the property `name`, if there is one.
    fn get(self, name: &str) -> Option<Self::Value>;

    /// The properties, as key and value.
    fn iter(self) -> Self::Iter;
}

/// A number, judged exactly against the schema's numbers (`serde_json::Number`s) and
/// the instance's own.
pub(crate) trait NumberView: Copy {
    /// Whether the number is an integer (`1.0` is).
    fn is_integer(self) -> bool;

    /// The number as a double, when the double is the number exactly; `None` otherwise
    /// (the exact comparisons then decide).
    fn exact_f64(self) -> Option<f64>;

    /// How the number compares with the schema's `other`.
    fn compare(self, other: &Number) -> Ordering;

    /// Whether the number is a multiple of the schema's `divisor` (positive).
    fn is_multiple_of(self, divisor: &Number) -> bool;

    /// Feeds the number to `state` as `number::hash` feeds a `serde_json::Number` equal
    /// to it, so that equal numbers of any view hash alike.
    fn hash<H: Hasher>(self, state: &mut H);

    /// Calls `f` with the number as exactly as the view knows it (for comparing two
    /// views' numbers).
    fn with_exact<R>(self, f: impl FnOnce(Exact<'_>) -> R) -> R;
}

impl<'i> View<'i> for &'i Value {
    type Number = &'i Number;
    type Array = &'i [Value];
    type Object = &'i Map<String, Value>;

    #[inline(always)]
    fn json(self) -> Json<'i, Self> {
        match self {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n),
            Value::String(s) => Json::String(s),
            Value::Array(items) => Json::Array(items.as_slice()),
            Value::Object(map) => Json::Object(map),
        }
    }

    #[inline(always)]
    fn kind(self) -> Kind {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(_) => Kind::Bool,
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        }
    }

    #[inline(always)]
    fn as_array(self) -> Option<&'i [Value]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    #[inline(always)]
    fn as_object(self) -> Option<&'i Map<String, Value>> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    #[inline(always)]
    fn as_str(self) -> Option<&'i str> {
        match self {
            Value::String(text) => Some(text),
            _ => None,
        }
    }

    #[inline(always)]
    fn as_number(self) -> Option<&'i Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    #[inline(always)]
    fn address(self) -> usize {
        self as *const Value as usize
    }

    #[inline(always)]
    fn to_value(self) -> Cow<'i, Value> {
        Cow::Borrowed(self)
    }
}

impl<'i> ArrayView<'i> for &'i [Value] {
    type Item = &'i Value;
    type Iter = std::slice::Iter<'i, Value>;

    #[inline(always)]
    fn len(self) -> usize {
        <[Value]>::len(self)
    }

    #[inline(always)]
    fn get(self, index: usize) -> Option<&'i Value> {
        <[Value]>::get(self, index)
    }

    #[inline(always)]
    fn iter(self) -> Self::Iter {
        <[Value]>::iter(self)
    }
}

/// The keys of `serde_json`'s map as `&str`, from either end.
pub(crate) struct MapIter<'i>(serde_json::map::Iter<'i>);

impl<'i> Iterator for MapIter<'i> {
    type Item = (&'i str, &'i Value);

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(key, value)| (key.as_str(), value))
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for MapIter<'_> {
    #[inline(always)]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(key, value)| (key.as_str(), value))
    }
}

impl ExactSizeIterator for MapIter<'_> {}

impl<'i> ObjectView<'i> for &'i Map<String, Value> {
    type Value = &'i Value;
    type Iter = MapIter<'i>;

    // Unless some crate turns `serde_json`'s `preserve_order` on for the whole build:
    // the compiler probes for that (`memory::keys_in_byte_order`) and then makes no
    // table that relies on the order.
    const KEYS_IN_BYTE_ORDER: bool = true;
    const INDEXED: bool = true;

    #[inline(always)]
    fn len(self) -> usize {
        Map::len(self)
    }

    #[inline(always)]
    fn get(self, name: &str) -> Option<&'i Value> {
        super::object::get(self, name)
    }

    #[inline(always)]
    fn iter(self) -> Self::Iter {
        MapIter(Map::iter(self))
    }
}

impl NumberView for &Number {
    #[inline(always)]
    fn is_integer(self) -> bool {
        number::is_integer(self)
    }

    #[inline(always)]
    fn exact_f64(self) -> Option<f64> {
        number::exact_f64(self)
    }

    #[inline(always)]
    fn compare(self, other: &Number) -> Ordering {
        number::compare(self, other)
    }

    #[inline(always)]
    fn is_multiple_of(self, divisor: &Number) -> bool {
        number::is_multiple_of(self, divisor)
    }

    #[inline(always)]
    fn hash<H: Hasher>(self, state: &mut H) {
        number::hash(self, state)
    }

    #[inline(always)]
    fn with_exact<R>(self, f: impl FnOnce(Exact<'_>) -> R) -> R {
        f(Exact::Held(self))
    }
}

/// The numbers of JSON text: as `serde_json` would hold them where that is exact, else
/// by their text.
impl NumberView for Exact<'_> {
    #[inline(always)]
    fn is_integer(self) -> bool {
        Exact::is_integer(self)
    }

    #[inline(always)]
    fn exact_f64(self) -> Option<f64> {
        Exact::exact_f64(self)
    }

    #[inline(always)]
    fn compare(self, other: &Number) -> Ordering {
        Exact::compare(self, other)
    }

    #[inline(always)]
    fn is_multiple_of(self, divisor: &Number) -> bool {
        Exact::is_multiple_of(self, divisor)
    }

    #[inline(always)]
    fn hash<H: Hasher>(self, state: &mut H) {
        Exact::hash(self, state)
    }

    #[inline(always)]
    fn with_exact<R>(self, f: impl FnOnce(Exact<'_>) -> R) -> R {
        f(self)
    }
}
