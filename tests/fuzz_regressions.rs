//! Replays the committed fuzz inputs as ordinary tests, so CI exercises them on every
//! submission without a fuzzer.
//!
//! Every file in `fuzz/regressions/<target>/` goes through the same checks as in its
//! fuzz target (`fuzz/src/invariants.rs`, included below):
//!
//! * `compile/`: any bytes; if JSON, compiled every way the library offers and run on a
//!   few instances;
//! * `validate/`: a JSON case `{"schema": ..., "instances": [...], "budget": n}`, checked
//!   against every invariant of `check_case` (entry points agree, key order, wrappers,
//!   step budget, MCP profile);
//! * `regex/`: any text, as a `pattern` and a `patternProperties` key;
//! * `text/`: any bytes, as JSON text validated in place (the first line, if JSON, a
//!   schema too).
//!
//! A crash found by fuzzing becomes a file there (see `fuzz/README.md`). Each bug found
//! in the library also gets a test at the end of this file, marked
//! `#[ignore = "bug: ..."]` while it is open and un-ignored once fixed.
//!
//! Run: `cargo test --test fuzz_regressions` (and `-- --ignored` for open bugs, if any).

#[path = "../fuzz/src/invariants.rs"]
mod invariants;

use mcp_jsonschema::{ValidationErrorKind, Validator};
use serde_json::json;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// The files of `fuzz/regressions/<target>/`, sorted.
fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no inputs", dir.display());
    files
}

/// Runs `check` on every input of `target`, then fails listing every input that
/// panicked (so one failure does not hide the others).
fn replay(target: &str, check: impl Fn(&[u8])) {
    let mut failures = Vec::new();
    for path in inputs(target) {
        let data =
            std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        if panic::catch_unwind(AssertUnwindSafe(|| check(&data))).is_err() {
            failures.push(path.display().to_string());
        }
    }
    assert!(
        failures.is_empty(),
        "failing inputs (see the panic messages above):\n{}",
        failures.join("\n")
    );
}

#[test]
fn compile_regressions() {
    replay("compile", invariants::compile_input);
}

#[test]
fn validate_regressions() {
    replay("validate", |data| {
        let (schema, instances, budget) =
            invariants::parse_case(data).expect("a JSON object with a \"schema\"");
        invariants::check_case(&schema, &instances, budget);
    });
}

#[test]
fn regex_regressions() {
    replay("regex", invariants::regex_input);
}

#[test]
fn text_regressions() {
    replay("text", invariants::text_input);
}

// Bugs found by fuzzing, property and differential testing (fuzz/README.md, "Findings").

/// B1 (fixed in e480b64): a step-budget error named `/then` in a schema that has no
/// `then`. Error locations must name keywords of the schema (Core 2020-12 §12.4.2,
/// "Keyword Location": the location of the keyword that produced the error).
#[test]
fn budget_error_names_an_existing_keyword() {
    let schema = json!({"if": {"type": "string"}, "else": {"minimum": 1}});
    let validator = Validator::options()
        .with_step_budget(2)
        .build(&schema)
        .expect("compiles");
    let instance = json!("x");
    for error in validator.iter_errors(&instance) {
        assert_eq!(error.kind(), ValidationErrorKind::BudgetExhausted);
        assert!(
            schema.pointer(error.schema_location()).is_some(),
            "{error:?} names {:?}",
            error.schema_location()
        );
    }
}

/// B2 (fixed in e480b64): `dependentSchemas` / `dependentRequired` / `dependencies`
/// nested anywhere inside a `dependentSchemas` subschema were applied to the outer object
/// even when the trigger property is absent (found by the differential tests). Core
/// 2020-12 §10.2.2.4: the subschema applies only "if the property name is a property in
/// the instance".
#[test]
fn nested_dependent_keywords_apply_only_when_triggered() {
    let cases = [
        (
            json!({"dependentSchemas": {"x": {"dependentRequired": {"a": ["0"]}}}}),
            json!({"a": null}),
        ),
        (
            json!({"dependentSchemas": {"foo": {"dependentSchemas": {"x": false}}}}),
            json!({"x": 1}),
        ),
        (
            json!({"dependentSchemas": {"foo": {"properties": {"x": {"dependentSchemas": {"x": false}}}}}}),
            json!({"x": 1}),
        ),
        (
            json!({
                "$schema": "http://json-schema.org/draft-07/schema#",
                "dependencies": {"foo": {"dependencies": {"x": ["y"]}}}
            }),
            json!({"x": 1}),
        ),
    ];
    for (schema, instance) in cases {
        let validator = Validator::new(&schema).expect("compiles");
        assert!(
            validator.is_valid(&instance),
            "{schema} rejects {instance}: {:?}",
            validator.validate(&instance)
        );
    }
}
