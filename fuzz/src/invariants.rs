//! The invariants every input must keep, checked by panicking with a self-contained
//! report (schema, instance, what disagreed) when one is broken.
//!
//! Three entry points, one per fuzz target, are shared with the ordinary test suite:
//!
//! * [`compile_input`]: arbitrary bytes; if they are JSON, they are compiled as a
//!   schema under every dialect, with the metaschema check off, and under the MCP
//!   profile, and the schema is run against a few instances (itself included); a schema
//!   compiled with the metaschema check on must pass that metaschema's validator.
//! * [`check_case`]: a generated schema and instances; the verdict must not depend on
//!   the entry point (`is_valid` / `validate` / `iter_errors`), on compiling twice, on
//!   object key order, on the step budget (beyond "exhausted means invalid"), on the MCP
//!   profile's bounds, or on wrapping the schema in `allOf`, `$defs` + `$ref` or
//!   `not`/`not`. Every error must point into the instance and the schema, and no two
//!   errors may share kind, instance location and schema location. A cycle through the
//!   schema and back to the root never validates: after `allOf` it is a schema error,
//!   after `anyOf` it stops exactly the instances the schema rejects in `$defs` (or
//!   that stop it there).
//! * [`regex_input`]: arbitrary text as a `pattern` and a `patternProperties` key;
//!   the two must agree, and the text escaped as a literal must match exactly itself.
//! * [`text_input`]: arbitrary bytes as JSON text, validated in place
//!   (`is_valid_json` / `validate_json`) against a schema of the input's first line and
//!   a few fixed ones: refused exactly when `serde_json` refuses it, else the verdict of
//!   the parsed value (exactly so where its numbers are ones a double holds).
//!
//! This file depends only on `mcp_jsonschema` and `serde_json`, so that
//! `tests/fuzz_regressions.rs` and `tests/properties.rs` include it with
//! `#[path = "../fuzz/src/invariants.rs"] mod invariants;`.

#![allow(dead_code)] // Each includer uses a different part.

use mcp_jsonschema::mcp::{self, ToolSchema};
use mcp_jsonschema::{
    Draft, JsonError, SchemaError, SchemaErrorKind, ValidationError, ValidationErrorKind,
    ValidationOptions, Validator,
};
use serde_json::{json, Map, Value};

/// The step budget of the reference runs: large enough for every generated case to
/// finish, small enough that no input can hang a fuzzer (well under a millisecond of
/// work). A pattern check the backtracking engine stops spends the whole budget, in each
/// of the hundreds of runs a case makes: at 200,000 steps, a case of three instances
/// and a catastrophic pattern took 2 s of CPU, and libFuzzer reported it as slow.
pub const REFERENCE_BUDGET: u64 = 50_000;

/// The evaluation depth limit of [`check_case`]'s validators: deep enough for every
/// generated case (instances nest at most 3 deep, plus reference hops), and shallow
/// enough that a reference cycle consuming no input (`{"$ref": "#"}`) stops after 64
/// levels instead of the default 1,000, which keeps the fuzzer fast.
pub const CASE_DEPTH: u32 = 64;

/// What one validator said about one instance, once its entry points agreed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// `is_valid`.
    pub valid: bool,
    /// Whether a depth limit, the step budget or an in-place cycle stopped the run (then
    /// `valid` is false and says nothing about the schema's meaning elsewhere).
    pub limited: bool,
    /// Whether an in-place reference cycle stopped the run.
    pub cycled: bool,
}

