//! `validate SCHEMA [INSTANCE ...]`: every instance against one schema.

use crate::input::{stdin_once, JsonLines, Next, Source};
use crate::locate::line_of;
use crate::paint::Paint;
use crate::resources::Resources;
use crate::{DraftOption, Failure, Outcome, QuietArg};
use clap::ValueEnum;
use mcp_jsonschema::mcp::{self, Role, ToolSchema};
use mcp_jsonschema::{ValidationOptions, Validator};
use serde_json::Value;
use std::io::{BufWriter, StdoutLock, Write};
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The schema file (`-` for standard input).
    schema: String,
    /// Instance files (`-` for standard input). Without any, only the schema is checked.
    instances: Vec<String>,
    /// Read each instance file as JSON Lines: one instance per non-blank line.
    ///
    /// Each line is validated as it is read. A line that is not JSON is reported on stderr
    /// and the next ones are still validated; the exit code is then 2.
    #[arg(long)]
    jsonl: bool,
    #[command(flatten)]
    draft: DraftOption,
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
    /// Mask instance data in error messages: each quoted value becomes its type, and
    /// only types, lengths, JSON Pointers and the schema's own values remain (for logs
    /// of tool calls and results that may carry secrets or personal data).
    #[arg(long)]
    mask: bool,
    /// How to print each instance's verdict.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Output::Text)]
    output: Output,
    #[command(flatten)]
    quiet: QuietArg,
    #[command(flatten)]
    resources: Resources,
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

/// One instance, validated in place: where it came from, for messages, its text and its
/// verdict.
struct Instance<'s> {
    /// The file's name in messages.
    file: &'s str,
    place: Place<'s>,
    /// The instance's JSON text (known to be JSON).
    text: &'s str,
    /// Whether it conforms, read from its text without building a `Value`.
    valid: bool,
}

/// Where an instance is in its file, to give its errors a line.
enum Place<'s> {
    /// A whole document: its text, to find each error's line in.
    Document(&'s str),
    /// A JSON Lines instance: its line, which holds all of it.
    Line(usize),
}

impl Instance<'_> {
    /// The instance as a `serde_json::Value`, for what explains a verdict (its text is
    /// JSON: it was read once already).
    fn value(&self) -> Value {
        serde_json::from_str(self.text).unwrap_or(Value::Null)
    }

    /// `file`, or `file:line` for a JSON Lines instance.
    fn label(&self) -> String {
        match self.place {
            Place::Line(line) => format!("{}:{line}", self.file),
            Place::Document(_) => self.file.to_string(),
        }
    }
}

pub(crate) fn run(args: &Args) -> Result<Outcome, Failure> {
    let started = Instant::now();
    stdin_once(std::iter::once(&args.schema).chain(&args.instances))?;
    let schema_source = Source::read(&args.schema)?;
    let schema = schema_source.json()?;
    let compiled = compile(args, &schema)?.map_err(|e| {
        let line = line_of(&schema_source.text, e.location()).unwrap_or(1);
        Failure(format!(
            "{}:{line}: invalid schema: {e}{}",
            schema_source.name,
            crate::resources::hint(&e)
        ))
    })?;
    let mut verdicts = Verdicts {
        args,
        compiled: &compiled,
        paint: Paint::for_stdout(),
        out: BufWriter::new(std::io::stdout().lock()),
        valid: 0,
        invalid: 0,
        malformed: 0,
    };
    if args.jsonl {
        stream_lines(args, &mut verdicts)?;
    } else {
        let sources = (args.instances.iter())
            .map(|path| Source::read(path))
            .collect::<Result<Vec<_>, _>>()?;
        // Each text is read in place (no `serde_json::Value` unless it fails or the
        // output lists annotations); one that is not JSON stops the run before any
        // output, with `serde_json`'s account of where.
        let instances = (sources.iter())
            .map(
                |source| match compiled.is_valid_json(source.text.as_bytes()) {
                    Ok(valid) => Ok(Instance {
                        file: &source.name,
                        place: Place::Document(&source.text),
                        text: &source.text,
                        valid,
                    }),
                    Err(_) => Err(source
                        .json()
                        .err()
                        .unwrap_or_else(|| Failure(format!("{}: invalid JSON", source.name)))),
                },
            )
            .collect::<Result<Vec<_>, Failure>>()?;
        for instance in &instances {
            if !verdicts.add(instance) {
                break;
            }
        }
    }
    Ok(verdicts.finish(started))
}

