//! Gated tables: `{"type": "object", "properties": ...}` and `{"type": "array", "items":
//! ...}` as one node each.
//!
//! The commonest schema object checks a type and then walks a table. As an `All` of a
//! `Type` and a `Properties` node that is three evaluations per object (the conjunction,
//! the type, the table); as a [`Node::Object`] it is one: an object goes straight to its
//! table (the type admits objects, or no fusion happens), any other value to the type
//! node, which also explains the failure. [`Node::Array`] does the same for `items` that
//! [`super::leaves`] could not fuse into a leaf, and takes in the array's size checks
//! (`minItems`, `maxItems`, `uniqueItems`) beside it, which its table then settles with
//! one comparison of the length. Parts beside the type that can only fail values it
//! rejects anyway (`minItems` beside `"type": "object"`) are dropped. The pass runs
//! after conjunctions are flat and leaves fused, so the parts it sees are final.

use super::leaves::fails;
use super::Compiler;
use crate::ids::{Id, NodeId, Span};
use crate::json::types::TypeSet;
use crate::program::{Items, Node};
use ahash::AHashMap;
use smallvec::SmallVec;

impl Compiler<'_> {
    /// Rewrites every `All` that holds one `type` admitting objects (arrays) and one
    /// `properties` table (`items` table) so that the two are one gated node.
    pub(crate) fn fuse_records(&mut self) {
        // Copies of one `All` (an inlined `$ref` target) share its span: one rewrite each.
        // Sized for one `All` in four nodes, so that it seldom grows.
        let mut rewritten: AHashMap<Span, Option<(Node, Option<NodeId>)>> =
            crate::maps::map_with_capacity(self.program.nodes.len() / 4);
        for i in 0..self.program.nodes.len() {
            let Node::All(span) = self.program.nodes[i] else {
                continue;
            };
            let rewrite = match rewritten.get(&span) {
                Some(&rewrite) => rewrite,
                None => {
                    let rewrite = self.gated(span);
                    rewritten.insert(span, rewrite);
                    rewrite
                }
            };
            if let Some((node, located_as)) = rewrite {
                self.program.nodes[i] = node;
                if let (Some(from), Some(to)) = (located_as, NodeId::new(i)) {
                    self.locations.copy(to, from);
                }
            }
        }
    }

    /// What the `All` of `span` becomes, if it holds a type and a table to fuse, and the
    /// node whose location it takes when it is that one node.
    fn gated(&mut self, span: Span) -> Option<(Node, Option<NodeId>)> {
        let parts: SmallVec<[NodeId; 8]> = SmallVec::from_slice(&self.program.edges[span]);
        let nodes = &self.program.nodes;
        let types: SmallVec<[usize; 2]> = (0..parts.len())
            .filter(|&at| matches!(nodes[parts[at].index()], Node::Type(_)))
            .collect();
        let [at_type] = types[..] else {
            return None;
        };
        let Node::Type(set) = nodes[parts[at_type].index()] else {
            return None;
        };
        let gate = parts[at_type];
        let tables: SmallVec<[(usize, Node); 2]> = (0..parts.len())
            .filter_map(|at| match nodes[parts[at].index()] {
                Node::Properties(table) if set.admits(TypeSet::OBJECT) => {
                    Some((at, Node::Object { table, gate }))
                }
                Node::Items(table) if set.admits(TypeSet::ARRAY) => {
                    Some((at, Node::Array { table, gate }))
                }
                _ => None,
            })
            .collect();
        let [(at_table, mut node)] = tables[..] else {
            return None;
        };
        // Parts that can fail only values the type rejects anyway (`minItems` beside
        // `"type": "object"`) say nothing more.
        let mut folded: SmallVec<[usize; 3]> = (0..parts.len())
            .filter(|&at| fails(nodes[parts[at].index()]).intersection(set) == TypeSet::NONE)
            .collect();
        if let Node::Array { table, gate } = node {
            let sized = self.sized(table, &parts, &mut folded);
            node = Node::Array { table: sized, gate };
        }
        // The gated node keeps the table's location: its errors name its keywords.
        let fused = self.push_located_as(node, parts[at_table]);
        let rest: SmallVec<[NodeId; 8]> = (0..parts.len())
            .filter(|&at| at != at_type && !folded.contains(&at))
            .map(|at| if at == at_table { fused } else { parts[at] })
            .collect();
        Some(match rest[..] {
            [only] => (self.program.nodes[only.index()], Some(only)),
            _ => (Node::All(self.edges(&rest)), None),
        })
    }

    /// The `items` table `table` with the size checks among `parts` (`minItems`,
    /// `maxItems`, `uniqueItems`) folded in, as a table of its own (the original may
    /// serve other schema objects), their positions added to `folded`; `table` itself
    /// when there are none.
    fn sized(
        &mut self,
        table: Id<Items>,
        parts: &[NodeId],
        folded: &mut SmallVec<[usize; 3]>,
    ) -> Id<Items> {
        let (mut min, mut max, mut unique) = (0, u32::MAX, false);
        let mut checks = SmallVec::<[NodeId; 3]>::new();
        for (at, &part) in parts.iter().enumerate() {
            match self.program.nodes[part.index()] {
                Node::MinItems(n) => min = min.max(n),
                Node::MaxItems(n) => max = max.min(n),
                Node::UniqueItems => unique = true,
                _ => continue,
            }
            folded.push(at);
            checks.push(part);
        }
        if checks.is_empty() {
            return table;
        }
        let mut sized = self.program.items[table].clone();
        sized.size_checks = self.edges(&checks);
        sized.sizes = (min, max, unique);
        let id = Id::new(self.program.items.len()).expect("fewer than 2^32 tables");
        self.program.items.push(sized);
        id
    }
}
