//! `check` and `tools` in CI: their `--output json` and `--output sarif` documents (the
//! SARIF log validated against the official SARIF 2.1.0 schema, with this project's own
//! validator), `--rule`, `--skip` and `--quiet`, the pre-commit hooks of
//! `.pre-commit-hooks.yaml` run as pre-commit runs them, and the README's examples.

mod common;

use common::{dir_with, run_in, Run};
use mcp_jsonschema::{ValidationOptions, Validator};
use serde_json::{json, Value};
use std::path::Path;

/// A file of the repository, by its path from the root.
fn repository_file(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A copy of the repository's `path` in `dir`, named as in the repository.
fn copy_in(dir: &Path, path: &str) {
    let to = dir.join(path);
    std::fs::create_dir_all(to.parent().expect("a parent")).expect("a directory");
    std::fs::write(to, repository_file(path)).expect("a copy");
}

/// The official SARIF 2.1.0 schema (tests/data/README.md says where it comes from).
fn sarif_schema() -> Validator {
    let schema: Value =
        serde_json::from_str(include_str!("data/sarif-schema-2.1.0.json")).expect("JSON");
    ValidationOptions::default()
        .build(&schema)
        .expect("the SARIF schema compiles")
}

/// The SARIF schema's errors in `log`, one line each.
fn sarif_errors(schema: &Validator, log: &Value) -> Vec<String> {
    (schema.iter_errors(log))
        .map(|e| format!("{}: {}", e.instance_location(), e.message()))
        .collect()
}

/// A JSON document from a run's standard output.
fn document(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {run:?}"))
}

const TOOLS_LIST: &str = "examples/tools-list.json";
const BUNDLED_REF: &str = "crates/cli/tests/data/bundled-ref.schema.json";

/// A tool every lint rule accepts.
const CLEAN_TOOLS: &str = r#"{"tools": [{"name": "get_weather", "description": "Weather",
  "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
  "required": ["city"], "additionalProperties": false}}]}"#;

#[test]
fn sarif_output_follows_the_sarif_2_1_0_schema() {
    let schema = sarif_schema();
    let dir = dir_with(
        "sarif_schema",
        &[
            ("clean.tools.json", CLEAN_TOOLS),
            ("my schemas#1.json", r#"{"type": "objekt"}"#),
        ],
    );
    copy_in(&dir, TOOLS_LIST);
    copy_in(&dir, BUNDLED_REF);
    let runs = [
        &["tools", "--output", "sarif", TOOLS_LIST][..],
        &["tools", "--output", "sarif", "clean.tools.json", TOOLS_LIST],
        &["tools", "--output", "sarif", "clean.tools.json"],
        &[
            "check",
            "--mcp",
            "--output",
            "sarif",
            BUNDLED_REF,
            "my schemas#1.json",
        ],
    ];
    let mut logs = Vec::new();
    for args in runs {
        let run = run_in(&dir, args, "");
        let log = document(&run);
        assert_eq!(
            sarif_errors(&schema, &log),
            Vec::<String>::new(),
            "{args:?}"
        );
        let results = log["runs"][0]["results"].as_array().expect("results");
        assert_eq!(
            run.code,
            i32::from(!results.is_empty()),
            "{args:?}: {run:?}"
        );
        logs.push(log);
    }
    // Not vacuous: the logs have results, each at a line and column of a file, and the
    // schema rejects a log that breaks it.
    let results = &logs[0]["runs"][0]["results"];
    assert_eq!(results.as_array().map(Vec::len), Some(16));
    for result in results.as_array().into_iter().flatten() {
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], TOOLS_LIST);
        assert!(
            location["region"]["startLine"].as_u64() > Some(1),
            "{result}"
        );
        assert!(
            location["region"]["startColumn"].as_u64() > Some(1),
            "{result}"
        );
    }
    let check = &logs[3]["runs"][0]["results"];
    let uri = &check[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
    assert_eq!(uri, "my%20schemas%231.json", "a relative URI reference");
    let mut broken = logs[0].clone();
    broken["runs"][0]["results"][0]["level"] = json!("fatal");
    broken["runs"][0]["results"][1]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        json!(0);
    broken["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = json!("not a URI");
    assert_eq!(sarif_errors(&schema, &broken).len(), 3, "{broken:#}");
    // The driver lists the rules applied, and each result points at its own.
    let driver = &logs[0]["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "mcp-jsonschema");
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), 15, "invalid-schema and the 14 lint rules");
    for result in results.as_array().into_iter().flatten() {
        let index = result["ruleIndex"].as_u64().expect("an index") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"], "{result}");
    }
}

