//! What a subschema requires of an object's properties whenever it passes (its
//! [`Facts`]): which properties it pins to strings (a `const` or an `enum`, or a `not` of
//! one), and which it requires. Read through `$ref`, schema-object conjunctions,
//! `properties`, `required` and nested `anyOf` / `oneOf` whose every branch agrees, so
//! each fact is a necessary condition.
//!
//! Two readers: the compiler, which turns discriminated unions into [`Node::Switch`]
//! (`compiler::switch`), and the interpreter's explanations, which name the tag an object
//! lacks or gets wrong ([`tag`]) rather than list every branch's errors.

use super::{Node, Program};
use crate::ids::{Id, NodeId, Span};
use crate::json::types::TypeSet;
use crate::program::Properties;
use ahash::{AHashMap, AHashSet};
use serde_json::Value;
use std::rc::Rc;

/// How far the search follows references and nested conjunctions.
pub(crate) const MAX_HOPS: u32 = 6;

/// A property a `properties` table pins: its name, whether the strings are the ones its
/// value may not be (rather than the ones it must be), and the strings.
type Pin<'p> = (&'p str, bool, Vec<&'p str>);

/// The pins of each `properties` table, read once: the branches of many `oneOf`s share
/// their definitions (FHIR's resources sit under hundreds of them). And the nodes the
/// reading may still visit: nested unions multiply the visits (each branch is read
/// through every enclosing union's), which the interpreter's explanations pay for.
pub(crate) struct PinCache<'p> {
    tables: Vec<Option<Rc<[Pin<'p>]>>>,
    steps: u64,
}

impl<'p> PinCache<'p> {
    /// An empty cache for `program`'s tables, which may visit `steps` nodes.
    pub(crate) fn bounded(program: &Program, steps: u64) -> PinCache<'p> {
        PinCache {
            tables: vec![None; program.properties.len()],
            steps,
        }
    }

    fn of(&mut self, program: &'p Program, table: Id<Properties>) -> Rc<[Pin<'p>]> {
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
pub(crate) struct Facts<'p> {
    /// Property → the strings its value must be one of, when present.
    pub(crate) only: AHashMap<&'p str, Vec<&'p str>>,
    /// Property → strings its value must not be.
    pub(crate) not: AHashMap<&'p str, Vec<&'p str>>,
    /// Properties that must be present.
    pub(crate) required: AHashSet<&'p str>,
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

/// The facts `node` establishes, following only conjunctive structure (and disjunctions
/// whose branches all agree), so each fact is a necessary condition for `node` to pass.
pub(crate) fn facts_of<'p>(
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
    if hops == 0 || pins.steps == 0 {
        return;
    }
    pins.steps -= 1;
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
        Node::StringEnum(table) => Some(program.string_sets[table.index()].listed().collect()),
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

/// The property that tells the branches of a union apart: every branch that accepts
/// objects (two at least) requires it and pins it to strings.
pub(crate) struct Tag<'p> {
    /// The property's name.
    pub(crate) property: &'p str,
    /// For each branch that accepts objects, its position and the strings it pins the
    /// property to.
    pub(crate) pins: Vec<(usize, Vec<&'p str>)>,
}

impl<'p> Tag<'p> {
    /// Every string some branch takes, each once, in branch order.
    pub(crate) fn values(&self) -> Vec<&'p str> {
        let mut values: Vec<&str> = Vec::new();
        for value in self.pins.iter().flat_map(|(_, values)| values) {
            if !values.contains(value) {
                values.push(value);
            }
        }
        values
    }

    /// Whether the branch at `position` may accept the tag `value`.
    pub(crate) fn selects(&self, position: usize, value: &str) -> bool {
        (self.pins.iter()).any(|(at, values)| *at == position && values.contains(&value))
    }
}

/// The tag of the union of `branches`, if it has one (see [`Tag`]), read within `steps`
/// (node visits, and a sixteenth of a step per `properties` table for the cache), which
/// it spends: `None` when they run out. When several properties qualify, the one with
/// the most values, then the first by name.
pub(crate) fn tag<'p>(program: &'p Program, branches: Span, steps: &mut u64) -> Option<Tag<'p>> {
    let tables = program.properties.len() as u64 / 16;
    *steps = steps.saturating_sub(tables);
    let mut pins = PinCache::bounded(program, *steps);
    let edges = &program.edges[branches];
    let facts: Vec<(usize, Facts)> = (edges.iter().enumerate())
        .filter(|(_, branch)| program.admits[branch.index()].admits(TypeSet::OBJECT))
        .map(|(position, &branch)| (position, facts_of(program, &mut pins, branch, MAX_HOPS)))
        .collect();
    *steps = pins.steps;
    // Out of steps, some branch was read in part: its facts hold, but may be too few.
    let ([(_, first), _, ..], 1..) = (&facts[..], pins.steps) else {
        return None;
    };
    let tagged = |property: &&str| {
        (facts.iter()).all(|(_, f)| f.required.contains(property) && f.only.contains_key(property))
    };
    let mut properties: Vec<&str> = first.only.keys().copied().filter(tagged).collect();
    properties.sort_unstable();
    let tags = properties.into_iter().map(|property| Tag {
        property,
        pins: (facts.iter())
            .map(|(position, f)| (*position, f.only.get(property).cloned().unwrap_or_default()))
            .collect(),
    });
    // `max_by_key` keeps the last of equals: the first by name wins on `Reverse`.
    tags.enumerate()
        .max_by_key(|(i, tag)| (tag.values().len(), std::cmp::Reverse(*i)))
        .map(|(_, tag)| tag)
}
