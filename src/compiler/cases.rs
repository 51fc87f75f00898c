//! `else if` chains on one property's value, as lookups.
//!
//! Real schemas pick a variant's rules by a tag, link after link: `"if": {"properties":
//! {"type": {"const": "application"}}}, "then": ..., "else": {"if": ... "library" ...}`
//! (ui5's `type`, then its `specVersion` under each type). Evaluated as written, each
//! link looks the tag up and checks its value. This pass finds chains of at least
//! [`MIN_LINKS`] links that test the same property, each test a `properties` of that
//! one name whose schema accepts only values it lists (a `const`, an `enum`, a `type`
//! of `null` or booleans: [`Listing`]), and turns the first link into a
//! [`Node::Cases`]: the branch for each listed value is found here, by running each
//! link's check on the values it lists, in chain order, as the chain would. The
//! interpreter then looks the tag up once, and its value in the tables, in every mode
//! but the one that marks evaluations (so the fast and the explaining runs spend the
//! same steps: a step for each link the chain tests, one level for the whole chain).

use super::exclusive::Listing;
use super::planned::Planned;
use super::Compiler;
use crate::ids::NodeId;
use crate::json::equal::equal;
use crate::names::NameSet;
use crate::program::{Case, Cases, Node, Program};
use crate::regex::STOPPED;
use ahash::{AHashMap, AHashSet};
use serde_json::Value;

/// Chains shorter than this stay as written: one link's test is a lookup already.
const MIN_LINKS: u32 = 2;

/// The most links one table takes in: the rest of a longer chain is its last `else`,
/// evaluated as written.
const MAX_LINKS: u32 = 256;

/// The most links and listed values the pass reads, over every chain of a compile
/// (each value is checked once per chain): chains that share a long tail each read it,
/// so past this the chains left stay as written, and compiling stays linear
/// (`tests/hostile.rs`, `if-chains-sharing-a-tail`).
const PLANNING_READS: usize = 1 << 16;

/// One link's test, read: the property, whether the test requires it, and the listing
/// of the values it accepts for it with the check that decides them.
struct LinkTest<'p> {
    property: &'p str,
    required: bool,
    check: Node,
    listing: Listing<'p>,
}

impl Compiler<'_> {
    /// Turns the first link of each `else if` chain on one property's listed values
    /// into a [`Node::Cases`].
    pub(crate) fn look_up_chains(&mut self) {
        if self.conditions < MIN_LINKS {
            return;
        }
        let program = &self.program;
        // The links that continue a chain on the same property, as `(test, then,
        // otherwise)`: not first links, nor are their copies (lowering and inlining
        // leave copies of nodes behind, some of which no run meets).
        let mut continuing: AHashSet<(NodeId, NodeId, NodeId)> = crate::maps::set();
        let mut first_links = Vec::new();
        for (i, node) in program.nodes.iter().enumerate() {
            let Node::Condition {
                test, otherwise, ..
            } = *node
            else {
                continue;
            };
            let Node::Condition {
                test: next_test,
                then: next_then,
                otherwise: next_otherwise,
            } = program.nodes[otherwise.index()]
            else {
                continue;
            };
            if let (Some(link), Some(next)) =
                (link_test(program, test), link_test(program, next_test))
            {
                if next.property == link.property {
                    continuing.insert((next_test, next_then, next_otherwise));
                    first_links.push(i);
                }
            }
        }
        // Copies of one chain (an inlined `$ref` target) share one table.
        let mut planned = Planned::new();
        let mut reads = PLANNING_READS;
        for i in first_links {
            let Node::Condition {
                test,
                then,
                otherwise,
            } = program.nodes[i]
            else {
                continue;
            };
            if continuing.contains(&(test, then, otherwise)) {
                continue;
            }
            planned.node(i, (test, then, otherwise), program.cases.len(), || {
                cases_of(program, test, then, otherwise, &mut reads)
            });
        }
        for (i, table) in planned.finish(&mut self.program.cases) {
            self.program.nodes[i] = Node::Cases(table);
        }
    }
}

/// What the `if` at `test` reads, if it is a `properties` of one name, with no other
/// keyword but a `required` of it, whose schema accepts only listed values.
fn link_test(program: &Program, test: NodeId) -> Option<LinkTest<'_>> {
    let Node::Properties(table) = program.nodes[test.index()] else {
        return None;
    };
    let spec = &program.properties[table];
    let ([(property, node)], [entry]) = (&spec.named[..], &spec.entries[..]) else {
        return None;
    };
    let others_pass = match spec.additional {
        None => true,
        Some(additional) => program.nodes[additional.index()] == Node::Valid,
    };
    let required_here = spec.required_count == u32::from(entry.required);
    if !spec.patterns.is_empty() || !others_pass || !required_here {
        return None;
    }
    let check = program.nodes[node.index()];
    Some(LinkTest {
        property,
        required: entry.required,
        check,
        listing: Listing::of(program, check)?,
    })
}