#[test]
fn json_output_lists_every_finding_with_its_place() {
    let dir = dir_with(
        "json_findings",
        &[(
            "bad.json",
            "{\n  \"type\": \"object\",\n  \"properties\": {\"n\": {\"minimum\": \"1\"}}\n}",
        )],
    );
    let run = run_in(&dir, &["check", "--output", "json", "bad.json"], "");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        document(&run),
        json!({
            "findings": [{
                "file": "bad.json",
                "pointer": "/properties/n/minimum",
                "line": 3,
                "column": 35,
                "rule": "invalid-schema",
                "severity": "error",
                "message": "expected number, got string \"1\"; send the number itself, not a JSON-encoded string",
            }],
            "errors": 1,
            "warnings": 0,
        })
    );
    // Valid: an empty list, exit 0; --quiet leaves the document whole.
    let run = run_in(&dir, &["check", "-q", "--output", "json", "-"], "{}");
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        document(&run),
        json!({"findings": [], "errors": 0, "warnings": 0})
    );
    // Standard input has no file a SARIF location could name.
    let run = run_in(&dir, &["check", "--output", "sarif", "-"], "{\"type\": 1}");
    let result = &document(&run)["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "invalid-schema");
    assert_eq!(result.get("locations"), None, "{result}");
}

#[test]
fn rule_and_skip_choose_the_lint_rules() {
    let dir = dir_with("rule_skip", &[]);
    copy_in(&dir, TOOLS_LIST);
    let rules_of = |args: &[&str]| {
        let run = run_in(
            &dir,
            &[&["tools", "--output", "json"], args, &[TOOLS_LIST]].concat(),
            "",
        );
        let report = document(&run);
        let mut rules: Vec<String> = (report["findings"].as_array().into_iter().flatten())
            .filter_map(|f| f["rule"].as_str().map(String::from))
            .collect();
        rules.sort();
        rules.dedup();
        (run.code, rules)
    };
    let (code, all) = rules_of(&[]);
    assert_eq!(code, 1);
    assert!(all.len() > 3, "{all:?}");
    // Compile errors are always reported; --rule keeps only the rules named.
    let (code, only) = rules_of(&[
        "--rule",
        "vertex-parameter-name",
        "--rule",
        "bedrock-empty-description",
    ]);
    assert_eq!(
        (code, only),
        (
            1,
            [
                "bedrock-empty-description",
                "invalid-schema",
                "vertex-parameter-name"
            ]
            .map(String::from)
            .to_vec()
        )
    );
    let (_, skipped) = rules_of(&["--skip", "openai-function-name"]);
    let expected: Vec<&String> = all
        .iter()
        .filter(|r| *r != "openai-function-name")
        .collect();
    assert_eq!(skipped.iter().collect::<Vec<_>>(), expected);
    // An unknown id is a usage error naming the known ones.
    let run = run_in(&dir, &["tools", "--skip", "no-such-rule", TOOLS_LIST], "");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("no-such-rule"), "{run:?}");
    assert!(run.stderr.contains("openai-strict-root"), "{run:?}");
    assert_eq!(run.stdout, "");
    // --list-rules lists every id, each once.
    let run = run_in(&dir, &["tools", "--list-rules"], "");
    assert_eq!(run.code, 0, "{run:?}");
    let listed: Vec<&str> = (run.stdout.lines())
        .filter(|line| !line.starts_with("    "))
        .filter_map(|line| line.trim().split(' ').next())
        .collect();
    assert_eq!(listed.len(), 14, "{}", run.stdout);
    assert!(listed.contains(&"vscode-tool-count"), "{listed:?}");
}