/// Runs `instance` through all three entry points of `validator` (compiled from
/// `schema`) and checks that they agree, that the error of `validate` is among those of
/// `iter_errors`, and that every error locates itself in the instance and the schema.
pub fn verdict(validator: &Validator, schema: &Value, instance: &Value) -> Verdict {
    let valid = validator.is_valid(instance);
    let first = validator.validate(instance);
    let errors: Vec<ValidationError> = validator.iter_errors(instance).collect();
    let context = || format!("schema: {schema}\ninstance: {instance}");
    assert_eq!(
        valid,
        first.is_ok(),
        "is_valid and validate disagree\n{}",
        context()
    );
    assert_eq!(
        valid,
        errors.is_empty(),
        "is_valid and iter_errors disagree ({errors:?})\n{}",
        context()
    );
    // `validate` may stop at its first failure, so its error need not be the first of
    // `iter_errors`, but it must be one of them. Limits blur this: the exhaustive pass
    // does more work, so it may run into a limit elsewhere (or where `validate` did not),
    // and then its list need only hold a limit error, which explains the difference.
    if let Err(first) = &first {
        check_error(schema, instance, first);
        let found = errors.iter().any(is_limit)
            || (!is_limit(first) && errors.iter().any(|e| describe(e) == describe(first)));
        assert!(
            found,
            "validate's error {first:?} is not among iter_errors ({} errors)\n{}",
            errors.len(),
            context()
        );
    }
    for error in &errors {
        check_error(schema, instance, error);
    }
    // The same subschema failing twice at the same place says nothing new (a stop's
    // echoes up a cycle were once a thousand identical lines).
    for (i, error) in errors.iter().enumerate() {
        assert!(
            !errors[..i].iter().any(|e| same_place(e, error)),
            "iter_errors repeats {error:?}\n{}",
            context()
        );
    }
    let cycled = (errors.iter()).any(|e| e.kind() == ValidationErrorKind::InfiniteRecursion);
    let limited = errors.iter().any(is_limit);
    Verdict {
        valid,
        limited,
        cycled,
    }
}

/// Whether two errors have the same kind, instance location and schema location (and,
/// for a missing property, the same message: the name it lacks).
fn same_place(a: &ValidationError, b: &ValidationError) -> bool {
    a.kind() == b.kind()
        && a.instance_location() == b.instance_location()
        && a.schema_location() == b.schema_location()
        // Each name `required` lists that the object lacks is an error of its own.
        && (a.kind() != ValidationErrorKind::Required || a.message() == b.message())
}

/// Whether `error` stopped the run without a verdict of the schema's: a limit of the
/// validator, or an in-place cycle (whose meaning the spec leaves undefined, so which
/// runs reach it may depend on evaluation order).
fn is_limit(error: &ValidationError) -> bool {
    matches!(
        error.kind(),
        ValidationErrorKind::DepthExceeded
            | ValidationErrorKind::BudgetExhausted
            | ValidationErrorKind::InfiniteRecursion
    )
}

/// Everything an error says, for comparing two of them.
fn describe(error: &ValidationError) -> String {
    format!(
        "{:?} {} {} {}",
        error.kind(),
        error.instance_location(),
        error.schema_location(),
        error.message()
    )
}

/// An error's instance location must exist in the instance, and its schema location
/// (when it is a plain JSON Pointer, i.e. in the root document) in the schema.
fn check_error(schema: &Value, instance: &Value, error: &ValidationError) {
    let _ = error.to_string();
    // The masked rendering (no instance values) works on every error, and locates it
    // as the plain one does.
    let masked = error.masked().to_string();
    let at = match error.instance_location() {
        "" => "(root)",
        at => at,
    };
    assert!(
        masked.starts_with(&format!("{at}: ")),
        "masked {masked:?} of {error:?}\nschema: {schema}\ninstance: {instance}"
    );
    let _ = error.masked().details();
    assert!(
        instance.pointer(error.instance_location()).is_some(),
        "error {error:?} names an instance location that does not exist\nschema: {schema}\ninstance: {instance}"
    );
    let location = error.schema_location();
    if location.is_empty() || location.starts_with('/') {
        assert!(
            schema.pointer(location).is_some(),
            "error {error:?} names a schema location that does not exist\nschema: {schema}\ninstance: {instance}"
        );
    }
}

/// A schema error must name a place: a JSON Pointer, maybe after a document URI.
fn check_schema_error(schema: &Value, error: &SchemaError) {
    let _ = error.to_string();
    let location = error.location();
    if location.is_empty() || location.starts_with('/') {
        assert!(
            schema.pointer(location).is_some() || parent_exists(schema, location),
            "schema error {error:?} names a location that does not exist\nschema: {schema}"
        );
    }
}

/// Whether the object or array holding `location` exists (a missing keyword, such as a
/// `required` member, is reported at the place it should be).
fn parent_exists(schema: &Value, location: &str) -> bool {
    location
        .rfind('/')
        .is_some_and(|slash| schema.pointer(&location[..slash]).is_some())
}

