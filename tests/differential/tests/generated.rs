//! Generated schemas and instances through both implementations (see the crate docs).
//!
//! The schemas come from the fuzzer's generator (`fuzz/src/gen.rs`) without reference
//! cycles that consume no instance (those are endless in `jsonschema`, which relies on
//! the stack; ours ends them with its depth limit). A disagreement that KNOWN.md does not
//! explain fails the test, shrunk to a small schema printed as JSON.
//!
//! `cargo test --manifest-path tests/differential/Cargo.toml --test generated`
//! (2,048 cases per property; set `PROPTEST_CASES` for another number).

use mcp_jsonschema_differential::gen::{self, Bytes, Config};
use mcp_jsonschema_differential::{cases, differences, known, Dialect, Setup};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::Value;

/// A schema and four instances, without non-consuming reference cycles.
fn case() -> impl Strategy<Value = (Value, Vec<Value>)> {
    let config = Config {
        cycles: false,
        ..Config::default()
    };
    proptest::collection::vec(any::<u8>(), 0..600)
        .prop_map(move |bytes| gen::case(&mut Bytes::new(&bytes), config, 4))
}

/// Fails with every difference KNOWN.md does not explain.
fn compare(schema: &Value, instances: &[Value], setup: &Setup) -> Result<(), TestCaseError> {
    let unexplained: Vec<String> = differences(schema, instances, setup)
        .iter()
        .filter(|d| known(schema, d, setup).is_none())
        .map(ToString::to_string)
        .collect();
    prop_assert!(
        unexplained.is_empty(),
        "schema {}\n{}",
        schema,
        unexplained.join("\n")
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        // Both validators are fast on these cases: 2,048 of each take a few seconds.
        cases: cases(2_048),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn generated_schemas_agree((schema, instances) in case()) {
        compare(&schema, &instances, &Setup::new(Dialect::Draft202012))?;
    }

    #[test]
    fn generated_schemas_agree_with_format_assertion((schema, instances) in case()) {
        let setup = Setup { formats: true, ..Setup::new(Dialect::Draft202012) };
        compare(&schema, &instances, &setup)?;
    }
}

/// The harness itself: a disagreement is found, and attributed to its KNOWN.md entry.
#[test]
fn a_known_disagreement_is_found_and_classified() {
    let found = explained(
        serde_json::json!({"multipleOf": 7.5}),
        serde_json::json!(u64::MAX),
    );
    assert_eq!(found, "T1");
}

/// The one disagreement on `instance`, and the id of the KNOWN.md entry explaining it.
fn explained(schema: Value, instance: Value) -> &'static str {
    let setup = Setup::new(Dialect::Draft202012);
    let found = differences(&schema, &[instance], &setup);
    assert_eq!(found.len(), 1, "{found:?}");
    known(&schema, &found[0], &setup).map_or("none", |known| known.id)
}

/// ECMA-262's backreference to a group that took no part in the match matches the empty
/// string; theirs fails it (T5).
#[test]
fn a_backreference_to_an_unset_group_is_their_disagreement() {
    let schema = serde_json::json!({"pattern": "(a|a)*(?=b)\\1|x"});
    assert_eq!(explained(schema, serde_json::json!("a b")), "T5");
}

/// ECMA-262's `\w` is ASCII; theirs is Unicode where their backtracking engine runs the
/// pattern (T6).
#[test]
fn a_word_class_in_a_lookaround_pattern_is_their_disagreement() {
    let schema = serde_json::json!({"pattern": "^(\\w+\\s?)*(?!x)$"});
    assert_eq!(explained(schema, serde_json::json!("é")), "T6");
}
