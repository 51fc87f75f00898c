//! Property logic: the checks of a schema object that read only which properties an
//! object has, and leaf checks of their values, as one formula.
//!
//! Tool schemas state their rules between properties as keywords beside the
//! `properties` table: `required`, an `anyOf` of `required`s ("give `id` or `name`"),
//! `if` a tag property has some value `then` more names are required `else` some are
//! forbidden, `dependentRequired`. Evaluated as written, each of them is a node
//! evaluation, and each name one lookup in the object (a walk of its keys). This pass
//! gathers such parts of a conjunction into one [`Node::PropertyLogic`]: one pass over
//! the object's keys finds every name the parts read, and the parts become
//! [`Clause`]s evaluated on the presence bits and the kept values, with no evaluation
//! frame. The node keeps the parts themselves, which every run but the fast one
//! evaluates as written (so errors, evaluation marks and annotations are unchanged;
//! explaining, only the parts whose clauses fail, an `if` by the branch its test's
//! clause picks).
//!
//! A part converts only when its meaning on an object is exactly its clause's: it is a
//! boolean combination (`allOf`, `anyOf`, `oneOf`, `not`, `if`) of `required`,
//! `dependentRequired`, `minProperties` / `maxProperties`, `type`, and `properties`
//! tables that allow every other property and whose schemas are leaves; references are
//! followed a few hops (no cycle can go through a converted part: it holds no
//! reference). On a value that is not an object the node evaluates its parts.

use super::Compiler;
use crate::ids::{Id, NodeId, Span};
use crate::json::types::TypeSet;
use crate::names::NameSet;
use crate::program::{CheckList, Clause, Node, Program, Properties, PropertyLogic, Settle};
use ahash::{AHashMap, AHashSet};
use smallvec::SmallVec;

/// How far conversion follows references and nesting.
const MAX_HOPS: u32 = 8;

/// A formula's fewest name reads (bits tested) for it to be worth a pass over the keys.
const MIN_READS: u32 = 2;

