//! The `structuredContent` text fallback for clients that only read `content`.

use serde_json::{json, Value};

/// The TextContent block a server must add next to `structured_content` so that older
/// clients, which only read `content`, still get the data: `Some` for an array, string,
/// number, boolean or `null` result when `content` has no text block yet; `None` for an
/// object result (which old clients already understood) or when a text block exists.
///
/// ```
/// use serde_json::json;
/// use mcp_jsonschema::mcp::text_fallback;
/// assert_eq!(text_fallback(&json!([1, 2]), &[]), Some(json!({"type": "text", "text": "[1,2]"})));
/// assert_eq!(text_fallback(&json!({"a": 1}), &[]), None);
/// ```
pub fn text_fallback(structured_content: &Value, content: &[Value]) -> Option<Value> {
    if structured_content.is_object() {
        return None;
    }
    if content
        .iter()
        .any(|block| block.get("type").and_then(Value::as_str) == Some("text"))
    {
        return None;
    }
    Some(json!({"type": "text", "text": structured_content.to_string()}))
}
