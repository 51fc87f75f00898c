//! Discriminated `anyOf` / `oneOf`: branches told apart by one property.
//!
//! Real schemas often pick a variant by a tag: FHIR's `resourceType` `const`s under a
//! 147-way `oneOf`, cql2's `op` `enum`s, OpenAPI's `type`s. Evaluated as written, every
//! branch is tried for every instance. After lowering, this pass finds such `Any` / `One`
//! nodes and turns them into [`Node::Switch`], which evaluates only the branches that can
//! accept the instance's tag: those whose `const` / `enum` lists its value, minus those
//! whose `not` / `enum` excludes it, and, for an object without the tag, those that do not
//! require it. It only reads facts every passing instance must meet (through `$ref`,
//! schema-object conjunctions, `properties`, `required`, and nested `anyOf` / `oneOf`
//! whose every branch agrees), so skipping the other branches never changes a verdict:
//! they would fail on the tag.
//!
//! A union whose branches accept values of distinct kinds (`anyOf: [X, {"type":
//! "null"}]`, a string or an object) becomes [`Node::ByKind`]: the kind of the value
//! picks the one branch that can pass ([`Program::admits`]); the others would fail on
//! the type.

use super::Compiler;
use crate::ids::{NodeId, Span, TableId};
use crate::json::types::TypeSet;
use crate::names::NameSet;
use crate::program::{ByKind, Node, Program, Switch};
use ahash::{AHashMap, AHashSet};
use serde_json::Value;
use smallvec::SmallVec;
use std::rc::Rc;

/// Fewer branches than this are cheap enough to try one by one.
const MIN_BRANCHES: u32 = 4;
/// How far the search follows references and nested conjunctions.
const MAX_HOPS: u32 = 6;

impl Compiler<'_> {
    /// Replaces discriminated `Any` / `One` nodes with `Switch` nodes.
    pub(crate) fn discriminate(&mut self) {
        // Planned against the unchanged program, then applied: a nested `Any` / `One`
        // reads the same facts as the `Switch` it may become.
        let program = &self.program;
        let mut pins = PinCache {
            tables: vec![None; program.properties.len()],
        };
        // Inlined references copy a `oneOf` node to every place that refers to it: the
        // copies share their branches, and one plan (and one table).
        let mut planned: AHashMap<(bool, Span), Option<TableId>> = crate::maps::map();
        let mut switches = Vec::new();
        let mut rewrites = Vec::new();
        for i in 0..program.nodes.len() {
            let (one, branches) = match program.nodes[i] {
                Node::Any(span) => (false, span),
                Node::One(span) => (true, span),
                _ => continue,
            };
            if branches.len < MIN_BRANCHES {
                continue;
            }
            let table = *planned.entry((one, branches)).or_insert_with(|| {
                let switch = plan(program, &mut pins, one, branches)?;
                let id = TableId::new(program.switches.len() + switches.len())
                    .expect("fewer than 2^32 tables");
                switches.push(switch);
                Some(id)
            });
            if let Some(table) = table {
                rewrites.push((i, table));
            }
        }
        self.program.switches.extend(switches);
        for (i, table) in rewrites {
            self.program.nodes[i] = Node::Switch(table);
        }
        self.by_kinds();
    }

    /// Replaces the `Any` / `One` nodes whose branches accept values of distinct kinds
    /// with `ByKind` nodes (see [`ByKind`]).
    fn by_kinds(&mut self) {
        let program = &mut self.program;
        // Copies of one node (inlined references) share one table.
        let mut planned: AHashMap<(bool, Span), Option<TableId>> = crate::maps::map();
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
                let id = TableId::new(program.by_kinds.len()).expect("fewer than 2^32 tables");
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

/// A property a `properties` table pins: its name, whether the strings are the ones its
/// value may not be (rather than the ones it must be), and the strings.
type Pin<'p> = (&'p str, bool, Vec<&'p str>);

/// The pins of each `properties` table, read once: the branches of many `oneOf`s share
/// their definitions (FHIR's resources sit under hundreds of them).
struct PinCache<'p> {
    tables: Vec<Option<Rc<[Pin<'p>]>>>,
}

impl<'p> PinCache<'p> {
    fn of(&mut self, program: &'p Program, table: TableId) -> Rc<[Pin<'p>]> {
        let slot = &mut self.tables[table.index()];
        slot.get_or_insert_with(|| {
            program.properties[table.index()]
                .named
                .iter()
                .filter_map(|(name, node)| {
                    if let Some(values) = strings_required(program, *node) {
                        Some((&**name, false, values))
                    } else {
                        strings_excluded(program, *node).map(|values| (&**name, true, values))
                    }
                })
                .collect()
        })
        .clone()
    }
}

/// What a branch requires of an instance's properties, whenever it passes.
struct Facts<'p> {
    /// Property → the strings its value must be one of, when present.
    only: AHashMap<&'p str, Vec<&'p str>>,
    /// Property → strings its value must not be.
    not: AHashMap<&'p str, Vec<&'p str>>,
    /// Properties that must be present.
    required: AHashSet<&'p str>,
}

impl Default for Facts<'_> {
    fn default() -> Self {
        Facts {
            only: crate::maps::map(),
            not: crate::maps::map(),
            required: crate::maps::set(),
        }
    }
}

