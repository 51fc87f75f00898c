//! The dynamic scope (2020-12 Core 7.1, 8.2.3.2): every schema resource evaluation
//! enters, in order, whether at its root or through a `$ref` to a location inside it.
//! A bookended `$dynamicRef` resolves to the outermost resource in that scope that
//! declares its anchor.

use mcp_jsonschema::Validator;
use serde_json::{json, Value};

/// Verdicts of `schema` for `(instance, valid)` pairs, through every entry point.
fn assert_verdicts(schema: &Value, cases: &[(Value, bool)]) {
    let validator = Validator::new(schema).unwrap();
    for (instance, valid) in cases {
        assert_eq!(
            validator.is_valid(instance),
            *valid,
            "{schema} on {instance}"
        );
        assert_eq!(validator.validate(instance).is_ok(), *valid, "{instance}");
        assert_eq!(
            validator.iter_errors(instance).next().is_none(),
            *valid,
            "{instance}"
        );
    }
}

#[test]
fn a_resource_entered_through_a_ref_inside_it_joins_the_dynamic_scope() {
    // root --$ref--> a#/$defs/inner (inside resource `a`, which declares `t` as a
    // string) --$ref--> b, whose `$dynamicRef: "#t"` is bookended by its own `t` (an
    // integer). The scope is root, a, b: the outermost `t` is a's.
    let schema = json!({
        "$id": "https://example.com/root",
        "$ref": "a#/$defs/inner",
        "$defs": {
            "a": {
                "$id": "a",
                "$defs": {
                    "inner": {"$ref": "b"},
                    "t": {"$dynamicAnchor": "t", "type": "string"}
                }
            },
            "b": {
                "$id": "b",
                "$dynamicRef": "#t",
                "$defs": {"t": {"$dynamicAnchor": "t", "type": "integer"}}
            }
        }
    });
    assert_verdicts(&schema, &[(json!("text"), true), (json!(1), false)]);

    // Reached from its root instead, `a` is in the scope all the same.
    let mut from_root = schema.clone();
    from_root["$ref"] = json!("a");
    from_root["$defs"]["a"]["$ref"] = json!("#/$defs/inner");
    assert_verdicts(&from_root, &[(json!("text"), true), (json!(1), false)]);

    // Without `a` on the way, b's own anchor is the only one in scope.
    let mut direct = schema.clone();
    direct["$ref"] = json!("b");
    assert_verdicts(&direct, &[(json!("text"), false), (json!(1), true)]);
}

#[test]
fn the_root_resource_still_settles_its_own_anchors_statically() {
    // The root is always the outermost resource: its anchor wins over one in a
    // resource entered through an inner location.
    let schema = json!({
        "$id": "https://example.com/root",
        "$dynamicAnchor": "t",
        "type": ["object", "string"],
        "properties": {"x": {"$ref": "a#/$defs/inner"}},
        "$defs": {
            "a": {
                "$id": "a",
                "$defs": {
                    "inner": {"$dynamicRef": "#t"},
                    "t": {"$dynamicAnchor": "t", "type": "integer"}
                }
            }
        }
    });
    assert_verdicts(
        &schema,
        &[(json!({"x": "text"}), true), (json!({"x": 1}), false)],
    );
}

#[test]
fn recursive_refs_see_resources_entered_through_inner_locations() {
    // 2019-09's `$recursiveRef` follows the same scope: root --$ref--> a#/$defs/inner
    // --$ref--> b. Only a resource root's `$recursiveAnchor` counts, and `a` has one.
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "$id": "https://example.com/root",
        "$ref": "a#/$defs/inner",
        "$defs": {
            "a": {
                "$id": "a",
                "$recursiveAnchor": true,
                "type": ["string", "array"],
                "$defs": {"inner": {"$ref": "b"}}
            },
            "b": {
                "$id": "b",
                "$recursiveAnchor": true,
                "type": ["integer", "array"],
                "items": {"$recursiveRef": "#"}
            }
        }
    });
    assert_verdicts(
        &schema,
        &[
            // The items resolve to `a` (a string or an array), not to `b`.
            (json!(["text"]), true),
            (json!([1]), false),
        ],
    );
}
