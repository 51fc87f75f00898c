//! Discriminated `anyOf` / `oneOf`: branches told apart by one property's value.
//!
//! Real schemas often pick a variant by a tag: FHIR's `resourceType` `const`s under a
//! 147-way `oneOf`, cql2's `op` `enum`s, OpenAPI's `type`s. Evaluated as written, every
//! branch is tried for every instance. After lowering, this pass finds such `Any` / `One`
//! nodes and turns them into [`Node::Switch`], which evaluates only the branches whose
//! `const` / `enum` accepts the instance's tag value (plus branches that say nothing about
//! the tag). It only reads constraints every passing instance must meet (through `$ref`,
//! schema-object conjunctions and `properties`), so skipping the other branches never
//! changes a verdict: they would fail on the tag.

use super::Compiler;
use crate::ids::{NodeId, Span, TableId};
use crate::program::{Node, Program, Switch};
use ahash::AHashMap;
use serde_json::Value;

/// Fewer branches than this are cheap enough to try one by one.
const MIN_BRANCHES: u32 = 4;
/// How far the search follows references and nested conjunctions.
const MAX_HOPS: u32 = 6;

impl Compiler<'_> {
    /// Replaces discriminated `Any` / `One` nodes with `Switch` nodes.
    pub(crate) fn discriminate(&mut self) {
        for i in 0..self.program.nodes.len() {
            let (one, branches) = match self.program.nodes[i] {
                Node::Any(span) => (false, span),
                Node::One(span) => (true, span),
                _ => continue,
            };
            if branches.len < MIN_BRANCHES {
                continue;
            }
            if let Some(switch) = plan(&self.program, one, branches) {
                let id = TableId::new(self.program.switches.len()).expect("fewer than 2^32 tables");
                self.program.switches.push(switch);
                self.program.nodes[i] = Node::Switch(id);
            }
        }
    }
}

/// The switch for a branch list, if a property discriminates at least half of them.
fn plan(program: &Program, one: bool, branches: Span) -> Option<Switch> {
    let tags: Vec<AHashMap<&str, Vec<&str>>> = program.edges[branches]
        .iter()
        .map(|&branch| {
            let mut found = AHashMap::new();
            collect(program, branch, MAX_HOPS, &mut found);
            found
        })
        .collect();
    // The property constrained in the most branches.
    let mut counts: AHashMap<&str, u32> = AHashMap::new();
    for tag in &tags {
        for &property in tag.keys() {
            *counts.entry(property).or_default() += 1;
        }
    }
    let (property, count) = counts
        .into_iter()
        .max_by_key(|&(p, n)| (n, std::cmp::Reverse(p)))?;
    if count * 2 < branches.len {
        return None;
    }
    let mut cases: AHashMap<&str, Vec<u32>> = AHashMap::new();
    let mut always = Vec::new();
    for (position, tag) in tags.iter().enumerate() {
        match tag.get(property) {
            Some(values) => {
                for value in values {
                    cases.entry(value).or_default().push(position as u32);
                }
            }
            None => always.push(position as u32),
        }
    }
    let mut cases: Vec<(Box<str>, Vec<u32>)> =
        cases.into_iter().map(|(v, b)| (v.into(), b)).collect();
    cases.sort_by(|a, b| a.0.cmp(&b.0));
    Some(Switch {
        one,
        branches,
        property: property.into(),
        cases,
        always,
    })
}

/// Records, for each property `node` requires (when present) to hold one of some strings,
/// those strings. Follows only conjunctive structure, so each record is a necessary
/// condition for `node` to pass.
fn collect<'p>(
    program: &'p Program,
    node: NodeId,
    hops: u32,
    found: &mut AHashMap<&'p str, Vec<&'p str>>,
) {
    if hops == 0 {
        return;
    }
    match program.nodes[node.index()] {
        Node::Ref(target) | Node::Scope { body: target, .. } => {
            collect(program, target, hops - 1, found)
        }
        Node::All(span) | Node::Checks(span) => {
            for &part in &program.edges[span] {
                collect(program, part, hops - 1, found);
            }
        }
        Node::Unevaluated(table) => collect(
            program,
            program.unevaluated[table.index()].body,
            hops - 1,
            found,
        ),
        Node::Properties(table) => {
            for (name, value_node) in &program.properties[table.index()].named {
                if let Some(values) = strings_required(program, *value_node) {
                    found.entry(name).or_insert(values);
                }
            }
        }
        _ => {}
    }
}

/// The strings a value must be one of to pass `node`, when `node` says so with a
/// `const` or an `enum` of strings (alone or among other leaf checks).
fn strings_required(program: &Program, node: NodeId) -> Option<Vec<&str>> {
    fn strings(values: &[Value]) -> Option<Vec<&str>> {
        values.iter().map(Value::as_str).collect()
    }
    match program.nodes[node.index()] {
        Node::Const(value) => strings(std::slice::from_ref(&program.values[value.index()])),
        Node::Enum(span) => strings(&program.values[span]),
        Node::StringEnum(span) => Some(program.strings[span].iter().map(|s| &**s).collect()),
        Node::Checks(span) | Node::All(span) => program.edges[span]
            .iter()
            .find_map(|&part| strings_required(program, part)),
        _ => None,
    }
}
