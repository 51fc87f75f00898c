//! Termination and stack safety: hostile shapes end with an error, never a crash.

use mcp_jsonschema::{SchemaErrorKind, ValidationErrorKind, Validator};
use serde_json::{json, Value};

/// `[[[...]]]` nested `depth` times, built without recursion.
fn nested_arrays(depth: usize) -> Value {
    let mut value = json!([]);
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// Drops a deeply nested value without recursion (serde_json's drop recurses).
fn dismantle(mut value: Value) {
    while let Value::Array(mut items) = value {
        value = items.pop().unwrap_or(Value::Null);
    }
}

#[test]
fn a_deeply_nested_instance_is_an_error_not_a_stack_overflow() {
    let validator = Validator::new(&json!({"items": {"$ref": "#"}})).unwrap();
    let instance = nested_arrays(100_000);
    assert!(!validator.is_valid(&instance));
    let error = validator.validate(&instance).unwrap_err();
    assert_eq!(error.kind(), ValidationErrorKind::DepthExceeded);
    // Even under `not`, running out of depth never turns into a pass.
    let negated = Validator::new(&json!({"not": {"items": {"$ref": "#"}}})).unwrap();
    assert!(!negated.is_valid(&instance));
    dismantle(instance);
}

#[test]
fn a_deeply_nested_schema_is_an_error_not_a_stack_overflow() {
    // Built by moving, not with `json!` (which would serialize the inner value).
    let mut schema = json!({"type": "integer"});
    for _ in 0..100_000 {
        let mut map = serde_json::Map::new();
        map.insert("items".to_string(), schema);
        schema = Value::Object(map);
    }
    let error = Validator::new(&schema).unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::LimitExceeded);
    let mut value = schema;
    while let Value::Object(mut map) = value {
        value = map.remove("items").unwrap_or(Value::Null);
    }
}

#[test]
fn reference_cycles_that_consume_no_input_terminate() {
    // Unconditional cycles are refused at construction, the others stop the run (both
    // pinned in detail by tests/cycles.rs).
    for schema in [
        json!({"$ref": "#"}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
    ] {
        let error = Validator::new(&schema).unwrap_err();
        assert_eq!(error.kind(), SchemaErrorKind::InfiniteRecursion, "{schema}");
    }
    let schema = json!({"anyOf": [{"$ref": "#"}, {"type": "string"}]});
    let validator = Validator::new(&schema).unwrap();
    for instance in [json!(1), json!("x"), json!({"a": [1]})] {
        assert!(
            !validator.is_valid(&instance),
            "{schema} accepted {instance}"
        );
        let error = validator.validate(&instance).unwrap_err();
        assert_eq!(error.kind(), ValidationErrorKind::InfiniteRecursion);
    }
}

#[test]
fn unresolvable_references_are_schema_errors() {
    for reference in [
        "#/$defs/missing",
        "#nowhere",
        "https://example.com/remote.json",
        "other.json#/x",
    ] {
        let error = Validator::new(&json!({"properties": {"a": {"$ref": reference}}})).unwrap_err();
        assert_eq!(
            error.kind(),
            SchemaErrorKind::UnresolvableReference,
            "{reference}"
        );
        assert_eq!(error.location(), "/properties/a/$ref");
    }
}
