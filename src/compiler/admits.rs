//! Which kinds of value each node can possibly accept.
//!
//! `oneOf` and `anyOf` over schemas of different types (an expression that is a string, a
//! number, or one of several objects) would try every branch on every instance. The
//! compiler derives for every node a [`TypeSet`] that over-approximates the types of the
//! values it accepts (`{"type": "object", ...}` accepts only objects; `allOf` the
//! intersection, `anyOf` the union, `$ref` its target's), and the interpreter skips a
//! branch whose set excludes the instance's type: it would fail anyway, and a failing
//! branch leaves neither errors nor annotations behind.
//!
//! The sets are computed by iterating from "every type" down to a fixpoint. Every
//! iteration keeps every set an over-approximation (each rule is sound given sound
//! inputs), so even a cut-short iteration is safe; reference cycles simply keep what
//! the other parts of the cycle allow.

use super::Compiler;
use crate::json::types::TypeSet;
use crate::program::{Node, Program};

/// Rounds of refinement: enough for the nesting of real schemas, and each round is linear.
const MAX_ROUNDS: usize = 16;

impl Compiler<'_> {
    /// Fills `program.admits`.
    pub(crate) fn derive_admits(&mut self) {
        let program = &mut self.program;
        program.admits = vec![TypeSet::ANY; program.nodes.len()];
        for _ in 0..MAX_ROUNDS {
            let mut changed = false;
            // Children are mostly lowered after their parents (higher ids): going from
            // the last node back settles most of the program in one round.
            for i in (0..program.nodes.len()).rev() {
                let set = admits(program, program.nodes[i]);
                if set != program.admits[i] {
                    program.admits[i] = set;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
}

/// The types `node` may accept, given the current sets of the other nodes.
fn admits(program: &Program, node: Node) -> TypeSet {
    let of = |id: crate::ids::NodeId| program.admits[id.index()];
    match node {
        Node::Invalid => TypeSet::NONE,
        Node::Type(set) => set,
        Node::ArrayOf(_) => TypeSet::ARRAY,
        Node::All(span) => program.edges[span]
            .iter()
            .fold(TypeSet::ANY, |set, &part| set.intersection(of(part))),
        Node::Checks(table) => program
            .check_parts(table)
            .iter()
            .fold(TypeSet::ANY, |set, &part| set.intersection(of(part))),
        Node::Any(span) | Node::One(span) | Node::AnyLeaf(span) | Node::OneLeaf(span) => program
            .edges[span]
            .iter()
            .fold(TypeSet::NONE, |set, &branch| set.union(of(branch))),
        Node::Switch(table) => program.edges[program.switches[table].branches]
            .iter()
            .fold(TypeSet::NONE, |set, &branch| set.union(of(branch))),
        Node::ByKind(table) => program.edges[program.by_kinds[table].branches]
            .iter()
            .fold(TypeSet::NONE, |set, &branch| set.union(of(branch))),
        Node::Ref(target) | Node::Guard(target) => of(target),
        Node::Object { gate, .. } | Node::Array { gate, .. } => of(gate),
        Node::Scope { body, .. } => of(body),
        Node::Condition {
            then, otherwise, ..
        } => of(then).union(of(otherwise)),
        Node::Unevaluated(table) => of(program.unevaluated[table].body),
        Node::DynamicRef(table) => {
            // Wherever the reference may land: its static target or any anchor of its name.
            let dynamic = &program.dynamic_refs[table];
            let name = &program.strings[dynamic.anchor];
            program
                .anchors
                .iter()
                .filter(|(anchor, _)| program.strings[*anchor] == *name)
                .fold(of(dynamic.target), |set, &(_, node)| set.union(of(node)))
        }
        // Everything else passes values of the types it does not constrain.
        _ => TypeSet::ANY,
    }
}
