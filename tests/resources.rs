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
