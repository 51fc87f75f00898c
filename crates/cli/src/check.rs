//! `check SCHEMA ...`: every problem of each schema, with its pointer.
//!
//! A schema of an official dialect is validated against that dialect's metaschema with
//! every error listed (the library itself stops at the first), then compiled, which finds
//! what a metaschema cannot say: unresolvable references, patterns that are not
//! ECMA-262, and with `--mcp` the MCP profile's bounds and same-document rule.

use crate::input::{stdin_once, Source};
use crate::paint::Paint;
use crate::report::{self, Cited, Finding, Format, ReportArgs};
use crate::resources::Resources;
use crate::{DraftOption, Failure, Outcome};
use mcp_jsonschema::{mcp, meta, Draft, ValidationOptions};
use serde_json::{Map, Value};

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
    #[command(flatten)]
    resources: Resources,
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
    let mut findings = Vec::new();
    for path in &args.schemas {
        let source = Source::read(path)?;
        let schema = source.json()?;
        let problems = problems(args, path, &schema)?;
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

/// Every problem of `schema` (read from `path`): its metaschema's errors, then the
/// compiler's, if it names another place.
fn problems(args: &Args, path: &str, schema: &Value) -> Result<Vec<Problem>, Failure> {
    let mut found = Vec::new();
    // A `$schema` that names no draft (a custom metaschema, or not a string): the
    // compiler explains.
    let draft = Draft::detect(schema)
        .ok()
        .map(|d| d.unwrap_or(args.draft.or_default()));
    if let Some(draft) = draft {
        let listed = meta::metaschema(draft)
            .iter_listed_errors(schema)
            .collect::<Vec<_>>();
        let lines = listed
            .iter()
            .flat_map(mcp_jsonschema::ValidationError::lines);
        found.extend(lines.map(|(_, e)| Problem {
            pointer: e.instance_location().to_string(),
            message: e.message().to_string(),
        }));
    }
    let options = match args.mcp {
        true => mcp::profile(),
        false => ValidationOptions::default(),
    };
    let options = args.resources.apply(args.draft.apply(options), path)?;
    // A schema its official metaschema accepts needs no second check; a custom dialect's
    // metaschema, or a schema with errors listed above, is checked by the compiler too
    // (whose first error then names a place already listed).
    let options = options.with_metaschema_check(draft.is_none() || !found.is_empty());
    if let Err(e) = options.build(schema) {
        if !found.iter().any(|p| p.pointer == e.location()) {
            found.push(Problem {
                pointer: e.location().to_string(),
                message: format!("{}{}", e.message(), crate::resources::hint(&e)),
            });
        }
    }
    Ok(found)
}
