//! The official JSON-Schema-Test-Suite through both implementations.
//!
//! Every test of the five dialects (required, `optional/`, `optional/format/`) runs
//! through ours and theirs with the same settings: the dialect as the default draft,
//! `format` asserted in drafts 4 to 7 and in `optional/format/`, and the suite's
//! `remotes/` served at `http://localhost:1234/`. Where the two disagree, the suite's
//! expected verdict says who is wrong. The test fails when ours is wrong on a required
//! test; it prints every disagreement, classified, for KNOWN.md.
//!
//! Needs the suite at the repository root (`scripts/fetch-suite.sh`). Run:
//! `cargo test --manifest-path tests/differential/Cargo.toml --test suite -- --nocapture`

use mcp_jsonschema_differential::{Dialect, Pair, Setup};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The suite, at the repository root.
fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../json-schema-test-suite")
}

const DIALECTS: [(&str, Dialect); 5] = [
    ("draft2020-12", Dialect::Draft202012),
    ("draft2019-09", Dialect::Draft201909),
    ("draft7", Dialect::Draft7),
    ("draft6", Dialect::Draft6),
    ("draft4", Dialect::Draft4),
];

/// Every `.json` file below `dir`, sorted.
fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            json_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// The remote documents, by the URI the tests use, except those of other dialects.
fn remotes(root: &Path) -> HashMap<String, Value> {
    let mut files = Vec::new();
    json_files(&root.join("remotes"), &mut files);
    files
        .into_iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(root.join("remotes")).ok()?;
            let relative = relative.to_string_lossy().replace('\\', "/");
            if relative.starts_with("draft3/") || relative.starts_with("draft-next/") {
                return None;
            }
            let document = serde_json::from_str(&fs::read_to_string(&path).ok()?).ok()?;
            Some((format!("http://localhost:1234/{relative}"), document))
        })
        .collect()
}

/// Who is wrong in one disagreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Wrong {
    Ours,
    Theirs,
}

#[test]
fn the_official_suite_through_both() {
    let root = suite_dir();
    assert!(
        root.join("tests").is_dir(),
        "{} is missing: run scripts/fetch-suite.sh",
        root.display()
    );
    let remotes = Arc::new(remotes(&root));
    let mut compared = 0usize;
    // (who is wrong, required?) -> lines "file :: group :: test".
    let mut disagreements: BTreeMap<(Wrong, bool), Vec<String>> = BTreeMap::new();
    for (name, dialect) in DIALECTS {
        let mut files = Vec::new();
        json_files(&root.join("tests").join(name), &mut files);
        for file in files {
            let relative = file
                .strip_prefix(root.join("tests"))
                .map_or_else(|_| file.display().to_string(), |p| p.display().to_string());
            let required = !relative.contains("/optional/");
            let format_tests = relative.contains("/optional/format/");
            let setup = Setup {
                dialect,
                formats: format_tests
                    || matches!(dialect, Dialect::Draft4 | Dialect::Draft6 | Dialect::Draft7),
                remotes: remotes.clone(),
            };
            let text = fs::read_to_string(&file).expect("readable suite file");
            let groups: Vec<Value> = serde_json::from_str(&text).expect("suite files are JSON");
            for group in &groups {
                let pair = Pair::compile(&group["schema"], &setup);
                let tests = group["tests"].as_array().map_or(&[][..], Vec::as_slice);
                for test in tests {
                    compared += 1;
                    let expected = test["valid"].as_bool().unwrap_or(false);
                    let (ours, theirs) = pair.verdicts(&test["data"]);
                    let ours_right = ours.as_ref().is_ok_and(|&v| v == expected);
                    let theirs_right = theirs.as_ref().is_ok_and(|&v| v == expected);
                    if ours_right == theirs_right {
                        continue;
                    }
                    let wrong = if ours_right {
                        Wrong::Theirs
                    } else {
                        Wrong::Ours
                    };
                    let verdict = |v: &Result<bool, String>| match v {
                        Ok(v) => v.to_string(),
                        Err(e) => format!("error: {e}"),
                    };
                    disagreements
                        .entry((wrong, required))
                        .or_default()
                        .push(format!(
                            "{relative} :: {} :: {} (expected {expected}, ours {}, theirs {})",
                            group["description"].as_str().unwrap_or("?"),
                            test["description"].as_str().unwrap_or("?"),
                            verdict(&ours),
                            verdict(&theirs),
                        ));
                }
            }
        }
    }
    for ((wrong, required), lines) in &disagreements {
        let kind = if *required { "required" } else { "optional" };
        println!("\n{} {kind} tests where {wrong:?} are wrong:", lines.len());
        for line in lines {
            println!("  {line}");
        }
    }
    let ours_required = disagreements.get(&(Wrong::Ours, true)).map_or(0, Vec::len);
    println!(
        "\ncompared {compared} suite tests; disagreements: {}",
        disagreements.values().map(Vec::len).sum::<usize>()
    );
    assert_eq!(
        ours_required, 0,
        "ours is wrong on required suite tests that jsonschema gets right (listed above)"
    );
}
