//! The server side: [`ValidatedRouter`], a drop-in for rmcp's `ToolRouter`.

use crate::{compile, field, process_cache};
use mcp_jsonschema::mcp::{invalid_arguments_text, text_fallback, Role, SchemaCache, ToolSchema};
use mcp_jsonschema::{SchemaError, ValidationError};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, Tool};
use rmcp::ErrorData;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// What to do when a tool returns `structured_content` that its `outputSchema` rejects:
/// a server bug, not the model's mistake.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum OutputPolicy {
    /// Answer the call with an internal error naming each problem (the default): a
    /// client never receives a result that breaks the tool's promise.
    #[default]
    FailCall,
    /// Log each problem (`tracing`, level `warn`) and send the result as it is. The log
    /// is masked ([`ValidationError::masked`](mcp_jsonschema::ValidationError::masked)):
    /// tool results carry file contents, tokens and personal data, so each problem names
    /// types, lengths, JSON Pointers and the schema's own values, never the result's
    /// (`/temp: expected number, got string`).
    LogAndPass,
    /// [`LogAndPass`](OutputPolicy::LogAndPass) with each problem quoting the offending
    /// value (`/temp: expected number, got string "warm"`), for logs that may hold what
    /// the tools return.
    LogUnmaskedAndPass,
}

/// A tool schema that does not compile under the MCP profile: which tool, which schema,
/// and the library's error (with its JSON Pointer).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ToolSchemaError {
    /// The tool's name.
    pub tool: String,
    /// Which of its schemas: [`Role::Input`] for `inputSchema`, [`Role::Output`] for
    /// `outputSchema`.
    pub role: Role,
    /// Why it does not compile.
    pub error: SchemaError,
}

impl std::fmt::Display for ToolSchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tool {:?}: {}: {}",
            self.tool,
            field(self.role),
            self.error
        )
    }
}

impl std::error::Error for ToolSchemaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// A tool's compiled schemas and its listing with both in wire form.
#[derive(Clone, Debug)]
struct Checked {
    input: Arc<ToolSchema>,
    output: Option<Arc<ToolSchema>>,
    listed: Tool,
}

/// rmcp's `ToolRouter` with every tool's schemas compiled and enforced: use it where the
/// router was (`#[tool_handler(router = self.tool_router)]` calls its `call`, `list_all`
/// and `get`). See the [crate docs](crate) for the two-line change to a server.
pub struct ValidatedRouter<S> {
    router: ToolRouter<S>,
    tools: HashMap<String, Checked>,
    output_policy: OutputPolicy,
    cache: Arc<SchemaCache>,
}

impl<S> std::fmt::Debug for ValidatedRouter<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut tools: Vec<&String> = self.tools.keys().collect();
        tools.sort();
        (f.debug_struct("ValidatedRouter"))
            .field("tools", &tools)
            .field("output_policy", &self.output_policy)
            .finish()
    }
}

impl<S> Clone for ValidatedRouter<S> {
    fn clone(&self) -> Self {
        // By hand: a derive would ask for `S: Clone`, which the router does not need.
        ValidatedRouter {
            router: self.router.clone(),
            tools: self.tools.clone(),
            output_policy: self.output_policy,
            cache: Arc::clone(&self.cache),
        }
    }
}

