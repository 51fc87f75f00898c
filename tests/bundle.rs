//! Bundling keeps verdicts, differentially: for every group of the suite's files about
//! references and identifiers (`ref*`, `refRemote`, `dynamicRef`, `recursiveRef`,
//! `anchor`, `id`, in all five dialects), the schema bundled with the suite's remotes
//! registered must compile with nothing registered and give the verdict the schema
//! gives (with the remotes) to each of its tests' instances and to every other instance
//! of the file (instances written for other schemas, a ready pool of generated ones).
//! The same-document bundle of the MCP profile too, wherever it is made; where it is
//! refused, the reason must be one it documents.
//!
//! Needs `json-schema-test-suite/` (`scripts/fetch-suite.sh`); says so and passes
//! without it, as the suite runner does.

#[path = "suite/load.rs"]
mod load;

use load::*;
use mcp_jsonschema::{Draft, SchemaErrorKind, ValidationOptions, Validator};
use serde_json::{json, Value};
use std::path::Path;

const DIALECTS: [(&str, Draft); 5] = [
    ("draft2020-12", Draft::Draft202012),
    ("draft2019-09", Draft::Draft201909),
    ("draft7", Draft::Draft7),
    ("draft6", Draft::Draft6),
    ("draft4", Draft::Draft4),
];

/// Whether the suite file `name` is about references or identifiers.
fn about_references(name: &str) -> bool {
    name.starts_with("ref")
        || [
            "dynamicRef",
            "recursiveRef",
            "anchor",
            "id",
            "unknownKeyword",
        ]
        .iter()
        .any(|prefix| name.starts_with(prefix))
}

/// What one dialect's run found.
#[derive(Default)]
struct Tally {
    groups: usize,
    verdicts: usize,
    same_document: usize,
    refused: Vec<String>,
    wrong: Vec<String>,
}

#[test]
fn bundles_give_the_verdicts_of_the_schemas_they_bundle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_DIR);
    if !root.join("tests").is_dir() {
        eprintln!("skipped: {SUITE_DIR}/ is missing (run scripts/fetch-suite.sh)");
        return;
    }
    let remotes = load_remotes(&root.join("remotes"));
    let mut total = Tally::default();
    for (dialect, draft) in DIALECTS {
        let mut options = Validator::options().with_draft(draft);
        for remote in &remotes {
            options = options.with_resource(remote.uri.clone(), remote.document.clone());
        }
        let files = json_files_in(&root.join("tests").join(dialect));
        for path in files {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned());
            let name = name.unwrap_or_default();
            if !about_references(&name) {
                continue;
            }
            let groups = load_test_file(&path);
            let pool: Vec<&Value> = groups
                .iter()
                .flat_map(|g| g.tests.iter().map(|t| &t.data))
                .collect();
            for group in &groups {
                let place = format!("{dialect}/{name} :: {}", group.description);
                run_group(&place, draft, &options, group, &pool, &mut total);
            }
        }
    }
    eprintln!(
        "bundle: {} groups, {} verdicts compared; {} same-document bundles made, {} refused",
        total.groups,
        total.verdicts,
        total.same_document,
        total.refused.len()
    );
    for refused in &total.refused {
        eprintln!("  refused (documented): {refused}");
    }
    assert!(total.wrong.is_empty(), "{}", total.wrong.join("\n"));
    assert!(total.groups > 100, "only {} groups ran", total.groups);
}

fn run_group(
    place: &str,
    draft: Draft,
    options: &ValidationOptions,
    group: &TestGroup,
    pool: &[&Value],
    tally: &mut Tally,
) {
    // A schema the library refuses (as the suite expects of some) has nothing to keep.
    let Ok(original) = options.build(&group.schema) else {
        return;
    };
    tally.groups += 1;
    let alone = Validator::options().with_draft(draft);
    let compare = |what: &str, bundled: &Value, tally: &mut Tally| {
        let validator = match alone.build(bundled) {
            Ok(validator) => validator,
            Err(e) => {
                tally.wrong.push(format!(
                    "{place}: the {what} does not compile: {e}\n  {bundled}"
                ));
                return;
            }
        };
        let extra = [json!(null), json!(0), json!("a"), json!([]), json!({})];
        for instance in group
            .tests
            .iter()
            .map(|t| &t.data)
            .chain(pool.iter().copied())
            .chain(&extra)
        {
            tally.verdicts += 1;
            let (expected, got) = (original.is_valid(instance), validator.is_valid(instance));
            if expected != got {
                tally.wrong.push(format!(
                    "{place}: the {what} says {got} of {instance}, the schema {expected}\n  {bundled}"
                ));
            }
        }
    };
    match mcp_jsonschema::bundle(&group.schema, options) {
        Ok(bundled) => compare("bundle", &bundled, tally),
        Err(e) => tally.wrong.push(format!("{place}: not bundled: {e}")),
    }
    match mcp_jsonschema::mcp::bundle(&group.schema, options) {
        Ok(bundled) => {
            tally.same_document += 1;
            assert_same_document(place, &bundled);
            compare("same-document bundle", &bundled, tally);
        }
        Err(e) => {
            let documented = match e.kind() {
                SchemaErrorKind::ForbiddenReference => e.message().contains("dynamic scope"),
                SchemaErrorKind::UnknownDialect => true,
                // The profile's own refusals: draft 4, the bounds, an unknown format.
                _ => draft == Draft::Draft4 || e.kind() == SchemaErrorKind::LimitExceeded,
            };
            match documented {
                true => tally.refused.push(format!("{place}: {e}")),
                false => tally
                    .wrong
                    .push(format!("{place}: same-document bundle refused: {e}")),
            }
        }
    }
}

/// Every reference of `bundled` is a same-document one.
fn assert_same_document(place: &str, bundled: &Value) {
    let mut stack = vec![bundled];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    if key == "$ref" {
                        if let Value::String(reference) = value {
                            assert!(
                                reference.starts_with('#'),
                                "{place}: {reference} in {bundled}"
                            );
                        }
                    }
                    stack.push(value);
                }
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
}
