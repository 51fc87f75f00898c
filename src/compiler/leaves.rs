//! Fusing leaves: schema objects and `items` that only check values become leaves.
//!
//! An `All` whose parts are all leaves becomes [`Node::Checks`], and `items` (without a
//! prefix) over a leaf schema becomes [`Node::EachItem`]; both are leaves themselves, so
//! the interpreter settles `{"type": "array", "minItems": 2, "items": {"type": "number"}}`
//! in one tight loop, and an array of such arrays too. A `Checks` that only says "an
//! array of values of given types" (one for all items, or one per leading item) becomes
//! [`Node::ArrayOf`], one loop without calls. Because a fused leaf is checked by
//! plain recursion, without the interpreter's stack guard, fusion stops at
//! [`MAX_LEAF_NESTING`] levels; deeper structure keeps its ordinary nodes.

use super::Compiler;
use crate::ids::{NodeId, Span, TableId};
use crate::json::types::TypeSet;
use crate::program::{ArrayOf, CheckList, FloatBounds, Node, Program};
use ahash::AHashMap;
use smallvec::SmallVec;

/// How many fused leaves may nest inside one another.
const MAX_LEAF_NESTING: u8 = 4;

impl Compiler<'_> {
    /// Rewrites fusable `All` and `Items` nodes, innermost first, until nothing changes.
    pub(crate) fn fuse_leaves(&mut self) {
        let program = &mut self.program;
        // Nesting level of each node as a leaf: 0 for plain leaves, None for non-leaves.
        let mut level: Vec<Option<u8>> = program
            .nodes
            .iter()
            .map(|n| n.is_leaf().then_some(0))
            .collect();
        // Copies of one `All` (an inlined `$ref` target) share its span, and one list.
        let mut lists: AHashMap<Span, TableId> = crate::maps::map();
        // Only these kinds fuse, and what they fuse into never fuses again: each round
        // looks at those still unfused. Children mostly come after their parents: the
        // last node first fuses most nestings in one round.
        let mut pending: Vec<usize> = (0..program.nodes.len())
            .rev()
            .filter(|&i| {
                matches!(
                    program.nodes[i],
                    Node::All(_) | Node::Items(_) | Node::Any(_) | Node::One(_)
                )
            })
            .collect();
        for _ in 0..=MAX_LEAF_NESTING {
            let before = pending.len();
            pending.retain(|&i| {
                let Some((fused, depth)) = fused(program, &level, program.nodes[i]) else {
                    return true;
                };
                program.nodes[i] = match fused {
                    Fused::Node(node) => node,
                    Fused::Checks(span) => {
                        let table = match lists.get(&span) {
                            Some(&table) => table,
                            None => {
                                let table = check_list(program, span);
                                lists.insert(span, table);
                                table
                            }
                        };
                        Node::Checks(table)
                    }
                };
                level[i] = Some(depth);
                false
            });
            if pending.len() == before {
                break;
            }
        }
        for i in 0..program.nodes.len() {
            if let Node::Checks(table) = program.nodes[i] {
                if let Some(array_of) = array_of(program, &program.check_lists[table]) {
                    let id = TableId::new(program.array_ofs.len()).expect("fewer than 2^32 tables");
                    program.array_ofs.push(array_of);
                    program.nodes[i] = Node::ArrayOf(id);
                }
            }
        }
    }
}

/// What a node fuses into: a node, or a [`Node::Checks`] of the parts in a span (whose
/// [`CheckList`] the caller builds).
enum Fused {
    Node(Node),
    Checks(Span),
}

/// The [`CheckList`] of the leaf parts in `span`: the `type`s intersected, the other parts
/// grouped by the one kind of value (among those the types admit) they can fail.
fn check_list(program: &mut Program, span: Span) -> TableId {
    let node = |program: &Program, at: usize| program.nodes[program.edges[span][at].index()];
    let types = (0..span.len as usize).fold(TypeSet::ANY, |types, at| match node(program, at) {
        Node::Type(set) => types.intersection(set),
        _ => types,
    });
    // A part checking one kind of value joins that kind's group (run on the value as text
    // or number); any other part that can fail an admitted value runs for all. Each group
    // is appended to `edges` in turn, without a list of its own.
    let group = |node: Node| -> Option<usize> {
        let fails = fails(node);
        let kept = !matches!(node, Node::Type(_)) && fails.intersection(types) != TypeSet::NONE;
        kept.then(|| CheckList::kind(fails))
    };
    let groups: SmallVec<[(usize, NodeId); 8]> = (0..span.len as usize)
        .filter_map(|at| Some((group(node(program, at))?, program.edges[span][at])))
        .collect();
    program.edges.reserve(groups.len());
    let by_kind = [0, 1, 2, 3, 4].map(|kind| {
        let start = program.edges.len() as u32;
        let members = groups.iter().filter(|&&(k, _)| k == kind);
        program.edges.extend(members.map(|&(_, part)| part));
        Span {
            start,
            len: program.edges.len() as u32 - start,
        }
    });
    let bounds = FloatBounds::of(program, &program.edges[by_kind[CheckList::NUMBER]]);
    let id = TableId::new(program.check_lists.len()).expect("fewer than 2^32 tables");
    program.check_lists.push(CheckList {
        parts: span,
        types,
        by_kind,
        bounds,
        settle: crate::program::Settle::Eval,
    });
    id
}

