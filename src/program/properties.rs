//! The [`Properties`] table (`properties`, `patternProperties`,
//! `additionalProperties`) and the choice of the fast mode's loop over it
//! ([`FastLoop`]).

use super::RegexId;
use super::{hashed_position, NameLookup, Program, Settle};
use crate::ids::NodeId;
use crate::json::types::TypeSet;
use crate::names::{probe, same_bytes, ProbedIndex, QuickIndex, Spelling};
use std::sync::{Arc, OnceLock};

/// The operands of [`Node::Properties`](super::Node::Properties).
#[derive(Clone, Debug, Default)]
pub(crate) struct Properties {
    /// `properties`, in schema order. A name is shared, not copied, by the tables made
    /// from this one (the union of an `allOf`'s tables, the hash index of a long one).
    pub(crate) named: Vec<(Arc<str>, NodeId)>,
    /// The bytes of each of `named`'s names as a set, side by side, made by the
    /// interpreter's "did you mean" search the first time it looks for a name near a key
    /// the table does not allow (most names are ruled out by it, without a look at
    /// their bytes); what a word holds is that search's business.
    pub(crate) name_bytes: OnceLock<Box<[u64]>>,
    /// How [`Properties::position`] finds a name in `named`.
    pub(crate) lookup: NameLookup,
    /// What the interpreter reads of each `named` property once it found the name, side
    /// by side (one bounds check, one cache line).
    pub(crate) entries: Vec<Entry>,
    /// How many `entries` a folded `required` lists: an object passes `required` when
    /// its keys meet that many of them.
    pub(crate) required_count: u32,
    /// The folded `Required` node itself, evaluated only to explain a missing property.
    pub(crate) required_node: Option<NodeId>,
    /// Whether the schema object of the table has no `required` but the folded one, so
    /// a name `entries` do not flag as required is optional there (for hints only).
    pub(crate) required_known: bool,
    /// `patternProperties`.
    pub(crate) patterns: Vec<(RegexId, NodeId)>,
    /// `additionalProperties`: for properties matched by neither of the above.
    pub(crate) additional: Option<NodeId>,
    /// How `additional` is settled (set by the compiler's last pass).
    pub(crate) additional_settle: Settle,
    /// Whether the fast loop holds costly entries back: the table is the body of a
    /// union's branch and some entry costs [`Program::COSTLY`] or more (set by the
    /// compiler's last pass). Elsewhere the fast loop runs its entries in key order.
    pub(crate) costly: bool,
    /// Whether every property the table does not name passes (no `patternProperties`,
    /// `additionalProperties` absent or always passing; set by the compiler's last
    /// pass): then only the named ones need looking at.
    pub(crate) open: bool,
    /// The loop the fast mode runs over an object's keys, decided from the fields
    /// above by [`FastLoop::of`] when the compiler's last pass has set them: one jump
    /// per object instead of a test of each field.
    pub(crate) fast: FastLoop,
    /// For a closed table that requires every name it lists (`additionalProperties:
    /// false`, every property required, no `patternProperties`: the strict shape of tool
    /// schemas), the positions in `named` of its names in the order an object's keys
    /// come in (byte order): a passing object has exactly these keys, so its `i`-th key
    /// must be the `i`-th of them, found without a lookup (set by the compiler's last
    /// pass, which then settles the table's slots as [`Settle::Exact`]; `None` for any
    /// other table, and for every table when keys keep their insertion order, see
    /// [`keys_in_byte_order`](crate::memory::keys_in_byte_order)).
    pub(crate) exact: Option<Box<[u32]>>,
    /// For an [`exact`](Properties::exact) table whose names are all decided by their
    /// [`Spelling`] and whose entries all settle as a lone `type` (a record of plain
    /// fields, the commonest shape of tool results): each name's spelling and type set,
    /// in the same order, so that a key costs a compare and a bit test, without the
    /// entry's fetch and the settle's dispatch (set by the compiler's last pass).
    pub(crate) typed: Option<Box<[(Spelling, TypeSet)]>>,
    /// Whether every value the table checks settles in place ([`Settle::in_place`]: no
    /// `patternProperties`, each named and the additional schema a leaf): its fast loop
    /// costs a lookup and a leaf check per key, so the explaining pass may run it first
    /// and explain only a table that fails (set by the compiler's last pass).
    pub(crate) leaves: bool,
}