/// Reads a JSON case, `{"schema": S, "instances": [...], "budget": n}`: `None` unless
/// it is an object with a `schema`. Missing `instances` mean none, a missing `budget`
/// 100 steps.
pub fn parse_case(text: &[u8]) -> Option<(Value, Vec<Value>, u64)> {
    let mut case: Value = serde_json::from_slice(text).ok()?;
    let schema = case.get_mut("schema")?.take();
    let instances = match case.get_mut("instances").map(Value::take) {
        Some(Value::Array(instances)) => instances,
        _ => Vec::new(),
    };
    let budget = case.get("budget").and_then(Value::as_u64).unwrap_or(100);
    Some((schema, instances, budget))
}

/// `schema` and `instances` keep every invariant listed in the module docs.
/// `small_budget` is the step budget of the budget-monotonicity check.
pub fn check_case(schema: &Value, instances: &[Value], small_budget: u64) {
    let options = Validator::options()
        .with_step_budget(REFERENCE_BUDGET)
        .with_max_instance_depth(CASE_DEPTH);
    let validator = match options.build(schema) {
        Ok(validator) => validator,
        Err(error) => {
            check_schema_error(schema, &error);
            return;
        }
    };
    // The second compilation also builds the annotating program, which `evaluate`
    // runs (a build with debug assertions, `cargo fuzz run -a`, checks its verdict).
    let again = (options.clone().with_annotations(true))
        .build(schema)
        .unwrap_or_else(|e| panic!("compiles once, then fails with {e:?}\nschema: {schema}"));
    let small_budget = small_budget.min(REFERENCE_BUDGET);
    let small = options
        .clone()
        .with_step_budget(small_budget)
        .build(schema)
        .unwrap_or_else(|e| panic!("the step budget changed compilation: {e:?}\nschema: {schema}"));
    let reordered_schema = reverse_keys(schema);
    let reordered = options.build(&reordered_schema).unwrap_or_else(|e| {
        panic!("reordering keys broke compilation: {e:?}\nschema: {reordered_schema}")
    });
    // Wrapping preserves meaning only in 2020-12 without `$schema` (see `wrappers`).
    let wrapped: Vec<(&str, Value, Validator)> = if schema.get("$schema").is_none() {
        wrappers(schema)
            .into_iter()
            .map(|(name, wrapped)| {
                let validator = options.build(&wrapped).unwrap_or_else(|e| {
                    panic!("wrapping in {name} broke compilation: {e:?}\nschema: {wrapped}")
                });
                (name, wrapped, validator)
            })
            .collect()
    } else {
        Vec::new()
    };
    let profile = mcp::profile().build(schema).ok();
    let cycles = schema
        .get("$schema")
        .is_none()
        .then(|| cycle_wrappers(schema, &options));

    for instance in instances {
        let base = verdict(&validator, schema, instance);
        let context = || format!("schema: {schema}\ninstance: {instance}");

        let second = verdict(&again, schema, instance);
        assert_eq!(base, second, "two compilations disagree\n{}", context());
        let evaluation = again.evaluate(instance);
        assert_eq!(
            evaluation.valid(),
            base.valid,
            "evaluate disagrees\n{}",
            context()
        );
        assert_eq!(
            evaluation.errors().next().is_none(),
            base.valid,
            "evaluate's errors disagree with its verdict\n{}",
            context()
        );
        // Every output format is built without a panic, and says the verdict.
        for output in [
            evaluation.basic(),
            evaluation.detailed(),
            evaluation.verbose(),
        ] {
            assert_eq!(output["valid"], base.valid, "{output}\n{}", context());
        }

        let bounded = verdict(&small, schema, instance);
        assert!(
            !bounded.valid || base.valid,
            "valid with a budget of {small_budget} steps but not with {REFERENCE_BUDGET}\n{}",
            context()
        );
        if base.valid && !bounded.valid {
            assert!(
                bounded.limited,
                "budget {small_budget} turned valid into invalid without saying so\n{}",
                context()
            );
        }

        let reordered_instance = reverse_keys(instance);
        let turned = verdict(&reordered, &reordered_schema, &reordered_instance);
        agree(&base, &turned, "reversing object keys", &context);

        // What S says where the cycle wrapper puts it (`$defs` + `$ref`), for the check below.
        let mut embedded = None;
        for (name, wrapped_schema, wrapped_validator) in &wrapped {
            let seen = verdict(wrapped_validator, wrapped_schema, instance);
            agree(&base, &seen, &format!("wrapping in {name}"), &context);
            if *name == "$defs" {
                embedded = Some(seen);
            }
        }

        if let Some(profile) = &profile {
            let seen = verdict(profile, schema, instance);
            agree(&base, &seen, "the MCP profile", &context);
        }

        if let (Some((wrapped_schema, wrapped_validator)), Some(embedded)) = (&cycles, &embedded) {
            // `anyOf: [S, <the root again>]`, S in `$defs` as in the `$defs` wrapper: what
            // S accepts there passes on the first branch; what it rejects goes round the
            // cycle, which must stop the run; where S's own cycle or a limit stopped it,
            // the first branch stops too. (Compared with S embedded, not with S as the
            // document: which runs reach one of S's own cycles may depend on evaluation
            // order, and so on what the compiler knows of S where it sits, see B11 in
            // fuzz/README.md; `agree` above already allows for that.) The wrapper nests S
            // one level deeper than the `$defs` wrapper does, and takes a few steps more:
            // a run that needed every level or step there may stop here at the depth
            // limit or the budget, never valid (B12).
            let seen = verdict(wrapped_validator, wrapped_schema, instance);
            let stopped_by_a_limit = seen.limited && !seen.cycled && !seen.valid;
            if embedded.limited {
                assert!(
                    !seen.valid && seen.limited,
                    "S stopped in $defs, but not before a cycle after it\nschema: {wrapped_schema}\ninstance: {instance}"
                );
            } else if !stopped_by_a_limit {
                assert_eq!(
                    seen.valid,
                    embedded.valid,
                    "a cycle after S changed its verdict\n{}",
                    context()
                );
                assert!(
                    embedded.valid || seen.cycled || seen.limited,
                    "going round a cycle was not reported as one\nschema: {wrapped_schema}\ninstance: {instance}"
                );
            }
        }
    }
}

