//! In-place reference cycles never validate (2020-12 Core, section 9.4.1: "if two
//! schemas "#alice" and "#bob" both have an "allOf" property that refers to the other, a
//! naive validator might get stuck in an infinite recursive loop"; the behaviour is
//! undefined, and a validator in front of tool handlers must fail closed).
//!
//! A cycle every instance goes round (only `$ref`, `allOf`, `not`, the `if` test,
//! resource scopes and `unevaluated*` bodies on it) is a schema error naming its
//! locations. A cycle some instances go round (through `anyOf`, `oneOf`, `then`, `else`,
//! `dependentSchemas`, a dynamic reference) stops the run of those instances with an
//! `InfiniteRecursion` error, reported once, never "valid", also under `not`.

use mcp_jsonschema::mcp::ToolSchema;
use mcp_jsonschema::{Draft, SchemaErrorKind, ValidationErrorKind, Validator};
use serde_json::{json, Value};
use std::collections::HashSet;

/// A few instances of every type.
fn instances() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(5),
        json!(-1.5),
        json!("x"),
        json!([1, "a"]),
        json!({}),
        json!({"foo": 1, "bar": [null]}),
    ]
}

fn schema_error(schema: &Value, draft: Draft) -> mcp_jsonschema::SchemaError {
    match Validator::options().with_draft(draft).build(schema) {
        Ok(_) => panic!("{schema} ({draft:?}) compiled"),
        Err(error) => error,
    }
}

#[test]
fn unconditional_cycles_are_schema_errors_naming_their_locations() {
    let cases = [
        // The spec's own example: two anchors whose `allOf` refers to the other.
        (
            json!({"$defs": {
                "alice": {"$anchor": "alice", "allOf": [{"$ref": "#bob"}]},
                "bob": {"$anchor": "bob", "allOf": [{"$ref": "#alice"}]}},
                "$ref": "#alice"}),
            Draft::Draft202012,
            "/$defs/alice/allOf",
            vec!["/$defs/bob/allOf"],
        ),
        (json!({"$ref": "#"}), Draft::Draft202012, "/$ref", vec![]),
        // Siblings do not make a cycle conditional: `minimum` is checked and so is `#`.
        (
            json!({"$ref": "#", "minimum": 0}),
            Draft::Draft202012,
            "",
            vec!["/$ref"],
        ),
        (
            json!({"not": {"$ref": "#"}}),
            Draft::Draft202012,
            "/not",
            vec!["/not/$ref"],
        ),
        (
            json!({"if": {"$ref": "#"}, "then": true}),
            Draft::Draft202012,
            "/if",
            vec!["/if/$ref"],
        ),
        (
            json!({"unevaluatedProperties": false, "allOf": [{"$ref": "#"}]}),
            Draft::Draft202012,
            "/unevaluatedProperties",
            vec!["/allOf"],
        ),
        // A `$dynamicRef` the root's own anchor settles is a plain reference.
        (
            json!({"$dynamicAnchor": "node", "allOf": [{"$dynamicRef": "#node"}]}),
            Draft::Draft202012,
            "/allOf",
            vec!["/allOf/0/$dynamicRef", ""],
        ),
        (
            json!({"$recursiveAnchor": true, "allOf": [{"$recursiveRef": "#"}]}),
            Draft::Draft201909,
            "/allOf",
            vec!["/allOf/0/$recursiveRef", ""],
        ),
        (
            json!({"definitions": {"a": {"$ref": "#/definitions/b"}, "b": {"$ref": "#/definitions/a"}},
                   "properties": {"x": {"$ref": "#/definitions/a"}}}),
            Draft::Draft7,
            "/definitions/a/$ref",
            vec!["/definitions/b/$ref"],
        ),
        (
            json!({"definitions": {"a": {"allOf": [{"$ref": "#/definitions/a"}]}},
                   "items": {"$ref": "#/definitions/a"}}),
            Draft::Draft4,
            "/definitions/a/allOf",
            vec!["/definitions/a/allOf/0/$ref"],
        ),
    ];
    for (schema, draft, at, also) in cases {
        let error = schema_error(&schema, draft);
        assert_eq!(error.kind(), SchemaErrorKind::InfiniteRecursion, "{schema}");
        // The error is located on the cycle, and its message goes round it, from where
        // it starts back to there.
        let on_cycle: Vec<&str> = also.iter().copied().chain([at]).collect();
        let starts = match error.location() {
            "" => "#".to_string(),
            at => at.to_string(),
        };
        assert!(
            error.message().contains(&format!("{starts} ->")),
            "{schema}: {error}"
        );
        for location in on_cycle {
            let shown = if location.is_empty() { "#" } else { location };
            assert!(error.message().contains(shown), "{schema}: {error}");
        }
        let start = match error.location() {
            "" => "#",
            at => at,
        };
        assert!(error.message().ends_with(&format!("-> {start}")), "{error}");
    }
}