/// Which of the fast mode's loops checks an object against a [`Properties`] table
/// (see [`Properties::fast`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum FastLoop {
    /// The loop that checks any table: a lookup, then a regex per key and pattern,
    /// costly entries held back. For `patternProperties`, and for a table whose fields
    /// are not final yet.
    #[default]
    General,
    /// No named properties and no patterns: only `additionalProperties` applies.
    Additional,
    /// Costly entries are held back until the cheap ones have passed
    /// ([`Properties::costly`]).
    Costly,
    /// A [`NameLookup::Scan`] table that is [open](Properties::open).
    OpenScan,
    /// A [`NameLookup::Scan`] table that is not open.
    Scan,
    /// A [`NameLookup::Quick`] table that is [open](Properties::open).
    OpenQuick,
    /// A [`NameLookup::Quick`] table that is not open.
    Quick,
    /// A [`NameLookup::Probed`] or [`NameLookup::Hashed`] table.
    Indexed,
}

impl FastLoop {
    /// The loop for `table`, its `patterns`, `costly`, `open` and `lookup` final.
    pub(crate) fn of(table: &Properties) -> FastLoop {
        match (
            &table.lookup,
            table.named.is_empty(),
            table.patterns.is_empty(),
        ) {
            (_, _, false) => FastLoop::General,
            (_, true, true) => FastLoop::Additional,
            _ if table.costly => FastLoop::Costly,
            (NameLookup::Scan(_), ..) if table.open => FastLoop::OpenScan,
            (NameLookup::Scan(_), ..) => FastLoop::Scan,
            (NameLookup::Quick(_), ..) if table.open => FastLoop::OpenQuick,
            (NameLookup::Quick(_), ..) => FastLoop::Quick,
            (NameLookup::Probed(_) | NameLookup::Hashed(_), ..) => FastLoop::Indexed,
        }
    }
}

/// A named property of a [`Properties`] table, as the interpreter uses it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The property's schema.
    pub(crate) node: NodeId,
    /// Its estimated cost ([`Program::cost`]): costly ones are evaluated after the cheap
    /// ones, so that a cheap failing check settles the verdict before a recursive
    /// property runs.
    pub(crate) cost: u32,
    /// Whether a folded `required` lists it.
    pub(crate) required: bool,
    /// How `node` is settled (set by the compiler's last pass).
    pub(crate) settle: Settle,
    /// The property's name as its [`Spelling`], which a key is compared with.
    pub(crate) spelling: Spelling,
}

impl Properties {
    /// Tables longer than this get a hash index; shorter ones are scanned, which for
    /// the short names of real schemas is cheaper: one word compare ([`probe`]) rejects
    /// almost every wrong entry. (Measured: 16 beat 8 on the tables of 9 to 16 names in
    /// the benchmark schemas.)
    pub(crate) const SCAN_UP_TO: usize = 4;

    /// The steps checking an object of `keys` keys against the table takes, however
    /// the loop runs: a lookup per key, and a regex per key and pattern.
    #[inline(always)]
    pub(crate) fn steps(&self, keys: usize) -> usize {
        (1 + self.patterns.len()) * keys
    }

    /// Derives the lookup structures and costs of `named` (which must list each name
    /// once), once it is complete.
    pub(crate) fn index_named(&mut self, program: &Program) {
        self.lookup = if self.named.len() <= Self::SCAN_UP_TO {
            let mut probes = [NameLookup::NO_PROBE; Self::SCAN_UP_TO];
            for (slot, (name, _)) in probes.iter_mut().zip(&self.named) {
                *slot = probe(name);
            }
            NameLookup::Scan(probes)
        } else {
            let names: Vec<&str> = self.named.iter().map(|(name, _)| &**name).collect();
            if let Some(index) = QuickIndex::build(&names) {
                NameLookup::Quick(index)
            } else if let Some(index) = ProbedIndex::build(&names) {
                NameLookup::Probed(index)
            } else {
                let positions = self.named.iter().enumerate();
                NameLookup::Hashed(
                    positions
                        .map(|(i, (name, _))| (name.clone(), i as u32))
                        .collect(),
                )
            }
        };
        self.entries = (self.named.iter())
            .map(|(name, node)| Entry {
                node: *node,
                cost: program.cost(*node),
                required: false,
                settle: Settle::Eval,
                spelling: Spelling::of(name),
            })
            .collect();
    }

