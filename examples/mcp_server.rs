//! A small MCP-style tool server loop: `tools/list` with wire schemas, `tools/call` with
//! argument validation, and structured results mirrored as text for older clients.
//!
//! It serves the three demo tools of SEP-2106 (array output, bare integer output, and a
//! `oneOf` input) to a scripted client session and prints each JSON-RPC exchange.
//! Run with `cargo run --example mcp_server`.

use mcp_jsonschema::mcp::{check_tools_list, text_fallback, Role, SchemaCache};
use serde_json::{json, Value};

/// One tool: its definition as authored, and what it does.
struct Tool {
    definition: Value,
    run: fn(&Value) -> Value,
}

fn tools() -> Vec<Tool> {
    vec![
        Tool {
            definition: json!({
                "name": "get-weather-forecast",
                "description": "Hourly forecast for a city",
                "inputSchema": {"properties": {"city": {"type": "string"}, "hours": {"type": "integer", "minimum": 1, "maximum": 24}},
                                "required": ["city"]},
                "outputSchema": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"hour": {"type": "string"}, "temp": {"type": "number"}, "conditions": {"type": "string"}},
                    "required": ["hour", "temp", "conditions"]}}
            }),
            run: |args| {
                let hours = args.get("hours").and_then(Value::as_u64).unwrap_or(3);
                Value::Array((0..hours).map(|h| json!({"hour": format!("{:02}:00", 9 + h), "temp": 14.5 + h as f64, "conditions": "cloudy"})).collect())
            },
        },
        Tool {
            definition: json!({
                "name": "get-count",
                "inputSchema": {"type": "object"},
                "outputSchema": {"type": "integer"}
            }),
            run: |_| json!(42),
        },
        Tool {
            definition: json!({
                "name": "find-by-id-or-name",
                "inputSchema": {"type": "object",
                                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                                "oneOf": [{"required": ["id"]}, {"required": ["name"]}]},
                "outputSchema": {"properties": {"id": {"type": "integer"}, "name": {"type": "string"}}, "required": ["id", "name"]}
            }),
            run: |args| json!({"id": args.get("id").cloned().unwrap_or(json!(7)), "name": args.get("name").cloned().unwrap_or(json!("seven"))}),
        },
    ]
}

/// Answers one JSON-RPC request.
fn handle(request: &Value, tools: &[Tool], cache: &SchemaCache) -> Value {
    let id = request["id"].clone();
    let reply = |result: Value| json!({"jsonrpc": "2.0", "id": id, "result": result});
    match request["method"].as_str() {
        Some("tools/list") => {
            let listed: Vec<Value> = tools
                .iter()
                .map(|tool| {
                    let mut def = tool.definition.clone();
                    for (key, role) in
                        [("inputSchema", Role::Input), ("outputSchema", Role::Output)]
                    {
                        if let Some(schema) = tool.definition.get(key) {
                            // The checked list below guarantees these compile.
                            if let Ok(compiled) = cache.get_or_compile(role, schema) {
                                def[key] = compiled.to_wire().clone();
                            }
                        }
                    }
                    def
                })
                .collect();
            reply(json!({"tools": listed}))
        }
        Some("tools/call") => {
            let name = request["params"]["name"].as_str().unwrap_or_default();
            let arguments = request["params"]
                .get("arguments")
                .cloned()
                .unwrap_or(json!({}));
            let Some(tool) = tools.iter().find(|t| t.definition["name"] == name) else {
                return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32602, "message": format!("unknown tool {name:?}")}});
            };
            let input = match cache.get_or_compile(Role::Input, &tool.definition["inputSchema"]) {
                Ok(input) => input,
                Err(e) => {
                    return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": e.to_string()}})
                }
            };
            let problems: Vec<String> = input
                .iter_errors(&arguments)
                .map(|e| e.to_string())
                .collect();
            if !problems.is_empty() {
                // A tool execution error the model can read and act on, one line per problem.
                return reply(
                    json!({"isError": true, "content": [{"type": "text", "text": format!("invalid arguments:\n{}", problems.join("\n"))}]}),
                );
            }
            let structured = (tool.run)(&arguments);
            if let Some(schema) = tool.definition.get("outputSchema") {
                // Servers MUST return results that conform to their outputSchema.
                let checked = cache
                    .get_or_compile(Role::Output, schema)
                    .map_err(|e| e.to_string())
                    .and_then(|output| {
                        output
                            .validate(&structured)
                            .map_err(|e| format!("tool result does not match outputSchema: {e}"))
                    });
                if let Err(message) = checked {
                    return json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": message}});
                }
            }
            let mut content = Vec::new();
            if let Some(block) = text_fallback(&structured, &content) {
                content.push(block);
            }
            reply(json!({"structuredContent": structured, "content": content}))
        }
        _ => {
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}})
        }
    }
}

fn main() {
    let tools = tools();
    let list: Vec<Value> = tools.iter().map(|t| t.definition.clone()).collect();
    for report in check_tools_list(&json!({ "tools": list })) {
        assert!(report.is_ok(), "{:?}", report.problems());
    }
    let cache = SchemaCache::new(64);
    let session = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get-weather-forecast", "arguments": {"city": "Oslo", "hours": 2}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get-weather-forecast", "arguments": {"hours": 48}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "get-count"}}),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "find-by-id-or-name", "arguments": {"id": 1, "name": "both"}}}),
        json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "find-by-id-or-name", "arguments": {"name": "seven"}}}),
    ];
    for request in &session {
        println!("--> {request}");
        println!("<-- {}\n", handle(request, &tools, &cache));
    }
}
