//! Checking a whole `tools/list` result: every tool's schemas, each on its own.

use super::{profile, Role, ToolSchema};
use crate::error::{SchemaError, SchemaErrorKind};
use serde_json::Value;

/// What [`check_tools_list`] found for one tool. See the example on
/// [`check_tools_list`].
#[derive(Debug)]
pub struct ToolReport {
    /// The tool's `name` (`"<unnamed #i>"` when missing).
    pub name: String,
    /// The compiled `inputSchema`, or why it cannot be used.
    pub input: Result<ToolSchema, SchemaError>,
    /// The compiled `outputSchema` if the tool declares one, or why it cannot be used.
    pub output: Option<Result<ToolSchema, SchemaError>>,
}

impl ToolReport {
    /// Whether both schemas compiled (the output schema, when the tool declares one).
    /// See the example on [`check_tools_list`].
    pub fn is_ok(&self) -> bool {
        self.input.is_ok() && self.output.as_ref().is_none_or(Result::is_ok)
    }

    /// The problems, one line each, prefixed with the tool and schema they belong to.
    /// See the example on [`check_tools_list`].
    pub fn problems(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Err(e) = &self.input {
            lines.push(format!("{}: inputSchema: {e}", self.name));
        }
        if let Some(Err(e)) = &self.output {
            lines.push(format!("{}: outputSchema: {e}", self.name));
        }
        lines
    }
}

/// Compiles the schemas of every tool in a `tools/list` result (`{"tools": [...]}`, or
/// the array itself) under the MCP [`profile`]. One tool's problems never stop the others
/// from being checked.
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::mcp::{check_tools_list, ToolReport};
/// let result = json!({"tools": [
///     {"name": "ok", "inputSchema": {"type": "object"}},
///     {"name": "bad", "inputSchema": {"type": "object", "properties": {"n": {"$ref": "https://x/s.json"}}}}
/// ]});
/// let reports: Vec<ToolReport> = check_tools_list(&result);
/// assert_eq!(reports[0].name, "ok");
/// assert!(reports[0].is_ok());
/// assert!(reports[0].output.is_none());
/// assert!(reports[0].problems().is_empty());
/// assert!(!reports[1].is_ok());
/// assert!(reports[1].problems()[0].starts_with("bad: inputSchema: /properties/n/$ref: reference"));
/// ```
pub fn check_tools_list(result: &Value) -> Vec<ToolReport> {
    let tools = result.get("tools").unwrap_or(result);
    let Some(tools) = tools.as_array() else {
        return Vec::new();
    };
    let options = profile();
    tools
        .iter()
        .enumerate()
        .map(|(i, tool)| {
            let name = tool
                .get("name")
                .and_then(Value::as_str)
                .map_or_else(|| format!("<unnamed #{i}>"), str::to_string);
            let input = match tool.get("inputSchema") {
                Some(schema) => ToolSchema::new(Role::Input, schema, &options),
                None => Err(SchemaError::new(
                    SchemaErrorKind::InvalidKeyword,
                    "",
                    "the tool has no inputSchema",
                )),
            };
            let output = tool
                .get("outputSchema")
                .map(|schema| ToolSchema::new(Role::Output, schema, &options));
            ToolReport {
                name,
                input,
                output,
            }
        })
        .collect()
}
