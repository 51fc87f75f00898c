//! The MCP guard (`mcp::Guard`) as a transport drives it: messages in from either side,
//! actions out. Every test routes messages the way the stdio proxy does and asserts what
//! each side received.

use mcp_jsonschema::mcp::{
    Action, BadOutput, BadSchema, Check, Guard, GuardOptions, Side, Unlisted, Verdict,
};
use proptest::prelude::*;
use serde_json::{json, Value};

/// What each side received, in order.
#[derive(Default, Debug)]
struct Wire {
    server: Vec<Value>,
    client: Vec<Value>,
    /// `tools/list` requests the guard asked to send first, and the messages held for them.
    list_first: Vec<(Value, String)>,
}

impl Wire {
    fn route(&mut self, guard: &mut Guard, from: Side, message: &str) {
        let actions: Vec<Action> = guard.handle(from, message).collect();
        self.apply(from, message, actions);
    }

    fn apply(&mut self, from: Side, message: &str, actions: Vec<Action>) {
        for action in actions {
            let (to, text) = match action {
                Action::Forward => (from.other(), message.to_string()),
                Action::Send { to, message } => (to, message),
                Action::ListFirst { request } => {
                    self.list_first.push((parse(&request), message.to_string()));
                    continue;
                }
            };
            let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
            match to {
                Side::Server => self.server.push(value),
                Side::Client => self.client.push(value),
            }
        }
    }

    /// Sends `value` from `from`.
    fn send(&mut self, guard: &mut Guard, from: Side, value: Value) {
        self.route(guard, from, &value.to_string());
    }
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// The SEP's demo tools and a nested one, as a server lists them.
fn tools() -> Value {
    json!([
        {
            "name": "get_weather",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "units": {"enum": ["metric", "imperial"]},
                    "where": {
                        "type": "object",
                        "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
                        "required": ["lat", "lon"]
                    }
                },
                "required": ["city"],
                "additionalProperties": false
            },
            "outputSchema": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"hour": {"type": "string"}, "temp": {"type": "number"}},
                    "required": ["hour", "temp"]
                }
            }
        },
        {
            "name": "find-by-id-or-name",
            "inputSchema": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
                "oneOf": [{"required": ["id"]}, {"required": ["name"]}]
            }
        },
        {
            "name": "broken",
            "inputSchema": {"type": "object", "properties": {"n": {"$ref": "https://example.com/n.json"}}}
        }
    ])
}

fn call(id: Value, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": arguments}})
}

fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// A guard that has no table yet, sent a valid call to `get_weather` (id 1).
fn unlisted_with_call() -> (Guard, Wire) {
    let mut guard = Guard::new();
    let mut wire = Wire::default();
    let first = call(json!(1), "get_weather", json!({"city": "Oslo"}));
    wire.send(&mut guard, Side::Client, first);
    (guard, wire)
}

/// A guard whose client has listed `tools()`.
fn listed(options: GuardOptions) -> (Guard, Wire) {
    let mut guard = Guard::with_options(options);
    let mut wire = Wire::default();
    wire.send(
        &mut guard,
        Side::Client,
        json!({"jsonrpc": "2.0", "id": 0, "method": "tools/list"}),
    );
    wire.send(
        &mut guard,
        Side::Server,
        result(json!(0), json!({"tools": tools()})),
    );
    (guard, wire)
}

#[test]
fn messages_it_does_not_check_pass_byte_for_byte() {
    let mut guard = Guard::new();
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":"r1","result":{{"contents":[{{"uri":"file:///a","text":"{}"}}]}}}}"#,
        "x".repeat(1 << 20)
    );
    let messages = [
        (
            Side::Client,
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        ),
        (
            Side::Server,
            r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}"#,
        ),
        (
            Side::Client,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ),
        (
            Side::Server,
            r#"{"jsonrpc":"2.0","id":7,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}"#,
        ),
        (
            Side::Client,
            r#"{"jsonrpc":"2.0","id":7,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}"#,
        ),
        (
            Side::Server,
            r#"{"jsonrpc":"2.0","id":8,"method":"elicitation/create","params":{}}"#,
        ),
        (
            Side::Client,
            r#"{"jsonrpc":"2.0","id":"x","method":"vendor/unknown","params":[1,2]}"#,
        ),
        (
            Side::Server,
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#,
        ),
        (
            Side::Server,
            r#"{"jsonrpc":"2.0","id":"never-asked","result":{}}"#,
        ),
        (Side::Server, "not json at all"),
        (Side::Server, r#"[{"jsonrpc":"2.0","id":1,"result":{}}]"#),
        (Side::Server, big.as_str()),
    ];
    for (from, message) in messages {
        let actions: Vec<Action> = guard.handle(from, message).collect();
        assert_eq!(actions, [Action::Forward], "{message:.80}");
    }
    assert!(guard.take_decisions().is_empty());
}

