//! The built `mcp-jsonschema` binary, run as a user would: every subcommand, every exit
//! code, and bad input (missing files, malformed JSON, invalid schemas, empty stdin).

mod common;

use common::{dir_with, run_in};
use std::path::Path;
use std::process::{Command, Stdio};

const WEATHER: &str = r#"{
  "type": "object",
  "properties": {
    "city": {"type": "string", "minLength": 1},
    "units": {"enum": ["metric", "imperial"]}
  },
  "required": ["city"],
  "additionalProperties": false
}"#;

const BAD_CALL: &str = r#"{
  "city": "",
  "units": "kelvin",
  "x": 1
}"#;

#[test]
fn validate_prints_each_error_with_its_file_line_and_pointer() {
    let dir = dir_with(
        "validate_errors",
        &[
            ("s.json", WEATHER),
            ("bad.json", BAD_CALL),
            ("ok.json", r#"{"city": "Oslo"}"#),
        ],
    );
    let run = run_in(&dir, &["validate", "s.json", "ok.json", "bad.json"], "");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "ok.json: valid\n\
         bad.json:2 /city: \"\" is shorter than 1 character\n\
         bad.json:3 /units: expected one of \"metric\", \"imperial\", got \"kelvin\"\n\
         bad.json:4 /x: property \"x\" is not allowed\n"
    );
    assert!(run.stderr.starts_with("1 valid, 1 invalid ("), "{run:?}");
    // Not a terminal: no colour.
    assert!(!run.stdout.contains('\x1b'));

    let run = run_in(&dir, &["validate", "s.json", "ok.json", "ok.json"], "");
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "ok.json: valid\nok.json: valid\n")
    );
    assert!(run.stderr.starts_with("2 valid, 0 invalid ("), "{run:?}");
}

/// A zod discriminated union (zod-to-json-schema): a failed union is its summary and its
/// closest branch's errors, each once; a missing or wrong tag one line naming the tags.
#[test]
fn validate_lists_a_tagged_union_once() {
    let variant = |tag: &str, field: &str| {
        serde_json::json!({
            "type": "object",
            "properties": {"kind": {"type": "string", "const": tag}, field: {"type": "number"}},
            "required": ["kind", field],
            "additionalProperties": false
        })
    };
    let schema = serde_json::json!({"type": "object", "properties": {"shape": {"anyOf": [
        variant("circle", "radius"), variant("square", "side")
    ]}}});
    let dir = dir_with(
        "validate_union",
        &[
            ("s.json", &schema.to_string()),
            ("a.json", r#"{"shape": {"kind": "circle"}}"#),
            ("b.json", "{\"shape\":\n {\"side\": 1}}"),
            ("c.json", r#"{"shape": {"kind": "oval"}}"#),
        ],
    );
    let run = run_in(
        &dir,
        &["validate", "s.json", "a.json", "b.json", "c.json"],
        "",
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "a.json:1 /shape: {\"kind\":\"circle\"} is not valid under any of the schemas in anyOf; \
         the closest is #0\n\
         a.json:1 /shape: missing required property \"radius\"\n\
         b.json:2 /shape: missing required property \"kind\": expected one of \"circle\", \"square\"\n\
         c.json:1 /shape/kind: expected one of \"circle\", \"square\", got \"oval\"\n"
    );
}

#[test]
fn validate_reads_json_lines_and_standard_input() {
    let dir = dir_with("validate_jsonl", &[("s.json", WEATHER)]);
    let log = "{\"city\": \"Oslo\"}\n\n{\"units\": \"kelvin\"}\n";
    let run = run_in(&dir, &["validate", "s.json", "--jsonl", "-"], log);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "<stdin>:1: valid\n\
         <stdin>:3 (root): missing required property \"city\"\n\
         <stdin>:3 /units: expected one of \"metric\", \"imperial\", got \"kelvin\"\n"
    );
    let run = run_in(&dir, &["validate", "s.json", "-"], "{\"city\": \"Lima\"}");
    assert_eq!((run.code, run.stdout.as_str()), (0, "<stdin>: valid\n"));
    // An empty log has no instances; an empty document is not a document.
    let run = run_in(&dir, &["validate", "s.json", "--jsonl", "-"], "");
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stderr.starts_with("0 valid, 0 invalid"), "{run:?}");
    let run = run_in(&dir, &["validate", "s.json", "-"], "");
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "mcp-jsonschema: <stdin>: no JSON value (the input is empty)\n"
    );
}

/// The path of the shipped example file `$name` (examples/).
macro_rules! example {
    ($name:literal) => {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/", $name)
    };
}

/// The shipped JSON Lines example and its schema.
const CALLS: &str = example!("get-weather.calls.jsonl");
const CALLS_SCHEMA: &str = example!("get-weather.schema.json");

