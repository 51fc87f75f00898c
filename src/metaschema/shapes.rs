//! The official metaschemas' verdict without running them: one walk over a schema that
//! checks each member an official metaschema names against the shape it gives it.
//!
//! Every official metaschema is a list of keywords, each with a shape (a string, a count,
//! a schema, a map of schemas, ...), applied again to every subschema. [`conforms`] walks
//! a schema once with that list ([`Shape::of`]) and answers only "surely valid": a schema
//! it cannot vouch for (one that fails, or nests past its depth or stack budget) goes to
//! the metaschema program ([`super::official`]), which decides and explains. So the
//! program stays the reference, and this walk is what most compiles pay: a string match
//! and a shape test per member, against the program's evaluation of every vocabulary.
//!
//! The tests below keep the two exact: the list is compared with the names the embedded
//! metaschema documents give, every name of every draft is probed with values of every
//! shape, and generated schemas are checked both ways in all five drafts.

use crate::dialect::Draft;
use crate::json::types::TypeSet;
use crate::json::{equal, number};
use crate::stack::StackGuard;
use serde_json::{Map, Value};

/// Whether `schema` surely passes the official metaschema of `draft`. `false` when it
/// fails it, and when this walk cannot tell (deeper than
/// [`STACK_SAFE_DEPTH`](crate::options::STACK_SAFE_DEPTH) or past the stack budget).
pub(super) fn conforms(schema: &Value, draft: Draft) -> bool {
    let depth = crate::options::STACK_SAFE_DEPTH;
    let stack = StackGuard::new();
    // One walk per draft, so that the list's tests of the draft fold away.
    match draft {
        Draft::Draft4 => Walk::<0> { stack }.schema(schema, depth),
        Draft::Draft6 => Walk::<1> { stack }.schema(schema, depth),
        Draft::Draft7 => Walk::<2> { stack }.schema(schema, depth),
        Draft::Draft201909 => Walk::<3> { stack }.schema(schema, depth),
        Draft::Draft202012 => Walk::<4> { stack }.schema(schema, depth),
    }
}

/// What an official metaschema asks of a keyword's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A schema: an object, or (after draft 4) a boolean, itself checked.
    Schema,
    /// A boolean or a schema (draft 4's `additionalItems` and `additionalProperties`).
    BooleanOrSchema,
    /// A non-empty array of schemas.
    SchemaArray,
    /// A schema or a non-empty array of schemas (`items` before 2020-12).
    SchemaOrArray,
    /// An object whose members are schemas (`properties`, `$defs`).
    Schemas,
    /// An object whose members are schemas or string arrays (`dependencies`).
    Dependencies,
    /// An object whose members are string arrays (`dependentRequired`).
    StringArrays,
    /// Distinct strings; at least one in draft 4 (`required`).
    StringArray,
    /// A simple type's name, or a non-empty array of distinct ones.
    Type,
    /// Any array (`examples`; `enum` after draft 4).
    Array,
    /// A non-empty array of distinct values (draft 4's `enum`).
    DistinctArray,
    /// Any string.
    String,
    /// A string with no `#` but a last one (`$id` since 2019-09: `^[^#]*#?$`).
    Id,
    /// An anchor's name: 2019-09's `^[A-Za-z][-A-Za-z0-9.:_]*$`, 2020-12's
    /// `^[A-Za-z_][-A-Za-z0-9._]*$`.
    Anchor,
    /// `true` or `false`.
    Boolean,
    /// Any number.
    Number,
    /// A number above zero (`multipleOf`).
    Positive,
    /// An integer of at least zero, `2.0` included (`minLength`).
    Count,
    /// An object of booleans (`$vocabulary`).
    Vocabulary,
}

