//! Objects whose keys come in any order, through both implementations.
//!
//! This crate builds `serde_json` with `preserve_order`, as many programs do (the feature
//! is unified across a program's dependency graph, so any crate of it turns it on for
//! this library too): an object's keys then iterate in document order, not byte order.
//! No verdict may depend on that order. The generated schemas are the shapes whose fast
//! paths look at key order: records closed by `additionalProperties: false` with every
//! name required (the strict shape of tool schemas, plain fields or nested records),
//! open records, and the same inside arrays and unions. Each instance lists the
//! record's names in a random order; some miss one, hold a wrong value or an extra key.
//!
//! `cargo test --manifest-path tests/differential/Cargo.toml --test key_order`
//! (1,024 cases; set `PROPTEST_CASES` for another number).

use mcp_jsonschema_differential::{cases, differences, Dialect, Setup};
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{json, Map, Value};

/// Names of different lengths and first bytes, some long enough that their spelling
/// does not decide them alone.
const NAMES: [&str; 10] = [
    "a",
    "b",
    "id",
    "kind",
    "zeta",
    "Name",
    "_meta",
    "type",
    "description_text",
    "description_texts",
];

/// A field's schema and a value that passes it and one that does not.
fn field(kind: u8) -> (Value, Value, Value) {
    match kind % 4 {
        0 => (json!({"type": "string"}), json!("x"), json!(1)),
        1 => (json!({"type": "integer"}), json!(7), json!("7")),
        2 => (json!({"type": "boolean"}), json!(true), json!(null)),
        _ => (json!({"const": "c"}), json!("c"), json!("d")),
    }
}

/// A record's shape: its fields (a name index and a field kind each), whether it is
/// closed, whether it requires every name, and where it sits.
#[derive(Clone, Debug)]
struct Shape {
    fields: Vec<(usize, u8)>,
    closed: bool,
    all_required: bool,
    /// 0: the root; 1: a property of a closed outer record; 2: the items of an array;
    /// 3: a branch of an `anyOf` beside a branch that fails objects.
    place: u8,
}

/// An instance: the order its keys are inserted in (a permutation of the fields) and
/// what is wrong with it, if anything.
#[derive(Clone, Debug)]
struct Variant {
    order: Vec<usize>,
    /// 0, 1: nothing; 2: one value wrong; 3: one key missing; 4: an extra key.
    fault: u8,
    which: usize,
}

fn shape() -> impl Strategy<Value = Shape> {
    (
        proptest::sample::subsequence((0..NAMES.len()).collect::<Vec<_>>(), 1..=6)
            .prop_flat_map(|names| {
                let n = names.len();
                (Just(names), proptest::collection::vec(any::<u8>(), n))
            })
            .prop_map(|(names, kinds)| names.into_iter().zip(kinds).collect::<Vec<_>>()),
        any::<bool>(),
        prop_oneof![3 => Just(true), 1 => Just(false)],
        0..4u8,
    )
        .prop_map(|(fields, closed, all_required, place)| Shape {
            fields,
            closed,
            all_required,
            place,
        })
}

fn variants(fields: usize) -> impl Strategy<Value = Vec<Variant>> {
    proptest::collection::vec(
        (
            Just((0..fields).collect::<Vec<_>>()).prop_shuffle(),
            0..5u8,
            0..fields,
        )
            .prop_map(|(order, fault, which)| Variant {
                order,
                fault,
                which,
            }),
        4,
    )
}

fn schema(shape: &Shape) -> Value {
    let mut properties = Map::new();
    for &(name, kind) in &shape.fields {
        properties.insert(NAMES[name].to_owned(), field(kind).0);
    }
    let mut record = json!({"type": "object", "properties": properties});
    if shape.all_required {
        let names: Vec<&str> = shape.fields.iter().map(|&(n, _)| NAMES[n]).collect();
        record["required"] = json!(names);
    }
    if shape.closed {
        record["additionalProperties"] = json!(false);
    }
    match shape.place {
        0 => record,
        1 => json!({
            "type": "object",
            "properties": {"outer": {"type": "integer"}, "inner": record},
            "required": ["inner", "outer"],
            "additionalProperties": false
        }),
        2 => json!({"type": "array", "items": record}),
        _ => json!({"anyOf": [{"type": "object", "maxProperties": 0}, record]}),
    }
}

fn instance(shape: &Shape, variant: &Variant) -> Value {
    let mut record = Map::new();
    for (at, &i) in variant.order.iter().enumerate() {
        let (name, kind) = shape.fields[i];
        let (_, good, bad) = field(kind);
        let wrong = variant.fault == 2 && at == variant.which;
        if variant.fault == 3 && at == variant.which {
            continue;
        }
        record.insert(NAMES[name].to_owned(), if wrong { bad } else { good });
        if variant.fault == 4 && at == variant.which {
            record.insert("extra".to_owned(), json!(0));
        }
    }
    let record = Value::Object(record);
    match shape.place {
        // The outer record's keys, too, in the order that is not byte order.
        1 => {
            let mut outer = Map::new();
            outer.insert("outer".to_owned(), json!(1));
            outer.insert("inner".to_owned(), record);
            Value::Object(outer)
        }
        2 => json!([record.clone(), record]),
        _ => record,
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(1_024),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Both implementations agree on every instance, whatever order its keys come in, and
    /// ours gives `is_valid` and `validate` the same verdict.
    #[test]
    fn no_verdict_depends_on_key_order(
        (shape, variants) in shape().prop_flat_map(|s| {
            let n = s.fields.len();
            (Just(s), variants(n))
        })
    ) {
        let schema = schema(&shape);
        let instances: Vec<Value> = variants.iter().map(|v| instance(&shape, v)).collect();
        let setup = Setup::new(Dialect::Draft202012);
        let found = differences(&schema, &instances, &setup);
        prop_assert!(found.is_empty(), "schema {schema}\n{}",
            found.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"));
        let ours = mcp_jsonschema::Validator::new(&schema).expect("a valid schema");
        for instance in &instances {
            prop_assert_eq!(
                ours.is_valid(instance),
                ours.validate(instance).is_ok(),
                "schema {} instance {}", schema, instance
            );
        }
    }
}

/// The crate is built as intended: keys iterate in the order they were inserted.
#[test]
fn keys_come_in_insertion_order_here() {
    let mut map = Map::new();
    map.insert("b".into(), Value::Null);
    map.insert("a".into(), Value::Null);
    assert_eq!(map.keys().next().map(String::as_str), Some("b"));
}