/// Validates each JSON Lines file as it is read, one line at a time. Every file is opened
/// first, so that a missing one stops the run before any output.
fn stream_lines(args: &Args, verdicts: &mut Verdicts<'_>) -> Result<(), Failure> {
    let inputs = (args.instances.iter())
        .map(|path| JsonLines::open(path))
        .collect::<Result<Vec<_>, _>>()?;
    for mut input in inputs {
        loop {
            if input.may_wait() {
                verdicts.flush();
            }
            let instance = match input.next()? {
                Next::Line(line) => {
                    let text = input.text();
                    match verdicts.compiled.is_valid_json(text.as_bytes()) {
                        Ok(valid) => Instance {
                            file: input.name(),
                            place: Place::Line(line),
                            text,
                            valid,
                        },
                        Err(_) => {
                            let failure = input.value().err().unwrap_or_else(|| {
                                Failure(format!("{}:{line}: invalid JSON", input.name()))
                            });
                            verdicts.malformed(&failure);
                            continue;
                        }
                    }
                }
                Next::Malformed(failure) => {
                    verdicts.malformed(&failure);
                    continue;
                }
                Next::End => break,
            };
            if !verdicts.add(&instance) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Where verdicts go, and how many of each there were.
struct Verdicts<'a> {
    args: &'a Args,
    compiled: &'a Validator,
    paint: Paint,
    out: BufWriter<StdoutLock<'static>>,
    valid: usize,
    invalid: usize,
    /// JSON Lines lines that are not JSON, reported on stderr as they come.
    malformed: usize,
}

impl Verdicts<'_> {
    /// Validates `instance` and writes its verdict; false once standard output is closed.
    fn add(&mut self, instance: &Instance<'_>) -> bool {
        let (args, compiled, paint, out) = (self.args, self.compiled, self.paint, &mut self.out);
        let ok = instance.valid;
        if ok {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        if args.quiet.quiet && ok {
            return true;
        }
        let written = match args.output {
            Output::Flag => writeln!(out, "{}", serde_json::json!({ "valid": ok })),
            Output::Basic => writeln!(out, "{}", compiled.evaluate(&instance.value()).basic()),
            Output::Detailed => {
                writeln!(out, "{}", compiled.evaluate(&instance.value()).detailed())
            }
            Output::Verbose => writeln!(out, "{}", compiled.evaluate(&instance.value()).verbose()),
            Output::Text if ok => writeln!(out, "{}: {}", instance.label(), paint.good("valid")),
            Output::Text => write_errors(out, paint, instance, compiled),
        };
        // A closed pipe (`| head`) ends the output, not the verdict.
        written.is_ok()
    }

    /// Reports a line that is not JSON on stderr, after the verdicts before it (even with
    /// `--quiet`, as any malformed input is).
    fn malformed(&mut self, failure: &Failure) {
        self.malformed += 1;
        self.flush();
        tell!("mcp-jsonschema: {failure}");
    }

    /// Writes out the verdicts so far (a closed pipe is not an error here).
    fn flush(&mut self) {
        let _ = self.out.flush();
    }

    /// Ends the output and writes the summary line on stderr.
    fn finish(mut self, started: Instant) -> Outcome {
        self.flush();
        let (valid, invalid, malformed) = (self.valid, self.invalid, self.malformed);
        if !self.args.quiet.quiet {
            let malformed_part = match malformed {
                0 => String::new(),
                n => format!(", {n} malformed"),
            };
            tell!(
                "{valid} valid, {invalid} invalid{malformed_part} ({:.1} ms)",
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        if malformed > 0 {
            Outcome::Malformed
        } else if invalid > 0 {
            Outcome::Invalid
        } else {
            Outcome::Valid
        }
    }
}

/// Compiles the schema as the options ask: under the MCP rules, the wire form (root type
/// and `$schema` applied) is what gets compiled.
/// The validator of `schema`; the outer error is the `--resource` files'.
fn compile(
    args: &Args,
    schema: &Value,
) -> Result<Result<Validator, mcp_jsonschema::SchemaError>, Failure> {
    let role = match (args.mcp_input, args.mcp_output) {
        (true, _) => Some(Role::Input),
        (_, true) => Some(Role::Output),
        _ => None,
    };
    let mut options = match role {
        Some(_) => mcp::profile(),
        None => ValidationOptions::default(),
    };
    options = args.draft.apply(options);
    if args.assert_formats {
        options = options.with_format_assertion(true);
    }
    options = options
        .with_annotations(args.output.annotates())
        .with_masked_errors(args.mask);
    let options = args.resources.apply(options, &args.schema)?;
    Ok(match role {
        Some(role) => ToolSchema::new(role, schema, &options).map(|t| t.validator().clone()),
        None => options.build(schema),
    })
}

/// One line per error of a rejected instance: `file:line /pointer: message`.
fn write_errors(
    out: &mut impl Write,
    paint: Paint,
    instance: &Instance<'_>,
    compiled: &Validator,
) -> std::io::Result<()> {
    let value = instance.value();
    let listed = compiled.iter_listed_errors(&value).collect::<Vec<_>>();
    let line_of_value = |pointer: &str| match instance.place {
        Place::Document(text) => line_of(text, pointer).unwrap_or(1),
        Place::Line(line) => line,
    };
    if listed.is_empty() {
        // The text fails where its `serde_json` reading, whose numbers are the nearest
        // doubles, passes: never "valid" when one reading says no.
        return writeln!(
            out,
            "{}:{} {}: not valid with its numbers read exactly as written",
            instance.file,
            line_of_value(""),
            paint.bad("(root)")
        );
    }
    for (_, error) in listed
        .iter()
        .flat_map(mcp_jsonschema::ValidationError::lines)
    {
        let pointer = error.instance_location();
        let line = line_of_value(pointer);
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
