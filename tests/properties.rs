//! Property tests: generated schemas and instances on which the validator must not lie.
//!
//! Schemas come from the structure-aware generator shared with the fuzzer
//! (`fuzz/src/gen.rs`): real keywords of every family, `$defs` with recursive and
//! anchored references, embedded resources with `$dynamicRef`, `unevaluated*`. Proptest
//! draws the generator's decisions as a byte string, so a failure shrinks to a small
//! schema and is printed as JSON. The checks themselves live in `fuzz/src/invariants.rs`,
//! shared with the fuzz targets and `tests/fuzz_regressions.rs`.
//!
//! Properties:
//! * `is_valid`, `validate` and `iter_errors` agree, and every error points at an
//!   existing place in the instance and in the schema;
//! * compiling the same schema twice gives identical verdicts;
//! * `{"const": x}` and `{"enum": [.., x, ..]}` accept x (also with its integers written
//!   as `1.0`) and reject a changed x;
//! * wrapping S in `allOf`, `$defs` + `$ref`, `not`/`not`, `anyOf` / `oneOf` with `false`
//!   or `if`/`then: true`/`else: false` never changes a verdict (root-relative `$ref`s in S
//!   are rebased onto its new place);
//! * reversing the key order of every object in the schema and the instance never
//!   changes a verdict (a real reordering only when serde_json's `preserve_order`
//!   feature is on, as in the fuzz and differential crates; otherwise maps are sorted);
//! * the MCP profile agrees with the default options wherever neither hits a limit;
//! * under a small step budget validation always ends, a run that ran out of steps is
//!   never valid, and a verdict that differs from the unbounded one says why.
//!
//! Run: `cargo test --test properties` (256 cases per property; set `PROPTEST_CASES`
//! for more, e.g. `PROPTEST_CASES=10000 cargo test --release --test properties`).

#[path = "../fuzz/src/gen.rs"]
#[allow(dead_code)]
mod gen;
#[path = "../fuzz/src/invariants.rs"]
mod invariants;

use gen::{Bytes, Config};
use invariants::{reverse_keys, verdict, Verdict, REFERENCE_BUDGET};
use mcp_jsonschema::{mcp, ValidationErrorKind, Validator};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{json, Map, Value};

/// A schema and three instances from `config`, drawn from up to `len` decision bytes.
fn case(config: Config, len: usize) -> impl Strategy<Value = (Value, Vec<Value>)> {
    proptest::collection::vec(any::<u8>(), 0..len)
        .prop_map(move |bytes| gen::case(&mut Bytes::new(&bytes), config, 3))
}

/// Schemas with every generated feature, reference cycles that consume no input
/// included: the validator's own limits must end those.
fn any_case() -> impl Strategy<Value = (Value, Vec<Value>)> {
    case(Config::FUZZ, 600)
}

/// A JSON value of nesting at most 3, built from the generator's pools.
fn json_value() -> impl Strategy<Value = Value> {
    proptest::collection::vec(any::<u8>(), 0..64).prop_map(|bytes| {
        let mut src = Bytes::new(&bytes);
        gen::Gen::new(&mut src, Config::default()).value(3)
    })
}

/// A validator with the reference step budget (so no case can hang the test).
fn compile(schema: &Value) -> Option<Validator> {
    Validator::options()
        .with_step_budget(REFERENCE_BUDGET)
        .build(schema)
        .ok()
}

/// `x` changed in one place (chosen by `choice`) so that it is no longer equal to `x`
/// in the JSON data model.
fn changed(x: &Value, choice: u8) -> Value {
    match x {
        Value::Null => Value::Bool(false),
        Value::Bool(b) => Value::Bool(!b),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                json!(if i < i64::MAX { i + 1 } else { i - 1 })
            } else if let Some(u) = n.as_u64() {
                json!(u - 1)
            } else {
                let f = n.as_f64().unwrap_or(0.0);
                json!(if f + 1.0 != f { f + 1.0 } else { f / 2.0 })
            }
        }
        Value::String(s) => Value::String(format!("{s}x")),
        Value::Array(items) => {
            let mut items = items.clone();
            match items.first_mut() {
                Some(first) if choice & 1 == 0 => *first = changed(first, choice / 2),
                _ => items.push(Value::Null),
            }
            Value::Array(items)
        }
        Value::Object(map) => {
            let mut map = map.clone();
            let first_key = map.keys().next().cloned();
            match first_key {
                Some(key) if choice & 1 == 0 => {
                    if let Some(value) = map.get_mut(&key) {
                        *value = changed(value, choice / 2);
                    }
                }
                _ => {
                    let key = (0..)
                        .map(|n| format!("new{n}"))
                        .find(|k| !map.contains_key(k))
                        .unwrap_or_default();
                    map.insert(key, Value::Null);
                }
            }
            Value::Object(map)
        }
    }
}

