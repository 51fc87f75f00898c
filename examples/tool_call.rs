//! Validates the arguments of MCP `tools/call` requests against a tool's `inputSchema`.
//!
//! Run with `cargo run --example tool_call`.

use mcp_jsonschema::Validator;
use serde_json::{json, Value};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A tool definition as a server would list it in `tools/list`.
    let tool = json!({
        "name": "get-weather",
        "description": "Current weather for a city",
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "minLength": 1},
                "units": {"enum": ["metric", "imperial"]},
                "days": {"type": "integer", "minimum": 1, "maximum": 7}
            },
            "required": ["city"],
            "additionalProperties": false
        }
    });
    let validator = Validator::new(&tool["inputSchema"])?;

    let calls: [Value; 3] = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "get-weather", "arguments": {"city": "Oslo", "units": "metric"}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "get-weather", "arguments": {"units": "kelvin", "days": 10}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
               "params": {"name": "get-weather", "arguments": {"city": "Lima", "verbose": true}}}),
    ];
    for call in &calls {
        let arguments = &call["params"]["arguments"];
        println!("call {} with {arguments}", call["id"]);
        if validator.is_valid(arguments) {
            println!("  valid: dispatch to the tool");
            continue;
        }
        // What a server sends back so the model can fix its call: one line per problem.
        for error in validator.iter_errors(arguments) {
            println!("  invalid: {error}");
        }
    }
    Ok(())
}