#[test]
fn a_valid_call_reaches_the_server_and_its_result_the_client() {
    let (mut guard, mut wire) = listed(GuardOptions::default());
    let arguments = json!({"city": "Oslo", "units": "metric", "where": {"lat": 59.9, "lon": 10.7}});
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(1), "get_weather", arguments.clone()),
    );
    assert_eq!(
        wire.server.last().unwrap()["params"]["arguments"],
        arguments
    );
    let forecast = json!([{"hour": "10:00", "temp": 4.5}]);
    let answer = result(
        json!(1),
        json!({"content": [{"type": "text", "text": "[]"}], "structuredContent": forecast}),
    );
    wire.send(&mut guard, Side::Server, answer.clone());
    assert_eq!(wire.client.last().unwrap(), &answer);
    let decisions = guard.take_decisions();
    let verdicts: Vec<(Check, Verdict)> = decisions.iter().map(|d| (d.check, d.verdict)).collect();
    assert_eq!(
        verdicts,
        [
            (Check::Schema, Verdict::Hidden),
            (Check::Arguments, Verdict::Passed),
            (Check::Output, Verdict::Passed)
        ]
    );
    assert!(decisions[2].call_time.is_some());
}

#[test]
fn an_invalid_call_is_answered_as_a_tool_error_and_never_reaches_the_server() {
    let (mut guard, mut wire) = listed(GuardOptions::default());
    let sent = wire.server.len();
    wire.send(
        &mut guard,
        Side::Client,
        call(
            json!("a"),
            "get_weather",
            json!({"city": "Oslo", "units": "kelvin", "where": {"lat": "59.9"}, "verbose": true}),
        ),
    );
    wire.send(
        &mut guard,
        Side::Client,
        call(
            json!(2),
            "find-by-id-or-name",
            json!({"id": 1, "name": "x"}),
        ),
    );
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(3), "get_weather", json!("{\"city\": \"Oslo\"}")),
    );
    wire.send(&mut guard, Side::Client, json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "get_weather"}}));
    assert_eq!(wire.server.len(), sent, "{:?}", wire.server);
    let texts: Vec<&str> = (wire.client[1..].iter())
        .map(|answer| {
            assert_eq!(answer["result"]["isError"], true);
            answer["result"]["content"][0]["text"].as_str().unwrap()
        })
        .collect();
    assert_eq!(wire.client[1]["id"], "a");
    assert_eq!(wire.client[1]["result"].get("resultType"), None);
    assert_eq!(
        texts[0],
        "invalid arguments for tool \"get_weather\":\n\
         /units: expected one of \"metric\", \"imperial\", got \"kelvin\"\n\
         /verbose: property \"verbose\" is not allowed\n\
         /where: missing required property \"lon\"\n\
         /where/lat: expected number, got string \"59.9\"; send the number itself, not a JSON-encoded string"
    );
    assert_eq!(
        texts[1],
        "invalid arguments for tool \"find-by-id-or-name\":\n\
         (root): {\"id\":1,\"name\":\"x\"} is valid under more than one of the schemas in oneOf (#0 and #1)"
    );
    assert!(
        texts[2].contains("send the object itself, not a JSON-encoded string"),
        "{}",
        texts[2]
    );
    assert_eq!(
        texts[3],
        "invalid arguments for tool \"get_weather\":\n(root): missing required property \"city\""
    );
    // Decisions are masked: no value of the call's own.
    let decisions = guard.take_decisions();
    let rejected = &decisions[1];
    assert_eq!(
        (rejected.check, rejected.verdict),
        (Check::Arguments, Verdict::Rejected)
    );
    assert_eq!(rejected.id, Some(json!("a")));
    assert!(
        rejected
            .errors
            .iter()
            .all(|e| !e.contains("59.9") && !e.contains("kelvin")),
        "{:?}",
        rejected.errors
    );
}

