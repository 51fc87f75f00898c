//! `tools FILE|-`, `tools --stdio -- CMD ARGS...`, `tools --http URL`: a report per tool
//! of a `tools/list` result, or of a live server's tools ([`crate::client`]): whether its
//! schemas compile under the MCP profile, what the wire form changes, and the
//! client-compatibility lint ([`crate::lint`]).

use crate::client::{self, HttpServer, StdioServer, Transport};
use crate::input::Source;
use crate::lint::{self, Finding, Rule, Severity};
use crate::paint::Paint;
use crate::{Failure, Outcome};
use clap::ValueEnum;
use mcp_jsonschema::mcp::{profile, Role, ToolSchema};
use serde_json::{json, Value};
use std::time::Duration;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mcp-jsonschema tools examples/tools-list.json\n  \
    mcp-jsonschema tools --stdio -- npx -y @modelcontextprotocol/server-everything\n  \
    mcp-jsonschema tools --http http://127.0.0.1:8000/mcp")]
pub(crate) struct Args {
    /// A `tools/list` result (`{"tools": [...]}`), a whole JSON-RPC response carrying one,
    /// an array of tools, or several of these one after another (`-` for standard input).
    #[arg(required_unless_present_any = ["stdio", "http"], conflicts_with_all = ["stdio", "http"])]
    file: Option<String>,
    /// Start the server whose command and arguments follow `--`, and list its tools over
    /// stdio (its standard error is copied to ours, each line marked `[server]`).
    #[arg(long, requires = "command", conflicts_with = "http")]
    stdio: bool,
    /// List the tools of the server at this Streamable HTTP endpoint (`http://` only).
    #[arg(long, value_name = "URL")]
    http: Option<String>,
    /// Seconds to wait for each answer of a live server.
    #[arg(long, value_name = "SECS", default_value_t = 30.0)]
    timeout: f64,
    /// The server's command and arguments, for `--stdio`.
    #[arg(last = true, value_name = "CMD ARGS")]
    command: Vec<String>,
    /// How to print the report.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// For people: a block per tool.
    Text,
    /// For programs: one JSON document.
    Json,
}

/// What was found about one schema of a tool.
struct SchemaReport {
    /// `inputSchema` or `outputSchema`.
    field: &'static str,
    /// The compile error's pointer and message, if any.
    error: Option<(String, String)>,
    /// Members the wire form adds to the schema's root.
    added: Vec<(String, Value)>,
}

/// Everything found about one tool.
struct ToolReport {
    name: String,
    schemas: Vec<SchemaReport>,
    findings: Vec<Finding>,
}

impl ToolReport {
    fn errors(&self) -> usize {
        let schemas = self.schemas.iter().filter(|s| s.error.is_some()).count();
        schemas + self.count(Severity::Error)
    }

    fn count(&self, severity: Severity) -> usize {
        let findings = self.findings.iter();
        findings.filter(|f| f.rule.severity == severity).count()
    }
}

pub(crate) fn run(args: &Args) -> Result<Outcome, Failure> {
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .map_err(|_| Failure(format!("--timeout {}: not a duration", args.timeout)))?;
    let tools = match (&args.file, &args.http) {
        (Some(file), _) => tools_in(&Source::read(file)?)?,
        (None, Some(url)) => live(&mut HttpServer::new(url, timeout)?)?,
        (None, None) => live(&mut StdioServer::start(&args.command, timeout)?)?,
    };
    let (mut reports, wire): (Vec<ToolReport>, Vec<Value>) =
        tools.iter().enumerate().map(report).unzip();
    // The lint reads what clients receive: each schema in its wire form where it compiles.
    for (i, report) in reports.iter_mut().enumerate() {
        report.findings = lint::check_tool(&wire, i);
    }
    let list = lint::check_list(&tools);
    let count = |severity| list.iter().filter(|f| f.rule.severity == severity).count();
    let errors = reports.iter().map(ToolReport::errors).sum::<usize>() + count(Severity::Error);
    let warnings = reports
        .iter()
        .map(|r| r.count(Severity::Warning))
        .sum::<usize>()
        + count(Severity::Warning);
    match args.format {
        Format::Json => say!("{:#}", as_json(&reports, &list, errors, warnings)),
        Format::Text => print_text(&reports, &list, Paint::for_stdout()),
    }
    tell!(
        "{}: {}, {}",
        counted(reports.len(), "tool"),
        counted(errors, "error"),
        counted(warnings, "warning")
    );
    Ok(if errors == 0 {
        Outcome::Valid
    } else {
        Outcome::Invalid
    })
}

/// The tools a live server lists, its name and protocol told on standard error.
fn live(server: &mut dyn Transport) -> Result<Vec<Value>, Failure> {
    let listing = client::list_tools(server)?;
    let who = listing
        .server
        .map_or_else(String::new, |s| format!("{s}, "));
    tell!(
        "{}: {who}protocol {}, {} listed",
        server.name(),
        listing.protocol,
        counted(listing.tools.len(), "tool")
    );
    Ok(listing.tools)
}

