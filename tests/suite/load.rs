//! Loading the JSON-Schema-Test-Suite (`json-schema-test-suite/`, filled by
//! `scripts/fetch-suite.sh`): its test files and its `remotes/`, for the test targets
//! that run it (`tests/suite.rs`, `tests/bundle.rs`).

#![allow(dead_code)]

use serde_json::Value;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Where the suite lives, from the repository root.
pub const SUITE_DIR: &str = "json-schema-test-suite";
/// The URI the suite's `remotes/` are known by.
pub const REMOTES_BASE_URI: &str = "http://localhost:1234/";

/// A document under `remotes/`, registered with the URI the tests refer to it by.
pub struct Remote {
    pub uri: String,
    pub document: Value,
}

/// One entry of a test file: a schema and the instances checked against it.
pub struct TestGroup {
    pub description: String,
    pub schema: Value,
    pub tests: Vec<TestCase>,
}

pub struct TestCase {
    pub description: String,
    pub data: Value,
    pub valid: bool,
}

pub fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("{} is not valid JSON: {error}", path.display()))
}

/// The paths of the entries of `dir`, sorted.
pub fn dir_entries(dir: &Path) -> Vec<PathBuf> {
    let listed: io::Result<Vec<PathBuf>> = fs::read_dir(dir).and_then(|entries| {
        entries
            .map(|entry| entry.map(|entry| entry.path()))
            .collect()
    });
    let mut paths = listed.unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()));
    paths.sort();
    paths
}

pub fn is_json_file(path: &Path) -> bool {
    path.is_file() && path.extension().is_some_and(|ext| ext == "json")
}

/// The `.json` files directly in `dir`, sorted by name; none if `dir` does not exist.
pub fn json_files_in(dir: &Path) -> Vec<PathBuf> {
    if !dir.is_dir() {
        return Vec::new();
    }
    dir_entries(dir)
        .into_iter()
        .filter(|path| is_json_file(path))
        .collect()
}

pub fn load_remotes(remotes_dir: &Path) -> Vec<Remote> {
    let mut remotes = Vec::new();
    for path in dir_entries(remotes_dir) {
        collect_remotes(remotes_dir, &path, &mut remotes);
    }
    assert!(
        !remotes.is_empty(),
        "no remote documents in {}",
        remotes_dir.display()
    );
    remotes
}

/// Adds the `.json` file at `path`, or every one below it, as remotes named relative to `root`.
pub fn collect_remotes(root: &Path, path: &Path, remotes: &mut Vec<Remote>) {
    if path.is_dir() {
        for entry in dir_entries(path) {
            collect_remotes(root, &entry, remotes);
        }
    } else if is_json_file(path) {
        let uri = format!("{REMOTES_BASE_URI}{}", slash_path(root, path));
        remotes.push(Remote {
            uri,
            document: read_json(path),
        });
    }
}

/// `path` relative to `root`, with `/` separators on every platform.
pub fn slash_path(root: &Path, path: &Path) -> String {
    let relative = path
        .strip_prefix(root)
        .unwrap_or_else(|_| panic!("{} is not under {}", path.display(), root.display()));
    let parts: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

pub fn load_test_file(path: &Path) -> Vec<TestGroup> {
    let context = path.display().to_string();
    let Value::Array(groups) = read_json(path) else {
        panic!("{context}: expected an array of test groups");
    };
    groups
        .into_iter()
        .map(|group| parse_group(group, &context))
        .collect()
}

pub fn parse_group(group: Value, context: &str) -> TestGroup {
    let Value::Object(mut fields) = group else {
        panic!("{context}: a test group is not an object");
    };
    let description = description_of(&fields, context);
    let context = format!("{context} :: {description}");
    let schema = fields
        .remove("schema")
        .unwrap_or_else(|| panic!("{context}: group has no \"schema\""));
    let Some(Value::Array(tests)) = fields.remove("tests") else {
        panic!("{context}: group has no \"tests\" array");
    };
    let tests = tests
        .into_iter()
        .map(|test| parse_case(test, &context))
        .collect();
    TestGroup {
        description,
        schema,
        tests,
    }
}

pub fn parse_case(test: Value, context: &str) -> TestCase {
    let Value::Object(mut fields) = test else {
        panic!("{context}: a test is not an object");
    };
    let description = description_of(&fields, context);
    let context = format!("{context} :: {description}");
    let data = fields
        .remove("data")
        .unwrap_or_else(|| panic!("{context}: test has no \"data\""));
    let valid = fields
        .get("valid")
        .and_then(Value::as_bool)
        .unwrap_or_else(|| panic!("{context}: test has no boolean \"valid\""));
    TestCase {
        description,
        data,
        valid,
    }
}

/// The trimmed `description` (a few in the suite end with a space).
pub fn description_of(fields: &serde_json::Map<String, Value>, context: &str) -> String {
    let description = fields.get("description").and_then(Value::as_str);
    description
        .unwrap_or_else(|| panic!("{context}: entry has no string \"description\""))
        .trim()
        .to_owned()
}