#[test]
fn validate_json_lines_of_the_example_as_the_readme_shows() {
    let dir = dir_with("validate_jsonl_example", &[]);
    let calls = std::fs::read_to_string(CALLS).expect("the example");
    std::fs::write(dir.join("calls.jsonl"), &calls).expect("a copy");
    let expected = "calls.jsonl:1: valid\n\
        calls.jsonl:2 (root): missing required property \"city\"\n\
        calls.jsonl:2 /days: 10 is greater than the maximum of 7\n\
        calls.jsonl:2 /units: expected one of \"metric\", \"imperial\", got \"kelvin\"\n\
        calls.jsonl:3 /verbose: property \"verbose\" is not allowed\n";
    let args = ["validate", "--mcp-input", CALLS_SCHEMA, "--jsonl"];
    let run = run_in(&dir, &[&args[..], &["calls.jsonl"]].concat(), "");
    assert_eq!((run.code, run.stdout.as_str()), (1, expected), "{run:?}");
    assert!(run.stderr.starts_with("1 valid, 2 invalid ("), "{run:?}");
    // The same from standard input, from CRLF lines without a final line ending, and
    // from two files in a row.
    let run = run_in(&dir, &[&args[..], &["-"]].concat(), &calls);
    assert_eq!(run.stdout, expected.replace("calls.jsonl", "<stdin>"));
    let crlf = calls.trim_end().replace('\n', "\r\n");
    let run = run_in(&dir, &[&args[..], &["-"]].concat(), &crlf);
    assert_eq!(run.stdout, expected.replace("calls.jsonl", "<stdin>"));
    let run = run_in(&dir, &[&args[..], &["calls.jsonl", "-"]].concat(), &calls);
    let both = expected.to_string() + &expected.replace("calls.jsonl", "<stdin>");
    assert_eq!((run.code, &run.stdout), (1, &both), "{run:?}");
    assert!(run.stderr.starts_with("2 valid, 4 invalid ("), "{run:?}");
}

#[test]
fn validate_json_lines_reports_a_bad_line_and_goes_on() {
    let log = "{\"city\": \"Oslo\"}\r\n{\"city\": }\r\n\r\n{}\r\n[1,\n{\"city\": \"Lima\"}";
    let dir = dir_with(
        "validate_jsonl_bad_line",
        &[("s.json", WEATHER), ("log.jsonl", log)],
    );
    let run = run_in(&dir, &["validate", "s.json", "--jsonl", "log.jsonl"], "");
    // Malformed input still ends the run with exit code 2, after every line was read.
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stdout,
        "log.jsonl:1: valid\n\
         log.jsonl:4 (root): missing required property \"city\"\n\
         log.jsonl:6: valid\n"
    );
    let stderr: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(stderr.len(), 3, "{run:?}");
    assert_eq!(
        stderr[0],
        "mcp-jsonschema: log.jsonl:2:10: invalid JSON: expected value"
    );
    assert_eq!(
        stderr[1],
        "mcp-jsonschema: log.jsonl:5:3: invalid JSON: EOF while parsing a value"
    );
    assert!(
        stderr[2].starts_with("2 valid, 1 invalid, 2 malformed ("),
        "{run:?}"
    );
    // Quiet: only problems; the malformed lines are still reported, as malformed input
    // always is, and there is no summary.
    let run = run_in(&dir, &["validate", "-q", "s.json", "--jsonl", "-"], log);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (2, "<stdin>:4 (root): missing required property \"city\"\n")
    );
    assert_eq!(run.stderr.lines().count(), 2, "{run:?}");
    // The flag output has one unit per instance: the malformed line has none.
    let args = ["validate", "s.json", "--output", "flag", "--jsonl", "-"];
    let run = run_in(&dir, &args, log);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stdout,
        "{\"valid\":true}\n{\"valid\":false}\n{\"valid\":true}\n"
    );
}

#[test]
fn validate_json_lines_reports_a_line_that_is_not_utf8() {
    let dir = dir_with("validate_jsonl_utf8", &[("s.json", WEATHER)]);
    let log = b"{\"city\": \"Z\xc3\xbcrich\"}\n{\"city\": \"Z\xfcrich\"}\n{\"city\": \"\"}\n";
    std::fs::write(dir.join("latin1.jsonl"), log).expect("a test file");
    let run = run_in(&dir, &["validate", "s.json", "--jsonl", "latin1.jsonl"], "");
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stdout,
        "latin1.jsonl:1: valid\nlatin1.jsonl:3 /city: \"\" is shorter than 1 character\n"
    );
    assert!(
        run.stderr.starts_with(
            "mcp-jsonschema: latin1.jsonl:2:12: invalid JSON: not UTF-8 (byte 0xFC)\n\
             1 valid, 1 invalid, 1 malformed ("
        ),
        "{run:?}"
    );
}

#[test]
fn validate_json_lines_of_one_huge_line() {
    // One call with 200,000 properties that are not allowed, about 2.6 MB on one line.
    let members: Vec<String> = (0..200_000).map(|i| format!("\"p{i}\": {i}")).collect();
    let huge = format!("\n{{\"city\": \"Oslo\", {}}}\n", members.join(", "));
    let dir = dir_with(
        "validate_jsonl_huge",
        &[("s.json", WEATHER), ("huge.jsonl", &huge)],
    );
    let run = run_in(&dir, &["validate", "s.json", "--jsonl", "huge.jsonl"], "");
    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 200_000);
    assert_eq!(lines[0], "huge.jsonl:2 /p0: property \"p0\" is not allowed");
    assert!(lines.iter().all(|line| line.starts_with("huge.jsonl:2 /p")));
}

#[test]
fn validate_mask_leaves_instance_data_out_of_messages() {
    let secret = r#"{
  "city": "",
  "units": "sk-S3CR3T",
  "x": {"token": "S3CR3T"}
}"#;
    let dir = dir_with(
        "validate_mask",
        &[("s.json", WEATHER), ("secret.json", secret)],
    );
    let run = run_in(&dir, &["validate", "s.json", "secret.json"], "");
    assert!(run.stdout.contains("S3CR3T"), "unmasked quotes: {run:?}");
    let run = run_in(&dir, &["validate", "--mask", "s.json", "secret.json"], "");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "secret.json:2 /city: string is shorter than 1 character\n\
         secret.json:3 /units: expected one of \"metric\", \"imperial\", got string\n\
         secret.json:4 /x: property is not allowed\n"
    );
    // The output formats' error texts too.
    for format in ["basic", "detailed", "verbose"] {
        let args = [
            "validate",
            "--mask",
            "--output",
            format,
            "s.json",
            "secret.json",
        ];
        let run = run_in(&dir, &args, "");
        assert_eq!(run.code, 1, "{format}: {run:?}");
        assert!(run.stdout.contains("got string"), "{format}: {run:?}");
        assert!(!run.stdout.contains("S3CR3T"), "{format}: {run:?}");
    }
}