impl Compiler<'_> {
    /// Gathers the parts of every `All` that convert to clauses into one
    /// [`Node::PropertyLogic`], where they read at least [`MIN_READS`] names.
    pub(crate) fn fuse_property_logic(&mut self) {
        // Copies of one `All` (an inlined `$ref` target) share its span: one rewrite each.
        let mut rewritten: AHashMap<Span, Option<Node>> = crate::maps::map();
        // The `All`s inside a formula built here: converting them too would build
        // formulas only the explaining runs reach, which never use them.
        let mut absorbed: AHashSet<NodeId> = crate::maps::set();
        // Only the nodes a run can meet (flattening leaves copies of the conjunctions it
        // took apart behind).
        let mut reachable: Option<Vec<bool>> = None;
        for i in 0..self.program.nodes.len() {
            let Node::All(span) = self.program.nodes[i] else {
                continue;
            };
            let Some(id) = NodeId::new(i) else {
                break;
            };
            if absorbed.contains(&id) || !self.may_convert(span) {
                continue;
            }
            let rewrite = match rewritten.get(&span) {
                Some(&rewrite) => rewrite,
                None => {
                    let reached =
                        |program: &Program| reachable.get_or_insert_with(|| program.reachable())[i];
                    // A copy no run meets is left as it is, and its span open to others.
                    let Some(rewrite) = self.logic_of(span, &mut absorbed, reached) else {
                        continue;
                    };
                    rewritten.insert(span, rewrite);
                    rewrite
                }
            };
            if let Some(node) = rewrite {
                self.program.nodes[i] = node;
            }
        }
        // The nodes pushed above (formulas over parts that have their sets) get theirs by
        // the one rule; the rewritten ones keep their meaning, hence their sets.
        let program = &mut self.program;
        for i in program.admits.len()..program.nodes.len() {
            let set = super::admits::admits(program, program.nodes[i], &Default::default());
            program.admits.push(set);
        }
    }

    /// Whether the `All` of `span` has parts worth trying: two that may convert, or one
    /// that applies subschemas (one leaf alone, a `required`, is cheaper settled where
    /// it stands).
    fn may_convert(&self, span: Span) -> bool {
        let mut candidates = 0;
        for &part in &self.program.edges[span] {
            let node = self.program.nodes[part.index()];
            if !candidate(node) {
                continue;
            }
            candidates += 1;
            if candidates == 2 || !node.is_leaf() {
                return true;
            }
        }
        false
    }

    /// What the `All` of `span` becomes when some of its parts convert to a formula;
    /// adds the `All`s the formula takes in to `absorbed`. `None` when it would convert
    /// but `reached` says no run meets it (the copy a flattening left behind).
    fn logic_of(
        &mut self,
        span: Span,
        absorbed: &mut AHashSet<NodeId>,
        reached: impl FnOnce(&Program) -> bool,
    ) -> Option<Option<Node>> {
        let parts: SmallVec<[NodeId; 8]> = SmallVec::from_slice(&self.program.edges[span]);
        let mut formula = Formula::with_capacity(parts.len());
        let mut converted: SmallVec<[(usize, u32); 8]> = SmallVec::new();
        for (at, &part) in parts.iter().enumerate() {
            if !candidate(self.program.nodes[part.index()]) {
                continue;
            }
            if let Some(clause) = formula.convert(&self.program, part, MAX_HOPS) {
                converted.push((at, clause));
            }
        }
        // One leaf alone (a `required`) is cheaper settled where it stands.
        let lone_leaf = match converted[..] {
            [(at, _)] => self.program.nodes[parts[at].index()].is_leaf(),
            _ => false,
        };
        if converted.is_empty() || lone_leaf || formula.reads < MIN_READS {
            return Some(None);
        }
        if !reached(&self.program) {
            return None;
        }
        absorbed.extend(formula.lists.drain(..));
        let first = converted[0].0;
        let children: SmallVec<[u32; 8]> = converted.iter().map(|&(_, clause)| clause).collect();
        let root = formula.push_all(&children);
        let Some(mut logic) = formula.finish(root, &children) else {
            return Some(None);
        };
        let converted_parts: SmallVec<[NodeId; 8]> =
            converted.iter().map(|&(at, _)| parts[at]).collect();
        logic.parts = self.edges(&converted_parts);
        let table = Id::new(self.program.property_logic.len()).expect("fewer than 2^32");
        self.program.property_logic.push(logic);
        let node = Node::PropertyLogic(table);
        if converted.len() == parts.len() {
            return Some(Some(node));
        }
        // The node takes the place of its first part, so that the parts are explained in
        // the order the schema gives.
        let id = self.push_located_as(node, parts[first]);
        let rest: SmallVec<[NodeId; 8]> = (0..parts.len())
            .filter(|&at| at == first || !converted.iter().any(|&(c, _)| c == at))
            .map(|at| if at == first { id } else { parts[at] })
            .collect();
        Some(Some(Node::All(self.edges(&rest))))
    }
}

/// Whether `node` may convert to a clause as a part of an `All`. Tables, types and
/// lists of checks stay as they are: each is one pass over the keys (or none), which the
/// fast loops run best.
fn candidate(node: Node) -> bool {
    matches!(
        node,
        Node::Required(_)
            | Node::DependentRequired(_)
            | Node::MinProperties(_)
            | Node::MaxProperties(_)
            | Node::Condition { .. }
            | Node::Any(_)
            | Node::AnyLeaf(_)
            | Node::One(_)
            | Node::OneLeaf(_)
            | Node::ExclusiveLeaf(_)
            | Node::Not(_)
            | Node::All(_)
            | Node::Ref(_)
    )
}

/// A formula being built: its names, clauses and clause lists.
struct Formula<'p> {
    /// The names read so far; a name's bit is its index here until [`Formula::finish`].
    names: Vec<&'p str>,
    /// Whether the value of each name is read.
    valued: Vec<bool>,
    clauses: Vec<Clause>,
    edges: Vec<u32>,
    /// Bits tested so far.
    reads: u32,
    /// The `All` nodes converted so far.
    lists: Vec<NodeId>,
}

