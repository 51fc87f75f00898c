//! The official suites for `Validator::evaluate`: every assertion of the
//! JSON-Schema-Test-Suite's `annotations/tests/*.json` (in 2020-12 and, for the cases
//! whose `compatibility` admits it, 2019-09), and every test of
//! `output-tests/draft2020-12` and `output-tests/draft2019-09`, whose `basic` output must
//! conform to the schema each test gives (validated with this library, the output
//! metaschema registered). Fill `json-schema-test-suite/` with `scripts/fetch-suite.sh`.
//!
//! The counts are printed (`cargo test --test annotations -- --nocapture`), and the
//! run fails on any miss.

use mcp_jsonschema::{Draft, Validator};
use serde_json::{Map, Value};
use std::fs;
use std::path::{Path, PathBuf};

const SUITE_DIR: &str = "json-schema-test-suite";

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(SUITE_DIR)
}

fn read(path: &Path) -> Value {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (run scripts/fetch-suite.sh first)", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e} (run scripts/fetch-suite.sh first)", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

/// The release a dialect is, as the suite's `compatibility` field numbers them.
fn release(draft: Draft) -> u32 {
    match draft {
        Draft::Draft4 => 4,
        Draft::Draft6 => 6,
        Draft::Draft7 => 7,
        Draft::Draft201909 => 2019,
        _ => 2020,
    }
}

/// Whether a case's `compatibility` (`"7"`: 7 and later; `"<=2019"`, `"=2019"`; parts
/// joined by commas all hold) admits `draft`.
fn compatible(compatibility: Option<&str>, draft: Draft) -> bool {
    let Some(compatibility) = compatibility else {
        return true;
    };
    let ours = release(draft);
    compatibility.split(',').all(|part| {
        let (op, number) = if let Some(n) = part.strip_prefix("<=") {
            ("<=", n)
        } else if let Some(n) = part.strip_prefix('=') {
            ("=", n)
        } else {
            (">=", part)
        };
        let Ok(number) = number.trim().parse::<u32>() else {
            return false;
        };
        match op {
            "<=" => ours <= number,
            "=" => ours == number,
            _ => ours >= number,
        }
    })
}

/// `%XX` escapes of a URI fragment decoded.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1..i + 3)) {
            (b'%', Some(hex)) => {
                let hex = std::str::from_utf8(hex).unwrap();
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

/// Runs every annotation case compatible with `draft`: (assertions passed, failures).
fn run_annotation_suite(draft: Draft) -> (usize, Vec<String>) {
    let mut passed = 0;
    let mut failures = Vec::new();
    for path in json_files(&suite().join("annotations/tests")) {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        for case in read(&path)["suite"].as_array().unwrap() {
            let description = case["description"].as_str().unwrap_or_default();
            if !compatible(case["compatibility"].as_str(), draft) {
                continue;
            }
            let built = Validator::options()
                .with_draft(draft)
                .with_annotations(true)
                .build(&case["schema"]);
            let validator = match built {
                Ok(validator) => validator,
                Err(e) => {
                    failures.push(format!("{file} :: {description}: does not build: {e}"));
                    continue;
                }
            };
            for test in case["tests"].as_array().unwrap() {
                let evaluation = validator.evaluate(&test["instance"]);
                for assertion in test["assertions"].as_array().unwrap() {
                    let location = assertion["location"].as_str().unwrap();
                    let keyword = assertion["keyword"].as_str().unwrap();
                    let expected: Map<String, Value> = (assertion["expected"].as_object())
                        .unwrap()
                        .iter()
                        .map(|(k, v)| (percent_decoded(k), v.clone()))
                        .collect();
                    let found: Map<String, Value> = (evaluation.annotations().iter())
                        .filter(|a| a.instance_location() == location && a.keyword() == keyword)
                        .map(|a| (format!("#{}", a.schema_location()), a.value().clone()))
                        .collect();
                    if evaluation.valid() && found == expected {
                        passed += 1;
                    } else {
                        failures.push(format!(
                            "{file} :: {description} :: {} at {location:?} {keyword}: \
                             expected {expected:?}, found {found:?} (valid: {})",
                            test["instance"],
                            evaluation.valid()
                        ));
                    }
                }
            }
        }
    }
    (passed, failures)
}

#[test]
fn the_annotation_suite_passes() {
    let mut failures = Vec::new();
    for (draft, name) in [
        (Draft::Draft202012, "draft2020-12"),
        (Draft::Draft201909, "draft2019-09"),
    ] {
        let (passed, failed) = run_annotation_suite(draft);
        println!(
            "annotations {name}: {passed}/{} assertions",
            passed + failed.len()
        );
        assert!(passed > 0, "{name}: no assertion ran");
        failures.extend(failed);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The output metaschema of a release, registered at its `$id`.
fn output_checker(
    release_dir: &Path,
    draft: Draft,
) -> impl Fn(&Value) -> Result<Validator, String> {
    let output_schema = read(&release_dir.join("output-schema.json"));
    let id = output_schema["$id"].as_str().unwrap().to_string();
    let options = Validator::options()
        .with_draft(draft)
        .with_resource(id, output_schema);
    move |schema: &Value| options.build(schema).map_err(|e| e.to_string())
}

#[test]
fn the_output_suite_passes() {
    let mut failures = Vec::new();
    for (name, draft) in [
        ("draft2020-12", Draft::Draft202012),
        ("draft2019-09", Draft::Draft201909),
    ] {
        let dir = suite().join("output-tests").join(name);
        let checker = output_checker(&dir, draft);
        let mut passed = 0;
        let mut ran = 0;
        for path in json_files(&dir.join("content")) {
            let file = path.file_name().unwrap().to_string_lossy().to_string();
            for case in read(&path).as_array().unwrap() {
                let validator = Validator::options()
                    .with_draft(draft)
                    .with_annotations(true)
                    .build(&case["schema"])
                    .unwrap_or_else(|e| panic!("{file}: {e}"));
                for test in case["tests"].as_array().unwrap() {
                    let evaluation = validator.evaluate(&test["data"]);
                    for (format, schema) in test["output"].as_object().unwrap() {
                        ran += 1;
                        let output = match format.as_str() {
                            "flag" => evaluation.flag(),
                            "basic" => evaluation.basic(),
                            "detailed" => evaluation.detailed(),
                            "verbose" => evaluation.verbose(),
                            other => {
                                failures.push(format!("{name}/{file}: unknown format {other}"));
                                continue;
                            }
                        };
                        let check = checker(schema).unwrap_or_else(|e| panic!("{file}: {e}"));
                        let errors: Vec<String> =
                            check.iter_errors(&output).map(|e| e.to_string()).collect();
                        if errors.is_empty() {
                            passed += 1;
                        } else {
                            failures.push(format!(
                                "{name}/{file} :: {} :: {format}: {output} fails: {}",
                                test["description"],
                                errors.join("; ")
                            ));
                        }
                    }
                }
            }
        }
        println!("output {name}: {passed}/{ran} tests");
        assert!(ran > 0, "{name}: no output test ran");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
