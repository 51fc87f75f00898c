//! Tables planned once per distinct key: the copies of one union or chain (an inlined
//! `$ref` target copies its node to every place that refers to it) share one plan and
//! one table.

use crate::ids::Id;
use ahash::AHashMap;
use std::hash::Hash;

/// The tables planned for one kind of node, keyed by what copies of a node share, and
/// the nodes that get them: planned against the unchanged program, then applied (a
/// nested node reads the same facts as the node it may become).
pub(super) struct Planned<K, T> {
    /// The table planned for each key; `None` where planning found none.
    by_key: AHashMap<K, Option<Id<T>>>,
    /// The new tables, in the order of their ids.
    tables: Vec<T>,
    /// Each node to rewrite, with its table.
    rewrites: Vec<(usize, Id<T>)>,
}

impl<K: Eq + Hash, T> Planned<K, T> {
    pub(super) fn new() -> Self {
        Planned {
            by_key: crate::maps::map(),
            tables: Vec::new(),
            rewrites: Vec::new(),
        }
    }

    /// Node `at` gets the table planned for `key`, which `plan` plans the first time the
    /// key comes (`None`: no table, and the node stays as it is). The program holds
    /// `existing` tables of this kind before the new ones.
    pub(super) fn node(
        &mut self,
        at: usize,
        key: K,
        existing: usize,
        plan: impl FnOnce() -> Option<T>,
    ) {
        let tables = &mut self.tables;
        let table = *self.by_key.entry(key).or_insert_with(|| {
            let table = plan()?;
            let id = Id::new(existing + tables.len()).expect("fewer than 2^32 tables");
            tables.push(table);
            Some(id)
        });
        if let Some(table) = table {
            self.rewrites.push((at, table));
        }
    }

    /// Appends the new tables to the program's `tables` (which held `existing` of them
    /// throughout) and returns the nodes to rewrite, each with its table.
    pub(super) fn finish(self, tables: &mut Vec<T>) -> Vec<(usize, Id<T>)> {
        tables.extend(self.tables);
        self.rewrites
    }
}