#[test]
fn unmasked_decisions_quote_the_values() {
    let (mut guard, mut wire) = listed(GuardOptions::default().with_masked_decisions(false));
    wire.send(
        &mut guard,
        Side::Client,
        call(
            json!(1),
            "get_weather",
            json!({"city": "Oslo", "units": "kelvin"}),
        ),
    );
    let decision = guard.take_decisions().pop().unwrap();
    assert_eq!(
        decision.errors,
        ["/units: expected one of \"metric\", \"imperial\", got \"kelvin\""]
    );
}

/// By default a bad output becomes a tool error the model reads, as the SDKs' servers
/// answer it; a 2026-07-28 call's says its kind.
#[test]
fn output_that_breaks_the_schema_becomes_a_tool_error() {
    let bad = json!({"content": [], "structuredContent": [{"hour": 10, "temp": "warm"}]});
    let (mut guard, mut wire) = listed(GuardOptions::default());
    for (id, version) in [(5, None), (6, Some("2026-07-28"))] {
        let mut request = call(json!(id), "get_weather", json!({"city": "Oslo"}));
        if let Some(version) = version {
            request["params"]["_meta"] =
                json!({"io.modelcontextprotocol/protocolVersion": version});
        }
        wire.send(&mut guard, Side::Client, request);
        wire.send(&mut guard, Side::Server, result(json!(id), bad.clone()));
        let mut expected = json!({
            "content": [{"type": "text", "text": "invalid output from tool \"get_weather\":\n\
                /0/hour: expected string, got integer 10\n\
                /0/temp: expected number, got string \"warm\""}],
            "isError": true
        });
        if version.is_some() {
            expected["resultType"] = json!("complete");
        }
        assert_eq!(wire.client.last().unwrap(), &result(json!(id), expected));
        let decision = guard.take_decisions().pop().unwrap();
        assert_eq!(
            (decision.check, decision.verdict),
            (Check::Output, Verdict::Failed)
        );
        assert_eq!(decision.errors[1], "/0/temp: expected number, got string");
    }
}

#[test]
fn output_that_breaks_the_schema_is_a_json_rpc_error_or_passed_with_a_warning() {
    let bad = json!({"content": [], "structuredContent": [{"hour": 10, "temp": "warm"}]});
    let (mut guard, mut wire) = listed(GuardOptions::default().with_bad_output(BadOutput::Error));
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(5), "get_weather", json!({"city": "Oslo"})),
    );
    wire.send(&mut guard, Side::Server, result(json!(5), bad.clone()));
    let answer = wire.client.last().unwrap();
    assert_eq!(answer["id"], 5);
    assert_eq!(answer["error"]["code"], -32603);
    assert_eq!(
        answer["error"]["message"],
        "tool \"get_weather\" returned structured content that its outputSchema rejects: \
         /0/hour: expected string, got integer 10; /0/temp: expected number, got string \"warm\""
    );
    assert_eq!(answer["error"]["data"]["tool"], "get_weather");
    let decision = guard.take_decisions().pop().unwrap();
    assert_eq!(
        (decision.check, decision.verdict),
        (Check::Output, Verdict::Failed)
    );
    assert_eq!(decision.errors[1], "/0/temp: expected number, got string");

    let (mut guard, mut wire) = listed(GuardOptions::default().with_bad_output(BadOutput::Warn));
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(5), "get_weather", json!({"city": "Oslo"})),
    );
    wire.send(&mut guard, Side::Server, result(json!(5), bad.clone()));
    assert_eq!(wire.client.last().unwrap(), &result(json!(5), bad));
    assert_eq!(
        guard.take_decisions().pop().unwrap().verdict,
        Verdict::Warned
    );
}

