//! `Validator::evaluate`: the shape of each output format pinned on a schema with a
//! `$ref`, an `anyOf` and `unevaluatedProperties`, for a failing and a passing instance;
//! every format checked against the official output metaschema; annotations of failed
//! subschemas dropped; the verdict always `is_valid`'s.

use mcp_jsonschema::{Evaluation, Validator};
use serde_json::{json, Value};

fn schema() -> Value {
    json!({
        "$defs": {"pos": {"type": "integer", "minimum": 0, "title": "Pos"}},
        "properties": {
            "a": {"$ref": "#/$defs/pos"},
            "b": {"anyOf": [{"type": "string"}, {"type": "null", "title": "Null"}]}
        },
        "unevaluatedProperties": false,
        "title": "Root"
    })
}

fn evaluate(instance: Value) -> Evaluation {
    let validator = Validator::options()
        .with_annotations(true)
        .build(&schema())
        .unwrap();
    let evaluation = validator.evaluate(&instance);
    assert_eq!(evaluation.valid(), validator.is_valid(&instance));
    evaluation
}

fn failing() -> Evaluation {
    evaluate(json!({"a": -1, "b": 5, "c": 2}))
}

fn passing() -> Evaluation {
    evaluate(json!({"a": 1, "b": null}))
}

/// The error units of the failing instance, in evaluation order.
fn error_units() -> [Value; 3] {
    [
        json!({
            "valid": false,
            "keywordLocation": "/properties/b/anyOf",
            "instanceLocation": "/b",
            "error": "expected string or null, got integer 5"
        }),
        json!({
            "valid": false,
            "keywordLocation": "/properties/a/$ref/minimum",
            "absoluteKeywordLocation": "json-schema:///#/$defs/pos/minimum",
            "instanceLocation": "/a",
            "error": "-1 is less than the minimum of 0"
        }),
        json!({
            "valid": false,
            "keywordLocation": "/unevaluatedProperties",
            "instanceLocation": "/c",
            "error": "property \"c\" is not allowed"
        }),
    ]
}

/// The annotation units of the passing instance, in evaluation order: the schema
/// objects' own, then the applicator's (the names `properties` applied to).
fn annotation_units() -> [Value; 4] {
    [
        json!({"valid": true, "keywordLocation": "/title", "instanceLocation": "", "annotation": "Root"}),
        json!({
            "valid": true,
            "keywordLocation": "/properties/b/anyOf/1/title",
            "instanceLocation": "/b",
            "annotation": "Null"
        }),
        json!({
            "valid": true,
            "keywordLocation": "/properties/a/$ref/title",
            "absoluteKeywordLocation": "json-schema:///#/$defs/pos/title",
            "instanceLocation": "/a",
            "annotation": "Pos"
        }),
        json!({"valid": true, "keywordLocation": "/properties", "instanceLocation": "", "annotation": ["a", "b"]}),
    ]
}

fn root(valid: bool, children: &[Value]) -> Value {
    let key = if valid { "annotations" } else { "errors" };
    json!({"valid": valid, "keywordLocation": "", "instanceLocation": "", key: children})
}

#[test]
fn flag_is_the_verdict_alone() {
    assert_eq!(failing().flag(), json!({"valid": false}));
    assert_eq!(passing().flag(), json!({"valid": true}));
}

#[test]
fn basic_is_a_flat_list_under_a_root_unit() {
    assert_eq!(failing().basic(), root(false, &error_units()));
    assert_eq!(passing().basic(), root(true, &annotation_units()));
}

#[test]
fn detailed_nests_by_schema_object_and_condenses_single_children() {
    // Each schema object here holds one unit: condensed, the list is basic's.
    assert_eq!(failing().detailed(), root(false, &error_units()));
    assert_eq!(passing().detailed(), root(true, &annotation_units()));
}

#[test]
fn verbose_keeps_every_schema_object_level() {
    let [b, a, c] = error_units();
    assert_eq!(
        failing().verbose(),
        root(
            false,
            &[
                json!({"valid": false, "keywordLocation": "/properties/b", "instanceLocation": "/b", "errors": [b]}),
                json!({"valid": false, "keywordLocation": "/properties/a/$ref", "instanceLocation": "/a", "errors": [a]}),
                c,
            ]
        )
    );
    let [title, nullable, pos, properties] = annotation_units();
    assert_eq!(
        passing().verbose(),
        root(
            true,
            &[
                title,
                json!({"valid": true, "keywordLocation": "/properties/b/anyOf/1", "instanceLocation": "/b", "annotations": [nullable]}),
                json!({"valid": true, "keywordLocation": "/properties/a/$ref", "instanceLocation": "/a", "annotations": [pos]}),
                properties,
            ]
        )
    );
}

#[test]
fn every_format_conforms_to_the_output_metaschema() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/json-schema-test-suite/output-tests/draft2020-12/output-schema.json"
    );
    let text = std::fs::read_to_string(path).expect("run scripts/fetch-suite.sh first");
    let output_schema: Value = serde_json::from_str(&text).unwrap();
    let checker = Validator::new(&output_schema).unwrap();
    for evaluation in [failing(), passing()] {
        for output in [
            evaluation.flag(),
            evaluation.basic(),
            evaluation.detailed(),
            evaluation.verbose(),
        ] {
            let errors: Vec<String> = checker
                .iter_errors(&output)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{output}: {errors:?}");
        }
    }
}

