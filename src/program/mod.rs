//! The compiled form of a schema: a flat arena of [`Node`]s plus side tables.
//!
//! The compiler ([`crate::compiler`]) lowers every subschema into nodes of one `Vec`,
//! children referenced by [`NodeId`] or by a [`Span`] into [`Program::edges`]; large or
//! variable-size payloads (values, numbers, strings, regexes, property tables) live in
//! side tables and are named by id. A `$ref` is an edge like any other, so recursive
//! schemas are id cycles. The interpreter ([`crate::vm`]) matches on `Node` and never
//! asks which dialect or which keyword spellings produced it.
//!
//! Invariants every table relies on: each id stored anywhere in the program is below the
//! length of the table it names, and [`Program::locations`] has one entry per node.
//!
//! One concern per module: the instruction set ([`node`]), how loops settle a child
//! ([`settle`]), the operand tables ([`operands`]; [`properties`] for the `properties`
//! table and its loop choice, [`lookup`] for how it finds a name), the schema locations
//! ([`locations`]) and the facts the compiler derives from a finished program
//! ([`facts`]). This module holds the [`Program`] itself.

pub(crate) mod facts;
mod locations;
mod lookup;
mod node;
mod operands;
mod properties;
mod settle;

pub(crate) use locations::{Locations, Place};
pub(crate) use lookup::{hashed_position, NameLookup};
pub(crate) use node::{applicators, fused_leaves, keyword_leaves, other_leaves, Node};
pub(crate) use operands::{
    AnnotationSet, ArrayOf, ByKind, Case, Cases, CheckList, Clause, DynamicRef, FloatBounds,
    Format, Items, PropertyLogic, StringSet, Switch, Unevaluated,
};
pub(crate) use properties::{Entry, FastLoop, Properties};
pub(crate) use settle::Settle;

/// A compiled regular expression of [`Program::regexes`].
pub(crate) type RegexId = Id<Pattern>;

use crate::ids::{Id, NodeId, ScopeId, Span, StrId};
use crate::json::equal::{equal, ValueIndex};
use crate::json::types::TypeSet;
use crate::json::view::{Json, View};
use crate::names::same_bytes;
use crate::regex::{Pattern, StepLimit};
use serde_json::{Number, Value};
use std::fmt;
use std::sync::Arc;

