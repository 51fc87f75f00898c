//! Small integer handles into the [`Program`](crate::program::Program)'s tables.
//!
//! Every cross-reference inside a compiled program is a `u32` newtype rather than a
//! `usize` or a pointer: ids keep nodes small (a `Node` stays within 16 bytes), make
//! cycles (recursive `$ref`s) plain data instead of `Arc`/`Weak` webs, and make it
//! impossible to index one table with another table's id by accident: an [`Id<T>`]
//! indexes only a `Vec<T>`, and every side table holds a type of its own (a
//! [`NodeId`] indexes the per-node tables, one entry per node each). A bad id can only
//! panic on a bounds check; it can never cause undefined behaviour.

use serde_json::{Number, Value};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::Index;

/// A node of the program's arena, and its entry in each per-node table (the arena, the
/// locations, the admitted types): the one id that indexes several tables, all of them
/// one entry per node.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
#[repr(transparent)]
pub(crate) struct NodeId(u32);

impl NodeId {
    /// The id of the node at `index`, or `None` past `u32::MAX` nodes.
    #[inline]
    pub(crate) fn new(index: usize) -> Option<Self> {
        u32::try_from(index).ok().map(Self)
    }

    /// The position this id names in the per-node tables.
    #[inline]
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

impl<T> Index<NodeId> for Vec<T> {
    type Output = T;
    #[inline]
    fn index(&self, id: NodeId) -> &T {
        &self[id.index()]
    }
}

/// An entry of the program's table of `T`s: a `u32` that indexes a `Vec<T>` and no other
/// table, so that a `properties` id cannot be read as an `items` one.
#[repr(transparent)]
pub(crate) struct Id<T> {
    index: u32,
    table: PhantomData<fn() -> T>,
}

impl<T> Id<T> {
    /// The id of the entry at `index`, or `None` past `u32::MAX` entries.
    #[inline]
    pub(crate) fn new(index: usize) -> Option<Self> {
        let index = u32::try_from(index).ok()?;
        Some(Id {
            index,
            table: PhantomData,
        })
    }

    /// The position this id names in its table.
    #[inline]
    pub(crate) fn index(self) -> usize {
        self.index as usize
    }
}

// By hand rather than derived: a derive would ask the same of `T`, which an id never holds.
impl<T> Clone for Id<T> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Id<T> {}

impl<T> PartialEq for Id<T> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}

impl<T> Eq for Id<T> {}

impl<T> Hash for Id<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}

impl<T> fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Id({})", self.index)
    }
}

impl<T> Index<Id<T>> for Vec<T> {
    type Output = T;
    #[inline]
    fn index(&self, id: Id<T>) -> &T {
        &self[id.index()]
    }
}

/// A JSON value kept for `const` / `enum`.
pub(crate) type ValueId = Id<Value>;
/// A string kept for `required`, `dependentRequired`, property names and anchors.
pub(crate) type StrId = Id<Box<str>>;
/// A number kept for the numeric bounds.
pub(crate) type NumId = Id<Number>;
/// A schema resource that defines dynamic anchors, pushed on the dynamic scope: its span
/// of anchors.
pub(crate) type ScopeId = Id<Span>;

/// A contiguous run of entries in one of the program's side tables.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Span {
    /// Index of the first entry.
    pub(crate) start: u32,
    /// Number of entries.
    pub(crate) len: u32,
}

impl Span {
    /// The range of table positions this span covers.
    #[inline]
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }
}

impl<T> Index<Span> for Vec<T> {
    type Output = [T];
    #[inline]
    fn index(&self, span: Span) -> &[T] {
        &self[span.range()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_and_index_their_table() {
        assert_eq!(NodeId::new(7).map(NodeId::index), Some(7));
        assert!(NodeId::new(u32::MAX as usize + 1).is_none());
        let table: Vec<Box<str>> = Vec::from(["a".into(), "b".into(), "c".into()]);
        assert_eq!(&*table[StrId::new(1).unwrap()], "b");
        assert_eq!(&table[Span { start: 1, len: 2 }], &["b".into(), "c".into()]);
    }
}
