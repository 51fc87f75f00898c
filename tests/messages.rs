//! What a failing tool call is told: the branch of an `anyOf` / `oneOf` that explains the
//! failure best, and hints for the slips models make, on MCP-shaped schemas (pydantic,
//! zod, discriminated unions). Each test pins the whole one-line (or multi-line) text a
//! client would show, so a change of wording is a visible decision.

use mcp_jsonschema::{ErrorDetails, ValidationError, ValidationErrorKind, Validator};
use serde_json::{json, Value};
use std::borrow::Cow;

fn first_error(schema: &Value, instance: &Value) -> ValidationError {
    let validator = Validator::new(schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
    assert!(!validator.is_valid(instance), "{instance} should fail");
    validator.validate(instance).unwrap_err()
}

fn message(schema: &Value, instance: &Value) -> String {
    first_error(schema, instance).to_string()
}

/// A pydantic v2 tool: `Optional[int]` is `anyOf` with `{"type": "null"}`.
fn pydantic() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "title": "City"},
            "days": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
            "units": {"anyOf": [{"enum": ["metric", "imperial"]}, {"type": "null"}]}
        },
        "required": ["city"],
        "additionalProperties": false
    })
}

/// A zod discriminated union, as zod-to-json-schema writes it.
fn zod_union() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "shape": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {"kind": {"type": "string", "const": "circle"}, "radius": {"type": "number"}},
                        "required": ["kind", "radius"],
                        "additionalProperties": false
                    },
                    {
                        "type": "object",
                        "properties": {"kind": {"type": "string", "const": "rect"}, "width": {"type": "number"}, "height": {"type": "number"}},
                        "required": ["kind", "width", "height"],
                        "additionalProperties": false
                    }
                ]
            }
        },
        "required": ["shape"],
        "additionalProperties": false
    })
}

#[test]
fn an_optional_type_names_every_type_it_takes() {
    assert_eq!(
        message(&pydantic(), &json!({"city": "Paris", "days": true})),
        "/days: expected integer or null, got boolean true"
    );
}

#[test]
fn a_json_encoded_value_is_told_to_be_sent_as_itself() {
    let schema = json!({
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "count": {"type": "integer"},
            "strict": {"type": "boolean"},
            "filter": {"type": "object"}
        }
    });
    for (instance, expected) in [
        (
            json!({"tags": "[\"a\", \"b\"]"}),
            "/tags: expected array, got string \"[\\\"a\\\", \\\"b\\\"]\"; send the array itself, not a JSON-encoded string",
        ),
        (
            json!({"count": "1"}),
            "/count: expected integer, got string \"1\"; send the number itself, not a JSON-encoded string",
        ),
        (
            json!({"strict": "true"}),
            "/strict: expected boolean, got string \"true\"; send the boolean itself, not a JSON-encoded string",
        ),
        (
            json!({"filter": "{\"a\": 1}"}),
            "/filter: expected object, got string \"{\\\"a\\\": 1}\"; send the object itself, not a JSON-encoded string",
        ),
        // Not the JSON text of an expected type: no hint.
        (
            json!({"count": "1.5"}),
            "/count: expected integer, got string \"1.5\"",
        ),
        (
            json!({"tags": "a, b"}),
            "/tags: expected array, got string \"a, b\"",
        ),
    ] {
        assert_eq!(message(&schema, &instance), expected, "{instance}");
    }
    // Through an optional type too.
    assert_eq!(
        message(&pydantic(), &json!({"city": "Paris", "days": "3"})),
        "/days: expected integer or null, got string \"3\"; send the number itself, not a JSON-encoded string"
    );
}

#[test]
fn null_for_an_optional_property_is_told_to_be_left_out() {
    let schema = json!({
        "type": "object",
        "properties": {"city": {"type": "string"}, "note": {"type": "string"}},
        "required": ["city"]
    });
    assert_eq!(
        message(&schema, &json!({"city": "Paris", "note": null})),
        "/note: expected string, got null; omit the property instead of sending null"
    );
    // A required property cannot be left out: no such hint.
    assert_eq!(
        message(&schema, &json!({"city": null})),
        "/city: expected string, got null"
    );
    // Nor when the table cannot tell (a `required` naming a property it does not list).
    let unsure = json!({
        "properties": {"city": {"type": "string"}},
        "required": ["city", "elsewhere"]
    });
    assert_eq!(
        message(&unsure, &json!({"city": null, "elsewhere": 1})),
        "/city: expected string, got null"
    );
}

