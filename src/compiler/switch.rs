//! Discriminated `anyOf` / `oneOf`: branches told apart by one property.
//!
//! Real schemas often pick a variant by a tag: FHIR's `resourceType` `const`s under a
//! 147-way `oneOf`, cql2's `op` `enum`s, OpenAPI's `type`s. Evaluated as written, every
//! branch is tried for every instance. After lowering, this pass finds such `Any` / `One`
//! nodes and turns them into [`Node::Switch`], which evaluates only the branches that can
//! accept the instance's tag: those whose `const` / `enum` lists its value, minus those
//! whose `not` / `enum` excludes it, and, for an object without the tag, those that do not
//! require it. It only reads facts every passing instance must meet
//! ([`crate::program::facts`]: through `$ref`, schema-object conjunctions, `properties`,
//! `required`, and nested `anyOf` / `oneOf` whose every branch agrees), so skipping the
//! other branches never changes a verdict: they would fail on the tag.
//!
//! A union whose branches accept values of distinct kinds (`anyOf: [X, {"type":
//! "null"}]`, a string or an object) becomes [`Node::ByKind`]: the kind of the value
//! picks the one branch that can pass ([`Program::admits`]); the others would fail on
//! the type.

use super::planned::Planned;
use super::Compiler;
use crate::ids::{Id, NodeId, Span};
use crate::json::types::TypeSet;
use crate::names::NameSet;
use crate::program::facts::{facts_of, Facts, PinCache, MAX_HOPS};
use crate::program::{ByKind, Node, Program, Switch};
use ahash::AHashMap;
use smallvec::SmallVec;

/// Fewer branches than this are cheap enough to try one by one.
const MIN_BRANCHES: u32 = 4;

/// Nodes the planning of one compile's switches may read, shared by every union of the
/// schema. Nested unions multiply the reading (each branch is read through every
/// enclosing union's): eight levels of unions whose 20 branches each refer to the next
/// level took minutes to plan; within this limit, about 35 ms (`tests/hostile.rs`,
/// `oneOf-nested-planning`). Past it the facts read are fewer, never wrong: a union
/// planned on fewer facts tries more branches, or stays a plain union. The benchmark
/// schemas read at most 584.
const PLANNING_STEPS: u64 = 50_000;

impl Compiler<'_> {
    /// Replaces discriminated `Any` / `One` nodes with `Switch` nodes.
    pub(crate) fn discriminate(&mut self) {
        // Planned against the unchanged program, then applied: a nested `Any` / `One`
        // reads the same facts as the `Switch` it may become.
        let program = &self.program;
        let mut pins = PinCache::bounded(program, PLANNING_STEPS);
        // Inlined references copy a `oneOf` node to every place that refers to it: the
        // copies share their branches, and one plan (and one table).
        let mut planned = Planned::new();
        for i in 0..program.nodes.len() {
            let (one, branches) = match program.nodes[i] {
                Node::Any(span) => (false, span),
                Node::One(span) => (true, span),
                _ => continue,
            };
            if branches.len < MIN_BRANCHES {
                continue;
            }
            planned.node(i, (one, branches), program.switches.len(), || {
                plan(program, &mut pins, one, branches)
            });
        }
        for (i, table) in planned.finish(&mut self.program.switches) {
            self.program.nodes[i] = Node::Switch(table);
        }
        self.by_kinds();
    }

    /// Replaces the `Any` / `One` nodes whose branches accept values of distinct kinds
    /// with `ByKind` nodes (see [`ByKind`]).
    fn by_kinds(&mut self) {
        let program = &mut self.program;
        // Copies of one node (inlined references) share one table.
        let mut planned: AHashMap<(bool, Span), Option<Id<ByKind>>> = crate::maps::map();
        for i in 0..program.nodes.len() {
            let (one, branches) = match program.nodes[i] {
                Node::Any(span) => (false, span),
                Node::One(span) => (true, span),
                _ => continue,
            };
            if branches.len < 2 {
                continue;
            }
            let table = *planned.entry((one, branches)).or_insert_with(|| {
                let by_kind = kinds_apart(program, branches)?;
                let id = Id::new(program.by_kinds.len()).expect("fewer than 2^32 tables");
                program.by_kinds.push(ByKind {
                    one,
                    branches,
                    by_kind,
                    settles: Default::default(),
                });
                Some(id)
            });
            if let Some(table) = table {
                program.nodes[i] = Node::ByKind(table);
            }
        }
    }
}

