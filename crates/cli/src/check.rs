//! `check SCHEMA ...`: every problem of each schema, with its pointer.
//!
//! A schema of an official dialect is validated against that dialect's metaschema with
//! every error listed (the library itself stops at the first), then compiled, which finds
//! what a metaschema cannot say: unresolvable references, patterns that are not
//! ECMA-262, and with `--mcp` the MCP profile's bounds and same-document rule.

use crate::input::{stdin_once, Source};
use crate::paint::Paint;
use crate::report::{self, Cited, Finding, Format, ReportArgs};
use crate::{DraftOption, Failure, Outcome};
use mcp_jsonschema::{mcp, Draft, ValidationOptions, Validator};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Schema files (`-` for standard input).
    #[arg(required = true)]
    schemas: Vec<String>,
    #[command(flatten)]
    draft: DraftOption,
    /// Also apply the MCP profile: schema depth 64, 10,000 subschemas, same-document
    /// references only, no draft 4.
    #[arg(long)]
    mcp: bool,
    #[command(flatten)]
    report: ReportArgs,
}

/// A problem found in a schema: where, and what.
struct Problem {
    pointer: String,
    message: String,
}

pub(crate) fn run(args: &Args) -> Result<Outcome, Failure> {
    stdin_once(&args.schemas)?;
    let paint = Paint::for_stdout();
    let (format, quiet) = (args.report.output, args.report.quiet.quiet);
    let mut metaschemas = HashMap::new();
    let mut findings = Vec::new();
    for path in &args.schemas {
        let source = Source::read(path)?;
        let schema = source.json()?;
        let problems = problems(args, &schema, &mut metaschemas)?;
        if format == Format::Text && problems.is_empty() && !quiet {
            say!("{}: {}", source.name, paint.good("ok"));
        }
        for Problem { pointer, message } in problems {
            let finding = Finding::new(&source, 0, pointer, Cited::Schema, message);
            if format == Format::Text {
                let line = finding.position.map_or(1, |(line, _)| line);
                let (subject, message) = (paint.bad(&finding.subject), &finding.message);
                say!("{}:{line} {subject}: {message}", source.name);
            }
            findings.push(finding);
        }
    }
    report::print(format, &[Cited::Schema], &findings, Map::new());
    Ok(match findings.is_empty() {
        true => Outcome::Valid,
        false => Outcome::Invalid,
    })
}

/// Every problem of `schema`: its metaschema's errors, then the compiler's, if it names
/// another place.
fn problems(
    args: &Args,
    schema: &Value,
    metaschemas: &mut HashMap<Draft, Validator>,
) -> Result<Vec<Problem>, Failure> {
    let declared = schema.get("$schema");
    let draft = match declared.and_then(Value::as_str) {
        Some(uri) => Draft::from_uri(uri),
        // Without `$schema` (or with a boolean schema): the assumed dialect.
        None if declared.is_none() => Some(args.draft.draft.map_or(Draft::default(), Draft::from)),
        // A malformed `$schema`: the compiler explains.
        None => None,
    };
    let mut found = Vec::new();
    if let Some(draft) = draft {
        let metaschema = match metaschemas.entry(draft) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => {
                let validator = ValidationOptions::default()
                    .with_draft(draft)
                    .build(&json!({ "$ref": draft.uri() }))
                    .map_err(|e| Failure(format!("metaschema {}: {e}", draft.uri())))?;
                entry.insert(validator)
            }
        };
        let errors = crate::errors::listed(metaschema.iter_errors(schema));
        found.extend(errors.into_iter().map(|e| Problem {
            pointer: e.instance_location().to_string(),
            message: e.message().to_string(),
        }));
    }
    let mut options = if args.mcp {
        mcp::profile()
    } else {
        ValidationOptions::default()
    };
    if let Some(draft) = args.draft.draft {
        options = options.with_draft(draft.into());
    }
    // A schema its official metaschema accepts needs no second check; a custom dialect's
    // metaschema, or a schema with errors listed above, is checked by the compiler too
    // (whose first error then names a place already listed).
    let options = options.with_metaschema_check(draft.is_none() || !found.is_empty());
    if let Err(e) = options.build(schema) {
        if !found.iter().any(|p| p.pointer == e.location()) {
            found.push(Problem {
                pointer: e.location().to_string(),
                message: e.message().to_string(),
            });
        }
    }
    Ok(found)
}
