//! Registered resources are read lazily: a document is scanned and checked only when a
//! reference reaches it (or when a reference to a name no document carries makes the
//! compiler look through every document, which then sets the broken ones aside). An
//! unknown dialect in a document nothing refers to breaks no build; one a reference
//! reaches is `UnknownDialect`, naming it.

use mcp_jsonschema::{SchemaErrorKind, Validator};
use serde_json::json;

fn options() -> mcp_jsonschema::ValidationOptions {
    Validator::options()
        .with_resource(
            "http://localhost:1234/future.json",
            json!({"$schema": "https://json-schema.org/draft/next/schema", "type": "string"}),
        )
        .with_resource(
            "http://localhost:1234/integer.json",
            json!({"type": "integer"}),
        )
        .with_resource(
            "http://localhost:1234/nested.json",
            json!({"$defs": {"inner": {"$id": "http://localhost:1234/inner.json", "minimum": 3}}}),
        )
}

#[test]
fn a_document_in_an_unknown_dialect_breaks_only_the_references_to_it() {
    // Nothing refers to future.json: every build that does not reach it succeeds, the
    // ones that look through all documents (for inner.json) included.
    for schema in [
        json!({"$ref": "http://localhost:1234/integer.json"}),
        json!({"$ref": "http://localhost:1234/inner.json"}),
        json!({"type": "object"}),
    ] {
        let validator = options()
            .build(&schema)
            .unwrap_or_else(|e| panic!("{schema}: {e}"));
        assert!(!validator.is_valid(&json!(2.5)), "{schema}");
    }
    // A reference that reaches it reports its dialect.
    let error = options()
        .build(&json!({"properties": {"x": {"$ref": "http://localhost:1234/future.json"}}}))
        .unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::UnknownDialect, "{error}");
    assert!(error.message().contains("draft/next"), "{error}");
    // So does one to an anchor in it.
    let error = options()
        .build(&json!({"$ref": "http://localhost:1234/future.json#here"}))
        .unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::UnknownDialect, "{error}");
}

#[test]
fn an_embedded_resource_of_a_registered_document_is_found() {
    let validator = options()
        .build(&json!({"$ref": "http://localhost:1234/inner.json"}))
        .unwrap();
    assert!(validator.is_valid(&json!(3)));
    assert!(!validator.is_valid(&json!(2)));
    let error = options()
        .build(&json!({"$ref": "http://localhost:1234/nowhere.json"}))
        .unwrap_err();
    assert_eq!(
        error.kind(),
        SchemaErrorKind::UnresolvableReference,
        "{error}"
    );
}

/// Identifiers are unique: a second schema claiming an `$id` or an anchor of one
/// resource is a `DuplicateIdentifier` error naming both places (2020-12 Core 8.2.1:
/// "the same URI MUST NOT be used for two schemas"; 8.2.2 on anchors).
#[test]
fn duplicate_identifiers_are_schema_errors_naming_both_places() {
    let cases = [
        (
            json!({"$defs": {
                "a": {"$id": "https://example.com/same", "type": "string"},
                "b": {"$id": "https://example.com/same", "type": "integer"}}}),
            mcp_jsonschema::Draft::Draft202012,
            ["/$defs/a", "/$defs/b"],
        ),
        (
            json!({"$defs": {"a": {"$anchor": "x"}, "b": {"$anchor": "x"}}}),
            mcp_jsonschema::Draft::Draft202012,
            ["/$defs/a", "/$defs/b"],
        ),
        (
            json!({"$defs": {"a": {"$anchor": "x"}, "b": {"$dynamicAnchor": "x"}}}),
            mcp_jsonschema::Draft::Draft202012,
            ["/$defs/a", "/$defs/b"],
        ),
        (
            json!({"$id": "https://example.com/root", "$defs": {
                "a": {"$id": "https://example.com/root"}}}),
            mcp_jsonschema::Draft::Draft202012,
            ["#", "/$defs/a"],
        ),
        (
            json!({"definitions": {"a": {"$id": "#x"}, "b": {"$id": "#x"}}}),
            mcp_jsonschema::Draft::Draft7,
            ["/definitions/a", "/definitions/b"],
        ),
    ];
    for (schema, draft, places) in cases {
        let error = Validator::options()
            .with_draft(draft)
            .build(&schema)
            .unwrap_err();
        assert_eq!(
            error.kind(),
            SchemaErrorKind::DuplicateIdentifier,
            "{schema}: {error}"
        );
        for place in places {
            assert!(error.message().contains(place), "{schema}: {error}");
        }
    }
}

#[test]
fn one_name_in_separate_resources_or_on_one_schema_is_no_duplicate() {
    for schema in [
        // The same anchor name in two resources.
        json!({"$defs": {
            "a": {"$id": "https://example.com/a", "$anchor": "x"},
            "b": {"$id": "https://example.com/b", "$anchor": "x"}}}),
        // `$anchor` and `$dynamicAnchor` of one name on one schema.
        json!({"$defs": {"a": {"$anchor": "x", "$dynamicAnchor": "x"}}}),
        // A root `$id` is a second name of the document, not a second schema.
        json!({"$id": "https://example.com/root", "$ref": "https://example.com/root#/$defs/a",
               "$defs": {"a": {"type": "integer"}}}),
    ] {
        Validator::new(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
    }
}
