//! Server-Sent Events, as Streamable HTTP carries JSON-RPC messages in them: an
//! incremental parser (bytes in any chunking, events out), a reader of the events of an
//! HTTP body ([`Events`]), and an event written back as text ([`Event::to_text`]). Lines
//! end with CRLF, LF or CR; `data` lines of one event are joined with LF; a line starting
//! with `:` is a comment (keep-alives), kept as one.

use bytes::Bytes;
use http_body_util::BodyExt;
use std::collections::VecDeque;

/// One event, or a comment line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Event {
    /// `id:`, if given.
    pub(crate) id: Option<String>,
    /// `event:`, if given (absent means `message`).
    pub(crate) event: Option<String>,
    /// `retry:`, if given.
    pub(crate) retry: Option<String>,
    /// The `data:` lines joined with LF; `None` for an event without data.
    pub(crate) data: Option<String>,
    /// The text of a comment line (without its `:`), for an event that is only that.
    pub(crate) comment: Option<String>,
}

impl Event {
    fn is_empty(&self) -> bool {
        *self == Event::default()
    }

    /// The event as a stream carries it, ended by its blank line; `data` (one line per
    /// LF) in place of the event's own when given.
    pub(crate) fn to_text(&self, data: Option<&str>) -> String {
        let mut text = String::new();
        if let Some(comment) = &self.comment {
            for line in comment.split('\n') {
                text.push(':');
                text.push_str(line);
                text.push('\n');
            }
        }
        let fields = [
            ("id", &self.id),
            ("event", &self.event),
            ("retry", &self.retry),
        ];
        for (field, value) in fields {
            if let Some(value) = value {
                text.push_str(&format!("{field}: {value}\n"));
            }
        }
        if let Some(data) = data.or(self.data.as_deref()) {
            for line in data.split('\n') {
                text.push_str("data: ");
                text.push_str(line);
                text.push('\n');
            }
        }
        text.push('\n');
        text
    }
}

/// The events of an HTTP body, read as its frames arrive.
pub(crate) struct Events<B> {
    body: B,
    parser: Parser,
    ready: VecDeque<Event>,
}

impl<B> Events<B>
where
    B: hyper::body::Body<Data = Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    pub(crate) fn new(body: B) -> Events<B> {
        Events {
            body,
            parser: Parser::default(),
            ready: VecDeque::new(),
        }
    }

    /// The next event; `None` once the body ended, an error if reading it failed.
    pub(crate) async fn next(&mut self) -> Option<Result<Event, String>> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Some(Ok(event));
            }
            match self.body.frame().await? {
                Err(e) => return Some(Err(e.to_string())),
                Ok(frame) => {
                    if let Some(data) = frame.data_ref() {
                        self.ready.extend(self.parser.feed(data));
                    }
                }
            }
        }
    }
}

/// Reads events from a byte stream fed in chunks.
#[derive(Debug, Default)]
pub(crate) struct Parser {
    /// Bytes of a line not yet ended.
    partial: Vec<u8>,
    /// The event being read.
    event: Event,
    /// The last chunk ended with CR: an LF starting the next one belongs to that line end.
    after_cr: bool,
}

impl Parser {
    /// Feeds `bytes`; returns the events they complete.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        let mut events = Vec::new();
        let mut rest = bytes;
        if self.after_cr && rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
        self.after_cr = false;
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.partial.extend_from_slice(&rest[..end]);
            let line = std::mem::take(&mut self.partial);
            self.line(&line, &mut events);
            let crlf = rest[end] == b'\r' && rest.get(end + 1) == Some(&b'\n');
            if rest[end] == b'\r' && end + 1 == rest.len() {
                self.after_cr = true;
            }
            rest = &rest[end + if crlf { 2 } else { 1 }..];
        }
        self.partial.extend_from_slice(rest);
        events
    }

    fn line(&mut self, line: &[u8], events: &mut Vec<Event>) {
        let line = String::from_utf8_lossy(line);
        if line.is_empty() {
            let event = std::mem::take(&mut self.event);
            if !event.is_empty() {
                events.push(event);
            }
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        match field {
            "" => {
                let comment = self.event.comment.get_or_insert_with(String::new);
                comment.push_str(&line[1..]);
            }
            "data" => match &mut self.event.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.event.data = Some(value.to_string()),
            },
            "id" => self.event.id = Some(value.to_string()),
            "event" => self.event.event = Some(value.to_string()),
            "retry" => self.event.retry = Some(value.to_string()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_read_across_chunks_and_line_ends() {
        let stream = b"id: 1\r\nevent: message\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n: ping\n\ndata:x\r\rdata: y\n\n";
        for size in [1, 2, 3, 7, stream.len()] {
            let mut parser = Parser::default();
            let events: Vec<Event> = stream.chunks(size).flat_map(|c| parser.feed(c)).collect();
            assert_eq!(events.len(), 4, "chunks of {size}: {events:?}");
            assert_eq!(events[0].id.as_deref(), Some("1"));
            assert_eq!(events[0].data.as_deref(), Some("{\"a\":\n1}"));
            assert_eq!(events[1].comment.as_deref(), Some(" ping"));
            assert_eq!(events[2].data.as_deref(), Some("x"));
            assert_eq!(events[3].data.as_deref(), Some("y"));
        }
    }

    #[test]
    fn an_event_written_back_reads_the_same() {
        let stream = "id: 7\nevent: message\nretry: 50\ndata: {\"a\":\ndata: 1}\n\n: ping\n\n";
        let events = Parser::default().feed(stream.as_bytes());
        let text: String = events.iter().map(|e| e.to_text(None)).collect();
        assert_eq!(text, stream);
        let replaced = events[0].to_text(Some("{}"));
        assert_eq!(replaced, "id: 7\nevent: message\nretry: 50\ndata: {}\n\n");
        assert_eq!(
            Parser::default().feed(replaced.as_bytes())[0]
                .data
                .as_deref(),
            Some("{}")
        );
    }
}
