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

/// The URIs a retriever was asked for, in order.
type Asked = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// A retriever over `documents` that records each URI it is asked for.
fn recording(
    documents: Vec<(&'static str, serde_json::Value)>,
) -> (
    impl Fn(&str) -> Result<serde_json::Value, String> + Send + Sync + 'static,
    Asked,
) {
    let asked = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = std::sync::Arc::clone(&asked);
    let retrieve = move |uri: &str| {
        log.lock().unwrap().push(uri.to_string());
        (documents.iter())
            .find(|(name, _)| *name == uri)
            .map(|(_, document)| document.clone())
            .ok_or_else(|| format!("no document at {uri}"))
    };
    (retrieve, asked)
}

#[test]
fn a_retriever_is_asked_once_for_each_document_the_references_name_and_no_other() {
    let (retrieve, asked) = recording(vec![
        (
            "file:///s/order.json",
            json!({"properties": {"to": {"$ref": "address.json"}, "from": {"$ref": "address.json#city"}}}),
        ),
        (
            "file:///s/address.json",
            json!({"required": ["city"], "properties": {"city": {"$anchor": "city", "type": "string"}}}),
        ),
        ("file:///s/unused.json", json!(false)),
    ]);
    let options = Validator::options()
        .with_base_uri("file:///s/root.json")
        .with_retriever(retrieve);
    let validator = options
        .build(&json!({"items": {"$ref": "order.json"}}))
        .unwrap();
    assert_eq!(
        *asked.lock().unwrap(),
        ["file:///s/order.json", "file:///s/address.json"]
    );
    assert!(validator.is_valid(&json!([{"to": {"city": "Oslo"}, "from": "Bergen"}])));
    assert!(!validator.is_valid(&json!([{"to": {}}])));
    assert!(!validator.is_valid(&json!([{"from": 3}])));
}

#[test]
fn what_a_retriever_cannot_supply_is_an_unresolvable_reference_with_its_reason() {
    let (retrieve, _) = recording(vec![(
        "https://example.com/a.json",
        json!({"$ref": "b.json"}),
    )]);
    let options = Validator::options().with_retriever(retrieve);
    let error = options
        .build(&json!({"properties": {"a": {"$ref": "https://example.com/a.json"}}}))
        .unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::UnresolvableReference);
    assert!(
        error
            .message()
            .contains("no document at https://example.com/b.json"),
        "{error}"
    );
    // Without a retriever the same schema names what is missing, as before.
    let error = Validator::options()
        .build(&json!({"$ref": "https://example.com/a.json"}))
        .unwrap_err();
    assert_eq!(
        error.message(),
        "cannot resolve reference \"https://example.com/a.json\" (no such resource)"
    );
}

#[test]
fn retrieval_is_bounded_and_never_happens_under_the_same_document_policy() {
    // Each document names a new one: the retriever is not asked forever.
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = std::sync::Arc::clone(&asked);
    let endless = move |uri: &str| {
        count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Ok(json!({"$ref": format!("{uri}x")}))
    };
    let error = Validator::options()
        .with_retriever(endless)
        .build(&json!({"$ref": "https://example.com/x"}))
        .unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::LimitExceeded, "{error}");
    assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 256);

    let (retrieve, asked) = recording(vec![("https://example.com/a.json", json!(true))]);
    let error = mcp_jsonschema::mcp::profile()
        .with_retriever(retrieve)
        .build(&json!({"$ref": "https://example.com/a.json"}))
        .unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::ForbiddenReference);
    assert!(asked.lock().unwrap().is_empty());
}

#[test]
fn the_base_uri_must_be_absolute_and_a_root_id_overrides_it() {
    let error = Validator::options()
        .with_base_uri("schemas/root.json")
        .build(&json!({}))
        .unwrap_err();
    assert!(error.message().contains("not absolute"), "{error}");
    let options = Validator::options()
        .with_base_uri("file:///a/root.json")
        .with_resource("file:///a/t.json", json!({"type": "string"}))
        .with_resource("https://example.com/t.json", json!({"type": "integer"}));
    let by_file = options.build(&json!({"$ref": "t.json"})).unwrap();
    assert!(by_file.is_valid(&json!("x")));
    let by_id = (options.build(&json!({"$id": "https://example.com/root.json", "$ref": "t.json"})))
        .unwrap();
    assert!(by_id.is_valid(&json!(1)) && !by_id.is_valid(&json!("x")));
}
