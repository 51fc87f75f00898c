//! The client side: tools' output schemas compiled after `tools/list`, and a `call_tool`
//! that checks each result's structured content against its tool's schema.

use crate::{compile, process_cache};
use mcp_jsonschema::mcp::{Role, SchemaCache, ToolSchema};
use mcp_jsonschema::{SchemaError, ValidationError};
use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{Peer, RoleClient, ServiceError};
use std::collections::HashMap;
use std::sync::Arc;

/// The output schemas of a server's tools, compiled under the MCP profile (through a
/// cache, so listing tools again costs little).
#[derive(Debug, Default)]
pub struct OutputSchemas {
    /// Per tool with an output schema: the compiled schema, or why it does not compile.
    tools: HashMap<String, Result<Arc<ToolSchema>, Arc<SchemaError>>>,
}

impl OutputSchemas {
    /// Compiles the output schema of every tool that declares one (from
    /// `list_all_tools`), through the process-wide cache. A schema that does not compile
    /// is kept as a problem: results of that tool are then reported, never passed
    /// unchecked.
    pub fn new(tools: &[Tool]) -> OutputSchemas {
        OutputSchemas::with_cache(tools, &process_cache())
    }

    /// [`new`](OutputSchemas::new) through `cache` instead of the process-wide one: a
    /// client of many servers bounds what it keeps per server, or shares one cache with
    /// its own [`mcp::Guard`](mcp_jsonschema::mcp::Guard)s.
    ///
    /// ```
    /// use mcp_jsonschema_rmcp::mcp_jsonschema::mcp::SchemaCache;
    /// use mcp_jsonschema_rmcp::OutputSchemas;
    ///
    /// let cache = SchemaCache::new(64);
    /// let schemas = OutputSchemas::with_cache(&[], &cache);
    /// # let _ = schemas;
    /// ```
    pub fn with_cache(tools: &[Tool], cache: &SchemaCache) -> OutputSchemas {
        let compiled = tools.iter().filter_map(|tool| {
            let schema = tool.output_schema.as_ref()?;
            let compiled = compile(cache, Role::Output, schema).map_err(Arc::new);
            Some((tool.name.to_string(), compiled))
        });
        OutputSchemas {
            tools: compiled.collect(),
        }
    }

    /// Checks the result of a call to `tool`. Unknown tools, tools without an output
    /// schema and error results pass untouched; otherwise the structured content must be
    /// present and conform.
    ///
    /// # Errors
    ///
    /// An [`OutputError`] when the tool's output schema did not compile, the result has
    /// no structured content, or its structured content breaks the schema.
    pub fn check(&self, tool: &str, result: &CallToolResult) -> Result<(), OutputError> {
        let Some(schema) = self.tools.get(tool) else {
            return Ok(());
        };
        if result.is_error == Some(true) {
            return Ok(());
        }
        let problem = match (schema, &result.structured_content) {
            (Err(error), _) => OutputProblem::Schema(Arc::clone(error)),
            (Ok(_), None) => OutputProblem::Missing,
            (Ok(schema), Some(structured)) => {
                let errors: Vec<ValidationError> = schema.iter_errors(structured).collect();
                if errors.is_empty() {
                    return Ok(());
                }
                OutputProblem::Invalid(errors)
            }
        };
        Err(OutputError {
            tool: tool.to_string(),
            problem,
        })
    }
}

/// A result its tool's output schema does not let through.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct OutputError {
    /// The tool called.
    pub tool: String,
    /// What is wrong.
    pub problem: OutputProblem,
}

/// What is wrong with a result, for [`OutputError`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum OutputProblem {
    /// The tool's `outputSchema` does not compile under the MCP profile, so no result of
    /// it can be checked.
    Schema(Arc<SchemaError>),
    /// The tool declares an `outputSchema` but the result has no `structuredContent`.
    Missing,
    /// The structured content breaks the output schema: each error, with its instance
    /// and schema locations (`error.masked()` for a log that must not hold the result's
    /// values).
    Invalid(Vec<ValidationError>),
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "tool {:?}: ", self.tool)?;
        match &self.problem {
            OutputProblem::Schema(error) => {
                write!(
                    f,
                    "its outputSchema does not compile under the MCP profile: {error}"
                )
            }
            OutputProblem::Missing => f.write_str(
                "the tool declares an outputSchema but the result has no structuredContent",
            ),
            OutputProblem::Invalid(errors) => {
                f.write_str("returned a result its outputSchema rejects: ")?;
                for (i, error) in errors.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{error}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            OutputProblem::Schema(error) => Some(&**error),
            OutputProblem::Invalid(errors) => errors.first().map(|e| e as _),
            OutputProblem::Missing => None,
        }
    }
}

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
///
/// # Errors
///
/// [`CallError::Service`] when the call fails, [`CallError::Output`] when its result does
/// not pass [`OutputSchemas::check`].
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