#[test]
fn validate_flag_output_and_quiet() {
    let dir = dir_with(
        "validate_flag",
        &[("s.json", WEATHER), ("bad.json", BAD_CALL)],
    );
    let log = "{\"city\": \"Oslo\"}\n{}\n";
    let run = run_in(
        &dir,
        &["validate", "s.json", "--output", "flag", "--jsonl", "-"],
        log,
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stdout, "{\"valid\":true}\n{\"valid\":false}\n");
    // Quiet: only problems, no summary; nothing at all when everything is valid.
    let run = run_in(&dir, &["validate", "--quiet", "s.json", "bad.json"], "");
    assert_eq!((run.code, run.stderr.as_str()), (1, ""));
    assert_eq!(run.stdout.lines().count(), 3, "{run:?}");
    assert!(run.stdout.starts_with("bad.json:2 /city: "), "{run:?}");
    std::fs::write(dir.join("ok.json"), r#"{"city": "Oslo"}"#).expect("a test file");
    let run = run_in(
        &dir,
        &["validate", "-q", "s.json", "ok.json", "ok.json"],
        "",
    );
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
    let args = [
        "validate", "-q", "s.json", "--output", "flag", "--jsonl", "-",
    ];
    let run = run_in(&dir, &args, log);
    assert_eq!((run.code, run.stdout.as_str()), (1, "{\"valid\":false}\n"));
}

#[test]
fn validate_writes_the_standard_output_formats() {
    let schema = r#"{"properties": {"days": {"type": "integer", "title": "Days"}}}"#;
    let dir = dir_with("validate_formats", &[("s.json", schema)]);
    let log = "{\"days\": 3}\n{\"days\": \"3\"}\n";
    for format in ["basic", "detailed", "verbose"] {
        let run = run_in(
            &dir,
            &["validate", "s.json", "--output", format, "--jsonl", "-"],
            log,
        );
        assert_eq!(run.code, 1, "{format}: {run:?}");
        let outputs: Vec<serde_json::Value> = (run.stdout.lines())
            .map(|line| serde_json::from_str(line).expect("one output per line"))
            .collect();
        assert_eq!(outputs.len(), 2, "{format}: {run:?}");
        assert_eq!(outputs[0]["valid"], true, "{format}");
        assert_eq!(outputs[1]["valid"], false, "{format}");
        // The annotations of the valid call, the error of the other, somewhere inside.
        assert!(
            outputs[0].to_string().contains(r#""annotation":"Days""#),
            "{format}: {}",
            outputs[0]
        );
        assert!(
            outputs[1].to_string().contains("/properties/days/type"),
            "{format}: {}",
            outputs[1]
        );
    }
}

/// Instances are read in place, their numbers as written: a number past what a double
/// holds is judged exactly, in files and in JSON Lines, and a failure whose parsed
/// reading (the nearest double) would pass still says so.
#[test]
fn validate_judges_numbers_as_written() {
    let dir = dir_with(
        "validate_numbers",
        &[
            ("integer.json", r#"{"type": "integer"}"#),
            ("one.json", "1.0"),
            ("almost.json", "1.00000000000000000001"),
            ("lines.jsonl", "1\n1.00000000000000000001\n2.0\n"),
        ],
    );
    let exact = "not valid with its numbers read exactly as written";
    let runs: [(&[&str], String); 2] = [
        (
            &["integer.json", "one.json", "almost.json"],
            format!("one.json: valid\nalmost.json:1 (root): {exact}\n"),
        ),
        (
            &["--jsonl", "integer.json", "lines.jsonl"],
            format!("lines.jsonl:1: valid\nlines.jsonl:2 (root): {exact}\nlines.jsonl:3: valid\n"),
        ),
    ];
    for (args, expected) in runs {
        let run = run_in(&dir, &[&["validate"], args].concat(), "");
        assert_eq!((run.code, &run.stdout), (1, &expected), "{run:?}");
    }
}

#[test]
fn validate_options_choose_the_dialect_formats_and_mcp_rules() {
    let dir = dir_with(
        "validate_options",
        &[
            ("draft4.json", r#"{"maximum": 5, "exclusiveMaximum": true}"#),
            ("five.json", "5"),
            ("email.json", r#"{"format": "email"}"#),
            ("x.json", r#""x""#),
            ("remote.json", r#"{"$ref": "https://example.com/s.json"}"#),
            ("tool.json", r#"{"properties": {"n": {"type": "integer"}}}"#),
            ("args.json", r#"{"n": 1}"#),
            ("array.json", "[1]"),
        ],
    );
    // Draft 4's boolean exclusiveMaximum, and the same schema refused in 2020-12.
    let run = run_in(
        &dir,
        &["validate", "--draft", "4", "draft4.json", "five.json"],
        "",
    );
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stdout,
        "five.json:1 (root): 5 is not less than the exclusive maximum of 5\n"
    );
    let run = run_in(&dir, &["validate", "draft4.json", "five.json"], "");
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .starts_with("mcp-jsonschema: draft4.json:1: invalid schema: ")
            && run.stderr.contains("/exclusiveMaximum"),
        "{run:?}"
    );
    let run = run_in(&dir, &["validate", "--mcp-input", "remote.json"], "");
    assert!(run.stderr.contains("invalid schema"), "{run:?}");
    let run = run_in(
        &dir,
        &[
            "validate",
            "--mcp-input",
            "tool.json",
            "args.json",
            "array.json",
        ],
        "",
    );
    assert_eq!(
        run.stdout,
        "args.json: valid\narray.json:1 (root): expected object, got array [1]\n"
    );
    let exit_codes: [(&[&str], i32); 6] = [
        // `format` asserted only when asked (2020-12).
        (&["email.json", "x.json"], 0),
        (&["--assert-formats", "email.json", "x.json"], 1),
        // The MCP rules: no remote references; an input schema's root is an object, an
        // output schema's root whatever it says.
        (&["--mcp-input", "remote.json"], 2),
        (&["--mcp-input", "tool.json", "args.json", "array.json"], 1),
        (&["--mcp-output", "tool.json", "array.json"], 1),
        (&["tool.json", "array.json"], 0),
    ];
    for (args, code) in exit_codes {
        let run = run_in(&dir, &[&["validate"], args].concat(), "");
        assert_eq!(run.code, code, "{args:?}: {run:?}");
    }
}

#[test]
fn bad_input_exits_with_2_and_says_where() {
    let dir = dir_with(
        "bad_input",
        &[
            ("s.json", WEATHER),
            ("broken.json", "{\n  \"city\": \"Oslo\",\n  \"units\": }\n"),
            (
                "bad-schema.json",
                "{\n  \"properties\": {\n    \"n\": {\"minimum\": \"x\"}\n  }\n}",
            ),
        ],
    );
    let cases: [(&[&str], &str); 9] = [
        (
            &["validate", "s.json", "missing.json"],
            "mcp-jsonschema: missing.json: cannot read: ",
        ),
        (
            &["validate", "s.json", "broken.json"],
            "mcp-jsonschema: broken.json:3:12: invalid JSON: expected value\n",
        ),
        (
            &["validate", "s.json", "--jsonl", "broken.json"],
            "mcp-jsonschema: broken.json:1:1: invalid JSON: ",
        ),
        (
            &["validate", "bad-schema.json", "s.json"],
            "mcp-jsonschema: bad-schema.json:3: invalid schema: ",
        ),
        (
            &["validate", "-", "-"],
            "mcp-jsonschema: standard input (`-`) can be read only once\n",
        ),
        (
            &["check", "missing.json"],
            "mcp-jsonschema: missing.json: cannot read: ",
        ),
        (
            &["check", "broken.json"],
            "mcp-jsonschema: broken.json:3:12: invalid JSON: expected value\n",
        ),
        // Empty standard input, as a schema to check or to validate with.
        (
            &["check", "-"],
            "mcp-jsonschema: <stdin>: no JSON value (the input is empty)\n",
        ),
        (
            &["validate", "-", "s.json"],
            "mcp-jsonschema: <stdin>: no JSON value (the input is empty)\n",
        ),
    ];
    for (args, expected) in cases {
        let run = run_in(&dir, args, "");
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stderr.starts_with(expected), "{args:?}: {run:?}");
        assert_eq!(run.stdout, "", "{args:?}");
    }
    // Usage errors are clap's, with exit code 2 too.
    for args in [
        &["validate"][..],
        &["frobnicate"],
        &["validate", "s.json", "--output", "xml"],
    ] {
        let run = run_in(&dir, args, "");
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert!(run.stderr.starts_with("error: "), "{args:?}: {run:?}");
    }
}

#[test]
fn check_lists_every_problem_with_its_line() {
    let bad =
        "{\n  \"type\": \"objekt\",\n  \"properties\": {\n    \"n\": {\"minimum\": \"x\"}\n  }\n}";
    let mut deep = String::from("true");
    for _ in 0..70 {
        deep = format!("{{\"items\": {deep}}}");
    }
    let dir = dir_with(
        "check",
        &[
            ("ok.json", WEATHER),
            ("bad.json", bad),
            ("deep.json", &deep),
            ("pattern.json", r#"{"pattern": "(unclosed"}"#),
            ("remote.json", r#"{"$ref": "https://example.com/s.json"}"#),
        ],
    );
    let run = run_in(&dir, &["check", "ok.json", "bad.json"], "");
    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "ok.json: ok");
    assert_eq!(lines.len(), 4, "{run:?}");
    // A failed `anyOf`, then the error of its closest branch, each once; then the
    // other problem, in the order of the metaschema's keywords.
    assert!(lines[1].starts_with("bad.json:2 /type: "), "{run:?}");
    assert!(lines[1].ends_with("the closest is #0"), "{run:?}");
    assert!(
        lines[2].starts_with("bad.json:2 /type: expected one of \"array\""),
        "{run:?}"
    );
    assert!(
        lines[3].starts_with("bad.json:4 /properties/n/minimum: "),
        "{run:?}"
    );
    // What only compiling finds: a pattern that is not a regex, a remote reference.
    let run = run_in(&dir, &["check", "pattern.json", "remote.json"], "");
    assert_eq!(run.code, 1, "{run:?}");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("pattern.json:1 /pattern: "), "{run:?}");
    assert!(lines[1].starts_with("remote.json:1 /$ref: "), "{run:?}");
    // The MCP profile's bounds: 70 levels are fine in general, not for a tool.
    let run = run_in(&dir, &["check", "deep.json"], "");
    assert_eq!((run.code, run.stdout.as_str()), (0, "deep.json: ok\n"));
    let run = run_in(&dir, &["check", "--mcp", "deep.json"], "");
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.starts_with("deep.json:1 /items/items/"),
        "{run:?}"
    );
    // Quiet: the problems without the `ok` lines; nothing when every schema is usable.
    let run = run_in(&dir, &["check", "--quiet", "ok.json", "bad.json"], "");
    assert_eq!(run.code, 1, "{run:?}");
    let loud = run_in(&dir, &["check", "ok.json", "bad.json"], "").stdout;
    assert_eq!(
        Some(run.stdout.as_str()),
        loud.strip_prefix("ok.json: ok\n")
    );
    let run = run_in(&dir, &["check", "-q", "ok.json", "deep.json"], "");
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (0, "", "")
    );
}

/// The console block of the README that starts with `$ command`: each command with
/// the lines it printed (a `...` line stands for lines left out).
fn readme_session(command: &str) -> Vec<String> {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find(&format!("$ {command}\n"))
        .unwrap_or_else(|| panic!("the README shows `{command}`"));
    let block = &readme[start..];
    let end = block.find("```").expect("the block ends");
    block[..end]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("$ "))
        .map(String::from)
        .collect()
}

#[test]
fn schemas_that_span_files_validate_and_bundle_as_the_readme_shows() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let root = Path::new(root);
    let schema = "examples/multi-file/order.json";
    let call = "examples/multi-file/order-call.json";
    let defs = "examples/multi-file/defs";
    // Without the files it refers to: the reference, and how to give them.
    let run = run_in(root, &["validate", schema, call], "");
    assert_eq!(run.code, 2, "{run:?}");
    let shown = readme_session(&format!("mcp-jsonschema validate {schema} {call}"));
    assert_eq!(run.stderr.trim_end(), shown.join("\n"), "{run:?}");
    // With them: the instance's error, found in the other file.
    let args = ["validate", schema, call, "--resource", defs];
    let run = run_in(root, &args, "");
    assert_eq!(run.code, 1, "{run:?}");
    let shown = readme_session(&format!("mcp-jsonschema {}", args.join(" ")));
    assert_eq!(run.stdout.trim_end(), shown[0], "{run:?}");
    assert!(run.stderr.starts_with("0 valid, 1 invalid ("), "{run:?}");
    // A directory is read recursively; a single file does as well; nothing else is read.
    let run = run_in(
        root,
        &[
            "validate",
            schema,
            call,
            "--resource",
            "examples/multi-file/defs/address.json",
        ],
        "",
    );
    assert_eq!(run.code, 1, "{run:?}");
    // A run that ends with `code` and says `text` (on either stream).
    let says = |dir: &Path, args: &[&str], code: i32, text: &str| {
        let run = run_in(dir, args, "");
        assert_eq!(run.code, code, "{args:?}: {run:?}");
        let said = run.stdout.contains(text) || run.stderr.contains(text);
        assert!(said, "{args:?}: {text:?} is not in {run:?}");
    };
    let nowhere = "examples/multi-file/nowhere";
    says(
        root,
        &["validate", schema, call, "--resource", nowhere],
        2,
        &format!("--resource {nowhere}"),
    );

    // `check` reads them the same way.
    let unresolved = "/properties/bill_to/$ref: cannot resolve reference \"defs/address.json\" (no such resource) (give the documents it refers to with --resource PATH)";
    says(root, &["check", schema], 1, unresolved);
    let run = run_in(root, &["check", schema, "--resource", defs], "");
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "examples/multi-file/order.json: ok\n")
    );

    // The same-document bundle: the committed one, each shown line of it in the README,
    // a tool schema the MCP profile accepts, with the verdicts of the original.
    let args = ["bundle", "--mcp", schema, "--resource", defs];
    let run = run_in(root, &args, "");
    assert_eq!(run.code, 0, "{run:?}");
    let committed = std::fs::read_to_string(root.join("examples/multi-file/order.bundled.json"))
        .expect("the committed bundle");
    assert_eq!(run.stdout, committed);
    let shown = readme_session(&format!("mcp-jsonschema {}", args.join(" ")));
    let mut lines = run.stdout.lines();
    for line in shown.iter().filter(|l| l.trim() != "...") {
        assert!(
            lines.any(|l| l == line),
            "{line:?} is not in the output, in order"
        );
    }
    let bundled = "examples/multi-file/order.bundled.json";
    let run = run_in(root, &["validate", "--mcp-input", bundled, call], "");
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stdout, "examples/multi-file/order-call.json:3 /ship_to/country: \"norway\" does not match the pattern \"^[A-Z]{2}$\"\n");
    // Without --mcp, the embedded file keeps its `$id` and is named by it.
    let run = run_in(root, &["bundle", schema, "--resource", defs], "");
    let plain: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(
        plain["properties"]["ship_to"]["$ref"],
        "https://example.com/schemas/address.json"
    );
    assert_eq!(
        plain["$defs"]["address.json"]["$id"],
        "https://example.com/schemas/address.json"
    );
    // What cannot be bundled: a file not given, and (with --mcp) a dynamic reference
    // across resources.
    says(
        root,
        &["bundle", schema],
        2,
        &format!("cannot bundle: {unresolved}"),
    );
    let dir = dir_with(
        "bundle_dynamic",
        &[
            (
                "tree.json",
                r##"{"$id": "https://example.com/tree", "$dynamicAnchor": "node", "properties": {"kids": {"items": {"$dynamicRef": "#node"}}}}"##,
            ),
            (
                "strict.json",
                r#"{"$ref": "https://example.com/tree", "$dynamicAnchor": "node", "unevaluatedProperties": false}"#,
            ),
        ],
    );
    let args = ["bundle", "--mcp", "strict.json", "--resource", "tree.json"];
    says(&dir, &args, 2, "$dynamicRef: cannot rewrite $dynamicRef");
}

