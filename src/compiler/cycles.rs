//! In-place cycles: subschemas that apply themselves to the same instance location.
//!
//! Keywords like `$ref`, `allOf` or `not` apply a subschema to the value at hand; others
//! (`properties`, `items`, ...) apply one to a part of it. A cycle made of the first kind
//! alone never consumes input: "a = allOf [ref b], b = allOf [ref a]" is infinitely
//! recursive for every instance (2020-12 Core, section 9.4.1). Such a schema must never
//! validate anything, whatever later passes do to the program, so this pass runs before
//! them, right after the dynamic references the root settles have become plain ones:
//!
//! - A cycle whose every edge is always applied (`$ref`, `allOf`, `not`, the `if` test, a
//!   resource's scope, the body of `unevaluated*`) is a [`SchemaError`] naming the
//!   locations it goes round.
//! - Every other cycle (one through `anyOf`, `oneOf`, `then`/`else`, `dependentSchemas`,
//!   a dynamic reference, ...) may or may not come round for a given instance. Each node
//!   on it is wrapped in a [`Node::Guard`]: the interpreter stops the run with an
//!   `InfiniteRecursion` error when a guarded node is entered again at the same instance
//!   location, before any verdict could pass.
//!
//! Afterwards no cycle of the program is made of `All`s and references alone, so the
//! passes that copy references or flatten conjunctions cannot collapse one into `Valid`.

use super::Compiler;
use crate::error::{SchemaError, SchemaErrorKind};
use crate::ids::NodeId;
use crate::program::{other_leaves, Node, Program};

/// How an in-place edge is taken.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Edge {
    /// On every evaluation of the parent (by the keyword's meaning, whatever order the
    /// interpreter settles a verdict in).
    Always,
    /// Only for some instances, or depending on other verdicts.
    Sometimes,
}

/// Calls `visit` with each child that `node` applies to the same instance location.
/// Children applied to parts of the instance (property values, items, names) are not
/// in-place and are left out.
fn in_place_children(program: &Program, node: Node, mut visit: impl FnMut(NodeId, Edge)) {
    let mut each = |span, edge| {
        for &child in &program.edges[span] {
            visit(child, edge);
        }
    };
    match node {
        Node::All(span) => each(span, Edge::Always),
        Node::PropertyLogic(table) => each(program.property_logic[table].parts, Edge::Always),
        Node::Checks(table) => each(program.check_lists[table].parts, Edge::Always),
        Node::Any(span)
        | Node::One(span)
        | Node::AnyLeaf(span)
        | Node::OneLeaf(span)
        | Node::ExclusiveLeaf(span) => each(span, Edge::Sometimes),
        Node::Switch(table) => each(program.switches[table].branches, Edge::Sometimes),
        Node::ByKind(table) => each(program.by_kinds[table].branches, Edge::Sometimes),
        Node::Not(child) | Node::Ref(child) | Node::Scope { body: child, .. } => {
            visit(child, Edge::Always)
        }
        Node::Guard(child) => visit(child, Edge::Always),
        Node::Condition {
            test,
            then,
            otherwise,
        } => {
            visit(test, Edge::Always);
            visit(then, Edge::Sometimes);
            visit(otherwise, Edge::Sometimes);
        }
        Node::Cases(table) => {
            let cases = &program.cases[table];
            visit(cases.test, Edge::Always);
            visit(cases.then, Edge::Sometimes);
            visit(cases.otherwise, Edge::Sometimes);
        }
        Node::Annotations(test) => visit(test, Edge::Sometimes),
        Node::DynamicRef(table) => {
            // Wherever it may land: its static target or any anchor of its name.
            let dynamic = &program.dynamic_refs[table];
            visit(dynamic.target, Edge::Sometimes);
            let name = &program.strings[dynamic.anchor];
            for &(anchor, target) in &program.anchors {
                if program.strings[anchor] == *name {
                    visit(target, Edge::Sometimes);
                }
            }
        }
        Node::DependentSchemas(span) => {
            for &(_, child) in &program.dependent_schemas[span] {
                visit(child, Edge::Sometimes);
            }
        }
        Node::Unevaluated(table) => visit(program.unevaluated[table].body, Edge::Always),
        Node::Object { gate, .. } | Node::Array { gate, .. } => visit(gate, Edge::Always),
        // Applied to parts of the instance, or to nothing. (The leaves with parts, listed
        // among the others, were matched above.)
        #[allow(unreachable_patterns)]
        Node::Items(_)
        | Node::Contains { .. }
        | Node::Properties(_)
        | Node::PropertyNames(_)
        | Node::Annotate(_)
        | Node::Valid
        | Node::Type(_)
        | other_leaves!() => {}
    }
}