#[test]
fn the_mcp_profile_rejects_unconditional_cycles() {
    // The profile adds `"type": "object"`; that must not turn the cycle into "every
    // object is valid".
    for schema in [json!({"$ref": "#"}), json!({"$ref": "#", "minimum": 0})] {
        for error in [
            ToolSchema::input(&schema).err(),
            ToolSchema::output(&schema).err(),
        ] {
            let error = error.unwrap_or_else(|| panic!("{schema} compiled"));
            assert_eq!(error.kind(), SchemaErrorKind::InfiniteRecursion, "{error}");
        }
    }
}

#[test]
fn the_mcp_profile_stops_conditional_cycles_of_object_schemas() {
    // Object schemas the profile accepts as they are, whose cycle only some objects go
    // round (those the earlier branch or the `if` does not settle): through the
    // property-table and record fusions, the union and condition nodes, and draft 7's
    // definitions. (schema, an object that goes round, one that does not.)
    let cases = [
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}},
                   "anyOf": [{"required": ["a"]}, {"$ref": "#"}]}),
            json!({"b": 1}),
            json!({"a": "x"}),
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}},
                   "additionalProperties": false,
                   "anyOf": [{"required": ["a"]}, {"$ref": "#"}]}),
            json!({}),
            json!({"a": "x"}),
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}},
                   "if": {"required": ["a"]}, "then": {"$ref": "#"}}),
            json!({"a": "x"}),
            json!({"b": 1}),
        ),
        (
            json!({"type": "object",
                   "oneOf": [{"properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                             {"properties": {"kind": {"const": "b"}}, "required": ["kind"],
                              "allOf": [{"$ref": "#"}]}]}),
            json!({"kind": "b"}),
            json!({"kind": "a"}),
        ),
        (
            json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                   "definitions": {"node": {"anyOf": [{"required": ["a"]},
                                                       {"$ref": "#/definitions/node"}]}},
                   "allOf": [{"$ref": "#/definitions/node"}]}),
            json!({"b": 1}),
            json!({"a": 1}),
        ),
    ];
    for (schema, round, settled) in cases {
        let tool = ToolSchema::input(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
        let error = tool
            .validate(&round)
            .expect_err(&format!("{schema} {round}"));
        assert_eq!(
            error.kind(),
            ValidationErrorKind::InfiniteRecursion,
            "{error}"
        );
        assert!(tool.validate(&settled).is_ok(), "{schema} {settled}");
        assert!(!check(&schema, &round), "{schema} {round}");
        assert!(check(&schema, &settled), "{schema} {settled}");
    }
}

