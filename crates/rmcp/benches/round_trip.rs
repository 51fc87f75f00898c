//! What validation adds to one `tools/call` round trip: a real rmcp server and client in
//! process over `tokio::io::duplex` (current-thread runtime), the same tool served
//! through rmcp's `ToolRouter` and through `ValidatedRouter`; beside them, the argument
//! check alone and rmcp's own deserialization of the same arguments into the tool's
//! parameter type.
//!
//! `cargo bench -p mcp-jsonschema-rmcp --bench round_trip`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use mcp_jsonschema::mcp::ToolSchema;
use mcp_jsonschema_rmcp::ValidatedRouter;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientConfig, InitializeResult, JsonObject,
    ProtocolVersion, Tool,
};
use rmcp::schemars::{self, JsonSchema};
use rmcp::service::{serve_directly, RoleClient, RoleServer, RunningService};
use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Metric,
    Imperial,
}

#[derive(Deserialize, JsonSchema)]
struct Forecast {
    city: String,
    country: Option<String>,
    units: Option<Units>,
    #[schemars(range(min = 1, max = 24))]
    hours: u32,
}

#[derive(Serialize, JsonSchema)]
struct Hour {
    hour: String,
    temp: f64,
}

/// The router a server runs: rmcp's own, or the validated one.
#[derive(Clone)]
enum Router {
    Plain(ToolRouter<Weather>),
    Validated(ValidatedRouter<Weather>),
}

impl Router {
    async fn call(
        &self,
        context: ToolCallContext<'_, Weather>,
    ) -> Result<CallToolResponse, ErrorData> {
        match self {
            Router::Plain(router) => router.call(context).await,
            Router::Validated(router) => router.call(context).await,
        }
    }

    fn list_all(&self) -> Vec<Tool> {
        match self {
            Router::Plain(router) => router.list_all(),
            Router::Validated(router) => router.list_all(),
        }
    }

    fn get(&self, name: &str) -> Option<&Tool> {
        match self {
            Router::Plain(router) => router.get(name),
            Router::Validated(router) => router.get(name),
        }
    }
}

#[derive(Clone)]
struct Weather {
    router: Router,
}

#[tool_router]
impl Weather {
    /// Hourly forecast.
    #[tool(name = "get-weather-forecast")]
    async fn forecast(&self, Parameters(request): Parameters<Forecast>) -> Json<Vec<Hour>> {
        let fahrenheit = matches!(request.units, Some(Units::Imperial));
        let place = format!("{}, {}", request.city, request.country.unwrap_or_default());
        let hours = (0..request.hours).map(|h| {
            let celsius = 14.5 + f64::from(h);
            Hour {
                hour: format!("{:02}:00 in {place}", 9 + h),
                temp: if fahrenheit {
                    celsius * 1.8 + 32.0
                } else {
                    celsius
                },
            }
        });
        Json(hours.collect())
    }
}

#[tool_handler(router = self.router)]
impl ServerHandler for Weather {}

/// A client on protocol 2026-07-28 (rmcp's `ClientConfig` is a client handler), agreed
/// up front with a server running `router` in a task.
fn connect(router: Router) -> RunningService<RoleClient, ClientConfig> {
    let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
    let mut client_info = ClientConfig::default();
    client_info.protocol_version = ProtocolVersion::V_2026_07_28;
    let mut server_info = InitializeResult::default();
    server_info.protocol_version = client_info.protocol_version.clone();
    let server = Weather { router };
    let server = serve_directly::<RoleServer, _, _, _, _>(
        server,
        server_transport,
        Some(client_info.clone()),
    );
    tokio::spawn(server.waiting());
    serve_directly::<RoleClient, _, _, _, _>(
        client_info,
        client_transport,
        Some(server_info.into()),
    )
}

fn arguments() -> JsonObject {
    let arguments = json!({"city": "Oslo", "country": "NO", "units": "metric", "hours": 3});
    arguments.as_object().cloned().unwrap_or_default()
}

fn round_trip(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let validated = ValidatedRouter::new(Weather::tool_router()).expect("schemas compile");
    let routers = [
        ("rmcp ToolRouter", Router::Plain(Weather::tool_router())),
        ("ValidatedRouter", Router::Validated(validated)),
    ];
    let mut group = c.benchmark_group("tools_call_round_trip");
    for (label, router) in routers {
        let client = runtime.block_on(async { connect(router) });
        group.bench_function(label, |b| {
            b.iter(|| {
                let call =
                    CallToolRequestParams::new("get-weather-forecast").with_arguments(arguments());
                let result = runtime.block_on(client.call_tool(call));
                assert!(result.is_ok_and(|r| r.is_error != Some(true)));
            })
        });
        runtime.block_on(async { drop(client.cancel().await) });
    }
    group.finish();

    // The parts, on the same arguments: our check, and rmcp's typed deserialization.
    let tool = Weather::tool_router().list_all().remove(0);
    let schema = ToolSchema::input(&Value::Object((*tool.input_schema).clone()))
        .expect("the schema compiles");
    let mut group = c.benchmark_group("tools_call_parts");
    let mut held = Some(arguments());
    group.bench_function("ToolSchema::arguments_errors", |b| {
        b.iter(|| assert!(schema.arguments_errors(&mut held).is_empty()))
    });
    group.bench_function("serde_json::from_value into the parameters", |b| {
        b.iter_batched(
            arguments,
            |arguments| serde_json::from_value::<Forecast>(Value::Object(arguments)).is_ok(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, round_trip);
criterion_main!(benches);