#[test]
fn an_unknown_property_close_to_an_allowed_one_is_named() {
    assert_eq!(
        message(&pydantic(), &json!({"cty": "Paris"})),
        "/cty: property \"cty\" is not allowed; did you mean \"city\"?"
    );
    assert_eq!(
        message(&pydantic(), &json!({"city": "Paris", "Units": "metric"})),
        "/Units: property \"Units\" is not allowed; did you mean \"units\"?"
    );
    // Nothing close: no guess.
    assert_eq!(
        message(&pydantic(), &json!({"city": "Paris", "verbose": true})),
        "/verbose: property \"verbose\" is not allowed"
    );
}

#[test]
fn a_discriminated_union_reports_the_branch_its_tag_selects() {
    let error = first_error(
        &zod_union(),
        &json!({"shape": {"kind": "rect", "width": 2, "height": "3"}}),
    );
    assert_eq!(error.kind(), ValidationErrorKind::AnyOf);
    assert_eq!(error.instance_location(), "/shape");
    assert_eq!(error.schema_location(), "/properties/shape/anyOf");
    assert_eq!(error.context().len(), 1);
    assert_eq!(error.context()[0].instance_location(), "/shape/height");
    assert_eq!(
        error.to_string(),
        "/shape: {\"height\":\"3\",\"kind\":\"rect\",\"width\":2} is not valid under any of the \
         schemas in anyOf; the closest is #1\n  \
         /shape/height: expected number, got string \"3\"; send the number itself, not a JSON-encoded string"
    );
    // The tag of the other branch selects it.
    assert_eq!(
        message(&zod_union(), &json!({"shape": {"kind": "circle"}})),
        "/shape: {\"kind\":\"circle\"} is not valid under any of the schemas in anyOf; the closest is #0\n  \
         /shape: missing required property \"radius\""
    );
}

#[test]
fn a_one_of_of_objects_reports_the_deepest_failure_then_the_fewest_errors() {
    let schema = json!({
        "oneOf": [
            {
                "type": "object",
                "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "maximum": 50}},
                "required": ["query"]
            },
            {
                "type": "object",
                "properties": {"id": {"type": "string"}},
                "required": ["id"],
                "additionalProperties": false
            }
        ]
    });
    // The first branch fails below the value (at /limit), the second on the value itself.
    assert_eq!(
        message(&schema, &json!({"query": "rust", "limit": 100})),
        "(root): {\"limit\":100,\"query\":\"rust\"} is not valid under any of the schemas in oneOf; \
         the closest is #0\n  /limit: 100 is greater than the maximum of 50"
    );
    // The second fails deeper (a property it does not allow).
    assert_eq!(
        message(&schema, &json!({"other": 1})),
        "(root): {\"other\":1} is not valid under any of the schemas in oneOf; the closest is #1\n  \
         (root): missing required property \"id\"\n  \
         /other: property \"other\" is not allowed"
    );
    // Both fail at the value: the one with fewer errors.
    assert_eq!(
        message(&schema, &json!({"id": 1, "query": 2})),
        "(root): {\"id\":1,\"query\":2} is not valid under any of the schemas in oneOf; the closest is #0\n  \
         /query: expected string, got integer 2"
    );
    // Several branches passing are named.
    let overlapping = json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]});
    assert_eq!(
        message(&overlapping, &json!(3)),
        "(root): 3 is valid under more than one of the schemas in oneOf (#0 and #1)"
    );
    // A `oneOf` whose branches exclude one another stops at the first that passes, and
    // still explains a failure as a `oneOf`.
    let color = json!({"oneOf": [{"enum": ["red", "blue"]}, {"pattern": "^#[0-9a-f]{6}$"}]});
    assert!(Validator::new(&color).unwrap().is_valid(&json!("red")));
    let error = first_error(&color, &json!("teal"));
    assert_eq!(
        (error.kind(), error.schema_location()),
        (ValidationErrorKind::OneOf, "/oneOf")
    );
    assert!(
        error
            .to_string()
            .contains("is not valid under any of the schemas in oneOf"),
        "{error}"
    );
}

