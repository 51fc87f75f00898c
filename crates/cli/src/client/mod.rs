//! A minimal MCP client for `tools --stdio` and `tools --http`: it finds out which era the
//! server speaks, lists every tool (following `nextCursor`), and goes.
//!
//! Era, as the 2026-07-28 specification asks a client that speaks both: a
//! `server/discover` probe at 2026-07-28 first; a server that answers it with that
//! version among its `supportedVersions` is spoken to statelessly (each request carries
//! its version, client info and capabilities in `_meta`); any other answer (an error
//! that is not `UnsupportedProtocolVersion` naming only modern versions, silence, a
//! discover result without a version in common) means a handshake-era server, which gets
//! `initialize` at 2025-11-25 and `notifications/initialized`. Every failure is a
//! [`Failure`] (exit code 2) that says what the server did: it exited, sent a line that
//! is not JSON-RPC, did not answer in time, or refused `initialize`.

mod http;
mod stdio;

use crate::Failure;
use serde_json::{json, Map, Value};
use std::time::Duration;

pub(crate) use http::HttpServer;
pub(crate) use stdio::StdioServer;

/// The stateless protocol version this client speaks.
const MODERN: &str = "2026-07-28";
/// The handshake-era version it offers in `initialize`.
const HANDSHAKE: &str = "2025-11-25";
/// Older handshake versions it still reads `tools/list` from (a note says so).
const OLDER_HANDSHAKES: [&str; 3] = ["2025-06-18", "2025-03-26", "2024-11-05"];
/// `UnsupportedProtocolVersionError`'s code (2026-07-28).
const UNSUPPORTED_VERSION: i64 = -32022;
/// How long a `server/discover` probe waits before the server is taken for a
/// handshake-era one that stays silent.
const PROBE_WAIT: Duration = Duration::from_secs(5);
/// The most `tools/list` pages followed.
const MAX_PAGES: usize = 10_000;

/// What a server answered a request with.
#[derive(Debug)]
pub(crate) enum Reply {
    /// `result`.
    Result(Value),
    /// `error` (for HTTP, an error status without a JSON-RPC body becomes one with a
    /// `message` and no `code`).
    Error(Value),
}

/// A connection to a server: requests answered by id, notifications.
pub(crate) trait Transport {
    /// Sends a request and waits up to `wait` for its answer (`None`: none came).
    fn request(
        &mut self,
        method: &str,
        params: Value,
        wait: Duration,
    ) -> Result<Option<Reply>, Failure>;
    /// Sends a notification.
    fn notify(&mut self, method: &str, params: Value) -> Result<(), Failure>;
    /// The protocol version later requests are sent at (HTTP carries it in a header).
    fn set_protocol(&mut self, version: &str);
    /// The timeout of one request.
    fn timeout(&self) -> Duration;
    /// What to call the server in messages (its command, or its URL).
    fn name(&self) -> &str;
}

/// Every tool a server lists, and what it said about itself.
#[derive(Debug)]
pub(crate) struct Listing {
    pub(crate) tools: Vec<Value>,
    /// The protocol version spoken.
    pub(crate) protocol: String,
    /// `name version` of the server, when it said.
    pub(crate) server: Option<String>,
}

/// Lists every tool of the server behind `transport`.
pub(crate) fn list_tools(transport: &mut dyn Transport) -> Result<Listing, Failure> {
    let meta = modern_meta();
    let probe = json!({"_meta": meta});
    let wait = transport.timeout().min(PROBE_WAIT);
    transport.set_protocol(MODERN);
    let modern = match transport.request("server/discover", probe, wait)? {
        Some(Reply::Result(result)) => versions(&result["supportedVersions"]).contains(&MODERN),
        Some(Reply::Error(error)) if error["code"] == UNSUPPORTED_VERSION => {
            let supported = versions(&error["data"]["supported"]);
            let handshake = supported
                .iter()
                .any(|v| *v == HANDSHAKE || OLDER_HANDSHAKES.contains(v));
            if !handshake {
                return Err(Failure(format!(
                    "{}: the server speaks protocol {}; this command speaks {MODERN} and {HANDSHAKE}",
                    transport.name(),
                    supported.join(", ")
                )));
            }
            false
        }
        Some(Reply::Error(_)) | None => false,
    };
    let (protocol, server, meta) = if modern {
        (MODERN.to_string(), None, Some(meta))
    } else {
        let (protocol, server) = initialize(transport)?;
        (protocol, server, None)
    };
    let (tools, listed_by) = pages(transport, meta)?;
    Ok(Listing {
        tools,
        protocol,
        server: server.or(listed_by),
    })
}

