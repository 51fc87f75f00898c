//! Fusing leaves: schema objects and `items` that only check values become leaves.
//!
//! An `All` whose parts are all leaves becomes [`Node::Checks`], and `items` (without a
//! prefix) over a leaf schema becomes [`Node::EachItem`]; both are leaves themselves, so
//! the interpreter settles `{"type": "array", "minItems": 2, "items": {"type": "number"}}`
//! in one tight loop, and an array of such arrays too. A `Checks` that only says "an
//! array of values of one type" becomes [`Node::ArrayOf`], one loop without calls. Because a fused leaf is checked by
//! plain recursion, without the interpreter's stack guard, fusion stops at
//! [`MAX_LEAF_NESTING`] levels; deeper structure keeps its ordinary nodes.

use super::Compiler;
use crate::ids::{NodeId, Span, TableId};
use crate::json::types::TypeSet;
use crate::program::{ArrayOf, Node, Program};

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
        for _ in 0..=MAX_LEAF_NESTING {
            let mut changed = false;
            for i in 0..program.nodes.len() {
                if let Some((node, depth)) = fused(program, &level, program.nodes[i]) {
                    program.nodes[i] = node;
                    level[i] = Some(depth);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for i in 0..program.nodes.len() {
            if let Node::Checks(span) = program.nodes[i] {
                if let Some(array_of) = array_of(program, span) {
                    let id = TableId::new(program.array_ofs.len()).expect("fewer than 2^32 tables");
                    program.array_ofs.push(array_of);
                    program.nodes[i] = Node::ArrayOf(id);
                }
            }
        }
    }
}

/// The [`ArrayOf`] a `Checks` of `span` amounts to: exactly `type: "array"`, `items` of a
/// lone `type`, and optionally `minItems` / `maxItems`.
fn array_of(program: &Program, span: Span) -> Option<ArrayOf> {
    let (mut array, mut items) = (false, None);
    let (mut min, mut max) = (0, u32::MAX);
    for &part in &program.edges[span] {
        match program.nodes[part.index()] {
            Node::Type(set) if set == TypeSet::ARRAY && !array => array = true,
            Node::EachItem(rest) if items.is_none() => match program.nodes[rest.index()] {
                Node::Type(set) => items = Some(set),
                _ => return None,
            },
            Node::MinItems(n) => min = min.max(n),
            Node::MaxItems(n) => max = max.min(n),
            _ => return None,
        }
    }
    Some(ArrayOf {
        items: items.filter(|_| array)?,
        min,
        max,
        parts: span,
    })
}

/// The leaf `node` fuses into, with its nesting level, if every part is a leaf and the
/// result stays within [`MAX_LEAF_NESTING`].
fn fused(program: &Program, level: &[Option<u8>], node: Node) -> Option<(Node, u8)> {
    let leaf_level = |id: NodeId| level[id.index()];
    let (fused, depth) = match node {
        Node::All(span) => {
            let depths: Option<Vec<u8>> = program.edges[span]
                .iter()
                .map(|&part| leaf_level(part))
                .collect();
            (
                Node::Checks(span),
                depths?.into_iter().max().unwrap_or(0) + 1,
            )
        }
        Node::Items(table) => {
            let items = &program.items[table.index()];
            let rest = items.rest?;
            if items.prefix.len != 0 {
                return None;
            }
            (Node::EachItem(rest), leaf_level(rest)? + 1)
        }
        _ => return None,
    };
    (depth <= MAX_LEAF_NESTING).then_some((fused, depth))
}
