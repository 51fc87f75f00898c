//! Masked errors carry no instance data: every kind of error, on instances full of a
//! marker (in strings, nested values, array items, numbers and property values), through
//! `ValidationError::masked` on an unmasked validator's errors and through a validator
//! built `with_masked_errors(true)`: messages, displays, context lines, details and the
//! error texts of `evaluate`'s output formats. The two ways agree, and the masked
//! messages still name the types, bounds and schema operands that make them useful.
//!
//! Every `ValidationErrorKind` and `ErrorDetails` variant must be met: both enums are
//! `#[non_exhaustive]`, so no match outside the crate can be exhaustive; their variants
//! are read from `src/error/mod.rs` instead, and a variant no case produces fails the test.

use mcp_jsonschema::{ValidationError, ValidationOptions, Validator};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::collections::BTreeSet;

/// The marker in strings and property names.
const MARKER: &str = "S3CR3T";
/// The marker in numbers.
const MARKER_NUMBER: &str = "987654321";

/// Whether `text` holds instance data.
fn leaks(text: &str) -> bool {
    text.contains(MARKER) || text.contains(MARKER_NUMBER)
}

/// One failing instance: the options and schema, the instance, the masked display of its
/// first error, and whether the unmasked one quotes the instance.
struct Case {
    options: ValidationOptions,
    schema: Value,
    instance: Value,
    masked: String,
    quotes: bool,
}

fn case(schema: Value, instance: Value, masked: &str, quotes: bool) -> Case {
    Case {
        options: Validator::options(),
        schema,
        instance,
        masked: masked.to_string(),
        quotes,
    }
}

fn with(options: ValidationOptions, case: Case) -> Case {
    Case { options, ..case }
}

