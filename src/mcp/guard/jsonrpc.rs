//! Reading a message as one JSON-RPC object (its members left as text until asked for),
//! request ids as the guard tracks them, and the answers it writes.

use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// The `_meta` keys of a request that say which protocol it speaks (2026-07-28 and later
/// carry them on every request); the guard's own requests copy them.
const PROTOCOL_META_PREFIX: &str = "io.modelcontextprotocol/";
/// The `_meta` key of a request's protocol version (2026-07-28 and later).
pub(super) const PROTOCOL_VERSION_META: &str = "io.modelcontextprotocol/protocolVersion";

/// JSON-RPC error codes the guard answers with.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
pub(super) const INVALID_PARAMS: i64 = -32602;
pub(super) const INTERNAL_ERROR: i64 = -32603;
/// Implementation-defined (the range MCP leaves to implementations): too many requests
/// in flight through the guard.
pub(super) const TOO_MANY_IN_FLIGHT: i64 = -32000;

/// A message as the guard reads it: its members, each left as JSON text.
pub(super) type Members<'a> = BTreeMap<String, &'a RawValue>;

/// Why a message could not be read as one JSON-RPC object.
pub(super) enum Unreadable {
    /// Not JSON (or not UTF-8 JSON the guard accepts: `NaN`, numbers beyond doubles).
    Json(String),
    /// JSON, but not one object (a batch, a bare value).
    NotAnObject,
}

impl Unreadable {
    /// The JSON-RPC error the client is answered with.
    pub(super) fn answer(&self) -> Value {
        match self {
            Unreadable::Json(e) => error(&Value::Null, PARSE_ERROR, &format!("parse error: {e}")),
            Unreadable::NotAnObject => error(
                &Value::Null,
                INVALID_REQUEST,
                "a message must be one JSON-RPC object (batches are not part of MCP)",
            ),
        }
    }
}

/// The members of `message`, each left as text.
pub(super) fn parse(message: &str) -> Result<Members<'_>, Unreadable> {
    match message.trim_start().as_bytes().first() {
        Some(b'{') => serde_json::from_str(message).map_err(|e| Unreadable::Json(e.to_string())),
        _ => match serde_json::from_str::<&RawValue>(message) {
            Ok(_) => Err(Unreadable::NotAnObject),
            Err(e) => Err(Unreadable::Json(e.to_string())),
        },
    }
}

/// `raw` read as a value, if it is JSON the guard reads.
pub(super) fn value(raw: &RawValue) -> Option<Value> {
    serde_json::from_str(raw.get()).ok()
}

/// The key a request id is tracked by: its JSON text, a whole number written as an
/// integer (a peer that parses `1.0` as a number may answer `1`).
pub(super) fn id_key(id: &Value) -> String {
    match id {
        Value::Number(n) if n.as_i64().is_none() && n.as_u64().is_none() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => format!("{}", f as i64),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// The protocol members of a call's `_meta` (2026-07-28 requests carry their version,
/// client info and capabilities there), for the guard's own listing.
pub(super) fn own_meta(params: &Map<String, Value>) -> Map<String, Value> {
    let meta = params.get("_meta").and_then(Value::as_object);
    (meta.into_iter().flatten())
        .filter(|(key, _)| key.starts_with(PROTOCOL_META_PREFIX))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// A response with a tool error: a result with `isError` whose one text content the
/// model reads; `typed` for a 2026-07-28 call, whose results say their kind.
pub(super) fn tool_error(id: &Value, text: &str, typed: bool) -> Value {
    let mut result = json!({"content": [{"type": "text", "text": text}], "isError": true});
    if typed {
        result["resultType"] = json!("complete");
    }
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// A JSON-RPC error response.
pub(super) fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}