impl Compiler<'_> {
    /// Rejects unconditional in-place cycles and guards the others (see the module docs).
    pub(crate) fn settle_cycles(&mut self) -> Result<(), SchemaError> {
        // Lowering walks the schema as a tree: only a reference leads back to a node
        // lowered before, so every cycle goes through one, and the search starts there.
        // (A reference into another resource with dynamic anchors enters its scope: a
        // `Scope` node.)
        let reference = |node: &Node| {
            matches!(
                node,
                Node::Ref(_) | Node::DynamicRef(_) | Node::Scope { .. }
            )
        };
        let references = (self.program.nodes.iter().enumerate())
            .filter(|(_, node)| reference(node))
            .filter_map(|(i, _)| NodeId::new(i));
        if references.clone().next().is_none() {
            return Ok(());
        }
        let graph = Graph::of(&self.program);
        let cyclic = graph.cycles(references, |_| true);
        if cyclic.is_empty() {
            return Ok(());
        }
        let always = |edge| edge == Edge::Always;
        let members = cyclic.iter().flatten().copied();
        if let Some(cycle) = graph.cycles(members, always).first() {
            return Err(self.cycle_error(&graph.cycle_through(cycle, always)));
        }
        for id in cyclic.into_iter().flatten() {
            // The node's content moves to a new node and a guard takes its place, so every
            // way into the cycle, and round it, passes a guard.
            let body = NodeId::new(self.program.nodes.len()).expect("fewer than 2^32 nodes");
            self.program.nodes.push(self.program.nodes[id.index()]);
            self.locations.push_copy(id);
            self.program.nodes[id.index()] = Node::Guard(body);
        }
        Ok(())
    }

    /// The error for an unconditional cycle through `cycle` (its nodes, in order).
    #[cold]
    fn cycle_error(&self, cycle: &[NodeId]) -> SchemaError {
        // Each location once in a row (a subschema and its keyword node may share one),
        // and round to the start again.
        let mut path: Vec<String> = Vec::new();
        for &id in cycle {
            let location = self.locations.get(id);
            if path.last() != Some(&location) {
                path.push(location);
            }
        }
        path.push(path[0].clone());
        let shown: Vec<&str> = (path.iter())
            .map(|l| if l.is_empty() { "#" } else { l.as_str() })
            .collect();
        SchemaError::new(
            SchemaErrorKind::InfiniteRecursion,
            &path[0],
            format!(
                "the schema applies itself to the same value without end: {}",
                shown.join(" -> ")
            ),
        )
    }
}

/// The in-place graph of a program, as adjacency lists in one table.
struct Graph {
    /// Where each node's edges start in `edges` (one more entry than nodes).
    starts: Vec<u32>,
    edges: Vec<(NodeId, Edge)>,
}

impl Graph {
    fn of(program: &Program) -> Graph {
        let mut starts = Vec::with_capacity(program.nodes.len() + 1);
        let mut edges = Vec::new();
        for &node in &program.nodes {
            starts.push(edges.len() as u32);
            in_place_children(program, node, |child, edge| edges.push((child, edge)));
        }
        starts.push(edges.len() as u32);
        Graph { starts, edges }
    }

    fn children(&self, id: NodeId) -> &[(NodeId, Edge)] {
        let i = id.index();
        &self.edges[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// A cycle through the first node of `component` (strongly connected under `keep`),
    /// found breadth first: its nodes in order.
    fn cycle_through(&self, component: &[NodeId], keep: impl Fn(Edge) -> bool) -> Vec<NodeId> {
        let start = component[0];
        let mut parent: ahash::AHashMap<NodeId, NodeId> = crate::maps::map();
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(id) = queue.pop_front() {
            for &(child, edge) in self.children(id) {
                if !keep(edge) || !component.contains(&child) {
                    continue;
                }
                if child == start {
                    let mut path = vec![id];
                    let mut at = id;
                    while at != start {
                        at = parent[&at];
                        path.push(at);
                    }
                    path.reverse();
                    return path;
                }
                if let std::collections::hash_map::Entry::Vacant(slot) = parent.entry(child) {
                    slot.insert(id);
                    queue.push_back(child);
                }
            }
        }
        // Unreachable for a strongly connected component; its members are a fair answer.
        component.to_vec()
    }

    /// The strongly connected components reachable from `roots` under the edges `keep`
    /// accepts that hold a cycle: more than one node, or one with an edge onto itself
    /// (Tarjan's algorithm, with an explicit stack: programs can be deep).
    fn cycles(
        &self,
        roots: impl Iterator<Item = NodeId>,
        keep: impl Fn(Edge) -> bool,
    ) -> Vec<Vec<NodeId>> {
        const UNSEEN: u32 = u32::MAX;
        let n = self.starts.len() - 1;
        let mut index = vec![UNSEEN; n];
        let mut low = vec![0u32; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<NodeId> = Vec::new();
        let mut next = 0u32;
        let mut found = Vec::new();
        // (node, how many of its edges are done)
        let mut frames: Vec<(NodeId, usize)> = Vec::new();
        for root in roots {
            if index[root.index()] != UNSEEN {
                continue;
            }
            frames.push((root, 0));
            index[root.index()] = next;
            low[root.index()] = next;
            next += 1;
            stack.push(root);
            on_stack[root.index()] = true;
            while let Some(&mut (id, ref mut done)) = frames.last_mut() {
                if let Some(&(child, edge)) = self.children(id).get(*done) {
                    *done += 1;
                    if !keep(edge) {
                        continue;
                    }
                    if index[child.index()] == UNSEEN {
                        index[child.index()] = next;
                        low[child.index()] = next;
                        next += 1;
                        stack.push(child);
                        on_stack[child.index()] = true;
                        frames.push((child, 0));
                    } else if on_stack[child.index()] {
                        low[id.index()] = low[id.index()].min(index[child.index()]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    low[parent.index()] = low[parent.index()].min(low[id.index()]);
                }
                if low[id.index()] != index[id.index()] {
                    continue;
                }
                if stack.last() == Some(&id) {
                    // A lone node: a cycle only if it loops onto itself.
                    stack.pop();
                    on_stack[id.index()] = false;
                    let children = self.children(id).iter();
                    if children.clone().any(|&(child, e)| child == id && keep(e)) {
                        found.push(vec![id]);
                    }
                } else {
                    let mut component = Vec::new();
                    while let Some(member) = stack.pop() {
                        on_stack[member.index()] = false;
                        component.push(member);
                        if member == id {
                            break;
                        }
                    }
                    component.reverse();
                    found.push(component);
                }
            }
        }
        found
    }
}