fn cases() -> Vec<Case> {
    // Past what a masked error can count from its message's start (511 bytes): a name
    // too long for a suggestion, and the options of a long `enum`.
    let long_key = MARKER.repeat(100);
    let options: Vec<String> = (0..40).map(|i| format!("option-{i:02}")).collect();
    let listed: Vec<String> = options.iter().map(|o| format!("\"{o}\"")).collect();
    vec![
        // FalseSchema: a `false` subschema, and `unevaluatedItems: false` on an item.
        case(
            json!({"properties": {"never": false}}),
            json!({"never": {"note": MARKER, "n": 987654321}}),
            "/never: object is not allowed here",
            true,
        ),
        case(
            json!({"prefixItems": [{"type": "integer"}], "unevaluatedItems": false}),
            json!([987654321, [MARKER]]),
            "/1: array is not allowed here",
            true,
        ),
        // Type: the value left out (its type is named), hints kept.
        case(
            json!({"properties": {"token": {"type": "integer"}}}),
            json!({"token": MARKER}),
            "/token: expected integer, got string",
            true,
        ),
        case(
            json!({"properties": {"tags": {"type": "array"}}}),
            json!({"tags": format!("[\"{MARKER}\", 987654321]")}),
            "/tags: expected array, got string; send the array itself, not a JSON-encoded string",
            true,
        ),
        case(
            json!({"type": "object", "properties": {"days": {"type": "integer"}, "note": {"type": "string"}}}),
            json!({"days": null, "note": MARKER}),
            "/days: expected integer, got null; omit the property instead of sending null",
            false,
        ),
        case(
            json!({"properties": {"days": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}),
            json!({"days": [MARKER]}),
            "/days: expected integer or null, got array",
            true,
        ),
        case(
            json!({"type": "integer"}),
            json!(987654321.5),
            "(root): expected integer, got number",
            true,
        ),
        // Const and Enum: the schema's values, the instance's type.
        case(
            json!({"properties": {"kind": {"const": "forecast"}}}),
            json!({"kind": {MARKER: 987654321}}),
            "/kind: expected \"forecast\", got object",
            true,
        ),
        case(
            json!({"properties": {"units": {"enum": ["metric", "imperial"]}}}),
            json!({"units": MARKER}),
            "/units: expected one of \"metric\", \"imperial\", got string",
            true,
        ),
        case(
            json!({"enum": options}),
            json!(MARKER),
            &format!("(root): expected one of {}, got string", listed.join(", ")),
            true,
        ),
        case(
            json!({"enum": [1, [2]]}),
            json!([987654321, MARKER]),
            "(root): expected one of 1, [2], got array",
            true,
        ),
        // Range and MultipleOf: the bound, the number's type.
        case(
            json!({"properties": {"lat": {"maximum": 90}}}),
            json!({"lat": 987654321}),
            "/lat: integer is greater than the maximum of 90",
            true,
        ),
        case(
            json!({"exclusiveMinimum": 0}),
            json!(-987654321.5),
            "(root): number is not greater than the exclusive minimum of 0",
            true,
        ),
        case(
            json!({"multipleOf": 0.5}),
            json!(987654321.3),
            "(root): number is not a multiple of 0.5",
            true,
        ),
        // Length, Pattern, Format: the bound, the pattern, the format's name.
        case(
            json!({"maxLength": 3}),
            json!(MARKER),
            "(root): string is longer than 3 characters",
            true,
        ),
        case(
            json!({"items": {"minLength": 10}}),
            json!([MARKER]),
            "/0: string is shorter than 10 characters",
            true,
        ),
        case(
            json!({"pattern": "^[a-z]+$"}),
            json!(MARKER),
            "(root): string does not match the pattern \"^[a-z]+$\"",
            true,
        ),
        // A property name checked as a value: only its location names it.
        case(
            json!({"propertyNames": {"pattern": "^[a-z]+$"}}),
            json!({MARKER: 1}),
            "/S3CR3T: string does not match the pattern \"^[a-z]+$\"",
            true,
        ),
        with(
            Validator::options().with_format_assertion(true),
            case(
                json!({"properties": {"email": {"format": "email"}}}),
                json!({"email": MARKER}),
                "/email: string is not a valid \"email\"",
                true,
            ),
        ),
        // Size, UniqueItems, Contains: counts only, unmasked too.
        case(
            json!({"maxItems": 1}),
            json!([MARKER, 987654321]),
            "(root): expected at most 1 item, got 2",
            false,
        ),
        case(
            json!({"minProperties": 3}),
            json!({"a": MARKER, "b": 987654321}),
            "(root): expected at least 3 properties, got 2",
            false,
        ),
        case(
            json!({"uniqueItems": true}),
            json!([MARKER, MARKER]),
            "(root): array items are not unique",
            false,
        ),
        case(
            json!({"contains": {"type": "integer"}, "minContains": 2}),
            json!([MARKER, 987654321]),
            "(root): expected at least 2 items matching the contains schema, found 1",
            false,
        ),
        // Required: the schema's names.
        case(
            json!({"required": ["city"]}),
            json!({"note": MARKER}),
            "(root): missing required property \"city\"",
            false,
        ),
        case(
            json!({"dependentRequired": {"lat": ["lon"]}}),
            json!({"lat": MARKER}),
            "(root): missing property \"lon\", required when \"lat\" is present",
            false,
        ),
        // AnyOf, OneOf, Not: the value's type, the branch numbers, masked context.
        case(
            json!({"anyOf": [{"type": "string", "maxLength": 2}, {"type": "integer"}]}),
            json!(MARKER),
            "(root): string is not valid under any of the schemas in anyOf; the closest is #0\n  \
             (root): string is longer than 2 characters",
            true,
        ),
        case(
            json!({"oneOf": [
                {"properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}, "required": ["kind", "radius"]},
                {"properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]}
            ]}),
            json!({"kind": "square", "side": format!("{MARKER}"), "note": 987654321}),
            "(root): object is not valid under any of the schemas in oneOf; the closest is #1\n  \
             /side: expected number, got string",
            true,
        ),
        case(
            json!({"oneOf": [{"type": "string"}, {"minLength": 1}]}),
            json!(MARKER),
            "(root): string is valid under more than one of the schemas in oneOf (#0 and #1)",
            true,
        ),
        case(
            json!({"properties": {"x": {"not": {"type": "array"}}}}),
            json!({"x": [MARKER, 987654321]}),
            "/x: array must not be valid under the schema in not",
            true,
        ),
        // Unexpected: the name only in the location; a suggestion is the schema's.
        case(
            json!({"properties": {"city": {}}, "additionalProperties": false}),
            json!({"cty": MARKER}),
            "/cty: property is not allowed; did you mean \"city\"?",
            false,
        ),
        case(
            json!({"properties": {"city": {}}, "additionalProperties": false}),
            json!({MARKER: 987654321}),
            "/S3CR3T: property is not allowed",
            true,
        ),
        // A name too long for a suggestion, quoted whole: placed from both ends.
        case(
            json!({"unevaluatedProperties": false}),
            json!({long_key.clone(): MARKER}),
            &format!("/{long_key}: property is not allowed"),
            true,
        ),
        case(
            json!({"prefixItems": [{}], "items": false}),
            json!([1, MARKER]),
            "(root): expected at most 1 item, got 2",
            false,
        ),
        // The stops: no value to quote.
        with(
            Validator::options().with_max_instance_depth(3),
            case(
                json!({"properties": {"a": {"$ref": "#"}}}),
                json!({"a": {"a": {"a": {"a": {"a": MARKER}}}}}),
                "/a/a/a: validation nesting exceeds the depth limit",
                false,
            ),
        ),
        with(
            Validator::options().with_step_budget(2),
            case(
                json!({"properties": {"a": {"not": {"type": "null"}}, "b": {"type": "string"}}}),
                json!({"a": MARKER, "b": 987654321}),
                "(root): validation step budget exhausted before a verdict",
                false,
            ),
        ),
        case(
            json!({"type": "object", "properties": {"a": {"type": "string"}},
                   "anyOf": [{"required": ["a"]}, {"$ref": "#"}]}),
            json!({"b": MARKER}),
            "(root): the schema applies itself to this value without end (a reference cycle)",
            false,
        ),
    ]
}

/// The error and its context, depth first, each with its nesting.
fn tree(error: &ValidationError, depth: usize, out: &mut Vec<(usize, ValidationError)>) {
    out.push((depth, error.clone()));
    for inner in error.context() {
        tree(inner, depth + 1, out);
    }
}

/// Asserts that `display` (of `error`, masked or from a masking validator) is one line per
/// error of its tree, each `location: message` with the masked message, and that no
/// message holds instance data. Returns the messages.
fn assert_clean_display(error: &ValidationError, display: &str) -> Vec<String> {
    let mut errors = Vec::new();
    tree(error, 0, &mut errors);
    let lines: Vec<&str> = display.split('\n').collect();
    assert_eq!(lines.len(), errors.len(), "{display}");
    let mut messages = Vec::new();
    for (line, (depth, error)) in lines.iter().zip(&errors) {
        let at = match error.instance_location() {
            "" => "(root)",
            at => at,
        };
        let prefix = format!("{:1$}{at}: ", "", 2 * depth);
        let message = line
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{line:?} does not start with {prefix:?}"));
        assert_eq!(message, error.masked().message(), "{display}");
        assert!(!leaks(message), "a masked line leaks: {line:?}");
        messages.push(message.to_string());
    }
    messages
}

/// Asserts that the masked renderings of `error` (of an unmasked validator) and `masked`
/// (the same error of a masking validator) agree and hold no instance data.
fn assert_masked_alike(error: &ValidationError, masked: &ValidationError) {
    let display = error.masked().to_string();
    assert_eq!(display, masked.to_string());
    assert_eq!(
        display,
        masked.masked().to_string(),
        "masking twice changes nothing"
    );
    assert_eq!(error.masked().message(), masked.message());
    assert_clean_display(error, &display);
    assert_clean_display(masked, &masked.to_string());
    assert_eq!(
        (error.kind(), error.instance_location()),
        (masked.kind(), masked.instance_location())
    );
    assert_eq!(error.schema_location(), masked.schema_location());
    // Details: masked alike, none with instance data, every context error's too.
    let details = error.masked().details();
    assert_eq!(details, masked.details(), "{display}");
    assert_eq!(details, masked.masked().details());
    assert!(!leaks(&format!("{details:?}")), "{details:?}");
    assert_eq!(error.context().len(), masked.context().len(), "{display}");
    for (inner, inner_masked) in error.context().iter().zip(masked.context()) {
        assert_masked_alike(inner, inner_masked);
    }
}

/// The error texts of an output unit and of every unit inside it.
fn output_errors(unit: &Value, out: &mut Vec<String>) {
    match unit {
        Value::Object(map) => {
            if let Some(Value::String(error)) = map.get("error") {
                out.push(error.clone());
            }
            map.values().for_each(|inner| output_errors(inner, out));
        }
        Value::Array(units) => units.iter().for_each(|inner| output_errors(inner, out)),
        _ => {}
    }
}

/// The variants of `name` in `src/error/mod.rs`, as `Debug` writes them.
fn variants(name: &str) -> BTreeSet<String> {
    let source = include_str!("../src/error/mod.rs");
    let start = source
        .find(&format!("pub enum {name} {{"))
        .unwrap_or_else(|| panic!("no enum {name}"));
    let body = &source[start..];
    let body = &body[..body.find("\n}").expect("the enum ends")];
    body.lines()
        .filter_map(|line| {
            let variant = line.strip_prefix("    ")?;
            let end = variant.find([',', ' ', '{', '('])?;
            let variant = &variant[..end];
            variant
                .starts_with(char::is_uppercase)
                .then(|| variant.to_string())
        })
        .collect()
}

/// The variant name in a `Debug` rendering.
fn variant_of(debug: &str) -> String {
    let end = debug.find([' ', '{', '(']).unwrap_or(debug.len());
    debug[..end].to_string()
}

#[test]
fn no_masked_error_holds_instance_data_and_both_ways_agree() {
    let (mut kinds, mut details) = (BTreeSet::new(), BTreeSet::new());
    for case in cases() {
        let Case {
            options,
            schema,
            instance,
            masked: expected,
            quotes,
        } = case;
        let plain = options
            .build(&schema)
            .unwrap_or_else(|e| panic!("{schema}: {e}"));
        let masking = options
            .with_masked_errors(true)
            .build(&schema)
            .unwrap_or_else(|e| panic!("{schema}: {e}"));
        assert!(!plain.is_valid(&instance), "{schema} {instance}");
        assert!(!masking.is_valid(&instance), "{schema} {instance}");

        // The first error: useful masked, and masked the same both ways.
        let first = plain.validate(&instance).unwrap_err();
        let first_masked = masking.validate(&instance).unwrap_err();
        assert_eq!(first.masked().to_string(), expected, "{schema} {instance}");
        assert_masked_alike(&first, &first_masked);
        let mut unmasked = Vec::new();
        tree(&first, 0, &mut unmasked);
        let quoted = unmasked.iter().any(|(_, e)| leaks(e.message()));
        assert_eq!(quoted, quotes, "{schema} {instance}: {first}");

        // Every error.
        let all: Vec<ValidationError> = plain.iter_errors(&instance).collect();
        let all_masked: Vec<ValidationError> = masking.iter_errors(&instance).collect();
        assert_eq!(all.len(), all_masked.len(), "{schema} {instance}");
        for (error, masked) in all.iter().zip(&all_masked) {
            assert_masked_alike(error, masked);
            let mut errors = Vec::new();
            tree(error, 0, &mut errors);
            for (_, error) in errors {
                kinds.insert(format!("{:?}", error.kind()));
                if let Some(found) = error.details() {
                    details.insert(variant_of(&format!("{found:?}")));
                }
            }
        }

        // The output formats of the masking validator, and its evaluation's errors.
        let evaluation = masking.evaluate(&instance);
        assert!(!evaluation.valid());
        for output in [
            evaluation.basic(),
            evaluation.detailed(),
            evaluation.verbose(),
        ] {
            let mut texts = Vec::new();
            output_errors(&output, &mut texts);
            assert!(!texts.is_empty(), "{output}");
            assert!(texts.iter().all(|text| !leaks(text)), "{output}");
        }
        for error in evaluation.errors() {
            assert_clean_display(error, &error.to_string());
        }
        for error in plain.evaluate(&instance).errors() {
            assert_clean_display(error, &error.masked().to_string());
        }
    }
    assert_eq!(kinds, variants("ValidationErrorKind"), "kinds met");
    assert_eq!(details, variants("ErrorDetails"), "details met");
}

#[test]
fn masked_details_keep_the_schema_operands_and_the_counts() {
    use mcp_jsonschema::ErrorDetails;
    let schema = json!({
        "properties": {"name": {"maxLength": 3}, "units": {"enum": ["metric", "imperial"]}},
        "additionalProperties": false
    });
    let masking = Validator::options()
        .with_masked_errors(true)
        .build(&schema)
        .unwrap();
    let details = |instance: Value| {
        masking
            .validate(&instance)
            .unwrap_err()
            .details()
            .map(Cow::into_owned)
    };
    assert_eq!(
        details(json!({"name": MARKER})),
        Some(ErrorDetails::Length {
            keyword: "maxLength",
            limit: 3,
            actual: 6
        })
    );
    assert_eq!(
        details(json!({"units": MARKER})),
        Some(ErrorDetails::Enum {
            options: vec![json!("metric"), json!("imperial")]
        })
    );
    // The property's name is an instance key: only the location has it.
    let error = masking.validate(&json!({MARKER: 1})).unwrap_err();
    assert_eq!(
        error.details().as_deref(),
        Some(&ErrorDetails::Unexpected {
            property: String::new()
        })
    );
    assert_eq!(error.instance_location(), "/S3CR3T");
    assert_eq!(error.message(), "property is not allowed");
}
