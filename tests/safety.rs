//! Termination and stack safety: hostile shapes end with an error, never a crash.

use mcp_jsonschema::{SchemaErrorKind, ValidationErrorKind, Validator};
use serde_json::{json, Value};

/// `[[[...]]]` nested `depth` times, built without recursion.
fn nested_arrays(depth: usize) -> Value {
    let mut value = json!([]);
    for _ in 0..depth {
        value = Value::Array(vec![value]);
    }
    value
}

/// Drops a deeply nested value without recursion (serde_json's drop recurses).
fn dismantle(mut value: Value) {
    while let Value::Array(mut items) = value {
        value = items.pop().unwrap_or(Value::Null);
    }
}

#[test]
fn a_deeply_nested_instance_is_an_error_not_a_stack_overflow() {
    let validator = Validator::new(&json!({"items": {"$ref": "#"}})).unwrap();
    let instance = nested_arrays(100_000);
    assert!(!validator.is_valid(&instance));
    let error = validator.validate(&instance).unwrap_err();
    assert_eq!(error.kind(), ValidationErrorKind::DepthExceeded);
    // Even under `not`, running out of depth never turns into a pass.
    let negated = Validator::new(&json!({"not": {"items": {"$ref": "#"}}})).unwrap();
    assert!(!negated.is_valid(&instance));
    dismantle(instance);
}

/// `[{"a": [{"a": ... []}]}]`, `depth` arrays of one record each, built without recursion.
fn nested_records(depth: usize) -> Value {
    let mut value = json!([]);
    for _ in 0..depth {
        // By moving: `json!` would serialize the inner value, recursively.
        let record = serde_json::Map::from_iter([("a".to_string(), value)]);
        value = Value::Array(vec![Value::Object(record)]);
    }
    value
}

/// Drops what [`nested_records`] built without recursion.
fn dismantle_records(mut value: Value) {
    loop {
        value = match value {
            Value::Array(mut items) => items.pop().unwrap_or(Value::Null),
            Value::Object(mut map) => map.remove("a").unwrap_or(Value::Null),
            _ => return,
        };
    }
}

/// `schema` stops `deep` (its own shape nested 100,000 times) with `DepthExceeded`,
/// negated too, accepts `shallow` (20 levels) and rejects each of `bad` (a wrong item
/// at depth after good ones), in either mode.
fn stops_at_depth(schema: &Value, deep: &Value, shallow: &Value, bad: &[Value]) {
    let validator = Validator::new(schema).unwrap();
    assert!(validator.is_valid(shallow), "{schema}");
    assert!(!validator.is_valid(deep), "{schema}");
    let error = validator.validate(deep).unwrap_err();
    assert_eq!(error.kind(), ValidationErrorKind::DepthExceeded, "{schema}");
    let negated = Validator::new(&json!({"not": schema})).unwrap();
    assert!(!negated.is_valid(deep), "{schema}");
    for bad in bad {
        assert!(!validator.is_valid(bad), "{schema} {bad}");
        assert!(validator.validate(bad).is_err(), "{schema} {bad}");
    }
}

#[test]
fn deeply_nested_arrays_of_tables_are_an_error_not_a_stack_overflow() {
    // Items that settle as a table (open records, exact ones, nested lists, unions told
    // apart by kind) run in a loop of their own, the level's bounds checked once per
    // array.
    let open =
        json!({"type": "array", "items": {"type": "object", "properties": {"a": {"$ref": "#"}}}});
    let exact = json!({"type": "array", "items": {"type": "object",
        "properties": {"a": {"$ref": "#"}}, "required": ["a"], "additionalProperties": false}});
    let deep = nested_records(100_000);
    // A record whose `a` is no list, and an item that is no record.
    let bad = [json!({"a": 1}), json!(7)].map(|item| {
        let mut bad = nested_records(20);
        bad[0]["a"][0]["a"].as_array_mut().unwrap().push(item);
        bad
    });
    for schema in [open, exact] {
        stops_at_depth(&schema, &deep, &nested_records(20), &bad);
    }
    dismantle_records(deep);

    let list = json!({"type": "array", "items": {"type": "array", "items": {"$ref": "#"}}});
    let by_kind = json!({"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#"}]}});
    let deep = nested_arrays(100_000);
    let mut bad = nested_arrays(20);
    bad[0][0].as_array_mut().unwrap().push(json!(7));
    for schema in [list, by_kind] {
        stops_at_depth(
            &schema,
            &deep,
            &nested_arrays(20),
            std::slice::from_ref(&bad),
        );
    }
    dismantle(deep);
}

