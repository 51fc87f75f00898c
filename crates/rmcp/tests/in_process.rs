//! A real rmcp server and a real rmcp client, connected in process over
//! `tokio::io::duplex`, with tools defined by rmcp's own macros and schemars types: valid
//! calls reach the tool, invalid ones come back as tool errors with one line per error
//! (a serde tagged enum's failure as the model should read it), a wrong structured result
//! is caught on both sides (or logged, masked by default), and every schema rmcp
//! generates compiles under the MCP profile.

use mcp_jsonschema_rmcp::mcp_jsonschema::mcp::{Role, SchemaCache};
use mcp_jsonschema_rmcp::{
    call_tool, CallError, OutputPolicy, OutputProblem, OutputSchemas, ValidatedRouter,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, InitializeResult, JsonObject,
    ProtocolVersion,
};
use rmcp::schemars::{self, JsonSchema};
use rmcp::service::{serve_directly, RoleClient, RoleServer, RunningService, ServiceError};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Units {
    Metric,
    Imperial,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Place {
    city: String,
    country: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct ForecastRequest {
    place: Place,
    units: Option<Units>,
    #[schemars(range(min = 1, max = 24))]
    hours: u32,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Hour {
    hour: String,
    temp: f64,
    conditions: String,
}

/// A recursive type: a tree of names.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Node {
    name: String,
    children: Vec<Node>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct Size {
    count: usize,
}

/// The output schema the buggy tool declares.
fn temperature_schema() -> Arc<JsonObject> {
    let schema =
        json!({"type": "object", "properties": {"temp": {"type": "number"}}, "required": ["temp"]});
    Arc::new(schema.as_object().cloned().unwrap_or_default())
}

#[derive(Clone)]
struct Weather {
    tool_router: ValidatedRouter<Self>,
    /// How many times a tool's own code ran.
    ran: Arc<AtomicUsize>,
}

#[tool_router]
impl Weather {
    fn new(policy: OutputPolicy) -> Self {
        let router = ValidatedRouter::new(Self::tool_router()).expect("every schema compiles");
        Weather {
            tool_router: router.with_output_policy(policy),
            ran: Arc::default(),
        }
    }

    /// Hourly forecast for a place.
    #[tool(name = "get-weather-forecast")]
    async fn forecast(&self, Parameters(request): Parameters<ForecastRequest>) -> Json<Vec<Hour>> {
        self.ran.fetch_add(1, Ordering::SeqCst);
        let hours = (0..request.hours).map(|h| Hour {
            hour: format!("{:02}:00", 9 + h),
            temp: 14.5 + f64::from(h),
            conditions: format!("cloudy in {}", request.place.city),
        });
        Json(hours.collect())
    }

    /// How many there are.
    #[tool(name = "get-count")]
    async fn count(&self) -> Json<i32> {
        self.ran.fetch_add(1, Ordering::SeqCst);
        Json(42)
    }

    /// The size of a tree.
    #[tool(name = "tree-size")]
    async fn tree_size(&self, Parameters(tree): Parameters<Node>) -> Json<Size> {
        self.ran.fetch_add(1, Ordering::SeqCst);
        fn count(node: &Node) -> usize {
            1 + node.children.iter().map(count).sum::<usize>()
        }
        Json(Size {
            count: count(&tree),
        })
    }

    /// A server bug: structured content that breaks the declared output schema.
    #[tool(name = "buggy-temperature", output_schema = temperature_schema())]
    async fn buggy(&self) -> CallToolResult {
        self.ran.fetch_add(1, Ordering::SeqCst);
        CallToolResult::structured(json!({"temp": "warm"}))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Weather {}

/// A serde internally tagged enum, as schemars derives its schema (`oneOf` of objects,
/// the tag a required `const`).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
struct DrawRequest {
    shape: Shape,
}

#[derive(Clone)]
struct Shapes {
    tool_router: ValidatedRouter<Self>,
}

#[tool_router]
impl Shapes {
    fn new() -> Self {
        let router = ValidatedRouter::new(Self::tool_router()).expect("every schema compiles");
        Shapes {
            tool_router: router,
        }
    }

    /// Draws a shape.
    #[tool(name = "draw")]
    async fn draw(&self, Parameters(request): Parameters<DrawRequest>) -> String {
        format!("{:?}", request.shape)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Shapes {}

/// The protocol before SEP-2106, where rmcp leaves non-object output schemas out of
/// `tools/list` and moves such results into `content[0]`; and the one with it.
const LEGACY: ProtocolVersion = ProtocolVersion::V_2025_11_25;
const SEP_2106: ProtocolVersion = ProtocolVersion::V_2026_07_28;

/// A client connected to `server` (running in a task) on `version`, agreed up front as
/// rmcp's own tests do (2026-07-28 has no `initialize` handshake).
/// (rmcp's `ClientConfig` is itself a client handler.)
fn connect(
    server: impl ServerHandler,
    version: ProtocolVersion,
) -> RunningService<RoleClient, ClientConfig> {
    let (server_transport, client_transport) = tokio::io::duplex(64 * 1024);
    let mut client_info = ClientConfig::default();
    client_info.protocol_version = version.clone();
    let mut server_info = InitializeResult::default();
    server_info.protocol_version = version;
    let server = serve_directly::<RoleServer, _, _, _, _>(
        server,
        server_transport,
        Some(client_info.clone()),
    );
    tokio::spawn(async move {
        let _ = server.waiting().await;
    });
    serve_directly::<RoleClient, _, _, _, _>(
        client_info,
        client_transport,
        Some(server_info.into()),
    )
}

fn arguments(value: Value) -> JsonObject {
    value.as_object().cloned().unwrap_or_default()
}

/// The text of a call that must come back as a tool error (not a protocol error).
async fn tool_error(
    client: &RunningService<RoleClient, ClientConfig>,
    call: CallToolRequestParams,
) -> String {
    let result = client
        .call_tool(call)
        .await
        .expect("a tool error, not a protocol error");
    assert_eq!(result.is_error, Some(true), "{result:?}");
    text_of(&result)
}

fn text_of(result: &CallToolResult) -> String {
    let texts = result.content.iter().filter_map(|block| block.as_text());
    texts
        .map(|text| text.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn valid_calls_reach_the_tool_and_invalid_ones_come_back_as_tool_errors() {
    let server = Weather::new(OutputPolicy::FailCall);
    let ran = server.ran.clone();
    let client = connect(server, SEP_2106);

    let call = CallToolRequestParams::new("get-weather-forecast").with_arguments(arguments(
        json!({"place": {"city": "Oslo"}, "units": "metric", "hours": 2}),
    ));
    let result = client.call_tool(call).await.expect("the call succeeds");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let hours = result
        .structured_content
        .clone()
        .expect("structured content");
    assert_eq!(hours.as_array().map(Vec::len), Some(2));
    assert_eq!(ran.load(Ordering::SeqCst), 1);

    let call = CallToolRequestParams::new("get-weather-forecast").with_arguments(arguments(
        json!({"place": {"country": "NO"}, "units": "kelvin", "hours": 48}),
    ));
    let text = tool_error(&client, call).await;
    assert!(
        text.starts_with("invalid arguments for tool \"get-weather-forecast\":\n"),
        "{text}"
    );
    for line in [
        "/hours: 48 is greater than the maximum of 24",
        "/place: missing required property \"city\"",
        "/units: ",
    ] {
        assert!(text.contains(line), "{line:?} in {text}");
    }
    // Neither the tool's code nor serde ran.
    assert_eq!(ran.load(Ordering::SeqCst), 1);

    // Missing arguments are validated as {}.
    let text = tool_error(&client, CallToolRequestParams::new("get-weather-forecast")).await;
    assert!(
        text.contains("(root): missing required property \"place\""),
        "{text}"
    );

    // A recursive type, valid and not.
    let tree = json!({"name": "a", "children": [{"name": "b", "children": []}]});
    let call = CallToolRequestParams::new("tree-size").with_arguments(arguments(tree));
    let result = client.call_tool(call).await.expect("the call succeeds");
    assert_eq!(result.structured_content, Some(json!({"count": 2})));
    let tree = json!({"name": "a", "children": [{"name": 7, "children": []}]});
    let call = CallToolRequestParams::new("tree-size").with_arguments(arguments(tree));
    let text = tool_error(&client, call).await;
    assert!(
        text.contains("/children/0/name: expected string, got integer 7"),
        "{text}"
    );
    client.cancel().await.expect("the client closes");
}

/// The case that showed the gap: a circle sent without its radius was told the circle's
/// error twice and the square's errors beside it; now once, as serde's one line would.
#[tokio::test]
async fn a_tagged_enum_is_told_once_and_by_its_tag() {
    let client = connect(Shapes::new(), SEP_2106);
    let draw = |shape: Value| {
        CallToolRequestParams::new("draw").with_arguments(arguments(json!({"shape": shape})))
    };
    let result = (client
        .call_tool(draw(json!({"type": "Circle", "radius": 1.5})))
        .await)
        .expect("the call succeeds");
    assert_eq!(text_of(&result), "Circle { radius: 1.5 }");
    assert_eq!(
        tool_error(&client, draw(json!({"type": "Circle"}))).await,
        "invalid arguments for tool \"draw\":\n\
         /shape: {\"type\":\"Circle\"} is not valid under any of the schemas in oneOf; \
         the closest is #0\n  \
         /shape: missing required property \"radius\""
    );
    assert_eq!(
        tool_error(&client, draw(json!({"radius": 1.5}))).await,
        "invalid arguments for tool \"draw\":\n\
         /shape: missing required property \"type\": expected one of \"Circle\", \"Square\""
    );
    assert_eq!(
        tool_error(&client, draw(json!({"type": "circle", "radius": 1.5}))).await,
        "invalid arguments for tool \"draw\":\n\
         /shape/type: expected one of \"Circle\", \"Square\", got \"circle\""
    );
    client.cancel().await.expect("the client closes");
}

#[tokio::test]
async fn tools_are_listed_in_wire_form_as_each_version_carries_them() {
    for version in [LEGACY, SEP_2106] {
        let client = connect(Weather::new(OutputPolicy::FailCall), version.clone());
        let tools = client.list_all_tools().await.expect("tools/list");
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "buggy-temperature",
                "get-count",
                "get-weather-forecast",
                "tree-size"
            ]
        );
        for tool in &tools {
            let input = &tool.input_schema;
            let dialect = json!("https://json-schema.org/draft/2020-12/schema");
            assert_eq!(input.get("$schema"), Some(&dialect), "{}", tool.name);
            assert_eq!(input.get("type"), Some(&json!("object")), "{}", tool.name);
        }
        let output = |name: &str| {
            let tool = tools.iter().find(|t| t.name == name).expect("listed");
            tool.output_schema
                .as_ref()
                .map(|schema| Value::Object((**schema).clone()))
        };
        // An integer result: carried from 2026-07-28 on, left out before.
        let count = output("get-count").map(|schema| schema["type"].clone());
        let expected = (version == SEP_2106).then(|| json!("integer"));
        assert_eq!(count, expected, "{version}");
        // An object result: carried by both.
        let buggy = output("buggy-temperature").expect("an object output schema");
        assert_eq!(
            buggy["$schema"],
            json!("https://json-schema.org/draft/2020-12/schema")
        );
        client.cancel().await.expect("the client closes");
    }
}

#[tokio::test]
#[allow(clippy::await_holding_lock)] // See `LOGGING`.
async fn structured_content_is_checked_on_both_sides_in_both_versions() {
    let _turn = LOGGING.lock().unwrap_or_else(|e| e.into_inner());
    for version in [LEGACY, SEP_2106] {
        // The server refuses to send the buggy result...
        let client = connect(Weather::new(OutputPolicy::FailCall), version.clone());
        let error = client
            .call_tool(CallToolRequestParams::new("buggy-temperature"))
            .await
            .expect_err("an internal error");
        let ServiceError::McpError(error) = error else {
            panic!("not the server's error: {error:?}");
        };
        let problem = "/temp: expected number, got string \"warm\"";
        assert!(error.message.contains(problem), "{version}: {error:?}");
        // ...a bare number gets its text fallback, and is structured content from
        // 2026-07-28 on...
        let result = (client
            .call_tool(CallToolRequestParams::new("get-count"))
            .await)
            .expect("the call succeeds");
        let expected = (version == SEP_2106).then(|| json!(42));
        assert_eq!(result.structured_content, expected, "{version}");
        assert_eq!(text_of(&result), "42");
        client.cancel().await.expect("the client closes");

        // ...and when the server lets it pass, the client catches it.
        let client = connect(Weather::new(OutputPolicy::LogAndPass), version.clone());
        let tools = client.list_all_tools().await.expect("tools/list");
        let schemas = OutputSchemas::new(&tools);
        let call = CallToolRequestParams::new("buggy-temperature");
        let error = call_tool(client.peer(), &schemas, call)
            .await
            .expect_err("caught");
        let CallError::Output(error) = error else {
            panic!("not an output error: {error:?}");
        };
        assert_eq!(error.tool, "buggy-temperature");
        let OutputProblem::Invalid(errors) = &error.problem else {
            panic!("not a schema violation: {error:?}");
        };
        let problems: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(problems, [problem]);
        assert_eq!(errors[0].instance_location(), "/temp");
        assert_eq!(
            error.to_string(),
            format!(
                "tool \"buggy-temperature\": returned a result its outputSchema rejects: {problem}"
            )
        );
        // No structured content at all is a problem of its own.
        let bare = CallToolResult::success(Vec::new());
        let missing = schemas
            .check("buggy-temperature", &bare)
            .expect_err("no content");
        assert!(
            matches!(missing.problem, OutputProblem::Missing),
            "{missing:?}"
        );
        // Conforming results, and what a version does not carry, pass.
        for name in ["get-count", "get-weather-forecast"] {
            let arguments = arguments(json!({"place": {"city": "Lima"}, "hours": 1}));
            let call = CallToolRequestParams::new(name).with_arguments(arguments);
            let result = call_tool(client.peer(), &schemas, call).await;
            assert!(result.is_ok(), "{version} {name}: {result:?}");
        }
        let unknown = CallToolResult::structured(json!("anything"));
        assert!(schemas.check("no-such-tool", &unknown).is_ok());
        client.cancel().await.expect("the client closes");
    }
}

/// The `warn` events this crate logs, as text: a subscriber of its own (for the current
/// thread, where a current-thread runtime runs the server too).
#[derive(Clone, Default)]
struct Warnings(Arc<Mutex<Vec<String>>>);

/// Taken by the tests that make the server log, so that they take turns: `tracing` keeps
/// whether a log call has a subscriber process-wide, and a thread that first reaches the
/// call while another sets its subscriber can leave it "none" for both. Each test holds
/// it across its awaits, which cannot deadlock: each runs on a runtime of its own, and
/// takes it once, first.
static LOGGING: Mutex<()> = Mutex::new(());

impl Warnings {
    fn taken(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl tracing::Subscriber for Warnings {
    fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
        *metadata.level() == tracing::Level::WARN
            && metadata.target().starts_with("mcp_jsonschema_rmcp")
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        struct Message(String);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        let mut message = Message(String::new());
        event.record(&mut message);
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(message.0);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[tokio::test]
#[allow(clippy::await_holding_lock)] // See `LOGGING`.
async fn log_and_pass_logs_masked_problems_unless_told_otherwise() {
    let _turn = LOGGING.lock().unwrap_or_else(|e| e.into_inner());
    let warnings = Warnings::default();
    let _logging = tracing::subscriber::set_default(warnings.clone());
    let prefix = "tool \"buggy-temperature\" returned structured content that its \
                  outputSchema rejects: ";
    for (policy, problem) in [
        (
            OutputPolicy::LogAndPass,
            "/temp: expected number, got string",
        ),
        (
            OutputPolicy::LogUnmaskedAndPass,
            "/temp: expected number, got string \"warm\"",
        ),
    ] {
        let client = connect(Weather::new(policy), SEP_2106);
        let result = (client
            .call_tool(CallToolRequestParams::new("buggy-temperature"))
            .await)
            .expect("passed on");
        assert_eq!(result.structured_content, Some(json!({"temp": "warm"})));
        client.cancel().await.expect("the client closes");
        assert_eq!(
            warnings.taken(),
            [format!("{prefix}{problem}")],
            "{policy:?}"
        );
    }
}

#[test]
fn a_schema_that_does_not_compile_is_refused_when_the_router_is_built() {
    #[derive(Clone)]
    struct Broken;
    fn remote_reference() -> Arc<JsonObject> {
        let schema =
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}});
        Arc::new(schema.as_object().cloned().unwrap_or_default())
    }
    #[tool_router]
    impl Broken {
        #[tool(name = "fetches", input_schema = remote_reference())]
        async fn fetches(&self) -> String {
            String::new()
        }
    }
    let error = ValidatedRouter::new(Broken::tool_router()).expect_err("refused");
    assert_eq!(error.tool, "fetches");
    assert_eq!(error.role, Role::Input);
    assert_eq!(error.error.location(), "/properties/a/$ref");
    assert!(
        error
            .to_string()
            .starts_with("tool \"fetches\": inputSchema: "),
        "{error}"
    );

    // A change to the tool list is compiled when it is made, and so refused too.
    let mut router = ValidatedRouter::new(ToolRouter::<Broken>::new()).expect("no tools");
    assert!(router.list_all().is_empty());
    let error = router
        .update(|tools| tools.merge(Broken::tool_router()))
        .expect_err("refused");
    assert_eq!(error.tool, "fetches");
}

#[test]
fn a_changed_tool_list_is_listed_and_enforced() {
    let weather = Weather::new(OutputPolicy::FailCall);
    let mut router = weather.tool_router;
    assert!(router.get("get-count").is_some());
    router
        .update(|tools| {
            tools.disable_route("get-count");
            tools.remove_route("tree-size");
        })
        .expect("the rest still compiles");
    let names: Vec<String> = router
        .list_all()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(names, ["buggy-temperature", "get-weather-forecast"]);
    assert!(router.get("get-count").is_none() && router.schemas("tree-size").is_none());
    let (input, output) = router.schemas("get-weather-forecast").expect("compiled");
    assert!(!input.is_valid(&json!({"hours": 2})));
    assert!(output.is_some_and(|output| output.is_valid(&json!([]))));
}

/// A router and a client given a cache of their own compile into it, one entry per
/// distinct schema, and a second listing compiles nothing new.
#[tokio::test]
async fn a_callers_cache_holds_what_the_router_and_the_client_compile() {
    let cache = Arc::new(SchemaCache::new(64));
    let router = ValidatedRouter::with_cache(Weather::tool_router(), Arc::clone(&cache))
        .expect("every schema compiles");
    // One entry per distinct schema (by role and content) the tools declare.
    let declared = Weather::tool_router().list_all();
    let distinct: std::collections::BTreeSet<(bool, String)> = (declared.iter())
        .flat_map(|tool| {
            let input = (true, json!(tool.input_schema).to_string());
            let output = (tool.output_schema.as_ref()).map(|s| (false, json!(s).to_string()));
            std::iter::once(input).chain(output)
        })
        .collect();
    assert_eq!(cache.len(), distinct.len());
    let listed = router.list_all();
    // The client compiles the wire forms (with `$schema`), into the same cache, once.
    let before = cache.len();
    let schemas = OutputSchemas::with_cache(&listed, &cache);
    let compiled = cache.len();
    assert!(
        compiled > before,
        "the client compiled into the caller's cache"
    );
    let _again = OutputSchemas::with_cache(&listed, &cache);
    assert_eq!(cache.len(), compiled, "listing again compiles nothing new");
    let bad = CallToolResult::structured(json!({"temp": "warm"}));
    let error = schemas
        .check("buggy-temperature", &bad)
        .expect_err("checked");
    assert!(
        matches!(error.problem, OutputProblem::Invalid(_)),
        "{error:?}"
    );
}
