//! Flattening conjunctions: an `All` (a schema object's keywords, an `allOf`) whose parts
//! are `All`s becomes one flat list without repeated parts, and the `properties` tables
//! among its parts merge into one.
//!
//! Composed schemas (an `allOf` of schemas that each list a few properties, as the
//! 2020-12 metaschema and generated schemas are written) otherwise visit every key of an
//! instance once per table, and pay one evaluation per nesting level. Evaluating a part is
//! pure (a verdict, plus evaluation marks that are unioned anyway), so a repeated part
//! adds nothing, `{}` adds nothing, and two tables without `additionalProperties` check
//! what one table of their union checks, a name in both getting the conjunction of its
//! schemas. A table with `additionalProperties` depends on its own names and stays as it
//! is, as does every folded `required` but the first (a table counts one).
//!
//! The pass runs after references are inlined, so the copies of one `All` (a `$ref`
//! target used at many sites) share its span: each distinct span is rewritten once.

use super::Compiler;
use crate::ids::{Id, NodeId, Span};
use crate::program::{Node, Program, Properties};
use ahash::AHashMap;
use smallvec::SmallVec;
use std::sync::Arc;

/// How many levels of nested `All`s are flattened into one (deeper ones stay parts).
const MAX_FLATTEN_DEPTH: usize = 8;

/// How many nested `All`s one `All` absorbs at most (a bound on the work per node).
const MAX_FLATTENED: usize = 64;

/// Parts beyond this many are not compared for repeats (the comparison is quadratic).
const MAX_DEDUPLICATED: usize = 64;

/// What an `All` node becomes.
#[derive(Clone, Copy)]
enum Rewrite {
    /// A new node in its place.
    Node(Node),
    /// A copy of its only remaining part, with that part's location.
    Copy(NodeId),
}

type Parts = SmallVec<[NodeId; 8]>;