/// Checks `reply` against the protocol's `kind` reply schema (tests/data).
fn assert_protocol(kind: &str, reply: &serde_json::Value) {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("data/bowtie-protocol.json")).unwrap();
    let mut schema = schema;
    schema["$ref"] = format!("#/$defs/{kind}").into();
    let validator = mcp_jsonschema::Validator::options()
        .with_format_assertion(true)
        .build(&schema)
        .unwrap();
    let errors: Vec<String> = validator
        .iter_errors(reply)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{kind} reply {reply}: {errors:?}");
}

#[test]
fn bowtie_transcript() {
    let dir = dir_with("bowtie", &[]);
    let requests = [
        r#"{"cmd": "start", "version": 1}"#,
        r#"{"cmd": "dialect", "dialect": "http://json-schema.org/draft-07/schema#"}"#,
        // A registry with a remote of a dialect the harness does not run (draft 3).
        r#"{"cmd": "run", "seq": 1, "case": {"description": "remote ref", "schema": {"$ref": "http://localhost:1234/integer.json"}, "registry": {"http://localhost:1234/integer.json": {"type": "integer"}, "http://localhost:1234/draft3/subSchemas.json": {"$schema": "http://json-schema.org/draft-03/schema#", "type": "any"}}, "tests": [{"description": "int", "instance": 1}, {"description": "str", "instance": "a"}]}}"#,
        // Draft 7 is the default dialect now: `$defs` is just an unknown keyword there,
        // but `definitions` resolve.
        r##"{"cmd": "run", "seq": "two", "case": {"description": "draft 7", "schema": {"definitions": {"n": {"type": "null"}}, "$ref": "#/definitions/n"}, "tests": [{"description": "null", "instance": null}]}}"##,
        r#"{"cmd": "run", "seq": 3, "case": {"description": "errored", "schema": {"type": 12}, "tests": [{"description": "x", "instance": 1}]}}"#,
        r#"{"cmd": "run", "seq": 4, "output": "annotations", "case": {"description": "annotations", "schema": {"title": "t"}, "tests": [{"description": "x", "instance": 1}]}}"#,
        r#"{"cmd": "dialect", "dialect": "http://json-schema.org/draft-03/schema#"}"#,
        r#"{"cmd": "stop"}"#,
        r#"{"cmd": "run", "seq": 5, "case": {"description": "after stop", "schema": {}, "tests": []}}"#,
    ];
    let run = run_in(&dir, &["bowtie"], &(requests.join("\n") + "\n"));
    assert_eq!(run.code, 0, "{run:?}");
    let replies: Vec<serde_json::Value> = (run.stdout.lines())
        .map(|line| serde_json::from_str(line).expect("each reply is one JSON line"))
        .collect();
    assert_eq!(
        replies.len(),
        7,
        "one reply per request before stop: {run:?}"
    );
    let kinds = ["start", "dialect", "run", "run", "run", "run", "dialect"];
    for (kind, reply) in kinds.iter().zip(&replies) {
        assert_protocol(kind, reply);
    }
    let implementation = &replies[0]["implementation"];
    assert_eq!(implementation["name"], "mcp-jsonschema");
    assert_eq!(implementation["dialects"].as_array().map(Vec::len), Some(5));
    assert_eq!(replies[1], serde_json::json!({"ok": true}));
    assert_eq!(
        replies[2],
        serde_json::json!({"seq": 1, "results": [{"valid": true}, {"valid": false}]})
    );
    assert_eq!(
        replies[3],
        serde_json::json!({"seq": "two", "results": [{"valid": true}]})
    );
    assert_eq!(replies[4]["errored"], true);
    let message = replies[4]["context"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(message.contains("/type"), "{message}");
    // Annotations: at the keyword itself, as a fragment of the schema.
    assert_eq!(
        replies[5],
        serde_json::json!({"seq": 4, "results": [{"valid": true, "annotations": [
            {"keyword": "title", "instanceLocation": "", "keywordLocation": "#/title", "annotation": "t"}
        ]}]})
    );
    assert_eq!(replies[6], serde_json::json!({"ok": false}));
}

#[test]
fn bowtie_refuses_what_is_not_the_protocol_without_writing_to_stdout() {
    let dir = dir_with("bowtie_bad", &[]);
    for input in [
        "not json\n",
        "{\"cmd\": \"run\", \"seq\": 1}\n",
        "{\"cmd\": \"start\", \"version\": 2}\n",
        "{\"cmd\": \"start\", \"version\": 1}\n{\"cmd\": \"launch\"}\n",
    ] {
        let run = run_in(&dir, &["bowtie"], input);
        assert_eq!(run.code, 2, "{input}: {run:?}");
        assert!(
            run.stderr.starts_with("mcp-jsonschema: "),
            "{input}: {run:?}"
        );
        let replies = run.stdout.lines().count();
        assert_eq!(replies, usize::from(input.contains("launch")), "{input}");
    }
}

/// The shipped example: the SEP's three demo tools and three with problems.
const EXAMPLE: &str = example!("tools-list.json");

#[test]
fn tools_reports_each_tool_of_the_example() {
    let dir = dir_with("tools_example", &[]);
    let run = run_in(&dir, &["tools", EXAMPLE], "");
    assert_eq!(run.code, 1, "{run:?}");
    let headers: Vec<&str> = (run.stdout.lines())
        .filter(|line| !line.starts_with(' '))
        .collect();
    assert_eq!(
        headers,
        [
            "get-weather-forecast: ok",
            "get-count: ok",
            "find-by-id-or-name: ok",
            "files.read: 3 errors",
            "search: 2 errors",
            "list_repositories: 1 error",
            "rules cited:",
        ],
        "{}",
        run.stdout
    );
    let has = |text: &str| run.stdout.contains(text);
    // The wire form, the MCP profile's errors, and rules of several providers.
    assert!(has("  inputSchema: compiles under the MCP profile; on the wire it gets \"$schema\": \"https://json-schema.org/draft/2020-12/schema\", \"type\": \"object\"\n"));
    assert!(has(
        "  error inputSchema/type: inputSchema must have type \"object\", got \"array\"\n"
    ));
    assert!(has("  error [openai-function-name] name: \"files.read\": characters not allowed: ['.'] (OpenAI)\n"));
    assert!(has(
        "  warning [vertex-parameter-name] inputSchema/properties/max-bytes: "
    ));
    assert!(has(
        "  error [bedrock-empty-description] description: the description is empty (AWS Bedrock)\n"
    ));
    assert!(has(
        "  warning [mcp-2025-11-25-output-schema-object] outputSchema/type: "
    ));
    // find-by-id-or-name's outputSchema is an object on the wire: no such warning there.
    assert_eq!(
        run.stdout
            .matches("[mcp-2025-11-25-output-schema-object]")
            .count(),
        2
    );
    // Each rule that fired is cited once, with its page and its words.
    assert!(has("rules cited:\n"));
    assert!(has("  openai-function-name (OpenAI, error): https://platform.openai.com/docs/api-reference/chat/create\n    \"The name of the function to be called. Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.\"\n"));
    assert_eq!(run.stdout.matches("  openai-function-name (").count(), 1);
    assert_eq!(
        run.stderr, "6 tools: 6 errors, 10 warnings\n",
        "{}",
        run.stdout
    );
}

#[test]
fn tools_json_report_for_programs() {
    let dir = dir_with("tools_json", &[]);
    let run = run_in(&dir, &["tools", "--output", "json", EXAMPLE], "");
    assert_eq!(run.code, 1, "{run:?}");
    // `--format`, the flag's name before `--output`, still works.
    let old = run_in(&dir, &["tools", "--format", "json", EXAMPLE], "");
    assert_eq!((old.code, &old.stdout), (1, &run.stdout));
    let report: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(
        (report["errors"].as_u64(), report["warnings"].as_u64()),
        (Some(6), Some(10))
    );
    let tools = report["tools"].as_array().expect("a list of tools");
    assert_eq!(tools.len(), 6);
    assert_eq!(tools[0]["name"], "get-weather-forecast");
    assert_eq!(tools[0]["file"], EXAMPLE);
    assert_eq!(tools[0]["inputSchema"]["compiles"], true);
    assert_eq!(
        tools[2]["inputSchema"]["wireAdds"]["type"], "object",
        "{:#}",
        tools[2]
    );
    assert_eq!(tools[5]["inputSchema"]["error"]["pointer"], "/type");
    let findings = report["findings"].as_array().expect("a list of findings");
    assert_eq!(findings.len(), 16);
    let rules: Vec<&str> = (findings.iter())
        .filter(|f| f["tool"] == "files.read" && f["severity"] == "error")
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert_eq!(
        rules,
        [
            "openai-function-name",
            "anthropic-tool-name",
            "bedrock-tool-name"
        ]
    );
    // Each finding says where: the pointer in the file, and its line and column.
    let first = (findings.iter())
        .find(|f| f["rule"] == "openai-function-name")
        .expect("a finding");
    assert_eq!(
        (
            &first["file"],
            &first["pointer"],
            &first["line"],
            &first["column"]
        ),
        (
            &EXAMPLE.into(),
            &"/result/tools/3/name".into(),
            &53.into(),
            &17.into()
        )
    );
    assert_eq!(
        first["message"],
        "\"files.read\": characters not allowed: ['.']"
    );
    assert_eq!(first["provider"], "OpenAI");
    let compile = (findings.iter())
        .find(|f| f["tool"] == "list_repositories" && f["rule"] == "invalid-schema")
        .expect("the compile error");
    assert_eq!(compile["pointer"], "/result/tools/5/inputSchema/type");
    assert_eq!(compile["severity"], "error");
}

#[test]
fn tools_reads_every_shape_of_tools_list_and_refuses_others() {
    let ok = r#"{"name": "ok_tool", "description": "d", "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false}}"#;
    let many: Vec<String> = (0..129)
        .map(|i| ok.replace("ok_tool", &format!("tool_{i}")))
        .collect();
    let dir = dir_with(
        "tools_shapes",
        &[
            ("result.json", &format!("{{\"tools\": [{ok}]}}")),
            ("array.json", &format!("[{ok}]")),
            (
                "two.jsonl",
                &format!("{{\"tools\": [{ok}]}}\n{{\"result\": {{\"tools\": [{ok}]}}}}\n"),
            ),
            ("many.json", &format!("[{}]", many.join(","))),
            (
                "other.json",
                "{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {}}",
            ),
            ("broken.json", "{\"tools\": [\n{]}"),
        ],
    );
    for file in ["result.json", "array.json"] {
        let run = run_in(&dir, &["tools", file], "");
        assert_eq!((run.code, run.stdout.as_str()), (0, "ok_tool: ok\n  inputSchema: compiles under the MCP profile; on the wire it gets \"$schema\": \"https://json-schema.org/draft/2020-12/schema\"\n"), "{file}");
        assert_eq!(run.stderr, "1 tool: 0 errors, 0 warnings\n");
    }
    // Warnings only (exit 0): the same name in two documents, more tools than a client
    // takes; and a list on standard input.
    let stdin_list = format!("[{ok}]");
    let warnings_only = [
        (
            "two.jsonl",
            "",
            "warning [mcp-tool-name-unique] name: 2 tools are named \"ok_tool\"",
        ),
        (
            "many.json",
            "",
            "the list as a whole:\n  warning [vscode-tool-count] tools: 129 tools",
        ),
        ("-", stdin_list.as_str(), "ok_tool: ok\n"),
    ];
    for (file, stdin, expected) in warnings_only {
        let run = run_in(&dir, &["tools", file], stdin);
        assert_eq!(run.code, 0, "{file}: {run:?}");
        assert!(run.stdout.contains(expected), "{file}: {run:?}");
    }
    let cases = [
        (
            "other.json",
            "mcp-jsonschema: other.json: document 1 is not a tools/list result",
        ),
        (
            "broken.json",
            "mcp-jsonschema: broken.json:2:2: invalid JSON: ",
        ),
        (
            "-",
            "mcp-jsonschema: <stdin>: no JSON value (the input is empty)",
        ),
        (
            "missing.json",
            "mcp-jsonschema: missing.json: cannot read: ",
        ),
    ];
    for (file, expected) in cases {
        let run = run_in(&dir, &["tools", file], "");
        assert_eq!(run.code, 2, "{file}: {run:?}");
        assert!(run.stderr.starts_with(expected), "{file}: {run:?}");
    }
}

#[test]
fn a_closed_standard_output_ends_the_output_not_the_run() {
    // Far more output than a pipe holds, so that writes meet the closed end.
    let tool = |i: usize| format!(r#"{{"name": "tool.{i}", "inputSchema": {{"type": "object"}}}}"#);
    let tools: Vec<String> = (0..2_000).map(tool).collect();
    let calls = "{\"units\": \"kelvin\"}\n".repeat(20_000);
    let dir = dir_with(
        "closed_stdout",
        &[
            ("many.json", &format!("[{}]", tools.join(","))),
            ("s.json", WEATHER),
            ("calls.jsonl", &calls),
        ],
    );
    for args in [
        &["tools", "many.json"][..],
        &["tools", "--output", "json", "many.json"],
        &["validate", "s.json", "--jsonl", "calls.jsonl"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-jsonschema"))
            .args(args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        // `| head -0`: the reader goes away at once.
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("the binary ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        // Dots in 2,000 names, calls without a city: errors, so exit code 1, as with an
        // open pipe.
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    }
}

/// `tools --stdio` against servers scripted in `sh`: each way a server can fail ends with
/// a message naming it and exit code 2 (the real SDK servers are in `sdk.rs`).
#[test]
fn tools_stdio_says_how_a_server_failed() {
    let dir = dir_with("tools_stdio_failures", &[]);
    let refuse = r#"read l; echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no discover"}}'
read l; echo '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"unsupported version"}}'"#;
    let cases = [
        (
            "read l; echo garbage",
            "the server sent a line that is not JSON-RPC: garbage",
        ),
        (
            "read l; exit 4",
            "the server exited (exit status: 4) before server/discover was answered",
        ),
        ("exec sleep 5", "no answer to initialize within 1 s"),
        (
            refuse,
            "the server refused initialize: -32602 unsupported version",
        ),
    ];
    for (script, expected) in cases {
        let run = run_in(
            &dir,
            &[
                "tools",
                "--timeout",
                "1",
                "--stdio",
                "--",
                "sh",
                "-c",
                script,
            ],
            "",
        );
        assert_eq!(run.code, 2, "{script}: {run:?}");
        assert!(
            run.stderr.ends_with(&format!("{expected}\n")),
            "{script}: {}",
            run.stderr
        );
        assert_eq!(run.stdout, "");
    }
    let run = run_in(
        &dir,
        &[
            "tools",
            "--stdio",
            "--",
            "sh",
            "-c",
            "echo starting >&2; exit 1",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("[server] starting\n"),
        "kept apart and marked: {}",
        run.stderr
    );
    let run = run_in(&dir, &["tools", "--stdio", "--", "/nonexistent/server"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("/nonexistent/server: cannot start the server"),
        "{}",
        run.stderr
    );
}

/// A handshake-era server scripted in `sh`: it refuses `server/discover`, answers
/// `initialize` and two pages of `tools/list`, and the report covers both pages.
#[test]
fn tools_stdio_lists_every_page_of_a_handshake_server() {
    let dir = dir_with("tools_stdio_pages", &[]);
    let script = r#"read l; echo '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}'
read l; echo '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"0"}}}'
read l
read l; echo '{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"2"}}'
read l; case "$l" in *'"cursor":"2"'*) echo '{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"b","inputSchema":{"type":"array"}}]}}';; esac
read l"#;
    let run = run_in(&dir, &["tools", "--stdio", "--", "sh", "-c", script], "");
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.starts_with("a: ok\n"), "{}", run.stdout);
    assert!(run.stdout.contains("b: 1 error\n  error inputSchema/type: inputSchema must have type \"object\", got \"array\"\n"), "{}", run.stdout);
    assert!(run.stderr.starts_with("sh -c "), "{}", run.stderr);
    assert!(
        run.stderr
            .contains(": sh 0, protocol 2025-11-25, 2 tools listed\n2 tools: 1 error"),
        "{}",
        run.stderr
    );
}
