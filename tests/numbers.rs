//! Numbers are read as written: `multipleOf` and the bounds judge the double nearest to
//! the text, so a 17-significant-digit number that is not a multiple is not read as the
//! neighbouring one that is. The library turns on `serde_json`'s `float_roundtrip`
//! (correctly rounded parsing); without it `-3992.7999999999997` was read as the double
//! of `-3992.8`. Every instance here is parsed from text, not built with `json!`.
//!
//! Beyond what a double holds (integers past 2^64, more than 17 significant digits), the
//! default build judges the double `serde_json` read; the `arbitrary-precision` build
//! judges the text exactly (`scripts/test.sh` runs this file in both builds).

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

/// Builds a validator from schema text (so its numbers keep their spelling too).
#[cfg(feature = "arbitrary-precision")]
fn validator(schema: &str) -> Validator {
    Validator::new(&parse(schema)).unwrap_or_else(|e| panic!("{schema}: {e}"))
}

/// `(schema, instance, valid)` cases that a double cannot tell apart.
const BEYOND_DOUBLES: &[(&str, &str, bool)] = &[
    (
        r#"{"exclusiveMaximum": 100000000000000000000}"#,
        "100000000000000000001",
        false,
    ),
    (
        r#"{"maximum": 100000000000000000000}"#,
        "100000000000000000001",
        false,
    ),
    (r#"{"maximum": 1e20}"#, "100000000000000000001", false),
    (r#"{"minimum": 100000000000000000001}"#, "1e20", false),
    (r#"{"const": 1e20}"#, "100000000000000000001", false),
    (r#"{"enum": [1e20, "x"]}"#, "100000000000000000001", false),
    (r#"{"const": 100000000000000000000}"#, "1e20", true),
    (r#"{"const": 1.0}"#, "1", true),
    (r#"{"maximum": 0.3}"#, "0.30000000000000000001", false),
    (
        r#"{"exclusiveMinimum": 0.3}"#,
        "0.30000000000000000001",
        true,
    ),
    (r#"{"multipleOf": 2}"#, "100000000000000000001", false),
    (r#"{"multipleOf": 2}"#, "100000000000000000002", true),
    (r#"{"multipleOf": 0.01}"#, "1.00000000000000000001", false),
    (r#"{"type": "integer"}"#, "1.00000000000000000001", false),
    (r#"{"type": "integer"}"#, "1e400", true),
    (r#"{"minimum": 1e308}"#, "1e400", true),
    (r#"{"exclusiveMinimum": 0}"#, "1e-400", true),
    (
        r#"{"uniqueItems": true}"#,
        "[100000000000000000000, 100000000000000000001]",
        true,
    ),
    (
        r#"{"uniqueItems": true}"#,
        "[100000000000000000000, 1e20]",
        false,
    ),
    (r#"{"uniqueItems": true}"#, "[1, 1.0, 10e-1]", false),
];

#[cfg(feature = "arbitrary-precision")]
#[test]
fn numbers_of_any_size_and_precision_are_judged_exactly() {
    for &(schema, instance, valid) in BEYOND_DOUBLES {
        let validator = validator(schema);
        let instance = parse(instance);
        assert_eq!(
            validator.is_valid(&instance),
            valid,
            "{schema} on {instance}"
        );
        assert_eq!(
            validator.validate(&instance).is_ok(),
            valid,
            "{schema} on {instance}"
        );
    }
    // A divisor beyond doubles is still a positive number.
    assert!(validator(r#"{"multipleOf": 1e-400}"#).is_valid(&parse("1")));
    assert!(validator(r#"{"maxLength": 1e400}"#).is_valid(&parse(r#""text""#)));
}

/// The default build reads each number as the nearest double (or as an integer within
/// 64 bits), and `serde_json` refuses numbers beyond doubles (`1e400`): where the text
/// holds more than a double, the verdict is the double's, as documented.
#[cfg(not(feature = "arbitrary-precision"))]
#[test]
fn the_default_build_judges_the_nearest_double() {
    // More significant digits than a double holds, or an exponent past its range.
    let beyond = |text: &str| {
        text.contains("e400")
            || text.contains("e-400")
            || text
                .split(|c: char| !c.is_ascii_digit())
                .any(|run| run.len() > 17)
    };
    let mut wrong = 0;
    for &(schema, instance, valid) in BEYOND_DOUBLES {
        let (Ok(schema_value), Ok(instance_value)) = (
            serde_json::from_str::<Value>(schema),
            serde_json::from_str::<Value>(instance),
        ) else {
            assert!(beyond(schema) || beyond(instance), "{schema} on {instance}");
            continue;
        };
        let verdict = Validator::new(&schema_value)
            .unwrap()
            .is_valid(&instance_value);
        if verdict != valid {
            wrong += 1;
            // Only numbers a double cannot hold exactly are misjudged.
            assert!(beyond(schema) || beyond(instance), "{schema} on {instance}");
        }
    }
    assert!(wrong > 0, "the cases reach past doubles");
}

/// JSON text is judged by its text in both builds (`Validator::is_valid_json`): every
/// case above whose schema a double holds (the default build's schemas are doubles)
/// gets its exact verdict, even where the tree's double misjudges it.
#[test]
fn json_text_is_judged_by_its_text() {
    let mut judged = 0;
    for &(schema, instance, valid) in BEYOND_DOUBLES {
        let Ok(schema_value) = serde_json::from_str::<Value>(schema) else {
            continue; // `1e400` in the default build
        };
        let exact_schema = cfg!(feature = "arbitrary-precision")
            || !schema
                .split(|c: char| !c.is_ascii_digit())
                .any(|run| run.len() > 15);
        if !exact_schema {
            continue;
        }
        let validator = Validator::new(&schema_value).unwrap();
        match validator.is_valid_json(instance.as_bytes()) {
            Ok(verdict) => assert_eq!(verdict, valid, "{schema} on {instance}"),
            // Refused as `serde_json` refuses it, in the default build only.
            Err(_) => {
                assert!(!cfg!(feature = "arbitrary-precision") && instance.contains("e400"));
                continue;
            }
        }
        let checked = validator.validate_json(instance.as_bytes());
        assert_eq!(checked.is_ok(), valid, "{schema} on {instance}");
        judged += 1;
    }
    assert!(judged >= 14, "{judged} cases judged");
}
