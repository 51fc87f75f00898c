//! The last finalize pass: how each loop settles its children.
//!
//! Property tables, `additionalProperties` and `items` apply a child schema to many
//! values. Deciding per value whether that child is a lone `type`, another leaf or a
//! full subschema would cost a dispatch per key or item; this pass decides it once per
//! slot, on the program's final shape, and stores the answer ([`Settle`]) beside the slot.
//! So it does for the branches of a union told apart by kind or by a tag, settled in
//! place.

use super::Compiler;
use crate::ids::{Id, NodeId};
use crate::json::types::TypeSet;
use crate::names::Spelling;
use crate::program::{FastLoop, Node, Program, Properties, Settle};

impl Compiler<'_> {
    /// Fills every `settle` field of the property and items tables (and the cost of each
    /// property, from the same final shape), and the root's.
    pub(crate) fn settle_slots(&mut self) {
        let program = &mut self.program;
        for table in 0..program.check_lists.len() {
            let id = Id::new(table).expect("fewer than 2^32 tables");
            program.check_lists[table].settle = Settle::of_checks(program, id);
        }
        let mut properties = std::mem::take(&mut program.properties);
        let mut items = std::mem::take(&mut program.items);
        let branches = branch_tables(program, properties.len());
        let mut by_kinds = std::mem::take(&mut program.by_kinds);
        let mut switches = std::mem::take(&mut program.switches);
        // Which tables have an exact order: a record slot of theirs settles as `Exact`.
        // (Probed for every compile, not only one with such a table: the probe's one-time
        // set-up then never falls on a later compile.)
        let sorted_keys = crate::memory::keys_in_byte_order();
        let marks_read = self.annotating
            || (program.nodes.iter()).any(|node| matches!(node, Node::Unevaluated(_)));
        for table in &mut properties {
            let additional = table.additional.map(|node| Settle::of(program, node));
            if !marks_read && additional.unwrap_or(Settle::Pass) == Settle::Pass {
                // A `patternProperties` schema that passes every value (`{}`, or only
                // annotations: clang-format's `"^x-": {"$comment": ...}`) decides
                // nothing when unnamed keys pass anyway and no `unevaluated*` or
                // annotation reads which keys it matched: dropped, so that the table
                // runs no regex per key and may be open.
                (table.patterns).retain(|&(_, node)| Settle::of(program, node) != Settle::Pass);
            }
            table.exact = exact_order(table, additional.unwrap_or(Settle::Pass), sorted_keys);
        }
        let exact: Vec<bool> = properties.iter().map(|t| t.exact.is_some()).collect();
        let settle = |id: NodeId| match Settle::of(program, id) {
            Settle::Record(table) if exact[table.index()] => Settle::Exact(table),
            settle => settle,
        };
        for (table, &branch) in properties.iter_mut().zip(&branches) {
            for (entry, &(_, node)) in table.entries.iter_mut().zip(&table.named) {
                entry.settle = settle(node);
                // Estimated again on the final shape: a reference estimated costly
                // when the table was built may since have become a copy of its target
                // (a string enum, say), which need not wait for the cheap entries.
                entry.cost = program.cost(node);
            }
            table.additional_settle = table.additional.map_or(Settle::Pass, settle);
            // Only a union's branch holds costly entries back in the fast loop:
            // elsewhere an instance is expected to pass, and then the order buys
            // nothing. (The explaining loop keeps the order everywhere, so that
            // errors come cheapest first.)
            table.costly =
                branch && (table.entries.iter()).any(|entry| entry.cost >= Program::COSTLY);
            table.open = table.patterns.is_empty() && table.additional_settle == Settle::Pass;
            table.fast = FastLoop::of(table);
            table.typed = typed_order(table);
            table.leaves = table.patterns.is_empty()
                && table.additional_settle.in_place()
                && table.entries.iter().all(|entry| entry.settle.in_place());
        }
        for items in &mut items {
            items.rest_settle = items.rest.map_or(Settle::Pass, settle);
            let prefix = program.edges[items.prefix].iter();
            items.prefix_settle = prefix.map(|&node| settle(node)).collect();
        }
        for switch in &mut switches {
            switch.settles = (program.edges[switch.branches].iter())
                .map(|&branch| settle(branch))
                .collect();
        }
        for union in &mut by_kinds {
            for (slot, branch) in union.settles.iter_mut().zip(union.by_kind) {
                *slot = branch.map_or(Settle::Eval, settle);
            }
        }
        let root_settle = match settle(program.root) {
            settle @ (Settle::Record(_) | Settle::Exact(_) | Settle::List(_)) => settle,
            _ => Settle::Eval,
        };
        program.properties = properties;
        program.items = items;
        program.by_kinds = by_kinds;
        program.switches = switches;
        program.root_settle = root_settle;
    }
}