/// A compiled schema: immutable, `Send + Sync`, shared by every validation.
#[derive(Clone, Default)]
pub(crate) struct Program {
    /// The arena. Every `NodeId` in the program indexes it.
    pub(crate) nodes: Vec<Node>,
    /// The schema location of each node (one per node), for errors only: shared with
    /// them, which read their locations from it when asked.
    pub(crate) locations: Arc<Locations>,
    /// Child lists of `All` / `Any` / `One` and `Items::prefix`.
    pub(crate) edges: Vec<NodeId>,
    /// `const` and `enum` values.
    pub(crate) values: Vec<Value>,
    /// The [`ValueIndex`] of each [`Node::Enum`] of many options, by the start of its
    /// span (ascending: spans are allocated in order): see [`Program::enum_contains`].
    pub(crate) enum_indexes: Vec<(u32, ValueIndex)>,
    /// Numeric bounds and divisors.
    pub(crate) numbers: Vec<Number>,
    /// Names: `required`, dependency keys, anchors, format names.
    pub(crate) strings: Vec<Box<str>>,
    /// Compiled `pattern` / `patternProperties` regexes.
    pub(crate) regexes: Vec<Pattern>,
    /// The most steps one check of a pattern may take on the backtracking engine: within
    /// the validation's step budget, which a check that needed more would end anyway.
    pub(crate) backtrack_limit: StepLimit,
    /// [`Node::Properties`] operands.
    pub(crate) properties: Vec<Properties>,
    /// [`Node::Items`] operands.
    pub(crate) items: Vec<Items>,
    /// [`Node::Unevaluated`] operands.
    pub(crate) unevaluated: Vec<Unevaluated>,
    /// [`Node::DynamicRef`] operands.
    pub(crate) dynamic_refs: Vec<DynamicRef>,
    /// [`Node::Switch`] operands.
    pub(crate) switches: Vec<Switch>,
    /// [`Node::ByKind`] operands.
    pub(crate) by_kinds: Vec<ByKind>,
    /// [`Node::Cases`] operands.
    pub(crate) cases: Vec<Cases>,
    /// [`Node::StringEnum`] operands.
    pub(crate) string_sets: Vec<StringSet>,
    /// [`Node::ArrayOf`] operands.
    pub(crate) array_ofs: Vec<ArrayOf>,
    /// [`Node::Checks`] operands.
    pub(crate) check_lists: Vec<CheckList>,
    /// [`Node::Format`] operands.
    pub(crate) formats: Vec<Format>,
    /// [`Node::PropertyLogic`] operands.
    pub(crate) property_logic: Vec<PropertyLogic>,
    /// `dependentRequired`: a property name and the span (of `strings`) it requires.
    pub(crate) dependent_required: Vec<(StrId, Span)>,
    /// `dependentSchemas`: a property name and the node applied when it is present.
    pub(crate) dependent_schemas: Vec<(StrId, NodeId)>,
    /// Per node, the types of value it may accept (an over-approximation; see
    /// `compiler::admits`): `anyOf` / `oneOf` skip branches that cannot accept the instance.
    pub(crate) admits: Vec<TypeSet>,
    /// Per dynamic-scope resource, the span (of `anchors`) of its dynamic anchors.
    pub(crate) scopes: Vec<Span>,
    /// Dynamic anchors: name and the node it names.
    pub(crate) anchors: Vec<(StrId, NodeId)>,
    /// The [`Node::Annotate`] tables (the annotating program only).
    pub(crate) annotation_sets: Vec<AnnotationSet>,
    /// Each `$ref` node of the annotating program, ascending, with the location of the
    /// schema object it refers to: evaluation paths go through references.
    pub(crate) ref_targets: Vec<(NodeId, Box<str>)>,
    /// The root resource's absolute URI, when it has one of its own (a root `$id`).
    pub(crate) base: Option<Box<str>>,
    /// The node validation starts from.
    pub(crate) root: NodeId,
    /// How the fast mode settles the root: a record or a list runs its table at once,
    /// as a nested one does ([`Settle::Record`], [`Settle::List`]); anything else is
    /// evaluated ([`Settle::Eval`]).
    pub(crate) root_settle: Settle,
}

impl Program {
    /// The [`Program::cost`] from which a property's schema is worth deferring.
    pub(crate) const COSTLY: u32 = 50;

    /// A static estimate of the work evaluating node `id` takes, for ordering checks
    /// cheapest first. References count as expensive: they may recurse.
    pub(crate) fn cost(&self, id: NodeId) -> u32 {
        const LEAF: u32 = 1;
        const APPLICATOR: u32 = Program::COSTLY;
        const REFERENCE: u32 = 1_000;
        let shallow = |id: NodeId| match self.nodes[id.index()] {
            node if node.is_leaf() => LEAF,
            Node::Ref(_) | Node::Guard(_) | Node::DynamicRef(_) | Node::Scope { .. } => REFERENCE,
            _ => APPLICATOR,
        };
        match self.nodes[id.index()] {
            Node::All(span) => self.edges[span].iter().map(|&child| shallow(child)).sum(),
            _ => shallow(id),
        }
    }