/// `x` with every integer that a double holds exactly written as a double (`1` as `1.0`):
/// the same JSON value for JSON Schema.
fn as_floats(x: &Value) -> Value {
    match x {
        Value::Number(n) => match n.as_i64() {
            Some(i) if i.unsigned_abs() < (1 << 53) => {
                #[allow(clippy::cast_precision_loss)] // exact below 2^53
                let f = i as f64;
                serde_json::Number::from_f64(f).map_or(x.clone(), Value::Number)
            }
            _ => x.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(as_floats).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), as_floats(v)))
                .collect::<Map<_, _>>(),
        ),
        other => other.clone(),
    }
}

/// Wrappers of S that must give S's verdicts: the three of
/// [`invariants::wrappers`] and three more made of applicators with boolean schemas.
fn all_wrappers(schema: &Value) -> Vec<(&'static str, Value)> {
    let mut all = invariants::wrappers(schema);
    all.push((
        "anyOf with false",
        json!({"anyOf": [invariants::rebase(schema, "/anyOf/0"), false]}),
    ));
    all.push((
        "oneOf with false",
        json!({"oneOf": [false, invariants::rebase(schema, "/oneOf/1")]}),
    ));
    all.push((
        "if/then/else",
        json!({"if": invariants::rebase(schema, "/if"), "then": true, "else": false}),
    ));
    all
}

