//! Inlining references: a `$ref` node becomes a copy of the node it points to.
//!
//! Nodes are small `Copy` values whose children are ids, so a copy of the target shares
//! the target's whole subtree: evaluating it does what jumping to the target did, minus
//! one dispatch. Recursion still goes through ids (a copy of a node that refers back to
//! itself refers to the original), so cycles stay cycles and the interpreter's depth
//! bound still applies. A chain of references is followed to its end; a cycle made of
//! references only never gets here ([`super::cycles`] refuses it), and would be left as
//! it is, for the interpreter to stop.
//!
//! Dynamic references come first: the dynamic scope of every run starts at the root
//! resource, which is therefore its outermost entry. When the root defines a reference's
//! dynamic anchor, the outermost definition wins whatever runs in between, so the
//! reference is a plain one (a metaschema's `$dynamicRef: "#meta"` everywhere).

use super::Compiler;
use crate::ids::NodeId;
use crate::program::Node;

impl Compiler<'_> {
    /// Replaces every `DynamicRef` whose anchor the root resource defines by a `Ref` to
    /// the root's definition.
    pub(crate) fn resolve_outermost_dynamic_refs(&mut self) {
        let program = &mut self.program;
        let Node::Scope {
            scope: outermost, ..
        } = program.nodes[program.root.index()]
        else {
            return;
        };
        for i in 0..program.nodes.len() {
            if let Node::DynamicRef(table) = program.nodes[i] {
                let name = &program.strings[program.dynamic_refs[table].anchor];
                if let Some(target) = program.dynamic_anchor(outermost, name) {
                    program.nodes[i] = Node::Ref(target);
                }
            }
        }
    }

    /// Replaces every `Ref` node by a copy of the first non-`Ref` node along its chain,
    /// with that node's location (errors name the keyword that failed, not the `$ref`).
    /// Every `Ref` of a chain gets its copy at once, so a chain is walked once, not once
    /// from each of its links (10,000 `$ref`s in a row took a third of a second).
    pub(crate) fn inline_refs(&mut self) {
        let program = &mut self.program;
        let mut chain = Vec::new();
        for id in (0..program.nodes.len()).filter_map(NodeId::new) {
            let Node::Ref(mut target) = program.nodes[id.index()] else {
                continue;
            };
            chain.clear();
            chain.push(id);
            // A chain longer than the program revisits a node: a cycle of references.
            while let Node::Ref(next) = program.nodes[target.index()] {
                chain.push(target);
                target = next;
                if chain.len() > program.nodes.len() {
                    break;
                }
            }
            let node = program.nodes[target.index()];
            if !matches!(node, Node::Ref(_)) {
                for &link in &chain {
                    program.nodes[link.index()] = node;
                    self.locations.copy(link, target);
                }
            }
        }
    }
}