    /// Calls `visit` on every node that node `id` refers to (its subschemas, the parts
    /// it fuses, the nodes kept to explain it).
    pub(crate) fn for_each_child(&self, id: NodeId, mut visit: impl FnMut(NodeId)) {
        let mut span = |span: Span| self.edges[span].iter().for_each(|&child| visit(child));
        match self.nodes[id.index()] {
            Node::All(edges)
            | Node::Any(edges)
            | Node::AnyLeaf(edges)
            | Node::One(edges)
            | Node::OneLeaf(edges)
            | Node::ExclusiveLeaf(edges) => span(edges),
            Node::Checks(table) => span(self.check_lists[table].parts),
            Node::ArrayOf(table) => span(self.array_ofs[table].parts),
            Node::Switch(table) => span(self.switches[table].branches),
            Node::ByKind(table) => span(self.by_kinds[table].branches),
            Node::PropertyLogic(table) => span(self.property_logic[table].parts),
            Node::EachItem(child)
            | Node::Not(child)
            | Node::Annotations(child)
            | Node::Ref(child)
            | Node::Guard(child)
            | Node::PropertyNames(child)
            | Node::Scope { body: child, .. }
            | Node::Contains { schema: child, .. } => visit(child),
            Node::Condition {
                test,
                then,
                otherwise,
            } => {
                visit(test);
                visit(then);
                visit(otherwise);
            }
            Node::Cases(table) => {
                let cases = &self.cases[table];
                visit(cases.test);
                visit(cases.then);
                visit(cases.otherwise);
            }
            Node::DynamicRef(table) => {
                let dynamic = &self.dynamic_refs[table];
                visit(dynamic.target);
                let name = &self.strings[dynamic.anchor];
                for &(anchor, target) in &self.anchors {
                    if self.strings[anchor] == *name {
                        visit(target);
                    }
                }
            }
            Node::Items(table) | Node::Tuple(table) | Node::Array { table, .. } => {
                let items = &self.items[table];
                self.edges[items.prefix]
                    .iter()
                    .for_each(|&child| visit(child));
                self.edges[items.size_checks]
                    .iter()
                    .for_each(|&child| visit(child));
                if let Some(rest) = items.rest {
                    visit(rest);
                }
                if let Node::Array { gate, .. } = self.nodes[id.index()] {
                    visit(gate);
                }
            }
            Node::Properties(table) | Node::Object { table, .. } => {
                let spec = &self.properties[table];
                spec.named.iter().for_each(|&(_, child)| visit(child));
                spec.patterns.iter().for_each(|&(_, child)| visit(child));
                spec.additional.into_iter().for_each(&mut visit);
                spec.required_node.into_iter().for_each(&mut visit);
                if let Node::Object { gate, .. } = self.nodes[id.index()] {
                    visit(gate);
                }
            }
            Node::DependentSchemas(entries) => self.dependent_schemas[entries]
                .iter()
                .for_each(|&(_, child)| visit(child)),
            Node::Unevaluated(table) => {
                let unevaluated = &self.unevaluated[table];
                visit(unevaluated.body);
                unevaluated.properties.into_iter().for_each(&mut visit);
                unevaluated.items.into_iter().for_each(&mut visit);
            }
            // The other leaves refer to nothing. (The leaves with parts, listed among
            // them, were matched above.)
            #[allow(unreachable_patterns)]
            Node::Valid | Node::Type(_) | Node::Annotate(_) | other_leaves!() => {}
        }
    }

    /// Per node, whether the root reaches it.
    pub(crate) fn reachable(&self) -> Vec<bool> {
        let mut reached = vec![false; self.nodes.len()];
        let mut stack = vec![self.root];
        reached[self.root.index()] = true;
        while let Some(id) = stack.pop() {
            self.for_each_child(id, |child| {
                if !reached[child.index()] {
                    reached[child.index()] = true;
                    stack.push(child);
                }
            });
        }
        reached
    }

    /// The parts of the [`Node::Checks`] of `table`, in schema order.
    pub(crate) fn check_parts(&self, table: Id<CheckList>) -> &[NodeId] {
        &self.edges[self.check_lists[table].parts]
    }

    /// The node a dynamic anchor called `name` names in resource `scope`, if any.
    pub(crate) fn dynamic_anchor(&self, scope: ScopeId, name: &str) -> Option<NodeId> {
        self.anchors[self.scopes[scope]]
            .iter()
            .find(|(anchor, _)| &*self.strings[*anchor] == name)
            .map(|&(_, node)| node)
    }

    /// Whether `value` equals an option of the [`Node::Enum`] of `span`, and the work:
    /// one per option compared, or, for an enum indexed by hash, what the index did.
    #[inline]
    pub(crate) fn enum_contains<'i, V: View<'i>>(&self, span: Span, value: V) -> (bool, usize) {
        let options = &self.values[span];
        if options.len() >= ValueIndex::WORTH_FROM {
            let at = self
                .enum_indexes
                .binary_search_by_key(&span.start, |&(start, _)| start);
            if let Ok(at) = at {
                return self.enum_indexes[at].1.contains(options, value);
            }
        }
        let found = match value.json() {
            // A string in line, as a `const` is (see `vm::leaf`).
            Json::String(text) => options.iter().any(|option| {
                matches!(option, Value::String(listed) if same_bytes(text.as_bytes(), listed.as_bytes()))
            }),
            _ => options.iter().any(|option| equal(value, option)),
        };
        (found, options.len())
    }

