//! The client side: tools' output schemas compiled after `tools/list`, and a `call_tool`
//! that checks each result's structured content against its tool's schema.

use crate::{compile, lines};
use mcp_jsonschema::mcp::{Role, ToolSchema};
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{Peer, RoleClient, ServiceError};
use std::collections::HashMap;
use std::sync::Arc;

/// The output schemas of a server's tools, compiled under the MCP profile (through the
/// process-wide cache, so listing tools again costs little).
#[derive(Debug, Default)]
pub struct OutputSchemas {
    /// Per tool with an output schema: the compiled schema, or why it does not compile.
    tools: HashMap<String, Result<Arc<ToolSchema>, String>>,
}

impl OutputSchemas {
    /// Compiles the output schema of every tool that declares one (from
    /// `list_all_tools`). A schema that does not compile is kept as a problem: results of
    /// that tool are then reported, never passed unchecked.
    pub fn new(tools: &[Tool]) -> OutputSchemas {
        let compiled = tools.iter().filter_map(|tool| {
            let schema = tool.output_schema.as_ref()?;
            let compiled = compile(Role::Output, schema).map_err(|e| {
                format!("its outputSchema does not compile under the MCP profile: {e}")
            });
            Some((tool.name.to_string(), compiled))
        });
        OutputSchemas {
            tools: compiled.collect(),
        }
    }

    /// Checks the result of a call to `tool`. Unknown tools, tools without an output
    /// schema and error results pass untouched; otherwise the structured content must be
    /// present and conform.
    pub fn check(&self, tool: &str, result: &CallToolResult) -> Result<(), OutputError> {
        let Some(schema) = self.tools.get(tool) else {
            return Ok(());
        };
        if result.is_error == Some(true) {
            return Ok(());
        }
        let problems = match (schema, &result.structured_content) {
            (Err(problem), _) => vec![problem.clone()],
            (Ok(_), None) => {
                vec![
                    "the tool declares an outputSchema but the result has no structuredContent"
                        .into(),
                ]
            }
            (Ok(schema), Some(structured)) => lines(schema.iter_errors(structured)),
        };
        match problems.is_empty() {
            true => Ok(()),
            false => Err(OutputError {
                tool: tool.to_string(),
                problems,
            }),
        }
    }
}

/// A result whose structured content breaks its tool's output schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputError {
    /// The tool called.
    pub tool: String,
    /// Each problem, one line each (`/temp: expected number, got string "warm"`).
    pub problems: Vec<String>,
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tool {:?} returned a result its outputSchema rejects: {}",
            self.tool,
            self.problems.join("; ")
        )
    }
}

impl std::error::Error for OutputError {}

/// Why a checked call failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum CallError {
    /// The call itself failed (transport, protocol, or an error the server returned).
    Service(ServiceError),
    /// The result came back but breaks the tool's output schema.
    Output(OutputError),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Service(error) => write!(f, "{error}"),
            CallError::Output(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for CallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CallError::Service(error) => Some(error),
            CallError::Output(error) => Some(error),
        }
    }
}

/// `peer.call_tool(params)`, with the result's structured content checked against the
/// tool's output schema in `schemas`.
pub async fn call_tool(
    peer: &Peer<RoleClient>,
    schemas: &OutputSchemas,
    params: CallToolRequestParams,
) -> Result<CallToolResult, CallError> {
    let tool = params.name.to_string();
    let result = peer.call_tool(params).await.map_err(CallError::Service)?;
    schemas.check(&tool, &result).map_err(CallError::Output)?;
    Ok(result)
}