#[test]
fn only_finished_results_are_checked() {
    let (mut guard, mut wire) = listed(GuardOptions::default());
    let answers = [
        json!({"content": [{"type": "text", "text": "boom"}], "isError": true}),
        json!({"resultType": "input_required", "inputRequests": {}}),
        json!({"task": {"taskId": "t", "status": "working"}}),
    ];
    for (id, answer) in answers.into_iter().enumerate() {
        wire.send(
            &mut guard,
            Side::Client,
            call(json!(id), "get_weather", json!({"city": "Oslo"})),
        );
        wire.send(&mut guard, Side::Server, result(json!(id), answer.clone()));
        assert_eq!(wire.client.last().unwrap(), &result(json!(id), answer));
    }
    // A JSON-RPC error passes as it is; a result without structuredContent does not.
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(9), "get_weather", json!({"city": "Oslo"})),
    );
    let failure = json!({"jsonrpc": "2.0", "id": 9, "error": {"code": -32000, "message": "down"}});
    wire.send(&mut guard, Side::Server, failure.clone());
    assert_eq!(wire.client.last().unwrap(), &failure);
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(10), "get_weather", json!({"city": "Oslo"})),
    );
    wire.send(
        &mut guard,
        Side::Server,
        result(json!(10), json!({"content": []})),
    );
    assert_eq!(
        wire.client.last().unwrap()["result"]["content"][0]["text"],
        "invalid output from tool \"get_weather\":\n\
         the tool declares an outputSchema but the result has no structuredContent"
    );
}

#[test]
fn a_tool_whose_schema_does_not_compile_is_hidden_or_passed_unguarded() {
    let (mut guard, mut wire) = listed(GuardOptions::default());
    let names: Vec<&str> = (wire.client[0]["result"]["tools"].as_array().unwrap().iter())
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["get_weather", "find-by-id-or-name"]);
    assert_eq!(wire.client[0]["id"], 0);
    let decisions = guard.take_decisions();
    assert_eq!(decisions.len(), 1);
    assert_eq!(decisions[0].tool, "broken");
    assert!(
        decisions[0].errors[0].starts_with("inputSchema: /properties/n/$ref: reference"),
        "{:?}",
        decisions[0].errors
    );
    let sent = wire.server.len();
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(1), "broken", json!({"n": 1})),
    );
    assert_eq!(wire.server.len(), sent);
    let text = wire.client.last().unwrap()["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.starts_with("tool \"broken\" is not available: its inputSchema does not compile"),
        "{text}"
    );
    // Listing again reports nothing new.
    wire.send(
        &mut guard,
        Side::Client,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    );
    wire.send(
        &mut guard,
        Side::Server,
        result(json!(2), json!({"tools": tools()})),
    );
    assert_eq!(
        guard
            .take_decisions()
            .iter()
            .filter(|d| d.check == Check::Schema)
            .count(),
        0
    );

    let (mut guard, mut wire) = listed(GuardOptions::default().with_bad_schema(BadSchema::Pass));
    assert_eq!(wire.client[0], result(json!(0), json!({"tools": tools()})));
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(1), "broken", json!({"n": 1})),
    );
    assert_eq!(wire.server.last().unwrap()["params"]["name"], "broken");
    let verdicts: Vec<Verdict> = guard.take_decisions().iter().map(|d| d.verdict).collect();
    assert_eq!(verdicts, [Verdict::Unguarded, Verdict::Unguarded]);
}

#[test]
fn without_a_listing_the_guard_lists_first_following_every_page() {
    let mut guard = Guard::new();
    let mut wire = Wire::default();
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "progressToken": 3});
    let mut first = call(
        json!(1),
        "find-by-id-or-name",
        json!({"id": 1, "name": "x"}),
    );
    first["params"]["_meta"] = meta;
    wire.send(&mut guard, Side::Client, first.clone());
    assert!(wire.server.is_empty() && wire.client.is_empty());
    let (request, held) = wire.list_first.pop().unwrap();
    assert!(guard.is_listing());
    assert_eq!(request["method"], "tools/list");
    assert_eq!(
        request["params"],
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}})
    );
    // The server answers in two pages; the guard asks for the second and keeps both.
    let all = tools();
    let (one, two) = all.as_array().unwrap().split_at(1);
    let page = result(
        request["id"].clone(),
        json!({"tools": one, "nextCursor": "p2"}),
    );
    wire.send(&mut guard, Side::Server, page);
    let second = wire.server.pop().unwrap();
    assert_eq!(second["params"]["cursor"], "p2");
    assert_eq!(
        second["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert!(guard.is_listing());
    wire.send(
        &mut guard,
        Side::Server,
        result(second["id"].clone(), json!({"tools": two})),
    );
    assert!(!guard.is_listing());
    assert!(
        wire.client.is_empty() && wire.server.is_empty(),
        "the listing stays with the guard"
    );
    let actions: Vec<Action> = guard.handle_listed(&held).collect();
    wire.apply(Side::Client, &held, actions);
    assert!(wire.server.is_empty());
    assert_eq!(wire.client[0]["result"]["isError"], true);
    // A 2026-07-28 call gets a 2026-07-28 result, which says its kind.
    assert_eq!(wire.client[0]["result"]["resultType"], "complete");
    // The table is current: no further listing, until the server says it changed.
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(2), "find-by-id-or-name", json!({"id": 2})),
    );
    assert_eq!(wire.server.last().unwrap()["id"], 2);
    wire.send(
        &mut guard,
        Side::Server,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
    );
    assert_eq!(
        wire.client.last().unwrap()["method"],
        "notifications/tools/list_changed"
    );
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(3), "find-by-id-or-name", json!({"id": 3})),
    );
    assert_eq!(wire.list_first.len(), 1);
    // A listing that fails leaves the call to the table it has.
    let (request, held) = wire.list_first.pop().unwrap();
    let failure = json!({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "no tools"}});
    wire.send(&mut guard, Side::Server, failure);
    assert!(!guard.is_listing());
    let decision = guard.take_decisions().pop().unwrap();
    assert_eq!(decision.check, Check::Listing);
    let actions: Vec<Action> = guard.handle_listed(&held).collect();
    assert_eq!(actions, [Action::Forward]);
}

