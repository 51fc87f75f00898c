//! The findings of `check` and `tools` for programs, one shape for both: the `--output`
//! flag they share, a [`Finding`] (file, JSON Pointer, line and column, rule, severity,
//! message), and the two documents made of them: `--output json` (every finding in one
//! JSON document) and `--output sarif` (a SARIF 2.1.0 log, which code scanning turns into
//! annotations on the lines of a pull request).

use crate::input::Source;
use crate::lint::{Rule, Severity};
use crate::locate::position_from;
use crate::QuietArg;
use clap::ValueEnum;
use serde_json::{json, Map, Value};

#[derive(Debug, clap::Args)]
pub(crate) struct ReportArgs {
    /// How to print the report. `json`: `{"findings": [...], "errors": N, "warnings": N}`,
    /// each finding with its file, JSON Pointer, line, column, rule, severity and message.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text, alias = "format")]
    pub(crate) output: Format,
    #[command(flatten)]
    pub(crate) quiet: QuietArg,
}

/// The report formats of `check` and `tools`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// For people: a line per problem.
    Text,
    /// For programs: one JSON document.
    Json,
    /// For code scanning: a SARIF 2.1.0 log.
    Sarif,
}

/// What a finding cites: a lint rule, or the schema check itself.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cited {
    /// A schema that its metaschema or the compiler refuses ([`SCHEMA_RULE`]).
    Schema,
    /// A client-compatibility rule.
    Lint(&'static Rule),
}

/// The rule id of every finding that is not a lint rule's.
pub(crate) const SCHEMA_RULE: &str = "invalid-schema";
/// What [`SCHEMA_RULE`] stands for.
const SCHEMA_RULE_TEXT: &str = "The schema does not compile: it breaks its dialect's \
    metaschema, has a reference that does not resolve or a pattern that is not ECMA-262, \
    or (under the MCP profile) breaks its bounds, its same-document rule or a tool \
    schema's root rules.";

impl Cited {
    fn id(self) -> &'static str {
        match self {
            Cited::Schema => SCHEMA_RULE,
            Cited::Lint(rule) => rule.id,
        }
    }

    fn severity(self) -> Severity {
        match self {
            Cited::Schema => Severity::Error,
            Cited::Lint(rule) => rule.severity,
        }
    }

    /// The rule as SARIF's `reportingDescriptor`.
    fn descriptor(self) -> Value {
        let level = sarif_level(self.severity());
        match self {
            Cited::Schema => json!({
                "id": SCHEMA_RULE,
                "shortDescription": {"text": SCHEMA_RULE_TEXT},
                "defaultConfiguration": {"level": level},
            }),
            Cited::Lint(rule) => json!({
                "id": rule.id,
                "shortDescription": {"text": format!("{}: \"{}\"", rule.provider, rule.says)},
                "help": {"text": format!("Fix: {}", rule.fix)},
                "helpUri": rule.docs,
                "defaultConfiguration": {"level": level},
            }),
        }
    }
}

/// One problem found in a file (or in a live server's tools).
#[derive(Debug)]
pub(crate) struct Finding {
    /// The file's name as given (`<stdin>`, or a live server's command or URL).
    pub(crate) file: String,
    /// Whether `file` is a file on disk, which a SARIF location can name.
    pub(crate) on_disk: bool,
    /// Where in the file's document, as a JSON Pointer.
    pub(crate) pointer: String,
    /// The line and column (from 1, in code points) where the value at `pointer`, or its
    /// nearest ancestor present in the text, starts.
    pub(crate) position: Option<(usize, usize)>,
    pub(crate) cited: Cited,
    /// Where, in words: the pointer (`(root)` for the root), or a tool and a place in it.
    pub(crate) subject: String,
    /// What is wrong there.
    pub(crate) message: String,
    /// More members for the JSON output (the tool's name, a rule's provider and fix).
    pub(crate) extra: Map<String, Value>,
}

impl Finding {
    /// A finding at `pointer` of the document starting at byte `start` of `source`'s text
    /// (a live server's tools have no text, and so no position).
    pub(crate) fn new(
        source: &Source,
        start: usize,
        pointer: String,
        cited: Cited,
        message: String,
    ) -> Finding {
        Finding {
            file: source.name.clone(),
            on_disk: source.on_disk,
            position: nearest(&source.text, start, &pointer),
            subject: match pointer.as_str() {
                "" => "(root)".into(),
                pointer => pointer.into(),
            },
            pointer,
            cited,
            message,
            extra: Map::new(),
        }
    }

    /// The finding with `subject` as where, in words.
    pub(crate) fn about(mut self, subject: String) -> Finding {
        self.subject = subject;
        self
    }

    pub(crate) fn severity(&self) -> Severity {
        self.cited.severity()
    }
}

