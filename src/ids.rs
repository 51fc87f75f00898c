//! Small integer handles into the [`Program`](crate::program::Program)'s tables.
//!
//! Every cross-reference inside a compiled program is a `u32` newtype rather than a
//! `usize` or a pointer: ids keep nodes small (a `Node` stays within 16 bytes), make
//! cycles (recursive `$ref`s) plain data instead of `Arc`/`Weak` webs, and make it
//! impossible to index one table with another table's id by accident. A bad id can only
//! panic on a bounds check; it can never cause undefined behaviour.

use std::ops::Index;

/// Declares a `u32` id newtype with a checked constructor and an `Index` impl for its table.
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
        #[repr(transparent)]
        pub(crate) struct $name(u32);

        impl $name {
            /// The id of the element at `index`, or `None` past `u32::MAX` elements.
            #[inline]
            pub(crate) fn new(index: usize) -> Option<Self> {
                u32::try_from(index).ok().map(Self)
            }

            /// The position this id names in its table.
            #[inline]
            pub(crate) fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A node of the program's arena.
    NodeId
);
id_type!(
    /// A compiled regular expression.
    RegexId
);
id_type!(
    /// A JSON value kept for `const` / `enum`.
    ValueId
);
id_type!(
    /// A string kept for `required`, `dependentRequired`, property names and anchors.
    StrId
);
id_type!(
    /// A number kept for the numeric bounds.
    NumId
);
id_type!(
    /// An entry of one of the keyword side tables (properties, items, dependencies, ...).
    TableId
);
id_type!(
    /// A schema resource that defines dynamic anchors, pushed on the dynamic scope.
    ScopeId
);

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

/// Implements `Index<$id>` for `Vec<$elem>` so tables are indexed by their own id type.
macro_rules! index_by {
    ($($id:ident),*) => {$(
        impl<T> Index<$id> for Vec<T> {
            type Output = T;
            #[inline]
            fn index(&self, id: $id) -> &T {
                &self[id.index()]
            }
        }
    )*};
}
index_by!(NodeId, RegexId, ValueId, StrId, NumId, TableId, ScopeId);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_and_index_their_table() {
        assert_eq!(NodeId::new(7).map(NodeId::index), Some(7));
        assert!(NodeId::new(u32::MAX as usize + 1).is_none());
        let table = Vec::from(["a", "b", "c"]);
        assert_eq!(table[StrId::new(1).unwrap()], "b");
        assert_eq!(&table[Span { start: 1, len: 2 }], &["b", "c"]);
    }
}