#[test]
fn tools_reports_on_each_file_and_quiet_keeps_only_problems() {
    let dir = dir_with("tools_files", &[("clean.tools.json", CLEAN_TOOLS)]);
    copy_in(&dir, TOOLS_LIST);
    let run = run_in(&dir, &["tools", "clean.tools.json", TOOLS_LIST], "");
    assert_eq!(run.code, 1, "{run:?}");
    let headers: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("==> "))
        .collect();
    assert_eq!(
        headers,
        [
            "==> clean.tools.json <==",
            "==> examples/tools-list.json <=="
        ]
    );
    assert!(run.stdout.contains("get_weather: ok\n"), "{run:?}");
    assert_eq!(run.stderr, "2 files, 7 tools: 6 errors, 10 warnings\n");
    // Quiet: the clean file says nothing, the other only its tools with problems.
    let run = run_in(&dir, &["tools", "-q", "clean.tools.json", TOOLS_LIST], "");
    assert_eq!((run.code, run.stderr.as_str()), (1, ""));
    assert!(
        run.stdout.starts_with("==> examples/tools-list.json <==\n"),
        "{run:?}"
    );
    // (A tool with warnings only is shown, as `ok` with its warnings.)
    assert!(run.stdout.contains("get-count: ok\n  warning ["), "{run:?}");
    for absent in ["get_weather", "compiles under", "rules cited"] {
        assert!(!run.stdout.contains(absent), "{absent}: {run:?}");
    }
    assert!(run.stdout.contains("files.read: 3 errors\n"), "{run:?}");
    let run = run_in(&dir, &["tools", "--quiet", "clean.tools.json"], "");
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
    // One file a tool list, the other not: nothing is reported, exit 2.
    let run = run_in(&dir, &["tools", "clean.tools.json", "missing.json"], "");
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{run:?}");
}

/// One hook of `.pre-commit-hooks.yaml`: its `key: value` lines.
type Hook = Vec<(String, String)>;

/// The hooks of `.pre-commit-hooks.yaml`, a list of flat mappings, one `key: value` per
/// line (which is all the file uses; comments and blank lines aside).
fn hooks() -> Vec<Hook> {
    let mut hooks: Vec<Hook> = Vec::new();
    for line in repository_file(".pre-commit-hooks.yaml").lines() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let member = match line.strip_prefix("- ") {
            Some(first) => {
                hooks.push(Vec::new());
                first
            }
            None => line.strip_prefix("  ").expect("a member of a hook"),
        };
        let (key, value) = member.split_once(": ").expect("key: value");
        let hook = hooks.last_mut().expect("a hook first");
        hook.push((key.trim().to_string(), value.trim().to_string()));
    }
    hooks
}

/// The value of `key` in `hook`.
fn get<'h>(hook: &'h Hook, key: &str) -> Option<&'h str> {
    hook.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// Runs `hook` in `dir` as pre-commit does: its entry, its args, then the file names.
fn run_hook(hook: &Hook, dir: &Path, files: &[&str]) -> Run {
    let entry = get(hook, "entry").expect("an entry");
    let mut words = entry.split_whitespace();
    assert_eq!(words.next(), Some("mcp-jsonschema"), "the installed binary");
    let mut args: Vec<&str> = words.collect();
    if let Some(list) = get(hook, "args") {
        let list = list.strip_prefix('[').and_then(|l| l.strip_suffix(']'));
        let list = list.expect("args as a flow sequence");
        args.extend(list.split(',').map(str::trim).filter(|a| !a.is_empty()));
    }
    args.extend(files);
    run_in(dir, &args, "")
}

/// Whether pre-commit would pass `path` to a hook whose `files` regex is `files`: the
/// same search (Python's `re.search`), with this project's ECMA-262 `pattern`.
fn matches(files: &str, path: &str) -> bool {
    let schema = json!({"pattern": files});
    let validator = ValidationOptions::default()
        .build(&schema)
        .expect("a regex");
    validator.is_valid(&json!(path))
}

