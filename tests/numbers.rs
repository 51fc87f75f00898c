//! Numbers are read as written: `multipleOf` and the bounds judge the double nearest to
//! the text, so a 17-significant-digit number that is not a multiple is not read as the
//! neighbouring one that is. The library turns on `serde_json`'s `float_roundtrip`
//! (correctly rounded parsing); without it `-3992.7999999999997` was read as the double
//! of `-3992.8`. Every instance here is parsed from text, not built with `json!`.

use mcp_jsonschema::Validator;
use serde_json::{json, Value};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn seventeen_digit_numbers_are_not_rounded_into_multiples() {
    let cases = [
        // (divisor, text, is a multiple)
        (json!(0.001), "-3992.7999999999997", false),
        (json!(0.001), "-3992.8", true),
        (json!(0.01), "1.1500000000000001", false),
        (json!(0.01), "1.15", true),
        (json!(0.1), "0.30000000000000004", false),
        (json!(0.1), "0.3", true),
    ];
    for (divisor, text, multiple) in cases {
        let validator = Validator::new(&json!({"multipleOf": divisor})).unwrap();
        let instance = parse(text);
        assert_eq!(
            validator.is_valid(&instance),
            multiple,
            "{text} / {divisor}"
        );
        // Nested in an object, as a tool argument would be.
        let object = parse(&format!(r#"{{"x": {text}}}"#));
        let nested =
            Validator::new(&json!({"properties": {"x": {"multipleOf": divisor}}})).unwrap();
        assert_eq!(
            nested.is_valid(&object),
            multiple,
            "{{x: {text}}} / {divisor}"
        );
    }
}

#[test]
fn bounds_compare_the_number_as_written() {
    // 0.1 + 0.2 as printed by most languages is above 0.3, and must stay above it.
    let validator = Validator::new(&json!({"maximum": 0.3})).unwrap();
    assert!(!validator.is_valid(&parse("0.30000000000000004")));
    assert!(validator.is_valid(&parse("0.3")));
    let validator = Validator::new(&json!({"exclusiveMinimum": 3992.7999999999997})).unwrap();
    assert!(validator.is_valid(&parse("3992.8")));
    assert!(!validator.is_valid(&parse("3992.7999999999997")));
}