    /// Approximate heap bytes held by the program, counted as allocator blocks (see
    /// `crate::memory`; compiled regexes are estimated: their automata are not observable).
    pub(crate) fn memory_usage(&self) -> usize {
        use crate::memory::{block, number, shared_text, slice, text, value, vec, vec_with};
        vec(&self.nodes)
            + self.locations.memory_usage()
            + vec(&self.edges)
            + vec_with(&self.values, value)
            + vec_with(&self.enum_indexes, |(_, index)| index.memory_usage())
            + vec_with(&self.numbers, number)
            + vec_with(&self.strings, |s| text(s))
            // A regex's compiled automata are not observable: estimate them as a multiple
            // of the pattern's length, beside the handle itself.
            + vec_with(&self.regexes, |r| block(16 * r.as_str().len()))
            + vec_with(&self.properties, |p| {
                vec_with(&p.named, |(name, _)| shared_text(name))
                    + p.name_bytes.get().map_or(0, |sets| slice(sets))
                    + p.lookup.memory_usage()
                    + vec(&p.entries)
                    + vec(&p.patterns)
                    + p.exact.as_deref().map_or(0, slice)
                    + p.typed.as_deref().map_or(0, slice)
            })
            + vec_with(&self.items, |i| slice(&i.prefix_settle))
            + vec(&self.unevaluated)
            + vec(&self.dynamic_refs)
            + vec_with(&self.switches, |switch| {
                text(&switch.property)
                    + switch.values.memory_usage()
                    + vec_with(&switch.cases, vec)
                    + vec(&switch.open)
                    + vec(&switch.absent)
                    + slice(&switch.settles)
            })
            + vec(&self.by_kinds)
            + vec_with(&self.cases, |cases| {
                text(&cases.property)
                    + cases.strings.memory_usage()
                    + slice(&cases.string_cases)
                    + vec_with(&cases.other_cases, |(listed, _)| value(listed))
            })
            + vec_with(&self.string_sets, |set| set.set.memory_usage() + slice(&set.listing))
            + vec_with(&self.array_ofs, |array| slice(&array.prefix))
            + vec(&self.check_lists)
            + vec(&self.formats)
            + vec_with(&self.property_logic, |logic| {
                logic.names.memory_usage()
                    + slice(&logic.slots)
                    + slice(&logic.clauses)
                    + slice(&logic.edges)
                    + slice(&logic.part_clauses)
            })
            + vec(&self.dependent_required)
            + vec(&self.dependent_schemas)
            + vec(&self.admits)
            + vec(&self.scopes)
            + vec(&self.anchors)
            + vec_with(&self.annotation_sets, |set| {
                text(&set.location)
                    + vec_with(&set.entries, |(keyword, annotation, _)| {
                        text(keyword) + value(annotation)
                    })
            })
            + vec_with(&self.ref_targets, |(_, target)| text(target))
            + self.base.as_deref().map_or(0, text)
    }
}