    /// Folds a `required` of `names` (its node `node`) into the table, if every name is
    /// a named property; says whether it did.
    pub(crate) fn fold_required(&mut self, names: &[Box<str>], node: NodeId) -> bool {
        let Some(positions) = names
            .iter()
            .map(|name| self.position(name))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        for i in positions {
            self.entries[i].required = true;
        }
        // Repeated names are flagged once, so the count matches the keys to meet.
        self.required_count = self.entries.iter().filter(|e| e.required).count() as u32;
        self.required_node = Some(node);
        true
    }

    /// The position in `named` of the property called `name`.
    #[inline(always)]
    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.find(name).map(|(i, _)| i)
    }

    /// The position in `named` of the property called `name`, and its entry.
    #[inline(always)]
    pub(crate) fn find(&self, name: &str) -> Option<(usize, &Entry)> {
        match &self.lookup {
            NameLookup::Scan(probes) => self.scanned(probes, name),
            NameLookup::Quick(index) => self.quick(index, name),
            NameLookup::Probed(index) => self.probed(index, name),
            NameLookup::Hashed(map) => self.hashed(map, name),
        }
    }

    /// [`Properties::position`] by the [`NameLookup::Scan`] of `probes`: a fixed number of
    /// compares against words in the table itself, no loop, no length, no pointer to keep
    /// in a register.
    #[inline(always)]
    pub(crate) fn scanned(
        &self,
        probes: &[u64; Self::SCAN_UP_TO],
        name: &str,
    ) -> Option<(usize, &Entry)> {
        let probe = probe(name);
        for (i, &p) in probes.iter().enumerate() {
            // Names may share a probe word: each that does is compared.
            if p == probe {
                if let Some(entry) = self.named_at(i, name, || Spelling::of(name)) {
                    return Some((i, entry));
                }
            }
        }
        None
    }

    /// The entry at position `i` if `name` is its name: compared by its [`Spelling`]
    /// (`spelling`, the caller's if it has it) when that decides, without reading the
    /// name a pointer away; else byte by byte. The entry is fetched once, for the
    /// compare and the caller.
    #[inline(always)]
    pub(crate) fn named_at(
        &self,
        i: usize,
        name: &str,
        spelling: impl FnOnce() -> Spelling,
    ) -> Option<&Entry> {
        let entry = self.entries.get(i)?;
        let same = match Spelling::decides(name.len()) {
            true => entry.spelling == spelling(),
            false => same_bytes(self.named.get(i)?.0.as_bytes(), name.as_bytes()),
        };
        same.then_some(entry)
    }

    /// [`Properties::find`] by the [`NameLookup::Quick`] `index`.
    #[inline(always)]
    pub(crate) fn quick(&self, index: &QuickIndex, name: &str) -> Option<(usize, &Entry)> {
        let spelling = Spelling::of(name);
        let i = index.candidate(spelling);
        Some((i, self.named_at(i, name, || spelling)?))
    }

    /// [`Properties::find`] by the [`NameLookup::Probed`] `index`.
    #[inline(always)]
    pub(crate) fn probed(&self, index: &ProbedIndex, name: &str) -> Option<(usize, &Entry)> {
        let spelling = Spelling::of(name);
        let mut slot = index.start(spelling);
        loop {
            let (i, next) = index.at(slot)?;
            if let Some(entry) = self.named_at(i, name, || spelling) {
                return Some((i, entry));
            }
            slot = next;
        }
    }

    /// [`Properties::find`] by the [`NameLookup::Hashed`] `map`.
    #[inline(always)]
    pub(crate) fn hashed(
        &self,
        map: &ahash::AHashMap<Arc<str>, u32>,
        name: &str,
    ) -> Option<(usize, &Entry)> {
        let i = hashed_position(map, name)?;
        Some((i, self.entries.get(i)?))
    }
}