impl<S> ValidatedRouter<S>
where
    S: Send + Sync + 'static,
{
    /// Compiles the schemas of every tool of `router` under the MCP profile, through the
    /// process-wide cache.
    ///
    /// # Errors
    ///
    /// A [`ToolSchemaError`] naming the first tool with a schema that does not compile:
    /// it fails now, when the server is built, rather than at the tool's first call.
    pub fn new(router: ToolRouter<S>) -> Result<Self, ToolSchemaError> {
        ValidatedRouter::with_cache(router, process_cache())
    }

    /// [`new`](ValidatedRouter::new) through `cache` instead of the process-wide one (a
    /// gateway that hosts many routers bounds what each keeps, or gives them one cache of
    /// its own).
    ///
    /// ```
    /// use mcp_jsonschema_rmcp::mcp_jsonschema::mcp::SchemaCache;
    /// use mcp_jsonschema_rmcp::ValidatedRouter;
    /// use rmcp::handler::server::router::tool::ToolRouter;
    /// use std::sync::Arc;
    ///
    /// struct Server;
    /// let cache = Arc::new(SchemaCache::new(256));
    /// let router = ValidatedRouter::with_cache(ToolRouter::<Server>::new(), cache).unwrap();
    /// assert!(router.list_all().is_empty());
    /// ```
    ///
    /// # Errors
    ///
    /// As [`new`](ValidatedRouter::new).
    pub fn with_cache(
        router: ToolRouter<S>,
        cache: Arc<SchemaCache>,
    ) -> Result<Self, ToolSchemaError> {
        let mut validated = ValidatedRouter {
            router,
            tools: HashMap::new(),
            output_policy: OutputPolicy::default(),
            cache,
        };
        validated.recompile()?;
        Ok(validated)
    }

    /// What to do with structured content that the output schema rejects.
    #[must_use]
    pub fn with_output_policy(mut self, policy: OutputPolicy) -> Self {
        self.output_policy = policy;
        self
    }

    /// Changes the tool list (add or remove routes, enable or disable tools), then
    /// compiles the schemas again: unchanged schemas come from the cache.
    ///
    /// # Errors
    ///
    /// As [`new`](ValidatedRouter::new); the router keeps the change and its previous
    /// compiled tools then.
    pub fn update(
        &mut self,
        change: impl FnOnce(&mut ToolRouter<S>),
    ) -> Result<(), ToolSchemaError> {
        change(&mut self.router);
        self.recompile()
    }

    fn recompile(&mut self) -> Result<(), ToolSchemaError> {
        let mut tools = HashMap::new();
        for tool in self.router.list_all() {
            let compiled = |role, schema| {
                compile(&self.cache, role, schema).map_err(|error| ToolSchemaError {
                    tool: tool.name.to_string(),
                    role,
                    error,
                })
            };
            let input = compiled(Role::Input, &tool.input_schema)?;
            let output = match &tool.output_schema {
                Some(schema) => Some(compiled(Role::Output, schema)?),
                None => None,
            };
            let mut listed = tool.clone();
            listed.input_schema = wire(&input);
            listed.output_schema = output.as_ref().map(|output| wire(output));
            let checked = Checked {
                input,
                output,
                listed,
            };
            tools.insert(tool.name.to_string(), checked);
        }
        self.tools = tools;
        Ok(())
    }

    /// Runs the call: arguments first (a failure is answered as a tool error the model
    /// can act on, one line per error, and the tool does not run), then the tool, then its
    /// structured content against the output schema, and the text fallback.
    pub async fn call(
        &self,
        mut context: ToolCallContext<'_, S>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(checked) = self.tools.get(context.name()) else {
            // Unknown or disabled: rmcp's own answer.
            return self.router.call(context).await;
        };
        let errors = checked.input.arguments_errors(&mut context.arguments);
        if !errors.is_empty() {
            let text = invalid_arguments_text(context.name(), &errors);
            return Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into());
        }
        let name = context.name().to_string();
        let mut response = self.router.call(context).await?;
        if let CallToolResponse::Complete(result) = &mut response {
            self.finish(&name, checked, result)?;
        }
        Ok(response)
    }

    /// Checks a finished call's structured content and adds its text fallback.
    fn finish(
        &self,
        name: &str,
        checked: &Checked,
        result: &mut CallToolResult,
    ) -> Result<(), ErrorData> {
        let Some(structured) = &result.structured_content else {
            return Ok(());
        };
        if let (Some(output), false) = (&checked.output, result.is_error == Some(true)) {
            let errors: Vec<ValidationError> = output.iter_listed_errors(structured).collect();
            if !errors.is_empty() {
                let problems: Vec<String> = match self.output_policy {
                    OutputPolicy::LogAndPass => (errors.iter())
                        .map(|error| error.masked().to_string())
                        .collect(),
                    OutputPolicy::FailCall | OutputPolicy::LogUnmaskedAndPass => {
                        errors.iter().map(ValidationError::to_string).collect()
                    }
                };
                let message = format!(
                    "tool {name:?} returned structured content that its outputSchema rejects: {}",
                    problems.join("; ")
                );
                match self.output_policy {
                    OutputPolicy::FailCall => return Err(ErrorData::internal_error(message, None)),
                    OutputPolicy::LogAndPass | OutputPolicy::LogUnmaskedAndPass => {
                        tracing::warn!("{message}")
                    }
                }
            }
        }
        // With a text block already there, nothing to add (and nothing to convert).
        if result.content.iter().any(|block| block.as_text().is_some()) {
            return Ok(());
        }
        let content: Vec<Value> = (result.content.iter())
            .filter_map(|block| serde_json::to_value(block).ok())
            .collect();
        if let Some(fallback) = text_fallback(structured, &content) {
            let text = fallback
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or_default();
            result.content.push(ContentBlock::text(text));
        }
        Ok(())
    }

    /// Every enabled tool, each schema in its wire form (`$schema` and the root type the
    /// MCP rules give it), for `tools/list`.
    pub fn list_all(&self) -> Vec<Tool> {
        let mut tools: Vec<Tool> = self.tools.values().map(|c| c.listed.clone()).collect();
        tools.sort_by(|a, b| a.name.cmp(&b.name));
        tools
    }

    /// The listing of tool `name`, if it exists and is enabled.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name).map(|checked| &checked.listed)
    }

    /// The compiled schemas of tool `name`: its input schema and its output schema, if
    /// it declares one.
    pub fn schemas(&self, name: &str) -> Option<(&ToolSchema, Option<&ToolSchema>)> {
        let checked = self.tools.get(name)?;
        Some((&checked.input, checked.output.as_deref()))
    }
}

/// A compiled schema's wire form as rmcp keeps schemas.
fn wire(schema: &ToolSchema) -> Arc<serde_json::Map<String, Value>> {
    Arc::new(schema.to_wire().as_object().cloned().unwrap_or_default())
}
