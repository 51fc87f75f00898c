//! `check SCHEMA ...`: every problem of each schema, with its pointer.
//!
//! A schema of an official dialect is validated against that dialect's metaschema with
//! every error listed (the library itself stops at the first), then compiled, which finds
//! what a metaschema cannot say: unresolvable references, patterns that are not
//! ECMA-262, and with `--mcp` the MCP profile's bounds and same-document rule.

use crate::input::Source;
use crate::locate::line_of;
use crate::paint::Paint;
use crate::{DraftArg, Failure, Outcome};
use mcp_jsonschema::{mcp, Draft, ValidationOptions, Validator};
use serde_json::{json, Value};
use std::collections::HashMap;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Schema files (`-` for standard input).
    #[arg(required = true)]
    schemas: Vec<String>,
    /// The dialect of a schema without `$schema` (2020-12 by default).
    #[arg(long, value_enum)]
    draft: Option<DraftArg>,
    /// Also apply the MCP profile: schema depth 64, 10,000 subschemas, same-document
    /// references only, no draft 4.
    #[arg(long)]
    mcp: bool,
    /// Print nothing; the exit code tells.
    #[arg(long, short)]
    quiet: bool,
}

/// A problem found in a schema: where, and what.
struct Problem {
    pointer: String,
    message: String,
}

pub(crate) fn run(args: &Args) -> Result<Outcome, Failure> {
    if args.schemas.iter().filter(|path| *path == "-").count() > 1 {
        return Err(Failure("standard input (`-`) can be read only once".into()));
    }
    let paint = Paint::for_stdout();
    let mut metaschemas = HashMap::new();
    let mut outcome = Outcome::Valid;
    for path in &args.schemas {
        let source = Source::read(path)?;
        let schema = source.json()?;
        let problems = problems(args, &schema, &mut metaschemas)?;
        if !problems.is_empty() {
            outcome = Outcome::Invalid;
        }
        if args.quiet {
            continue;
        }
        if problems.is_empty() {
            say!("{}: {}", source.name, paint.good("ok"));
        }
        for Problem { pointer, message } in problems {
            let line = line_of(&source.text, &pointer).unwrap_or(1);
            let shown = if pointer.is_empty() {
                "(root)"
            } else {
                &pointer
            };
            say!("{}:{line} {}: {message}", source.name, paint.bad(shown));
        }
    }
    Ok(outcome)
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
        None if declared.is_none() => Some(args.draft.map_or(Draft::default(), Draft::from)),
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
        let listed = metaschema.iter_listed_errors(schema).collect::<Vec<_>>();
        let lines = listed
            .iter()
            .flat_map(mcp_jsonschema::ValidationError::lines);
        found.extend(lines.map(|(_, e)| Problem {
            pointer: e.instance_location().to_string(),
            message: e.message().to_string(),
        }));
    }
    let mut options = if args.mcp {
        mcp::profile()
    } else {
        ValidationOptions::default()
    };
    if let Some(draft) = args.draft {
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