impl<'p> Formula<'p> {
    /// An empty formula with room for that of `parts` parts of a common size.
    fn with_capacity(parts: usize) -> Formula<'p> {
        Formula {
            names: Vec::with_capacity(4 * parts),
            valued: Vec::with_capacity(4 * parts),
            clauses: Vec::with_capacity(8 * parts),
            edges: Vec::with_capacity(4 * parts),
            reads: 0,
            lists: Vec::new(),
        }
    }

    /// The clause of node `id` (on objects), added with its children; `None`, with
    /// nothing added, when the node does not convert.
    fn convert(&mut self, program: &'p Program, id: NodeId, hops: u32) -> Option<u32> {
        let saved = (
            self.names.len(),
            self.clauses.len(),
            self.edges.len(),
            self.reads,
            self.lists.len(),
        );
        let clause = self.clause(program, id, hops);
        if clause.is_none() {
            let (names, clauses, edges, reads, lists) = saved;
            self.names.truncate(names);
            self.valued.truncate(names);
            self.clauses.truncate(clauses);
            self.edges.truncate(edges);
            self.reads = reads;
            self.lists.truncate(lists);
        }
        clause
    }

    fn clause(&mut self, program: &'p Program, id: NodeId, hops: u32) -> Option<u32> {
        let hops = hops.checked_sub(1)?;
        let clause = match program.nodes[id.index()] {
            Node::Valid | Node::Annotations(_) => Clause::True,
            Node::Invalid => Clause::False,
            Node::Type(set) if set.admits(TypeSet::OBJECT) => Clause::True,
            Node::Type(_) => Clause::False,
            Node::Required(names) => Clause::Has(self.mask(&program.strings[names])?),
            Node::DependentRequired(span) => {
                let mut children = SmallVec::<[u32; 4]>::new();
                for &(key, names) in &program.dependent_required[span] {
                    let when = self.mask(std::slice::from_ref(&program.strings[key]))?;
                    let then = self.mask(&program.strings[names])?;
                    children.push(self.push(Clause::Implies { when, then }));
                }
                return Some(self.push_all(&children));
            }
            Node::MinProperties(min) => Clause::Count { min, max: u32::MAX },
            Node::MaxProperties(max) => Clause::Count { min: 0, max },
            Node::Checks(table) => return self.checks(program, table, hops),
            Node::Properties(table) | Node::Object { table, .. } => {
                return self.properties(program, table)
            }
            Node::All(span) => {
                self.lists.push(id);
                return self.list(program, span, hops, ListKind::All);
            }
            Node::PropertyLogic(table) => {
                let parts = program.property_logic[table].parts;
                return self.list(program, parts, hops, ListKind::All);
            }
            Node::Any(span) | Node::AnyLeaf(span) => {
                return self.list(program, span, hops, ListKind::Any)
            }
            Node::One(span) | Node::OneLeaf(span) | Node::ExclusiveLeaf(span) => {
                return self.list(program, span, hops, ListKind::One)
            }
            Node::Not(child) => Clause::Not(self.clause(program, child, hops)?),
            Node::Condition {
                test,
                then,
                otherwise,
            } => Clause::If {
                test: self.clause(program, test, hops)?,
                then: self.clause(program, then, hops)?,
                otherwise: self.clause(program, otherwise, hops)?,
            },
            Node::Ref(target) => return self.clause(program, target, hops),
            _ => return None,
        };
        Some(self.push(clause))
    }

    /// The clause of a [`CheckList`]: on an object, its `type` and the parts that can
    /// fail objects.
    fn checks(&mut self, program: &'p Program, table: Id<CheckList>, hops: u32) -> Option<u32> {
        let list = &program.check_lists[table];
        if !list.types.admits(TypeSet::OBJECT) {
            return Some(self.push(Clause::False));
        }
        let mut children = SmallVec::<[u32; 4]>::new();
        for kind in [CheckList::SEVERAL, CheckList::OBJECT] {
            for &part in &program.edges[list.by_kind[kind]] {
                children.push(self.clause(program, part, hops)?);
            }
        }
        Some(self.push_all(&children))
    }

    /// The clause of a `properties` table that allows every name it does not list and
    /// whose schemas are leaves: its folded `required`, and per name a test of the
    /// value (`false`: the name is absent).
    fn properties(&mut self, program: &'p Program, table: Id<Properties>) -> Option<u32> {
        let spec = &program.properties[table];
        let others_pass = spec.patterns.is_empty()
            && spec
                .additional
                .is_none_or(|node| program.nodes[node.index()] == Node::Valid);
        if !others_pass {
            return None;
        }
        let mut children = SmallVec::<[u32; 4]>::new();
        let mut required = 0;
        for ((name, _), entry) in spec.named.iter().zip(&spec.entries) {
            if entry.required {
                required |= 1 << self.bit(name)?;
                self.reads += 1;
            }
        }
        if required != 0 {
            children.push(self.push(Clause::Has(required)));
        }
        for (name, node) in &spec.named {
            let clause = match program.nodes[node.index()] {
                Node::Valid => continue,
                Node::Invalid => {
                    self.reads += 1;
                    Clause::Lacks(1 << self.bit(name)?)
                }
                leaf if leaf.is_leaf() => {
                    let bit = self.bit(name)?;
                    self.valued[bit as usize] = true;
                    self.reads += 1;
                    Clause::Value {
                        bit,
                        slot: PropertyLogic::NO_SLOT,
                        node: *node,
                        settle: Settle::of(program, *node),
                    }
                }
                _ => return None,
            };
            children.push(self.push(clause));
        }
        Some(self.push_all(&children))
    }

    fn list(&mut self, program: &'p Program, span: Span, hops: u32, kind: ListKind) -> Option<u32> {
        let mut children = SmallVec::<[u32; 8]>::new();
        for &part in &program.edges[span] {
            children.push(self.clause(program, part, hops)?);
        }
        let (start, end) = self.push_edges(&children);
        Some(self.push(match kind {
            ListKind::All => Clause::All(start, end),
            ListKind::Any => Clause::Any(start, end),
            ListKind::One => Clause::One(start, end),
        }))
    }

    /// The mask of `names`, each counted as a read.
    fn mask(&mut self, names: &'p [Box<str>]) -> Option<u64> {
        let mut mask = 0;
        for name in names {
            mask |= 1 << self.bit(name)?;
            self.reads += 1;
        }
        Some(mask)
    }

    /// The bit of `name`, added if new; `None` past [`PropertyLogic::MAX_NAMES`].
    fn bit(&mut self, name: &'p str) -> Option<u8> {
        let at = match self.names.iter().position(|&known| known == name) {
            Some(at) => at,
            None => {
                self.names.push(name);
                self.valued.push(false);
                self.names.len() - 1
            }
        };
        (at < PropertyLogic::MAX_NAMES).then_some(at as u8)
    }

    fn push(&mut self, clause: Clause) -> u32 {
        self.clauses.push(clause);
        self.clauses.len() as u32 - 1
    }

    fn push_edges(&mut self, children: &[u32]) -> (u32, u32) {
        let start = self.edges.len() as u32;
        self.edges.extend_from_slice(children);
        (start, self.edges.len() as u32)
    }

    /// A clause that holds when all of `children` do (one of them alone when it is one).
    fn push_all(&mut self, children: &[u32]) -> u32 {
        match children {
            [] => self.push(Clause::True),
            [only] => *only,
            _ => {
                let (start, end) = self.push_edges(children);
                self.push(Clause::All(start, end))
            }
        }
    }

    /// The table, its names renumbered to their positions in the [`NameSet`] and each
    /// read value given a slot; `None` when more than [`PropertyLogic::MAX_VALUES`]
    /// values are read. `part_clauses` are the clauses of the parts, in order.
    fn finish(self, root: u32, part_clauses: &[u32]) -> Option<PropertyLogic> {
        let names = NameSet::new(self.names.iter().copied());
        let position: SmallVec<[u8; 16]> = (self.names.iter())
            .map(|name| names.position(name).map(|at| at as u8))
            .collect::<Option<_>>()?;
        let mut slots = vec![PropertyLogic::NO_SLOT; names.len()].into_boxed_slice();
        let mut next_slot = 0;
        for (i, &valued) in self.valued.iter().enumerate() {
            if valued {
                if next_slot == PropertyLogic::MAX_VALUES {
                    return None;
                }
                slots[usize::from(position[i])] = next_slot as u8;
                next_slot += 1;
            }
        }
        let renumber = |mask: u64| {
            (0..self.names.len())
                .filter(|&i| mask >> i & 1 == 1)
                .fold(0u64, |renumbered, i| renumbered | 1 << position[i])
        };
        let clauses = (self.clauses.iter())
            .map(|&clause| match clause {
                Clause::Has(mask) => Clause::Has(renumber(mask)),
                Clause::Lacks(mask) => Clause::Lacks(renumber(mask)),
                Clause::Implies { when, then } => Clause::Implies {
                    when: renumber(when),
                    then: renumber(then),
                },
                Clause::Value {
                    bit, node, settle, ..
                } => {
                    let bit = position[usize::from(bit)];
                    Clause::Value {
                        bit,
                        slot: slots[usize::from(bit)],
                        node,
                        settle,
                    }
                }
                other => other,
            })
            .collect();
        Some(PropertyLogic {
            parts: Span::default(),
            names,
            slots,
            clauses,
            root,
            edges: self.edges.into_boxed_slice(),
            part_clauses: part_clauses.into(),
        })
    }
}

