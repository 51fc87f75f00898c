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

/// A custom metaschema in the image of the official 2020-12 one, which also requires
/// `x-owner` to be a string: the metaschema check must apply it.
fn strict_metaschema() -> serde_json::Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/strict",
        "$vocabulary": {"https://json-schema.org/draft/2020-12/vocab/core": true,
                        "https://json-schema.org/draft/2020-12/vocab/applicator": true,
                        "https://json-schema.org/draft/2020-12/vocab/validation": true},
        "$dynamicAnchor": "meta",
        "allOf": [
            {"$ref": "https://json-schema.org/draft/2020-12/meta/core"},
            {"$ref": "https://json-schema.org/draft/2020-12/meta/applicator"},
            {"$ref": "https://json-schema.org/draft/2020-12/meta/validation"}
        ],
        "properties": {"x-owner": {"type": "string"}}
    })
}

#[test]
fn a_schema_is_checked_against_the_custom_metaschema_it_declares() {
    let options =
        Validator::options().with_resource("https://example.com/strict", strict_metaschema());
    let good = json!({"$schema": "https://example.com/strict", "x-owner": "ops",
                      "properties": {"n": {"x-owner": "db", "minimum": 1}}});
    let validator = options.build(&good).unwrap();
    assert!(!validator.is_valid(&json!({"n": 0})));

    // Its own rule, at the root and (through `$dynamicRef: "#meta"`) in subschemas.
    for (schema, location) in [
        (
            json!({"$schema": "https://example.com/strict", "x-owner": 5}),
            "/x-owner",
        ),
        (
            json!({"$schema": "https://example.com/strict",
                   "properties": {"n": {"x-owner": false}}}),
            "/properties/n/x-owner",
        ),
        // The official vocabularies' rules, which it takes in.
        (
            json!({"$schema": "https://example.com/strict", "minLength": -1}),
            "/minLength",
        ),
    ] {
        let error = options.build(&schema).expect_err(&schema.to_string());
        assert_eq!(
            error.kind(),
            SchemaErrorKind::InvalidKeyword,
            "{schema}: {error}"
        );
        assert_eq!(error.location(), location, "{schema}: {error}");
        assert!(
            error.message().contains("https://example.com/strict"),
            "{error}"
        );
    }
    // Unchecked on request, as with the official metaschemas.
    let unchecked = options
        .clone()
        .with_metaschema_check(false)
        .build(&json!({"$schema": "https://example.com/strict", "x-owner": 5}));
    assert!(unchecked.is_ok());
}

#[test]
fn a_custom_metaschema_is_itself_checked_against_its_own_metaschema() {
    let mut broken = strict_metaschema();
    broken["minLength"] = json!(-1);
    let error = Validator::options()
        .with_resource("https://example.com/strict", broken)
        .build(&json!({"$schema": "https://example.com/strict"}))
        .unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::InvalidKeyword, "{error}");
    assert_eq!(
        error.location(),
        "https://example.com/strict#/minLength",
        "{error}"
    );
}

/// A metaschema declaring `vocabularies` on top of core and applicator.
fn metaschema_with(vocabularies: serde_json::Value) -> serde_json::Value {
    let mut declared = json!({"https://json-schema.org/draft/2020-12/vocab/core": true,
                              "https://json-schema.org/draft/2020-12/vocab/applicator": true});
    declared
        .as_object_mut()
        .unwrap()
        .extend(vocabularies.as_object().unwrap().clone());
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/vocab-meta",
        "$vocabulary": declared,
        "$dynamicAnchor": "meta",
        "allOf": [{"$ref": "https://json-schema.org/draft/2020-12/meta/core"},
                  {"$ref": "https://json-schema.org/draft/2020-12/meta/applicator"}]
    })
}

fn build_in(meta: serde_json::Value) -> Result<Validator, mcp_jsonschema::SchemaError> {
    Validator::options()
        .with_resource("https://example.com/vocab-meta", meta)
        .build(&json!({"$schema": "https://example.com/vocab-meta",
                       "properties": {"n": {"minimum": 10}}}))
}

/// 2020-12 Core 8.1.2: a required vocabulary the implementation does not know makes
/// the schema unusable; an optional one is ignored.
#[test]
fn a_required_unknown_vocabulary_is_refused_and_an_optional_one_ignored() {
    let unknown = "https://example.com/vocab/units";
    let error = build_in(metaschema_with(json!({ unknown: true }))).unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::UnknownVocabulary, "{error}");
    assert_eq!(error.location(), "/$schema", "{error}");
    assert!(error.message().contains(unknown), "{error}");

    let validator = build_in(metaschema_with(json!({ unknown: false }))).unwrap();
    assert!(
        validator.is_valid(&json!({"n": 1})),
        "no validation vocabulary"
    );

    // A look-alike of an official vocabulary is not that vocabulary.
    let look_alike = "https://example.com/draft/2020-12/vocab/validation";
    let error = build_in(metaschema_with(json!({ look_alike: true }))).unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::UnknownVocabulary, "{error}");
    let validator = build_in(metaschema_with(json!({ look_alike: false }))).unwrap();
    assert!(
        validator.is_valid(&json!({"n": 1})),
        "still no validation vocabulary"
    );

    // Known vocabularies, required or optional, are honoured.
    for required in [true, false] {
        let validation =
            json!({"https://json-schema.org/draft/2020-12/vocab/validation": required});
        let validator = build_in(metaschema_with(validation)).unwrap();
        assert!(!validator.is_valid(&json!({"n": 1})));
    }
    let annotations = json!({"https://json-schema.org/draft/2020-12/vocab/meta-data": true,
                             "https://json-schema.org/draft/2020-12/vocab/content": true,
                             "https://json-schema.org/draft/2020-12/vocab/format-annotation": true});
    build_in(metaschema_with(annotations)).unwrap();
}

#[test]
fn a_vocabulary_neither_required_nor_optional_is_an_error() {
    let declared = json!({"https://json-schema.org/draft/2020-12/vocab/validation": "yes"});
    let error = Validator::options()
        .with_metaschema_check(false)
        .with_resource("https://example.com/vocab-meta", metaschema_with(declared))
        .build(&json!({"$schema": "https://example.com/vocab-meta"}))
        .unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::InvalidKeyword, "{error}");
}
