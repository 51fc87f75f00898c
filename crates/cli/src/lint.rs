//! The client-compatibility lint: constructs in a tool definition that a widely used MCP
//! client or model provider is documented to reject or to ignore.
//!
//! Each rule is data ([`RULES`]): an id, the provider, the documentation it comes from, a
//! one-line fix, and a check over the tool. Only rules stated in the providers' own
//! documentation are here; the README says when those pages were read.

use crate::walk::{subschemas, Visit};
use serde_json::Value;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Severity {
    /// The provider documents that it rejects this.
    Error,
    /// The provider documents that it ignores this, or rejects it only in a mode
    /// (such as OpenAI's strict mode) that a client may not use.
    Warning,
}

impl Severity {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One documented rule.
#[derive(Debug)]
pub(crate) struct Rule {
    pub(crate) id: &'static str,
    pub(crate) provider: &'static str,
    pub(crate) severity: Severity,
    /// The documentation page that states the rule.
    pub(crate) docs: &'static str,
    /// What that page says, word for word (shortened with "...").
    pub(crate) says: &'static str,
    pub(crate) fix: &'static str,
    check: Check,
}

/// What a check finds: (location, message) pairs.
type Found = Vec<(String, String)>;

/// What a rule looks at.
#[derive(Debug)]
enum Check {
    /// One tool (with the whole list beside it, for rules across tools).
    Tool(fn(&Value, &[Value]) -> Found),
    /// The list as a whole.
    List(fn(&[Value]) -> Found),
}

/// A rule's finding.
#[derive(Debug)]
pub(crate) struct Finding {
    pub(crate) rule: &'static Rule,
    /// `name`, `inputSchema` / `outputSchema` followed by a JSON Pointer, or `tools`.
    pub(crate) location: String,
    pub(crate) message: String,
}

/// Every rule's findings in tool number `index` of `tools`.
pub(crate) fn check_tool(tools: &[Value], index: usize) -> Vec<Finding> {
    findings(|check| match check {
        Check::Tool(check) => tools.get(index).map(|tool| check(tool, tools)),
        Check::List(_) => None,
    })
}

/// Every rule's findings about the list as a whole.
pub(crate) fn check_list(tools: &[Value]) -> Vec<Finding> {
    findings(|check| match check {
        Check::List(check) => Some(check(tools)),
        Check::Tool(_) => None,
    })
}

fn findings(run: impl Fn(&Check) -> Option<Found>) -> Vec<Finding> {
    let mut found = Vec::new();
    for rule in RULES {
        for (location, message) in run(&rule.check).unwrap_or_default() {
            found.push(Finding {
                rule,
                location,
                message,
            });
        }
    }
    found
}

/// Where the MCP specification 2025-11-25 states its tool rules.
const MCP_TOOLS: &str =
    "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names";
/// OpenAI's strict mode (function calling uses Structured Outputs' schema subset).
const OPENAI_STRICT: &str =
    "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";

/// The rules, in the order findings are listed. Read on 2026-11-30 (see the README).
pub(crate) static RULES: &[Rule] = &[
    Rule {
        id: "mcp-tool-name",
        provider: "MCP 2025-11-25",
        severity: Severity::Warning,
        docs: MCP_TOOLS,
        says: "Tool names SHOULD be between 1 and 128 characters in length (inclusive). ... \
               The following SHOULD be the only allowed characters: uppercase and lowercase \
               ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-), and dot (.)",
        fix: "rename the tool with 1 to 128 of A-Z, a-z, 0-9, _, - and .",
        check: Check::Tool(|tool, _| {
            name_check(tool, 128, |c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        }),
    },
    Rule {
        id: "mcp-tool-name-unique",
        provider: "MCP 2025-11-25",
        severity: Severity::Warning,
        docs: MCP_TOOLS,
        says: "Tool names SHOULD be unique within a server.",
        fix: "give each tool its own name: clients call tools by name",
        check: Check::Tool(|tool, tools| {
            let name = name(tool);
            let count = tools.iter().filter(|t| self::name(t) == name).count();
            match count {
                0 | 1 => Vec::new(),
                n => vec![("name".into(), format!("{n} tools are named {name:?}"))],
            }
        }),
    },
    Rule {
        id: "mcp-2025-11-25-output-schema-object",
        provider: "MCP 2025-11-25",
        severity: Severity::Warning,
        docs: "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.ts",
        says: "An optional JSON Schema object defining the structure of the tool's output \
               returned in the structuredContent field of a CallToolResult. ... Currently \
               restricted to type: \"object\" at the root level.",
        fix: "clients on 2025-11-25 or earlier expect an object: wrap the value, e.g. \
              {\"type\": \"object\", \"properties\": {\"result\": ...}}",
        check: Check::Tool(|tool, _| {
            let Some(schema) = tool.get("outputSchema") else {
                return Vec::new();
            };
            match schema.get("type").and_then(Value::as_str) {
                Some("object") => Vec::new(),
                _ => vec![(
                    "outputSchema/type".into(),
                    "the root is not declared \"type\": \"object\"".into(),
                )],
            }
        }),
    },
    Rule {
        id: "openai-function-name",
        provider: "OpenAI",
        severity: Severity::Error,
        docs: "https://platform.openai.com/docs/api-reference/chat/create",
        says: "The name of the function to be called. Must be a-z, A-Z, 0-9, or contain \
               underscores and dashes, with a maximum length of 64.",
        fix: "rename the tool with 1 to 64 of A-Z, a-z, 0-9, _ and - (no dots)",
        check: Check::Tool(|tool, _| name_check(tool, 64, word_or_dash)),
    },
    Rule {
        id: "anthropic-tool-name",
        provider: "Anthropic",
        severity: Severity::Error,
        docs: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview",
        says: "name: The name of the tool. Must match the regex ^[a-zA-Z0-9_-]{1,64}$.",
        fix: "rename the tool with 1 to 64 of A-Z, a-z, 0-9, _ and - (no dots)",
        check: Check::Tool(|tool, _| name_check(tool, 64, word_or_dash)),
    },
    Rule {
        id: "vertex-function-name",
        provider: "Google Vertex AI",
        severity: Severity::Error,
        docs: "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration",
        says: "The name of the function to call. Must start with a letter or an underscore. \
               Must be a-z, A-Z, 0-9, or contain underscores, dots and dashes, with a maximum \
               length of 64.",
        fix: "rename the tool: a letter or _ first, then up to 63 of A-Z, a-z, 0-9, _, . and -",
        check: Check::Tool(|tool, _| {
            let name = name(tool);
            let mut found = name_check(tool, 64, |c| word_or_dash(c) || c == '.');
            if found.is_empty() && !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                found.push(("name".into(), format!("{name:?} must start with a letter or _")));
            }
            found
        }),
    },
    Rule {
        id: "vertex-parameter-name",
        provider: "Google Vertex AI",
        severity: Severity::Warning,
        docs: "https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/FunctionDeclaration",
        says: "Parameter names must start with a letter or an underscore and must only contain \
               chars a-z, A-Z, 0-9, or underscores with a maximum length of 64.",
        fix: "rename the property: a letter or _ first, then up to 63 of A-Z, a-z, 0-9 and _",
        check: Check::Tool(|tool, _| {
            let properties = tool.pointer("/inputSchema/properties").and_then(Value::as_object);
            (properties.into_iter().flatten())
                .filter(|(name, _)| !is_parameter_name(name))
                .map(|(name, _)| {
                    let at = format!("inputSchema/properties/{}", crate::walk::escape(name));
                    (at, format!("{name:?} is not a valid parameter name"))
                })
                .collect()
        }),
    },
    Rule {
        id: "bedrock-tool-name",
        provider: "AWS Bedrock",
        severity: Severity::Error,
        docs: "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html",
        says: "name: The name for the tool. Type: String. Length Constraints: Minimum length of \
               1. Maximum length of 64. Pattern: [a-zA-Z0-9_-]+",
        fix: "rename the tool with 1 to 64 of A-Z, a-z, 0-9, _ and - (no dots)",
        check: Check::Tool(|tool, _| name_check(tool, 64, word_or_dash)),
    },
    Rule {
        id: "bedrock-empty-description",
        provider: "AWS Bedrock",
        severity: Severity::Error,
        docs: "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html",
        says: "description: The description for the tool. Type: String. Length Constraints: \
               Minimum length of 1.",
        fix: "describe the tool, or leave description out",
        check: Check::Tool(|tool, _| match tool.get("description") {
            Some(Value::String(text)) if text.is_empty() => {
                vec![("description".into(), "the description is empty".into())]
            }
            _ => Vec::new(),
        }),
    },
    Rule {
        id: "openai-strict-additional-properties",
        provider: "OpenAI strict mode",
        severity: Severity::Warning,
        docs: OPENAI_STRICT,
        says: "additionalProperties: false must always be set in objects",
        fix: "add \"additionalProperties\": false to the object (needed only with strict: true)",
        check: Check::Tool(|tool, _| {
            in_schema(tool, "inputSchema", |visit| {
                let closed = visit.schema.get("additionalProperties") == Some(&Value::Bool(false));
                (is_object_schema(visit) && !closed)
                    .then(|| "an object without \"additionalProperties\": false".into())
            })
        }),
    },
    Rule {
        id: "openai-strict-all-required",
        provider: "OpenAI strict mode",
        severity: Severity::Warning,
        docs: OPENAI_STRICT,
        says: "All fields must be required. To use Structured Outputs, all fields or function \
               parameters must be specified as required.",
        fix: "list every property in \"required\" and make optional ones nullable, e.g. \
              \"type\": [\"string\", \"null\"] (needed only with strict: true)",
        check: Check::Tool(|tool, _| {
            in_schema(tool, "inputSchema", |visit| {
                let properties = visit.schema.get("properties")?.as_object()?;
                let required = visit.schema.get("required").and_then(Value::as_array);
                let required = |name: &str| {
                    required.is_some_and(|list| list.iter().any(|r| r.as_str() == Some(name)))
                };
                let optional: Vec<&String> =
                    properties.keys().filter(|name| !required(name)).collect();
                (!optional.is_empty()).then(|| format!("not required: {optional:?}"))
            })
        }),
    },
    Rule {
        id: "openai-strict-root",
        provider: "OpenAI strict mode",
        severity: Severity::Warning,
        docs: OPENAI_STRICT,
        says: "Note that the root level object of a schema must be an object, and not use anyOf.",
        fix: "make the root a plain object and move the alternatives into a property \
              (needed only with strict: true)",
        check: Check::Tool(|tool, _| {
            let root = tool.get("inputSchema").and_then(Value::as_object);
            match root.is_some_and(|root| root.contains_key("anyOf")) {
                true => vec![("inputSchema/anyOf".into(), "the root uses anyOf".into())],
                false => Vec::new(),
            }
        }),
    },
    Rule {
        id: "openai-strict-unsupported-keyword",
        provider: "OpenAI strict mode",
        severity: Severity::Warning,
        docs: OPENAI_STRICT,
        says: "Composition: allOf, not, dependentRequired, dependentSchemas, if, then, else ... \
               If you turn on Structured Outputs by supplying strict: true and call the API with \
               an unsupported JSON Schema, you will receive an error.",
        fix: "merge allOf into its parent and say conditions in the description instead \
              (needed only with strict: true)",
        check: Check::Tool(|tool, _| {
            const UNSUPPORTED: [&str; 7] = [
                "allOf",
                "not",
                "dependentRequired",
                "dependentSchemas",
                "if",
                "then",
                "else",
            ];
            in_schema(tool, "inputSchema", |visit| {
                let used: Vec<&str> = (UNSUPPORTED.iter().copied())
                    .filter(|keyword| visit.schema.contains_key(*keyword))
                    .collect();
                (!used.is_empty()).then(|| format!("uses {}", used.join(", ")))
            })
        }),
    },
    Rule {
        id: "vscode-tool-count",
        provider: "VS Code (GitHub Copilot)",
        severity: Severity::Warning,
        docs: "https://code.visualstudio.com/docs/copilot/customization/mcp-servers",
        says: "A chat request can have a maximum of 128 tools enabled at a time due to model \
               constraints.",
        fix: "offer fewer tools (at most 128, fewer beside other servers)",
        check: Check::List(|tools| match tools.len() {
            0..=128 => Vec::new(),
            n => vec![("tools".into(), format!("{n} tools"))],
        }),
    },
];

/// The tool's name, if it has one.
fn name(tool: &Value) -> &str {
    tool.get("name").and_then(Value::as_str).unwrap_or("")
}

/// A finding on the name when it is not 1 to `max` characters, each `allowed`.
fn name_check(tool: &Value, max: usize, allowed: fn(char) -> bool) -> Found {
    let name = name(tool);
    let length = name.chars().count();
    let mut bad: Vec<char> = name.chars().filter(|&c| !allowed(c)).collect();
    bad.dedup();
    let mut problems = Vec::new();
    if !(1..=max).contains(&length) {
        problems.push(format!("{length} characters, not 1 to {max}"));
    }
    if !bad.is_empty() {
        problems.push(format!("characters not allowed: {bad:?}"));
    }
    match problems.is_empty() {
        true => Vec::new(),
        false => vec![("name".into(), format!("{name:?}: {}", problems.join("; ")))],
    }
}

/// ASCII letters, digits, `_` and `-`.
fn word_or_dash(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// A Vertex AI parameter name: a letter or `_`, then letters, digits and `_`; at most 64.
fn is_parameter_name(name: &str) -> bool {
    let mut chars = name.chars();
    let first = chars.next();
    first.is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 64
}

/// Whether a subschema describes objects: `"type": "object"` (alone or in a list), or
/// `properties` without a `type`.
fn is_object_schema(visit: &Visit<'_>) -> bool {
    match visit.schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(types)) => types.iter().any(|t| t == "object"),
        _ => visit.schema.contains_key("properties"),
    }
}