/// Records in `strings` and `others` each value `link` lists that no earlier link
/// took and its check passes, as taking `case` (a value an earlier link listed but
/// failed is still open); `None` when a check was stopped (a pattern out of budget).
fn take<'p>(
    program: &'p Program,
    link: &LinkTest<'p>,
    case: Case,
    strings: &mut AHashMap<&'p str, Case>,
    others: &mut Vec<(&'p Value, Case)>,
) -> Option<()> {
    let passes = |value: &Value| {
        let (passed, work) = crate::vm::verdict(program, link.check, value);
        (work < STOPPED).then_some(passed)
    };
    match link.listing {
        Listing::Values(values) => {
            for value in values {
                let taken = match value {
                    Value::String(text) => strings.contains_key(text.as_str()),
                    other => others.iter().any(|(listed, _)| equal(*listed, other)),
                };
                if taken || !passes(value)? {
                    continue;
                }
                match value {
                    Value::String(text) => drop(strings.insert(text, case)),
                    other => others.push((other, case)),
                }
            }
        }
        Listing::Strings(set) => {
            // An `enum` of strings alone passes each; a list of checks may not.
            let all_pass = matches!(link.check, Node::StringEnum(_));
            for text in set.strings() {
                if strings.contains_key(text) {
                    continue;
                }
                if all_pass || passes(&Value::String(text.to_owned()))? {
                    strings.insert(text, case);
                }
            }
        }
    }
    Some(())
}

/// The [`Cases`] of the chain whose first link is `test`, `then`, `otherwise`, if it
/// has at least [`MIN_LINKS`] links and reading it fits in `reads` (which it takes).
fn cases_of(
    program: &Program,
    test: NodeId,
    then: NodeId,
    otherwise: NodeId,
    reads: &mut usize,
) -> Option<Cases> {
    let first = link_test(program, test)?;
    let mut absent = None;
    let mut strings: AHashMap<&str, Case> = crate::maps::map();
    let mut others: Vec<(&Value, Case)> = Vec::new();
    let (mut link, mut links, mut branch, mut rest) = (first, 0, then, otherwise);
    let property = link.property;
    loop {
        links += 1;
        let case = Case {
            node: branch,
            links,
        };
        if absent.is_none() && !link.required {
            absent = Some(case);
        }
        *reads = reads.checked_sub(1 + link.listing.len())?;
        take(program, &link, case, &mut strings, &mut others)?;
        let next = match program.nodes[rest.index()] {
            Node::Condition {
                test,
                then,
                otherwise,
            } if links < MAX_LINKS => link_test(program, test)
                .filter(|next| next.property == property)
                .map(|next| (next, then, otherwise)),
            _ => None,
        };
        match next {
            Some(next) => (link, branch, rest) = next,
            None => break,
        }
    }
    if links < MIN_LINKS {
        return None;
    }
    let unlisted = Case { node: rest, links };
    let set = NameSet::new(strings.keys().copied());
    let mut string_cases = vec![unlisted; set.len()];
    for (text, &case) in &strings {
        if let Some(i) = set.position(text) {
            string_cases[i] = case;
        }
    }
    Some(Cases {
        test,
        then,
        otherwise,
        property: property.into(),
        strings: set,
        string_cases: string_cases.into(),
        other_cases: (others.into_iter())
            .map(|(value, case)| (value.clone(), case))
            .collect(),
        unlisted,
        absent: absent.unwrap_or(unlisted),
    })
}

#[cfg(test)]
mod tests {
    use crate::compiler::compiled;
    use crate::program::{Node, Program};
    use crate::vm::is_valid_unbounded as valid;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    /// `program` with every chain's first link a `Condition` again.
    fn as_written(program: &Program) -> Program {
        crate::compiler::undone(program, |node| match node {
            Node::Cases(table) => {
                let cases = &program.cases[table];
                Some(Node::Condition {
                    test: cases.test,
                    then: cases.then,
                    otherwise: cases.otherwise,
                })
            }
            _ => None,
        })
    }

    fn tables(schema: &Value) -> usize {
        compiled(schema).cases.len()
    }

    /// The chain of `links` (`if` schema, `then` schema), the last `else` after them.
    fn chain(links: &[(Value, Value)], last: Option<Value>) -> Value {
        let mut schema = last.map_or_else(|| json!({}), |last| json!({"not": {"not": last}}));
        for (test, then) in links.iter().rev() {
            schema = json!({"if": test, "then": then, "else": schema});
        }
        schema
    }

    fn tag(check: Value) -> Value {
        json!({"properties": {"type": check}})
    }

