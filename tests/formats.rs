//! Custom `format` checkers (`ValidationOptions::with_format`) and the opt-in refusal of
//! unknown formats: used where formats are asserted, ignored where they are not, through
//! every entry point and the MCP profile alike.

use mcp_jsonschema::mcp::{self, Role, ToolSchema};
use mcp_jsonschema::{SchemaErrorKind, ValidationErrorKind, ValidationOptions, Validator};
use serde_json::{json, Value};

/// An order number: `ORD-` and six digits.
fn is_order_number(text: &str) -> bool {
    text.strip_prefix("ORD-")
        .is_some_and(|digits| digits.len() == 6 && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// A stricter e-mail rule than the built-in one: one company's addresses only.
fn is_company_email(text: &str) -> bool {
    text.ends_with("@example.com") && text.len() > "@example.com".len()
}

/// Every entry point's verdict on `instance`, checked to agree.
fn verdict(validator: &Validator, instance: &Value) -> bool {
    let valid = validator.is_valid(instance);
    assert_eq!(validator.validate(instance).is_ok(), valid, "{instance}");
    assert_eq!(
        validator.iter_errors(instance).next().is_none(),
        valid,
        "{instance}"
    );
    valid
}

fn options() -> ValidationOptions {
    Validator::options()
        .with_format("order-number", is_order_number)
        .with_format("email", is_company_email)
}

#[test]
fn a_custom_format_checks_strings_where_formats_are_asserted() {
    let schema = json!({
        "properties": {
            "order": {"format": "order-number"},
            "contact": {"format": "email"},
            "lines": {"items": {"format": "order-number"}},
            "tags": {"propertyNames": {"format": "order-number"}}
        }
    });
    let asserted = options()
        .with_format_assertion(true)
        .build(&schema)
        .unwrap();
    let cases = [
        (json!({"order": "ORD-000042"}), true),
        (json!({"order": "ORD-42"}), false),
        // Strings only: other values pass, as for every format.
        (json!({"order": 42}), true),
        (json!({"lines": ["ORD-000001", "ORD-000002"]}), true),
        (json!({"lines": ["ORD-000001", "x"]}), false),
        (json!({"tags": {"ORD-000001": 1}}), true),
        (json!({"tags": {"x": 1}}), false),
        // The custom checker replaces the built-in one of its name.
        (json!({"contact": "a@example.com"}), true),
        (json!({"contact": "a@example.org"}), false),
    ];
    for (instance, expected) in cases {
        assert_eq!(verdict(&asserted, &instance), expected, "{instance}");
    }
    let error = asserted
        .validate(&json!({"contact": "a@example.org"}))
        .unwrap_err();
    assert_eq!(error.kind(), ValidationErrorKind::Format);
    assert_eq!(error.instance_location(), "/contact");
    assert_eq!(error.schema_location(), "/properties/contact/format");
    // Not asserted (2020-12's default): an annotation, whatever the checker says.
    let annotating = options().build(&schema).unwrap();
    assert!(verdict(
        &annotating,
        &json!({"order": "nope", "tags": {"x": 1}})
    ));
}

#[test]
fn the_mcp_profile_takes_custom_formats_too() {
    let options = mcp::profile()
        .with_format("order-number", is_order_number)
        .with_format_assertion(true);
    let schema = json!({"properties": {"order": {"type": "string", "format": "order-number"}}});
    let tool = ToolSchema::new(Role::Input, &schema, &options).unwrap();
    assert!(tool.is_valid(&json!({"order": "ORD-000042"})));
    let error = tool.validate(&json!({"order": "42"})).unwrap_err();
    assert_eq!(error.kind(), ValidationErrorKind::Format);
}

#[test]
fn unknown_formats_are_ignored_unless_refused() {
    let schema =
        json!({"properties": {"when": {"format": "moon-phase"}, "id": {"format": "uuid"}}});
    let asserted = Validator::options().with_format_assertion(true);
    // Ignored, as the specification allows: the known `uuid` still asserts.
    let lenient = asserted.clone().build(&schema).unwrap();
    assert!(verdict(&lenient, &json!({"when": "full"})));
    assert!(!verdict(&lenient, &json!({"id": "not-a-uuid"})));
    // Refused when asked, naming the place.
    let refusing = asserted.clone().with_unknown_formats_refused(true);
    let error = refusing.build(&schema).unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::UnknownFormat);
    assert_eq!(error.location(), "/properties/when/format");
    assert!(error.message().contains("moon-phase"), "{error}");
    // A registered checker makes the name known.
    let known = refusing.with_format("moon-phase", |s| s == "full" || s == "new");
    let validator = known.build(&schema).unwrap();
    assert!(verdict(&validator, &json!({"when": "new"})));
    assert!(!verdict(&validator, &json!({"when": "gibbous"})));
    // Where formats only annotate, an unknown name is no error even when refused.
    let annotating = Validator::options().with_unknown_formats_refused(true);
    assert!(annotating.build(&schema).is_ok());
}