#[test]
fn iter_errors_keeps_every_branch() {
    let validator = Validator::new(&zod_union()).unwrap();
    let instance = json!({"shape": {"kind": "rect", "width": 2, "height": "3"}});
    let errors: Vec<ValidationError> = validator.iter_errors(&instance).collect();
    let lines: Vec<(String, ValidationErrorKind)> = errors
        .iter()
        .map(|e| (e.instance_location().to_string(), e.kind()))
        .collect();
    assert_eq!(
        lines,
        [
            ("/shape".to_string(), ValidationErrorKind::AnyOf),
            // Branch #0: missing radius, two properties it does not allow, wrong tag.
            ("/shape".to_string(), ValidationErrorKind::Required),
            ("/shape/height".to_string(), ValidationErrorKind::Unexpected),
            ("/shape/kind".to_string(), ValidationErrorKind::Const),
            ("/shape/width".to_string(), ValidationErrorKind::Unexpected),
            // Branch #1.
            ("/shape/height".to_string(), ValidationErrorKind::Type),
        ]
    );
    assert_eq!(errors[0].context().len(), 1);
}

#[test]
fn errors_agree_with_the_verdict_when_explanations_run_out_of_budget() {
    // Nested unions whose explanations re-run their branches: a tight budget may end the
    // explanation, never the verdict, and never with a pass.
    let mut schema = json!({"type": "integer"});
    for _ in 0..12 {
        schema = json!({"anyOf": [
            {"type": "object", "properties": {"a": schema.clone()}, "required": ["a"]},
            {"type": "object", "properties": {"b": schema.clone()}, "required": ["b"]}
        ]});
    }
    let mut instance = json!("x");
    for _ in 0..12 {
        instance = json!({"a": instance.clone(), "b": instance});
    }
    for steps in [10, 1_000, 100_000, 10_000_000] {
        let validator = mcp_jsonschema::ValidationOptions::default()
            .with_step_budget(steps)
            .build(&schema)
            .unwrap();
        assert!(!validator.is_valid(&instance));
        assert!(validator.validate(&instance).is_err(), "{steps}");
        assert!(validator.iter_errors(&instance).next().is_some(), "{steps}");
    }
}

#[test]
fn errors_name_their_keyword_and_both_error_types_display_alike() {
    let schema = json!({
        "type": "object",
        "properties": {
            "n": {"type": "integer", "maximum": 3},
            "tag": {"anyOf": [{"type": "string", "minLength": 2}, {"type": "null"}]},
            "never": false
        },
        "required": ["n"],
        "additionalProperties": false
    });
    let validator = Validator::new(&schema).unwrap();
    let keywords = |instance: Value| -> Vec<Option<String>> {
        validator
            .iter_errors(&instance)
            .map(|e| e.keyword().map(str::to_string))
            .collect()
    };
    let some = |k: &str| Some(k.to_string());
    assert_eq!(keywords(json!([])), [some("type")]);
    assert_eq!(keywords(json!({})), [some("required")]);
    assert_eq!(keywords(json!({"n": 5})), [some("maximum")]);
    assert_eq!(
        keywords(json!({"n": 1, "x": 1})),
        [some("additionalProperties")]
    );
    assert_eq!(keywords(json!({"n": 1, "never": 1})), [None]);
    assert_eq!(
        keywords(json!({"n": 1, "tag": "a"})),
        [some("anyOf"), some("minLength")]
    );
    let unevaluated = Validator::new(&json!({"unevaluatedProperties": false})).unwrap();
    let error = unevaluated.validate(&json!({"a": 1})).unwrap_err();
    assert_eq!(error.keyword(), Some("unevaluatedProperties"));
    // `location: message`, for schema errors too.
    let schema_error = Validator::new(&json!({"properties": {"n": {"minimum": "x"}}})).unwrap_err();
    assert!(
        schema_error
            .to_string()
            .starts_with("/properties/n/minimum: "),
        "{schema_error}"
    );
    let root_error = Validator::new(&json!(3)).unwrap_err();
    assert!(
        root_error.to_string().starts_with("(root): "),
        "{root_error}"
    );
}