/// The two cycle wrappers of `schema` (see [`check_case`]): `allOf: [S, <root>]` must be
/// refused as infinitely recursive; `anyOf: [S, <root>]` is returned, compiled, for
/// checking each instance.
fn cycle_wrappers(schema: &Value, options: &ValidationOptions) -> (Value, Validator) {
    let s = rebase(schema, "/$defs/s");
    let always = json!({"$defs": {"s": s}, "allOf": [{"$ref": "#/$defs/s"}, {"$ref": "#"}]});
    match options.build(&always) {
        Err(error) if error.kind() == SchemaErrorKind::InfiniteRecursion => {}
        other => panic!("an unconditional cycle compiled as {other:?}\nschema: {always}"),
    }
    let sometimes = json!({"$defs": {"s": s}, "anyOf": [{"$ref": "#/$defs/s"}, {"$ref": "#"}]});
    let validator = options.build(&sometimes).unwrap_or_else(|e| {
        panic!("a conditional cycle broke compilation: {e:?}\nschema: {sometimes}")
    });
    (sometimes, validator)
}

/// Two verdicts of equivalent validators agree unless a limit stopped either run.
fn agree(base: &Verdict, other: &Verdict, what: &str, context: &dyn Fn() -> String) {
    if !base.limited && !other.limited {
        assert_eq!(
            base.valid,
            other.valid,
            "{what} changed the verdict\n{}",
            context()
        );
    }
}

/// `schema` in three wrappers that must not change any verdict: `{"allOf": [S]}`,
/// `{"$defs": {"s": S}, "$ref": "#/$defs/s"}` and `{"not": {"not": S}}`. References
/// relative to the root resource are rebased onto S's new place (see [`rebase`]).
pub fn wrappers(schema: &Value) -> Vec<(&'static str, Value)> {
    vec![
        ("allOf", json!({"allOf": [rebase(schema, "/allOf/0")]})),
        (
            "$defs",
            json!({"$defs": {"s": rebase(schema, "/$defs/s")}, "$ref": "#/$defs/s"}),
        ),
        (
            "not/not",
            json!({"not": {"not": rebase(schema, "/not/not")}}),
        ),
    ]
}

/// Keywords whose value is one subschema.
const SINGLE: [&str; 12] = [
    "additionalProperties",
    "propertyNames",
    "items",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "contentSchema",
];
/// Keywords whose value is an array of subschemas.
const ARRAYS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value is an object of subschemas.
const MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// `schema` moved to `prefix` (a JSON Pointer) inside a new root document: every `$ref`
/// and `$dynamicRef` that is a JSON Pointer fragment (`#`, `#/...`) into the root
/// resource gets `prefix` in front. Embedded resources (`$id`) keep their own base, so
/// their contents are left alone, as is the whole schema when its root has an `$id`.
pub fn rebase(schema: &Value, prefix: &str) -> Value {
    let mut schema = schema.clone();
    if schema.get("$id").is_none() {
        rebase_in_place(&mut schema, prefix);
    }
    schema
}

