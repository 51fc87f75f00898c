//! The MCP profile: every acceptance case of `shared/context/mcp-tool-schemas.md`, the
//! exact bound boundaries, and hostile schemas ending within the step budget.

use mcp_jsonschema::mcp::{self, check_tools_list, text_fallback, Role, SchemaCache, ToolSchema};
use mcp_jsonschema::{SchemaErrorKind, ValidationErrorKind};
use serde_json::{json, Map, Value};
use std::time::{Duration, Instant};

fn input(schema: Value) -> ToolSchema {
    ToolSchema::input(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

fn output(schema: Value) -> ToolSchema {
    ToolSchema::output(&schema).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

#[test]
fn invalid_schemas_are_rejected_naming_the_location() {
    for (schema, location, kind) in [
        (
            json!({"type": "object", "properties": {"foo": {"type": "invalid_type"}}}),
            "/properties/foo/type",
            SchemaErrorKind::InvalidKeyword,
        ),
        (
            json!({"type": "object", "properties": {"count": {"minimum": "x"}}}),
            "/properties/count/minimum",
            SchemaErrorKind::InvalidKeyword,
        ),
        (
            json!({"type": "object", "exclusiveMinimum": true}),
            "/exclusiveMinimum",
            SchemaErrorKind::InvalidKeyword,
        ),
        (
            json!({"type": "object", "pattern": "["}),
            "/pattern",
            SchemaErrorKind::InvalidPattern,
        ),
    ] {
        let error = ToolSchema::input(&schema).unwrap_err();
        assert_eq!(
            (error.location(), error.kind()),
            (location, kind),
            "{schema}: {error}"
        );
    }
    let error =
        ToolSchema::input(&json!({"type": "object", "properties": {"count": {"minimum": "x"}}}))
            .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("/properties/count/minimum: expected number"),
        "{error}"
    );
    ToolSchema::input(&json!({"type": "object", "exclusiveMinimum": 0})).unwrap();
}

#[test]
fn only_same_document_references_are_allowed() {
    for reference in [
        "https://example.com/s.json#/$defs/x",
        "other.json#/X",
        "https://x#meta",
    ] {
        let schema = json!({"type": "object", "properties": {"a": {"$ref": reference}}});
        let error = ToolSchema::input(&schema).unwrap_err();
        assert_eq!(
            error.kind(),
            SchemaErrorKind::ForbiddenReference,
            "{reference}"
        );
        assert_eq!(error.location(), "/properties/a/$ref");
        assert!(error.to_string().contains(reference), "{error}");
    }
    let dynamic = json!({"type": "object", "$dynamicRef": "https://x/y#meta"});
    assert_eq!(
        ToolSchema::input(&dynamic).unwrap_err().kind(),
        SchemaErrorKind::ForbiddenReference
    );
    // Same-document references and URLs in data keywords are fine.
    input(json!({
        "type": "object",
        "$defs": {"x": {"type": "string", "$anchor": "meta"}},
        "definitions": {"y": {"type": "integer"}},
        "properties": {
            "a": {"$ref": "#/$defs/x"}, "b": {"$ref": "#/definitions/y"}, "c": {"$ref": "#meta"},
            "d": {"const": "https://example.com/s.json", "description": "see https://example.com/doc.json",
                  "default": "https://x#meta", "examples": ["other.json#/X"], "enum": ["https://example.com/s.json"]}
        }
    }));
}

/// A schema nested `depth` levels below the root, alternating applicator and map keywords.
fn nested(depth: u32) -> Value {
    let mut schema = json!({"type": "string"});
    for level in (0..depth).rev() {
        schema = match level % 3 {
            0 => json!({ "properties": { "x": schema } }),
            1 => json!({ "items": schema }),
            _ => json!({ "allOf": [schema] }),
        };
    }
    let mut root = schema.as_object().cloned().unwrap_or_default();
    root.insert("type".into(), json!("object"));
    Value::Object(root)
}

#[test]
fn schema_depth_64_is_accepted_and_65_rejected() {
    input(nested(mcp::MAX_SCHEMA_DEPTH));
    let error = ToolSchema::input(&nested(mcp::MAX_SCHEMA_DEPTH + 1)).unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::LimitExceeded, "{error}");
}

#[test]
fn data_keywords_add_no_depth_but_a_property_named_default_does() {
    let mut deep_data = json!("leaf");
    for _ in 0..100 {
        deep_data = json!({ "default": deep_data });
    }
    input(
        json!({"type": "object", "default": deep_data, "const": deep_data, "examples": [deep_data]}),
    );
    // `properties/default` is a subschema: 65 of them nested is too deep.
    let mut schema = json!({});
    for _ in 0..65 {
        schema = json!({"properties": {"default": schema}});
    }
    schema["type"] = json!("object");
    assert_eq!(
        ToolSchema::input(&schema).unwrap_err().kind(),
        SchemaErrorKind::LimitExceeded
    );
}

/// An input schema with exactly `count` subschemas, the root included.
fn with_subschemas(count: usize) -> Value {
    let properties: Map<String, Value> = (1..count)
        .map(|i| (format!("p{i}"), json!({"type": "integer"})))
        .collect();
    json!({"type": "object", "properties": properties})
}

#[test]
fn ten_thousand_subschemas_are_accepted_and_one_more_rejected() {
    input(with_subschemas(mcp::MAX_SUBSCHEMAS as usize));
    let error = ToolSchema::input(&with_subschemas(mcp::MAX_SUBSCHEMAS as usize + 1)).unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::LimitExceeded, "{error}");
}