/// [`Properties::exact`] of `table`: the positions of its names in byte order, when
/// it is closed and requires them all, and objects' keys come in byte order
/// (`sorted_keys`; not with `serde_json`'s `preserve_order`: a passing object's keys may
/// then come in any order).
fn exact_order(table: &Properties, additional: Settle, sorted_keys: bool) -> Option<Box<[u32]>> {
    let closed = table.patterns.is_empty() && additional == Settle::Fail;
    let all_required = table.entries.iter().all(|entry| entry.required);
    if !closed || !all_required || table.named.is_empty() || !sorted_keys {
        return None;
    }
    let mut order: Vec<u32> = (0..table.named.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| {
        let name = |i: u32| table.named[i as usize].0.as_bytes();
        name(a).cmp(name(b))
    });
    Some(order.into_boxed_slice())
}

/// [`Properties::typed`] of `table`, once its entries are settled: its names' spellings
/// and type sets in the exact order, when every name is decided by its spelling and
/// every entry settles as a lone `type`.
fn typed_order(table: &Properties) -> Option<Box<[(Spelling, TypeSet)]>> {
    let order = table.exact.as_deref()?;
    (order.iter())
        .map(|&i| {
            let (name, _) = table.named.get(i as usize)?;
            let entry = table.entries.get(i as usize)?;
            match entry.settle {
                Settle::Type(set) if Spelling::decides(name.len()) => Some((entry.spelling, set)),
                _ => None,
            }
        })
        .collect()
}

/// Which property tables (of `count`) are the body of an `anyOf` / `oneOf` branch: where
/// an instance is expected to fail some branches, a cheap failing check (a tag) should
/// settle the branch before its costly properties are walked.
fn branch_tables(program: &Program, count: usize) -> Vec<bool> {
    let mut branch = vec![false; count];
    let mut mark = |table: Id<Properties>| branch[table.index()] = true;
    for node in &program.nodes {
        let span = match *node {
            Node::Any(span) | Node::One(span) => span,
            Node::Switch(table) => program.switches[table.index()].branches,
            Node::ByKind(table) => program.by_kinds[table.index()].branches,
            _ => continue,
        };
        for &body in &program.edges[span] {
            tables_of(program, body, &mut mark);
        }
    }
    branch
}

/// Calls `found` with the property tables node `id` runs at its own instance location:
/// its own, those of its conjuncts, and through references and scopes (a bounded walk:
/// a chain of references no longer than the program).
fn tables_of(program: &Program, mut id: NodeId, found: &mut impl FnMut(Id<Properties>)) {
    for _ in 0..program.nodes.len() {
        match program.nodes[id.index()] {
            Node::Properties(table) | Node::Object { table, .. } => found(table),
            Node::All(span) => {
                for &part in &program.edges[span] {
                    if let Node::Properties(table) | Node::Object { table, .. } =
                        program.nodes[part.index()]
                    {
                        found(table);
                    }
                }
            }
            Node::Ref(next) | Node::Guard(next) | Node::Scope { body: next, .. } => {
                id = next;
                continue;
            }
            _ => {}
        }
        return;
    }
}

#[cfg(test)]
mod tests {
    use crate::options::ValidationOptions;
    use crate::program::{Node, Program, Settle};
    use crate::vm::{settled, verdict};
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// The constrained branches of optional fields, as schemas write them.
    const CHECKED: &[&str] = &[
        r#"{"type": "integer", "minimum": 0}"#,
        r#"{"type": "number", "exclusiveMaximum": 10, "minimum": -2.5}"#,
        r#"{"type": "integer", "maximum": 9007199254740993}"#,
        r#"{"type": "number", "multipleOf": 3}"#,
        r#"{"type": "string", "maxLength": 3}"#,
        r#"{"type": "string", "pattern": "^[a-c]+$", "minLength": 2}"#,
        r#"{"type": ["integer", "string"], "minimum": 1, "maxLength": 2}"#,
        r#"{"type": "integer", "enum": [1, 2, 3]}"#,
    ];

