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
        // The first round sets every node; only those whose set depends on other nodes'
        // can change in a later one.
        let mut dependent = Vec::with_capacity(program.nodes.len() / 2);
        // Children are mostly lowered after their parents (higher ids): going from the
        // last node back settles most of the program in one round.
        for i in (0..program.nodes.len()).rev() {
            let read = std::cell::Cell::new(false);
            program.admits[i] = admits(program, program.nodes[i], &read);
            if read.get() {
                dependent.push(i);
            }
        }
        for _ in 1..MAX_ROUNDS {
            let mut changed = false;
            for &i in &dependent {
                let set = admits(program, program.nodes[i], &std::cell::Cell::new(false));
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

/// The types `node` may accept, given the current sets of the other nodes; sets `read`
/// when it reads one of them.
pub(super) fn admits(program: &Program, node: Node, read: &std::cell::Cell<bool>) -> TypeSet {
    let of = |id: crate::ids::NodeId| {
        read.set(true);
        program.admits[id.index()]
    };
    match node {
        Node::Invalid => TypeSet::NONE,
        Node::Type(set) => set,
        Node::ArrayOf(table) => program.array_ofs[table].types,
        Node::All(span) => program.edges[span]
            .iter()
            .fold(TypeSet::ANY, |set, &part| set.intersection(of(part))),
        Node::PropertyLogic(table) => program.edges[program.property_logic[table].parts]
            .iter()
            .fold(TypeSet::ANY, |set, &part| set.intersection(of(part))),
        Node::Checks(table) => program
            .check_parts(table)
            .iter()
            .fold(TypeSet::ANY, |set, &part| set.intersection(of(part))),
        Node::Any(span)
        | Node::One(span)
        | Node::AnyLeaf(span)
        | Node::OneLeaf(span)
        | Node::ExclusiveLeaf(span) => program.edges[span]
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
        Node::Cases(table) => {
            let cases = &program.cases[table];
            of(cases.then).union(of(cases.otherwise))
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The fixpoint by the definition: every node, every round, until nothing changes.
    fn every_node_every_round(program: &Program) -> Vec<TypeSet> {
        let mut sets = Program {
            admits: vec![TypeSet::ANY; program.nodes.len()],
            ..program.clone()
        };
        loop {
            let mut changed = false;
            for i in (0..sets.nodes.len()).rev() {
                let set = admits(&sets, sets.nodes[i], &std::cell::Cell::new(false));
                changed |= set != sets.admits[i];
                sets.admits[i] = set;
            }
            if !changed {
                return sets.admits;
            }
        }
    }

    #[test]
    fn revisiting_only_the_nodes_that_read_others_reaches_the_same_sets() {
        for schema in [
            json!({"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}], "$defs": {
                "a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/c"},
                "c": {"allOf": [{"type": ["string", "number"]}, {"type": "string"}]}}}),
            json!({"$defs": {"node": {"oneOf": [{"type": "string"},
                {"type": "array", "items": {"$ref": "#/$defs/node"}}]}},
                "properties": {"tree": {"$ref": "#/$defs/node"}}}),
            json!({"if": {"type": "object"}, "then": {"$ref": "#/$defs/x"},
                "else": {"not": {}}, "$defs": {"x": {"anyOf": [{"$ref": "#"}, false]}}}),
        ] {
            let options = crate::ValidationOptions::default();
            let program = crate::compiler::compile(&schema, &options).unwrap();
            assert_eq!(program.admits, every_node_every_round(&program), "{schema}");
        }
    }
}