#[test]
fn input_validation_cases() {
    let schema =
        json!({"type": "object", "properties": {"foo": {"type": "string"}}, "required": ["foo"]});
    let tool = input(schema.clone());
    assert!(tool.validate(&json!({"foo": "bar"})).is_ok());
    assert!(tool.validate(&json!({"foo": 123})).is_err());
    assert!(tool.validate(&json!({})).is_err());
    assert!(tool.validate(&json!({"foo": "bar", "extra": 1})).is_ok());
    let mut closed = schema;
    closed["additionalProperties"] = json!(false);
    assert!(input(closed)
        .validate(&json!({"foo": "bar", "extra": 1}))
        .is_err());
}

#[test]
fn format_is_an_annotation_unless_assertion_is_switched_on() {
    let schema = json!({"properties": {"e": {"format": "email"}}});
    assert!(input(schema.clone()).is_valid(&json!({"e": "not_an_email"})));
    let options = mcp::profile().with_format_assertion(true);
    let asserting = ToolSchema::new(Role::Input, &schema, &options).unwrap();
    assert!(!asserting.is_valid(&json!({"e": "not_an_email"})));
    assert!(asserting.is_valid(&json!({"e": "a@example.com"})));
}

#[test]
fn output_schemas_validate_any_shape() {
    let one_of = output(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}));
    assert!(
        one_of.is_valid(&json!("text"))
            && one_of.is_valid(&json!(42))
            && !one_of.is_valid(&json!(1.5))
    );
    assert!(
        one_of.to_wire().get("type").is_none(),
        "no type is injected at the root"
    );
    let by_ref = output(json!({"$ref": "#/$defs/r", "$defs": {"r": {"type": "string"}}}));
    assert!(by_ref.is_valid(&json!("text")) && !by_ref.is_valid(&json!(42)));
    assert!(output(json!({"type": "string"})).is_valid(&json!("x")));
    let colours = output(json!({"enum": ["red", "green", "blue"]}));
    assert!(colours.is_valid(&json!("red")) && !colours.is_valid(&json!("pink")));
    assert!(output(json!({"type": "null"})).is_valid(&Value::Null));
}

#[test]
fn root_type_defaulting_and_the_wire_form() {
    assert_eq!(output(json!({})).to_wire()["type"], "object");
    assert_eq!(
        output(json!({"properties": {"a": {}}})).to_wire()["type"],
        "object"
    );
    assert!(!output(json!({"properties": {"a": {}}})).is_valid(&json!([1])));
    for kept in [
        json!({"type": "array"}),
        json!({"anyOf": [{}]}),
        json!({"allOf": [{}]}),
        json!({"not": {}}),
        json!({"if": {}}),
        json!({"const": 1}),
        json!({"enum": [1]}),
    ] {
        assert_eq!(
            output(kept.clone()).to_wire().get("type"),
            kept.get("type"),
            "{kept}"
        );
    }
    let no_type = input(json!({"properties": {"a": {"type": "string"}}}));
    assert_eq!(no_type.to_wire()["type"], "object");
    assert!(!no_type.is_valid(&json!("a string")));
    assert_eq!(
        no_type.to_wire()["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let declared =
        input(json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}));
    assert_eq!(
        declared.to_wire()["$schema"],
        "http://json-schema.org/draft-07/schema#"
    );
    for bad in [
        json!(null),
        json!(true),
        json!({"type": "array"}),
        json!({"type": ["object", "null"]}),
    ] {
        assert!(ToolSchema::input(&bad).is_err(), "{bad}");
    }
}