/// The kinds of value leaf `node` can fail: a check of one JSON type passes the others.
pub(super) fn fails(node: Node) -> TypeSet {
    match node {
        Node::Valid => TypeSet::NONE,
        Node::MinLength(_) | Node::MaxLength(_) | Node::Pattern(_) | Node::Format(_) => {
            TypeSet::STRING
        }
        Node::Minimum(_)
        | Node::Maximum(_)
        | Node::ExclusiveMinimum(_)
        | Node::ExclusiveMaximum(_)
        | Node::MultipleOf(_) => TypeSet::NUMBER,
        Node::MinItems(_)
        | Node::MaxItems(_)
        | Node::UniqueItems
        | Node::EachItem(_)
        | Node::Tuple(_) => TypeSet::ARRAY,
        Node::MinProperties(_)
        | Node::MaxProperties(_)
        | Node::Required(_)
        | Node::DependentRequired(_) => TypeSet::OBJECT,
        _ => TypeSet::ANY,
    }
}

/// The [`ArrayOf`] a check `list` amounts to: `type`s, item types given by `items` (of a
/// lone `type`, or array-form of lone `type`s, maybe with a rest of one), and optionally
/// `minItems` / `maxItems`; `None` for any other part, or no item types.
fn array_of(program: &Program, list: &CheckList) -> Option<ArrayOf> {
    let type_of = |id: NodeId| match program.nodes[id.index()] {
        Node::Type(set) => Some(set),
        _ => None,
    };
    let mut shape: Option<(Box<[TypeSet]>, Option<TypeSet>)> = None;
    let (mut min, mut max) = (0, u32::MAX);
    for &part in &program.edges[list.parts] {
        match program.nodes[part.index()] {
            Node::Type(_) => {}
            Node::EachItem(rest) if shape.is_none() => {
                shape = Some((Box::default(), Some(type_of(rest)?)));
            }
            Node::Tuple(table) if shape.is_none() => {
                let spec = &program.items[table.index()];
                let prefix = program.edges[spec.prefix].iter().map(|&id| type_of(id));
                let rest = match spec.rest {
                    Some(rest) => Some(type_of(rest)?),
                    None => None,
                };
                shape = Some((prefix.collect::<Option<_>>()?, rest));
            }
            Node::MinItems(n) => min = min.max(n),
            Node::MaxItems(n) => max = max.min(n),
            _ => return None,
        }
    }
    let (prefix, rest) = shape?;
    // An array that fails the types is left to the plain list (the fused node does not
    // test arrays for them).
    if !list.types.admits(TypeSet::ARRAY) {
        return None;
    }
    Some(ArrayOf {
        types: list.types,
        prefix,
        items: rest.unwrap_or(TypeSet::ANY),
        each_item: rest.is_some(),
        min,
        max,
        parts: list.parts,
    })
}

/// The leaf `node` fuses into, with its nesting level, if every part is a leaf and the
/// result stays within [`MAX_LEAF_NESTING`].
fn fused(program: &Program, level: &[Option<u8>], node: Node) -> Option<(Fused, u8)> {
    let leaf_level = |id: NodeId| level[id.index()];
    let max_level = |ids: std::iter::Copied<std::slice::Iter<'_, NodeId>>| {
        ids.map(leaf_level)
            .try_fold(0, |max, level| level.map(|level| max.max(level)))
    };
    let (fused, depth) = match node {
        Node::All(span) => (
            Fused::Checks(span),
            max_level(program.edges[span].iter().copied())? + 1,
        ),
        Node::Items(table) => {
            let items = &program.items[table.index()];
            let rest = match items.rest {
                Some(rest) => leaf_level(rest)?,
                None => 0,
            };
            if items.prefix.len == 0 {
                (Fused::Node(Node::EachItem(items.rest?)), rest + 1)
            } else {
                let prefix = max_level(program.edges[items.prefix].iter().copied())?;
                (Fused::Node(Node::Tuple(table)), prefix.max(rest) + 1)
            }
        }
        Node::Any(span) | Node::One(span) => {
            let one = matches!(node, Node::One(_));
            if let Some(set) = type_union(program, span, one) {
                // `anyOf` of lone types (and `oneOf` of disjoint ones) is one type.
                return Some((Fused::Node(Node::Type(set)), 0));
            }
            let level = max_level(program.edges[span].iter().copied())?;
            let fused = if one {
                Node::OneLeaf(span)
            } else {
                Node::AnyLeaf(span)
            };
            (Fused::Node(fused), level + 1)
        }
        _ => return None,
    };
    (depth <= MAX_LEAF_NESTING).then_some((fused, depth))
}

/// The one type set the branches of an `anyOf` (`one`: a `oneOf`) in `span` amount to,
/// when each is a lone `type` (for `oneOf`, of pairwise disjoint sets: exactly one can
/// match, since a number is an integer only when the integer bit is in its set).
fn type_union(program: &Program, span: Span, one: bool) -> Option<TypeSet> {
    let mut union = TypeSet::NONE;
    for &branch in &program.edges[span] {
        let Node::Type(set) = program.nodes[branch.index()] else {
            return None;
        };
        if one && union.intersection(set) != TypeSet::NONE {
            return None;
        }
        union = union.union(set);
    }
    Some(union)
}