/// Per kind of value, the one branch in `branches` that may accept it, if no two do.
fn kinds_apart(program: &Program, branches: Span) -> Option<[Option<NodeId>; TypeSet::KINDS]> {
    let mut by_kind = [None; TypeSet::KINDS];
    for &branch in &program.edges[branches] {
        let admits = program.admits[branch.index()];
        for (slot, kind) in by_kind.iter_mut().zip(TypeSet::BY_KIND) {
            if admits.admits(kind) {
                if slot.is_some() {
                    return None;
                }
                *slot = Some(branch);
            }
        }
    }
    Some(by_kind)
}

/// The switch for a branch list, if a property discriminates at least half of them.
fn plan<'p>(
    program: &'p Program,
    pins: &mut PinCache<'p>,
    one: bool,
    branches: Span,
) -> Option<Switch> {
    let facts: Vec<Facts> = program.edges[branches]
        .iter()
        .map(|&branch| facts_of(program, pins, branch, MAX_HOPS))
        .collect();
    // The properties pinned in at least half the branches.
    let mut counts: AHashMap<&str, u32> = crate::maps::map();
    for branch in &facts {
        let mut pinned: SmallVec<[&str; 8]> = branch
            .only
            .keys()
            .chain(branch.not.keys())
            .copied()
            .collect();
        pinned.sort_unstable();
        pinned.dedup();
        for property in pinned {
            *counts.entry(property).or_default() += 1;
        }
    }
    let mut pinned: Vec<&str> = (counts.into_iter())
        .filter(|&(_, count)| count * 2 >= branches.len)
        .map(|(property, _)| property)
        .collect();
    // In name order, so that equally good properties are chosen the same way each time.
    pinned.sort_unstable();
    // The one that leaves the fewest branches to try: a property every branch pins to
    // the same values (a shared `$ref` to an enum) tells none apart.
    (pinned.into_iter())
        .map(|property| switch_on(program, one, branches, &facts, property))
        .min_by_key(Switch::candidates_per_case)
}

/// The switch on `property` for the `branches` with their `facts`.
fn switch_on(
    program: &Program,
    one: bool,
    branches: Span,
    facts: &[Facts<'_>],
    property: &str,
) -> Switch {
    let mut listing: AHashMap<&str, Vec<u32>> = crate::maps::map();
    let mut open = Vec::new();
    let mut absent = Vec::new();
    // Branches open to every value but some, with the values they exclude.
    let mut excluding: Vec<(u32, &[&str])> = Vec::new();
    let edges = &program.edges[branches];
    for (position, branch) in facts.iter().enumerate() {
        // A switch only ever sees objects: a branch that rejects them is no candidate.
        if !program.admits[edges[position].index()].admits(TypeSet::OBJECT) {
            continue;
        }
        let position = position as u32;
        if let Some(values) = branch.only.get(property) {
            for value in values {
                listing.entry(value).or_default().push(position);
            }
        } else {
            open.push(position);
            if let Some(values) = branch.not.get(property) {
                excluding.push((position, values));
                for value in values {
                    listing.entry(value).or_default();
                }
            }
        }
        if !branch.required.contains(property) {
            absent.push(position);
        }
    }
    let values = NameSet::new(listing.keys().copied());
    let mut cases = vec![Vec::new(); values.len()];
    for (value, mut positions) in listing {
        positions.extend(open.iter().copied().filter(|&position| {
            !excluding
                .iter()
                .any(|&(at, values)| at == position && values.contains(&value))
        }));
        positions.sort_unstable();
        positions.dedup();
        if let Some(i) = values.position(value) {
            cases[i] = positions;
        }
    }
    Switch {
        one,
        branches,
        property: property.into(),
        values,
        cases,
        open,
        absent,
        settles: Box::default(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn the_property_that_tells_branches_apart_is_chosen_over_a_shared_one() {
        // Every branch pins `format` (to the same shared enum) and `in` (to a value of
        // its own); `format` sorts first but tells no branch apart. (Swagger 2.0's
        // `nonBodyParameter` and its shared `collectionFormat`.)
        let branch = |place: &str| {
            json!({"properties": {"in": {"enum": [place]}, "format": {"$ref": "#/$defs/format"},
                "name": {"type": "string"}}, "additionalProperties": false})
        };
        let schema = json!({
            "$defs": {"format": {"enum": ["csv", "ssv", "pipes"]}},
            "oneOf": [branch("header"), branch("query"), branch("path"), branch("body")]
        });
        let options = crate::ValidationOptions::default();
        let program = crate::compiler::compile(&schema, &options).unwrap();
        let [switch] = &program.switches[..] else {
            panic!("one switch expected: {program:?}");
        };
        assert_eq!(&*switch.property, "in");
        assert!(switch.cases.iter().all(|case| case.len() == 1));
    }
}
