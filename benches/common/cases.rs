//! The benchmark cases, loaded the same way for `benches/suite.rs` (criterion, our engine
//! only) and for the `benches/compare` crate (ours against `jsonschema` and `boon`).
//!
//! Both include this file with `#[path]`, so it depends on `serde_json` alone and knows
//! nothing of any validator. A [`Case`] is a schema, its dialect and some instances with the
//! verdict each is expected to get. They come from three places:
//!
//! * [`Kind::Benchmark`]: `jsonschema-benchmark/<case>/{schema.json,instances.jsonl}` of the
//!   shared data directory, with every `format` keyword stripped from the schema (as the
//!   upstream harness does); every instance is valid.
//! * [`Kind::Classic`]: the cases the `jsonschema` crate publishes numbers for, from
//!   `classic/`; `OpenAPI` has no instance and is only compiled.
//! * [`Kind::Mcp`]: MCP-shaped tool schemas written for this project, in `benches/data/mcp/`,
//!   embedded at build time.
//!
//! The data directory is `$MCP_JSONSCHEMA_BENCH_DATA`, else `shared/bench-data` beside the
//! repository (see [`data_dir`]).

use serde_json::Value;
use std::fs;
use std::path::{Path, PathBuf};

/// Environment variable naming the benchmark data directory.
pub const DATA_DIR_VAR: &str = "MCP_JSONSCHEMA_BENCH_DATA";

/// Where a case comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A `jsonschema-benchmark` case: many small instances, all valid.
    Benchmark,
    /// A case of the `jsonschema` crate's own benchmark: one (often large) instance.
    Classic,
    /// An MCP-shaped tool schema with a few valid and a few invalid instances.
    Mcp,
}

/// The JSON Schema dialect a schema declares with `$schema` (2020-12 when it declares none,
/// as MCP prescribes and as all three compared libraries default to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dialect {
    /// Draft 4.
    Draft4,
    /// Draft 6.
    Draft6,
    /// Draft 7.
    Draft7,
    /// Draft 2019-09.
    Draft201909,
    /// Draft 2020-12.
    Draft202012,
}

impl Dialect {
    /// The dialect `schema` declares; 2020-12 for none or an unknown metaschema.
    pub fn of(schema: &Value) -> Dialect {
        let Some(uri) = schema.get("$schema").and_then(Value::as_str) else {
            return Dialect::Draft202012;
        };
        let uri = uri.trim_end_matches('#');
        let uri = uri
            .strip_prefix("https://")
            .or_else(|| uri.strip_prefix("http://"))
            .unwrap_or(uri);
        match uri {
            "json-schema.org/draft-04/schema" => Dialect::Draft4,
            "json-schema.org/draft-06/schema" => Dialect::Draft6,
            "json-schema.org/draft-07/schema" => Dialect::Draft7,
            "json-schema.org/draft/2019-09/schema" => Dialect::Draft201909,
            _ => Dialect::Draft202012,
        }
    }

    /// Whether `format` is validated in the benchmarks: yes up to draft 7, no from 2019-09
    /// on. That is what `jsonschema` and `boon` do by default (and `boon` cannot turn it off
    /// for the old drafts), so every engine is configured this way to do the same work.
    pub fn asserts_formats(self) -> bool {
        self <= Dialect::Draft7
    }
}

/// One benchmark case.
#[derive(Debug)]
pub struct Case {
    /// Unique name, usable in a criterion id and as a filter.
    pub name: String,
    /// Where it comes from.
    pub kind: Kind,
    /// The schema, ready to compile (formats already stripped for [`Kind::Benchmark`]).
    pub schema: Value,
    /// The dialect the schema declares.
    pub dialect: Dialect,
    /// The instances; may be empty (compile-only case).
    pub instances: Vec<Value>,
    /// The verdict each instance should get, index for index.
    pub expected: Vec<bool>,
}

impl Case {
    /// The first instance expected to be valid, if any.
    pub fn first_valid(&self) -> Option<&Value> {
        self.first_with(true)
    }

    /// The first instance expected to be invalid, if any.
    pub fn first_invalid(&self) -> Option<&Value> {
        self.first_with(false)
    }

    fn first_with(&self, verdict: bool) -> Option<&Value> {
        self.instances
            .iter()
            .zip(&self.expected)
            .find_map(|(instance, &expected)| (expected == verdict).then_some(instance))
    }
}

/// The data directory: `$MCP_JSONSCHEMA_BENCH_DATA` if set, else `../shared/bench-data`
/// relative to `repo_root` (the root crate's directory).
pub fn data_dir(repo_root: &Path) -> PathBuf {
    match std::env::var_os(DATA_DIR_VAR) {
        Some(dir) => PathBuf::from(dir),
        None => repo_root.join("..").join("shared").join("bench-data"),
    }
}