#[test]
fn errors_carry_their_operands() {
    let schema = json!({
        "type": "object",
        "properties": {
            "days": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "units": {"enum": ["metric", "imperial"]},
            "city": {"type": "string", "minLength": 2, "pattern": "^[A-Z]"},
            "hours": {"type": "array", "maxItems": 2},
            "lat": {"type": "number", "maximum": 90, "multipleOf": 0.5},
            "lon": {"type": "number"},
            "kind": {"const": "forecast"}
        },
        "required": ["city"],
        "dependentRequired": {"lat": ["lon"]},
        "additionalProperties": false
    });
    let validator = Validator::new(&schema).unwrap();
    let details = |instance: Value| -> Vec<Option<ErrorDetails>> {
        validator
            .iter_errors(&instance)
            .map(|e| e.details().map(Cow::into_owned))
            .collect()
    };
    let one = |instance: Value| {
        let found = details(instance.clone());
        assert_eq!(found.len(), 1, "{instance}: {found:?}");
        found.into_iter().next().flatten()
    };
    assert_eq!(
        one(json!({"city": "Oslo", "days": true})),
        Some(ErrorDetails::Type {
            expected: vec!["integer", "null"],
            actual: "boolean"
        })
    );
    assert_eq!(
        one(json!({"city": "Oslo", "units": "kelvin"})),
        Some(ErrorDetails::Enum {
            options: vec![json!("metric"), json!("imperial")]
        })
    );
    assert_eq!(
        one(json!({"city": "O"})),
        Some(ErrorDetails::Length {
            keyword: "minLength",
            limit: 2,
            actual: 1
        })
    );
    assert_eq!(
        one(json!({"city": "oslo"})),
        Some(ErrorDetails::Pattern {
            pattern: "^[A-Z]".into()
        })
    );
    assert_eq!(
        one(json!({"city": "Oslo", "hours": [1, 2, 3]})),
        Some(ErrorDetails::Size {
            keyword: "maxItems",
            limit: 2,
            actual: 3
        })
    );
    assert_eq!(
        one(json!({"city": "Oslo", "lat": 91, "lon": 0})),
        Some(ErrorDetails::Range {
            keyword: "maximum",
            limit: 90.into()
        })
    );
    assert_eq!(
        one(json!({"city": "Oslo", "lat": 1.2, "lon": 0})),
        Some(ErrorDetails::MultipleOf {
            divisor: serde_json::Number::from_f64(0.5).unwrap()
        })
    );
    assert_eq!(
        one(json!({"city": "Oslo", "kind": "x"})),
        Some(ErrorDetails::Const {
            expected: json!("forecast")
        })
    );
    assert_eq!(
        one(json!({})),
        Some(ErrorDetails::Required {
            missing: "city".into(),
            because: None
        })
    );
    assert_eq!(
        one(json!({"city": "Oslo", "lat": 1})),
        Some(ErrorDetails::Required {
            missing: "lon".into(),
            because: Some("lat".into())
        })
    );
    assert_eq!(
        one(json!({"city": "Oslo", "wind": 1})),
        Some(ErrorDetails::Unexpected {
            property: "wind".into()
        })
    );
}