#[test]
fn pre_commit_hooks_run_their_entries_on_good_and_bad_files() {
    let hooks = hooks();
    let ids: Vec<&str> = hooks.iter().filter_map(|h| get(h, "id")).collect();
    assert_eq!(ids, ["mcp-jsonschema-check", "mcp-jsonschema-tools"]);
    for hook in &hooks {
        assert_eq!(get(hook, "language"), Some("system"), "{hook:?}");
    }
    let dir = dir_with(
        "pre_commit",
        &[
            (
                "weather.schema.json",
                r#"{"type": "object", "properties": {"city": {"type": "string"}}}"#,
            ),
            ("clean.tools.json", CLEAN_TOOLS),
        ],
    );
    copy_in(&dir, TOOLS_LIST);
    copy_in(&dir, BUNDLED_REF);

    let check = &hooks[0];
    let files = get(check, "files").expect("a files pattern");
    for (path, matched) in [
        ("weather.schema.json", true),
        (BUNDLED_REF, true),
        ("package.json", false),
        (TOOLS_LIST, false),
    ] {
        assert_eq!(matches(files, path), matched, "{files} on {path}");
    }
    let run = run_hook(check, &dir, &["weather.schema.json"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "weather.schema.json: ok\n"),
        "{run:?}"
    );
    // A reference that is not `#...`: refused under the MCP profile (the entry's --mcp)
    // only.
    let run = run_hook(check, &dir, &["weather.schema.json", BUNDLED_REF]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains(&format!(
            "{BUNDLED_REF}:4 /properties/city/$ref: reference "
        )),
        "{run:?}"
    );
    let run = run_in(&dir, &["check", BUNDLED_REF], "");
    assert_eq!(run.code, 0, "without --mcp: {run:?}");

    let tools = &hooks[1];
    let files = get(tools, "files").expect("a files pattern");
    for (path, matched) in [
        (TOOLS_LIST, true),
        ("server/tools.json", true),
        ("clean.tools.json", true),
        ("weather.schema.json", false),
        ("package.json", false),
        ("mytools.json", false),
    ] {
        assert_eq!(matches(files, path), matched, "{files} on {path}");
    }
    let run = run_hook(tools, &dir, &["clean.tools.json"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.starts_with("get_weather: ok\n"), "{run:?}");
    let run = run_hook(tools, &dir, &["clean.tools.json", TOOLS_LIST]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("==> examples/tools-list.json <==\nget-weather-forecast: ok\n"),
        "{run:?}"
    );
    assert_eq!(run.stderr, "2 files, 7 tools: 6 errors, 10 warnings\n");
}

/// The README's section on CI, from its heading to the next one.
fn readme_section() -> String {
    let readme = repository_file("README.md");
    let start = readme
        .find("**Lint in CI**")
        .expect("the README's Lint in CI part");
    let rest = &readme[start..];
    let end = rest.find("\n**`proxy`**").expect("the part after it");
    rest[..end].to_string()
}

/// The body of the README block that follows `intro`, and the command on its first line
/// (after `$ `), if it has one.
fn block_after(section: &str, intro: &str) -> (Option<String>, String) {
    let start = section.find(intro).unwrap_or_else(|| panic!("{intro}"));
    let rest = &section[start..];
    let body = &rest[rest.find("```").expect("a block") + 3..];
    let body = &body[body.find('\n').expect("a fence line") + 1..];
    let body = &body[..body.find("```").expect("the block's end")];
    match body.strip_prefix("$ ") {
        Some(command) => {
            let (command, output) = command.split_once('\n').expect("an output");
            (Some(command.to_string()), output.to_string())
        }
        None => (None, body.to_string()),
    }
}

/// The output of a README command, run from the repository's root in `dir`.
fn output_of(dir: &Path, command: &str) -> Run {
    let args: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(args[0], "mcp-jsonschema", "{command}");
    run_in(dir, &args[1..], "")
}

#[test]
fn the_readme_shows_the_hooks_and_the_output_as_they_are() {
    let section = readme_section();
    // The pre-commit configuration names the hooks that the file declares.
    let (_, config) = block_after(&section, "(or `repo: local`");
    let ids: Vec<&str> = (config.lines())
        .filter_map(|line| line.trim().strip_prefix("- id: "))
        .collect();
    let declared: Vec<String> = hooks()
        .iter()
        .filter_map(|h| get(h, "id"))
        .map(String::from)
        .collect();
    assert_eq!(ids, declared, "{config}");
    let dir = dir_with("readme_ci", &[]);
    copy_in(&dir, BUNDLED_REF);
    // The JSON example, whole.
    let (command, shown) = block_after(&section, "The JSON report on");
    let run = output_of(&dir, &command.expect("a command"));
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(shown, run.stdout);
    // The SARIF example: its lines, in order, where `...` stands for lines left out.
    let (command, shown) = block_after(&section, "The same as a SARIF log");
    let run = output_of(&dir, &command.expect("a command"));
    assert_eq!(run.code, 1, "{run:?}");
    let mut actual = run.stdout.lines();
    for line in shown.lines().filter(|line| line.trim() != "...") {
        assert!(
            actual.any(|l| l == line),
            "not in order in the output: {line:?}\n{}",
            run.stdout
        );
    }
}