#[test]
fn dialects_servers_emit_are_honoured_and_others_refused() {
    for uri in [
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-06/schema",
    ] {
        let tool = input(
            json!({"$schema": uri, "type": "object", "properties": {"n": {"type": "integer"}}}),
        );
        assert!(!tool.is_valid(&json!({"n": "x"})), "{uri}");
    }
    for uri in [
        "http://json-schema.org/draft-04/schema#",
        "https://example.com/custom",
    ] {
        let error = ToolSchema::input(&json!({"$schema": uri, "type": "object"})).unwrap_err();
        assert_eq!(
            error.kind(),
            SchemaErrorKind::UnknownDialect,
            "{uri}: {error}"
        );
        assert!(error.to_string().contains(uri), "{error}");
    }
}

#[test]
fn text_fallback_mirrors_non_object_results() {
    assert_eq!(
        text_fallback(&json!([1, 2]), &[]),
        Some(json!({"type": "text", "text": "[1,2]"}))
    );
    for value in [json!("s"), json!(3.5), json!(true), Value::Null, json!([])] {
        let block = text_fallback(&value, &[]).unwrap();
        assert_eq!(block["text"], value.to_string());
    }
    assert_eq!(text_fallback(&json!({"a": 1}), &[]), None);
    assert_eq!(
        text_fallback(&json!([1]), &[json!({"type": "text", "text": "already"})]),
        None
    );
    assert!(text_fallback(
        &json!([1]),
        &[json!({"type": "image", "data": "", "mimeType": "image/png"})]
    )
    .is_some());
}

#[test]
fn argument_errors_are_one_actionable_line_each() {
    let tool = input(json!({
        "type": "object",
        "properties": {"city": {"type": "string"}, "units": {"enum": ["metric", "imperial"]}},
        "required": ["city"]
    }));
    let lines: Vec<String> = tool
        .iter_errors(&json!({"units": "kelvin"}))
        .map(|e| e.to_string())
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("missing required property \"city\"")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("/units: expected one of \"metric\", \"imperial\"")),
        "{lines:?}"
    );
    assert!(lines.iter().all(|l| !l.contains('\n')));
}

#[test]
fn a_tools_list_is_checked_tool_by_tool() {
    let result = json!({"tools": [
        {"name": "good", "inputSchema": {"type": "object"}, "outputSchema": {"type": "array"}},
        {"name": "remote", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "other.json#/X"}}}},
        {"name": "bad-output", "inputSchema": {"type": "object"}, "outputSchema": {"type": "nope"}},
        {"name": "no-input"},
    ]});
    let reports = check_tools_list(&result);
    let ok: Vec<bool> = reports.iter().map(|r| r.is_ok()).collect();
    assert_eq!(ok, [true, false, false, false]);
    assert!(reports[2].problems()[0].starts_with("bad-output: outputSchema:"));
    assert_eq!(check_tools_list(&result["tools"]).len(), 4);
}

#[test]
fn the_cache_returns_one_compilation_per_schema_and_never_caches_errors() {
    let cache = SchemaCache::new(2);
    let a = cache
        .get_or_compile(Role::Input, &json!({"type": "object", "required": ["x"]}))
        .unwrap();
    // Same content, other key order: same entry.
    let reordered: Value = serde_json::from_str(r#"{"required":["x"],"type":"object"}"#).unwrap();
    let b = cache.get_or_compile(Role::Input, &reordered).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    // The role is part of the key.
    cache.get_or_compile(Role::Output, &reordered).unwrap();
    assert_eq!(cache.len(), 2);
    assert!(cache
        .get_or_compile(Role::Input, &json!({"type": "nope"}))
        .is_err());
    assert_eq!(cache.len(), 2);
    // Bounded: a third schema evicts the least recently used one.
    cache
        .get_or_compile(Role::Input, &json!({"type": "object"}))
        .unwrap();
    assert_eq!(cache.len(), 2);
    // Shared across threads.
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                assert!(cache
                    .get_or_compile(Role::Input, &json!({"type": "object"}))
                    .is_ok())
            });
        }
    });
}