/// The handshake: `initialize` at [`HANDSHAKE`], then `notifications/initialized`. The
/// version agreed and the server's name.
fn initialize(transport: &mut dyn Transport) -> Result<(String, Option<String>), Failure> {
    transport.set_protocol(HANDSHAKE);
    let params = json!({
        "protocolVersion": HANDSHAKE,
        "capabilities": {},
        "clientInfo": client_info(),
    });
    let wait = transport.timeout();
    let result = match transport.request("initialize", params, wait)? {
        Some(Reply::Result(result)) => result,
        Some(Reply::Error(error)) => {
            return Err(Failure(format!(
                "{}: the server refused initialize: {}",
                transport.name(),
                describe(&error)
            )))
        }
        None => return Err(no_answer(transport, "initialize")),
    };
    let version = result["protocolVersion"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    if version != HANDSHAKE {
        if !OLDER_HANDSHAKES.contains(&version.as_str()) {
            return Err(Failure(format!(
                "{}: the server answered initialize with protocol {version:?}; this command \
                 speaks {MODERN} and {HANDSHAKE}",
                transport.name()
            )));
        }
        tell!(
            "mcp-jsonschema: {}: the server speaks protocol {version}, older than {HANDSHAKE}; \
             its tools/list reads the same",
            transport.name()
        );
    }
    transport.set_protocol(&version);
    transport.notify("notifications/initialized", Value::Null)?;
    Ok((version, implementation(&result["serverInfo"])))
}

/// Every page of `tools/list`, each request carrying `meta` (2026-07-28); the tools, and
/// the server's name if a result's `_meta` gave it.
fn pages(
    transport: &mut dyn Transport,
    meta: Option<Map<String, Value>>,
) -> Result<(Vec<Value>, Option<String>), Failure> {
    let mut tools = Vec::new();
    let mut server = None;
    let mut cursors: Vec<Value> = Vec::new();
    loop {
        let mut params = Map::new();
        if let Some(cursor) = cursors.last() {
            params.insert("cursor".into(), cursor.clone());
        }
        if let Some(meta) = &meta {
            params.insert("_meta".into(), Value::Object(meta.clone()));
        }
        let params = match params.is_empty() {
            true => Value::Null,
            false => Value::Object(params),
        };
        let wait = transport.timeout();
        let result = match transport.request("tools/list", params, wait)? {
            Some(Reply::Result(result)) => result,
            Some(Reply::Error(error)) => {
                return Err(Failure(format!(
                    "{}: tools/list failed: {}",
                    transport.name(),
                    describe(&error)
                )))
            }
            None => return Err(no_answer(transport, "tools/list")),
        };
        let Some(page) = result["tools"].as_array() else {
            return Err(Failure(format!(
                "{}: the tools/list result has no tools array: {}",
                transport.name(),
                shorten(&result.to_string())
            )));
        };
        tools.extend(page.iter().cloned());
        server = server
            .or_else(|| implementation(&result["_meta"]["io.modelcontextprotocol/serverInfo"]));
        match result.get("nextCursor").filter(|c| !c.is_null()) {
            None => return Ok((tools, server)),
            Some(cursor) if cursors.contains(cursor) || cursors.len() >= MAX_PAGES => {
                return Err(Failure(format!(
                    "{}: tools/list pages do not end (cursor {cursor} again, or {MAX_PAGES} pages)",
                    transport.name()
                )))
            }
            Some(cursor) => cursors.push(cursor.clone()),
        }
    }
}

/// The `_meta` members every 2026-07-28 request carries.
fn modern_meta() -> Map<String, Value> {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": client_info(),
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    meta.as_object().cloned().unwrap_or_default()
}

fn client_info() -> Value {
    json!({"name": "mcp-jsonschema", "version": env!("CARGO_PKG_VERSION")})
}

/// The strings of a JSON array.
fn versions(list: &Value) -> Vec<&str> {
    let list = list.as_array().into_iter().flatten();
    list.filter_map(Value::as_str).collect()
}

/// `name version` of an `Implementation`.
fn implementation(info: &Value) -> Option<String> {
    let name = info["name"].as_str()?;
    Some(match info["version"].as_str() {
        Some(version) => format!("{name} {version}"),
        None => name.to_string(),
    })
}

/// A JSON-RPC error, for a message: `code message`.
fn describe(error: &Value) -> String {
    let message = error["message"].as_str().unwrap_or("(no message)");
    match error["code"].as_i64() {
        Some(code) => format!("{code} {message}"),
        None => message.to_string(),
    }
}

fn no_answer(transport: &dyn Transport, method: &str) -> Failure {
    Failure(format!(
        "{}: no answer to {method} within {} s",
        transport.name(),
        transport.timeout().as_secs_f64()
    ))
}

/// The start of `text`, for messages.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// A JSON-RPC request or notification (`id` `None`).
fn message(id: Option<u64>, method: &str, params: Value) -> Value {
    let mut message = json!({"jsonrpc": "2.0", "method": method});
    if let Some(id) = id {
        message["id"] = json!(id);
    }
    if !params.is_null() {
        message["params"] = params;
    }
    message
}