    fn value() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(json!(null)),
            Just(json!(true)),
            (-4i64..12).prop_map(|n| json!(n)),
            (-8i32..24).prop_map(|n| json!(f64::from(n) / 2.0)),
            Just(json!(9007199254740993u64)),
            Just(json!(-9007199254740993i64)),
            "[a-d]{0,4}".prop_map(|s| json!(s)),
            Just(json!([1, 2])),
            Just(json!([1, "x", 3])),
            Just(json!({"a": 1})),
        ]
    }

    proptest! {
        /// A property's `not` of a `type` settles as the other types where they make a
        /// set, with the verdicts of evaluating the `not`.
        #[test]
        fn not_of_a_type_settles_as_its_evaluation_does(
            types in proptest::sample::subsequence(
                vec!["null", "boolean", "integer", "number", "string", "array", "object"],
                1..4,
            ),
            value in value(),
        ) {
            let schema = json!({"properties": {"a": {"not": {"type": types}}}});
            let program = crate::compiler::compile(&schema, &ValidationOptions::default()).unwrap();
            let settle = program.properties[0].entries[0].settle;
            let integer_alone = types.contains(&"integer") && !types.contains(&"number");
            prop_assert_eq!(matches!(settle, Settle::Type(_)), !integer_alone, "{:?}", settle);
            let mut evaluated = program.clone();
            evaluated.properties[0].entries[0].settle = Settle::Eval;
            let instance = json!({"a": value});
            prop_assert_eq!(
                crate::vm::is_valid_unbounded(&program, &instance),
                crate::vm::is_valid_unbounded(&evaluated, &instance),
                "{} on {}", schema, instance
            );
        }
    }

    /// A `patternProperties` schema that passes every value is dropped where nothing
    /// reads which keys it matched, and kept where something does, with the verdicts
    /// that keeping it gives.
    #[test]
    fn vacuous_patterns_go_only_where_nothing_reads_them() {
        let options = ValidationOptions::default();
        let vacuous = json!({"^x-": {"$comment": "anything"}, "^y-": {"type": "string"}});
        let compiled = |schema: &Value, annotating: bool| match annotating {
            false => crate::compiler::compile(schema, &options).unwrap(),
            true => crate::compiler::compile_annotating(schema, &options).unwrap(),
        };
        let patterns = |program: &Program| {
            (program.properties.iter())
                .map(|table| table.patterns.len())
                .sum::<usize>()
        };
        let valid =
            |program: &Program, instance: Value| crate::vm::is_valid_unbounded(program, &instance);
        let open = json!({"properties": {"a": true}, "patternProperties": vacuous});
        assert_eq!(
            patterns(&compiled(&open, false)),
            1,
            "unnamed keys pass anyway"
        );
        assert_eq!(
            patterns(&compiled(&open, true)),
            2,
            "annotations list its matches"
        );
        let program = compiled(&open, false);
        assert!(valid(&program, json!({"x-a": 1, "z": 1, "a": 2})));
        assert!(!valid(&program, json!({"x-a": 1, "y-b": 2})));
        let read = [
            json!({"patternProperties": vacuous, "additionalProperties": false}),
            json!({"patternProperties": vacuous, "unevaluatedProperties": false}),
            json!({"anyOf": [{"patternProperties": vacuous}], "unevaluatedProperties": false}),
        ];
        for schema in &read {
            let program = compiled(schema, false);
            assert_eq!(patterns(&program), 2, "{schema}");
            assert!(valid(&program, json!({"x-a": 1, "y-b": "s"})), "{schema}");
            assert!(!valid(&program, json!({"x-a": 1, "z": 1})), "{schema}");
        }
    }

    proptest! {
        /// A property's `anyOf` / `oneOf` of a constrained branch and `null` settles as
        /// [`Settle::ChecksOrNull`] or [`Settle::RangeOrNull`], with the verdict and the
        /// steps of the union's own loop.
        #[test]
        fn or_null_settles_as_the_union_does(
            checked in 0..CHECKED.len(),
            one in any::<bool>(),
            null_first in any::<bool>(),
            value in value(),
        ) {
            let checked: Value = serde_json::from_str(CHECKED[checked]).unwrap();
            let null_type = json!({"type": "null"});
            let branches = match null_first {
                true => json!([null_type, checked]),
                false => json!([checked, null_type]),
            };
            let keyword = if one { "oneOf" } else { "anyOf" };
            let schema = json!({"type": "object", "properties": {"x": {keyword: branches}}});
            let options = ValidationOptions::default();
            let program = crate::compiler::compile(&schema, &options).unwrap();
            let table = program.properties.iter().find(|t| t.named.len() == 1).unwrap();
            let (settle, node) = (table.entries[0].settle, table.named[0].1);
            let or_null =
                matches!(settle, Settle::ChecksOrNull { .. } | Settle::RangeOrNull { .. });
            prop_assert!(or_null, "{settle:?} for {schema}");
            let union = program.nodes[node.index()];
            let leaf_union = matches!(
                union,
                Node::AnyLeaf(_) | Node::OneLeaf(_) | Node::ExclusiveLeaf(_)
            );
            prop_assert!(leaf_union, "{union:?}");
            prop_assert_eq!(
                settled(&program, settle, node, &value),
                Some(verdict(&program, union, &value)),
                "{} on {}", schema, value
            );
        }
    }
}