/// Validates with the MCP profile and checks that it ends, invalid or exhausted, fast.
fn ends_fast(schema: Value, instance: Value) -> (bool, Duration) {
    let tool =
        ToolSchema::new(Role::Output, &schema, &mcp::profile()).unwrap_or_else(|e| panic!("{e}"));
    let start = Instant::now();
    let valid = tool.is_valid(&instance);
    let elapsed = start.elapsed();
    if let Err(error) = tool.validate(&instance) {
        assert!(!valid);
        let _ = error.kind();
    }
    (valid, elapsed)
}

#[test]
fn hostile_schemas_end_within_the_budget() {
    // Nested anyOf/oneOf over recursive references: exponential without a budget.
    let exponential = json!({
        "$defs": {"r": {"anyOf": [{"$ref": "#/$defs/r2"}, {"$ref": "#/$defs/r2"}, {"type": "null"}]},
                  "r2": {"oneOf": [{"$ref": "#/$defs/r3"}, {"$ref": "#/$defs/r3"}]},
                  "r3": {"anyOf": [{"items": {"$ref": "#/$defs/r"}}, {"items": {"$ref": "#/$defs/r"}}]}},
        "$ref": "#/$defs/r"
    });
    let mut deep = json!([1]);
    for _ in 0..30 {
        deep = json!([deep]);
    }
    let (valid, elapsed) = ends_fast(exponential, deep);
    assert!(!valid);
    // uniqueItems over a long array, and many patternProperties over many properties.
    let long: Vec<Value> = (0..100_000).map(|i| json!({"i": i % 50_000})).collect();
    let (valid_unique, _) = ends_fast(
        json!({"type": "array", "uniqueItems": true}),
        Value::Array(long),
    );
    assert!(!valid_unique);
    let patterns: Map<String, Value> = (0..2_000)
        .map(|i| (format!("^p{i}_"), json!({"type": "integer"})))
        .collect();
    let properties: Map<String, Value> = (0..20_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let (_, elapsed_patterns) = ends_fast(
        json!({"patternProperties": patterns}),
        Value::Object(properties),
    );
    // Generous bounds: debug-ish test builds on a loaded 2-core machine.
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    assert!(
        elapsed_patterns < Duration::from_secs(5),
        "{elapsed_patterns:?}"
    );
}

#[test]
fn budget_exhaustion_is_its_own_error_and_never_a_pass() {
    let options = mcp::profile().with_step_budget(50);
    // Every item passes, so the inner schema needs 1000 steps; `not` must not turn the
    // exhausted run into a pass.
    let tool = ToolSchema::new(
        Role::Output,
        &json!({"not": {"items": {"type": "integer"}}}),
        &options,
    )
    .unwrap();
    let instance = json!(vec![1; 1000]);
    assert!(!tool.is_valid(&instance));
    let errors: Vec<_> = tool.iter_errors(&instance).collect();
    assert!(
        errors
            .iter()
            .any(|e| e.kind() == ValidationErrorKind::BudgetExhausted),
        "{errors:?}"
    );
}

#[test]
fn collecting_every_error_is_paid_for_from_the_budget() {
    // An error costs 256 steps where every error is collected: under the profile's
    // 1,000,000 a run lists at most 3,906, then says first that it stopped. Without a
    // budget, every error; and `validate` stops at the first, which costs nothing extra.
    let schema = json!({"type": "array", "items": {"type": "string"}});
    let instance = json!(vec![0; 20_000]);
    let tool = ToolSchema::new(Role::Output, &schema, &mcp::profile()).unwrap();
    let errors: Vec<_> = tool.iter_errors(&instance).collect();
    assert_eq!(errors[0].kind(), ValidationErrorKind::BudgetExhausted);
    assert!((1_000..=3_907).contains(&errors.len()), "{}", errors.len());
    assert_eq!(
        tool.validate(&instance).unwrap_err().kind(),
        ValidationErrorKind::Type
    );
    let unbounded = mcp_jsonschema::Validator::new(&schema).unwrap();
    assert_eq!(unbounded.iter_errors(&instance).count(), 20_000);
}

#[test]
fn the_first_error_of_an_exhausted_run_says_so() {
    let options = mcp::profile().with_step_budget(20);
    let tool = ToolSchema::new(Role::Output, &json!({"anyOf": [{"items": {"$ref": "#/$defs/x"}}, {"type": "string"}], "$defs": {"x": {"type": "integer"}}}), &options).unwrap();
    let error = tool.validate(&json!(vec![1; 100])).unwrap_err();
    assert_eq!(
        error.kind(),
        ValidationErrorKind::BudgetExhausted,
        "{error}"
    );
}