/// The position of `pointer`'s value, or of its nearest ancestor that the text has (a
/// member the wire form adds, such as a root `type`, is not in the file).
fn nearest(text: &str, start: usize, pointer: &str) -> Option<(usize, usize)> {
    let mut pointer = pointer;
    loop {
        if let Some(position) = position_from(text, start, pointer) {
            return Some(position);
        }
        pointer = pointer.rsplit_once('/')?.0;
    }
}

/// Prints the document `format` asks for (nothing for text, printed as it is found):
/// `--output json` with `more` members, or the SARIF log of a run that applied `rules`.
pub(crate) fn print(
    format: Format,
    rules: &[Cited],
    findings: &[Finding],
    more: Map<String, Value>,
) {
    match format {
        Format::Text => {}
        Format::Json => say!("{:#}", json(findings, more)),
        Format::Sarif => say!("{:#}", sarif(rules, findings)),
    }
}

/// How many findings are errors and how many warnings.
pub(crate) fn counts(findings: &[Finding]) -> (usize, usize) {
    let count = |severity| findings.iter().filter(|f| f.severity() == severity).count();
    (count(Severity::Error), count(Severity::Warning))
}

/// The `--output json` document: every finding, the counts, and `more` members.
pub(crate) fn json(findings: &[Finding], more: Map<String, Value>) -> Value {
    let (errors, warnings) = counts(findings);
    let listed = findings.iter().map(|f| {
        let mut finding = Map::new();
        finding.extend(f.extra.clone());
        let core = json!({
            "file": f.file,
            "pointer": f.pointer,
            "line": f.position.map(|(line, _)| line),
            "column": f.position.map(|(_, column)| column),
            "rule": f.cited.id(),
            "severity": f.severity().name(),
            "message": f.message,
        });
        if let Value::Object(core) = core {
            finding.extend(core);
        }
        Value::Object(finding)
    });
    let mut document = json!({
        "findings": listed.collect::<Vec<_>>(),
        "errors": errors,
        "warnings": warnings,
    });
    if let Some(object) = document.as_object_mut() {
        object.extend(more);
    }
    document
}

/// Where SARIF logs say which schema they follow: the OASIS standard's, errata 01.
pub(crate) const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The `--output sarif` log: one run, whose driver lists `rules` (the rules this run
/// applied), and a result per finding.
pub(crate) fn sarif(rules: &[Cited], findings: &[Finding]) -> Value {
    let results = findings.iter().map(|f| {
        let mut result = json!({
            "ruleId": f.cited.id(),
            "level": sarif_level(f.severity()),
            "message": {"text": format!("{}: {}", f.subject, f.message)},
        });
        if let Some(index) = rules.iter().position(|r| r.id() == f.cited.id()) {
            result["ruleIndex"] = index.into();
        }
        if f.on_disk {
            let mut physical = json!({"artifactLocation": {"uri": uri_reference(&f.file)}});
            if let Some((line, column)) = f.position {
                physical["region"] = json!({"startLine": line, "startColumn": column});
            }
            result["locations"] = json!([{"physicalLocation": physical}]);
        }
        result
    });
    json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mcp-jsonschema",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| r.descriptor()).collect::<Vec<_>>(),
            }},
            "columnKind": "unicodeCodePoints",
            "results": results.collect::<Vec<_>>(),
        }],
    })
}

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// A path as a relative URI reference: every byte but unreserved ones and `/`
/// percent-encoded (a space, `%`, `#`, or a `:` that would read as a scheme), and `\`
/// read as the separator it is on Windows.
fn uri_reference(path: &str) -> String {
    let mut uri = String::with_capacity(path.len());
    for byte in path.bytes() {
        match byte {
            b'\\' if cfg!(windows) => uri.push('/'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(char::from(byte));
            }
            _ => uri.push_str(&format!("%{byte:02X}")),
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_relative_uri_references() {
        assert_eq!(uri_reference("schemas/a.json"), "schemas/a.json");
        assert_eq!(
            uri_reference("my tools/c:d#1%.json"),
            "my%20tools/c%3Ad%231%25.json"
        );
        assert_eq!(uri_reference("caf\u{e9}.json"), "caf%C3%A9.json");
    }

    #[test]
    fn a_missing_member_is_located_at_its_nearest_ancestor() {
        let text = "[1]\n{\"tools\": [\n  {\"name\": \"a\"}]}";
        let start = 3;
        assert_eq!(nearest(text, start, "/tools/0/name"), Some((3, 12)));
        assert_eq!(
            nearest(text, start, "/tools/0/inputSchema/type"),
            Some((3, 3))
        );
        assert_eq!(nearest(text, start, "/nope"), Some((2, 1)));
        assert_eq!(nearest(text, 0, "/0"), Some((1, 2)));
    }
}