impl Shape {
    /// The shape the official metaschema of `draft` gives the member `name`; `None` for a
    /// name it leaves free (one it does not list, or lists with any value allowed:
    /// `const`, `default`).
    #[inline(always)]
    fn of(name: &str, draft: Draft) -> Option<Shape> {
        use Draft::{Draft201909, Draft202012, Draft4, Draft6};
        let since_6 = draft != Draft4;
        let since_7 = !matches!(draft, Draft4 | Draft6);
        let since_2019 = matches!(draft, Draft201909 | Draft202012);
        let only_2020 = draft == Draft202012;
        Some(match name {
            "$schema" | "title" | "description" | "format" | "pattern" => Shape::String,
            "multipleOf" => Shape::Positive,
            "maximum" | "minimum" => Shape::Number,
            "exclusiveMaximum" | "exclusiveMinimum" if draft == Draft4 => Shape::Boolean,
            "exclusiveMaximum" | "exclusiveMinimum" => Shape::Number,
            "maxLength" | "minLength" | "maxItems" | "minItems" | "maxProperties"
            | "minProperties" => Shape::Count,
            "uniqueItems" => Shape::Boolean,
            "required" => Shape::StringArray,
            "type" => Shape::Type,
            "enum" if draft == Draft4 => Shape::DistinctArray,
            "enum" => Shape::Array,
            "properties" | "patternProperties" | "definitions" => Shape::Schemas,
            "dependencies" => Shape::Dependencies,
            "allOf" | "anyOf" | "oneOf" => Shape::SchemaArray,
            "not" => Shape::Schema,
            "items" if only_2020 => Shape::Schema,
            "items" => Shape::SchemaOrArray,
            "additionalItems" | "additionalProperties" if draft == Draft4 => Shape::BooleanOrSchema,
            "additionalProperties" => Shape::Schema,
            "additionalItems" if !only_2020 => Shape::Schema,
            "id" if draft == Draft4 => Shape::String,
            "$id" if since_2019 => Shape::Id,
            "$id" | "$ref" if since_6 => Shape::String,
            "examples" if since_6 => Shape::Array,
            "contains" | "propertyNames" if since_6 => Shape::Schema,
            "$comment" | "contentMediaType" | "contentEncoding" if since_7 => Shape::String,
            "if" | "then" | "else" if since_7 => Shape::Schema,
            "readOnly" if since_7 => Shape::Boolean,
            "writeOnly" | "deprecated" if since_2019 => Shape::Boolean,
            "contentSchema" | "unevaluatedItems" | "unevaluatedProperties" if since_2019 => {
                Shape::Schema
            }
            "$defs" | "dependentSchemas" if since_2019 => Shape::Schemas,
            "dependentRequired" if since_2019 => Shape::StringArrays,
            "maxContains" | "minContains" if since_2019 => Shape::Count,
            "$vocabulary" if since_2019 => Shape::Vocabulary,
            "$recursiveRef" if since_2019 => Shape::String,
            "$anchor" if since_2019 => Shape::Anchor,
            // 2020-12 keeps the name of 2019-09's boolean for an anchor's.
            "$recursiveAnchor" if only_2020 => Shape::Anchor,
            "$recursiveAnchor" if since_2019 => Shape::Boolean,
            "$dynamicAnchor" if only_2020 => Shape::Anchor,
            "$dynamicRef" if only_2020 => Shape::String,
            "prefixItems" if only_2020 => Shape::SchemaArray,
            _ => return None,
        })
    }
}

/// One walk over a schema document, against the metaschema of the draft of index `D`
/// ([`Draft::index`]).
struct Walk<const D: usize> {
    stack: StackGuard,
}

impl<const D: usize> Walk<D> {
    const DRAFT: Draft = Draft::ALL[D];

    /// Whether `value` is a schema that surely conforms, with `depth` more levels allowed.
    fn schema(&self, value: &Value, depth: u32) -> bool {
        match value {
            Value::Object(map) => self.object(map, depth),
            Value::Bool(_) => Self::DRAFT != Draft::Draft4,
            _ => false,
        }
    }

