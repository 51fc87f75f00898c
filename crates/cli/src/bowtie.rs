//! `bowtie`: a harness for Bowtie, the JSON Schema compliance runner, speaking its
//! protocol version 1: one JSON request per line on standard input, one reply line per
//! request on standard output (`start`, `dialect`, `run`; `stop` ends the process).
//!
//! Nothing but replies reaches standard output: a panic while compiling or validating is
//! caught and answered as an errored case or test (the default hook has already written
//! it to standard error).

use crate::{Failure, Outcome};
use mcp_jsonschema::{Draft, ValidationOptions, Validator};
use serde_json::{json, Map, Value};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The dialects this harness runs, as Bowtie names them.
const DIALECTS: [Draft; 5] = [
    Draft::Draft202012,
    Draft::Draft201909,
    Draft::Draft7,
    Draft::Draft6,
    Draft::Draft4,
];

/// The protocol state: the dialect of schemas without `$schema`.
struct Harness {
    dialect: Draft,
    started: bool,
}

pub(crate) fn run() -> Result<Outcome, Failure> {
    let mut harness = Harness {
        dialect: Draft::default(),
        started: false,
    };
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for (i, line) in stdin.lines().enumerate() {
        let line = line.map_err(|e| Failure(format!("<stdin>: cannot read: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let request: Value = serde_json::from_str(&line)
            .map_err(|e| Failure(format!("<stdin>:{}: invalid request: {e}", i + 1)))?;
        let Some(reply) = harness.answer(&request)? else {
            break;
        };
        writeln!(stdout, "{reply}")
            .and_then(|()| stdout.flush())
            .map_err(|e| Failure(format!("<stdout>: cannot write: {e}")))?;
    }
    Ok(Outcome::Valid)
}

impl Harness {
    /// The reply to `request`, or `None` for `stop`.
    fn answer(&mut self, request: &Value) -> Result<Option<Value>, Failure> {
        let command = request.get("cmd").and_then(Value::as_str).unwrap_or("");
        if command != "start" && !self.started {
            return Err(Failure(format!(
                "request {command:?} before \"start\": {request}"
            )));
        }
        Ok(Some(match command {
            "start" => {
                if request.get("version") != Some(&json!(1)) {
                    return Err(Failure(format!(
                        "unsupported protocol version in {request} (this harness speaks 1)"
                    )));
                }
                self.started = true;
                start_reply()
            }
            "dialect" => {
                let uri = request.get("dialect").and_then(Value::as_str);
                match uri.and_then(Draft::from_uri) {
                    Some(draft) => {
                        self.dialect = draft;
                        json!({"ok": true})
                    }
                    None => json!({"ok": false}),
                }
            }
            "run" => self.run_case(request),
            "stop" => return Ok(None),
            _ => return Err(Failure(format!("unknown request: {request}"))),
        }))
    }

    /// The reply to a `run` request: a result per test, or the whole case skipped or
    /// errored.
    fn run_case(&self, request: &Value) -> Value {
        let seq = request.get("seq").cloned().unwrap_or(Value::Null);
        let case = request.get("case").unwrap_or(&Value::Null);
        let annotations = match request.get("output").and_then(Value::as_str) {
            None | Some("flag") => false,
            Some("annotations") => true,
            Some(other) => {
                return json!({
                    "seq": seq,
                    "skipped": true,
                    "message": format!("the {other:?} output is not supported (flag and annotations are)"),
                })
            }
        };
        let (Some(schema), Some(tests)) = (
            case.get("schema"),
            case.get("tests").and_then(Value::as_array),
        ) else {
            return errored(seq, "the case has no schema or no tests".into());
        };
        let registry = case.get("registry").and_then(Value::as_object);
        let compiled = catch_unwind(AssertUnwindSafe(|| {
            self.compile(schema, registry, annotations)
        }));
        let validator = match compiled {
            Ok(Ok(validator)) => validator,
            Ok(Err(e)) => return errored(seq, format!("the schema does not compile: {e}")),
            Err(panic) => return errored(seq, panic_message(&*panic)),
        };
        let results: Vec<Value> = tests
            .iter()
            .map(|test| {
                let instance = test.get("instance").unwrap_or(&Value::Null);
                let run = || match annotations {
                    true => annotated(&validator, instance),
                    false => json!({ "valid": validator.is_valid(instance) }),
                };
                match catch_unwind(AssertUnwindSafe(run)) {
                    Ok(result) => result,
                    Err(panic) => json!({
                        "errored": true,
                        "context": {"message": panic_message(&*panic)},
                    }),
                }
            })
            .collect();
        json!({"seq": seq, "results": results})
    }

    /// Compiles a case's schema with its registry, in the current dialect. Formats are
    /// annotations in 2019-09 and 2020-12 and assertions before, as the suite expects.
    fn compile(
        &self,
        schema: &Value,
        registry: Option<&Map<String, Value>>,
        annotations: bool,
    ) -> Result<Validator, mcp_jsonschema::SchemaError> {
        let mut options = ValidationOptions::default()
            .with_draft(self.dialect)
            .with_annotations(annotations);
        for (uri, document) in registry.into_iter().flatten() {
            options = options.with_resource(uri.clone(), document.clone());
        }
        options.build(schema)
    }
}

/// The result of an `annotations` run for one instance: the verdict and every
/// annotation, located (as Bowtie asks) at the keyword itself, as a URI fragment of the
/// schema document (a registered document's keyword by its own URI).
fn annotated(validator: &Validator, instance: &Value) -> Value {
    let evaluation = validator.evaluate(instance);
    let annotations: Vec<Value> = (evaluation.annotations().iter())
        .map(|annotation| {
            let object = annotation.schema_location();
            let mut location = match object.contains('#') {
                true => object.to_string(),
                false => format!("#{object}"),
            };
            location.push('/');
            location.push_str(&annotation.keyword().replace('~', "~0").replace('/', "~1"));
            json!({
                "keyword": annotation.keyword(),
                "instanceLocation": annotation.instance_location(),
                "keywordLocation": location,
                "annotation": annotation.value(),
            })
        })
        .collect();
    json!({ "valid": evaluation.valid(), "annotations": annotations })
}

/// The `start` reply: who this implementation is.
fn start_reply() -> Value {
    // As Bowtie writes them: draft 7 and earlier with their `#`.
    let dialects: Vec<&str> = DIALECTS.iter().map(|d| d.uri()).collect();
    json!({
        "version": 1,
        "implementation": {
            "language": "rust",
            "name": "mcp-jsonschema",
            "version": env!("CARGO_PKG_VERSION"),
            "dialects": dialects,
            "homepage": "https://crates.io/crates/mcp-jsonschema",
            "documentation": "https://docs.rs/mcp-jsonschema",
            "issues": "https://crates.io/crates/mcp-jsonschema",
            "source": "https://crates.io/crates/mcp-jsonschema",
            "os": std::env::consts::OS,
        },
    })
}

/// A reply for a case that could not run.
fn errored(seq: Value, message: String) -> Value {
    json!({"seq": seq, "errored": true, "context": {"message": message}})
}

/// What a caught panic said.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let said = (panic.downcast_ref::<&str>().copied())
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    format!("panicked: {said}")
}