/// `n` and `noun`, with an `s` unless `n` is 1: `1 tool`, `3 errors`.
fn counted(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// The tools of every document in the source.
fn tools_in(source: &Source) -> Result<Vec<Value>, Failure> {
    let mut tools = Vec::new();
    let documents = serde_json::Deserializer::from_str(&source.text).into_iter::<Value>();
    for (i, document) in documents.enumerate() {
        let document = document.map_err(|e| {
            Failure(format!(
                "{}:{}:{}: invalid JSON: {e}",
                source.name,
                e.line(),
                e.column()
            ))
        })?;
        let list = (document.pointer("/result/tools"))
            .or_else(|| document.get("tools"))
            .unwrap_or(&document);
        let Value::Array(list) = list else {
            return Err(Failure(format!(
                "{}: document {} is not a tools/list result (expected {{\"tools\": [...]}}, \
                 a JSON-RPC response with one, or an array of tools)",
                source.name,
                i + 1
            )));
        };
        tools.extend(list.iter().cloned());
    }
    if tools.is_empty() && source.text.trim().is_empty() {
        return Err(Failure(format!(
            "{}: no JSON value (the input is empty)",
            source.name
        )));
    }
    Ok(tools)
}

/// The report on tool number `index` (without its lint findings), and the tool as
/// clients receive it: each schema that compiles in its wire form.
fn report((index, tool): (usize, &Value)) -> (ToolReport, Value) {
    let mut wire_tool = tool.clone();
    let name = match tool.get("name").and_then(Value::as_str) {
        Some(name) => name.to_string(),
        None => format!("<tool #{}>", index + 1),
    };
    let options = profile();
    let mut schemas = Vec::new();
    for (field, role) in [("inputSchema", Role::Input), ("outputSchema", Role::Output)] {
        let Some(schema) = tool.get(field) else {
            if role == Role::Input {
                schemas.push(SchemaReport {
                    field,
                    error: Some((String::new(), "the tool has no inputSchema".into())),
                    added: Vec::new(),
                });
            }
            continue;
        };
        let compiled = ToolSchema::new(role, schema, &options);
        let (error, added) = match &compiled {
            Ok(compiled) => {
                wire_tool[field] = compiled.to_wire().clone();
                (None, added_members(schema, compiled.to_wire()))
            }
            Err(e) => (
                Some((e.location().to_string(), e.message().to_string())),
                Vec::new(),
            ),
        };
        schemas.push(SchemaReport {
            field,
            error,
            added,
        });
    }
    let report = ToolReport {
        name,
        schemas,
        findings: Vec::new(),
    };
    (report, wire_tool)
}

/// The root members `wire` has that `schema` lacks.
fn added_members(schema: &Value, wire: &Value) -> Vec<(String, Value)> {
    let (Some(schema), Some(wire)) = (schema.as_object(), wire.as_object()) else {
        return Vec::new();
    };
    (wire.iter())
        .filter(|(key, _)| !schema.contains_key(*key))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

fn print_text(reports: &[ToolReport], list: &[Finding], paint: Paint) {
    for report in reports {
        let verdict = match report.errors() {
            0 => paint.good("ok"),
            n => paint.bad(&format!("{n} error{}", if n == 1 { "" } else { "s" })),
        };
        say!("{}: {verdict}", report.name);
        for schema in &report.schemas {
            match &schema.error {
                Some((pointer, message)) => say!(
                    "  {} {}{pointer}: {message}",
                    paint.bad("error"),
                    schema.field
                ),
                None => {
                    let added = schema.added.iter();
                    let added: Vec<String> = added.map(|(k, v)| format!("\"{k}\": {v}")).collect();
                    match added.is_empty() {
                        true => say!("  {}: compiles under the MCP profile", schema.field),
                        false => say!(
                            "  {}: compiles under the MCP profile; on the wire it gets {}",
                            schema.field,
                            added.join(", ")
                        ),
                    }
                }
            }
        }
        print_findings(&report.findings, paint);
    }
    if !list.is_empty() {
        say!("the list as a whole:");
        print_findings(list, paint);
    }
    // Each rule that found something, once, with the documentation it comes from.
    let mut cited: Vec<&Rule> = Vec::new();
    let findings = reports.iter().flat_map(|r| &r.findings).chain(list);
    for finding in findings {
        if !cited.iter().any(|rule| rule.id == finding.rule.id) {
            cited.push(finding.rule);
        }
    }
    if !cited.is_empty() {
        say!("rules cited:");
    }
    for rule in cited {
        say!(
            "  {} ({}, {}): {}",
            rule.id,
            rule.provider,
            rule.severity.name(),
            rule.docs
        );
        say!("    \"{}\"", rule.says);
    }
}

fn print_findings(findings: &[Finding], paint: Paint) {
    for finding in findings {
        let rule = finding.rule;
        let severity = match rule.severity {
            Severity::Error => paint.bad("error"),
            Severity::Warning => "warning".to_string(),
        };
        say!(
            "  {severity} [{}] {}: {} ({})",
            rule.id,
            finding.location,
            finding.message,
            rule.provider
        );
        say!("    fix: {}", rule.fix);
    }
}

fn as_json(reports: &[ToolReport], list: &[Finding], errors: usize, warnings: usize) -> Value {
    let tools: Vec<Value> = reports
        .iter()
        .map(|report| {
            let mut tool = json!({
                "name": report.name,
                "errors": report.errors(),
                "warnings": report.count(Severity::Warning),
            });
            for schema in &report.schemas {
                tool[schema.field] = match &schema.error {
                    Some((pointer, message)) => {
                        json!({"compiles": false, "error": {"pointer": pointer, "message": message}})
                    }
                    None => {
                        let added: serde_json::Map<String, Value> =
                            schema.added.iter().cloned().collect();
                        json!({"compiles": true, "wireAdds": added})
                    }
                };
            }
            tool["findings"] = findings_json(&report.findings);
            tool
        })
        .collect();
    json!({
        "tools": tools,
        "listFindings": findings_json(list),
        "errors": errors,
        "warnings": warnings,
    })
}

fn findings_json(findings: &[Finding]) -> Value {
    let findings = findings.iter().map(|f| {
        json!({
            "rule": f.rule.id,
            "provider": f.rule.provider,
            "severity": f.rule.severity.name(),
            "location": f.location,
            "message": f.message,
            "fix": f.rule.fix,
            "docs": f.rule.docs,
            "says": f.rule.says,
        })
    });
    findings.collect()
}