/// Findings for every subschema of the tool's `field` schema that `finds` flags.
fn in_schema(tool: &Value, field: &str, finds: impl Fn(&Visit<'_>) -> Option<String>) -> Found {
    let Some(schema) = tool.get(field) else {
        return Vec::new();
    };
    (subschemas(schema).iter())
        .filter_map(|visit| Some((format!("{field}{}", visit.pointer), finds(visit)?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A tool every rule accepts.
    fn clean() -> Value {
        json!({
            "name": "get_weather",
            "description": "Weather for a city",
            "inputSchema": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": false
            },
            "outputSchema": {"type": "object"}
        })
    }

    /// The rule ids that fire on tool 0 of `tools` and on the list.
    fn fired(tools: &[Value]) -> Vec<&'static str> {
        let tool = check_tool(tools, 0).into_iter();
        let found = tool.chain(check_list(tools));
        let mut ids: Vec<&str> = found.map(|f| f.rule.id).collect();
        ids.dedup();
        ids
    }

    #[test]
    fn a_clean_tool_passes_every_rule() {
        assert_eq!(fired(&[clean()]), Vec::<&str>::new());
    }

    /// The rules on a tool's name.
    const NAME_RULES: [&str; 5] = [
        "mcp-tool-name",
        "openai-function-name",
        "anthropic-tool-name",
        "vertex-function-name",
        "bedrock-tool-name",
    ];

    #[test]
    fn each_rule_fires_on_what_its_documentation_names() {
        let with = |pointer: &str, value: Value| {
            let mut tool = clean();
            *tool
                .pointer_mut(pointer)
                .expect("a place in the clean tool") = value;
            vec![tool]
        };
        let long = "a".repeat(65);
        let cases: Vec<(Vec<Value>, Vec<&str>)> = vec![
            (with("/name", json!("a".repeat(129))), NAME_RULES.to_vec()),
            (with("/name", json!(long)), NAME_RULES[1..].to_vec()),
            (with("/name", json!("get weather")), NAME_RULES.to_vec()),
            // Dots: MCP and Vertex allow them, the others do not.
            (
                with("/name", json!("admin.tools.list")),
                vec![
                    "openai-function-name",
                    "anthropic-tool-name",
                    "bedrock-tool-name",
                ],
            ),
            (
                with("/name", json!("1st_tool")),
                vec!["vertex-function-name"],
            ),
            (vec![clean(), clean()], vec!["mcp-tool-name-unique"]),
            (
                with("/outputSchema", json!({"type": "array"})),
                vec!["mcp-2025-11-25-output-schema-object"],
            ),
            (
                with("/inputSchema/properties", json!({"$top": {}})),
                vec!["vertex-parameter-name", "openai-strict-all-required"],
            ),
            (
                with("/description", json!("")),
                vec!["bedrock-empty-description"],
            ),
            (
                with("/inputSchema/additionalProperties", json!(true)),
                vec!["openai-strict-additional-properties"],
            ),
            (
                with("/inputSchema/required", json!([])),
                vec!["openai-strict-all-required"],
            ),
            (
                with("/inputSchema/properties/city", json!({"anyOf": [{}]})),
                Vec::new(),
            ),
            (
                with("/inputSchema/additionalProperties", json!(false)),
                Vec::new(),
            ),
            (
                with(
                    "/inputSchema/properties/city",
                    json!({"allOf": [{"type": "string"}], "not": {"const": ""}}),
                ),
                vec!["openai-strict-unsupported-keyword"],
            ),
            (
                (0..129)
                    .map(|i| {
                        let mut tool = clean();
                        tool["name"] = json!(format!("tool_{i}"));
                        tool
                    })
                    .collect(),
                vec!["vscode-tool-count"],
            ),
        ];
        for (tools, expected) in cases {
            assert_eq!(fired(&tools), expected, "{}", tools[0]);
        }
        let mut root_any_of = clean();
        root_any_of["inputSchema"]["anyOf"] = json!([{"required": ["city"]}]);
        assert_eq!(fired(&[root_any_of]), ["openai-strict-root"]);
    }

    #[test]
    fn every_rule_cites_its_source() {
        for rule in RULES {
            assert!(rule.docs.starts_with("https://"), "{}", rule.id);
            assert!(!rule.says.is_empty() && !rule.fix.is_empty(), "{}", rule.id);
            let same_id = RULES.iter().filter(|r| r.id == rule.id).count();
            assert_eq!(same_id, 1, "{}", rule.id);
        }
    }
}