impl fmt::Debug for Program {
    /// One node per line: id, node, schema location; the root is marked with `>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, node) in self.nodes.iter().enumerate() {
            let location = NodeId::new(i).map_or(String::new(), |id| self.locations.get(id));
            let mark = if i == self.root.index() { '>' } else { ' ' };
            writeln!(f, "{mark}{i:>5} {node:?}  @{location}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::NumId;

    /// Numbers around the edges of what doubles hold exactly: small values, integers
    /// near 2^53 and 2^64, and any finite double.
    fn number() -> impl proptest::strategy::Strategy<Value = Number> {
        use proptest::prelude::*;
        let edge = (0u64..4, -3i64..=3, any::<bool>()).prop_map(|(at, offset, negative)| {
            let base = [0, 1 << 53, 1 << 63, u64::MAX][at as usize];
            let magnitude = base.saturating_add_signed(offset);
            match negative {
                true => {
                    Number::from(-(magnitude.min(1 << 63) as i128).max(i64::MIN as i128) as i64)
                }
                false => Number::from(magnitude),
            }
        });
        let double = any::<f64>().prop_filter_map("finite", Number::from_f64);
        let near = (-4i64..4).prop_map(|n| Number::from_f64(n as f64 / 2.0).unwrap());
        prop_oneof![edge, double, near]
    }

    proptest::proptest! {
        /// The fused interval says what the exact comparison of each bound says, for
        /// every number a double holds exactly.
        #[test]
        fn float_bounds_agree_with_the_exact_comparisons(
            bounds in proptest::collection::vec((0usize..4, number()), 1..4),
            other in number(),
            equal_to in proptest::option::of(0usize..4),
        ) {
            // Often a number equal to a bound, where open and closed bounds differ.
            let value = equal_to.and_then(|i| bounds.get(i)).map_or(other, |(_, b)| b.clone());
            use crate::json::number::{compare, exact_f64};
            use std::cmp::Ordering::{Greater, Less};
            let mut program = Program::default();
            let mut parts = Vec::new();
            for (i, (kind, bound)) in bounds.iter().enumerate() {
                program.numbers.push(bound.clone());
                let n = NumId::new(i).unwrap();
                program.nodes.push([Node::Minimum(n), Node::ExclusiveMinimum(n),
                    Node::Maximum(n), Node::ExclusiveMaximum(n)][*kind]);
                parts.push(NodeId::new(i).unwrap());
            }
            let Some(fused) = FloatBounds::of(&program, &parts) else {
                // Only bounds a double does not hold are left to the exact path.
                proptest::prop_assert!(bounds.iter().any(|(_, b)| exact_f64(b).is_none()));
                return Ok(());
            };
            let Some(x) = exact_f64(&value) else {
                return Ok(());
            };
            let exact = bounds.iter().all(|(kind, bound)| {
                let order = compare(&value, bound);
                match kind {
                    0 => order != Less,
                    1 => order == Greater,
                    2 => order != Greater,
                    _ => order == Less,
                }
            });
            proptest::prop_assert_eq!(fused.admits(x), exact, "{:?} {}", bounds, value);
        }
    }

    #[test]
    fn string_sets_find_their_strings_and_list_them_as_written() {
        let set = StringSet::new(&["b", "a", "", "b", "ab"]);
        assert_eq!(set.len(), 4);
        assert_eq!(set.listed().collect::<Vec<_>>(), ["b", "a", "", "b", "ab"]);
        for text in ["a", "b", "", "ab"] {
            assert!(set.contains(text), "{text:?}");
        }
        for text in ["c", "ba", "A", "b "] {
            assert!(!set.contains(text), "{text:?}");
        }
    }

    #[test]
    fn nodes_stay_small() {
        assert!(
            std::mem::size_of::<Node>() <= 16,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    /// Names that share lengths, first bytes ("abcd" and "ab\u{e9}" share a probe
    /// word), prefixes and words.
    const NAMES: [&str; 11] = [
        "a",
        "ab",
        "abc",
        "abcd",
        "ab\u{e9}",
        "b",
        "abcdefgh",
        "abcdefghi",
        // Longer than a spelling decides: alike in their ends and words.
        "abcdefghijklmnopq",
        "abcdefghXjklmnopq",
        "abcdefghijklmnop",
    ];

    #[test]
    fn tables_find_exactly_their_names() {
        let program = Program {
            nodes: vec![Node::Valid],
            ..Program::default()
        };
        // Every lookup: scans of up to four names, and the indexes of longer tables.
        for names in (1..=NAMES.len()).flat_map(|n| NAMES.windows(n)) {
            let mut table = Properties {
                named: (names.iter())
                    .map(|&n| (n.into(), NodeId::new(0).unwrap()))
                    .collect(),
                ..Properties::default()
            };
            table.index_named(&program);
            for (i, name) in names.iter().enumerate() {
                assert_eq!(table.position(name), Some(i), "{names:?}");
            }
            let others = [
                "",
                "c",
                "ac",
                "abce",
                "abcdefgj",
                "abcdefghij",
                "ab\u{e8}",
                "abcdefghijklmXopq",
                "abcdefgXijklmnop",
            ];
            let unlisted = NAMES.iter().filter(|n| !names.contains(n));
            for other in others.iter().chain(unlisted) {
                assert_eq!(table.position(other), None, "{other} in {names:?}");
            }
        }
    }
}
