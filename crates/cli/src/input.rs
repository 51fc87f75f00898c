//! Reading JSON documents from files or standard input, whole or as JSON Lines, with
//! errors that name the file, line and column. JSON Lines are read one line at a time
//! into one reused buffer: time linear in the input's size, memory bounded by its
//! longest line.

use crate::Failure;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};

/// The text of one input: a file, or standard input for `-`.
#[derive(Debug)]
pub(crate) struct Source {
    /// The name used in messages: the path as given, `<stdin>` for `-`.
    pub(crate) name: String,
    pub(crate) text: String,
    /// Whether it is a file (not standard input, nor a live server's answer).
    pub(crate) on_disk: bool,
}

/// Fails unless standard input (`-`) is among `paths` at most once.
pub(crate) fn stdin_once<'a>(paths: impl IntoIterator<Item = &'a String>) -> Result<(), Failure> {
    match paths.into_iter().filter(|path| *path == "-").count() {
        0 | 1 => Ok(()),
        _ => Err(Failure("standard input (`-`) can be read only once".into())),
    }
}

impl Source {
    /// Reads `path` (`-` for standard input) as UTF-8 text.
    pub(crate) fn read(path: &str) -> Result<Source, Failure> {
        let (name, text, on_disk) = if path == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Failure(format!("<stdin>: cannot read: {e}")))?;
            ("<stdin>".to_string(), text, false)
        } else {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure(format!("{path}: cannot read: {e}")))?;
            (path.to_string(), text, true)
        };
        Ok(Source {
            name,
            text,
            on_disk,
        })
    }

    /// The whole text as one JSON value.
    pub(crate) fn json(&self) -> Result<Value, Failure> {
        parse(&self.text, &self.name, 0)
    }
}

/// A JSON Lines input: one JSON value per line, blank lines skipped. Lines end with LF or
/// CRLF; the last one may have no line ending.
pub(crate) struct JsonLines {
    /// The name used in messages: the path as given, `<stdin>` for `-`.
    name: String,
    reader: BufReader<Box<dyn Read>>,
    /// The line being read, with its line ending; cleared and reused for each line.
    line: Vec<u8>,
    /// The number of the last line read, from 1.
    number: usize,
}

/// What [`JsonLines::next`] found.
#[derive(Debug)]
pub(crate) enum Next {
    /// A non-blank line of UTF-8 text, with its number (from 1): [`JsonLines::text`]
    /// until the next call, [`JsonLines::value`] if it is JSON.
    Line(usize),
    /// A line that is not UTF-8; the message names its line and column. The lines after
    /// it can still be read.
    Malformed(Failure),
    /// The end of the input.
    End,
}

impl JsonLines {
    /// Opens `path` (`-` for standard input); nothing is read yet.
    pub(crate) fn open(path: &str) -> Result<JsonLines, Failure> {
        if path == "-" {
            return Ok(JsonLines::new("<stdin>", Box::new(std::io::stdin().lock())));
        }
        let file =
            std::fs::File::open(path).map_err(|e| Failure(format!("{path}: cannot read: {e}")))?;
        Ok(JsonLines::new(path, Box::new(file)))
    }

    fn new(name: &str, reader: Box<dyn Read>) -> JsonLines {
        JsonLines {
            name: name.to_string(),
            reader: BufReader::with_capacity(64 * 1024, reader),
            line: Vec::new(),
            number: 0,
        }
    }

    /// The name used in messages.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Whether reading the next line may wait on the input: no whole line is buffered.
    /// A program streaming a pipe (`tail -f log | ...`) flushes its output then.
    pub(crate) fn may_wait(&self) -> bool {
        !self.reader.buffer().contains(&b'\n')
    }

    /// The next non-blank line's value; an error only when the input cannot be read.
    pub(crate) fn next(&mut self) -> Result<Next, Failure> {
        loop {
            self.line.clear();
            let read = (self.reader.read_until(b'\n', &mut self.line))
                .map_err(|e| Failure(format!("{}: cannot read: {e}", self.name)))?;
            if read == 0 {
                return Ok(Next::End);
            }
            self.number += 1;
            let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let text = match std::str::from_utf8(line) {
                Ok(text) => text,
                Err(e) => {
                    let at = e.valid_up_to();
                    let byte = line.get(at).copied().unwrap_or_default();
                    return Ok(Next::Malformed(Failure(format!(
                        "{}:{}:{}: invalid JSON: not UTF-8 (byte 0x{byte:02X})",
                        self.name,
                        self.number,
                        at + 1
                    ))));
                }
            };
            if text.trim().is_empty() {
                continue;
            }
            return Ok(Next::Line(self.number));
        }
    }