#[test]
fn a_call_during_the_guards_listing_waits_for_a_listing_too() {
    let (mut guard, mut wire) = unlisted_with_call();
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(2), "get_weather", json!({"city": 5})),
    );
    assert_eq!(wire.list_first.len(), 2);
    for (request, _) in wire.list_first.clone() {
        wire.send(
            &mut guard,
            Side::Server,
            result(request["id"].clone(), json!({"tools": tools()})),
        );
    }
    assert!(!guard.is_listing());
    let (_, held) = wire.list_first[1].clone();
    let actions: Vec<Action> = guard.handle_listed(&held).collect();
    wire.apply(Side::Client, &held, actions);
    assert!(wire.server.is_empty());
    assert_eq!(wire.client[0]["result"]["isError"], true);
}

/// The answer the guard sent the client for `held`, a call it asked to list first for,
/// once `tools` is the listing (`None`: the listing is given up).
fn after_listing(guard: &mut Guard, wire: &mut Wire, tools: Option<Value>) {
    let (request, held) = wire.list_first.pop().expect("a listing first");
    match tools {
        Some(tools) => wire.send(
            guard,
            Side::Server,
            result(request["id"].clone(), json!({"tools": tools})),
        ),
        None => guard.abandon_listing(&request.to_string(), "no answer"),
    }
    assert!(!guard.is_listing());
    let actions: Vec<Action> = guard.handle_listed(&held).collect();
    wire.apply(Side::Client, &held, actions);
}

/// A call to a tool the table lacks: the guard lists the tools once more (the server may
/// have added it without a word), then calls it by the new table or answers it as an
/// unknown tool; a name it looked for once is answered at once until the list changes.
#[test]
fn an_unlisted_tool_is_listed_for_once_then_answered_as_unknown() {
    let (mut guard, mut wire) = listed(GuardOptions::default());
    let sent = wire.server.len();
    wire.send(&mut guard, Side::Client, call(json!(1), "added", json!({})));
    let mut more = tools();
    more.as_array_mut()
        .unwrap()
        .push(json!({"name": "added", "inputSchema": {"type": "object"}}));
    after_listing(&mut guard, &mut wire, Some(more.clone()));
    assert_eq!(
        wire.server.last().unwrap()["params"]["name"],
        "added",
        "found"
    );

    wire.send(&mut guard, Side::Client, call(json!(2), "nope", json!({})));
    after_listing(&mut guard, &mut wire, Some(more));
    let unknown = result(
        json!(2),
        json!({
            "content": [{"type": "text", "text": "unknown tool \"nope\": the server does not list it"}],
            "isError": true
        }),
    );
    assert_eq!(wire.client.last().unwrap(), &unknown);
    assert_eq!(wire.server.len(), sent + 1, "only the call to \"added\"");
    let decision = guard.take_decisions().pop().unwrap();
    assert_eq!(
        (decision.tool.as_str(), decision.verdict),
        ("nope", Verdict::Unlisted)
    );
    assert_eq!(decision.errors, ["the server does not list this tool"]);

    // Sought once: answered at once now, until the server says the list changed.
    wire.send(&mut guard, Side::Client, call(json!(3), "nope", json!({})));
    assert!(wire.list_first.is_empty());
    assert_eq!(wire.client.last().unwrap()["result"]["isError"], true);
    wire.send(
        &mut guard,
        Side::Server,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
    );
    wire.send(&mut guard, Side::Client, call(json!(4), "nope", json!({})));
    assert_eq!(wire.list_first.len(), 1);
}

