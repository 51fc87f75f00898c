//! Dialect selection and schema validity (the metaschema check).

use mcp_jsonschema::{Draft, SchemaErrorKind, Validator};
use serde_json::json;

#[test]
fn invalid_schemas_are_rejected_with_the_pointer_of_each_problem() {
    let cases = [
        (
            json!({"properties": {"count": {"minimum": "x"}}}),
            "/properties/count/minimum",
        ),
        (
            json!({"properties": {"foo": {"type": "invalid_type"}}}),
            "/properties/foo/type",
        ),
        (json!({"exclusiveMinimum": true}), "/exclusiveMinimum"),
        (json!({"pattern": "["}), "/pattern"),
        (json!({"required": "name"}), "/required"),
    ];
    for (schema, location) in cases {
        let error = Validator::new(&schema).unwrap_err();
        assert_eq!(error.location(), location, "{schema}: {error}");
        assert!(error.to_string().contains(location), "{error}");
    }
    let error = Validator::new(&json!({"minLength": -1, "items": {"type": 5}})).unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("/minLength") && message.contains("/items/type"),
        "{message}"
    );
}

#[test]
fn valid_variants_of_those_schemas_are_accepted() {
    for schema in [
        json!({"exclusiveMinimum": 0}),
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 0, "exclusiveMinimum": true}),
        json!({"pattern": "^[a-z]+$"}),
        json!({"type": ["string", "null"]}),
    ] {
        Validator::new(&schema).unwrap();
    }
}

#[test]
fn the_metaschema_check_can_be_turned_off() {
    // `title: 5` breaks the metaschema but not the compiler, which ignores annotations.
    let schema = json!({"title": 5, "type": "string"});
    assert_eq!(Validator::new(&schema).unwrap_err().location(), "/title");
    let validator = Validator::options()
        .with_metaschema_check(false)
        .build(&schema)
        .unwrap();
    assert!(validator.is_valid(&json!("x")));
}

#[test]
fn dialects_are_chosen_by_schema_then_option_then_default() {
    // Draft 7 ignores `$ref` siblings; 2020-12 applies them.
    let body = json!({"$defs": {"s": {"type": "string"}}, "definitions": {"s": {"type": "string"}}, "minLength": 3});
    let mut in_draft7 = body.clone();
    in_draft7["$schema"] = json!("http://json-schema.org/draft-07/schema#");
    in_draft7["$ref"] = json!("#/definitions/s");
    assert!(Validator::new(&in_draft7).unwrap().is_valid(&json!("ab")));

    let mut by_option = body.clone();
    by_option["$ref"] = json!("#/definitions/s");
    let draft7 = Validator::options()
        .with_draft(Draft::Draft7)
        .build(&by_option)
        .unwrap();
    assert!(draft7.is_valid(&json!("ab")));
    assert!(!Validator::new(&by_option).unwrap().is_valid(&json!("ab")));

    // https, no trailing `#`: still draft 7.
    in_draft7["$schema"] = json!("https://json-schema.org/draft-07/schema");
    assert!(Validator::new(&in_draft7).unwrap().is_valid(&json!("ab")));
}

#[test]
fn an_unknown_dialect_is_an_error_naming_it() {
    let error = Validator::new(&json!({"$schema": "https://example.com/my-dialect"})).unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::UnknownDialect);
    assert!(
        error.to_string().contains("https://example.com/my-dialect"),
        "{error}"
    );
}

#[test]
fn a_registered_custom_metaschema_supplies_its_dialect() {
    let meta = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/meta",
        "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true,
                        "https://json-schema.org/draft/2020-12/vocab/applicator": true},
    });
    let schema =
        json!({"$schema": "https://example.com/meta", "properties": {"n": {"minimum": 10}}});
    let validator = Validator::options()
        .with_resource("https://example.com/meta", meta)
        .build(&schema)
        .unwrap();
    // Without the validation vocabulary, `minimum` is not an assertion.
    assert!(validator.is_valid(&json!({"n": 1})));
}

#[test]
fn format_asserts_by_default_only_in_older_drafts() {
    let schema = json!({"format": "ipv4"});
    let latest = Validator::new(&schema).unwrap();
    assert!(latest.is_valid(&json!("not an address")));
    let asserting = Validator::options()
        .with_format_assertion(true)
        .build(&schema)
        .unwrap();
    assert!(!asserting.is_valid(&json!("not an address")));
    assert!(asserting.is_valid(&json!("127.0.0.1")));
    let draft7 = Validator::options()
        .with_draft(Draft::Draft7)
        .build(&schema)
        .unwrap();
    assert!(!draft7.is_valid(&json!("not an address")));
}