    fn object(&self, map: &Map<String, Value>, depth: u32) -> bool {
        // The stack is measured every eighth level, as the interpreter does.
        let Some(depth) = depth.checked_sub(1) else {
            return false;
        };
        if depth % 8 == 0 && self.stack.exhausted() {
            return false;
        }
        let members = map.iter().all(|(name, value)| {
            Shape::of(name, Self::DRAFT).is_none_or(|shape| self.member(shape, value, depth))
        });
        // Draft 4's metaschema: an exclusive bound is a flag on a bound that is there.
        let flags = |flag: &str, bound: &str| !map.contains_key(flag) || map.contains_key(bound);
        members
            && (Self::DRAFT != Draft::Draft4
                || (flags("exclusiveMaximum", "maximum") && flags("exclusiveMinimum", "minimum")))
    }

    fn member(&self, shape: Shape, value: &Value, depth: u32) -> bool {
        match shape {
            Shape::Schema => self.schema(value, depth),
            Shape::BooleanOrSchema => value.is_boolean() || self.schema(value, depth),
            Shape::SchemaArray => value
                .as_array()
                .is_some_and(|items| self.schema_array(items, depth)),
            Shape::SchemaOrArray => match value {
                Value::Array(items) => self.schema_array(items, depth),
                _ => self.schema(value, depth),
            },
            Shape::Schemas => value
                .as_object()
                .is_some_and(|map| map.values().all(|schema| self.schema(schema, depth))),
            // An array is never a schema, so the two branches cannot both hold.
            Shape::Dependencies => value.as_object().is_some_and(|map| {
                map.values().all(|member| match member {
                    Value::Array(names) => self.string_array(names),
                    _ => self.schema(member, depth),
                })
            }),
            Shape::StringArrays => value.as_object().is_some_and(|map| {
                map.values()
                    .all(|names| names.as_array().is_some_and(|n| self.string_array(n)))
            }),
            Shape::StringArray => value.as_array().is_some_and(|n| self.string_array(n)),
            // The simple types, the one enum of every official metaschema, are the names
            // `type` takes.
            Shape::Type => match value {
                Value::String(name) => TypeSet::from_name(name).is_some(),
                Value::Array(names) => {
                    !names.is_empty()
                        && (names.iter())
                            .all(|name| name.as_str().and_then(TypeSet::from_name).is_some())
                        && equal::all_unique(names.as_slice())
                }
                _ => false,
            },
            Shape::Array => value.is_array(),
            Shape::DistinctArray => value
                .as_array()
                .is_some_and(|items| !items.is_empty() && equal::all_unique(items.as_slice())),
            Shape::String => value.is_string(),
            Shape::Id => value.as_str().is_some_and(|id| match id.find('#') {
                Some(at) => at + 1 == id.len(),
                None => true,
            }),
            Shape::Anchor => value.as_str().is_some_and(|name| self.anchor(name)),
            Shape::Boolean => value.is_boolean(),
            Shape::Number => value.is_number(),
            Shape::Positive => value.as_number().is_some_and(number::is_positive),
            Shape::Count => value
                .as_number()
                .is_some_and(|n| number::non_negative_integer(n).is_some()),
            Shape::Vocabulary => value
                .as_object()
                .is_some_and(|map| map.values().all(Value::is_boolean)),
        }
    }

    fn schema_array(&self, items: &[Value], depth: u32) -> bool {
        !items.is_empty() && items.iter().all(|item| self.schema(item, depth))
    }

    /// Distinct strings, and in draft 4 at least one.
    fn string_array(&self, names: &[Value]) -> bool {
        (Self::DRAFT != Draft::Draft4 || !names.is_empty())
            && names.iter().all(Value::is_string)
            && equal::all_unique(names)
    }