#[test]
fn a_deeply_nested_schema_is_an_error_not_a_stack_overflow() {
    // Built by moving, not with `json!` (which would serialize the inner value).
    let mut schema = json!({"type": "integer"});
    for _ in 0..100_000 {
        let mut map = serde_json::Map::new();
        map.insert("items".to_string(), schema);
        schema = Value::Object(map);
    }
    let error = Validator::new(&schema).unwrap_err();
    assert_eq!(error.kind(), SchemaErrorKind::LimitExceeded);
    let mut value = schema;
    while let Value::Object(mut map) = value {
        value = map.remove("items").unwrap_or(Value::Null);
    }
}

#[test]
fn reference_cycles_that_consume_no_input_terminate() {
    // Unconditional cycles are refused at construction, the others stop the run (both
    // pinned in detail by tests/cycles.rs).
    for schema in [
        json!({"$ref": "#"}),
        json!({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
    ] {
        let error = Validator::new(&schema).unwrap_err();
        assert_eq!(error.kind(), SchemaErrorKind::InfiniteRecursion, "{schema}");
    }
    let schema = json!({"anyOf": [{"$ref": "#"}, {"type": "string"}]});
    let validator = Validator::new(&schema).unwrap();
    for instance in [json!(1), json!("x"), json!({"a": [1]})] {
        assert!(
            !validator.is_valid(&instance),
            "{schema} accepted {instance}"
        );
        let error = validator.validate(&instance).unwrap_err();
        assert_eq!(error.kind(), ValidationErrorKind::InfiniteRecursion);
    }
}

#[test]
fn unresolvable_references_are_schema_errors() {
    for reference in [
        "#/$defs/missing",
        "#nowhere",
        "https://example.com/remote.json",
        "other.json#/x",
    ] {
        let error = Validator::new(&json!({"properties": {"a": {"$ref": reference}}})).unwrap_err();
        assert_eq!(
            error.kind(),
            SchemaErrorKind::UnresolvableReference,
            "{reference}"
        );
        assert_eq!(error.location(), "/properties/a/$ref");
    }
}

/// A pattern whose first alternative backtracks exponentially before the second can
/// match: the backtracking engine stops it at its step limit on this haystack.
const CATASTROPHIC: &str = r"(a|a)*(?=b)\1|x";

fn catastrophic_haystack() -> String {
    format!("{}x", "a".repeat(40))
}

#[test]
fn a_stopped_pattern_check_never_passes_and_says_it_stopped() {
    let hostile = catastrophic_haystack();
    let object = |key: &str| json!({ key: hostile.clone() });
    // The check stopped at its own limit, wherever it sits: under `not` too, which must
    // not read the stopped check's `false` as a pass.
    let cases = [
        (json!({"pattern": CATASTROPHIC}), json!(hostile)),
        (json!({"not": {"pattern": CATASTROPHIC}}), json!(hostile)),
        (
            json!({"not": {"properties": {"x": {"pattern": CATASTROPHIC}}}}),
            object("x"),
        ),
        (
            json!({"not": {"properties": {"x": {"type": "string", "pattern": CATASTROPHIC}}}}),
            object("x"),
        ),
        (
            json!({"not": {"patternProperties": {CATASTROPHIC: true}, "additionalProperties": false}}),
            object(&hostile),
        ),
        (
            json!({"not": {"propertyNames": {"pattern": CATASTROPHIC}}}),
            object(&hostile),
        ),
        (
            json!({"not": {"items": {"pattern": CATASTROPHIC}}}),
            json!([hostile.clone(), "x"]),
        ),
        (
            json!({"anyOf": [{"pattern": CATASTROPHIC}, true]}),
            json!(hostile),
        ),
        (
            json!({"not": {"additionalProperties": {"pattern": CATASTROPHIC}}}),
            object("y"),
        ),
    ];
    for (schema, instance) in cases {
        let validator = Validator::new(&schema).unwrap();
        assert!(!validator.is_valid(&instance), "{schema}");
        let error = validator.validate(&instance).unwrap_err();
        assert_eq!(
            error.kind(),
            ValidationErrorKind::BudgetExhausted,
            "{schema}"
        );
        assert!(
            error.message().contains("pattern check") && error.message().contains("limit"),
            "{schema}: {error}"
        );
        let errors: Vec<_> = validator.iter_errors(&instance).collect();
        assert!(
            errors
                .iter()
                .any(|e| e.kind() == ValidationErrorKind::BudgetExhausted),
            "{schema}: {errors:?}"
        );
        assert!(
            errors
                .iter()
                .all(|e| !e.message().contains("does not match")),
            "{schema}: {errors:?}"
        );
    }
    // The same pattern answers where it can.
    let validator = Validator::new(&json!({"pattern": CATASTROPHIC})).unwrap();
    assert!(validator.is_valid(&json!("x")));
    assert!(!validator.is_valid(&json!("yy")));
}

#[test]
fn pattern_work_is_paid_from_the_step_budget() {
    // `(?=a)` and then an `a` per character: a few backtracking steps per character of
    // each value, so twenty such values cost far more than one.
    let schema = json!({"additionalProperties": {"pattern": "^(?:(?=a)a)*$"}});
    let value = "a".repeat(10_000);
    let instance: serde_json::Map<String, Value> = (0..20)
        .map(|i| (format!("p{i}"), json!(value.clone())))
        .collect();
    let instance = Value::Object(instance);
    let unbounded = Validator::new(&schema).unwrap();
    assert!(unbounded.is_valid(&instance));
    // Enough for a few values, not for twenty: the budget ends the validation.
    let bounded = Validator::options()
        .with_step_budget(200_000)
        .build(&schema)
        .unwrap();
    assert!(!bounded.is_valid(&instance));
    let error = bounded.validate(&instance).unwrap_err();
    assert_eq!(error.kind(), ValidationErrorKind::BudgetExhausted);
    // One value takes about 60,000 steps (six per character) and 1,250 for its bytes
    // (one per 8 scanned); twenty times that, and a little more for the object itself,
    // passes.
    let ample = Validator::options()
        .with_step_budget(20 * 62_000)
        .build(&schema)
        .unwrap();
    assert!(ample.is_valid(&instance));
}

#[test]
fn costly_counted_lookarounds_are_refused_when_compiled() {
    // A lookahead inside a group repeated a million times: each check would walk every
    // iteration. Refused, saying why; the same count without a lookaround goes to the
    // automaton, whose size limit decides.
    for pattern in [
        "^(?:(?=a)a){1000000}$",
        "((?=x)){10000000}",
        "(?:(?:(?!b)a){1000}){1000}",
        "(?=a{1111111111111111111110,})",
    ] {
        let error = Validator::new(&json!({"pattern": pattern})).unwrap_err();
        assert_eq!(error.kind(), SchemaErrorKind::InvalidPattern, "{pattern}");
        assert!(error.message().contains("too costly"), "{pattern}: {error}");
    }
    // Within the bound: compiles, and matches.
    let validator = Validator::new(&json!({"pattern": "^(?:(?=a)a){100000}$"})).unwrap();
    assert!(validator.is_valid(&json!("a".repeat(100_000))));
    assert!(!validator.is_valid(&json!("a".repeat(99_999))));
}

/// `if k then true else if k+1 ...` for `k` in `0..links`, the last `else` false.
fn else_if_chain(links: u64) -> Value {
    let mut schema = json!(false);
    for k in (0..links).rev() {
        let link = [
            ("if".to_string(), json!({ "const": k })),
            ("then".to_string(), json!(true)),
            ("else".to_string(), schema),
        ];
        schema = Value::Object(serde_json::Map::from_iter(link));
    }
    schema
}

#[test]
fn an_else_if_chain_takes_a_step_and_a_level_per_link_in_either_mode() {
    // The fast mode runs a chain's links in a loop, the explaining mode through `eval`:
    // the same verdict, and the same limit reached, under every depth and budget.
    let schema = else_if_chain(40);
    for depth in [3, 10, 39, 41, 100] {
        for steps in [1, 5, 20, 79, 81, 1000] {
            let validator = Validator::options()
                .with_max_instance_depth(depth)
                .with_step_budget(steps)
                .build(&schema)
                .unwrap();
            for k in 0..=41u64 {
                let instance = json!(k);
                let first = validator.validate(&instance).err().map(|e| e.kind());
                assert_eq!(
                    validator.is_valid(&instance),
                    first.is_none(),
                    "depth {depth}, steps {steps}, instance {k}: {first:?}"
                );
                // Unlimited, the links below 40 pass and the rest fall to `false`.
                if depth == 100 && steps == 1000 {
                    assert_eq!(first.is_none(), k < 40, "{k}");
                }
                // Deep in the chain, the level or the budget runs out first.
                if k == 30 && depth == 10 && steps == 1000 {
                    assert_eq!(first, Some(ValidationErrorKind::DepthExceeded));
                }
                if k == 30 && depth == 100 && steps == 20 {
                    assert_eq!(first, Some(ValidationErrorKind::BudgetExhausted));
                }
            }
        }
    }
}

#[test]
fn a_table_of_leaves_checked_before_it_is_explained_spends_what_is_valid_spends() {
    // `validate` runs a table whose values all settle in place (a pattern among them,
    // paid from the budget) in the fast mode first, and explains it only when that
    // fails: under every budget the verdict is `is_valid`'s, and with room the error is
    // the one `iter_errors` reports first.
    let schema = json!({
        "type": "object",
        "properties": {
            "code": {"type": "string", "pattern": "^[A-Z]{2}[0-9]{1,4}$"},
            "mode": {"enum": ["a", "b"]},
            "n": {"type": "integer", "minimum": 1}
        },
        "required": ["mode"],
        "allOf": [
            {"if": {"properties": {"mode": {"const": "a"}}}, "then": {"required": ["n"]}},
            {"anyOf": [{"required": ["code"]}, {"required": ["n"]}]}
        ]
    });
    let instances = [
        json!({"code": "LH454", "mode": "a", "n": 2}),
        json!({"code": "LH454", "mode": "a"}),
        json!({"code": "lh454", "mode": "a", "n": 2}),
        json!({"code": "LH454", "mode": "c", "n": 2}),
        json!({"code": "LH454", "mode": "b", "n": 0}),
        json!({"mode": "b"}),
        json!({"code": "LH454"}),
    ];
    for steps in (1..=40).chain([1000]) {
        let validator = Validator::options()
            .with_step_budget(steps)
            .build(&schema)
            .unwrap();
        for instance in &instances {
            let first = validator.validate(instance).err();
            assert_eq!(
                validator.is_valid(instance),
                first.is_none(),
                "steps {steps}, {instance}: {first:?}"
            );
            if steps == 1000 {
                let listed = validator.iter_errors(instance).next();
                assert_eq!(
                    first.as_ref().map(ToString::to_string),
                    listed.as_ref().map(ToString::to_string),
                    "{instance}"
                );
            }
        }
    }
}