/// Runs every entry point: the verdict of each instance, and that `iter_errors` lists
/// the cycle once and no error twice.
fn check(schema: &Value, instance: &Value) -> bool {
    let validator = Validator::new(schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
    let valid = validator.is_valid(instance);
    let first = validator.validate(instance);
    let errors: Vec<_> = validator.iter_errors(instance).collect();
    assert_eq!(valid, first.is_ok(), "{schema} {instance}");
    assert_eq!(valid, errors.is_empty(), "{schema} {instance}");
    if let Err(first) = first {
        assert_eq!(
            first.kind(),
            ValidationErrorKind::InfiniteRecursion,
            "{schema} {instance}: {first}"
        );
        assert!(!first.kind().is_limit());
    }
    let cycles = (errors.iter())
        .filter(|e| e.kind() == ValidationErrorKind::InfiniteRecursion)
        .count();
    assert_eq!(
        cycles,
        usize::from(!valid),
        "{schema} {instance}: {errors:?}"
    );
    let distinct: HashSet<_> = (errors.iter())
        .map(|e| (e.kind(), e.instance_location(), e.schema_location()))
        .collect();
    assert_eq!(distinct.len(), errors.len(), "{errors:?}");
    valid
}

/// Which instances go round a schema's cycle.
type GoesRound = dyn Fn(&Value) -> bool;

#[test]
fn conditional_cycles_stop_exactly_the_instances_that_go_round() {
    // (schema, which instances go round the cycle)
    let string = |v: &Value| v.is_string();
    let not_string = |v: &Value| !v.is_string();
    let has_foo = |v: &Value| v.get("foo").is_some();
    let always = |_: &Value| true;
    let cases: [(Value, &GoesRound); 8] = [
        (
            json!({"anyOf": [{"type": "string"}, {"$ref": "#"}]}),
            &not_string,
        ),
        // `oneOf` must try every branch, so every instance goes round.
        (
            json!({"oneOf": [{"type": "string"}, {"$ref": "#"}]}),
            &always,
        ),
        (
            json!({"if": {"type": "string"}, "then": {"$ref": "#"}}),
            &string,
        ),
        (
            json!({"if": {"type": "string"}, "else": {"$ref": "#"}}),
            &not_string,
        ),
        (
            json!({"dependentSchemas": {"foo": {"$ref": "#"}}}),
            &has_foo,
        ),
        // Under `not` the stop is still "invalid", never a pass.
        (
            json!({"anyOf": [{"type": "string"}, {"not": {"$ref": "#"}}]}),
            &not_string,
        ),
        // Through a reference chain and an anchor.
        (
            json!({"$defs": {"a": {"$anchor": "a", "anyOf": [{"type": "string"}, {"$ref": "#/$defs/b"}]},
                             "b": {"allOf": [{"$ref": "#a"}]}},
                   "$ref": "#a"}),
            &not_string,
        ),
        // A `$dynamicRef` whose anchor the root does not define (so it stays dynamic).
        (
            json!({"$id": "https://example.com/root",
                   "$defs": {"inner": {"$id": "inner", "$dynamicAnchor": "n",
                                       "anyOf": [{"type": "string"}, {"$dynamicRef": "#n"}]}},
                   "$ref": "inner"}),
            &not_string,
        ),
    ];
    for (schema, goes_round) in cases {
        for instance in instances() {
            let valid = check(&schema, &instance);
            assert_eq!(valid, !goes_round(&instance), "{schema} {instance}");
        }
    }
}

#[test]
fn a_cycle_below_the_root_stops_at_its_own_location_once() {
    let schema = json!({
        "$defs": {"loop": {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/loop"}]}},
        "properties": {"a": {"$ref": "#/$defs/loop"}, "b": {"$ref": "#/$defs/loop"}},
        "items": {"$ref": "#/$defs/loop"}
    });
    assert!(check(&schema, &json!({"a": 1, "b": 2})));
    assert!(!check(&schema, &json!({"a": 1, "b": "x"})));
    let validator = Validator::new(&schema).unwrap();
    let error = validator.validate(&json!({"a": 1, "b": "x"})).unwrap_err();
    assert_eq!(error.instance_location(), "/b");
    // Collecting every error, the run still stops at the first cycle: one error for it.
    assert!(!check(&schema, &json!(["x", "y", 3])));
}

#[test]
fn recursion_that_consumes_input_is_not_a_cycle() {
    let tree = json!({
        "$defs": {"node": {"type": "object", "properties": {
            "value": {"type": "integer"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
            "anyOf": [{"required": ["value"]}, {"required": ["children"]}]}},
        "$ref": "#/$defs/node"
    });
    let validator = Validator::new(&tree).unwrap();
    let mut instance = json!({"value": 1});
    for i in 0..50 {
        instance = json!({"value": i, "children": [instance, {"value": 0}]});
    }
    assert!(validator.is_valid(&instance));
    assert!(!validator.is_valid(&json!({"children": [{"value": "x"}]})));
    // The official suite's recursive shapes compile and pass elsewhere; a schema that
    // refers to itself under `properties` is fine too.
    let root = Validator::new(
        &json!({"properties": {"foo": {"$ref": "#"}}, "additionalProperties": false}),
    )
    .unwrap();
    assert!(root.is_valid(&json!({"foo": {"foo": {}}})));
    assert!(!root.is_valid(&json!({"foo": {"bar": 1}})));
}

#[test]
fn a_discriminated_union_tries_every_branch_that_may_go_round() {
    // Four branches told apart by `k`: a discriminator may skip a branch only where its
    // tag test fails. `{"not": {"const": "a", "maxLength": 0}}` passes `"a"` (which fails
    // `maxLength`), so the first branch, whose `$ref` goes round, must run for `{"k":
    // "a"}` too. Through every kind of reference, and under `not`.
    let pin = json!({"properties": {"k": {"not": {"const": "a", "maxLength": 0}}}});
    let round = |reference: Value| {
        let mut branch = pin.clone();
        if let (Some(branch), Value::Object(reference)) = (branch.as_object_mut(), reference) {
            branch.extend(reference);
        }
        branch
    };
    let other = json!({"properties": {"k": {"not": {"const": "d"}}}});
    let cases = [
        json!({"oneOf": [round(json!({"$ref": "#"})), false, false, other]}),
        json!({"anyOf": [round(json!({"$ref": "#"})), false, false, other]}),
        json!({"not": {"anyOf": [round(json!({"$ref": "#"})), false, false,
                                  {"properties": {"k": {"const": "d"}}}]}}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#",
               "oneOf": [{"properties": {"k": {"not": {"allOf": [{"const": "a"}, {"maxLength": 0}]}}},
                          "allOf": [{"$ref": "#"}]}, false, false, other]}),
        json!({"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true,
               "oneOf": [round(json!({"$recursiveRef": "#"})), false, false, other]}),
        json!({"$dynamicAnchor": "n",
               "oneOf": [round(json!({"$dynamicRef": "#n"})), false, false, other]}),
    ];
    for schema in cases {
        for k in ["a", "b"] {
            assert!(!check(&schema, &json!({"k": k})), "{schema} {k}");
        }
        // Through the MCP profile too (where the dialect allows it).
        if schema.get("$schema").is_none() {
            let tool = ToolSchema::input(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
            let error = tool
                .validate(&json!({"k": "a"}))
                .expect_err(&schema.to_string());
            assert_eq!(
                error.kind(),
                ValidationErrorKind::InfiniteRecursion,
                "{error}"
            );
        }
    }
}

#[test]
fn cycles_through_references_that_enter_resources_are_found() {
    // `#/$defs/p` and `e#/$defs/q` refer to each other across two resources that
    // define dynamic anchors: each reference enters the other's scope.
    let defs = |p: Value| {
        json!({"p": p, "e": {"$id": "http://ex.com/e", "$dynamicAnchor": "x",
                             "$defs": {"q": {"$ref": "http://ex.com/r#/$defs/p"}}}})
    };
    let schema = json!({"$id": "http://ex.com/r", "$dynamicAnchor": "r",
        "$defs": defs(json!({"$ref": "http://ex.com/e#/$defs/q"})),
        "allOf": [{"$ref": "http://ex.com/e#/$defs/q"}]});
    let error = schema_error(&schema, Draft::Draft202012);
    assert_eq!(error.kind(), SchemaErrorKind::InfiniteRecursion, "{error}");
    // Only values that are not strings go round.
    let schema = json!({"$id": "http://ex.com/r", "$dynamicAnchor": "r",
        "$defs": defs(json!({"anyOf": [{"type": "string"}, {"$ref": "http://ex.com/e#/$defs/q"}]})),
        "not": {"$ref": "http://ex.com/e#/$defs/q"}});
    assert!(!check(&schema, &json!(1)));
    let validator = Validator::new(&schema).unwrap();
    let error = validator
        .validate(&json!("x"))
        .expect_err("the not of a string fails");
    assert_eq!(error.kind(), ValidationErrorKind::Not, "{error}");
}

#[test]
fn a_branch_that_fails_whatever_its_cycle_means_may_be_left_unentered() {
    // `d0`'s first branch goes round (`d2` applies `d0` again in place), and `d2` also
    // applies the root (the outermost `meta`), which only objects pass. As the document,
    // the compiler knows that (its root defines `meta`, so the `$dynamicRef` is a plain
    // reference): a string fails the branch whatever the cycle would mean, is not sent
    // into it, and `{}` passes it. Embedded, the reference stays dynamic, the branch is
    // entered, and the run stops. Both are sound (B11 in fuzz/README.md): what depends on
    // where the schema sits is only whether a value that cannot pass the branch stops,
    // never whether a value that goes round passes.
    let schema = json!({"$id": "https://example.com/root", "$dynamicAnchor": "meta",
        "type": "object", "additionalProperties": {"$ref": "d0"},
        "$defs": {"d0": {"$id": "d0", "$dynamicAnchor": "meta",
                         "anyOf": [{"$ref": "root#/$defs/d2"}, {}]},
                  "d2": {"allOf": [{"$ref": "d0"}, {"$dynamicRef": "#meta"}]}}});
    let embedded = json!({"$defs": {"s": schema}, "$ref": "#/$defs/s"});
    let string = json!({"c": "a"});
    assert!(check(&schema, &string));
    // Valid or stopped by the cycle (`check` asserts the error's kind), nothing else.
    check(&embedded, &string);
    // An object enters the branch, goes round and stops, wherever the schema is.
    for schema in [&schema, &embedded] {
        assert!(!check(schema, &json!({"c": {}})), "{schema}");
    }
}