    /// The text of the line [`JsonLines::next`] found last, without its line ending.
    pub(crate) fn text(&self) -> &str {
        let line = self.line.strip_suffix(b"\n").unwrap_or(&self.line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        std::str::from_utf8(line).unwrap_or_default()
    }

    /// The value of that line, or why it is not one JSON value (the message names its
    /// line and column).
    pub(crate) fn value(&self) -> Result<Value, Failure> {
        parse(self.text(), &self.name, self.number - 1)
    }
}

/// `text` as one JSON value; errors name `name` and the line (offset by `line_offset`
/// lines) and column.
fn parse(text: &str, name: &str, line_offset: usize) -> Result<Value, Failure> {
    if text.trim().is_empty() {
        return Err(Failure(format!(
            "{name}: no JSON value (the input is empty)"
        )));
    }
    serde_json::from_str(text).map_err(|e| {
        let line = e.line() + line_offset;
        let message = e.to_string();
        // serde_json ends its message with " at line L column C"; say it the usual way.
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(head, _)| head);
        Failure(format!(
            "{name}:{line}:{}: invalid JSON: {message}",
            e.column()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source {
        Source {
            name: "in.json".into(),
            text: text.into(),
            on_disk: true,
        }
    }

    #[test]
    fn a_syntax_error_names_its_line_and_column() {
        let error = source("{\n  \"a\": 1,\n  \"b\": }").json().unwrap_err();
        assert_eq!(
            error.0, "in.json:3:8: invalid JSON: expected value",
            "{error}"
        );
    }

    /// Everything `next` finds in `bytes`, up to the end: `(line, value)` or the message.
    fn json_lines(bytes: &'static [u8]) -> Vec<Result<(usize, Value), String>> {
        let mut lines = JsonLines::new("in.jsonl", Box::new(bytes));
        let mut found = Vec::new();
        loop {
            match lines.next().unwrap() {
                Next::Line(line) => found.push(lines.value().map(|v| (line, v)).map_err(|e| e.0)),
                Next::Malformed(failure) => found.push(Err(failure.0)),
                Next::End => return found,
            }
        }
    }

    #[test]
    fn json_lines_skip_blank_lines_and_count_from_one() {
        let found = json_lines(b"1\n\n  \n{\"a\": 2}\n");
        assert_eq!(
            found,
            [Ok((1, 1.into())), Ok((4, serde_json::json!({"a": 2})))]
        );
        assert!(json_lines(b"").is_empty());
        assert!(json_lines(b"\n \r\n\t\n").is_empty());
    }

    #[test]
    fn json_lines_end_with_lf_crlf_or_nothing() {
        let found = json_lines(b"1\r\n\r\n[2,\r3]\r\n4");
        let values = [(1, 1.into()), (3, serde_json::json!([2, 3])), (4, 4.into())];
        assert_eq!(found, values.map(Ok));
    }

    #[test]
    fn a_bad_line_is_reported_and_the_next_ones_read() {
        let found = json_lines(b"1\n[1,\n\"caf\xE9\"\n2 3\n\"\xC3\xA9\"\n");
        assert_eq!(
            found,
            [
                Ok((1, 1.into())),
                Err("in.jsonl:2:3: invalid JSON: EOF while parsing a value".into()),
                Err("in.jsonl:3:5: invalid JSON: not UTF-8 (byte 0xE9)".into()),
                Err("in.jsonl:4:3: invalid JSON: trailing characters".into()),
                Ok((5, "\u{e9}".into())),
            ]
        );
    }

    #[test]
    fn empty_input_is_not_a_document() {
        let error = source(" \n").json().unwrap_err();
        assert_eq!(error.0, "in.json: no JSON value (the input is empty)");
    }
}