/// An unexpected property's details are read from the error's instance location, not
/// kept: the name comes back whole, however the pointer escapes it and wherever the
/// error sits (nested, inside a union's context, `unevaluatedProperties`, listed).
#[test]
fn unexpected_properties_are_named_from_the_location() {
    let unexpected = |property: &str| {
        Some(ErrorDetails::Unexpected {
            property: property.into(),
        })
    };
    let nested = Validator::new(&json!({
        "properties": {"a/b": {"properties": {"x": true}, "additionalProperties": false}},
        "unevaluatedProperties": false
    }))
    .unwrap();
    for key in ["~", "/", "a~1b", "~0/~1", "", "é ü", "0", "wind"] {
        let error = nested.validate(&json!({"a/b": {key: 1}})).unwrap_err();
        assert_eq!(
            error.details().as_deref(),
            unexpected(key).as_ref(),
            "{key:?}"
        );
        assert_eq!(error.kind(), ValidationErrorKind::Unexpected);
        let error = nested.validate(&json!({key: 1})).unwrap_err();
        assert_eq!(
            error.details().as_deref(),
            unexpected(key).as_ref(),
            "{key:?}"
        );
        assert_eq!(error.keyword(), Some("unevaluatedProperties"));
    }
    // A closed branch of a union, explained as the context of its error.
    let union = Validator::new(&json!({"oneOf": [
        {"properties": {"k": {"const": 1}, "x~y": {"type": "object", "additionalProperties": false}}, "required": ["k"]},
        {"properties": {"k": {"const": 2}}, "required": ["k"]}
    ]}))
    .unwrap();
    let error = union
        .validate(&json!({"k": 1, "x~y": {"n/m": 0}}))
        .unwrap_err();
    let context = error.context();
    assert_eq!(context.len(), 1, "{error}");
    assert_eq!(context[0].instance_location(), "/x~0y/n~1m");
    assert_eq!(context[0].details().as_deref(), unexpected("n/m").as_ref());
    let listed: Vec<_> = (union.iter_errors(&json!({"k": 1, "x~y": {"n/m": 0}})))
        .flat_map(|e| {
            let context: Vec<_> = e
                .context()
                .iter()
                .map(|c| c.details().map(Cow::into_owned))
                .collect();
            context
        })
        .collect();
    assert_eq!(listed, vec![unexpected("n/m")]);
    // The items of a closed tuple are `Unexpected` too, but name no property.
    let tuple = Validator::new(&json!({"prefixItems": [true], "items": false})).unwrap();
    let error = tuple.validate(&json!([1, 2])).unwrap_err();
    assert_eq!(error.kind(), ValidationErrorKind::Unexpected);
    assert_eq!(error.details(), None);
}

/// Each name `required` lists that the object lacks is an error of its own: one keyword
/// at one place, but not the same error twice.
#[test]
fn every_missing_property_is_listed() {
    let validator = Validator::new(&json!({
        "properties": {"n": {"type": "integer"}},
        "required": ["n", "city", "country"],
        "dependentRequired": {"n": ["unit", "scale"]}
    }))
    .unwrap();
    let messages = |instance: Value| -> Vec<String> {
        (validator.iter_errors(&instance))
            .map(|e| e.message().to_owned())
            .collect()
    };
    assert_eq!(
        messages(json!({})),
        [
            r#"missing required property "n""#,
            r#"missing required property "city""#,
            r#"missing required property "country""#
        ]
    );
    assert_eq!(
        messages(json!({"n": 1, "city": "Oslo", "country": "NO"})),
        [
            r#"missing property "unit", required when "n" is present"#,
            r#"missing property "scale", required when "n" is present"#
        ]
    );
    // The evaluation (and so the output formats) lists them alike.
    let evaluated: Vec<String> = (validator.evaluate(&json!({})).errors())
        .map(|e| e.message().to_owned())
        .collect();
    assert_eq!(evaluated, messages(json!({})));
}

/// A missing property's details are read from the message, which quotes the name: it
/// comes back whole whatever characters it has, masked or not, listed or first, and for
/// the tag a discriminated union lacks (whose message goes on after the name).
#[test]
fn missing_properties_are_named_from_the_message() {
    let missing = |name: &str| {
        Some(ErrorDetails::Required {
            missing: name.into(),
            because: None,
        })
    };
    for name in [
        "city",
        "",
        "a\"b",
        "back\\slash",
        "line\nbreak",
        "\u{1}",
        "é ü",
        "x; y",
    ] {
        let schema = json!({"properties": {"n": {"type": "integer"}}, "required": ["n", name]});
        for masked in [false, true] {
            let validator = Validator::options()
                .with_masked_errors(masked)
                .build(&schema)
                .unwrap();
            let error = validator.validate(&json!({"n": 1})).unwrap_err();
            assert_eq!(error.kind(), ValidationErrorKind::Required);
            assert_eq!(
                error.details().as_deref(),
                missing(name).as_ref(),
                "{error}"
            );
            assert_eq!(error.masked().details().as_deref(), missing(name).as_ref());
            assert_eq!(error.keyword(), Some("required"));
            let listed: Vec<_> = validator
                .iter_errors(&json!({}))
                .map(|e| e.details().map(Cow::into_owned))
                .collect();
            assert_eq!(listed, vec![missing("n"), missing(name)]);
        }
    }
    let shape = Validator::new(&json!({"oneOf": [
        {"properties": {"kind": {"const": "circle"}}, "required": ["kind"]},
        {"properties": {"kind": {"const": "square"}}, "required": ["kind"]}
    ]}))
    .unwrap();
    let listed: Vec<_> = shape.iter_listed_errors(&json!({"radius": 1})).collect();
    let [error] = &listed[..] else {
        panic!("one error expected: {listed:?}");
    };
    assert!(error
        .message()
        .starts_with("missing required property \"kind\": "));
    assert_eq!(error.details().as_deref(), missing("kind").as_ref());
}