#[test]
fn an_unlisted_tool_is_forwarded_when_asked_and_recorded() {
    let (mut guard, mut wire) = listed(GuardOptions::default().with_unlisted(Unlisted::Forward));
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(1), "nope", json!({"x": 1})),
    );
    after_listing(&mut guard, &mut wire, Some(tools()));
    assert_eq!(wire.server.last().unwrap()["params"]["name"], "nope");
    let decision = guard.take_decisions().pop().unwrap();
    assert_eq!(decision.verdict, Verdict::Unguarded);
    assert_eq!(decision.errors, ["the server does not list this tool"]);
}

/// A listing the server never answers is given up by the transport: a call it cannot
/// check is answered, never forwarded nor left waiting; a late answer stays with the
/// guard; the next call lists again.
#[test]
fn a_listing_given_up_leaves_unknown_calls_answered() {
    let (mut guard, mut wire) = unlisted_with_call();
    let (request, _) = wire.list_first.last().cloned().unwrap();
    after_listing(&mut guard, &mut wire, None);
    assert!(wire.server.is_empty());
    let text = wire.client[0]["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert_eq!(
        text,
        "tool \"get_weather\" cannot be called now: the server's tools could not be listed, \
         so the call cannot be checked"
    );
    let verdicts: Vec<(Check, Verdict)> = guard
        .take_decisions()
        .iter()
        .map(|d| (d.check, d.verdict))
        .collect();
    assert_eq!(
        verdicts,
        [
            (Check::Listing, Verdict::Unguarded),
            (Check::Arguments, Verdict::Unlisted)
        ]
    );
    // The answer after all: the guard's own, dropped.
    wire.send(
        &mut guard,
        Side::Server,
        result(request["id"].clone(), json!({"tools": tools()})),
    );
    assert_eq!(wire.client.len(), 1);
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(2), "get_weather", json!({"city": "Oslo"})),
    );
    after_listing(&mut guard, &mut wire, Some(tools()));
    assert_eq!(wire.server.last().unwrap()["id"], 2);
}

#[test]
fn without_its_own_listing_an_unknown_tool_passes_unguarded() {
    let mut guard = Guard::with_options(GuardOptions::default().with_own_listing(false));
    let mut wire = Wire::default();
    wire.send(
        &mut guard,
        Side::Client,
        call(json!(1), "anything", json!({"x": 1})),
    );
    assert_eq!(wire.server.len(), 1);
    assert_eq!(guard.take_decisions()[0].verdict, Verdict::Unguarded);
}

#[test]
fn what_it_cannot_read_from_the_client_is_answered_not_forwarded() {
    let (mut guard, _) = listed(GuardOptions::default());
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":NaN}}}"#,
            -32700,
        ),
        ("{\"jsonrpc\":\"2.0\",\"id\":1,", -32700),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","arguments":{}}}]"#,
            -32600,
        ),
        ("42", -32600),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["get_weather"]}"#,
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}"#,
            -32602,
        ),
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#, -32602),
    ];
    for (message, code) in cases {
        let actions: Vec<Action> = guard.handle(Side::Client, message).collect();
        let [Action::Send {
            to: Side::Client,
            message: answer,
        }] = actions.as_slice()
        else {
            panic!("{message}: {actions:?}");
        };
        assert_eq!(parse(answer)["error"]["code"], code, "{message}");
    }
}