impl Compiler<'_> {
    /// Flattens every `All` and merges the property tables among its parts.
    pub(crate) fn flatten_conjunctions(&mut self) {
        // Sized for one `All` in four nodes, so that it seldom grows.
        let mut rewritten: AHashMap<Span, Option<Rewrite>> =
            crate::maps::map_with_capacity(self.program.nodes.len() / 4);
        for id in (0..self.program.nodes.len()).filter_map(NodeId::new) {
            let Node::All(span) = self.program.nodes[id.index()] else {
                continue;
            };
            let rewrite = match rewritten.get(&span) {
                Some(&rewrite) => rewrite,
                None => {
                    let rewrite = self.flattened(span);
                    rewritten.insert(span, rewrite);
                    rewrite
                }
            };
            match rewrite {
                Some(Rewrite::Node(node)) => self.program.nodes[id.index()] = node,
                Some(Rewrite::Copy(part)) => {
                    self.program.nodes[id.index()] = self.program.nodes[part.index()];
                    self.locations.copy(id, part);
                }
                None => {}
            }
        }
    }

    /// What the `All` of `span` becomes, if anything changes.
    fn flattened(&mut self, span: Span) -> Option<Rewrite> {
        let mut parts = Parts::new();
        let mut flattened: SmallVec<[Span; MAX_FLATTEN_DEPTH]> = SmallVec::new();
        flattened.push(span);
        let mut path = flattened.clone();
        collect(&self.program, span, &mut parts, &mut flattened, &mut path);
        let merged = self.merge_tables(&mut parts);
        // A lone part stands for the `All` itself, even unchanged: one evaluation less.
        if !merged && parts.len() > 1 && parts[..] == self.program.edges[span] {
            return None;
        }
        match parts[..] {
            [] => Some(Rewrite::Node(Node::Valid)),
            [only] => Some(Rewrite::Copy(only)),
            _ => Some(Rewrite::Node(Node::All(self.edges(&parts)))),
        }
    }

    /// Replaces the mergeable `Properties` among `parts` by one node of their union, at
    /// the first one's place; says whether there were two or more.
    fn merge_tables(&mut self, parts: &mut Parts) -> bool {
        let program = &self.program;
        let mut required_seen = false;
        let mergeable: SmallVec<[(usize, Id<Properties>); 8]> = parts
            .iter()
            .enumerate()
            .filter_map(|(at, &part)| match program.nodes[part.index()] {
                Node::Properties(table) => Some((at, table)),
                _ => None,
            })
            .filter(|&(_, table)| {
                let spec = &program.properties[table];
                if spec.additional.is_some() {
                    return false;
                }
                if spec.required_node.is_some() {
                    if required_seen {
                        return false;
                    }
                    required_seen = true;
                }
                true
            })
            .collect();
        if mergeable.len() < 2 {
            return false;
        }
        // Each name once, in order of first appearance, with every schema given for it;
        // sized for names that appear once (the tables were written to be merged).
        let names: usize = (mergeable.iter())
            .map(|&(_, id)| program.properties[id].named.len())
            .sum();
        let mut named: Vec<(Arc<str>, Parts)> = Vec::with_capacity(names);
        let mut positions: AHashMap<&str, usize> = crate::maps::map_with_capacity(names);
        let mut table = Properties::default();
        let mut required: Option<(Span, NodeId)> = None;
        for &(_, id) in &mergeable {
            let spec = &program.properties[id];
            for (name, node) in &spec.named {
                match positions.get(&**name) {
                    Some(&at) if !named[at].1.contains(node) => named[at].1.push(*node),
                    Some(_) => {}
                    None => {
                        positions.insert(name, named.len());
                        named.push((name.clone(), SmallVec::from_slice(&[*node])));
                    }
                }
            }
            table.patterns.extend_from_slice(&spec.patterns);
            if let Some(node) = spec.required_node {
                if let Node::Required(names) = program.nodes[node.index()] {
                    required = Some((names, node));
                }
            }
        }
        drop(positions);
        table.named.reserve_exact(named.len());
        for (name, schemas) in named {
            let node = match schemas[..] {
                [only] => only,
                _ => {
                    let span = self.edges(&schemas);
                    self.push_located_as(Node::All(span), schemas[0])
                }
            };
            table.named.push((name, node));
        }
        table.index_named(&self.program);
        if let Some((names, node)) = required {
            // Its names were all in its own table, so all are in the union.
            table.fold_required(&self.program.strings[names], node);
        }
        let id = Id::new(self.program.properties.len()).expect("fewer than 2^32 tables");
        self.program.properties.push(table);
        let (first, _) = mergeable[0];
        let node = self.push_located_as(Node::Properties(id), parts[first]);
        parts[first] = node;
        let merged_away = |at: usize| mergeable[1..].iter().any(|&(merged, _)| merged == at);
        *parts = (parts.iter().enumerate())
            .filter(|&(at, _)| !merged_away(at))
            .map(|(_, &part)| part)
            .collect();
        true
    }

    /// Appends `node` with the location of node `from`.
    pub(crate) fn push_located_as(&mut self, node: Node, from: NodeId) -> NodeId {
        let id = NodeId::new(self.program.nodes.len()).expect("fewer than 2^32 nodes");
        self.program.nodes.push(node);
        self.locations.push_copy(from);
        id
    }
}

/// Appends the parts of the `All` of `span` to `parts`, flattening nested `All`s and
/// dropping `{}` and parts equal to one already there. An `All` already flattened here
/// (a shared one can be reached many ways) adds nothing the second time, so each is read
/// once: the work stays linear in the program, not in the number of paths through it.
///
/// An `All` that is its own part, directly or through others, would be an in-place cycle
/// of conjunctions, which [`super::cycles`] refuses before this pass runs. Should one
/// ever get here, it is kept as a part (`path` holds the `All`s being read), never
/// dropped: dropping the back edge would turn "never valid" into "valid".
fn collect(
    program: &Program,
    span: Span,
    parts: &mut Parts,
    flattened: &mut SmallVec<[Span; MAX_FLATTEN_DEPTH]>,
    path: &mut SmallVec<[Span; MAX_FLATTEN_DEPTH]>,
) {
    for &part in &program.edges[span] {
        let node = program.nodes[part.index()];
        match node {
            Node::All(inner) if path.contains(&inner) => parts.push(part),
            Node::All(inner) if flattened.contains(&inner) => {}
            Node::All(inner)
                if path.len() <= MAX_FLATTEN_DEPTH && flattened.len() < MAX_FLATTENED =>
            {
                flattened.push(inner);
                path.push(inner);
                collect(program, inner, parts, flattened, path);
                path.pop();
            }
            Node::Valid => {}
            _ if parts.len() <= MAX_DEDUPLICATED
                && parts.iter().any(|&p| program.nodes[p.index()] == node) => {}
            _ => parts.push(part),
        }
    }
}