impl<'p> Facts<'p> {
    /// What every one of `branches` requires: the facts of a disjunction.
    fn common(branches: Vec<Facts<'p>>) -> Facts<'p> {
        let mut branches = branches.into_iter();
        let Some(mut common) = branches.next() else {
            return Facts::default();
        };
        common.not.clear();
        for branch in branches {
            common
                .required
                .retain(|name| branch.required.contains(name));
            common.only.retain(|name, _| branch.only.contains_key(name));
            for (name, values) in &mut common.only {
                values.extend(&branch.only[name]);
            }
        }
        common
    }
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
    }
}

/// The facts `node` establishes, following only conjunctive structure (and disjunctions
/// whose branches all agree), so each fact is a necessary condition for `node` to pass.
fn facts_of<'p>(
    program: &'p Program,
    pins: &mut PinCache<'p>,
    node: NodeId,
    hops: u32,
) -> Facts<'p> {
    let mut facts = Facts::default();
    collect(program, pins, node, hops, &mut facts);
    facts
}

fn collect<'p>(
    program: &'p Program,
    pins: &mut PinCache<'p>,
    node: NodeId,
    hops: u32,
    facts: &mut Facts<'p>,
) {
    if hops == 0 {
        return;
    }
    let span = match program.nodes[node.index()] {
        Node::Any(span) | Node::One(span) => Some(span),
        Node::Switch(table) => Some(program.switches[table.index()].branches),
        Node::ByKind(table) => Some(program.by_kinds[table.index()].branches),
        _ => None,
    };
    if let Some(span) = span {
        // A switch only ever sees objects: branches that reject objects do not count.
        let branches = program.edges[span]
            .iter()
            .filter(|&&branch| program.admits[branch.index()].admits(TypeSet::OBJECT))
            .map(|&branch| facts_of(program, pins, branch, hops - 1))
            .collect();
        let common = Facts::common(branches);
        for (name, values) in common.only {
            facts.only.entry(name).or_insert(values);
        }
        facts.required.extend(common.required);
        return;
    }
    match program.nodes[node.index()] {
        Node::Ref(target) | Node::Guard(target) | Node::Scope { body: target, .. } => {
            collect(program, pins, target, hops - 1, facts)
        }
        Node::All(span) => {
            for &part in &program.edges[span] {
                collect(program, pins, part, hops - 1, facts);
            }
        }
        Node::Checks(table) => {
            for &part in program.check_parts(table) {
                collect(program, pins, part, hops - 1, facts);
            }
        }
        Node::Unevaluated(table) => collect(
            program,
            pins,
            program.unevaluated[table.index()].body,
            hops - 1,
            facts,
        ),
        Node::Required(names) => facts
            .required
            .extend(program.strings[names].iter().map(|name| &**name)),
        Node::Properties(table) | Node::Object { table, .. } => {
            if let Some(required) = program.properties[table.index()].required_node {
                collect(program, pins, required, hops - 1, facts);
            }
            for (name, excluded, values) in pins.of(program, table).iter() {
                let facts = if *excluded {
                    &mut facts.not
                } else {
                    &mut facts.only
                };
                facts.entry(*name).or_insert_with(|| values.clone());
            }
        }
        _ => {}
    }
}

/// The strings a value must not be to pass `node`, when `node` says so with a `not` of a
/// `const` or an `enum` of strings (alone or among other checks).
///
/// The `not`'s schema must accept exactly those strings: a value it rejects passes the
/// `not`, so `{"not": {"const": "a", "maxLength": 0}}` excludes nothing (`"a"` fails
/// `maxLength` and passes). Only what a value must be ([`strings_required`]) would let a
/// branch that accepts the tag go unevaluated: a wrong verdict, and a reference cycle in
/// it left unseen.
fn strings_excluded(program: &Program, node: NodeId) -> Option<Vec<&str>> {
    match program.nodes[node.index()] {
        Node::Not(inner) => strings_accepted(program, inner),
        Node::All(span) => program.edges[span]
            .iter()
            .find_map(|&part| strings_excluded(program, part)),
        _ => None,
    }
}

/// The strings that `node` accepts, when it accepts exactly those values: a `const` or an
/// `enum` of strings, alone or beside a `type` that admits strings.
fn strings_accepted(program: &Program, node: NodeId) -> Option<Vec<&str>> {
    let parts: &[NodeId] = match program.nodes[node.index()] {
        Node::All(span) => &program.edges[span],
        Node::Checks(table) => program.check_parts(table),
        _ => std::slice::from_ref(&node),
    };
    let mut accepted: Option<Vec<&str>> = None;
    for &part in parts {
        match program.nodes[part.index()] {
            Node::Type(set) if set.admits(TypeSet::STRING) => {}
            Node::Const(_) | Node::Enum(_) | Node::StringEnum(_) => {
                let strings = strings_required(program, part)?;
                accepted = Some(match accepted {
                    None => strings,
                    Some(before) => before.into_iter().filter(|s| strings.contains(s)).collect(),
                });
            }
            _ => return None,
        }
    }
    accepted
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
        Node::StringEnum(table) => Some(program.string_sets[table.index()].strings().collect()),
        Node::All(span) => program.edges[span]
            .iter()
            .find_map(|&part| strings_required(program, part)),
        Node::Checks(table) => program
            .check_parts(table)
            .iter()
            .find_map(|&part| strings_required(program, part)),
        _ => None,
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