/// Loads every case whose name `keep` accepts, in a fixed order: the benchmark cases by
/// name, then the classic ones, then the MCP ones. Files of cases not kept are not read.
///
/// Without the shared data directory (a checkout that is not beside `shared/`), only the
/// MCP cases, which are embedded, are loaded, and a line on stderr says so.
pub fn load(data_dir: &Path, keep: &dyn Fn(&str) -> bool) -> Result<Vec<Case>, String> {
    if !data_dir.is_dir() {
        eprintln!(
            "benchmark data not found at {}: only the embedded MCP cases run (set {DATA_DIR_VAR})",
            data_dir.display()
        );
        return load_mcp(keep);
    }
    let mut cases = load_benchmark(&data_dir.join("jsonschema-benchmark"), keep)?;
    cases.extend(load_classic(&data_dir.join("classic"), keep)?);
    cases.extend(load_mcp(keep)?);
    Ok(cases)
}

fn load_benchmark(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Result<Vec<Case>, String> {
    let entries = fs::read_dir(dir).map_err(|e| {
        format!(
            "cannot read {} ({e}); set {DATA_DIR_VAR} to the benchmark data directory",
            dir.display()
        )
    })?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        if entry.path().join("schema.json").is_file() {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();

    let mut cases = Vec::new();
    for name in names.into_iter().filter(|name| keep(name)) {
        let case_dir = dir.join(&name);
        let mut schema = read_json(&case_dir.join("schema.json"))?;
        strip_formats(&mut schema);
        let instances = read_json_lines(&case_dir.join("instances.jsonl"))?;
        cases.push(Case {
            name,
            kind: Kind::Benchmark,
            dialect: Dialect::of(&schema),
            expected: vec![true; instances.len()],
            schema,
            instances,
        });
    }
    Ok(cases)
}

/// The classic cases: name, schema file, instance file (if any), expected verdict.
const CLASSIC: &[(&str, &str, Option<&str>, bool)] = &[
    ("GeoJSON", "geojson.json", Some("canada.json"), true),
    (
        "CITM",
        "citm_catalog_schema.json",
        Some("citm_catalog.json"),
        true,
    ),
    ("Swagger", "swagger.json", Some("kubernetes.json"), true),
    (
        "Fast-valid",
        "fast_schema.json",
        Some("fast_valid.json"),
        true,
    ),
    (
        "Fast-invalid",
        "fast_schema.json",
        Some("fast_invalid.json"),
        false,
    ),
    (
        "FHIR",
        "fhir.schema.json",
        Some("patient-example-d.json"),
        true,
    ),
    (
        "Recursive",
        "recursive_schema.json",
        Some("recursive_instance.json"),
        true,
    ),
    ("OpenAPI", "openapi.json", None, true),
];

fn load_classic(dir: &Path, keep: &dyn Fn(&str) -> bool) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for &(name, schema_file, instance_file, valid) in CLASSIC {
        if !keep(name) {
            continue;
        }
        let schema = read_json(&dir.join(schema_file))?;
        let instances = match instance_file {
            Some(file) => vec![read_json(&dir.join(file))?],
            None => Vec::new(),
        };
        cases.push(Case {
            name: name.to_owned(),
            kind: Kind::Classic,
            dialect: Dialect::of(&schema),
            expected: vec![valid; instances.len()],
            schema,
            instances,
        });
    }
    Ok(cases)
}

/// The MCP cases, embedded so that neither bench needs to know where this file lives.
/// Each file is `{"description", "schema", "valid": [...], "invalid": [...]}`.
const MCP: &[(&str, &str)] = &[
    ("mcp-pydantic", include_str!("../data/mcp/pydantic.json")),
    ("mcp-zod", include_str!("../data/mcp/zod.json")),
    ("mcp-weather", include_str!("../data/mcp/weather.json")),
    (
        "mcp-conditional",
        include_str!("../data/mcp/conditional.json"),
    ),
];

fn load_mcp(keep: &dyn Fn(&str) -> bool) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for &(name, text) in MCP {
        if !keep(name) {
            continue;
        }
        let mut file: Value =
            serde_json::from_str(text).map_err(|e| format!("benches/data/mcp ({name}): {e}"))?;
        let mut take = |key: &str| match file.get_mut(key).map(Value::take) {
            Some(Value::Array(items)) => Ok(items),
            _ => Err(format!("benches/data/mcp ({name}): no {key:?} array")),
        };
        let valid = take("valid")?;
        let invalid = take("invalid")?;
        let schema = file
            .get_mut("schema")
            .map(Value::take)
            .ok_or_else(|| format!("benches/data/mcp ({name}): no \"schema\""))?;
        let mut expected = vec![true; valid.len()];
        expected.resize(valid.len() + invalid.len(), false);
        cases.push(Case {
            name: name.to_owned(),
            kind: Kind::Mcp,
            dialect: Dialect::of(&schema),
            schema,
            instances: valid.into_iter().chain(invalid).collect(),
            expected,
        });
    }
    Ok(cases)
}

/// Removes every `format` keyword (an object member named `format` whose value is a string)
/// at any depth. A property *named* `format` maps to a schema, not a string, and stays.
pub fn strip_formats(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("format").is_some_and(Value::is_string) {
                map.remove("format");
            }
            map.values_mut().for_each(strip_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_formats),
        _ => {}
    }
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn read_json_lines(path: &Path) -> Result<Vec<Value>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect()
}
