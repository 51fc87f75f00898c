//! Short renderings of instance values for error messages.
//!
//! A message quotes the value that failed (`"socket" is not one of ...`), so rendering is
//! on the path of every `validate` that fails. It is written straight into one `String`,
//! with JSON string quoting done here rather than through `serde_json`'s `Display` (which
//! goes through the formatting machinery byte run by byte run, and needed a cloned
//! `Value` for object keys). Renderings are shallow and cut short, so they are safe and
//! cheap on instances of any size or depth.

use serde_json::Value;
use std::fmt::Write;

/// Characters of rendering after which [`show_into`] cuts.
const LIMIT: usize = 60;

/// Appends a short rendering of a value for messages: compact JSON, nested containers
/// past the second level elided, cut after about 60 characters.
pub(super) fn show_into(out: &mut String, value: &Value) {
    let start = out.len();
    render(value, out, start, 2);
    if out.len() - start > LIMIT {
        let cut = (start..=start + LIMIT - 3)
            .rev()
            .find(|&i| out.is_char_boundary(i))
            .unwrap_or(start);
        out.truncate(cut);
        out.push_str("...");
    }
}

/// Renders `value` into `out`, `levels` containers deep, stopping once the text since
/// `start` is past the limit.
fn render(value: &Value, out: &mut String, start: usize, levels: u8) {
    if out.len() - start > LIMIT {
        return;
    }
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => quote_into(out, s),
        Value::Array(items) if levels == 0 && !items.is_empty() => out.push_str("[...]"),
        Value::Object(map) if levels == 0 && !map.is_empty() => out.push_str("{...}"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(item, out, start, levels - 1);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                quote_into(out, key);
                out.push(':');
                render(item, out, start, levels - 1);
            }
            out.push('}');
        }
    }
}

/// Appends `text` as a JSON string literal.
pub(super) fn quote_into(out: &mut String, text: &str) {
    out.push('"');
    let plain = |b: u8| b >= 0x20 && b != b'"' && b != b'\\';
    if text.bytes().all(plain) {
        out.push_str(text);
    } else {
        for c in text.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn show(value: &Value) -> String {
        let mut out = String::new();
        show_into(&mut out, value);
        out
    }

    #[test]
    fn values_are_shown_short_and_shallow() {
        assert_eq!(show(&json!({"a": [1, [2, [3]]]})), r#"{"a":[1,[...]]}"#);
        assert_eq!(show(&json!("x".repeat(100))).len(), 60);
        assert_eq!(show(&json!([])), "[]");
        assert_eq!(
            show(&json!({"k\"ey": null, "b": [true, 2.5]})),
            r#"{"b":[true,2.5],"k\"ey":null}"#
        );
    }

    proptest! {
        #[test]
        fn strings_are_quoted_as_json_does(text in "(?s).{0,20}") {
            let mut out = String::new();
            quote_into(&mut out, &text);
            prop_assert_eq!(out, serde_json::to_string(&text).unwrap());
        }
    }
}
