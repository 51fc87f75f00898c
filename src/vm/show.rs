//! Error messages being written ([`Message`]), and the short renderings of instance
//! values they quote.
//!
//! A message quotes the value that failed (`"socket" is not one of ...`), so rendering is
//! on the path of every `validate` that fails. It is written straight into one `String`,
//! with JSON string quoting done here rather than through `serde_json`'s `Display` (which
//! goes through the formatting machinery byte run by byte run, and needed a cloned
//! `Value` for object keys). Renderings are shallow and cut short, so they are safe and
//! cheap on instances of any size or depth.
//!
//! Every quotation of the instance goes through [`Message::quote`], which records where
//! it is (for [`crate::ValidationError::masked`]) or, in a masked message, writes what
//! stands in for it instead.

use crate::error::{Quotation, Quote, StandIn, ROOT_LINE};
use serde_json::Value;
use std::fmt::{self, Write};

/// An error message being written: its text, and where it quotes the instance; or,
/// masked, its text with each quotation replaced by its stand-in.
pub(crate) struct Message {
    /// [`ROOT_LINE`], where the error's text starts (so that no move of the message
    /// puts it there), then the message.
    text: String,
    masked: bool,
    /// Where the quotation is in the message (after `ROOT_LINE`).
    quote: Option<Quote>,
}

impl Message {
    /// An empty message with room for `capacity` bytes (after [`ROOT_LINE`]).
    pub(super) fn with_capacity(capacity: usize, masked: bool) -> Message {
        let mut text = String::with_capacity(ROOT_LINE.len() + capacity);
        text.push_str(ROOT_LINE);
        Message {
            text,
            masked,
            quote: None,
        }
    }

    pub(super) fn push_str(&mut self, text: &str) {
        self.text.push_str(text);
    }

    pub(super) fn push(&mut self, c: char) {
        self.text.push(c);
    }

    /// Quotes `value`: its short rendering, or masked its type.
    pub(super) fn value(&mut self, value: &Value) {
        self.quote(StandIn::type_of(value), |out| show_into(out, value));
    }

    /// Quotes `value` after the name of its type: a space and its short rendering, or
    /// masked nothing (`got string "x"`, masked `got string`).
    pub(super) fn typed_value(&mut self, value: &Value) {
        self.quote(StandIn::Nothing, |out| {
            out.push(' ');
            show_into(out, value);
        });
    }

    /// Quotes `key`, an instance's property name, and a space after it, or masked
    /// nothing (`property "x" is not allowed`, masked `property is not allowed`): the
    /// instance location names it.
    pub(super) fn key(&mut self, key: &str) {
        self.quote(StandIn::Nothing, |out| {
            quote_into(out, key);
            out.push(' ');
        });
    }

    /// Shows `value`, one of the schema's own (a `const`, an `enum` option), as instance
    /// values are shown.
    pub(super) fn operand(&mut self, value: &Value) {
        show_into(&mut self.text, value);
    }

    /// Writes `text`, a string of the schema, as [`Message::operand`] writes it as a
    /// value.
    pub(super) fn operand_text(&mut self, text: &str) {
        let start = self.text.len();
        quote_into(&mut self.text, text);
        cut(&mut self.text, start, true);
    }

    /// Writes `name`, one of the schema's property names, as a JSON string.
    pub(super) fn name(&mut self, name: &str) {
        quote_into(&mut self.text, name);
    }

    /// Says that the property `name` (a schema's) is missing, as the errors that
    /// [`set_missing_property`](crate::ValidationError::set_missing_property) marks read.
    pub(super) fn missing_property(&mut self, name: &str) {
        self.push_str(crate::error::MISSING_PROPERTY);
        self.name(name);
    }

    /// Writes what `write` writes as a quotation of the instance (one per message), or,
    /// masked, `stand_in`'s text instead.
    fn quote(&mut self, stand_in: StandIn, write: impl FnOnce(&mut String)) {
        if self.masked {
            self.text.push_str(stand_in.text());
            return;
        }
        let start = self.text.len() - ROOT_LINE.len();
        write(&mut self.text);
        debug_assert!(self.quote.is_none(), "a second quotation: {:?}", self.text);
        self.quote = Some(Quote {
            start,
            end: self.text.len() - ROOT_LINE.len(),
            stand_in,
        });
    }

    /// The text ([`ROOT_LINE`], then the message), and where it quotes the instance.
    pub(super) fn into_parts(self) -> (String, Quotation) {
        let quotation = match (self.masked, self.quote) {
            (true, _) => Quotation::masked(),
            (false, Some(quote)) => Quotation::of(quote, self.text.len() - ROOT_LINE.len()),
            (false, None) => Quotation::default(),
        };
        (self.text, quotation)
    }
}

impl Write for Message {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.text.push_str(text);
        Ok(())
    }
}

/// `n` and the noun for it: `1 item`, `2 items`.
pub(super) fn counted<'a>(n: u64, one: &'a str, many: &'a str) -> impl std::fmt::Display + 'a {
    struct Counted<'a>(u64, &'a str);
    impl std::fmt::Display for Counted<'_> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{} {}", self.0, self.1)
        }
    }
    Counted(n, if n == 1 { one } else { many })
}

/// Characters of rendering after which [`show_into`] cuts.
const LIMIT: usize = 60;

/// Appends a short rendering of a value for messages: compact JSON, nested containers
/// past the second level elided, cut after about 60 characters.
fn show_into(out: &mut String, value: &Value) {
    let start = out.len();
    render(value, out, start, 2);
    cut(out, start, value.is_string());
}

/// Cuts the rendering written to `out` since `start` (of a string, if `string`) after
/// about 60 characters.
fn cut(out: &mut String, start: usize, string: bool) {
    if out.len() - start > LIMIT {
        // A string cut short still reads as one: `"abc..."`.
        let tail = if string { "...\"" } else { "..." };
        let cut = (start..=start + LIMIT - tail.len())
            .rev()
            .find(|&i| out.is_char_boundary(i))
            .unwrap_or(start);
        out.truncate(cut);
        out.push_str(tail);
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
fn quote_into(out: &mut String, text: &str) {
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
        let long = show(&json!("x".repeat(100)));
        assert_eq!(long, format!("\"{}...\"", "x".repeat(55)));
        assert_eq!(show(&json!(["x".repeat(100)])).len(), 60);
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
