//! `oneOf`s whose branches exclude one another.
//!
//! A `oneOf` tries every branch, even after one passed, to be sure that no second one
//! does. Where no value can pass two of its branches, the first pass settles it, as it
//! settles an `anyOf`: `{"oneOf": [{"enum": ["red", "blue"]}, {"pattern": "^#"}]}` need
//! not run the pattern on `"red"`. The compiler proves it for a `oneOf` of leaves
//! ([`Node::OneLeaf`]), pair by pair: two branches exclude each other when the kinds of
//! value they admit do not meet, or when one of them accepts only values the schema
//! lists (a `const`, an `enum`, `"type": "null"` or `"boolean"`) and the other accepts
//! none of those, which running its verdict on each of them shows. A `oneOf` so proved
//! becomes a [`Node::ExclusiveLeaf`].

use super::Compiler;
use crate::ids::{NodeId, Span};
use crate::json::types::TypeSet;
use crate::program::{Node, Program, StringSet};
use crate::regex::STOPPED;
use serde_json::Value;

/// The most listed values one `oneOf`'s proof runs verdicts on: past it, the `oneOf`
/// keeps trying every branch (its `enum`s are long, and compiling stays linear).
const MAX_TRIED: usize = 32;

/// The values `"type": "null"` and `"boolean"` accept, as a listing.
const NULL_AND_BOOLEANS: [Value; 3] = [Value::Null, Value::Bool(false), Value::Bool(true)];

impl Compiler<'_> {
    /// Rewrites each of the [`Node::OneLeaf`]s at `one_leaves` whose branches exclude one
    /// another as a [`Node::ExclusiveLeaf`]. Reads `program.admits`.
    pub(crate) fn settle_exclusive_branches(&mut self, one_leaves: &[usize]) {
        let program = &mut self.program;
        for &i in one_leaves {
            if let Node::OneLeaf(span) = program.nodes[i] {
                if exclusive(program, span) {
                    program.nodes[i] = Node::ExclusiveLeaf(span);
                }
            }
        }
    }
}

/// Whether no value passes two of the leaf branches in `span`.
fn exclusive(program: &Program, span: Span) -> bool {
    let branches = &program.edges[span];
    let mut tries = MAX_TRIED;
    branches
        .iter()
        .enumerate()
        .all(|(at, &a)| (branches[at + 1..].iter()).all(|&b| apart(program, a, b, &mut tries)))
}

/// Whether no value passes both leaves `a` and `b`, each listed value tried costing one
/// of `tries`.
fn apart(program: &Program, a: NodeId, b: NodeId, tries: &mut usize) -> bool {
    let admits = |id: NodeId| program.admits[id.index()];
    if admits(a).intersection(admits(b)) == TypeSet::NONE {
        return true;
    }
    let (a, b) = (program.nodes[a.index()], program.nodes[b.index()]);
    [(a, b), (b, a)].into_iter().any(|(listing, other)| {
        let Some(listed) = Listing::of(program, listing) else {
            return false;
        };
        let Some(left) = tries.checked_sub(listed.len()) else {
            return false;
        };
        *tries = left;
        listed.all(|value| !passes(program, listing, value) || !passes(program, other, value))
    })
}

/// Whether the leaf `node` may pass `value`: its verdict, or `true` when the verdict
/// was stopped before it was reached (a backtracking pattern out of budget).
fn passes(program: &Program, node: Node, value: &Value) -> bool {
    let (ok, work) = crate::vm::verdict(program, node, value);
    ok || work >= STOPPED
}