#[test]
fn responses_match_their_calls_by_id_whatever_the_spelling() {
    let (mut guard, mut wire) = listed(GuardOptions::default());
    wire.route(&mut guard, Side::Client, r#"{"jsonrpc":"2.0","id":3.0,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"}}}"#);
    wire.route(
        &mut guard,
        Side::Server,
        r#"{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":"no"}}"#,
    );
    assert_eq!(wire.client.last().unwrap()["result"]["isError"], true);
    // A cancelled call is forgotten: a late answer passes as any unknown id does.
    wire.send(
        &mut guard,
        Side::Client,
        call(json!("c"), "get_weather", json!({"city": "Oslo"})),
    );
    wire.send(&mut guard, Side::Client, json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c"}}));
    let late = result(
        json!("c"),
        json!({"content": [], "structuredContent": "no"}),
    );
    wire.send(&mut guard, Side::Server, late.clone());
    assert_eq!(wire.client.last().unwrap(), &late);
}

#[test]
fn calls_beyond_the_bound_in_flight_are_refused() {
    let (mut guard, mut wire) = listed(GuardOptions::default().with_max_in_flight(2));
    for id in 0..3 {
        wire.send(
            &mut guard,
            Side::Client,
            call(json!(id), "get_weather", json!({"city": "Oslo"})),
        );
    }
    assert_eq!(wire.server.len(), 1 + 2);
    assert_eq!(wire.client.last().unwrap()["error"]["code"], -32000);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Whatever either side sends, the guard never panics, and a client `tools/call` that
    /// it forwards names a tool it guards, and for a listed tool always has conforming
    /// arguments.
    #[test]
    fn hostile_messages_never_panic_nor_slip_a_bad_call_through(
        messages in prop::collection::vec((any::<bool>(), message()), 1..12)
    ) {
        let (mut guard, _) = listed(GuardOptions::default());
        let input = mcp_jsonschema::mcp::ToolSchema::input(&tools()[0]["inputSchema"]).unwrap();
        for (from_client, message) in messages {
            let from = if from_client { Side::Client } else { Side::Server };
            for action in guard.handle(from, &message) {
                let forwarded = match (&action, from) {
                    (Action::Forward, Side::Client) => Some(message.clone()),
                    (Action::Send { to: Side::Server, message }, _) => Some(message.clone()),
                    _ => None,
                };
                let Some(forwarded) = forwarded else { continue };
                let Ok(value) = serde_json::from_str::<Value>(&forwarded) else {
                    prop_assert!(false, "forwarded unreadable {forwarded}");
                    continue;
                };
                if value["method"] == "tools/call" {
                    let name = value["params"]["name"].as_str().unwrap_or_default();
                    prop_assert!(guard.guards(name), "an unguarded call forwarded: {forwarded}");
                }
                if value["method"] == "tools/call" && value["params"]["name"] == "get_weather" {
                    let arguments = value["params"].get("arguments").cloned().unwrap_or(json!({}));
                    prop_assert!(input.is_valid(&arguments), "{forwarded}");
                }
            }
        }
    }
}

/// Messages built from the pieces that matter, many of them malformed.
fn message() -> impl Strategy<Value = String> {
    let id = prop_oneof![
        Just("1".to_string()),
        Just("1.0".to_string()),
        Just("\"a\"".to_string()),
        Just("null".to_string()),
        Just("{}".to_string()),
    ];
    let method = prop_oneof![
        Just("\"tools/call\""),
        Just("\"tools/list\""),
        Just("\"notifications/tools/list_changed\""),
        Just("\"notifications/cancelled\""),
        Just("7"),
    ];
    let arguments = prop_oneof![
        Just(r#"{"city":"Oslo"}"#.to_string()),
        Just(r#"{"city":1}"#.to_string()),
        Just(r#"{"city":"Oslo","city":2}"#.to_string()),
        Just(r#""{\"city\":\"Oslo\"}""#.to_string()),
        Just("null".to_string()),
        Just(r#"{"city":"Oslo","units":"kelvin"}"#.to_string()),
        "[a-z0-9{}\\[\\]\":,]{0,12}",
    ];
    let name = prop_oneof![
        Just("\"get_weather\""),
        Just("\"broken\""),
        Just("\"other\""),
        Just("1")
    ];
    let body = (id, method, name, arguments).prop_map(|(id, method, name, arguments)| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":{method},"params":{{"name":{name},"arguments":{arguments},"requestId":{id}}}}}"#
        )
    });
    let response = (any::<u8>(), "[a-z\"{}:,]{0,16}").prop_map(|(id, result)| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{result}],"structuredContent":{result}}}}}"#)
    });
    prop_oneof![body, response, ".{0,40}"]
}
