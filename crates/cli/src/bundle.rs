//! `bundle SCHEMA [--resource PATH ...] [--mcp]`: the schema and the documents its
//! references reach as one document, on standard output; with `--mcp`, every reference
//! a same-document pointer, as the MCP profile requires of a tool's schemas.

use crate::input::Source;
use crate::locate::line_of;
use crate::resources::Resources;
use crate::{DraftOption, Failure, Outcome};
use mcp_jsonschema::{mcp, ValidationOptions};

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mcp-jsonschema bundle order.json --resource defs/ > order.bundled.json\n  \
    mcp-jsonschema bundle tool-input.json --resource defs/ --mcp")]
pub(crate) struct Args {
    /// The schema file (`-` for standard input, whose references resolve only to the
    /// --resource files by their `$id`).
    schema: String,
    #[command(flatten)]
    draft: DraftOption,
    /// Rewrite every reference to a same-document JSON Pointer (`#/$defs/...`) and check
    /// that the result compiles under the MCP profile; what cannot be rewritten
    /// faithfully (a `$dynamicRef` across resources, another dialect) is an error.
    #[arg(long)]
    mcp: bool,
    #[command(flatten)]
    resources: Resources,
}

pub(crate) fn run(args: &Args) -> Result<Outcome, Failure> {
    let source = Source::read(&args.schema)?;
    let schema = source.json()?;
    let options = args.draft.apply(ValidationOptions::default());
    let options = args.resources.apply(options, &args.schema)?;
    let bundled = match args.mcp {
        true => mcp::bundle(&schema, &options),
        false => mcp_jsonschema::bundle(&schema, &options),
    }
    .map_err(|e| {
        // A location in another document names it; one in the schema gets its line.
        let line = line_of(&source.text, e.location()).unwrap_or(1);
        let hint = crate::resources::hint(&e);
        Failure(format!("{}:{line}: cannot bundle: {e}{hint}", source.name))
    })?;
    let text = serde_json::to_string_pretty(&bundled)
        .map_err(|e| Failure(format!("cannot write the bundle: {e}")))?;
    say!("{text}");
    Ok(Outcome::Valid)
}