fn rebase_in_place(schema: &mut Value, prefix: &str) {
    let Value::Object(map) = schema else {
        return;
    };
    for keyword in ["$ref", "$dynamicRef"] {
        if let Some(Value::String(reference)) = map.get_mut(keyword) {
            if let Some(pointer) = reference.strip_prefix('#') {
                if pointer.is_empty() || pointer.starts_with('/') {
                    *reference = format!("#{prefix}{pointer}");
                }
            }
        }
    }
    let mut rebase_child = |child: &mut Value| {
        if child.get("$id").is_none() {
            rebase_in_place(child, prefix);
        }
    };
    for (keyword, value) in map.iter_mut() {
        let keyword = keyword.as_str();
        match value {
            Value::Array(items) if ARRAYS.contains(&keyword) => {
                items.iter_mut().for_each(&mut rebase_child);
            }
            Value::Object(entries) if MAPS.contains(&keyword) => {
                entries.values_mut().for_each(&mut rebase_child);
            }
            child if SINGLE.contains(&keyword) => rebase_child(child),
            _ => {}
        }
    }
}

/// `value` with the keys of every object in reverse order. Without serde_json's
/// `preserve_order` feature maps are sorted and this is the identity.
pub fn reverse_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut reversed = Map::new();
            for (key, child) in map.iter().rev() {
                reversed.insert(key.clone(), reverse_keys(child));
            }
            Value::Object(reversed)
        }
        Value::Array(items) => Value::Array(items.iter().map(reverse_keys).collect()),
        other => other.clone(),
    }
}

/// The step budget used when compiling arbitrary documents, so no input hangs.
const COMPILE_TARGET_BUDGET: u64 = 100_000;

/// The `compile` target: `data` parsed as JSON and compiled every way the library offers;
/// nothing may panic, and every compiled schema must keep the entry-point invariants on
/// a few instances (the schema itself among them).
pub fn compile_input(data: &[u8]) {
    let Ok(schema) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let instances = [
        Value::Null,
        json!(0),
        json!(1.5),
        json!(""),
        json!([1, "a", null]),
        json!({"a": 1, "b": [true]}),
        schema.clone(),
    ];
    let mut all: Vec<(Option<Draft>, ValidationOptions)> = [
        Draft::Draft202012,
        Draft::Draft201909,
        Draft::Draft7,
        Draft::Draft6,
        Draft::Draft4,
    ]
    .into_iter()
    .map(|draft| (Some(draft), Validator::options().with_draft(draft)))
    .collect();
    all.push((None, Validator::options().with_metaschema_check(false)));
    all.push((None, Validator::options().with_format_assertion(true)));
    all.push((None, mcp::profile()));
    for (draft, options) in all {
        match options
            .with_step_budget(COMPILE_TARGET_BUDGET)
            .build(&schema)
        {
            Ok(validator) => {
                // What the metaschema check let through, the metaschema accepts: its
                // walk of keyword shapes never passes a schema the program would not.
                // (Only the options that name a draft: the others turn the check off or
                // are the MCP profile's.)
                if let (Some(draft), Ok(declared)) = (draft, Draft::detect(&schema)) {
                    let declared = declared.unwrap_or(draft);
                    assert!(
                        mcp_jsonschema::meta::metaschema(declared).is_valid(&schema),
                        "compiled under {declared:?}, but its metaschema refuses it\nschema: {schema}"
                    );
                }
                let _ = format!("{validator:?}");
                let _ = validator.memory_usage();
                for instance in &instances {
                    verdict(&validator, &schema, instance);
                }
            }
            Err(error) => check_schema_error(&schema, &error),
        }
    }
    for tool in [ToolSchema::input(&schema), ToolSchema::output(&schema)]
        .into_iter()
        .flatten()
    {
        for instance in &instances {
            verdict(tool.validator(), tool.to_wire(), instance);
        }
    }
    let reports = mcp::check_tools_list(
        &json!({"tools": [{"name": "t", "inputSchema": schema.clone(), "outputSchema": schema}]}),
    );
    for report in reports {
        let _ = report.problems();
    }
    bundles_and_metaschema_errors(&schema, &instances);
}

