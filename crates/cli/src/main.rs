//! `mcp-jsonschema`: the library on the command line.
//!
//! - `validate SCHEMA [INSTANCE ...]`: instances from files, `-` (standard input) or JSON
//!   Lines; one line per error, `file:line /pointer: message`.
//! - `check SCHEMA ...`: every problem of each schema, with its pointer.
//! - `tools FILE ...`: a report per tool of each `tools/list` result, with a
//!   client-compatibility lint; `tools --stdio -- CMD ARGS...` and `tools --http URL` ask
//!   a live server.
//! - `bundle SCHEMA --resource PATH [--mcp]`: one document from a schema that spans
//!   files; with `--mcp`, every reference a same-document pointer.
//! - `proxy -- CMD ARGS...` and `proxy --listen ADDR --upstream URL`: an MCP proxy that
//!   validates tool calls both ways between a client and any server, over stdio or
//!   Streamable HTTP.
//! - `bowtie`: a harness speaking Bowtie's protocol v1 on standard input and output.
//!
//! `check` and `tools` share `--output text|json|sarif` ([`report`]); every subcommand
//! that reports shares `--quiet`, and those that read schemas of any dialect `--draft`.
//!
//! Exit codes: 0 when everything is valid, 1 when an instance or schema is not, 2 for a
//! usage error, an unreadable or malformed file, or (for `validate`) a schema that does
//! not compile. Colour only on a terminal, never with `NO_COLOR` set.

/// `println!` that never panics: once standard output is closed (`| head`), the rest of
/// the output is dropped and the run still ends with its exit code.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `eprintln!` that never panics, for the same reason.
macro_rules! tell {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod bowtie;
mod bundle;
mod check;
mod client;
mod input;
mod lint;
mod locate;
mod paint;
mod proxy;
mod report;
mod resources;
mod sse;
mod tools;
mod upstream;
mod validate;
mod walk;
mod wire;

use clap::{Parser, Subcommand, ValueEnum};
use mcp_jsonschema::Draft;
use std::process::ExitCode;

/// Validate JSON instances and check JSON Schemas (2020-12, 2019-09, draft 7, 6 and 4),
/// with the Model Context Protocol's tool-schema rules on demand.
#[derive(Debug, Parser)]
#[command(name = "mcp-jsonschema", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate instances against a schema.
    ///
    /// Exit code 0 when every instance is valid, 1 when one is not, 2 for a usage error,
    /// an unreadable file, malformed JSON or a schema that does not compile.
    Validate(validate::Args),
    /// Check schemas: the metaschema of their dialect, references, patterns, and with
    /// `--mcp` the MCP profile's bounds and reference rules.
    ///
    /// Exit code 0 when every schema is usable, 1 when one is not, 2 for a usage error or
    /// an unreadable file.
    Check(check::Args),
    /// Report on every tool of a `tools/list` result: whether its schemas compile under
    /// the MCP profile, what the wire form adds, and what widely used clients and model
    /// providers are documented to reject or ignore.
    ///
    /// Exit code 0 when no tool has an error (warnings allowed), 1 when one has, 2 for a
    /// usage error, an unreadable file, or a live server that cannot be listed (it does
    /// not start, exits, times out, sends what is not JSON-RPC, refuses initialize).
    Tools(tools::Args),
    /// Make one document of a schema and the documents its references reach (given with
    /// --resource), printed on standard output; with --mcp, one whose references are
    /// all same-document pointers, as MCP requires of tool schemas.
    ///
    /// Exit code 0 when it is written, 2 for a usage error, an unreadable file, or a
    /// schema that cannot be bundled (a reference that resolves nowhere, or with --mcp
    /// one that cannot be rewritten faithfully).
    Bundle(bundle::Args),
    /// Guard an MCP server's tool calls: run it behind this proxy, which validates each
    /// call's arguments before the server sees them and each result's structuredContent
    /// before the client does, and passes every other message through unchanged.
    ///
    /// A client configuration that ran `CMD ARGS` runs `mcp-jsonschema proxy -- CMD ARGS`
    /// instead; one that used a Streamable HTTP endpoint uses the proxy's, given by
    /// `--listen ADDR --upstream URL`. The stdio proxy exits with the server's exit
    /// status; the HTTP proxy runs until it is killed. Exit code 2 when the server cannot
    /// be started or the address cannot be listened on.
    Proxy(proxy::Args),
    /// Speak Bowtie's harness protocol (version 1) on standard input and output.
    Bowtie,
}

/// How a run ended, as the process's exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Everything checked is valid.
    Valid,
    /// Something checked is not.
    Invalid,
    /// Some input was not JSON (JSON Lines lines, reported as they were read): exit code 2.
    Malformed,
}

/// A failure that ends the run with exit code 2: the message names the file (and the
/// line and column, or the pointer, when there is one).
#[derive(Debug)]
struct Failure(String);

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `--draft`, shared by the subcommands that read schemas of any dialect.
#[derive(Debug, clap::Args)]
struct DraftOption {
    /// The dialect of a schema without `$schema` (2020-12 by default).
    #[arg(long, value_enum)]
    draft: Option<DraftArg>,
}

impl DraftOption {
    /// The dialect of a schema without `$schema`: the one given, or 2020-12.
    fn or_default(&self) -> Draft {
        self.draft.map_or(Draft::default(), Draft::from)
    }

    /// `options`, with the dialect given (if one was).
    fn apply(
        &self,
        options: mcp_jsonschema::ValidationOptions,
    ) -> mcp_jsonschema::ValidationOptions {
        match self.draft {
            Some(draft) => options.with_draft(draft.into()),
            None => options,
        }
    }
}

/// `--quiet`, shared by every subcommand that reports.
#[derive(Debug, clap::Args)]
struct QuietArg {
    /// Print only problems: nothing for what is valid (no `ok` or `valid` lines), no
    /// summary; the exit code is the same. A JSON document or SARIF log is still whole.
    #[arg(long, short)]
    quiet: bool,
}

/// The dialect assumed for schemas without `$schema`, as given on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum DraftArg {
    #[value(name = "4")]
    Draft4,
    #[value(name = "6")]
    Draft6,
    #[value(name = "7")]
    Draft7,
    #[value(name = "2019-09")]
    Draft201909,
    #[value(name = "2020-12")]
    Draft202012,
}

impl From<DraftArg> for Draft {
    fn from(draft: DraftArg) -> Draft {
        match draft {
            DraftArg::Draft4 => Draft::Draft4,
            DraftArg::Draft6 => Draft::Draft6,
            DraftArg::Draft7 => Draft::Draft7,
            DraftArg::Draft201909 => Draft::Draft201909,
            DraftArg::Draft202012 => Draft::Draft202012,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate(args) => validate::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Tools(args) => tools::run(&args),
        Command::Bundle(args) => bundle::run(&args),
        Command::Proxy(args) => proxy::run(&args),
        Command::Bowtie => bowtie::run(),
    };
    match result {
        Ok(Outcome::Valid) => ExitCode::SUCCESS,
        Ok(Outcome::Invalid) => ExitCode::from(1),
        Ok(Outcome::Malformed) => ExitCode::from(2),
        Err(failure) => {
            tell!("mcp-jsonschema: {failure}");
            ExitCode::from(2)
        }
    }
}