#[test]
fn the_null_hint_goes_only_on_errors_the_null_property_caused() {
    // Two tables of one conjunction: `a` is named (and optional) in the second; the
    // first rejects it through `additionalProperties`. That error is not the named
    // property's, so it gets no hint; `validate` and `iter_errors` agree. (Fuzzer.)
    let schema = json!({"allOf": [
        {"additionalProperties": {"type": "object"}},
        {"properties": {"a": {"const": "a"}}}
    ]});
    let validator = Validator::new(&schema).unwrap();
    let instance = json!({"a": null});
    let first = validator.validate(&instance).unwrap_err();
    let all: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| e.to_string())
        .collect();
    assert!(all.contains(&first.to_string()), "{first} not in {all:?}");
    assert!(
        all.iter().all(|e| !e.contains("omit the property")),
        "{all:?}"
    );
}

#[test]
fn counts_take_the_noun_they_count() {
    let cases = [
        (
            json!({"minLength": 1}),
            json!(""),
            "(root): \"\" is shorter than 1 character",
        ),
        (
            json!({"maxLength": 2}),
            json!("abc"),
            "(root): \"abc\" is longer than 2 characters",
        ),
        (
            json!({"minItems": 1}),
            json!([]),
            "(root): expected at least 1 item, got 0",
        ),
        (
            json!({"maxItems": 1}),
            json!([1, 2]),
            "(root): expected at most 1 item, got 2",
        ),
        (
            json!({"minProperties": 1}),
            json!({}),
            "(root): expected at least 1 property, got 0",
        ),
        (
            json!({"maxProperties": 1}),
            json!({"a": 1, "b": 2}),
            "(root): expected at most 1 property, got 2",
        ),
        (
            json!({"minProperties": 2}),
            json!({}),
            "(root): expected at least 2 properties, got 0",
        ),
    ];
    for (schema, instance, expected) in cases {
        assert_eq!(message(&schema, &instance), expected, "{schema}");
    }
}

#[test]
fn a_string_cut_short_keeps_its_closing_quote() {
    let long = "x".repeat(200);
    let text = message(&json!({"maxLength": 5}), &json!(long));
    assert_eq!(
        text,
        format!(
            "(root): \"{}...\" is longer than 5 characters",
            "x".repeat(55)
        )
    );
}

#[test]
fn an_error_reads_its_schema_location_after_its_validator_is_gone_on_any_thread() {
    fn assert_shareable<T: Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe>() {}
    assert_shareable::<ValidationError>();
    let schema = json!({
        "$defs": {"port": {"type": "integer", "maximum": 65535}},
        "properties": {"a": {"$ref": "#/$defs/port"}, "b": {"$ref": "#/$defs/port"}}
    });
    let errors: Vec<ValidationError> = {
        let validator = Validator::new(&schema).unwrap();
        validator
            .iter_errors(&json!({"a": 70000, "b": "x"}))
            .collect()
    };
    let read = |errors: &[ValidationError]| -> Vec<(String, String)> {
        let pair = |e: &ValidationError| (e.instance_location().into(), e.schema_location().into());
        errors.iter().map(pair).collect()
    };
    let expected = [
        ("/a".to_string(), "/$defs/port/maximum".to_string()),
        ("/b".to_string(), "/$defs/port/type".to_string()),
    ];
    let copies = errors.clone();
    let elsewhere = std::thread::spawn(move || read(&copies)).join().unwrap();
    assert_eq!(elsewhere, expected);
    assert_eq!(read(&errors), expected);
    assert_eq!(errors[0].keyword(), Some("maximum"));
}