/// Bundling `schema` never panics, and its same-document bundle (the MCP profile's,
/// which rewrites every reference to a pointer and removes `$id`s and anchors) gives
/// each of `instances` the verdict the schema gives, limits aside; the metaschema's
/// list of errors is empty exactly when `meta::is_valid` says so.
pub fn bundles_and_metaschema_errors(schema: &Value, instances: &[Value]) {
    for draft in [
        Draft::Draft202012,
        Draft::Draft201909,
        Draft::Draft7,
        Draft::Draft6,
    ] {
        let options = Validator::options()
            .with_draft(draft)
            .with_step_budget(COMPILE_TARGET_BUDGET);
        let _ = mcp_jsonschema::bundle(schema, &options);
        let Ok(original) = options.build(schema) else {
            continue;
        };
        let Ok(bundled) = mcp::bundle(schema, &options) else {
            continue;
        };
        let rebuilt = options.build(&bundled).unwrap_or_else(|e| {
            panic!("the same-document bundle does not compile: {e}\nschema: {schema}\nbundle: {bundled}")
        });
        for instance in instances {
            let (before, after) = (original.validate(instance), rebuilt.validate(instance));
            let limited = |r: &Result<(), ValidationError>| r.as_ref().is_err_and(is_limit);
            if limited(&before) || limited(&after) {
                continue;
            }
            assert_eq!(
                before.is_ok(),
                after.is_ok(),
                "the same-document bundle disagrees\nschema: {schema}\nbundle: {bundled}\ninstance: {instance}"
            );
        }
    }
    if let Ok(errors) = mcp_jsonschema::meta::iter_errors(schema) {
        let listed = errors.count();
        assert_eq!(
            listed == 0,
            mcp_jsonschema::meta::is_valid(schema),
            "{schema}"
        );
    }
}

/// Strings every pattern is tried against: short, long, Unicode, and a classic
/// catastrophic-backtracking probe.
const PROBES: [&str; 8] = [
    "",
    "a",
    "abc",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
    "é😀\u{0}\n",
    "2020-01-01",
    "ab ab ab",
    "\\d{3}",
];

/// The `regex` target: `data` (as UTF-8, lossily) as a `pattern` and as a
/// `patternProperties` key. The two must compile alike and agree on every probe
/// (including the pattern's own text); and the text escaped as an ECMA-262 literal and
/// anchored must match exactly itself.
pub fn regex_input(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let text: &str = &text;
    let options = Validator::options().with_step_budget(COMPILE_TARGET_BUDGET);
    let as_pattern = options.build(&json!({"pattern": text}));
    let as_key = options.build(&json!({"patternProperties": {text: false}}));
    match (&as_pattern, &as_key) {
        (Ok(pattern), Ok(key)) => {
            for probe in PROBES.iter().copied().chain([text]) {
                let matched = verdict(pattern, &json!({"pattern": text}), &json!(probe));
                let object = json!({ probe: 0 });
                let named = verdict(key, &json!({"patternProperties": {text: false}}), &object);
                if !matched.limited && !named.limited {
                    assert_eq!(
                        matched.valid, !named.valid,
                        "pattern and patternProperties disagree on {probe:?}\npattern: {text:?}"
                    );
                }
            }
        }
        (Err(a), Err(b)) => {
            check_schema_error(&json!({"pattern": text}), a);
            assert_eq!(a.kind(), b.kind(), "pattern {text:?}: {a:?} vs {b:?}");
        }
        _ => panic!(
            "pattern {text:?} compiles as a pattern or a patternProperties key, not both: {:?} / {:?}",
            as_pattern.err(),
            as_key.err()
        ),
    }

    let literal = format!("^{}$", escape(text));
    let exact = options
        .build(&json!({"pattern": literal}))
        .unwrap_or_else(|e| panic!("the escaped literal {literal:?} does not compile: {e:?}"));
    let schema = json!({"pattern": literal});
    assert!(
        verdict(&exact, &schema, &json!(text)).valid,
        "{literal:?} does not match {text:?}"
    );
    for other in [format!("{text}x"), format!("x{text}"), format!("{text}\n")] {
        assert!(
            !verdict(&exact, &schema, &json!(other)).valid,
            "{literal:?} matches {other:?}"
        );
    }
}

