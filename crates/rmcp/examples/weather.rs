//! An rmcp server with the SEP-2106 demo tools, validated by `ValidatedRouter`, and an
//! rmcp client calling them through `call_tool`, connected in process.
//!
//! Run with `cargo run -p mcp-jsonschema-rmcp --example weather`.

use mcp_jsonschema_rmcp::{call_tool, OutputSchemas, ToolSchemaError, ValidatedRouter};
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    CallToolRequestParams, ClientConfig, InitializeResult, JsonObject, ProtocolVersion,
};
use rmcp::schemars::{self, JsonSchema};
use rmcp::service::{serve_directly, RoleClient, RoleServer};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Deserialize, JsonSchema)]
struct Forecast {
    city: String,
    #[schemars(range(min = 1, max = 24))]
    hours: Option<u32>,
}

#[derive(Serialize, JsonSchema)]
struct Hour {
    hour: String,
    temp: f64,
    conditions: String,
}

/// Exactly one of `id` and `name`.
#[derive(Deserialize, JsonSchema)]
#[schemars(extend("oneOf" = [{"required": ["id"]}, {"required": ["name"]}]))]
struct Find {
    id: Option<i64>,
    name: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct Record {
    id: i64,
    name: String,
}

#[derive(Clone)]
struct Weather {
    tool_router: ValidatedRouter<Self>,
}

#[tool_router]
impl Weather {
    fn new() -> Result<Self, ToolSchemaError> {
        Ok(Weather {
            tool_router: ValidatedRouter::new(Self::tool_router())?,
        })
    }

    /// Hourly forecast for a city: an array result.
    #[tool(name = "get-weather-forecast")]
    async fn forecast(&self, Parameters(request): Parameters<Forecast>) -> Json<Vec<Hour>> {
        let hours = (0..request.hours.unwrap_or(3)).map(|h| Hour {
            hour: format!("{:02}:00", 9 + h),
            temp: 14.5 + f64::from(h),
            conditions: format!("cloudy in {}", request.city),
        });
        Json(hours.collect())
    }

    /// A bare number result.
    #[tool(name = "get-count")]
    async fn count(&self) -> Json<i64> {
        Json(42)
    }

    /// A record by its id or by its name, not both.
    #[tool(name = "find-by-id-or-name")]
    async fn find(&self, Parameters(find): Parameters<Find>) -> Json<Record> {
        Json(Record {
            id: find.id.unwrap_or(7),
            name: find.name.unwrap_or_else(|| "seven".into()),
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Weather {}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The server and the client, on protocol 2026-07-28, in one process. That version
    // has no `initialize` handshake: it is agreed up front. (rmcp's `ClientConfig` is
    // itself a client handler.)
    let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
    let mut client_info = ClientConfig::default();
    client_info.protocol_version = ProtocolVersion::V_2026_07_28;
    let mut server_info = InitializeResult::default();
    server_info.protocol_version = ProtocolVersion::V_2026_07_28;
    let server = serve_directly::<RoleServer, _, _, _, _>(
        Weather::new()?,
        server_transport,
        Some(client_info.clone()),
    );
    tokio::spawn(server.waiting());
    let client = serve_directly::<RoleClient, _, _, _, _>(
        client_info,
        client_transport,
        Some(server_info.into()),
    );

    let tools = client.list_all_tools().await?;
    for tool in &tools {
        println!(
            "tool {}: inputSchema {}",
            tool.name,
            json!(tool.input_schema)
        );
    }
    let schemas = OutputSchemas::new(&tools);
    let calls = [
        ("get-weather-forecast", json!({"city": "Oslo", "hours": 2})),
        ("get-weather-forecast", json!({"hours": 48})),
        ("get-count", json!({})),
        ("find-by-id-or-name", json!({"id": 7})),
        ("find-by-id-or-name", json!({"id": 7, "name": "seven"})),
    ];
    for (name, arguments) in calls {
        println!("\ncall {name} with {arguments}");
        let arguments: JsonObject = arguments.as_object().cloned().unwrap_or_default();
        let call = CallToolRequestParams::new(name).with_arguments(arguments);
        let result = call_tool(client.peer(), &schemas, call).await?;
        let texts = result.content.iter().filter_map(|block| block.as_text());
        for text in texts {
            let label = if result.is_error == Some(true) {
                "tool error"
            } else {
                "text"
            };
            println!("  {label}: {}", text.text.replace('\n', "\n    "));
        }
        if let Some(structured) = &result.structured_content {
            println!("  structuredContent: {structured}");
        }
    }
    client.cancel().await?;
    Ok(())
}
