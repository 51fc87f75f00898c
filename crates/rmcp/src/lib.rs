//! Validated MCP tool calls in [rmcp](https://crates.io/crates/rmcp), the official Rust MCP
//! SDK, with [`mcp_jsonschema`]'s MCP profile.
//!
//! rmcp checks no tool argument or structured result against its schema. This crate adds
//! both, where rmcp's users already are:
//!
//! - **Servers**: [`ValidatedRouter`] wraps the `ToolRouter` that `#[tool_router]`
//!   generates. It compiles every tool's `inputSchema` and `outputSchema` once, when it is
//!   built (a schema that does not compile is an error then, not at the tool's first
//!   call); answers a call whose arguments do not conform with `is_error: true` and one
//!   line per error, before the tool's code or serde runs; checks `structured_content`
//!   against the output schema before the result leaves ([`OutputPolicy`]); adds the text
//!   fallback for structured content without a text block; and lists each schema in its
//!   wire form. The change to a server is its router field's type and one `?`:
//!
//! ```ignore
//! #[derive(Clone)]
//! struct Weather {
//!     tool_router: ValidatedRouter<Self>, // was ToolRouter<Self>
//! }
//!
//! #[tool_router]
//! impl Weather {
//!     fn new() -> Result<Self, ToolSchemaError> {
//!         Ok(Weather { tool_router: ValidatedRouter::new(Self::tool_router())? })
//!     }
//!     // #[tool] methods, unchanged
//! }
//!
//! #[tool_handler(router = self.tool_router)] // unchanged
//! impl ServerHandler for Weather {}
//! ```
//!
//! - **Clients**: [`OutputSchemas`] compiles the output schemas of a `tools/list`, and
//!   [`call_tool`] checks each result's `structured_content` against its tool's schema,
//!   returning a typed error that names the tool and each problem.
//!
//! Schemas are compiled under the MCP profile ([`mcp_jsonschema::mcp::profile`]) through
//! a cache keyed by their content (one per process, or the caller's:
//! [`ValidatedRouter::with_cache`], [`OutputSchemas::with_cache`]), so a server that
//! rebuilds its router, or a client that lists tools again, pays for each distinct schema
//! once.

#![deny(missing_docs)]

mod client;
mod server;

pub use client::{call_tool, CallError, OutputError, OutputProblem, OutputSchemas};
/// The validator this crate is built on, re-exported so that its types in this crate's
/// API ([`ToolSchemaError`]'s [`SchemaError`](mcp_jsonschema::SchemaError), the
/// [`ValidationError`](mcp_jsonschema::ValidationError)s behind a problem) can be named
/// without a second dependency, at the same version:
///
/// ```
/// use mcp_jsonschema_rmcp::mcp_jsonschema::mcp;
///
/// let weather = serde_json::json!({"type": "object", "required": ["city"]});
/// let validator = mcp::profile().build(&weather).unwrap();
/// assert!(!validator.is_valid(&serde_json::json!({})));
/// ```
pub use mcp_jsonschema;
pub use server::{OutputPolicy, ToolSchemaError, ValidatedRouter};

use mcp_jsonschema::mcp::{Role, SchemaCache, ToolSchema};
use mcp_jsonschema::SchemaError;
use serde_json::{Map, Value};
use std::sync::{Arc, OnceLock};

/// Distinct schemas kept compiled by the process-wide cache: far more than any server
/// lists, and a bound on what a client talking to many servers keeps.
const CACHED_SCHEMAS: usize = 4096;

/// The cache that [`ValidatedRouter::new`] and [`OutputSchemas::new`] share, one per
/// process ([`ValidatedRouter::with_cache`] and [`OutputSchemas::with_cache`] take
/// another).
fn process_cache() -> Arc<SchemaCache> {
    static CACHE: OnceLock<Arc<SchemaCache>> = OnceLock::new();
    Arc::clone(CACHE.get_or_init(|| Arc::new(SchemaCache::new(CACHED_SCHEMAS))))
}

/// `schema` compiled for `role` under the MCP profile, through `cache`.
fn compile(
    cache: &SchemaCache,
    role: Role,
    schema: &Map<String, Value>,
) -> Result<Arc<ToolSchema>, SchemaError> {
    // rmcp keeps schemas as maps; the library reads values. One copy per compile (a cache
    // hit included, for its digest), never per call.
    cache.get_or_compile(role, &Value::Object(schema.clone()))
}

/// The name of the field of a tool that holds the schema of `role`.
fn field(role: Role) -> &'static str {
    match role {
        Role::Input => "inputSchema",
        Role::Output => "outputSchema",
    }
}
