//! `tools FILE...`, `tools --stdio -- CMD ARGS...`, `tools --http URL`: a report per tool
//! of each `tools/list` result, or of a live server's tools ([`crate::client`]): whether
//! its schemas compile under the MCP profile, what the wire form changes, and the
//! client-compatibility lint ([`crate::lint`]) with the rules chosen by `--rule` and
//! `--skip`.

use crate::client::{self, HttpServer, StdioServer, Transport};
use crate::input::{stdin_once, Source};
use crate::lint::{self, Finding, Rule, Severity, RULES};
use crate::paint::Paint;
use crate::report::{self, Cited, Format, ReportArgs};
use crate::{Failure, Outcome};
use clap::builder::PossibleValuesParser;
use mcp_jsonschema::mcp::{profile, Role, ToolSchema};
use serde_json::{json, Map, Value};
use std::time::Duration;

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    mcp-jsonschema tools examples/tools-list.json\n  \
    mcp-jsonschema tools --output sarif --skip openai-strict-all-required tools/*.json\n  \
    mcp-jsonschema tools --stdio -- npx -y @modelcontextprotocol/server-everything\n  \
    mcp-jsonschema tools --http http://127.0.0.1:8000/mcp")]
pub(crate) struct Args {
    /// Files, each a `tools/list` result (`{"tools": [...]}`), a whole JSON-RPC response
    /// carrying one, an array of tools, or several of these one after another (`-` for
    /// standard input). Each file is a list of its own: a report per file.
    #[arg(required_unless_present_any = ["stdio", "http", "list_rules"], conflicts_with_all = ["stdio", "http"])]
    files: Vec<String>,
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
    /// Apply only this lint rule (repeatable; all by default). `--list-rules` lists the
    /// ids. Whether the schemas compile is always checked.
    #[arg(long = "rule", value_name = "ID", value_parser = rule_ids(), hide_possible_values = true)]
    rules: Vec<String>,
    /// Do not apply this lint rule (repeatable).
    #[arg(long, value_name = "ID", value_parser = rule_ids(), hide_possible_values = true)]
    skip: Vec<String>,
    /// List the lint rules (id, provider, severity, documentation) and exit.
    #[arg(long, exclusive = true)]
    list_rules: bool,
    #[command(flatten)]
    report: ReportArgs,
}

/// The lint rules' ids, for `--rule` and `--skip` (an unknown id is a usage error).
fn rule_ids() -> PossibleValuesParser {
    PossibleValuesParser::new(RULES.iter().map(|rule| rule.id))
}

/// The rules `--rule` and `--skip` leave.
fn selected(args: &Args) -> Vec<&'static Rule> {
    let named = |ids: &[String], rule: &Rule| ids.iter().any(|id| id == rule.id);
    (RULES.iter())
        .filter(|rule| args.rules.is_empty() || named(&args.rules, rule))
        .filter(|rule| !named(&args.skip, rule))
        .collect()
}

/// The tools of one input, each with where it is in the input's text.
struct Input {
    source: Source,
    tools: Vec<Placed>,
    /// Where the (first) list of tools is: its document's start and its pointer there.
    list: (usize, String),
}

/// A tool and where it is: the byte where its document starts, its pointer there.
struct Placed {
    tool: Value,
    start: usize,
    pointer: String,
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
    if args.list_rules {
        RULES.iter().for_each(cite);
        return Ok(Outcome::Valid);
    }
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .map_err(|_| Failure(format!("--timeout {}: not a duration", args.timeout)))?;
    let (format, quiet) = (args.report.output, args.report.quiet.quiet);
    stdin_once(&args.files)?;
    // Every file is read first, so that a missing one stops the run before any output.
    let inputs = match &args.http {
        _ if !args.files.is_empty() => (args.files.iter())
            .map(|file| tools_in(Source::read(file)?))
            .collect::<Result<Vec<_>, _>>()?,
        Some(url) => vec![live(&mut HttpServer::new(url, timeout)?, quiet)?],
        None => vec![live(
            &mut StdioServer::start(&args.command, timeout)?,
            quiet,
        )?],
    };
    let rules = selected(args);
    let paint = Paint::for_stdout();
    let (mut findings, mut summaries, mut tools) = (Vec::new(), Vec::new(), 0);
    for input in &inputs {
        let (reports, list) = check(input, &rules);
        if format == Format::Text {
            let header = (inputs.len() > 1).then_some(input.source.name.as_str());
            print_text(header, &reports, &list, paint, quiet);
        }
        tools += reports.len();
        for (report, placed) in reports.iter().zip(&input.tools) {
            findings.extend(report_findings(&input.source, placed, report));
            summaries.push(summary(&input.source, report));
        }
        let (start, pointer) = &input.list;
        findings.extend(list.iter().map(|f| {
            lint_finding(&input.source, *start, pointer.clone(), f).about(f.location.clone())
        }));
    }
    let cited: Vec<Cited> = std::iter::once(Cited::Schema)
        .chain(rules.into_iter().map(Cited::Lint))
        .collect();
    let more = Map::from_iter([("tools".to_string(), Value::Array(summaries))]);
    report::print(format, &cited, &findings, more);
    let (errors, warnings) = report::counts(&findings);
    if !quiet {
        let files = match inputs.len() {
            1 => String::new(),
            n => format!("{n} files, "),
        };
        tell!(
            "{files}{}: {}, {}",
            counted(tools, "tool"),
            counted(errors, "error"),
            counted(warnings, "warning")
        );
    }
    Ok(if errors == 0 {
        Outcome::Valid
    } else {
        Outcome::Invalid
    })
}

/// The reports on each tool of `input` and the findings about its list as a whole, by
/// the `rules` chosen.
fn check(input: &Input, rules: &[&Rule]) -> (Vec<ToolReport>, Vec<Finding>) {
    let chosen = |f: &Finding| rules.iter().any(|rule| rule.id == f.rule.id);
    let (mut reports, wire): (Vec<ToolReport>, Vec<Value>) = input
        .tools
        .iter()
        .map(|p| &p.tool)
        .enumerate()
        .map(report)
        .unzip();
    // The lint reads what clients receive: each schema in its wire form where it compiles.
    for (i, report) in reports.iter_mut().enumerate() {
        report.findings = lint::check_tool(&wire, i);
        report.findings.retain(chosen);
    }
    let tools: Vec<Value> = input.tools.iter().map(|p| p.tool.clone()).collect();
    let mut list = lint::check_list(&tools);
    list.retain(chosen);
    (reports, list)
}

/// The findings of one tool for `--output json` and `sarif`: its schemas' errors, then
/// its lint findings.
fn report_findings(source: &Source, placed: &Placed, report: &ToolReport) -> Vec<report::Finding> {
    let at = |place: &str| format!("{}/{place}", placed.pointer);
    let about = |place: &str| format!("{} {place}", report.name);
    let errors = report.schemas.iter().filter_map(|schema| {
        let (pointer, message) = schema.error.as_ref()?;
        let place = format!("{}{pointer}", schema.field);
        let found = report::Finding::new(
            source,
            placed.start,
            at(&place),
            Cited::Schema,
            message.clone(),
        );
        Some(found.about(about(&place)))
    });
    let lint = (report.findings.iter())
        .map(|f| lint_finding(source, placed.start, at(&f.location), f).about(about(&f.location)));
    let mut found: Vec<report::Finding> = errors.chain(lint).collect();
    for finding in &mut found {
        finding
            .extra
            .insert("tool".into(), report.name.clone().into());
    }
    found
}

/// A lint finding at `pointer` for `--output json` and `sarif`, with its rule's
/// provider, fix, documentation and words.
fn lint_finding(source: &Source, start: usize, pointer: String, f: &Finding) -> report::Finding {
    let rule = f.rule;
    let mut found =
        report::Finding::new(source, start, pointer, Cited::Lint(rule), f.message.clone());
    let details = [
        ("provider", rule.provider),
        ("fix", rule.fix),
        ("docs", rule.docs),
        ("says", rule.says),
    ];
    (found.extra).extend(details.map(|(key, value)| (key.to_string(), Value::from(value))));
    found
}

/// A tool's summary in the `--output json` document: its name and file, its counts, and
/// whether each schema compiles (with the compiler's error, or what the wire form adds).
fn summary(source: &Source, report: &ToolReport) -> Value {
    let mut tool = json!({
        "file": source.name,
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
                let added: Map<String, Value> = schema.added.iter().cloned().collect();
                json!({"compiles": true, "wireAdds": added})
            }
        };
    }
    tool
}

/// The tools a live server lists, its name and protocol told on standard error (unless
/// `quiet`).
fn live(server: &mut dyn Transport, quiet: bool) -> Result<Input, Failure> {
    let listing = client::list_tools(server)?;
    let who = listing
        .server
        .map_or_else(String::new, |s| format!("{s}, "));
    if !quiet {
        tell!(
            "{}: {who}protocol {}, {} listed",
            server.name(),
            listing.protocol,
            counted(listing.tools.len(), "tool")
        );
    }
    let source = Source {
        name: server.name().to_string(),
        text: String::new(),
        on_disk: false,
    };
    // The pages' tools in one list, as if one `tools/list` result held them all.
    let tools = (listing.tools.into_iter().enumerate())
        .map(|(i, tool)| Placed {
            tool,
            start: 0,
            pointer: format!("/tools/{i}"),
        })
        .collect();
    Ok(Input {
        source,
        tools,
        list: (0, "/tools".into()),
    })
}

/// `n` and `noun`, with an `s` unless `n` is 1: `1 tool`, `3 errors`.
fn counted(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// The tools of every document in the source, each with its place.
fn tools_in(source: Source) -> Result<Input, Failure> {
    let mut tools = Vec::new();
    let mut list = None;
    let mut documents = serde_json::Deserializer::from_str(&source.text).into_iter::<Value>();
    for i in 0.. {
        let start = documents.byte_offset();
        let Some(document) = documents.next() else {
            break;
        };
        let document = document.map_err(|e| {
            Failure(format!(
                "{}:{}:{}: invalid JSON: {e}",
                source.name,
                e.line(),
                e.column()
            ))
        })?;
        let (pointer, found) = match (document.pointer("/result/tools"), document.get("tools")) {
            (Some(found), _) => ("/result/tools", found),
            (None, Some(found)) => ("/tools", found),
            (None, None) => ("", &document),
        };
        let Value::Array(found) = found else {
            return Err(Failure(format!(
                "{}: document {} is not a tools/list result (expected {{\"tools\": [...]}}, \
                 a JSON-RPC response with one, or an array of tools)",
                source.name,
                i + 1
            )));
        };
        list.get_or_insert_with(|| (start, pointer.to_string()));
        tools.extend(found.iter().enumerate().map(|(j, tool)| Placed {
            tool: tool.clone(),
            start,
            pointer: format!("{pointer}/{j}"),
        }));
    }
    if tools.is_empty() && source.text.trim().is_empty() {
        return Err(Failure(format!(
            "{}: no JSON value (the input is empty)",
            source.name
        )));
    }
    Ok(Input {
        list: list.unwrap_or_default(),
        source,
        tools,
    })
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

/// The text report on one input, after a `==> FILE <==` line when there are several.
/// `quiet`: only the tools with something wrong, and only what is wrong with them.
fn print_text(
    header: Option<&str>,
    reports: &[ToolReport],
    list: &[Finding],
    paint: Paint,
    quiet: bool,
) {
    let wrong = |report: &&ToolReport| report.errors() > 0 || !report.findings.is_empty();
    let shown: Vec<&ToolReport> = match quiet {
        true => reports.iter().filter(wrong).collect(),
        false => reports.iter().collect(),
    };
    match header {
        Some(_) if quiet && shown.is_empty() && list.is_empty() => {}
        Some(name) => say!("==> {name} <=="),
        None => {}
    }
    for report in shown {
        let verdict = match report.errors() {
            0 => paint.good("ok"),
            n => paint.bad(&counted(n, "error")),
        };
        say!("{}: {verdict}", report.name);
        for schema in &report.schemas {
            match &schema.error {
                Some((pointer, message)) => say!(
                    "  {} {}{pointer}: {message}",
                    paint.bad("error"),
                    schema.field
                ),
                None if quiet => {}
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
    if quiet {
        return;
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
    cited.into_iter().for_each(cite);
}

/// A rule, its provider, severity and page, and the page's words.
fn cite(rule: &Rule) {
    say!(
        "  {} ({}, {}): {}",
        rule.id,
        rule.provider,
        rule.severity.name(),
        rule.docs
    );
    say!("    \"{}\"", rule.says);
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
