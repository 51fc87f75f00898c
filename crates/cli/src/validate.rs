//! `validate SCHEMA [INSTANCE ...]`: every instance against one schema.

use crate::input::Source;
use crate::locate::line_of;
use crate::paint::Paint;
use crate::{DraftArg, Failure, Outcome};
use clap::ValueEnum;
use mcp_jsonschema::mcp::{self, Role, ToolSchema};
use mcp_jsonschema::{ValidationOptions, Validator};
use serde_json::Value;
use std::io::Write;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The schema file (`-` for standard input).
    schema: String,
    /// Instance files (`-` for standard input). Without any, only the schema is checked.
    instances: Vec<String>,
    /// Read each instance file as JSON Lines: one instance per non-blank line.
    #[arg(long)]
    jsonl: bool,
    /// The dialect of a schema without `$schema` (2020-12 by default).
    #[arg(long, value_enum)]
    draft: Option<DraftArg>,
    /// Treat `format` as an assertion (by default only drafts 4, 6 and 7 assert it).
    #[arg(long)]
    assert_formats: bool,
    /// The schema is an MCP tool's `inputSchema`: the MCP profile (bounds, same-document
    /// references) and its root rules (an object schema with `type: "object"`).
    #[arg(long, conflicts_with = "mcp_output")]
    mcp_input: bool,
    /// The schema is an MCP tool's `outputSchema`: the MCP profile and its root rules.
    #[arg(long)]
    mcp_output: bool,
    /// How to print each instance's verdict.
    #[arg(long, value_enum, default_value_t = Output::Text)]
    output: Output,
    /// Print nothing; the exit code tells.
    #[arg(long, short)]
    quiet: bool,
}

/// The output formats on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Output {
    /// One line per error: `file:line /pointer: message`; `file: valid` for a valid
    /// instance.
    Text,
    /// One JSON Schema "flag" output unit per instance, in order: `{"valid": true}`.
    Flag,
    /// One JSON Schema 2020-12 "basic" output per instance and line: the flat list of
    /// errors, or of annotations for a valid instance.
    Basic,
    /// One "detailed" output per instance and line: the units nested by schema object,
    /// single children condensed.
    Detailed,
    /// One "verbose" output per instance and line: the units nested by schema object.
    Verbose,
}

impl Output {
    /// Whether the format lists annotations (which takes the annotating program).
    fn annotates(self) -> bool {
        matches!(self, Output::Basic | Output::Detailed | Output::Verbose)
    }
}

/// One instance to validate: where it came from, for messages.
struct Instance<'s> {
    /// The file's name in messages.
    file: &'s str,
    /// The line of a JSON Lines instance.
    line: Option<usize>,
    /// The text to find error lines in (the line itself for JSON Lines).
    text: &'s str,
    value: Value,
}

impl Instance<'_> {
    /// `file`, or `file:line` for a JSON Lines instance.
    fn label(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}", self.file),
            None => self.file.to_string(),
        }
    }
}

pub(crate) fn run(args: &Args) -> Result<Outcome, Failure> {
    let started = Instant::now();
    let stdin_uses = std::iter::once(&args.schema).chain(&args.instances);
    if stdin_uses.filter(|path| *path == "-").count() > 1 {
        return Err(Failure("standard input (`-`) can be read only once".into()));
    }
    let schema_source = Source::read(&args.schema)?;
    let schema = schema_source.json()?;
    let compiled = compile(args, &schema).map_err(|e| {
        let line = line_of(&schema_source.text, e.location()).unwrap_or(1);
        Failure(format!(
            "{}:{line}: invalid schema: {e}",
            schema_source.name
        ))
    })?;
    let sources = (args.instances.iter())
        .map(|path| Source::read(path))
        .collect::<Result<Vec<_>, _>>()?;
    let mut instances = Vec::new();
    for source in &sources {
        if args.jsonl {
            for (line, value) in source.json_lines()? {
                let text = source.text.lines().nth(line - 1).unwrap_or_default();
                instances.push(Instance {
                    file: &source.name,
                    line: Some(line),
                    text,
                    value,
                });
            }
        } else {
            instances.push(Instance {
                file: &source.name,
                line: None,
                text: &source.text,
                value: source.json()?,
            });
        }
    }
    let paint = Paint::for_stdout();
    let mut out = std::io::stdout().lock();
    let (mut valid, mut invalid) = (0usize, 0usize);
    for instance in &instances {
        let ok = compiled.is_valid(&instance.value);
        if ok {
            valid += 1;
        } else {
            invalid += 1;
        }
        if args.quiet {
            continue;
        }
        let written = match args.output {
            Output::Flag => writeln!(out, "{}", serde_json::json!({ "valid": ok })),
            Output::Basic => writeln!(out, "{}", compiled.evaluate(&instance.value).basic()),
            Output::Detailed => writeln!(out, "{}", compiled.evaluate(&instance.value).detailed()),
            Output::Verbose => writeln!(out, "{}", compiled.evaluate(&instance.value).verbose()),
            Output::Text if ok => writeln!(out, "{}: {}", instance.label(), paint.good("valid")),
            Output::Text => write_errors(&mut out, paint, instance, &compiled),
        };
        // A closed pipe (`| head`) ends the output, not the verdict.
        if written.is_err() {
            break;
        }
    }
    drop(out);
    if !args.quiet {
        tell!(
            "{valid} valid, {invalid} invalid ({:.1} ms)",
            started.elapsed().as_secs_f64() * 1e3
        );
    }
    Ok(if invalid == 0 {
        Outcome::Valid
    } else {
        Outcome::Invalid
    })
}

/// Compiles the schema as the options ask: under the MCP rules, the wire form (root type
/// and `$schema` applied) is what gets compiled.
fn compile(args: &Args, schema: &Value) -> Result<Validator, mcp_jsonschema::SchemaError> {
    let role = match (args.mcp_input, args.mcp_output) {
        (true, _) => Some(Role::Input),
        (_, true) => Some(Role::Output),
        _ => None,
    };
    let mut options = match role {
        Some(_) => mcp::profile(),
        None => ValidationOptions::default(),
    };
    if let Some(draft) = args.draft {
        options = options.with_draft(draft.into());
    }
    if args.assert_formats {
        options = options.with_format_assertion(true);
    }
    options = options.with_annotations(args.output.annotates());
    Ok(match role {
        Some(role) => ToolSchema::new(role, schema, &options)?.validator().clone(),
        None => options.build(schema)?,
    })
}

/// One line per error of a rejected instance: `file:line /pointer: message`.
fn write_errors(
    out: &mut impl Write,
    paint: Paint,
    instance: &Instance<'_>,
    compiled: &Validator,
) -> std::io::Result<()> {
    let first_line = instance.line.unwrap_or(1);
    for error in crate::errors::listed(compiled.iter_errors(&instance.value)) {
        let pointer = error.instance_location();
        let line = line_of(instance.text, pointer).unwrap_or(1) + first_line - 1;
        let shown = if pointer.is_empty() {
            "(root)"
        } else {
            pointer
        };
        writeln!(
            out,
            "{}:{line} {}: {}",
            instance.file,
            paint.bad(shown),
            error.message()
        )?;
    }
    Ok(())
}