    #[test]
    fn chains_on_one_property_s_listed_values_are_looked_up() {
        let then = |name: &str| json!({"required": [name]});
        let looked_up = [
            // ui5's chain on `type`, its first link's `null` passing an absent tag too.
            chain(
                &[
                    (tag(json!({"const": null})), then("a")),
                    (tag(json!({"const": "application"})), then("b")),
                    (tag(json!({"enum": ["library", "theme"]})), then("c")),
                ],
                Some(json!(false)),
            ),
            chain(
                &[
                    (tag(json!({"type": "boolean"})), then("a")),
                    (
                        tag(json!({"type": "string", "enum": ["x", "y"]})),
                        then("b"),
                    ),
                ],
                None,
            ),
        ];
        for schema in &looked_up {
            assert_eq!(tables(schema), 1, "{schema}");
        }
        // The links after the first take no table of their own.
        let nested = chain(
            &[
                (tag(json!({"const": "x"})), looked_up[0].clone()),
                (tag(json!({"const": "y"})), then("b")),
            ],
            None,
        );
        assert_eq!(tables(&nested), 2);
        let written = [
            // One link.
            chain(&[(tag(json!({"const": "x"})), then("a"))], None),
            // Two properties.
            chain(
                &[
                    (tag(json!({"const": "x"})), then("a")),
                    (json!({"properties": {"kind": {"const": "y"}}}), then("b")),
                ],
                None,
            ),
            // A test that lists no values.
            chain(
                &[
                    (tag(json!({"const": "x"})), then("a")),
                    (tag(json!({"pattern": "^y"})), then("b")),
                ],
                None,
            ),
            // A test that reads more than the property.
            chain(
                &[
                    (tag(json!({"const": "x"})), then("a")),
                    (
                        json!({"properties": {"type": {"const": "y"}}, "minProperties": 2}),
                        then("b"),
                    ),
                ],
                None,
            ),
        ];
        for schema in &written {
            assert_eq!(tables(schema), 0, "{schema}");
        }
    }

    /// A link's test: a listing of some values of `type`, maybe required.
    fn test() -> impl Strategy<Value = Value> {
        let word = proptest::sample::select(vec!["", "a", "b", "ab", "1"]);
        let check = prop_oneof![
            proptest::collection::vec(word.clone(), 1..4).prop_map(|words| json!({"enum": words})),
            word.clone().prop_map(|word| json!({"const": word})),
            proptest::sample::select(vec![
                json!(1),
                json!(1.0),
                json!(null),
                json!(true),
                json!([1])
            ])
            .prop_map(|value| json!({"const": value})),
            proptest::collection::vec(
                proptest::sample::select(vec![json!("a"), json!(null), json!(2), json!(false)]),
                1..3
            )
            .prop_map(|values| json!({"enum": values})),
            proptest::sample::select(vec!["null", "boolean"])
                .prop_map(|kind| json!({"type": kind})),
            (1..3_u32).prop_map(|n| json!({"enum": ["a", "ab", "abc"], "maxLength": n})),
            Just(json!(false)),
        ];
        (check, any::<bool>()).prop_map(|(check, required)| {
            let mut test = json!({"properties": {"type": check}});
            if required {
                test["required"] = json!(["type"]);
            }
            test
        })
    }

    proptest! {
        /// A chain gives the same verdicts looked up as evaluated link by link.
        #[test]
        fn a_looked_up_chain_keeps_its_meaning(
            tests in proptest::collection::vec(test(), 2..5),
            last in any::<bool>(),
        ) {
            // Each branch requires a name of its own, so the verdict tells which was taken.
            let links: Vec<(Value, Value)> = (tests.into_iter().enumerate())
                .map(|(i, test)| (test, json!({"required": [format!("k{i}")]})))
                .collect();
            let schema = chain(&links, last.then(|| json!({"required": ["else"]})));
            let program = compiled(&schema);
            prop_assert_eq!(program.cases.len(), 1, "{}", schema);
            let plain = as_written(&program);
            let tags = [
                None, Some(json!("")), Some(json!("a")), Some(json!("ab")), Some(json!("abc")),
                Some(json!("1")), Some(json!("z")), Some(json!(1)), Some(json!(1.0)), Some(json!(2)),
                Some(json!(null)), Some(json!(true)), Some(json!(false)), Some(json!([1])),
                Some(json!({})),
            ];
            let names = ["k0", "k1", "k2", "k3", "else"];
            for tag in &tags {
                for taken in &names {
                    let mut object = json!({taken.to_string(): 0});
                    if let Some(tag) = tag {
                        object["type"] = tag.clone();
                    }
                    prop_assert_eq!(valid(&program, &object), valid(&plain, &object), "{} on {}", schema, object);
                }
            }
            for other in [json!("a"), json!(null), json!(3), json!([])] {
                prop_assert_eq!(valid(&program, &other), valid(&plain, &other), "{} on {}", schema, other);
            }
        }
    }
}