#[derive(Clone, Copy)]
enum ListKind {
    All,
    Any,
    One,
}

#[cfg(test)]
mod tests {
    use crate::program::{Node, Program};
    use crate::vm::is_valid_unbounded as verdict;
    use crate::ValidationOptions;
    use proptest::prelude::*;
    use serde_json::{json, Map, Value};

    /// The names the generated schemas and objects use.
    const NAMES: [&str; 5] = ["kind", "a", "b", "c", "d"];

    /// `program` with every formula replaced by the `All` of its parts: the meaning the
    /// formula must have.
    fn as_written(program: &Program) -> Program {
        crate::compiler::undone(program, |node| match node {
            Node::PropertyLogic(table) => Some(Node::All(program.property_logic[table].parts)),
            _ => None,
        })
    }

    fn names() -> impl Strategy<Value = Vec<&'static str>> {
        proptest::sample::subsequence(NAMES.to_vec(), 0..=3)
    }

    /// A schema for a property's value: a leaf of the kinds a tag or a field has.
    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!(false)),
            Just(json!({"const": "x"})),
            Just(json!({"enum": ["x", "y", null]})),
            Just(json!({"type": "integer", "minimum": 2})),
            Just(json!({"type": "string"})),
            Just(json!({"not": {"const": 1}})),
        ]
    }

    /// The object checks the pass converts, nested.
    fn check() -> impl Strategy<Value = Value> {
        let base = prop_oneof![
            names().prop_map(|names| json!({"required": names})),
            (names(), 0..NAMES.len())
                .prop_map(|(names, key)| json!({"dependentRequired": {NAMES[key]: names}})),
            (0..4u32).prop_map(|n| json!({"minProperties": n})),
            (0..4u32).prop_map(|n| json!({"maxProperties": n})),
            proptest::collection::btree_map(proptest::sample::select(NAMES.to_vec()), leaf(), 1..3)
                .prop_map(|table| json!({ "properties": table })),
            Just(json!({"type": ["object", "null"]})),
        ];
        base.prop_recursive(3, 24, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 1..4).prop_map(|s| json!({"anyOf": s})),
                proptest::collection::vec(inner.clone(), 1..4).prop_map(|s| json!({"oneOf": s})),
                proptest::collection::vec(inner.clone(), 1..4).prop_map(|s| json!({"allOf": s})),
                inner.clone().prop_map(|s| json!({"not": s})),
                (inner.clone(), inner.clone(), proptest::option::of(inner)).prop_map(
                    |(test, then, otherwise)| match otherwise {
                        Some(otherwise) => json!({"if": test, "then": then, "else": otherwise}),
                        None => json!({"if": test, "then": then}),
                    }
                ),
            ]
        })
    }

    /// A schema object: a table (sometimes) beside a few checks.
    fn schema() -> impl Strategy<Value = Value> {
        (proptest::collection::vec(check(), 1..4), any::<bool>()).prop_map(|(checks, table)| {
            let mut schema = Map::new();
            if table {
                schema.insert("type".into(), json!("object"));
                schema.insert("properties".into(), json!({"kind": {"type": "string"}}));
            }
            schema.insert("allOf".into(), Value::Array(checks));
            Value::Object(schema)
        })
    }

    fn instance() -> impl Strategy<Value = Value> {
        let value = prop_oneof![
            Just(json!("x")),
            Just(json!("y")),
            Just(json!(null)),
            Just(json!(1)),
            Just(json!(3)),
        ];
        prop_oneof![
            8 => proptest::collection::btree_map(
                proptest::sample::select(NAMES.to_vec()).prop_map(String::from),
                value,
                0..5
            )
            .prop_map(|map| Value::Object(map.into_iter().collect())),
            1 => Just(json!(null)),
            1 => Just(json!("x")),
        ]
    }

    proptest! {
        #[test]
        fn formulas_agree_with_the_parts_they_replace(
            schema in schema(),
            instances in proptest::collection::vec(instance(), 1..8),
        ) {
            let program = super::super::compile(&schema, &ValidationOptions::default()).unwrap();
            let plain = as_written(&program);
            for instance in &instances {
                prop_assert_eq!(
                    verdict(&program, instance),
                    verdict(&plain, instance),
                    "{} on {}",
                    schema,
                    instance
                );
                // The explaining runs walk only a failing formula's failing parts: the
                // errors are still every part's.
                for errors in [crate::vm::all_errors, crate::vm::listed_errors] {
                    prop_assert_eq!(
                        texts(errors(&program, instance, LIMITS)),
                        texts(errors(&plain, instance, LIMITS)),
                        "{} on {}",
                        schema,
                        instance
                    );
                }
                let first = |program| crate::vm::first_error(program, instance, LIMITS);
                prop_assert_eq!(
                    texts(first(&program)),
                    texts(first(&plain)),
                    "{} on {}",
                    schema,
                    instance
                );
            }
        }
    }

    /// No bound on the steps, as for [`verdict`].
    const LIMITS: crate::vm::Limits = crate::vm::Limits {
        max_depth: 64,
        max_steps: u64::MAX,
        masked: false,
    };

    /// Each error's lines (its context's too) and schema location.
    fn texts(errors: impl IntoIterator<Item = crate::ValidationError>) -> Vec<String> {
        (errors.into_iter())
            .map(|error| format!("{error} at {}", error.schema_location()))
            .collect()
    }

    #[test]
    fn the_checks_beside_a_table_become_one_formula() {
        let schema = json!({
            "type": "object",
            "properties": {"mode": {"enum": ["car", "train"]}, "id": {"type": "integer"}},
            "anyOf": [{"required": ["id"]}, {"required": ["name"]}],
            "if": {"properties": {"mode": {"const": "car"}}},
            "then": {"required": ["plate"]},
            "else": {"properties": {"plate": false}}
        });
        let program = super::super::compile(&schema, &ValidationOptions::default()).unwrap();
        let [logic] = &program.property_logic[..] else {
            panic!("one formula expected: {program:?}");
        };
        let names: Vec<&str> = logic.names.names().collect();
        for name in ["id", "name", "mode", "plate"] {
            assert!(names.contains(&name), "{names:?}");
        }
        let plain = as_written(&program);
        for (instance, valid) in [
            (json!({"mode": "car", "id": 1, "plate": "AB"}), true),
            (json!({"mode": "car", "id": 1}), false),
            (json!({"mode": "train", "name": "x"}), true),
            (json!({"mode": "train", "name": "x", "plate": "AB"}), false),
            (json!({"plate": "AB"}), false),
            // No `mode`: the `if` holds, so `plate` is required.
            (json!({"id": 1}), false),
            (json!({"id": 1, "plate": "AB"}), true),
        ] {
            assert_eq!(verdict(&program, &instance), valid, "{instance}");
            assert_eq!(verdict(&plain, &instance), valid, "{instance}");
        }
        // A lone `required` stays a leaf.
        let schema = json!({"type": "object", "required": ["a", "b"], "properties": {}});
        let program = super::super::compile(&schema, &ValidationOptions::default()).unwrap();
        assert!(program.property_logic.is_empty(), "{program:?}");
    }
}