/// `text` with every ECMA-262 syntax character escaped, so it matches itself.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if "^$\\.*+?()[]{}|/".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// The schemas [`text_input`] validates every text against, beside the input's own:
/// numbers judged every way, objects with repeated names, nesting, strings.
const TEXT_SCHEMAS: &[&str] = &[
    r#"{"type": "integer"}"#,
    r#"{"items": {"multipleOf": 0.01, "maximum": 1e20, "exclusiveMinimum": -3}}"#,
    r#"{"enum": [1, 2.5, 100000000000000000000, "a", {"a": [1]}, [1, {}]]}"#,
    r#"{"uniqueItems": true}"#,
    r#"{"properties": {"a": {"const": 1}, "b": {"type": "string", "maxLength": 3}},
        "additionalProperties": {"type": ["array", "null"]}, "required": ["a"]}"#,
    r##"{"$defs": {"t": {"items": {"$ref": "#/$defs/t"}, "maxItems": 2}}, "$ref": "#/$defs/t"}"##,
    r#"{"anyOf": [{"type": "number", "minimum": 0}, {"propertyNames": {"pattern": "^[a-c]"}}]}"#,
];

/// Whether every number token of `text` (a run of `[-+.eE0-9]`, strings included, which
/// only makes this say no more often) has at most 15 digits before any exponent and an
/// exponent of at most two digits: then the double `serde_json` reads is the number the
/// text says, and the text's exact verdict must be the parsed value's.
fn plain_numbers(text: &[u8]) -> bool {
    let token = |b: &u8| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E');
    text.split(|b| !token(b)).all(|run| {
        let mut parts = run.splitn(2, |b| matches!(b, b'e' | b'E'));
        let digits = |part: Option<&[u8]>| {
            part.map_or(0, |p| p.iter().filter(|b| b.is_ascii_digit()).count())
        };
        digits(parts.next()) <= 15 && digits(parts.next()) <= 2
    })
}

/// The `text` fuzz target: the input's first line, if it is JSON, is a schema; the rest
/// (or the whole input without a line break) is JSON text, validated in place against
/// it and [`TEXT_SCHEMAS`]. Nothing may panic; the text is refused as not JSON exactly
/// when `serde_json` refuses it; `is_valid_json` and `validate_json` agree; the value
/// `serde_json` reads, written back, gets the verdict of `is_valid` on that value, and
/// so does the text itself where its numbers are [plain](plain_numbers). Runs that a
/// limit stopped are not compared.
pub fn text_input(data: &[u8]) {
    let (first, text) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&b""[..], data),
    };
    let own = serde_json::from_slice::<Value>(first).ok();
    let fixed = TEXT_SCHEMAS
        .iter()
        .map(|s| serde_json::from_str::<Value>(s).unwrap());
    let tree = serde_json::from_slice::<Value>(text);
    let shown = String::from_utf8_lossy(text);
    for schema in own.into_iter().chain(fixed) {
        let Ok(validator) = Validator::options()
            .with_step_budget(REFERENCE_BUDGET)
            .with_max_instance_depth(CASE_DEPTH)
            .build(&schema)
        else {
            continue;
        };
        let in_place = validator.is_valid_json(text);
        let checked = validator.validate_json(text);
        let value = match (&tree, &in_place, &checked) {
            (Err(_), Err(_), Err(JsonError::Syntax(_))) => continue,
            (Ok(value), Ok(_), Ok(()) | Err(JsonError::Invalid(_))) => value,
            _ => panic!(
                "the text path and serde_json disagree on whether this is JSON: serde_json \
                 {tree:?}, is_valid_json {in_place:?}, validate_json {checked:?}\ntext: {shown}"
            ),
        };
        let valid = in_place.unwrap_or_default();
        assert_eq!(
            valid,
            checked.is_ok(),
            "is_valid_json and validate_json disagree\nschema: {schema}\ntext: {shown}"
        );
        if validator.iter_errors(value).any(|e| is_limit(&e)) {
            continue;
        }
        let by_value = validator.is_valid(value);
        let written = serde_json::to_vec(value).unwrap();
        assert_eq!(
            validator.is_valid_json(&written).ok(),
            Some(by_value),
            "the text serde_json writes and its value disagree\nschema: {schema}\nvalue: {value}"
        );
        if plain_numbers(text) {
            assert_eq!(
                valid, by_value,
                "the text and the value serde_json reads disagree\nschema: {schema}\ntext: {shown}"
            );
        }
    }
}