#[test]
fn annotations_of_failed_subschemas_are_dropped() {
    let schema = json!({
        "anyOf": [{"type": "integer", "title": "Int"}, {"type": "number", "title": "Num"}],
        "not": {"title": "Never", "type": "string"},
        "if": {"title": "If", "minimum": 10},
        "then": {"title": "Then"},
        "else": {"title": "Else"}
    });
    let validator = Validator::options()
        .with_annotations(true)
        .build(&schema)
        .unwrap();
    let titles = |instance: Value| -> Vec<String> {
        let evaluation = validator.evaluate(&instance);
        (evaluation.annotations().iter())
            .map(|a| format!("{}={}", a.schema_location(), a.value()))
            .collect()
    };
    // Every passing `anyOf` branch; not the `not` subschema (it failed); the `if` test
    // only when it passed.
    assert_eq!(
        titles(json!(42)),
        [
            "/anyOf/0=\"Int\"",
            "/anyOf/1=\"Num\"",
            "/if=\"If\"",
            "/then=\"Then\""
        ]
    );
    assert_eq!(titles(json!(4.5)), ["/anyOf/1=\"Num\"", "/else=\"Else\""]);
    // A failing instance keeps none.
    assert_eq!(titles(json!("x")), Vec::<String>::new());
    assert!(!validator.evaluate(&json!("x")).valid());
}

#[test]
fn without_annotations_evaluate_still_gives_the_verdict_and_errors() {
    let validator = Validator::new(&schema()).unwrap();
    let evaluation = validator.evaluate(&json!({"a": -1}));
    assert!(!evaluation.valid());
    assert!(evaluation.annotations().is_empty());
    assert_eq!(evaluation.errors().count(), 1);
    assert!(validator.evaluate(&json!({"a": 1})).valid());
}

#[test]
fn applicators_annotate_what_they_applied_to() {
    let schema = json!({
        "properties": {"a": true},
        "patternProperties": {"^x-": true},
        "additionalProperties": {"type": "integer"},
        "prefixItems": [true],
        "items": {"type": "string"},
        "contains": {"const": "c"}
    });
    let validator = Validator::options()
        .with_annotations(true)
        .build(&schema)
        .unwrap();
    let applied = |instance: Value| -> Vec<(String, Value)> {
        let evaluation = validator.evaluate(&instance);
        (evaluation.annotations().iter())
            .map(|a| (a.keyword_location().to_string(), a.value().clone()))
            .collect()
    };
    assert_eq!(
        applied(json!({"a": 1, "x-b": 2, "c": 3})),
        [
            ("/properties".to_string(), json!(["a"])),
            ("/patternProperties".to_string(), json!(["x-b"])),
            ("/additionalProperties".to_string(), json!(["c"])),
        ]
    );
    assert_eq!(
        applied(json!([1, "b", "c"])),
        [
            ("/prefixItems".to_string(), json!(0)),
            ("/items".to_string(), json!(true)),
            ("/contains".to_string(), json!([2])),
        ]
    );
    assert_eq!(
        applied(json!(["c"])),
        [
            ("/prefixItems".to_string(), json!(true)),
            ("/contains".to_string(), json!([0])),
        ]
    );
    // A failing instance: no annotation at all.
    assert_eq!(applied(json!([1])), []);
    let unevaluated =
        json!({"properties": {"a": true}, "unevaluatedProperties": true, "unevaluatedItems": true});
    let validator = Validator::options()
        .with_annotations(true)
        .build(&unevaluated)
        .unwrap();
    let keywords: Vec<(String, Value)> = (validator
        .evaluate(&json!({"a": 1, "b": 2}))
        .annotations()
        .iter())
    .map(|a| (a.keyword().to_string(), a.value().clone()))
    .collect();
    assert_eq!(
        keywords,
        [
            ("properties".to_string(), json!(["a"])),
            ("unevaluatedProperties".to_string(), json!(["b"])),
        ]
    );
}

#[test]
fn a_cycle_only_a_skipped_branch_goes_round_keeps_the_fast_verdict() {
    // The fast pass stops at the first passing branch; collecting annotations runs the
    // second too, which applies the root to the same value forever. Found by the fuzzer.
    let schema = json!({"title": "T", "anyOf": [true, {"$ref": "#"}]});
    let validator = Validator::options()
        .with_annotations(true)
        .build(&schema)
        .unwrap();
    assert!(validator.is_valid(&json!(1)));
    let evaluation = validator.evaluate(&json!(1));
    assert!(evaluation.valid());
    assert_eq!(evaluation.errors().count(), 0);
}

#[test]
fn memory_usage_counts_the_annotating_program() {
    let plain = Validator::new(&schema()).unwrap();
    let annotating = Validator::options()
        .with_annotations(true)
        .build(&schema())
        .unwrap();
    // The second program holds at least its annotation values ("Pos", "Null", "Root").
    assert!(
        annotating.memory_usage() > plain.memory_usage() + 3,
        "{} vs {}",
        annotating.memory_usage(),
        plain.memory_usage()
    );
}