/// Fails the property when two verdicts of equivalent validators differ and neither
/// run hit a limit.
fn same_meaning(base: &Verdict, other: &Verdict, what: &str) -> Result<(), TestCaseError> {
    if !base.limited && !other.limited {
        prop_assert_eq!(base.valid, other.valid, "{} changed the verdict", what);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        // Shrunk failures are printed as JSON; fixed ones become files in
        // fuzz/regressions/validate/ rather than proptest's own seed files.
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn entry_points_agree_and_errors_locate_themselves((schema, instances) in any_case()) {
        if let Some(validator) = compile(&schema) {
            for instance in &instances {
                verdict(&validator, &schema, instance);
            }
        }
    }

    #[test]
    fn compiling_twice_gives_identical_verdicts((schema, instances) in any_case()) {
        if let (Some(first), Some(second)) = (compile(&schema), compile(&schema)) {
            for instance in &instances {
                prop_assert_eq!(
                    verdict(&first, &schema, instance),
                    verdict(&second, &schema, instance)
                );
            }
        }
    }

    #[test]
    fn const_and_enum_accept_their_value_and_reject_a_changed_one(
        x in json_value(),
        others in proptest::collection::vec(json_value(), 0..3),
        choice in any::<u8>(),
    ) {
        let y = changed(&x, choice);
        prop_assert_ne!(&x, &y, "the test's own mutation failed");
        let mut members = others.clone();
        members.retain(|m| *m != y && as_floats(m) != as_floats(&y));
        members.insert(members.len() / 2, x.clone());
        for schema in [json!({"const": x}), json!({"enum": [x]}), json!({"enum": members})] {
            let validator = Validator::new(&schema).expect("const and enum always compile");
            prop_assert!(verdict(&validator, &schema, &x).valid, "{} rejects {}", schema, x);
            let floats = as_floats(&x);
            prop_assert!(verdict(&validator, &schema, &floats).valid, "{} rejects {}", schema, floats);
            prop_assert!(!verdict(&validator, &schema, &y).valid, "{} accepts {}", schema, y);
        }
    }

    #[test]
    fn wrapping_never_changes_a_verdict((schema, instances) in any_case()) {
        let Some(validator) = compile(&schema) else { return Ok(()) };
        for (name, wrapped) in all_wrappers(&schema) {
            let wrapped_validator = compile(&wrapped);
            prop_assert!(wrapped_validator.is_some(), "{} stopped it compiling: {}", name, wrapped);
            let wrapped_validator = wrapped_validator.expect("checked");
            for instance in &instances {
                let base = verdict(&validator, &schema, instance);
                let seen = verdict(&wrapped_validator, &wrapped, instance);
                same_meaning(&base, &seen, name)?;
            }
        }
    }

    #[test]
    fn reordering_keys_never_changes_a_verdict((schema, instances) in any_case()) {
        let reordered = reverse_keys(&schema);
        if let (Some(a), Some(b)) = (compile(&schema), compile(&reordered)) {
            for instance in &instances {
                let base = verdict(&a, &schema, instance);
                let seen = verdict(&b, &reordered, &reverse_keys(instance));
                same_meaning(&base, &seen, "reversing keys")?;
            }
        } else {
            prop_assert!(compile(&reordered).is_none() && compile(&schema).is_none(),
                "reordering changed whether it compiles");
        }
    }

    #[test]
    fn a_same_document_bundle_gives_the_verdicts_of_its_schema((schema, instances) in any_case()) {
        invariants::bundles_and_metaschema_errors(&schema, &instances);
    }

    #[test]
    fn the_mcp_profile_agrees_with_the_default_options((schema, instances) in any_case()) {
        let Some(validator) = compile(&schema) else { return Ok(()) };
        let Ok(profile) = mcp::profile().build(&schema) else { return Ok(()) };
        for instance in &instances {
            let base = verdict(&validator, &schema, instance);
            let seen = verdict(&profile, &schema, instance);
            same_meaning(&base, &seen, "the MCP profile")?;
        }
    }

    #[test]
    fn a_small_budget_ends_and_never_passes_what_fails(
        (schema, instances) in any_case(),
        budget in 0u64..400,
    ) {
        let Some(reference) = compile(&schema) else { return Ok(()) };
        let small = Validator::options()
            .with_step_budget(budget)
            .build(&schema)
            .expect("the budget does not affect compilation");
        for instance in &instances {
            let full = verdict(&reference, &schema, instance);
            let bounded = verdict(&small, &schema, instance);
            prop_assert!(!bounded.valid || full.valid, "valid only with the small budget");
            if full.valid && !bounded.valid {
                prop_assert!(bounded.limited, "the budget failed it without saying so");
                prop_assert!(small
                    .iter_errors(instance)
                    .any(|e| e.kind() == ValidationErrorKind::BudgetExhausted));
            }
        }
    }

    /// An `else if` chain whose links each test one property's value (the tags of real
    /// schemas, one name link after link or several), on objects of a few keys: the
    /// verdict is the chain's meaning, worked out here link by link (a link's test
    /// passes when the property is absent or equal), and the entry points agree, under
    /// any step budget too (a chain on one property is looked up in every mode, with the
    /// same steps; `validate` walks any other without the fast mode's shortcuts, with the
    /// same steps).
    #[test]
    fn else_if_chains_on_tags_mean_what_they_say(
        links in proptest::collection::vec((0usize..3, 0usize..3, any::<bool>()), 1..7),
        otherwise in any::<bool>(),
        present in proptest::collection::vec(proptest::option::of(0usize..3), 3),
        fillers in 0usize..3,
        budget in 0u64..40,
    ) {
        let names = ["kind", "type", "specVersion"];
        let values = [json!(null), json!("library"), json!(1)];
        let mut schema = json!(otherwise);
        for &(name, value, then) in links.iter().rev() {
            schema = json!({
                "if": {"properties": {names[name]: {"const": values[value]}}},
                "then": then,
                "else": schema,
            });
        }
        let mut instance = Map::new();
        for (name, value) in names.iter().zip(&present) {
            if let Some(value) = value {
                instance.insert(name.to_string(), values[*value].clone());
            }
        }
        for i in 0..fillers {
            instance.insert(format!("x{i}"), json!(i));
        }
        let meaning = (links.iter())
            .find(|&&(name, value, _)| {
                instance.get(names[name]).is_none_or(|found| *found == values[value])
            })
            .map_or(otherwise, |&(_, _, then)| then);
        let instance = Value::Object(instance);
        let validator = Validator::new(&schema).expect("a chain of tags compiles");
        prop_assert_eq!(
            verdict(&validator, &schema, &instance).valid,
            meaning,
            "{} on {}",
            schema,
            instance
        );
        let bounded = Validator::options()
            .with_step_budget(budget)
            .build(&schema)
            .expect("the budget does not affect compilation");
        let seen = verdict(&bounded, &schema, &instance);
        prop_assert!(seen.limited || seen.valid == meaning, "{} on {}", schema, instance);
    }

    #[test]
    fn the_whole_case_keeps_every_invariant(
        (schema, instances) in case(Config::default(), 600),
        budget in 0u64..2_000,
    ) {
        invariants::check_case(&schema, &instances, budget);
    }
}

/// The generator must produce schemas that compile and instances of both verdicts, or
/// the properties above test nothing.
#[test]
fn the_generator_produces_useful_cases() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let (mut compiled, mut valid, mut invalid) = (0, 0, 0);
    for _ in 0..300 {
        let bytes = gen::xorshift_bytes(&mut state, 400);
        let (schema, instances) = gen::case(&mut Bytes::new(&bytes), Config::default(), 4);
        if let Some(validator) = compile(&schema) {
            compiled += 1;
            for instance in &instances {
                if validator.is_valid(instance) {
                    valid += 1;
                } else {
                    invalid += 1;
                }
            }
        }
    }
    assert!(compiled >= 290, "only {compiled} of 300 schemas compiled");
    assert!(
        valid >= 200 && invalid >= 200,
        "{valid} valid, {invalid} invalid"
    );
}