/// Values among which are all those a leaf accepts, as the schema lists them.
#[derive(Clone, Copy)]
pub(super) enum Listing<'p> {
    /// A `const`, an `enum`, or a `type` of `null` and booleans.
    Values(&'p [Value]),
    /// An `enum` of strings.
    Strings(&'p StringSet),
}

impl<'p> Listing<'p> {
    /// The listing of the leaf `node`, if it accepts only listed values: a `const`, an
    /// `enum`, a `type` of `null` and booleans, or a list of checks with one of those
    /// among its parts (a value the list accepts passes each part).
    pub(super) fn of(program: &'p Program, node: Node) -> Option<Listing<'p>> {
        let null = TypeSet::NULL;
        let listed = match node {
            Node::Invalid => Listing::Values(&[]),
            Node::Const(value) => Listing::Values(std::slice::from_ref(&program.values[value])),
            Node::Enum(span) => Listing::Values(&program.values[span]),
            Node::StringEnum(table) => Listing::Strings(&program.string_sets[table]),
            Node::Type(set) if set == null => Listing::Values(&NULL_AND_BOOLEANS[..1]),
            Node::Type(set) if set == TypeSet::BOOLEAN => Listing::Values(&NULL_AND_BOOLEANS[1..]),
            Node::Type(set) if set == null.union(TypeSet::BOOLEAN) => {
                Listing::Values(&NULL_AND_BOOLEANS)
            }
            Node::Checks(table) => {
                return (program.check_parts(table).iter())
                    .find_map(|&part| Listing::of(program, program.nodes[part.index()]))
            }
            _ => return None,
        };
        Some(listed)
    }

    pub(super) fn len(self) -> usize {
        match self {
            Listing::Values(values) => values.len(),
            Listing::Strings(set) => set.len(),
        }
    }

    /// Whether `holds` of each value listed.
    pub(super) fn all(self, mut holds: impl FnMut(&Value) -> bool) -> bool {
        match self {
            Listing::Values(values) => values.iter().all(holds),
            Listing::Strings(set) => set
                .strings()
                .all(|text| holds(&Value::String(text.to_owned()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::compiler::compiled;
    use crate::program::{Node, Program};
    use crate::vm::is_valid_unbounded as valid;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// `program` with every exclusive `oneOf` trying all its branches again.
    fn as_written(program: &Program) -> Program {
        crate::compiler::undone(program, |node| match node {
            Node::ExclusiveLeaf(span) => Some(Node::OneLeaf(span)),
            _ => None,
        })
    }

    fn exclusive(schema: &Value) -> bool {
        let program = compiled(schema);
        program
            .nodes
            .iter()
            .any(|node| matches!(node, Node::ExclusiveLeaf(_)))
    }

    #[test]
    fn only_branches_no_value_passes_two_of_are_exclusive() {
        let colors = json!({"enum": ["red", "blue", "green", "white", "black", "cyan",
            "magenta", "yellow", "bold", "default"]});
        for schema in [
            json!({"oneOf": [colors, {"pattern": "^#[0-9a-fA-F]{6}$"}]}),
            json!({"oneOf": [{"enum": ["vim", "nano"]}, {"const": ""}]}),
            json!({"oneOf": [{"type": "null"}, {"type": "string", "minLength": 1}]}),
            json!({"oneOf": [{"type": "string", "enum": ["a", "b"]}, {"minLength": 2}]}),
            json!({"oneOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]}),
        ] {
            assert!(exclusive(&schema), "{schema}");
        }
        for schema in [
            // `"red"` passes both.
            json!({"oneOf": [colors, {"pattern": "^r"}]}),
            // 15 is a multiple of both: no listing to try.
            json!({"oneOf": [{"multipleOf": 3}, {"multipleOf": 5}]}),
            // `null` passes `minLength`, which does not read non-strings.
            json!({"oneOf": [{"type": "null"}, {"minLength": 1}]}),
            json!({"oneOf": [{"const": 1}, {"enum": [2, 1.0]}]}),
            // `true` passes the pattern, which does not read non-strings either.
            json!({"oneOf": [{"type": "boolean"}, {"pattern": "^y"}]}),
        ] {
            assert!(!exclusive(&schema), "{schema}");
        }
        // Past the listed values a proof may try, the `oneOf` keeps its loop.
        let many: Vec<String> = (0..super::MAX_TRIED + 1).map(|i| format!("v{i}")).collect();
        assert!(!exclusive(
            &json!({"oneOf": [{"enum": many}, {"pattern": "^#"}]})
        ));
    }

    /// A branch of a generated `oneOf`: listed values, or checks that read them.
    fn branch() -> impl Strategy<Value = Value> {
        let word = proptest::sample::select(vec!["", "a", "ab", "b", "#1", "ba", "1"]);
        prop_oneof![
            proptest::collection::vec(word.clone(), 1..4).prop_map(|words| json!({"enum": words})),
            word.clone().prop_map(|word| json!({"const": word})),
            proptest::sample::select(vec![
                json!(0),
                json!(1),
                json!(1.0),
                json!(null),
                json!(true)
            ])
            .prop_map(|value| json!({"const": value})),
            proptest::sample::select(vec!["null", "boolean", "string", "integer"])
                .prop_map(|kind| json!({"type": kind})),
            proptest::sample::select(vec!["^a", "b$", "^#", "1", "^$"])
                .prop_map(|pattern| json!({"pattern": pattern})),
            (0..3_u32).prop_map(|n| json!({"minLength": n})),
            (0..3_u32).prop_map(|n| json!({"type": "string", "maxLength": n})),
            (1..3_u32).prop_map(|n| json!({"multipleOf": n})),
        ]
    }

    proptest! {
        /// A `oneOf` of leaves gives the same verdicts whether or not it stops at the
        /// first branch that passes.
        #[test]
        fn an_exclusive_one_of_keeps_its_meaning(
            branches in proptest::collection::vec(branch(), 2..4),
        ) {
            let schema = json!({"oneOf": branches});
            let program = compiled(&schema);
            let plain = as_written(&program);
            let values = [
                json!(""), json!("a"), json!("ab"), json!("b"), json!("#1"), json!("ba"),
                json!("1"), json!(0), json!(1), json!(1.0), json!(2), json!(null),
                json!(true), json!(false), json!([]), json!({}),
            ];
            for value in &values {
                prop_assert_eq!(valid(&program, value), valid(&plain, value), "{} on {}", schema, value);
            }
        }
    }
}