    /// Whether `name` matches the anchor pattern of the draft (2019-09 or 2020-12).
    fn anchor(&self, name: &str) -> bool {
        let (first_extra, rest_extra): (&[u8], &[u8]) = match Self::DRAFT {
            Draft::Draft201909 => (b"", b"-.:_"),
            _ => (b"_", b"-._"),
        };
        let mut bytes = name.bytes();
        bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || first_extra.contains(&b))
            && bytes.all(|b| b.is_ascii_alphanumeric() || rest_extra.contains(&b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect;
    use serde_json::json;

    /// The metaschema program's verdict: the reference.
    fn reference(schema: &Value, draft: Draft) -> bool {
        crate::vm::is_valid(super::super::official(draft), schema, super::super::LIMITS)
    }

    /// The members the embedded metaschema documents of `draft` list, each with the
    /// schema they give it: the main document's and those of the vocabularies it refers
    /// to in its `allOf`.
    fn listed(draft: Draft) -> Vec<(String, Value)> {
        let main = dialect::uri_without_fragment(draft);
        let document = |uri: &str| {
            let embedded = dialect::metaschemas().iter().find(|e| e.uri == uri);
            embedded.expect("embedded").value()
        };
        let root = document(main);
        let mut documents = vec![root];
        for part in root["allOf"].as_array().into_iter().flatten() {
            let reference = part["$ref"].as_str().expect("a $ref to a vocabulary");
            let base = main.rsplit_once('/').expect("a path").0;
            documents.push(document(&format!("{base}/{reference}")));
        }
        documents
            .iter()
            .flat_map(|document| document["properties"].as_object().into_iter().flatten())
            .map(|(name, schema)| (name.clone(), schema.clone()))
            .collect()
    }

    /// Every name some official metaschema lists, and a few none does.
    fn every_name() -> Vec<String> {
        let mut names: Vec<String> = Draft::ALL
            .iter()
            .flat_map(|&draft| listed(draft).into_iter().map(|(name, _)| name))
            .chain(["x-vendor", "", "$dynamic", "Items"].map(String::from))
            .collect();
        names.sort();
        names.dedup();
        names
    }

    #[test]
    fn each_walk_is_of_its_draft() {
        assert_eq!(Walk::<0>::DRAFT, Draft::Draft4);
        assert_eq!(Walk::<1>::DRAFT, Draft::Draft6);
        assert_eq!(Walk::<2>::DRAFT, Draft::Draft7);
        assert_eq!(Walk::<3>::DRAFT, Draft::Draft201909);
        assert_eq!(Walk::<4>::DRAFT, Draft::Draft202012);
    }

    #[test]
    fn the_list_names_what_the_metaschema_documents_name() {
        for draft in Draft::ALL {
            let listed = listed(draft);
            assert!(listed.len() > 30, "{draft:?}");
            for name in every_name() {
                // A name listed with any value allowed (`true` or `{}`) is left free.
                let constrained = listed.iter().any(|(listed, schema)| {
                    *listed == name && *schema != json!(true) && *schema != json!({})
                });
                assert_eq!(
                    Shape::of(&name, draft).is_some(),
                    constrained,
                    "{name} in {draft:?}"
                );
            }
        }
    }

    /// Values of every shape the list knows, and near misses of each.
    fn probes() -> Vec<Value> {
        let mut probes = vec![
            json!(null),
            json!(true),
            json!(false),
            json!(0),
            json!(1),
            json!(-1),
            json!(2.0),
            json!(0.5),
            json!(-0.5),
            json!(0.0),
            json!(1e300),
            json!(""),
            json!("string"),
            json!("str"),
            json!("a#"),
            json!("a#b"),
            json!("#"),
            json!("#a"),
            json!("a\n"),
            json!("_a"),
            json!("a:b"),
            json!("a-b.c_d"),
            json!("1a"),
            json!("-a"),
            json!("é"),
            json!("http://example.com/x#"),
            json!([]),
            json!(["string"]),
            json!(["string", "null"]),
            json!(["string", "string"]),
            json!(["strings"]),
            json!(["a", "b"]),
            json!(["a", 1]),
            json!([1, 1.0]),
            json!([1, 2]),
            json!([{}]),
            json!([true, {}]),
            json!([{"type": 5}]),
            json!([{"minimum": "x"}, {}]),
            json!({}),
            json!({"a": {}}),
            json!({"a": true}),
            json!({"a": 1}),
            json!({"a": []}),
            json!({"a": ["x"]}),
            json!({"a": ["x", "x"]}),
            json!({"a": ["x", 1]}),
            json!({"a": {"type": "string"}}),
            json!({"a": {"type": 5}}),
            json!({"https://example.com/vocab": true}),
            json!({"https://example.com/vocab": "yes"}),
            json!({"type": "string"}),
            json!({"type": "strings"}),
            json!({"maximum": 3, "exclusiveMaximum": true}),
            json!({"exclusiveMinimum": true}),
            json!({"items": [{}, true]}),
            json!({"items": []}),
            json!({"$ref": "#/x", "minLength": -1}),
        ];
        // Every probe also nested one level down, under each applicator's shape.
        let nested: Vec<Value> = probes
            .iter()
            .flat_map(|p| {
                [
                    json!({"not": p}),
                    json!({"properties": {"a": p}}),
                    json!([p]),
                ]
            })
            .collect();
        probes.extend(nested);
        probes
    }

    #[test]
    fn every_name_of_every_draft_agrees_with_the_metaschema_on_every_probe() {
        let probes = probes();
        for draft in Draft::ALL {
            for name in every_name() {
                for probe in &probes {
                    let schema = json!({ name.clone(): probe });
                    assert_eq!(
                        conforms(&schema, draft),
                        reference(&schema, draft),
                        "{schema} in {draft:?}"
                    );
                }
            }
            for probe in &probes {
                assert_eq!(
                    conforms(probe, draft),
                    reference(probe, draft),
                    "{probe} in {draft:?}"
                );
            }
        }
    }

    #[test]
    fn too_deep_to_walk_is_left_to_the_metaschema_program_which_refuses_it_as_too_deep() {
        let nested = |levels: u32| {
            let mut schema = json!({});
            for _ in 1..levels {
                schema = json!({ "not": schema });
            }
            schema
        };
        let limit = crate::options::STACK_SAFE_DEPTH;
        assert!(conforms(&nested(limit), Draft::Draft202012));
        let too_deep = nested(limit + 1);
        assert!(!conforms(&too_deep, Draft::Draft202012));
        let error = super::super::check_official(&too_deep, Draft::Draft202012).unwrap_err();
        assert_eq!(error.kind(), crate::error::SchemaErrorKind::LimitExceeded);
    }

    mod generated {
        use super::*;
        use proptest::prelude::*;

        /// Schema-like values: objects whose members are mostly named as keywords, with
        /// values of every shape, nested a few levels.
        fn schemas() -> impl Strategy<Value = Value> {
            let names = every_name();
            let leaf = prop::sample::select(probes());
            leaf.prop_recursive(4, 48, 6, move |inner| {
                prop_oneof![
                    prop::collection::vec(
                        (prop::sample::select(names.clone()), inner.clone()),
                        0..6
                    )
                    .prop_map(|members| Value::Object(members.into_iter().collect())),
                    prop::collection::vec(inner, 0..4).prop_map(Value::Array),
                ]
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig {
                cases: 512,
                failure_persistence: None,
                ..ProptestConfig::default()
            })]

            #[test]
            fn generated_schemas_get_the_metaschema_programs_verdict(schema in schemas()) {
                for draft in Draft::ALL {
                    prop_assert_eq!(
                        conforms(&schema, draft),
                        reference(&schema, draft),
                        "{} in {:?}", schema, draft
                    );
                }
            }
        }
    }
}
